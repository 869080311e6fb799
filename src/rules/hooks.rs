//! The adjudication hooks (H3, H4, H6–H15 of `docs/rules/README.md` §3): one trait whose
//! every default *is* the standard game. A variant overrides only its own hooks; the
//! adjudicator calls them through `&dyn Rules` and never names a variant.

use crate::map::{Location, Map, Power, ProvinceId};

use super::order::{Order, PowerOrder, Refusal};
use super::position::{Owner, Position, Unit, UnitId};
use super::ratio::Strength;
use super::verdict::Warning;

/// How a rule set rewrote an order before resolution (H4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    /// The order the resolver sees instead (a hold, usually).
    pub order: Order,
    /// Whether the result line shows the order as given (a void move) or as rewritten
    /// (a forced hold).
    pub show_given: bool,
    /// What the result line adds in parentheses: `out of the game`,
    /// `void: not at war with Germany`.
    pub note: String,
}

/// What a move is doing when H8 and H10 are asked about it.
#[derive(Clone, Copy, Debug)]
pub struct MoveContext<'a> {
    /// The moving unit.
    pub attacker: &'a Unit,
    /// The unit standing in the destination.
    pub defender: &'a Unit,
    /// The destination province.
    pub destination: ProvinceId,
}

/// A claim on a province that prevents (bounces) moves into it like a move would, but never
/// moves a unit (H11; Formal Diplomacy's spheres of influence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PseudoMove {
    pub owner: Owner,
    pub province: ProvinceId,
    pub strength: Strength,
}

/// What a rule set says of one order (H3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderCheck {
    /// The standard game's verdict stands.
    Stands,
    /// Refused by the rule set's own rule: an order the standard game takes (a move that
    /// needs a war), or in place of the standard game's refusal where the rule set's code
    /// covers that fault (an order for a unit it made neutral).
    Refused(Refusal),
    /// Taken, with a remark (it will be rewritten, say).
    Warned(Warning),
}

/// The adjudication rules. Every method has the standard game as its default.
pub trait Rules {
    /// H3: the rule set's word on an order: `standard` is the standard game's refusal (None:
    /// the order is legal under the DATC). Asked on receipt and when the phase is resolved
    /// (a warning then is not shown).
    fn check_order(
        &self,
        _map: &Map,
        _position: &Position,
        _order: &PowerOrder,
        _standard: Option<&Refusal>,
    ) -> OrderCheck {
        OrderCheck::Stands
    }

    /// H4: rewrite one movement-phase order before resolution (force a hold, void a move).
    /// Called for every unit's order that passed validation, default holds included
    /// (`given` false); None keeps it (the standard game).
    fn rewrite(
        &self,
        _map: &Map,
        _position: &Position,
        _order: &PowerOrder,
        _given: bool,
    ) -> Option<Rewrite> {
        None
    }

    /// H6: a unit's own strength when it moves or holds.
    fn strength(&self, _unit: &Unit) -> Strength {
        Strength::ONE
    }

    /// H7: what a support from this unit adds.
    fn support_value(&self, _supporter: &Unit) -> Strength {
        Strength::ONE
    }

    /// H8: whether the attacker may not dislodge the defender (standard: same power).
    fn may_not_dislodge(&self, ctx: &MoveContext<'_>) -> bool {
        ctx.attacker.owner == ctx.defender.owner && ctx.attacker.owner != Owner::Neutral
    }

    /// H9: whether an attack by `attacker` does not cut the support of `supporter`
    /// (standard: same power).
    fn may_not_cut(&self, attacker: &Unit, supporter: &Unit) -> bool {
        attacker.owner == supporter.owner && attacker.owner != Owner::Neutral
    }

    /// H10: whether a support by `supporter` is left out of the attack strength of a move
    /// against `ctx.defender` (standard: the supporter is the defender's power). It still
    /// counts for prevent strength.
    fn support_excluded(&self, supporter: &Unit, ctx: &MoveContext<'_>) -> bool {
        supporter.owner == ctx.defender.owner && supporter.owner != Owner::Neutral
    }

    /// H11: claims that prevent moves into a province without moving a unit.
    fn pseudo_moves(
        &self,
        _map: &Map,
        _position: &Position,
        _orders: &[PowerOrder],
    ) -> Vec<PseudoMove> {
        Vec::new()
    }

    /// H13: whether a dislodged unit may retreat to `dest` (on top of the DATC's
    /// conditions, which the core checks).
    fn retreat_allowed(
        &self,
        _map: &Map,
        _position: &Position,
        _unit: &Unit,
        _dest: Location,
    ) -> bool {
        true
    }

    /// H13: a retreat the rule set voids when the retreat phase is resolved (it needed a
    /// permission given in that phase, say): the note its result line shows
    /// (`void: no permission from Austria`). The unit has no valid retreat and is disbanded.
    /// None: the retreat stands (the standard game).
    fn void_retreat(
        &self,
        _map: &Map,
        _position: &Position,
        _unit: &Unit,
        _dest: Location,
    ) -> Option<String> {
        None
    }

    /// H13: whether a dislodged unit is disbanded at once instead of retreating.
    fn disband_instead_of_retreat(&self, _unit: &Unit) -> bool {
        false
    }

    /// H14: the centre ownership after the Fall (after the Fall retreats). Standard: a
    /// centre with a power's unit in it becomes that power's; others keep their owner.
    fn update_ownership(&self, map: &Map, position: &mut Position) {
        for unit in &position.units {
            let p = unit.location.province;
            if !map.province(p).supply_centre {
                continue;
            }
            if let (Owner::Power(power), Some(slot)) =
                (unit.owner, position.owners.get_mut(p.index()))
            {
                *slot = Some(power);
            }
        }
    }

    /// H15: how many units a power may build (positive) or must remove (negative).
    fn adjustment_count(&self, position: &Position, power: Power) -> i32 {
        let centres = position.centre_count(power) as i32;
        let units = position
            .units
            .iter()
            .filter(|u| u.owner == Owner::Power(power))
            .count() as i32;
        centres - units
    }

    /// H15: the provinces where a power may build (standard: its home centres that it
    /// still owns; vacancy is checked by the core).
    fn build_sites(&self, map: &Map, position: &Position, power: Power) -> Vec<ProvinceId> {
        map.home_centres(power)
            .filter(|p| position.owner_of(*p) == Some(power))
            .collect()
    }

    /// H15: the units the judge removes for a power that did not order all its removals
    /// (`count` of them, from `candidates`, the power's units still on the board), in the
    /// order they go; None: the standard civil-disorder rule (DATC 6.J, farthest first).
    fn civil_disorder_removals(
        &self,
        _map: &Map,
        _position: &Position,
        _power: Power,
        _candidates: &[Unit],
        _count: usize,
    ) -> Option<Vec<UnitId>> {
        None
    }

    /// H15: whether a power may remove this unit in a Winter although it has no removal
    /// to make (a voluntary disband).
    fn may_disband(&self, _map: &Map, _position: &Position, _unit: &Unit) -> bool {
        false
    }
}

impl<'a> dyn Rules + 'a {
    /// H3 for an order the standard game takes: the rule set's refusal, if any.
    pub fn validate(
        &self,
        map: &Map,
        position: &Position,
        order: &PowerOrder,
    ) -> Result<(), Refusal> {
        match self.check_order(map, position, order, None) {
            OrderCheck::Refused(r) => Err(r),
            _ => Ok(()),
        }
    }

    /// H3 for an order the standard game refuses: the rule set's refusal in its place, if
    /// its code covers the fault.
    pub fn replace_refusal(
        &self,
        map: &Map,
        position: &Position,
        order: &PowerOrder,
        refusal: &Refusal,
    ) -> Option<Refusal> {
        match self.check_order(map, position, order, Some(refusal)) {
            OrderCheck::Refused(r) => Some(r),
            _ => None,
        }
    }

    /// H3 for an order taken: the rule set's remark on it, if any.
    pub fn warning(&self, map: &Map, position: &Position, order: &PowerOrder) -> Option<Warning> {
        match self.check_order(map, position, order, None) {
            OrderCheck::Warned(w) => Some(w),
            _ => None,
        }
    }
}

/// The standard game: every hook at its default.
#[derive(Clone, Copy, Debug, Default)]
pub struct Standard;

impl Rules for Standard {}
