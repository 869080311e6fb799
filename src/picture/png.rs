//! Rasterising a picture's SVG to PNG with `resvg`, using only the compiled-in font, so
//! every machine draws the same pixels.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

use super::PictureError;

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

/// Parses `svg` and draws it at its own size onto a transparent canvas; returns the PNG.
pub(crate) fn render(svg: &str) -> Result<Vec<u8>, PictureError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap = Pixmap::new(width, height).ok_or(PictureError::Canvas { width, height })?;
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    encode(&pixmap)
}

/// The pixels as PNG: RGB when every pixel is opaque (a picture always is: water fills
/// the canvas), else RGBA, straight alpha.
///
/// Not `Pixmap::encode_png`: its default (balanced) compression took 35 ms of a 60 ms
/// render; `png`'s fast mode (fdeflate, adaptive filters) takes 4 ms for a file about a
/// tenth larger.
fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, PictureError> {
    let opaque = pixmap.pixels().iter().all(|p| p.alpha() == u8::MAX);
    let (colour, data): (png::ColorType, Vec<u8>) = if opaque {
        // Premultiplied equals straight when alpha is full.
        let rgb = pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|p| p.iter().take(3).copied())
            .collect();
        (png::ColorType::Rgb, rgb)
    } else {
        let rgba = pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        (png::ColorType::Rgba, rgba)
    };
    let mut out = Vec::with_capacity(data.len() / 6);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(colour);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let png_error = |e: png::EncodingError| PictureError::Png(e.to_string());
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(&data).map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    Ok(out)
}
