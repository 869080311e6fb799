//! The mail layer against real servers: Postfix (SMTP with STARTTLS, SMTPS) delivering into
//! Dovecot (IMAPS, IMAP with STARTTLS), as started by `scripts/mail-servers.sh`, on the
//! ports `crate::smtp_port()` and its siblings name.
//!
//! With `DIPJUDGE_MAIL_SERVERS=1` (set by `scripts/test.sh`) the servers must be there and
//! every test fails without them; otherwise each test prints a note and returns. Each test
//! reads its own mailbox (a unique `*@example.test` address), so they run in parallel; the
//! tests that stop and start the servers hold [`SERVERS`] alone (`needs_servers!(exclusive)`).

use std::sync::RwLock;
use std::time::{Duration, Instant, SystemTime};

use dipjudge::mail::inbound::imap::{ImapConfig, ImapCursor, ImapInbox};
use dipjudge::mail::outbound::smtp::{SmtpConfig, SmtpOutbox};
use dipjudge::mail::{
    AutoSubmitted, Envelope, InboundError, Inbox, Outbox, OutgoingMail, RawMessage, RenderedMail,
    Security, SendError, Silence, render, silence_reason,
};

/// Readers: ordinary tests. Writer: the test that stops and starts the servers.
pub(crate) static SERVERS: RwLock<()> = RwLock::new(());

use crate::{MAIL_PASSWORD as PASSWORD, mail_ca as ca};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/fixtures/mail/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// A fresh address for one test: its own mailbox on the server.
fn address(tag: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{tag}-{}-{nanos}@example.test", std::process::id())
}

fn smtp(user: &str) -> SmtpOutbox {
    let mut c = SmtpConfig::new("localhost", crate::smtp_port());
    c.security = Security::StartTls;
    c.root_certificate = Some(ca());
    c.credentials = Some((user.to_string(), PASSWORD.to_string()));
    c.timeout = Duration::from_secs(20);
    SmtpOutbox::new(c)
}

fn imap_config(user: &str) -> ImapConfig {
    let mut c = ImapConfig::new("localhost", crate::imaps_port(), user, PASSWORD);
    c.security = Security::Tls;
    c.root_certificate = Some(ca());
    c.poll_interval = Duration::from_millis(200);
    c.backoff_min = Duration::from_millis(200);
    c.backoff_max = Duration::from_secs(2);
    c.timeout = Duration::from_secs(20);
    c.idle = crate::imap_idle();
    c
}

fn imap(user: &str) -> ImapInbox {
    ImapInbox::new(imap_config(user), None)
}

/// Raw bytes to `to` over SMTP, with `from` as the envelope sender (`None`: `<>`).
fn deliver(to: &str, from: Option<&str>, bytes: Vec<u8>) {
    let mail = RenderedMail {
        message_id: "raw".into(),
        envelope_from: from.map(str::to_string),
        recipients: vec![to.to_string()],
        bytes,
    };
    let results = smtp(to).send_batch(&[mail]);
    assert_eq!(results, vec![Ok(())]);
}

/// Fetches until `n` messages have arrived or 20 s pass (then fails).
fn fetch_n(inbox: &mut ImapInbox, n: usize) -> Vec<RawMessage> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut got = Vec::new();
    while got.len() < n {
        assert!(
            Instant::now() < deadline,
            "only {} of {n} messages arrived",
            got.len()
        );
        got.extend(inbox.fetch_new().unwrap());
        if got.len() < n {
            inbox
                .wait(Instant::now() + Duration::from_millis(500))
                .unwrap();
        }
    }
    got
}

fn judge_mail(to: &str, n: u32) -> OutgoingMail {
    OutgoingMail {
        from: "judge@example.test".into(),
        to: vec![to.to_string()],
        subject: format!("Bulletin {n}"),
        body: format!("Spring 190{n}: results — été\n"),
        auto_submitted: AutoSubmitted::Generated,
        message_id: format!("bulletin-{n}-{}", address("id")),
        in_reply_to: None,
        extra_headers: vec![],
        attachments: vec![],
    }
}

/// Counts the messages in `folder` of `user`'s mailbox, straight through the IMAP library.
fn count_in(user: &str, folder: &str) -> (u32, u32) {
    let mut b = native_tls::TlsConnector::builder();
    b.add_root_certificate(
        native_tls::Certificate::from_pem(&std::fs::read(ca()).unwrap()).unwrap(),
    );
    let tls = tokio_native_tls::TlsConnector::from(b.build().unwrap());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let tcp = tokio::net::TcpStream::connect(("localhost", crate::imaps_port()))
            .await
            .unwrap();
        let mut client = async_imap::Client::new(tls.connect("localhost", tcp).await.unwrap());
        client.read_response().await.unwrap().unwrap();
        let mut s = client
            .login(user, PASSWORD)
            .await
            .map_err(|(e, _)| e)
            .unwrap();
        let mb = s.examine(folder).await.unwrap();
        let seen = s.search("SEEN").await.unwrap().len() as u32;
        s.logout().await.unwrap();
        (mb.exists, seen)
    })
}

#[test]
fn smtp_batch_to_imap_commit_and_cursor() {
    needs_servers!();
    let user = address("roundtrip");
    let rendered: Vec<_> = (1..=3)
        .map(|n| render(&judge_mail(&user, n), SystemTime::now()).unwrap())
        .collect();
    let sent_at = Instant::now();
    assert_eq!(
        smtp(&user).send_batch(&rendered),
        vec![Ok(()), Ok(()), Ok(())]
    );

    let mut inbox = imap(&user);
    let got = fetch_n(&mut inbox, 3);
    eprintln!(
        "SMTP batch of 3 -> visible by IMAP polling: {:?}",
        sent_at.elapsed()
    );
    let uidvalidity = inbox.uidvalidity().unwrap();
    assert!(uidvalidity > 0);
    // Postfix delivers the queued mails in parallel: any order may reach the mailbox.
    let mut envelopes: Vec<_> = got
        .iter()
        .map(|m| Envelope::parse(&m.bytes).unwrap())
        .collect();
    envelopes.sort_by(|a, b| a.subject.cmp(&b.subject));
    let subjects: Vec<_> = envelopes.iter().map(|e| e.subject.as_str()).collect();
    assert_eq!(subjects, ["Bulletin 1", "Bulletin 2", "Bulletin 3"]);
    let env = &envelopes[0];
    assert_eq!(env.text, "Spring 1901: results — été\n");
    assert!(matches!(silence_reason(env), Some(Silence::OwnMail(_))));
    // BODY.PEEK[] leaves them unseen; nothing more to fetch.
    assert_eq!(count_in(&user, "INBOX"), (3, 0));
    assert!(inbox.fetch_new().unwrap().is_empty());

    inbox.commit(&got[0].id).unwrap();
    inbox.commit(&got[1].id).unwrap();
    let cursor = inbox.cursor().cloned().unwrap();
    assert_eq!(cursor, ImapCursor::of(&got[1].id).unwrap());
    assert_eq!(cursor.uidvalidity, uidvalidity);
    assert_eq!(count_in(&user, "Processed"), (2, 2));
    assert_eq!(count_in(&user, "INBOX"), (1, 0));

    // A restart with the stored cursor hands out only the uncommitted third message.
    inbox.disconnect();
    let mut again = ImapInbox::new(imap_config(&user), Some(cursor));
    let rest = fetch_n(&mut again, 1);
    assert_eq!(rest[0].id, got[2].id);
    // Rewind hands it out again (the caller's transaction failed); commit files it away.
    again.rewind();
    assert_eq!(again.fetch_new().unwrap().len(), 1);
    again.commit(&rest[0].id).unwrap();
    assert_eq!(count_in(&user, "INBOX"), (0, 0));
    assert_eq!(count_in(&user, "Processed"), (3, 3));
}

#[test]
fn parallel_smtp_batch_and_one_commit_for_all() {
    needs_servers!();
    let user = address("parallel");
    // 26 mails over 7 connections (at least 4 mails each, at most 8 connections), one of
    // them refused for good in the middle: the results come back in input order.
    let mut rendered: Vec<_> = (1..=26)
        .map(|n| render(&judge_mail(&user, n), SystemTime::now()).unwrap())
        .collect();
    rendered[13].recipients = vec!["not an address".into()];
    let results = smtp(&user).send_batch(&rendered);
    assert_eq!(results.len(), 26);
    for (i, r) in results.iter().enumerate() {
        if i == 13 {
            assert!(
                matches!(r, Err(SendError::Permanent { message_id, .. }) if *message_id == rendered[13].message_id),
                "{r:?}"
            );
        } else {
            assert_eq!(*r, Ok(()), "mail {i}");
        }
    }
    let mut inbox = imap(&user);
    let got = fetch_n(&mut inbox, 25);
    assert_eq!(got.len(), 25);
    let ids: Vec<_> = got.iter().map(|m| m.id.clone()).collect();
    inbox.commit_all(&ids).unwrap();
    assert_eq!(inbox.cursor(), ImapCursor::of(&ids[24]).as_ref());
    assert_eq!(count_in(&user, "Processed"), (25, 25));
    assert_eq!(count_in(&user, "INBOX"), (0, 0));
    inbox.commit_all(&[]).unwrap();
}

#[test]
fn starttls_imap_and_smtps_work() {
    needs_servers!();
    let user = address("starttls");
    let mut c = SmtpConfig::new("localhost", crate::smtps_port());
    c.security = Security::Tls;
    c.root_certificate = Some(ca());
    c.credentials = Some((user.clone(), PASSWORD.into()));
    let r = render(&judge_mail(&user, 1), SystemTime::now()).unwrap();
    assert_eq!(SmtpOutbox::new(c).send_batch(&[r]), vec![Ok(())]);
    let mut cfg = imap_config(&user);
    cfg.port = crate::imap_port();
    cfg.security = Security::StartTls;
    let mut inbox = ImapInbox::new(cfg, None);
    assert_eq!(fetch_n(&mut inbox, 1).len(), 1);
}

#[test]
fn idle_wakes_up_on_new_mail_and_respects_the_deadline() {
    needs_servers!();
    if !crate::imap_idle() {
        // Polling returns after each poll interval, not at the deadline: nothing to test.
        eprintln!("note: DIPJUDGE_IMAP_IDLE=0: the IDLE test is for IDLE");
        return;
    }
    let user = address("idle");
    let mut inbox = imap(&user);
    assert!(inbox.fetch_new().unwrap().is_empty());

    // Nothing arrives: wait returns at the deadline.
    let start = Instant::now();
    inbox.wait(start + Duration::from_millis(800)).unwrap();
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(700), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");

    // Mail sent while idling wakes it up long before the deadline.
    let to = user.clone();
    let sender = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        let r = render(&judge_mail(&to, 1), SystemTime::now()).unwrap();
        smtp(&to).send_batch(&[r])
    });
    let start = Instant::now();
    let mut woke = Duration::ZERO;
    let mut got = Vec::new();
    while got.is_empty() && start.elapsed() < Duration::from_secs(30) {
        inbox.wait(start + Duration::from_secs(30)).unwrap();
        woke = start.elapsed();
        got = inbox.fetch_new().unwrap();
    }
    assert_eq!(sender.join().unwrap(), vec![Ok(())]);
    eprintln!("IDLE: mail sent at +300 ms, fetched at {woke:?}");
    assert_eq!(got.len(), 1);
    assert!(woke < Duration::from_secs(5), "{woke:?}");
}

#[test]
fn fixtures_arrive_as_sent() {
    needs_servers!();
    let names = [
        "html-only.eml",
        "qp-latin1.eml",
        "base64-utf8.eml",
        "multipart-text-attachment.eml",
        "no-message-id.eml",
    ];
    let user = address("fixtures");
    for name in names {
        let bytes = fixture(name);
        let from = Envelope::parse(&bytes).unwrap().from;
        deliver(&user, Some(&from), bytes);
    }
    let mut inbox = imap(&user);
    let got = fetch_n(&mut inbox, names.len());
    for (name, raw) in names.iter().zip(&got) {
        let local = Envelope::parse(&fixture(name)).unwrap();
        let remote = Envelope::parse(&raw.bytes).unwrap();
        assert_eq!(remote.text, local.text, "{name}");
        assert_eq!(remote.subject, local.subject, "{name}");
        assert_eq!(remote.message_id, local.message_id, "{name}");
        assert_eq!(remote.dedupe_key(), local.dedupe_key(), "{name}");
        assert_eq!(silence_reason(&remote), None, "{name}");
        inbox.commit(&raw.id).unwrap();
    }
    // Postfix added no Message-ID to mail from loopback.
    let no_id = got.last().unwrap();
    let text = String::from_utf8_lossy(&no_id.bytes).to_ascii_lowercase();
    assert!(!text.contains("message-id:"), "{text}");
    assert!(
        Envelope::parse(&no_id.bytes)
            .unwrap()
            .dedupe_key()
            .starts_with("fallback:")
    );
}

#[test]
fn same_message_id_twice_arrives_twice() {
    needs_servers!();
    let user = address("twice");
    let bytes = fixture("base64-utf8.eml");
    deliver(&user, Some("elodie@example.test"), bytes.clone());
    deliver(&user, Some("elodie@example.test"), bytes);
    let got = fetch_n(&mut imap(&user), 2);
    let keys: Vec<_> = got
        .iter()
        .map(|m| Envelope::parse(&m.bytes).unwrap().dedupe_key())
        .collect();
    // Two copies on the server, one key: deduplication is the caller's job.
    assert_eq!(keys[0], keys[1]);
    assert!(keys[0].starts_with("<b64-utf8-1@example.test> from elodie@example.test #"));
    assert_ne!(got[0].id, got[1].id);
}

#[test]
fn eight_bit_body_arrives_decoded() {
    needs_servers!();
    let user = address("eightbit");
    let raw = format!(
        "From: Øyvind <oyvind@example.test>\r\nTo: {user}\r\nSubject: Ordre for Russland\r\n\
         Message-ID: <8bit-{user}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
         A MOS -> UKR\r\nHilsen fra Tromsø ✓\r\n"
    );
    deliver(&user, Some("oyvind@example.test"), raw.into_bytes());
    let got = fetch_n(&mut imap(&user), 1);
    let env = Envelope::parse(&got[0].bytes).unwrap();
    assert_eq!(env.text, "A MOS -> UKR\nHilsen fra Tromsø ✓\n");
    assert_eq!(env.from_name.as_deref(), Some("Øyvind"));
}

#[test]
fn five_megabyte_attachments_are_capped() {
    needs_servers!();
    let user = address("big");
    let text_attachment = "A PAR H\r\n".repeat(5 * 1024 * 1024 / 9);
    // base64 of the bytes 00 01 02 repeated: 5 MB of binary without an encoder.
    let binary_line = format!("{}\r\n", "AAEC".repeat(19));
    let binary = binary_line.repeat(5 * 1024 * 1024 / 57);
    let raw = format!(
        "From: big@example.test\r\nTo: {user}\r\nSubject: big\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain\r\n\r\nsee attachments\r\n\
         --b\r\nContent-Type: text/plain; name=\"orders.txt\"\r\n\
         Content-Disposition: attachment; filename=\"orders.txt\"\r\n\r\n{text_attachment}\
         --b\r\nContent-Type: application/octet-stream; name=\"map.bin\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{binary}--b--\r\n"
    );
    assert!(raw.len() > 10 * 1024 * 1024);
    deliver(&user, Some("big@example.test"), raw.into_bytes());
    let got = fetch_n(&mut imap(&user), 1);
    assert!(got[0].bytes.len() > 10 * 1024 * 1024);
    let env = Envelope::parse(&got[0].bytes).unwrap();
    assert!(env.size_capped);
    // Cut at the end of the last whole line within the cap.
    let cap = dipjudge::mail::envelope::DEFAULT_MAX_TEXT_BYTES;
    assert!(env.text.len() <= cap && env.text.len() > cap - 8);
    assert!(env.text.ends_with("A PAR H\n"));
    assert!(
        env.text
            .starts_with("see attachments\n\nA PAR H\nA PAR H\n")
    );
}

/// Issue 25: a message over the inbox's limit is never fetched whole: its RFC822.SIZE is
/// asked first, then only its header block; the one after it comes whole in its own batch.
#[test]
fn a_message_over_the_limit_is_fetched_by_its_header_only() {
    needs_servers!();
    let user = address("oversize");
    let big = format!(
        "From: big@example.test\r\nTo: {user}\r\nSubject: photos\r\nMessage-ID: <photos@x>\r\n\r\n{}",
        "0123456789abcdef\r\n".repeat(4000)
    );
    deliver(&user, Some("big@example.test"), big.clone().into_bytes());
    deliver(
        &user,
        Some("small@example.test"),
        format!("From: small@example.test\r\nTo: {user}\r\nSubject: orders\r\n\r\nA Par H\r\n")
            .into_bytes(),
    );
    let mut c = imap_config(&user);
    c.max_message_bytes = 20_000;
    let mut inbox = ImapInbox::new(c, None);
    let got = fetch_n(&mut inbox, 2);
    let first = &got[0];
    let size = first.oversize.expect("over the limit");
    assert!(size >= big.len() as u64, "{size}");
    let head = String::from_utf8_lossy(&first.bytes);
    assert!(head.contains("Subject: photos\r\n"), "{head}");
    assert!(head.ends_with("\r\n\r\n"), "{head}");
    assert!(!head.contains("0123456789abcdef"));
    let env = Envelope::parse(&first.bytes).unwrap();
    assert_eq!(env.from, "big@example.test");
    assert_eq!(got[1].oversize, None);
    assert!(String::from_utf8_lossy(&got[1].bytes).contains("A Par H"));
}

#[test]
fn bounce_and_auto_reply_are_classified_by_the_guard() {
    needs_servers!();
    let user = address("guard");
    deliver(&user, None, fixture("bounce.eml"));
    deliver(&user, Some("pat@example.test"), fixture("auto-reply.eml"));
    let got = fetch_n(&mut imap(&user), 2);
    let bounce = Envelope::parse(&got[0].bytes).unwrap();
    // The null sender arrives as Return-Path: <>.
    assert_eq!(bounce.loop_headers.return_path.as_deref(), Some(""));
    assert!(silence_reason(&bounce).is_some());
    let auto = Envelope::parse(&got[1].bytes).unwrap();
    assert!(matches!(
        silence_reason(&auto),
        Some(Silence::AutoSubmitted(_))
    ));
}

#[test]
fn unparsable_mail_goes_to_rejected() {
    needs_servers!();
    let user = address("reject");
    // No From: at all; Postfix adds none for loopback clients.
    deliver(
        &user,
        Some("ghost@example.test"),
        format!("To: {user}\r\nSubject: who am I\r\n\r\nA PAR H\r\n").into_bytes(),
    );
    let mut inbox = imap(&user);
    let got = fetch_n(&mut inbox, 1);
    let err = Envelope::parse(&got[0].bytes).unwrap_err();
    inbox.reject(&got[0].id, &err.to_string()).unwrap();
    assert_eq!(count_in(&user, "Rejected"), (1, 1));
    assert_eq!(count_in(&user, "INBOX"), (0, 0));
}

#[test]
fn smtp_failures_are_classified() {
    needs_servers!();
    let user = address("failures");
    let ok = render(&judge_mail(&user, 1), SystemTime::now()).unwrap();
    // Over message_size_limit (25 MiB): 552, permanent; the batch goes on.
    let mut huge = ok.clone();
    huge.message_id = "huge".into();
    huge.bytes
        .extend("x".repeat(998).repeat(27 * 1024).as_bytes());
    let mut bad_rcpt = ok.clone();
    bad_rcpt.message_id = "bad-rcpt".into();
    bad_rcpt.recipients = vec!["not an address".into()];
    let results = smtp(&user).send_batch(&[huge, bad_rcpt, ok.clone()]);
    assert!(
        matches!(&results[0], Err(SendError::Permanent { message_id, .. }) if message_id == "huge"),
        "{results:?}"
    );
    assert!(
        matches!(&results[1], Err(SendError::Permanent { .. })),
        "{results:?}"
    );
    assert_eq!(results[2], Ok(()));

    // A wrong password: 535, for every mail of the batch, and for now (issue 36): the
    // judge's settings are wrong, not the recipients', so no mail is given up and no
    // recipient marked as refusing mail; it waits for the operator.
    let mut c = SmtpConfig::new("localhost", crate::smtp_port());
    c.root_certificate = Some(ca());
    c.credentials = Some((user.clone(), "wrong".into()));
    let results = SmtpOutbox::new(c).send_batch(&[ok.clone(), ok.clone()]);
    assert_eq!(results.len(), 2);
    assert!(
        results.iter().all(|r| matches!(r, Err(SendError::Temporary { reason, .. }) if reason.contains("authentication failed"))),
        "{results:?}"
    );

    // Nobody listening: temporary.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut c = SmtpConfig::new("127.0.0.1", port);
    c.security = Security::Plain;
    let results = SmtpOutbox::new(c).send_batch(&[ok]);
    assert!(
        results[0].as_ref().is_err_and(SendError::is_temporary),
        "{results:?}"
    );
    assert_eq!(fetch_n(&mut imap(&user), 1).len(), 1);
}

/// Starts the servers again when dropped, so a failing restart test leaves them running.
struct RestartOnDrop;

impl Drop for RestartOnDrop {
    fn drop(&mut self) {
        if std::thread::panicking() {
            mail_servers("start");
        }
    }
}

fn mail_servers(cmd: &str) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/mail-servers.sh");
    let status = std::process::Command::new(script)
        .arg(cmd)
        .status()
        .unwrap();
    assert!(status.success(), "mail-servers.sh {cmd}: {status}");
}

#[test]
fn imap_reconnects_after_the_servers_restart() {
    needs_servers!(exclusive);
    let user = address("restart");
    let mut inbox = imap(&user);
    assert!(inbox.fetch_new().unwrap().is_empty());
    assert!(inbox.is_connected());

    let _restart = RestartOnDrop;
    mail_servers("stop");
    // The drop is noticed, reported as Unavailable, and waited out without spinning.
    let start = Instant::now();
    let mut polls = 0;
    let err = loop {
        polls += 1;
        match inbox.fetch_new() {
            Err(e) => break e,
            Ok(_) => inbox
                .wait(Instant::now() + Duration::from_millis(200))
                .unwrap(),
        }
        assert!(start.elapsed() < Duration::from_secs(10));
    };
    assert!(matches!(err, InboundError::Unavailable { .. }), "{err}");
    assert!(!inbox.is_connected());
    let start = Instant::now();
    for _ in 0..3 {
        inbox.wait(Instant::now() + Duration::from_secs(1)).unwrap();
        polls += 1;
    }
    assert!(
        start.elapsed() >= Duration::from_millis(300),
        "wait must not spin"
    );

    mail_servers("start");
    deliver(
        &user,
        Some("back@example.test"),
        fixture("no-message-id.eml"),
    );
    let got = fetch_n(&mut inbox, 1);
    assert!(inbox.is_connected());
    eprintln!("reconnected after restart ({polls} polls while down)");
    let env = Envelope::parse(&got[0].bytes).unwrap();
    assert_eq!(env.message_id, None);
    inbox.commit(&got[0].id).unwrap();
}

/// XOAUTH2 logins with Dovecot's oauth2 passdb and Postfix's SASL through it.
mod xoauth2;
