//! HISTORY by audience and by window: each reader gets the entries of a game's history it
//! received or could have received, never more, and of those the part its `FROM`/`TO` or
//! `EXCLSTART` asks for. A power reads the bulletins and the press it was a reader of; the
//! master the bulletins and the press it was a reader of; anyone else (an observer, a
//! stranger: an address proves nothing) what observers may read under the game's observer
//! setting now: nothing when it takes none, the bulletins and the signed press observers
//! received when it takes white press only, the bulletins and all press observers received
//! otherwise.

use chrono::{DateTime, Utc};

use crate::command::{Date, Exclusion};
use crate::game::{Author, Game, ObserverLevel, Reader, Sender};
use crate::store::HistoryEntry;

/// The readers press is kept with: those it was mailed to, and its author when it went to
/// everyone (an author reads back its own broadcast, never its private press).
pub(super) fn press_readers(readers: &[Reader], author: Author, public: bool) -> Vec<Reader> {
    let mut out = readers.to_vec();
    if public {
        let me = match author {
            Author::Seat(Sender::Power(p)) => Reader::Power(p),
            Author::Seat(Sender::Master) => Reader::Master,
            Author::Observer => Reader::Observers,
        };
        if !out.contains(&me) {
            out.push(me);
        }
    }
    out
}

/// Whether `reader` may read entry `e` of game `g`'s history: a power or the master reads
/// what it received; [`Reader::Observers`] (an observer, or anyone outside the game) what
/// observers received and may read under the game's observer setting now.
pub fn readable(g: &Game, reader: Reader, e: &HistoryEntry) -> bool {
    match (&e.readers, reader) {
        (readers, Reader::Observers) => {
            let received = readers
                .as_ref()
                .is_none_or(|list| list.contains(&Reader::Observers));
            received
                && match g.settings().press.watch {
                    ObserverLevel::Any => true,
                    ObserverLevel::White => e.signed,
                    ObserverLevel::None => false,
                }
        }
        (None, _) => true,
        (Some(list), reader) => list.contains(&reader),
    }
}

/// The entries of `g`'s history `reader` may read, oldest first.
pub fn for_reader(g: &Game, reader: Reader, entries: Vec<HistoryEntry>) -> Vec<HistoryEntry> {
    entries
        .into_iter()
        .filter(|e| readable(g, reader, e))
        .collect()
}

/// The part of a history a `HISTORY` command asks for, its dates placed in time.
#[derive(Clone, Debug, Default)]
pub(super) struct Window {
    /// Entries sent at or after this time (`FROM`).
    pub from: Option<DateTime<Utc>>,
    /// Entries sent at or before this time (`TO`).
    pub to: Option<DateTime<Utc>>,
    /// njudge's second form: the phases left out, and whether press stays in.
    pub exclude: Option<Exclusion>,
}

/// A turn as written in a history entry and in `EXCLSTART`, upper-cased; njudge's builds
/// (`W1901B`, and `F1901B` as its HISTORY help writes them) read as the Winter
/// adjustments dipjudge writes `W1901A`.
fn same_turn(entry_phase: &str, turn: &str) -> bool {
    let norm = |t: &str| {
        let t = t.trim().to_ascii_uppercase();
        match t.strip_suffix('B') {
            Some(rest) if rest.starts_with('W') || rest.starts_with('F') => {
                let mut w = String::from("W");
                w.push_str(rest.get(1..).unwrap_or_default());
                w.push('A');
                w
            }
            _ => t,
        }
    };
    norm(entry_phase) == norm(turn)
}

/// The entries of `entries` (oldest first) inside window `w`. `FROM`/`TO` keep the entries
/// sent between the two times. `EXCLSTART a [EXCLEND b]` leaves out the phases from `a` to
/// `b` (to the end without `b`), phases taken in the order the history first shows them,
/// and press unless `BROAD`; a turn the history never shows leaves it whole, as njudge
/// does.
pub(super) fn select(entries: Vec<HistoryEntry>, w: &Window) -> Vec<HistoryEntry> {
    let mut out: Vec<HistoryEntry> = entries
        .into_iter()
        .filter(|e| w.from.is_none_or(|f| e.at >= f) && w.to.is_none_or(|t| e.at <= t))
        .collect();
    let Some(x) = &w.exclude else {
        return out;
    };
    if !x.broad {
        out.retain(|e| e.readers.is_none());
    }
    let mut phases: Vec<&str> = Vec::new();
    for e in &out {
        if !phases.contains(&e.phase.as_str()) {
            phases.push(&e.phase);
        }
    }
    let start = phases.iter().position(|p| same_turn(p, &x.start));
    let end = match &x.end {
        Some(t) => phases.iter().position(|p| same_turn(p, t)),
        None => phases.len().checked_sub(1),
    };
    let (Some(start), Some(end)) = (start, end) else {
        return out;
    };
    let left_out: Vec<String> = phases
        .get(start..=end)
        .unwrap_or_default()
        .iter()
        .map(|p| p.to_string())
        .collect();
    out.retain(|e| !left_out.contains(&e.phase));
    out
}

/// The time a `FROM` or `TO` date stands for in game `g`'s zone: a missing year is the
/// latest such day not after `now`'s day (a history looks back); a missing time is the
/// start of the day for `FROM` and its end for `TO`, so that `TO Dec 1` includes the 1st.
pub(super) fn history_time(
    d: &Date,
    tz: &chrono_tz::Tz,
    now: DateTime<Utc>,
    end_of_day: bool,
) -> Option<DateTime<Utc>> {
    use chrono::{Datelike, NaiveDate};
    let hms = match d.time {
        Some((h, m)) => (u32::from(h), u32::from(m), 0),
        None if end_of_day => (23, 59, 59),
        None => (0, 0, 0),
    };
    let make = |y: i32| crate::game::local_instant(tz, y, d, hms);
    match d.year {
        Some(y) => make(i32::from(y)),
        None => {
            let year = now.with_timezone(tz).year();
            let today = now.with_timezone(tz).date_naive();
            match NaiveDate::from_ymd_opt(year, u32::from(d.month), u32::from(d.day)) {
                Some(day) if day <= today => make(year),
                _ => make(year - 1),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn entry(minute: u32, phase: &str, press: bool) -> HistoryEntry {
        HistoryEntry {
            at: Utc.with_ymd_and_hms(2027, 6, 7, 10, minute, 0).unwrap(),
            phase: phase.into(),
            subject: format!("{phase} {minute}"),
            body: String::new(),
            readers: press.then(|| vec![Reader::Master]),
            signed: true,
        }
    }

    fn game_history() -> Vec<HistoryEntry> {
        vec![
            entry(0, "S1901M", false),
            entry(5, "S1901M", true),
            entry(10, "S1901M", false),
            entry(20, "F1901M", true),
            entry(30, "F1901M", false),
            entry(40, "W1901A", false),
            entry(50, "S1902M", false),
        ]
    }

    fn minutes(v: &[HistoryEntry]) -> Vec<u32> {
        use chrono::Timelike;
        v.iter().map(|e| e.at.minute()).collect()
    }

    fn exclude(start: &str, end: Option<&str>, broad: bool) -> Window {
        Window {
            exclude: Some(Exclusion {
                start: start.into(),
                end: end.map(str::to_string),
                broad,
            }),
            ..Window::default()
        }
    }

    #[test]
    fn from_and_to_keep_the_entries_sent_between() {
        let w = Window {
            from: Some(Utc.with_ymd_and_hms(2027, 6, 7, 10, 10, 0).unwrap()),
            to: Some(Utc.with_ymd_and_hms(2027, 6, 7, 10, 40, 0).unwrap()),
            exclude: None,
        };
        assert_eq!(minutes(&select(game_history(), &w)), [10, 20, 30, 40]);
        assert_eq!(
            minutes(&select(game_history(), &Window::default())).len(),
            7
        );
    }

    #[test]
    fn exclstart_alone_keeps_the_start_up_to_the_turn_without_press() {
        let got = select(game_history(), &exclude("F1901M", None, false));
        assert_eq!(minutes(&got), [0, 10]);
    }

    #[test]
    fn exclstart_and_exclend_leave_out_the_turns_between_and_broad_keeps_press() {
        // njudge writes the builds F1901B; dipjudge's history W1901A.
        let got = select(game_history(), &exclude("F1901M", Some("F1901B"), true));
        assert_eq!(minutes(&got), [0, 5, 10, 50]);
        let got = select(game_history(), &exclude("f1901m", Some("w1901b"), false));
        assert_eq!(minutes(&got), [0, 10, 50]);
    }

    #[test]
    fn a_turn_the_history_never_had_leaves_it_whole() {
        let got = select(game_history(), &exclude("S1950M", None, true));
        assert_eq!(got.len(), 7);
        let got = select(game_history(), &exclude("S1901M", Some("F1960M"), false));
        assert_eq!(minutes(&got), [0, 10, 30, 40, 50]);
    }

    #[test]
    fn a_date_without_a_year_looks_back_and_to_takes_the_whole_day() {
        let tz = chrono_tz::UTC;
        let now = Utc.with_ymd_and_hms(2027, 6, 9, 8, 0, 0).unwrap();
        let d = |month, day, time| Date {
            year: None,
            month,
            day,
            time,
        };
        assert_eq!(
            history_time(&d(6, 7, None), &tz, now, false),
            Some(Utc.with_ymd_and_hms(2027, 6, 7, 0, 0, 0).unwrap())
        );
        assert_eq!(
            history_time(&d(6, 9, None), &tz, now, true),
            Some(Utc.with_ymd_and_hms(2027, 6, 9, 23, 59, 59).unwrap())
        );
        // December is still to come this year: the last one.
        assert_eq!(
            history_time(&d(12, 1, Some((12, 0))), &tz, now, false),
            Some(Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap())
        );
    }
}
