//! The operator's subcommands: `check` (is this judge ready to run?), `backup` (a copy of
//! the live database) and `restore` (a copy put back). They read the configuration and the
//! database the way `run` does, and never touch a mail.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

use dipjudge::daemon::{AlreadyRunning, Config, InstanceLock};
use dipjudge::mail::inbound::imap::ImapInbox;
use dipjudge::mail::outbound::smtp::SmtpOutbox;
use dipjudge::store::{self, StoreError};

use crate::cli_daemon::{Stopped, exposed_secret, status, stopped};

/// How one check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Ok,
    Warning,
    Failed,
    Skipped,
}

/// The lines `check` prints, and the worst outcome.
#[derive(Default)]
struct Report {
    lines: Vec<(Outcome, String)>,
}

impl Report {
    fn add(&mut self, outcome: Outcome, line: impl Into<String>) {
        self.lines.push((outcome, line.into()));
    }

    fn count(&self, outcome: Outcome) -> usize {
        self.lines.iter().filter(|(o, _)| *o == outcome).count()
    }
}

/// Bytes as people read them.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 10 * 1024 * 1024 => format!("{} MB", b / (1024 * 1024)),
        b if b >= 1024 * 1024 => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
        b if b >= 1024 => format!("{} KB", b / 1024),
        b => format!("{b} bytes"),
    }
}

/// `n thing` or `n things`.
fn count(n: u64, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// The database's file: its schema, its games, its permissions, whether a judge runs on it.
fn check_database(config: &Config, report: &mut Report) {
    use std::os::unix::fs::PermissionsExt;
    let db = config.database();
    if !db.exists() {
        let dir = db.parent().filter(|d| !d.as_os_str().is_empty());
        let line = match dir {
            Some(d) if !d.is_dir() => format!(
                "database {}: not there yet; `run` creates it, and the folder {}",
                db.display(),
                d.display()
            ),
            _ => format!("database {}: not there yet; `run` creates it", db.display()),
        };
        report.add(Outcome::Ok, line);
        return;
    }
    match store::inspect(&db) {
        Ok(info) => {
            let schema = if info.needs_migration() {
                format!(
                    "schema version {}, which `run` migrates to {} when it starts (make a backup first: dipjudge backup FILE)",
                    info.schema,
                    store::SCHEMA_VERSION
                )
            } else {
                format!("schema version {}", info.schema)
            };
            report.add(
                Outcome::Ok,
                format!(
                    "database {}: {schema}, {}, {}",
                    db.display(),
                    count(info.games, "game"),
                    size(info.bytes)
                ),
            );
        }
        Err(e) => {
            report.add(Outcome::Failed, format!("database {}: {e}", db.display()));
            return;
        }
    }
    if let Ok(meta) = std::fs::metadata(&db) {
        let mode = meta.permissions().mode();
        if mode & 0o077 != 0 {
            report.add(
                Outcome::Warning,
                format!(
                    "database {} can be read by users other than its owner (mode {:o}): it holds every player's address; chmod 600 {0}",
                    db.display(),
                    mode & 0o777
                ),
            );
        }
    }
    match InstanceLock::take(&db, false) {
        Ok(_) => {}
        Err(e) if e.downcast_ref::<AlreadyRunning>().is_some() => report.add(
            Outcome::Ok,
            format!("a dipjudge is running on {} (run or process)", db.display()),
        ),
        Err(e) => report.add(
            Outcome::Warning,
            format!("the database's lock cannot be taken: {e:#}"),
        ),
    }
}

/// Where mail is read: the IMAP login (unless `offline`), or the Maildir.
fn check_inbound(config: &Config, offline: bool, report: &mut Report) {
    if let Some(dir) = config.inbox_maildir() {
        let new = std::fs::read_dir(dir.join("new")).map(|d| d.count());
        let line = match new {
            Ok(n) => format!(
                "inbound: Maildir {} ({} waiting)",
                dir.display(),
                count(n as u64, "mail")
            ),
            Err(_) => format!(
                "inbound: Maildir {} (not there yet; `run` creates it)",
                dir.display()
            ),
        };
        report.add(Outcome::Ok, line);
        return;
    }
    let Some(imap) = config.imap_config() else {
        return;
    };
    let what = format!(
        "inbound: IMAP {}:{}, user {}, mailbox {}",
        imap.host, imap.port, imap.username, imap.mailbox
    );
    if offline {
        report.add(
            Outcome::Skipped,
            format!("{what}: login not tried (--offline)"),
        );
        return;
    }
    let mut inbox = ImapInbox::new(imap, None);
    match inbox.connect() {
        Ok(()) => {
            inbox.disconnect();
            report.add(Outcome::Ok, format!("{what}: logged in, mailbox selected"));
        }
        Err(e) => report.add(Outcome::Failed, format!("{what}: {e}")),
    }
}

/// Where mail is sent: the SMTP login (unless `offline`), or the Maildir.
fn check_outbound(config: &Config, offline: bool, report: &mut Report) {
    if let Some(dir) = config.outbox_maildir() {
        report.add(Outcome::Ok, format!("outbound: Maildir {}", dir.display()));
        return;
    }
    let Some(smtp) = config.smtp_config() else {
        return;
    };
    let user = smtp
        .credentials
        .as_ref()
        .map_or("no login".to_string(), |(u, _)| format!("user {u}"));
    let what = format!("outbound: SMTP {}:{}, {user}", smtp.host, smtp.port);
    if offline {
        report.add(
            Outcome::Skipped,
            format!("{what}: login not tried (--offline)"),
        );
        return;
    }
    match SmtpOutbox::new(smtp).check_login() {
        Ok(()) => report.add(Outcome::Ok, format!("{what}: logged in, nothing sent")),
        Err(e) => report.add(Outcome::Failed, format!("{what}: {e}")),
    }
}

/// `dipjudge check`: reads judge.toml as `run` would, looks at the database without
/// changing it, and logs in to the mailbox and the SMTP server without reading or sending
/// a mail. Exit 0 when nothing failed (warnings allowed), 1 when a check failed, 2 when
/// judge.toml cannot be read.
pub fn check(path: &Path, offline: bool) -> anyhow::Result<ExitCode> {
    let config = Config::load(path).map_err(stopped(status::CONFIG))?;
    let mut report = Report::default();
    report.add(
        Outcome::Ok,
        format!(
            "configuration {}: judge {} <{}>",
            path.display(),
            config.judge.name,
            config.judge.address
        ),
    );
    if let Some(why) = exposed_secret(path, &config) {
        report.add(Outcome::Warning, why);
    }
    check_database(&config, &mut report);
    check_inbound(&config, offline, &mut report);
    check_outbound(&config, offline, &mut report);
    if let Some(web) = &config.web {
        report.add(Outcome::Ok, format!("web view: listens on {}", web.listen));
    }
    for (outcome, line) in &report.lines {
        let tag = match outcome {
            Outcome::Ok => "ok  ",
            Outcome::Warning => "WARN",
            Outcome::Failed => "FAIL",
            Outcome::Skipped => "skip",
        };
        println!("{tag} {line}");
    }
    let failed = report.count(Outcome::Failed);
    println!(
        "{} ok, {} warning{}, {} failed",
        report.count(Outcome::Ok),
        report.count(Outcome::Warning),
        if report.count(Outcome::Warning) == 1 {
            ""
        } else {
            "s"
        },
        failed
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `dipjudge backup FILE`: a consistent copy of the configured database, made while a
/// judge may be running on it (SQLite's online backup), checked, readable by its owner
/// only.
pub fn backup(config: &Path, file: &Path) -> anyhow::Result<ExitCode> {
    let config = Config::load(config).map_err(stopped(status::CONFIG))?;
    let db = config.database();
    let report = store::backup(&db, file)
        .with_context(|| format!("while copying {} to {}", db.display(), file.display()))
        .map_err(stopped(status::FAILED))?;
    println!(
        "{} -> {}: schema version {}, {}, {}, integrity {}",
        db.display(),
        file.display(),
        report.copy.schema,
        count(report.copy.games, "game"),
        size(report.copy.bytes),
        report.integrity
    );
    Ok(ExitCode::SUCCESS)
}

/// `dipjudge restore FILE`: puts a backup back as the configured database while no judge
/// runs on it. The database it replaces, with its WAL, is kept beside it under a new name.
pub fn restore(config: &Path, file: &Path) -> anyhow::Result<ExitCode> {
    let config = Config::load(config).map_err(stopped(status::CONFIG))?;
    let db = config.database();
    // No judge may be working on the database while it is replaced.
    let _lock = InstanceLock::take(&db, false).map_err(|error| {
        let status = if error.downcast_ref::<AlreadyRunning>().is_some() {
            status::ALREADY_RUNNING
        } else {
            status::FAILED
        };
        anyhow::Error::new(Stopped { status, error })
    })?;
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ").to_string();
    let report = store::restore(file, &db, &stamp)
        .with_context(|| format!("while restoring {} as {}", file.display(), db.display()))
        .map_err(|e| {
            let status = if e.chain().any(|c| {
                matches!(
                    c.downcast_ref::<StoreError>(),
                    Some(StoreError::TooNew { .. })
                )
            }) {
                status::DATABASE
            } else {
                status::FAILED
            };
            anyhow::Error::new(Stopped { status, error: e })
        })?;
    if let Some(old) = &report.replaced {
        println!("kept the database it replaces as {}", old.display());
    }
    println!(
        "{} -> {}: schema version {}, {}, {}, integrity {}{}",
        file.display(),
        db.display(),
        report.restored.schema,
        count(report.restored.games, "game"),
        size(report.restored.bytes),
        report.integrity,
        if report.restored.needs_migration() {
            format!(
                "; the next `run` migrates it to schema version {}",
                store::SCHEMA_VERSION
            )
        } else {
            String::new()
        }
    );
    Ok(ExitCode::SUCCESS)
}
