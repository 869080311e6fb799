//! Defines dipjudge's command line: one subcommand per job (`adjudicate`, ...).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Parser, Subcommand};

use dipjudge::cases::{self, RunError};
use dipjudge::map::Map;
use dipjudge::rules::PhaseKind;

/// `dipjudge --version`: the program's version and the schema version of the databases it
/// writes (it migrates every older one and refuses a newer one).
static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} (database schema version {})",
        env!("CARGO_PKG_VERSION"),
        dipjudge::store::SCHEMA_VERSION
    )
});

#[derive(Parser)]
#[command(
    name = "dipjudge",
    version = VERSION.as_str(),
    about = "A play-by-email Diplomacy judge"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run DATC-style case files and report every case that differs.
    ///
    /// Ends with the line `N passed, M failed`. Exit status 1 when a case failed, 2 when
    /// a file cannot be read or parsed.
    Adjudicate {
        /// Case files (`.txt` or `.case`), or folders of them (read recursively).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also print the median and total adjudication time per phase kind.
        #[arg(long)]
        timing: bool,
    },
    /// Read a mail body on standard input and print what the judge understood, one line
    /// per command: `OK <normalised command>` or `ERROR <CODE>: <sentence>`.
    Parse {
        /// The game's variant (decides, e.g., whether `VOTE` lines in press are ballots).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Measure adjudication speed on movement phases from seeded random legal play.
    ///
    /// Prints the median and 90th percentile time per movement phase of 22–34 units. With
    /// `--rules`, the rule engine of that rule set on the same phases: its steps, its
    /// adjudication hooks, its summary and its end, as a game's phase is processed.
    Bench {
        /// How many movement phases to time.
        #[arg(long, default_value_t = 1000)]
        phases: usize,
        /// How many times each phase is timed.
        #[arg(long, default_value_t = 20)]
        rounds: usize,
        /// The random seed of the generated games.
        #[arg(long, default_value_t = 1901)]
        seed: u64,
        /// The rule set whose engine is timed (any name or alias of the registry, `Standard`
        /// included); without it, the standard adjudicator alone.
        #[arg(long)]
        rules: Option<String>,
    },
    /// Run the judge: read mail, process deadlines, send mail, until SIGTERM or SIGINT.
    Run {
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
        /// Log lines as human text or as JSON objects.
        #[arg(long, value_enum, default_value_t = crate::cli_daemon::LogFormat::Text)]
        log_format: crate::cli_daemon::LogFormat,
        /// If another `run` or `process` works on the database, wait for it to end instead
        /// of refusing to start.
        #[arg(long)]
        wait: bool,
    },
    /// Serve the read-only web view of the games alone (`dipjudge run` serves it beside
    /// the mail loop when judge.toml has `[web]`), until SIGTERM or SIGINT.
    Web {
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
        /// Listen here instead of `[web] listen` (e.g. 127.0.0.1:8080).
        #[arg(long)]
        listen: Option<std::net::SocketAddr>,
    },
    /// One pass: read all new mail, process due deadlines, send the outbox; then exit.
    Process {
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
        /// The time to act at (RFC 3339), instead of the clock.
        #[arg(long)]
        now: Option<String>,
        /// Log lines as human text or as JSON objects.
        #[arg(long, value_enum, default_value_t = crate::cli_daemon::LogFormat::Text)]
        log_format: crate::cli_daemon::LogFormat,
        /// If another `run` or `process` works on the database, wait for it to end instead
        /// of refusing to start.
        #[arg(long)]
        wait: bool,
    },
    /// Check that the judge is ready to run: judge.toml, the database (looked at, not
    /// changed), and a login to the mailbox and to the SMTP server (nothing read or sent).
    ///
    /// Prints one line per check (ok, WARN, FAIL, skip). Exit status 0 when nothing failed,
    /// 1 when a check failed, 2 when judge.toml cannot be read.
    Check {
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
        /// Do not log in to the mail servers.
        #[arg(long)]
        offline: bool,
    },
    /// Copy the database to FILE while the judge runs (SQLite's online backup): a
    /// consistent copy, checked with `PRAGMA integrity_check`, readable by its owner only.
    Backup {
        /// The copy to write (it must not exist).
        file: PathBuf,
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
    },
    /// Put the backup FILE back as the database (the judge must be stopped); the database
    /// it replaces is kept beside it as `<database>.replaced-<time>`.
    Restore {
        /// The backup to restore.
        file: PathBuf,
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
    },
    /// Lift the suspension of a game the judge could not read or process (after fixing the
    /// cause): it plays on from its stored state.
    Unsuspend {
        /// The game.
        game: String,
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
    },
    /// Put a mail into the configured Maildir inbox (headers are added to a bare body).
    Inject {
        /// The sender's address (used when the file has no From header).
        #[arg(long)]
        from: String,
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
        /// The mail or body, or `-` for standard input.
        file: PathBuf,
    },
    /// Play the first season of a game by mail through the real pipeline (temporary
    /// Maildirs and database, a fixed clock) and print each mail sent to the judge and what
    /// it answers, and to whom.
    Demo {
        /// Print every copy of every mail in full (the start mail names each reader's own
        /// power: by default one copy is shown).
        #[arg(long)]
        all: bool,
    },
    /// Draw a game's phase as SVG or PNG (by the output's extension): a processed phase
    /// with its orders and results, or, with no --phase, the board of the phase now open;
    /// or its centre chart (--chart), or all its processed phases as an animated GIF
    /// (--all).
    Map {
        /// The game.
        game: String,
        /// The phase (like S1901M, F1901R, W1901A); default: the phase now open.
        #[arg(long, conflicts_with_all = ["chart", "all"])]
        phase: Option<String>,
        /// The centre chart: each power's supply centres at the end of each year.
        #[arg(long, conflicts_with = "all")]
        chart: bool,
        /// Every processed phase, one frame each, as a `.gif` (what `MAP game ALL` sends).
        #[arg(long)]
        all: bool,
        /// Where to write the picture: a `.svg` or a `.png` file (a `.gif` with --all).
        #[arg(short = 'o', long)]
        output: PathBuf,
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
        /// The time written in the picture's title (RFC 3339), instead of the clock.
        #[arg(long)]
        now: Option<String>,
    },
    /// Write a game's record as JSON (docs/export.md): each phase's position, results and
    /// public press, and the centres by year; what an outsider may read by mail.
    Export {
        /// The game.
        game: String,
        /// Where to write it (default: standard output).
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
    },
    /// Measure rendering one movement phase to SVG and to PNG (median and 90th percentile).
    BenchMap {
        /// How many times the phase is rendered.
        #[arg(long, default_value_t = 50)]
        rounds: usize,
    },
    /// Measure the web view: a game page of a ten-year game over HTTP (median and 90th
    /// percentile), and the mail loop's latency with and without pages being served.
    BenchWeb {
        /// How many pages and mails are timed.
        #[arg(long, default_value_t = 100)]
        rounds: usize,
        /// The game's length in years.
        #[arg(long, default_value_t = 10)]
        years: u16,
    },
    /// Measure a judge of many games: LIST and the web list, and the CPU of a round of one
    /// order mail per seat, at each number of games (see the report it prints).
    BenchScale(crate::cli_daemon::BenchScaleArgs),
    /// Print the canonical dump of every game in the configured database.
    #[command(hide = true)]
    DumpState {
        /// The configuration file.
        #[arg(long, default_value = "judge.toml")]
        config: PathBuf,
    },
    /// Measure the daemon's throughput through real mail servers (see the report).
    #[command(hide = true)]
    BenchMail(crate::cli_daemon::BenchMailArgs),
    /// Measure one pass over hostile mail: its time and peak memory (see the report).
    #[command(hide = true)]
    BenchRead(crate::cli_daemon::BenchReadArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Adjudicate { files, timing } => adjudicate(&files, timing),
        Command::Bench {
            phases,
            rounds,
            seed,
            rules,
        } => bench(phases, rounds, seed, rules.as_deref()),
        Command::Parse { variant } => parse(variant.as_deref()),
        Command::Run {
            config,
            log_format,
            wait,
        } => crate::cli_daemon::run(&config, log_format, wait),
        Command::Web { config, listen } => crate::cli_daemon::web(&config, listen),
        Command::Process {
            config,
            now,
            log_format,
            wait,
        } => crate::cli_daemon::process(&config, now.as_deref(), log_format, wait),
        Command::Check { config, offline } => crate::cli_ops::check(&config, offline),
        Command::Backup { file, config } => crate::cli_ops::backup(&config, &file),
        Command::Restore { file, config } => crate::cli_ops::restore(&config, &file),
        Command::Unsuspend { game, config } => crate::cli_daemon::unsuspend(&config, &game),
        Command::Inject { from, config, file } => crate::cli_daemon::inject(&config, &from, &file),
        Command::Demo { all } => crate::cli_daemon::demo(all),
        Command::DumpState { config } => crate::cli_daemon::dump_state(&config),
        Command::Map {
            game,
            phase,
            chart,
            all,
            output,
            config,
            now,
        } => {
            let what = if all {
                crate::cli_daemon::MapWhat::All
            } else if chart {
                crate::cli_daemon::MapWhat::Chart
            } else {
                crate::cli_daemon::MapWhat::Phase(phase)
            };
            crate::cli_daemon::map(&config, &game, what, &output, now.as_deref())
        }
        Command::Export {
            game,
            output,
            config,
        } => crate::cli_daemon::export(&config, &game, output.as_deref()),
        Command::BenchMap { rounds } => bench_map(rounds),
        Command::BenchWeb { rounds, years } => bench_web(rounds, years),
        Command::BenchMail(args) => crate::cli_daemon::bench_mail(&args),
        Command::BenchScale(args) => crate::cli_daemon::bench_scale(&args),
        Command::BenchRead(args) => crate::cli_daemon::bench_read(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // Status 2 unless the failure names its own (`run`: README.md, "Exit statuses").
            let status = e
                .downcast_ref::<crate::cli_daemon::Stopped>()
                .map_or(2, |s| s.status);
            eprintln!("dipjudge: {e:#}");
            ExitCode::from(status)
        }
    }
}

fn map() -> anyhow::Result<&'static Map> {
    Map::standard().map_err(|e| anyhow::anyhow!("the standard map does not load: {e}"))
}

/// The case files a path names: the file itself, or every `.case` and `.txt` file under a
/// folder (sorted, recursively).
fn case_files(path: &PathBuf, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if !path.is_dir() {
        out.push(path.clone());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("while reading the folder {}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            case_files(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "txt" || e == "case") {
            out.push(p);
        }
    }
    Ok(())
}

fn adjudicate(paths: &[PathBuf], timing: bool) -> anyhow::Result<ExitCode> {
    let map = map()?;
    let registry = dipjudge::variant::Registry::default();
    let mut files = Vec::new();
    for p in paths {
        case_files(p, &mut files)?;
    }
    // Read and parse everything first: a broken file is exit 2 before any case runs.
    let mut all = Vec::new();
    for f in &files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("while reading {}", f.display()))?;
        let parsed =
            cases::parse_cases(map, &text).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
        all.push((f, parsed));
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut unreadable = false;
    let mut times: Vec<(PhaseKind, Duration)> = Vec::new();
    for (file, list) in &all {
        for case in list {
            match cases::run_case(map, &registry, case) {
                Ok(report) if report.differences.is_empty() => {
                    passed += 1;
                    times.push((report.phase_kind, report.elapsed));
                }
                Ok(report) => {
                    failed += 1;
                    println!(
                        "FAILED {} ({}:{}): {}",
                        case.name,
                        file.display(),
                        case.line,
                        report.differences.join(" | ")
                    );
                }
                Err(RunError::Unreadable(e)) => {
                    // A line only the rule set reads (a fact, a setting): the file's error.
                    unreadable = true;
                    eprintln!("dipjudge: {}: {e}", file.display());
                }
                Err(
                    e @ (RunError::NotImplemented(_)
                    | RunError::UnknownVariant(_)
                    | RunError::Inconsistent(_)
                    | RunError::Judge(_)),
                ) => {
                    failed += 1;
                    println!(
                        "FAILED {} ({}:{}): {e}",
                        case.name,
                        file.display(),
                        case.line
                    );
                }
            }
        }
    }
    if timing {
        for kind in [
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ] {
            let mut t: Vec<Duration> = times
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, d)| *d)
                .collect();
            if t.is_empty() {
                continue;
            }
            t.sort();
            let total: Duration = t.iter().sum();
            let median = t.get(t.len() / 2).copied().unwrap_or_default();
            println!(
                "timing {kind:?}: {} phases, median {:.1} µs, total {:.1} µs",
                t.len(),
                median.as_secs_f64() * 1e6,
                total.as_secs_f64() * 1e6
            );
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if unreadable {
        ExitCode::from(2)
    } else if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Times each phase once (a function of its own, so profilers can single it out): the
/// standard adjudicator alone, or a rule set's engine from the state its game has there.
#[inline(never)]
fn time_round(
    map: &Map,
    phases: &[dipjudge::sim::MovementPhase],
    engine: Option<(
        &dyn dipjudge::variant::Variant,
        &[dipjudge::variant::VariantState],
    )>,
    samples: &mut Vec<Duration>,
) {
    for (k, p) in phases.iter().enumerate() {
        match engine {
            None => {
                let start = std::time::Instant::now();
                std::hint::black_box(dipjudge::rules::adjudicate(
                    map,
                    &dipjudge::rules::Standard,
                    &p.position,
                    &p.orders,
                ));
                samples.push(start.elapsed());
            }
            Some((variant, states)) => {
                let mut state = states.get(k).cloned().unwrap_or_default();
                let game = dipjudge::variant::GameView {
                    orders: &p.orders,
                    ..dipjudge::variant::GameView::bare(map, &p.position)
                };
                let start = std::time::Instant::now();
                std::hint::black_box(dipjudge::variant::process_phase(variant, &mut state, &game));
                samples.push(start.elapsed());
            }
        }
    }
}

fn bench_web(rounds: usize, years: u16) -> anyhow::Result<ExitCode> {
    let dir = std::env::temp_dir().join(format!("dipjudge-bench-web-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let f = dipjudge::web::bench(&dir, years, rounds);
    let _ = std::fs::remove_dir_all(&dir);
    let f = f?;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "game page of a {years}-year game ({} phases, {} KB): {:.2} ms median, {:.2} ms p90 over HTTP ({rounds} rounds); built in {:.2} ms median",
        f.phases,
        f.page_bytes / 1024,
        ms(f.page_median),
        ms(f.page_p90),
        ms(f.build_median)
    );
    println!(
        "a mail of orders ({} mails each): {:.2} ms median, {:.2} ms p90 with no page served; {:.2} ms median, {:.2} ms p90 while {} pages were served",
        rounds * 10,
        ms(f.mail_median_idle),
        ms(f.mail_p90_idle),
        ms(f.mail_median_loaded),
        ms(f.mail_p90_loaded),
        f.pages_during_load
    );
    Ok(ExitCode::SUCCESS)
}

fn bench_map(rounds: usize) -> anyhow::Result<ExitCode> {
    let f = dipjudge::picture::bench(rounds.max(1));
    println!(
        "one movement phase ({} units, {} orders), {} rounds: SVG median {:.2} ms, p90 {:.2} ms ({} bytes); PNG median {:.1} ms, p90 {:.1} ms ({} bytes), of which palette and zlib median {:.1} ms, p90 {:.1} ms",
        f.units,
        f.results,
        f.rounds,
        f.svg_median.as_secs_f64() * 1000.0,
        f.svg_p90.as_secs_f64() * 1000.0,
        f.svg_bytes,
        f.png_median.as_secs_f64() * 1000.0,
        f.png_p90.as_secs_f64() * 1000.0,
        f.png_bytes,
        f.encode_median.as_secs_f64() * 1000.0,
        f.encode_p90.as_secs_f64() * 1000.0
    );
    Ok(ExitCode::SUCCESS)
}

fn bench(count: usize, rounds: usize, seed: u64, rules: Option<&str>) -> anyhow::Result<ExitCode> {
    use dipjudge::rules::Standard;
    use dipjudge::variant::{Lookup, Registry};
    let map = map()?;
    let registry = Registry::default();
    let variant = match rules.map(|name| (name, registry.by_name(name))) {
        None => None,
        Some((_, Lookup::Found(v))) => Some(v),
        Some((name, _)) => anyhow::bail!(
            "no rule set called \"{name}\" runs here; it runs {}",
            registry.implemented().join(", ")
        ),
    };

    let phases: Vec<_> = dipjudge::sim::movement_phases(map, &Standard, seed, count * 3, 12)
        .into_iter()
        .filter(|p| (22..=34).contains(&p.position.units.len()))
        .take(count)
        .collect();
    let mut samples = Vec::with_capacity(phases.len() * rounds);
    // A rule set's state as a game of these positions would have it: each phase processed
    // from the state the one before left (a new game's at each restart of the generated
    // play), worked out once before the timing.
    let states: Vec<dipjudge::variant::VariantState> = match variant {
        None => Vec::new(),
        Some(v) => {
            let mut state = v.case_state();
            let mut states = Vec::with_capacity(phases.len());
            for p in &phases {
                if p.position.phase == dipjudge::rules::Phase::FIRST {
                    state = v.case_state();
                }
                states.push(state.clone());
                let game = dipjudge::variant::GameView {
                    orders: &p.orders,
                    ..dipjudge::variant::GameView::bare(map, &p.position)
                };
                dipjudge::variant::process_phase(v, &mut state, &game);
            }
            states
        }
    };
    for _ in 0..rounds {
        time_round(
            map,
            &phases,
            variant.map(|v| (v, states.as_slice())),
            &mut samples,
        );
    }
    samples.sort();
    let at = |q: f64| {
        let i = ((samples.len() as f64 - 1.0) * q) as usize;
        samples.get(i).copied().unwrap_or_default().as_secs_f64() * 1e6
    };
    let units: usize = phases.iter().map(|p| p.position.units.len()).sum();
    let what = match variant {
        None => "the standard adjudicator".to_string(),
        Some(v) => format!("the {} engine", v.name()),
    };
    println!(
        "{what}: {} movement phases (seed {seed}, {:.1} units on average), {rounds} rounds: median {:.2} µs, p90 {:.2} µs per phase",
        phases.len(),
        units as f64 / phases.len().max(1) as f64,
        at(0.5),
        at(0.9)
    );
    Ok(ExitCode::SUCCESS)
}

fn parse(variant: Option<&str>) -> anyhow::Result<ExitCode> {
    use dipjudge::command::ParseContext;
    use dipjudge::variant::{Lookup, Registry};
    use std::io::Read;
    let registry = Registry::default();
    let grammar = match variant.map(|name| (name, registry.by_name(name))) {
        // No rule set named (or one not implemented yet): every rule set's commands.
        None | Some((_, Lookup::NotImplemented(_))) => registry.any_grammar(),
        Some((_, Lookup::Found(v))) => registry.grammar_for(v),
        Some((name, Lookup::Unknown)) => anyhow::bail!(
            "unknown variant \"{name}\"; known: {}",
            registry.names().join(", ")
        ),
    };
    let cx = ParseContext {
        phase: None,
        grammar: Some(&grammar),
    };
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("while reading standard input")?;
    let input = String::from_utf8_lossy(&bytes);
    let map = dipjudge::map::Map::standard().context("while loading the map")?;
    let out = dipjudge::bulletin::parse_report(map, &input, &cx);
    let stdout = std::io::stdout();
    match std::io::Write::write_all(&mut stdout.lock(), out.as_bytes()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e).context("while writing standard output"),
    }
}
