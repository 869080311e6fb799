//! Deadlines as njudge keeps them: per phase kind, a deadline, a grace period, a delay
//! after all orders are in, reminders, and the time-warp guard. Time is passed in.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::map::Map;
use crate::rules::PhaseKind;
use crate::variant::Variant;

use super::schedule::{Days, PhaseRule, Schedule, ScheduleClass};
use super::{Game, Status};

/// How long each kind of phase runs, and the grace after it (also the `[deadlines]` table
/// of `judge.toml`: hours unless named otherwise; a key left out keeps its default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeadlineSettings {
    pub movement_hours: i64,
    pub retreat_hours: i64,
    pub adjustment_hours: i64,
    /// After the deadline, how long late powers may still order before NMR/abandonment.
    pub grace_hours: i64,
    /// Once all orders are in (and nobody waits), process this many minutes later.
    pub delay_minutes: i64,
    /// Remind powers without orders this many hours before the deadline (0: never).
    pub reminder_hours: i64,
    /// If the clock jumps past a deadline by more than this (the judge was down), do not
    /// process: move the deadline and tell the master.
    pub time_warp_hours: i64,
    /// How far `SET ABSENCE` may push a deadline, in days.
    pub max_absence_days: i64,
}

impl Default for DeadlineSettings {
    fn default() -> Self {
        DeadlineSettings {
            movement_hours: 72,
            retreat_hours: 24,
            adjustment_hours: 24,
            grace_hours: 24,
            delay_minutes: 10,
            reminder_hours: 24,
            time_warp_hours: 6,
            max_absence_days: 14,
        }
    }
}

/// The deadline of a phase that opens at `now`, by the judge's defaults alone (no clock,
/// no days, no absences; a game's own schedule is [`phase_rule`]).
pub fn next_deadline(
    settings: &DeadlineSettings,
    kind: PhaseKind,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    let rule = phase_rule(settings, &Schedule::default(), kind);
    now + Duration::minutes(rule.next.max(0))
}

/// The schedule a phase of `kind` keeps: its class's, as the game's schedule sets it over
/// the judge's defaults. A phase a rule set adds takes the length the rule set gives it
/// (H18), in movement deadlines, on the movement schedule.
pub fn phase_rule(settings: &DeadlineSettings, schedule: &Schedule, kind: PhaseKind) -> PhaseRule {
    let class = schedule_class(kind);
    let hours = match class {
        ScheduleClass::Movement => settings.movement_hours,
        ScheduleClass::Retreat => settings.retreat_hours,
        ScheduleClass::Adjustment => settings.adjustment_hours,
    };
    let base = PhaseRule {
        clock: None,
        min: 0,
        next: hours * 60,
        grace: settings.grace_hours * 60,
        delay: settings.delay_minutes,
        days: Days::EVERY_DAY,
    };
    let mut rule = schedule.of(class).over(base);
    if let PhaseKind::Own(own) = kind {
        let (num, den) = own.length;
        rule.next = rule.next * i64::from(num) / i64::from(den.max(1));
    }
    rule
}

/// The class of schedule a phase of `kind` keeps.
pub fn schedule_class(kind: PhaseKind) -> ScheduleClass {
    match kind {
        PhaseKind::Retreat => ScheduleClass::Retreat,
        PhaseKind::Adjustment => ScheduleClass::Adjustment,
        PhaseKind::Movement | PhaseKind::Own(_) => ScheduleClass::Movement,
    }
}

/// What a tick at `now` must do for a game ([`Game::due`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DueEvent {
    Nothing,
    /// Remind powers without orders.
    Remind,
    /// Orders are all in and the delay has passed: process now.
    ProcessEarly,
    /// The deadline passed with orders missing: send late notices (once).
    Late,
    /// The deadline passed with every order in (or nobody owes anything): process.
    Process,
    /// The grace period ended: process with civil-disorder defaults (NMR) or abandon.
    GraceOver,
    /// The clock jumped far past the deadline: extend instead of processing.
    TimeWarp,
    /// The phase would be processed, but not before its start (`SET START`, the
    /// schedule's `MIN`): nothing yet.
    Held,
}

/// The timeline alone: what is due at `now` for a deadline, the end of its grace, and what
/// the game noted (`all_in`: every order is in now, since `all_in_since`; the late notices
/// and the reminder sent or not). `last_tick` is the previous tick's time (for the
/// time-warp guard).
struct Timeline {
    deadline: DateTime<Utc>,
    grace_end: DateTime<Utc>,
    all_in: bool,
    all_in_since: Option<DateTime<Utc>>,
    late_notified: bool,
    reminded: bool,
}

impl Timeline {
    fn event(
        &self,
        settings: &DeadlineSettings,
        now: DateTime<Utc>,
        last_tick: Option<DateTime<Utc>>,
    ) -> DueEvent {
        let deadline = self.deadline;
        let warp = Duration::hours(settings.time_warp_hours.max(1));
        if let Some(last) = last_tick
            && now - last > warp
            && now > deadline
            && deadline > last
        {
            return DueEvent::TimeWarp;
        }
        if self.all_in {
            let since = self.all_in_since.unwrap_or(now);
            if now >= deadline || now >= since + Duration::minutes(settings.delay_minutes.max(0)) {
                return if now >= deadline {
                    DueEvent::Process
                } else {
                    DueEvent::ProcessEarly
                };
            }
            return DueEvent::Nothing;
        }
        if now >= self.grace_end.max(deadline) {
            return DueEvent::GraceOver;
        }
        if now >= deadline {
            return if self.late_notified {
                DueEvent::Nothing
            } else {
                DueEvent::Late
            };
        }
        if settings.reminder_hours > 0
            && !self.reminded
            && now >= deadline - Duration::hours(settings.reminder_hours)
        {
            return DueEvent::Remind;
        }
        DueEvent::Nothing
    }
}

impl Game {
    /// What a tick at `now` must do for this game (`last_tick`: the previous tick's time,
    /// for the time-warp guard): nothing without a deadline or while the game does not run;
    /// the reminder, the late notices, processing (early once every order is in and the
    /// delay passed; at the deadline a phase nobody owes anything in, as everyone may know
    /// it, H20; at the end of grace with civil-disorder defaults, NMR) or the seats' end
    /// (NONMR); a time warp; or held, when it would process before the phase's start.
    pub fn due(
        &self,
        map: &Map,
        variant: &dyn Variant,
        now: DateTime<Utc>,
        last_tick: Option<DateTime<Utc>>,
    ) -> DueEvent {
        let Some(deadline) = self.deadline else {
            return DueEvent::Nothing;
        };
        if self.status != Status::Active {
            return DueEvent::Nothing;
        }
        let timeline = Timeline {
            deadline,
            grace_end: self.grace_end().unwrap_or(deadline),
            all_in: self.all_in(map, variant),
            all_in_since: self.all_in_since,
            late_notified: self.late_notified,
            reminded: self.reminded,
        };
        let event = timeline.event(&self.timing(), now, last_tick);
        // At the deadline a phase nobody owes anything in is processed, though it was not
        // processed early (a rule set's phase that runs to its deadline, H18): no late
        // notice naming nobody, no grace period. Decided on what everyone may know (H20):
        // a missing ballot neither holds the phase for grace nor shows in its timing.
        let complete = now >= deadline && self.public_missing_powers(map, variant).is_empty();
        let event = match event {
            DueEvent::Late | DueEvent::GraceOver | DueEvent::Nothing if complete => {
                DueEvent::Process
            }
            other => other,
        };
        // Nothing is processed before the phase's start (`SET START`, the schedule's MIN).
        let processes = matches!(event, DueEvent::Process | DueEvent::ProcessEarly)
            || (event == DueEvent::GraceOver && self.settings.nmr);
        if processes && self.held_until(now).is_some() {
            return DueEvent::Held;
        }
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(h: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
            .single()
            .expect("valid")
            + Duration::hours(h)
    }

    fn line(deadline: DateTime<Utc>, grace_end: DateTime<Utc>) -> Timeline {
        Timeline {
            deadline,
            grace_end,
            all_in: false,
            all_in_since: None,
            late_notified: false,
            reminded: false,
        }
    }

    #[test]
    fn the_njudge_timeline() {
        let s = DeadlineSettings::default();
        let d = t(72);
        let ev = |now, all_in, late, rem| {
            Timeline {
                all_in,
                all_in_since: Some(t(0)),
                late_notified: late,
                reminded: rem,
                ..line(d, d + Duration::hours(s.grace_hours))
            }
            .event(&s, now, Some(now - Duration::minutes(1)))
        };
        assert_eq!(ev(t(10), false, false, false), DueEvent::Nothing);
        assert_eq!(
            ev(t(48), false, false, false),
            DueEvent::Remind,
            "24 h before"
        );
        assert_eq!(
            ev(t(48), false, false, true),
            DueEvent::Nothing,
            "reminded once"
        );
        assert_eq!(
            ev(t(72), false, false, true),
            DueEvent::Late,
            "at the deadline exactly"
        );
        assert_eq!(
            ev(t(80), false, true, true),
            DueEvent::Nothing,
            "late notice sent once"
        );
        assert_eq!(
            ev(t(96), false, true, true),
            DueEvent::GraceOver,
            "at the edge of grace"
        );
        assert_eq!(
            ev(t(1), true, false, false),
            DueEvent::ProcessEarly,
            "all in, delay passed"
        );
        assert_eq!(ev(t(73), true, true, true), DueEvent::Process);
    }

    #[test]
    fn time_warp_is_caught() {
        let s = DeadlineSettings::default();
        let l = Timeline {
            reminded: true,
            ..line(t(72), t(96))
        };
        assert_eq!(l.event(&s, t(100), Some(t(70))), DueEvent::TimeWarp);
        // A regular tick just after the deadline is not a warp.
        assert_eq!(l.event(&s, t(72), Some(t(71))), DueEvent::Late);
    }
}
