//! Loop and abuse protection: which inbound mail must never be answered, and a per-address
//! reply rate limiter.
//!
//! Pure: it reads [`Envelope`] headers and takes the time as a value; no clock, no I/O, no
//! game rules. The judge may still read orders from a silenced message; it only must not
//! reply to it.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, SystemTime};

use crate::command::address::{is_bulk, is_mail_system};
use crate::mail::envelope::Envelope;

/// The header the judge puts on every mail it sends; mail carrying it is never answered.
pub const JUDGE_HEADER: &str = "X-Dipjudge";

/// Why a message must not be answered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Silence {
    /// `Auto-Submitted:` other than `no` (RFC 3834).
    #[error("it is automatic mail (Auto-Submitted: {0})")]
    AutoSubmitted(String),
    /// `Precedence: bulk`, `junk` or `list`.
    #[error("it is bulk or list mail (Precedence: {0})")]
    Precedence(String),
    /// It came through a mailing list (`List-Id:`).
    #[error("it came through a mailing list (List-Id: {0})")]
    MailingList(String),
    /// From a mailer daemon or postmaster.
    #[error("it comes from a mail system account ({0})")]
    MailSystem(String),
    /// The null sender `<>` (bounces and other delivery reports).
    #[error("it has the null return path <>, as bounces do")]
    NullSender,
    /// A `multipart/report` (delivery or read report).
    #[error("it is a delivery report (Content-Type: multipart/report)")]
    DeliveryReport,
    /// A vacation program's own header.
    #[error("it is a vacation auto-reply (X-Autoreply: {0})")]
    AutoReply(String),
    /// The judge's own header: a loop.
    #[error("it carries the judge's own {JUDGE_HEADER} header ({0})")]
    OwnMail(String),
    /// From the judge's own address (any case, any display name): a loop.
    #[error("it comes from the judge's own address ({0})")]
    OwnAddress(String),
    /// The reply would go to the judge's own address (`Reply-To:`): a loop.
    #[error("its reply address is the judge's own ({0})")]
    ReplyToOwn(String),
    /// The reply would go to a mail system account (`Reply-To: MAILER-DAEMON@…`).
    #[error("its reply address is a mail system account ({0})")]
    ReplyToMailSystem(String),
    /// The reply would go to an address that takes no replies or is a list's
    /// (`noreply@…`, `…-request@…`, `…-bounces@…`, `owner-…@…`).
    #[error("its reply address takes no replies or belongs to a list ({0})")]
    ReplyToBulk(String),
}

/// Returns why `env` must not be answered, or `None` when a reply is allowed.
pub fn silence_reason(env: &Envelope) -> Option<Silence> {
    let h = &env.loop_headers;
    if let Some(v) = &h.x_dipjudge {
        return Some(Silence::OwnMail(v.clone()));
    }
    if let Some(v) = &h.auto_submitted {
        let kind = v.split(';').next().unwrap_or_default().trim();
        if !kind.eq_ignore_ascii_case("no") {
            return Some(Silence::AutoSubmitted(v.clone()));
        }
    }
    if let Some(v) = &h.precedence {
        let p = v.trim().to_ascii_lowercase();
        if matches!(p.as_str(), "bulk" | "junk" | "list") {
            return Some(Silence::Precedence(v.clone()));
        }
    }
    if let Some(v) = &h.list_id {
        return Some(Silence::MailingList(v.clone()));
    }
    for addr in [Some(env.from.as_str()), h.return_path.as_deref()]
        .into_iter()
        .flatten()
    {
        if is_mail_system(addr) {
            return Some(Silence::MailSystem(addr.to_string()));
        }
    }
    if h.return_path.as_deref() == Some("") {
        return Some(Silence::NullSender);
    }
    if h.content_type == "multipart/report" {
        return Some(Silence::DeliveryReport);
    }
    if let Some(v) = &h.x_autoreply {
        return Some(Silence::AutoReply(v.clone()));
    }
    None
}

/// Returns why `env` must not be answered by the judge at `judge_address`, or `None` when
/// a reply is allowed: [`silence_reason`], and mail from the judge's own address (any case,
/// any display name), and mail whose reply would go to the judge's own address, to a mail
/// system account or to an address that takes no replies or is a list's.
pub fn silence_reason_for(env: &Envelope, judge_address: &str) -> Option<Silence> {
    let own = |a: &str| a.trim().eq_ignore_ascii_case(judge_address.trim());
    if own(&env.from) {
        return Some(Silence::OwnAddress(env.from.clone()));
    }
    if let Some(why) = silence_reason(env) {
        return Some(why);
    }
    let reply = env.reply_address();
    if own(reply) {
        return Some(Silence::ReplyToOwn(reply.to_string()));
    }
    if is_mail_system(reply) {
        return Some(Silence::ReplyToMailSystem(reply.to_string()));
    }
    if is_bulk(reply) {
        return Some(Silence::ReplyToBulk(reply.to_string()));
    }
    None
}

/// At most `limit` replies to one address in any `window`.
///
/// Pure: every call takes `now`; nothing reads a clock. Addresses compare case-insensitively.
#[derive(Debug, Clone)]
pub struct RateLimiter {
    limit: usize,
    window: Duration,
    sent: HashMap<String, VecDeque<SystemTime>>,
}

impl RateLimiter {
    /// A limiter allowing `limit` replies per address per `window`.
    pub fn new(limit: usize, window: Duration) -> Self {
        RateLimiter {
            limit,
            window,
            sent: HashMap::new(),
        }
    }

    /// Says whether one more reply to `address` is allowed at `now`, and if so counts it.
    pub fn allow(&mut self, address: &str, now: SystemTime) -> bool {
        let window = self.window;
        let queue = self.sent.entry(address.to_ascii_lowercase()).or_default();
        while let Some(first) = queue.front() {
            // A `first` later than `now` (the clock went back) counts as inside the window.
            let age = now.duration_since(*first).unwrap_or(Duration::ZERO);
            if age >= window {
                queue.pop_front();
            } else {
                break;
            }
        }
        if queue.len() >= self.limit {
            return false;
        }
        queue.push_back(now);
        true
    }

    /// Counts a reply sent to `address` at `at` without asking (replies sent before a
    /// restart, read back from the outbox, in the order they were sent).
    pub fn record(&mut self, address: &str, at: SystemTime) {
        self.sent
            .entry(address.to_ascii_lowercase())
            .or_default()
            .push_back(at);
    }

    /// The window this limiter counts replies in.
    pub fn window(&self) -> Duration {
        self.window
    }

    /// Forgets addresses with no reply inside the window at `now` (bounds memory).
    pub fn prune(&mut self, now: SystemTime) {
        let window = self.window;
        self.sent.retain(|_, q| {
            q.back()
                .is_some_and(|t| now.duration_since(*t).unwrap_or(Duration::ZERO) < window)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::envelope::Envelope;

    fn fixture(name: &str) -> Envelope {
        let path = format!("{}/fixtures/mail/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        Envelope::parse(&bytes).unwrap()
    }

    fn with_header(header: &str) -> Envelope {
        let raw = format!("From: a@example.test\r\nSubject: x\r\n{header}\r\n\r\nbody\r\n");
        Envelope::parse(raw.as_bytes()).unwrap()
    }

    #[test]
    fn player_mail_may_be_answered() {
        for name in [
            "html-only.eml",
            "qp-latin1.eml",
            "base64-utf8.eml",
            "multipart-text-attachment.eml",
            "no-message-id.eml",
        ] {
            assert_eq!(silence_reason(&fixture(name)), None, "{name}");
        }
        assert_eq!(silence_reason(&with_header("Auto-Submitted: no")), None);
        assert_eq!(
            silence_reason(&with_header("Precedence: first-class")),
            None
        );
    }

    #[test]
    fn bounce_and_auto_reply_are_silenced() {
        assert!(matches!(
            silence_reason(&fixture("bounce.eml")),
            Some(Silence::AutoSubmitted(_))
        ));
        assert!(matches!(
            silence_reason(&fixture("auto-reply.eml")),
            Some(Silence::AutoSubmitted(_))
        ));
    }

    #[test]
    fn each_rule_silences() {
        type Case = (&'static str, fn(&Silence) -> bool);
        let cases: &[Case] = &[
            ("Auto-Submitted: auto-generated", |s| {
                matches!(s, Silence::AutoSubmitted(_))
            }),
            ("Auto-Submitted: auto-replied; owner-email=x", |s| {
                matches!(s, Silence::AutoSubmitted(_))
            }),
            ("Precedence: BULK", |s| matches!(s, Silence::Precedence(_))),
            ("Precedence: junk", |s| matches!(s, Silence::Precedence(_))),
            ("Precedence: list", |s| matches!(s, Silence::Precedence(_))),
            ("List-Id: <players.example.test>", |s| {
                matches!(s, Silence::MailingList(_))
            }),
            ("X-Dipjudge: 0.1.0", |s| matches!(s, Silence::OwnMail(_))),
            ("x-dipjudge: 0.1.0", |s| matches!(s, Silence::OwnMail(_))),
            ("Return-Path: <>", |s| matches!(s, Silence::NullSender)),
            ("Return-Path: <Postmaster@example.test>", |s| {
                matches!(s, Silence::MailSystem(_))
            }),
            ("X-Autoreply: yes", |s| matches!(s, Silence::AutoReply(_))),
            (
                "Content-Type: multipart/report; report-type=x; boundary=b",
                |s| matches!(s, Silence::DeliveryReport),
            ),
        ];
        for (header, ok) in cases {
            let reason = silence_reason(&with_header(header));
            assert!(reason.as_ref().is_some_and(ok), "{header}: {reason:?}");
        }
        let daemon = Envelope::parse(b"From: MAILER-DAEMON@example.test\r\n\r\nx\r\n").unwrap();
        assert!(matches!(
            silence_reason(&daemon),
            Some(Silence::MailSystem(_))
        ));
    }

    /// Issue 25: the judge's own address (any case, any display name) is never answered,
    /// nor is mail whose reply would go to the judge, a mail system account, or an
    /// address that takes no replies or is a list's.
    #[test]
    fn the_judge_never_answers_itself_nor_a_reply_address_that_loops() {
        let judge = "judge@example.test";
        let mail = |headers: &str| {
            let raw = format!("{headers}\r\nSubject: x\r\n\r\nHELP\r\n");
            silence_reason_for(&Envelope::parse(raw.as_bytes()).unwrap(), judge)
        };
        assert!(matches!(
            mail("From: judge@example.test"),
            Some(Silence::OwnAddress(_))
        ));
        assert!(matches!(
            mail("From: DIP Judge <JUDGE@Example.TEST>"),
            Some(Silence::OwnAddress(_))
        ));
        assert!(matches!(
            mail("From: a@example.test\r\nReply-To: Judge <Judge@example.test>"),
            Some(Silence::ReplyToOwn(_))
        ));
        assert!(matches!(
            mail("From: a@example.test\r\nReply-To: MAILER-DAEMON@example.test"),
            Some(Silence::ReplyToMailSystem(_))
        ));
        for bulk in [
            "noreply@example.test",
            "No-Reply@example.test",
            "do_not_reply@example.test",
            "players-request@lists.example.test",
            "players-bounces@lists.example.test",
            "owner-players@lists.example.test",
        ] {
            assert!(
                matches!(
                    mail(&format!("From: a@example.test\r\nReply-To: {bulk}")),
                    Some(Silence::ReplyToBulk(_))
                ),
                "{bulk}"
            );
        }
        assert!(matches!(
            mail("From: noreply@example.test"),
            Some(Silence::ReplyToBulk(_))
        ));
        assert_eq!(mail("From: a@example.test"), None);
        assert_eq!(
            mail("From: a@example.test\r\nReply-To: other@example.test"),
            None
        );
        assert_eq!(mail("From: judgement@example.test"), None);
        assert_eq!(mail("From: replyguy@example.test"), None);
    }

    #[test]
    fn silence_reads_as_a_sentence() {
        assert_eq!(
            Silence::NullSender.to_string(),
            "it has the null return path <>, as bounces do"
        );
    }

    #[test]
    fn rate_limiter_counts_per_address_per_window() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let mut rl = RateLimiter::new(2, Duration::from_secs(60));
        assert!(rl.allow("a@example.test", t0));
        assert!(rl.allow("A@Example.test", t0 + Duration::from_secs(1)));
        assert!(!rl.allow("a@example.test", t0 + Duration::from_secs(2)));
        assert!(rl.allow("b@example.test", t0 + Duration::from_secs(2)));
        // The first reply leaves the window at t0 + 60.
        assert!(!rl.allow("a@example.test", t0 + Duration::from_secs(59)));
        assert!(rl.allow("a@example.test", t0 + Duration::from_secs(60)));
        assert!(!rl.allow("a@example.test", t0 + Duration::from_secs(60)));
        // A clock that steps back does not open the gate.
        assert!(!rl.allow("a@example.test", t0));
        rl.prune(t0 + Duration::from_secs(1000));
        assert!(rl.sent.is_empty());
        let mut zero = RateLimiter::new(0, Duration::from_secs(60));
        assert!(!zero.allow("a@example.test", t0));
    }
}
