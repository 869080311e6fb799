//! DATC-style case files: their format (`parse`, `docs/rules/README.md` §2.3 and
//! `fixtures/README.md`) and running them through the judge (`run`), as
//! `dipjudge adjudicate` and `cargo test` do.
//!
//! A case sets up a game, mails its commands and orders, processes its phase (and as much
//! of the season as its checks need) and compares what came out with the expected blocks.
//! Differences are reported, never panicked on.

mod parse;
mod run;

pub use parse::{
    Case, CaseError, Expect, ExpectedOptions, ExpectedReply, ExpectedResult, Marker, ScriptLine,
    parse_cases, parse_phase, parse_power_order,
};
pub use run::{CaseReport, RunError, run_case};
