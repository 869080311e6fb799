//! What a game's master sets up besides the schedule: who may join (an unlisted game, a
//! join password, invitations), who sees whose address (anonymous games, the reveal at the
//! end), the co-masters, the names the judge read for its people, and what the draw and
//! concession votes stand for.

use serde::{Deserialize, Serialize};

use crate::map::Power;

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

/// A vote that no longer stands: the surviving powers changed since it was cast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawVote {
    /// `SET DRAW`: a draw among these powers.
    Draw(Vec<Power>),
    /// `SET CONCEDE`: the game conceded to this power.
    Concede(Power),
}

impl Game {
    /// Whether joining needs the join password or an invitation.
    pub fn is_private(&self) -> bool {
        self.settings.join_password.is_some() || !self.settings.invitations.is_empty()
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
        if matches!(self.status, Status::Finished(_)) {
            return !self.reveals();
        }
        self.settings.anonymous || !self.settings.addresses_shown
    }

    /// Whether the players are revealed to everyone when the game ends.
    pub fn reveals(&self) -> bool {
        !self.settings.anonymous || self.settings.reveal
    }

    /// The name the judge read for an address, if any.
    pub fn name_of(&self, address: &str) -> Option<&str> {
        self.names
            .get(&address.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// Keeps the name a mail from `address` gave (its `From:` display name), bounded.
    pub fn record_name(&mut self, address: &str, name: Option<&str>) {
        let Some(name) = name
            .map(|n| crate::command::collapse_blanks(n, |c| c == '"'))
            .filter(|n| !n.is_empty() && !n.eq_ignore_ascii_case(address))
        else {
            return;
        };
        let name: String = name.chars().take(80).collect();
        self.names.insert(address.to_ascii_lowercase(), name);
    }

    /// The powers a draw vote is for, from what the voter wrote (`SET DRAW`, empty: every
    /// power the draw must include; or a list, which must be exactly those: the judge's
    /// draws include all survivors) and the powers the draw must include now (`draw`).
    /// Err: the list as written, when it is not those powers.
    pub fn draw_vote(asked: &[Power], draw: &[Power]) -> Result<Vec<Power>, Vec<Power>> {
        let mut want: Vec<Power> = draw.to_vec();
        want.sort();
        want.dedup();
        if asked.is_empty() {
            return Ok(want);
        }
        let mut got = asked.to_vec();
        got.sort();
        got.dedup();
        if got == want { Ok(want) } else { Err(got) }
    }

    /// Clears every draw and concession vote; returns the votes cleared, by power.
    pub fn clear_votes(&mut self) -> Vec<(Power, DrawVote)> {
        let mut out = Vec::new();
        for p in &mut self.players {
            if let Some(d) = p.draw.take() {
                out.push((p.power, DrawVote::Draw(d)));
            }
            if let Some(c) = p.concede.take() {
                out.push((p.power, DrawVote::Concede(c)));
            }
        }
        out
    }
}
