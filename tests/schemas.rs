//! Upgrades: a database made by each schema version the project shipped
//! (`tests/schemas/v<N>.db`, each written by that version's own `dipjudge inject` and
//! `process`: `tests/schemas/make.sh`) is migrated by today's judge, which then plays on:
//! the Fall 1901 orders the old judge stored are adjudicated with the orders sent after
//! the upgrade.

use std::path::{Path, PathBuf};

use dipjudge::map::Power;
use dipjudge::store::SCHEMA_VERSION;

use crate::operator::{integrity, on, read_only, text, user_version};
use crate::scratch::Scratch;

/// One value from a database, on a read-only connection (only ever a scratch copy: even
/// read-only, SQLite leaves `-shm` and `-wal` files beside a WAL database).
fn sqlite_value<T: rusqlite::types::FromSql>(db: &Path, sql: &str) -> T {
    read_only(db).query_row(sql, [], |r| r.get(0)).unwrap()
}

fn has_table(db: &Path, table: &str) -> bool {
    sqlite_value::<i64>(
        db,
        &format!("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '{table}'"),
    ) == 1
}

/// A shipped database's `user_version`, read from its file header (bytes 60 to 63, big
/// endian), so the file in the source tree is never opened by SQLite.
fn header_version(db: &Path) -> i64 {
    let bytes = std::fs::read(db).unwrap();
    assert!(
        bytes.starts_with(b"SQLite format 3\0") && bytes.len() >= 100,
        "{} is not a SQLite database",
        db.display()
    );
    i64::from(i32::from_be_bytes([
        bytes[60], bytes[61], bytes[62], bytes[63],
    ]))
}

/// A game's history as the old judge kept it: id, phase, subject and body of each entry.
fn history(db: &Path) -> Vec<(i64, String, String, String)> {
    let conn = read_only(db);
    let mut stmt = conn
        .prepare("SELECT id, phase, subject, body FROM history WHERE game = 'oldgame' ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The shipped databases, by file name.
fn shipped() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    let mut dbs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "db"))
        .collect();
    dbs.sort();
    dbs
}

/// Each player's power, from the game's dump: `player <Power> <address>` lines.
fn seats(dump: &str) -> Vec<(Power, String)> {
    dump.lines()
        .filter_map(|l| l.trim().strip_prefix("player "))
        .filter_map(|l| {
            let (power, rest) = l.split_once(' ')?;
            let addr = rest.split_whitespace().next()?;
            Some((Power::from_name(power)?, addr.to_string()))
        })
        .collect()
}

#[test]
fn a_database_of_every_shipped_schema_is_kept() {
    let versions: Vec<i64> = shipped().iter().map(|db| header_version(db)).collect();
    for v in 1..=SCHEMA_VERSION {
        assert!(
            versions.contains(&v),
            "no database of schema version {v} in tests/schemas (make one with tests/schemas/make.sh): {versions:?}"
        );
    }
    // Each is listed in the README with the commit that made it.
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/README.md"),
    )
    .unwrap();
    for db in shipped() {
        let file = db.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            readme.contains(&format!("| `{file}` | {} |", header_version(&db))),
            "tests/schemas/README.md does not list {file}"
        );
    }
}

#[test]
fn every_shipped_schema_migrates_and_plays_on() {
    let shipped = shipped();
    assert!(!shipped.is_empty());
    for db in shipped {
        migrates_and_plays_on(&db);
    }
}

/// A copy of `db` is looked at by `check`, migrated by a pass, and played on: the seats'
/// passwords, the orders and the history the old judge kept are all there.
fn migrates_and_plays_on(db: &Path) {
    let name = db.file_stem().unwrap().to_string_lossy().into_owned();
    let found = header_version(db);
    let mut scratch = Scratch::new(&format!("schema-{name}"));
    let live = scratch.database();
    std::fs::create_dir_all(live.parent().unwrap()).unwrap();
    std::fs::copy(db, &live).unwrap();
    let old_history = history(&live);
    assert_eq!(old_history.len(), 2, "{name}: {old_history:?}");
    let old_snapshots: i64 = sqlite_value(&live, "SELECT count(*) FROM snapshots");
    let old_messages: i64 = sqlite_value(&live, "SELECT count(*) FROM messages");

    // `check` looks without changing anything, and says a migration is due.
    let o = on(&scratch, "check", &["--offline"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{name}: {out}");
    if found < SCHEMA_VERSION {
        assert!(
            out.contains(&format!(
                "schema version {found}, which `run` migrates to {SCHEMA_VERSION}"
            )),
            "{name}: {out}"
        );
    }
    assert_eq!(user_version(&live), found);

    // The first pass migrates; every table of today's schema is there.
    let o = on(&scratch, "process", &["--now", "2026-01-05T13:00:00Z"]);
    assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o.stderr));
    assert_eq!(user_version(&live), SCHEMA_VERSION, "{name}");
    for table in [
        "games",
        "snapshots",
        "history",
        "outbox",
        "pictures",
        "web_tokens",
        "people",
        "tenure_addresses",
    ] {
        assert!(has_table(&live, table), "{name}: no table {table}");
    }

    // Play on: the old judge's game, in Fall 1901, with France's and Germany's orders
    // stored by it; the others order now with the passwords they joined with, the master
    // processes; then an outsider asks for the game's history.
    let dump = text(&on(&scratch, "dump-state", &[]).stdout);
    assert!(dump.contains("oldgame"), "{name}: {dump}");
    let seats = seats(&dump);
    assert_eq!(seats.len(), 7, "{name}: {dump}");
    let orders = [
        (Power::England, "F NTH - Nwy\nF NWG H\nA Yor H\n"),
        (Power::Italy, "A Pie - Mar\nF ION - Tun\nA Ven H\n"),
        (Power::Turkey, "A Bul - Gre\nA Con H\n"),
    ];
    for (i, (power, body)) in orders.iter().enumerate() {
        let (_, addr) = seats
            .iter()
            .find(|(p, _)| p == power)
            .unwrap_or_else(|| panic!("{name}: nobody plays {power:?}: {dump}"));
        let n = addr
            .strip_prefix("player")
            .and_then(|rest| rest.split('@').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("{name}: a seat held by {addr}"));
        scratch.mail(
            addr,
            &format!("{name}-orders-{i}"),
            &format!("SIGNON {}oldgame password-{n}\n{body}", power.initial()),
        );
    }
    scratch.mail(
        "master@example.test",
        &format!("{name}-process"),
        "SIGNON Moldgame master-password\nPROCESS!\n",
    );
    let o = on(&scratch, "process", &["--now", "2026-01-05T13:05:00Z"]);
    assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o.stderr));
    scratch.mail(
        "outsider@example.test",
        &format!("{name}-history"),
        "HISTORY oldgame\n",
    );
    let o = on(&scratch, "process", &["--now", "2026-01-05T13:06:00Z"]);
    assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o.stderr));
    let sent = scratch.sent();
    let results = sent
        .iter()
        .find(|m| m.subject.ends_with("oldgame - F1901M Results"))
        .unwrap_or_else(|| {
            panic!(
                "{name}: no F1901M results; sent {:?}",
                sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
            )
        });
    for line in [
        // Stored by the old judge before the upgrade:
        "France: Army Burgundy -> Belgium.",
        "Germany: Army Ruhr -> Holland.",
        // Sent after it:
        "England: Fleet North Sea -> Norway.",
        "Turkey: Army Bulgaria -> Greece.",
    ] {
        assert!(
            results.body.contains(line),
            "{name}: {line}\n{}",
            results.body
        );
    }

    // The history the old judge kept is kept as it was, and read back by HISTORY; what
    // today's judge adds follows it.
    let new_history = history(&live);
    assert_eq!(
        new_history.get(..old_history.len()),
        Some(&old_history[..]),
        "{name}: the old history changed"
    );
    assert!(
        new_history
            .iter()
            .skip(old_history.len())
            .any(|(_, phase, subject, _)| phase == "F1901M" && subject.ends_with("F1901M Results")),
        "{name}: {new_history:?}"
    );
    let told = scratch.sent_to("outsider@example.test");
    let answer = told
        .iter()
        .map(|m| m.body.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for wanted in [
        "S1901M Results",
        "France: Army Paris -> Burgundy.",
        "F1901M Results",
    ] {
        assert!(
            answer.contains(wanted),
            "{name}: HISTORY lacks {wanted}: {answer}"
        );
    }
    assert!(sqlite_value::<i64>(&live, "SELECT count(*) FROM snapshots") > old_snapshots);
    assert!(sqlite_value::<i64>(&live, "SELECT count(*) FROM messages") >= old_messages + 5);

    // The upgraded file is sound.
    assert_eq!(integrity(&live), "ok", "{name}");
    let conn = read_only(&live);
    let broken: Vec<String> = conn
        .prepare("PRAGMA foreign_key_check")
        .unwrap()
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        broken.is_empty(),
        "{name}: foreign keys broken in {broken:?}"
    );
}
