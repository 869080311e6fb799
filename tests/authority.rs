//! Secrets and authority under attack (issue 24), by mail through the judge core: no word
//! that may be a password in any reply or copy, whatever is wrong with its line.

use chrono::{DateTime, Utc};
use dipjudge::game::{Arrangement, Game, Player, Seat};
use dipjudge::judge::{Incoming, Judge, JudgeConfig, PasswordCost, hash_password};
use dipjudge::map::{Map, Power};
use dipjudge::rules::Position;
use dipjudge::store::QueuedMail;

use crate::desk::{self, code_of};

const GAME: &str = "alpha";
const MASTER: &str = "gm@example.test";
const MASTER_PASSWORD: &str = "MasterPass1";
const ENGLAND: &str = "england@example.test";
const ENGLAND_PASSWORD: &str = "RightPass1";
const OUTSIDER: &str = "outsider@example.test";

fn t0() -> DateTime<Utc> {
    desk::utc(2026, 11, 1, 9, 0)
}

/// A judge with one running standard game, `alpha`: England at [`ENGLAND`], the other
/// powers at `<power>@example.test` (password `OtherPass1`), the master at [`MASTER`].
pub(crate) fn running_game() -> Judge {
    running_game_with(desk::config())
}

/// [`running_game`] on a judge with `config`.
pub(crate) fn running_game_with(config: JudgeConfig) -> Judge {
    let map = Map::standard().expect("map");
    let mut judge = desk::judge(config);
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
    g.arrange(Arrangement {
        players: Power::ALL
            .into_iter()
            .map(|p| {
                if p == Power::England {
                    Player::new(p, seat(ENGLAND, ENGLAND_PASSWORD))
                } else {
                    let address = format!("{}@example.test", p.name().to_lowercase());
                    Player::new(p, seat(&address, "OtherPass1"))
                }
            })
            .collect(),
        position: Position::standard_start(map),
        variant_state: None,
        observers: Vec::new(),
        deadline: Some(t0() + chrono::Duration::days(3)),
    });
    judge.install_game(&g).expect("install");
    judge
}

/// Hands the judge one mail from `from`; returns every mail it queued for it.
pub(crate) fn mail(judge: &mut Judge, key: &str, from: &str, body: &str) -> Vec<QueuedMail> {
    mail_as(judge, key, from, None, "orders", body, t0())
}

/// Hands the judge one mail with every header the tests vary; returns every mail it queued
/// for it.
fn mail_as(
    judge: &mut Judge,
    key: &str,
    from: &str,
    reply_to: Option<&str>,
    subject: &str,
    body: &str,
    at: DateTime<Utc>,
) -> Vec<QueuedMail> {
    let msg = Incoming {
        reply_to: reply_to.map(str::to_string),
        ..desk::incoming(key, from, subject, body)
    };
    desk::deliver(judge, &msg, at)
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
                .find(|m| m.audience == dipjudge::store::Audience::Reply)
                .map(|m| m.body.clone())
                .unwrap_or_default();
            // A line the judge took shows no password: `OK SET PASSWORD (the new password is
            // not shown)`; every other shape is quoted masked.
            if !reply.contains("********") && !reply.contains("OK SET PASSWORD") {
                failures.push(format!("{line:?} from {who}: nothing masked in {reply:?}"));
            }
            if let Some(to) = copy_to
                && !mails.iter().any(|m| {
                    m.recipient == to && m.audience == dipjudge::store::Audience::SignonCopy
                })
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
    assert!(g.joiners().is_empty(), "not joined");
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
    judge.password_checks()
}

/// Hands the judge one mail at `at`; returns the reply's body.
fn mail_at(judge: &mut Judge, key: &str, from: &str, body: &str, at: DateTime<Utc>) -> String {
    desk::deliver(judge, &desk::incoming(key, from, "orders", body), at);
    desk::reply(judge, key)
}

/// 1,000 wrong sign-ons for one seat from 1,000 addresses within an hour: at most ten
/// passwords checked, the rest refused unchecked (the right one too, from any of them);
/// the seat's own address still signs on with the right password (issue 37), its owner is
/// told of the lock at the next tick, once, and after the hour any address signs on again.
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
    assert_eq!(checked, 10, "the first ten are checked");
    // The right password from another address, within the hour: refused unchecked.
    let late = start + chrono::Duration::minutes(59);
    let r = mail_at(
        &mut judge,
        &format!("<elsewhere-{initial}-1@test>"),
        OUTSIDER,
        &format!("SIGNON {initial}{GAME} {right}"),
        late,
    );
    assert!(r.starts_with("ERROR SIGNON-LOCKED: line 1"), "{r}");
    assert!(
        r.contains("no password from them is checked until Sun Nov 01 2026 10:00 UTC"),
        "{r}"
    );
    assert_eq!(checks(&mut judge) - before, 10);
    // From the seat's own address it signs on.
    let r = mail_at(
        &mut judge,
        &format!("<owner-{initial}-1@test>"),
        registered,
        &format!("SIGNON {initial}{GAME} {right}"),
        late,
    );
    assert!(r.starts_with(&format!("OK SIGNON {initial}{GAME}")), "{r}");
    let notices = |judge: &mut Judge| {
        judge
            .all_mail()
            .expect("mail")
            .into_iter()
            .filter(|m| m.subject.contains("Wrong passwords"))
            .collect::<Vec<_>>()
    };
    // Told at the next tick, while the lock lasts, with the count.
    judge.tick(late).expect("tick");
    let n = notices(&mut judge);
    assert_eq!(n.len(), 1, "{n:?}");
    assert_eq!(n[0].recipient, registered);
    assert!(n[0].body.contains("1001 sign-ons as"), "{}", n[0].body);
    assert!(
        n[0].body.contains("The seat was locked once"),
        "{}",
        n[0].body
    );
    // After the hour: no second notice; any address signs on again.
    let after = start + chrono::Duration::minutes(61);
    judge.tick(after).expect("tick");
    judge
        .tick(after + chrono::Duration::minutes(5))
        .expect("tick");
    assert_eq!(notices(&mut judge).len(), 1);
    let r = mail_at(
        &mut judge,
        &format!("<elsewhere-{initial}-2@test>"),
        OUTSIDER,
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

/// Whether the game's next results reach `address`, and with a picture.
fn results_to(judge: &mut Judge, address: &str, at: DateTime<Utc>) -> Option<bool> {
    let before = judge.all_mail().expect("mail").len();
    judge.process_now(GAME, at).expect("processed");
    judge
        .all_mail()
        .expect("mail")
        .split_off(before)
        .into_iter()
        .find(|m| m.recipient == address && m.subject.ends_with("Results"))
        .map(|m| !m.pictures.is_empty())
}

/// A forged OBSERVE and a forged SET MAP OFF change nothing until the address itself
/// answers the confirmation mailed to it: the victim receives that one confirmation and,
/// for a day, nothing else for the same request; wrong codes are refused and five of them
/// drop it; the address's own answer (CONFIRM, or a reply keeping the code in its subject)
/// makes the settings. UNOBSERVE, and njudge's SIGNOFF game, end a subscription. LIST shows
/// how many observe, their addresses to the master alone.
#[test]
fn subscriptions_wait_for_the_address_to_confirm() {
    let mut judge = running_game_with(JudgeConfig {
        maps: true,
        ..desk::config()
    });
    let victim = "victim@example.test";
    let attacker = "attacker@example.test";
    let mut at = t0();
    let observers = |judge: &mut Judge| {
        judge
            .game(GAME)
            .expect("load")
            .expect("game")
            .observers()
            .to_vec()
    };

    // A forged OBSERVE (Reply-To names the victim): one mail, the confirmation, to the
    // victim; nothing to the attacker; no subscription.
    let mails = mail_as(
        &mut judge,
        "<f1@test>",
        attacker,
        Some(victim),
        "hi",
        "OBSERVE alpha whatever",
        at,
    );
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].recipient, victim);
    assert!(
        mails[0].body.contains("CONFIRMATION NEEDED"),
        "{}",
        mails[0].body
    );
    assert!(
        mails[0].body.contains("  OBSERVE alpha\n"),
        "{}",
        mails[0].body
    );
    let first_code = code_of(&mails[0]);
    assert!(observers(&mut judge).is_empty());
    // Again, with a forged From and a forged SET MAP OFF: nothing at all within the day.
    at += chrono::Duration::hours(1);
    let mails = mail_as(
        &mut judge,
        "<f2@test>",
        victim,
        None,
        "hi",
        "OBSERVE alpha\nSET MAP OFF",
        at,
    );
    assert!(mails.is_empty(), "{mails:?}");
    assert!(observers(&mut judge).is_empty());
    // Wrong codes are refused; the fifth drops the confirmation, so the right one finds
    // nothing (the attacker cannot guess it and cannot keep it alive).
    for i in 0..5 {
        let mails = mail_as(
            &mut judge,
            &format!("<w{i}@test>"),
            victim,
            None,
            "x",
            "CONFIRM AAAAAAAA",
            at,
        );
        assert!(
            mails[0].body.starts_with("ERROR WRONG-CODE: line 1"),
            "{}",
            mails[0].body
        );
    }
    let mails = mail_as(
        &mut judge,
        "<w5@test>",
        victim,
        None,
        "x",
        &format!("CONFIRM {first_code}"),
        at,
    );
    assert!(
        mails[0].body.starts_with("ERROR NO-CONFIRMATION: line 1"),
        "{}",
        mails[0].body
    );
    assert!(observers(&mut judge).is_empty());

    // A forged SET MAP OFF for England's address: England still gets its pictures.
    let mails = mail_as(
        &mut judge,
        "<m1@test>",
        attacker,
        Some(ENGLAND),
        "x",
        "SET MAP OFF",
        at,
    );
    assert_eq!((mails.len(), mails[0].recipient.as_str()), (1, ENGLAND));
    let england_code = code_of(&mails[0]);
    at += chrono::Duration::hours(1);
    assert_eq!(
        results_to(&mut judge, ENGLAND, at),
        Some(true),
        "the picture still comes"
    );
    assert_eq!(
        results_to(&mut judge, victim, at),
        None,
        "the victim observes nothing"
    );
    // England answers from its own address: maps off from now on.
    let mails = mail_as(
        &mut judge,
        "<m2@test>",
        ENGLAND,
        None,
        "x",
        &format!("CONFIRM {england_code}"),
        at,
    );
    assert!(
        mails[0].body.starts_with(&format!(
            "OK CONFIRM {england_code} (this address is confirmed"
        )),
        "{}",
        mails[0].body
    );
    assert!(
        mails[0].body.contains("  OK SET MAP OFF"),
        "{}",
        mails[0].body
    );
    assert_eq!(
        results_to(&mut judge, ENGLAND, at),
        Some(false),
        "no picture"
    );

    // The victim, a day later, asks itself and confirms by replying (the code in the
    // subject): now it observes.
    at += chrono::Duration::hours(24);
    let mails = mail_as(
        &mut judge,
        "<v1@test>",
        victim,
        None,
        "watch",
        "OBSERVE alpha",
        at,
    );
    assert_eq!(mails.len(), 1);
    let code = code_of(&mails[0]);
    assert_ne!(code, first_code);
    let mails = mail_as(
        &mut judge,
        "<v2@test>",
        victim,
        None,
        &format!("Re: DIP confirmation {code}"),
        "> CONFIRM it\n",
        at,
    );
    assert!(
        mails[0]
            .body
            .contains("  OK OBSERVE alpha (you will receive its results and public press)"),
        "{}",
        mails[0].body
    );
    assert_eq!(observers(&mut judge), vec![victim.to_string()]);
    assert_eq!(results_to(&mut judge, victim, at), Some(true));
    // LIST: the count for everyone, the addresses for the master.
    let mails = mail(&mut judge, "<l1@test>", OUTSIDER, "LIST alpha");
    assert!(
        mails[0].body.contains("Observers: 1\n"),
        "{}",
        mails[0].body
    );
    assert!(!mails[0].body.contains(victim));
    let mails = mail(
        &mut judge,
        "<l2@test>",
        MASTER,
        &format!("SIGNON M{GAME} {MASTER_PASSWORD}\nLIST alpha"),
    );
    assert!(
        mails[0].body.contains(&format!("Observers: 1 ({victim})")),
        "{}",
        mails[0].body
    );
    // A confirmed address unsubscribes at once.
    let mails = mail_as(
        &mut judge,
        "<u1@test>",
        victim,
        None,
        "bye",
        "UNOBSERVE alpha",
        at,
    );
    assert!(
        mails[0]
            .body
            .starts_with("OK UNOBSERVE alpha (you will receive nothing more of it)"),
        "{}",
        mails[0].body
    );
    assert!(observers(&mut judge).is_empty());
    assert_eq!(results_to(&mut judge, victim, at), None);
    // njudge's SIGNOFF game does the same.
    let mails = mail_as(
        &mut judge,
        "<u2@test>",
        victim,
        None,
        "again",
        "SIGNON Oalpha x",
        at,
    );
    assert!(
        mails[0].body.starts_with("OK OBSERVE alpha"),
        "{}",
        mails[0].body
    );
    assert_eq!(observers(&mut judge), vec![victim.to_string()]);
    let mails = mail_as(
        &mut judge,
        "<u3@test>",
        victim,
        None,
        "bye",
        "SIGNOFF alpha",
        at,
    );
    assert!(
        mails[0].body.starts_with("OK UNOBSERVE alpha"),
        "{}",
        mails[0].body
    );
    assert!(observers(&mut judge).is_empty());
    let mails = mail_as(
        &mut judge,
        "<u4@test>",
        victim,
        None,
        "bye",
        "UNOBSERVE alpha",
        at,
    );
    assert!(
        mails[0].body.starts_with("ERROR NOT-OBSERVING"),
        "{}",
        mails[0].body
    );
}

/// A mail that has not signed on draws a short reply: its first 50 lines answered, then one
/// line saying how many were not read; 256 KiB of orders, or of long lines, draws less than
/// 16 KiB. The same orders signed on are all answered.
#[test]
fn an_unsigned_flood_draws_a_short_reply() {
    let mut judge = running_game();
    let reply = |judge: &mut Judge, key: &str, body: &str| {
        let mails = mail(judge, key, "stranger@example.test", body);
        assert_eq!(mails.len(), 1, "one reply");
        mails[0].body.clone()
    };
    let mut orders = String::new();
    while orders.len() < 256 * 1024 {
        orders.push_str("A Par - Bur\n");
    }
    let lines = orders.lines().count();
    let r = reply(&mut judge, "<flood-1@test>", &orders);
    assert!(r.len() < 16 * 1024, "{} bytes", r.len());
    assert_eq!(r.matches("ERROR NOT-SIGNED-ON").count(), 50, "{r}");
    assert!(
        r.ends_with(&format!(
            "This mail has not signed on: the judge answered its first 50 lines and did not read the {} command lines after them. Sign on first (SIGNON) to send more.\n",
            lines - 50
        )),
        "{}",
        &r[r.len() - 300..]
    );
    let long = format!("A Par - {}\n", "x".repeat(4000)).repeat(64);
    let r = reply(&mut judge, "<flood-2@test>", &long);
    assert!(r.len() < 16 * 1024, "{} bytes", r.len());
    assert!(
        r.contains("more lines of this reply were not sent"),
        "{}",
        &r[r.len() - 300..]
    );
    // Signed on, every line is answered.
    let mails = mail(
        &mut judge,
        "<flood-3@test>",
        "stranger@example.test",
        &format!(
            "SIGNON E{GAME} {ENGLAND_PASSWORD}\n{}",
            "F Lon H\n".repeat(200)
        ),
    );
    assert_eq!(
        mails[0].body.matches("ERROR NO-UNIT").count(),
        0,
        "{}",
        mails[0].body
    );
    assert_eq!(mails[0].body.matches("OK F Lon H").count(), 200);
}

/// Pictures go to the game's players and master, signed on, and its observers: MAP from
/// anyone else is refused, not answered with a picture.
#[test]
fn pictures_go_only_to_the_game() {
    let mut judge = running_game();
    let mails = mail(
        &mut judge,
        "<map-1@test>",
        "stranger@example.test",
        "MAP alpha",
    );
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].body.starts_with("ERROR NOT-IN-GAME: line 1: \"MAP alpha\": pictures of alpha go to its players and master, signed on, and its observers"),
        "{}",
        mails[0].body
    );
    assert!(mails[0].pictures.is_empty());
    // England's address without its password is anyone.
    let mails = mail(&mut judge, "<map-2@test>", ENGLAND, "MAP alpha");
    assert!(
        mails[0].body.starts_with("ERROR NOT-IN-GAME"),
        "{}",
        mails[0].body
    );
    let mails = mail(
        &mut judge,
        "<map-3@test>",
        ENGLAND,
        &format!("SIGNON E{GAME} {ENGLAND_PASSWORD}\nMAP alpha"),
    );
    assert!(
        mails[0]
            .body
            .contains("OK MAP alpha S1901M (the picture is attached)"),
        "{}",
        mails[0].body
    );
    assert!(!mails[0].pictures.is_empty());
    let mails = mail(
        &mut judge,
        "<map-4@test>",
        "anyone@example.test",
        &format!("SIGNON M{GAME} {MASTER_PASSWORD}\nMAP alpha"),
    );
    assert!(!mails[0].pictures.is_empty(), "{}", mails[0].body);
}

/// Game creation is limited per address and day (`games_per_address_per_day`, 3 by
/// default), and a forming game nobody joined is removed after 14 days, its master told; a
/// game somebody joined stays.
#[test]
fn game_creation_is_limited_and_empty_forming_games_expire() {
    let mut judge = running_game();
    let gm = "creator@example.test";
    let at = t0();
    let create = |judge: &mut Judge, name: &str, at: DateTime<Utc>| {
        mail_as(
            judge,
            &format!("<create-{name}-{}@test>", at.timestamp()),
            gm,
            None,
            "new",
            &format!("CREATE ?{name} gmpass-01"),
            at,
        )
        .remove(0)
        .body
    };
    for name in ["g1", "g2", "g3"] {
        let r = create(&mut judge, name, at);
        assert!(r.starts_with(&format!("OK CREATE ?{name}")), "{r}");
    }
    let r = create(&mut judge, "g4", at + chrono::Duration::hours(23));
    assert!(
        r.starts_with("ERROR TOO-MANY-GAMES: line 1: \"CREATE ?g4 ********\": this address has created 3 games in the last 24 hours"),
        "{r}"
    );
    assert!(judge.game("g4").expect("load").is_none());
    let r = create(&mut judge, "g4", at + chrono::Duration::hours(24));
    assert!(r.starts_with("OK CREATE ?g4"), "{r}");
    // g1 gets a player; the others nobody.
    let r = mail_as(
        &mut judge,
        "<join@test>",
        "joiner@example.test",
        None,
        "join",
        "SIGNON ?g1 joinpass1",
        at,
    )
    .remove(0)
    .body;
    assert!(r.starts_with("OK SIGNON ?g1"), "{r}");
    let removed = |judge: &mut Judge| {
        judge
            .all_mail()
            .expect("mail")
            .into_iter()
            .filter(|m| m.subject.ends_with("Game removed"))
            .map(|m| (m.recipient, m.subject))
            .collect::<Vec<_>>()
    };
    judge
        .tick(at + chrono::Duration::days(14) - chrono::Duration::minutes(1))
        .expect("tick");
    assert!(removed(&mut judge).is_empty());
    judge.tick(at + chrono::Duration::days(14)).expect("tick");
    assert_eq!(
        removed(&mut judge),
        vec![
            (gm.to_string(), "DIP:g2 - Game removed".to_string()),
            (gm.to_string(), "DIP:g3 - Game removed".to_string()),
        ]
    );
    for (name, kept) in [("g1", true), ("g2", false), ("g3", false), ("g4", true)] {
        assert_eq!(judge.game(name).expect("load").is_some(), kept, "{name}");
    }
    // The name is free again.
    let r = create(&mut judge, "g2", at + chrono::Duration::days(15));
    assert!(r.starts_with("OK CREATE ?g2"), "{r}");
}

/// A signed-on mail from an address with a confirmation pending is still answered (its
/// orders need their answers), without a second code, and its address settings wait.
#[test]
fn a_signed_on_mail_is_answered_while_its_address_confirms() {
    let mut judge = running_game();
    let away = "england-away@example.test";
    let body = format!("SIGNON E{GAME} {ENGLAND_PASSWORD}\nSET MAP OFF\nF Lon H");
    let mails = mail_as(&mut judge, "<a1@test>", away, None, "orders", &body, t0());
    let reply = mails.iter().find(|m| m.recipient == away).expect("reply");
    assert!(
        reply.subject.starts_with("DIP confirmation "),
        "{}",
        reply.subject
    );
    let copy = mails.iter().find(|m| m.recipient == ENGLAND).expect("copy");
    assert!(
        !copy.body.contains(&code_of(reply)),
        "the copy never carries the code"
    );
    let mails = mail_as(&mut judge, "<a2@test>", away, None, "orders", &body, t0());
    let reply = mails.iter().find(|m| m.recipient == away).expect("reply");
    assert_eq!(reply.subject, "Re: orders");
    assert!(reply.body.contains("OK F Lon H"), "{}", reply.body);
    assert!(
        reply
            .body
            .contains("A confirmation went to this address less than a day ago"),
        "{}",
        reply.body
    );
}

/// A guesser who keeps under the lock's rate is reported all the same: once ten wrong
/// passwords were checked for a seat since its owner was last told, one notice goes, and
/// the next no sooner than a day later (issue 37: never a mail per ten guesses); a
/// player's odd typo alone draws none.
#[test]
fn a_slow_guesser_is_reported_too() {
    let mut judge = running_game();
    let notices = |judge: &mut Judge| {
        judge
            .all_mail()
            .expect("mail")
            .into_iter()
            .filter(|m| m.subject == "DIP:alpha - Wrong passwords for England")
            .collect::<Vec<_>>()
    };
    let guess = |judge: &mut Judge, i: i64, at: DateTime<Utc>| {
        let r = mail_at(
            judge,
            &format!("<slow-{i}@test>"),
            &format!("slow{i}@example.test"),
            &format!("SIGNON E{GAME} slowguess{i}"),
            at,
        );
        assert!(r.starts_with("ERROR BAD-SIGNON"), "{i}: {r}");
    };
    // One every seven minutes for a day: never ten within an hour, so never locked, and
    // every one checked. The first notice after the tenth, the second a day later.
    let first = 7 * 9 + 1;
    for i in 0..9 * 24 {
        let at = t0() + chrono::Duration::minutes(7 * i + 1);
        guess(&mut judge, i, at);
        judge.tick(at).expect("tick");
        let n = notices(&mut judge).len() as i64;
        let due = match 7 * i + 1 {
            m if m < first => 0,
            m if m < first + 24 * 60 => 1,
            _ => 2,
        };
        assert_eq!(n, due, "after guess {i}");
    }
    let n = notices(&mut judge);
    assert!(
        n[0].body
            .contains("10 sign-ons as England in 'alpha' were refused: 10 with a wrong password."),
        "{}",
        n[0].body
    );
    assert_eq!(judge.password_checks(), 9 * 24);
}
