//! The rules of the game: positions, orders, and their adjudication exactly as the DATC
//! v3.0 prefers, with the variant hooks of `shared/rules/README.md` §3.
//!
//! Pure: no SQL, no mail, no clock. Text → orders is the `command` layer's job; here an
//! order is already made of map keys. Three steps, as TedDriggs' crate does it: orders are
//! *validated* against the position (illegal ones are refused with a reason and the unit
//! holds), the legal set is *resolved*, and the outcome says for each order whether it
//! succeeded and why not. [`adjudicate`] runs one phase and sequences the next.

mod adjustment;
mod hooks;
mod movement;
mod order;
mod outcome;
mod position;
mod ratio;
mod resolve;
mod retreat;
mod validate;

pub use hooks::{MoveContext, PseudoMove, Rules, Standard};
pub use order::{Order, PowerOrder, Refusal, UnitSpec};
pub use outcome::{Failure, OrderResult, PhaseOutcome};
pub use position::{DislodgedUnit, Owner, Phase, PhaseKind, Position, Season, Unit, UnitKind};
pub use ratio::Strength;

use crate::map::Map;

/// Adjudicates the phase `position.phase` with `orders` (the order set standing at the
/// deadline; units without an order hold, dislodged units without one disband, missing
/// builds are waived and missing removals made by the civil-disorder rule).
///
/// Returns each order's result, the board right after the phase, and the position at the
/// start of the next phase that needs orders: Spring → (Spring retreats) → Fall → (Fall
/// retreats) → centre ownership update → (Winter adjustments) → next Spring. A retreat
/// phase with nobody dislodged and a Winter with no adjustment to make are skipped.
pub fn adjudicate(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    orders: &[PowerOrder],
) -> PhaseOutcome {
    let (results, after) = match position.phase.kind {
        PhaseKind::Movement => {
            let m = movement::adjudicate_movement(map, rules, position, orders);
            (m.results, m.after)
        }
        PhaseKind::Retreat => retreat::adjudicate_retreats(map, rules, position, orders),
        PhaseKind::Adjustment => adjustment::adjudicate_adjustments(map, rules, position, orders),
    };
    // Unit listing order: powers alphabetical (neutral units last), then province code;
    // a unit's own order before the defaults standing in for it. Results are large, so
    // sort small keys and move each result once.
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
    let results: Vec<OrderResult> = keys
        .iter()
        .filter_map(|k| {
            slots
                .get_mut((k & 0xFFFF_FFFF) as usize)
                .and_then(Option::take)
        })
        .collect();
    let next = next_phase(map, rules, &after);
    PhaseOutcome {
        results,
        after,
        next,
    }
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
/// build beyond the count is refused).
pub fn check_orders(
    map: &Map,
    rules: &dyn Rules,
    position: &Position,
    standing: &[PowerOrder],
    new: &[PowerOrder],
) -> Vec<Option<Refusal>> {
    match position.phase.kind {
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
                if refusal.is_none() {
                    accepted = trial;
                }
                out.push(refusal);
            }
            out
        }
    }
}

/// The position at the start of the next phase that needs orders.
pub fn next_phase(map: &Map, rules: &dyn Rules, after: &Position) -> Position {
    let mut next = after.clone();
    let Phase { year, season, kind } = after.phase;
    let fall_ends = |next: &mut Position| {
        rules.update_ownership(map, next);
        if adjustment::adjustments_needed(map, rules, next) {
            next.phase = Phase::new(year, Season::Winter, PhaseKind::Adjustment);
        } else {
            next.phase = Phase::new(year.saturating_add(1), Season::Spring, PhaseKind::Movement);
        }
    };
    match (season, kind) {
        (_, PhaseKind::Movement) if !after.dislodged.is_empty() => {
            next.phase = Phase::new(year, season, PhaseKind::Retreat);
        }
        (Season::Spring, _) => {
            next.dislodged.clear();
            next.phase = Phase::new(year, Season::Fall, PhaseKind::Movement);
        }
        (Season::Fall, _) => {
            next.dislodged.clear();
            fall_ends(&mut next);
        }
        (Season::Winter, _) => {
            next.dislodged.clear();
            next.phase = Phase::new(year.saturating_add(1), Season::Spring, PhaseKind::Movement);
        }
    }
    next
}

#[cfg(test)]
mod tests;
