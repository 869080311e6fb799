//! What a game's settings read like, and what the master's set-up tells people: the
//! settings part of `LIST game`, the start mail (the rule set, the powers, the first
//! deadline), the end of a game (what ended it, the players revealed), and the replies
//! and notices about draws, concessions, absences, invitations and co-masters.
//!
//! Pure: every value arrives typed, and times are written in the game's zone by [`when`].
//! Whose address or name a reader may see is decided by the game
//! ([`Game::addresses_hidden`]); this module only writes what it is given.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::command::Date;
use crate::command::Declaration;
use crate::command::{Assignment, NjudgeWord};
use crate::game::{
    Absence, DrawVote, Ending, Game, ObserverLevel, PhaseRule, PressPolicy, ScheduleClass, Seat,
    SeatStatus,
};
use crate::map::Power;
use crate::variant::{Sender, Variant, list_powers};

/// An instant as players read it: `Mon Oct 26 2026 20:00 CET`, in the zone `tz`.
pub fn when(tz: &Tz, t: DateTime<Utc>) -> String {
    t.with_timezone(tz)
        .format("%a %b %d %Y %H:%M %Z")
        .to_string()
}

/// A rule set and its settings: `Standard`, `Survive (survive_draws on)`.
pub fn rules_text(name: &str, settings: &[(&str, String)]) -> String {
    if settings.is_empty() {
        return name.to_string();
    }
    let parts: Vec<String> = settings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!("{name} ({})", parts.join(", "))
}

/// A rule set named in a sentence: `the Standard rules`, `the Survive rules
/// (survive_draws off)`.
pub fn rules_phrase(name: &str, settings: &[(&str, String)]) -> String {
    if settings.is_empty() {
        return format!("the {name} rules");
    }
    let parts: Vec<String> = settings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!("the {name} rules ({})", parts.join(", "))
}

/// A seat as the master (or, once revealed, everyone) reads it: `Anna Smith
/// <anna@example.org>`, or the bare address when the judge read no name.
pub fn seat_text(g: &Game, seat: &Seat) -> String {
    match g.name_of(&seat.address) {
        Some(name) => format!("{name} <{}>", seat.address),
        None => seat.address.clone(),
    }
}

/// One class's schedule as the master writes it: `CLOCK 20:00 NEXT 48 GRACE 24 DELAY 0.17
/// DAYS -MTWTF-` (hours; `MIN` only when set).
pub fn schedule_text(rule: &PhaseRule) -> String {
    let mut parts = Vec::new();
    match rule.clock {
        Some(m) => parts.push(format!("CLOCK {}", clock_text(m))),
        None => parts.push("CLOCK OFF".to_string()),
    }
    if rule.min > 0 {
        parts.push(format!("MIN {}", minutes_as_hours(rule.min)));
    }
    parts.push(format!("NEXT {}", minutes_as_hours(rule.next)));
    parts.push(format!("GRACE {}", minutes_as_hours(rule.grace)));
    parts.push(format!("DELAY {}", minutes_as_hours(rule.delay)));
    parts.push(format!("DAYS {}", rule.days));
    parts.join(" ")
}

/// The marks a game's line of `LIST` carries after its status: unlisted, private, and its
/// comment.
pub fn listing_marks(g: &Game) -> String {
    let mut marks = Vec::new();
    if !g.settings().listed {
        marks.push("unlisted".to_string());
    }
    if g.is_private() {
        marks.push("private".to_string());
    }
    if g.settings().anonymous {
        marks.push("anonymous".to_string());
    }
    let mut s = if marks.is_empty() {
        String::new()
    } else {
        format!(" [{}]", marks.join(", "))
    };
    if let Some(c) = &g.settings().comment {
        s.push_str(&format!(" - {c}"));
    }
    s
}

/// Who an absence is of, as the master reads it.
fn absentee(a: &Absence) -> String {
    match a.who {
        Sender::Power(p) => p.name().to_string(),
        Sender::Master => "the master".to_string(),
    }
}

/// The settings part of `LIST game`: the rule set and its own settings, the time zone and
/// schedule, the start, who may join, who sees the players' addresses, announcements,
/// absences, co-masters and the comment. `master`: the reader is the game's master, who
/// also reads the invited addresses, the absences and the co-masters' addresses; `rules`
/// is [`rules_text`].
pub fn settings_lines(g: &Game, rules: &str, master: bool) -> Vec<String> {
    let tz = g.time_zone();
    let mut out = vec![
        format!(
            "Rules: {rules}   Centres for a solo: {}",
            g.settings().centres_to_win
        ),
        format!("Time zone: {}", tz.name()),
        "Schedule (hours; SET MOVE, SET RETREAT, SET ADJUST):".to_string(),
    ];
    for (class, label) in [
        (ScheduleClass::Movement, "Movement:   "),
        (ScheduleClass::Retreat, "Retreats:   "),
        (ScheduleClass::Adjustment, "Adjustments:"),
    ] {
        let kind = match class {
            ScheduleClass::Movement => crate::rules::PhaseKind::Movement,
            ScheduleClass::Retreat => crate::rules::PhaseKind::Retreat,
            ScheduleClass::Adjustment => crate::rules::PhaseKind::Adjustment,
        };
        out.push(format!("  {label} {}", schedule_text(&g.rule(kind))));
    }
    if let Some(t) = g.not_before() {
        out.push(format!("Start: not before {}", when(&tz, t)));
    }
    out.push(format!(
        "Listing: {}",
        if g.settings().listed {
            "listed for everyone"
        } else {
            "unlisted: listed only to its players and master (SET NOLIST)"
        }
    ));
    let invited = &g.settings().invitations;
    let joining = match (g.settings().join_password.is_some(), invited.len()) {
        (false, 0) => "anyone may join".to_string(),
        (true, 0) => "with the join password".to_string(),
        (pw, n) => format!(
            "{}by invitation ({n} invited{})",
            if pw { "with the join password or " } else { "" },
            if master {
                format!(
                    ": {}",
                    invited
                        .iter()
                        .map(|i| i.address.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                String::new()
            }
        ),
    };
    out.push(format!("Joining: {joining}"));
    let addresses = match (
        g.settings().anonymous,
        g.settings().reveal,
        g.settings().addresses_shown,
    ) {
        (true, true, _) => {
            "anonymous game: no player's address or name is shown to anyone but the master until the game ends, then all are revealed"
        }
        (true, false, _) => {
            "anonymous game: no player's address or name is shown to anyone but the master, even after the end (NOREVEAL)"
        }
        (false, _, true) => "shown to every player (SET ADDRESSES SHOWN)",
        (false, _, false) => {
            "kept from the other players until the game ends (only the master sees them)"
        }
    };
    out.push(format!("Players' addresses: {addresses}"));
    out.push(format!(
        "Abandonments and takeovers: {}",
        if g.settings().quiet {
            "told to the master and the powers concerned only (QUIET)"
        } else {
            "announced to everyone"
        }
    ));
    if g.settings().takeover_history {
        out.push(
            "Takeovers: a newcomer reads its power's earlier private mail (SET TAKEOVER HISTORY)"
                .to_string(),
        );
    }
    if let Some(line) = observers_line(&g.settings().press) {
        out.push(line);
    }
    out.push(format!(
        "Absences: at most {} days each (SET MAXABSENCE)",
        g.settings().deadlines.max_absence_days
    ));
    if master {
        for a in g.absences() {
            out.push(format!(
                "  {} away from {} to {}",
                absentee(a),
                when(&tz, a.from),
                when(&tz, a.to)
            ));
        }
    }
    if let Some(gates) = crate::bulletin::people::gates_line(&g.settings().gates) {
        out.push(gates);
    }
    if !g.comasters().is_empty() {
        if master {
            out.push(format!(
                "Co-masters: {}",
                g.comasters()
                    .iter()
                    .map(|s| seat_text(g, s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        } else {
            out.push(format!("Co-masters: {}", g.comasters().len()));
        }
    }
    if let Some(c) = &g.settings().comment {
        out.push(format!("Comment: {c}"));
    }
    out
}

/// What observers read (`SET WATCH`) and may send (`SET OBSERVER`), when the master changed
/// either: njudge lists no default (`ANY` for both).
fn observers_line(press: &PressPolicy) -> Option<String> {
    if press.watch == ObserverLevel::Any && press.observer_press == ObserverLevel::Any {
        return None;
    }
    let read = match press.watch {
        ObserverLevel::Any => "read the results and every broadcast",
        ObserverLevel::White => "read the results and signed broadcasts only (SET WATCH WHITE)",
        ObserverLevel::None => "none taken (SET WATCH NONE)",
    };
    let send = match press.observer_press {
        ObserverLevel::Any => "may send press as the players may",
        ObserverLevel::White => "may send signed broadcasts only (SET OBSERVER WHITE)",
        ObserverLevel::None => "may send press to the master only (SET OBSERVER NONE)",
    };
    Some(format!("Observers: {read}; {send}"))
}

/// The powers and their players, one a line (`  Austria:  Anna <anna@example.org>`).
fn player_table(g: &Game) -> String {
    let mut s = String::new();
    for p in g.players() {
        // A power its player left is not "a dummy" (nobody ever played it): the list says
        // who left it and why (issue 38).
        let who = match p.status {
            SeatStatus::Playing => seat_text(g, &p.seat),
            SeatStatus::Abandoned(why) if !p.seat.address.is_empty() => format!(
                "{} ({}; nobody played it after)",
                seat_text(g, &p.seat),
                super::seats::left_words(why)
            ),
            SeatStatus::Abandoned(why) => {
                format!("nobody (its player {})", super::seats::left_words(why))
            }
            SeatStatus::Dummy => super::seats::dummy_in_start().to_string(),
        };
        s.push_str(&format!("  {:<9} {who}\n", format!("{}:", p.power)));
    }
    s
}

/// Who reads a copy of a mail about the whole game: a power's player, the master, or
/// anyone else (observers, the history).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyFor {
    Power(Power),
    Master,
    Others,
}

/// What stands for a player's address the reader may not see, in the start mail's list of
/// players: njudge's word for a player kept secret (`someone@somewhere`), so that the
/// tools that read the list find an entry for every power.
pub const SOMEONE: &str = "someone@somewhere";

/// The subject of the start mail, as njudge's: `DIP:demo - S1901M Game Starting`.
pub fn start_subject(judge: &str, g: &Game) -> String {
    super::notices::subject(
        judge,
        g.name(),
        format!("{} Game Starting", g.position().phase),
    )
}

/// The mail that starts a game, for one reader (`to`), in njudge's form, which tools of the
/// njudge era read: the `::` header (judge, game, rule set; the first phase and its
/// deadline), `You have been selected as …`, the players (`The following players are in
/// this game:`, an address the reader may not see written [`SOMEONE`]), the starting
/// position, and the first deadline; then the judge's own lines: the rule set with its
/// settings (`rules`: [`rules_phrase`]), what the game keeps secret, and how to sign on.
pub fn start_text(
    g: &Game,
    variant: &dyn Variant,
    map: &crate::map::Map,
    judge: &str,
    deadline: DateTime<Utc>,
    (to, addresses): (CopyFor, bool),
) -> String {
    let tz = g.time_zone();
    let rules = rules_phrase(variant.name(), &variant.settings(g.variant_state()));
    let master = to == CopyFor::Master;
    let for_tools = super::dates::for_tools(&tz, deadline);
    let mut text = format!(
        ":: Judge: {judge}  Game: {}  Variant: {}\n:: Deadline: {} {for_tools}\n\n",
        g.name(),
        g.variant(),
        g.position().phase
    );
    let selected = match to {
        CopyFor::Power(p) => p.name(),
        CopyFor::Master => "Master",
        CopyFor::Others => "Observer",
    };
    text.push_str(&format!(
        "You have been selected as {selected} in game '{}' of Diplomacy.\n\n",
        g.name()
    ));
    text.push_str("The following players are in this game:\n");
    let hidden = !addresses;
    let listed =
        |label: &str, address: &str| format!("     {:<26}{address}\n", format!("{label}:"));
    text.push_str(&listed(
        "Master",
        &if hidden {
            SOMEONE.to_string()
        } else {
            seat_text(g, g.master())
        },
    ));
    // The reader's own powers (several in a duplex game) show its address.
    let own_powers = match to {
        CopyFor::Power(me) => g.held_with(me),
        _ => Vec::new(),
    };
    for p in g.players() {
        let own = own_powers.contains(&p.power);
        let address = if p.is_open() {
            super::seats::dummy_in_start().to_string()
        } else if hidden && !own {
            SOMEONE.to_string()
        } else {
            seat_text(g, &p.seat)
        };
        text.push_str(&listed(p.power.name(), &address));
    }
    text.push_str(&format!(
        "\nStarting position for {} of {}.\n",
        g.position().phase.season_name(),
        g.position().phase.year
    ));
    let mut units: Vec<&crate::rules::Unit> = g.position().units.iter().collect();
    units.sort_by_key(|u| (u.owner, map.location_name(u.location)));
    let mut last = None;
    for u in units {
        if last != Some(u.owner) {
            text.push('\n');
            last = Some(u.owner);
        }
        let owner = match u.owner {
            crate::rules::Owner::Power(p) => p.name(),
            crate::rules::Owner::Neutral => "Neutral",
        };
        text.push_str(&format!(
            "{:<9}{:<6}{}.\n",
            format!("{owner}:"),
            u.kind.name(),
            map.location_name(u.location)
        ));
    }
    text.push_str(&format!(
        "\n\nThe deadline for the first orders is {for_tools}.\n\n"
    ));
    text.push_str(&format!("Game '{}' is played with {rules}.\n", g.name()));
    if g.addresses_hidden() {
        text.push_str(if !g.settings().anonymous {
            "Who plays which power is kept from the other players until the game ends.\n"
        } else if g.settings().reveal {
            "This game is anonymous: nobody but the master learns who plays which power until the game ends, when all are revealed. Press is signed with the power's name.\n"
        } else {
            "This game is anonymous: nobody but the master learns who plays which power, even after the game ends. Press is signed with the power's name.\n"
        });
        if master {
            text.push_str(
                "(The list above is the master's: each player reads someone@somewhere for the others.)\n",
            );
        }
    }
    text.push_str(&format!(
        "The first phase is {}; orders are due by {}.\n",
        super::phase_words(g.position().phase),
        when(&tz, deadline)
    ));
    text.push_str(&format!(
        "Sign on with SIGNON <power initial>{} <your password>, e.g. SIGNON E{} for England.\n",
        g.name(),
        g.name()
    ));
    text
}

/// The mail that ends a game, for one reader: what the master declared (if the master
/// ended it), how it ended (`sentence`), and its players, revealed to everyone unless the
/// game keeps them secret for ever (the master reads them then too).
pub fn game_over_text(
    g: &Game,
    declared: Option<&Declaration>,
    ending: &Ending,
    (master, players): (bool, bool),
) -> String {
    let sentence = super::results::ending_sentence(ending);
    let mut text = String::new();
    match declared {
        Some(Declaration::Winner(p)) => text.push_str(&declared_text(Some(*p), &[])),
        Some(Declaration::Draw(ps)) => text.push_str(&declared_text(None, ps)),
        None => {}
    }
    if declared.is_some() {
        text.push('\n');
    }
    text.push_str(&format!("{sentence}\n\nThe game '{}' is over.\n", g.name()));
    if g.players().is_empty() {
        return text;
    }
    if !players {
        return text;
    }
    if g.reveals() {
        text.push_str("\nThe players were:\n\n");
        text.push_str(&player_table(g));
    } else if master {
        text.push_str("\nThe players (for the master only: this game is never revealed):\n\n");
        text.push_str(&player_table(g));
    }
    text
}

/// What the master's `DECLARE` says before the ending's own sentence.
pub fn declared_text(winner: Option<Power>, draw: &[Power]) -> String {
    match winner {
        Some(p) => format!("The master has declared {p} the winner."),
        None => format!(
            "The master has declared the game drawn between {}.",
            list_powers(draw)
        ),
    }
}

/// The reply's echo of a draw vote: who the draw is among, and how long the vote stands.
pub fn draw_vote_echo(draw: &[Power]) -> String {
    format!(
        "SET DRAW (a draw among {}, the powers still in the game: it ends the game once each of them has voted for it; your vote stands until this phase is processed, or until you withdraw it with SET NODRAW)",
        list_powers(draw)
    )
}

/// Why a draw vote for `asked` is refused: draws include every power still in the game
/// (`draw`).
pub fn draw_refused(asked: &[Power], draw: &[Power]) -> String {
    format!(
        "draws in this game include every power still in it ({}): a draw among {} is not one; SET DRAW alone votes for the draw among them",
        list_powers(draw),
        list_powers(asked)
    )
}

/// The reply's echo of a concession: who must concede for it to end the game.
pub fn concede_echo(to: Power, others: &[Power]) -> String {
    if others.is_empty() {
        return format!(
            "SET CONCEDE {to} (your concession stands until this phase is processed, or until you withdraw it with SET NOCONCEDE)"
        );
    }
    format!(
        "SET CONCEDE {to} (the game is conceded to {to} once {} concede{} to {to}; your concession stands until this phase is processed, or until you withdraw it with SET NOCONCEDE)",
        list_powers(others),
        if others.len() == 1 { "s" } else { "" }
    )
}

/// The reply's echo of a withdrawal (`SET NODRAW`, `SET NOCONCEDE`).
fn withdrawn_echo(echo: &str, had: bool, what: &str) -> String {
    if had {
        format!("{echo} (your {what} is withdrawn)")
    } else {
        format!("{echo} (you had no {what} standing)")
    }
}

/// The notice to a voter whose vote no longer stands: the phase it was cast in (`phase`) was
/// processed, and perhaps the powers in the game changed too (`now`: who they are now).
pub fn votes_cleared_text(
    game: &str,
    phase: crate::rules::Phase,
    vote: &DrawVote,
    now: Option<&[Power]>,
) -> String {
    let (what, again) = match vote {
        DrawVote::Draw(ps) => (
            format!("Your vote for a draw among {}", list_powers(ps)),
            "SET DRAW",
        ),
        DrawVote::Concede(p) => (format!("Your concession to {p}"), "SET CONCEDE"),
    };
    let why = match now {
        Some(now) => format!(
            "{phase} was processed and the powers still in the game changed (now {})",
            list_powers(now)
        ),
        None => format!("{phase} was processed (votes last one phase)"),
    };
    format!(
        "{what} in '{game}' no longer stands: {why}. Vote again with {again} if you still want it.\n"
    )
}

/// The reply's echo of an absence, with its instants in the game's zone.
pub fn absence_echo(echo: &str, tz: &Tz, a: &Absence) -> String {
    format!(
        "{echo} (away from {} to {}: no deadline set from now on falls inside it)",
        when(tz, a.from),
        when(tz, a.to)
    )
}

/// The master's notice of an absence.
pub fn absence_notice(game: &str, tz: &Tz, a: &Absence) -> String {
    format!(
        "{} set an absence in '{game}' from {} to {}: no deadline set from now on falls inside it.\n",
        match a.who {
            Sender::Power(p) => p.name().to_string(),
            Sender::Master => "A master".to_string(),
        },
        when(tz, a.from),
        when(tz, a.to)
    )
}

/// The reply's echo of `SET NOABSENCE`: the absences cancelled.
pub fn noabsence_echo(date: Option<Date>, tz: &Tz, cancelled: &[Absence]) -> String {
    let echo = match date {
        Some(d) => format!("SET NOABSENCE {d}"),
        None => "SET NOABSENCE".to_string(),
    };
    let list: Vec<String> = cancelled
        .iter()
        .map(|a| format!("{} to {}", when(tz, a.from), when(tz, a.to)))
        .collect();
    format!("{echo} (cancelled: {})", list.join("; "))
}

/// The mail to an address the master invited: how to join with its code.
pub fn invitation_text(game: &str, judge_address: &str, code: &str) -> String {
    format!(
        "The master of the game '{game}' on the judge {judge_address} invites you to play in it.\nTo join, mail the judge a line like this one, with a password of your choice (at least 8 characters):\n\n  SIGNON ?{game} <your password> {code}\n\nThe code {code} is yours: it lets one player join, once. If you do not want to play, there is nothing to do.\n"
    )
}

/// The mail to a new co-master: its password, and how to change it.
pub fn promoted_text(game: &str, code: &str) -> String {
    format!(
        "The master of the game '{game}' has made this address a co-master of it: you may do everything the master does.\nSign on with\n\n  SIGNON M{game} {code}\n\nand choose a password of your own with SET PASSWORD (this one was made for you and sent by mail). If you did not expect this, tell the master of '{game}'.\n"
    )
}

/// The notice to everyone that the master took a game back to forming.
pub fn unstart_text(game: &str) -> String {
    format!(
        "The master has taken '{game}' back to forming, before its first phase was processed. Its seven players wait as joiners; when it starts again (at once, or at the start time the master sets with SET START) the powers are assigned again, each player's power so far being their first preference.\n"
    )
}

/// What `PROCESS` waits for, in words: the powers whose orders are missing, the powers that
/// wait (`SET WAIT`), and the rule set waiting for the master's decision.
pub fn not_ready_text(missing: &[Power], waiting: &[Power], master_decides: bool) -> String {
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("orders are missing from {}", list_powers(missing)));
    }
    if !waiting.is_empty() {
        parts.push(format!(
            "{} {} (SET WAIT)",
            list_powers(waiting),
            if waiting.len() == 1 { "waits" } else { "wait" }
        ));
    }
    if master_decides {
        parts.push("the rules wait for the master's decision".to_string());
    }
    if parts.is_empty() {
        parts.push("the phase is not ready".to_string());
    }
    parts.join("; ")
}

/// After a `SIGNON ?game`: how many have joined, and, when the game is full, when it
/// starts (`start`: the start its master set, if still to come).
pub fn joined(g: &Game, count: usize, start: Option<DateTime<Utc>>) -> Vec<String> {
    let wanted = g.players_wanted();
    let mut out = vec![format!(
        "{count} of {wanted} players have joined {}.",
        g.name()
    )];
    if count >= wanted {
        out.push(match start {
            Some(t) => format!(
                "{} is full: it starts at {}, the start its master set.",
                g.name(),
                when(&g.time_zone(), t)
            ),
            None => format!(
                "{} is full: it starts when this message has been read.",
                g.name()
            ),
        });
    }
    out
}

/// The reply to `SET PLAYERS n`: how many players the game now waits for, and how the
/// powers will be shared (njudge: "Number of Players for game 'dt' set to 4.").
pub fn players_set(g: &Game) -> String {
    let n = g.players_wanted();
    let joined = g.joiners().len();
    if !g.is_duplex() {
        return format!(
            "{} waits for {n} players, one a power; {joined} have joined.",
            g.name()
        );
    }
    format!(
        "{} is a duplex game for {n} players: each is given several of the {} powers by preference when the game starts; {joined} have joined.",
        g.name(),
        crate::map::Power::ALL.len()
    )
}

/// Minutes as hours the way the master writes them: `48`, `0.5`, `0.17`.
pub fn minutes_as_hours(minutes: i64) -> String {
    if minutes % 60 == 0 {
        return (minutes / 60).to_string();
    }
    let hundredths = (minutes * 100 + 30) / 60;
    let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A clock time as `hh:mm`.
pub fn clock_text(minutes: u16) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// `SET NODRAW`, saying whether a vote was withdrawn.
pub fn nodraw_echo(had: bool) -> String {
    withdrawn_echo("SET NODRAW", had, "draw vote")
}

/// `SET NOCONCEDE`, saying whether a concession was withdrawn.
pub fn noconcede_echo(had: bool) -> String {
    withdrawn_echo("SET NOCONCEDE", had, "concession")
}

/// Why `PROCESS` waits: the start the master set.
pub fn held_until(zone: &Tz, t: DateTime<Utc>) -> String {
    format!(
        "the master set its start: nothing is processed before {}",
        when(zone, t)
    )
}

/// After `SET GRACE`: when the grace period ends.
pub fn grace_set(g: &Game, end: DateTime<Utc>) -> String {
    format!(
        "The grace period of {} ends {}.",
        g.position().phase,
        when(&g.time_zone(), end)
    )
}

/// After `SET START` on a forming game.
pub fn start_set_forming(g: &Game, t: DateTime<Utc>) -> String {
    format!(
        "{} starts at {} if seven players have joined by then, else when the seventh joins.",
        g.name(),
        when(&g.time_zone(), t)
    )
}

/// The notice of `SET START` on a running game: nothing is processed before it.
pub fn start_set_notice(judge: &str, g: &Game, t: DateTime<Utc>) -> super::notices::Notice {
    let tz = g.time_zone();
    super::notices::Notice {
        subject: super::notices::subject(judge, g.name(), "Start set"),
        body: format!(
            "The master set the start of {}: nothing is processed before {}. The deadline is {}.\n",
            g.position().phase,
            when(&tz, t),
            g.deadline().map(|d| when(&tz, d)).unwrap_or_default()
        ),
    }
}

/// After `SET ZONE`: times are shown in the zone now, and the deadline in it.
pub fn zone_set(g: &Game) -> String {
    let tz = g.time_zone();
    let current = g
        .deadline()
        .map(|d| format!("; the deadline is {}", when(&tz, d)))
        .unwrap_or_default();
    format!(
        "Times in {} are now shown in {}{current}.",
        g.name(),
        tz.name()
    )
}

/// The echo of `SET JOIN PASSWORD` (the password itself is never shown).
pub const JOIN_PASSWORD_ECHO: &str = "SET JOIN PASSWORD (the join password is not shown)";

/// The subject of an invitation.
pub fn invitation_subject(judge: &str, game: &str) -> String {
    super::notices::subject(judge, game, "Invitation")
}

/// After `SET INVITE`: each address was mailed its code.
pub fn invited_line(g: &Game) -> String {
    format!(
        "Each address invited was mailed a code to join {} with ({} invited in all).",
        g.name(),
        g.settings().invitations.len()
    )
}

/// The subject of the mail to a new co-master.
pub fn promoted_subject(judge: &str, game: &str) -> String {
    super::notices::subject(judge, game, "You are a co-master")
}

/// After `PROMOTE address`.
pub fn promoted_line(address: &str, game: &str) -> String {
    format!("{address} is now a co-master of {game}: its password went to it by mail.")
}

/// The subject of the notice of `UNSTART`.
pub fn unstart_subject(judge: &str, game: &str) -> String {
    super::notices::subject(judge, game, "Back to forming")
}

/// After `SET MOVE|RETREAT|ADJUST`: what the class's deadlines keep from now on.
pub fn schedule_set_line(class: ScheduleClass, rule: &PhaseRule, tz: &Tz) -> String {
    let word = match class {
        ScheduleClass::Movement => "Movement",
        ScheduleClass::Retreat => "Retreat",
        ScheduleClass::Adjustment => "Adjustment",
    };
    format!(
        "{word} deadlines from the next one on: {} (hours, in {}).",
        schedule_text(rule),
        tz.name()
    )
}

/// After `SET ABSENCE`, when the deadline running now falls inside the absence.
pub fn absence_stands(g: &Game, d: DateTime<Utc>) -> String {
    format!(
        "The deadline of {} ({}) falls inside this absence and stands: an absence keeps out the deadlines set after it. Ask the master to move this one if you need to.",
        g.position().phase,
        when(&g.time_zone(), d)
    )
}

/// The subject of the master's notice of an absence.
pub fn absence_subject(judge: &str, game: &str) -> String {
    super::notices::subject(judge, game, "Absence")
}

/// After `SET NOABSENCE`, when the deadline comes back to the schedule: the reply's line
/// and everyone's notice.
pub fn deadline_back(
    judge: &str,
    g: &Game,
    back: DateTime<Utc>,
) -> (String, super::notices::Notice) {
    let at = when(&g.time_zone(), back);
    (
        format!(
            "The deadline of {} is back on the schedule: {at}.",
            g.position().phase
        ),
        super::notices::Notice {
            subject: super::notices::subject(judge, g.name(), "Deadline changed"),
            body: format!(
                "An absence was cancelled: the deadline of {} is back on the schedule, {at}.\n",
                g.position().phase
            ),
        },
    )
}

/// What dipjudge does instead of one of njudge's words (`SET FAKE`, `SET ACCESS`, `DIARY`,
/// …): the sentence after the `OK` of a word it already does as asked, or of its refusal.
pub fn njudge_word(w: NjudgeWord) -> String {
    use NjudgeWord as W;
    let text = match w {
        W::AutoStart => {
            "a game starts as soon as it has its players (the master may start it sooner with FORCE BEGIN)"
        }
        W::ManualStart => {
            "a game starts as soon as it has its players; the master may start it sooner with FORCE BEGIN and set its first deadline with SET DEADLINE"
        }
        W::Assignment(Assignment::Both) | W::Assignment(Assignment::List) => {
            "powers are given by the players' SET PREFERENCE lists, and at random to those who sent none"
        }
        W::Assignment(Assignment::Random) => {
            "powers are given by the players' SET PREFERENCE lists, and at random to those who sent none; a player who wants any power sends SET PREFERENCE *"
        }
        W::AutoProcess => {
            "a phase is processed at its deadline, or sooner once every order is in and no player has SET WAIT"
        }
        W::ManualProcess => {
            "a phase is processed at its deadline, or sooner once every order is in; the master holds a game with PAUSE and processes it at once with PROCESS"
        }
        W::AutoCreate => "a game is made by CREATE ?name password; none is made by itself",
        W::NoResume => "only the master may RESUME a game",
        W::StrictGrace => {
            "the grace period is the schedule's GRACE hours after the deadline (SET MOVE GRACE hours), and SET GRACE date ends it at a date"
        }
        W::StrictWait => "any player with a seat may SET WAIT",
        W::Access | W::AllowPlayer | W::DenyPlayer => {
            "who may join is chosen with SET PRIVATE and SET INVITE address or SET JOIN PASSWORD word; EJECT removes a player; there are no sites"
        }
        W::Approved => "a game needs no approval from the judge's keeper to start",
        W::Level => {
            "entry is gated by the records this judge keeps: SET DEDICATION, SET ONTIMERAT and SET RESRAT"
        }
        W::Rated(true) => "every game counts in its players' records (on time, resignations)",
        W::Rated(false) => {
            "every game counts in its players' records (on time, resignations); none is left out"
        }
        W::Unmoderated => "every game keeps its master, who may PROMOTE a co-master",
        W::Moderated => {
            "every game has a master: the player who created it, and the co-masters it PROMOTEs"
        }
        W::MinorPress(true) => {
            "press may be sent in every phase, retreats and adjustments included"
        }
        W::MinorPress(false) => {
            "press may be sent in every phase, retreats and adjustments included; SET NO PRESS stops it in all of them"
        }
        W::BlankPress(false) => "a press block with no text is not sent",
        W::BlankPress(true) => "a press block with no text is never sent",
        W::Fake(false) => "press is never faked: a message shows its true sender, or none (grey)",
        W::Fake(true) => {
            "press is never faked: a message shows its true sender, or none (grey press, SET GREY or SET WHITE/GREY)"
        }
        W::GracePress(true) => "press may be sent in the grace period as before the deadline",
        W::GracePress(false) => {
            "press may be sent in the grace period as before the deadline; SET NO PRESS stops all press"
        }
        W::LatePress(true) => "a late player may send press as any other",
        W::LatePress(false) => {
            "a late player may send press as any other; SET NO PRESS stops all press"
        }
        W::MustOrder => {
            "a power whose units have no orders at the deadline is late; SET NMR decides whether the game waits for it"
        }
        W::PostalPress(false) => {
            "press is delivered at once, not held until the phase is processed"
        }
        W::PostalPress(true) => {
            "press is delivered at once; it is not held until the phase is processed"
        }
        W::TouchPress => {
            "press may go to any power the game's press settings allow, whatever their units touch"
        }
        W::WatchAllPress(false) => {
            "observers never read press between powers; SET ALL PRESS is the master's alone"
        }
        W::WatchAllPress(true) => {
            "observers never read press between powers; SET ALL PRESS is the master's alone"
        }
        W::Concessions(true) => "a player may SET CONCEDE power",
        W::Concessions(false) => {
            "a player may always SET CONCEDE power; the master may DECLARE the result instead"
        }
        W::Dias(false) => {
            "a draw vote names the powers in the draw (SET DRAW powers): a draw need not include every survivor"
        }
        W::Dias(true) => {
            "a draw vote names the powers in the draw (SET DRAW powers, or SET DRAW for every survivor); a game does not require every survivor in it"
        }
        W::LateCount(false) => "late notices name the late powers without a count",
        W::LateCount(true) => {
            "late notices name the late powers without a count; a player's record (WHOIS) keeps how often they were late"
        }
        W::Secret => {
            "a game's players are hidden with SET ANONYMOUS and the game is kept out of LIST with SET PRIVATE"
        }
        W::Show(_) => {
            "there is no SHOW setting: whether players' addresses are shown is SET ADDRESSES SHOWN or HIDDEN"
        }
        W::Proxy => "a power orders its own units only; there are no proxy orders",
        W::StrictConvoy => {
            "convoys are adjudicated by the rules as written (DATC); there is no stricter mode"
        }
        W::Gunboat => {
            "a gunboat game is SET ANONYMOUS with SET NO PRESS (or CREATE ?name password standard gunboat)"
        }
        W::BoardOption(_) => {
            "a board's options come with the board its game is played on, not with SET; this game's board has none to change"
        }
        W::SignonNext => {
            "name the game to join: LIST shows the games forming, and SIGNON ?name password joins one"
        }
        W::Diary => {
            "this judge keeps no diary: HISTORY sends the game's record, and PRESS TO M a note to the master"
        }
        W::File => {
            "this judge keeps no files to send: HELP sends the commands; LIST, HISTORY and SUMMARY a game's record"
        }
        W::MapPasted => "the judge draws the maps of its own games only: MAP game [phase]",
        W::BecomeMaster => {
            "a game's master is the player who created it; the master may PROMOTE an observer to co-master"
        }
        W::Broadcast(true) => "an observer reads the broadcasts the game's SET WATCH allows",
        W::Broadcast(false) => {
            "an observer reads the broadcasts the game's SET WATCH allows; UNOBSERVE game stops all of the game's mail"
        }
        W::TwoAddresses => {
            "a seat has one address (SET ADDRESS address); I AM ALSO address makes another address yours"
        }
        W::ConcedeWhom => "a concession names the power it goes to: SET CONCEDE power",
        W::LaterPhase => {
            "orders are taken for the current phase only; send the orders for a later phase once it opens"
        }
    };
    format!("{}: {text}.", w.render())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_and_clocks_as_the_master_writes_them() {
        assert_eq!(minutes_as_hours(2880), "48");
        assert_eq!(minutes_as_hours(30), "0.5");
        assert_eq!(minutes_as_hours(10), "0.17");
        assert_eq!(clock_text(20 * 60), "20:00");
        assert_eq!(clock_text(9 * 60 + 5), "09:05");
    }
}
