//! Player commands (grammar/player.md): the njudge words for joining, watching, listing and
//! setting one's own options. Press blocks are in [`super::press`].

use std::fmt;

use crate::map::Power;

use super::lexeme::{
    Date, GameName, PResult, Why, blanks, cut, date, end_of_line, expect, fail, game_name, keyword,
    name_word, number, one_of, password, power_list, power_or_initial, token,
};

/// Who signs on: a power (by its initial), a new player joining a forming game (`?`), the
/// master (`M`) or an observer (`O`); or a newcomer taking an abandoned power over
/// (DPjudge's `TAKEOVER power game password`; njudge's `SIGNON <initial>game` does the same
/// for an abandoned power).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignonAs {
    Power(Power),
    Join,
    Master,
    Observer,
    Takeover(Power),
}

impl fmt::Display for SignonAs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignonAs::Power(p) | SignonAs::Takeover(p) => write!(f, "{}", p.initial()),
            SignonAs::Join => f.write_str("?"),
            SignonAs::Master => f.write_str("M"),
            SignonAs::Observer => f.write_str("O"),
        }
    }
}

/// One player command, typed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlayerCommand {
    Help,
    Version,
    /// `LIST` (no game), `LIST game`.
    List {
        game: Option<GameName>,
    },
    /// `LIST FULL`.
    ListFull,
    /// `LIST PAGE n`, `LIST FULL PAGE n`: one page of the list (of `LIST FULL` with
    /// `full`), for a judge with more games than one mail should list.
    ListPage {
        full: bool,
        page: u32,
    },
    /// `SUMMARY game`, or a bare `SUMMARY` after SIGNON (None: the signed-on game).
    Summary {
        game: Option<GameName>,
    },
    /// `EXPORT game`: the game's record as a JSON attachment (`docs/export.md`).
    Export {
        game: GameName,
    },
    /// `HISTORY game [FROM date] [TO date] [LINES n]`, or njudge's second form
    /// `HISTORY game EXCLSTART turn [EXCLEND turn] [BROAD]` (`exclude`).
    History {
        /// None: a bare `HISTORY` after SIGNON, the signed-on game.
        game: Option<GameName>,
        from: Option<Date>,
        to: Option<Date>,
        lines: Option<u32>,
        exclude: Option<Exclusion>,
    },
    /// `CREATE ?game password [variant] [options]`; variant and options are words, checked
    /// later by the game layer.
    Create {
        game: GameName,
        password: String,
        variant: Option<String>,
        options: Vec<String>,
    },
    /// `SIGNON Fgame password`; joining a private game, `SIGNON ?game password code` (its
    /// join password, or the code of an invitation).
    Signon {
        who: SignonAs,
        game: GameName,
        password: String,
        code: Option<String>,
    },
    /// `OBSERVE game [password]` (also `WATCH`); the password is not needed (empty: none).
    Observe {
        game: GameName,
        password: String,
    },
    SetPassword {
        password: String,
    },
    /// `SET ADDRESS address`; njudge's bare `SET ADDRESS` (empty): the address the mail
    /// came from.
    SetAddress {
        address: String,
    },
    SetWait,
    SetNoWait,
    /// `SET ABSENCE from [TO to]` (also `HOLIDAY`, `VACATION`).
    SetAbsence {
        from: Date,
        to: Option<Date>,
    },
    /// `SET NOABSENCE [date]`: the absence that holds `date`, or (no date) every absence of
    /// the sender's.
    SetNoAbsence {
        date: Option<Date>,
    },
    /// `SET DRAW` (empty: a draw among all survivors) or `SET DRAW powers`.
    SetDraw {
        powers: Vec<Power>,
    },
    SetNoDraw,
    SetConcede {
        to: Power,
    },
    /// `SET NOCONCEDE`: withdraws a concession.
    SetNoConcede,
    SetPreference {
        powers: Vec<Power>,
    },
    Resign,
    Signoff,
    /// `UNOBSERVE game`, and njudge's `SIGNOFF game`: this address stops observing a game.
    Unobserve {
        game: GameName,
    },
    /// `CONFIRM code`: this address answers the confirmation the judge mailed to it.
    Confirm {
        code: String,
    },
    Clear,
    /// `MAP game [phase]`: the picture of a processed phase (the last one when none is
    /// named).
    Map {
        game: GameName,
        phase: Option<crate::rules::Phase>,
    },
    /// `MAP game ALL`: every processed phase of a finished game as one animated picture.
    MapAll {
        game: GameName,
    },
    /// `SET MAP ON|OFF`: whether this address's results carry the picture of the phase.
    SetMap {
        on: bool,
    },
    /// njudge's `REGISTER` block: `Field: value` lines up to `END`, kept as the profile of
    /// the sender's address (issue 31). `closed`: its `END` was read.
    Register {
        fields: Vec<(String, String)>,
        closed: bool,
    },
    /// `WHOIS address` or `WHOIS name` (also njudge's `WHO`): a person's public profile
    /// and reliability record; empty (`GET DEDICATION`, `INFO PLAYER`, a bare `WHO IS`):
    /// the sender's own.
    Whois {
        who: String,
    },
    /// njudge's `WHOGAME [game]` (`WHO GAME`): the game's players, as its listing shows
    /// them (None: the signed-on game).
    WhoGame {
        game: Option<GameName>,
    },
    /// njudge's `PHASE season year phase`: the orders after it are for that phase.
    Phase {
        phase: crate::rules::Phase,
    },
    /// One of njudge's words a dipjudge game does otherwise (`DIARY`, `MAP *`, `SIGNON ?
    /// password`): answered with what dipjudge does instead ([`super::njudge`]).
    Njudge(super::njudge_word::NjudgeWord),
    /// `I AM ALSO address` (njudge's `IAMALSO`): the address is the sender's too, once it
    /// answers the confirmation mailed to it.
    AlsoAt {
        address: String,
    },
}

/// The most fields a `REGISTER` block keeps; the lines after them are not read.
pub const MAX_REGISTER_FIELDS: usize = 40;
/// The most characters of a field's name kept.
pub const MAX_FIELD_NAME: usize = 40;
/// The most characters of a field's value kept.
pub const MAX_FIELD_VALUE: usize = 200;
/// The most characters `WHOIS` reads after its keyword.
const MAX_WHOIS: usize = 100;

/// A `REGISTER` block being read: the fields so far, as njudge's form writes them.
#[derive(Clone, Debug, Default)]
pub(crate) struct RegisterBlock {
    pub fields: Vec<(String, String)>,
}

impl RegisterBlock {
    /// Whether a normalised line opens a block: `REGISTER` alone.
    pub fn opens(norm: &str) -> bool {
        norm.eq_ignore_ascii_case("register")
    }

    /// Whether a normalised line closes it: `END` (or `END REGISTER`, `ENDREGISTER`).
    pub fn closes(norm: &str) -> bool {
        let lower = norm.to_ascii_lowercase();
        matches!(
            lower.as_str(),
            "end" | "end register" | "endregister" | "end."
        )
    }

    /// Reads one line of the block: `Field: value` (blanks around both dropped); a line
    /// without a colon is kept whole as a `Note`. Empty lines and lines past the last
    /// field kept are not read. Sizes are bounded: hostile input is normal input.
    pub fn read(&mut self, norm: &str) {
        if norm.is_empty() || self.fields.len() >= MAX_REGISTER_FIELDS {
            return;
        }
        let (name, value) = match norm.split_once(':') {
            Some((n, v)) if !n.trim().is_empty() => (n.trim(), v.trim()),
            _ => ("Note", norm),
        };
        self.fields
            .push((cut_to(name, MAX_FIELD_NAME), cut_to(value, MAX_FIELD_VALUE)));
    }

    pub fn into_command(self, closed: bool) -> PlayerCommand {
        PlayerCommand::Register {
            fields: self.fields,
            closed,
        }
    }
}

/// At most `n` characters of `text`.
fn cut_to(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// Whether a normalised line is `I AM ALSO …` (njudge writes `IAMALSO`, one word, which is
/// a keyword of its own).
pub(crate) fn is_also(norm: &str) -> bool {
    keyword("i am also")(norm).is_ok()
}

fn names(ps: &[Power]) -> String {
    ps.iter().map(|p| p.name()).collect::<Vec<_>>().join(" ")
}

impl PlayerCommand {
    /// The normalised echo, which reads back as the same command.
    pub fn render(&self) -> String {
        match self {
            PlayerCommand::Help => "HELP".into(),
            PlayerCommand::Version => "VERSION".into(),
            PlayerCommand::List { game: None } => "LIST".into(),
            PlayerCommand::List { game: Some(g) } => format!("LIST {g}"),
            PlayerCommand::ListFull => "LIST FULL".into(),
            PlayerCommand::Summary { game: None } => "SUMMARY".into(),
            PlayerCommand::Summary { game: Some(game) } => format!("SUMMARY {game}"),
            PlayerCommand::ListPage { full: false, page } => format!("LIST PAGE {page}"),
            PlayerCommand::ListPage { full: true, page } => format!("LIST FULL PAGE {page}"),
            PlayerCommand::Export { game } => format!("EXPORT {game}"),
            PlayerCommand::History {
                game,
                from,
                to,
                lines,
                exclude,
            } => {
                let mut s = match game {
                    Some(game) => format!("HISTORY {game}"),
                    None => "HISTORY".to_string(),
                };
                if let Some(x) = exclude {
                    s.push_str(&format!(" EXCLSTART {}", x.start));
                    if let Some(end) = &x.end {
                        s.push_str(&format!(" EXCLEND {end}"));
                    }
                    if x.broad {
                        s.push_str(" BROAD");
                    }
                }
                if let Some(d) = from {
                    s.push_str(&format!(" FROM {d}"));
                }
                if let Some(d) = to {
                    s.push_str(&format!(" TO {d}"));
                }
                if let Some(n) = lines {
                    s.push_str(&format!(" LINES {n}"));
                }
                s
            }
            PlayerCommand::Create {
                game,
                password,
                variant,
                options,
            } => {
                let mut s = format!("CREATE ?{game} {password}");
                if let Some(v) = variant {
                    s.push(' ');
                    s.push_str(v);
                }
                for o in options {
                    s.push(' ');
                    s.push_str(o);
                }
                s
            }
            PlayerCommand::Signon {
                who: SignonAs::Takeover(p),
                game,
                password,
                ..
            } => format!("TAKEOVER {p} {game} {password}"),
            PlayerCommand::Signon {
                who,
                game,
                password,
                code: None,
            } => format!("SIGNON {who}{game} {password}"),
            PlayerCommand::Signon {
                who,
                game,
                password,
                code: Some(c),
            } => format!("SIGNON {who}{game} {password} {c}"),
            PlayerCommand::Observe { game, password } if password.is_empty() => {
                format!("OBSERVE {game}")
            }
            PlayerCommand::Observe { game, password } => format!("OBSERVE {game} {password}"),
            // A password that starts with `=` or `:` reads back after a separator.
            PlayerCommand::SetPassword { password } if password.starts_with(['=', ':']) => {
                format!("SET PASSWORD: {password}")
            }
            PlayerCommand::SetPassword { password } => format!("SET PASSWORD {password}"),
            PlayerCommand::SetAddress { address } if address.is_empty() => "SET ADDRESS".into(),
            PlayerCommand::SetAddress { address } => format!("SET ADDRESS {address}"),
            PlayerCommand::SetWait => "SET WAIT".into(),
            PlayerCommand::SetNoWait => "SET NOWAIT".into(),
            PlayerCommand::SetAbsence { from, to: None } => format!("SET ABSENCE {from}"),
            PlayerCommand::SetAbsence { from, to: Some(t) } => {
                format!("SET ABSENCE {from} TO {t}")
            }
            PlayerCommand::SetNoAbsence { date: None } => "SET NOABSENCE".into(),
            PlayerCommand::SetNoAbsence { date: Some(d) } => format!("SET NOABSENCE {d}"),
            PlayerCommand::SetNoConcede => "SET NOCONCEDE".into(),
            PlayerCommand::SetDraw { powers } if powers.is_empty() => "SET DRAW".into(),
            PlayerCommand::SetDraw { powers } => format!("SET DRAW {}", names(powers)),
            PlayerCommand::SetNoDraw => "SET NODRAW".into(),
            PlayerCommand::SetConcede { to } => format!("SET CONCEDE {to}"),
            PlayerCommand::SetPreference { powers } => {
                format!("SET PREFERENCE {}", names(powers))
            }
            PlayerCommand::Resign => "RESIGN".into(),
            PlayerCommand::Signoff => "SIGNOFF".into(),
            PlayerCommand::Unobserve { game } => format!("UNOBSERVE {game}"),
            PlayerCommand::Confirm { code } => format!("CONFIRM {code}"),
            PlayerCommand::Clear => "CLEAR".into(),
            PlayerCommand::Map { game, phase: None } => format!("MAP {game}"),
            PlayerCommand::Map {
                game,
                phase: Some(p),
            } => format!("MAP {game} {p}"),
            PlayerCommand::MapAll { game } => format!("MAP {game} ALL"),
            PlayerCommand::SetMap { on: true } => "SET MAP ON".into(),
            PlayerCommand::SetMap { on: false } => "SET MAP OFF".into(),
            PlayerCommand::Register { .. } => "REGISTER".into(),
            PlayerCommand::Whois { who } if who.is_empty() => "WHOIS".into(),
            PlayerCommand::Whois { who } => format!("WHOIS {who}"),
            PlayerCommand::WhoGame { game: None } => "WHOGAME".into(),
            PlayerCommand::WhoGame { game: Some(g) } => format!("WHOGAME {g}"),
            PlayerCommand::Phase { phase } => format!("PHASE {phase}"),
            PlayerCommand::Njudge(w) => w.render(),
            PlayerCommand::AlsoAt { address } => format!("I AM ALSO {address}"),
        }
    }

    /// Whether this is one of the commands a message may hold only once (njudge).
    pub fn is_signon(&self) -> bool {
        matches!(
            self,
            PlayerCommand::Signon { .. }
                | PlayerCommand::Create { .. }
                | PlayerCommand::Observe { .. }
        )
    }
}

/// The first words of player commands (`SET` is shared with the master's settings).
pub(crate) const KEYWORDS: &[&str] = &[
    "help",
    "version",
    "list",
    "summary",
    "history",
    "create",
    "signon",
    "sign",
    "observe",
    "watch",
    "resign",
    "signoff",
    "clear",
    "map",
    "unobserve",
    "confirm",
    "takeover",
    "export",
    "whois",
    "iamalso",
];

// player_command = "HELP" | "VERSION" | list | summary | export | history | create | signon
//                | observe | unobserve | "RESIGN" | "SIGNOFF" | "CLEAR" | map | confirm
//                | takeover | whois | also ;
// whois = "WHOIS" ( address | name ) ;   (the rest of the line, at most 100 characters)
// also = ( "I AM ALSO" | "IAMALSO" ) address ;
// register = "REGISTER" newline { field ":" value newline } "END" ;   (a block, read by
//            the framing like press: see grammar/player.md)
// takeover = "TAKEOVER" power_or_initial game_name password ;
// unobserve = ( "UNOBSERVE" | "SIGNOFF" | "SIGN OFF" ) game_name ;
// confirm = "CONFIRM" code ;
// export = "EXPORT" game_name ;
// map = "MAP" game_name [ phase | "ALL" ] ;
pub(crate) fn player_command(i: &str) -> PResult<'_, PlayerCommand> {
    let start = blanks(i);
    let first = start.split(' ').next().unwrap_or("").to_ascii_lowercase();
    let (rest, cmd) = match first.as_str() {
        "help" => (keyword("help")(start)?.0, PlayerCommand::Help),
        "version" => (keyword("version")(start)?.0, PlayerCommand::Version),
        "resign" => (keyword("resign")(start)?.0, PlayerCommand::Resign),
        "clear" => (keyword("clear")(start)?.0, PlayerCommand::Clear),
        "list" => list(start)?,
        "summary" => {
            let (r, _) = keyword("summary")(start)?;
            if end_of_line(r).is_ok() {
                (r, PlayerCommand::Summary { game: None })
            } else {
                let (r, g) = cut(game_name(r))?;
                (r, PlayerCommand::Summary { game: Some(g) })
            }
        }
        "export" => {
            let (r, _) = keyword("export")(start)?;
            let (r, g) = cut(game_name(r))?;
            (r, PlayerCommand::Export { game: g })
        }
        "history" => history(start)?,
        "create" => create(start)?,
        "map" => {
            let (r, _) = keyword("map")(start)?;
            if blanks(r).starts_with('*') {
                // njudge's `MAP * [n]` over a pasted listing: the lines after it are the
                // listing, not commands; dipjudge draws its own games only.
                return Ok((
                    "",
                    PlayerCommand::Njudge(super::njudge_word::NjudgeWord::MapPasted),
                ));
            }
            let (r, g) = cut(game_name(r))?;
            if end_of_line(r).is_ok() {
                (
                    r,
                    PlayerCommand::Map {
                        game: g,
                        phase: None,
                    },
                )
            } else if let Ok((r, _)) = keyword("all")(r) {
                (r, PlayerCommand::MapAll { game: g })
            } else {
                let (r, p) = cut(super::master::phase(r))?;
                (
                    r,
                    PlayerCommand::Map {
                        game: g,
                        phase: Some(p),
                    },
                )
            }
        }
        "observe" | "watch" => {
            let (r, _) = one_of(&["observe", "watch"], "OBSERVE")(start)?;
            let (r, g) = cut(game_name(r))?;
            // The password njudge asks for is optional: an observer's seat is its address,
            // proved by the confirmation the judge mails to it.
            let (r, pw) = match end_of_line(r) {
                Ok(_) => (r, String::new()),
                Err(_) => cut(password(r))?,
            };
            (
                r,
                PlayerCommand::Observe {
                    game: g,
                    password: pw,
                },
            )
        }
        "unobserve" => {
            let (r, _) = keyword("unobserve")(start)?;
            let (r, g) = cut(game_name(r))?;
            (r, PlayerCommand::Unobserve { game: g })
        }
        "takeover" => {
            let (r, _) = keyword("takeover")(start)?;
            let (r, p) = cut(expect("a power", power_or_initial)(r))?;
            let (r, g) = cut(game_name(r))?;
            let (r, pw) = cut(password(r))?;
            (
                r,
                PlayerCommand::Signon {
                    who: SignonAs::Takeover(p),
                    game: g,
                    password: pw,
                    code: None,
                },
            )
        }
        "whois" => {
            let (r, _) = keyword("whois")(start)?;
            // A bare WHOIS is the sender's own record.
            let who = blanks(r).trim_end();
            if who.chars().count() > MAX_WHOIS {
                return super::lexeme::failure(
                    who,
                    Why::Expected("an e-mail address or a name of at most 100 characters"),
                );
            }
            ("", PlayerCommand::Whois { who: who.into() })
        }
        "iamalso" => {
            let (r, _) = keyword("iamalso")(start)?;
            let (r, a) = cut(super::lexeme::address(r))?;
            (r, PlayerCommand::AlsoAt { address: a })
        }
        "i" => {
            let (r, _) = keyword("i am also")(start)?;
            let (r, a) = cut(super::lexeme::address(r))?;
            (r, PlayerCommand::AlsoAt { address: a })
        }
        "confirm" => {
            let (r, _) = keyword("confirm")(start)?;
            let (r, code) = cut(expect("the code the judge sent", token)(r))?;
            (
                r,
                PlayerCommand::Confirm {
                    code: code.to_ascii_uppercase(),
                },
            )
        }
        _ => {
            if let Ok((r, _)) = one_of(&["sign off", "signoff"], "SIGNOFF")(start) {
                // njudge's `SIGNOFF game`: an observer leaves the game; a bare SIGNOFF
                // ends the commands of the mail.
                match end_of_line(r) {
                    Ok(_) => (r, PlayerCommand::Signoff),
                    Err(_) => {
                        let (r, g) = cut(game_name(r))?;
                        (r, PlayerCommand::Unobserve { game: g })
                    }
                }
            } else if let Ok((r, _)) = keyword("sign on")(start) {
                signon(r)?
            } else {
                return fail(start, Why::Expected("a player command"));
            }
        }
    };
    let (rest, _) = cut(end_of_line(rest))?;
    Ok((rest, cmd))
}

// list = "LIST" [ "FULL" [ page ] | page | game_name ] ;
// page = "PAGE" number ;   (a game called `page` is still `LIST page`)
fn list(i: &str) -> PResult<'_, PlayerCommand> {
    let (r, _) = keyword("list")(i)?;
    if let Ok((r, _)) = keyword("full")(r) {
        if let Ok((r, _)) = keyword("page")(r) {
            let (r, page) = cut(expect("a page number", number)(r))?;
            return Ok((r, PlayerCommand::ListPage { full: true, page }));
        }
        return Ok((r, PlayerCommand::ListFull));
    }
    if let Ok((r, _)) = keyword("page")(r)
        && let Ok((r, page)) = number(r)
    {
        return Ok((r, PlayerCommand::ListPage { full: false, page }));
    }
    if end_of_line(r).is_ok() {
        return Ok((r, PlayerCommand::List { game: None }));
    }
    let (r, g) = cut(game_name(r))?;
    Ok((r, PlayerCommand::List { game: Some(g) }))
}

// history = "HISTORY" game_name ( [ "FROM" date ] [ "TO" date ]
//                                | "EXCLSTART" turn [ "EXCLEND" turn ] [ "BROAD" ] )
//           [ "LINES" number ] ;
// turn = letter digits [ letter ] ;   (`S1902M`, `F1999B`, `A1901`, as njudge writes it)
fn history(i: &str) -> PResult<'_, PlayerCommand> {
    let (r, _) = keyword("history")(i)?;
    // A bare HISTORY (or one that starts with its options) is the signed-on game's.
    let bare =
        end_of_line(r).is_ok() || one_of(&["from", "to", "lines", "exclstart"], "")(r).is_ok();
    let (mut r, game) = if bare {
        (r, None)
    } else {
        let (r, g) = cut(game_name(r))?;
        (r, Some(g))
    };
    let (mut from, mut to, mut lines, mut exclude) = (None, None, None, None);
    if let Ok((a, _)) = keyword("exclstart")(r) {
        let (a, start) = cut(turn(a))?;
        let mut x = Exclusion {
            start,
            end: None,
            broad: false,
        };
        r = a;
        if let Ok((a, _)) = keyword("exclend")(r) {
            let (a, end) = cut(turn(a))?;
            x.end = Some(end);
            r = a;
        }
        if let Ok((a, _)) = keyword("broad")(r) {
            x.broad = true;
            r = a;
        }
        exclude = Some(x);
    } else {
        if let Ok((a, _)) = keyword("from")(r) {
            let (a, d) = cut(date(a))?;
            from = Some(d);
            r = a;
        }
        if let Ok((a, _)) = keyword("to")(r) {
            let (a, d) = cut(date(a))?;
            to = Some(d);
            r = a;
        }
    }
    if let Ok((a, _)) = keyword("lines")(r) {
        let (a, n) = cut(expect("a number of lines", number)(a))?;
        lines = Some(n);
        r = a;
    }
    Ok((
        r,
        PlayerCommand::History {
            game,
            from,
            to,
            lines,
            exclude,
        },
    ))
}

/// A turn as njudge's HISTORY names it (`S1902M`, `F1999B`, `A1901`), upper-cased. It is
/// not checked against the game: a turn the game never had leaves the history whole.
fn turn(i: &str) -> PResult<'_, String> {
    let start = blanks(i);
    let (r, w) = name_word(start)?;
    let b = w.as_bytes();
    let digits = b.iter().skip(1).take_while(|c| c.is_ascii_digit()).count();
    let tail = b.len().saturating_sub(1 + digits);
    let ok = b.first().is_some_and(u8::is_ascii_alphabetic)
        && (1..=4).contains(&digits)
        && tail <= 1
        && b.last().is_some_and(u8::is_ascii_alphanumeric);
    if ok {
        Ok((r, w.to_ascii_uppercase()))
    } else {
        fail(start, Why::Expected("a turn (like S1902M)"))
    }
}

/// The phases `HISTORY … EXCLSTART` leaves out: from `start` to `end` (to the end of the
/// history when `end` is missing); press is left out too unless `broad`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Exclusion {
    pub start: String,
    pub end: Option<String>,
    pub broad: bool,
}

// create = "CREATE" "?" game_name password [ word { word } ] ;   (a rule set's name, then options:
//          NMR, WHITE, … or a rule set's key=value)
fn create(i: &str) -> PResult<'_, PlayerCommand> {
    let (r, _) = keyword("create")(i)?;
    let r = blanks(r);
    let r = r.strip_prefix('?').unwrap_or(r);
    let (r, game) = cut(game_name(r))?;
    let (mut r, pw) = cut(password(r))?;
    let mut words = Vec::new();
    // Words as written, blanks apart: `shell-shock`, `survive_draws=on`.
    while let Ok((a, w)) = token(r) {
        words.push(w.to_ascii_lowercase());
        r = a;
    }
    let mut words = words.into_iter();
    let variant = words.next();
    Ok((
        r,
        PlayerCommand::Create {
            game,
            password: pw,
            variant,
            options: words.collect(),
        },
    ))
}

// signon = ( "SIGNON" | "SIGN ON" ) signon_id password [ code ] ;   (a code only after `?`:
//          a private game's join password or an invitation's code)
// signon_id = ( initial | "?" | "M" | "O" ) game_name ;   (`Fgame`, `?game`, `Mgame`)
fn signon(i: &str) -> PResult<'_, PlayerCommand> {
    let start = blanks(i);
    let (r, id) = cut(expect(
        "a power initial and a game name (like Fgame)",
        token,
    )(start))?;
    if id == "?" {
        // njudge's `SIGNON ? password`: the next game forming. The password is not kept.
        let (r, _) = cut(password(r))?;
        return Ok((
            r,
            PlayerCommand::Njudge(super::njudge_word::NjudgeWord::SignonNext),
        ));
    }
    let mut chars = id.chars();
    let first = chars.next().unwrap_or(' ');
    let who = match first.to_ascii_uppercase() {
        '?' => Some(SignonAs::Join),
        'M' => Some(SignonAs::Master),
        'O' => Some(SignonAs::Observer),
        c => Power::from_initial(c).map(SignonAs::Power),
    };
    let (Some(who), Some(game)) = (who, GameName::new(chars.as_str())) else {
        return super::lexeme::failure(
            start,
            Why::Expected("a power initial and a game name (like Fgame)"),
        );
    };
    let (r, pw) = cut(password(r))?;
    let (r, code) = match (who, token(r)) {
        (SignonAs::Join, Ok((r, c))) => (r, Some(c.to_string())),
        _ => (r, None),
    };
    Ok((
        r,
        PlayerCommand::Signon {
            who,
            game,
            password: pw,
            code,
        },
    ))
}

/// The words after `SET` that start a player's setting, longest first where one begins another.
pub(crate) const SETTINGS: &[&str] = &[
    "password",
    "address",
    "no wait",
    "wait",
    "no absence",
    "no holidays",
    "no holiday",
    "no vacations",
    "no vacation",
    "absence",
    "holidays",
    "holiday",
    "vacations",
    "vacation",
    "no draw",
    "draw",
    "no concede",
    "concede",
    "preference",
    "preferences",
    "map",
];

// player_setting = "PASSWORD" password | "ADDRESS" address | "WAIT" | "NOWAIT"
//                | absence date [ "TO" date ] | "NO" absence [ date ]
//                | "DRAW" [ power_list ] | "NODRAW" | "CONCEDE" power | "NOCONCEDE"
//                | "PREFERENCE" power_list | "MAP" ( "ON" | "OFF" ) ;   (after SET)
// absence = "ABSENCE" | "HOLIDAY" | "HOLIDAYS" | "VACATION" | "VACATIONS" ;
pub(crate) fn player_setting(i: &str) -> PResult<'_, PlayerCommand> {
    let start = blanks(i);
    let (r, w) = one_of(SETTINGS, "a setting")(start)?;
    let (r, cmd) = match w {
        "password" => {
            // njudge's players write `SET PASSWORD=x` and `SET PASSWORD: x`: the sign is not
            // part of the password.
            let r = blanks(r);
            let r = r.strip_prefix(['=', ':']).unwrap_or(r);
            let (r, pw) = cut(password(r))?;
            (r, PlayerCommand::SetPassword { password: pw })
        }
        "address" => {
            // Only an address the judge can send to, and a person's: the outbound mail is
            // built with lettre, which refuses the rest (a seat at such an address gets no
            // mail).
            let (r, a) = cut(super::lexeme::address(r))?;
            (r, PlayerCommand::SetAddress { address: a })
        }
        "no wait" => (r, PlayerCommand::SetNoWait),
        "wait" => (r, PlayerCommand::SetWait),
        "no absence" | "no holidays" | "no holiday" | "no vacations" | "no vacation" => {
            if end_of_line(r).is_ok() {
                (r, PlayerCommand::SetNoAbsence { date: None })
            } else {
                let (r, d) = cut(date(r))?;
                // njudge's `SET NOABSENCE from TO to`: the end is not needed.
                let r = match keyword("to")(r) {
                    Ok((r, _)) => cut(date(r))?.0,
                    Err(_) => r,
                };
                (r, PlayerCommand::SetNoAbsence { date: Some(d) })
            }
        }
        "no concede" => (r, PlayerCommand::SetNoConcede),
        "absence" | "holidays" | "holiday" | "vacations" | "vacation" => {
            let (r, from) = cut(date(r))?;
            match keyword("to")(r) {
                Ok((r, _)) => {
                    let (r, to) = cut(date(r))?;
                    (r, PlayerCommand::SetAbsence { from, to: Some(to) })
                }
                Err(_) => (r, PlayerCommand::SetAbsence { from, to: None }),
            }
        }
        "no draw" => (r, PlayerCommand::SetNoDraw),
        "draw" => {
            if end_of_line(r).is_ok() {
                (r, PlayerCommand::SetDraw { powers: Vec::new() })
            } else {
                let (r, ps) = cut(power_list(r))?;
                (r, PlayerCommand::SetDraw { powers: ps })
            }
        }
        "concede" => {
            let (r, p) = cut(expect("a power", power_or_initial)(r))?;
            (r, PlayerCommand::SetConcede { to: p })
        }
        "map" => {
            let (r, w) = cut(one_of(&["on", "off"], "ON or OFF")(r))?;
            (r, PlayerCommand::SetMap { on: w == "on" })
        }
        _ => {
            let (r, ps) = cut(power_list(r))?;
            (r, PlayerCommand::SetPreference { powers: ps })
        }
    };
    let (r, _) = cut(end_of_line(r))?;
    Ok((r, cmd))
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! pc {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let got = player_command($text).map(|(_, c)| c.render());
                assert_eq!(got.ok().as_deref(), $want);
            }
        };
    }

    pc!(help, "help", Some("HELP"));
    pc!(list_none, "LIST", Some("LIST"));
    pc!(list_game, "list Alpha", Some("LIST alpha"));
    pc!(list_full, "list full", Some("LIST FULL"));
    pc!(list_page, "list page 3", Some("LIST PAGE 3"));
    pc!(list_full_page, "list full page 2", Some("LIST FULL PAGE 2"));
    pc!(list_full_page_needs_number, "list full page", None);
    pc!(list_game_called_page, "list page", Some("LIST page"));
    pc!(summary, "summary alpha", Some("SUMMARY alpha"));
    pc!(
        history,
        "history alpha from dec 1 2025 to 2026-01-31 lines 500",
        Some("HISTORY alpha FROM 2025-12-01 TO 2026-01-31 LINES 500")
    );
    pc!(
        create,
        "create ?Beta Secret standard gunboat",
        Some("CREATE ?beta Secret standard gunboat")
    );
    pc!(signon, "signon Fgame pw", Some("SIGNON Fgame pw"));
    pc!(signon_split, "SIGN ON egame pw", Some("SIGNON Egame pw"));
    pc!(signon_join, "signon ?game pw", Some("SIGNON ?game pw"));
    pc!(signon_master, "signon mgame pw", Some("SIGNON Mgame pw"));
    pc!(signon_bad_initial, "signon xgame pw", None);
    pc!(
        takeover,
        "takeover france Game newpass1",
        Some("TAKEOVER France game newpass1")
    );
    pc!(
        takeover_initial,
        "TAKEOVER f game pw",
        Some("TAKEOVER France game pw")
    );
    pc!(takeover_no_password, "takeover france game", None);
    pc!(takeover_no_power, "takeover game pw", None);
    pc!(signon_no_password, "signon fgame", None);
    pc!(
        signon_join_code,
        "signon ?club pw clubword",
        Some("SIGNON ?club pw clubword")
    );
    pc!(signon_power_extra_word, "signon fclub pw more", None);
    pc!(observe, "watch game pw", Some("OBSERVE game pw"));
    pc!(observe_bare, "observe Game", Some("OBSERVE game"));
    pc!(signoff_split, "sign off", Some("SIGNOFF"));
    pc!(signoff, "SIGNOFF", Some("SIGNOFF"));
    pc!(signoff_game, "signoff Alpha", Some("UNOBSERVE alpha"));
    pc!(sign_off_game, "sign off alpha", Some("UNOBSERVE alpha"));
    pc!(unobserve, "unobserve alpha", Some("UNOBSERVE alpha"));
    pc!(unobserve_no_game, "unobserve", None);
    pc!(confirm, "confirm k7q2mx4p", Some("CONFIRM K7Q2MX4P"));
    pc!(confirm_no_code, "confirm", None);
    pc!(help_trailing, "help me", None);
    pc!(map_last, "map Alpha", Some("MAP alpha"));
    pc!(map_phase, "MAP alpha f1901r", Some("MAP alpha F1901R"));
    pc!(map_bad_phase, "MAP alpha autumn", None);
    pc!(map_all, "map Alpha all", Some("MAP alpha ALL"));

    macro_rules! ps {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let got = player_setting($text).map(|(_, c)| c.render());
                assert_eq!(got.ok().as_deref(), $want);
            }
        };
    }

    ps!(set_draw_all, "draw", Some("SET DRAW"));
    ps!(
        set_draw_some,
        "draw AEF",
        Some("SET DRAW Austria England France")
    );
    ps!(set_nodraw, "no draw", Some("SET NODRAW"));
    ps!(set_concede, "concede F", Some("SET CONCEDE France"));
    ps!(
        set_pref,
        "preference ERFGTAI",
        Some("SET PREFERENCE England Russia France Germany Turkey Austria Italy")
    );
    ps!(
        set_absence,
        "absence dec 24 to dec 27",
        Some("SET ABSENCE Dec 24 TO Dec 27")
    );
    ps!(
        set_holiday,
        "holiday dec 24 to dec 27",
        Some("SET ABSENCE Dec 24 TO Dec 27")
    );
    ps!(
        set_vacation,
        "vacation 2026-12-24",
        Some("SET ABSENCE 2026-12-24")
    );
    ps!(set_noabsence, "noabsence", Some("SET NOABSENCE"));
    ps!(
        set_noabsence_date,
        "no absence dec 24 to dec 27",
        Some("SET NOABSENCE Dec 24")
    );
    ps!(set_noconcede, "noconcede", Some("SET NOCONCEDE"));
    ps!(
        set_address,
        "address me@example.org",
        Some("SET ADDRESS me@example.org")
    );
    ps!(set_address_bad, "address nowhere", None);
    ps!(
        set_password_equals,
        "password=Secret24",
        Some("SET PASSWORD Secret24")
    );
    ps!(
        set_password_colon,
        "PASSWORD: Secret25",
        Some("SET PASSWORD Secret25")
    );
    ps!(
        set_password_spaced,
        "password = Secret26",
        Some("SET PASSWORD Secret26")
    );
    ps!(set_password_two_words, "password new Secret22", None);
    ps!(set_address_literal, "address a@[127.0.0.1]", None);
}
