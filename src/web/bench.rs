//! `dipjudge bench-web`: how long a game page of a ten-year game takes to serve, and
//! whether serving pages slows the mail loop. A game is played by mail through the judge
//! core on a database file (seeded random legal orders and a press message a phase, each
//! phase processed at its deadline); then the game page is fetched over HTTP from the
//! server, and the judge handles mails (each a set of orders, in its own transaction) with
//! and without clients fetching pages at the same time.
//!
//! The one client here is a timing probe: it writes a fixed `GET` and reads to the end of
//! the connection; the server under test is the real one.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};

use crate::game::Status;
use crate::judge::{Incoming, Judge, JudgeConfig, PasswordCost};
use crate::map::{Map, Power};
use crate::rules::{PhaseKind, Standard};
use crate::sim::{self, Rng};
use crate::store::Store;

use super::WebSection;

/// What [`bench`] measured.
#[derive(Clone, Debug)]
pub struct WebBenchFigures {
    /// Phases the game played, and the game page's size in bytes.
    pub phases: usize,
    pub page_bytes: usize,
    /// One game page over HTTP (connection included), median and 90th percentile.
    pub page_median: Duration,
    pub page_p90: Duration,
    /// Building the page alone (one read transaction and the template).
    pub build_median: Duration,
    /// A mail handled by the judge (orders, one transaction), with no page served...
    pub mail_median_idle: Duration,
    pub mail_p90_idle: Duration,
    /// ...and while clients fetch game pages without pause.
    pub mail_median_loaded: Duration,
    pub mail_p90_loaded: Duration,
    /// Pages served during the loaded run.
    pub pages_during_load: usize,
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let i = ((samples.len().saturating_sub(1)) as f64 * p).round() as usize;
    samples.get(i).copied().unwrap_or_default()
}

const NAME: &str = "bench";

fn addr(p: Power) -> String {
    format!("{}@bench.test", p.name().to_lowercase())
}

fn mail(
    judge: &mut Judge,
    n: &mut u64,
    from: &str,
    text: &str,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    *n += 1;
    let key = format!("<bench-{n}@bench.test>");
    let msg = Incoming {
        key: key.clone(),
        message_id: Some(key),
        from: from.to_string(),
        from_name: None,
        reply_to: None,
        subject: "orders".into(),
        text: text.to_string(),
        size_capped: false,
    };
    judge.handle(&msg, now)?;
    Ok(())
}

/// The orders of `p` for the phase open in `judge`'s game, as mail text.
fn orders_text(map: &Map, judge: &mut Judge, p: Power, rng: &mut Rng) -> anyhow::Result<String> {
    let g = judge
        .game(NAME)?
        .ok_or_else(|| anyhow::anyhow!("no game"))?;
    let pos = g.position();
    let orders = match pos.phase.kind {
        PhaseKind::Movement => sim::movement_orders(map, pos, rng),
        PhaseKind::Retreat => sim::retreat_orders(pos, rng),
        PhaseKind::Adjustment => sim::adjustment_orders(map, &Standard, pos, rng),
        _ => Vec::new(),
    };
    let lines: Vec<String> = orders
        .iter()
        .filter(|o| o.power == p)
        .map(|o| o.order.display(map))
        .collect();
    Ok(format!(
        "SIGNON {}{NAME} bench-{}\n{}\n",
        p.initial(),
        p.code(),
        lines.join("\n")
    ))
}

/// Plays a game of `years` years on the database at `db`; returns the judge and the time.
fn play(db: &Path, years: u16) -> anyhow::Result<(Judge, DateTime<Utc>, usize)> {
    let map = Map::standard().map_err(|e| anyhow::anyhow!("map: {e}"))?;
    let config = JudgeConfig {
        password_cost: PasswordCost::TEST,
        ..JudgeConfig::default()
    };
    let mut judge = Judge::new(Store::open(db)?, config)?;
    let mut now = Utc
        .with_ymd_and_hms(2026, 1, 5, 9, 0, 0)
        .single()
        .ok_or_else(|| anyhow::anyhow!("time"))?;
    let mut n = 0;
    mail(
        &mut judge,
        &mut n,
        "gm@bench.test",
        &format!("CREATE ?{NAME} bench-master"),
        now,
    )?;
    for p in Power::ALL {
        mail(
            &mut judge,
            &mut n,
            &addr(p),
            &format!(
                "SIGNON ?{NAME} bench-{}\nSET PREFERENCE {}",
                p.code(),
                p.name()
            ),
            now,
        )?;
    }
    let mut rng = Rng::new(1901);
    loop {
        let Some(g) = judge.game(NAME)? else { break };
        if *g.status() != Status::Active || g.position().phase.year >= 1901 + years {
            break;
        }
        for p in Power::ALL {
            let mut text = orders_text(map, &mut judge, p, &mut rng)?;
            let to = Power::ALL
                .into_iter()
                .cycle()
                .skip_while(|q| *q != p)
                .nth(1)
                .unwrap_or(p);
            text.push_str(&format!(
                "PRESS TO {}\nA word from {p} in {}: shall we talk about the {} border?\nENDPRESS\n",
                to.initial(),
                g.position().phase,
                p.name()
            ));
            mail(&mut judge, &mut n, &addr(p), &text, now)?;
        }
        let deadline = judge
            .game(NAME)?
            .and_then(|g| g.deadline())
            .ok_or_else(|| anyhow::anyhow!("no deadline"))?;
        now = deadline;
        judge.tick(now)?;
        // Mail is not sent here: mark it so, or the outbox grows without end.
        for m in judge.queued_mail(usize::MAX)? {
            judge.mark_sent(m.id, now)?;
        }
    }
    let phases = judge.game(NAME)?.map_or(0, |g| g.turn() as usize);
    Ok((judge, now, phases))
}

/// One page over HTTP: the time from connecting to the last byte, and the bytes.
fn fetch(addr: SocketAddr, path: &str) -> anyhow::Result<(Duration, usize)> {
    let start = Instant::now();
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n"
    )?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)?;
    if !buf.starts_with(b"HTTP/1.1 200") {
        anyhow::bail!("{path}: not 200");
    }
    Ok((start.elapsed(), buf.len()))
}

/// Handles `rounds` mails of orders (each its own transaction) and times each.
fn time_mails(
    judge: &mut Judge,
    now: DateTime<Utc>,
    rounds: usize,
    n: &mut u64,
) -> anyhow::Result<Vec<Duration>> {
    let map = Map::standard().map_err(|e| anyhow::anyhow!("map: {e}"))?;
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    for i in 0..rounds {
        let p = Power::ALL
            .into_iter()
            .cycle()
            .nth(i)
            .unwrap_or(Power::England);
        let text = orders_text(map, judge, p, &mut rng)?;
        let start = Instant::now();
        mail(judge, n, &addr(p), &text, now)?;
        out.push(start.elapsed());
    }
    Ok(out)
}

/// Plays a `years`-year game in `dir`, then measures (see the module's text).
pub fn bench(dir: &Path, years: u16, rounds: usize) -> anyhow::Result<WebBenchFigures> {
    let db = dir.join("bench-web.db");
    for f in ["bench-web.db", "bench-web.db-wal", "bench-web.db-shm"] {
        let _ = std::fs::remove_file(dir.join(f));
    }
    let (mut judge, now, phases) = play(&db, years)?;
    let section = WebSection {
        requests_per_minute: u32::MAX,
        ..WebSection::on("127.0.0.1:0".parse()?)
    };
    let server = super::spawn(db.clone(), "DIP", &section)?;
    let path = format!("/game/{NAME}");
    let rounds = rounds.max(1);
    let (_, page_bytes) = fetch(server.addr(), &path)?;
    let mut pages = Vec::new();
    for _ in 0..rounds {
        pages.push(fetch(server.addr(), &path)?.0);
    }
    let mut builds = Vec::new();
    let mut reader = Store::open_read_only(&db)?;
    for _ in 0..rounds {
        let start = Instant::now();
        super::bench_page(&mut reader, "DIP", NAME)?;
        builds.push(start.elapsed());
    }
    let mut n = 1_000_000;
    let _ = time_mails(&mut judge, now, 5, &mut n)?;
    let mails = rounds * 10;
    let mut idle = time_mails(&mut judge, now, mails, &mut n)?;
    // The same with two clients fetching game pages without pause.
    let stop = Arc::new(AtomicBool::new(false));
    let served = Arc::new(AtomicUsize::new(0));
    let addr = server.addr();
    let clients: Vec<_> = (0..2)
        .map(|_| {
            let (stop, served, path) = (Arc::clone(&stop), Arc::clone(&served), path.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    if fetch(addr, &path).is_ok() {
                        served.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut loaded = time_mails(&mut judge, now, mails, &mut n)?;
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        let _ = c.join();
    }
    server.stop();
    Ok(WebBenchFigures {
        phases,
        page_bytes,
        page_median: percentile(&mut pages, 0.5),
        page_p90: percentile(&mut pages, 0.9),
        build_median: percentile(&mut builds, 0.5),
        mail_median_idle: percentile(&mut idle, 0.5),
        mail_p90_idle: percentile(&mut idle, 0.9),
        mail_median_loaded: percentile(&mut loaded, 0.5),
        mail_p90_loaded: percentile(&mut loaded, 0.9),
        pages_during_load: served.load(Ordering::Relaxed),
    })
}
