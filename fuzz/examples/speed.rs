//! Times the targets' checks outside libFuzzer (no coverage instrumentation):
//! `cargo run --release --example speed` (in `fuzz/`, after `--example seeds`; with
//! `SPEED_DIR=corpus`, over the corpora instead of the seeds). Prints the
//! cost of putting the mail target's database back (against a fresh in-memory store), the
//! mean time of each target's check over its seeds, and the slowest seeds.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"));
    let _ = dipjudge_fuzz::mail::check(b"From: a@example.test\r\n\r\nHELP\r\n");
    let n = 2000;
    let t = Instant::now();
    for _ in 0..n {
        drop(dipjudge::store::Store::open_in_memory());
    }
    println!(
        "a fresh in-memory store (for comparison): {:?} each",
        t.elapsed() / n
    );
    let silenced = b"From: a@example.test\r\nPrecedence: bulk\r\n\r\nx\r\n";
    let t = Instant::now();
    for _ in 0..n {
        drop(dipjudge_fuzz::mail::check(silenced));
    }
    println!(
        "a silenced mail (reset, record): {:?} each",
        t.elapsed() / n
    );

    let dir = std::env::var_os("SPEED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| fuzz.join("seeds"));
    // "reader": the cases target's inputs through the case-file reader alone.
    for target in ["mail", "cases", "reader"] {
        let folder = if target == "mail" { "mail" } else { "cases" };
        let mut seeds: Vec<_> = fs::read_dir(dir.join(folder))
            .expect("run the seeds example first")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        seeds.sort();
        let mut times: Vec<(Duration, String)> = Vec::new();
        let t = Instant::now();
        let rounds = 3;
        for _ in 0..rounds {
            for p in &seeds {
                let data = fs::read(p).expect("input");
                let s = Instant::now();
                match target {
                    "mail" => drop(dipjudge_fuzz::mail::check(&data)),
                    "cases" => drop(dipjudge_fuzz::cases::check(&data)),
                    _ => drop(dipjudge::cases::parse_cases(
                        dipjudge::map::Map::standard().expect("map"),
                        &String::from_utf8_lossy(&data),
                    )),
                }
                times.push((s.elapsed(), p.display().to_string()));
            }
        }
        let total = t.elapsed();
        times.sort();
        println!(
            "{target}: {} inputs, mean {:?}, median {:?}, {:.0} checks/s",
            seeds.len(),
            total / (rounds * seeds.len()) as u32,
            times[times.len() / 2].0,
            (rounds * seeds.len()) as f64 / total.as_secs_f64()
        );
        for (d, p) in times.iter().rev().take(5) {
            println!("  slow: {d:?} {p}");
        }
    }
}
