//! Press as its readers receive it: the envelope the judge puts around a player's text (the
//! subject, `Message from Germany to England:`) and the text itself, quoted line by line so
//! that nothing a player writes can pass for the judge's own words.
//!
//! Who reads the press, and whether its sender is named, is decided before
//! ([`crate::game::press_route`], H19); this module writes it. Pure.

use crate::command::{PressHeader, PressKind};
use crate::game::{Author, PressRoute};
use crate::rules::Phase;
use crate::variant::{Reader, Sender};

use super::notices::{Notice, subject};

/// The mail a press block makes, as every reader receives it: `DIP:demo - S1901M Press from
/// England` (an OFFICIAL announcement: its own subject), then `Message from England to
/// France, the Master:` and the text quoted.
pub fn press_mail(
    judge: &str,
    game: &str,
    phase: Phase,
    author: Author,
    route: &PressRoute,
    header: &PressHeader,
    lines: &[String],
) -> Notice {
    let from_name = match author {
        Author::Seat(Sender::Power(p)) if route.signed => p.name(),
        Author::Seat(Sender::Master) => "the Master",
        Author::Observer if route.signed => "an observer",
        Author::Seat(Sender::Power(_)) | Author::Observer => "someone",
    };
    let to_text = if route.public {
        "everyone".to_string()
    } else {
        route
            .named
            .iter()
            .map(|r| match r {
                Reader::Power(p) => p.name(),
                Reader::Master => "the Master",
                Reader::Observers => "observers",
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let kind = if route.public { "Broadcast" } else { "Press" };
    let subject = match &header.subject {
        Some(s) if header.kind == PressKind::Official => subject(judge, game, s),
        _ => subject(judge, game, format!("{phase} {kind} from {from_name}")),
    };
    let mut body = format!("Message from {from_name} to {to_text}:\n\n");
    body.push_str(&quoted_press(lines));
    Notice { subject, body }
}

/// A press body as delivered: every line after `| ` (an empty line as `|`), so that no line
/// of a player's text can pass for the judge's own attribution (`Message from Germany to
/// England:`) or for anything else the judge writes.
pub fn quoted_press(lines: &[String]) -> String {
    let mut out = String::new();
    for l in lines {
        if l.is_empty() {
            out.push_str("|\n");
        } else {
            out.push_str("| ");
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}
