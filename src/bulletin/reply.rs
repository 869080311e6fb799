//! The private reply to a mail of orders or commands: one line per line received, in the
//! order received (rules/README §2.1, STYLE §6.4), with the judge's other answers (listings,
//! notes) between them. The one renderer of every reply the judge sends.
//!
//! `OK <normalised command>` for an accepted line; `ERROR <CODE>: line N: "<text>":
//! <sentence>` or `WARNING <CODE>: line N: "<text>": <sentence>` otherwise, where `<text>`
//! is the line as received, trimmed, runs of blanks collapsed, letter case kept. A password
//! in the quoted text (SIGNON, CREATE, OBSERVE, SET PASSWORD) is never echoed, whatever is
//! wrong with the line. The verdicts are decided elsewhere (`command`, `rules::validate`,
//! `game`, the variants); this module only writes them down.

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

/// The password word of a SIGNON, CREATE, OBSERVE or SET PASSWORD line (the word after the
/// game, or after `PASSWORD`), if the line has one.
fn password_of(text: &str) -> Option<&str> {
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let second = words.next();
    let is = |w: Option<&str>, keyword: &str| w.is_some_and(|w| w.eq_ignore_ascii_case(keyword));
    // The password's place among the words after the first two.
    let after_second = if ["signon", "create", "observe", "watch"]
        .iter()
        .any(|k| first.eq_ignore_ascii_case(k))
        && second.is_some()
    {
        0
    } else if first.eq_ignore_ascii_case("sign") && is(second, "on") {
        1
    } else if first.eq_ignore_ascii_case("set") && is(second, "password") {
        0
    } else {
        return None;
    };
    words.nth(after_second)
}

/// Replaces every whole-word occurrence of `secret` in `text` (a word: not next to a letter
/// or digit).
fn mask_word(text: &str, secret: &str) -> String {
    if secret.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((head, tail)) = rest.split_once(secret) {
        let whole = !head.chars().next_back().is_some_and(char::is_alphanumeric)
            && !tail.chars().next().is_some_and(char::is_alphanumeric);
        out.push_str(head);
        out.push_str(if whole { "********" } else { secret });
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// Hides the password of a SIGNON, CREATE, OBSERVE or SET PASSWORD line.
pub fn mask_password(text: &str) -> String {
    match password_of(text) {
        Some(pw) => mask_word(text, pw),
        None => text.to_string(),
    }
}

/// One verdict as its reply line.
pub fn render_verdict(number: usize, text: &str, verdict: &LineVerdict) -> String {
    let secret = password_of(text);
    let quoted = || one_line(&mask_password(text));
    // A parser's sentence may quote the word it stopped at: the password, too.
    let one_line = |s: &str| match secret {
        Some(pw) => one_line(&mask_word(s, pw)),
        None => one_line(s),
    };
    match verdict {
        LineVerdict::Ok(normalised) => format!("OK {}", one_line(normalised)),
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

    /// `one_line` and `password_of` read as they did when they split the text into
    /// vectors of words (the forms below), on lines of every shape they meet.
    #[test]
    fn one_line_and_password_of_read_as_the_word_lists_did() {
        fn one_line_by_words(text: &str) -> String {
            text.split(|c: char| c.is_whitespace() || c.is_control())
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        }
        fn password_by_words(text: &str) -> Option<&str> {
            let words: Vec<&str> = text.split_whitespace().collect();
            let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
            let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
            let at = match lower.as_slice() {
                ["signon" | "create" | "observe" | "watch", _, _, ..] => 2,
                ["sign", "on", _, _, ..] => 3,
                ["set", "password", _, ..] => 2,
                _ => return None,
            };
            words.get(at).copied()
        }
        let firsts = [
            "", "SIGNON", "signon", "Sign", "CREATE", "observe", "WATCH", "SET", "x",
        ];
        let seconds = ["", "On", "on", "PASSWORD", "password", "Fgame", "?g"];
        let rests = [
            "",
            "pw",
            "pw extra",
            " pw\t ",
            "\u{0}pw\r\n",
            "é pw",
            "a  b   c",
        ];
        for f in firsts {
            for s in seconds {
                for r in rests {
                    for sep in [" ", "\t ", "\u{85}", "\u{7}"] {
                        let text = format!("{sep}{f}{sep}{s}{sep}{r}{sep}");
                        assert_eq!(one_line(&text), one_line_by_words(&text), "{text:?}");
                        assert_eq!(password_of(&text), password_by_words(&text), "{text:?}");
                    }
                }
            }
        }
    }
}
