//! Palette quantisation: a drawn picture's pixels reduced to at most 256 colours, so that
//! it can be written as an indexed PNG (a quarter of the truecolour file) or a GIF frame.
//!
//! A picture of the board is a few dozen flat colours (water, land, each power's two
//! colours, ink) and the anti-aliased edges between them, about 5 % of the pixels in some
//! fifteen thousand blends. The flat colours are kept exactly: every colour that covers at
//! least [`FLAT_PIXELS`] pixels has its own palette entry (at most half the palette), so a
//! province's tint or a sea reads the same colour in the PNG as in the SVG. The rest of the
//! palette is learnt from the remaining pixels by NeuQuant (`color_quant`, MIT), and every
//! edge pixel is drawn in its nearest palette colour. A picture of at most `max` colours
//! keeps them all.
//!
//! Deterministic: the same pixels always give the same palette and indices (colours are
//! ordered by count, then by value; NeuQuant has no randomness; nearest-colour ties go to
//! the first entry).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A colour covering at least this many pixels is one of the picture's flat colours and
/// keeps its exact value (0.02 % of the board's 1,152 × 1,001 pixels; the smallest flat
/// colour of the board covers about 300, the commonest blend about 100).
pub(crate) const FLAT_PIXELS: u32 = 200;

/// NeuQuant's sampling factor: 1 reads every pixel, 30 one in thirty. The remainder it
/// learns from is small (the edges), so a close look costs little.
const SAMPLE_FACTOR: i32 = 3;

/// An opaque colour, red, green, blue.
pub(crate) type Rgb = [u8; 3];

/// Pixels as indices into a palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Indexed {
    /// At most 256 colours.
    pub palette: Vec<Rgb>,
    /// One index per pixel, row by row.
    pub pixels: Vec<u8>,
}

impl Indexed {
    /// The palette as the PNG `PLTE` chunk and the GIF colour table write it.
    pub fn palette_bytes(&self) -> Vec<u8> {
        self.palette.iter().flatten().copied().collect()
    }
}

/// `pixels` (opaque, row by row) in at most `max` colours (2 to 256).
pub(crate) fn quantise(pixels: &[Rgb], max: usize) -> Indexed {
    let max = max.clamp(2, 256);
    let counts = histogram(pixels);
    let mut colours: Vec<(Rgb, u32)> = counts.iter().map(|(c, n)| (unpack(*c), *n)).collect();
    colours.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette = if colours.len() <= max {
        Palette {
            colours: colours.iter().map(|(c, _)| *c).collect(),
            flat: colours.len(),
            learnt: None,
        }
    } else {
        palette_of(pixels, &colours, max)
    };
    Indexed {
        pixels: indices(pixels, &palette, counts),
        palette: palette.colours,
    }
}

/// A palette: the flat colours first, then those NeuQuant learnt.
struct Palette {
    colours: Vec<Rgb>,
    /// How many of `colours`, first, are the flat ones (all, with no network).
    flat: usize,
    /// NeuQuant's network, and where each of its colours is in `colours`.
    learnt: Option<(color_quant::NeuQuant, Vec<u32>)>,
}

impl Palette {
    /// The index of the palette colour nearest to `c`: the nearest flat colour, or
    /// NeuQuant's choice among its own when that is nearer (its search is the fast one it
    /// was built for; a scan of all 256 colours for each of some fifteen thousand blends
    /// cost more than the rest of the picture).
    fn nearest(&self, c: Rgb) -> u32 {
        let mut best = (u32::MAX, 0u32);
        for (i, p) in self.colours.iter().take(self.flat).enumerate() {
            let d = distance(c, *p);
            if d < best.0 {
                best = (d, i as u32);
            }
        }
        if let Some((network, at)) = &self.learnt {
            let i = network.index_of(&[c[0], c[1], c[2], u8::MAX]);
            if let Some(&j) = at.get(i)
                && let Some(p) = self.colours.get(j as usize)
                && distance(c, *p) < best.0
            {
                best = (0, j);
            }
        }
        best.1
    }
}

/// The flat colours, then NeuQuant's colours for the other pixels.
fn palette_of(pixels: &[Rgb], colours: &[(Rgb, u32)], max: usize) -> Palette {
    let mut palette: Vec<Rgb> = colours
        .iter()
        .take_while(|(_, n)| *n >= FLAT_PIXELS)
        .take(max / 2)
        .map(|(c, _)| *c)
        .collect();
    let flat: std::collections::HashSet<u32, ColourHash> =
        palette.iter().map(|c| pack(*c)).collect();
    // The other pixels, as NeuQuant reads them (RGBA); a run of one colour is looked up
    // once.
    let mut rest: Vec<u8> = Vec::new();
    let mut last: Option<(Rgb, bool)> = None;
    for p in pixels {
        let is_flat = match last {
            Some((c, f)) if c == *p => f,
            _ => {
                let f = flat.contains(&pack(*p));
                last = Some((*p, f));
                f
            }
        };
        if !is_flat {
            rest.extend_from_slice(&[p[0], p[1], p[2], u8::MAX]);
        }
    }
    let flat = palette.len();
    if rest.is_empty() {
        return Palette {
            colours: palette,
            flat,
            learnt: None,
        };
    }
    let network = color_quant::NeuQuant::new(SAMPLE_FACTOR, max - palette.len(), &rest);
    let mut at = Vec::new();
    for c in network.color_map_rgb().chunks_exact(3) {
        let &[r, g, b] = c else { continue };
        let c = [r, g, b];
        // A learnt colour equal to one already in the palette (flat, or learnt twice) is
        // that entry.
        let j = match palette.iter().position(|p| *p == c) {
            Some(j) => j,
            None => {
                palette.push(c);
                palette.len() - 1
            }
        };
        at.push(j as u32);
    }
    Palette {
        colours: palette,
        flat,
        learnt: Some((network, at)),
    }
}

/// Each pixel's palette index: its exact colour's, else its nearest colour's. `table`
/// (the histogram) is reused as the colour-to-index table.
fn indices(pixels: &[Rgb], palette: &Palette, mut table: ColourMap) -> Vec<u8> {
    let exact: ColourMap = palette
        .colours
        .iter()
        .enumerate()
        .map(|(i, c)| (pack(*c), i as u32))
        .collect();
    for (colour, index) in table.iter_mut() {
        *index = match exact.get(colour) {
            Some(i) => *i,
            None => palette.nearest(unpack(*colour)),
        };
    }
    let mut out = Vec::with_capacity(pixels.len());
    // Runs of one colour are the rule (water, land): look each run up once.
    let mut last: Option<(Rgb, u8)> = None;
    for p in pixels {
        let i = match last {
            Some((c, i)) if c == *p => i,
            _ => {
                let i = table.get(&pack(*p)).map_or(0, |i| *i as u8);
                last = Some((*p, i));
                i
            }
        };
        out.push(i);
    }
    out
}

/// A squared distance between two colours, green weighing most and red least.
pub(crate) fn distance(a: Rgb, b: Rgb) -> u32 {
    let d = |i: usize| {
        let (x, y) = (
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
        u32::from(x.abs_diff(y)).pow(2)
    };
    2 * d(0) + 4 * d(1) + 3 * d(2)
}

/// Colour (packed) to a count, then to a palette index.
type ColourMap = HashMap<u32, u32, ColourHash>;

/// How many pixels have each colour.
fn histogram(pixels: &[Rgb]) -> ColourMap {
    let mut counts = ColourMap::default();
    let mut run: Option<(Rgb, u32)> = None;
    for p in pixels {
        match &mut run {
            Some((c, n)) if c == p => *n += 1,
            _ => {
                if let Some((c, n)) = run.take() {
                    *counts.entry(pack(c)).or_insert(0) += n;
                }
                run = Some((*p, 1));
            }
        }
    }
    if let Some((c, n)) = run {
        *counts.entry(pack(c)).or_insert(0) += n;
    }
    counts
}

fn pack(c: Rgb) -> u32 {
    u32::from_be_bytes([0, c[0], c[1], c[2]])
}

fn unpack(c: u32) -> Rgb {
    let [_, r, g, b] = c.to_be_bytes();
    [r, g, b]
}

/// A hasher for packed colours: one multiplication (the standard hasher's SipHash is
/// built against hostile keys and cost more than the rest of the quantisation). The
/// table's order never shows: every result is sorted or looked up.
type ColourHash = BuildHasherDefault<ColourHasher>;

#[derive(Default)]
struct ColourHasher(u64);

impl Hasher for ColourHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8 | u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_colours_are_kept_exactly() {
        let pixels = vec![[1, 2, 3], [1, 2, 3], [200, 0, 0], [0, 0, 255]];
        let q = quantise(&pixels, 256);
        assert_eq!(q.palette, vec![[1, 2, 3], [0, 0, 255], [200, 0, 0]]);
        assert_eq!(q.pixels, vec![0, 0, 2, 1]);
    }

    #[test]
    fn flat_colours_stay_exact_and_blends_go_to_a_near_colour() {
        // Two flat colours and a ramp of 600 blends between them.
        let mut pixels = vec![[10, 20, 30]; 5000];
        pixels.extend(vec![[240, 230, 200]; 5000]);
        for i in 0..600u32 {
            let t = i * 255 / 599;
            let mix = |a: u8, b: u8| ((u32::from(a) * (255 - t) + u32::from(b) * t) / 255) as u8;
            pixels.push([mix(10, 240), mix(20, 230), mix(30, 200)]);
        }
        let q = quantise(&pixels, 64);
        assert!(q.palette.len() <= 64);
        assert_eq!(q.palette.first(), Some(&[10, 20, 30]));
        assert_eq!(q.palette.get(1), Some(&[240, 230, 200]));
        assert!(q.pixels.iter().take(5000).all(|i| *i == 0));
        assert!(q.pixels.iter().skip(5000).take(5000).all(|i| *i == 1));
        let worst = pixels
            .iter()
            .zip(&q.pixels)
            .map(|(p, i)| distance(*p, q.palette[usize::from(*i)]))
            .max();
        // Within about 8 levels a channel on a ramp 230 levels long over 62 colours.
        assert!(worst.is_some_and(|d| d <= 9 * 8 * 8), "{worst:?}");
        assert_eq!(q, quantise(&pixels, 64), "the same pixels twice");
    }

    #[test]
    fn nothing_at_all_is_no_trouble() {
        let q = quantise(&[], 256);
        assert!(q.palette.is_empty() && q.pixels.is_empty());
    }
}
