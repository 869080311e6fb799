//! Golden games through the real `dipjudge` binary on the Maildir default: each scenario
//! under `tests/maildir-golden/<name>/` is played on a scratch judge (its own `judge.toml`,
//! Maildir inbox and outbox, SQLite database, fixed seed), one numbered input at a time:
//! `NN-*.eml` is delivered with `dipjudge inject --from <its From>` and followed by
//! `dipjudge process --now <its X-Test-Time>`; `NN-tick.txt` (one RFC 3339 time) is
//! `dipjudge process --now <time>`. After each step the new files of the outbox Maildir are
//! logged in a normalised form; the log is compared byte for byte with `expected.txt`, the
//! final `dipjudge dump-state` with `state.txt`. A leak scanner then reads every mail sent:
//! private press reaches only its readers, and a client's exchange decline only the client
//! and the master until the results are out (`surrender.md` §4); in a Survive game every
//! ballot and jury vote reaches only the voter, in the judge's replies to it, and the master,
//! during the game and after it, and no number of votes reaches anyone else
//! (`survive.md` SRV-1.4, §4 `NOT_PUBLIC`); in an International Relations game the text of
//! every treaty proposal, notice, permission and transfer reaches only its sender, in the
//! judge's replies, and the master (`international-relations.md` §4). A power taken over is
//! its newcomer's from the judge's welcome on: press to it must reach the newcomer, never
//! the player who left.
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
pub(crate) struct Mail {
    /// The input step (its index in the sorted inputs) after which the mail was found.
    step: usize,
    pub(crate) to: String,
    pub(crate) subject: String,
    /// A reply to a mail of its recipient (it has `In-Reply-To`).
    pub(crate) reply: bool,
    /// The decoded body, and the text of its picture's SVG if it has one (what the leak
    /// scanner reads).
    pub(crate) body: String,
    /// The frames of the animation it carries (`MAP game ALL`), if any.
    frames: Option<usize>,
    /// The game's records it carries (`EXPORT game`: `-export.json`), as JSON text.
    pub(crate) records: Vec<String>,
}

/// Text only some recipients may read (compared without letter case): in the mails sent from
/// input step `from_step` on, a mail holding any of `needles` must be addressed to one of
/// `readers`; with `until`, only up to the first mail whose subject contains `until`.
pub(crate) struct Secret {
    pub(crate) what: String,
    needles: Vec<String>,
    readers: BTreeSet<String>,
    from_step: usize,
    until: Option<String>,
    /// Every reader must receive it (press), not only one of them (a decline).
    every_reader: bool,
    /// Readers who may hold it only in the judge's replies to their own mail (a voter's
    /// ballot).
    reply_readers: BTreeSet<String>,
    /// A Survive ballot or jury vote: a needle counts only as whole words (`Russia 1` is
    /// not in `Russia 12`), and a needle several voters wrote (`Turkey 4`, `JURY Russia`)
    /// may reach each of them.
    ballot: bool,
}

impl Secret {
    /// What a mail of `from` in input step `step` keeps between its sender (in the judge's
    /// replies) and the master, for the rest of the game.
    fn senders(
        what: String,
        needles: BTreeSet<String>,
        step: usize,
        from: &str,
        master: &str,
        ballot: bool,
    ) -> Secret {
        Secret {
            what,
            needles: needles.into_iter().collect(),
            readers: [master.to_string()].into_iter().collect(),
            from_step: step,
            until: None,
            every_reader: false,
            reply_readers: [from.to_string()].into_iter().collect(),
            ballot,
        }
    }

    /// Whether `m` may hold the secret.
    fn allows(&self, m: &Mail) -> bool {
        self.readers.contains(&m.to) || m.reply && self.reply_readers.contains(&m.to)
    }

    /// The needles `body` (lowercase) holds.
    pub(crate) fn found<'a>(&'a self, body: &str) -> Vec<&'a String> {
        self.needles
            .iter()
            .filter(|n| {
                let n = n.to_lowercase();
                if self.ballot {
                    holds_words(body, &n)
                } else {
                    body.contains(&n)
                }
            })
            .collect()
    }
}

/// Whether `text` holds `needle` with no letter or digit right before or after it.
fn holds_words(text: &str, needle: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    text.match_indices(needle).any(|(i, _)| {
        !word(text[..i].chars().next_back()) && !word(text[i + needle.len()..].chars().next())
    })
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
fn config_text(dir: &Path) -> String {
    // A scenario's own judge settings (`judge-settings.toml`, lines of the [judge] table):
    // `maps = true` for a scenario whose results carry pictures.
    let extra = std::fs::read_to_string(dir.join("judge-settings.toml")).unwrap_or_default();
    CONFIG.replace("seed = 1901\n", &format!("seed = 1901\n{extra}"))
}

const CONFIG: &str = r#"# A scratch judge for one golden scenario (tests/maildir_golden.rs).
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
"#;

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
/// The first eight bytes of a BLAKE2s hash, in hex.
fn blake2s_hex(bytes: &[u8]) -> String {
    use blake2::Digest;
    blake2::Blake2s256::digest(bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `now`: the step's time (a picture of the open phase is drawn again as it was drawn then).
/// `pictures`: the SVGs already drawn in this step, by attachment name (every copy of the
/// results carries the same picture: it is drawn once).
fn read_mail(
    path: &Path,
    step: usize,
    config: &str,
    now: &str,
    pictures: &mut BTreeMap<(usize, String), String>,
) -> (String, Mail) {
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
    // A phase's picture is logged by its SVG (the PNG's bytes may differ with the CPU the
    // rasteriser runs on; the SVG is the judge's own output): its size and hash; a centre
    // chart (`-centres.png`) the same way; an animation of the game (`-all.gif`) by its
    // frames. The leak scanner reads the SVG's text with the mail's.
    let mut scanned = body.clone();
    let mut frames = None;
    let mut records = Vec::new();
    for a in message.attachments() {
        use mail_parser::MimeHeaders;
        let name = a.attachment_name().unwrap_or("?").to_string();
        assert!(
            a.contents().len() <= 120 * 1024 || name.ends_with(".gif"),
            "{name}: {} bytes, over 120 KB",
            a.contents().len()
        );
        if let Some(game) = name.strip_suffix("-all.gif") {
            let n = gif_frames(a.contents(), &name);
            log.push_str(&format!(
                "----- animation {name}: {n} frames of {game}'s phases -----\n"
            ));
            frames = Some(n);
            continue;
        }
        // A game's record (`EXPORT`): its size, its phases and its hash; its text goes to
        // the leak scanner with the mail's.
        if name.ends_with("-export.json") {
            let text = String::from_utf8(a.contents().to_vec()).expect("the record is UTF-8");
            let v: serde_json::Value = serde_json::from_str(&text).expect("the record is JSON");
            let phases = v["phases"].as_array().map_or(0, Vec::len);
            log.push_str(&format!(
                "----- record {name}: JSON {} bytes, {phases} phases, blake2s {} -----\n",
                text.len(),
                blake2s_hex(text.as_bytes())
            ));
            scanned.push_str(&text);
            records.push(text);
            continue;
        }
        let (game, phase) = name
            .strip_suffix(".png")
            .and_then(|n| n.rsplit_once('-'))
            .unwrap_or_else(|| panic!("an attachment that is no picture of a game: {name}"));
        let svg = pictures
            .entry((step, name.clone()))
            .or_insert_with(|| {
                let svg_path = path.with_extension("svg");
                let svg_file = svg_path.to_str().expect("UTF-8 path");
                if phase == "centres" {
                    dipjudge(&["map", game, "--chart", "-o", svg_file, "--config", config]);
                } else {
                    dipjudge(&[
                        "map", game, "--phase", phase, "-o", svg_file, "--config", config, "--now",
                        now,
                    ]);
                }
                let svg = std::fs::read_to_string(&svg_path).expect("the picture's SVG");
                let _ = std::fs::remove_file(&svg_path);
                svg
            })
            .clone();
        assert!(
            resvg::tiny_skia::Pixmap::decode_png(a.contents()).is_ok(),
            "{name} decodes"
        );
        let what = if phase == "centres" {
            "chart"
        } else {
            "picture"
        };
        log.push_str(&format!(
            "----- {what} {name}: SVG {} bytes, blake2s {} -----\n",
            svg.len(),
            blake2s_hex(svg.as_bytes())
        ));
        scanned.push_str(&svg);
    }
    let field = |n: &str| value_of.get(n).cloned().unwrap_or_default();
    let mail = Mail {
        step,
        to: address(&field("to")),
        subject: field("subject"),
        reply: !field("in-reply-to").is_empty(),
        body: scanned,
        frames,
        records,
    };
    (log, mail)
}

/// The number of frames of a GIF, each checked to lie on the canvas of the board's size.
fn gif_frames(bytes: &[u8], name: &str) -> usize {
    let mut decoder = gif::DecodeOptions::new()
        .read_info(bytes)
        .unwrap_or_else(|e| panic!("{name}: not a GIF: {e}"));
    assert_eq!(
        (decoder.width(), decoder.height()),
        (1152, 1001),
        "{name}: the board's size"
    );
    let mut n = 0;
    while let Some(f) = decoder.read_next_frame().expect("a frame") {
        assert!(
            u32::from(f.left) + u32::from(f.width) <= 1152
                && u32::from(f.top) + u32::from(f.height) <= 1001,
            "{name}: frame {n} off the canvas"
        );
        n += 1;
    }
    n
}

/// What one scenario gave: the mail log, the final state, every mail, and the size of the
/// database after each step.
pub(crate) struct Played {
    log: String,
    state: String,
    pub(crate) mails: Vec<Mail>,
    db_sizes: Vec<u64>,
}

/// The database's size on disk (with its write-ahead log, if one is left).
fn db_size(var: &Path) -> u64 {
    ["judge.db", "judge.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(var.join(f)).ok())
        .map(|m| m.len())
        .sum()
}

/// Plays one scenario through the binary.
fn play(dir: &Path) -> Played {
    play_in(dir, "maildir-golden")
}

/// Plays one scenario through the binary in the scratch directory `root/<scenario>` under
/// the target's temp dir (another test may play it at the same time in another root).
pub(crate) fn play_in(dir: &Path, root: &str) -> Played {
    let name = dir.file_name().and_then(|n| n.to_str()).expect("name");
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(root)
        .join(name);
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let config = scratch.join("judge.toml");
    std::fs::write(&config, config_text(dir)).expect("write judge.toml");
    let config = config.to_str().expect("UTF-8 path");
    let outbox = scratch.join("var/outbox");

    let mut log = String::new();
    let mut mails = Vec::new();
    let mut seen = BTreeSet::new();
    let mut pictures = BTreeMap::new();
    let mut db_sizes = Vec::new();
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
            let (text, mail) = read_mail(&path, step, config, &now, &mut pictures);
            log.push_str(&format!("===== mail to {} =====\n", mail.to));
            log.push_str(&text);
            log.push_str("===== end of mail =====\n");
            mails.push(mail);
        }
        db_sizes.push(db_size(&scratch.join("var")));
    }
    let state = dipjudge(&["dump-state", "--config", config]);
    Played {
        log,
        state,
        mails,
        db_sizes,
    }
}

/// Issue 29: with maps on, the database grows by at most 50 KB a processed phase,
/// everything included (pictures are kept as what they show, not drawn), from the step
/// that started the game to the end of the scenario; and an animation of the game
/// (`MAP game ALL`) has one frame per phase processed before it. Returns the growth per
/// phase, in bytes.
fn check_growth(dir: &Path, played: &Played, failures: &mut Vec<String>) -> Option<u64> {
    let start = played
        .mails
        .iter()
        .find(|m| m.subject.ends_with("Game Starting"))?
        .step;
    let mut phases = BTreeSet::new();
    for m in &played.mails {
        if let Some(phase) = m.subject.strip_suffix(" Results") {
            phases.insert(phase.to_string());
        }
        if let Some(n) = m.frames
            && n != phases.len()
        {
            failures.push(format!(
                "{}: an animation of {n} frames after {} processed phases",
                dir.display(),
                phases.len()
            ));
        }
    }
    let grown = played.db_sizes.last()? - played.db_sizes.get(start)?;
    let per_phase = grown / (phases.len().max(1) as u64);
    if per_phase > 50 * 1024 {
        failures.push(format!(
            "{}: the database grew by {grown} bytes over {} phases, {per_phase} a phase (over 50 KB)",
            dir.display(),
            phases.len()
        ));
    }
    Some(per_phase)
}

/// The powers' addresses, from the master's copy of the judge's "Game Starting" mail (the
/// players' copies keep them secret).
pub(crate) fn powers(mails: &[Mail]) -> BTreeMap<String, String> {
    let found: BTreeMap<String, String> = mails
        .iter()
        .filter(|m| m.subject.ends_with("Game Starting"))
        .flat_map(|m| m.body.lines())
        .filter_map(|l| l.trim().split_once(':'))
        .filter(|(p, a)| {
            !p.contains(' ') && *p != "Master" && a.contains('@') && a.trim() != "someone@somewhere"
        })
        .map(|(p, a)| {
            let a = a.trim();
            let a = match (a.rfind('<'), a.strip_suffix('>')) {
                (Some(i), Some(inner)) => inner.get(i + 1..).unwrap_or(a),
                _ => a,
            };
            (p.to_string(), a.to_string())
        })
        .collect();
    // Seven players, or fewer when the game began with dummies (FORCE BEGIN).
    assert!(
        (1..=7).contains(&found.len()),
        "the master's Game Starting mail names the players"
    );
    found
}

/// The powers' addresses as of input step `step`: the start's, each power a newcomer took
/// over by then (the judge's `Welcome to <Power>` mail to the newcomer) the newcomer's.
pub(crate) fn powers_at(
    start: &BTreeMap<String, String>,
    mails: &[Mail],
    step: usize,
) -> BTreeMap<String, String> {
    let mut out = start.clone();
    for m in mails.iter().filter(|m| m.step <= step) {
        if let Some((_, power)) = m.subject.rsplit_once(" - Welcome to ") {
            out.insert(power.to_string(), m.to.clone());
        }
    }
    out
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

/// What `who` wrote in the scenario's mails, as one lowercase text: no secret of its own
/// leaks to it (its page and its HISTORY show the press it sent).
pub(crate) fn written_by(dir: &Path, who: &str) -> String {
    let mut out = String::new();
    for input in inputs(dir) {
        let text = std::fs::read_to_string(&input).unwrap_or_default();
        if header(&text, "From").is_some_and(|f| address(&f).eq_ignore_ascii_case(who)) {
            out.push_str(&text.to_lowercase());
        }
    }
    out
}

/// What the scenario's players meant to keep from others: every private press block (each
/// text line of 20 characters or more, but a Survive game's ballot lines) and every
/// `DECLINE EXCHANGE` of a client (until the next results bulletin); in a Survive game every
/// mail's ballots and jury votes ([`ballot_secret`]); in an International Relations game
/// every player's treaty line ([`is_treaty_line`]).
pub(crate) fn secrets(dir: &Path, mails: &[Mail]) -> Vec<Secret> {
    let start = powers(mails);
    let mut out = Vec::new();
    let mut master = String::new();
    let mut survive = false;
    let mut relations = false;
    for (step, input) in inputs(dir).iter().enumerate() {
        // Who plays which power at this step: a power taken over is its newcomer's.
        let powers = powers_at(&start, mails, step);
        let text = std::fs::read_to_string(input).expect("input");
        let Some(from) = header(&text, "From").map(|f| address(&f)) else {
            continue;
        };
        let text = text.replace("\r\n", "\n");
        let body = text.split_once("\n\n").map(|(_, b)| b).unwrap_or_default();
        // This mail's ballot and jury lines, in its orders or in its press to the master.
        let mut votes = Vec::new();
        let mut treaty = Vec::new();
        let mut lines = body.lines().map(str::trim);
        while let Some(line) = lines.next() {
            let upper = line.to_ascii_uppercase();
            if upper.starts_with("CREATE ") {
                master = from.clone();
                survive = upper.split_whitespace().any(|w| w == "SURVIVE");
                relations = upper
                    .split_whitespace()
                    .any(|w| w == "INTERNATIONALRELATIONS");
            } else if relations && is_treaty_line(&upper) && from != master {
                treaty.push(line);
            } else if upper.starts_with("PRESS ") && upper.contains(" TO ") {
                let readers = press_readers(line, &powers, &master);
                let (ballots, text): (Vec<&str>, Vec<&str>) = lines
                    .by_ref()
                    .take_while(|l| {
                        let u = l.to_ascii_uppercase();
                        u != "ENDPRESS" && u != "END PRESS"
                    })
                    .partition(|l| survive && is_vote_line(l));
                votes.extend(ballots);
                let needles: Vec<String> = text
                    .into_iter()
                    .filter(|l| l.len() >= 20)
                    .map(str::to_string)
                    .collect();
                // Press the judge refused (FD-E16: a recipient at war) reaches no one.
                let quoted = format!("\"{line}\"");
                let refused = mails.iter().any(|m| {
                    m.step == step
                        && m.reply
                        && m.to == from
                        && m.body
                            .lines()
                            .any(|l| l.starts_with("ERROR") && l.contains(&quoted))
                });
                // The sender may send the same words again later, once allowed: the refused
                // copy is checked until its sender's next press is delivered.
                let sender = powers
                    .iter()
                    .find(|(_, a)| **a == from)
                    .map(|(p, _)| p.clone())
                    .unwrap_or_default();
                out.push(Secret {
                    what: format!("press of {from} ({line})"),
                    needles,
                    readers: if refused {
                        BTreeSet::new()
                    } else {
                        readers.into_iter().collect()
                    },
                    from_step: step,
                    until: refused.then(|| format!("Press from {sender}")),
                    every_reader: !refused,
                    // Its sender reads it back in its HISTORY (issue 37).
                    reply_readers: [from.clone()].into_iter().collect(),
                    ballot: false,
                });
            } else if upper.starts_with("DECLINE EXCHANGE") {
                out.push(Secret {
                    what: format!("{line:?} of {from}"),
                    needles: vec!["decline exchange".into(), "declines the exchange".into()],
                    readers: [from.clone(), master.clone()].into_iter().collect(),
                    from_step: step,
                    until: Some(" Results".into()),
                    every_reader: false,
                    reply_readers: BTreeSet::new(),
                    ballot: false,
                });
            } else if survive && is_vote_line(line) {
                votes.push(line);
            }
        }
        if !votes.is_empty() {
            out.push(ballot_secret(step, &from, &master, &votes, &powers, mails));
        }
        if !treaty.is_empty() {
            out.push(treaty_secret(step, &from, &master, &treaty, mails));
        }
    }
    out
}

/// An International Relations order whose text is the sender's own (`international-relations.md`
/// §4: proposals are private; a permission, a transfer and a notice are orders): its line
/// as written reaches only the sender, in the judge's replies, and the master, during the
/// game and after it. The bulletins say what came of it in their own words (`TREATY:`).
fn is_treaty_line(upper: &str) -> bool {
    ["ENTER ", "WITHDRAW ", "ABROGATE ", "PERMIT ", "TRANSFER "]
        .iter()
        .any(|w| upper.starts_with(w))
}

/// The treaty lines of one mail ([`is_treaty_line`]): as written, and as the judge's reply
/// echoes them (`OK PERMIT Germany INTO Bel`). Readers: the master, and the sender in the
/// judge's replies.
fn treaty_secret(step: usize, from: &str, master: &str, lines: &[&str], mails: &[Mail]) -> Secret {
    let mut needles: BTreeSet<String> = lines.iter().map(|l| l.to_string()).collect();
    for m in mails
        .iter()
        .filter(|m| m.step == step && m.to == from && m.reply)
    {
        needles.extend(
            m.body
                .lines()
                .filter_map(|l| l.strip_prefix("OK "))
                .filter(|l| is_treaty_line(&l.to_ascii_uppercase()))
                .map(str::to_string),
        );
    }
    Secret::senders(
        format!("the treaty lines of {from} in step {step} ({lines:?})"),
        needles,
        step,
        from,
        master,
        false,
    )
}

/// A Survive ballot (`VOTE …`) or jury vote (`JURY <power>`).
fn is_vote_line(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("VOTE") || w.eq_ignore_ascii_case("JURY"))
}

/// The ballots and jury votes of one mail (`survive.md` SRV-1.4, §4 `NOT_PUBLIC`): each
/// `<Power> <n>` pair of its `VOTE` lines and of the judge's `ballot recorded` or `ballot
/// replaced` answer (so `VOTE Turkey` is read with its number); a `VOTE <Power>` line
/// without a number as the judge quotes it; each `JURY <Power>`, and the master's line
/// `<Voter> votes for <Power>`. Readers: the master, and the voter in the judge's replies.
fn ballot_secret(
    step: usize,
    from: &str,
    master: &str,
    lines: &[&str],
    powers: &BTreeMap<String, String>,
    mails: &[Mail],
) -> Secret {
    let voter = powers
        .iter()
        .find(|(_, a)| a.as_str() == from)
        .map_or("Master", |(p, _)| p.as_str());
    let power = |w: &str| powers.keys().find(|p| p.eq_ignore_ascii_case(w));
    let mut needles = BTreeSet::new();
    for line in lines {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        match words.as_slice() {
            [jury, p] if jury.eq_ignore_ascii_case("JURY") => {
                let p = power(p).unwrap_or_else(|| panic!("no power in {line:?}"));
                needles.insert(format!("JURY {p}"));
                needles.insert(format!("{voter} votes for {p}"));
            }
            [_, none] if none.eq_ignore_ascii_case("NONE") => {}
            [_, rest @ ..] => {
                let pairs: Vec<String> = rest
                    .chunks(2)
                    .filter_map(|pair| match pair {
                        [p, n] if n.parse::<u32>().is_ok() => power(p).map(|p| format!("{p} {n}")),
                        _ => None,
                    })
                    .collect();
                if pairs.is_empty() {
                    needles.insert(format!("\"{line}\""));
                }
                needles.extend(pairs);
            }
            [] => {}
        }
    }
    for m in mails
        .iter()
        .filter(|m| m.step == step && m.to == from && m.reply)
    {
        for l in m.body.lines() {
            if let Some((_, ballot)) = l
                .split_once("ballot recorded: ")
                .or_else(|| l.split_once("ballot replaced: "))
            {
                needles.extend(ballot.split(", ").map(|pair| pair.trim().to_string()));
            }
        }
    }
    Secret::senders(
        format!("the ballot or jury vote of {voter} in step {step} ({lines:?})"),
        needles,
        step,
        from,
        master,
        true,
    )
}

/// The leak scanner: reads every mail the game sent, in the order sent, against each
/// secret's window and readers; one line per mail that reached someone it must not. A
/// needle is a leak only when no secret holding the same needle may reach that mail (two
/// voters' `Turkey 4`, two powers' `ENTER AAT WITH Turkey`).
fn leaks(mails: &[Mail], secrets: &[Secret]) -> Vec<String> {
    let mut found = Vec::new();
    for s in secrets {
        for m in mails.iter().filter(|m| m.step >= s.from_step) {
            // The window ends at a later step's mail (a refused press delivered at once under
            // the marker's subject is still caught).
            if m.step > s.from_step
                && s.until
                    .as_ref()
                    .is_some_and(|u| m.subject.contains(u.as_str()))
            {
                break;
            }
            let body = m.body.to_lowercase();
            for n in s.found(&body) {
                let allowed = secrets.iter().any(|t| {
                    m.step >= t.from_step
                        && t.allows(m)
                        && t.needles.iter().any(|x| x.eq_ignore_ascii_case(n))
                });
                if !allowed {
                    found.push(format!(
                        "{} ({n:?}) reached {} in {:?}",
                        s.what, m.to, m.subject
                    ));
                }
            }
        }
    }
    found
}

/// The master's address and whether the game plays the Survive rules (its `CREATE` line).
pub(crate) fn creation(dir: &Path) -> (String, bool) {
    for input in inputs(dir) {
        let text = std::fs::read_to_string(&input).expect("input");
        let Some(from) = header(&text, "From").map(|f| address(&f)) else {
            continue;
        };
        let text = text.replace("\r\n", "\n");
        let body = text.split_once("\n\n").map(|(_, b)| b).unwrap_or_default();
        if let Some(create) = body
            .lines()
            .map(|l| l.trim().to_ascii_uppercase())
            .find(|l| l.starts_with("CREATE "))
        {
            return (from, create.split_whitespace().any(|w| w == "SURVIVE"));
        }
    }
    panic!("{}: no CREATE", dir.display())
}

/// In a Survive game a number of votes (`6 votes`, `votes: 6`) reaches only the master, and
/// a voter in the judge's replies to it (`survive.md` §4: "the word votes next to a
/// number").
fn vote_numbers(mails: &[Mail], master: &str) -> Vec<String> {
    let number = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit());
    let vote = |w: &str| w == "vote" || w == "votes";
    mails
        .iter()
        .filter(|m| m.to != master && !m.reply)
        .filter(|m| {
            let words: Vec<String> = m
                .body
                .split_whitespace()
                .map(|w| {
                    w.trim_matches(|c: char| !c.is_alphanumeric())
                        .to_lowercase()
                })
                .collect();
            words
                .windows(2)
                .any(|w| number(&w[0]) && vote(&w[1]) || vote(&w[0]) && number(&w[1]))
        })
        .map(|m| format!("a number of votes reached {} in {:?}", m.to, m.subject))
        .collect()
}

#[test]
fn maildir_golden_scenarios() {
    let dirs = scenarios();
    assert!(!dirs.is_empty(), "no scenarios under tests/maildir-golden");
    let mut failures = Vec::new();
    for dir in dirs {
        let played = play(&dir);
        crate::support::compare_golden(&dir.join("expected.txt"), &played.log, &mut failures);
        crate::support::compare_golden(&dir.join("state.txt"), &played.state, &mut failures);
        let maps = std::fs::read_to_string(dir.join("judge-settings.toml"))
            .is_ok_and(|s| s.contains("maps = true"));
        if maps && let Some(per_phase) = check_growth(&dir, &played, &mut failures) {
            eprintln!(
                "{}: the database grew by {per_phase} bytes a processed phase",
                dir.display()
            );
        }
        let mails = played.mails;
        let secrets = secrets(&dir, &mails);
        let mut found = leaks(&mails, &secrets);
        if let (master, true) = creation(&dir) {
            found.extend(vote_numbers(&mails, &master));
        }
        for leak in found {
            failures.push(format!("{}: {leak}", dir.display()));
        }
        // The scanner reads what it should: each secret reached its readers (a refused
        // press has none: the leak check above proves it reached no one).
        for s in secrets.iter().filter(|s| !s.readers.is_empty()) {
            let got: BTreeSet<&String> = mails
                .iter()
                .filter(|m| !s.found(&m.body.to_lowercase()).is_empty() && s.allows(m))
                .map(|m| &m.to)
                .collect();
            let reached = if s.every_reader {
                // Its readers (its sender may read it back in a reply besides).
                got.iter().filter(|a| s.readers.contains(**a)).count() == s.readers.len()
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
