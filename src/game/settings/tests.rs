//! The master's settings: each change, and the ones refused (out of range, too late, or
//! against another setting).

use crate::command::{ObserverLevel, PressLevel, ScheduleChange, ScheduleClass};
use crate::game::tests::{forming, running, seat, standard};
use crate::game::{Gate, Invitation, MAX_INVITATIONS, MAX_TAKEOVER_HOURS, Refused};
use crate::map::Power;

#[test]
fn plain_settings_change_and_count() {
    let mut g = running(&Power::ALL);
    g.set_press(PressLevel::Grey);
    g.set_partial(false);
    g.set_watch(ObserverLevel::White);
    g.set_observer_press(ObserverLevel::None);
    g.set_comment("");
    g.set_listed(false);
    g.set_gate(Gate::Dedication(Some(3)));
    let s = g.settings();
    assert_eq!(s.press.level, PressLevel::Grey);
    assert!(!s.press.partial && !s.listed);
    assert_eq!(s.press.watch, ObserverLevel::White);
    assert_eq!(s.press.observer_press, ObserverLevel::None);
    assert_eq!(s.comment, None, "an empty comment is none");
    assert!(!s.gates.is_open());
    assert!(g.changed());
}

#[test]
fn numbers_out_of_range_are_refused() {
    let mut g = running(&Power::ALL);
    assert_eq!(g.set_centres_to_win(0), Err(Refused::BadCentreCount));
    assert_eq!(g.set_centres_to_win(35), Err(Refused::BadCentreCount));
    assert_eq!(g.set_centres_to_win(34), Ok(()));
    assert_eq!(
        g.set_takeover_hours(MAX_TAKEOVER_HOURS + 1),
        Err(Refused::BadTakeoverHours(MAX_TAKEOVER_HOURS))
    );
    assert_eq!(g.set_max_absence(32), Err(Refused::BadMaxAbsence));
    assert_eq!(g.set_max_absence(31), Ok(()));
    assert_eq!(g.settings().deadlines.max_absence_days, 31);
}

#[test]
fn the_rules_players_invitations_and_anonymity_are_set_before_the_start() {
    let mut g = running(&Power::ALL);
    assert_eq!(
        g.set_variant(standard()),
        Err(Refused::VariantFixed("g".into()))
    );
    assert_eq!(g.set_players(4), Err(Refused::PlayersFixed("g".into())));
    assert_eq!(
        g.new_invitees(&["a@x.test".into()]),
        Err(Refused::InvitationsStarted("g".into()))
    );
    assert_eq!(
        g.set_anonymous(true),
        Err(Refused::AnonymousStarted("g".into()))
    );
    let mut g = forming();
    assert_eq!(g.set_variant(standard()), Ok(()));
    assert_eq!(g.set_players(1), Err(Refused::PlayersOutOfRange(7)));
    g.join(seat("a@x.test"), None, None).expect("a");
    g.join(seat("b@x.test"), None, None).expect("b");
    g.join(seat("c@x.test"), None, None).expect("c");
    assert_eq!(
        g.set_players(2),
        Err(Refused::PlayersJoined {
            joined: 3,
            game: "g".into()
        })
    );
    assert_eq!(g.set_players(3), Ok(()));
    assert!(g.is_duplex());
}

#[test]
fn invitations_are_bounded_and_taken_back_only_when_made() {
    let mut g = forming();
    let ann = vec!["ann@x.test".to_string()];
    let fresh = g.new_invitees(&ann).expect("fresh");
    assert_eq!(fresh, vec![&ann[0]]);
    g.add_invitations(vec![Invitation {
        address: ann[0].clone(),
        code: "c0de".into(),
    }]);
    assert!(
        g.new_invitees(&ann).expect("again").is_empty(),
        "invited once"
    );
    assert!(g.is_private());
    let many: Vec<String> = (0..MAX_INVITATIONS)
        .map(|i| format!("{i}@x.test"))
        .collect();
    assert_eq!(
        g.new_invitees(&many),
        Err(Refused::TooManyInvitations(MAX_INVITATIONS))
    );
    assert_eq!(
        g.uninvite(&["bob@x.test".into()]),
        Err(Refused::NotInvited("bob@x.test".into()))
    );
    assert_eq!(g.uninvite(&["ANN@x.test".into()]), Ok(()));
    // Private by its setting, not by the invitations still out (issue 37), until the
    // master opens it.
    assert!(g.is_private());
    g.set_join_password(None);
    assert!(!g.is_private());
}

#[test]
fn an_anonymous_game_never_shows_addresses_and_reveals_only_before_the_end() {
    let mut g = forming();
    g.set_addresses_shown(true).expect("shown");
    g.set_anonymous(true).expect("anonymous");
    assert!(!g.settings().addresses_shown, "anonymity hides them");
    assert_eq!(g.set_addresses_shown(true), Err(Refused::Anonymous));
    let mut g = running(&Power::ALL);
    g.finish(crate::game::Ending::Terminated);
    assert_eq!(g.set_reveal(false), Err(Refused::NotActive("g".into())));
}

#[test]
fn a_schedule_needs_an_hour_and_a_day() {
    let mut g = running(&Power::ALL);
    let short = ScheduleChange {
        next: Some(59),
        ..ScheduleChange::default()
    };
    assert_eq!(
        g.set_schedule(ScheduleClass::Movement, &short),
        Err(Refused::NextTooShort)
    );
    let never = ScheduleChange {
        days: Some("-------".into()),
        ..ScheduleChange::default()
    };
    assert_eq!(
        g.set_schedule(ScheduleClass::Movement, &never),
        Err(Refused::BadDays)
    );
    let two_days = ScheduleChange {
        next: Some(48 * 60),
        ..ScheduleChange::default()
    };
    g.set_schedule(ScheduleClass::Retreat, &two_days)
        .expect("retreats");
    assert_eq!(g.class_rule(ScheduleClass::Retreat).next, 48 * 60);
    assert_ne!(g.class_rule(ScheduleClass::Movement).next, 48 * 60);
}
