//! Deadlines as njudge keeps them: per phase kind, a deadline, a grace period, a delay
//! after all orders are in, reminders, and the time-warp guard. Time is passed in.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::rules::PhaseKind;

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

/// The deadline of a phase that opens at `now`. A phase a rule set adds takes the length
/// the rule set gives it (H18), in movement deadlines.
pub fn next_deadline(
    settings: &DeadlineSettings,
    kind: PhaseKind,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    let minutes = match kind {
        PhaseKind::Movement => settings.movement_hours * 60,
        PhaseKind::Retreat => settings.retreat_hours * 60,
        PhaseKind::Adjustment => settings.adjustment_hours * 60,
        PhaseKind::Own(own) => own.minutes(settings.movement_hours),
    };
    now + Duration::minutes(minutes.max(0))
}

/// What a tick at `now` must do for a game with this deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DueEvent {
    Nothing,
    /// Remind powers without orders.
    Remind,
    /// Orders are all in and the delay has passed: process now.
    ProcessEarly,
    /// The deadline passed with orders missing: send late notices (once).
    Late,
    /// The deadline passed with every order in: process.
    Process,
    /// The grace period ended: process with civil-disorder defaults (NMR) or abandon.
    GraceOver,
    /// The clock jumped far past the deadline: extend instead of processing.
    TimeWarp,
}

/// Decides what a tick must do. `all_in_since` is when the last missing order arrived (if
/// all are in now); `last_tick` is the previous tick's time (for the time-warp guard).
#[allow(clippy::too_many_arguments)]
pub fn due_event(
    settings: &DeadlineSettings,
    deadline: DateTime<Utc>,
    now: DateTime<Utc>,
    last_tick: Option<DateTime<Utc>>,
    all_in: bool,
    all_in_since: Option<DateTime<Utc>>,
    late_notified: bool,
    reminded: bool,
) -> DueEvent {
    let warp = Duration::hours(settings.time_warp_hours.max(1));
    if let Some(last) = last_tick
        && now - last > warp
        && now > deadline
        && deadline > last
    {
        return DueEvent::TimeWarp;
    }
    if all_in {
        let since = all_in_since.unwrap_or(now);
        if now >= deadline || now >= since + Duration::minutes(settings.delay_minutes.max(0)) {
            return if now >= deadline {
                DueEvent::Process
            } else {
                DueEvent::ProcessEarly
            };
        }
        return DueEvent::Nothing;
    }
    if now >= deadline + Duration::hours(settings.grace_hours.max(0)) {
        return DueEvent::GraceOver;
    }
    if now >= deadline {
        return if late_notified {
            DueEvent::Nothing
        } else {
            DueEvent::Late
        };
    }
    if settings.reminder_hours > 0
        && !reminded
        && now >= deadline - Duration::hours(settings.reminder_hours)
    {
        return DueEvent::Remind;
    }
    DueEvent::Nothing
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

    #[test]
    fn the_njudge_timeline() {
        let s = DeadlineSettings::default();
        let d = t(72);
        let ev = |now, all_in, late, rem| {
            due_event(
                &s,
                d,
                now,
                Some(now - Duration::minutes(1)),
                all_in,
                Some(t(0)),
                late,
                rem,
            )
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
        let ev = due_event(&s, t(72), t(100), Some(t(70)), false, None, false, true);
        assert_eq!(ev, DueEvent::TimeWarp);
        // A regular tick just after the deadline is not a warp.
        let ev = due_event(&s, t(72), t(72), Some(t(71)), false, None, false, true);
        assert_eq!(ev, DueEvent::Late);
    }
}
