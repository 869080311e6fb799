//! The picture of one phase: the board with its owners, units and orders as SVG, and that
//! SVG as PNG.
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

mod bench;
mod board;
mod draw;
mod palette;
mod png;
mod quantise;
mod svg;

pub use bench::{BenchFigures, bench};
pub use svg::escape;

use crate::map::{Map, ProvinceId};
use crate::rules::{DislodgedUnit, OrderResult, Position};

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
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
}

/// Draws one phase as SVG (1152×1001 pixels; see the module doc for what is drawn).
pub fn render_svg(map: &Map, scene: &Scene<'_>) -> String {
    match board::Board::classic() {
        Ok(board) => draw::draw(map, board, scene),
        Err(e) => draw::broken(scene, e),
    }
}

/// Rasterises an SVG made by [`render_svg`] to PNG bytes at the SVG's own size, with the
/// compiled-in font only.
pub fn render_png(svg: &str) -> Result<Vec<u8>, PictureError> {
    png::render(svg)
}

#[cfg(test)]
mod tests;
