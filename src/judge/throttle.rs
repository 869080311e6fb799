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

/// The throttle's name for joining a private game (`SIGNON ?game password code`): its
/// join password and invitation codes are checked at most [`CHECKS_PER_HOUR`] times an hour
/// when wrong. Nobody is told of these (no seat's owner to tell).
pub(super) const JOIN: &str = "joining";

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

/// Records a wrong password checked for a seat (the one that reaches the limit locks it).
pub(super) fn wrong(
    tx: &Tx<'_>,
    game: &str,
    seat: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.record_signon_failure(game, seat, now, now - window())?;
    tx.count_wrong_signon(game, seat, now, true)
}

/// Records a sign-on a locked seat refused unchecked.
pub(super) fn refused(
    tx: &Tx<'_>,
    game: &str,
    seat: &str,
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
        if w.checked < CHECKS_PER_HOUR as u64 || locked_until(tx, &w.game, &w.seat, now)?.is_some()
        {
            continue;
        }
        tx.drop_wrong_signons(&w.game, &w.seat)?;
        let Some(g) = tx.load_game(&w.game)? else {
            continue;
        };
        let Some((audience, address)) = seat_address(&g, &w.seat) else {
            continue;
        };
        let who = if w.seat == "master" {
            "the master".to_string()
        } else {
            w.seat.clone()
        };
        let locked = if w.refused == 0 {
            String::new()
        } else {
            format!(
                " and {} more refused unchecked while the seat was locked ({CHECKS_PER_HOUR} wrong passwords within an hour lock it for the rest of that hour; the right password would have been refused too)",
                w.refused
            )
        };
        let body = format!(
            "Since {since}, {total} sign-ons as {who} in '{game}' were refused: {checked} with a wrong password{locked}.\n\
             \n\
             Your password has not changed and works now. If these sign-ons were not yours, \
             someone is trying to guess it: a long password (SET PASSWORD) keeps them out.\n",
            since = format_time(&g, w.since),
            total = w.checked + w.refused,
            game = g.name,
            checked = w.checked,
        );
        out.push(NewMail {
            game: Some(g.name.clone()),
            audience,
            recipient: address,
            subject: format!("{}:{} - Wrong passwords for {who}", config.name, g.name),
            body,
            kind: "generated",
            in_reply_to: None,
            pictures: Vec::new(),
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
