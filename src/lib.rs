//! dipjudge: a play-by-email Diplomacy judge.
//!
//! ```text
//! mailbox (IMAP or Maildir) -> mail::inbound -> command (nom) -> judge (one SQLite
//! transaction per message) -> store -> mail::outbound
//! clock tick -> judge::tick(now) -> game -> rules::adjudicate (pure) -> bulletin -> outbox
//! ```
//!
//! Layers, lowest first; each uses only the ones above it (`tests/layers.rs` reads the
//! imports against this table):
//!
//! | module | owns |
//! | --- | --- |
//! | [`map`] | provinces, coasts, adjacency, supply centres; the standard map as data; boards (`boards/<name>/`: any powers, njudge's map files) as data |
//! | [`rules`] | positions, orders, DATC adjudication of movement, retreats, adjustments; the variant hooks |
//! | [`sim`] | random legal play from a fixed seed (its random numbers also assign powers), for benchmarks and property tests |
//! | [`command`] | the command language: mail text in, typed orders and commands (or errors) out; the settings words the game keeps |
//! | [`picture`] | the picture of a phase: board, units, orders and outcomes as SVG, and its PNG; the centre chart; a game as an animated GIF; a schematic of any board (pure; its benchmark borrows `sim`) |
//! | [`variant`] | the rule sets: the `Variant` hooks, their registry and state, processing a phase through them |
//! | [`game`] | a game's life as data: seats, settings, orders, deadlines, press policy, the end |
//! | [`store`] | SQLite: schema, migrations, every query; the only place SQL is written |
//! | [`bulletin`] | rendering results bulletins, replies, notices and listings; never decides a rule |
//! | [`judge`] | one message = one transaction: dedupe, authenticate, apply, queue; `tick(now)` |
//! | [`mail`] | IMAP / Maildir in, SMTP / Maildir out, MIME, loop and bounce protection |
//! | [`web`] | the read-only web view of every game for each reader, beside the mail loop |
//! | [`daemon`] | `judge.toml`, the pass (mail in, tick, outbox out), the loop, signals |
//! | [`cases`] | the DATC-style case-file format and its runner |
//!
//! The core (map, rules, sim, command, picture, variant, game, bulletin) does no I/O and
//! reads no clock: the same inputs give the same results, byte for byte.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::string_slice
    )
)]

pub mod bulletin;
pub mod cases;
pub mod command;
pub mod daemon;
pub mod game;
pub mod judge;
pub mod mail;
pub mod map;
pub mod picture;
pub mod rules;
pub mod sim;
pub mod store;
pub mod variant;
pub mod web;
