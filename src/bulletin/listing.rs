//! Listings: what a reader asks the judge to list, and the judge's other tables. HELP,
//! LIST (one line a game), LIST game and LIST FULL, SUMMARY, HISTORY's entries, the
//! standing orders a reply lists after a power's orders, and the canonical dump of a game
//! (the golden tests' `state.txt`).
//!
//! Who may read which listing, and which entries of a history, is the judge's to decide
//! (`judge::history`); these functions write what they are given. Pure: no store access.

use crate::bulletin::seats;
use crate::game::{Game, SeatStatus, Status};
use crate::map::{Map, Power};
use crate::rules::{self, Owner, PowerOrder};
use crate::store::HistoryEntry;
use crate::variant::{Sender, Variant};

use super::dates::format_time;

/// The full help text, sent by mail for HELP (a rule set's own commands follow it).
pub fn help_text() -> &'static str {
    include_str!("help.txt")
}

/// The lines HELP lists: the judge's commands, then, in a game, its rule set's own (H1).
pub fn help(variant: Option<&dyn Variant>) -> Vec<String> {
    help_text()
        .lines()
        .chain(variant.map_or("", |v| v.help()).lines())
        .map(str::to_string)
        .collect()
}

/// The first line of `LIST`.
pub const LIST_HEADING: &str = "Games on this judge:";

/// A game's status as the lists word it: `forming (3 of 7 joined)`, `active`, `paused`,
/// `finished: …` (LIST, LIST game, the web view's list).
pub fn status_word(g: &Game) -> String {
    match g.status() {
        Status::Forming => format!(
            "forming ({} of {} joined)",
            g.joiners().len(),
            g.players_wanted()
        ),
        Status::Active => "active".into(),
        Status::Paused => "paused".into(),
        Status::Finished(e) => format!("finished: {}", super::results::ending_sentence(e)),
    }
}

/// `LIST game`'s line of a duplex game (`SET PLAYERS n`): how many players share the
/// powers, and, once it runs, how many play now.
fn duplex_players_line(g: &Game) -> String {
    let n = g.players_wanted();
    let powers = Power::ALL.len();
    if *g.status() == Status::Forming {
        return format!(
            "Players: {n} (a duplex game: the {powers} powers are shared among them)\n"
        );
    }
    format!(
        "Players: {n} (a duplex game: the {powers} powers are shared among them; {} play now)\n",
        g.player_count()
    )
}

/// One line of `LIST`: the game, its rule set, phase and status, whether it is unlisted,
/// private or anonymous, and its comment; a game with open positions says which (they
/// wait for replacements).
pub fn list_line(g: &Game) -> String {
    let marks = crate::bulletin::settings::listing_marks(g);
    let line = match g.status() {
        Status::Forming => format!(
            "  {:<12} {:<10} {}{marks}",
            g.name(),
            g.variant(),
            status_word(g)
        ),
        _ => format!(
            "  {:<12} {:<10} {} {}{marks}",
            g.name(),
            g.variant(),
            g.position().phase,
            status_word(g)
        ),
    };
    let open = g.open_powers();
    if open.is_empty() {
        line
    } else {
        format!("{line}, {}", seats::open_positions(&open))
    }
}

/// `LIST`'s heading on a judge with more games than a page holds: it lists the games
/// that seek players first.
pub const LIST_SEEKING_HEADING: &str =
    "Games on this judge that seek players (forming, or waiting for replacements):";

/// What a bare `LIST` of a judge with more games than a page holds says after the games
/// that seek players (`shown` of them, `more` when others seek players too): how many
/// games there are, and how to ask for the rest.
pub fn list_seeking_note(shown: usize, more: bool, total: u64, per_page: u64) -> Vec<String> {
    let mut out = Vec::new();
    if shown == 0 {
        out.push("  (none now)".to_string());
    } else if more {
        out.push(format!(
            "  (the first {shown} by name: more seek players; LIST PAGE n lists every game)"
        ));
    }
    let pages = total.div_ceil(per_page.max(1)).max(1);
    out.push(String::new());
    out.push(format!(
        "{total} games are listed on this judge, too many for one mail: LIST PAGE 1 to"
    ));
    out.push(format!(
        "LIST PAGE {pages} list them all by name, {per_page} to a page; LIST game lists one game."
    ));
    out
}

/// The heading of one page of `LIST` (`LIST PAGE n`) or of `LIST FULL` (`full`).
pub fn list_page_heading(page: u64, pages: u64, per_page: u64, full: bool) -> String {
    let what = if full { "in full" } else { "by name" };
    format!("Games on this judge {what}, page {page} of {pages} ({per_page} to a page):")
}

/// What one page of `LIST` (or `LIST FULL`, `full`) says after its games.
pub fn list_page_note(page: u64, pages: u64, total: u64, full: bool, shown: usize) -> Vec<String> {
    let command = if full { "LIST FULL PAGE" } else { "LIST PAGE" };
    let mut out = Vec::new();
    if shown == 0 {
        out.push(format!("  (none: the list has {pages} pages)"));
    }
    out.push(String::new());
    if page < pages {
        out.push(format!(
            "{total} games are listed; {command} {} lists the next page.",
            page + 1
        ));
    } else {
        out.push(format!(
            "{total} games are listed; there is no page after page {pages}."
        ));
    }
    out
}

/// One line of `LIST` for a suspended game (its state is not read).
pub fn suspended_list_line(game: &str, reason: &str) -> String {
    format!("  {game:<12} suspended: {reason}")
}

/// What a listing's reader may see of a game's players, as the judge's audience rule says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The reader is the game's master (the observers' addresses, the invitations, the
    /// absences).
    pub master: bool,
    /// Who plays (played) which power: the tenures.
    pub players: bool,
    /// The players' addresses.
    pub addresses: bool,
}

/// `LIST game`: the game, its phase, deadline, players and whose orders are in, how many
/// observers it has, and every setting (`bulletin::settings`). Its master also reads the
/// observers' addresses, the invitations and the absences; the players' addresses are
/// there when `shown` says so.
pub fn list_game(map: &Map, variant: &dyn Variant, g: &Game, shown: Shown) -> String {
    let master = shown.master;
    let mut s = format!(
        "Game: {}   Variant: {}   Status: {}\n",
        g.name(),
        g.variant(),
        status_word(g)
    );
    if *g.status() != Status::Forming {
        s.push_str(&format!("Phase: {}\n", g.position().phase));
    }
    if g.is_duplex() {
        s.push_str(&duplex_players_line(g));
    }
    if let Some(d) = g.deadline() {
        s.push_str(&format!("Deadline: {}\n", format_time(g, d)));
        if let Some(end) = g.grace_end().filter(|e| *e > d) {
            s.push_str(&format!("Grace ends: {}\n", format_time(g, end)));
        }
        s.push_str(&earliest_processing(g));
    }
    s.push_str(&seats::press_words(&g.settings().press, g.settings().nmr));
    s.push('\n');
    let observers = g.observers().len();
    if master && observers > 0 {
        s.push_str(&format!(
            "Observers: {observers} ({})\n",
            g.observers().join(", ")
        ));
    } else {
        s.push_str(&format!("Observers: {observers}\n"));
    }
    let rules =
        crate::bulletin::settings::rules_text(variant.name(), &variant.settings(g.variant_state()));
    // The settings close the listing.
    let with_settings = |mut s: String| {
        for line in crate::bulletin::settings::settings_lines(g, &rules, master) {
            s.push_str(&line);
            s.push('\n');
        }
        s
    };
    let shown = shown.addresses;
    if *g.status() == Status::Forming {
        if shown {
            for j in g.joiners() {
                s.push_str(&format!(
                    "  joined: {}\n",
                    crate::bulletin::settings::seat_text(g, &j.seat)
                ));
            }
        }
        return with_settings(s);
    }
    // What everyone may know (H20): a rule set's secret orders (a ballot) are left out.
    let must = g.public_powers_to_order(map, variant);
    for p in Power::ALL {
        let Some(pl) = g.player(p) else { continue };
        let orders = if must.contains(&p) {
            g.public_order_status(map, variant, p)
                .map_or("none", |s| s.word())
        } else {
            "no orders needed"
        };
        let flags = seats::seat_marks(pl, master).join(", ");
        s.push_str(&format!(
            "  {:<8} {:>2} centres, {:>2} units, orders {orders}{}{}\n",
            p.name(),
            g.position().centre_count(p),
            g.position()
                .units
                .iter()
                .filter(|u| u.owner == Owner::Power(p))
                .count(),
            if flags.is_empty() {
                String::new()
            } else {
                format!(" ({flags})")
            },
            if shown {
                format!("  {}", crate::bulletin::settings::seat_text(g, &pl.seat))
            } else {
                String::new()
            }
        ));
    }
    s.push_str(&board(map, g));
    with_settings(s)
}

/// When the phase open now may be processed at the earliest: the schedule's delay after
/// the last orders, once every power that must order has (and not before the master's
/// `SET START` or the schedule's `MIN`).
fn earliest_processing(g: &Game) -> String {
    let delay = chrono::Duration::minutes(g.timing().delay_minutes);
    let not_before = g
        .not_before()
        .map(|t| format!(", not before {}", format_time(g, t)))
        .unwrap_or_default();
    match g.all_in_since() {
        Some(t) => {
            let mut at = t + delay;
            if let Some(d) = g.deadline() {
                at = at.min(d);
            }
            if let Some(nb) = g.not_before() {
                at = at.max(nb);
            }
            format!(
                "Earliest processing: {} (every order is in)\n",
                format_time(g, at)
            )
        }
        None => format!(
            "Earliest processing: {} after every order is in{not_before}\n",
            minutes_words(g.timing().delay_minutes)
        ),
    }
}

/// `10 minutes`, `1 hour`, `2 hours 30 minutes`.
fn minutes_words(m: i64) -> String {
    let (h, m) = (m / 60, m % 60);
    let part = |n: i64, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    match (h, m) {
        (0, m) => part(m, "minute", "minutes"),
        (h, 0) => part(h, "hour", "hours"),
        (h, m) => format!(
            "{} {}",
            part(h, "hour", "hours"),
            part(m, "minute", "minutes")
        ),
    }
}

/// The board as `LIST game` shows it, as njudge's does: each power's units and supply
/// centres (what every results bulletin already told everyone).
fn board(map: &Map, g: &Game) -> String {
    let mut s = String::from("Units and supply centres:\n");
    for p in Power::ALL {
        let units: Vec<String> = g
            .position()
            .units
            .iter()
            .filter(|u| u.owner == Owner::Power(p))
            .map(|u| super::results::unit_words(map, Some(u.kind), u.location))
            .collect();
        let centres: Vec<String> = map
            .supply_centres()
            .filter(|c| g.position().owner_of(*c) == Some(p))
            .map(|c| map.province(c).name.clone())
            .collect();
        if units.is_empty() && centres.is_empty() {
            continue;
        }
        let none = || vec!["none".to_string()];
        let units = if units.is_empty() { none() } else { units };
        let centres = if centres.is_empty() { none() } else { centres };
        let lines = [
            (format!("  {:<8} units: ", p.name()), units),
            (format!("  {:<8} centres: ", ""), centres),
        ];
        for (prefix, items) in lines {
            s.push_str(&list_lines(&prefix, &items));
        }
    }
    s
}

/// `items` after `prefix`, separated by commas, as many as fit in 78 columns a line; the
/// lines after the first start under the first item. An item is never split.
fn list_lines(prefix: &str, items: &[String]) -> String {
    let indent = " ".repeat(prefix.chars().count());
    let mut out = String::new();
    let mut line = prefix.to_string();
    let mut first = true;
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        let sep = if first { "" } else { " " };
        if !first && line.chars().count() + sep.len() + piece.chars().count() > 78 {
            out.push_str(&line);
            out.push('\n');
            line = indent.clone();
            line.push_str(&piece);
        } else {
            line.push_str(sep);
            line.push_str(&piece);
        }
        first = false;
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `SUMMARY game`: who played what (each tenure, where `shown` lets the reader see them;
/// the addresses likewise), the centres each power holds now, and each power's centre
/// count by year (`chart`'s table).
pub fn summary(map: &Map, g: &Game, shown: Shown, chart: Option<&crate::picture::Chart>) -> String {
    let mut s = format!(
        "Summary of '{}' ({}), {}.\n",
        g.name(),
        g.variant(),
        status_word(g)
    );
    if *g.status() != Status::Forming {
        s.push_str(&format!("Current phase: {}\n\n", g.position().phase));
        // Who played which power, with addresses, only where the reader may see them.
        let players = if shown.players {
            seats::tenures(g, shown.addresses)
        } else {
            String::new()
        };
        if !players.is_empty() {
            s.push_str(&players);
            s.push('\n');
        }
        for p in Power::ALL {
            let centres: Vec<String> = map
                .supply_centres()
                .filter(|c| g.position().owner_of(*c) == Some(p))
                .map(|c| map.province(c).name.clone())
                .collect();
            s.push_str(&format!(
                "{:<8} {:>2}: {}\n",
                p.name(),
                centres.len(),
                centres.join(", ")
            ));
        }
        if let Some(chart) = chart {
            s.push_str(&centre_table(chart));
        }
    }
    s
}

/// How many years a line of the centre table holds before the table goes on below.
const TABLE_COLUMNS: usize = 10;

/// Each power's supply-centre count at the start and at the end of each year, as the
/// centre chart draws them, ten years to a block:
///
/// ```text
/// Supply centres by year:
///           start  1901  1902
/// Austria       3     4     5
/// ```
pub fn centre_table(chart: &crate::picture::Chart) -> String {
    let mut s = String::from("\nSupply centres by year:\n");
    let columns: Vec<&String> = chart.columns.iter().collect();
    for (block, heads) in columns.chunks(TABLE_COLUMNS).enumerate() {
        if block > 0 {
            s.push('\n');
        }
        s.push_str(&format!("{:<8}", ""));
        for h in heads {
            s.push_str(&format!(" {h:>5}"));
        }
        s.push('\n');
        for line in &chart.lines {
            s.push_str(&format!("{:<8}", line.power.name()));
            let start = block * TABLE_COLUMNS;
            for i in start..start + heads.len() {
                match line.counts.get(i) {
                    Some(n) => s.push_str(&format!(" {n:>5}")),
                    None => s.push_str(&format!(" {:>5}", "-")),
                }
            }
            s.push('\n');
        }
    }
    s
}

/// A canonical, stable dump of a game: what the golden tests compare.
pub fn dump_game(map: &Map, g: &Game) -> String {
    let mut s = format!("GAME {} ({})\n", g.name(), status_word(g));
    s.push_str(&format!("  master {}\n", g.master().address));
    if *g.status() == Status::Forming {
        for j in g.joiners() {
            s.push_str(&format!("  joined {}\n", j.seat.address));
        }
        return s;
    }
    s.push_str(&format!(
        "  phase {} turn {}\n",
        g.position().phase,
        g.turn()
    ));
    if let Some(d) = g.deadline() {
        s.push_str(&format!("  deadline {}\n", crate::store::write_time(d)));
    }
    for p in g.players() {
        let status = match p.status {
            SeatStatus::Playing => String::new(),
            SeatStatus::Dummy => " dummy".to_string(),
            SeatStatus::Abandoned(why) => format!(" abandoned {why:?}"),
        };
        s.push_str(&format!(
            "  player {} {}{status}{}{}\n",
            p.power,
            p.seat.address,
            if p.bouncing.is_some() {
                " bouncing"
            } else {
                ""
            },
            p.claim
                .as_ref()
                .map(|c| format!(" claimed-by {}", c.seat.address))
                .unwrap_or_default()
        ));
    }
    // The tenures that say more than "played from the start, no phase missed".
    let first = g.tenures().first().map(|t| t.from);
    for t in g.tenures() {
        if t.ended.is_some() || t.missed > 0 || Some(t.from) != first {
            s.push_str(&format!(
                "  tenure {} {} from {} to {} missed {}{}\n",
                t.power,
                t.address,
                t.from,
                t.to.map(|p| p.to_string()).unwrap_or_else(|| "-".into()),
                t.missed,
                t.ended.map(|w| format!(" {w:?}")).unwrap_or_default()
            ));
        }
    }
    for o in g.observers() {
        s.push_str(&format!("  observer {o}\n"));
    }
    for u in &g.position().units {
        s.push_str(&format!("  unit {} {}\n", u.owner, u.display(map)));
    }
    for d in &g.position().dislodged {
        s.push_str(&format!(
            "  dislodged {} {}\n",
            d.unit.owner,
            d.unit.display(map)
        ));
    }
    for c in map.supply_centres() {
        if let Some(p) = g.position().owner_of(c) {
            s.push_str(&format!("  centre {} {}\n", map.display_code(c), p));
        }
    }
    for o in g.all_orders() {
        s.push_str(&format!("  order {}: {}\n", o.power, o.order.display(map)));
    }
    for line in g.variant_state().dump_lines() {
        s.push_str(&format!("  state {line}\n"));
    }
    s
}

/// One block of `LIST FULL` for a suspended game (its state is not read).
pub fn suspended_full_line(game: &str, reason: &str) -> String {
    format!("Game: {game}   Status: suspended: {reason}")
}

/// How many lines `HISTORY` sends when no `LINES` is given (njudge's 1000).
pub const HISTORY_LINES: usize = 1000;

fn history_entry(h: &HistoryEntry) -> Vec<String> {
    let mut out = vec![format!("==== {} ({})", h.subject, h.phase)];
    out.extend(h.body.lines().map(str::to_string));
    out
}

/// `HISTORY`'s lines, at most `limit` of them from the oldest entry on, as njudge counts
/// them; when the history goes on, a last line says from which time to ask for the rest
/// (in game `g`'s zone, in a form `FROM` reads back).
pub fn history_upto(g: &Game, entries: &[HistoryEntry], limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    for (i, h) in entries.iter().enumerate() {
        let lines = history_entry(h);
        if out.len() + lines.len() > limit {
            let left = entries.len() - i;
            let at = h.at.with_timezone(&super::dates::zone(g));
            if out.len() < limit {
                out.extend(lines.into_iter().take(limit - out.len()));
            }
            out.push(format!(
                "(history cut at {limit} lines; {left} more {} from {}: HISTORY {} FROM {})",
                if left == 1 { "entry" } else { "entries" },
                at.format("%Y-%m-%d %H:%M"),
                g.name(),
                at.format("%Y-%m-%d %H:%M"),
            ));
            return out;
        }
        out.extend(lines);
    }
    out
}

/// The standing orders of power `p`, as the reply lists them after its orders: unit orders
/// in unit order, then the rule set's orders, and the units left without an order.
pub fn standing_orders(map: &Map, g: &Game, p: Power) -> Vec<String> {
    let mut out = vec![
        String::new(),
        format!(
            "Orders standing for {p} in {} ({}):",
            g.name(),
            g.position().phase
        ),
    ];
    let mut standing: Vec<&PowerOrder> = g.orders_of(p).iter().collect();
    standing.sort_by_key(|o| o.order.unit().map(|u| u.province()));
    for o in standing {
        out.push(format!("  {}", o.order.display(map)));
    }
    for v in g
        .variant_orders()
        .iter()
        .filter(|v| v.from == Sender::Power(p))
    {
        out.push(format!("  {}", v.command.render(map)));
    }
    let missing = g.unordered_units(p);
    if g.position().phase.kind == rules::PhaseKind::Movement && !missing.is_empty() {
        let names: Vec<String> = missing
            .iter()
            .map(|u| {
                format!(
                    "{} {}",
                    u.kind.map(|k| k.letter()).unwrap_or('?'),
                    map.display_location(u.location)
                )
            })
            .collect();
        // Not "they will hold": the power is late at the deadline until each has an order
        // (issue 38: the reply said they would hold, then the power was named late).
        out.push(format!(
            "Units without orders: {}. Your orders are incomplete: give each one an order \
             (to hold: {} H) or {p} is late at the deadline; a unit still without one then \
             holds.",
            names.join(", "),
            names.first().map(String::as_str).unwrap_or_default()
        ));
    }
    out
}

/// The dump of a game that is suspended (its state is not read).
pub fn dump_suspended(game: &str, reason: &str) -> String {
    format!("GAME {game} (suspended: {reason})\n")
}
