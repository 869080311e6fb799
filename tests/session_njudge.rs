//! njudge's readings and the session's hazards set right (issue 38), a test each, by mail
//! through the judge core: `LIST` after `SIGNON` is the signed-on game's report, draw votes
//! last one phase, `UNSTART` waits for its master, `FORCE BEGIN` in a started game says so,
//! orders after a refused `PHASE` line are not applied, anonymous games announce seat
//! changes as `LIST` says, the game-over list tells a resigned power from a dummy, a duplex
//! player reads a notice once, and schedules do what a master means (orders while paused,
//! `SET WAIT` and the deadline, units without orders, `CREATE … gunboat`).

use chrono::Duration;
use dipjudge::game::{PressLevel, SeatStatus, Status};
use dipjudge::map::Power;
use dipjudge::store::QueuedMail;

use crate::desk::{self, Desk, utc};

const GM: &str = "gm-sn@example.test";

/// A player's address in the game `game`.
fn addr(game: &str, p: Power) -> String {
    format!("{}-{game}@example.test", p.name().to_lowercase())
}

/// A game `name` by mail, not created yet.
fn table(name: &str) -> desk::Table {
    let game = name.to_string();
    desk::Table::new(Desk::new(name, utc(2026, 3, 2, 9, 0)), name, GM, move |p| {
        addr(&game, p)
    })
}

/// A game `name` under way, seven players in.
fn running(name: &str) -> desk::Table {
    let mut t = table(name);
    t.start();
    t
}

/// Every power of `powers` holds every unit (a line each), signed on as itself.
fn hold_all(t: &mut desk::Table, powers: &[Power]) {
    for &p in powers {
        let g = t.game();
        let lines = desk::holds(t.map, &g, &[p]);
        let r = t.as_power(p, &lines);
        assert!(!r.contains("ERROR"), "{p}: {r}");
    }
}

/// The mails queued since the `since`-th.
fn since(t: &mut desk::Table, since: usize) -> Vec<QueuedMail> {
    t.mails_since(since)
}

#[test]
fn list_after_signon_is_the_signed_on_games_report() {
    let mut t = running("lst");
    let r = t.mail("gm2-sn@example.test", "CREATE ?lstother gmpass-02");
    assert!(r.starts_with("OK CREATE"), "{r}");
    // njudge: LIST after SIGNON is the signed-on game's report, not every game.
    let r = t.as_power(Power::England, "LIST");
    assert!(r.contains("OK LIST lst"), "{r}");
    assert!(r.contains("Units and supply centres:"), "{r}");
    assert!(!r.contains("lstother"), "no other game: {r}");
    // Without a SIGNON, LIST lists the games.
    let r = t.mail("someone-sn@example.test", "LIST");
    assert!(r.contains("lstother") && r.contains("lst "), "{r}");
}

#[test]
fn draw_votes_are_cleared_each_phase() {
    let mut t = running("drw");
    let r = t.as_power(Power::England, "SET DRAW");
    assert!(r.contains("until this phase is processed"), "{r}");
    assert!(t.game().player(Power::England).expect("E").draw.is_some());
    let mark = t.mails().len();
    hold_all(&mut t, &Power::ALL);
    let due = t.game().next_event().expect("processing");
    t.tick(due);
    let g = t.game();
    assert_eq!(g.position().phase.to_string(), "F1901M");
    assert!(
        g.player(Power::England).expect("E").draw.is_none(),
        "the vote lapsed with its phase"
    );
    let told: Vec<QueuedMail> = since(&mut t, mark)
        .into_iter()
        .filter(|m| m.subject.ends_with("Votes cleared"))
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].recipient, addr("drw", Power::England));
    assert!(
        told[0].body.contains("S1901M was processed"),
        "{}",
        told[0].body
    );
    assert!(!told[0].body.contains("changed"), "{}", told[0].body);
}

#[test]
fn unstart_waits_for_the_master_and_force_begin_in_a_started_game_says_so() {
    let mut t = running("uns");
    let r = t.as_master("FORCE BEGIN");
    assert!(r.contains("ERROR CANNOT-BEGIN"), "{r}");
    assert!(r.contains("has already begun"), "{r}");
    assert!(!r.contains("nobody has joined"), "{r}");
    // UNSTART of a full game: it waits, as njudge's manual start.
    let r = t.as_master("UNSTART");
    assert!(r.contains("OK UNSTART"), "{r}");
    assert!(!r.contains("starts"), "{r}");
    let g = t.game();
    assert_eq!(*g.status(), Status::Forming);
    assert_eq!(g.joiners().len(), 7);
    let later = t.now + Duration::hours(6);
    t.tick(later);
    assert_eq!(*t.game().status(), Status::Forming, "no tick starts it");
    let r = t.as_master("FORCE BEGIN");
    assert!(r.contains("OK FORCE BEGIN"), "{r}");
    let g = t.game();
    assert_eq!(*g.status(), Status::Active);
    assert_eq!(g.playing_powers().len(), 7);
}

#[test]
fn unstart_after_force_begin_leaves_no_seat_without_an_address() {
    let mut t = table("fbu");
    t.create("");
    for p in [Power::England, Power::France, Power::Germany] {
        t.join(p);
    }
    let r = t.as_master("FORCE BEGIN");
    assert!(r.contains("OK FORCE BEGIN"), "{r}");
    let r = t.as_master("UNSTART");
    assert!(r.contains("OK UNSTART"), "{r}");
    let g = t.game();
    assert_eq!(g.joiners().len(), 3, "the dummies are nobody's");
    assert!(g.joiners().iter().all(|j| !j.seat.address.is_empty()));
    let r = t.as_master("FORCE BEGIN");
    assert!(r.contains("OK FORCE BEGIN"), "{r}");
    let g = t.game();
    for p in g.players() {
        assert!(
            p.status == SeatStatus::Dummy || !p.seat.address.is_empty(),
            "{:?}",
            p.power
        );
    }
    assert_eq!(g.playing_powers().len(), 3);
    assert!(t.mails().iter().all(|m| !m.recipient.is_empty()));
}

#[test]
fn orders_after_a_refused_phase_line_are_not_applied_now() {
    let mut t = running("phs");
    // A phase gone by is refused: the orders after it were written for it, not for the
    // phase open now.
    let r = t.as_power(
        Power::England,
        "PHASE Spring 1900 Movement\nF LON - NTH\nF EDI - NWG\nSIGNOFF",
    );
    assert!(r.contains("OTHER-PHASE"), "{r}");
    assert!(t.game().orders_of(Power::England).is_empty(), "{r}");
    // A PHASE line that cannot be read holds them back too.
    let r = t.as_power(Power::England, "PHASE Sprung 19O1\nF LON - NTH");
    assert!(r.contains("PHASE-REFUSED"), "{r}");
    assert!(t.game().orders_of(Power::England).is_empty(), "{r}");
    // No other command ends the hold: only a PHASE of the phase open now.
    let r = t.as_power(
        Power::England,
        "PHASE Spring 1900 Movement\nF LON - NTH\nSET NOWAIT\nF EDI - NWG\nPHASE Spring 1901 Movement\nA LVP - YOR",
    );
    let g = t.game();
    assert_eq!(g.orders_of(Power::England).len(), 1, "{r}");
    assert!(r.contains("OK A Lvp - Yor"), "{r}");
}

#[test]
fn an_anonymous_game_tells_everyone_of_a_resignation_as_list_says() {
    let mut t = table("anr");
    t.create(" anonymous");
    t.seat_all();
    let r = t.as_power(Power::England, "LIST");
    assert!(
        r.contains("Abandonments and takeovers: announced to everyone"),
        "{r}"
    );
    let mark = t.mails().len();
    let r = t.as_power(Power::France, "RESIGN");
    assert!(r.contains("OK RESIGN"), "{r}");
    let mails = since(&mut t, mark);
    let to_germany: Vec<&QueuedMail> = mails
        .iter()
        .filter(|m| m.recipient == addr("anr", Power::Germany))
        .collect();
    assert_eq!(to_germany.len(), 1, "{mails:?}");
    assert!(
        to_germany[0].body.contains("France"),
        "{}",
        to_germany[0].body
    );
    for m in &mails {
        if m.recipient != GM {
            assert!(
                !m.body.contains(&addr("anr", Power::France)),
                "no player named: {}",
                m.body
            );
        }
    }
    let mark = t.mails().len();
    let r = t.as_master("EJECT Germany");
    assert!(r.contains("OK EJECT"), "{r}");
    let mails = since(&mut t, mark);
    assert!(
        mails
            .iter()
            .any(|m| m.recipient == addr("anr", Power::Italy) && m.body.contains("Germany")),
        "{mails:?}"
    );
}

#[test]
fn the_game_over_list_does_not_call_a_resigned_power_a_dummy() {
    let mut t = table("gov");
    t.create("");
    for p in Power::ALL.into_iter().filter(|p| *p != Power::Italy) {
        t.join(p);
    }
    let r = t.as_master("FORCE BEGIN");
    assert!(r.contains("OK"), "{r}");
    let r = t.as_power(Power::England, "RESIGN");
    assert!(r.contains("OK RESIGN"), "{r}");
    let mark = t.mails().len();
    let r = t.as_master("DECLARE DRAW Austria England France Germany Italy Russia Turkey");
    assert!(!r.contains("ERROR"), "{r}");
    let over = since(&mut t, mark)
        .into_iter()
        .find(|m| m.subject.ends_with("Game over") && m.recipient == addr("gov", Power::France))
        .expect("the game-over mail");
    let line = |p: &str| {
        over.body
            .lines()
            .find(|l| l.trim_start().starts_with(p))
            .unwrap_or_default()
            .to_string()
    };
    let england = line("England:");
    assert!(england.contains("resigned"), "{}", over.body);
    assert!(!england.contains("dummy"), "{}", over.body);
    assert!(line("Italy:").contains("a dummy"), "{}", over.body);
}

#[test]
fn a_duplex_player_reads_a_notice_once() {
    let mut t = table("dpx");
    t.create("\nSET PLAYERS 4");
    for p in [Power::England, Power::France, Power::Germany, Power::Italy] {
        t.join(p);
    }
    assert_eq!(*t.game().status(), Status::Active);
    let mark = t.mails().len();
    let r = t.as_master("SET DEADLINE 2026-03-20 12:00");
    assert!(!r.contains("ERROR"), "{r}");
    let mails: Vec<QueuedMail> = since(&mut t, mark)
        .into_iter()
        .filter(|m| m.subject.ends_with("Deadline changed"))
        .collect();
    let mut to: Vec<String> = mails.iter().map(|m| m.recipient.clone()).collect();
    let all = to.len();
    to.sort();
    to.dedup();
    assert_eq!(all, to.len(), "one copy each: {to:?}");
    assert_eq!(to.len(), 5, "four players and the master: {to:?}");
}

#[test]
fn a_paused_game_takes_orders_and_sends_no_reminder() {
    let mut t = running("pau");
    let r = t.as_master("PAUSE");
    assert!(r.contains("OK PAUSE"), "{r}");
    let r = t.as_power(Power::France, "A PAR - BUR");
    assert!(r.contains("OK A"), "{r}");
    assert!(!r.contains("ERROR"), "{r}");
    assert_eq!(t.game().orders_of(Power::France).len(), 1);
    let mark = t.mails().len();
    let later = t.now + Duration::days(10);
    t.tick(later);
    assert!(
        since(&mut t, mark).is_empty(),
        "no reminder, late notice or results while paused"
    );
    let r = t.as_master("RESUME");
    assert!(r.contains("OK RESUME"), "{r}");
    assert_eq!(t.game().orders_of(Power::France).len(), 1, "kept");
}

#[test]
fn set_wait_never_holds_a_game_past_its_deadline() {
    let mut t = running("wai");
    hold_all(&mut t, &Power::ALL);
    let r = t.as_power(Power::England, "SET WAIT");
    assert!(r.contains("OK SET WAIT"), "{r}");
    let g = t.game();
    let deadline = g.deadline().expect("deadline");
    // Before the deadline the wait holds: nothing is processed early.
    let before = deadline - Duration::hours(1);
    t.tick(before);
    assert_eq!(t.game().position().phase.to_string(), "S1901M");
    // Past it, the master's PROCESS is not refused for the wait.
    t.now = deadline + Duration::minutes(1);
    let r = t.as_master("PROCESS");
    assert!(!r.contains("ORDERS-MISSING"), "{r}");
    assert_eq!(t.game().position().phase.to_string(), "F1901M", "{r}");
    // And the clock does it alone: every order in, a wait, the deadline passes.
    hold_all(&mut t, &Power::ALL);
    let r = t.as_power(Power::France, "SET WAIT");
    assert!(r.contains("OK SET WAIT"), "{r}");
    let deadline = t.game().deadline().expect("deadline");
    t.tick(deadline);
    let after = t.game().next_event().unwrap_or(deadline);
    t.tick(after.max(deadline));
    assert_ne!(t.game().position().phase.to_string(), "F1901M");
}

#[test]
fn a_power_with_a_unit_without_an_order_is_told_it_is_incomplete() {
    let mut t = running("unh");
    let r = t.as_power(Power::England, "F LON H\nF EDI H");
    assert!(r.contains("Units without orders"), "{r}");
    assert!(!r.contains("they will hold"), "{r}");
    assert!(r.contains("incomplete"), "{r}");
    let deadline = t.game().deadline().expect("deadline");
    let mark = t.mails().len();
    t.tick(deadline);
    assert!(
        since(&mut t, mark)
            .iter()
            .any(|m| m.recipient == addr("unh", Power::England) && m.subject.contains("Late")),
        "England is late: it said it would be"
    );
    // Ordered to hold, the unit is not late.
    let r = t.as_power(Power::England, "A LVP H");
    assert!(!r.contains("Units without orders"), "{r}");
    let g = t.game();
    assert!(
        !g.missing_powers(t.map, &dipjudge::variant::Standard)
            .contains(&Power::England)
    );
}

#[test]
fn create_gunboat_is_anonymous_without_press() {
    let mut t = table("gun");
    t.create(" standard gunboat");
    let g = t.game();
    assert!(g.is_anonymous());
    assert_eq!(g.settings().press.level, PressLevel::None);
    // `anonymous` alone keeps press.
    let r = t.mail(
        "gm3-sn@example.test",
        "CREATE ?gun2 gmpass-03 standard anonymous",
    );
    assert!(r.starts_with("OK CREATE"), "{r}");
    let g = t.game_named("gun2");
    assert!(g.is_anonymous());
    assert_ne!(g.settings().press.level, PressLevel::None);
}

#[test]
fn vote_pause_in_a_standard_game_is_not_a_survive_ballot() {
    let mut t = running("vtp");
    let r = t.as_power(Power::England, "VOTE PAUSE");
    assert!(!r.contains("SRV-"), "{r}");
    assert!(r.contains("ERROR NOT-IN-VARIANT"), "{r}");
    assert!(r.contains("not a command of this game's rule set"), "{r}");
}

#[test]
fn set_grace_press_is_not_read_as_a_date() {
    let mut t = running("grp");
    let r = t.as_master("SET GRACE PRESS");
    assert!(!r.contains("BAD-DATE"), "{r}");
    assert!(!r.contains("not a date"), "{r}");
    assert!(r.contains("SET GRACE PRESS"), "{r}");
    assert_eq!(t.game().grace_until(), None, "nothing changed");
}

#[test]
fn grace_follows_a_deadline_the_master_moves_earlier() {
    let mut t = running("grm");
    let g = t.game();
    let (deadline, grace) = (g.deadline().expect("d"), g.grace_end().expect("g"));
    let r = t.as_master("SET DEADLINE 2026-03-04 12:00");
    assert!(!r.contains("ERROR"), "{r}");
    let g = t.game();
    let new = g.deadline().expect("d");
    assert!(new < deadline);
    assert_eq!(
        g.grace_end(),
        Some(new + (grace - deadline)),
        "as long after it"
    );
}
