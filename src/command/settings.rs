//! The settings words a master writes and a game keeps: what press a game allows, what
//! observers read and send, and the classes of phase a schedule is set for. One vocabulary
//! for the parser (which reads `SET GREY`, `SET WATCH WHITE`, `SET MOVE …`) and for the
//! game (which stores them): `game` re-exports these types and never mirrors them.
//!
//! Pure data: the names are the stored names (a game's JSON keeps `"WhiteGrey"`, `"Any"`,
//! `"Movement"`), so a variant is never renamed.

use serde::{Deserialize, Serialize};

/// What press a game allows (`SET NO PRESS`, `SET GREY`, `SET WHITE`, `SET WHITE/GREY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PressLevel {
    /// No press between players (press to the master is always allowed).
    None,
    /// Signed press only.
    White,
    /// Anonymous press only.
    Grey,
    /// Both; signed unless the sender says GREY (`SET WHITE/GREY`).
    WhiteGrey,
    /// Both; anonymous unless the sender says WHITE (njudge's `SET GREY/WHITE`).
    GreyWhite,
}

/// What observers read (`SET WATCH`), or what they may send (`SET OBSERVER`, njudge's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObserverLevel {
    /// Read: anyone may observe and receives broadcasts and results. Send: press as the
    /// players may, under the game's press rules.
    Any,
    /// Read: results and white (signed) broadcasts only. Send: signed broadcasts only.
    White,
    /// Read: no observers. Send: press to the master only.
    None,
}

/// The classes of phase a schedule is set for (njudge's `SET MOVE`, `SET RETREAT`,
/// `SET ADJUST`). The phases a rule set adds take their lengths from one of these
/// (`game::phase_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ScheduleClass {
    Movement,
    Retreat,
    Adjustment,
}

impl ScheduleClass {
    pub const ALL: [ScheduleClass; 3] = [
        ScheduleClass::Movement,
        ScheduleClass::Retreat,
        ScheduleClass::Adjustment,
    ];

    /// njudge's word: `MOVE`, `RETREAT`, `ADJUST`.
    pub fn word(self) -> &'static str {
        match self {
            ScheduleClass::Movement => "MOVE",
            ScheduleClass::Retreat => "RETREAT",
            ScheduleClass::Adjustment => "ADJUST",
        }
    }
}
