//! How long a picture takes: one busy adjudicated movement phase drawn to SVG and to PNG
//! a number of times, median and 90th percentile per render.
//!
//! The only clock in `picture`, and it measures the renderer, never feeds it. The phase
//! comes from [`crate::sim`]'s seeded random play (the same one every run), so figures from
//! different machines or commits compare.

use std::time::{Duration, Instant};

use crate::map::Map;
use crate::rules::{Standard, adjudicate};
use crate::sim::movement_phases;

use super::{Scene, render_png, render_svg};

/// What [`bench`] measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchFigures {
    /// Renders timed (of each kind).
    pub rounds: usize,
    /// Units on the board of the phase drawn, and orders with results.
    pub units: usize,
    pub results: usize,
    /// `render_svg`, per render.
    pub svg_median: Duration,
    pub svg_p90: Duration,
    /// `render_png` of that SVG, per render.
    pub png_median: Duration,
    pub png_p90: Duration,
    /// Of `render_png`, the part after rasterising: the palette (`quantise`) and zlib.
    pub encode_median: Duration,
    pub encode_p90: Duration,
    /// The sizes of one SVG and one PNG, in bytes.
    pub svg_bytes: usize,
    pub png_bytes: usize,
}

/// Renders the busiest of the first 60 movement phases of seeded random play (seed 1901)
/// `rounds` times to SVG and to PNG (at least once; one untimed warm-up first).
///
/// # Panics
///
/// Only when the repository's own data is broken (the standard map, or a picture that
/// does not rasterise), which the unit tests catch first: a developer's tool, not a path
/// any outside input reaches.
#[allow(clippy::expect_used)]
pub fn bench(rounds: usize) -> BenchFigures {
    let rounds = rounds.max(1);
    let map = Map::standard().expect("the standard map loads (map tests)");
    let phases = movement_phases(map, &Standard, 1901, 60, 8);
    let phase = phases
        .iter()
        .max_by_key(|p| p.position.units.len())
        .expect("sim gives 60 phases");
    let outcome = adjudicate(map, &Standard, &phase.position, &phase.orders);
    let scene = Scene {
        title: format!("bench - {}", phase.position.phase.long_name()),
        position: &phase.position,
        results: &outcome.results,
        dislodged: &outcome.after.dislodged,
        marks: Vec::new(),
    };
    let svg = render_svg(map, &scene);
    let png = render_png(&svg).expect("our own SVG rasterises (picture tests)");
    let pixmap = super::png::pixmap(&svg).expect("our own SVG rasterises (picture tests)");
    let mut svg_times = Vec::with_capacity(rounds);
    let mut png_times = Vec::with_capacity(rounds);
    let mut encode_times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let t = Instant::now();
        let s = render_svg(map, &scene);
        svg_times.push(t.elapsed());
        let t = Instant::now();
        let p = render_png(&s).expect("our own SVG rasterises (picture tests)");
        png_times.push(t.elapsed());
        std::hint::black_box(p);
        let t = Instant::now();
        let p = super::png::encode(&pixmap).expect("our own pixels encode");
        encode_times.push(t.elapsed());
        std::hint::black_box(p);
    }
    let (svg_median, svg_p90) = median_p90(&mut svg_times);
    let (png_median, png_p90) = median_p90(&mut png_times);
    let (encode_median, encode_p90) = median_p90(&mut encode_times);
    BenchFigures {
        rounds,
        units: phase.position.units.len(),
        results: outcome.results.len(),
        svg_median,
        svg_p90,
        png_median,
        png_p90,
        encode_median,
        encode_p90,
        svg_bytes: svg.len(),
        png_bytes: png.len(),
    }
}

/// The median and the 90th percentile (nearest rank) of some timings.
fn median_p90(times: &mut [Duration]) -> (Duration, Duration) {
    times.sort_unstable();
    let at = |q: f64| {
        let rank = ((times.len() as f64 * q).ceil() as usize).saturating_sub(1);
        times.get(rank).copied().unwrap_or_default()
    };
    (at(0.5), at(0.9))
}
