//! The web view's queries: a read-only connection whose every page is one read
//! transaction, and the private views' tokens (kept as hashes only, migration 8).

use std::cell::RefCell;
use std::path::Path;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use crate::rules::Position;

use super::{STATEMENT_CACHE, Store, StoreError, Tx, migrations, ts};

/// A private view's token as kept: the seat it opens (`master` or a power's name) and the
/// fingerprint of who held the seat, with which password, when it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebToken {
    pub game: String,
    pub seat: String,
    pub fingerprint: String,
}

impl Store {
    /// Opens the existing database at `path` for reading only (the web view's own
    /// connection: `query_only` refuses every write, and in WAL mode a reader never waits
    /// for the judge's writer nor holds it up). The schema must be one this judge knows;
    /// the judge creates and migrates it. (Opened read-write at the file level so that
    /// SQLite may create the WAL index when no judge runs.)
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.pragma_update(None, "query_only", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if found > migrations::LATEST {
            return Err(StoreError::TooNew {
                found,
                known: migrations::LATEST,
            });
        }
        Ok(Store {
            conn,
            variants: crate::variant::Registry::default(),
            faults: None,
            summariser: None,
        })
    }

    /// Runs `f` in one deferred (read) transaction, rolled back at the end: everything it
    /// reads comes from one snapshot of the database.
    pub fn read<T, E>(&mut self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Deferred)
            .map_err(StoreError::from)?;
        let t = Tx {
            tx,
            faults: None,
            variants: &self.variants,
            games: RefCell::new(Vec::new()),
            summariser: self.summariser,
        };
        let out = f(&t);
        t.tx.rollback().map_err(StoreError::from)?;
        out
    }
}

impl Tx<'_> {
    /// The positions of a game's snapshots (each phase's start, in turn order): only the
    /// position of each stored game is read (the centre chart needs no more, and a whole
    /// game costs several times its position to read).
    pub fn snapshot_positions(&self, game: &str) -> Result<Vec<Position>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT json_extract(state, '$.position') FROM snapshots WHERE game = ?1 ORDER BY seq",
        )?;
        let rows = st.query_map(params![game], |r| r.get::<_, Option<String>>(0))?;
        let mut out = Vec::new();
        for json in rows {
            let Some(json) = json? else { continue };
            out.push(
                serde_json::from_str(&json).map_err(|e| StoreError::Corrupt {
                    game: game.to_string(),
                    reason: e.to_string(),
                })?,
            );
        }
        Ok(out)
    }

    /// Keeps a new token of a private view by its hash.
    pub fn add_web_token(
        &self,
        hash: &str,
        token: &WebToken,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO web_tokens (hash, game, seat, fingerprint, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![hash, token.game, token.seat, token.fingerprint, ts(at)],
        )?;
        Ok(())
    }

    /// Drops a seat's tokens made for another holder or password than `fingerprint`.
    pub fn drop_stale_web_tokens(
        &self,
        game: &str,
        seat: &str,
        fingerprint: &str,
    ) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM web_tokens WHERE game = ?1 AND seat = ?2 AND fingerprint <> ?3",
            params![game, seat, fingerprint],
        )?;
        Ok(())
    }

    /// The token kept under `hash`, if any.
    pub fn web_token(&self, hash: &str) -> Result<Option<WebToken>, StoreError> {
        Ok(self
            .query_row(
                "SELECT game, seat, fingerprint FROM web_tokens WHERE hash = ?1",
                params![hash],
                |r| {
                    Ok(WebToken {
                        game: r.get(0)?,
                        seat: r.get(1)?,
                        fingerprint: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }
}
