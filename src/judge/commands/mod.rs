//! The commands, one unit a family: each takes a command the session has parsed and
//! proved the speaker of, calls the `Game` transition (which checks the refusals), and
//! picks who is told and in which words (`bulletin`).
//!
//! The families: [`signon`] (CREATE, SIGNON, joining, takeover), [`orders`] (orders, a
//! rule set's commands, CLEAR), [`press`], [`schedule`] (deadlines, the schedule,
//! absences), [`seats`] (a player's seat, the master's seat commands), [`votes`] (draws
//! and concessions), [`settings`] (the master's SET), [`processing`] (PROCESS, PREVIEW,
//! ROLLBACK, UNSTART, the game's end), [`listings`] (LIST, MAP, SUMMARY, EXPORT, HISTORY)
//! and [`people`] (WHOIS, records, entry gates). `session` dispatches to them; how to add
//! a command is in `docs/adding-a-command.md`.

pub(super) mod listings;
pub(super) mod orders;
pub(super) mod people;
pub(super) mod press;
pub(super) mod processing;
pub(super) mod schedule;
pub(super) mod seats;
pub(super) mod settings;
pub(super) mod signon;
pub(super) mod votes;

use crate::game::Game;

use super::refusal::{Refusal, SessionError};

/// What a master's command adds to its reply after `OK` (the lines), or why it is refused.
pub(super) type More = Result<Vec<String>, SessionError>;

/// The game the mail signed on to, for a command that changes it.
pub(super) fn signed_on(game: &mut Option<Game>) -> Result<&mut Game, Refusal> {
    game.as_mut().ok_or(Refusal::NotSignedOn)
}
