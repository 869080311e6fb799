//! Players as people (issue 31): njudge's REGISTER blocks answered without an error,
//! registration confirmed by the address and updated by a second one, WHOIS showing only
//! the public fields, I AM ALSO linking a second address once it answers (and a forged
//! From linking nothing). The reliability record and the entry gates are played by mail in
//! the golden scenario `tests/golden/03-reliability`.

use chrono::{DateTime, Duration, Utc};
use dipjudge::judge::Judge;
use dipjudge::store::QueuedMail;

use crate::desk::{self, code_of};

fn t0() -> DateTime<Utc> {
    desk::utc(2026, 11, 1, 9, 0)
}

fn judge() -> Judge {
    desk::judge(desk::config())
}

/// Mails the judge from `from` (its Message-ID `key`, its subject `subject`); returns the
/// mails it queued.
fn mail(
    judge: &mut Judge,
    key: &str,
    from: &str,
    subject: &str,
    body: &str,
    at: DateTime<Utc>,
) -> Vec<QueuedMail> {
    desk::deliver(judge, &desk::incoming(key, from, subject, body), at)
}

/// Bob's `WHOIS who` (its Message-ID `key`) at `at`: the body of the one answer to Bob.
fn whois(judge: &mut Judge, key: &str, who: &str, at: DateTime<Utc>) -> String {
    let mails = mail(
        judge,
        key,
        "bob@example.test",
        "w",
        &format!("WHOIS {who}"),
        at,
    );
    to(&mails, "bob@example.test").body.clone()
}

/// The one mail to `to` among `mails`.
fn to<'m>(mails: &'m [QueuedMail], to: &str) -> &'m QueuedMail {
    let found: Vec<&QueuedMail> = mails.iter().filter(|m| m.recipient == to).collect();
    assert_eq!(found.len(), 1, "one mail to {to}: {mails:#?}");
    found[0]
}

/// A registration in njudge's form (its `A-Reg` regression inputs), with our own values.
fn njudge_form(name: &str, address: &str, n: usize) -> String {
    format!(
        "REGISTER\n\
         Name:      {name}\n\
         Phone:     +44 20 7946 09{n:02}\n\
         Site:      Example College\n\
         Address:   {n} Sample Road, Testville\n\
         Country:   United Kingdom\n\
         Timezone:  Europe/London\n\
         Email:     {address}\n\
         Level:     Novice\n\
         Birthdate: Mar 3, 1980\n\
         Sex:       Female\n\
         Package:   No\n\
         END\n\n\n"
    )
}

/// Every line of njudge's thirteen registrations (ten players, two masters, in its form)
/// is answered, none with `UNKNOWN-COMMAND` or `SYNTAX`; each waits for its address's
/// confirmation, which records it, with what was recorded in the answer.
#[test]
fn njudge_register_blocks_are_read_and_confirmed() {
    let mut judge = judge();
    let mut at = t0();
    let mut people: Vec<(String, String)> = (1..=10)
        .map(|n| (format!("Tester {n}"), format!("tester{n}@example.test")))
        .collect();
    people.push(("Umpire One".into(), "umpire1@example.test".into()));
    people.push(("Umpire Two".into(), "umpire2@example.test".into()));
    for (n, (name, address)) in people.iter().enumerate() {
        at += Duration::minutes(1);
        let mails = mail(
            &mut judge,
            &format!("<reg{n}@test>"),
            address,
            "register",
            &njudge_form(name, address, n),
            at,
        );
        let reply = to(&mails, address);
        for bad in ["UNKNOWN-COMMAND", "SYNTAX", "ERROR"] {
            assert!(!reply.body.contains(bad), "{bad} in {}", reply.body);
        }
        assert!(
            reply
                .body
                .contains("OK REGISTER (11 fields) (waits until this address confirms it"),
            "{}",
            reply.body
        );
        // The address answers: the profile is recorded, and the answer says what.
        let code = code_of(reply);
        at += Duration::minutes(1);
        let mails = mail(
            &mut judge,
            &format!("<conf{n}@test>"),
            address,
            "confirm",
            &format!("CONFIRM {code}"),
            at,
        );
        let answer = &to(&mails, address).body;
        assert!(answer.contains("OK REGISTER"), "{answer}");
        assert!(answer.contains(&format!("   * Name: {name}")), "{answer}");
        assert!(answer.contains("     Phone: +44"), "{answer}");
    }
    // Anyone reads the public fields and nothing else: no address, phone or birthdate.
    at += Duration::minutes(1);
    let mails = mail(
        &mut judge,
        "<who1@test>",
        "stranger@example.test",
        "whois",
        "WHOIS tester3@example.test\nWHOIS umpire two",
        at,
    );
    let answer = &to(&mails, "stranger@example.test").body;
    assert!(answer.contains("OK WHOIS tester3@example.test"), "{answer}");
    assert!(answer.contains("    Name: Tester 3"), "{answer}");
    assert!(answer.contains("    Name: Umpire Two"), "{answer}");
    assert!(answer.contains("    Timezone: Europe/London"), "{answer}");
    for private in ["Sample Road", "+44", "1980", "Email:", "Female"] {
        assert!(!answer.contains(private), "{private} shown: {answer}");
    }
    assert!(!answer.contains("umpire2@example.test"), "{answer}");
}

/// Registering again replaces the profile; `Public:` shows a field that is private by
/// default, `Private:` hides one that is public.
#[test]
fn a_second_registration_updates_the_profile_and_chooses_what_is_public() {
    let mut judge = judge();
    let ann = "ann@example.test";
    let reply = mail(
        &mut judge,
        "<r1@test>",
        ann,
        "register",
        "REGISTER\nName: Ann\nSite: Old Place\nEND",
        t0(),
    );
    let code = code_of(to(&reply, ann));
    mail(
        &mut judge,
        "<c1@test>",
        ann,
        "c",
        &format!("CONFIRM {code}"),
        t0(),
    );
    // The second registration needs its own proof: an answer once given is no proof of
    // this mail (its From could be forged).
    let later = t0() + Duration::hours(25);
    let reply = mail(
        &mut judge,
        "<r2@test>",
        ann,
        "register",
        "REGISTER\nName: Ann Example\nSite: New Place\nEmail: ann@example.test\nPublic: Email\nPrivate: Site\nEND",
        later,
    );
    let code = code_of(to(&reply, ann));
    mail(
        &mut judge,
        "<c2@test>",
        ann,
        "c",
        &format!("CONFIRM {code}"),
        later,
    );
    let answer = whois(&mut judge, "<w@test>", "Ann Example", later);
    assert!(answer.contains("    Name: Ann Example"), "{answer}");
    assert!(answer.contains("    Email: ann@example.test"), "{answer}");
    assert!(!answer.contains("Place"), "{answer}");
    assert!(!answer.contains("Public:"), "{answer}");
    let answer = whois(&mut judge, "<w2@test>", "Ann", later);
    assert!(
        answer.contains("ERROR UNKNOWN-PERSON"),
        "the old name is gone"
    );
}

/// `I AM ALSO address` links the second address once it answers the confirmation mailed to
/// it; a forged From links nothing: the asking address must prove itself in that mail, and
/// the other answers for itself.
#[test]
fn i_am_also_links_only_what_both_addresses_confirm() {
    let mut judge = judge();
    let ann = "ann@example.test";
    let work = "ann.work@example.test";
    let mallory = "mallory@example.test";
    let at = t0();
    let reply = mail(
        &mut judge,
        "<k1@test>",
        ann,
        "r",
        "REGISTER\nName: Ann Example\nEND",
        at,
    );
    let code = code_of(to(&reply, ann));
    mail(
        &mut judge,
        "<k2@test>",
        ann,
        "c",
        &format!("CONFIRM {code}"),
        at,
    );

    // Mallory names Ann's address, and confirms its own: the link's confirmation goes to
    // Ann, whose code Mallory never sees; answered from Mallory's address it is no answer.
    let at = at + Duration::hours(25);
    let mails = mail(
        &mut judge,
        "<k3@test>",
        mallory,
        "m",
        &format!("I AM ALSO {ann}"),
        at,
    );
    let mallory_code = code_of(to(&mails, mallory));
    let mails = mail(
        &mut judge,
        "<k4@test>",
        mallory,
        "m",
        &format!("CONFIRM {mallory_code}"),
        at,
    );
    assert!(
        to(&mails, mallory)
            .body
            .contains(&format!("OK I AM ALSO {ann}"))
    );
    let ann_code = code_of(to(&mails, ann));
    let mails = mail(
        &mut judge,
        "<k5@test>",
        mallory,
        "m",
        &format!("CONFIRM {ann_code}"),
        at,
    );
    assert!(to(&mails, mallory).body.contains("ERROR"), "{mails:#?}");
    let answer = whois(&mut judge, "<k6@test>", mallory, at);
    assert!(answer.contains("ERROR UNKNOWN-PERSON"));

    // A forged mail in Ann's name asks to link Mallory's address: the confirmation goes to
    // Ann (the mail's own address), nothing to Mallory, and nothing is linked.
    let at = at + Duration::hours(25);
    let mails = mail(
        &mut judge,
        "<k7@test>",
        ann,
        "f",
        &format!("I AM ALSO {mallory}"),
        at,
    );
    assert!(mails.iter().all(|m| m.recipient != mallory), "{mails:#?}");
    assert!(to(&mails, ann).subject.starts_with("DIP confirmation "));
    let answer = whois(&mut judge, "<k8@test>", mallory, at);
    assert!(answer.contains("ERROR UNKNOWN-PERSON"));

    // Ann, signed on nowhere, asks from her address and confirms it; the confirmation goes
    // to her work address, which answers: one person.
    let at = at + Duration::hours(25);
    let mails = mail(
        &mut judge,
        "<k9@test>",
        ann,
        "a",
        &format!("I AM ALSO {work}"),
        at,
    );
    let code = code_of(to(&mails, ann));
    let mails = mail(
        &mut judge,
        "<k10@test>",
        ann,
        "a",
        &format!("CONFIRM {code}"),
        at,
    );
    assert!(
        to(&mails, ann)
            .body
            .contains(&format!("OK I AM ALSO {work} (a confirmation was mailed"))
    );
    let link = to(&mails, work);
    assert!(link.body.contains(&format!("from {ann}")), "{}", link.body);
    let link_code = code_of(link);
    // Before the answer, the work address is nobody's.
    let answer = whois(&mut judge, "<k11@test>", work, at);
    assert!(answer.contains("ERROR UNKNOWN-PERSON"));
    let mails = mail(
        &mut judge,
        "<k12@test>",
        work,
        "a",
        &format!("CONFIRM {link_code}"),
        at,
    );
    let answer = &to(&mails, work).body;
    assert!(
        answer.contains(&format!("OK {work} is now also {ann}'s")),
        "{answer}"
    );
    let answer = whois(&mut judge, "<k13@test>", work, at);
    assert!(answer.contains("    Name: Ann Example"), "{answer}");
    assert!(
        !answer.contains(ann),
        "the first address is not shown: {answer}"
    );
}
