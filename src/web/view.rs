//! What a reader may see of a game, read from the store in one transaction: the game's
//! facts, its phases in the order played (each with its picture, its bulletins and the
//! press the reader received or sent), the centre chart. Who may read which history entry
//! is the judge's audience rule ([`crate::judge::audience`]), the one `HISTORY` follows: the
//! public page reads as an outsider, a private page as its seat.

use std::collections::BTreeMap;

use crate::game::Status;
use crate::judge::audience::{self, Viewer};
use crate::judge::weblinks;
use crate::map::{Map, Power};
use crate::picture::{Chart, Drawing};
use crate::store::{StoreError, Tx};

/// Whose private page it is: a power's player or the master (by a token).
pub use crate::variant::Reader;

/// One line of the game list.
pub use crate::judge::game_list::ListedGame;

/// One phase of a game as its reader may see it.
#[derive(Clone, Debug)]
pub struct PhaseView {
    /// The phase's short name (`F1901M`): its id in the page and its address.
    pub name: String,
    /// The picture of the processed phase (the one the results mails carry), as SVG.
    pub svg: Option<String>,
    /// The bulletins of the phase everyone who follows the game received (results,
    /// notices): (subject, text).
    pub bulletins: Vec<(String, String)>,
    /// The press the reader received in the phase: (subject, text).
    pub press: Vec<(String, String)>,
}

/// A game as one reader may see it.
#[derive(Clone, Debug)]
pub struct GameView {
    pub name: String,
    pub variant: String,
    pub status: String,
    pub phase_now: Option<String>,
    pub deadline: Option<String>,
    /// Each power's supply centres now (none while the game forms).
    pub centres: Vec<(String, usize)>,
    /// Whose page it is: `None` for anyone (the public page), else the seat.
    pub seat: Option<String>,
    /// Nothing of the game's history is open to this reader (the public page under
    /// observer setting NONE).
    pub closed: bool,
    pub phases: Vec<PhaseView>,
    /// The reader's standing orders for the phase open now (a power's player: the orders
    /// its replies list), as order lines.
    pub standing: Vec<String>,
    /// The centre chart as SVG (a game under way or over, for a reader who reads its
    /// bulletins).
    pub chart: Option<String>,
}

/// One page of the list of games.
pub use crate::judge::game_list::Page;

/// Page `page` (from 1) of the list of games, as `LIST` shows anyone (unlisted games left
/// out; a suspended game listed as suspended), read from the games' summaries a page at a
/// time, by name.
pub fn list(tx: &Tx<'_>, page: u64) -> Result<Page<ListedGame>, StoreError> {
    crate::judge::game_list::listed_games_page(tx, page)
}

/// The reader a private page's token opens, with the game's name; None for a token that
/// is unknown or no longer its seat's.
pub fn token_reader(tx: &Tx<'_>, token: &str) -> Result<Option<(String, Reader)>, StoreError> {
    let Some(kept) = tx.web_token(&weblinks::token_hash(token))? else {
        return Ok(None);
    };
    let Some(g) = tx.load_game(&kept.game)? else {
        return Ok(None);
    };
    Ok(weblinks::reader_of(&g, &kept).map(|r| (g.name().to_string(), r)))
}

/// The SVG of a processed phase's picture, if it has one.
fn phase_svg(
    map: &Map,
    tx: &Tx<'_>,
    game: &str,
    phase: &str,
) -> Result<Option<String>, StoreError> {
    match tx.scene(game, phase)? {
        Some(bytes) => Ok(Drawing::decode(&bytes).ok().map(|d| d.svg(map))),
        None => tx.old_picture(game, phase),
    }
}

/// Game `name` as `seat` may see it (None: the public page, read by anyone, an outsider);
/// None when there is no such game.
pub fn game(
    map: &Map,
    tx: &Tx<'_>,
    name: &str,
    seat: Option<Reader>,
) -> Result<Option<GameView>, StoreError> {
    let Some(g) = tx.load_game(name)? else {
        return Ok(None);
    };
    let viewer = seat.map_or(Viewer::Outsider, |r| Viewer::of(&g, r));
    // A bulletin a ROLLBACK undid is not the game's any more (issue 38).
    let entries = audience::entries_for(&g, viewer, tx.history(g.name())?)
        .into_iter()
        .filter(|e| {
            !(e.is_bulletin()
                && crate::bulletin::results::is_results_subject(&e.subject, &e.phase)
                && g.undone(e.at, &e.phase))
        });
    let closed = audience::history_closed(viewer, &audience::Settings::of(&g));
    let mut phases: Vec<PhaseView> = Vec::new();
    for e in entries {
        let i = match phases.iter().position(|p| p.name == e.phase) {
            Some(i) => i,
            None => {
                phases.push(PhaseView {
                    name: e.phase.clone(),
                    svg: None,
                    bulletins: Vec::new(),
                    press: Vec::new(),
                });
                phases.len() - 1
            }
        };
        if let Some(p) = phases.get_mut(i) {
            if e.is_bulletin() {
                p.bulletins.push((e.subject, e.body));
            } else {
                p.press.push((e.subject, e.body));
            }
        }
    }
    // A phase's picture goes to those who read its bulletins (H20: it shows only what
    // every reader may read).
    for p in &mut phases {
        if !p.bulletins.is_empty() {
            p.svg = phase_svg(map, tx, g.name(), &p.name)?;
        }
    }
    let reads_bulletins = !closed && *g.status() != Status::Forming;
    let chart = if reads_bulletins {
        let snapshots = tx.snapshot_positions(g.name())?;
        let positions = snapshots.iter().chain(std::iter::once(g.position()));
        let chart = Chart::of_positions(
            format!("{} - supply centres at the end of each year", g.name()),
            positions,
            u16::try_from(g.settings().centres_to_win).ok(),
        );
        Some(Drawing::Chart(chart).svg(map))
    } else {
        None
    };
    let standing = match seat {
        Some(Reader::Power(p)) if *g.status() == Status::Active => {
            let mut orders: Vec<_> = g.orders_of(p).iter().collect();
            orders.sort_by_key(|o| o.order.unit().map(|u| u.province()));
            orders.iter().map(|o| o.order.display(map)).collect()
        }
        _ => Vec::new(),
    };
    let mut count: BTreeMap<Power, usize> = BTreeMap::new();
    for p in g.position().owners.iter().flatten() {
        *count.entry(*p).or_default() += 1;
    }
    let centres = if *g.status() == Status::Forming {
        Vec::new()
    } else {
        g.players()
            .iter()
            .map(|p| {
                (
                    p.power.name().to_string(),
                    count.get(&p.power).copied().unwrap_or(0),
                )
            })
            .collect()
    };
    Ok(Some(GameView {
        phase_now: (*g.status() != Status::Forming).then(|| g.position().phase.to_string()),
        // In the game's time zone, as its mails give it (issue 38: the page said UTC for
        // a game in CET).
        deadline: g
            .deadline()
            .map(|d| crate::bulletin::dates::format_time(&g, d)),
        status: crate::bulletin::listing::status_word(&g),
        seat: seat.and_then(weblinks::seat_name).map(str::to_string),
        closed,
        centres,
        standing,
        phases,
        chart,
        name: g.name().to_string(),
        variant: g.variant().to_string(),
    }))
}
