//! `dipjudge export` and `EXPORT game` on the golden games (issue 29): the JSON read back
//! holds every phase the game played (its position as the judge keeps it, the orders as
//! given and as they came out, the results bulletin as everyone received it, the public
//! press), the centres by year, who held which power, and nothing private: France's press
//! to Germany is not in it, nor an address the game still keeps.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::maildir_golden::{Played, play_in};

/// Plays the maildir golden `golden` and runs `dipjudge export game` on what it left: the
/// mails it sent and the export's text.
fn play_and_export(golden: &str, game: &str) -> (Played, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/maildir-golden")
        .join(golden);
    let played = play_in(&dir, "export");
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("export")
        .join(golden);
    let out = Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(["export", game, "--config"])
        .arg(scratch.join("judge.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (played, String::from_utf8(out.stdout).unwrap())
}

#[test]
fn export_holds_every_phase_and_nothing_private() {
    let (played, text) = play_and_export("record-game", "annals");
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
    // The orders as given and as they came out: Spring 1901 has one a unit, Vienna's move
    // to Galicia bounced (as the results say), France's A Par - Bur succeeded.
    let spring = phases[0]["orders"].as_array().unwrap();
    assert_eq!(spring.len(), 22);
    let order = |power: &str, text: &str| {
        spring
            .iter()
            .find(|o| o["power"] == power && o["order"] == text)
            .unwrap_or_else(|| panic!("{power}: {text} in {spring:?}"))
    };
    assert_eq!(order("Austria", "A Vie - Gal")["outcome"], "Bounce");
    assert_eq!(order("France", "A Par - Bur")["outcome"], "Succeeded");
    assert_eq!(order("Italy", "A Ven H")["given"], true);
    assert!(phases[3]["orders"].is_null(), "the open phase has none yet");
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
    // The game is under way and keeps its players' addresses: who held which power is
    // there, whose address it was is not.
    assert_eq!(v["players_revealed"], false);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 7);
    assert!(players.iter().all(|p| p["player"].is_null()));
    assert!(!text.contains("ada@example.test"));

    // `EXPORT annals` by mail (step 38): the same record, attached to Austria's reply.
    let by_mail: Vec<&String> = played
        .mails
        .iter()
        .filter(|m| m.to == "ada@example.test")
        .flat_map(|m| &m.records)
        .collect();
    assert_eq!(by_mail.len(), 1, "one record, to Austria");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(by_mail[0]).unwrap(),
        v,
        "the mailed record is the command line's"
    );
    // The stranger's EXPORT (step 39) is refused and carries nothing.
    assert!(
        played
            .mails
            .iter()
            .filter(|m| m.to == "stranger@example.test")
            .all(|m| m.records.is_empty())
    );
}

/// A finished game's export holds what its end reveals: each power's players with their
/// addresses (the game reveals them; the game-over mail named them to everyone).
#[test]
fn a_finished_games_export_reveals_its_players() {
    let (played, text) = play_and_export("ir-victory-game", "entente");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(
        v["status"].as_str().unwrap().starts_with("finished: "),
        "{}",
        v["status"]
    );
    assert_eq!(v["players_revealed"], true);
    let players = v["players"].as_array().unwrap();
    let austria = players.iter().find(|p| p["power"] == "Austria").unwrap();
    assert_eq!(austria["player"], "ada@example.test");
    // Every address in it was named to everyone by the game-over mail.
    let over = played
        .mails
        .iter()
        .find(|m| m.subject.ends_with("Game over") && m.to != "gm@example.test")
        .expect("a player's game-over mail");
    for p in players {
        let address = p["player"].as_str().unwrap();
        assert!(over.body.contains(address), "{address} revealed at the end");
    }
}
