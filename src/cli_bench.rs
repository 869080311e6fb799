//! `dipjudge bench-mail`: the daemon's sustained throughput through real mail servers
//! (order mails in by SMTP → IMAP, acknowledgements out by SMTP) with many games live, and
//! the resident memory of a `dipjudge run` over a database of many games. A benchmark, not
//! a test: it prints numbers and checks nothing. Needs `scripts/mail-servers.sh start`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use chrono::Utc;

use dipjudge::daemon::{Config, Daemon};
use dipjudge::judge::Incoming;
use dipjudge::mail::outbound::smtp::{SmtpConfig, SmtpOutbox};
use dipjudge::mail::{Outbox, RenderedMail, Security};
use dipjudge::map::Power;

/// Arguments of `bench-mail`.
#[derive(Debug, clap::Args)]
pub struct BenchMailArgs {
    /// Games live during the throughput run.
    #[arg(long, default_value_t = 50)]
    pub games: usize,
    /// Order mails sent during the throughput run.
    #[arg(long, default_value_t = 2000)]
    pub messages: usize,
    /// Games in the database for the memory measurement (0: skip it).
    #[arg(long, default_value_t = 1000)]
    pub rss_games: usize,
    /// Password hashing cost: `test` (cheapest) or `default` (argon2id 4 MiB, 1 pass).
    #[arg(long, default_value = "test")]
    pub password_cost: String,
    /// Verify every password afresh (judge.toml `remember_passwords = false`).
    #[arg(long)]
    pub no_remember_passwords: bool,
    /// SMTP connections the judge's outbox uses (judge.toml `[outbound] connections`).
    #[arg(long, default_value_t = 8)]
    pub judge_connections: usize,
    /// SMTP connections the players' side sends over in parallel.
    #[arg(long, default_value_t = 8)]
    pub sender_connections: usize,
    /// The test servers' CA certificate.
    #[arg(long, default_value = "/var/tmp/dipjudge-mail/tls/ca.pem")]
    pub ca: PathBuf,
    /// The password of every test mailbox.
    #[arg(long, default_value = "dipjudge-test-password")]
    pub mail_password: String,
    /// Order mails timed one at a time, mail in to reply out, with the live daemon reading
    /// by IMAP IDLE and then by polling (0: skip it).
    #[arg(long, default_value_t = 20)]
    pub latency: usize,
}

fn stamp() -> String {
    format!("{}-{}", std::process::id(), Utc::now().timestamp_micros())
}

fn config_text(args: &BenchMailArgs, judge: &str, db: &Path, servers: bool) -> String {
    let common = format!(
        "[judge]\nname = \"DIP\"\naddress = \"{judge}\"\ndatabase = \"{}\"\nseed = 1901\npassword_cost = \"{}\"\nremember_passwords = {}\nunproven_games_per_day = 1000000\n\n[daemon]\npoll_interval_secs = 1\nreply_rate_limit = 100000\n\n",
        db.display(),
        args.password_cost,
        !args.no_remember_passwords
    );
    if servers {
        let server = |kind: &str, port: u16, tls: &str| {
            format!(
                "kind = \"{kind}\"\nhost = \"localhost\"\nport = {port}\ntls = \"{tls}\"\nuser = \"{judge}\"\npassword = \"{}\"\nroot_certificate = \"{}\"\n",
                args.mail_password,
                args.ca.display()
            )
        };
        format!(
            "{common}[inbound]\n{}\n[outbound]\n{}",
            server("imap", 1993, "tls"),
            server("smtp", 2525, "starttls"),
        ) + &format!("connections = {}\n", args.judge_connections)
    } else {
        let dir = db.parent().unwrap_or(Path::new("."));
        format!(
            "{common}[inbound]\nkind = \"maildir\"\npath = \"{}\"\n\n[outbound]\nkind = \"maildir\"\npath = \"{}\"\n",
            dir.join("inbox").display(),
            dir.join("outbox").display()
        )
    }
}

/// A game's seats: (power, address, password).
type Seats = Vec<(Power, String, String)>;

/// Creates `games` full games straight through the judge (set-up, not measured); returns
/// each game's seats as (power, address, password).
fn create_games(
    daemon: &mut Daemon,
    games: usize,
    tag: &str,
) -> anyhow::Result<Vec<(String, Seats)>> {
    let now = Utc::now();
    let mut n = 0u64;
    let mut handle = |daemon: &mut Daemon, from: &str, text: String| {
        n += 1;
        let key = format!("setup-{tag}-{n}@example.test");
        daemon
            .judge()
            .handle(
                &Incoming {
                    key: key.clone(),
                    message_id: Some(key),
                    from: from.to_string(),
                    reply_to: None,
                    from_name: None,
                    subject: "setup".into(),
                    text,
                    size_capped: false,
                },
                now,
            )
            .context("while creating the benchmark's games")
    };
    let mut out = Vec::new();
    for g in 0..games {
        let game = format!("b{g}");
        let master = format!("bench-{tag}-m{g}@example.test");
        handle(daemon, &master, format!("CREATE ?{game} gmpass-01"))?;
        for i in 0..7 {
            let p = format!("bench-{tag}-g{g}p{i}@example.test");
            handle(daemon, &p, format!("SIGNON ?{game} password{i}"))?;
        }
        let dump = daemon.judge().dump_state().context("while reading games")?;
        let mut seats = Vec::new();
        let mut in_game = false;
        for line in dump.lines() {
            if let Some(rest) = line.strip_prefix("GAME ") {
                in_game = rest.split_whitespace().next() == Some(game.as_str());
            } else if in_game && let Some(l) = line.trim().strip_prefix("player ") {
                let Some((power, addr)) = l.split_once(' ') else {
                    continue;
                };
                let Some(power) = Power::from_name(power) else {
                    continue;
                };
                let addr = addr
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                // `bench-TAG-gGpI@example.test`: I from the local part (the domain has a
                // `p` too).
                let Some(i) = addr
                    .split('@')
                    .next()
                    .and_then(|local| local.rsplit_once('p'))
                    .and_then(|(_, d)| d.parse::<usize>().ok())
                else {
                    bail!("cannot read the seat number of {addr}");
                };
                seats.push((power, addr, format!("password{i}")));
            }
        }
        if seats.len() != 7 {
            bail!("game {game} did not start:\n{dump}");
        }
        out.push((game, seats));
    }
    Ok(out)
}

fn hold_order(p: Power) -> &'static str {
    match p {
        Power::Austria => "A Vie H",
        Power::England => "F Lon H",
        Power::France => "A Par H",
        Power::Germany => "A Ber H",
        Power::Italy => "A Rom H",
        Power::Russia => "A Mos H",
        Power::Turkey => "A Con H",
    }
}

/// The resident memory of process `pid` now and at its peak (`VmRSS`, `VmHWM`), in KiB.
pub(super) fn rss_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

pub fn bench_mail(args: &BenchMailArgs) -> anyhow::Result<ExitCode> {
    let dir = std::env::temp_dir().join(format!("dipjudge-bench-{}", stamp()));
    std::fs::create_dir_all(&dir).with_context(|| format!("while creating {}", dir.display()))?;
    if args.messages > 0 {
        throughput(args, &dir.join("tp"))?;
    }
    if args.latency > 0 {
        for idle in [true, false] {
            latency(
                args,
                &dir.join(if idle { "lat-idle" } else { "lat-poll" }),
                idle,
            )?;
        }
    }
    if args.rss_games > 0 {
        memory(args, &dir.join("rss"))?;
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(ExitCode::SUCCESS)
}

fn throughput(args: &BenchMailArgs, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("while creating {}", dir.display()))?;
    let tag = stamp();
    let judge = format!("bench-{tag}-judge@example.test");
    let db = dir.join("judge.db");
    // Set-up through a Maildir judge on the same database (its mail is not measured).
    let local = Config::parse(&config_text(args, &judge, &db, false), dir)?;
    let mut setup = Daemon::open(local, None)?;
    let games = create_games(&mut setup, args.games, &tag)?;
    // Everything the set-up queued leaves now, so the clock below counts acknowledgements.
    loop {
        setup.process_once(Utc::now())?;
        if setup.judge().queued_mail(1)?.is_empty() {
            break;
        }
    }
    drop(setup);

    let mut bodies = Vec::new();
    for k in 0..args.messages {
        let Some((game, seats)) = games.get(k % games.len().max(1)) else {
            bail!("no games");
        };
        let Some((power, addr, pw)) = seats.get((k / games.len().max(1)) % 7) else {
            bail!("no seats");
        };
        let body = format!(
            "SIGNON {}{game} {pw}\r\n{}\r\n",
            power.initial(),
            hold_order(*power)
        );
        let bytes = format!(
            "From: {addr}\r\nTo: {judge}\r\nSubject: orders\r\nMessage-ID: <bench-{tag}-{k}@example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}"
        )
        .into_bytes();
        bodies.push(RenderedMail {
            message_id: format!("bench-{k}"),
            envelope_from: Some(addr.clone()),
            recipients: vec![judge.clone()],
            bytes,
        });
    }
    let config = Config::parse(&config_text(args, &judge, &db, true), dir)?;
    let mut daemon = Daemon::open(config, None)?;
    let mut smtp = SmtpConfig::new("localhost", 2525);
    smtp.security = Security::StartTls;
    smtp.root_certificate = Some(args.ca.clone());
    smtp.credentials = Some((judge.clone(), args.mail_password.clone()));
    let total = bodies.len();
    println!(
        "throughput: {} games live, {total} order mails (password cost {}, {})",
        games.len(),
        args.password_cost,
        if args.no_remember_passwords {
            "every password verified afresh"
        } else {
            "verified passwords remembered"
        }
    );
    // The players' side sends with the same parallel outbox as the judge, so the figure
    // measures the daemon and not the benchmark's own client.
    smtp.connections = args.sender_connections;
    let start = Instant::now();
    let sender = std::thread::spawn(move || {
        let mut outbox = SmtpOutbox::new(smtp);
        let mut failed = 0;
        for chunk in bodies.chunks(100) {
            failed += outbox
                .send_batch(chunk)
                .iter()
                .filter(|r| r.is_err())
                .count();
        }
        (start.elapsed(), failed)
    });
    let (mut applied, mut sent) = (0usize, 0usize);
    let limit = Duration::from_secs(600);
    while sent < total && start.elapsed() < limit {
        if sender.is_finished() && applied + sent == 0 && start.elapsed() > Duration::from_secs(30)
        {
            bail!("no mail arrived in 30 s: are the servers running (scripts/mail-servers.sh)?");
        }
        let r = daemon.process_once(Utc::now())?;
        applied += r.applied;
        sent += r.sent;
        if r.fetched == 0 && r.sent == 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let elapsed = start.elapsed();
    // A figure for refused mail measures nothing: every acknowledgement must be an OK.
    let refused = daemon
        .judge()
        .all_mail()?
        .iter()
        .filter(|m| {
            m.kind == dipjudge::store::MailKind::Replied
                && m.body.lines().any(|l| l.starts_with("ERROR"))
        })
        .count();
    if refused > 0 {
        bail!("{refused} replies report an error: the benchmark's order mails are wrong");
    }
    let (send_time, failed) = sender
        .join()
        .map_err(|_| anyhow::anyhow!("the sender thread panicked"))?;
    println!(
        "  players' SMTP: {total} mails in {:.2} s ({failed} refused)",
        send_time.as_secs_f64()
    );
    println!(
        "  daemon: {applied} handled, {sent} acknowledgements sent in {:.2} s: {:.0} messages/s",
        elapsed.as_secs_f64(),
        sent as f64 / elapsed.as_secs_f64()
    );
    let (rss, hwm) = rss_kib(std::process::id());
    println!("  this process: VmRSS {rss} KiB, VmHWM {hwm} KiB");
    Ok(())
}

/// Mail in to reply out, one order mail at a time, through the real servers with the live
/// daemon (`Daemon::run`, as `dipjudge run`): the median and the slowest of `args.latency`
/// mails. The player's side polls its IMAP mailbox every 10 ms.
fn latency(args: &BenchMailArgs, dir: &Path, idle: bool) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("while creating {}", dir.display()))?;
    let tag = stamp();
    let judge = format!("lat-{tag}-judge@example.test");
    let db = dir.join("judge.db");
    let local = Config::parse(&config_text(args, &judge, &db, false), dir)?;
    let mut setup = Daemon::open(local, None)?;
    let games = create_games(&mut setup, 1, &tag)?;
    drop(setup);
    let Some((game, seats)) = games.first() else {
        bail!("no game");
    };
    let Some((power, addr, pw)) = seats.first().cloned() else {
        bail!("no seat");
    };
    let text = config_text(args, &judge, &db, true)
        .replace("[outbound]", &format!("idle = {idle}\n\n[outbound]"));
    let config = Config::parse(&text, dir)?;
    // The daemon lives on a thread of its own (it is not Send): it hands back its stop flag.
    let (tx, rx) = std::sync::mpsc::channel();
    let live = std::thread::spawn(move || -> anyhow::Result<()> {
        let mut daemon = Daemon::open(config, None)?;
        let _ = tx.send(daemon.stop_flag());
        daemon.run(false)
    });
    let stop = rx
        .recv()
        .map_err(|_| anyhow::anyhow!("the daemon did not start"))?;
    let mut smtp = SmtpConfig::new("localhost", 2525);
    smtp.security = Security::StartTls;
    smtp.root_certificate = Some(args.ca.clone());
    smtp.credentials = Some((addr.clone(), args.mail_password.clone()));
    let mut outbox = SmtpOutbox::new(smtp);
    let mut player = {
        use dipjudge::mail::inbound::imap::{ImapConfig, ImapInbox};
        let mut c = ImapConfig::new("localhost", 1993, addr.clone(), args.mail_password.clone());
        c.security = Security::Tls;
        c.root_certificate = Some(args.ca.clone());
        ImapInbox::new(c, None)
    };
    use dipjudge::mail::Inbox;
    // The set-up's mail to this player is not timed.
    std::thread::sleep(Duration::from_secs(2));
    while !player.fetch_new()?.is_empty() {}
    let mut times = Vec::new();
    for k in 0..args.latency {
        let id = format!("lat-{tag}-{k}@example.test");
        let bytes = format!(
            "From: {addr}\r\nTo: {judge}\r\nSubject: orders {k}\r\nMessage-ID: <{id}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nSIGNON {}{game} {pw}\r\n{}\r\n",
            power.initial(),
            hold_order(power)
        )
        .into_bytes();
        let start = Instant::now();
        let sent = outbox.send_batch(&[RenderedMail {
            message_id: id.clone(),
            envelope_from: Some(addr.clone()),
            recipients: vec![judge.clone()],
            bytes,
        }]);
        if sent.iter().any(|r| r.is_err()) {
            bail!("the order mail was refused: {sent:?}");
        }
        let answered = loop {
            let got = player.fetch_new()?;
            let reply = got
                .iter()
                .any(|m| String::from_utf8_lossy(&m.bytes).contains(&id));
            for m in &got {
                player.commit(&m.id)?;
            }
            if reply {
                break start.elapsed();
            }
            if start.elapsed() > Duration::from_secs(120) {
                bail!("no reply in 120 s");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        times.push(answered);
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = live.join();
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let worst = times.last().copied().unwrap_or_default();
    println!(
        "latency ({}): {} order mails one at a time, mail in to reply out: median {:.0} ms, slowest {:.0} ms",
        if idle {
            "IMAP IDLE"
        } else {
            "polling every 1 s"
        },
        times.len(),
        median.as_secs_f64() * 1000.0,
        worst.as_secs_f64() * 1000.0
    );
    Ok(())
}

fn memory(args: &BenchMailArgs, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("while creating {}", dir.display()))?;
    let tag = stamp();
    let db = dir.join("judge.db");
    let text = config_text(args, "judge@example.test", &db, false);
    let config_path = dir.join("judge.toml");
    std::fs::write(&config_path, &text).context("while writing the configuration")?;
    let mut setup = Daemon::open(Config::parse(&text, dir)?, None)?;
    let started = Instant::now();
    create_games(&mut setup, args.rss_games, &tag)?;
    // Leave the set-up's mail sent, so the daemon below finds an empty outbox.
    setup.process_once(Utc::now())?;
    drop(setup);
    println!(
        "memory: {} games created in {:.1} s; starting `dipjudge run` on them",
        args.rss_games,
        started.elapsed().as_secs_f64()
    );
    let exe = std::env::current_exe().context("while finding the dipjudge binary")?;
    let mut child = std::process::Command::new(exe)
        .args(["run", "--config"])
        .arg(&config_path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .context("while starting dipjudge run")?;
    std::thread::sleep(Duration::from_secs(3));
    let (rss, hwm) = rss_kib(child.id());
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().context("while waiting for dipjudge run")?;
    println!(
        "  dipjudge run over {} games: VmRSS {rss} KiB ({:.1} MiB), peak VmHWM {hwm} KiB; exit {status}",
        args.rss_games,
        rss as f64 / 1024.0
    );
    Ok(())
}
