//! Why the judge refused a line of a mail: one typed value per refusal, each with its stable
//! code (`NOT-SIGNED-ON`, `NO-UNIT`, `SRV-E5`) and its sentence for the player.
//!
//! The refusals of the judge itself are listed here; an order's refusal comes from the rules
//! ([`crate::rules::Refusal`]), a press refusal from the game ([`PressRefusal`]) and a rule
//! set's from its hooks ([`VariantRefusal`]), each carried as it is.

use crate::bulletin::settings as text;
use crate::game::{PressRefusal, Refused, SeatRefusal};
use crate::map::Power;
use crate::rules::{self, Phase, VariantRefusal};
use crate::store::StoreError;

/// A refused command line.
#[derive(Clone, Debug, thiserror::Error)]
pub(super) enum Refusal {
    #[error("sign on first: SIGNON <power initial><game> <password>")]
    NotSignedOn,
    #[error("sign on as a power before ordering: SIGNON <initial><game> <password>")]
    NotSignedOnToOrder,
    #[error(
        "sign on as a power, as the master or as an observer (SIGNON Ogame password) before sending press"
    )]
    NotSignedOnForPress,
    #[error("sign on as a power or as the master before giving {0}")]
    NotSignedOnForVariant(String),
    #[error("sign on as the master first: SIGNON M<game> <password>")]
    NotMaster,
    /// An order after a `PHASE` line that was refused (line `0`): it was written for that
    /// phase, so it is not applied to the phase open now (issue 38).
    #[error(
        "not applied: the PHASE line {0} above was refused, and the orders after it are for that phase, not for the one open now"
    )]
    AfterRefusedPhase(usize),
    #[error(
        "a new password needs at least {} characters: a password is all that stands between your seat and anyone who knows the game's name",
        super::password::MIN_PASSWORD_CHARS
    )]
    ShortPassword,
    /// A seat was sent too many wrong passwords from other addresses than its own within
    /// the hour (`throttle`).
    #[error(
        "this seat has been sent {} wrong passwords from other addresses than its own within the hour: no password from them is checked until {until}, the right one included; its own address is not locked out, and it will be told",
        super::bounds::CHECKS_PER_HOUR
    )]
    SignonLocked { until: String },
    /// A seat was sent too many wrong passwords from its own address within the hour.
    #[error(
        "this seat has been sent {} wrong passwords from its own address within the hour: no password from it is checked until {until}, the right one included; the address will be told",
        super::bounds::OWNER_CHECKS_PER_HOUR
    )]
    OwnerLocked { until: String },
    /// One address sent too many wrong passwords, over every seat, within the hour.
    #[error(
        "your address has sent {} wrong passwords within the hour: none from it is checked until {until}, the right one included",
        super::bounds::SENDER_CHECKS_PER_HOUR
    )]
    SenderLocked { until: String },
    /// A private game was sent too many wrong join passwords or codes within the hour.
    #[error(
        "this game has been sent {} wrong join passwords or invitation codes within the hour: none is checked until {until}, the right one included",
        super::bounds::CHECKS_PER_HOUR
    )]
    JoinLocked { until: String },
    #[error("only one SIGNON per message")]
    TwoSignons,
    /// An address no seat, invitation, co-master or link may have (`addresses`).
    #[error("the judge cannot send mail to {address}: {why}")]
    BadAddress { address: String, why: &'static str },
    /// The judge's own address, named for a seat, an invitation, a co-master or a link.
    #[error("{0} is the judge's own address: no seat, invitation or link can be there")]
    OwnAddress(String),
    /// One answer for a missing game and a wrong password: no hint which it was.
    #[error("no such game, or a wrong password")]
    BadSignon,
    #[error("there is no game called {0}")]
    NoGame(String),
    /// The game could not be read or processed and waits for the operator.
    #[error(
        "{game} is suspended: {reason}; its master has been told, and nothing is done in it until the judge's operator lifts the suspension"
    )]
    Suspended { game: String, reason: String },
    #[error("{game} has no picture of {phase}: a phase is drawn when it is processed")]
    NoPicture { game: String, phase: String },
    #[error(
        "pictures of {0} go to its players and master, signed on, and its observers: sign on first"
    )]
    NoPictureForYou(String),
    #[error(
        "the record of {0} goes to its players and master, signed on, and its observers: sign on or OBSERVE {0} first"
    )]
    NoExportForYou(String),
    #[error(
        "this address has created {0} games in the last 24 hours, as many as this judge allows"
    )]
    TooManyGames(u32),
    /// The addresses that never answered a confirmation created the judge's day's share.
    #[error(
        "{0} games were created in the last 24 hours by addresses that have not confirmed themselves, as many as this judge takes; confirm this address first (mail SET MAP ON and answer the confirmation the judge mails to it), or try again tomorrow"
    )]
    TooManyNewGames(u32),
    /// An address had its day's share of invitations and co-masters' passwords.
    #[error(
        "{address} has been mailed {per_day} invitations or co-master passwords in the last 24 hours, as many as the judge sends an address on someone else's word; try again tomorrow"
    )]
    MailedEnough { address: String, per_day: usize },
    #[error(
        "{0} is still being played: MAP {0} ALL is for a finished game (MAP {0} phase gives one phase's picture)"
    )]
    NotFinished(String),
    #[error("a game called {0} already exists")]
    GameExists(String),
    /// The rule set named, and those the judge runs.
    #[error("this judge does not run the {0} rules yet; it runs {runs}", runs = .1.join(", "))]
    VariantNotImplemented(&'static str, Vec<&'static str>),
    /// The name given, and the rule sets the judge knows.
    #[error("there are no rules called \"{0}\"; this judge knows {known}", known = .1.join(", "))]
    UnknownVariant(String, Vec<&'static str>),
    #[error("{0} has started: its rules can no longer change")]
    VariantFixed(String),
    #[error("{0}")]
    BadSetting(String),
    #[error("{0} is not taking new players")]
    NotForming(String),
    #[error("{from} has already joined {game}")]
    AlreadyJoined { from: String, game: String },
    /// `SIGNON ?game` when every player the game waits for has joined (it starts when its
    /// start time comes).
    #[error("{0} has all the players it waits for")]
    GameFull(String),
    /// `SET PLAYERS` once the game has started.
    #[error("{0} has started: its number of players can no longer change")]
    PlayersFixed(String),
    /// `SET PLAYERS n` outside 2 to the number of powers.
    #[error(
        "a game has 2 to {0} players (SET PLAYERS {0}: one player a power; fewer: a duplex game, each player holding several powers)"
    )]
    PlayersOutOfRange(usize),
    /// `SET PLAYERS n` with more than n joined already.
    #[error("{joined} players have joined {game} already: SET PLAYERS cannot ask for fewer")]
    PlayersJoined { joined: usize, game: String },
    /// Press a duplex player names one of their own powers in (`PRESS TO R` while holding
    /// Russia): it would only come back to them.
    #[error(
        "you hold {} yourself in this duplex game: press to your own powers is not sent; name only the powers of other players",
        crate::variant::list_powers(.0)
    )]
    OwnPowers(Vec<Power>),
    #[error("{0} takes no observers")]
    NoObservers(String),
    /// `SIGNON Ogame` from an observer that has no observer password (it observed before
    /// observers had them).
    #[error(
        "this address observes {0} but has no observer password yet: send OBSERVE {0} and the answer gives you one"
    )]
    NoObserverPassword(String),
    #[error("{0} takes no observers: its history is for its players and master, signed on")]
    HistoryClosed(String),
    #[error("this address does not observe {0}")]
    NotObserving(String),
    #[error("no confirmation waits for this address (a confirmation lasts a day)")]
    NothingToConfirm,
    #[error("that is not the code the judge mailed to this address")]
    WrongConfirmation,
    /// A confirmation was sent too many wrong codes from other addresses.
    #[error(
        "this confirmation has been sent {} wrong codes from other addresses: it takes its code only from the address itself now",
        super::bounds::STRANGER_WRONG_CODES
    )]
    ConfirmationLocked,
    #[error("preferences are for players waiting in a forming game")]
    NotJoined,
    #[error("that date cannot be placed in the game's calendar")]
    BadDate,
    #[error("the grace period must end after the deadline")]
    BadGrace,
    #[error("the new deadline must be in the future")]
    PastDate,
    #[error("{0} is not running (no orders are taken now)")]
    NotTakingOrders(String),
    #[error("{0} is not running")]
    NotActive(String),
    #[error("{0} is not paused")]
    NotPaused(String),
    #[error("{power} has no player in {game}")]
    NoPlayer { power: Power, game: String },
    #[error("the current phase is {current}, not {given}")]
    WrongPhase { current: Phase, given: Phase },
    /// `PROCESS` while orders are missing or someone waits: what it waits for, in words.
    #[error("{0}; PROCESS! processes now with civil-disorder defaults")]
    NotReady(String),
    #[error("{0} has started: invitations are only before it starts")]
    InvitationsStarted(String),
    #[error("{0} has started: a game is made anonymous or not only before it starts")]
    AnonymousStarted(String),
    #[error(
        "{0} has processed a phase already: UNSTART is only for a game whose first phase is not processed"
    )]
    AlreadyProcessed(String),
    #[error("{0} already has a seat in this game: a player cannot also be its master")]
    AlreadyInGame(String),
    #[error("a game has at most {0} co-masters")]
    TooManyMasters(usize),
    #[error("a game has at most {0} invitations at once")]
    TooManyInvitations(usize),
    #[error("{0} is not invited")]
    NotInvited(String),
    #[error(
        "{0} is private: joining needs its join password or an invitation's code, after your password: SIGNON ?{0} <your password> <join password or code>"
    )]
    PrivateGame(String),
    #[error("{0}")]
    DrawRefused(String),
    #[error("{0} is not in the game any more")]
    OutOfGame(String),
    #[error("an anonymous game never shows its players' addresses before the end")]
    Anonymous,
    #[error("the movement, retreat and adjustment deadlines need NEXT of at least one hour")]
    NextTooShort,
    #[error(
        "an absence is at most {0} days long in this game (SET MAXABSENCE); the master may set a longer one for you (BECOME, then SET ABSENCE)"
    )]
    AbsenceOverMax(i64),
    #[error("an absence must end after it starts, and not before now")]
    AbsenceBackwards,
    #[error(
        "you have {0} absences set already, as many as a seat may have: take one back with SET NOABSENCE date"
    )]
    TooManyAbsences(usize),
    #[error("you have no absence set")]
    NoAbsence,
    #[error("you have no absence set on {0}")]
    NoAbsenceOn(crate::command::Date),
    #[error("absences are set by a game's players and master, signed on")]
    AbsenceNeedsSeat,
    #[error("MAXABSENCE is a number of days from 0 to 31")]
    BadMaxAbsence,
    #[error("the centres for victory must be between 1 and 34")]
    BadCentreCount,
    /// `SET TAKEOVER n` beyond the most a newcomer may be given.
    #[error("a newcomer's least time before the deadline must be at most {0} hours")]
    BadTakeoverHours(u32),
    #[error("there is no saved phase to roll back to")]
    NoSnapshot,
    #[error(
        "no game option called {0:?}; the options are NMR, NONMR, NOPRESS, WHITE, GREY, WHITEGREY, PARTIAL, NOPARTIAL, ALLPRESS, NOOBSERVERS, ANONYMOUS, NOREVEAL, NOLIST, QUIET, and the rules' settings as key=value"
    )]
    BadOption(String),
    #[error(transparent)]
    Order(rules::Refusal),
    #[error(transparent)]
    Press(PressRefusal),
    /// A seat changing hands, refused (a takeover, an approval, EJECT, FORCE BEGIN).
    #[error(transparent)]
    Seat(SeatRefusal),
    /// A SIGNON that does not pass the game's `SET DEDICATION` gate (issue 31). The gate
    /// reads the whole record, games that hide their players included, so it answers only
    /// pass or fail: the figure it read is not told.
    #[error(
        "{game} requires a dedication of at least {least} (SET DEDICATION), and your record does not reach it"
    )]
    DedicationGate { game: String, least: i64 },
    /// A SIGNON that does not pass the game's `SET ONTIMERAT` gate.
    #[error(
        "{game} requires an on-time ratio of at least {} (SET ONTIMERAT), and your record does not reach it",
        crate::bulletin::people::ratio(*least)
    )]
    OnTimeGate {
        game: String,
        least: crate::game::Ratio,
    },
    /// A SIGNON that does not pass the game's `SET RESRAT` gate.
    #[error(
        "{game} requires a resignation ratio of at most {} (SET RESRAT), and your record does not keep to it",
        crate::bulletin::people::ratio(*most)
    )]
    ResignationGate {
        game: String,
        most: crate::game::Ratio,
    },
    /// `WHOIS` of an address or a name the judge knows nothing of.
    #[error("nobody registered as {0}, and no game has a seat held by it")]
    Unknown(String),
    /// `I AM ALSO` the sender's own address.
    #[error("{0} is the address this mail comes from")]
    AlsoSelf(String),
    /// `I AM ALSO` an address already linked to the sender.
    #[error("{0} is already linked to this address")]
    AlsoAlready(String),
    /// `I AM ALSO` an address that was sent a confirmation within the day.
    #[error(
        "{0} was sent a confirmation within the day: it is sent no other until it answers or the day is over"
    )]
    AlsoWaiting(String),
    /// A reply carries at most this many attachments (`proof`).
    #[error(
        "this reply already carries {0} attachments, the most one reply carries; ask for the rest in another mail"
    )]
    ReplyFull(usize),
    /// An address was sent its hour's attachments (`proof`).
    #[error(
        "{address} was sent {per_hour} attachments in the last hour, the most the judge sends an address in an hour; ask again later"
    )]
    AttachmentsPerHour { address: String, per_hour: usize },
    /// The seat a `SET ADDRESS` asked to move was moved, or taken over, before the new
    /// address answered.
    #[error(
        "the seat of {0} this confirmation would move is no longer where it was asked from; nothing moved"
    )]
    SeatMovedMeanwhile(String),
    /// A rule set's refusal (H1, H2, H19), with the code and sentence of its spec.
    #[error("{}", .0.sentence)]
    Variant(VariantRefusal),
    /// One of njudge's words a dipjudge game does otherwise: nothing changed, and the
    /// sentence says what dipjudge does instead (`bulletin::settings::njudge_word`).
    #[error("{0}")]
    Otherwise(String),
    /// An order after a `PHASE` line for another phase than the current one.
    #[error("not read: it follows PHASE {0}, and orders are taken for the current phase only")]
    ForAnotherPhase(String),
}

impl Refusal {
    /// The stable code players and tools read.
    pub(super) fn code(&self) -> &'static str {
        match self {
            Refusal::NotSignedOn
            | Refusal::NotSignedOnToOrder
            | Refusal::NotSignedOnForPress
            | Refusal::NotSignedOnForVariant(_) => "NOT-SIGNED-ON",
            Refusal::AfterRefusedPhase(_) => "PHASE-REFUSED",
            Refusal::NotMaster => "NOT-MASTER",
            Refusal::Otherwise(_) => "DONE-OTHERWISE",
            Refusal::ForAnotherPhase(_) => "OTHER-PHASE",
            Refusal::NoObserverPassword(_) => "NO-OBSERVER-PASSWORD",
            Refusal::TwoSignons => "TWO-SIGNONS",
            Refusal::ShortPassword => "SHORT-PASSWORD",
            Refusal::SignonLocked { .. }
            | Refusal::OwnerLocked { .. }
            | Refusal::SenderLocked { .. }
            | Refusal::JoinLocked { .. } => "SIGNON-LOCKED",
            Refusal::BadSignon => "BAD-SIGNON",
            Refusal::BadAddress { .. } | Refusal::OwnAddress(_) => "BAD-ADDRESS",
            Refusal::NoGame(_) => "NO-GAME",
            Refusal::Suspended { .. } => "SUSPENDED",
            Refusal::NoPicture { .. } => "NO-PICTURE",
            Refusal::NoPictureForYou(_) | Refusal::NoExportForYou(_) => "NOT-IN-GAME",
            Refusal::TooManyGames(_) | Refusal::TooManyNewGames(_) => "TOO-MANY-GAMES",
            Refusal::MailedEnough { .. } => "MAILED-ENOUGH",
            Refusal::NotFinished(_) => "NOT-FINISHED",
            Refusal::GameExists(_) => "GAME-EXISTS",
            Refusal::VariantNotImplemented(..) | Refusal::UnknownVariant(..) => "NO-VARIANT",
            Refusal::VariantFixed(_) => "GAME-STARTED",
            Refusal::BadSetting(_) => "BAD-SETTING",
            Refusal::NotForming(_) => "NOT-FORMING",
            Refusal::AlreadyJoined { .. } => "ALREADY-JOINED",
            Refusal::GameFull(_) => "GAME-FULL",
            Refusal::PlayersFixed(_) => "GAME-STARTED",
            Refusal::PlayersOutOfRange(_) => "BAD-PLAYERS",
            Refusal::PlayersJoined { .. } => "TOO-MANY-JOINED",
            Refusal::OwnPowers(_) => "OWN-POWER",
            Refusal::NoObservers(_) | Refusal::HistoryClosed(_) => "NO-OBSERVERS",
            Refusal::NotJoined => "NOT-JOINED",
            Refusal::NotObserving(_) => "NOT-OBSERVING",
            Refusal::NothingToConfirm => "NO-CONFIRMATION",
            Refusal::WrongConfirmation | Refusal::ConfirmationLocked => "WRONG-CODE",
            Refusal::BadDate | Refusal::BadGrace => "BAD-DATE",
            Refusal::PastDate => "PAST-DATE",
            Refusal::AbsenceOverMax(_) => "ABSENCE-TOO-LONG",
            Refusal::AbsenceBackwards => "BAD-DATE",
            Refusal::TooManyAbsences(_) => "TOO-MANY-ABSENCES",
            Refusal::NoAbsence | Refusal::NoAbsenceOn(_) => "NO-ABSENCE",
            Refusal::AbsenceNeedsSeat => "NOT-SIGNED-ON",
            Refusal::BadMaxAbsence => "BAD-NUMBER",
            Refusal::InvitationsStarted(_) | Refusal::AnonymousStarted(_) => "GAME-STARTED",
            Refusal::AlreadyProcessed(_) => "GAME-STARTED",
            Refusal::AlreadyInGame(_) => "ALREADY-IN-GAME",
            Refusal::TooManyMasters(_) => "TOO-MANY-MASTERS",
            Refusal::TooManyInvitations(_) => "TOO-MANY-INVITATIONS",
            Refusal::NotInvited(_) => "NOT-INVITED",
            Refusal::PrivateGame(_) => "PRIVATE-GAME",
            Refusal::DrawRefused(_) => "DRAW-ALL-SURVIVORS",
            Refusal::OutOfGame(_) => "NOT-IN-GAME",
            Refusal::Anonymous => "ANONYMOUS",
            Refusal::NextTooShort => "BAD-NUMBER",
            Refusal::NotTakingOrders(_) | Refusal::NotActive(_) => "NOT-ACTIVE",
            Refusal::NotPaused(_) => "NOT-PAUSED",
            Refusal::NoPlayer { .. } => "NO-PLAYER",
            Refusal::WrongPhase { .. } => "WRONG-PHASE",
            Refusal::NotReady(_) => "ORDERS-MISSING",
            Refusal::BadCentreCount | Refusal::BadTakeoverHours(_) => "BAD-NUMBER",
            Refusal::NoSnapshot => "NO-SNAPSHOT",
            Refusal::BadOption(_) => "BAD-OPTION",
            Refusal::DedicationGate { .. } => "GATE-DEDICATION",
            Refusal::OnTimeGate { .. } => "GATE-ONTIMERAT",
            Refusal::ResignationGate { .. } => "GATE-RESRAT",
            Refusal::Unknown(_) => "UNKNOWN-PERSON",
            Refusal::AlsoSelf(_) | Refusal::AlsoAlready(_) => "ALREADY-LINKED",
            Refusal::AlsoWaiting(_) => "CONFIRMATION-PENDING",
            Refusal::ReplyFull(_) | Refusal::AttachmentsPerHour { .. } => "REPLY-FULL",
            Refusal::SeatMovedMeanwhile(_) => "SEAT-MOVED",
            Refusal::Order(r) => r.code(),
            Refusal::Press(r) => r.code(),
            Refusal::Seat(r) => r.code(),
            Refusal::Variant(r) => r.code,
        }
    }
}

impl Refusal {
    /// The further reply lines of a refusal that a rule set gave several of.
    pub(super) fn also(&self) -> &[(&'static str, String)] {
        match self {
            Refusal::Variant(v) | Refusal::Press(PressRefusal::Variant(v)) => &v.also,
            Refusal::Order(rules::Refusal::Variant(v)) => &v.also,
            _ => &[],
        }
    }
}

impl Refusal {
    /// A game's entry gate, refused (issue 31).
    pub(super) fn gate(game: &str, r: crate::game::GateRefusal) -> Refusal {
        let game = game.to_string();
        match r {
            crate::game::GateRefusal::Dedication { least, .. } => {
                Refusal::DedicationGate { game, least }
            }
            crate::game::GateRefusal::OnTime { least, .. } => Refusal::OnTimeGate { game, least },
            crate::game::GateRefusal::Resignation { most, .. } => {
                Refusal::ResignationGate { game, most }
            }
        }
    }
}

impl From<Refused> for Refusal {
    /// The game's refusal, in the judge's words.
    fn from(r: Refused) -> Self {
        match r {
            Refused::NotActive(g) => Refusal::NotActive(g),
            Refused::NotTakingOrders(g) => Refusal::NotTakingOrders(g),
            Refused::NotPaused(g) => Refusal::NotPaused(g),
            Refused::WrongPhase { current, given } => Refusal::WrongPhase { current, given },
            Refused::NotReady {
                missing,
                waiting,
                master,
            } => Refusal::NotReady(text::not_ready_text(&missing, &waiting, master)),
            Refused::Held { until, zone } => Refusal::NotReady(text::held_until(&zone, until)),
            Refused::BadDate | Refused::BadDays => Refusal::BadDate,
            Refused::PastDate => Refusal::PastDate,
            Refused::BadGrace => Refusal::BadGrace,
            Refused::NextTooShort => Refusal::NextTooShort,
            Refused::VariantFixed(g) => Refusal::VariantFixed(g),
            Refused::PlayersFixed(g) => Refusal::PlayersFixed(g),
            Refused::PlayersOutOfRange(most) => Refusal::PlayersOutOfRange(most),
            Refused::PlayersJoined { joined, game } => Refusal::PlayersJoined { joined, game },
            Refused::BadCentreCount => Refusal::BadCentreCount,
            Refused::BadTakeoverHours(most) => Refusal::BadTakeoverHours(most),
            Refused::BadMaxAbsence => Refusal::BadMaxAbsence,
            Refused::InvitationsStarted(g) => Refusal::InvitationsStarted(g),
            Refused::TooManyInvitations(n) => Refusal::TooManyInvitations(n),
            Refused::NotInvited(a) => Refusal::NotInvited(a),
            Refused::AnonymousStarted(g) => Refusal::AnonymousStarted(g),
            Refused::Anonymous => Refusal::Anonymous,
            Refused::AlreadyInGame(a) => Refusal::AlreadyInGame(a),
            Refused::TooManyMasters(n) => Refusal::TooManyMasters(n),
            Refused::AlreadyProcessed(g) => Refusal::AlreadyProcessed(g),
            Refused::OutOfGame(powers) => Refusal::OutOfGame(powers),
            Refused::DrawRefused { asked, draw } => {
                Refusal::DrawRefused(text::draw_refused(&asked, &draw))
            }
            Refused::NoPlayer { power, game } => Refusal::NoPlayer { power, game },
            Refused::AbsenceBackwards => Refusal::AbsenceBackwards,
            Refused::AbsenceOverMax(days) => Refusal::AbsenceOverMax(days),
            Refused::TooManyAbsences(n) => Refusal::TooManyAbsences(n),
            Refused::NoAbsence => Refusal::NoAbsence,
            Refused::NoAbsenceOn(d) => Refusal::NoAbsenceOn(d),
            Refused::NotJoined => Refusal::NotJoined,
            Refused::NotForming(g) => Refusal::NotForming(g),
            Refused::AlreadyJoined { from, game } => Refusal::AlreadyJoined { from, game },
            Refused::GameFull(g) => Refusal::GameFull(g),
            Refused::NoSeat => Refusal::NotSignedOn,
            Refused::Seat(r) => Refusal::Seat(r),
            Refused::Order(r) => Refusal::Order(r),
            Refused::Variant(r) => Refusal::Variant(r),
        }
    }
}

impl From<Refused> for SessionError {
    fn from(r: Refused) -> Self {
        SessionError::Refused(r.into())
    }
}

impl From<rules::Refusal> for Refusal {
    fn from(r: rules::Refusal) -> Self {
        Refusal::Order(r)
    }
}

impl From<PressRefusal> for Refusal {
    fn from(r: PressRefusal) -> Self {
        Refusal::Press(r)
    }
}

impl From<SeatRefusal> for Refusal {
    fn from(r: SeatRefusal) -> Self {
        Refusal::Seat(r)
    }
}

impl From<VariantRefusal> for Refusal {
    fn from(r: VariantRefusal) -> Self {
        Refusal::Variant(r)
    }
}

/// Why a command line did not go through: refused (the reply explains why, and the mail
/// goes on with its next line), or a failure of the system (a store error: the mail's
/// whole transaction is rolled back, to be tried again). `?` turns either kind of cause
/// into it.
#[derive(Debug)]
pub(super) enum SessionError {
    /// The line is refused; the reply says why.
    Refused(Refusal),
    /// The system failed; nothing of the mail is kept.
    System(StoreError),
}

impl From<StoreError> for SessionError {
    fn from(e: StoreError) -> Self {
        SessionError::System(e)
    }
}

impl From<Refusal> for SessionError {
    fn from(r: Refusal) -> Self {
        SessionError::Refused(r)
    }
}

impl From<rules::Refusal> for SessionError {
    fn from(r: rules::Refusal) -> Self {
        SessionError::Refused(r.into())
    }
}

impl From<PressRefusal> for SessionError {
    fn from(r: PressRefusal) -> Self {
        SessionError::Refused(r.into())
    }
}

impl From<SeatRefusal> for SessionError {
    fn from(r: SeatRefusal) -> Self {
        SessionError::Refused(r.into())
    }
}

impl From<VariantRefusal> for SessionError {
    fn from(r: VariantRefusal) -> Self {
        SessionError::Refused(r.into())
    }
}

/// Why a stored game cannot be played by this judge: its rule set is missing. The sentence
/// is the detail of a `StoreError::Corrupt`, for the operator's log; the game's master and
/// players read the suspension's words (`bulletin::notices::SuspensionCause`).
#[derive(Clone, Debug, thiserror::Error)]
pub(super) enum Unplayable {
    #[error("its variant {0} is not implemented by this judge")]
    NotImplemented(&'static str),
    #[error("its variant {0:?} is unknown to this judge")]
    Unknown(String),
}
