//! Why the game refuses a change: one typed value for each precondition a transition
//! checks, carrying what the sentence needs (the game's name, the powers, the date). The
//! judge says them in words, each with its stable code (`judge::refusal`); a seat's refusals
//! are [`SeatRefusal`]s, an order's the rules' ([`crate::rules::Refusal`]), a rule set's its
//! own ([`VariantRefusal`]).

use chrono::{DateTime, Utc};

use crate::command::Date;
use crate::map::Power;
use crate::rules::{Phase, VariantRefusal};

use super::SeatRefusal;

/// A change the game refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The game (named) is not running: forming, paused or over.
    NotActive(String),
    /// The game (named) takes no orders now: it is not running.
    NotTakingOrders(String),
    /// `RESUME` of a game (named) that is not paused.
    NotPaused(String),
    /// `PROCESS phase` names another phase than the one open now.
    WrongPhase { current: Phase, given: Phase },
    /// `PROCESS` while orders are missing, someone waits, or the rule set waits for the
    /// master.
    NotReady {
        missing: Vec<Power>,
        waiting: Vec<Power>,
        master: bool,
    },
    /// `PROCESS` before the start the master set (`SET START`, the schedule's `MIN`); the
    /// game's time zone says when.
    Held {
        until: DateTime<Utc>,
        zone: chrono_tz::Tz,
    },
    /// A date that cannot be placed in the game's calendar.
    BadDate,
    /// A deadline or a start that is not in the future.
    PastDate,
    /// A grace period that would end before the deadline (or a game without one).
    BadGrace,
    /// `SET MOVE|RETREAT|ADJUST … DAYS` that allow no day.
    BadDays,
    /// `SET MOVE|RETREAT|ADJUST … NEXT` under an hour.
    NextTooShort,
    /// `SET VARIANT` once the game (named) has started.
    VariantFixed(String),
    /// `SET PLAYERS` once the game (named) has started.
    PlayersFixed(String),
    /// `SET PLAYERS n` outside 2 to the number of powers.
    PlayersOutOfRange(usize),
    /// `SET PLAYERS n` with more than n joined already.
    PlayersJoined { joined: usize, game: String },
    /// `SET CENTRES` outside 1 to 34.
    BadCentreCount,
    /// `SET TAKEOVER` beyond the most a newcomer may be given.
    BadTakeoverHours(u32),
    /// `SET MAXABSENCE` beyond 31 days.
    BadMaxAbsence,
    /// `SET INVITE` once the game (named) has started.
    InvitationsStarted(String),
    /// More invitations at once than a game may have.
    TooManyInvitations(usize),
    /// `SET NOINVITE` of an address not invited.
    NotInvited(String),
    /// `SET ANONYMOUS` once the game (named) has started.
    AnonymousStarted(String),
    /// `SET ADDRESSES SHOWN` in an anonymous game.
    Anonymous,
    /// `PROMOTE` of an address that has a seat in the game.
    AlreadyInGame(String),
    /// More co-masters than a game may have.
    TooManyMasters(usize),
    /// `UNSTART` of a game (named) that has processed a phase.
    AlreadyProcessed(String),
    /// Powers (in words) that are not in the game any more.
    OutOfGame(String),
    /// `SET DRAW` naming other powers than the ones a draw must include.
    DrawRefused { asked: Vec<Power>, draw: Vec<Power> },
    /// `BECOME` a power nobody was ever seated at.
    NoPlayer { power: Power, game: String },
    /// An absence that ends before it starts, or before now.
    AbsenceBackwards,
    /// A player's absence longer than the game allows (days).
    AbsenceOverMax(i64),
    /// A seat with as many absences as it may have (how many).
    TooManyAbsences(usize),
    /// `SET NOABSENCE` with none set.
    NoAbsence,
    /// `SET NOABSENCE date` with none on that date.
    NoAbsenceOn(Date),
    /// `SET PREFERENCE` from an address that waits in no forming game.
    NotJoined,
    /// A join of a game (named) that is not forming.
    NotForming(String),
    /// A join from an address that joined already.
    AlreadyJoined { from: String, game: String },
    /// A join of a game (named) that has all the players it waits for.
    GameFull(String),
    /// A seat setting from no seat of the game (the mail did not sign on as one).
    NoSeat,
    /// A seat changing hands, refused.
    Seat(SeatRefusal),
    /// An order the rules refuse.
    Order(crate::rules::Refusal),
    /// A rule set's refusal (H1, H2).
    Variant(VariantRefusal),
}

impl From<SeatRefusal> for Refused {
    fn from(r: SeatRefusal) -> Self {
        Refused::Seat(r)
    }
}

impl From<VariantRefusal> for Refused {
    fn from(r: VariantRefusal) -> Self {
        Refused::Variant(r)
    }
}
