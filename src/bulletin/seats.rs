//! What people read when a seat changes hands (issue 27): the notices of a resignation, an
//! ejection, an abandonment and a takeover, the welcome a newcomer gets, the master's
//! notices (a takeover to approve, a seat whose mail bounces), the marks `LIST` shows, the
//! tenures `SUMMARY` lists, and the sentences of a refused seat command.
//!
//! Pure: the judge decides who is told what ([`crate::game`]'s seat life cycle) and passes
//! the values in, deadlines already written in the game's time zone.

use std::fmt;

use crate::game::{
    Abandonment, Game, ObserverLevel, Player, PressLevel, PressPolicy, SeatRefusal, SeatStatus,
    Status, Tenure,
};
use crate::map::{Map, Power};
use crate::rules::{Owner, Phase, PowerOrder};

/// `DIP:game - <what>`.
fn subject(judge: &str, game: &str, what: &str) -> String {
    format!("{judge}:{game} - {what}")
}

/// How a new player takes `power` of `game` over.
fn how_to_take(game: &Game, power: Power) -> String {
    let approval = if game.settings().approval {
        " The master approves each takeover."
    } else {
        ""
    };
    format!(
        "A new player takes it over with SIGNON {}{} <password> (or TAKEOVER {power} {} <password>).{approval}",
        power.initial(),
        game.name(),
        game.name()
    )
}

/// The subject of the notice of an abandoned seat.
pub fn abandoned_subject(judge: &str, game: &str, power: Power, why: Abandonment) -> String {
    let what = match why {
        Abandonment::Resigned => "resigned",
        Abandonment::Ejected => "ejected",
        Abandonment::MissedPhases(_) | Abandonment::Late => "abandoned",
    };
    subject(judge, game, &format!("{power} {what}"))
}

/// What happened to the seat, in one sentence.
fn abandoned_sentence(game: &str, power: Power, why: Abandonment) -> String {
    match why {
        Abandonment::Resigned => format!("The player of {power} has resigned from '{game}'."),
        Abandonment::Ejected => {
            format!("The master has ejected the player of {power} from '{game}'.")
        }
        Abandonment::MissedPhases(n) => format!(
            "The player of {power} has missed {n} phase{} in a row in '{game}', as many as the game allows: the seat is abandoned.",
            if n == 1 { "" } else { "s" }
        ),
        Abandonment::Late => format!(
            "The orders of {power} were still missing at the end of grace in '{game}', which does not process missing orders (NONMR): the seat is abandoned."
        ),
    }
}

/// The notice everyone who follows the game reads when a seat is abandoned (and the
/// master, with the address that played it).
pub fn abandoned_notice(
    game: &Game,
    power: Power,
    why: Abandonment,
    master: Option<&str>,
) -> String {
    let state = if game.settings().nmr {
        format!(
            "{power} is in civil disorder and open for takeover: its units hold, it builds nothing, and the phases do not wait for it."
        )
    } else {
        format!(
            "{power} is in civil disorder and open for takeover; this game waits for a replacement at the deadline (NONMR)."
        )
    };
    let mut s = format!(
        "{}\n{state}\n{}\n",
        abandoned_sentence(game.name(), power, why),
        how_to_take(game, power)
    );
    if let Some(address) = master {
        s.push_str(&format!("(For the master: its player was {address}.)\n"));
    }
    s
}

/// The one line the player who left reads (in the reply to their RESIGN, or in a mail).
pub fn left_line(game: &Game, power: Power, why: Abandonment) -> String {
    let g = &game.name();
    let back = format!(
        "To play it again, take it over like anyone else: SIGNON {}{g} <new password>.",
        power.initial()
    );
    match why {
        Abandonment::Resigned => format!(
            "You no longer play {power} in '{g}': the power is in civil disorder and open for takeover, and your address and password no longer act for it."
        ),
        Abandonment::Ejected => format!(
            "The master of '{g}' has ejected you from {power}: your address and password no longer act for it."
        ),
        Abandonment::MissedPhases(n) => format!(
            "You missed {n} phase{} of {power} in a row in '{g}', as many as the game allows: the power is in civil disorder and open for takeover. {back}",
            if n == 1 { "" } else { "s" }
        ),
        Abandonment::Late => format!(
            "Your orders for {power} in '{g}' were still missing at the end of grace, and this game does not process missing orders (NONMR): the power is abandoned and open for takeover. {back}"
        ),
    }
}

/// The subject of the mail to a player who was ejected or dropped out.
pub fn left_subject(judge: &str, game: &str, power: Power) -> String {
    subject(judge, game, &format!("You no longer play {power}"))
}

/// The subject of the notice of a takeover.
pub fn taken_over_subject(judge: &str, game: &str, power: Power) -> String {
    subject(judge, game, &format!("{power} taken over"))
}

/// The notice of a takeover: `<Power> has been taken over.`, and the deadline if it moved
/// for the newcomer; the master's copy names the new player's address.
pub fn taken_over_notice(
    power: Power,
    phase: Phase,
    deadline: Option<&str>,
    waits: bool,
    master: Option<&str>,
) -> String {
    let mut s = format!("{power} has been taken over.\n");
    if let Some(d) = deadline {
        s.push_str(&format!(
            "The deadline of {phase} moves to {d}, to give the new player time.\n"
        ));
    }
    if waits {
        s.push_str(WAITS_PLACED);
    }
    if let Some(address) = master {
        s.push_str(&format!("(For the master: the new player is {address}.)\n"));
    }
    s
}

/// What the players read after a takeover in a running game (njudge's "a wait has been
/// placed for all active players").
pub const WAITS_PLACED: &str = "A wait has been placed on every player, as after any takeover: the phase is not processed before its deadline unless each sends SET NOWAIT.\n";

/// The subject of the notice that the deadline moved (a quiet game's players read it
/// without the takeover that moved it).
pub fn deadline_moved_subject(judge: &str, game: &str) -> String {
    subject(judge, game, "Deadline moved")
}

/// The notice that the deadline moved, for the players of a quiet game.
pub fn deadline_moved_notice(phase: Phase, deadline: &str) -> String {
    format!("The deadline of {phase} moves to {deadline}.\n")
}

/// The one mail the previous player of a power taken over reads.
pub fn replaced_notice(game: &str, power: Power) -> String {
    format!(
        "{power} in '{game}' has been taken over by a new player. This address and the password you had no longer act for it.\n"
    )
}

/// The subject of the newcomer's welcome.
pub fn welcome_subject(judge: &str, game: &str, power: Power) -> String {
    subject(judge, game, &format!("Welcome to {power}"))
}

/// The game's press in words (`LIST game`, the welcome): the level, whether partial press is
/// allowed, and what becomes of missing orders.
pub fn press_words(policy: &PressPolicy, nmr: bool) -> String {
    let press = match policy.level {
        PressLevel::None => "none",
        PressLevel::White => "white (signed)",
        PressLevel::Grey => "grey (anonymous)",
        PressLevel::WhiteGrey => "white and grey",
        PressLevel::GreyWhite => "grey and white",
    };
    format!(
        "Press: {press}{}   Missed deadlines: {}",
        if policy.partial {
            ", partial allowed"
        } else {
            ", no partial"
        },
        if nmr {
            "processed (NMR)"
        } else {
            "wait (NONMR)"
        }
    )
}

/// What the welcome tells a newcomer, beyond the game: the deadline as written, the last
/// results as the newcomer's power would have read them (None before any), and the orders
/// standing for the power.
pub struct Welcome<'a> {
    pub deadline: Option<&'a str>,
    /// The deadline moved for the newcomer.
    pub moved: bool,
    /// A wait was placed on every player, the newcomer too ([`WAITS_PLACED`]).
    pub waits: bool,
    pub last_results: Option<(&'a str, &'a str)>,
    pub standing: &'a [PowerOrder],
}

/// The newcomer's welcome: the seat, how to sign on, the deadline, the press settings, the
/// last results, the board now and the orders standing for the power.
pub fn welcome(map: &Map, game: &Game, power: Power, w: &Welcome<'_>) -> String {
    let g = &game.name();
    let phase = game.position().phase;
    let mut s = format!("Welcome to '{g}': you now play {power}.\n\n");
    s.push_str(&format!(
        "Sign on with SIGNON {}{g} and the password you chose; your orders, press and settings work as any player's. Send HELP for the commands.\n",
        power.initial()
    ));
    s.push_str(&format!("The current phase is {phase}."));
    if let Some(d) = w.deadline {
        s.push_str(&format!(" The deadline for orders is {d}"));
        s.push_str(if w.moved {
            " (moved to give you time).\n"
        } else {
            ".\n"
        });
    } else {
        s.push('\n');
    }
    if w.waits {
        s.push_str("A wait is set for you, as for every player after a takeover: send SET NOWAIT once your orders are in.\n");
    }
    s.push_str(&format!(
        "{}   Observers: {}\n",
        press_words(&game.settings().press, game.settings().nmr),
        match game.settings().press.watch {
            ObserverLevel::Any => "any",
            ObserverLevel::White => "white press only",
            ObserverLevel::None => "none",
        }
    ));
    if let Some((subject, body)) = w.last_results {
        s.push_str(&format!("\nThe last results ({subject}):\n\n{body}"));
        if !body.ends_with('\n') {
            s.push('\n');
        }
    }
    s.push_str("\nThe board now:\n\n");
    s.push_str(&board(map, game));
    s.push_str(&welcome_standing(map, power, w.standing));
    s
}

/// The welcome's last part: the orders standing for the power (as they stand once the mail
/// that took it over was read: a newcomer may order in it).
pub fn welcome_standing(map: &Map, power: Power, standing: &[PowerOrder]) -> String {
    let mut s = format!("{}\n", welcome_standing_heading(power));
    if standing.is_empty() {
        s.push_str("  none yet: units without orders hold.\n");
    }
    // In the reply's order: by province.
    let mut standing: Vec<&PowerOrder> = standing.iter().collect();
    standing.sort_by_key(|o| o.order.unit().map(|u| u.province()));
    for o in standing {
        s.push_str(&format!("  {}\n", o.order.display(map)));
    }
    s
}

/// The line that opens the welcome's standing orders (after an empty line).
pub fn welcome_standing_heading(power: Power) -> String {
    format!("\nOrders standing for {power}:")
}

/// Every power's supply centres and units, one line each (what anyone may know).
fn board(map: &Map, game: &Game) -> String {
    let pos = game.position();
    let mut s = String::new();
    for p in Power::ALL {
        let mut centres: Vec<String> = map
            .supply_centres()
            .filter(|c| pos.owner_of(*c) == Some(p))
            .map(|c| map.province(c).name.clone())
            .collect();
        centres.sort();
        let units: Vec<String> = pos
            .units
            .iter()
            .filter(|u| u.owner == Owner::Power(p))
            .map(|u| u.display(map))
            .collect();
        if centres.is_empty() && units.is_empty() {
            continue;
        }
        s.push_str(&format!(
            "{:<9} {} centre{}{}{}; units: {}\n",
            format!("{p}:"),
            centres.len(),
            if centres.len() == 1 { "" } else { "s" },
            if centres.is_empty() { "" } else { ": " },
            centres.join(", "),
            if units.is_empty() {
                "none".to_string()
            } else {
                units.join(", ")
            }
        ));
    }
    s
}

/// The subject of the master's notice of a takeover waiting for approval.
pub fn claim_subject(judge: &str, game: &str, power: Power) -> String {
    subject(judge, game, &format!("Takeover of {power}"))
}

/// The master's notice of a takeover waiting for approval.
pub fn claim_notice(game: &str, power: Power, address: &str) -> String {
    format!(
        "{address} asks to take over {power} in '{game}'.\nSigned on as the master, answer with APPROVE {power} or REJECT {power}. Until then the power stays in civil disorder.\n"
    )
}

/// What the reply to a takeover waiting for approval says.
pub fn claim_waits(game: &str, power: Power) -> String {
    format!(
        "{power} is open for takeover, and the master of '{game}' approves each takeover: your takeover waits for the master's answer, and you will be told. This mail is not signed on as {power}."
    )
}

/// The subject of the answer to a takeover the master rejected.
pub fn rejected_subject(judge: &str, game: &str, power: Power) -> String {
    subject(judge, game, &format!("Takeover of {power} not approved"))
}

/// The answer to a takeover the master rejected.
pub fn rejected_notice(game: &str, power: Power) -> String {
    format!(
        "The master of '{game}' did not approve your takeover of {power}. You do not play in '{game}'.\n"
    )
}

/// The subject of the mail to an observer the master ejected.
pub fn subscription_ended_subject(judge: &str, game: &str) -> String {
    subject(judge, game, "Subscription ended")
}

/// The mail to an observer the master ejected.
pub fn subscription_ended(game: &str) -> String {
    format!(
        "The master of '{game}' has ended this address's subscription: it will receive nothing more of '{game}'.\n"
    )
}

/// The subject of the master's notice of a seat whose mail bounces.
pub fn bouncing_subject(judge: &str, game: &str, power: Power) -> String {
    subject(judge, game, &format!("Mail to {power} bouncing"))
}

/// The master's notice of a seat whose mail bounces (told once).
pub fn bouncing_notice(game: &str, power: Power, address: &str, reason: &str) -> String {
    format!(
        "Mail to {power}'s address in '{game}' ({address}) cannot be delivered:\n  {}\nThe seat is marked \"mail bouncing\" (LIST {game} shows it) until a mail from its player clears the mark. Its player may not be reading the game's mail: you may want to reach them another way, or EJECT {power} to open the power for takeover.\n",
        reason.split_whitespace().collect::<Vec<_>>().join(" ")
    )
}

/// What `LIST` adds to a game with open positions.
pub fn open_positions(powers: &[Power]) -> String {
    format!(
        "waiting for replacements: {}",
        crate::variant::list_powers(powers)
    )
}

/// The marks `LIST game` shows after a player's line. A seat whose mail bounces is marked
/// for the game's master (`master`) alone: to anyone else the mark would tell who plays
/// at an address a delivery report names.
pub fn seat_marks(pl: &Player, master: bool) -> Vec<String> {
    let mut marks = Vec::new();
    match pl.status {
        SeatStatus::Playing => {}
        SeatStatus::Dummy => marks.push("dummy; open for takeover".to_string()),
        SeatStatus::Abandoned(why) => marks.push(format!(
            "abandoned: {}; open for takeover",
            match why {
                Abandonment::Resigned => "resigned".to_string(),
                Abandonment::Ejected => "ejected".to_string(),
                Abandonment::MissedPhases(n) => format!("missed {n} in a row"),
                Abandonment::Late => "late in a NONMR game".to_string(),
            }
        )),
    }
    if pl.claim.is_some() {
        marks.push("takeover waiting for the master".to_string());
    }
    if master && pl.bouncing.is_some() {
        marks.push("mail bouncing".to_string());
    }
    if pl.wait {
        marks.push("waiting".to_string());
    }
    marks
}

/// How the power of a dummy seat shows in the game's starting mail.
pub fn dummy_in_start() -> &'static str {
    "(nobody: a dummy, in civil disorder and open for takeover)"
}

/// `SUMMARY`'s list of who played which power from which phase to which, with the phases
/// each player missed; `addresses` false leaves the addresses out (an anonymous game).
pub fn tenures(game: &Game, addresses: bool) -> String {
    if game.tenures().is_empty() {
        return String::new();
    }
    let finished = matches!(game.status(), Status::Finished(_));
    let mut s = String::from("Players:\n");
    for p in Power::ALL {
        for t in game.tenures().iter().filter(|t| t.power == p) {
            s.push_str(&tenure_line(t, addresses, finished));
        }
        if game
            .player(p)
            .is_some_and(|pl| pl.status == SeatStatus::Dummy)
            && !game.tenures().iter().any(|t| t.power == p)
        {
            s.push_str(&format!("  {:<8} nobody (a dummy)\n", p.name()));
        }
    }
    s
}

/// Why a player left a seat, in a word or a few (`resigned`, `ejected`, …).
pub fn left_words(why: Abandonment) -> String {
    match why {
        Abandonment::Resigned => "resigned".to_string(),
        Abandonment::Ejected => "ejected".to_string(),
        Abandonment::MissedPhases(n) => format!("abandoned after missing {n} in a row"),
        Abandonment::Late => "abandoned, late in a NONMR game".to_string(),
    }
}

fn tenure_line(t: &Tenure, addresses: bool, finished: bool) -> String {
    let who = if addresses {
        t.address.as_str()
    } else {
        "someone"
    };
    let to = match (t.to, t.ended) {
        (Some(to), Some(why)) => format!("to {to} ({})", left_words(why)),
        _ if finished => "to the end".to_string(),
        _ => "(playing)".to_string(),
    };
    let missed = match t.missed {
        0 => String::new(),
        1 => ", missed 1 phase".to_string(),
        n => format!(", missed {n} phases"),
    };
    format!(
        "  {:<8} {who}: from {} {to}{missed}\n",
        t.power.name(),
        t.from
    )
}

impl fmt::Display for SeatRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatRefusal::NotOpen { power, game } => write!(
                f,
                "{power} is played in {game}: only a power its player left (abandoned) or nobody plays (a dummy) can be taken over"
            ),
            SeatRefusal::AlreadyPlays { power, game } => {
                write!(f, "this address already plays {power} in {game}")
            }
            SeatRefusal::Ejected { power, game } => write!(
                f,
                "the master of {game} ejected this address from {power}: it may not take the power back"
            ),
            SeatRefusal::ClaimPending { power, game } => write!(
                f,
                "a takeover of {power} in {game} already waits for the master's answer"
            ),
            SeatRefusal::NoClaim { power, game } => {
                write!(f, "no takeover of {power} in {game} waits for an answer")
            }
            SeatRefusal::NobodyPlays { power, game } => write!(
                f,
                "nobody plays {power} in {game} now: a new player takes it over with SIGNON {}{game} <password>, which sets its address and password",
                power.initial()
            ),
            SeatRefusal::NothingToEject { power, game } => {
                write!(
                    f,
                    "nobody plays {power} in {game}: there is nobody to eject"
                )
            }
            SeatRefusal::UnknownAddress { address, game } => {
                write!(f, "{address} is neither a player nor an observer of {game}")
            }
            SeatRefusal::CannotBegin { game, .. } => write!(
                f,
                "nobody has joined {game} yet: FORCE BEGIN starts a forming game with the players who joined"
            ),
            SeatRefusal::AlreadyBegun { game } => {
                write!(
                    f,
                    "{game} has already begun: FORCE BEGIN starts a forming game"
                )
            }
            SeatRefusal::NotRunning { game } => {
                write!(f, "{game} is not running: no seat changes hands")
            }
        }
    }
}

/// The mail to a player who left a seat: their line, as a mail of its own.
pub fn left_mail(game: &Game, power: Power, why: Abandonment) -> String {
    format!("{}\n", left_line(game, power, why))
}

/// `EJECT address` of an observer: the answer's line.
pub fn observer_ejected(address: &str, game: &str) -> String {
    format!("{address} no longer observes {game}.")
}

/// `FORCE BEGIN`: the answer's line, with the dummies (`open`).
pub fn force_begun(game: &str, open: &[Power]) -> String {
    format!(
        "{game} starts now with {} players; {} open for takeover (see the announcement).",
        Power::ALL.len().saturating_sub(open.len()),
        if open.is_empty() {
            "no power is".to_string()
        } else {
            format!("{} (dummies) are", crate::variant::list_powers(open))
        }
    )
}

/// `APPROVE power`: the answer's line.
pub fn approved(address: &str, power: Power) -> String {
    format!("{address} now plays {power}.")
}

/// `REJECT power`: the answer's line.
pub fn rejected(address: &str, power: Power) -> String {
    format!("{address} is told; {power} stays open for takeover.")
}

/// How a takeover by `SIGNON <initial><game>` is echoed.
pub fn takeover_signon_echo(power: Power, game: &str) -> String {
    format!("SIGNON {}{game}", power.initial())
}

/// How `TAKEOVER power game password` is echoed (without the password).
pub fn takeover_echo(power: Power, game: &str) -> String {
    format!("TAKEOVER {power} {game}")
}

/// The answer to a takeover that waits for the master's approval.
pub fn takeover_waits(echo: &str) -> String {
    format!("{echo} (waits for the master's approval)")
}

/// The answer to a takeover made at once.
pub fn taken_over(echo: &str, power: Power) -> String {
    format!("{echo} (you now play {power}: a welcome mail with the game's state follows)")
}

/// The line after a duplex takeover: the other powers the same player left, taken over
/// with `power` (njudge: "takes over other country too"), each with its welcome.
pub fn taken_over_with(power: Power, with: &[Power]) -> String {
    format!(
        "With {power} you take over {}, which its last player left with it: one password signs on to each of them; a welcome mail for each follows.",
        crate::variant::list_powers(with)
    )
}

/// The subject of the copy a power's player gets when the master acts as the power
/// (`BECOME power`).
pub fn became_subject(judge: &str, game: &str, power: Power) -> String {
    subject(judge, game, &format!("The master acted as {power}"))
}

/// The copy's text: what the master did as the power, as the master's reply shows it.
pub fn became_text(game: &str, power: Power, reply: &str) -> String {
    format!(
        "The master of {game} acted as {power} (BECOME {power}); these are the lines the master sent as {power}, as the judge answered them:\n\n{reply}"
    )
}
