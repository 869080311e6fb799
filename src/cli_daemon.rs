//! The daemon's subcommands: `run`, `process`, `inject`, `demo`, `dump-state` and the
//! hidden `bench-mail` and `bench-read`; logging set-up. Reads the clock and the OS here,
//! nowhere below.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use chrono::{DateTime, Duration, TimeZone, Utc};

use dipjudge::daemon::script;
use dipjudge::daemon::{AlreadyRunning, Config, Daemon, open_judge};
use dipjudge::map::Power;

#[path = "cli_bench.rs"]
mod bench;
pub use bench::{BenchMailArgs, bench_mail};
#[path = "cli_bench_scale.rs"]
mod bench_scale;
pub use bench_scale::{BenchScaleArgs, bench_scale};
#[path = "cli_bench_read.rs"]
mod bench_read;
pub use bench_read::{BenchReadArgs, bench_read};

/// How log lines look.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One human line per event.
    Text,
    /// One JSON object per line (for log collectors).
    Json,
}

/// Why `run` or `process` did not do its work, with the exit status that says so
/// (README.md, "Exit statuses"); `main` prints the sentence and exits with the status.
#[derive(Debug)]
pub struct Stopped {
    /// The exit status.
    pub status: u8,
    /// What happened, with its context.
    pub error: anyhow::Error,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.error)
    }
}

impl std::error::Error for Stopped {}

/// The exit statuses of `run` and `process`.
pub mod status {
    /// A failure while running that the loop cannot ride out (a restart may help).
    pub const FAILED: u8 = 1;
    /// The command line or judge.toml is wrong.
    pub const CONFIG: u8 = 2;
    /// Another dipjudge works on the database.
    pub const ALREADY_RUNNING: u8 = 3;
    /// The database cannot be used: a newer dipjudge's, not a database, or no access.
    pub const DATABASE: u8 = 4;
    /// The web view cannot listen where `[web] listen` says.
    pub const WEB: u8 = 5;
}

/// `error` as a [`Stopped`] with `status`.
pub fn stopped(status: u8) -> impl FnOnce(anyhow::Error) -> anyhow::Error {
    move |error| anyhow::Error::new(Stopped { status, error })
}

/// Whether stderr is the journal's stream (systemd sets `JOURNAL_STREAM` to the device and
/// inode of the stream it gave the service): then journald stamps the time itself and reads
/// a `<n>` prefix as the line's priority.
fn stderr_is_journal() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Some(stream) = std::env::var_os("JOURNAL_STREAM") else {
        return false;
    };
    let Some((dev, ino)) = stream.to_str().and_then(|s| s.split_once(':')) else {
        return false;
    };
    let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() else {
        return false;
    };
    let Ok(meta) = std::fs::File::from(fd).metadata() else {
        return false;
    };
    dev.parse() == Ok(meta.dev()) && ino.parse() == Ok(meta.ino())
}

/// A text line for the journal: the syslog priority of the event's level in front
/// (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug), so `journalctl -p warning` finds
/// the judge's warnings.
struct JournalPriority<F>(F);

impl<S, N, F> tracing_subscriber::fmt::FormatEvent<S, N> for JournalPriority<F>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
    F: tracing_subscriber::fmt::FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let priority = match *event.metadata().level() {
            tracing::Level::ERROR => 3,
            tracing::Level::WARN => 4,
            tracing::Level::INFO => 6,
            _ => 7,
        };
        write!(writer, "<{priority}>")?;
        self.0.format_event(ctx, writer, event)
    }
}

/// Logs to stderr: colours only on a terminal (and not with `NO_COLOR`), so a file, a pipe
/// or the journal gets plain text; for the journal no time stamp of our own and each line's
/// priority in front.
fn init_logging(format: LogFormat, level: tracing::Level) {
    use std::io::IsTerminal;
    let terminal = std::io::stderr().is_terminal();
    let colour = terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_target(false)
        .with_ansi(colour);
    // A second initialisation (never in the binary) is harmless: ignore it.
    let _ = match format {
        LogFormat::Text if !terminal && stderr_is_journal() => {
            let line = tracing_subscriber::fmt::format()
                .without_time()
                .with_target(false)
                .with_ansi(false);
            builder.event_format(JournalPriority(line)).try_init()
        }
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// The configuration at `path`, or [`status::CONFIG`]; a warning when others can read it
/// and it holds a mail password.
fn load_config(path: &Path) -> anyhow::Result<Config> {
    let config = Config::load(path).map_err(stopped(status::CONFIG))?;
    if let Some(why) = exposed_secret(path, &config) {
        tracing::warn!("{why}");
    }
    Ok(config)
}

/// A sentence when the configuration at `path` holds a mail password and users other than
/// its owner and group may read it (or anyone may change it).
pub fn exposed_secret(path: &Path, config: &Config) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    if mode & 0o002 != 0 {
        return Some(format!(
            "{} can be changed by every user of this machine (mode {:o}): chmod o-w {0}",
            path.display(),
            mode & 0o777
        ));
    }
    (config.holds_secret() && mode & 0o004 != 0).then(|| {
        format!(
            "{} holds a mail password and every user of this machine can read it (mode {:o}): chmod o-r {0} (640, owned by root and the judge's group, or 600)",
            path.display(),
            mode & 0o777
        )
    })
}

/// The daemon, waiting for another one on the same database with `wait`: a judge already
/// there is [`status::ALREADY_RUNNING`], any other failure [`status::DATABASE`].
fn open_daemon(config: Config, wait: bool) -> anyhow::Result<Daemon> {
    let opened = if wait {
        Daemon::open_waiting(config, None)
    } else {
        Daemon::open(config, None)
    };
    opened.map_err(|e| {
        let status = if e.downcast_ref::<AlreadyRunning>().is_some() {
            status::ALREADY_RUNNING
        } else {
            status::DATABASE
        };
        stopped(status)(e)
    })
}

/// SIGTERM and SIGINT set the daemon's stop flag (it finishes the step in hand and exits
/// 0); a second one while it stops ends the process at once with 128 + the signal.
fn stop_on_signals(
    daemon: &Daemon,
) -> anyhow::Result<std::sync::Arc<std::sync::atomic::AtomicUsize>> {
    let which = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        let code = u8::try_from(128 + sig).unwrap_or(1);
        signal_hook::flag::register_conditional_shutdown(sig, i32::from(code), daemon.stop_flag())
            .context("while installing a signal handler")?;
        signal_hook::flag::register(sig, daemon.stop_flag())
            .context("while installing a signal handler")?;
        signal_hook::flag::register_usize(
            sig,
            std::sync::Arc::clone(&which),
            usize::try_from(sig).unwrap_or(0),
        )
        .context("while installing a signal handler")?;
    }
    Ok(which)
}

/// A signal's name for the log.
fn signal_name(sig: usize) -> &'static str {
    match i32::try_from(sig) {
        Ok(signal_hook::consts::SIGTERM) => "SIGTERM",
        Ok(signal_hook::consts::SIGINT) => "SIGINT",
        _ => "a signal",
    }
}

pub fn run(config: &Path, log_format: LogFormat, wait: bool) -> anyhow::Result<ExitCode> {
    init_logging(log_format, tracing::Level::INFO);
    let config = load_config(config)?;
    let web = config.web.clone();
    let (database, judge) = (config.database(), config.judge.name.clone());
    let mut daemon = open_daemon(config, wait)?;
    let signal = stop_on_signals(&daemon).map_err(stopped(status::FAILED))?;
    // The web view beside the mail loop, on its own thread and database connections.
    let server = match &web {
        Some(w) => Some(dipjudge::web::spawn(database, &judge, w).map_err(stopped(status::WEB))?),
        None => None,
    };
    daemon.run(false).map_err(stopped(status::FAILED))?;
    if let Some(s) = server {
        s.stop();
    }
    let by = signal.load(std::sync::atomic::Ordering::SeqCst);
    tracing::info!(
        "stopped by {}: every mail read was handled or left for the next start; exit 0",
        signal_name(by)
    );
    Ok(ExitCode::SUCCESS)
}

/// `dipjudge web`: the pages alone, from the judge's database, until SIGTERM or SIGINT.
pub fn web(config: &Path, listen: Option<std::net::SocketAddr>) -> anyhow::Result<ExitCode> {
    init_logging(LogFormat::Text, tracing::Level::INFO);
    let config = Config::load(config)?;
    let mut section = match (config.web.clone(), listen) {
        (Some(w), _) => w,
        (None, Some(listen)) => dipjudge::web::WebSection::on(listen),
        (None, None) => bail!("judge.toml has no [web] section: add one, or give --listen"),
    };
    if let Some(l) = listen {
        section.listen = l;
    }
    let db = config.database();
    if !db.exists() {
        bail!(
            "no database at {} yet: run the judge once first",
            db.display()
        );
    }
    // A database a newer dipjudge wrote is refused now, as `run` refuses it, rather than
    // answered "try again" page after page; the look changes nothing.
    dipjudge::store::inspect(&db)
        .with_context(|| format!("while opening {}", db.display()))
        .map_err(stopped(status::DATABASE))?;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(sig, std::sync::Arc::clone(&stop))
            .context("while installing a signal handler")?;
    }
    dipjudge::web::serve_blocking(db, &config.judge.name, &section, &stop)?;
    Ok(ExitCode::SUCCESS)
}

fn parse_now(now: Option<&str>) -> anyhow::Result<DateTime<Utc>> {
    match now {
        None => Ok(Utc::now()),
        Some(s) => DateTime::parse_from_rfc3339(s)
            .map(|t| t.with_timezone(&Utc))
            .with_context(|| format!("while reading --now {s:?} (expected RFC 3339)")),
    }
}

pub fn process(
    config: &Path,
    now: Option<&str>,
    log_format: LogFormat,
    wait: bool,
) -> anyhow::Result<ExitCode> {
    init_logging(log_format, tracing::Level::INFO);
    let now = parse_now(now).map_err(stopped(status::CONFIG))?;
    let config = load_config(config)?;
    let mut daemon = open_daemon(config, wait)?;
    let r = daemon.process_once(now).map_err(stopped(status::FAILED))?;
    // What only a failure makes is named only when it happened.
    let mut trouble = String::new();
    if r.set_aside > 0 {
        trouble.push_str(&format!(", set aside {}", r.set_aside));
    }
    if r.suspended > 0 {
        trouble.push_str(&format!(", games suspended {}", r.suspended));
    }
    println!(
        "fetched {}, applied {}, duplicates {}, silenced {}, rejected {}, failed {}, games ticked {}, sent {}, deferred {}, rate-limited {}, given up {}{trouble}",
        r.fetched,
        r.applied,
        r.duplicates,
        r.silenced,
        r.rejected,
        r.failed,
        r.ticked,
        r.sent,
        r.deferred,
        r.rate_limited,
        r.given_up
    );
    Ok(ExitCode::SUCCESS)
}

/// What `dipjudge map` draws.
pub enum MapWhat {
    /// A processed phase, or the board of the phase open now (None).
    Phase(Option<String>),
    /// The centre chart.
    Chart,
    /// Every processed phase as an animated GIF.
    All,
}

/// `dipjudge map`: a phase's picture or the centre chart into a `.svg` or `.png` file, or
/// every phase into a `.gif`.
/// `dipjudge export game`: the game's record as JSON, to `output` or standard output.
pub fn export(config: &Path, game: &str, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    let config = Config::load(config)?;
    let mut judge = open_judge(&config, Some(0))?;
    let Some(json) = judge.export(game).context("while reading the game")? else {
        anyhow::bail!("there is no game {game}");
    };
    match output {
        Some(path) => std::fs::write(path, json + "\n")
            .with_context(|| format!("while writing {}", path.display()))?,
        None => println!("{json}"),
    }
    Ok(ExitCode::SUCCESS)
}

pub fn map(
    config: &Path,
    game: &str,
    what: MapWhat,
    output: &Path,
    now: Option<&str>,
) -> anyhow::Result<ExitCode> {
    let now = match now {
        Some(t) => DateTime::parse_from_rfc3339(t)
            .with_context(|| format!("--now {t:?} is not an RFC 3339 time"))?
            .with_timezone(&Utc),
        None => Utc::now(),
    };
    let extension = output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let config = Config::load(config)?;
    let mut judge = open_judge(&config, Some(0))?;
    let (what, svg) = match what {
        MapWhat::All => {
            if extension.as_deref() != Some("gif") {
                anyhow::bail!("{} should end in .gif", output.display());
            }
            let Some((frames, gif)) = judge
                .animation(game)
                .context("while drawing the animation")?
            else {
                anyhow::bail!("{game} has no processed phase with a picture");
            };
            std::fs::write(output, &gif)
                .with_context(|| format!("while writing {}", output.display()))?;
            println!(
                "{game}: {frames} phases, {} bytes: {}",
                gif.len(),
                output.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        MapWhat::Chart => {
            let Some(svg) = judge.chart_svg(game).context("while drawing the chart")? else {
                anyhow::bail!("there is no game {game}");
            };
            ("centres".to_string(), svg)
        }
        MapWhat::Phase(phase) => {
            let phase = match phase {
                Some(p) => Some(
                    dipjudge::rules::Phase::parse(&p)
                        .with_context(|| format!("{p:?} is not a phase (like S1901M)"))?,
                ),
                None => None,
            };
            let Some(found) = judge
                .map_picture(game, phase, now)
                .context("while drawing the picture")?
            else {
                anyhow::bail!(
                    "{game} has no picture of {}: no such game, or the phase was never processed",
                    phase.map_or("its open phase".to_string(), |p| p.to_string())
                );
            };
            found
        }
    };
    let bytes = match extension.as_deref() {
        Some("svg") => svg.into_bytes(),
        Some("png") => dipjudge::picture::render_png(&svg).context("while rendering the PNG")?,
        _ => anyhow::bail!("{} should end in .svg or .png", output.display()),
    };
    std::fs::write(output, bytes).with_context(|| format!("while writing {}", output.display()))?;
    println!("{game} {what}: {}", output.display());
    Ok(ExitCode::SUCCESS)
}

pub fn dump_state(config: &Path) -> anyhow::Result<ExitCode> {
    let config = Config::load(config)?;
    let dump = open_judge(&config, Some(0))?
        .dump_state()
        .context("while dumping the games")?;
    print!("{dump}");
    Ok(ExitCode::SUCCESS)
}

/// `dipjudge unsuspend GAME`: the operator lifts a game's suspension.
pub fn unsuspend(config: &Path, game: &str) -> anyhow::Result<ExitCode> {
    let config = Config::load(config)?;
    let mut judge = open_judge(&config, Some(0))?;
    if judge
        .unsuspend(game)
        .with_context(|| format!("while lifting the suspension of {game} (it stays suspended)"))?
    {
        println!("{game} is no longer suspended; it plays on from its stored state");
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{game} is not suspended");
        Ok(ExitCode::from(1))
    }
}

/// True when `text` starts with a header block that names a sender.
fn has_headers(text: &str) -> bool {
    let mut lines = text.lines();
    let Some(first) = lines.next() else {
        return false;
    };
    let is_header = |l: &str| {
        l.split_once(':').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
    };
    if !is_header(first) {
        return false;
    }
    std::iter::once(first)
        .chain(lines)
        .take_while(|l| !l.trim().is_empty())
        .any(|l| l.to_ascii_lowercase().starts_with("from:"))
}

/// A bare body wrapped as a mail from `from` to `to`.
fn wrap_body(body: &str, from: &str, to: &str, now: DateTime<Utc>, unique: &str) -> String {
    let domain = from.rsplit_once('@').map_or("localhost", |(_, d)| d);
    let subject = body
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("orders")
        .split_whitespace()
        .next()
        .unwrap_or("orders");
    let mut text = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: {}\r\nMessage-ID: <{unique}@{domain}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n",
        now.to_rfc2822()
    );
    for line in body.lines() {
        text.push_str(line);
        text.push_str("\r\n");
    }
    text
}

/// Writes `bytes` into Maildir `dir` (`tmp/` then `new/`).
fn deliver_to_maildir(dir: &Path, bytes: &[u8], unique: &str) -> anyhow::Result<PathBuf> {
    for sub in ["tmp", "new", "cur"] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).with_context(|| format!("while creating {}", d.display()))?;
    }
    let tmp = dir.join("tmp").join(unique);
    let new = dir.join("new").join(unique);
    let mut f =
        std::fs::File::create(&tmp).with_context(|| format!("while creating {}", tmp.display()))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .with_context(|| format!("while writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &new).with_context(|| format!("while moving {}", new.display()))?;
    Ok(new)
}

/// A name unique to this process and instant that sorts in delivery order.
fn unique_name(now: DateTime<Utc>, n: u64) -> String {
    format!(
        "{}.M{:06}Q{n:06}P{}.dipjudge-inject",
        now.timestamp(),
        now.timestamp_subsec_micros(),
        std::process::id()
    )
}

pub fn inject(config: &Path, from: &str, file: &Path) -> anyhow::Result<ExitCode> {
    let config = Config::load(config)?;
    let Some(dir) = config.inbox_maildir() else {
        bail!("inject writes into a Maildir inbox, and this configuration reads IMAP");
    };
    let mut bytes = Vec::new();
    if file == Path::new("-") {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("while reading standard input")?;
    } else {
        bytes = std::fs::read(file).with_context(|| format!("while reading {}", file.display()))?;
    }
    let now = Utc::now();
    let unique = unique_name(now, 0);
    let text = String::from_utf8_lossy(&bytes);
    if !has_headers(&text) {
        bytes = wrap_body(&text, from, &config.judge.address, now, &unique).into_bytes();
    }
    let path = deliver_to_maildir(&dir, &bytes, &unique)?;
    println!("{}", path.display());
    Ok(ExitCode::SUCCESS)
}

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The demo's players.
fn demo_player(i: usize) -> String {
    format!("player{}@example.test", i + 1)
}

const DEMO_MASTER: &str = "master@example.test";

/// What each power orders in the demo's Spring 1901: every unit, so the results read as a
/// game (two bounces, in Galicia and the Black Sea), and England writes to France.
const DEMO_ORDERS: &[(Power, &str)] = &[
    (Power::Austria, "A Vie - Gal\nA Bud - Ser\nF Tri - Alb\n"),
    (
        Power::England,
        "F Lon - NTH\nF Edi - NWG\nA Lvp - Yor\nPRESS TO F\nShall we split the Channel?\nENDPRESS\n",
    ),
    (Power::France, "A Par - Bur\nA Mar - Spa\nF Bre - MAO\n"),
    (Power::Germany, "A Mun - Ruh\nA Ber - Kie\nF Kie - Den\n"),
    (Power::Italy, "A Ven - Tyr\nA Rom - Ven\nF Nap - ION\n"),
    (
        Power::Russia,
        "A War - Gal\nA Mos - Ukr\nF Sev - BLA\nF StP/sc - BOT\n",
    ),
    (Power::Turkey, "F Ank - BLA\nA Con - Bul\nA Smy - Arm\n"),
];

/// The demo's printout: each mail sent to the judge, then what the judge answered and to
/// whom (read from its outbox, in the order it queued them).
struct Transcript {
    out: std::io::StdoutLock<'static>,
    /// Outbox rows already printed.
    shown: usize,
    /// Every copy in full, instead of one copy of mails that differ only in whom they name.
    all: bool,
}

impl Transcript {
    fn line(&mut self, text: &str) -> anyhow::Result<()> {
        match writeln!(self.out, "{text}") {
            Ok(()) => Ok(()),
            // A closed pipe (`dipjudge demo | head`) ends the demo quietly.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(anyhow::Error::new(e)),
            Err(e) => Err(e).context("while writing standard output"),
        }
    }

    fn body(&mut self, body: &str) -> anyhow::Result<()> {
        for l in body.trim_end().lines() {
            let indented = format!("    {l}");
            self.line(indented.trim_end())?;
        }
        self.line("")
    }

    fn heading(&mut self, text: &str) -> anyhow::Result<()> {
        self.line(&format!("── {text}"))?;
        self.line("")
    }

    /// A mail from `from` to the judge.
    fn sent(&mut self, from: &str, body: &str) -> anyhow::Result<()> {
        self.line(&format!(">>> {from} writes to judge@example.test:"))?;
        self.body(body)
    }

    /// What the judge queued since the last call. Copies with the same subject and body
    /// are one entry with every recipient; without `all`, mails of one subject that differ
    /// only in the reader they name (each player's start mail) are shown once.
    fn answers(&mut self, daemon: &mut Daemon) -> anyhow::Result<()> {
        let mails = daemon
            .judge()
            .all_mail()
            .context("while reading the outbox")?;
        let new = mails.get(self.shown..).unwrap_or_default().to_vec();
        self.shown = mails.len();
        // (subject, body, recipients, whether the copies differ)
        let mut groups: Vec<(String, String, Vec<String>, bool)> = Vec::new();
        for m in new {
            match groups
                .iter_mut()
                .find(|(s, b, _, _)| *s == m.subject && (*b == m.body || !self.all))
            {
                Some((_, body, to, differ)) => {
                    *differ |= *body != m.body;
                    if !to.contains(&m.recipient) {
                        to.push(m.recipient);
                    }
                }
                None => groups.push((m.subject, m.body, vec![m.recipient], false)),
            }
        }
        for (subject, body, to, differ) in groups {
            let first = to.first().cloned().unwrap_or_default();
            let verb = if subject.starts_with("Re: ") {
                "answers"
            } else {
                "writes to"
            };
            let players = to.iter().filter(|a| *a != DEMO_MASTER).count();
            let readers = match (to.len(), to.iter().any(|a| a == DEMO_MASTER)) {
                (1, _) => first.clone(),
                (_, true) if !self.all => format!("the {players} players and the master"),
                _ => to.join(", "),
            };
            let copy = if differ {
                format!(" ({first}'s copy: each names its reader's power)")
            } else {
                String::new()
            };
            self.line(&format!(
                "<<< the judge {verb} {readers}: \"{subject}\"{copy}"
            ))?;
            self.body(&body)?;
        }
        Ok(())
    }
}

/// `dipjudge demo`: the first season of a game by mail through the real pipeline (a Maildir
/// inbox, the judge on SQLite, a Maildir outbox), printed as a conversation. The clock is
/// fixed, so every run prints the same.
pub fn demo(all: bool) -> anyhow::Result<ExitCode> {
    match play_demo(all) {
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(ExitCode::SUCCESS)
        }
        other => other,
    }
}

fn play_demo(all: bool) -> anyhow::Result<ExitCode> {
    init_logging(LogFormat::Text, tracing::Level::WARN);
    let dir = std::env::temp_dir().join(format!(
        "dipjudge-demo-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).with_context(|| format!("while creating {}", dir.display()))?;
    let scratch = Scratch(dir);
    let text = "[judge]\nname = \"DIP\"\naddress = \"judge@example.test\"\ndatabase = \"judge.db\"\nseed = 1901\npassword_cost = \"test\"\n\n[inbound]\nkind = \"maildir\"\npath = \"inbox\"\n\n[outbound]\nkind = \"maildir\"\npath = \"outbox\"\n";
    let config = Config::parse(text, &scratch.0)?;
    let delay = config.deadlines.delay_minutes;
    let inbox = config
        .inbox_maildir()
        .context("the demo configuration has a Maildir inbox")?;
    let mut daemon = Daemon::open(config, None)?;
    let game = "demo";
    let mut now = Utc
        .with_ymd_and_hms(2026, 1, 5, 12, 0, 0)
        .single()
        .context("the demo's start time")?;
    let mut n = 0u64;
    let mut send = |daemon: &mut Daemon, from: &str, body: &str, now: DateTime<Utc>| {
        n += 1;
        let unique = unique_name(now, n);
        let mail = wrap_body(body, from, "judge@example.test", now, &unique);
        deliver_to_maildir(&inbox, mail.as_bytes(), &unique)?;
        daemon.process_once(now)
    };
    let mut t = Transcript {
        out: std::io::stdout().lock(),
        shown: 0,
        all,
    };
    t.line("dipjudge demo: the first season of a game of Diplomacy by mail. Each mail below goes")?;
    t.line(
        "into the judge's Maildir inbox; the judge reads it, keeps the game in SQLite and writes",
    )?;
    t.line(
        "its answers into a Maildir outbox, exactly as `dipjudge run` does with a real mailbox.",
    )?;
    t.line("The clock is fixed at Monday 5 January 2026, 12:00 UTC.")?;
    t.line("")?;

    t.heading("A game master creates a game")?;
    let create = script::create(game);
    t.sent(DEMO_MASTER, &create)?;
    send(&mut daemon, DEMO_MASTER, &create, now)?;
    t.answers(&mut daemon)?;

    t.heading("Seven players join it; the seventh starts the game")?;
    for i in 0..7 {
        now += Duration::minutes(1);
        let join = script::join(game, i);
        let shown = all || i == 0 || i == 6;
        if shown {
            t.sent(&demo_player(i), &join)?;
        }
        send(&mut daemon, &demo_player(i), &join, now)?;
        if shown {
            t.answers(&mut daemon)?;
        } else {
            t.shown = daemon
                .judge()
                .all_mail()
                .context("while reading the outbox")?
                .len();
            if i == 1 {
                t.line("(players 2 to 6 join the same way; each is answered \"OK SIGNON ?demo\" and how")?;
                t.line(" many players have joined)")?;
                t.line("")?;
            }
        }
    }
    let dump = daemon
        .judge()
        .dump_state()
        .context("while reading the game")?;
    let seats: Vec<(Power, usize)> = dump
        .lines()
        .filter_map(|l| l.trim().strip_prefix("player "))
        .filter_map(|l| {
            let (power, addr) = l.split_once(' ')?;
            let power = Power::from_name(power)?;
            let i = (0..7).find(|i| addr.starts_with(&demo_player(*i)))?;
            Some((power, i))
        })
        .collect();
    if seats.len() != 7 {
        bail!("the game did not start with seven players:\n{dump}");
    }

    t.heading("Spring 1901: each player signs on as its power and sends its orders")?;
    for (power, orders) in DEMO_ORDERS {
        let Some((_, i)) = seats.iter().find(|(p, _)| p == power) else {
            continue;
        };
        now += Duration::minutes(1);
        let body = script::signed(game, *power, *i, orders);
        t.sent(&demo_player(*i), &body)?;
        send(&mut daemon, &demo_player(*i), &body, now)?;
        t.answers(&mut daemon)?;
    }

    t.heading(&format!(
        "Every power has ordered, so the judge does not wait for the deadline: it adjudicates {delay} minutes after the last orders"
    ))?;
    now += Duration::minutes(delay.max(0) + 1);
    daemon.process_once(now)?;
    t.answers(&mut daemon)?;

    t.heading(
        "Your turn, on the Maildir default (judge.toml: mail in ./var/inbox, out ./var/outbox)",
    )?;
    t.line(
        "    cargo run --release -- inject --from you@example.org fixtures/mail/samples/create.eml",
    )?;
    t.line("    cargo run --release -- process")?;
    t.line("    cat var/outbox/new/*")?;
    t.line("")?;
    t.line(
        "(then `dipjudge run` for the daemon; README.md: a real mailbox, the web view, a service)",
    )?;
    Ok(ExitCode::SUCCESS)
}
