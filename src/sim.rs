//! Random legal play from a fixed seed: whole games of random orders played through the
//! adjudicator, for benchmarks and property tests. Deterministic: the same seed gives the
//! same phases, on any machine.

use crate::map::{Location, Map, Power};
use crate::rules::{
    self, Order, Owner, PhaseKind, Position, PowerOrder, Rules, Unit, UnitKind, UnitSpec,
};

/// SplitMix64: a small, well-known generator; enough for picking orders.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        let i = self.below(items.len());
        items.get(i).copied()
    }
}

/// The places a unit could move to in one step.
fn destinations(map: &Map, unit: &Unit) -> Vec<Location> {
    match unit.kind {
        UnitKind::Army => map
            .province_ids()
            .filter(|q| map.army_border(unit.location.province, *q))
            .map(Location::province)
            .collect(),
        UnitKind::Fleet => map.fleet_moves(unit.location).to_vec(),
    }
}

fn spec(unit: &Unit) -> UnitSpec {
    UnitSpec::new(Some(unit.kind), unit.location)
}

/// Random movement orders: about half the units move, a quarter support a neighbour's
/// order, some fleets convoy a neighbouring army, the rest hold.
pub fn movement_orders(map: &Map, position: &Position, rng: &mut Rng) -> Vec<PowerOrder> {
    let mut orders: Vec<Option<PowerOrder>> = vec![None; position.units.len()];
    // Moves first, so that supports can follow them.
    for (i, u) in position.units.iter().enumerate() {
        let Owner::Power(power) = u.owner else {
            continue;
        };
        if rng.below(100) < 50
            && let Some(dest) = rng.pick(&destinations(map, u))
            && let Some(slot) = orders.get_mut(i)
        {
            *slot = Some(PowerOrder::new(
                power,
                Order::Move {
                    unit: spec(u),
                    dest,
                    via_convoy: false,
                },
            ));
        }
    }
    for (i, u) in position.units.iter().enumerate() {
        let Owner::Power(power) = u.owner else {
            continue;
        };
        if orders.get(i).is_some_and(Option::is_some) {
            continue;
        }
        let roll = rng.below(100);
        let neighbours: Vec<usize> = position
            .units
            .iter()
            .enumerate()
            .filter(|(j, v)| *j != i && map.any_border(u.location.province, v.location.province))
            .map(|(j, _)| j)
            .collect();
        let order = if roll < 50 {
            rng.pick(&neighbours).and_then(|j| {
                let target = position.units.get(j)?;
                match orders.get(j).copied().flatten().map(|o| o.order) {
                    Some(Order::Move { dest, .. }) => {
                        let reach = destinations(map, u)
                            .iter()
                            .any(|l| l.province == dest.province);
                        reach.then_some(Order::SupportMove {
                            unit: spec(u),
                            target: spec(target),
                            dest: Location::province(dest.province),
                        })
                    }
                    _ => Some(Order::SupportHold {
                        unit: spec(u),
                        target: spec(target),
                    }),
                }
            })
        } else if roll < 60 && u.kind == UnitKind::Fleet && map.is_sea(u.location.province) {
            rng.pick(&neighbours).and_then(|j| {
                let army = position.units.get(j)?;
                if army.kind != UnitKind::Army {
                    return None;
                }
                let coasts: Vec<Location> = map
                    .province_ids()
                    .filter(|q| map.any_border(u.location.province, *q) && !map.is_sea(*q))
                    .filter(|q| *q != army.location.province)
                    .map(Location::province)
                    .collect();
                let dest = rng.pick(&coasts)?;
                Some(Order::Convoy {
                    unit: spec(u),
                    army: spec(army),
                    dest,
                })
            })
        } else {
            None
        };
        if let (Some(order), Some(slot)) = (order, orders.get_mut(i)) {
            *slot = Some(PowerOrder::new(power, order));
        }
    }
    // Armies ordered to where a fleet of theirs convoys them go by convoy.
    let convoys: Vec<(Location, Location)> = orders
        .iter()
        .flatten()
        .filter_map(|o| match o.order {
            Order::Convoy { army, dest, .. } => Some((army.location, dest)),
            _ => None,
        })
        .collect();
    for (i, u) in position.units.iter().enumerate() {
        if u.kind != UnitKind::Army {
            continue;
        }
        if let Some(&(_, dest)) = convoys.iter().find(|(a, _)| *a == u.location)
            && orders
                .get(i)
                .is_some_and(|o| o.is_none() || rng.below(2) == 0)
            && let (Owner::Power(power), Some(slot)) = (u.owner, orders.get_mut(i))
        {
            *slot = Some(PowerOrder::new(
                power,
                Order::Move {
                    unit: spec(u),
                    dest,
                    via_convoy: false,
                },
            ));
        }
    }
    // Keep only the legal ones: this is random *legal* play.
    let orders: Vec<PowerOrder> = orders.into_iter().flatten().collect();
    let verdicts = rules::check_movement_orders(map, &rules::Standard, position, &orders);
    orders
        .into_iter()
        .zip(verdicts)
        .filter_map(|(o, v)| v.is_none().then_some(o))
        .collect()
}

/// Random retreat orders: most dislodged units retreat to a random option, some disband.
pub fn retreat_orders(position: &Position, rng: &mut Rng) -> Vec<PowerOrder> {
    position
        .dislodged
        .iter()
        .filter_map(|d| {
            let power = d.unit.owner.power()?;
            let order = match rng.pick(&d.retreat_options) {
                Some(dest) if rng.below(10) < 8 => Order::Retreat {
                    unit: spec(&d.unit),
                    dest,
                },
                _ => Order::Disband {
                    unit: spec(&d.unit),
                },
            };
            Some(PowerOrder::new(power, order))
        })
        .collect()
}

/// Random adjustment orders: builds in random free home centres, some removals (the rest
/// are left to civil disorder).
pub fn adjustment_orders(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    rng: &mut Rng,
) -> Vec<PowerOrder> {
    let mut out = Vec::new();
    for power in Power::ALL {
        let count = rules.adjustment_count(position, power);
        if count > 0 {
            let mut sites: Vec<_> = rules
                .build_sites(map, position, power)
                .into_iter()
                .filter(|p| position.unit_in(*p).is_none())
                .collect();
            for _ in 0..count {
                if sites.is_empty() {
                    break;
                }
                let i = rng.below(sites.len());
                let p = sites.swap_remove(i);
                let prov = map.province(p);
                let fleet = prov.terrain == crate::map::Terrain::Coast && rng.below(2) == 0;
                let location = match (fleet, prov.coasts.first()) {
                    (true, Some(c)) => Location {
                        province: p,
                        coast: Some(*c),
                    },
                    _ => Location::province(p),
                };
                let kind = if fleet {
                    UnitKind::Fleet
                } else {
                    UnitKind::Army
                };
                out.push(PowerOrder::new(
                    power,
                    Order::Build {
                        unit: UnitSpec::new(Some(kind), location),
                    },
                ));
            }
        } else if count < 0 {
            let mut mine: Vec<Unit> = position
                .units
                .iter()
                .filter(|u| u.owner == Owner::Power(power))
                .copied()
                .collect();
            // Leave some removals to civil disorder.
            for _ in 0..count.unsigned_abs() {
                if mine.is_empty() || rng.below(4) == 0 {
                    break;
                }
                let u = mine.swap_remove(rng.below(mine.len()));
                out.push(PowerOrder::new(power, Order::Remove { unit: spec(&u) }));
            }
        }
    }
    out
}

/// One movement phase to adjudicate: the position and the orders standing at its deadline.
#[derive(Clone, Debug)]
pub struct MovementPhase {
    pub position: Position,
    pub orders: Vec<PowerOrder>,
}

/// Plays random games from the standard opening until `count` movement phases are
/// collected (each game runs at most `max_years` years, then a new one starts).
pub fn movement_phases(
    map: &Map,
    rules: &dyn Rules,
    seed: u64,
    count: usize,
    max_years: u16,
) -> Vec<MovementPhase> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut position = Position::standard_start(map);
    while out.len() < count {
        let orders = match position.phase.kind {
            PhaseKind::Movement => {
                let o = movement_orders(map, &position, &mut rng);
                out.push(MovementPhase {
                    position: position.clone(),
                    orders: o.clone(),
                });
                o
            }
            PhaseKind::Retreat => retreat_orders(&position, &mut rng),
            PhaseKind::Adjustment => adjustment_orders(map, rules, &position, &mut rng),
            PhaseKind::Own(_) => Vec::new(),
        };
        let outcome = rules::adjudicate(map, rules, &position, &orders);
        position = outcome.next;
        if position.phase.year >= 1901 + max_years || position.units.is_empty() {
            position = Position::standard_start(map);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Standard;

    #[test]
    fn deterministic_and_mostly_legal() {
        let map = Map::standard().expect("map");
        let a = movement_phases(map, &Standard, 7, 50, 10);
        let b = movement_phases(map, &Standard, 7, 50, 10);
        assert_eq!(a.len(), 50);
        assert!(
            a.iter()
                .zip(&b)
                .all(|(x, y)| x.orders == y.orders && x.position == y.position)
        );
        // The board stays sane: never two units in one province, never more than 34.
        for p in &a {
            let mut provinces: Vec<_> = p
                .position
                .units
                .iter()
                .map(|u| u.location.province)
                .collect();
            provinces.sort();
            provinces.dedup();
            assert_eq!(provinces.len(), p.position.units.len());
            assert!(p.position.units.len() <= 34);
        }
    }
}
