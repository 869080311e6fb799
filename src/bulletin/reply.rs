//! The private reply to a mail of orders or commands: one line per line received, in the
//! order received (rules/README §2.1, STYLE §6.4), with the judge's other answers (listings,
//! notes) between them. The one renderer of every reply the judge sends.
//!
//! `OK <normalised command>` for an accepted line; `ERROR <CODE>: line N: "<text>":
//! <sentence>` or `WARNING <CODE>: line N: "<text>": <sentence>` otherwise, where `<text>`
//! is the line as received, trimmed, runs of blanks collapsed, letter case kept. No word
//! that may be a password is ever echoed, whatever is wrong with its line: on a line that
//! starts like a sign-on (SIGNON, OBSERVE, CREATE, SET PASSWORD, BECOME or TAKEOVER, with
//! any punctuation, any separator inside the keyword, njudge players' SIGN IN and LOGIN, or
//! a mistyped keyword on a line the grammar could not read) every word after the game is
//! masked, in the quoted line, its sentence and its echo. No other word is masked anywhere:
//! a password that is also a word of another line stays readable there. The verdicts are
//! decided elsewhere (`command`, `rules::validate`, `game`, the variants); this module only
//! writes them down.

/// What the judge made of one line of a mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineVerdict {
    /// Accepted; the command in the judge's normalised form (`A Bur - Mun`).
    Ok(String),
    /// Refused: a stable code (`NO-UNIT`, `SUR-E3`) and one sentence saying why.
    Error { code: String, sentence: String },
    /// Refused with a spec's fixed sentence that quotes the line's words itself (`ERROR
    /// FD-E3: line 3: Frnace is not a power still in this game.`): no quoted text.
    Stated { code: String, sentence: String },
    /// Accepted with a remark: a stable code and one sentence.
    Warning { code: String, sentence: String },
}

/// One line of a reply: a verdict on a line received, or a line of the judge's own (a
/// listing, a note).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyLine {
    Verdict {
        /// 1-based line number in the mail.
        number: usize,
        /// The line as received.
        text: String,
        verdict: LineVerdict,
    },
    Note(String),
}

/// Collapses runs of blanks (and any control character, so that a line can never break
/// the reply's one-line-per-line layout) into single spaces, and trims.
fn one_line(text: &str) -> String {
    crate::command::collapse_blanks(text, |_| false)
}

/// The keywords after which a line may carry a password, as their parts (any letter case;
/// between two parts blanks, `-`, `_`, `.` or `:`, or nothing: `SIGN ON`, `SIGN-ON`,
/// `SIGNON`), and how many words after the keyword are shown: the game (`Fgame`, `?game`,
/// `game`) or the power `BECOME` names; the power and the game of `TAKEOVER power game
/// password`. After `SET PASSWORD` no word is shown. njudge's players' other words for a
/// sign-on (`SIGN IN`, `LOG ON`, `LOGIN`) are read as the judge's, so their passwords are
/// hidden too.
const SECRET_KEYWORDS: &[(&[&str], usize)] = &[
    (&["sign", "on"], 1),
    (&["sign", "in"], 1),
    (&["log", "on"], 1),
    (&["log", "in"], 1),
    (&["observe"], 1),
    (&["watch"], 1),
    (&["create"], 1),
    (&["become"], 1),
    (&["take", "over"], 2),
    (&["set", "password"], 0),
    (&["set", "join", "password"], 0),
];

/// What separates words in a line as the reply reads it.
fn is_blank(c: char) -> bool {
    c.is_whitespace() || c.is_control()
}

/// What may stand between the parts of a keyword (`SIGN-ON`, `TAKE OVER`, `SIGN.ON`).
fn is_keyword_separator(c: char) -> bool {
    is_blank(c) || matches!(c, '-' | '_' | '.' | ':')
}

/// The text after `parts` at the start of `text` (anything before the first letter or digit,
/// separators between the parts and letter case ignored: `- SIGNON`, `Sign-On`), if `text`
/// starts with them.
fn after_keyword<'a>(text: &'a str, parts: &[&str]) -> Option<&'a str> {
    let mut rest = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            rest = rest.trim_start_matches(is_keyword_separator);
        }
        let head = rest.get(..part.len())?;
        if !head.eq_ignore_ascii_case(part) {
            return None;
        }
        rest = rest.get(part.len()..)?;
    }
    Some(rest)
}

/// The first `n` words of `text` (blank-separated) and what follows them, if it has them.
fn first_words(text: &str, n: usize) -> Option<(&str, &str)> {
    let mut end = 0;
    for _ in 0..n {
        let rest = text.get(end..)?;
        let word = rest.trim_start_matches(is_blank);
        if word.is_empty() {
            return None;
        }
        let start = end + (rest.len() - word.len());
        end = start + word.find(is_blank).unwrap_or(word.len());
    }
    Some((text.get(..end)?, text.get(end..)?))
}

/// A word's letters and digits, lower case (`Sign-In` → `signin`).
fn squeezed(word: &str) -> String {
    word.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A line the grammar could not read whose first word, or first two words, are a mistyped
/// keyword (`SINGON`, `TAKE 0VER`, `OBSERV`, `SET PASWORD`): the text after them, and how
/// many words after them are shown. Near means within one edit (a letter added, dropped,
/// changed, or two swapped) of a keyword of six letters or fewer, two of a longer one.
fn after_mistyped_keyword(text: &str) -> Option<(&str, usize)> {
    let start = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    let near = |written: &str, keyword: &str| {
        let limit = if keyword.len() <= 6 { 1 } else { 2 };
        !written.is_empty() && crate::map::edit_distance_within(written, keyword, limit).is_some()
    };
    for n in 1..=3 {
        let Some((head, rest)) = first_words(start, n) else {
            break;
        };
        let written = squeezed(head);
        let found = SECRET_KEYWORDS.iter().find(|(parts, _)| {
            let keyword = parts.concat();
            match parts.first() {
                // SET PASSWORD: SET exactly, then the rest near.
                Some(&"set") => written
                    .strip_prefix("set")
                    .zip(keyword.strip_prefix("set"))
                    .is_some_and(|(w, k)| near(w, k)),
                _ => near(&written, &keyword),
            }
        });
        if let Some((_, shown)) = found {
            return Some((rest, *shown));
        }
    }
    None
}

/// A character of the word shown after a keyword: a game name's (`_`, `-`, letters and
/// digits) or the `?` of a joining SIGNON.
fn is_shown_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '?')
}

/// A line that may carry a password, split where the password may start: the part shown
/// as written (the keyword and the game), and the text after it, every word of which is
/// masked. None: the line does not start like a sign-on. A line the grammar could not read
/// (`unread`) starts like one also when its first words are a mistyped keyword.
///
/// Whatever is wrong with the line (extra words, a split game name, punctuation after the
/// keyword, `SET PASSWORD=x`), nothing after the game is shown: the judge cannot tell a
/// password from a misplaced word, so it shows neither.
fn split_secret(text: &str, unread: bool) -> Option<(&str, &str)> {
    let (rest, shown) = SECRET_KEYWORDS
        .iter()
        .find_map(|(parts, shown)| after_keyword(text, parts).map(|r| (r, *shown)))
        .or_else(|| unread.then(|| after_mistyped_keyword(text)).flatten())?;
    let mut end = text.len() - rest.len();
    for _ in 0..shown {
        let rest = text.get(end..)?;
        // Punctuation after the keyword (`SIGNON: Fgame`), then the word.
        let word = rest.trim_start_matches(|c: char| !is_shown_char(c) && !c.is_alphanumeric());
        let word_start = end + (rest.len() - word.len());
        let word_len = word.find(|c: char| !is_shown_char(c)).unwrap_or(word.len());
        end = word_start + word_len;
    }
    Some((text.get(..end)?, text.get(end..)?))
}

/// A separator after a keyword (`SET PASSWORD: x`, `SET PASSWORD = x`), not a word.
fn is_separator(word: &str) -> bool {
    word.chars().all(|c| matches!(c, ':' | '=' | ','))
}

/// The forms of one hidden word that are masked: as written, without the punctuation
/// around it (`=Secret`, `Secret,`), and the parts of three characters or more of a word
/// with punctuation inside (`key=value`).
fn forms(word: &str) -> Vec<&str> {
    let trimmed = word.trim_matches(|c: char| !c.is_alphanumeric());
    let parts = trimmed
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|p| p.chars().count() >= 3 && p.len() < trimmed.len());
    [word, trimmed]
        .into_iter()
        .chain(parts)
        .filter(|f| !f.is_empty())
        .collect()
}

/// Adds `words` to `set` (once each), keeping the longest first.
fn add_words<'a>(set: &mut Vec<String>, words: impl IntoIterator<Item = &'a str>) {
    for w in words {
        if !set.iter().any(|x| x == w) {
            set.push(w.to_string());
        }
    }
    set.sort_by_key(|w| std::cmp::Reverse(w.len()));
}

/// The words of `text` that must never be shown (see [`split_secret`]): every form
/// ([`forms`]) of every word after the game, longest first.
pub fn secret_words(text: &str) -> Vec<String> {
    hidden_words(text, true)
}

/// [`secret_words`] of a line read as a command (`unread` false) or not.
fn hidden_words(text: &str, unread: bool) -> Vec<String> {
    let mut words = Vec::new();
    if let Some((_, hidden)) = split_secret(text, unread) {
        for w in hidden.split(is_blank).filter(|w| !w.is_empty()) {
            add_words(&mut words, forms(w));
        }
    }
    words
}

/// The forms of the word where the grammar reads the password (the first after the game,
/// or after SET PASSWORD and its separator): what an `OK` echo could repeat. After a
/// sign-on every word is one (a private game's join password or invitation code follows
/// the player's password).
fn password_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let signon = SECRET_KEYWORDS
        .iter()
        .take(4)
        .any(|(k, _)| after_keyword(text, k).is_some());
    if signon {
        return hidden_words(text, false);
    }
    if let Some(w) = split_secret(text, false).and_then(|(_, hidden)| {
        hidden
            .split(is_blank)
            .find(|w| !w.is_empty() && !is_separator(w))
    }) {
        add_words(&mut words, forms(w));
    }
    words
}

/// The secrets of one line: every word that may be a password, masked in any letter case
/// in what quotes the line (the line itself, its sentence); and the password words proper,
/// masked as written in its `OK` echo (the judge writes an echo from what it understood,
/// so it holds a word of the line only as written, and the words it accepted around the
/// password, such as the rule set a CREATE names, are not secrets). A line that does not
/// start like a sign-on has none: no word of it, nor of any other line, is masked.
#[derive(Default)]
struct Secrets {
    any: Vec<String>,
    passwords: Vec<String>,
}

impl Secrets {
    /// The secrets of line `text`; `unread`: the grammar could not read it.
    fn of(text: &str, unread: bool) -> Secrets {
        Secrets {
            any: hidden_words(text, unread),
            passwords: password_words(text),
        }
    }
}

/// Replaces every whole-word occurrence of `secret` in `text` (a word: not next to a letter
/// or digit), in any ASCII letter case when `any_case` (a parser's sentence may quote a word
/// in lower case).
fn mask_word(text: &str, secret: &str, any_case: bool) -> String {
    if secret.is_empty() {
        return text.to_string();
    }
    // ASCII lower-casing keeps every byte where it was, so positions carry over.
    let fold = |s: &str| {
        if any_case {
            s.to_ascii_lowercase()
        } else {
            s.to_string()
        }
    };
    let (lower, needle) = (fold(text), fold(secret));
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (at, _) in lower.match_indices(&needle) {
        if at < from {
            continue;
        }
        let end = at + needle.len();
        let (Some(head), Some(tail)) = (text.get(..at), text.get(end..)) else {
            continue;
        };
        let whole = !head.chars().next_back().is_some_and(char::is_alphanumeric)
            && !tail.chars().next().is_some_and(char::is_alphanumeric);
        if whole && let Some(between) = text.get(from..at) {
            out.push_str(between);
            out.push_str("********");
            from = end;
        }
    }
    out.push_str(text.get(from..).unwrap_or_default());
    out
}

/// `text` with every word of `secrets` masked (in any letter case when `any_case`).
fn mask_all(text: &str, secrets: &[String], any_case: bool) -> String {
    secrets
        .iter()
        .fold(text.to_string(), |t, s| mask_word(&t, s, any_case))
}

/// A line as the reply quotes it: what may carry a password (every word after the game of a
/// line that starts like a sign-on, every word after SET PASSWORD) written `********`,
/// word for word.
pub fn mask_password(text: &str) -> String {
    mask_line(text, true)
}

/// [`mask_password`] of a line read as a command (`unread` false) or not.
fn mask_line(text: &str, unread: bool) -> String {
    match split_secret(text, unread) {
        Some((shown, hidden)) => {
            let mut out = shown.to_string();
            for _ in hidden
                .split(is_blank)
                .filter(|w| !w.is_empty() && !is_separator(w))
            {
                out.push_str(" ********");
            }
            out
        }
        None => text.to_string(),
    }
}

/// One verdict as its reply line: the line's own secrets masked (the quoted line, the
/// parser's sentence, the `OK` echo), nothing else.
pub fn render_verdict(number: usize, text: &str, verdict: &LineVerdict) -> String {
    let unread = matches!(
        verdict,
        LineVerdict::Error { .. } | LineVerdict::Stated { .. }
    );
    let secrets = Secrets::of(text, unread);
    let quoted = || one_line(&mask_all(&mask_line(text, unread), &secrets.any, true));
    let one_line = |s: &str| one_line(&mask_all(s, &secrets.any, true));
    match verdict {
        LineVerdict::Ok(normalised) => format!(
            "OK {}",
            crate::command::collapse_blanks(
                &mask_all(normalised, &secrets.passwords, false),
                |_| false
            )
        ),
        LineVerdict::Error { code, sentence } => format!(
            "ERROR {}: line {number}: \"{}\": {}",
            one_line(code),
            quoted(),
            one_line(sentence)
        ),
        LineVerdict::Stated { code, sentence } => format!(
            "ERROR {}: line {number}: {}",
            one_line(code),
            one_line(sentence)
        ),
        LineVerdict::Warning { code, sentence } => format!(
            "WARNING {}: line {number}: \"{}\": {}",
            one_line(code),
            quoted(),
            one_line(sentence)
        ),
    }
}

impl LineVerdict {
    /// The verdict reading a line gave ([`crate::command::LineResult::verdict`]).
    pub fn parsed(v: crate::command::ParsedVerdict) -> LineVerdict {
        use crate::command::ParsedVerdict;
        match v {
            ParsedVerdict::Ok(echo) => LineVerdict::Ok(echo),
            ParsedVerdict::Refused {
                code,
                sentence,
                stated: true,
            } => LineVerdict::Stated {
                code: code.to_string(),
                sentence,
            },
            ParsedVerdict::Refused { code, sentence, .. } => LineVerdict::Error {
                code: code.to_string(),
                sentence,
            },
        }
    }
}

/// The reply line for a line as read (what `dipjudge parse` prints).
pub fn parsed_line(map: &crate::map::Map, line: &crate::command::LineResult) -> String {
    render_verdict(
        line.line,
        &line.text,
        &LineVerdict::parsed(line.verdict(map)),
    )
}

/// What `dipjudge parse` prints for a mail body: one reply line per command, as read in
/// the context given.
pub fn parse_report(
    map: &crate::map::Map,
    text: &str,
    cx: &crate::command::ParseContext,
) -> String {
    let mut out = String::new();
    for line in crate::command::parse_message_with(text, map, cx) {
        out.push_str(&parsed_line(map, &line));
        out.push('\n');
    }
    out
}

/// Renders a reply: every line in the order given, each ending with `\n`.
///
/// Each verdict masks its own line's secrets ([`render_verdict`]): the words after the game
/// on a line that starts like a sign-on, and no other word anywhere (a password that is
/// also an ordinary word, a year or a name, stays readable on every other line); the
/// judge's own lines (listings, notes) quote no line and are written as they are.
pub fn render_reply_lines(lines: &[ReplyLine]) -> String {
    let mut out = String::new();
    for l in lines {
        match l {
            ReplyLine::Verdict {
                number,
                text,
                verdict,
            } => out.push_str(&render_verdict(*number, text, verdict)),
            ReplyLine::Note(note) => out.push_str(note),
        }
        out.push('\n');
    }
    out
}

/// Renders the verdicts of a reply: one line per `(line number, text as received,
/// verdict)`, in the order given. Every line ends with `\n`.
pub fn render_reply(lines: &[(usize, String, LineVerdict)]) -> String {
    let mut out = String::new();
    for (number, text, verdict) in lines {
        out.push_str(&render_verdict(*number, text, verdict));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(code: &str, sentence: &str) -> LineVerdict {
        LineVerdict::Error {
            code: code.into(),
            sentence: sentence.into(),
        }
    }

    #[test]
    fn one_line_per_input_line_in_input_order() {
        let lines = vec![
            (
                1,
                "a  par -  bur".to_string(),
                LineVerdict::Ok("A Par - Bur".into()),
            ),
            (
                2,
                "  A Xyz H ".to_string(),
                error("UNKNOWN-PROVINCE", "there is no province called 'Xyz'."),
            ),
            (
                4,
                "F Bre - MAO".to_string(),
                LineVerdict::Warning {
                    code: "LATE".into(),
                    sentence: "this order replaces an earlier one.".into(),
                },
            ),
        ];
        assert_eq!(
            render_reply(&lines),
            "OK A Par - Bur\n\
             ERROR UNKNOWN-PROVINCE: line 2: \"A Xyz H\": there is no province called 'Xyz'.\n\
             WARNING LATE: line 4: \"F Bre - MAO\": this order replaces an earlier one.\n"
        );
    }

    #[test]
    fn text_is_trimmed_and_collapsed_and_case_kept() {
        let lines = vec![(7, "\tA   Par\r\n- Xyz".to_string(), error("E", "bad."))];
        assert_eq!(
            render_reply(&lines),
            "ERROR E: line 7: \"A Par - Xyz\": bad.\n"
        );
    }

    #[test]
    fn a_sentence_cannot_break_the_layout() {
        let lines = vec![(1, "x".to_string(), error("E", "one\ntwo"))];
        assert_eq!(render_reply(&lines), "ERROR E: line 1: \"x\": one two\n");
    }

    #[test]
    fn nothing_received_nothing_replied() {
        assert_eq!(render_reply(&[]), "");
    }

    #[test]
    fn no_password_is_echoed_whatever_is_wrong() {
        for text in [
            "SIGNON Fgame pwF extra",
            "signon  fgame   pwF",
            "Sign On Fgame pwF",
            "CREATE ?g pwF survive",
            "OBSERVE g pwF",
            "SET PASSWORD pwF",
            "TAKEOVER France g pwF",
            "takeover f g pwF extra",
        ] {
            let out = render_reply(&[(
                3,
                text.to_string(),
                error(
                    "SYNTAX",
                    "expected the end of the line after \"pwF\", found \"extra\"",
                ),
            )]);
            assert!(!out.contains("pwF"), "{text} gave {out}");
            assert!(out.contains("********"), "{out}");
        }
    }

    #[test]
    fn takeover_shows_its_power_and_game() {
        assert_eq!(
            mask_password("TAKEOVER France alpha Secret99 more"),
            "TAKEOVER France alpha ******** ********"
        );
        assert_eq!(mask_password("takeover f"), "takeover f");
    }

    #[test]
    fn a_stated_error_quotes_nothing_and_notes_stand_alone() {
        let lines = vec![
            ReplyLine::Verdict {
                number: 3,
                text: "VOTE Frnace 3".into(),
                verdict: LineVerdict::Stated {
                    code: "SRV-E7".into(),
                    sentence: "cannot read the ballot \"VOTE Frnace 3\". Ballot not recorded."
                        .into(),
                },
            },
            ReplyLine::Note(String::new()),
            ReplyLine::Note("Orders standing:".into()),
        ];
        assert_eq!(
            render_reply_lines(&lines),
            "ERROR SRV-E7: line 3: cannot read the ballot \"VOTE Frnace 3\". Ballot not recorded.\n\nOrders standing:\n"
        );
    }

    /// Every word after the game (after SET PASSWORD: every word) is masked, whatever is
    /// wrong with the line; the game and the keyword stay as written.
    #[test]
    fn every_word_after_the_game_is_masked() {
        for (text, shown) in [
            ("SIGNON Fgame Secret1", "SIGNON Fgame ********"),
            ("signon: Falpha Secret7", "signon: Falpha ********"),
            ("SIGNON:Falpha Secret7", "SIGNON:Falpha ********"),
            ("SIGNON F alpha Secret1", "SIGNON F ******** ********"),
            (
                "SIGNON Falpha my Secret2",
                "SIGNON Falpha ******** ********",
            ),
            ("SIGNON ?game pw1 pw2", "SIGNON ?game ******** ********"),
            ("SIGNON Falpha,Secret3", "SIGNON Falpha ********"),
            ("Sign  On\tFgame Secret", "Sign  On\tFgame ********"),
            (
                "OBSERVE alpha my Secret20",
                "OBSERVE alpha ******** ********",
            ),
            ("watch alpha Secret", "watch alpha ********"),
            ("CREATE ?g pw survive", "CREATE ?g ******** ********"),
            ("BECOME France Secret", "BECOME France ********"),
            ("BECOME France", "BECOME France"),
            (
                "SET PASSWORD new Secret22",
                "SET PASSWORD ******** ********",
            ),
            ("SET PASSWORD: Secret25", "SET PASSWORD ********"),
            ("SET PASSWORD=Secret24", "SET PASSWORD ********"),
            ("set  password", "set  password"),
            ("SET PREFERENCE France", "SET PREFERENCE France"),
            ("A Par - Bur", "A Par - Bur"),
            ("", ""),
            ("é SIGNON Fgame pw", "é SIGNON Fgame ********"),
            // Misspelt and punctuated sign-on keywords (issue 37).
            (
                "TAKE OVER France alpha Secret01",
                "TAKE OVER France alpha ********",
            ),
            (
                "Take-over France alpha Secret",
                "Take-over France alpha ********",
            ),
            ("SIGN-ON Ealpha Secret02", "SIGN-ON Ealpha ********"),
            ("SIGNIN Ealpha Secret03", "SIGNIN Ealpha ********"),
            ("sign in Ealpha Secret", "sign in Ealpha ********"),
            ("LOGIN Ealpha Secret", "LOGIN Ealpha ********"),
            ("- SIGNON Ealpha Secret04", "- SIGNON Ealpha ********"),
            ("> signon Ealpha Secret", "> signon Ealpha ********"),
            ("SIGNON: Ealpha Secret05", "SIGNON: Ealpha ********"),
            ("SIGNON:Ealpha Secret06", "SIGNON:Ealpha ********"),
            ("SINGON Ealpha Secret", "SINGON Ealpha ********"),
            ("SIGN 0N Ealpha Secret", "SIGN 0N Ealpha ********"),
            (
                "TAKEOVR France alpha Secret",
                "TAKEOVR France alpha ********",
            ),
            ("SET PASWORD Secret", "SET PASWORD ********"),
            ("SET JOIN PASWORD Secret", "SET JOIN PASWORD ********"),
            ("OBSERV alpha Secret", "OBSERV alpha ********"),
            // Nothing near a keyword.
            ("SET DEADLINE game", "SET DEADLINE game"),
            ("A Par - Bur Secret", "A Par - Bur Secret"),
            ("Great game everyone", "Great game everyone"),
            ("SIGNON Fälpha pw", "SIGNON F ******** ********"),
        ] {
            assert_eq!(mask_password(text), shown, "{text:?}");
        }
        assert_eq!(
            secret_words("SET PASSWORD=Secret24 x,"),
            vec!["=Secret24", "Secret24", "x,", "x"]
        );
        // A sentence that quotes a secret in another case is masked too.
        assert_eq!(
            mask_word("no rules called \"secret22\" here", "Secret22", true),
            "no rules called \"********\" here"
        );
        assert_eq!(
            mask_word("Secret22x Secret22", "Secret22", true),
            "Secret22x ********"
        );
    }

    /// A line's secrets are masked in its own verdict and nowhere else (issue 37): a word of a
    /// password that is also a word of another line (a game's name, a year, a first name)
    /// stays readable there.
    #[test]
    fn a_secret_is_masked_on_its_own_line_only() {
        let lines = vec![
            ReplyLine::Verdict {
                number: 1,
                text: "SIGNON Fgame Topsecret extra".into(),
                verdict: error("SYNTAX", "expected the end of the line after \"Topsecret\""),
            },
            ReplyLine::Verdict {
                number: 2,
                text: "SET DEADLINE extra".into(),
                verdict: error("BAD-DATE", "cannot read the date \"extra\""),
            },
            ReplyLine::Verdict {
                number: 3,
                text: "SIGNIN Fgame Topsecret".into(),
                verdict: error("UNKNOWN-COMMAND", "\"SIGNIN\" is not a command"),
            },
        ];
        let out = render_reply_lines(&lines);
        assert_eq!(
            out,
            "ERROR SYNTAX: line 1: \"SIGNON Fgame ******** ********\": expected the end of the line after \"********\"\n\
             ERROR BAD-DATE: line 2: \"SET DEADLINE extra\": cannot read the date \"extra\"\n\
             ERROR UNKNOWN-COMMAND: line 3: \"SIGNIN Fgame ********\": \"SIGNIN\" is not a command\n"
        );
        // An accepted sign-on shows no password in its echo.
        assert_eq!(
            render_verdict(
                4,
                "SIGNON Fgame Topsecret",
                &LineVerdict::Ok("SIGNON Fgame Topsecret".into())
            ),
            "OK SIGNON Fgame ********"
        );
    }
}
