//! Fuzz target for the case-file reader and runner: arbitrary text as a case file
//! (`src/cases.rs` has the checks).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = dipjudge_fuzz::cases::check(data);
});
