//! `dipjudge export` on the golden record game (issue 29): the JSON read back holds every
//! phase the game played (its position as the judge keeps it, the results bulletin as
//! everyone received it, the public press), the centres by year, and nothing private:
//! France's press to Germany is not in it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::maildir_golden::play_in;

#[test]
fn export_holds_every_phase_and_nothing_private() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maildir-golden/record-game");
    let played = play_in(&dir, "export");
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("export")
        .join("record-game");
    let out = Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(["export", "annals", "--config"])
        .arg(scratch.join("judge.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format"], "dipjudge-export");
    assert_eq!(v["version"], 1);
    assert_eq!(v["game"], "annals");
    let phases = v["phases"].as_array().unwrap();
    let names: Vec<&str> = phases
        .iter()
        .map(|p| p["phase"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["S1901M", "F1901M", "W1901A", "S1902M"]);
    // Each processed phase's results are the bulletin everyone was mailed, byte for byte.
    for p in &phases[..3] {
        let results = p["results"].as_str().unwrap();
        let name = p["phase"].as_str().unwrap();
        assert!(
            played
                .mails
                .iter()
                .any(|m| m.subject.ends_with(&format!("{name} Results"))
                    && m.body.contains(results.trim_end())),
            "{name}: the results as mailed"
        );
        assert!(
            p["position"]["units"]
                .as_array()
                .is_some_and(|u| !u.is_empty())
        );
    }
    assert!(
        phases[3]["results"].is_null(),
        "the open phase has none yet"
    );
    // England's broadcast is public; France's press to Germany is not.
    assert!(text.contains("Peace in the North"));
    assert!(!text.contains("Burgundy plan"), "private press stays out");
    let by_year = &v["centres_by_year"];
    assert_eq!(by_year["columns"], serde_json::json!(["start", "1901"]));
    let france = by_year["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["power"] == "France")
        .unwrap();
    assert_eq!(france["centres"], serde_json::json!([3, 6]));
}
