//! The judge core without mail: messages in, queued mail out, on an in-memory database.

use chrono::{DateTime, Duration, TimeZone, Utc};

use super::*;
use crate::store::QueuedMail;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 12, 0, 0)
        .single()
        .expect("valid time")
}

fn judge() -> Judge {
    let config = JudgeConfig {
        password_cost: PasswordCost::TEST,
        ..JudgeConfig::default()
    };
    Judge::new(Store::open_in_memory().expect("store"), config).expect("judge")
}

struct Mailer {
    n: u32,
}

impl Mailer {
    fn send(&mut self, j: &mut Judge, from: &str, body: &str, at: DateTime<Utc>) -> Handled {
        self.n += 1;
        let msg = Incoming {
            key: format!("<m{}@test>", self.n),
            message_id: Some(format!("<m{}@test>", self.n)),
            from: from.to_string(),
            reply_to: None,
            from_name: None,
            subject: "orders".to_string(),
            text: body.to_string(),
            size_capped: false,
        };
        j.handle(&msg, at).expect("handled")
    }
}

fn last_reply_to(j: &mut Judge, addr: &str) -> String {
    j.all_mail()
        .expect("mail")
        .into_iter()
        .rev()
        .find(|m| m.recipient == addr && m.audience == crate::store::Audience::Reply)
        .map(|m| m.body)
        .unwrap_or_default()
}

fn mails_to(j: &mut Judge, addr: &str) -> Vec<QueuedMail> {
    j.all_mail()
        .expect("mail")
        .into_iter()
        .filter(|m| m.recipient == addr)
        .collect()
}

const PLAYERS: [&str; 7] = [
    "p1@example.test",
    "p2@example.test",
    "p3@example.test",
    "p4@example.test",
    "p5@example.test",
    "p6@example.test",
    "p7@example.test",
];

/// Creates `demo` and fills it; returns the address of each power's player.
fn started(j: &mut Judge, m: &mut Mailer) -> Vec<(crate::map::Power, String)> {
    m.send(j, "gm@example.test", "CREATE ?demo gmpass-01", t0());
    for (i, p) in PLAYERS.iter().enumerate() {
        m.send(j, p, &format!("SIGNON ?demo password{i}"), t0());
    }
    let state = j.dump_state().expect("dump");
    assert!(state.contains("GAME demo (active)"), "{state}");
    state
        .lines()
        .filter_map(|l| l.trim().strip_prefix("player "))
        .filter_map(|l| {
            let (power, addr) = l.split_once(' ')?;
            Some((crate::map::Power::from_name(power)?, addr.to_string()))
        })
        .collect()
}

fn password_of(addr: &str) -> String {
    let i = PLAYERS.iter().position(|p| *p == addr).expect("a player");
    format!("password{i}")
}

#[test]
fn a_game_forms_starts_and_processes() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    let seats = started(&mut j, &mut m);
    assert_eq!(seats.len(), 7);
    let start_mail = mails_to(&mut j, "gm@example.test");
    assert!(
        start_mail
            .iter()
            .any(|m| m.subject == "DIP:demo - S1901M Game Starting"),
        "{start_mail:?}"
    );

    // England orders; a bad order is answered and the rest stands.
    let (_, eng) = seats
        .iter()
        .find(|(p, _)| *p == crate::map::Power::England)
        .expect("England");
    let body = format!(
        "SIGNON Edemo {}\nF Lon - NTH\nF Edi - Nwg\nA Lvp - Bru\nA Lvp - Yor\n",
        password_of(eng)
    );
    m.send(&mut j, eng, &body, t0() + Duration::hours(1));
    let reply = last_reply_to(&mut j, eng);
    assert!(reply.contains("OK F Lon - NTH"), "{reply}");
    assert!(reply.contains("ERROR UNKNOWN-PROVINCE: line 4"), "{reply}");
    assert!(reply.contains("OK A Lvp - Yor"), "{reply}");
    assert!(
        !reply.contains(&password_of(eng)),
        "the password is never echoed: {reply}"
    );

    // Nothing happens before the deadline; at it, late notices; at the end of grace the
    // phase is processed with holds (NMR).
    assert_eq!(j.tick(t0() + Duration::hours(2)).expect("tick"), 0);
    let deadline = t0() + Duration::hours(72);
    j.tick(deadline - Duration::hours(23))
        .expect("reminder tick");
    j.tick(deadline).expect("late tick");
    let late: Vec<_> = mails_to(&mut j, "gm@example.test")
        .into_iter()
        .filter(|m| m.subject.contains("Late Powers"))
        .collect();
    assert_eq!(late.len(), 1);
    assert!(!late[0].body.contains("England"), "{}", late[0].body);
    j.tick(deadline + Duration::hours(24)).expect("grace tick");
    let results: Vec<_> = mails_to(&mut j, eng)
        .into_iter()
        .filter(|m| m.subject == "DIP:demo - S1901M Results")
        .collect();
    assert_eq!(results.len(), 1, "one results bulletin each");
    assert!(
        results[0]
            .body
            .contains("England: Fleet London -> North Sea."),
        "{}",
        results[0].body
    );
    let state = j.dump_state().expect("dump");
    assert!(state.contains("phase F1901M"), "{state}");
}

#[test]
fn duplicates_wrong_passwords_and_unknown_games() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    let seats = started(&mut j, &mut m);
    let (_, fra) = seats
        .iter()
        .find(|(p, _)| *p == crate::map::Power::France)
        .expect("France");

    // The same Message-ID twice: the second is a no-op.
    let msg = Incoming {
        key: "<same@test>".into(),
        message_id: Some("<same@test>".into()),
        from: fra.clone(),
        reply_to: None,
        from_name: None,
        subject: "x".into(),
        text: format!("SIGNON Fdemo {}\nA Par - Bur\n", password_of(fra)),
        size_capped: false,
    };
    let before = j.all_mail().expect("mail").len();
    assert!(matches!(
        j.handle(&msg, t0()).expect("ok"),
        Handled::Applied { .. }
    ));
    assert_eq!(j.handle(&msg, t0()).expect("ok"), Handled::Duplicate);
    assert_eq!(j.all_mail().expect("mail").len(), before + 1);

    // Wrong password and unknown game read the same: no hint which was wrong.
    m.send(&mut j, fra, "SIGNON Fdemo wrong\nA Par - Bur", t0());
    let a = last_reply_to(&mut j, fra);
    m.send(&mut j, fra, "SIGNON Fnosuch wrong\nA Par - Bur", t0());
    let b = last_reply_to(&mut j, fra);
    assert!(
        a.contains("ERROR BAD-SIGNON") && b.contains("ERROR BAD-SIGNON"),
        "{a}\n{b}"
    );
    assert!(
        !a.contains("wrong\"") && !b.contains("\"SIGNON Fnosuch wrong"),
        "password masked: {a}"
    );
    assert_eq!(
        a.lines().next().map(|l| l.replace("Fdemo", "X")),
        b.lines().next().map(|l| l.replace("Fnosuch", "X"))
    );
    // Orders for another power's unit are refused.
    m.send(
        &mut j,
        fra,
        &format!("SIGNON Fdemo {}\nA Ber - Kie", password_of(fra)),
        t0(),
    );
    let r = last_reply_to(&mut j, fra);
    assert!(r.contains("ERROR FOREIGN-UNIT"), "{r}");
}

#[test]
fn press_goes_only_to_its_readers() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    let seats = started(&mut j, &mut m);
    let addr = |p: crate::map::Power| {
        seats
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, a)| a.clone())
            .expect("seat")
    };
    let (eng, fra, ger) = (
        addr(crate::map::Power::England),
        addr(crate::map::Power::France),
        addr(crate::map::Power::Germany),
    );
    let body = format!(
        "SIGNON Edemo {}\nPRESS TO F\nThe secret plan.\nENDPRESS\n",
        password_of(&eng)
    );
    m.send(&mut j, &eng, &body, t0());
    let all = j.all_mail().expect("mail");
    let readers: Vec<&str> = all
        .iter()
        .filter(|m| m.body.contains("The secret plan."))
        .map(|m| m.recipient.as_str())
        .collect();
    assert_eq!(readers, vec![fra.as_str()], "only France reads it");
    assert!(
        !mails_to(&mut j, &ger)
            .iter()
            .any(|m| m.body.contains("secret plan"))
    );
    // Broadcasts reach everyone, and go into the history.
    let body = format!(
        "SIGNON Edemo {}\nBROADCAST\nHello all.\nENDBROADCAST\n",
        password_of(&eng)
    );
    m.send(&mut j, &eng, &body, t0());
    let n = j
        .all_mail()
        .expect("mail")
        .iter()
        .filter(|m| m.body.contains("Hello all."))
        .count();
    assert_eq!(n, 7, "six other players and the master");
}

fn master(j: &mut Judge, m: &mut Mailer, lines: &str, at: DateTime<Utc>) -> String {
    m.send(
        j,
        "gm@example.test",
        &format!("SIGNON Mdemo gmpass-01\n{lines}"),
        at,
    );
    last_reply_to(j, "gm@example.test")
}

#[test]
fn master_commands() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    let seats = started(&mut j, &mut m);
    let t = t0() + Duration::hours(1);

    // PREVIEW shows results and saves nothing.
    let r = master(&mut j, &mut m, "PREVIEW", t);
    assert!(r.contains("Movement results for Spring of 1901."), "{r}");
    assert!(j.dump_state().expect("state").contains("phase S1901M"));

    // PAUSE stops the clock; RESUME starts a new deadline.
    let r = master(&mut j, &mut m, "PAUSE", t);
    assert!(r.contains("OK PAUSE"), "{r}");
    assert_eq!(
        j.tick(t0() + Duration::hours(200)).expect("tick"),
        0,
        "a paused game waits"
    );
    let r = master(&mut j, &mut m, "RESUME", t0() + Duration::hours(200));
    assert!(r.contains("OK RESUME"), "{r}");
    assert!(
        j.dump_state()
            .expect("state")
            .contains("deadline 2026-11-12T20:00:00Z")
    );

    // OFFICIAL reaches every player; BECOME lets the master order for a power.
    master(&mut j, &mut m, "OFFICIAL New rules\nBe nice.\nENDPRESS", t);
    let official = j
        .all_mail()
        .expect("mail")
        .into_iter()
        .filter(|x| x.body.contains("Be nice."))
        .count();
    assert_eq!(official, 7, "the seven players");
    let r = master(&mut j, &mut m, "BECOME Italy\nA Ven - Tyr", t);
    assert!(
        r.contains("OK BECOME Italy") && r.contains("OK A Ven - Tyr"),
        "{r}"
    );

    // PROCESS waits for every order; PROCESS! does not.
    let r = master(&mut j, &mut m, "PROCESS", t);
    assert!(r.contains("ERROR ORDERS-MISSING"), "{r}");
    let r = master(&mut j, &mut m, "PROCESS!", t);
    assert!(r.contains("OK PROCESS!"), "{r}");
    let state = j.dump_state().expect("state");
    assert!(
        state.contains("phase F1901M") && state.contains("unit Italy A Tyr"),
        "{state}"
    );

    // ROLLBACK returns to the start of S1901M.
    let r = master(&mut j, &mut m, "ROLLBACK", t);
    assert!(r.contains("OK ROLLBACK"), "{r}");
    let state = j.dump_state().expect("state");
    assert!(
        state.contains("phase S1901M") && state.contains("unit Italy A Ven"),
        "{state}"
    );

    // A player may not use master commands.
    let (_, eng) = seats
        .iter()
        .find(|(p, _)| *p == crate::map::Power::England)
        .expect("England");
    m.send(
        &mut j,
        eng,
        &format!("SIGNON Edemo {}\nPAUSE", password_of(eng)),
        t,
    );
    assert!(last_reply_to(&mut j, eng).contains("ERROR NOT-MASTER"));
}

#[test]
fn a_time_warp_extends_instead_of_processing() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    started(&mut j, &mut m);
    j.tick(t0() + Duration::hours(1)).expect("tick");
    // The judge was down for four days: the deadline and the grace passed meanwhile.
    j.tick(t0() + Duration::hours(97)).expect("tick");
    let mails = j.all_mail().expect("mail");
    assert!(
        mails
            .iter()
            .any(|x| x.subject == "DIP:demo - Deadline extended")
    );
    assert!(
        !mails.iter().any(|x| x.subject.ends_with("Results")),
        "nothing processed"
    );
    assert!(
        j.dump_state()
            .expect("state")
            .contains("deadline 2026-11-08T13:00:00Z")
    );
}

#[test]
fn concession_and_absence() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    let seats = started(&mut j, &mut m);
    let t = t0() + Duration::hours(1);
    // An absence is remembered; the deadline running now stands (njudge): the reply says so.
    let (_, fra) = seats
        .iter()
        .find(|(p, _)| *p == crate::map::Power::France)
        .expect("France");
    m.send(
        &mut j,
        fra,
        &format!(
            "SIGNON Fdemo {}\nSET ABSENCE Nov 3 TO Nov 6",
            password_of(fra)
        ),
        t,
    );
    let r = last_reply_to(&mut j, fra);
    assert!(r.contains("OK SET ABSENCE"), "{r}");
    assert!(r.contains("falls inside this absence and stands"), "{r}");
    let g = j.game("demo").expect("load").expect("game");
    assert_eq!(g.absences().len(), 1);
    assert_eq!(
        g.absences()[0].to,
        Utc.with_ymd_and_hms(2026, 11, 6, 23, 59, 0)
            .single()
            .expect("time")
    );
    // Everyone but England concedes to England.
    for (p, a) in &seats {
        if *p == crate::map::Power::England {
            continue;
        }
        m.send(
            &mut j,
            a,
            &format!(
                "SIGNON {}demo {}\nSET CONCEDE England",
                p.initial(),
                password_of(a)
            ),
            t,
        );
    }
    assert!(
        j.dump_state()
            .expect("state")
            .contains("finished: The game was conceded to England.")
    );
}

#[test]
fn create_options_set_the_game_up() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    m.send(
        &mut j,
        "gm@example.test",
        "CREATE ?quiet gmpass-01 standard nonmr nopartial grey",
        t0(),
    );
    let g = j.game("quiet").expect("load").expect("created");
    assert!(!g.settings().nmr && !g.settings().press.partial);
    assert_eq!(g.settings().press.level, crate::game::PressLevel::Grey);
    m.send(
        &mut j,
        "gm@example.test",
        "CREATE ?loud gmpass-01 standard fast",
        t0(),
    );
    let r = last_reply_to(&mut j, "gm@example.test");
    assert!(r.contains("ERROR BAD-OPTION") && !r.contains("fast"), "{r}");
    assert!(
        j.game("loud").expect("load").is_none(),
        "nothing created on a bad option"
    );
}

/// A rule set whose first phase is one of its own, that nobody owes orders in and that
/// runs to its deadline (H18).
struct Patient;

/// Patient's phase of its own before the first Spring.
const PATIENCE: crate::rules::OwnPhase = crate::rules::OwnPhase {
    name: "Patience",
    letter: 'N',
    letter_first: true,
    season: crate::rules::Season::Spring,
    before: true,
    length: (3, 2),
    then: crate::rules::Then::Movement,
};

impl crate::variant::RuleSet for Patient {
    type State = ();
    type Command = crate::command::NoCommand;

    fn name(&self) -> &'static str {
        "Patient"
    }

    fn phases(&self) -> &'static [crate::rules::OwnPhase] {
        &[PATIENCE]
    }

    fn calendar(
        &self,
        _state: &(),
        at: crate::rules::CalendarPoint<'_>,
    ) -> Option<crate::rules::Phase> {
        matches!(at, crate::rules::CalendarPoint::Start)
            .then(|| crate::rules::Phase::own(1901, &PATIENCE))
    }

    fn readiness(
        &self,
        _game: &crate::variant::GameView<'_>,
        _state: &(),
        standard: crate::variant::Readiness,
    ) -> crate::variant::Readiness {
        crate::variant::Readiness {
            early: crate::variant::Early::AtDeadline,
            ..standard
        }
    }
}

/// A phase that runs to its deadline though nobody owes anything in it (H18
/// `Early::AtDeadline`) is processed at the deadline: no late notice naming nobody, no grace
/// period.
#[test]
fn a_phase_nobody_owes_anything_in_is_processed_at_its_deadline() {
    let config = JudgeConfig {
        password_cost: PasswordCost::TEST,
        variants: crate::variant::Registry::default().with(crate::variant::Entry {
            name: "Patient",
            aliases: &[],
            variant: Some(&Patient),
        }),
        ..JudgeConfig::default()
    };
    let mut j = Judge::new(Store::open_in_memory().expect("store"), config).expect("judge");
    let mut m = Mailer { n: 0 };
    m.send(
        &mut j,
        "gm@example.test",
        "CREATE ?ir gmpass-01 patient",
        t0(),
    );
    for (i, p) in PLAYERS.iter().enumerate() {
        m.send(&mut j, p, &format!("SIGNON ?ir password{i}"), t0());
    }
    let state = j.dump_state().expect("dump");
    assert!(state.contains("phase N1901"), "{state}");
    // Nothing before the deadline (one and a half movement deadlines): no reminder
    // either, as nobody owes anything...
    let deadline = t0() + Duration::hours(108);
    let before = mails_to(&mut j, "gm@example.test").len();
    j.tick(deadline - Duration::hours(1)).expect("tick");
    assert_eq!(mails_to(&mut j, "gm@example.test").len(), before);
    assert!(j.dump_state().expect("dump").contains("phase N1901"));
    // ... and at it, the results, without a late notice.
    j.tick(deadline).expect("deadline tick");
    let mails = mails_to(&mut j, "gm@example.test");
    assert!(
        !mails.iter().any(|m| m.subject.contains("Late Powers")),
        "{mails:?}"
    );
    assert!(mails.iter().any(|m| m.subject == "DIP:ir - N1901 Results"));
    assert!(j.dump_state().expect("dump").contains("phase S1901M"));
}

/// Creates a game of `rules` (a CREATE option: `formal`) named `name` and fills it;
/// returns each power's player address.
fn started_with(
    j: &mut Judge,
    m: &mut Mailer,
    name: &str,
    rules: &str,
) -> Vec<(crate::map::Power, String)> {
    m.send(
        j,
        "gm@example.test",
        &format!("CREATE ?{name} gmpass-01 {rules}"),
        t0(),
    );
    for (i, p) in PLAYERS.iter().enumerate() {
        m.send(j, p, &format!("SIGNON ?{name} password{i}"), t0());
    }
    let g = j.game(name).expect("read").expect("the game");
    assert_eq!(*g.status(), crate::game::Status::Active);
    g.players()
        .iter()
        .map(|p| (p.power, p.seat.address.clone()))
        .collect()
}

/// H1: the lines a rule set takes first (Formal's declarations of war) are answered
/// before the first order after them, wherever they are written, each once, and the reply
/// still answers in line order: Italy's A Ven - Tri, into Austria's Trieste, is taken
/// because the declaration after it was taken first. The reply is pinned as the judge
/// wrote it when it looked through every later line before each order.
#[test]
fn lines_taken_first_answer_once_and_in_line_order() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    let seats = started_with(&mut j, &mut m, "war", "formal");
    let (power, addr) = seats
        .iter()
        .find(|(p, _)| *p == crate::map::Power::Italy)
        .expect("Italy plays");
    let pw = password_of(addr);
    let body = format!(
        "SIGNON {}war {pw}\nA Ven - Tri\nDECLARE WAR ON Austria\nA Rom - Ven\nxyzzy\nDWO Turkey\nF Nap - ION\nDECLARE WAR ON Austria\nA Ven - Tri\nSURRENDER\nA Rom H\n",
        power.initial()
    );
    m.send(&mut j, addr, &body, t0());
    assert_eq!(
        last_reply_to(&mut j, addr),
        "OK SIGNON Iwar (Italy)
OK A Ven - Tri
OK DWO Austria
OK A Rom - Ven
ERROR UNKNOWN-COMMAND: line 5: \"xyzzy\": \"xyzzy\" is not a command, and no province is called that
OK DWO Turkey
OK F Nap - ION
ERROR FD-E17: line 8: \"DECLARE WAR ON Austria\": Italy has already declared war on Austria in these orders.
OK A Ven - Tri
ERROR FD-E7: line 10: \"SURRENDER\": a power cannot surrender and declare war in the same turn.
OK A Rom H

Orders standing for Italy in war (S1901M):
  F Nap - ION
  A Rom H
  A Ven - Tri
  DWO Austria
  DWO Turkey
"
    );
}

/// After fifty unreadable lines the judge stops: the reply answers the lines before the
/// fifty-first (the unreadable ones with their suggestions) and says where it stopped;
/// with and without a SIGNON. Pinned as the judge wrote it when it looked for suggestions
/// for every line, those it does not report too.
#[test]
fn the_judge_stops_after_fifty_unreadable_lines() {
    let mut j = judge();
    let mut m = Mailer { n: 0 };
    let seats = started(&mut j, &mut m);
    let (power, addr) = seats.first().expect("a seat");
    let pw = password_of(addr);
    let junk = [
        "Bru",
        "sigon",
        "A Bulgria - Ser",
        "procss",
        "F Nth - Nrg",
        "xyzzy plugh",
    ];
    let answer = |k: usize, n: usize, signed_on: bool| match k % 6 {
        0 => format!(
            "ERROR UNKNOWN-COMMAND: line {n}: \"Bru\": \"Bru\" is not a command, and no province is called that; did you mean Bre (Brest)?"
        ),
        1 => format!(
            "ERROR UNKNOWN-COMMAND: line {n}: \"sigon\": \"sigon\" is not a command, and no province is called that; did you mean SIGN?"
        ),
        2 => format!(
            "ERROR UNKNOWN-PROVINCE: line {n}: \"A Bulgria - Ser\": no province called \"Bulgria\"; did you mean Bul (Bulgaria)?"
        ),
        3 => format!(
            "ERROR UNKNOWN-COMMAND: line {n}: \"procss\": \"procss\" is not a command, and no province is called that; did you mean PROCESS?"
        ),
        4 if signed_on => {
            format!("ERROR NO-UNIT: line {n}: \"F Nth - Nrg\": there is no unit in North Sea")
        }
        4 => format!(
            "ERROR NOT-SIGNED-ON: line {n}: \"F Nth - Nrg\": sign on as a power before ordering: SIGNON <initial><game> <password>"
        ),
        _ => format!(
            "ERROR UNKNOWN-COMMAND: line {n}: \"xyzzy plugh\": \"xyzzy\" is not a command, and no province is called that"
        ),
    };
    let mut lines = String::new();
    for k in 0..70 {
        lines.push_str(junk.get(k % junk.len()).copied().unwrap_or("x"));
        lines.push('\n');
    }
    lines.push_str("A Par H\n");
    // Five unreadable lines in six: the fifty-first is the 61st junk line.
    let stop = |first: usize| {
        format!(
            "Too many lines could not be read; the judge stopped at line {} and ignored the 11 command lines after it.\n",
            first + 60
        )
    };
    m.send(
        &mut j,
        addr,
        &format!("SIGNON {}demo {pw}\n{lines}", power.initial()),
        t0(),
    );
    let mut want = format!("OK SIGNON {}demo ({power})\n", power.initial());
    for k in 0..60 {
        want.push_str(&answer(k, k + 2, true));
        want.push('\n');
    }
    want.push_str(&stop(2));
    assert_eq!(last_reply_to(&mut j, addr), want);
    // Without a SIGNON the mail is read to its fiftieth line only, readable or not. Its
    // first line, a single word that is no command (`Bru`), is read as a greeting before
    // the first command and skipped (grammar/framing.md): the fifty start at line 2.
    m.send(&mut j, addr, &lines, t0());
    let mut want = String::new();
    for k in 1..51 {
        want.push_str(&answer(k, k + 1, false));
        want.push('\n');
    }
    want.push_str("This mail has not signed on: the judge answered its first 50 lines and did not read the 20 command lines after them. Sign on first (SIGNON) to send more.\n");
    assert_eq!(last_reply_to(&mut j, addr), want);
}
