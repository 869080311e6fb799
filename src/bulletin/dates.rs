//! Times as players read them: a deadline in words, in the game's time zone
//! (`Mon Nov 23 2026 20:00 UTC`).

use chrono::{DateTime, Utc};

use crate::game::Game;

/// The game's time zone (UTC if its name is unknown).
pub fn zone(g: &Game) -> chrono_tz::Tz {
    g.settings.time_zone.parse().unwrap_or(chrono_tz::UTC)
}

/// A time as players read it: `Mon Nov 23 2026 20:00 UTC`, in the game's zone.
pub fn format_time(g: &Game, t: DateTime<Utc>) -> String {
    t.with_timezone(&zone(g))
        .format("%a %b %d %Y %H:%M %Z")
        .to_string()
}
