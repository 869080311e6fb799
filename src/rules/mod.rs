//! The rules of the game: positions, orders, and their adjudication exactly as the DATC
//! v3.0 prefers, with the variant hooks of `docs/rules/README.md` §3.
//!
//! Pure: no SQL, no mail, no clock. Text → orders is the `command` layer's job; here an
//! order is already made of map keys. Three steps, as TedDriggs' crate does it: orders are
//! *validated* against the position (illegal ones are refused with a reason and the unit
//! holds), the legal set is *resolved*, and the outcome says for each order whether it
//! succeeded and why not. [`adjudicate_with`] runs one phase and sequences the next, calling
//! a [`Calendar`] at every step where a rule set may act (H16, H18); [`adjudicate`] is the
//! same with the standard calendar.

mod adjustment;
mod calendar;
mod hooks;
mod movement;
mod order;
mod outcome;
mod phase;
mod position;
mod ratio;
mod resolve;
mod retreat;
mod validate;
mod verdict;

pub use calendar::{Calendar, CalendarPoint, StandardCalendar, Step};
pub use hooks::{MoveContext, OrderCheck, PseudoMove, Rewrite, Rules, Standard};
pub use order::{Order, PowerOrder, Refusal, UnitSpec};
pub use outcome::{
    AttackRecord, Failure, OrderResult, PhaseOutcome, PhaseRecord, SupportRecord, UnitRecord,
};
pub use phase::{OwnPhase, Phase, PhaseKind, Season, Then, describe_phases};
pub use position::{DislodgedUnit, Owner, Position, Unit, UnitId, UnitKind};
pub use ratio::Strength;
pub(crate) use validate::can_reach;
pub use validate::unit_named;
pub use verdict::{VariantRefusal, Warning};

use crate::map::Map;

/// Adjudicates the phase `position.phase` with `orders` under the standard calendar (no
/// phase added, none kept that the standard game skips, no step acted on). See
/// [`adjudicate_with`].
pub fn adjudicate(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    orders: &[PowerOrder],
) -> PhaseOutcome {
    adjudicate_with(
        map,
        rules,
        &mut StandardCalendar { rules },
        position,
        orders,
    )
}

/// Adjudicates the phase `position.phase` with `orders` (the order set standing at the
/// deadline; units without an order hold, dislodged units without one disband, missing
/// builds are waived and missing removals made by the civil-disorder rule), resolving with
/// `rules`, then sequences the next phase with `calendar`.
///
/// Returns each order's result, the board right after the phase, and the position at the
/// start of the next phase that needs orders: Spring → (Spring retreats) → Fall → (Fall
/// retreats) → centre ownership update → (Winter adjustments) → next Spring. A retreat
/// phase in which no dislodged unit has anywhere to go is skipped (those units are
/// disbanded with the movement results), as is a Winter with no adjustment to make, unless
/// the calendar holds it (H18). The calendar's own phases (an alliance, jury or conference
/// phase) are resolved by the calendar alone: their outcome has no order results.
pub fn adjudicate_with(
    map: &Map,
    rules: &dyn Rules,
    calendar: &mut dyn Calendar,
    position: &Position,
    orders: &[PowerOrder],
) -> PhaseOutcome {
    let (results, mut after, record) = match position.phase.kind {
        PhaseKind::Movement => {
            let m = movement::adjudicate_movement(map, rules, position, orders);
            (m.results, m.after, m.record)
        }
        PhaseKind::Retreat => {
            let (r, a, rec) = retreat::adjudicate_retreats(map, rules, position, orders);
            (r, a, rec)
        }
        PhaseKind::Adjustment => {
            let (r, a, rec) = adjustment::adjudicate_adjustments(map, rules, position, orders);
            (r, a, rec)
        }
        PhaseKind::Own(_) => (Vec::new(), position.clone(), PhaseRecord::default()),
    };
    let results = in_listing_order(results);
    calendar.step(
        map,
        Step::Resolved {
            results: &results,
            record: &record,
        },
        &mut after,
    );
    // Where a dislodged unit may retreat follows the rules as the step left them (H13: a
    // sphere of influence declared by this very phase closes a province, FD-4.6).
    if !after.dislodged.is_empty() {
        let rules_now = calendar.rules(map, &after);
        for d in &mut after.dislodged {
            let unit = d.unit;
            d.retreat_options
                .retain(|o| rules_now.retreat_allowed(map, position, &unit, *o));
        }
    }
    after.sort_units();
    let (next, ownership_updated) = sequence(map, calendar, &after);
    PhaseOutcome {
        results,
        after,
        next,
        record,
        ownership_updated,
    }
}

/// Unit listing order: powers alphabetical (neutral units last), then province code; a
/// unit's own order before the defaults standing in for it. Results are large, so sort
/// small keys and move each result once.
fn in_listing_order(results: Vec<OrderResult>) -> Vec<OrderResult> {
    let mut keys: Vec<u64> = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let owner = match r.owner {
                Owner::Power(p) => p.index() as u64,
                Owner::Neutral => 7,
            };
            let province = r
                .order
                .unit()
                .map_or(0, |u| u.location.province.index() as u64 + 1);
            (owner << 48) | (province << 33) | (u64::from(!r.given) << 32) | i as u64
        })
        .collect();
    keys.sort_unstable();
    let mut slots: Vec<Option<OrderResult>> = results.into_iter().map(Some).collect();
    keys.iter()
        .filter_map(|k| {
            slots
                .get_mut((k & 0xFFFF_FFFF) as usize)
                .and_then(Option::take)
        })
        .collect()
}

/// Checks movement-phase orders against the position without adjudicating: for each
/// order, the reason it would be refused, or None if it is legal. (The judge uses this to
/// answer each order line when it arrives.)
pub fn check_movement_orders(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    orders: &[PowerOrder],
) -> Vec<Option<Refusal>> {
    let v = validate::validate_movement(map, rules, position, orders);
    let mut out = vec![None; orders.len()];
    for (k, r) in v.refused {
        if let Some(slot) = out.get_mut(k) {
            *slot = Some(r);
        }
    }
    out
}

/// Checks one power's new orders for any phase, in the order given, against the position
/// and the orders already accepted before them (`standing`): for each new order, the
/// reason it would be refused, or None. Adjustment orders are checked as a set (a second
/// build beyond the count is refused). In a phase without unit orders every order is
/// refused.
pub fn check_orders(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    standing: &[PowerOrder],
    new: &[PowerOrder],
) -> Vec<Option<Refusal>> {
    let refusals = match position.phase.kind {
        PhaseKind::Movement => check_movement_orders(map, rules, position, new),
        PhaseKind::Retreat | PhaseKind::Adjustment => {
            let mut accepted: Vec<PowerOrder> = standing.to_vec();
            let mut out = Vec::with_capacity(new.len());
            for po in new {
                let mut trial = accepted.clone();
                if position.phase.kind == PhaseKind::Retreat {
                    // A new retreat order for a unit replaces the standing one.
                    let unit = po.order.unit().map(|u| u.province());
                    trial.retain(|o| o.order.unit().map(|u| u.province()) != unit);
                }
                trial.push(*po);
                let outcome = adjudicate(map, rules, position, &trial);
                let refusal = outcome.results.iter().find_map(|r| match &r.failure {
                    Some(Failure::Illegal(refusal)) if r.given && r.order == po.order => {
                        Some(refusal.clone())
                    }
                    _ => None,
                });
                // H3: the rule set's own conditions, once the order is legal.
                let refusal = refusal.or_else(|| rules.validate(map, position, po).err());
                if refusal.is_none() {
                    accepted = trial;
                }
                out.push(refusal);
            }
            out
        }
        PhaseKind::Own(_) => new
            .iter()
            .map(|_| {
                Some(Refusal::NoUnitOrders {
                    phase: position.phase.long_name(),
                })
            })
            .collect(),
    };
    // H3 may replace a generic refusal with its own (an order for a unit the rule set
    // treats specially), and the first of the rule set's own errors applies.
    refusals
        .into_iter()
        .zip(new)
        .map(|(r, po)| r.map(|r| rules.replace_refusal(map, position, po, &r).unwrap_or(r)))
        .collect()
}

/// The next phase after `after`, the board right after a phase: the standard succession,
/// with the calendar's steps and phases (H16, H18). Returns the position at the start of
/// the next phase that needs orders (or that the calendar holds), and whether the centre
/// ownership was updated on the way (the end of a Fall).
fn sequence(map: &Map, calendar: &mut dyn Calendar, after: &Position) -> (Position, bool) {
    let mut next = after.clone();
    let done = after.phase;
    let Phase { year, season, kind } = done;
    if kind == PhaseKind::Movement {
        // Units with nowhere to go are disbanded with the movement results; a retreat
        // phase is held only for units that can retreat.
        next.dislodged.retain(|d| !d.retreat_options.is_empty());
        if !next.dislodged.is_empty() {
            next.phase = Phase::new(year, season, PhaseKind::Retreat);
            calendar.step(map, Step::Opens(next.phase), &mut next);
            return (next, false);
        }
    }
    next.dislodged.clear();
    let mut ownership_updated = false;
    match (season, kind) {
        // A rule set's own phase is followed as it says (H18).
        (_, PhaseKind::Own(own)) if own.then == Then::Movement => {
            next.phase = Phase::new(year, season, PhaseKind::Movement);
        }
        (_, PhaseKind::Own(_)) => {
            next.phase = after_winter(calendar, done, &next);
        }
        (Season::Spring, _) => {
            calendar.step(map, Step::SpringEnds, &mut next);
            next.phase = Phase::new(year, Season::Fall, PhaseKind::Movement);
        }
        (Season::Fall, _) => {
            calendar.rules(map, &next).update_ownership(map, &mut next);
            ownership_updated = true;
            calendar.step(map, Step::OwnershipUpdated, &mut next);
            let winter = Phase::new(year, Season::Winter, PhaseKind::Adjustment);
            let needed = {
                let rules = calendar.rules(map, &next);
                adjustment::adjustments_needed(map, rules, &next)
            };
            let held = calendar.next(CalendarPoint::Skipping {
                winter,
                position: &next,
            }) == Some(winter);
            if needed || held {
                next.phase = winter;
            } else {
                // The Winter is skipped: the season ends where it would have ended.
                next.phase = winter;
                calendar.step(map, Step::FallEnds, &mut next);
                next.phase = after_winter(calendar, winter, &next);
            }
        }
        (Season::Winter, PhaseKind::Adjustment) => {
            calendar.step(map, Step::FallEnds, &mut next);
            next.phase = after_winter(calendar, done, &next);
        }
        (Season::Winter, _) => {
            next.phase = after_winter(calendar, done, &next);
        }
    }
    next.sort_units();
    calendar.step(map, Step::Opens(next.phase), &mut next);
    (next, ownership_updated)
}

/// After a Winter (or a phase the calendar put after it): the calendar's next phase of its
/// own, else the next Spring.
fn after_winter(calendar: &mut dyn Calendar, done: Phase, position: &Position) -> Phase {
    let own = |p: Phase| matches!(p.kind, PhaseKind::Own(_));
    calendar
        .next(CalendarPoint::After {
            phase: done,
            position,
        })
        .filter(|p| *p > done || (*p == done && own(done)))
        .unwrap_or_else(|| done.next_spring())
}

/// The position at the start of the next phase that needs orders, under the standard
/// calendar (used where only the succession matters).
pub fn next_phase(map: &Map, rules: &dyn Rules, after: &Position) -> Position {
    sequence(map, &mut StandardCalendar { rules }, after).0
}

#[cfg(test)]
mod tests;
