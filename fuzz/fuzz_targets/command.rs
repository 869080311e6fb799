//! Fuzz target for the command parser: no mail body may panic, and every command the
//! parser accepts must read back as itself from its normalised echo. Every rule set's
//! commands are read (as for a mail whose game is not known yet).
#![no_main]

use dipjudge::command::{Command, ParseContext, parse_command, parse_message_with};
use dipjudge::map::Map;
use dipjudge::variant::Registry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(map) = Map::standard() else { return };
    let registry = Registry::default();
    let grammar = registry.any_grammar();
    let cx = ParseContext {
        phase: None,
        grammar: Some(&grammar),
    };
    for r in parse_message_with(&text, map, &cx) {
        let _ = dipjudge::bulletin::parsed_line(map, &r);
        if let Ok(cmd) = &r.outcome {
            if matches!(cmd, Command::Press(_)) {
                continue;
            }
            let echo = cmd.render(map);
            let again = parse_command(&echo, map, &cx);
            assert_eq!(again.as_ref(), Ok(cmd), "echo {echo:?} of {:?}", r.text);
        }
    }
});
