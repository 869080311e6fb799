//! Outcasts in adjudication (`survive.md` §5): their orders are refused (SRV-E8) and their
//! units hold (H3, H4), a dislodged outcast unit is disbanded (H13), an outcast never builds
//! and loses its units in the SRV-4b order (H15).

use std::collections::BTreeSet;

use crate::map::{Map, Power};
use crate::rules::{
    Order, OrderCheck, Owner, Position, PowerOrder, Refusal, Rewrite, Rules, Standard, Unit,
    UnitId, VariantRefusal,
};

/// The note on an outcast unit's order (§4).
pub const OUT: &str = "out of the game";

/// The adjudication rules of a Survive game.
pub struct SurviveRules {
    pub outcasts: BTreeSet<Power>,
}

impl SurviveRules {
    fn outcast(&self, owner: Owner) -> bool {
        owner.power().is_some_and(|p| self.outcasts.contains(&p))
    }
}

impl Rules for SurviveRules {
    /// SRV-E8: an outcast's orders are not taken (nor obeyed at the deadline: SRV-AMB-5).
    fn check_order(
        &self,
        _map: &Map,
        _position: &Position,
        order: &PowerOrder,
        standard: Option<&Refusal>,
    ) -> OrderCheck {
        if standard.is_none() && self.outcasts.contains(&order.power) {
            return OrderCheck::Refused(Refusal::Variant(VariantRefusal::new(
                "SRV-E8",
                format!("{} is out of the game; its units hold.", order.power),
            )));
        }
        OrderCheck::Stands
    }

    /// SRV-4a.2: every outcast unit holds.
    fn rewrite(
        &self,
        _map: &Map,
        position: &Position,
        order: &PowerOrder,
        _given: bool,
    ) -> Option<Rewrite> {
        let unit = order.order.unit()?;
        let owner = position.unit_in(unit.province())?.owner;
        self.outcast(owner).then(|| Rewrite {
            order: Order::Hold { unit },
            show_given: false,
            note: OUT.to_string(),
        })
    }

    /// SRV-4a.3: no retreat for an outcast unit.
    fn disband_instead_of_retreat(&self, unit: &Unit) -> bool {
        self.outcast(unit.owner)
    }

    /// SRV-4a.3: an outcast never builds.
    fn adjustment_count(&self, position: &Position, power: Power) -> i32 {
        let n = Standard.adjustment_count(position, power);
        if self.outcasts.contains(&power) {
            n.min(0)
        } else {
            n
        }
    }

    /// SRV-4b.1: an outcast's removals, made by the judge: the first unit in its unit listing
    /// not on a supply centre, else the first unit; the playing powers keep the DATC rule.
    fn civil_disorder_removals(
        &self,
        map: &Map,
        _position: &Position,
        power: Power,
        candidates: &[Unit],
        count: usize,
    ) -> Option<Vec<UnitId>> {
        if !self.outcasts.contains(&power) {
            return None;
        }
        // Unit listing order (SRV-4b.2): canonical province code.
        let mut left: Vec<&Unit> = candidates.iter().collect();
        left.sort_by(|a, b| {
            map.code(a.location.province)
                .cmp(map.code(b.location.province))
        });
        let mut out = Vec::new();
        for _ in 0..count {
            let pick = left
                .iter()
                .position(|u| !map.province(u.location.province).supply_centre)
                .or(if left.is_empty() { None } else { Some(0) });
            let Some(i) = pick else { break };
            out.push(left.remove(i).id);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Location;
    use crate::rules::UnitKind;

    fn unit(map: &Map, p: Power, kind: UnitKind, code: &str) -> Unit {
        Unit::new(
            Owner::Power(p),
            kind,
            Location::province(map.find_province(code).unwrap()),
        )
    }

    /// SRV-4b.1, SRV-4b.2, SRV-AMB-6 and SRV-AMB-13: off-centre units first, in the order of
    /// the canonical codes (a unit written `MID` is `mao` here).
    #[test]
    fn srv_4b_removal_order() {
        let map = Map::standard().unwrap();
        let mut units = vec![
            unit(map, Power::Germany, UnitKind::Army, "sil"),
            unit(map, Power::Germany, UnitKind::Army, "mun"),
            unit(map, Power::Germany, UnitKind::Fleet, "hel"),
            unit(map, Power::Germany, UnitKind::Army, "ruh"),
        ];
        for (i, u) in units.iter_mut().enumerate() {
            u.id = UnitId(i as u32 + 1);
        }
        let r = SurviveRules {
            outcasts: [Power::Germany].into_iter().collect(),
        };
        let pos = Position::empty(map, crate::rules::Phase::FIRST);
        let got = r
            .civil_disorder_removals(map, &pos, Power::Germany, &units, 3)
            .unwrap();
        // hel (a sea), ruh and sil (no centre), in listing order; mun stands on a centre.
        assert_eq!(got, vec![UnitId(3), UnitId(4), UnitId(1)]);
        let all = r
            .civil_disorder_removals(map, &pos, Power::Germany, &units, 4)
            .unwrap();
        assert_eq!(
            all.last(),
            Some(&UnitId(2)),
            "then the first unit left: mun"
        );
        assert_eq!(
            r.civil_disorder_removals(map, &pos, Power::France, &units, 1),
            None,
            "a playing power keeps the DATC rule"
        );
    }
}
