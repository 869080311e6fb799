//! The picture of one phase: the board with its owners, units and orders as SVG, and that
//! SVG as PNG in at most 256 colours (`quantise`: the flat colours exact); a game's centre
//! chart (`chart`); every phase of a game as one animated GIF (`animation`); and
//! [`Drawing`], what a picture shows, which the judge keeps (about 1 KB) to draw it again.
//!
//! Pure, like the core: no clock, no I/O, no randomness; the same [`Scene`] always gives
//! the same bytes, SVG and PNG. The board's drawing data (`board.json`, derived from
//! svg-diplomacy, MIT) and the font (DejaVu Sans, `assets/fonts/`) are compiled in; no
//! system font is ever read. The judge's [`Map`](crate::map::Map) stays the only source of
//! borders: the drawing data holds outlines and points, nothing else.
//!
//! The canvas is 1152×1001 pixels: a 36-pixel title band over the 1152×965 board.
//! [`render_svg`] draws, bottom to top: water, sea areas, land (each supply centre tinted
//! by its owner, see `palette`), centre dots, province labels, units, orders with their
//! outcomes, dislodged units with their retreat options, the rule set's [`Mark`]s, the
//! legend box and the title. [`render_png`] rasterises that SVG with `resvg` at the same
//! size.
//!
//! What the orders look like:
//!
//! | order | drawn as |
//! | --- | --- |
//! | move, retreat | a solid arrow in the power's colour from the unit to the destination |
//! | failed move or retreat | the arrow stops three quarters of the way, a red cross there |
//! | hold | a ring round the unit |
//! | support | a dashed line to the supported unit, or to the middle of the supported move |
//! | cut support | the same, with a red cross half way |
//! | convoy | a dotted line from the army to the fleet and on to the destination |
//! | void, refused, not counted | the same shapes, faint |
//! | dislodged unit | drawn beside its province, red-edged, thin dashed arrows to its retreats |
//! | disband, removal | the unit crossed out in red |
//! | build | the new unit in a ring with a plus |

mod animation;
mod bench;
mod board;
mod chart;
mod draw;
mod palette;
mod png;
mod quantise;
pub mod schematic;
mod svg;

pub use animation::{ANIMATION_LIMIT, Animation, FRAME_DELAY, LAST_FRAME_DELAY};
pub use bench::{BenchFigures, bench};
pub use chart::{Chart, ChartLine};
pub use svg::escape;

use crate::map::{Map, ProvinceId};
use crate::rules::{DislodgedUnit, Failure, Order, OrderResult, Owner, Position};

/// What one picture shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene<'a> {
    /// The title line, formatted by the caller: game, phase, date (`concert - Spring 1901
    /// movement - 3 May 2027`).
    pub title: String,
    /// The board the phase started from (units, centre owners, `position.phase`).
    pub position: &'a Position,
    /// The phase's orders with their outcomes; empty: just the board.
    pub results: &'a [OrderResult],
    /// Units the phase dislodged, with their retreat options (a movement phase's
    /// `PhaseOutcome::after.dislodged`). A retreat phase's own units awaiting orders are
    /// `position.dislodged` and are drawn the same way; a unit in both is drawn once.
    pub dislodged: &'a [DislodgedUnit],
    /// A rule set's own marks (see [`Mark`]), drawn on top.
    pub marks: Vec<Mark>,
}

/// A rule set's own mark on the picture (variant layers).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Mark {
    /// A short text beside a unit's province (Shell Shock morale `+2`): up and to the
    /// right of the unit, or to its left when a dislodged unit is drawn beside the province.
    UnitNote { province: ProvinceId, text: String },
    /// A short text on a province (Formal's sphere of influence `SOI France`).
    ProvinceNote { province: ProvinceId, text: String },
    /// A line between two powers' home areas or two provinces (a treaty, a war, a client
    /// relation), with a legend text. It stops short of the units at both ends; several
    /// lines between the same two provinces are drawn side by side.
    Relation {
        from: ProvinceId,
        to: ProvinceId,
        text: String,
        style: RelationStyle,
    },
    /// A line of text in the legend box.
    Legend(String),
}

/// How a [`Mark::Relation`] line is drawn: a treaty solid green, a war dashed red, a
/// client relation dotted purple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RelationStyle {
    Treaty,
    War,
    Client,
}

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The compiled-in drawing data does not read (a broken `board.json`).
    #[error("the board's drawing data is broken: {0}")]
    Board(String),
    /// The SVG given to [`render_png`] does not parse.
    #[error("the SVG could not be read: {0}")]
    Svg(#[from] resvg::usvg::Error),
    /// The SVG's canvas is empty or too large to allocate.
    #[error("the SVG's canvas of {width}×{height} pixels cannot be drawn")]
    Canvas { width: u32, height: u32 },
    /// Encoding the pixels as PNG failed.
    #[error("the PNG could not be encoded: {0}")]
    Png(String),
    /// Encoding the frames as GIF failed.
    #[error("the animation could not be encoded: {0}")]
    Gif(String),
    /// The animation would be larger than [`ANIMATION_LIMIT`] even at half the size.
    #[error("the animation of {frames} phases would take more than {limit} bytes")]
    TooLarge { frames: usize, limit: usize },
    /// A kept [`Drawing`] does not read (written by another version of the judge).
    #[error("a kept picture cannot be read: {0}")]
    Kept(String),
}

/// What a picture of a phase shows, owned: a [`Scene`] as it is kept to be drawn again
/// (`Drawing::Phase`), with each order reduced to what the picture draws of it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PhaseScene {
    pub title: String,
    pub position: Position,
    pub orders: Vec<DrawnOrder>,
    pub dislodged: Vec<DislodgedUnit>,
    pub marks: Vec<Mark>,
}

impl PhaseScene {
    pub fn of(scene: &Scene<'_>) -> PhaseScene {
        PhaseScene {
            title: scene.title.clone(),
            position: scene.position.clone(),
            orders: scene.results.iter().map(DrawnOrder::of).collect(),
            dislodged: scene.dislodged.to_vec(),
            marks: scene.marks.clone(),
        }
    }
}

/// An order as the picture draws it: who gave it, what it was, how it came out (an
/// [`OrderResult`] without what only the results' text needs: a refusal's reason, a
/// rule set's note).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawnOrder {
    pub owner: Owner,
    pub order: Order,
    /// In the player's orders (false: a default hold, a civil-disorder removal).
    pub given: bool,
    pub outcome: Outcome,
}

impl DrawnOrder {
    pub fn of(r: &OrderResult) -> DrawnOrder {
        DrawnOrder {
            owner: r.owner,
            order: r.order,
            given: r.given,
            outcome: Outcome::of(r.failure.as_ref()),
        }
    }
}

/// How an order came out, as [`Failure`] says, a refusal's reason left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    Succeeded,
    Bounce,
    Cut,
    Void,
    NotCounted,
    NoConvoy,
    Disrupted,
    Dislodged,
    RetreatBounce,
    /// Refused before resolution (`Failure::Illegal`).
    Refused,
}

impl Outcome {
    pub fn of(failure: Option<&Failure>) -> Outcome {
        match failure {
            None => Outcome::Succeeded,
            Some(Failure::Bounce) => Outcome::Bounce,
            Some(Failure::Cut) => Outcome::Cut,
            Some(Failure::Void) => Outcome::Void,
            Some(Failure::NotCounted) => Outcome::NotCounted,
            Some(Failure::NoConvoy) => Outcome::NoConvoy,
            Some(Failure::Disrupted) => Outcome::Disrupted,
            Some(Failure::Dislodged) => Outcome::Dislodged,
            Some(Failure::RetreatBounce) => Outcome::RetreatBounce,
            Some(Failure::Illegal(_)) => Outcome::Refused,
        }
    }

    /// The SVG class of an order with this outcome: `ok`, or the njudge marker
    /// ([`Failure::marker`]) with a dash for a blank.
    fn class(self) -> &'static str {
        match self {
            Outcome::Succeeded => "ok",
            Outcome::Bounce | Outcome::RetreatBounce => "bounce",
            Outcome::Cut => "cut",
            Outcome::Void | Outcome::NotCounted | Outcome::Refused => "void",
            Outcome::NoConvoy => "no-convoy",
            Outcome::Disrupted => "disrupted",
            Outcome::Dislodged => "dislodged",
        }
    }
}

/// A picture the judge keeps to draw again, byte for byte, whenever a mail wants it: a
/// phase's board, or a game's centre chart. Small (a few kilobytes, [`Drawing::encode`]),
/// where the SVG is 170 KB and the PNG 90 KB.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Drawing {
    Phase(PhaseScene),
    Chart(Chart),
}

impl Drawing {
    /// The SVG of the picture.
    pub fn svg(&self, map: &Map) -> String {
        match self {
            Drawing::Phase(scene) => render_phase_svg(map, scene),
            Drawing::Chart(chart) => chart::render(chart),
        }
    }

    /// The form the judge keeps: its JSON, deflated (a phase's 7 KB of JSON in about 1 KB).
    pub fn encode(&self) -> Vec<u8> {
        use std::io::Write;
        // Writing plain data to a Vec cannot fail.
        let json = serde_json::to_vec(self).unwrap_or_default();
        let mut deflate =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        let _ = deflate.write_all(&json);
        deflate.finish().unwrap_or_default()
    }

    /// A kept drawing read back (at most [`KEPT_LIMIT`] bytes of JSON).
    pub fn decode(bytes: &[u8]) -> Result<Drawing, PictureError> {
        use std::io::Read;
        let mut json = Vec::new();
        flate2::read::DeflateDecoder::new(bytes)
            .take(KEPT_LIMIT)
            .read_to_end(&mut json)
            .map_err(|e| PictureError::Kept(e.to_string()))?;
        serde_json::from_slice(&json).map_err(|e| PictureError::Kept(e.to_string()))
    }
}

/// The most JSON a kept drawing may inflate to (a busy phase's is about 10 KB).
pub const KEPT_LIMIT: u64 = 16 << 20;

/// Draws one phase as SVG (1152×1001 pixels; see the module doc for what is drawn).
pub fn render_svg(map: &Map, scene: &Scene<'_>) -> String {
    render_phase_svg(map, &PhaseScene::of(scene))
}

/// Draws a kept phase as SVG: the same bytes as [`render_svg`] of the scene it was made
/// from.
pub fn render_phase_svg(map: &Map, scene: &PhaseScene) -> String {
    match board::Board::classic() {
        Ok(board) => draw::draw(map, board, scene),
        Err(e) => draw::broken(&scene.title, e),
    }
}

/// Rasterises an SVG made by [`render_svg`] to PNG bytes at the SVG's own size, with the
/// compiled-in font only, in at most 256 colours.
pub fn render_png(svg: &str) -> Result<Vec<u8>, PictureError> {
    png::render(svg)
}

#[cfg(test)]
mod tests;
