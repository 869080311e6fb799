//! njudge's words that a dipjudge game reads its own way: the settings and commands of
//! njudge's `data/index` that have no command of their own here because dipjudge does the
//! thing otherwise (fake press, access by site, rated games, proxy orders, a board's
//! options, …). Each is read as a typed [`NjudgeWord`] and answered with a sentence that says
//! what dipjudge does instead (`bulletin::settings::njudge_word`); never `SYNTAX`.
//!
//! The njudge words that do have a dipjudge meaning are read here too, as the command they
//! mean (`SET CD` is `SET NMR`, `SET NO GREY` is `SET WHITE`, `WITHDRAW` is `RESIGN`, …):
//! [`njudge_setting`] after `SET`, [`njudge_command`] for a line's first words.
//! grammar/master.md and grammar/player.md list them; docs/decisions.md says why each
//! differs from njudge.

use crate::map::Power;

use super::Command;
use super::lexeme::{PResult, Why, blanks, end_of_line, fail, game_name, keyword, one_of, token};
use super::master::MasterCommand;
pub use super::njudge_word::{Assignment, NjudgeWord};
use super::player::PlayerCommand;
use super::settings::{ObserverLevel, PressLevel};

/// The njudge settings after `SET` that read as another dipjudge setting, or as an
/// [`NjudgeWord`]: the phrase (longest first where one begins another) and what it is.
/// A phrase is read whole: the rest of the line must be empty, or one of the optional
/// words njudge allows after it (`PRESS`, `BROADCAST`).
const SET_PHRASES: &[(&str, Setting)] = &[
    // Aliases of dipjudge's own settings.
    ("no grey", Setting::Is(Alias::Press(PressLevel::White))),
    ("no gray", Setting::Is(Alias::Press(PressLevel::White))),
    ("no white", Setting::Is(Alias::Press(PressLevel::Grey))),
    ("press none", Setting::Is(Alias::Press(PressLevel::None))),
    ("none", Setting::Is(Alias::Press(PressLevel::None))),
    ("normal press", Setting::Is(Alias::NormalPress)),
    ("observers no", Setting::Is(Alias::ObserverNone)),
    ("observer no", Setting::Is(Alias::ObserverNone)),
    ("unlist", Setting::Is(Alias::Unlisted)),
    ("no cd", Setting::Is(Alias::Nmr(false))),
    ("cd", Setting::Is(Alias::Nmr(true))),
    // Words dipjudge does otherwise.
    ("auto start", Setting::Word(NjudgeWord::AutoStart)),
    ("no manual start", Setting::Word(NjudgeWord::AutoStart)),
    ("manual start", Setting::Word(NjudgeWord::ManualStart)),
    (
        "prfboth",
        Setting::Word(NjudgeWord::Assignment(Assignment::Both)),
    ),
    (
        "prflist",
        Setting::Word(NjudgeWord::Assignment(Assignment::List)),
    ),
    (
        "prfrand",
        Setting::Word(NjudgeWord::Assignment(Assignment::Random)),
    ),
    ("auto process", Setting::Word(NjudgeWord::AutoProcess)),
    ("autoproc", Setting::Word(NjudgeWord::AutoProcess)),
    ("no manual process", Setting::Word(NjudgeWord::AutoProcess)),
    ("manual process", Setting::Word(NjudgeWord::ManualProcess)),
    ("auto create", Setting::Word(NjudgeWord::AutoCreate)),
    ("no resume", Setting::Word(NjudgeWord::NoResume)),
    ("strict grace", Setting::Word(NjudgeWord::StrictGrace)),
    ("strict wait", Setting::Word(NjudgeWord::StrictWait)),
    ("strict convoy", Setting::Word(NjudgeWord::StrictConvoy)),
    ("access", Setting::Rest(NjudgeWord::Access)),
    ("allow player", Setting::Rest(NjudgeWord::AllowPlayer)),
    ("allow", Setting::Rest(NjudgeWord::AllowPlayer)),
    ("deny player", Setting::Rest(NjudgeWord::DenyPlayer)),
    ("deny", Setting::Rest(NjudgeWord::DenyPlayer)),
    ("approved", Setting::Word(NjudgeWord::Approved)),
    ("level", Setting::Rest(NjudgeWord::Level)),
    ("unrated", Setting::Word(NjudgeWord::Rated(false))),
    ("rated", Setting::Word(NjudgeWord::Rated(true))),
    ("unmoderated", Setting::Word(NjudgeWord::Unmoderated)),
    ("unmoderate", Setting::Word(NjudgeWord::Unmoderated)),
    ("moderated", Setting::Word(NjudgeWord::Moderated)),
    ("moderate", Setting::Word(NjudgeWord::Moderated)),
    (
        "no minor press",
        Setting::Word(NjudgeWord::MinorPress(false)),
    ),
    ("minor press", Setting::Word(NjudgeWord::MinorPress(true))),
    (
        "no blank press",
        Setting::Word(NjudgeWord::BlankPress(false)),
    ),
    ("blank press", Setting::Word(NjudgeWord::BlankPress(true))),
    ("no fake", Setting::Word(NjudgeWord::Fake(false))),
    ("fake", Setting::Word(NjudgeWord::Fake(true))),
    ("partial fakes", Setting::Rest(NjudgeWord::Fake(true))),
    ("partial may", Setting::Rest(NjudgeWord::Fake(true))),
    (
        "no grace press",
        Setting::Word(NjudgeWord::GracePress(false)),
    ),
    ("grace press", Setting::Word(NjudgeWord::GracePress(true))),
    ("no late press", Setting::Word(NjudgeWord::LatePress(false))),
    ("late press", Setting::Word(NjudgeWord::LatePress(true))),
    ("must order", Setting::Word(NjudgeWord::MustOrder)),
    (
        "no postal press",
        Setting::Word(NjudgeWord::PostalPress(false)),
    ),
    ("postal press", Setting::Word(NjudgeWord::PostalPress(true))),
    ("touch press", Setting::Word(NjudgeWord::TouchPress)),
    (
        "no watch all press",
        Setting::Word(NjudgeWord::WatchAllPress(false)),
    ),
    (
        "no watch allpress",
        Setting::Word(NjudgeWord::WatchAllPress(false)),
    ),
    (
        "watch all press",
        Setting::Word(NjudgeWord::WatchAllPress(true)),
    ),
    (
        "watch allpress",
        Setting::Word(NjudgeWord::WatchAllPress(true)),
    ),
    (
        "no concessions",
        Setting::Word(NjudgeWord::Concessions(false)),
    ),
    ("concessions", Setting::Word(NjudgeWord::Concessions(true))),
    ("no dias", Setting::Word(NjudgeWord::Dias(false))),
    ("dias", Setting::Word(NjudgeWord::Dias(true))),
    ("no late count", Setting::Word(NjudgeWord::LateCount(false))),
    ("late count", Setting::Rest(NjudgeWord::LateCount(true))),
    ("secret", Setting::Word(NjudgeWord::Secret)),
    ("no show", Setting::Word(NjudgeWord::Show(false))),
    ("show", Setting::Word(NjudgeWord::Show(true))),
    ("proxy", Setting::Rest(NjudgeWord::Proxy)),
    ("gunboat", Setting::Word(NjudgeWord::Gunboat)),
    // A board's options (njudge's, for the variant's board).
    (
        "any centres",
        Setting::Word(NjudgeWord::BoardOption("ANY CENTRES")),
    ),
    (
        "any centers",
        Setting::Word(NjudgeWord::BoardOption("ANY CENTRES")),
    ),
    (
        "any centre",
        Setting::Word(NjudgeWord::BoardOption("ANY CENTRES")),
    ),
    (
        "any center",
        Setting::Word(NjudgeWord::BoardOption("ANY CENTRES")),
    ),
    (
        "one centres",
        Setting::Word(NjudgeWord::BoardOption("ONE CENTRE")),
    ),
    (
        "one centers",
        Setting::Word(NjudgeWord::BoardOption("ONE CENTRE")),
    ),
    (
        "one centre",
        Setting::Word(NjudgeWord::BoardOption("ONE CENTRE")),
    ),
    (
        "one center",
        Setting::Word(NjudgeWord::BoardOption("ONE CENTRE")),
    ),
    (
        "home centres",
        Setting::Word(NjudgeWord::BoardOption("HOME CENTRES")),
    ),
    (
        "home centers",
        Setting::Word(NjudgeWord::BoardOption("HOME CENTRES")),
    ),
    (
        "home centre",
        Setting::Word(NjudgeWord::BoardOption("HOME CENTRES")),
    ),
    (
        "home center",
        Setting::Word(NjudgeWord::BoardOption("HOME CENTRES")),
    ),
    (
        "any disband",
        Setting::Word(NjudgeWord::BoardOption("ANY DISBAND")),
    ),
    (
        "normal disband",
        Setting::Word(NjudgeWord::BoardOption("NORMAL DISBAND")),
    ),
    (
        "no auto disband",
        Setting::Word(NjudgeWord::BoardOption("NO AUTO DISBAND")),
    ),
    (
        "auto disband",
        Setting::Word(NjudgeWord::BoardOption("AUTO DISBAND")),
    ),
    (
        "blank board",
        Setting::Word(NjudgeWord::BoardOption("BLANK BOARD")),
    ),
    (
        "empty board",
        Setting::Word(NjudgeWord::BoardOption("BLANK BOARD")),
    ),
    (
        "no duality",
        Setting::Word(NjudgeWord::BoardOption("NO DUALITY")),
    ),
    ("duality", Setting::Rest(NjudgeWord::BoardOption("DUALITY"))),
    (
        "no transform",
        Setting::Word(NjudgeWord::BoardOption("NO TRANSFORM")),
    ),
    (
        "no trafo",
        Setting::Word(NjudgeWord::BoardOption("NO TRANSFORM")),
    ),
    (
        "transform",
        Setting::Rest(NjudgeWord::BoardOption("TRANSFORM")),
    ),
    ("trafo", Setting::Rest(NjudgeWord::BoardOption("TRANSFORM"))),
    // Anyone's.
    (
        "normal broadcast",
        Setting::Word(NjudgeWord::Broadcast(true)),
    ),
    ("no broadcast", Setting::Word(NjudgeWord::Broadcast(false))),
    ("broadcast", Setting::Word(NjudgeWord::Broadcast(true))),
];

/// What an njudge `SET` phrase is.
#[derive(Clone, Copy, Debug)]
enum Setting {
    /// Another name of a dipjudge setting.
    Is(Alias),
    /// A word dipjudge does otherwise; the phrase ends the line (or an optional word).
    Word(NjudgeWord),
    /// The same, with words after it that are read as part of it (`SET ACCESS ANY`).
    Rest(NjudgeWord),
}

#[derive(Clone, Copy, Debug)]
enum Alias {
    Press(PressLevel),
    NormalPress,
    ObserverNone,
    Unlisted,
    Nmr(bool),
}

impl Alias {
    fn command(self) -> Command {
        Command::Master(match self {
            Alias::Press(level) => MasterCommand::SetPress(level),
            Alias::NormalPress => MasterCommand::SetNoAllPress,
            Alias::ObserverNone => MasterCommand::SetObserver(ObserverLevel::None),
            Alias::Unlisted => MasterCommand::SetListed { listed: false },
            Alias::Nmr(true) => MasterCommand::SetNmr,
            Alias::Nmr(false) => MasterCommand::SetNoNmr,
        })
    }
}

/// The command an [`NjudgeWord`] is, in its role.
pub(crate) fn word_command(w: NjudgeWord) -> Command {
    if w.by_master() {
        Command::Master(MasterCommand::Njudge(w))
    } else {
        Command::Player(PlayerCommand::Njudge(w))
    }
}

/// The optional words njudge allows after a setting (`SET NO GREY PRESS`).
fn optional_tail(r: &str) -> &str {
    for tail in ["press", "broadcast", "by default"] {
        if let Ok((after, _)) = keyword(tail)(r)
            && end_of_line(after).is_ok()
        {
            return after;
        }
    }
    r
}

// njudge_setting = njudge_phrase [ "PRESS" | "BROADCAST" ] | "PREFERENCE" ( "*" | bracketed )
//                | "ADDRESS" [ address address ] | "CONC" [ power ] ;   (after SET)
/// An njudge setting (the words after `SET`) as the command it is; `None` when the line
/// is no njudge setting (it is then read as dipjudge's own).
pub(crate) fn njudge_setting(i: &str) -> Option<Command> {
    let start = blanks(i);
    if let Some(c) = preference(start) {
        return Some(c);
    }
    if let Some(c) = address(start) {
        return Some(c);
    }
    if let Ok((r, _)) = one_of(&["concede", "conc"], "CONCEDE")(start)
        && end_of_line(r).is_ok()
    {
        return Some(word_command(NjudgeWord::ConcedeWhom));
    }
    if let Ok((r, _)) = keyword("conc")(start) {
        let (r, to) = super::lexeme::power_or_initial(r).ok()?;
        end_of_line(r).ok()?;
        return Some(Command::Player(PlayerCommand::SetConcede { to }));
    }
    for (phrase, what) in SET_PHRASES {
        let Ok((r, _)) = keyword(phrase)(start) else {
            continue;
        };
        let r = optional_tail(r);
        match what {
            Setting::Is(alias) if end_of_line(r).is_ok() => return Some(alias.command()),
            Setting::Word(w) if end_of_line(r).is_ok() => return Some(word_command(*w)),
            Setting::Rest(w) => return Some(word_command(*w)),
            _ => {}
        }
    }
    None
}

/// `SET PREFERENCE *` (no preference: any power) and njudge's bracketed lists
/// (`E[FGR][TAI]`: England first, then France, Germany and Russia, …): the powers in the
/// order written, brackets dropped (dipjudge reads a list in order; njudge's equal ranks
/// are taken in the order they are written).
fn preference(start: &str) -> Option<Command> {
    let (r, _) = one_of(&["preferences", "preference"], "PREFERENCE")(start).ok()?;
    let rest = blanks(r).trim_end();
    if rest == "*" {
        return Some(Command::Player(PlayerCommand::SetPreference {
            powers: Vec::new(),
        }));
    }
    if !rest.contains('[') {
        return None;
    }
    let mut powers: Vec<Power> = Vec::new();
    let mut depth = 0u8;
    for c in rest.chars() {
        match c {
            '[' if depth == 0 => depth = 1,
            ']' if depth == 1 => depth = 0,
            ' ' | ',' => {}
            c => {
                let p = Power::from_initial(c.to_ascii_uppercase())?;
                if powers.contains(&p) {
                    return None;
                }
                powers.push(p);
            }
        }
    }
    (depth == 0).then_some(Command::Player(PlayerCommand::SetPreference { powers }))
}

/// `SET ADDRESS` bare (njudge: the address the mail came from) and `SET ADDRESS a b`.
fn address(start: &str) -> Option<Command> {
    let (r, _) = keyword("address")(start).ok()?;
    if end_of_line(r).is_ok() {
        return Some(Command::Player(PlayerCommand::SetAddress {
            address: String::new(),
        }));
    }
    let (r, a) = token(r).ok()?;
    let (r, b) = token(r).ok()?;
    end_of_line(r).ok()?;
    (a.contains('@') && b.contains('@')).then(|| word_command(NjudgeWord::TwoAddresses))
}

/// The first words of njudge's commands read here (each also reads as [`njudge_command`]).
pub(crate) const KEYWORDS: &[&str] = &[
    "withdraw", "predict", "diary", "get", "send", "info", "who", "whogame", "phase",
];

// njudge_command = "WITHDRAW" | "PREDICT" | "DIARY" [ text ] | ( "GET" | "SEND" [ "ME" ] ) file
//                | "INFO" [ "PLAYER" ] | "WHO" ( "IS" [ user ] | "GAME" [ game_name ] | user )
//                | "WHOGAME" [ game_name ] [ "FULL" ] | "PHASE" season year phase_kind ;
/// One of njudge's commands that dipjudge reads by its first word (see [`KEYWORDS`]).
pub(crate) fn njudge_command(i: &str) -> PResult<'_, Command> {
    let start = blanks(i);
    let (r, w) = one_of(KEYWORDS, "an njudge command")(start)?;
    let player = |c| Ok(("", Command::Player(c)));
    match w {
        "withdraw" => {
            end_of_line(r)?;
            player(PlayerCommand::Resign)
        }
        "predict" => {
            end_of_line(r)?;
            Ok(("", Command::Master(MasterCommand::Preview)))
        }
        "diary" => Ok(("", word_command(NjudgeWord::Diary))),
        "get" | "send" => {
            let r = keyword("me")(r).map_or(r, |(r, _)| r);
            file(r)
        }
        "info" => {
            let r = keyword("player")(r).map_or(r, |(r, _)| r);
            end_of_line(r)?;
            player(PlayerCommand::Whois { who: String::new() })
        }
        "who" | "whogame" => who(w, r),
        _ => later_phase(r),
    }
}

/// `GET file`: the files a dipjudge judge answers (`info`, `help`, `package`, `index`
/// are HELP; `dedication` the sender's record), and a sentence for the rest.
fn file(r: &str) -> PResult<'_, Command> {
    if end_of_line(r).is_ok() {
        // A bare `GET` or `SEND ME`: the list of what the judge sends.
        return Ok(("", Command::Player(PlayerCommand::Help)));
    }
    let (after, name) = token(r)?;
    end_of_line(after)?;
    let name = name.to_ascii_lowercase();
    let cmd = match name.as_str() {
        "info" | "help" | "package" | "index" | "guide" | "flist" => {
            Command::Player(PlayerCommand::Help)
        }
        "dedication" => Command::Player(PlayerCommand::Whois { who: String::new() }),
        _ => word_command(NjudgeWord::File),
    };
    Ok(("", cmd))
}

/// `WHO user`, `WHO IS [user]` (WHOIS), `WHO GAME [name]`, `WHOGAME [name] [FULL]`.
fn who<'a>(w: &str, r: &'a str) -> PResult<'a, Command> {
    let game_words = if w == "whogame" {
        Some(r)
    } else {
        keyword("game")(r).ok().map(|(r, _)| r)
    };
    if let Some(r) = game_words {
        let r = keyword("full")(r).map_or(r, |(r, _)| r);
        if end_of_line(r).is_ok() {
            return Ok(("", Command::Player(PlayerCommand::WhoGame { game: None })));
        }
        let (r, g) = game_name(r)?;
        let r = keyword("full")(r).map_or(r, |(r, _)| r);
        end_of_line(r)?;
        return Ok((
            "",
            Command::Player(PlayerCommand::WhoGame { game: Some(g) }),
        ));
    }
    let r = keyword("is")(r).map_or(r, |(r, _)| r);
    let who = blanks(r).trim_end();
    if who.chars().count() > 100 {
        return fail(who, Why::Expected("a name of at most 100 characters"));
    }
    Ok((
        "",
        Command::Player(PlayerCommand::Whois { who: who.into() }),
    ))
}

/// `PHASE season year phase` (`PHASE Fall 1901 Movement`, `PHASE F1901M`).
fn later_phase(r: &str) -> PResult<'_, Command> {
    let (r, phase) = super::master::long_phase(r)?;
    end_of_line(r)?;
    Ok(("", Command::Player(PlayerCommand::Phase { phase })))
}

/// Whether a line is njudge's `BECOME MASTER` (a player's word; `BECOME power` is the
/// master's).
pub(crate) fn is_become_master(norm: &str) -> bool {
    keyword("become master")(norm).is_ok_and(|(r, _)| end_of_line(r).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> Option<String> {
        njudge_setting(text).map(|c| match c {
            Command::Master(m) => m.render(),
            Command::Player(p) => p.render(),
            _ => String::new(),
        })
    }

    #[test]
    fn aliases_read_as_dipjudges_settings() {
        assert_eq!(set("no grey").as_deref(), Some("SET WHITE"));
        assert_eq!(set("NO GREY PRESS").as_deref(), Some("SET WHITE"));
        assert_eq!(set("no white").as_deref(), Some("SET GREY"));
        assert_eq!(set("press none").as_deref(), Some("SET NO PRESS"));
        assert_eq!(set("normal press").as_deref(), Some("SET NO ALL PRESS"));
        assert_eq!(set("observer no").as_deref(), Some("SET OBSERVER NONE"));
        assert_eq!(set("unlist").as_deref(), Some("SET NOLIST"));
        assert_eq!(set("cd").as_deref(), Some("SET NMR"));
        assert_eq!(set("nocd").as_deref(), Some("SET NONMR"));
        assert_eq!(set("conc f").as_deref(), Some("SET CONCEDE France"));
    }

    #[test]
    fn preference_forms() {
        assert_eq!(
            set("preference E[FGR][TAI]").as_deref(),
            Some("SET PREFERENCE England France Germany Russia Turkey Austria Italy")
        );
        assert_eq!(set("preference *").as_deref(), Some("SET PREFERENCE "));
        assert_eq!(set("preference E[FGR"), None, "an open bracket");
        assert_eq!(set("preference E[FE]"), None, "a power twice");
        assert_eq!(set("preference EFG"), None, "dipjudge's own form");
    }

    #[test]
    fn words_done_otherwise_keep_their_role() {
        for (text, master) in [
            ("fake", true),
            ("partial fakes broadcast", true),
            ("access any-site", true),
            ("any centres", true),
            ("transform move", true),
            ("broadcast", false),
            ("no broadcast press", false),
            ("moderated", false),
            ("address a@x.test b@y.test", false),
            ("conc", false),
        ] {
            match njudge_setting(text) {
                Some(Command::Master(MasterCommand::Njudge(w))) => assert!(master, "{text}: {w:?}"),
                Some(Command::Player(PlayerCommand::Njudge(w))) => {
                    assert!(!master, "{text}: {w:?}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        assert_eq!(set("fake news"), None, "a word after a whole phrase");
        assert_eq!(set("deadline monday"), None, "dipjudge's own");
    }

    #[test]
    fn commands() {
        let cmd = |t: &str| njudge_command(t).ok().map(|(_, c)| c);
        assert_eq!(
            cmd("withdraw"),
            Some(Command::Player(PlayerCommand::Resign))
        );
        assert_eq!(
            cmd("predict"),
            Some(Command::Master(MasterCommand::Preview))
        );
        assert_eq!(cmd("get info"), Some(Command::Player(PlayerCommand::Help)));
        assert_eq!(
            cmd("send me package"),
            Some(Command::Player(PlayerCommand::Help))
        );
        assert_eq!(
            cmd("get dedication"),
            Some(Command::Player(PlayerCommand::Whois { who: String::new() }))
        );
        assert_eq!(
            cmd("who is jo@x.test"),
            Some(Command::Player(PlayerCommand::Whois {
                who: "jo@x.test".into()
            }))
        );
        assert_eq!(
            cmd("whogame"),
            Some(Command::Player(PlayerCommand::WhoGame { game: None }))
        );
        assert!(matches!(
            cmd("who game alpha full"),
            Some(Command::Player(PlayerCommand::WhoGame { game: Some(_) }))
        ));
        assert!(matches!(
            cmd("phase fall 1901 movement"),
            Some(Command::Player(PlayerCommand::Phase { .. }))
        ));
        assert!(matches!(
            cmd("phase F1902R"),
            Some(Command::Player(PlayerCommand::Phase { .. }))
        ));
        assert_eq!(cmd("phase sometime"), None);
        assert_eq!(cmd("predict now"), None);
    }
}
