//! Fuzz target for the command parser: no mail body may panic, and every command the
//! parser accepts must read back as itself from its normalised echo.
#![no_main]

use dipjudge::command::{Command, ParseContext, parse_command, parse_message};
use dipjudge::map::Map;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(map) = Map::standard() else { return };
    for r in parse_message(&text, map) {
        let _ = dipjudge::bulletin::parsed_line(map, &r);
        if let Ok(cmd) = &r.outcome {
            if matches!(cmd, Command::Press(_)) {
                continue;
            }
            let echo = cmd.render(map);
            let again = parse_command(&echo, map, &ParseContext::default());
            assert_eq!(again.as_ref(), Ok(cmd), "echo {echo:?} of {:?}", r.text);
        }
    }
});
