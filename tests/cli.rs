//! The `dipjudge` binary: what a user running `dipjudge adjudicate` sees.

use std::path::PathBuf;
use std::process::{Command, Output};

fn dipjudge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run dipjudge")
}

/// A scratch file of our own under the target directory.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write scratch file");
    p
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn adjudicate_datc_ends_with_the_count() {
    let o = dipjudge(&["adjudicate", "fixtures/datc/datc_v3_0.txt", "--timing"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert_eq!(out.lines().last(), Some("182 passed, 0 failed"), "{out}");
    assert!(out.contains("timing Movement: 145 phases, median"), "{out}");
}

const HEADER: &str = "CASE t\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n";

#[test]
fn a_wrong_expectation_fails_with_what_differed() {
    let f = scratch(
        "wrong.case",
        &format!(
            "{HEADER}  England: A lon\nORDERS\n  England: A lon - wal\nPOSTSTATE\n  England: A lon\nEND\n"
        ),
    );
    let o = dipjudge(&["adjudicate", f.to_str().unwrap_or_default()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAILED t"), "{out}");
    assert!(out.contains("England: A wal"), "{out}");
    assert_eq!(out.lines().last(), Some("0 passed, 1 failed"));
}

/// Impossible positions and malformed files: exit 2, the file and line, never a panic.
#[test]
fn malformed_files_name_file_and_line() {
    for (name, body, line, words) in [
        (
            "fleet_moscow.case",
            "  Russia: F mos\nEND\n",
            4,
            "a fleet cannot stand in Moscow",
        ),
        (
            "two_units.case",
            "  Russia: A mos\n  Turkey: A mos\nEND\n",
            5,
            "two units in Moscow",
        ),
        (
            "unknown.case",
            "  Russia: A xyz\nEND\n",
            4,
            "no province or coast called \"xyz\"",
        ),
        (
            "army_sea.case",
            "  Russia: A bla\nEND\n",
            4,
            "an army cannot stand in Black Sea",
        ),
        (
            "no_coast.case",
            "  Russia: F stp\nEND\n",
            4,
            "must name its coast",
        ),
        (
            "power.case",
            "  Prussia: A ber\nEND\n",
            4,
            "no power called \"Prussia\"",
        ),
        ("no_end.case", "  Russia: A mos\n", 1, "has no END"),
        (
            "bad_order.case",
            "  Russia: A mos\nORDERS\n  Russia: A mos X stp\nEND\n",
            6,
            "expected H, -, S, C or D",
        ),
    ] {
        let f = scratch(name, &format!("{HEADER}{body}"));
        let o = dipjudge(&["adjudicate", f.to_str().unwrap_or_default()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(&format!("{name}: line {line}: ")),
            "{name}: {err}"
        );
        assert!(err.contains(words), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    let o = dipjudge(&["adjudicate", "no/such/file.case"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("while reading no/such/file.case"),
        "{}",
        stderr(&o)
    );
}

/// An unknown variant is a clear per-case failure, not a crash, and the other cases still
/// run (a variant's name is read in any spelling).
#[test]
fn unknown_variant_is_a_per_case_error() {
    let f = scratch(
        "variant.case",
        &format!(
            "CASE v\nVARIANT Nonesuch\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n  England: A lon\nEND\n\
             CASE w\nVARIANT international-relations\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n  England: A lon\nEND\n\
             {HEADER}  England: A lon\nORDERS\n  England: A lon H\nPOSTSTATE\n  England: A lon\nEND\n"
        ),
    );
    let o = dipjudge(&["adjudicate", f.to_str().unwrap_or_default()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("FAILED v") && out.contains("unknown variant \"Nonesuch\""),
        "{out}"
    );
    assert!(!out.contains("FAILED w"), "{out}");
    assert_eq!(out.lines().last(), Some("2 passed, 1 failed"));
}

/// A folder is read recursively: every variant case of the five specs is read and passes
/// (exit 0), the count on the last line.
#[test]
fn adjudicate_reads_a_folder_of_cases() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases");
    let o = dipjudge(&["adjudicate", dir.to_str().unwrap_or_default()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(!out.contains("FAILED"), "{out}");
    assert_eq!(out.lines().last(), Some("205 passed, 0 failed"), "{out}");
}

/// `dipjudge demo` teaches: each mail a player or the master sends, what the judge answers
/// and to whom, one results bulletin in which every unit was ordered, and the three
/// commands to try next on the Maildir default; the clock is fixed, so it prints the same
/// every time.
#[test]
fn the_demo_shows_the_mail_both_ways_and_the_next_commands() {
    let first = dipjudge(&["demo"]);
    let out = stdout(&first);
    assert_eq!(first.status.code(), Some(0), "{out}{}", stderr(&first));
    let order: Vec<usize> = [
        ">>> master@example.test writes to judge@example.test:",
        "<<< the judge answers master@example.test: \"Re: CREATE\"",
        ">>> player1@example.test writes to judge@example.test:",
        "<<< the judge writes to the 7 players and the master: \"DIP:demo - S1901M Game Starting\"",
        "    SIGNON Edemo ",
        "OK PRESS TO France (1 line)",
        "\"DIP:demo - S1901M Press from England\"",
        "<<< the judge writes to the 7 players and the master: \"DIP:demo - S1901M Results\"",
        "    cargo run --release -- inject --from you@example.org fixtures/mail/samples/create.eml\n    cargo run --release -- process\n    cat var/outbox/new/*\n",
    ]
    .iter()
    .map(|w| out.find(w).unwrap_or_else(|| panic!("no {w:?} in the demo:\n{out}")))
    .collect();
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "in order: {order:?}\n{out}"
    );
    assert_eq!(out.matches("Results\"").count(), 1, "one results bulletin");
    assert!(!out.contains("No Order Processed"), "{out}");
    assert!(!out.contains("final state"), "no database dump");
    // The sample the last lines name is there.
    let sample =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail/samples/create.eml");
    assert!(sample.is_file());
    let again = dipjudge(&["demo"]);
    assert_eq!(stdout(&again), out, "the demo prints the same every time");
}
