//! What a game's master sets up besides the schedule: who may join (an unlisted game, a
//! join password, invitations), who sees whose address (anonymous games, the reveal at the
//! end), the co-masters, the names the judge read for its people, and what the draw and
//! concession votes stand for.

use serde::{Deserialize, Serialize};

use super::{Game, Seat, Status};

/// How long a comment may be (`SET COMMENT`): njudge's brief listing holds 60 characters.
pub const MAX_COMMENT_CHARS: usize = 60;

/// How many addresses a game may have invited at once.
pub const MAX_INVITATIONS: usize = 50;

/// An address the master invited to a forming game, with the code the judge mailed to it:
/// `SIGNON ?game password code` joins with it, once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    pub address: String,
    pub code: String,
}

impl Game {
    /// Whether joining needs the join password or an invitation: a private game stays
    /// private by its setting, not by the invitations still out (issue 37).
    pub fn is_private(&self) -> bool {
        self.settings.join_password.is_some()
            || self.settings.invitation_only
            || !self.settings.invitations.is_empty()
    }

    /// The invitation a join code answers, if any.
    pub fn invitation(&self, code: &str) -> Option<&Invitation> {
        self.settings
            .invitations
            .iter()
            .find(|i| i.code.eq_ignore_ascii_case(code.trim()))
    }

    /// The master's seat and the co-masters', the master's first.
    pub fn master_seats(&self) -> impl Iterator<Item = &Seat> {
        std::iter::once(&self.master).chain(self.comasters.iter())
    }

    /// Whether `address` is the address of a seat of this game: a player's, a joiner's, the
    /// master's or a co-master's.
    pub fn has_seat_at(&self, address: &str) -> bool {
        self.players
            .iter()
            .map(|p| &p.seat)
            .chain(self.joiners.iter().map(|j| &j.seat))
            .chain(self.master_seats())
            .any(|s| s.address.eq_ignore_ascii_case(address))
    }

    /// Whether the players' addresses are kept from the other players (and observers) now:
    /// until the game ends, unless the master showed them in a game that is not anonymous;
    /// after the end, an anonymous game set `NOREVEAL` keeps them for ever.
    pub fn addresses_hidden(&self) -> bool {
        self.secrecy().addresses_hidden()
    }

    /// Whether the players are revealed to everyone when the game ends.
    pub fn reveals(&self) -> bool {
        self.secrecy().reveals()
    }

    /// What the game keeps secret about its players now, as the audience rule reads it.
    pub fn secrecy(&self) -> Secrecy {
        Secrecy {
            finished: matches!(self.status, Status::Finished(_)),
            anonymous: self.settings.anonymous,
            reveal: self.settings.reveal,
            addresses_shown: self.settings.addresses_shown,
        }
    }

    /// The name the judge read for an address, if any.
    pub fn name_of(&self, address: &str) -> Option<&str> {
        self.names
            .get(&address.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// Keeps the name a mail from `address` gave (its `From:` display name), bounded; a
    /// change of the game, whether or not the name is one to keep.
    pub fn record_name(&mut self, address: &str, name: Option<&str>) {
        self.note_name(address, name);
        self.touch();
    }

    /// [`Game::record_name`], not counted as a change (a game being made); whether a name
    /// was kept.
    pub(super) fn note_name(&mut self, address: &str, name: Option<&str>) -> bool {
        let Some(name) = name
            .map(|n| crate::command::collapse_blanks(n, |c| c == '"'))
            .filter(|n| !n.is_empty() && !n.eq_ignore_ascii_case(address))
        else {
            return false;
        };
        let name: String = name.chars().take(80).collect();
        self.names.insert(address.to_ascii_lowercase(), name);
        true
    }
}

/// The settings that say what a game keeps secret about its players, and whether it is
/// over: read from a loaded game ([`Game::secrecy`]) or from the part of a stored one the
/// reliability record reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Secrecy {
    pub finished: bool,
    /// `SET ANONYMOUS`: who plays which power is hidden.
    pub anonymous: bool,
    /// `SET REVEAL` (an anonymous game reveals its players at the end) or `SET NOREVEAL`.
    pub reveal: bool,
    /// `SET ADDRESSES SHOWN`.
    pub addresses_shown: bool,
}

impl Secrecy {
    /// Whether the players are revealed to everyone when the game ends.
    pub fn reveals(self) -> bool {
        !self.anonymous || self.reveal
    }

    /// Whether the players' addresses are kept from everyone but the master now: until the
    /// game ends, unless the master showed them in a game that is not anonymous; after the
    /// end, an anonymous game set `NOREVEAL` keeps them for ever.
    pub fn addresses_hidden(self) -> bool {
        if self.finished {
            return !self.reveals();
        }
        self.anonymous || !self.addresses_shown
    }

    /// Whether who plays which power is kept from everyone but the master now: an
    /// anonymous game's, until it ends and reveals them (never under `NOREVEAL`).
    pub fn players_hidden(self) -> bool {
        self.anonymous && !(self.finished && self.reveal)
    }
}
