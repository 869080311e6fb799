//! The outbox's delivery state (issue 36): when each queued mail may be tried next, since
//! when it has been failing, whose mail queued it, and the order the queue drains in.
//!
//! Time enters as a value (a pass's `now`): nothing here reads a clock. A mail is given up
//! for time, not for a count of attempts (the daemon decides, from
//! [`Tx::record_failed_attempt`]'s answer); each attempt is counted once the transport
//! answered for it, never before.

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::{QueuedMail, StoreError, Tx, queued_mail_row, read_time, ts};

/// How many queued mails of one origin go in one round of the drain: an origin with more
/// waits its turn behind every other origin's first this many ([`Tx::due_mail`]).
pub const FAIR_SHARE: usize = 50;

/// A queued mail that has been failing, as its game's master is told of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delayed {
    pub id: i64,
    pub game: String,
    pub recipient: String,
    pub failing_since: DateTime<Utc>,
    pub last_error: String,
}

impl Tx<'_> {
    /// Queued mail that may be tried at `now` (none waits for a later attempt), at most
    /// `limit`, in the order the queue drains: by id, in rounds of [`FAIR_SHARE`] per
    /// origin (the address whose mail queued it; a game's own mail is its game's), so one
    /// sender's thousands of mails wait behind everyone else's first fifty and never hold
    /// up other senders' replies. With no origin over its share, this is the order of ids.
    pub fn due_mail(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<QueuedMail>, StoreError> {
        // Only ids are ranked and sorted; the chosen rows are read after.
        let mut st = self.tx.prepare_cached(
            "WITH ranked AS (
                 SELECT id, ROW_NUMBER() OVER (
                     PARTITION BY COALESCE(origin, 'game ' || game, '') ORDER BY id) AS rank
                 FROM outbox
                 WHERE status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= ?1)),
             chosen AS (
                 SELECT id, (rank - 1) / ?2 AS round FROM ranked ORDER BY round, id LIMIT ?3)
             SELECT o.id, o.game, o.audience, o.recipient, o.subject, o.body, o.kind,
                 o.in_reply_to, o.picture, o.power
             FROM chosen c JOIN outbox o ON o.id = c.id ORDER BY c.round, c.id",
        )?;
        let share = i64::try_from(FAIR_SHARE).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = st.query_map(params![ts(now), share, limit], queued_mail_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The earliest instant a queued mail that waits for a later attempt may be tried.
    pub fn next_mail_attempt(&self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let at: Option<String> = self.query_row(
            "SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'queued'",
            [],
            |r| r.get(0),
        )?;
        Ok(at.as_deref().and_then(read_time))
    }

    /// Records that the transport failed, for now, on mail `id` at `now` (`error`: what it
    /// said): one more attempt, failing since its first failure; with `retry`, tried again
    /// no sooner than `retry(attempts)`, else whenever the queue is tried again. Returns the
    /// attempts and since when it has been failing.
    pub fn record_failed_attempt(
        &self,
        id: i64,
        now: DateTime<Utc>,
        error: &str,
        retry: Option<&dyn Fn(i64) -> DateTime<Utc>>,
    ) -> Result<(i64, DateTime<Utc>), StoreError> {
        self.execute(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?3,
                 failing_since = COALESCE(failing_since, ?2), next_attempt_at = NULL
             WHERE id = ?1",
            params![id, ts(now), error],
        )?;
        let (attempts, since): (i64, Option<String>) = self.query_row(
            "SELECT attempts, failing_since FROM outbox WHERE id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if let Some(retry) = retry {
            self.execute(
                "UPDATE outbox SET next_attempt_at = ?2 WHERE id = ?1",
                params![id, ts(retry(attempts))],
            )?;
        }
        Ok((
            attempts,
            since.as_deref().and_then(read_time).unwrap_or(now),
        ))
    }

    /// The mail that has been failing since `before` or earlier, whose game's master has
    /// not been told yet (mail to a master is not reported to that master).
    pub fn delayed_untold(&self, before: DateTime<Utc>) -> Result<Vec<Delayed>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, game, recipient, failing_since, COALESCE(last_error, '') FROM outbox
             WHERE status = 'queued' AND delay_told = 0 AND game IS NOT NULL
               AND audience != 'master' AND failing_since IS NOT NULL AND failing_since <= ?1
             ORDER BY id",
        )?;
        let rows = st.query_map(params![ts(before)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, game, recipient, since, last_error) = row?;
            if let Some(failing_since) = read_time(&since) {
                out.push(Delayed {
                    id,
                    game,
                    recipient,
                    failing_since,
                    last_error,
                });
            }
        }
        Ok(out)
    }

    /// Marks mail `id`'s delay as told to its game's master.
    pub fn mark_delay_told(&self, id: i64) -> Result<(), StoreError> {
        self.execute(
            "UPDATE outbox SET delay_told = 1 WHERE id = ?1",
            params![id],
        )?;
        Ok(())
    }

    /// The id of the last outbox row (0: none): rows queued after it in a transaction are
    /// that transaction's.
    pub fn last_mail_id(&self) -> Result<i64, StoreError> {
        Ok(self.query_row("SELECT COALESCE(MAX(id), 0) FROM outbox", [], |r| r.get(0))?)
    }

    /// The rows queued after `id`, in order: their ids, recipients and pictures' names.
    pub fn mail_after(&self, id: i64) -> Result<Vec<(i64, String, Vec<String>)>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT id, recipient, picture FROM outbox WHERE id > ?1 ORDER BY id",
        )?;
        let rows = st.query_map(params![id], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                super::picture_names(r.get::<_, Option<String>>(2)?.as_deref()),
            ))
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Records `origin` (the address whose mail queued them) on the rows queued after `id`.
    pub fn set_origin_after(&self, id: i64, origin: &str) -> Result<(), StoreError> {
        self.execute(
            "UPDATE outbox SET origin = ?2 WHERE id > ?1",
            params![id, origin.to_ascii_lowercase()],
        )?;
        Ok(())
    }

    /// Takes a queued mail out of the outbox before it was ever tried (a mail's flood, cut).
    pub fn unqueue_mail(&self, id: i64) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM outbox WHERE id = ?1 AND status = 'queued' AND attempts = 0",
            params![id],
        )?;
        Ok(())
    }

    /// Adds `text` at the end of a queued mail's text.
    pub fn append_to_mail(&self, id: i64, text: &str) -> Result<(), StoreError> {
        self.execute(
            "UPDATE outbox SET body = body || ?2 WHERE id = ?1 AND status = 'queued'",
            params![id, text],
        )?;
        Ok(())
    }

    /// The attachments and the bytes of text of the replies to `recipient` queued at or
    /// after `since` (`judge::proof`'s bounds): those sent since, and those still queued.
    pub fn replies_to_since(
        &self,
        recipient: &str,
        since: DateTime<Utc>,
    ) -> Result<(usize, usize), StoreError> {
        // The two halves each read an index: sent replies by `sent_at`, queued mail by id.
        let mut st = self.tx.prepare_cached(
            "SELECT picture, length(CAST(body AS BLOB)) FROM outbox \
             WHERE kind = 'replied' AND status = 'sent' AND sent_at >= ?2 \
               AND recipient = ?1 COLLATE NOCASE \
             UNION ALL \
             SELECT picture, length(CAST(body AS BLOB)) FROM outbox \
             WHERE status = 'queued' AND kind = 'replied' AND created_at >= ?2 \
               AND recipient = ?1 COLLATE NOCASE",
        )?;
        let rows = st.query_map(params![recipient, ts(since)], |r| {
            Ok((r.get::<_, Option<String>>(0)?, r.get::<_, i64>(1)?))
        })?;
        let (mut attachments, mut bytes) = (0, 0);
        for row in rows {
            let (pictures, len) = row?;
            attachments += super::picture_names(pictures.as_deref()).len();
            bytes += usize::try_from(len).unwrap_or(0);
        }
        Ok((attachments, bytes))
    }
}
