//! The daemon's subcommands: `run`, `process`, `inject`, `demo`, `dump-state` and the
//! hidden `bench-mail` and `bench-read`; logging set-up. Reads the clock and the OS here,
//! nowhere below.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use chrono::{DateTime, Duration, TimeZone, Utc};

use dipjudge::daemon::script::{self, SHORT_GAME};
use dipjudge::daemon::{Config, Daemon, open_judge};
use dipjudge::map::Power;

#[path = "cli_bench.rs"]
mod bench;
pub use bench::{BenchMailArgs, bench_mail};
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

fn init_logging(format: LogFormat, level: tracing::Level) {
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_target(false);
    // A second initialisation (never in the binary) is harmless: ignore it.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// The daemon, waiting for another one on the same database with `wait`.
fn open_daemon(config: Config, wait: bool) -> anyhow::Result<Daemon> {
    if wait {
        Daemon::open_waiting(config, None)
    } else {
        Daemon::open(config, None)
    }
}

pub fn run(config: &Path, log_format: LogFormat, wait: bool) -> anyhow::Result<ExitCode> {
    init_logging(log_format, tracing::Level::INFO);
    let config = Config::load(config)?;
    let web = config.web.clone();
    let (database, judge) = (config.database(), config.judge.name.clone());
    let mut daemon = open_daemon(config, wait)?;
    // The web view beside the mail loop, on its own thread and database connections.
    let server = match &web {
        Some(w) => Some(dipjudge::web::spawn(database, &judge, w)?),
        None => None,
    };
    daemon.run(true)?;
    if let Some(s) = server {
        s.stop();
    }
    Ok(ExitCode::SUCCESS)
}

/// `dipjudge web`: the pages alone, from the judge's database, until SIGTERM or SIGINT.
pub fn web(config: &Path, listen: Option<std::net::SocketAddr>) -> anyhow::Result<ExitCode> {
    init_logging(LogFormat::Text, tracing::Level::INFO);
    let config = Config::load(config)?;
    let mut section = match (config.web.clone(), listen) {
        (Some(w), _) => w,
        (None, Some(listen)) => dipjudge::web::WebSection {
            listen,
            base_url: None,
            requests_per_minute: 120,
        },
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
    let now = parse_now(now)?;
    let config = Config::load(config)?;
    let mut daemon = open_daemon(config, wait)?;
    let r = daemon.process_once(now)?;
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

pub fn demo(all: bool) -> anyhow::Result<ExitCode> {
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
    println!(
        "dipjudge demo: a short game through the real pipeline (Maildir in, SQLite, Maildir out)\n"
    );
    send(&mut daemon, DEMO_MASTER, &script::create(game), now)?;
    for i in 0..7 {
        now += Duration::minutes(1);
        send(&mut daemon, &demo_player(i), &script::join(game, i), now)?;
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
    for phase in SHORT_GAME {
        for (power, body) in phase.orders {
            let Some((_, i)) = seats.iter().find(|(p, _)| p == power) else {
                continue;
            };
            now += Duration::minutes(1);
            let body = script::signed(game, *power, *i, body);
            send(&mut daemon, &demo_player(*i), &body, now)?;
        }
        now += Duration::minutes(5);
        send(&mut daemon, DEMO_MASTER, &script::process(game), now)?;
    }
    let mails = daemon
        .judge()
        .all_mail()
        .context("while reading the outbox")?;
    let mut shown: Vec<(String, String, Vec<String>)> = Vec::new();
    for m in mails {
        if !all && !m.subject.contains("Results") {
            continue;
        }
        match shown
            .iter_mut()
            .find(|(s, b, _)| *s == m.subject && *b == m.body)
        {
            Some((_, _, to)) => to.push(m.recipient),
            None => shown.push((m.subject, m.body, vec![m.recipient])),
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (subject, body, to) in &shown {
        let r = writeln!(out, "===== {subject}\n===== to {}\n{body}", to.join(", "));
        if let Err(e) = r {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(ExitCode::SUCCESS);
            }
            return Err(e).context("while writing standard output");
        }
    }
    let dump = daemon
        .judge()
        .dump_state()
        .context("while reading the game")?;
    let _ = writeln!(out, "===== final state\n{dump}");
    Ok(ExitCode::SUCCESS)
}
