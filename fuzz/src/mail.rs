//! The `mail` fuzz target's checks, shared with the replay test (`tests/fuzz_replay.rs`
//! includes this file by path), so a crasher kept under `fixtures/fuzz/mail/` is replayed
//! through exactly the checks that found it.
//!
//! One input is one raw mail taken the daemon's way: MIME parsing with the daemon's default
//! limits, the loop guard, then the judge's `handle` on a database holding four games set
//! up once by mail (see [`GAMES`]), put back as it was after each input. Every input must
//! end one of four ways, and [`check`] says which: rejected as unparsable (with the parser's
//! reason), silenced by the guard (recorded, with the guard's reason), a duplicate of a
//! message seen before (a set-up mail's Message-ID), or answered (a reply queued to its
//! reply address).
//! Every mail the judge queued must render, and read back, must be silenced by the guard:
//! the judge must never answer itself.

use std::time::{Duration, UNIX_EPOCH};

use chrono::{DateTime, TimeZone, Utc};
use dipjudge::daemon::config::DaemonSection;
use dipjudge::game::SeatRef;
use dipjudge::judge::{Handled, Incoming, Judge, JudgeConfig, PasswordCost};
use dipjudge::mail::{
    Envelope, EnvelopeError, ParseLimits, RenderError, Silence, render, silence_reason,
    silence_reason_for,
};
use dipjudge::map::Power;
use dipjudge::store::Store;

/// The master of every game, and the master's password.
pub const MASTER: (&str, &str) = ("gm@example.test", "gmpass");

/// The players: address and password. All seven play `demo`, `ir` and `sur`; the first
/// three have joined `open`.
pub const PLAYERS: [(&str, &str); 7] = [
    ("p1@example.test", "pw1"),
    ("p2@example.test", "pw2"),
    ("p3@example.test", "pw3"),
    ("p4@example.test", "pw4"),
    ("p5@example.test", "pw5"),
    ("p6@example.test", "pw6"),
    ("p7@example.test", "pw7"),
];

/// The games every input meets: (name, CREATE's rule set and options, players who joined).
pub const GAMES: [(&str, &str, usize); 4] = [
    ("demo", "", 7),
    ("ir", " internationalrelations", 7),
    ("sur", " surrender", 7),
    ("open", "", 3),
];

/// The time the games were set up, and the time every input arrives (the first deadline
/// is three days after the set-up).
fn setup_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 10, 0, 0)
        .single()
        .unwrap_or_default()
}

pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 12, 0, 0)
        .single()
        .unwrap_or_default()
}

fn config() -> JudgeConfig {
    JudgeConfig {
        password_cost: PasswordCost::TEST,
        // The master creates every game of the set-up.
        games_per_day: 10,
        ..JudgeConfig::default()
    }
}

/// The parse limits the daemon uses by default (`judge.toml`'s `[daemon]`).
pub fn limits() -> ParseLimits {
    let d = DaemonSection::default();
    ParseLimits {
        max_text_bytes: d.max_text_bytes,
        max_message_bytes: d.max_message_bytes,
    }
}

/// One judge per thread, kept between inputs, on a named in-memory database that
/// `keeper` also holds open (shared cache): after an input, `keeper` puts every table back
/// as it was after the set-up, which costs a few tens of microseconds where a fresh
/// database with the games installed costs half a millisecond (the schema's migrations).
struct Bench {
    judge: Judge,
    keeper: rusqlite::Connection,
    /// The statement that puts the tables back.
    reset: &'static str,
    /// Whether the judge has touched the database since the last reset.
    dirty: bool,
}

impl Bench {
    fn new() -> Bench {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static DATABASES: AtomicUsize = AtomicUsize::new(0);
        let n = DATABASES.fetch_add(1, Ordering::Relaxed);
        let uri = format!(
            "file:dipjudge-fuzz-{}-{n}?mode=memory&cache=shared",
            std::process::id()
        );
        // The keeper opens the database first and holds it for the bench's life (a named
        // in-memory database lives while a connection to it is open).
        let keeper = rusqlite::Connection::open(&uri).expect("in-memory database");
        let store = Store::open(std::path::Path::new(&uri)).expect("store");
        let mut judge = Judge::new(store, config()).expect("judge");
        set_up(&mut judge);
        // The set-up's own replies are not any input's.
        keeper
            .execute_batch("DELETE FROM outbox")
            .expect("outbox emptied");
        let tables: Vec<String> = keeper
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .and_then(|mut st| {
                st.query_map([], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()
            })
            .expect("tables listed");
        keeper
            .execute_batch("ATTACH DATABASE ':memory:' AS saved")
            .expect("attached");
        let mut reset = Vec::new();
        for t in &tables {
            keeper
                .execute_batch(&format!(
                    "CREATE TABLE saved.\"{t}\" AS SELECT * FROM main.\"{t}\""
                ))
                .expect("table saved");
            reset.push(format!("DELETE FROM main.\"{t}\""));
            reset.push(format!(
                "INSERT INTO main.\"{t}\" SELECT * FROM saved.\"{t}\""
            ));
        }
        // Every table put back by one statement: an insert into a view of the keeper's own
        // (temporary) schema whose trigger runs them all. A statement has a fixed cost of
        // its own (about a microsecond): one instead of sixteen took the reset from 35 to
        // 27 microseconds.
        keeper
            .execute_batch(&format!(
                "CREATE TEMP VIEW put_back AS SELECT 1 AS x;
                 CREATE TEMP TRIGGER put_back_all INSTEAD OF INSERT ON put_back BEGIN {}; END;",
                reset.join("; ")
            ))
            .expect("reset trigger");
        Bench {
            judge,
            keeper,
            reset: "INSERT INTO temp.put_back VALUES (1)",
            dirty: false,
        }
    }

    /// The judge, on the database as it was after the set-up.
    fn judge(&mut self) -> &mut Judge {
        if self.dirty {
            self.keeper
                .prepare_cached(self.reset)
                .and_then(|mut st| st.execute([]))
                .expect("tables put back");
        }
        self.dirty = true;
        &mut self.judge
    }
}

/// Creates the games by mail: each master's CREATE and each player's SIGNON.
fn set_up(judge: &mut Judge) {
    let mut n = 0;
    let mut send = |judge: &mut Judge, from: &str, text: String| {
        n += 1;
        let key = format!("setup-{n}@example.test");
        let msg = Incoming {
            key: key.clone(),
            message_id: Some(key),
            from: from.to_string(),
            reply_to: None,
            from_name: None,
            subject: "setup".to_string(),
            text,
            size_capped: false,
        };
        judge
            .handle(&msg, setup_time())
            .expect("set-up mail handled");
    };
    // The games are made by mail with passwords long enough for new seats; the seats then
    // take the short passwords the corpus was written with (`gmpass`, `pw1`...), which
    // still sign on.
    let long = |pw: &str| format!("{pw}-setup-password");
    for (name, rules, joined) in GAMES {
        send(
            judge,
            MASTER.0,
            format!("CREATE ?{name} {}{rules}", long(MASTER.1)),
        );
        for (addr, pw) in PLAYERS.iter().take(joined) {
            send(judge, addr, format!("SIGNON ?{name} {}", long(pw)));
        }
    }
    let hash = |pw: &str| dipjudge::judge::hash_password(PasswordCost::TEST, pw, 1);
    let password_of = |addr: &str| {
        PLAYERS
            .iter()
            .find(|(a, _)| *a == addr)
            .map_or("", |(_, pw)| *pw)
    };
    for (name, _, joined) in GAMES {
        let mut g = judge.game(name).expect("read").expect("the game exists");
        assert_eq!(g.is_active(), joined == 7, "{name}: {:?}", g.status());
        g.set_seat_password(SeatRef::Master(0), &hash(MASTER.1))
            .expect("the master's seat");
        let players: Vec<(Power, String)> = g
            .players()
            .iter()
            .map(|p| (p.power, p.seat.address.clone()))
            .collect();
        for (power, address) in players {
            g.set_seat_password(SeatRef::Power(power), &hash(password_of(&address)))
                .expect("a player's seat");
        }
        let joiners: Vec<String> = g.joiners().iter().map(|j| j.seat.address.clone()).collect();
        for address in joiners {
            g.set_joiner_password(&address, &hash(password_of(&address)))
                .expect("a joiner's seat");
        }
        judge.install_game(&g).expect("seats installed");
    }
}

thread_local! {
    static BENCH: std::cell::RefCell<Option<Bench>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` on this thread's judge, reset to the games as set up.
fn with_judge<T>(f: impl FnOnce(&mut Judge) -> T) -> T {
    BENCH.with(|b| {
        let mut b = b.borrow_mut();
        f(b.get_or_insert_with(Bench::new).judge())
    })
}

/// Which power each player plays in each running game, for seed mails:
/// `(game, power name, address, password)`.
pub fn seats() -> Vec<(String, String, String, String)> {
    with_judge(|judge| {
        let mut out = Vec::new();
        for (name, _, _) in GAMES {
            let g = judge.game(name).expect("read").expect("the game exists");
            for p in g.players() {
                let pw = PLAYERS
                    .iter()
                    .find(|(a, _)| *a == p.seat.address)
                    .map(|(_, pw)| pw.to_string())
                    .unwrap_or_default();
                out.push((
                    g.name().to_string(),
                    format!("{:?}", p.power),
                    p.seat.address.clone(),
                    pw,
                ));
            }
        }
        out
    })
}

/// How one input ended.
#[derive(Debug)]
pub enum Outcome {
    /// Not a mail the daemon can read: rejected, with why.
    Rejected(EnvelopeError),
    /// The loop guard's reason not to answer (recorded under the message's key).
    Silenced(Silence),
    /// Handled: this many mails were queued, one of them the reply.
    Answered { queued: usize, reply: String },
    /// Its key (Message-ID) was seen before (a set-up mail's): nothing done.
    Duplicate,
}

/// Takes one raw mail the daemon's way and checks that it ends in a reply or a drop with a
/// reason, and that nothing the judge queued would be answered if it came back.
pub fn check(raw: &[u8]) -> Outcome {
    let env = match Envelope::parse_with(raw, limits()) {
        Ok(env) => env,
        Err(e) => return Outcome::Rejected(e),
    };
    let incoming = dipjudge::mail::incoming(&env);
    with_judge(|judge| {
        if let Some(why) = silence_reason_for(&env, &judge.config().address.clone()) {
            let first = judge
                .record_unhandled(&incoming, &format!("silenced: {why}"), now())
                .expect("a silenced message is recorded");
            return if first {
                Outcome::Silenced(why)
            } else {
                Outcome::Duplicate
            };
        }
        let handled = judge
            .handle(&incoming, now())
            .unwrap_or_else(|e| panic!("the judge failed on a mail: {e}"));
        let Handled::Applied { queued, .. } = handled else {
            return Outcome::Duplicate;
        };
        let mails = judge.queued_mail(usize::MAX).expect("outbox read");
        assert_eq!(mails.len(), queued, "queued mails counted");
        let reply = mails
            .iter()
            .find(|m| m.audience == dipjudge::store::Audience::Reply)
            .unwrap_or_else(|| panic!("no reply queued: {mails:?}"));
        assert_eq!(
            reply.recipient,
            incoming.reply_address(),
            "the reply's address"
        );
        for m in &mails {
            check_outgoing(&incoming, m);
        }
        Outcome::Answered {
            queued,
            reply: reply.body.clone(),
        }
    })
}

/// Renders a queued mail as the daemon does and reads it back: it must carry what makes
/// the guard silence it. A recipient the transport cannot address is the one mail that may
/// not render (the daemon gives such a mail up and tells the master).
fn check_outgoing(incoming: &Incoming, m: &dipjudge::store::QueuedMail) {
    let config = config();
    let ids = dipjudge::judge::MessageIds::new(&config.name, "example.test", b"fuzz key");
    let out = dipjudge::daemon::outgoing_mail(m, &config.address, &ids);
    let rendered = match render(&out, UNIX_EPOCH + Duration::from_secs(1_793_534_400)) {
        Ok(r) => r,
        Err(RenderError::Address { field: "To", .. })
            if m.recipient == incoming.reply_address() =>
        {
            return;
        }
        Err(e) => panic!("a queued mail does not render: {e}: {m:?}"),
    };
    let back = Envelope::parse(&rendered.bytes)
        .unwrap_or_else(|e| panic!("a rendered mail does not parse: {e}: {m:?}"));
    assert!(
        silence_reason(&back).is_some(),
        "the judge would answer its own mail: {m:?}"
    );
}
