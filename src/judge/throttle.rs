//! Sign-on throttling: however many addresses send them, a seat (a power's, or a game's
//! master's) checks at most [`CHECKS_PER_HOUR`] wrong passwords an hour. Once it has, it
//! checks none, the right one included, until the oldest of them is an hour old: the
//! attempts meanwhile are refused unchecked and counted, and when the lock is over the
//! seat's registered address is told once, with the count.
//!
//! A guesser who rotates addresses gains nothing: the limit is the seat's, not the
//! sender's. The price is that a guesser can keep the seat's owner out too (see README).

use chrono::{DateTime, Duration, Utc};

use crate::game::Game;
use crate::map::Power;
use crate::store::{NewMail, StoreError, Tx};

use super::JudgeConfig;
use super::time::format_time;

/// Wrong passwords a seat checks in an hour.
pub(super) const CHECKS_PER_HOUR: usize = 10;

/// The window the wrong passwords are counted over.
fn window() -> Duration {
    Duration::hours(1)
}

/// The seat a sign-on is for, as the throttle names it.
pub(super) fn seat_name(power: Option<Power>) -> &'static str {
    power.map_or("master", |p| p.name())
}

/// Until when a seat checks no password (None: it checks).
pub(super) fn locked_until(
    tx: &Tx<'_>,
    game: &str,
    seat: &str,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    let (n, first) = tx.signon_failures_since(game, seat, now - window())?;
    Ok(match first {
        Some(first) if n >= CHECKS_PER_HOUR => Some(first + window()),
        _ => None,
    })
}

/// Records a wrong password checked for a seat; the one that reaches the limit locks it.
pub(super) fn wrong(
    tx: &Tx<'_>,
    game: &str,
    seat: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.record_signon_failure(game, seat, now, now - window())?;
    // The lock dates from the first of the wrong passwords that set it.
    if let Some(until) = locked_until(tx, game, seat, now)? {
        tx.lock_signons(game, seat, until - window())?;
    }
    Ok(())
}

/// Records a sign-on a locked seat refused unchecked.
pub(super) fn refused(
    tx: &Tx<'_>,
    game: &str,
    seat: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.count_refused_signon(game, seat, now)
}

/// The notices of the locks that are over: one to each seat's registered address, with
/// how many wrong sign-ons it was sent; the locks are dropped.
pub(super) fn notices(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    now: DateTime<Utc>,
) -> Result<Vec<NewMail>, StoreError> {
    let mut out = Vec::new();
    for lock in tx.signon_locks()? {
        if locked_until(tx, &lock.game, &lock.seat, now)?.is_some() {
            continue;
        }
        tx.drop_signon_lock(&lock.game, &lock.seat)?;
        let Some(g) = tx.load_game(&lock.game)? else {
            continue;
        };
        let Some((audience, address)) = seat_address(&g, &lock.seat) else {
            continue;
        };
        let first = lock.since;
        let who = if lock.seat == "master" {
            "the master".to_string()
        } else {
            lock.seat.clone()
        };
        let body = format!(
            "Between {first} and {end}, {total} sign-ons as {who} in '{game}' were refused: \
             the judge checked the first {CHECKS_PER_HOUR} and found wrong passwords, then \
             checked none for an hour and refused the other {refused} unchecked (the right \
             password would have been refused too).\n\
             \n\
             Your password has not changed and works again now. If these sign-ons were not \
             yours, someone is trying to guess it: a long password (SET PASSWORD) keeps them \
             out.\n",
            first = format_time(&g, first),
            end = format_time(&g, first + window()),
            total = CHECKS_PER_HOUR as u64 + lock.refused,
            game = g.name,
            refused = lock.refused,
        );
        out.push(NewMail {
            game: Some(g.name.clone()),
            audience,
            recipient: address,
            subject: format!("{}:{} - Wrong passwords for {who}", config.name, g.name),
            body,
            kind: "generated",
            in_reply_to: None,
            picture: None,
        });
    }
    Ok(out)
}

/// The audience and registered address of a seat.
fn seat_address(g: &Game, seat: &str) -> Option<(String, String)> {
    if seat == "master" {
        return Some(("master".into(), g.master.address.clone()));
    }
    let p = Power::from_name(seat)?;
    g.player(p)
        .map(|pl| (p.name().to_string(), pl.seat.address.clone()))
}
