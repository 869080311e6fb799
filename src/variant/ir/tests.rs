//! International Relations' rules on hand-made states (the spec's rule IDs name each test).

use super::board::{Board, Permit, Verdict};
use super::state::*;
use super::turn::{conundrum, fall_check, spring_ends, winter};
use super::*;
use crate::map::Map;
use crate::rules::{Order, PowerOrder, Unit, UnitKind, UnitSpec};
use crate::variant::Slot;
use crate::variant::VariantOrder;

fn map() -> &'static Map {
    Map::standard().unwrap()
}

fn prov(code: &str) -> crate::map::ProvinceId {
    map().find_province(code).unwrap()
}

fn mdt(a: Power, b: Power, from: u16) -> Treaty {
    let (a, b) = pair(a, b);
    Treaty {
        a,
        b,
        kind: TreatyKind::Mdt,
        from,
        lapsing: None,
    }
}

fn army(owner: Power, code: &str) -> Unit {
    Unit::new(
        crate::rules::Owner::Power(owner),
        UnitKind::Army,
        crate::map::Location::province(prov(code)),
    )
}

fn spring(year: u16) -> Phase {
    Phase::new(year, Season::Spring, PhaseKind::Movement)
}

fn position(phase: Phase, units: &[Unit]) -> Position {
    let mut p = Position::standard_start(map());
    p.units = units.to_vec();
    p.phase = phase;
    p.assign_unit_ids();
    p
}

fn mv(power: Power, from: &str, to: &str) -> PowerOrder {
    PowerOrder {
        power,
        order: Order::Move {
            unit: UnitSpec::new(
                Some(UnitKind::Army),
                crate::map::Location::province(prov(from)),
            ),
            dest: crate::map::Location::province(prov(to)),
            via_convoy: false,
        },
    }
}

/// IR-E1 (a)–(c): home territory, a unit's province, an owned minor centre; a third power
/// at war with the viewer takes a home province or a minor centre out of it.
#[test]
fn ir_e1_controlled_territory() {
    use Power::*;
    let mut s = IrState::default();
    let p = position(spring(1903), &[army(Russia, "boh"), army(Turkey, "tyr")]);
    let board = |s: &IrState| {
        let b = Board {
            map: map(),
            position: &p,
            s,
            permits: &[],
        };
        (
            b.controls(Austria, Italy, prov("tyr")),
            b.controls(Russia, Italy, prov("boh")),
            b.controls(Austria, Italy, prov("boh")),
            b.controls(Italy, Italy, prov("ven")),
        )
    };
    assert_eq!(board(&s), (true, true, true, false));
    s.wars.insert(pair(Turkey, Italy));
    // Tyrolia, held by Turkey at war with Italy, is not Austria's territory to Italy.
    assert_eq!(board(&s), (false, true, true, false));
    // An owned minor centre is, an unowned one is nobody's.
    let mut p = position(spring(1903), &[]);
    p.owners[prov("ser").index()] = Some(Austria);
    let b = Board {
        map: map(),
        position: &p,
        s: &s,
        permits: &[],
    };
    assert!(b.controls(Austria, Italy, prov("ser")));
    assert!(
        !Power::ALL
            .iter()
            .any(|x| b.controls(*x, Italy, prov("alb")))
    );
    // A major centre owned by another power is not that power's territory (IR-AMB-25).
    let mut p = position(spring(1903), &[]);
    p.owners[prov("war").index()] = Some(Austria);
    let b = Board {
        map: map(),
        position: &p,
        s: &s,
        permits: &[],
    };
    assert!(!b.controls(Austria, Italy, prov("war")));
    assert!(b.controls(Russia, Italy, prov("war")));
}

/// IR-G1, IR-B1: an own move into an ally's territory is void without permission (and
/// warned), with it not an aggression; a support of a third power's move there is IR-X8.
#[test]
fn ir_g1_permission_and_ir_b1_aggression() {
    use Power::*;
    let mut s = IrState::default();
    s.treaties.push(mdt(Germany, Austria, 1902));
    let p = position(
        spring(1904),
        &[
            army(Germany, "mun"),
            army(Germany, "sil"),
            army(Italy, "tyr"),
            army(Austria, "boh"),
        ],
    );
    let none: Vec<Permit> = Vec::new();
    let b = Board {
        map: map(),
        position: &p,
        s: &s,
        permits: &none,
    };
    assert_eq!(
        b.verdict(&mv(Germany, "mun", "boh")),
        Some(Verdict::Unpermitted(Austria))
    );
    let support = PowerOrder {
        power: Germany,
        order: Order::SupportMove {
            unit: UnitSpec::new(
                Some(UnitKind::Army),
                crate::map::Location::province(prov("sil")),
            ),
            target: UnitSpec::new(
                Some(UnitKind::Army),
                crate::map::Location::province(prov("tyr")),
            ),
            dest: crate::map::Location::province(prov("boh")),
        },
    };
    match b.verdict(&support) {
        Some(Verdict::Aggression(r)) => assert_eq!(r.code, "IR-X8"),
        other => panic!("{other:?}"),
    }
    let permits = vec![Permit {
        by: Austria,
        to: Germany,
        from: None,
        dest: prov("boh"),
    }];
    let b = Board {
        permits: &permits,
        ..b
    };
    assert_eq!(b.verdict(&mv(Germany, "mun", "boh")), None);
    assert!(b.victims(&mv(Germany, "mun", "boh")).is_empty());
}

/// IR-D2: in the lapsing Spring the abrogator's units in the partner's home country or on
/// its centres are frozen; the partner's are not.
#[test]
fn ir_d2_frozen_units() {
    use Power::*;
    let mut s = IrState::default();
    let mut t = mdt(Germany, Austria, 1902);
    t.lapsing = Some(Lapsing {
        by: vec![Germany],
        spring: 1904,
    });
    s.treaties.push(t);
    let p = position(spring(1904), &[army(Germany, "tyr"), army(Austria, "mun")]);
    let b = Board {
        map: map(),
        position: &p,
        s: &s,
        permits: &[],
    };
    let german = p
        .units
        .iter()
        .find(|u| u.owner == crate::rules::Owner::Power(Germany))
        .unwrap();
    let austrian = p
        .units
        .iter()
        .find(|u| u.owner == crate::rules::Owner::Power(Austria))
        .unwrap();
    assert_eq!(b.frozen(german), Some((Germany, Austria, true)));
    assert_eq!(b.frozen(austrian), None);
    // Not in the Fall.
    let fall = position(
        Phase::new(1904, Season::Fall, PhaseKind::Movement),
        &[army(Germany, "tyr")],
    );
    let b = Board {
        position: &fall,
        ..b
    };
    assert_eq!(b.frozen(&fall.units[0]), None);
}

/// IR-C4: the conundrum names the first third power alphabetically, in the order that
/// makes the sentence true.
#[test]
fn ir_c4_conundrum() {
    use Power::*;
    let mut s = IrState::default();
    s.treaties.push(mdt(France, Italy, 1901));
    s.wars.insert(pair(France, Germany));
    assert_eq!(
        conundrum(&s, Italy, Germany),
        Some((France, Italy, Germany))
    );
    assert_eq!(
        conundrum(&s, Germany, Italy),
        Some((France, Italy, Germany))
    );
    assert_eq!(conundrum(&s, Italy, Russia), None);
}

/// IR-E0 and IR-AMB-1, IR-E5, IR-E4 and IR-AMB-8: a Winter penalty counts from the next
/// Fall; a first shot fired in a Winter takes the Fall row and ends with it (W1902: 2
/// points until Fall 1908).
#[test]
fn ir_e0_e4_e5_winter_durations() {
    use Power::*;
    let mut s = IrState::default();
    s.treaties.push(mdt(Germany, Austria, 1902));
    let orders = vec![VariantOrder {
        from: Sender::Power(Germany),
        command: crate::command::RuleCommand::new(super::IrCommand::Abrogate {
            kind: Some(TreatyKind::Mdt),
            with: Austria,
        }),
        slot: Slot::Named("abrogate Austria".into()),
    }];
    let lines = winter(
        &mut s,
        Phase::new(1902, Season::Winter, PhaseKind::Adjustment),
        &orders,
    );
    assert_eq!(
        lines,
        vec![
            "TREATY: Germany gives notice to abrogate its MDT with Austria; it lapses after Spring 1903.",
            "PENALTY: Germany 1 point until Fall 1905 (IR-E5: abrogated an MDT with Austria).",
            "PENALTY: Germany 2 points until Fall 1908 (IR-E4: first shot).",
        ]
    );
    assert!(s.first_shot_fired);
    // IR-D3: it lapses after that Spring.
    assert_eq!(
        spring_ends(&mut s, 1903),
        vec!["TREATY: the MDT between Germany and Austria has lapsed."]
    );
    assert!(s.treaty(Germany, Austria).is_none());
}

/// IR-E6 and IR-AMB-10 (active points at the check), IR-A1 and IR-AMB-23 (the VP of a
/// check counts the penalties of that Fall), IR-E0: they expire right after it.
#[test]
fn ir_e6_fall_check_and_expiry() {
    use Power::*;
    let mut s = IrState::default();
    s.penalties.push(Penalty {
        power: Italy,
        points: 3,
        last_fall: 1905,
        rule: Rule::E1,
        victim: Some(Austria),
    });
    s.penalties.push(Penalty {
        power: Italy,
        points: 2,
        last_fall: 1907,
        rule: Rule::E1,
        victim: Some(France),
    });
    let p = Position::standard_start(map());
    let lines = fall_check(&mut s, &p, 1905);
    assert_eq!(
        lines.first().map(String::as_str),
        Some(
            "EXPANSIONISM: Italy has 5 penalty points; its further penalties are increased by 1 point and 1 year."
        )
    );
    assert!(lines.contains(&"VP: Italy 3 centres - 5 penalty points = -2.".to_string()));
    assert!(lines.contains(&"VP: Austria 3 centres - 0 penalty points = 3.".to_string()));
    assert_eq!(s.stage(Italy), 1);
    assert_eq!(s.points(Italy), 2);
    // The stage is reached once.
    assert!(
        !fall_check(&mut s, &p, 1906)
            .iter()
            .any(|l| l.starts_with("EXPANSIONISM"))
    );
}

/// IR-C5a and IR-AMB-24: an imminent war ends with the war it answers, with its MDT, or
/// when its holder and target are at war.
#[test]
fn ir_c5a_imminent_war_ends() {
    use Power::*;
    let mut s = IrState::default();
    s.treaties.push(mdt(Germany, France, 1901));
    s.wars.insert(pair(England, France));
    s.imminent.insert(Imminent {
        holder: Germany,
        target: England,
        via: France,
    });
    s.prune_imminent();
    assert_eq!(s.imminent_via(Germany, England), vec![France]);
    s.wars.remove(&pair(England, France));
    s.prune_imminent();
    assert!(s.imminent.is_empty());
}

/// §4 `RELATIONS:`: treaties and wars by pair, a treaty not yet in force or under notice
/// says so, imminent wars after.
#[test]
fn ir_relations_line() {
    use Power::*;
    let mut s = IrState::default();
    assert_eq!(relations_line(&s, spring(1903)), "RELATIONS: none");
    s.treaties.push(mdt(Germany, France, 1904));
    s.treaties.push(Treaty {
        kind: TreatyKind::Aat,
        ..mdt(Austria, Italy, 1902)
    });
    s.wars.insert(pair(Turkey, England));
    s.wars.insert(pair(England, France));
    s.imminent.insert(Imminent {
        holder: Germany,
        target: England,
        via: France,
    });
    assert_eq!(
        relations_line(&s, Phase::new(1903, Season::Fall, PhaseKind::Movement)),
        "RELATIONS: Austria-Italy AAT, England-France war, England-Turkey war, France-Germany MDT (from Spring 1904); imminent: Germany->England"
    );
}

/// IR-C3: the setting `peace_treaties`, off by default.
#[test]
fn ir_c3_peace_treaties_setting() {
    let v = InternationalRelations;
    let mut state = IrState::default();
    assert!(!state.peace_treaties);
    assert!(!state.first_shot_fired);
    v.apply_setting(&mut state, "peace_treaties", "on").unwrap();
    assert!(state.peace_treaties);
    assert!(
        v.apply_setting(&mut state, "peace_treaties", "maybe")
            .is_err()
    );
    assert!(v.apply_setting(&mut state, "turns", "4").is_err());
}

/// IR-A2, IR-AMB-14: the thresholds; Russia needs 8 at the checks of 1901–1909 only.
#[test]
fn ir_a2_thresholds() {
    use super::claims::{coalition_threshold, solo_threshold};
    assert_eq!(solo_threshold(Power::Austria, 1905), 7);
    assert_eq!(solo_threshold(Power::Russia, 1909), 8);
    assert_eq!(solo_threshold(Power::Russia, 1910), 7);
    assert_eq!(coalition_threshold(2), 12);
    assert_eq!(coalition_threshold(3), 16);
}

/// IR-A3: the window runs from the Fall results (the Fall retreats, the Winter and its
/// conference) to the next Spring movement deadline; never before the first Fall.
#[test]
fn ir_a3_the_claim_window() {
    use super::claims::window;
    let p = |y, season, kind| Phase::new(y, season, kind);
    assert_eq!(window(p(1905, Season::Fall, PhaseKind::Movement)), None);
    assert_eq!(
        window(p(1905, Season::Fall, PhaseKind::Retreat)),
        Some(1905)
    );
    assert_eq!(
        window(p(1905, Season::Winter, PhaseKind::Adjustment)),
        Some(1905)
    );
    assert_eq!(window(Phase::own(1905, &super::CONFERENCE)), Some(1905));
    assert_eq!(
        window(p(1906, Season::Spring, PhaseKind::Movement)),
        Some(1905)
    );
    assert_eq!(window(p(1906, Season::Spring, PhaseKind::Retreat)), None);
    assert_eq!(window(p(1901, Season::Spring, PhaseKind::Movement)), None);
    assert_eq!(window(Phase::own(1901, &super::ALLIANCE)), None);
}

/// IR-A1, IR-AMB-23: a claim is judged by the victory points of its window's Fall check,
/// as the check recorded them (a penalty that counted there has expired since).
#[test]
fn ir_a1_claims_read_the_checks_points() {
    use super::claims::{check, vp_at};
    let mut s = IrState::default();
    s.penalties.push(Penalty {
        power: Power::Austria,
        points: 2,
        last_fall: 1906,
        rule: Rule::E2,
        victim: None,
    });
    let mut p = Position::standard_start(map());
    for c in ["ser", "gre", "rum", "bul", "ven", "rom"] {
        p.owners[prov(c).index()] = Some(Power::Austria);
    }
    // 9 centres - 2 points at the Fall 1906 check.
    let _ = fall_check(&mut s, &p, 1906);
    assert_eq!(s.points(Power::Austria), 0);
    p.phase = Phase::new(1906, Season::Winter, PhaseKind::Adjustment);
    assert_eq!(vp_at(&s, &p, 1906, Power::Austria), 7);
    assert!(check(&s, &p, Power::Austria, None).is_ok());
    // Without the record (a case set up after the check) the points stand as they are now.
    s.checked = None;
    assert_eq!(vp_at(&s, &p, 1906, Power::Austria), 9);
}

/// IR-A5, IR-A3: a solo filing abrogates every treaty of the filer at once; a coalition
/// filing keeps those with its partners and withdraws the filer's solo claim.
#[test]
fn ir_a5_a_filing_abrogates_the_filers_treaties() {
    use super::claims::file;
    use Power::*;
    let mut s = IrState::default();
    s.treaties.push(mdt(Austria, Italy, 1902));
    s.treaties.push(mdt(Austria, Russia, 1902));
    s.treaties.push(mdt(France, Germany, 1902));
    let mut p = Position::standard_start(map());
    p.phase = Phase::new(1906, Season::Winter, PhaseKind::Adjustment);
    let solo = file(&mut s, &p, Austria, None);
    assert_eq!(s.claims.len(), 1);
    assert_eq!(solo.len(), 3, "{solo:?}");
    let mut s2 = IrState {
        treaties: vec![mdt(Austria, Italy, 1902), mdt(Austria, Russia, 1902)],
        claims: s.claims.clone(),
        ..IrState::default()
    };
    let lines = file(&mut s2, &p, Austria, Some(&[Italy]));
    assert_eq!(
        lines,
        [
            "CLAIM: Austria files a claim for a coalition victory with Italy; every member must file it by the Spring 1907 deadline.",
            "CLAIM: Austria withdraws its solo claim (it files for a coalition victory).",
            "TREATY: the MDT between Austria and Russia is abrogated (Austria claimed a victory).",
        ]
    );
    assert!(s2.treaty(Austria, Italy).is_some() && s2.treaty(Austria, Russia).is_none());
    assert!(s.treaty(France, Germany).is_some());
}

/// IR-I1: powers are in contact when a unit of one is next to a unit of the other (any
/// border, whatever the units' kinds).
#[test]
fn ir_i1_contacts() {
    use super::turn::contacts;
    use Power::*;
    let p = position(
        spring(1904),
        &[
            army(France, "bur"),
            army(Germany, "mun"),
            Unit::new(
                crate::rules::Owner::Power(England),
                UnitKind::Fleet,
                crate::map::Location::province(prov("nth")),
            ),
            army(Turkey, "smy"),
        ],
    );
    assert_eq!(contacts(map(), &p), [(France, Germany)]);
}

/// H20 and §4: the picture says what `RELATIONS:` says: each treaty signed a line in its
/// words (`(from Spring …)` until in force, `(lapsing)` under notice), each war a line, a
/// pair's treaty before its war, and each imminent war a legend line. The alliance and
/// conference proposals (master only) never appear.
#[test]
fn ir_4_relations_on_the_picture() {
    use crate::picture::{Mark, RelationStyle};
    use Power::*;
    let mut s = IrState::default();
    s.treaties.push(mdt(England, France, 1901));
    s.treaties.push(Treaty {
        kind: TreatyKind::Aat,
        ..mdt(Italy, Austria, 1903)
    });
    let mut lapsing = mdt(Russia, Turkey, 1901);
    lapsing.lapsing = Some(Lapsing {
        by: vec![Turkey],
        spring: 1902,
    });
    s.treaties.push(lapsing);
    // A treaty signed while at war (peace_treaties=on).
    s.peace_treaties = true;
    s.treaties.push(mdt(Germany, Russia, 1903));
    s.wars.insert(pair(Russia, Germany));
    s.wars.insert(pair(France, Germany));
    s.imminent.insert(Imminent {
        holder: England,
        target: Germany,
        via: France,
    });
    let phase = Phase::new(1902, Season::Fall, PhaseKind::Movement);
    let p = position(phase, &[]);
    let proposals = vec![VariantOrder {
        from: Sender::Power(Austria),
        command: crate::command::RuleCommand::new(super::IrCommand::EnterTreaty {
            kind: TreatyKind::Mdt,
            with: Turkey,
        }),
        slot: Slot::Member {
            set: "treaties".into(),
            key: "Turkey".into(),
        },
    }];
    let game = GameView {
        variant_orders: &proposals,
        ..GameView::bare(map(), &p)
    };
    let marks = InternationalRelations.picture_marks(&game, &s);
    let line = |a: &str, b: &str, text: &str, style| Mark::Relation {
        from: prov(a),
        to: prov(b),
        text: text.into(),
        style,
    };
    use RelationStyle::{Treaty as T, War as W};
    assert_eq!(
        marks,
        vec![
            line("bud", "nap", "Austria-Italy AAT (from Spring 1903)", T),
            line("edi", "bre", "England-France MDT", T),
            line("bre", "ber", "France-Germany war", W),
            line("ber", "mos", "Germany-Russia MDT (from Spring 1903)", T),
            line("ber", "mos", "Germany-Russia war", W),
            line("mos", "ank", "Russia-Turkey MDT (lapsing)", T),
            Mark::Legend("Imminent war: England may attack Germany".into()),
        ]
    );
    assert_eq!(
        marks,
        InternationalRelations.picture_marks(&GameView::bare(map(), &p), &s)
    );
    let texts: Vec<String> = marks.iter().map(|m| format!("{m:?}")).collect();
    assert!(!texts.iter().any(|t| t.contains("Austria-Turkey")));
    // No treaty and no war: the legend says so.
    assert_eq!(
        InternationalRelations.picture_marks(&game, &IrState::default()),
        vec![Mark::Legend("Relations: none".into())]
    );
}
