//! Store tests: migrations, the message keys, the outbox cycle, rollback on error, values.

use chrono::TimeZone;

use super::*;

fn t(h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, h, m, 0).single().unwrap()
}

fn reply(to: &str) -> NewMail {
    NewMail {
        game: None,
        audience: "reply".into(),
        recipient: to.into(),
        subject: "Re: x".into(),
        body: "ok\n".into(),
        kind: "replied",
        in_reply_to: Some("m@x".into()),
        picture: None,
    }
}

/// A fresh in-memory store after `f` ran in one transaction (which must succeed).
fn store_after(f: impl FnOnce(&Tx<'_>) -> Result<(), StoreError>) -> Store {
    let mut store = Store::open_in_memory().unwrap();
    store.transaction(f).unwrap();
    store
}

fn temp_db(tag: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!(
        "dipjudge-store-{tag}-{}-{nanos}.db",
        std::process::id()
    ))
}

#[test]
fn a_version_1_database_is_brought_up_to_date_and_keeps_its_rows() {
    let path = temp_db("v1");
    {
        // A database as the first release wrote it.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(migrations::STEPS[0].1).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute(
            "INSERT INTO messages (key, received_at, sender) VALUES ('k1', '2026-03-01T12:00:00Z', 'a@x')",
            [],
        )
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    let version: i64 = store
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, migrations::LATEST);
    let again = store
        .transaction(|tx| tx.record_message("k1", t(13, 0), "a@x", None))
        .unwrap();
    assert!(!again, "the old key is still known");
    drop(store);
    // Opening again applies nothing twice.
    assert!(Store::open(&path).is_ok());
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

#[test]
fn a_database_from_a_newer_judge_is_refused() {
    let path = temp_db("newer");
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
    }
    match Store::open(&path) {
        Err(StoreError::TooNew { found: 99, known }) => assert_eq!(known, migrations::LATEST),
        other => panic!("expected TooNew, got {:?}", other.err()),
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_message_key_is_recorded_once_whether_handled_or_silenced() {
    store_after(|tx| {
        assert!(tx.record_message("a", t(12, 0), "p@x", None)?);
        assert!(!tx.record_message("a", t(12, 1), "p@x", None)?);
        assert!(!tx.record_message("a", t(12, 1), "p@x", Some("silenced: bounce"))?);
        assert!(tx.record_message("b", t(12, 2), "MAILER-DAEMON@x", Some("silenced: bounce"))?);
        assert!(!tx.record_message("b", t(12, 3), "MAILER-DAEMON@x", None)?);
        Ok(())
    });
}

#[test]
fn an_error_rolls_the_whole_transaction_back() {
    let mut store = Store::open_in_memory().unwrap();
    let r: Result<(), StoreError> = store.transaction(|tx| {
        tx.record_message("gone", t(12, 0), "p@x", None)?;
        tx.queue_mail(&reply("p@x"), t(12, 0))?;
        Err(StoreError::Corrupt {
            game: "g".into(),
            reason: "test".into(),
        })
    });
    assert!(r.is_err());
    store
        .transaction(|tx| {
            assert!(tx.queued_mail(10)?.is_empty());
            assert!(tx.record_message("gone", t(12, 0), "p@x", None)?);
            Ok::<(), StoreError>(())
        })
        .unwrap();
}

#[test]
fn the_outbox_goes_in_order_and_remembers_what_was_sent() {
    store_after(|tx| {
        let a = tx.queue_mail(&reply("a@x"), t(12, 0))?;
        let b = tx.queue_mail(&reply("b@x"), t(12, 0))?;
        let mut bulletin = reply("a@x");
        bulletin.kind = "generated";
        let c = tx.queue_mail(&bulletin, t(12, 0))?;
        let ids: Vec<i64> = tx.queued_mail(10)?.iter().map(|m| m.id).collect();
        assert_eq!(ids, [a, b, c]);
        assert_eq!(tx.bump_attempts(a)?, 1);
        assert_eq!(tx.bump_attempts(a)?, 2);
        tx.mark_sent(a, t(12, 5))?;
        tx.mark_sent(c, t(12, 6))?;
        tx.mark_failed(b, "550 no such user")?;
        assert!(tx.queued_mail(10)?.is_empty());
        // Only replies count for the rate limiter, and only from `since` on.
        assert_eq!(
            tx.replies_sent_since(t(12, 0))?,
            vec![("a@x".to_string(), t(12, 5))]
        );
        assert!(tx.replies_sent_since(t(12, 6))?.is_empty());
        assert_eq!(tx.all_mail()?.len(), 3);
        Ok(())
    });
}

#[test]
fn values_counters_and_history() {
    let store = store_after(|tx| {
        assert_eq!(tx.get_value("k")?, None);
        tx.set_value("k", "1")?;
        tx.set_value("k", "2")?;
        assert_eq!(tx.get_value("k")?.as_deref(), Some("2"));
        assert_eq!(tx.next_counter("n")?, 1);
        assert_eq!(tx.next_counter("n")?, 2);
        tx.add_history("g", t(12, 0), "S1901M", "first", "a")?;
        tx.add_history("h", t(12, 0), "S1901M", "other game", "b")?;
        tx.add_history("g", t(12, 1), "F1901M", "second", "c")?;
        let subjects: Vec<String> = tx.history("g")?.into_iter().map(|e| e.subject).collect();
        assert_eq!(subjects, ["first", "second"]);
        Ok(())
    });
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

/// A phase's picture is kept once and read back; an outbox row names it; an address's
/// choice of maps is remembered, in any letter case.
#[test]
fn pictures_and_map_choices_are_kept() {
    let mut store = store_after(|tx| {
        tx.save_picture("Demo", "S1901M", "<svg/>")?;
        tx.save_picture_png("demo", "S1901M", &[1, 2, 3])?;
        // Drawn again: the old PNG goes with the old SVG.
        tx.save_picture("demo", "S1901M", "<svg>2</svg>")?;
        tx.save_picture_png("demo", "S1901M", &[4])?;
        tx.save_picture("demo", "F1901M", "<svg>3</svg>")?;
        tx.set_map_choice("Ann@Example.test", false)?;
        let mut m = reply("ann@example.test");
        m.game = Some("demo".into());
        m.picture = Some("S1901M".into());
        tx.queue_mail(&m, t(12, 0))?;
        Ok(())
    });
    store
        .transaction(|tx| {
            assert_eq!(
                tx.picture("demo", "S1901M")?,
                Some(("<svg>2</svg>".to_string(), Some(vec![4])))
            );
            assert_eq!(
                tx.picture("demo", "F1901M")?,
                Some(("<svg>3</svg>".to_string(), None))
            );
            assert_eq!(tx.picture("demo", "W1901A")?, None);
            assert_eq!(tx.map_choice("ann@example.test")?, Some(false));
            assert_eq!(tx.map_choice("bob@example.test")?, None);
            let queued = tx.queued_mail(10)?;
            assert_eq!(queued[0].picture.as_deref(), Some("S1901M"));
            Ok::<(), StoreError>(())
        })
        .unwrap();
}
