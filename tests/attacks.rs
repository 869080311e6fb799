//! Attacks from outside the session (issue 37), each replayed by mail (or over TCP) and shown
//! failing; every test is named after the defect it closes. Forged delivery reports, a
//! stranger locking a seat's owner out, passwords echoed or words masked that are none, a
//! greedy web client, and the small doors: addresses no seat may have, invitations without
//! end, forged wrong codes, games created by throwaway addresses.

use chrono::Duration;
use dipjudge::daemon::Daemon;
use dipjudge::map::Power;

use crate::scratch::{Scratch, master, password, player, start_game, t0};

/// A delivery report as a mail server writes it (RFC 3464): from `from`, saying mail to
/// `recipient` failed for good, returning the headers of the mail with Message-ID
/// `returned` when given.
fn delivery_report(id: &str, from: &str, recipient: &str, returned: Option<&str>) -> String {
    let headers = returned.map_or_else(String::new, |mid| {
        format!(
            "--B37\r\n\
             Content-Type: text/rfc822-headers\r\n\
             \r\n\
             From: judge@example.test\r\n\
             To: {recipient}\r\n\
             Subject: DIP:dsn - S1901M Game Starting\r\n\
             Message-ID: <{mid}>\r\n\
             \r\n"
        )
    });
    format!(
        "From: Mail Delivery System <{from}>\r\n\
         To: judge@example.test\r\n\
         Subject: Undelivered Mail Returned to Sender\r\n\
         Message-ID: <{id}>\r\n\
         Auto-Submitted: auto-replied\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"B37\"\r\n\
         \r\n\
         --B37\r\n\
         Content-Type: text/plain; charset=us-ascii\r\n\
         \r\n\
         Your message could not be delivered.\r\n\
         \r\n\
         --B37\r\n\
         Content-Type: message/delivery-status\r\n\
         \r\n\
         Reporting-MTA: dns; mail.example.test\r\n\
         \r\n\
         Final-Recipient: rfc822; {recipient}\r\n\
         Action: failed\r\n\
         Status: 5.1.1\r\n\
         Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: user unknown\r\n\
         \r\n\
         {headers}--B37--\r\n"
    )
}

/// Whether a power of game `game` is marked bouncing.
fn bouncing(d: &mut Daemon, game: &str, p: Power) -> bool {
    d.judge()
        .game(game)
        .unwrap()
        .and_then(|g| g.player(p).map(|pl| pl.bouncing.is_some()))
        .unwrap_or(false)
}

/// A forged delivery report marked every seat at its `Final-Recipient` "mail bouncing", and
/// everyone's LIST showed the mark: one report per candidate address told who plays which
/// power. Reports naming no mail, the judge's old guessable ids (`dip.N@domain`) or a
/// forged tag now mark nobody; a report returning the Message-ID of a mail the judge really
/// sent to that address marks its seat, and only the master's LIST shows the mark.
#[test]
fn forged_delivery_report_marks_nobody() {
    let mut s = Scratch::new("forged-dsn");
    {
        let mut judge = s.judge();
        start_game(&mut judge, "dsn", "");
    }
    let mut d = Daemon::open(s.config(), None).unwrap();
    let at = t0() + Duration::minutes(5);
    d.process_once(at).unwrap();
    let france = player("dsn", Power::France);
    let real = s
        .sent_to(&france)
        .into_iter()
        .next()
        .expect("the judge mailed France")
        .message_id;
    // Forged: no mail named; each old-style id the judge could have given; a forged tag;
    // a real id of the judge's, but for a mail to someone else.
    let to_england = s
        .sent_to(&player("dsn", Power::England))
        .into_iter()
        .next()
        .expect("the judge mailed England")
        .message_id;
    let mut forged = vec![
        delivery_report("f-0@evil.test", "MAILER-DAEMON@evil.test", &france, None),
        delivery_report(
            "f-tag@evil.test",
            "MAILER-DAEMON@evil.test",
            &france,
            Some(&format!(
                "dip.{}.zzzzzzzzzz@example.test",
                real.split(['.', '@']).nth(1).unwrap_or_default()
            )),
        ),
        delivery_report(
            "f-other@evil.test",
            "MAILER-DAEMON@evil.test",
            &france,
            Some(&to_england),
        ),
    ];
    for n in 1..=60 {
        forged.push(delivery_report(
            &format!("f-{n}@evil.test"),
            "MAILER-DAEMON@evil.test",
            &france,
            Some(&format!("dip.{n}@example.test")),
        ));
    }
    for raw in &forged {
        s.deliver(raw.as_bytes());
    }
    d.process_once(at + Duration::minutes(1)).unwrap();
    assert!(
        !bouncing(&mut d, "dsn", Power::France),
        "a forged report marked France"
    );
    assert!(
        s.sent_to(&master("dsn"))
            .iter()
            .all(|m| !m.subject.contains("bouncing")),
        "the master was told of a forged report"
    );
    // The real report: France is marked, the master told.
    s.deliver(
        delivery_report(
            "real@mail.example.test",
            "MAILER-DAEMON@mail.example.test",
            &france,
            Some(&real),
        )
        .as_bytes(),
    );
    d.process_once(at + Duration::minutes(2)).unwrap();
    assert!(bouncing(&mut d, "dsn", Power::France));
    assert_eq!(
        s.sent_to(&master("dsn"))
            .iter()
            .filter(|m| m.subject.contains("Mail to France bouncing"))
            .count(),
        1
    );
    // The mark is the master's to read: England's LIST does not show it.
    s.mail(
        &player("dsn", Power::England),
        "list-england@test",
        &format!("SIGNON Edsn {}\nLIST dsn", password(Power::England)),
    );
    s.mail(
        &master("dsn"),
        "list-master@test",
        "SIGNON Mdsn gm-password\nLIST dsn",
    );
    s.mail("stranger@example.test", "list-stranger@test", "LIST dsn");
    d.process_once(at + Duration::minutes(3)).unwrap();
    let reply = |to: &str| {
        s.sent_to(to)
            .into_iter()
            .rev()
            .find(|m| m.body.contains("OK LIST dsn") || m.body.contains("Game: dsn"))
            .unwrap_or_else(|| panic!("no LIST reply to {to}"))
            .body
    };
    let england = reply(&player("dsn", Power::England));
    assert!(england.contains("France"), "{england}");
    assert!(!england.contains("bouncing"), "{england}");
    let stranger = reply("stranger@example.test");
    assert!(!stranger.contains("bouncing"), "{stranger}");
    let gm = reply(&master("dsn"));
    assert!(gm.contains("(mail bouncing)"), "{gm}");
}
