//! Golden tests for the command language: every `grammar/examples/NAME.txt` mail body is
//! parsed as `dipjudge parse` would, and the output is compared byte for byte with
//! `NAME.expected`. A missing `.expected` fails; `UPDATE_GOLDEN=1` rewrites them (read the
//! diff before committing).

use std::fs;
use std::path::{Path, PathBuf};

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/examples");
    let mut v: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

/// As `dipjudge parse` reads a body with no rule set named: every rule set's commands.
fn render(body: &str) -> String {
    let map = dipjudge::map::Map::standard().unwrap();
    let registry = dipjudge::variant::Registry::default();
    let grammar = registry.any_grammar();
    let cx = dipjudge::command::ParseContext {
        phase: None,
        grammar: Some(&grammar),
    };
    dipjudge::bulletin::parse_report(map, body, &cx)
}

#[test]
fn grammar_examples_match_their_golden_output() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let paths = examples();
    assert!(paths.len() >= 10, "too few examples: {paths:?}");
    let mut failures = Vec::new();
    for path in paths {
        let body = String::from_utf8_lossy(&fs::read(&path).unwrap()).into_owned();
        let got = render(&body);
        let golden = path.with_extension("expected");
        if update {
            fs::write(&golden, &got).unwrap();
            continue;
        }
        match fs::read_to_string(&golden) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!(
                "{}:\n--- expected\n{want}--- got\n{got}---",
                golden.display()
            )),
            Err(_) => failures.push(format!(
                "{}: missing (run with UPDATE_GOLDEN=1 and review it)",
                golden.display()
            )),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn fuzz_crashers_are_replayed() {
    // Inputs the fuzzer once found (fixtures/fuzz/command/); each must parse without panic
    // and its accepted commands must read back from their echo.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz/command");
    let map = dipjudge::map::Map::standard().unwrap();
    let registry = dipjudge::variant::Registry::default();
    let grammar = registry.any_grammar();
    let cx = dipjudge::command::ParseContext {
        phase: None,
        grammar: Some(&grammar),
    };
    for entry in fs::read_dir(dir).into_iter().flatten() {
        let path = entry.unwrap().path();
        let text = String::from_utf8_lossy(&fs::read(&path).unwrap()).into_owned();
        for r in dipjudge::command::parse_message_with(&text, map, &cx) {
            let _ = dipjudge::bulletin::parsed_line(map, &r);
            if let Ok(cmd) = &r.outcome
                && !matches!(cmd, dipjudge::command::Command::Press(_))
            {
                let echo = cmd.render(map);
                let again = dipjudge::command::parse_command(&echo, map, &cx);
                assert_eq!(again.as_ref(), Ok(cmd), "{}: {echo}", path.display());
            }
        }
    }
}
