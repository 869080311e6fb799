//! SQLite storage: the schema, its migrations, and every query. The only place SQL is
//! written; no `rusqlite` type leaves this module.
//!
//! One closure-based [`Store::transaction`] commits when the closure returns `Ok` and rolls
//! back on `Err`, so no caller can forget either (chatmail's habit). A game is stored as a
//! JSON document the store does not interpret, with columns only where a query needs them
//! (the next deadline, for `tick`).

mod migrations;

use std::cell::RefCell;
use std::path::Path;

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use crate::game::Game;

/// A storage failure: the database could not be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("stored game {game:?} cannot be read: {reason}")]
    Corrupt { game: String, reason: String },
    #[error("database schema version {found} is newer than this judge knows ({known})")]
    TooNew { found: i64, known: i64 },
}

/// How many prepared statements a connection keeps: room for every statement of this
/// module (about thirty), so none is compiled twice.
const STATEMENT_CACHE: usize = 64;

/// The database.
pub struct Store {
    conn: Connection,
    /// The rule sets a stored game is decoded with when it is loaded ([`Store::set_variants`]).
    variants: crate::variant::Registry,
}

/// A transaction in progress; all queries go through it.
pub struct Tx<'a> {
    tx: rusqlite::Transaction<'a>,
    /// Games read in this transaction, by the name they were asked for, as read: a mail's
    /// game is read to learn how its lines read and again by its SIGNON, and a read costs
    /// a JSON parse where a copy costs far less. Any write of a game empties it.
    games: RefCell<Vec<(String, Game)>>,
    variants: &'a crate::variant::Registry,
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
    /// Who it is for, as the audience filter named it (`England`, `master`, `observer`,
    /// `reply`).
    pub audience: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    /// `replied` (an answer to a mail) or `generated` (a bulletin).
    pub kind: String,
    pub in_reply_to: Option<String>,
    /// The phase whose picture of `game` goes with it ([`Tx::picture`]).
    pub picture: Option<String>,
}

/// Reads an outbox row selected as `id, game, audience, recipient, subject, body, kind,
/// in_reply_to, picture`.
fn queued_mail_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<QueuedMail> {
    Ok(QueuedMail {
        id: r.get(0)?,
        game: r.get(1)?,
        audience: r.get(2)?,
        recipient: r.get(3)?,
        subject: r.get(4)?,
        body: r.get(5)?,
        kind: r.get(6)?,
        in_reply_to: r.get(7)?,
        picture: r.get(8)?,
    })
}

/// A mail to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMail {
    pub game: Option<String>,
    pub audience: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    pub kind: &'static str,
    pub in_reply_to: Option<String>,
    /// The phase whose picture of `game` goes with it, attached when it is sent.
    pub picture: Option<String>,
}

/// One entry of a game's public history (what an observer saw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    pub at: DateTime<Utc>,
    pub phase: String,
    pub subject: String,
    pub body: String,
}

impl Store {
    /// Opens (creating if needed) the database at `path` in WAL mode and brings its schema
    /// up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        let mut store = Store {
            conn,
            variants: crate::variant::Registry::default(),
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
        })
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
            games: RefCell::new(Vec::new()),
            variants: &self.variants,
        };
        let out = f(&t)?;
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

    /// Records a message key; false if it was already there (a duplicate: do nothing).
    /// `outcome` says why a message was not handled (`silenced: bounce`); `None`: handled.
    pub fn record_message(
        &self,
        key: &str,
        at: DateTime<Utc>,
        sender: &str,
        outcome: Option<&str>,
    ) -> Result<bool, StoreError> {
        let n = self.execute(
            "INSERT OR IGNORE INTO messages (key, received_at, sender, outcome) \
             VALUES (?1, ?2, ?3, ?4)",
            params![key, ts(at), sender, outcome],
        )?;
        Ok(n == 1)
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
        let json: Option<String> = self
            .query_row(
                "SELECT state FROM games WHERE name = ?1 COLLATE NOCASE",
                params![name],
                |r| r.get(0),
            )
            .optional()?;
        let game = json
            .map(|j| read_game(name, &j, self.variants))
            .transpose()?;
        if let Some(g) = &game {
            let mut games = self.games.borrow_mut();
            if games.len() == GAMES_KEPT {
                games.remove(0);
            }
            games.push((name.to_string(), g.clone()));
        }
        Ok(game)
    }

    pub fn save_game(&self, game: &Game) -> Result<(), StoreError> {
        self.games.borrow_mut().clear();
        let json = serde_json::to_string(game).map_err(|e| StoreError::Corrupt {
            game: game.name.clone(),
            reason: e.to_string(),
        })?;
        let status = match &game.status {
            crate::game::Status::Forming => "forming",
            crate::game::Status::Active => "active",
            crate::game::Status::Paused => "paused",
            crate::game::Status::Finished(_) => "finished",
        };
        let next = game.next_event().map(ts);
        self.execute(
            "INSERT INTO games (name, state, status, next_event) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(name) DO UPDATE SET state = excluded.state, status = excluded.status,
             next_event = excluded.next_event",
            params![game.name, json, status, next],
        )?;
        Ok(())
    }

    /// Names of the games whose next event is at or before `horizon` (uses the index).
    pub fn games_due(&self, horizon: DateTime<Utc>) -> Result<Vec<String>, StoreError> {
        let mut st = self
            .tx
            .prepare_cached("SELECT name FROM games WHERE next_event IS NOT NULL AND next_event <= ?1 ORDER BY name")?;
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
            "INSERT INTO outbox (game, audience, recipient, subject, body, kind, in_reply_to, created_at, picture)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                mail.game,
                mail.audience,
                mail.recipient,
                mail.subject,
                mail.body,
                mail.kind,
                mail.in_reply_to,
                ts(at),
                mail.picture
            ],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Keeps the SVG of a phase's picture (replacing one of the same phase, PNG and all: a
    /// rollback and a new processing draw it again).
    pub fn save_picture(&self, game: &str, phase: &str, svg: &str) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO pictures (game, phase, svg, png) VALUES (?1, ?2, ?3, NULL)
             ON CONFLICT(game, phase) DO UPDATE SET svg = excluded.svg, png = NULL",
            params![game, phase, svg],
        )?;
        Ok(())
    }

    /// Keeps the PNG rendered from a phase's picture.
    pub fn save_picture_png(&self, game: &str, phase: &str, png: &[u8]) -> Result<(), StoreError> {
        self.execute(
            "UPDATE pictures SET png = ?3 WHERE game = ?1 AND phase = ?2",
            params![game, phase, png],
        )?;
        Ok(())
    }

    /// The picture of a phase: its SVG, and its PNG once rendered.
    #[allow(clippy::type_complexity)]
    pub fn picture(
        &self,
        game: &str,
        phase: &str,
    ) -> Result<Option<(String, Option<Vec<u8>>)>, StoreError> {
        Ok(self
            .query_row(
                "SELECT svg, png FROM pictures WHERE game = ?1 AND phase = ?2",
                params![game, phase],
                |r| Ok((r.get(0)?, r.get(1)?)),
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
            "SELECT id, game, audience, recipient, subject, body, kind, in_reply_to, picture FROM outbox
             WHERE status = 'queued' ORDER BY id",
        )?;
        let rows = st.query_map([], queued_mail_row)?;
        Ok(rows.take(limit).collect::<Result<Vec<_>, _>>()?)
    }

    /// One outbox row.
    pub fn mail(&self, id: i64) -> Result<Option<QueuedMail>, StoreError> {
        Ok(self.query_row(
                "SELECT id, game, audience, recipient, subject, body, kind, in_reply_to, picture FROM outbox WHERE id = ?1",
                params![id],
                queued_mail_row,
            )
            .optional()?)
    }

    /// Every mail ever queued, in order (tests and goldens).
    pub fn all_mail(&self) -> Result<Vec<QueuedMail>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, game, audience, recipient, subject, body, kind, in_reply_to, picture FROM outbox ORDER BY id",
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

    pub fn mark_sent(&self, id: i64, at: DateTime<Utc>) -> Result<(), StoreError> {
        self.execute(
            "UPDATE outbox SET status = 'sent', sent_at = ?2 WHERE id = ?1",
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
            game: game.name.clone(),
            reason: e.to_string(),
        })?;
        self.execute(
            "INSERT OR REPLACE INTO snapshots (game, seq, phase, state) VALUES (?1, ?2, ?3, ?4)",
            params![
                game.name,
                i64::from(game.turn),
                game.position.phase.to_string(),
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

    pub fn history(&self, game: &str) -> Result<Vec<HistoryEntry>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT at, phase, subject, body FROM history WHERE game = ?1 ORDER BY id",
        )?;
        let rows = st.query_map(params![game], |r| {
            Ok((r.get::<_, String>(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (at, phase, subject, body) = row?;
            if let Some(at) = parse_ts(&at) {
                out.push(HistoryEntry {
                    at,
                    phase,
                    subject,
                    body,
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
    if let crate::variant::Lookup::Found(v) = variants.by_name(&g.variant) {
        g.decode(v).map_err(|e| corrupt(e.to_string()))?;
    }
    g.position.assign_unit_ids();
    Ok(g)
}

#[cfg(test)]
mod tests;
