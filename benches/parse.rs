//! Parsing speed: a 200-line order mail (orders, supports, convoys, coasts, a few typos and
//! comments), as `dipjudge parse` reads it.

use criterion::{Criterion, criterion_group, criterion_main};
use dipjudge::command::parse_message;
use dipjudge::map::Map;

fn mail_200_lines() -> String {
    const LINES: [&str; 10] = [
        "A Par - Bur",
        "F Bre - Mao",
        "A Mar S A Par - Bur",
        "F Nth C A Lon - Nwy",
        "Army London -> Norway via convoy",
        "F Mid-Atlantic Ocean - Spain (north coast)",
        "A Ber H, F Kie - Den; A Mun S A Ber",
        "// a comment",
        "A Par - Bru",
        "fleet north sea convoys army london to norway",
    ];
    let mut s = String::from("SIGNON Fgame secret\n");
    for i in 0..199 {
        s.push_str(LINES[i % LINES.len()]);
        s.push('\n');
    }
    s
}

fn bench_parse(c: &mut Criterion) {
    let map = Map::standard().unwrap();
    let mail = mail_200_lines();
    assert_eq!(mail.lines().count(), 200);
    c.bench_function("parse_message 200-line order mail", |b| {
        b.iter(|| parse_message(std::hint::black_box(&mail), map))
    });
}

/// Makes an input of about the given size in bytes.
type Shape = fn(usize) -> String;

/// Linear time: the same shapes at 10 KB and 100 KB should differ by about ten times,
/// including shapes built to make a parser backtrack (one giant word, a run of unit
/// letters, a line of commas, a province name repeated without separators).
fn bench_scaling(c: &mut Criterion) {
    let map = Map::standard().unwrap();
    let shapes: [(&str, Shape); 5] = [
        ("orders", |n| "A Par - Bur\n".repeat(n / 12)),
        ("one-word", |n| "x".repeat(n)),
        ("unit-letters", |n| "A ".repeat(n / 2)),
        ("commas", |n| {
            format!("A Par - Bur{}", ", A Mar H".repeat(n / 9))
        }),
        ("names", |n| "North Atlantic Ocean ".repeat(n / 21)),
    ];
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    for (name, make) in shapes {
        for size in [10_000usize, 100_000] {
            let text = make(size);
            group.throughput(criterion::Throughput::Bytes(text.len() as u64));
            group.bench_function(format!("{name}/{size}"), |b| {
                b.iter(|| parse_message(std::hint::black_box(&text), map))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_parse, bench_scaling);
criterion_main!(benches);
