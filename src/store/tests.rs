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
        pictures: Vec::new(),
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

/// An address's choice of maps is remembered, in any letter case; an outbox row names its
/// pictures in order.
#[test]
fn map_choices_and_a_mails_pictures_are_kept() {
    let mut store = store_after(|tx| {
        tx.set_map_choice("Ann@Example.test", false)?;
        let mut m = reply("ann@example.test");
        m.game = Some("demo".into());
        m.pictures = vec!["demo/S1901M".into(), "demo/ALL".into()];
        tx.queue_mail(&m, t(12, 0))?;
        tx.queue_mail(&reply("bob@example.test"), t(12, 0))?;
        Ok(())
    });
    store
        .transaction(|tx| {
            assert_eq!(tx.map_choice("ann@example.test")?, Some(false));
            assert_eq!(tx.map_choice("bob@example.test")?, None);
            let queued = tx.queued_mail(10)?;
            assert_eq!(queued[0].pictures, ["demo/S1901M", "demo/ALL"]);
            assert!(queued[1].pictures.is_empty());
            Ok::<(), StoreError>(())
        })
        .unwrap();
}

/// Issue 29: a processed phase's drawing is its record, replaced with every later one by a
/// new processing at its turn; a drawing kept for mails goes once no queued mail names it.
#[test]
fn drawings_are_kept_as_records_or_until_their_mails_are_sent() {
    let mut store = store_after(|tx| {
        tx.save_scene("Demo", "S1901M", Some(0), b"s")?;
        tx.save_scene("demo", "F1901M", Some(1), b"f")?;
        tx.save_scene("demo", "W1901A", Some(2), b"w")?;
        // Rolled back to F1901M and processed again: W1901A goes (it may come again).
        tx.save_scene("demo", "F1901M", Some(1), b"f2")?;
        tx.save_scene("demo", "W1901A@1", None, b"open")?;
        tx.save_scene("demo", "centres@2", None, b"chart")?;
        tx.save_scene("other", "centres@2", None, b"chart")?;
        let mut m = reply("ann@example.test");
        m.pictures = vec!["demo/W1901A@1".into(), "demo/S1901M".into()];
        tx.queue_mail(&m, t(12, 0))?;
        Ok(())
    });
    store
        .transaction(|tx| {
            assert_eq!(tx.scene("demo", "S1901M")?, Some(b"s".to_vec()));
            assert_eq!(tx.scene("DEMO", "F1901M")?, Some(b"f2".to_vec()));
            assert_eq!(tx.scene("demo", "W1901A")?, None);
            // The chart no mail names goes; the board a queued mail names stays.
            tx.drop_unsent_scenes("demo")?;
            assert_eq!(tx.scene("demo", "centres@2")?, None);
            assert_eq!(tx.scene("demo", "W1901A@1")?, Some(b"open".to_vec()));
            assert_eq!(tx.scene("other", "centres@2")?, Some(b"chart".to_vec()));
            let id = tx.queued_mail(1)?[0].id;
            tx.mark_sent(id, t(12, 1))?;
            tx.drop_unsent_scenes("demo")?;
            assert_eq!(tx.scene("demo", "W1901A@1")?, None);
            // A phase's record stays.
            assert_eq!(tx.scene("demo", "S1901M")?, Some(b"s".to_vec()));
            Ok::<(), StoreError>(())
        })
        .unwrap();
}

/// Version 6: the pictures drawn before keep their SVG (they can be drawn from nothing
/// else) and lose their PNG; a queued mail naming one still names it.
#[test]
fn pictures_drawn_before_version_6_keep_their_svg() {
    let path = temp_db("v3");
    {
        let mut conn = Connection::open(&path).unwrap();
        let tx = conn.transaction().unwrap();
        for (v, sql) in migrations::STEPS.iter().filter(|(v, _)| *v <= 3) {
            tx.execute_batch(sql).unwrap();
            tx.pragma_update(None, "user_version", v).unwrap();
        }
        tx.execute(
            "INSERT INTO pictures (game, phase, svg, png) VALUES ('demo', 'S1901M', '<svg/>', x'0102')",
            [],
        )
        .unwrap();
        tx.execute(
            "INSERT INTO outbox (game, audience, recipient, subject, body, kind, created_at, picture)
             VALUES ('demo', 'France', 'f@x', 's', 'b', 'generated', '2026-03-01T12:00:00Z', 'S1901M')",
            [],
        )
        .unwrap();
        tx.commit().unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    let png: Option<Vec<u8>> = store
        .conn
        .query_row("SELECT png FROM pictures", [], |r| r.get(0))
        .unwrap();
    assert_eq!(png, None);
    store
        .transaction(|tx| {
            assert_eq!(tx.old_picture("demo", "S1901M")?.as_deref(), Some("<svg/>"));
            assert_eq!(tx.old_picture("demo", "F1901M")?, None);
            assert_eq!(tx.queued_mail(5)?[0].pictures, ["S1901M"]);
            Ok::<(), StoreError>(())
        })
        .unwrap();
    drop(store);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
