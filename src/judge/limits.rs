//! What one mail, or many addresses together, can make the judge do in a day: the mails it
//! sends one address on someone else's word (an invitation, a co-master's password: a
//! master could invite and uninvite a victim, or make game after game to invite it, without
//! end), and the games it creates (each address its `games_per_day`, and the addresses that
//! never answered a confirmation all together `unproven_games_per_day`: 200 throwaway
//! addresses made 200 games).

use chrono::{DateTime, Duration, Utc};

use crate::store::{StoreError, Tx};

use super::JudgeConfig;
use super::refusal::Refusal;

/// Mails the judge sends one address in a day on someone else's word.
pub(super) const UNASKED_MAILS_PER_DAY: usize = 3;

fn day() -> Duration {
    Duration::hours(24)
}

/// The refusal of mailing each of `addresses` one more invitation (or co-master's password)
/// now, naming the first that had its day's share; None when all may be mailed.
pub(super) fn unasked_mail_refusal<'a>(
    tx: &Tx<'_>,
    addresses: impl IntoIterator<Item = &'a String>,
    now: DateTime<Utc>,
) -> Result<Option<Refusal>, StoreError> {
    for a in addresses {
        if tx.unasked_mails_since(a, now - day())? >= UNASKED_MAILS_PER_DAY {
            return Ok(Some(Refusal::MailedEnough {
                address: a.clone(),
                per_day: UNASKED_MAILS_PER_DAY,
            }));
        }
    }
    Ok(None)
}

/// Counts a mail sent `address` on someone else's word.
pub(super) fn count_unasked_mail(
    tx: &Tx<'_>,
    address: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.record_unasked_mail(address, now, now - day())
}

/// The refusal of one more game created by `address` now: it created its
/// `games_per_day`, or it never answered a confirmation and the addresses like it created
/// `unproven_games_per_day` in the last day; None when it may create one.
pub(super) fn creation_refusal(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    address: &str,
    now: DateTime<Utc>,
) -> Result<Option<Refusal>, StoreError> {
    let limit = config.games_per_day;
    if tx.creations_since(address, now - day())? >= limit as usize {
        return Ok(Some(Refusal::TooManyGames(limit)));
    }
    let ceiling = config.unproven_games_per_day;
    if !tx.is_proven(address)? && tx.unproven_creations_since(now - day())? >= ceiling as usize {
        return Ok(Some(Refusal::TooManyNewGames(ceiling)));
    }
    Ok(None)
}

/// Counts a game created by `address`.
pub(super) fn count_creation(
    tx: &Tx<'_>,
    address: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.record_creation(address, now, now - day())
}
