//! Who a game's mail goes to: the mails for a list of readers (a power's player, the master
//! and its co-masters, the observers), for everyone who follows the game, each reader's
//! copy rendered for that reader, and the lines of an immediate command mailed at once.
//! A power nobody plays is mailed nothing.

use crate::bulletin::notices;
use crate::game::{Game, ObserverLevel};
use chrono::{DateTime, Utc};

use crate::store::{Audience, KeptFor, MailKind, NewMail, StoreError, Tx};
use crate::variant::{Line, Reader};

use super::JudgeConfig;

/// The mails for a list of readers; an address that reads as several of them (a duplex
/// player's powers) gets one copy of the same mail (issue 38: one per power).
pub(super) fn mails_for(
    g: &Game,
    readers: &[Reader],
    subject: &str,
    body: &str,
    in_reply_to: Option<String>,
) -> Vec<NewMail> {
    let mut out = Vec::new();
    for r in readers {
        match r {
            Reader::Power(p) => {
                // A power nobody plays (abandoned, a dummy) is mailed nothing.
                if let Some(pl) = g.player(*p).filter(|pl| pl.is_playing()) {
                    out.push(NewMail {
                        game: Some(g.name().to_string()),
                        audience: Audience::power(*p),
                        recipient: pl.seat.address.clone(),
                        subject: subject.to_string(),
                        body: body.to_string(),
                        kind: MailKind::Generated,
                        in_reply_to: in_reply_to.clone(),
                        pictures: Vec::new(),
                    });
                }
            }
            // The master and every co-master.
            Reader::Master => {
                for seat in g.master_seats() {
                    out.push(NewMail {
                        game: Some(g.name().to_string()),
                        audience: Audience::MASTER,
                        recipient: seat.address.clone(),
                        subject: subject.to_string(),
                        body: body.to_string(),
                        kind: MailKind::Generated,
                        in_reply_to: in_reply_to.clone(),
                        pictures: Vec::new(),
                    });
                }
            }
            Reader::Observers => {
                for o in g.observers() {
                    out.push(NewMail {
                        game: Some(g.name().to_string()),
                        audience: Audience::Reader(Reader::Observers),
                        recipient: o.clone(),
                        subject: subject.to_string(),
                        body: body.to_string(),
                        kind: MailKind::Generated,
                        in_reply_to: in_reply_to.clone(),
                        pictures: Vec::new(),
                    });
                }
            }
        }
    }
    one_copy_each(out)
}

/// The mails with a second copy of the same mail to the same address left out (the first
/// copy stays): a duplex player reads a notice once, not once for each power they hold. A
/// copy that differs (a start mail naming each power, a bulletin with a power's private
/// lines) is not the same mail and stays.
fn one_copy_each(mails: Vec<NewMail>) -> Vec<NewMail> {
    // The copies kept so far for each address (lower case), by their place in `out`: a
    // game with thousands of observers costs one look-up a mail.
    let mut kept: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
    let mut out: Vec<NewMail> = Vec::with_capacity(mails.len());
    for m in mails {
        let places = kept.entry(m.recipient.to_ascii_lowercase()).or_default();
        let same = places.iter().any(|&i| {
            out.get(i)
                .is_some_and(|o| o.subject == m.subject && o.body == m.body)
        });
        if !same {
            places.push(out.len());
            out.push(m);
        }
    }
    out
}

/// Everyone who follows the game: its players, the master and (if allowed) observers.
pub(super) fn everyone(
    g: &Game,
    subject: &str,
    body: &str,
    in_reply_to: Option<String>,
) -> Vec<NewMail> {
    mails_for(g, &public_readers(g), subject, body, in_reply_to)
}

/// A bulletin for everyone who follows the game, each reader's copy rendered for that
/// reader (H20: private lines reach only their reader and the master). Readers whose copies
/// are the same get the same bytes.
pub(super) fn bulletin_for_everyone(
    g: &Game,
    subject: &str,
    render: &dyn Fn(Reader) -> String,
) -> Vec<NewMail> {
    let mut out = Vec::new();
    let mut rendered: Vec<(Reader, String)> = Vec::new();
    for reader in public_readers(g) {
        let body = match rendered.iter().find(|(r, _)| *r == reader) {
            Some((_, b)) => b.clone(),
            None => {
                let b = render(reader);
                rendered.push((reader, b.clone()));
                b
            }
        };
        out.extend(mails_for(g, &[reader], subject, &body, None));
    }
    one_copy_each(out)
}

/// A bulletin for everyone who follows the game ([`bulletin_for_everyone`]), kept in the
/// game's history with its readers as it is made: one entry for everyone when every copy
/// is the same; else the copy observers read (public: anyone outside the game reads it
/// too) with the readers whose copy is the same, and each other copy with its readers.
pub(super) fn bulletin_kept(
    tx: &Tx<'_>,
    g: &Game,
    (now, phase): (DateTime<Utc>, &str),
    subject: &str,
    render: &dyn Fn(Reader) -> String,
) -> Result<Vec<NewMail>, StoreError> {
    let mut readers: Vec<Reader> = g.players().iter().map(|p| Reader::Power(p.power)).collect();
    readers.push(Reader::Master);
    let others = render(Reader::Observers);
    // (copy, its readers), the observers' copy first.
    let mut copies: Vec<(String, Vec<Reader>)> = vec![(others, vec![Reader::Observers])];
    for r in readers {
        let body = render(r);
        match copies.iter_mut().find(|(b, _)| *b == body) {
            Some((_, rs)) => rs.push(r),
            None => copies.push((body, vec![r])),
        }
    }
    let everyone_alike = copies.len() == 1;
    for (i, (body, rs)) in copies.iter().enumerate() {
        if everyone_alike {
            tx.add_history(g.name(), now, phase, subject, body)?;
        } else {
            let kept = KeptFor {
                at: now,
                phase,
                readers: rs,
                public: i == 0,
                bulletin: true,
                signed: true,
            };
            tx.add_history_for(g.name(), &kept, subject, body)?;
        }
    }
    let copy_of = |reader: Reader| {
        copies
            .iter()
            .find(|(_, rs)| rs.contains(&reader))
            .map(|(b, _)| b.clone())
            .unwrap_or_else(|| render(reader))
    };
    Ok(bulletin_for_everyone(g, subject, &copy_of))
}

/// Mails the lines of an immediate command at once (H2, H20): each reader who follows the
/// game gets the lines they may read (the master all of them); a reader with none gets no
/// mail.
pub(super) fn announce(config: &JudgeConfig, g: &Game, lines: &[Line]) -> Vec<NewMail> {
    if lines.is_empty() {
        return Vec::new();
    }
    let subject = notices::announcement_subject(&config.name, g);
    let render = |reader: Reader| notices::announcement_body(lines, reader);
    bulletin_for_everyone(g, &subject, &render)
        .into_iter()
        .filter(|m| !m.body.is_empty())
        .collect()
}

fn public_readers(g: &Game) -> Vec<Reader> {
    let mut readers: Vec<Reader> = g.players().iter().map(|p| Reader::Power(p.power)).collect();
    readers.push(Reader::Master);
    if g.settings().press.watch != ObserverLevel::None {
        readers.push(Reader::Observers);
    }
    readers
}
