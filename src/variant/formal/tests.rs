//! Formal Diplomacy's rules on hand-made states (the spec's rule IDs name each test).

use super::rules::Wars;
use super::state::{FormalState, pair};
use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// FD-1.1 and FD-AMB-6: the turn count, with the last turn's retreats and Winter left out.
#[test]
fn fd_1_1_turns_are_movement_turns() {
    let at = |y, season, kind| completed_turns(crate::rules::Phase::new(y, season, kind));
    assert_eq!(at(1901, Season::Fall, PhaseKind::Movement), Some(1));
    assert_eq!(at(1901, Season::Fall, PhaseKind::Retreat), None);
    assert_eq!(at(1902, Season::Winter, PhaseKind::Adjustment), Some(4));
    assert_eq!(at(1911, Season::Spring, PhaseKind::Movement), Some(20));
}

/// FD-2.5 and FD-AMB-22: occupation first, then the centre, then the sphere; FD-2.7 and
/// FD-AMB-1: one's own declaration in the order set counts, the other side's does not.
#[test]
fn fd_2_5_what_war_is_needed_for() {
    let map = Map::standard().unwrap();
    let mut p = Position::standard_start(map);
    let mun = map.find_province("mun").unwrap();
    let bur = map.find_province("bur").unwrap();
    let none = BTreeSet::new();
    let soi: BTreeMap<ProvinceId, Power> = [(bur, Power::Germany)].into_iter().collect();
    let w = Wars {
        wars: &none,
        declared: &none,
        soi: &soi,
    };
    assert_eq!(
        w.blocker(&p, Power::France, mun, true),
        Some(("FD-E8", Power::Germany))
    );
    assert_eq!(
        w.blocker(&p, Power::France, bur, true),
        Some(("FD-E10", Power::Germany))
    );
    p.units.retain(|u| u.location.province != mun);
    assert_eq!(
        w.blocker(&p, Power::France, mun, true),
        Some(("FD-E9", Power::Germany))
    );
    assert_eq!(
        w.blocker(&p, Power::Germany, bur, true),
        None,
        "its own sphere"
    );
    let mine: BTreeSet<(Power, Power)> = [(Power::France, Power::Germany)].into_iter().collect();
    let w = Wars {
        declared: &mine,
        ..w
    };
    assert_eq!(w.blocker(&p, Power::France, mun, true), None);
    assert_eq!(
        w.blocker(&p, Power::Germany, map.find_province("par").unwrap(), true),
        Some(("FD-E8", Power::France)),
        "France's declaration does not open France to Germany on receipt (FD-AMB-2)"
    );
}

/// FD-3.2 and FD-AMB-8: the home country covers non-centre provinces.
#[test]
fn fd_3_2_home_country() {
    let map = Map::standard().unwrap();
    let bur = map.find_province("bur").unwrap();
    assert!(map.home_country(Power::France).contains(&bur));
    assert_eq!(map.home_country(Power::Russia).len(), 7);
}

/// FD-2.3 and FD-3.3: a war is one pair; points are signed running totals.
#[test]
fn fd_2_3_one_war_and_points() {
    let mut s = FormalState::default();
    s.wars.insert(pair(Power::Germany, Power::France));
    assert!(s.at_war(Power::France, Power::Germany));
    assert_eq!(s.wars.len(), 1);
    assert_eq!(
        s.score(Power::France, -1, "declared war on Germany"),
        "VP: France -1 (declared war on Germany); total -1."
    );
    assert_eq!(
        s.score(Power::France, 2, "x"),
        "VP: France +2 (x); total 1."
    );
}

/// H20 and §4: the picture says what `WARS:` and `SPHERES:` say: each war a line between
/// the two powers' home centres (one each still owned), each sphere on its province, by
/// province code; the declarations and spheres ordered in the open phase are nobody's
/// business until it is processed.
#[test]
fn fd_4_wars_and_spheres_on_the_picture() {
    use crate::picture::{Mark, RelationStyle};
    use crate::variant::{Slot, VariantOrder};
    let map = Map::standard().unwrap();
    let prov = |c: &str| map.find_province(c).unwrap();
    let mut p = Position::standard_start(map);
    // France has lost Brest: its line starts from Marseilles.
    p.owners[prov("bre").index()] = Some(Power::England);
    let mut s = FormalState::default();
    s.wars.insert(pair(Power::Germany, Power::France));
    s.wars.insert(pair(Power::Turkey, Power::Austria));
    s.soi.insert(prov("bel"), Power::France);
    s.soi.insert(prov("alb"), Power::Italy);
    let private = [
        VariantOrder {
            from: Sender::Power(Power::Russia),
            command: crate::command::RuleCommand::new(super::FormalCommand::DeclareWar {
                on: Power::Turkey,
            }),
            slot: Slot::Named("war on Turkey".into()),
        },
        VariantOrder {
            from: Sender::Power(Power::England),
            command: crate::command::RuleCommand::new(super::FormalCommand::Soi {
                unit: None,
                province: Some(prov("nwy")),
            }),
            slot: Slot::Named("soi".into()),
        },
    ];
    let game = GameView {
        variant_orders: &private,
        ..GameView::bare(map, &p)
    };
    let marks = Formal.picture_marks(&game, &s);
    let war = |from: &str, to: &str, text: &str| Mark::Relation {
        from: prov(from),
        to: prov(to),
        text: text.into(),
        style: RelationStyle::War,
    };
    let soi = |c: &str, text: &str| Mark::ProvinceNote {
        province: prov(c),
        text: text.into(),
    };
    assert_eq!(
        marks,
        vec![
            war("bud", "ank", "Austria-Turkey war"),
            war("mar", "ber", "France-Germany war"),
            Mark::Legend("SOI <power>: that power's sphere of influence".into()),
            soi("alb", "SOI Italy"),
            soi("bel", "SOI France"),
        ]
    );
    assert_eq!(marks, Formal.picture_marks(&GameView::bare(map, &p), &s));
    // No war and no sphere: the legend says so.
    assert_eq!(
        Formal.picture_marks(&game, &FormalState::default()),
        vec![Mark::Legend("Wars: none".into())]
    );
}
