//! Master (GM) commands (grammar/master.md): njudge's words for running a game. `OFFICIAL`
//! opens a press block and lives in [`super::press`].

use std::fmt;

use crate::map::Power;
use crate::rules::Phase;

use super::lexeme::{
    Date, PResult, Why, address, blanks, clock, cut, date, days_word, end_of_line, expect, fail,
    hours, keyword, name_word, number, one_of, power_list, power_or_initial, token,
};
use super::njudge_word::NjudgeWord;
use super::settings::{ObserverLevel, PressLevel, ScheduleClass};

/// A turn to roll back to: a phase (`S1902M`) or njudge's turn number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    Phase(Phase),
    Number(u32),
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Phase(p) => write!(f, "{p}"),
            Turn::Number(n) => write!(f, "{n}"),
        }
    }
}

/// What a `SET MOVE|RETREAT|ADJUST …` line changes (None: left as it is). Durations in
/// minutes (written in hours); `clock` in minutes after midnight, `Some(None)` for `CLOCK
/// OFF` (or njudge's `-1`); `days` in njudge's form, Sunday first (`-MTWTF-`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScheduleChange {
    pub clock: Option<Option<u16>>,
    pub min: Option<i64>,
    pub next: Option<i64>,
    pub grace: Option<i64>,
    pub delay: Option<i64>,
    pub days: Option<String>,
}

impl ScheduleChange {
    /// The parts as written back (`CLOCK 20:00 NEXT 48 DAYS -MTWTF-`).
    pub fn render(&self) -> String {
        let mut parts = Vec::new();
        match self.clock {
            Some(Some(m)) => parts.push(format!("CLOCK {:02}:{:02}", m / 60, m % 60)),
            Some(None) => parts.push("CLOCK OFF".to_string()),
            None => {}
        }
        for (word, v) in [
            ("MIN", self.min),
            ("NEXT", self.next),
            ("GRACE", self.grace),
            ("DELAY", self.delay),
        ] {
            if let Some(m) = v {
                parts.push(format!("{word} {}", hours_text(m)));
            }
        }
        if let Some(d) = &self.days {
            parts.push(format!("DAYS {d}"));
        }
        parts.join(" ")
    }
}

/// Minutes written as hours: `48`, `0.5`, `0.17`.
pub(crate) fn hours_text(minutes: i64) -> String {
    if minutes % 60 == 0 {
        return (minutes / 60).to_string();
    }
    let hundredths = (minutes * 100 + 30) / 60;
    let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// How the master ends a game (`DECLARE`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Declaration {
    /// `DECLARE DRAW powers`.
    Draw(Vec<Power>),
    /// `DECLARE WINNER power`.
    Winner(Power),
}

/// Whom `EJECT` names: a power's player, or an address (a player's, or an observer's:
/// its subscription ends).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EjectTarget {
    Power(Power),
    Address(String),
}

impl fmt::Display for EjectTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EjectTarget::Power(p) => write!(f, "{p}"),
            EjectTarget::Address(a) => f.write_str(a),
        }
    }
}

/// One master command, typed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MasterCommand {
    Become {
        power: Power,
    },
    /// `PROCESS` or `PROCESS S1901M`.
    Process {
        phase: Option<Phase>,
    },
    /// `PROCESS!`: process now, with civil-disorder defaults for missing orders.
    ProcessNow,
    Preview,
    Pause,
    Resume,
    Terminate,
    SetDeadline {
        date: Date,
    },
    SetGrace {
        date: Date,
    },
    SetStart {
        date: Date,
    },
    SetNmr,
    SetNoNmr,
    SetPress(PressLevel),
    SetPartial,
    /// `SET ALL PRESS`: the master receives a copy of every piece of private press.
    SetAllPress,
    /// `SET NO ALL PRESS`.
    SetNoAllPress,
    SetNoPartial,
    /// `SET OBSERVER …` (njudge): what observers may send, with the game's press rules.
    SetObserver(ObserverLevel),
    /// `SET WATCH …`: what observers read (and whether a game takes observers at all).
    SetWatch(ObserverLevel),
    /// `SET VARIANT name`: the name is checked by the variant registry later.
    SetVariant {
        name: String,
    },
    /// `EJECT power|address`: the player leaves (the power is open for takeover), or an
    /// observer's subscription ends.
    Eject {
        who: EjectTarget,
    },
    /// `PROMOTE address`: a co-master.
    Promote {
        address: String,
    },
    /// `UNSTART`: back to forming, before the first phase is processed.
    Unstart,
    /// `DECLARE DRAW powers` / `DECLARE WINNER power`: the master ends the game.
    Declare(Declaration),
    /// `SET MOVE|RETREAT|ADJUST …`.
    SetSchedule {
        class: ScheduleClass,
        change: ScheduleChange,
    },
    /// `SET ZONE Europe/Paris`: the IANA name, as the zone database spells it.
    SetZone {
        zone: String,
    },
    /// `SET COMMENT text` (empty: no comment).
    SetComment {
        text: String,
    },
    /// `SET LIST` / `SET PUBLIC` (true), `SET NOLIST` / `SET PRIVATE` (false).
    SetListed {
        listed: bool,
    },
    /// `SET JOIN PASSWORD word` / `SET NO JOIN PASSWORD` (None).
    SetJoinPassword {
        password: Option<String>,
    },
    /// `SET INVITE address…` / `SET UNINVITE address…` (`invite` false).
    SetInvite {
        addresses: Vec<String>,
        invite: bool,
    },
    /// `SET ANONYMOUS` / `SET NO ANONYMOUS`.
    SetAnonymous {
        on: bool,
    },
    /// `SET REVEAL` / `SET NOREVEAL`.
    SetReveal {
        on: bool,
    },
    /// `SET QUIET` / `SET NOQUIET`.
    SetQuiet {
        on: bool,
    },
    /// `SET ADDRESSES SHOWN` / `SET ADDRESSES HIDDEN`.
    SetAddresses {
        shown: bool,
    },
    /// `SET MAXABSENCE days`.
    SetMaxAbsence {
        days: u32,
    },
    /// `FORCE BEGIN`: a forming game starts with the players who joined; the other powers
    /// are dummies, open for takeover (njudge; DPjudge's dummies).
    ForceBegin,
    /// `APPROVE power`: the takeover of the power that waits for approval goes through.
    Approve {
        power: Power,
    },
    /// `REJECT power`: the takeover of the power that waits for approval is refused.
    Reject {
        power: Power,
    },
    /// `SET APPROVAL` (true) or `SET NOAPPROVAL`: whether a takeover waits for the master's
    /// `APPROVE`.
    SetApproval(bool),
    /// `SET ABANDON n`: a seat whose player missed n phases in a row is abandoned (0:
    /// never).
    SetAbandon {
        count: u32,
    },
    /// njudge's `SET DEDICATION n` (None: `OFF`): the least dedication score a player needs
    /// to join or take a power over (issue 31).
    SetDedication {
        least: Option<i64>,
    },
    /// njudge's `SET ONTIMERAT x` (0 to 1, in thousandths; None: `OFF`): the least on-time
    /// ratio.
    SetOnTimeRatio {
        least: Option<u32>,
    },
    /// njudge's `SET RESRAT x` (0 to 1, in thousandths; None: `OFF`): the greatest
    /// resignation ratio.
    SetResignationRatio {
        most: Option<u32>,
    },
    /// `SET TAKEOVER n`: the least hours a newcomer gets before the deadline.
    SetTakeover {
        hours: u32,
    },
    /// `SET TAKEOVER HISTORY` (true) / `SET NO TAKEOVER HISTORY`: whether a newcomer reads
    /// its power's private mail from before the takeover.
    SetTakeoverHistory(bool),
    /// `ROLLBACK` (one turn) or `ROLLBACK turn`.
    Rollback {
        turn: Option<Turn>,
    },
    SetCentres {
        count: u32,
    },
    /// `SET PLAYERS n`: a duplex game for n players, each holding several powers
    /// (njudge); before the start.
    SetPlayers {
        count: u32,
    },
    /// One of njudge's words a dipjudge game does otherwise (`SET FAKE`, `SET ACCESS …`):
    /// answered with what dipjudge does instead ([`super::njudge`]).
    Njudge(NjudgeWord),
}

impl MasterCommand {
    /// The normalised echo, which reads back as the same command.
    pub fn render(&self) -> String {
        match self {
            MasterCommand::Become { power } => format!("BECOME {power}"),
            MasterCommand::Process { phase: None } => "PROCESS".into(),
            MasterCommand::Process { phase: Some(p) } => format!("PROCESS {p}"),
            MasterCommand::ProcessNow => "PROCESS!".into(),
            MasterCommand::Preview => "PREVIEW".into(),
            MasterCommand::Pause => "PAUSE".into(),
            MasterCommand::Resume => "RESUME".into(),
            MasterCommand::Terminate => "TERMINATE".into(),
            MasterCommand::SetDeadline { date } => format!("SET DEADLINE {date}"),
            MasterCommand::SetGrace { date } => format!("SET GRACE {date}"),
            MasterCommand::SetStart { date } => format!("SET START {date}"),
            MasterCommand::SetNmr => "SET NMR".into(),
            MasterCommand::SetNoNmr => "SET NONMR".into(),
            MasterCommand::SetPress(p) => match p {
                PressLevel::None => "SET NO PRESS".into(),
                PressLevel::Grey => "SET GREY".into(),
                PressLevel::White => "SET WHITE".into(),
                PressLevel::WhiteGrey => "SET WHITE/GREY".into(),
                PressLevel::GreyWhite => "SET GREY/WHITE".into(),
            },
            MasterCommand::SetPartial => "SET PARTIAL".into(),
            MasterCommand::SetAllPress => "SET ALL PRESS".into(),
            MasterCommand::SetNoAllPress => "SET NO ALL PRESS".into(),
            MasterCommand::SetNoPartial => "SET NO PARTIAL".into(),
            MasterCommand::SetObserver(o) => match o {
                ObserverLevel::Any => "SET OBSERVER ANY".into(),
                ObserverLevel::White => "SET OBSERVER WHITE".into(),
                ObserverLevel::None => "SET OBSERVER NONE".into(),
            },
            MasterCommand::SetWatch(o) => match o {
                ObserverLevel::Any => "SET WATCH ANY".into(),
                ObserverLevel::White => "SET WATCH WHITE".into(),
                ObserverLevel::None => "SET WATCH NONE".into(),
            },
            MasterCommand::SetVariant { name } => format!("SET VARIANT {name}"),
            MasterCommand::Promote { address } => format!("PROMOTE {address}"),
            MasterCommand::Unstart => "UNSTART".into(),
            MasterCommand::Declare(Declaration::Draw(ps)) => format!(
                "DECLARE DRAW {}",
                ps.iter().map(|p| p.name()).collect::<Vec<_>>().join(" ")
            ),
            MasterCommand::Declare(Declaration::Winner(p)) => format!("DECLARE WINNER {p}"),
            MasterCommand::SetSchedule { class, change } => {
                format!("SET {} {}", class.word(), change.render())
            }
            MasterCommand::SetZone { zone } => format!("SET ZONE {zone}"),
            MasterCommand::SetComment { text } if text.is_empty() => "SET COMMENT".into(),
            MasterCommand::SetComment { text } => format!("SET COMMENT {text}"),
            MasterCommand::SetListed { listed: true } => "SET LIST".into(),
            MasterCommand::SetListed { listed: false } => "SET NOLIST".into(),
            MasterCommand::SetJoinPassword { password: Some(p) } => {
                format!("SET JOIN PASSWORD {p}")
            }
            MasterCommand::SetJoinPassword { password: None } => "SET NO JOIN PASSWORD".into(),
            MasterCommand::SetInvite { addresses, invite } => format!(
                "SET {} {}",
                if *invite { "INVITE" } else { "UNINVITE" },
                addresses.join(" ")
            ),
            MasterCommand::SetAnonymous { on: true } => "SET ANONYMOUS".into(),
            MasterCommand::SetAnonymous { on: false } => "SET NO ANONYMOUS".into(),
            MasterCommand::SetReveal { on: true } => "SET REVEAL".into(),
            MasterCommand::SetReveal { on: false } => "SET NOREVEAL".into(),
            MasterCommand::SetQuiet { on: true } => "SET QUIET".into(),
            MasterCommand::SetQuiet { on: false } => "SET NOQUIET".into(),
            MasterCommand::SetAddresses { shown: true } => "SET ADDRESSES SHOWN".into(),
            MasterCommand::SetAddresses { shown: false } => "SET ADDRESSES HIDDEN".into(),
            MasterCommand::SetMaxAbsence { days } => format!("SET MAXABSENCE {days}"),
            MasterCommand::Eject { who } => format!("EJECT {who}"),
            MasterCommand::ForceBegin => "FORCE BEGIN".into(),
            MasterCommand::Approve { power } => format!("APPROVE {power}"),
            MasterCommand::Reject { power } => format!("REJECT {power}"),
            MasterCommand::SetApproval(true) => "SET APPROVAL".into(),
            MasterCommand::SetApproval(false) => "SET NOAPPROVAL".into(),
            MasterCommand::SetAbandon { count } => format!("SET ABANDON {count}"),
            MasterCommand::SetTakeover { hours } => format!("SET TAKEOVER {hours}"),
            MasterCommand::SetTakeoverHistory(true) => "SET TAKEOVER HISTORY".into(),
            MasterCommand::SetTakeoverHistory(false) => "SET NO TAKEOVER HISTORY".into(),
            MasterCommand::SetDedication { least: None } => "SET DEDICATION OFF".into(),
            MasterCommand::SetDedication { least: Some(n) } => format!("SET DEDICATION {n}"),
            MasterCommand::SetOnTimeRatio { least } => {
                format!("SET ONTIMERAT {}", render_ratio(*least))
            }
            MasterCommand::SetResignationRatio { most } => {
                format!("SET RESRAT {}", render_ratio(*most))
            }
            MasterCommand::Rollback { turn: None } => "ROLLBACK".into(),
            MasterCommand::Rollback { turn: Some(t) } => format!("ROLLBACK {t}"),
            MasterCommand::SetCentres { count } => format!("SET CENTRES {count}"),
            MasterCommand::SetPlayers { count } => format!("SET PLAYERS {count}"),
            MasterCommand::Njudge(w) => w.render(),
        }
    }
}

/// The first words of master commands (`SET` is shared with the players' settings).
pub(crate) const KEYWORDS: &[&str] = &[
    "become",
    "process",
    "process!",
    "preview",
    "pause",
    "resume",
    "terminate",
    "eject",
    "promote",
    "rollback",
    "unstart",
    "force",
    "approve",
    "reject",
];

/// Whether a line is the master's `DECLARE DRAW|WINNER …` (`DECLARE` alone also starts a
/// rule set's declaration of war: `DECLARE WAR ON France`).
pub(crate) fn is_declaration(norm: &str) -> bool {
    keyword("declare")(norm)
        .and_then(|(r, _)| one_of(&["draw", "winner"], "DRAW or WINNER")(r))
        .is_ok()
}

// phase = season year phase_kind ;   (`S1901M`, as njudge writes it)
pub(crate) fn phase(i: &str) -> PResult<'_, Phase> {
    let start = blanks(i);
    let (r, w) = name_word(start)?;
    match Phase::parse(w) {
        Some(p) => Ok((r, p)),
        None => fail(start, Why::Expected("a phase (like S1901M)")),
    }
}

// long_phase = phase | season year phase_kind ;   (`Spring 1901 Movement`, as njudge's
//              PROCESS and PHASE take it, `Fall 1901, Retreat` as bulletins write it)
pub(crate) fn long_phase(i: &str) -> PResult<'_, Phase> {
    if let Ok(found) = phase(i) {
        return Ok(found);
    }
    let start = blanks(i);
    let mut r = start;
    let mut words = Vec::new();
    for _ in 0..3 {
        let Ok((after, w)) = name_word(r) else { break };
        words.push(w.trim_end_matches(','));
        r = after.strip_prefix(',').unwrap_or(after);
    }
    match Phase::parse_words(&words.join(" ")) {
        Some(p) => Ok((r, p)),
        None => fail(
            start,
            Why::Expected("a phase (like S1901M or Spring 1901 Movement)"),
        ),
    }
}

// master_command = "BECOME" power | "PROCESS" [ "!" | phase ] | "PREVIEW" | "PAUSE"
//                | "RESUME" | "TERMINATE" | "EJECT" ( power | address ) | "PROMOTE" address
//                | "UNSTART" | "ROLLBACK" [ phase | number ] | declare | "FORCE BEGIN"
//                | "APPROVE" power | "REJECT" power ;
// declare = "DECLARE" ( "DRAW" power_list | "WINNER" power ) ;
pub(crate) fn master_command(i: &str) -> PResult<'_, MasterCommand> {
    let start = blanks(i);
    let (r, w) = match keyword("declare")(start) {
        Ok((r, _)) => (r, "declare"),
        Err(_) => one_of(KEYWORDS, "a master command")(start)?,
    };
    let (r, cmd) = match w {
        "become" | "approve" | "reject" => {
            let (r, p) = cut(expect("a power", power_or_initial)(r))?;
            match w {
                "become" => (r, MasterCommand::Become { power: p }),
                "approve" => (r, MasterCommand::Approve { power: p }),
                _ => (r, MasterCommand::Reject { power: p }),
            }
        }
        "eject" => match token(r) {
            Ok((after, word)) if word.contains('@') => {
                let Ok(address) = word.parse::<lettre::Address>() else {
                    return super::lexeme::failure(
                        blanks(r),
                        Why::Expected("a power or an e-mail address"),
                    );
                };
                (
                    after,
                    MasterCommand::Eject {
                        who: EjectTarget::Address(address.to_string().to_ascii_lowercase()),
                    },
                )
            }
            _ => {
                let (r, p) = cut(expect("a power or an e-mail address", power_or_initial)(r))?;
                (
                    r,
                    MasterCommand::Eject {
                        who: EjectTarget::Power(p),
                    },
                )
            }
        },
        "force" => {
            let (r, _) = cut(one_of(&["begin"], "BEGIN (FORCE BEGIN)")(r))?;
            (r, MasterCommand::ForceBegin)
        }
        "process" | "process!" => {
            if w == "process!" {
                (r, MasterCommand::ProcessNow)
            } else if let Some(after) = blanks(r).strip_prefix('!') {
                (after, MasterCommand::ProcessNow)
            } else if end_of_line(r).is_ok() {
                (r, MasterCommand::Process { phase: None })
            } else {
                let (r, p) = cut(long_phase(r))?;
                (r, MasterCommand::Process { phase: Some(p) })
            }
        }
        "preview" => (r, MasterCommand::Preview),
        "pause" => (r, MasterCommand::Pause),
        "resume" => (r, MasterCommand::Resume),
        "terminate" => (r, MasterCommand::Terminate),
        "promote" => {
            let (r, a) = cut(address(r))?;
            (r, MasterCommand::Promote { address: a })
        }
        "unstart" => (r, MasterCommand::Unstart),
        "declare" => {
            let (r, w) = cut(one_of(&["draw", "winner"], "DRAW or WINNER")(r))?;
            if w == "draw" {
                let (r, ps) = cut(expect("the powers in the draw", power_list)(r))?;
                (r, MasterCommand::Declare(Declaration::Draw(ps)))
            } else {
                let (r, p) = cut(expect("a power", power_or_initial)(r))?;
                (r, MasterCommand::Declare(Declaration::Winner(p)))
            }
        }
        _ => {
            if end_of_line(r).is_ok() {
                (r, MasterCommand::Rollback { turn: None })
            } else if let Ok((r, p)) = phase(r) {
                (
                    r,
                    MasterCommand::Rollback {
                        turn: Some(Turn::Phase(p)),
                    },
                )
            } else {
                let (r, n) = cut(expect("a phase (like S1902M) or a turn number", number)(r))?;
                (
                    r,
                    MasterCommand::Rollback {
                        turn: Some(Turn::Number(n)),
                    },
                )
            }
        }
    };
    let (r, _) = cut(end_of_line(r))?;
    Ok((r, cmd))
}

/// The words after `SET` that start a master's setting, longest first where one begins another.
pub(crate) const SETTINGS: &[&str] = &[
    "deadline",
    "grace",
    "start",
    "no nmr",
    "nmr",
    "no all press",
    "all press",
    "no press",
    "white/grey",
    "white/gray",
    "grey/white",
    "gray/white",
    "white / grey",
    "grey",
    "gray",
    "white",
    "no partial",
    "partial",
    "observers",
    "observer",
    "watch",
    "variant",
    "centers",
    "centres",
    "movement",
    "moves",
    "move",
    "retreats",
    "retreat",
    "adjustments",
    "adjustment",
    "adjust",
    "builds",
    "build",
    "time zone",
    "zone",
    "comment",
    "no list",
    "list",
    "public",
    "private",
    "no join password",
    "join password",
    "uninvite",
    "invite",
    "no anonymous",
    "anonymous",
    "no reveal",
    "reveal",
    "no quiet",
    "quiet",
    "addresses",
    "max absence",
    "no approval",
    "approval",
    "abandon",
    "no takeover history",
    "takeover history",
    "takeover",
    "players",
    "dedication",
    "on time ratio",
    "ontime ratio",
    "ontimerat",
    "resignation ratio",
    "resrat",
    "cd ratio",
    "cdrat",
];

// master_setting = "DEADLINE" date | "GRACE" date | "START" date | "NMR" | "NONMR"
//                | "NO PRESS" | "WHITE/GREY" | "GREY/WHITE" | "GREY" | "WHITE"
//                | "PARTIAL" | "NO PARTIAL" | "ALL PRESS" | "NO ALL PRESS"
//                | ( "OBSERVER" | "WATCH" ) ( "ANY" | "WHITE" | "NONE" )
//                | "VARIANT" name | ( "CENTERS" | "CENTRES" ) number
//                | phase_class schedule_part { schedule_part } | "ZONE" zone_name
//                | "COMMENT" [ text ] | "LIST" | "NOLIST" | "PUBLIC" | "PRIVATE"
//                | "JOIN PASSWORD" password | "NO JOIN PASSWORD"
//                | ( "INVITE" | "UNINVITE" ) address { address }
//                | [ "NO" ] ( "ANONYMOUS" | "REVEAL" | "QUIET" )
//                | "ADDRESSES" ( "SHOWN" | "HIDDEN" ) | "MAXABSENCE" number
//                | "APPROVAL" | "NOAPPROVAL" | "ABANDON" number | "TAKEOVER" number
//                | [ "NO" ] "TAKEOVER HISTORY"
//                | "PLAYERS" number ;
//                  (after SET)
// phase_class = "MOVE" | "MOVES" | "MOVEMENT" | "RETREAT" | "RETREATS" | "ADJUST"
//             | "ADJUSTMENT" | "ADJUSTMENTS" | "BUILD" | "BUILDS" ;
// schedule_part = "CLOCK" ( time | minutes | "-1" | "OFF" ) | ( "MIN" | "NEXT" | "GRACE"
//               | "DELAY" ) hours | "DAYS" days ;
pub(crate) fn master_setting(i: &str) -> PResult<'_, MasterCommand> {
    let start = blanks(i);
    let (r, w) = one_of(SETTINGS, "a setting")(start)?;
    // njudge's `SET GRACE PRESS` is no date (issue 38: "PRESS" was read as one).
    if w == "grace" && keyword("press")(r).is_ok() {
        return Err(nom::Err::Failure(super::lexeme::PErr {
            at: start,
            why: Why::Coded(super::Coded {
                code: "UNKNOWN-SETTING",
                sentence: "SET GRACE PRESS (press while a phase is in grace) is not a setting: press in grace follows the game's press settings; SET GRACE takes a date (the end of grace)".into(),
                stated: false,
            }),
        }));
    }
    let (r, cmd) = match w {
        "deadline" | "grace" | "start" => {
            let (r, d) = cut(date(r))?;
            (
                r,
                match w {
                    "deadline" => MasterCommand::SetDeadline { date: d },
                    "grace" => MasterCommand::SetGrace { date: d },
                    _ => MasterCommand::SetStart { date: d },
                },
            )
        }
        "no nmr" => (r, MasterCommand::SetNoNmr),
        "nmr" => (r, MasterCommand::SetNmr),
        "no press" => (r, MasterCommand::SetPress(PressLevel::None)),
        "grey" | "gray" => (r, MasterCommand::SetPress(PressLevel::Grey)),
        // njudge: GREY/WHITE is grey by default with white allowed, WHITE/GREY the other way.
        "grey/white" | "gray/white" => (r, MasterCommand::SetPress(PressLevel::GreyWhite)),
        "white" => (r, MasterCommand::SetPress(PressLevel::White)),
        "no partial" => (r, MasterCommand::SetNoPartial),
        "all press" => (r, MasterCommand::SetAllPress),
        "no all press" => (r, MasterCommand::SetNoAllPress),
        "partial" => (r, MasterCommand::SetPartial),
        "observers" | "observer" | "watch" => {
            let (r, o) = cut(one_of(&["any", "white", "none"], "ANY, WHITE or NONE")(r))?;
            let o = match o {
                "any" => ObserverLevel::Any,
                "white" => ObserverLevel::White,
                _ => ObserverLevel::None,
            };
            (
                r,
                if w == "watch" {
                    MasterCommand::SetWatch(o)
                } else {
                    MasterCommand::SetObserver(o)
                },
            )
        }
        "variant" => {
            // The rest of the line: `shell-shock`, `International Relations`.
            let (r, first) = cut(expect("a variant name", token)(r))?;
            let rest = blanks(r).trim_end();
            let name = if rest.is_empty() {
                first.to_string()
            } else {
                format!("{first} {rest}")
            };
            (
                "",
                MasterCommand::SetVariant {
                    name: name.to_ascii_lowercase(),
                },
            )
        }
        "centers" | "centres" => {
            let (r, n) = cut(expect("a number of supply centres", number)(r))?;
            (r, MasterCommand::SetCentres { count: n })
        }
        "movement" | "moves" | "move" => schedule(r, ScheduleClass::Movement)?,
        "retreats" | "retreat" => schedule(r, ScheduleClass::Retreat)?,
        "adjustments" | "adjustment" | "adjust" | "builds" | "build" => {
            schedule(r, ScheduleClass::Adjustment)?
        }
        "time zone" | "zone" => {
            let (r, z) = cut(expect("a time zone (like Europe/Paris)", token)(r))?;
            match chrono_tz::TZ_VARIANTS
                .iter()
                .find(|tz| tz.name().eq_ignore_ascii_case(z))
            {
                Some(tz) => (
                    r,
                    MasterCommand::SetZone {
                        zone: tz.name().to_string(),
                    },
                ),
                None => {
                    return super::lexeme::failure(
                        blanks(r),
                        Why::Expected(
                            "a time zone's IANA name (like Europe/Paris or America/New_York)",
                        ),
                    );
                }
            }
        }
        "comment" => {
            let text = blanks(r).trim_end().to_string();
            if text.chars().count() > MAX_COMMENT {
                return super::lexeme::failure(
                    blanks(r),
                    Why::Expected("a comment of at most 60 characters"),
                );
            }
            ("", MasterCommand::SetComment { text })
        }
        "no list" | "private" => (r, MasterCommand::SetListed { listed: false }),
        "list" | "public" => (r, MasterCommand::SetListed { listed: true }),
        "join password" => {
            let (r, pw) = cut(super::lexeme::password(r))?;
            (r, MasterCommand::SetJoinPassword { password: Some(pw) })
        }
        "no join password" => (r, MasterCommand::SetJoinPassword { password: None }),
        "invite" | "uninvite" => {
            let (mut r, first) = cut(address(r))?;
            let mut addresses = vec![first];
            while end_of_line(r).is_err() {
                let (a, next) = cut(address(r))?;
                if !addresses
                    .iter()
                    .any(|x: &String| x.eq_ignore_ascii_case(&next))
                {
                    addresses.push(next);
                }
                r = a;
            }
            (
                r,
                MasterCommand::SetInvite {
                    addresses,
                    invite: w == "invite",
                },
            )
        }
        "no anonymous" | "anonymous" => (
            r,
            MasterCommand::SetAnonymous {
                on: w == "anonymous",
            },
        ),
        "no reveal" | "reveal" => (r, MasterCommand::SetReveal { on: w == "reveal" }),
        "no quiet" | "quiet" => (r, MasterCommand::SetQuiet { on: w == "quiet" }),
        "addresses" => {
            let (r, v) = cut(one_of(&["shown", "hidden"], "SHOWN or HIDDEN")(r))?;
            (
                r,
                MasterCommand::SetAddresses {
                    shown: v == "shown",
                },
            )
        }
        "max absence" => {
            let (r, n) = cut(expect("a number of days", number)(r))?;
            (r, MasterCommand::SetMaxAbsence { days: n })
        }
        "no approval" | "approval" => (r, MasterCommand::SetApproval(w == "approval")),
        "abandon" => {
            let (r, n) = cut(expect("a number of missed phases (0: never)", number)(r))?;
            (r, MasterCommand::SetAbandon { count: n })
        }
        "no takeover history" | "takeover history" => (
            r,
            MasterCommand::SetTakeoverHistory(w == "takeover history"),
        ),
        "takeover" => {
            let (r, n) = cut(expect("a number of hours", number)(r))?;
            (r, MasterCommand::SetTakeover { hours: n })
        }
        "players" => {
            let (r, n) = cut(expect("a number of players", number)(r))?;
            (r, MasterCommand::SetPlayers { count: n })
        }
        "dedication" => {
            let (r, n) = cut(dedication(r))?;
            (r, MasterCommand::SetDedication { least: n })
        }
        "on time ratio" | "ontime ratio" | "ontimerat" => {
            let (r, x) = cut(ratio(r))?;
            (r, MasterCommand::SetOnTimeRatio { least: x })
        }
        "resignation ratio" | "resrat" | "cd ratio" | "cdrat" => {
            let (r, x) = cut(ratio(r))?;
            (r, MasterCommand::SetResignationRatio { most: x })
        }
        _ => (r, MasterCommand::SetPress(PressLevel::WhiteGrey)),
    };
    let (r, _) = cut(end_of_line(r))?;
    Ok((r, cmd))
}

/// A ratio in thousandths as the judge writes it: `0.750`, or `OFF`.
fn render_ratio(r: Option<u32>) -> String {
    match r {
        None => "OFF".into(),
        Some(n) => format!("{}.{:03}", n / 1000, n % 1000),
    }
}

// dedication = [ "-" ] digits | "OFF" ;
fn dedication(i: &str) -> PResult<'_, Option<i64>> {
    let start = blanks(i);
    if let Ok((r, _)) = one_of(&["off", "none"], "OFF")(start) {
        return Ok((r, None));
    }
    let (neg, digits) = match start.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, start),
    };
    match number(digits) {
        Ok((r, n)) if digits.starts_with(|c: char| c.is_ascii_digit()) => {
            let n = i64::from(n);
            Ok((r, Some(if neg { -n } else { n })))
        }
        _ => fail(
            start,
            Why::Expected("a dedication score (like 10, or -5, or OFF)"),
        ),
    }
}

// ratio = "0" | "1" | [ "0" ] "." digits | "1." { "0" } | "OFF" ;   (njudge's ratios, 0 to 1;
//         read to three decimals)
fn ratio(i: &str) -> PResult<'_, Option<u32>> {
    let start = blanks(i);
    if let Ok((r, _)) = one_of(&["off", "none"], "OFF")(start) {
        return Ok((r, None));
    }
    let bad = || {
        fail(
            start,
            Why::Expected("a ratio from 0 to 1 (like 0.75), or OFF"),
        )
    };
    let Ok((r, t)) = token(start) else {
        return bad();
    };
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if !digits(whole) || !digits(frac) || (whole.is_empty() && frac.is_empty()) {
        return bad();
    }
    let whole: u32 = match whole {
        "" | "0" | "00" => 0,
        "1" | "01" => 1,
        _ => return bad(),
    };
    let thousandths: u32 = frac
        .chars()
        .chain(std::iter::repeat('0'))
        .take(3)
        .filter_map(|c| c.to_digit(10))
        .fold(0, |n, d| n * 10 + d);
    let n = whole * 1000 + thousandths;
    if n > 1000 {
        return bad();
    }
    Ok((r, Some(n)))
}

/// njudge's `SET COMMENT BEGIN`: the lines after it, up to a `SIGNOFF` or the end of the
/// message (a signature or a quoted original ends it too), are the comment, not commands
/// (issue 38: they were read as orders, and "BEGIN" was the comment). dipjudge keeps one
/// comment, shown in LIST, so the lines are joined with a blank and must fit in it; none
/// clears it, as njudge's SIGNOFF right after BEGIN clears its full comment.
#[derive(Clone, Debug, Default)]
pub(crate) struct CommentBlock {
    lines: Vec<String>,
}

impl CommentBlock {
    /// Whether a line opens a block: `SET COMMENT BEGIN`, alone.
    pub(crate) fn opens(norm: &str) -> bool {
        norm.eq_ignore_ascii_case("set comment begin")
    }

    /// Whether a line ends the block: a bare `SIGNOFF` (njudge's only end).
    pub(crate) fn closes(norm: &str) -> bool {
        norm.eq_ignore_ascii_case("signoff")
    }

    /// Takes a line of the comment (blank lines and `//` lines are none).
    pub(crate) fn read(&mut self, norm: &str) {
        if !norm.is_empty() && !norm.starts_with("//") {
            self.lines.push(norm.to_string());
        }
    }

    /// The block as `SET COMMENT text`, or refused when the text is longer than a comment.
    pub(crate) fn into_command(self) -> Result<super::Command, super::CommandError> {
        let text = self.lines.join(" ");
        if text.chars().count() > MAX_COMMENT {
            return Err(super::CommandError::Syntax {
                expected: "a comment of at most 60 characters (dipjudge keeps one comment, shown in LIST, and read the lines after SET COMMENT BEGIN as it, not as commands; nothing was changed)",
                after: Some("BEGIN".into()),
                found: Some(super::shorten(&text)),
            });
        }
        Ok(super::Command::Master(MasterCommand::SetComment { text }))
    }
}

/// The longest comment (`SET COMMENT`): njudge's brief listing holds 60 characters.
pub(crate) const MAX_COMMENT: usize = 60;

// phase_class schedule_part { schedule_part } ;   (after SET; see master_setting)
fn schedule(i: &str, class: ScheduleClass) -> PResult<'_, MasterCommand> {
    let mut change = ScheduleChange::default();
    let mut r = i;
    let mut any = false;
    loop {
        let at = blanks(r);
        if at.is_empty() {
            break;
        }
        let (a, part) = cut(one_of(
            &["clock", "min", "next", "grace", "delay", "days"],
            "CLOCK, MIN, NEXT, GRACE, DELAY or DAYS",
        )(at))?;
        r = match part {
            "clock" => {
                if let Ok((a, _)) = one_of(&["off", "-1"], "OFF")(a) {
                    change.clock = Some(None);
                    a
                } else {
                    let (a, m) = cut(clock(a))?;
                    change.clock = Some(Some(m));
                    a
                }
            }
            "days" => {
                let (a, d) = cut(days_word(a))?;
                change.days = Some(d);
                a
            }
            _ => {
                let (a, m) = cut(hours(a))?;
                match part {
                    "min" => change.min = Some(m),
                    "next" => change.next = Some(m),
                    "grace" => change.grace = Some(m),
                    _ => change.delay = Some(m),
                }
                a
            }
        };
        any = true;
    }
    if !any {
        return super::lexeme::failure(
            blanks(i),
            Why::Expected("CLOCK, MIN, NEXT, GRACE, DELAY or DAYS"),
        );
    }
    Ok((r, MasterCommand::SetSchedule { class, change }))
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! mc {
        ($name:ident, $f:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let got = $f($text).map(|(_, c)| c.render());
                assert_eq!(got.ok().as_deref(), $want);
            }
        };
    }

    mc!(
        become_initial,
        master_command,
        "become f",
        Some("BECOME France")
    );
    mc!(
        become_name,
        master_command,
        "BECOME Turkey",
        Some("BECOME Turkey")
    );
    mc!(process, master_command, "process", Some("PROCESS"));
    mc!(
        ontimerat,
        master_setting,
        "ontimerat .75",
        Some("SET ONTIMERAT 0.750")
    );
    mc!(
        resrat,
        master_setting,
        "RESRAT 0.2",
        Some("SET RESRAT 0.200")
    );
    mc!(
        resrat_off,
        master_setting,
        "resrat off",
        Some("SET RESRAT OFF")
    );
    mc!(ratio_too_big, master_setting, "ontimerat 1.5", None);
    mc!(ratio_words, master_setting, "ontimerat lots", None);
    mc!(
        dedication,
        master_setting,
        "dedication -5",
        Some("SET DEDICATION -5")
    );
    mc!(dedication_junk, master_setting, "dedication x", None);
    mc!(
        process_phase,
        master_command,
        "process s1901m",
        Some("PROCESS S1901M")
    );
    mc!(process_now, master_command, "PROCESS!", Some("PROCESS!"));
    mc!(
        process_now_blank,
        master_command,
        "process !",
        Some("PROCESS!")
    );
    mc!(
        rollback_phase,
        master_command,
        "rollback f1902m",
        Some("ROLLBACK F1902M")
    );
    mc!(
        rollback_number,
        master_command,
        "rollback 3",
        Some("ROLLBACK 3")
    );
    mc!(eject, master_command, "eject ita", Some("EJECT Italy"));
    mc!(
        eject_address,
        master_command,
        "eject Watcher@Example.org",
        Some("EJECT watcher@example.org")
    );
    mc!(eject_bad_address, master_command, "eject a@@b", None);
    mc!(
        force_begin,
        master_command,
        "force begin",
        Some("FORCE BEGIN")
    );
    mc!(force_alone, master_command, "force", None);
    mc!(approve, master_command, "approve f", Some("APPROVE France"));
    mc!(reject, master_command, "REJECT Italy", Some("REJECT Italy"));
    mc!(quiet, master_setting, "quiet", Some("SET QUIET"));
    mc!(noquiet, master_setting, "no quiet", Some("SET NOQUIET"));
    mc!(approval, master_setting, "approval", Some("SET APPROVAL"));
    mc!(
        noapproval,
        master_setting,
        "noapproval",
        Some("SET NOAPPROVAL")
    );
    mc!(abandon, master_setting, "abandon 2", Some("SET ABANDON 2"));
    mc!(abandon_bare, master_setting, "abandon", None);
    mc!(
        takeover,
        master_setting,
        "takeover 48",
        Some("SET TAKEOVER 48")
    );
    mc!(pause_trailing, master_command, "pause now", None);
    mc!(
        deadline,
        master_setting,
        "deadline Sun Mar 16 2003 23:30",
        Some("SET DEADLINE 2003-03-16 23:30")
    );
    mc!(nonmr, master_setting, "no nmr", Some("SET NONMR"));
    mc!(nonmr_joined, master_setting, "nonmr", Some("SET NONMR"));
    mc!(nopress, master_setting, "nopress", Some("SET NO PRESS"));
    // njudge: GREY/WHITE is grey by default, not WHITE/GREY (issue 38).
    mc!(
        grey_white,
        master_setting,
        "grey/white",
        Some("SET GREY/WHITE")
    );
    mc!(
        white_grey,
        master_setting,
        "white/grey",
        Some("SET WHITE/GREY")
    );
    mc!(
        observer,
        master_setting,
        "observer white",
        Some("SET OBSERVER WHITE")
    );
    mc!(watch, master_setting, "watch none", Some("SET WATCH NONE"));
    mc!(
        centres,
        master_setting,
        "centers 16",
        Some("SET CENTRES 16")
    );
    mc!(
        variant,
        master_setting,
        "variant Formal",
        Some("SET VARIANT formal")
    );
    mc!(
        schedule_njudge,
        master_setting,
        "MOVE CLOCK 20:00 NEXT 48 DAYS -MTWTF-",
        Some("SET MOVE CLOCK 20:00 NEXT 48 DAYS -MTWTF-")
    );
    mc!(
        schedule_minutes,
        master_setting,
        "moves clock 1410 min 12.00 next 71.00 grace 167.00 delay 0.50 days -MTWTF-",
        Some("SET MOVE CLOCK 23:30 MIN 12 NEXT 71 GRACE 167 DELAY 0.5 DAYS -MTWTF-")
    );
    mc!(
        schedule_clock_off,
        master_setting,
        "retreat clock -1 next 23",
        Some("SET RETREAT CLOCK OFF NEXT 23")
    );
    mc!(
        schedule_builds,
        master_setting,
        "builds delay 1.0",
        Some("SET ADJUST DELAY 1")
    );
    mc!(schedule_nothing, master_setting, "move", None);
    mc!(schedule_bad_days, master_setting, "move days MTWTFSS", None);
    mc!(schedule_bad_hours, master_setting, "move next soon", None);
    mc!(
        zone,
        master_setting,
        "zone europe/paris",
        Some("SET ZONE Europe/Paris")
    );
    mc!(zone_unknown, master_setting, "zone Mars/Olympus", None);
    mc!(
        comment,
        master_setting,
        "comment Friday club, gunboat",
        Some("SET COMMENT Friday club, gunboat")
    );
    mc!(nolist, master_setting, "nolist", Some("SET NOLIST"));
    mc!(private, master_setting, "private", Some("SET NOLIST"));
    mc!(
        join_password,
        master_setting,
        "join password clubword",
        Some("SET JOIN PASSWORD clubword")
    );
    mc!(
        invite,
        master_setting,
        "invite ann@example.org bob@example.org",
        Some("SET INVITE ann@example.org bob@example.org")
    );
    mc!(invite_nobody, master_setting, "invite", None);
    mc!(
        anonymous,
        master_setting,
        "anonymous",
        Some("SET ANONYMOUS")
    );
    mc!(noreveal, master_setting, "noreveal", Some("SET NOREVEAL"));
    mc!(
        takeover_history,
        master_setting,
        "takeover history",
        Some("SET TAKEOVER HISTORY")
    );
    mc!(
        no_takeover_history,
        master_setting,
        "no takeover history",
        Some("SET NO TAKEOVER HISTORY")
    );
    mc!(
        notakeover_history,
        master_setting,
        "notakeover history",
        Some("SET NO TAKEOVER HISTORY")
    );
    mc!(
        addresses,
        master_setting,
        "addresses shown",
        Some("SET ADDRESSES SHOWN")
    );
    mc!(
        maxabsence,
        master_setting,
        "maxabsence 21",
        Some("SET MAXABSENCE 21")
    );
    mc!(
        promote,
        master_command,
        "promote co@example.org",
        Some("PROMOTE co@example.org")
    );
    mc!(promote_nobody, master_command, "promote", None);
    mc!(unstart, master_command, "UNSTART", Some("UNSTART"));
    mc!(
        declare_draw,
        master_command,
        "declare draw AEF",
        Some("DECLARE DRAW Austria England France")
    );
    mc!(
        declare_winner,
        master_command,
        "declare winner t",
        Some("DECLARE WINNER Turkey")
    );
}
