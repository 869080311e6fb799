//! `GET /metrics` (the Prometheus text exposition format, version 0.0.4) and `GET /health`
//! (a small JSON object; 200 while a judge has passed recently, 503 otherwise). Both read
//! one transaction of the database, like every page: the totals the database counts itself
//! (`store::metrics`), the outbox as it stands, the games by status from their summaries,
//! and the last pass a daemon recorded, so they say what every process did (a `run`
//! beside the server, or a `process` from cron) and survive restarts. Nothing in them
//! names a game, an address or a player.

use std::fmt::Write;

use chrono::{DateTime, Utc};

use crate::judge::game_list::SUMMARY_FORMAT;
use crate::store::{LastPass, OutboxGauges, StoreError, Tx};

/// What the endpoints read, in one transaction.
#[derive(Clone, Debug, PartialEq)]
pub struct Gathered {
    /// The database's totals by name (`store::metrics`).
    pub counters: Vec<(String, u64)>,
    pub outbox: OutboxGauges,
    /// Games by status word (`forming`, `active`, `paused`, `finished`, `suspended`).
    pub games: Vec<(String, u64)>,
    pub last_pass: Option<LastPass>,
}

/// Reads what the endpoints show.
pub fn gather(tx: &Tx<'_>) -> Result<Gathered, StoreError> {
    Ok(Gathered {
        counters: tx.counters()?,
        outbox: tx.outbox_gauges()?,
        games: tx.game_counts(SUMMARY_FORMAT)?,
        last_pass: tx.last_pass()?,
    })
}

impl Gathered {
    fn counter(&self, name: &str) -> u64 {
        self.counters
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, v)| *v)
    }

    fn suspended(&self) -> u64 {
        self.games
            .iter()
            .find(|(n, _)| n == "suspended")
            .map_or(0, |(_, v)| *v)
    }
}

/// One metric family: its help, its type, its samples (labels as written, value).
fn family(out: &mut String, name: &str, kind: &str, help: &str, samples: &[(String, String)]) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
    for (labels, value) in samples {
        let _ = writeln!(out, "{name}{labels} {value}");
    }
}

fn one(value: impl ToString) -> Vec<(String, String)> {
    vec![(String::new(), value.to_string())]
}

/// A label value as the exposition format writes it (backslash, quote and newline
/// escaped).
fn label(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The Prometheus text of `g`.
pub fn render(g: &Gathered) -> String {
    let mut out = String::new();
    family(
        &mut out,
        "dipjudge_info",
        "gauge",
        "The judge's version.",
        &[(
            format!("{{version=\"{}\"}}", label(env!("CARGO_PKG_VERSION"))),
            "1".into(),
        )],
    );
    let read: Vec<(String, String)> = [
        ("handled", "mails_handled"),
        ("silenced", "mails_silenced"),
        ("set_aside", "mails_set_aside"),
        ("oversize", "mails_oversize"),
        ("other", "mails_other"),
    ]
    .iter()
    .map(|(word, name)| {
        (
            format!("{{outcome=\"{word}\"}}"),
            g.counter(name).to_string(),
        )
    })
    .collect();
    family(
        &mut out,
        "dipjudge_mails_read_total",
        "counter",
        "Mails the judge read, by what became of them: handled, silenced (bounces, auto-replies, its own), set aside after failing, oversize.",
        &read,
    );
    family(
        &mut out,
        "dipjudge_mails_set_aside_total",
        "counter",
        "Mails set aside after failing too often, or too big to read (answered with one line).",
        &one(g.counter("mails_set_aside") + g.counter("mails_oversize")),
    );
    family(
        &mut out,
        "dipjudge_mails_answered_total",
        "counter",
        "Replies the judge queued to the mails it read.",
        &one(g.counter("replies_queued")),
    );
    family(
        &mut out,
        "dipjudge_mails_queued_total",
        "counter",
        "Mails the judge queued: replies, bulletins, notices.",
        &one(g.counter("mails_queued")),
    );
    family(
        &mut out,
        "dipjudge_mails_sent_total",
        "counter",
        "Mails the outgoing server accepted.",
        &one(g.counter("mails_sent")),
    );
    family(
        &mut out,
        "dipjudge_mails_given_up_total",
        "counter",
        "Mails given up: refused for good, or failing too often.",
        &one(g.counter("mails_given_up")),
    );
    family(
        &mut out,
        "dipjudge_outbox_queued",
        "gauge",
        "Mails waiting in the outbox.",
        &one(g.outbox.queued),
    );
    family(
        &mut out,
        "dipjudge_outbox_deferred",
        "gauge",
        "Mails waiting in the outbox that were tried before (deferred after a failure).",
        &one(g.outbox.deferred),
    );
    let games: Vec<(String, String)> = g
        .games
        .iter()
        .map(|(word, n)| (format!("{{status=\"{}\"}}", label(word)), n.to_string()))
        .collect();
    family(
        &mut out,
        "dipjudge_games",
        "gauge",
        "Games by status (suspended: waiting for the operator).",
        &games,
    );
    family(
        &mut out,
        "dipjudge_games_suspended",
        "gauge",
        "Games suspended: their state cannot be read or processed; `dipjudge unsuspend` lifts it.",
        &one(g.suspended()),
    );
    if let Some(p) = g.last_pass {
        family(
            &mut out,
            "dipjudge_last_pass_timestamp_seconds",
            "gauge",
            "When the last pass (read mail, tick, send) ended, in seconds since the epoch.",
            &one(p.at.timestamp()),
        );
        family(
            &mut out,
            "dipjudge_last_pass_duration_seconds",
            "gauge",
            "How long the last pass took.",
            &one(format!("{:.6}", p.seconds)),
        );
    }
    out
}

/// The health of the judge at `now`: healthy when a pass ended at most `stale_after`
/// seconds ago. The answer's status, and its body (JSON).
pub fn health(g: &Gathered, now: DateTime<Utc>, stale_after: u64) -> (bool, String) {
    let (ok, why, pass) = match g.last_pass {
        None => (false, "no pass recorded yet".to_string(), String::new()),
        Some(p) => {
            let age = (now - p.at).num_seconds().max(0).unsigned_abs();
            let pass = format!(
                ",\"last_pass\":\"{}\",\"last_pass_age_seconds\":{age},\"last_pass_duration_seconds\":{:.3}",
                crate::store::write_time(p.at),
                p.seconds
            );
            if age > stale_after {
                (
                    false,
                    format!("the last pass ended {age} s ago (over {stale_after} s)"),
                    pass,
                )
            } else {
                (true, "ok".to_string(), pass)
            }
        }
    };
    let body = format!(
        "{{\"status\":\"{}\",\"reason\":{}{pass},\"queued\":{},\"deferred\":{},\"suspended_games\":{}}}\n",
        if ok { "ok" } else { "unhealthy" },
        serde_json::Value::String(why),
        g.outbox.queued,
        g.outbox.deferred,
        g.suspended()
    );
    (ok, body)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn sample() -> Gathered {
        Gathered {
            counters: vec![
                ("mails_handled".into(), 7),
                ("mails_oversize".into(), 1),
                ("mails_sent".into(), 5),
                ("mails_set_aside".into(), 2),
            ],
            outbox: OutboxGauges {
                queued: 3,
                deferred: 1,
            },
            games: vec![("active".into(), 4), ("suspended".into(), 1)],
            last_pass: Some(LastPass {
                at: Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap(),
                seconds: 0.5,
            }),
        }
    }

    #[test]
    fn the_exposition_names_each_family_once_with_its_type() {
        let text = render(&sample());
        for line in [
            "# TYPE dipjudge_mails_read_total counter",
            "dipjudge_mails_read_total{outcome=\"handled\"} 7",
            "dipjudge_mails_read_total{outcome=\"set_aside\"} 2",
            "dipjudge_mails_read_total{outcome=\"silenced\"} 0",
            "dipjudge_mails_set_aside_total 3",
            "dipjudge_mails_sent_total 5",
            "dipjudge_outbox_queued 3",
            "dipjudge_outbox_deferred 1",
            "dipjudge_games{status=\"active\"} 4",
            "dipjudge_games_suspended 1",
            "dipjudge_last_pass_timestamp_seconds 1772366400",
            "dipjudge_last_pass_duration_seconds 0.500000",
        ] {
            assert!(text.lines().any(|l| l == line), "{line}\n{text}");
        }
        // Every sample line belongs to a family declared just before it.
        let mut declared = std::collections::HashSet::new();
        for l in text.lines() {
            if let Some(rest) = l.strip_prefix("# TYPE ") {
                assert!(
                    declared.insert(rest.split(' ').next().unwrap().to_string()),
                    "{l}"
                );
            } else if !l.starts_with('#') {
                let name = l.split(['{', ' ']).next().unwrap();
                assert!(declared.contains(name), "{l}");
            }
        }
    }

    #[test]
    fn health_says_when_the_last_pass_is_too_old() {
        let g = sample();
        let at = g.last_pass.unwrap().at;
        let (ok, body) = health(&g, at + chrono::Duration::seconds(30), 60);
        assert!(ok, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["status"], "ok");
        assert_eq!(v["last_pass_age_seconds"], 30);
        assert_eq!(v["queued"], 3);
        let (ok, body) = health(&g, at + chrono::Duration::seconds(61), 60);
        assert!(!ok, "{body}");
        let none = Gathered {
            last_pass: None,
            ..sample()
        };
        let (ok, body) = health(&none, at, 60);
        assert!(!ok);
        assert!(body.contains("no pass recorded yet"), "{body}");
    }
}
