//! The bounds on reading one mail (issue 36), and the mail as the MIME parser may safely see
//! it: how many multipart sections and parts, how deep its HTML nests. Bytes in, a verdict
//! out; no clock, no thread (the reader's watchdog is [`crate::mail::reader`]).
//!
//! mail-parser reads a mail in one loop with a stack of its own, but a nested message
//! (`message/rfc822` or `message/global`, and each entry of a `multipart/digest`) becomes a
//! nested value, copied and dropped recursively, and a nested message in base64 or
//! quoted-printable is decoded and parsed again inside: a mail of `message/rfc822` parts
//! nested 160,000 deep overflowed the stack while it was read, before anything could count
//! the attempt. The judge never reads the text of a nested message (a forwarded mail is an
//! attachment, not orders), so every content type that would make one is made inert before
//! the parser runs: its value becomes `x-dipjudge-inert/<subtype>`, and the part is kept as
//! bytes (a delivery report's returned message is still read for its Message-ID, headers
//! only). What is left is flat, and how many parts it can make is counted first: each
//! part starts at a boundary line, so the parts are at most one more than the times
//! `--<boundary>` occurs for the boundaries its multipart sections declare.
//!
//! Which header is a `Content-Type` is decided loosely (any line whose text before its
//! first colon is `content-type` once blanks are taken out, with the lines folded under
//! it): a superset of what the parser reads as one. Each is then read by the parser itself
//! on its own, so the types and boundaries found are exactly the parser's.

use std::borrow::Cow;
use std::ops::Range;

use mail_parser::{MessageParser, MimeHeaders};

pub use crate::bulletin::notices::TooBig;

/// The type a nested message's content type is given, so the parser keeps it as bytes.
pub const INERT_TYPE: &str = "x-dipjudge-inert";

/// The most multipart sections one mail may have (each is a level its parts may nest in).
pub const MAX_SECTIONS: usize = 100;

/// The most MIME parts one mail may have (a digest of a hundred mails has a few hundred).
pub const MAX_PARTS: usize = 1_000;

/// The deepest one mail's HTML may nest elements (quoted replies nest a few levels each; a
/// page of mail markup rarely passes 40).
pub const MAX_HTML_DEPTH: usize = 512;

/// The mail as the parser may see it: `raw` itself, or a copy with its nested messages made
/// inert; or what is over a bound.
pub fn prepare(raw: &[u8]) -> Result<Cow<'_, [u8]>, TooBig> {
    let headers = content_type_headers(raw)?;
    let mut inert: Vec<(Range<usize>, String)> = Vec::new();
    let mut boundaries: Vec<Vec<u8>> = Vec::new();
    for value in headers {
        let Some(v) = raw.get(value.clone()) else {
            continue;
        };
        let mut one = Vec::with_capacity(v.len() + 16);
        one.extend_from_slice(b"Content-Type:");
        one.extend_from_slice(v);
        one.extend_from_slice(b"\n\n");
        let parsed = MessageParser::default().parse_headers(&one);
        let Some(ct) = parsed.as_ref().and_then(|m| m.content_type()) else {
            continue;
        };
        let subtype = ct.subtype().unwrap_or_default();
        match ct.ctype() {
            "message" if matches!(subtype, "rfc822" | "global") => {
                inert.push((value, format!(" {INERT_TYPE}/{subtype}")));
            }
            "multipart" if subtype == "digest" => {
                inert.push((value, format!(" {INERT_TYPE}/digest")));
            }
            "multipart" => {
                if let Some(b) = ct.attribute("boundary").filter(|b| !b.is_empty()) {
                    boundaries.push(b.as_bytes().to_vec());
                }
                if boundaries.len() > MAX_SECTIONS {
                    return Err(TooBig::Sections {
                        limit: MAX_SECTIONS,
                    });
                }
            }
            _ => {}
        }
    }
    boundaries.sort();
    boundaries.dedup();
    // Each part starts at a boundary line (or is the first): count them, and stop at once
    // when there are too many.
    let mut parts = 1usize;
    for b in &boundaries {
        let mut delimiter = Vec::with_capacity(b.len() + 2);
        delimiter.extend_from_slice(b"--");
        delimiter.extend_from_slice(b);
        for _ in memchr::memmem::find_iter(raw, &delimiter) {
            parts += 1;
            if parts > MAX_PARTS {
                return Err(TooBig::Parts { limit: MAX_PARTS });
            }
        }
    }
    if inert.is_empty() {
        return Ok(Cow::Borrowed(raw));
    }
    let mut out = Vec::with_capacity(raw.len() + 32 * inert.len());
    let mut at = 0;
    for (range, value) in inert {
        out.extend_from_slice(raw.get(at..range.start).unwrap_or_default());
        out.extend_from_slice(value.as_bytes());
        at = range.end;
    }
    out.extend_from_slice(raw.get(at..).unwrap_or_default());
    Ok(Cow::Owned(out))
}

/// The value of every line that may be a `Content-Type` header, with the lines folded under
/// it: from after its colon to before the line end that ends it (its last `\r` kept). Over
/// [`MAX_PARTS`] of them is too many parts (every part has at most one that counts).
fn content_type_headers(raw: &[u8]) -> Result<Vec<Range<usize>>, TooBig> {
    let mut found = Vec::new();
    let mut start = 0;
    while start < raw.len() {
        let end = memchr::memchr(b'\n', raw.get(start..).unwrap_or_default())
            .map_or(raw.len(), |i| start + i);
        let line = raw.get(start..end).unwrap_or_default();
        let mut next = end + 1;
        if let Some(colon) = memchr::memchr(b':', line)
            && is_content_type_name(line.get(..colon).unwrap_or_default())
        {
            // The header goes on over every line that starts with a blank.
            let mut value_end = end;
            while value_end < raw.len() && matches!(raw.get(value_end + 1), Some(b' ' | b'\t')) {
                value_end = memchr::memchr(b'\n', raw.get(value_end + 1..).unwrap_or_default())
                    .map_or(raw.len(), |i| value_end + 1 + i);
            }
            found.push(start + colon + 1..value_end);
            if found.len() > MAX_PARTS {
                return Err(TooBig::Parts { limit: MAX_PARTS });
            }
            next = value_end + 1;
        }
        start = next;
    }
    Ok(found)
}

/// Whether the text before a colon names `Content-Type` as the parser reads names: letter
/// case and every blank in it ignored.
fn is_content_type_name(name: &[u8]) -> bool {
    const WANTED: &[u8] = b"content-type";
    let mut letters = name.iter().filter(|c| !c.is_ascii_whitespace());
    for w in WANTED {
        match letters.next() {
            Some(c) if c.to_ascii_lowercase() == *w => {}
            _ => return false,
        }
    }
    letters.next().is_none()
}

/// Elements that never hold others (HTML's void elements).
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input",
    "keygen", "link", "meta", "param", "source", "track", "wbr",
];

/// Elements the parser closes by themselves when a sibling opens (`<p>`, `<li>`, table
/// rows and cells) or that are the page's frame: a run of them does not nest.
const SELF_CLOSING: &[&str] = &[
    "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "tbody", "thead", "tfoot",
    "colgroup", "caption", "rb", "rt", "rtc", "rp", "html", "head", "body",
];

/// Elements whose content is text up to their end tag (tags in it are not elements).
const RAW_TEXT: &[&str] = &[
    "script",
    "style",
    "textarea",
    "title",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "plaintext",
];

/// What a tag does to the depth of the elements around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Nest {
    /// The start tag of an element that holds others.
    Opens,
    /// The end tag of one.
    Closes,
    /// Anything else: a void element, one the parser closes by itself, a comment.
    Neither,
}

/// Elements that start or end a block of text (a line of their own when converted): a
/// page is cut only before one of their tags, never inside a line.
const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "center",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
];

/// One tag as the depth count reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tag {
    /// Where it starts (its `<`).
    at: usize,
    /// What it does to the depth.
    nest: Nest,
    /// It starts or ends a block of text (see [`BLOCK`]).
    block: bool,
}

/// The tags of an HTML text, in order, as the depth count reads them. The text of a
/// raw-text element (`<script>`, `<style>`, ...) up to its end tag is skipped. One pass; no
/// tree is built.
struct Tags<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Iterator for Tags<'_> {
    type Item = Tag;

    fn next(&mut self) -> Option<Tag> {
        let bytes = self.bytes;
        loop {
            let lt = self.at + memchr::memchr(b'<', bytes.get(self.at..)?)?;
            let rest = bytes.get(lt + 1..).unwrap_or_default();
            let tag = |nest, block| Tag {
                at: lt,
                nest,
                block,
            };
            if rest.starts_with(b"!--") {
                self.at = memchr::memmem::find(rest, b"-->").map_or(bytes.len(), |e| lt + 4 + e);
                return Some(tag(Nest::Neither, false));
            }
            if matches!(rest.first(), Some(b'!' | b'?')) {
                self.at = memchr::memchr(b'>', rest).map_or(bytes.len(), |e| lt + 2 + e);
                return Some(tag(Nest::Neither, false));
            }
            let closing = rest.first() == Some(&b'/');
            let name_start = usize::from(closing);
            if !rest.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
                // A `<` that opens no tag is text.
                self.at = lt + 1;
                continue;
            }
            let name_len = rest
                .get(name_start..)
                .unwrap_or_default()
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b':' | b'_'))
                .count();
            let name = rest
                .get(name_start..name_start + name_len)
                .map(|n| String::from_utf8_lossy(n).to_ascii_lowercase())
                .unwrap_or_default();
            let end = tag_end(bytes, lt + 1 + name_start + name_len);
            self.at = end;
            let block = BLOCK.contains(&name.as_str());
            if VOID.contains(&name.as_str()) || SELF_CLOSING.contains(&name.as_str()) {
                return Some(tag(Nest::Neither, block));
            }
            if closing {
                return Some(tag(Nest::Closes, block));
            }
            if RAW_TEXT.contains(&name.as_str()) {
                // Its text runs to its end tag (or the end).
                let close = format!("</{name}");
                self.at = find_ignore_case(bytes, end, close.as_bytes()).unwrap_or(bytes.len());
            }
            return Some(tag(Nest::Opens, block));
        }
    }
}

/// How deep `html` nests its elements, counted by one pass over its tags (no tree is built):
/// an element that holds others counts one level from its start tag to its end tag (a start
/// tag never ended counts to the end, as the parser keeps it open); void elements and those
/// the parser closes by themselves count none. Stops counting once over `limit`, so a page
/// costs one pass whatever it holds. A close estimate of what the HTML parser builds, never
/// far below it for markup that nests.
pub fn html_depth(html: &str, limit: usize) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    for tag in (Tags {
        bytes: html.as_bytes(),
        at: 0,
    }) {
        match tag.nest {
            Nest::Opens => {
                depth += 1;
                deepest = deepest.max(depth);
                if deepest > limit {
                    break;
                }
            }
            Nest::Closes => depth = depth.saturating_sub(1),
            Nest::Neither => {}
        }
    }
    deepest
}

/// `html` cut into pieces of at most `most` bytes, each cut before the tag of a block (a
/// paragraph, a line break, a table, a list) outside every element that holds others, so
/// that each piece converts alone as it would in the whole, and no line is split: the HTML converter's memory grows
/// with what it is given (about 100 to 200 times the markup), not with the page. A stretch
/// with no such place in `most` bytes (one table of megabytes) ends the pieces: true is
/// returned with them when something was left out.
pub fn html_pieces(html: &str, most: usize) -> (Vec<&str>, bool) {
    let mut pieces = Vec::new();
    let mut from = 0usize;
    let mut depth = 0usize;
    // The last place a piece may end: a block's tag at depth 0 after `from`.
    let mut cut: Option<usize> = None;
    for Tag { at, nest, block } in (Tags {
        bytes: html.as_bytes(),
        at: 0,
    }) {
        while at - from > most {
            let Some(c) = cut.take().filter(|c| *c > from) else {
                pieces.extend(html.get(from..floor_boundary(html, from + most)));
                return (pieces, true);
            };
            pieces.extend(html.get(from..c));
            from = c;
        }
        if depth == 0 && block && at > from {
            cut = Some(at);
        }
        match nest {
            Nest::Opens => depth += 1,
            Nest::Closes => depth = depth.saturating_sub(1),
            Nest::Neither => {}
        }
    }
    while html.len() - from > most {
        let Some(c) = cut.take().filter(|c| *c > from) else {
            pieces.extend(html.get(from..floor_boundary(html, from + most)));
            return (pieces, true);
        };
        pieces.extend(html.get(from..c));
        from = c;
    }
    pieces.extend(html.get(from..).filter(|p| !p.is_empty()));
    (pieces, false)
}

/// The largest char boundary of `s` at or below `at`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut i = at.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where a tag whose name ends at `from` ends: after its `>`, skipping quoted attribute
/// values; the end of the text when it has none.
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut quote: Option<u8> = None;
    let mut i = from;
    while let Some(&c) = bytes.get(i) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'>') => return i + 1,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The first place at or after `from` where `needle` (ASCII) starts, letter case ignored.
fn find_ignore_case(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let hay = bytes.get(from..)?;
    let first = *needle.first()?;
    let mut at = 0;
    while let Some(off) = memchr::memchr(first, hay.get(at..).unwrap_or_default()) {
        let pos = at + off;
        if hay
            .get(pos..pos + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
        {
            return Some(from + pos);
        }
        at = pos + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(extra: &str) -> String {
        format!("From: a@example.test\r\nSubject: x\r\n{extra}")
    }

    #[test]
    fn a_plain_mail_is_read_as_it_is() {
        let raw = head("\r\nHELP\r\n");
        assert!(matches!(prepare(raw.as_bytes()), Ok(Cow::Borrowed(_))));
    }

    #[test]
    fn nested_messages_and_digests_are_made_inert_whatever_their_spelling() {
        for ct in [
            "Content-Type: message/rfc822",
            "content-type:MESSAGE/RFC822",
            "Content - Type : (a comment) message (another) / rfc822",
            "Content-Type:\r\n message/global",
            "  Content-Type: multipart/digest; boundary=d",
        ] {
            let raw = head(&format!("{ct}\r\n\r\nFrom: b@example.test\r\n\r\nx\r\n"));
            let prepared = prepare(raw.as_bytes()).unwrap();
            let text = String::from_utf8_lossy(&prepared);
            assert!(text.contains(INERT_TYPE), "{ct}: {text}");
            let parsed = MessageParser::default().parse(&*prepared).unwrap();
            assert!(
                !parsed
                    .parts
                    .iter()
                    .any(|p| matches!(p.body, mail_parser::PartType::Message(_))),
                "{ct}"
            );
        }
        // Other message types (a delivery report's status) stay as they are.
        let raw = head("Content-Type: message/delivery-status\r\n\r\nx\r\n");
        assert!(matches!(prepare(raw.as_bytes()), Ok(Cow::Borrowed(_))));
    }

    #[test]
    fn the_parts_are_counted_before_the_parser_makes_them() {
        let many = |n: usize| {
            head(&format!(
                "Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n{}--b--\r\n",
                "--b\r\n\r\nx\r\n".repeat(n)
            ))
        };
        assert!(prepare(many(MAX_PARTS - 2).as_bytes()).is_ok());
        assert_eq!(
            prepare(many(MAX_PARTS).as_bytes()),
            Err(TooBig::Parts { limit: MAX_PARTS })
        );
        let sections = head(
            &(0..=MAX_SECTIONS)
                .map(|i| format!("Content-Type: multipart/mixed; boundary=b{i}\r\n"))
                .collect::<String>(),
        );
        assert_eq!(
            prepare(sections.as_bytes()),
            Err(TooBig::Sections {
                limit: MAX_SECTIONS
            })
        );
    }

    #[test]
    fn html_depth_counts_elements_that_nest() {
        assert_eq!(html_depth("<div><div><p>x<p>y</div></div>", 100), 2);
        assert_eq!(html_depth("<p>a<p>b<p>c<br><br><li>d<li>e", 100), 0);
        assert_eq!(html_depth("<b><i>x", 100), 2);
        assert_eq!(
            html_depth(
                "<!-- <div><div> --><script>if (a<b) { '<div>' }</script>",
                100
            ),
            1
        );
        assert_eq!(html_depth("a < b and <3 <div title='>'>x</div>", 100), 1);
        let deep = "<div>".repeat(10_000);
        assert_eq!(html_depth(&deep, 50), 51, "it stops once over the limit");
    }

    #[test]
    fn html_is_cut_between_the_elements_of_the_page() {
        let page = "<html><body><p>a</p><div>b<div>c</div></div><p>d</p></body></html>";
        assert_eq!(html_pieces(page, 1000), (vec![page], false));
        let (pieces, cut) = html_pieces(page, 25);
        assert!(!cut);
        assert_eq!(pieces.concat(), page);
        assert!(pieces.iter().all(|p| p.len() <= 25), "{pieces:?}");
        // Never inside the div that holds another.
        assert!(pieces.contains(&"<div>b<div>c</div></div>"), "{pieces:?}");
        // Never inside a line: before a paragraph or a line break, not an inline element.
        let line = "<p>A Par - Bur</p><p>A <b>Mar</b> - <i>Spa</i></p><br>F Bre H";
        let (pieces, cut) = html_pieces(line, 30);
        assert!(!cut);
        assert_eq!(
            pieces,
            [
                "<p>A Par - Bur</p>",
                "<p>A <b>Mar</b> - <i>Spa</i>",
                "</p><br>F Bre H"
            ]
        );
        // One element longer than a piece: the pieces end there.
        let table = format!(
            "<p>x</p><table>{}</table><p>y</p>",
            "<tr><td>z</td></tr>".repeat(10)
        );
        let (pieces, cut) = html_pieces(&table, 50);
        assert!(cut);
        assert_eq!(pieces[0], "<p>x</p>");
        assert_eq!(pieces.concat().len(), "<p>x</p>".len() + 50);
    }
}
