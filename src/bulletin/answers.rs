//! The judge's own words in a reply: the subject of a reply (and of its copy, and of a
//! reply asking for a confirmation), the echo after `OK` of a command the judge completes
//! with a remark, the lines it adds after a command, its notes on the mail as a whole, and
//! the request to confirm an address.
//!
//! The verdict on each line (`OK`, `ERROR`, `WARNING`) is laid out by [`super::reply`]; what
//! a command did is decided by the judge, which passes it here as values. Pure.

use crate::command::Date;
use crate::map::Power;
use crate::variant::list_powers;

/// The subject of the reply to a mail with `subject`: `Re:` it once, or `<judge> reply`.
pub fn reply_subject(judge: &str, subject: &str) -> String {
    if subject.trim().is_empty() {
        format!("{judge} reply")
    } else if subject.to_ascii_lowercase().starts_with("re:") {
        subject.to_string()
    } else {
        format!("Re: {subject}")
    }
}

/// The subject of the copy of a reply to a seat's registered address, when the mail signed
/// on from `from`.
pub fn signon_copy_subject(reply_subject: &str, from: &str) -> String {
    format!("{reply_subject} (copy: signed on from {from})")
}

/// The subject of a reply that asks its address to confirm: it carries the code, so that a
/// reply to it answers.
pub fn confirmation_subject(judge: &str, code: &str) -> String {
    format!("{judge} confirmation {code}")
}

/// A reply that asks its address to confirm: `body`, then the request to confirm
/// `requests` (each as the judge writes the command) with `code` within `hours`.
pub fn confirmation_reply(body: &str, code: &str, requests: &[String], hours: i64) -> String {
    let mut out = body.to_string();
    for l in confirmation_request(code, requests, hours) {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// The lines that end a reply asking an address to confirm `requests` (each as the judge
/// writes the command) with `code`, within `hours`.
fn confirmation_request(code: &str, requests: &[String], hours: i64) -> Vec<String> {
    let mut out = vec![
        String::new(),
        "CONFIRMATION NEEDED. This address has not shown yet that it wants what this mail asks for:"
            .to_string(),
    ];
    out.extend(requests.iter().map(|r| format!("  {r}")));
    out.push(format!(
        "Nothing changes until it does: anyone can write any address on a mail. To confirm, reply to this mail keeping its subject (it holds the code {code}), or send a mail with the line"
    ));
    out.push(format!("  CONFIRM {code}"));
    out.push(format!(
        "within {hours} hours. If you did not ask for this, ignore this mail: nothing changes, and this address gets no other confirmation for {hours} hours."
    ));
    out
}

/// A signed-on mail whose settings wait for a confirmation sent less than a day ago: the
/// reply says so after `body`.
pub fn confirmation_pending(body: &str) -> String {
    format!(
        "{body}\nA confirmation went to this address less than a day ago and waits for its answer: the settings this mail asks for were not made (ask again once the address is confirmed).\n"
    )
}

/// `body` cut to at most `cap` bytes, at the end of a line, with a line saying so: the
/// reply to a mail that has not signed on, from an address that has not proved itself.
pub fn cap_unproven_reply(body: String, cap: usize) -> String {
    if body.len() <= cap {
        return body;
    }
    let (mut kept, cut) = keep_lines(&body, cap);
    kept.push_str(&format!(
        "... {cut} more lines of this reply were not sent: a mail that has not signed on gets a short reply (sign on, or confirm this address with OBSERVE, for the rest).\n"
    ));
    kept
}

/// The whole lines of `body` that fit in `cap` bytes, from its start, and how many lines
/// were left out after them (the reply caps of [`cap_unproven_reply`] and
/// `proof::cap_reply`).
pub(crate) fn keep_lines(body: &str, cap: usize) -> (String, usize) {
    let mut kept = String::new();
    let mut cut = 0;
    for line in body.split_inclusive('\n') {
        if cut == 0 && kept.len() + line.len() <= cap {
            kept.push_str(line);
        } else {
            cut += 1;
        }
    }
    (kept, cut)
}

/// An accepted line as a reply line of its own (`OK <echo>`): the answer to a confirmation
/// carried in a mail's subject.
pub fn ok_line(echo: &str) -> String {
    format!("OK {echo}")
}

/// A refused line as a reply line of its own (`ERROR <code>: <sentence>`).
pub fn error_line(code: &str, sentence: &str) -> String {
    format!("ERROR {code}: {sentence}")
}

/// What became of a request a confirmation carried out, under the `CONFIRM` it waited for:
/// `  OK <echo>`.
pub fn confirmed_ok(echo: &str) -> String {
    format!("  OK {echo}")
}

/// A line after a request's `  OK` under the `CONFIRM` it waited for (an observer's
/// password), indented with it.
pub fn confirmed_more(line: &str) -> String {
    format!("    {line}")
}

/// A request a confirmation could not carry out, under the `CONFIRM` it waited for:
/// `  ERROR <code>: <request>: <sentence>`.
pub fn confirmed_error(code: &str, request: &str, sentence: &str) -> String {
    format!("  ERROR {code}: {request}: {sentence}")
}

/// Notes on the mail as a whole.
pub mod notes {
    /// The mail held no command.
    pub const NO_COMMANDS: &str =
        "No commands found in your message. Send HELP for the list of commands.";

    /// The mail reuses the Message-ID of an earlier mail of its sender with other content.
    pub const REUSED_ID: &str = "NOTE: an earlier mail from you had this mail's Message-ID but other content; this one was read as a new mail.";

    /// A mail that has not signed on is answered for its first `answered` lines; `left`
    /// command lines were not read.
    pub fn unsigned_stop(answered: usize, left: usize) -> String {
        format!(
            "This mail has not signed on: the judge answered its first {answered} lines and did not read the {left} command lines after them. Sign on first (SIGNON) to send more."
        )
    }

    /// Too many lines could not be read: the judge stopped at `line`, `left` command lines
    /// were not read.
    pub fn too_many_errors(line: usize, left: usize) -> String {
        format!(
            "Too many lines could not be read; the judge stopped at line {line} and ignored the {left} command lines after it."
        )
    }

    /// The mail was longer than the judge reads: it read every line before line `unread`.
    pub fn size_capped(unread: usize) -> String {
        if unread == 1 {
            "NOTE: your message was longer than this judge reads, and its first line alone is longer than that: nothing of it was read or done.".to_string()
        } else {
            format!(
                "NOTE: your message was longer than this judge reads: it read lines 1 to {} and stopped before line {unread}, of which nothing was read or done.",
                unread - 1
            )
        }
    }

    /// The forming game filled up with this mail and starts.
    pub fn game_starts(game: &str) -> String {
        format!("{game} starts now; the powers are assigned (see the announcement).")
    }
}

/// `VERSION`.
pub fn version() -> String {
    format!("VERSION: dipjudge {}", env!("CARGO_PKG_VERSION"))
}

/// `LIST game`.
pub fn list(game: &str) -> String {
    format!("LIST {game}")
}

/// `LIST PAGE n`, `LIST FULL PAGE n` (`full`).
pub fn list_page(page: u64, full: bool) -> String {
    if full {
        format!("LIST FULL PAGE {page}")
    } else {
        format!("LIST PAGE {page}")
    }
}

/// `SUMMARY game`, with or without the centre chart attached.
pub fn summary(game: &str, chart: bool) -> String {
    if chart {
        format!("SUMMARY {game} (the centre chart is attached)")
    } else {
        format!("SUMMARY {game}")
    }
}

/// `EXPORT game`: the record goes as an attachment.
pub fn export(game: &str) -> String {
    format!(
        "EXPORT {game} (the game's record is attached as JSON: {})",
        super::pictures::export_name(game)
    )
}

/// `HISTORY game` with the window asked for (`FROM … TO … LINES …`, `EXCLSTART …`), as
/// the command reads it back.
pub fn history(cmd: &crate::command::PlayerCommand) -> String {
    cmd.render()
}

/// `MAP game phase`: the picture is attached.
pub fn map(game: &str, phase: &str) -> String {
    format!("MAP {game} {phase} (the picture is attached)")
}

/// `MAP game ALL`: the animation is attached.
pub fn map_all(game: &str) -> String {
    format!("MAP {game} ALL (an animation of its phases is attached)")
}

/// `SET PASSWORD`, the password not shown.
pub const SET_PASSWORD: &str = "SET PASSWORD (the new password is not shown)";

/// `SET ADDRESS address`.
pub fn set_address(address: &str) -> String {
    format!("SET ADDRESS {address}")
}

/// `SET WAIT` or `SET NOWAIT`.
pub fn set_wait(wait: bool) -> &'static str {
    if wait { "SET WAIT" } else { "SET NOWAIT" }
}

/// `SET DRAW [powers]`.
pub fn set_draw(powers: &[Power]) -> String {
    if powers.is_empty() {
        "SET DRAW".to_string()
    } else {
        format!("SET DRAW {}", list_powers(powers))
    }
}

/// `SET CONCEDE power`.
pub fn set_concede(to: Power) -> String {
    format!("SET CONCEDE {to}")
}

/// `SET PREFERENCE powers`.
pub fn set_preference(powers: &[Power]) -> String {
    format!(
        "SET PREFERENCE {}",
        powers
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// `SET ABSENCE from [TO to]`.
pub fn set_absence(from: Date, to: Option<Date>) -> String {
    format!(
        "SET ABSENCE {from}{}",
        to.map(|t| format!(" TO {t}")).unwrap_or_default()
    )
}

/// `CREATE ?game` (`rules`: the rule set's name, unless it is the standard game).
pub fn create(game: &str, rules: Option<&str>) -> String {
    let rules = rules.map(|r| format!(", {r} rules")).unwrap_or_default();
    format!(
        "CREATE ?{game}{rules} (you are its master; players join with SIGNON ?{game} <password>)"
    )
}

/// `SIGNON ?game`: a player joined a forming game.
pub fn signon_join(game: &str) -> String {
    format!("SIGNON ?{game}")
}

/// How many players have joined a forming game, and whether it is full.
pub fn joined(game: &str, count: usize, full: bool) -> Vec<String> {
    let mut out = vec![format!("{count} of 7 players have joined {game}.")];
    if full {
        out.push(format!(
            "{game} is full: it starts when this message has been read."
        ));
    }
    out
}

/// `SIGNON Xgame` as a power.
pub fn signon_power(power: Power, game: &str) -> String {
    format!("SIGNON {}{game} ({power})", power.initial())
}

/// `SIGNON Mgame` as the master.
pub fn signon_master(game: &str) -> String {
    format!("SIGNON M{game} (master)")
}

/// `SIGNON Ogame password`, as an observer.
pub fn signon_observer(game: &str) -> String {
    format!("SIGNON O{game} (observer)")
}

/// The line after `OK OBSERVE game` that gives the observer its password, in the reply to
/// the observing address alone.
pub fn observer_password(game: &str, password: &str) -> String {
    format!(
        "Your observer password for {game} is {password}: a mail that begins with SIGNON O{game} {password} may send press to the game as its master allows (SET OBSERVER), and press to its master (PRESS TO M) always. Sending OBSERVE {game} again gives you a new one."
    )
}

/// The line before the master's preview of the results.
pub const PREVIEW_HEADING: &str =
    "Preview of the results with the orders standing now (nothing is saved):";

/// After `SET VARIANT`: the rules the game will be played with.
pub fn rules_chosen(game: &str, rules: &str) -> String {
    format!("{game} will be played with the {rules} rules.")
}

/// After `EJECT`: the power is open for takeover.
pub fn open_for_takeover(power: Power) -> String {
    format!("{power} is now open for takeover.")
}

/// A setting of an address that waits for the address to confirm it (`request`: the
/// command as the judge writes it).
pub fn waits_for_confirmation(request: &str) -> String {
    format!("{request} (waits until this address confirms it: see the end of this mail)")
}

/// `OBSERVE game`, as the judge writes the command.
pub fn observe_command(game: &str) -> String {
    format!("OBSERVE {game}")
}

/// `UNOBSERVE game`, as the judge writes the command.
pub fn unobserve_command(game: &str) -> String {
    format!("UNOBSERVE {game}")
}

/// `SET MAP ON|OFF`.
pub fn set_map_command(on: bool) -> &'static str {
    if on { "SET MAP ON" } else { "SET MAP OFF" }
}

/// `OBSERVE game`, done.
pub fn observing(game: &str) -> String {
    format!("OBSERVE {game} (you will receive its results and public press)")
}

/// `UNOBSERVE game`, done.
pub fn unobserved(game: &str) -> String {
    format!("UNOBSERVE {game} (you will receive nothing more of it)")
}

/// `CONFIRM code` again, after the subject confirmed it.
pub fn confirmed_above(code: &str) -> String {
    format!("CONFIRM {code} (confirmed above)")
}

/// `CONFIRM code`: the address is confirmed; what waited follows.
pub fn confirmed(code: &str) -> String {
    format!("CONFIRM {code} (this address is confirmed; what waited for it is done:)")
}

/// Press whose every line was a command: nothing is left to send (`echo`: the press
/// header as the judge writes it).
pub fn press_empty(echo: &str) -> String {
    format!("{echo} (nothing left to send)")
}

/// Postal press, held until the next results.
pub fn press_held(echo: &str) -> String {
    format!("{echo} (held until the next results)")
}
