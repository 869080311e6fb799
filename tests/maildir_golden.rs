//! Golden games through the real `dipjudge` binary on the Maildir default: each scenario
//! under `tests/maildir-golden/<name>/` is played on a scratch judge (its own `judge.toml`,
//! Maildir inbox and outbox, SQLite database, fixed seed), one numbered input at a time:
//! `NN-*.eml` is delivered with `dipjudge inject --from <its From>` and followed by
//! `dipjudge process --now <its X-Test-Time>`; `NN-tick.txt` (one RFC 3339 time) is
//! `dipjudge process --now <time>`. After each step the new files of the outbox Maildir are
//! logged in a normalised form; the log is compared byte for byte with `expected.txt`, the
//! final `dipjudge dump-state` with `state.txt`. A leak scanner then reads every mail sent:
//! private press reaches only its readers, and a client's exchange decline only the client
//! and the master until the results are out (`surrender.md` §4).
//!
//! A missing expected file fails. `UPDATE_GOLDEN=1 cargo test maildir_golden` rewrites them:
//! read the diff before committing it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use mail_parser::MessageParser;

/// Headers left out of the log: the judge's version (it changes with every release, not
/// with the game) and the transfer encoding (the body is logged decoded). `Date` and
/// `Message-ID` stay: the first comes from `--now`, the second from the outbox row, and
/// both are the same on every run.
const UNLOGGED_HEADERS: [&str; 4] = [
    "x-dipjudge",
    "content-type",
    "content-transfer-encoding",
    "mime-version",
];

/// One mail the judge wrote to the outbox.
struct Mail {
    /// The input step (its index in the sorted inputs) after which the mail was found.
    step: usize,
    to: String,
    subject: String,
    /// The decoded body.
    body: String,
}

/// Text only some recipients may read (compared without letter case): in the mails sent from
/// input step `from_step` on, a mail holding any of `needles` must be addressed to one of
/// `readers`; with `until`, only up to the first mail whose subject contains `until`.
struct Secret {
    what: String,
    needles: Vec<String>,
    readers: BTreeSet<String>,
    from_step: usize,
    until: Option<String>,
    /// Every reader must receive it (press), not only one of them (a decline).
    every_reader: bool,
}

fn scenarios() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maildir-golden");
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

/// The numbered inputs of a scenario, in order.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("scenario dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.ends_with(".eml") || name.ends_with("-tick.txt")
        })
        .collect();
    v.sort();
    v
}

/// The scratch judge's configuration: the shape of the shipped `judge.toml` (paths are
/// taken from the file's directory, so everything lives in the scratch directory), with a
/// fixed seed and the cheapest password hashing.
fn config_text() -> &'static str {
    r#"# A scratch judge for one golden scenario (tests/maildir_golden.rs).
[judge]
name = "DIP"
address = "judge@example.test"
database = "./var/judge.db"
time_zone = "UTC"
password_cost = "test"
remember_passwords = true
seed = 1901

[inbound]
kind = "maildir"
path = "./var/inbox"
processed = "Processed"
rejected = "Rejected"

[outbound]
kind = "maildir"
path = "./var/outbox"
"#
}

/// Runs the binary; its standard output, or a panic with its standard error.
fn dipjudge(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(args)
        .output()
        .expect("run dipjudge");
    assert!(
        o.status.success(),
        "dipjudge {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("dipjudge prints UTF-8")
}

/// The value of header `name` in a raw mail's header block (unfolded).
fn header(raw: &str, name: &str) -> Option<String> {
    let raw = raw.replace("\r\n", "\n");
    let head = raw.split("\n\n").next().unwrap_or_default();
    let prefix = format!("{}:", name.to_ascii_lowercase());
    head.lines()
        .find(|l| l.to_ascii_lowercase().starts_with(&prefix))
        .map(|l| l[prefix.len()..].trim().to_string())
}

/// The bare address of a `From:` value (`Ann <ann@x>` or `ann@x`).
fn address(from: &str) -> String {
    match (from.find('<'), from.find('>')) {
        (Some(a), Some(b)) if a < b => from[a + 1..b].trim().to_string(),
        _ => from.trim().to_string(),
    }
}

/// The outbox files not seen yet, in the order they were written: one `process` run writes
/// `<secs>.P<pid>Q<counter>M<hash>.dipjudge`, its counter counting up from 1.
fn new_files(outbox: &Path, seen: &mut BTreeSet<PathBuf>) -> Vec<PathBuf> {
    let mut files: Vec<(u64, PathBuf)> = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(dir) = std::fs::read_dir(outbox.join(sub)) else {
            continue;
        };
        for p in dir.filter_map(|e| e.ok().map(|e| e.path())) {
            if seen.contains(&p) {
                continue;
            }
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let counter = name
                .split_once('Q')
                .and_then(|(_, rest)| rest.split_once('M'))
                .and_then(|(n, _)| n.parse().ok())
                .unwrap_or_else(|| panic!("an outbox file not named by the judge: {name}"));
            files.push((counter, p));
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|(_, p)| {
            seen.insert(p.clone());
            p
        })
        .collect()
}

/// One outbox file as logged (headers but the unlogged ones, a blank line, the decoded
/// body) and as the leak scanner reads it.
fn read_mail(path: &Path, step: usize) -> (String, Mail) {
    let raw = std::fs::read(path).expect("outbox file");
    let message = MessageParser::default()
        .parse(&raw)
        .unwrap_or_else(|| panic!("{}: not a mail", path.display()));
    let mut log = String::new();
    let mut value_of = BTreeMap::new();
    for (name, value) in message.headers_raw() {
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        value_of
            .entry(name.to_ascii_lowercase())
            .or_insert_with(|| value.clone());
        if !UNLOGGED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
            log.push_str(&format!("{name}: {value}\n"));
        }
    }
    let body = message
        .body_text(0)
        .map(|b| b.replace("\r\n", "\n"))
        .unwrap_or_default();
    log.push('\n');
    log.push_str(&body);
    if !body.ends_with('\n') {
        log.push('\n');
    }
    let field = |n: &str| value_of.get(n).cloned().unwrap_or_default();
    let mail = Mail {
        step,
        to: address(&field("to")),
        subject: field("subject"),
        body,
    };
    (log, mail)
}

/// Plays one scenario through the binary: (the mail log, the final state, every mail).
fn play(dir: &Path) -> (String, String, Vec<Mail>) {
    let name = dir.file_name().and_then(|n| n.to_str()).expect("name");
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("maildir-golden")
        .join(name);
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let config = scratch.join("judge.toml");
    std::fs::write(&config, config_text()).expect("write judge.toml");
    let config = config.to_str().expect("UTF-8 path");
    let outbox = scratch.join("var/outbox");

    let mut log = String::new();
    let mut mails = Vec::new();
    let mut seen = BTreeSet::new();
    for (step, input) in inputs(dir).iter().enumerate() {
        let file = input.file_name().and_then(|n| n.to_str()).expect("name");
        let text = std::fs::read_to_string(input).expect("input");
        let (who, now) = if file.ends_with("-tick.txt") {
            ("tick".to_string(), text.trim().to_string())
        } else {
            let from = header(&text, "From").unwrap_or_else(|| panic!("{file}: no From"));
            let now = header(&text, "X-Test-Time")
                .unwrap_or_else(|| panic!("{file}: no X-Test-Time header"));
            let from = address(&from);
            let path = input.to_str().expect("UTF-8 path");
            dipjudge(&["inject", "--config", config, "--from", &from, path]);
            (from, now)
        };
        let report = dipjudge(&["process", "--config", config, "--now", &now]);
        log.push_str(&format!("##### {file} ({who}, {now}): {}\n", report.trim()));
        for path in new_files(&outbox, &mut seen) {
            let (text, mail) = read_mail(&path, step);
            log.push_str(&format!("===== mail to {} =====\n", mail.to));
            log.push_str(&text);
            log.push_str("===== end of mail =====\n");
            mails.push(mail);
        }
    }
    let state = dipjudge(&["dump-state", "--config", config]);
    (log, state, mails)
}

/// The powers' addresses, from the judge's "Game starting" mail.
fn powers(mails: &[Mail]) -> BTreeMap<String, String> {
    let start = mails
        .iter()
        .find(|m| m.subject.ends_with("Game starting"))
        .expect("a Game starting mail");
    start
        .body
        .lines()
        .filter_map(|l| l.trim().split_once(':'))
        .filter(|(p, a)| !p.contains(' ') && a.contains('@'))
        .map(|(p, a)| (p.to_string(), a.trim().to_string()))
        .collect()
}

/// The readers of a `PRESS TO ...` header: power names, or initials (`M` the master).
fn press_readers(header: &str, powers: &BTreeMap<String, String>, master: &str) -> Vec<String> {
    let rest = header
        .split_once(|c: char| c.is_whitespace())
        .map(|(_, r)| r)
        .unwrap_or_default();
    let mut readers = Vec::new();
    for word in rest.split(|c: char| c.is_whitespace() || c == ',') {
        let w = word.to_ascii_uppercase();
        if matches!(
            w.as_str(),
            "" | "PRESS" | "TO" | "AND" | "GREY" | "GRAY" | "WHITE"
        ) {
            continue;
        }
        assert_ne!(
            w, "ALL",
            "the leak scanner reads only named readers: {header}"
        );
        if let Some(a) = powers
            .iter()
            .find(|(p, _)| p.eq_ignore_ascii_case(&w))
            .map(|(_, a)| a)
        {
            readers.push(a.clone());
            continue;
        }
        for c in w.chars() {
            let a = if c == 'M' {
                Some(master.to_string())
            } else {
                powers
                    .iter()
                    .find(|(p, _)| p.starts_with(c))
                    .map(|(_, a)| a.clone())
            };
            readers.push(a.unwrap_or_else(|| panic!("no reader {c:?} in {header:?}")));
        }
    }
    readers
}

/// What the scenario's players meant to keep from others: every private press block (each
/// text line of 20 characters or more) and every `DECLINE EXCHANGE` of a client (until the
/// next results bulletin).
fn secrets(dir: &Path, mails: &[Mail]) -> Vec<Secret> {
    let powers = powers(mails);
    let mut out = Vec::new();
    let mut master = String::new();
    for (step, input) in inputs(dir).iter().enumerate() {
        let text = std::fs::read_to_string(input).expect("input");
        let Some(from) = header(&text, "From").map(|f| address(&f)) else {
            continue;
        };
        let text = text.replace("\r\n", "\n");
        let body = text.split_once("\n\n").map(|(_, b)| b).unwrap_or_default();
        let mut lines = body.lines().map(str::trim);
        while let Some(line) = lines.next() {
            let upper = line.to_ascii_uppercase();
            if upper.starts_with("CREATE ") {
                master = from.clone();
            } else if upper.starts_with("PRESS ") && upper.contains(" TO ") {
                let readers = press_readers(line, &powers, &master);
                let needles: Vec<String> = lines
                    .by_ref()
                    .take_while(|l| {
                        let u = l.to_ascii_uppercase();
                        u != "ENDPRESS" && u != "END PRESS"
                    })
                    .filter(|l| l.len() >= 20)
                    .map(str::to_string)
                    .collect();
                out.push(Secret {
                    what: format!("press of {from} ({line})"),
                    needles,
                    readers: readers.into_iter().collect(),
                    from_step: step,
                    until: None,
                    every_reader: true,
                });
            } else if upper.starts_with("DECLINE EXCHANGE") {
                out.push(Secret {
                    what: format!("{line:?} of {from}"),
                    needles: vec!["decline exchange".into(), "declines the exchange".into()],
                    readers: [from.clone(), master.clone()].into_iter().collect(),
                    from_step: step,
                    until: Some(" Results".into()),
                    every_reader: false,
                });
            }
        }
    }
    out
}

/// The leak scanner: reads every mail the game sent, in the order sent, against each
/// secret's window and readers; one line per mail that reached someone it must not.
fn leaks(mails: &[Mail], secrets: &[Secret]) -> Vec<String> {
    let mut found = Vec::new();
    for s in secrets {
        for m in mails.iter().filter(|m| m.step >= s.from_step) {
            if s.until
                .as_ref()
                .is_some_and(|u| m.subject.contains(u.as_str()))
            {
                break;
            }
            let body = m.body.to_lowercase();
            let holds = s.needles.iter().any(|n| body.contains(&n.to_lowercase()));
            if holds && !s.readers.contains(&m.to) {
                found.push(format!("{} reached {} in {:?}", s.what, m.to, m.subject));
            }
        }
    }
    found
}

fn compare(path: &Path, got: &str, failures: &mut Vec<String>) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, got).expect("write golden");
        return;
    }
    match std::fs::read_to_string(path) {
        Err(_) => failures.push(format!(
            "{}: missing (UPDATE_GOLDEN=1 writes it)",
            path.display()
        )),
        Ok(expected) if expected != got => {
            let line = expected
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(expected.lines().count().min(got.lines().count()));
            let show = |s: &str| {
                s.lines()
                    .skip(line.saturating_sub(3))
                    .take(8)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            failures.push(format!(
                "{} differs from line {}:\n--- expected\n{}\n--- got\n{}\n",
                path.display(),
                line + 1,
                show(&expected),
                show(got)
            ));
        }
        Ok(_) => {}
    }
}

#[test]
fn maildir_golden_scenarios() {
    let dirs = scenarios();
    assert!(!dirs.is_empty(), "no scenarios under tests/maildir-golden");
    let mut failures = Vec::new();
    for dir in dirs {
        let (log, state, mails) = play(&dir);
        compare(&dir.join("expected.txt"), &log, &mut failures);
        compare(&dir.join("state.txt"), &state, &mut failures);
        let secrets = secrets(&dir, &mails);
        for leak in leaks(&mails, &secrets) {
            failures.push(format!("{}: {leak}", dir.display()));
        }
        // The scanner reads what it should: each secret reached its readers.
        for s in &secrets {
            let got: BTreeSet<&String> = mails
                .iter()
                .filter(|m| {
                    let body = m.body.to_lowercase();
                    s.needles.iter().any(|n| body.contains(&n.to_lowercase()))
                })
                .map(|m| &m.to)
                .filter(|to| s.readers.contains(*to))
                .collect();
            let reached = if s.every_reader {
                got.len() == s.readers.len()
            } else {
                !got.is_empty()
            };
            if !reached || s.needles.is_empty() {
                failures.push(format!(
                    "{}: {} did not reach its readers {:?} (only {got:?})",
                    dir.display(),
                    s.what,
                    s.readers
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
