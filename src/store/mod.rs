//! SQLite storage: the schema, its migrations, and every query. The only place SQL is
//! written; no `rusqlite` type leaves this module.
//!
//! One closure-based [`Store::transaction`] commits when the closure returns `Ok` and rolls
//! back on `Err`, so no caller can forget either (chatmail's habit). A game is stored as a
//! JSON document the store does not interpret, with columns only where a query needs them
//! (the next deadline, for `tick`).

mod audience;
mod backup;
mod metrics;
mod migrations;
mod outbox;
mod people;
mod proofs;
mod sanity;
mod security;
mod summaries;
mod web;

use std::cell::RefCell;
use std::path::Path;

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use crate::game::Game;

pub use audience::{Audience, MailKind};
pub use backup::{BackupReport, DatabaseInfo, RestoreReport, backup, inspect, restore};
pub use metrics::{LastPass, OutboxGauges};
pub use outbox::{Delayed, FAIR_SHARE};
pub use people::{MAX_NAMESAKES, PersonId};
pub use security::{PendingConfirmation, WrongSignons};
pub use summaries::{GameSummary, Summariser, SummaryRow};
pub use web::WebToken;

/// The schema version this dipjudge writes (`dipjudge --version` names it): databases of
/// every earlier version are migrated when opened, a newer one is refused.
pub const SCHEMA_VERSION: i64 = migrations::LATEST;

use crate::variant::Reader;

/// A storage failure: the database could not be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("stored game {game:?} cannot be read: {reason}")]
    Corrupt { game: String, reason: String },
    /// The database was written by a newer dipjudge: this one refuses it rather than
    /// misread it (nothing in it is changed).
    #[error(
        "the database has schema version {found}, newer than this dipjudge knows ({known}): a newer dipjudge wrote it. Run that version (or one newer), or restore a backup made before the upgrade; this dipjudge leaves the file as it is"
    )]
    TooNew { found: i64, known: i64 },
    /// The database file itself: it cannot be created, is missing, or a copy cannot be
    /// made.
    #[error("{}: {reason}", path.display())]
    File {
        path: std::path::PathBuf,
        reason: String,
    },
    /// The game was suspended (it could not be read or processed) and waits for the
    /// operator.
    #[error("game {game:?} is suspended: {reason}")]
    Suspended { game: String, reason: String },
}

impl StoreError {
    /// Whether the failure is the database's or the machine's (busy, locked, a full disk,
    /// an I/O error, no memory, a read-only or broken file) rather than something in the
    /// data one game or one mail brought: such a failure is tried again later and never
    /// suspends a game.
    pub fn is_environmental(&self) -> bool {
        use rusqlite::ErrorCode as C;
        match self {
            StoreError::Sql(e) => matches!(
                e.sqlite_error_code(),
                Some(
                    C::DatabaseBusy
                        | C::DatabaseLocked
                        | C::SystemIoFailure
                        | C::DiskFull
                        | C::OutOfMemory
                        | C::ReadOnly
                        | C::CannotOpen
                        | C::DatabaseCorrupt
                        | C::NotADatabase
                        | C::FileLockingProtocolFailed
                        | C::OperationInterrupted
                )
            ),
            StoreError::File { .. } => true,
            StoreError::Corrupt { .. } | StoreError::TooNew { .. } => false,
            StoreError::Suspended { .. } => false,
        }
    }

    /// The game this failure belongs to, when it is one game's data that cannot be read.
    pub fn game(&self) -> Option<&str> {
        match self {
            StoreError::Corrupt { game, .. } | StoreError::Suspended { game, .. } => Some(game),
            _ => None,
        }
    }
}

/// A plan of store failures for fault-injection tests (SQLite's anomaly tests): the `at`-th
/// write from now (every statement that changes the database, and every commit, counts as
/// one) fails with a disk I/O error, and with `always` every write after it too. Shared, so
/// the test reads how many writes were seen and whether a fault fired.
#[derive(Debug, Default)]
pub struct WriteFaults {
    at: u64,
    always: bool,
    seen: std::sync::atomic::AtomicU64,
    fired: std::sync::atomic::AtomicU64,
}

impl WriteFaults {
    /// Fails write number `at` (1: the next one), and all after it with `always`.
    pub fn new(at: u64, always: bool) -> std::sync::Arc<WriteFaults> {
        std::sync::Arc::new(WriteFaults {
            at,
            always,
            ..WriteFaults::default()
        })
    }

    /// How many writes were tried since the plan was set.
    pub fn writes(&self) -> u64 {
        self.seen.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// How many writes the plan failed.
    pub fn fired(&self) -> u64 {
        self.fired.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Counts a write; an error if it is to fail.
    fn check(&self) -> rusqlite::Result<()> {
        use std::sync::atomic::Ordering;
        let n = self.seen.fetch_add(1, Ordering::SeqCst) + 1;
        if n == self.at || (self.always && n > self.at) {
            self.fired.fetch_add(1, Ordering::SeqCst);
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_IOERR_WRITE),
                Some(format!("injected fault at write {n}")),
            ));
        }
        Ok(())
    }
}

/// How many prepared statements a connection keeps: room for every statement of this
/// module (about thirty), so none is compiled twice.
const STATEMENT_CACHE: usize = 64;

/// The database.
pub struct Store {
    conn: Connection,
    /// The rule sets a stored game is decoded with when it is loaded ([`Store::set_variants`]).
    variants: crate::variant::Registry,
    /// Writes to fail (fault-injection tests only; None in service).
    faults: Option<std::sync::Arc<WriteFaults>>,
    /// What a saved game's summary holds ([`Store::set_summariser`]; None: no summary is
    /// kept, and a saved game's row says so).
    summariser: Option<Summariser>,
}

/// A transaction in progress; all queries go through it.
pub struct Tx<'a> {
    tx: rusqlite::Transaction<'a>,
    faults: Option<&'a WriteFaults>,
    /// Games read in this transaction, by the name they were asked for, as read: a mail's
    /// game is read to learn how its lines read and again by its SIGNON, and a read costs
    /// a JSON parse where a copy costs far less. Any write of a game empties it.
    games: RefCell<Vec<(String, Game)>>,
    variants: &'a crate::variant::Registry,
    summariser: Option<Summariser>,
}

/// How many games a transaction keeps as read.
const GAMES_KEPT: usize = 4;

fn ts(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn parse_ts(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// A mail waiting in (or gone from) the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMail {
    pub id: i64,
    pub game: Option<String>,
    /// Who it is for.
    pub audience: Audience,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    /// An answer to a mail, or a mail of the judge's own (a bulletin, a notice).
    pub kind: MailKind,
    pub in_reply_to: Option<String>,
    /// The pictures that go with it, by name, in order (the judge's names: `game/S1901M`;
    /// a mail queued before version 6 names one phase of `game`: `S1901M`).
    pub pictures: Vec<String>,
}

/// Reads an outbox row selected as `id, game, audience, recipient, subject, body, kind,
/// in_reply_to, picture, power`.
fn queued_mail_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<QueuedMail> {
    let word: String = r.get(2)?;
    let power: Option<String> = r.get(9)?;
    let audience = Audience::from_columns(&word, power.as_deref()).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            2,
            rusqlite::types::Type::Text,
            format!("unknown audience {word:?} ({power:?})").into(),
        )
    })?;
    Ok(QueuedMail {
        id: r.get(0)?,
        game: r.get(1)?,
        audience,
        recipient: r.get(3)?,
        subject: r.get(4)?,
        body: r.get(5)?,
        kind: r.get(6)?,
        in_reply_to: r.get(7)?,
        pictures: picture_names(r.get::<_, Option<String>>(8)?.as_deref()),
    })
}

/// The outbox's `picture` column: the names one space apart (names hold no blank), NULL
/// for none.
fn picture_column(names: &[String]) -> Option<String> {
    (!names.is_empty()).then(|| names.join(" "))
}

fn picture_names(column: Option<&str>) -> Vec<String> {
    column
        .map(|c| c.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// A mail to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMail {
    pub game: Option<String>,
    pub audience: Audience,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    pub kind: MailKind,
    pub in_reply_to: Option<String>,
    /// The pictures that go with it, by name (no blank in a name), attached in this order
    /// when it is sent.
    pub pictures: Vec<String>,
}

/// What recording a message found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// Not seen before: handle it. `reused_id`: its sender used its Message-ID before, on
    /// a mail with other content.
    New { reused_id: bool },
    /// Seen before: nothing to do.
    Duplicate,
}

/// One entry of a game's history: a bulletin everyone who follows the game received, or
/// press with the readers it reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    pub at: DateTime<Utc>,
    pub phase: String,
    pub subject: String,
    pub body: String,
    /// None: everyone who follows the game (a bulletin); else who received it.
    pub readers: Option<Vec<Reader>>,
    /// Whether the sender was named (a grey broadcast is not).
    pub signed: bool,
}

impl Store {
    /// Opens (creating if needed, readable by its owner only) the database at `path` in WAL
    /// mode and brings its schema up to date. A database newer than this judge is refused
    /// ([`StoreError::TooNew`]) and left untouched.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        backup::create_private(path)?;
        let conn = Connection::open(path)?;
        // Before anything is set on it: a newer judge's file is not touched.
        migrations::refuse_newer(&conn)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        let mut store = Store {
            conn,
            variants: crate::variant::Registry::default(),
            faults: None,
            summariser: None,
        };
        migrations::migrate(&mut store.conn)?;
        Ok(store)
    }

    /// A database in memory (tests, previews).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let mut conn = Connection::open_in_memory()?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        migrations::migrate(&mut conn)?;
        Ok(Store {
            conn,
            variants: crate::variant::Registry::default(),
            faults: None,
            summariser: None,
        })
    }

    /// Makes writes fail as `faults` plans (None: no more faults). For the fault-injection
    /// tests; a judge in service never sets one.
    #[doc(hidden)]
    pub fn set_write_faults(&mut self, faults: Option<std::sync::Arc<WriteFaults>>) {
        self.faults = faults;
    }

    /// Limits the database file to `pages` pages (`PRAGMA max_page_count`): a write that
    /// needs more fails as on a full disk. For the fault-injection tests. Returns the limit
    /// SQLite took (never below the pages in use).
    #[doc(hidden)]
    pub fn set_max_page_count(&mut self, pages: u64) -> Result<u64, StoreError> {
        let pages = i64::try_from(pages).unwrap_or(i64::MAX);
        Ok(self
            .conn
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| u64::try_from(n).unwrap_or(0))?)
    }

    /// Pages the database file uses now (`PRAGMA page_count`).
    #[doc(hidden)]
    pub fn page_count(&self) -> Result<u64, StoreError> {
        Ok(self
            .conn
            .query_row("PRAGMA page_count", [], |r| r.get::<_, i64>(0))
            .map(|n| u64::try_from(n).unwrap_or(0))?)
    }

    /// Runs `f` in one transaction: commit on `Ok`, roll back on `Err`.
    pub fn transaction<T, E>(&mut self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let t = Tx {
            tx,
            faults: self.faults.as_deref(),
            games: RefCell::new(Vec::new()),
            variants: &self.variants,
            summariser: self.summariser,
        };
        let out = f(&t)?;
        if let Some(f) = t.faults {
            f.check().map_err(StoreError::from)?;
        }
        t.tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// The rule sets a stored game is decoded with when it is loaded (the judge's: the
    /// standard registry unless a test adds one).
    pub fn set_variants(&mut self, variants: crate::variant::Registry) {
        self.variants = variants;
    }

    /// `PRAGMA integrity_check`: "ok" when the file is sound.
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        Ok(self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?)
    }
}

impl Tx<'_> {
    /// Runs one statement through the connection's cache of prepared statements (a mail
    /// runs the same few statements again and again: compiling each afresh cost about as
    /// much as running it).
    fn execute(&self, sql: &str, params: impl rusqlite::Params) -> rusqlite::Result<usize> {
        if let Some(f) = self.faults {
            f.check()?;
        }
        self.tx.prepare_cached(sql)?.execute(params)
    }

    /// One row of a query, through the cache of prepared statements.
    fn query_row<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        f: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        self.tx.prepare_cached(sql)?.query_row(params, f)
    }

    /// Records a message under its key (unique to its sender, Message-ID and content).
    /// `message_id` is the Message-ID as sent, if any; `outcome` says why a message was
    /// not handled (`silenced: bounce`), `None`: handled. A mail seen before (the same key,
    /// or the same sender and Message-ID recorded by a judge from before keys named the
    /// content) is a [`Recorded::Duplicate`]; a new content under a Message-ID the sender
    /// used before is recorded, as [`Recorded::New`] with `reused_id`.
    pub fn record_message(
        &self,
        key: &str,
        message_id: Option<&str>,
        at: DateTime<Utc>,
        sender: &str,
        outcome: Option<&str>,
    ) -> Result<Recorded, StoreError> {
        let mut reused_id = false;
        if let Some(id) = message_id {
            let mut st = self
                .tx
                .prepare_cached("SELECT key FROM messages WHERE sender = ?1 AND message_id = ?2")?;
            let keys = st
                .query_map(params![sender, id], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            // A row whose key is the bare Message-ID was written before keys named the
            // content: it is the same mail (after an upgrade, a mail fetched again).
            if keys.iter().any(|k| k == key || k == id) {
                return Ok(Recorded::Duplicate);
            }
            reused_id = !keys.is_empty();
        }
        let n = self.execute(
            "INSERT OR IGNORE INTO messages (key, received_at, sender, outcome, message_id) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![key, ts(at), sender, outcome, message_id],
        )?;
        Ok(if n == 1 {
            Recorded::New { reused_id }
        } else {
            Recorded::Duplicate
        })
    }

    /// Counts an attempt to handle the message `key` before it is made (so a mail that
    /// always fails, or kills the judge, is set aside after a bound); returns the count.
    pub fn bump_message_attempts(&self, key: &str) -> Result<i64, StoreError> {
        self.add_message_attempts(key, 1)
    }

    /// Takes the attempts counted under `key` (0: none), and forgets them.
    pub fn take_message_attempts(&self, key: &str) -> Result<i64, StoreError> {
        let n: Option<i64> = self
            .query_row(
                "SELECT attempts FROM message_attempts WHERE key = ?1",
                params![key],
                |r| r.get(0),
            )
            .optional()?;
        self.clear_message_attempts(key)?;
        Ok(n.unwrap_or(0))
    }

    /// Counts `n` more attempts under `key`; returns the count.
    pub fn add_message_attempts(&self, key: &str, n: i64) -> Result<i64, StoreError> {
        self.execute(
            "INSERT INTO message_attempts (key, attempts) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET attempts = attempts + ?2",
            params![key, n],
        )?;
        Ok(self.query_row(
            "SELECT attempts FROM message_attempts WHERE key = ?1",
            params![key],
            |r| r.get(0),
        )?)
    }

    /// Takes one attempt back (it failed for the machine's reasons, not the mail's).
    pub fn forgive_message_attempt(&self, key: &str) -> Result<(), StoreError> {
        self.execute(
            "UPDATE message_attempts SET attempts = attempts - 1 WHERE key = ?1 AND attempts > 0",
            params![key],
        )?;
        Ok(())
    }

    /// Forgets the attempts of a message that was handled (or set aside).
    pub fn clear_message_attempts(&self, key: &str) -> Result<(), StoreError> {
        self.execute("DELETE FROM message_attempts WHERE key = ?1", params![key])?;
        Ok(())
    }

    /// Recipients and times of the replies sent at or after `since`, oldest first.
    pub fn replies_sent_since(
        &self,
        since: DateTime<Utc>,
    ) -> Result<Vec<(String, DateTime<Utc>)>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT recipient, sent_at FROM outbox \
             WHERE kind = 'replied' AND status = 'sent' AND sent_at >= ?1 ORDER BY sent_at, id",
        )?;
        let rows = stmt.query_map(params![ts(since)], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (recipient, at) = row?;
            if let Some(at) = read_time(&at) {
                out.push((recipient, at));
            }
        }
        Ok(out)
    }

    /// A game as stored. A suspended game is an error ([`StoreError::Suspended`]): it is
    /// neither played nor shown until the operator lifts the suspension.
    pub fn load_game(&self, name: &str) -> Result<Option<Game>, StoreError> {
        let kept = self
            .games
            .borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, g)| g.clone());
        if let Some(g) = kept {
            return Ok(Some(g));
        }
        type Row = (String, String, Option<String>, Option<String>);
        let row: Option<Row> = self
            .query_row(
                "SELECT name, state, suspended, next_event FROM games WHERE name = ?1 COLLATE NOCASE",
                params![name],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let Some((stored_name, json, suspended, next_event)) = row else {
            return Ok(None);
        };
        if let Some(reason) = suspended {
            return Err(StoreError::Suspended {
                game: stored_name,
                reason,
            });
        }
        let g = read_game(&stored_name, &json, self.variants)?;
        // The deadline column the tick trusts must be a time: a game whose column is not
        // one would silently never come up again.
        sanity::check_next_event(next_event.as_deref()).map_err(|reason| StoreError::Corrupt {
            game: stored_name.clone(),
            reason,
        })?;
        let mut games = self.games.borrow_mut();
        if games.len() == GAMES_KEPT {
            games.remove(0);
        }
        games.push((name.to_string(), g.clone()));
        Ok(Some(g))
    }

    pub fn save_game(&self, game: &Game) -> Result<(), StoreError> {
        self.games.borrow_mut().clear();
        let json = serde_json::to_string(game).map_err(|e| StoreError::Corrupt {
            game: game.name().to_string(),
            reason: e.to_string(),
        })?;
        let status = match game.status() {
            crate::game::Status::Forming => "forming",
            crate::game::Status::Active => "active",
            crate::game::Status::Paused => "paused",
            crate::game::Status::Finished(_) => "finished",
        };
        let next = game.next_event().map(ts);
        self.execute(
            "INSERT INTO games (name, state, status, next_event, master) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(name) DO UPDATE SET state = excluded.state, status = excluded.status,
             next_event = excluded.next_event, master = excluded.master",
            params![game.name(), json, status, next, game.master().address],
        )?;
        self.keep_tenure_addresses(game)?;
        self.keep_summary(game)?;
        Ok(())
    }

    /// Suspends a game that cannot be read or processed: no deadline runs for it and no
    /// mail reads it until the operator lifts the suspension. Returns whether it was not
    /// suspended before (so its master is told once) and the master's address as last
    /// stored.
    pub fn suspend_game(
        &self,
        name: &str,
        reason: &str,
    ) -> Result<(bool, Option<String>), StoreError> {
        self.games.borrow_mut().clear();
        let n = self.execute(
            "UPDATE games SET suspended = ?2, next_event = NULL
             WHERE name = ?1 COLLATE NOCASE AND suspended IS NULL",
            params![name, reason],
        )?;
        Ok((n == 1, self.game_master(name)?))
    }

    /// Why a game is suspended (None: it is not, or there is no such game).
    pub fn suspension(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .query_row(
                "SELECT suspended FROM games WHERE name = ?1 COLLATE NOCASE",
                params![name],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()?
            .flatten())
    }

    /// Lifts a game's suspension and plays it again from its stored state (which must now
    /// read); false if it was not suspended.
    pub fn unsuspend_game(&self, name: &str) -> Result<bool, StoreError> {
        let Some(reason) = self.suspension(name)? else {
            return Ok(false);
        };
        self.execute(
            "UPDATE games SET suspended = NULL WHERE name = ?1 COLLATE NOCASE",
            params![name],
        )?;
        match self.load_game(name)? {
            // Saving sets the next deadline event again.
            Some(g) => self.save_game(&g)?,
            None => {
                return Err(StoreError::Suspended {
                    game: name.to_string(),
                    reason,
                });
            }
        }
        Ok(true)
    }

    /// The master's address of a game as last stored (readable when the state is not).
    pub fn game_master(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .query_row(
                "SELECT master FROM games WHERE name = ?1 COLLATE NOCASE",
                params![name],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()?
            .flatten())
    }

    /// Names of the games whose next event is at or before `horizon` (uses the index), and
    /// of those whose stored next event is not a time at all (a damaged row: loading it
    /// finds that out, and the judge suspends it, rather than its deadline never coming).
    pub fn games_due(&self, horizon: DateTime<Utc>) -> Result<Vec<String>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT name FROM games WHERE next_event IS NOT NULL
                 AND (next_event <= ?1 OR strftime('%Y-%m-%dT%H:%M:%SZ', next_event) IS NOT next_event)
             ORDER BY name",
        )?;
        let rows = st.query_map(params![ts(horizon)], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The earliest next event of any game (for the daemon's wait).
    pub fn next_event(&self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let s: Option<String> = self.query_row(
            "SELECT MIN(next_event) FROM games WHERE next_event IS NOT NULL",
            [],
            |r| r.get(0),
        )?;
        Ok(s.as_deref().and_then(parse_ts))
    }

    /// Every game's name, sorted.
    pub fn game_names(&self) -> Result<Vec<String>, StoreError> {
        let mut st = self
            .tx
            .prepare_cached("SELECT name FROM games ORDER BY name")?;
        let rows = st.query_map([], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    pub fn queue_mail(&self, mail: &NewMail, at: DateTime<Utc>) -> Result<i64, StoreError> {
        self.execute(
            "INSERT INTO outbox (game, audience, recipient, subject, body, kind, in_reply_to, created_at, picture, power)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                mail.game,
                mail.audience.columns().0,
                mail.recipient,
                mail.subject,
                mail.body,
                mail.kind,
                mail.in_reply_to,
                ts(at),
                picture_column(&mail.pictures),
                mail.audience.columns().1
            ],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Keeps a picture's drawing under `name`. With `seq` (the turn a phase was processed
    /// at) it is that phase's record, and replaces every record of that turn or later (a
    /// rollback and a new processing rewrite the future); without, it serves the mails
    /// that name it and goes with the last of them ([`Tx::drop_unsent_scenes`]).
    pub fn save_scene(
        &self,
        game: &str,
        name: &str,
        seq: Option<u32>,
        drawing: &[u8],
    ) -> Result<(), StoreError> {
        if let Some(seq) = seq {
            self.execute(
                "DELETE FROM scenes WHERE game = ?1 AND seq >= ?2",
                params![game, i64::from(seq)],
            )?;
        }
        self.execute(
            "INSERT INTO scenes (game, name, seq, drawing) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(game, name) DO UPDATE SET seq = excluded.seq, drawing = excluded.drawing",
            params![game, name, seq.map(i64::from), drawing],
        )?;
        Ok(())
    }

    /// A kept drawing.
    pub fn scene(&self, game: &str, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self
            .query_row(
                "SELECT drawing FROM scenes WHERE game = ?1 AND name = ?2",
                params![game, name],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Drops the drawings of `game` kept for mails (not a phase's record) that no queued
    /// mail names any more (a mail names a picture as `game/name`).
    pub fn drop_unsent_scenes(&self, game: &str) -> Result<(), StoreError> {
        let mut st = self
            .tx
            .prepare_cached("SELECT name FROM scenes WHERE game = ?1 AND seq IS NULL")?;
        let kept = st
            .query_map(params![game], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        if kept.is_empty() {
            return Ok(());
        }
        let mut st = self.tx.prepare_cached(
            "SELECT picture FROM outbox WHERE status = 'queued' AND picture IS NOT NULL",
        )?;
        let named = st
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        let needed = |name: &str| {
            named.iter().flat_map(|c| c.split_whitespace()).any(|n| {
                n.split_once('/')
                    .is_some_and(|(g, n)| g.eq_ignore_ascii_case(game) && n == name)
            })
        };
        for name in kept.iter().filter(|n| !needed(n)) {
            self.execute(
                "DELETE FROM scenes WHERE game = ?1 AND name = ?2 AND seq IS NULL",
                params![game, name],
            )?;
        }
        Ok(())
    }

    /// The SVG of a phase's picture drawn before version 6 (then pictures were kept drawn).
    pub fn old_picture(&self, game: &str, phase: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .query_row(
                "SELECT svg FROM pictures WHERE game = ?1 AND phase = ?2",
                params![game, phase],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Records an address's choice of maps (`SET MAP ON|OFF`).
    pub fn set_map_choice(&self, address: &str, maps: bool) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO map_choices (address, maps) VALUES (?1, ?2)
             ON CONFLICT(address) DO UPDATE SET maps = excluded.maps",
            params![address, maps],
        )?;
        Ok(())
    }

    /// An address's choice of maps; None: it made none (the judge's default applies).
    pub fn map_choice(&self, address: &str) -> Result<Option<bool>, StoreError> {
        Ok(self
            .query_row(
                "SELECT maps FROM map_choices WHERE address = ?1",
                params![address],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Queued mail, oldest first, at most `limit`.
    pub fn queued_mail(&self, limit: usize) -> Result<Vec<QueuedMail>, StoreError> {
        // The limit is applied here, not by `LIMIT ?1`: SQLite compiles a statement whose
        // LIMIT is a parameter again each time the parameter is bound (it plans with the
        // value), which made this the costliest query of a mail's round.
        let mut st = self.tx.prepare_cached(
            "SELECT id, game, audience, recipient, subject, body, kind, in_reply_to, picture, power FROM outbox
             WHERE status = 'queued' ORDER BY id",
        )?;
        let rows = st.query_map([], queued_mail_row)?;
        Ok(rows.take(limit).collect::<Result<Vec<_>, _>>()?)
    }

    /// One outbox row.
    pub fn mail(&self, id: i64) -> Result<Option<QueuedMail>, StoreError> {
        Ok(self.query_row(
                "SELECT id, game, audience, recipient, subject, body, kind, in_reply_to, picture, power FROM outbox WHERE id = ?1",
                params![id],
                queued_mail_row,
            )
            .optional()?)
    }

    /// Every mail ever queued, in order (tests and goldens).
    pub fn all_mail(&self) -> Result<Vec<QueuedMail>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, game, audience, recipient, subject, body, kind, in_reply_to, picture, power FROM outbox ORDER BY id",
        )?;
        let rows = st.query_map([], queued_mail_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Counts an attempt before it is made (so a mail that always fails leaves after a
    /// bound), and returns the new count.
    pub fn bump_attempts(&self, id: i64) -> Result<i64, StoreError> {
        self.execute(
            "UPDATE outbox SET attempts = attempts + 1 WHERE id = ?1",
            params![id],
        )?;
        Ok(self.query_row(
            "SELECT attempts FROM outbox WHERE id = ?1",
            params![id],
            |r| r.get(0),
        )?)
    }

    /// Records mail `id` as sent at `at` (the transport took it: one more attempt).
    pub fn mark_sent(&self, id: i64, at: DateTime<Utc>) -> Result<(), StoreError> {
        self.execute(
            "UPDATE outbox SET status = 'sent', sent_at = ?2, attempts = attempts + 1,
                 next_attempt_at = NULL WHERE id = ?1 AND status = 'queued'",
            params![id, ts(at)],
        )?;
        Ok(())
    }

    pub fn mark_failed(&self, id: i64, reason: &str) -> Result<(), StoreError> {
        self.execute(
            "UPDATE outbox SET status = 'failed', last_error = ?2 WHERE id = ?1",
            params![id, reason],
        )?;
        Ok(())
    }

    /// Saves the game as it stood at the start of a phase (for ROLLBACK).
    pub fn save_snapshot(&self, game: &Game) -> Result<(), StoreError> {
        let json = serde_json::to_string(game).map_err(|e| StoreError::Corrupt {
            game: game.name().to_string(),
            reason: e.to_string(),
        })?;
        self.execute(
            "INSERT OR REPLACE INTO snapshots (game, seq, phase, state) VALUES (?1, ?2, ?3, ?4)",
            params![
                game.name(),
                i64::from(game.turn()),
                game.position().phase.to_string(),
                json
            ],
        )?;
        Ok(())
    }

    /// The snapshot of a game at turn `seq`, or at the latest turn with phase `phase`.
    pub fn load_snapshot(
        &self,
        name: &str,
        seq: Option<u32>,
        phase: Option<&str>,
    ) -> Result<Option<Game>, StoreError> {
        let json: Option<String> = match (seq, phase) {
            (Some(n), _) => self.query_row(
                    "SELECT state FROM snapshots WHERE game = ?1 AND seq = ?2",
                    params![name, i64::from(n)],
                    |r| r.get(0),
                )
                .optional()?,
            (None, Some(p)) => self.query_row(
                    "SELECT state FROM snapshots WHERE game = ?1 AND phase = ?2 ORDER BY seq DESC LIMIT 1",
                    params![name, p],
                    |r| r.get(0),
                )
                .optional()?,
            (None, None) => None,
        };
        json.map(|j| read_game(name, &j, self.variants)).transpose()
    }

    /// Every snapshot of a game, in turn order: the game at the start of each phase it
    /// played (and at the end, after the last).
    pub fn snapshots(&self, name: &str) -> Result<Vec<Game>, StoreError> {
        let mut st = self
            .tx
            .prepare_cached("SELECT state FROM snapshots WHERE game = ?1 ORDER BY seq")?;
        let rows = st.query_map(params![name], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for json in rows {
            out.push(read_game(name, &json?, self.variants)?);
        }
        Ok(out)
    }

    /// Drops snapshots after turn `seq` (a rollback rewrites the future).
    pub fn drop_snapshots_after(&self, name: &str, seq: u32) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM snapshots WHERE game = ?1 AND seq > ?2",
            params![name, i64::from(seq)],
        )?;
        Ok(())
    }

    pub fn add_history(
        &self,
        game: &str,
        at: DateTime<Utc>,
        phase: &str,
        subject: &str,
        body: &str,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO history (game, at, phase, subject, body) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game, ts(at), phase, subject, body],
        )?;
        Ok(())
    }

    /// Keeps press in a game's history with the readers it reached and whether it was
    /// signed.
    #[allow(clippy::too_many_arguments)]
    pub fn add_press_history(
        &self,
        game: &str,
        at: DateTime<Utc>,
        phase: &str,
        subject: &str,
        body: &str,
        readers: &[Reader],
        signed: bool,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO history (game, at, phase, subject, body, readers, signed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                game,
                ts(at),
                phase,
                subject,
                body,
                readers
                    .iter()
                    .map(|r| audience::history_word(*r))
                    .collect::<Vec<_>>()
                    .join(","),
                signed
            ],
        )?;
        Ok(())
    }

    /// A game's whole history, oldest first (who may read which entry is the judge's to
    /// decide).
    pub fn history(&self, game: &str) -> Result<Vec<HistoryEntry>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT at, phase, subject, body, readers, signed FROM history WHERE game = ?1 ORDER BY id",
        )?;
        let rows = st.query_map(params![game], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get(5)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (at, phase, subject, body, readers, signed) = row?;
            if let Some(at) = parse_ts(&at) {
                out.push(HistoryEntry {
                    at,
                    phase,
                    subject,
                    body,
                    readers: readers.as_deref().map(audience::history_readers),
                    signed,
                });
            }
        }
        Ok(out)
    }

    /// A judge-wide value (`last_tick`, IMAP cursors, counters).
    pub fn get_value(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .query_row(
                "SELECT value FROM config WHERE key = ?1",
                params![key],
                |r| r.get(0),
            )
            .optional()?)
    }

    pub fn set_value(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO config (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )?;
        Ok(())
    }

    /// The next number of a judge-wide counter (message ids, salts), starting at 1.
    pub fn next_counter(&self, key: &str) -> Result<u64, StoreError> {
        let n = self
            .get_value(key)?
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
            + 1;
        self.set_value(key, &n.to_string())?;
        Ok(n)
    }
}

/// Reads a stored timestamp.
pub fn read_time(s: &str) -> Option<DateTime<Utc>> {
    parse_ts(s)
}

/// Writes a timestamp the way the store does (RFC 3339, UTC, seconds).
pub fn write_time(t: DateTime<Utc>) -> String {
    ts(t)
}

/// A stored game as the judge plays it: its rule set's state and commands decoded (once,
/// here: a state the rule set cannot read makes the game unreadable, never reset), and a
/// game written before units had an identity gets one for each unit now
/// (rules::Position::assign_unit_ids), so that rule sets that follow units (morale, frozen
/// units, exchanges) can play on from it.
fn read_game(
    name: &str,
    json: &str,
    variants: &crate::variant::Registry,
) -> Result<Game, StoreError> {
    let corrupt = |reason: String| StoreError::Corrupt {
        game: name.to_string(),
        reason,
    };
    let mut g: Game = serde_json::from_str(json).map_err(|e| corrupt(e.to_string()))?;
    if let crate::variant::Lookup::Found(v) = variants.by_name(g.variant()) {
        g.decode(v).map_err(|e| corrupt(e.to_string()))?;
    }
    g.assign_unit_ids();
    sanity::check_game(&g).map_err(corrupt)?;
    Ok(g)
}

#[cfg(test)]
mod tests;
