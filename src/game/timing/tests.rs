//! Deadlines moved by the master (the late notice and the reminder follow them), the
//! grace and the start, the absences, the tick's notes, and what a tick must do.

use chrono::Duration;

use crate::game::tests::{date, forming, map, now, running, standard};
use crate::game::{DueEvent, Refused};
use crate::map::Power;
use crate::variant::Sender;

#[test]
fn a_deadline_must_be_ahead_and_brings_its_notices_back() {
    let mut g = running(&Power::ALL);
    assert_eq!(
        g.set_deadline(date(2, 1, 12), now()),
        Err(Refused::PastDate)
    );
    let bad = crate::command::Date {
        year: Some(2027),
        month: 2,
        day: 30,
        time: None,
    };
    assert_eq!(g.set_deadline(bad, now()), Err(Refused::BadDate));
    g.note_reminded();
    g.note_late(map(), standard());
    let d = g.set_deadline(date(3, 10, 12), now()).expect("later");
    assert_eq!(g.deadline(), Some(d));
    assert!(!g.reminded() && !g.late_notified(), "due again");
    assert_eq!(g.scheduled(), None, "the master's, not the schedule's");
}

#[test]
fn an_earlier_deadline_keeps_the_end_of_grace() {
    let mut g = running(&Power::ALL);
    let grace = g.grace_end().expect("grace");
    g.set_deadline(date(3, 2, 12), now()).expect("earlier");
    assert_eq!(g.grace_end(), Some(grace));
    g.set_deadline(date(3, 20, 12), now()).expect("later");
    assert!(g.grace_end() > Some(grace), "the schedule's grace after it");
}

#[test]
fn grace_ends_after_the_deadline() {
    let mut g = running(&Power::ALL);
    assert_eq!(g.set_grace(date(3, 2, 12), now()), Err(Refused::BadGrace));
    let end = g.set_grace(date(3, 9, 12), now()).expect("grace");
    assert_eq!(g.grace_until(), Some(end));
    let mut f = forming();
    assert_eq!(
        f.set_grace(date(3, 9, 12), now()),
        Err(Refused::BadGrace),
        "no deadline, no grace"
    );
}

#[test]
fn a_start_after_the_deadline_moves_it() {
    let mut g = running(&Power::ALL);
    assert_eq!(g.set_start(date(2, 1, 12), now()), Err(Refused::PastDate));
    let start = g.set_start(date(3, 10, 12), now()).expect("start");
    assert_eq!(g.not_before(), Some(start));
    assert_eq!(g.deadline(), Some(start));
    let mut f = forming();
    f.set_start(date(3, 10, 12), now()).expect("start");
    assert_eq!(f.deadline(), None, "a forming game has no deadline to move");
}

#[test]
fn absences_are_checked_kept_and_taken_back() {
    let mut g = running(&Power::ALL);
    let eng = Sender::Power(Power::England);
    assert_eq!(
        g.set_absence(eng, date(3, 5, 0), Some(date(3, 4, 0)), false, now()),
        Err(Refused::AbsenceBackwards)
    );
    assert_eq!(
        g.set_absence(eng, date(3, 5, 0), Some(date(4, 30, 0)), false, now()),
        Err(Refused::AbsenceOverMax(14))
    );
    assert!(
        g.set_absence(eng, date(3, 5, 0), Some(date(4, 30, 0)), true, now())
            .is_ok(),
        "the master is not bound by the maximum"
    );
    let set = g
        .set_absence(eng, date(3, 3, 0), None, false, now())
        .expect("a day");
    assert_eq!(set.absence.to - set.absence.from, Duration::days(1));
    assert_eq!(
        set.stands, None,
        "the deadline, on the 4th, is not inside it"
    );
    g.set_absence(eng, date(3, 20, 0), None, false, now())
        .expect("third");
    assert_eq!(
        g.set_absence(eng, date(3, 25, 0), None, false, now()),
        Err(Refused::TooManyAbsences(3))
    );
    let on = date(5, 10, 12);
    assert_eq!(
        g.cancel_absences(eng, Some(on), now()),
        Err(Refused::NoAbsenceOn(on))
    );
    assert_eq!(g.cancel_absences(eng, None, now()).map(|c| c.len()), Ok(3));
    assert_eq!(g.cancel_absences(eng, None, now()), Err(Refused::NoAbsence));
    g.finish(crate::game::Ending::Terminated);
    assert_eq!(
        g.set_absence(eng, date(3, 5, 0), None, false, now()),
        Err(Refused::NotActive("g".into()))
    );
}

#[test]
fn a_tick_sees_nothing_without_a_running_clock() {
    let mut g = running(&Power::ALL);
    let at = g.deadline().expect("deadline") + Duration::minutes(1);
    assert_eq!(g.due(map(), standard(), at, Some(at)), DueEvent::Late);
    g.pause().expect("pause");
    assert_eq!(g.due(map(), standard(), at, Some(at)), DueEvent::Nothing);
    assert_eq!(
        forming().due(map(), standard(), at, None),
        DueEvent::Nothing
    );
}

#[test]
fn a_phase_due_before_its_start_is_held() {
    let mut g = running(&Power::ALL);
    g.set_nmr(true);
    let deadline = g.deadline().expect("deadline");
    let grace = g.grace_end().expect("grace");
    g.not_before = Some(grace + Duration::hours(1));
    let at = grace + Duration::minutes(1);
    assert_eq!(g.due(map(), standard(), at, Some(at)), DueEvent::Held);
    assert!(deadline < at);
}

#[test]
fn the_late_notes_keep_the_late_powers_and_a_warp_starts_the_clock_again() {
    let mut g = running(&[Power::England, Power::France]);
    let late = g.note_late(map(), standard());
    assert_eq!(late, vec![Power::England, Power::France]);
    assert_eq!(g.late_at_deadline(), &late[..]);
    let later = now() + Duration::days(10);
    let d = g.time_warp(later);
    assert!(d > later && !g.late_notified() && !g.reminded());
    g.stop_clock();
    assert_eq!(g.deadline(), None);
}
