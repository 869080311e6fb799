//! A person's reliability record across games, and the entry gates a game's master sets on
//! it (issue 31; njudge's dedication, on-time ratio and CD ratio).
//!
//! The record is counted from what the games keep: each seat's tenures ([`Tenure`]: the
//! phases its player ordered on time, late or not at all, and why the tenure ended). A
//! missed phase counts for the player who held the seat then, never for the next one. A
//! person is every address linked to them (`I AM ALSO`); the judge passes the addresses
//! and the games in. Pure: no SQL, no clock, no words (the sentences are `bulletin`'s and
//! the judge's refusals').
//!
//! The record counts every game it is given: which games a reader may see counted (WHOIS,
//! the master's `LIST`) is the judge's audience rule; an entry gate reads the whole record
//! and answers only pass or fail.

use serde::{Deserialize, Serialize};

use super::{Abandonment, Game, Secrecy, Status, Tenure};

/// A ratio in thousandths (0 to 1000): njudge prints its ratios with three decimals, and an
/// integer compares exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Ratio(pub u32);

impl Ratio {
    /// The whole: 1.000.
    pub const ONE: Ratio = Ratio(1000);

    /// `part / whole` in thousandths, rounded down; None when `whole` is 0 (no record).
    pub fn of(part: u32, whole: u32) -> Option<Ratio> {
        if whole == 0 {
            return None;
        }
        let r = u64::from(part.min(whole)) * 1000 / u64::from(whole);
        Some(Ratio(u32::try_from(r).unwrap_or(1000)))
    }
}

/// njudge's default points for its dedication score (`points_ontime`, `points_late`,
/// `points_cd`, `points_abandon` in its `dip.conf`).
pub const POINTS_ON_TIME: i64 = 3;
/// A phase whose orders came in grace.
pub const POINTS_LATE: i64 = -1;
/// A phase processed without the player's orders (civil disorder).
pub const POINTS_MISSED: i64 = -50;
/// A seat left before the end: resigned, abandoned or ejected.
pub const POINTS_LEFT: i64 = -49;

/// What the record reads of one game: whether it is over, whether it is anonymous, and its
/// tenures. Read from a stored game without the rest of it ([`GameSeats::of`] from a
/// loaded one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct GameSeats {
    /// The game's name (empty in a state that did not keep it).
    #[serde(default)]
    pub name: String,
    pub status: Option<Status>,
    #[serde(default)]
    pub settings: SeatSettings,
    #[serde(default)]
    pub tenures: Vec<Tenure>,
}

/// The settings the record's readers read: what the game keeps secret about its players.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct SeatSettings {
    #[serde(default)]
    pub anonymous: bool,
    #[serde(default = "yes")]
    pub reveal: bool,
    #[serde(default)]
    pub addresses_shown: bool,
}

impl Default for SeatSettings {
    fn default() -> SeatSettings {
        SeatSettings {
            anonymous: false,
            reveal: true,
            addresses_shown: false,
        }
    }
}

/// serde's default for a setting that is on unless set off.
fn yes() -> bool {
    true
}

impl GameSeats {
    /// What the record reads of a loaded game.
    pub fn of(g: &Game) -> GameSeats {
        GameSeats {
            name: g.name.clone(),
            status: Some(g.status.clone()),
            settings: SeatSettings {
                anonymous: g.settings.anonymous,
                reveal: g.settings.reveal,
                addresses_shown: g.settings.addresses_shown,
            },
            tenures: g.tenures.clone(),
        }
    }

    /// What the game keeps secret about its players now.
    pub fn secrecy(&self) -> Secrecy {
        Secrecy {
            finished: matches!(self.status, Some(Status::Finished(_))),
            anonymous: self.settings.anonymous,
            reveal: self.settings.reveal,
            addresses_shown: self.settings.addresses_shown,
        }
    }
}

/// What a person's seats in every game add up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Games in which the person held a seat.
    pub games: u32,
    /// Of those, games that ended with the person still holding a seat.
    pub finished: u32,
    /// Seats held (tenures: a player who took over a power in a game they play counts twice).
    pub seats: u32,
    /// Phases ordered before the deadline.
    pub on_time: u32,
    /// Phases ordered in the grace period.
    pub late: u32,
    /// Phases processed without the player's orders (NMR).
    pub missed: u32,
    /// Of those, the ones in tenures that count every phase (the on-time ratio reads only
    /// these: older tenures kept no count of the phases ordered).
    pub missed_counted: u32,
    /// Seats left by `RESIGN`.
    pub resigned: u32,
    /// Seats abandoned: missed phases in a row (`SET ABANDON`), late at the end of grace in
    /// a NONMR game.
    pub abandoned: u32,
    /// Seats the master took away (`EJECT`).
    pub ejected: u32,
}

impl Record {
    /// The record of the person at `addresses` (letter case ignored) in `games`.
    pub fn of<'g>(games: impl IntoIterator<Item = &'g GameSeats>, addresses: &[String]) -> Record {
        let mut r = Record::default();
        let is_theirs = |t: &Tenure| addresses.iter().any(|a| a.eq_ignore_ascii_case(&t.address));
        for g in games {
            let finished = matches!(g.status, Some(Status::Finished(_)));
            let mine: Vec<&Tenure> = g.tenures.iter().filter(|t| is_theirs(t)).collect();
            if mine.is_empty() {
                continue;
            }
            r.games += 1;
            if finished && mine.iter().any(|t| t.is_open()) {
                r.finished += 1;
            }
            for t in mine {
                r.seats += 1;
                r.on_time += t.on_time;
                r.late += t.late;
                r.missed += t.missed;
                if t.counts_orders {
                    r.missed_counted += t.missed;
                }
                match t.ended {
                    Some(Abandonment::Resigned) => r.resigned += 1,
                    Some(Abandonment::Ejected) => r.ejected += 1,
                    Some(Abandonment::MissedPhases(_) | Abandonment::Late) => r.abandoned += 1,
                    None => {}
                }
            }
        }
        r
    }

    /// Phases the person had to order.
    pub fn phases(&self) -> u32 {
        self.on_time + self.late + self.missed
    }

    /// Seats left before the end (resigned, abandoned, ejected).
    pub fn left(&self) -> u32 {
        self.resigned + self.abandoned + self.ejected
    }

    /// njudge's on-time ratio: phases ordered on time of the phases to order (None: none
    /// yet).
    pub fn on_time_ratio(&self) -> Option<Ratio> {
        Ratio::of(self.on_time, self.on_time + self.late + self.missed_counted)
    }

    /// njudge's resignation (CD) ratio: seats left before the end of the seats held (None:
    /// none yet).
    pub fn resignation_ratio(&self) -> Option<Ratio> {
        Ratio::of(self.left(), self.seats)
    }

    /// njudge's dedication score with its default points: 0 for a newcomer.
    pub fn dedication(&self) -> i64 {
        POINTS_ON_TIME * i64::from(self.on_time)
            + POINTS_LATE * i64::from(self.late)
            + POINTS_MISSED * i64::from(self.missed)
            + POINTS_LEFT * i64::from(self.left())
    }
}

/// The minimums a player's record must meet to join a game or take a power over in it
/// (njudge's `SET DEDICATION`, `SET ONTIMERAT`, `SET RESRAT`). None: no gate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gates {
    /// The least dedication score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dedication: Option<i64>,
    /// The least on-time ratio.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_time: Option<Ratio>,
    /// The greatest resignation ratio.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resignation: Option<Ratio>,
}

/// One gate, as the master set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Dedication(Option<i64>),
    OnTime(Option<Ratio>),
    Resignation(Option<Ratio>),
}

/// Why a record does not pass a game's gates: the gate, and the player's own figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateRefusal {
    Dedication { least: i64, yours: i64 },
    OnTime { least: Ratio, yours: Ratio },
    Resignation { most: Ratio, yours: Ratio },
}

impl Gates {
    /// Whether no gate is set.
    pub fn is_open(&self) -> bool {
        *self == Gates::default()
    }

    /// Sets one gate (None lifts it).
    pub fn set(&mut self, gate: Gate) {
        match gate {
            Gate::Dedication(n) => self.dedication = n,
            Gate::OnTime(r) => self.on_time = r,
            Gate::Resignation(r) => self.resignation = r,
        }
    }

    /// Whether `record` passes every gate, as njudge decides: the dedication score is
    /// compared whatever the record (a newcomer's is 0, so a gate above 0 keeps newcomers
    /// out); a ratio gate passes a player who has no ratio yet (no phase to order, no seat
    /// held).
    pub fn admits(&self, record: &Record) -> Result<(), GateRefusal> {
        if let Some(least) = self.dedication
            && record.dedication() < least
        {
            return Err(GateRefusal::Dedication {
                least,
                yours: record.dedication(),
            });
        }
        if let (Some(least), Some(yours)) = (self.on_time, record.on_time_ratio())
            && yours < least
        {
            return Err(GateRefusal::OnTime { least, yours });
        }
        if let (Some(most), Some(yours)) = (self.resignation, record.resignation_ratio())
            && yours > most
        {
            return Err(GateRefusal::Resignation { most, yours });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(on_time: u32, late: u32, missed: u32, seats: u32, resigned: u32) -> Record {
        Record {
            games: seats,
            seats,
            on_time,
            late,
            missed,
            missed_counted: missed,
            resigned,
            ..Record::default()
        }
    }

    #[test]
    fn ratios_and_dedication_as_njudge_counts_them() {
        let r = record(1, 1, 2, 2, 1);
        assert_eq!(r.on_time_ratio(), Some(Ratio(250)));
        assert_eq!(r.resignation_ratio(), Some(Ratio(500)));
        assert_eq!(r.dedication(), 3 - 1 - 100 - 49);
        assert_eq!(Record::default().on_time_ratio(), None);
        assert_eq!(Record::default().dedication(), 0);
        assert_eq!(Ratio::of(2, 3), Some(Ratio(666)));
        // Missed phases of tenures from before the counts do not enter the ratio.
        let old = Record {
            missed_counted: 0,
            ..record(0, 0, 3, 1, 0)
        };
        assert_eq!(old.on_time_ratio(), None);
    }

    #[test]
    fn gates_name_the_first_one_a_record_fails() {
        let mut gates = Gates::default();
        assert!(gates.is_open());
        gates.set(Gate::OnTime(Some(Ratio(500))));
        gates.set(Gate::Resignation(Some(Ratio(200))));
        let newcomer = Record::default();
        assert_eq!(gates.admits(&newcomer), Ok(()));
        let dropper = record(1, 1, 2, 2, 1);
        assert_eq!(
            gates.admits(&dropper),
            Err(GateRefusal::OnTime {
                least: Ratio(500),
                yours: Ratio(250)
            })
        );
        gates.set(Gate::OnTime(None));
        assert_eq!(
            gates.admits(&dropper),
            Err(GateRefusal::Resignation {
                most: Ratio(200),
                yours: Ratio(500)
            })
        );
        gates.set(Gate::Resignation(None));
        gates.set(Gate::Dedication(Some(1)));
        assert_eq!(
            gates.admits(&newcomer),
            Err(GateRefusal::Dedication { least: 1, yours: 0 })
        );
        assert_eq!(gates.admits(&record(1, 0, 0, 1, 0)), Ok(()));
    }
}
