//! The boards dipjudge ships, compiled in from `boards/<name>/` so that the binary stands
//! alone: each folder's files as [`BoardFolder`]s, and the boards read once.

use std::sync::LazyLock;

use super::{BoardFolder, BoardSet, load_boards};

/// One shipped folder: its name and its files (by the names its `board.toml` gives them).
macro_rules! folder {
    ($name:literal: $($file:literal),+ $(,)?) => {
        (
            $name,
            &[
                ("board.toml", include_str!(concat!("../../../boards/", $name, "/board.toml"))),
                $(($file, include_str!(concat!("../../../boards/", $name, "/", $file))),)+
            ],
        )
    };
}

/// Every shipped board folder, by name.
const SHIPPED: &[(&str, &[(&str, &str)])] = &[
    folder!("1898": "provinces.csv", "borders.csv", "aliases.csv", "units.csv", "owners.csv"),
    folder!("ancient_med": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("chaos": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("classical": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("colonial": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("fleet_rome": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("hundred": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("loeb9": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("modern": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("pure": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
    folder!("standard":
        "../../fixtures/maps/standard/provinces.csv",
        "../../fixtures/maps/standard/borders.csv",
        "../../fixtures/maps/standard/aliases.csv",
        "../../fixtures/maps/standard/units.csv",
    ),
    folder!("youngstown": "provinces.csv", "borders.csv", "aliases.csv", "units.csv"),
];

/// The shipped board folders as texts, in name order.
pub fn shipped_folders() -> Vec<BoardFolder> {
    SHIPPED
        .iter()
        .map(|(name, files)| BoardFolder {
            name: (*name).to_string(),
            files: files
                .iter()
                .map(|(f, t)| ((*f).to_string(), (*t).to_string()))
                .collect(),
        })
        .collect()
}

static BOARDS: LazyLock<BoardSet> = LazyLock::new(|| load_boards(&shipped_folders()));

/// The shipped boards, read and checked once. A shipped board that does not load is a
/// bug of the repository: it is in [`BoardSet::errors`], and `tests/boards.rs` fails on it.
pub fn shipped() -> &'static BoardSet {
    &BOARDS
}
