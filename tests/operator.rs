//! The judge as an operator runs it for years: `dipjudge check`, `backup` while `run`
//! handles a stream of mails and the restore drill after it, the database's file
//! permissions, a database newer than the binary, every way `run` stops and its exit
//! status, logs fit for a file or the journal, the systemd unit, a clone that stands alone.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use dipjudge::store::{SCHEMA_VERSION, Store};

use crate::scratch::{Scratch, plain_mail};

fn dipjudge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(args)
        .output()
        .expect("run dipjudge")
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `dipjudge <cmd> --config <scratch's judge.toml> <args>`.
pub(crate) fn on(scratch: &Scratch, cmd: &str, args: &[&str]) -> Output {
    let config = scratch.config_path();
    let mut all = vec![cmd, "--config", config.to_str().unwrap()];
    all.extend_from_slice(args);
    dipjudge(&all)
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The games a database holds, read directly (no migration, no lock).
fn games_in(db: &Path) -> Vec<String> {
    let conn = read_only(db);
    let mut st = conn
        .prepare("SELECT name FROM games ORDER BY name")
        .unwrap();
    st.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<Vec<String>, _>>()
        .unwrap()
}

/// A read-only connection to `db` that waits for a writer (a running judge) rather than
/// failing.
pub(crate) fn read_only(db: &Path) -> rusqlite::Connection {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap_or_else(|e| panic!("{}: {e}", db.display()));
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    conn
}

pub(crate) fn integrity(db: &Path) -> String {
    read_only(db)
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

pub(crate) fn user_version(db: &Path) -> i64 {
    read_only(db)
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

/// `dipjudge run` on the scratch judge, its log written to `log` (a file: not a terminal).
fn spawn_run(scratch: &Scratch, log: &Path) -> Child {
    let log = std::fs::File::create(log).unwrap();
    Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(["run", "--config"])
        .arg(scratch.config_path())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("dipjudge run")
}

/// Waits (at most a minute) until `log` contains `what`.
fn wait_for_log(log: &Path, what: &str) -> String {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if text.contains(what) {
            return text;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no {what:?} in the log within a minute:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends `signal` (`TERM`, `INT`) to `child`.
fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits (at most a minute) for `child` to exit; its status code.
fn exit_code(child: &mut Child) -> Option<i32> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("dipjudge did not stop within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Kills the child when the test fails half-way.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

#[test]
fn version_names_the_database_schema() {
    let o = dipjudge(&["--version"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        out.trim(),
        format!(
            "dipjudge {} (database schema version {SCHEMA_VERSION})",
            env!("CARGO_PKG_VERSION")
        )
    );
}

/// The database, its WAL and shared memory, and the lock are the judge's user's alone,
/// whatever the umask (tests run with the usual 022).
#[test]
fn a_new_database_and_its_wal_are_readable_by_their_owner_only() {
    let scratch = Scratch::new("private-db");
    let db = scratch.database();
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let mut store = Store::open(&db).unwrap();
    store.transaction(|tx| tx.set_value("probe", "1")).unwrap();
    for file in [
        db.clone(),
        with_suffix(&db, "-wal"),
        with_suffix(&db, "-shm"),
    ] {
        assert!(file.exists(), "{}", file.display());
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
    drop(store);
    let o = on(&scratch, "process", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // The instance lock is on the database itself (issue 36): no lock file is made.
    assert!(!with_suffix(&db, ".lock").exists());
    assert_eq!(mode(&db), 0o600);
}

/// A database a newer dipjudge wrote is refused with a sentence that says what to do, and
/// left exactly as it was.
#[test]
fn a_database_newer_than_the_binary_is_refused_and_left_alone() {
    let scratch = Scratch::new("too-new");
    let db = scratch.database();
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    drop(Store::open(&db).unwrap());
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
    }
    let before = std::fs::read(&db).unwrap();
    let newer = format!(
        "the database has schema version {}, newer than this dipjudge knows ({SCHEMA_VERSION})",
        SCHEMA_VERSION + 1
    );
    for cmd in ["process", "run"] {
        let o = on(&scratch, cmd, &[]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(4), "{cmd}: {err}");
        assert!(err.contains(&newer), "{cmd}: {err}");
        assert!(
            err.contains("restore a backup made before the upgrade"),
            "{err}"
        );
    }
    // `web` alone refuses it at start too (it served "try again" on every page); a child
    // with a deadline, so a web view that does start fails the test instead of hanging it.
    let mut web = Running(
        Command::new(env!("CARGO_BIN_EXE_dipjudge"))
            .args(["web", "--listen", "127.0.0.1:0", "--config"])
            .arg(scratch.config_path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("dipjudge web"),
    );
    assert_eq!(exit_code(&mut web.0), Some(4), "web");
    let mut err = String::new();
    web.0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains(&newer), "web: {err}");
    let o = on(&scratch, "check", &["--offline"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("FAIL database") && out.contains(&newer),
        "{out}"
    );
    assert_eq!(std::fs::read(&db).unwrap(), before, "the file is untouched");
    assert_eq!(user_version(&db), SCHEMA_VERSION + 1);
}

/// Every way `run` stops before it starts has its exit status and a sentence (README.md,
/// "Exit statuses"); SIGTERM stops it cleanly with 0.
#[test]
fn every_way_run_stops_has_its_exit_status_and_sentence() {
    // 2: judge.toml is wrong.
    let scratch = Scratch::new("exit-config");
    std::fs::write(
        scratch.config_path(),
        std::fs::read_to_string(scratch.config_path())
            .unwrap()
            .replace("[daemon]", "[daemon]\npoll_intervall_secs = 1"),
    )
    .unwrap();
    let o = on(&scratch, "run", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("poll_intervall_secs"),
        "{}",
        text(&o.stderr)
    );
    let o = dipjudge(&["run", "--config", "/no/such/judge.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("while reading the configuration /no/such/judge.toml"));

    // 3: another judge holds the database.
    let scratch = Scratch::new("exit-lock");
    std::fs::create_dir_all(scratch.database().parent().unwrap()).unwrap();
    let lock = dipjudge::daemon::InstanceLock::take(&scratch.database(), false).unwrap();
    let o = on(&scratch, "run", &[]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("another dipjudge (run or process) is already working on"));
    drop(lock);

    // 5: the web view cannot listen.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let scratch = Scratch::new("exit-web");
    let config = std::fs::read_to_string(scratch.config_path()).unwrap()
        + &format!("\n[web]\nlisten = \"{}\"\n", taken.local_addr().unwrap());
    std::fs::write(scratch.config_path(), config).unwrap();
    let o = on(&scratch, "run", &[]);
    assert_eq!(o.status.code(), Some(5), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("for the web view"),
        "{}",
        text(&o.stderr)
    );

    // 0: SIGTERM (systemctl stop) and SIGINT (Ctrl-C) after the step in hand.
    for (sig, name) in [("TERM", "SIGTERM"), ("INT", "SIGINT")] {
        let scratch = Scratch::new("exit-signal");
        let log = scratch.dir.join("run.log");
        let mut run = Running(spawn_run(&scratch, &log));
        wait_for_log(&log, "daemon started");
        signal(&run.0, sig);
        assert_eq!(exit_code(&mut run.0), Some(0), "{name}");
        let log = std::fs::read_to_string(&log).unwrap();
        assert!(log.contains(&format!("stopped by {name}")), "{log}");
    }
}

/// Logs written to a file are plain text with a time stamp; to the journal (systemd names
/// its stream in JOURNAL_STREAM) they carry the priority journald reads and no time stamp
/// of their own. Never a colour code off a terminal.
#[test]
fn logs_off_a_terminal_are_plain_text_and_journal_lines_carry_their_priority() {
    use std::os::unix::fs::MetadataExt;
    let mut scratch = Scratch::new("logs");
    scratch.mail("someone@example.test", "logs-1", "HELP\n");
    let log = scratch.dir.join("plain.log");
    let o = Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(["process", "--config"])
        .arg(scratch.config_path())
        .stderr(std::fs::File::create(&log).unwrap())
        .env_remove("JOURNAL_STREAM")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let plain = std::fs::read_to_string(&log).unwrap();
    assert!(plain.contains("result=\"applied\""), "{plain}");
    assert!(
        !plain.contains('\u{1b}'),
        "a colour code in a file: {plain:?}"
    );
    for line in plain.lines() {
        assert!(line.starts_with("20"), "a time stamp first: {line}");
    }

    scratch.mail("someone@example.test", "logs-2", "HELP\n");
    let journal = scratch.dir.join("journal.log");
    let file = std::fs::File::create(&journal).unwrap();
    let meta = file.metadata().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_dipjudge"))
        .args(["process", "--config"])
        .arg(scratch.config_path())
        .stderr(file)
        .env("JOURNAL_STREAM", format!("{}:{}", meta.dev(), meta.ino()))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let lines = std::fs::read_to_string(&journal).unwrap();
    assert!(!lines.contains('\u{1b}'), "{lines:?}");
    assert!(
        lines
            .lines()
            .any(|l| l.starts_with("<6> INFO") && l.contains("result=\"applied\"")),
        "{lines}"
    );
    for line in lines.lines() {
        assert!(
            ["<3>", "<4>", "<6>", "<7>"]
                .iter()
                .any(|p| line.starts_with(p)),
            "a priority first: {line}"
        );
    }
}

/// `check` on the Maildir default: every line ok, nothing changed; a judge.toml that others
/// can read and that holds a password is warned about, by `check` and in `run`'s log.
#[test]
fn check_reads_the_configuration_and_the_database_without_changing_them() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new("check");
    let o = on(&scratch, "check", &[]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.contains("ok   configuration"), "{out}");
    assert!(
        out.contains("database") && out.contains("not there yet"),
        "{out}"
    );
    assert!(out.contains("ok   inbound: Maildir"), "{out}");
    assert!(out.contains("ok   outbound: Maildir"), "{out}");
    assert!(out.ends_with(", 0 warnings, 0 failed\n"), "{out}");
    assert!(!scratch.database().exists(), "check creates no database");

    let o = on(&scratch, "process", &[]);
    assert_eq!(o.status.code(), Some(0));
    let o = on(&scratch, "check", &[]);
    let out = text(&o.stdout);
    assert!(
        out.contains(&format!("schema version {SCHEMA_VERSION}, 0 games")),
        "{out}"
    );

    // A password in a file every user can read.
    let config = std::fs::read_to_string(scratch.config_path())
        .unwrap()
        .replace(
            "[outbound]\nkind = \"maildir\"\npath = \"./var/outbox\"",
            "[outbound]\nkind = \"smtp\"\nhost = \"localhost\"\nport = 1\nuser = \"judge\"\npassword = \"secret\"",
        );
    std::fs::write(scratch.config_path(), config).unwrap();
    std::fs::set_permissions(
        scratch.config_path(),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let o = on(&scratch, "check", &["--offline"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("WARN")
            && out.contains(
                "holds a mail password and every user of this machine can read it (mode 644)"
            ),
        "{out}"
    );
    assert!(
        out.contains("skip outbound: SMTP localhost:1, user judge: login not tried"),
        "{out}"
    );
    let o = on(&scratch, "process", &[]);
    assert!(
        text(&o.stderr)
            .contains("holds a mail password and every user of this machine can read it"),
        "{}",
        text(&o.stderr)
    );
    // Without --offline the login is tried, and a server that is not there fails the check.
    let o = on(&scratch, "check", &[]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAIL outbound: SMTP localhost:1"), "{out}");
    std::fs::set_permissions(
        scratch.config_path(),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    let o = on(&scratch, "check", &["--offline"]);
    assert!(!text(&o.stdout).contains("WARN"), "{}", text(&o.stdout));
}

/// `check` logs in to the real IMAP and SMTP servers and touches no mail: a mail waiting in
/// the judge's mailbox is still there, unread, after it; a wrong password fails both.
#[test]
fn check_logs_in_to_the_real_servers_without_touching_mail() {
    needs_servers!();
    use dipjudge::mail::inbound::imap::{ImapConfig, ImapInbox};
    use dipjudge::mail::{Inbox, Outbox};
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let judge = format!("check-{}-{nanos}@example.test", std::process::id());
    // A mail waiting for the judge.
    let mut smtp = dipjudge::mail::outbound::smtp::SmtpConfig::new("localhost", crate::smtp_port());
    smtp.root_certificate = Some(crate::mail_ca());
    smtp.credentials = Some((judge.clone(), crate::MAIL_PASSWORD.into()));
    let mail = dipjudge::mail::RenderedMail {
        message_id: "check".into(),
        envelope_from: Some("someone@example.test".into()),
        recipients: vec![judge.clone()],
        bytes: plain_mail("someone@example.test", "check-waiting", "orders", "HELP\n").into_bytes(),
    };
    let sent = dipjudge::mail::outbound::smtp::SmtpOutbox::new(smtp).send_batch(&[mail]);
    assert_eq!(sent, vec![Ok(())]);

    let write = |password: &str| {
        let scratch = Scratch::new("check-servers");
        let config = std::fs::read_to_string(scratch.config_path())
            .unwrap()
            .replace(
                "[inbound]\nkind = \"maildir\"\npath = \"./var/inbox\"",
                &format!(
                    "[inbound]\nkind = \"imap\"\nhost = \"localhost\"\nport = {}\ntls = \"tls\"\nuser = \"{judge}\"\npassword = \"{password}\"\nroot_certificate = \"{}\"",
                    crate::imaps_port(),
                    crate::mail_ca().display()
                ),
            )
            .replace(
                "[outbound]\nkind = \"maildir\"\npath = \"./var/outbox\"",
                &format!(
                    "[outbound]\nkind = \"smtp\"\nhost = \"localhost\"\nport = {}\ntls = \"starttls\"\nuser = \"{judge}\"\npassword = \"{password}\"\nroot_certificate = \"{}\"",
                    crate::smtp_port(),
                    crate::mail_ca().display()
                ),
            );
        std::fs::write(scratch.config_path(), config).unwrap();
        scratch
    };
    let good = write(crate::MAIL_PASSWORD);
    let o = on(&good, "check", &[]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(
        out.contains(&format!(
            "ok   inbound: IMAP localhost:{}, user {judge}, mailbox INBOX: logged in",
            crate::imaps_port()
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "ok   outbound: SMTP localhost:{}, user {judge}: logged in, nothing sent",
            crate::smtp_port()
        )),
        "{out}"
    );

    let bad = write("not-the-password");
    let o = on(&bad, "check", &[]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAIL inbound: IMAP"), "{out}");
    assert!(out.contains("FAIL outbound: SMTP"), "{out}");
    assert!(out.ends_with(", 2 failed\n"), "{out}");

    // The mail is still there, unread: the judge's own inbox hands it out.
    let mut c = ImapConfig::new(
        "localhost",
        crate::imaps_port(),
        judge.clone(),
        crate::MAIL_PASSWORD,
    );
    c.root_certificate = Some(crate::mail_ca());
    let mut inbox = ImapInbox::new(c, None);
    let start = Instant::now();
    let waiting = loop {
        let got = inbox.fetch_new().unwrap();
        if !got.is_empty() || start.elapsed() > Duration::from_secs(30) {
            break got;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(waiting.len(), 1, "the waiting mail is untouched");
}

/// The restore drill: `backup` while `run` handles a stream of mails gives copies that pass
/// `PRAGMA integrity_check` and hold every game made before the copy began; the last one,
/// put back with `restore` (refused while the judge runs), plays on.
#[test]
fn backups_while_run_handles_mail_are_sound_and_a_restored_copy_plays_on() {
    let scratch = Scratch::with_daemon_settings("backup", "poll_interval_secs = 1");
    // 80 games by 80 addresses that never confirmed one: past the judge-wide ceiling on
    // such games (issue 37, tests/attacks.rs), so this judge raises it.
    scratch.set_judge("unproven_games_per_day = 1000");
    let db = scratch.database();
    let log = scratch.dir.join("run.log");
    let mut run = Running(spawn_run(&scratch, &log));
    wait_for_log(&log, "daemon started");

    // The stream: a game created by mail every few milliseconds, each by its own master.
    const GAMES: usize = 80;
    let inbox = scratch.dir.join("var/inbox");
    std::fs::create_dir_all(inbox.join("tmp")).unwrap();
    let feeder = std::thread::spawn(move || {
        for i in 0..GAMES {
            let raw = plain_mail(
                &format!("master{i}@example.test"),
                &format!("stream-{i}"),
                "create",
                &format!("CREATE ?stream{i:03} password{i:03}\n"),
            );
            let name = format!("{i:08}.stream");
            std::fs::write(inbox.join("tmp").join(&name), raw).unwrap();
            std::fs::rename(inbox.join("tmp").join(&name), inbox.join("new").join(&name)).unwrap();
            std::thread::sleep(Duration::from_millis(15));
        }
    });

    let mut copies = Vec::new();
    let start = Instant::now();
    loop {
        let done = feeder.is_finished() && games_in(&db).len() == GAMES;
        let before = if db.exists() {
            games_in(&db)
        } else {
            Vec::new()
        };
        let copy = scratch.dir.join(format!("backup-{}.db", copies.len()));
        let o = on(&scratch, "backup", &[copy.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains("integrity ok"),
            "{}",
            text(&o.stdout)
        );
        assert_eq!(integrity(&copy), "ok");
        assert_eq!(mode(&copy), 0o600);
        assert!(!with_suffix(&copy, "-wal").exists(), "a backup is one file");
        let held = games_in(&copy);
        for g in &before {
            assert!(held.contains(g), "{g} was made before the copy began");
        }
        copies.push((copy, held.len()));
        if done {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the stream took too long"
        );
    }
    assert!(copies.len() >= 3, "backups during the stream: {copies:?}");
    eprintln!(
        "{} backups while run handled {GAMES} mails; games in each: {:?}",
        copies.len(),
        copies.iter().map(|(_, n)| n).collect::<Vec<_>>()
    );
    let (last, held) = copies.last().unwrap().clone();
    assert_eq!(held, GAMES, "the last copy holds every game");
    let o = on(&scratch, "backup", &[last.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "a backup never overwrites");

    // Restoring under a running judge is refused.
    let o = on(&scratch, "restore", &[last.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));

    signal(&run.0, "TERM");
    assert_eq!(exit_code(&mut run.0), Some(0));

    // The drill: put the last copy back and play on from it.
    let o = on(&scratch, "restore", &[last.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.contains("kept the database it replaces as"), "{out}");
    assert_eq!(mode(&db), 0o600);
    assert_eq!(games_in(&db).len(), GAMES);
    let mut scratch = scratch;
    for (i, p) in ["one", "two", "three", "four", "five", "six", "seven"]
        .iter()
        .enumerate()
    {
        scratch.mail(
            &format!("player-{p}@example.test"),
            &format!("join-{i}"),
            &format!("SIGNON ?stream000 password-{p}\n"),
        );
    }
    // One pass, then the judge has sent `subject`.
    let pass_sends = |scratch: &Scratch, subject: &str| {
        let o = on(scratch, "process", &[]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let subjects: Vec<String> = scratch.sent().into_iter().map(|m| m.subject).collect();
        assert!(
            subjects.iter().any(|s| s.ends_with(subject)),
            "no {subject:?} in {subjects:?}"
        );
    };
    pass_sends(&scratch, "stream000 - S1901M Game Starting");
    scratch.mail(
        "master0@example.test",
        "process-0",
        "SIGNON Mstream000 password000\nPROCESS!\n",
    );
    pass_sends(&scratch, "stream000 - S1901M Results");
    let mut buf = String::new();
    std::fs::File::open(&log)
        .unwrap()
        .read_to_string(&mut buf)
        .unwrap();
    assert!(buf.contains("stopped by SIGTERM"), "{buf}");
}

/// The systemd unit passes `systemd-analyze verify` (with its ExecStart pointed at this
/// build), keeps the usual hardening, and the service's judge.toml writes only inside the
/// unit's state directory. The test command installs systemd's tools
/// (`DIPJUDGE_SYSTEMD=1`: required there); elsewhere, without them, the check is skipped
/// with a note.
#[test]
fn the_systemd_unit_passes_systemd_analyze_verify() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let unit = std::fs::read_to_string(root.join("contrib/systemd/dipjudge.service")).unwrap();
    for key in [
        "User=dipjudge",
        "StateDirectory=dipjudge",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "CapabilityBoundingSet=\n",
        "UMask=0077",
        "RestartPreventExitStatus=2 3 4",
        "ExecStart=/usr/local/bin/dipjudge run --config /etc/dipjudge/judge.toml\n",
    ] {
        assert!(unit.contains(key), "the unit has {key:?}");
    }
    let config = dipjudge::daemon::Config::load(&root.join("contrib/systemd/judge.toml")).unwrap();
    let state = Path::new("/var/lib/dipjudge");
    assert!(config.database().starts_with(state));
    assert!(config.inbox_maildir().unwrap().starts_with(state));
    assert!(config.outbox_maildir().unwrap().starts_with(state));

    let required = std::env::var("DIPJUDGE_SYSTEMD").is_ok_and(|v| v == "1");
    let found = Command::new("systemd-analyze").arg("--version").output();
    if !found.is_ok_and(|o| o.status.success()) {
        assert!(
            !required,
            "systemd-analyze is missing (apt-get install systemd)"
        );
        eprintln!("note: systemd-analyze is not installed: the unit is not verified");
        return;
    }
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("systemd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dipjudge.service");
    std::fs::write(
        &file,
        unit.replace("/usr/local/bin/dipjudge", env!("CARGO_BIN_EXE_dipjudge")),
    )
    .unwrap();
    let o = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    let said = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "systemd-analyze verify: {said}");
    assert!(
        !said.contains("dipjudge.service"),
        "systemd-analyze verify: {said}"
    );
}

/// Every file of the repository below `dir` (not `target/`, `.git/` or the scratch `var/`).
fn repository_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "target" | ".git" | "var") {
                repository_files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// A clone stands alone: no file refers to the folder the project was once kept beside
/// (its rules are in `docs/rules/`), and every relative link of every Markdown file names a
/// file or folder of the repository.
#[test]
fn a_clone_stands_alone_no_file_refers_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .canonicalize()
        .unwrap();
    let mut files = Vec::new();
    repository_files(&root, &mut files);
    // Spelt in pieces, so this file does not name them itself.
    let outside = [["..", "/shared"].concat(), ["/work", "/shared"].concat()];
    let mut found = Vec::new();
    let mut links = 0;
    for file in &files {
        // Text only: the fixtures' databases and the pictures' PNGs are not read.
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let rel = file.strip_prefix(&root).unwrap().display().to_string();
        for o in &outside {
            if text.contains(o.as_str()) {
                found.push(format!("{rel} names {o}"));
            }
        }
        if file.extension().is_none_or(|e| e != "md") {
            continue;
        }
        for (start, _) in text.match_indices("](") {
            let rest = &text[start + 2..];
            let Some(end) = rest.find(|c: char| c == ')' || c.is_whitespace()) else {
                continue;
            };
            let target = &rest[..end];
            if target.is_empty()
                || target.starts_with('#')
                || target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            links += 1;
            let path = target.split('#').next().unwrap_or(target);
            let resolved = file.parent().unwrap().join(path).canonicalize();
            match resolved {
                Ok(p) if p.starts_with(&root) => {}
                _ => found.push(format!(
                    "{rel} links to {target}, not a file of the repository"
                )),
            }
        }
    }
    assert!(
        files.len() > 100 && links > 100,
        "{} files, {links} links",
        files.len()
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}
