//! A scratch judge on the Maildir default for the anomaly tests (`faults`, `crash`): its own
//! directory with `judge.toml`, database, Maildir inbox and outbox; mail put into the inbox
//! as a mail client delivers it; every mail of the outbox read back, parsed; games set up
//! and started by mail through the judge core.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chrono::{DateTime, Duration, TimeZone, Utc};
use dipjudge::daemon::Config;
use dipjudge::judge::Judge;
use dipjudge::map::Power;

/// The judge's configuration; `{extra}` takes lines for the `[daemon]` table.
const CONFIG: &str = r#"[judge]
name = "DIP"
address = "judge@example.test"
database = "./var/judge.db"
password_cost = "test"
seed = 1901

[daemon]
reply_rate_limit = 100000
{extra}

[inbound]
kind = "maildir"
path = "./var/inbox"

[outbound]
kind = "maildir"
path = "./var/outbox"
"#;

/// The first instant of the tests' games.
pub(crate) fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, 9, 0, 0).single().unwrap()
}

/// A scratch judge's directory (kept after the test, under the target's temp dir).
pub(crate) struct Scratch {
    pub(crate) dir: PathBuf,
    delivered: u32,
}

/// One mail the judge sent, as read back from the outbox Maildir.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Sent {
    pub(crate) to: String,
    pub(crate) subject: String,
    pub(crate) body: String,
    pub(crate) message_id: String,
    pub(crate) in_reply_to: Option<String>,
    /// The raw header block (CRLF lines, unfolded as sent).
    pub(crate) head: String,
}

impl Scratch {
    pub(crate) fn new(tag: &str) -> Scratch {
        Scratch::with_daemon_settings(tag, "")
    }

    /// A scratch judge with lines for its `[daemon]` table (`max_message_attempts = 3`).
    pub(crate) fn with_daemon_settings(tag: &str, extra: &str) -> Scratch {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join("scratch")
            .join(format!("{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(dir.join("var/inbox/new")).unwrap();
        std::fs::write(dir.join("judge.toml"), CONFIG.replace("{extra}", extra)).unwrap();
        Scratch { dir, delivered: 0 }
    }

    /// Adds `line` (`key = value`) to the scratch judge's `[judge]` table; a judge opened
    /// after reads it.
    pub(crate) fn set_judge(&self, line: &str) {
        let toml = std::fs::read_to_string(self.config_path()).unwrap();
        let toml = toml.replacen("[judge]\n", &format!("[judge]\n{line}\n"), 1);
        std::fs::write(self.config_path(), toml).unwrap();
    }

    pub(crate) fn config_path(&self) -> PathBuf {
        self.dir.join("judge.toml")
    }

    pub(crate) fn config(&self) -> Config {
        Config::load(&self.config_path()).unwrap()
    }

    pub(crate) fn database(&self) -> PathBuf {
        self.dir.join("var/judge.db")
    }

    /// The judge core on the scratch database (no daemon, no lock).
    pub(crate) fn judge(&self) -> Judge {
        dipjudge::daemon::open_judge(&self.config(), None).unwrap()
    }

    /// Delivers a raw mail into the inbox (`tmp/` then `new/`, as a delivery agent does).
    pub(crate) fn deliver(&mut self, raw: &[u8]) -> PathBuf {
        self.delivered += 1;
        let name = format!("{:08}.M{}.scratch", self.delivered, std::process::id());
        let tmp = self.dir.join("var/inbox/tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        std::fs::write(tmp.join(&name), raw).unwrap();
        let new = self.dir.join("var/inbox/new").join(&name);
        std::fs::rename(tmp.join(&name), &new).unwrap();
        new
    }

    /// Delivers a plain mail with Message-ID `<id>` from `from` whose body is `body`.
    pub(crate) fn mail(&mut self, from: &str, id: &str, body: &str) {
        let raw = plain_mail(from, id, "orders", body);
        self.deliver(raw.as_bytes());
    }

    /// Files waiting in the inbox's `new/`.
    pub(crate) fn waiting(&self) -> usize {
        count(&self.dir.join("var/inbox/new"))
    }

    /// Files in the inbox's `.Rejected` folder.
    pub(crate) fn rejected(&self) -> usize {
        count(&self.dir.join("var/inbox/.Rejected/cur"))
    }

    /// Every mail in the outbox, in the order the files sort.
    pub(crate) fn sent(&self) -> Vec<Sent> {
        let dir = self.dir.join("var/outbox/new");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        paths.sort();
        paths.iter().map(|p| read_sent(p)).collect()
    }

    /// The mails sent to `to`.
    pub(crate) fn sent_to(&self, to: &str) -> Vec<Sent> {
        self.sent().into_iter().filter(|m| m.to == to).collect()
    }
}

/// Files in a directory (0 when it does not exist).
pub(crate) fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

/// A plain text mail as a mail client writes it.
pub(crate) fn plain_mail(from: &str, id: &str, subject: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: {subject}\r\nDate: Mon, 2 Mar 2026 09:00:00 +0000\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

/// A mail file of the outbox, parsed.
pub(crate) fn read_sent(path: &Path) -> Sent {
    let raw = std::fs::read(path).unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let head = text
        .split("\r\n\r\n")
        .next()
        .unwrap_or_default()
        .to_string();
    let header = |name: &str| {
        let prefix = format!("{}:", name.to_ascii_lowercase());
        let mut value: Option<String> = None;
        for line in head.split("\r\n") {
            if let Some(v) = value.as_mut()
                && (line.starts_with(' ') || line.starts_with('\t'))
            {
                v.push_str(line);
                continue;
            }
            if value.is_some() {
                break;
            }
            if line.to_ascii_lowercase().starts_with(&prefix) {
                value = Some(line[prefix.len()..].trim().to_string());
            }
        }
        value
    };
    let env = dipjudge::mail::Envelope::parse(&raw).unwrap();
    let to = header("To").unwrap_or_default();
    Sent {
        to: to.trim_matches(['<', '>']).to_string(),
        subject: env.subject.clone(),
        body: env.text.clone(),
        message_id: env.message_id.clone().unwrap_or_default(),
        in_reply_to: header("In-Reply-To").map(|v| v.trim_matches(['<', '>']).to_string()),
        head,
    }
}

/// A player's address in a scratch game.
pub(crate) fn player(game: &str, p: Power) -> String {
    format!("{game}-{}@example.test", p.name().to_lowercase())
}

/// The master's address of a scratch game.
pub(crate) fn master(game: &str) -> String {
    format!("gm-{game}@example.test")
}

/// A player's password in a scratch game.
pub(crate) fn password(p: Power) -> String {
    format!("pass-{}-word", p.code().to_lowercase())
}

/// Every unit of a power at the start of the standard game, holding.
pub(crate) fn holds(p: Power) -> &'static str {
    match p {
        Power::England => "F Lon H\nF Edi H\nA Lvp H\n",
        Power::France => "F Bre H\nA Par H\nA Mar H\n",
        Power::Germany => "F Kie H\nA Ber H\nA Mun H\n",
        Power::Italy => "F Nap H\nA Rom H\nA Ven H\n",
        Power::Austria => "F Tri H\nA Vie H\nA Bud H\n",
        Power::Russia => "F StP/sc H\nA Mos H\nA War H\nF Sev H\n",
        Power::Turkey => "F Ank H\nA Con H\nA Smy H\n",
    }
}

/// Hands the judge core one mail; panics unless it was applied.
pub(crate) fn handle(judge: &mut Judge, key: &str, from: &str, body: &str, now: DateTime<Utc>) {
    crate::desk::applied(judge, &crate::desk::incoming(key, from, "setup", body), now);
}

/// Creates game `name` (`rules`: a rule set's name, or empty for the standard game) and
/// seats its seven players (each power where its address says); at `t0`.
pub(crate) fn start_game(judge: &mut Judge, name: &str, rules: &str) {
    let now = t0();
    handle(
        judge,
        &format!("create-{name}"),
        &master(name),
        &format!("CREATE ?{name} gm-password {rules}"),
        now,
    );
    for p in Power::ALL {
        handle(
            judge,
            &format!("join-{name}-{}", p.code()),
            &player(name, p),
            &format!(
                "SIGNON ?{name} {}\nSET PREFERENCE {}",
                password(p),
                p.name()
            ),
            now,
        );
    }
}

/// Every power of a started game sends a complete set of orders (each unit holds) and
/// `SET WAIT`: the phase is processed at its deadline, not before.
pub(crate) fn complete_orders(judge: &mut Judge, name: &str) {
    for p in Power::ALL {
        handle(
            judge,
            &format!("orders-{name}-{}", p.code()),
            &player(name, p),
            &format!(
                "SIGNON {}{name} {}\nSET WAIT\n{}",
                p.initial(),
                password(p),
                holds(p)
            ),
            t0() + Duration::minutes(1),
        );
    }
}

/// Marks every queued mail sent without sending it (the mail of a test's setup), so that
/// the outbox holds only what the test itself makes.
pub(crate) fn forget_setup_mail(judge: &mut Judge) {
    for m in judge.queued_mail(usize::MAX).unwrap() {
        judge.mark_sent(m.id, t0()).unwrap();
    }
}

/// The deadline of a game's phase.
pub(crate) fn deadline(judge: &mut Judge, name: &str) -> DateTime<Utc> {
    judge
        .game(name)
        .unwrap()
        .and_then(|g| g.deadline())
        .expect("a deadline")
}

/// Mails by recipient: how many each address received whose subject contains `word`.
pub(crate) fn tally(mails: &[Sent], word: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for m in mails.iter().filter(|m| m.subject.contains(word)) {
        *out.entry(m.to.clone()).or_insert(0) += 1;
    }
    out
}

/// `dipjudge process` on a scratch judge's configuration at `now`, with `extra` arguments.
pub(crate) fn process(config: &Path, now: DateTime<Utc>, extra: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_dipjudge"));
    c.args(["process", "--config"])
        .arg(config)
        .args(["--now", &now.to_rfc3339()])
        .args(extra);
    c
}

/// Runs `command` to its end, killed (and the test failed) if it takes longer than
/// `limit`; its exit status, its standard error and how long it ran.
pub(crate) fn run_within(
    mut command: std::process::Command,
    limit: std::time::Duration,
) -> (std::process::ExitStatus, String, std::time::Duration) {
    let err = std::env::temp_dir().join(format!(
        "dipjudge-run-{}-{}.log",
        std::process::id(),
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    let started = std::time::Instant::now();
    let mut child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let log = std::fs::read_to_string(&err).unwrap_or_default();
            let _ = std::fs::remove_file(&err);
            return (status, log, started.elapsed());
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("the pass did not end within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}
