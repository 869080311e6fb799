//! A game's deadlines on its schedule: the deadline a new phase gets (the schedule's
//! [`deadline_after`], kept out of the absences in force), the end of grace, the delay and
//! reminder of the phase open now, the absences themselves, and the transitions that move
//! them (`SET DEADLINE`, `SET GRACE`, `SET START`, `SET ABSENCE`, the tick's notices, a
//! time warp): the late notice and the reminder always follow the deadline. A date as a
//! player writes it is placed in the game's zone here. Time is passed in.

use chrono::{DateTime, Duration, Utc};

use crate::command::Date;
use crate::map::{Map, Power};
use crate::rules::PhaseKind;
use crate::variant::{Sender, Variant};

use super::schedule::{Absence, MAX_ABSENCES, PhaseRule, deadline_after, grace_end, keep_out};
use super::{DeadlineSettings, Game, Refused, Status, phase_rule};

/// Places a written date in zone `tz`: a missing year is the next such date from `now`; a
/// missing time is 23:59.
pub fn resolve_date(d: Date, tz: &chrono_tz::Tz, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    resolve_date_at(d, tz, now, (23, 59))
}

/// The instant of day `d.month`/`d.day` of year `year` at `hms` in zone `tz` (the earlier
/// one when the clock goes back; None for a date or time that does not exist).
pub fn local_instant(
    tz: &chrono_tz::Tz,
    year: i32,
    d: &Date,
    (h, m, s): (u32, u32, u32),
) -> Option<DateTime<Utc>> {
    use chrono::{NaiveDate, TimeZone};
    NaiveDate::from_ymd_opt(year, u32::from(d.month), u32::from(d.day))
        .and_then(|nd| nd.and_hms_opt(h, m, s))
        .and_then(|ndt| tz.from_local_datetime(&ndt).earliest())
        .map(|t| t.with_timezone(&Utc))
}

/// [`resolve_date`], a missing time being `default` (hours, minutes).
pub fn resolve_date_at(
    d: Date,
    tz: &chrono_tz::Tz,
    now: DateTime<Utc>,
    default: (u8, u8),
) -> Option<DateTime<Utc>> {
    use chrono::Datelike;
    let (h, m) = d.time.unwrap_or(default);
    let local_now = now.with_timezone(tz);
    let make = |y: i32| local_instant(tz, y, &d, (u32::from(h), u32::from(m), 0));
    match d.year {
        Some(y) => make(i32::from(y)),
        None => {
            let this = make(local_now.year())?;
            if this >= now {
                Some(this)
            } else {
                make(local_now.year() + 1)
            }
        }
    }
}

/// An absence set ([`Game::set_absence`]): the absence, and the deadline running now when
/// it falls inside it (it stands: only deadlines computed later keep out of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbsenceSet {
    pub absence: Absence,
    pub stands: Option<DateTime<Utc>>,
}

impl Game {
    /// The game's time zone (UTC when the stored name is not one).
    pub fn time_zone(&self) -> chrono_tz::Tz {
        self.settings.time_zone.parse().unwrap_or(chrono_tz::UTC)
    }

    /// The schedule a phase of `kind` keeps in this game.
    pub fn rule(&self, kind: PhaseKind) -> PhaseRule {
        phase_rule(&self.settings.deadlines, &self.settings.schedule, kind)
    }

    /// The schedule the phases of `class` keep in this game (a rule set's own phases keep
    /// the movement schedule at their own length: [`Game::rule`]).
    pub fn class_rule(&self, class: crate::command::ScheduleClass) -> PhaseRule {
        use crate::command::ScheduleClass;
        self.rule(match class {
            ScheduleClass::Movement => PhaseKind::Movement,
            ScheduleClass::Retreat => PhaseKind::Retreat,
            ScheduleClass::Adjustment => PhaseKind::Adjustment,
        })
    }

    /// The absences that keep deadlines away: the master's, and those of players still in
    /// the game (an absence is the seat's, whoever holds it now).
    pub fn absences_in_force(&self) -> Vec<&Absence> {
        self.absences
            .iter()
            .filter(|a| match a.who {
                Sender::Master => true,
                Sender::Power(p) => self.player(p).is_some_and(|pl| pl.is_playing()),
            })
            .collect()
    }

    /// Moves the deadline of the phase open now back towards the schedule's, when an
    /// absence had moved it and no longer does (`SET NOABSENCE`): the schedule's deadline,
    /// out of the absences still in force, if that is earlier and more than an hour from
    /// `now`. Returns the new deadline.
    pub fn deadline_back(&mut self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let plain = self.scheduled?;
        let current = self.deadline?;
        let back = self.out_of_absences(plain);
        if back >= current || back <= now + Duration::hours(1) {
            return None;
        }
        self.deadline = Some(back);
        self.scheduled = (back != plain).then_some(plain);
        self.grace_until = None;
        self.reminded = false;
        self.touch();
        Some(back)
    }

    /// The deadline a phase of `kind` opening at `now` gets: on the schedule, out of every
    /// absence in force.
    pub fn scheduled_deadline(&self, kind: PhaseKind, now: DateTime<Utc>) -> DateTime<Utc> {
        deadline_after(
            &self.rule(kind),
            &self.time_zone(),
            now,
            &self.absences_in_force(),
        )
    }

    /// `deadline` moved out of the absences in force, onto the current phase's schedule.
    pub fn out_of_absences(&self, deadline: DateTime<Utc>) -> DateTime<Utc> {
        keep_out(
            &self.rule(self.position.phase.kind),
            &self.time_zone(),
            deadline,
            &self.absences_in_force(),
        )
    }

    /// Opens the clock of the phase now on the board, at `now`: its deadline on the
    /// schedule, the schedule's grace, and `MIN` (the phase is not processed sooner);
    /// absences that are over are forgotten. Returns the deadline.
    pub(super) fn open_clock(&mut self, now: DateTime<Utc>) -> DateTime<Utc> {
        self.absences.retain(|a| a.to > now);
        let kind = self.position.phase.kind;
        let rule = self.rule(kind);
        let plain = deadline_after(&rule, &self.time_zone(), now, &[]);
        let d = self.scheduled_deadline(kind, now);
        self.deadline = Some(d);
        self.scheduled = (plain != d).then_some(plain);
        self.grace_until = None;
        self.not_before = (rule.min > 0).then(|| now + Duration::minutes(rule.min));
        d
    }

    /// When the grace period of the phase open now ends (None without a deadline).
    pub fn grace_end(&self) -> Option<DateTime<Utc>> {
        let deadline = self.deadline?;
        Some(self.grace_until.unwrap_or_else(|| {
            grace_end(
                &self.rule(self.position.phase.kind),
                &self.time_zone(),
                deadline,
            )
        }))
    }

    /// The judge's deadline settings as they hold for the phase open now: its schedule's
    /// delay (what [`super::due_event`] and [`Game::next_event`] read).
    pub fn timing(&self) -> DeadlineSettings {
        let rule = self.rule(self.position.phase.kind);
        DeadlineSettings {
            delay_minutes: rule.delay,
            ..self.settings.deadlines.clone()
        }
    }

    /// Whether processing must wait for `not_before` at `now` (`SET START`, `MIN`).
    pub fn held_until(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.not_before.filter(|t| now < *t)
    }

    /// Whether a forming game is full and may start at `now` (its start time, if the master
    /// set one, has come).
    pub fn may_start(&self, now: DateTime<Utc>) -> bool {
        self.status == Status::Forming
            && self.joiners.len() == self.players_wanted()
            && self.not_before.is_none_or(|t| now >= t)
    }

    /// A date as written, placed in the game's zone at `now` (a missing time: `default`).
    pub fn place_date(
        &self,
        d: Date,
        now: DateTime<Utc>,
        default: (u8, u8),
    ) -> Option<DateTime<Utc>> {
        resolve_date_at(d, &self.time_zone(), now, default)
    }

    /// Moves the deadline of the phase open now to `at`: its late notice and reminder are
    /// due again, and it is the master's (no absence moved it).
    fn move_deadline(&mut self, at: DateTime<Utc>) {
        self.deadline = Some(at);
        self.scheduled = None;
        self.late_notified = false;
        self.reminded = false;
    }

    /// `SET DEADLINE date` at `now`: the date, in the game's zone, must be ahead. A later
    /// deadline takes the schedule's grace after it; an earlier one keeps the end of grace
    /// (njudge). Returns the new deadline.
    pub fn set_deadline(
        &mut self,
        date: Date,
        now: DateTime<Utc>,
    ) -> Result<DateTime<Utc>, Refused> {
        let d = resolve_date(date, &self.time_zone(), now).ok_or(Refused::BadDate)?;
        if d <= now {
            return Err(Refused::PastDate);
        }
        let old_grace = self.grace_end();
        self.grace_until = if self.deadline.is_some_and(|old| d < old) {
            old_grace
        } else {
            None
        };
        self.move_deadline(d);
        self.since.deadline_set = true;
        self.touch();
        Ok(d)
    }

    /// `SET GRACE date`: this phase's grace period ends then, not before its deadline.
    pub fn set_grace(&mut self, date: Date, now: DateTime<Utc>) -> Result<DateTime<Utc>, Refused> {
        match (resolve_date(date, &self.time_zone(), now), self.deadline) {
            (Some(end), Some(d)) if end >= d => {
                self.grace_until = Some(end);
                self.touch();
                Ok(end)
            }
            _ => Err(Refused::BadGrace),
        }
    }

    /// `SET START date`: nothing starts (a forming game) or is processed (a running one)
    /// before it; a running phase's deadline before it moves to it (njudge). Returns it.
    pub fn set_start(&mut self, date: Date, now: DateTime<Utc>) -> Result<DateTime<Utc>, Refused> {
        let d = resolve_date(date, &self.time_zone(), now).ok_or(Refused::BadDate)?;
        if d <= now {
            return Err(Refused::PastDate);
        }
        self.not_before = Some(d);
        if self.status != Status::Forming && self.deadline.is_some_and(|old| old < d) {
            self.move_deadline(d);
            self.grace_until = None;
        }
        self.touch();
        Ok(d)
    }

    /// `SET ABSENCE from [TO to]` for seat `who` at `now` (njudge `data/absence`): no
    /// deadline computed from now on falls inside it (the one running now stands). A start
    /// without a time is 00:00, an end 23:59; without an end it lasts a day. At most
    /// [`MAX_ABSENCES`] a seat, each at most the game's maximum long unless the master
    /// sets it (`by_master`); not in a game that is over.
    pub fn set_absence(
        &mut self,
        who: Sender,
        from: Date,
        to: Option<Date>,
        by_master: bool,
        now: DateTime<Utc>,
    ) -> Result<AbsenceSet, Refused> {
        if matches!(self.status, Status::Finished(_)) {
            return Err(Refused::NotActive(self.name.clone()));
        }
        let start = self.place_date(from, now, (0, 0)).ok_or(Refused::BadDate)?;
        let end = match to {
            Some(d) => self.place_date(d, now, (23, 59)).ok_or(Refused::BadDate)?,
            None => start + Duration::days(1),
        };
        if end <= start || end <= now {
            return Err(Refused::AbsenceBackwards);
        }
        let max = self.settings.deadlines.max_absence_days;
        if !by_master && end - start > Duration::days(max) + Duration::minutes(1) {
            return Err(Refused::AbsenceOverMax(max));
        }
        let pending = self
            .absences
            .iter()
            .filter(|a| a.who == who && a.to > now)
            .count();
        if pending >= MAX_ABSENCES {
            return Err(Refused::TooManyAbsences(pending));
        }
        let absence = Absence {
            who,
            from: start,
            to: end,
        };
        let stands = self.deadline.filter(|d| start <= *d && *d < end);
        self.absences.push(absence.clone());
        self.touch();
        Ok(AbsenceSet { absence, stands })
    }

    /// `SET NOABSENCE [date]` for seat `who`: cancels its absence that holds the date (the
    /// first one; a date without a time holds the whole day), or every absence of the
    /// seat. Returns the absences cancelled.
    pub fn cancel_absences(
        &mut self,
        who: Sender,
        date: Option<Date>,
        now: DateTime<Utc>,
    ) -> Result<Vec<Absence>, Refused> {
        let mut cancelled = Vec::new();
        match date {
            None => {
                let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.absences)
                    .into_iter()
                    .partition(|a| a.who == who);
                self.absences = kept;
                cancelled = gone;
            }
            Some(d) => {
                let (lo, hi) = match d.time {
                    Some(_) => {
                        let t = resolve_date(d, &self.time_zone(), now).ok_or(Refused::BadDate)?;
                        (t, t + Duration::seconds(1))
                    }
                    None => {
                        let lo = self.place_date(d, now, (0, 0)).ok_or(Refused::BadDate)?;
                        (lo, lo + Duration::days(1))
                    }
                };
                if let Some(i) = self
                    .absences
                    .iter()
                    .position(|a| a.who == who && a.from < hi && lo < a.to)
                {
                    cancelled.push(self.absences.remove(i));
                }
            }
        }
        if cancelled.is_empty() {
            return Err(match date {
                Some(d) => Refused::NoAbsenceOn(d),
                None => Refused::NoAbsence,
            });
        }
        self.touch();
        Ok(cancelled)
    }

    /// The tick sent the reminder of this deadline.
    pub fn note_reminded(&mut self) {
        self.reminded = true;
        self.touch();
    }

    /// The deadline passed with orders missing: the late notices go out once, and the
    /// powers late now are kept (their orders, if they come in grace, count as late).
    /// Returns them.
    pub fn note_late(&mut self, map: &Map, variant: &dyn Variant) -> Vec<Power> {
        self.late_notified = true;
        let late = self.missing_powers(map, variant);
        self.late_at_deadline = late.clone();
        self.touch();
        late
    }

    /// The grace of a NONMR game ended with orders missing: the clock stops and the game
    /// waits for a replacement (the master decides).
    pub fn stop_clock(&mut self) {
        self.deadline = None;
        self.touch();
    }

    /// The clock jumped far past the deadline (the judge was down): the phase gets a new
    /// deadline on its schedule from `now`, its notices due again. Returns it.
    pub fn time_warp(&mut self, now: DateTime<Utc>) -> DateTime<Utc> {
        let d = self.open_clock(now);
        self.late_notified = false;
        self.reminded = false;
        self.touch();
        d
    }
}

#[cfg(test)]
mod tests;
