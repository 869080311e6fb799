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
/// The inbox flows past it (issue 36: it held up the rest of the inbox until it was set
/// aside, about 4 minutes a mail under `run`): the mail behind it is answered in the first
/// pass, but its sender's next mail waits for it (a sender's mails are read in order).
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
    s.mail(&italy, "after-poison@x", "LIST bang");
    let mut d = Daemon::open(config, None).unwrap();
    let now = t0() + Duration::hours(1);
    let r = d.process_once(now).unwrap();
    assert_eq!((r.failed, r.set_aside, r.applied), (1, 0, 1), "{r:?}");
    assert_eq!(
        s.sent_to("next@example.test").len(),
        1,
        "the mail behind it goes on"
    );
    assert!(
        s.sent_to(&italy).is_empty(),
        "Italy's next mail waits for her first"
    );
    let r = d.process_once(now).unwrap();
    assert_eq!((r.failed, r.set_aside, r.applied), (1, 0, 0), "{r:?}");
    let r = d.process_once(now).unwrap();
    assert_eq!((r.failed, r.set_aside, r.applied), (1, 1, 1), "{r:?}");
    assert_eq!(s.rejected(), 1);
    assert_eq!(s.waiting(), 0);
    let answer = &s.sent_to(&italy);
    assert_eq!(answer.len(), 2, "{answer:?}");
    assert!(
        answer[0]
            .body
            .contains("failed on it 3 times, and has set it aside. Nothing in it was applied."),
        "{}",
        answer[0].body
    );
    assert_eq!(answer[0].in_reply_to.as_deref(), Some("poison@x"));
    assert_eq!(answer[1].in_reply_to.as_deref(), Some("after-poison@x"));
    let gm = s.sent_to(&master("bang"));
    assert_eq!(gm.len(), 1, "{gm:?}");
    assert_eq!(gm[0].subject, "DIP:bang - Mail set aside");
    assert!(gm[0].body.contains(&italy), "{}", gm[0].body);
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

/// The outbox Maildir's files in the order they were written (the number a Maildir name
/// carries after `Q`), each as (recipient, outbox id from its Message-ID, subject).
fn written_in_order(s: &Scratch) -> Vec<(String, i64, String)> {
    let dir = s.dir.join("var/outbox/new");
    let mut files: Vec<(u64, std::path::PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let q = name
                .split_once('Q')
                .and_then(|(_, rest)| rest.split_once('M'))
                .and_then(|(n, _)| n.parse().ok())
                .unwrap();
            (q, path)
        })
        .collect();
    files.sort();
    files
        .iter()
        .map(|(_, p)| {
            let m = crate::scratch::read_sent(p);
            let id = m
                .message_id
                .trim_start_matches("dip.")
                .split(['@', '.'])
                .next()
                .unwrap()
                .parse()
                .unwrap();
            (m.to, id, m.subject)
        })
        .collect()
}

/// Done when (issue 36): a two-day outage of the outbox loses no mail. The outbox Maildir
/// cannot be written (its path is a file: the same to root as a full disk or a missing
/// directory) for two days of `dipjudge process` passes, one every two hours, and the
/// game's deadline falls in the middle. No mail is given up (before, each was given up
/// after 10 attempts: 10 passes), the master is told once that the game's mail is delayed,
/// and once the outbox can be written the backlog goes out whole, in the order it was
/// queued.
#[test]
fn an_outbox_unwritable_for_two_days_loses_no_mail() {
    let mut s = Scratch::new("outbox-outage");
    let at = {
        let mut judge = s.judge();
        start_game(&mut judge, "dark", "");
        complete_orders(&mut judge, "dark");
        forget_setup_mail(&mut judge);
        deadline(&mut judge, "dark")
    };
    let outbox = s.dir.join("var/outbox");
    let _ = std::fs::remove_dir_all(&outbox);
    std::fs::write(&outbox, "not a directory").unwrap();
    for i in 0..3 {
        s.mail(&format!("p{i}@example.test"), &format!("h{i}@x"), "HELP");
    }
    let start = at - Duration::hours(24);
    let pass = |s: &Scratch, now: DateTime<Utc>| {
        let (status, log, _) = crate::scratch::run_within(
            crate::scratch::process(&s.config_path(), now, &[]),
            std::time::Duration::from_secs(60),
        );
        assert!(status.success(), "{status}: {log}");
    };
    for step in 0..=24 {
        pass(&s, start + Duration::hours(2 * step));
    }
    {
        let mut judge = s.judge();
        let queued = judge.queued_mail(1000).unwrap();
        // Three replies, eight results, the master's notice of the delay.
        assert_eq!(queued.len(), 3 + 8 + 1, "{queued:?}");
        let dump = judge.dump_state().unwrap();
        assert!(
            dump.contains("F1901M"),
            "the deadline was processed: {dump}"
        );
    }
    std::fs::remove_file(&outbox).unwrap();
    pass(&s, start + Duration::hours(50));
    let sent = s.sent();
    assert_eq!(sent.len(), 12, "{sent:?}");
    assert!(tally(&sent, "Undeliverable").is_empty(), "nothing given up");
    assert_eq!(tally(&sent, "dark - S1901M Results").len(), 8);
    let delayed = s.sent_to(&master("dark"));
    let notice: Vec<&Sent> = delayed
        .iter()
        .filter(|m| m.subject == "DIP:dark - Mail delayed")
        .collect();
    assert_eq!(notice.len(), 1, "{delayed:?}");
    // The master's own copies are not reported to the master.
    assert!(
        notice[0].body.starts_with("7 mails of the game 'dark'")
            && notice[0].body.contains("keeps trying until"),
        "{}",
        notice[0].body
    );
    // The backlog went out in the order it was queued.
    let order: Vec<i64> = written_in_order(&s).iter().map(|(_, id, _)| *id).collect();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(order, sorted);
    // Nothing more is waiting.
    pass(&s, start + Duration::hours(51));
    assert_eq!(s.sent().len(), 12);
}

/// A mail that fails for now is given up only after `max_queue_days` of failing (with its
/// game's master told), never for a count of attempts.
#[test]
fn mail_failing_for_now_is_given_up_only_after_days() {
    let s = Scratch::with_daemon_settings("given-up", "max_queue_days = 2");
    let at = {
        let mut judge = s.judge();
        start_game(&mut judge, "gone", "");
        complete_orders(&mut judge, "gone");
        forget_setup_mail(&mut judge);
        deadline(&mut judge, "gone")
    };
    let outbox = s.dir.join("var/outbox");
    let _ = std::fs::remove_dir_all(&outbox);
    std::fs::write(&outbox, "not a directory").unwrap();
    let mut d = Daemon::open(s.config(), None).unwrap();
    let mut given_up = 0;
    for hour in 0..=47 {
        let r = d.process_once(at + Duration::hours(hour)).unwrap();
        given_up += r.given_up;
    }
    assert_eq!(
        given_up, 0,
        "under two days of failures nothing is given up"
    );
    let r = d.process_once(at + Duration::hours(49)).unwrap();
    assert!(r.given_up >= 8, "{r:?}");
    std::fs::remove_file(&outbox).unwrap();
    let r = d.process_once(at + Duration::hours(50)).unwrap();
    let sent = s.sent();
    let notices = tally(&sent, "Undeliverable mail");
    assert_eq!(notices.get(&master("gone")), Some(&7), "{r:?} {sent:?}");
    let body = &s
        .sent_to(&master("gone"))
        .into_iter()
        .find(|m| m.subject.contains("Undeliverable"))
        .unwrap()
        .body;
    assert!(
        body.contains(
            "not delivered in 2 days of trying; the last attempt failed: cannot write to Maildir"
        ),
        "{body}"
    );
}

/// Done when (issue 36): a pass with the clock behind causes no time warp. A pass whose
/// clock is three days behind the last tick leaves the last tick where it was; the next
/// pass on a right clock, just after the deadline, processes the phase (before, the last
/// tick went back three days and that pass declared a time warp and extended the deadline).
#[test]
fn a_pass_with_the_clock_behind_causes_no_time_warp() {
    let s = Scratch::new("clock-behind");
    let at = {
        let mut judge = s.judge();
        start_game(&mut judge, "clock", "");
        complete_orders(&mut judge, "clock");
        forget_setup_mail(&mut judge);
        deadline(&mut judge, "clock")
    };
    let mut d = Daemon::open(s.config(), None).unwrap();
    d.process_once(at - Duration::hours(1)).unwrap();
    let r = d.process_once(at - Duration::days(3)).unwrap();
    assert_eq!(r.ticked, 0, "{r:?}");
    let r = d.process_once(at + Duration::minutes(5)).unwrap();
    assert_eq!(r.ticked, 1, "{r:?}");
    let sent = s.sent();
    assert!(tally(&sent, "Deadline extended").is_empty(), "{sent:?}");
    assert_eq!(tally(&sent, "clock - S1901M Results").len(), 8);
    assert_eq!(
        d.judge().get_value("last_tick").unwrap().as_deref(),
        Some(dipjudge::store::write_time(at + Duration::minutes(5)).as_str())
    );
}

/// Done when (issue 36): damage that still reads is found. A game whose stored next
/// deadline event is not a time (it never came up again, and silently missed its
/// deadline), and a game with two units in one province, are suspended and their masters
/// told, as for a row that does not parse; the other game is processed.
#[test]
fn a_damaged_game_row_that_still_reads_is_suspended() {
    let s = Scratch::new("damaged-rows");
    let at = {
        let mut judge = s.judge();
        for g in ["fine", "when", "twice"] {
            start_game(&mut judge, g, "");
            complete_orders(&mut judge, g);
        }
        forget_setup_mail(&mut judge);
        deadline(&mut judge, "fine")
    };
    {
        let db = rusqlite::Connection::open(s.database()).unwrap();
        let n = db
            .execute(
                "UPDATE games SET next_event = 'garbage' WHERE name = 'when'",
                [],
            )
            .unwrap();
        assert_eq!(n, 1);
        // Germany's army in Munich is copied into Berlin, beside Germany's army there.
        let state: String = db
            .query_row("SELECT state FROM games WHERE name = 'twice'", [], |r| {
                r.get(0)
            })
            .unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&state).unwrap();
        let units = v["position"]["units"].as_array_mut().unwrap();
        let first = units[0].clone();
        units.push(first);
        db.execute(
            "UPDATE games SET state = ?1 WHERE name = 'twice'",
            [serde_json::to_string(&v).unwrap()],
        )
        .unwrap();
    }
    let mut d = Daemon::open(s.config(), None).unwrap();
    let r = d.process_once(at).unwrap();
    assert_eq!((r.ticked, r.suspended), (1, 2), "{r:?}");
    let sent = s.sent();
    assert_eq!(tally(&sent, "fine - S1901M Results").len(), 8);
    for g in ["when", "twice"] {
        let told = s.sent_to(&master(g));
        assert_eq!(told.len(), 1, "{g}: {told:?}");
        assert!(
            told[0].body.contains(&format!(
                "The judge has suspended the game '{g}': its stored state cannot be read."
            )),
            "{}",
            told[0].body
        );
    }
    let dump = d.judge().dump_state().unwrap();
    assert!(dump.contains("GAME when (suspended"), "{dump}");
    assert!(dump.contains("GAME twice (suspended"), "{dump}");
}

/// An outbox that accepts everything and keeps the recipients of each batch it was given.
#[derive(Clone, Default)]
struct Batches(std::sync::Arc<std::sync::Mutex<Vec<Vec<String>>>>);

impl dipjudge::mail::Outbox for Batches {
    fn send_batch(
        &mut self,
        mails: &[dipjudge::mail::RenderedMail],
    ) -> Vec<Result<(), dipjudge::mail::SendError>> {
        self.0
            .lock()
            .unwrap()
            .push(mails.iter().map(|m| m.recipients.join(",")).collect());
        mails.iter().map(|_| Ok(())).collect()
    }
}

/// Done when (issue 36): a flood from one sender stays that sender's problem. One signed-on
/// player's 230 KB mail of broadcasts would queue tens of thousands of mails; the judge
/// sends at most 30 to one address and 1,000 for one mail, its reply says how many were
/// not sent, and the other senders' replies, queued after the flood, go out in the first
/// batch, not behind it.
#[test]
fn a_flood_of_press_from_one_player_stays_that_players_problem() {
    let mut s = Scratch::new("flood");
    {
        let mut judge = s.judge();
        start_game(&mut judge, "flood", "");
        forget_setup_mail(&mut judge);
    }
    let france = player("flood", Power::France);
    let mut body = format!("SIGNON Fflood {}\n", password(Power::France));
    let mut blocks = 0;
    while body.len() < 230 * 1024 {
        body.push_str("BROADCAST\nSpam, spam, spam.\nENDBROADCAST\n");
        blocks += 1;
    }
    s.mail(&france, "flood@x", &body);
    for i in 0..5 {
        s.mail(
            &format!("other{i}@example.test"),
            &format!("other{i}@x"),
            "VERSION",
        );
    }
    let batches = Batches::default();
    let mut d =
        Daemon::with_transports(s.config(), None, None, Some(Box::new(batches.clone()))).unwrap();
    let r = d.process_once(t0() + Duration::hours(1)).unwrap();
    assert_eq!(r.applied, 6, "{r:?}");
    let sent = batches.0.lock().unwrap().clone();
    let all: Vec<&String> = sent.iter().flatten().collect();
    assert!(
        all.len() <= 1 + 5 + 1_000,
        "{} mails for one mail",
        all.len()
    );
    let mut per: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for to in &all {
        *per.entry(to.as_str()).or_default() += 1;
    }
    assert!(per.values().all(|n| *n <= 31), "{per:?}");
    // The others' replies were in the first batch, not behind the flood.
    for i in 0..5 {
        let to = format!("other{i}@example.test");
        assert!(
            sent[0].contains(&to),
            "{to} not in the first batch: {:?}",
            sent[0]
        );
    }
    // France's reply says what was not sent; what France wrote is kept for HISTORY.
    let reply = d
        .judge()
        .all_mail()
        .unwrap()
        .into_iter()
        .find(|m| m.in_reply_to.as_deref() == Some("flood@x"))
        .unwrap();
    assert!(
        reply
            .body
            .contains("NOTE: this mail would have made the judge send ")
            && reply.body.contains(
                "it sends at most 30 to one address and 1000 in all for one mail, so the last "
            ),
        "{}",
        &reply.body[reply.body.len().saturating_sub(400)..]
    );
    let history = d.judge().history("flood").unwrap();
    let kept = history
        .iter()
        .filter(|h| h.body.contains("Spam, spam, spam."))
        .count();
    assert_eq!(
        kept, blocks,
        "every broadcast is kept in the game's history"
    );
}

/// Done when (issue 36): the attempt is counted before anything that can crash or hang
/// runs. `dipjudge process` is killed (SIGKILL) while it reads a 4 MB HTML mail, each
/// time once the attempt is in the database: after `max_message_attempts` such deaths the
/// next start sets the mail aside unread (its sender answered from its headers) and
/// answers the mail behind it. Before, the attempt was counted only after the MIME parser
/// and the HTML converter had run, so a mail that killed the judge while it was read was
/// tried forever.
#[test]
fn a_mail_whose_reading_is_killed_is_set_aside_on_a_later_start() {
    let mut s = Scratch::with_daemon_settings("killed-reading", "max_message_attempts = 2");
    let row = "<tr><td><p>Army Paris holds</p></td><td><div><b>ok</b></div></td></tr>\n";
    let html = format!(
        "<html><body><table>{}</table></body></html>",
        row.repeat(4 * 1024 * 1024 / row.len())
    );
    s.deliver(
        format!(
            "From: big@example.test\r\nTo: judge@example.test\r\nSubject: big\r\nMessage-ID: <big@x>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n"
        )
        .as_bytes(),
    );
    s.mail("honest@example.test", "behind@x", "VERSION");
    let attempts = |s: &Scratch| -> Option<i64> {
        let db = rusqlite::Connection::open_with_flags(
            s.database(),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .ok()?;
        db.query_row(
            "SELECT attempts FROM message_attempts WHERE key LIKE 'read:%'",
            [],
            |r| r.get(0),
        )
        .ok()
    };
    for kill in 1..=2 {
        let mut child = crate::scratch::process(&s.config_path(), t0(), &[])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        loop {
            if attempts(&s) == Some(kill) {
                child.kill().unwrap();
                break;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "pass {kill} ended before its attempt at reading the mail was counted"
            );
            assert!(started.elapsed() < std::time::Duration::from_secs(120));
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        child.wait().unwrap();
        assert!(s.sent().is_empty());
    }
    let (status, log, _) = crate::scratch::run_within(
        crate::scratch::process(&s.config_path(), t0(), &[]),
        std::time::Duration::from_secs(120),
    );
    assert!(status.success(), "{status}: {log}");
    let big = s.sent_to("big@example.test");
    assert_eq!(big.len(), 1, "{big:?}");
    assert!(
        big[0]
            .body
            .contains("failed on it 2 times, and has set it aside"),
        "{}",
        big[0].body
    );
    assert_eq!(s.rejected(), 1);
    assert_eq!(s.sent_to("honest@example.test").len(), 1);
    assert_eq!(
        attempts(&s),
        None,
        "the set-aside mail's attempts are forgotten"
    );
}

/// The scratch judge's configuration with mail sent through the test Postfix as `address`
/// (the envelope sender the server's fault block refuses or not), read from its Maildir.
fn smtp_config(s: &Scratch, address: &str) -> dipjudge::daemon::Config {
    let text = format!(
        r#"[judge]
name = "DIP"
address = "{address}"
database = "./var/judge.db"
password_cost = "test"
seed = 1901

[daemon]
reply_rate_limit = 100000

[inbound]
kind = "maildir"
path = "./var/inbox"

[outbound]
kind = "smtp"
host = "localhost"
port = {port}
tls = "starttls"
user = "judge@example.test"
password = "{password}"
root_certificate = "{ca}"
"#,
        port = crate::smtp_port(),
        password = crate::MAIL_PASSWORD,
        ca = crate::mail_ca().display(),
    );
    dipjudge::daemon::Config::parse(&text, &s.dir).unwrap()
}

/// Done when (issue 36): an SMTP outage loses no mail, on the real Postfix. For an hour of
/// passes the server answers every recipient 450 (the judge's address is the one the test
/// server's fault block refuses for now), then for another hour it answers 421 and drops
/// the connection; nothing is given up. Once the server takes the judge's mail, every
/// reply arrives in its recipient's mailbox exactly once.
#[test]
fn an_smtp_server_refusing_for_now_loses_no_mail() {
    needs_servers!();
    let mut s = Scratch::new("smtp-outage");
    let tag = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let to: Vec<String> = (0..4)
        .map(|i| format!("outage{i}-{}-{tag}@example.test", std::process::id()))
        .collect();
    for (i, a) in to.iter().enumerate() {
        s.mail(a, &format!("outage-{i}-{tag}@x"), "VERSION");
    }
    let mut now = t0();
    for refuser in ["tempfail-judge@example.test", "dropped-judge@example.test"] {
        let mut d = Daemon::open(smtp_config(&s, refuser), None).unwrap();
        for _ in 0..12 {
            let r = d.process_once(now).unwrap();
            assert_eq!((r.sent, r.given_up), (0, 0), "{refuser}: {r:?}");
            now += Duration::minutes(5);
        }
    }
    let mut d = Daemon::open(smtp_config(&s, "judge@example.test"), None).unwrap();
    let r = d.process_once(now).unwrap();
    assert_eq!((r.sent, r.given_up), (4, 0), "{r:?}");
    for a in &to {
        let got = mailbox(a, 1);
        assert_eq!(got.len(), 1, "{a}: {got:?}");
        assert!(got[0].contains("OK VERSION"), "{}", got[0]);
    }
}

/// The texts of the mail in `user`'s IMAP mailbox, once `n` have arrived (20 s at most),
/// and a little after, to see any more.
fn mailbox(user: &str, n: usize) -> Vec<String> {
    use dipjudge::mail::Inbox;
    use dipjudge::mail::inbound::imap::{ImapConfig, ImapInbox};
    let mut c = ImapConfig::new("localhost", crate::imaps_port(), user, crate::MAIL_PASSWORD);
    c.root_certificate = Some(crate::mail_ca());
    c.idle = false;
    let mut inbox = ImapInbox::new(c, None);
    let mut got = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut settled = None;
    loop {
        for m in inbox.fetch_new().unwrap_or_default() {
            let env = dipjudge::mail::Envelope::parse(&m.bytes).unwrap();
            got.push(env.text);
        }
        let now = std::time::Instant::now();
        if got.len() >= n && settled.is_none() {
            settled = Some(now + std::time::Duration::from_secs(1));
        }
        if settled.is_some_and(|t| now >= t) || now >= deadline {
            return got;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
