//! Attacks from outside the session (issue 37), each replayed by mail (or over TCP) and shown
//! failing; every test is named after the defect it closes. Forged delivery reports, a
//! stranger locking a seat's owner out, passwords echoed or words masked that are none, a
//! greedy web client, and the small doors: addresses no seat may have, invitations without
//! end, forged wrong codes, games created by throwaway addresses.

use chrono::Duration;
use dipjudge::daemon::Daemon;
use dipjudge::map::Power;

use crate::desk::{self, Desk, Table};
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
    // Nor does the public web view.
    let server = crate::web::server(&s.database());
    for path in ["/", "/game/dsn"] {
        let page = crate::web::get(&server, path);
        assert_eq!(page.status, 200, "{path}");
        assert!(!page.body.contains("bouncing"), "{path}: {}", page.body);
    }
}

/// A standard game by mail on the desk: its master at `gm@<name>.test`, each power at
/// `<power>@<name>.test`; started.
fn table(name: &str) -> Table {
    let mut t = Table::new(
        Desk::new(name, desk::utc(2026, 11, 1, 9, 0)),
        name,
        &format!("gm@{name}.test"),
        {
            let name = name.to_string();
            move |p: Power| format!("{}@{name}.test", p.name().to_lowercase())
        },
    );
    t.start();
    t
}

/// Every seat of a game: the master's, and each power's.
fn seats() -> Vec<Option<Power>> {
    std::iter::once(None).chain(Power::ALL.map(Some)).collect()
}

/// The sign-on line of a seat (`None`: the master's) with `password`.
fn signon(game: &str, seat: Option<Power>, password: &str) -> String {
    match seat {
        None => format!("SIGNON M{game} {password}"),
        Some(p) => format!("SIGNON {}{game} {password}", p.initial()),
    }
}

/// About 95 wrong sign-ons an hour, sent whenever a lock ends, kept every seat of a game
/// (the master's too) locked for hours, its owner with it; and the owner's notice went
/// only once a seat was unlocked, so none was sent. Now ten hours of 96 guesses an hour
/// from ever new addresses (twelve a seat) lock the strangers out, while every seat's owner
/// signs on from its own address every hour; each owner is told at the first tick after
/// its seat's lock started, and once only that day; at most ten of the strangers'
/// passwords are checked a seat and hour.
#[test]
fn a_guesser_never_locks_the_owner_out() {
    let mut t = table("siege");
    let start = t.now;
    let checks_before = t.judge.password_checks();
    let mails_before = t.mails().len();
    let mut guesses = 0;
    for hour in 0..10 {
        for (k, seat) in seats().into_iter().enumerate() {
            let mut checked = 0;
            for n in 0..12 {
                t.now = start
                    + Duration::hours(hour)
                    + Duration::minutes(i64::try_from(k * 12 + n).unwrap() / 2);
                guesses += 1;
                let r = t.mail(
                    &format!("guesser{guesses}@evil.test"),
                    &signon("siege", seat, &format!("guess-{guesses:05}")),
                );
                if r.starts_with("ERROR BAD-SIGNON") {
                    checked += 1;
                } else {
                    assert!(r.starts_with("ERROR SIGNON-LOCKED"), "{r}");
                }
            }
            // The guessers are locked out within the hour (the sliding hour lets the odd
            // guess through as the last hour's leave it).
            assert!(checked <= 10, "hour {hour} {seat:?}: {checked} checked");
            // The owner, from its own address, right in the middle of the lock.
            let r = match seat {
                None => t.as_master(""),
                Some(p) => t.as_power(p, ""),
            };
            assert!(r.starts_with("OK SIGNON"), "hour {hour} {seat:?}: {r}");
        }
        let at = t.now;
        t.tick(at);
        if hour == 0 {
            // Each owner told of the lock at once, while it lasts.
            let told: Vec<String> = t
                .mails_since(mails_before)
                .into_iter()
                .filter(|m| m.subject.contains("Wrong passwords"))
                .map(|m| m.recipient)
                .collect();
            assert_eq!(told.len(), 8, "{told:?}");
            assert!(told.contains(&"gm@siege.test".to_string()), "{told:?}");
        }
    }
    let checked = t.judge.password_checks() - checks_before;
    // Ten strangers' guesses a seat and hour, and the owners' right passwords.
    assert!(
        checked <= 10 * 8 * 10 + 8 * 10,
        "{checked} passwords checked"
    );
    let notices: Vec<_> = t
        .mails_since(mails_before)
        .into_iter()
        .filter(|m| m.subject.contains("Wrong passwords"))
        .collect();
    assert_eq!(notices.len(), 8, "one notice a seat in ten hours");
    assert!(
        notices
            .iter()
            .all(|m| m.body.contains("Other addresses never lock you out")),
        "{}",
        notices[0].body
    );
}

/// The owner's own address has a small budget of its own (five wrong passwords an hour),
/// which strangers' guesses never use up and which does not lock the strangers' side; one
/// stranger's address is bounded over every seat of the judge (twenty an hour), before any
/// seat's own ten are used up.
#[test]
fn the_owner_and_each_guessing_address_have_budgets_of_their_own() {
    let mut t = table("budget");
    let england = t.address(Power::England);
    for n in 0..5 {
        let r = t.mail(&england, &format!("SIGNON Ebudget typo-{n:04}"));
        assert!(r.starts_with("ERROR BAD-SIGNON"), "{n}: {r}");
    }
    let r = t.as_power(Power::England, "");
    assert!(r.starts_with("ERROR SIGNON-LOCKED"), "{r}");
    assert!(r.contains("from its own address"), "{r}");
    // The right password from another address is still checked (a copy goes home).
    let r = t.mail(
        "england-at-work@budget.test",
        &format!("SIGNON Ebudget {}", desk::password(Power::England)),
    );
    assert!(r.starts_with("OK SIGNON"), "{r}");
    // One address, three guesses at each seat: its twenty-first wrong password is refused
    // unchecked, though no seat has had ten.
    let before = t.judge.password_checks();
    let mut answers = Vec::new();
    for round in 0..3 {
        for seat in seats() {
            answers.push(t.mail(
                "sweeper@evil.test",
                &signon("budget", seat, &format!("sweep-{round}")),
            ));
        }
    }
    assert_eq!(t.judge.password_checks() - before, 20);
    for (i, r) in answers.iter().enumerate() {
        let code = if i < 20 {
            "ERROR BAD-SIGNON"
        } else {
            "ERROR SIGNON-LOCKED"
        };
        assert!(r.starts_with(code), "{i}: {r}");
    }
    assert!(
        answers[20].contains("your address has sent 20 wrong passwords"),
        "{}",
        answers[20]
    );
    // Another address still signs on to France.
    let r = t.as_power(Power::France, "");
    assert!(r.starts_with("OK SIGNON"), "{r}");
}

/// Misspelt sign-on keywords echoed the password in clear, in the reply and in the copy to
/// the seat's address, while every word that occurs inside a password was blanked on every
/// other line (a game's name, a year). Now the words after the game on a line that starts
/// like a sign-on are masked, misspelt or not, and no other word anywhere.
#[test]
fn misspelt_signon_echoes_no_password_and_masks_no_other_word() {
    let mut t = table("masks");
    let r = t.as_power(Power::England, "SET PASSWORD masks-1902");
    assert!(r.contains("OK SET PASSWORD"), "{r}");
    let before = t.mails().len();
    let secrets = [
        "Secret01", "Secret02", "Secret03", "Secret04", "Secret05", "Secret06",
    ];
    let r = t.mail(
        "england-away@masks.test",
        "SIGNON Emasks masks-1902\n\
         SET DEADLINE masks\n\
         HISTORY masks FROM 1902\n\
         TAKE OVER France masks Secret01\n\
         SIGN-ON Emasks Secret02\n\
         SIGNIN Emasks Secret03\n\
         - SIGNON Emasks Secret04\n\
         SIGNON: Emasks Secret05\n\
         Take-over France masks Secret06",
    );
    assert!(r.starts_with("OK SIGNON Emasks"), "{r}");
    let sent = t.mails_since(before);
    let copy = sent
        .iter()
        .find(|m| m.recipient == t.address(Power::England))
        .expect("a copy to England's address");
    for m in &sent {
        for secret in secrets.iter().chain(&["masks-1902"]) {
            assert!(
                !m.body.to_lowercase().contains(&secret.to_lowercase()),
                "{secret} to {}: {}",
                m.recipient,
                m.body
            );
        }
    }
    for body in [&r, &copy.body] {
        // The game's name and the year, though both are in England's password, read.
        assert!(
            body.contains("\"SET DEADLINE masks\": cannot read the date \"masks\""),
            "{body}"
        );
        assert!(
            body.contains("\"HISTORY masks FROM 1902\": cannot read the date \"1902\""),
            "{body}"
        );
        for shown in [
            "\"TAKE OVER France masks ********\"",
            "\"SIGN-ON Emasks ********\"",
            "\"SIGNIN Emasks ********\"",
            "\"- SIGNON Emasks ********\"",
            "\"SIGNON: Emasks ********\"",
        ] {
            assert!(body.contains(shown), "{shown}: {body}");
        }
        // Since issue 38's framing the last line reads as the mail's closing and is not
        // echoed at all; echoed, it would be masked.
        assert!(
            !body.contains("Take-over France")
                || body.contains("\"Take-over France masks ********\""),
            "{body}"
        );
    }
}

/// A request from `from` (a loopback address) to the web server: the whole answer, read
/// until the server closes (or what came within 20 seconds).
fn fetch_from(from: std::net::IpAddr, server: std::net::SocketAddr, request: &[u8]) -> String {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(std::net::SocketAddr::new(from, 0)).unwrap();
        let mut stream = socket.connect(server).await.unwrap();
        stream.write_all(request).await.unwrap();
        let mut out = Vec::new();
        let _ = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            stream.read_to_end(&mut out),
        )
        .await;
        String::from_utf8_lossy(&out).into_owned()
    })
}

/// Whether the server has closed `stream` (EOF or reset), without waiting.
fn closed(stream: &std::net::TcpStream) -> bool {
    use std::io::Read;
    stream.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 256];
    let mut s = stream;
    let gone = match s.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    };
    stream.set_nonblocking(false).unwrap();
    gone
}

/// 256 slow connections from one client locked every visitor out of the web view. Now 300
/// connections from 127.0.0.1 that never finish their headers hold at most 32 places (the
/// rest are closed at once), a visitor from 127.0.0.2 gets its page meanwhile, the slow
/// ones are closed once the header time-out is over, and a request whose body never comes
/// is answered and closed, not kept waiting for it.
#[test]
fn a_greedy_web_client_does_not_lock_visitors_out() {
    use std::io::Write;
    let s = Scratch::new("greedy-web");
    {
        let mut judge = s.judge();
        start_game(&mut judge, "greedy", "");
    }
    let server = crate::web::server(&s.database());
    let addr = server.addr();
    let mut slow = Vec::new();
    for _ in 0..300 {
        let mut c = std::net::TcpStream::connect(addr).unwrap();
        // The request line and one header; the rest never comes.
        let _ = c.write_all(b"GET / HTTP/1.1\r\nHost: greedy\r\n");
        slow.push(c);
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let open = slow.iter().filter(|c| !closed(c)).count();
    assert!(open <= 32, "{open} slow connections of one client are kept");
    assert!(open >= 16, "{open}: the client's own share is served");
    let started = std::time::Instant::now();
    let page = fetch_from(
        "127.0.0.2".parse().unwrap(),
        addr,
        b"GET /game/greedy HTTP/1.1\r\nHost: greedy\r\nConnection: close\r\n\r\n",
    );
    assert!(page.starts_with("HTTP/1.1 200"), "{page:.200}");
    assert!(page.contains("greedy"), "{page:.200}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // A body that never comes: the answer, then the connection closed.
    let answer = fetch_from(
        "127.0.0.3".parse().unwrap(),
        addr,
        b"GET / HTTP/1.1\r\nHost: greedy\r\nContent-Length: 100000\r\n\r\nsome",
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.200}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(8),
        "the body was waited for"
    );
    // The header time-out (10 s) closes the slow ones.
    std::thread::sleep(std::time::Duration::from_secs(11));
    let open = slow.iter().filter(|c| !closed(c)).count();
    assert_eq!(open, 0, "slow connections outlive the header time-out");
}

/// `SET ADDRESS` took the judge's own address, `MAILER-DAEMON@…`, `a@b` and `a@localhost`.
/// Now one rule refuses them, with a sentence, wherever an address is taken: SET ADDRESS,
/// PROMOTE, SET INVITE and I AM ALSO; and the seat keeps its address.
#[test]
fn no_seat_invitation_or_link_at_the_judge_or_a_mail_system() {
    let mut t = table("doors");
    let england = t.address(Power::England);
    for bad in [
        "judge@example.test",
        "JUDGE+seat@Example.Test",
        "MAILER-DAEMON@example.test",
        "postmaster@example.org",
        "a@b",
        "a@localhost",
        "noreply@example.org",
    ] {
        let r = t.as_power(Power::England, &format!("SET ADDRESS {bad}"));
        assert!(r.contains("ERROR BAD-ADDRESS: line 2"), "{bad}: {r}");
        assert!(
            r.contains("the judge cannot send mail to") || r.contains("the judge's own address"),
            "{bad}: {r}"
        );
        let r = t.as_master(&format!("PROMOTE {bad}"));
        assert!(r.contains("ERROR BAD-ADDRESS: line 2"), "{bad}: {r}");
        let r = t.as_power(Power::France, &format!("I AM ALSO {bad}"));
        assert!(r.contains("ERROR BAD-ADDRESS: line 2"), "{bad}: {r}");
    }
    assert_eq!(
        t.game()
            .player(Power::England)
            .map(|pl| pl.seat.address.clone()),
        Some(england)
    );
    assert!(t.game().comasters().is_empty());
    // A forming game's invitations.
    let mut f = Table::new(
        Desk::new("doors2", desk::utc(2026, 11, 1, 9, 0)),
        "doors2",
        "gm@doors2.test",
        |p: Power| format!("{}@doors2.test", p.name().to_lowercase()),
    );
    f.create("");
    let r = f.as_master("SET INVITE friend@example.org judge@example.test");
    assert!(r.contains("ERROR BAD-ADDRESS: line 2"), "{r}");
    assert!(
        r.contains("judge@example.test is the judge's own address"),
        "{r}"
    );
    assert!(
        f.game().settings().invitations.is_empty(),
        "nobody invited by halves"
    );
    let r = f.as_master("SET INVITE friend@example.org");
    assert!(r.contains("OK SET INVITE"), "{r}");
}

/// Invitations could be mailed to one victim without limit (SET INVITE, SET UNINVITE, and
/// again; or a game after another). Now an address gets at most three mails a day on
/// someone else's word (invitations and co-masters' passwords together), and the next is
/// refused with a sentence; the day after, it may be invited again.
#[test]
fn invitations_to_one_address_are_bounded_a_day() {
    let victim = "victim@example.org";
    let mut f = Table::new(
        Desk::new("invites", desk::utc(2026, 11, 1, 9, 0)),
        "invites",
        "gm@invites.test",
        |p: Power| format!("{}@invites.test", p.name().to_lowercase()),
    );
    f.create("");
    let mut answers = Vec::new();
    for _ in 0..10 {
        answers.push(f.as_master(&format!("SET INVITE {victim}")));
        answers.push(f.as_master(&format!("SET UNINVITE {victim}")));
    }
    // Another game of the same master, and a co-master's password, count too.
    let r = f.mail_from_master("CREATE ?invites2 gmpass-02\nSET INVITE victim@example.org");
    answers.push(r);
    let mailed = f.mails().iter().filter(|m| m.recipient == victim).count();
    assert_eq!(mailed, 3, "{answers:#?}");
    let refused: Vec<&String> = answers
        .iter()
        .filter(|r| r.contains("ERROR MAILED-ENOUGH"))
        .collect();
    assert_eq!(refused.len(), 8, "{answers:#?}");
    assert!(
        refused[0].contains("victim@example.org has been mailed 3 invitations or co-master passwords in the last 24 hours"),
        "{}",
        refused[0]
    );
    let r = f.as_master(&format!("PROMOTE {victim}"));
    assert!(r.contains("ERROR MAILED-ENOUGH"), "{r}");
    // A day later: one more.
    f.now += Duration::hours(25);
    let r = f.as_master(&format!("SET INVITE {victim}"));
    assert!(r.contains("OK SET INVITE"), "{r}");
    assert_eq!(
        f.mails().iter().filter(|m| m.recipient == victim).count(),
        4
    );
}

/// Five forged wrong codes cancelled a confirmation the victim was waiting for. Now wrong
/// codes from other addresses (the victim only in Reply-To) never cancel it: after twenty
/// of them other addresses are no longer heard, and the victim's own answer still
/// confirms.
#[test]
fn forged_wrong_codes_do_not_cancel_a_confirmation() {
    let mut t = table("codes");
    let victim = "victim@example.org";
    let now = t.now;
    let mails = desk::deliver(
        &mut t.judge,
        &desk::incoming("<obs@test>", victim, "observe", "OBSERVE codes"),
        now,
    );
    let code = desk::code_of(
        mails
            .iter()
            .find(|m| m.recipient == victim)
            .expect("a code"),
    );
    for i in 0..25 {
        let msg = dipjudge::judge::Incoming {
            reply_to: Some(victim.to_string()),
            ..desk::incoming(
                &format!("<forged-{i}@test>"),
                "attacker@evil.test",
                "x",
                "CONFIRM AAAAAAAA",
            )
        };
        let body = desk::apply(&mut t.judge, &msg, now);
        let want = if i < 20 {
            "ERROR WRONG-CODE: line 1"
        } else {
            "ERROR WRONG-CODE: line 1: \"CONFIRM AAAAAAAA\": this confirmation has been sent 20 wrong codes from other addresses"
        };
        assert!(body.starts_with(want), "{i}: {body}");
    }
    // The right code from another address is not heard now; from the victim it confirms.
    let msg = dipjudge::judge::Incoming {
        reply_to: Some(victim.to_string()),
        ..desk::incoming(
            "<forged-right@test>",
            "attacker@evil.test",
            "x",
            &format!("CONFIRM {code}"),
        )
    };
    let body = desk::apply(&mut t.judge, &msg, now);
    assert!(body.starts_with("ERROR WRONG-CODE"), "{body}");
    let r = t.mail(victim, &format!("CONFIRM {code}"));
    assert!(r.starts_with(&format!("OK CONFIRM {code}")), "{r}");
    assert!(t.game().observers().iter().any(|o| o == victim), "{r}");
}

/// The three-CREATEs-a-day limit was per address: 200 addresses made 200 games. Now the
/// addresses that never answered a confirmation create at most `unproven_games_per_day`
/// (20) games a day together; an address that confirmed itself still creates its own.
#[test]
fn throwaway_addresses_create_at_most_the_judges_ceiling() {
    let mut d = Desk::new("flood", desk::utc(2026, 11, 1, 9, 0));
    let mut made = 0;
    let mut refused = Vec::new();
    for i in 0..200 {
        let r = d.mail(
            &format!("throwaway{i}@evil.test"),
            &format!("CREATE ?flood{i} password-{i:04}"),
        );
        if r.starts_with("OK CREATE") {
            made += 1;
        } else {
            refused.push(r);
        }
    }
    assert_eq!(made, 20);
    assert!(
        refused[0].starts_with("ERROR TOO-MANY-GAMES: line 1: \"CREATE ?flood20 ********\": 20 games were created in the last 24 hours by addresses that have not confirmed themselves"),
        "{}",
        refused[0]
    );
    // An address that answered a confirmation creates all the same.
    let ann = "ann@example.org";
    let r = d.mail(ann, "SET MAP ON");
    let code = desk::confirmation_code(&r);
    let r = d.mail(ann, &format!("CONFIRM {code}"));
    assert!(r.starts_with("OK CONFIRM"), "{r}");
    let r = d.mail(ann, "CREATE ?annsgame password-ann");
    assert!(r.starts_with("OK CREATE"), "{r}");
    // A day later the throwaways may create again.
    d.now += Duration::hours(25);
    let r = d.mail("late@evil.test", "CREATE ?late password-late");
    assert!(r.starts_with("OK CREATE"), "{r}");
}
