//! The daemon against the real servers: players send mail through Postfix (SMTP), the
//! judge reads its own Dovecot mailbox (IMAPS) and answers through SMTP, and every
//! player reads the answers from their own IMAP mailbox. A full short game, the same game
//! with the daemon SIGKILLed at random points, the servers restarted mid-game, bad mail, and a
//! seat whose address the SMTP server refuses (marked "mail bouncing", its master told).
//!
//! Each test has its own addresses (unique local parts under example.test) and its own
//! database. Required when `DIPJUDGE_MAIL_SERVERS=1`, skipped otherwise.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use chrono::{DateTime, TimeZone, Utc};

use dipjudge::daemon::script::{self, SHORT_GAME};
use dipjudge::daemon::{Config, Daemon};
use dipjudge::mail::inbound::imap::{ImapConfig, ImapInbox};
use dipjudge::mail::outbound::smtp::{SmtpConfig, SmtpOutbox};
use dipjudge::mail::{Envelope, Inbox, Outbox, RenderedMail, Security};
use dipjudge::map::Power;
use dipjudge::sim::Rng;

use crate::{MAIL_PASSWORD as PASSWORD, mail_ca as ca};

fn unique(tag: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{tag}-{}-{nanos}", std::process::id())
}

fn smtp(user: &str) -> SmtpOutbox {
    let mut c = SmtpConfig::new("localhost", crate::smtp_port());
    c.security = Security::StartTls;
    c.root_certificate = Some(ca());
    c.credentials = Some((user.to_string(), PASSWORD.to_string()));
    SmtpOutbox::new(c)
}

fn imap(user: &str) -> ImapInbox {
    let mut c = ImapConfig::new("localhost", crate::imaps_port(), user, PASSWORD);
    c.root_certificate = Some(ca());
    c.poll_interval = Duration::from_millis(100);
    c.backoff_min = Duration::from_millis(200);
    c.backoff_max = Duration::from_secs(1);
    c.idle = crate::imap_idle();
    ImapInbox::new(c, None)
}

/// Raw bytes from `from` to `to` through Postfix.
fn deliver(from: &str, to: &str, bytes: Vec<u8>) {
    let mail = RenderedMail {
        message_id: "test".into(),
        envelope_from: Some(from.to_string()),
        recipients: vec![to.to_string()],
        bytes,
    };
    let r = smtp(from).send_batch(&[mail]);
    assert_eq!(r, vec![Ok(())], "SMTP from {from}");
}

fn plain_mail(from: &str, to: &str, id: Option<&str>, body: &str) -> Vec<u8> {
    let id = id.map_or(String::new(), |i| format!("Message-ID: <{i}>\r\n"));
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: orders\r\nDate: Mon, 5 Jan 2026 12:00:00 +0000\r\n{id}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The judge's configuration for a test: its own IMAP mailbox and database.
fn config_text(judge: &str, db: &Path) -> String {
    format!(
        r#"[judge]
name = "DIP"
address = "{judge}"
database = "{db}"
seed = 1901
password_cost = "test"
maps = true

[daemon]
poll_interval_secs = 1
reply_rate_limit = 1000

[inbound]
kind = "imap"
host = "localhost"
port = {imaps}
tls = "tls"
user = "{judge}"
password = "{PASSWORD}"
root_certificate = "{ca}"
idle = {idle}

[outbound]
kind = "smtp"
host = "localhost"
port = {smtp}
tls = "starttls"
user = "{judge}"
password = "{PASSWORD}"
root_certificate = "{ca}"
"#,
        db = db.display(),
        ca = ca().display(),
        idle = crate::imap_idle(),
        imaps = crate::imaps_port(),
        smtp = crate::smtp_port(),
    )
}

/// A mail a participant received.
#[derive(Clone, Debug)]
struct Got {
    message_id: String,
    in_reply_to: Option<String>,
    subject: String,
    text: String,
    /// The attachments: file name and bytes (a phase's picture).
    files: Vec<(String, Vec<u8>)>,
}

/// A mail's attachments, by name.
fn attachments(raw: &[u8]) -> Vec<(String, Vec<u8>)> {
    use mail_parser::MimeHeaders;
    let Some(m) = mail_parser::MessageParser::default().parse(raw) else {
        return Vec::new();
    };
    m.attachments()
        .map(|a| {
            (
                a.attachment_name().unwrap_or_default().to_string(),
                a.contents().to_vec(),
            )
        })
        .collect()
}

fn in_reply_to(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    head.lines()
        .find_map(|l| l.strip_prefix("In-Reply-To:"))
        .map(|v| v.trim().trim_matches(['<', '>']).to_string())
}

/// One participant: an address and their IMAP mailbox.
struct Person {
    address: String,
    inbox: ImapInbox,
    got: Vec<Got>,
}

impl Person {
    fn new(address: String) -> Person {
        Person {
            inbox: imap(&address),
            address,
            got: Vec::new(),
        }
    }

    fn poll(&mut self) {
        let Ok(batch) = self.inbox.fetch_new() else {
            return;
        };
        for raw in batch {
            let env = Envelope::parse(&raw.bytes).unwrap();
            self.got.push(Got {
                message_id: env.message_id.clone().unwrap_or_default(),
                in_reply_to: in_reply_to(&raw.bytes),
                subject: env.subject,
                text: env.text,
                files: attachments(&raw.bytes),
            });
        }
    }
}

/// How the daemon runs while the game is played.
trait Runner {
    /// Lets the daemon make progress once (a pass, or a moment of the live daemon).
    fn pass(&mut self, now: DateTime<Utc>);
}

/// `dipjudge process --now` as a child, to the end (or killed at random points).
struct ProcessRunner {
    config: PathBuf,
    rng: Option<Rng>,
    kills: usize,
    passes: usize,
    /// How long the last pass that ran to its end took.
    calm_pass: Duration,
    /// The kills since the last pass that ran to its end.
    kills_in_a_row: usize,
}

impl Runner for ProcessRunner {
    fn pass(&mut self, now: DateTime<Utc>) {
        self.passes += 1;
        let mut child = Command::new(env!("CARGO_BIN_EXE_dipjudge"))
            .args(["process", "--config"])
            .arg(&self.config)
            .args(["--now", &now.to_rfc3339()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        // At most three kills in a row: a mail whose handling is killed five times is set
        // aside by design (the judge's attempt limit), which a calm game never does.
        if self.kills_in_a_row < 3
            && let Some(rng) = self.rng.as_mut()
            && rng.next_u64() % 10 < 7
        {
            // A random point within a whole pass's length as last measured, so that the
            // kills land on a fast machine as on a loaded one.
            let point = self
                .calm_pass
                .mul_f64((rng.next_u64() % 1000) as f64 / 1000.0);
            std::thread::sleep(point);
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap();
                self.kills += 1;
                self.kills_in_a_row += 1;
            }
            child.wait().unwrap();
            return;
        }
        let status = child.wait().unwrap();
        assert!(status.success(), "dipjudge process: {status}");
        self.calm_pass = started.elapsed();
        self.kills_in_a_row = 0;
    }
}

/// The live daemon (`dipjudge run`) does the work; the driver only gives it time.
struct LiveRunner;

impl Runner for LiveRunner {
    fn pass(&mut self, _now: DateTime<Utc>) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Each role's mail, unique by Message-ID, as (subject, text), sorted.
type Received = BTreeMap<String, Vec<(String, String)>>;

/// A short game's participants and bookkeeping.
struct Table {
    tag: String,
    judge: String,
    game: String,
    master: Person,
    players: Vec<Person>,
    seats: BTreeMap<Power, usize>,
    sent: u32,
    step: i64,
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 5, 12, 0, 0).single().unwrap()
}

impl Table {
    fn new(tag: &str) -> Table {
        let u = unique(tag);
        Table {
            judge: format!("{u}-judge@example.test"),
            game: "g".to_string(),
            master: Person::new(format!("{u}-master@example.test")),
            players: (1..=7)
                .map(|i| Person::new(format!("{u}-p{i}@example.test")))
                .collect(),
            seats: BTreeMap::new(),
            tag: u,
            sent: 0,
            step: 0,
        }
    }

    fn now(&self) -> DateTime<Utc> {
        t0() + chrono::Duration::minutes(self.step)
    }

    fn person(&mut self, who: Option<usize>) -> &mut Person {
        match who {
            None => &mut self.master,
            Some(i) => &mut self.players[i],
        }
    }

    /// Sends `body` from the master (`None`) or player `i`, and runs the daemon until the
    /// answer is in the sender's mailbox.
    fn send(&mut self, runner: &mut dyn Runner, who: Option<usize>, body: &str) {
        self.sent += 1;
        self.step += 1;
        let id = format!("{}-{}@example.test", self.tag, self.sent);
        let judge = self.judge.clone();
        let from = self.person(who).address.clone();
        deliver(&from, &judge, plain_mail(&from, &judge, Some(&id), body));
        let now = self.now();
        let start = Instant::now();
        loop {
            runner.pass(now);
            let p = self.person(who);
            p.poll();
            if p.got.iter().any(|g| g.in_reply_to.as_deref() == Some(&id)) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no answer to {id} from {from}: {body}"
            );
        }
    }

    fn wait_for(&mut self, runner: &mut dyn Runner, who: Option<usize>, subject: &str) -> Got {
        let start = Instant::now();
        let now = self.now();
        loop {
            let p = self.person(who);
            p.poll();
            if let Some(g) = p.got.iter().find(|g| g.subject.contains(subject)) {
                return g.clone();
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no mail {subject:?} for {:?}",
                who
            );
            runner.pass(now);
        }
    }

    /// CREATE, seven SIGNONs, then every scripted phase with the master's PROCESS.
    /// `between` is called after each phase is processed, with the phase's name.
    fn play(&mut self, runner: &mut dyn Runner, between: &mut dyn FnMut(&str)) {
        let game = self.game.clone();
        self.send(runner, None, &script::create(&game));
        for i in 0..7 {
            self.send(runner, Some(i), &script::join(&game, i));
        }
        let start = self.wait_for(runner, None, "Game Starting");
        for (power, addr) in script::seats_in_start_mail(&start.text) {
            let i = self.players.iter().position(|p| p.address == addr).unwrap();
            self.seats.insert(power, i);
        }
        assert_eq!(self.seats.len(), 7, "{}", start.text);
        for phase in SHORT_GAME {
            for (power, body) in phase.orders {
                let i = self.seats[power];
                self.send(runner, Some(i), &script::signed(&game, *power, i, body));
            }
            self.send(runner, None, &script::process(&game));
            between(phase.phase);
        }
        // Everyone has the last bulletin.
        for i in 0..7 {
            self.wait_for(runner, Some(i), "W1902A Results");
        }
    }

    /// Reads every mailbox until nothing new has arrived for two seconds (at most a
    /// minute). Postfix and Dovecot deliver in parallel, so the last bulletin sent may reach
    /// a mailbox before an earlier one: having the last is not having them all.
    fn settle(&mut self) {
        let start = Instant::now();
        let mut quiet_since = Instant::now();
        let mut count = usize::MAX;
        while start.elapsed() < Duration::from_secs(60) {
            self.master.poll();
            for p in &mut self.players {
                p.poll();
            }
            let now: usize =
                self.master.got.len() + self.players.iter().map(|p| p.got.len()).sum::<usize>();
            if now != count {
                count = now;
                quiet_since = Instant::now();
            } else if quiet_since.elapsed() >= Duration::from_secs(2) {
                return;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Each role's mail: unique by Message-ID, addresses replaced by roles, sorted; and the
    /// number of duplicates.
    fn received(&mut self) -> (Received, usize) {
        let mut names = vec![
            (self.judge.clone(), "JUDGE".to_string()),
            (self.master.address.clone(), "MASTER".to_string()),
        ];
        for (i, p) in self.players.iter().enumerate() {
            names.push((p.address.clone(), format!("PLAYER{}", i + 1)));
        }
        let norm = |s: &str| {
            let mut s = s.to_string();
            for (a, n) in &names {
                s = s.replace(a.as_str(), n);
            }
            s
        };
        let mut out = BTreeMap::new();
        let mut duplicates = 0;
        let mut people: Vec<&Person> = vec![&self.master];
        people.extend(self.players.iter());
        for p in people {
            let mut seen = std::collections::HashSet::new();
            let mut mails = Vec::new();
            for g in &p.got {
                if seen.insert(g.message_id.clone()) {
                    mails.push((norm(&g.subject), norm(&g.text)));
                } else {
                    duplicates += 1;
                }
            }
            mails.sort();
            out.insert(norm(&p.address), mails);
        }
        (out, duplicates)
    }

    fn normalised(&self, text: &str) -> String {
        let mut s = text.replace(&self.judge, "JUDGE");
        s = s.replace(&self.master.address, "MASTER");
        for (i, p) in self.players.iter().enumerate() {
            s = s.replace(&p.address, &format!("PLAYER{}", i + 1));
        }
        s
    }
}

/// A scratch directory for a test's database and configuration.
fn scratch(tag: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("daemon")
        .join(unique(tag));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_config(dir: &Path, judge: &str) -> PathBuf {
    let path = dir.join("judge.toml");
    std::fs::write(&path, config_text(judge, &dir.join("judge.db"))).unwrap();
    path
}

fn dump_state(config: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(["dump-state", "--config"])
        .arg(config)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Plays the short game with `dipjudge process` children, killing them at random points
/// when `kill_seed` is given. Returns the normalised mail, duplicates, state, kills.
fn play_with_process(tag: &str, kill_seed: Option<u64>) -> (Received, usize, String, usize) {
    let dir = scratch(tag);
    let mut table = Table::new(tag);
    let config = write_config(&dir, &table.judge);
    let mut runner = ProcessRunner {
        config: config.clone(),
        rng: kill_seed.map(Rng::new),
        kills: 0,
        passes: 0,
        calm_pass: Duration::from_millis(150),
        kills_in_a_row: 0,
    };
    table.play(&mut runner, &mut |_| {});
    // A last clean pass: whatever a kill left queued goes out.
    runner.rng = None;
    runner.pass(table.now());
    table.settle();
    let (mail, duplicates) = table.received();
    let state = table.normalised(&dump_state(&config));
    eprintln!(
        "{tag}: {} passes, {} kills, {duplicates} duplicate mails",
        runner.passes, runner.kills
    );
    (mail, duplicates, state, runner.kills)
}

#[test]
fn a_short_game_through_imap_and_smtp() {
    needs_servers!();
    let (mail, duplicates, state, _) = play_with_process("game", None);
    assert_eq!(duplicates, 0);
    assert!(state.contains("phase S1903M"), "{state}");
    for i in 1..=7 {
        let got = &mail[&format!("PLAYER{i}")];
        let results: Vec<&String> = got
            .iter()
            .map(|(s, _)| s)
            .filter(|s| s.contains("Results"))
            .collect();
        assert_eq!(results.len(), 7, "PLAYER{i}: {results:?}");
    }
    // The retreat and the builds are in everyone's bulletins; the press only France's.
    let p1 = &mail["PLAYER1"];
    let body = |sub: &str| {
        p1.iter()
            .find(|(s, _)| s.contains(sub))
            .map(|(_, b)| b.clone())
            .unwrap()
    };
    assert!(body("F1901R Results").contains("France: Army Burgundy -> Gascony."));
    assert!(body("W1901A Results").contains("Germany: Builds an army in Berlin."));
    let press: Vec<&String> = mail
        .iter()
        .filter(|(_, m)| {
            m.iter()
                .any(|(_, b)| b.contains("Shall we split the Channel?"))
        })
        .map(|(who, _)| who)
        .collect();
    assert_eq!(
        press.len(),
        1,
        "only France reads England's press: {press:?}"
    );
}

#[test]
fn sigkill_at_random_points_loses_nothing() {
    needs_servers!();
    let (base_mail, base_dups, base_state, _) = play_with_process("calm", None);
    assert_eq!(base_dups, 0);
    let (mail, duplicates, state, kills) = play_with_process("crash", Some(20_261_105));
    assert!(kills >= 20, "only {kills} kills");
    eprintln!("crash test: {kills} SIGKILLs, {duplicates} duplicate mails, no mail lost");
    assert_eq!(state, base_state, "the final state differs");
    for (who, expected) in &base_mail {
        let got = &mail[who];
        for m in expected {
            assert!(got.contains(m), "{who} lost a mail: {m:?}");
        }
        assert_eq!(got, expected, "{who} received different mail");
    }
}

/// Stops and starts the servers (`scripts/mail-servers.sh`).
fn mail_servers(cmd: &str) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/mail-servers.sh");
    let status = Command::new(script)
        .arg(cmd)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "mail-servers.sh {cmd}: {status}");
}

/// Kills the live daemon if the test fails; restarts the servers if they were stopped.
struct Guard {
    child: Option<Child>,
    servers_down: bool,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
        if self.servers_down {
            mail_servers("start");
        }
    }
}

/// Starts `dipjudge run` on `config`, its log appended to `log`.
fn spawn_run(config: &Path, log: &Path) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(["run", "--config"])
        .arg(config)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap()
}

#[test]
fn the_live_daemon_survives_a_server_restart_and_a_kill_and_stops_on_sigterm() {
    // Exclusive: the servers go away for everyone.
    needs_servers!(exclusive);
    let dir = scratch("live");
    let mut table = Table::new("live");
    let config = write_config(&dir, &table.judge);
    let log = dir.join("daemon.log");
    let mut guard = Guard {
        child: Some(spawn_run(&config, &log)),
        servers_down: false,
    };
    let mut restarted = false;
    let mut killed = false;
    table.play(&mut LiveRunner, &mut |phase| {
        if phase == "F1901M" {
            guard.servers_down = true;
            mail_servers("stop");
            std::thread::sleep(Duration::from_secs(1));
            mail_servers("start");
            guard.servers_down = false;
            restarted = true;
        }
        if phase == "S1902M" {
            // SIGKILL while the daemon reads the PROCESS mail, adjudicates or sends the
            // bulletins; the new process picks up where the database says.
            std::thread::sleep(Duration::from_millis(150));
            if let Some(mut c) = guard.child.take() {
                c.kill().unwrap();
                c.wait().unwrap();
            }
            guard.child = Some(spawn_run(&config, &log));
            killed = true;
        }
    });
    assert!(killed);
    assert!(restarted);
    table.settle();
    let (mail, _dups) = table.received();
    for i in 1..=7 {
        let n = mail[&format!("PLAYER{i}")]
            .iter()
            .filter(|(s, _)| s.contains("Results"))
            .count();
        assert_eq!(n, 7, "PLAYER{i} has every results bulletin");
    }
    // SIGTERM: the daemon finishes its step and exits 0.
    let mut child = guard.child.take().unwrap();
    let pid = child.id().to_string();
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the daemon did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status after SIGTERM: {status}");
    let state = dump_state(&config);
    assert!(state.contains("phase S1903M"), "{state}");
}

fn fixture(name: &str) -> String {
    String::from_utf8(
        std::fs::read(format!(
            "{}/fixtures/mail/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap()
}

/// `text` with its From header (and Return-Path) replaced by `from`.
fn from_header(text: &str, from: &str) -> Vec<u8> {
    text.lines()
        .filter(|l| !l.starts_with("Return-Path:"))
        .map(|l| {
            if l.starts_with("From:") {
                format!("From: {from}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\r\n")
        .into_bytes()
}

#[test]
fn bad_mail_through_the_real_servers() {
    needs_servers!();
    let dir = scratch("bad");
    let u = unique("bad");
    let judge = format!("{u}-judge@example.test");
    let config = Config::load(&write_config(&dir, &judge)).unwrap();
    let mut d = Daemon::open(config, None).unwrap();
    let addr = |t: &str| format!("{u}-{t}@example.test");
    let who = [
        "html", "eight", "b64", "big", "bounce", "ooo", "noid", "twice",
    ];
    let mut people: BTreeMap<&str, Person> =
        who.iter().map(|w| (*w, Person::new(addr(w)))).collect();

    deliver(
        &addr("html"),
        &judge,
        from_header(&fixture("html-only.eml"), &addr("html")),
    );
    let eight = "From: {f}\r\nTo: {j}\r\nSubject: =?UTF-8?Q?=C3=A9t=C3=A9?=\r\nMessage-ID: <{u}-8bit@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nHELP\r\nÉté à Paris ☺\r\n"
        .replace("{f}", &addr("eight"))
        .replace("{j}", &judge)
        .replace("{u}", &u);
    deliver(&addr("eight"), &judge, eight.into_bytes());
    deliver(
        &addr("b64"),
        &judge,
        from_header(&fixture("base64-utf8.eml"), &addr("b64")),
    );
    let attachment = "QUJD"
        .repeat(5 * 1024 * 1024 / 4)
        .as_bytes()
        .chunks(76)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("\r\n");
    let big = format!(
        "From: {f}\r\nTo: {judge}\r\nSubject: big\r\nMessage-ID: <{u}-big@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n{attachment}\r\n--b--\r\n",
        f = addr("big")
    );
    deliver(&addr("big"), &judge, big.into_bytes());
    // A bounce keeps its mail-system sender: it must not be answered.
    deliver(&addr("bounce"), &judge, fixture("bounce.eml").into_bytes());
    deliver(
        &addr("ooo"),
        &judge,
        from_header(&fixture("auto-reply.eml"), &addr("ooo")),
    );
    deliver(
        &addr("noid"),
        &judge,
        plain_mail(&addr("noid"), &judge, None, "HELP\n"),
    );
    let twice = format!("{u}-twice@example.test");
    for _ in 0..2 {
        deliver(
            &addr("twice"),
            &judge,
            plain_mail(&addr("twice"), &judge, Some(&twice), "HELP\n"),
        );
    }

    let state_before = d.judge().dump_state().unwrap();
    let start = Instant::now();
    let mut total = dipjudge::daemon::PassReport::default();
    while total.fetched < 9 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "only {total:?} after 60 s"
        );
        let r = d.process_once(t0()).unwrap();
        total.fetched += r.fetched;
        total.applied += r.applied;
        total.duplicates += r.duplicates;
        total.silenced += r.silenced;
        total.sent += r.sent;
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        (total.applied, total.duplicates, total.silenced),
        (6, 1, 2),
        "{total:?}"
    );
    // Nothing here touches a game.
    assert_eq!(d.judge().dump_state().unwrap(), state_before);
    let outbox = d.judge().all_mail().unwrap();
    let to = |w: &str| outbox.iter().filter(|m| m.recipient == addr(w)).count();
    assert_eq!(
        to("bounce") + to("ooo"),
        0,
        "silenced mail is never answered"
    );
    assert!(
        outbox
            .iter()
            .all(|m| !m.recipient.to_ascii_lowercase().contains("mailer-daemon"))
    );
    assert_eq!(to("twice"), 1, "the same Message-ID twice is answered once");

    // The answers arrive by IMAP.
    let expect = |p: &mut Person, what: &str| {
        let start = Instant::now();
        loop {
            p.poll();
            if let Some(g) = p.got.first() {
                assert!(g.text.contains(what), "{}: {}", p.address, g.text);
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "{} got nothing",
                p.address
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    expect(people.get_mut("html").unwrap(), "SIGNON");
    expect(people.get_mut("eight").unwrap(), "HELP");
    expect(people.get_mut("b64").unwrap(), "PAR");
    expect(people.get_mut("big").unwrap(), "HELP");
    expect(people.get_mut("noid").unwrap(), "HELP");
    expect(people.get_mut("twice").unwrap(), "HELP");
    std::thread::sleep(Duration::from_millis(700));
    for w in ["ooo", "twice"] {
        let p = people.get_mut(w).unwrap();
        p.poll();
        let n = if w == "ooo" { 0 } else { 1 };
        assert_eq!(p.got.len(), n, "{w}: {:?}", p.got);
    }
}

impl Table {
    /// Sends `body` (see [`Table::send`]) and returns the judge's reply to it.
    fn ask(&mut self, runner: &mut dyn Runner, who: Option<usize>, body: &str) -> Got {
        self.send(runner, who, body);
        let id = format!("{}-{}@example.test", self.tag, self.sent);
        self.person(who)
            .got
            .iter()
            .find(|g| g.in_reply_to.as_deref() == Some(&id))
            .cloned()
            .unwrap()
    }

    /// `body` signed on as `power` (whoever holds it); the judge's reply.
    fn as_power(&mut self, runner: &mut dyn Runner, power: Power, body: &str) -> Got {
        let i = self.seats[&power];
        let text = script::signed(&self.game, power, i, body);
        self.ask(runner, Some(i), &text)
    }

    /// A phase played by mail: each power's orders (no reply holding any of `refused`), the
    /// master's PROCESS!, and the phase's results bulletin as each player received it.
    fn play_phase(
        &mut self,
        runner: &mut dyn Runner,
        orders: &[(Power, &str)],
        phase: &str,
        refused: &[&str],
    ) -> Vec<Got> {
        for (power, body) in orders {
            let r = self.as_power(runner, *power, body);
            assert!(
                refused.iter().all(|w| !r.text.contains(w)),
                "{power}: {}",
                r.text
            );
        }
        let r = self.ask(runner, None, &script::process(&self.game.clone()));
        assert!(!r.text.contains("ERROR"), "{}", r.text);
        (0..7)
            .map(|i| self.wait_for(runner, Some(i), &format!("{phase} Results")))
            .collect()
    }

    /// [`Table::play_phase`] for bulletins with nothing private: every player's copy is the
    /// master's, which is returned.
    fn play_public_phase(
        &mut self,
        runner: &mut dyn Runner,
        orders: &[(Power, &str)],
        phase: &str,
        refused: &[&str],
    ) -> Got {
        let players = self.play_phase(runner, orders, phase, refused);
        let subject = format!("{phase} Results");
        let master = self.wait_for(runner, None, &subject);
        for (i, b) in players.iter().enumerate() {
            assert_eq!(b.subject, master.subject);
            assert_eq!(
                b.text, master.text,
                "player {i}'s {subject} is not the master's"
            );
        }
        master
    }
}

/// A variant game played by IMAP and SMTP with `dipjudge process --now` children: its
/// scratch directory, configuration, table and runner.
struct VariantGame {
    dir: PathBuf,
    config: PathBuf,
    table: Table,
    runner: ProcessRunner,
}

/// Sets up a variant game: the master's `CREATE ?g gmpass <rules>` (answered without an
/// error, the reply naming the rules: `named`), the seven players' SIGNONs, and each
/// power's seat from the "Game Starting" mail.
fn variant_game(tag: &str, rules: &str, named: &str) -> VariantGame {
    let dir = scratch(tag);
    let mut t = Table::new(tag);
    let config = write_config(&dir, &t.judge);
    let mut runner = ProcessRunner {
        config: config.clone(),
        rng: None,
        kills: 0,
        passes: 0,
        calm_pass: Duration::from_millis(150),
        kills_in_a_row: 0,
    };
    let game = t.game.clone();
    let created = t.ask(
        &mut runner,
        None,
        &format!("CREATE ?{game} {} {rules}\n", script::MASTER_PASSWORD),
    );
    assert!(!created.text.contains("ERROR"), "{}", created.text);
    assert!(created.text.contains(named), "{}", created.text);
    for i in 0..7 {
        t.send(&mut runner, Some(i), &script::join(&game, i));
    }
    let start = t.wait_for(&mut runner, None, "Game Starting");
    for (power, addr) in script::seats_in_start_mail(&start.text) {
        let i = t.players.iter().position(|p| p.address == addr).unwrap();
        t.seats.insert(power, i);
    }
    assert_eq!(t.seats.len(), 7, "{}", start.text);
    VariantGame {
        dir,
        config,
        table: t,
        runner,
    }
}

/// The results bulletin's `CENTRES:` lines, in order.
fn centres_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("CENTRES:")).collect()
}

/// A Surrender game's first year by IMAP and SMTP, with `dipjudge process --now` children:
/// CREATE with the surrender rules, seven players, Spring, Fall (Germany dislodges France
/// from Burgundy, Russia takes Budapest from Austria), the retreat, Winter. Along the way
/// the surrender commands travel through the servers: offers refused on receipt (three
/// centres, before and after the Fall moves: ownership changes only after the retreats), a
/// decline without an offer, then in Winter, Austria down to two centres offers to Russia
/// (who owns Budapest), Russia declines, Austria offers again and Russia accepts; each
/// announced to everyone at once and repeated in the Winter bulletin with the relation and
/// the counts.
#[test]
fn a_surrender_year_through_imap_and_smtp() {
    needs_servers!();
    let began = Instant::now();
    let VariantGame {
        config,
        table: mut t,
        mut runner,
        ..
    } = variant_game("surrender", "surrender", "Surrender");
    let runner = &mut runner;
    let game = t.game.clone();
    let austria = t.seats[&Power::Austria];
    let ok = |g: &Got| assert!(!g.text.contains("ERROR"), "{}", g.text);
    let has = |g: &Got, line: &str| assert!(g.text.contains(line), "{line:?} in:\n{}", g.text);

    // Spring 1901: a surrender offer from a power with three centres, a decline without an
    // offer; both refused on receipt, nothing announced.
    let r = t.as_power(runner, Power::Austria, "SURRENDER TO Germany\n");
    has(
        &r,
        "ERROR SUR-E2: line 2: \"SURRENDER TO Germany\": Austria may not surrender: it counts 3 supply centres; surrender needs 2 or fewer.",
    );
    let r = t.as_power(runner, Power::Germany, "DECLINE SURRENDER FROM Austria\n");
    has(
        &r,
        "ERROR SUR-E6: line 2: \"DECLINE SURRENDER FROM Austria\": there is no pending surrender offer from Austria to Germany.",
    );
    let spring: &[(Power, &str)] = &[
        (Power::England, "F Lon - NTH\nF Edi - NWG\nA Lvp - Yor\n"),
        (Power::France, "A Par - Bur\nA Mar - Spa\nF Bre - MAO\n"),
        (Power::Germany, "A Mun - Ruh\nA Ber - Mun\nF Kie - Den\n"),
        (Power::Austria, "A Vie H\nA Bud - Tri\nF Tri - Alb\n"),
        (Power::Russia, "A War - Gal\nF Sev - Rum\nA Mos - Ukr\n"),
        (Power::Turkey, "F Ank - Bla\nA Con - Bul\n"),
    ];
    for (power, body) in spring {
        ok(&t.as_power(runner, *power, body));
    }
    ok(&t.ask(runner, None, &script::process(&game)));
    for i in 0..7 {
        t.wait_for(runner, Some(i), "S1901M Results");
    }

    // Fall 1901: Germany dislodges France from Burgundy; Russia takes Budapest.
    let fall: &[(Power, &str)] = &[
        (Power::England, "F NTH - Nwy\n"),
        (Power::France, "A Bur H\nA Spa - Por\nF MAO H\n"),
        (
            Power::Germany,
            "A Ruh - Bur\nA Mun S A Ruh - Bur\nF Den H\n",
        ),
        (Power::Austria, "A Vie H\nA Tri H\nF Alb H\n"),
        (Power::Russia, "A Gal - Bud\nF Rum H\nA Ukr H\n"),
        (Power::Turkey, "A Bul H\nF Bla H\n"),
    ];
    for (power, body) in fall {
        ok(&t.as_power(runner, *power, body));
    }
    ok(&t.ask(runner, None, &script::process(&game)));
    let f1901m = t.wait_for(runner, Some(austria), "F1901M Results");
    assert!(
        centres_lines(&f1901m.text).is_empty(),
        "the ownership changes after the retreats:\n{}",
        f1901m.text
    );

    // The retreat: Budapest is still Austria's until the Fall ownership update.
    let r = t.as_power(runner, Power::Austria, "SURRENDER TO Russia\n");
    has(
        &r,
        "ERROR SUR-E2: line 2: \"SURRENDER TO Russia\": Austria may not surrender: it counts 3 supply centres; surrender needs 2 or fewer.",
    );
    ok(&t.as_power(runner, Power::France, "A Bur - Gas\n"));
    ok(&t.ask(runner, None, &script::process(&game)));
    let fall_centres = [
        "CENTRES: Austria owns 2, counts 2.",
        "CENTRES: England owns 4, counts 4.",
        "CENTRES: France owns 4, counts 4.",
        "CENTRES: Germany owns 4, counts 4.",
        "CENTRES: Italy owns 3, counts 3.",
        "CENTRES: Russia owns 6, counts 6.",
        "CENTRES: Turkey owns 4, counts 4.",
    ];
    for i in 0..7 {
        let b = t.wait_for(runner, Some(i), "F1901R Results");
        assert_eq!(centres_lines(&b.text), fall_centres, "{}", b.text);
        assert!(!b.text.contains("RELATIONS:"), "{}", b.text);
        has(&b, "France: Army Burgundy -> Gascony.");
    }

    // Winter 1901: Austria (two centres; Russia owns Budapest and counts six) offers, Russia
    // declines, Austria offers again, Russia accepts. Each is announced to everyone at once.
    let surrender_lines = [
        (
            Power::Austria,
            "SURRENDER TO Russia\n",
            "OK SURRENDER TO Russia",
            "SURRENDER: Austria offers to surrender to Russia.",
        ),
        (
            Power::Russia,
            "DECLINE SURRENDER FROM Austria\n",
            "OK DECLINE SURRENDER FROM Austria",
            "SURRENDER: Russia declines the surrender of Austria.",
        ),
        (
            Power::Austria,
            "OFFER SURRENDER TO Russia\n",
            "OK SURRENDER TO Russia",
            "SURRENDER: Austria offers to surrender to Russia.",
        ),
        (
            Power::Russia,
            "ACCEPT SURRENDER OF Austria\n",
            "OK ACCEPT SURRENDER FROM Austria",
            "SURRENDER: Russia accepts the surrender of Austria. Austria is now a client state of Russia.",
        ),
    ];
    for (announced, (power, body, echo, line)) in surrender_lines.into_iter().enumerate() {
        let r = t.as_power(runner, power, body);
        ok(&r);
        has(&r, echo);
        // Everyone reads the announcement: the master and all seven players.
        for who in std::iter::once(None).chain((0..7).map(Some)) {
            let start = Instant::now();
            loop {
                let p = t.person(who);
                p.poll();
                let n = p
                    .got
                    .iter()
                    .filter(|g| g.subject.ends_with("W1901A Announcement"))
                    .count();
                if n > announced {
                    assert_eq!(n, announced + 1, "{who:?}: {:#?}", p.got);
                    break;
                }
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "{who:?} has no announcement of {line:?}"
                );
                runner.pass(t.now());
            }
            let p = t.person(who);
            let last = p
                .got
                .iter()
                .rfind(|g| g.subject.ends_with("W1901A Announcement"))
                .unwrap();
            assert_eq!(last.text.trim_end(), line, "{who:?}");
        }
    }
    // Accepted: Austria has no offer left to withdraw, and a client may not surrender.
    let r = t.as_power(runner, Power::Austria, "WITHDRAW SURRENDER\n");
    has(
        &r,
        "ERROR SUR-E8: line 2: \"WITHDRAW SURRENDER\": Austria has no pending surrender offer.",
    );
    let r = t.as_power(runner, Power::Austria, "SURRENDER TO Germany\n");
    has(
        &r,
        "ERROR SUR-E1: line 2: \"SURRENDER TO Germany\": Austria may not surrender: it is a client state of Russia, and only an independent power may surrender.",
    );
    // Builds and removals use each power's own centres (SUR-2.1): Russia owns six and has
    // four units, Austria owns two and has three.
    let winter: &[(Power, &str)] = &[
        (Power::Russia, "BUILD A War\nBUILD F Sev\n"),
        (Power::Austria, "REMOVE F Alb\n"),
        (Power::Germany, "BUILD A Ber\n"),
        (Power::France, "BUILD F Bre\n"),
        (Power::England, "BUILD F Lon\n"),
    ];
    for (power, body) in winter {
        ok(&t.as_power(runner, *power, body));
    }
    ok(&t.ask(runner, None, &script::process(&game)));
    let winter_centres = [
        "CENTRES: Austria owns 2, counts 2.",
        "CENTRES: England owns 4, counts 4.",
        "CENTRES: France owns 4, counts 4.",
        "CENTRES: Germany owns 4, counts 4.",
        "CENTRES: Italy owns 3, counts 3.",
        "CENTRES: Russia owns 6, counts 8.",
        "CENTRES: Turkey owns 4, counts 4.",
    ];
    for i in 0..7 {
        let b = t.wait_for(runner, Some(i), "W1901A Results");
        assert_eq!(centres_lines(&b.text), winter_centres, "{}", b.text);
        has(&b, "RELATIONS: Russia protects Austria.");
        // The immediate lines of the phase, in the order processed.
        let immediate: Vec<&str> = b
            .text
            .lines()
            .filter(|l| l.starts_with("SURRENDER:"))
            .collect();
        let expected: Vec<&str> = surrender_lines.iter().map(|(_, _, _, l)| *l).collect();
        assert_eq!(immediate, expected, "{}", b.text);
        has(&b, "Russia: Builds an army in Warsaw.");
        has(&b, "Austria: Removes the fleet in Albania.");
    }

    // Everything has arrived: no copy twice, results for every phase of the year to every
    // player, nothing said of the refused offers, and the game in Spring 1902.
    runner.pass(t.now());
    t.settle();
    let (mail, duplicates) = t.received();
    assert_eq!(duplicates, 0);
    for i in 1..=7 {
        let got = &mail[&format!("PLAYER{i}")];
        let results: Vec<&str> = got
            .iter()
            .map(|(s, _)| s.as_str())
            .filter(|s| s.ends_with("Results"))
            .collect();
        assert_eq!(
            results,
            [
                "DIP:g - F1901M Results",
                "DIP:g - F1901R Results",
                "DIP:g - S1901M Results",
                "DIP:g - W1901A Results"
            ],
            "PLAYER{i}"
        );
        let announcements = got
            .iter()
            .filter(|(s, _)| s.contains("Announcement"))
            .count();
        assert_eq!(announcements, 4, "PLAYER{i}: {got:#?}");
    }
    for (who, got) in &mail {
        for (subject, text) in got {
            assert!(
                !text.contains("surrender to Germany"),
                "{who}: {subject}: a refused offer was published:\n{text}"
            );
        }
    }
    let state = dump_state(&config);
    assert!(state.contains("phase S1902M"), "{state}");
    for unit in [
        "unit Russia A War",
        "unit Russia F Sev",
        "unit Austria A Tri",
    ] {
        assert!(state.contains(unit), "{unit} in {state}");
    }
    assert!(!state.contains("unit Austria F Alb"), "{state}");
    eprintln!(
        "a surrender year: {} passes, {:.1} s",
        runner.passes,
        began.elapsed().as_secs_f64()
    );
}

/// Whether `text` names `pair` (`Germany 5`), in any letter case, as a whole: not
/// `Germany 50`, not `xGermany 5`.
fn mentions(text: &str, pair: &str) -> bool {
    let text = text.to_ascii_lowercase();
    let pair = pair.to_ascii_lowercase();
    text.match_indices(&pair).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + pair.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

/// Whether `text` has the word "vote" or "votes" next to a number (`5 votes`, `votes: 5`).
fn votes_next_to_a_number(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '(' | ')' | '.'))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let number = |w: Option<&String>| w.is_some_and(|w| w.parse::<u32>().is_ok());
    words.iter().enumerate().any(|(i, w)| {
        (w == "vote" || w == "votes")
            && (number(words.get(i + 1)) || i > 0 && number(words.get(i - 1)))
    })
}

/// Two years of a Survive game by IMAP and SMTP, with `dipjudge process --now` children:
/// CREATE with the survive rules, seven players, 1901 (a few moves, no retreat, builds)
/// and 1902 (nothing moves), the master's PROCESS! after each phase. Before the vote, a
/// ballot in Spring 1901, in Winter 1901 (with builds) and in Fall 1902 is refused
/// (SRV-E1), and a draw vote too (SRV-E11). In W1902A every power sends a ballot: as
/// `VOTE` lines in order mails (with builds), or inside `PRESS TO M`; France replaces its
/// ballot, Germany's first ballot is short (SRV-E3). Germany (16 votes) is voted out: the
/// Winter bulletin says so to everyone, the master's copy alone carries the totals. In
/// S1903M Germany's order is refused (SRV-E8) and its units hold (out of the game). Every
/// mail anyone received is scanned: no ballot, total or "votes" count reaches anyone but
/// the voter (in the replies to its own mail) and the master (SRV-1.4).
#[test]
fn a_survive_vote_through_imap_and_smtp() {
    needs_servers!();
    let began = Instant::now();
    let VariantGame {
        dir,
        config,
        table: mut t,
        mut runner,
    } = variant_game("survive", "survive", "Survive");
    let runner = &mut runner;
    let has = |g: &Got, line: &str| assert!(g.text.contains(line), "{line:?} in:\n{}", g.text);
    let e1 = |line: &str| {
        format!(
            "ERROR SRV-E1: line 2: \"{line}\": there is no vote now; the next vote is in Winter 1902."
        )
    };
    // Spring 1901: a ballot long before the vote.
    let r = t.as_power(runner, Power::France, "VOTE Germany\n");
    has(&r, &e1("VOTE Germany"));
    let spring: &[(Power, &str)] = &[
        (Power::England, "F Lon - NTH\nF Edi - NWG\nA Lvp - Yor\n"),
        (Power::France, "A Par - Bur\nA Mar - Spa\nF Bre - MAO\n"),
        (Power::Germany, "A Mun - Ruh\nA Ber - Kie\nF Kie - Den\n"),
        (Power::Austria, "A Bud - Ser\nF Tri - Alb\n"),
        (Power::Russia, "F Sev - Rum\n"),
        (Power::Turkey, "A Con - Bul\n"),
    ];
    t.play_phase(runner, spring, "S1901M", &["ERROR"]);

    // Fall 1901: nobody is dislodged, so the Winter follows. Austria, France, Germany and
    // Russia own five centres, England and Turkey four, Italy three.
    let fall: &[(Power, &str)] = &[
        (Power::England, "F NTH - Nwy\n"),
        (Power::France, "F MAO - Por\n"),
        (Power::Germany, "A Kie - Hol\n"),
        (Power::Austria, "F Alb - Gre\n"),
    ];
    t.play_phase(runner, fall, "F1901M", &["ERROR"]);

    // Winter 1901: an odd year, no vote; Germany and Russia build (Russia's mail carries a
    // ballot, refused), the others waive.
    let r = t.as_power(runner, Power::Russia, "BUILD F Sev\nVOTE Germany\n");
    has(&r, "OK Build F Sev");
    has(
        &r,
        "ERROR SRV-E1: line 3: \"VOTE Germany\": there is no vote now; the next vote is in Winter 1902.",
    );
    let winter: &[(Power, &str)] = &[(Power::Germany, "BUILD A Ber\nBUILD A Mun\n")];
    for b in t.play_phase(runner, winter, "W1901A", &["ERROR"]) {
        has(
            &b,
            "SURVIVE: playing powers: Austria, England, France, Germany, Italy, Russia, Turkey.  Outcasts: none.",
        );
    }

    // Spring 1902: no draws in this game.
    let r = t.as_power(runner, Power::Germany, "SET DRAW\n");
    has(
        &r,
        "ERROR SRV-E11: line 2: \"SET DRAW\": there are no draws in this game: the winner is the last power left (SRV-6).",
    );
    t.play_phase(runner, &[], "S1902M", &["ERROR"]);
    // Fall 1902: the vote year, but not yet its Winter.
    let r = t.as_power(runner, Power::Turkey, "VOTE Russia\n");
    has(&r, &e1("VOTE Russia"));
    t.play_phase(runner, &[], "F1902M", &["ERROR"]);

    // Winter 1902: the vote. Each ballot is answered to its voter alone.
    let ballots: &[(Power, &str, &[&str])] = &[
        (
            Power::Austria,
            "BUILD A Bud\nVOTE Germany\n",
            &["OK Build A Bud", "OK ballot recorded: Germany 5"],
        ),
        (
            Power::England,
            "PRESS TO M\nGermany grows too fast; here is my ballot.\nVOTE Germany 3, Russia 1\nENDPRESS\n",
            &["OK PRESS TO M", "OK ballot recorded: Germany 3, Russia 1"],
        ),
        (
            Power::France,
            "VOTE England 2, Germany 3\n",
            &["OK ballot recorded: England 2, Germany 3"],
        ),
        (
            Power::Germany,
            "VOTE France 3\nVOTE France 3, Russia 2\n",
            &[
                "ERROR SRV-E3: line 2: \"VOTE France 3\": Germany has 5 votes and must use them all; this ballot uses 3. Ballot not recorded.",
                "OK ballot recorded: France 3, Russia 2",
            ],
        ),
        (
            Power::Italy,
            "PRESS TO M\nVOTE Austria 1 Germany 2\nENDPRESS\n",
            &["OK ballot recorded: Austria 1, Germany 2"],
        ),
        (
            Power::Russia,
            "VOTE Turkey 4, Germany 1\n",
            &["OK ballot recorded: Germany 1, Turkey 4"],
        ),
        (
            Power::Turkey,
            "VOTE Russia 4\n",
            &["OK ballot recorded: Russia 4"],
        ),
        (
            Power::France,
            "BUILD A Par\nVOTE Germany\n",
            &["OK Build A Par", "OK ballot replaced: Germany 5"],
        ),
    ];
    for (power, body, replies) in ballots {
        let r = t.as_power(runner, *power, body);
        for line in *replies {
            has(&r, line);
        }
    }
    let w1902 = t.play_phase(runner, &[], "W1902A", &["ERROR"]);
    for b in &w1902 {
        has(b, "SURVIVE: Germany has been voted out of the game.");
        has(
            b,
            "SURVIVE: playing powers: Austria, England, France, Italy, Russia, Turkey.  Outcasts: Germany.",
        );
        has(b, "Austria: Builds an army in Budapest.");
        has(b, "France: Builds an army in Paris.");
        assert!(!b.text.contains("master only"), "{}", b.text);
    }
    let master = t.wait_for(runner, None, "W1902A Results");
    has(
        &master,
        "SURVIVE: the vote (master only): Austria 1, France 3, Germany 16, Russia 7, Turkey 4.",
    );
    has(&master, "SURVIVE: Germany has been voted out of the game.");

    // Spring 1903: Germany's orders are refused and its units hold.
    let r = t.as_power(runner, Power::Germany, "A Ruh - Bel\n");
    has(
        &r,
        "ERROR SRV-E8: line 2: \"A Ruh - Bel\": Germany is out of the game; its units hold.",
    );
    let outcast_lines = [
        "Germany: A Berlin HOLD (out of the game)",
        "Germany: F Denmark HOLD (out of the game)",
        "Germany: A Holland HOLD (out of the game)",
        "Germany: A Munich HOLD (out of the game)",
        "Germany: A Ruhr HOLD (out of the game)",
    ];
    for b in t.play_phase(
        runner,
        &[(Power::France, "A Bur - Bel\n")],
        "S1903M",
        &["ERROR"],
    ) {
        let germany: Vec<&str> = b
            .text
            .lines()
            .filter(|l| l.starts_with("Germany: "))
            .collect();
        assert_eq!(germany, outcast_lines, "{}", b.text);
        has(&b, "France: Army Burgundy -> Belgium.");
    }

    // Everything has arrived. Nobody but the voter and the master reads a ballot.
    runner.pass(t.now());
    t.settle();
    let dump = dir.join("received.txt");
    let mut text = String::new();
    let mut people: Vec<(Option<Power>, &Person)> = vec![(None, &t.master)];
    for (power, i) in &t.seats {
        people.push((Some(*power), &t.players[*i]));
    }
    for (power, p) in &people {
        for g in &p.got {
            text += &format!("==== to {power:?}: {}\n{}\n", g.subject, g.text);
        }
    }
    std::fs::write(&dump, text).unwrap();
    let mut pairs: Vec<(Power, &str)> = Vec::new();
    for (power, _, replies) in ballots {
        for reply in *replies {
            let Some(votes) = reply
                .strip_prefix("OK ballot recorded: ")
                .or_else(|| reply.strip_prefix("OK ballot replaced: "))
            else {
                continue;
            };
            pairs.extend(votes.split(", ").map(|v| (*power, v)));
        }
    }
    pairs.push((Power::Germany, "France 3")); // the refused ballot
    let totals = [
        "Austria 1",
        "France 3",
        "Germany 16",
        "Russia 7",
        "Turkey 4",
    ];
    let mut master_has_totals = false;
    for (reader, p) in &people {
        for g in &p.got {
            let Some(reader) = reader else {
                master_has_totals |= totals.iter().all(|s| mentions(&g.text, s));
                continue;
            };
            // A reply answers the reader's own mail: its own ballots may be in it.
            let own = g.in_reply_to.is_some();
            for (voter, pair) in &pairs {
                let allowed = own && voter == reader;
                let also_own = own && pairs.iter().any(|(v, s)| v == reader && s == pair);
                assert!(
                    allowed || also_own || !mentions(&g.text, pair),
                    "{reader}'s mail {:?} shows {voter}'s ballot {pair:?} (see {}):\n{}",
                    g.subject,
                    dump.display(),
                    g.text
                );
            }
            for total in totals {
                let also_own = own && pairs.iter().any(|(v, s)| v == reader && *s == total);
                assert!(
                    also_own || !mentions(&g.text, total),
                    "{reader}'s mail {:?} shows the total {total:?}:\n{}",
                    g.subject,
                    g.text
                );
            }
            assert!(
                own || !votes_next_to_a_number(&g.text),
                "{reader}'s mail {:?} counts votes:\n{}",
                g.subject,
                g.text
            );
        }
    }
    assert!(master_has_totals, "the master never read the totals");
    // The scan can see: each voter's replies show its ballots, Germany's its vote count.
    for (voter, pair) in &pairs {
        let p = &t.players[t.seats[voter]];
        assert!(
            p.got
                .iter()
                .any(|g| g.in_reply_to.is_some() && mentions(&g.text, pair)),
            "{voter} never read its own {pair:?}"
        );
    }
    assert!(
        t.players[t.seats[&Power::Germany]]
            .got
            .iter()
            .any(|g| votes_next_to_a_number(&g.text))
    );
    // England's press to the master reached the master alone.
    let readers: Vec<Option<Power>> = people
        .iter()
        .filter(|(_, p)| {
            p.got
                .iter()
                .any(|g| g.text.contains("Germany grows too fast"))
        })
        .map(|(who, _)| *who)
        .collect();
    assert_eq!(readers, [None], "press to the master");
    let (mail, duplicates) = t.received();
    assert_eq!(duplicates, 0);
    for i in 1..=7 {
        let results: Vec<&str> = mail[&format!("PLAYER{i}")]
            .iter()
            .map(|(s, _)| s.as_str())
            .filter(|s| s.ends_with("Results"))
            .collect();
        assert_eq!(
            results,
            [
                "DIP:g - F1901M Results",
                "DIP:g - F1902M Results",
                "DIP:g - S1901M Results",
                "DIP:g - S1902M Results",
                "DIP:g - S1903M Results",
                "DIP:g - W1901A Results",
                "DIP:g - W1902A Results",
            ],
            "PLAYER{i}"
        );
    }
    let state = dump_state(&config);
    assert!(state.contains("phase F1903M"), "{state}");
    eprintln!(
        "a survive vote: {} passes, {:.1} s",
        runner.passes,
        began.elapsed().as_secs_f64()
    );
}

/// The lines of `text` that start with `prefix`, in order.
fn lines_starting<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

/// A Shell Shock band's name (shellshock.md SS-3).
fn shellshock_band(morale: i32) -> &'static str {
    match morale {
        25.. => "very high",
        13..=24 => "normal",
        9..=12 => "depressed",
        4..=8 => "low",
        1..=3 => "very low",
        _ => "armed neutral",
    }
}

/// The `UNIT:` line (docs/variants.md, Shell Shock) of `unit` (`France A Paris`).
fn unit_line(unit: &str, morale: i32) -> String {
    format!("UNIT: {unit} morale {morale} ({})", shellshock_band(morale))
}

/// The `UNIT:` lines after an update: one per `MORALE: <unit> <old> -> <new> [...]` line,
/// with the new morale, and one per `BUILD: <unit> morale <m>` line; sorted.
fn units_after(builds: &[&str], morale: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = builds
        .iter()
        .map(|l| {
            let (unit, m) = l
                .strip_prefix("BUILD: ")
                .and_then(|l| l.split_once(" morale "))
                .unwrap();
            unit_line(unit, m.parse().unwrap())
        })
        .collect();
    for l in morale {
        let (unit, change) = l
            .strip_prefix("MORALE: ")
            .and_then(|l| l.split_once(" -> "))
            .unwrap();
        let unit = unit.rsplit_once(' ').unwrap().0;
        let new = change.split_once(' ').unwrap().0;
        v.push(unit_line(unit, new.parse().unwrap()));
    }
    v.sort();
    v
}

/// A bulletin's `UNIT:` lines, sorted.
fn sorted_units(text: &str) -> Vec<String> {
    let mut v: Vec<String> = lines_starting(text, "UNIT: ")
        .into_iter()
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// A Shell Shock game's first year by IMAP and SMTP, with `dipjudge process --now` children:
/// CREATE with the shellshock rules, seven players, S1901M, F1901M, F1901R, W1901A, the
/// master's PROCESS! after each. No unit can be dislodged in Spring 1901 (no home centre
/// borders two units of another power), so the Spring update runs after S1901M: Germany's
/// A Mun, whose move to Tyrolia bounces while Italy's support of it is cut, ends alone
/// beside two foreign armies (18 -> 12, depressed); units that held their home centres
/// unattacked earn SS-2.1. In the Fall France's A Bur (normal morale) is ordered into
/// occupied Munich (no warning) and, supported by Russia's A Sil, dislodges the depressed
/// army, which retreats to Kiel; Germany takes Warsaw, France Munich. The Fall update runs
/// after the Winter builds (France 18, Germany 16 for its lost Munich, Turkey 18; the new
/// units are not updated and not counted as neighbours: Turkey's A Bul stays alone) and
/// leaves A Kie at 6: in S1902M its order into occupied Munich is answered with SS-W1.
/// Every MORALE line of both updates was computed by hand from shellshock.md's table;
/// every bulletin's UNIT lines are checked; every player and the master read the same
/// bulletins (nothing in Shell Shock is private).
#[test]
fn a_shellshock_year_through_imap_and_smtp() {
    needs_servers!();
    let began = Instant::now();
    let VariantGame {
        dir,
        config,
        table: mut t,
        mut runner,
    } = variant_game("shellshock", "shellshock", "ShellShock rules");
    let runner = &mut runner;
    let has = |g: &Got, line: &str| assert!(g.text.contains(line), "{line:?} in:\n{}", g.text);
    // Spring 1901. Austria bounces Germany out of Tyrolia and attacks Venice, which cuts
    // Italy's support of Germany's move; Russia and Germany move past each other to
    // Silesia and Prussia; most other units hold their home centres.
    let spring: &[(Power, &str)] = &[
        (Power::Austria, "A Vie - Tyr\nF Tri - Ven\nA Bud H\n"),
        (Power::England, "F Lon H\nF Edi - NTH\nA Lvp H\n"),
        (Power::France, "A Par - Bur\nA Mar H\nF Bre - MAO\n"),
        (Power::Germany, "A Mun - Tyr\nA Ber - Pru\nF Kie - Hol\n"),
        (Power::Italy, "A Ven S A Mun - Tyr\nA Rom H\nF Nap H\n"),
        (
            Power::Russia,
            "A War - Sil\nA Mos H\nF Sev - Rum\nF StP H\n",
        ),
        (Power::Turkey, "F Ank H\nA Con - Bul\nA Smy H\n"),
    ];
    let s1901 = t.play_public_phase(runner, spring, "S1901M", &["ERROR", "WARNING"]);
    has(&s1901, "Germany: Army Munich -> Tyrolia.  (*bounce*)");
    has(&s1901, "Austria: Army Vienna -> Tyrolia.  (*bounce*)");
    has(
        &s1901,
        "Italy: Army Venice SUPPORT German Army Munich -> Tyrolia.  (*cut*)",
    );
    has(&s1901, "Austria: Fleet Trieste -> Venice.  (*bounce*)");
    assert!(!s1901.text.contains("dislodged"), "{}", s1901.text);
    // No retreats: the Spring update follows the movement (SS-2.0). Units that stood on
    // their home centres unattacked: +4 (SS-2.1); failed moves -2 (SS-2.19), Germany's
    // with its cut support -1 (SS-2.12); armies with no own neighbour -1 (SS-2.15); more
    // foreign than own neighbours -2 (SS-2.18); new neutral centres +1 (SS-2.11); Venice
    // attacked and held +2 (SS-2.5) but supported a failed move -1 (SS-2.16).
    let spring_morale = [
        "MORALE: Austria A Budapest 18 -> 22 [SS-2.1 +4]",
        "MORALE: Austria F Trieste 18 -> 16 [SS-2.19 -2]",
        "MORALE: Austria A Vienna 18 -> 16 [SS-2.19 -2]",
        "MORALE: England F London 18 -> 22 [SS-2.1 +4]",
        "MORALE: England A Liverpool 18 -> 21 [SS-2.1 +4, SS-2.15 -1]",
        "MORALE: England F North Sea 18 -> 18 []",
        "MORALE: France A Burgundy 18 -> 18 []",
        "MORALE: France F Mid-Atlantic Ocean 18 -> 18 []",
        "MORALE: France A Marseilles 18 -> 22 [SS-2.1 +4]",
        "MORALE: Germany F Holland 18 -> 17 [SS-2.11 +1, SS-2.18 -2]",
        "MORALE: Germany A Munich 18 -> 12 [SS-2.12 -1, SS-2.15 -1, SS-2.18 -2, SS-2.19 -2]",
        "MORALE: Germany A Prussia 18 -> 15 [SS-2.15 -1, SS-2.18 -2]",
        "MORALE: Italy F Naples 18 -> 22 [SS-2.1 +4]",
        "MORALE: Italy A Rome 18 -> 22 [SS-2.1 +4]",
        "MORALE: Italy A Venice 18 -> 19 [SS-2.5 +2, SS-2.16 -1]",
        "MORALE: Russia A Moscow 18 -> 22 [SS-2.1 +4]",
        "MORALE: Russia F Rumania 18 -> 17 [SS-2.11 +1, SS-2.18 -2]",
        "MORALE: Russia A Silesia 18 -> 15 [SS-2.15 -1, SS-2.18 -2]",
        "MORALE: Russia F St Petersburg (south coast) 18 -> 22 [SS-2.1 +4]",
        "MORALE: Turkey F Ankara 18 -> 22 [SS-2.1 +4]",
        "MORALE: Turkey A Bulgaria 18 -> 16 [SS-2.11 +1, SS-2.15 -1, SS-2.18 -2]",
        "MORALE: Turkey A Smyrna 18 -> 22 [SS-2.1 +4]",
    ];
    assert_eq!(
        lines_starting(&s1901.text, "MORALE:"),
        spring_morale,
        "{}",
        s1901.text
    );
    let spring_units = units_after(&[], &spring_morale);
    assert!(spring_units.contains(&"UNIT: Germany A Munich morale 12 (depressed)".to_string()));
    assert_eq!(sorted_units(&s1901.text), spring_units, "{}", s1901.text);

    // Fall 1901. France's A Bur (morale 18, normal) is ordered into occupied Munich: no
    // warning. Germany's depressed A Mun holds (no restriction at 9-12).
    let r = t.as_power(runner, Power::France, "A Bur - Mun\nA Mar H\nF MAO H\n");
    has(&r, "OK A Bur - Mun");
    assert!(
        !r.text.contains("WARNING") && !r.text.contains("ERROR"),
        "{}",
        r.text
    );
    let fall: &[(Power, &str)] = &[
        (Power::Germany, "A Mun H\nA Pru - War\nF Hol H\n"),
        (
            Power::Russia,
            "A Sil S A Bur - Mun\nA Mos H\nF Rum H\nF StP H\n",
        ),
        (Power::Austria, "A Vie H\nF Tri H\nA Bud H\n"),
        (Power::England, "F Lon H\nF NTH H\nA Lvp H\n"),
        (Power::Italy, "A Ven H\nA Rom H\nF Nap H\n"),
        (Power::Turkey, "F Ank H\nA Bul H\nA Smy H\n"),
    ];
    let f1901 = t.play_public_phase(runner, fall, "F1901M", &["ERROR", "WARNING"]);
    has(&f1901, "France: Army Burgundy -> Munich.");
    has(&f1901, "Germany: Army Munich HOLD.  (*dislodged*)");
    has(
        &f1901,
        "Russia: Army Silesia SUPPORT French Army Burgundy -> Munich.",
    );
    has(&f1901, "Germany: Army Prussia -> Warsaw.");
    has(&f1901, "The German Army in Munich can retreat to");
    // No update yet (the Fall's runs after the Winter): the morale of the Spring.
    assert_eq!(lines_starting(&f1901.text, "MORALE:"), Vec::<&str>::new());
    // The board after the Fall's moves, with the Spring's morale.
    let fall_board = [
        ("Austria A Budapest", 22),
        ("Austria F Trieste", 16),
        ("Austria A Vienna", 16),
        ("England F London", 22),
        ("England A Liverpool", 21),
        ("England F North Sea", 18),
        ("France A Munich", 18),
        ("France F Mid-Atlantic Ocean", 18),
        ("France A Marseilles", 22),
        ("Germany F Holland", 17),
        ("Germany A Warsaw", 15),
        ("Italy F Naples", 22),
        ("Italy A Rome", 22),
        ("Italy A Venice", 19),
        ("Russia A Moscow", 22),
        ("Russia F Rumania", 17),
        ("Russia A Silesia", 15),
        ("Russia F St Petersburg (south coast)", 22),
        ("Turkey F Ankara", 22),
        ("Turkey A Bulgaria", 16),
        ("Turkey A Smyrna", 22),
    ];
    let board_after_fall = |retreated: bool| -> Vec<String> {
        let mut v: Vec<String> = fall_board.iter().map(|(u, m)| unit_line(u, *m)).collect();
        if retreated {
            v.push(unit_line("Germany A Kiel", 12));
        }
        v.sort();
        v
    };
    // Every unit on the board, with its Spring morale, and the dislodged army waiting to
    // retreat with its 12 (SS-J05).
    let dislodged = "UNIT: Germany A Munich morale 12 (depressed) (dislodged)";
    let on_board = board_after_fall(false);
    let listed = sorted_units(&f1901.text);
    for line in on_board.iter().map(String::as_str).chain([dislodged]) {
        assert!(
            listed.iter().any(|l| l == line),
            "{line:?} in:\n{}",
            f1901.text
        );
    }
    for line in &listed {
        assert!(
            on_board.contains(line) || line == dislodged,
            "{line:?} in:\n{}",
            f1901.text
        );
    }

    // The retreat. The Fall ownership follows it: France owns Munich, Germany Holland and
    // Warsaw, Russia Rumania, Turkey Bulgaria.
    let f1901r = t.play_public_phase(
        runner,
        &[(Power::Germany, "A Mun - Kie\n")],
        "F1901R",
        &["ERROR", "WARNING"],
    );
    has(&f1901r, "Germany: Army Munich -> Kiel.");
    has(&f1901r, "France:    Brest, Marseilles, Munich, Paris.");
    has(&f1901r, "Germany:   Berlin, Holland, Kiel, Warsaw.");
    has(
        &f1901r,
        "Russia:    Moscow, Rumania, Sevastopol, St Petersburg.",
    );
    assert_eq!(lines_starting(&f1901r.text, "MORALE:"), Vec::<&str>::new());
    assert_eq!(
        sorted_units(&f1901r.text),
        board_after_fall(true),
        "{}",
        f1901r.text
    );

    // Winter 1901: three builds. SS-4.1: 18 - 2 x the builder's home centres owned by
    // others; Germany's Munich is France's.
    let winter: &[(Power, &str)] = &[
        (Power::France, "BUILD A Par\n"),
        (Power::Germany, "BUILD A Ber\n"),
        (Power::Turkey, "BUILD A Con\n"),
    ];
    let w1901 = t.play_public_phase(runner, winter, "W1901A", &["ERROR", "WARNING"]);
    has(&w1901, "Germany: Builds an army in Berlin.");
    let builds = [
        "BUILD: France A Paris morale 18",
        "BUILD: Germany A Berlin morale 16",
        "BUILD: Turkey A Constantinople morale 18",
    ];
    assert_eq!(
        lines_starting(&w1901.text, "BUILD:"),
        builds,
        "{}",
        w1901.text
    );
    // The Fall update, after the builds and without them (SS-2.0): positions after the
    // retreat, so A Kie is Holland's neighbour and A Bul has no Turkish one. Germany lost
    // Munich, Russia Warsaw: -2 for each of their units (SS-2.20), once.
    let fall_morale = [
        "MORALE: Austria A Budapest 22 -> 26 [SS-2.1 +4]",
        "MORALE: Austria F Trieste 16 -> 20 [SS-2.1 +4]",
        "MORALE: Austria A Vienna 16 -> 20 [SS-2.1 +4]",
        "MORALE: England F London 22 -> 26 [SS-2.1 +4]",
        "MORALE: England A Liverpool 21 -> 24 [SS-2.1 +4, SS-2.15 -1]",
        "MORALE: England F North Sea 18 -> 18 []",
        "MORALE: France F Mid-Atlantic Ocean 18 -> 18 []",
        "MORALE: France A Marseilles 22 -> 25 [SS-2.1 +4, SS-2.15 -1]",
        "MORALE: France A Munich 18 -> 23 [SS-2.2 +4, SS-2.4 +2, SS-2.10 +1, SS-2.11 +1, SS-2.15 -1, SS-2.18 -2]",
        "MORALE: Germany F Holland 17 -> 18 [SS-2.6 +2, SS-2.11 +1, SS-2.20 -2]",
        "MORALE: Germany A Kiel 12 -> 6 [SS-2.20 -2, SS-2.21 -4]",
        "MORALE: Germany A Warsaw 15 -> 13 [SS-2.4 +2, SS-2.11 +1, SS-2.15 -1, SS-2.18 -2, SS-2.20 -2]",
        "MORALE: Italy F Naples 22 -> 26 [SS-2.1 +4]",
        "MORALE: Italy A Rome 22 -> 26 [SS-2.1 +4]",
        "MORALE: Italy A Venice 19 -> 23 [SS-2.1 +4]",
        "MORALE: Russia A Moscow 22 -> 24 [SS-2.1 +4, SS-2.20 -2]",
        "MORALE: Russia F Rumania 17 -> 16 [SS-2.6 +2, SS-2.11 +1, SS-2.18 -2, SS-2.20 -2]",
        "MORALE: Russia A Silesia 15 -> 13 [SS-2.3 +2, SS-2.9 +1, SS-2.15 -1, SS-2.18 -2, SS-2.20 -2]",
        "MORALE: Russia F St Petersburg (south coast) 22 -> 24 [SS-2.1 +4, SS-2.20 -2]",
        "MORALE: Turkey F Ankara 22 -> 26 [SS-2.1 +4]",
        "MORALE: Turkey A Bulgaria 16 -> 16 [SS-2.6 +2, SS-2.11 +1, SS-2.15 -1, SS-2.18 -2]",
        "MORALE: Turkey A Smyrna 22 -> 26 [SS-2.1 +4]",
    ];
    assert_eq!(
        lines_starting(&w1901.text, "MORALE:"),
        fall_morale,
        "{}",
        w1901.text
    );
    // §4: the BUILD lines come before the update's.
    let w1901_lines: Vec<&str> = w1901.text.lines().collect();
    let last_build = w1901_lines
        .iter()
        .rposition(|l| l.starts_with("BUILD:"))
        .unwrap();
    let first_morale = w1901_lines
        .iter()
        .position(|l| l.starts_with("MORALE:"))
        .unwrap();
    assert!(last_build < first_morale, "{}", w1901.text);
    let winter_units = units_after(&builds, &fall_morale);
    assert!(winter_units.contains(&"UNIT: Germany A Kiel morale 6 (low)".to_string()));
    assert!(winter_units.contains(&"UNIT: France A Marseilles morale 25 (very high)".to_string()));
    assert_eq!(sorted_units(&w1901.text), winter_units, "{}", w1901.text);

    // Spring 1902: A Kie (6, low) ordered into occupied Munich: OK, then SS-W1.
    let r = t.as_power(runner, Power::Germany, "A Kie - Mun\n");
    let lines: Vec<&str> = r.text.lines().collect();
    let ok = lines
        .iter()
        .position(|l| *l == "OK A Kie - Mun")
        .unwrap_or_else(|| panic!("{}", r.text));
    assert_eq!(
        lines.get(ok + 1).copied(),
        Some(
            "WARNING SS-W1: line 2: \"A Kie - Mun\": A Kiel has morale 6 (low) and will not attack Munich; it will hold."
        ),
        "{}",
        r.text
    );
    assert!(!r.text.contains("ERROR"), "{}", r.text);

    // Everything has arrived: no copy twice, every player and the master hold the same
    // four results bulletins, and the game is in Spring 1902.
    runner.pass(t.now());
    t.settle();
    let mut dump = String::new();
    for p in std::iter::once(&t.master).chain(t.players.iter()) {
        for g in &p.got {
            dump += &format!("==== to {}: {}\n{}\n", p.address, g.subject, g.text);
        }
    }
    std::fs::write(dir.join("received.txt"), dump).unwrap();
    let (mail, duplicates) = t.received();
    assert_eq!(duplicates, 0);
    let results = |who: &str| -> Vec<(String, String)> {
        mail[who]
            .iter()
            .filter(|(s, _)| s.ends_with("Results"))
            .cloned()
            .collect()
    };
    let master_results = results("MASTER");
    let subjects: Vec<&str> = master_results.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        subjects,
        [
            "DIP:g - F1901M Results",
            "DIP:g - F1901R Results",
            "DIP:g - S1901M Results",
            "DIP:g - W1901A Results",
        ]
    );
    for i in 1..=7 {
        assert!(
            results(&format!("PLAYER{i}")) == master_results,
            "PLAYER{i}'s results bulletins differ from the master's"
        );
    }
    let state = dump_state(&config);
    assert!(state.contains("phase S1902M"), "{state}");
    eprintln!(
        "a shellshock year: {} passes, {:.1} s",
        runner.passes,
        began.elapsed().as_secs_f64()
    );
}

/// The lines of `text` that begin with one of `kinds`, in order.
fn lines_of_kinds<'a>(text: &'a str, kinds: &[&str]) -> Vec<&'a str> {
    text.lines()
        .filter(|l| kinds.iter().any(|k| l.starts_with(k)))
        .collect()
}

/// The bulletin's lines of Formal Diplomacy's own kinds (formal.md §4), in order.
fn formal_lines(text: &str) -> Vec<&str> {
    lines_of_kinds(
        text,
        &[
            "WAR:",
            "SURRENDER:",
            "SOI:",
            "VP:",
            "WARS:",
            "SPHERES:",
            "GAME END:",
        ],
    )
}

/// A Formal Diplomacy game's first year by IMAP and SMTP, with `dipjudge process --now`
/// children: CREATE with the formal rules, seven players, S1901M, F1901M, F1901R, W1901A,
/// the master's PROCESS! after each, and the game left in S1902M (20 turns by default).
///
/// Spring 1901: Austria's F Tri - Ven is refused (FD-E8: Venice is Italy's and there is no
/// war); Italy's A Ven - Tri, written before its `DWO Austria` in the same mail, is taken
/// with it; the bulletin declares the war, charges Italy a point and lists the war.
/// Fall 1901: press between the two enemies is refused both ways (FD-E16; Austria's to
/// Italy and France as a whole) and reaches no one, Italy's broadcast reaches everyone;
/// France's A Bur - Mun is refused (FD-E9: Munich is Germany's empty centre), its A Bur
/// declares Burgundy its sphere of influence in place; Austria, at war, dislodges Italy
/// from Trieste. The retreat: Italy's army retreats into Budapest, Austria's empty centre
/// (a retreat at war). Its bulletin carries the Fall ownership update and the Fall scoring
/// of every power, computed by hand. Winter 1901: every power builds what it may. Spring
/// 1902: Germany's A Mun - Bur, into France's army standing in France's sphere, is refused
/// with the first error only (FD-E8, not FD-E10). Every participant's mail is checked: the
/// bulletins (the master's, word for word), the broadcast, the reminders, one reply per
/// mail sent, and nothing that was refused.
/// The New Player Signon notices one address got while its game formed (issue 38): the
/// master one for each join before the game filled (#1..#6 of seven), a player one for
/// each join after its own, never one for its own join or the last.
fn assert_new_player_signons(who: &str, master: bool, joins: &[&str]) {
    let mut numbers: Vec<u32> = joins
        .iter()
        .map(|s| {
            s.rsplit('#')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{who}: {s}"))
        })
        .collect();
    numbers.sort_unstable();
    if master {
        assert_eq!(numbers, (1..=6).collect::<Vec<_>>(), "{who}: {joins:?}");
    } else {
        assert!(
            numbers.iter().all(|n| (2..=6).contains(n)),
            "{who}: {joins:?}"
        );
        assert!(
            numbers.windows(2).all(|w| w[0] + 1 == w[1]),
            "{who}: {joins:?}"
        );
        assert!(numbers.last().is_none_or(|&n| n == 6), "{who}: {joins:?}");
    }
}

#[test]
fn a_formal_year_through_imap_and_smtp() {
    needs_servers!();
    let began = Instant::now();
    let VariantGame {
        dir,
        config,
        table: mut t,
        mut runner,
    } = variant_game("formal", "formal", "Formal rules");
    let runner = &mut runner;
    let has = |g: &Got, line: &str| assert!(g.text.contains(line), "{line:?} in:\n{}", g.text);
    // Spring 1901. Austria may not answer first: Venice is Italy's unit and there is no
    // war yet (a DWO takes effect when the turn is processed).
    let r = t.as_power(runner, Power::Austria, "F Tri - Ven\n");
    has(
        &r,
        "ERROR FD-E8: line 2: \"F Tri - Ven\": F Tri - Ven: Venice is occupied by Italy, and Austria is not at war with Italy.",
    );
    // Italy's attack on Trieste, written before the DWO that allows it; the reply in line
    // order.
    let r = t.as_power(
        runner,
        Power::Italy,
        "A Ven - Tri\nDWO Austria\nA Rom - Ven\nF Nap - ION\n",
    );
    assert_eq!(
        r.text.lines().take(5).collect::<Vec<_>>(),
        [
            "OK SIGNON Ig (Italy)",
            "OK A Ven - Tri",
            "OK DWO Austria",
            "OK A Rom - Ven",
            "OK F Nap - ION"
        ],
        "{}",
        r.text
    );
    // The war is among Italy's standing orders for the turn.
    has(&r, "Orders standing for Italy in g (S1901M):");
    has(&r, "\n  DWO Austria\n");
    let spring: &[(Power, &str)] = &[
        (Power::Austria, "F Tri - Alb\nA Vie H\nA Bud - Ser\n"),
        (Power::England, "F Lon - NTH\nF Edi - NWG\nA Lvp - Yor\n"),
        (Power::France, "A Par - Bur\nA Mar - Spa\nF Bre - MAO\n"),
        (Power::Germany, "A Mun - Ruh\nA Ber - Kie\nF Kie - Den\n"),
        (
            Power::Russia,
            "A War - Gal\nF Sev - Rum\nA Mos - Ukr\nF StP - Bot\n",
        ),
        (Power::Turkey, "F Ank - Bla\nA Con - Bul\nA Smy H\n"),
    ];
    let s1901 = t.play_public_phase(runner, spring, "S1901M", &["ERROR"]);
    has(&s1901, "Italy: Army Venice -> Trieste.");
    has(&s1901, "Austria: Fleet Trieste -> Albania.");
    assert_eq!(
        formal_lines(&s1901.text),
        [
            "WAR: Italy declares war on Austria.",
            "VP: Italy -1 (declared war on Austria); total -1.",
            "WARS: Austria-Italy",
            "SPHERES: none",
        ],
        "{}",
        s1901.text
    );
    // §4's order: the declaration before the order results, the point after them.
    let at = |g: &Got, line: &str| {
        g.text
            .lines()
            .position(|l| l == line)
            .unwrap_or_else(|| panic!("{line:?} in:\n{}", g.text))
    };
    assert!(
        at(&s1901, "WAR: Italy declares war on Austria.")
            < at(&s1901, "Italy: Army Venice -> Trieste.")
    );
    assert!(
        at(&s1901, "Italy: Army Venice -> Trieste.")
            < at(&s1901, "VP: Italy -1 (declared war on Austria); total -1.")
    );

    // Fall 1901. No private press between the enemies, either way; a list naming an enemy
    // is refused as a whole. A broadcast is fine.
    let r = t.as_power(
        runner,
        Power::Italy,
        "PRESS TO A\nItaly to Austria: shall we talk terms?\nENDPRESS\n",
    );
    has(
        &r,
        "ERROR FD-E16: line 2: \"PRESS TO A\": Italy is at war with Austria and may not send it press.",
    );
    let r = t.as_power(
        runner,
        Power::Austria,
        "PRESS TO I F\nAustria to Italy and France: leave Trieste.\nENDPRESS\n",
    );
    has(
        &r,
        "ERROR FD-E16: line 2: \"PRESS TO I F\": Austria is at war with Italy and may not send it press.",
    );
    let r = t.as_power(
        runner,
        Power::Italy,
        "BROADCAST\nItaly to all: Trieste is Italian.\nENDPRESS\n",
    );
    has(&r, "OK BROADCAST (1 line)");
    assert!(!r.text.contains("ERROR"), "{}", r.text);
    // France may not walk into Germany's empty Munich; its army claims Burgundy instead.
    let r = t.as_power(runner, Power::France, "A Bur - Mun\n");
    has(
        &r,
        "ERROR FD-E9: line 2: \"A Bur - Mun\": A Bur - Mun: Munich is a supply centre of Germany, and France is not at war with Germany.",
    );
    let r = t.as_power(runner, Power::France, "A Bur SOI\nA Spa H\nF MAO - Por\n");
    has(&r, "OK A Bur SOI");
    let fall: &[(Power, &str)] = &[
        (
            Power::Austria,
            "A Vie - Tri\nF Alb S A Vie - Tri\nA Ser H\n",
        ),
        (Power::Italy, "A Tri H\nA Ven H\nF ION - Tun\n"),
        (Power::England, "F NWG - Nwy\nF NTH H\nA Yor H\n"),
        (Power::Germany, "A Ruh - Bel\nA Kie - Hol\nF Den H\n"),
        (Power::Russia, "F Bot - Swe\nA Gal H\nF Rum H\nA Ukr H\n"),
        (Power::Turkey, "F Bla H\nA Bul H\nA Smy H\n"),
    ];
    let f1901 = t.play_public_phase(runner, fall, "F1901M", &["ERROR"]);
    has(&f1901, "Austria: Army Vienna -> Trieste.");
    has(&f1901, "Italy: Army Trieste HOLD.  (*dislodged*)");
    has(&f1901, "France: A Bur H (SOI Burgundy)");
    has(
        &f1901,
        "The Italian Army in Trieste can retreat to Budapest or Tyrolia.",
    );
    // A retreat follows: the ownership update and the Fall scoring wait for it.
    assert_eq!(
        formal_lines(&f1901.text),
        [
            "SOI: France declares Burgundy its sphere of influence.",
            "WARS: Austria-Italy",
            "SPHERES: Burgundy France",
        ],
        "{}",
        f1901.text
    );

    // The retreat, into Budapest: Austria's empty centre, open to Italy at war.
    let f1901r = t.play_public_phase(
        runner,
        &[(Power::Italy, "A Tri - Bud\n")],
        "F1901R",
        &["ERROR"],
    );
    has(&f1901r, "Italy: Army Trieste -> Budapest.");
    // Owners after the update: Austria Serbia, Trieste, Vienna (Budapest lost); England
    // Norway; France Portugal, Spain; Germany Belgium, Denmark, Holland; Italy Budapest,
    // Tunis; Russia Rumania, Sweden; Turkey Bulgaria. Italy's -1 for its war stands.
    has(&f1901r, "Austria:   Serbia, Trieste, Vienna.");
    has(&f1901r, "Italy:     Budapest, Naples, Rome, Tunis, Venice.");
    assert_eq!(
        formal_lines(&f1901r.text),
        [
            "VP: Austria +0 (Fall scoring: 1 centres abroad, 1 home centres lost); total 0.",
            "VP: England +1 (Fall scoring: 1 centres abroad, 0 home centres lost); total 1.",
            "VP: France +2 (Fall scoring: 2 centres abroad, 0 home centres lost); total 2.",
            "VP: Germany +3 (Fall scoring: 3 centres abroad, 0 home centres lost); total 3.",
            "VP: Italy +2 (Fall scoring: 2 centres abroad, 0 home centres lost); total 1.",
            "VP: Russia +2 (Fall scoring: 2 centres abroad, 0 home centres lost); total 2.",
            "VP: Turkey +1 (Fall scoring: 1 centres abroad, 0 home centres lost); total 1.",
            "WARS: Austria-Italy",
            "SPHERES: Burgundy France",
        ],
        "{}",
        f1901r.text
    );
    // §4: the scoring follows the ownership update, in the same bulletin.
    assert!(
        at(&f1901r, "Ownership of supply centers:")
            < at(
                &f1901r,
                "VP: Austria +0 (Fall scoring: 1 centres abroad, 1 home centres lost); total 0."
            )
    );

    // Winter 1901: every power builds what it may; Austria (three centres, three units)
    // has nothing to do.
    let winter: &[(Power, &str)] = &[
        (Power::England, "BUILD F Edi\n"),
        (Power::France, "BUILD A Par\nBUILD F Bre\n"),
        (Power::Germany, "BUILD A Mun\nBUILD A Ber\nBUILD F Kie\n"),
        (Power::Italy, "BUILD A Rom\nBUILD F Nap\n"),
        (Power::Russia, "BUILD A War\nBUILD A Mos\n"),
        (Power::Turkey, "BUILD A Con\n"),
    ];
    let w1901 = t.play_public_phase(runner, winter, "W1901A", &["ERROR"]);
    has(&w1901, "Germany: Builds an army in Munich.");
    has(&w1901, "Italy: Builds a fleet in Naples.");
    assert_eq!(
        formal_lines(&w1901.text),
        ["WARS: Austria-Italy", "SPHERES: Burgundy France"],
        "{}",
        w1901.text
    );

    // Spring 1902: the game goes on (20 turns). Burgundy is France's sphere and France's
    // army stands in it: Germany's move breaks FD-2.5(a) and (c), and only the first is
    // reported (FD-E8 before FD-E10).
    let r = t.as_power(runner, Power::Germany, "A Mun - Bur\n");
    has(
        &r,
        "ERROR FD-E8: line 2: \"A Mun - Bur\": A Mun - Bur: Burgundy is occupied by France, and Germany is not at war with France.",
    );
    assert!(!r.text.contains("FD-E10"), "{}", r.text);

    // Everything has arrived.
    runner.pass(t.now());
    t.settle();
    let mut text = String::new();
    for p in std::iter::once(&t.master).chain(t.players.iter()) {
        for g in &p.got {
            text += &format!("==== to {}: {}\n{}\n", p.address, g.subject, g.text);
        }
    }
    let dump = dir.join("received.txt");
    std::fs::write(&dump, text).unwrap();
    let (mail, duplicates) = t.received();
    assert_eq!(duplicates, 0);
    // What each participant received: the start mail, the four results bulletins, Italy's
    // broadcast (all but Italy), one reply per mail sent (the master's CREATE and four
    // PROCESS!; each player's SIGNON and order or press mails), and the reminders of the
    // retreat and the adjustments (their 24-hour deadlines are within the reminder's 24
    // hours as soon as they open, before any order): Italy's retreat, every builder.
    let replies = [
        (Power::Austria, 5),
        (Power::England, 4),
        (Power::France, 5),
        (Power::Germany, 5),
        (Power::Italy, 7),
        (Power::Russia, 4),
        (Power::Turkey, 4),
    ];
    let expected = |power: Option<Power>, replies: usize| -> Vec<String> {
        let mut v: Vec<String> = [
            "S1901M Game Starting",
            "S1901M Results",
            "F1901M Results",
            "F1901R Results",
            "W1901A Results",
        ]
        .iter()
        .map(|s| format!("DIP:g - {s}"))
        .collect();
        if power != Some(Power::Italy) {
            v.push("DIP:g - F1901M Broadcast from Italy".to_string());
        }
        // No reminders: the retreat and adjustment phases are no longer than the reminder
        // window.
        v.extend(std::iter::repeat_n("Re: orders".to_string(), replies));
        v.sort();
        v
    };
    let mut roles = vec![("MASTER".to_string(), None, 5)];
    for (power, n) in replies {
        roles.push((format!("PLAYER{}", t.seats[&power] + 1), Some(power), n));
    }
    let bulletins = |who: &str| -> Vec<(String, String)> {
        mail[who]
            .iter()
            .filter(|(s, _)| s.ends_with("Results") || s.contains("Broadcast"))
            .cloned()
            .collect()
    };
    let master_bulletins = bulletins("MASTER");
    for (who, power, n) in &roles {
        // Who joined the forming game (issue 38, njudge's New Player Signon): checked apart.
        let (joins, subjects): (Vec<&str>, Vec<&str>) = mail[who]
            .iter()
            .map(|(s, _)| s.as_str())
            .partition(|s| s.contains("New Player Signon"));
        assert_new_player_signons(who, power.is_none(), &joins);
        assert_eq!(
            subjects,
            expected(*power, *n),
            "{who} ({power:?}), see {}",
            dump.display()
        );
        // The bulletins are the master's, word for word; the broadcast too.
        let mut theirs = bulletins(who);
        let mut master = master_bulletins.clone();
        if *power == Some(Power::Italy) {
            master.retain(|(s, _)| !s.contains("Broadcast"));
        }
        theirs.sort();
        master.sort();
        assert!(
            theirs == master,
            "{who}'s bulletins differ from the master's"
        );
        for (subject, text) in &mail[who] {
            if subject.contains("Broadcast") {
                assert_eq!(
                    text.trim_end(),
                    "Message from Italy to everyone:\n\n| Italy to all: Trieste is Italian.",
                    "{who}"
                );
            }
            // Nothing refused reached anyone: not the press between the enemies (not even
            // France, named with Italy), not the refused moves; and the game goes on.
            for refused in [
                "shall we talk terms",
                "leave Trieste",
                "Fleet Trieste -> Venice",
                "Army Burgundy -> Munich",
                "GAME END",
            ] {
                assert!(
                    !text.contains(refused),
                    "{who}: {subject}: {refused:?} in:\n{text}"
                );
            }
        }
    }
    let state = dump_state(&config);
    assert!(state.contains("phase S1902M"), "{state}");
    eprintln!(
        "a formal year: {} passes, {:.1} s",
        runner.passes,
        began.elapsed().as_secs_f64()
    );
}

/// The bulletin's lines of International Relations' own kinds (international-relations.md
/// §4), in order.
fn ir_lines(text: &str) -> Vec<&str> {
    lines_of_kinds(
        text,
        &[
            "TREATY:",
            "WAR:",
            "IMMINENT WAR:",
            "PENALTY:",
            "EXPANSIONISM:",
            "VP:",
            "CLAIM:",
            "VICTORY:",
            "CONFERENCE:",
            "RELATIONS:",
        ],
    )
}

/// An International Relations game's first year by IMAP and SMTP, with `dipjudge process
/// --now` children: CREATE with the ir rules, seven players, the alliance phase A1901,
/// S1901M, F1901M (no retreat), W1901A, S1902M, the master's PROCESS! after each.
///
/// Spring 1901: an `ABROGATE` (IR-X5) and an `ENTER` (IR-X1) out of season are refused with
/// the spec's sentences; France's A Mar - Spa attacks an unowned minor centre (IR-E2, 1
/// point for 7 years) and fires the first shot (IR-E4, the S1901 row: 2 points for 10
/// years); Turkey's A Con - Bul pays IR-E2 but is exempt from the first shot in 1901.
/// Fall 1901: England's one-sided AAT proposal is taken, its `PERMIT` (IR-X12) and
/// `TRANSFER` (IR-X13) to a power it has no treaty with, and an `ENTER` with itself (IR-X2),
/// are refused; France and Germany both enter an MDT and sign it for Spring 1902; Italy's
/// A Ven - Tri, bounced by Austria, is a first aggression against a neutral major (IR-E1,
/// war); England and Germany take Norway and Denmark (IR-E2). No unit is dislodged, so the
/// ownership update and the Fall check (`VP:` lines, computed by hand) are in the F1901M
/// bulletin. Winter 1901: a treaty could be abrogated, so the Winter is held and, with
/// every build in and the delay long past, not processed early; an `ABROGATE` of a treaty
/// England does not have is refused (IR-X6); the master's PROCESS! processes it (its
/// `RELATIONS:` line describes the Spring that opens: the MDT without "from"). Spring
/// 1902: the MDT is in force (`RELATIONS:` without "from"); Germany's A Ruh - Bur into
/// France's home territory is warned (IR-W1), France permits it and it succeeds; Italy,
/// already at war, takes Trieste without a penalty (IR-E1.3). Every bulletin is the
/// master's, word for word, and every player has each phase's results once.
#[test]
fn an_international_relations_year_through_imap_and_smtp() {
    needs_servers!();
    let began = Instant::now();
    let VariantGame {
        dir,
        config,
        table: mut t,
        mut runner,
    } = variant_game("ir", "ir", "InternationalRelations rules");
    let runner = &mut runner;
    let has = |g: &Got, line: &str| assert!(g.text.contains(line), "{line:?} in:\n{}", g.text);
    let ok = |g: &Got| assert!(!g.text.contains("ERROR"), "{}", g.text);

    // The alliance phase (IR-H1): Italy proposes an MDT Austria does not answer; it is
    // never published (IR-H2), and no treaty results.
    let r = t.as_power(runner, Power::Italy, "ENTER MDT WITH Austria\n");
    has(&r, "OK ENTER MDT WITH Austria");
    let a1901 = t.play_public_phase(runner, &[], "A1901", &["ERROR"]);
    assert_eq!(
        ir_lines(&a1901.text),
        [
            "CONFERENCE: treaties in force from Spring 1901: none",
            "RELATIONS: none"
        ],
        "{}",
        a1901.text
    );
    assert!(!a1901.text.contains("Italy"), "{}", a1901.text);

    // Spring 1901: treaties are neither abrogated nor entered in a Spring.
    let r = t.as_power(runner, Power::France, "ABROGATE MDT WITH Germany\n");
    has(
        &r,
        "ERROR IR-X5: line 2: \"ABROGATE MDT WITH Germany\": treaties can only be abrogated with Winter orders.",
    );
    let r = t.as_power(runner, Power::Germany, "ENTER MDT WITH France\n");
    has(
        &r,
        "ERROR IR-X1: line 2: \"ENTER MDT WITH France\": treaties can only be entered with Fall movement orders or in an alliance conference.",
    );
    // Every move stays in the mover's own home territory or in provinces no one controls,
    // but for France's into Spain and Turkey's into Bulgaria, unowned minor centres.
    let spring: &[(Power, &str)] = &[
        (Power::Austria, "A Vie - Gal\nA Bud H\nF Tri - Alb\n"),
        (Power::England, "F Lon - NTH\nF Edi - NWG\nA Lvp - Yor\n"),
        (Power::France, "A Mar - Spa\nA Par - Pic\nF Bre - MAO\n"),
        (Power::Germany, "A Mun - Ruh\nA Ber - Pru\nF Kie - Bal\n"),
        (Power::Italy, "A Ven H\nA Rom - Apu\nF Nap - ION\n"),
        (
            Power::Russia,
            "A War - Ukr\nA Mos - Lvn\nF Sev H\nF StP - Bot\n",
        ),
        (Power::Turkey, "A Con - Bul\nF Ank - Bla\nA Smy H\n"),
    ];
    // England wants no maps; everyone else gets the judge's default (maps on).
    let r = t.as_power(runner, Power::England, "SET MAP OFF\n");
    has(&r, "OK SET MAP OFF");
    let s1901 = t.play_public_phase(runner, spring, "S1901M", &["ERROR", "WARNING"]);
    has(&s1901, "France: Army Marseilles -> Spain.");
    has(&s1901, "Turkey: Army Constantinople -> Bulgaria.");
    // The picture goes with every copy but England's; the text is the same in all (the
    // master's copy, compared by play_public_phase).
    let copy = |t: &mut Table, p: Power| {
        let i = t.seats[&p];
        t.players[i]
            .got
            .iter()
            .find(|g| g.subject.ends_with("S1901M Results"))
            .cloned()
            .unwrap()
    };
    assert!(copy(&mut t, Power::England).files.is_empty());
    let france = copy(&mut t, Power::France);
    assert_eq!(france.text, copy(&mut t, Power::England).text);
    let [(name, png)] = france.files.as_slice() else {
        panic!("one picture: {:?}", france.files.len());
    };
    assert_eq!(name, "g-S1901M.png");
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(png).expect("the picture decodes");
    assert_eq!((pixmap.width(), pixmap.height()), (1152, 1001));
    assert_eq!(s1901.files.len(), 1, "the master's copy has it too");
    // MAP by mail: the picture of a processed phase, attached to the reply.
    let r = t.as_power(runner, Power::England, "MAP g S1901M\n");
    has(&r, "OK MAP g S1901M (the picture is attached)");
    assert_eq!(r.files.len(), 1);
    assert_eq!(&r.files[0].1, png, "rendered once, the same bytes");
    assert_eq!(
        ir_lines(&s1901.text),
        [
            "PENALTY: France 1 point until Fall 1907 (IR-E2: attacked Spain).",
            "PENALTY: France 2 points until Fall 1910 (IR-E4: first shot).",
            "PENALTY: Turkey 1 point until Fall 1907 (IR-E2: attacked Bulgaria).",
            "RELATIONS: none",
        ],
        "{}",
        s1901.text
    );

    // Fall 1901. England proposes an AAT France does not answer; with no treaty it may
    // neither permit France nor transfer a centre to it, nor sign with itself.
    let r = t.as_power(
        runner,
        Power::England,
        "ENTER AAT WITH France\nPERMIT France INTO Yor\nTRANSFER Lon TO France\nENTER MDT WITH England\n",
    );
    has(&r, "OK ENTER AAT WITH France");
    has(
        &r,
        "ERROR IR-X12: line 3: \"PERMIT France INTO Yor\": England has no treaty with France; only allies can be given permission.",
    );
    has(
        &r,
        "ERROR IR-X13: line 4: \"TRANSFER Lon TO France\": England has no treaty with France.",
    );
    has(
        &r,
        "ERROR IR-X2: line 5: \"ENTER MDT WITH England\": England is not another power in this game.",
    );
    let fall: &[(Power, &str)] = &[
        (Power::Austria, "A Bud - Tri\nA Gal H\nF Alb H\n"),
        (Power::England, "F NTH - Nwy\nF NWG H\nA Yor H\n"),
        (
            Power::France,
            "ENTER MDT WITH Germany\nA Spa H\nA Pic H\nF MAO H\n",
        ),
        (
            Power::Germany,
            "ENTER MDT WITH France\nA Ruh H\nA Pru H\nF Bal - Den\n",
        ),
        (Power::Italy, "A Ven - Tri\nA Apu H\nF ION H\n"),
        (Power::Russia, "A Ukr H\nA Lvn H\nF Sev H\nF Bot H\n"),
        (Power::Turkey, "A Bul H\nF Bla H\nA Smy H\n"),
    ];
    let f1901 = t.play_public_phase(runner, fall, "F1901M", &["ERROR", "WARNING"]);
    has(&f1901, "Italy: Army Venice -> Trieste.  (*bounce*)");
    has(&f1901, "England: Fleet North Sea -> Norway.");
    has(&f1901, "Germany: Fleet Baltic Sea -> Denmark.");
    has(
        &f1901,
        "TREATY: France and Germany sign an MDT; it takes effect in Spring 1902.",
    );
    // Centres after the update: Austria 3, England 4 (Norway), France 4 (Spain), Germany
    // 4 (Denmark), Italy 3, Russia 4, Turkey 4 (Bulgaria); penalties: England 1, France
    // 1 + 2, Germany 1, Italy 2, Turkey 1.
    assert_eq!(
        ir_lines(&f1901.text),
        [
            "PENALTY: England 1 point until Fall 1907 (IR-E2: attacked Norway).",
            "PENALTY: Germany 1 point until Fall 1907 (IR-E2: attacked Denmark).",
            "PENALTY: Italy 2 points until Fall 1908 (IR-E1: attacked Austria).",
            "WAR: Italy and Austria are at war (Italy attacked Austria).",
            "TREATY: England proposed an AAT with France; France did not agree; there is no treaty.",
            "TREATY: France and Germany sign an MDT; it takes effect in Spring 1902.",
            "VP: Austria 3 centres - 0 penalty points = 3.",
            "VP: England 4 centres - 1 penalty point = 3.",
            "VP: France 4 centres - 3 penalty points = 1.",
            "VP: Germany 4 centres - 1 penalty point = 3.",
            "VP: Italy 3 centres - 2 penalty points = 1.",
            "VP: Russia 4 centres - 0 penalty points = 4.",
            "VP: Turkey 4 centres - 1 penalty point = 3.",
            "RELATIONS: Austria-Italy war, France-Germany MDT (from Spring 1902)",
        ],
        "{}",
        f1901.text
    );
    // The Fall check follows the ownership update, in the same bulletin.
    let at = |g: &Got, line: &str| {
        g.text
            .lines()
            .position(|l| l == line)
            .unwrap_or_else(|| panic!("{line:?} in:\n{}", g.text))
    };
    assert!(
        at(&f1901, "Ownership of supply centers:")
            < at(&f1901, "VP: Austria 3 centres - 0 penalty points = 3.")
    );

    // Winter 1901, the first claim window (IR-A3): Russia's 4 victory points are short of
    // the 8 it needs before 1910 (IR-X15).
    let r = t.as_power(runner, Power::Russia, "CLAIM SOLO\n");
    has(
        &r,
        "ERROR IR-X15: line 2: \"CLAIM SOLO\": Russia had 4 victory points at the end of Fall 1901; a solo claim needs 8.",
    );
    // Winter 1901: England has no treaty to abrogate; the builds.
    let r = t.as_power(runner, Power::England, "ABROGATE MDT WITH France\n");
    has(
        &r,
        "ERROR IR-X6: line 2: \"ABROGATE MDT WITH France\": England has no MDT with France.",
    );
    let winter: &[(Power, &str)] = &[
        (Power::England, "BUILD F Lon\n"),
        (Power::France, "BUILD A Par\n"),
        (Power::Germany, "BUILD F Kie\n"),
        (Power::Turkey, "BUILD A Con\n"),
    ];
    for (power, body) in winter {
        ok(&t.as_power(runner, *power, body));
    }
    // Every build is in and the delay after the last order (10 minutes) has passed: a
    // standard Winter would be processed now; this one waits, as France or Germany may
    // still abrogate the MDT.
    t.step += 15;
    runner.pass(t.now());
    t.settle();
    for p in std::iter::once(&t.master).chain(t.players.iter()) {
        for g in &p.got {
            assert!(
                !g.subject.contains("W1901A"),
                "{}: {}\n{}",
                p.address,
                g.subject,
                g.text
            );
        }
    }
    assert!(dump_state(&config).contains("phase W1901A"));
    let w1901 = t.play_public_phase(runner, &[], "W1901A", &["ERROR"]);
    for line in [
        "England: Builds a fleet in London.",
        "France: Builds an army in Paris.",
        "Germany: Builds a fleet in Kiel.",
        "Turkey: Builds an army in Constantinople.",
    ] {
        has(&w1901, line);
    }
    // The summary describes the relations of the phase that opens: Spring 1902, in which
    // the MDT is in force.
    assert_eq!(
        ir_lines(&w1901.text),
        ["RELATIONS: Austria-Italy war, France-Germany MDT"],
        "{}",
        w1901.text
    );

    // Spring 1902: the MDT is in force. Germany's move into France's home territory is
    // void unless France permits it; France does. Italy, at war with Austria, attacks again
    // at no cost.
    let r = t.as_power(runner, Power::Germany, "A Ruh - Bur\n");
    has(
        &r,
        "WARNING IR-W1: line 2: \"A Ruh - Bur\": A Ruh - Bur enters territory controlled by France; it is void unless France permits it this turn.",
    );
    let s1902_orders: &[(Power, &str)] = &[
        (Power::France, "PERMIT Germany A Ruh - Bur\n"),
        (Power::Italy, "A Ven - Tri\n"),
    ];
    let s1902 = t.play_public_phase(runner, s1902_orders, "S1902M", &["ERROR", "WARNING"]);
    has(&s1902, "Germany: Army Ruhr -> Burgundy.");
    has(&s1902, "Italy: Army Venice -> Trieste.");
    assert_eq!(
        ir_lines(&s1902.text),
        ["RELATIONS: Austria-Italy war, France-Germany MDT"],
        "{}",
        s1902.text
    );

    // Everything has arrived: no copy twice, each phase's results once to every player,
    // no late notice, and the game in Fall 1902 with the Winter's builds.
    runner.pass(t.now());
    t.settle();
    let mut text = String::new();
    for p in std::iter::once(&t.master).chain(t.players.iter()) {
        for g in &p.got {
            text += &format!("==== to {}: {}\n{}\n", p.address, g.subject, g.text);
        }
    }
    let dump = dir.join("received.txt");
    std::fs::write(&dump, text).unwrap();
    let (mail, duplicates) = t.received();
    assert_eq!(duplicates, 0);
    for (who, got) in &mail {
        let (joins, mut results): (Vec<&str>, Vec<&str>) = got
            .iter()
            .map(|(s, _)| s.as_str())
            .filter(|s| !s.starts_with("Re: "))
            .partition(|s| s.contains("New Player Signon"));
        assert_new_player_signons(who, who == "MASTER", &joins);
        results.sort();
        assert_eq!(
            results,
            [
                "DIP:g - A1901 Game Starting",
                "DIP:g - A1901 Results",
                "DIP:g - F1901M Results",
                "DIP:g - S1901M Results",
                "DIP:g - S1902M Results",
                "DIP:g - W1901A Results",
            ],
            "{who}, see {}",
            dump.display()
        );
    }
    let state = dump_state(&config);
    assert!(state.contains("phase F1902M"), "{state}");
    for unit in [
        "unit England F Lon",
        "unit France A Par",
        "unit Germany F Kie",
        "unit Turkey A Con",
        "unit Germany A Bur",
        "unit Italy A Tri",
    ] {
        assert!(state.contains(unit), "{unit} in {state}");
    }
    eprintln!(
        "an International Relations year: {} passes, {:.1} s",
        runner.passes,
        began.elapsed().as_secs_f64()
    );
}

/// A seat whose address the SMTP server refuses for good (Postfix: `550 5.1.1 ... Recipient
/// address rejected`, here for any domain but example.test) is marked "mail bouncing", and
/// its master is told once, with the server's words (issue 27). A delivery report (DSN) in
/// the judge's IMAP inbox naming a mail the judge sent to another seat marks that one too,
/// and is never answered.
#[test]
fn a_seat_the_smtp_server_refuses_is_marked_bouncing_and_its_master_told() {
    needs_servers!();
    let dir = scratch("bouncing");
    let mut table = Table::new("bouncing");
    let config = write_config(&dir, &table.judge);
    let mut runner = ProcessRunner {
        config,
        rng: None,
        kills: 0,
        passes: 0,
        calm_pass: Duration::from_millis(150),
        kills_in_a_row: 0,
    };
    let game = table.game.clone();
    table.send(&mut runner, None, &script::create(&game));
    table.send(&mut runner, Some(0), &script::join(&game, 0));
    // A player whose address no server takes: the mail comes in through Postfix (from the
    // master's login), the judge's answers to it are refused.
    let gone = format!("{}-gone@nowhere.invalid", table.tag);
    let mail = RenderedMail {
        message_id: "gone".into(),
        envelope_from: Some(gone.clone()),
        recipients: vec![table.judge.clone()],
        bytes: plain_mail(
            &gone,
            &table.judge,
            Some(&format!("{}-gone@example.test", table.tag)),
            &script::join(&game, 1),
        ),
    };
    let sent = smtp(&table.master.address).send_batch(&[mail]);
    assert_eq!(sent, vec![Ok(())]);
    table.send(
        &mut runner,
        None,
        &format!("SIGNON M{game} {}\nFORCE BEGIN\n", script::MASTER_PASSWORD),
    );
    let notice = table.wait_for(&mut runner, None, "bouncing");
    assert!(notice.text.contains(&gone), "{}", notice.text);
    assert!(notice.text.contains("550"), "{}", notice.text);
    assert!(notice.text.contains("mail bouncing"), "{}", notice.text);
    table.send(
        &mut runner,
        None,
        &format!("SIGNON M{game} {}\nLIST {game}\n", script::MASTER_PASSWORD),
    );
    table.master.poll();
    let list = table
        .master
        .got
        .iter()
        .rev()
        .find(|g| g.text.contains("OK LIST"))
        .expect("the LIST reply");
    let bouncing: Vec<&str> = list
        .text
        .lines()
        .filter(|l| l.contains("(mail bouncing)"))
        .collect();
    assert_eq!(bouncing.len(), 1, "{}", list.text);
    // A delivery report in the judge's IMAP inbox, naming a mail the judge sent to the
    // other player (whose address takes mail): that seat is marked too, the master told.
    let start_mail = table.wait_for(&mut runner, Some(0), "Game Starting");
    let first = table.players[0].address.clone();
    let report = format!(
        "From: Mail Delivery System <MAILER-DAEMON@mail.example.org>\r\n\
         To: {judge}\r\n\
         Subject: Undelivered Mail Returned to Sender\r\n\
         Message-ID: <{tag}-dsn@mail.example.org>\r\n\
         Auto-Submitted: auto-replied\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"B27\"\r\n\
         \r\n\
         --B27\r\n\
         Content-Type: text/plain; charset=us-ascii\r\n\
         \r\n\
         Your message could not be delivered.\r\n\
         \r\n\
         --B27\r\n\
         Content-Type: message/delivery-status\r\n\
         \r\n\
         Reporting-MTA: dns; mail.example.org\r\n\
         \r\n\
         Final-Recipient: rfc822; {first}\r\n\
         Action: failed\r\n\
         Status: 5.2.2\r\n\
         Diagnostic-Code: smtp; 552 5.2.2 <{first}>: mailbox full\r\n\
         \r\n\
         --B27\r\n\
         Content-Type: text/rfc822-headers\r\n\
         \r\n\
         From: {judge}\r\n\
         To: {first}\r\n\
         Subject: {subject}\r\n\
         Message-ID: <{id}>\r\n\
         \r\n\
         --B27--\r\n",
        judge = table.judge,
        tag = table.tag,
        subject = start_mail.subject,
        id = start_mail.message_id.trim_matches(|c| c == '<' || c == '>'),
    );
    let master = table.master.address.clone();
    deliver(&master, &table.judge.clone(), report.into_bytes());
    let start = Instant::now();
    loop {
        runner.pass(table.now());
        table.master.poll();
        if table
            .master
            .got
            .iter()
            .any(|g| g.subject.contains("bouncing") && g.text.contains(&first))
        {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no notice of the delivery report"
        );
    }
    // Once a seat: however many of the judge's mails to it were refused.
    table.settle();
    let notices: Vec<&Got> = table
        .master
        .got
        .iter()
        .filter(|g| g.subject.contains("bouncing"))
        .collect();
    assert_eq!(notices.len(), 2);
    assert!(
        notices.iter().any(|g| g.text.contains("mailbox full")),
        "{notices:?}"
    );
    // The report itself is never answered.
    assert!(
        table
            .players
            .iter()
            .all(|p| p.got.iter().all(|g| !g.subject.contains("Undelivered")))
    );
}
