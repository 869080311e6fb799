//! The standard board as drawing data: each province's outline, the points its units and
//! coasts stand on and its centre's dot, read once from `board.json`.
//!
//! `board.json` is derived from svg-diplomacy's `classic.json` (MIT, © 2014 Hawken Rives;
//! `THIRD-PARTY-NOTICES.md`) by `scripts/convert-board.py`, which renames the areas to the
//! judge's province codes, turns every point into SVG coordinates (y down) and moves the
//! Irish Sea's unit off Ireland. Never hand-edit it: change the script and run it again.
//! Nothing here knows a border; the judge's [`Map`] is the only source of those.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::map::{Coast, Location, Map};

use super::PictureError;

/// A point on the board, in SVG coordinates (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize)]
#[serde(from = "[f64; 2]")]
pub(crate) struct Point {
    pub x: f64,
    pub y: f64,
}

impl From<[f64; 2]> for Point {
    fn from([x, y]: [f64; 2]) -> Point {
        Point { x, y }
    }
}

impl Point {
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// The point `t` of the way from `self` to `to` (0: here, 1: there).
    pub fn towards(self, to: Point, t: f64) -> Point {
        Point::new(self.x + (to.x - self.x) * t, self.y + (to.y - self.y) * t)
    }

    pub fn distance(self, to: Point) -> f64 {
        (to.x - self.x).hypot(to.y - self.y)
    }

    /// The point `d` along the line from `self` to `to` (`self` when they coincide).
    pub fn step(self, to: Point, d: f64) -> Point {
        let len = self.distance(to);
        if len < 1e-9 {
            self
        } else {
            self.towards(to, d / len)
        }
    }

    pub fn offset(self, dx: f64, dy: f64) -> Point {
        Point::new(self.x + dx, self.y + dy)
    }
}

/// What kind of area a drawn area is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum AreaKind {
    Land,
    Sea,
    /// Drawn as neutral land; no province of the judge's map (Switzerland, Ireland, ...).
    Impassable,
}

/// One drawn area: a province of the map, or an impassable one.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Area {
    pub kind: AreaKind,
    /// SVG path data, absolute, one decimal; one path per piece the source drew apart.
    pub paths: Vec<String>,
    /// Where a unit stands (none for impassable areas).
    pub unit: Option<Point>,
    /// Where a fleet on each coast stands (split-coast provinces).
    pub coasts: Vec<(Coast, Point)>,
    /// Where the supply centre's dot goes.
    pub centre: Option<Point>,
}

/// The whole board.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Board {
    pub width: u32,
    pub height: u32,
    /// By code: the judge's province codes, and the impassable areas' own (`ire`, `swz`).
    pub areas: BTreeMap<String, Area>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    /// Where the data came from: for the file's readers, not the renderer (required, so
    /// that a file without its attribution does not load).
    #[allow(dead_code)]
    source: String,
    width: u32,
    height: u32,
    provinces: BTreeMap<String, AreaFile>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaFile {
    kind: AreaKind,
    paths: Vec<String>,
    #[serde(default)]
    unit: Option<Point>,
    #[serde(default)]
    coasts: BTreeMap<String, Point>,
    #[serde(default)]
    centre: Option<Point>,
}

static CLASSIC: OnceLock<Result<Board, PictureError>> = OnceLock::new();

impl Board {
    /// The standard board, read once from the embedded `board.json`. An error means the
    /// data in the repository is broken (a unit test reads it); it is reported, not
    /// panicked on.
    pub fn classic() -> Result<&'static Board, &'static PictureError> {
        CLASSIC
            .get_or_init(|| Board::parse(include_str!("board.json")))
            .as_ref()
    }

    /// Reads drawing data in `board.json`'s format.
    pub fn parse(text: &str) -> Result<Board, PictureError> {
        let file: BoardFile =
            serde_json::from_str(text).map_err(|e| PictureError::Board(e.to_string()))?;
        let mut areas = BTreeMap::new();
        for (code, a) in file.provinces {
            let mut coasts = Vec::with_capacity(a.coasts.len());
            for (name, point) in a.coasts {
                let coast = Coast::from_text(&name).ok_or_else(|| {
                    PictureError::Board(format!("{code}: no such coast as {name:?}"))
                })?;
                coasts.push((coast, point));
            }
            if a.kind != AreaKind::Impassable && a.unit.is_none() {
                return Err(PictureError::Board(format!("{code}: no unit point")));
            }
            areas.insert(
                code,
                Area {
                    kind: a.kind,
                    paths: a.paths,
                    unit: a.unit,
                    coasts,
                    centre: a.centre,
                },
            );
        }
        Ok(Board {
            width: file.width,
            height: file.height,
            areas,
        })
    }

    /// The area drawn for a province of the map.
    pub fn area(&self, map: &Map, province: crate::map::ProvinceId) -> Option<&Area> {
        self.areas.get(map.code(province))
    }

    /// Where a unit at `loc` is drawn: its coast's point on a split coast, else the
    /// province's unit point.
    pub fn point(&self, map: &Map, loc: Location) -> Option<Point> {
        let area = self.area(map, loc.province)?;
        loc.coast
            .and_then(|c| area.coasts.iter().find(|(k, _)| *k == c).map(|(_, p)| *p))
            .or(area.unit)
    }
}
