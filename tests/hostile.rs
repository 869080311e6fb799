//! Hostile and careless mail through the daemon on the Maildir default (issue 25): absurd
//! subjects and Message-IDs never make a header line over RFC 5322's 998 characters, and
//! every mail with a transfer encoding says `MIME-Version: 1.0`; the loop guard never
//! answers the judge's own address nor a reply address that would loop; `SET ADDRESS` takes
//! only addresses the mailer can send to and tells the new one; a mail cut by the text cap
//! runs nothing of its cut line. Poison mail (issue 36): `message/rfc822` parts nested
//! 160,000 deep, 704 KB of nested `<div>`, a million MIME parts and a base64 message that
//! hides a deep nest are each read within one pass of the real binary (set aside with a
//! sentence saying what was too big, or read as an attachment it is), and the honest mail
//! behind them is answered.

use chrono::Duration;
use dipjudge::daemon::Daemon;
use dipjudge::map::Power;

use crate::scratch::{
    Scratch, complete_orders, deadline, forget_setup_mail, password, plain_mail, player,
    start_game, t0,
};

/// Every header line of every mail the judge sent, checked: none over 998 characters, and
/// `MIME-Version: 1.0` wherever there is a `Content-Transfer-Encoding`.
fn check_headers(s: &Scratch) -> usize {
    let mails = s.sent();
    for m in &mails {
        for line in m.head.split("\r\n") {
            assert!(
                line.len() <= 998,
                "a header line of {} characters to {}: {}...",
                line.len(),
                m.to,
                &line[..80]
            );
        }
        let lower = m.head.to_ascii_lowercase();
        if lower.contains("\r\ncontent-transfer-encoding:") {
            assert!(
                lower.contains("\r\nmime-version: 1.0\r\n"),
                "no MIME-Version: {}",
                m.head
            );
        }
    }
    mails.len()
}

/// Done when (issue 25): no outgoing header line exceeds 998 characters with 100,000-character
/// subjects and 5,000-character Message-IDs; every mail with a transfer encoding has
/// MIME-Version (replies of every encoding, results bulletins, press).
#[test]
fn no_header_line_is_over_998_characters_whatever_comes_in() {
    let mut s = Scratch::new("long-headers");
    let at = {
        let mut judge = s.judge();
        start_game(&mut judge, "hdr", "");
        complete_orders(&mut judge, "hdr");
        forget_setup_mail(&mut judge);
        deadline(&mut judge, "hdr")
    };
    let long_id = format!("{}@example.test", "m".repeat(5000));
    for (i, subject) in [
        "s".repeat(100_000),
        "orders ".repeat(15_000),
        "ordres d'été ".repeat(8_000),
    ]
    .iter()
    .enumerate()
    {
        let raw = plain_mail(
            &format!("long{i}@example.test"),
            &format!("{i}{long_id}"),
            subject,
            "HELP",
        );
        s.deliver(raw.as_bytes());
    }
    // Press with a long official subject, and a reply that must be quoted-printable.
    s.mail(
        &player("hdr", Power::France),
        "press@x",
        &format!(
            "SIGNON Fhdr {}\nBROADCAST\nBonjour à tous, {}\nENDBROADCAST\nA Par - Pic\nA Pär H",
            password(Power::France),
            "é".repeat(2000)
        ),
    );
    let mut d = Daemon::open(s.config(), None).unwrap();
    let r = d.process_once(at - Duration::hours(1)).unwrap();
    assert_eq!((r.applied, r.failed, r.given_up), (4, 0, 0), "{r:?}");
    let r = d.process_once(at).unwrap();
    assert_eq!((r.ticked, r.given_up), (1, 0), "{r:?}");
    let sent = check_headers(&s);
    assert!(sent >= 19, "replies, press and results: {sent}");
    for i in 0..3 {
        let got = s.sent_to(&format!("long{i}@example.test"));
        assert_eq!(got.len(), 1, "every long-subject mail is answered");
        assert!(got[0].subject.starts_with("Re: "), "{}", got[0].subject);
        assert!(got[0].subject.chars().count() <= 200);
        assert_eq!(got[0].in_reply_to, None, "the absurd id is left out");
    }
}

/// The loop guard through the daemon: mail from the judge's own address (any case, any
/// display name), or whose reply would go to the judge, a mail system account or an address
/// that takes no replies, is recorded and never answered; a player's mail beside them is.
#[test]
fn the_judge_never_answers_itself_nor_a_reply_address_that_loops() {
    let mut s = Scratch::new("loop-guard");
    let heads = [
        "From: judge@example.test",
        "From: DIP Judge <JUDGE@Example.Test>",
        "From: a@example.test\r\nReply-To: judge@example.test",
        "From: b@example.test\r\nReply-To: MAILER-DAEMON@example.test",
        "From: c@example.test\r\nReply-To: Postmaster <postmaster@example.test>",
        "From: d@example.test\r\nReply-To: players-request@lists.example.test",
        "From: e@example.test\r\nReply-To: noreply@example.test",
    ];
    for (i, head) in heads.iter().enumerate() {
        let raw = format!("{head}\r\nSubject: loop\r\nMessage-ID: <loop-{i}@x>\r\n\r\nHELP\r\n");
        s.deliver(raw.as_bytes());
    }
    s.mail("player@example.test", "ok@x", "VERSION");
    let mut d = Daemon::open(s.config(), None).unwrap();
    let r = d.process_once(t0()).unwrap();
    assert_eq!((r.silenced, r.applied), (heads.len(), 1), "{r:?}");
    let sent = s.sent();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].to, "player@example.test");
    // Seen again (a restart before filing), each is a no-op.
    let r = d.process_once(t0()).unwrap();
    assert_eq!(r.fetched, 0, "{r:?}");
}

/// `SET ADDRESS` takes only an address the mailer can send to (an address literal is
/// refused with a sentence); the new address is asked, and once it answers it receives the
/// seat's mail, and the old one is told.
#[test]
fn set_address_takes_only_mailable_addresses_and_tells_the_new_one() {
    let mut s = Scratch::new("set-address");
    let at = {
        let mut judge = s.judge();
        start_game(&mut judge, "addr", "");
        complete_orders(&mut judge, "addr");
        forget_setup_mail(&mut judge);
        deadline(&mut judge, "addr")
    };
    let england = player("addr", Power::England);
    s.mail(
        &england,
        "addr-1@x",
        &format!(
            "SIGNON Eaddr {}\nSET ADDRESS a@[127.0.0.1]\nSET ADDRESS a@{}test",
            password(Power::England),
            format!("{}.", "d".repeat(60)).repeat(5)
        ),
    );
    let mut d = Daemon::open(s.config(), None).unwrap();
    d.process_once(t0() + Duration::hours(1)).unwrap();
    let reply = &s.sent_to(&england)[0].body;
    assert!(
        reply.contains("ERROR BAD-ADDRESS: line 2: \"SET ADDRESS a@[127.0.0.1]\": the judge cannot send mail to a@[127.0.0.1]: an address at a bare IP address is not one it can send to; give an address at a domain name"),
        "{reply}"
    );
    // An address over SMTP's lengths does not read as an address at all.
    assert!(
        reply.contains("ERROR SYNTAX: line 3:") && reply.contains("expected an e-mail address"),
        "{reply}"
    );
    s.mail(
        &england,
        "addr-2@x",
        &format!(
            "SIGNON Eaddr {}\nSET ADDRESS London.Desk@example.test",
            password(Power::England)
        ),
    );
    d.process_once(t0() + Duration::hours(2)).unwrap();
    // The new address is asked (issue 37: a seat moves only when its new address
    // confirms), answers, and the old one is told where the mail goes now.
    let asked = s.sent_to("London.Desk@example.test");
    assert_eq!(asked.len(), 1, "{asked:?}");
    let code = asked[0]
        .subject
        .strip_prefix("DIP confirmation ")
        .expect("a confirmation")
        .to_string();
    assert!(
        asked[0].body.contains("the seat stays where it is"),
        "{}",
        asked[0].body
    );
    s.mail(
        "London.Desk@example.test",
        "addr-3@x",
        &format!("CONFIRM {code}"),
    );
    d.process_once(t0() + Duration::hours(2) + Duration::minutes(1))
        .unwrap();
    let told: Vec<_> = s
        .sent_to(&england)
        .into_iter()
        .filter(|m| m.subject == "DIP:addr - Address set")
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].body.starts_with(
            "From now on the mail of England in the game 'addr' on this judge goes to london.desk@example.test"
        ),
        "{}",
        told[0].body
    );
    // The results go to the new address, not the old one.
    d.process_once(at).unwrap();
    let results = |to: &str| {
        s.sent_to(to)
            .into_iter()
            .filter(|m| m.subject.contains("Results"))
            .count()
    };
    // The seat's address is the one that confirmed, as its mail gave it.
    assert_eq!(results("london.desk@example.test"), 1);
    assert_eq!(results(&england), 0);
}

/// The text cap cuts at the end of a line: the order the cap would have cut
/// (`A Par S F Bre - Pic`) is not run as a shorter one (`A Par S F Bre`), and the reply
/// names the first line not read.
#[test]
fn a_line_cut_by_the_text_cap_runs_nothing() {
    let mut s = Scratch::with_daemon_settings("text-cap", "max_text_bytes = 200");
    {
        let mut judge = s.judge();
        start_game(&mut judge, "cap", "");
        forget_setup_mail(&mut judge);
    }
    let france = player("cap", Power::France);
    let first = format!("SIGNON Fcap {}\n", password(Power::France));
    let mut body = first.clone();
    while body.len() + "A Mar H\n".len() < 180 {
        body.push_str("A Mar H\n");
    }
    let lines = body.lines().count();
    body.push_str("F Bre - Eng\nA Par S F Bre - Eng\nA Mar - Spa\n");
    s.mail(&france, "cap-1@x", &body);
    let mut d = Daemon::open(s.config(), None).unwrap();
    d.process_once(t0() + Duration::hours(1)).unwrap();
    let reply = &s.sent_to(&france)[0].body;
    assert!(!reply.contains("A Par S F Bre\n"), "{reply}");
    assert!(!reply.contains("OK A Par S"), "{reply}");
    assert!(!reply.contains("A Mar - Spa"), "{reply}");
    // The text is the body; the cap keeps its whole lines within 200 bytes.
    let kept = &body[..body[..200].rfind('\n').unwrap() + 1];
    let read = kept.lines().count();
    assert_eq!(read, lines + 1, "the cap falls inside the support order");
    assert!(reply.contains("OK F Bre - ENG"), "{reply}");
    assert!(
        reply.contains(&format!(
            "NOTE: your message was longer than this judge reads: it read lines 1 to {read} and stopped before line {}, of which nothing was read or done.",
            read + 1
        )),
        "{reply}"
    );
}

/// The head of a hostile mail from `from`.
fn hostile_head(from: &str, id: &str, subject: &str) -> String {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: {subject}\r\nDate: Mon, 2 Mar 2026 09:00:00 +0000\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\n"
    )
}

/// `message/rfc822` parts nested `depth` deep (160,000: 5 MB, which overflowed the stack
/// of the MIME parser's caller before issue 36).
pub(crate) fn message_nest(from: &str, id: &str, depth: usize) -> Vec<u8> {
    let mut m = hostile_head(from, id, "nest").into_bytes();
    for _ in 0..depth {
        m.extend_from_slice(b"Content-Type: message/rfc822\r\n\r\n");
    }
    m.extend_from_slice(b"From: inner@example.test\r\n\r\nHELP\r\n");
    m
}

/// An HTML mail of `bytes` of nested `<div>` (704 KB took 10 to 19 s to convert).
pub(crate) fn html_nest(from: &str, id: &str, bytes: usize) -> Vec<u8> {
    let depth = bytes / "<div></div>".len();
    let mut m = hostile_head(from, id, "html").into_bytes();
    m.extend_from_slice(b"Content-Type: text/html; charset=utf-8\r\n\r\n");
    m.extend_from_slice("<div>".repeat(depth).as_bytes());
    m.extend_from_slice(b"VERSION");
    m.extend_from_slice("</div>".repeat(depth).as_bytes());
    m.extend_from_slice(b"\r\n");
    m
}

/// A multipart mail of `parts` empty parts.
pub(crate) fn part_flood(from: &str, id: &str, parts: usize) -> Vec<u8> {
    let mut m = hostile_head(from, id, "parts").into_bytes();
    m.extend_from_slice(b"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n");
    m.extend_from_slice("--b\r\n\r\nx\r\n".repeat(parts).as_bytes());
    m.extend_from_slice(b"--b--\r\n");
    m
}

/// A mail whose text says HELP and whose attachment is a base64 `message/rfc822` that
/// decodes to 100,000 nested messages (a parser that reads encoded messages decodes and
/// parses it again inside: a bomb its raw bytes do not show).
pub(crate) fn base64_nest(from: &str, id: &str) -> Vec<u8> {
    use std::fmt::Write;
    let inner = "Content-Type: message/rfc822\r\n\r\n".repeat(100_000) + "From: a@b\r\n\r\nx\r\n";
    let encoded = base64(inner.as_bytes());
    let mut lines = String::new();
    for chunk in encoded.as_bytes().chunks(76) {
        let _ = write!(lines, "{}\r\n", String::from_utf8_lossy(chunk));
    }
    let mut m = hostile_head(from, id, "forwarded").into_bytes();
    m.extend_from_slice(
        format!(
            "Content-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--B\r\nContent-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n\r\n{lines}--B--\r\n"
        )
        .as_bytes(),
    );
    m
}

/// Standard base64 (RFC 4648), padded.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Done when (issue 36): the stack-overflow nest and the HTML nest are each set aside within
/// one pass with the honest mail behind them answered. The real binary reads the hostile
/// corpus in one `dipjudge process`: the nest, the HTML and a million parts are answered
/// with a sentence saying what was too big and moved to the rejected folder; the base64
/// bomb is read as the mail of a HELP with an attachment (its nested messages are never
/// parsed); the honest mail is answered. Before, the nest killed every pass (a stack
/// overflow, before any attempt was counted) and the HTML took tens of seconds.
#[test]
fn poison_mail_is_set_aside_within_one_pass_and_the_mail_behind_it_answered() {
    let mut s = Scratch::new("poison-corpus");
    s.deliver(&message_nest("nest@example.test", "nest@x", 160_000));
    s.deliver(&html_nest("html@example.test", "html@x", 704 * 1024));
    s.deliver(&part_flood("parts@example.test", "parts@x", 1_000_000));
    s.deliver(&base64_nest("b64@example.test", "b64@x"));
    s.mail("honest@example.test", "honest@x", "VERSION");
    // A bound against a hang, not a timing: the unoptimised build takes up to a minute on a
    // loaded machine (the release figures: `dipjudge bench-read`, README).
    let (status, log, took) = crate::scratch::run_within(
        crate::scratch::process(&s.config_path(), t0(), &[]),
        std::time::Duration::from_secs(300),
    );
    eprintln!("the hostile corpus read in {took:?}");
    assert!(status.success(), "{status}: {log}");
    assert_eq!((s.rejected(), s.waiting()), (3, 0));
    for (who, what) in [
        ("nest", "it has more than 1000 MIME parts"),
        ("html", "its HTML nests elements more than 512 deep"),
        ("parts", "it has more than 1000 MIME parts"),
    ] {
        let got = s.sent_to(&format!("{who}@example.test"));
        assert_eq!(got.len(), 1, "{who}: {got:?}");
        assert!(
            got[0].body.starts_with(&format!("Your mail could not be read: {what}, more than this judge reads in one mail. Nothing in it was done.")),
            "{who}: {}",
            got[0].body
        );
        assert_eq!(
            got[0].in_reply_to.as_deref(),
            Some(format!("{who}@x").as_str())
        );
    }
    let b64 = s.sent_to("b64@example.test");
    assert_eq!(b64.len(), 1, "{b64:?}");
    assert!(b64[0].body.contains("HELP"), "{}", b64[0].body);
    assert!(
        !b64[0].body.contains("could not be read"),
        "{}",
        b64[0].body
    );
    let honest = s.sent_to("honest@example.test");
    assert_eq!(honest.len(), 1, "{honest:?}");
    assert!(honest[0].body.contains("OK VERSION"), "{}", honest[0].body);
    // Seen again (a copy delivered twice), each is a no-op.
    s.deliver(&message_nest("nest@example.test", "nest@x", 160_000));
    let (status, log, _) = crate::scratch::run_within(
        crate::scratch::process(&s.config_path(), t0(), &[]),
        std::time::Duration::from_secs(300),
    );
    assert!(status.success(), "{status}: {log}");
    assert_eq!(s.sent_to("nest@example.test").len(), 1);
}
