//! `dipjudge bench-read`: what hostile mail costs one pass of the judge (issue 36). It
//! writes an inbox of mails made for it (`message/rfc822` parts nested deep, nested HTML,
//! big HTML pages) with an honest mail behind them, runs one pass on it in this process,
//! as `dipjudge process` does, and prints the pass's wall time, the peak resident memory
//! (the process's `VmHWM`, with what it was before the pass) and what became of each mail.
//! A benchmark, not a test: it prints numbers and checks nothing. Run it on a release build.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use chrono::Utc;

use dipjudge::daemon::{Config, Daemon};

/// What the inbox of `bench-read` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HostileKind {
    /// `message/rfc822` parts nested in one another (5,156 KiB: 160,000 deep, which
    /// overflowed the stack at every start before issue 36).
    Nest,
    /// `<div>` elements nested in one another (704 KiB took 10 to 19 s before issue 36).
    HtmlNest,
    /// A long HTML page of paragraphs, spans and small tables, as mail clients write
    /// (20 mails of 30 MiB peaked at 456 MB before issue 36).
    Html,
}

/// Arguments of `bench-read`.
#[derive(Debug, clap::Args)]
pub struct BenchReadArgs {
    /// What the inbox holds.
    #[arg(value_enum)]
    pub kind: HostileKind,
    /// How many such mails (an honest mail follows them).
    #[arg(long, default_value_t = 1)]
    pub mails: usize,
    /// The size of each mail in KiB (default: 5,156 for `nest`, 704 for `html-nest`,
    /// 30,720 for `html`).
    #[arg(long)]
    pub kib: Option<usize>,
}

/// The head of a mail from `from`; its body's content type is `content_type`.
fn head(from: &str, n: usize, content_type: &str) -> String {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: bench {n}\r\nDate: Mon, 2 Mar 2026 09:00:00 +0000\r\nMessage-ID: <bench-{n}@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: {content_type}\r\n\r\n"
    )
}

/// Writes `body` (an opening, a block repeated to make the mail `bytes` long, a closing)
/// after `head`, a block at a time: the benchmark itself holds no mail in memory.
fn write_mail(
    path: &Path,
    head: &str,
    (open, block, close): (&str, &str, &str),
    bytes: usize,
) -> anyhow::Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("while writing {}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    out.write_all(head.as_bytes())?;
    out.write_all(open.as_bytes())?;
    let fixed = head.len() + open.len() + close.len();
    for _ in 0..bytes.saturating_sub(fixed) / block.len().max(1) {
        out.write_all(block.as_bytes())?;
    }
    out.write_all(close.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Delivers mail `n` of `kind` into the Maildir `inbox` (written in `tmp/`, then moved to
/// `new/`, as a delivery agent does).
fn deliver(inbox: &Path, kind: HostileKind, n: usize, bytes: usize) -> anyhow::Result<()> {
    let from = format!("hostile{n}@example.test");
    let name = format!("{n:06}.bench");
    let tmp = inbox.join("tmp").join(&name);
    match kind {
        HostileKind::Nest => {
            let nest = "Content-Type: message/rfc822\r\n\r\n";
            let head = head(&from, n, "message/rfc822");
            write_mail(
                &tmp,
                &head,
                ("", nest, "From: inner@example.test\r\n\r\nHELP\r\n"),
                bytes,
            )?;
        }
        HostileKind::HtmlNest => {
            // Every `<div>` is closed at the end: half the bytes open, half close.
            let depth = bytes / "<div></div>".len();
            let head = head(&from, n, "text/html; charset=utf-8");
            let body = format!(
                "{}VERSION{}\r\n",
                "<div>".repeat(depth),
                "</div>".repeat(depth)
            );
            std::fs::write(&tmp, format!("{head}{body}"))
                .with_context(|| format!("while writing {}", tmp.display()))?;
        }
        HostileKind::Html => {
            let block = "<div class=\"line\"><p style=\"margin:0\"><span style=\"font-family:Calibri\">Army Paris holds</span> <b>and</b> <a href=\"https://example.test/x\">a link</a></p></div>\r\n\
                         <table><tr><td>F Bre</td><td>H</td></tr><tr><td>A Mar</td><td>S A Par</td></tr></table><br>\r\n";
            let head = head(&from, n, "text/html; charset=utf-8");
            let open = "<html><head><style>p { margin: 0 }</style></head><body>\r\n";
            write_mail(&tmp, &head, (open, block, "</body></html>\r\n"), bytes)?;
        }
    }
    std::fs::rename(&tmp, inbox.join("new").join(&name)).context("while delivering a mail")?;
    Ok(())
}

/// The subject and first line of each mail in the Maildir folder `dir`.
fn first_lines(dir: &Path) -> Vec<(String, String)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .filter_map(|raw| dipjudge::mail::Envelope::parse(&raw).ok())
        .map(|env| {
            let line = env.text.lines().next().unwrap_or_default().to_string();
            (env.subject, line)
        })
        .collect()
}

pub fn bench_read(args: &BenchReadArgs) -> anyhow::Result<ExitCode> {
    let kib = args.kib.unwrap_or(match args.kind {
        HostileKind::Nest => 5_156,
        HostileKind::HtmlNest => 704,
        HostileKind::Html => 30 * 1024,
    });
    let dir = std::env::temp_dir().join(format!(
        "dipjudge-bench-read-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    let inbox = dir.join("var/inbox");
    for sub in ["tmp", "new", "cur"] {
        std::fs::create_dir_all(inbox.join(sub))
            .with_context(|| format!("while creating {}", dir.display()))?;
    }
    let config = "[judge]\nname = \"DIP\"\naddress = \"judge@example.test\"\ndatabase = \"./var/judge.db\"\npassword_cost = \"test\"\n\n\
         [daemon]\nreply_rate_limit = 100000\n\n\
         [inbound]\nkind = \"maildir\"\npath = \"./var/inbox\"\n\n\
         [outbound]\nkind = \"maildir\"\npath = \"./var/outbox\"\n";
    let config_path = dir.join("judge.toml");
    std::fs::write(&config_path, config).context("while writing the configuration")?;
    for n in 0..args.mails {
        deliver(&inbox, args.kind, n, kib * 1024)?;
    }
    let honest = head(
        "honest@example.test",
        args.mails,
        "text/plain; charset=utf-8",
    ) + "VERSION\r\n";
    let honest_path = inbox.join("new").join(format!("{:06}.bench", args.mails));
    std::fs::write(&honest_path, honest).context("while delivering the honest mail")?;

    let (_, before) = super::bench::rss_kib(std::process::id());
    let started = Instant::now();
    let mut daemon = Daemon::open(Config::load(&config_path)?, None)?;
    let r = daemon.process_once(Utc::now())?;
    let took = started.elapsed();
    let (_, peak) = super::bench::rss_kib(std::process::id());
    drop(daemon);
    println!(
        "bench-read {:?}: {} mail(s) of {kib} KiB and an honest one, in one pass: {:.2} s, peak resident {:.1} MiB (before the pass {:.1} MiB)",
        args.kind,
        args.mails,
        took.as_secs_f64(),
        peak as f64 / 1024.0,
        before as f64 / 1024.0,
    );
    println!(
        "  fetched {}, applied {}, set aside {}, rejected {}, failed {}, sent {}",
        r.fetched, r.applied, r.set_aside, r.rejected, r.failed, r.sent
    );
    for (subject, line) in first_lines(&dir.join("var/outbox/new")) {
        println!("  sent \"{subject}\": {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(ExitCode::SUCCESS)
}
