//! Inbound MIME to [`Envelope`]: sender, subject, date, the plain text a player wrote, and the
//! headers loop protection needs.
//!
//! Parsing uses `mail-parser`; this module decides what counts as the text: `text/plain`
//! bodies, HTML turned into text when there is no plain part, and `text/plain` attachments
//! (they may hold orders) appended. Charsets and transfer encodings are decoded, line endings
//! become LF, and the text is capped in size. It reads no clock and never decides whether to
//! answer (that is [`crate::mail::guard`]).

use mail_parser::{MessageParser, MimeHeaders, PartType};

/// The default cap on the text kept from one message: 256 KiB.
pub const DEFAULT_MAX_TEXT_BYTES: usize = 256 * 1024;
/// The most HTML converted at once: the converter builds a document of about 100 to 200
/// times the markup (2 MiB of it took 220 to 350 MB), so a longer page is converted in
/// pieces cut between its top-level elements (`mail::budget::html_pieces`).
pub const HTML_PIECE_BYTES: usize = 128 * 1024;

/// The default cap on the raw message handed to the MIME parser: 32 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

/// Limits applied while parsing one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseLimits {
    /// Bytes of text kept; the rest is dropped and [`Envelope::size_capped`] is set.
    pub max_text_bytes: usize,
    /// Bytes of raw message parsed; the rest is dropped and [`Envelope::size_capped`] is set.
    pub max_message_bytes: usize,
}

impl Default for ParseLimits {
    fn default() -> Self {
        ParseLimits {
            max_text_bytes: DEFAULT_MAX_TEXT_BYTES,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        }
    }
}

/// A message that cannot be turned into an [`Envelope`] at all.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EnvelopeError {
    /// The bytes are not a mail message (empty, or no header block).
    #[error("the message ({size} bytes) could not be parsed as RFC 5322 mail")]
    Unparsable {
        /// Size of the input.
        size: usize,
    },
    /// There is no usable address in `From:`, so nobody could be answered.
    #[error("the message has no usable From address (From: {from:?})")]
    NoFrom {
        /// The raw `From:` header, if there was one.
        from: Option<String>,
    },
    /// The message is over a bound on reading one mail ([`crate::mail::budget`]): it is
    /// not read (its headers are, to answer it).
    #[error("the message is too big to read: {0}")]
    TooBig(#[from] crate::mail::budget::TooBig),
}

/// The headers [`crate::mail::guard`] reads to decide whether a message may be answered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoopHeaders {
    /// `Auto-Submitted:` (RFC 3834), trimmed.
    pub auto_submitted: Option<String>,
    /// `Precedence:`, trimmed.
    pub precedence: Option<String>,
    /// `List-Id:`, trimmed.
    pub list_id: Option<String>,
    /// The judge's own `X-Dipjudge:` header, trimmed.
    pub x_dipjudge: Option<String>,
    /// `Return-Path:` as delivered; `Some("")` is the null sender `<>` of a bounce.
    pub return_path: Option<String>,
    /// `X-Autoreply:` / `X-Autorespond:` (vacation programs that skip RFC 3834).
    pub x_autoreply: Option<String>,
    /// The top-level content type, lower case (`multipart/report` is a delivery report).
    pub content_type: String,
}

/// One inbound message, reduced to what the judge reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    /// `Message-ID:` without angle brackets; `None` when missing (see [`Envelope::dedupe_key`]).
    pub message_id: Option<String>,
    /// The first `From:` address, lower case.
    pub from: String,
    /// The display name in `From:`, if any.
    pub from_name: Option<String>,
    /// The first `Reply-To:` address, lower case, if any.
    pub reply_to: Option<String>,
    /// `Subject:` decoded; empty when missing.
    pub subject: String,
    /// `Date:` as seconds since the Unix epoch (UTC), when it parses.
    pub date: Option<i64>,
    /// `Date:` exactly as written (trimmed), for the fallback dedupe key.
    pub date_header: Option<String>,
    /// The text: decoded, LF line endings, at most [`ParseLimits::max_text_bytes`], cut
    /// at the end of a line (see [`Envelope::first_unread_line`]).
    pub text: String,
    /// Headers for loop and bounce protection.
    pub loop_headers: LoopHeaders,
    /// Set when the message or its text was cut to the limits.
    pub size_capped: bool,
    /// For a mail without a Message-ID, a hash of the whole message as its sender wrote it
    /// (see [`content_hash`]): its key. None when it has a Message-ID (it is not needed).
    pub content_hash: Option<u64>,
}

/// The most bytes of a message over the size limit that are read: its header block, up to
/// this.
pub const HEADER_BYTES: usize = 64 * 1024;

/// The header block of a message's first bytes: up to and with the first empty line.
pub fn header_block(bytes: &[u8]) -> &[u8] {
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        if c == b'\n' {
            let rest = bytes.get(i + 1..).unwrap_or_default();
            if rest.starts_with(b"\n") {
                return bytes.get(..i + 2).unwrap_or(bytes);
            }
            if rest.starts_with(b"\r\n") {
                return bytes.get(..i + 3).unwrap_or(bytes);
            }
        }
        i += 1;
    }
    bytes
}

impl Envelope {
    /// Parses raw RFC 5322 bytes with the default limits.
    pub fn parse(raw: &[u8]) -> Result<Envelope, EnvelopeError> {
        Envelope::parse_with(raw, ParseLimits::default())
    }

    /// Reads only the header block of `raw` (its first 64 KiB at most): the sender, the
    /// subject, the ids. What answers a mail that is not read whole.
    pub fn parse_headers(raw: &[u8], limits: ParseLimits) -> Result<Envelope, EnvelopeError> {
        let head = header_block(raw);
        let head = head.get(..HEADER_BYTES).unwrap_or(head);
        Envelope::parse_with(head, limits)
    }

    /// Parses raw RFC 5322 bytes with the given limits.
    pub fn parse_with(raw: &[u8], limits: ParseLimits) -> Result<Envelope, EnvelopeError> {
        let mut size_capped = false;
        let raw = match raw.get(..limits.max_message_bytes) {
            Some(head) if head.len() < raw.len() => {
                size_capped = true;
                head
            }
            _ => raw,
        };
        // Nested messages made inert, the parts counted (`budget`): what the parser builds
        // from this is flat and bounded.
        let prepared = crate::mail::budget::prepare(raw)?;
        let message = MessageParser::default()
            .parse(&*prepared)
            .filter(|m| !m.headers().is_empty())
            .ok_or(EnvelopeError::Unparsable { size: raw.len() })?;

        let raw_header = |name: &str| -> Option<String> {
            message
                .headers_raw()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| unfold(v))
        };

        let first_addr = |a: Option<&mail_parser::Address<'_>>| {
            a.and_then(|a| {
                a.iter()
                    .find_map(|addr| addr.address().map(|s| (s, addr.name())))
            })
            .map(|(s, n)| (s.trim().to_ascii_lowercase(), n.map(str::to_string)))
            .filter(|(s, _)| s.contains('@') || !s.is_empty())
        };
        let (from, from_name) = first_addr(message.from())
            .filter(|(s, _)| !s.is_empty())
            .ok_or_else(|| EnvelopeError::NoFrom {
                from: raw_header("From"),
            })?;
        let reply_to = first_addr(message.reply_to()).map(|(s, _)| s);

        let mut text = String::new();
        let max_text = limits.max_text_bytes;
        // Only what the cap may keep is copied: a piece is taken up to twice the room left
        // (its CRLFs may halve as they become LFs) and one line more, so a mail of tens of
        // megabytes costs its raw bytes and not copies of them.
        let mut sliced = false;
        let room = |text: &String| max_text.saturating_sub(text.len()).saturating_mul(2) + 2;
        // Each piece ends in exactly one LF (transports add or drop trailing blank lines);
        // pieces are separated by one blank line.
        let push = |text: &mut String, piece: &str, sliced: &mut bool| {
            if text.len() > max_text {
                *sliced |= !piece.trim().is_empty();
                return;
            }
            let piece = match piece.get(..floor_char_boundary(piece, room(text))) {
                Some(head) if head.len() < piece.len() => {
                    *sliced = true;
                    head
                }
                _ => piece,
            };
            let piece = normalise_newlines(piece);
            let piece = piece.trim_end();
            if piece.trim_start().is_empty() {
                return;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(piece);
            text.push('\n');
        };
        // HTML is converted only up to a bound: a page of markup holds far less text than
        // its bytes (Outlook's about a tenth), and the converter builds the whole document.
        // Its nesting is bounded first: the converter's time grows with the depth.
        let html_bound = max_text.saturating_mul(8).max(1 << 20);
        let html = |text: &mut String, h: &str, sliced: &mut bool| {
            let head = h.get(..floor_char_boundary(h, html_bound)).unwrap_or(h);
            *sliced |= head.len() < h.len();
            let limit = crate::mail::budget::MAX_HTML_DEPTH;
            if crate::mail::budget::html_depth(head, limit) > limit {
                return Err(EnvelopeError::TooBig(
                    crate::mail::budget::TooBig::HtmlDepth { limit },
                ));
            }
            // Converted a piece at a time (the converter's memory grows with what it is
            // given), and no further than the text the cap may keep.
            let (pieces, cut) = crate::mail::budget::html_pieces(head, HTML_PIECE_BYTES);
            *sliced |= cut;
            let mut converted = String::new();
            for piece in &pieces {
                if converted.len() > room(text) {
                    *sliced = true;
                    break;
                }
                converted.push_str(&html_to_text(piece));
            }
            push(text, &converted, sliced);
            Ok(())
        };
        let mut found_body = false;
        for part in message.text_bodies() {
            match &part.body {
                PartType::Text(t) => {
                    push(&mut text, t, &mut sliced);
                    found_body = true;
                }
                PartType::Html(h) => {
                    html(&mut text, h, &mut sliced)?;
                    found_body = true;
                }
                _ => {}
            }
        }
        if !found_body {
            for part in message.html_bodies() {
                if let PartType::Html(h) = &part.body {
                    html(&mut text, h, &mut sliced)?;
                }
            }
        }
        for part in message.attachments() {
            let is_plain = part
                .content_type()
                .is_none_or(|ct| is_plain_text(ct.ctype(), ct.subtype()));
            if let (true, PartType::Text(t)) = (is_plain, &part.body) {
                push(&mut text, t, &mut sliced);
            }
        }
        if text.len() > max_text {
            // Cut at a line's end: a line is read whole or not at all (a cut order would
            // run as another order: `A Par S F Bre - Pic` as `A Par S F Bre`).
            let cut = text
                .as_bytes()
                .get(..max_text)
                .and_then(|head| head.iter().rposition(|&b| b == b'\n'))
                .map_or(0, |i| i + 1);
            text.truncate(cut);
            size_capped = true;
        } else if sliced || size_capped {
            // Text was left out (the raw message, a piece or the HTML was cut) though what
            // was kept fits: its last line may be a cut one, so it is not read.
            size_capped = true;
            let keep = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
            text.truncate(keep);
        }

        let content_type = message
            .root_part()
            .content_type()
            .map(|ct| match ct.subtype() {
                Some(sub) => format!("{}/{}", ct.ctype(), sub),
                None => ct.ctype().to_string(),
            })
            .unwrap_or_else(|| "text/plain".to_string())
            .to_ascii_lowercase();
        let return_path = raw_header("Return-Path").map(|v| {
            v.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .trim()
                .to_ascii_lowercase()
        });
        let loop_headers = LoopHeaders {
            auto_submitted: raw_header("Auto-Submitted"),
            precedence: raw_header("Precedence"),
            list_id: raw_header("List-Id"),
            x_dipjudge: raw_header("X-Dipjudge"),
            return_path,
            x_autoreply: raw_header("X-Autoreply").or_else(|| raw_header("X-Autorespond")),
            content_type,
        };

        let message_id = message
            .message_id()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        let content_hash = message_id.is_none().then(|| content_hash(raw));
        Ok(Envelope {
            message_id,
            from,
            from_name,
            reply_to,
            subject: message.subject().unwrap_or_default().trim().to_string(),
            date: message.date().map(|d| d.to_timestamp()),
            date_header: raw_header("Date"),
            text,
            loop_headers,
            size_capped,
            content_hash,
        })
    }

    /// The key the judge deduplicates on. A mail is the same mail when its sender, its
    /// Message-ID and what the judge reads of it (subject and text) are the same:
    /// `<message-id> from <sender> #<hash>`, so a mail that reuses a Message-ID with other
    /// content (a careless client, or someone who sent a mail under another's ID first) is
    /// a new mail. Without a Message-ID: `fallback:` and [`Envelope::content_hash`], a hash
    /// of the whole message. Stable across runs, machines and transports.
    pub fn dedupe_key(&self) -> String {
        match &self.message_id {
            Some(id) => {
                let h = stable_hash(&[self.subject.as_bytes(), self.text.as_bytes()]);
                format!("<{id}> from {} #{h:016x}", self.from)
            }
            None => format!("fallback:{:016x}", self.content_hash.unwrap_or_default()),
        }
    }

    /// When the text was cut ([`Envelope::size_capped`]): the number of the first line of
    /// the text that was not read (the lines before it were read whole).
    pub fn first_unread_line(&self) -> Option<usize> {
        self.size_capped.then(|| first_unread_line(&self.text))
    }

    /// The address a reply goes to: `Reply-To` when given, else `From`.
    pub fn reply_address(&self) -> &str {
        self.reply_to.as_deref().unwrap_or(&self.from)
    }
}

/// The largest char boundary of `s` at or below `at`.
fn floor_char_boundary(s: &str, at: usize) -> usize {
    if at >= s.len() {
        return s.len();
    }
    let mut i = at;
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The number of the line after the last whole line of a text cut at a line's end.
pub fn first_unread_line(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count() + 1
}

fn is_plain_text(ctype: &str, subtype: Option<&str>) -> bool {
    ctype.eq_ignore_ascii_case("text") && subtype.is_none_or(|s| s.eq_ignore_ascii_case("plain"))
}

/// Header values as written may be folded over lines: join them with single spaces.
fn unfold(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Header fields a mail collects on its way (trace fields, RFC 5321 §4.4, and what
/// delivery agents and filters add), left out of [`content_hash`]: the same mail fetched
/// from another server, or delivered again, hashes the same.
const TRACE_FIELDS: &[&str] = &[
    "received",
    "return-path",
    "delivered-to",
    "x-original-to",
    "authentication-results",
    "arc-seal",
    "arc-message-signature",
    "arc-authentication-results",
    "received-spf",
    "dkim-signature",
    "x-spam-status",
    "x-spam-score",
    "x-spam-level",
    "x-spam-flag",
    "x-spam-checker-version",
    "x-virus-scanned",
];

/// A hash of a whole message as its sender wrote it: every header field but the trace
/// fields, unfolded, and the body, with line endings as LF (a Maildir file and the same
/// mail over IMAP hash the same). Two different mails without a Message-ID (another
/// subject, other orders, another date) hash differently. The body is hashed as it is
/// read, never copied (a mail may be tens of megabytes). BLAKE2s, the first eight bytes.
pub fn content_hash(raw: &[u8]) -> u64 {
    use blake2::Digest;
    // The header block ends at the first empty line (LF LF, CRLF CRLF, or mixed).
    let mut end = raw.len();
    let mut body_start = raw.len();
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        if c == b'\n' {
            let rest = raw.get(i + 1..).unwrap_or_default();
            let blank = if rest.starts_with(b"\n") {
                Some(1)
            } else if rest.starts_with(b"\r\n") {
                Some(2)
            } else {
                None
            };
            if let Some(n) = blank {
                end = i;
                body_start = i + 1 + n;
                break;
            }
        }
        i += 1;
    }
    let head = raw.get(..end).unwrap_or_default();
    let body = raw.get(body_start..).unwrap_or_default();
    // Header fields, each unfolded onto one line.
    let mut fields: Vec<Vec<u8>> = Vec::new();
    for line in head.split(|&c| c == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match (line.first(), fields.last_mut()) {
            (Some(b' ' | b'\t'), Some(last)) => {
                last.push(b' ');
                last.extend_from_slice(line.trim_ascii());
            }
            _ => fields.push(line.to_vec()),
        }
    }
    let mut h = blake2::Blake2s256::new();
    for f in &fields {
        let name = f.split(|&c| c == b':').next().unwrap_or_default();
        let name = String::from_utf8_lossy(name.trim_ascii()).to_ascii_lowercase();
        if TRACE_FIELDS.contains(&name.as_str()) {
            continue;
        }
        h.update((f.len() as u64).to_le_bytes());
        h.update(f);
    }
    // The body, its line ends as LF and its trailing blanks left out, in pieces.
    let body = body.trim_ascii_end();
    let mut piece = Vec::with_capacity(8192);
    let mut k = 0;
    while let Some(&c) = body.get(k) {
        if c == b'\r' {
            piece.push(b'\n');
            if body.get(k + 1) == Some(&b'\n') {
                k += 1;
            }
        } else {
            piece.push(c);
        }
        k += 1;
        if piece.len() >= 8192 {
            h.update(&piece);
            piece.clear();
        }
    }
    h.update(&piece);
    let out = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(out.get(..8).unwrap_or(&[0; 8]));
    u64::from_be_bytes(first)
}

/// CRLF and lone CR become LF.
pub fn normalise_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// A stable 64-bit hash of byte strings (BLAKE2s, the first eight bytes): the same value on
/// every platform and release. The parts are length-prefixed, so `["ab", "c"]` and
/// `["a", "bc"]` differ.
pub fn stable_hash(parts: &[&[u8]]) -> u64 {
    use blake2::Digest;
    let mut h = blake2::Blake2s256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    let out = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(out.get(..8).unwrap_or(&[0; 8]));
    u64::from_be_bytes(first)
}

/// Turns HTML into plain text with `html2text`: block elements (`<p>`, `<div>`, `<br>`,
/// list items, table rows) become lines, a table row's cells one line with spaces between,
/// quoted blocks `> ` lines, entities decoded, scripts and styles dropped; blank lines go
/// (as they did before). List bullets are taken off (players write their orders as lists).
/// No line is ever wrapped.
pub fn html_to_text(html: &str) -> String {
    let text = html2text::config::plain_no_decorate()
        .no_table_borders()
        .string_from_read(html.as_bytes(), usize::MAX >> 2)
        .unwrap_or_default();
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = line.trim_end();
        let line = line.strip_prefix("* ").unwrap_or(line);
        // Paragraphs are lines: the blank line html2text puts between blocks goes.
        if !line.trim().is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests;
