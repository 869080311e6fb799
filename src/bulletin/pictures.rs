//! The words on and around the judge's pictures: the title of a phase's picture and of a
//! game's centre chart, and the names of the files a mail attaches.

use chrono::{DateTime, Utc};

use crate::game::Game;
use crate::rules::Phase;

use super::dates::format_time;

/// The title of the picture of `phase` of `g`, drawn at `now`: `demo - Spring 1901,
/// Movement - Mon Nov 23 2026 20:00 UTC`.
pub fn phase_title(g: &Game, phase: Phase, now: DateTime<Utc>) -> String {
    format!(
        "{} - {} - {}",
        g.name(),
        phase.long_name(),
        format_time(g, now)
    )
}

/// The title of a game's centre chart.
pub fn chart_title(game: &str) -> String {
    format!("{game} - supply centres at the end of each year")
}

/// The file name of a picture attached to a mail: a phase's or a chart's PNG (`stem`: what
/// it shows), or the animation of a whole game.
/// The file name of a game's record (`EXPORT game`): `concert-export.json`.
pub fn export_name(game: &str) -> String {
    format!("{game}-export.json")
}

pub fn attachment_name(game: &str, stem: Option<&str>) -> String {
    match stem {
        Some(stem) => format!("{game}-{stem}.png"),
        None => format!("{game}-all.gif"),
    }
}
