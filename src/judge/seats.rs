//! Seats changing hands, as the judge carries it out: who is told what when a seat is
//! abandoned or taken over, the newcomer's welcome, a takeover waiting for the master, and a
//! seat whose mail bounces. The life cycle itself is `game`'s ([`Game::abandon`],
//! [`Game::take_over`]); the texts are `bulletin::seats`'s.
//!
//! Who reads a seat's notices: the player concerned (one mail, or a line of the reply to
//! their own mail), the master always, and everyone else who follows the game (its players
//! and, as the game allows, observers) unless the game is quiet (an anonymous game
//! tells everyone, naming the power and no player: [`Game::seat_changes_public`]).

use chrono::{DateTime, Utc};

use crate::bulletin::results::results_subject;
use crate::bulletin::seats as words;
use crate::game::{Abandonment, Game, ObserverLevel, Reader, Seat, TakenOver};
use crate::map::{Map, Power};
use crate::rules::Phase;
use crate::store::{Audience, MailKind, NewMail, StoreError, Tx};

use super::JudgeConfig;
use super::mailing::mails_for;
use crate::bulletin::dates::format_time;

/// A mail about `g` to one address.
fn mail_to(
    g: &Game,
    audience: Audience,
    recipient: &str,
    subject: String,
    body: String,
) -> NewMail {
    NewMail {
        game: Some(g.name().to_string()),
        audience,
        recipient: recipient.to_string(),
        subject,
        body,
        kind: MailKind::Generated,
        in_reply_to: None,
        pictures: Vec::new(),
    }
}

/// A notice to everyone who follows `g` but `except` (its playing seats, the master, and
/// observers as the game allows): `public` for them, `master` for the master. In a quiet
/// game the master alone is told.
fn notice(
    g: &Game,
    except: Option<Power>,
    subject: &str,
    public: &str,
    master: &str,
) -> Vec<NewMail> {
    let mut out = mails_for(g, &[Reader::Master], subject, master, None);
    if !g.seat_changes_public() {
        return out;
    }
    let mut readers: Vec<Reader> = g
        .playing_powers()
        .into_iter()
        .filter(|p| Some(*p) != except)
        .map(Reader::Power)
        .collect();
    if g.settings().press.watch != ObserverLevel::None {
        readers.push(Reader::Observers);
    }
    out.extend(mails_for(g, &readers, subject, public, None));
    out
}

/// The player of `power` left (`why`; `previous` their address): everyone is told (unless
/// the game is quiet), the master with the address; with `tell_player` the player gets
/// one mail (an ejected player, one who missed too many phases; a player who resigned
/// reads it in the reply to their RESIGN).
pub(super) fn abandoned_mails(
    config: &JudgeConfig,
    g: &Game,
    power: Power,
    why: Abandonment,
    previous: &str,
    tell_player: bool,
) -> Vec<NewMail> {
    let subject = words::abandoned_subject(&config.name, g.name(), power, why);
    let public = words::abandoned_notice(g, power, why, None);
    let master = words::abandoned_notice(g, power, why, Some(previous));
    let mut out = Vec::new();
    if tell_player && !previous.is_empty() {
        out.push(mail_to(
            g,
            Audience::power(power),
            previous,
            words::left_subject(&config.name, g.name(), power),
            words::left_mail(g, power, why),
        ));
    }
    out.extend(notice(g, Some(power), &subject, &public, &master));
    out
}

/// Abandons `power`'s seat (`why`, its player's last phase `last`) and makes the mails that
/// tell it; none when nobody played it.
pub(super) fn abandon(
    config: &JudgeConfig,
    g: &mut Game,
    power: Power,
    why: Abandonment,
    last: Phase,
    tell_player: bool,
) -> Vec<NewMail> {
    let previous = g
        .player(power)
        .map(|p| p.seat.address.clone())
        .unwrap_or_default();
    if !g.abandon_at(power, why, last) {
        return Vec::new();
    }
    abandoned_mails(config, g, power, why, &previous, tell_player)
}

/// The last results bulletin of `g` (its subject and text) as anyone outside the game read
/// it, from its history.
fn last_results(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    g: &Game,
) -> Result<Option<(String, String)>, StoreError> {
    Ok(tx
        .history(g.name())?
        .into_iter()
        .rev()
        .find(|e| {
            // The copy anyone outside the game read: the newcomer's own comes with its
            // next results.
            e.is_bulletin()
                && e.is_public()
                && Phase::parse(&e.phase)
                    .is_some_and(|p| e.subject == results_subject(&config.name, g.name(), p))
        })
        .map(|e| (e.subject, e.body)))
}

/// `seat` takes `power` of `g` over at `now`: the seat changes hands ([`Game::take_over`]),
/// the newcomer gets the welcome, the previous player one mail saying their address and
/// password no longer act for the power, and everyone else the notice (in a quiet game only
/// the master; the players read the new deadline, if it moved, without the reason). None
/// when the power is played.
pub(super) fn take_over(
    map: &Map,
    config: &JudgeConfig,
    tx: &Tx<'_>,
    g: &mut Game,
    power: Power,
    seat: Seat,
    now: DateTime<Utc>,
) -> Result<Option<(TakenOver, Vec<NewMail>)>, StoreError> {
    let address = seat.address.clone();
    let Some(done) = g.take_over(power, seat, now) else {
        return Ok(None);
    };
    let phase = g.position().phase;
    let deadline = g.deadline().map(|d| format_time(g, d));
    let moved = done.deadline_moved.map(|d| format_time(g, d));
    let mut mails = Vec::new();
    let results = last_results(config, tx, g)?;
    let welcome = words::welcome(
        map,
        g,
        power,
        &words::Welcome {
            deadline: deadline.as_deref(),
            moved: moved.is_some(),
            waits: done.waits_placed,
            last_results: results.as_ref().map(|(s, b)| (s.as_str(), b.as_str())),
            standing: g.orders_of(power),
        },
    );
    mails.push(mail_to(
        g,
        Audience::power(power),
        &address,
        words::welcome_subject(&config.name, g.name(), power),
        welcome,
    ));
    if let Some(previous) = done
        .previous
        .as_deref()
        .filter(|p| !p.is_empty() && !p.eq_ignore_ascii_case(&address))
    {
        mails.push(mail_to(
            g,
            Audience::power(power),
            previous,
            words::taken_over_subject(&config.name, g.name(), power),
            words::replaced_notice(g.name(), power),
        ));
    }
    let subject = words::taken_over_subject(&config.name, g.name(), power);
    let waits = done.waits_placed;
    let public = words::taken_over_notice(power, phase, moved.as_deref(), waits, None);
    let master = words::taken_over_notice(power, phase, moved.as_deref(), waits, Some(&address));
    mails.extend(notice(g, Some(power), &subject, &public, &master));
    // A quiet game's players are not told of the takeover, but they must know the deadline.
    if !g.seat_changes_public()
        && let Some(d) = &moved
    {
        let readers: Vec<Reader> = g
            .playing_powers()
            .into_iter()
            .filter(|p| *p != power)
            .map(Reader::Power)
            .collect();
        mails.extend(mails_for(
            g,
            &readers,
            &words::deadline_moved_subject(&config.name, g.name()),
            &words::deadline_moved_notice(phase, d),
            None,
        ));
    }
    Ok(Some((done, mails)))
}

/// The master's notice of a takeover that waits for approval.
pub(super) fn claim_mail(config: &JudgeConfig, g: &Game, power: Power, address: &str) -> NewMail {
    mail_to(
        g,
        Audience::MASTER,
        &g.master().address,
        words::claim_subject(&config.name, g.name(), power),
        words::claim_notice(g.name(), power, address),
    )
}

/// The answer to a takeover the master rejected.
pub(super) fn rejected_mail(
    config: &JudgeConfig,
    g: &Game,
    power: Power,
    address: &str,
) -> NewMail {
    mail_to(
        g,
        Audience::power(power),
        address,
        words::rejected_subject(&config.name, g.name(), power),
        words::rejected_notice(g.name(), power),
    )
}

/// The mail to an observer the master ejected.
pub(super) fn subscription_ended_mail(config: &JudgeConfig, g: &Game, address: &str) -> NewMail {
    mail_to(
        g,
        Audience::Reader(Reader::Observers),
        address,
        words::subscription_ended_subject(&config.name, g.name()),
        words::subscription_ended(g.name()),
    )
}

/// A permanent delivery failure of mail about game `game` to `recipient` (`reason`): every
/// seat of the game at that address is marked bouncing, and the master told once per seat.
/// Returns how many seats were newly marked. A game that is gone or suspended is left
/// alone.
pub(super) fn mark_bouncing(
    config: &JudgeConfig,
    tx: &Tx<'_>,
    game: &str,
    recipient: &str,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<usize, StoreError> {
    let mut g = match tx.load_game(game) {
        Ok(Some(g)) => g,
        Ok(None) | Err(StoreError::Suspended { .. }) => return Ok(0),
        Err(e) => return Err(e),
    };
    let mut marked = 0;
    for power in g.seats_at(recipient) {
        if !g.mark_bouncing(power, reason, now) {
            continue;
        }
        marked += 1;
        // The words as the seat keeps them (a line's worth of a server's or a report's).
        let reason = g
            .player(power)
            .and_then(|pl| pl.bouncing.as_ref())
            .map_or_else(|| reason.to_string(), |b| b.reason.clone());
        tracing::warn!(game = %g.name(), %power, to = %recipient, %reason, "a seat's mail bounces; its master is told");
        if g.master().address.eq_ignore_ascii_case(recipient) {
            continue;
        }
        tx.queue_mail(
            &mail_to(
                &g,
                Audience::MASTER,
                &g.master().address,
                words::bouncing_subject(&config.name, g.name(), power),
                words::bouncing_notice(g.name(), power, recipient, &reason),
            ),
            now,
        )?;
    }
    if marked > 0 {
        tx.save_game(&g)?;
    }
    Ok(marked)
}
