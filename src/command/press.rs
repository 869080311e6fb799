//! Press (grammar/framing.md §Press): the header line that opens a block (`PRESS TO EF
//! GREY`, `BROADCAST`, `POSTAL PRESS`, `OFFICIAL subject`), the block's text, and the word
//! that closes it.

use std::fmt;

use crate::map::Map;

use super::lexeme::{
    PResult, Recipient, Why, blanks, cut, end_of_line, fail, keyword, one_of, recipient_list,
};

/// What kind of block a header opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PressKind {
    /// `PRESS …`
    Press,
    /// `BROADCAST …`: to everyone.
    Broadcast,
    /// `OFFICIAL …`: the master's announcement to everyone.
    Official,
}

/// Who a press block goes to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PressTo {
    /// No `TO`: everyone (njudge's plain `PRESS` is a broadcast).
    All,
    /// `TO AE`, `TO England France`, `TO M`.
    Only(Vec<Recipient>),
    /// `TO ALL BUT G`.
    AllBut(Vec<Recipient>),
}

/// Signed or anonymous.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attribution {
    /// As the game's default.
    Default,
    /// `WHITE`: signed.
    White,
    /// `GREY`: anonymous.
    Grey,
}

/// A press header, typed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PressHeader {
    pub kind: PressKind,
    /// `POSTAL PRESS`: held back and sent with the next results.
    pub postal: bool,
    pub to: PressTo,
    pub attribution: Attribution,
    /// `OFFICIAL subject`: the subject line, as written.
    pub subject: Option<String>,
}

impl PressHeader {
    /// Whether the block goes to the master only (`PRESS TO M`): Survive reads ballots from
    /// such blocks.
    pub fn is_to_master_only(&self) -> bool {
        matches!(&self.to, PressTo::Only(v) if v.as_slice() == [Recipient::Master])
    }

    /// The word that ends this kind of block.
    pub fn end_word(&self) -> &'static str {
        match self.kind {
            PressKind::Broadcast => "ENDBROADCAST",
            _ => "ENDPRESS",
        }
    }
}

fn join(rs: &[Recipient]) -> String {
    rs.iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for PressHeader {
    /// `PRESS TO England France GREY`, `BROADCAST`, `OFFICIAL New deadline`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.postal {
            f.write_str("POSTAL ")?;
        }
        f.write_str(match self.kind {
            PressKind::Press => "PRESS",
            PressKind::Broadcast => "BROADCAST",
            PressKind::Official => "OFFICIAL",
        })?;
        match &self.to {
            PressTo::All => {}
            PressTo::Only(rs) => write!(f, " TO {}", join(rs))?,
            PressTo::AllBut(rs) => write!(f, " TO ALL BUT {}", join(rs))?,
        }
        match self.attribution {
            Attribution::Default => {}
            Attribution::White => f.write_str(" WHITE")?,
            Attribution::Grey => f.write_str(" GREY")?,
        }
        if let Some(s) = &self.subject {
            write!(f, " {s}")?;
        }
        Ok(())
    }
}

/// A whole press block: its header and its lines.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Press {
    pub header: PressHeader,
    /// The text, line by line, with `//` lines dropped and blank lines at both ends
    /// trimmed.
    pub body: Vec<String>,
    /// Whether `ENDPRESS` (or `ENDBROADCAST`) closed it; if not, the end of the message or
    /// a signature did.
    pub closed: bool,
}

impl Press {
    /// `PRESS TO England GREY (3 lines)`.
    pub fn render(&self) -> String {
        let n = self.body.len();
        let lines = if n == 1 { "line" } else { "lines" };
        if self.closed {
            format!("{} ({n} {lines})", self.header)
        } else {
            format!(
                "{} ({n} {lines}; no {} before the end of the message)",
                self.header,
                self.header.end_word()
            )
        }
    }
}

// attribution = "GREY" | "GRAY" | "WHITE" ;
fn attribution(i: &str) -> PResult<'_, Attribution> {
    let (r, w) = one_of(&["grey", "gray", "white"], "GREY or WHITE")(i)?;
    Ok((
        r,
        if w == "white" {
            Attribution::White
        } else {
            Attribution::Grey
        },
    ))
}

/// Whether a line opens a press block (`PRESS`, `BROADCAST`, `POSTAL PRESS`, `OFFICIAL`).
pub(crate) fn is_press_header(line: &str) -> bool {
    one_of(&["postal press", "press", "broadcast", "official"], "PRESS")(line).is_ok()
}

/// Whether a line closes a press block (`ENDPRESS`, `END PRESS`, `ENDBROADCAST`).
pub(crate) fn is_press_end(line: &str) -> bool {
    let r = one_of(&["end press", "end broadcast"], "ENDPRESS")(line);
    matches!(r, Ok((rest, _)) if end_of_line(rest).is_ok())
}

// press_header = [ "POSTAL" ] ( "PRESS" | "BROADCAST" ) [ attribution ]
//                [ "TO" ( ( "ALL BUT" | "ALL EXCEPT" ) recipients | recipients ) ]
//                [ attribution ]
//              | "OFFICIAL" [ subject ] ;
//   (the recipients' words are read against `map`: a province's name is no list)
pub(crate) fn press_header<'a>(map: &Map, i: &'a str) -> PResult<'a, PressHeader> {
    let start = blanks(i);
    if let Ok((r, _)) = keyword("official")(start) {
        let subject = blanks(r).trim_end();
        return Ok((
            "",
            PressHeader {
                kind: PressKind::Official,
                postal: false,
                to: PressTo::All,
                attribution: Attribution::Default,
                subject: (!subject.is_empty()).then(|| subject.to_string()),
            },
        ));
    }
    let (r, w) = one_of(&["postal press", "press", "broadcast"], "PRESS")(start)?;
    let kind = if w == "broadcast" {
        PressKind::Broadcast
    } else {
        PressKind::Press
    };
    let (mut r, mut attr) = match attribution(r) {
        Ok((r, a)) => (r, a),
        Err(_) => (r, Attribution::Default),
    };
    let mut to = PressTo::All;
    if let Ok((a, _)) = keyword("to")(r) {
        if let Ok((a, _)) = one_of(&["all but", "all except"], "ALL BUT")(a) {
            let (a, rs) = cut(recipient_list(a, Some(map)))?;
            to = PressTo::AllBut(rs);
            r = a;
        } else if let Ok((a, _)) = keyword("all")(a) {
            r = a;
        } else {
            let (a, rs) = cut(recipient_list(a, Some(map)))?;
            to = PressTo::Only(rs);
            r = a;
        }
    }
    if attr == Attribution::Default
        && let Ok((a, at)) = attribution(r)
    {
        attr = at;
        r = a;
    }
    if end_of_line(r).is_err() {
        return fail(
            blanks(r),
            Why::Expected("the end of the press line (TO powers, GREY or WHITE)"),
        );
    }
    Ok((
        r,
        PressHeader {
            kind,
            postal: w == "postal press",
            to,
            attribution: attr,
            subject: None,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! ph {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let map = Map::standard().unwrap();
                let got = press_header(map, $text).map(|(_, h)| h.to_string());
                assert_eq!(got.ok().as_deref(), $want);
            }
        };
    }

    ph!(plain, "press", Some("PRESS"));
    ph!(to_initials, "press to EF", Some("PRESS TO England France"));
    ph!(to_master, "PRESS TO M", Some("PRESS TO M"));
    ph!(grey_first, "press grey to e", Some("PRESS TO England GREY"));
    ph!(
        grey_last,
        "press to e, f gray",
        Some("PRESS TO England France GREY")
    );
    ph!(
        all_but,
        "press to all but g",
        Some("PRESS TO ALL BUT Germany")
    );
    ph!(to_all, "press to all white", Some("PRESS WHITE"));
    ph!(broadcast, "broadcast", Some("BROADCAST"));
    ph!(postal, "postal press to r", Some("POSTAL PRESS TO Russia"));
    ph!(
        official,
        "official Deadline moved",
        Some("OFFICIAL Deadline moved")
    );
    ph!(bad_recipient, "press to xyz", None);
    ph!(trailing, "press to e hello there", None);
}
