//! What one mail can make the judge send is bounded (issue 36): a mail of thousands of press
//! blocks queued twenty thousand mails. After a mail is handled, the mails it queued beyond
//! [`PER_ADDRESS`] to one address, or beyond [`TOTAL`] in all, are taken out of the outbox
//! again (the last ones: the reply, queued first, always stays), and the reply says how
//! many were not sent. What the mail wrote is kept (press in the game's history, where
//! `HISTORY` shows it to its readers); only the copies are not mailed. Generic: it counts
//! rows, whatever command queued them (issue 37 bounds what single commands may send).

use crate::bulletin::notices;
use crate::store::{Audience, StoreError, Tx};

use super::Incoming;

/// The most mails one incoming mail makes the judge send to one address. A master's mail
/// that processes a phase sends each player a few; a player's press to one power, a few.
pub const PER_ADDRESS: usize = 30;

/// The most mails one incoming mail makes the judge send in all (a processed phase of a
/// game followed by hundreds of observers stays well within it).
pub const TOTAL: usize = 1_000;

/// Takes the mails queued after outbox row `before` (those `msg` made) beyond the bounds
/// out of the outbox again, and adds a note to the reply; returns how many were taken out.
pub(super) fn cap(tx: &Tx<'_>, before: i64, msg: &Incoming) -> Result<usize, StoreError> {
    let rows = tx.mail_after(before)?;
    if rows.len() <= PER_ADDRESS.min(TOTAL) {
        return Ok(0);
    }
    let mut per_address: std::collections::HashMap<String, usize> =
        std::collections::HashMap::new();
    let mut kept = 0usize;
    let mut dropped = Vec::new();
    let mut games = Vec::new();
    for (id, recipient, pictures) in &rows {
        let n = per_address
            .entry(recipient.to_ascii_lowercase())
            .or_default();
        if *n >= PER_ADDRESS || kept >= TOTAL {
            dropped.push(*id);
            games.extend(
                pictures
                    .iter()
                    .filter_map(|p| p.split_once('/').map(|(g, _)| g.to_string())),
            );
            continue;
        }
        *n += 1;
        kept += 1;
    }
    if dropped.is_empty() {
        return Ok(0);
    }
    for id in &dropped {
        tx.unqueue_mail(*id)?;
    }
    games.sort_unstable();
    games.dedup();
    for g in &games {
        tx.drop_unsent_scenes(g)?;
    }
    tracing::warn!(
        from = %msg.from,
        key = %msg.key,
        wanted = rows.len(),
        dropped = dropped.len(),
        "a mail made the judge queue more mails than it sends for one mail; the rest are not sent"
    );
    // The reply is the first mail the session queued, when it answered at all.
    if let Some((first, _, _)) = rows.first()
        && let Some(reply) = tx.mail(*first)?
        && reply.audience == Audience::Reply
    {
        tx.append_to_mail(
            *first,
            &notices::flood_note(rows.len(), dropped.len(), PER_ADDRESS, TOTAL),
        )?;
    }
    Ok(dropped.len())
}
