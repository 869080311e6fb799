//! Times as players read them: a deadline in words, in the game's time zone
//! (`Mon Nov 23 2026 20:00 UTC`), and as njudge's `::` header gives it to tools.

use chrono::{DateTime, Utc};

use crate::game::Game;

/// The game's time zone (UTC if its name is unknown).
pub fn zone(g: &Game) -> chrono_tz::Tz {
    g.settings().time_zone.parse().unwrap_or(chrono_tz::UTC)
}

/// A time as players read it: `Mon Nov 23 2026 20:00 UTC`, in the game's zone.
pub fn format_time(g: &Game, t: DateTime<Utc>) -> String {
    in_words(&zone(g), t)
}

/// A time as players read it, in zone `tz`: `Mon Nov 23 2026 20:00 UTC`.
pub fn in_words(tz: &chrono_tz::Tz, t: DateTime<Utc>) -> String {
    t.with_timezone(tz)
        .format("%a %b %d %Y %H:%M %Z")
        .to_string()
}

/// A time as njudge's `::` header writes it for the tools that read it (njudge's `ptime`),
/// in zone `tz`: `Mon Nov 23 2026 20:00:00 +0000`.
pub fn for_tools(tz: &chrono_tz::Tz, t: DateTime<Utc>) -> String {
    t.with_timezone(tz)
        .format("%a %b %d %Y %H:%M:%S %z")
        .to_string()
}
