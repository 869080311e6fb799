//! HISTORY by audience: each reader gets the entries of a game's history it received or
//! could have received, never more. A power reads the bulletins and the press it was a
//! reader of; the master the bulletins and the press it was a reader of; anyone else
//! (an observer, a stranger: an address proves nothing) what observers may read under the
//! game's observer setting now: nothing when it takes none, the bulletins and the signed
//! press observers received when it takes white press only, the bulletins and all press
//! observers received otherwise.

use crate::game::{Game, ObserverLevel, Reader, Sender};
use crate::store::HistoryEntry;

/// The readers press is kept with: those it was mailed to, and its author when it went to
/// everyone (an author reads back its own broadcast, never its private press).
pub(super) fn press_readers(readers: &[Reader], author: Sender, public: bool) -> Vec<Reader> {
    let mut out = readers.to_vec();
    if public {
        let me = match author {
            Sender::Power(p) => Reader::Power(p),
            Sender::Master => Reader::Master,
        };
        if !out.contains(&me) {
            out.push(me);
        }
    }
    out
}

/// Whether `reader` may read entry `e` of game `g`'s history: a power or the master reads
/// what it received; [`Reader::Observers`] (an observer, or anyone outside the game) what
/// observers received and may read under the game's observer setting now.
pub fn readable(g: &Game, reader: Reader, e: &HistoryEntry) -> bool {
    match (&e.readers, reader) {
        (readers, Reader::Observers) => {
            let received = readers
                .as_ref()
                .is_none_or(|list| list.contains(&Reader::Observers));
            received
                && match g.settings.press.observers {
                    ObserverLevel::Any => true,
                    ObserverLevel::White => e.signed,
                    ObserverLevel::None => false,
                }
        }
        (None, _) => true,
        (Some(list), reader) => list.contains(&reader),
    }
}

/// The entries of `g`'s history `reader` may read, oldest first.
pub fn for_reader(g: &Game, reader: Reader, entries: Vec<HistoryEntry>) -> Vec<HistoryEntry> {
    entries
        .into_iter()
        .filter(|e| readable(g, reader, e))
        .collect()
}
