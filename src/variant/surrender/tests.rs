//! Surrender's state and commands on hand-made positions: counts, the conditions of
//! surrender, checkpoints and chains, and the immediate commands (the spec's rule IDs name
//! each test).

use super::state::{Obstacle, SurrenderState};
use super::*;
use crate::map::Map;
use crate::rules::{Phase, Season};
use crate::variant::GameView;

fn map() -> &'static Map {
    Map::standard().unwrap()
}

/// A position whose only content is the centres each power owns.
fn owning(owners: &[(Power, &[&str])]) -> Position {
    let map = map();
    let mut p = Position::empty(map, Phase::new(1905, Season::Spring, PhaseKind::Movement));
    for (power, centres) in owners {
        for c in *centres {
            let id = map.find_province(c).unwrap();
            p.owners[id.index()] = Some(*power);
        }
    }
    p
}

fn relations(pairs: &[(Power, Power)]) -> SurrenderState {
    SurrenderState {
        protector: pairs.iter().map(|(p, c)| (*c, *p)).collect(),
        ..SurrenderState::default()
    }
}

use Power::*;

/// SUR-2.3: a client capturing its protectorate's centre leaves the protectorate's count
/// as it was. SUR-7.1: counts are recursive (the spec's example: A 8, B 4, C 2 → B 6, A 14).
#[test]
fn sur_2_3_and_7_1_counts() {
    let s = relations(&[(Russia, Austria)]);
    let before = owning(&[
        (
            Russia,
            &["mos", "stp", "war", "sev", "bud", "rum", "swe", "nwy"],
        ),
        (Austria, &["vie", "tri"]),
    ]);
    assert_eq!(s.count(&before, Russia), 10);
    let after = owning(&[
        (Russia, &["mos", "stp", "sev", "bud", "rum", "swe", "nwy"]),
        (Austria, &["vie", "tri", "war"]),
    ]);
    assert_eq!(
        (
            after.centre_count(Russia),
            after.centre_count(Austria),
            s.count(&after, Russia)
        ),
        (7, 3, 10)
    );
    let chain = relations(&[(Germany, France), (France, Italy)]);
    let p = owning(&[
        (
            Germany,
            &["ber", "kie", "mun", "hol", "den", "swe", "nwy", "bel"],
        ),
        (France, &["par", "bre", "mar", "spa"]),
        (Italy, &["rom", "ven"]),
    ]);
    assert_eq!(chain.count(&p, France), 6);
    assert_eq!(chain.count(&p, Germany), 14);
}

/// SUR-4.1–4.5 in the order of §3's table (SUR-AMB-15), and SUR-4.6: an eliminated power
/// may surrender.
#[test]
fn sur_4_conditions_in_table_order() {
    let map = map();
    let p = owning(&[
        (Austria, &["vie", "tri"]),
        (Russia, &["bud", "mos", "stp"]),
        (Italy, &["rom"]),
        (Turkey, &["ank", "con", "smy", "ser"]),
    ]);
    let s = relations(&[(Austria, Italy)]);
    assert_eq!(
        s.obstacle(map, &p, Austria, Austria, true),
        Some(Obstacle::Itself)
    );
    assert_eq!(
        s.obstacle(map, &p, Austria, Italy, true),
        Some(Obstacle::OwnClient),
        "SUR-4.5 before SUR-4.4"
    );
    assert_eq!(
        s.obstacle(map, &p, Italy, Russia, true),
        Some(Obstacle::IsClient(Austria)),
        "SUR-4.1"
    );
    // Without its client Austria counts 2.
    let s = SurrenderState::default();
    assert_eq!(
        s.obstacle(map, &p, Austria, Turkey, true),
        Some(Obstacle::NoHomeCentre),
        "SUR-4.3"
    );
    assert_eq!(s.obstacle(map, &p, Austria, Russia, true), None);
    let mut pending = s.clone();
    pending.offers.insert(Austria, Russia);
    assert_eq!(
        pending.obstacle(map, &p, Austria, Turkey, true),
        Some(Obstacle::Pending(Russia)),
        "SUR-1.6"
    );
    assert_eq!(
        pending.obstacle(map, &p, Austria, Russia, false),
        None,
        "an acceptance does not count its own offer as pending"
    );
    let small = owning(&[(Austria, &["vie", "tri"]), (Russia, &["bud", "mos"])]);
    assert_eq!(
        s.obstacle(map, &small, Austria, Russia, true),
        Some(Obstacle::TooSmall { m: 2, n: 2 }),
        "SUR-4.4"
    );
    let big = owning(&[
        (Austria, &["vie", "tri", "ser"]),
        (Russia, &["bud", "mos", "stp", "war", "sev"]),
    ]);
    assert_eq!(
        s.obstacle(map, &big, Austria, Russia, true),
        Some(Obstacle::TooBig(3)),
        "SUR-4.2"
    );
    // SUR-4.6: nothing left at all, and still a valid offer.
    let gone = owning(&[(Russia, &["vie", "bud", "tri", "mos"])]);
    assert_eq!(
        SurrenderState::default().obstacle(map, &gone, Austria, Russia, true),
        None
    );
}

/// SUR-AMB-8: "owns one of C's home centres" is the protectorate's own ownership of C's
/// original home centres, never through its clients.
#[test]
fn sur_amb_8_the_target_itself_owns_the_home_centre() {
    let map = map();
    // Germany protects France; France owns Vienna. Austria (2 centres) offers to Germany,
    // which counts 6 but owns no Austrian centre itself; France may take the offer.
    let s = relations(&[(Germany, France)]);
    let p = owning(&[
        (Germany, &["ber", "kie", "mun"]),
        (France, &["par", "bre", "vie"]),
        (Austria, &["bud", "tri"]),
    ]);
    assert_eq!(
        s.obstacle(map, &p, Austria, Germany, true),
        Some(Obstacle::NoHomeCentre)
    );
    assert_eq!(s.obstacle(map, &p, Austria, France, true), None);
}

/// SUR-4.7: the relation survives the protectorate losing the client's home centres, and
/// a power may surrender again after regaining its independence.
#[test]
fn sur_4_7_no_limit_and_no_recheck_of_the_home_centre() {
    let map = map();
    let mut s = relations(&[(Russia, Austria)]);
    let p = owning(&[
        (Russia, &["mos", "stp", "war", "sev", "rum"]),
        (Austria, &["vie", "tri"]),
        (Turkey, &["bud"]),
    ]);
    assert!(s.checkpoint(map, &p).is_empty(), "the relation stands");
    s.protector.clear();
    let again = owning(&[
        (Russia, &["mos", "stp", "war", "sev", "rum", "bud"]),
        (Austria, &["vie", "tri"]),
    ]);
    assert_eq!(s.obstacle(map, &again, Austria, Russia, true), None);
}

/// SUR-5.4 and SUR-AMB-12: a client leaving lowers its protectorate's count, which frees a
/// sibling in the next round; the lines come in the order the rounds end the relations.
/// SUR-6.1: one power protects several clients.
#[test]
fn sur_5_4_independence_to_a_fixpoint() {
    let map = map();
    let mut s = relations(&[(Russia, Austria), (Russia, Turkey)]);
    // Russia 3 own; Austria 2, Turkey 3. Round 1: without Turkey Russia counts 5 > 3, without
    // Austria 6 > 2: nothing. Make Turkey 5: without Turkey 5 ≤ 5 → Turkey leaves; then
    // Russia counts 5, without Austria 3 > 2: Austria stays.
    let p = owning(&[
        (Russia, &["mos", "stp", "war"]),
        (Austria, &["vie", "tri"]),
        (Turkey, &["ank", "con", "smy", "bul", "gre"]),
    ]);
    let lines = s.checkpoint(map, &p);
    assert_eq!(
        lines,
        vec![
            "INDEPENDENCE: Turkey is independent of Russia: Russia counts 5 centres without Turkey, Turkey counts 5."
        ]
    );
    assert_eq!(s.protector.get(&Austria), Some(&Russia));
    // Now Russia loses a centre: without Austria it counts 2 ≤ 2 → Austria leaves too.
    let q = owning(&[
        (Russia, &["mos", "stp"]),
        (Austria, &["vie", "tri"]),
        (Turkey, &["ank", "con", "smy", "bul", "gre"]),
    ]);
    let lines = s.checkpoint(map, &q);
    assert_eq!(
        lines,
        vec![
            "INDEPENDENCE: Austria is independent of Russia: Russia counts 2 centres without Austria, Austria counts 2."
        ]
    );
    // A chain: Germany protects France, France protects Italy. Italy grows: France without
    // Italy counts no more than Italy → Italy leaves in round 1; Germany then counts less
    // and France (now 2) stays under Germany (6 without France).
    let mut chain = relations(&[(Germany, France), (France, Italy)]);
    let r = owning(&[
        (Germany, &["ber", "kie", "mun", "hol", "den", "swe"]),
        (France, &["par", "bre"]),
        (Italy, &["rom", "ven", "nap"]),
    ]);
    let lines = chain.checkpoint(map, &r);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("INDEPENDENCE: Italy is independent of France"));
    assert_eq!(chain.protector.get(&France), Some(&Germany), "SUR-7.2");
}

fn view<'a>(position: &'a Position) -> GameView<'a> {
    GameView::bare(map(), position)
}

fn as_power<'a>(game: GameView<'a>, p: Power) -> CommandContext<'a> {
    CommandContext {
        game,
        sender: Sender::Power(p),
        text: "",
    }
}

/// SUR-5.4(d) and SUR-AMB-16: a client that accepts a surrender may be independent at
/// once; the acceptance's lines come first, then the checkpoint's. SUR-6.2: a client may
/// accept surrenders. SUR-1.3: the relation starts at once.
#[test]
fn sur_5_4_d_independence_at_an_acceptance() {
    // Austria (own 5) protects Italy (own 3). Turkey (own 2, Italy owns Smyrna) offers to
    // Italy. After the acceptance Italy counts 5 and Austria 5 without Italy: Italy leaves.
    let p = owning(&[
        (Austria, &["vie", "bud", "tri", "ser", "gre"]),
        (Italy, &["rom", "nap", "smy"]),
        (Turkey, &["ank", "con"]),
    ]);
    let mut s = relations(&[(Austria, Italy)]);
    s.offers.insert(Turkey, Italy);
    let applied = commands::apply(
        &as_power(view(&p), Italy),
        &mut s,
        &SurrenderCommand::AcceptSurrender { from: Turkey },
    )
    .unwrap();
    let lines: Vec<&str> = applied.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        lines,
        vec![
            "SURRENDER: Italy accepts the surrender of Turkey. Turkey is now a client state of Italy.",
            "INDEPENDENCE: Italy is independent of Austria: Austria counts 5 centres without Italy, Italy counts 5.",
        ]
    );
    assert!(
        applied
            .lines
            .iter()
            .all(|l| l.reader == crate::variant::Reader::Observers)
    );
    assert_eq!(s.protector.get(&Turkey), Some(&Italy));
    assert!(!s.protector.contains_key(&Italy));
    assert!(s.offers.is_empty());
}

/// SUR-1.2, SUR-1.4 and SUR-AMB-1: offers, withdrawals and declines are public lines of the
/// judge; SUR-AMB-11: in any phase.
#[test]
fn sur_1_offers_are_public_and_immediate_in_any_phase() {
    let mut p = owning(&[(Austria, &["vie"]), (Russia, &["bud", "mos", "war"])]);
    p.phase = Phase::new(1905, Season::Winter, PhaseKind::Adjustment);
    let mut s = SurrenderState::default();
    let cx = as_power(view(&p), Austria);
    let offer = SurrenderCommand::OfferSurrender { to: Russia };
    assert_eq!(commands::take(&cx, &s, &offer), Ok(Taken::Immediate));
    let a = commands::apply(&cx, &mut s, &offer).unwrap();
    assert_eq!(
        a.lines,
        vec![Line::public(
            "SURRENDER: Austria offers to surrender to Russia."
        )]
    );
    let a = commands::apply(&cx, &mut s, &SurrenderCommand::WithdrawSurrender).unwrap();
    assert_eq!(
        a.lines,
        vec![Line::public(
            "SURRENDER: Austria withdraws its offer to surrender to Russia."
        )]
    );
    commands::apply(&cx, &mut s, &offer).unwrap();
    let a = commands::apply(
        &as_power(view(&p), Russia),
        &mut s,
        &SurrenderCommand::DeclineSurrender { from: Austria },
    )
    .unwrap();
    assert_eq!(
        a.lines,
        vec![Line::public(
            "SURRENDER: Russia declines the surrender of Austria."
        )]
    );
    assert!(s.offers.is_empty());
}

/// SUR-9.1 and SUR-AMB-10: only an independent power wins, on its count.
#[test]
fn sur_9_1_a_client_never_wins() {
    let s = relations(&[(Russia, Austria)]);
    let many: Vec<&str> = vec![
        "mos", "stp", "war", "sev", "bud", "rum", "ser", "bul", "gre", "con", "ank", "smy", "swe",
        "nwy", "den", "ber",
    ];
    let p = owning(&[(Russia, &many[..]), (Austria, &["vie", "tri"])]);
    assert_eq!(s.victor(&p, 18), Some(Russia));
    let other_way = relations(&[(Austria, Russia)]);
    assert_eq!(
        other_way.victor(&p, 18),
        Some(Austria),
        "Austria counts 18 with Russia"
    );
    assert_eq!(other_way.victor(&p, 19), None);
}

/// H20 and §4: the picture draws each client relation (a line from the client to its
/// protectorate, in the words of `RELATIONS:`) and each pending offer (public once made);
/// a client's declines of exchanges, standing or in the phase's orders, are the master's.
#[test]
fn sur_4_client_relations_on_the_picture() {
    use crate::picture::{Mark, RelationStyle};
    use crate::variant::{Slot, VariantOrder};
    let map = map();
    let prov = |c: &str| map.find_province(c).unwrap();
    // Italy owns no home centre any more: its line starts from its first one, Naples.
    let p = owning(&[
        (Austria, &["bud", "tri", "vie", "ven", "rom"]),
        (Italy, &["tun"]),
        (Russia, &["mos", "war", "sev", "stp", "rum"]),
        (Turkey, &["con"]),
        (England, &["lon"]),
    ]);
    let mut s = relations(&[(Austria, Italy), (Russia, Turkey)]);
    s.offers.insert(England, Russia);
    s.standing_decline.insert(Italy);
    let private = [VariantOrder {
        from: Sender::Power(Turkey),
        command: crate::command::RuleCommand::new(SurrenderCommand::DeclineExchange {
            province: prov("ank"),
        }),
        slot: Slot::Named("decline Ank".into()),
    }];
    let game = GameView {
        variant_orders: &private,
        ..GameView::bare(map, &p)
    };
    let marks = Surrender.picture_marks(&game, &s);
    let client = |from: &str, to: &str, text: &str| Mark::Relation {
        from: prov(from),
        to: prov(to),
        text: text.into(),
        style: RelationStyle::Client,
    };
    assert_eq!(
        marks,
        vec![
            client("nap", "bud", "Austria protects Italy"),
            client("con", "mos", "Russia protects Turkey"),
            Mark::Legend("England offers to surrender to Russia".into()),
        ]
    );
    let mut open = s.clone();
    open.standing_decline.clear();
    assert_eq!(
        marks,
        Surrender.picture_marks(&GameView::bare(map, &p), &open)
    );
    assert!(
        Surrender
            .picture_marks(&game, &SurrenderState::default())
            .is_empty()
    );
}
