//! Adjudication of a retreat phase: each dislodged unit retreats to one of its options or
//! is disbanded; two retreats to one province both disband; no order means disband.

use crate::map::{Location, Map};

use super::hooks::Rules;
use super::order::{Order, PowerOrder, Refusal, UnitSpec};
use super::outcome::{Failure, OrderResult, PhaseRecord, UnitRecord};
use super::position::{DislodgedUnit, Owner, Position, UnitKind};

/// The place a retreat order sends its unit to: one of the options offered after the
/// movement phase that the rules still allow now (H13 is asked again: what a rule set
/// allows may have changed since, by an order of this phase).
fn choose_destination(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    d: &DislodgedUnit,
    dest: Location,
) -> Result<Location, Refusal> {
    let refuse = || Refusal::RetreatNotAllowed {
        unit: d.unit.display(map),
        dest: map.location_name(dest),
    };
    let candidates: Vec<Location> = d
        .retreat_options
        .iter()
        .copied()
        .filter(|o| o.province == dest.province)
        .filter(|o| rules.retreat_allowed(map, position, &d.unit, *o))
        .collect();
    match (d.unit.kind, dest.coast, candidates.as_slice()) {
        (UnitKind::Army, _, [only, ..]) => Ok(*only),
        (UnitKind::Fleet, Some(_), _) if candidates.contains(&dest) => Ok(dest),
        (UnitKind::Fleet, None, [only]) => Ok(*only),
        (UnitKind::Fleet, None, [_, _, ..]) => Err(Refusal::CoastNeeded {
            unit: d.unit.display(map),
            dest: map.location_name(dest),
        }),
        _ => Err(refuse()),
    }
}

/// A dislodged unit's retreat order: its index in the input, where it goes (None: it is
/// disbanded), and the note of a retreat the rules void (H13).
type Choice = (usize, Option<Location>, Option<String>);

/// Adjudicates the retreats; returns the labels and the board after the phase (no
/// dislodged units left).
pub(crate) fn adjudicate_retreats(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    orders: &[PowerOrder],
) -> (Vec<OrderResult>, Position, PhaseRecord) {
    let n = position.dislodged.len();
    // For each dislodged unit: the input order it follows, its destination (None:
    // disband), and the note of a retreat the rules void (H13).
    let mut chosen: Vec<Option<Choice>> = vec![None; n];
    let mut results = Vec::new();
    for (k, po) in orders.iter().enumerate() {
        let refused = |r: Refusal| OrderResult {
            owner: Owner::Power(po.power),
            order: po.order,
            given: true,
            failure: Some(Failure::Illegal(r)),
            dislodged: false,
            note: None,
        };
        let (unit, dest) = match po.order {
            Order::Retreat { unit, dest } => (unit, Some(dest)),
            Order::Move { unit, dest, .. } => (unit, Some(dest)),
            Order::Disband { unit } => (unit, None),
            Order::Build { .. } | Order::Remove { .. } | Order::Waive => {
                results.push(refused(Refusal::WrongPhase {
                    expected: "adjustment",
                }));
                continue;
            }
            Order::Hold { .. }
            | Order::SupportHold { .. }
            | Order::SupportMove { .. }
            | Order::Convoy { .. } => {
                results.push(refused(Refusal::WrongPhase {
                    expected: "movement",
                }));
                continue;
            }
        };
        let Some(i) = position
            .dislodged
            .iter()
            .position(|d| d.unit.location.province == unit.province())
        else {
            let place = map.location_name(Location::province(unit.province()));
            let r = if position.unit_in(unit.province()).is_some() {
                Refusal::NotDislodged(place)
            } else {
                Refusal::NoUnit(place)
            };
            results.push(refused(r));
            continue;
        };
        let Some(d) = position.dislodged.get(i) else {
            continue;
        };
        if d.unit.owner != Owner::Power(po.power) {
            results.push(refused(Refusal::ForeignUnit {
                place: map.location_name(d.unit.location),
                owner: d.unit.owner.to_string(),
                power: po.power.name().to_string(),
            }));
            continue;
        }
        if let Some(kind) = unit.kind
            && kind != d.unit.kind
        {
            results.push(refused(Refusal::WrongUnitKind {
                place: map.location_name(d.unit.location),
                actual: d.unit.kind.name().to_lowercase(),
                ordered: kind.name().to_lowercase(),
            }));
            continue;
        }
        let dest = match dest
            .map(|l| choose_destination(map, rules, position, d, l))
            .transpose()
        {
            Ok(dest) => dest,
            Err(r) => {
                results.push(refused(r));
                continue;
            }
        };
        // H13: a retreat the rule set voids now disbands its unit, and says why.
        let void = dest.and_then(|l| rules.void_retreat(map, position, &d.unit, l));
        let dest = if void.is_some() { None } else { dest };
        if let Some(slot) = chosen.get_mut(i) {
            if let Some((prev, _, _)) = *slot
                && let Some(prev_order) = orders.get(prev)
            {
                results.push(OrderResult {
                    owner: Owner::Power(prev_order.power),
                    order: prev_order.order,
                    given: true,
                    failure: Some(Failure::Illegal(Refusal::Duplicate {
                        unit: d.unit.display(map),
                    })),
                    dislodged: false,
                    note: None,
                });
            }
            *slot = Some((k, dest, void));
        }
    }

    let mut after = position.clone();
    after.dislodged.clear();
    let mut record = PhaseRecord::default();
    for (i, d) in position.dislodged.iter().enumerate() {
        let choice = chosen.get(i).cloned().flatten();
        let dest = choice.as_ref().and_then(|(_, dest, _)| *dest);
        let bounced = dest.is_some_and(|l| {
            chosen.iter().enumerate().any(|(j, c)| {
                j != i
                    && c.as_ref()
                        .and_then(|(_, x, _)| *x)
                        .is_some_and(|x| x.province == l.province)
            })
        });
        let note = choice.as_ref().and_then(|(_, _, note)| note.clone());
        let order = match choice.as_ref().and_then(|(k, _, _)| orders.get(*k)) {
            Some(po) => po.order,
            None => Order::Disband {
                unit: UnitSpec::new(Some(d.unit.kind), d.unit.location),
            },
        };
        let failure = if bounced {
            Some(Failure::RetreatBounce)
        } else {
            None
        };
        let arrived = dest.filter(|_| !bounced);
        if let Some(l) = arrived {
            let mut u = d.unit;
            u.location = l;
            after.units.push(u);
        }
        results.push(OrderResult {
            owner: d.unit.owner,
            order,
            given: choice.is_some(),
            failure,
            dislodged: false,
            note,
        });
        record.units.push(UnitRecord {
            id: d.unit.id,
            owner: d.unit.owner,
            from: d.unit.location,
            order,
            given: choice.is_some(),
            moved_to: arrived,
            dislodged_by: None,
            gone: arrived.is_none(),
            built: false,
        });
    }
    after.sort_units();
    (results, after, record)
}
