//! The fuzz targets' checks, one module per target (`fuzz_targets/NAME.rs` calls
//! `NAME::check`). The modules use only dipjudge's public API, so `tests/fuzz_replay.rs`
//! compiles the same files into the normal test run to replay `fixtures/fuzz/NAME/`.

pub mod cases;
pub mod mail;
