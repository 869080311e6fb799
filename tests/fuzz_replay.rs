//! The `mail` and `cases` fuzz targets' checks in the normal test run: every file under
//! `fixtures/fuzz/mail/` and `fixtures/fuzz/cases/` (crashers the fuzzer found, and edge
//! inputs) goes through the same checks the targets run, compiled from `fuzz/src/` here.
//! And the mail target's own set-up is checked: it must reach the command language.

use std::fs;
use std::path::{Path, PathBuf};

#[path = "../fuzz/src/cases.rs"]
mod cases;
#[path = "../fuzz/src/mail.rs"]
mod mail;

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fuzz")
        .join(target);
    let mut v: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no inputs in {}", dir.display());
    v
}

#[test]
fn mail_inputs_are_replayed() {
    for path in inputs("mail") {
        let outcome = mail::check(&fs::read(&path).unwrap());
        eprintln!("{}: {}", path.display(), describe(&outcome));
    }
}

#[test]
fn case_inputs_are_replayed() {
    for path in inputs("cases") {
        let data = fs::read(&path).unwrap();
        let outcome = cases::check(&data);
        assert_eq!(
            outcome.ran.is_some(),
            outcome.read.is_some_and(|n| n > 0) && cases::runs(&data)
        );
        eprintln!("{}: {outcome:?}", path.display());
    }
}

fn describe(outcome: &mail::Outcome) -> String {
    match outcome {
        mail::Outcome::Rejected(e) => format!("rejected: {e}"),
        mail::Outcome::Silenced(why) => format!("silenced: {why}"),
        mail::Outcome::Duplicate => "duplicate".to_string(),
        mail::Outcome::Answered { queued, reply } => {
            format!(
                "answered ({queued} queued): {}",
                reply.lines().next().unwrap_or("")
            )
        }
    }
}

fn mail_from(from: &str, id: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\r\n{body}").into_bytes()
}

/// The target's games are set up as its seeds expect: every seat of every running game
/// signs on with its password and orders, the master with theirs; a bulk mail is silenced,
/// a set-up mail's Message-ID is a duplicate, bytes that are no mail are rejected.
#[test]
fn the_mail_target_reaches_the_command_language() {
    let seats = mail::seats();
    assert_eq!(seats.len(), 21, "{seats:?}");
    for (i, (game, power, addr, pw)) in seats.iter().enumerate() {
        let body = format!("SIGNON {}{game} {pw}\nLIST\n", &power[..1]);
        match mail::check(&mail_from(addr, &format!("seat-{i}@example.test"), &body)) {
            mail::Outcome::Answered { queued, reply } => {
                assert!(queued >= 1);
                assert!(reply.contains("OK SIGNON"), "{game} {power}: {reply}");
            }
            other => panic!("{game} {power}: {}", describe(&other)),
        }
    }
    let (master, pw) = mail::MASTER;
    for (game, _, _) in mail::GAMES {
        let body = format!("SIGNON M{game} {pw}\nPREVIEW\n");
        let outcome = mail::check(&mail_from(
            master,
            &format!("gm-{game}@example.test"),
            &body,
        ));
        assert!(
            matches!(&outcome, mail::Outcome::Answered { reply, .. } if reply.contains("OK SIGNON")),
            "{game}: {}",
            describe(&outcome)
        );
    }
    let bulk = b"From: a@example.test\r\nPrecedence: bulk\r\n\r\nLIST\r\n";
    assert!(matches!(mail::check(bulk), mail::Outcome::Silenced(_)));
    // The set-up's first mail (the master's CREATE) is known by its sender and its
    // Message-ID (the set-up records it under the bare ID, as a judge did before keys named
    // the content): a mail of that sender under that ID is a duplicate. Another sender's
    // mail under the same ID is another mail (issue 25).
    let again = mail_from(mail::MASTER.0, "setup-1@example.test", "LIST\n");
    assert!(matches!(mail::check(&again), mail::Outcome::Duplicate));
    let other = mail_from("a@example.test", "setup-1@example.test", "LIST\n");
    assert!(matches!(
        mail::check(&other),
        mail::Outcome::Answered { .. }
    ));
    assert!(matches!(mail::check(b""), mail::Outcome::Rejected(_)));
    // Each input meets the games as set up: the same mail twice is answered twice, the
    // same way (its Message-ID and its orders are gone with the first input).
    let (game, power, addr, pw) = &seats[0];
    let order = format!(
        "SIGNON {}{game} {pw}\nA Par - Bur\nF Lon - NTH\n",
        &power[..1]
    );
    let twice: Vec<String> = (0..2)
        .map(
            |_| match mail::check(&mail_from(addr, "twice@example.test", &order)) {
                mail::Outcome::Answered { reply, .. } => reply,
                other => panic!("{}", describe(&other)),
            },
        )
        .collect();
    assert_eq!(twice[0], twice[1]);
}
