//! HISTORY by audience: each reader gets the entries of a game's history it received or
//! could have received, never more. A power reads the bulletins and the press it was a
//! reader of; the master the bulletins and the press it was a reader of; anyone else
//! (an observer, a stranger: an address proves nothing) what observers may read under the
//! game's observer setting now: nothing when it takes none, the bulletins and the signed
//! press observers received when it takes white press only, the bulletins and all press
//! observers received otherwise.

use crate::game::{Audience, Game, ObserverLevel, Sender};
use crate::map::Power;
use crate::store::HistoryEntry;

/// Who asks for a game's history, as the mail proved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryReader {
    /// Signed on as a power of the game.
    Power(Power),
    /// Signed on as the game's master.
    Master,
    /// Anyone else.
    Outsider,
}

/// The name a reader of press is kept under in the history.
fn name(a: Audience) -> &'static str {
    match a {
        Audience::Power(p) => p.name(),
        Audience::Master => "master",
        Audience::Observers => "observers",
    }
}

/// The readers press is kept with: those it was mailed to, and its author when it went to
/// everyone (an author reads back its own broadcast, never its private press).
pub(super) fn press_readers(readers: &[Audience], author: Sender, public: bool) -> Vec<String> {
    let mut out: Vec<String> = readers.iter().map(|a| name(*a).to_string()).collect();
    if public {
        let me = match author {
            Sender::Power(p) => p.name(),
            Sender::Master => "master",
        };
        if !out.iter().any(|r| r == me) {
            out.push(me.to_string());
        }
    }
    out
}

/// Whether `reader` may read entry `e` of game `g`'s history.
pub fn readable(g: &Game, reader: HistoryReader, e: &HistoryEntry) -> bool {
    let observers = g.settings.press.observers;
    match (&e.readers, reader) {
        (None, HistoryReader::Power(_) | HistoryReader::Master) => true,
        (Some(list), HistoryReader::Power(p)) => list.iter().any(|r| r == p.name()),
        (Some(list), HistoryReader::Master) => list.iter().any(|r| r == "master"),
        (readers, HistoryReader::Outsider) => {
            let received = readers
                .as_ref()
                .is_none_or(|list| list.iter().any(|r| r == "observers"));
            received
                && match observers {
                    ObserverLevel::Any => true,
                    ObserverLevel::White => e.signed,
                    ObserverLevel::None => false,
                }
        }
    }
}

/// The entries of `g`'s history `reader` may read, oldest first.
pub fn for_reader(
    g: &Game,
    reader: HistoryReader,
    entries: Vec<HistoryEntry>,
) -> Vec<HistoryEntry> {
    entries
        .into_iter()
        .filter(|e| readable(g, reader, e))
        .collect()
}
