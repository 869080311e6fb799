//! A game's life: created, forming, started (its powers assigned), running and paused,
//! each phase processed into the next (or the end), rolled back or taken back to forming
//! by its master, and over. Each transition checks the state it starts from; the judge
//! does the mail around it (`judge::process`).

use chrono::{DateTime, Duration, Utc};

use crate::map::{Map, Power};
use crate::rules::{Phase, Position};
use crate::variant::{Ending, Line, Processed, Reader, Variant, VariantState};

use super::{Game, Joiner, Player, Refused, Seat, SeatRefusal, Settings, Status, assign_duplex};

/// A running game set up outside the mail (a case file, a test, a benchmark): its players
/// seated as given, the board, the rule set's state, the observers and the deadline.
#[derive(Clone, Debug)]
pub struct Arrangement {
    pub players: Vec<Player>,
    pub position: Position,
    /// None: the rule set's new state.
    pub variant_state: Option<VariantState>,
    pub observers: Vec<String>,
    pub deadline: Option<DateTime<Utc>>,
}

/// What `CREATE` makes a game of ([`Game::create`]).
pub struct NewGame<'a> {
    pub name: &'a str,
    pub master: Seat,
    /// The name in the `From:` of the master's mail.
    pub master_name: Option<&'a str>,
    pub seed: u64,
    pub settings: Settings,
    pub state: VariantState,
    pub now: DateTime<Utc>,
}

/// What processing a phase did to the game ([`Game::advance`]): the board it started
/// from, what the rule set made of it, the phase's number, the lines of immediate
/// commands and the postal press it held (both go out with the results), the seats that
/// missed as many phases in a row as the game allows, the draw's voters before it, and
/// the next phase's deadline (None: the game ends).
pub struct Advanced {
    pub before: Position,
    pub processed: Processed,
    pub seq: u32,
    pub immediate: Vec<Line>,
    pub postal: Vec<(Vec<Reader>, String, String)>,
    pub dropping: Vec<Power>,
    pub voters_before: Vec<Power>,
    pub next_deadline: Option<DateTime<Utc>>,
    pub ending: Option<Ending>,
}

impl Game {
    /// A game made by `CREATE`: forming, with its settings and the rule set's state as the
    /// options made them, and the name its master's mail gave.
    pub fn create(variant: &dyn Variant, map: &Map, new: NewGame<'_>) -> Game {
        let mut g = Game::new(new.name, variant, new.master, new.seed, map);
        g.settings = new.settings;
        g.variant_state = new.state;
        g.created = Some(new.now);
        let address = g.master.address.clone();
        g.note_name(&address, new.master_name);
        g
    }

    /// Sets a running game up as `a` says (a case file, a test, a benchmark: never a
    /// mail).
    pub fn arrange(&mut self, a: Arrangement) {
        self.status = Status::Active;
        self.players = a.players;
        self.position = a.position;
        if let Some(state) = a.variant_state {
            self.variant_state = state;
        }
        self.observers = a.observers;
        self.deadline = a.deadline;
        self.touch();
    }

    /// Starts a new phase: clear orders and notices.
    fn open_phase(&mut self, position: Position) {
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

    /// Whether the master may start the game short (`FORCE BEGIN`): it is forming and
    /// somebody joined.
    pub fn may_force_begin(&self) -> Result<(), Refused> {
        if self.status != Status::Forming || self.joiners.is_empty() {
            return Err(SeatRefusal::CannotBegin {
                game: self.name.clone(),
                joined: self.joiners.len(),
            }
            .into());
        }
        Ok(())
    }

    /// Starts a forming game at `now` (full, or forced: [`Game::may_start`],
    /// [`Game::may_force_begin`]): the powers are assigned (seeded, by preference; a power
    /// nobody got is a dummy), the rule set's first phase opens. Returns its deadline.
    pub fn start(&mut self, map: &Map, variant: &dyn Variant, now: DateTime<Utc>) -> DateTime<Utc> {
        let assigned = if self.is_duplex() {
            assign_duplex(&self.joiners, self.players_wanted(), self.seed)
        } else {
            assign_powers(&self.joiners, self.seed)
        };
        self.joiners.clear();
        self.status = Status::Active;
        let mut start = Position::standard_start(map);
        start.phase = variant.first_phase(&self.variant_state);
        self.open_phase(start);
        self.seat_players(assigned);
        self.touch();
        self.open_clock(now)
    }

    /// `PAUSE`: a running game stops; no deadline runs.
    pub fn pause(&mut self) -> Result<(), Refused> {
        if self.status != Status::Active {
            return Err(Refused::NotActive(self.name.clone()));
        }
        self.status = Status::Paused;
        self.touch();
        Ok(())
    }

    /// `RESUME` at `now`: a paused game runs again, with a deadline the master set in this
    /// mail if it is still ahead, else its schedule's. Returns the deadline.
    pub fn resume(&mut self, now: DateTime<Utc>) -> Result<DateTime<Utc>, Refused> {
        if self.status != Status::Paused {
            return Err(Refused::NotPaused(self.name.clone()));
        }
        self.status = Status::Active;
        self.touch();
        Ok(match self.deadline {
            Some(d) if self.since.deadline_set && d > now => d,
            _ => self.open_clock(now),
        })
    }

    /// Whether the game runs (`PROCESS!`, `PREVIEW`).
    pub fn may_process_now(&self) -> Result<(), Refused> {
        if self.status != Status::Active {
            return Err(Refused::NotActive(self.name.clone()));
        }
        Ok(())
    }

    /// Whether the master's `PROCESS [phase]` may process the phase at `now`: the game
    /// runs, the phase is the one named, every order the judge waits for is in, nobody
    /// waits, and the phase's start has come.
    pub fn may_process(
        &self,
        map: &Map,
        variant: &dyn Variant,
        phase: Option<Phase>,
        now: DateTime<Utc>,
    ) -> Result<(), Refused> {
        self.may_process_now()?;
        if let Some(given) = phase
            && given != self.position.phase
        {
            return Err(Refused::WrongPhase {
                current: self.position.phase,
                given,
            });
        }
        if !self.ready(map, variant) {
            return Err(Refused::NotReady {
                missing: self.missing_powers(map, variant),
                waiting: self.waiting_powers(map, variant),
                master: self.waits_for_master(map, variant),
            });
        }
        if let Some(until) = self.held_until(now) {
            return Err(Refused::Held {
                until,
                zone: self.time_zone(),
            });
        }
        Ok(())
    }

    /// Processes the phase open now through the rule set (missing orders take the
    /// civil-disorder defaults) and opens the next one at `now`, or ends the clock when
    /// the game ends: each played seat's phase is counted (missed, on time, late), and the
    /// immediate lines and postal press of the phase are handed out.
    pub fn advance(&mut self, map: &Map, variant: &dyn Variant, now: DateTime<Utc>) -> Advanced {
        let before = self.position.clone();
        let voters_before = self.draw_voters(map, variant);
        // The played seats that send nothing miss the phase (counted for their players);
        // the ones that reach the game's limit are abandoned once the results are out.
        let (missed, ordered) = self.missing_and_ordered(map, variant);
        let dropping = self.count_missed(&missed, &ordered);
        // The seats that ordered count the phase on time, or late if their orders were
        // still missing when the late notices went out (the reliability record, issue 31).
        let late = if self.late_notified {
            self.late_at_deadline.clone()
        } else {
            Vec::new()
        };
        self.count_ordered(&ordered, &late);
        let parts = self.view_parts();
        let mut state = self.variant_state.clone();
        let processed = crate::variant::process_phase(variant, &mut state, &self.view(map, &parts));
        self.variant_state = state;
        let immediate = std::mem::take(&mut self.immediate);
        let seq = self.turn;
        self.turn += 1;
        self.open_phase(processed.outcome.next.clone());
        let ending = processed.end.as_ref().map(|e| e.ending.clone());
        let next_deadline = if ending.is_none() {
            Some(self.open_clock(now))
        } else {
            self.deadline = None;
            None
        };
        // A phase no longer than the reminder window gets no reminder: it would arrive as
        // the phase opens, right behind the results that open it.
        self.reminded = next_deadline
            .is_some_and(|d| d - now <= Duration::hours(self.settings.deadlines.reminder_hours));
        let postal = std::mem::take(&mut self.postal);
        self.touch();
        Advanced {
            before,
            processed,
            seq,
            immediate,
            postal,
            dropping,
            voters_before,
            next_deadline,
            ending,
        }
    }

    /// Ends the game (`ending`): no deadline runs any more.
    pub fn finish(&mut self, ending: Ending) {
        self.status = Status::Finished(ending);
        self.deadline = None;
        self.touch();
    }

    /// `ROLLBACK`: the board, orders and rule set's state go back to `old` (a snapshot of
    /// this game); players, settings, addresses and absences stay as they are now. The
    /// game runs from the snapshot's phase, on a fresh clock at `now`. Returns the turn
    /// rolled back to (the snapshots after it are dropped).
    pub fn roll_back(&mut self, mut old: Game, now: DateTime<Utc>) -> u32 {
        old.players = self.players.clone();
        old.observers = self.observers.clone();
        old.observer_seats = self.observer_seats.clone();
        old.settings = self.settings.clone();
        old.master = self.master.clone();
        old.comasters = self.comasters.clone();
        old.absences = self.absences.clone();
        old.names = self.names.clone();
        old.status = Status::Active;
        old.orders.clear();
        old.submitted.clear();
        old.open_clock(now);
        old.since = std::mem::take(&mut self.since);
        *self = old;
        self.touch();
        self.turn
    }

    /// Whether `UNSTART` may take the game back to forming: it is under way and its first
    /// phase is not processed.
    pub fn may_unstart(&self) -> Result<(), Refused> {
        if !matches!(self.status, Status::Active | Status::Paused) {
            return Err(Refused::NotActive(self.name.clone()));
        }
        if self.turn > 0 {
            return Err(Refused::AlreadyProcessed(self.name.clone()));
        }
        Ok(())
    }

    /// `UNSTART`: a game whose first phase is not processed goes back to forming: its
    /// players wait as joiners (each with their powers as preferences; a duplex player is
    /// one joiner again; a dummy power is nobody's, and a player who resigned or was
    /// ejected left), the board and the rule set's state go back to the start
    /// (`start_state`, the state saved when it started). The postal press it held is
    /// dropped: the judge delivers it first, to the players as they were.
    pub fn unstart(&mut self, map: &Map, start_state: Option<VariantState>) -> Result<(), Refused> {
        self.may_unstart()?;
        self.postal.clear();
        let mut joiners: Vec<Joiner> = Vec::new();
        for p in self.players.drain(..).filter(Player::is_playing) {
            let same = joiners.iter_mut().find(|j| {
                !p.seat.address.is_empty() && j.seat.address.eq_ignore_ascii_case(&p.seat.address)
            });
            match same {
                Some(j) => j.preferences.push(p.power),
                None => joiners.push(Joiner {
                    seat: p.seat,
                    preferences: vec![p.power],
                }),
            }
        }
        self.joiners = joiners;
        self.status = Status::Forming;
        self.open_phase(Position::standard_start(map));
        self.deadline = None;
        self.not_before = None;
        self.immediate.clear();
        if let Some(state) = start_state {
            self.variant_state = state;
        }
        self.touch();
        Ok(())
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
