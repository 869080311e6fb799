//! Proves each adjudication hook with a small test-only rule set, so that variants only
//! add modules and never edit the core (issue: "variant hooks").

use super::*;
use crate::cases::parse_power_order;
use crate::map::{Location, Map, Power, ProvinceId};

fn map() -> &'static Map {
    Map::standard().expect("standard map")
}

fn power(name: &str) -> Power {
    Power::from_name(name).expect("power")
}

/// A movement position from `Power: A bel` lines (`Neutral: A bel` for a neutral unit).
fn position(units: &[&str]) -> Position {
    let map = map();
    let mut p = Position::empty(map, Phase::FIRST);
    p.set_home_ownership(map);
    for line in units {
        let (who, rest) = line.split_once(':').expect("Power: unit");
        let owner = match who.trim() {
            "Neutral" => Owner::Neutral,
            w => Owner::Power(power(w)),
        };
        let mut words = rest.split_whitespace();
        let kind = match words.next() {
            Some("A") => UnitKind::Army,
            _ => UnitKind::Fleet,
        };
        let location = map
            .find_location(words.next().expect("place"))
            .expect("location");
        p.units.push(Unit::new(owner, kind, location));
    }
    p.sort_units();
    p.assign_unit_ids();
    p
}

fn orders(lines: &[&str]) -> Vec<PowerOrder> {
    lines
        .iter()
        .map(|l| parse_power_order(map(), l, PhaseKind::Movement).expect("order"))
        .collect()
}

fn run(rules: &dyn Rules, units: &[&str], given: &[&str]) -> PhaseOutcome {
    adjudicate(map(), rules, &position(units), &orders(given))
}

fn at(out: &PhaseOutcome, code: &str) -> Option<Unit> {
    let p = map().find_province(code)?;
    out.after.unit_in(p).copied()
}

fn dislodged(out: &PhaseOutcome, code: &str) -> bool {
    let p = map().find_province(code);
    out.after
        .dislodged
        .iter()
        .any(|d| Some(d.unit.location.province) == p)
}

fn owner_is(u: Option<Unit>, name: &str) -> bool {
    u.is_some_and(|u| u.owner == Owner::Power(power(name)))
}

/// England and France count as one power for H8–H10 (as allies do in International
/// Relations).
struct Allies;

fn allied(a: Owner, b: Owner) -> bool {
    let pair = |o: Owner| matches!(o, Owner::Power(Power::England | Power::France));
    a == b && a != Owner::Neutral || pair(a) && pair(b)
}

impl Rules for Allies {
    fn may_not_dislodge(&self, ctx: &MoveContext<'_>) -> bool {
        allied(ctx.attacker.owner, ctx.defender.owner)
    }
    fn may_not_cut(&self, attacker: &Unit, supporter: &Unit) -> bool {
        allied(attacker.owner, supporter.owner)
    }
    fn support_excluded(&self, supporter: &Unit, ctx: &MoveContext<'_>) -> bool {
        allied(supporter.owner, ctx.defender.owner)
    }
}

#[test]
fn h8_may_not_dislodge() {
    let units = ["England: A bel", "France: A bur", "France: A pic"];
    let given = ["France: A bur - bel", "France: A pic S A bur - bel"];
    let standard = run(&Standard, &units, &given);
    assert!(owner_is(at(&standard, "bel"), "France") && dislodged(&standard, "bel"));
    let allies = run(&Allies, &units, &given);
    assert!(owner_is(at(&allies, "bel"), "England") && !dislodged(&allies, "bel"));
    // It still prevents: a German move into Belgium bounces against France's 2.
    let units = [
        "England: A bel",
        "France: A bur",
        "France: A pic",
        "Germany: A hol",
        "Germany: A ruh",
    ];
    let given = [
        "France: A bur - bel",
        "France: A pic S A bur - bel",
        "England: A bel - nth",
        "Germany: A hol - bel",
        "Germany: A ruh S A hol - bel",
    ];
    let allies = run(&Allies, &units, &given);
    assert!(
        owner_is(at(&allies, "bel"), "England"),
        "{:?}",
        at(&allies, "bel")
    );
}

#[test]
fn h9_may_not_cut() {
    let units = [
        "England: A bel",
        "England: F nth",
        "France: F eng",
        "Germany: A hol",
        "Germany: A ruh",
    ];
    let given = [
        "England: F nth S A bel",
        "France: F eng - nth",
        "Germany: A hol - bel",
        "Germany: A ruh S A hol - bel",
    ];
    let standard = run(&Standard, &units, &given);
    assert!(
        dislodged(&standard, "bel"),
        "the French attack cuts the English support"
    );
    let allies = run(&Allies, &units, &given);
    assert!(!dislodged(&allies, "bel"), "an ally's attack does not cut");
}

#[test]
fn h10_support_excluded() {
    let units = ["England: A bel", "France: A pic", "Germany: A ruh"];
    let given = ["Germany: A ruh - bel", "France: A pic S A ruh - bel"];
    let standard = run(&Standard, &units, &given);
    assert!(dislodged(&standard, "bel"));
    let allies = run(&Allies, &units, &given);
    assert!(
        !dislodged(&allies, "bel"),
        "France's support is not counted against England"
    );
    let label = allies
        .results
        .iter()
        .find(|r| r.owner == Owner::Power(Power::France))
        .and_then(|r| r.failure.clone());
    assert_eq!(label, Some(Failure::NotCounted));
}

/// Italian units have strength 3/2; supports are worth 1/2 each.
struct Uneven;

impl Rules for Uneven {
    fn strength(&self, unit: &Unit) -> Strength {
        if unit.owner == Owner::Power(Power::Italy) {
            Strength::new(3, 2)
        } else {
            Strength::ONE
        }
    }
    fn support_value(&self, _supporter: &Unit) -> Strength {
        Strength::new(1, 2)
    }
}

#[test]
fn h6_h7_exact_rational_strengths() {
    // 3/2 against 1: the Italian army dislodges.
    let out = run(
        &Uneven,
        &["Italy: A ven", "Austria: A tri"],
        &["Italy: A ven - tri"],
    );
    assert!(dislodged(&out, "tri"));
    // Austria 1 + 1/2 + 1/2 = 2 against Italy 3/2 + 1/2 = 2: a bounce, exactly.
    let units = [
        "Italy: A ven",
        "Italy: A tyr",
        "Austria: A tri",
        "Austria: A vie",
        "Austria: F adr",
    ];
    let given = [
        "Italy: A ven - tri",
        "Italy: A tyr S A ven - tri",
        "Austria: A vie S A tri",
        "Austria: F adr S A tri",
    ];
    let out = run(&Uneven, &units, &given);
    assert!(!dislodged(&out, "tri"), "2 against 2 bounces");
    // A third half support tips it: 5/2 > 2.
    let units = [
        "Italy: A ven",
        "Italy: A tyr",
        "Italy: F alb",
        "Austria: A tri",
        "Austria: A vie",
        "Austria: F adr",
    ];
    let given = [
        "Italy: A ven - tri",
        "Italy: A tyr S A ven - tri",
        "Italy: F alb S A ven - tri",
        "Austria: A vie S A tri",
        "Austria: F adr S A tri",
    ];
    let out = run(&Uneven, &units, &given);
    assert!(dislodged(&out, "tri"), "5/2 beats 2");
}

/// A claim on Burgundy of strength 1 (as Formal Diplomacy's spheres of influence).
struct Claim;

impl Rules for Claim {
    fn pseudo_moves(
        &self,
        map: &Map,
        _position: &Position,
        _orders: &[PowerOrder],
    ) -> Vec<PseudoMove> {
        map.find_province("bur")
            .map(|p| PseudoMove {
                owner: Owner::Power(Power::Germany),
                province: p,
                strength: Strength::ONE,
            })
            .into_iter()
            .collect()
    }
}

#[test]
fn h11_pseudo_moves_prevent_without_moving() {
    let out = run(&Claim, &["France: A par"], &["France: A par - bur"]);
    assert!(owner_is(at(&out, "par"), "France"), "bounced by the claim");
    let out = run(
        &Claim,
        &["France: A par", "France: A mar"],
        &["France: A par - bur", "France: A mar S A par - bur"],
    );
    assert!(owner_is(at(&out, "bur"), "France"), "2 beats the claim's 1");
    // A move bounced by the claim makes a standoff: no retreat there.
    let units = [
        "Austria: A mun",
        "France: A par",
        "Germany: A ruh",
        "Germany: A kie",
    ];
    let given = [
        "France: A par - bur",
        "Germany: A kie - mun",
        "Germany: A ruh S A kie - mun",
    ];
    let out = run(&Claim, &units, &given);
    let bur = map().find_province("bur");
    let d = out.after.dislodged.first().expect("Munich dislodged");
    assert!(
        !d.retreat_options.iter().any(|l| Some(l.province) == bur),
        "{:?}",
        d.retreat_options
    );
}

#[test]
fn h12_neutral_units_hold_and_take_no_orders() {
    let units = ["Neutral: A bel", "France: A pic", "France: A bur"];
    let out = run(
        &Standard,
        &units,
        &["England: A bel - hol", "France: A pic - bel"],
    );
    let refused = out
        .results
        .iter()
        .find(|r| r.owner == Owner::Power(Power::England))
        .and_then(|r| r.failure.clone());
    assert_eq!(refused, Some(Failure::Illegal(Refusal::NeutralUnit)));
    assert_eq!(
        at(&out, "bel").map(|u| u.owner),
        Some(Owner::Neutral),
        "holds against 1"
    );
    let out = run(
        &Standard,
        &units,
        &["France: A pic - bel", "France: A bur S A pic - bel"],
    );
    assert!(dislodged(&out, "bel"), "a neutral can be dislodged");
}

/// No unit may enter Belgium (H3), and every Turkish unit must hold (H4).
struct Restricted;

impl Rules for Restricted {
    fn check_order(
        &self,
        map: &Map,
        _position: &Position,
        order: &PowerOrder,
        standard: Option<&Refusal>,
    ) -> OrderCheck {
        match order.order {
            Order::Move { dest, .. }
                if standard.is_none() && Some(dest.province) == map.find_province("bel") =>
            {
                OrderCheck::Refused(Refusal::Variant(VariantRefusal::new(
                    "TEST-E1",
                    "nobody may enter Belgium",
                )))
            }
            _ => OrderCheck::Stands,
        }
    }
    fn rewrite(
        &self,
        _map: &Map,
        _position: &Position,
        po: &PowerOrder,
        _given: bool,
    ) -> Option<Rewrite> {
        let unit = po.order.unit()?;
        (po.power == Power::Turkey && !matches!(po.order, Order::Hold { .. })).then(|| Rewrite {
            order: Order::Hold { unit },
            show_given: false,
            note: "Turkey holds".into(),
        })
    }
}

#[test]
fn h3_validity_and_h4_rewrite() {
    let out = run(
        &Restricted,
        &["France: A pic", "Turkey: A con"],
        &["France: A pic - bel", "Turkey: A con - bul"],
    );
    assert!(owner_is(at(&out, "pic"), "France"));
    assert!(owner_is(at(&out, "con"), "Turkey"), "rewritten to a hold");
    let french = out
        .results
        .iter()
        .find(|r| r.owner == Owner::Power(Power::France) && r.given)
        .and_then(|r| r.failure.clone());
    assert_eq!(
        french,
        Some(Failure::Illegal(Refusal::Variant(VariantRefusal::new(
            "TEST-E1",
            "nobody may enter Belgium"
        ))))
    );
    let turkish = out
        .results
        .iter()
        .find(|r| r.owner == Owner::Power(Power::Turkey))
        .expect("Turkey's result");
    assert_eq!(turkish.note.as_deref(), Some("Turkey holds"));
    assert!(
        matches!(turkish.order, Order::Hold { .. }),
        "shown as rewritten"
    );
}

/// Dislodged fleets never retreat to Holland, and German units disband at once (H13).
struct Retreats;

impl Rules for Retreats {
    fn retreat_allowed(&self, map: &Map, _p: &Position, _unit: &Unit, dest: Location) -> bool {
        Some(dest.province) != map.find_province("hol")
    }
    fn disband_instead_of_retreat(&self, unit: &Unit) -> bool {
        unit.owner == Owner::Power(Power::Germany)
    }
}

#[test]
fn h13_retreat_rules() {
    let units = [
        "England: A bel",
        "France: A bur",
        "France: A pic",
        "Germany: A mun",
        "Russia: A sil",
        "Russia: A boh",
    ];
    let given = [
        "France: A bur - bel",
        "France: A pic S A bur - bel",
        "Russia: A sil - mun",
        "Russia: A boh S A sil - mun",
    ];
    let out = run(&Retreats, &units, &given);
    let find = |code: &str| {
        let p: Option<ProvinceId> = map().find_province(code);
        out.after
            .dislodged
            .iter()
            .find(|d| Some(d.unit.location.province) == p)
            .cloned()
    };
    let bel = find("bel").expect("Belgium dislodged");
    let hol = map().find_province("hol");
    assert!(!bel.retreat_options.is_empty());
    assert!(!bel.retreat_options.iter().any(|l| Some(l.province) == hol));
    assert!(
        find("mun")
            .expect("Munich dislodged")
            .retreat_options
            .is_empty()
    );
}

/// Builds allowed in any owned centre (H15), and no capture of centres in Spring or Fall
/// by Italy (H14).
struct Centres;

impl Rules for Centres {
    fn build_sites(&self, map: &Map, position: &Position, power: Power) -> Vec<ProvinceId> {
        map.supply_centres()
            .filter(|p| position.owner_of(*p) == Some(power))
            .collect()
    }
    fn update_ownership(&self, map: &Map, position: &mut Position) {
        let units = position.units.clone();
        for unit in units
            .iter()
            .filter(|u| u.owner != Owner::Power(Power::Italy))
        {
            let p = unit.location.province;
            if map.province(p).supply_centre
                && let (Owner::Power(w), Some(slot)) =
                    (unit.owner, position.owners.get_mut(p.index()))
            {
                *slot = Some(w);
            }
        }
    }
}

#[test]
fn h14_h15_ownership_and_build_sites() {
    let map = map();
    let mut p = position(&["Italy: A tun"]);
    p.phase = Phase::new(1901, Season::Fall, PhaseKind::Movement);
    let out = adjudicate(map, &Centres, &p, &[]);
    let tun = map.find_province("tun").expect("tun");
    assert_eq!(out.next.owner_of(tun), None, "Italy captures nothing");
    let out = adjudicate(map, &Standard, &p, &[]);
    assert_eq!(out.next.owner_of(tun), Some(Power::Italy));

    let mut w = position(&["England: F nth"]);
    w.phase = Phase::new(1901, Season::Winter, PhaseKind::Adjustment);
    if let Some(slot) = w
        .owners
        .get_mut(map.find_province("nwy").expect("nwy").index())
    {
        *slot = Some(Power::England);
    }
    let build = |rules: &dyn Rules| {
        let order =
            parse_power_order(map, "England: Build A nwy", PhaseKind::Adjustment).expect("order");
        adjudicate(map, rules, &w, &[order])
    };
    assert!(at(&build(&Centres), "nwy").is_some(), "any owned centre");
    assert!(at(&build(&Standard), "nwy").is_none(), "home centres only");
}

fn province(code: &str) -> ProvinceId {
    map().find_province(code).expect("province")
}

/// A phase of a test rule set's own before the Spring (written `P1901`).
const PARLEY: OwnPhase = OwnPhase {
    name: "Parley",
    letter: 'P',
    letter_first: true,
    season: Season::Spring,
    before: true,
    length: (3, 2),
    then: Then::Movement,
};

/// A phase of a test rule set's own after the Winter (written `W1901T`).
const TRIBUNAL: OwnPhase = OwnPhase {
    name: "Tribunal",
    letter: 'T',
    letter_first: false,
    season: Season::Winter,
    before: false,
    length: (1, 1),
    then: Then::AfterWinter,
};

/// A second one after the Winter, written with its letter first (`Q1901`).
const QUORUM: OwnPhase = OwnPhase {
    name: "Quorum",
    letter: 'Q',
    letter_first: true,
    season: Season::Winter,
    before: false,
    length: (3, 2),
    then: Then::AfterWinter,
};

fn describe_test_phases() {
    crate::rules::describe_phases(&[PARLEY, TRIBUNAL, QUORUM]);
}

/// Phases of every kind read and print as njudge (and the case files) write them, a rule
/// set's own as it describes them, and come in calendar order.
#[test]
fn phases_of_every_kind_round_trip() {
    describe_test_phases();
    for text in [
        "P1901", "S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "W1901T", "Q1901",
    ] {
        let p = Phase::parse(text).expect(text);
        assert_eq!(p.to_string(), text);
    }
    let order: Vec<Phase> = [
        "P1901", "S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "Q1901", "W1901T", "S1902M",
    ]
    .iter()
    .map(|t| Phase::parse(t).expect("phase"))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(
        Phase::parse("W1901B").map(|p| p.kind),
        Some(PhaseKind::Adjustment)
    );
    for bad in ["S1901A", "F1901T", "P1901M", "Q19x4", "W1901", "X1901"] {
        assert_eq!(Phase::parse(bad), None, "{bad}");
    }
    assert_eq!(Phase::own(1901, &PARLEY).long_name(), "Parley 1901");
    assert_eq!(
        Phase::own(1910, &TRIBUNAL).long_name(),
        "Winter 1910, Tribunal"
    );
    for (words, short) in [
        ("Parley 1901", "P1901"),
        ("Winter 1910, Tribunal", "W1910T"),
        ("Fall 1901, Adjustment", "W1901A"),
        ("Spring 1902, Retreats", "S1902R"),
    ] {
        assert_eq!(
            Phase::parse_words(words).map(|p| p.to_string()).as_deref(),
            Some(short),
            "{words}"
        );
    }
    assert_eq!(Phase::parse_words("Spring 1910, Tribunal"), None);
    // A stored phase reads back; one no rule set describes is refused.
    let stored = serde_json::to_string(&Phase::own(1903, &TRIBUNAL)).expect("json");
    assert_eq!(
        stored,
        r#"{"year":1903,"season":"Winter","kind":"Tribunal"}"#
    );
    assert_eq!(
        serde_json::from_str::<Phase>(&stored).ok(),
        Some(Phase::own(1903, &TRIBUNAL))
    );
    assert!(
        serde_json::from_str::<Phase>(r#"{"year":1903,"season":"Winter","kind":"Nonesuch"}"#)
            .is_err()
    );
    // A rule set may not take a name or a code another phase has.
    const CLASH: OwnPhase = OwnPhase {
        name: "Tribunal",
        letter: 'Z',
        ..TRIBUNAL
    };
    crate::rules::describe_phases(&[CLASH]);
    assert_eq!(Phase::parse("W1901Z"), None);
}

/// A unit keeps its identity through a move and a retreat; a built unit gets a new one;
/// the standard opening numbers its 22 units.
#[test]
fn units_keep_their_identity() {
    let map = map();
    let start = Position::standard_start(map);
    let mut ids: Vec<u32> = start.units.iter().map(|u| u.id.0).collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=22).collect::<Vec<_>>());

    let p = position(&["France: A bur", "Germany: A mun", "Germany: A ruh"]);
    let id_of = |pos: &Position, code: &str| pos.unit_in(province(code)).map(|u| u.id);
    let mun = id_of(&p, "mun").expect("unit");
    let bur = id_of(&p, "bur").expect("unit");
    let out = run(
        &Standard,
        &["France: A bur", "Germany: A mun", "Germany: A ruh"],
        &["Germany: A mun - bur", "Germany: A ruh S A mun - bur"],
    );
    assert_eq!(
        id_of(&out.after, "bur"),
        Some(mun),
        "the mover keeps its identity"
    );
    assert_eq!(out.next.phase.kind, PhaseKind::Retreat);
    let retreat = parse_power_order(map, "France: A bur - par", PhaseKind::Retreat).expect("order");
    let after = adjudicate(map, &Standard, &out.next, &[retreat]);
    assert_eq!(
        id_of(&after.after, "par"),
        Some(bur),
        "the retreat keeps it too"
    );

    let mut w = position(&["England: F nth"]);
    w.phase = Phase::new(1901, Season::Winter, PhaseKind::Adjustment);
    let build =
        parse_power_order(map, "England: Build A lvp", PhaseKind::Adjustment).expect("order");
    w.owners[province("lvp").index()] = Some(Power::England);
    w.owners[province("lon").index()] = Some(Power::England);
    let out = adjudicate(map, &Standard, &w, &[build]);
    let new = id_of(&out.after, "lvp").expect("built");
    assert!(new.is_assigned());
    assert!(w.units.iter().all(|u| u.id != new), "a built unit is new");
    assert!(out.record.units.iter().any(|r| r.id == new && r.built));
}

/// The phase record says who moved, who dislodged whom, which supports were given and
/// cut, and which moves went where.
#[test]
fn the_phase_record_says_what_every_unit_did() {
    let units = [
        "Germany: A mun",
        "Germany: A ruh",
        "France: A bur",
        "France: A par",
        "France: A bel",
        "England: A hol",
    ];
    let p = position(&units);
    let id = |code: &str| p.unit_in(province(code)).map(|u| u.id).expect("unit");
    let out = run(
        &Standard,
        &units,
        &[
            "Germany: A mun - bur",
            "Germany: A ruh S A mun - bur",
            "France: A par S A bur",
            "France: A bel - ruh",
        ],
    );
    let unit = |code: &str| {
        out.record
            .units
            .iter()
            .find(|r| r.id == id(code))
            .expect("record")
    };
    assert!(unit("mun").moved_to.is_none(), "bounced");
    assert_eq!(unit("bur").dislodged_by, None);
    let ruh_support = out
        .record
        .supports
        .iter()
        .find(|s| s.supporter == id("ruh"))
        .expect("support");
    assert_eq!(ruh_support.target, id("mun"));
    assert_eq!(ruh_support.dest, Some(province("bur")));
    assert!(
        ruh_support.matched && ruh_support.cut,
        "cut by the attack from Belgium"
    );
    let par_support = out
        .record
        .supports
        .iter()
        .find(|s| s.supporter == id("par"))
        .expect("support");
    assert!(par_support.effective());
    let attack = out
        .record
        .attacks
        .iter()
        .find(|a| a.attacker == id("bel"))
        .expect("attack");
    assert_eq!(attack.defender, Some(id("ruh")));
    assert!(!attack.succeeded && attack.has_path);
}

/// A dislodged unit with nowhere to go is disbanded with the movement results: no retreat
/// phase waits for it, but it is still listed as dislodged (with no options).
#[test]
fn no_retreat_phase_when_nobody_can_retreat() {
    let units = [
        "Turkey: F rum",
        "Russia: A sev",
        "Russia: A ukr",
        "Russia: F bla",
        "Austria: A bud",
        "Austria: A gal",
        "Austria: A ser",
        "Turkey: A bul",
    ];
    let out = run(
        &Standard,
        &units,
        &["Russia: A sev - rum", "Russia: A ukr S A sev - rum"],
    );
    assert!(dislodged(&out, "rum"));
    assert!(
        out.after
            .dislodged
            .iter()
            .all(|d| d.retreat_options.is_empty())
    );
    assert_eq!(
        out.next.phase,
        Phase::new(1901, Season::Fall, PhaseKind::Movement)
    );
    assert!(out.next.dislodged.is_empty());
    let gone = out
        .record
        .units
        .iter()
        .find(|r| r.dislodged_by.is_some())
        .expect("record");
    assert!(gone.gone);

    // With one unit that can retreat, the phase is held for it alone.
    let units = [
        "Turkey: F rum",
        "Russia: A sev",
        "Russia: A ukr",
        "Russia: F bla",
        "Austria: A bud",
        "Austria: A gal",
        "Austria: A ser",
        "Turkey: A bul",
        "Germany: A mun",
        "France: A bur",
        "France: A ruh",
    ];
    let out = run(
        &Standard,
        &units,
        &[
            "Russia: A sev - rum",
            "Russia: A ukr S A sev - rum",
            "France: A bur - mun",
            "France: A ruh S A bur - mun",
        ],
    );
    assert_eq!(out.next.phase.kind, PhaseKind::Retreat);
    assert_eq!(out.next.dislodged.len(), 1);
    assert_eq!(out.after.dislodged.len(), 2);
}

/// A calendar that records its steps, holds every Winter and adds a jury after Winter 1901.
#[derive(Default)]
struct Recording {
    steps: Vec<String>,
    hold: bool,
}

impl Calendar for Recording {
    fn rules(&self, _map: &Map, _position: &Position) -> &dyn Rules {
        &Standard
    }
    fn step(&mut self, _map: &Map, step: Step<'_>, position: &mut Position) {
        self.steps.push(match step {
            Step::Begins => "begins".into(),
            Step::Resolved { .. } => format!("resolved {}", position.phase),
            Step::SpringEnds => "spring ends".into(),
            Step::OwnershipUpdated => "ownership".into(),
            Step::FallEnds => "fall ends".into(),
            Step::Opens(p) => format!("opens {p}"),
        });
    }
    fn next(&self, at: CalendarPoint<'_>) -> Option<Phase> {
        match at {
            CalendarPoint::Start => None,
            CalendarPoint::Skipping { winter, .. } => self.hold.then_some(winter),
            CalendarPoint::After { phase, .. } => {
                (phase.kind == PhaseKind::Adjustment).then(|| Phase::own(phase.year, &TRIBUNAL))
            }
        }
    }
}

/// H16 and H18: the steps come in the order of README §2.2, a Winter with nothing to
/// adjust is skipped (its end-of-season step still runs) unless the calendar holds it, and
/// the calendar's own phase comes after the Winter.
#[test]
fn the_calendar_steps_and_phases() {
    describe_test_phases();
    let map = map();
    let p = position(&["France: A par"]);
    let mut cal = Recording::default();
    let out = adjudicate_with(map, &Standard, &mut cal, &p, &[]);
    assert_eq!(
        cal.steps,
        ["resolved S1901M", "spring ends", "opens F1901M"]
    );
    assert!(!out.ownership_updated);

    // Nobody owns a centre or has a unit to lose: nothing to adjust.
    let mut p = position(&[]);
    p.owners.iter_mut().for_each(|o| *o = None);
    p.phase = Phase::new(1901, Season::Fall, PhaseKind::Movement);
    let mut cal = Recording::default();
    let out = adjudicate_with(map, &Standard, &mut cal, &p, &[]);
    assert_eq!(
        cal.steps,
        ["resolved F1901M", "ownership", "fall ends", "opens W1901T"],
        "the Winter is skipped, the rule set's own phase is not"
    );
    assert!(out.ownership_updated);
    assert_eq!(out.next.phase, Phase::own(1901, &TRIBUNAL));

    let mut cal = Recording {
        hold: true,
        ..Recording::default()
    };
    let out = adjudicate_with(map, &Standard, &mut cal, &p, &[]);
    assert_eq!(cal.steps, ["resolved F1901M", "ownership", "opens W1901A"]);
    let mut cal = Recording::default();
    let winter = adjudicate_with(map, &Standard, &mut cal, &out.next, &[]);
    assert_eq!(cal.steps, ["resolved W1901A", "fall ends", "opens W1901T"]);
    let mut cal = Recording::default();
    let tribunal = adjudicate_with(map, &Standard, &mut cal, &winter.next, &[]);
    assert!(tribunal.results.is_empty());
    assert_eq!(
        tribunal.next.phase,
        Phase::new(1902, Season::Spring, PhaseKind::Movement)
    );
    let mut cal = Recording::default();
    let parley = Position {
        phase: Phase::own(1901, &PARLEY),
        ..position(&[])
    };
    let out = adjudicate_with(map, &Standard, &mut cal, &parley, &[]);
    assert_eq!(out.next.phase, Phase::FIRST);
}

/// H15: a rule set's own civil-disorder removal order, and voluntary disbands.
struct Removals;

impl Rules for Removals {
    fn civil_disorder_removals(
        &self,
        _map: &Map,
        _position: &Position,
        _power: Power,
        candidates: &[Unit],
        count: usize,
    ) -> Option<Vec<UnitId>> {
        // The first units in listing order, whatever their distance.
        Some(candidates.iter().take(count).map(|u| u.id).collect())
    }
    fn may_disband(&self, map: &Map, _position: &Position, unit: &Unit) -> bool {
        Some(unit.location.province) == map.find_province("kie")
    }
}

#[test]
fn h15_removal_order_and_voluntary_disbands() {
    let map = map();
    let mut w = position(&["Germany: A ber", "Germany: A mos", "Germany: F kie"]);
    w.phase = Phase::new(1901, Season::Winter, PhaseKind::Adjustment);
    for p in map.province_ids() {
        w.owners[p.index()] = None;
    }
    w.owners[province("ber").index()] = Some(Power::Germany);
    w.owners[province("kie").index()] = Some(Power::Germany);
    // One removal: the standard rule removes the unit farthest away (Moscow); this rule
    // set removes the first listed (Berlin).
    let standard = adjudicate(map, &Standard, &w, &[]);
    assert!(at(&standard, "mos").is_none() && at(&standard, "ber").is_some());
    let own = adjudicate(map, &Removals, &w, &[]);
    assert!(at(&own, "ber").is_none() && at(&own, "mos").is_some());

    // A power with nothing to remove may still disband where the rule set allows it.
    w.owners[province("mos").index()] = Some(Power::Germany);
    let disband =
        parse_power_order(map, "Germany: Remove F kie", PhaseKind::Adjustment).expect("order");
    let out = adjudicate(map, &Removals, &w, &[disband]);
    assert!(at(&out, "kie").is_none(), "voluntary disband");
    let out = adjudicate(map, &Standard, &w, &[disband]);
    assert!(at(&out, "kie").is_some(), "no removal to make");
}

/// H13 is asked again when the retreat is adjudicated: a place allowed after the movement
/// phase may be closed by then.
struct ClosedHolland;

impl Rules for ClosedHolland {
    fn retreat_allowed(&self, map: &Map, _p: &Position, _unit: &Unit, dest: Location) -> bool {
        Some(dest.province) != map.find_province("hol")
    }
}

#[test]
fn h13_is_asked_again_at_retreat_time() {
    let map = map();
    let units = ["England: A bel", "France: A bur", "France: A pic"];
    let out = run(
        &Standard,
        &units,
        &["France: A bur - bel", "France: A pic S A bur - bel"],
    );
    assert_eq!(out.next.phase.kind, PhaseKind::Retreat);
    let retreat =
        parse_power_order(map, "England: A bel - hol", PhaseKind::Retreat).expect("order");
    let open = adjudicate(map, &Standard, &out.next, &[retreat]);
    assert!(at(&open, "hol").is_some());
    let closed = adjudicate(map, &ClosedHolland, &out.next, &[retreat]);
    assert!(at(&closed, "hol").is_none());
    assert!(closed.results.iter().any(|r| matches!(
        r.failure,
        Some(Failure::Illegal(Refusal::RetreatNotAllowed { .. }))
    )));
}

/// H3: a rule set may replace a generic refusal with its own, and warn about an order it
/// accepts.
struct Replacing;

impl Rules for Replacing {
    fn check_order(
        &self,
        _map: &Map,
        _position: &Position,
        _order: &PowerOrder,
        standard: Option<&Refusal>,
    ) -> OrderCheck {
        match standard {
            Some(Refusal::NeutralUnit) => OrderCheck::Refused(Refusal::Variant(
                VariantRefusal::new("TEST-E2", "that unit is nobody's"),
            )),
            _ => OrderCheck::Stands,
        }
    }
}

#[test]
fn h3_replaces_a_generic_refusal() {
    let map = map();
    let p = position(&["Neutral: A bel", "France: A pic"]);
    let order = parse_power_order(map, "France: A bel H", PhaseKind::Movement).expect("order");
    let got = check_orders(map, &Replacing, &p, &[], &[order]);
    assert_eq!(
        got.first().cloned().flatten().map(|r| r.code()),
        Some("TEST-E2")
    );
    let got = check_orders(map, &Standard, &p, &[], &[order]);
    assert_eq!(
        got.first().cloned().flatten().map(|r| r.code()),
        Some("NEUTRAL-UNIT")
    );
}
