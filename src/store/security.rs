//! What the judge keeps against guessing, forged addresses and floods: the wrong passwords
//! checked for each seat in the last hour, and the wrong sign-ons its owner is to be told
//! of; the addresses that proved themselves, and the confirmations waiting for the others;
//! the games each address created in the last day, the mails each address was sent on
//! someone else's word, and the removal of a forming game nobody joined; whether a mail a
//! delivery report names went out.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::audience::{seat_named, seat_word};
use super::{StoreError, Tx, parse_ts, ts};
use crate::variant::Sender;

/// The wrong sign-ons of a seat its owner has not been told of: since the first of them,
/// how many had their password checked, how many a locked seat refused unchecked, and how
/// many locks they started; and when the owner was last told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongSignons {
    pub game: String,
    /// Whose seat: a power's, or the master's.
    pub seat: Sender,
    pub since: DateTime<Utc>,
    pub checked: u64,
    pub refused: u64,
    /// Locks they started (a budget of wrong passwords used up within the hour).
    pub locks: u64,
    /// When the seat's owner was last told (None: never).
    pub told_at: Option<DateTime<Utc>>,
}

/// A confirmation the judge mailed to an address, and what waits for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingConfirmation {
    pub code: String,
    /// What the address asked for, as the judge wrote it down (it reads it back).
    pub requests: String,
    pub created_at: DateTime<Utc>,
    /// Wrong codes sent for it so far from the address itself.
    pub wrong: u32,
    /// Wrong codes sent for it so far from other addresses (a mail whose From is not it).
    pub stranger_wrong: u32,
}

/// What is kept of an address for a day: the games it created, the mails the judge sent it
/// on someone else's word.
#[derive(Clone, Copy)]
enum Daily {
    Creations,
    UnaskedMails,
}

impl Daily {
    /// Its statements: forget the old ones, record one, count one address's since.
    fn sql(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Daily::Creations => (
                "DELETE FROM game_creations WHERE at < ?1",
                "INSERT INTO game_creations (address, at) VALUES (?1, ?2)",
                "SELECT count(*) FROM game_creations WHERE address = ?1 AND at > ?2",
            ),
            Daily::UnaskedMails => (
                "DELETE FROM unasked_mails WHERE at < ?1",
                "INSERT INTO unasked_mails (address, at) VALUES (?1, ?2)",
                "SELECT count(*) FROM unasked_mails WHERE address = ?1 AND at > ?2",
            ),
        }
    }
}

impl Tx<'_> {
    /// Records a wrong password checked for a seat at `at`, sent from `sender` (the seat's
    /// own registered address when `owner`), and forgets every wrong password checked
    /// before `forget_before`.
    pub fn record_signon_failure(
        &self,
        game: &str,
        seat: Sender,
        sender: &str,
        owner: bool,
        at: DateTime<Utc>,
        forget_before: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM signon_failures WHERE at < ?1",
            params![ts(forget_before)],
        )?;
        self.execute(
            "INSERT INTO signon_failures (game, seat, at, sender, owner) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                game,
                seat_word(seat),
                ts(at),
                sender.to_ascii_lowercase(),
                i64::from(owner)
            ],
        )?;
        Ok(())
    }

    /// How many wrong passwords were checked for a seat at or after `since`, from its own
    /// address (`owner`) or from any other, and when the first of them was.
    pub fn signon_failures_since(
        &self,
        game: &str,
        seat: Sender,
        owner: bool,
        since: DateTime<Utc>,
    ) -> Result<(usize, Option<DateTime<Utc>>), StoreError> {
        self.count_failures(
            "SELECT count(*), min(at) FROM signon_failures
             WHERE game = ?1 AND seat = ?2 AND owner = ?3 AND at >= ?4",
            params![game, seat_word(seat), i64::from(owner), ts(since)],
        )
    }

    /// The count and the first time of the wrong passwords `sql` selects (`count(*),
    /// min(at)`).
    fn count_failures(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<(usize, Option<DateTime<Utc>>), StoreError> {
        let (n, first): (i64, Option<String>) =
            self.query_row(sql, params, |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok((
            usize::try_from(n).unwrap_or(0),
            first.as_deref().and_then(parse_ts),
        ))
    }

    /// How many wrong passwords `sender` sent at or after `since` for seats registered at
    /// other addresses, over every game, and when the first of them was.
    pub fn sender_failures_since(
        &self,
        sender: &str,
        since: DateTime<Utc>,
    ) -> Result<(usize, Option<DateTime<Utc>>), StoreError> {
        self.count_failures(
            "SELECT count(*), min(at) FROM signon_failures
             WHERE sender = ?1 AND owner = 0 AND at >= ?2",
            params![sender.to_ascii_lowercase(), ts(since)],
        )
    }

    /// Counts a wrong sign-on for a seat's owner to be told of: one whose password was
    /// checked (`checked`), or one a locked seat refused unchecked; `locked`: it started a
    /// lock.
    pub fn count_wrong_signon(
        &self,
        game: &str,
        seat: Sender,
        at: DateTime<Utc>,
        checked: bool,
        locked: bool,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO wrong_signons (game, seat, since, checked, refused, locks)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT(game, seat) DO UPDATE SET
                 since = CASE WHEN checked + refused + locks = 0 THEN excluded.since ELSE since END,
                 checked = checked + excluded.checked,
                 refused = refused + excluded.refused,
                 locks = locks + excluded.locks",
            params![
                game,
                seat_word(seat),
                ts(at),
                i64::from(checked),
                i64::from(!checked),
                i64::from(locked)
            ],
        )?;
        Ok(())
    }

    /// The wrong sign-ons of every seat whose owner has not been told of them, oldest
    /// first.
    pub fn wrong_signons(&self) -> Result<Vec<WrongSignons>, StoreError> {
        let mut st = self.tx.prepare_cached(
            "SELECT game, seat, since, checked, refused, locks, told_at FROM wrong_signons
             WHERE checked + refused + locks > 0 ORDER BY since, game, seat",
        )?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, Option<String>>(6)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (game, seat, since, checked, refused, locks, told_at) = row?;
            // A seat the store never writes belongs to nobody.
            if let (Some(since), Some(seat)) = (parse_ts(&since), seat_named(&seat)) {
                out.push(WrongSignons {
                    game,
                    seat,
                    since,
                    checked: u64::try_from(checked).unwrap_or(0),
                    refused: u64::try_from(refused).unwrap_or(0),
                    locks: u64::try_from(locks).unwrap_or(0),
                    told_at: told_at.as_deref().and_then(parse_ts),
                });
            }
        }
        Ok(out)
    }

    /// A seat's owner was told of its wrong sign-ons at `at`: their count starts again.
    pub fn told_wrong_signons(
        &self,
        game: &str,
        seat: Sender,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.execute(
            "UPDATE wrong_signons SET checked = 0, refused = 0, locks = 0, told_at = ?3
             WHERE game = ?1 AND seat = ?2",
            params![game, seat_word(seat), ts(at)],
        )?;
        Ok(())
    }

    /// Whether outbox mail `id` went out (the server took it) to `recipient` (any letter
    /// case): what a delivery report must name to count.
    pub fn was_sent_to(&self, id: i64, recipient: &str) -> Result<bool, StoreError> {
        Ok(self
            .query_row(
                "SELECT 1 FROM outbox WHERE id = ?1 AND status = 'sent' AND recipient = ?2 COLLATE NOCASE",
                params![id, recipient],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Whether an address answered a confirmation once.
    pub fn is_proven(&self, address: &str) -> Result<bool, StoreError> {
        Ok(self
            .query_row(
                "SELECT 1 FROM proven_addresses WHERE address = ?1",
                params![address],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Records that an address answered its confirmation.
    pub fn prove_address(&self, address: &str, at: DateTime<Utc>) -> Result<(), StoreError> {
        self.execute(
            "INSERT OR IGNORE INTO proven_addresses (address, at) VALUES (?1, ?2)",
            params![address, ts(at)],
        )?;
        Ok(())
    }

    /// The confirmation waiting for an address, if any.
    pub fn pending_confirmation(
        &self,
        address: &str,
    ) -> Result<Option<PendingConfirmation>, StoreError> {
        let row: Option<(String, String, String, i64, i64)> = self
            .query_row(
                "SELECT code, requests, created_at, wrong, stranger_wrong FROM confirmations
                 WHERE address = ?1",
                params![address],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()?;
        Ok(row.and_then(|(code, requests, at, wrong, stranger_wrong)| {
            Some(PendingConfirmation {
                code,
                requests,
                created_at: parse_ts(&at)?,
                wrong: u32::try_from(wrong).unwrap_or(u32::MAX),
                stranger_wrong: u32::try_from(stranger_wrong).unwrap_or(u32::MAX),
            })
        }))
    }

    /// Keeps the confirmation mailed to an address (replacing an earlier one).
    pub fn set_confirmation(
        &self,
        address: &str,
        code: &str,
        requests: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO confirmations (address, code, requests, created_at, wrong, stranger_wrong)
             VALUES (?1, ?2, ?3, ?4, 0, 0)
             ON CONFLICT(address) DO UPDATE SET code = excluded.code, requests = excluded.requests,
                 created_at = excluded.created_at, wrong = 0, stranger_wrong = 0",
            params![address, code, requests, ts(at)],
        )?;
        Ok(())
    }

    /// Counts a wrong code sent for an address's confirmation, from the address itself or
    /// (`stranger`) from another.
    pub fn count_wrong_confirmation(
        &self,
        address: &str,
        stranger: bool,
    ) -> Result<(), StoreError> {
        let sql = if stranger {
            "UPDATE confirmations SET stranger_wrong = stranger_wrong + 1 WHERE address = ?1"
        } else {
            "UPDATE confirmations SET wrong = wrong + 1 WHERE address = ?1"
        };
        self.execute(sql, params![address])?;
        Ok(())
    }

    /// Forgets an address's confirmation (answered, or given up).
    pub fn drop_confirmation(&self, address: &str) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM confirmations WHERE address = ?1",
            params![address],
        )?;
        Ok(())
    }

    /// Records a game created by `address` at `at`, forgetting every creation before
    /// `forget_before`.
    pub fn record_creation(
        &self,
        address: &str,
        at: DateTime<Utc>,
        forget_before: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.record_daily(Daily::Creations, address, at, forget_before)
    }

    /// How many games `address` created after `since`.
    pub fn creations_since(
        &self,
        address: &str,
        since: DateTime<Utc>,
    ) -> Result<usize, StoreError> {
        self.count_daily(Daily::Creations, address, since)
    }

    /// How many games were created after `since` by addresses that never answered a
    /// confirmation.
    pub fn unproven_creations_since(&self, since: DateTime<Utc>) -> Result<usize, StoreError> {
        let n: i64 = self.query_row(
            "SELECT count(*) FROM game_creations c WHERE c.at > ?1
             AND NOT EXISTS (SELECT 1 FROM proven_addresses p WHERE p.address = c.address)",
            params![ts(since)],
            |r| r.get(0),
        )?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Records a mail the judge sent `address` at `at` on someone else's word (an
    /// invitation, a co-master's password), forgetting every such mail before
    /// `forget_before`.
    pub fn record_unasked_mail(
        &self,
        address: &str,
        at: DateTime<Utc>,
        forget_before: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.record_daily(Daily::UnaskedMails, address, at, forget_before)
    }

    /// How many mails the judge sent `address` on someone else's word after `since`.
    pub fn unasked_mails_since(
        &self,
        address: &str,
        since: DateTime<Utc>,
    ) -> Result<usize, StoreError> {
        self.count_daily(Daily::UnaskedMails, address, since)
    }

    /// Records an event of `kind` for `address` at `at`, forgetting every one before
    /// `forget_before`.
    fn record_daily(
        &self,
        kind: Daily,
        address: &str,
        at: DateTime<Utc>,
        forget_before: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let (forget, insert, _) = kind.sql();
        self.execute(forget, params![ts(forget_before)])?;
        self.execute(insert, params![address, ts(at)])?;
        Ok(())
    }

    /// How many events of `kind` `address` has after `since`.
    fn count_daily(
        &self,
        kind: Daily,
        address: &str,
        since: DateTime<Utc>,
    ) -> Result<usize, StoreError> {
        let (_, _, count) = kind.sql();
        let n: i64 = self.query_row(count, params![address, ts(since)], |r| r.get(0))?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Removes a game and everything kept for it (a forming game nobody joined).
    pub fn remove_game(&self, game: &str) -> Result<(), StoreError> {
        self.games.borrow_mut().clear();
        for sql in [
            "DELETE FROM games WHERE name = ?1",
            "DELETE FROM snapshots WHERE game = ?1",
            "DELETE FROM history WHERE game = ?1",
            "DELETE FROM pictures WHERE game = ?1",
            "DELETE FROM signon_failures WHERE game = ?1",
            "DELETE FROM wrong_signons WHERE game = ?1",
            "DELETE FROM tenure_addresses WHERE game = ?1",
        ] {
            self.execute(sql, params![game])?;
        }
        Ok(())
    }
}
