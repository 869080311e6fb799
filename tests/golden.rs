//! Golden mail tests, as njudge's suite does them, minus its flaws: each scenario under
//! `tests/golden/<name>/` holds numbered input mails (`NN-*.eml`, each with its delivery
//! time in an `X-Test-Time:` header) and clock ticks (`NN-tick.txt`, one RFC 3339 time).
//! They run through the real MIME parser, the loop guard and the judge core on a fresh
//! database with a fixed seed; every mail queued is written to `expected.txt`, the final
//! state to `state.txt`, both compared byte for byte.
//!
//! A missing expected file fails. `UPDATE_GOLDEN=1 cargo test golden` rewrites them:
//! read the diff before committing it.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use dipjudge::judge::{Judge, JudgeConfig, PasswordCost};
use dipjudge::mail::{Envelope, ParseLimits, incoming, silence_reason_for};
use dipjudge::store::Store;

fn scenarios() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn time_of(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text.trim())
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Plays one scenario; returns (mails, state).
pub fn play(dir: &Path) -> (String, String) {
    let config = JudgeConfig {
        name: "DIP".into(),
        address: "judge@example.test".into(),
        seed: 1901,
        password_cost: PasswordCost::TEST,
        ..JudgeConfig::default()
    };
    let mut judge = Judge::new(Store::open_in_memory().expect("store"), config).expect("judge");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("scenario dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "eml" || x == "txt"))
        .filter(|p| {
            !matches!(
                p.file_name().and_then(|n| n.to_str()),
                Some("expected.txt" | "state.txt")
            )
        })
        .collect();
    inputs.sort();
    let mut log = String::new();
    for input in inputs {
        let raw = std::fs::read(&input).expect("input");
        let name = input
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if name.ends_with("-tick.txt") {
            let now = time_of(&String::from_utf8_lossy(&raw)).expect("tick time");
            judge.tick(now).expect("tick");
            continue;
        }
        let text = String::from_utf8_lossy(&raw);
        let now = text
            .lines()
            .find_map(|l| l.strip_prefix("X-Test-Time:"))
            .and_then(time_of)
            .unwrap_or_else(|| panic!("{name}: no X-Test-Time header"));
        let limits = ParseLimits {
            max_text_bytes: 256 * 1024,
            ..ParseLimits::default()
        };
        match Envelope::parse_with(&raw, limits) {
            Err(e) => log.push_str(&format!("##### {name}: rejected: {e}\n")),
            Ok(env) => match silence_reason_for(&env, &judge.config().address.clone()) {
                Some(why) => log.push_str(&format!("##### {name}: not answered: {why}\n")),
                None => {
                    judge.handle(&incoming(&env), now).expect("handled");
                    judge.tick(now).expect("tick");
                }
            },
        }
    }
    let mut out = String::new();
    out.push_str(&log);
    for m in judge.all_mail().expect("mail") {
        out.push_str(&format!(
            "===== mail {} to {} ({}, {}) =====\nSubject: {}\n",
            m.id, m.recipient, m.audience, m.kind, m.subject
        ));
        if let Some(r) = &m.in_reply_to {
            out.push_str(&format!("In-Reply-To: {r}\n"));
        }
        out.push('\n');
        out.push_str(&m.body);
        if !m.body.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("===== end of mail =====\n");
    }
    (out, judge.dump_state().expect("state"))
}

#[test]
fn golden_scenarios() {
    let dirs = scenarios();
    assert!(!dirs.is_empty(), "no scenarios under tests/golden");
    let mut failures = Vec::new();
    for dir in dirs {
        let (mails, state) = play(&dir);
        crate::support::compare_golden(&dir.join("expected.txt"), &mails, &mut failures);
        crate::support::compare_golden(&dir.join("state.txt"), &state, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_same_scenario_gives_the_same_bytes() {
    let dir = scenarios().into_iter().next().expect("a scenario");
    assert_eq!(play(&dir), play(&dir));
}
