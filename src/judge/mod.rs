//! The judge: one incoming message (or one instant of time) in, the state change and every
//! mail to send out, inside one SQLite transaction.
//!
//! [`Judge::handle`] records the message's key (a second copy is a no-op), reads its
//! commands, applies them to the games they name and queues the reply and any bulletins in
//! the outbox. [`Judge::tick`] processes the games whose deadlines have come, each in a
//! transaction of its own. Nothing is sent here and no clock is read: `now` is a parameter.
//!
//! A failure belongs to the game or the mail it came from: a panic inside the handling of
//! a mail or the tick of a game is caught and its transaction rolled back; a game whose
//! stored state cannot be read, or whose processing fails inside the judge, is suspended
//! and its master told once ([`Judge::unsuspend`] lifts it); a failure of the machine's (a
//! full disk) is only rolled back, to be tried again.

// No function of this floor passes 100 lines (clippy.toml sets the threshold): a long
// command or transition splits into its family's units.
#![warn(clippy::too_many_lines)]

mod addresses;
pub mod audience;
mod bounds;
mod chart;
mod commands;
mod confirm;
mod delivery;
mod export;
mod flood;
pub mod game_list;
pub mod history;
mod limits;
mod mailing;
mod password;
mod pictures;
mod process;
mod proof;
mod refusal;
mod seats;
mod session;
mod throttle;
pub mod weblinks;

use std::panic::{AssertUnwindSafe, catch_unwind};

use chrono::{DateTime, Utc};

use crate::bulletin::answers::reply_subject;
use crate::bulletin::listing;
use crate::bulletin::notices::{self, SuspensionCause};
use crate::map::Map;
use crate::store::{Audience, MailKind, NewMail, QueuedMail, Recorded, Store, StoreError};

pub use delivery::MessageIds;
pub use password::{PasswordCost, PasswordKey, hash as hash_password};
pub use pictures::MailPicture;

/// The judge's identity and defaults (from `judge.toml`).
#[derive(Clone, Debug)]
pub struct JudgeConfig {
    /// The judge's short name, in subjects and bulletins: `DIP`.
    pub name: String,
    /// The judge's mail address.
    pub address: String,
    /// The seed for salts and power assignment (the CLI passes randomness; tests a
    /// constant).
    pub seed: u64,
    pub password_cost: PasswordCost,
    /// Remember verified passwords (as keyed MACs, `password::Verified`), so a player's
    /// next mail skips the argon2 verify.
    pub remember_passwords: bool,
    /// The judge's secret for those MACs (`<database>.secret`): with it they are kept in
    /// the database and outlive the process (a `process` from cron pays argon2id once a
    /// seat, not once a pass); without, in the process's memory.
    pub password_key: Option<PasswordKey>,
    /// Whether results carry a picture of the phase for an address that made no choice of
    /// its own (`SET MAP ON|OFF`).
    pub maps: bool,
    /// Games one address may create in 24 hours.
    pub games_per_day: u32,
    /// Games all the addresses that never answered a confirmation may create together in
    /// 24 hours.
    pub unproven_games_per_day: u32,
    /// Default deadline settings for new games.
    pub deadlines: crate::game::DeadlineSettings,
    /// Default time zone for new games.
    pub time_zone: String,
    /// The rule sets this judge runs (all of [`crate::variant::ALL`]; tests add their own).
    pub variants: crate::variant::Registry,
    /// Where the web view is reached (`[web] base_url`): results and notices to a seat
    /// carry a link to its private page. None: no links.
    pub web_base_url: Option<String>,
}

impl Default for JudgeConfig {
    fn default() -> Self {
        JudgeConfig {
            name: "DIP".to_string(),
            address: "judge@example.test".to_string(),
            seed: 1901,
            password_cost: PasswordCost::default(),
            remember_passwords: true,
            password_key: None,
            maps: false,
            games_per_day: 3,
            unproven_games_per_day: 20,
            deadlines: crate::game::DeadlineSettings::default(),
            time_zone: "UTC".to_string(),
            variants: crate::variant::Registry::default(),
            web_base_url: None,
        }
    }
}

/// One incoming message, as the mail layer hands it over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// The Message-ID, or a fallback key when the mail had none.
    pub key: String,
    /// The Message-ID as sent (for In-Reply-To), if any.
    pub message_id: Option<String>,
    pub from: String,
    pub reply_to: Option<String>,
    /// The display name in `From:`, if any (kept for the game's master, and for everyone
    /// when the players are revealed).
    pub from_name: Option<String>,
    pub subject: String,
    pub text: String,
    /// The body was cut at the size cap.
    pub size_capped: bool,
}

impl Incoming {
    /// Where replies go: Reply-To, else From.
    pub fn reply_address(&self) -> &str {
        self.reply_to.as_deref().unwrap_or(&self.from)
    }
}

/// What handling a message did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Handled {
    /// Applied: the games it touched, how many command lines it had, how many mails were
    /// queued.
    Applied {
        queued: usize,
        games: Vec<String>,
        commands: usize,
    },
    /// The same key was handled before: nothing done.
    Duplicate,
}

/// Why a mail is answered unread ([`Judge::answer_unread`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unread {
    /// Over the size limit: `size` bytes, the limit `limit` (only its header block was
    /// fetched).
    Oversize { size: u64, limit: u64 },
    /// Over a bound on reading one mail.
    TooBig(notices::TooBig),
}

/// A recipient a delivery report says the judge's mail could not reach, for good.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounced {
    /// The address that failed.
    pub recipient: String,
    /// The failure, as a person reads it.
    pub reason: String,
    /// The outbox mail that failed, when the report names one the judge made (its
    /// Message-ID, `MessageIds::outbox_of`); a failure without one marks nobody.
    pub mail: Option<i64>,
}

/// What a tick did, game by game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// Games whose deadline event was acted on.
    pub acted: usize,
    /// Games whose tick failed for a reason of the machine's (a full disk, a busy or broken
    /// database): rolled back, tried again at the next tick.
    pub failed: usize,
    /// Games suspended now: they could not be read or processed.
    pub suspended: Vec<String>,
}

/// The words of a panic's payload, for the log.
fn panic_words(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Why a game is suspended: its state cannot be read, or processing it failed (the details,
/// which may quote the stored state, go to the operator's log only).
fn suspension_cause(e: &JudgeError) -> SuspensionCause {
    match e {
        JudgeError::Store(StoreError::Corrupt { .. }) => SuspensionCause::Unreadable,
        _ => SuspensionCause::Failed,
    }
}

/// A system failure (never a player's mistake: those are replies).
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the standard map does not load: {0}")]
    Map(String),
    #[error("a phase's picture cannot be rendered: {0}")]
    Picture(#[from] crate::picture::PictureError),
    /// The judge's own code panicked (a bug; a rule set's hook): caught, the transaction
    /// rolled back.
    #[error("the judge failed inside (a panic: {0})")]
    Panic(String),
}

impl JudgeError {
    /// Whether the failure is the machine's (see [`StoreError::is_environmental`]).
    pub fn is_environmental(&self) -> bool {
        matches!(self, JudgeError::Store(e) if e.is_environmental())
    }
}

/// A notice to the master (`master`) of `game`.
fn to_master(game: &str, master: String, notice: notices::Notice) -> NewMail {
    NewMail {
        game: Some(game.to_string()),
        audience: Audience::MASTER,
        recipient: master,
        subject: notice.subject,
        body: notice.body,
        kind: MailKind::Generated,
        in_reply_to: None,
        pictures: Vec::new(),
    }
}

/// After mail `id` is sent or given up: the pictures kept for mails that no queued mail
/// names any more go.
fn drop_unsent_pictures(tx: &crate::store::Tx<'_>, id: i64) -> Result<(), StoreError> {
    let Some(m) = tx.mail(id)? else {
        return Ok(());
    };
    let mut games: Vec<&str> = m
        .pictures
        .iter()
        .filter(|n| n.contains('@'))
        .filter_map(|n| n.split_once('/').map(|(g, _)| g))
        .collect();
    games.sort_unstable();
    games.dedup();
    for g in games {
        tx.drop_unsent_scenes(g)?;
    }
    Ok(())
}

/// The judge over one database.
pub struct Judge {
    map: &'static Map,
    store: Store,
    config: JudgeConfig,
    /// Passwords verified by this process (a MAC each; see `password::Verified`).
    verified: password::Verified,
    /// The last pictures drawn for mails.
    pictures: pictures::Cache,
}

impl Judge {
    pub fn new(mut store: Store, config: JudgeConfig) -> Result<Judge, JudgeError> {
        store.set_variants(config.variants.clone());
        // The list of games reads the summaries (a judge upgraded over an old database
        // renders them now, once); one that cannot be written now is read whole instead.
        match store.set_summariser(game_list::SUMMARISER) {
            Ok(0) => {}
            Ok(n) => tracing::info!(games = n, "the games' summaries were rendered again"),
            Err(e) => {
                tracing::warn!(error = %e, "the games' summaries cannot be rendered now; the list reads those games whole")
            }
        }
        let map = Map::standard().map_err(|e| JudgeError::Map(e.to_string()))?;
        let verified = match (config.remember_passwords, config.password_key) {
            (true, Some(key)) => password::Verified::persistent(key),
            (true, None) => password::Verified::from_os(),
            (false, _) => password::Verified::new(None),
        };
        Ok(Judge {
            map,
            store,
            config,
            verified,
            pictures: pictures::Cache::default(),
        })
    }

    pub fn config(&self) -> &JudgeConfig {
        &self.config
    }

    /// How many passwords this judge has checked since it started (the sign-on throttle
    /// bounds them per seat).
    pub fn password_checks(&self) -> u64 {
        self.verified.checks()
    }

    /// Of those, how many argon2id decided (the others were proven before: in this
    /// process, or in the database under the judge's secret).
    pub fn argon2_checks(&self) -> u64 {
        self.verified.argon2_checks()
    }

    /// The database (fault-injection tests set write faults and a page limit on it).
    #[doc(hidden)]
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Counts an attempt to handle `msg`, in a transaction of its own, before the judge
    /// reads it; returns the count. A mail that fails, panics or kills the judge each time
    /// is set aside after a bound ([`Judge::set_aside`]), never retried forever.
    pub fn begin_attempt(&mut self, msg: &Incoming) -> Result<i64, JudgeError> {
        Ok(self
            .store
            .transaction(|tx| tx.bump_message_attempts(&msg.key))?)
    }

    /// Takes back the attempt counted for `msg` (its failure was the machine's, not the
    /// mail's).
    pub fn forgive_attempt(&mut self, msg: &Incoming) -> Result<(), JudgeError> {
        Ok(self
            .store
            .transaction(|tx| tx.forgive_message_attempt(&msg.key))?)
    }

    /// Counts an attempt to read a raw mail (`key`: [`reading_key`]), in a transaction of
    /// its own, before anything reads it: a mail that crashes or hangs the reading is
    /// counted too, and set aside after its attempts. Returns the count.
    pub fn begin_reading(&mut self, key: &str) -> Result<i64, JudgeError> {
        Ok(self.store.transaction(|tx| tx.bump_message_attempts(key))?)
    }

    /// The mail read under `key` is `msg`: its reading attempts become attempts at `msg`
    /// (one transaction), which are counted from then on as [`Judge::begin_attempt`]
    /// counts them. Returns the attempts at `msg`, this one included.
    pub fn begin_attempt_read(&mut self, key: &str, msg: &Incoming) -> Result<i64, JudgeError> {
        Ok(self.store.transaction(|tx| {
            let read = tx.take_message_attempts(key)?.max(1);
            tx.add_message_attempts(&msg.key, read)
        })?)
    }

    /// Forgets the reading attempts of the mail read under `key` (it was filed away, or
    /// set aside).
    pub fn end_reading(&mut self, key: &str) -> Result<(), JudgeError> {
        Ok(self
            .store
            .transaction(|tx| tx.clear_message_attempts(key))?)
    }

    /// Takes back the last reading attempt counted under `key` (the mail was left for a
    /// later pass without being tried).
    pub fn forgive_reading(&mut self, key: &str) -> Result<(), JudgeError> {
        Ok(self
            .store
            .transaction(|tx| tx.forgive_message_attempt(key))?)
    }

    /// Handles one message in one transaction. A game the message names whose stored state
    /// cannot be read is suspended (its master told once) and the message is handled again,
    /// to be answered that the game is suspended. A panic inside the handling is caught:
    /// the transaction is rolled back and it is an error like any other.
    pub fn handle(&mut self, msg: &Incoming, now: DateTime<Utc>) -> Result<Handled, JudgeError> {
        // Each round suspends one more game; a mail names few.
        for _ in 0..4 {
            match self.handle_once(msg, now) {
                Err(JudgeError::Store(e @ StoreError::Corrupt { .. })) => {
                    let game = e.game().unwrap_or_default().to_string();
                    tracing::error!(%game, error = %e, key = %msg.key, "a game the mail reads cannot be read");
                    self.suspend(&game, &JudgeError::Store(e), now)?;
                }
                other => return other,
            }
        }
        self.handle_once(msg, now)
    }

    fn handle_once(&mut self, msg: &Incoming, now: DateTime<Utc>) -> Result<Handled, JudgeError> {
        let map = self.map;
        let config = &self.config;
        let verified = &mut self.verified;
        let store = &mut self.store;
        let run = AssertUnwindSafe(|| {
            store.transaction(|tx| {
                let recorded =
                    tx.record_message(&msg.key, msg.message_id.as_deref(), now, &msg.from, None)?;
                tx.clear_message_attempts(&msg.key)?;
                let Recorded::New { reused_id } = recorded else {
                    tracing::info!(key = %msg.key, from = %msg.from, "duplicate message ignored");
                    return Ok(Handled::Duplicate);
                };
                verified.begin(now);
                let before = tx.last_mail_id()?;
                let mut s = session::Session::new(map, config, verified, tx, msg, now);
                if reused_id {
                    s.note_reused_id();
                }
                s.run()?;
                let commands = s.command_count();
                let (queued, games) = s.finish()?;
                // A proof of a password that could not be read or kept: the transaction may
                // have ended with the failed statement, so nothing of it stands.
                if let Some(e) = verified.take_failure() {
                    return Err(e.into());
                }
                let dropped = flood::cap(tx, before, msg)?;
                tx.set_origin_after(before, &msg.from)?;
                Ok(Handled::Applied {
                    queued: queued.saturating_sub(dropped),
                    games,
                    commands,
                })
            })
        });
        catch_unwind(run).unwrap_or_else(|payload| {
            let words = panic_words(payload.as_ref());
            tracing::error!(key = %msg.key, from = %msg.from, panic = %words, "handling a mail panicked; its transaction is rolled back");
            Err(JudgeError::Panic(words))
        })
    }

    /// Sets a mail aside after `attempts` failed attempts to handle it: its key is recorded
    /// (a copy is a no-op), nothing in it is applied, its sender is answered that it was set
    /// aside, and the master of the game its SIGNON names is told.
    pub fn set_aside(
        &mut self,
        msg: &Incoming,
        attempts: i64,
        now: DateTime<Utc>,
    ) -> Result<(), JudgeError> {
        let (map, judge) = (self.map, self.config.name.clone());
        let any = self.config.variants.any_grammar();
        let cx = crate::command::ParseContext {
            phase: None,
            grammar: Some(&any),
        };
        // The game its SIGNON names, read as the session reads it; if reading the mail is
        // what panics, it names none (the closure only reads, so nothing is left half
        // changed by a panic).
        let game = catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::command::parse_until_signon(&msg.text, map, &cx, 0)
                .into_iter()
                .find_map(|l| match l.outcome {
                    Ok(crate::command::Command::Player(
                        crate::command::PlayerCommand::Signon { game, .. },
                    )) => Some(game.to_string()),
                    _ => None,
                })
        }))
        .unwrap_or(None);
        Ok(self.store.transaction(|tx| {
            let outcome = notices::set_aside_outcome(attempts);
            if tx.record_message(
                &msg.key,
                msg.message_id.as_deref(),
                now,
                &msg.from,
                Some(&outcome),
            )? == Recorded::Duplicate
            {
                tx.clear_message_attempts(&msg.key)?;
                return Ok::<(), StoreError>(());
            }
            tx.clear_message_attempts(&msg.key)?;
            let master = match &game {
                Some(g) => tx.game_master(g)?,
                None => None,
            };
            let told = game.as_deref().filter(|_| master.is_some());
            let body = notices::set_aside_reply(attempts, told);
            tx.queue_mail(
                &NewMail {
                    game: None,
                    audience: Audience::Reply,
                    recipient: msg.reply_address().to_string(),
                    subject: reply_subject(&judge, &msg.subject),
                    body,
                    kind: MailKind::Replied,
                    in_reply_to: msg.message_id.clone(),
                    pictures: Vec::new(),
                },
                now,
            )?;
            if let (Some(g), Some(master)) = (game, master) {
                let notice =
                    notices::set_aside_master(&judge, &g, &msg.from, &msg.subject, attempts);
                tx.queue_mail(&to_master(&g, master, notice), now)?;
            }
            Ok(())
        })?)
    }

    /// Answers a mail the judge does not read (`why`) with one sentence: its key is recorded
    /// (a copy is a no-op) and its sender told, unless the mail guard silences it
    /// (`silenced`: why; the record says so and nobody is answered). The attempts counted
    /// while it was read (`reading`) are forgotten in the same transaction. False if it
    /// was seen before.
    pub fn answer_unread(
        &mut self,
        msg: &Incoming,
        why: Unread,
        silenced: Option<&str>,
        reading: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<bool, JudgeError> {
        let judge = self.config.name.clone();
        let (outcome, body) = match why {
            Unread::Oversize { size, limit } => (
                notices::oversize_outcome(size, limit),
                notices::oversize_reply(size, limit),
            ),
            Unread::TooBig(what) => (notices::too_big_outcome(what), notices::too_big_reply(what)),
        };
        Ok(self.store.transaction(|tx| {
            if let Some(key) = reading {
                tx.clear_message_attempts(key)?;
            }
            let outcome = match silenced {
                Some(reason) => notices::silenced_unread_outcome(reason, &outcome),
                None => outcome,
            };
            if tx.record_message(
                &msg.key,
                msg.message_id.as_deref(),
                now,
                &msg.from,
                Some(&outcome),
            )? == Recorded::Duplicate
            {
                return Ok::<bool, StoreError>(false);
            }
            if silenced.is_some() {
                return Ok(true);
            }
            let before = tx.last_mail_id()?;
            tx.queue_mail(
                &NewMail {
                    game: None,
                    audience: Audience::Reply,
                    recipient: msg.reply_address().to_string(),
                    subject: reply_subject(&judge, &msg.subject),
                    body,
                    kind: MailKind::Replied,
                    in_reply_to: msg.message_id.clone(),
                    pictures: Vec::new(),
                },
                now,
            )?;
            tx.set_origin_after(before, &msg.from)?;
            Ok(true)
        })?)
    }

    /// Suspends a game that cannot be read or processed (why: `error`) and tells its master,
    /// once. Nothing else stops: other games, the mail and the outbox go on.
    fn suspend(
        &mut self,
        game: &str,
        error: &JudgeError,
        now: DateTime<Utc>,
    ) -> Result<(), JudgeError> {
        let reason = suspension_cause(error).words();
        let judge = self.config.name.clone();
        tracing::error!(%game, error = %error, "game suspended: {reason}; lift the suspension with `dipjudge unsuspend {game}` once the cause is fixed");
        Ok(self.store.transaction(|tx| {
            let (now_suspended, master) = tx.suspend_game(game, reason)?;
            if !now_suspended {
                return Ok::<(), StoreError>(());
            }
            let Some(master) = master else {
                tracing::error!(%game, "the suspended game's master is not known: nobody but the operator is told");
                return Ok(());
            };
            let notice = notices::suspended(&judge, game, reason);
            tx.queue_mail(&to_master(game, master, notice), now)?;
            Ok(())
        })?)
    }

    /// Lifts a game's suspension (the operator fixed its cause): it plays on from its stored
    /// state, which must read. False if it was not suspended.
    pub fn unsuspend(&mut self, game: &str) -> Result<bool, JudgeError> {
        Ok(self.store.transaction(|tx| tx.unsuspend_game(game))?)
    }

    /// Processes every game whose deadline event has come; returns how many games acted.
    pub fn tick(&mut self, now: DateTime<Utc>) -> Result<usize, JudgeError> {
        Ok(self.tick_games(now)?.acted)
    }

    /// Processes every game whose deadline event has come, each in a transaction of its
    /// own: a game whose tick fails for the machine's reasons is rolled back and tried
    /// again at the next tick; a game that cannot be read or processed (its state does not
    /// read, a rule set's hook panics) is suspended and its master told once. Either way
    /// every other game is processed.
    pub fn tick_games(&mut self, now: DateTime<Utc>) -> Result<TickReport, JudgeError> {
        let (due, last_tick) = self.store.transaction(|tx| {
            let last_tick = tx
                .get_value("last_tick")?
                .as_deref()
                .and_then(crate::store::read_time);
            Ok::<_, StoreError>((tx.games_due(now)?, last_tick))
        })?;
        if let Some(last) = last_tick.filter(|last| now < *last) {
            tracing::warn!(
                now = %now,
                last_tick = %last,
                "the clock is behind the last tick: this pass changes no time later passes read"
            );
        }
        let mut report = TickReport::default();
        for name in due {
            let (map, config, store) = (self.map, &self.config, &mut self.store);
            let run = AssertUnwindSafe(|| {
                store.transaction(|tx| process::tick_game(map, config, tx, &name, now, last_tick))
            });
            let outcome = catch_unwind(run)
                .map_err(|payload| JudgeError::Panic(panic_words(payload.as_ref())))
                .and_then(|r| r.map_err(JudgeError::Store));
            let error = match outcome {
                Ok(acted) => {
                    report.acted += usize::from(acted);
                    continue;
                }
                // Suspended meanwhile: nothing to do.
                Err(JudgeError::Store(StoreError::Suspended { .. })) => continue,
                Err(e) if e.is_environmental() => {
                    tracing::error!(game = %name, error = %e, "the game's tick failed; it is tried again at the next tick");
                    report.failed += 1;
                    continue;
                }
                Err(e) => e,
            };
            match self.suspend(&name, &error, now) {
                Ok(()) => report.suspended.push(name),
                Err(e) => {
                    tracing::error!(game = %name, error = %e, "the game cannot be suspended now; it is tried again at the next tick");
                    report.failed += 1;
                }
            }
        }
        let config = &self.config;
        report.acted += self.store.transaction(|tx| {
            // Seats whose sign-on lock is over: their owners are told.
            let notices = throttle::notices(config, tx, now)?;
            for m in &notices {
                tx.queue_mail(m, now)?;
            }
            // A pass whose clock is behind the last tick leaves the last tick where it is:
            // moved back, it would make the next pass on a right clock see a time warp.
            let last = tx
                .get_value("last_tick")?
                .as_deref()
                .and_then(crate::store::read_time);
            if last.is_none_or(|last| now > last) {
                tx.set_value("last_tick", &crate::store::write_time(now))?;
            }
            // Proofs of passwords nobody used for long go (a changed password's, a finished
            // game's).
            if let Some(before) = now
                .date_naive()
                .checked_sub_days(chrono::Days::new(password::PROOF_DAYS.unsigned_abs()))
            {
                tx.forget_password_proofs(before)?;
            }
            Ok::<_, StoreError>(notices.len())
        })?;
        Ok(report)
    }

    /// Mail waiting to be sent, oldest first.
    pub fn queued_mail(&mut self, limit: usize) -> Result<Vec<QueuedMail>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.queued_mail(limit))?)
    }

    /// The picture of a phase of a game (None: the phase now open, drawn afresh): the
    /// phase's code and SVG, if there is one (`dipjudge map`).
    pub fn map_picture(
        &mut self,
        game: &str,
        phase: Option<crate::rules::Phase>,
        now: DateTime<Utc>,
    ) -> Result<Option<(String, String)>, JudgeError> {
        let (map, config) = (self.map, &self.config);
        Ok(self.store.transaction(|tx| {
            let Some(g) = tx.load_game(game)? else {
                return Ok::<_, StoreError>(None);
            };
            Ok(match process::picture_of(map, config, &g, phase, now)? {
                process::PhasePicture::Open { phase, drawing } => Some((phase, drawing.svg(map))),
                process::PhasePicture::Processed { phase } => {
                    pictures::phase_svg(map, tx, g.name(), &phase)?.map(|svg| (phase, svg))
                }
            })
        })?)
    }

    /// A game's record as JSON, as an outsider may read it (`dipjudge export`); None: no
    /// such game.
    pub fn export(&mut self, game: &str) -> Result<Option<String>, JudgeError> {
        let value = self.store.transaction(|tx| match tx.load_game(game)? {
            Some(g) => export::export(self.map, tx, &g).map(Some),
            None => Ok(None),
        })?;
        Ok(value.map(|v| serde_json::to_string_pretty(&v).unwrap_or_default()))
    }

    /// A game's centre chart as SVG (`dipjudge map --chart`); None: no such game.
    pub fn chart_svg(&mut self, game: &str) -> Result<Option<String>, JudgeError> {
        let chart = self.store.transaction(|tx| match tx.load_game(game)? {
            Some(g) => chart::centre_chart(tx, &g).map(Some),
            None => Ok(None),
        })?;
        Ok(chart.map(|c| crate::picture::Drawing::Chart(c).svg(self.map)))
    }

    /// A game's processed phases as one animated GIF, with its number of frames (`MAP game
    /// ALL`, `dipjudge map --all`); None when no phase has a picture.
    pub fn animation(&mut self, game: &str) -> Result<Option<(usize, Vec<u8>)>, JudgeError> {
        let frames = self
            .store
            .transaction(|tx| pictures::animation_frames(tx, game))?;
        Ok(frames.draw(self.map)?.map(|gif| (frames.len(), gif)))
    }

    /// The pictures a queued mail carries, drawn again from what was kept of them, in the
    /// mail's order. A picture that is gone (its game deleted) or cannot be drawn is left
    /// out with a warning: it never holds back the text.
    pub fn mail_pictures(&mut self, mail: &QueuedMail) -> Result<Vec<MailPicture>, JudgeError> {
        if mail.pictures.is_empty() {
            return Ok(Vec::new());
        }
        let map = self.map;
        let sources = self
            .store
            .transaction(|tx| pictures::sources(map, tx, mail))?;
        let mut out = Vec::new();
        for (source, name) in sources.iter().zip(&mail.pictures) {
            match pictures::draw(self.map, &mut self.pictures, source) {
                Ok(Some(p)) => out.push(p),
                Ok(None) => {
                    tracing::warn!(id = mail.id, picture = %name, "the mail's picture is gone")
                }
                Err(e) => tracing::warn!(
                    id = mail.id,
                    picture = %name,
                    error = %e,
                    "the mail goes without its picture"
                ),
            }
        }
        Ok(out)
    }

    /// Every mail ever queued (tests, goldens).
    pub fn all_mail(&mut self) -> Result<Vec<QueuedMail>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.all_mail())?)
    }

    pub fn mark_sent(&mut self, id: i64, now: DateTime<Utc>) -> Result<(), JudgeError> {
        Ok(self.store.transaction(|tx| {
            tx.mark_sent(id, now)?;
            drop_unsent_pictures(tx, id)
        })?)
    }

    /// Queued mail that may be tried at `now`, at most `limit`, in the order the queue
    /// drains ([`crate::store::FAIR_SHARE`]: no origin's backlog holds up the others).
    pub fn due_mail(
        &mut self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<QueuedMail>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.due_mail(now, limit))?)
    }

    /// The earliest instant a queued mail waiting for a later attempt may be tried.
    pub fn next_mail_attempt(&mut self) -> Result<Option<DateTime<Utc>>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.next_mail_attempt())?)
    }

    /// Records that the transport failed on mail `id` for now (`error`); with `retry`, it is
    /// tried again no sooner than `retry(attempts)`, else when the queue is. Returns its
    /// attempts and since when it has been failing.
    pub fn record_failed_attempt(
        &mut self,
        id: i64,
        now: DateTime<Utc>,
        error: &str,
        retry: Option<&dyn Fn(i64) -> DateTime<Utc>>,
    ) -> Result<(i64, DateTime<Utc>), JudgeError> {
        Ok(self
            .store
            .transaction(|tx| tx.record_failed_attempt(id, now, error, retry))?)
    }

    /// Tells each game's master, once, of its mail that has been failing since `before` or
    /// earlier (`until`: when the judge gives it up). Returns how many mails were reported.
    pub fn tell_of_delays(
        &mut self,
        before: DateTime<Utc>,
        until: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<usize, JudgeError> {
        let judge = self.config.name.clone();
        Ok(self.store.transaction(|tx| {
            let delayed = tx.delayed_untold(before)?;
            let mut games: Vec<&str> = delayed.iter().map(|d| d.game.as_str()).collect();
            games.sort_unstable();
            games.dedup();
            for game in games {
                let of: Vec<&crate::store::Delayed> =
                    delayed.iter().filter(|d| d.game == game).collect();
                let Some(last) = of.last() else {
                    continue;
                };
                if let Some(master) = tx.game_master(game)? {
                    let mut to: Vec<String> = of.iter().map(|d| d.recipient.clone()).collect();
                    to.sort();
                    to.dedup();
                    let since = of.iter().map(|d| d.failing_since).min().unwrap_or(now);
                    let notice = notices::mail_delayed(
                        &judge,
                        game,
                        of.len(),
                        &to,
                        since,
                        since + until,
                        &last.last_error,
                    );
                    tx.queue_mail(&to_master(game, master, notice), now)?;
                }
                for d in of {
                    tx.mark_delay_told(d.id)?;
                }
            }
            Ok::<usize, StoreError>(delayed.len())
        })?)
    }

    /// Marks a mail failed for good (not delivered after its attempts, or not renderable)
    /// and tells the master of its game once.
    pub fn mark_failed(
        &mut self,
        id: i64,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<(), JudgeError> {
        self.give_up(id, reason, false, now)
    }

    /// Marks a mail the mail server refused for good (a permanent SMTP failure): a seat of
    /// its game registered at its recipient is marked "mail bouncing" and its master told
    /// once ([`seats::mark_bouncing`]); for any other mail the master is told as for
    /// [`Judge::mark_failed`].
    pub fn mark_refused(
        &mut self,
        id: i64,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<(), JudgeError> {
        self.give_up(id, reason, true, now)
    }

    fn give_up(
        &mut self,
        id: i64,
        reason: &str,
        refused: bool,
        now: DateTime<Utc>,
    ) -> Result<(), JudgeError> {
        let config = &self.config;
        let judge = config.name.clone();
        Ok(self.store.transaction(|tx| {
            tx.mark_failed(id, reason)?;
            drop_unsent_pictures(tx, id)?;
            let Some(m) = tx.mail(id)? else {
                return Ok(());
            };
            let Some(game) = m.game.as_deref() else {
                return Ok(());
            };
            if refused
                && tx
                    .load_game(game)
                    .ok()
                    .flatten()
                    .is_some_and(|g| !g.seats_at(&m.recipient).is_empty())
            {
                // A seat's address: marked bouncing, its master told once (not a mail each).
                seats::mark_bouncing(config, tx, game, &m.recipient, reason, now)?;
                return Ok(());
            }
            if m.audience != Audience::MASTER
                && let Some(master) = tx.game_master(game)?
            {
                let notice = notices::undeliverable(&judge, game, &m.recipient, &m.subject, reason);
                tx.queue_mail(&to_master(game, master, notice), now)?;
            }
            Ok::<(), StoreError>(())
        })?)
    }

    /// Records a delivery report (`outcome`: why it is not answered) under its key and
    /// reads its permanent failures: a failure counts only when the report names a mail
    /// the judge sent to that very recipient (its Message-ID, `delivery`), and it marks
    /// that game's seats at the address bouncing (each master told once). A report that
    /// names no mail of the judge's, or one the judge did not send there, marks nobody:
    /// anyone can write a report, and a mark would tell who plays at an address. False if
    /// the report was seen before.
    pub fn record_bounce(
        &mut self,
        msg: &Incoming,
        outcome: &str,
        bounces: &[Bounced],
        now: DateTime<Utc>,
    ) -> Result<bool, JudgeError> {
        let config = &self.config;
        Ok(self.store.transaction(|tx| {
            let recorded = tx.record_message(
                &msg.key,
                msg.message_id.as_deref(),
                now,
                &msg.from,
                Some(outcome),
            )?;
            if recorded == Recorded::Duplicate {
                return Ok::<bool, StoreError>(false);
            }
            for b in bounces {
                let Some(id) = b.mail else {
                    tracing::info!(to = %b.recipient, "a delivery report names no mail of the judge's; ignored");
                    continue;
                };
                if !tx.was_sent_to(id, &b.recipient)? {
                    tracing::warn!(to = %b.recipient, mail = id, "a delivery report names a mail the judge did not send to that address; ignored");
                    continue;
                }
                if let Some(g) = tx.mail(id)?.and_then(|m| m.game) {
                    seats::mark_bouncing(config, tx, &g, &b.recipient, &b.reason, now)?;
                }
            }
            Ok(true)
        })?)
    }

    /// Records a pass of the daemon that ended at `at` and took `took` (`GET /health`,
    /// `GET /metrics`).
    pub fn record_pass(
        &mut self,
        at: DateTime<Utc>,
        took: std::time::Duration,
    ) -> Result<(), JudgeError> {
        Ok(self
            .store
            .transaction(|tx| tx.record_pass(at, took.as_secs_f64()))?)
    }

    /// The earliest deadline event of any game.
    pub fn next_event(&mut self) -> Result<Option<DateTime<Utc>>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.next_event())?)
    }

    /// A canonical dump of every game (the golden tests' `state.txt`); a suspended game is
    /// one line saying so.
    pub fn dump_state(&mut self) -> Result<String, JudgeError> {
        let map = self.map;
        Ok(self.store.transaction(|tx| {
            let mut out = String::new();
            for name in tx.game_names()? {
                match tx.load_game(&name) {
                    Ok(Some(g)) => out.push_str(&listing::dump_game(map, &g)),
                    Ok(None) => {}
                    Err(StoreError::Suspended { game, reason }) => {
                        out.push_str(&listing::dump_suspended(&game, &reason));
                    }
                    Err(e) => return Err(e),
                }
            }
            Ok::<String, StoreError>(out)
        })?)
    }

    /// Saves a game set up outside the mail (the case runner, tests), with a snapshot of
    /// its current phase. A game of that name is replaced.
    pub fn install_game(&mut self, game: &crate::game::Game) -> Result<(), JudgeError> {
        Ok(self.store.transaction(|tx| {
            tx.save_game(game)?;
            tx.save_snapshot(game)
        })?)
    }

    /// Processes a running game's current phase now, as the master's `PROCESS!` does
    /// (missing orders take the civil-disorder defaults), queuing every mail it makes;
    /// returns the adjudicator's outcome (None: no such game, or it is not running).
    pub fn process_now(
        &mut self,
        name: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<crate::rules::PhaseOutcome>, JudgeError> {
        let map = self.map;
        let config = &self.config;
        Ok(self.store.transaction(|tx| {
            let Some(mut g) = tx.load_game(name)? else {
                return Ok(None);
            };
            if *g.status() != crate::game::Status::Active {
                return Ok(None);
            }
            let (mails, outcome) =
                process::process_game_with_outcome(map, config, tx, &mut g, now)?;
            for m in &mails {
                tx.queue_mail(m, now)?;
            }
            tx.save_game(&g)?;
            Ok::<_, StoreError>(Some(outcome))
        })?)
    }

    /// A game as stored (read-only: changes go through messages).
    pub fn game(&mut self, name: &str) -> Result<Option<crate::game::Game>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.load_game(name))?)
    }

    /// A game's history as `viewer` may read it (the audience rule), oldest first.
    pub fn history_for(
        &mut self,
        name: &str,
        viewer: impl Fn(&crate::game::Game) -> audience::Viewer,
    ) -> Result<Vec<crate::store::HistoryEntry>, JudgeError> {
        Ok(self.store.transaction(|tx| {
            Ok::<_, StoreError>(match tx.load_game(name)? {
                Some(g) => audience::entries_for(&g, viewer(&g), tx.history(name)?),
                None => Vec::new(),
            })
        })?)
    }

    /// A game's history as anyone outside it may read it, oldest first.
    pub fn history(&mut self, name: &str) -> Result<Vec<crate::store::HistoryEntry>, JudgeError> {
        self.history_for(name, |_| audience::Viewer::Outsider)
    }

    /// Records a message the judge does not handle (the mail guard silenced it) under its
    /// key, with why; false if that key was seen before.
    pub fn record_unhandled(
        &mut self,
        msg: &Incoming,
        outcome: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, JudgeError> {
        Ok(self.store.transaction(|tx| {
            let recorded = tx.record_message(
                &msg.key,
                msg.message_id.as_deref(),
                now,
                &msg.from,
                Some(outcome),
            )?;
            Ok::<bool, StoreError>(recorded != Recorded::Duplicate)
        })?)
    }

    /// Recipients and times of the replies sent at or after `since` (the daemon's rate
    /// limiter reads them back after a restart).
    pub fn replies_sent_since(
        &mut self,
        since: DateTime<Utc>,
    ) -> Result<Vec<(String, DateTime<Utc>)>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.replies_sent_since(since))?)
    }

    /// How this judge names its mail (`delivery`): the daemon gives each mail its
    /// Message-ID and reads back the one a delivery report returns.
    pub fn message_ids(&mut self) -> Result<MessageIds, JudgeError> {
        let domain = self
            .config
            .address
            .rsplit_once('@')
            .map_or("localhost", |(_, d)| d)
            .to_string();
        let seed = self.config.seed;
        let key = self.store.transaction(|tx| confirm::judge_key(tx, seed))?;
        Ok(MessageIds::new(&self.config.name, &domain, &key))
    }

    /// A judge-wide stored value (the daemon keeps its IMAP cursor here).
    pub fn get_value(&mut self, key: &str) -> Result<Option<String>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.get_value(key))?)
    }

    pub fn set_value(&mut self, key: &str, value: &str) -> Result<(), JudgeError> {
        Ok(self.store.transaction(|tx| tx.set_value(key, value))?)
    }
}

#[cfg(test)]
mod tests;
