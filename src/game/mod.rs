//! A game's life as data and pure decisions: who plays which power, settings, the phase
//! and its orders, deadlines, press policy, and the end of the game.
//!
//! No SQL, no mail, no clock: time comes in as a value. The judge loads a [`Game`], calls
//! these functions, and saves it.

mod deadline;
mod duplex;
mod observers;
mod press;
mod reliability;
mod schedule;
mod seats;
mod setup;
mod timing;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::map::{Map, Power};
use crate::rules::{Owner, PhaseKind, Position, PowerOrder, Rules, UnitSpec};
use crate::variant::{GameView, Line, Slot, Variant, VariantOrder, VariantState};

pub use crate::variant::{Early, Ending, OrderStatus, Readiness, list_powers};

pub use deadline::{
    DeadlineSettings, DueEvent, due_event, next_deadline, phase_rule, schedule_class,
};
pub use duplex::{MIN_PLAYERS, PlayersRefusal, assign_duplex};
pub use press::{
    Author, ObserverLevel, PressLevel, PressPolicy, PressRefusal, PressRoute, Reader, Sender,
    observer_press_route, press_route,
};
pub use reliability::{GameSeats, Gate, GateRefusal, Gates, Ratio, Record};
pub use schedule::{
    Absence, DayRule, Days, MAX_ABSENCES, PhaseRule, PhaseSchedule, Schedule, ScheduleClass,
    hours_to_minutes,
};
pub use seats::{
    Abandonment, Bounce, Claim, DEFAULT_TAKEOVER_HOURS, MAX_TAKEOVER_HOURS, SeatRefusal,
    SeatStatus, TakenOver, Tenure,
};
pub use setup::{DrawVote, Invitation, MAX_COMMENT_CHARS, MAX_INVITATIONS};

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

/// Game settings a master may change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub press: PressPolicy,
    /// Process missing orders with civil-disorder defaults after the grace period (NMR);
    /// otherwise wait and declare the power abandoned.
    pub nmr: bool,
    pub deadlines: DeadlineSettings,
    /// Centres needed for a solo victory.
    pub centres_to_win: usize,
    /// IANA time zone deadlines are shown in.
    pub time_zone: String,
    /// The master receives every piece of press (`SET ALL PRESS`).
    pub master_reads_all_press: bool,
    /// The game's own schedule (`SET MOVE|RETREAT|ADJUST …`); what it leaves unset keeps
    /// `deadlines`, the judge's defaults.
    #[serde(default)]
    pub schedule: Schedule,
    /// Shown in `LIST` to everyone (`SET LIST`); an unlisted game (`SET NOLIST`) is listed
    /// only to its players and master, and read by name.
    #[serde(default = "yes")]
    pub listed: bool,
    /// The join password's argon2 hash (`SET JOIN PASSWORD`): a forming game with one takes
    /// a new player only with it, or with an invitation's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join_password: Option<String>,
    /// The addresses the master invited (`SET INVITE`), each with the code mailed to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invitations: Vec<Invitation>,
    /// An anonymous (gunboat) game (`CREATE … anonymous`, `SET ANONYMOUS`): no mail,
    /// listing, press or picture shows a player's address or name to anyone but the
    /// master until the game ends. Takeover and abandonment notices must not name a
    /// player either.
    #[serde(default)]
    pub anonymous: bool,
    /// The entry gates (`SET DEDICATION`, `SET ONTIMERAT`, `SET RESRAT`, issue 31): what a
    /// player's reliability record must show to join the game or take a power over.
    #[serde(default, skip_serializing_if = "Gates::is_open")]
    pub gates: Gates,
    /// The players are revealed to everyone when the game ends (`SET NOREVEAL` keeps an
    /// anonymous game's players secret for ever).
    #[serde(default = "yes")]
    pub reveal: bool,
    /// njudge's `SET QUIET`: abandonments and takeovers are told to the master and the
    /// powers concerned only, not announced to everyone.
    #[serde(default)]
    pub quiet: bool,
    /// The players' addresses are shown to the other players while the game runs (`SET
    /// ADDRESSES SHOWN`); by default only the master sees them until the end. Never in an
    /// anonymous game.
    #[serde(default)]
    pub addresses_shown: bool,
    /// `SET COMMENT text`, shown in `LIST`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// `SET APPROVAL`: a takeover waits for the master's `APPROVE` (or `REJECT`).
    #[serde(default)]
    pub approval: bool,
    /// `SET ABANDON n`: a seat whose player missed this many phases in a row is abandoned
    /// (0: never).
    #[serde(default)]
    pub abandon_after: u32,
    /// `SET TAKEOVER n`: the least hours a newcomer gets before the deadline of the phase
    /// they take a power over in.
    #[serde(default = "default_takeover_hours")]
    pub takeover_hours: i64,
    /// `SET PLAYERS n`: a duplex game for n players, each holding several powers (None:
    /// one player a power).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
}

/// serde's default for settings that are on unless set off.
fn yes() -> bool {
    true
}

fn default_takeover_hours() -> i64 {
    DEFAULT_TAKEOVER_HOURS
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            press: PressPolicy::default(),
            nmr: true,
            deadlines: DeadlineSettings::default(),
            centres_to_win: 18,
            time_zone: "UTC".to_string(),
            master_reads_all_press: false,
            schedule: Schedule::default(),
            listed: true,
            join_password: None,
            invitations: Vec::new(),
            anonymous: false,
            reveal: true,
            quiet: false,
            addresses_shown: false,
            comment: None,
            approval: false,
            abandon_after: 0,
            takeover_hours: DEFAULT_TAKEOVER_HOURS,
            players: None,
            gates: Gates::default(),
        }
    }
}

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    pub name: String,
    pub variant: String,
    pub status: Status,
    pub master: Seat,
    pub joiners: Vec<Joiner>,
    pub players: Vec<Player>,
    pub observers: Vec<String>,
    /// The observers' passwords (`SIGNON Ogame password`, to send press), each mailed to its
    /// observer's address when it began to observe; one counts only while that address is
    /// among `observers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observer_seats: Vec<Seat>,
    pub settings: Settings,
    pub position: Position,
    /// The standing orders of the current phase, per power, in the order given.
    pub orders: BTreeMap<Power, Vec<PowerOrder>>,
    /// The powers that have sent orders this phase (even an empty set, for adjustments).
    pub submitted: Vec<Power>,
    pub deadline: Option<DateTime<Utc>>,
    /// Since when every order has been in (None while some are missing).
    pub all_in_since: Option<DateTime<Utc>>,
    /// Set once the late notices for this deadline went out.
    pub late_notified: bool,
    /// The powers whose orders were missing when the late notices went out (issue 31):
    /// their orders, if they come in grace, count as late in their players' records.
    /// Read only while `late_notified` is set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub late_at_deadline: Vec<Power>,
    pub reminded: bool,
    /// The seed for this game's random choices (power assignment), recorded.
    pub seed: u64,
    /// How many phases have been processed (the snapshot number of the current phase).
    pub turn: u32,
    /// Postal press held back until the next results: (readers, subject, body).
    pub postal: Vec<(Vec<Reader>, String, String)>,
    /// The rule set's state (empty for the standard game).
    #[serde(default, skip_serializing_if = "VariantState::is_empty")]
    pub variant_state: VariantState,
    /// The rule set's commands kept with this phase's orders, in arrival order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variant_orders: Vec<VariantOrder>,
    /// The lines of immediate commands since the last results bulletin, which repeats them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub immediate: Vec<Line>,
    /// When the game was created (games created before it was kept have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<DateTime<Utc>>,
    /// The co-masters (`PROMOTE address`): each signs on as `SIGNON Mgame` with a password
    /// of its own and may do what the master does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comasters: Vec<Seat>,
    /// Absences set and not over (`SET ABSENCE`): no deadline computed later falls inside
    /// one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absences: Vec<Absence>,
    /// Not before this instant: a forming game does not start, a running phase is not
    /// processed (`SET START`, and the schedule's `MIN`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_before: Option<DateTime<Utc>>,
    /// The end of this phase's grace period when the master set it (`SET GRACE`); else the
    /// schedule's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_until: Option<DateTime<Utc>>,
    /// The deadline the schedule gave the phase open now when an absence moved it later
    /// (None: the deadline is the schedule's, or the master's): `SET NOABSENCE` brings it
    /// back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduled: Option<DateTime<Utc>>,
    /// The names the judge read in the `From:` of its players' and master's mails, by
    /// address (lower case): shown to the master, and to everyone at the reveal.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<String, String>,
    /// Who played which power from which phase to which ([`Tenure`]), in the order the
    /// tenures began (games started before the judge kept it have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tenures: Vec<Tenure>,
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
            grace_until: None,
            scheduled: None,
            names: BTreeMap::new(),
            tenures: Vec::new(),
        }
    }

    /// Decodes what the rule set keeps in a stored game (its state, its commands kept with
    /// the orders) when the game is loaded, once. Err: what it cannot read (the game cannot
    /// be played; it is never played on with a default state).
    pub fn decode(&mut self, variant: &dyn Variant) -> Result<(), crate::variant::StateError> {
        variant.decode(&mut self.variant_state, &mut self.variant_orders)
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

    pub fn player(&self, power: Power) -> Option<&Player> {
        self.players.iter().find(|p| p.power == power)
    }

    pub fn player_mut(&mut self, power: Power) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.power == power)
    }

    /// The powers still in the game (with a unit or a centre).
    pub fn surviving_powers(&self) -> Vec<Power> {
        crate::variant::surviving_powers(&self.position)
    }

    /// The powers that must order in the current phase (H18 may leave some out).
    pub fn powers_to_order(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.statuses(map, variant)
            .into_iter()
            .filter_map(|(p, s)| s.map(|_| p))
            .collect()
    }

    /// A power's order status: `received` (every unit ordered, or an adjustment set sent),
    /// `incomplete` (some), `none`; None when it has nothing to order (H18 may say
    /// otherwise).
    pub fn order_status(
        &self,
        map: &Map,
        variant: &dyn Variant,
        power: Power,
    ) -> Option<OrderStatus> {
        self.readiness(map, variant).status(power)
    }

    /// A power's order status as everyone but the power and the master may know it (H18,
    /// H20: [`crate::variant::Readiness::public`]; a ballot is left out).
    pub fn public_order_status(
        &self,
        map: &Map,
        variant: &dyn Variant,
        power: Power,
    ) -> Option<OrderStatus> {
        self.readiness(map, variant).public_status(power)
    }

    /// Who the judge waits for in the current phase and when it may process it (H18): the
    /// standard game's answer, as the rule set changes it.
    pub fn readiness(&self, map: &Map, variant: &dyn Variant) -> Readiness {
        let parts = self.view_parts();
        let view = self.view(map, &parts);
        let rules = variant.rules(&view, &self.variant_state);
        let mut standard = Readiness {
            statuses: [None; 7],
            public: None,
            early: Early::WhenAllIn,
        };
        for p in Power::ALL {
            standard.set(p, self.standard_status(map, rules.as_ref(), p));
        }
        variant.readiness(&view, &self.variant_state, standard)
    }

    /// Every power's order status (see [`Game::order_status`]).
    fn statuses(&self, map: &Map, variant: &dyn Variant) -> Vec<(Power, Option<OrderStatus>)> {
        let r = self.readiness(map, variant);
        Power::ALL.into_iter().map(|p| (p, r.status(p))).collect()
    }

    /// Every power's order status as everyone may know it ([`Game::public_order_status`]).
    fn public_statuses(
        &self,
        map: &Map,
        variant: &dyn Variant,
    ) -> Vec<(Power, Option<OrderStatus>)> {
        let r = self.readiness(map, variant);
        Power::ALL
            .into_iter()
            .map(|p| (p, r.public_status(p)))
            .collect()
    }

    /// The standard game's answer: whether a power must order, and how complete its
    /// orders are.
    fn standard_status(&self, map: &Map, rules: &dyn Rules, power: Power) -> Option<OrderStatus> {
        let pos = &self.position;
        let needed = match pos.phase.kind {
            PhaseKind::Movement => pos
                .units
                .iter()
                .filter(|u| u.owner == Owner::Power(power))
                .count(),
            PhaseKind::Retreat => pos
                .dislodged
                .iter()
                .filter(|d| d.unit.owner == Owner::Power(power))
                .count(),
            // Any adjustment set counts: a power may choose to build fewer.
            PhaseKind::Adjustment => {
                let n = rules.adjustment_count(pos, power);
                let must = n < 0
                    || n > 0
                        && rules
                            .build_sites(map, pos, power)
                            .iter()
                            .any(|s| pos.unit_in(*s).is_none());
                return must.then(|| {
                    if self.submitted.contains(&power) {
                        OrderStatus::Received
                    } else {
                        OrderStatus::None
                    }
                });
            }
            PhaseKind::Own(_) => return None,
        };
        if needed == 0 {
            return None;
        }
        // A rule set's order for a unit (a hold exchange, a sphere of influence) is that
        // unit's order.
        let given = self.orders.get(&power).map(Vec::len).unwrap_or(0)
            + self
                .variant_orders
                .iter()
                .filter(|v| v.from == Sender::Power(power) && matches!(v.slot, Slot::Unit(_)))
                .count();
        Some(if given == 0 {
            OrderStatus::None
        } else if given < needed {
            OrderStatus::Incomplete
        } else {
            OrderStatus::Received
        })
    }

    /// The orders a power's next order is checked against: its standing orders, or none
    /// when the order starts a new adjustment set (`fresh`: the first of its message).
    pub fn standing_for(&self, power: Power, fresh: bool) -> &[PowerOrder] {
        if fresh && self.position.phase.kind == PhaseKind::Adjustment {
            &[]
        } else {
            self.orders_of(power)
        }
    }

    /// Takes one order of a power's message (`fresh`: the first order taken from that
    /// message). In an adjustment phase a message's orders replace the whole set of an
    /// earlier message; otherwise each order replaces the earlier one for its unit (see
    /// [`Game::set_orders`]).
    pub fn take_order(&mut self, power: Power, order: PowerOrder, fresh: bool) {
        if fresh && self.position.phase.kind == PhaseKind::Adjustment {
            self.orders.remove(&power);
        }
        if self.position.phase.kind == PhaseKind::Adjustment {
            self.orders.entry(power).or_default().push(order);
            if !self.submitted.contains(&power) {
                self.submitted.push(power);
            }
        } else {
            self.set_orders(power, vec![order]);
        }
    }

    /// Stores a power's new orders. Each order replaces the power's earlier order for the
    /// same unit (njudge semantics: a later message corrects an earlier one unit by unit),
    /// a variant order for that unit included; adjustment orders replace the whole earlier
    /// set.
    pub fn set_orders(&mut self, power: Power, new: Vec<PowerOrder>) {
        let list = self.orders.entry(power).or_default();
        if self.position.phase.kind == PhaseKind::Adjustment {
            *list = new;
        } else {
            for o in new {
                let unit = o.order.unit().map(|u| u.province());
                list.retain(|old| old.order.unit().map(|u| u.province()) != unit);
                if let Some(p) = unit {
                    self.variant_orders
                        .retain(|v| !(v.from == Sender::Power(power) && v.slot == Slot::Unit(p)));
                }
                list.push(o);
            }
        }
        if !self.submitted.contains(&power) {
            self.submitted.push(power);
        }
    }

    /// Keeps a variant command with this phase's orders (H1), replacing the sender's
    /// earlier one in the same slot; a command for a unit replaces the unit's order.
    pub fn set_variant_order(&mut self, order: VariantOrder) {
        if let (Sender::Power(power), Slot::Unit(p)) = (order.from, &order.slot)
            && let Some(list) = self.orders.get_mut(&power)
        {
            list.retain(|o| o.order.unit().map(|u| u.province()) != Some(*p));
        }
        self.variant_orders
            .retain(|v| !(v.from == order.from && v.slot == order.slot));
        if let Sender::Power(power) = order.from
            && !self.submitted.contains(&power)
        {
            self.submitted.push(power);
        }
        self.variant_orders.push(order);
    }

    /// Clears the sender's variant commands of a set ([`Slot::Member`]): a new message
    /// replaces them (H1, [`crate::variant::Taken::Replacing`]).
    pub fn clear_variant_set(&mut self, from: Sender, set: &str) {
        self.variant_orders
            .retain(|v| !(v.from == from && v.slot.set() == Some(set)));
    }

    /// Every standing order, in a stable order (powers alphabetical, then as given).
    pub fn all_orders(&self) -> Vec<PowerOrder> {
        self.orders.values().flatten().copied().collect()
    }

    /// Clears a power's orders (`CLEAR`), its variant orders included.
    pub fn clear_orders(&mut self, power: Power) {
        self.orders.remove(&power);
        self.variant_orders
            .retain(|v| v.from != Sender::Power(power));
        self.submitted.retain(|p| *p != power);
    }

    /// Whether the phase may be processed before its deadline: the rule set allows it (H18),
    /// someone plays, and every order the judge waits for is in ([`Game::ready`]).
    pub fn all_in(&self, map: &Map, variant: &dyn Variant) -> bool {
        let r = self.readiness(map, variant);
        r.early == Early::WhenAllIn
            && self.players.iter().any(Player::is_playing)
            && self.all_received(&r)
    }

    /// Whether the judge waits for `power`'s orders: always for a played seat; for an
    /// abandoned or dummy power only in a NONMR game, which waits for a replacement (njudge).
    /// In an NMR game a power nobody plays stalls nothing: it takes the civil-disorder
    /// defaults.
    pub fn awaits(&self, power: Power) -> bool {
        !self.settings.nmr || self.player(power).is_none_or(Player::is_playing)
    }

    /// Whether everyone who must order has a complete set and nobody waits (the master
    /// included, when the rule set waits for it: H18): what the master's `PROCESS` asks.
    /// Only the powers the judge waits for count ([`Game::awaits`]).
    pub fn ready(&self, map: &Map, variant: &dyn Variant) -> bool {
        let r = self.readiness(map, variant);
        r.early != Early::WaitsForMaster && self.all_received(&r)
    }

    /// Whether every power that owes orders has sent them all, and none asked to wait.
    fn all_received(&self, r: &Readiness) -> bool {
        Power::ALL.into_iter().all(|p| match r.status(p) {
            None => true,
            Some(_) if !self.awaits(p) => true,
            Some(s) => s == OrderStatus::Received && !self.player(p).is_some_and(|pl| pl.wait),
        })
    }

    /// The powers that must order and hold processing until the deadline (`SET WAIT`).
    pub fn waiting_powers(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.statuses(map, variant)
            .into_iter()
            .filter(|(p, s)| s.is_some() && self.player(*p).is_some_and(|pl| pl.wait))
            .map(|(p, _)| p)
            .collect()
    }

    /// Whether the rule set waits for the master before the phase is processed (H18).
    pub fn waits_for_master(&self, map: &Map, variant: &dyn Variant) -> bool {
        self.readiness(map, variant).early == Early::WaitsForMaster
    }

    /// The powers the judge waits for that must order and have not sent a complete set (the
    /// late powers at a deadline, each told so itself, and the master).
    pub fn missing_powers(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.awaited(missing(self.statuses(map, variant)))
    }

    /// The late powers as everyone may know them ([`Game::public_order_status`]): the ones
    /// named to everyone at the deadline, whose orders the judge waits for.
    pub fn public_missing_powers(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.awaited(missing(self.public_statuses(map, variant)))
    }

    /// The played seats that must order now and have sent nothing (each misses the phase
    /// if it is processed so), and those that sent something: what
    /// [`Game::count_missed`] counts.
    pub fn missing_and_ordered(
        &self,
        map: &Map,
        variant: &dyn Variant,
    ) -> (Vec<Power>, Vec<Power>) {
        let mut missed = Vec::new();
        let mut ordered = Vec::new();
        for (p, s) in self.statuses(map, variant) {
            match s {
                Some(_) if !self.is_played(p) => {}
                Some(OrderStatus::None) => missed.push(p),
                Some(_) => ordered.push(p),
                None => {}
            }
        }
        (missed, ordered)
    }

    /// The powers of `powers` the judge waits for.
    fn awaited(&self, powers: Vec<Power>) -> Vec<Power> {
        powers.into_iter().filter(|p| self.awaits(*p)).collect()
    }

    /// The powers that must order now as everyone may know it.
    pub fn public_powers_to_order(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.public_statuses(map, variant)
            .into_iter()
            .filter_map(|(p, s)| s.map(|_| p))
            .collect()
    }

    /// The draw every power in `voters` accepts (DIAS among them), if any: the rule set says
    /// whose agreement a draw needs (H17, [`Variant::draw_powers`]; the standard game's
    /// surviving powers).
    pub fn agreed_draw(&self, voters: &[Power]) -> Option<Vec<Power>> {
        let mut survivors = voters.to_vec();
        survivors.sort();
        survivors.dedup();
        if survivors.is_empty() {
            return None;
        }
        let all_accept = survivors.iter().all(|p| {
            self.player(*p)
                .and_then(|pl| pl.draw.as_ref())
                .is_some_and(|d| {
                    let mut d = if d.is_empty() {
                        survivors.clone()
                    } else {
                        d.clone()
                    };
                    d.sort();
                    d == survivors
                })
        });
        all_accept.then_some(survivors)
    }

    /// The power every player in `voters` concedes to, if they all agree (not the power
    /// itself, nor, in a duplex game, the other powers its player holds).
    pub fn agreed_concession(&self, voters: &[Power]) -> Option<Power> {
        let first = self.player(*voters.first()?)?.concede?;
        let winners = self.held_with(first);
        voters
            .iter()
            .filter(|p| !winners.contains(p))
            .all(|p| self.player(*p).and_then(|pl| pl.concede) == Some(first))
            .then_some(first)
    }

    /// The powers whose agreement ends the game by draw or concession, as the rule set says.
    pub fn draw_powers(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        let parts = self.view_parts();
        variant.draw_powers(&self.view(map, &parts), &self.variant_state)
    }

    /// The powers whose votes a draw or a concession needs, and who share a draw: the
    /// rule set's [`Game::draw_powers`] that someone plays (a power nobody plays has no
    /// vote and no share, `docs/decisions.md`).
    pub fn draw_voters(&self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.draw_powers(map, variant)
            .into_iter()
            .filter(|p| self.is_played(*p))
            .collect()
    }

    /// Units of a power that have no standing order (for the "missing orders" reply).
    pub fn unordered_units(&self, power: Power) -> Vec<UnitSpec> {
        let mut given: Vec<_> = self
            .orders
            .get(&power)
            .map(|v| {
                v.iter()
                    .filter_map(|o| o.order.unit().map(|u| u.province()))
                    .collect()
            })
            .unwrap_or_default();
        given.extend(self.variant_orders.iter().filter_map(|v| match v.slot {
            Slot::Unit(p) if v.from == Sender::Power(power) => Some(p),
            _ => None,
        }));
        self.position
            .units
            .iter()
            .filter(|u| u.owner == Owner::Power(power) && !given.contains(&u.location.province))
            .map(|u| UnitSpec::new(Some(u.kind), u.location))
            .collect()
    }

    /// Orders that name a unit of the power, for its reply listing.
    pub fn orders_of(&self, power: Power) -> &[PowerOrder] {
        self.orders.get(&power).map(Vec::as_slice).unwrap_or(&[])
    }

    /// When a clock tick next has something to do for this game: the reminder, the
    /// deadline, the end of grace, or processing once every order is in (never before
    /// [`Game::not_before`]); for a full forming game, its start time (the store indexes
    /// it, so a tick looks only at games that are due).
    pub fn next_event(&self) -> Option<DateTime<Utc>> {
        if self.status == Status::Forming {
            if self.joiners.len() == self.players_wanted() {
                return self.not_before;
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

    /// Starts a new phase: clear orders and notices.
    pub fn open_phase(&mut self, position: Position) {
        self.position = position;
        self.orders.clear();
        self.variant_orders.clear();
        self.submitted.clear();
        self.all_in_since = None;
        self.late_notified = false;
        self.late_at_deadline.clear();
        self.reminded = false;
        self.grace_until = None;
        for p in &mut self.players {
            p.wait = false;
        }
    }
}

/// The powers whose status is not `received`.
fn missing(statuses: Vec<(Power, Option<OrderStatus>)>) -> Vec<Power> {
    statuses
        .into_iter()
        .filter(|(_, s)| s.is_some_and(|s| s != OrderStatus::Received))
        .map(|(p, _)| p)
        .collect()
}

/// Assigns powers to the seven joiners, random by preference: in an order shuffled by the
/// seed, each joiner gets their most preferred power still free; then the joiners left
/// without one get the remaining powers at random. Deterministic for a seed.
pub fn assign_powers(joiners: &[Joiner], seed: u64) -> Vec<(Power, Seat)> {
    let mut rng = crate::sim::Rng::new(seed);
    let mut order: Vec<usize> = (0..joiners.len()).collect();
    for i in (1..order.len()).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
    let mut free: Vec<Power> = Power::ALL.to_vec();
    let mut out = Vec::new();
    let mut unplaced = Vec::new();
    for i in order {
        let Some(j) = joiners.get(i) else { continue };
        match j.preferences.iter().copied().find(|p| free.contains(p)) {
            Some(p) => {
                free.retain(|x| *x != p);
                out.push((p, j.seat.clone()));
            }
            None => unplaced.push(j),
        }
    }
    for j in unplaced {
        if free.is_empty() {
            break;
        }
        let p = free.remove(rng.below(free.len()));
        out.push((p, j.seat.clone()));
    }
    out.sort_by_key(|(p, _)| *p);
    out
}

#[cfg(test)]
mod tests;
