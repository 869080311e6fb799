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

criterion_group!(benches, bench_parse);
criterion_main!(benches);
