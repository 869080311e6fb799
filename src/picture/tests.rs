//! Unit tests of the picture: the drawing data against the map, stable bytes, escaping,
//! and where orders and their outcomes are drawn.

use super::board::{AreaKind, Board, Point};
use super::svg::N;
use super::*;
use crate::map::{Location, Map, Power, Terrain};
use crate::rules::{
    Order, Owner, Phase, PhaseOutcome, Position, PowerOrder, Standard, Unit, UnitKind, UnitSpec,
    adjudicate,
};

fn map() -> &'static Map {
    Map::standard().expect("standard map")
}

fn board() -> &'static Board {
    Board::classic().expect("board.json reads")
}

fn loc(text: &str) -> Location {
    map().find_location(text).expect("a location")
}

fn point(text: &str) -> Point {
    board().point(map(), loc(text)).expect("a point")
}

fn army(power: Power, at: &str) -> Unit {
    Unit::new(Owner::Power(power), UnitKind::Army, loc(at))
}

fn a(at: &str) -> UnitSpec {
    UnitSpec::new(Some(UnitKind::Army), loc(at))
}

fn mv(power: Power, from: &str, to: &str) -> PowerOrder {
    PowerOrder::new(
        power,
        Order::Move {
            unit: a(from),
            dest: loc(to),
            via_convoy: false,
        },
    )
}

fn position(units: Vec<Unit>) -> Position {
    let mut p = Position::empty(map(), Phase::FIRST);
    p.set_home_ownership(map());
    p.units = units;
    p.sort_units();
    p.assign_unit_ids();
    p
}

fn scene<'a>(position: &'a Position, outcome: &'a PhaseOutcome) -> Scene<'a> {
    Scene {
        title: "test - Spring 1901 movement".into(),
        position,
        results: &outcome.results,
        dislodged: &outcome.after.dislodged,
        marks: Vec::new(),
    }
}

/// The `<g>` element an order is drawn in (by its display text), whole.
fn order_group<'s>(svg: &'s str, order: &str) -> &'s str {
    let key = format!("data-order=\"{order}\">\n");
    let at = svg
        .find(&key)
        .unwrap_or_else(|| panic!("no {order} in the SVG"));
    let start = svg[..at].rfind("<g ").expect("its group");
    let body = at + key.len();
    // An order's group nests at most the faint one.
    let closes = if svg[body..].starts_with("<g opacity") {
        2
    } else {
        1
    };
    let mut end = body;
    for _ in 0..closes {
        end += svg[end..].find("</g>").expect("closed") + 4;
    }
    &svg[start..end]
}

/// The numbers of the first `d="..."` in `s`.
fn first_path(s: &str) -> Vec<f64> {
    let start = s.find(" d=\"").expect("a path") + 4;
    let end = start + s[start..].find('"').expect("closed");
    s[start..end]
        .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().expect("a number"))
        .collect()
}

fn close(a: Point, b: Point) -> bool {
    a.distance(b) <= 0.1
}

#[test]
fn every_province_and_coast_has_its_points() {
    let map = map();
    let board = board();
    for l in map.locations() {
        let area = board
            .area(map, l.province)
            .unwrap_or_else(|| panic!("no drawing for {}", map.location_code(l)));
        assert!(area.unit.is_some(), "{}", map.code(l.province));
        if let Some(c) = l.coast {
            assert!(
                area.coasts.iter().any(|(k, _)| *k == c),
                "no point for {}",
                map.location_code(l)
            );
        }
    }
    for p in map.province_ids() {
        let area = board.area(map, p).expect("drawn");
        assert!(!area.paths.is_empty() && area.paths.iter().all(|d| d.starts_with('M')));
        let want = if map.province(p).terrain == Terrain::Sea {
            AreaKind::Sea
        } else {
            AreaKind::Land
        };
        assert_eq!(area.kind, want, "{}", map.code(p));
        assert_eq!(
            area.centre.is_some(),
            map.province(p).supply_centre,
            "centre dot of {}",
            map.code(p)
        );
        assert_eq!(area.coasts.len(), map.province(p).coasts.len());
    }
    // 75 provinces and 6 impassable areas, none of them a province of the map.
    assert_eq!(board.areas.len(), map.province_count() + 6);
    for (code, area) in &board.areas {
        if area.kind == AreaKind::Impassable {
            assert!(map.find_province(code).is_none(), "{code}");
            assert!(area.unit.is_none());
        } else {
            assert!(map.find_province(code).is_some(), "{code}");
        }
    }
    assert_eq!((board.width, board.height), (1152, 965));
}

#[test]
fn the_irish_sea_unit_stands_in_the_sea() {
    // The source put it on Ireland (266, 402); scripts/convert-board.py moves it.
    let iri = point("iri");
    assert_eq!(iri, Point::new(280.0, 435.0));
    assert!(iri.distance(Point::new(266.0, 402.0)) > 30.0);
}

#[test]
fn broken_drawing_data_is_an_error() {
    assert!(matches!(Board::parse("{}"), Err(PictureError::Board(_))));
    let no_unit = r#"{"source":"x","width":1,"height":1,"provinces":{"par":{"kind":"land","paths":["M0 0Z"]}}}"#;
    assert!(matches!(Board::parse(no_unit), Err(PictureError::Board(e)) if e.contains("par")));
    let bad_coast = r#"{"source":"x","width":1,"height":1,"provinces":{"spa":{"kind":"land","paths":["M0 0Z"],"unit":[1,1],"coasts":{"wc":[1,1]}}}}"#;
    assert!(matches!(Board::parse(bad_coast), Err(PictureError::Board(e)) if e.contains("wc")));
}

#[test]
fn numbers_have_one_fixed_form() {
    let cases = [
        (0.0, "0.0"),
        (-0.04, "0.0"),
        (-0.0, "0.0"),
        (1.25, "1.3"),
        (-1.25, "-1.3"),
        (965.0, "965.0"),
        (f64::NAN, "0.0"),
    ];
    for (v, want) in cases {
        assert_eq!(N(v).to_string(), want, "{v}");
    }
}

#[test]
fn text_is_escaped_for_xml() {
    assert_eq!(escape("plain"), "plain");
    assert_eq!(
        escape(r#"<b> & "q" 'a'"#),
        "&lt;b&gt; &amp; &quot;q&quot; &apos;a&apos;"
    );
    assert_eq!(escape("bell\u{7}tab\t"), "bell\u{FFFD}tab\t");
    let p = position(Vec::new());
    let outcome = adjudicate(map(), &Standard, &p, &[]);
    let mut s = scene(&p, &outcome);
    s.title = "<script>alert('x')</script> & co".into();
    s.marks = vec![
        Mark::Legend("a < b".into()),
        Mark::UnitNote {
            province: loc("par").province,
            text: "\"+2\"".into(),
        },
    ];
    let svg = render_svg(map(), &s);
    assert!(!svg.contains("<script>"));
    assert!(svg.contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; co"));
    assert!(svg.contains(">a &lt; b</text>"));
    assert!(svg.contains(">&quot;+2&quot;</text>"));
    // And it still parses.
    assert!(render_png(&svg).is_ok());
}

#[test]
fn the_same_scene_gives_the_same_bytes() {
    let map = map();
    let p = Position::standard_start(map);
    let orders = crate::sim::movement_orders(map, &p, &mut crate::sim::Rng::new(5));
    let outcome = adjudicate(map, &Standard, &p, &orders);
    let s = scene(&p, &outcome);
    let first = render_svg(map, &s);
    assert_eq!(first, render_svg(map, &s.clone()));
    assert!(first.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1152\""));
    assert!(first.ends_with("</svg>\n"));
}

#[test]
fn a_move_arrow_runs_from_the_unit_to_its_destination() {
    let p = position(vec![army(Power::France, "par")]);
    let outcome = adjudicate(map(), &Standard, &p, &[mv(Power::France, "par", "bur")]);
    let svg = render_svg(map(), &scene(&p, &outcome));
    let g = order_group(&svg, "A Par - Bur");
    assert!(g.contains("class=\"move ok\""), "{g}");
    let (par, bur) = (point("par"), point("bur"));
    let line = first_path(g);
    let (start, end) = (Point::new(line[0], line[1]), Point::new(line[2], line[3]));
    // The line leaves Paris at the unit's edge and heads straight for Burgundy...
    assert!(close(start, par.step(bur, 10.0)), "{start:?}");
    let along = |q: Point| {
        let (dx, dy) = (bur.x - par.x, bur.y - par.y);
        ((q.x - par.x) * dy - (q.y - par.y) * dx).abs() / par.distance(bur)
    };
    assert!(along(end) < 0.2, "{end:?} off the line");
    // ...and its arrowhead's tip stops just short of Burgundy's point.
    let head = g.rfind(" d=\"").expect("the head");
    let tip = first_path(&g[head - 1..]);
    assert!(
        close(Point::new(tip[0], tip[1]), bur.step(par, 12.0)),
        "{tip:?}"
    );
    // The army is drawn in France's colour in Paris.
    assert!(svg.contains(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"8.0\" fill=\"{}\"",
        N(par.x),
        N(par.y),
        palette::power(Power::France).unit
    )));
}

#[test]
fn a_failed_move_is_marked_where_it_bounced() {
    let p = position(vec![
        army(Power::France, "par"),
        army(Power::Germany, "mun"),
    ]);
    let orders = [
        mv(Power::France, "par", "bur"),
        mv(Power::Germany, "mun", "bur"),
    ];
    let outcome = adjudicate(map(), &Standard, &p, &orders);
    let svg = render_svg(map(), &scene(&p, &outcome));
    let g = order_group(&svg, "A Par - Bur");
    assert!(g.contains("class=\"move bounce\""), "{g}");
    // A red cross, and no arrowhead (a three-point path).
    assert!(g.contains(palette::FAIL), "{g}");
    assert!(!g.contains("Z\""), "no arrowhead: {g}");
    let (par, bur) = (point("par"), point("bur"));
    let line = first_path(g);
    let stop = Point::new(line[2], line[3]);
    let start = par.step(bur, 10.0);
    let tip = bur.step(par, 12.0);
    assert!(close(stop, start.towards(tip, 0.72)), "{stop:?}");
    // A successful move has no cross.
    let p = position(vec![army(Power::France, "par")]);
    let outcome = adjudicate(map(), &Standard, &p, &[mv(Power::France, "par", "bur")]);
    let svg = render_svg(map(), &scene(&p, &outcome));
    assert!(!order_group(&svg, "A Par - Bur").contains(palette::FAIL));
}

#[test]
fn cut_supports_are_crossed_and_void_orders_faint() {
    let p = position(vec![
        army(Power::France, "par"),
        army(Power::France, "mar"),
        army(Power::Germany, "mun"),
        army(Power::Italy, "pie"),
    ]);
    let orders = [
        mv(Power::France, "par", "bur"),
        PowerOrder::new(
            Power::France,
            Order::SupportMove {
                unit: a("mar"),
                target: a("par"),
                dest: loc("bur"),
            },
        ),
        mv(Power::Italy, "pie", "mar"),
        // Supports a move Paris does not make: void.
        PowerOrder::new(
            Power::Germany,
            Order::SupportMove {
                unit: a("mun"),
                target: a("par"),
                dest: loc("pic"),
            },
        ),
    ];
    let outcome = adjudicate(map(), &Standard, &p, &orders);
    let svg = render_svg(map(), &scene(&p, &outcome));
    let cut = order_group(&svg, "A Mar S A Par - Bur");
    assert!(cut.contains("class=\"support cut\""), "{cut}");
    assert!(cut.contains(palette::FAIL) && cut.contains("stroke-dasharray"));
    let void = order_group(&svg, "A Mun S A Par - Pic");
    assert!(void.contains("class=\"support void\""), "{void}");
    assert!(void.contains("<g opacity=\"0.35\">"), "{void}");
    assert!(!void.contains(palette::FAIL));
}

#[test]
fn dislodged_units_stand_beside_their_province_with_their_retreats() {
    let p = position(vec![
        army(Power::Germany, "bur"),
        army(Power::France, "par"),
        army(Power::France, "mar"),
    ]);
    let orders = [
        mv(Power::France, "par", "bur"),
        PowerOrder::new(
            Power::France,
            Order::SupportMove {
                unit: a("mar"),
                target: a("par"),
                dest: loc("bur"),
            },
        ),
    ];
    let outcome = adjudicate(map(), &Standard, &p, &orders);
    let d = outcome.after.dislodged.first().expect("Burgundy dislodged");
    assert!(!d.retreat_options.is_empty());
    let svg = render_svg(map(), &scene(&p, &outcome));
    let bur = point("bur");
    let beside = bur.offset(14.0, -12.0);
    let group = &svg[svg.find("<g id=\"dislodged\">").expect("drawn")..];
    assert!(group.contains(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"8.0\" fill=\"{}\" stroke=\"{}\"",
        N(beside.x),
        N(beside.y),
        palette::power(Power::Germany).unit,
        palette::FAIL
    )));
    // Not also on its own spot.
    let units = &svg[svg.find("<g id=\"units\">").expect("units")..];
    let units = &units[..units.find("</g>").expect("end")];
    assert!(!units.contains(&format!("cx=\"{}\" cy=\"{}\"", N(bur.x), N(bur.y))));
    // One thin dashed arrow per retreat option.
    assert_eq!(
        group.matches("stroke-dasharray=\"4 3\"").count(),
        d.retreat_options.len()
    );
}

#[test]
fn neutral_units_are_grey_and_builds_and_removals_are_marked() {
    let mut p = position(vec![army(Power::Russia, "mos")]);
    p.units
        .push(Unit::new(Owner::Neutral, UnitKind::Army, loc("bel")));
    p.sort_units();
    p.assign_unit_ids();
    let svg = render_svg(
        map(),
        &Scene {
            title: String::new(),
            position: &p,
            results: &[],
            dislodged: &[],
            marks: Vec::new(),
        },
    );
    let bel = point("bel");
    assert!(svg.contains(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"8.0\" fill=\"{}\"",
        N(bel.x),
        N(bel.y),
        palette::NEUTRAL
    )));
    let results = [
        crate::rules::OrderResult {
            owner: Owner::Power(Power::Russia),
            order: Order::Build {
                unit: UnitSpec::new(Some(UnitKind::Fleet), loc("stp/nc")),
            },
            given: true,
            failure: None,
            dislodged: false,
            note: None,
        },
        crate::rules::OrderResult {
            owner: Owner::Power(Power::Russia),
            order: Order::Remove { unit: a("mos") },
            given: false,
            failure: None,
            dislodged: false,
            note: None,
        },
    ];
    let svg = render_svg(
        map(),
        &Scene {
            title: String::new(),
            position: &p,
            results: &results,
            dislodged: &[],
            marks: Vec::new(),
        },
    );
    let build = order_group(&svg, "Build F StP/nc");
    let nc = point("stp/nc");
    // The fleet on the north coast, ringed, with a plus badge.
    assert!(build.contains(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"14.0\"",
        N(nc.x),
        N(nc.y)
    )));
    assert!(build.contains(&format!("M{} {}", N(nc.x - 11.0), N(nc.y + 1.0))));
    let remove = order_group(&svg, "Remove A Mos");
    assert!(remove.contains(palette::FAIL), "{remove}");
}

#[test]
fn marks_are_drawn_and_relations_listed_in_the_legend() {
    let p = position(Vec::new());
    let svg = render_svg(
        map(),
        &Scene {
            title: String::new(),
            position: &p,
            results: &[],
            dislodged: &[],
            marks: vec![
                Mark::Relation {
                    from: loc("lon").province,
                    to: loc("par").province,
                    text: "treaty".into(),
                    style: RelationStyle::Treaty,
                },
                Mark::ProvinceNote {
                    province: loc("bel").province,
                    text: "SOI France".into(),
                },
                Mark::Legend("one line".into()),
            ],
        },
    );
    let marks = &svg[svg.find("<g id=\"marks\">").expect("marks")..];
    let (lon, par) = (point("lon"), point("par"));
    // The line stops short of both units.
    let line = first_path(marks);
    assert!(
        close(Point::new(line[0], line[1]), lon.step(par, 13.0)),
        "{line:?}"
    );
    assert!(
        close(Point::new(line[2], line[3]), par.step(lon, 13.0)),
        "{line:?}"
    );
    assert!(marks.contains(">SOI France</text>"));
    let legend = &svg[svg.find("<g id=\"legend\">").expect("legend")..];
    assert!(legend.find(">treaty</text>") < legend.find(">one line</text>"));
    // No legend box without legend lines.
    let empty = render_svg(
        map(),
        &Scene {
            title: String::new(),
            position: &p,
            results: &[],
            dislodged: &[],
            marks: Vec::new(),
        },
    );
    assert!(!empty.contains("id=\"legend\""));
}

#[test]
fn png_is_drawn_at_the_svg_size() {
    let p = position(vec![army(Power::France, "par")]);
    let outcome = adjudicate(map(), &Standard, &p, &[]);
    let png = render_png(&render_svg(map(), &scene(&p, &outcome))).expect("a PNG");
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).expect("decodes");
    assert_eq!((pixmap.width(), pixmap.height()), (1152, 1001));
    // A transparent SVG keeps its alpha.
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="2" height="2" fill="#FF0000"/></svg>"##;
    let pixmap =
        resvg::tiny_skia::Pixmap::decode_png(&render_png(svg).expect("a PNG")).expect("decodes");
    assert_eq!(pixmap.pixel(0, 0).map(|p| p.alpha()), Some(255));
    assert_eq!(pixmap.pixel(3, 1).map(|p| p.alpha()), Some(0));
    assert!(matches!(render_png("not svg"), Err(PictureError::Svg(_))));
}

/// Issue 29: a phase is kept as what it shows, a few kilobytes, and drawn again from it
/// byte for byte: the same SVG as from the scene it was made from.
#[test]
fn a_kept_drawing_draws_the_same_picture_again() {
    let phases = crate::sim::movement_phases(map(), &Standard, 1901, 60, 8);
    let phase = phases
        .iter()
        .max_by_key(|p| p.position.units.len())
        .expect("sixty phases");
    let outcome = adjudicate(map(), &Standard, &phase.position, &phase.orders);
    let mut s = scene(&phase.position, &outcome);
    s.marks = vec![
        Mark::UnitNote {
            province: loc("par").province,
            text: "+1".into(),
        },
        Mark::Relation {
            from: loc("lon").province,
            to: loc("par").province,
            text: "treaty".into(),
            style: RelationStyle::Treaty,
        },
    ];
    let drawing = Drawing::Phase(PhaseScene::of(&s));
    let kept = drawing.encode();
    assert!(kept.len() < 4096, "{} bytes kept", kept.len());
    assert_eq!(kept, drawing.encode(), "the same bytes twice");
    let back = Drawing::decode(&kept).expect("reads back");
    assert_eq!(back, drawing);
    assert_eq!(back.svg(map()), render_svg(map(), &s));
    assert!(matches!(
        Drawing::decode(b"not deflated"),
        Err(PictureError::Kept(_))
    ));
}

/// Issue 29: the busiest of sixty phases of seeded random play (the one `bench-map`
/// draws: every unit on the board ordered) fits in 120 KB, in at most 256 colours, and
/// the same phase gives the same bytes.
#[test]
fn the_busiest_phase_fits_in_120_kb() {
    let phases = crate::sim::movement_phases(map(), &Standard, 1901, 60, 8);
    let phase = phases
        .iter()
        .max_by_key(|p| p.position.units.len())
        .expect("sixty phases");
    let outcome = adjudicate(map(), &Standard, &phase.position, &phase.orders);
    let svg = render_svg(map(), &scene(&phase.position, &outcome));
    let png = render_png(&svg).expect("a PNG");
    assert!(png.len() <= 120 * 1024, "{} bytes", png.len());
    assert_eq!(png, render_png(&svg).expect("a PNG"));
    // An indexed PNG: colour type 3 in the header.
    assert_eq!(png.get(25), Some(&3));
}

#[test]
fn a_convoy_is_drawn_along_its_chain_of_fleets() {
    let p = position(vec![
        army(Power::England, "lon"),
        Unit::new(Owner::Power(Power::England), UnitKind::Fleet, loc("eng")),
        Unit::new(Owner::Power(Power::England), UnitKind::Fleet, loc("mao")),
    ]);
    let convoy = |fleet: &str| {
        PowerOrder::new(
            Power::England,
            Order::Convoy {
                unit: UnitSpec::new(Some(UnitKind::Fleet), loc(fleet)),
                army: a("lon"),
                dest: loc("por"),
            },
        )
    };
    // The later fleet first: the route follows the map, not the order of the orders.
    let orders = [
        convoy("mao"),
        convoy("eng"),
        PowerOrder::new(
            Power::England,
            Order::Move {
                unit: a("lon"),
                dest: loc("por"),
                via_convoy: true,
            },
        ),
    ];
    let outcome = adjudicate(map(), &Standard, &p, &orders);
    assert!(outcome.results.iter().all(|r| r.failure.is_none()));
    let svg = render_svg(map(), &scene(&p, &outcome));
    let (lon, eng, mao, por) = (point("lon"), point("eng"), point("mao"), point("por"));
    // The Channel fleet: London to the Channel, no arrowhead.
    let first = order_group(&svg, "F ENG C A Lon - Por");
    assert!(first.contains("class=\"convoy ok\""));
    let leg = first_path(first);
    assert!(
        close(Point::new(leg[0], leg[1]), lon.step(eng, 10.0)),
        "{leg:?}"
    );
    assert!(
        close(Point::new(leg[2], leg[3]), eng.step(lon, 10.0)),
        "{leg:?}"
    );
    assert!(!first.contains("Z\""));
    // The Mid-Atlantic fleet: on from the Channel, then to Portugal with the arrowhead.
    let last = order_group(&svg, "F MAO C A Lon - Por");
    let leg = first_path(last);
    assert!(
        close(Point::new(leg[0], leg[1]), eng.step(mao, 10.0)),
        "{leg:?}"
    );
    assert!(last.contains("Z\""));
    let tip = first_path(&last[last.rfind(" d=\"").expect("head") - 1..]);
    assert!(
        close(Point::new(tip[0], tip[1]), por.step(mao, 12.0)),
        "{tip:?}"
    );
}

#[test]
fn broken_drawing_data_still_gives_a_picture_with_the_title() {
    let p = position(Vec::new());
    let s = Scene {
        title: "concert & co".into(),
        position: &p,
        results: &[],
        dislodged: &[],
        marks: Vec::new(),
    };
    let svg = draw::broken(&s.title, &PictureError::Board("no provinces".into()));
    assert!(svg.contains(">concert &amp; co</text>"));
    assert!(svg.contains("no provinces"));
    let png = render_png(&svg).expect("a PNG");
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).expect("decodes");
    assert_eq!((pixmap.width(), pixmap.height()), (1152, 1001));
}

/// Two relations of one pair (a treaty and a war) are drawn side by side, whichever way
/// round each was given; a lone relation runs straight between its provinces.
#[test]
fn relations_of_one_pair_are_drawn_side_by_side() {
    let p = position(Vec::new());
    let relation = |from: &str, to: &str, style| Mark::Relation {
        from: loc(from).province,
        to: loc(to).province,
        text: format!("{from}-{to}"),
        style,
    };
    let svg = render_svg(
        map(),
        &Scene {
            title: String::new(),
            position: &p,
            results: &[],
            dislodged: &[],
            marks: vec![
                relation("lon", "par", RelationStyle::Treaty),
                relation("par", "lon", RelationStyle::War),
            ],
        },
    );
    let marks = &svg[svg.find("<g id=\"marks\">").expect("marks")..];
    let treaty = first_path(marks);
    let war_at = marks.find("<path").expect("a line") + 1;
    let war = first_path(&marks[war_at + marks[war_at..].find("<path").expect("two")..]);
    let (lon, par) = (point("lon"), point("par"));
    // London and Paris lie on one vertical: the lines are 7 pixels apart, 3.5 either side.
    assert!((lon.x - par.x).abs() < 0.1, "{lon:?} {par:?}");
    assert!((treaty[0] - treaty[2]).abs() < 0.1 && (war[0] - war[2]).abs() < 0.1);
    assert!(
        ((treaty[0] - war[0]).abs() - 7.0).abs() < 0.1,
        "{treaty:?} {war:?}"
    );
    assert!(((treaty[0] + war[0]) / 2.0 - lon.x).abs() < 0.1);
    // The war keeps its own direction, from Paris.
    assert!(war[1] > war[3], "{war:?}");
}

/// A unit's note goes to its left when a dislodged unit is drawn beside its province (up
/// and to the right), to its right otherwise.
#[test]
fn a_unit_note_makes_way_for_a_dislodged_unit() {
    let p = position(vec![
        army(Power::Austria, "vie"),
        army(Power::Austria, "bud"),
        army(Power::Russia, "gal"),
    ]);
    let orders = [
        mv(Power::Austria, "vie", "gal"),
        PowerOrder::new(
            Power::Austria,
            Order::SupportMove {
                unit: a("bud"),
                target: a("vie"),
                dest: loc("gal"),
            },
        ),
    ];
    let outcome = adjudicate(map(), &Standard, &p, &orders);
    assert_eq!(outcome.after.dislodged.len(), 1);
    let mut s = scene(&p, &outcome);
    s.marks = vec![
        Mark::UnitNote {
            province: loc("gal").province,
            text: "20".into(),
        },
        Mark::UnitNote {
            province: loc("bud").province,
            text: "19".into(),
        },
    ];
    let svg = render_svg(map(), &s);
    let (gal, bud) = (point("gal"), point("bud"));
    assert!(svg.contains(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"11.0\" text-anchor=\"end\"",
        N(gal.x - 11.0),
        N(gal.y - 8.0)
    )));
    assert!(svg.contains(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"11.0\" text-anchor=\"start\"",
        N(bud.x + 11.0),
        N(bud.y - 8.0)
    )));
}

/// A number in the SVG reads as `{:.1}` wrote it of the number rounded to tenths: at
/// halves, near zero on both sides, far out, and at random.
#[test]
fn numbers_are_written_as_float_formatting_wrote_them() {
    fn by_float_formatting(x: f64) -> String {
        let v = if x.is_finite() { x } else { 0.0 };
        let tenths = (v * 10.0).round();
        let v = if tenths == 0.0 { 0.0 } else { tenths / 10.0 };
        format!("{v:.1}")
    }
    let mut values = vec![
        0.0,
        -0.0,
        0.04,
        -0.04,
        0.05,
        -0.05,
        0.25,
        -0.25,
        0.95,
        -0.95,
        1.0,
        123.45,
        -123.45,
        1151.99,
        1e12,
        -1e12,
        7.0e12,
        7.1e12,
        1e15,
        1e300,
        f64::MAX,
        f64::MIN,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::EPSILON,
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let unit = (seed >> 11) as f64 / (1u64 << 53) as f64;
        let scale = [1.0, 100.0, 2000.0, 1e9, 1e14][(seed % 5) as usize];
        values.push((unit - 0.5) * 2.0 * scale);
        values.push(((unit * 20_000.0).round() - 10_000.0) / 20.0);
    }
    for x in values {
        assert_eq!(N(x).to_string(), by_float_formatting(x), "{x:e}");
    }
}
