//! Sign-on throttling: a seat's password (a power's, or a game's master's) is checked a
//! bounded number of times an hour, and strangers' guesses never lock its owner out.
//!
//! Who asks counts ([`Asker`]): a mail whose From and reply address are both the seat's
//! registered address is its owner's; any other is a stranger's, known by its From. Wrong
//! passwords are counted against three budgets an hour:
//!
//! - a seat's strangers together: [`CHECKS_PER_HOUR`] (10), however many addresses send
//!   them, so a guesser who rotates addresses gains nothing;
//! - the seat's own address: [`OWNER_CHECKS_PER_HOUR`] (5), its owner's typos, kept apart,
//!   so no stranger's guess uses it up;
//! - one stranger's address over every seat of the judge: [`SENDER_CHECKS_PER_HOUR`] (20).
//!
//! Once a budget is used up, the mails it counts are refused unchecked, the right password
//! included, until the first of its wrong passwords is an hour old: a seat checks at most
//! 15 wrong passwords an hour, and its owner signs on from its own address while strangers
//! are locked out. From is no proof: a guesser who writes the owner's address in From and
//! Reply-To uses the owner's five, and never reads the answers (they go to the owner).
//!
//! The seat's registered address is told at the first tick after a lock of the seat
//! started, or once [`CHECKS_PER_HOUR`] wrong passwords were checked since it was last told
//! (a guesser who keeps under the lock's rate), and at most once in [`NOTICE_HOURS`]: one
//! notice with the counts since the last, never one per attempt.
//!
//! A private game's join passwords and invitation codes ([`join_key`]) and each observer's
//! password ([`observer_key`]) are counted under keys of their own, as strangers only:
//! nobody owns them, and nobody is told.

use chrono::{DateTime, Duration, Utc};

use crate::bulletin::notices::wrong_passwords;
use crate::game::{Game, Sender};
use crate::store::{Audience, MailKind, NewMail, StoreError, Tx};

use super::refusal::Refusal;
use super::{Incoming, JudgeConfig};
use crate::bulletin::dates::format_time;

pub(super) use super::bounds::{CHECKS_PER_HOUR, OWNER_CHECKS_PER_HOUR, SENDER_CHECKS_PER_HOUR};

/// The shortest time between two notices to one seat's owner.
pub(super) const NOTICE_HOURS: i64 = 24;

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

/// Who asks to sign on to a seat, as the throttle counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asker<'a> {
    /// The seat's registered address wrote the mail: its From and its reply address.
    Owner,
    /// Anyone else, known by the address in From.
    Stranger(&'a str),
}

impl<'a> Asker<'a> {
    /// Who `msg` is to a seat registered at `owners` (a power's one address; the master's
    /// and the co-masters').
    fn of(msg: &'a Incoming, owners: &[&str]) -> Asker<'a> {
        let is_owner = |a: &str| {
            owners
                .iter()
                .any(|o| o.trim().eq_ignore_ascii_case(a.trim()))
        };
        if is_owner(&msg.from) && is_owner(msg.reply_address()) {
            Asker::Owner
        } else {
            Asker::Stranger(&msg.from)
        }
    }
}

/// A budget of a seat's (or of one address's) that is used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lock {
    /// The seat's own address sent [`OWNER_CHECKS_PER_HOUR`] wrong passwords.
    Owner(DateTime<Utc>),
    /// Other addresses sent the seat [`CHECKS_PER_HOUR`] wrong passwords.
    Strangers(DateTime<Utc>),
    /// The sending address sent [`SENDER_CHECKS_PER_HOUR`] wrong passwords, over every
    /// seat not its own.
    Sender(DateTime<Utc>),
}

impl Lock {
    /// The refusal a locked sign-on gets, with the time checks resume.
    fn refusal(self, g: &Game) -> Refusal {
        match self {
            Lock::Owner(until) => Refusal::OwnerLocked {
                until: format_time(g, until),
            },
            Lock::Strangers(until) => Refusal::SignonLocked {
                until: format_time(g, until),
            },
            Lock::Sender(until) => Refusal::SenderLocked {
                until: format_time(g, until),
            },
        }
    }
}

/// The lock that keeps `asker` from signing on to `seat` of `game` now, if any.
fn lock_on(
    tx: &Tx<'_>,
    game: &str,
    seat: Sender,
    asker: Asker<'_>,
    now: DateTime<Utc>,
) -> Result<Option<Lock>, StoreError> {
    let since = now - window();
    let used_up = |(n, first): (usize, Option<DateTime<Utc>>), limit: usize| {
        first.filter(|_| n >= limit).map(|f| f + window())
    };
    Ok(match asker {
        Asker::Owner => used_up(
            tx.signon_failures_since(game, seat, true, since)?,
            OWNER_CHECKS_PER_HOUR,
        )
        .map(Lock::Owner),
        Asker::Stranger(from) => match used_up(
            tx.signon_failures_since(game, seat, false, since)?,
            CHECKS_PER_HOUR,
        ) {
            Some(until) => Some(Lock::Strangers(until)),
            None => used_up(
                tx.sender_failures_since(from, since)?,
                SENDER_CHECKS_PER_HOUR,
            )
            .map(Lock::Sender),
        },
    })
}

/// Checks a password for `seat` of `g` (a power's, or the master's: all its master seats
/// are one to the throttle) as the throttle allows, for the mail `msg`: `verify` is asked
/// only when the asker's budgets are not used up, and returns what the right password
/// found (None: wrong). A wrong one is counted, and the one that uses up a budget of the
/// seat starts a lock its owner is told of.
pub(super) fn check_seat<T>(
    tx: &Tx<'_>,
    g: &Game,
    seat: Sender,
    msg: &Incoming,
    now: DateTime<Utc>,
    verify: impl FnOnce() -> Option<T>,
) -> Result<Result<T, Refusal>, StoreError> {
    let owners: Vec<&str> = match seat {
        Sender::Master => g.master_seats().map(|s| s.address.as_str()).collect(),
        Sender::Power(p) => g
            .player(p)
            .map(|pl| pl.seat.address.as_str())
            .into_iter()
            .collect(),
    };
    let asker = Asker::of(msg, &owners);
    if let Some(lock) = lock_on(tx, g.name(), seat, asker, now)? {
        tx.count_wrong_signon(g.name(), seat, now, false, false)?;
        return Ok(Err(lock.refusal(g)));
    }
    if let Some(found) = verify() {
        return Ok(Ok(found));
    }
    let (sender, owner) = match asker {
        Asker::Owner => ("", true),
        Asker::Stranger(from) => (from, false),
    };
    tx.record_signon_failure(g.name(), seat, sender, owner, now, now - window())?;
    // The wrong password that uses up a budget of the seat starts a lock.
    let limit = if owner {
        OWNER_CHECKS_PER_HOUR
    } else {
        CHECKS_PER_HOUR
    };
    let (n, _) = tx.signon_failures_since(g.name(), seat, owner, now - window())?;
    tx.count_wrong_signon(g.name(), seat, now, true, n == limit)?;
    Ok(Err(Refusal::BadSignon))
}

/// Until when `key` (a [`join_key`] or an [`observer_key`]) checks no password (None: it
/// checks).
pub(super) fn locked_until(
    tx: &Tx<'_>,
    key: &str,
    seat: Sender,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    let (n, first) = tx.signon_failures_since(key, seat, false, now - window())?;
    Ok(match first {
        Some(first) if n >= CHECKS_PER_HOUR => Some(first + window()),
        _ => None,
    })
}

/// Records a wrong password or code checked for `key` (the one that reaches the limit
/// locks it).
pub(super) fn wrong(
    tx: &Tx<'_>,
    key: &str,
    seat: Sender,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.record_signon_failure(key, seat, "", false, now, now - window())?;
    tx.count_wrong_signon(key, seat, now, true, false)
}

/// Records a password or code a locked `key` refused unchecked.
pub(super) fn refused(
    tx: &Tx<'_>,
    key: &str,
    seat: Sender,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    tx.count_wrong_signon(key, seat, now, false, false)
}

/// The notices owed: to each seat's registered address whose seat was locked, or checked
/// [`CHECKS_PER_HOUR`] wrong passwords, since it was last told, and was not told in the
/// last [`NOTICE_HOURS`]; with how many wrong sign-ons it was sent. Their count starts
/// again.
pub(super) fn notices(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    now: DateTime<Utc>,
) -> Result<Vec<NewMail>, StoreError> {
    let mut out = Vec::new();
    for w in tx.wrong_signons()? {
        let due = w.locks > 0 || w.checked >= CHECKS_PER_HOUR as u64;
        let quiet = w
            .told_at
            .is_some_and(|t| now - t < Duration::hours(NOTICE_HOURS));
        if !due || quiet {
            continue;
        }
        tx.told_wrong_signons(&w.game, w.seat, now)?;
        // A join or observer key is no game: nobody to tell.
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
            &address,
            w.since,
            (w.checked, w.refused, w.locks),
            (CHECKS_PER_HOUR, OWNER_CHECKS_PER_HOUR),
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
