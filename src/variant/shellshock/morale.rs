//! The morale update of a season (SS-2): the modifiers each unit earned, from the season's
//! movement phase (its record), its retreats and the centre owners at the start and end of
//! the season. Pure: facts in, modifiers out.

use serde::{Deserialize, Serialize};

use crate::map::{Map, Power, ProvinceId};
use crate::rules::{Order, Owner, PhaseRecord, Position, UnitId, UnitKind};

use super::units::{UnitMap, UnitSet};

/// A modifier: its rule number after `SS-2.` and its value.
pub type Modifier = (u8, i32);

/// What a season's movement phase left for the update at the season's end: the modifiers
/// it decided per unit, who was ordered to move, who was dislodged, and the centre owners
/// when it began.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeasonFacts {
    pub modifiers: UnitMap<Tally>,
    pub ordered_to_move: UnitSet,
    pub dislodged: UnitSet,
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
    map.home_centres(p)
        .find(|h| map.code(*h) == code)
        .or_else(|| map.find_province(code))
}

fn is_home_of(map: &Map, prov: ProvinceId, p: Power) -> bool {
    let province = map.province(prov);
    province.supply_centre && province.home_of == Some(p)
}

/// Who reached a province with a move this phase (a convoyed move whose convoy failed
/// never did): by the attacker's owner (None: an attacker not in the record).
#[derive(Clone, Copy, Default)]
enum Reached {
    #[default]
    Nobody,
    By(Option<Owner>),
    /// Attackers of more than one owner.
    Several,
}

impl Reached {
    fn add(&mut self, by: Option<Owner>) {
        *self = match *self {
            Reached::Nobody => Reached::By(by),
            Reached::By(b) if b == by => Reached::By(b),
            _ => Reached::Several,
        };
    }

    /// An attacker not of `owner` reached it.
    fn by_other_than(self, owner: Owner) -> bool {
        match self {
            Reached::Nobody => false,
            Reached::By(b) => b != Some(owner),
            Reached::Several => true,
        }
    }
}

/// The modifiers decided by the movement phase (SS-2.1–2.6, 2.9, 2.10, 2.12, 2.16, 2.19),
/// from its record and the position it began from.
pub fn movement_facts(map: &Map, start: &Position, record: &PhaseRecord) -> SeasonFacts {
    let units = &record.units;
    // The record's units by identity, to look each one up once; what is worked out per
    // unit below is kept by its place in the record.
    // Each as its identity and its place, packed in one number that sorts by identity.
    let mut by_id: Vec<u64> = units
        .iter()
        .enumerate()
        .map(|(i, u)| u64::from(u.id.0) << 32 | i as u64)
        .collect();
    by_id.sort_unstable();
    let index = |id: UnitId| {
        by_id
            .binary_search_by_key(&id.0, |k| (k >> 32) as u32)
            .ok()
            .and_then(|j| by_id.get(j))
            .map(|k| (k & 0xFFFF_FFFF) as usize)
    };
    // Per unit of the record (by its place there): whether its move succeeded (its first
    // attack, as the record lists them), whether it dislodged a unit foreign to it, and
    // what its supports earned it and the supports it received did (SS-2.3, 2.9, 2.10,
    // 2.12, 2.16).
    #[derive(Clone, Copy, Default)]
    struct Done {
        succeeded: Option<bool>,
        dislodged_enemy: bool,
        dislodging: i32,
        into_centre: i32,
        failed: i32,
        received: i32,
        cut_received: bool,
    }
    let mut done = vec![Done::default(); units.len()];
    // Who reached each province (a province's index is below 256).
    let mut reached = [Reached::Nobody; 256];
    for a in &record.attacks {
        let i = index(a.attacker);
        if let Some(d) = i.and_then(|i| done.get_mut(i))
            && d.succeeded.is_none()
        {
            d.succeeded = Some(a.succeeded);
        }
        if (a.has_path || !a.convoyed)
            && let Some(r) = reached.get_mut(a.to.index())
        {
            r.add(i.and_then(|i| units.get(i)).map(|u| u.owner));
        }
    }
    for v in units {
        if let Some(mover) = v.dislodged_by
            && let Some(i) = index(mover)
            && units.get(i).map(|m| m.owner) != Some(v.owner)
            && let Some(d) = done.get_mut(i)
        {
            d.dislodged_enemy = true;
        }
    }
    let centre_owner_start = |p: ProvinceId| {
        if map.province(p).supply_centre {
            start.owners.get(p.index()).copied().flatten()
        } else {
            None
        }
    };
    for sup in &record.supports {
        let target = index(sup.target);
        let of_target = target
            .and_then(|i| done.get(i))
            .copied()
            .unwrap_or_default();
        if sup.matched
            && let Some(supporter) = index(sup.supporter)
        {
            // A move that dislodged a unit foreign to the mover (one not in the record:
            // any unit it dislodged is foreign to it).
            let dislodging = sup.effective()
                && sup.dest.is_some()
                && match target {
                    Some(_) => of_target.dislodged_enemy,
                    None => units.iter().any(|v| v.dislodged_by == Some(sup.target)),
                };
            let moved = of_target.succeeded.unwrap_or(false);
            let into_centre = sup.dest.is_some_and(|dest| {
                let mover_owner = target
                    .and_then(|i| units.get(i))
                    .and_then(|u| u.owner.power());
                sup.effective()
                    && moved
                    && centre_owner_start(dest).is_some_and(|o| Some(o) != mover_owner)
            });
            if let Some(t) = done.get_mut(supporter) {
                t.dislodging += i32::from(dislodging);
                t.into_centre += i32::from(into_centre);
                t.failed += i32::from(sup.dest.is_some() && !moved);
            }
        }
        if let Some(t) = target.and_then(|i| done.get_mut(i)) {
            if sup.effective() {
                t.received += 1;
            }
            t.cut_received |= sup.matched && sup.cut && sup.dest.is_some();
        }
    }
    // Each unit's modifiers, in identity order (the order they are kept in).
    let mut modifiers: Vec<(UnitId, Tally)> = Vec::with_capacity(units.len());
    let mut ordered_to_move = Vec::with_capacity(units.len());
    let mut dislodged_units = Vec::new();
    for &k in &by_id {
        let i = (k & 0xFFFF_FFFF) as usize;
        let (Some(u), Some(sup)) = (units.get(i), done.get(i)) else {
            continue;
        };
        let Owner::Power(x) = u.owner else { continue };
        let mut m = Tally::default();
        let here = u.from.province;
        let moving = matches!(u.order, Order::Move { .. });
        let dislodged = u.dislodged_by.is_some();
        if moving {
            ordered_to_move.push(u.id);
        }
        if dislodged {
            dislodged_units.push(u.id);
        }
        let moved = moving && sup.succeeded.unwrap_or(false);
        let attacked = !moved
            && reached
                .get(here.index())
                .is_some_and(|r| r.by_other_than(u.owner));
        let stood = !moving && !dislodged;
        let centre = map.province(here).supply_centre;
        let home = is_home_of(map, here, x);
        if stood && !attacked && home {
            m.add(1, 4);
        }
        if moved && sup.dislodged_enemy {
            m.add(2, 4);
        }
        if sup.dislodging > 0 {
            m.add(3, 2 * sup.dislodging);
        }
        if moved
            && let Some(to) = u.moved_to
            && centre_owner_start(to.province).is_some_and(|o| o != x)
        {
            m.add(4, 2);
        }
        if attacked && !dislodged {
            m.add(5, 2);
        }
        if stood && !attacked && centre && !home {
            m.add(6, 2);
        }
        if sup.into_centre > 0 {
            m.add(9, sup.into_centre);
        }
        if sup.received > 0 {
            m.add(10, sup.received);
        }
        if moving && !moved {
            if sup.cut_received {
                m.add(12, -1);
            }
            m.add(19, -2);
        }
        if sup.failed > 0 {
            m.add(16, -sup.failed);
        }
        modifiers.push((u.id, m));
    }
    SeasonFacts {
        modifiers: modifiers.into_iter().collect(),
        ordered_to_move: ordered_to_move.into_iter().collect(),
        dislodged: dislodged_units.into_iter().collect(),
        owners_start: start.owners.clone(),
    }
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
    pub fn power_wide_all(&self) -> [Tally; 7] {
        Power::ALL.map(|p| self.power_wide(p))
    }

    fn owner_start(&self, p: ProvinceId) -> Option<Power> {
        self.facts.owners_start.get(p.index()).copied().flatten()
    }

    fn owner_end(&self, p: ProvinceId) -> Option<Power> {
        self.owners_end.get(p.index()).copied().flatten()
    }

    /// The power-wide modifiers of `x` (SS-2.7, 2.8, 2.17, 2.20; SS-AMB-7: once each).
    fn power_wide(&self, x: Power) -> Tally {
        let capital = capital(self.map, x);
        let (mut recaptured, mut capital_recaptured, mut lost) = (false, false, false);
        for h in self.map.home_centres(x) {
            let (start, end) = (self.owner_start(h), self.owner_end(h));
            if start.is_some_and(|o| o != x) && end == Some(x) {
                recaptured = true;
                capital_recaptured |= capital == Some(h);
            }
            lost |= start == Some(x) && end.is_some_and(|o| o != x);
        }
        let mut m = Tally::default();
        if recaptured {
            m.add(7, 2);
            if capital_recaptured {
                m.add(8, 2);
            }
        }
        if capital.is_some_and(|c| self.owner_end(c).is_some_and(|o| o != x)) {
            m.add(17, -1);
        }
        if lost {
            m.add(20, -2);
        }
        m
    }

    /// Who stands in each province of `end` (for the neighbours of SS-2.15 and SS-2.18).
    pub fn occupants(&self) -> Occupants {
        let mut occ = Occupants::default();
        for v in &self.end.units {
            let bit = 1u128
                .checked_shl(u32::try_from(v.location.province.index()).unwrap_or(u32::MAX))
                .unwrap_or(0);
            // One occupant a province (the last listed, were there two).
            for b in &mut occ.by {
                *b &= !bit;
            }
            if let Some(b) = occ.by.get_mut(Occupants::slot(v.owner)) {
                *b |= bit;
            }
            occ.any |= bit;
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
        power_wide: &[Tally; 7],
        occupants: &Occupants,
    ) -> Tally {
        let id = u.id;
        let mut m = Tally::default();
        let Owner::Power(x) = u.owner else {
            return m;
        };
        if let Some(decided) = self.facts.modifiers.get(&id) {
            m.add_tally(decided);
        }
        if let Some(wide) = power_wide.get(x.index()) {
            m.add_tally(wide);
        }
        let here = u.location.province;
        let province = self.map.province(here);
        if province.supply_centre && province.home_of != Some(x) {
            m.add(11, 1);
        }
        if u.kind == UnitKind::Army && move_streak >= 3 {
            m.add(13, -1);
        }
        if u.kind == UnitKind::Fleet && sea_streak >= 4 {
            m.add(14, -1);
        }
        let here_bit = 1u128
            .checked_shl(u32::try_from(here.index()).unwrap_or(u32::MAX))
            .unwrap_or(0);
        let neighbours = self.map.neighbours_bits(here) & !here_bit;
        let ours = occupants
            .by
            .get(Occupants::slot(u.owner))
            .copied()
            .unwrap_or(0);
        let own = (neighbours & ours).count_ones();
        let foreign = (neighbours & occupants.any & !ours).count_ones();
        if u.kind == UnitKind::Army && own == 0 {
            m.add(15, -1);
        }
        if foreign > own {
            m.add(18, -2);
        }
        if self.facts.dislodged.contains(&id) {
            m.add(21, -4);
        }
        m
    }
}

/// `SS-2.r ` for each rule a modifier can name.
const RULES: [&str; 24] = [
    "SS-2.0 ", "SS-2.1 ", "SS-2.2 ", "SS-2.3 ", "SS-2.4 ", "SS-2.5 ", "SS-2.6 ", "SS-2.7 ",
    "SS-2.8 ", "SS-2.9 ", "SS-2.10 ", "SS-2.11 ", "SS-2.12 ", "SS-2.13 ", "SS-2.14 ", "SS-2.15 ",
    "SS-2.16 ", "SS-2.17 ", "SS-2.18 ", "SS-2.19 ", "SS-2.20 ", "SS-2.21 ", "SS-2.22 ", "SS-2.23 ",
];
/// `, SS-2.r `: a rule after the first in the bracket.
const NEXT_RULES: [&str; 24] = [
    ", SS-2.0 ",
    ", SS-2.1 ",
    ", SS-2.2 ",
    ", SS-2.3 ",
    ", SS-2.4 ",
    ", SS-2.5 ",
    ", SS-2.6 ",
    ", SS-2.7 ",
    ", SS-2.8 ",
    ", SS-2.9 ",
    ", SS-2.10 ",
    ", SS-2.11 ",
    ", SS-2.12 ",
    ", SS-2.13 ",
    ", SS-2.14 ",
    ", SS-2.15 ",
    ", SS-2.16 ",
    ", SS-2.17 ",
    ", SS-2.18 ",
    ", SS-2.19 ",
    ", SS-2.20 ",
    ", SS-2.21 ",
    ", SS-2.22 ",
    ", SS-2.23 ",
];

/// A modifier's value with its sign, -40 to +40: `-2`, `+0`, `+4`.
const SIGNED: [&str; 81] = [
    "-40", "-39", "-38", "-37", "-36", "-35", "-34", "-33", "-32", "-31", "-30", "-29", "-28",
    "-27", "-26", "-25", "-24", "-23", "-22", "-21", "-20", "-19", "-18", "-17", "-16", "-15",
    "-14", "-13", "-12", "-11", "-10", "-9", "-8", "-7", "-6", "-5", "-4", "-3", "-2", "-1", "+0",
    "+1", "+2", "+3", "+4", "+5", "+6", "+7", "+8", "+9", "+10", "+11", "+12", "+13", "+14", "+15",
    "+16", "+17", "+18", "+19", "+20", "+21", "+22", "+23", "+24", "+25", "+26", "+27", "+28",
    "+29", "+30", "+31", "+32", "+33", "+34", "+35", "+36", "+37", "+38", "+39", "+40",
];

/// Who stands where on a board, as sets of provinces (bit `i`: the province of index `i`):
/// by owner (the powers in [`Power::index`] order, then neutral), and any.
#[derive(Clone, Copy, Debug, Default)]
pub struct Occupants {
    by: [u128; 8],
    any: u128,
}

impl Occupants {
    fn slot(owner: Owner) -> usize {
        match owner {
            Owner::Power(p) => p.index(),
            Owner::Neutral => 7,
        }
    }
}

/// A unit's modifiers summed by rule (§4, SS-AMB-15): one entry per rule it earned, in rule
/// order, however many times it earned it. Stored as that list (`[[1,4],[15,-1]]`); a list
/// that names a rule twice is read summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The sum of each rule SS-2.0 to SS-2.23 (a season's sums are small: a unit earns a
    /// few points a rule).
    sums: [i16; 24],
    /// Bit `r`: rule SS-2.`r` was earned.
    earned: u32,
}

impl Tally {
    /// The modifiers as stored (a list in rule order), summed.
    pub fn of(m: &[Modifier]) -> Tally {
        let mut t = Tally::default();
        t.add_all(m);
        t
    }

    pub fn add(&mut self, rule: u8, d: i32) {
        if let Some(sum) = self.sums.get_mut(usize::from(rule)) {
            let d = i16::try_from(d).unwrap_or(if d < 0 { i16::MIN } else { i16::MAX });
            *sum = sum.saturating_add(d);
            self.earned |= 1 << rule;
        }
    }

    pub fn add_all(&mut self, m: &[Modifier]) {
        for &(r, d) in m {
            self.add(r, d);
        }
    }

    pub fn add_tally(&mut self, other: &Tally) {
        // Only the rules `other` earned (a few): the others' sums are 0.
        let mut bits = other.earned;
        while bits != 0 {
            let r = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let (Some(sum), Some(d)) = (self.sums.get_mut(r), other.sums.get(r)) {
                *sum = sum.saturating_add(*d);
            }
        }
        self.earned |= other.earned;
    }

    /// Each rule earned and its sum, in rule order.
    pub fn iter(&self) -> impl Iterator<Item = Modifier> + '_ {
        let mut bits = self.earned;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let r = bits.trailing_zeros();
            bits &= bits - 1;
            let sum = i32::from(self.sums.get(r as usize).copied().unwrap_or(0));
            Some((u8::try_from(r).unwrap_or(u8::MAX), sum))
        })
    }

    /// The change to the unit's morale.
    pub fn total(&self) -> i32 {
        self.iter().map(|(_, d)| d).sum()
    }

    pub fn listed(&self) -> Vec<Modifier> {
        self.iter().collect()
    }

    /// Writes the modifiers as `MORALE:` lines give them: `[SS-2.1 +4, SS-2.15 -1]`.
    pub fn push_bracket(&self, out: &mut String) {
        out.push('[');
        for (k, (r, d)) in self.iter().enumerate() {
            let table = if k == 0 { &RULES } else { &NEXT_RULES };
            match table.get(usize::from(r)) {
                Some(rule) => out.push_str(rule),
                None => {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    out.push_str("SS-2.");
                    push_int(out, i32::from(r));
                    out.push(' ');
                }
            }
            match usize::try_from(d + 40).ok().and_then(|i| SIGNED.get(i)) {
                Some(text) => out.push_str(text),
                None => {
                    if d >= 0 {
                        out.push('+');
                    }
                    push_int(out, d);
                }
            }
        }
        out.push(']');
    }
}

/// The numbers 0 to 40 written out: morale (at most [`super::CAP`]), its changes and rule numbers
/// are small.
const SMALL: [&str; 41] = [
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
    "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32",
    "33", "34", "35", "36", "37", "38", "39", "40",
];

/// Writes a number in decimal (as `{n}` would, without the formatter).
pub fn push_int(out: &mut String, n: i32) {
    if n < 0 {
        out.push('-');
    }
    let v = n.unsigned_abs();
    if let Some(text) = usize::try_from(v).ok().and_then(|i| SMALL.get(i)) {
        out.push_str(text);
        return;
    }
    let mut unit = 1u32;
    while v / unit >= 10 {
        unit *= 10;
    }
    loop {
        out.push(char::from(b'0' + (v / unit % 10) as u8));
        if unit == 1 {
            break;
        }
        unit /= 10;
    }
}

impl Serialize for Tally {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Tally {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Tally::of(&Vec::<Modifier>::deserialize(d)?))
    }
}
