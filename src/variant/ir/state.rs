//! International Relations' state (`international-relations.md` §1): relations, treaties,
//! imminent wars, penalties and the stages of expansionism, the victory claims (IR-A) and
//! the International Conference (IR-I), and what a Fall keeps for its ownership update and
//! its Winter.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::grammar::TreatyKind;
use crate::map::{Power, ProvinceId};
use crate::rules::{Phase, Season, UnitId};

/// The pair of a war or a treaty, in its stored order (the alphabetically first power
/// first).
pub fn pair(a: Power, b: Power) -> (Power, Power) {
    if a <= b { (a, b) } else { (b, a) }
}

/// A treaty between two powers (at most one per pair, IR-C3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Treaty {
    /// The pair, alphabetical.
    pub a: Power,
    pub b: Power,
    pub kind: TreatyKind,
    /// The year whose Spring movement phase it is in force from (IR-C1).
    pub from: u16,
    /// Notice given to abrogate it (IR-D1): who gave it, and the year of the lapsing Spring.
    #[serde(default)]
    pub lapsing: Option<Lapsing>,
}

/// An abrogation notice: the treaty lapses after the Spring of `spring` (IR-D2, IR-D3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lapsing {
    /// The abrogators (both partners, if both gave notice in the same Winter).
    pub by: Vec<Power>,
    pub spring: u16,
}

impl Treaty {
    pub fn binds(&self, p: Power) -> bool {
        self.a == p || self.b == p
    }

    /// The other party.
    pub fn other(&self, p: Power) -> Power {
        if self.a == p { self.b } else { self.a }
    }

    /// In force in `phase` (from its Spring on; never in the alliance phase before it).
    pub fn in_force(&self, phase: Phase) -> bool {
        phase.year > self.from || (phase.year == self.from && !phase.kind.is(&super::ALLIANCE))
    }

    /// In `phase`, the lapsing Spring of an abrogated treaty (IR-D2).
    pub fn lapsing_in(&self, phase: Phase) -> bool {
        self.lapsing
            .as_ref()
            .is_some_and(|l| l.spring == phase.year && phase.season == Season::Spring)
    }
}

/// The penalty rules (`{rule}` of a `PENALTY:` line), in the order a power's lines are
/// printed (§4, after resolution, step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rule {
    /// Attacking a major (IR-E1.1).
    E1,
    /// An AAT partner's share (IR-E1.4).
    E1_4,
    /// Attacking a minor (IR-E2).
    E2,
    /// Entering an AAT (IR-E3).
    E3,
    /// Abrogating an MDT (IR-E5).
    E5,
    /// The first shot (IR-E4).
    E4,
}

impl Rule {
    pub fn code(self) -> &'static str {
        match self {
            Rule::E1 => "IR-E1",
            Rule::E1_4 => "IR-E1.4",
            Rule::E2 => "IR-E2",
            Rule::E3 => "IR-E3",
            Rule::E5 => "IR-E5",
            Rule::E4 => "IR-E4",
        }
    }

    pub fn from_code(code: &str) -> Option<Rule> {
        [Rule::E1, Rule::E1_4, Rule::E2, Rule::E3, Rule::E5, Rule::E4]
            .into_iter()
            .find(|r| r.code().eq_ignore_ascii_case(code))
    }
}

/// An active penalty (IR-E): it counts in the Fall checks up to `last_fall` and expires
/// right after that one (IR-E0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penalty {
    pub power: Power,
    pub points: u32,
    pub last_fall: u16,
    pub rule: Rule,
    /// The power attacked (IR-E1, IR-E1.4), for IR-A4.
    #[serde(default)]
    pub victim: Option<Power>,
}

/// `imminent(holder → target)`, gained through the holder's MDT with `via` (IR-C5, C5a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Imminent {
    pub holder: Power,
    pub target: Power,
    pub via: Power,
}

/// A victory claim (IR-A3), filed and decided by [`super::claims`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The claimants, alphabetical (one for a solo claim).
    pub members: Vec<Power>,
    pub coalition: bool,
    /// The members that have filed it (IR-A3).
    #[serde(default)]
    pub filed: Vec<Power>,
    /// The Fall whose check decides it (IR-A6).
    pub decided_at: u16,
}

impl Claim {
    /// The members that have not filed it yet (IR-A3).
    pub fn missing(&self) -> Vec<Power> {
        self.members
            .iter()
            .copied()
            .filter(|m| !self.filed.contains(m))
            .collect()
    }

    /// A coalition claim every member has filed: its claim period (IR-A7) runs.
    pub fn complete(&self) -> bool {
        self.coalition && self.members.iter().all(|m| self.filed.contains(m))
    }
}

/// What an International Relations game keeps between phases.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IrState {
    /// Pairs at war (IR-B).
    #[serde(default)]
    pub wars: BTreeSet<(Power, Power)>,
    #[serde(default)]
    pub imminent: BTreeSet<Imminent>,
    #[serde(default)]
    pub treaties: Vec<Treaty>,
    #[serde(default)]
    pub penalties: Vec<Penalty>,
    #[serde(default)]
    pub first_shot_fired: bool,
    /// IR-E6: 1 or 2 once reached.
    #[serde(default)]
    pub stage: BTreeMap<Power, u8>,
    #[serde(default)]
    pub claims: Vec<Claim>,
    /// The Winter after which an International Conference is held (IR-I2).
    #[serde(default)]
    pub conference: Option<u16>,
    /// The contact list published when the conference's Winter ends (IR-I3), for IR-I4;
    /// kept from then until the conference phase is processed.
    #[serde(default)]
    pub contacts: Option<Vec<(Power, Power)>>,
    /// The year of the last Fall check and each power's victory points at it (IR-A1), which
    /// claims in the window after it are judged by (IR-A3).
    #[serde(default)]
    pub checked: Option<(u16, BTreeMap<Power, i64>)>,
    /// The claims that succeeded at a Fall check, with their victory points: the game ends
    /// (IR-A6, IR-A8).
    #[serde(default)]
    pub victory: Vec<(Vec<Power>, i64)>,
    /// The setting `peace_treaties` (IR-C3).
    #[serde(default)]
    pub peace_treaties: bool,
    /// This Fall's `TRANSFER` orders, kept to the ownership update (IR-G3): centre, from
    /// (the owner who ordered it), to.
    #[serde(default)]
    pub transfers: Vec<(ProvinceId, Power, Power)>,
    /// Units that may be disbanded by choice this Winter (IR-G2).
    #[serde(default)]
    pub confined: Vec<UnitId>,
}

impl IrState {
    pub fn at_war(&self, a: Power, b: Power) -> bool {
        self.wars.contains(&pair(a, b))
    }

    /// The treaty of a pair, whatever its state (signed, in force, lapsing).
    pub fn treaty(&self, a: Power, b: Power) -> Option<&Treaty> {
        let (a, b) = pair(a, b);
        self.treaties.iter().find(|t| t.a == a && t.b == b)
    }

    /// The treaty of two allies in `phase`: in force and not lapsing (§1 "Allied").
    pub fn allied(&self, a: Power, b: Power, phase: Phase) -> Option<&Treaty> {
        self.treaty(a, b)
            .filter(|t| a != b && t.in_force(phase) && t.lapsing.is_none())
    }

    /// The treaty of a pair in its lapsing Spring (IR-D2).
    pub fn lapsing(&self, a: Power, b: Power, phase: Phase) -> Option<&Treaty> {
        self.treaty(a, b).filter(|t| t.lapsing_in(phase))
    }

    pub fn remove_treaty(&mut self, a: Power, b: Power) -> Option<Treaty> {
        let (a, b) = pair(a, b);
        let i = self.treaties.iter().position(|t| t.a == a && t.b == b)?;
        Some(self.treaties.remove(i))
    }

    /// The MDT partners `z`'s imminent war on `x` came from, alphabetical (IR-C5).
    pub fn imminent_via(&self, z: Power, x: Power) -> Vec<Power> {
        self.imminent
            .iter()
            .filter(|i| i.holder == z && i.target == x)
            .map(|i| i.via)
            .collect()
    }

    /// Active penalty points of a power (IR-A1).
    pub fn points(&self, p: Power) -> u32 {
        self.penalties
            .iter()
            .filter(|x| x.power == p)
            .map(|x| x.points)
            .sum()
    }

    pub fn stage(&self, p: Power) -> u8 {
        self.stage.get(&p).copied().unwrap_or(0)
    }

    /// The complete coalition claim both powers are members of (IR-A7), if any.
    pub fn coalition_of(&self, a: Power, b: Power) -> Option<&Claim> {
        self.claims
            .iter()
            .find(|c| c.complete() && c.members.contains(&a) && c.members.contains(&b))
    }

    /// Ends every treaty but those between the members of a coalition claim (IR-A7(a): the
    /// conference's reset and IR-I4 do not touch them).
    pub fn end_treaties_but_coalitions(&mut self) {
        let kept: Vec<Treaty> = self
            .treaties
            .iter()
            .filter(|t| self.coalition_of(t.a, t.b).is_some())
            .cloned()
            .collect();
        self.treaties = kept;
    }

    /// IR-C5a: an imminent war lasts while the war it answers and the MDT it came from
    /// last, and until its holder and target are at war themselves.
    pub fn prune_imminent(&mut self) {
        let keep: BTreeSet<Imminent> = self
            .imminent
            .iter()
            .copied()
            .filter(|i| {
                self.at_war(i.target, i.via)
                    && !self.at_war(i.holder, i.target)
                    && self
                        .treaty(i.holder, i.via)
                        .is_some_and(|t| t.kind == TreatyKind::Mdt)
            })
            .collect();
        self.imminent = keep;
    }
}

/// `1 point`, `2 points` (§4, number agreement).
pub fn count(n: u32, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
