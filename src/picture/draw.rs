//! What a picture shows, layer by layer, from a [`PhaseScene`]: water, areas tinted by owner,
//! centre dots, labels, units, orders with their outcomes, dislodged units with their
//! retreat options, the rule set's marks, the legend and the title. Never decides a rule:
//! every outcome drawn is one the adjudicator gave.

use crate::map::{Map, ProvinceId};
use crate::rules::{DislodgedUnit, Order, Owner, Unit, UnitKind};

use super::board::{AreaKind, Board, Point};
use super::palette;
use super::png::FONT_FAMILY;
use super::svg::{N, Svg, escape};
use super::{DrawnOrder, Mark, Outcome, PhaseScene, PictureError, RelationStyle};

/// Height of the title band above the board.
pub(crate) const BAND: f64 = 36.0;
/// A unit's drawn radius: order lines start this far from its point.
pub(super) const UNIT_R: f64 = 10.0;
/// Arrow tips stop this far short of the destination's point.
pub(super) const TIP_GAP: f64 = 12.0;
/// Where a dislodged unit is drawn, from its province's point.
const DISLODGED_DX: f64 = 14.0;
const DISLODGED_DY: f64 = -12.0;
/// How far along a failed move (or retreat) its line stops.
const BOUNCE_AT: f64 = 0.72;
/// Two moves between the same provinces in opposite directions are drawn this far apart.
const HEAD_TO_HEAD_SHIFT: f64 = 4.0;
/// Faint orders (void, refused, not counted).
pub(super) const FAINT: &str = "<g opacity=\"0.35\">\n";

/// The whole picture.
pub(super) fn draw(map: &Map, board: &Board, scene: &PhaseScene) -> String {
    let mut svg = Svg::new();
    let width = f64::from(board.width);
    let height = f64::from(board.height) + BAND;
    header(&mut svg, width, height);
    svg.put(format_args!("<g transform=\"translate(0 {})\">\n", N(BAND)));
    let layout = Layout::new(map, board, scene);
    areas(&mut svg, &layout);
    centres(&mut svg, &layout);
    labels(&mut svg, &layout);
    units(&mut svg, &layout);
    svg.raw("<g id=\"orders\">\n");
    for r in &scene.orders {
        order(&mut svg, &layout, r);
    }
    svg.raw("</g>\n");
    dislodged(&mut svg, &layout);
    marks(&mut svg, &layout);
    legend(&mut svg, &layout);
    svg.raw("</g>\n");
    title(&mut svg, width, &scene.title);
    svg.raw("</svg>\n");
    svg.finish()
}

/// The picture when the drawing data is broken: the title and what is wrong, so a
/// bulletin still goes out.
pub(super) fn broken(title_text: &str, error: &PictureError) -> String {
    let mut svg = Svg::new();
    header(&mut svg, 1152.0, 1001.0);
    title(&mut svg, 1152.0, title_text);
    svg.text(
        Point::new(12.0, 80.0),
        &error.to_string(),
        "font-size=\"14\" fill=\"#E00000\"",
    );
    svg.raw("</svg>\n");
    svg.finish()
}

fn header(svg: &mut Svg, width: f64, height: f64) {
    svg.put(format_args!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\">\n",
        w = width.round(),
        h = height.round()
    ));
    svg.raw(
        "<desc>Drawn by dipjudge. Board outlines derived from svg-diplomacy \
         (MIT, (c) 2014 Hawken Rives).</desc>\n",
    );
    // The water under everything: the straits, lakes and the Sea of Marmara that no sea
    // outline covers show through as water.
    svg.put(format_args!(
        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
        width.round(),
        height.round(),
        palette::SEA
    ));
}

pub(super) fn title(svg: &mut Svg, width: f64, text: &str) {
    svg.put(format_args!(
        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
        width.round(),
        N(BAND),
        palette::BAND
    ));
    svg.line(
        Point::new(0.0, BAND - 0.5),
        Point::new(width, BAND - 0.5),
        &format!("stroke=\"{}\" stroke-width=\"1\"", palette::BORDER),
    );
    svg.text(
        Point::new(12.0, 24.0),
        text,
        &format!("font-size=\"17\" fill=\"{}\"", palette::INK),
    );
}

/// What the drawing needs to know about the scene, worked out once.
struct Layout<'s> {
    map: &'s Map,
    board: &'s Board,
    scene: &'s PhaseScene,
    /// The dislodged units to draw beside their provinces (the scene's, then the retreat
    /// phase's own not already among them).
    dislodged: Vec<&'s DislodgedUnit>,
}

impl<'s> Layout<'s> {
    fn new(map: &'s Map, board: &'s Board, scene: &'s PhaseScene) -> Layout<'s> {
        let mut dislodged: Vec<&DislodgedUnit> = scene.dislodged.iter().collect();
        for d in &scene.position.dislodged {
            if !dislodged.iter().any(|x| same_unit(&x.unit, &d.unit)) {
                dislodged.push(d);
            }
        }
        Layout {
            map,
            board,
            scene,
            dislodged,
        }
    }

    /// Whether a unit on the board is drawn as dislodged (beside its province).
    fn is_dislodged(&self, u: &Unit) -> bool {
        self.dislodged.iter().any(|d| same_unit(&d.unit, u))
    }

    /// Where the unit in a province is drawn (on the board), else the province's point.
    fn unit_point(&self, province: ProvinceId) -> Option<Point> {
        match self.scene.position.unit_in(province) {
            Some(u) => self.board.point(self.map, u.location),
            None => self.board.area(self.map, province).and_then(|a| a.unit),
        }
    }

    /// Where the dislodged unit from a province is drawn.
    fn dislodged_point(&self, province: ProvinceId) -> Option<Point> {
        let at = match self
            .dislodged
            .iter()
            .find(|d| d.unit.location.province == province)
        {
            Some(d) => self.board.point(self.map, d.unit.location),
            None => self.board.area(self.map, province).and_then(|a| a.unit),
        }?;
        Some(at.offset(DISLODGED_DX, DISLODGED_DY))
    }

    /// Whether a move from `to` back to `from` is among the results (a head-to-head
    /// battle or a swap): both arrows are then drawn apart.
    fn has_reverse_move(&self, from: ProvinceId, to: ProvinceId) -> bool {
        self.scene.orders.iter().any(|r| match r.order {
            Order::Move { unit, dest, .. } => unit.province() == to && dest.province == from,
            _ => false,
        })
    }

    /// The fleets convoying `army` to `dest`, in order along their route from the army
    /// (the shortest chain of their provinces over the map's borders); empty when their
    /// orders make no chain. Void and refused convoys are no part of it.
    fn convoy_route(&self, army: ProvinceId, dest: ProvinceId) -> Vec<ProvinceId> {
        let fleets: Vec<ProvinceId> = self
            .scene
            .orders
            .iter()
            .filter_map(|r| match r.order {
                Order::Convoy {
                    unit,
                    army: a,
                    dest: d,
                } if a.province() == army
                    && d.province == dest
                    && !matches!(r.outcome, Outcome::Void | Outcome::Refused) =>
                {
                    Some(unit.province())
                }
                _ => None,
            })
            .collect();
        // Breadth first from the army; `came_from[i]`: the fleet before fleet i (None: the
        // army), once reached.
        let mut came_from: Vec<Option<Option<usize>>> = vec![None; fleets.len()];
        let mut queue = std::collections::VecDeque::new();
        for (i, f) in fleets.iter().enumerate() {
            if self.map.any_border(army, *f) {
                if let Some(slot) = came_from.get_mut(i) {
                    *slot = Some(None);
                }
                queue.push_back(i);
            }
        }
        while let Some(i) = queue.pop_front() {
            let Some(&here) = fleets.get(i) else { continue };
            if self.map.any_border(here, dest) {
                let mut route = vec![here];
                let mut at = i;
                while let Some(Some(Some(before))) = came_from.get(at) {
                    if let Some(&f) = fleets.get(*before) {
                        route.push(f);
                    }
                    at = *before;
                }
                route.reverse();
                return route;
            }
            for (j, f) in fleets.iter().enumerate() {
                if came_from.get(j) == Some(&None) && self.map.any_border(here, *f) {
                    if let Some(slot) = came_from.get_mut(j) {
                        *slot = Some(Some(i));
                    }
                    queue.push_back(j);
                }
            }
        }
        Vec::new()
    }
}

/// The same unit: by identity when both have one, else by owner, kind and place.
fn same_unit(a: &Unit, b: &Unit) -> bool {
    if a.id.is_assigned() && b.id.is_assigned() {
        a.id == b.id
    } else {
        a.owner == b.owner && a.kind == b.kind && a.location == b.location
    }
}

/// A unit's (or order's) colour.
fn colour(owner: Owner) -> &'static str {
    match owner {
        Owner::Power(p) => palette::power(p).unit,
        Owner::Neutral => palette::NEUTRAL,
    }
}

/// Seas first, then land on top (sea outlines run under some coasts).
fn areas(svg: &mut Svg, l: &Layout<'_>) {
    svg.put(format_args!(
        "<g id=\"seas\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.8\" stroke-linejoin=\"round\">\n",
        palette::SEA,
        palette::SEA_EDGE
    ));
    for area in l.board.areas.values().filter(|a| a.kind == AreaKind::Sea) {
        for d in &area.paths {
            svg.put(format_args!("<path d=\"{d}\"/>\n"));
        }
    }
    svg.raw("</g>\n");
    svg.put(format_args!(
        "<g id=\"land\" stroke=\"{}\" stroke-width=\"0.8\" stroke-linejoin=\"round\">\n",
        palette::BORDER
    ));
    for (code, area) in &l.board.areas {
        let fill = match area.kind {
            AreaKind::Sea => continue,
            AreaKind::Impassable => palette::IMPASSABLE,
            AreaKind::Land => l
                .map
                .find_province(code)
                .and_then(|p| l.scene.position.owner_of(p))
                .map_or(palette::LAND, |p| palette::power(p).land),
        };
        for d in &area.paths {
            svg.put(format_args!("<path d=\"{d}\" fill=\"{fill}\"/>\n"));
        }
    }
    svg.raw("</g>\n");
}

fn centres(svg: &mut Svg, l: &Layout<'_>) {
    svg.put(format_args!(
        "<g id=\"centres\" stroke=\"{}\" stroke-width=\"1.2\">\n",
        palette::INK
    ));
    for p in l.map.supply_centres() {
        let Some(at) = l.board.area(l.map, p).and_then(|a| a.centre) else {
            continue;
        };
        let fill = l
            .scene
            .position
            .owner_of(p)
            .map_or(palette::UNOWNED_DOT, |o| palette::power(o).unit);
        svg.circle(at, 4.0, &format!("fill=\"{fill}\""));
    }
    svg.raw("</g>\n");
}

/// Each province's display code (`Par`, `NTH`) under its unit point.
fn labels(svg: &mut Svg, l: &Layout<'_>) {
    svg.put(format_args!(
        "<g id=\"labels\" font-size=\"9\" text-anchor=\"middle\" fill=\"{}\" opacity=\"0.75\">\n",
        palette::INK
    ));
    for p in l.map.province_ids() {
        let Some(at) = l.board.area(l.map, p).and_then(|a| a.unit) else {
            continue;
        };
        svg.text(at.offset(0.0, 21.0), &l.map.display_code(p), "");
    }
    svg.raw("</g>\n");
}

/// A unit's shape: an army a disc, a fleet a hull with a sail.
pub(super) fn unit_shape(
    svg: &mut Svg,
    kind: UnitKind,
    at: Point,
    fill: &str,
    edge: &str,
    edge_width: f64,
) {
    let attrs = format!(
        "fill=\"{fill}\" stroke=\"{edge}\" stroke-width=\"{}\" stroke-linejoin=\"round\"",
        N(edge_width)
    );
    match kind {
        UnitKind::Army => svg.circle(at, 8.0, &attrs),
        UnitKind::Fleet => {
            let p = |dx: f64, dy: f64| at.offset(dx, dy);
            svg.polygon(
                &[p(-11.0, 1.0), p(11.0, 1.0), p(7.0, 7.5), p(-7.0, 7.5)],
                &attrs,
            );
            svg.polygon(&[p(-1.0, -0.5), p(-1.0, -11.0), p(8.0, -0.5)], &attrs);
        }
    }
}

/// The units on the board (dislodged ones are drawn later, beside their provinces).
fn units(svg: &mut Svg, l: &Layout<'_>) {
    svg.raw("<g id=\"units\">\n");
    for u in &l.scene.position.units {
        if l.is_dislodged(u) {
            continue;
        }
        if let Some(at) = l.board.point(l.map, u.location) {
            unit_shape(svg, u.kind, at, colour(u.owner), palette::INK, 1.3);
        }
    }
    svg.raw("</g>\n");
}

/// Dislodged units beside their provinces, red-edged, with thin dashed arrows to where
/// they may retreat (unless the scene already shows their retreat or disband).
fn dislodged(svg: &mut Svg, l: &Layout<'_>) {
    if l.dislodged.is_empty() {
        return;
    }
    svg.raw("<g id=\"dislodged\">\n");
    for d in &l.dislodged {
        let province = d.unit.location.province;
        let Some(at) = l.dislodged_point(province) else {
            continue;
        };
        let ordered = l.scene.orders.iter().any(|r| {
            matches!(r.order, Order::Retreat { unit, .. } | Order::Disband { unit }
                if unit.province() == province)
        });
        if !ordered {
            for option in &d.retreat_options {
                let Some(to) = l.board.point(l.map, *option) else {
                    continue;
                };
                let (start, tip) = (at.step(to, 9.0), to.step(at, 10.0));
                let attrs = format!(
                    "fill=\"none\" stroke=\"{}\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"",
                    palette::INK
                );
                let base = tip.step(start, 6.0);
                svg.line(start, base, &attrs);
                head(svg, start, tip, 6.0, 3.0, palette::INK);
            }
        }
        unit_shape(
            svg,
            d.unit.kind,
            at,
            colour(d.unit.owner),
            palette::FAIL,
            2.2,
        );
    }
    svg.raw("</g>\n");
}

/// A filled arrowhead with its tip at `tip`, pointing away from `from`.
pub(super) fn head(
    svg: &mut Svg,
    from: Point,
    tip: Point,
    length: f64,
    half_width: f64,
    fill: &str,
) {
    let len = from.distance(tip);
    if len < 1e-9 {
        return;
    }
    let (ux, uy) = ((tip.x - from.x) / len, (tip.y - from.y) / len);
    let base = tip.offset(-ux * length, -uy * length);
    svg.polygon(
        &[
            tip,
            base.offset(-uy * half_width, ux * half_width),
            base.offset(uy * half_width, -ux * half_width),
        ],
        &format!(
            "fill=\"{fill}\" stroke=\"{}\" stroke-width=\"1\" stroke-linejoin=\"round\"",
            palette::INK
        ),
    );
}

/// How an order line is stroked.
#[derive(Clone, Copy)]
pub(super) enum Line {
    Solid,
    /// Supports.
    Dashed,
    /// Convoys.
    Dotted,
}

/// An order's line through `points` in the power's colour over a dark casing, with an
/// arrowhead at the end when `arrow`.
pub(super) fn order_line(svg: &mut Svg, points: &[Point], colour: &str, line: Line, arrow: bool) {
    let (Some(&last), Some(&before)) = (
        points.last(),
        points.len().checked_sub(2).and_then(|i| points.get(i)),
    ) else {
        return;
    };
    let mut body = points.to_vec();
    if arrow && let Some(end) = body.last_mut() {
        *end = last.step(before, 7.0);
    }
    // A convoy's route is dark dots on a white casing, apart from the coloured moves and
    // supports it runs beside.
    let (casing, core, dash, cap) = match line {
        Line::Solid => (palette::INK, colour, "", "round"),
        Line::Dashed => (palette::INK, colour, " stroke-dasharray=\"7 4\"", "butt"),
        Line::Dotted => (
            "#FFFFFF",
            palette::INK,
            " stroke-dasharray=\"0.1 5\"",
            "round",
        ),
    };
    svg.polyline(
        &body,
        &format!(
            "fill=\"none\" stroke=\"{casing}\" stroke-width=\"4.4\" stroke-linecap=\"{cap}\" stroke-linejoin=\"round\"{dash}"
        ),
    );
    svg.polyline(
        &body,
        &format!(
            "fill=\"none\" stroke=\"{core}\" stroke-width=\"2.4\" stroke-linecap=\"{cap}\" stroke-linejoin=\"round\"{dash}"
        ),
    );
    if arrow {
        head(svg, before, last, 11.0, 5.5, colour);
    }
}

/// A red cross with a white halo.
pub(super) fn cross(svg: &mut Svg, at: Point, size: f64) {
    for (stroke, width) in [("#FFFFFF", 5.4), (palette::FAIL, 2.8)] {
        let attrs =
            format!("stroke=\"{stroke}\" stroke-width=\"{width}\" stroke-linecap=\"round\"");
        svg.line(at.offset(-size, -size), at.offset(size, size), &attrs);
        svg.line(at.offset(-size, size), at.offset(size, -size), &attrs);
    }
}

/// A ring round a point (holds; builds).
pub(super) fn ring(svg: &mut Svg, at: Point, r: f64, colour: &str) {
    svg.circle(
        at,
        r,
        &format!(
            "fill=\"none\" stroke=\"{}\" stroke-width=\"4.4\"",
            palette::INK
        ),
    );
    svg.circle(
        at,
        r,
        &format!("fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.4\""),
    );
}

/// A move or retreat from `from` to `to`: a full arrow, or a line stopping short with a
/// red cross where it bounced.
pub(super) fn movement(svg: &mut Svg, from: Point, to: Point, colour: &str, bounced: bool) {
    let start = from.step(to, UNIT_R);
    let tip = to.step(from, TIP_GAP);
    if bounced {
        let stop = start.towards(tip, BOUNCE_AT);
        order_line(svg, &[start, stop], colour, Line::Solid, false);
        cross(svg, stop, 5.0);
    } else {
        order_line(svg, &[start, tip], colour, Line::Solid, true);
    }
}

/// One order with its outcome.
fn order(svg: &mut Svg, l: &Layout<'_>, r: &DrawnOrder) {
    // Units without an order hold by default: nothing to draw.
    if !r.given && matches!(r.order, Order::Hold { .. }) {
        return;
    }
    let faint = matches!(
        r.outcome,
        Outcome::Void | Outcome::NotCounted | Outcome::Refused
    );
    let outcome = r.outcome.class();
    let kind = match r.order {
        Order::Hold { .. } => "hold",
        Order::Move { .. } => "move",
        Order::SupportHold { .. } | Order::SupportMove { .. } => "support",
        Order::Convoy { .. } => "convoy",
        Order::Retreat { .. } => "retreat",
        Order::Disband { .. } => "disband",
        Order::Build { .. } => "build",
        Order::Remove { .. } => "remove",
        Order::Waive => return,
    };
    svg.put(format_args!(
        "<g class=\"{kind} {outcome}\" data-order=\"{}\">\n",
        escape(&r.order.display(l.map))
    ));
    if faint {
        svg.raw(FAINT);
    }
    let c = colour(r.owner);
    let failed = r.outcome != Outcome::Succeeded;
    match r.order {
        Order::Hold { unit } => {
            if let Some(at) = l.unit_point(unit.province()) {
                ring(svg, at, 13.0, c);
            }
        }
        Order::Move { unit, dest, .. } => {
            if let (Some(from), Some(to)) =
                (l.unit_point(unit.province()), l.board.point(l.map, dest))
            {
                let (from, to) = if l.has_reverse_move(unit.province(), dest.province) {
                    shifted(from, to)
                } else {
                    (from, to)
                };
                movement(svg, from, to, c, failed && !faint);
            }
        }
        Order::SupportHold { unit, target } => {
            if let (Some(from), Some(to)) = (
                l.unit_point(unit.province()),
                l.unit_point(target.province()),
            ) {
                support(svg, from, to.step(from, 14.0), c, r.outcome == Outcome::Cut);
            }
        }
        Order::SupportMove { unit, target, dest } => {
            if let (Some(from), Some(target_at), Some(dest_at)) = (
                l.unit_point(unit.province()),
                l.unit_point(target.province()),
                l.board.point(l.map, dest),
            ) {
                let mid = target_at.towards(dest_at, 0.5);
                support(svg, from, mid, c, r.outcome == Outcome::Cut);
            }
        }
        Order::Convoy { unit, army, dest } => {
            if let (Some(fleet), Some(from), Some(to)) = (
                l.unit_point(unit.province()),
                l.unit_point(army.province()),
                l.board.point(l.map, dest),
            ) {
                // Along the chain of convoying fleets: each fleet draws the stretch that
                // reaches it, the last one the stretch on to the destination too. A fleet
                // on no chain draws army - fleet - destination alone.
                let route = l.convoy_route(army.province(), dest.province);
                let place = route.iter().position(|f| *f == unit.province());
                let before = match place {
                    Some(i) => i
                        .checked_sub(1)
                        .and_then(|b| route.get(b))
                        .and_then(|b| l.unit_point(*b))
                        .unwrap_or(from),
                    None => from,
                };
                let last = place.is_none_or(|i| i + 1 == route.len());
                let leg = [before.step(fleet, UNIT_R), fleet.step(before, UNIT_R)];
                order_line(svg, &leg, c, Line::Dotted, false);
                if last {
                    let leg = [fleet.step(to, UNIT_R), to.step(fleet, TIP_GAP)];
                    order_line(svg, &leg, c, Line::Dotted, true);
                }
                if failed && !faint {
                    cross(svg, fleet.offset(0.0, -16.0), 5.0);
                }
            }
        }
        Order::Retreat { unit, dest } => {
            if let (Some(from), Some(to)) = (
                l.dislodged_point(unit.province()),
                l.board.point(l.map, dest),
            ) {
                movement(svg, from, to, c, failed && !faint);
            }
        }
        Order::Disband { unit } => {
            if let Some(at) = l.dislodged_point(unit.province()) {
                cross(svg, at, 9.0);
            }
        }
        Order::Build { unit } => {
            if let Some(at) = l.board.point(l.map, unit.location) {
                let kind = unit.kind.unwrap_or(UnitKind::Army);
                unit_shape(svg, kind, at, c, palette::INK, 1.3);
                ring(svg, at, 14.0, c);
                plus(svg, at.offset(12.0, -12.0));
            }
        }
        Order::Remove { unit } => {
            if let Some(at) = l.unit_point(unit.province()) {
                cross(svg, at, 10.0);
            }
        }
        Order::Waive => {}
    }
    if faint {
        svg.raw("</g>\n");
    }
    svg.raw("</g>\n");
}

/// The two ends of a move drawn beside its reverse: moved to the right of its direction.
pub(super) fn shifted(from: Point, to: Point) -> (Point, Point) {
    let len = from.distance(to);
    if len < 1e-9 {
        return (from, to);
    }
    let (nx, ny) = (
        -(to.y - from.y) / len * HEAD_TO_HEAD_SHIFT,
        (to.x - from.x) / len * HEAD_TO_HEAD_SHIFT,
    );
    (from.offset(nx, ny), to.offset(nx, ny))
}

/// A support: a dashed line ending in a dot, crossed half way when cut.
pub(super) fn support(svg: &mut Svg, from: Point, to: Point, colour: &str, cut: bool) {
    let start = from.step(to, UNIT_R);
    order_line(svg, &[start, to], colour, Line::Dashed, false);
    svg.circle(
        to,
        3.2,
        &format!(
            "fill=\"{colour}\" stroke=\"{}\" stroke-width=\"1\"",
            palette::INK
        ),
    );
    if cut {
        cross(svg, start.towards(to, 0.5), 5.0);
    }
}

/// A build's badge: a plus in a white disc.
pub(super) fn plus(svg: &mut Svg, at: Point) {
    svg.circle(
        at,
        5.5,
        &format!(
            "fill=\"#FFFFFF\" stroke=\"{}\" stroke-width=\"1.2\"",
            palette::INK
        ),
    );
    let attrs = format!("stroke=\"{}\" stroke-width=\"1.8\"", palette::INK);
    svg.line(at.offset(-3.2, 0.0), at.offset(3.2, 0.0), &attrs);
    svg.line(at.offset(0.0, -3.2), at.offset(0.0, 3.2), &attrs);
}

/// Text with a white halo, readable on any fill.
pub(super) fn halo_text(svg: &mut Svg, at: Point, text: &str, size: f64, anchor: &str) {
    svg.text(
        at,
        text,
        &format!(
            "font-size=\"{}\" text-anchor=\"{anchor}\" fill=\"{}\" stroke=\"#FFFFFF\" \
             stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"",
            N(size),
            palette::INK
        ),
    );
}

fn relation_stroke(style: RelationStyle) -> String {
    let (colour, dash) = match style {
        RelationStyle::Treaty => (palette::TREATY, ""),
        RelationStyle::War => (palette::WAR, " stroke-dasharray=\"9 5\""),
        RelationStyle::Client => (palette::CLIENT, " stroke-dasharray=\"1 5\""),
    };
    format!("fill=\"none\" stroke=\"{colour}\" stroke-width=\"3.2\" stroke-linecap=\"round\"{dash}")
}

/// Relation lines stop this far short of the provinces they join (clear of the units).
const RELATION_GAP: f64 = UNIT_R + 3.0;
/// Relation lines between the same two provinces (a treaty and a war of one pair) are
/// drawn side by side, this far apart.
const RELATION_SPACING: f64 = 7.0;

/// The rule set's marks: relation lines, then province notes, then unit notes.
fn marks(svg: &mut Svg, l: &Layout<'_>) {
    if l.scene.marks.is_empty() {
        return;
    }
    svg.raw("<g id=\"marks\">\n");
    let area_point = |p: ProvinceId| l.board.area(l.map, p).and_then(|a| a.unit);
    let relations: Vec<(ProvinceId, ProvinceId, RelationStyle)> = l
        .scene
        .marks
        .iter()
        .filter_map(|m| match m {
            Mark::Relation {
                from, to, style, ..
            } => Some((*from, *to, *style)),
            _ => None,
        })
        .collect();
    // The same two provinces, whichever way round.
    let pair = |x: ProvinceId, y: ProvinceId| (x.min(y), x.max(y));
    for (i, (from, to, style)) in relations.iter().enumerate() {
        let (Some(a), Some(b)) = (area_point(*from), area_point(*to)) else {
            continue;
        };
        let len = a.distance(b);
        if len < 2.0 * RELATION_GAP + 1.0 {
            continue;
        }
        // Side by side with the other lines of the pair, spread across the line from the
        // pair's first province to its second, whichever way each was given.
        let same =
            |r: &&(ProvinceId, ProvinceId, RelationStyle)| pair(r.0, r.1) == pair(*from, *to);
        let count = relations.iter().filter(same).count();
        let nth = relations.iter().take(i).filter(same).count();
        let mut shift = (nth as f64 - (count as f64 - 1.0) / 2.0) * RELATION_SPACING;
        if from > to {
            shift = -shift;
        }
        let (nx, ny) = (-(b.y - a.y) / len * shift, (b.x - a.x) / len * shift);
        let (a, b) = (a.offset(nx, ny), b.offset(nx, ny));
        svg.raw("<g opacity=\"0.85\">\n");
        svg.line(
            a.step(b, RELATION_GAP),
            b.step(a, RELATION_GAP),
            &relation_stroke(*style),
        );
        svg.raw("</g>\n");
    }
    for m in &l.scene.marks {
        if let Mark::ProvinceNote { province, text } = m
            && let Some(at) = area_point(*province)
        {
            halo_text(svg, at.offset(0.0, 32.0), text, 10.0, "middle");
        }
    }
    for m in &l.scene.marks {
        if let Mark::UnitNote { province, text } = m
            && let Some(at) = l.unit_point(*province)
        {
            // A dislodged unit is drawn up and to the right of its province: the note of
            // the unit there goes to the left.
            let beside_dislodged = l
                .dislodged
                .iter()
                .any(|d| d.unit.location.province == *province);
            if beside_dislodged {
                halo_text(svg, at.offset(-11.0, -8.0), text, 11.0, "end");
            } else {
                halo_text(svg, at.offset(11.0, -8.0), text, 11.0, "start");
            }
        }
    }
    svg.raw("</g>\n");
}

/// The legend box: `Mark::Legend` lines and each relation's text with a sample of its
/// line, in the order the marks came.
fn legend(svg: &mut Svg, l: &Layout<'_>) {
    let entries: Vec<(Option<RelationStyle>, &str)> = l
        .scene
        .marks
        .iter()
        .filter_map(|m| match m {
            Mark::Legend(text) => Some((None, text.as_str())),
            Mark::Relation { text, style, .. } => Some((Some(*style), text.as_str())),
            _ => None,
        })
        .collect();
    if entries.is_empty() {
        return;
    }
    const LINE: f64 = 17.0;
    const SAMPLE: f64 = 30.0;
    let widest = entries
        .iter()
        .map(|(style, text)| {
            text.chars().count() as f64 * 6.8 + if style.is_some() { SAMPLE } else { 0.0 }
        })
        .fold(0.0, f64::max);
    let (x, y) = (8.0, 8.0);
    let width = (widest + 20.0).min(520.0);
    let height = entries.len() as f64 * LINE + 12.0;
    svg.raw("<g id=\"legend\">\n");
    svg.put(format_args!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"#FFFFFF\" \
         fill-opacity=\"0.9\" stroke=\"{}\" stroke-width=\"1\"/>\n",
        N(x),
        N(y),
        N(width),
        N(height),
        palette::INK
    ));
    for (i, (style, text)) in entries.iter().enumerate() {
        let baseline = y + 6.0 + LINE * (i as f64 + 1.0) - 4.0;
        let mut tx = x + 10.0;
        if let Some(style) = style {
            let mid = baseline - 4.0;
            svg.line(
                Point::new(tx, mid),
                Point::new(tx + SAMPLE - 8.0, mid),
                &relation_stroke(*style),
            );
            tx += SAMPLE;
        }
        svg.text(
            Point::new(tx, baseline),
            text,
            &format!("font-size=\"12\" fill=\"{}\"", palette::INK),
        );
    }
    svg.raw("</g>\n");
}
