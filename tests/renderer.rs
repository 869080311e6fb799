//! Where the words live: `src/bulletin/` is the one renderer of what people read, and the
//! judge (`src/judge/`) writes no sentence of its own (issue 26). It decides what to say
//! and to whom and passes typed values to `bulletin::{notices, listing, press, answers,
//! reply, results}`.
//!
//! The check reads the judge's source and the game's (outside their tests) and fails on
//! - a `format!`, `write!`, `writeln!`, `format_args!` or `concat!`: text is built in the
//!   bulletin;
//! - a string literal holding a phrase (two lowercase words in a row, `"the deadline"`):
//!   text is written in the bulletin.
//!
//! Not counted: the operator's log (`tracing::` macros), byte strings, and the `Display` of
//! typed errors and refusals (`#[error(...)]`: each refusal carries its code and sentence,
//! STYLE §6.4; `bulletin::reply` lays them out), and the few sites in [`ALLOWED`], none of
//! which a player reads. Command words (`"LIST"`, `"SET WAIT"`) are no phrase.

use std::path::{Path, PathBuf};

/// Sites in the judge that build or hold words no player reads, by file and the text of
/// their first string literal, with why.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "src/judge/mod.rs",
        "a panic without a message",
        "a panic's words, for the operator's log",
    ),
    (
        "src/judge/confirm.rs",
        "{b:02x}",
        "the confirmation key, stored in hex",
    ),
    (
        "src/judge/confirm.rs",
        "{n:08}",
        "a confirmation code's fallback digits",
    ),
    (
        "src/judge/confirm.rs",
        "master {i}",
        "a co-master's seat as a kept seat proof names it in the store",
    ),
    (
        "src/judge/pictures.rs",
        "{game}/{name}",
        "a picture's name in the outbox",
    ),
    (
        "src/judge/pictures.rs",
        "{b:02x}",
        "a drawing's hash in its name",
    ),
    ("src/judge/pictures.rs", "{stem}@{hash}", "a drawing's name"),
];

/// The layers that decide what is said and to whom, and write none of it: the judge, and
/// the game (its press policy and deadlines).
const WATCHED: &[&str] = &["src/judge", "src/game"];

/// Macros that build text.
const BUILDERS: &[&str] = &["format!", "write!", "writeln!", "format_args!", "concat!"];

/// One string literal of a source file: where it starts and what it says (escapes as
/// written).
#[derive(Debug)]
struct Literal {
    offset: usize,
    text: String,
    bytes: bool,
}

/// A source file read as the check needs it: its code with comments blanked and every
/// string literal's contents replaced by spaces (so that no parenthesis or word in a string
/// or a comment is mistaken for code), and its string literals.
struct Source {
    code: String,
    literals: Vec<Literal>,
}

/// Reads Rust source: comments, strings (plain, byte, raw) and char literals.
fn lex(text: &str) -> Source {
    let chars: Vec<char> = text.chars().collect();
    let mut code = String::with_capacity(text.len());
    let mut literals = Vec::new();
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = at(i);
        // Comments.
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && at(i) != '\n' {
                code.push(' ');
                i += 1;
            }
            continue;
        }
        if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    code.push_str("  ");
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    code.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else if i >= chars.len() {
                    break;
                } else {
                    code.push(if at(i) == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
            continue;
        }
        // String literals: "..", b"..", r".." / r#".."#, br"..".
        let prev_ident = i > 0 && (at(i - 1).is_alphanumeric() || at(i - 1) == '_');
        let (prefix, bytes) = match (c, at(i + 1), at(i + 2)) {
            ('b', 'r', '"' | '#') if !prev_ident => (2, true),
            ('b', '"', _) if !prev_ident => (1, true),
            ('r', '"' | '#', _) if !prev_ident => (1, false),
            ('"', _, _) => (0, false),
            _ => (usize::MAX, false),
        };
        if prefix != usize::MAX {
            let raw = prefix > 0 && at(i + prefix - 1) == 'r';
            let mut j = i + prefix;
            let mut hashes = 0;
            while raw && at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) == '"' {
                let start = i;
                j += 1;
                let mut body = String::new();
                loop {
                    if j >= chars.len() {
                        break;
                    }
                    let d = at(j);
                    if !raw && d == '\\' {
                        body.push(d);
                        body.push(at(j + 1));
                        j += 2;
                        continue;
                    }
                    if d == '"' && (0..hashes).all(|k| at(j + 1 + k) == '#') {
                        j += 1 + hashes;
                        break;
                    }
                    body.push(d);
                    j += 1;
                }
                // A quote where the literal starts (a builder's first literal is found by
                // it), blanks for the rest: one char of code for each char of source.
                code.push('"');
                for k in start + 1..j {
                    code.push(if at(k) == '\n' { '\n' } else { ' ' });
                }
                literals.push(Literal {
                    offset: start,
                    text: body,
                    bytes,
                });
                i = j;
                continue;
            }
        }
        // Char literals ('x', '\n', '\''), not lifetimes ('a).
        if c == '\'' {
            let close = if at(i + 1) == '\\' {
                (i + 2..i + 12).find(|&k| at(k) == '\'')
            } else if at(i + 2) == '\'' {
                Some(i + 2)
            } else {
                None
            };
            if let Some(end) = close {
                for _ in i..=end {
                    code.push(' ');
                }
                i = end + 1;
                continue;
            }
        }
        code.push(c);
        i += 1;
    }
    Source { code, literals }
}

/// The spans of the code (char offsets) that are not counted: the operator's log
/// (`tracing::...!(..)`) and typed errors' sentences (`#[error(..)]`).
fn exempt_spans(code: &str) -> Vec<(usize, usize)> {
    // Outside literals and comments, which are blanked, Rust source is ASCII: byte offsets
    // into the code are char offsets.
    let code = code.as_bytes();
    let mut out = Vec::new();
    for marker in [&b"tracing::"[..], &b"#[error("[..]] {
        for start in 0..code.len() {
            if !code[start..].starts_with(marker) {
                continue;
            }
            let mut k = start;
            while k < code.len() && code[k] != b'(' {
                k += 1;
            }
            let mut depth = 0;
            while k < code.len() {
                match code[k] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            out.push((start, k));
        }
    }
    out
}

/// Two words in a row, one blank apart, each of lowercase letters (punctuation around them
/// aside): a phrase of a sentence (`the deadline`, `is not`), not command words (`SET
/// WAIT`) or a name (`{game}/{name}`).
fn is_phrase(text: &str) -> bool {
    fn word(w: &str) -> Option<&str> {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
        (!w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '\'')).then_some(w)
    }
    let tokens: Vec<&str> = text.split(' ').collect();
    tokens
        .windows(2)
        .any(|pair| match (word(pair[0]), word(pair[1])) {
            (Some(a), Some(b)) => a.len() > 1 || b.len() > 1,
            _ => false,
        })
}

/// What the check finds in one file: (line, what).
fn findings(path: &str, text: &str) -> Vec<(usize, String)> {
    // The tests at the bottom of a file are not the judge's words.
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    let src = lex(text);
    let exempt = exempt_spans(&src.code);
    let line_of = |offset: usize| text.chars().take(offset).filter(|&c| c == '\n').count() + 1;
    let allowed = |lit: &str| {
        ALLOWED
            .iter()
            .any(|(f, t, _)| path.ends_with(f) && *t == lit)
    };
    let mut out = Vec::new();
    let code_text = &src.code;
    for b in BUILDERS {
        let mut from = 0;
        while let Some(found) = code_text.get(from..).and_then(|t| t.find(b)) {
            let byte = from + found;
            from = byte + b.len();
            // `format!` but not `eformat!`: the builder starts a word.
            let before = code_text[..byte].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let offset = byte;
            let first = src.literals.iter().find(|l| l.offset > offset);
            let lit = first.map(|l| l.text.as_str()).unwrap_or_default();
            if !allowed(lit) {
                out.push((line_of(offset), format!("{b}(\"{lit}\"...)")));
            }
        }
    }
    for l in &src.literals {
        if l.bytes || exempt.iter().any(|(s, e)| l.offset >= *s && l.offset <= *e) {
            continue;
        }
        if is_phrase(&l.text) && !allowed(&l.text) {
            out.push((line_of(l.offset), format!("\"{}\"", l.text)));
        }
    }
    out.sort();
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs")
            && p.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(p);
        }
    }
}

#[test]
fn the_judge_writes_no_sentence_of_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in WATCHED {
        rust_files(&root.join(dir), &mut files);
    }
    files.sort();
    assert!(
        files.iter().any(|f| f.ends_with("judge/session/player.rs"))
            && files.iter().any(|f| f.ends_with("game/press.rs")),
        "the judge's and the game's files are found: {files:?}"
    );
    let mut report = String::new();
    for f in &files {
        let name = f
            .strip_prefix(root)
            .expect("under the root")
            .display()
            .to_string();
        let text = std::fs::read_to_string(f).expect("read");
        for (line, what) in findings(&name, &text) {
            report.push_str(&format!("{name}:{line}: {what}\n"));
        }
    }
    assert!(
        report.is_empty(),
        "text players read is written in src/bulletin/ (notices, listing, press, answers, \
         reply, results), not in the judge; a site no player reads goes in ALLOWED with why:\n{report}"
    );
    // Every allowance is still needed.
    for (file, lit, _) in ALLOWED {
        let text = std::fs::read_to_string(root.join(file)).expect("read");
        assert!(
            text.contains(lit),
            "{file} no longer has {lit:?}: drop it from ALLOWED"
        );
    }
}

#[test]
fn the_check_finds_a_sentence_built_or_written_in_the_judge() {
    let sample = r#"
fn notice(g: &Game) -> String {
    // A comment may say "the deadline has passed".
    tracing::info!(game = %g.name, "a log line is for the operator");
    let echo = "SET WAIT";
    let text = format!("The deadline of {} has passed.\n", g.name);
    let more = "Orders are missing";
    let key = b"a label of bytes";
    let c = '"';
    text + more + echo
}

#[derive(thiserror::Error)]
enum Refusal {
    #[error("there is no game called {0}")]
    NoGame(String),
}
"#;
    let found = findings("src/judge/sample.rs", sample);
    let lines: Vec<usize> = found.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [6, 6, 7], "{found:?}");
    assert!(
        found
            .iter()
            .any(|(_, w)| w.starts_with("format!(\"The deadline")),
        "{found:?}"
    );
    // A name built with `format!` is allowed only where ALLOWED says so.
    let names = "fn f(game: &str, name: &str) -> String { format!(\"{game}/{name}\") }";
    assert_eq!(findings("src/judge/pictures.rs", names), []);
    assert_eq!(findings("src/judge/other.rs", names).len(), 1);
}
