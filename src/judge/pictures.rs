//! The pictures mails carry: what is kept of each (a [`Drawing`]: what it shows, a few
//! kilobytes), the names outbox rows give them, and drawing them again when a mail is
//! sent, byte for byte, with a small cache so that the copies of one bulletin are drawn
//! once.
//!
//! A mail names its pictures `game/name`: `game/S1901M` is a processed phase (its drawing
//! is the phase's record, kept for good), `game/W1906A@<hash>` the board of an open phase
//! and `game/centres@<hash>` a centre chart, each kept until the last mail naming it is sent
//! (the hash is the drawing's, so equal drawings share one row), and `game/ALL` every
//! processed phase of the game as one animated GIF.

use std::collections::VecDeque;
use std::sync::Arc;

use blake2::Digest;

use crate::game::Game;
use crate::map::Map;
use crate::picture::{
    ANIMATION_LIMIT, Animation, Drawing, FRAME_DELAY, LAST_FRAME_DELAY, PictureError,
};
use crate::store::{QueuedMail, StoreError, Tx};

/// The name of a game's animation of all its phases.
pub(super) const ALL: &str = "ALL";

/// The name of a game's record as JSON (`EXPORT game`): not a picture, but it goes with a
/// mail the same way, drawn up when the mail is sent.
pub(super) const EXPORT: &str = "EXPORT";

/// The stem of a centre chart's name.
const CHART: &str = "centres";

/// A picture's name in an outbox row.
pub(super) fn reference(game: &str, name: &str) -> String {
    format!("{game}/{name}")
}

/// Keeps a processed phase's drawing as the phase's record (turn `seq`); returns the
/// picture's name for mails.
pub(super) fn keep_phase(
    tx: &Tx<'_>,
    game: &str,
    phase: &str,
    seq: u32,
    drawing: &Drawing,
) -> Result<String, StoreError> {
    tx.save_scene(game, phase, Some(seq), &drawing.encode())?;
    Ok(reference(game, phase))
}

/// Keeps a drawing for the mails about to name it (an open phase's board: `stem` is the
/// phase; a chart); returns the picture's name.
pub(super) fn keep_for_mails(
    tx: &Tx<'_>,
    game: &str,
    stem: &str,
    drawing: &Drawing,
) -> Result<String, StoreError> {
    let bytes = drawing.encode();
    let hash: String = blake2::Blake2s256::digest(&bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    let name = format!("{stem}@{hash}");
    tx.save_scene(game, &name, None, &bytes)?;
    Ok(reference(game, &name))
}

/// Whether a processed phase of a game has a picture: its drawing, or the SVG of a phase
/// processed before drawings were kept.
pub(super) fn has_phase(tx: &Tx<'_>, game: &str, phase: &str) -> Result<bool, StoreError> {
    Ok(tx.scene(game, phase)?.is_some() || tx.old_picture(game, phase)?.is_some())
}

/// The SVG of a processed phase's picture, if it has one (`dipjudge map`).
pub(super) fn phase_svg(
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

/// Keeps a game's centre chart for mails; returns its name.
pub(super) fn keep_chart(tx: &Tx<'_>, g: &Game) -> Result<String, StoreError> {
    let chart = super::chart::centre_chart(tx, g)?;
    keep_for_mails(tx, g.name(), CHART, &Drawing::Chart(chart))
}

/// The processed phases of a game in the order played, each with what its picture is drawn
/// from (phases without a picture left out).
fn phase_sources(tx: &Tx<'_>, game: &str) -> Result<Vec<Kept>, StoreError> {
    let snapshots = tx.snapshots(game)?;
    // The last snapshot is the phase open now (or the board after the last phase of a
    // finished game): not processed.
    let processed = snapshots.len().saturating_sub(1);
    let mut out = Vec::new();
    for s in snapshots.iter().take(processed) {
        let phase = s.position().phase.to_string();
        if let Some(bytes) = tx.scene(game, &phase)? {
            out.push(Kept::Drawing(bytes));
        } else if let Some(svg) = tx.old_picture(game, &phase)? {
            out.push(Kept::Svg(svg));
        }
    }
    Ok(out)
}

/// What a picture is drawn from.
#[derive(Clone, Debug)]
enum Kept {
    /// An encoded [`Drawing`].
    Drawing(Vec<u8>),
    /// An SVG drawn before drawings were kept.
    Svg(String),
}

impl Kept {
    fn svg(&self, map: &Map) -> Result<String, PictureError> {
        match self {
            Kept::Drawing(bytes) => Ok(Drawing::decode(bytes)?.svg(map)),
            Kept::Svg(svg) => Ok(svg.clone()),
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Kept::Drawing(b) => b,
            Kept::Svg(s) => s.as_bytes(),
        }
    }
}

/// One picture of a mail, as read from the store: its attachment's name and what it is
/// drawn from.
#[derive(Clone, Debug)]
pub(super) struct Source {
    name: String,
    what: What,
}

#[derive(Clone, Debug)]
enum What {
    /// A PNG of one drawing.
    Picture(Kept),
    /// A GIF of a game's phases.
    Animation(Vec<Kept>),
    /// A game's record, as JSON (drawn up already: it is read from the store).
    Record(Vec<u8>),
    /// Nothing by that name any more (a game deleted since).
    Gone,
}

/// What the pictures a mail names are drawn from (read in one transaction; drawn after it,
/// so that no write waits for the drawing).
pub(super) fn sources(
    map: &Map,
    tx: &Tx<'_>,
    mail: &QueuedMail,
) -> Result<Vec<Source>, StoreError> {
    let mut out = Vec::new();
    for name in &mail.pictures {
        // A mail queued before version 6 names one phase of its game.
        let (game, picture) = match name.split_once('/') {
            Some((g, p)) => (g.to_string(), p.to_string()),
            None => (mail.game.clone().unwrap_or_default(), name.clone()),
        };
        let stem = picture.split('@').next().unwrap_or_default();
        if picture == EXPORT {
            let what = match tx.load_game(&game)? {
                Some(g) => What::Record(
                    serde_json::to_vec_pretty(&super::export::export(map, tx, &g)?)
                        .unwrap_or_default(),
                ),
                None => What::Gone,
            };
            let name = crate::bulletin::pictures::export_name(&game);
            out.push(Source { name, what });
            continue;
        }
        let what = if picture == ALL {
            let phases = phase_sources(tx, &game)?;
            if phases.is_empty() {
                What::Gone
            } else {
                What::Animation(phases)
            }
        } else if let Some(bytes) = tx.scene(&game, &picture)? {
            What::Picture(Kept::Drawing(bytes))
        } else if let Some(svg) = tx.old_picture(&game, &picture)? {
            What::Picture(Kept::Svg(svg))
        } else {
            What::Gone
        };
        let file =
            crate::bulletin::pictures::attachment_name(&game, (picture != ALL).then_some(stem));
        out.push(Source { name: file, what });
    }
    Ok(out)
}

/// A picture ready to go with a mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailPicture {
    /// The attachment's file name: `concert-S1901M.png`, `concert-centres.png`,
    /// `concert-all.gif`.
    pub filename: String,
    /// `image/png` or `image/gif`.
    pub content_type: &'static str,
    pub bytes: Arc<Vec<u8>>,
}

/// The last pictures drawn, by a hash of what they were drawn from: the copies of one
/// bulletin go out one after another and are drawn once. Drawing is deterministic, so the
/// cache only saves time: a restart draws the same bytes again.
#[derive(Debug, Default)]
pub(super) struct Cache {
    entries: VecDeque<([u8; 32], Arc<Vec<u8>>)>,
}

/// How many pictures the cache keeps, and how many bytes at most (an animation of a long
/// game is a few megabytes).
const CACHE_ENTRIES: usize = 8;
const CACHE_BYTES: usize = 32 << 20;

impl Cache {
    fn get(&self, key: &[u8; 32]) -> Option<Arc<Vec<u8>>> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }

    fn put(&mut self, key: [u8; 32], bytes: Arc<Vec<u8>>) {
        self.entries.push_back((key, bytes));
        while self.entries.len() > CACHE_ENTRIES
            || self.entries.iter().map(|(_, v)| v.len()).sum::<usize>() > CACHE_BYTES
        {
            if self.entries.pop_front().is_none() {
                break;
            }
        }
    }
}

/// Draws one of a mail's pictures (None: it is gone).
pub(super) fn draw(
    map: &Map,
    cache: &mut Cache,
    source: &Source,
) -> Result<Option<MailPicture>, PictureError> {
    let (content_type, kept): (&'static str, Vec<&Kept>) = match &source.what {
        What::Gone => return Ok(None),
        What::Record(json) => {
            return Ok(Some(MailPicture {
                filename: source.name.clone(),
                content_type: "application/json",
                bytes: Arc::new(json.clone()),
            }));
        }
        What::Picture(k) => ("image/png", vec![k]),
        What::Animation(frames) => ("image/gif", frames.iter().collect()),
    };
    let mut hash = blake2::Blake2s256::new();
    hash.update(content_type.as_bytes());
    for k in &kept {
        hash.update((k.bytes().len() as u64).to_le_bytes());
        hash.update(k.bytes());
    }
    let key: [u8; 32] = hash.finalize().into();
    let bytes = match cache.get(&key) {
        Some(b) => b,
        None => {
            let b = Arc::new(match &source.what {
                What::Animation(frames) => animation(map, frames)?,
                _ => {
                    let svg = kept.first().map(|k| k.svg(map)).transpose()?;
                    crate::picture::render_png(&svg.unwrap_or_default())?
                }
            });
            cache.put(key, b.clone());
            b
        }
    };
    Ok(Some(MailPicture {
        filename: source.name.clone(),
        content_type,
        bytes,
    }))
}

/// Every phase as one frame of a GIF, the last one shown longer; at half the size when it
/// would take more than [`ANIMATION_LIMIT`] bytes, and not at all when it still would.
fn animation(map: &Map, frames: &[Kept]) -> Result<Vec<u8>, PictureError> {
    'scale: for scale in [1.0, 0.5] {
        let mut a = Animation::scaled(scale);
        for (i, k) in frames.iter().enumerate() {
            let delay = if i + 1 == frames.len() {
                LAST_FRAME_DELAY
            } else {
                FRAME_DELAY
            };
            a.push_svg(&k.svg(map)?, delay)?;
            if a.bytes() > ANIMATION_LIMIT {
                continue 'scale;
            }
        }
        let gif = a.finish()?.unwrap_or_default();
        if gif.len() <= ANIMATION_LIMIT {
            return Ok(gif);
        }
    }
    Err(PictureError::TooLarge {
        frames: frames.len(),
        limit: ANIMATION_LIMIT,
    })
}

/// What a game's animation of all its processed phases is drawn from (`dipjudge map
/// --all`); empty when no phase has a picture.
pub(super) fn animation_frames(tx: &Tx<'_>, game: &str) -> Result<Frames, StoreError> {
    Ok(Frames(phase_sources(tx, game)?))
}

/// The frames of an animation, read from the store.
#[derive(Clone, Debug)]
pub(super) struct Frames(Vec<Kept>);

impl Frames {
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// The GIF; None when there is no frame.
    pub(super) fn draw(&self, map: &Map) -> Result<Option<Vec<u8>>, PictureError> {
        if self.0.is_empty() {
            return Ok(None);
        }
        animation(map, &self.0).map(Some)
    }
}
