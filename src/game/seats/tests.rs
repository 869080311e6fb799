//! The seat life cycle, one step at a time: playing → abandoned → taken over → playing,
//! dummies, missed phases counted for the player who missed them, and stored games of older
//! judges read.

use chrono::{DateTime, Duration, TimeZone, Utc};

use crate::game::{
    Abandonment, Game, Joiner, Player, Seat, SeatStatus, Status, Tenure, assign_powers,
};
use crate::map::{Map, Power};
use crate::rules::{Phase, PhaseKind, Season};

fn seat(address: &str) -> Seat {
    Seat {
        address: address.to_string(),
        password_hash: format!("hash-of-{address}"),
    }
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 3, 1, 12, 0, 0)
        .single()
        .expect("time")
}

/// A running game with `players` of the seven powers played (the rest dummies), at S1901M,
/// its deadline `hours` from now.
fn game(players: &[Power], hours: i64) -> Game {
    let map = Map::standard().expect("map");
    let variant = crate::variant::Registry::default().standard();
    let mut g = Game::new("seats", variant, seat("gm@x.test"), 1, map);
    g.status = Status::Active;
    g.seat_players(
        players
            .iter()
            .map(|p| (*p, seat(&format!("{}@x.test", p.code().to_lowercase()))))
            .collect(),
    );
    g.deadline = Some(now() + Duration::hours(hours));
    g
}

#[test]
fn a_game_begun_short_has_dummies_and_a_tenure_for_each_player() {
    let g = game(&[Power::England, Power::France], 72);
    assert_eq!(g.players.len(), 7);
    assert_eq!(g.playing_powers(), vec![Power::England, Power::France]);
    assert_eq!(
        g.player(Power::Italy).map(|p| &p.status),
        Some(&SeatStatus::Dummy)
    );
    assert_eq!(g.open_powers().len(), 5);
    assert_eq!(
        g.tenures,
        vec![
            Tenure {
                power: Power::England,
                address: "eng@x.test".into(),
                from: Phase::FIRST,
                to: None,
                ended: None,
                missed: 0,
                on_time: 0,
                late: 0,
                counts_orders: true
            },
            Tenure {
                power: Power::France,
                address: "fra@x.test".into(),
                from: Phase::FIRST,
                to: None,
                ended: None,
                missed: 0,
                on_time: 0,
                late: 0,
                counts_orders: true
            },
        ]
    );
}

#[test]
fn five_joiners_get_five_powers() {
    let joiners: Vec<Joiner> = (0..5)
        .map(|i| Joiner {
            seat: seat(&format!("p{i}@x.test")),
            preferences: Vec::new(),
        })
        .collect();
    let assigned = assign_powers(&joiners, 7);
    assert_eq!(assigned.len(), 5);
    let mut powers: Vec<Power> = assigned.iter().map(|(p, _)| *p).collect();
    powers.dedup();
    assert_eq!(powers.len(), 5);
}

#[test]
fn abandon_ends_the_tenure_and_clears_the_seat() {
    let mut g = game(&Power::ALL, 72);
    if let Some(pl) = g.player_mut(Power::Italy) {
        pl.wait = true;
        pl.draw = Some(Vec::new());
        pl.concede = Some(Power::France);
    }
    assert!(g.abandon(Power::Italy, Abandonment::Resigned));
    assert!(!g.abandon(Power::Italy, Abandonment::Resigned), "once");
    let pl = g.player(Power::Italy).expect("Italy");
    assert_eq!(pl.status, SeatStatus::Abandoned(Abandonment::Resigned));
    assert!(!pl.wait && pl.draw.is_none() && pl.concede.is_none());
    assert_eq!(pl.last_address(), Some("ita@x.test"));
    assert!(!g.is_played(Power::Italy));
    assert_eq!(g.open_powers(), vec![Power::Italy]);
    let t = g
        .tenures
        .iter()
        .find(|t| t.power == Power::Italy)
        .expect("tenure");
    assert_eq!(
        (t.to, t.ended),
        (Some(Phase::FIRST), Some(Abandonment::Resigned))
    );
    assert_eq!(g.view_parts().resigned, vec![Power::Italy]);
}

#[test]
fn a_takeover_gives_a_clean_seat_a_new_tenure_and_time() {
    let mut g = game(&Power::ALL, 2);
    g.abandon(Power::Italy, Abandonment::Ejected);
    if let Some(pl) = g.player_mut(Power::Italy) {
        pl.bouncing = Some(crate::game::Bounce {
            reason: "550".into(),
            since: now(),
        });
    }
    assert_eq!(g.take_over(Power::France, seat("new@x.test"), now()), None);
    let done = g
        .take_over(Power::Italy, seat("new@x.test"), now())
        .expect("open");
    assert_eq!(done.previous.as_deref(), Some("ita@x.test"));
    assert_eq!(done.deadline_moved, Some(now() + Duration::hours(24)));
    assert_eq!(g.deadline, Some(now() + Duration::hours(24)));
    let pl = g.player(Power::Italy).expect("Italy");
    assert!(pl.is_playing());
    assert_eq!(pl.seat.address, "new@x.test");
    assert!(pl.bouncing.is_none());
    let italy: Vec<&Tenure> = g
        .tenures
        .iter()
        .filter(|t| t.power == Power::Italy)
        .collect();
    assert_eq!(italy.len(), 2);
    assert_eq!(italy[1].address, "new@x.test");
    assert!(italy[1].is_open());
    assert!(g.was_ejected(Power::Italy, "ITA@x.test"));
    assert!(!g.was_ejected(Power::Italy, "new@x.test"));
    assert_eq!(g.power_played_by("New@X.test"), Some(Power::Italy));
}

#[test]
fn a_far_deadline_stays_and_a_stopped_clock_starts() {
    let mut g = game(&Power::ALL, 72);
    g.abandon(Power::Italy, Abandonment::Resigned);
    let done = g
        .take_over(Power::Italy, seat("new@x.test"), now())
        .expect("open");
    assert_eq!(done.deadline_moved, None);
    assert_eq!(g.deadline, Some(now() + Duration::hours(72)));
    // NONMR, waiting for a replacement: no deadline until one comes.
    g.settings.takeover_hours = 48;
    g.abandon(Power::Turkey, Abandonment::Late);
    g.deadline = None;
    let done = g
        .take_over(Power::Turkey, seat("t2@x.test"), now())
        .expect("open");
    assert_eq!(done.deadline_moved, Some(now() + Duration::hours(48)));
}

#[test]
fn a_dummy_is_taken_over_with_no_previous_player() {
    let mut g = game(&[Power::England], 72);
    let done = g
        .take_over(Power::Russia, seat("r@x.test"), now())
        .expect("a dummy is open");
    assert_eq!(done.previous, None);
    assert_eq!(g.tenures.last().map(|t| t.from), Some(Phase::FIRST));
}

#[test]
fn missed_phases_count_for_the_player_who_missed_them() {
    let mut g = game(&Power::ALL, 72);
    g.settings.abandon_after = 2;
    assert!(
        g.count_missed(&[Power::Austria], &[Power::England])
            .is_empty()
    );
    // England ordered: its count in a row starts again; Austria misses its second.
    assert_eq!(
        g.count_missed(&[Power::Austria, Power::England], &[]),
        vec![Power::Austria]
    );
    g.position.phase = Phase::new(1901, Season::Fall, PhaseKind::Movement);
    let last = Phase::FIRST;
    assert!(g.abandon_at(Power::Austria, Abandonment::MissedPhases(2), last));
    g.take_over(Power::Austria, seat("a2@x.test"), now());
    // The newcomer starts with none missed; the phases before count for the old player.
    g.count_missed(&[Power::Austria], &[]);
    let austria: Vec<(u32, Option<Phase>)> = g
        .tenures
        .iter()
        .filter(|t| t.power == Power::Austria)
        .map(|t| (t.missed, t.to))
        .collect();
    assert_eq!(austria, vec![(2, Some(last)), (1, None)]);
    // A power nobody plays misses nothing.
    g.abandon(Power::Turkey, Abandonment::Resigned);
    g.count_missed(&[Power::Turkey], &[]);
    assert_eq!(
        g.tenures
            .iter()
            .filter(|t| t.power == Power::Turkey)
            .map(|t| t.missed)
            .sum::<u32>(),
        0
    );
    // No limit: nobody is abandoned however much they miss.
    g.settings.abandon_after = 0;
    for _ in 0..5 {
        assert!(g.count_missed(&[Power::Russia], &[]).is_empty());
    }
}

#[test]
fn bouncing_is_marked_once_and_cleared() {
    let mut g = game(&Power::ALL, 72);
    assert_eq!(g.seats_at("FRA@x.test"), vec![Power::France]);
    assert!(g.mark_bouncing(Power::France, "550 no such user", now()));
    assert!(!g.mark_bouncing(Power::France, "550 again", now()), "once");
    assert!(g.clear_bouncing(Power::France));
    assert!(!g.clear_bouncing(Power::France));
}

#[test]
fn a_bounce_keeps_a_line_of_the_servers_words() {
    let mut g = game(&Power::ALL, 72);
    let huge = format!("550 {}", "é".repeat(100_000));
    assert!(g.mark_bouncing(Power::France, &huge, now()));
    let kept = g
        .player(Power::France)
        .and_then(|p| p.bouncing.as_ref())
        .map(|b| b.reason.clone())
        .unwrap_or_default();
    assert_eq!(kept.chars().count(), 404);
    assert!(
        kept.starts_with("550 éé") && kept.ends_with(" ..."),
        "{kept}"
    );
}

#[test]
fn quiet_games_keep_seat_changes_from_everyone() {
    let mut g = game(&Power::ALL, 72);
    assert!(g.seat_changes_public());
    g.settings.quiet = true;
    assert!(!g.seat_changes_public());
}

#[test]
fn nmr_games_wait_only_for_played_seats() {
    let mut g = game(&[Power::England], 72);
    assert!(g.awaits(Power::England));
    assert!(!g.awaits(Power::France), "a dummy stalls nothing");
    g.settings.nmr = false;
    assert!(g.awaits(Power::France), "NONMR waits for a replacement");
}

#[test]
fn older_judges_stored_players_read() {
    let old = r#"{"power":"France","seat":{"address":"f@x","password_hash":"h"},"wait":false,"draw":null,"abandoned":true,"resigned":true,"concede":null}"#;
    let p: Player = serde_json::from_str(old).expect("reads");
    assert_eq!(p.status, SeatStatus::Abandoned(Abandonment::Resigned));
    let late = old.replace(r#""resigned":true"#, r#""resigned":false"#);
    let p: Player = serde_json::from_str(&late).expect("reads");
    assert_eq!(p.status, SeatStatus::Abandoned(Abandonment::Late));
    let playing = late.replace(r#""abandoned":true"#, r#""abandoned":false"#);
    let p: Player = serde_json::from_str(&playing).expect("reads");
    assert!(p.is_playing());
    // And what this judge writes reads back the same.
    let mut q = Player::new(Power::Italy, seat("i@x.test"));
    q.status = SeatStatus::Abandoned(Abandonment::MissedPhases(3));
    q.missed_in_row = 1;
    let back: Player =
        serde_json::from_str(&serde_json::to_string(&q).expect("writes")).expect("reads");
    assert_eq!(back, q);
}

/// Joining, a takeover's preconditions and its claim, leaving and being put out, a seat's
/// own settings and the co-masters: each transition and its refusals.
mod transitions {
    use crate::command::EjectTarget;
    use crate::game::tests::{address, forming, now, running, seat};
    use crate::game::{Ejected, Invitation, MAX_COMASTERS, Refused, SeatRef, SeatRefusal};
    use crate::map::Power;

    #[test]
    fn joining_needs_a_forming_game_a_free_place_and_a_new_address() {
        let mut g = forming();
        g.set_players(2).expect("two players");
        g.join(seat("a@x.test"), Some("Ann"), None).expect("a");
        assert_eq!(
            g.join(seat("A@x.test"), None, None),
            Err(Refused::AlreadyJoined {
                from: "A@x.test".into(),
                game: "g".into()
            })
        );
        assert_eq!(g.join(seat("b@x.test"), None, None), Ok(2));
        assert_eq!(g.may_join("c@x.test"), Err(Refused::GameFull("g".into())));
        assert_eq!(
            running(&Power::ALL).may_join("c@x.test"),
            Err(Refused::NotForming("g".into()))
        );
        assert_eq!(g.name_of("a@x.test"), Some("Ann"));
    }

    #[test]
    fn an_invitation_is_used_once() {
        let mut g = forming();
        let inv = Invitation {
            address: "a@x.test".into(),
            code: "c0de".into(),
        };
        g.add_invitations(vec![inv.clone()]);
        g.join(seat("a@x.test"), None, Some(&inv)).expect("join");
        assert_eq!(g.invitation("c0de"), None);
    }

    #[test]
    fn a_preference_is_a_joiners() {
        let mut g = forming();
        assert_eq!(
            g.set_preference("a@x.test", &[Power::Italy]),
            Err(Refused::NotJoined)
        );
        g.join(seat("a@x.test"), None, None).expect("join");
        g.set_preference("A@x.test", &[Power::Italy])
            .expect("preference");
        assert_eq!(g.joiners()[0].preferences, vec![Power::Italy]);
    }

    #[test]
    fn a_resignation_leaves_the_seat_open_without_touching_the_orders_listed() {
        let mut g = running(&[Power::England, Power::France]);
        assert_eq!(
            g.resign(Power::Italy),
            Err(SeatRefusal::NobodyPlays {
                power: Power::Italy,
                game: "g".into()
            }
            .into())
        );
        let left = g.resign(Power::England).expect("resign");
        assert_eq!(left, vec![(Power::England, address(Power::England))]);
        assert!(g.player(Power::England).is_some_and(|p| p.is_open()));
        assert!(g.changed() && !g.orders_changed());
    }

    #[test]
    fn eject_puts_out_a_player_or_an_observer() {
        let mut g = running(&[Power::England]);
        assert_eq!(
            g.eject(&EjectTarget::Power(Power::France)),
            Err(SeatRefusal::NothingToEject {
                power: Power::France,
                game: "g".into()
            }
            .into())
        );
        assert_eq!(
            g.eject(&EjectTarget::Address("o@x.test".into())),
            Err(SeatRefusal::UnknownAddress {
                address: "o@x.test".into(),
                game: "g".into()
            }
            .into())
        );
        g.add_observer("o@x.test");
        assert_eq!(
            g.eject(&EjectTarget::Address("o@x.test".into())),
            Ok(Ejected::Observer("o@x.test".into()))
        );
        assert_eq!(
            g.eject(&EjectTarget::Address(address(Power::England))),
            Ok(Ejected::Player {
                power: Power::England,
                previous: address(Power::England)
            })
        );
        assert!(g.was_ejected(Power::England, &address(Power::England)));
        assert!(matches!(
            g.may_take_over(Power::England, &address(Power::England)),
            Err(Refused::Seat(SeatRefusal::Ejected { .. }))
        ));
    }

    #[test]
    fn a_takeover_is_for_a_newcomer_to_a_running_game_with_no_claim_waiting() {
        let mut g = running(&[Power::England]);
        assert!(matches!(
            g.may_take_over(Power::France, &address(Power::England)),
            Err(Refused::Seat(SeatRefusal::AlreadyPlays { .. }))
        ));
        assert_eq!(g.may_take_over(Power::France, "new@x.test"), Ok(()));
        g.claim(Power::France, seat("new@x.test"), now());
        assert!(matches!(
            g.may_take_over(Power::France, "other@x.test"),
            Err(Refused::Seat(SeatRefusal::ClaimPending { .. }))
        ));
        let claim = g.take_claim(Power::France).expect("claim");
        assert_eq!(claim.seat.address, "new@x.test");
        assert!(matches!(
            g.take_claim(Power::France),
            Err(Refused::Seat(SeatRefusal::NoClaim { .. }))
        ));
        g.finish(crate::game::Ending::Terminated);
        assert!(matches!(
            g.may_take_over(Power::France, "new@x.test"),
            Err(Refused::Seat(SeatRefusal::NotRunning { .. }))
        ));
    }

    #[test]
    fn a_seat_setting_is_a_played_seats_or_a_masters() {
        let mut g = running(&[Power::England]);
        assert!(matches!(
            g.set_seat_password(SeatRef::Power(Power::France), "h"),
            Err(Refused::Seat(SeatRefusal::NobodyPlays { .. }))
        ));
        assert_eq!(
            g.set_seat_password(SeatRef::Master(1), "h"),
            Err(Refused::NoSeat),
            "no co-master"
        );
        g.set_seat_password(SeatRef::Master(0), "h")
            .expect("master");
        assert_eq!(g.master().password_hash, "h");
        assert_eq!(
            g.set_seat_address(SeatRef::Power(Power::England), "ENG@x.test"),
            Ok(false),
            "the same address, in other letters"
        );
        assert_eq!(
            g.set_seat_address(SeatRef::Power(Power::England), "new@x.test"),
            Ok(true)
        );
    }

    #[test]
    fn co_masters_are_new_to_the_game_and_few() {
        let mut g = running(&[Power::England]);
        assert_eq!(
            g.may_promote(&address(Power::England)),
            Err(Refused::AlreadyInGame(address(Power::England)))
        );
        for i in 0..MAX_COMASTERS {
            g.promote(seat(&format!("co{i}@x.test"))).expect("promote");
        }
        assert_eq!(
            g.promote(seat("one-more@x.test")),
            Err(Refused::TooManyMasters(MAX_COMASTERS))
        );
        assert_eq!(g.master_seats().count(), MAX_COMASTERS + 1);
    }
}
