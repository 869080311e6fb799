//! A game's centre chart: the supply centres each power held at the start of each phase,
//! read from the game's snapshots and its board now. The mails' chart picture, SUMMARY and
//! the exported record all read it from here.

use crate::game::Game;
use crate::picture::Chart;
use crate::store::{StoreError, Tx};

/// The centre chart of a game: its snapshots (each phase's start, in turn order) and its
/// position now.
pub(super) fn centre_chart(tx: &Tx<'_>, g: &Game) -> Result<Chart, StoreError> {
    let snapshots = tx.snapshots(g.name())?;
    let positions = snapshots
        .iter()
        .map(|s| s.position())
        .chain(std::iter::once(g.position()));
    Ok(Chart::of_positions(
        crate::bulletin::pictures::chart_title(g.name()),
        positions,
        u16::try_from(g.settings().centres_to_win).ok(),
    ))
}
