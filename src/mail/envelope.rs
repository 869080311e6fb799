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
    /// The text: decoded, LF line endings, at most [`ParseLimits::max_text_bytes`].
    pub text: String,
    /// Headers for loop and bounce protection.
    pub loop_headers: LoopHeaders,
    /// Set when the message or its text was cut to the limits.
    pub size_capped: bool,
}

impl Envelope {
    /// Parses raw RFC 5322 bytes with the default limits.
    pub fn parse(raw: &[u8]) -> Result<Envelope, EnvelopeError> {
        Envelope::parse_with(raw, ParseLimits::default())
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
        let message = MessageParser::default()
            .parse(raw)
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
        // Each piece ends in exactly one LF (transports add or drop trailing blank lines);
        // pieces are separated by one blank line.
        let mut push = |piece: &str| {
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
        let mut found_body = false;
        for part in message.text_bodies() {
            match &part.body {
                PartType::Text(t) => {
                    push(t);
                    found_body = true;
                }
                PartType::Html(h) => {
                    push(&html_to_text(h));
                    found_body = true;
                }
                _ => {}
            }
        }
        if !found_body {
            for part in message.html_bodies() {
                if let PartType::Html(h) = &part.body {
                    push(&html_to_text(h));
                }
            }
        }
        for part in message.attachments() {
            let is_plain = part
                .content_type()
                .is_none_or(|ct| is_plain_text(ct.ctype(), ct.subtype()));
            if let (true, PartType::Text(t)) = (is_plain, &part.body) {
                push(t);
            }
        }
        if text.len() > limits.max_text_bytes {
            let mut cut = limits.max_text_bytes;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            size_capped = true;
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

        Ok(Envelope {
            message_id: message
                .message_id()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty()),
            from,
            from_name,
            reply_to,
            subject: message.subject().unwrap_or_default().trim().to_string(),
            date: message.date().map(|d| d.to_timestamp()),
            date_header: raw_header("Date"),
            text,
            loop_headers,
            size_capped,
        })
    }

    /// The key the judge deduplicates on: the Message-ID when there is one, otherwise
    /// `fallback:` and an FNV-1a 64 hash of From, the Date header as written, and the text.
    /// Stable across runs and machines.
    pub fn dedupe_key(&self) -> String {
        match &self.message_id {
            Some(id) => id.clone(),
            None => {
                let mut h = Fnv1a64::new();
                h.write(self.from.as_bytes());
                h.write(&[0]);
                h.write(self.date_header.as_deref().unwrap_or_default().as_bytes());
                h.write(&[0]);
                h.write(self.text.as_bytes());
                format!("fallback:{:016x}", h.finish())
            }
        }
    }

    /// The address a reply goes to: `Reply-To` when given, else `From`.
    pub fn reply_address(&self) -> &str {
        self.reply_to.as_deref().unwrap_or(&self.from)
    }
}

fn is_plain_text(ctype: &str, subtype: Option<&str>) -> bool {
    ctype.eq_ignore_ascii_case("text") && subtype.is_none_or(|s| s.eq_ignore_ascii_case("plain"))
}

/// Header values as written may be folded over lines: join them with single spaces.
fn unfold(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// CRLF and lone CR become LF.
pub fn normalise_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// FNV-1a, 64 bits: a small stable hash (the same value on every platform and release).
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a64(u64);

impl Fnv1a64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// A hasher in its initial state.
    pub fn new() -> Self {
        Fnv1a64(Self::OFFSET)
    }

    /// Feeds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// The hash of everything written so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a64 {
    fn default() -> Self {
        Self::new()
    }
}

/// Turns HTML into plain text: tags stripped, `<br>`, `<p>`, `<div>`, `<li>`, `<tr>` and
/// headings become line breaks, `<script>`/`<style>`/`<head>` are dropped, entities decoded,
/// runs of blanks collapsed. Simple on purpose: players' orders are short lines of text.
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut chars = html.chars().peekable();
    let mut skip_until: Option<&'static str> = None;
    let mut pending_space = false;
    while let Some(c) = chars.next() {
        if c == '<' {
            let mut tag = String::new();
            for t in chars.by_ref() {
                if t == '>' {
                    break;
                }
                tag.push(t);
            }
            let lower = tag.trim().to_ascii_lowercase();
            let name: String = lower
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '/' || *ch == '!')
                .collect();
            if let Some(end) = skip_until {
                if name == end {
                    skip_until = None;
                }
                continue;
            }
            match name.as_str() {
                "script" => skip_until = Some("/script"),
                "style" => skip_until = Some("/style"),
                "head" => skip_until = Some("/head"),
                "br" | "br/" => {
                    out.push('\n');
                    pending_space = false;
                }
                "p" | "/p" | "div" | "/div" | "li" | "tr" | "/tr" | "/li" | "h1" | "h2" | "h3"
                | "h4" | "h5" | "h6" | "/h1" | "/h2" | "/h3" | "/h4" | "/h5" | "/h6"
                | "blockquote" | "/blockquote" | "pre" | "/pre" | "hr" | "table" | "/table" => {
                    if !out.is_empty() && !out.ends_with('\n') {
                        out.push('\n');
                    }
                    pending_space = false;
                }
                "td" | "th" => pending_space = true,
                _ => {}
            }
            continue;
        }
        if skip_until.is_some() {
            continue;
        }
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space && !out.is_empty() && !out.ends_with('\n') {
            out.push(' ');
        }
        pending_space = false;
        if c == '&' {
            let mut entity = String::new();
            while let Some(&n) = chars.peek() {
                if n == ';' || entity.len() > 10 || !(n.is_ascii_alphanumeric() || n == '#') {
                    break;
                }
                entity.push(n);
                chars.next();
            }
            match (chars.peek() == Some(&';'), decode_entity(&entity)) {
                (true, Some(d)) => {
                    chars.next();
                    out.push(d);
                }
                _ => {
                    out.push('&');
                    out.push_str(&entity);
                }
            }
            continue;
        }
        out.push(c);
    }
    // Trim each line, and keep at most one blank line in a row.
    let mut text = String::with_capacity(out.len());
    let mut blank = 0;
    for line in out.lines() {
        let line = line.trim_matches(|c: char| c == ' ' || c == '\u{a0}' || c == '\t');
        if line.is_empty() {
            blank += 1;
            if blank > 1 || text.is_empty() {
                continue;
            }
        } else {
            blank = 0;
        }
        text.push_str(line);
        text.push('\n');
    }
    while text.ends_with("\n\n") {
        text.pop();
    }
    text
}

fn decode_entity(entity: &str) -> Option<char> {
    if let Some(num) = entity.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code);
    }
    Some(match entity {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "laquo" => '«',
        "raquo" => '»',
        "eacute" => 'é',
        "egrave" => 'è',
        "auml" => 'ä',
        "ouml" => 'ö',
        "uuml" => 'ü',
        "szlig" => 'ß',
        "copy" => '©',
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
