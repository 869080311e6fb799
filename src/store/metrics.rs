//! What the judge counts for its operator (`GET /metrics`, `GET /health`): the totals the
//! database counts itself (migration 11: triggers bump `counters` in the transaction that
//! read a mail, queued one, marked one sent or gave one up, so the totals survive restarts
//! and count every process's work, a `process` from cron included), the outbox as it
//! stands, and the last pass a daemon recorded.

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::{StoreError, Tx, parse_ts, ts};

/// The key of the last pass's end in the judge's key/value table.
const LAST_PASS_AT: &str = "metrics.last_pass_at";
/// The key of the last pass's length (seconds, a decimal).
const LAST_PASS_SECONDS: &str = "metrics.last_pass_seconds";

/// The outbox as it stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutboxGauges {
    /// Mails waiting to be sent.
    pub queued: u64,
    /// Of those, the ones tried at least once (deferred after a failure, or in flight).
    pub deferred: u64,
}

/// The last pass a daemon recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LastPass {
    /// When it ended.
    pub at: DateTime<Utc>,
    /// How long it took, in seconds.
    pub seconds: f64,
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

impl Tx<'_> {
    /// The database's totals, by name (`mails_handled`, `mails_sent`, ...), in name order.
    pub fn counters(&self) -> Result<Vec<(String, u64)>, StoreError> {
        let mut st = self
            .tx
            .prepare_cached("SELECT name, value FROM counters ORDER BY name")?;
        let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, count(r.get(1)?))))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// How many mails wait in the outbox, and how many of them were tried before.
    pub fn outbox_gauges(&self) -> Result<OutboxGauges, StoreError> {
        Ok(self.query_row(
            "SELECT count(*), count(*) FILTER (WHERE attempts > 0)
             FROM outbox WHERE status = 'queued'",
            [],
            |r| {
                Ok(OutboxGauges {
                    queued: count(r.get(0)?),
                    deferred: count(r.get(1)?),
                })
            },
        )?)
    }

    /// Records a pass that ended at `at` and took `seconds`.
    pub fn record_pass(&self, at: DateTime<Utc>, seconds: f64) -> Result<(), StoreError> {
        for (key, value) in [
            (LAST_PASS_AT, ts(at)),
            (LAST_PASS_SECONDS, format!("{seconds:.6}")),
        ] {
            self.execute(
                "INSERT INTO config (key, value) VALUES (?1, ?2)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )?;
        }
        Ok(())
    }

    /// The last pass recorded, if any.
    pub fn last_pass(&self) -> Result<Option<LastPass>, StoreError> {
        let at = self.get_value(LAST_PASS_AT)?.as_deref().and_then(parse_ts);
        let seconds = self
            .get_value(LAST_PASS_SECONDS)?
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite());
        Ok(at.map(|at| LastPass {
            at,
            seconds: seconds.unwrap_or(0.0),
        }))
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::store::{Audience, MailKind, NewMail, Store};

    fn mail(kind: MailKind) -> NewMail {
        NewMail {
            game: None,
            audience: Audience::Reply,
            recipient: "a@example.test".into(),
            subject: "s".into(),
            body: "b".into(),
            kind,
            in_reply_to: None,
            pictures: Vec::new(),
        }
    }

    #[test]
    fn the_database_counts_what_each_transaction_did_and_a_rollback_counts_nothing() {
        let mut store = Store::open_in_memory().unwrap();
        let at = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
        store
            .transaction(|tx| {
                tx.record_message("k1", Some("k1"), at, "a@x", None)?;
                tx.record_message("k2", Some("k2"), at, "b@x", Some("silenced: bounce"))?;
                tx.record_message(
                    "k3",
                    None,
                    at,
                    "c@x",
                    Some("set aside after 3 failed attempts"),
                )?;
                tx.record_message(
                    "k4",
                    None,
                    at,
                    "d@x",
                    Some("too big: 9 bytes, over the limit of 1"),
                )?;
                // A copy is recorded once and counted once.
                tx.record_message("k1", Some("k1"), at, "a@x", None)?;
                let r = tx.queue_mail(&mail(MailKind::Replied), at)?;
                let g = tx.queue_mail(&mail(MailKind::Generated), at)?;
                let f = tx.queue_mail(&mail(MailKind::Generated), at)?;
                tx.bump_attempts(f)?;
                tx.mark_sent(r, at)?;
                tx.mark_sent(r, at)?;
                tx.bump_attempts(g)?;
                tx.mark_failed(g, "refused")?;
                Ok::<_, StoreError>(())
            })
            .unwrap();
        // Rolled back: nothing counted.
        let _ = store.transaction(|tx| {
            tx.record_message("k9", None, at, "e@x", None)?;
            Err::<(), _>(StoreError::TooNew { found: 0, known: 0 })
        });
        let got = store.read(|tx| tx.counters()).unwrap();
        let want: Vec<(String, u64)> = [
            ("mails_given_up", 1),
            ("mails_handled", 1),
            ("mails_other", 0),
            ("mails_oversize", 1),
            ("mails_queued", 3),
            ("mails_sent", 1),
            ("mails_set_aside", 1),
            ("mails_silenced", 1),
            ("replies_queued", 1),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect();
        assert_eq!(got, want);
        let gauges = store.read(|tx| tx.outbox_gauges()).unwrap();
        assert_eq!(
            gauges,
            OutboxGauges {
                queued: 1,
                deferred: 1
            }
        );
        assert_eq!(store.read(|tx| tx.last_pass()).unwrap(), None);
        store.transaction(|tx| tx.record_pass(at, 0.25)).unwrap();
        assert_eq!(
            store.read(|tx| tx.last_pass()).unwrap(),
            Some(LastPass { at, seconds: 0.25 })
        );
    }
}
