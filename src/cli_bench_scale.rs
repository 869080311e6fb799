//! `dipjudge bench-scale`: one judge with many games. Fills a database with N games by
//! mail (each created and joined by its seven players, through the judge as mail would
//! reach it), then measures what grows with N: `LIST` (the summaries read, and a whole
//! LIST mail; its first and last pages), the web view's list (its first and last pages,
//! built, and over HTTP), and the CPU of a round of one
//! order mail per seat, first in a fresh judge that never verified a password (argon2id
//! for every seat, once in the judge's life) and then in another fresh judge, as the next
//! `process` from cron is (the passwords proven before, under the judge's secret).
//! A benchmark, not a test: it prints numbers and checks nothing.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use chrono::{DateTime, TimeZone, Utc};

use dipjudge::daemon::{Config, open_judge};
use dipjudge::judge::{Incoming, Judge, game_list};
use dipjudge::map::Power;

/// Arguments of `bench-scale`.
#[derive(Debug, clap::Args)]
pub struct BenchScaleArgs {
    /// How many games, one database each (comma separated).
    #[arg(long, value_delimiter = ',', default_value = "1000,10000")]
    pub games: Vec<usize>,
    /// Password hashing cost: `default` (argon2id 4 MiB, 1 pass: a judge's default) or
    /// `test` (the cheapest: a quick run).
    #[arg(long, default_value = "default")]
    pub password_cost: String,
    /// How many times each listing is timed.
    #[arg(long, default_value_t = 50)]
    pub rounds: usize,
    /// Keep the databases in this directory, and use again one filled before (otherwise a
    /// temporary directory, removed at the end).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Time the lists only (`LIST`, the web list), not the rounds of order mails.
    #[arg(long)]
    pub lists_only: bool,
}

/// What `LIST` and the web list must take at most at any size (issue 39).
const LIST_BUDGET: Duration = Duration::from_millis(5);

const JUDGE: &str = "judge@scale.test";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 1, 4, 12, 0, 0)
        .single()
        .unwrap_or_default()
}

fn game_name(g: usize) -> String {
    format!("s{g:05}")
}

fn player(g: usize, i: usize) -> String {
    format!("g{g}p{i}@scale.test")
}

/// The CPU time this thread has used (Linux: `/proc/thread-self/schedstat`), or None.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let i = ((samples.len().saturating_sub(1)) as f64 * p).round() as usize;
    samples.get(i).copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

struct Mailer {
    n: u64,
}

impl Mailer {
    fn send(
        &mut self,
        judge: &mut Judge,
        from: &str,
        text: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        self.n += 1;
        let key = format!("<scale-{}-{}@scale.test>", std::process::id(), self.n);
        judge
            .handle(
                &Incoming {
                    key: key.clone(),
                    message_id: Some(key),
                    from: from.to_string(),
                    reply_to: None,
                    from_name: None,
                    subject: "bench".into(),
                    text: text.to_string(),
                    size_capped: false,
                },
                now,
            )
            .context("while handling a mail")?;
        Ok(())
    }
}

fn config(db: &Path, cost: &str) -> anyhow::Result<Config> {
    let dir = db.parent().unwrap_or(Path::new("."));
    let text = format!(
        "[judge]\nname = \"DIP\"\naddress = \"{JUDGE}\"\ndatabase = \"{}\"\nseed = 1901\npassword_cost = \"{cost}\"\n\n[inbound]\nkind = \"maildir\"\npath = \"{}\"\n\n[outbound]\nkind = \"maildir\"\npath = \"{}\"\n",
        db.display(),
        dir.join("inbox").display(),
        dir.join("outbox").display()
    );
    Config::parse(&text, dir)
}

/// Each game's seats: (game, [(power, address, password)]).
type Seats = Vec<(String, Vec<(Power, String, String)>)>;

/// Fills the judge with `games` games (those already there are kept) and reads their
/// seats.
fn fill(judge: &mut Judge, mailer: &mut Mailer, games: usize) -> anyhow::Result<Seats> {
    let mut out = Vec::with_capacity(games);
    let started = Instant::now();
    for g in 0..games {
        let name = game_name(g);
        if judge.game(&name)?.is_none() {
            mailer.send(
                judge,
                &format!("gm{g}@scale.test"),
                &format!("CREATE ?{name} gmpass-01"),
                t0(),
            )?;
            for i in 0..7 {
                mailer.send(
                    judge,
                    &player(g, i),
                    &format!("SIGNON ?{name} password{i}"),
                    t0(),
                )?;
            }
            if (g + 1) % 1000 == 0 {
                eprintln!(
                    "bench-scale: {} games made ({:.0} s)",
                    g + 1,
                    started.elapsed().as_secs_f64()
                );
            }
        }
        let Some(game) = judge.game(&name)? else {
            bail!("game {name} was not made");
        };
        let mut seats = Vec::with_capacity(7);
        for i in 0..7 {
            let address = player(g, i);
            let Some(power) = game.power_played_by(&address) else {
                bail!("{address} plays no power in {name}");
            };
            seats.push((power, address, format!("password{i}")));
        }
        out.push((name, seats));
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

/// What a round of one order mail per seat cost.
struct Round {
    mails: usize,
    cpu: Duration,
    wall: Duration,
    argon2: u64,
}

fn round(
    judge: &mut Judge,
    mailer: &mut Mailer,
    seats: &Seats,
    now: DateTime<Utc>,
) -> anyhow::Result<Round> {
    let argon2 = judge.argon2_checks();
    let (cpu0, wall0) = (thread_cpu(), Instant::now());
    let mut mails = 0;
    for (game, players) in seats {
        for (power, address, password) in players {
            let text = format!(
                "SIGNON {}{game} {password}\n{}\n",
                power.initial(),
                hold_order(*power)
            );
            mailer.send(judge, address, &text, now)?;
            mails += 1;
        }
    }
    let wall = wall0.elapsed();
    let cpu = match (cpu0, thread_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall,
    };
    Ok(Round {
        mails,
        cpu,
        wall,
        argon2: judge.argon2_checks() - argon2,
    })
}

fn print_round(label: &str, r: &Round) {
    let per = r.cpu.as_secs_f64() * 1000.0 / r.mails.max(1) as f64;
    println!(
        "  {label}: {} mails, CPU {:.2} s ({per:.3} ms a mail), wall {:.2} s, argon2id checks {}",
        r.mails,
        r.cpu.as_secs_f64(),
        r.wall.as_secs_f64(),
        r.argon2
    );
}

/// A GET of `path` over HTTP, to the end of the answer; its time and size.
fn fetch(addr: SocketAddr, path: &str) -> anyhow::Result<(Duration, usize)> {
    let t = Instant::now();
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(20)))?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n"
    )?;
    let mut body = Vec::new();
    s.read_to_end(&mut body)?;
    if !body.starts_with(b"HTTP/1.1 200") {
        bail!(
            "GET {path}: {}",
            String::from_utf8_lossy(body.get(..40).unwrap_or(&body))
        );
    }
    Ok((t.elapsed(), body.len()))
}

/// Times `f` `rounds` times: (median, 90th percentile).
fn timed(
    rounds: usize,
    mut f: impl FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<(Duration, Duration)> {
    let mut samples = Vec::with_capacity(rounds);
    for _ in 0..rounds.max(1) {
        let t = Instant::now();
        f()?;
        samples.push(t.elapsed());
    }
    Ok((percentile(&mut samples, 0.5), percentile(&mut samples, 0.9)))
}

/// One database of `games` games: returns the CPU of the round as the next `process` pays
/// it.
fn one(args: &BenchScaleArgs, dir: &Path, games: usize) -> anyhow::Result<Duration> {
    let db = dir.join(format!("scale-{games}.db"));
    let config = config(&db, &args.password_cost)?;
    let mut mailer = Mailer { n: 0 };
    println!(
        "{games} games ({} seats), password cost {}:",
        games * 7,
        args.password_cost
    );
    let t = Instant::now();
    let seats = {
        let mut judge = open_judge(&config, None)?;
        fill(&mut judge, &mut mailer, games)?
    };
    println!("  made (or found) in {:.1} s", t.elapsed().as_secs_f64());
    let orders_at = t0() + chrono::Duration::hours(1);
    let steady = if args.lists_only {
        Duration::ZERO
    } else {
        rounds(&config, &mut mailer, &seats, orders_at)?
    };
    lists(args, &config, &mut mailer, &seats, games, orders_at)?;
    Ok(steady)
}

/// The two rounds of one order mail per seat: returns the CPU of the second (as the next
/// `process` pays it).
fn rounds(
    config: &Config,
    mailer: &mut Mailer,
    seats: &Seats,
    orders_at: DateTime<Utc>,
) -> anyhow::Result<Duration> {
    // The first order mail of each seat: argon2id once (a seat's first mail ever).
    {
        let mut judge = open_judge(config, None)?;
        let r = round(&mut judge, mailer, seats, orders_at)?;
        print_round("round 1, a fresh judge, no password proven before", &r);
    }
    // The next `process` from cron: a new judge again; the proofs are in the database.
    let mut judge = open_judge(config, None)?;
    let r = round(&mut judge, mailer, seats, orders_at)?;
    print_round("round 2, a fresh judge (cron's next process)", &r);
    Ok(r.cpu)
}

/// Prints a list's timing, and whether its median is within [`LIST_BUDGET`].
fn print_list(what: &str, (median, p90): (Duration, Duration)) {
    let verdict = if median <= LIST_BUDGET {
        "within 5 ms"
    } else {
        "OVER 5 ms"
    };
    println!(
        "  {what}: median {}, 90th percentile {} ({verdict})",
        ms(median),
        ms(p90)
    );
}

/// Times `LIST` and the web list.
fn lists(
    args: &BenchScaleArgs,
    config: &Config,
    mailer: &mut Mailer,
    seats: &Seats,
    games: usize,
    orders_at: DateTime<Utc>,
) -> anyhow::Result<()> {
    let mut judge = open_judge(config, None)?;
    let (median, p90) = timed(args.rounds, || {
        match judge
            .store_mut()
            .read(|tx| game_list::list_answer(tx, None))?
        {
            game_list::ListAnswer::All(lines) if lines.len() != games => {
                bail!("LIST gave {} lines for {games} games", lines.len())
            }
            game_list::ListAnswer::Seeking { total, .. } if total != games as u64 => {
                bail!("LIST counted {total} games of {games}")
            }
            _ => Ok(()),
        }
    })?;
    print_list(
        "LIST, the read (the games seeking players and the count)",
        (median, p90),
    );
    let last = game_list::pages_of(games as u64, game_list::LIST_PAGE);
    let (median, p90) = timed(args.rounds, || {
        let p = judge
            .store_mut()
            .read(|tx| game_list::list_page(tx, None, last))?;
        if p.items.is_empty() {
            bail!("LIST PAGE {last} is empty");
        }
        Ok(())
    })?;
    print_list(
        &format!("LIST PAGE {last} (the last page), the read"),
        (median, p90),
    );
    let stranger = "stranger@elsewhere.test";
    let (median, p90) = timed(args.rounds, || {
        mailer.send(&mut judge, stranger, "LIST", orders_at)
    })?;
    print_list(
        "LIST by mail (a whole mail: the list, the reply cut for a stranger, queued)",
        (median, p90),
    );
    let (game, players) = seats.first().context("no games")?;
    let (power, address, password) = players.first().context("no seats")?;
    let signed = format!(
        "SIGNON {}{game} {password}\nLIST PAGE {last}",
        power.initial()
    );
    let (median, p90) = timed(args.rounds, || {
        mailer.send(&mut judge, address, &signed, orders_at)
    })?;
    print_list(
        &format!("LIST PAGE {last} by mail from a player (signed on, a whole mail)"),
        (median, p90),
    );
    for page in [1, game_list::pages_of(games as u64, game_list::WEB_PAGE)] {
        let mut size = 0;
        let (median, p90) = timed(args.rounds, || {
            size = dipjudge::web::bench_list(judge.store_mut(), "DIP", page)?;
            Ok(())
        })?;
        print_list(
            &format!("web list page {page} built ({size} bytes)"),
            (median, p90),
        );
    }
    drop(judge);
    let section = dipjudge::web::WebSection {
        requests_per_minute: u32::MAX,
        ..dipjudge::web::WebSection::on("127.0.0.1:0".parse()?)
    };
    let server = dipjudge::web::spawn(config.database(), "DIP", &section)?;
    for page in [1, game_list::pages_of(games as u64, game_list::WEB_PAGE)] {
        let mut size = 0;
        let path = format!("/?page={page}");
        let (median, p90) = timed(args.rounds, || {
            size = fetch(server.addr(), &path)?.1;
            Ok(())
        })?;
        print_list(
            &format!("web list page {page} over HTTP ({size} bytes)"),
            (median, p90),
        );
    }
    server.stop();
    Ok(())
}

pub fn bench_scale(args: &BenchScaleArgs) -> anyhow::Result<ExitCode> {
    let (dir, temporary) = match &args.dir {
        Some(d) => (d.clone(), false),
        None => (
            std::env::temp_dir().join(format!("dipjudge-scale-{}", std::process::id())),
            true,
        ),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("while creating {}", dir.display()))?;
    let mut steady = Vec::new();
    for &games in &args.games {
        steady.push((games, one(args, &dir, games)?));
    }
    if let (Some((a, ca)), Some((b, cb))) = (steady.first(), steady.last())
        && a != b
        && !args.lists_only
    {
        println!(
            "round 2 CPU at {b} games / at {a} games: {:.1}× (games {:.0}×)",
            cb.as_secs_f64() / ca.as_secs_f64().max(1e-9),
            *b as f64 / (*a).max(1) as f64
        );
    }
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(ExitCode::SUCCESS)
}
