//! Outbound mail: [`OutgoingMail`] rendered to RFC 5322 bytes, and the [`Outbox`] transports
//! that deliver a batch ([`smtp::SmtpOutbox`], or [`maildir::MaildirOutbox`] by default).
//!
//! Rendering takes the date as a value (no clock). Delivery failures are classified as
//! temporary (retry later) or permanent (mark the mail failed); the caller keeps the outbox
//! table and decides. It never knows what a mail says about a game.

pub mod maildir;
pub mod smtp;

use std::time::SystemTime;

use lettre::address::Envelope;
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, Message, MultiPart, SinglePart};

use crate::mail::guard::JUDGE_HEADER;

/// The judge's version, written into every `X-Dipjudge:` header.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The `Auto-Submitted:` value of a mail the judge sends (RFC 3834).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoSubmitted {
    /// A reply to a player's mail: `auto-replied`.
    Replied,
    /// A mail nobody asked for right now (bulletins, reminders): `auto-generated`.
    Generated,
}

impl AutoSubmitted {
    /// The header value.
    pub fn as_str(self) -> &'static str {
        match self {
            AutoSubmitted::Replied => "auto-replied",
            AutoSubmitted::Generated => "auto-generated",
        }
    }
}

/// One mail the judge wants to send: plain UTF-8 text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    /// The judge's own address (`From:` and the envelope sender).
    pub from: String,
    /// Recipients; all of them see each other in `To:` (send one mail each where addresses
    /// are private).
    pub to: Vec<String>,
    /// `Subject:`.
    pub subject: String,
    /// The text, with LF or CRLF line endings.
    pub body: String,
    /// `Auto-Submitted:` kind.
    pub auto_submitted: AutoSubmitted,
    /// `Message-ID:` without angle brackets (the caller makes it unique and stores it).
    pub message_id: String,
    /// The Message-ID answered, without angle brackets; also written as `References:`.
    pub in_reply_to: Option<String>,
    /// Further headers, as (name, value).
    pub extra_headers: Vec<(String, String)>,
    /// Files sent with the text (a map of the phase); with any, the mail is
    /// `multipart/mixed`, the text its first part, unchanged.
    pub attachments: Vec<Attachment>,
}

/// A file sent with a mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The file name the reader sees (`concert-S1901M.png`).
    pub filename: String,
    /// Its MIME type (`image/png`).
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// A rendered mail, ready for a transport.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedMail {
    /// `Message-ID:` without angle brackets, for logs and the outbox table.
    pub message_id: String,
    /// SMTP `MAIL FROM`; `None` is the null sender `<>`.
    pub envelope_from: Option<String>,
    /// SMTP `RCPT TO`, one per address.
    pub recipients: Vec<String>,
    /// The RFC 5322 message, CRLF line endings.
    pub bytes: Vec<u8>,
}

/// An [`OutgoingMail`] that cannot be rendered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// An address does not parse.
    #[error("{field} address {address:?} is not a valid mail address: {reason}")]
    Address {
        /// Which header it was for.
        field: &'static str,
        /// The address as given.
        address: String,
        /// What the parser said.
        reason: String,
    },
    /// A header name in `extra_headers` is not a valid header name.
    #[error("extra header name {0:?} is not a valid header name")]
    HeaderName(String),
    /// The mail has no recipient.
    #[error("the mail {0:?} has no recipient")]
    NoRecipient(String),
    /// lettre refused to build the message.
    #[error("the mail {message_id:?} could not be built: {reason}")]
    Build {
        /// The mail's Message-ID.
        message_id: String,
        /// What lettre said.
        reason: String,
    },
}

fn mailbox(field: &'static str, address: &str) -> Result<Mailbox, RenderError> {
    address
        .parse::<Mailbox>()
        .map_err(|e| RenderError::Address {
            field,
            address: address.to_string(),
            reason: e.to_string(),
        })
}

fn bracketed(id: &str) -> String {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    format!("<{id}>")
}

/// The longest line of a header RFC 5322 §2.1.1 allows, without its CRLF.
pub const MAX_HEADER_LINE: usize = 998;

/// The longest subject a mail is sent with, in characters; a longer one is shortened.
const MAX_SUBJECT_CHARS: usize = 200;

/// The longest Message-ID copied into `In-Reply-To` and `References` (RFC 5322 sets no
/// bound, but a Message-ID is an address-like token; servers cut lines, not ids).
const MAX_MESSAGE_ID: usize = 250;

/// A subject as sent: on one line (controls and runs of blanks as one space), and at most
/// [`MAX_SUBJECT_CHARS`] characters (a longer one ends in `...`); lettre folds it.
fn subject_line(subject: &str) -> String {
    let mut one = String::with_capacity(subject.len().min(4 * MAX_SUBJECT_CHARS));
    let mut blank = false;
    let mut chars = 0;
    for c in subject.chars() {
        if c.is_whitespace() || c.is_control() {
            blank = true;
            continue;
        }
        if chars >= MAX_SUBJECT_CHARS {
            break;
        }
        if blank && !one.is_empty() {
            one.push(' ');
            chars += 1;
        }
        blank = false;
        one.push(c);
        chars += 1;
    }
    if chars >= MAX_SUBJECT_CHARS {
        let keep: String = one.chars().take(MAX_SUBJECT_CHARS - 3).collect();
        return format!("{}...", keep.trim_end());
    }
    one
}

/// A Message-ID fit to be copied into `In-Reply-To` and `References`: printable ASCII
/// without blanks or angle brackets, at most [`MAX_MESSAGE_ID`] characters. An absurd one
/// (thousands of characters, blanks, controls) is left out: the reply still goes out.
fn usable_message_id(id: &str) -> Option<&str> {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    let fits = !id.is_empty()
        && id.len() <= MAX_MESSAGE_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>');
    fits.then_some(id)
}

/// The first header line of `bytes` longer than [`MAX_HEADER_LINE`], if any.
fn overlong_header_line(bytes: &[u8]) -> Option<usize> {
    let head_end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(bytes.len());
    bytes
        .get(..head_end)
        .unwrap_or_default()
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).len())
        .find(|&n| n > MAX_HEADER_LINE)
}

/// A multipart boundary for a mail: `dipjudge-` and the hex of a BLAKE2 hash of its
/// Message-ID (a boundary must not occur in the parts; base64 and quoted-printable text
/// never hold `--dipjudge-`).
fn boundary(message_id: &str) -> String {
    use blake2::Digest;
    let hash = blake2::Blake2s256::digest(message_id.as_bytes());
    let hex: String = hash.iter().take(12).map(|b| format!("{b:02x}")).collect();
    format!("dipjudge-{hex}")
}

/// Renders `mail` with `Date: date`: UTF-8 `text/plain` (lettre picks 7bit, quoted-printable
/// or base64), or `multipart/mixed` with that text first and the attachments after it;
/// `Auto-Submitted`, `X-Dipjudge: <version>`, `Message-ID` and, for replies, `In-Reply-To`
/// and `References`.
pub fn render(mail: &OutgoingMail, date: SystemTime) -> Result<RenderedMail, RenderError> {
    if mail.to.is_empty() {
        return Err(RenderError::NoRecipient(mail.message_id.clone()));
    }
    let from = mailbox("From", &mail.from)?;
    let to = mail
        .to
        .iter()
        .map(|to| mailbox("To", to))
        .collect::<Result<Vec<_>, _>>()?;
    // The SMTP envelope lettre would otherwise work out by reading the From and To headers
    // back (the transports build their own from `RenderedMail`).
    let envelope = Envelope::new(
        Some(from.email.clone()),
        to.iter().map(|m| m.email.clone()).collect(),
    )
    .map_err(|e| RenderError::Build {
        message_id: mail.message_id.clone(),
        reason: e.to_string(),
    })?;
    let mut builder = Message::builder()
        .from(from)
        .subject(subject_line(&mail.subject))
        .date(date)
        .message_id(Some(bracketed(&mail.message_id)))
        .envelope(envelope);
    for to in to {
        builder = builder.to(to);
    }
    if let Some(irt) = mail.in_reply_to.as_deref().and_then(usable_message_id) {
        builder = builder
            .in_reply_to(bracketed(irt))
            .references(bracketed(irt));
    }
    let body = text_body(&mail.body);
    let build_error = |e: lettre::error::Error| RenderError::Build {
        message_id: mail.message_id.clone(),
        reason: e.to_string(),
    };
    let mut message = if mail.attachments.is_empty() {
        // lettre's single-part body carries a Content-Transfer-Encoding; RFC 2045 §4 wants
        // MIME-Version beside it (lettre adds it to multipart mail only).
        builder
            .header(lettre::message::header::MIME_VERSION_1_0)
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .map_err(build_error)?
    } else {
        // The boundary comes from the Message-ID, so the same mail renders to the same
        // bytes.
        let mut parts = MultiPart::mixed()
            .boundary(boundary(&mail.message_id))
            .singlepart(SinglePart::plain(body));
        for a in &mail.attachments {
            let kind = ContentType::parse(&a.content_type).map_err(|e| RenderError::Build {
                message_id: mail.message_id.clone(),
                reason: format!("content type {:?}: {e}", a.content_type),
            })?;
            parts = parts.singlepart(
                lettre::message::Attachment::new(a.filename.clone()).body(a.bytes.clone(), kind),
            );
        }
        builder.multipart(parts).map_err(build_error)?
    };
    let headers = message.headers_mut();
    headers.insert_raw(HeaderValue::new(
        HeaderName::new_from_ascii_str("Auto-Submitted"),
        mail.auto_submitted.as_str().to_string(),
    ));
    headers.insert_raw(HeaderValue::new(
        HeaderName::new_from_ascii_str(JUDGE_HEADER),
        VERSION.to_string(),
    ));
    for (name, value) in &mail.extra_headers {
        let name = HeaderName::new_from_ascii(name.clone())
            .map_err(|_| RenderError::HeaderName(name.clone()))?;
        headers.insert_raw(HeaderValue::new(name, value.clone()));
    }
    let bytes = message.formatted();
    if let Some(n) = overlong_header_line(&bytes) {
        // Never sent: a server refuses it (the subject and ids are bounded above, so only an
        // extra header could do this).
        return Err(RenderError::Build {
            message_id: mail.message_id.clone(),
            reason: format!("a header line of {n} characters is over RFC 5322's {MAX_HEADER_LINE}"),
        });
    }
    Ok(RenderedMail {
        message_id: mail.message_id.clone(),
        envelope_from: Some(mail.from.clone()),
        recipients: mail.to.clone(),
        bytes,
    })
}

/// The text of a mail as lettre's `Body::new` makes it from the text with LF line ends: the
/// transfer encoding it would choose for that text (7bit, quoted-printable or base64, for a
/// server without SMTPUTF8), and the text with a CR put before every LF that has none.
/// lettre puts each CR in by inserting it into the string, which moves the rest of the text
/// once per line: a reply of a few megabytes (a mail of thousands of orders answered line by
/// line) took over a second. Here the CRs go in as the text is copied once.
/// `text_body_is_lettres_body` checks both halves against `Body::new`.
fn text_body(text: &str) -> Body {
    let lf = text.replace("\r\n", "\n");
    let encoding = lettre_encoding(&lf);
    let mut crlf = String::with_capacity(lf.len() + lf.len() / 16);
    for line in lf.split_inclusive('\n') {
        match line.strip_suffix('\n') {
            Some(text) => {
                crlf.push_str(text);
                if !crlf.ends_with('\r') {
                    crlf.push('\r');
                }
                crlf.push('\n');
            }
            None => crlf.push_str(line),
        }
    }
    match encoding {
        // What lettre keeps as it is: the text with CRLF line ends.
        ContentTransferEncoding::SevenBit => {
            Body::dangerous_pre_encoded(crlf.into_bytes(), ContentTransferEncoding::SevenBit)
        }
        // Quoted-printable and base64 take any text; lettre's CR pass finds none to add.
        other => match Body::new_with_encoding(crlf, other) {
            Ok(body) => body,
            Err(_) => Body::new(lf),
        },
    }
}

/// The transfer encoding lettre's `Body::new` chooses for `text`: email-encoding's own
/// choice (lettre's dependency, by lettre's maintainers) for a server without SMTPUTF8.
fn lettre_encoding(text: &str) -> ContentTransferEncoding {
    use email_encoding::body::Encoding;
    match Encoding::choose(text, false) {
        Encoding::SevenBit => ContentTransferEncoding::SevenBit,
        Encoding::EightBit => ContentTransferEncoding::EightBit,
        Encoding::QuotedPrintable => ContentTransferEncoding::QuotedPrintable,
        Encoding::Base64 => ContentTransferEncoding::Base64,
    }
}

/// Why one mail was not delivered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SendError {
    /// Worth retrying later: 4xx replies, connection and TLS trouble, time-outs.
    #[error("temporary failure sending mail {message_id:?}: {reason}")]
    Temporary {
        /// The mail's Message-ID.
        message_id: String,
        /// What went wrong.
        reason: String,
    },
    /// Retrying will not help: 5xx replies, a malformed address, a message the server refuses.
    #[error("permanent failure sending mail {message_id:?}: {reason}")]
    Permanent {
        /// The mail's Message-ID.
        message_id: String,
        /// What went wrong.
        reason: String,
    },
}

impl SendError {
    /// True for failures worth retrying.
    pub fn is_temporary(&self) -> bool {
        matches!(self, SendError::Temporary { .. })
    }
}

/// A way to deliver rendered mail. `Send`: the daemon delivers on a thread of its own.
pub trait Outbox: Send {
    /// Delivers a batch, reusing one connection where the transport has one. Returns one
    /// result per mail, in order; a failure of one mail does not stop the others.
    fn send_batch(&mut self, mails: &[RenderedMail]) -> Vec<Result<(), SendError>>;

    /// As [`Outbox::send_batch`], calling `accepted(i)` as soon as the server has taken
    /// mail `i` (before the next mail on that connection is sent), so the caller can record
    /// it at once: killed in the middle of a batch, only the mails in flight on the open
    /// connections are sent again. The default reports after the whole batch (a transport
    /// that has no better moment).
    fn send_batch_reporting(
        &mut self,
        mails: &[RenderedMail],
        accepted: &(dyn Fn(usize) + Sync),
    ) -> Vec<Result<(), SendError>> {
        let results = self.send_batch(mails);
        for (i, r) in results.iter().enumerate() {
            if r.is_ok() {
                accepted(i);
            }
        }
        results
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::envelope::Envelope;
    use crate::mail::guard::{Silence, silence_reason};
    use std::time::Duration;

    fn sample() -> OutgoingMail {
        OutgoingMail {
            from: "judge@example.test".into(),
            to: vec!["Anna <anna@example.test>".into()],
            subject: "Re: Orders — Spring 1901".into(),
            body: "OK F LON -> NTH\r\nÉté: A PAR -> BUR\n".into(),
            auto_submitted: AutoSubmitted::Replied,
            message_id: "reply-1@judge.example.test".into(),
            in_reply_to: Some("<orig-1@example.test>".into()),
            extra_headers: vec![("X-Dipjudge-Game".into(), "egame1".into())],
            attachments: Vec::new(),
        }
    }

    fn date() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_741_262_400)
    }

    #[test]
    fn render_writes_the_protective_headers() {
        let r = render(&sample(), date()).unwrap();
        let text = String::from_utf8(r.bytes.clone()).unwrap();
        assert!(text.contains("Auto-Submitted: auto-replied\r\n"), "{text}");
        assert!(text.contains(&format!("X-Dipjudge: {VERSION}\r\n")));
        assert!(text.contains("Message-ID: <reply-1@judge.example.test>\r\n"));
        assert!(text.contains("In-Reply-To: <orig-1@example.test>\r\n"));
        assert!(text.contains("Date: Thu, 06 Mar 2025 12:00:00 +0000\r\n"));
        assert!(text.contains("X-Dipjudge-Game: egame1\r\n"));
        assert!(text.contains("Content-Type: text/plain; charset=utf-8\r\n"));
        assert_eq!(r.recipients, vec!["Anna <anna@example.test>".to_string()]);
        // The same input renders to the same bytes.
        assert_eq!(render(&sample(), date()).unwrap().bytes, r.bytes);
    }

    /// With an attachment the mail is `multipart/mixed`: the text part reads exactly as the
    /// single-part mail's body, the attachment comes back byte for byte, and the same mail
    /// renders to the same bytes (the boundary comes from the Message-ID).
    #[test]
    fn an_attachment_makes_a_multipart_mail_with_the_text_first() {
        let plain = render(&sample(), date()).unwrap();
        let mut m = sample();
        let png: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
        m.attachments.push(Attachment {
            filename: "egame1-S1901M.png".into(),
            content_type: "image/png".into(),
            bytes: png.clone(),
        });
        let r = render(&m, date()).unwrap();
        assert_eq!(render(&m, date()).unwrap().bytes, r.bytes);
        let text = String::from_utf8_lossy(&r.bytes).to_string();
        assert!(text.contains("Content-Type: multipart/mixed;"), "{text}");
        let parsed = mail_parser::MessageParser::default()
            .parse(&r.bytes)
            .unwrap();
        let single = mail_parser::MessageParser::default()
            .parse(&plain.bytes)
            .unwrap();
        assert_eq!(parsed.body_text(0), single.body_text(0));
        let a = parsed.attachment(0).expect("the attachment");
        assert_eq!(a.contents(), png.as_slice());
        assert_eq!(
            mail_parser::MimeHeaders::attachment_name(a),
            Some("egame1-S1901M.png")
        );
        let env = Envelope::parse(&r.bytes).unwrap();
        assert_eq!(env.text, "OK F LON -> NTH\nÉté: A PAR -> BUR\n");
    }

    #[test]
    fn rendered_mail_parses_back_and_is_never_answered() {
        let r = render(&sample(), date()).unwrap();
        let env = Envelope::parse(&r.bytes).unwrap();
        assert_eq!(env.subject, "Re: Orders — Spring 1901");
        assert_eq!(env.text, "OK F LON -> NTH\nÉté: A PAR -> BUR\n");
        assert_eq!(
            env.message_id.as_deref(),
            Some("reply-1@judge.example.test")
        );
        assert!(matches!(silence_reason(&env), Some(Silence::OwnMail(_))));
    }

    /// Issue 25: a 100,000-character subject (with and without blanks, ASCII and not) and
    /// a 5,000-character Message-ID: every header line within RFC 5322's 998; the subject
    /// shortened, the absurd id left out of In-Reply-To and References; MIME-Version on a
    /// single-part mail as on a multipart one.
    #[test]
    fn headers_stay_within_the_rfcs_whatever_the_input() {
        let id = format!("{}@example.test", "i".repeat(5000));
        for subject in [
            "x".repeat(100_000),
            "word ".repeat(20_000),
            "été ".repeat(25_000),
            "é".repeat(100_000),
            format!("Re: {}\r\nBcc: evil@example.test", "y".repeat(50)),
        ] {
            for attachments in [false, true] {
                let mut m = sample();
                m.subject = format!("Re: {subject}");
                m.in_reply_to = Some(id.clone());
                if attachments {
                    m.attachments.push(Attachment {
                        filename: "g-S1901M.png".into(),
                        content_type: "image/png".into(),
                        bytes: vec![1, 2, 3],
                    });
                }
                let r = render(&m, date()).unwrap();
                let text = String::from_utf8_lossy(&r.bytes).to_string();
                let head = text.split("\r\n\r\n").next().unwrap();
                for line in head.split("\r\n") {
                    assert!(line.len() <= MAX_HEADER_LINE, "{} chars", line.len());
                }
                assert!(head.contains("MIME-Version: 1.0\r\n"), "{head}");
                assert!(!head.contains("In-Reply-To"), "{head}");
                assert!(!head.contains("\r\nBcc:"), "{head}");
                let env = Envelope::parse(&r.bytes).unwrap();
                assert!(
                    env.subject.chars().count() <= MAX_SUBJECT_CHARS,
                    "{}",
                    env.subject
                );
                assert!(env.subject.starts_with("Re: "), "{}", env.subject);
            }
        }
        // A sane id is kept; a short subject is untouched.
        let r = render(&sample(), date()).unwrap();
        let env = Envelope::parse(&r.bytes).unwrap();
        assert_eq!(env.subject, "Re: Orders — Spring 1901");
        let text = String::from_utf8_lossy(&r.bytes).to_string();
        assert!(text.contains("In-Reply-To: <orig-1@example.test>\r\n"));
        assert!(text.contains("MIME-Version: 1.0\r\n"));
        assert_eq!(usable_message_id("a b@x"), None);
        assert_eq!(usable_message_id("<ok@x>"), Some("ok@x"));
    }

    #[test]
    fn render_refuses_bad_input_with_a_sentence() {
        let mut m = sample();
        m.to = vec!["not an address".into()];
        let err = render(&m, date()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("To address \"not an address\" is not a valid"),
            "{err}"
        );
        m.to.clear();
        assert!(matches!(
            render(&m, date()),
            Err(RenderError::NoRecipient(_))
        ));
        let mut m = sample();
        m.extra_headers = vec![("Bad Name".into(), "x".into())];
        assert!(matches!(
            render(&m, date()),
            Err(RenderError::HeaderName(_))
        ));
        assert_eq!(AutoSubmitted::Generated.as_str(), "auto-generated");
    }

    /// The body `render` builds is lettre's `Body::new` of the text with LF line ends, byte
    /// for byte and with the same transfer encoding: at the encodings' edges (lines of 74 to
    /// 77 bytes, a third of the bytes outside printable ASCII), CRs alone or doubled, and
    /// random text.
    #[test]
    fn text_body_is_lettres_body() {
        use proptest::prelude::*;
        let same = |text: &str| {
            let ours = text_body(text);
            let theirs = Body::new(text.replace("\r\n", "\n"));
            assert_eq!(ours.encoding(), theirs.encoding(), "{text:?}");
            assert_eq!(ours.as_ref(), theirs.as_ref(), "{text:?}");
        };
        let mut cases: Vec<String> = vec![
            String::new(),
            "\n".into(),
            "\r".into(),
            "\r\n".into(),
            "\r\r\n".into(),
            "a\rb\n\nc\r\n".into(),
            "OK F LON -> NTH\r\nÉté: A PAR -> BUR\n".into(),
            "a\0b\n".into(),
            "📬📬📬 mostly not ascii\n".into(),
            "\u{7f}\u{7f}x\n".into(),
        ];
        for n in 73..=78 {
            let line = "x".repeat(n);
            cases.push(line.clone());
            cases.push(format!("{line}\n"));
            cases.push(format!("ab\n{line}\nab"));
            cases.push(format!("ab\r\n{line}\r\nab\r\n"));
        }
        for k in 0..=6 {
            cases.push(format!("{}{}", "é".repeat(k), "abcdef".repeat(2)));
        }
        for c in &cases {
            same(c);
        }
        let chars = prop::sample::select(vec![
            'a', 'b', ' ', '\t', '\n', '\r', '~', '=', 'é', '📬', '\u{0}',
        ]);
        let mut runner = proptest::test_runner::TestRunner::default();
        runner
            .run(&prop::collection::vec(chars, 0..400), |v| {
                same(&v.into_iter().collect::<String>());
                Ok(())
            })
            .unwrap();
        let long_lines = prop::collection::vec((70usize..82, any::<bool>()), 0..6);
        runner
            .run(&long_lines, |lines| {
                let text: String = lines
                    .into_iter()
                    .map(|(n, cr)| format!("{}{}\n", "y".repeat(n), if cr { "\r" } else { "" }))
                    .collect();
                same(&text);
                Ok(())
            })
            .unwrap();
    }
}
