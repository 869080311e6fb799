//! The `cases` fuzz target's checks, shared with the replay test (`tests/fuzz_replay.rs`
//! includes this file by path).
//!
//! Arbitrary bytes (read as UTF-8, lossily) are a case file: the reader must not panic on
//! any, and the runner must not panic on any case the reader accepts. A file the reader
//! refuses, a case the runner cannot run and a case whose checks differ are all ordinary
//! outcomes.
//!
//! Reading a case takes about 15 µs; running one about 1.4 ms (a fresh in-memory database,
//! the seats' passwords hashed, the orders mailed and the phase processed). To keep the
//! target above 2,000 executions a second, the runner takes the first case of one input in
//! [`RUN_ONE_IN`], chosen by a hash of the input: the same input is always run or always
//! not, so a crasher replays.

use std::sync::OnceLock;

use dipjudge::cases::{parse_cases, run_case};
use dipjudge::map::Map;
use dipjudge::variant::Registry;

/// One input in this many has its first case run (by the hash of its bytes).
pub const RUN_ONE_IN: u64 = 8;

/// What one input came to.
#[derive(Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How many cases the reader read (`None`: it refused the file).
    pub read: Option<usize>,
    /// Whether its first case was run (and how that ended: `Ok` whether or not the case's
    /// checks held, `Err` when the runner could not run it).
    pub ran: Option<Result<(), String>>,
}

/// Whether the runner takes this input: by its FNV-1a 64 hash (stable across runs and
/// machines, and cheap beside the reader).
pub fn runs(data: &[u8]) -> bool {
    let hash = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    hash % RUN_ONE_IN == 0
}

pub fn check(data: &[u8]) -> Outcome {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    let map = Map::standard().expect("the standard map loads");
    let text = String::from_utf8_lossy(data);
    let Ok(cases) = parse_cases(map, &text) else {
        return Outcome {
            read: None,
            ran: None,
        };
    };
    let ran = match cases.first() {
        Some(case) if runs(data) => {
            let registry = REGISTRY.get_or_init(Registry::default);
            Some(
                run_case(map, registry, case)
                    .map(|_| ())
                    .map_err(|e| e.to_string()),
            )
        }
        _ => None,
    };
    Outcome {
        read: Some(cases.len()),
        ran,
    }
}
