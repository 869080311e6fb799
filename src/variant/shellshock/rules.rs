//! Morale in adjudication (`shellshock.md` §5): the band's factor scales a unit's whole
//! strength and its supports (H6, H7; SS-3.7), low and very low morale rewrite orders to
//! holds with a warning on receipt (H4, H3; SS-3.4, SS-3.5), armed neutrals take no orders,
//! are destroyed when dislodged and count against their former owner (H3, H13, H15;
//! SS-3.9, SS-3.10).

use crate::map::{Location, Map, Power, ProvinceId};
use crate::rules::{
    Order, OrderCheck, Owner, Position, PowerOrder, Refusal, Rewrite, Rules, Standard, Strength,
    Unit, UnitId, VariantRefusal, Warning,
};

use super::units::UnitMap;
use super::{START, band};
use crate::variant::order_check::OwnOrderCheck;

/// The adjudication rules of a Shell Shock game: the morale at the start of the phase.
pub struct ShellShockRules {
    /// The phase is being resolved (no warning is wanted).
    resolving: bool,
    morale: UnitMap<i32>,
    rebels: UnitMap<Power>,
    /// The units of low or very low morale, the only bands that restrict orders (SS-3.4,
    /// SS-3.5), with their morale, in identity order: few or none, so an order's unit is
    /// looked for here and no order is looked up when there is none.
    restricted: Vec<(UnitId, i32)>,
}

/// The factor of a morale (SS-3.1–3.6).
pub fn factor(m: i32) -> Strength {
    match m {
        25.. => Strength::new(3, 2),
        13..=24 => Strength::ONE,
        9..=12 => Strength::new(3, 4),
        _ => Strength::new(1, 2),
    }
}

impl ShellShockRules {
    pub fn new(resolving: bool, morale: UnitMap<i32>, rebels: UnitMap<Power>) -> Self {
        let restricted = morale
            .iter()
            .filter(|(_, m)| (1..=8).contains(*m))
            .map(|(id, m)| (*id, *m))
            .collect();
        ShellShockRules {
            resolving,
            morale,
            rebels,
            restricted,
        }
    }

    fn morale(&self, u: &Unit) -> Option<i32> {
        match u.owner {
            Owner::Power(_) => Some(self.morale.get(&u.id).copied().unwrap_or(START)),
            Owner::Neutral => None,
        }
    }

    /// The unit an order names, as it stands.
    fn unit_of<'p>(&self, position: &'p Position, order: &PowerOrder) -> Option<&'p Unit> {
        unit_at(position, order.order.unit()?.province())
    }

    /// What the band does to an order (SS-3.4, SS-3.5): None, it stands.
    fn restriction(&self, position: &Position, order: &PowerOrder) -> Option<(i32, Restriction)> {
        let unit = self.unit_of(position, order)?;
        // A power's unit not listed here has a morale that restricts nothing.
        if unit.owner == Owner::Neutral {
            return None;
        }
        let (_, m) = *self.restricted.iter().find(|(id, _)| *id == unit.id)?;
        let restricted = match (m, &order.order) {
            (1..=3, Order::Hold { .. }) => None,
            (1..=3, _) => Some(Restriction::OnlyHolds),
            (4..=8, Order::Move { dest, .. }) => unit_at(position, dest.province)
                .filter(|d| d.owner != unit.owner)
                .map(|_| Restriction::WillNotAttack(*dest)),
            _ => None,
        };
        restricted.map(|r| (m, r))
    }
}

/// The unit in a province ([`Position::unit_in`]), found by halves on a board in its
/// canonical order ([`Position::sort_units`]: by province), as the board of a phase is;
/// looked for one by one when that finds none.
fn unit_at(position: &Position, province: ProvinceId) -> Option<&Unit> {
    match position
        .units
        .binary_search_by_key(&province, |u| u.location.province)
    {
        Ok(i) => position.units.get(i),
        Err(_) => position.unit_in(province),
    }
}

enum Restriction {
    WillNotAttack(Location),
    OnlyHolds,
}

fn unit_words(map: &Map, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), map.location_name(u.location))
}

impl OwnOrderCheck for ShellShockRules {
    fn resolving(&self) -> bool {
        self.resolving
    }

    /// SS-E1, SS-E2: an order for an armed neutral, in place of the generic refusal.
    fn own_refusal_instead(
        &self,
        map: &Map,
        position: &Position,
        order: &PowerOrder,
        _refusal: &Refusal,
    ) -> Option<Refusal> {
        let unit = self.unit_of(position, order)?;
        if unit.owner != Owner::Neutral {
            return None;
        }
        let place = map.province_name(unit.location.province);
        let r = match order.order {
            Order::Remove { .. } | Order::Disband { .. } => VariantRefusal::new(
                "SS-E2",
                format!("the armed neutral in {place} is not yours to remove."),
            ),
            _ => VariantRefusal::new(
                "SS-E1",
                format!(
                    "the {} in {place} is an armed neutral and takes no orders.",
                    unit.kind.name().to_lowercase()
                ),
            ),
        };
        Some(Refusal::Variant(r))
    }

    /// SS-W1, SS-W2: the order is taken, and will be rewritten at adjudication.
    fn own_warning(&self, map: &Map, position: &Position, order: &PowerOrder) -> Option<Warning> {
        let unit = self.unit_of(position, order)?;
        let (m, r) = self.restriction(position, order)?;
        Some(match r {
            Restriction::WillNotAttack(dest) => Warning {
                code: "SS-W1",
                sentence: format!(
                    "{} has morale {m} (low) and will not attack {}; it will hold.",
                    unit_words(map, unit),
                    map.province_name(dest.province)
                ),
            },
            Restriction::OnlyHolds => Warning {
                code: "SS-W2",
                sentence: format!(
                    "{} has morale {m} (very low) and only holds.",
                    unit_words(map, unit)
                ),
            },
        })
    }
}

impl Rules for ShellShockRules {
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

    /// SS-3.4, SS-3.5: the orders the band forbids become holds; the result shows the
    /// order given and why it held.
    fn rewrite(
        &self,
        _map: &Map,
        position: &Position,
        order: &PowerOrder,
        _given: bool,
    ) -> Option<Rewrite> {
        let unit = order.order.unit()?;
        // Only low and very low morale restrict orders (SS-3.4, SS-3.5); a unit not listed
        // has the starting morale, so most phases have nothing to look up.
        if self.restricted.is_empty() {
            return None;
        }
        let (m, _) = self.restriction(position, order)?;
        Some(Rewrite {
            order: Order::Hold { unit },
            show_given: true,
            note: format!("held: morale {m}, {}", band(m)),
        })
    }

    /// SS-3.7 (H6): the unit's own strength.
    fn strength(&self, unit: &Unit) -> Strength {
        self.morale(unit).map_or(Strength::ONE, factor)
    }

    /// SS-3.7 (H7): what its support adds.
    fn support_value(&self, supporter: &Unit) -> Strength {
        self.morale(supporter).map_or(Strength::ONE, factor)
    }

    /// SS-3.9: a dislodged armed neutral is destroyed.
    fn disband_instead_of_retreat(&self, unit: &Unit) -> bool {
        unit.owner == Owner::Neutral
    }

    /// SS-3.10: an armed neutral counts as one of its former owner's units.
    fn adjustment_count(&self, position: &Position, power: Power) -> i32 {
        if self.rebels.is_empty() {
            return Standard.adjustment_count(position, power);
        }
        let rebels = position
            .units
            .iter()
            .filter(|u| u.owner == Owner::Neutral && self.rebels.get(&u.id) == Some(&power))
            .count();
        Standard.adjustment_count(position, power) - i32::try_from(rebels).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::UnitKind;

    /// SS-3.1–3.6, SS-3.8 and SS-AMB-2, SS-AMB-3: the bands' edges and exact factors.
    #[test]
    fn ss_3_bands_and_factors() {
        assert_eq!(factor(34), Strength::new(3, 2));
        assert_eq!(factor(25), Strength::new(3, 2));
        assert_eq!(factor(24), Strength::ONE);
        assert_eq!(factor(13), Strength::ONE);
        assert_eq!(factor(12), Strength::new(3, 4));
        assert_eq!(factor(9), Strength::new(3, 4));
        assert_eq!(factor(8), Strength::new(1, 2));
        assert_eq!(factor(1), Strength::new(1, 2));
        assert_eq!(band(0), "armed neutral");
        assert!(Strength::new(3, 4) + Strength::ONE > Strength::ONE + Strength::new(1, 2));
    }

    #[test]
    fn an_armed_neutral_counts_for_its_former_owner() {
        let map = Map::standard().unwrap();
        let mut p = Position::empty(map, crate::rules::Phase::FIRST);
        let par = map.find_province("par").unwrap();
        p.owners[par.index()] = Some(Power::France);
        let id = p.place_unit(Unit::new(
            Owner::Neutral,
            UnitKind::Army,
            Location::province(par),
        ));
        let r = ShellShockRules::new(
            false,
            UnitMap::default(),
            [(id, Power::France)].into_iter().collect(),
        );
        assert_eq!(r.adjustment_count(&p, Power::France), 0, "SS-3.10");
        assert_eq!(Standard.adjustment_count(&p, Power::France), 1);
    }
}
