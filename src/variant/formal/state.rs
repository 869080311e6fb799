//! Formal Diplomacy's state (`formal.md` §1): the wars, the spheres of influence, the
//! victory points, the turn limit; and the lines a phase's steps collect for its bulletin.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::map::{Power, ProvinceId};
use crate::rules::{Owner, Position};

/// The number of movement turns a game lasts by default (FD-1.1).
pub const DEFAULT_TURNS: u32 = 20;

fn default_turns() -> u32 {
    DEFAULT_TURNS
}

/// Lines collected by the steps of a phase, printed together at its end in §4's order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// SOI outcomes (declares / fails), by declarer then province code.
    pub outcomes: Vec<(Power, String, String)>,
    /// SOI entries, by entering power then province code.
    pub entries: Vec<(Power, String, String)>,
    /// Eliminations (FD-4.7).
    pub eliminated: Vec<String>,
    /// Event VP lines, in the order surrenders, DWOs, SOI entries.
    pub events: Vec<String>,
    /// Fall scoring lines (every power).
    pub scoring: Vec<String>,
}

/// What a Formal game keeps between phases.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormalState {
    /// Pairs at war, the alphabetically first power first.
    #[serde(default)]
    pub wars: BTreeSet<(Power, Power)>,
    /// Spheres of influence: province → owner.
    #[serde(default)]
    pub soi: BTreeMap<ProvinceId, Power>,
    #[serde(default)]
    pub vp: BTreeMap<Power, i32>,
    /// The setting `turns` (FD-1.1).
    #[serde(default = "default_turns")]
    pub turns: u32,
    #[serde(default)]
    pub pending: Pending,
}

impl Default for FormalState {
    fn default() -> Self {
        FormalState {
            wars: BTreeSet::new(),
            soi: BTreeMap::new(),
            vp: BTreeMap::new(),
            turns: DEFAULT_TURNS,
            pending: Pending::default(),
        }
    }
}

/// The pair of a war, in its stored order.
pub fn pair(a: Power, b: Power) -> (Power, Power) {
    if a <= b { (a, b) } else { (b, a) }
}

impl FormalState {
    pub fn at_war(&self, a: Power, b: Power) -> bool {
        self.wars.contains(&pair(a, b))
    }

    /// The powers `a` is at war with, alphabetical.
    pub fn enemies(&self, a: Power) -> Vec<Power> {
        Power::ALL
            .into_iter()
            .filter(|b| self.at_war(a, *b))
            .collect()
    }

    /// Adds `delta` VP to `p`; the line `VP: {p} {±n} ({reason}); total {t}.`
    pub fn score(&mut self, p: Power, delta: i32, reason: &str) -> String {
        let t = self.vp.entry(p).or_default();
        *t += delta;
        format!("VP: {p} {delta:+} ({reason}); total {t}.")
    }
}

/// Whether a power is eliminated (FD-4.7, FD-AMB-21): no centre and no unit.
pub fn eliminated(position: &Position, p: Power) -> bool {
    position.centre_count(p) == 0 && !position.units.iter().any(|u| u.owner == Owner::Power(p))
}
