//! Master (GM) commands (grammar/master.md): njudge's words for running a game. `OFFICIAL`
//! opens a press block and lives in [`super::press`].

use std::fmt;

use crate::map::Power;
use crate::rules::Phase;

use super::lexeme::{
    Date, PResult, Why, blanks, cut, date, end_of_line, expect, fail, name_word, number, one_of,
    power_or_initial, token,
};

/// What kind of press a game allows (`SET NO PRESS`, `SET GREY`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PressSetting {
    NoPress,
    /// Grey (anonymous) press only.
    Grey,
    /// White (signed) press only.
    White,
    /// Both.
    WhiteGrey,
}

/// Who may observe a game (`SET OBSERVER …`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObserverSetting {
    Any,
    White,
    None,
}

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
    SetPress(PressSetting),
    SetPartial,
    /// `SET ALL PRESS`: the master receives a copy of every piece of private press.
    SetAllPress,
    /// `SET NO ALL PRESS`.
    SetNoAllPress,
    SetNoPartial,
    SetObserver(ObserverSetting),
    /// `SET VARIANT name`: the name is checked by the variant registry later.
    SetVariant {
        name: String,
    },
    /// `EJECT power|address`: the player leaves (the power is open for takeover), or an
    /// observer's subscription ends.
    Eject {
        who: EjectTarget,
    },
    Promote,
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
    /// `SET QUIET` (true) or `SET NOQUIET` (njudge): whether abandonments and takeovers are
    /// told to the master and the player concerned only.
    SetQuiet(bool),
    /// `SET APPROVAL` (true) or `SET NOAPPROVAL`: whether a takeover waits for the master's
    /// `APPROVE`.
    SetApproval(bool),
    /// `SET ABANDON n`: a seat whose player missed n phases in a row is abandoned (0:
    /// never).
    SetAbandon {
        count: u32,
    },
    /// `SET TAKEOVER n`: the least hours a newcomer gets before the deadline.
    SetTakeover {
        hours: u32,
    },
    /// `ROLLBACK` (one turn) or `ROLLBACK turn`.
    Rollback {
        turn: Option<Turn>,
    },
    SetCentres {
        count: u32,
    },
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
                PressSetting::NoPress => "SET NO PRESS".into(),
                PressSetting::Grey => "SET GREY".into(),
                PressSetting::White => "SET WHITE".into(),
                PressSetting::WhiteGrey => "SET WHITE/GREY".into(),
            },
            MasterCommand::SetPartial => "SET PARTIAL".into(),
            MasterCommand::SetAllPress => "SET ALL PRESS".into(),
            MasterCommand::SetNoAllPress => "SET NO ALL PRESS".into(),
            MasterCommand::SetNoPartial => "SET NO PARTIAL".into(),
            MasterCommand::SetObserver(o) => match o {
                ObserverSetting::Any => "SET OBSERVER ANY".into(),
                ObserverSetting::White => "SET OBSERVER WHITE".into(),
                ObserverSetting::None => "SET OBSERVER NONE".into(),
            },
            MasterCommand::SetVariant { name } => format!("SET VARIANT {name}"),
            MasterCommand::Eject { who } => format!("EJECT {who}"),
            MasterCommand::Promote => "PROMOTE".into(),
            MasterCommand::ForceBegin => "FORCE BEGIN".into(),
            MasterCommand::Approve { power } => format!("APPROVE {power}"),
            MasterCommand::Reject { power } => format!("REJECT {power}"),
            MasterCommand::SetQuiet(true) => "SET QUIET".into(),
            MasterCommand::SetQuiet(false) => "SET NOQUIET".into(),
            MasterCommand::SetApproval(true) => "SET APPROVAL".into(),
            MasterCommand::SetApproval(false) => "SET NOAPPROVAL".into(),
            MasterCommand::SetAbandon { count } => format!("SET ABANDON {count}"),
            MasterCommand::SetTakeover { hours } => format!("SET TAKEOVER {hours}"),
            MasterCommand::Rollback { turn: None } => "ROLLBACK".into(),
            MasterCommand::Rollback { turn: Some(t) } => format!("ROLLBACK {t}"),
            MasterCommand::SetCentres { count } => format!("SET CENTRES {count}"),
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
    "force",
    "approve",
    "reject",
];

// phase = season year phase_kind ;   (`S1901M`, as njudge writes it)
pub(crate) fn phase(i: &str) -> PResult<'_, Phase> {
    let start = blanks(i);
    let (r, w) = name_word(start)?;
    match Phase::parse(w) {
        Some(p) => Ok((r, p)),
        None => fail(start, Why::Expected("a phase (like S1901M)")),
    }
}

// master_command = "BECOME" power | "PROCESS" [ "!" | phase ] | "PREVIEW" | "PAUSE"
//                | "RESUME" | "TERMINATE" | "EJECT" ( power | address ) | "PROMOTE"
//                | "ROLLBACK" [ phase | number ] | "FORCE BEGIN"
//                | "APPROVE" power | "REJECT" power ;
pub(crate) fn master_command(i: &str) -> PResult<'_, MasterCommand> {
    let start = blanks(i);
    let (r, w) = one_of(KEYWORDS, "a master command")(start)?;
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
                let (r, p) = cut(phase(r))?;
                (r, MasterCommand::Process { phase: Some(p) })
            }
        }
        "preview" => (r, MasterCommand::Preview),
        "pause" => (r, MasterCommand::Pause),
        "resume" => (r, MasterCommand::Resume),
        "terminate" => (r, MasterCommand::Terminate),
        "promote" => (r, MasterCommand::Promote),
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

// master_setting = "DEADLINE" date | "GRACE" date | "START" date | "NMR" | "NONMR"
//                | "NO PRESS" | "WHITE/GREY" | "GREY/WHITE" | "GREY" | "WHITE"
//                | "PARTIAL" | "NO PARTIAL" | "ALL PRESS" | "NO ALL PRESS"
//                | "OBSERVER" ( "ANY" | "WHITE" | "NONE" )
//                | "VARIANT" name | ( "CENTERS" | "CENTRES" ) number
//                | "QUIET" | "NOQUIET" | "APPROVAL" | "NOAPPROVAL"
//                | "ABANDON" number | "TAKEOVER" number ;   (after SET)
pub(crate) fn master_setting(i: &str) -> PResult<'_, MasterCommand> {
    let start = blanks(i);
    let (r, w) = one_of(
        &[
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
            "variant",
            "centers",
            "centres",
            "no quiet",
            "quiet",
            "no approval",
            "approval",
            "abandon",
            "takeover",
        ],
        "a setting",
    )(start)?;
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
        "no press" => (r, MasterCommand::SetPress(PressSetting::NoPress)),
        "grey" | "gray" => (r, MasterCommand::SetPress(PressSetting::Grey)),
        "white" => (r, MasterCommand::SetPress(PressSetting::White)),
        "no partial" => (r, MasterCommand::SetNoPartial),
        "all press" => (r, MasterCommand::SetAllPress),
        "no all press" => (r, MasterCommand::SetNoAllPress),
        "partial" => (r, MasterCommand::SetPartial),
        "observers" | "observer" => {
            let (r, o) = cut(one_of(&["any", "white", "none"], "ANY, WHITE or NONE")(r))?;
            (
                r,
                MasterCommand::SetObserver(match o {
                    "any" => ObserverSetting::Any,
                    "white" => ObserverSetting::White,
                    _ => ObserverSetting::None,
                }),
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
        "no quiet" | "quiet" => (r, MasterCommand::SetQuiet(w == "quiet")),
        "no approval" | "approval" => (r, MasterCommand::SetApproval(w == "approval")),
        "abandon" => {
            let (r, n) = cut(expect("a number of missed phases (0: never)", number)(r))?;
            (r, MasterCommand::SetAbandon { count: n })
        }
        "takeover" => {
            let (r, n) = cut(expect("a number of hours", number)(r))?;
            (r, MasterCommand::SetTakeover { hours: n })
        }
        _ => (r, MasterCommand::SetPress(PressSetting::WhiteGrey)),
    };
    let (r, _) = cut(end_of_line(r))?;
    Ok((r, cmd))
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
    mc!(
        white_grey,
        master_setting,
        "grey/white",
        Some("SET WHITE/GREY")
    );
    mc!(
        observer,
        master_setting,
        "observer white",
        Some("SET OBSERVER WHITE")
    );
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
}
