//! DATC-style case files: their format (`parse`) and running them against the adjudicator
//! (`run_case`), as `dipjudge adjudicate` and `cargo test` do.
//!
//! A case sets up a position, gives orders, adjudicates one phase and compares what came
//! out with the expected blocks. Differences are reported, never panicked on.

mod parse;

use std::time::Duration;

use crate::map::{Location, Map, Power, ProvinceId};
use crate::rules::{
    self, Order, Owner, PhaseKind, PhaseOutcome, Position, PowerOrder, Rules, Unit, UnitSpec,
};

pub use parse::{
    Case, CaseError, ExpectedOptions, ExpectedResult, parse_cases, parse_order, parse_phase,
};

/// Why a case could not be run at all (as opposed to running and differing).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("variant {0:?} is not implemented yet")]
    UnknownVariant(String),
    #[error("{0}")]
    Inconsistent(String),
}

/// The outcome of one case.
#[derive(Debug)]
pub struct CaseReport {
    /// What differed, one sentence each; empty when the case passed.
    pub differences: Vec<String>,
    /// The adjudication time of the case's phase (excluding setup).
    pub elapsed: Duration,
    pub phase_kind: PhaseKind,
}

/// The rule set a case names. Only the standard game exists so far; the variants arrive
/// as modules of their own.
fn rules_for(variant: &str) -> Result<&'static dyn Rules, RunError> {
    static STANDARD: rules::Standard = rules::Standard;
    match variant.trim().to_ascii_lowercase().as_str() {
        "" | "standard" => Ok(&STANDARD),
        _ => Err(RunError::UnknownVariant(variant.trim().to_string())),
    }
}

fn owners_vec(map: &Map, list: &[(Power, ProvinceId)]) -> Vec<Option<Power>> {
    let mut owners = vec![None; map.province_count()];
    for (power, p) in list {
        if let Some(o) = owners.get_mut(p.index()) {
            *o = Some(*power);
        }
    }
    owners
}

fn unit_text(map: &Map, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        u.owner,
        u.kind.letter(),
        map.location_code(u.location)
    )
}

fn sorted_texts(map: &Map, units: &[Unit]) -> Vec<String> {
    let mut v: Vec<String> = units.iter().map(|u| unit_text(map, u)).collect();
    v.sort();
    v
}

/// Compares two unit sets and says what is missing and what is extra.
fn compare_units(map: &Map, what: &str, expected: &[Unit], got: &[Unit], out: &mut Vec<String>) {
    let e = sorted_texts(map, expected);
    let g = sorted_texts(map, got);
    if e == g {
        return;
    }
    let missing: Vec<&String> = e.iter().filter(|x| !g.contains(x)).collect();
    let extra: Vec<&String> = g.iter().filter(|x| !e.contains(x)).collect();
    out.push(format!(
        "{what}: expected but missing [{}]; present but not expected [{}]",
        missing
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        extra
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
}

/// Rebuilds the movement phase a retreat case came from (its PRESTATE_RESULTS orders) and
/// adjudicates it, so that retreat options know the standoffs and the attackers' origins.
fn replay_movement(
    map: &Map,
    rules: &dyn Rules,
    case: &Case,
    results: &[ExpectedResult],
) -> Result<Position, RunError> {
    let phase = case
        .phase
        .map(|p| rules::Phase::new(p.year, p.season, PhaseKind::Movement));
    let Some(phase) = phase else {
        return Err(RunError::Inconsistent("no phase".into()));
    };
    let mut pos = Position::empty(map, phase);
    pos.set_home_ownership(map);
    if let Some(o) = &case.owners {
        pos.owners = owners_vec(map, o);
    }
    let mut orders = Vec::new();
    for r in results {
        let Some(spec) = r.order.order.unit() else {
            continue;
        };
        let Some(kind) = spec.kind else {
            return Err(RunError::Inconsistent(format!(
                "line {}: PRESTATE_RESULTS orders must name the unit kind",
                r.line
            )));
        };
        if pos.unit_in(spec.province()).is_none() {
            pos.units
                .push(Unit::new(Owner::Power(r.order.power), kind, spec.location));
        }
        orders.push(r.order);
    }
    // Units of the retreat position that gave no order in the movement phase held.
    for u in case.prestate.iter().chain(case.dislodged.iter()) {
        if pos.unit_in(u.location.province).is_none()
            && !results
                .iter()
                .any(|r| matches!(r.order.order, Order::Move { dest, .. } if dest.province == u.location.province))
        {
            pos.units.push(*u);
        }
    }
    pos.sort_units();
    let out = rules::adjudicate(map, rules, &pos, &orders);
    let mut diffs = Vec::new();
    compare_units(
        map,
        "PRESTATE (replayed from PRESTATE_RESULTS)",
        &case.prestate,
        &out.after.units,
        &mut diffs,
    );
    let dislodged: Vec<Unit> = out.after.dislodged.iter().map(|d| d.unit).collect();
    compare_units(
        map,
        "PRESTATE_DISLODGED (replayed)",
        &case.dislodged,
        &dislodged,
        &mut diffs,
    );
    if !diffs.is_empty() {
        return Err(RunError::Inconsistent(diffs.join("; ")));
    }
    let mut after = out.after;
    after.phase = rules::Phase::new(phase.year, phase.season, PhaseKind::Retreat);
    Ok(after)
}

/// The starting position of a case.
fn setup(map: &Map, rules: &dyn Rules, case: &Case) -> Result<Position, RunError> {
    let Some(phase) = case.phase else {
        return Err(RunError::Inconsistent("no PRESTATE_SETPHASE".into()));
    };
    if phase.kind == PhaseKind::Retreat
        && let Some(results) = &case.prestate_results
    {
        return replay_movement(map, rules, case, results);
    }
    let mut pos = Position::empty(map, phase);
    match &case.owners {
        Some(o) => pos.owners = owners_vec(map, o),
        None => pos.set_home_ownership(map),
    }
    pos.units = case.prestate.clone();
    pos.sort_units();
    // A retreat case without the movement phase: the dislodged units may go to any
    // adjacent empty place (no standoff or attacker is known).
    for u in &case.dislodged {
        let options = map
            .locations()
            .into_iter()
            .filter(|l| {
                let ok = match u.kind {
                    rules::UnitKind::Army => {
                        l.coast.is_none() && map.army_border(u.location.province, l.province)
                    }
                    rules::UnitKind::Fleet => map.fleet_border(u.location, *l),
                };
                ok && pos.unit_in(l.province).is_none()
            })
            .collect();
        pos.dislodged.push(rules::DislodgedUnit {
            unit: *u,
            attacker_from: u.location.province,
            attacker: rules::UnitId::NONE,
            retreat_options: options,
        });
    }
    Ok(pos)
}

fn result_text(map: &Map, power: Owner, order: &Order) -> String {
    format!("{power}: {}", order.display(map))
}

fn check_results(
    map: &Map,
    expected: &[ExpectedResult],
    out: &PhaseOutcome,
    diffs: &mut Vec<String>,
) {
    for e in expected {
        let found = out.results.iter().find(|r| {
            r.owner == Owner::Power(e.order.power) && same_order(&r.order, &e.order.order)
        });
        match found {
            None => diffs.push(format!("line {}: no result for {:?}", e.line, e.text)),
            Some(r) if r.succeeded() != e.success => diffs.push(format!(
                "line {}: {}: expected {}, got {}{}",
                e.line,
                result_text(map, r.owner, &r.order),
                if e.success { "SUCCESS" } else { "FAILURE" },
                if r.succeeded() { "SUCCESS" } else { "FAILURE" },
                r.failure
                    .as_ref()
                    .map(|f| format!(" ({})", failure_text(f)))
                    .unwrap_or_default()
            )),
            Some(_) => {}
        }
    }
}

fn failure_text(f: &rules::Failure) -> String {
    match f {
        rules::Failure::Illegal(r) => format!("illegal: {r}"),
        other => other.marker().to_string(),
    }
}

/// Orders are the same when they name the same units and places; a unit kind left out on
/// one side matches either kind.
fn same_order(a: &Order, b: &Order) -> bool {
    fn spec(a: &UnitSpec, b: &UnitSpec) -> bool {
        a.location.province == b.location.province
            && (a.kind.is_none() || b.kind.is_none() || a.kind == b.kind)
    }
    fn loc(a: &Location, b: &Location) -> bool {
        a.province == b.province && (a.coast.is_none() || b.coast.is_none() || a.coast == b.coast)
    }
    match (a, b) {
        (Order::Hold { unit: x }, Order::Hold { unit: y })
        | (Order::Disband { unit: x }, Order::Disband { unit: y })
        | (Order::Build { unit: x }, Order::Build { unit: y })
        | (Order::Remove { unit: x }, Order::Remove { unit: y }) => {
            spec(x, y) && loc(&x.location, &y.location)
        }
        (
            Order::Move {
                unit: x,
                dest: d,
                via_convoy: v,
            },
            Order::Move {
                unit: y,
                dest: e,
                via_convoy: w,
            },
        ) => spec(x, y) && loc(d, e) && v == w,
        (Order::Retreat { unit: x, dest: d }, Order::Retreat { unit: y, dest: e }) => {
            spec(x, y) && loc(d, e)
        }
        (Order::SupportHold { unit: x, target: t }, Order::SupportHold { unit: y, target: s }) => {
            spec(x, y) && spec(t, s)
        }
        (
            Order::SupportMove {
                unit: x,
                target: t,
                dest: d,
            },
            Order::SupportMove {
                unit: y,
                target: s,
                dest: e,
            },
        ) => spec(x, y) && spec(t, s) && loc(d, e),
        (
            Order::Convoy {
                unit: x,
                army: t,
                dest: d,
            },
            Order::Convoy {
                unit: y,
                army: s,
                dest: e,
            },
        ) => spec(x, y) && spec(t, s) && loc(d, e),
        (Order::Waive, Order::Waive) => true,
        _ => false,
    }
}

/// Runs one case and reports what differed.
pub fn run_case(map: &Map, case: &Case) -> Result<CaseReport, RunError> {
    let rules = rules_for(&case.variant)?;
    let position = setup(map, rules, case)?;
    let orders: Vec<PowerOrder> = case.orders.iter().map(|(_, o)| *o).collect();
    let start = std::time::Instant::now();
    let out = rules::adjudicate(map, rules, &position, &orders);
    let elapsed = start.elapsed();
    let mut diffs = Vec::new();

    if let Some(post) = &case.poststate {
        compare_units(map, "POSTSTATE", post, &out.after.units, &mut diffs);
    } else if case.poststate_same {
        compare_units(
            map,
            "POSTSTATE_SAME",
            &position.units,
            &out.after.units,
            &mut diffs,
        );
    }
    if position.phase.kind == PhaseKind::Movement {
        let got: Vec<Unit> = out.after.dislodged.iter().map(|d| d.unit).collect();
        let expected = case.post_dislodged.clone().unwrap_or_default();
        if case.poststate.is_some() || case.post_dislodged.is_some() {
            compare_units(map, "POSTSTATE_DISLODGED", &expected, &got, &mut diffs);
        }
    }
    if let Some(expected) = &case.post_results {
        check_results(map, expected, &out, &mut diffs);
    }
    if let Some(expected) = &case.post_options {
        for e in expected {
            let got = out
                .after
                .dislodged
                .iter()
                .find(|d| d.unit.location.province == e.unit.location.province);
            let codes = |v: &[Location]| {
                let mut s: Vec<String> = v.iter().map(|l| map.location_code(*l)).collect();
                s.sort();
                s.join(" ")
            };
            match got {
                None => diffs.push(format!(
                    "line {}: {} was not dislodged",
                    e.line,
                    unit_text(map, &e.unit)
                )),
                Some(d) if codes(&d.retreat_options) != codes(&e.options) => diffs.push(format!(
                    "line {}: retreat options of {}: expected [{}], got [{}]",
                    e.line,
                    unit_text(map, &e.unit),
                    codes(&e.options),
                    codes(&d.retreat_options)
                )),
                Some(_) => {}
            }
        }
    }
    if let Some(p) = case.post_phase
        && p != out.next.phase
    {
        diffs.push(format!(
            "POSTSTATE_SETPHASE: expected {p}, got {}",
            out.next.phase
        ));
    }
    if let Some(o) = &case.post_owners {
        let expected = owners_vec(map, o);
        let mut lines = Vec::new();
        for id in map.supply_centres() {
            let (e, g) = (
                expected.get(id.index()).copied().flatten(),
                out.next.owner_of(id),
            );
            if e != g {
                let name = |p: Option<Power>| p.map(|p| p.name()).unwrap_or("nobody");
                lines.push(format!(
                    "{} expected {}, got {}",
                    map.code(id),
                    name(e),
                    name(g)
                ));
            }
        }
        if !lines.is_empty() {
            diffs.push(format!(
                "POSTSTATE_SUPPLYCENTER_OWNERS: {}",
                lines.join("; ")
            ));
        }
    }
    Ok(CaseReport {
        differences: diffs,
        elapsed,
        phase_kind: position.phase.kind,
    })
}
