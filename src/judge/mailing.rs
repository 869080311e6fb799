//! Who a game's mail goes to: the mails for a list of readers (a power's player, the master
//! and its co-masters, the observers), for everyone who follows the game, each reader's
//! copy rendered for that reader, and the lines of an immediate command mailed at once.
//! A power nobody plays is mailed nothing.

use crate::bulletin::notices;
use crate::game::{Game, ObserverLevel};
use crate::store::{Audience, MailKind, NewMail};
use crate::variant::{Line, Reader};

use super::JudgeConfig;

/// The mails for a list of readers.
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
    out
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
