//! dipjudge: a play-by-email Diplomacy judge.
//!
//! ```text
//! mailbox (IMAP or Maildir) -> mail::inbound -> command (nom) -> judge (one SQLite
//! transaction per message) -> store -> mail::outbound
//! clock tick -> judge::tick(now) -> game -> rules::adjudicate (pure) -> bulletin -> outbox
//! ```
//!
//! Layers, lowest first; each uses only the ones above it:
//!
//! | module | owns |
//! | --- | --- |
//! | [`map`] | provinces, coasts, adjacency, supply centres; the standard map as data |
//! | [`rules`] | positions, orders, DATC adjudication of movement, retreats, adjustments; the variant hooks |
//! | [`cases`] | the DATC-style case-file format and its runner |
//! | [`sim`] | random legal play from a fixed seed, for benchmarks and property tests |
//! | [`bulletin`] | rendering results bulletins, replies and press for each audience; never decides a rule |
//! | [`mail`] | IMAP / Maildir in, SMTP / Maildir out, MIME, loop and bounce protection |
//!
//! The core (map, rules) does no I/O and reads no clock: the same inputs give the same
//! results, byte for byte.
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
pub mod mail;
pub mod map;
pub mod rules;
pub mod sim;
