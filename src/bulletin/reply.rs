//! The private reply to a mail of orders or commands: one line per line received, in the
//! order received (rules/README §2.1, STYLE §6.4).
//!
//! `OK <normalised command>` for an accepted line; `ERROR <CODE>: line N: "<text>":
//! <sentence>` or `WARNING <CODE>: line N: "<text>": <sentence>` otherwise, where `<text>`
//! is the line as received, trimmed, runs of blanks collapsed, letter case kept. The
//! verdicts are decided elsewhere (`command`, `rules::validate`, `game`, the variants);
//! this module only writes them down.

/// What the judge made of one line of a mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineVerdict {
    /// Accepted; the command in the judge's normalised form (`A Bur - Mun`).
    Ok(String),
    /// Refused: a stable code (`NO-UNIT`, `SUR-E3`) and one sentence saying why.
    Error { code: String, sentence: String },
    /// Accepted with a remark: a stable code and one sentence.
    Warning { code: String, sentence: String },
}

/// Collapses runs of blanks (and any control character, so that a line can never break
/// the reply's one-line-per-line layout) into single spaces, and trims.
fn one_line(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Renders the reply: one line per `(line number, text as received, verdict)`, in the
/// order given. Every line ends with `\n`.
pub fn render_reply(lines: &[(usize, String, LineVerdict)]) -> String {
    let mut out = String::new();
    for (number, text, verdict) in lines {
        let line = match verdict {
            LineVerdict::Ok(normalised) => format!("OK {}", one_line(normalised)),
            LineVerdict::Error { code, sentence } => format!(
                "ERROR {}: line {number}: \"{}\": {}",
                one_line(code),
                one_line(text),
                one_line(sentence)
            ),
            LineVerdict::Warning { code, sentence } => format!(
                "WARNING {}: line {number}: \"{}\": {}",
                one_line(code),
                one_line(text),
                one_line(sentence)
            ),
        };
        out.push_str(&line);
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
}
