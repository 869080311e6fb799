//! Survive's count and jury on hand-made states (the spec's rule IDs name each test).

use super::state::{Cause, Jury, Outcome, SurviveState, Win, next_vote_year};
use super::*;
use crate::rules::Season;
use crate::variant::{Early, Readiness};

fn ballots(s: &mut SurviveState, list: &[(Power, &[(Power, u32)])]) {
    for (voter, b) in list {
        s.ballots.insert(*voter, b.iter().copied().collect());
    }
}

use Power::*;

/// SRV-4a.1, SRV-5a, SRV-5b.1 and SRV-AMB-3: the most voted leave (all of them when tied),
/// nobody when no vote was cast, and a tie among everyone goes to the jury. SRV-2.2 and
/// SRV-3.5: outcasts' ballots and ballots for outcasts do not count.
#[test]
fn srv_4a_5a_5b_the_count() {
    let mut s = SurviveState::default();
    assert_eq!(s.count().1, Outcome::NoVotes);
    ballots(
        &mut s,
        &[(France, &[(Germany, 3)]), (England, &[(Italy, 3)])],
    );
    assert_eq!(s.count().1, Outcome::Out(vec![Germany, Italy]));
    s.cast_out(&[Austria, Russia, Turkey], 1902, Cause::Tie);
    s.ballots.clear();
    ballots(
        &mut s,
        &[
            (England, &[(France, 2)]),
            (France, &[(England, 2)]),
            (Germany, &[(Italy, 2)]),
            (Italy, &[(Germany, 2)]),
            (Austria, &[(England, 9)]),
        ],
    );
    assert_eq!(
        s.count().1,
        Outcome::Jury(vec![England, France, Germany, Italy])
    );
}

/// SRV-1.1 and SRV-AMB-11: the vote year a refused early ballot is told about.
#[test]
fn srv_1_1_the_next_vote() {
    let at = |y, season, kind| next_vote_year(Phase::new(y, season, kind));
    assert_eq!(at(1903, Season::Winter, PhaseKind::Adjustment), 1904);
    assert_eq!(at(1904, Season::Fall, PhaseKind::Retreat), 1904);
    assert_eq!(at(1904, Season::Winter, PhaseKind::Own(&super::JURY)), 1906);
    assert_eq!(at(1901, Season::Spring, PhaseKind::Movement), 1902);
}

/// SRV-5b.3 (a) and (b), SRV-AMB-12: the master's vote for one of the tied decides; else
/// the master is asked privately and the jury waits.
#[test]
fn srv_5b_3_ties_in_the_jury() {
    let jury = |master| Jury {
        year: 1910,
        candidates: vec![England, France],
        jurors: vec![Austria, Germany],
        votes: [(Austria, England), (Germany, France)]
            .into_iter()
            .collect(),
        master,
        tied: None,
    };
    let mut s = SurviveState {
        jury: Some(jury(None)),
        ..SurviveState::default()
    };
    let lines = decide_jury(&mut s);
    assert_eq!(s.winner, None);
    assert_eq!(
        lines,
        vec![Line::to(
            Reader::Master,
            "SURVIVE: the jury is tied between England and France; send JURY <power> to choose the winner."
        )]
    );
    assert_eq!(
        s.jury.as_ref().and_then(|j| j.tied.clone()),
        Some(vec![England, France])
    );
    // The master's tie-break, then the jury phase's deadline again.
    if let Some(j) = s.jury.as_mut() {
        j.master = Some(France);
    }
    decide_jury(&mut s);
    assert_eq!(s.winner, Some(Win::Jury(France)));
    // Five jurors: the master has no vote.
    let odd = Jury {
        jurors: vec![Austria, Germany, Italy, Russia, Turkey],
        votes: [(Austria, England), (Germany, England), (Italy, France)]
            .into_iter()
            .collect(),
        ..jury(Some(France))
    };
    let mut s = SurviveState {
        jury: Some(odd),
        ..SurviveState::default()
    };
    decide_jury(&mut s);
    assert_eq!(s.winner, Some(Win::Jury(England)));
}

fn view<'a>(position: &'a Position) -> GameView<'a> {
    GameView::bare(crate::map::Map::standard().unwrap(), position)
}

/// SRV-1.2 and SRV-8.1: in a vote Winter the judge waits for a ballot from every playing
/// power owning a centre, never for an outcast.
#[test]
fn srv_1_2_and_8_1_whom_the_judge_waits_for() {
    let map = crate::map::Map::standard().unwrap();
    let mut p = Position::standard_start(map);
    p.phase = Phase::new(1902, Season::Winter, PhaseKind::Adjustment);
    let mut s = SurviveState::default();
    s.cast_out(&[Italy], 1902, Cause::Vote);
    s.ballots
        .insert(France, [(Germany, 3)].into_iter().collect());
    let status = |v: &GameView<'_>, power: Power, standard: Option<OrderStatus>| {
        let mut r = Readiness {
            statuses: [None; 7],
            public: None,
            early: Early::WhenAllIn,
        };
        r.set(power, standard);
        Survive.readiness(v, &s, r).status(power)
    };
    let v = view(&p);
    assert_eq!(status(&v, Italy, Some(OrderStatus::None)), None);
    assert_eq!(
        status(&v, France, None),
        None,
        "ballot in, nothing to adjust"
    );
    assert_eq!(
        status(&v, Germany, None),
        Some(OrderStatus::None),
        "no ballot yet"
    );
    assert_eq!(
        status(&v, Germany, Some(OrderStatus::Received)),
        Some(OrderStatus::Incomplete),
        "adjustments in, ballot missing"
    );
    // An odd year: no ballots owed.
    p.phase = Phase::new(1903, Season::Winter, PhaseKind::Adjustment);
    let v = view(&p);
    assert_eq!(status(&v, Germany, None), None);
}

/// SRV-5b.2: an even jury waits for the master's vote before it processes early; an odd
/// one does not.
#[test]
fn srv_5b_2_an_even_jury_waits_for_the_master() {
    let map = crate::map::Map::standard().unwrap();
    let mut p = Position::empty(map, Phase::own(1904, &super::JURY));
    p.phase = Phase::own(1904, &super::JURY);
    let jury = |jurors: Vec<Power>, master| Jury {
        year: 1904,
        candidates: vec![England, France],
        jurors,
        votes: Default::default(),
        master,
        tied: None,
    };
    let waits = |j: Jury| {
        let s = SurviveState {
            jury: Some(j),
            ..SurviveState::default()
        };
        let standard = Readiness {
            statuses: [None; 7],
            public: None,
            early: Early::WhenAllIn,
        };
        Survive.readiness(&view(&p), &s, standard).early == Early::WaitsForMaster
    };
    assert!(waits(jury(vec![Austria, Germany], None)));
    assert!(!waits(jury(vec![Austria, Germany], Some(England))));
    assert!(!waits(jury(vec![Austria, Germany, Italy], None)));
}

/// H20: Survive draws nothing of its own on the picture, which goes to everyone: no
/// ballot (recorded, counted or standing in the phase's orders) and no jury vote can
/// appear. Nor does the standard game.
#[test]
fn srv_4_the_picture_shows_no_ballot() {
    use crate::command::RuleCommand;
    use crate::variant::{Ballot as Vote, SurviveCommand};
    use crate::variant::{Sender, Slot, VariantOrder};
    let mut s = SurviveState::default();
    ballots(
        &mut s,
        &[(France, &[(Germany, 3)]), (England, &[(Italy, 3)])],
    );
    s.counted = s.ballots.clone();
    s.jury = Some(Jury {
        year: 1910,
        candidates: vec![England, France],
        jurors: vec![Austria],
        votes: [(Austria, England)].into_iter().collect(),
        master: None,
        tied: None,
    });
    let position = Position::standard_start(crate::map::Map::standard().unwrap());
    let orders = [VariantOrder {
        from: Sender::Power(Turkey),
        command: RuleCommand::new(SurviveCommand::Vote(Vote::All(Russia))),
        slot: Slot::Named("ballot".into()),
    }];
    let game = GameView {
        variant_orders: &orders,
        ..view(&position)
    };
    assert!(Survive.picture_marks(&game, &s).is_empty());
    assert!(
        crate::variant::Standard
            .picture_marks(&game, &())
            .is_empty()
    );
}
