//! Adjudication speed: 1,000 movement phases of 22–34 units from seeded random legal play
//! (`dipjudge::sim`). Run: `cargo bench --bench adjudicate`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dipjudge::map::Map;
use dipjudge::rules::{Standard, adjudicate};
use dipjudge::sim::movement_phases;

fn bench(c: &mut Criterion) {
    let map = Map::standard().expect("standard map");
    let phases: Vec<_> = movement_phases(map, &Standard, 1901, 3000, 12)
        .into_iter()
        .filter(|p| (22..=34).contains(&p.position.units.len()))
        .take(1000)
        .collect();
    assert_eq!(phases.len(), 1000);
    let mut g = c.benchmark_group("adjudicate");
    g.throughput(Throughput::Elements(phases.len() as u64));
    g.bench_function("1000 movement phases", |b| {
        b.iter(|| {
            for p in &phases {
                std::hint::black_box(adjudicate(map, &Standard, &p.position, &p.orders));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
