//! What the command parser says when it cannot read a line: a stable code and one plain
//! sentence a player understands (never nom's internals).

use std::fmt;

use crate::map::{Coast, Map, Power, ProvinceId};

use super::lexeme::{Recipient, UnclearRecipients};

/// Why one command line was rejected. `code()` is stable (it is printed in replies and
/// tests match on it); `Display` is the sentence after `ERROR <CODE>: `.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CommandError {
    /// The line does not follow the grammar: `expected` names what the parser wanted,
    /// `after` the last word it understood, `found` what stood there instead (`None` at the
    /// end of the line).
    Syntax {
        expected: &'static str,
        after: Option<String>,
        found: Option<String>,
    },
    /// The first word is neither a command nor the start of an order.
    UnknownCommand {
        word: String,
        /// The command word or province the player probably meant, ready to print.
        suggestion: Option<String>,
    },
    /// No province has this name; `suggestions` are the closest names, best first.
    UnknownProvince {
        text: String,
        suggestions: Vec<String>,
    },
    /// A place on the board that is no province and that no unit may enter (Switzerland).
    Impassable { name: String },
    /// The province has no such coast (`Par/nc`).
    NoSuchCoast { province: String, coast: Coast },
    /// The text after `/` or inside `( )` is not a coast.
    BadCoast { text: String },
    /// No power has this name.
    UnknownPower { text: String },
    /// The date cannot be read.
    BadDate { text: String },
    /// A second SIGNON, CREATE or OBSERVE in one message.
    SecondSignon,
    /// `ENDPRESS` / `ENDBROADCAST` with no press open.
    NoPressOpen { word: String },
    /// A rule set's own error, with its spec code (its grammar's: a ballot that cannot be
    /// read, a declaration of war on something that is not a power).
    Coded(Coded),
    /// `SET ADDRESS` with an address the judge's mailer cannot send to (an address literal
    /// such as `a@[127.0.0.1]`, or one longer than SMTP allows); `why` says which.
    UnmailableAddress { address: String, why: &'static str },
    /// The word after `SET` is no setting; `suggestion` is the closest setting, ready to
    /// print.
    UnknownSetting {
        word: String,
        suggestion: Option<String>,
    },
    /// A word of a press list that could be read as initials but is refused (issue 38):
    /// the header and its block are refused, nothing is sent.
    UnclearRecipients {
        word: String,
        why: UnclearRecipients,
    },
}

/// A rule set's own error in reading a line: its spec code and sentence, filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coded {
    pub code: &'static str,
    pub sentence: String,
    /// The sentence quotes the whole line itself (`cannot read the ballot "{text}"`), so
    /// the reply does not quote it again in front of it.
    pub stated: bool,
}

impl CommandError {
    /// The stable code printed after `ERROR`.
    pub fn code(&self) -> &'static str {
        match self {
            CommandError::Syntax { .. } => "SYNTAX",
            CommandError::UnknownCommand { .. } => "UNKNOWN-COMMAND",
            CommandError::UnknownProvince { .. } => "UNKNOWN-PROVINCE",
            CommandError::Impassable { .. } => "IMPASSABLE",
            CommandError::NoSuchCoast { .. } => "NO-SUCH-COAST",
            CommandError::BadCoast { .. } => "BAD-COAST",
            CommandError::UnknownPower { .. } => "UNKNOWN-POWER",
            CommandError::BadDate { .. } => "BAD-DATE",
            CommandError::SecondSignon => "SECOND-SIGNON",
            CommandError::NoPressOpen { .. } => "NO-PRESS-OPEN",
            CommandError::Coded(c) => c.code,
            CommandError::UnmailableAddress { .. } => "BAD-ADDRESS",
            CommandError::UnclearRecipients { .. } => "UNCLEAR-RECIPIENTS",
            CommandError::UnknownSetting { .. } => "UNKNOWN-SETTING",
        }
    }

    /// Whether the sentence already quotes the whole line (a rule set's sentence whose
    /// `{text}` is the line as received), so the reply does not repeat it in front of the
    /// sentence. Sentences naming only a word of the line keep the quoted line, as every
    /// other error does: the player sees which line was refused.
    pub fn is_spec_sentence(&self) -> bool {
        matches!(self, CommandError::Coded(c) if c.stated)
    }

    /// An unknown province, given the map's suggestions for it (closest first).
    pub(crate) fn unknown_province(map: &Map, text: &str, near: Vec<ProvinceId>) -> CommandError {
        // The map gives up to three names at the smallest edit distance; of those, a
        // transposition (`Bru` for `Bur`) and then a matching first letter are the likelier
        // slips. The player gets the single closest one.
        let key: String = text
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        let sorted = |s: &str| {
            let mut v: Vec<char> = s.chars().collect();
            v.sort_unstable();
            v
        };
        let key_letters = sorted(&key);
        let mut candidates: Vec<(u8, u8, usize, ProvinceId)> = near
            .into_iter()
            .enumerate()
            .map(|(rank, p)| {
                let code = map.code(p);
                let name: String = map
                    .province(p)
                    .name
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .collect();
                let anagram = sorted(code) == key_letters || sorted(&name) == key_letters;
                let same_first = code.chars().next() == key.chars().next();
                (u8::from(!anagram), u8::from(!same_first), rank, p)
            })
            .collect();
        candidates.sort();
        let suggestions = candidates
            .first()
            .map(|(_, _, _, p)| province_label(map, *p))
            .into_iter()
            .collect();
        CommandError::UnknownProvince {
            text: text.to_string(),
            suggestions,
        }
    }
}

/// `Bur (Burgundy)`: the display code with the full name, as suggestions print.
pub(crate) fn province_label(map: &Map, p: ProvinceId) -> String {
    format!("{} ({})", map.display_code(p), map.province(p).name)
}

/// `A`, `A or B`, `A, B or C`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Syntax {
                expected,
                after,
                found,
            } => {
                write!(f, "expected {expected}")?;
                if let Some(a) = after {
                    write!(f, " after \"{a}\"")?;
                }
                match found {
                    Some(t) => write!(f, ", found \"{t}\""),
                    None => write!(f, ", found the end of the line"),
                }
            }
            CommandError::UnknownCommand { word, suggestion } => {
                write!(
                    f,
                    "\"{word}\" is not a command, and no province is called that"
                )?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean {s}?"),
                    None => Ok(()),
                }
            }
            CommandError::UnknownProvince { text, suggestions } => {
                write!(f, "no province called \"{text}\"")?;
                if suggestions.is_empty() {
                    Ok(())
                } else {
                    write!(f, "; did you mean {}?", or_list(suggestions))
                }
            }
            CommandError::Impassable { name } => write!(
                f,
                "{name} is impassable: it is no province, and no unit may stand or move there"
            ),
            CommandError::NoSuchCoast { province, coast } => {
                write!(f, "{province} has no {}", coast.name())
            }
            CommandError::BadCoast { text } => write!(
                f,
                "\"{text}\" is not a coast; write nc, sc or ec (or north coast, south coast, east coast)"
            ),
            CommandError::UnknownPower { text } => write!(
                f,
                "no power called \"{text}\"; write a power's name (France), adjective (French) or code (FRA)"
            ),
            CommandError::BadDate { text } => write!(
                f,
                "cannot read the date \"{text}\"; write it like 2026-12-01 23:00 or Dec 1 2026 23:00"
            ),
            CommandError::SecondSignon => write!(
                f,
                "only the first SIGNON, CREATE or OBSERVE of a message is read; this one is ignored"
            ),
            CommandError::NoPressOpen { word } => {
                write!(f, "{word} without a PRESS or BROADCAST before it")
            }
            CommandError::Coded(c) => f.write_str(&c.sentence),
            CommandError::UnmailableAddress { address, why } => {
                write!(f, "the judge cannot send mail to {address}: {why}")
            }
            CommandError::UnknownSetting { word, suggestion } => {
                write!(f, "\"{word}\" is not a setting")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean SET {s}?")?,
                    None => f.write_str(".")?,
                }
                write!(
                    f,
                    " Players set PASSWORD, ADDRESS, WAIT, ABSENCE, DRAW, CONCEDE, PREFERENCE or MAP; the master DEADLINE, GRACE, PRESS and more (HELP lists them all)"
                )
            }
            CommandError::UnclearRecipients { word, why } => {
                match why {
                    UnclearRecipients::Province(name) => {
                        write!(f, "\"{word}\" is a province ({name}), not a list of powers")?
                    }
                    UnclearRecipients::Word => {
                        write!(f, "\"{word}\" is a word, not a list of powers")?
                    }
                    UnclearRecipients::GameMaster => write!(
                        f,
                        "\"{word}\" may mean the game master or Germany and the master; write M for the master alone"
                    )?,
                    UnclearRecipients::Repeated => write!(
                        f,
                        "\"{word}\" repeats a letter, so it is no list of initials"
                    )?,
                    UnclearRecipients::OutOfOrder(readers, in_order) => {
                        let names: Vec<String> = readers.iter().map(reader_name).collect();
                        write!(
                            f,
                            "\"{word}\" is not in the board's order: as initials it would be {}; written in order, {in_order}",
                            names.join(", ")
                        )?
                    }
                }
                write!(
                    f,
                    "; nothing was sent. Name the readers ({}) or write their initials in one word in the board's order ({}, M the master, O the observers)",
                    example_names(),
                    Power::ALL.iter().map(|p| p.initial()).collect::<String>()
                )
            }
        }
    }
}

/// A press reader as a sentence names it.
fn reader_name(r: &Recipient) -> String {
    match r {
        Recipient::Power(p) => p.name().to_string(),
        Recipient::Master => "the master".into(),
        Recipient::Observers => "the observers".into(),
    }
}

/// `PRESS TO England, France`: how a list of names is written.
fn example_names() -> String {
    let names: Vec<&str> = Power::ALL.iter().take(2).map(|p| p.name()).collect();
    format!("PRESS TO {}", names.join(", "))
}

impl std::error::Error for CommandError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> &'static Map {
        Map::standard().unwrap()
    }

    /// `says!(name, error, code, sentence)`.
    macro_rules! says {
        ($name:ident, $e:expr, $code:expr, $text:expr) => {
            #[test]
            fn $name() {
                let e: CommandError = $e;
                assert_eq!((e.code(), e.to_string()), ($code, $text.to_string()));
            }
        };
    }

    says!(
        typo_transposed,
        CommandError::unknown_province(map(), "Bru", map().suggest("Bru")),
        "UNKNOWN-PROVINCE",
        "no province called \"Bru\"; did you mean Bur (Burgundy)?"
    );
    says!(
        typo_none,
        CommandError::unknown_province(map(), "Qqq", Vec::new()),
        "UNKNOWN-PROVINCE",
        "no province called \"Qqq\""
    );
    says!(
        syntax_end,
        CommandError::Syntax {
            expected: "a province",
            after: Some("-".into()),
            found: None
        },
        "SYNTAX",
        "expected a province after \"-\", found the end of the line"
    );
    says!(
        syntax_found,
        CommandError::Syntax {
            expected: "H",
            after: None,
            found: Some("x".into())
        },
        "SYNTAX",
        "expected H, found \"x\""
    );
    says!(
        coast,
        CommandError::NoSuchCoast {
            province: "Paris".into(),
            coast: Coast::North
        },
        "NO-SUCH-COAST",
        "Paris has no north coast"
    );
    says!(
        coded,
        CommandError::Coded(Coded {
            code: "TEST-E1",
            sentence: "a rule set's own sentence.".into(),
            stated: false,
        }),
        "TEST-E1",
        "a rule set's own sentence."
    );

    #[test]
    fn or_list_reads_as_english() {
        let s = |v: &[&str]| or_list(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&["A"]), "A");
        assert_eq!(s(&["A", "B"]), "A or B");
        assert_eq!(s(&["A", "B", "C"]), "A, B or C");
    }
}
