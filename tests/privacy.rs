//! What the rules keep secret stays secret from every reader (issue 24), by mail through
//! the judge core: a Survive ballot changes nothing anyone but its voter and the master
//! receives.

use chrono::{DateTime, Duration, TimeZone, Utc};
use dipjudge::game::{Game, Player, Seat};
use dipjudge::judge::{Judge, PasswordCost, hash_password};
use dipjudge::map::{Map, Power};
use dipjudge::rules::{Phase, PhaseKind, Position, Season};
use dipjudge::store::QueuedMail;

use crate::desk;

const GM: &str = "gm@example.test";
const WATCHER: &str = "watcher@example.test";
const OUTSIDER: &str = "outsider@example.test";

fn addr(p: Power) -> String {
    format!("{}@example.test", p.name().to_lowercase())
}

fn deadline() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0)
        .single()
        .expect("time")
}

/// A Survive game, `vote`, in the vote Winter of 1902 (SRV-1.1): Germany owns Holland and
/// Denmark and has a free home centre (Munich), so it builds; Italy took Trieste, so Austria
/// must remove a unit; France has nothing to adjust. An observer watches.
fn vote_winter() -> Judge {
    let map = Map::standard().expect("map");
    let mut judge = desk::judge(desk::config());
    let hash = hash_password(PasswordCost::TEST, "password", 1);
    let seat = |address: &str| Seat {
        address: address.to_string(),
        password_hash: hash.clone(),
    };
    let mut position = Position::standard_start(map);
    position.phase = Phase::new(1902, Season::Winter, PhaseKind::Adjustment);
    let province = |code: &str| map.find_province(code).expect("province");
    let mun = province("mun");
    position.units.retain(|u| u.location.province != mun);
    for (code, owner) in [
        ("hol", Power::Germany),
        ("den", Power::Germany),
        ("tri", Power::Italy),
    ] {
        position.owners[province(code).index()] = Some(owner);
    }
    let survive = dipjudge::variant::Survive;
    let mut g = Game::new("vote", &survive, seat(GM), 7, map);
    g.arrange(dipjudge::game::Arrangement {
        players: Power::ALL
            .into_iter()
            .map(|p| Player::new(p, seat(&addr(p))))
            .collect(),
        position,
        variant_state: Some(dipjudge::variant::Variant::new_state(&survive)),
        observers: vec![WATCHER.to_string()],
        deadline: Some(deadline()),
    });
    judge.install_game(&g).expect("install");
    judge
}

/// A judge and the mails handed to it.
struct Table {
    judge: Judge,
    sent: u32,
}

impl Table {
    fn send(&mut self, from: &str, body: &str, at: DateTime<Utc>) {
        self.sent += 1;
        let key = format!("<vote-{}@test>", self.sent);
        desk::deliver(
            &mut self.judge,
            &desk::incoming(&key, from, "winter", body),
            at,
        );
    }

    fn power(&mut self, p: Power, lines: &str, at: DateTime<Utc>) {
        let body = format!("SIGNON {}vote password\n{lines}", p.initial());
        self.send(&addr(p), &body, at);
    }

    /// What everyone may ask about the game: an outsider, the observer, a power.
    fn read(&mut self, at: DateTime<Utc>) {
        self.send(OUTSIDER, "LIST vote\nSUMMARY vote\nHISTORY vote\nLIST", at);
        self.send(WATCHER, "LIST vote", at);
        self.power(Power::England, "LIST vote", at);
    }
}

/// Plays the vote Winter by mail, France sending `france` at four points of it; returns
/// every mail the judge sent.
fn play(france: [&str; 4]) -> Vec<QueuedMail> {
    let mut t = Table {
        judge: vote_winter(),
        sent: 0,
    };
    let mut at = deadline() - Duration::hours(20);
    let steps = [
        (Power::Germany, "VOTE Turkey\nBUILD A Mun"),
        (Power::England, "VOTE Turkey"),
        (Power::Italy, "VOTE Turkey"),
        (Power::Russia, "VOTE Germany"),
    ];
    for ((p, lines), ours) in steps.into_iter().zip(france) {
        t.power(p, lines, at);
        at += Duration::minutes(30);
        t.power(Power::France, ours, at);
        at += Duration::minutes(30);
        t.read(at);
        t.judge.tick(at).expect("tick");
        at += Duration::hours(1);
    }
    t.power(Power::Turkey, "VOTE England", at);
    // The deadline: Austria's removal is missing; the grace period; the results.
    t.judge.tick(deadline()).expect("tick");
    t.read(deadline() + Duration::hours(1));
    let grace = deadline() + Duration::hours(24);
    t.judge.tick(grace).expect("tick");
    t.read(grace + Duration::hours(1));
    t.judge.all_mail().expect("mail")
}

/// What anyone but France and the master received, in order.
fn others(mails: &[QueuedMail]) -> Vec<(String, String, String, Vec<String>)> {
    mails
        .iter()
        .filter(|m| m.recipient != addr(Power::France) && m.recipient != GM)
        .map(|m| {
            (
                m.recipient.clone(),
                m.subject.clone(),
                m.body.clone(),
                m.pictures.clone(),
            )
        })
        .collect()
}

/// SRV-1.4, SRV-3.3: a Survive vote Winter played three times, France voting, replacing and
/// withdrawing its ballot, never voting, or voting and withdrawing for good: every mail
/// to anyone but France and the master is the same, byte for byte (LIST, SUMMARY, HISTORY,
/// the late powers named at the deadline, the results, the observer's copies).
#[test]
fn a_ballot_changes_nothing_anyone_else_receives() {
    let voted = play(["VOTE Turkey", "VOTE Germany", "VOTE NONE", "VOTE Turkey"]);
    let silent = play(["LIST vote"; 4]);
    let withdrawn = play(["VOTE Turkey", "LIST vote", "VOTE Germany", "VOTE NONE"]);
    let (a, b, c) = (others(&voted), others(&silent), others(&withdrawn));
    assert!(a.len() > 40, "{} mails compared", a.len());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(x, y, "mail {i} differs with and without France's ballot");
    }
    assert_eq!(a.len(), b.len());
    assert_eq!(a, c, "a withdrawn ballot changes nothing either");
    // The scenario did what it says: France's ballot was taken and counted, the master
    // heard of it, the vote was held, Austria was named late, France was not.
    let to_master = |mails: &[QueuedMail], text: &str| {
        mails
            .iter()
            .any(|m| m.recipient == GM && m.body.contains(text))
    };
    assert!(to_master(&voted, "SURVIVE: France's ballot: Turkey 3."));
    assert!(!to_master(&silent, "France's ballot"));
    let late: Vec<&(String, String, String, Vec<String>)> =
        a.iter().filter(|m| m.1.ends_with("Late Powers")).collect();
    assert!(!late.is_empty());
    assert!(
        late.iter()
            .all(|m| m.2.contains("Orders are missing from: Austria.")),
        "{late:?}"
    );
    assert!(
        a.iter().any(|m| m.0 == WATCHER
            && m.2
                .contains("SURVIVE: Turkey has been voted out of the game.")),
        "the observer read the result"
    );
    // France, missing its ballot at the deadline, was told so itself (and the master).
    let france_late = |mails: &[QueuedMail]| {
        mails
            .iter()
            .any(|m| m.recipient == addr(Power::France) && m.subject.ends_with("Late Notice"))
    };
    assert!(france_late(&silent) && !france_late(&voted));
    assert!(to_master(&silent, "for the master only): France"));
}
