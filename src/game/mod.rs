//! A game's life as data and pure decisions: who plays which power, settings, the phase
//! and its orders, deadlines, press policy, and the end of the game.
//!
//! No SQL, no mail, no clock: time comes in as a value. The judge loads a [`Game`], calls
//! these functions, and saves it.

mod deadline;
mod press;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::map::{Map, Power};
use crate::rules::{Owner, PhaseKind, Position, PowerOrder, Rules, UnitSpec};

pub use deadline::{DeadlineSettings, DueEvent, due_event, next_deadline};
pub use press::{
    Audience, ObserverLevel, PressLevel, PressPolicy, PressRefusal, PressRoute, Sender, press_route,
};

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

/// A power's player and their settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub power: Power,
    pub seat: Seat,
    /// `SET WAIT`: hold processing until the deadline.
    pub wait: bool,
    /// `SET DRAW`: the powers this player accepts a draw among (empty: all survivors).
    pub draw: Option<Vec<Power>>,
    /// Abandoned (NMR game past grace, or ejected): open for takeover.
    pub abandoned: bool,
    /// Resigned or eliminated players are kept for the record.
    pub resigned: bool,
    /// `SET CONCEDE power`: this player concedes the game to that power.
    pub concede: Option<Power>,
}

impl Player {
    /// A new player of `power`, with no settings made yet.
    pub fn new(power: Power, seat: Seat) -> Player {
        Player {
            power,
            seat,
            wait: false,
            draw: None,
            abandoned: false,
            resigned: false,
            concede: None,
        }
    }
}

/// Where the game is in its life.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Waiting for seven players.
    Forming,
    Active,
    /// Stopped by the master: no deadline runs.
    Paused,
    Finished(Ending),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    Solo(Power),
    Draw(Vec<Power>),
    Concession(Power),
    Terminated,
}

impl Ending {
    /// A sentence for the last bulletin.
    pub fn sentence(&self) -> String {
        match self {
            Ending::Solo(p) => format!("{p} has won a solo victory."),
            Ending::Draw(ps) => format!(
                "The game ended in a draw between {}.",
                crate::game::list_powers(ps)
            ),
            Ending::Concession(p) => format!("The game was conceded to {p}."),
            Ending::Terminated => "The game was terminated by the master.".to_string(),
        }
    }
}

/// `A`, `A and B`, `A, B and C`, alphabetical (rules/README §2.1).
pub fn list_powers(powers: &[Power]) -> String {
    let mut v: Vec<Power> = powers.to_vec();
    v.sort();
    v.dedup();
    let names: Vec<&str> = v.iter().map(|p| p.name()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
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
    pub reminded: bool,
    /// The seed for this game's random choices (power assignment), recorded.
    pub seed: u64,
    /// How many phases have been processed (the snapshot number of the current phase).
    pub turn: u32,
    /// Postal press held back until the next results: (readers, subject, body).
    pub postal: Vec<(Vec<Audience>, String, String)>,
}

impl Game {
    /// A forming game.
    pub fn new(name: &str, variant: &str, master: Seat, seed: u64, map: &Map) -> Game {
        Game {
            name: name.to_string(),
            variant: variant.to_string(),
            status: Status::Forming,
            master,
            joiners: Vec::new(),
            players: Vec::new(),
            observers: Vec::new(),
            settings: Settings::default(),
            position: Position::standard_start(map),
            orders: BTreeMap::new(),
            submitted: Vec::new(),
            deadline: None,
            all_in_since: None,
            late_notified: false,
            reminded: false,
            seed,
            turn: 0,
            postal: Vec::new(),
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
        Power::ALL
            .into_iter()
            .filter(|p| {
                self.position.centre_count(*p) > 0
                    || self
                        .position
                        .units
                        .iter()
                        .any(|u| u.owner == Owner::Power(*p))
            })
            .collect()
    }

    /// The powers that must order in the current phase.
    pub fn powers_to_order(&self, map: &Map, rules: &dyn Rules) -> Vec<Power> {
        let pos = &self.position;
        Power::ALL
            .into_iter()
            .filter(|p| match pos.phase.kind {
                PhaseKind::Movement => pos.units.iter().any(|u| u.owner == Owner::Power(*p)),
                PhaseKind::Retreat => pos
                    .dislodged
                    .iter()
                    .any(|d| d.unit.owner == Owner::Power(*p)),
                PhaseKind::Adjustment => {
                    let n = rules.adjustment_count(pos, *p);
                    n < 0
                        || n > 0
                            && rules
                                .build_sites(map, pos, *p)
                                .iter()
                                .any(|s| pos.unit_in(*s).is_none())
                }
                PhaseKind::Alliance | PhaseKind::Jury | PhaseKind::Conference => false,
            })
            .collect()
    }

    /// A power's order status: `received` (every unit ordered, or an adjustment set sent),
    /// `incomplete` (some), `none`.
    pub fn order_status(&self, power: Power) -> OrderStatus {
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
            PhaseKind::Adjustment
            | PhaseKind::Alliance
            | PhaseKind::Jury
            | PhaseKind::Conference => {
                return if self.submitted.contains(&power) {
                    OrderStatus::Received
                } else {
                    OrderStatus::None
                };
            }
        };
        let given = self.orders.get(&power).map(Vec::len).unwrap_or(0);
        if given == 0 && needed > 0 {
            OrderStatus::None
        } else if given < needed {
            OrderStatus::Incomplete
        } else {
            OrderStatus::Received
        }
    }

    /// Stores a power's new orders. Each order replaces the power's earlier order for the
    /// same unit (njudge semantics: a later message corrects an earlier one unit by unit);
    /// adjustment orders replace the whole earlier set.
    pub fn set_orders(&mut self, power: Power, new: Vec<PowerOrder>) {
        let list = self.orders.entry(power).or_default();
        if self.position.phase.kind == PhaseKind::Adjustment {
            *list = new;
        } else {
            for o in new {
                let unit = o.order.unit().map(|u| u.province());
                list.retain(|old| old.order.unit().map(|u| u.province()) != unit);
                list.push(o);
            }
        }
        if !self.submitted.contains(&power) {
            self.submitted.push(power);
        }
    }

    /// Every standing order, in a stable order (powers alphabetical, then as given).
    pub fn all_orders(&self) -> Vec<PowerOrder> {
        self.orders.values().flatten().copied().collect()
    }

    /// Clears a power's orders (`CLEAR`).
    pub fn clear_orders(&mut self, power: Power) {
        self.orders.remove(&power);
        self.submitted.retain(|p| *p != power);
    }

    /// Whether everyone who must order has a complete set and nobody waits.
    pub fn all_in(&self, map: &Map, rules: &dyn Rules) -> bool {
        self.missing_powers(map, rules).is_empty()
            && !self
                .powers_to_order(map, rules)
                .into_iter()
                .any(|p| self.player(p).is_some_and(|pl| pl.wait))
    }

    /// The powers that must order and have not sent a complete set (the late powers at a
    /// deadline).
    pub fn missing_powers(&self, map: &Map, rules: &dyn Rules) -> Vec<Power> {
        self.powers_to_order(map, rules)
            .into_iter()
            .filter(|p| self.order_status(*p) != OrderStatus::Received)
            .collect()
    }

    /// The end of the game after a phase, if any: a solo (H17's standard default).
    pub fn solo_winner(&self) -> Option<Power> {
        if self.position.phase.kind == PhaseKind::Retreat {
            return None;
        }
        Power::ALL
            .into_iter()
            .find(|p| self.position.centre_count(*p) >= self.settings.centres_to_win)
    }

    /// The draw every surviving power accepts (DIAS), if any.
    pub fn agreed_draw(&self) -> Option<Vec<Power>> {
        let survivors = self.surviving_powers();
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

    /// The power every surviving player concedes to, if they all agree.
    pub fn agreed_concession(&self) -> Option<Power> {
        let survivors = self.surviving_powers();
        let first = self.player(*survivors.first()?)?.concede?;
        survivors
            .iter()
            .filter(|p| **p != first)
            .all(|p| self.player(*p).and_then(|pl| pl.concede) == Some(first))
            .then_some(first)
    }

    /// Units of a power that have no standing order (for the "missing orders" reply).
    pub fn unordered_units(&self, power: Power) -> Vec<UnitSpec> {
        let given: Vec<_> = self
            .orders
            .get(&power)
            .map(|v| {
                v.iter()
                    .filter_map(|o| o.order.unit().map(|u| u.province()))
                    .collect()
            })
            .unwrap_or_default();
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
    /// deadline, the end of grace, or processing once every order is in (the store indexes
    /// it, so a tick looks only at games that are due).
    pub fn next_event(&self) -> Option<DateTime<Utc>> {
        if self.status != Status::Active {
            return None;
        }
        let deadline = self.deadline?;
        let s = &self.settings.deadlines;
        let at = if let Some(since) = self.all_in_since {
            deadline.min(since + chrono::Duration::minutes(s.delay_minutes.max(0)))
        } else if !self.reminded && s.reminder_hours > 0 {
            deadline - chrono::Duration::hours(s.reminder_hours)
        } else if !self.late_notified {
            deadline
        } else {
            deadline + chrono::Duration::hours(s.grace_hours.max(0))
        };
        Some(at)
    }

    /// Starts a new phase: clear orders and notices.
    pub fn open_phase(&mut self, position: Position) {
        self.position = position;
        self.orders.clear();
        self.submitted.clear();
        self.all_in_since = None;
        self.late_notified = false;
        self.reminded = false;
        for p in &mut self.players {
            p.wait = false;
        }
    }
}

/// A power's order status, as LIST shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderStatus {
    Received,
    Incomplete,
    None,
}

impl OrderStatus {
    pub fn word(self) -> &'static str {
        match self {
            OrderStatus::Received => "received",
            OrderStatus::Incomplete => "incomplete",
            OrderStatus::None => "none",
        }
    }
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
