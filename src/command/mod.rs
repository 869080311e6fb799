//! The command language: mail text in, one typed command or one error per line out
//! (grammar/*.md is the reference; every parser function is named after its nonterminal).
//!
//! Pure code: no state, no I/O, no clock. [`parse_message`] frames a mail body (quoted
//! replies, signatures, `//` comments, press blocks, several orders on one line) and reads
//! each command with nom. A line that cannot be read gives a [`CommandError`] with a stable
//! code and a sentence for the player; it never stops the rest of the message.
//!
//! | module | reads |
//! | --- | --- |
//! | `lexeme` | blanks, keywords, provinces and coasts, powers, dates, game names |
//! | `order` | movement, retreat and adjustment orders (as [`crate::rules::Order`]) |
//! | `press` | press headers and blocks |
//! | `player` | player commands (SIGNON, LIST, SET DRAW, …) |
//! | `master` | master commands (PROCESS, SET DEADLINE, …) |
//! | `grammar` | [`Grammar`]: how a line reaches the game's rule set, and its [`RuleCommand`]s |
//! | `error` | [`CommandError`]: codes and sentences |
//! | `settings` | the settings words the game keeps as they are read: [`PressLevel`], [`ObserverLevel`], [`ScheduleClass`] |
//!
//! A line the shared language does not read may belong to the game's rule set: the
//! [`ParseContext`] carries the rule set's [`Grammar`], reached through the registry. The
//! parser never knows which rule sets exist.

pub(crate) mod address;
mod error;
mod framing;
mod grammar;
mod lexeme;
mod master;
mod njudge;
mod njudge_word;
mod order;
mod player;
mod press;
mod settings;

use crate::map::Map;
use crate::rules::{Order, PhaseKind};

pub use error::{Coded, CommandError};
pub use grammar::{Grammar, NoCommand, NoCommands, OwnCommand, RuleCommand};
pub use lexeme::{Date, GameName, Recipient, UnclearRecipients};
pub use master::{Declaration, EjectTarget, MasterCommand, ScheduleChange, Turn};
pub use njudge::{Assignment, NjudgeWord};
pub use order::OrderCommand;
pub use player::{Exclusion, PlayerCommand, SignonAs};
pub use press::{Attribution, Press, PressHeader, PressKind, PressTo};
pub use settings::{ObserverLevel, PressLevel, ScheduleClass};

use lexeme::{PErr, Why, keyword};

/// The building blocks a rule set's [`Grammar`] is written with: the parser's result and
/// error types, the lexemes (blanks, keywords, powers, provinces, numbers) and the parts of
/// orders (a unit, a move arrow, a destination), each skipping the blanks before it.
pub mod parts {
    pub use super::lexeme::{
        PErr, PResult, Why, blanks, cut, end_of_line, expect, fail, failure, keyword, location,
        name_word, number, one_of, opt_dash, power, province,
    };
    pub use super::order::{destination, move_arrow, render_unit, unit, unit_kind};
}

/// One command, typed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    Order(OrderCommand),
    Player(PlayerCommand),
    Master(MasterCommand),
    /// A command of the game's rule set, read by its [`Grammar`].
    Variant(RuleCommand),
    /// A whole press block (its header line is the line reported).
    Press(Press),
}

impl Command {
    /// The normalised echo printed after `OK`; for every command but a press block it reads
    /// back as the same command.
    pub fn render(&self, map: &Map) -> String {
        match self {
            Command::Order(o) => o.render(map),
            Command::Player(p) => p.render(),
            Command::Master(m) => m.render(),
            Command::Variant(v) => v.render(map),
            Command::Press(p) => p.render(),
        }
    }
}

/// What the parser may know about the game a message is for. With the default context the
/// parser reads the shared language alone: no rule set's commands, and press is press.
#[derive(Clone, Copy, Default)]
pub struct ParseContext<'g> {
    /// In a retreat phase `A Bur - Gas` is a [`Order::Retreat`]; in an adjustment phase
    /// `A Par D` / `DISBAND A Par` is a [`Order::Remove`].
    pub phase: Option<PhaseKind>,
    /// The commands of the game's rule set (H1), and which lines of press to the master
    /// are commands (H19).
    pub grammar: Option<&'g dyn Grammar>,
}

impl std::fmt::Debug for ParseContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParseContext")
            .field("phase", &self.phase)
            .field("grammar", &self.grammar.map(|g| g.keywords()))
            .finish()
    }
}

/// The outcome of one command line (or one order of a line holding several).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineResult {
    /// 1-based line number in the message body.
    pub line: usize,
    /// The command's text, blanks collapsed, letter case kept.
    pub text: String,
    pub outcome: Result<Command, CommandError>,
}

impl LineResult {
    /// The judge's verdict on the line, as far as reading it decides: accepted (with its
    /// normalised form) or refused with the parser's code and sentence. A sentence that
    /// quotes the whole line itself (SRV-E7) is `stated`: the reply does not quote it again.
    pub fn verdict(&self, map: &Map) -> ParsedVerdict {
        match &self.outcome {
            Ok(c) => ParsedVerdict::Ok(c.render(map)),
            Err(e) => ParsedVerdict::Refused {
                code: e.code(),
                sentence: e.to_string(),
                stated: e.is_spec_sentence(),
            },
        }
    }
}

/// What reading a line decided (see [`LineResult::verdict`]); `bulletin::reply` writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsedVerdict {
    Ok(String),
    Refused {
        code: &'static str,
        sentence: String,
        stated: bool,
    },
}

/// Parses a mail body with the default context.
pub fn parse_message(text: &str, map: &Map) -> Vec<LineResult> {
    parse_message_with(text, map, &ParseContext::default())
}

/// Prepares a line for the parsers: HTML entities that mail converters leave behind are
/// decoded, the typographic apostrophes, quotes and dashes that word processors and phones
/// put in ([`typographic_to_ascii`]) become their ASCII forms, tabs, no-break spaces and
/// other blanks become one space, zero-width characters go, and the ends are trimmed.
pub fn normalise_line(raw: &str) -> String {
    let decoded = if raw.contains('&') {
        raw.replace("&nbsp;", " ")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    } else {
        raw.to_string()
    };
    let ascii: String = decoded.chars().map(typographic_to_ascii).collect();
    collapse_blanks(&ascii, |c| {
        matches!(
            c,
            '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
        )
    })
}

/// The ASCII form of a typographic character a mail program may put in for the one the
/// player typed: `’ ‘ ‚ ‛ ′ ʼ` are `'`, `“ ” „ ‟ ″ « »` are `"`, the dashes and the minus
/// sign `‐ ‑ ‒ – — ― −` are `-`. So `d’Artagnan` is the password `d'Artagnan`, and
/// `A Par – Bur` the move `A Par - Bur`.
fn typographic_to_ascii(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' | '\u{02bc}' => '\'',
        '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' | '\u{ab}' | '\u{bb}' => '"',
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        c => c,
    }
}

/// `text` with each run of blanks and control characters as one space, trimmed, and the
/// characters `dropped` says so left out (without ending a word).
pub(crate) fn collapse_blanks(text: &str, dropped: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for c in text.chars() {
        if dropped(c) {
            continue;
        }
        if c.is_whitespace() || c.is_control() {
            blank = true;
            continue;
        }
        if blank && !out.is_empty() {
            out.push(' ');
        }
        blank = false;
        out.push(c);
    }
    out
}

/// A line that is not for the judge: a quoted reply (`>`) or a `//` comment (DPjudge).
fn is_skipped(norm: &str) -> bool {
    norm.starts_with('>') || norm.starts_with("//")
}

/// The results read so far, and how many of them are errors.
struct Output {
    lines: Vec<LineResult>,
    /// For each result, whether it is an unreadable line that reads as prose
    /// ([`framing::looks_like_prose`]).
    prose: Vec<bool>,
    errors: usize,
    /// How many errors are put into words with suggestions.
    reported: usize,
}

impl Output {
    fn push_line(&mut self, l: LineResult) {
        self.push(l, false);
    }

    fn push(&mut self, l: LineResult, prose: bool) {
        self.errors += usize::from(l.outcome.is_err());
        self.lines.push(l);
        self.prose.push(prose);
    }

    /// Whether the next error is one the reader reports (so worth its suggestions).
    fn suggest(&self) -> bool {
        self.errors < self.reported
    }

    /// The results without the prose before the first command and after the last one: a
    /// greeting (`Hi GM,`) and a closing (`Mit freundlichen Grüßen`, a name) are no
    /// commands, and the sender is not told so. Prose between commands is reported (it may
    /// be a mistyped order), and so is every line of a mail that holds no command at all
    /// (the sender learns the judge read nothing).
    fn finish(self) -> Vec<LineResult> {
        let Output {
            mut lines, prose, ..
        } = self;
        let Some(first) = prose.iter().position(|p| !p) else {
            return lines;
        };
        let last = prose.iter().rposition(|p| !p).unwrap_or(first);
        lines.truncate(last + 1);
        lines.drain(..first);
        lines
    }
}

/// A press block being read.
struct OpenPress {
    /// Index of its result in the output.
    slot: usize,
    header: Result<PressHeader, CommandError>,
    body: Vec<String>,
}

impl OpenPress {
    fn close(self, out: &mut [LineResult], closed: bool) {
        let mut body = self.body;
        while body.last().is_some_and(|l| l.trim().is_empty()) {
            body.pop();
        }
        let first = body
            .iter()
            .position(|l| !l.trim().is_empty())
            .unwrap_or(body.len());
        body.drain(..first);
        if let Some(slot) = out.get_mut(self.slot) {
            slot.outcome = self.header.map(|header| {
                Command::Press(Press {
                    header,
                    body,
                    closed,
                })
            });
        }
    }
}

/// Parses a mail body: one result per command line, in order (grammar/framing.md).
pub fn parse_message_with(text: &str, map: &Map, cx: &ParseContext) -> Vec<LineResult> {
    parse_message_reporting(text, map, cx, usize::MAX)
}

/// Parses a mail body as [`parse_message_with`] does, for a reader that reports only the
/// first `reported` unreadable lines (the judge stops reading after its fiftieth): the
/// errors after those carry no "did you mean" suggestions, which cost an edit distance
/// against every command word and province name. Every line still reads the same way,
/// accepted or refused with the same code; with `reported` 0 no suggestion is searched.
pub fn parse_message_reporting(
    text: &str,
    map: &Map,
    cx: &ParseContext,
    reported: usize,
) -> Vec<LineResult> {
    parse_lines(text, map, cx, reported, false)
}

/// The results of [`parse_message_reporting`], up to and including the first SIGNON read
/// (`Ok(PlayerCommand::Signon)`); all of them when there is none. How a message's game is
/// found without reading the rest of it twice.
pub fn parse_until_signon(
    text: &str,
    map: &Map,
    cx: &ParseContext<'_>,
    reported: usize,
) -> Vec<LineResult> {
    parse_lines(text, map, cx, reported, true)
}

fn parse_lines(
    text: &str,
    map: &Map,
    cx: &ParseContext,
    reported: usize,
    until_signon: bool,
) -> Vec<LineResult> {
    let mut out = Output {
        lines: Vec::new(),
        prose: Vec::new(),
        errors: 0,
        reported,
    };
    read_lines(text, map, cx, until_signon, &mut out);
    out.finish()
}

/// Reads the lines of a body into `out`, up to where the sender's text ends.
fn read_lines(text: &str, map: &Map, cx: &ParseContext, until_signon: bool, out: &mut Output) {
    let mut press: Option<OpenPress> = None;
    // A REGISTER block being read (its result's index, and the fields so far).
    let mut register: Option<(usize, player::RegisterBlock)> = None;
    // A `SET COMMENT BEGIN` block being read (its result's index, and the lines so far).
    let mut comment: Option<(usize, master::CommentBlock)> = None;
    let mut signed_on = false;
    let grammar = cx.grammar;
    let lines: Vec<(&str, String)> = text
        .split('\n')
        .map(|raw| {
            let raw = raw.trim_end_matches('\r');
            (raw, normalise_line(raw))
        })
        .collect();
    // The last ENDPRESS line: a press header that cannot be read swallows its block only
    // when an ENDPRESS follows (the player meant a block); otherwise it is one bad line
    // ("Press releases are …") and the lines after it are read as commands.
    let last_press_end = lines
        .iter()
        .rposition(|(_, norm)| press::is_press_end(norm))
        .map_or(0, |n| n + 1);
    // Lines still to skip: the second line of a wrapped attribution.
    let mut skip = 0;
    for (n, (raw, norm)) in lines.iter().enumerate() {
        let line = n + 1;
        let (raw, norm) = (*raw, norm.as_str());
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let after = lines.get(n + 1..).unwrap_or_default();
        let frame = framing::frame(raw, norm, after.iter().map(|(_, l)| l.as_str()));
        // A bare SIGNOFF ends a press block, as njudge's does (issue 38: it was read as a
        // line of the press); the line is then read as the command it is.
        if press.is_some()
            && press::ends_at_signoff(norm)
            && let Some(p) = press.take()
        {
            p.close(&mut out.lines, true);
        }
        if let Some(mut p) = press.take() {
            if frame == framing::Frame::Original {
                p.close(&mut out.lines, false);
                return;
            }
            if press::is_press_end(norm) {
                p.close(&mut out.lines, true);
                continue;
            }
            if norm.starts_with("//") {
                press = Some(p);
                continue;
            }
            let to_master = p.header.as_ref().is_ok_and(|h| h.is_to_master_only());
            if to_master && grammar.is_some_and(|g| g.in_press_to_master(norm)) {
                let outcome = finish(
                    norm,
                    read_command(norm, map, grammar),
                    map,
                    cx,
                    out.suggest(),
                );
                out.push_line(LineResult {
                    line,
                    outcome,
                    text: norm.to_string(),
                });
            } else {
                p.body.push(raw.to_string());
            }
            press = Some(p);
            continue;
        }
        if let Some((slot, mut block)) = register.take() {
            if matches!(frame, framing::Frame::Original | framing::Frame::Signature) {
                close_register(&mut out.lines, slot, block, false);
                return;
            }
            if player::RegisterBlock::closes(norm) {
                close_register(&mut out.lines, slot, block, true);
                continue;
            }
            if !is_skipped(norm) && !matches!(frame, framing::Frame::Attribution { .. }) {
                block.read(norm);
            }
            register = Some((slot, block));
            continue;
        }
        if let Some((slot, mut block)) = comment.take() {
            if matches!(frame, framing::Frame::Original | framing::Frame::Signature) {
                close_comment(&mut out.lines, slot, block);
                return;
            }
            if master::CommentBlock::closes(norm) {
                // njudge: the comment runs to a SIGNOFF, which is then read as itself.
                close_comment(&mut out.lines, slot, block);
            } else {
                if !is_skipped(norm) && !matches!(frame, framing::Frame::Attribution { .. }) {
                    block.read(norm);
                }
                comment = Some((slot, block));
                continue;
            }
        }
        match frame {
            framing::Frame::Original | framing::Frame::Signature => break,
            framing::Frame::Attribution { lines } => {
                skip = lines - 1;
                continue;
            }
            framing::Frame::Text => {}
        }
        if norm.is_empty() || is_skipped(norm) {
            continue;
        }
        if is_judge_reply(norm, map, grammar) {
            break;
        }
        if player::RegisterBlock::opens(norm) {
            register = Some((out.lines.len(), player::RegisterBlock::default()));
            out.push_line(LineResult {
                line,
                outcome: Ok(Command::Player(
                    player::RegisterBlock::default().into_command(false),
                )),
                text: norm.to_string(),
            });
            continue;
        }
        if master::CommentBlock::opens(norm) {
            comment = Some((out.lines.len(), master::CommentBlock::default()));
            out.push_line(LineResult {
                line,
                outcome: master::CommentBlock::default().into_command(),
                text: norm.to_string(),
            });
            continue;
        }
        if press::is_press_header(norm) {
            let header = match press::press_header(map, norm) {
                Ok((_, h)) => Ok(h),
                Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                    Err(convert(norm, e, map, out.suggest()))
                }
                Err(nom::Err::Incomplete(_)) => Err(syntax_error(norm, "a press line")),
            };
            // A list that could not be read safely (`PRESS TO ROME`) is a block the player
            // meant: its text is never read as commands, ENDPRESS or not.
            let unclear = matches!(header, Err(CommandError::UnclearRecipients { .. }));
            if header.is_ok() || unclear || last_press_end > line {
                press = Some(OpenPress {
                    slot: out.lines.len(),
                    header: header.clone(),
                    body: Vec::new(),
                });
            }
            out.push_line(LineResult {
                line,
                outcome: header.map(|h| {
                    Command::Press(Press {
                        header: h,
                        body: Vec::new(),
                        closed: false,
                    })
                }),
                text: norm.to_string(),
            });
            continue;
        }
        if press::is_press_end(norm) {
            let word = norm.split(' ').next().unwrap_or("").to_ascii_uppercase();
            out.push_line(LineResult {
                line,
                outcome: Err(CommandError::NoPressOpen { word }),
                text: norm.to_string(),
            });
            continue;
        }
        // A trailing comment (`A Par - Bur // into Burgundy`) is dropped; `//` must follow a
        // blank, so `http://…` inside a word is kept.
        let command_text = match norm.find(" //") {
            Some(n) => norm.get(..n).unwrap_or(norm),
            None => norm,
        };
        let mut stop = false;
        for (text, read) in parse_line(command_text, map, grammar) {
            // A line whose first word is no command and no province, and which reads as
            // prose: a sentence gets no "did you mean" (`Mit freundlichen Grüßen` is not a
            // misspelt Mid-Atlantic); a single word may be a misspelt name (`Bru`).
            let prose = matches!(read, Err(Pending::Unknown))
                && framing::looks_like_prose(text, map, |w| is_command_like(w, grammar));
            let suggest = out.suggest() && !(prose && text.contains(' '));
            let mut outcome = finish(text, read, map, cx, suggest);
            let (is_signon, is_signoff) = match &outcome {
                Ok(Command::Player(p)) => (p.is_signon(), *p == PlayerCommand::Signoff),
                _ => (false, false),
            };
            if is_signon {
                if signed_on {
                    outcome = Err(CommandError::SecondSignon);
                }
                signed_on = true;
            }
            stop |= is_signoff;
            let found = until_signon
                && matches!(&outcome, Ok(Command::Player(PlayerCommand::Signon { .. })));
            out.push(
                LineResult {
                    line,
                    text: text.to_string(),
                    outcome,
                },
                prose,
            );
            if found {
                return;
            }
        }
        if stop {
            break;
        }
    }
    if let Some(p) = press.take() {
        p.close(&mut out.lines, false);
    }
    if let Some((slot, block)) = register.take() {
        close_register(&mut out.lines, slot, block, false);
    }
    if let Some((slot, block)) = comment.take() {
        close_comment(&mut out.lines, slot, block);
    }
}

/// Puts a `SET COMMENT BEGIN` block's comment into its result (the `SET COMMENT BEGIN`
/// line's).
fn close_comment(out: &mut [LineResult], slot: usize, block: master::CommentBlock) {
    if let Some(l) = out.get_mut(slot) {
        l.outcome = block.into_command();
    }
}

/// Whether a line reproduces the judge's own reply (framing's [`framing::is_judge_line`], or
/// an `OK` echo of a command that reads): where a quoted reply starts that no client marked.
fn is_judge_reply(norm: &str, map: &Map, grammar: Option<&dyn Grammar>) -> bool {
    framing::is_judge_line(norm)
        || framing::ok_echo(norm).is_some_and(|rest| {
            press::is_press_header(rest) || read_command(rest, map, grammar).is_ok()
        })
}

/// Puts a `REGISTER` block's fields into its result (the `REGISTER` line's).
fn close_register(out: &mut [LineResult], slot: usize, block: player::RegisterBlock, closed: bool) {
    if let Some(l) = out.get_mut(slot) {
        l.outcome = Ok(Command::Player(block.into_command(closed)));
    }
}

/// Reads one normalised line that holds commands: a single command, or several orders
/// separated by `,` or `;`. Errors are turned into sentences only for what is reported
/// (suggestions cost an edit distance against every name), by the caller.
fn parse_line<'a>(
    norm: &'a str,
    map: &Map,
    grammar: Option<&dyn Grammar>,
) -> Vec<(&'a str, Result<Command, Pending<'a>>)> {
    let whole = read_command(norm, map, grammar);
    if whole.is_ok() || !norm.contains([',', ';']) || is_command_word(&first_word(norm), grammar) {
        return vec![(norm, whole)];
    }
    let pieces: Vec<&str> = norm
        .split([',', ';'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let results: Vec<(&str, Result<Command, Pending<'_>>)> = pieces
        .into_iter()
        .map(|p| (p, read_command(p, map, grammar)))
        .collect();
    if results.iter().any(|(_, r)| r.is_ok()) {
        results
    } else {
        vec![(norm, whole)]
    }
}

fn first_word(norm: &str) -> String {
    norm.split(' ').next().unwrap_or("").to_ascii_lowercase()
}

/// Whether a word starts a non-order command (so `,` in its line is not an order
/// separator).
fn is_command_word(w: &str, grammar: Option<&dyn Grammar>) -> bool {
    w == "set"
        || player::KEYWORDS.contains(&w)
        || master::KEYWORDS.contains(&w)
        || grammar.is_some_and(|g| g.keywords().contains(&w))
}

/// Words that start a command besides the player and master keywords: `SET`, press blocks
/// and adjustment orders written with a verb first.
const OTHER_COMMAND_WORDS: &[&str] = &[
    "set",
    "register",
    "press",
    "broadcast",
    "endpress",
    "endbroadcast",
    "official",
    "build",
    "remove",
    "disband",
    "waive",
];

/// The shared language's command words with their [`crate::map::char_classes`], worked out
/// once, for "did you mean" on a mistyped first word.
fn command_word_classes() -> &'static [(&'static str, (usize, u64))] {
    static WORDS: std::sync::OnceLock<Vec<(&'static str, (usize, u64))>> =
        std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        OTHER_COMMAND_WORDS
            .iter()
            .chain(player::KEYWORDS)
            .chain(master::KEYWORDS)
            .map(|k| (*k, crate::map::char_classes(k)))
            .collect()
    })
}

/// Whether a first word (in lower case) is like a command word: one letter from one when
/// it has four letters or more (`SIGNOF`, `Hlep`; of three letters nearly every word is one
/// letter from some command, `Met` from `SET`, and at two letters a name is a command's
/// cousin, `Claire` and `CLAIM`), a command word with punctuation after it
/// (`SIGNON,Egame,pw`), or a command word of five letters or more run on into the next word
/// (`SIGNONEgame`).
fn is_command_like(word: &str, grammar: Option<&dyn Grammar>) -> bool {
    let head: String = word
        .trim_start_matches(|c: char| !c.is_ascii_alphabetic())
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect();
    if head.is_empty() {
        return false;
    }
    let own = grammar.map(|g| g.keywords()).unwrap_or(&[]);
    let mut words = command_word_classes()
        .iter()
        .map(|(k, _)| *k)
        .chain(own.iter().copied());
    (head.chars().count() > 3 && near_command_word_within(&head, grammar, 1).is_some())
        || words.any(|k| k == head || (k.len() >= 5 && !k.contains(' ') && head.starts_with(k)))
}

/// The command word closest to `word` within a typo (one edit for a word of up to five
/// letters, two for a longer one), of the shared language's and the rule set's: what "did
/// you mean" names.
fn near_command_word(word: &str, grammar: Option<&dyn Grammar>) -> Option<&'static str> {
    let limit = if word.chars().count() <= 5 { 1 } else { 2 };
    near_command_word_within(word, grammar, limit)
}

/// The command word closest to `word` at most `limit` edits from it.
fn near_command_word_within(
    word: &str,
    grammar: Option<&dyn Grammar>,
    limit: usize,
) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    let classes = crate::map::char_classes(&lower);
    let own: Vec<(&'static str, (usize, u64))> = grammar
        .map(|g| g.keywords())
        .unwrap_or(&[])
        .iter()
        .map(|k| (*k, crate::map::char_classes(k)))
        .collect();
    command_word_classes()
        .iter()
        .chain(&own)
        .filter(|(_, k)| !crate::map::far_apart(classes, *k, limit))
        .filter_map(|(k, _)| crate::map::edit_distance_within(&lower, k, limit).map(|d| (d, *k)))
        .min()
        .map(|(_, k)| k)
}

/// Reads exactly one command from one normalised line (no `,` splitting).
pub fn parse_command(
    norm: &str,
    map: &Map,
    cx: &ParseContext<'_>,
) -> Result<Command, CommandError> {
    finish(norm, read_command(norm, map, cx.grammar), map, cx, true)
}

/// A failure not yet put into words.
enum Pending<'a> {
    Unknown,
    Parse(PErr<'a>),
}

/// The phase context applied to a command, or the error put into words (with suggestions
/// if `suggest`).
fn finish(
    norm: &str,
    r: Result<Command, Pending<'_>>,
    map: &Map,
    cx: &ParseContext<'_>,
    suggest: bool,
) -> Result<Command, CommandError> {
    match r {
        Ok(cmd) => Ok(apply_context(cmd, cx)),
        Err(Pending::Unknown) => Err(unknown_command(norm, map, cx.grammar, suggest)),
        Err(Pending::Parse(e)) => Err(convert(norm, e, map, suggest)),
    }
}

// command = "SET" setting | player_command | master_command | rule_set_command | order ;
//           (chosen by the first word; a rule set's commands by its grammar's keywords)
fn read_command<'a>(
    norm: &'a str,
    map: &Map,
    grammar: Option<&dyn Grammar>,
) -> Result<Command, Pending<'a>> {
    let first = first_word(norm);
    let result = if first == "set" {
        set_command(norm)
    } else if let Some(read) = njudge::KEYWORDS
        .contains(&first.as_str())
        .then(|| njudge::njudge_command(norm))
        .and_then(Result::ok)
    {
        // A line that is no njudge command after all (`WITHDRAW SURRENDER`, a rule set's)
        // goes on to the rest.
        Ok(read)
    } else if njudge::is_become_master(norm) {
        Ok(("", njudge::word_command(NjudgeWord::BecomeMaster)))
    } else if player::KEYWORDS.contains(&first.as_str()) || player::is_also(norm) {
        player::player_command(norm).map(|(r, c)| (r, Command::Player(c)))
    } else if master::KEYWORDS.contains(&first.as_str()) || master::is_declaration(norm) {
        master::master_command(norm).map(|(r, c)| (r, Command::Master(c)))
    } else if let Some(g) = grammar.filter(|g| g.keywords().contains(&first.as_str())) {
        g.command(map, norm).map(|(r, c)| (r, Command::Variant(c)))
    } else {
        order::order(map, grammar, norm).or_else(|e| {
            // A line that is not an order after all may still be a bulleted or numbered
            // one: `- A Par - Bur`, `* F Bre H`, `1. A Mar S A Par`, `2) …`.
            // If that fails too, the error that read further into the line is reported.
            match strip_list_marker(norm) {
                Some(rest) => order::order(map, grammar, rest).map_err(|e2| match (e, e2) {
                    (
                        nom::Err::Error(a) | nom::Err::Failure(a),
                        nom::Err::Error(b) | nom::Err::Failure(b),
                    ) if b.at.len() < a.at.len() => nom::Err::Failure(b),
                    (e, _) => e,
                }),
                None => Err(e),
            }
        })
    };
    match result {
        Ok((_, cmd)) => Ok(cmd),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            if e.at.len() >= norm.len()
                && matches!(e.why, Why::UnknownProvince(_) | Why::Expected(_) | Why::Nom)
            {
                Err(Pending::Unknown)
            } else {
                Err(Pending::Parse(e))
            }
        }
        Err(nom::Err::Incomplete(_)) => Err(Pending::Parse(PErr {
            at: norm,
            why: Why::Expected("a command or an order"),
        })),
    }
}

/// `- `, `* `, `• `, `1. `, `2) ` in front of an order.
fn strip_list_marker(norm: &str) -> Option<&str> {
    for m in ["- ", "* ", "\u{2022} ", "\u{b7} "] {
        if let Some(r) = norm.strip_prefix(m) {
            return Some(r);
        }
    }
    let digits = norm.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let rest = norm.get(digits..)?;
    rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") "))
}

// set_command = "SET" ( player_setting | master_setting ) ;
fn set_command(norm: &str) -> lexeme::PResult<'_, Command> {
    let (rest, _) = keyword("set")(norm)?;
    // njudge's settings first: each is read whole, so none takes a line of dipjudge's own.
    if let Some(c) = njudge::njudge_setting(rest) {
        return Ok(("", c));
    }
    match player::player_setting(rest) {
        Ok((r, c)) => return Ok((r, Command::Player(c))),
        Err(nom::Err::Failure(e)) => return Err(nom::Err::Failure(e)),
        Err(_) => {}
    }
    match master::master_setting(rest) {
        Ok((r, c)) => Ok((r, Command::Master(c))),
        Err(nom::Err::Failure(e)) => Err(nom::Err::Failure(e)),
        Err(_) => {
            let at = lexeme::blanks(rest);
            if at.is_empty() {
                return lexeme::failure(at, Why::Expected("a setting after SET"));
            }
            lexeme::failure(at, Why::UnknownSetting)
        }
    }
}

/// The setting words after `SET` (players' and the master's), for "did you mean".
fn setting_words() -> impl Iterator<Item = &'static str> {
    player::SETTINGS.iter().chain(master::SETTINGS).copied()
}

/// The setting closest to what follows `SET` in `at`, within a typo (one edit for up to
/// five letters, two for more), compared over as many words as each setting has
/// (`JION PASSWORD` is `JOIN PASSWORD`); ties go to the setting listed first.
fn near_setting(at: &str) -> Option<&'static str> {
    let words: Vec<String> = at
        .split(' ')
        .map(|w| {
            w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '/')
                .to_ascii_lowercase()
        })
        .collect();
    setting_words()
        .filter_map(|s| {
            let n = s.split(' ').count();
            let typed = words.get(..n)?.join(" ");
            if typed.len() > lexeme::MAX_SUGGEST_LEN {
                return None;
            }
            let limit = if typed.chars().count() <= 5 { 1 } else { 2 };
            crate::map::edit_distance_within(&typed, s, limit).map(|d| (d, s))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, s)| s)
}

/// The phase decides what `-` and `D` mean (see [`ParseContext::phase`]).
fn apply_context(cmd: Command, cx: &ParseContext<'_>) -> Command {
    match (cmd, cx.phase) {
        (Command::Order(oc), Some(PhaseKind::Retreat)) if oc.route.is_empty() => match oc.order {
            Order::Move {
                unit,
                dest,
                via_convoy: false,
            } => Command::Order(OrderCommand::new(Order::Retreat { unit, dest })),
            _ => Command::Order(oc),
        },
        (Command::Order(oc), Some(PhaseKind::Adjustment)) => match oc.order {
            Order::Disband { unit } => Command::Order(OrderCommand::new(Order::Remove { unit })),
            _ => Command::Order(oc),
        },
        (cmd, _) => cmd,
    }
}

fn syntax_error(norm: &str, expected: &'static str) -> CommandError {
    CommandError::Syntax {
        expected,
        after: None,
        found: (!norm.is_empty()).then(|| shorten(norm)),
    }
}

/// The first word is neither a command nor a province.
fn unknown_command(
    norm: &str,
    map: &Map,
    grammar: Option<&dyn Grammar>,
    suggest: bool,
) -> CommandError {
    let word = norm.split(' ').next().unwrap_or("").to_string();
    if word.len() > lexeme::MAX_SUGGEST_LEN {
        return CommandError::UnknownCommand {
            word: shorten(&word),
            suggestion: None,
        };
    }
    if !suggest {
        return CommandError::UnknownCommand {
            word,
            suggestion: None,
        };
    }
    let command = near_command_word(&word, grammar).map(|k| k.to_ascii_uppercase());
    let suggestion = command.or_else(|| {
        map.suggest(&word)
            .first()
            .map(|p| error::province_label(map, *p))
    });
    CommandError::UnknownCommand { word, suggestion }
}

/// At most 40 characters of what was found, for error sentences.
fn shorten(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() <= 40 {
        t.to_string()
    } else {
        let mut s: String = t.chars().take(40).collect();
        s.push('…');
        s
    }
}

/// Turns a parse error into the player's error (an unknown province with suggestions if
/// `suggest`).
fn convert(norm: &str, e: PErr<'_>, map: &Map, suggest: bool) -> CommandError {
    let offset = norm.len().saturating_sub(e.at.len());
    let before = norm.get(..offset).unwrap_or("").trim_end();
    let after = before
        .rsplit(' ')
        .next()
        .filter(|w| !w.is_empty())
        .map(str::to_string);
    let found = (!e.at.trim().is_empty()).then(|| shorten(e.at));
    match e.why {
        Why::Nom => CommandError::Syntax {
            expected: "a command or an order",
            after,
            found,
        },
        Why::Expected(expected) => CommandError::Syntax {
            expected,
            after,
            found,
        },
        Why::UnknownProvince(candidates) => {
            // A place that is no province (Switzerland) is named as such.
            if let Some(name) = candidates.iter().rev().find_map(|t| map.impassable(t)) {
                return CommandError::Impassable {
                    name: name.to_string(),
                };
            }
            // Name the longest run of words (up to three) that looks like a province
            // ("North Atlantc Ocean", not "North"), else the first word.
            let fitting = candidates
                .iter()
                .rev()
                .filter(|t| suggest && t.len() <= lexeme::MAX_SUGGEST_LEN)
                .map(|t| (t, map.suggest(t)))
                .find(|(_, near)| !near.is_empty());
            match fitting {
                Some((t, near)) => CommandError::unknown_province(map, t, near),
                None => {
                    let first = candidates.first().map_or("", String::as_str);
                    CommandError::unknown_province(map, &shorten(first), Vec::new())
                }
            }
        }
        Why::NoSuchCoast(p, coast) => CommandError::NoSuchCoast {
            province: map.province(p).name.clone(),
            coast,
        },
        Why::BadCoast(text) => CommandError::BadCoast { text },
        Why::UnknownPower(text) => CommandError::UnknownPower { text },
        Why::BadDate(text) => CommandError::BadDate { text },
        Why::Coded(c) => CommandError::Coded(c),
        Why::UnmailableAddress(address, why) => CommandError::UnmailableAddress {
            address: shorten(&address),
            why,
        },
        Why::UnknownSetting => {
            let word = e.at.split(' ').next().unwrap_or("");
            CommandError::UnknownSetting {
                word: shorten(word),
                suggestion: if suggest {
                    near_setting(e.at).map(str::to_ascii_uppercase)
                } else {
                    None
                },
            }
        }
        Why::UnclearRecipients(word, why) => CommandError::UnclearRecipients {
            word: shorten(&word),
            why,
        },
    }
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
