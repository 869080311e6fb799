//! Adjudication of a movement phase: validate, resolve, then move units, list the
//! dislodged ones with their retreat options, and label every order.

use crate::map::{Location, Map};

use super::hooks::Rules;
use super::order::{Order, PowerOrder, UnitSpec};
use super::outcome::{Failure, OrderResult};
use super::position::{DislodgedUnit, Position, Unit, UnitKind};
use super::resolve::Resolver;
use super::validate::{Legal, validate_movement};

/// The result of a movement phase before phase sequencing.
pub(crate) struct Movement {
    pub results: Vec<OrderResult>,
    pub after: Position,
}

pub(crate) fn adjudicate_movement(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    orders: &[PowerOrder],
) -> Movement {
    let v = validate_movement(map, rules, position, orders);
    let pseudo = rules.pseudo_moves(map, position, orders);
    let units = &position.units;
    let mut r = Resolver::new(map, rules, units, &v.legal, &pseudo);
    r.resolve_all();

    let n = units.len();
    let mut moved = vec![false; n];
    let mut dislodger: Vec<Option<usize>> = vec![None; n];
    for (i, l) in v.legal.iter().enumerate() {
        if matches!(l, Legal::Move { .. }) && r.resolve(i) {
            if let Some(m) = moved.get_mut(i) {
                *m = true;
            }
            if let Legal::Move { dest, .. } = l
                && let Some(d) = r.unit_in(dest.province)
                && let Some(slot) = dislodger.get_mut(d)
            {
                // A unit that moved out is not dislodged (its mover took an empty place).
                *slot = Some(i);
            }
        }
    }
    for (d, slot) in dislodger.iter_mut().enumerate() {
        if moved.get(d).copied().unwrap_or(false) {
            *slot = None;
        }
    }

    // The new board.
    let mut after_units: Vec<Unit> = Vec::with_capacity(n);
    for (i, u) in units.iter().enumerate() {
        if dislodger.get(i).copied().flatten().is_some() {
            continue;
        }
        let mut u = *u;
        if moved.get(i).copied().unwrap_or(false)
            && let Some(Legal::Move { dest, .. }) = v.legal.get(i)
        {
            u.location = *dest;
        }
        after_units.push(u);
    }

    let occupied: u128 = after_units
        .iter()
        .fold(0, |acc, u| acc | 1u128 << u.location.province.index());
    // Dislodged units and where they may go (DATC 4.A.5 and the 2023 rule: not to the
    // attacker's origin unless it came by convoy; not to a standoff; not occupied).
    let mut dislodged = Vec::new();
    for (d, by) in dislodger.iter().enumerate() {
        let (Some(by), Some(unit)) = (*by, units.get(d)) else {
            continue;
        };
        let Some(attacker) = units.get(by) else {
            continue;
        };
        let by_convoy = matches!(v.legal.get(by), Some(Legal::Move { convoy: true, .. }));
        let from = attacker.location.province;
        let mut options = Vec::new();
        if !rules.disband_instead_of_retreat(unit) {
            let candidates: Vec<Location> = match unit.kind {
                UnitKind::Army => {
                    let mut bits = map.neighbours_bits(unit.location.province) & !occupied;
                    let mut v = Vec::new();
                    while bits != 0 {
                        let i = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if let Some(q) = map.province_at(i)
                            && map.army_border(unit.location.province, q)
                        {
                            v.push(Location::province(q));
                        }
                    }
                    v
                }
                UnitKind::Fleet => map.fleet_moves(unit.location).to_vec(),
            };
            for c in candidates {
                let q = c.province;
                if (q == from && !by_convoy)
                    || occupied & (1u128 << q.index()) != 0
                    || r.standoff_in(q)
                    || !rules.retreat_allowed(map, position, unit, c)
                {
                    continue;
                }
                options.push(c);
            }
        }
        dislodged.push(DislodgedUnit {
            unit: *unit,
            attacker_from: from,
            retreat_options: options,
        });
    }

    // Labels.
    let mut results = Vec::with_capacity(n + v.refused.len());
    for (i, unit) in units.iter().enumerate() {
        let is_dislodged = dislodger.get(i).copied().flatten().is_some();
        let order = match v.source.get(i).copied().flatten() {
            Some(k) => orders.get(k).map(|po| po.order),
            None => None,
        };
        let given = order.is_some();
        let order = order.unwrap_or(Order::Hold {
            unit: UnitSpec::new(Some(unit.kind), unit.location),
        });
        let legal = v.legal.get(i).copied().unwrap_or(Legal::Hold);
        let failure = match legal {
            Legal::Hold => is_dislodged.then_some(Failure::Dislodged),
            Legal::Move { .. } => {
                if moved.get(i).copied().unwrap_or(false) {
                    None
                } else if !r.path(i) {
                    Some(Failure::NoConvoy)
                } else {
                    Some(Failure::Bounce)
                }
            }
            Legal::SupportHold { .. } | Legal::SupportMove { .. } => {
                if !r.is_matched(i) {
                    Some(Failure::Void)
                } else if !r.resolve(i) {
                    Some(Failure::Cut)
                } else if r.support_not_counted(i) {
                    Some(Failure::NotCounted)
                } else {
                    None
                }
            }
            Legal::Convoy { army, .. } => {
                if !r.is_matched(i) {
                    Some(Failure::Void)
                } else if !r.resolve(i) || !moved.get(army).copied().unwrap_or(false) {
                    Some(Failure::Disrupted)
                } else {
                    None
                }
            }
        };
        results.push(OrderResult {
            owner: unit.owner,
            order,
            given,
            failure,
            dislodged: is_dislodged,
        });
    }
    for (k, refusal) in &v.refused {
        if let Some(po) = orders.get(*k) {
            results.push(OrderResult {
                owner: super::position::Owner::Power(po.power),
                order: po.order,
                given: true,
                failure: Some(Failure::Illegal(refusal.clone())),
                dislodged: false,
            });
        }
    }

    let mut after = Position {
        phase: position.phase,
        units: after_units,
        dislodged,
        owners: position.owners.clone(),
    };
    after.sort_units();
    Movement { results, after }
}
