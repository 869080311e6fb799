//! Dates as players write them: a written date placed in the game's calendar. (A date as
//! players read it is written by `bulletin::dates`.)

use chrono::{DateTime, Utc};

use crate::command;

pub(super) use crate::bulletin::dates::{format_time, zone as game_tz};

/// Places a written date in the game's zone: a missing year is the next such date from
/// now; a missing time is 23:59.
pub(super) fn resolve_date(
    d: command::Date,
    tz: &chrono_tz::Tz,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    resolve_date_at(d, tz, now, (23, 59))
}

/// The instant of day `d.month`/`d.day` of year `year` at `hms` in zone `tz` (the earlier
/// one when the clock goes back; None for a date or time that does not exist).
pub(super) fn local_instant(
    tz: &chrono_tz::Tz,
    year: i32,
    d: &command::Date,
    (h, m, s): (u32, u32, u32),
) -> Option<DateTime<Utc>> {
    use chrono::{NaiveDate, TimeZone};
    NaiveDate::from_ymd_opt(year, u32::from(d.month), u32::from(d.day))
        .and_then(|nd| nd.and_hms_opt(h, m, s))
        .and_then(|ndt| tz.from_local_datetime(&ndt).earliest())
        .map(|t| t.with_timezone(&Utc))
}

/// [`resolve_date`], a missing time being `default` (hours, minutes).
pub(super) fn resolve_date_at(
    d: command::Date,
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
