//! Movement resolution: Kruijswijk's guess-and-check over attack, defend, prevent and hold
//! strengths ("The Math of Adjudication", DATC §5), with the Szykman rule for convoy
//! paradoxes and "all move" for circular movement.
//!
//! One decision per order: a move *succeeds*, a support is *given* (not cut, supporter not
//! dislodged), a convoy is *effective* (the fleet is not dislodged). `resolve` computes a
//! decision, guessing when it meets a cycle and checking the guess both ways; the backup
//! rule settles cycles whose two guesses disagree. Nothing here allocates per guess: every
//! table is sized to the units once per phase.

use crate::map::{Coast, Map, ProvinceId};

use super::hooks::{MoveContext, PseudoMove, Rules};
use super::position::Unit;
use super::ratio::Strength;
use super::validate::Legal;

const NONE: u8 = u8::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Unresolved,
    Guessing,
    Resolved,
}

/// The resolver's tables for one movement phase.
pub(crate) struct Resolver<'a> {
    map: &'a Map,
    rules: &'a dyn Rules,
    units: &'a [Unit],
    orders: &'a [Legal],
    pseudo: &'a [PseudoMove],
    /// Per province: its unit and the first move into it.
    places: Vec<Place>,
    /// Per unit: list links, match flag and decision state.
    slots: Vec<Slot>,
    deps: Vec<u8>,
}

/// What the resolver keeps per province.
#[derive(Clone, Copy)]
struct Place {
    /// The unit in the province (NONE if empty).
    unit_at: u8,
    /// The first unit moving into it; `Slot::next_into` chains the rest.
    first_into: u8,
}

/// What the resolver keeps per unit: chained lists (moves into one province; matching
/// supports of a unit; matching convoys of an army), whether a support or convoy matches
/// its target's order (else it is void), and the decision.
#[derive(Clone, Copy)]
struct Slot {
    next_into: u8,
    first_support: u8,
    next_support: u8,
    first_convoy: u8,
    next_convoy: u8,
    matched: bool,
    state: State,
    result: bool,
}

const EMPTY_PLACE: Place = Place {
    unit_at: NONE,
    first_into: NONE,
};

const EMPTY_SLOT: Slot = Slot {
    next_into: NONE,
    first_support: NONE,
    next_support: NONE,
    first_convoy: NONE,
    next_convoy: NONE,
    matched: false,
    state: State::Resolved,
    result: false,
};

impl<'a> Resolver<'a> {
    pub(crate) fn new(
        map: &'a Map,
        rules: &'a dyn Rules,
        units: &'a [Unit],
        orders: &'a [Legal],
        pseudo: &'a [PseudoMove],
    ) -> Resolver<'a> {
        let n = units.len();
        let pc = map.province_count();
        let mut r = Resolver {
            map,
            rules,
            units,
            orders,
            pseudo,
            places: vec![EMPTY_PLACE; pc],
            slots: vec![
                Slot {
                    state: State::Unresolved,
                    ..EMPTY_SLOT
                };
                n
            ],
            deps: Vec::with_capacity(n),
        };
        for (i, u) in units.iter().enumerate() {
            if let Some(p) = r.places.get_mut(u.location.province.index()) {
                p.unit_at = i as u8;
            }
        }
        // Chain in reverse so that lists come out in unit order.
        for i in (0..n).rev() {
            match orders.get(i).copied() {
                Some(Legal::Move { dest, .. }) => {
                    let first = r.place(dest.province.index()).first_into;
                    r.slot_mut(i).next_into = first;
                    if let Some(p) = r.places.get_mut(dest.province.index()) {
                        p.first_into = i as u8;
                    }
                }
                Some(Legal::SupportHold { target }) => {
                    let ok = !matches!(orders.get(target), Some(Legal::Move { .. }));
                    r.link_support(i, target, ok);
                }
                Some(Legal::SupportMove {
                    target,
                    dest,
                    coast,
                }) => {
                    let ok = match orders.get(target) {
                        Some(Legal::Move { dest: d, .. }) => {
                            d.province == dest && coast_matches(coast, d.coast)
                        }
                        _ => false,
                    };
                    r.link_support(i, target, ok);
                }
                Some(Legal::Convoy { army, dest }) => {
                    let ok = matches!(orders.get(army),
                        Some(Legal::Move { dest: d, convoy: true }) if d.province == dest);
                    r.slot_mut(i).matched = ok;
                    if ok {
                        let first = r.slot(army).first_convoy;
                        r.slot_mut(i).next_convoy = first;
                        r.slot_mut(army).first_convoy = i as u8;
                    }
                }
                Some(Legal::Hold) | None => {}
            }
        }
        r
    }

    fn link_support(&mut self, i: usize, target: usize, ok: bool) {
        self.slot_mut(i).matched = ok;
        if ok {
            let first = self.slot(target).first_support;
            self.slot_mut(i).next_support = first;
            self.slot_mut(target).first_support = i as u8;
        }
    }

    fn slot(&self, i: usize) -> Slot {
        self.slots.get(i).copied().unwrap_or(EMPTY_SLOT)
    }

    /// A unit's slot for writing. Indices come from the unit list, so they are in range;
    /// an out-of-range write lands in a scratch slot rather than panicking.
    fn slot_mut(&mut self, i: usize) -> &mut Slot {
        if i >= self.slots.len() {
            self.slots.push(EMPTY_SLOT);
        }
        let at = i.min(self.slots.len() - 1);
        #[allow(clippy::indexing_slicing)] // `at` is below the length, which is at least 1
        &mut self.slots[at]
    }

    fn place(&self, p: usize) -> Place {
        self.places.get(p).copied().unwrap_or(EMPTY_PLACE)
    }

    fn order(&self, i: usize) -> Legal {
        self.orders.get(i).copied().unwrap_or(Legal::Hold)
    }

    fn unit(&self, i: usize) -> Option<&'a Unit> {
        self.units.get(i)
    }

    fn province_of(&self, i: usize) -> Option<ProvinceId> {
        self.unit(i).map(|u| u.location.province)
    }

    /// Whether a support or convoy order matches its target's order.
    pub(crate) fn is_matched(&self, i: usize) -> bool {
        self.slot(i).matched
    }

    /// The unit standing in a province at the start of the phase.
    pub(crate) fn unit_in(&self, p: ProvinceId) -> Option<usize> {
        match self.place(p.index()).unit_at {
            NONE => None,
            i => Some(i as usize),
        }
    }

    /// Units moving into a province, in unit order.
    pub(crate) fn moves_into(&self, p: ProvinceId) -> Vec<usize> {
        let mut out = Vec::new();
        let mut m = self.place(p.index()).first_into;
        while m != NONE {
            out.push(m as usize);
            m = self.slot(m as usize).next_into;
        }
        out
    }

    /// The decision of order `i`, resolving it if needed.
    pub(crate) fn resolve(&mut self, i: usize) -> bool {
        let slot = self.slot(i);
        match slot.state {
            State::Resolved => return slot.result,
            State::Guessing => {
                if !self.deps.contains(&(i as u8)) {
                    self.deps.push(i as u8);
                }
                return slot.result;
            }
            State::Unresolved => {}
        }
        let old_len = self.deps.len();
        self.set(i, State::Guessing, false);
        let first = self.adjudicate(i);
        if self.deps.len() == old_len {
            if self.slot(i).state != State::Resolved {
                self.set(i, State::Resolved, first);
            }
            return first;
        }
        if self.deps.get(old_len) != Some(&(i as u8)) {
            // Part of a cycle whose head is further up: keep the guess.
            self.deps.push(i as u8);
            self.slot_mut(i).result = first;
            return first;
        }
        // `i` heads a cycle: try the other guess.
        self.unwind(old_len);
        self.set(i, State::Guessing, true);
        let second = self.adjudicate(i);
        if first == second {
            self.unwind(old_len);
            self.set(i, State::Resolved, first);
            return first;
        }
        self.backup_rule(old_len);
        self.resolve(i)
    }

    fn set(&mut self, i: usize, s: State, r: bool) {
        let slot = self.slot_mut(i);
        slot.state = s;
        slot.result = r;
    }

    fn unwind(&mut self, old_len: usize) {
        while self.deps.len() > old_len {
            if let Some(d) = self.deps.pop() {
                self.slot_mut(d as usize).state = State::Unresolved;
            }
        }
    }

    /// Settles a cycle that has no consistent single answer. With a convoy in it, it is a
    /// convoy paradox: by the Szykman rule the convoys in the cycle do not take effect, so
    /// their armies stay where they are and cut nothing (DATC 4.A.2, preferred). Without a
    /// convoy it is circular movement: every move in the cycle succeeds.
    fn backup_rule(&mut self, old_len: usize) {
        let cycle_start = old_len;
        let has_convoy = self
            .deps
            .get(cycle_start..)
            .unwrap_or(&[])
            .iter()
            .any(|&d| matches!(self.order(d as usize), Legal::Convoy { .. }));
        let members: Vec<u8> = self.deps.get(cycle_start..).unwrap_or(&[]).to_vec();
        self.deps.truncate(cycle_start);
        for d in members {
            let d = d as usize;
            match self.order(d) {
                Legal::Convoy { .. } if has_convoy => self.set(d, State::Resolved, false),
                Legal::Move { .. } if !has_convoy => self.set(d, State::Resolved, true),
                _ => self.set(d, State::Unresolved, false),
            }
        }
    }

    fn adjudicate(&mut self, i: usize) -> bool {
        match self.order(i) {
            Legal::Move { .. } => self.move_succeeds(i),
            Legal::SupportHold { .. } | Legal::SupportMove { .. } => self.support_given(i),
            Legal::Convoy { .. } => !self.dislodged_by_any(i),
            Legal::Hold => true,
        }
    }

    /// Whether the move of `i` has a route: always over land, or through effective convoys.
    pub(crate) fn path(&mut self, i: usize) -> bool {
        let Legal::Move { dest, convoy } = self.order(i) else {
            return false;
        };
        if !convoy {
            return true;
        }
        let Some(from) = self.province_of(i) else {
            return false;
        };
        // Grow the set of sea areas reachable from `from` through effective convoying
        // fleets, resolving each fleet only when it becomes reachable.
        let mut reached: u128 = 0;
        let mut frontier_bits = self.map.neighbours_bits(from);
        loop {
            let mut grew = false;
            let mut f = self.slot(i).first_convoy;
            while f != NONE {
                let fi = f as usize;
                f = self.slot(fi).next_convoy;
                let Some(fp) = self.province_of(fi) else {
                    continue;
                };
                let bit = 1u128 << fp.index();
                if reached & bit != 0 || frontier_bits & bit == 0 {
                    continue;
                }
                if self.resolve(fi) {
                    reached |= bit;
                    frontier_bits |= self.map.neighbours_bits(fp);
                    grew = true;
                    if self.map.any_border(fp, dest.province) {
                        return true;
                    }
                }
            }
            if !grew {
                return false;
            }
        }
    }

    fn strength(&self, i: usize) -> Strength {
        self.unit(i)
            .map(|u| self.rules.strength(u))
            .unwrap_or(Strength::ZERO)
    }

    /// The sum of the given supports of `i`, leaving out those `exclude` says.
    fn support_sum(&mut self, i: usize, defender: Option<usize>) -> Strength {
        let mut total = Strength::ZERO;
        let mut s = self.slot(i).first_support;
        while s != NONE {
            let si = s as usize;
            s = self.slot(si).next_support;
            if let (Some(d), Some(att), Some(sup)) = (defender, self.unit(i), self.unit(si))
                && let Some(def) = self.unit(d)
            {
                let ctx = MoveContext {
                    attacker: att,
                    defender: def,
                    destination: def.location.province,
                };
                if self.rules.support_excluded(sup, &ctx) {
                    continue;
                }
            }
            if self.resolve(si) {
                total = total
                    + self
                        .unit(si)
                        .map(|u| self.rules.support_value(u))
                        .unwrap_or_default();
            }
        }
        total
    }

    /// Whether `i` and the unit `d` in its destination try to swap without a convoy.
    fn head_to_head(&self, i: usize, d: usize) -> bool {
        match (self.order(i), self.order(d)) {
            (
                Legal::Move {
                    dest: di,
                    convoy: false,
                },
                Legal::Move {
                    dest: dd,
                    convoy: false,
                },
            ) => {
                Some(dd.province) == self.province_of(i) && Some(di.province) == self.province_of(d)
            }
            _ => false,
        }
    }

    fn dest_of(&self, i: usize) -> Option<ProvinceId> {
        match self.order(i) {
            Legal::Move { dest, .. } => Some(dest.province),
            _ => None,
        }
    }

    /// The unit that defends the destination of move `i` against it, if any: the unit
    /// there, unless it moves away (not head to head) and succeeds.
    fn defender(&mut self, i: usize) -> Option<usize> {
        let d = self.unit_in(self.dest_of(i)?)?;
        if matches!(self.order(d), Legal::Move { .. })
            && !self.head_to_head(i, d)
            && self.resolve(d)
        {
            return None;
        }
        Some(d)
    }

    pub(crate) fn attack_strength(&mut self, i: usize) -> Strength {
        if !self.path(i) {
            return Strength::ZERO;
        }
        match self.defender(i) {
            None => self.strength(i) + self.support_sum(i, None),
            Some(d) => {
                let (Some(att), Some(def)) = (self.unit(i), self.unit(d)) else {
                    return Strength::ZERO;
                };
                let ctx = MoveContext {
                    attacker: att,
                    defender: def,
                    destination: def.location.province,
                };
                if self.rules.may_not_dislodge(&ctx) {
                    return Strength::ZERO;
                }
                self.strength(i) + self.support_sum(i, Some(d))
            }
        }
    }

    fn hold_strength(&mut self, p: ProvinceId) -> Strength {
        let Some(d) = self.unit_in(p) else {
            return Strength::ZERO;
        };
        if matches!(self.order(d), Legal::Move { .. }) {
            if self.resolve(d) {
                Strength::ZERO
            } else {
                self.strength(d)
            }
        } else {
            self.strength(d) + self.support_sum(d, None)
        }
    }

    fn defend_strength(&mut self, i: usize) -> Strength {
        self.strength(i) + self.support_sum(i, None)
    }

    pub(crate) fn prevent_strength(&mut self, i: usize) -> Strength {
        if !self.path(i) {
            return Strength::ZERO;
        }
        if let Some(dest) = self.dest_of(i)
            && let Some(d) = self.unit_in(dest)
            && self.head_to_head(i, d)
            && self.resolve(d)
        {
            return Strength::ZERO;
        }
        self.strength(i) + self.support_sum(i, None)
    }

    fn move_succeeds(&mut self, i: usize) -> bool {
        let Some(dest) = self.dest_of(i) else {
            return false;
        };
        let attack = self.attack_strength(i);
        if attack.is_zero() {
            return false;
        }
        match self.unit_in(dest) {
            Some(d) if self.head_to_head(i, d) => {
                if attack <= self.defend_strength(d) {
                    return false;
                }
            }
            _ => {
                if attack <= self.hold_strength(dest) {
                    return false;
                }
            }
        }
        let mut j = self.place(dest.index()).first_into;
        while j != NONE {
            let ji = j as usize;
            j = self.slot(ji).next_into;
            if ji != i && attack <= self.prevent_strength(ji) {
                return false;
            }
        }
        !self
            .pseudo
            .iter()
            .any(|pm| pm.province == dest && attack <= pm.strength)
    }

    /// Whether some move into the province of `i` succeeds.
    fn dislodged_by_any(&mut self, i: usize) -> bool {
        let Some(p) = self.province_of(i) else {
            return false;
        };
        let mut m = self.place(p.index()).first_into;
        while m != NONE {
            let mi = m as usize;
            m = self.slot(mi).next_into;
            if self.resolve(mi) {
                return true;
            }
        }
        false
    }

    /// A support is given unless cut or its supporter is dislodged. Any attack with a
    /// route cuts it, except one from the province the support goes into (that one must
    /// dislodge) and one the rules say may not cut (H9: standard, the same power).
    fn support_given(&mut self, i: usize) -> bool {
        let Some(p) = self.province_of(i) else {
            return false;
        };
        let into = match self.order(i) {
            Legal::SupportMove { dest, .. } => Some(dest),
            _ => None,
        };
        let Some(sup) = self.unit(i) else {
            return false;
        };
        let mut m = self.place(p.index()).first_into;
        while m != NONE {
            let mi = m as usize;
            m = self.slot(mi).next_into;
            let Some(att) = self.unit(mi) else { continue };
            let from_target = into.is_some() && self.province_of(mi) == into;
            if !from_target && !self.rules.may_not_cut(att, sup) && self.path(mi) {
                return false;
            }
        }
        !self.dislodged_by_any(i)
    }

    /// Resolves every decision.
    pub(crate) fn resolve_all(&mut self) {
        for i in 0..self.units.len() {
            if !matches!(self.order(i), Legal::Hold) {
                self.resolve(i);
            }
        }
    }

    /// After `resolve_all`: whether a support by `s` was left out of its move's attack
    /// strength by H10 (a support against a unit of the supporter's own power).
    pub(crate) fn support_not_counted(&mut self, s: usize) -> bool {
        let Legal::SupportMove { target, .. } = self.order(s) else {
            return false;
        };
        if !self.is_matched(s) {
            return false;
        }
        let Some(d) = self.defender(target) else {
            return false;
        };
        match (self.unit(target), self.unit(d), self.unit(s)) {
            (Some(att), Some(def), Some(sup)) => {
                let ctx = MoveContext {
                    attacker: att,
                    defender: def,
                    destination: def.location.province,
                };
                self.rules.support_excluded(sup, &ctx)
            }
            _ => false,
        }
    }

    /// After `resolve_all`: whether a province that ends the phase empty saw a standoff (a
    /// move into it failed against another move's or a claim's prevent strength). Retreats
    /// may not go there. A move that only lost a head-to-head battle makes no standoff
    /// (DATC 6.H.9).
    pub(crate) fn standoff_in(&mut self, p: ProvinceId) -> bool {
        let movers = self.moves_into(p);
        for &m in &movers {
            if self.resolve(m) || !self.path(m) {
                continue;
            }
            let attack = self.attack_strength(m);
            for &o in &movers {
                if o != m {
                    let prevent = self.prevent_strength(o);
                    if !prevent.is_zero() && prevent >= attack {
                        return true;
                    }
                }
            }
            if self
                .pseudo
                .iter()
                .any(|pm| pm.province == p && !pm.strength.is_zero() && pm.strength >= attack)
            {
                return true;
            }
        }
        false
    }
}

fn coast_matches(named: Option<Coast>, actual: Option<Coast>) -> bool {
    match named {
        None => true,
        Some(c) => actual.is_none() || actual == Some(c),
    }
}
