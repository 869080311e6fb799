//! Anomaly tests in the style of SQLite's (<https://sqlite.org/testing.html>): a game row that
//! cannot be read, a panicking rule-set hook, a mail that panics or kills the judge, a full
//! disk, and a store error at each write of a phase's processing and of a mail's handling
//! (the loop N = 1, 2, … failing at write N once, then at every write from N on). Each test
//! shows what the players and the master receive, and that nothing else stops: the other
//! games are processed, the other mail answered, the outbox drained; after each faulty run
//! the database passes `PRAGMA integrity_check`, a phase or a mail is there whole (with
//! its outbox rows) or not at all, and once the fault is gone the judge ends where a run
//! without faults ends.

use std::sync::atomic::{AtomicBool, Ordering};

use chrono::{DateTime, Duration, Utc};
use dipjudge::command::NoCommand;
use dipjudge::daemon::Daemon;
use dipjudge::judge::{Handled, Judge};
use dipjudge::map::{Map, Power};
use dipjudge::rules::{OrderCheck, Position, PowerOrder, Refusal, Rules, Step};
use dipjudge::store::WriteFaults;
use dipjudge::variant::{Entry, GameView, Line, Registry, RuleSet};

use crate::scratch::{
    Scratch, Sent, complete_orders, deadline, forget_setup_mail, master, password, player,
    start_game, t0, tally,
};

/// A rule set whose processing panics while `PANIC_AT_DEADLINE` is set (a bug in a hook).
struct PanicAtDeadline;
static PANIC_AT_DEADLINE: AtomicBool = AtomicBool::new(true);

impl RuleSet for PanicAtDeadline {
    type State = ();
    type Command = NoCommand;

    fn name(&self) -> &'static str {
        "PanicAtDeadline"
    }

    fn step(
        &self,
        _game: &GameView<'_>,
        _state: &mut (),
        step: Step<'_>,
        _position: &mut Position,
    ) -> Vec<Line> {
        if matches!(step, Step::Begins) && PANIC_AT_DEADLINE.load(Ordering::SeqCst) {
            panic!("a hook's bug: index out of bounds");
        }
        Vec::new()
    }
}

/// A rule set whose order checking always panics (every mail with an order is poison).
struct PanicOnOrders;

/// Its adjudication rules: the standard game's, but the check of an order (H3) panics.
struct PanicOnOrdersRules;

impl Rules for PanicOnOrdersRules {
    fn check_order(
        &self,
        _: &Map,
        _: &Position,
        _: &PowerOrder,
        _: Option<&Refusal>,
    ) -> OrderCheck {
        panic!("a hook's bug: unwrap on None");
    }
}

impl RuleSet for PanicOnOrders {
    type State = ();
    type Command = NoCommand;

    fn name(&self) -> &'static str {
        "PanicOnOrders"
    }

    fn rules(&self, _game: &GameView<'_>, _state: &()) -> Box<dyn Rules> {
        Box::new(PanicOnOrdersRules)
    }
}

static PANIC_AT_DEADLINE_RULES: PanicAtDeadline = PanicAtDeadline;
static PANIC_ON_ORDERS_RULES: PanicOnOrders = PanicOnOrders;

/// The judge's configuration with the two test-local rule sets registered.
fn with_panicky_rules(scratch: &Scratch) -> dipjudge::daemon::Config {
    let mut config = scratch.config();
    config.variants = Registry::default()
        .with(Entry {
            name: "PanicAtDeadline",
            aliases: &[],
            variant: Some(&PANIC_AT_DEADLINE_RULES),
        })
        .with(Entry {
            name: "PanicOnOrders",
            aliases: &[],
            variant: Some(&PANIC_ON_ORDERS_RULES),
        });
    config
}

fn integrity(judge: &mut Judge) -> String {
    judge.store_mut().integrity_check().unwrap()
}

/// Done when (issue 25): two games, one with an unreadable stored state. At the deadline
/// the other game is processed and its bulletins sent, every queued reply goes out, the
/// broken game's master is told once, and mail naming the broken game is answered that
/// it is suspended (LIST shows it so).
#[test]
fn a_game_whose_state_cannot_be_read_is_suspended_and_the_others_go_on() {
    let mut s = Scratch::new("corrupt-row");
    let at = {
        let mut judge = s.judge();
        start_game(&mut judge, "good", "");
        start_game(&mut judge, "bad", "");
        complete_orders(&mut judge, "good");
        forget_setup_mail(&mut judge);
        deadline(&mut judge, "good")
    };
    // The bad game's row is cut short, as a bad disk block or a hand edit leaves it.
    {
        let db = rusqlite::Connection::open(s.database()).unwrap();
        let n = db
            .execute(
                "UPDATE games SET state = substr(state, 1, 60) WHERE name = 'bad'",
                [],
            )
            .unwrap();
        assert_eq!(n, 1);
    }
    s.mail("stranger@example.test", "help-1@x", "HELP");
    s.mail("lister@example.test", "list-1@x", "LIST");
    s.mail(
        &player("bad", Power::France),
        "bad-1@x",
        &format!(
            "SIGNON Fbad {}\nA Par - Bur\nLIST good",
            password(Power::France)
        ),
    );
    let mut d = Daemon::open(s.config(), None).unwrap();
    let r = d.process_once(at).unwrap();
    assert_eq!((r.applied, r.failed, r.ticked), (3, 0, 1), "{r:?}");
    assert_eq!(integrity(d.judge()), "ok");
    let sent = s.sent();
    // The good game was processed at its deadline: every player and the master have the
    // results.
    let results = tally(&sent, "good - S1901M Results");
    for p in Power::ALL {
        assert_eq!(
            results.get(&player("good", p)),
            Some(&1),
            "{p}: {results:?}"
        );
    }
    assert_eq!(results.get(&master("good")), Some(&1));
    // The broken game's master is told, once; nobody else hears of it unasked.
    let suspended = tally(&sent, "Suspended");
    assert_eq!(suspended.len(), 1, "{suspended:?}");
    assert_eq!(suspended.get(&master("bad")), Some(&1));
    let notice = &s.sent_to(&master("bad"))[0];
    assert!(
        notice
            .body
            .contains("The judge has suspended the game 'bad': its stored state cannot be read."),
        "{}",
        notice.body
    );
    // Every reply went out: HELP, LIST (showing the suspension), and the bad game's player
    // answered line by line.
    let reply = |s: &Scratch, to: &str| -> Sent {
        let got = s.sent_to(to);
        assert_eq!(got.len(), 1, "{to}: {got:?}");
        got[0].clone()
    };
    assert!(reply(&s, "stranger@example.test").body.contains("HELP"));
    let list = reply(&s, "lister@example.test").body;
    assert!(
        list.contains("bad          suspended: its stored state cannot be read"),
        "{list}"
    );
    let france = reply(&s, &player("bad", Power::France)).body;
    assert!(
        france.contains("ERROR SUSPENDED: line 1: ")
            && france.contains(
                "bad is suspended: its stored state cannot be read; its master has been told"
            ),
        "{france}"
    );
    assert!(france.contains("ERROR NOT-SIGNED-ON"), "{france}");
    assert!(france.contains("OK LIST good"), "{france}");
    // A later pass and more mail to the broken game tell the master nothing more.
    s.mail(
        &player("bad", Power::Italy),
        "bad-2@x",
        &format!("SIGNON Ibad {}\nA Rom H", password(Power::Italy)),
    );
    let r = d.process_once(at + Duration::hours(1)).unwrap();
    assert_eq!((r.applied, r.failed), (1, 0), "{r:?}");
    assert_eq!(tally(&s.sent(), "Suspended").len(), 1);
    assert!(
        reply(&s, &player("bad", Power::Italy))
            .body
            .contains("ERROR SUSPENDED")
    );
    let dump = d.judge().dump_state().unwrap();
    assert!(
        dump.contains("GAME bad (suspended: its stored state cannot be read)\n"),
        "{dump}"
    );
    assert!(dump.contains("GAME good (active)"), "{dump}");
}

/// A rule set's hook that panics when the phase is processed: the game is suspended and
/// its master told once; the standard game due at the same instant is processed. When
/// the bug is fixed, the operator lifts the suspension and the game is processed.
#[test]
fn a_panicking_rule_set_hook_suspends_its_game_only() {
    let s = Scratch::new("panic-hook");
    let config = with_panicky_rules(&s);
    let at = {
        let mut judge = dipjudge::daemon::open_judge(&config, None).unwrap();
        start_game(&mut judge, "boom", "PanicAtDeadline");
        start_game(&mut judge, "calm", "");
        complete_orders(&mut judge, "boom");
        complete_orders(&mut judge, "calm");
        forget_setup_mail(&mut judge);
        deadline(&mut judge, "calm")
    };
    PANIC_AT_DEADLINE.store(true, Ordering::SeqCst);
    let mut d = Daemon::open(config.clone(), None).unwrap();
    let r = d.process_once(at).unwrap();
    assert_eq!((r.ticked, r.suspended), (1, 1), "{r:?}");
    let sent = s.sent();
    let calm = tally(&sent, "calm - S1901M Results");
    assert_eq!(calm.len(), 8, "seven players and the master: {calm:?}");
    assert!(tally(&sent, "boom - S1901M Results").is_empty());
    let suspended = tally(&sent, "Suspended");
    assert_eq!(suspended.get(&master("boom")), Some(&1), "{suspended:?}");
    assert_eq!(suspended.len(), 1);
    let notice = &s.sent_to(&master("boom"))[0].body;
    assert!(
        notice.contains("processing it failed inside the judge"),
        "{notice}"
    );
    // The panic's words are for the operator's log, not for the master.
    assert!(!notice.contains("index out of bounds"), "{notice}");
    assert_eq!(integrity(d.judge()), "ok");
    // Nothing is due any more: the suspended game does not come back each pass.
    let r = d.process_once(at + Duration::minutes(5)).unwrap();
    assert_eq!((r.ticked, r.suspended, r.sent), (0, 0, 0), "{r:?}");
    // The bug is fixed; the operator lifts the suspension; the game is processed.
    PANIC_AT_DEADLINE.store(false, Ordering::SeqCst);
    assert!(d.judge().unsuspend("boom").unwrap());
    let r = d.process_once(at + Duration::minutes(10)).unwrap();
    assert_eq!(r.ticked, 1, "{r:?}");
    assert_eq!(tally(&s.sent(), "boom - S1901M Results").len(), 8);
    assert_eq!(tally(&s.sent(), "Suspended").len(), 1);
    PANIC_AT_DEADLINE.store(true, Ordering::SeqCst);
}

/// A mail that panics the judge is rolled back and counted each time (the count committed
/// before the judge reads it), and set aside after `max_message_attempts`: its sender is
/// answered, the master of the game it names is told, it moves to the rejected folder.
/// The mail behind it waits only until then, and other mail of the same pass is answered.
#[test]
fn a_mail_that_panics_the_judge_is_set_aside_after_its_attempts() {
    let mut s = Scratch::with_daemon_settings("poison", "max_message_attempts = 3");
    let config = with_panicky_rules(&s);
    {
        let mut judge = dipjudge::daemon::open_judge(&config, None).unwrap();
        start_game(&mut judge, "bang", "PanicOnOrders");
        forget_setup_mail(&mut judge);
    }
    let italy = player("bang", Power::Italy);
    s.mail(
        &italy,
        "poison@x",
        &format!("SIGNON Ibang {}\nA Rom - Apu", password(Power::Italy)),
    );
    s.mail("next@example.test", "next@x", "HELP");
    let mut d = Daemon::open(config, None).unwrap();
    let now = t0() + Duration::hours(1);
    for pass in 1..=2 {
        let r = d.process_once(now).unwrap();
        assert_eq!(
            (r.failed, r.set_aside, r.applied),
            (1, 0, 0),
            "pass {pass}: {r:?}"
        );
        assert!(s.sent().is_empty(), "a failed mail answers nothing");
    }
    let r = d.process_once(now).unwrap();
    assert_eq!((r.failed, r.set_aside, r.applied), (1, 1, 1), "{r:?}");
    assert_eq!(s.rejected(), 1);
    assert_eq!(s.waiting(), 0);
    let answer = &s.sent_to(&italy);
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(
        answer[0]
            .body
            .contains("failed on it 3 times, and has set it aside. Nothing in it was applied."),
        "{}",
        answer[0].body
    );
    assert_eq!(answer[0].in_reply_to.as_deref(), Some("poison@x"));
    let gm = s.sent_to(&master("bang"));
    assert_eq!(gm.len(), 1, "{gm:?}");
    assert_eq!(gm[0].subject, "DIP:bang - Mail set aside");
    assert!(gm[0].body.contains(&italy), "{}", gm[0].body);
    assert_eq!(s.sent_to("next@example.test").len(), 1);
    assert_eq!(integrity(d.judge()), "ok");
    // Set aside for good: a copy of it is a duplicate.
    s.mail(
        &italy,
        "poison@x",
        &format!("SIGNON Ibang {}\nA Rom - Apu", password(Power::Italy)),
    );
    let r = d.process_once(now).unwrap();
    assert_eq!((r.duplicates, r.failed), (1, 0), "{r:?}");
}

/// A mail that kills the judge (no panic to catch: an abort, an out-of-memory kill) is
/// counted all the same, since each attempt is counted and committed before the judge
/// reads the mail: after `max_message_attempts` deaths it is set aside unread.
#[test]
fn a_mail_that_kills_the_judge_is_set_aside_unread() {
    let mut s = Scratch::with_daemon_settings("killer", "max_message_attempts = 2");
    s.mail("killer@example.test", "killer@x", "HELP");
    let msg = {
        let raw = std::fs::read(
            std::fs::read_dir(s.dir.join("var/inbox/new"))
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .path(),
        )
        .unwrap();
        dipjudge::mail::incoming(&dipjudge::mail::Envelope::parse(&raw).unwrap())
    };
    {
        // Two attempts that ended with the process: counted, never finished.
        let mut judge = s.judge();
        assert_eq!(judge.begin_attempt(&msg).unwrap(), 1);
        assert_eq!(judge.begin_attempt(&msg).unwrap(), 2);
    }
    let mut d = Daemon::open(s.config(), None).unwrap();
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.set_aside, r.applied), (1, 0), "{r:?}");
    let answer = s.sent_to("killer@example.test");
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0].body.contains("failed on it 2 times"),
        "{answer:?}"
    );
    assert!(!answer[0].body.contains("Commands"), "HELP was not read");
}

/// A full disk (SQLite's `max_page_count` at the pages in use): the pass applies nothing
/// by halves and stops nothing for good. No mail is answered, no phase processed, no game
/// suspended, nothing counted against the mail; once there is room, the same pass ends
/// where a pass with room ends.
#[test]
fn a_full_disk_stops_nothing_for_good() {
    let setup = |tag: &str| -> (Scratch, DateTime<Utc>) {
        let mut s = Scratch::new(tag);
        let at = {
            let mut judge = s.judge();
            start_game(&mut judge, "full", "");
            complete_orders(&mut judge, "full");
            forget_setup_mail(&mut judge);
            deadline(&mut judge, "full")
        };
        for i in 0..3 {
            s.mail(&format!("p{i}@example.test"), &format!("h{i}@x"), "HELP");
        }
        (s, at)
    };
    let (calm, at) = setup("roomy");
    let mut d = Daemon::open(calm.config(), None).unwrap();
    d.process_once(at).unwrap();
    let expected: Vec<(String, String, String)> = sorted(&calm.sent());
    let expected_state = d.judge().dump_state().unwrap();
    drop(d);

    let (full, at) = setup("full");
    let mut d = Daemon::open(full.config(), None).unwrap();
    let pages = d.judge().store_mut().page_count().unwrap();
    d.judge().store_mut().set_max_page_count(pages).unwrap();
    let r = d.process_once(at);
    let report = format!("{r:?}");
    // The free pages the file had take a mail or two; then the disk is full.
    let applied = r.as_ref().map_or(0, |r| r.applied);
    assert!(
        r.as_ref()
            .map_or(true, |r| r.failed > 0 && r.ticked == 0 && r.suspended == 0),
        "{report}"
    );
    assert_eq!(integrity(d.judge()), "ok");
    // Nothing by halves: each mail answered whole or still in the inbox, the phase not
    // processed (no results, not a line of them).
    let sent = full.sent();
    assert_eq!(sent.len(), applied, "{report}: {sent:?}");
    assert!(sent.iter().all(|m| m.subject == "Re: orders"), "{sent:?}");
    assert_eq!(
        full.waiting(),
        3 - applied,
        "the rest of the mail stays in the inbox"
    );
    // A second pass on the full disk does nothing by halves either (and counts nothing
    // against the mail: a full disk is not the mail's fault). It may answer one more mail
    // whole: marking the first pass's answers sent can free a page.
    let again = d.process_once(at);
    let applied = applied + again.as_ref().map_or(0, |r| r.applied);
    assert!(
        again.as_ref().map_or(true, |r| r.ticked == 0
            && r.suspended == 0
            && r.set_aside == 0),
        "{again:?}"
    );
    assert_eq!(full.sent().len(), applied, "{again:?}");
    assert_eq!(full.waiting(), 3 - applied, "{again:?}");
    d.judge().store_mut().set_max_page_count(1 << 30).unwrap();
    let r = d.process_once(at).unwrap();
    assert_eq!(
        (r.applied, r.ticked, r.set_aside, r.failed),
        (3 - applied, 1, 0, 0),
        "{r:?}"
    );
    assert_eq!(sorted(&full.sent()), expected);
    assert_eq!(d.judge().dump_state().unwrap(), expected_state);
}

/// The mails as (to, subject, body), sorted (Message-IDs and file names differ by run).
fn sorted(mails: &[Sent]) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = mails
        .iter()
        .map(|m| (m.to.clone(), m.subject.clone(), m.body.clone()))
        .collect();
    v.sort();
    v
}

/// The outbox rows as (recipient, subject, body), in order.
fn outbox(judge: &mut Judge) -> Vec<(String, String, String)> {
    judge
        .all_mail()
        .unwrap()
        .into_iter()
        .map(|m| (m.recipient, m.subject, m.body))
        .collect()
}

/// A copy of a closed database file, for one run of a fault loop.
fn copy_db(template: &std::path::Path, tag: &str, n: u64) -> std::path::PathBuf {
    let to = template.with_file_name(format!("{tag}-{n}.db"));
    std::fs::copy(template, &to).unwrap();
    to
}

fn judge_on(db: &std::path::Path) -> Judge {
    let store = dipjudge::store::Store::open(db).unwrap();
    let config = dipjudge::judge::JudgeConfig {
        password_cost: dipjudge::judge::PasswordCost::TEST,
        ..dipjudge::judge::JudgeConfig::default()
    };
    Judge::new(store, config).unwrap()
}

/// A store error at each write of a phase's processing: for N = 1, 2, … the N-th write of
/// the deadline's tick fails (once; then every write from N on), until a tick makes no
/// more writes than N. After each: the database is sound; the phase is processed whole,
/// with every results mail queued, or not at all, with none; the game is not suspended
/// (a disk error is not the game's fault); and a tick without faults ends exactly where
/// the tick without faults ended in the first place.
#[test]
fn a_store_error_at_each_write_of_a_phase_leaves_it_whole_or_untouched() {
    let s = Scratch::new("phase-faults");
    let at = {
        let mut judge = s.judge();
        start_game(&mut judge, "loop", "");
        complete_orders(&mut judge, "loop");
        deadline(&mut judge, "loop")
    };
    let template = s.database();
    let (before_state, before_mail) = {
        let mut j = judge_on(&copy_db(&template, "before", 0));
        (j.dump_state().unwrap(), outbox(&mut j))
    };
    let (after_state, after_mail) = {
        let mut j = judge_on(&copy_db(&template, "reference", 0));
        assert_eq!(j.tick(at).unwrap(), 1);
        (j.dump_state().unwrap(), outbox(&mut j))
    };
    assert_ne!(before_state, after_state);
    let mut runs = 0;
    for always in [false, true] {
        for n in 1.. {
            let tag = if always { "always" } else { "once" };
            let mut j = judge_on(&copy_db(&template, tag, n));
            let plan = WriteFaults::new(n, always);
            j.store_mut().set_write_faults(Some(plan.clone()));
            let r = j.tick_games(at);
            j.store_mut().set_write_faults(None);
            runs += 1;
            if plan.fired() == 0 {
                assert_eq!(r.unwrap().acted, 1);
                assert_eq!(j.dump_state().unwrap(), after_state);
                break;
            }
            assert_eq!(integrity(&mut j), "ok", "{tag} {n}");
            if let Ok(r) = &r {
                assert!(r.suspended.is_empty(), "{tag} {n}: {r:?}");
            }
            let (state, mail) = (j.dump_state().unwrap(), outbox(&mut j));
            let whole = state == after_state && mail == after_mail;
            let untouched = state == before_state && mail == before_mail;
            assert!(
                whole || untouched,
                "{tag} {n}: the phase was applied by halves"
            );
            // Without faults the next tick finishes the work, and the end is the same.
            j.tick(at).unwrap();
            assert_eq!(j.dump_state().unwrap(), after_state, "{tag} {n}");
            assert_eq!(outbox(&mut j), after_mail, "{tag} {n}");
        }
    }
    assert!(
        runs > 10,
        "only {runs} runs: the loop did not reach the phase's writes"
    );
}

/// A store error at each write of a mail's handling (orders and press): the mail is applied
/// whole, with its reply and its press queued, or not at all; handled again without faults,
/// it ends where the fault-free handling ends (a mail applied is a duplicate then).
#[test]
fn a_store_error_at_each_write_of_a_mail_leaves_it_whole_or_untouched() {
    let s = Scratch::new("mail-faults");
    {
        let mut judge = s.judge();
        start_game(&mut judge, "mail", "");
    }
    let template = s.database();
    let msg = crate::desk::incoming(
        "orders-with-press@x",
        &player("mail", Power::England),
        "orders",
        &format!(
            "SIGNON Email {}\nF Lon - NTH\nA Lvp - Yor\nPRESS TO F\nShall we split the Channel?\nENDPRESS\n",
            password(Power::England)
        ),
    );
    let now = t0() + Duration::hours(1);
    let (before_state, before_mail) = {
        let mut j = judge_on(&copy_db(&template, "mail-before", 0));
        (j.dump_state().unwrap(), outbox(&mut j))
    };
    let (after_state, after_mail) = {
        let mut j = judge_on(&copy_db(&template, "mail-reference", 0));
        assert!(matches!(
            j.handle(&msg, now).unwrap(),
            Handled::Applied { .. }
        ));
        (j.dump_state().unwrap(), outbox(&mut j))
    };
    assert_eq!(
        after_mail.len(),
        before_mail.len() + 2,
        "the reply and France's press"
    );
    let mut runs = 0;
    for always in [false, true] {
        for n in 1.. {
            let tag = if always { "mail-always" } else { "mail-once" };
            let mut j = judge_on(&copy_db(&template, tag, n));
            let plan = WriteFaults::new(n, always);
            j.store_mut().set_write_faults(Some(plan.clone()));
            let r = j.handle(&msg, now);
            j.store_mut().set_write_faults(None);
            runs += 1;
            if plan.fired() == 0 {
                assert!(matches!(r, Ok(Handled::Applied { .. })), "{r:?}");
                break;
            }
            assert!(
                r.as_ref().is_err_and(|e| e.is_environmental()),
                "{tag} {n}: {r:?}"
            );
            assert_eq!(integrity(&mut j), "ok", "{tag} {n}");
            let (state, mail) = (j.dump_state().unwrap(), outbox(&mut j));
            let untouched = state == before_state && mail == before_mail;
            assert!(untouched, "{tag} {n}: a failed mail left traces");
            let again = j.handle(&msg, now).unwrap();
            assert!(matches!(again, Handled::Applied { .. }), "{tag} {n}");
            assert_eq!(j.dump_state().unwrap(), after_state, "{tag} {n}");
            assert_eq!(outbox(&mut j), after_mail, "{tag} {n}");
        }
    }
    assert!(runs > 6, "only {runs} runs");
}
