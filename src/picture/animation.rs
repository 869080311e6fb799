//! A game's phases as one animated GIF (`MAP game ALL`): one frame a phase, drawn from its
//! SVG like the phase's PNG, looping.
//!
//! GIF, because nearly every mail client shows it animated inline (Gmail, Outlook on the
//! web and on the desktop, Apple Mail, Thunderbird); an animated PNG shows only its first
//! frame in Gmail and Outlook, and an archive is not shown at all (`docs/decisions.md`).
//!
//! Kept small: after the first frame only the rectangle holding the pixels that changed is
//! written, the unchanged ones in it transparent, so a phase costs what its new units,
//! arrows and owners cost; each frame's changed pixels get 255 colours of their own
//! (`quantise`: the flat colours exact). A frame of another size than the first is
//! refused.

use std::borrow::Cow;

use super::PictureError;
use super::png::{opaque_pixels, scaled_pixmap};
use super::quantise::{Rgb, quantise};

/// How long a phase's frame shows, in hundredths of a second.
pub const FRAME_DELAY: u16 = 200;
/// How long the last frame shows before the animation starts again.
pub const LAST_FRAME_DELAY: u16 = 600;

/// The most bytes an animation of a game may take: a mail of its base64 is then under
/// 7 MB, within what mail servers commonly take (10 MB). A game whose animation would be
/// larger is drawn at half the size (a quarter of the pixels), and one still larger is
/// not drawn. A busy ten-year game takes about 0.7 MB (`docs/decisions.md`).
pub const ANIMATION_LIMIT: usize = 5 << 20;

/// The palette index left transparent in every frame after the first.
const TRANSPARENT: u8 = 255;

/// An animated GIF being made, one frame at a time (only the last frame's pixels are
/// kept, never all of them).
pub struct Animation {
    encoder: Option<gif::Encoder<Vec<u8>>>,
    /// The canvas: the first frame's size.
    size: (u16, u16),
    /// The last frame's pixels as drawn (before quantisation): a pixel whose drawn colour
    /// did not change keeps what the animation shows there.
    last: Vec<Rgb>,
    frames: usize,
    /// The frames are drawn at this times their SVG's size.
    scale: f32,
}

impl Default for Animation {
    fn default() -> Self {
        Animation::new()
    }
}

impl Animation {
    pub fn new() -> Animation {
        Animation::scaled(1.0)
    }

    /// An animation whose frames are drawn at `scale` times their SVG's size.
    pub fn scaled(scale: f32) -> Animation {
        Animation {
            encoder: None,
            size: (0, 0),
            last: Vec::new(),
            frames: 0,
            scale,
        }
    }

    /// The GIF's size so far, in bytes.
    pub fn bytes(&self) -> usize {
        self.encoder.as_ref().map_or(0, |e| e.get_ref().len())
    }

    /// How many frames were added.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Adds one frame: `svg` drawn at its own size (times the animation's scale; the first
    /// frame sets the canvas), shown for `delay` hundredths of a second.
    pub fn push_svg(&mut self, svg: &str, delay: u16) -> Result<(), PictureError> {
        let pixmap = scaled_pixmap(svg, self.scale)?;
        let (w, h) = (pixmap.width(), pixmap.height());
        let wrong_size = PictureError::Canvas {
            width: w,
            height: h,
        };
        let (Ok(width), Ok(height)) = (u16::try_from(w), u16::try_from(h)) else {
            return Err(wrong_size);
        };
        // A picture is opaque (water or paper fills it); a transparent pixel reads as white.
        let rgb = opaque_pixels(&pixmap).unwrap_or_else(|| {
            pixmap
                .pixels()
                .iter()
                .map(|p| {
                    let c = p.demultiply();
                    let a = u16::from(c.alpha());
                    let over = |v: u8| ((u16::from(v) * a + 255 * (255 - a)) / 255) as u8;
                    [over(c.red()), over(c.green()), over(c.blue())]
                })
                .collect()
        });
        let gif_error = |e: gif::EncodingError| PictureError::Gif(e.to_string());
        let frame = match &mut self.encoder {
            None => {
                let mut encoder =
                    gif::Encoder::new(Vec::new(), width, height, &[]).map_err(gif_error)?;
                encoder
                    .set_repeat(gif::Repeat::Infinite)
                    .map_err(gif_error)?;
                self.encoder = Some(encoder);
                self.size = (width, height);
                let indexed = quantise(&rgb, 256);
                gif::Frame {
                    delay,
                    width,
                    height,
                    palette: Some(indexed.palette_bytes()),
                    buffer: Cow::Owned(indexed.pixels),
                    ..gif::Frame::default()
                }
            }
            Some(_) => {
                if (width, height) != self.size {
                    return Err(wrong_size);
                }
                changed_part(&self.last, &rgb, width, delay)
            }
        };
        if let Some(encoder) = &mut self.encoder {
            encoder.write_frame(&frame).map_err(gif_error)?;
        }
        self.last = rgb;
        self.frames += 1;
        Ok(())
    }

    /// The GIF; None when no frame was added.
    pub fn finish(self) -> Result<Option<Vec<u8>>, PictureError> {
        match self.encoder {
            None => Ok(None),
            Some(e) => e
                .into_inner()
                .map(Some)
                .map_err(|e| PictureError::Gif(e.to_string())),
        }
    }
}

/// The frame that turns `last` into `next`: the rectangle holding every changed pixel, in
/// 255 colours of its own, the unchanged pixels in it transparent (one transparent pixel
/// when nothing changed, so that the frame still takes its time).
fn changed_part<'a>(last: &[Rgb], next: &[Rgb], width: u16, delay: u16) -> gif::Frame<'a> {
    let w = usize::from(width).max(1);
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    for (i, (a, b)) in last.iter().zip(next).enumerate() {
        if a != b {
            let (x, y) = (i % w, i / w);
            bounds = Some(match bounds {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    let (x0, y0, x1, y1) = bounds.unwrap_or((0, 0, 0, 0));
    // The changed pixels of the rectangle, row by row, and where they are.
    let mut changed = Vec::new();
    let mut mask = Vec::with_capacity((x1 - x0 + 1) * (y1 - y0 + 1));
    for y in y0..=y1 {
        for x in x0..=x1 {
            let i = y * w + x;
            let is_changed = bounds.is_some() && last.get(i) != next.get(i);
            if is_changed && let Some(c) = next.get(i) {
                changed.push(*c);
            }
            mask.push(is_changed);
        }
    }
    let indexed = quantise(&changed, usize::from(TRANSPARENT));
    let mut indices = indexed.pixels.iter();
    let buffer = mask
        .iter()
        .map(|c| match c {
            true => indices.next().copied().unwrap_or(TRANSPARENT),
            false => TRANSPARENT,
        })
        .collect();
    let mut palette = indexed.palette_bytes();
    palette.resize(256 * 3, 0);
    let side = |a: usize| u16::try_from(a).unwrap_or(u16::MAX);
    gif::Frame {
        delay,
        transparent: Some(TRANSPARENT),
        left: side(x0),
        top: side(y0),
        width: side(x1 - x0 + 1),
        height: side(y1 - y0 + 1),
        palette: Some(palette),
        buffer: Cow::Owned(buffer),
        ..gif::Frame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(fill: &str, square: Option<(u32, &str)>) -> String {
        let extra = square.map_or(String::new(), |(x, c)| {
            format!("<rect x=\"{x}\" y=\"4\" width=\"4\" height=\"4\" fill=\"{c}\"/>")
        });
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\">\
             <rect width=\"40\" height=\"20\" fill=\"{fill}\"/>{extra}</svg>"
        )
    }

    /// Decodes a GIF: each frame's (left, top, width, height, delay) and the canvas
    /// after it, as colours.
    #[allow(clippy::type_complexity)]
    fn frames(bytes: &[u8]) -> Vec<((u16, u16, u16, u16, u16), Vec<[u8; 4]>)> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(bytes).expect("a GIF");
        let (w, h) = (decoder.width() as usize, decoder.height() as usize);
        let mut canvas = vec![[0u8; 4]; w * h];
        let mut out = Vec::new();
        while let Some(f) = decoder.read_next_frame().expect("a frame") {
            let (l, t, fw) = (f.left as usize, f.top as usize, f.width as usize);
            for (i, px) in f.buffer.chunks_exact(4).enumerate() {
                if px[3] == 0 {
                    continue;
                }
                let (x, y) = (l + i % fw, t + i / fw);
                canvas[y * w + x] = [px[0], px[1], px[2], px[3]];
            }
            out.push(((f.left, f.top, f.width, f.height, f.delay), canvas.clone()));
        }
        out
    }

    #[test]
    fn each_frame_after_the_first_holds_only_what_changed() {
        let mut a = Animation::new();
        a.push_svg(&svg("#C4D7E4", None), FRAME_DELAY)
            .expect("frame 1");
        a.push_svg(&svg("#C4D7E4", Some((8, "#D55E00"))), FRAME_DELAY)
            .expect("frame 2");
        a.push_svg(&svg("#C4D7E4", Some((8, "#D55E00"))), LAST_FRAME_DELAY)
            .expect("frame 3");
        assert_eq!(a.frames(), 3);
        let gif = a.finish().expect("encoded").expect("frames");
        let frames = frames(&gif);
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[0].0, (0, 0, 40, 20, FRAME_DELAY));
        // The square, and only it.
        assert_eq!(frames[1].0, (8, 4, 4, 4, FRAME_DELAY));
        assert_eq!(frames[1].1[5 * 40 + 9], [0xD5, 0x5E, 0x00, 255]);
        assert_eq!(frames[1].1[5 * 40 + 20], [0xC4, 0xD7, 0xE4, 255]);
        // Nothing changed: one transparent pixel carries the delay.
        assert_eq!(frames[2].0, (0, 0, 1, 1, LAST_FRAME_DELAY));
        assert_eq!(frames[2].1, frames[1].1);
    }

    #[test]
    fn a_scaled_animation_draws_smaller_frames() {
        let mut a = Animation::scaled(0.5);
        a.push_svg(&svg("#C4D7E4", Some((8, "#D55E00"))), 1)
            .expect("frame");
        assert!(a.bytes() > 0);
        let gif = a.finish().expect("encoded").expect("frames");
        let frames = frames(&gif);
        assert_eq!(frames[0].0, (0, 0, 20, 10, 1));
        assert_eq!(frames[0].1[3 * 20 + 5], [0xD5, 0x5E, 0x00, 255]);
    }

    #[test]
    fn no_frames_is_no_gif_and_a_larger_frame_is_refused() {
        assert_eq!(Animation::new().finish().expect("nothing"), None);
        let mut a = Animation::new();
        a.push_svg(&svg("#FFFFFF", None), 1).expect("frame");
        let big = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"80\" height=\"20\"/>";
        assert!(matches!(
            a.push_svg(big, 1),
            Err(PictureError::Canvas { .. })
        ));
    }
}
