//! njudge's own regression inputs, mailed in order (issue 31): its `tests/input` mails,
//! written again here in njudge's documented forms with our own values (the passwords are
//! longer: this judge wants eight characters). Thirteen REGISTER blocks, `LIST`, a duplex
//! game for four players (`SET PLAYERS 4`, preferences), observers who sign on with `O`
//! and send press, the master's broadcast and `LIST`, a resignation and a second player
//! signing on to the resigned power. Every line is answered without `UNKNOWN-COMMAND` or
//! `SYNTAX`, and the duplex game starts with four players, the powers shared out by their
//! preference lists as njudge shares them (njudge's `Bug91-06` answer).

use chrono::Duration;
use dipjudge::map::Power;

use crate::desk::{self, Desk};

fn address(who: &str) -> String {
    format!("nj-{who}@example.test")
}

/// njudge's registration form, as its `A-Reg*.in` mails fill it in.
fn register(who: &str, name: &str) -> String {
    format!(
        "REGISTER\nName:      {name}\nPhone:     (505) 555-0100\nSite:      University of Hodunk\nAddress:   1515 St. Claws Lane, Kris Mass\nCountry:   USA\nTimezone:  Eastern\nEmail:     {}\nLevel:     Novice\nBirthdate: Dec 25, 1907\nSex:       Female\nPackage:   No\nEND\n",
        address(who)
    )
}

/// A judge with the seed of njudge's draw, its clock five minutes on at each mail, and
/// every reply line with the mail it answered.
struct Inbox {
    desk: Desk,
    /// Every reply line, with the mail it answered.
    answers: Vec<(String, String)>,
}

impl Inbox {
    fn mail(&mut self, who: &str, body: &str) -> String {
        let reply = self.desk.mail(&address(who), body);
        for line in reply.lines() {
            self.answers
                .push((format!("{who}: {body}"), line.to_string()));
        }
        reply
    }
}

#[test]
fn njudges_regression_inputs_are_all_understood() {
    // The seed that draws player3 to sit out the second round of the sharing out, as
    // njudge's draw did in its baseline (`tests/duplex.rs` says more).
    let now = desk::utc(2026, 3, 2, 9, 0);
    let mut inbox = Inbox {
        desk: Desk::with_seed("njudge", now, 1903)
            .every(Duration::minutes(5))
            .subject("njudge"),
        answers: Vec::new(),
    };
    // A-Reg01..10, A-RegM-1, A-RegM-2: registrations (ten players; two masters; and one
    // more, the observer who will send press).
    for i in 1..=10 {
        let who = format!("player{i}");
        let r = inbox.mail(&who, &register(&who, &format!("Player {i}")));
        assert!(r.starts_with("OK"), "{r}");
    }
    for i in 1..=2 {
        let who = format!("master{i}");
        inbox.mail(&who, &register(&who, &format!("Master {i}")));
    }
    inbox.mail("observer1", &register("observer1", "Observer 1"));
    // S001: LIST.
    inbox.mail("me", "list\n");
    // Bug91-01: the master creates the duplex game for four players.
    let r = inbox.mail("master1", "create ?dt masterpass\nset players 4\nsignoff\n");
    assert!(!r.contains("ERROR"), "{r}");
    // Bug91-02..06: four players join with their preference lists; an observer signs on
    // and writes to the master.
    inbox.mail(
        "player1",
        "signon ?dt playerpass\nset preference FRIGATE\nsignoff\n",
    );
    inbox.mail(
        "player2",
        "signon ?dt playerpass\nset preference IGATEFR\nsignoff\n",
    );
    inbox.mail(
        "observer1",
        "signon odt watchpass\npress to M\nOK, observer has signed on\nendpress\nsignoff\n",
    );
    inbox.mail(
        "player3",
        "signon ?dt playerpass\nset preference ATEFRIG\nsignoff\n",
    );
    inbox.mail(
        "player4",
        "signon ?dt playerpass\nset preference EFRIGAT\nsignoff\n",
    );

    // The duplex game has started with four players, the powers as njudge shared them.
    let g = inbox.desk.game_named("dt");
    let holder = |p: Power| {
        g.players()
            .iter()
            .find(|s| s.power == p)
            .map(|s| s.seat.address.clone())
            .unwrap_or_default()
    };
    let mut holders: Vec<String> = Power::ALL.iter().map(|&p| holder(p)).collect();
    holders.sort();
    holders.dedup();
    assert_eq!(holders.len(), 4, "four players: {holders:?}");
    for (power, who) in [
        (Power::France, "player1"),
        (Power::Russia, "player1"),
        (Power::Germany, "player2"),
        (Power::Italy, "player2"),
        (Power::Austria, "player3"),
        (Power::England, "player4"),
        (Power::Turkey, "player4"),
    ] {
        assert_eq!(holder(power), address(who), "{power}");
    }

    // Bug91-07..09: two more observers broadcast; the master broadcasts.
    inbox.mail(
        "observer2",
        "signon odt watchpass2\nbroadcast\nPress from the 2nd observer!\nendbroadcast\nsignoff\n",
    );
    inbox.mail(
        "master1",
        "signon mdt masterpass\nbroadcast\nPress from the master!\nendbroadcast\nsignoff\n",
    );
    inbox.mail(
        "observer3",
        "signon odt watchpass3\nbroadcast\nPress from the 3rd observer!\nendbroadcast\nsignoff\n",
    );
    // Bug91-10..12: LIST with a wrong password, by a stranger, by the master.
    inbox.mail("master1", "signon mdt 181d1234\nlist\nsignoff\n");
    inbox.mail("noone", "list dt\n");
    inbox.mail("master1", "signon mdt masterpass\nlist\nsignoff\n");
    // Bug91-13, 14, 16: France resigns, signs on again; another player signs on to it.
    inbox.mail("player1", "signon fdt playerpass\nresign\nsignoff\n");
    inbox.mail("player1", "signon fdt playerpass\nsignoff\n");
    inbox.mail("player5", "signon fdt playerpass\nsignoff\n");

    let misunderstood: Vec<String> = inbox
        .answers
        .iter()
        .filter(|(_, l)| l.contains("UNKNOWN-COMMAND") || l.contains("SYNTAX"))
        .map(|(m, l)| format!("{l}\n  in answer to {m}"))
        .collect();
    assert!(
        misunderstood.is_empty(),
        "{} lines not understood:\n{}",
        misunderstood.len(),
        misunderstood.join("\n")
    );
}
