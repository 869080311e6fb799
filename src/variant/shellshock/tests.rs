//! Shell Shock's own marks on the picture (H20; the morale hooks are tested by the case
//! files of §7).

use super::*;
use crate::map::Location;
use crate::picture::Mark;
use crate::rules::{DislodgedUnit, Phase, Season};

fn map() -> &'static Map {
    Map::standard().unwrap()
}

fn unit(owner: Owner, kind: UnitKind, code: &str) -> Unit {
    Unit::new(owner, kind, map().find_location(code).unwrap())
}

fn note(code: &str, text: &str) -> Mark {
    Mark::UnitNote {
        province: map().find_province(code).unwrap(),
        text: text.into(),
    }
}

/// §4 (all morale is public): each unit's morale beside it as the `UNIT:` lines give it,
/// an armed neutral as the power it rebelled from, sorted by province; the legend reads
/// the numbers as the bands of SS-3. A unit waiting to retreat has no note.
#[test]
fn ss_4_morale_beside_every_unit() {
    let map = map();
    let mut p = Position::empty(map, Phase::new(1902, Season::Spring, PhaseKind::Retreat));
    p.units = vec![
        unit(Owner::Power(Power::France), UnitKind::Army, "par"),
        unit(Owner::Power(Power::Germany), UnitKind::Fleet, "kie"),
        unit(Owner::Neutral, UnitKind::Army, "bur"),
        unit(Owner::Power(Power::Italy), UnitKind::Army, "tyr"),
    ];
    p.sort_units();
    p.assign_unit_ids();
    let id = |code: &str| p.unit_in(map.find_province(code).unwrap()).unwrap().id;
    let mut s = ShellShockState::default();
    s.morale.insert(id("par"), 27);
    s.morale.insert(id("tyr"), 3);
    s.rebels.insert(id("bur"), Power::France);
    let marks = ShellShock.picture_marks(&GameView::bare(map, &p), &s);
    let legend = |t: &str| Mark::Legend(t.into());
    let want = vec![
        note("bur", "ex-FRA"),
        note("kie", "18"),
        note("par", "27"),
        note("tyr", "3"),
        legend("Morale beside each unit (Shell Shock):"),
        legend("25-34 very high, 13-24 normal, 9-12 depressed, 4-8 low, 1-3 very low"),
        legend("ex-FRA: an armed neutral, formerly French"),
    ];
    assert_eq!(marks, want);
    // A dislodged unit (drawn beside its province, whose note is the unit standing there)
    // adds nothing.
    let italian = id("tyr");
    let mut dislodged = unit(Owner::Power(Power::Austria), UnitKind::Army, "tyr");
    dislodged.id = p.fresh_unit_id();
    s.morale.insert(dislodged.id, 9);
    p.dislodged.push(DislodgedUnit {
        unit: dislodged,
        attacker_from: map.find_province("ven").unwrap(),
        attacker: italian,
        retreat_options: vec![Location::province(map.find_province("boh").unwrap())],
    });
    assert_eq!(ShellShock.picture_marks(&GameView::bare(map, &p), &s), want);
    // An empty board draws nothing, not even the legend.
    let empty = Position::empty(map, Phase::FIRST);
    assert!(
        ShellShock
            .picture_marks(&GameView::bare(map, &empty), &s)
            .is_empty()
    );
}

/// A unit's modifiers are stored as the list the `MORALE:` bracket gives (rule order, one
/// entry per rule), and a stored list naming a rule twice reads summed (SS-AMB-15).
#[test]
fn ss_amb_15_modifiers_stored_as_a_summed_list() {
    let t = morale::Tally::of(&[(15, -1), (1, 4), (3, 2), (3, 2)]);
    assert_eq!(serde_json::to_string(&t).unwrap(), "[[1,4],[3,4],[15,-1]]");
    let back: morale::Tally = serde_json::from_str("[[3,2],[1,4],[3,2],[15,-1]]").unwrap();
    assert_eq!(back, t);
    assert_eq!(t.total(), 7);
}

/// The tables the lines are written from say what the formatter would: each morale's text
/// on a `UNIT:` line, numbers, and a modifier's bracket.
#[test]
fn the_written_tables_match_the_formatter() {
    for m in -50..=60 {
        let mut out = String::new();
        morale::push_int(&mut out, m);
        assert_eq!(out, m.to_string());
    }
    for n in [i32::MIN, i32::MAX, 99, 100, 1000, -1000] {
        let mut out = String::new();
        morale::push_int(&mut out, n);
        assert_eq!(out, n.to_string());
    }
    for (m, text) in MORALE_TEXTS.iter().enumerate() {
        let m = i32::try_from(m).unwrap();
        assert_eq!(*text, format!(" morale {m} ({})", band(m)));
    }
    let mut t = morale::Tally::default();
    t.add(1, 4);
    t.add(3, 60);
    t.add(15, -1);
    t.add(21, -45);
    t.add(22, 0);
    let mut out = String::new();
    t.push_bracket(&mut out);
    assert_eq!(
        out,
        "[SS-2.1 +4, SS-2.3 +60, SS-2.15 -1, SS-2.21 -45, SS-2.22 +0]"
    );
}
