//! Whether a stored game that reads is also whole (issue 36): damage that still parses (a
//! next deadline event that is not a time, two units in one province) makes the game
//! unreadable, so the judge suspends it and tells its master as for a row that does not
//! parse, instead of playing on from a state no rule could have made. Reads a game through
//! its public fields only; decides no rule.

use std::collections::HashSet;

use crate::game::Game;

/// Why a game read from the store cannot be played on, if it cannot: two units in one
/// province, or two dislodged units from one.
pub(super) fn check_game(g: &Game) -> Result<(), String> {
    let mut held = HashSet::new();
    for u in &g.position().units {
        if !held.insert(u.location.province) {
            let unit = crate::map::Map::standard().map_or_else(|_| String::new(), |m| u.display(m));
            return Err(format!(
                "its position has two units in one province (the second: {unit})"
            ));
        }
    }
    let mut dislodged = HashSet::new();
    for d in &g.position().dislodged {
        if !dislodged.insert(d.unit.location.province) {
            return Err("its position has two dislodged units from one province".into());
        }
    }
    Ok(())
}

/// Whether a stored next deadline event (the column the tick reads) is a time the store
/// wrote: anything else is damage.
pub(super) fn check_next_event(column: Option<&str>) -> Result<(), String> {
    match column {
        Some(s) if super::read_time(s).is_none_or(|t| super::ts(t) != s) => Err(format!(
            "its next deadline event is not a time ({:?})",
            s.chars().take(40).collect::<String>()
        )),
        _ => Ok(()),
    }
}
