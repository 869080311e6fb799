//! Sign-on throttling: however many addresses send them, a seat (a power's, or a game's
//! master's) checks at most [`CHECKS_PER_HOUR`] wrong passwords an hour. Once it has, it
//! checks none, the right one included, until the oldest of them is an hour old: the
//! attempts meanwhile are refused unchecked and counted.
//!
//! The seat's registered address is told of wrong sign-ons once [`CHECKS_PER_HOUR`] of
//! them have had their password checked since it was last told (in one hour, or over
//! months), at the first tick when the seat is not locked: one notice with the count, not
//! one per attempt. A guesser who keeps under the lock's rate is reported all the same.
//!
//! A guesser who rotates addresses gains nothing: the limit is the seat's, not the
//! sender's. The price is that a guesser can keep the seat's owner out too (see README).

use chrono::{DateTime, Duration, Utc};

use crate::bulletin::notices::wrong_passwords;
use crate::game::{Game, Sender};
use crate::store::{Audience, MailKind, NewMail, StoreError, Tx};

use super::JudgeConfig;

/// Wrong passwords a seat checks in an hour.
pub(super) const CHECKS_PER_HOUR: usize = 10;

/// The window the wrong passwords are counted over.
fn window() -> Duration {
    Duration::hours(1)
}

/// The key wrong join passwords and invitation codes of a private game are counted under
/// (`SIGNON ?game password code`), as its master's seat: a game's name never holds `?`, so
/// no game has it, and nobody is told of them (no seat's owner to tell). The game's joining
/// checks at most [`CHECKS_PER_HOUR`] wrong ones an hour.
pub(super) fn join_key(game: &str) -> String {
    let mut key = game.to_string();
    key.push_str("?join");
    key
}

/// The key wrong observer passwords of `address` in `game` are counted under (`SIGNON Ogame
/// password`), as the master's seat: like [`join_key`], no game has it and nobody is told;
/// each observer's sign-on checks at most [`CHECKS_PER_HOUR`] wrong ones an hour.
pub(super) fn observer_key(game: &str, address: &str) -> String {
    let mut key = game.to_string();
    key.push_str("?observer ");
    key.push_str(&address.to_ascii_lowercase());
    key
}

/// Until when a seat checks no password (None: it checks).
pub(super) fn locked_until(
    tx: &Tx<'_>,
    game: &str,
    seat: Sender,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    let (n, first) = tx.signon_failures_since(game, seat, now - window())?;
    Ok(match first {
        Some(first) if n >= CHECKS_PER_HOUR => Some(first + window()),
        _ => None,
    })
}

/// Records a wrong password checked for a seat (the one that reaches the limit locks it).
pub(super) fn wrong(
    tx: &Tx<'_>,
    game: &str,
    seat: Sender,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.record_signon_failure(game, seat, now, now - window())?;
    tx.count_wrong_signon(game, seat, now, true)
}

/// Records a sign-on a locked seat refused unchecked.
pub(super) fn refused(
    tx: &Tx<'_>,
    game: &str,
    seat: Sender,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.count_wrong_signon(game, seat, now, false)
}

/// The notices owed: to each seat's registered address, once [`CHECKS_PER_HOUR`] wrong
/// passwords were checked for it since it was last told and it is not locked now, with how
/// many wrong sign-ons it was sent; their count starts again.
pub(super) fn notices(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    now: DateTime<Utc>,
) -> Result<Vec<NewMail>, StoreError> {
    let mut out = Vec::new();
    for w in tx.wrong_signons()? {
        if w.checked < CHECKS_PER_HOUR as u64 || locked_until(tx, &w.game, w.seat, now)?.is_some() {
            continue;
        }
        tx.drop_wrong_signons(&w.game, w.seat)?;
        let Some(g) = tx.load_game(&w.game)? else {
            continue;
        };
        let Some((audience, address)) = seat_address(&g, w.seat) else {
            continue;
        };
        let n = wrong_passwords(
            &config.name,
            &g,
            w.seat,
            w.since,
            w.checked,
            w.refused,
            CHECKS_PER_HOUR,
        );
        out.push(NewMail {
            game: Some(g.name().to_string()),
            audience,
            recipient: address,
            subject: n.subject,
            body: n.body,
            kind: MailKind::Generated,
            in_reply_to: None,
            pictures: Vec::new(),
        });
    }
    Ok(out)
}

/// The audience and registered address of a seat.
fn seat_address(g: &Game, seat: Sender) -> Option<(Audience, String)> {
    match seat {
        Sender::Master => Some((Audience::MASTER, g.master().address.clone())),
        Sender::Power(p) => g
            .player(p)
            .map(|pl| (Audience::power(p), pl.seat.address.clone())),
    }
}
