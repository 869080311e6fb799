//! The judge: one incoming message (or one instant of time) in, the state change and every
//! mail to send out, inside one SQLite transaction.
//!
//! [`Judge::handle`] records the message's key (a second copy is a no-op), reads its
//! commands, applies them to the games they name and queues the reply and any bulletins in
//! the outbox. [`Judge::tick`] processes the games whose deadlines have come. Nothing is
//! sent here and no clock is read: `now` is a parameter.

mod password;
mod process;
mod refusal;
mod replies;
mod session;
mod time;

use chrono::{DateTime, Utc};

use crate::map::Map;
use crate::store::{NewMail, QueuedMail, Store, StoreError};

pub use password::{PasswordCost, hash as hash_password};

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
    /// Remember verified passwords for the process (as keyed MACs,
    /// `password::Verified`), so a player's next mail skips the argon2 verify.
    pub remember_passwords: bool,
    /// Whether results carry a picture of the phase for an address that made no choice of
    /// its own (`SET MAP ON|OFF`).
    pub maps: bool,
    /// Default deadline settings for new games.
    pub deadlines: crate::game::DeadlineSettings,
    /// Default time zone for new games.
    pub time_zone: String,
    /// The rule sets this judge runs (all of [`crate::variant::ALL`]; tests add their own).
    pub variants: crate::variant::Registry,
}

impl Default for JudgeConfig {
    fn default() -> Self {
        JudgeConfig {
            name: "DIP".to_string(),
            address: "judge@example.test".to_string(),
            seed: 1901,
            password_cost: PasswordCost::default(),
            remember_passwords: true,
            maps: false,
            deadlines: crate::game::DeadlineSettings::default(),
            time_zone: "UTC".to_string(),
            variants: crate::variant::Registry::default(),
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

/// A system failure (never a player's mistake: those are replies).
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the standard map does not load: {0}")]
    Map(String),
    #[error("a phase's picture cannot be rendered: {0}")]
    Picture(#[from] crate::picture::PictureError),
}

/// The judge over one database.
pub struct Judge {
    map: &'static Map,
    store: Store,
    config: JudgeConfig,
    /// Passwords verified by this process (a MAC each; see `password::Verified`).
    verified: password::Verified,
}

impl Judge {
    pub fn new(mut store: Store, config: JudgeConfig) -> Result<Judge, JudgeError> {
        store.set_variants(config.variants.clone());
        let map = Map::standard().map_err(|e| JudgeError::Map(e.to_string()))?;
        let verified = if config.remember_passwords {
            password::Verified::from_os()
        } else {
            password::Verified::new(None)
        };
        Ok(Judge {
            map,
            store,
            config,
            verified,
        })
    }

    pub fn config(&self) -> &JudgeConfig {
        &self.config
    }

    /// Handles one message in one transaction.
    pub fn handle(&mut self, msg: &Incoming, now: DateTime<Utc>) -> Result<Handled, JudgeError> {
        let map = self.map;
        let config = &self.config;
        let verified = &mut self.verified;
        self.store.transaction(|tx| {
            if !tx.record_message(&msg.key, now, &msg.from, None)? {
                tracing::info!(key = %msg.key, from = %msg.from, "duplicate message ignored");
                return Ok(Handled::Duplicate);
            }
            let mut s = session::Session::new(map, config, verified, tx, msg, now);
            s.run()?;
            let commands = s.command_count();
            let (queued, games) = s.finish()?;
            Ok(Handled::Applied {
                queued,
                games,
                commands,
            })
        })
    }

    /// Processes every game whose deadline event has come; returns how many games acted.
    pub fn tick(&mut self, now: DateTime<Utc>) -> Result<usize, JudgeError> {
        let map = self.map;
        let config = &self.config;
        self.store.transaction(|tx| {
            let last_tick = tx
                .get_value("last_tick")?
                .as_deref()
                .and_then(crate::store::read_time);
            let mut acted = 0;
            for name in tx.games_due(now)? {
                if process::tick_game(map, config, tx, &name, now, last_tick)? {
                    acted += 1;
                }
            }
            tx.set_value("last_tick", &crate::store::write_time(now))?;
            Ok(acted)
        })
    }

    /// Mail waiting to be sent, oldest first.
    pub fn queued_mail(&mut self, limit: usize) -> Result<Vec<QueuedMail>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.queued_mail(limit))?)
    }

    /// The picture of a phase of a game (None: the phase now open, drawn afresh): the
    /// phase's code and SVG, if there is one.
    pub fn map_picture(
        &mut self,
        game: &str,
        phase: Option<crate::rules::Phase>,
        now: DateTime<Utc>,
    ) -> Result<Option<(String, String)>, JudgeError> {
        let (map, config) = (self.map, &self.config);
        Ok(self.store.transaction(|tx| match tx.load_game(game)? {
            Some(g) => process::picture_of(map, config, tx, &g, phase, now),
            None => Ok(None),
        })?)
    }

    /// The picture of a phase of a game as PNG: rendered from its SVG the first time it is
    /// wanted, then kept, so every copy of the results attaches the same bytes.
    pub fn picture_png(&mut self, game: &str, phase: &str) -> Result<Option<Vec<u8>>, JudgeError> {
        self.store.transaction(|tx| {
            let Some((svg, png)) = tx.picture(game, phase)? else {
                return Ok::<_, JudgeError>(None);
            };
            if let Some(png) = png {
                return Ok(Some(png));
            }
            let png = crate::picture::render_png(&svg)?;
            tx.save_picture_png(game, phase, &png)?;
            Ok(Some(png))
        })
    }

    /// Every mail ever queued (tests, goldens).
    pub fn all_mail(&mut self) -> Result<Vec<QueuedMail>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.all_mail())?)
    }

    pub fn mark_sent(&mut self, id: i64, now: DateTime<Utc>) -> Result<(), JudgeError> {
        Ok(self.store.transaction(|tx| tx.mark_sent(id, now))?)
    }

    /// Counts an attempt to send mail `id` before it is made.
    pub fn bump_attempts(&mut self, id: i64) -> Result<i64, JudgeError> {
        Ok(self.store.transaction(|tx| tx.bump_attempts(id))?)
    }

    /// Marks a mail failed for good and tells the master of its game once.
    pub fn mark_failed(
        &mut self,
        id: i64,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<(), JudgeError> {
        let judge = self.config.name.clone();
        Ok(self.store.transaction(|tx| {
            tx.mark_failed(id, reason)?;
            if let Some(m) = tx.mail(id)?
                && let Some(game) = m.game.as_deref()
                && m.audience != "master"
                && let Some(g) = tx.load_game(game)?
            {
                tx.queue_mail(
                    &NewMail {
                        game: Some(g.name.clone()),
                        audience: "master".into(),
                        recipient: g.master.address.clone(),
                        subject: format!("{judge}:{} - Undeliverable mail", g.name),
                        body: format!(
                            "A mail to {} ({}) could not be delivered:\n{reason}\n",
                            m.recipient, m.subject
                        ),
                        kind: "generated",
                        in_reply_to: None,
                        picture: None,
                    },
                    now,
                )?;
            }
            Ok::<(), StoreError>(())
        })?)
    }

    /// The earliest deadline event of any game.
    pub fn next_event(&mut self) -> Result<Option<DateTime<Utc>>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.next_event())?)
    }

    /// A canonical dump of every game (the golden tests' `state.txt`).
    pub fn dump_state(&mut self) -> Result<String, JudgeError> {
        let map = self.map;
        Ok(self.store.transaction(|tx| {
            let mut out = String::new();
            for name in tx.game_names()? {
                if let Some(g) = tx.load_game(&name)? {
                    out.push_str(&replies::dump_game(map, &g));
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
            if g.status != crate::game::Status::Active {
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

    /// A game's public history (what an observer saw), oldest first.
    pub fn history(&mut self, name: &str) -> Result<Vec<crate::store::HistoryEntry>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.history(name))?)
    }

    /// Records a message the judge does not handle (the mail guard silenced it) under its
    /// key, with why; false if that key was seen before.
    pub fn record_unhandled(
        &mut self,
        msg: &Incoming,
        outcome: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, JudgeError> {
        Ok(self
            .store
            .transaction(|tx| tx.record_message(&msg.key, now, &msg.from, Some(outcome)))?)
    }

    /// Recipients and times of the replies sent at or after `since` (the daemon's rate
    /// limiter reads them back after a restart).
    pub fn replies_sent_since(
        &mut self,
        since: DateTime<Utc>,
    ) -> Result<Vec<(String, DateTime<Utc>)>, JudgeError> {
        Ok(self.store.transaction(|tx| tx.replies_sent_since(since))?)
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
