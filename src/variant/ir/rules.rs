//! International Relations in adjudication (`international-relations.md` §5): orders
//! refused on receipt or void at processing (H3, H4; IR-B1, IR-D2, IR-G1), allies acting as
//! one power (H8–H10; IR-F1), retreats into an ally's territory (H13), transfers of centres
//! (H14; IR-G3) and the Winter disband by choice (H15; IR-G2).

use crate::map::{Location, Map, Power};
use crate::rules::{
    MoveContext, Order, OrderCheck, Owner, Phase, Position, PowerOrder, Refusal, Rewrite, Rules,
    Unit, VariantRefusal, Warning,
};

use super::board::{Board, Permit, Verdict};
use super::state::IrState;
use crate::variant::order_check::OwnOrderCheck;

/// The adjudication rules of an International Relations game.
pub struct IrRules {
    pub s: IrState,
    pub permits: Vec<Permit>,
    /// The phase is being processed: orders that became invalid are void, not refused.
    pub resolving: bool,
    /// The phase the game is in.
    pub phase: Phase,
}

impl IrRules {
    fn board<'a>(&'a self, map: &'a Map, position: &'a Position) -> Board<'a> {
        Board {
            map,
            position,
            s: &self.s,
            permits: &self.permits,
        }
    }

    /// IR-F1: the owners of two units are one power (the same power, or allies).
    fn one_power(&self, x: &Unit, y: &Unit) -> bool {
        match (x.owner, y.owner) {
            (Owner::Power(a), Owner::Power(b)) => {
                a == b || self.s.allied(a, b, self.phase).is_some()
            }
            _ => false,
        }
    }

    fn unpermitted(&self, map: &Map, order: &Order, b: Power) -> String {
        format!(
            "{} enters territory controlled by {b}; it is void unless {b} permits it this turn.",
            order.display(map)
        )
    }
}

impl OwnOrderCheck for IrRules {
    fn resolving(&self) -> bool {
        self.resolving
    }

    /// IR-X10, IR-X11, IR-X8 on receipt (IR-B1, IR-D2).
    fn own_refusal(&self, map: &Map, position: &Position, po: &PowerOrder) -> Result<(), Refusal> {
        match self.board(map, position).verdict(po) {
            Some(Verdict::Frozen(r) | Verdict::SupportsFrozen(r) | Verdict::Aggression(r)) => {
                Err(Refusal::Variant(r))
            }
            _ => Ok(()),
        }
    }

    /// IR-X18: a unit that may not be disbanded by choice.
    fn own_refusal_instead(
        &self,
        map: &Map,
        position: &Position,
        po: &PowerOrder,
        refusal: &Refusal,
    ) -> Option<Refusal> {
        let (Order::Remove { unit }, Refusal::NoRemovals { .. }) = (po.order, refusal) else {
            return None;
        };
        let u = position.unit_in(unit.province())?;
        Some(Refusal::Variant(VariantRefusal::new(
            "IR-X18",
            format!(
                "{} {} can only be disbanded by choice if it was confined in an ally's territory without permission last Fall.",
                u.kind.letter(),
                map.location_name(u.location)
            ),
        )))
    }

    /// IR-W1: a move or retreat into an ally's territory, its permission not seen yet.
    fn own_warning(&self, map: &Map, position: &Position, po: &PowerOrder) -> Option<Warning> {
        match self.board(map, position).verdict(po) {
            Some(Verdict::Unpermitted(b)) => Some(Warning {
                code: "IR-W1",
                sentence: self.unpermitted(map, &po.order, b),
            }),
            _ => None,
        }
    }
}

impl Rules for IrRules {
    /// H3: the parts above, put together by [`OwnOrderCheck::check`].
    fn check_order(
        &self,
        map: &Map,
        position: &Position,
        po: &PowerOrder,
        standard: Option<&Refusal>,
    ) -> OrderCheck {
        OwnOrderCheck::check(self, map, position, po, standard)
    }

    /// H4: a move into an ally's territory without its permission is void (IR-G1), as is
    /// an order that became an aggression against an ally (IR-B1) or a frozen unit's
    /// (IR-D2); the unit holds.
    fn rewrite(
        &self,
        map: &Map,
        position: &Position,
        po: &PowerOrder,
        given: bool,
    ) -> Option<Rewrite> {
        if !given {
            return None;
        }
        let unit = po.order.unit()?;
        let note = match self.board(map, position).verdict(po)? {
            Verdict::Unpermitted(b) => format!("void: no permission from {b}"),
            Verdict::Aggression(_) => "void: aggression against an ally".to_string(),
            Verdict::Frozen(_) | Verdict::SupportsFrozen(_) => {
                "void: frozen while a treaty lapses".to_string()
            }
        };
        Some(Rewrite {
            order: Order::Hold { unit },
            show_given: true,
            note,
        })
    }

    /// IR-F1 (H8): an ally's unit is never dislodged.
    fn may_not_dislodge(&self, ctx: &MoveContext<'_>) -> bool {
        self.one_power(ctx.attacker, ctx.defender)
    }

    /// IR-F1 (H9): an ally's attack never cuts a support.
    fn may_not_cut(&self, attacker: &Unit, supporter: &Unit) -> bool {
        self.one_power(attacker, supporter)
    }

    /// IR-F1 (H10): a support against an ally's unit does not count.
    fn support_excluded(&self, supporter: &Unit, ctx: &MoveContext<'_>) -> bool {
        self.one_power(supporter, ctx.defender)
    }

    /// IR-G1 (H13): a retreat into an ally's territory without its permission is void.
    fn void_retreat(
        &self,
        map: &Map,
        position: &Position,
        unit: &Unit,
        dest: Location,
    ) -> Option<String> {
        let Owner::Power(a) = unit.owner else {
            return None;
        };
        let board = self.board(map, position);
        let phase = position.phase;
        Power::ALL
            .into_iter()
            .find(|b| {
                self.s.allied(a, *b, phase).is_some()
                    && board.controls(*b, a, dest.province)
                    && !board.permitted(*b, a, unit.location.province, dest.province)
            })
            .map(|b| format!("void: no permission from {b}"))
    }

    /// IR-G3 (H14): an ally's unit on a centre takes it only with a `TRANSFER`.
    fn update_ownership(&self, map: &Map, position: &mut Position) {
        let phase = self.phase;
        let changes: Vec<(usize, Power)> = position
            .units
            .iter()
            .filter(|u| map.province(u.location.province).supply_centre)
            .filter_map(|u| {
                let p = u.location.province;
                let a = u.owner.power()?;
                let kept = match position.owner_of(p) {
                    Some(b) if b != a && self.s.allied(a, b, phase).is_some() => {
                        !self.s.transfers.contains(&(p, b, a))
                    }
                    _ => false,
                };
                (!kept).then_some((p.index(), a))
            })
            .collect();
        for (i, a) in changes {
            if let Some(slot) = position.owners.get_mut(i) {
                *slot = Some(a);
            }
        }
    }

    /// IR-G2 (H15): a unit confined in an ally's territory last Fall may be disbanded.
    fn may_disband(&self, _map: &Map, _position: &Position, unit: &Unit) -> bool {
        self.s.confined.contains(&unit.id)
    }
}
