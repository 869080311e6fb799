//! Shell Shock rm76 (`docs/rules/shellshock.md`): every unit has a morale (SS-1) that
//! rises and falls with what it lives through (SS-2, capped by SS-5), and its fighting
//! strength follows it (SS-3: 3/2, 1, 3/4 or 1/2, exact rationals through H6/H7); low
//! morale forces holds (H4), and a unit at 0 or below rebels into an armed neutral (H12).
//! Built units start at a morale that counts the builder's lost home centres (SS-4).
//!
//! The parts: [`morale`] (the season's modifiers, pure), [`rules`] (the adjudication
//! hooks), and here the state, the steps and the bulletin lines.

mod facts;
mod grammar;
mod morale;
mod rules;
mod units;

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::command::NoCommand;
use crate::map::{Map, Power, ProvinceId};
use crate::picture::Mark;
use crate::rules::{Owner, PhaseKind, PhaseOutcome, Position, Step, Unit, UnitId, UnitKind};
use crate::variant::{CaseFacts, GameView, Line, RuleSet};

use facts::ShellShockFacts;

use morale::{SeasonEnd, SeasonFacts, Tally, push_int};
use rules::ShellShockRules;
use units::UnitMap;

/// Starting morale (SS-1.1).
pub const START: i32 = 18;
/// The cap (SS-5.1).
pub const CAP: i32 = 34;

/// What a Shell Shock game keeps, per unit identity.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShellShockState {
    /// Morale; a unit not listed has the starting morale (SS-1.1).
    #[serde(default)]
    pub morale: UnitMap<i32>,
    #[serde(default)]
    pub move_streak: UnitMap<u8>,
    #[serde(default)]
    pub sea_streak: UnitMap<u8>,
    /// Armed neutrals → the power they rebelled from (SS-3.10).
    #[serde(default)]
    pub rebels: UnitMap<Power>,
    /// What this season's movement phase decided, waiting for the season's end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<SeasonFacts>,
    /// The Fall update computed after the Fall retreats and ownership update, applied after
    /// the Winter (SS-2.0): unit → its modifiers, and the streaks after the season.
    #[serde(default)]
    pub fall: Vec<(UnitId, Tally, u8, u8)>,
}

impl ShellShockState {
    pub fn morale_of(&self, id: UnitId) -> i32 {
        self.morale.get(&id).copied().unwrap_or(START)
    }
}

/// A band's name (SS-3).
pub fn band(m: i32) -> &'static str {
    let bracketed = band_bracketed(m);
    bracketed
        .strip_prefix(" (")
        .and_then(|b| b.strip_suffix(')'))
        .unwrap_or(bracketed)
}

/// A band's name in brackets, as it follows a morale: ` (normal)`.
fn band_bracketed(m: i32) -> &'static str {
    match m {
        25.. => " (very high)",
        13..=24 => " (normal)",
        9..=12 => " (depressed)",
        4..=8 => " (low)",
        1..=3 => " (very low)",
        _ => " (armed neutral)",
    }
}

/// The Shell Shock rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShellShock;

/// `France A Paris`.
fn named(map: &Map, u: &Unit) -> String {
    let mut out = String::with_capacity(40);
    push_named(&mut out, &OWNERS, map, u);
    out
}

/// The owners' names as a unit's name begins, in [`Power::index`] order, neutral last;
/// and with the line's word before them (a line is written in a few copies).
const OWNERS: [&str; 8] = [
    "Austria ", "England ", "France ", "Germany ", "Italy ", "Russia ", "Turkey ", "Neutral ",
];
const UNIT_OWNERS: [&str; 8] = [
    "UNIT: Austria ",
    "UNIT: England ",
    "UNIT: France ",
    "UNIT: Germany ",
    "UNIT: Italy ",
    "UNIT: Russia ",
    "UNIT: Turkey ",
    "UNIT: Neutral ",
];
const MORALE_OWNERS: [&str; 8] = [
    "MORALE: Austria ",
    "MORALE: England ",
    "MORALE: France ",
    "MORALE: Germany ",
    "MORALE: Italy ",
    "MORALE: Russia ",
    "MORALE: Turkey ",
    "MORALE: Neutral ",
];

/// ` morale 18 (normal)`: a morale from 0 to the cap as a `UNIT:` line gives it.
const MORALE_TEXTS: [&str; 35] = [
    " morale 0 (armed neutral)",
    " morale 1 (very low)",
    " morale 2 (very low)",
    " morale 3 (very low)",
    " morale 4 (low)",
    " morale 5 (low)",
    " morale 6 (low)",
    " morale 7 (low)",
    " morale 8 (low)",
    " morale 9 (depressed)",
    " morale 10 (depressed)",
    " morale 11 (depressed)",
    " morale 12 (depressed)",
    " morale 13 (normal)",
    " morale 14 (normal)",
    " morale 15 (normal)",
    " morale 16 (normal)",
    " morale 17 (normal)",
    " morale 18 (normal)",
    " morale 19 (normal)",
    " morale 20 (normal)",
    " morale 21 (normal)",
    " morale 22 (normal)",
    " morale 23 (normal)",
    " morale 24 (normal)",
    " morale 25 (very high)",
    " morale 26 (very high)",
    " morale 27 (very high)",
    " morale 28 (very high)",
    " morale 29 (very high)",
    " morale 30 (very high)",
    " morale 31 (very high)",
    " morale 32 (very high)",
    " morale 33 (very high)",
    " morale 34 (very high)",
];

/// Writes `France A Paris` (with the coast: `France F Spain (south coast)`) into `out`,
/// the owner's name from `owners` (one of the tables above).
fn push_named(out: &mut String, owners: &[&str; 8], map: &Map, u: &Unit) {
    let owner = match u.owner {
        Owner::Power(p) => p.index(),
        Owner::Neutral => 7,
    };
    out.push_str(owners.get(owner).copied().unwrap_or_default());
    out.push_str(match u.kind {
        UnitKind::Army => "A ",
        UnitKind::Fleet => "F ",
    });
    out.push_str(&map.province(u.location.province).name);
    if let Some(c) = u.location.coast {
        out.push_str(" (");
        out.push_str(c.name());
        out.push(')');
    }
}

impl RuleSet for ShellShock {
    type State = ShellShockState;
    type Command = NoCommand;

    fn name(&self) -> &'static str {
        "ShellShock"
    }

    fn grammar(&self) -> &'static dyn crate::command::Grammar {
        &grammar::ShellShockGrammar
    }

    fn rules(&self, game: &GameView<'_>, s: &ShellShockState) -> Box<dyn crate::rules::Rules> {
        Box::new(ShellShockRules::new(
            game.resolving,
            s.morale.clone(),
            s.rebels.clone(),
        ))
    }

    /// H16 in the step order of §4.
    fn step(
        &self,
        game: &GameView<'_>,
        s: &mut ShellShockState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        let map = game.map;
        let kind = game.position.phase.kind;
        match step {
            Step::Resolved { record, .. } => {
                let mut lines = destroyed_neutrals(map, s, position);
                match kind {
                    PhaseKind::Movement => {
                        s.season = Some(morale::movement_facts(map, game.position, record));
                    }
                    PhaseKind::Adjustment => lines.extend(build_morale(map, s, position, record)),
                    _ => {}
                }
                lines.into_iter().map(Line::public).collect()
            }
            Step::SpringEnds => {
                let pending = season_end(map, s, position, &position.owners);
                apply(map, s, position, pending)
            }
            Step::OwnershipUpdated => {
                s.fall = season_end(map, s, position, &position.owners);
                Vec::new()
            }
            Step::FallEnds => {
                let pending = std::mem::take(&mut s.fall);
                apply(map, s, position, pending)
            }
            Step::Begins | Step::Opens(_) => Vec::new(),
        }
    }

    /// §4: every unit's morale and band, in every bulletin (nothing is private).
    fn summary(
        &self,
        game: &GameView<'_>,
        s: &ShellShockState,
        outcome: &PhaseOutcome,
    ) -> Vec<Line> {
        let map = game.map;
        // One line a unit, all public: written into one text (one allocation for the
        // part, not one a unit), its lines apart by newlines, as the bulletin prints it.
        let mut text = String::with_capacity(48 * (outcome.next.units.len() + 1));
        // The units on the board, then the dislodged ones (waiting to retreat).
        let dislodged = outcome
            .next
            .dislodged
            .iter()
            .map(|d| (&d.unit, " (dislodged)"));
        for (u, how) in outcome.next.units.iter().map(|u| (u, "")).chain(dislodged) {
            if !text.is_empty() {
                text.push('\n');
            }
            push_named(&mut text, &UNIT_OWNERS, map, u);
            match u.owner {
                Owner::Power(_) => {
                    let m = s.morale_of(u.id);
                    match usize::try_from(m).ok().and_then(|i| MORALE_TEXTS.get(i)) {
                        Some(t) => text.push_str(t),
                        None => {
                            text.push_str(" morale ");
                            push_int(&mut text, m);
                            text.push_str(band_bracketed(m));
                        }
                    }
                }
                Owner::Neutral => match s.rebels.get(&u.id) {
                    Some(p) => {
                        let _ = write!(text, " (armed neutral, formerly {p})");
                    }
                    None => text.push_str(" (armed neutral)"),
                },
            }
            text.push_str(how);
        }
        if text.is_empty() {
            Vec::new()
        } else {
            vec![Line::public(text)]
        }
    }

    /// H20: each unit's morale beside it (all morale is public, §4), as the summary's
    /// `UNIT:` lines give it: the number for a power's unit, `ex-FRA` for an armed neutral
    /// that rebelled from France; the legend reads the numbers as bands. Units waiting to
    /// retreat are drawn beside their province with no note (the note goes by province, and
    /// the province's note is the unit standing there).
    fn picture_marks(&self, game: &GameView<'_>, s: &ShellShockState) -> Vec<Mark> {
        let mut notes: Vec<(String, Mark)> = Vec::new();
        let mut rebels: Vec<Power> = Vec::new();
        for u in &game.position.units {
            let text = match u.owner {
                Owner::Power(_) => s.morale_of(u.id).to_string(),
                Owner::Neutral => match s.rebels.get(&u.id) {
                    Some(p) => {
                        rebels.push(*p);
                        format!("ex-{}", p.code())
                    }
                    None => "neutral".to_string(),
                },
            };
            let province = u.location.province;
            notes.push((
                game.map.code(province).to_string(),
                Mark::UnitNote { province, text },
            ));
        }
        if notes.is_empty() {
            return Vec::new();
        }
        notes.sort_by(|a, b| a.0.cmp(&b.0));
        let mut marks: Vec<Mark> = notes.into_iter().map(|(_, m)| m).collect();
        marks.push(Mark::Legend(
            "Morale beside each unit (Shell Shock):".to_string(),
        ));
        marks.push(Mark::Legend(
            "25-34 very high, 13-24 normal, 9-12 depressed, 4-8 low, 1-3 very low".to_string(),
        ));
        rebels.sort();
        rebels.dedup();
        marks.extend(rebels.into_iter().map(|p| {
            Mark::Legend(format!(
                "ex-{}: an armed neutral, formerly {}",
                p.code(),
                p.adjective()
            ))
        }));
        marks
    }

    fn case_facts(&self) -> &dyn CaseFacts<ShellShockState> {
        &ShellShockFacts
    }
}

/// SS-3.9: a dislodged armed neutral is destroyed (it has no retreat, H13, so it leaves the
/// board with the movement results).
fn destroyed_neutrals(map: &Map, s: &mut ShellShockState, position: &Position) -> Vec<String> {
    let mut gone: Vec<(Option<Power>, String, String)> = Vec::new();
    for d in position
        .dislodged
        .iter()
        .filter(|d| d.unit.owner == Owner::Neutral)
    {
        let former = s.rebels.remove(&d.unit.id);
        let text = format!(
            "MORALE: the armed neutral {} {}{} is destroyed.",
            d.unit.kind.letter(),
            map.location_name(d.unit.location),
            former
                .map(|p| format!(" (formerly {p})"))
                .unwrap_or_default()
        );
        gone.push((former, map.code(d.unit.location.province).to_string(), text));
    }
    gone.sort();
    gone.into_iter().map(|(_, _, t)| t).collect()
}

/// SS-4: the morale of the units built in a Winter, and their lines.
fn build_morale(
    map: &Map,
    s: &mut ShellShockState,
    position: &Position,
    record: &crate::rules::PhaseRecord,
) -> Vec<String> {
    let mut lines: Vec<(Power, String, String)> = Vec::new();
    for r in record.units.iter().filter(|r| r.built) {
        let Owner::Power(p) = r.owner else { continue };
        let lost = map
            .home_centres(p)
            .filter(|h| position.owner_of(*h).is_some_and(|o| o != p))
            .count();
        let m = START - 2 * i32::try_from(lost).unwrap_or(i32::MAX / 2);
        s.morale.insert(r.id, m);
        s.move_streak.remove(&r.id);
        s.sea_streak.remove(&r.id);
        let u = Unit {
            id: r.id,
            ..Unit::new(r.owner, unit_kind(&r.order), r.from)
        };
        lines.push((
            p,
            map.code(r.from.province).to_string(),
            format!("BUILD: {} morale {m}", named(map, &u)),
        ));
    }
    lines.sort();
    lines.into_iter().map(|(_, _, t)| t).collect()
}

fn unit_kind(order: &crate::rules::Order) -> UnitKind {
    match order {
        crate::rules::Order::Build { unit } => unit.kind.unwrap_or(UnitKind::Army),
        _ => UnitKind::Army,
    }
}

/// The season's end (SS-2.0): each power unit's modifiers and its streaks after the season.
fn season_end(
    map: &Map,
    s: &mut ShellShockState,
    position: &Position,
    owners_end: &[Option<Power>],
) -> Vec<(UnitId, Tally, u8, u8)> {
    let facts = s.season.take().unwrap_or_else(|| SeasonFacts {
        owners_start: position.owners.clone(),
        ..SeasonFacts::default()
    });
    let end = SeasonEnd {
        map,
        facts: &facts,
        end: position,
        owners_end,
    };
    let wide = end.power_wide_all();
    let occupants = end.occupants();
    let mut out = Vec::with_capacity(position.units.len());
    for u in &position.units {
        if !matches!(u.owner, Owner::Power(_)) {
            continue;
        }
        // SS-2.23.
        let mv = if u.kind == UnitKind::Army && facts.ordered_to_move.contains(&u.id) {
            s.move_streak
                .get(&u.id)
                .copied()
                .unwrap_or(0)
                .saturating_add(1)
        } else {
            0
        };
        let sea = if u.kind == UnitKind::Fleet && map.is_sea(u.location.province) {
            s.sea_streak
                .get(&u.id)
                .copied()
                .unwrap_or(0)
                .saturating_add(1)
        } else {
            0
        };
        out.push((u.id, end.modifiers(u, mv, sea, &wide, &occupants), mv, sea));
    }
    out
}

/// Applies a season's update to the units still on the board: morale, the cap (SS-5.1),
/// the streaks and rebellions (SS-2.22); the `MORALE:` lines then the `REBELLION:` lines,
/// by power, then unit listing order.
fn apply(
    map: &Map,
    s: &mut ShellShockState,
    position: &mut Position,
    pending: Vec<(UnitId, Tally, u8, u8)>,
) -> Vec<Line> {
    // The lines as written, and each one's place in the listing order: its unit's power,
    // then its province (provinces are numbered in the order of their codes), then the
    // line's place here, packed in one number that sorts in that order.
    let mut morale_lines: Vec<String> = Vec::with_capacity(pending.len());
    let mut listing: Vec<u64> = Vec::with_capacity(pending.len());
    let mut rebellions: Vec<((Power, ProvinceId), String)> = Vec::new();
    // The board's units by identity, made when first needed: at a Spring's end the update
    // was worked out on this very board, each unit at its own place.
    let mut by_id: Option<Vec<(UnitId, usize)>> = None;
    let mut scratch = String::with_capacity(160);
    for (k, (id, mods, mv, sea)) in pending.into_iter().enumerate() {
        let i = if position.units.get(k).is_some_and(|u| u.id == id) {
            Some(k)
        } else {
            let at = by_id.get_or_insert_with(|| {
                let mut at: Vec<(UnitId, usize)> = position
                    .units
                    .iter()
                    .enumerate()
                    .map(|(i, u)| (u.id, i))
                    .collect();
                at.sort_unstable();
                at
            });
            at.binary_search_by_key(&id, |(k, _)| *k)
                .ok()
                .and_then(|j| at.get(j))
                .map(|(_, i)| *i)
        };
        let Some(u) = i.and_then(|i| position.units.get_mut(i)) else {
            continue;
        };
        let Owner::Power(p) = u.owner else { continue };
        let old = s.morale_of(id);
        let new = (old + mods.total()).min(CAP);
        s.morale.insert(id, new);
        if u.kind == UnitKind::Army {
            s.move_streak.insert(id, mv);
        } else {
            s.sea_streak.insert(id, sea);
        }
        let key = (p, u.location.province);
        // Written into one buffer, each line then copied at its own length.
        let line = &mut scratch;
        line.clear();
        push_named(line, &MORALE_OWNERS, map, u);
        line.push(' ');
        push_int(line, old);
        line.push_str(" -> ");
        push_int(line, new);
        line.push(' ');
        mods.push_bracket(line);
        listing.push(
            (p.index() as u64) << 40
                | (u.location.province.index() as u64) << 32
                | morale_lines.len() as u64,
        );
        morale_lines.push(line.as_str().to_owned());
        if new <= 0 {
            rebellions.push((
                key,
                format!(
                    "REBELLION: {} rebels and becomes an armed neutral.",
                    named(map, u)
                ),
            ));
            u.owner = Owner::Neutral;
            s.rebels.insert(id, p);
            s.morale.remove(&id);
        }
    }
    listing.sort_unstable();
    rebellions.sort_unstable();
    let mut out = Vec::with_capacity(morale_lines.len() + rebellions.len());
    for k in listing {
        if let Some(text) = morale_lines.get_mut((k & 0xFFFF_FFFF) as usize) {
            out.push(Line::public(std::mem::take(text)));
        }
    }
    out.extend(rebellions.into_iter().map(|(_, t)| Line::public(t)));
    out
}

#[cfg(test)]
mod tests;
