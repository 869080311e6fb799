//! A game's record as one JSON document (`dipjudge export`): its settings, each phase's
//! position with the results bulletin and the press of that phase, and the supply centres
//! by year. What it holds is what an outsider reads by mail (`judge::history`'s rule for
//! observers): nothing of private press, no address the game hides. Schema in
//! `docs/export.md`; `version` changes with it.

use serde_json::{Value, json};

use crate::game::{Abandonment, Game, Reader, Status};
use crate::map::Map;
use crate::picture::Drawing;
use crate::rules::{Owner, Position};
use crate::store::{HistoryEntry, StoreError, Tx};

use super::{chart, history};

/// A unit's owner as the export names it: `France`, `Neutral`.
fn owner_name(owner: Owner) -> &'static str {
    match owner {
        Owner::Power(p) => p.name(),
        Owner::Neutral => "Neutral",
    }
}

/// The schema's version (`docs/export.md`).
pub const EXPORT_VERSION: u32 = 1;

/// The export of game `g`, for anyone outside it.
pub(super) fn export(map: &Map, tx: &Tx<'_>, g: &Game) -> Result<Value, StoreError> {
    let entries = history::for_reader(g, Reader::Observers, tx.history(g.name())?);
    let snapshots = tx.snapshots(g.name())?;
    let mut phases = Vec::new();
    for s in &snapshots {
        phases.push(phase_record(map, tx, g, &entries, s.position())?);
    }
    let chart = if *g.status() == Status::Forming {
        Value::Null
    } else {
        let c = chart::centre_chart(tx, g)?;
        json!({
            "columns": c.columns,
            "powers": c.lines.iter().map(|l| json!({
                "power": l.power.name(),
                "centres": l.counts,
            })).collect::<Vec<_>>(),
        })
    };
    let status = match g.status() {
        Status::Forming => "forming".to_string(),
        Status::Active => "active".to_string(),
        Status::Paused => "paused".to_string(),
        Status::Finished(e) => {
            let mut s = String::from("finished: ");
            s.push_str(&crate::bulletin::results::ending_sentence(e));
            s
        }
    };
    // Who played which power is public (SUMMARY lists it); whose address it was is shown
    // only where the game shows addresses now: a game that ended and reveals its players,
    // or one whose master showed them.
    let revealed = !g.addresses_hidden();
    Ok(json!({
        "format": "dipjudge-export",
        "version": EXPORT_VERSION,
        "game": g.name(),
        "variant": g.variant(),
        "status": status,
        "settings": {
            "press": g.settings().press,
            "nmr": g.settings().nmr,
            "centres_to_win": g.settings().centres_to_win,
            "time_zone": g.settings().time_zone,
        },
        "phases": phases,
        "centres_by_year": chart,
        "players_revealed": revealed,
        "players": players(g, revealed),
    }))
}

/// One processed phase of the export: its position, the orders and dislodged units from
/// its drawing, its results bulletin and the press of that phase an outsider read.
fn phase_record(
    map: &Map,
    tx: &Tx<'_>,
    g: &Game,
    entries: &[HistoryEntry],
    position: &Position,
) -> Result<Value, StoreError> {
    let phase = position.phase.to_string();
    let results: Vec<&str> = entries
        .iter()
        .filter(|e| e.phase == phase && e.readers.is_none() && e.subject.ends_with("Results"))
        .map(|e| e.body.as_str())
        .collect();
    let press: Vec<Value> = entries
        .iter()
        .filter(|e| e.phase == phase && e.readers.is_some())
        .map(|e| json!({ "subject": e.subject, "text": e.body, "at": e.at.to_rfc3339() }))
        .collect();
    // The orders as given and as they came out, from the phase's drawing (kept for
    // every processed phase): the order in the judge's short form, whether the player
    // gave it (false: a default hold, a civil-disorder removal) and its outcome.
    let scene = match tx.scene(g.name(), &phase)?.map(|b| Drawing::decode(&b)) {
        Some(Ok(Drawing::Phase(scene))) => Some(scene),
        _ => None,
    };
    let orders = scene.as_ref().map(|sc| {
        sc.orders
            .iter()
            .map(|o| {
                json!({
                    "power": owner_name(o.owner),
                    "order": o.order.display(map),
                    "given": o.given,
                    "outcome": o.outcome,
                })
            })
            .collect::<Vec<_>>()
    });
    let dislodged = scene.as_ref().map(|sc| {
        sc.dislodged
            .iter()
            .map(|d| {
                json!({
                    "power": owner_name(d.unit.owner),
                    "unit": d.unit.kind.name(),
                    "province": map.display_location(d.unit.location),
                })
            })
            .collect::<Vec<_>>()
    });
    Ok(json!({
        "phase": phase,
        "position": position,
        "orders": orders,
        "dislodged": dislodged,
        "results": results.first().copied(),
        "press": press,
    }))
}

/// Who played each power, when, and how their tenure ended; their addresses and names
/// only when `revealed`.
fn players(g: &Game, revealed: bool) -> Vec<Value> {
    g.tenures()
        .iter()
        .map(|t| {
            json!({
                "power": t.power.name(),
                "player": revealed.then(|| t.address.clone()),
                "name": if revealed { g.name_of(&t.address).map(str::to_string) } else { None },
                "from": t.from.to_string(),
                "to": t.to.map(|p| p.to_string()),
                "ended": t.ended.map(|a| match a {
                    Abandonment::Resigned => "resigned",
                    Abandonment::Ejected => "ejected",
                    Abandonment::MissedPhases(_) => "abandoned",
                    Abandonment::Late => "late",
                }),
                "missed_phases": t.missed,
            })
        })
        .collect()
}
