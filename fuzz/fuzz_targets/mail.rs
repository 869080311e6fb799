//! Fuzz target for the mail path: arbitrary bytes as one raw mail through MIME parsing,
//! the loop guard and the judge (`src/mail.rs` has the checks).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = dipjudge_fuzz::mail::check(data);
});
