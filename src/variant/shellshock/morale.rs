//! The morale update of a season (SS-2): the modifiers each unit earned, from the season's
//! movement phase (its record), its retreats and the centre owners at the start and end of
//! the season. Pure: facts in, modifiers out.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::map::{Map, Power, ProvinceId};
use crate::rules::{Order, Owner, PhaseRecord, Position, UnitId, UnitKind};

/// A modifier: its rule number after `SS-2.` and its value.
pub type Modifier = (u8, i32);

/// What a season's movement phase left for the update at the season's end: the modifiers
/// it decided per unit, who was ordered to move, who was dislodged, and the centre owners
/// when it began.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeasonFacts {
    pub modifiers: BTreeMap<UnitId, Vec<Modifier>>,
    pub ordered_to_move: BTreeSet<UnitId>,
    pub dislodged: BTreeSet<UnitId>,
    pub owners_start: Vec<Option<Power>>,
}

/// The capitals (README §1; SS-AMB-18).
pub fn capital(map: &Map, p: Power) -> Option<ProvinceId> {
    let code = match p {
        Power::Austria => "vie",
        Power::England => "lon",
        Power::France => "par",
        Power::Germany => "ber",
        Power::Italy => "rom",
        Power::Russia => "stp",
        Power::Turkey => "con",
    };
    map.find_province(code)
}

fn is_home_of(map: &Map, prov: ProvinceId, p: Power) -> bool {
    let province = map.province(prov);
    province.supply_centre && province.home_of == Some(p)
}

/// The modifiers decided by the movement phase (SS-2.1–2.6, 2.9, 2.10, 2.12, 2.16, 2.19),
/// from its record and the position it began from.
pub fn movement_facts(map: &Map, start: &Position, record: &PhaseRecord) -> SeasonFacts {
    let mut facts = SeasonFacts {
        owners_start: start.owners.clone(),
        ..SeasonFacts::default()
    };
    let owner_of_unit: BTreeMap<UnitId, Owner> =
        record.units.iter().map(|u| (u.id, u.owner)).collect();
    let attack_of = |id: UnitId| record.attacks.iter().find(|a| a.attacker == id);
    let succeeded = |id: UnitId| attack_of(id).is_some_and(|a| a.succeeded);
    // A move that dislodged a unit foreign to the mover.
    let dislodged_enemy = |mover: UnitId| {
        record
            .units
            .iter()
            .any(|v| v.dislodged_by == Some(mover) && Some(&v.owner) != owner_of_unit.get(&mover))
    };
    let centre_owner_start = |p: ProvinceId| {
        if map.province(p).supply_centre {
            start.owners.get(p.index()).copied().flatten()
        } else {
            None
        }
    };
    for u in &record.units {
        let Owner::Power(x) = u.owner else { continue };
        let mut m: Vec<Modifier> = Vec::new();
        let here = u.from.province;
        let moving = matches!(u.order, Order::Move { .. });
        let dislodged = u.dislodged_by.is_some();
        if moving {
            facts.ordered_to_move.insert(u.id);
        }
        if dislodged {
            facts.dislodged.insert(u.id);
        }
        let moved = moving && succeeded(u.id);
        let attacked = !moved
            && record.attacks.iter().any(|a| {
                // A convoyed move whose convoy failed never reached the province.
                let reached = a.has_path || !a.convoyed;
                a.to == here && reached && owner_of_unit.get(&a.attacker) != Some(&u.owner)
            });
        let stood = !moving && !dislodged;
        let centre = map.province(here).supply_centre;
        if stood && !attacked && is_home_of(map, here, x) {
            m.push((1, 4));
        }
        if moved && dislodged_enemy(u.id) {
            m.push((2, 4));
        }
        let given: Vec<_> = record
            .supports
            .iter()
            .filter(|s| s.supporter == u.id && s.matched)
            .collect();
        for s in &given {
            if s.effective() && s.dest.is_some() && dislodged_enemy(s.target) {
                m.push((3, 2));
            }
        }
        if moved
            && let Some(to) = u.moved_to
            && centre_owner_start(to.province).is_some_and(|o| o != x)
        {
            m.push((4, 2));
        }
        if attacked && !dislodged {
            m.push((5, 2));
        }
        if stood && !attacked && centre && !is_home_of(map, here, x) {
            m.push((6, 2));
        }
        for s in &given {
            let Some(dest) = s.dest else { continue };
            let mover_owner = owner_of_unit.get(&s.target).and_then(|o| o.power());
            if s.effective()
                && succeeded(s.target)
                && centre_owner_start(dest).is_some_and(|o| Some(o) != mover_owner)
            {
                m.push((9, 1));
            }
        }
        let received = record
            .supports
            .iter()
            .filter(|s| s.target == u.id && s.effective())
            .count();
        if received > 0 {
            m.push((10, i32::try_from(received).unwrap_or(i32::MAX)));
        }
        if moving && !moved {
            if record
                .supports
                .iter()
                .any(|s| s.target == u.id && s.matched && s.cut && s.dest.is_some())
            {
                m.push((12, -1));
            }
            m.push((19, -2));
        }
        for s in &given {
            if s.dest.is_some() && !succeeded(s.target) {
                m.push((16, -1));
            }
        }
        facts.modifiers.insert(u.id, m);
    }
    facts
}

/// The modifiers of the season's end (SS-2.7, 2.8, 2.11, 2.13–2.15, 2.17, 2.18, 2.20,
/// 2.21) for every unit of a power on `end` (the board after the retreats), added to what
/// the movement phase decided; and the streaks after the season (SS-2.23).
pub struct SeasonEnd<'a> {
    pub map: &'a Map,
    pub facts: &'a SeasonFacts,
    /// The board after the season's retreats (before Winter builds).
    pub end: &'a Position,
    /// The centre owners at the season's end.
    pub owners_end: &'a [Option<Power>],
}

impl SeasonEnd<'_> {
    /// The power-wide modifiers of every power (SS-2.7, 2.8, 2.17, 2.20), worked out once
    /// for the season's end.
    pub fn power_wide_all(&self) -> [Vec<Modifier>; 7] {
        Power::ALL.map(|p| self.power_wide(p))
    }

    fn owner_start(&self, p: ProvinceId) -> Option<Power> {
        self.facts.owners_start.get(p.index()).copied().flatten()
    }

    fn owner_end(&self, p: ProvinceId) -> Option<Power> {
        self.owners_end.get(p.index()).copied().flatten()
    }

    /// The power-wide modifiers of `x` (SS-2.7, 2.8, 2.17, 2.20; SS-AMB-7: once each).
    fn power_wide(&self, x: Power) -> Vec<Modifier> {
        let homes: Vec<ProvinceId> = self.map.home_centres(x).collect();
        let recaptured: Vec<ProvinceId> = homes
            .iter()
            .copied()
            .filter(|h| {
                self.owner_start(*h).is_some_and(|o| o != x) && self.owner_end(*h) == Some(x)
            })
            .collect();
        let capital = capital(self.map, x);
        let mut m = Vec::new();
        if !recaptured.is_empty() {
            m.push((7, 2));
            if capital.is_some_and(|c| recaptured.contains(&c)) {
                m.push((8, 2));
            }
        }
        if capital.is_some_and(|c| self.owner_end(c).is_some_and(|o| o != x)) {
            m.push((17, -1));
        }
        if homes
            .iter()
            .any(|h| self.owner_start(*h) == Some(x) && self.owner_end(*h).is_some_and(|o| o != x))
        {
            m.push((20, -2));
        }
        m
    }

    /// Who stands in each province of `end` (for the neighbours of SS-2.15 and SS-2.18).
    pub fn occupants(&self) -> Vec<Option<Owner>> {
        let mut occ = vec![None; self.map.province_count()];
        for v in &self.end.units {
            if let Some(slot) = occ.get_mut(v.location.province.index()) {
                *slot = Some(v.owner);
            }
        }
        occ
    }

    /// The modifiers of one unit standing on `end`, given its streaks after the season, the
    /// power-wide modifiers ([`SeasonEnd::power_wide_all`]) and who stands where
    /// ([`SeasonEnd::occupants`]).
    pub fn modifiers(
        &self,
        u: &crate::rules::Unit,
        move_streak: u8,
        sea_streak: u8,
        power_wide: &[Vec<Modifier>; 7],
        occupants: &[Option<Owner>],
    ) -> Vec<Modifier> {
        let id = u.id;
        let Owner::Power(x) = u.owner else {
            return Vec::new();
        };
        let mut m = self.facts.modifiers.get(&id).cloned().unwrap_or_default();
        if let Some(wide) = power_wide.get(x.index()) {
            m.extend_from_slice(wide);
        }
        let here = u.location.province;
        let province = self.map.province(here);
        if province.supply_centre && province.home_of != Some(x) {
            m.push((11, 1));
        }
        if u.kind == UnitKind::Army && move_streak >= 3 {
            m.push((13, -1));
        }
        if u.kind == UnitKind::Fleet && sea_streak >= 4 {
            m.push((14, -1));
        }
        let (mut own, mut foreign) = (0usize, 0usize);
        let mut bits = self.map.neighbours_bits(here) & !(1u128 << here.index());
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            match occupants.get(i).copied().flatten() {
                Some(o) if o == u.owner => own += 1,
                Some(_) => foreign += 1,
                None => {}
            }
        }
        if u.kind == UnitKind::Army && own == 0 {
            m.push((15, -1));
        }
        if foreign > own {
            m.push((18, -2));
        }
        if self.facts.dislodged.contains(&id) {
            m.push((21, -4));
        }
        m
    }
}

/// One bracket entry per rule, summed, in rule order (§4, SS-AMB-15).
pub fn summed(m: &[Modifier]) -> Vec<Modifier> {
    let mut sorted = m.to_vec();
    sorted.sort_unstable_by_key(|(r, _)| *r);
    let mut out: Vec<Modifier> = Vec::with_capacity(sorted.len());
    for (r, d) in sorted {
        match out.last_mut() {
            Some((last, sum)) if *last == r => *sum += d,
            _ => out.push((r, d)),
        }
    }
    out
}

/// Writes a unit's modifiers as `MORALE:` lines give them: `[SS-2.1 +4, SS-2.15 -1]`.
pub fn push_bracket(out: &mut String, m: &[Modifier]) {
    out.push('[');
    for (k, (r, d)) in m.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let sign = if *d >= 0 { "+" } else { "" };
        let _ = write!(out, "SS-2.{r} {sign}{d}");
    }
    out.push(']');
}
