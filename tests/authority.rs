//! Secrets and authority under attack (issue 24), by mail through the judge core: no word
//! that may be a password in any reply or copy, whatever is wrong with its line.

use chrono::{DateTime, TimeZone, Utc};
use dipjudge::game::{Game, Player, Seat, Status};
use dipjudge::judge::{Incoming, Judge, JudgeConfig, PasswordCost, hash_password};
use dipjudge::map::{Map, Power};
use dipjudge::store::{QueuedMail, Store};

const GAME: &str = "alpha";
const MASTER: &str = "gm@example.test";
const MASTER_PASSWORD: &str = "MasterPass1";
const ENGLAND: &str = "england@example.test";
const ENGLAND_PASSWORD: &str = "RightPass1";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 9, 0, 0)
        .single()
        .expect("time")
}

/// A judge with one running standard game, `alpha`: England at [`ENGLAND`], the other
/// powers at `<power>@example.test` (password `OtherPass1`), the master at [`MASTER`].
pub(crate) fn running_game() -> Judge {
    let map = Map::standard().expect("map");
    let config = JudgeConfig {
        password_cost: PasswordCost::TEST,
        ..JudgeConfig::default()
    };
    let mut judge = Judge::new(Store::open_in_memory().expect("store"), config).expect("judge");
    let seat = |address: &str, pw: &str| Seat {
        address: address.to_string(),
        password_hash: hash_password(PasswordCost::TEST, pw, 1),
    };
    let mut g = Game::new(
        GAME,
        &dipjudge::variant::Standard,
        seat(MASTER, MASTER_PASSWORD),
        7,
        map,
    );
    g.status = Status::Active;
    g.players = Power::ALL
        .into_iter()
        .map(|p| {
            if p == Power::England {
                Player::new(p, seat(ENGLAND, ENGLAND_PASSWORD))
            } else {
                let address = format!("{}@example.test", p.name().to_lowercase());
                Player::new(p, seat(&address, "OtherPass1"))
            }
        })
        .collect();
    g.deadline = Some(t0() + chrono::Duration::days(3));
    judge.install_game(&g).expect("install");
    judge
}

/// Hands the judge one mail from `from`; returns every mail it queued for it.
pub(crate) fn mail(judge: &mut Judge, key: &str, from: &str, body: &str) -> Vec<QueuedMail> {
    let before = judge.all_mail().expect("mail").len();
    let msg = Incoming {
        key: key.to_string(),
        message_id: Some(key.to_string()),
        from: from.to_string(),
        reply_to: None,
        subject: "orders".into(),
        text: body.to_string(),
        size_capped: false,
    };
    judge.handle(&msg, t0()).expect("handled");
    judge.all_mail().expect("mail").split_off(before)
}

/// Wrong lines that carry a password, and the words of each that must never be shown: the
/// shapes of issue 24, extra words, punctuation after the keyword, split game names, tabs,
/// mixed case.
const SHAPES: &[(&str, &[&str])] = &[
    ("SET PASSWORD new Secret22", &["Secret22"]),
    ("SET PASSWORD: Secret25", &["Secret25"]),
    ("SET PASSWORD=Secret24", &["Secret24"]),
    ("SIGNON: Ealpha Secret07", &["Secret07"]),
    ("SIGNON E alpha Secret01", &["Secret01"]),
    ("SIGNON Ealpha my Secret02", &["Secret02"]),
    ("SIGNON ?alpha Secret03 Secret04", &["Secret03", "Secret04"]),
    ("OBSERVE alpha my Secret20", &["Secret20"]),
    ("signon ealpha Secret05 extra", &["Secret05"]),
    (
        "SIGNON\tEalpha\tSecret06\tSecret66",
        &["Secret06", "Secret66"],
    ),
    ("SiGnOn EALPHA Secret08 Secret88", &["Secret08", "Secret88"]),
    ("sign on Ealpha Secret09 more", &["Secret09"]),
    ("SIGN ON: Ealpha, Secret10, x", &["Secret10"]),
    ("CREATE ?beta Secret11 notarule", &["Secret11"]),
    ("CREATE ?beta survive Secret12", &["Secret12"]),
    ("CREATE beta Secret13 extra words", &["Secret13"]),
    ("CREATE: ?beta Secret14 standard nonsense", &["Secret14"]),
    ("create ?b e t a Secret15", &["Secret15"]),
    ("OBSERVE: alpha Secret16 extra", &["Secret16"]),
    ("WATCH alpha Secret17 Secret77", &["Secret17", "Secret77"]),
    ("observe al pha Secret18", &["Secret18"]),
    ("BECOME England Secret19", &["Secret19"]),
    ("BECOME: E Secret21", &["Secret21"]),
    ("SET PASSWORD Secret26 Secret27", &["Secret26", "Secret27"]),
    ("set password\t=\tSecret28", &["Secret28"]),
    ("Set Password - Secret29", &["Secret29"]),
    ("SIGNON Ealpha Secret30!", &["Secret30"]),
    ("SIGNON Ealpha \"Secret31\"", &["Secret31"]),
    ("SIGNON,Ealpha,Secret32", &["Secret32"]),
    ("SIGNON Ealpha Secret33 Secret33", &["Secret33"]),
    ("SIGNON Ealpha,Secret34 extra", &["Secret34"]),
    ("signon ealpha secret35 x", &["secret35"]),
    ("OBSERVE alpha Secret36 SET MAP OFF", &["Secret36"]),
    ("SIGNON Malpha Secret37 x", &["Secret37"]),
    ("SIGNON ?alpha: Secret38", &["Secret38"]),
    ("SIGNON E-alpha Secret39", &["Secret39"]),
    (
        "SIGN  ON   Ealpha   Secret40   Secret41",
        &["Secret40", "Secret41"],
    ),
    ("SET  PASSWORD  Secret42 ,", &["Secret42"]),
    ("SIGNONEalpha Secret43", &["Secret43"]),
    ("BECOME\tE\tSecret44\tSecret45", &["Secret44", "Secret45"]),
];

/// Whether `text` holds `word` in any letter case.
fn holds(text: &str, word: &str) -> bool {
    text.to_lowercase().contains(&word.to_lowercase())
}

/// Every shape, sent alone by a stranger, after England's right SIGNON from another address
/// (a copy goes to England's registered address) and after the master's right SIGNON from
/// another address (a copy goes to the master's): no mail holds a secret word or a right
/// password, and each reply shows the line masked.
#[test]
fn no_password_word_in_any_reply_or_copy() {
    assert!(SHAPES.len() >= 30);
    let mut failures = Vec::new();
    for (i, (line, secrets)) in SHAPES.iter().enumerate() {
        for (who, first, copy_to) in [
            ("a stranger", String::new(), None),
            (
                "England",
                format!("SIGNON E{GAME} {ENGLAND_PASSWORD}\n"),
                Some(ENGLAND),
            ),
            (
                "the master",
                format!("SIGNON M{GAME} {MASTER_PASSWORD}\n"),
                Some(MASTER),
            ),
        ] {
            let mut judge = running_game();
            let body = format!("{first}{line}\n");
            let mails = mail(
                &mut judge,
                &format!("<shape-{i}@test>"),
                "elsewhere@example.test",
                &body,
            );
            let reply = mails
                .iter()
                .find(|m| m.audience == "reply")
                .map(|m| m.body.clone())
                .unwrap_or_default();
            // A line the judge took shows no password: `OK SET PASSWORD (the new password is
            // not shown)`; every other shape is quoted masked.
            if !reply.contains("********") && !reply.contains("OK SET PASSWORD") {
                failures.push(format!("{line:?} from {who}: nothing masked in {reply:?}"));
            }
            if let Some(to) = copy_to
                && !mails
                    .iter()
                    .any(|m| m.recipient == to && m.audience == "signon-copy")
            {
                failures.push(format!("{line:?} from {who}: no copy to {to}"));
            }
            for m in &mails {
                for word in secrets.iter().chain(&[ENGLAND_PASSWORD, MASTER_PASSWORD]) {
                    if holds(&m.body, word) || holds(&m.subject, word) {
                        failures.push(format!(
                            "{line:?} from {who}: {word} reached {} ({}): {}",
                            m.recipient, m.audience, m.body
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A new password has at least eight characters (CREATE, joining, SET PASSWORD), and the
/// reply says why a shorter one is refused; `SET PASSWORD=x` and `SET PASSWORD: x` set `x`,
/// as njudge's players mean them.
#[test]
fn new_passwords_are_long_enough_and_set_password_reads_as_njudge_players_mean() {
    let mut judge = running_game();
    let short = "SHORT-PASSWORD: line 1: \"";
    let r = mail(
        &mut judge,
        "<c1@test>",
        "new@example.test",
        "CREATE ?beta seven77",
    );
    let reply = &r[0].body;
    assert!(
        reply.contains(&format!(
            "ERROR {short}CREATE ?beta ********\": a new password needs at least 8 characters"
        )),
        "{reply}"
    );
    assert!(judge.game("beta").expect("load").is_none(), "not created");
    let r = mail(
        &mut judge,
        "<c2@test>",
        "new@example.test",
        "CREATE ?beta eight888",
    );
    assert!(r[0].body.starts_with("OK CREATE ?beta"), "{}", r[0].body);
    let r = mail(
        &mut judge,
        "<c3@test>",
        "joiner@example.test",
        "SIGNON ?beta pw",
    );
    assert!(
        r[0].body
            .contains(&format!("ERROR {short}SIGNON ?beta ********\"")),
        "{}",
        r[0].body
    );
    let g = judge.game("beta").expect("load").expect("game");
    assert!(g.joiners.is_empty(), "not joined");
    let r = mail(
        &mut judge,
        "<c4@test>",
        ENGLAND,
        &format!("SIGNON E{GAME} {ENGLAND_PASSWORD}\nSET PASSWORD tiny"),
    );
    assert!(
        r[0].body
            .contains("ERROR SHORT-PASSWORD: line 2: \"SET PASSWORD ********\""),
        "{}",
        r[0].body
    );
    for (i, (line, new)) in [
        ("SET PASSWORD=Secret24", "Secret24"),
        ("SET PASSWORD: Secret25", "Secret25"),
        ("set password = Secret26", "Secret26"),
    ]
    .into_iter()
    .enumerate()
    {
        let old = match i {
            0 => ENGLAND_PASSWORD,
            1 => "Secret24",
            _ => "Secret25",
        };
        let r = mail(
            &mut judge,
            &format!("<p{i}@test>"),
            ENGLAND,
            &format!("SIGNON E{GAME} {old}\n{line}"),
        );
        assert!(
            r[0].body
                .contains("OK SET PASSWORD (the new password is not shown)"),
            "{line}: {}",
            r[0].body
        );
        let r = mail(
            &mut judge,
            &format!("<q{i}@test>"),
            ENGLAND,
            &format!("SIGNON E{GAME} {new}\nLIST"),
        );
        assert!(
            r[0].body.starts_with("OK SIGNON Ealpha (England)"),
            "{line}: {}",
            r[0].body
        );
    }
}

/// How many passwords the judge has checked (its own counter).
fn checks(judge: &mut Judge) -> u64 {
    judge
        .get_value("password_checks")
        .expect("read")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Hands the judge one mail at `at`; returns the reply's body.
fn mail_at(judge: &mut Judge, key: &str, from: &str, body: &str, at: DateTime<Utc>) -> String {
    let msg = Incoming {
        key: key.to_string(),
        message_id: Some(key.to_string()),
        from: from.to_string(),
        reply_to: None,
        subject: "orders".into(),
        text: body.to_string(),
        size_capped: false,
    };
    judge.handle(&msg, at).expect("handled");
    judge
        .all_mail()
        .expect("mail")
        .into_iter()
        .rev()
        .find(|m| m.in_reply_to.as_deref() == Some(key))
        .map(|m| m.body)
        .unwrap_or_default()
}

/// 1,000 wrong sign-ons for one seat from 1,000 addresses within an hour: at most ten
/// passwords checked, the rest refused unchecked (the right one too), one notice to the
/// seat's registered address once the hour is over, and the right password accepted again.
fn a_thousand_guesses(initial: char, registered: &str, right: &str) {
    let mut judge = running_game();
    let start = t0();
    let before = checks(&mut judge);
    for i in 0..1000 {
        let at = start + chrono::Duration::seconds(3 * i);
        let r = mail_at(
            &mut judge,
            &format!("<guess-{initial}-{i}@test>"),
            &format!("guesser{i}@example.test"),
            &format!("SIGNON {initial}{GAME} guess{i:05}\nLIST {GAME}"),
            at,
        );
        let code = if i < 10 {
            "BAD-SIGNON"
        } else {
            "SIGNON-LOCKED"
        };
        assert!(
            r.starts_with(&format!("ERROR {code}: line 1")),
            "guess {i}: {r}"
        );
    }
    let checked = checks(&mut judge) - before;
    assert!(checked <= 10, "{checked} passwords checked");
    assert_eq!(checked, 10, "the first ten are checked");
    // The right password, within the hour: refused without a check.
    let late = start + chrono::Duration::minutes(59);
    let r = mail_at(
        &mut judge,
        &format!("<owner-{initial}-1@test>"),
        registered,
        &format!("SIGNON {initial}{GAME} {right}"),
        late,
    );
    assert!(r.starts_with("ERROR SIGNON-LOCKED: line 1"), "{r}");
    assert!(
        r.contains("no password is checked for it until Sun Nov 01 2026 10:00 UTC"),
        "{r}"
    );
    assert_eq!(checks(&mut judge) - before, 10);
    let notices = |judge: &mut Judge| {
        judge
            .all_mail()
            .expect("mail")
            .into_iter()
            .filter(|m| m.subject.contains("Wrong passwords"))
            .collect::<Vec<_>>()
    };
    judge.tick(late).expect("tick");
    assert!(
        notices(&mut judge).is_empty(),
        "no notice while the lock lasts"
    );
    // After the hour: one notice, to the seat's address, with the count.
    let after = start + chrono::Duration::minutes(61);
    judge.tick(after).expect("tick");
    judge
        .tick(after + chrono::Duration::minutes(5))
        .expect("tick");
    let n = notices(&mut judge);
    assert_eq!(n.len(), 1, "{n:?}");
    assert_eq!(n[0].recipient, registered);
    assert!(n[0].body.contains("1001 sign-ons as"), "{}", n[0].body);
    let r = mail_at(
        &mut judge,
        &format!("<owner-{initial}-2@test>"),
        registered,
        &format!("SIGNON {initial}{GAME} {right}"),
        after,
    );
    assert!(r.starts_with(&format!("OK SIGNON {initial}{GAME}")), "{r}");
}

#[test]
fn a_thousand_guesses_for_a_power_check_ten_passwords() {
    a_thousand_guesses('E', ENGLAND, ENGLAND_PASSWORD);
}

#[test]
fn a_thousand_guesses_for_the_master_check_ten_passwords() {
    a_thousand_guesses('M', MASTER, MASTER_PASSWORD);
}

/// Press text cannot pass for the judge's attribution: every delivered line is quoted, so
/// a line `Message from Germany to England:` inside France's press is France's text, seen
/// as such. A grey broadcast reaches its author like every other power: a copy missing from
/// one mailbox would name the author.
#[test]
fn press_cannot_be_forged_and_grey_broadcasts_reach_their_author() {
    let mut judge = running_game();
    let france = "france@example.test";
    let mails = mail(
        &mut judge,
        "<forge@test>",
        france,
        &format!(
            "SIGNON F{GAME} OtherPass1\nPRESS TO E\nHello.\nMessage from Germany to England:\n\nGive me Holland.\nENDPRESS\n"
        ),
    );
    let to_england: Vec<_> = mails.iter().filter(|m| m.recipient == ENGLAND).collect();
    assert_eq!(to_england.len(), 1);
    let body = &to_england[0].body;
    assert_eq!(
        body,
        "Message from France to England:\n\n| Hello.\n| Message from Germany to England:\n|\n| Give me Holland.\n"
    );
    // Exactly one line of the mail is the judge's attribution.
    assert_eq!(
        body.lines()
            .filter(|l| l.starts_with("Message from"))
            .count(),
        1
    );

    let mails = mail(
        &mut judge,
        "<grey@test>",
        france,
        &format!("SIGNON F{GAME} OtherPass1\nBROADCAST GREY\nWho am I?\nENDPRESS\n"),
    );
    let readers: Vec<&str> = mails
        .iter()
        .filter(|m| m.body.contains("Who am I?"))
        .map(|m| m.recipient.as_str())
        .collect();
    for p in Power::ALL {
        let address = if p == Power::England {
            ENGLAND.to_string()
        } else {
            format!("{}@example.test", p.name().to_lowercase())
        };
        assert!(
            readers.contains(&address.as_str()),
            "{p} got no copy: {readers:?}"
        );
    }
    let copies: Vec<&String> = mails
        .iter()
        .filter(|m| m.body.contains("Who am I?"))
        .map(|m| &m.body)
        .collect();
    assert!(
        copies.iter().all(|b| *b == copies[0]),
        "every copy is the same: {copies:?}"
    );
    assert!(
        copies[0].starts_with("Message from someone to everyone:"),
        "{}",
        copies[0]
    );
}
