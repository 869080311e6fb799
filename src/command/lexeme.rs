//! Lexemes shared by every part of the command language: blanks, keywords, words,
//! numbers, powers, provinces with coasts, dates and game names (grammar/framing.md §Lexemes).
//!
//! Every lexeme parser skips the blanks in front of it, so rules compose without `ws`
//! wrappers. Lines reach these parsers already normalised (one blank between words, no
//! tabs), see [`super::normalise_line`].

use std::fmt;

use nom::IResult;
use nom::error::{ErrorKind, ParseError};

use crate::map::{Coast, Location, Map, Power, ProvinceId};

/// The parser's result type over one line.
pub type PResult<'a, T> = IResult<&'a str, T, PErr<'a>>;

/// A parse error: where it happened and why. Turned into a [`super::CommandError`] at the
/// top; never shown to a player as it is.
#[derive(Clone, Debug, PartialEq)]
pub struct PErr<'a> {
    pub at: &'a str,
    pub why: Why,
}

/// The reason carried by a [`PErr`].
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// A bare nom failure with no label (should be wrapped by [`expect`]).
    Nom,
    /// What the grammar wanted here, in words ("a province").
    Expected(&'static str),
    /// No province by this name: the first one, two and three words from here.
    UnknownProvince(Vec<String>),
    NoSuchCoast(ProvinceId, Coast),
    BadCoast(String),
    UnknownPower(String),
    BadDate(String),
    /// A rule set's own error, with its spec code (a ballot that cannot be read, a
    /// declaration of war on something that is not a power).
    Coded(super::Coded),
    /// An address the mailer cannot send to, and why.
    UnmailableAddress(String, &'static str),
    /// The word after `SET` is no setting (the line from it on is where the error is).
    UnknownSetting,
    /// A word of a press list that could be read as initials but is refused, as written.
    UnclearRecipients(String, UnclearRecipients),
}

impl Why {
    /// How much a reason tells the player: a named fault beats "expected", which beats
    /// nothing.
    fn rank(&self) -> u8 {
        match self {
            Why::Nom => 0,
            Why::Expected(_) => 1,
            _ => 2,
        }
    }
}

impl<'a> ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        PErr {
            at: input,
            why: Why::Nom,
        }
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two failed alternatives keep the one that read further into the line; at the
    /// same place, the more telling reason; else the first.
    fn or(self, other: Self) -> Self {
        if other.at.len() < self.at.len()
            || (other.at.len() == self.at.len() && other.why.rank() > self.why.rank())
        {
            other
        } else {
            self
        }
    }
}

/// An `Err::Error` (alternatives may still be tried).
pub fn fail<T>(at: &str, why: Why) -> PResult<'_, T> {
    Err(nom::Err::Error(PErr { at, why }))
}

/// An `Err::Failure` (the line is committed to this reading).
pub fn failure<T>(at: &str, why: Why) -> PResult<'_, T> {
    Err(nom::Err::Failure(PErr { at, why }))
}

/// Turns an `Error` into a `Failure`: nom's `cut`, for plain functions.
pub fn cut<T>(r: PResult<'_, T>) -> PResult<'_, T> {
    match r {
        Err(nom::Err::Error(e)) => Err(nom::Err::Failure(e)),
        other => other,
    }
}

/// Labels a parser: a failure that tells nothing better, at the place the parser started,
/// becomes "expected {label}".
pub fn expect<'a, T>(
    label: &'static str,
    mut p: impl FnMut(&'a str) -> PResult<'a, T>,
) -> impl FnMut(&'a str) -> PResult<'a, T> {
    move |i: &'a str| {
        let start = blanks(i);
        let relabel = |e: PErr<'a>| {
            if e.why.rank() < 2 && e.at.len() >= start.len() {
                PErr {
                    at: start,
                    why: Why::Expected(label),
                }
            } else {
                e
            }
        };
        match p(i) {
            Err(nom::Err::Error(e)) => Err(nom::Err::Error(relabel(e))),
            Err(nom::Err::Failure(e)) => Err(nom::Err::Failure(relabel(e))),
            other => other,
        }
    }
}

/// Skips blanks. (Lines are normalised, so a blank is a single space.)
pub fn blanks(i: &str) -> &str {
    i.trim_start_matches(' ')
}

/// A character that continues a word: keywords end only where none follows.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// A character of a name (a province, power, game): letters, digits, `.` and apostrophes.
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '.' || c == '\'' || c == '\u{2019}'
}

/// end_of_line = { blank } ;
pub fn end_of_line(i: &str) -> PResult<'_, ()> {
    let r = blanks(i);
    if r.is_empty() {
        Ok((r, ()))
    } else {
        fail(r, Why::Expected("the end of the line"))
    }
}

/// keyword = the word itself, any letter case; a blank inside the keyword may be left out
/// (`SIGN ON` = `SIGNON`); it must not run on into a longer word.
pub fn keyword<'a>(kw: &'static str) -> impl Fn(&'a str) -> PResult<'a, &'static str> {
    move |i: &'a str| {
        let start = blanks(i);
        let mut rest = start;
        for (n, part) in kw.split(' ').enumerate() {
            if n > 0 {
                rest = blanks(rest);
            }
            match nom::bytes::complete::tag_no_case::<_, _, PErr<'a>>(part)(rest) {
                Ok((r, _)) => rest = r,
                Err(_) => return fail(start, Why::Expected(kw)),
            }
        }
        let ends_in_word = kw.chars().last().is_some_and(is_word_char);
        if ends_in_word && rest.chars().next().is_some_and(is_word_char) {
            return fail(start, Why::Expected(kw));
        }
        Ok((rest, kw))
    }
}

/// One of several keywords (list longer ones first when one is a prefix of another); gives
/// back the entry that matched.
pub fn one_of<'a>(
    kws: &'static [&'static str],
    label: &'static str,
) -> impl Fn(&'a str) -> PResult<'a, &'static str> {
    move |i: &'a str| {
        for kw in kws {
            if let Ok(r) = keyword(kw)(i) {
                return Ok(r);
            }
        }
        fail(blanks(i), Why::Expected(label))
    }
}

/// token = a run of characters other than blanks.
pub(crate) fn token(i: &str) -> PResult<'_, &str> {
    let start = blanks(i);
    let end = start.find(' ').unwrap_or(start.len());
    match (start.get(..end), start.get(end..)) {
        (Some(t), Some(rest)) if !t.is_empty() => Ok((rest, t)),
        _ => fail(start, Why::Expected("a word")),
    }
}

/// name_word = name_char { name_char } ;   (letters, digits, `.`, `'`)
pub fn name_word(i: &str) -> PResult<'_, &str> {
    let start = blanks(i);
    let end = start
        .char_indices()
        .find(|(_, c)| !is_name_char(*c))
        .map_or(start.len(), |(n, _)| n);
    match (start.get(..end), start.get(end..)) {
        (Some(t), Some(rest)) if !t.is_empty() => Ok((rest, t)),
        _ => fail(start, Why::Expected("a name")),
    }
}

/// number = digit { digit } ;
pub fn number(i: &str) -> PResult<'_, u32> {
    let start = blanks(i);
    let end = start
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(start.len(), |(n, _)| n);
    let digits = start.get(..end).unwrap_or("");
    let rest = start.get(end..).unwrap_or("");
    if digits.is_empty() || rest.chars().next().is_some_and(is_word_char) {
        return fail(start, Why::Expected("a number"));
    }
    match digits.parse::<u32>() {
        Ok(n) => Ok((rest, n)),
        Err(_) => fail(start, Why::Expected("a number")),
    }
}

/// dash = "-" | "–" | "—" ;   (a separator inside the long forms; see grammar/orders.md)
pub fn dash(i: &str) -> PResult<'_, ()> {
    let start = blanks(i);
    for d in ["-", "\u{2013}", "\u{2014}"] {
        if let Some(r) = start.strip_prefix(d) {
            return Ok((r, ()));
        }
    }
    fail(start, Why::Expected("-"))
}

/// Optional: skips a dash (`-`, `–`, `—`) if there is one.
pub fn opt_dash(i: &str) -> &str {
    dash(i).map_or(i, |(r, _)| r)
}

/// The byte ends of up to `max` words of a name starting at `i`: words are joined by one
/// blank or by a hyphen written between two letters (`Mid-Atlantic`).
fn name_word_ends(i: &str, max: usize) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut pos = 0;
    while ends.len() < max {
        let Some(rest) = i.get(pos..) else { break };
        let len = rest
            .char_indices()
            .find(|(_, c)| !is_name_char(*c))
            .map_or(rest.len(), |(n, _)| n);
        if len == 0 {
            break;
        }
        pos += len;
        ends.push(pos);
        let Some(after) = i.get(pos..) else { break };
        let mut chars = after.chars();
        match (chars.next(), chars.next()) {
            (Some(' ' | '-'), Some(c)) if is_name_char(c) => pos += 1,
            _ => break,
        }
    }
    ends
}

/// Words longer than this get no "did you mean": no province name is near that long, and
/// the edit distance would cost time in proportion to the word (a fuzzer's 4 KB word).
pub(crate) const MAX_SUGGEST_LEN: usize = 32;

/// province = province_name ;   the longest run of up to four words that the map's name
/// table knows (codes, full names, aliases; case, blanks, `.` and `-` ignored).
pub fn province<'a>(map: &Map, i: &'a str) -> PResult<'a, ProvinceId> {
    let start = blanks(i);
    let ends = name_word_ends(start, 4);
    for (k, end) in ends.iter().enumerate().rev() {
        // A one-letter word never ends a longer name: `Gulf of Lyon S` is Lyon and a
        // support, not the alias `Gulf of Lyons`.
        let last_is_letter = k > 0
            && ends
                .get(k - 1)
                .and_then(|prev| start.get(prev + 1..*end))
                .is_some_and(|w| w.chars().count() == 1);
        if last_is_letter || splits_at_hyphen(map, start, *end) {
            continue;
        }
        if let (Some(text), Some(rest)) = (start.get(..*end), start.get(*end..))
            && let Some(p) = map.find_province(text)
        {
            return Ok((rest, p));
        }
    }
    if ends.is_empty() {
        return fail(start, Why::Expected("a province"));
    }
    // Which words to name in the error ("Bru", or "North Atlantc") is decided once, when the
    // error reaches the player: suggestions cost an edit distance against every name, and
    // the parser may try several readings of a line.
    let candidates = ends
        .iter()
        .take(3)
        .filter_map(|e| start.get(..*e))
        .map(str::to_string)
        .collect();
    fail(start, Why::UnknownProvince(candidates))
}

/// Whether the first `end` bytes of `start` join two provinces with a hyphen: the words
/// before some hyphen in them name a province and the words after it start another
/// (`Swe-Den` is a move from Sweden to Denmark, not "Sweden" read with the hyphen ignored;
/// `Mid-Atlantic` stays one name, as `Atlantic` starts none). A hyphen between two
/// province names or codes is a move (grammar/framing.md).
fn splits_at_hyphen(map: &Map, start: &str, end: usize) -> bool {
    let Some(text) = start.get(..end) else {
        return false;
    };
    text.match_indices('-').any(|(h, _)| {
        let (Some(left), Some(right)) = (start.get(..h), start.get(h + 1..)) else {
            return false;
        };
        map.find_province(left).is_some()
            && name_word_ends(right, 4)
                .iter()
                .filter_map(|e| right.get(..*e))
                .any(|t| map.find_province(t).is_some())
    })
}

/// coast = "/" coast_name | "(" coast_name ")" | " " coast_code ;
/// coast_name = "nc" | "sc" | "ec" | "n" | "s" | "e" | "north" [ "coast" ] | … ;
/// coast_code = "nc" | "sc" | "ec" | "north coast" | "south coast" | "east coast" ;
fn coast(i: &str) -> PResult<'_, Option<Coast>> {
    let start = blanks(i);
    if let Some(after) = start.strip_prefix('/') {
        let after = blanks(after);
        let ends = name_word_ends(after, 2);
        for end in ends.iter().rev() {
            // A full stop may end the line right after the coast (`F Spa/nc.`).
            if let (Some(t), Some(rest)) = (after.get(..*end), after.get(*end..))
                && let Some(c) = Coast::from_text(t.trim_end_matches('.'))
            {
                return Ok((rest, Some(c)));
            }
        }
        let shown = ends.first().and_then(|e| after.get(..*e)).unwrap_or(after);
        return failure(after, Why::BadCoast(shown.to_string()));
    }
    if let Some(after) = start.strip_prefix('(') {
        // `(*bounce*)` after a results listing's order is its outcome, not a coast.
        if after.starts_with('*') {
            return Ok((i, None));
        }
        let Some(close) = after.find(')') else {
            return failure(after, Why::Expected("a coast and \")\""));
        };
        let inner = after.get(..close).unwrap_or("");
        let rest = after.get(close + 1..).unwrap_or("");
        return match Coast::from_text(inner) {
            Some(c) => Ok((rest, Some(c))),
            None => failure(after, Why::BadCoast(inner.trim().to_string())),
        };
    }
    const WORDS: &[&str] = &["north coast", "south coast", "east coast", "nc", "sc", "ec"];
    match one_of(WORDS, "a coast")(i) {
        Ok((rest, w)) => Ok((rest, Coast::from_text(w))),
        Err(_) => Ok((i, None)),
    }
}

/// location = province \[ coast \] ;   the coast must be one the province has.
pub fn location<'a>(map: &Map, i: &'a str) -> PResult<'a, Location> {
    let (rest, p) = province(map, i)?;
    let (rest2, c) = coast(rest)?;
    match c {
        None => Ok((rest2, Location::province(p))),
        Some(c) if map.province(p).coasts.contains(&c) => Ok((
            rest2,
            Location {
                province: p,
                coast: Some(c),
            },
        )),
        Some(c) => failure(blanks(rest), Why::NoSuchCoast(p, c)),
    }
}

/// power = power_name | power_adjective | power_code ;   (`France`, `French`, `FRA`; never a
/// single letter: README §2.1)
pub fn power(i: &str) -> PResult<'_, Power> {
    let start = blanks(i);
    let (rest, w) = match name_word(start) {
        Ok(r) => r,
        Err(_) => return fail(start, Why::Expected("a power")),
    };
    match Power::from_name(w.trim_end_matches('.')) {
        Some(p) => Ok((rest, p)),
        None => fail(start, Why::UnknownPower(w.to_string())),
    }
}

/// power_or_initial = power | initial ;   (master and player commands, where `A` and `F`
/// cannot mean a unit)
pub(crate) fn power_or_initial(i: &str) -> PResult<'_, Power> {
    let start = blanks(i);
    if let Ok((rest, w)) = name_word(start) {
        let mut cs = w.chars();
        if let (Some(c), None) = (cs.next(), cs.next())
            && let Some(p) = Power::from_initial(c)
        {
            return Ok((rest, p));
        }
    }
    power(start)
}

/// A press recipient: a power, the game master (`M`), or the game's observers (`O`, as
/// njudge reads it in every variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Recipient {
    Power(Power),
    Master,
    Observers,
}

impl Recipient {
    /// The letter a press list writes it with: the power's initial, `M` or `O`.
    pub fn initial(&self) -> char {
        match self {
            Recipient::Power(p) => p.initial(),
            Recipient::Master => 'M',
            Recipient::Observers => 'O',
        }
    }
}

impl fmt::Display for Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Recipient::Power(p) => f.write_str(p.name()),
            Recipient::Master => f.write_str("M"),
            Recipient::Observers => f.write_str("O"),
        }
    }
}

/// power_list = list_item { [ "," | "AND" ] list_item } ;
/// list_item = power | initial { initial } ;   (`AEF`, `A E F`, `England, France`; a word
/// that is a power's code is read as that power: `FRA` is France)
///
/// With `press` (a press list, on that board), `M` (the master) and `O` (the observers) are
/// initials too, `MASTER` and `OBSERVERS` read as such, and a word is read as initials only
/// as [`press_initials`] allows. Duplicates are dropped; the order is kept as written.
pub(crate) fn recipient_list<'a>(i: &'a str, press: Option<&Map>) -> PResult<'a, Vec<Recipient>> {
    let mut out: Vec<Recipient> = Vec::new();
    let mut rest = i;
    loop {
        let item_start = blanks(rest);
        let Ok((r, w)) = name_word(item_start) else {
            break;
        };
        let found: Vec<Recipient> = if let Some(p) = Power::from_name(w) {
            vec![Recipient::Power(p)]
        } else if let Some(map) = press {
            if w.eq_ignore_ascii_case("master") {
                vec![Recipient::Master]
            } else if w.eq_ignore_ascii_case("observers") || w.eq_ignore_ascii_case("observer") {
                vec![Recipient::Observers]
            } else {
                match press_initials(map, w) {
                    Ok(found) => found,
                    Err(Some(why)) => {
                        return failure(item_start, Why::UnclearRecipients(w.to_string(), why));
                    }
                    Err(None) => Vec::new(),
                }
            }
        } else {
            initials(w, false)
        };
        if found.is_empty() {
            if out.is_empty() {
                return fail(item_start, Why::UnknownPower(w.to_string()));
            }
            break;
        }
        for f in found {
            if !out.contains(&f) {
                out.push(f);
            }
        }
        rest = r;
        let after = blanks(rest);
        if let Some(a) = after.strip_prefix(',') {
            rest = a;
        } else if let Ok((a, _)) = keyword("and")(after) {
            rest = a;
        }
    }
    if out.is_empty() {
        return fail(blanks(i), Why::Expected("a list of powers"));
    }
    Ok((rest, out))
}

/// The word's letters read one by one as initials (`M` and `O` too with `master`), or
/// nothing if a letter is none.
fn initials(w: &str, master: bool) -> Vec<Recipient> {
    let mut found = Vec::new();
    for c in w.chars() {
        match (Power::from_initial(c), c.to_ascii_uppercase()) {
            (Some(p), _) => found.push(Recipient::Power(p)),
            (None, 'M') if master => found.push(Recipient::Master),
            (None, 'O') if master => found.push(Recipient::Observers),
            _ => return Vec::new(),
        }
    }
    found
}

/// Words players write in a press line that are spelt with initials but are no list:
/// `PRESS TO E FROM G` is not England, France, Russia, the observers, the master and
/// Germany.
const NOT_INITIALS: &[&str] = &["from", "to", "for", "or", "of", "if", "me", "off", "too"];

/// Why a word of a press list that could be read as initials is refused (issue 38: an
/// ordinary word must never send press to a set of readers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnclearRecipients {
    /// A province's name or abbreviation (`ROME`, `aeg`): the province's full name.
    Province(String),
    /// A word of the language (`FROM`, `TO`).
    Word,
    /// `GM`: the game master, or Germany and the master.
    GameMaster,
    /// The same initial twice (`FEE`).
    Repeated,
    /// Initials out of the board's order (`GREAT`, `frg`): what they would read as, and the
    /// same initials in order.
    OutOfOrder(Vec<Recipient>, String),
}

/// press_initials = initial { initial } ;   (distinct, in the board's order: the powers', then
/// M, then O; and no word of the board or of the language)
///
/// A word of a press list read as initials: `Ok` with the readers, `Err(None)` when some
/// letter is no initial (the word is simply no list), `Err(Some(why))` when it could be
/// read so but is something else players write, or not in the order a list is written in
/// (`PRESS TO ROME`, `PRESS TO GREAT`). njudge read any such word letter by letter; a list
/// written in order (`FGR`, `GO`, `RO`) reads as it did there.
fn press_initials(map: &Map, w: &str) -> Result<Vec<Recipient>, Option<UnclearRecipients>> {
    let found = initials(w, true);
    if found.is_empty() {
        return Err(None);
    }
    if found.len() == 1 {
        return Ok(found);
    }
    if let Some(p) = map.find_province(w) {
        return Err(Some(UnclearRecipients::Province(
            map.province(p).name.clone(),
        )));
    }
    let lower = w.to_ascii_lowercase();
    if lower == "gm" {
        return Err(Some(UnclearRecipients::GameMaster));
    }
    if NOT_INITIALS.contains(&lower.as_str()) {
        return Err(Some(UnclearRecipients::Word));
    }
    let mut sorted = found.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() < found.len() {
        return Err(Some(UnclearRecipients::Repeated));
    }
    if sorted != found {
        let letters = sorted.iter().map(Recipient::initial).collect();
        return Err(Some(UnclearRecipients::OutOfOrder(found, letters)));
    }
    Ok(found)
}

/// A list of powers only (no master).
pub(crate) fn power_list(i: &str) -> PResult<'_, Vec<Power>> {
    let (rest, rs) = recipient_list(i, None)?;
    let ps = rs
        .into_iter()
        .filter_map(|r| match r {
            Recipient::Power(p) => Some(p),
            Recipient::Master | Recipient::Observers => None,
        })
        .collect();
    Ok((rest, ps))
}

/// A game's name: letters, digits, `_` and `-`, kept in lower case (njudge's habit).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameName(String);

impl GameName {
    /// Reads a game name; `None` unless it is 1 to 32 characters of letters, digits, `_`
    /// and `-`, starting with a letter or digit.
    pub fn new(text: &str) -> Option<GameName> {
        let ok = !text.is_empty()
            && text.len() <= 32
            && text
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        ok.then(|| GameName(text.to_ascii_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// game_name = ( letter | digit ) { letter | digit | "_" | "-" } ;
pub(crate) fn game_name(i: &str) -> PResult<'_, GameName> {
    let start = blanks(i);
    match token(start) {
        Ok((rest, t)) => match GameName::new(t) {
            Some(g) => Ok((rest, g)),
            None => fail(start, Why::Expected("a game name")),
        },
        Err(_) => fail(start, Why::Expected("a game name")),
    }
}

/// address = an e-mail address the judge can send to (lettre reads it), a person's, at a
/// domain on the Internet (`command::address::unmailable`: `BAD-ADDRESS` says why not).
pub(crate) fn address(i: &str) -> PResult<'_, String> {
    let start = blanks(i);
    let (r, a) = expect("an e-mail address", token)(start)?;
    if a.parse::<lettre::Address>().is_err() {
        return fail(start, Why::Expected("an e-mail address"));
    }
    if let Some(why) = super::address::unmailable(a) {
        return fail(start, Why::UnmailableAddress(a.to_string(), why));
    }
    Ok((r, a.to_string()))
}

/// clock = time | minutes ;   (`20:00`, or njudge's minutes after midnight, `1410`)
pub(crate) fn clock(i: &str) -> PResult<'_, u16> {
    let start = blanks(i);
    if let Ok((r, (h, m))) = time(start) {
        return Ok((r, u16::from(h) * 60 + u16::from(m)));
    }
    match number(start) {
        Ok((r, n)) if n < 24 * 60 => Ok((r, n as u16)),
        _ => fail(start, Why::Expected("a time of day (like 20:00)")),
    }
}

/// hours = digit { digit } [ "." { digit } ] ;   (`48`, `0.5`, `71.00`: read as minutes,
/// at most a year)
pub(crate) fn hours(i: &str) -> PResult<'_, i64> {
    let start = blanks(i);
    let bad = || fail(start, Why::Expected("a number of hours (like 48 or 0.5)"));
    let Ok((r, t)) = token(start) else {
        return bad();
    };
    let (whole, frac) = t.split_once(['.', ',']).unwrap_or((t, ""));
    if (whole.is_empty() && frac.is_empty())
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
        || whole.len() > 4
    {
        return bad();
    }
    let hours: i64 = if whole.is_empty() {
        0
    } else {
        match whole.parse() {
            Ok(h) => h,
            Err(_) => return bad(),
        }
    };
    if hours > 24 * 366 {
        return bad();
    }
    // The fraction of an hour, rounded to the minute: four digits count.
    let digits: String = frac.chars().chain("0000".chars()).take(4).collect();
    let part: i64 = digits.parse().unwrap_or(0);
    Ok((r, hours * 60 + (part * 60 + 5_000) / 10_000))
}

/// days = seven characters, Sunday first: the day's letter (upper case: any time; lower
/// case: from noon) or "-" ;   (`-MTWTF-`; letter case matters here, as in njudge)
pub(crate) fn days_word(i: &str) -> PResult<'_, String> {
    const LETTERS: [char; 7] = ['S', 'M', 'T', 'W', 'T', 'F', 'S'];
    let start = blanks(i);
    let bad = || {
        fail(
            start,
            Why::Expected("seven day letters, Sunday first (like -MTWTF-)"),
        )
    };
    let Ok((r, t)) = token(start) else {
        return bad();
    };
    let chars: Vec<char> = t.chars().collect();
    let fits = chars.len() == 7
        && chars
            .iter()
            .zip(LETTERS)
            .all(|(c, l)| *c == '-' || *c == l || *c == l.to_ascii_lowercase())
        && chars.iter().any(|c| *c != '-');
    if !fits {
        return bad();
    }
    Ok((r, t.to_string()))
}

/// password = token ;   (any run of characters without blanks, letter case kept)
pub(crate) fn password(i: &str) -> PResult<'_, String> {
    expect("a password", token)(i).map(|(r, t)| (r, t.to_string()))
}

/// A date as written in a command, validated but not yet placed in a time zone (the judge
/// interprets it later, relative to the game's zone and its clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// The year, when written.
    pub year: Option<u16>,
    /// 1 to 12.
    pub month: u8,
    /// 1 to the month's length.
    pub day: u8,
    /// Hours (0–23) and minutes, when written.
    pub time: Option<(u8, u8)>,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const MONTH_NAMES: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const WEEKDAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

impl Date {
    fn days_in_month(year: Option<u16>, month: u8) -> u8 {
        match month {
            4 | 6 | 9 | 11 => 30,
            2 => match year {
                Some(y) if !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) => 28,
                _ => 29,
            },
            _ => 31,
        }
    }

    /// A date with these parts, if they make a real date.
    pub fn new(year: Option<u16>, month: u8, day: u8, time: Option<(u8, u8)>) -> Option<Date> {
        let ok = (1..=12).contains(&month)
            && day >= 1
            && day <= Date::days_in_month(year, month)
            && year.is_none_or(|y| (1000..=9999).contains(&y))
            && time.is_none_or(|(h, m)| h < 24 && m < 60);
        ok.then_some(Date {
            year,
            month,
            day,
            time,
        })
    }
}

impl fmt::Display for Date {
    /// `2026-12-01 23:00`, or `Dec 1 23:00` when no year was given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.year {
            Some(y) => write!(f, "{y:04}-{:02}-{:02}", self.month, self.day)?,
            None => {
                let m = MONTHS
                    .get(usize::from(self.month.saturating_sub(1)))
                    .copied()
                    .unwrap_or("jan");
                let mut cs = m.chars();
                let cap: String = cs
                    .next()
                    .map(|c| c.to_ascii_uppercase())
                    .into_iter()
                    .chain(cs)
                    .collect();
                write!(f, "{cap} {}", self.day)?;
            }
        }
        if let Some((h, m)) = self.time {
            write!(f, " {h:02}:{m:02}")?;
        }
        Ok(())
    }
}

/// month = "jan" | "january" | … ;   (the first three letters, or the whole name; a `.` may
/// follow)
fn month(i: &str) -> PResult<'_, u8> {
    let (rest, w) = name_word(i)?;
    let w = w.trim_end_matches('.').to_ascii_lowercase();
    let found = (0u8..12).find(|n| {
        let k = usize::from(*n);
        MONTHS.get(k).is_some_and(|m| **m == w) || MONTH_NAMES.get(k).is_some_and(|m| **m == w)
    });
    match found {
        Some(n) => Ok((rest, n + 1)),
        None => fail(blanks(i), Why::Expected("a month")),
    }
}

/// weekday = "mon" | "monday" | … [ "," ] ;
fn weekday(i: &str) -> PResult<'_, ()> {
    let (rest, w) = name_word(i)?;
    let w = w.trim_end_matches('.').to_ascii_lowercase();
    let known = WEEKDAYS
        .iter()
        .any(|d| w == *d || (w.len() > 3 && w.starts_with(d) && w.ends_with("day")));
    if known {
        let rest = blanks(rest);
        Ok((rest.strip_prefix(',').unwrap_or(rest), ()))
    } else {
        fail(blanks(i), Why::Expected("a weekday"))
    }
}

/// day = digit [ digit ] [ "st" | "nd" | "rd" | "th" ] [ "," ] ;
fn day(i: &str) -> PResult<'_, u8> {
    let start = blanks(i);
    let end = start
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(start.len(), |(n, _)| n);
    let digits = start.get(..end).unwrap_or("");
    let mut rest = start.get(end..).unwrap_or("");
    for suffix in ["st", "nd", "rd", "th"] {
        if let Ok((r, _)) = keyword(suffix)(rest)
            && rest
                .get(..suffix.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(suffix))
        {
            rest = r;
            break;
        }
    }
    if rest.chars().next().is_some_and(is_word_char) || digits.is_empty() || digits.len() > 2 {
        return fail(start, Why::Expected("a day"));
    }
    let rest = rest.strip_prefix(',').unwrap_or(rest);
    match digits.parse::<u8>() {
        Ok(d) => Ok((rest, d)),
        Err(_) => fail(start, Why::Expected("a day")),
    }
}

/// year = digit digit digit digit ;
fn year(i: &str) -> PResult<'_, u16> {
    let start = blanks(i);
    let (rest, n) = number(start)?;
    match u16::try_from(n) {
        Ok(y) if (1000..=9999).contains(&y) => {
            let rest = rest.strip_prefix(',').unwrap_or(rest);
            Ok((rest, y))
        }
        _ => fail(start, Why::Expected("a year")),
    }
}

/// time = hour ":" minute [ "am" | "pm" ] | hour ( "am" | "pm" ) ;
pub(crate) fn time(i: &str) -> PResult<'_, (u8, u8)> {
    let start = blanks(i);
    let bad = || fail(start, Why::Expected("a time"));
    let hend = start
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(start.len(), |(n, _)| n);
    let Ok(mut h) = start.get(..hend).unwrap_or("").parse::<u8>() else {
        return bad();
    };
    let mut rest = start.get(hend..).unwrap_or("");
    let mut m = 0u8;
    let mut had_minutes = false;
    if let Some(after) = rest.strip_prefix(':').or_else(|| rest.strip_prefix('.')) {
        let mend = after
            .char_indices()
            .find(|(_, c)| !c.is_ascii_digit())
            .map_or(after.len(), |(n, _)| n);
        if mend != 2 {
            return bad();
        }
        let Ok(mm) = after.get(..mend).unwrap_or("").parse::<u8>() else {
            return bad();
        };
        m = mm;
        had_minutes = true;
        rest = after.get(mend..).unwrap_or("");
    }
    let ampm = one_of(&["am", "a.m.", "pm", "p.m."], "am or pm")(rest);
    match ampm {
        Ok((r, w)) => {
            if !(1..=12).contains(&h) {
                return bad();
            }
            if w.starts_with('p') && h != 12 {
                h += 12;
            } else if w.starts_with('a') && h == 12 {
                h = 0;
            }
            rest = r;
        }
        Err(_) if !had_minutes => return bad(),
        Err(_) => {}
    }
    if rest.chars().next().is_some_and(is_word_char) || h > 23 || m > 59 {
        return bad();
    }
    Ok((rest, (h, m)))
}

/// date = [ weekday ] ( iso_date | month day [ year ] | day month [ year ] ) [ time ] ;
/// iso_date = year "-" month_number "-" day_number ;
///
/// The whole date must be valid (no 31 April); an unreadable date is one `BAD-DATE` error
/// quoting what was written up to the next keyword.
pub(crate) fn date(i: &str) -> PResult<'_, Date> {
    let start = blanks(i);
    let after_wd = weekday(start).map_or(start, |(r, _)| r);
    let parsed: Option<(&str, Option<u16>, u8, u8)> = iso_date(after_wd)
        .or_else(|| {
            let (r, m) = month(after_wd).ok()?;
            let (r, d) = day(r).ok()?;
            let (r, y) = match year(r) {
                Ok((r, y)) => (r, Some(y)),
                Err(_) => (r, None),
            };
            Some((r, y, m, d))
        })
        .or_else(|| {
            let (r, d) = day(after_wd).ok()?;
            let (r, m) = month(r).ok()?;
            let (r, y) = match year(r) {
                Ok((r, y)) => (r, Some(y)),
                Err(_) => (r, None),
            };
            Some((r, y, m, d))
        });
    let shown = || {
        let upto = start
            .to_ascii_lowercase()
            .find(" to ")
            .or_else(|| start.to_ascii_lowercase().find(" lines "))
            .unwrap_or(start.len());
        start.get(..upto).unwrap_or(start).trim().to_string()
    };
    let Some((rest, y, m, d)) = parsed else {
        if start.is_empty() {
            return fail(start, Why::Expected("a date"));
        }
        return failure(start, Why::BadDate(shown()));
    };
    let (rest, t) = match time(rest) {
        Ok((r, t)) => (r, Some(t)),
        Err(_) => (rest, None),
    };
    match Date::new(y, m, d, t) {
        Some(date) => Ok((rest, date)),
        None => failure(start, Why::BadDate(shown())),
    }
}

/// `2026-12-01`
fn iso_date(i: &str) -> Option<(&str, Option<u16>, u8, u8)> {
    let start = blanks(i);
    let (w, rest) = match start.find(' ') {
        Some(n) => (start.get(..n)?, start.get(n..)?),
        None => (start, ""),
    };
    let mut parts = w.split('-');
    let y: u16 = parts.next()?.parse().ok()?;
    let m: u8 = parts.next()?.parse().ok()?;
    let d: u8 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1000..=9999).contains(&y) {
        return None;
    }
    Some((rest, Some(y), m, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> &'static Map {
        Map::standard().unwrap()
    }

    macro_rules! loc {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let got = location(map(), $text).map(|(r, l)| (r, map().display_location(l)));
                assert_eq!(
                    got.ok(),
                    $want.map(|(r, l): (&str, &str)| (r, l.to_string()))
                );
            }
        };
    }

    loc!(loc_code, "par", Some(("", "Par")));
    loc!(
        loc_full_multiword,
        "North Atlantic Ocean - Nwg",
        Some((" - Nwg", "NAO"))
    );
    loc!(loc_hyphenated, "Mid-Atlantic Ocean", Some(("", "MAO")));
    loc!(loc_joined_route, "lon-nth-nwy", Some(("-nth-nwy", "Lon")));
    // Issue 25: `Swe` and `Den` joined read "Sweden"; a hyphen between two provinces is
    // a move all the same.
    loc!(loc_hyphen_between_codes, "Swe-Den", Some(("-Den", "Swe")));
    loc!(loc_hyphen_lower_case, "swe-den H", Some(("-den H", "Swe")));
    loc!(loc_hyphen_alias_first, "Mid-Nao", Some(("-Nao", "MAO")));
    loc!(loc_slash_coast, "stp/nc - bar", Some((" - bar", "StP/nc")));
    loc!(loc_paren_coast, "Spa(sc)", Some(("", "Spa/sc")));
    loc!(
        loc_paren_long,
        "St. Petersburg (north coast)",
        Some(("", "StP/nc"))
    );
    loc!(loc_blank_coast, "bul ec", Some(("", "Bul/ec")));
    loc!(loc_slash_long, "spa/south coast", Some(("", "Spa/sc")));
    loc!(loc_trailing_dot, "bur.", Some(("", "Bur")));
    loc!(loc_then_keyword, "nth c a lon", Some((" c a lon", "NTH")));
    loc!(loc_unknown, "bru", None::<(&str, &str)>);

    #[test]
    fn unknown_province_names_the_word() {
        let e = location(map(), "Bru - Par").unwrap_err();
        assert!(
            matches!(e, nom::Err::Error(PErr { why: Why::UnknownProvince(ref t), .. }) if t[0] == "Bru")
        );
    }

    #[test]
    fn coast_that_does_not_exist_is_a_failure() {
        let e = location(map(), "par/nc").unwrap_err();
        assert!(matches!(
            e,
            nom::Err::Failure(PErr {
                why: Why::NoSuchCoast(..),
                ..
            })
        ));
    }

    macro_rules! kw {
        ($name:ident, $kw:expr, $text:expr, $rest:expr) => {
            #[test]
            fn $name() {
                assert_eq!(keyword($kw)($text).ok().map(|(r, _)| r), $rest);
            }
        };
    }

    kw!(kw_plain, "signon", "SIGNON fgame", Some(" fgame"));
    kw!(kw_split, "sign on", "sign on fgame", Some(" fgame"));
    kw!(kw_joined, "sign on", "SignOn x", Some(" x"));
    kw!(kw_boundary, "s", "spa", None);
    kw!(kw_symbol, "+", "+A par", Some("A par"));

    macro_rules! dt {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                let got = date($text).ok().map(|(r, d)| (r, d.to_string()));
                assert_eq!(got, $want.map(|(r, d): (&str, &str)| (r, d.to_string())));
            }
        };
    }

    dt!(date_iso, "2026-12-01 23:00", Some(("", "2026-12-01 23:00")));
    dt!(
        date_njudge,
        "Mon Dec 1 2003 23:30",
        Some(("", "2003-12-01 23:30"))
    );
    dt!(date_day_first, "1 December 2003", Some(("", "2003-12-01")));
    dt!(
        date_no_year,
        "dec 24 11pm to jan 2",
        Some((" to jan 2", "Dec 24 23:00"))
    );
    dt!(
        date_comma,
        "Monday, March 3rd, 2026 9:05am",
        Some(("", "2026-03-03 09:05"))
    );
    dt!(date_bad_day, "2026-04-31", None::<(&str, &str)>);
    dt!(date_leap, "2028-02-29", Some(("", "2028-02-29")));
    dt!(date_not_leap, "Feb 29 2027", None::<(&str, &str)>);

    #[test]
    fn recipients_initials_and_names() {
        let m = Map::standard().unwrap();
        let (r, l) = recipient_list("AEF", Some(m)).unwrap();
        assert_eq!(r, "");
        assert_eq!(l.len(), 3);
        let (_, l) = recipient_list("FRA", Some(m)).unwrap();
        assert_eq!(l, vec![Recipient::Power(Power::France)]);
        let (r, l) = recipient_list("England, France and M grey", Some(m)).unwrap();
        assert_eq!(r, " grey");
        assert_eq!(l.len(), 3);
        // njudge's `O`: the observers, in a press list only.
        let (_, l) = recipient_list("FO", Some(m)).unwrap();
        assert_eq!(
            l,
            vec![Recipient::Power(Power::France), Recipient::Observers]
        );
        assert!(recipient_list("O", None).is_err());
    }
}
