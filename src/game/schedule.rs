//! A game's schedule: when the deadline of a new phase falls (njudge's `CLOCK`, `MIN`,
//! `NEXT`, `GRACE`, `DELAY` and `DAYS`, one set per class of phase), worked out in the
//! game's time zone, and the absences that keep deadlines out of a player's time away.
//!
//! Pure: every instant is passed in. What differs from njudge (`data/deadlines`,
//! `data/absence`) is written down in `docs/decisions.md` (Deadlines).

use std::fmt::{self, Write as _};

use chrono::{DateTime, Datelike, Duration, NaiveDateTime, NaiveTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::variant::Sender;

pub use crate::command::ScheduleClass;

/// What a deadline may do on one day of the week (njudge's `DAYS` letters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DayRule {
    /// An upper-case letter: any time of the day.
    Any,
    /// A lower-case letter: from noon.
    Afternoon,
    /// `-`: never on that day.
    Never,
}

/// The days of the week a deadline may fall on, Sunday first: njudge's `DAYS` string
/// (`-MTWTF-` is Monday to Friday; `SMTWTFS` every day; a lower-case letter allows the
/// afternoon only). Stored as that string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Days([DayRule; 7]);

/// The letters of the week, Sunday first.
const WEEK_LETTERS: [char; 7] = ['S', 'M', 'T', 'W', 'T', 'F', 'S'];

impl Days {
    /// Every day, any time.
    pub const EVERY_DAY: Days = Days([DayRule::Any; 7]);

    /// Reads njudge's form: seven characters, Sunday first, each the day's letter (upper
    /// case: any time; lower case: from noon) or `-`. None: not that form.
    pub fn parse(text: &str) -> Option<Days> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 7 {
            return None;
        }
        let mut rules = [DayRule::Any; 7];
        for ((rule, c), letter) in rules.iter_mut().zip(chars).zip(WEEK_LETTERS) {
            *rule = if c == '-' {
                DayRule::Never
            } else if c == letter {
                DayRule::Any
            } else if c == letter.to_ascii_lowercase() {
                DayRule::Afternoon
            } else {
                return None;
            };
        }
        if rules.iter().all(|r| *r == DayRule::Never) {
            return None;
        }
        Some(Days(rules))
    }

    /// The rule for a weekday (0 = Sunday).
    fn on(&self, weekday_from_sunday: u32) -> DayRule {
        self.0
            .get(weekday_from_sunday as usize)
            .copied()
            .unwrap_or(DayRule::Any)
    }
}

impl fmt::Display for Days {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (rule, letter) in self.0.iter().zip(WEEK_LETTERS) {
            let c = match rule {
                DayRule::Any => letter,
                DayRule::Afternoon => letter.to_ascii_lowercase(),
                DayRule::Never => '-',
            };
            f.write_char(c)?;
        }
        Ok(())
    }
}

impl Serialize for Days {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Days {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Days, D::Error> {
        let text = String::deserialize(d)?;
        Days::parse(&text).ok_or_else(|| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Str(&text), &"DAYS -MTWTF-")
        })
    }
}

/// One class's schedule as the master set it (`SET MOVE CLOCK 20:00 NEXT 48 …`): what is
/// left unset keeps the judge's default. Durations in minutes; `clock` in minutes after
/// local midnight.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PhaseSchedule {
    /// `CLOCK hh:mm`: the time of day deadlines fall at (`Some(None)`: `CLOCK OFF`, the
    /// deadline falls exactly `NEXT` hours after the phase opens).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<Option<u16>>,
    /// `MIN hours`: the phase is never processed sooner after it opens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// `NEXT hours`: the deadline is at least this long after the phase opens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<i64>,
    /// `GRACE hours`: how long after the deadline late orders are waited for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grace: Option<i64>,
    /// `DELAY hours`: once every order is in, processing waits this long.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delay: Option<i64>,
    /// `DAYS -MTWTF-`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<Days>,
}

impl PhaseSchedule {
    /// Whether nothing is set (the judge's defaults hold).
    pub fn is_default(&self) -> bool {
        *self == PhaseSchedule::default()
    }

    /// This schedule over `base`: what it sets replaces `base`'s.
    pub fn over(&self, base: PhaseRule) -> PhaseRule {
        PhaseRule {
            clock: self.clock.unwrap_or(base.clock),
            min: self.min.unwrap_or(base.min),
            next: self.next.unwrap_or(base.next),
            grace: self.grace.unwrap_or(base.grace),
            delay: self.delay.unwrap_or(base.delay),
            days: self.days.unwrap_or(base.days),
        }
    }

    /// Takes every part `change` sets.
    pub fn merge(&mut self, change: &PhaseSchedule) {
        if change.clock.is_some() {
            self.clock = change.clock;
        }
        if change.min.is_some() {
            self.min = change.min;
        }
        if change.next.is_some() {
            self.next = change.next;
        }
        if change.grace.is_some() {
            self.grace = change.grace;
        }
        if change.delay.is_some() {
            self.delay = change.delay;
        }
        if change.days.is_some() {
            self.days = change.days;
        }
    }
}

/// A game's schedule: one [`PhaseSchedule`] per class.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Schedule {
    #[serde(skip_serializing_if = "PhaseSchedule::is_default")]
    pub movement: PhaseSchedule,
    #[serde(skip_serializing_if = "PhaseSchedule::is_default")]
    pub retreat: PhaseSchedule,
    #[serde(skip_serializing_if = "PhaseSchedule::is_default")]
    pub adjustment: PhaseSchedule,
}

impl Schedule {
    pub fn of(&self, class: ScheduleClass) -> &PhaseSchedule {
        match class {
            ScheduleClass::Movement => &self.movement,
            ScheduleClass::Retreat => &self.retreat,
            ScheduleClass::Adjustment => &self.adjustment,
        }
    }

    pub fn of_mut(&mut self, class: ScheduleClass) -> &mut PhaseSchedule {
        match class {
            ScheduleClass::Movement => &mut self.movement,
            ScheduleClass::Retreat => &mut self.retreat,
            ScheduleClass::Adjustment => &mut self.adjustment,
        }
    }
}

/// The schedule a phase keeps, every part decided (minutes; `clock` in minutes after local
/// midnight, None: no clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseRule {
    pub clock: Option<u16>,
    pub min: i64,
    pub next: i64,
    pub grace: i64,
    pub delay: i64,
    pub days: Days,
}

/// A player's (or the master's) time away, as `SET ABSENCE from TO to` set it: no deadline
/// of the game is put inside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    pub who: Sender,
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
}

/// How many absences a seat may have pending at once (njudge's three slots).
pub const MAX_ABSENCES: usize = 3;

/// The deadline of a phase that opens at `opened`: `NEXT` after it, moved on to the
/// schedule's `CLOCK` and `DAYS` in the game's zone `tz`, then out of every absence in
/// `away` (to its end, and on to the schedule again).
pub fn deadline_after(
    rule: &PhaseRule,
    tz: &Tz,
    opened: DateTime<Utc>,
    away: &[&Absence],
) -> DateTime<Utc> {
    let first = on_schedule(rule, tz, opened + Duration::minutes(rule.next.max(0)));
    keep_out(rule, tz, first, away)
}

/// `deadline` moved out of every absence it falls in (`from` ≤ deadline < `to`): to the
/// absence's end, then on to the schedule; again while it falls in one (overlapping
/// absences push it to the last end, njudge `data/absence` example 5).
pub fn keep_out(
    rule: &PhaseRule,
    tz: &Tz,
    deadline: DateTime<Utc>,
    away: &[&Absence],
) -> DateTime<Utc> {
    let mut d = deadline;
    // Each round moves the deadline past the end of one more absence.
    for _ in 0..=away.len() {
        let Some(a) = away.iter().find(|a| a.from <= d && d < a.to) else {
            break;
        };
        d = on_schedule(rule, tz, a.to);
    }
    d
}

/// The end of the grace period of a phase whose deadline is `deadline`: `GRACE` after it,
/// moved on to a day `DAYS` allows (njudge's default, without `STRICTGRACE`).
pub fn grace_end(rule: &PhaseRule, tz: &Tz, deadline: DateTime<Utc>) -> DateTime<Utc> {
    on_days(rule, tz, deadline + Duration::minutes(rule.grace.max(0)))
}

/// `t`, or the first instant after it that the schedule allows: at `CLOCK` (the same day if
/// not yet past, else the next), then on a day `DAYS` allows (a `-` day moves one day on, at
/// the same local time; a lower-case day before noon moves to its noon).
pub fn on_schedule(rule: &PhaseRule, tz: &Tz, t: DateTime<Utc>) -> DateTime<Utc> {
    let t = match rule.clock {
        Some(minutes) => at_clock(tz, t, minutes),
        None => t,
    };
    on_days(rule, tz, t)
}

/// `t` moved on to a day the schedule allows (see [`on_schedule`]).
fn on_days(rule: &PhaseRule, tz: &Tz, t: DateTime<Utc>) -> DateTime<Utc> {
    let mut local = t.with_timezone(tz).naive_local();
    let mut moved = false;
    // A week and a day: a schedule allows at least one day (Days::parse).
    for _ in 0..8 {
        match rule.days.on(local.weekday().num_days_from_sunday()) {
            DayRule::Never => local += Duration::days(1),
            DayRule::Afternoon if local.hour() < 12 => {
                local = local.date().and_time(NaiveTime::MIN) + Duration::hours(12);
            }
            _ => break,
        }
        moved = true;
    }
    if moved { instant(tz, local) } else { t }
}

/// The first instant at or after `t` whose local time of day is `minutes` after midnight
/// (seconds dropped).
fn at_clock(tz: &Tz, t: DateTime<Utc>, minutes: u16) -> DateTime<Utc> {
    let local = t.with_timezone(tz).naive_local();
    let time = NaiveTime::MIN + Duration::minutes(i64::from(minutes % (24 * 60)));
    let mut day = local.date();
    for _ in 0..3 {
        let at = instant(tz, day.and_time(time));
        if at >= t {
            return at;
        }
        day = day.succ_opt().unwrap_or(day);
    }
    t
}

/// The instant a local time of the zone names: the earlier of two (the hour the clocks go
/// back), or the first instant after a gap (the hour they go forward).
fn instant(tz: &Tz, local: NaiveDateTime) -> DateTime<Utc> {
    let mut probe = local;
    for _ in 0..4 {
        if let Some(t) = tz.from_local_datetime(&probe).earliest() {
            return t.with_timezone(&Utc);
        }
        // Inside a gap: the clocks skipped this time; try a little later.
        probe += Duration::minutes(30);
    }
    Utc.from_utc_datetime(&local)
}

/// A number of hours as the master writes it (`48`, `0.5`, `71.25`), in minutes; None when
/// it is not one (or over a year).
pub fn hours_to_minutes(text: &str) -> Option<i64> {
    let (whole, frac) = match text.split_once(['.', ',']) {
        Some((w, f)) => (w, f),
        None => (text, ""),
    };
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole.chars().all(|c| c.is_ascii_digit()) || !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let hours: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    if hours > 24 * 366 {
        return None;
    }
    // The fraction of an hour, rounded to the minute: up to four digits count.
    let digits: String = frac.chars().chain("0000".chars()).take(4).collect();
    let part: i64 = digits.parse().ok()?;
    Some(hours * 60 + (part * 60 + 5_000) / 10_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paris() -> Tz {
        "Europe/Paris".parse().expect("zone")
    }

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0)
            .single()
            .expect("time")
    }

    fn weekdays_at_20() -> PhaseRule {
        PhaseRule {
            clock: Some(20 * 60),
            min: 0,
            next: 48 * 60,
            grace: 24 * 60,
            delay: 10,
            days: Days::parse("-MTWTF-").expect("days"),
        }
    }

    #[test]
    fn days_read_and_write_njudge_form() {
        for s in ["-MTWTF-", "SMTWTFS", "smtwtfs", "-mTwTf-"] {
            assert_eq!(Days::parse(s).map(|d| d.to_string()).as_deref(), Some(s));
        }
        for s in ["-------", "MTWTF", "XMTWTFS", "-MTWTF-X"] {
            assert_eq!(Days::parse(s), None, "{s}");
        }
    }

    #[test]
    fn hours_as_the_master_writes_them() {
        assert_eq!(hours_to_minutes("48"), Some(2880));
        assert_eq!(hours_to_minutes("0.5"), Some(30));
        assert_eq!(hours_to_minutes("71.00"), Some(71 * 60));
        assert_eq!(hours_to_minutes(".25"), Some(15));
        assert_eq!(hours_to_minutes("0.1667"), Some(10));
        assert_eq!(hours_to_minutes("x"), None);
        assert_eq!(hours_to_minutes("-1"), None);
        assert_eq!(hours_to_minutes("99999"), None);
    }

    /// Across the end of summer time (Sunday 25 October 2026 in Europe) and a weekend, the
    /// deadline stays at 20:00 in Paris, Monday to Friday.
    #[test]
    fn weekdays_at_eight_in_paris_across_summer_time_and_a_weekend() {
        let rule = weekdays_at_20();
        // Thursday 22 October, 11:00 CEST: 48 hours on is Saturday; the weekend is skipped;
        // Monday 26 October 20:00 CET is 19:00 UTC.
        assert_eq!(
            deadline_after(&rule, &paris(), utc(2026, 10, 22, 9, 0), &[]),
            utc(2026, 10, 26, 19, 0)
        );
        // Monday 26 October 10:10 UTC: Wednesday 20:00 CET.
        assert_eq!(
            deadline_after(&rule, &paris(), utc(2026, 10, 26, 10, 10), &[]),
            utc(2026, 10, 28, 19, 0)
        );
        // Before the change, 20:00 CEST is 18:00 UTC: Tuesday 20 October 08:00 UTC gives
        // Thursday 22 October 18:00 UTC.
        assert_eq!(
            deadline_after(&rule, &paris(), utc(2026, 10, 20, 8, 0), &[]),
            utc(2026, 10, 22, 18, 0)
        );
        // Past 20:00 on the day: the next day's 20:00.
        assert_eq!(
            deadline_after(&rule, &paris(), utc(2026, 10, 19, 19, 30), &[]),
            utc(2026, 10, 22, 18, 0)
        );
    }

    #[test]
    fn no_clock_is_next_hours_exactly_and_afternoon_days_wait_for_noon() {
        let rule = PhaseRule {
            clock: None,
            min: 0,
            next: 24 * 60,
            grace: 0,
            delay: 0,
            days: Days::parse("smtwtfs").expect("days"),
        };
        let tz: Tz = "UTC".parse().expect("zone");
        assert_eq!(
            deadline_after(&rule, &tz, utc(2026, 11, 2, 8, 15), &[]),
            utc(2026, 11, 3, 12, 0)
        );
        assert_eq!(
            deadline_after(&rule, &tz, utc(2026, 11, 2, 13, 15), &[]),
            utc(2026, 11, 3, 13, 15)
        );
    }

    #[test]
    fn absences_push_the_deadline_past_their_end_and_onto_the_schedule() {
        let rule = weekdays_at_20();
        let away = Absence {
            who: Sender::Power(crate::map::Power::France),
            from: utc(2026, 11, 3, 23, 0),
            to: utc(2026, 11, 10, 22, 59),
        };
        // Monday 2 November: Wednesday 4 November is inside the absence; its end is Tuesday
        // 10 November 23:59 CET; the next 20:00 on a weekday is Wednesday 11 November.
        assert_eq!(
            deadline_after(&rule, &paris(), utc(2026, 11, 2, 10, 0), &[&away]),
            utc(2026, 11, 11, 19, 0)
        );
        // Overlapping absences: the later end wins.
        let more = Absence {
            who: Sender::Master,
            from: utc(2026, 11, 11, 0, 0),
            to: utc(2026, 11, 12, 12, 0),
        };
        assert_eq!(
            deadline_after(&rule, &paris(), utc(2026, 11, 2, 10, 0), &[&away, &more]),
            utc(2026, 11, 12, 19, 0)
        );
    }

    #[test]
    fn grace_ends_on_an_allowed_day() {
        let rule = weekdays_at_20();
        // Friday 30 October 20:00 CET + 24 hours is Saturday: Monday 2 November 20:00.
        assert_eq!(
            grace_end(&rule, &paris(), utc(2026, 10, 30, 19, 0)),
            utc(2026, 11, 2, 19, 0)
        );
    }

    #[test]
    fn a_clock_time_the_clocks_skip_is_the_first_instant_after() {
        let rule = PhaseRule {
            clock: Some(2 * 60 + 30),
            min: 0,
            next: 0,
            grace: 0,
            delay: 0,
            days: Days::EVERY_DAY,
        };
        // Sunday 29 March 2026, Paris: 02:00 CET jumps to 03:00 CEST.
        assert_eq!(
            on_schedule(&rule, &paris(), utc(2026, 3, 29, 0, 0)),
            utc(2026, 3, 29, 1, 0)
        );
    }
}
