//! The one audience rule: who may read what of a game. Every item is kept with its readers
//! when it is made (a history entry's `readers`, `public` and `bulletin`), and every way out
//! — mail, `HISTORY`, the web pages, `EXPORT`, `SUMMARY`, `WHOIS` and the reliability record
//! — asks [`may_read`] of (item, reader, the game's settings now). docs/audience.md has the
//! table of the ways out and their readers.
//!
//! An outsider (an address not signed on, the public web page, an export) is not an
//! observer: it reads only what was made for everyone. A player who took a power over reads
//! the power's private mail from before the takeover only under `SET TAKEOVER HISTORY`.
//! Who plays which power, and their addresses, are read only where the game shows them.

use chrono::{DateTime, Utc};

use crate::game::{Game, GameSeats, ObserverLevel, Reader, Secrecy};
use crate::map::Power;
use crate::store::HistoryEntry;

/// Who reads, in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Anyone who did not sign on to the game: an address proves nothing.
    Outsider,
    /// An observer signed on (`SIGNON O<game>`).
    Observer,
    /// The game's master (or a co-master) signed on.
    Master,
    /// A power's player signed on, and when it took the power over (None: it has played it
    /// from the start).
    Power {
        power: Power,
        since: Option<DateTime<Utc>>,
    },
}

impl Viewer {
    /// The player of `power` in `g` as it holds the seat now.
    pub fn power(g: &Game, power: Power) -> Viewer {
        Viewer::Power {
            power,
            since: g.taken_over_at(power),
        }
    }

    /// The reader of a seat (a power, the master) in `g`; [`Reader::Observers`] stands for
    /// an observer signed on.
    pub fn of(g: &Game, reader: Reader) -> Viewer {
        match reader {
            Reader::Power(p) => Viewer::power(g, p),
            Reader::Master => Viewer::Master,
            Reader::Observers => Viewer::Observer,
        }
    }

    /// The reader of the game's mail this viewer is, if it is one (an outsider is none).
    pub fn reader(self) -> Option<Reader> {
        match self {
            Viewer::Outsider => None,
            Viewer::Observer => Some(Reader::Observers),
            Viewer::Master => Some(Reader::Master),
            Viewer::Power { power, .. } => Some(Reader::Power(power)),
        }
    }
}

/// What there is to read of a game.
#[derive(Clone, Copy, Debug)]
pub enum Item<'a> {
    /// An entry of its history: a bulletin (or one reader's copy of it), a notice, press.
    Entry(&'a HistoryEntry),
    /// Who plays (played) which power: the tenures, their phases, missed phases, the way
    /// they ended.
    Players,
    /// The players' addresses and names, and the game's part in a person's reliability
    /// record (`WHOIS`, the master's `LIST`): a record that moves as the game's phases are
    /// processed tells who plays in it.
    Addresses,
}

/// The game's settings now, as far as the rule reads them.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// What observers (and outsiders) may read of the history (None: a game known only
    /// by its seats, of which no history is read).
    pub watch: Option<ObserverLevel>,
    /// `SET TAKEOVER HISTORY`.
    pub takeover_history: bool,
    pub secrecy: Secrecy,
}

impl Settings {
    /// The settings of a loaded game.
    pub fn of(g: &Game) -> Settings {
        Settings {
            watch: Some(g.settings().press.watch),
            takeover_history: g.settings().takeover_history,
            secrecy: g.secrecy(),
        }
    }

    /// The settings of a game as the reliability record reads it.
    pub fn of_seats(g: &GameSeats) -> Settings {
        Settings {
            watch: None,
            takeover_history: false,
            secrecy: g.secrecy(),
        }
    }
}

/// Whether `viewer` may read `item` of a game whose settings are now `s`: the one rule.
pub fn may_read(item: Item<'_>, viewer: Viewer, s: &Settings) -> bool {
    match item {
        Item::Entry(e) => entry(e, viewer, s),
        Item::Players => viewer == Viewer::Master || !s.secrecy.players_hidden(),
        Item::Addresses => viewer == Viewer::Master || !s.secrecy.addresses_hidden(),
    }
}

/// Whether the game's history is closed to `viewer`: an observer or an outsider, in a game
/// whose observer setting lets them read none of it (`HISTORY` is refused, the page says so).
pub fn history_closed(viewer: Viewer, s: &Settings) -> bool {
    matches!(viewer, Viewer::Outsider | Viewer::Observer)
        && matches!(s.watch, Some(ObserverLevel::None) | None)
}

/// An entry of the history: made for everyone, or for the readers it lists (and anyone
/// outside when it is public); observers and outsiders read only what the game's observer
/// setting lets them; a newcomer reads its power's private entries from before the
/// takeover only under `SET TAKEOVER HISTORY`.
fn entry(e: &HistoryEntry, viewer: Viewer, s: &Settings) -> bool {
    let listed = |r: Reader| e.readers.as_ref().is_none_or(|list| list.contains(&r));
    let watched = || match s.watch {
        _ if history_closed(viewer, s) => false,
        Some(ObserverLevel::White) => e.signed,
        _ => true,
    };
    match viewer {
        Viewer::Outsider => e.is_public() && listed(Reader::Observers) && watched(),
        Viewer::Observer => listed(Reader::Observers) && watched(),
        Viewer::Master => listed(Reader::Master),
        Viewer::Power { power, since } => {
            if e.readers.is_none() {
                return true;
            }
            // Kept to the second: an entry of the takeover's second counts as before it.
            let before = since.is_some_and(|t| e.at <= t);
            if !before {
                return listed(Reader::Power(power));
            }
            // Before the takeover: what was public (the newcomer reads what anyone
            // outside read), and the power's own mail only if the master allows it.
            e.public || (s.takeover_history && listed(Reader::Power(power)))
        }
    }
}

/// The entries of a history `viewer` may read, oldest first.
pub fn entries_for(g: &Game, viewer: Viewer, entries: Vec<HistoryEntry>) -> Vec<HistoryEntry> {
    let s = Settings::of(g);
    entries
        .into_iter()
        .filter(|e| may_read(Item::Entry(e), viewer, &s))
        .collect()
}

/// The games of a person's record a reader may see counted (`WHOIS`, the master's `LIST`):
/// those that show their players' addresses now, and the game `master_of` whose master
/// reads (it knows its players). Every other game is read from outside; only an entry
/// gate reads the whole record, and answers only pass or fail.
pub fn record_games(master_of: Option<&str>, games: Vec<GameSeats>) -> Vec<GameSeats> {
    games
        .into_iter()
        .filter(|g| {
            let viewer = match master_of {
                Some(name) if name.eq_ignore_ascii_case(&g.name) => Viewer::Master,
                _ => Viewer::Outsider,
            };
            may_read(Item::Addresses, viewer, &Settings::of_seats(g))
        })
        .collect()
}

#[cfg(test)]
mod tests;
