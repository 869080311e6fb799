//! njudge's command words (issue 38): every entry of njudge's `data/index` that a player,
//! master or observer of a game dipjudge hosts types, one mail each in its role through
//! the judge's session, is read (never `SYNTAX` or `UNKNOWN-COMMAND`); the words that
//! change a game change it as njudge's do; the words dipjudge does otherwise say what it
//! does instead; `PHASE` for a later phase applies none of the orders after it; the
//! master's `BECOME power` copies the power's player.

use dipjudge::command::PressLevel;
use dipjudge::map::Power;
use dipjudge::store::Audience;

use crate::desk::{self, Desk, utc};

const GM: &str = "gm38w@example.test";

/// Who sends an entry: a mail that has not signed on, a power's player, the master.
#[derive(Clone, Copy, Debug)]
enum Role {
    Anyone,
    /// A player joining the forming game `nwf`, on the line after its SIGNON.
    Joiner,
    Player,
    Master,
}

/// The index entries, each in its role (njudge's `any/pre`, `any/aft`, `mod/aft`), in the
/// order they are sent. Entries that end a seat or a phase come last.
const ENTRIES: &[(Role, &str)] = &[
    // A player's (any/aft) and anyone's (any/pre).
    (Role::Joiner, "SET PREFERENCE E[FGR][TAI]"),
    (Role::Joiner, "SET PREFERENCE *"),
    (Role::Anyone, "SIGN ON ? pw-38-words"),
    (Role::Player, "DIARY"),
    (Role::Anyone, "GET info"),
    (Role::Player, "GET DEDICATION"),
    (Role::Anyone, "GET PACKAGE"),
    (Role::Anyone, "SEND ME"),
    (Role::Player, "INFO PLAYER"),
    (Role::Anyone, "WHO france-nw@example.test"),
    (Role::Anyone, "WHO GAME nw"),
    (Role::Player, "WHO GAME"),
    (Role::Player, "WHO IS"),
    (Role::Player, "WHOGAME"),
    (Role::Player, "HISTORY"),
    (Role::Player, "SUMMARY"),
    (Role::Anyone, "MAP *"),
    (Role::Player, "PHASE Fall 1901 Movement"),
    (Role::Player, "SET ADDRESS"),
    (Role::Player, "SET ADDRESS a@example.test b@example.test"),
    (Role::Player, "SET BROADCAST"),
    (Role::Player, "SET NO BROADCAST"),
    (Role::Player, "SET NORMAL BROADCAST"),
    (Role::Player, "SET CONC"),
    (Role::Player, "BECOME MASTER"),
    (Role::Player, "SET MODERATED"),
    // The master's (mod/aft).
    (Role::Master, "SET AUTO START"),
    (Role::Master, "SET MANUAL START"),
    (Role::Master, "SET PRFBOTH"),
    (Role::Master, "SET PRFLIST"),
    (Role::Master, "SET PRFRAND"),
    (Role::Master, "PREDICT"),
    (Role::Master, "SET AUTO PROCESS"),
    (Role::Master, "SET MANUAL PROCESS"),
    (Role::Master, "SET AUTO CREATE"),
    (Role::Master, "SET NO RESUME"),
    (Role::Master, "SET STRICT GRACE"),
    (Role::Master, "SET STRICT WAIT"),
    (Role::Master, "SET ACCESS ANY"),
    (Role::Master, "SET ALLOW PLAYER a@example.test"),
    (Role::Master, "SET DENY PLAYER a@example.test"),
    (Role::Master, "SET APPROVED"),
    (Role::Master, "SET LEVEL ANY"),
    (Role::Master, "SET RATED"),
    (Role::Master, "SET UNRATED"),
    (Role::Master, "SET UNMODERATED"),
    (Role::Master, "SET UNLIST"),
    (Role::Master, "SET NO MINOR PRESS"),
    (Role::Master, "SET NO BLANK PRESS"),
    (Role::Master, "SET FAKE"),
    (Role::Master, "SET NO FAKE"),
    (Role::Master, "SET PARTIAL FAKES BROADCAST"),
    (Role::Master, "SET PARTIAL MAY BE FAKED"),
    (Role::Master, "SET NO GRACE PRESS"),
    (Role::Master, "SET GRACE PRESS"),
    (Role::Master, "SET LATE PRESS"),
    (Role::Master, "SET MUST ORDER"),
    (Role::Master, "SET NO GREY"),
    (Role::Master, "SET NO WHITE"),
    (Role::Master, "SET PRESS NONE"),
    (Role::Master, "SET NORMAL PRESS"),
    (Role::Master, "SET OBSERVER NO"),
    (Role::Master, "SET POSTAL PRESS"),
    (Role::Master, "SET NO POSTAL PRESS"),
    (Role::Master, "SET TOUCH PRESS"),
    (Role::Master, "SET WATCH ALL PRESS"),
    (Role::Master, "SET CD"),
    (Role::Master, "SET NO CONCESSIONS"),
    (Role::Master, "SET DIAS"),
    (Role::Master, "SET NO DIAS"),
    (Role::Master, "SET LATE COUNT 2"),
    (Role::Master, "SET SECRET"),
    (Role::Master, "SET NO SHOW"),
    (Role::Master, "SET PROXY"),
    (Role::Master, "SET STRICT CONVOY"),
    (Role::Master, "SET GUNBOAT"),
    (Role::Master, "SET ANY CENTRES"),
    (Role::Master, "SET ONE CENTRE"),
    (Role::Master, "SET ANY DISBAND"),
    (Role::Master, "SET BLANK BOARD"),
    (Role::Master, "SET EMPTY BOARD"),
    (Role::Master, "SET DUALITY"),
    (Role::Master, "SET TRANSFORM"),
    (Role::Master, "SET GREY/WHITE"),
    // Last: a seat given up, a phase processed.
    (Role::Player, "WITHDRAW"),
    (Role::Master, "PROCESS Spring 1901 Movement"),
];

fn table() -> desk::Table {
    let desk = Desk::new("nw", utc(2026, 3, 2, 12, 0));
    desk::Table::new(desk, "nw", GM, |p| {
        format!("{}-nw@example.test", p.name().to_lowercase())
    })
}

/// The reply's verdict on its last line (the entry's; the first is the SIGNON's).
fn verdict_of(reply: &str, entry: &str) -> String {
    reply
        .lines()
        .skip_while(|l| !l.contains(entry.split(' ').next().unwrap_or(entry)))
        .take(4)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_njudge_index_entry_is_read_in_its_role() {
    let mut t = table();
    t.start();
    let mut forming = desk::Table::new(Desk::new("nwf", t.now), "nwf", GM, |p| {
        format!("{}-nwf@example.test", p.name().to_lowercase())
    });
    forming.create("");
    for (n, (role, entry)) in ENTRIES.iter().enumerate() {
        let reply = match role {
            Role::Anyone => t.mail("stranger-nw@example.test", entry),
            Role::Joiner => forming.mail(
                &format!("joiner-{n}@example.test"),
                &format!("SIGNON ?nwf joinpass-{n}\n{entry}"),
            ),
            // WITHDRAW gives Turkey's seat up; every other entry is France's.
            Role::Player if *entry == "WITHDRAW" => t.as_power(Power::Turkey, entry),
            Role::Player => t.as_power(Power::France, entry),
            Role::Master => t.as_master(entry),
        };
        for refused in ["SYNTAX", "UNKNOWN-COMMAND", "UNKNOWN-SETTING", "NOT-MASTER"] {
            assert!(
                !reply.contains(refused),
                "{role:?} {entry}: {refused}\n{}",
                verdict_of(&reply, entry)
            );
        }
        assert!(
            reply.contains("OK") || reply.contains("ERROR"),
            "{entry}: answered\n{reply}"
        );
    }
    assert_eq!(
        ENTRIES.len(),
        86,
        "the issue's 85 index lines and SET GREY/WHITE"
    );
}

#[test]
fn njudge_settings_by_another_name_change_the_game() {
    let mut t = table();
    t.start();
    let level = |t: &mut desk::Table| t.game().settings().press.level;
    for (line, want) in [
        ("SET NO GREY", PressLevel::White),
        ("SET NO WHITE", PressLevel::Grey),
        ("SET GREY/WHITE", PressLevel::GreyWhite),
        ("SET WHITE/GREY", PressLevel::WhiteGrey),
        ("SET PRESS NONE", PressLevel::None),
    ] {
        let r = t.as_master(line);
        assert!(!r.contains("ERROR"), "{line}: {r}");
        assert_eq!(level(&mut t), want, "{line}");
    }
    assert!(
        t.as_master("SET GREY/WHITE").contains("OK SET GREY/WHITE"),
        "echoed as written, not as WHITE/GREY"
    );
    t.as_master("SET NO CD");
    assert!(!t.game().settings().nmr);
    t.as_master("SET CD");
    assert!(t.game().settings().nmr);
    t.as_master("SET UNLIST");
    assert!(!t.game().settings().listed);
    t.as_master("SET ALL PRESS");
    t.as_master("SET NORMAL PRESS");
    assert!(!t.game().settings().master_reads_all_press);
    let r = t.as_power(Power::France, "WITHDRAW");
    assert!(r.contains("OK RESIGN"), "{r}");
}

#[test]
fn words_done_otherwise_say_what_the_judge_does_instead_and_change_nothing() {
    let mut t = table();
    t.start();
    let before = t.game().settings().clone();
    let r = t.as_master("SET FAKE");
    assert!(r.contains("DONE-OTHERWISE"), "{r}");
    assert!(r.contains("never faked"), "{r}");
    let r = t.as_master("SET NO FAKE");
    assert!(r.contains("OK SET NO FAKE"), "as asked: {r}");
    let r = t.as_master("SET ANY CENTRES");
    assert!(r.contains("board"), "{r}");
    assert_eq!(t.game().settings(), &before);
    let r = t.as_power(Power::France, "SET FAKE");
    assert!(r.contains("NOT-MASTER"), "a master's word: {r}");
}

#[test]
fn orders_after_phase_for_a_later_phase_are_not_applied_now() {
    let mut t = table();
    t.start();
    let r = t.as_power(Power::France, "PHASE Fall 1901 Movement\nA Par - Bur");
    assert!(r.contains("OTHER-PHASE"), "{r}");
    assert!(t.game().orders_of(Power::France).is_empty(), "{r}");
    let r = t.as_power(
        Power::France,
        "PHASE Fall 1901 Movement\nA Par - Bur\nPHASE Spring 1901 Movement\nA Mar - Spa",
    );
    assert!(r.contains("OK PHASE S1901M"), "{r}");
    let orders = t.game().orders_of(Power::France).len();
    assert_eq!(
        orders, 1,
        "only the order after the current phase's PHASE: {r}"
    );
}

#[test]
fn become_sends_the_powers_player_a_copy() {
    let mut t = table();
    t.start();
    let since = t.mails().len();
    let r = t.as_master("SET DEADLINE Mar 9 2026 12:00\nBECOME France\nA Par - Bur");
    assert!(r.contains("OK BECOME France"), "{r}");
    let copies: Vec<_> = t
        .mails_since(since)
        .into_iter()
        .filter(|m| m.audience == Audience::power(Power::France))
        .filter(|m| m.subject.contains("The master acted as France"))
        .collect();
    assert_eq!(copies.len(), 1, "{copies:?}");
    let copy = copies.first().expect("a copy");
    assert_eq!(copy.recipient, "france-nw@example.test");
    assert!(copy.body.contains("A Par - Bur"), "{}", copy.body);
    assert!(
        !copy.body.contains("DEADLINE"),
        "the master's own lines before BECOME are not copied: {}",
        copy.body
    );
}
