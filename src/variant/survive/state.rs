//! Survive's state (`survive.md` §1): the outcasts, the ballots of the vote Winter, the
//! jury, the draw setting; and the count of a vote (SRV-4a, SRV-5).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::map::Power;
use crate::rules::{Phase, Position};

/// Why a power left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// Voted out alone (SRV-4a).
    Vote,
    /// Voted out in a tie (SRV-5a).
    Tie,
    /// Owned no centre when a Winter opened (SRV-4c).
    Force,
}

impl Cause {
    pub fn read(word: &str) -> Option<Cause> {
        match word.to_ascii_lowercase().as_str() {
            "vote" => Some(Cause::Vote),
            "tie" => Some(Cause::Tie),
            "force" => Some(Cause::Force),
            _ => None,
        }
    }
}

/// An outcast: the Winter it left in, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcast {
    pub year: u16,
    pub cause: Cause,
}

/// A ballot: votes per power, powers alphabetical.
pub type Ballot = BTreeMap<Power, u32>;

/// The jury of SRV-5b.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jury {
    pub year: u16,
    /// The tied powers, one of which the jury chooses.
    pub candidates: Vec<Power>,
    /// The outcasts whose player has not resigned.
    pub jurors: Vec<Power>,
    /// Juror → candidate (master-only).
    pub votes: BTreeMap<Power, Power>,
    /// The master's vote (an even jury), or its tie-break.
    pub master: Option<Power>,
    /// Set when the jury deadline left a tie the master must break (SRV-5b.3(b)).
    pub tied: Option<Vec<Power>>,
}

impl Jury {
    /// Whether the master votes with the jurors (an even jury, SRV-5b.2).
    pub fn master_votes(&self) -> bool {
        self.jurors.len().is_multiple_of(2)
    }
}

/// How the game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Win {
    /// The last playing power (SRV-6.1).
    Last(Power),
    /// The jury's choice (SRV-5b.4).
    Jury(Power),
}

impl Win {
    pub fn power(self) -> Power {
        match self {
            Win::Last(p) | Win::Jury(p) => p,
        }
    }
}

/// What a Survive game keeps between phases.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurviveState {
    #[serde(default)]
    pub outcasts: BTreeMap<Power, Outcast>,
    /// The ballots recorded in the open vote Winter (master-only).
    #[serde(default)]
    pub ballots: BTreeMap<Power, Ballot>,
    /// The ballots the last vote counted (master-only; the case files' `ballot` facts).
    #[serde(default)]
    pub counted: BTreeMap<Power, Ballot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jury: Option<Jury>,
    /// `survive_draws` (SRV-6.3), off by default.
    #[serde(default)]
    pub draws: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Win>,
}

/// What a count decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    NoVotes,
    Out(Vec<Power>),
    /// Everyone playing is tied: the jury chooses among them.
    Jury(Vec<Power>),
}

impl SurviveState {
    pub fn is_outcast(&self, p: Power) -> bool {
        self.outcasts.contains_key(&p)
    }

    /// The powers still playing, alphabetical.
    pub fn playing(&self) -> Vec<Power> {
        Power::ALL
            .into_iter()
            .filter(|p| !self.is_outcast(*p))
            .collect()
    }

    /// Counts the vote (SRV-4a, SRV-5a, SRV-5b.1): the totals, and what they decide. Only
    /// playing voters' ballots count, for playing powers.
    pub fn count(&self) -> (BTreeMap<Power, u32>, Outcome) {
        let mut totals: BTreeMap<Power, u32> = BTreeMap::new();
        for (voter, ballot) in &self.ballots {
            if self.is_outcast(*voter) {
                continue;
            }
            for (to, n) in ballot {
                if !self.is_outcast(*to) {
                    *totals.entry(*to).or_default() += n;
                }
            }
        }
        let max = totals.values().copied().max().unwrap_or(0);
        if max == 0 {
            return (totals, Outcome::NoVotes);
        }
        let top: Vec<Power> = totals
            .iter()
            .filter(|(_, n)| **n == max)
            .map(|(p, _)| *p)
            .collect();
        let outcome = if top == self.playing() {
            Outcome::Jury(top)
        } else {
            Outcome::Out(top)
        };
        (totals, outcome)
    }

    /// Marks powers as outcasts in `year`'s Winter.
    pub fn cast_out(&mut self, powers: &[Power], year: u16, cause: Cause) {
        for p in powers {
            self.outcasts.entry(*p).or_insert(Outcast { year, cause });
        }
    }

    /// SRV-6.1: the last playing power, if only one is left.
    pub fn last_one(&self) -> Option<Power> {
        match self.playing().as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}

/// Whether `phase` is a vote Winter (SRV-1.1): the adjustment phase of an even year.
pub fn is_vote_winter(phase: Phase) -> bool {
    phase.kind == crate::rules::PhaseKind::Adjustment && phase.year.is_multiple_of(2)
}

/// The year of the next vote from `phase` (SRV-E1's sentence).
pub fn next_vote_year(phase: Phase) -> u16 {
    let y = phase.year;
    let this_year_open = y.is_multiple_of(2)
        && matches!(
            phase.season,
            crate::rules::Season::Spring | crate::rules::Season::Fall
        );
    if this_year_open {
        y
    } else if y.is_multiple_of(2) {
        y + 2
    } else {
        y + 1
    }
}

/// The votes a power has: the centres it owns (SRV-2.1).
pub fn votes_of(position: &Position, p: Power) -> u32 {
    u32::try_from(position.centre_count(p)).unwrap_or(u32::MAX)
}
