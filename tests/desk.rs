//! The judge's desk the mail tests share: a judge core on an in-memory store with a clock
//! and numbered Message-IDs ([`Desk`]), the mail handed to it and the reply read back, and a
//! standard game by mail on it ([`Table`]: a master, seven players, their sign-ons).
//!
//! A test module keeps only what is its own (its addresses, passwords and set-up words) in
//! a thin wrapper that dereferences to the shared desk or table, so its tests read
//! `t.now`, `t.judge`, `t.mail(…)` and `t.tick(…)` as before.

use chrono::{DateTime, Duration, TimeZone, Utc};
use dipjudge::game::{Game, Status};
use dipjudge::judge::{Handled, Incoming, Judge, JudgeConfig, PasswordCost};
use dipjudge::map::{Map, Power};
use dipjudge::rules::Owner;
use dipjudge::store::{QueuedMail, Store};

/// `Outer` reads as the desk or table in its field `inner` (`t.now`, `t.mail(…)`):
/// `desk::wraps!(Outer, inner: desk::Table);`.
macro_rules! wraps {
    ($outer:ty, $field:ident: $inner:ty) => {
        impl std::ops::Deref for $outer {
            type Target = $inner;
            fn deref(&self) -> &$inner {
                &self.$field
            }
        }

        impl std::ops::DerefMut for $outer {
            fn deref_mut(&mut self) -> &mut $inner {
                &mut self.$field
            }
        }
    };
}
pub(crate) use wraps;

/// The judge configuration of the tests: password hashing at its cheapest, the rest the
/// judge's defaults.
pub(crate) fn config() -> JudgeConfig {
    JudgeConfig {
        password_cost: PasswordCost::TEST,
        ..JudgeConfig::default()
    }
}

/// A judge with `config` on a new in-memory store.
pub(crate) fn judge(config: JudgeConfig) -> Judge {
    Judge::new(Store::open_in_memory().expect("store"), config).expect("judge")
}

/// A moment in UTC, to the minute.
pub(crate) fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0)
        .single()
        .expect("time")
}

/// A plain mail from `from` (its Message-ID `key`, its subject `subject`): no Reply-To, no
/// display name, not cut at the size cap.
pub(crate) fn incoming(key: &str, from: &str, subject: &str, body: &str) -> Incoming {
    Incoming {
        key: key.to_string(),
        message_id: Some(key.to_string()),
        from: from.to_string(),
        reply_to: None,
        from_name: None,
        subject: subject.into(),
        text: body.to_string(),
        size_capped: false,
    }
}

/// Hands the judge `msg` at `at`, whatever it makes of it; returns every mail it queued.
pub(crate) fn deliver(judge: &mut Judge, msg: &Incoming, at: DateTime<Utc>) -> Vec<QueuedMail> {
    let before = judge.all_mail().expect("mail").len();
    judge.handle(msg, at).expect("handled");
    judge.all_mail().expect("mail").split_off(before)
}

/// The body of the judge's reply to the mail whose Message-ID is `key` (empty when it sent
/// none).
pub(crate) fn reply(judge: &mut Judge, key: &str) -> String {
    judge
        .all_mail()
        .expect("mail")
        .into_iter()
        .rev()
        .find(|m| m.in_reply_to.as_deref() == Some(key))
        .map(|m| m.body)
        .unwrap_or_default()
}

/// Hands the judge `msg` at `at`, which it must apply.
pub(crate) fn applied(judge: &mut Judge, msg: &Incoming, at: DateTime<Utc>) {
    let h = judge.handle(msg, at).expect("handled");
    assert!(matches!(h, Handled::Applied { .. }), "{h:?}");
}

/// Hands the judge `msg` at `at`, which it must apply; returns the reply's body (empty when
/// the judge sent none).
pub(crate) fn apply(judge: &mut Judge, msg: &Incoming, at: DateTime<Utc>) -> String {
    applied(judge, msg, at);
    reply(judge, &msg.key)
}

/// Hands the judge one mail (`key` is its Message-ID, its subject `orders`) at `now`, which
/// it must apply; returns the reply's body (empty when the judge sent none).
pub(crate) fn send(
    judge: &mut Judge,
    key: &str,
    from: &str,
    body: &str,
    now: DateTime<Utc>,
) -> String {
    apply(judge, &incoming(key, from, "orders", body), now)
}

/// The code a confirmation reply asks to be mailed back (its `CONFIRM code` line).
pub(crate) fn confirmation_code(reply: &str) -> String {
    reply
        .lines()
        .find_map(|l| l.trim().strip_prefix("CONFIRM "))
        .unwrap_or_else(|| panic!("a confirmation: {reply}"))
        .to_string()
}

/// The code in a confirmation's subject (`DIP confirmation K7Q2MX4P`).
pub(crate) fn code_of(m: &QueuedMail) -> String {
    m.subject
        .strip_prefix("DIP confirmation ")
        .unwrap_or_else(|| panic!("no confirmation: {} {}", m.subject, m.body))
        .to_string()
}

/// Hold orders for every unit of `powers` in `g`, a line each (empty when they have none).
pub(crate) fn holds(map: &Map, g: &Game, powers: &[Power]) -> String {
    g.position()
        .units
        .iter()
        .filter(|u| powers.iter().any(|p| u.owner == Owner::Power(*p)))
        .map(|u| format!("{} H", u.display(map)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A judge on an in-memory store, its clock, and the mails the test hands it: the
/// Message-IDs are `<prefix-n@test>`, numbered from 1.
pub(crate) struct Desk {
    pub(crate) judge: Judge,
    pub(crate) map: &'static Map,
    /// The clock: every mail and tick happens at it.
    pub(crate) now: DateTime<Utc>,
    /// How many mails were handed to the judge.
    pub(crate) sent: u32,
    prefix: String,
    /// The subject of every mail (`orders` unless the test says).
    subject: String,
    /// How far the clock moves before each mail (nothing unless the test says).
    step: Duration,
}

impl Desk {
    /// A desk at `now` whose judge has the tests' [`config`].
    pub(crate) fn new(prefix: &str, now: DateTime<Utc>) -> Desk {
        Desk::with_config(prefix, now, config())
    }

    /// A desk at `now` whose judge has the tests' [`config`] with `seed`.
    pub(crate) fn with_seed(prefix: &str, now: DateTime<Utc>, seed: u64) -> Desk {
        Desk::with_config(prefix, now, JudgeConfig { seed, ..config() })
    }

    /// A desk at `now` whose judge has `config`.
    pub(crate) fn with_config(prefix: &str, now: DateTime<Utc>, config: JudgeConfig) -> Desk {
        Desk {
            judge: judge(config),
            map: Map::standard().expect("map"),
            now,
            sent: 0,
            prefix: prefix.to_string(),
            subject: "orders".into(),
            step: Duration::zero(),
        }
    }

    /// The clock moves by `step` before each mail.
    pub(crate) fn every(self, step: Duration) -> Desk {
        Desk { step, ..self }
    }

    /// Every mail has `subject`.
    pub(crate) fn subject(self, subject: &str) -> Desk {
        Desk {
            subject: subject.to_string(),
            ..self
        }
    }

    /// The Message-ID of the mail handed last.
    pub(crate) fn last_key(&self) -> String {
        format!("<{}-{}@test>", self.prefix, self.sent)
    }

    /// One mail from `from`; the reply's body.
    pub(crate) fn mail(&mut self, from: &str, body: &str) -> String {
        self.mail_named(from, None, body)
    }

    /// One mail from `from` (with its `From:` display name, if any); the reply's body.
    pub(crate) fn mail_named(&mut self, from: &str, name: Option<&str>, body: &str) -> String {
        self.sent += 1;
        self.now += self.step;
        let mut msg = incoming(&self.last_key(), from, &self.subject, body);
        msg.from_name = name.map(str::to_string);
        apply(&mut self.judge, &msg, self.now)
    }

    /// The clock moves to `at` and the judge's clock ticks.
    pub(crate) fn tick(&mut self, at: DateTime<Utc>) {
        self.now = at;
        self.judge.tick(at).expect("tick");
    }

    /// The game `name`, which must exist.
    pub(crate) fn game_named(&mut self, name: &str) -> Game {
        self.judge.game(name).expect("load").expect("game exists")
    }

    /// Every mail the judge queued, in order.
    pub(crate) fn mails(&mut self) -> Vec<QueuedMail> {
        self.judge.all_mail().expect("mail")
    }

    /// The mails queued since mail number `since` was.
    pub(crate) fn mails_since(&mut self, since: usize) -> Vec<QueuedMail> {
        self.mails().into_iter().skip(since).collect()
    }
}

/// The master's password in the games the tests create by mail.
pub(crate) const MASTER_PASSWORD: &str = "gmpass-01";

/// A power's password in the games the tests create by mail.
pub(crate) fn password(p: Power) -> String {
    format!("password-{}", p.code().to_lowercase())
}

/// A standard game by mail on a [`Desk`]: its name (also the Message-IDs' prefix), its
/// master, and who plays each power; sign-ons as the master or as a power.
pub(crate) struct Table {
    desk: Desk,
    pub(crate) name: String,
    master: String,
    master_name: Option<String>,
    address: Box<dyn Fn(Power) -> String>,
    display_name: Option<fn(Power) -> String>,
}

impl Table {
    /// The game `name` on `desk`, its master at `master`, each power played from
    /// `address(power)`.
    pub(crate) fn new(
        desk: Desk,
        name: &str,
        master: &str,
        address: impl Fn(Power) -> String + 'static,
    ) -> Table {
        Table {
            desk,
            name: name.to_string(),
            master: master.to_string(),
            master_name: None,
            address: Box::new(address),
            display_name: None,
        }
    }

    /// The master's and the players' mails carry display names in `From:`.
    pub(crate) fn named(self, master: &str, player: fn(Power) -> String) -> Table {
        Table {
            master_name: Some(master.to_string()),
            display_name: Some(player),
            ..self
        }
    }

    /// Where `p`'s player writes from.
    pub(crate) fn address(&self, p: Power) -> String {
        (self.address)(p)
    }

    /// A mail from `p`'s player (with its display name, if the table has them).
    pub(crate) fn mail_from(&mut self, p: Power, body: &str) -> String {
        let from = self.address(p);
        let name = self.display_name.map(|f| f(p));
        self.desk.mail_named(&from, name.as_deref(), body)
    }

    /// A mail from the master (with its display name, if the table has one).
    pub(crate) fn mail_from_master(&mut self, body: &str) -> String {
        let from = self.master.clone();
        let name = self.master_name.clone();
        self.desk.mail_named(&from, name.as_deref(), body)
    }

    /// `lines` signed on as `p`.
    pub(crate) fn as_power(&mut self, p: Power, lines: &str) -> String {
        let body = format!(
            "SIGNON {}{} {}\n{lines}",
            p.initial(),
            self.name,
            password(p)
        );
        self.mail_from(p, &body)
    }

    /// `lines` signed on as the master.
    pub(crate) fn as_master(&mut self, lines: &str) -> String {
        let body = format!("SIGNON M{} {MASTER_PASSWORD}\n{lines}", self.name);
        self.mail_from_master(&body)
    }

    /// The game, which must exist.
    pub(crate) fn game(&mut self) -> Game {
        let name = self.name.clone();
        self.desk.game_named(&name)
    }

    /// The master's CREATE, `tail` right after its password (options, further lines); the
    /// reply.
    pub(crate) fn create(&mut self, tail: &str) -> String {
        let body = format!("CREATE ?{} {MASTER_PASSWORD}{tail}", self.name);
        let r = self.mail_from_master(&body);
        assert!(r.starts_with("OK CREATE"), "{r}");
        r
    }

    /// `p`'s player joins, preferring `p`.
    pub(crate) fn join(&mut self, p: Power) {
        let body = format!(
            "SIGNON ?{} {}\nSET PREFERENCE {}",
            self.name,
            password(p),
            p.name()
        );
        let r = self.mail_from(p, &body);
        assert!(!r.contains("ERROR"), "{r}");
    }

    /// Seven players join, each preferring its power: the game starts.
    pub(crate) fn seat_all(&mut self) {
        for p in Power::ALL {
            self.join(p);
        }
        assert_eq!(*self.game().status(), Status::Active);
    }

    /// CREATE and seven players: a running game.
    pub(crate) fn start(&mut self) {
        self.create("");
        self.seat_all();
    }
}

wraps!(Table, desk: Desk);
