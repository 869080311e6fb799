//! A message far over the size cap: read up to the cap, the sender told so, nothing lost.

use chrono::{TimeZone, Utc};
use dipjudge::judge::{Judge, JudgeConfig, PasswordCost};
use dipjudge::mail::{Envelope, ParseLimits, incoming};
use dipjudge::store::Store;

#[test]
fn a_ten_megabyte_mail_is_capped_and_the_sender_told() {
    let mut body = String::from("LIST\nVERSION\n");
    let filler = "x".repeat(99) + "\n";
    while body.len() < 10 * 1024 * 1024 {
        body.push_str(&filler);
    }
    let raw = format!(
        "From: big@example.test\nTo: judge@example.test\nSubject: big\nMessage-ID: <big@test>\n\n{body}"
    );
    let env = Envelope::parse_with(raw.as_bytes(), ParseLimits::default()).expect("parses");
    assert!(env.size_capped, "the default cap is 256 KiB");
    assert!(env.text.len() <= 256 * 1024);
    let config = JudgeConfig {
        password_cost: PasswordCost::TEST,
        ..JudgeConfig::default()
    };
    let mut judge = Judge::new(Store::open_in_memory().expect("store"), config).expect("judge");
    let now = Utc
        .with_ymd_and_hms(2026, 11, 1, 9, 0, 0)
        .single()
        .expect("time");
    judge.handle(&incoming(&env), now).expect("handled");
    let mails = judge.all_mail().expect("mail");
    assert_eq!(mails.len(), 1, "one reply");
    let reply = &mails[0].body;
    assert!(
        reply.starts_with("OK LIST"),
        "{}",
        &reply[..200.min(reply.len())]
    );
    assert!(reply.contains("OK VERSION"));
    // The text is cut at a line's end, and the note names the first line not read.
    assert!(env.text.ends_with('\n'));
    let unread = env.text.lines().count() + 1;
    assert!(
        reply.contains(&format!(
            "NOTE: your message was longer than this judge reads: it read lines 1 to {} and stopped before line {unread}, of which nothing was read or done.",
            unread - 1
        )),
        "{}",
        &reply[reply.len().saturating_sub(300)..]
    );
    assert!(
        reply.len() < 300 * 1024,
        "the reply does not echo megabytes back"
    );
}
