//! A game's life, each transition from the states it may start from and refused from the
//! others: start, pause and resume, processing, the end, rollback, unstart.

use chrono::Duration;

use crate::game::tests::{address, date, forming, map, now, running, seat, standard};
use crate::game::{Ending, Refused, SeatRefusal, Status};
use crate::map::Power;
use crate::rules::{Phase, PhaseKind, Season};

#[test]
fn force_begin_needs_a_forming_game_someone_joined() {
    let mut g = forming();
    assert_eq!(
        g.may_force_begin(),
        Err(SeatRefusal::CannotBegin {
            game: "g".into(),
            joined: 0
        }
        .into())
    );
    g.join(seat("a@x.test"), None, None).expect("join");
    assert_eq!(g.may_force_begin(), Ok(()));
    let d = g.start(map(), standard(), now());
    assert!(g.is_active());
    assert_eq!(g.deadline(), Some(d));
    assert_eq!(g.playing_powers().len(), 1, "one joiner, six dummies");
    assert!(g.joiners().is_empty());
    assert!(matches!(
        g.may_force_begin(),
        Err(Refused::Seat(SeatRefusal::CannotBegin { joined: 0, .. }))
    ));
}

#[test]
fn pause_and_resume_go_from_running_to_paused_and_back() {
    let mut g = running(&Power::ALL);
    assert_eq!(g.resume(now()), Err(Refused::NotPaused("g".into())));
    g.pause().expect("pause");
    assert_eq!(*g.status(), Status::Paused);
    assert_eq!(g.pause(), Err(Refused::NotActive("g".into())));
    let d = g.resume(now()).expect("resume");
    assert!(g.is_active());
    assert!(d > now(), "a fresh deadline on the schedule");
}

#[test]
fn a_deadline_the_master_set_in_the_mail_stands_at_resume() {
    let mut g = running(&Power::ALL);
    g.pause().expect("pause");
    let set = g.set_deadline(date(3, 20, 12), now()).expect("deadline");
    assert_eq!(g.resume(now()), Ok(set));
}

#[test]
fn process_is_refused_unless_running_on_the_phase_named_all_in_and_started() {
    let map = map();
    let mut g = running(&Power::ALL);
    let spring = Some(Phase::FIRST);
    let fall = Some(Phase::new(1901, Season::Fall, PhaseKind::Movement));
    assert_eq!(
        g.may_process(map, standard(), fall, now()),
        Err(Refused::WrongPhase {
            current: Phase::FIRST,
            given: Phase::new(1901, Season::Fall, PhaseKind::Movement)
        })
    );
    match g.may_process(map, standard(), spring, now()) {
        Err(Refused::NotReady {
            missing,
            waiting,
            master,
        }) => {
            assert_eq!(missing.len(), 7);
            assert!(waiting.is_empty() && !master);
        }
        other => panic!("orders are missing: {other:?}"),
    }
    // Every power orders its units to hold.
    for p in Power::ALL {
        for u in g
            .position()
            .units
            .clone()
            .iter()
            .filter(|u| u.owner == crate::rules::Owner::Power(p))
        {
            let order = crate::rules::Order::Hold {
                unit: crate::rules::UnitSpec::new(Some(u.kind), u.location),
            };
            g.give_order(map, standard(), p, order).expect("hold");
        }
    }
    assert_eq!(g.may_process(map, standard(), spring, now()), Ok(()));
    g.not_before = Some(now() + Duration::hours(1));
    assert_eq!(
        g.may_process(map, standard(), None, now()),
        Err(Refused::Held {
            until: now() + Duration::hours(1),
            zone: chrono_tz::UTC
        })
    );
    g.pause().expect("pause");
    assert_eq!(
        g.may_process(map, standard(), None, now()),
        Err(Refused::NotActive("g".into()))
    );
    assert_eq!(g.may_process_now(), Err(Refused::NotActive("g".into())));
}

#[test]
fn advancing_opens_the_next_phase_counts_the_turn_and_hands_out_what_was_held() {
    let mut g = running(&Power::ALL);
    g.hold_postal(vec![crate::variant::Reader::Master], "s".into(), "b".into());
    let a = g.advance(map(), standard(), now());
    assert_eq!(a.before.phase, Phase::FIRST);
    assert_eq!(a.seq, 0);
    assert_eq!(g.turn(), 1);
    assert_eq!(a.postal.len(), 1);
    assert!(g.postal().is_empty());
    assert!(a.ending.is_none());
    assert_eq!(g.deadline(), a.next_deadline);
    assert_eq!(g.position().phase.season, Season::Fall);
    assert!(g.changed());
}

#[test]
fn the_end_stops_the_clock() {
    let mut g = running(&Power::ALL);
    g.finish(Ending::Terminated);
    assert!(g.is_finished());
    assert_eq!(g.deadline(), None);
}

#[test]
fn a_rollback_keeps_players_settings_and_addresses() {
    let mut g = running(&Power::ALL);
    let snapshot = g.clone();
    g.advance(map(), standard(), now());
    g.set_quiet(true);
    g.record_name(&address(Power::England), Some("Ann"));
    let turn = g.roll_back(snapshot, now());
    assert_eq!(turn, 0);
    assert_eq!(g.position().phase, Phase::FIRST);
    assert!(g.settings().quiet, "settings stay as they are now");
    assert_eq!(g.name_of("eng@x.test"), Some("Ann"));
    assert!(g.is_active());
    assert!(g.changed(), "counted, though the game was replaced");
}

#[test]
fn unstart_takes_an_unprocessed_game_back_to_forming() {
    // A game started short (FORCE BEGIN) used to come back with its five dummies as five
    // joiners without an address: seven joiners, so it started again at once.
    let mut g = running(&[Power::England, Power::France]);
    g.advance(map(), standard(), now());
    assert_eq!(g.may_unstart(), Err(Refused::AlreadyProcessed("g".into())));
    let mut g = running(&[Power::England, Power::France]);
    g.unstart(map(), None).expect("unstart");
    assert!(g.is_forming());
    assert_eq!(g.joiners().len(), 2, "dummies are nobody's");
    assert_eq!(g.joiners()[0].preferences, vec![Power::England]);
    assert!(
        !g.may_start(now()),
        "two joiners: the game waits for five more"
    );
    assert_eq!(g.deadline(), None);
    assert_eq!(g.unstart(map(), None), Err(Refused::NotActive("g".into())));
}

#[test]
fn unstart_leaves_out_a_player_who_resigned() {
    let mut g = running(&[Power::England, Power::France, Power::Italy]);
    g.resign(Power::Italy).expect("resign");
    g.unstart(map(), None).expect("unstart");
    let preferred: Vec<Power> = g.joiners().iter().map(|j| j.preferences[0]).collect();
    assert_eq!(preferred, vec![Power::England, Power::France]);
}
