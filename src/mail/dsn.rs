//! Delivery reports (RFC 3464 DSNs): which recipients a mail could not be delivered to for
//! good, and which mail it was.
//!
//! A delivery report is a `multipart/report; report-type=delivery-status` mail: a note for
//! people, a `message/delivery-status` part with one block of fields per recipient
//! (`Final-Recipient: rfc822; ann@example.org`, `Action: failed`, `Status: 5.1.1`,
//! `Diagnostic-Code: smtp; 550 5.1.1 ... user unknown`), and the returned mail or its headers
//! (`message/rfc822`, `text/rfc822-headers`), whose `Message-ID` names the mail that failed.
//! Only permanent failures are read (`Action: failed`, or a `5.x.x` status): a delay is not a
//! bounce. A bounce that is not a delivery report (free text) is not read at all.
//!
//! Pure: bytes in, values out; it never knows a game. The guard still silences every
//! report (it is never answered).

use mail_parser::{MessageParser, MimeHeaders};

/// The most recipient blocks read from one report (a report lists the recipients of one
/// mail; the judge sends to one recipient a mail).
const MAX_RECIPIENTS: usize = 50;

/// One recipient a mail could not be delivered to, for good.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeliveryFailure {
    /// The address, lower case (`Final-Recipient`, else `Original-Recipient`).
    pub recipient: String,
    /// `Status:` (`5.1.1`).
    pub status: String,
    /// `Diagnostic-Code:` without its type (`550 5.1.1 <ann@example.org>: user unknown`),
    /// if given.
    pub diagnostic: Option<String>,
}

impl DeliveryFailure {
    /// The failure in one line, as a person reads it.
    pub fn reason(&self) -> String {
        match &self.diagnostic {
            Some(d) => format!("{d} (delivery status {})", self.status),
            None => format!("delivery status {}", self.status),
        }
    }
}

/// What a delivery report says: the recipients that failed for good, and the Message-ID of
/// the mail that failed, when the report returns its headers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    pub failures: Vec<DeliveryFailure>,
    /// Without angle brackets.
    pub original_message_id: Option<String>,
}

/// Reads a raw mail as a delivery report: None when it is not one (no
/// `message/delivery-status` part), or it is too big to read ([`crate::mail::budget`]). The
/// returned message is read for its headers only: nested messages are made inert before
/// the parser sees the mail.
pub fn read_report(raw: &[u8]) -> Option<DeliveryReport> {
    let prepared = crate::mail::budget::prepare(raw).ok()?;
    let message = MessageParser::default().parse(&*prepared)?;
    let mut status = None;
    let mut original = None;
    for part in message.parts.iter() {
        let Some(ct) = part.content_type() else {
            continue;
        };
        let kind = (
            ct.ctype().to_ascii_lowercase(),
            ct.subtype()
                .map(str::to_ascii_lowercase)
                .unwrap_or_default(),
        );
        match (kind.0.as_str(), kind.1.as_str()) {
            ("message", "delivery-status") if status.is_none() => {
                status = Some(String::from_utf8_lossy(part.contents()).into_owned());
            }
            (t, "rfc822" | "global")
                if original.is_none()
                    && (t == "message" || t == crate::mail::budget::INERT_TYPE) =>
            {
                original = MessageParser::default()
                    .parse_headers(part.contents())
                    .and_then(|m| m.message_id().map(str::to_string));
            }
            ("text", "rfc822-headers") if original.is_none() => {
                original = header_value(&String::from_utf8_lossy(part.contents()), "message-id")
                    .map(|v| {
                        v.trim()
                            .trim_start_matches('<')
                            .trim_end_matches('>')
                            .to_string()
                    });
            }
            _ => {}
        }
    }
    let status = status?;
    Some(DeliveryReport {
        failures: failures(&status),
        original_message_id: original.filter(|id| !id.is_empty()),
    })
}

/// The permanent failures of a `message/delivery-status` body.
fn failures(body: &str) -> Vec<DeliveryFailure> {
    let mut out = Vec::new();
    // The first block holds the per-message fields; each later one a recipient's.
    for block in blocks(body).into_iter().skip(1).take(MAX_RECIPIENTS) {
        let field = |name: &str| {
            block
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.trim().to_string())
        };
        let Some(recipient) = field("final-recipient")
            .or_else(|| field("original-recipient"))
            .map(|v| address_of(&v))
            .filter(|a| a.contains('@'))
        else {
            continue;
        };
        let status = field("status").unwrap_or_default();
        let action = field("action").unwrap_or_default().to_ascii_lowercase();
        if action != "failed" && !status.starts_with('5') {
            continue;
        }
        out.push(DeliveryFailure {
            recipient,
            status,
            diagnostic: field("diagnostic-code")
                .map(|d| after_type(&d).to_string())
                .filter(|d| !d.is_empty()),
        });
    }
    out
}

/// The blocks of fields of a delivery-status body: lines unfolded, blocks split at blank
/// lines, field names lower case.
fn blocks(body: &str) -> Vec<Vec<(String, String)>> {
    let mut out: Vec<Vec<(String, String)>> = Vec::new();
    let mut block: Vec<(String, String)> = Vec::new();
    for line in body.lines() {
        if line.trim().is_empty() {
            if !block.is_empty() {
                out.push(std::mem::take(&mut block));
            }
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let Some((_, v)) = block.last_mut() {
                v.push(' ');
                v.push_str(line.trim());
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':') {
            block.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    if !block.is_empty() {
        out.push(block);
    }
    out
}

/// A field's value after its type (`rfc822; ann@x` → `ann@x`; `smtp; 550 ...` → `550 ...`).
fn after_type(v: &str) -> &str {
    v.split_once(';').map_or(v, |(_, rest)| rest).trim()
}

/// The address of a recipient field, lower case, without angle brackets.
fn address_of(v: &str) -> String {
    after_type(v)
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim()
        .to_ascii_lowercase()
}

/// The value of header `name` (lower case) in a header block, unfolded.
fn header_value(headers: &str, name: &str) -> Option<String> {
    blocks(headers)
        .into_iter()
        .next()?
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report as Postfix writes it, for a mail the judge sent (`dip.42@example.test`).
    const POSTFIX: &str = "From: MAILER-DAEMON@mail.example.test (Mail Delivery System)\r\n\
To: judge@example.test\r\n\
Subject: Undelivered Mail Returned to Sender\r\n\
Auto-Submitted: auto-replied\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/report; report-type=delivery-status; boundary=\"B1\"\r\n\
\r\n\
--B1\r\n\
Content-Type: text/plain; charset=us-ascii\r\n\
\r\n\
I'm sorry to have to inform you that your message could not be delivered.\r\n\
\r\n\
--B1\r\n\
Content-Type: message/delivery-status\r\n\
\r\n\
Reporting-MTA: dns; mail.example.test\r\n\
Arrival-Date: Mon,  5 Jan 2026 12:00:00 +0000 (UTC)\r\n\
\r\n\
Final-Recipient: rfc822; Gone@Elsewhere.example\r\n\
Original-Recipient: rfc822;gone@elsewhere.example\r\n\
Action: failed\r\n\
Status: 5.1.1\r\n\
Diagnostic-Code: smtp; 550 5.1.1 <gone@elsewhere.example>: Recipient address\r\n\
\x20   rejected: User unknown\r\n\
\r\n\
Final-Recipient: rfc822; slow@elsewhere.example\r\n\
Action: delayed\r\n\
Status: 4.4.1\r\n\
\r\n\
--B1\r\n\
Content-Type: text/rfc822-headers\r\n\
\r\n\
From: judge@example.test\r\n\
To: gone@elsewhere.example\r\n\
Message-ID: <dip.42@example.test>\r\n\
Subject: DIP:alpha - S1901M Results\r\n\
\r\n\
--B1--\r\n";

    #[test]
    fn a_postfix_report_names_the_failed_recipient_and_the_mail() {
        let r = read_report(POSTFIX.as_bytes()).expect("a report");
        assert_eq!(
            r.original_message_id.as_deref(),
            Some("dip.42@example.test")
        );
        assert_eq!(
            r.failures,
            vec![DeliveryFailure {
                recipient: "gone@elsewhere.example".into(),
                status: "5.1.1".into(),
                diagnostic: Some(
                    "550 5.1.1 <gone@elsewhere.example>: Recipient address rejected: User unknown"
                        .into()
                ),
            }],
            "the delayed recipient is no failure"
        );
    }

    #[test]
    fn a_returned_message_names_the_mail_too() {
        let raw = POSTFIX.replace(
            "Content-Type: text/rfc822-headers\r\n\r\n",
            "Content-Type: message/rfc822\r\n\r\n",
        );
        let r = read_report(raw.as_bytes()).expect("a report");
        assert_eq!(
            r.original_message_id.as_deref(),
            Some("dip.42@example.test")
        );
        assert_eq!(r.failures.len(), 1);
    }

    #[test]
    fn a_mail_that_is_no_report_reads_as_none() {
        let plain = "From: ann@example.test\r\nSubject: hi\r\n\r\nFinal-Recipient: rfc822; x@y\r\nAction: failed\r\n";
        assert_eq!(read_report(plain.as_bytes()), None);
        assert_eq!(read_report(b""), None);
    }

    #[test]
    fn a_report_without_recipients_or_headers_reads_empty() {
        let raw = "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; x\r\n\r\nAction: failed\r\nStatus: 5.0.0\r\n\r\n--b--\r\n";
        let r = read_report(raw.as_bytes()).expect("a report");
        assert_eq!(r, DeliveryReport::default());
    }
}
