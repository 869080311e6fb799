//! Notices: the mails the judge writes of its own accord about a game or a mail, each a
//! subject and a text. The start and the end of a game, a reminder, a late notice, the late
//! powers, an abandonment, a time warp, the master's pause, resumption, deadline and
//! rollback, a player's absence and resignation, a new address for a seat, wrong passwords
//! for a seat, a suspended game, a mail set aside, a mail over the size limit, a mail that
//! could not be delivered, and the announcement of a rule set's immediate command.
//!
//! The judge decides which notice goes to whom ([`crate::judge`]); these functions only
//! write it, from typed values. Pure: no store, no clock (times arrive as values).

use chrono::{DateTime, Utc};

use crate::game::{self, Ending, Game, OrderStatus};
use crate::map::Power;
use crate::variant::{Line, Reader, Sender, list_powers};

use super::dates::format_time;

/// A notice: its subject and its text (every line ends with `\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub subject: String,
    pub body: String,
}

/// A player joined the forming game `g` (njudge's "New Player Signon", issue 38): the
/// notice to the players already in (how many are in now, how many it waits for) or, with
/// `newcomer`, to the master (who joined, and every joiner's preference list).
pub fn new_player(judge: &str, g: &Game, newcomer: Option<&str>) -> Notice {
    let count = g.joiners().len();
    let wanted = g.players_wanted();
    let who = newcomer.unwrap_or("A new player");
    let mut body = format!(
        "{who} has joined '{}'. It now has {count} of {wanted} players",
        g.name()
    );
    match wanted.saturating_sub(count) {
        0 => body.push_str(".\n"),
        1 => body.push_str(": it starts when 1 more joins.\n"),
        n => body.push_str(&format!(": it starts when {n} more join.\n")),
    }
    if newcomer.is_some() {
        body.push_str("\nPreference lists are now:\n");
        for j in g.joiners() {
            let list: String = j.preferences.iter().map(|p| p.initial()).collect();
            let list = if list.is_empty() {
                "none (any power)".to_string()
            } else {
                list
            };
            body.push_str(&format!("  {}: {list}\n", j.seat.address));
        }
    }
    Notice {
        subject: subject(judge, g.name(), format!("New Player Signon: #{count}")),
        body,
    }
}

/// The subject of a notice about a game: `DIP:demo - Game over`.
pub fn subject(judge: &str, game: &str, what: impl std::fmt::Display) -> String {
    format!("{judge}:{game} - {what}")
}

/// The powers' words for an order status (`received`, `incomplete`, `none`).
fn status_words(status: Option<OrderStatus>) -> &'static str {
    status.map_or("none", |s| s.word())
}

/// The game is over: how it ended.
pub fn game_over(judge: &str, g: &Game, ending: &Ending) -> Notice {
    Notice {
        subject: subject(judge, g.name(), "Game over"),
        body: format!(
            "{}\n\nThe game '{}' is over.\n",
            super::results::ending_sentence(ending),
            g.name()
        ),
    }
}

/// The subject of the announcement of a rule set's immediate command (H2).
pub fn announcement_subject(judge: &str, g: &Game) -> String {
    subject(
        judge,
        g.name(),
        format!("{} Announcement", g.position().phase),
    )
}

/// The announcement of a rule set's immediate command as `reader` reads it: the lines it
/// may read (H20), one a line; empty when it may read none.
pub fn announcement_body(lines: &[Line], reader: Reader) -> String {
    lines
        .iter()
        .filter(|l| l.is_for(reader))
        .map(|l| format!("{}\n", l.text))
        .collect()
}

/// A power whose orders are missing is reminded of the deadline.
pub fn reminder(
    judge: &str,
    g: &Game,
    power: Power,
    deadline: DateTime<Utc>,
    status: Option<OrderStatus>,
) -> Notice {
    let phase = g.position().phase;
    Notice {
        subject: subject(judge, g.name(), format!("{phase} Reminder")),
        body: format!(
            "Reminder: the deadline for {phase} in '{}' is {}.\nYour orders for {power} are {}.\n",
            g.name(),
            format_time(g, deadline),
            status_words(status)
        ),
    }
}

/// A power whose orders are missing at the deadline is told when the grace period ends.
pub fn late_notice(
    judge: &str,
    g: &Game,
    power: Power,
    status: Option<OrderStatus>,
    grace_end: DateTime<Utc>,
) -> Notice {
    let phase = g.position().phase;
    Notice {
        subject: subject(judge, g.name(), format!("{phase} Late Notice")),
        body: format!(
            "The deadline for {phase} in '{}' has passed and your orders for {power} are {}.\nSend them before {}, the end of the grace period.\n",
            g.name(),
            status_words(status),
            format_time(g, grace_end)
        ),
    }
}

/// Everyone is told who is late, as `reader` may know it: the powers everyone may know to
/// be late (`named`), and for the master also those late with orders only they and the
/// master may know of (`unnamed`, H20).
pub fn late_powers(
    judge: &str,
    g: &Game,
    named: &[Power],
    unnamed: &[Power],
    grace_end: DateTime<Utc>,
    reader: Reader,
) -> Notice {
    let phase = g.position().phase;
    let mut body = format!(
        "The deadline for {phase} has passed. Orders are missing from: {}.\nThe grace period ends {}.\n",
        list_powers(named),
        format_time(g, grace_end)
    );
    if reader == Reader::Master && !unnamed.is_empty() {
        body.push_str(&format!(
            "Also late, with orders the others may not know of (for the master only): {}.\n",
            list_powers(unnamed)
        ));
    }
    Notice {
        subject: subject(judge, g.name(), format!("{phase} Late Powers")),
        body,
    }
}

/// The grace period ended in a game that does not process missing orders: the late powers
/// are abandoned.
pub fn abandoned(judge: &str, g: &Game, late: &[Power]) -> Notice {
    let phase = g.position().phase;
    Notice {
        subject: subject(judge, g.name(), format!("{phase} Abandoned")),
        body: format!(
            "The grace period for {phase} has ended without orders from {}. This game does not process missing orders (NONMR): {} abandoned and open for takeover. The master decides how to go on.\n",
            list_powers(late),
            if late.len() == 1 {
                "that power is"
            } else {
                "those powers are"
            }
        ),
    }
}

/// The judge was not running at the deadline (from `last_tick` to `now`): the deadline is
/// extended to `deadline`.
pub fn time_warp(
    judge: &str,
    g: &Game,
    last_tick: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
    deadline: DateTime<Utc>,
) -> Notice {
    Notice {
        subject: subject(judge, g.name(), "Deadline extended"),
        body: format!(
            "Time warp: the judge was not running from {} to {}, past the deadline of {}. Nothing was processed; the deadline is now {}.\n",
            last_tick.map(|t| format_time(g, t)).unwrap_or_default(),
            format_time(g, now),
            g.position().phase,
            format_time(g, deadline)
        ),
    }
}

/// To the master: nobody joined the forming game before it expired; it is removed.
pub fn game_removed(judge: &str, g: &Game) -> Notice {
    let created = g.created().map(|c| format_time(g, c)).unwrap_or_default();
    Notice {
        subject: subject(judge, g.name(), "Game removed"),
        body: format!(
            "Nobody joined '{}' in the {} days since you created it ({created}): the game is removed and its name is free again. CREATE it anew if you still want it.\n",
            g.name(),
            game::FORMING_EXPIRY_DAYS
        ),
    }
}

/// The master paused the game.
pub fn paused(judge: &str, g: &Game) -> Notice {
    Notice {
        subject: subject(judge, g.name(), "Paused"),
        body: "The master has paused the game.\n".to_string(),
    }
}

/// The master resumed the game, with a new deadline.
pub fn resumed(judge: &str, g: &Game, deadline: DateTime<Utc>) -> Notice {
    Notice {
        subject: subject(judge, g.name(), "Resumed"),
        body: format!(
            "The master has resumed the game. The deadline is {}.\n",
            format_time(g, deadline)
        ),
    }
}

/// The master set the deadline of the phase.
pub fn deadline_changed(judge: &str, g: &Game, deadline: DateTime<Utc>) -> Notice {
    Notice {
        subject: subject(judge, g.name(), "Deadline changed"),
        body: format!(
            "The master set the deadline of {} to {}.\n",
            g.position().phase,
            format_time(g, deadline)
        ),
    }
}

/// The master rolled the game back to the phase it is in now.
pub fn rolled_back(judge: &str, g: &Game) -> Notice {
    Notice {
        subject: subject(judge, g.name(), "Rolled back"),
        body: format!(
            "The master rolled the game back to {}. Orders for that phase are needed again; the deadline is {}.\n",
            g.position().phase,
            g.deadline().map(|d| format_time(g, d)).unwrap_or_default()
        ),
    }
}

/// A power will be absent over the deadline, which moves to `deadline`.
pub fn deadline_moved(judge: &str, g: &Game, power: Power, deadline: DateTime<Utc>) -> Notice {
    Notice {
        subject: subject(judge, g.name(), "Deadline moved"),
        body: format!(
            "{power} will be absent; the deadline of {} moves to {}.\n",
            g.position().phase,
            format_time(g, deadline)
        ),
    }
}

/// To the master: a power's player resigned.
pub fn resigned(judge: &str, g: &Game, power: Power) -> Notice {
    Notice {
        subject: subject(judge, g.name(), format!("{power} resigned")),
        body: format!(
            "The player of {power} resigned from '{}'. The power is open for takeover.\n",
            g.name()
        ),
    }
}

/// A seat's mail goes to a new address (`SET ADDRESS`, confirmed by that address): the
/// old address learns where.
pub fn address_set(judge: &str, g: &Game, seat: Sender, new: &str) -> Notice {
    let seat = match seat {
        Sender::Power(p) => p.name(),
        Sender::Master => "the master",
    };
    Notice {
        subject: subject(judge, g.name(), "Address set"),
        body: format!(
            "From now on the mail of {seat} in the game '{}' on this judge goes to {new}, not to this address: a mail with the seat's password asked for it (SET ADDRESS), and {new} confirmed it.\nIf you did not ask for this, someone else knows the seat's password: please tell the master of '{}'.\n",
            g.name(),
            g.name()
        ),
    }
}

/// The notice to a seat's registered address (`address`) of the wrong sign-ons sent for
/// it since `since`: `counts` are (checked with a wrong password, refused unchecked while
/// locked, locks started), `limits` (wrong passwords an hour from other addresses, from
/// its own) what locks the seat.
pub fn wrong_passwords(
    judge: &str,
    g: &Game,
    seat: Sender,
    address: &str,
    since: DateTime<Utc>,
    counts: (u64, u64, u64),
    limits: (usize, usize),
) -> Notice {
    let (checked, refused, locks) = counts;
    let (strangers, own) = limits;
    let who = match seat {
        Sender::Master => "the master".to_string(),
        Sender::Power(p) => p.name().to_string(),
    };
    let unchecked = if refused == 0 {
        String::new()
    } else {
        format!(" and {refused} more refused unchecked while the seat was locked to them")
    };
    let locked = if locks == 0 {
        String::new()
    } else {
        format!(
            "The seat was locked {}: after {strangers} wrong passwords within an hour from other addresses, no password from them is checked for the rest of that hour (after {own} from your own address, none from it). Other addresses never lock you out: from {address}, your password signs on as ever.\n\n",
            if locks == 1 {
                "once".to_string()
            } else {
                format!("{locks} times")
            }
        )
    };
    let body = format!(
        "Since {since}, {total} sign-ons as {who} in '{game}' were refused: {checked} with a wrong password{unchecked}.\n\
         \n\
         {locked}\
         Your password has not changed. If these sign-ons were not yours, \
         someone is trying to guess it: a long password (SET PASSWORD) keeps them out. \
         You are told of them at most once a day.\n",
        since = format_time(g, since),
        total = checked + refused,
        game = g.name(),
    );
    Notice {
        subject: subject(judge, g.name(), format!("Wrong passwords for {who}")),
        body,
    }
}

/// Why a game is suspended, as the judge found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuspensionCause {
    /// Its stored state cannot be read.
    Unreadable,
    /// Processing it failed inside the judge.
    Failed,
}

impl SuspensionCause {
    /// The reason in words its master and players may read (the details, which may quote
    /// the stored state, go to the operator's log only); the store keeps it with the game.
    pub fn words(self) -> &'static str {
        match self {
            SuspensionCause::Unreadable => "its stored state cannot be read",
            SuspensionCause::Failed => "processing it failed inside the judge",
        }
    }
}

/// To the master: the game is suspended, and why.
pub fn suspended(judge: &str, game: &str, reason: &str) -> Notice {
    Notice {
        subject: subject(judge, game, "Suspended"),
        body: format!(
            "The judge has suspended the game '{game}': {reason}.\n\nWhile it is suspended no deadline runs in it, and mail to the game is answered that it is suspended; every other game goes on. The judge's operator has been told (the judge's log has the details). Once the cause is fixed, the operator lifts the suspension (dipjudge unsuspend {game}) and the game goes on from its stored state.\n"
        ),
    }
}

/// The answer to a mail the judge failed on `attempts` times and set aside; `master_of`: the
/// game whose master was told too.
pub fn set_aside_reply(attempts: i64, master_of: Option<&str>) -> String {
    let mut body = format!(
        "The judge could not handle your mail: it failed on it {attempts} times, and has set it aside. Nothing in it was applied.\nThe judge's operator has been told"
    );
    if let Some(g) = master_of {
        body.push_str(&format!(", and so has the master of {g}"));
    }
    body.push_str(".\nPlease send your commands again in a new mail; if that fails too, write to the master.\n");
    body
}

/// To the master of the game a mail set aside signed on to.
pub fn set_aside_master(
    judge: &str,
    game: &str,
    from: &str,
    mail_subject: &str,
    attempts: i64,
) -> Notice {
    Notice {
        subject: subject(judge, game, "Mail set aside"),
        body: format!(
            "A mail from {from} to {game} (subject {:?}) could not be handled: the judge failed on it {attempts} times and has set it aside. Its sender has been told; the judge's operator has the details in the judge's log.\n",
            one_line_subject(mail_subject)
        ),
    }
}

/// The answer to a mail over the size limit, unread.
pub fn oversize_reply(size: u64, limit: u64) -> String {
    format!(
        "Your mail is {size} bytes, over this judge's limit of {limit} bytes: it was not read, and nothing in it was done. Send your commands in a shorter mail (without attachments).\n"
    )
}

/// To the master: a mail of the game could not be delivered.
pub fn undeliverable(
    judge: &str,
    game: &str,
    recipient: &str,
    mail_subject: &str,
    reason: &str,
) -> Notice {
    Notice {
        subject: subject(judge, game, "Undeliverable mail"),
        body: format!("A mail to {recipient} ({mail_subject}) could not be delivered:\n{reason}\n"),
    }
}

/// What made a mail too big to read (the bounds of `mail::budget`): it is answered with
/// one sentence and set aside unread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooBig {
    /// More multipart sections than `limit`.
    Sections { limit: usize },
    /// More MIME parts than `limit`.
    Parts { limit: usize },
    /// HTML whose elements nest deeper than `limit`.
    HtmlDepth { limit: usize },
    /// Reading it took longer than `secs` seconds.
    Slow { secs: u64 },
}

impl std::fmt::Display for TooBig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TooBig::Sections { limit } => {
                write!(f, "it has more than {limit} multipart sections")
            }
            TooBig::Parts { limit } => write!(f, "it has more than {limit} MIME parts"),
            TooBig::HtmlDepth { limit } => {
                write!(f, "its HTML nests elements more than {limit} deep")
            }
            TooBig::Slow { secs } => write!(f, "reading it took longer than {secs} seconds"),
        }
    }
}

impl std::error::Error for TooBig {}

/// The answer to a mail too big to read (`what`), unread.
pub fn too_big_reply(what: TooBig) -> String {
    format!(
        "Your mail could not be read: {what}, more than this judge reads in one mail. Nothing in it was done. Send your commands again as plain text in a new mail.\n"
    )
}

/// What the judge records, for its operator, of a mail it read no further and answers not
/// at all (`reason`: why the loop guard silences it; `outcome`: why it was not read).
pub fn silenced_unread_outcome(reason: &str, outcome: &str) -> String {
    format!("silenced: {reason}; {outcome}")
}

/// What the judge records, for its operator, of a mail too big to read.
pub fn too_big_outcome(what: TooBig) -> String {
    format!("too big to read: {what}")
}

/// Why a mail is given up after failing for `days` days (its last failure: `last_error`).
pub fn undelivered_in(days: u32, last_error: &str) -> String {
    format!("not delivered in {days} days of trying; the last attempt failed: {last_error}")
}

/// To the master: mail of the game has not gone out for a while (`count` mails, to
/// `recipients`, the oldest failing since `since`); the judge keeps trying until `until`.
pub fn mail_delayed(
    judge: &str,
    game: &str,
    count: usize,
    recipients: &[String],
    since: DateTime<Utc>,
    until: DateTime<Utc>,
    last_error: &str,
) -> Notice {
    let mails = if count == 1 { "mail" } else { "mails" };
    Notice {
        subject: subject(judge, game, "Mail delayed"),
        body: format!(
            "{count} {mails} of the game '{game}' (to {}) could not be delivered yet: the judge has been trying since {} and keeps trying until {}, and the judge's operator has been told. The last attempt failed: {last_error}\nNothing needs doing; you will hear again only if the mail is given up.\n",
            recipients.join(", "),
            super::dates::in_words(&chrono_tz::UTC, since),
            super::dates::in_words(&chrono_tz::UTC, until),
        ),
    }
}

/// The note added to the reply of a mail that made the judge queue more mails than it
/// sends for one mail: `dropped` of `wanted` were not sent (at most `per_address` to one
/// address and `total` in all).
pub fn flood_note(wanted: usize, dropped: usize, per_address: usize, total: usize) -> String {
    format!(
        "NOTE: this mail would have made the judge send {wanted} mails; it sends at most {per_address} to one address and {total} in all for one mail, so the last {dropped} were not sent (what was written is kept: HISTORY shows it to its readers).\n"
    )
}

/// What the judge records, for its operator, of a mail it set aside after `attempts`.
pub fn set_aside_outcome(attempts: i64) -> String {
    format!("set aside after {attempts} failed attempts")
}

/// What the judge records, for its operator, of a mail over the size limit.
pub fn oversize_outcome(size: u64, limit: u64) -> String {
    format!("too big: {size} bytes, over the limit of {limit}")
}

/// A subject quoted inside a text: at most 80 characters, on one line.
pub fn one_line_subject(subject: &str) -> String {
    let line = crate::command::collapse_blanks(subject, |_| false);
    match line.char_indices().nth(80) {
        Some((cut, _)) => format!("{}...", line.get(..cut).unwrap_or_default()),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    //! The words of the notices no golden mail shows, pinned: players have read them so
    //! since before they moved here (issue 26).

    use chrono::TimeZone;

    use super::*;
    use crate::game::{Player, Seat};
    use crate::map::Map;

    fn at(day: u32, hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, day, hour, 0, 0)
            .single()
            .expect("a time")
    }

    fn seat(address: &str) -> Seat {
        Seat {
            address: address.into(),
            password_hash: String::new(),
        }
    }

    fn game() -> Game {
        let map = Map::standard().expect("map");
        let standard = &crate::variant::Standard;
        let mut g = Game::create(
            standard,
            map,
            crate::game::NewGame {
                name: "demo",
                master: seat("gm@x"),
                master_name: None,
                seed: 1,
                settings: crate::game::Settings::default(),
                state: crate::variant::Variant::new_state(standard),
                now: at(1, 12),
            },
        );
        g.arrange(crate::game::Arrangement {
            players: Power::ALL
                .iter()
                .map(|p| Player::new(*p, seat(&format!("{}@x", p.code()))))
                .collect(),
            position: crate::rules::Position::standard_start(map),
            variant_state: None,
            observers: Vec::new(),
            deadline: Some(at(3, 20)),
        });
        g
    }

    #[test]
    fn the_notices_read_as_before() {
        let g = game();
        let cases: Vec<(Notice, &str, &str)> = vec![
            (
                time_warp("DIP", &g, Some(at(2, 9)), at(4, 10), at(5, 10)),
                "DIP:demo - Deadline extended",
                "Time warp: the judge was not running from Mon Mar 02 2026 09:00 UTC to Wed Mar 04 2026 10:00 UTC, past the deadline of S1901M. Nothing was processed; the deadline is now Thu Mar 05 2026 10:00 UTC.\n",
            ),
            (
                abandoned("DIP", &g, &[Power::Italy]),
                "DIP:demo - S1901M Abandoned",
                "The grace period for S1901M has ended without orders from Italy. This game does not process missing orders (NONMR): that power is abandoned and open for takeover. The master decides how to go on.\n",
            ),
            (
                abandoned("DIP", &g, &[Power::Turkey, Power::Italy]),
                "DIP:demo - S1901M Abandoned",
                "The grace period for S1901M has ended without orders from Italy and Turkey. This game does not process missing orders (NONMR): those powers are abandoned and open for takeover. The master decides how to go on.\n",
            ),
            (
                game_removed("DIP", &g),
                "DIP:demo - Game removed",
                "Nobody joined 'demo' in the 14 days since you created it (Sun Mar 01 2026 12:00 UTC): the game is removed and its name is free again. CREATE it anew if you still want it.\n",
            ),
            (
                paused("DIP", &g),
                "DIP:demo - Paused",
                "The master has paused the game.\n",
            ),
            (
                resumed("DIP", &g, at(6, 20)),
                "DIP:demo - Resumed",
                "The master has resumed the game. The deadline is Fri Mar 06 2026 20:00 UTC.\n",
            ),
            (
                deadline_changed("DIP", &g, at(6, 20)),
                "DIP:demo - Deadline changed",
                "The master set the deadline of S1901M to Fri Mar 06 2026 20:00 UTC.\n",
            ),
            (
                deadline_moved("DIP", &g, Power::France, at(6, 20)),
                "DIP:demo - Deadline moved",
                "France will be absent; the deadline of S1901M moves to Fri Mar 06 2026 20:00 UTC.\n",
            ),
            (
                rolled_back("DIP", &g),
                "DIP:demo - Rolled back",
                "The master rolled the game back to S1901M. Orders for that phase are needed again; the deadline is Tue Mar 03 2026 20:00 UTC.\n",
            ),
            (
                late_powers(
                    "DIP",
                    &g,
                    &[Power::Italy],
                    &[Power::Russia],
                    at(4, 20),
                    Reader::Master,
                ),
                "DIP:demo - S1901M Late Powers",
                "The deadline for S1901M has passed. Orders are missing from: Italy.\nThe grace period ends Wed Mar 04 2026 20:00 UTC.\nAlso late, with orders the others may not know of (for the master only): Russia.\n",
            ),
            (
                late_powers(
                    "DIP",
                    &g,
                    &[Power::Italy],
                    &[Power::Russia],
                    at(4, 20),
                    Reader::Power(Power::Russia),
                ),
                "DIP:demo - S1901M Late Powers",
                "The deadline for S1901M has passed. Orders are missing from: Italy.\nThe grace period ends Wed Mar 04 2026 20:00 UTC.\n",
            ),
            (
                address_set("DIP", &g, Sender::Master, "new@example.test"),
                "DIP:demo - Address set",
                "From now on the mail of the master in the game 'demo' on this judge goes to new@example.test, not to this address: a mail with the seat's password asked for it (SET ADDRESS), and new@example.test confirmed it.\nIf you did not ask for this, someone else knows the seat's password: please tell the master of 'demo'.\n",
            ),
            (
                resigned("DIP", &g, Power::Austria),
                "DIP:demo - Austria resigned",
                "The player of Austria resigned from 'demo'. The power is open for takeover.\n",
            ),
        ];
        for (notice, subject, body) in cases {
            assert_eq!(notice.subject, subject);
            assert_eq!(notice.body, body, "{subject}");
        }
    }

    #[test]
    fn a_long_subject_is_quoted_on_one_line_and_cut() {
        assert_eq!(one_line_subject("a\n  b\tc"), "a b c");
        let long = "x".repeat(100);
        assert_eq!(one_line_subject(&long), format!("{}...", "x".repeat(80)));
    }
}
