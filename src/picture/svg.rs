//! Writing SVG text: elements with numbers in one fixed form and text escaped for XML, so
//! that the same drawing always gives the same bytes.

use std::borrow::Cow;
use std::fmt::{self, Write};

use super::board::Point;

/// A number as the picture writes it: one decimal, never `-0.0`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct N(pub f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = if self.0.is_finite() { self.0 } else { 0.0 };
        // Rounds first, so -0.04 becomes 0.0 and not -0.0.
        let tenths = (v * 10.0).round();
        // A whole number of tenths, written as the integer it is: what `{:.1}` writes of
        // `tenths / 10.0` (that number is within a hundredth of the tenths it stands for
        // below 2^46, so one decimal gives them back), without its exact float formatting,
        // which was the costliest part of drawing a picture.
        if tenths.abs() < TENTHS_AS_INTEGER {
            let t = tenths as i64;
            let sign = if t < 0 { "-" } else { "" };
            let t = t.unsigned_abs();
            return write!(f, "{sign}{}.{}", t / 10, t % 10);
        }
        let v = if tenths == 0.0 { 0.0 } else { tenths / 10.0 };
        write!(f, "{v:.1}")
    }
}

/// Below this many tenths, [`N`] writes its number as an integer of tenths.
const TENTHS_AS_INTEGER: f64 = (1u64 << 46) as f64;

/// `text` escaped for XML character data and attribute values; characters XML 1.0 does
/// not allow (most control characters) become U+FFFD.
pub fn escape(text: &str) -> Cow<'_, str> {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && !matches!(c, '\u{FFFE}' | '\u{FFFF}'))
    };
    if text
        .chars()
        .all(|c| allowed(c) && !matches!(c, '&' | '<' | '>' | '"' | '\''))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if allowed(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    Cow::Owned(out)
}

/// An SVG document being written.
#[derive(Debug, Default)]
pub(crate) struct Svg {
    out: String,
}

impl Svg {
    pub fn new() -> Svg {
        Svg {
            out: String::with_capacity(256 * 1024),
        }
    }

    /// Markup written as is (the caller escapes any text in it).
    pub fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// Formatted markup written as is.
    pub fn put(&mut self, args: fmt::Arguments<'_>) {
        // Writing into a String cannot fail.
        let _ = self.out.write_fmt(args);
    }

    /// A straight line from `a` to `b` as a path, with `attrs` (already formed attributes).
    pub fn line(&mut self, a: Point, b: Point, attrs: &str) {
        self.put(format_args!(
            "<path d=\"M{} {}L{} {}\" {attrs}/>\n",
            N(a.x),
            N(a.y),
            N(b.x),
            N(b.y)
        ));
    }

    /// A polyline through `points`.
    pub fn polyline(&mut self, points: &[Point], attrs: &str) {
        self.raw("<path d=\"");
        for (i, p) in points.iter().enumerate() {
            let cmd = if i == 0 { 'M' } else { 'L' };
            self.put(format_args!("{cmd}{} {}", N(p.x), N(p.y)));
        }
        self.put(format_args!("\" {attrs}/>\n"));
    }

    /// A closed polygon through `points`.
    pub fn polygon(&mut self, points: &[Point], attrs: &str) {
        self.raw("<path d=\"");
        for (i, p) in points.iter().enumerate() {
            let cmd = if i == 0 { 'M' } else { 'L' };
            self.put(format_args!("{cmd}{} {}", N(p.x), N(p.y)));
        }
        self.put(format_args!("Z\" {attrs}/>\n"));
    }

    pub fn circle(&mut self, c: Point, r: f64, attrs: &str) {
        self.put(format_args!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {attrs}/>\n",
            N(c.x),
            N(c.y),
            N(r)
        ));
    }

    /// A line of text at `at` (the baseline's start, or middle with `text-anchor`).
    pub fn text(&mut self, at: Point, text: &str, attrs: &str) {
        self.put(format_args!(
            "<text x=\"{}\" y=\"{}\" {attrs}>{}</text>\n",
            N(at.x),
            N(at.y),
            escape(text)
        ));
    }

    pub fn finish(self) -> String {
        self.out
    }
}
