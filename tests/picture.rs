//! The picture of a phase: golden SVGs of a movement, a retreat and an adjustment phase,
//! each adjudicated for real by the standard rules, and their PNGs decoded and sampled.
//!
//! The SVGs are compared byte for byte with `tests/picture-golden/*.svg` (a missing file
//! fails; `UPDATE_GOLDEN=1` rewrites them: look at the diff, and at the PNGs this test
//! leaves in `target/tmp/picture-*.png`, before committing).

use std::path::{Path, PathBuf};

use dipjudge::map::{Location, Map, Power};
use dipjudge::picture::{Mark, RelationStyle, Scene, render_png, render_svg};
use dipjudge::rules::{
    Failure, Order, Owner, Phase, PhaseKind, PhaseOutcome, Position, PowerOrder, Season, Standard,
    Unit, UnitKind, UnitSpec, adjudicate,
};
use resvg::tiny_skia::Pixmap;

use crate::support::compare_golden;

const WIDTH: u32 = 1152;
const HEIGHT: u32 = 1001;
/// The title band above the board: board point (x, y) is pixel (x, y + BAND).
const BAND: u32 = 36;

fn map() -> &'static Map {
    Map::standard().expect("standard map")
}

fn loc(text: &str) -> Location {
    map()
        .find_location(text)
        .unwrap_or_else(|| panic!("no location {text}"))
}

fn unit(power: Power, kind: char, at: &str) -> Unit {
    let kind = if kind == 'F' {
        UnitKind::Fleet
    } else {
        UnitKind::Army
    };
    Unit::new(Owner::Power(power), kind, loc(at))
}

fn spec(kind: char, at: &str) -> UnitSpec {
    let kind = if kind == 'F' {
        UnitKind::Fleet
    } else {
        UnitKind::Army
    };
    UnitSpec::new(Some(kind), loc(at))
}

/// A position in `phase` with `units`, home centres owned, plus `extra` centres.
fn position(phase: Phase, units: Vec<Unit>, extra: &[(&str, Power)]) -> Position {
    let map = map();
    let mut p = Position::empty(map, phase);
    p.set_home_ownership(map);
    for (c, power) in extra {
        let id = map.find_province(c).expect("province");
        p.owners[id.index()] = Some(*power);
    }
    p.units = units;
    p.sort_units();
    p.assign_unit_ids();
    p
}

/// Spring 1902: every kind of order and outcome. A bounce in Burgundy; a support cut in
/// Warsaw; Vienna's supported attack dislodging the Russian army holding in Galicia (it
/// may retreat); Serbia's supported attack dislodging Bulgaria; a convoy from Yorkshire to
/// Norway; holds; a void support; a refused fleet move; a fleet on a split coast.
fn movement_phase() -> (Position, Vec<PowerOrder>) {
    use Power::*;
    let units = vec![
        unit(Austria, 'A', "vie"),
        unit(Austria, 'A', "bud"),
        unit(Austria, 'A', "ser"),
        unit(Austria, 'F', "gre"),
        unit(England, 'F', "nth"),
        unit(England, 'A', "yor"),
        unit(England, 'F', "lon"),
        unit(France, 'A', "par"),
        unit(France, 'F', "mao"),
        unit(France, 'A', "mar"),
        unit(Germany, 'A', "mun"),
        unit(Germany, 'A', "sil"),
        unit(Germany, 'F', "kie"),
        unit(Italy, 'A', "ven"),
        unit(Italy, 'A', "rom"),
        unit(Italy, 'F', "nap"),
        unit(Russia, 'A', "gal"),
        unit(Russia, 'A', "war"),
        unit(Russia, 'F', "stp/sc"),
        unit(Russia, 'F', "sev"),
        unit(Turkey, 'A', "bul"),
        unit(Turkey, 'F', "ank"),
        unit(Turkey, 'A', "con"),
    ];
    let p = position(
        Phase::new(1902, Season::Spring, PhaseKind::Movement),
        units,
        &[
            ("ser", Austria),
            ("gre", Austria),
            ("nwy", England),
            ("spa", France),
            ("por", France),
            ("den", Germany),
            ("hol", Germany),
            ("rum", Russia),
            ("swe", Russia),
            ("bul", Turkey),
        ],
    );
    let m = |power, unit: UnitSpec, dest: &str| {
        PowerOrder::new(
            power,
            Order::Move {
                unit,
                dest: loc(dest),
                via_convoy: false,
            },
        )
    };
    let orders = vec![
        m(Austria, spec('A', "vie"), "gal"),
        PowerOrder::new(
            Austria,
            Order::SupportMove {
                unit: spec('A', "bud"),
                target: spec('A', "vie"),
                dest: loc("gal"),
            },
        ),
        m(Austria, spec('A', "ser"), "bul"),
        PowerOrder::new(
            Austria,
            Order::SupportMove {
                unit: spec('F', "gre"),
                target: spec('A', "ser"),
                dest: loc("bul"),
            },
        ),
        PowerOrder::new(
            England,
            Order::Convoy {
                unit: spec('F', "nth"),
                army: spec('A', "yor"),
                dest: loc("nwy"),
            },
        ),
        PowerOrder::new(
            England,
            Order::Move {
                unit: spec('A', "yor"),
                dest: loc("nwy"),
                via_convoy: true,
            },
        ),
        m(England, spec('F', "lon"), "eng"),
        m(France, spec('A', "par"), "bur"),
        m(France, spec('F', "mao"), "spa/nc"),
        PowerOrder::new(
            France,
            Order::Hold {
                unit: spec('A', "mar"),
            },
        ),
        m(Germany, spec('A', "mun"), "bur"),
        m(Germany, spec('A', "sil"), "war"),
        m(Germany, spec('F', "kie"), "hol"),
        m(Italy, spec('A', "ven"), "tyr"),
        PowerOrder::new(
            Italy,
            Order::SupportMove {
                unit: spec('A', "rom"),
                target: spec('A', "ven"),
                dest: loc("tus"),
            },
        ),
        m(Italy, spec('F', "nap"), "ion"),
        PowerOrder::new(
            Russia,
            Order::Hold {
                unit: spec('A', "gal"),
            },
        ),
        PowerOrder::new(
            Russia,
            Order::SupportHold {
                unit: spec('A', "war"),
                target: spec('A', "gal"),
            },
        ),
        m(Russia, spec('F', "stp/sc"), "bot"),
        m(Russia, spec('F', "sev"), "bla"),
        PowerOrder::new(
            Turkey,
            Order::Hold {
                unit: spec('A', "bul"),
            },
        ),
        m(Turkey, spec('F', "ank"), "smy"),
        PowerOrder::new(
            Turkey,
            Order::Hold {
                unit: spec('A', "con"),
            },
        ),
    ];
    (p, orders)
}

fn run(position: &Position, orders: &[PowerOrder]) -> PhaseOutcome {
    adjudicate(map(), &Standard, position, orders)
}

/// The outcome of the order given for the unit in `at`.
fn failure_of(outcome: &PhaseOutcome, at: &str) -> Option<Failure> {
    let p = loc(at).province;
    outcome
        .results
        .iter()
        .find(|r| r.given && r.order.unit().is_some_and(|u| u.province() == p))
        .unwrap_or_else(|| panic!("no result for {at}"))
        .failure
        .clone()
}

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/picture-golden")
        .join(format!("{name}.svg"))
}

/// Renders, compares with the golden, rasterises, leaves the PNG for a look; returns it.
fn check(name: &str, scene: &Scene<'_>, failures: &mut Vec<String>) -> Pixmap {
    let svg = render_svg(map(), scene);
    assert_eq!(
        svg,
        render_svg(map(), scene),
        "{name}: the same scene twice"
    );
    compare_golden(&golden(name), &svg, failures);
    let png = render_png(&svg).expect("rasterised");
    assert_eq!(
        png,
        render_png(&svg).expect("rasterised"),
        "{name}: the same PNG twice"
    );
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("picture-{name}.png"));
    std::fs::write(&out, &png).expect("PNG written");
    let pixmap = Pixmap::decode_png(&png).expect("a PNG");
    assert_eq!((pixmap.width(), pixmap.height()), (WIDTH, HEIGHT), "{name}");
    pixmap
}

/// The colour at a board point, as `#RRGGBB`.
fn colour_at(pixmap: &Pixmap, x: u32, y: u32) -> String {
    let p = pixmap
        .pixel(x, y + BAND)
        .unwrap_or_else(|| panic!("no pixel at {x},{y}"))
        .demultiply();
    assert_eq!(p.alpha(), 255, "opaque at {x},{y}");
    format!("#{:02X}{:02X}{:02X}", p.red(), p.green(), p.blue())
}

#[test]
fn movement_phase_golden_and_pixels() {
    let (position, orders) = movement_phase();
    let outcome = run(&position, &orders);
    // The scenario is what it claims to be.
    assert_eq!(failure_of(&outcome, "par"), Some(Failure::Bounce));
    assert_eq!(failure_of(&outcome, "mun"), Some(Failure::Bounce));
    assert_eq!(failure_of(&outcome, "war"), Some(Failure::Cut));
    assert_eq!(failure_of(&outcome, "sil"), Some(Failure::Bounce));
    assert_eq!(failure_of(&outcome, "vie"), None);
    assert_eq!(failure_of(&outcome, "gal"), Some(Failure::Dislodged));
    assert_eq!(failure_of(&outcome, "yor"), None);
    assert_eq!(failure_of(&outcome, "nth"), None);
    assert_eq!(failure_of(&outcome, "rom"), Some(Failure::Void));
    assert!(matches!(
        failure_of(&outcome, "ank"),
        Some(Failure::Illegal(_))
    ));
    let gal = outcome
        .after
        .dislodged
        .iter()
        .find(|d| d.unit.location == loc("gal"))
        .expect("Galicia dislodged");
    assert!(!gal.retreat_options.is_empty());

    let scene = Scene {
        title: "concert - Spring 1902 movement - 3 May 2027".into(),
        position: &position,
        results: &outcome.results,
        dislodged: &outcome.after.dislodged,
        marks: vec![
            Mark::UnitNote {
                province: loc("vie").province,
                text: "+2".into(),
            },
            Mark::ProvinceNote {
                province: loc("bel").province,
                text: "SOI France".into(),
            },
            Mark::Relation {
                from: loc("lon").province,
                to: loc("par").province,
                text: "England & France: treaty".into(),
                style: RelationStyle::Treaty,
            },
            Mark::Relation {
                from: loc("mos").province,
                to: loc("con").province,
                text: "Russia & Turkey: war".into(),
                style: RelationStyle::War,
            },
            Mark::Legend("Morale shown beside units <Shell Shock>".into()),
        ],
    };
    let mut failures = Vec::new();
    let pixmap = check("movement", &scene, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Owner colours (src/picture/palette.rs) at points inside each area, away from units,
    // dots, labels and arrows.
    for (x, y, want, what) in [
        (381, 579, "#A2D6F3", "Paris, a French centre"),
        (972, 383, "#73B1D5", "Moscow, a Russian centre"),
        (536, 291, "#E3B5CF", "Norway, an English centre"),
        (470, 949, "#EFE6CC", "Tunis, an unowned centre"),
        (428, 317, "#C4D7E4", "the North Sea"),
        (471, 638, "#C9C4BA", "Switzerland, impassable"),
    ] {
        assert_eq!(colour_at(&pixmap, x, y), want, "{what} at {x},{y}");
    }
}

/// Spring 1902 retreats after [`movement_phase`]: Galicia retreats to Ukraine, Bulgaria
/// disbands.
#[test]
fn retreat_phase_golden() {
    let (position, orders) = movement_phase();
    let position = run(&position, &orders).next;
    assert_eq!(position.phase.kind, PhaseKind::Retreat);
    assert_eq!(position.dislodged.len(), 2, "{:#?}", position.dislodged);
    let orders = vec![
        PowerOrder::new(
            Power::Russia,
            Order::Retreat {
                unit: spec('A', "gal"),
                dest: loc("ukr"),
            },
        ),
        PowerOrder::new(
            Power::Turkey,
            Order::Disband {
                unit: spec('A', "bul"),
            },
        ),
    ];
    let outcome = run(&position, &orders);
    assert!(outcome.results.iter().all(|r| r.failure.is_none()));
    let scene = Scene {
        title: "concert - Spring 1902 retreats - 5 May 2027".into(),
        position: &position,
        results: &outcome.results,
        dislodged: &[],
        marks: Vec::new(),
    };
    let mut failures = Vec::new();
    let pixmap = check("retreat", &scene, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Vienna's army now stands in Galicia; Budapest is still Austrian.
    assert_eq!(colour_at(&pixmap, 700, 655), "#E8A673");
}

/// Winter 1902: England builds two (a fleet in London, an army in Liverpool), France one
/// fleet, Germany tries to build with no builds (refused), Russia removes a fleet and a
/// second unit by the civil-disorder rule.
#[test]
fn adjustment_phase_golden() {
    use Power::*;
    let units = vec![
        unit(Austria, 'A', "vie"),
        unit(Austria, 'A', "bud"),
        unit(Austria, 'A', "gal"),
        unit(Austria, 'F', "tri"),
        unit(England, 'F', "nth"),
        unit(England, 'A', "nwy"),
        unit(France, 'A', "bur"),
        unit(France, 'F', "spa/sc"),
        unit(France, 'A', "gas"),
        unit(France, 'A', "pic"),
        unit(Germany, 'A', "mun"),
        unit(Germany, 'F', "kie"),
        unit(Germany, 'F', "hol"),
        unit(Germany, 'A', "ber"),
        unit(Germany, 'F', "den"),
        unit(Italy, 'F', "ion"),
        unit(Italy, 'A', "ven"),
        unit(Italy, 'A', "apu"),
        unit(Italy, 'F', "nap"),
        unit(Russia, 'A', "mos"),
        unit(Russia, 'A', "war"),
        unit(Russia, 'F', "sev"),
        unit(Russia, 'A', "ukr"),
        unit(Turkey, 'A', "bul"),
        unit(Turkey, 'A', "rum"),
        unit(Turkey, 'F', "ank"),
        unit(Turkey, 'F', "bla"),
        unit(Turkey, 'A', "arm"),
    ];
    let mut position = position(
        Phase::new(1902, Season::Winter, PhaseKind::Adjustment),
        units,
        &[
            ("ser", Austria),
            ("nwy", England),
            ("spa", France),
            ("por", France),
            ("den", Germany),
            ("hol", Germany),
            ("tun", Italy),
            ("sev", Turkey),
            ("bul", Turkey),
            ("rum", Turkey),
        ],
    );
    let stp = loc("stp").province;
    position.owners[stp.index()] = None;
    let build = |power, kind, at: &str| {
        PowerOrder::new(
            power,
            Order::Build {
                unit: spec(kind, at),
            },
        )
    };
    let orders = vec![
        build(England, 'F', "lon"),
        build(England, 'A', "lvp"),
        build(France, 'F', "bre"),
        build(Germany, 'A', "mun"),
        PowerOrder::new(
            Russia,
            Order::Remove {
                unit: spec('F', "sev"),
            },
        ),
        build(Turkey, 'A', "smy"),
    ];
    let outcome = run(&position, &orders);
    let builds = outcome
        .results
        .iter()
        .filter(|r| matches!(r.order, Order::Build { .. }) && r.failure.is_none())
        .count();
    assert_eq!(builds, 4, "{:#?}", outcome.results);
    let removals: Vec<bool> = outcome
        .results
        .iter()
        .filter(|r| matches!(r.order, Order::Remove { .. }) && r.failure.is_none())
        .map(|r| r.given)
        .collect();
    assert_eq!(removals.len(), 2, "{:#?}", outcome.results);
    assert!(removals.contains(&false), "one civil-disorder removal");
    assert!(matches!(
        failure_of(&outcome, "mun"),
        Some(Failure::Illegal(_))
    ));
    let scene = Scene {
        title: "concert - Winter 1902 adjustments - 9 May 2027".into(),
        position: &position,
        results: &outcome.results,
        dislodged: &[],
        marks: vec![Mark::Legend("Builds: England 2, France 1, Turkey 1".into())],
    };
    let mut failures = Vec::new();
    let pixmap = check("adjustment", &scene, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // St Petersburg is nobody's; Sevastopol is Turkish.
    assert_eq!(colour_at(&pixmap, 990, 230), "#EFE6CC");
}
