//! Adjudication of a movement phase: validate, resolve, then move units, list the
//! dislodged ones with their retreat options, label every order and record what every
//! unit did.

use crate::map::{Location, Map};

use super::hooks::Rules;
use super::order::{Order, PowerOrder, UnitSpec};
use super::outcome::{AttackRecord, Failure, OrderResult, PhaseRecord, SupportRecord, UnitRecord};
use super::position::{DislodgedUnit, Owner, Position, Unit, UnitKind};
use super::resolve::Resolver;
use super::validate::{Legal, validate_movement};

/// The result of a movement phase before phase sequencing.
pub(crate) struct Movement {
    pub results: Vec<OrderResult>,
    pub after: Position,
    pub record: PhaseRecord,
}

/// The order a legal movement order stands for, for the phase record.
fn effective_order(units: &[Unit], unit: &Unit, legal: Legal) -> Order {
    let spec = |u: &Unit| UnitSpec::new(Some(u.kind), u.location);
    let me = spec(unit);
    let other = |i: usize| units.get(i).map(spec).unwrap_or(me);
    match legal {
        Legal::Hold => Order::Hold { unit: me },
        Legal::Move { dest, convoy } => Order::Move {
            unit: me,
            dest,
            via_convoy: convoy,
        },
        Legal::SupportHold { target } => Order::SupportHold {
            unit: me,
            target: other(target),
        },
        Legal::SupportMove {
            target,
            dest,
            coast,
        } => Order::SupportMove {
            unit: me,
            target: other(target),
            dest: Location {
                province: dest,
                coast,
            },
        },
        Legal::Convoy { army, dest } => Order::Convoy {
            unit: me,
            army: other(army),
            dest: Location::province(dest),
        },
    }
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
    // attacker's origin unless it came by convoy; not to a standoff; not occupied; H13).
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
            attacker: attacker.id,
            retreat_options: options,
        });
    }

    // Labels, and the record of every unit.
    let mut results = Vec::with_capacity(n + v.refused.len());
    let mut record = PhaseRecord {
        units: Vec::with_capacity(n),
        supports: Vec::new(),
        attacks: Vec::new(),
    };
    for (i, unit) in units.iter().enumerate() {
        let is_dislodged = dislodger.get(i).copied().flatten().is_some();
        let given_order = match v.source.get(i).copied().flatten() {
            Some(k) => orders.get(k).map(|po| po.order),
            None => None,
        };
        let given = given_order.is_some();
        let hold = Order::Hold {
            unit: UnitSpec::new(Some(unit.kind), unit.location),
        };
        let rewrite = v.rewrites.get(i).and_then(Option::as_ref);
        let (shown, note) = match rewrite {
            Some(rw) if rw.show_given => (given_order.unwrap_or(hold), Some(rw.note.clone())),
            Some(rw) => (rw.order, Some(rw.note.clone())),
            None => (given_order.unwrap_or(hold), None),
        };
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
        // A rewritten order whose result shows the order as given (a void move) did not
        // happen as given: it failed, whatever the hold it became did.
        let failure = match rewrite {
            Some(rw) if rw.show_given && failure.is_none() => Some(if is_dislodged {
                Failure::Dislodged
            } else {
                Failure::Void
            }),
            _ => failure,
        };
        results.push(OrderResult {
            owner: unit.owner,
            order: shown,
            given,
            failure,
            dislodged: is_dislodged,
            note,
        });

        let id = |j: usize| units.get(j).map(|u| u.id).unwrap_or_default();
        match legal {
            Legal::SupportHold { target } => record.supports.push(SupportRecord {
                supporter: unit.id,
                target: id(target),
                dest: None,
                matched: r.is_matched(i),
                cut: r.is_matched(i) && !r.resolve(i),
            }),
            Legal::SupportMove { target, dest, .. } => record.supports.push(SupportRecord {
                supporter: unit.id,
                target: id(target),
                dest: Some(dest),
                matched: r.is_matched(i),
                cut: r.is_matched(i) && !r.resolve(i),
            }),
            Legal::Move { dest, convoy } => record.attacks.push(AttackRecord {
                attacker: unit.id,
                to: dest.province,
                defender: r.unit_in(dest.province).map(id),
                convoyed: convoy,
                has_path: r.path(i),
                succeeded: moved.get(i).copied().unwrap_or(false),
            }),
            Legal::Hold | Legal::Convoy { .. } => {}
        }
        let by = dislodger.get(i).copied().flatten();
        let stays_dislodged = dislodged
            .iter()
            .any(|d| d.unit.id == unit.id && !d.retreat_options.is_empty());
        record.units.push(UnitRecord {
            id: unit.id,
            owner: unit.owner,
            from: unit.location,
            order: effective_order(units, unit, legal),
            given: given && !matches!(unit.owner, Owner::Neutral),
            moved_to: match legal {
                Legal::Move { dest, .. } if moved.get(i).copied().unwrap_or(false) => Some(dest),
                _ => None,
            },
            dislodged_by: by.map(id),
            gone: by.is_some() && !stays_dislodged,
            built: false,
        });
    }
    for (k, refusal) in &v.refused {
        if let Some(po) = orders.get(*k) {
            results.push(OrderResult {
                owner: Owner::Power(po.power),
                order: po.order,
                given: true,
                failure: Some(Failure::Illegal(refusal.clone())),
                dislodged: false,
                note: None,
            });
        }
    }

    let mut after = Position {
        phase: position.phase,
        units: after_units,
        dislodged,
        owners: position.owners.clone(),
        next_unit_id: position.next_unit_id,
    };
    after.sort_units();
    Movement {
        results,
        after,
        record,
    }
}
