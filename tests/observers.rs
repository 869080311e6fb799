//! Observers' press by mail, as njudge has it (issue 31): `SET OBSERVER ANY|WHITE|NONE`
//! decides what observers may send, within the game's press rules; an observer signs on with
//! the password its subscription's reply gave it (`SIGNON Ogame password`); `PRESS TO O`
//! reaches the observers only; what observers read is `SET WATCH`, and a game stored with
//! the old word keeps its meaning.

use dipjudge::game::ObserverLevel;
use dipjudge::map::Power;

use crate::desk::{self, Desk};

const GM: &str = "gm-obs@example.test";
const ANN: &str = "ann-obs@example.test";
const BOB: &str = "bob-obs@example.test";

fn addr(p: Power) -> String {
    format!("{}-obs@example.test", p.name().to_lowercase())
}

/// A judge, a running game of seven players, two observers and their passwords.
struct Gallery {
    table: desk::Table,
    /// Each observer's address and the password its subscription gave it.
    observers: Vec<(String, String)>,
}

impl Gallery {
    fn new(name: &str) -> Gallery {
        let now = desk::utc(2027, 3, 1, 9, 0);
        let mut g = Gallery {
            table: desk::Table::new(Desk::new(name, now), name, GM, addr),
            observers: Vec::new(),
        };
        g.start();
        for o in [ANN, BOB] {
            let pw = g.observe(o);
            g.observers.push((o.to_string(), pw));
        }
        g
    }

    /// Observer number `i` signed on with its password.
    fn as_observer(&mut self, i: usize, lines: &str) -> String {
        let (address, pw) = self.observers[i].clone();
        let body = format!("SIGNON O{} {pw}\n{lines}", self.name);
        self.mail(&address, &body)
    }

    /// OBSERVE, then CONFIRM (once an address is proved, OBSERVE alone): the reply that
    /// subscribes gives the observer password.
    fn observe(&mut self, address: &str) -> String {
        let name = self.name.clone();
        let r = self.mail(address, &format!("OBSERVE {name}"));
        if r.contains("Your observer password") {
            return password_in(&r, &name);
        }
        let code = desk::confirmation_code(&r);
        let r = self.mail(address, &format!("CONFIRM {code}"));
        assert!(r.contains("OK CONFIRM"), "{r}");
        assert!(r.contains(&format!("OK OBSERVE {name}")), "{r}");
        password_in(&r, &name)
    }

    /// Who received the mails queued since `since` whose subject ends with `subject_end`
    /// (sorted).
    fn received(&mut self, since: usize, subject_end: &str) -> Vec<String> {
        let mut r: Vec<String> = self
            .mails()
            .into_iter()
            .skip(since)
            .filter(|m| m.subject.ends_with(subject_end))
            .map(|m| m.recipient)
            .collect();
        r.sort();
        r
    }
}

desk::wraps!(Gallery, table: desk::Table);

/// The observer password in a reply: `Your observer password for game is CODE: ...`.
fn password_in(reply: &str, game: &str) -> String {
    let lead = format!("Your observer password for {game} is ");
    let at = reply
        .find(&lead)
        .unwrap_or_else(|| panic!("no observer password: {reply}"));
    reply[at + lead.len()..]
        .split(':')
        .next()
        .expect("a password")
        .to_string()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// An observer's broadcast (`SET OBSERVER ANY`, the default as njudge's) reaches every
/// player, the master and the other observers, signed `an observer`; its author gets no
/// copy of its own signed press.
#[test]
fn an_observers_broadcast_reaches_players_master_and_observers() {
    let mut t = Gallery::new("gallery");
    assert_eq!(t.game().settings().press.observer_press, ObserverLevel::Any);
    let before = t.mails().len();
    let r = t.as_observer(0, "BROADCAST\nA fine opening, Austria.\nENDBROADCAST");
    assert!(r.contains("OK SIGNON Ogallery (observer)"), "{r}");
    assert!(r.contains("OK BROADCAST (1 line)"), "{r}");
    let got = t.received(before, "S1901M Broadcast from an observer");
    let mut want: Vec<String> = Power::ALL.iter().map(|p| addr(*p)).collect();
    want.push(GM.to_string());
    want.push(BOB.to_string());
    assert_eq!(got, sorted(want));
    let m = t
        .mails()
        .into_iter()
        .skip(before)
        .find(|m| m.recipient == BOB);
    let body = m.expect("Bob's copy").body;
    assert!(
        body.starts_with("Message from an observer to everyone:\n\n| A fine opening, Austria."),
        "{body}"
    );
    // Press to the powers the observer names, as a player's partial press.
    let before = t.mails().len();
    let r = t.as_observer(1, "PRESS TO EF\nHold the Channel.\nENDPRESS");
    assert!(r.contains("OK PRESS TO England France (1 line)"), "{r}");
    assert_eq!(
        t.received(before, "S1901M Press from an observer"),
        vec![addr(Power::England), addr(Power::France)]
    );
}

/// Observers' press is authenticated as a player's: a mail from an observer's address
/// (anyone can write that From line) that does not sign on with its password sends
/// nothing, and a wrong password is refused.
#[test]
fn an_observers_press_needs_its_password() {
    let mut t = Gallery::new("forged");
    let before = t.mails().len();
    let r = t.mail(ANN, "BROADCAST\nI am Ann, trust me.\nENDBROADCAST");
    assert!(r.contains("ERROR NOT-SIGNED-ON"), "{r}");
    assert!(
        r.contains("sign on as a power, as the master or as an observer (SIGNON Ogame password) before sending press"),
        "{r}"
    );
    let r = t.mail(
        ANN,
        "SIGNON Oforged guessed-pw\nBROADCAST\nStill me.\nENDBROADCAST",
    );
    assert!(r.contains("ERROR BAD-SIGNON"), "{r}");
    assert!(t.received(before, "Broadcast from an observer").is_empty());
    // OBSERVE again gives a new password; the old one no longer counts.
    let old = t.observers[0].1.clone();
    let new = t.observe(ANN);
    assert_ne!(old, new);
    let r = t.as_observer(0, "PRESS TO M\nHello.\nENDPRESS");
    assert!(r.contains("ERROR BAD-SIGNON"), "{r}");
    t.observers[0].1 = new;
    let r = t.as_observer(0, "PRESS TO M\nHello.\nENDPRESS");
    assert!(r.contains("OK PRESS TO M (1 line)"), "{r}");
}

/// `SET OBSERVER NONE`: an observer's broadcast is refused with a sentence saying so, and
/// press to the master still goes (njudge's "except to the Master").
#[test]
fn set_observer_none_refuses_observers_press_but_to_the_master() {
    let mut t = Gallery::new("hushed");
    let r = t.as_master("SET OBSERVER NONE");
    assert!(r.contains("OK SET OBSERVER NONE"), "{r}");
    let before = t.mails().len();
    let r = t.as_observer(0, "BROADCAST\nCan anyone hear me?\nENDBROADCAST");
    assert!(
        r.contains("ERROR NO-OBSERVER-PRESS: line 2: \"BROADCAST\": this game allows no press from observers (SET OBSERVER NONE); press to the master (PRESS TO M) is always allowed"),
        "{r}"
    );
    assert!(t.received(before, "Broadcast from an observer").is_empty());
    let r = t.as_observer(0, "PRESS TO M\nMay I say something?\nENDPRESS");
    assert!(r.contains("OK PRESS TO M (1 line)"), "{r}");
    assert_eq!(
        t.received(before, "S1901M Press from an observer"),
        vec![GM.to_string()]
    );
    // Observers still read what they read (SET WATCH is apart); LIST says both.
    assert_eq!(t.game().settings().press.watch, ObserverLevel::Any);
    let r = t.mail(ANN, "LIST hushed");
    assert!(
        r.contains("Observers: read the results and every broadcast; may send press to the master only (SET OBSERVER NONE)"),
        "{r}"
    );
}

/// `SET OBSERVER WHITE`: grey press from an observer is refused, and so is press to some
/// only; a plain broadcast is signed, even in a game whose players' press is grey only.
#[test]
fn set_observer_white_refuses_grey_press() {
    let mut t = Gallery::new("whitewash");
    let r = t.as_master("SET OBSERVER WHITE\nSET GREY");
    assert!(r.contains("OK SET OBSERVER WHITE"), "{r}");
    let before = t.mails().len();
    let r = t.as_observer(0, "BROADCAST GREY\nGuess who.\nENDBROADCAST");
    assert!(
        r.contains("ERROR WHITE-ONLY: line 2: \"BROADCAST GREY\": this game allows observers signed (white) press only (SET OBSERVER WHITE)"),
        "{r}"
    );
    let r = t.as_observer(0, "PRESS TO G\nPsst.\nENDPRESS");
    assert!(r.contains("ERROR NO-PARTIAL"), "{r}");
    assert!(t.received(before, "from someone").is_empty());
    let r = t.as_observer(0, "BROADCAST\nSigned, as the master wants.\nENDBROADCAST");
    assert!(r.contains("OK BROADCAST (1 line)"), "{r}");
    assert_eq!(
        t.received(before, "S1901M Broadcast from an observer")
            .len(),
        9,
        "seven players, the master, the other observer"
    );
    // A player's grey press is still the players' rule.
    let r = t.as_power(Power::Italy, "BROADCAST\nGrey as ever.\nENDBROADCAST");
    assert!(r.contains("OK BROADCAST"), "{r}");
}

/// The game's press rules hold for observers too: no press, no observer press (but to the
/// master).
#[test]
fn a_no_press_game_takes_no_observer_press() {
    let mut t = Gallery::new("silent");
    let r = t.as_master("SET NO PRESS");
    assert!(r.contains("OK SET NO PRESS"), "{r}");
    let r = t.as_observer(0, "BROADCAST\nHello?\nENDBROADCAST");
    assert!(r.contains("ERROR NO-PRESS"), "{r}");
    let r = t.as_observer(0, "PRESS TO M\nHello?\nENDPRESS");
    assert!(r.contains("OK PRESS TO M"), "{r}");
}

/// `PRESS TO O` from a player reaches the observers only: no player gets it, nor the master
/// (private press reaches the master only with `SET ALL PRESS`, as any other).
#[test]
fn press_to_o_reaches_the_observers_only() {
    let mut t = Gallery::new("aside");
    let before = t.mails().len();
    let r = t.as_power(
        Power::England,
        "PRESS TO O\nDear gallery: watch the North Sea.\nENDPRESS",
    );
    assert!(r.contains("OK PRESS TO O (1 line)"), "{r}");
    assert_eq!(
        t.received(before, "S1901M Press from England"),
        vec![ANN.to_string(), BOB.to_string()]
    );
    let body = t
        .mails()
        .into_iter()
        .skip(before)
        .find(|m| m.recipient == ANN)
        .expect("Ann's copy")
        .body;
    assert!(
        body.starts_with("Message from England to observers:"),
        "{body}"
    );
    // In a list: France and the observers.
    let before = t.mails().len();
    let r = t.as_power(Power::England, "PRESS TO FO\nBoth of you.\nENDPRESS");
    assert!(r.contains("OK PRESS TO France O (1 line)"), "{r}");
    assert_eq!(
        t.received(before, "S1901M Press from England"),
        vec![ANN.to_string(), BOB.to_string(), addr(Power::France)]
    );
    // With SET ALL PRESS the master gets its copy, as of any private press.
    t.as_master("SET ALL PRESS");
    let before = t.mails().len();
    t.as_power(Power::England, "PRESS TO O\nAgain.\nENDPRESS");
    assert_eq!(
        t.received(before, "S1901M Press from England"),
        vec![ANN.to_string(), BOB.to_string(), GM.to_string()]
    );
    // An observer's press to O reaches the other observers.
    let before = t.mails().len();
    let r = t.as_observer(1, "PRESS TO O\nAnn, did you see that?\nENDPRESS");
    assert!(r.contains("OK PRESS TO O"), "{r}");
    assert_eq!(
        t.received(before, "S1901M Press from an observer"),
        vec![ANN.to_string(), GM.to_string()]
    );
}

/// Press to O where nobody observes, or grey press to O where observers read white press
/// only, would reach nobody: refused with a sentence.
#[test]
fn press_to_o_that_would_reach_nobody_is_refused() {
    let mut t = Gallery::new("empty");
    let r = t.as_master("SET WATCH WHITE");
    assert!(r.contains("OK SET WATCH WHITE"), "{r}");
    let r = t.as_power(Power::Turkey, "PRESS TO O GREY\nWho am I?\nENDPRESS");
    assert!(
        r.contains("ERROR NO-OBSERVERS: line 2: \"PRESS TO O GREY\": the observers of this game read signed (white) press only (SET WATCH WHITE): grey press to O would reach none of them"),
        "{r}"
    );
    for o in [ANN, BOB] {
        let r = t.mail(o, "UNOBSERVE empty");
        assert!(r.contains("OK UNOBSERVE"), "{r}");
    }
    assert!(
        t.game().observer_seats().is_empty(),
        "passwords go with the subscriptions"
    );
    let r = t.as_power(Power::Turkey, "PRESS TO O\nAnyone?\nENDPRESS");
    assert!(
        r.contains("ERROR NO-OBSERVERS: line 2: \"PRESS TO O\": nobody observes this game now: press to O would reach nobody"),
        "{r}"
    );
}

/// `SET WATCH` is what `SET OBSERVER` meant before: `NONE` takes no observers, and a game
/// stored with the old word (`"observers"` in its press settings) keeps its meaning.
#[test]
fn set_watch_keeps_the_old_meaning() {
    let mut t = Gallery::new("closed");
    let r = t.as_master("SET WATCH NONE");
    assert!(r.contains("OK SET WATCH NONE"), "{r}");
    let r = t.mail("carol-obs@example.test", "OBSERVE closed");
    assert!(r.contains("ERROR NO-OBSERVERS"), "{r}");
    let g = t.game();
    assert_eq!(g.settings().press.watch, ObserverLevel::None);
    let json = serde_json::to_value(g.settings().press).expect("json");
    assert_eq!(
        json["observers"], "None",
        "stored under its first name: {json}"
    );
    let old: dipjudge::game::PressPolicy =
        serde_json::from_str(r#"{"level":"WhiteGrey","partial":true,"observers":"White"}"#)
            .expect("a policy stored before SET OBSERVER took njudge's meaning");
    assert_eq!(old.watch, ObserverLevel::White);
    assert_eq!(old.observer_press, ObserverLevel::Any);
}
