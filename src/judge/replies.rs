//! The texts of informational replies: HELP, LIST, SUMMARY, and the canonical game dump.

use crate::game::{Game, Status};
use crate::map::{Map, Power};
use crate::rules::Owner;
use crate::variant::Variant;

use super::time::format_time;

/// The full help text, sent by mail for HELP.
pub(super) fn help_text() -> &'static str {
    include_str!("help.txt")
}

fn status_word(g: &Game) -> String {
    match &g.status {
        Status::Forming => format!("forming ({} of 7 joined)", g.joiners.len()),
        Status::Active => "active".into(),
        Status::Paused => "paused".into(),
        Status::Finished(e) => format!("finished: {}", e.sentence()),
    }
}

/// One line of `LIST`: the game, its rule set, phase and status, whether it is unlisted,
/// private or anonymous, and its comment.
pub(super) fn list_line(g: &Game) -> String {
    let marks = crate::bulletin::settings::listing_marks(g);
    match g.status {
        Status::Forming => format!(
            "  {:<12} {:<10} {}{marks}",
            g.name,
            g.variant,
            status_word(g)
        ),
        _ => format!(
            "  {:<12} {:<10} {} {}{marks}",
            g.name,
            g.variant,
            g.position.phase,
            status_word(g)
        ),
    }
}

/// One line of `LIST` for a suspended game (its state is not read).
pub(super) fn suspended_list_line(game: &str, reason: &str) -> String {
    format!("  {game:<12} suspended: {reason}")
}

/// The subject of the reply to a mail with `subject`: `Re:` it once, or `<judge> reply`.
pub(super) fn reply_subject(judge: &str, subject: &str) -> String {
    if subject.trim().is_empty() {
        format!("{judge} reply")
    } else if subject.to_ascii_lowercase().starts_with("re:") {
        subject.to_string()
    } else {
        format!("Re: {subject}")
    }
}

/// A subject quoted inside a text: at most 80 characters, on one line.
pub(super) fn one_line_subject(subject: &str) -> String {
    let line = crate::command::collapse_blanks(subject, |_| false);
    match line.char_indices().nth(80) {
        Some((cut, _)) => format!("{}...", line.get(..cut).unwrap_or_default()),
        None => line,
    }
}

/// `LIST game`: the game, its phase, deadline, players and whose orders are in, how many
/// observers it has, and every setting (`bulletin::settings`). Its master (`master`) also
/// reads the observers' and players' addresses, the invitations and the absences; everyone
/// reads the players' addresses when the game shows them.
pub(super) fn list_game(map: &Map, variant: &dyn Variant, g: &Game, master: bool) -> String {
    let mut s = format!(
        "Game: {}   Variant: {}   Status: {}\n",
        g.name,
        g.variant,
        status_word(g)
    );
    if g.status != Status::Forming {
        s.push_str(&format!("Phase: {}\n", g.position.phase));
    }
    if let Some(d) = g.deadline {
        s.push_str(&format!("Deadline: {}\n", format_time(g, d)));
    }
    let press = match g.settings.press.level {
        crate::game::PressLevel::None => "none",
        crate::game::PressLevel::White => "white (signed)",
        crate::game::PressLevel::Grey => "grey (anonymous)",
        crate::game::PressLevel::WhiteGrey => "white and grey",
    };
    s.push_str(&format!(
        "Press: {press}{}   Missed deadlines: {}\n",
        if g.settings.press.partial {
            ", partial allowed"
        } else {
            ", no partial"
        },
        if g.settings.nmr {
            "processed (NMR)"
        } else {
            "wait (NONMR)"
        }
    ));
    let observers = g.observers.len();
    if master && observers > 0 {
        s.push_str(&format!(
            "Observers: {observers} ({})\n",
            g.observers.join(", ")
        ));
    } else {
        s.push_str(&format!("Observers: {observers}\n"));
    }
    let rules =
        crate::bulletin::settings::rules_text(variant.name(), &variant.settings(&g.variant_state));
    // The settings close the listing.
    let with_settings = |mut s: String| {
        for line in crate::bulletin::settings::settings_lines(g, &rules, master) {
            s.push_str(&line);
            s.push('\n');
        }
        s
    };
    let shown = master || !g.addresses_hidden();
    if g.status == Status::Forming {
        if shown {
            for j in &g.joiners {
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
        let flags = [
            (pl.abandoned, "abandoned"),
            (pl.resigned, "resigned"),
            (pl.wait, "waiting"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, w)| *w)
        .collect::<Vec<_>>()
        .join(", ");
        s.push_str(&format!(
            "  {:<8} {:>2} centres, {:>2} units, orders {orders}{}{}\n",
            p.name(),
            g.position.centre_count(p),
            g.position
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
    with_settings(s)
}

/// `SUMMARY game`: who played what, and the centre counts.
pub(super) fn summary(map: &Map, g: &Game) -> String {
    let mut s = format!(
        "Summary of '{}' ({}), {}.\n",
        g.name,
        g.variant,
        status_word(g)
    );
    if g.status != Status::Forming {
        s.push_str(&format!("Current phase: {}\n\n", g.position.phase));
        for p in Power::ALL {
            let centres: Vec<String> = map
                .supply_centres()
                .filter(|c| g.position.owner_of(*c) == Some(p))
                .map(|c| map.province(c).name.clone())
                .collect();
            s.push_str(&format!(
                "{:<8} {:>2}: {}\n",
                p.name(),
                centres.len(),
                centres.join(", ")
            ));
        }
    }
    s
}

/// A canonical, stable dump of a game: what the golden tests compare.
pub(super) fn dump_game(map: &Map, g: &Game) -> String {
    let mut s = format!("GAME {} ({})\n", g.name, status_word(g));
    s.push_str(&format!("  master {}\n", g.master.address));
    if g.status == Status::Forming {
        for j in &g.joiners {
            s.push_str(&format!("  joined {}\n", j.seat.address));
        }
        return s;
    }
    s.push_str(&format!("  phase {} turn {}\n", g.position.phase, g.turn));
    if let Some(d) = g.deadline {
        s.push_str(&format!("  deadline {}\n", crate::store::write_time(d)));
    }
    for p in &g.players {
        s.push_str(&format!(
            "  player {} {}{}{}\n",
            p.power,
            p.seat.address,
            if p.abandoned { " abandoned" } else { "" },
            if p.resigned { " resigned" } else { "" }
        ));
    }
    for o in &g.observers {
        s.push_str(&format!("  observer {o}\n"));
    }
    for u in &g.position.units {
        s.push_str(&format!("  unit {} {}\n", u.owner, u.display(map)));
    }
    for d in &g.position.dislodged {
        s.push_str(&format!(
            "  dislodged {} {}\n",
            d.unit.owner,
            d.unit.display(map)
        ));
    }
    for c in map.supply_centres() {
        if let Some(p) = g.position.owner_of(c) {
            s.push_str(&format!("  centre {} {}\n", map.display_code(c), p));
        }
    }
    for o in g.all_orders() {
        s.push_str(&format!("  order {}: {}\n", o.power, o.order.display(map)));
    }
    for line in g.variant_state.dump_lines() {
        s.push_str(&format!("  state {line}\n"));
    }
    s
}
