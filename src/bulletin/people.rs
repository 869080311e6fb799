//! Players as people (issue 31): what a registration recorded, a `WHOIS` answer (the
//! public fields of a profile and the reliability record), the record in the master's
//! `LIST`, and the confirmation mailed to an address another address says is also theirs.
//!
//! Which fields of a profile are public is decided here, where they are shown: `Name`,
//! `Site`, `Country`, `Timezone` and `Level` are; every other field (`Email`, `Phone`,
//! `Address`, `Birthdate`, `Sex`, `Package`, fields the judge does not know) is not, unless
//! the profile's owner names it in a `Public:` field; a field named in `Private:` is kept
//! from others even if it is public by default.

use crate::game::{Gates, Ratio, Record};
use crate::map::Power;

/// The fields shown to others unless their owner says otherwise.
pub const PUBLIC_BY_DEFAULT: &[&str] = &["name", "site", "country", "timezone", "level"];

/// The fields that say which others are public (never shown themselves).
const CHOICE_FIELDS: &[&str] = &["public", "private"];

/// A ratio as njudge prints it: `0.750`.
pub fn ratio(r: Ratio) -> String {
    format!("{}.{:03}", r.0 / 1000, r.0 % 1000)
}

/// A ratio, or `none yet` for a record that has none.
fn ratio_or_none(r: Option<Ratio>) -> String {
    r.map_or_else(|| "none yet".to_string(), ratio)
}

/// The field names a `Public:` or `Private:` field lists (commas or blanks apart), lower
/// case.
fn listed(fields: &[(String, String)], which: &str) -> Vec<String> {
    fields
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(which))
        .flat_map(|(_, v)| {
            v.split([',', ' ', ';'])
                .filter(|w| !w.is_empty())
                .map(str::to_ascii_lowercase)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether a profile's field is shown to others: public by default or named in `Public:`,
/// and not named in `Private:`.
pub fn is_public(fields: &[(String, String)], name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if CHOICE_FIELDS.contains(&lower.as_str()) {
        return false;
    }
    let chosen = listed(fields, "public").contains(&lower);
    let hidden = listed(fields, "private").contains(&lower);
    (PUBLIC_BY_DEFAULT.contains(&lower.as_str()) || chosen) && !hidden
}

/// A profile's fields as others read them.
pub fn public_fields(fields: &[(String, String)]) -> Vec<(String, String)> {
    fields
        .iter()
        .filter(|(n, _)| is_public(fields, n))
        .cloned()
        .collect()
}

/// The lines after `OK REGISTER`: each field recorded, and whether others see it.
pub fn registered(fields: &[(String, String)], closed: bool) -> Vec<String> {
    let mut out = Vec::new();
    if fields.is_empty() {
        out.push(
            "  Nothing recorded: the block held no field (a line like 'Name: Ann Example').".into(),
        );
    } else {
        out.push(
            "  Recorded for this address (fields marked * are shown to others by WHOIS):".into(),
        );
        for (n, v) in fields {
            let mark = if is_public(fields, n) { "*" } else { " " };
            out.push(format!("   {mark} {n}: {v}"));
        }
    }
    if !closed {
        out.push("  (The block had no END line: it was read to the end of the mail.)".into());
    }
    out
}

/// What waits for a confirmation: the registration, as the judge writes it.
pub fn register_command(fields: usize) -> String {
    format!("REGISTER ({fields} fields)")
}

/// `I AM ALSO address`, as the judge writes the command.
pub fn also_command(address: &str) -> String {
    format!("I AM ALSO {address}")
}

/// What waits at the second address: linking it to the first.
pub fn link_command(owner: &str) -> String {
    format!("LINK to {owner}")
}

/// The echo of `I AM ALSO`, once the confirmation went to the second address.
pub fn also_mailed(address: &str) -> String {
    format!(
        "I AM ALSO {address} (a confirmation was mailed to {address}; the link is made when it is answered)"
    )
}

/// The echo when the second address confirmed: the link is made.
pub fn linked(address: &str, owner: &str) -> String {
    format!("{address} is now also {owner}'s: one person, one record")
}

/// The subject of the confirmation mailed to the second address.
pub fn link_subject(judge: &str, code: &str) -> String {
    format!("{judge} confirmation {code}")
}

/// How an address answers a confirmation (`SET ADDRESS`, `I AM ALSO`): its `CONFIRM` line
/// or a reply keeping the subject, within `hours`; the caller's sentence for "if it is not
/// you" follows.
pub(crate) fn confirm_instructions(address: &str, code: &str, hours: i64) -> String {
    format!(
        "If that is you and you agree, answer from {address} with the line\n\
         \n\
         CONFIRM {code}\n\
         \n\
         (or reply to this mail keeping its subject) within {hours} hours. If it is not you,\n"
    )
}

/// The confirmation mailed to the second address: who asked, and how to answer.
pub fn link_mail(owner: &str, address: &str, code: &str, hours: i64) -> String {
    format!(
        "The judge was asked, from {owner}, to record that {address} belongs to the same\n\
         person (I AM ALSO {address}): both addresses would then share one profile and one\n\
         reliability record.\n\
         \n\
         {}do nothing: nothing is linked without your answer.\n",
        confirm_instructions(address, code, hours)
    )
}

/// The reliability record in one line: games, phases, seats left.
pub fn record_line(r: &Record) -> String {
    format!(
        "{} game{} ({} finished), {} phase{} to order: {} on time, {} late, {} missed; {} resigned, {} abandoned, {} ejected",
        r.games,
        plural(r.games),
        r.finished,
        r.phases(),
        plural(r.phases()),
        r.on_time,
        r.late,
        r.missed,
        r.resigned,
        r.abandoned,
        r.ejected
    )
}

/// The figures the entry gates read (njudge's names in brackets).
pub fn ratios_line(r: &Record) -> String {
    format!(
        "on-time ratio {} (ONTIMERAT), resignation ratio {} (RESRAT), dedication {} (DEDICATION)",
        ratio_or_none(r.on_time_ratio()),
        ratio_or_none(r.resignation_ratio()),
        r.dedication()
    )
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A `WHOIS` answer for one person: who was asked for, the public fields of their profile
/// (none if they never registered), and their record.
pub fn whois(asked: &str, fields: &[(String, String)], record: &Record) -> Vec<String> {
    let mut out = vec![format!("  {asked}:")];
    let shown = public_fields(fields);
    if fields.is_empty() {
        out.push("    (not registered)".into());
    } else if shown.is_empty() {
        out.push("    (registered; no field is public)".into());
    }
    for (n, v) in shown {
        out.push(format!("    {n}: {v}"));
    }
    out.push(format!("    Record: {}.", record_line(record)));
    out.push(format!("    {}.", ratios_line(record)));
    out
}

/// The echo of `WHOIS`.
pub fn whois_echo(who: &str) -> String {
    format!("WHOIS {who}")
}

/// The heading of the players' records in the master's `LIST game`.
pub const LIST_HEADING: &str = "Players' reliability records (the master's copy only):";

/// A record in one line, for the master's `LIST`: the phases, the seats left, the figures
/// the gates read.
fn compact(r: &Record) -> String {
    format!(
        "phases on time {}/{}, late {}, missed {}; seats left {}/{}; ONTIMERAT {}, RESRAT {}, DEDICATION {}",
        r.on_time,
        r.phases(),
        r.late,
        r.missed,
        r.left(),
        r.seats,
        r.on_time_ratio().map_or_else(|| "-".to_string(), ratio),
        r.resignation_ratio().map_or_else(|| "-".to_string(), ratio),
        r.dedication()
    )
}

/// One player's record in the master's `LIST game`.
pub fn list_record(power: Power, address: &str, r: &Record) -> String {
    format!("  {:<8} {address}: {}", power.name(), compact(r))
}

/// A joiner's record in the master's `LIST` of a forming game.
pub fn list_joiner_record(address: &str, r: &Record) -> String {
    format!("  {address}: {}", compact(r))
}

/// The game's entry gates in its `LIST` (None: it has none): shown to everyone, as
/// njudge's `DSettng` line is, so a player knows before asking to join.
pub fn gates_line(gates: &Gates) -> Option<String> {
    if gates.is_open() {
        return None;
    }
    let mut parts = Vec::new();
    if let Some(n) = gates.dedication {
        parts.push(format!("dedication at least {n} (SET DEDICATION)"));
    }
    if let Some(r) = gates.on_time {
        parts.push(format!(
            "on-time ratio at least {} (SET ONTIMERAT)",
            ratio(r)
        ));
    }
    if let Some(r) = gates.resignation {
        parts.push(format!(
            "resignation ratio at most {} (SET RESRAT)",
            ratio(r)
        ));
    }
    Some(format!("Entry gates: {}", parts.join(", ")))
}
