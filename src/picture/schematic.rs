//! A schematic picture of any board that has no drawing data: each province a node placed
//! by a graph layout of the board's borders, land a rounded square and sea a circle, tinted
//! by the owner of its centre; borders as lines between nodes; units and orders drawn as on
//! the standard board (`draw`'s shapes), in one colour per power; a legend of the powers.
//!
//! The layout is stress majorization (Gansner, Koren and North, *Graph Drawing by Stress
//! Majorization*, 2004): the hop distances between provinces are the ideal distances, the
//! start is their classical scaling (two leading eigenvectors by power iteration from fixed
//! vectors), then a fixed number of node-by-node majorization sweeps and of overlap-removal
//! passes. Only `+ - * /` and `sqrt` are used (correctly rounded everywhere), with no
//! randomness: the same board gives the same bytes on every machine. It costs
//! O(sweeps × provinces²): in an unoptimised test build, 1.3 s for Youngstown's 182
//! provinces and 0.3 s for the standard board's 75 (not measured optimised); a caller
//! drawing many phases of one board makes its [`SchematicLayout`] once ([`render_with`]).

use crate::map::Terrain;
use crate::map::UnitKindData;
use crate::map::board::{Board, BoardProvince, Centre, Place, PowerIndex, ProvinceIndex};
use crate::rules::UnitKind;

use super::Outcome;
use super::board::Point;
use super::draw::{
    self, FAINT, Line, TIP_GAP, UNIT_R, cross, halo_text, head, movement, order_line, plus, ring,
    shifted, support, unit_shape,
};
use super::palette;
use super::png::FONT_FAMILY;
use super::svg::{N, Svg, escape};

/// The length a border is drawn at, about (the graph is scaled to it, within bounds).
const EDGE: f64 = 64.0;
/// The graph's width and height bounds.
const MIN_PLOT_W: f64 = 860.0;
const MAX_PLOT_W: f64 = 1500.0;
const MIN_PLOT_H: f64 = 500.0;
const MAX_PLOT_H: f64 = 1300.0;
/// The strip under the graph where impassable provinces (no border) stand.
const STRIP: f64 = 56.0;
/// The legend column's width.
const LEGEND_W: f64 = 220.0;
/// A node's half size.
const NODE_R: f64 = 15.0;
/// The least distance between two nodes' centres.
const NODE_GAP: f64 = 2.0 * NODE_R + 14.0;
/// Space kept round the graph.
const MARGIN: f64 = 36.0;
/// Sweeps of stress majorization, and passes of overlap removal.
const SWEEPS: usize = 120;
const SPREAD_PASSES: usize = 60;
/// Power iterations for each of the two starting eigenvectors.
const POWER_ITERATIONS: usize = 80;
/// A legend line's height.
const LEGEND_LINE: f64 = 18.0;

/// A unit on the schematic board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneUnit {
    pub power: PowerIndex,
    pub kind: UnitKindData,
    pub place: Place,
}

/// An order as the schematic draws it, in the board's own terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardOrder {
    Hold {
        at: ProvinceIndex,
    },
    Move {
        from: ProvinceIndex,
        to: ProvinceIndex,
    },
    SupportHold {
        from: ProvinceIndex,
        target: ProvinceIndex,
    },
    SupportMove {
        from: ProvinceIndex,
        target: ProvinceIndex,
        to: ProvinceIndex,
    },
    Convoy {
        from: ProvinceIndex,
        army: ProvinceIndex,
        to: ProvinceIndex,
    },
    Retreat {
        from: ProvinceIndex,
        to: ProvinceIndex,
    },
    Disband {
        at: ProvinceIndex,
    },
    Build {
        kind: UnitKindData,
        at: Place,
    },
    Remove {
        at: ProvinceIndex,
    },
}

/// An order, whose it is, how it came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneOrder {
    pub power: PowerIndex,
    pub order: BoardOrder,
    pub outcome: Outcome,
}

/// What a schematic picture shows: the owners of centres, the units, the units dislodged
/// (with where they may retreat) and the orders with their outcomes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardScene {
    pub title: String,
    pub owners: Vec<(ProvinceIndex, PowerIndex)>,
    pub units: Vec<SceneUnit>,
    pub dislodged: Vec<(SceneUnit, Vec<ProvinceIndex>)>,
    pub orders: Vec<SceneOrder>,
}

impl BoardScene {
    /// The board as a game on it starts: its owners and units, no order.
    pub fn start(board: &Board, title: impl Into<String>) -> BoardScene {
        BoardScene {
            title: title.into(),
            owners: board.owners.clone(),
            units: board
                .units
                .iter()
                .map(|u| SceneUnit {
                    power: u.power,
                    kind: u.kind,
                    place: u.place,
                })
                .collect(),
            dislodged: Vec::new(),
            orders: Vec::new(),
        }
    }
}

/// Where each province of a board is drawn, and the canvas's size (the graph on the
/// left, the legend in a column on the right, the title band on top).
#[derive(Clone, Debug, PartialEq)]
pub struct SchematicLayout {
    /// One point per province, in the board's province order.
    points: Vec<Point>,
    pub width: f64,
    pub height: f64,
}

impl SchematicLayout {
    /// A province's point on the canvas (the title band above included).
    pub fn point(&self, p: ProvinceIndex) -> Option<(f64, f64)> {
        self.points.get(p.index()).map(|q| (q.x, q.y))
    }

    fn at(&self, p: ProvinceIndex) -> Option<Point> {
        self.points.get(p.index()).copied()
    }
}

/// The hop distances between the provinces `nodes` (board indices) over any border, as
/// rows in `nodes` order; pairs no path joins are one more than the longest path.
fn hops(board: &Board, nodes: &[ProvinceIndex]) -> Vec<Vec<f64>> {
    let n = nodes.len();
    let neighbours: Vec<Vec<usize>> = nodes
        .iter()
        .map(|p| {
            board
                .neighbours(*p)
                .iter()
                .filter_map(|q| nodes.binary_search(q).ok())
                .collect()
        })
        .collect();
    let mut out = vec![vec![f64::INFINITY; n]; n];
    let mut longest = 1.0_f64;
    for (start, row) in out.iter_mut().enumerate() {
        let mut queue = std::collections::VecDeque::from([start]);
        if let Some(x) = row.get_mut(start) {
            *x = 0.0;
        }
        while let Some(here) = queue.pop_front() {
            let d = row.get(here).copied().unwrap_or(0.0);
            for &next in neighbours.get(here).map_or(&[][..], Vec::as_slice) {
                if let Some(x) = row.get_mut(next)
                    && x.is_infinite()
                {
                    *x = d + 1.0;
                    longest = longest.max(d + 1.0);
                    queue.push_back(next);
                }
            }
        }
    }
    for row in &mut out {
        for x in row.iter_mut() {
            if x.is_infinite() {
                *x = longest + 1.0;
            }
        }
    }
    out
}

/// The leading eigenvector (and value) of the symmetric matrix `m` shifted to be positive
/// semi-definite, by power iteration from `start`, orthogonal to `against`.
fn leading(m: &[Vec<f64>], start: Vec<f64>, against: Option<&[f64]>) -> (Vec<f64>, f64) {
    let n = m.len();
    // Gershgorin: every eigenvalue is at least -shift.
    let shift = m
        .iter()
        .map(|row| row.iter().map(|x| x.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut v = start;
    let mut value = 0.0;
    for _ in 0..POWER_ITERATIONS {
        if let Some(a) = against {
            let k = dot(&v, a);
            for (x, y) in v.iter_mut().zip(a) {
                *x -= k * y;
            }
        }
        let norm = dot(&v, &v).sqrt();
        if norm < 1e-12 {
            break;
        }
        for x in &mut v {
            *x /= norm;
        }
        let next: Vec<f64> = (0..n)
            .map(|i| {
                let row = m.get(i).map_or(&[][..], Vec::as_slice);
                dot(row, &v) + shift * v.get(i).copied().unwrap_or(0.0)
            })
            .collect();
        value = dot(&next, &v) - shift;
        v = next;
    }
    if let Some(a) = against {
        let k = dot(&v, a);
        for (x, y) in v.iter_mut().zip(a) {
            *x -= k * y;
        }
    }
    let norm = dot(&v, &v).sqrt();
    if norm > 1e-12 {
        for x in &mut v {
            *x /= norm;
        }
    }
    (v, value)
}

/// The schematic layout of a board (see the module doc).
pub fn layout(board: &Board) -> SchematicLayout {
    // Provinces with borders make the graph; impassable ones stand in a strip below it.
    let (nodes, apart): (Vec<ProvinceIndex>, Vec<ProvinceIndex>) = board
        .province_indices()
        .partition(|p| !board.province(*p).is_some_and(|x| x.impassable));
    let pts = stress(&hops(board, &nodes));

    // Scale to the length of a border, within bounds; then part nodes that overlap.
    let (min, max) = bounds(&pts);
    let (w, h) = ((max.x - min.x).max(1e-6), (max.y - min.y).max(1e-6));
    let mut edges: Vec<f64> = board
        .borders
        .army
        .iter()
        .copied()
        .chain(
            board
                .borders
                .fleet
                .iter()
                .map(|(a, b)| (a.province, b.province)),
        )
        .filter_map(|(a, b)| {
            let (i, j) = (nodes.binary_search(&a).ok()?, nodes.binary_search(&b).ok()?);
            Some(pts.get(i)?.distance(*pts.get(j)?))
        })
        .collect();
    edges.sort_by(f64::total_cmp);
    let median = edges
        .get(edges.len() / 2)
        .copied()
        .filter(|m| *m > 1e-6)
        .unwrap_or(1.0);
    let legend_h = board.powers.len() as f64 * LEGEND_LINE + 60.0;
    let strip = if apart.is_empty() { 0.0 } else { STRIP };
    let scale = EDGE / median;
    let plot_w = (w * scale).clamp(MIN_PLOT_W, MAX_PLOT_W);
    let plot_h = (h * scale).clamp(MIN_PLOT_H.max(legend_h - strip), MAX_PLOT_H);
    let scale = scale.min(plot_w / w).min(plot_h / h);
    let (ox, oy) = (
        MARGIN + (plot_w - w * scale) / 2.0,
        draw::BAND + MARGIN + (plot_h - h * scale) / 2.0,
    );
    let mut pts: Vec<Point> = pts
        .iter()
        .map(|p| Point::new(ox + (p.x - min.x) * scale, oy + (p.y - min.y) * scale))
        .collect();
    let (lo, hi) = (
        Point::new(MARGIN, draw::BAND + MARGIN),
        Point::new(MARGIN + plot_w, draw::BAND + MARGIN + plot_h),
    );
    spread(&mut pts, lo, hi);

    let mut points = vec![Point::new(0.0, 0.0); board.provinces.len()];
    for (p, at) in nodes.iter().zip(pts) {
        if let Some(slot) = points.get_mut(p.index()) {
            *slot = at;
        }
    }
    for (k, p) in apart.iter().enumerate() {
        if let Some(slot) = points.get_mut(p.index()) {
            *slot = Point::new(
                MARGIN + NODE_R + k as f64 * NODE_GAP,
                hi.y + strip - NODE_R - 10.0,
            );
        }
    }
    SchematicLayout {
        points,
        width: (plot_w + 2.0 * MARGIN + LEGEND_W).round(),
        height: (hi.y + strip + MARGIN).round(),
    }
}

/// Stress majorization of the hop distances `d` from their classical scaling, lain down
/// the wider way across; in the distances' own units.
fn stress(d: &[Vec<f64>]) -> Vec<Point> {
    let n = d.len();
    // Classical scaling: the double-centred squared distances.
    let sq: Vec<Vec<f64>> = d
        .iter()
        .map(|r| r.iter().map(|x| x * x).collect())
        .collect();
    let nf = n.max(1) as f64;
    let row_mean: Vec<f64> = sq.iter().map(|r| r.iter().sum::<f64>() / nf).collect();
    let all_mean = row_mean.iter().sum::<f64>() / nf;
    let b: Vec<Vec<f64>> = sq
        .iter()
        .zip(&row_mean)
        .map(|(r, ri)| {
            r.iter()
                .zip(&row_mean)
                .map(|(x, rj)| -0.5 * (x - ri - rj + all_mean))
                .collect()
        })
        .collect();
    let start = |k: usize| -> Vec<f64> {
        (0..n)
            .map(|i| ((i * (7 + 4 * k) + 3 * k) % 23) as f64 / 23.0 - 0.5 + i as f64 / nf)
            .collect()
    };
    let (v1, l1) = leading(&b, start(0), None);
    let (v2, l2) = leading(&b, start(1), Some(&v1));
    let (s1, s2) = (l1.max(1e-6).sqrt(), l2.max(1e-6).sqrt());
    let mut xs: Vec<f64> = v1.iter().map(|v| v * s1).collect();
    let mut ys: Vec<f64> = v2.iter().map(|v| v * s2).collect();

    // Node by node, on flat rows (this loop is the cost of a layout).
    for _ in 0..SWEEPS {
        for (i, row) in d.iter().enumerate() {
            let (Some(&hx), Some(&hy)) = (xs.get(i), ys.get(i)) else {
                continue;
            };
            let (mut sx, mut sy, mut sw) = (0.0, 0.0, 0.0);
            for (j, ((&tx, &ty), &dij)) in xs.iter().zip(&ys).zip(row).enumerate() {
                if i == j {
                    continue;
                }
                let w = 1.0 / (dij * dij);
                let (dx, dy) = (hx - tx, hy - ty);
                let len = (dx * dx + dy * dy).sqrt();
                let (ux, uy) = if len > 1e-9 {
                    (dx / len, dy / len)
                } else {
                    // Two nodes on one spot: part them in a direction of their own.
                    let a = ((i * 31 + j * 17) % 360) as f64 / 360.0;
                    (a - 0.5, 0.5 - (a - 0.5).abs())
                };
                sx += w * (tx + dij * ux);
                sy += w * (ty + dij * uy);
                sw += w;
            }
            if sw > 0.0
                && let (Some(x), Some(y)) = (xs.get_mut(i), ys.get_mut(i))
            {
                *x = sx / sw;
                *y = sy / sw;
            }
        }
    }
    let mut pts: Vec<Point> = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| Point::new(*x, *y))
        .collect();
    let (min, max) = bounds(&pts);
    if max.y - min.y > max.x - min.x {
        for p in &mut pts {
            *p = Point::new(p.y, -p.x);
        }
    }
    pts
}

/// Parts nodes closer than [`NODE_GAP`], within the box `lo`–`hi`.
fn spread(pts: &mut [Point], lo: Point, hi: Point) {
    let n = pts.len();
    for _ in 0..SPREAD_PASSES {
        let mut moved = false;
        for i in 0..n {
            for j in (i + 1)..n {
                let (Some(&a), Some(&b)) = (pts.get(i), pts.get(j)) else {
                    continue;
                };
                let (dx, dy) = (b.x - a.x, b.y - a.y);
                let len = (dx * dx + dy * dy).sqrt();
                if len >= NODE_GAP {
                    continue;
                }
                let (ux, uy) = if len > 1e-9 {
                    (dx / len, dy / len)
                } else {
                    (1.0, 0.0)
                };
                let push = (NODE_GAP - len) / 2.0;
                if let Some(p) = pts.get_mut(i) {
                    *p = clamp(p.offset(-ux * push, -uy * push), lo, hi);
                }
                if let Some(p) = pts.get_mut(j) {
                    *p = clamp(p.offset(ux * push, uy * push), lo, hi);
                }
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
}

fn bounds(pts: &[Point]) -> (Point, Point) {
    let mut min = Point::new(f64::INFINITY, f64::INFINITY);
    let mut max = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in pts {
        min = Point::new(min.x.min(p.x), min.y.min(p.y));
        max = Point::new(max.x.max(p.x), max.y.max(p.y));
    }
    if pts.is_empty() {
        (Point::new(0.0, 0.0), Point::new(1.0, 1.0))
    } else {
        (min, max)
    }
}

fn clamp(p: Point, lo: Point, hi: Point) -> Point {
    Point::new(p.x.clamp(lo.x, hi.x), p.y.clamp(lo.y, hi.y))
}

/// 34 colours that stay apart: the standard board's Okabe–Ito seven first, then Kelly's
/// colours of maximum contrast (Kelly, 1965) but white and black, then seven of Tableau's.
const COLOURS: [&str; 34] = [
    "#D55E00", "#CC79A7", "#56B4E9", "#3A3A3A", "#009E73", "#0072B2", "#F0E442", "#F3C300",
    "#875692", "#F38400", "#A1CAF1", "#BE0032", "#C2B280", "#848482", "#008856", "#E68FAC",
    "#0067A5", "#F99379", "#604E97", "#F6A600", "#B3446C", "#DCD300", "#882D17", "#8DB600",
    "#654522", "#E25822", "#2B3D26", "#E15759", "#76B7B2", "#59A14F", "#B07AA1", "#FF9DA7",
    "#9C755F", "#4E79A7",
];

/// The standard powers' names, in the order of the first seven [`COLOURS`].
const STANDARD_NAMES: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

/// Each power's colour: a standard power's own (by name), the others the next unused.
fn power_colours(board: &Board) -> Vec<(String, String)> {
    let mut used = [false; COLOURS.len()];
    let mut chosen: Vec<Option<usize>> = board
        .powers
        .iter()
        .map(|p| {
            let i = STANDARD_NAMES
                .iter()
                .position(|s| s.eq_ignore_ascii_case(&p.name))?;
            if let Some(u) = used.get_mut(i) {
                *u = true;
            }
            Some(i)
        })
        .collect();
    for c in &mut chosen {
        if c.is_none() {
            let free = used.iter().position(|u| !u);
            if let Some(f) = free
                && let Some(u) = used.get_mut(f)
            {
                *u = true;
            }
            *c = free;
        }
    }
    chosen
        .into_iter()
        .map(|c| {
            let unit = c
                .and_then(|i| COLOURS.get(i))
                .copied()
                .unwrap_or(palette::NEUTRAL);
            (unit.to_string(), tint(unit))
        })
        .collect()
}

/// A colour 45 % of the way to white (the fill of an owned centre, as `palette` does).
fn tint(hex: &str) -> String {
    let channel = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .map_or(255, |c| {
                u32::from(c) + ((255 - u32::from(c)) * 45 + 50) / 100
            })
    };
    format!("#{:02X}{:02X}{:02X}", channel(1), channel(3), channel(5))
}

/// A province's label: sea codes upper case, others capitalised (as the standard board).
fn label(p: &BoardProvince) -> String {
    if p.terrain == Terrain::Sea {
        p.code.to_ascii_uppercase()
    } else {
        let mut c = p.code.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    }
}

fn unit_kind(kind: UnitKindData) -> UnitKind {
    match kind {
        UnitKindData::Army => UnitKind::Army,
        UnitKindData::Fleet => UnitKind::Fleet,
    }
}

/// Draws a board's scene as SVG, laying the board out first (see [`render_with`]).
pub fn render(board: &Board, scene: &BoardScene) -> String {
    render_with(board, &layout(board), scene)
}

/// Draws a board's scene as SVG on a layout made by [`layout`] for the same board.
pub fn render_with(board: &Board, layout: &SchematicLayout, scene: &BoardScene) -> String {
    let colours = power_colours(board);
    let colour = |w: PowerIndex| {
        colours
            .get(w.index())
            .map_or(palette::NEUTRAL, |c| c.0.as_str())
    };
    let owner = |p: ProvinceIndex| scene.owners.iter().find(|(q, _)| *q == p).map(|(_, w)| *w);
    let mut svg = Svg::new();
    let (width, height) = (layout.width, layout.height);
    svg.put(format_args!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\">\n",
        w = width,
        h = height
    ));
    svg.put(format_args!(
        "<desc>Drawn by dipjudge: a schematic of the {} board ({}).</desc>\n",
        escape(&board.title),
        escape(&board.credit)
    ));
    svg.put(format_args!(
        "<rect width=\"{width}\" height=\"{height}\" fill=\"{}\"/>\n",
        palette::BAND
    ));

    // Borders.
    svg.raw("<g id=\"borders\" fill=\"none\" stroke-linecap=\"round\">\n");
    let mut pairs: Vec<(ProvinceIndex, ProvinceIndex, bool, bool, bool)> = Vec::new();
    let mut add = |a: ProvinceIndex, b: ProvinceIndex, army: bool, fleet: bool, crossing: bool| {
        let (a, b) = (a.min(b), a.max(b));
        match pairs.iter_mut().find(|x| x.0 == a && x.1 == b) {
            Some(x) => {
                x.2 |= army;
                x.3 |= fleet;
                x.4 |= crossing;
            }
            None => pairs.push((a, b, army, fleet, crossing)),
        }
    };
    for (a, b) in &board.borders.army {
        add(*a, *b, true, false, false);
    }
    for (a, b) in &board.borders.fleet {
        add(a.province, b.province, false, true, false);
    }
    for (a, b) in &board.borders.crossings {
        add(*a, *b, false, false, true);
    }
    pairs.sort_by_key(|x| (x.0, x.1));
    for (a, b, army, fleet, crossing) in pairs {
        let (Some(pa), Some(pb)) = (layout.at(a), layout.at(b)) else {
            continue;
        };
        if army {
            svg.line(
                pa,
                pb,
                &format!("stroke=\"{}\" stroke-width=\"2.6\"", palette::BORDER),
            );
        }
        if fleet {
            let width = if army { "1.0" } else { "2.0" };
            svg.line(
                pa,
                pb,
                &format!("stroke=\"{}\" stroke-width=\"{width}\"", palette::SEA_EDGE),
            );
        }
        if crossing {
            svg.line(
                pa,
                pb,
                &format!(
                    "stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"3 5\"",
                    palette::BORDER
                ),
            );
        }
    }
    svg.raw("</g>\n");

    // Provinces: seas round, land square, tinted by the owner of the centre.
    svg.put(format_args!(
        "<g id=\"provinces\" stroke-width=\"1.2\" stroke=\"{}\">\n",
        palette::BORDER
    ));
    for id in board.province_indices() {
        let (Some(p), Some(at)) = (board.province(id), layout.at(id)) else {
            continue;
        };
        if p.terrain == Terrain::Sea {
            let edge = if p.ice {
                "stroke-dasharray=\"2 2\" "
            } else {
                ""
            };
            svg.circle(
                at,
                NODE_R,
                &format!(
                    "{edge}fill=\"{}\" stroke=\"{}\"",
                    palette::SEA,
                    palette::SEA_EDGE
                ),
            );
            continue;
        }
        let fill = if p.impassable {
            palette::IMPASSABLE.to_string()
        } else {
            owner(id)
                .and_then(|w| colours.get(w.index()))
                .map_or(palette::LAND.to_string(), |c| c.1.clone())
        };
        let coast = if p.terrain == Terrain::Coast {
            format!(" stroke=\"{}\" stroke-width=\"2.2\"", palette::SEA_EDGE)
        } else {
            String::new()
        };
        svg.put(format_args!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"{fill}\"{coast}/>\n",
            N(at.x - NODE_R),
            N(at.y - NODE_R),
            N(2.0 * NODE_R),
            N(2.0 * NODE_R)
        ));
    }
    svg.raw("</g>\n");

    // Centre dots, in the owner's colour.
    svg.put(format_args!(
        "<g id=\"centres\" stroke=\"{}\" stroke-width=\"1.2\">\n",
        palette::INK
    ));
    for id in board.supply_centres() {
        let Some(at) = layout.at(id) else { continue };
        let fill = owner(id).map_or(palette::UNOWNED_DOT, colour);
        let home = board
            .province(id)
            .is_some_and(|p| matches!(p.centre, Centre::Home(_)));
        let r = if home { 4.5 } else { 3.5 };
        svg.circle(
            at.offset(NODE_R - 3.0, -NODE_R + 3.0),
            r,
            &format!("fill=\"{fill}\""),
        );
    }
    svg.raw("</g>\n");

    // Labels under the nodes.
    svg.put(format_args!(
        "<g id=\"labels\" font-size=\"9\" text-anchor=\"middle\" fill=\"{}\">\n",
        palette::INK
    ));
    for id in board.province_indices() {
        if let (Some(p), Some(at)) = (board.province(id), layout.at(id)) {
            svg.text(at.offset(0.0, NODE_R + 10.0), &label(p), "");
        }
    }
    svg.raw("</g>\n");

    // Units (a fleet on one coast of a split-coast province says which).
    svg.raw("<g id=\"units\">\n");
    for u in &scene.units {
        if scene.dislodged.iter().any(|(d, _)| {
            d.place.province == u.place.province && d.power == u.power && d.kind == u.kind
        }) {
            continue;
        }
        let Some(at) = layout.at(u.place.province) else {
            continue;
        };
        unit_shape(
            &mut svg,
            unit_kind(u.kind),
            at,
            colour(u.power),
            palette::INK,
            1.3,
        );
        if let Some(c) = u.place.coast {
            halo_text(
                &mut svg,
                at.offset(-NODE_R + 1.0, -NODE_R + 6.0),
                c.code(),
                8.0,
                "middle",
            );
        }
    }
    svg.raw("</g>\n");

    // Orders.
    svg.raw("<g id=\"orders\">\n");
    let unit_at = |p: ProvinceIndex| layout.at(p);
    let dislodged_at = |p: ProvinceIndex| layout.at(p).map(|a| a.offset(14.0, -12.0));
    for o in &scene.orders {
        let faint = matches!(
            o.outcome,
            Outcome::Void | Outcome::NotCounted | Outcome::Refused
        );
        let failed = o.outcome != Outcome::Succeeded;
        let c = colour(o.power);
        let kind = match o.order {
            BoardOrder::Hold { .. } => "hold",
            BoardOrder::Move { .. } => "move",
            BoardOrder::SupportHold { .. } | BoardOrder::SupportMove { .. } => "support",
            BoardOrder::Convoy { .. } => "convoy",
            BoardOrder::Retreat { .. } => "retreat",
            BoardOrder::Disband { .. } => "disband",
            BoardOrder::Build { .. } => "build",
            BoardOrder::Remove { .. } => "remove",
        };
        svg.put(format_args!("<g class=\"{kind} {}\">\n", o.outcome.class()));
        if faint {
            svg.raw(FAINT);
        }
        match o.order {
            BoardOrder::Hold { at } => {
                if let Some(p) = unit_at(at) {
                    ring(&mut svg, p, 13.0, c);
                }
            }
            BoardOrder::Move { from, to } => {
                if let (Some(a), Some(b)) = (unit_at(from), unit_at(to)) {
                    // A move and its reverse (a head-to-head battle, a swap) are drawn apart.
                    let reverse = scene.orders.iter().any(|r| {
                        matches!(r.order, BoardOrder::Move { from: f, to: t } if f == to && t == from)
                    });
                    let (a, b) = if reverse { shifted(a, b) } else { (a, b) };
                    movement(&mut svg, a, b, c, failed && !faint);
                }
            }
            BoardOrder::SupportHold { from, target } => {
                if let (Some(a), Some(b)) = (unit_at(from), unit_at(target)) {
                    support(&mut svg, a, b.step(a, 14.0), c, o.outcome == Outcome::Cut);
                }
            }
            BoardOrder::SupportMove { from, target, to } => {
                if let (Some(a), Some(t), Some(d)) = (unit_at(from), unit_at(target), unit_at(to)) {
                    support(&mut svg, a, t.towards(d, 0.5), c, o.outcome == Outcome::Cut);
                }
            }
            BoardOrder::Convoy { from, army, to } => {
                if let (Some(f), Some(a), Some(d)) = (unit_at(from), unit_at(army), unit_at(to)) {
                    order_line(
                        &mut svg,
                        &[a.step(f, UNIT_R), f.step(a, UNIT_R)],
                        c,
                        Line::Dotted,
                        false,
                    );
                    order_line(
                        &mut svg,
                        &[f.step(d, UNIT_R), d.step(f, TIP_GAP)],
                        c,
                        Line::Dotted,
                        true,
                    );
                    if failed && !faint {
                        cross(&mut svg, f.offset(0.0, -16.0), 5.0);
                    }
                }
            }
            BoardOrder::Retreat { from, to } => {
                if let (Some(a), Some(b)) = (dislodged_at(from), unit_at(to)) {
                    movement(&mut svg, a, b, c, failed && !faint);
                }
            }
            BoardOrder::Disband { at } => {
                if let Some(p) = dislodged_at(at) {
                    cross(&mut svg, p, 9.0);
                }
            }
            BoardOrder::Build { kind, at } => {
                if let Some(p) = unit_at(at.province) {
                    unit_shape(&mut svg, unit_kind(kind), p, c, palette::INK, 1.3);
                    ring(&mut svg, p, 14.0, c);
                    plus(&mut svg, p.offset(12.0, -12.0));
                }
            }
            BoardOrder::Remove { at } => {
                if let Some(p) = unit_at(at) {
                    cross(&mut svg, p, 10.0);
                }
            }
        }
        if faint {
            svg.raw("</g>\n");
        }
        svg.raw("</g>\n");
    }
    svg.raw("</g>\n");

    // Dislodged units beside their provinces, red-edged, with their retreats.
    if !scene.dislodged.is_empty() {
        svg.raw("<g id=\"dislodged\">\n");
        for (u, options) in &scene.dislodged {
            let Some(at) = dislodged_at(u.place.province) else {
                continue;
            };
            let ordered = scene.orders.iter().any(|o| {
                matches!(o.order, BoardOrder::Retreat { from, .. } | BoardOrder::Disband { at: from }
                    if from == u.place.province)
            });
            if !ordered {
                for option in options {
                    let Some(to) = unit_at(*option) else { continue };
                    let (start, tip) = (at.step(to, 9.0), to.step(at, 10.0));
                    svg.line(
                        start,
                        tip.step(start, 6.0),
                        &format!(
                            "fill=\"none\" stroke=\"{}\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"",
                            palette::INK
                        ),
                    );
                    head(&mut svg, start, tip, 6.0, 3.0, palette::INK);
                }
            }
            unit_shape(
                &mut svg,
                unit_kind(u.kind),
                at,
                colour(u.power),
                palette::FAIL,
                2.2,
            );
        }
        svg.raw("</g>\n");
    }

    legend(&mut svg, board, scene, &colours, width);
    draw::title(&mut svg, width, &scene.title);
    svg.raw("</svg>\n");
    svg.finish()
}

/// The powers with their colours, letters, names and centres, in the right column.
fn legend(
    svg: &mut Svg,
    board: &Board,
    scene: &BoardScene,
    colours: &[(String, String)],
    width: f64,
) {
    let x = width - LEGEND_W + 8.0;
    let mut y = draw::BAND + MARGIN;
    svg.raw("<g id=\"legend\" font-size=\"12\">\n");
    svg.text(
        Point::new(x, y),
        &format!("{}: {} to win", board.title, board.victory),
        &format!("font-weight=\"bold\" fill=\"{}\"", palette::INK),
    );
    y += LEGEND_LINE + 4.0;
    for (w, p) in board.power_indices().zip(&board.powers) {
        let fill = colours
            .get(w.index())
            .map_or(palette::NEUTRAL, |c| c.0.as_str());
        svg.put(format_args!(
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{fill}\" stroke=\"{}\"/>\n",
            N(x),
            N(y - 10.0),
            palette::INK
        ));
        let centres = scene.owners.iter().filter(|(_, o)| *o == w).count();
        let units = scene.units.iter().filter(|u| u.power == w).count();
        svg.text(
            Point::new(x + 18.0, y),
            &format!("{} {} ({centres}/{units})", p.letter, p.name),
            &format!("fill=\"{}\"", palette::INK),
        );
        y += LEGEND_LINE;
    }
    svg.text(
        Point::new(x, y + 4.0),
        "(centres/units)",
        &format!("font-size=\"10\" fill=\"{}\"", palette::INK),
    );
    svg.raw("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::board::shipped;

    #[test]
    fn tints_and_colours() {
        assert_eq!(tint("#D55E00"), "#E8A673");
        assert_eq!(tint("#F0E442"), "#F7F097");
        let chaos = shipped().get("chaos").expect("chaos");
        let colours = power_colours(chaos);
        let mut units: Vec<&str> = colours.iter().map(|c| c.0.as_str()).collect();
        units.sort();
        units.dedup();
        assert_eq!(units.len(), 34, "34 powers, 34 colours");
        let std = shipped().get("standard").expect("standard");
        assert_eq!(
            power_colours(std).first().map(|c| c.0.as_str()),
            Some("#D55E00")
        );
    }

    /// Every shipped board lays out with its nodes apart and inside the canvas, the same
    /// every time.
    #[test]
    fn layouts_part_nodes() {
        for b in &shipped().boards {
            let l = layout(b);
            assert_eq!(l, layout(b), "{}", b.name);
            for (i, p) in l.points.iter().enumerate() {
                assert!(
                    p.x >= MARGIN - 0.01 && p.x <= l.width - LEGEND_W - MARGIN + 0.01,
                    "{}",
                    b.name
                );
                assert!(p.y >= draw::BAND && p.y <= l.height, "{}", b.name);
                for q in l.points.iter().skip(i + 1) {
                    assert!(p.distance(*q) > 2.0 * NODE_R, "{}: nodes overlap", b.name);
                }
            }
        }
    }
}
