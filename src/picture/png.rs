//! Rasterising a picture's SVG to PNG with `resvg`, using only the compiled-in font, so
//! every machine draws the same pixels, and writing them in at most 256 colours.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

use super::PictureError;
use super::quantise::{Rgb, quantise};

/// The one font the picture uses: DejaVu Sans (Bitstream Vera licence; the notice is in
/// `THIRD-PARTY-NOTICES.md`).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// The family name the SVG asks for.
pub(crate) const FONT_FAMILY: &str = "DejaVu Sans";

/// The font database, built once: the embedded font and nothing else.
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_font_data(FONT.to_vec());
            Arc::new(db)
        })
        .clone()
}

/// Parses `svg` and draws it at its own size onto a transparent canvas.
pub(crate) fn pixmap(svg: &str) -> Result<Pixmap, PictureError> {
    scaled_pixmap(svg, 1.0)
}

/// Parses `svg` and draws it at `scale` times its own size onto a transparent canvas.
pub(crate) fn scaled_pixmap(svg: &str, scale: f32) -> Result<Pixmap, PictureError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree.size();
    let (width, height) = (
        (size.width() * scale).round() as u32,
        (size.height() * scale).round() as u32,
    );
    let mut pixmap = Pixmap::new(width, height).ok_or(PictureError::Canvas { width, height })?;
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Parses `svg`, draws it at its own size and returns the PNG.
pub(crate) fn render(svg: &str) -> Result<Vec<u8>, PictureError> {
    encode(&pixmap(svg)?)
}

/// The colours of an opaque pixmap, row by row; None when some pixel is not opaque.
pub(crate) fn opaque_pixels(pixmap: &Pixmap) -> Option<Vec<Rgb>> {
    // Premultiplied equals straight when alpha is full.
    let mut out = Vec::with_capacity(pixmap.data().len() / 4);
    for p in pixmap.data().chunks_exact(4) {
        let &[r, g, b, a] = p else { return None };
        if a != u8::MAX {
            return None;
        }
        out.push([r, g, b]);
    }
    Some(out)
}

/// The pixels as PNG: an opaque picture (a picture always is: water, or the chart's
/// paper, fills the canvas) in at most 256 colours, indexed (`quantise`), else RGBA,
/// straight alpha.
///
/// The indexed picture is compressed by zlib's balanced level with no row filter:
/// filters help photographs, not palette indices, and the balanced level makes a board a
/// third smaller than the fast one for 10 ms more (figures in `docs/decisions.md`).
pub(crate) fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, PictureError> {
    let (width, height) = (pixmap.width(), pixmap.height());
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_depth(png::BitDepth::Eight);
    let data = match opaque_pixels(pixmap) {
        Some(rgb) => {
            let indexed = quantise(&rgb, 256);
            encoder.set_color(png::ColorType::Indexed);
            encoder.set_palette(indexed.palette_bytes());
            encoder.set_compression(png::Compression::Balanced);
            encoder.set_filter(png::Filter::NoFilter);
            indexed.pixels
        }
        None => {
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_compression(png::Compression::Fast);
            pixmap
                .pixels()
                .iter()
                .flat_map(|p| {
                    let c = p.demultiply();
                    [c.red(), c.green(), c.blue(), c.alpha()]
                })
                .collect()
        }
    };
    let png_error = |e: png::EncodingError| PictureError::Png(e.to_string());
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(&data).map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    Ok(out)
}
