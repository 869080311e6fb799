//! The judge core's speed with 1,000 live games in a real SQLite file: handling one
//! ordinary order mail end to end (parse, transaction, reply queued) at the test password
//! cost, at the default argon2 cost with every password verified afresh, and at the default
//! cost with verified passwords remembered (a player's second mail); and a tick with no game
//! due. Run: `cargo bench --bench judge`.

use chrono::{Duration, TimeZone, Utc};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use dipjudge::game::{Arrangement, Game, Player, Seat};
use dipjudge::judge::{Incoming, Judge, JudgeConfig, PasswordCost, hash_password};
use dipjudge::map::{Map, Power};
use dipjudge::rules::Position;
use dipjudge::store::Store;

const GAMES: usize = 1000;

fn setup(cost: PasswordCost, remember: bool, dir: &std::path::Path) -> Judge {
    let map = Map::standard().expect("map");
    let path = dir.join("bench.db");
    let _ = std::fs::remove_file(&path);
    let mut store = Store::open(&path).expect("store");
    let start = Utc
        .with_ymd_and_hms(2026, 11, 1, 9, 0, 0)
        .single()
        .expect("time");
    let hash = hash_password(cost, "secret", 1);
    store
        .transaction(|tx| {
            for i in 0..GAMES {
                let seat = Seat {
                    address: format!("gm{i}@example.test"),
                    password_hash: hash.clone(),
                };
                let mut g = Game::new(
                    &format!("g{i:04}"),
                    &dipjudge::variant::Standard,
                    seat,
                    i as u64,
                    map,
                );
                g.arrange(Arrangement {
                    players: Power::ALL
                        .into_iter()
                        .map(|p| {
                            let seat = Seat {
                                address: format!("{}{i}@example.test", p.code().to_lowercase()),
                                password_hash: hash.clone(),
                            };
                            Player::new(p, seat)
                        })
                        .collect(),
                    position: Position::standard_start(map),
                    variant_state: None,
                    observers: Vec::new(),
                    deadline: Some(start + Duration::hours(72)),
                });
                tx.save_game(&g)?;
            }
            Ok::<(), dipjudge::store::StoreError>(())
        })
        .expect("games");
    let config = JudgeConfig {
        password_cost: cost,
        remember_passwords: remember,
        ..JudgeConfig::default()
    };
    Judge::new(store, config).expect("judge")
}

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("dipjudge-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let now = Utc
        .with_ymd_and_hms(2026, 11, 1, 10, 0, 0)
        .single()
        .expect("time");
    for (label, cost, remember) in [
        ("test-cost password", PasswordCost::TEST, false),
        (
            "default argon2, verified afresh",
            PasswordCost::default(),
            false,
        ),
        ("default argon2, remembered", PasswordCost::default(), true),
    ] {
        let mut judge = setup(cost, remember, &dir);
        let mut n = 0u64;
        c.bench_function(
            &format!("handle one order mail, {GAMES} games, {label}"),
            |b| {
                b.iter_batched(
                    || {
                        n += 1;
                        Incoming {
                            key: format!("<bench-{n}@test>"),
                            message_id: Some(format!("<bench-{n}@test>")),
                            from: format!("eng{}@example.test", n % GAMES as u64),
                            reply_to: None,
                            from_name: None,
                            subject: "orders".into(),
                            text: format!(
                                "SIGNON Eg{:04} secret\nF Lon - NTH\nF Edi - NWG\nA Lvp - Yor\n",
                                n % GAMES as u64
                            ),
                            size_capped: false,
                        }
                    },
                    |msg| judge.handle(&msg, now).expect("handled"),
                    BatchSize::SmallInput,
                )
            },
        );
    }
    let mut judge = setup(PasswordCost::TEST, false, &dir);
    c.bench_function(&format!("tick, {GAMES} games, none due"), |b| {
        b.iter(|| judge.tick(now).expect("tick"))
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
