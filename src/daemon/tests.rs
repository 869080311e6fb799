//! Daemon tests: the pipeline over Maildirs, and a scripted outbox for send failures.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use chrono::TimeZone;

use super::*;
use crate::mail::{RenderedMail, SendError};

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let p = std::env::temp_dir().join(format!(
            "dipjudge-daemon-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const CONFIG: &str = r#"
[judge]
name = "DIP"
address = "judge@example.test"
database = "judge.db"
seed = 1901
password_cost = "test"

[daemon]
reply_rate_limit = 3
max_queue_days = 2

[inbound]
kind = "maildir"
path = "inbox"

[outbound]
kind = "maildir"
path = "outbox"
"#;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).single().unwrap()
}

fn put(dir: &TempDir, name: &str, mail: &str) {
    let inbox = dir.0.join("inbox");
    for sub in ["tmp", "new", "cur"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    std::fs::write(inbox.join("new").join(name), mail).unwrap();
}

fn mail(from: &str, id: Option<&str>, body: &str) -> String {
    let id = id.map_or(String::new(), |i| format!("Message-ID: <{i}>\r\n"));
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: x\r\nDate: Sun, 1 Mar 2026 12:00:00 +0000\r\n{id}\r\n{body}\r\n"
    )
}

fn files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

#[test]
fn a_pass_handles_answers_silences_and_rejects() {
    let dir = TempDir::new("pass");
    let config = Config::parse(CONFIG, &dir.0).unwrap();
    let mut d = Daemon::open(config, None).unwrap();
    put(
        &dir,
        "1.a",
        &mail("gm@example.test", Some("c1@x"), "CREATE ?pass gmpass-01"),
    );
    // The same Message-ID again: a no-op.
    put(
        &dir,
        "2.a",
        &mail("gm@example.test", Some("c1@x"), "CREATE ?pass gmpass-01"),
    );
    // A bounce: committed, never answered.
    put(
        &dir,
        "3.a",
        "From: MAILER-DAEMON@example.test\r\nTo: judge@example.test\r\nSubject: Undelivered\r\nMessage-ID: <b1@x>\r\n\r\nsorry\r\n",
    );
    // No header block: rejected.
    put(&dir, "4.a", "");
    // No Message-ID: the fallback key.
    put(&dir, "5.a", &mail("p@example.test", None, "HELP"));
    let r = d.process_once(t0()).unwrap();
    assert_eq!(
        (r.fetched, r.applied, r.duplicates, r.silenced, r.rejected),
        (5, 2, 1, 1, 1),
        "{r:?}"
    );
    assert_eq!(r.sent, 2, "one reply to CREATE, one to HELP: {r:?}");
    assert_eq!(files(&dir.0.join("outbox/new")), 2);
    assert_eq!(files(&dir.0.join("inbox/.Processed/cur")), 4);
    assert_eq!(files(&dir.0.join("inbox/.Rejected/cur")), 1);
    assert_eq!(files(&dir.0.join("inbox/new")), 0);
    // A second pass finds nothing and sends nothing again.
    assert_eq!(d.process_once(t0()).unwrap(), PassReport::default());
    let sent: Vec<_> = std::fs::read_dir(dir.0.join("outbox/new"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    // The first mail's Message-ID: its outbox row and the judge's tag.
    let first = d.judge().message_ids().unwrap().id(1);
    assert!(first.starts_with("dip.1."), "{first}");
    assert!(
        sent.iter()
            .any(|m| m.contains(&format!("Message-ID: <{first}>"))
                && m.contains("Auto-Submitted: auto-replied")
                && m.contains("In-Reply-To: <c1@x>")),
        "{sent:?}"
    );
}

/// Issue 25: a mail is seen by sender, Message-ID and content. Italy's second mail reuses
/// the ID of her first with new orders: it is read (and the reply says the ID was
/// reused); a copy of the first is a no-op; a third party's mail under Italy's ID does not
/// make Italy's mail vanish; two mails without a Message-ID or a Date, with other subjects
/// and bodies, are two mails.
#[test]
fn mail_is_seen_by_sender_message_id_and_content() {
    let dir = TempDir::new("reused-id");
    let config = Config::parse(CONFIG, &dir.0).unwrap();
    let mut d = Daemon::open(config, None).unwrap();
    // A third party sends first, under the ID Italy's client will use.
    put(
        &dir,
        "1.a",
        &mail("spy@example.test", Some("it-1@x"), "VERSION"),
    );
    put(
        &dir,
        "2.a",
        &mail("italy@example.test", Some("it-1@x"), "VERSION"),
    );
    put(
        &dir,
        "3.a",
        &mail("italy@example.test", Some("it-1@x"), "HELP"),
    );
    put(
        &dir,
        "4.a",
        &mail("italy@example.test", Some("it-1@x"), "VERSION"),
    );
    let bare = |subject: &str, body: &str| {
        format!(
            "From: italy@example.test\r\nTo: judge@example.test\r\nSubject: {subject}\r\n\r\n{body}\r\n"
        )
    };
    put(&dir, "5.a", &bare("spring", "VERSION"));
    put(&dir, "6.a", &bare("fall", "LIST"));
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.applied, r.duplicates), (5, 1), "{r:?}");
    let replies: Vec<String> = d
        .judge()
        .all_mail()
        .unwrap()
        .into_iter()
        .filter(|m| m.recipient == "italy@example.test")
        .map(|m| m.body)
        .collect();
    assert_eq!(replies.len(), 4, "{replies:?}");
    let reused = "NOTE: an earlier mail from you had this mail's Message-ID but other content; this one was read as a new mail.";
    assert!(!replies[0].contains(reused), "{}", replies[0]);
    assert!(replies[1].contains(reused), "{}", replies[1]);
    assert!(replies[1].contains("OK HELP"), "{}", replies[1]);
    assert!(replies[3].contains("OK LIST"), "{}", replies[3]);
}

/// Issue 25: a mail over `max_message_bytes` is never read whole: its sender gets one
/// line, it goes to the rejected folder, a copy of it is a no-op; a bounce over the limit
/// is set aside without an answer.
#[test]
fn a_mail_over_the_size_limit_is_answered_in_one_line_unread() {
    let dir = TempDir::new("oversize");
    let config = Config::parse(
        &CONFIG.replace("[daemon]\n", "[daemon]\nmax_message_bytes = 2000\n"),
        &dir.0,
    )
    .unwrap();
    let mut d = Daemon::open(config, None).unwrap();
    let big = mail(
        "big@example.test",
        Some("big@x"),
        &format!("LIST\n{}", "A Par H\n".repeat(400)),
    );
    put(&dir, "1.a", &big);
    put(&dir, "2.a", &big);
    let bounce = format!(
        "From: MAILER-DAEMON@example.test\r\nMessage-ID: <bb@x>\r\n\r\n{}",
        "z".repeat(3000)
    );
    put(&dir, "3.a", &bounce);
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.rejected, r.applied, r.sent), (3, 0, 1), "{r:?}");
    let mails = d.judge().all_mail().unwrap();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].recipient, "big@example.test");
    assert_eq!(
        mails[0].body,
        format!(
            "Your mail is {} bytes, over this judge's limit of 2000 bytes: it was not read, and nothing in it was done. Send your commands in a shorter mail (without attachments).\n",
            big.len()
        )
    );
    assert_eq!(mails[0].in_reply_to.as_deref(), Some("big@x"));
    assert_eq!(files(&dir.0.join("inbox/.Rejected/cur")), 3);
}

/// An outbox that answers from a script and records what it was given.
#[derive(Clone, Default)]
struct Scripted {
    answers: Arc<Mutex<Vec<Result<(), bool>>>>,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Outbox for Scripted {
    fn send_batch(&mut self, mails: &[RenderedMail]) -> Vec<Result<(), SendError>> {
        mails
            .iter()
            .map(|m| {
                self.seen.lock().unwrap().push(m.message_id.clone());
                let mut a = self.answers.lock().unwrap();
                let answer = if a.is_empty() { Ok(()) } else { a.remove(0) };
                answer.map_err(|temporary| {
                    let message_id = m.message_id.clone();
                    let reason = "scripted".to_string();
                    if temporary {
                        SendError::Temporary { message_id, reason }
                    } else {
                        SendError::Permanent { message_id, reason }
                    }
                })
            })
            .collect()
    }
}

#[test]
fn send_failures_retry_then_give_up_and_rate_limit_holds_replies() {
    let dir = TempDir::new("send");
    let config = Config::parse(CONFIG, &dir.0).unwrap();
    let outbox = Scripted::default();
    let mut d =
        Daemon::with_transports(config, None, None, Some(Box::new(outbox.clone()))).unwrap();
    // Five HELPs from one address: three replies pass the limiter, two wait.
    for i in 0..5 {
        put(
            &dir,
            &format!("{i}.h"),
            &mail("loop@example.test", Some(&format!("h{i}@x")), "HELP"),
        );
    }
    *outbox.answers.lock().unwrap() = vec![Ok(()), Err(true), Err(false)];
    let r = d.process_once(t0()).unwrap();
    assert_eq!(r.applied, 5);
    assert_eq!((r.sent, r.deferred, r.given_up), (1, 1, 1), "{r:?}");
    assert_eq!(r.rate_limited, 2, "{r:?}");
    let queued = d.judge().queued_mail(100).unwrap();
    assert_eq!(queued.len(), 3, "one temporary failure and two held back");
    // Its batch went out, so the temporary failure is its own: it waits a back-off of its
    // own (the others do not wait for it).
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.sent, r.rate_limited), (0, 2), "{r:?}");
    // After the back-off, with the limiter's window still full, nothing more goes to that
    // address.
    let r = d.process_once(t0() + chrono::Duration::seconds(2)).unwrap();
    assert_eq!(r.sent, 0, "{r:?}");
    assert_eq!(r.rate_limited, 3, "{r:?}");
    // An hour later the window has passed: the three go.
    let later = t0() + chrono::Duration::hours(2);
    let r = d.process_once(later).unwrap();
    assert_eq!(r.sent, 3, "{r:?}");
    assert!(d.judge().queued_mail(100).unwrap().is_empty());
}

/// Issue 36: a mail that fails for now is tried (each attempt counted when the transport
/// answered for it) with back-off, and given up only after `max_queue_days` of failures;
/// while the whole batch fails, the queue waits a back-off of its own, by the passes'
/// time, not the clock's.
#[test]
fn a_mail_that_fails_for_now_is_given_up_after_days_not_attempts() {
    let dir = TempDir::new("days");
    let config = Config::parse(CONFIG, &dir.0).unwrap();
    let outbox = Scripted::default();
    let mut d =
        Daemon::with_transports(config, None, None, Some(Box::new(outbox.clone()))).unwrap();
    put(&dir, "1.h", &mail("p@example.test", Some("x1@x"), "HELP"));
    *outbox.answers.lock().unwrap() = vec![Err(true); 10_000];
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.deferred, r.given_up), (1, 0), "{r:?}");
    // In the back-off (a second), nothing is tried.
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.deferred, r.given_up), (0, 0), "{r:?}");
    assert_eq!(outbox.seen.lock().unwrap().len(), 1);
    // A pass every ten minutes for two days less an hour: never given up.
    let mut tried = 1;
    for step in 1..(2 * 24 * 6 - 6) {
        let r = d
            .process_once(t0() + chrono::Duration::minutes(10 * step))
            .unwrap();
        assert_eq!(r.given_up, 0, "{r:?}");
        tried += r.deferred;
    }
    assert_eq!(outbox.seen.lock().unwrap().len(), tried);
    assert_eq!(d.judge().queued_mail(100).unwrap().len(), 1);
    let r = d
        .process_once(t0() + chrono::Duration::days(2) + chrono::Duration::minutes(1))
        .unwrap();
    assert_eq!(r.given_up, 1, "{r:?}");
    assert!(d.judge().queued_mail(100).unwrap().is_empty());
}

#[test]
fn the_imap_cursor_round_trips() {
    let c = ImapCursor {
        mailbox: "Judge Mail".into(),
        uidvalidity: 7,
        last_uid: 42,
    };
    assert_eq!(read_cursor(&write_cursor(&c)), Some(c));
    assert_eq!(read_cursor("garbage"), None);
}

#[test]
fn the_reply_limit_holds_across_a_restart() {
    let dir = TempDir::new("limit-restart");
    for i in 0..5 {
        put(
            &dir,
            &format!("{i}.h"),
            &mail("loop@example.test", Some(&format!("r{i}@x")), "HELP"),
        );
    }
    {
        let config = Config::parse(CONFIG, &dir.0).unwrap();
        let mut d = Daemon::open(config, None).unwrap();
        let r = d.process_once(t0()).unwrap();
        assert_eq!((r.applied, r.sent, r.rate_limited), (5, 3, 2), "{r:?}");
    }
    // A new process (a crash, a restart) reads the three replies of this window back.
    let config = Config::parse(CONFIG, &dir.0).unwrap();
    let mut d = Daemon::open(config, None).unwrap();
    let r = d.process_once(t0() + chrono::Duration::minutes(5)).unwrap();
    assert_eq!((r.sent, r.rate_limited), (0, 2), "{r:?}");
    let r = d.process_once(t0() + chrono::Duration::hours(2)).unwrap();
    assert_eq!((r.sent, r.rate_limited), (2, 0), "{r:?}");
    assert_eq!(files(&dir.0.join("outbox/new")), 5);
}

#[test]
fn a_silenced_mail_is_recorded_once() {
    let dir = TempDir::new("silenced");
    let config = Config::parse(CONFIG, &dir.0).unwrap();
    let mut d = Daemon::open(config, None).unwrap();
    let bounce = "From: MAILER-DAEMON@example.test\r\nTo: judge@example.test\r\nSubject: Undelivered\r\nMessage-ID: <b2@x>\r\n\r\nsorry\r\n";
    put(&dir, "1.b", bounce);
    // The same bounce again, as after a crash before it was filed away.
    put(&dir, "2.b", bounce);
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.silenced, r.duplicates, r.sent), (1, 1, 0), "{r:?}");
    assert_eq!(files(&dir.0.join("inbox/.Processed/cur")), 2);
    assert_eq!(files(&dir.0.join("outbox/new")), 0);
}

/// An inbox that hands out scripted batches and logs each fetch into a shared log.
struct Batches {
    batches: Vec<Vec<RawMessage>>,
    log: Arc<Mutex<Vec<String>>>,
}

impl Inbox for Batches {
    fn fetch_new(&mut self) -> Result<Vec<RawMessage>, crate::mail::inbound::InboundError> {
        let batch = if self.batches.is_empty() {
            Vec::new()
        } else {
            self.batches.remove(0)
        };
        self.log
            .lock()
            .unwrap()
            .push(format!("fetch {}", batch.len()));
        Ok(batch)
    }
    fn wait(&mut self, _until: Instant) -> Result<(), crate::mail::inbound::InboundError> {
        Ok(())
    }
    fn commit(&mut self, _id: &MessageRef) -> Result<(), crate::mail::inbound::InboundError> {
        Ok(())
    }
    fn reject(
        &mut self,
        _id: &MessageRef,
        _reason: &str,
    ) -> Result<(), crate::mail::inbound::InboundError> {
        Ok(())
    }
    fn rewind(&mut self) {}
}

/// An outbox that accepts everything and logs each batch into the same log.
struct LoggedOutbox(Arc<Mutex<Vec<String>>>);

impl Outbox for LoggedOutbox {
    fn send_batch(&mut self, mails: &[RenderedMail]) -> Vec<Result<(), SendError>> {
        self.0.lock().unwrap().push(format!("send {}", mails.len()));
        mails.iter().map(|_| Ok(())).collect()
    }
}

#[test]
fn replies_go_out_after_each_batch_not_after_the_inbox_is_empty() {
    let dir = TempDir::new("interleave");
    let config = Config::parse(CONFIG, &dir.0).unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let raw = |i: usize| RawMessage {
        id: MessageRef::Maildir {
            path: PathBuf::from(format!("m{i}")),
        },
        bytes: mail(
            &format!("p{i}@example.test"),
            Some(&format!("i{i}@x")),
            "HELP",
        )
        .into_bytes(),
        oversize: None,
    };
    let inbox = Batches {
        batches: vec![vec![raw(1), raw(2)], vec![raw(3), raw(4)]],
        log: Arc::clone(&log),
    };
    let mut d = Daemon::with_transports(
        config,
        None,
        Some(Box::new(inbox)),
        Some(Box::new(LoggedOutbox(Arc::clone(&log)))),
    )
    .unwrap();
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.applied, r.sent), (4, 4), "{r:?}");
    // The outbox runs on its own thread, so sends and fetches interleave in any order; but
    // the replies to the first batch went out as a batch of their own, before the replies
    // to the second existed.
    let log = log.lock().unwrap();
    let sends: Vec<&String> = log.iter().filter(|l| l.starts_with("send")).collect();
    let fetches: Vec<&String> = log.iter().filter(|l| l.starts_with("fetch")).collect();
    assert_eq!(sends, ["send 2", "send 2"], "{log:?}");
    assert_eq!(fetches, ["fetch 2", "fetch 2", "fetch 0"], "{log:?}");
}
