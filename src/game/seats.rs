//! A seat's life: who plays each power, from which phase to which, and what happens when a
//! player drops out (issue 27).
//!
//! One life cycle for every seat: **playing → abandoned** (the player resigned, the master
//! ejected them, they missed as many phases in a row as the game allows, or they were late in
//! a NONMR game) **→ taken over → playing**; and **dummy**, a power nobody has played (a
//! game the master started short, `FORCE BEGIN`). An abandoned or dummy power is in civil
//! disorder: it orders nothing, it stalls nothing in an NMR game, and anyone may take it over
//! (`SIGNON <initial><game> <password>`, `TAKEOVER <power> <game> <password>`), at once or
//! once the master approves.
//!
//! Each tenure of a seat is recorded ([`Tenure`]): who played which power from which phase
//! to which, why it ended, and the phases its player missed. It is data other features read
//! (SUMMARY, EXPORT, a reliability record): typed, stored with the game, documented here.
//!
//! Pure: the judge passes `now` in, and says who is told what (the texts are
//! `bulletin::seats`'s).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::command::EjectTarget;
use crate::map::Power;
use crate::rules::Phase;

use super::{Game, Invitation, Joiner, Player, Refused, Seat, Status};

/// How many co-masters a game may have.
pub const MAX_COMASTERS: usize = 5;

/// A seat proven at an address (`Game::prove_seat`): the seat's name (`England`,
/// `master`, `master 2`) and the address, in lower case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatProof {
    pub seat: String,
    pub address: String,
}

/// A seat a mail signed on as: a power's, or a master's (0: the master, then the
/// co-masters in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatRef {
    Power(Power),
    Master(usize),
}

/// Who `EJECT` put out ([`Game::eject`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ejected {
    /// The player of a power (their address), whose seat is abandoned.
    Player { power: Power, previous: String },
    /// An observer, whose subscription ends.
    Observer(String),
}

/// Where a seat is in its life.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatStatus {
    /// Someone plays the power.
    Playing,
    /// Its player left: the power is in civil disorder and open for takeover.
    Abandoned(Abandonment),
    /// Nobody has played the power (the game started short): civil disorder, open for
    /// takeover.
    Dummy,
}

/// Why a seat was abandoned (and why its player's tenure ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Abandonment {
    /// The player sent `RESIGN`.
    Resigned,
    /// The master sent `EJECT`.
    Ejected,
    /// The player missed this many phases in a row, as many as the game allows
    /// (`SET ABANDON n`).
    MissedPhases(u32),
    /// The player's orders were still missing at the end of grace in a NONMR game.
    Late,
}

/// A takeover waiting for the master's approval (`SET APPROVAL`): who asked, with the
/// password they chose.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub seat: Seat,
    pub at: DateTime<Utc>,
}

/// A seat whose mail bounces: a permanent delivery failure to its address (a delivery
/// report, or the mail server refusing it). Its master was told once; a mail from its
/// player clears it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounce {
    /// The failure as the mail system gave it.
    pub reason: String,
    pub since: DateTime<Utc>,
}

/// One player's time at one power: who (their address when the tenure began), from which
/// phase to which, why it ended, and the phases they missed.
///
/// Both ends are inclusive: a player who resigns during Fall 1902 held the power in Fall
/// 1902, and so does the player who takes it over in that phase. The record is read by
/// `SUMMARY` (and, later, EXPORT and the players' reliability record): it is part of the
/// game's stored state, in the game's own order (by the time each tenure began).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tenure {
    pub power: Power,
    /// The player's address when the tenure began.
    pub address: String,
    /// The phase the player started in.
    pub from: Phase,
    /// The last phase the player held (None: the player holds the power now, or held it
    /// to the end of the game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Phase>,
    /// Why the tenure ended (None: it has not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Abandonment>,
    /// Phases processed while this player held the power that needed orders from it and
    /// got none (NMR): counted for this player, never for the power's next one.
    #[serde(default)]
    pub missed: u32,
    /// Phases processed while this player held the power that needed orders from it and
    /// got them before the deadline (issue 31: the reliability record).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub on_time: u32,
    /// Phases that got this player's orders only after the deadline (in the grace period).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub late: u32,
    /// Whether this tenure counts the phases ordered on time and late (tenures begun
    /// before the judge counted them have only `missed`: their missed phases do not enter
    /// the on-time ratio, which would read them against no phase on time).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counts_orders: bool,
    /// When the player took the power over (None: it played the power from the start, or
    /// took it over before the judge kept the time): what it reads of the power's earlier
    /// private mail depends on it (`SET TAKEOVER HISTORY`, docs/audience.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<DateTime<Utc>>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Tenure {
    /// Whether the tenure goes on.
    pub fn is_open(&self) -> bool {
        self.ended.is_none()
    }
}

/// Why a takeover, an approval or a seat's setting is refused (the sentences are
/// `bulletin::seats`'s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatRefusal {
    /// `TAKEOVER` of a power someone plays.
    NotOpen { power: Power, game: String },
    /// The address already plays another power of the game.
    AlreadyPlays { power: Power, game: String },
    /// The master ejected this address from the power.
    Ejected { power: Power, game: String },
    /// Another takeover of the power waits for the master's answer.
    ClaimPending { power: Power, game: String },
    /// `APPROVE` or `REJECT` with no takeover waiting.
    NoClaim { power: Power, game: String },
    /// A seat's own setting (`SET ADDRESS`, `SET PASSWORD`, `RESIGN`) for a power nobody
    /// plays: the new player signs on instead.
    NobodyPlays { power: Power, game: String },
    /// `EJECT` of a power nobody plays.
    NothingToEject { power: Power, game: String },
    /// `EJECT address` names neither a player nor an observer of the game.
    UnknownAddress { address: String, game: String },
    /// `FORCE BEGIN` in a forming game that nobody joined.
    CannotBegin { game: String, joined: usize },
    /// `FORCE BEGIN` in a game that has begun (running, paused or over).
    AlreadyBegun { game: String },
    /// The game is over (or not started): no seat changes hands.
    NotRunning { game: String },
}

impl SeatRefusal {
    /// The stable code players and tools read.
    pub fn code(&self) -> &'static str {
        match self {
            SeatRefusal::NotOpen { .. } => "NOT-OPEN",
            SeatRefusal::AlreadyPlays { .. } => "ALREADY-PLAYING",
            SeatRefusal::Ejected { .. } => "EJECTED",
            SeatRefusal::ClaimPending { .. } => "TAKEOVER-PENDING",
            SeatRefusal::NoClaim { .. } => "NO-TAKEOVER",
            SeatRefusal::NobodyPlays { .. } => "OPEN-SEAT",
            SeatRefusal::NothingToEject { .. } => "NO-PLAYER",
            SeatRefusal::UnknownAddress { .. } => "NOT-IN-GAME",
            SeatRefusal::CannotBegin { .. } | SeatRefusal::AlreadyBegun { .. } => "CANNOT-BEGIN",
            SeatRefusal::NotRunning { .. } => "NOT-ACTIVE",
        }
    }
}

impl std::error::Error for SeatRefusal {}

/// What a takeover did: the power, the address that played it before (None: a dummy), and
/// the deadline it moved to, if it had to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakenOver {
    pub power: Power,
    pub previous: Option<String>,
    pub deadline_moved: Option<DateTime<Utc>>,
    /// A wait was placed on every player (the game runs): as njudge, the phase is not
    /// processed early before the newcomer and the others have looked again.
    pub waits_placed: bool,
}

impl Player {
    /// A power nobody plays (a game started short): its seat has no address and no
    /// password.
    pub fn dummy(power: Power) -> Player {
        let mut p = Player::new(
            power,
            Seat {
                address: String::new(),
                password_hash: String::new(),
            },
        );
        p.status = SeatStatus::Dummy;
        p
    }

    /// Whether someone plays the power now.
    pub fn is_playing(&self) -> bool {
        self.status == SeatStatus::Playing
    }

    /// Whether the power is open for takeover (abandoned, or a dummy).
    pub fn is_open(&self) -> bool {
        !self.is_playing()
    }

    /// The address that played the power last, if anyone did (an abandoned seat keeps its
    /// last player's address until it is taken over).
    pub fn last_address(&self) -> Option<&str> {
        match self.status {
            SeatStatus::Dummy => None,
            _ => Some(self.seat.address.as_str()),
        }
    }
}

/// The default least time a newcomer gets before the deadline of the phase they join.
pub const DEFAULT_TAKEOVER_HOURS: i64 = 24;

/// The most characters of a mail server's words kept for a bouncing seat.
const MAX_BOUNCE_REASON: usize = 400;

/// The most `SET TAKEOVER` may give a newcomer: four weeks (a game is not stopped longer
/// for one player, and the deadline stays a date the clock can hold).
pub const MAX_TAKEOVER_HOURS: u32 = 4 * 7 * 24;

impl Game {
    /// Whether the game tells everyone when a seat changes hands: not when it is quiet
    /// (njudge's `SET QUIET`), as `LIST game` says. An anonymous game tells everyone too
    /// (issue 38: it told the master alone while `LIST` said "announced to everyone"):
    /// the notices name the power, never a player. Told or not, the master always is, and
    /// so is the player concerned.
    pub fn seat_changes_public(&self) -> bool {
        !self.settings.quiet
    }

    /// Whether the game hides who plays which power (`SET ANONYMOUS`): seat notices go to
    /// the master alone.
    pub fn is_anonymous(&self) -> bool {
        self.settings.anonymous
    }

    /// Whether the game is under way (running or paused): seats change hands only then.
    pub fn is_running(&self) -> bool {
        matches!(self.status, Status::Active | Status::Paused)
    }

    /// The powers open for takeover (abandoned or dummy), while the game runs.
    pub fn open_powers(&self) -> Vec<Power> {
        if !self.is_running() {
            return Vec::new();
        }
        self.players
            .iter()
            .filter(|p| p.is_open())
            .map(|p| p.power)
            .collect()
    }

    /// Whether `power` is played now.
    pub fn is_played(&self, power: Power) -> bool {
        self.player(power).is_some_and(Player::is_playing)
    }

    /// The powers whose seats are played now.
    pub fn playing_powers(&self) -> Vec<Power> {
        self.players
            .iter()
            .filter(|p| p.is_playing())
            .map(|p| p.power)
            .collect()
    }

    /// The power an address plays in this game, if any (letter case ignored).
    pub fn power_played_by(&self, address: &str) -> Option<Power> {
        self.players
            .iter()
            .find(|p| p.is_playing() && p.seat.address.eq_ignore_ascii_case(address))
            .map(|p| p.power)
    }

    /// Seats the game's players: the assigned powers are played from the first phase (a
    /// tenure each), every other power is a dummy (`FORCE BEGIN`).
    pub fn seat_players(&mut self, assigned: Vec<(Power, Seat)>) {
        let first = self.position.phase;
        self.players = Power::ALL
            .into_iter()
            .map(|power| {
                match assigned
                    .iter()
                    .find(|(p, _)| *p == power)
                    .map(|(_, s)| s.clone())
                {
                    Some(seat) => Player::new(power, seat),
                    None => Player::dummy(power),
                }
            })
            .collect();
        self.tenures = self
            .players
            .iter()
            .filter(|p| p.is_playing())
            .map(|p| Tenure {
                power: p.power,
                address: p.seat.address.clone(),
                from: first,
                to: None,
                ended: None,
                missed: 0,
                on_time: 0,
                late: 0,
                counts_orders: true,
                since: None,
            })
            .collect();
    }

    /// The open tenure of a power, if someone holds it.
    fn open_tenure(&mut self, power: Power) -> Option<&mut Tenure> {
        self.tenures
            .iter_mut()
            .rev()
            .find(|t| t.power == power && t.is_open())
    }

    /// The player of `power` leaves (`why`): the seat is abandoned, its settings (wait, draw,
    /// concession, a takeover waiting) are cleared, its standing orders dropped (the power
    /// is in civil disorder), and the player's tenure ends with the current phase. False if
    /// nobody played it.
    pub fn abandon(&mut self, power: Power, why: Abandonment) -> bool {
        self.abandon_at(power, why, self.position.phase)
    }

    /// [`Game::abandon`], the player's last phase being `last` (the phase just processed,
    /// when missed phases abandon a seat).
    pub fn abandon_at(&mut self, power: Power, why: Abandonment, last: Phase) -> bool {
        let Some(pl) = self.player_mut(power).filter(|p| p.is_playing()) else {
            return false;
        };
        pl.status = SeatStatus::Abandoned(why);
        pl.wait = false;
        pl.draw = None;
        pl.concede = None;
        pl.claim = None;
        pl.missed_in_row = 0;
        // Not a change of the orders the reply lists: the power's are gone.
        self.drop_orders(power);
        self.all_in_since = None;
        self.touch();
        if let Some(t) = self.open_tenure(power) {
            t.to = Some(last);
            t.ended = Some(why);
        }
        true
    }

    /// A newcomer takes over an abandoned or dummy `power` with `seat` at `now`: the seat
    /// gets the new address and password and a clean slate (no wait, draw, concession,
    /// bounce or missed phases), a tenure begins with the current phase, and the phase's
    /// deadline moves, if it must, to give the newcomer the game's least time
    /// ([`Settings::takeover_hours`](super::Settings)). None if the power is played.
    pub fn take_over(&mut self, power: Power, seat: Seat, now: DateTime<Utc>) -> Option<TakenOver> {
        let phase = self.position.phase;
        self.player(power).filter(|p| p.is_open())?;
        // A new holder: what proved the seat's address proved it for the one before.
        let name = power.name();
        self.proofs.retain(|p| p.seat != name);
        let pl = self.player_mut(power).filter(|p| p.is_open())?;
        let previous = pl.last_address().map(str::to_string);
        let address = seat.address.clone();
        pl.seat = seat;
        pl.status = SeatStatus::Playing;
        pl.wait = false;
        pl.draw = None;
        pl.concede = None;
        pl.claim = None;
        pl.bouncing = None;
        pl.missed_in_row = 0;
        self.tenures.push(Tenure {
            power,
            address,
            from: phase,
            to: None,
            ended: None,
            missed: 0,
            on_time: 0,
            late: 0,
            counts_orders: true,
            since: Some(now),
        });
        self.all_in_since = None;
        self.touch();
        let deadline_moved = self.give_newcomer_time(now);
        // As njudge: a wait is placed on every active player (issue 38), so that nobody's
        // orders are processed early before they have seen who came in; it ends at the
        // deadline (a wait never holds a phase past it), or with SET NOWAIT. A quiet game
        // tells nobody of the takeover, and places none.
        let waits_placed = self.status == Status::Active && self.seat_changes_public();
        if waits_placed {
            for p in self.players.iter_mut().filter(|p| p.is_playing()) {
                p.wait = true;
            }
        }
        Some(TakenOver {
            power,
            previous,
            deadline_moved,
            waits_placed,
        })
    }

    /// When `power`'s player now took it over (None: it has played it from the start, or
    /// nobody plays it, or the takeover is older than the judge's keeping of the time).
    pub fn taken_over_at(&self, power: Power) -> Option<DateTime<Utc>> {
        self.tenures
            .iter()
            .rev()
            .find(|t| t.power == power)
            .filter(|t| t.is_open())
            .and_then(|t| t.since)
    }

    /// Moves the deadline of a running game so that a newcomer has the game's least time
    /// before it; a game whose clock stopped (NONMR, waiting for a replacement) starts it
    /// again. Returns the new deadline if it moved.
    fn give_newcomer_time(&mut self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        if self.status != Status::Active {
            return None;
        }
        // A stored setting beyond the most SET TAKEOVER allows is read as that most.
        let hours = self
            .settings
            .takeover_hours
            .clamp(0, i64::from(MAX_TAKEOVER_HOURS));
        let least = now + Duration::hours(hours);
        match self.deadline {
            Some(d) if d >= least => None,
            _ => {
                self.deadline = Some(least);
                self.late_notified = false;
                // No reminder that would arrive with the welcome.
                self.reminded =
                    least - now <= Duration::hours(self.settings.deadlines.reminder_hours);
                Some(least)
            }
        }
    }

    /// Counts the phase being processed for each played seat: `missed` had to order and
    /// sent nothing (an NMR: counted in the player's tenure and in a row), `ordered` had to
    /// order and did (the count in a row starts again). Returns the powers whose players
    /// have now missed as many phases in a row as the game allows (`SET ABANDON n`; none
    /// when it is 0), to be abandoned.
    pub(super) fn count_missed(&mut self, missed: &[Power], ordered: &[Power]) -> Vec<Power> {
        let limit = self.settings.abandon_after;
        let mut out = Vec::new();
        for power in missed {
            if !self.is_played(*power) {
                continue;
            }
            if let Some(t) = self.open_tenure(*power) {
                t.missed += 1;
            }
            if let Some(pl) = self.player_mut(*power) {
                pl.missed_in_row += 1;
                if limit > 0 && pl.missed_in_row >= limit {
                    out.push(*power);
                }
            }
        }
        for power in ordered {
            if let Some(pl) = self.player_mut(*power) {
                pl.missed_in_row = 0;
            }
        }
        out
    }

    /// Counts the phase being processed for the played seats that ordered (issue 31): on
    /// time, or late when the power was among `late`, the powers still missing orders at
    /// the deadline ([`Game::late_at_deadline`](super::Game)).
    pub(super) fn count_ordered(&mut self, ordered: &[Power], late: &[Power]) {
        for power in ordered {
            if !self.is_played(*power) {
                continue;
            }
            if let Some(t) = self.open_tenure(*power) {
                if late.contains(power) {
                    t.late += 1;
                } else {
                    t.on_time += 1;
                }
            }
        }
    }

    /// Whether the master ejected anyone from `power`: a takeover of it waits for the
    /// master (`judge::proof`), so the one ejected does not take it back from another
    /// address.
    pub fn ejected_from(&self, power: Power) -> bool {
        self.tenures
            .iter()
            .any(|t| t.power == power && t.ended == Some(Abandonment::Ejected))
    }

    /// Records that the seat called `seat` (`England`, `master`, …) is proven at
    /// `address` (`judge::proof` decides when).
    pub fn prove_seat(&mut self, seat: &str, address: &str) {
        if !self.seat_proven(seat, address) {
            self.proofs.push(SeatProof {
                seat: seat.to_string(),
                address: address.to_ascii_lowercase(),
            });
            self.touch();
        }
    }

    /// Whether the seat called `seat` is proven at `address` (letter case ignored).
    pub fn seat_proven(&self, seat: &str, address: &str) -> bool {
        self.proofs
            .iter()
            .any(|p| p.seat == seat && p.address.eq_ignore_ascii_case(address))
    }

    /// Whether the master ejected `address` from `power` (an ejected address may not take
    /// the power back).
    pub fn was_ejected(&self, power: Power, address: &str) -> bool {
        self.tenures.iter().any(|t| {
            t.power == power
                && t.ended == Some(Abandonment::Ejected)
                && t.address.eq_ignore_ascii_case(address)
        })
    }

    /// The seats whose registered address is `address` (letter case ignored), played or
    /// abandoned: a permanent delivery failure to it marks them bouncing.
    pub fn seats_at(&self, address: &str) -> Vec<Power> {
        self.players
            .iter()
            .filter(|p| {
                p.last_address()
                    .is_some_and(|a| a.eq_ignore_ascii_case(address))
            })
            .map(|p| p.power)
            .collect()
    }

    /// Marks `power`'s seat bouncing (a permanent delivery failure, `reason`); true when it
    /// was not marked yet (its master is told once).
    pub fn mark_bouncing(&mut self, power: Power, reason: &str, now: DateTime<Utc>) -> bool {
        let Some(pl) = self.player_mut(power) else {
            return false;
        };
        if pl.bouncing.is_some() {
            return false;
        }
        // The words come from a mail server or a delivery report anyone can send: kept to
        // a line's worth in the stored game and the master's notice.
        let mut kept: String = reason.chars().take(MAX_BOUNCE_REASON).collect();
        if kept.len() < reason.len() {
            kept.push_str(" ...");
        }
        pl.bouncing = Some(Bounce {
            reason: kept,
            since: now,
        });
        self.touch();
        true
    }

    /// Clears `power`'s bouncing mark (its player wrote); true if it was set.
    pub fn clear_bouncing(&mut self, power: Power) -> bool {
        let cleared = self
            .player_mut(power)
            .and_then(|pl| pl.bouncing.take())
            .is_some();
        if cleared {
            self.touch();
        }
        cleared
    }
}

/// The seats' transitions from the mail: joining, a takeover waiting for the master, a
/// player leaving or put out, a seat's own settings, the co-masters.
impl Game {
    /// Whether `address` may join: the game is forming, the address has not joined, and a
    /// place is free. (The judge checks the entry gates and the password before joining.)
    pub fn may_join(&self, address: &str) -> Result<(), Refused> {
        if self.status != Status::Forming {
            return Err(Refused::NotForming(self.name.clone()));
        }
        if self
            .joiners
            .iter()
            .any(|j| j.seat.address.eq_ignore_ascii_case(address))
        {
            return Err(Refused::AlreadyJoined {
                from: address.to_string(),
                game: self.name.clone(),
            });
        }
        if self.joiners.len() >= self.players_wanted() {
            return Err(Refused::GameFull(self.name.clone()));
        }
        Ok(())
    }

    /// `SIGNON ?game`: `seat` joins (its `From:` name kept), by `invitation` if it came with
    /// one (used up). Returns how many have joined.
    pub fn join(
        &mut self,
        seat: Seat,
        name: Option<&str>,
        invitation: Option<&Invitation>,
    ) -> Result<usize, Refused> {
        self.may_join(&seat.address)?;
        if let Some(inv) = invitation {
            self.use_invitation(inv);
        }
        let address = seat.address.clone();
        self.joiners.push(Joiner {
            seat,
            preferences: Vec::new(),
        });
        self.record_name(&address, name);
        self.touch();
        Ok(self.joiners.len())
    }

    /// `SET PREFERENCE`: the powers `address`, waiting in this forming game, would rather
    /// play.
    pub fn set_preference(&mut self, address: &str, powers: &[Power]) -> Result<(), Refused> {
        let joiner = self
            .joiners
            .iter_mut()
            .find(|j| j.seat.address.eq_ignore_ascii_case(address))
            .ok_or(Refused::NotJoined)?;
        joiner.preferences = powers.to_vec();
        self.touch();
        Ok(())
    }

    /// `RESIGN` from the player of `power`: in a duplex game every power they hold (all
    /// abandoned first, so that none is told of the others'). Returns each power left with
    /// the address that played it.
    pub fn resign(&mut self, power: Power) -> Result<Vec<(Power, String)>, Refused> {
        if !self.is_played(power) {
            return Err(SeatRefusal::NobodyPlays {
                power,
                game: self.name.clone(),
            }
            .into());
        }
        let phase = self.position.phase;
        let held: Vec<(Power, String)> = self
            .held_with(power)
            .into_iter()
            .map(|q| {
                let address = self
                    .player(q)
                    .map(|pl| pl.seat.address.clone())
                    .unwrap_or_default();
                (q, address)
            })
            .collect();
        for (q, _) in &held {
            self.abandon_at(*q, Abandonment::Resigned, phase);
        }
        Ok(held)
    }

    /// `EJECT power|address`: the player of the power (or at the address) leaves, their
    /// seat abandoned; or an observer at the address stops observing.
    pub fn eject(&mut self, who: &EjectTarget) -> Result<Ejected, Refused> {
        let power = match who {
            EjectTarget::Power(p) => Some(*p),
            EjectTarget::Address(a) => self.power_played_by(a),
        };
        match (power, who) {
            (Some(p), _) => {
                if !self.is_played(p) {
                    return Err(SeatRefusal::NothingToEject {
                        power: p,
                        game: self.name.clone(),
                    }
                    .into());
                }
                let previous = self
                    .player(p)
                    .map(|pl| pl.seat.address.clone())
                    .unwrap_or_default();
                self.abandon_at(p, Abandonment::Ejected, self.position.phase);
                Ok(Ejected::Player { power: p, previous })
            }
            (None, EjectTarget::Address(a)) => {
                if !self.remove_observer(a) {
                    return Err(SeatRefusal::UnknownAddress {
                        address: a.clone(),
                        game: self.name.clone(),
                    }
                    .into());
                }
                Ok(Ejected::Observer(a.clone()))
            }
            (None, EjectTarget::Power(p)) => Err(SeatRefusal::NothingToEject {
                power: *p,
                game: self.name.clone(),
            }
            .into()),
        }
    }

    /// Whether `address` may take `power` over now: the game is under way, the address
    /// plays no other power of it, the master did not eject it from this one, and no other
    /// takeover of it waits. (The judge checks the entry gates and the password.)
    pub fn may_take_over(&self, power: Power, address: &str) -> Result<(), Refused> {
        let game = self.name.clone();
        if !self.is_running() {
            return Err(SeatRefusal::NotRunning { game }.into());
        }
        if let Some(q) = self.power_played_by(address) {
            return Err(SeatRefusal::AlreadyPlays { power: q, game }.into());
        }
        if self.was_ejected(power, address) {
            return Err(SeatRefusal::Ejected { power, game }.into());
        }
        if self.player(power).is_some_and(|pl| pl.claim.is_some()) {
            return Err(SeatRefusal::ClaimPending { power, game }.into());
        }
        Ok(())
    }

    /// A takeover of `power` by `seat` waits for the master's approval (`SET APPROVAL`).
    pub fn claim(&mut self, power: Power, seat: Seat, now: DateTime<Utc>) {
        if let Some(pl) = self.player_mut(power) {
            pl.claim = Some(Claim { seat, at: now });
        }
        self.touch();
    }

    /// `APPROVE power` or `REJECT power`: the takeover that waited, taken off the seat.
    pub fn take_claim(&mut self, power: Power) -> Result<Claim, Refused> {
        let claim = self
            .player_mut(power)
            .and_then(|pl| pl.claim.take())
            .ok_or_else(|| SeatRefusal::NoClaim {
                power,
                game: self.name.clone(),
            })?;
        self.touch();
        Ok(claim)
    }

    /// The seats a mail signed on as `seat` changes by its seat settings: the seat's own,
    /// and in a duplex game the seats of every other power its player holds. Refused for a
    /// power nobody plays (its new player signs on instead) and a seat the game lacks.
    fn seats_of(&self, seat: SeatRef) -> Result<Vec<Power>, Refused> {
        match seat {
            SeatRef::Power(p) => {
                let pl = self.player(p).ok_or(Refused::NoSeat)?;
                if !pl.is_playing() {
                    return Err(SeatRefusal::NobodyPlays {
                        power: p,
                        game: self.name.clone(),
                    }
                    .into());
                }
                Ok(self.held_with(p))
            }
            SeatRef::Master(0) => Ok(Vec::new()),
            SeatRef::Master(i) if i <= self.comasters.len() => Ok(Vec::new()),
            SeatRef::Master(_) => Err(Refused::NoSeat),
        }
    }

    /// Changes the seat `seat` (and in a duplex game the seats of the other powers its
    /// player holds, which stay one player's); a power's mail is read again, whatever
    /// bounced before.
    fn change_seats(&mut self, seat: SeatRef, mut f: impl FnMut(&mut Seat)) -> Result<(), Refused> {
        let powers = self.seats_of(seat)?;
        match seat {
            SeatRef::Master(0) => f(&mut self.master),
            SeatRef::Master(i) => {
                if let Some(s) = self.comasters.get_mut(i - 1) {
                    f(s);
                }
            }
            SeatRef::Power(_) => {
                for q in powers {
                    if let Some(pl) = self.player_mut(q) {
                        pl.bouncing = None;
                        f(&mut pl.seat);
                    }
                }
            }
        }
        self.touch();
        Ok(())
    }

    /// `SET PASSWORD`: the seat's new password (its argon2 hash).
    pub fn set_seat_password(&mut self, seat: SeatRef, hash: &str) -> Result<(), Refused> {
        self.change_seats(seat, |s| s.password_hash = hash.to_string())
    }

    /// `SET ADDRESS`: the seat's new address. Returns whether it differs from the old one
    /// (letter case aside).
    pub fn set_seat_address(&mut self, seat: SeatRef, address: &str) -> Result<bool, Refused> {
        let mut changed = false;
        self.change_seats(seat, |s| {
            changed |= !s.address.eq_ignore_ascii_case(address);
            s.address = address.to_string();
        })?;
        Ok(changed)
    }

    /// Makes a setting of the player of `power` (`SET WAIT`, `SET DRAW`, …): in a duplex
    /// game, of every power they hold (one player, one setting). Refused for a power
    /// nobody plays.
    pub(super) fn each_held(
        &mut self,
        power: Power,
        mut f: impl FnMut(&mut Player),
    ) -> Result<(), Refused> {
        let pl = self.player(power).ok_or(Refused::NoSeat)?;
        if !pl.is_playing() {
            return Err(SeatRefusal::NobodyPlays {
                power,
                game: self.name.clone(),
            }
            .into());
        }
        for q in self.held_with(power) {
            if let Some(pl) = self.player_mut(q) {
                f(pl);
            }
        }
        self.touch();
        Ok(())
    }

    /// A joiner's new password (its hash): for a game set up outside the mail (a test's
    /// seats); a player waiting in a forming game has no `SET PASSWORD`.
    pub fn set_joiner_password(&mut self, address: &str, hash: &str) -> Result<(), Refused> {
        let joiner = self
            .joiners
            .iter_mut()
            .find(|j| j.seat.address.eq_ignore_ascii_case(address))
            .ok_or(Refused::NotJoined)?;
        joiner.seat.password_hash = hash.to_string();
        self.touch();
        Ok(())
    }

    /// `SET WAIT` / `SET NOWAIT` from the player of `power`.
    pub fn set_wait(&mut self, power: Power, wait: bool) -> Result<(), Refused> {
        self.each_held(power, |p| p.wait = wait)
    }

    /// Whether `address` may be promoted co-master: it has no seat in the game, and the
    /// game has fewer than [`MAX_COMASTERS`].
    pub fn may_promote(&self, address: &str) -> Result<(), Refused> {
        if self.has_seat_at(address) {
            return Err(Refused::AlreadyInGame(address.to_string()));
        }
        if self.comasters.len() >= MAX_COMASTERS {
            return Err(Refused::TooManyMasters(MAX_COMASTERS));
        }
        Ok(())
    }

    /// `PROMOTE address`: a co-master's seat, with the password mailed to it.
    pub fn promote(&mut self, seat: Seat) -> Result<(), Refused> {
        self.may_promote(&seat.address)?;
        self.comasters.push(seat);
        self.touch();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
