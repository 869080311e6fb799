//! A game the way its master wants it, by mail through the judge core (issue 28): a
//! schedule in the game's time zone across a change of summer time and a weekend, an
//! absence that keeps deadlines out and `SET NOABSENCE` that brings them back, an
//! anonymous game under a leak scanner that knows every player's address and name, a
//! private game, and `LIST game` with every setting.

use chrono::{DateTime, Utc};
use dipjudge::game::{Game, Status};
use dipjudge::judge::PasswordCost;
use dipjudge::map::Power;
use dipjudge::rules::Owner;
use dipjudge::store::{Audience, MailKind, QueuedMail};

use crate::desk::{self, Desk, password, utc};

const GM: &str = "gm28@example.test";

/// A player's address in the game `game` (distinct per game, so that the leak scanner
/// cannot mistake one game's player for another's).
fn addr(game: &str, p: Power) -> String {
    format!("{}-{game}@example.test", p.name().to_lowercase())
}

/// The display name a player's mail carries in `From:`.
fn display_name(p: Power) -> String {
    format!("Zed {} Quill", p.name())
}

/// Seven players, a master, a judge, a clock.
struct Table {
    table: desk::Table,
}

impl Table {
    fn new(name: &str, now: DateTime<Utc>) -> Table {
        let game = name.to_string();
        let table = desk::Table::new(Desk::new(name, now), name, GM, move |p| addr(&game, p))
            .named("Gamma Master", display_name);
        Table { table }
    }

    /// CREATE (with `options`), the master's setup lines, then seven joiners who each get
    /// their preferred power.
    fn start(&mut self, options: &str, setup: &str) {
        let r = self.create(&format!(" {options}\n{setup}"));
        assert!(!r.contains("ERROR"), "{r}");
        self.seat_all();
    }

    /// Every power holds every unit (or waives its adjustments): the phase is complete.
    fn all_hold(&mut self) {
        let g = self.game();
        let powers = g.powers_to_order(self.map, &dipjudge::variant::Standard);
        for p in powers {
            let lines = desk::holds(self.map, &g, &[p]);
            let lines = if lines.is_empty() {
                "WAIVE".to_string()
            } else {
                lines
            };
            let r = self.as_power(p, &lines);
            assert!(!r.contains("ERROR"), "{p}: {r}");
        }
    }

    /// Everyone holds at `at`; the judge processes once the delay is over. Returns the
    /// new phase's deadline.
    fn play_phase_at(&mut self, at: DateTime<Utc>) -> DateTime<Utc> {
        self.now = at;
        let before = self.game().position().phase;
        self.all_hold();
        let due = self.game().next_event().expect("an event");
        self.tick(due.max(at));
        let g = self.game();
        assert_ne!(g.position().phase, before, "processed at {due}");
        g.deadline().expect("a deadline")
    }
}

desk::wraps!(Table, table: desk::Table);

/// SET ZONE and SET MOVE|RETREAT|ADJUST: 48 hours at 20:00 in Paris, Monday to Friday.
/// Summer time ends in Europe on Sunday 25 October 2026 (20:00 CEST is 18:00 UTC before,
/// 20:00 CET 19:00 UTC after).
#[test]
fn a_weekday_schedule_in_paris_across_summer_time_and_a_weekend() {
    // Tuesday 20 October 2026, 08:00 UTC (10:00 in Paris).
    let mut t = Table::new("paris", utc(2026, 10, 20, 8, 0));
    t.start(
        "",
        "SET ZONE Europe/Paris\n\
         SET MOVE CLOCK 20:00 NEXT 48 DAYS -MTWTF-\n\
         SET RETREAT CLOCK 20:00 NEXT 48 DAYS -MTWTF-\n\
         SET ADJUST CLOCK 20:00 NEXT 48 DAYS -MTWTF-",
    );
    let g = t.game();
    // Started Tuesday 10:00 CEST: 48 hours on is Thursday 10:00; the clock makes it
    // Thursday 22 October 20:00 CEST.
    let first = utc(2026, 10, 22, 18, 0);
    assert_eq!(g.deadline(), Some(first));
    // The start mail prints it in the game's zone.
    let start = t
        .mails()
        .into_iter()
        .find(|m| {
            m.subject.ends_with("Game Starting") && m.audience == Audience::power(Power::France)
        })
        .expect("start mail");
    assert!(
        start.body.contains("Thu Oct 22 2026 20:00 CEST"),
        "{}",
        start.body
    );

    // Spring 1901 is processed on Thursday 22 October at 10:00 UTC (12:00 CEST), ten
    // minutes after the last orders: 48 hours on is Saturday; the weekend is skipped, and
    // summer time ended on Sunday: Monday 26 October 20:00 CET is 19:00 UTC.
    let d = t.play_phase_at(utc(2026, 10, 22, 10, 0));
    assert_eq!(t.game().position().phase.to_string(), "F1901M");
    assert_eq!(d, utc(2026, 10, 26, 19, 0), "Fall 1901");

    // Fall 1901 on Monday 26 October at 07:00 UTC (08:00 CET): Wednesday 28 October
    // 20:00 CET (19:00 UTC). No centre changed hands, so Winter is skipped.
    let d = t.play_phase_at(utc(2026, 10, 26, 7, 0));
    assert_eq!(t.game().position().phase.to_string(), "S1902M");
    assert_eq!(d, utc(2026, 10, 28, 19, 0), "Spring 1902");

    // Spring 1902 on Wednesday 28 October at 18:30 UTC (19:30 CET, before its deadline):
    // 48 hours on is Friday 19:40 CET; Friday 30 October 20:00 CET.
    let d = t.play_phase_at(utc(2026, 10, 28, 18, 30));
    assert_eq!(d, utc(2026, 10, 30, 19, 0), "Fall 1902");

    // Fall 1902 on Friday 30 October at 18:55 UTC (19:55 CET), processed at its deadline,
    // 20:00 CET: 48 hours on is Sunday 20:00; Monday 2 November 20:00 CET.
    let d = t.play_phase_at(utc(2026, 10, 30, 18, 55));
    assert_eq!(t.game().position().phase.to_string(), "S1903M");
    assert_eq!(d, utc(2026, 11, 2, 19, 0), "Spring 1903");
    // The results print it in Paris time.
    let results = t
        .mails()
        .into_iter()
        .rev()
        .find(|m| m.subject.contains("F1902M") && m.audience == Audience::power(Power::France))
        .map(|m| m.body)
        .unwrap_or_default();
    assert!(results.contains("Mon Nov 02 2026 20:00 CET"), "{results}");
}

/// SET ABSENCE from day 3 to day 10 keeps every deadline computed after it out of those
/// days; SET NOABSENCE brings the schedule's deadline back.
#[test]
fn an_absence_keeps_deadlines_out_and_noabsence_brings_them_back() {
    // Day 1: Sunday 1 November 2026, 09:00 UTC; phases of 24 hours, no clock.
    let mut t = Table::new("away", utc(2026, 11, 1, 9, 0));
    t.start(
        "",
        "SET MOVE NEXT 24\nSET RETREAT NEXT 24\nSET ADJUST NEXT 24",
    );
    assert_eq!(t.game().deadline(), Some(utc(2026, 11, 2, 9, 0)));
    // France is away from day 3 (00:00) to day 10 (23:59), game time (UTC).
    let r = t.as_power(Power::France, "SET ABSENCE 2026-11-03 TO 2026-11-10");
    assert!(r.contains("OK SET ABSENCE"), "{r}");
    let away_from = utc(2026, 11, 3, 0, 0);
    let away_to = utc(2026, 11, 10, 23, 59);
    let outside = |d: DateTime<Utc>| d < away_from || d >= away_to;
    // The master sees it in LIST.
    let list = t.as_master("LIST away");
    assert!(list.contains("France away from"), "{list}");

    // Day 2, 08:00: Spring 1901 processed at 08:10; 24 hours on is inside the absence:
    // the deadline is its end.
    let d = t.play_phase_at(utc(2026, 11, 2, 8, 0));
    assert!(outside(d), "{d}");
    assert_eq!(d, away_to, "Fall 1901");
    // Day 4 and day 6: every deadline set while France is away is kept out of it.
    let d = t.play_phase_at(utc(2026, 11, 4, 12, 0));
    assert!(outside(d), "{d}");
    assert_eq!(d, away_to, "Spring 1902");
    let d = t.play_phase_at(utc(2026, 11, 6, 12, 0));
    assert!(outside(d), "{d}");
    assert_eq!(d, away_to, "Fall 1902");

    // France comes back early: SET NOABSENCE brings the deadline back to the schedule's
    // (Fall 1902 opened on day 6 at 12:10: day 7, 12:10), and everyone is told.
    let before = t.mails().len();
    let r = t.as_power(Power::France, "SET NOABSENCE");
    assert!(r.contains("OK SET NOABSENCE"), "{r}");
    assert!(
        r.contains("The deadline of F1902M is back on the schedule: Sat Nov 07 2026 12:10 UTC."),
        "{r}"
    );
    let g = t.game();
    assert!(g.absences().is_empty());
    assert_eq!(g.deadline(), Some(utc(2026, 11, 7, 12, 10)));
    let told: Vec<QueuedMail> = t
        .mails()
        .into_iter()
        .skip(before)
        .filter(|m| m.subject.ends_with("Deadline changed"))
        .collect();
    assert_eq!(told.len(), 8, "seven players and the master: {told:?}");
    // And the deadlines after it fall on the schedule.
    let d = t.play_phase_at(utc(2026, 11, 7, 12, 0));
    assert_eq!(
        d,
        utc(2026, 11, 8, 12, 10),
        "Spring 1903: back on the schedule"
    );
    // Cancelling again says there is nothing to cancel.
    let r = t.as_power(Power::France, "SET NOABSENCE");
    assert!(r.contains("ERROR"), "{r}");
}

/// Every string that names a player: the address and the display name.
fn identities(game: &str) -> Vec<(Power, String)> {
    Power::ALL
        .into_iter()
        .flat_map(|p| [(p, addr(game, p)), (p, display_name(p))])
        .collect()
}

/// An anonymous game: until it ends no mail to a player or an observer names another
/// player (address or display name); the final mail reveals them all.
#[test]
fn an_anonymous_game_names_nobody_until_it_ends() {
    let mut t = Table::new("gunboat", utc(2026, 11, 1, 9, 0));
    let observer = "watcher-gunboat@example.test";
    t.start("anonymous", "SET COMMENT no names here");
    assert!(t.game().settings().anonymous);
    let r = t.mail_named(observer, Some("Wanda Watcher"), "OBSERVE gunboat");
    assert!(r.contains("CONFIRMATION NEEDED"), "{r}");
    let code = t
        .mails()
        .into_iter()
        .rev()
        .find_map(|m| {
            m.subject
                .strip_prefix("DIP confirmation ")
                .map(str::to_string)
        })
        .expect("a confirmation");
    let r = t.mail(observer, &format!("CONFIRM {code}"));
    assert!(!r.contains("ERROR"), "{r}");
    assert_eq!(t.game().observers().len(), 1);
    // Players list the game, send broadcast and private press, and read the history.
    for p in Power::ALL {
        let r = t.as_power(
            p,
            &format!(
                "LIST gunboat\nLIST FULL\nSUMMARY gunboat\nPRESS TO ALL\nGreetings from {}\nENDPRESS\nPRESS TO {}\nA word\nENDPRESS\nHISTORY gunboat",
                p.name(),
                if p == Power::England { "F" } else { "E" }
            ),
        );
        assert!(!r.contains("ERROR"), "{p}: {r}");
    }
    let r = t.mail(
        observer,
        "LIST gunboat\nLIST\nLIST FULL\nSUMMARY gunboat\nHISTORY gunboat",
    );
    assert!(!r.contains("ERROR"), "{r}");
    // Two phases played (their results go to everyone and the observer).
    t.play_phase_at(utc(2026, 11, 2, 8, 0));
    t.play_phase_at(utc(2026, 11, 3, 8, 0));
    // Reading the game once it has a past: the summary and history.
    for p in [Power::Austria, Power::Turkey] {
        let r = t.as_power(p, "SUMMARY gunboat\nHISTORY gunboat\nLIST gunboat");
        assert!(!r.contains("ERROR"), "{r}");
    }
    let r = t.mail(observer, "SUMMARY gunboat\nHISTORY gunboat\nLIST gunboat");
    assert!(!r.contains("ERROR"), "{r}");
    let before_end = t.mails().len();

    // The scanner: every mail so far, to anyone but the master and the player themselves.
    let who = identities("gunboat");
    let scan = |mails: &[QueuedMail]| -> Vec<String> {
        let mut leaks = Vec::new();
        for m in mails {
            if m.recipient == GM {
                continue;
            }
            for (p, id) in &who {
                if m.recipient == addr("gunboat", *p) {
                    continue;
                }
                if m.body.contains(id.as_str()) || m.subject.contains(id.as_str()) {
                    leaks.push(format!(
                        "{id} ({p}) in {:?} to {} ({})",
                        m.subject, m.recipient, m.audience
                    ));
                }
            }
        }
        leaks
    };
    let mails = t.mails();
    assert!(mails.iter().any(|m| m.recipient == observer));
    let leaks = scan(&mails);
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
    // The master does see them (the start mail's master copy).
    assert!(
        mails
            .iter()
            .any(|m| m.recipient == GM && m.body.contains(&display_name(Power::France)))
    );

    // The master ends the game: the players are revealed to everyone.
    let r = t.as_master("DECLARE DRAW AEFGIRT");
    assert!(!r.contains("ERROR"), "{r}");
    assert!(matches!(t.game().status(), Status::Finished(_)));
    let after: Vec<QueuedMail> = t.mails().into_iter().skip(before_end).collect();
    let to_england: Vec<&QueuedMail> = after
        .iter()
        .filter(|m| m.recipient == addr("gunboat", Power::England) && m.kind == MailKind::Generated)
        .collect();
    assert!(!to_england.is_empty());
    for (p, id) in &who {
        assert!(
            to_england.iter().any(|m| m.body.contains(id.as_str())),
            "{id} ({p}) not revealed to England"
        );
        assert!(
            after
                .iter()
                .any(|m| m.recipient == observer && m.body.contains(id.as_str())),
            "{id} ({p}) not revealed to the observer"
        );
    }
}

/// SET NOREVEAL: the end names nobody either.
#[test]
fn an_anonymous_game_set_noreveal_names_nobody_even_at_the_end() {
    let mut t = Table::new("sealed", utc(2026, 11, 1, 9, 0));
    t.start("anonymous", "SET NOREVEAL");
    t.play_phase_at(utc(2026, 11, 2, 8, 0));
    let r = t.as_master("DECLARE WINNER France");
    assert!(!r.contains("ERROR"), "{r}");
    assert!(matches!(t.game().status(), Status::Finished(_)));
    let who = identities("sealed");
    for m in t.mails() {
        if m.recipient == GM {
            continue;
        }
        for (p, id) in &who {
            if m.recipient != addr("sealed", *p) {
                assert!(
                    !m.body.contains(id.as_str()),
                    "{id} in {:?} to {}",
                    m.subject,
                    m.recipient
                );
            }
        }
    }
}

/// A private game: unlisted for outsiders, and SIGNON needs the join password.
#[test]
fn a_private_game_is_unlisted_and_needs_its_join_password() {
    let mut t = Table::new("club", utc(2026, 11, 1, 9, 0));
    let r = t.mail(
        GM,
        "CREATE ?club gmpass-01\nSET NOLIST\nSET JOIN PASSWORD clubword\nSET COMMENT Friday club",
    );
    assert!(!r.contains("ERROR"), "{r}");
    let r = t.mail(GM, "CREATE ?open gmpass-01");
    assert!(!r.contains("ERROR"), "{r}");
    let outsider = "outsider-club@example.test";
    let r = t.mail(outsider, "LIST");
    assert!(r.contains("open"), "{r}");
    assert!(
        !r.contains("club"),
        "an outsider's LIST shows the private game: {r}"
    );
    // Without the join password, or with a wrong one: refused, with a sentence.
    let r = t.mail(outsider, "SIGNON ?club outsider-pw");
    assert!(r.contains("ERROR"), "{r}");
    assert!(r.to_lowercase().contains("join password"), "{r}");
    let r = t.mail(outsider, "SIGNON ?club outsider-pw wrongword");
    assert!(r.contains("ERROR"), "{r}");
    assert!(t.game().joiners().is_empty());
    // With it: joined; now the game is in this player's LIST.
    let r = t.mail(outsider, "SIGNON ?club outsider-pw clubword");
    assert!(!r.contains("ERROR"), "{r}");
    assert_eq!(t.game().joiners().len(), 1);
    // Its master, signed on, finds it in LIST (a bare From: proves nothing).
    let r = t.as_master("LIST");
    assert!(
        r.lines()
            .any(|l| l.contains("club") && l.contains("[unlisted, private] - Friday club")),
        "{r}"
    );
    // A listed game with a join password is marked private in everyone's LIST.
    let r = t.mail(GM, "SIGNON Mopen gmpass-01\nSET JOIN PASSWORD openword");
    assert!(!r.contains("ERROR"), "{r}");
    let r = t.mail(outsider, "LIST");
    assert!(
        r.lines()
            .any(|l| l.contains("open") && l.contains("[private]")),
        "{r}"
    );
    // The master's LIST game shows the privacy.
    let r = t.as_master("LIST club");
    assert!(r.contains("unlisted"), "{r}");
    assert!(r.contains("with the join password"), "{r}");
}

/// LIST game shows every setting a master sets, and the rule set's own; the start mail
/// names the rule set.
#[test]
fn list_shows_every_setting_and_the_start_mail_names_the_rules() {
    let mut t = Table::new("shown", utc(2026, 11, 1, 9, 0));
    let r = t.mail(
        GM,
        "CREATE ?shown gmpass-01 survive\n\
         SET ZONE Europe/London\n\
         SET MOVE CLOCK 20:00 NEXT 48 DAYS -MTWTF-\n\
         SET RETREAT NEXT 12\n\
         SET ADJUST GRACE 6\n\
         SET START 2026-11-20 18:00\n\
         SET NOLIST\n\
         SET INVITE friend-shown@example.test\n\
         SET ANONYMOUS\n\
         SET NOREVEAL\n\
         SET QUIET\n\
         SET MAXABSENCE 21\n\
         SET COMMENT club night\n\
         PROMOTE helper-shown@example.test\n\
         LIST shown",
    );
    assert!(!r.contains("ERROR"), "{r}");
    for want in [
        "Survive",
        "survive_draws",
        "Time zone: Europe/London",
        "Movement:    CLOCK 20:00 NEXT 48",
        "DAYS -MTWTF-",
        "Retreats:    CLOCK OFF NEXT 12",
        "GRACE 6",
        "Start: not before Fri Nov 20 2026 18:00 GMT",
        "unlisted",
        "by invitation (1 invited",
        "friend-shown@example.test",
        "anonymous game",
        "NOREVEAL",
        "QUIET",
        "at most 21 days",
        "Co-masters: helper-shown@example.test",
        "Comment: club night",
    ] {
        assert!(r.contains(want), "LIST lacks {want:?}:\n{r}");
    }
    // An IR game shows its own setting.
    let r = t.mail(GM, "CREATE ?irshown gmpass-01 ir\nLIST irshown");
    assert!(r.contains("peace_treaties"), "{r}");

    // The start mail names the rule set (a Standard game).
    let mut s = Table::new("named", utc(2026, 11, 1, 9, 0));
    s.start("", "");
    let starts: Vec<QueuedMail> = s
        .mails()
        .into_iter()
        .filter(|m| m.subject.ends_with("Game Starting"))
        .collect();
    assert_eq!(starts.len(), 8);
    for m in &starts {
        assert!(
            m.body.contains("played with the Standard rules"),
            "{}",
            m.body
        );
    }
    let france = starts
        .iter()
        .find(|m| m.recipient == addr("named", Power::France))
        .expect("France's copy");
    assert!(
        france
            .body
            .contains("You have been selected as France in game"),
        "{}",
        france.body
    );
    assert!(
        !france.body.contains(&addr("named", Power::England)),
        "{}",
        france.body
    );
}

/// A deadline set in the same mail as RESUME stands; PROCESS names the powers it waits
/// for.
#[test]
fn resume_keeps_the_masters_deadline_and_process_names_who_it_waits_for() {
    let mut t = Table::new("agree", utc(2026, 11, 1, 9, 0));
    t.start("", "");
    let r = t.as_master("PAUSE");
    assert!(!r.contains("ERROR"), "{r}");
    let r = t.as_master("SET DEADLINE 2026-11-20 18:00\nRESUME");
    assert!(!r.contains("ERROR"), "{r}");
    assert_eq!(t.game().deadline(), Some(utc(2026, 11, 20, 18, 0)));
    // RESUME before SET DEADLINE: the deadline is set all the same.
    t.as_master("PAUSE");
    let r = t.as_master("RESUME\nSET DEADLINE 2026-11-21 18:00");
    assert!(!r.contains("ERROR"), "{r}");
    assert_eq!(t.game().deadline(), Some(utc(2026, 11, 21, 18, 0)));

    // Everyone's orders are in; France waits; Turkey's orders are taken back.
    t.all_hold();
    let r = t.as_power(Power::France, "SET WAIT");
    assert!(!r.contains("ERROR"), "{r}");
    let r = t.as_power(Power::Turkey, "CLEAR");
    assert!(!r.contains("ERROR"), "{r}");
    let r = t.as_master("PROCESS");
    assert!(r.contains("ERROR"), "{r}");
    assert!(r.contains("orders are missing from Turkey"), "{r}");
    assert!(r.contains("France waits (SET WAIT)"), "{r}");
}

/// SET DRAW names the draw; SET NODRAW and SET NOCONCEDE withdraw; a vote lapses when the
/// powers still in the game change, and its voter is told.
#[test]
fn draw_votes_say_who_and_lapse_when_the_survivors_change() {
    use dipjudge::game::{Player, Seat};
    use dipjudge::judge::hash_password;
    use dipjudge::map::{Location, Map};
    use dipjudge::rules::{Phase, PhaseKind, Position, Season, Unit, UnitKind};

    let map = Map::standard().expect("map");
    // Winter 1907: Russia and Turkey own their centres; Italy has no centre left and one
    // army to remove.
    let mut position =
        Position::empty(map, Phase::new(1907, Season::Winter, PhaseKind::Adjustment));
    let mut units = Vec::new();
    for (power, centres) in [
        (Power::Russia, &["mos", "stp", "war", "sev"][..]),
        (Power::Turkey, &["ank", "con", "smy"][..]),
    ] {
        for c in centres {
            let id = map.find_province(c).expect("centre");
            position.owners[id.index()] = Some(power);
        }
    }
    let tyr = map.find_province("tyr").expect("tyr");
    units.push(Unit::new(
        Owner::Power(Power::Italy),
        UnitKind::Army,
        Location::province(tyr),
    ));
    for (power, at) in [(Power::Russia, "mos"), (Power::Turkey, "con")] {
        let id = map.find_province(at).expect("province");
        units.push(Unit::new(
            Owner::Power(power),
            UnitKind::Army,
            Location::province(id),
        ));
    }
    position.units = units;
    // Russia and Turkey have one unit for several centres: they may build, and waive.
    let mut t = Table::new("votes", utc(2026, 11, 20, 9, 0));
    let hash = hash_password(PasswordCost::TEST, "unused", 1);
    let seat = |address: String| Seat {
        address,
        password_hash: hash.clone(),
    };
    let mut g = Game::new(
        "votes",
        &dipjudge::variant::Standard,
        seat(GM.into()),
        7,
        map,
    );
    g.arrange(dipjudge::game::Arrangement {
        players: Power::ALL
            .into_iter()
            .map(|p| {
                let mut pl = Player::new(p, seat(addr("votes", p)));
                pl.seat.password_hash = hash_password(PasswordCost::TEST, &password(p), 2);
                pl
            })
            .collect(),
        position,
        variant_state: None,
        observers: Vec::new(),
        deadline: Some(utc(2026, 12, 1, 0, 0)),
    });
    t.judge.install_game(&g).expect("install");

    // A draw vote names the powers in the draw.
    let r = t.as_power(Power::Russia, "SET DRAW");
    assert!(r.contains("a draw among Italy, Russia and Turkey"), "{r}");
    // A draw that leaves out a survivor is refused, naming them.
    let r = t.as_power(Power::Turkey, "SET DRAW RT");
    assert!(r.contains("ERROR"), "{r}");
    assert!(r.contains("Italy, Russia and Turkey"), "{r}");
    // Withdrawn: SET NODRAW; a concession, SET NOCONCEDE.
    let r = t.as_power(Power::Turkey, "SET DRAW\nSET NODRAW");
    assert!(r.contains("your draw vote is withdrawn"), "{r}");
    let r = t.as_power(Power::Italy, "SET CONCEDE Russia\nSET NOCONCEDE");
    assert!(r.contains("OK SET NOCONCEDE"), "{r}");
    let g = t.game();
    assert!(g.player(Power::Turkey).expect("Turkey").draw.is_none());
    assert!(g.player(Power::Italy).expect("Italy").concede.is_none());
    assert!(g.player(Power::Russia).expect("Russia").draw.is_some());

    // Italy removes its army and is out: Russia's vote lapses, and Russia is told.
    let before = t.mails().len();
    t.as_power(Power::Italy, "REMOVE A Tyr");
    t.as_power(Power::Russia, "WAIVE\nWAIVE\nWAIVE");
    t.as_power(Power::Turkey, "WAIVE\nWAIVE");
    let due = t.game().next_event().expect("event");
    t.tick(due);
    let g = t.game();
    assert_eq!(g.position().phase.to_string(), "S1908M");
    assert_eq!(*g.status(), Status::Active);
    assert!(g.player(Power::Russia).expect("Russia").draw.is_none());
    let told: Vec<QueuedMail> = t
        .mails()
        .into_iter()
        .skip(before)
        .filter(|m| m.subject.ends_with("Votes cleared"))
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].recipient, addr("votes", Power::Russia));
    assert!(
        told[0].body.contains("no longer stands"),
        "{}",
        told[0].body
    );
}

/// PROMOTE: the co-master gets a password by mail and acts as the master; UNSTART before
/// the first processing takes the game back to forming; SET START holds a full game until
/// its time; SET INVITE mails a code that joins a private game.
#[test]
fn setup_tools_promote_unstart_start_and_invite() {
    let mut t = Table::new("setup", utc(2026, 11, 1, 9, 0));
    t.start("", "");
    let r = t.as_master("PROMOTE deputy-setup@example.test");
    assert!(!r.contains("ERROR"), "{r}");
    let mail = t
        .mails()
        .into_iter()
        .rev()
        .find(|m| m.recipient == "deputy-setup@example.test")
        .expect("the co-master's mail");
    let code = mail
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix("SIGNON Msetup "))
        .expect("a password")
        .to_string();
    // The co-master takes the game back to forming (nothing was processed yet), and sets
    // a start time in the same mail: the full game waits for it (without one it would
    // start again at once, at the end of the mail).
    let r = t.mail(
        "deputy-setup@example.test",
        &format!("SIGNON Msetup {code}\nUNSTART\nSET START 2026-11-02 12:00"),
    );
    assert!(!r.contains("ERROR"), "{r}");
    assert!(r.contains("starts at"), "{r}");
    let g = t.game();
    assert_eq!(*g.status(), Status::Forming);
    assert_eq!(g.joiners().len(), 7);
    t.tick(utc(2026, 11, 2, 11, 0));
    assert_eq!(*t.game().status(), Status::Forming);
    t.tick(utc(2026, 11, 2, 12, 0));
    let g = t.game();
    assert_eq!(*g.status(), Status::Active);
    assert_eq!(g.deadline(), Some(utc(2026, 11, 5, 12, 0)));
    // UNSTART after a processed phase is refused.
    t.play_phase_at(utc(2026, 11, 3, 9, 0));
    let r = t.as_master("UNSTART");
    assert!(r.contains("ERROR"), "{r}");

    // An invitation: the code mailed to the address joins a private game, once.
    let mut p = Table::new("invited", utc(2026, 11, 1, 9, 0));
    let r = p.mail(
        GM,
        "CREATE ?invited gmpass-01\nSET INVITE guest-invited@example.test",
    );
    assert!(!r.contains("ERROR"), "{r}");
    let invitation = p
        .mails()
        .into_iter()
        .find(|m| m.recipient == "guest-invited@example.test")
        .expect("an invitation");
    let line = invitation
        .body
        .lines()
        .find(|l| l.trim().starts_with("SIGNON ?invited"))
        .expect("the line to join with")
        .trim()
        .replace("<your password>", "guest-password");
    let r = p.mail(
        "someone-else@example.test",
        "SIGNON ?invited other-password",
    );
    assert!(r.contains("ERROR"), "without the code: {r}");
    let r = p.mail("guest-invited@example.test", &line);
    assert!(!r.contains("ERROR"), "{r}");
    assert_eq!(p.game().joiners().len(), 1);
}

/// Join passwords and invitation codes cannot be guessed by mail: after 10 wrong ones in
/// an hour the game checks none, the right one included, until the hour is over.
#[test]
fn wrong_join_passwords_are_throttled() {
    let mut t = Table::new("guarded", utc(2026, 11, 1, 9, 0));
    let r = t.mail(GM, "CREATE ?guarded gmpass-01\nSET JOIN PASSWORD rightword");
    assert!(!r.contains("ERROR"), "{r}");
    for i in 0..10 {
        let r = t.mail(
            &format!("guesser{i}-guarded@example.test"),
            &format!("SIGNON ?guarded guesser-pw guess{i:04}"),
        );
        assert!(r.contains("ERROR PRIVATE-GAME"), "{r}");
    }
    let r = t.mail(
        "player-guarded@example.test",
        "SIGNON ?guarded player-pw rightword",
    );
    assert!(r.contains("ERROR SIGNON-LOCKED"), "{r}");
    assert!(r.contains("wrong join passwords"), "{r}");
    assert!(t.game().joiners().is_empty());
    // An hour later the right one is checked again.
    t.now = utc(2026, 11, 1, 10, 1);
    let r = t.mail(
        "player-guarded@example.test",
        "SIGNON ?guarded player-pw rightword",
    );
    assert!(!r.contains("ERROR"), "{r}");
    assert_eq!(t.game().joiners().len(), 1);
}
