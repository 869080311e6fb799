//! A game's life and its invariants: who plays which power, its settings, the phase and
//! its orders, deadlines, press policy, and the end of the game.
//!
//! [`Game`]'s fields are private: it is read through its accessors, and every change a
//! command (or the clock) can make is a `Game` method, a *transition*, that checks its own
//! preconditions and returns what changed (for the bulletin to say) or a typed refusal
//! ([`Refused`], [`SeatRefusal`], an order's [`crate::rules::Refusal`]). Each transition
//! counts as a change ([`Game::changed`]): the judge writes a game only when it changed.
//!
//! | file | owns |
//! | --- | --- |
//! | `life.rs` | created, started, paused and resumed, a phase processed, rolled back, unstarted, over |
//! | `orders.rs` | the phase's orders and a rule set's commands, who owes what, readiness |
//! | `timing.rs`, `deadline.rs`, `schedule.rs` | deadlines, grace, start, absences; what a tick must do ([`Game::due`]) |
//! | `seats.rs`, `duplex.rs`, `observers.rs` | joining, takeovers, leaving, a seat's settings, co-masters; duplex games; observers |
//! | `settings.rs`, `setup.rs`, `press.rs` | the master's settings; who may join and see whom; the press policy |
//! | `votes.rs` | draws and concessions, the master's `DECLARE` |
//! | `reliability.rs` | a player's record and the entry gates |
//! | `refusal.rs` | [`Refused`]: what a transition refuses |
//!
//! No SQL, no mail, no clock: time comes in as a value. The judge loads a [`Game`], calls
//! its transitions, and saves it.

// No function of this floor passes 100 lines (clippy.toml sets the threshold): a long
// command or transition splits into its family's units.
#![warn(clippy::too_many_lines)]

mod deadline;
mod duplex;
mod life;
mod observers;
mod orders;
mod press;
mod refusal;
mod reliability;
mod schedule;
mod seats;
mod settings;
mod setup;
mod timing;
mod votes;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::map::{Map, Power};
use crate::rules::{Position, PowerOrder};
use crate::variant::{GameView, Line, Variant, VariantOrder, VariantState};

pub use crate::variant::{Early, Ending, OrderStatus, Readiness, list_powers};

pub use deadline::{DeadlineSettings, DueEvent, next_deadline, phase_rule, schedule_class};
pub use duplex::{MIN_PLAYERS, assign_duplex};
pub use life::{Advanced, Arrangement, NewGame, assign_powers};
pub use orders::{CommandTaken, OrderTaken};
pub use press::{
    Author, ObserverLevel, PressLevel, PressPolicy, PressRefusal, PressRoute, Reader, Sender,
    observer_press_route, press_route,
};
pub use refusal::Refused;
pub use reliability::{GameSeats, Gate, GateRefusal, Gates, Ratio, Record, SeatSettings};
pub use schedule::{
    Absence, DayRule, Days, MAX_ABSENCES, PhaseRule, PhaseSchedule, Schedule, ScheduleClass,
    hours_to_minutes,
};
pub use seats::{
    Abandonment, Bounce, Claim, DEFAULT_TAKEOVER_HOURS, Ejected, MAX_COMASTERS, MAX_TAKEOVER_HOURS,
    SeatProof, SeatRef, SeatRefusal, SeatStatus, TakenOver, Tenure,
};
pub use settings::{MAX_ABSENCE_DAYS, MAX_CENTRES_TO_WIN, Settings};
pub use setup::{Invitation, MAX_COMMENT_CHARS, MAX_INVITATIONS, Secrecy};
pub use timing::{AbsenceSet, local_instant, resolve_date, resolve_date_at};
pub use votes::DrawVote;

/// A seat at the table: who may act for a power (or as master), by address and password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub address: String,
    /// An argon2 PHC string; the password itself is never stored.
    pub password_hash: String,
}

/// A player waiting in a forming game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Joiner {
    pub seat: Seat,
    /// Powers in order of preference (may be empty: no preference).
    pub preferences: Vec<Power>,
}

/// A power's player and their settings; the seat's place in its life ([`SeatStatus`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredPlayer")]
pub struct Player {
    pub power: Power,
    /// Who plays the power: for an abandoned seat, who played it last; for a dummy, nobody
    /// (an empty address and password).
    pub seat: Seat,
    /// `SET WAIT`: hold processing until the deadline.
    pub wait: bool,
    /// `SET DRAW`: the powers this player accepts a draw among (empty: all survivors).
    pub draw: Option<Vec<Power>>,
    /// `SET CONCEDE power`: this player concedes the game to that power.
    pub concede: Option<Power>,
    /// Playing, abandoned (open for takeover, and why), or a dummy.
    pub status: SeatStatus,
    /// Phases in a row this seat's player missed (an abandonment after `SET ABANDON n`).
    #[serde(skip_serializing_if = "is_zero")]
    pub missed_in_row: u32,
    /// Mail to the seat's address bounces (its master was told).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bouncing: Option<Bounce>,
    /// A takeover of the seat waiting for the master's approval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<Claim>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A player as stored, by this judge or an older one (which kept `abandoned` and `resigned`
/// flags where [`SeatStatus`] is now): how a stored game reads.
#[derive(Deserialize)]
struct StoredPlayer {
    power: Power,
    seat: Seat,
    #[serde(default)]
    wait: bool,
    #[serde(default)]
    draw: Option<Vec<Power>>,
    #[serde(default)]
    concede: Option<Power>,
    #[serde(default)]
    status: Option<SeatStatus>,
    #[serde(default)]
    missed_in_row: u32,
    #[serde(default)]
    bouncing: Option<Bounce>,
    #[serde(default)]
    claim: Option<Claim>,
    #[serde(default)]
    abandoned: bool,
    #[serde(default)]
    resigned: bool,
}

impl From<StoredPlayer> for Player {
    fn from(s: StoredPlayer) -> Player {
        // Older judges set both flags on RESIGN and EJECT, `abandoned` alone at the end of
        // a NONMR game's grace.
        let status = s.status.unwrap_or(match (s.resigned, s.abandoned) {
            (true, _) => SeatStatus::Abandoned(Abandonment::Resigned),
            (false, true) => SeatStatus::Abandoned(Abandonment::Late),
            (false, false) => SeatStatus::Playing,
        });
        Player {
            power: s.power,
            seat: s.seat,
            wait: s.wait,
            draw: s.draw,
            concede: s.concede,
            status,
            missed_in_row: s.missed_in_row,
            bouncing: s.bouncing,
            claim: s.claim,
        }
    }
}

impl Player {
    /// A new player of `power`, with no settings made yet.
    pub fn new(power: Power, seat: Seat) -> Player {
        Player {
            power,
            seat,
            wait: false,
            draw: None,
            concede: None,
            status: SeatStatus::Playing,
            missed_in_row: 0,
            bouncing: None,
            claim: None,
        }
    }
}

/// Where the game is in its life.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Waiting for its players (seven, or the master's `SET PLAYERS n`).
    Forming,
    Active,
    /// Stopped by the master: no deadline runs.
    Paused,
    Finished(Ending),
}

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    name: String,
    variant: String,
    status: Status,
    master: Seat,
    joiners: Vec<Joiner>,
    players: Vec<Player>,
    observers: Vec<String>,
    /// The observers' passwords (`SIGNON Ogame password`, to send press), each mailed to its
    /// observer's address when it began to observe; one counts only while that address is
    /// among `observers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    observer_seats: Vec<Seat>,
    settings: Settings,
    position: Position,
    /// The standing orders of the current phase, per power, in the order given.
    orders: BTreeMap<Power, Vec<PowerOrder>>,
    /// The powers that have sent orders this phase (even an empty set, for adjustments).
    submitted: Vec<Power>,
    deadline: Option<DateTime<Utc>>,
    /// Since when every order has been in (None while some are missing).
    all_in_since: Option<DateTime<Utc>>,
    /// Set once the late notices for this deadline went out.
    late_notified: bool,
    /// The powers whose orders were missing when the late notices went out (issue 31):
    /// their orders, if they come in grace, count as late in their players' records.
    /// Read only while `late_notified` is set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    late_at_deadline: Vec<Power>,
    reminded: bool,
    /// The seed for this game's random choices (power assignment), recorded.
    seed: u64,
    /// How many phases have been processed (the snapshot number of the current phase).
    turn: u32,
    /// Postal press held back until the next results: (readers, subject, body).
    postal: Vec<(Vec<Reader>, String, String)>,
    /// The rule set's state (empty for the standard game).
    #[serde(default, skip_serializing_if = "VariantState::is_empty")]
    variant_state: VariantState,
    /// The rule set's commands kept with this phase's orders, in arrival order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    variant_orders: Vec<VariantOrder>,
    /// The lines of immediate commands since the last results bulletin, which repeats them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    immediate: Vec<Line>,
    /// When the game was created (games created before it was kept have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    created: Option<DateTime<Utc>>,
    /// The co-masters (`PROMOTE address`): each signs on as `SIGNON Mgame` with a password
    /// of its own and may do what the master does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comasters: Vec<Seat>,
    /// Absences set and not over (`SET ABSENCE`): no deadline computed later falls inside
    /// one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    absences: Vec<Absence>,
    /// Not before this instant: a forming game does not start, a running phase is not
    /// processed (`SET START`, and the schedule's `MIN`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    not_before: Option<DateTime<Utc>>,
    /// A forming game taken back by `UNSTART` waits for its master to start it (`FORCE
    /// BEGIN`, or a start time with `SET START`) even when it is full, as njudge's manual
    /// start does (issue 38).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    start_held: bool,
    /// The end of this phase's grace period when the master set it (`SET GRACE`); else the
    /// schedule's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    grace_until: Option<DateTime<Utc>>,
    /// The deadline the schedule gave the phase open now when an absence moved it later
    /// (None: the deadline is the schedule's, or the master's): `SET NOABSENCE` brings it
    /// back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scheduled: Option<DateTime<Utc>>,
    /// The names the judge read in the `From:` of its players' and master's mails, by
    /// address (lower case): shown to the master, and to everyone at the reveal.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    names: BTreeMap<String, String>,
    /// Who played which power from which phase to which ([`Tenure`]), in the order the
    /// tenures began (games started before the judge kept it have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tenures: Vec<Tenure>,
    /// Each `ROLLBACK`: when, and the phase it went back to. The results of that phase and
    /// the ones after it, published before then, were undone ([`Game::undone`]; the
    /// caller knows which entries are results).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rollbacks: Vec<(DateTime<Utc>, crate::rules::Phase)>,
    /// The seats proven at an address (issue 37, `judge::proof`): one mail carried the
    /// seat's password and the answer to a confirmation of the address, or the address
    /// confirmed the seat's move to it. A takeover forgets its seat's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    proofs: Vec<SeatProof>,
    /// What happened to this value of the game since it was loaded or made: not stored,
    /// and no part of the game's value (two games equal whatever it says).
    #[serde(skip)]
    since: Since,
}

/// What happened to a [`Game`] value since it was loaded or made (the judge loads a game
/// for each mail and each tick, so: in this mail): how many changes, how many of them to
/// the orders, which of them were written, the powers that gave orders, and the sets of a
/// rule set's commands that were replaced. The session reads it to know whether to write
/// the game and whether to list the standing orders in its reply.
#[derive(Clone, Debug, Default)]
struct Since {
    /// Changes made (every transition counts one).
    changes: u32,
    /// Changes made to the standing orders (orders, a rule set's commands, CLEAR).
    order_changes: u32,
    /// The value of `changes` when the game was last written.
    saved: u32,
    /// The powers that gave orders: each one's first order starts its new adjustment set.
    ordered: Vec<Power>,
    /// The sets of a rule set's commands replaced: each set's first command clears it
    /// ([`crate::variant::Taken::Replacing`]).
    replaced_sets: Vec<String>,
    /// The master set the deadline (a `RESUME` after it keeps it).
    deadline_set: bool,
}

impl PartialEq for Since {
    /// Bookkeeping, not the game's value.
    fn eq(&self, _: &Since) -> bool {
        true
    }
}

/// Days a forming game nobody joined is kept.
pub const FORMING_EXPIRY_DAYS: i64 = 14;

/// What a [`GameView`] borrows that the game does not store as such: every standing order
/// in one list, and the powers nobody plays now (abandoned or dummy: the view's
/// `resigned`).
#[derive(Clone, Debug, Default)]
pub struct ViewParts {
    pub orders: Vec<PowerOrder>,
    pub resigned: Vec<Power>,
}

impl Game {
    /// A forming game of a rule set.
    pub fn new(name: &str, variant: &dyn Variant, master: Seat, seed: u64, map: &Map) -> Game {
        Game {
            name: name.to_string(),
            variant: variant.name().to_string(),
            status: Status::Forming,
            master,
            joiners: Vec::new(),
            players: Vec::new(),
            observers: Vec::new(),
            observer_seats: Vec::new(),
            settings: Settings::default(),
            position: Position::standard_start(map),
            orders: BTreeMap::new(),
            submitted: Vec::new(),
            deadline: None,
            all_in_since: None,
            late_notified: false,
            late_at_deadline: Vec::new(),
            reminded: false,
            seed,
            turn: 0,
            postal: Vec::new(),
            variant_state: variant.new_state(),
            variant_orders: Vec::new(),
            immediate: Vec::new(),
            created: None,
            comasters: Vec::new(),
            absences: Vec::new(),
            not_before: None,
            start_held: false,
            grace_until: None,
            scheduled: None,
            names: BTreeMap::new(),
            tenures: Vec::new(),
            rollbacks: Vec::new(),
            proofs: Vec::new(),
            since: Since::default(),
        }
    }

    /// Decodes what the rule set keeps in a stored game (its state, its commands kept with
    /// the orders) when the game is loaded, once. Err: what it cannot read (the game cannot
    /// be played; it is never played on with a default state).
    pub fn decode(&mut self, variant: &dyn Variant) -> Result<(), crate::variant::StateError> {
        variant.decode(&mut self.variant_state, &mut self.variant_orders)
    }

    /// Gives each unit of a game stored before units had an identity one (as it is
    /// loaded): rule sets that follow units (morale, frozen units, exchanges) play on
    /// from it. Not a change of the game.
    pub fn assign_unit_ids(&mut self) {
        self.position.assign_unit_ids();
    }

    /// What a view of this game borrows (see [`Game::view`]).
    pub fn view_parts(&self) -> ViewParts {
        ViewParts {
            orders: self.all_orders(),
            resigned: self
                .players
                .iter()
                .filter(|p| p.is_open())
                .map(|p| p.power)
                .collect(),
        }
    }

    /// The game as its rule set's hooks see it.
    pub fn view<'a>(&'a self, map: &'a Map, parts: &'a ViewParts) -> GameView<'a> {
        GameView {
            map,
            position: &self.position,
            orders: &parts.orders,
            variant_orders: &self.variant_orders,
            resigned: &parts.resigned,
            centres_to_win: self.settings.centres_to_win,
            resolving: false,
        }
    }

    /// The player of `power`, if the game has started.
    pub fn player(&self, power: Power) -> Option<&Player> {
        self.players.iter().find(|p| p.power == power)
    }

    fn player_mut(&mut self, power: Power) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.power == power)
    }

    /// Counts a change of the game (every transition does; see [`Game::changed`]).
    fn touch(&mut self) {
        self.since.changes += 1;
    }

    /// Counts a change of the standing orders (a change of the game too).
    fn touch_orders(&mut self) {
        self.since.changes += 1;
        self.since.order_changes += 1;
    }

    /// Whether the game changed since it was loaded or made (in this mail).
    pub fn changed(&self) -> bool {
        self.since.changes > 0
    }

    /// Whether its standing orders changed since it was loaded (the reply lists them).
    pub fn orders_changed(&self) -> bool {
        self.since.order_changes > 0
    }

    /// Whether it changed since it was last written ([`Game::mark_saved`]).
    pub fn unsaved(&self) -> bool {
        self.since.changes != self.since.saved
    }

    /// Notes that the game as it is now was written.
    pub fn mark_saved(&mut self) {
        self.since.saved = self.since.changes;
    }

    /// Counts a change the judge makes on the game's behalf that no field shows: a
    /// master's command that leaves the game as it was (`PREVIEW`, `BECOME`) still has the
    /// judge look again, when the mail is done, at whether every order is in, and write
    /// the game.
    pub fn mark_changed(&mut self) {
        self.touch();
    }
}

/// What a game is, read: each field through its accessor (the fields are private; a change
/// is a transition, in the file of its concern).
impl Game {
    /// The game's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name of its rule set.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// Where the game is in its life.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Whether it is running (not forming, paused or over).
    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }

    /// Whether it waits for its players.
    pub fn is_forming(&self) -> bool {
        self.status == Status::Forming
    }

    /// Whether it is over.
    pub fn is_finished(&self) -> bool {
        matches!(self.status, Status::Finished(_))
    }

    /// The master's seat (the co-masters' are [`Game::comasters`]).
    pub fn master(&self) -> &Seat {
        &self.master
    }

    /// The players waiting in a forming game, in the order they joined.
    pub fn joiners(&self) -> &[Joiner] {
        &self.joiners
    }

    /// The powers' seats, once the game started (one a power).
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The addresses that observe the game.
    pub fn observers(&self) -> &[String] {
        &self.observers
    }

    /// The observers' password seats (one counts only while its address observes:
    /// [`Game::observer_seat`]).
    pub fn observer_seats(&self) -> &[Seat] {
        &self.observer_seats
    }

    /// The game's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The board of the phase open now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The standing orders of the current phase, per power, in the order given.
    pub fn orders(&self) -> &BTreeMap<Power, Vec<PowerOrder>> {
        &self.orders
    }

    /// The powers that have sent orders this phase (even an empty set, for adjustments).
    pub fn submitted(&self) -> &[Power] {
        &self.submitted
    }

    /// The deadline of the phase open now (None: no clock runs).
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        self.deadline
    }

    /// Since when every order has been in (None while some are missing).
    pub fn all_in_since(&self) -> Option<DateTime<Utc>> {
        self.all_in_since
    }

    /// Whether the late notices for this deadline went out.
    pub fn late_notified(&self) -> bool {
        self.late_notified
    }

    /// The powers whose orders were missing when the late notices went out.
    pub fn late_at_deadline(&self) -> &[Power] {
        &self.late_at_deadline
    }

    /// Whether the reminder for this deadline went out (or none is due).
    pub fn reminded(&self) -> bool {
        self.reminded
    }

    /// The seed of the game's random choices (power assignment).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many phases have been processed (the snapshot number of the current phase).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Postal press held back until the next results: (readers, subject, body).
    pub fn postal(&self) -> &[(Vec<Reader>, String, String)] {
        &self.postal
    }

    /// The rule set's state.
    pub fn variant_state(&self) -> &VariantState {
        &self.variant_state
    }

    /// The rule set's commands kept with this phase's orders, in arrival order.
    pub fn variant_orders(&self) -> &[VariantOrder] {
        &self.variant_orders
    }

    /// The lines of immediate commands since the last results bulletin.
    pub fn immediate(&self) -> &[Line] {
        &self.immediate
    }

    /// When the game was created (None for games created before it was kept).
    pub fn created(&self) -> Option<DateTime<Utc>> {
        self.created
    }

    /// The co-masters' seats, in the order they were promoted.
    pub fn comasters(&self) -> &[Seat] {
        &self.comasters
    }

    /// The absences set and not over.
    pub fn absences(&self) -> &[Absence] {
        &self.absences
    }

    /// Not before this instant: a forming game does not start, a phase is not processed.
    pub fn not_before(&self) -> Option<DateTime<Utc>> {
        self.not_before
    }

    /// Whether the forming game waits for its master to start it (after `UNSTART`).
    pub fn start_held(&self) -> bool {
        self.start_held
    }

    /// The end of this phase's grace period as the master set it (None: the schedule's).
    pub fn grace_until(&self) -> Option<DateTime<Utc>> {
        self.grace_until
    }

    /// The schedule's deadline for the phase open now, when an absence moved it later.
    pub fn scheduled(&self) -> Option<DateTime<Utc>> {
        self.scheduled
    }

    /// The names the judge read for the game's people, by address (lower case).
    pub fn names(&self) -> &BTreeMap<String, String> {
        &self.names
    }

    /// Who played which power from which phase to which, in the order the tenures began.
    pub fn tenures(&self) -> &[Tenure] {
        &self.tenures
    }

    /// Whether the results of `phase` published at `at` were undone by a `ROLLBACK` after
    /// them to that phase or an earlier one (a phase that cannot be read is not). Only
    /// results are undone: the start of the game, say, is not.
    pub fn undone(&self, at: DateTime<Utc>, phase: &str) -> bool {
        crate::rules::Phase::parse(phase).is_some_and(|p| {
            self.rollbacks
                .iter()
                .any(|(when, to)| at <= *when && p >= *to)
        })
    }

    /// When a clock tick next has something to do for this game: the reminder, the
    /// deadline, the end of grace, or processing once every order is in (never before
    /// [`Game::not_before`]); for a full forming game, its start time (the store indexes
    /// it, so a tick looks only at games that are due).
    pub fn next_event(&self) -> Option<DateTime<Utc>> {
        if self.status == Status::Forming {
            if self.joiners.len() == self.players_wanted() {
                return self.not_before.filter(|_| !self.start_held);
            }
            return self.expires();
        }
        if self.status != Status::Active {
            return None;
        }
        let deadline = self.deadline?;
        let s = self.timing();
        let processing = self.all_in_since.is_some() || self.late_notified;
        let at = if let Some(since) = self.all_in_since {
            deadline.min(since + chrono::Duration::minutes(s.delay_minutes.max(0)))
        } else if !self.reminded && s.reminder_hours > 0 {
            deadline - chrono::Duration::hours(s.reminder_hours)
        } else if !self.late_notified {
            deadline
        } else {
            self.grace_end().unwrap_or(deadline)
        };
        Some(match self.not_before {
            Some(t) if processing => at.max(t),
            _ => at,
        })
    }

    /// When a forming game nobody joined is removed: [`FORMING_EXPIRY_DAYS`] after it was
    /// created (None: somebody joined, it is not forming, or its creation is unknown).
    pub fn expires(&self) -> Option<DateTime<Utc>> {
        if self.status != Status::Forming || !self.joiners.is_empty() {
            return None;
        }
        Some(self.created? + chrono::Duration::days(FORMING_EXPIRY_DAYS))
    }
}

#[cfg(test)]
mod tests;
