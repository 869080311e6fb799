//! The proof model (issue 37, `docs/proof.md`): a mail speaks for a seat only through its
//! password, for an address only through a confirmation answered from it (or a seat proven
//! at it); From and Reply-To never. Each test replays an attack of the issue and shows it
//! failing, and is named after it.

use dipjudge::judge::Incoming;
use dipjudge::map::Power;

use crate::desk::{self, Desk, Table, password};

/// A running game by mail, its players at `<power>@<name>.test`.
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

/// A mail from `from` with `reply_to` in its Reply-To; every mail the judge queued for it.
fn with_reply_to(
    t: &mut Table,
    key: &str,
    from: &str,
    reply_to: &str,
    body: &str,
) -> Vec<dipjudge::store::QueuedMail> {
    let msg = Incoming {
        reply_to: Some(reply_to.to_string()),
        ..desk::incoming(key, from, "orders", body)
    };
    let now = t.now;
    desk::deliver(&mut t.judge, &msg, now)
}

/// The WHOIS answer about `address`, asked by a stranger.
fn whois(t: &mut Table, address: &str) -> String {
    t.mail("stranger@example.net", &format!("WHOIS {address}"))
}

/// "SET ADDRESS proves an address": a seat moved to a victim's address without the
/// victim's consent, and a mail signed on to it with the victim in Reply-To then counted as
/// the victim's proof: REGISTER rewrote the victim's profile and I AM ALSO linked the
/// attacker's address to the victim. Now SET ADDRESS moves nothing until the new address
/// answers the code mailed to it, and REGISTER and I AM ALSO from a seat that is not proven
/// at the address wait for the address's own confirmation.
#[test]
fn set_address_proves_an_address() {
    let mut t = table("moved");
    let victim = "victim@example.org";
    let england = t.address(Power::England);
    let before = t.mails().len();
    let r = t.as_power(Power::England, &format!("SET ADDRESS {victim}"));
    assert!(
        r.contains(&format!(
            "OK SET ADDRESS {victim} (a confirmation was mailed to {victim}"
        )),
        "{r}"
    );
    let seat = |t: &mut Table| {
        t.game()
            .player(Power::England)
            .map(|pl| pl.seat.address.clone())
    };
    assert_eq!(
        seat(&mut t),
        Some(england.clone()),
        "nothing moved before the answer"
    );
    let to_victim: Vec<_> = t
        .mails_since(before)
        .into_iter()
        .filter(|m| m.recipient == victim)
        .collect();
    assert_eq!(to_victim.len(), 1, "one confirmation to the new address");
    assert!(
        to_victim[0].body.contains("the seat stays where it is"),
        "{}",
        to_victim[0].body
    );
    // The master's SET ADDRESS likewise.
    let r = t.as_master(&format!("SET ADDRESS {victim}"));
    assert!(r.contains("ERROR CONFIRMATION-PENDING"), "{r}");
    // The attack's second half: signed on as England, the victim in Reply-To.
    let pw = password(Power::England);
    let mails = with_reply_to(
        &mut t,
        "<forge-1@test>",
        &england,
        victim,
        &format!(
            "SIGNON Emoved {pw}\nREGISTER\nName: Mallory\nEND\nI AM ALSO attacker@evil.example"
        ),
    );
    let reply = mails
        .iter()
        .find(|m| m.recipient == victim && m.body.contains("REGISTER"))
        .map_or_else(String::new, |m| m.body.clone());
    assert!(
        reply.contains("OK REGISTER (1 fields) (waits until this address confirms it"),
        "{reply}"
    );
    assert!(
        !mails.iter().any(|m| m.recipient == "attacker@evil.example"),
        "no link asked"
    );
    let w = whois(&mut t, victim);
    assert!(!w.contains("Mallory"), "{w}");
    // The victim answers its code: the seat moves, and is proven there; from then on
    // the seat's mail from that address speaks for it.
    let code = desk::code_of(&to_victim[0]);
    let r = t.mail(victim, &format!("CONFIRM {code}"));
    assert!(r.contains(&format!("now comes to {victim}")), "{r}");
    assert_eq!(seat(&mut t), Some(victim.to_string()));
    let r = t.mail(
        victim,
        &format!("SIGNON Emoved {pw}\nREGISTER\nName: Victoria\nEND"),
    );
    assert!(r.contains("OK REGISTER") && !r.contains("waits"), "{r}");
    let w = whois(&mut t, victim);
    assert!(w.contains("Victoria"), "{w}");
}

/// "A Reply-To becomes the seat's holder": a seat taken over with a victim in Reply-To is
/// registered at the victim's address, but the mails signed on to it prove nothing about
/// that address: REGISTER and I AM ALSO wait for the victim, who never answers, and
/// nobody's profile or links change.
#[test]
fn a_reply_to_becomes_the_seats_holder() {
    let mut t = table("holder");
    let victim = "reputable@example.org";
    let r = t.as_power(Power::Turkey, "RESIGN");
    assert!(r.contains("OK RESIGN"), "{r}");
    let mails = with_reply_to(
        &mut t,
        "<take@test>",
        "attacker@evil.example",
        victim,
        "TAKEOVER Turkey holder attacker-pw\nREGISTER\nName: Not The Victim\nEND\nI AM ALSO attacker@evil.example",
    );
    let reply = &mails
        .iter()
        .find(|m| m.recipient == victim)
        .expect("a reply")
        .body;
    assert!(reply.contains("OK TAKEOVER Turkey holder"), "{reply}");
    assert!(
        reply.contains("waits until this address confirms it"),
        "{reply}"
    );
    let w = whois(&mut t, victim);
    assert!(!w.contains("Not The Victim"), "{w}");
}

/// "Amplification": a signed-on player's 1,000 MAP lines sent one 119 MB mail to any
/// Reply-To (EXPORT lines likewise). A reply now carries at most 5 attachments and an
/// address gets at most 20 an hour; the rest are refused, one sentence each.
#[test]
fn amplification() {
    let mut t = table("amp");
    let victim = "victim@example.org";
    let pw = password(Power::France);
    let mut lines = format!("SIGNON Famp {pw}\n");
    for i in 0..1000 {
        lines.push_str(if i % 2 == 0 {
            "MAP amp\n"
        } else {
            "EXPORT amp\n"
        });
    }
    let from = t.address(Power::France);
    let mut attached = 0;
    for round in 0..6 {
        let mails = with_reply_to(
            &mut t,
            &format!("<flood-{round}@test>"),
            &from,
            victim,
            &lines,
        );
        let reply = mails
            .iter()
            .find(|m| m.recipient == victim)
            .unwrap_or_else(|| {
                let to: Vec<_> = mails.iter().map(|m| (&m.recipient, &m.subject)).collect();
                panic!("round {round}: no reply to {victim}: {to:?}")
            });
        assert!(reply.pictures.len() <= 5, "{}", reply.pictures.len());
        assert!(reply.body.len() <= 512 * 1024, "{}", reply.body.len());
        attached += reply.pictures.len();
        assert!(
            reply.body.contains("ERROR REPLY-FULL"),
            "{:.400}",
            reply.body
        );
    }
    assert_eq!(attached, 20, "20 attachments an hour to one address");
}

/// "An invitation-only game opens to anyone" once its invitations are used or taken back
/// (`SET UNINVITE`): privacy was "invitation list not empty". Now the game stays private
/// by its setting until the master says `SET NO JOIN PASSWORD`.
#[test]
fn invitation_only_opens() {
    let mut t = Table::new(
        Desk::new("invonly", desk::utc(2026, 11, 1, 9, 0)),
        "invonly",
        "gm@invonly.test",
        |p: Power| format!("{}@invonly.test", p.name().to_lowercase()),
    );
    t.create("");
    let r = t.as_master("SET INVITE friend@example.org");
    assert!(r.contains("OK SET INVITE"), "{r}");
    let r = t.as_master("SET UNINVITE friend@example.org");
    assert!(r.contains("OK SET UNINVITE"), "{r}");
    let r = t.mail("stranger@example.net", "SIGNON ?invonly stranger-pw");
    assert!(r.contains("ERROR PRIVATE-GAME"), "{r}");
    assert!(t.game().joiners().is_empty(), "nobody joined");
    let r = t.as_master("SET NO JOIN PASSWORD");
    assert!(r.contains("OK SET NO JOIN PASSWORD"), "{r}");
    let r = t.mail("stranger@example.net", "SIGNON ?invonly stranger-pw");
    assert!(!r.contains("ERROR"), "{r}");
}

/// "Drive-by takeover", its seat part: a stranger took over an abandoned seat of a game
/// that needs a join password and read as that power at once. A takeover in a private
/// game now waits for the master's approval; so does one of a power its master ejected
/// someone from (an ejected player no longer takes the power back from another address).
#[test]
fn drive_by_takeover() {
    let mut t = table("drive");
    let r = t.as_master("SET JOIN PASSWORD members-only");
    assert!(r.contains("OK SET JOIN PASSWORD"), "{r}");
    let r = t.as_power(Power::Italy, "RESIGN");
    assert!(r.contains("OK RESIGN"), "{r}");
    let r = t.mail(
        "stranger@example.net",
        "TAKEOVER Italy drive stranger-pw\nHISTORY drive\nRESIGN",
    );
    assert!(r.contains("(waits for the master's approval)"), "{r}");
    assert!(
        r.contains("ERROR NOT-SIGNED-ON"),
        "RESIGN speaks for nobody: {r}"
    );
    let italy = t
        .game()
        .player(Power::Italy)
        .map(|pl| pl.seat.address.clone());
    assert_ne!(italy.as_deref(), Some("stranger@example.net"));
    // An ejected player, from another address.
    let mut t = table("eject");
    let r = t.as_master("EJECT Austria");
    assert!(r.contains("OK EJECT Austria"), "{r}");
    let r = t.mail(
        "austria-again@example.net",
        "TAKEOVER Austria eject back-again",
    );
    assert!(r.contains("(waits for the master's approval)"), "{r}");
}
