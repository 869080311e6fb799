//! Surrender's state (`surrender.md` §1) and what is derived from it: the client forest,
//! pending offers, standing declines, and the counts (SUR-2), the conditions of surrender
//! (SUR-4) and independence (SUR-5) evaluated on a position.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::map::{Map, Power};
use crate::rules::{Owner, Position};

/// What a Surrender game keeps between phases.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurrenderState {
    /// Client → its protectorate (SUR-6.1: one each).
    #[serde(default)]
    pub protector: BTreeMap<Power, Power>,
    /// Offerer → the power it offered to surrender to (SUR-1.6: one each).
    #[serde(default)]
    pub offers: BTreeMap<Power, Power>,
    /// Clients with a standing `DECLINE EXCHANGES` (SUR-8.6).
    #[serde(default)]
    pub standing_decline: BTreeSet<Power>,
    /// Clients that have owned a centre or had a unit since they became clients (SUR-5.2).
    #[serde(default)]
    pub had_presence: BTreeSet<Power>,
    /// The power that won at the end of a Fall (SUR-9.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Power>,
}

/// Why an offer cannot stand (SUR-4), in the order of the error table of §3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obstacle {
    /// SUR-E7: to itself.
    Itself,
    /// SUR-E7: to one of its own clients (directly or down a chain).
    OwnClient,
    /// SUR-E1: the offerer is a client of this power.
    IsClient(Power),
    /// SUR-E5: an offer to this power is pending.
    Pending(Power),
    /// SUR-E2: the offerer counts this many centres.
    TooBig(usize),
    /// SUR-E3: the target owns none of the offerer's home centres.
    NoHomeCentre,
    /// SUR-E4: the target counts `m`, and needs `n + 1`.
    TooSmall { m: usize, n: usize },
}

impl SurrenderState {
    /// The direct clients of `p`, alphabetical.
    pub fn clients_of(&self, p: Power) -> Vec<Power> {
        self.protector
            .iter()
            .filter(|(_, pr)| **pr == p)
            .map(|(c, _)| *c)
            .collect()
    }

    /// Whether `x` is a client of `c`, directly or down a chain (SUR-4.5).
    pub fn below(&self, x: Power, c: Power) -> bool {
        let mut at = x;
        // The forest has no cycles (SUR-4.5 keeps it so); seven steps bound any walk.
        for _ in 0..Power::ALL.len() {
            match self.protector.get(&at) {
                Some(p) if *p == c => return true,
                Some(p) => at = *p,
                None => return false,
            }
        }
        false
    }

    /// `count(X)` (SUR-2): the centres X owns and, recursively, those its clients count.
    pub fn count(&self, position: &Position, x: Power) -> usize {
        self.count_at_depth(position, x, 0)
    }

    fn count_at_depth(&self, position: &Position, x: Power, depth: usize) -> usize {
        let own = position.centre_count(x);
        if depth > Power::ALL.len() {
            return own;
        }
        own + self
            .clients_of(x)
            .into_iter()
            .map(|c| self.count_at_depth(position, c, depth + 1))
            .sum::<usize>()
    }

    /// Whether `c` may surrender to `p` now (SUR-4); `offering`: an offer is being made (an
    /// acceptance or a checkpoint re-checks only SUR-4.1–4.5). The first obstacle in the
    /// error table's order.
    pub fn obstacle(
        &self,
        map: &Map,
        position: &Position,
        c: Power,
        p: Power,
        offering: bool,
    ) -> Option<Obstacle> {
        if c == p {
            return Some(Obstacle::Itself);
        }
        if self.below(p, c) {
            return Some(Obstacle::OwnClient);
        }
        if let Some(pr) = self.protector.get(&c) {
            return Some(Obstacle::IsClient(*pr));
        }
        if offering && let Some(to) = self.offers.get(&c) {
            return Some(Obstacle::Pending(*to));
        }
        let n = self.count(position, c);
        if n > 2 {
            return Some(Obstacle::TooBig(n));
        }
        if !map.home_centres(c).any(|h| position.owner_of(h) == Some(p)) {
            return Some(Obstacle::NoHomeCentre);
        }
        let m = self.count(position, p);
        if m < n + 1 {
            return Some(Obstacle::TooSmall { m, n });
        }
        None
    }

    /// Records the clients that own a centre or have a unit now (SUR-5.2).
    pub fn note_presence(&mut self, position: &Position) {
        let present: Vec<Power> = self
            .protector
            .keys()
            .copied()
            .filter(|c| present(position, *c))
            .collect();
        self.had_presence.extend(present);
    }

    /// C becomes P's client (SUR-1.3).
    pub fn bind(&mut self, position: &Position, c: Power, p: Power) {
        self.offers.remove(&c);
        self.protector.insert(c, p);
        self.had_presence.remove(&c);
        if present(position, c) {
            self.had_presence.insert(c);
        }
    }

    /// A checkpoint (SUR-5.4): ends every relation that qualifies for independence, round
    /// by round until none does, then lets lapse every offer whose conditions no longer
    /// hold (SUR-1.5). The lines, in the order of §4.
    pub fn checkpoint(&mut self, map: &Map, position: &Position) -> Vec<String> {
        self.note_presence(position);
        let mut lines = Vec::new();
        loop {
            // Every relation is judged on the counts at the start of the round.
            let ended: Vec<(Power, Power, String)> = self
                .protector
                .iter()
                .filter_map(|(c, p)| {
                    self.why_independent(position, *c, *p)
                        .map(|why| (*c, *p, why))
                })
                .collect();
            if ended.is_empty() {
                break;
            }
            for (c, p, why) in ended {
                self.protector.remove(&c);
                self.had_presence.remove(&c);
                lines.push(format!("INDEPENDENCE: {c} is independent of {p}: {why}."));
            }
        }
        let lapsed: Vec<(Power, Power)> = self
            .offers
            .iter()
            .filter(|(c, p)| self.obstacle(map, position, **c, **p, false).is_some())
            .map(|(c, p)| (*c, *p))
            .collect();
        for (c, p) in lapsed {
            self.offers.remove(&c);
            lines.push(format!(
                "SURRENDER: the offer of {c} to {p} lapses: the conditions of surrender no longer hold."
            ));
        }
        lines
    }

    /// Why client `c` is independent of `p` now, if it is (SUR-5.3, 5.2, 5.1 in that order).
    fn why_independent(&self, position: &Position, c: Power, p: Power) -> Option<String> {
        if !present(position, p) {
            return Some(format!("{p} has been eliminated"));
        }
        if self.had_presence.contains(&c) && !present(position, c) {
            return Some(format!("{c} has been eliminated"));
        }
        let with = self.count(position, p);
        let own = self.count(position, c);
        let without = with.saturating_sub(own);
        (without <= own)
            .then(|| format!("{p} counts {without} centres without {c}, {c} counts {own}"))
    }

    /// The independent power that counts enough centres to win (SUR-9.1), if any.
    pub fn victor(&self, position: &Position, centres_to_win: usize) -> Option<Power> {
        Power::ALL
            .into_iter()
            .find(|p| !self.protector.contains_key(p) && self.count(position, *p) >= centres_to_win)
    }
}

/// Whether a power owns a centre or has a unit (on the board or dislodged).
pub fn present(position: &Position, p: Power) -> bool {
    position.centre_count(p) > 0
        || position
            .units
            .iter()
            .chain(position.dislodged.iter().map(|d| &d.unit))
            .any(|u| u.owner == Owner::Power(p))
}
