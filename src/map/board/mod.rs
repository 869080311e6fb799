//! Boards as data: a board's powers (any number, each with its name, njudge letter and
//! adjective), provinces, coasts, borders, supply and home centres, starting units and
//! first phase, and the rule options its njudge variant sets, read from a `boards/<name>/`
//! folder.
//!
//! A folder holds `board.toml` (`toml_file`) beside its map data, either in the project's
//! own CSV format (`csv`: the format of `fixtures/maps/standard/`, extended) or as
//! njudge's own `map` and `seed` files, unchanged (`super::njudge`). Everything here is
//! pure: a folder is given as its texts ([`BoardFolder`]) and [`load_board`] /
//! [`load_boards`] turn texts into a checked [`Board`], or into an error naming the file and
//! line. The boards dipjudge ships are compiled in ([`shipped`]); reading an operator's
//! folders from disk is [`read_folders`], the only I/O of this module, for start-up only.
//!
//! A [`Board`]'s powers are plain data ([`BoardPower`], indexed by [`PowerIndex`]): nothing
//! here depends on the seven great powers of [`super::Power`]. `docs/boards.md` says how
//! to add a board and how phase B of issue 40 turns `Power` itself into data.

pub(super) mod check;
mod csv;
mod disk;
mod njudge;
mod shipped;
pub(super) mod toml_file;

use std::collections::BTreeMap;
use std::fmt;

pub use csv::write_csv;
pub use disk::{BOARD_FILE_LIMIT, load_all, read_folders};
pub use shipped::{shipped, shipped_folders};

use super::names::normalise;
use super::{Terrain, UnitKindData};

/// A power of a board, by its place in the board's `[[power]]` list (`0..board.powers.len()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PowerIndex(pub(crate) u8);

impl PowerIndex {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A province of a board, by its place in the board's province list (sorted by code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProvinceIndex(pub(crate) u16);

impl ProvinceIndex {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The most provinces a board may have (njudge's own limit is 256 areas).
pub const MAX_PROVINCES: usize = 1000;
/// The most powers a board may have: every njudge letter, `A`–`Z` and `0`–`9` but `M`
/// (the master) and `O` (observers).
pub const MAX_POWERS: usize = 34;

/// One coast of a split-coast province. Boards know a west coast too (Youngstown,
/// Hundred), which the standard board does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BoardCoast {
    North,
    South,
    East,
    West,
}

impl BoardCoast {
    /// The code: `nc`, `sc`, `ec`, `wc`.
    pub fn code(self) -> &'static str {
        match self {
            BoardCoast::North => "nc",
            BoardCoast::South => "sc",
            BoardCoast::East => "ec",
            BoardCoast::West => "wc",
        }
    }

    /// Reads `nc`, `n`, `north`, `north coast` (and the same for the other three).
    pub fn from_text(text: &str) -> Option<BoardCoast> {
        match normalise(text).as_str() {
            "nc" | "n" | "north" | "northcoast" => Some(BoardCoast::North),
            "sc" | "s" | "south" | "southcoast" => Some(BoardCoast::South),
            "ec" | "e" | "east" | "eastcoast" => Some(BoardCoast::East),
            "wc" | "w" | "west" | "westcoast" => Some(BoardCoast::West),
            _ => None,
        }
    }
}

/// Where a unit stands: a province and, on a split-coast province, a fleet's coast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    pub province: ProvinceIndex,
    pub coast: Option<BoardCoast>,
}

impl Place {
    pub fn province(province: ProvinceIndex) -> Place {
        Place {
            province,
            coast: None,
        }
    }
}

/// A power as a board names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardPower {
    /// `England`; one word (njudge's names are: `Ivory-Coast`, `A-Ank`).
    pub name: String,
    /// The letter players sign on with (`SIGNON Egame`) and list in `PRESS TO EFG`.
    pub letter: char,
    /// `English`, as in `English Army`.
    pub adjective: String,
}

/// What a province is worth in centres.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Centre {
    /// No supply centre.
    None,
    /// A supply centre that is nobody's home.
    Neutral,
    /// A home centre of a power.
    Home(PowerIndex),
}

/// What a board knows about one province.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardProvince {
    /// Canonical lowercase code: `stp`.
    pub code: String,
    /// The full name the judge prints: `St Petersburg`.
    pub name: String,
    pub terrain: Terrain,
    /// No unit may enter it (njudge's Switzerland: `swi-mv: swi`); it has no border.
    pub impassable: bool,
    pub centre: Centre,
    /// The coasts of a split-coast province, in code order; empty otherwise.
    pub coasts: Vec<BoardCoast>,
    /// Other names players may use (`nth` for the North Sea's `nts`), never printed.
    pub aliases: Vec<String>,
    /// A land province a convoy may pass through (njudge's `w` after the type, used with
    /// its `DUALITY` setting: Constantinople, Denmark, Cebu).
    pub convoy_through: bool,
    /// Ice in the fall (njudge's area type `v`, Loeb9's Arctic Ocean): no move into it and
    /// no order to a unit in it in a fall movement phase.
    pub ice: bool,
}

impl BoardProvince {
    pub fn is_supply_centre(&self) -> bool {
        self.centre != Centre::None
    }
}

/// The borders of a board, each listed once (`a < b`) and sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Borders {
    /// Armies may move between these provinces.
    pub army: Vec<(ProvinceIndex, ProvinceIndex)>,
    /// Fleets may move between these places (coast-exact on split-coast provinces).
    pub fleet: Vec<(Place, Place)>,
    /// Loeb9's crossings (njudge's `/mx`): an army may move across with one support less,
    /// like a convoy; fleets may not, and no support is given across.
    pub crossings: Vec<(ProvinceIndex, ProvinceIndex)>,
}

/// A unit on the board when a game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartingUnit {
    pub power: PowerIndex,
    pub kind: UnitKindData,
    pub place: Place,
}

/// The phase a game on the board starts in: a spring movement phase, or the adjustment
/// phase after a fall (Chaos starts with builds, njudge's `F1900B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstPhase {
    Movement { year: u16 },
    Adjustment { year: u16 },
}

impl FirstPhase {
    /// The phase as njudge writes it: `S1901M`, `F1900B`, `S0001M`.
    pub fn code(self) -> String {
        match self {
            FirstPhase::Movement { year } => format!("S{year:04}M"),
            FirstPhase::Adjustment { year } => format!("F{year:04}B"),
        }
    }

    /// Reads `S1901M` or `F1900B` (njudge's form); anything else is `None`.
    pub fn from_code(text: &str) -> Option<FirstPhase> {
        let t = text.trim();
        let mut chars = t.chars();
        let season = chars.next()?.to_ascii_uppercase();
        let kind = chars.next_back()?.to_ascii_uppercase();
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let year: u16 = digits.parse().ok()?;
        match (season, kind) {
            ('S', 'M') => Some(FirstPhase::Movement { year }),
            ('F', 'B') => Some(FirstPhase::Adjustment { year }),
            _ => None,
        }
    }

    pub fn year(self) -> u16 {
        match self {
            FirstPhase::Movement { year } | FirstPhase::Adjustment { year } => year,
        }
    }
}

/// Where a power may build (njudge's `SET ANY CENTRES` and `SET ONE CENTRE`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Builds {
    /// In its own home centres, as in the standard game.
    #[default]
    Home,
    /// In any centre it owns, as long as it still owns one of its home centres
    /// (njudge's `ONE CENTRE`: Classical).
    OneHome,
    /// In any centre it owns (njudge's `ANY CENTRES`: Chaos, Hundred).
    Any,
}

/// The rule options a board's variant sets: njudge's variant flags, and its settings a
/// board's optional rules need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardRules {
    pub builds: Builds,
    /// Convoys may pass through the land provinces marked [`BoardProvince::convoy_through`]
    /// (njudge's `DUALITY`: Ancient Mediterranean, Colonial).
    pub duality: bool,
    /// The board's [`HongKong`] rule is on (njudge's `SET HONGKONG`; off unless set).
    pub hong_kong: bool,
    /// The board's [`Gateway`]s work (njudge's `SET GATEWAYS`; off unless set).
    pub gateways: bool,
    /// The board's [`Railway`]s work (njudge's `SET RAILWAYS`; off unless set).
    pub railways: bool,
}

/// A canal a unit in its controller's province opens or shuts (njudge's gateway:
/// Colonial's Suez Canal, opened by the unit in Egypt).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gateway {
    /// The code orders name it by: `sc`.
    pub code: String,
    pub name: String,
    pub aliases: Vec<String>,
    /// The province whose unit controls it.
    pub controller: ProvinceIndex,
    /// The two provinces it joins (they border each other).
    pub between: (ProvinceIndex, ProvinceIndex),
}

/// A railway some powers' armies may ride along (njudge's railway: Colonial's Trans
/// Siberian Railway).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Railway {
    pub code: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub powers: Vec<PowerIndex>,
    /// The provinces along it, in order; each borders the next.
    pub route: Vec<ProvinceIndex>,
}

/// Centres a power may build in but does not count (njudge's Hong Kong rule, Colonial).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HongKong {
    pub power: PowerIndex,
    pub provinces: Vec<ProvinceIndex>,
}

/// A board, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The name games are created with: the folder's name, `ancient_med`.
    pub name: String,
    /// The name people read: `Ancient Mediterranean`.
    pub title: String,
    /// Who made the board and where its data comes from.
    pub credit: String,
    /// Supply centres a power must own to win.
    pub victory: u16,
    pub first_phase: FirstPhase,
    pub powers: Vec<BoardPower>,
    pub rules: BoardRules,
    /// Sorted by code.
    pub provinces: Vec<BoardProvince>,
    pub borders: Borders,
    /// In the order the data lists them.
    pub units: Vec<StartingUnit>,
    /// Who owns which supply centre when the game starts, sorted by province (the home
    /// centres of each power unless the data says otherwise).
    pub owners: Vec<(ProvinceIndex, PowerIndex)>,
    pub gateways: Vec<Gateway>,
    pub railways: Vec<Railway>,
    pub hong_kong: Vec<HongKong>,
    /// The order njudge's summary lists centres in (empty: province order).
    pub centre_order: Vec<ProvinceIndex>,
}

impl Board {
    /// The power behind an index made by this board.
    pub fn power(&self, p: PowerIndex) -> Option<&BoardPower> {
        self.powers.get(p.index())
    }

    /// Every power's index, in the board's order.
    pub fn power_indices(&self) -> impl Iterator<Item = PowerIndex> + '_ {
        (0..self.powers.len()).filter_map(|i| u8::try_from(i).ok().map(PowerIndex))
    }

    /// A power by its letter, case-insensitively.
    pub fn power_by_letter(&self, letter: char) -> Option<PowerIndex> {
        toml_file::power_by_letter(&self.powers, letter)
    }

    /// A power by its name or adjective (case, blanks and punctuation ignored).
    pub fn power_by_name(&self, text: &str) -> Option<PowerIndex> {
        toml_file::power_by_name(&self.powers, text)
    }

    /// The province behind an index made by this board.
    pub fn province(&self, p: ProvinceIndex) -> Option<&BoardProvince> {
        self.provinces.get(p.index())
    }

    /// Every province's index, in code order.
    pub fn province_indices(&self) -> impl Iterator<Item = ProvinceIndex> + '_ {
        (0..self.provinces.len()).filter_map(|i| u16::try_from(i).ok().map(ProvinceIndex))
    }

    /// A province by code, full name or alias (case, blanks and punctuation ignored).
    pub fn find_province(&self, text: &str) -> Option<ProvinceIndex> {
        let key = normalise(text);
        if key.is_empty() {
            return None;
        }
        self.provinces
            .iter()
            .position(|p| {
                normalise(&p.code) == key
                    || normalise(&p.name) == key
                    || p.aliases.iter().any(|a| normalise(a) == key)
            })
            .and_then(|i| u16::try_from(i).ok())
            .map(ProvinceIndex)
    }

    /// A place's code: `stp/nc`, `bur`.
    pub fn place_code(&self, place: Place) -> String {
        let code = self
            .province(place.province)
            .map_or("?", |p| p.code.as_str());
        match place.coast {
            Some(c) => format!("{code}/{}", c.code()),
            None => code.to_string(),
        }
    }

    /// All supply centres, in province order.
    pub fn supply_centres(&self) -> impl Iterator<Item = ProvinceIndex> + '_ {
        self.province_indices().filter(|p| {
            self.province(*p)
                .is_some_and(BoardProvince::is_supply_centre)
        })
    }

    /// A power's home centres, in province order.
    pub fn home_centres(&self, power: PowerIndex) -> impl Iterator<Item = ProvinceIndex> + '_ {
        self.province_indices().filter(move |p| {
            self.province(*p)
                .is_some_and(|x| x.centre == Centre::Home(power))
        })
    }

    /// The starting owner of a province, if any.
    pub fn owner(&self, p: ProvinceIndex) -> Option<PowerIndex> {
        self.owners
            .binary_search_by_key(&p, |(q, _)| *q)
            .ok()
            .and_then(|i| self.owners.get(i))
            .map(|(_, w)| *w)
    }

    /// The provinces bordering `p` by any border (army, fleet or crossing), sorted.
    pub fn neighbours(&self, p: ProvinceIndex) -> Vec<ProvinceIndex> {
        let mut out: Vec<ProvinceIndex> = self
            .borders
            .army
            .iter()
            .chain(&self.borders.crossings)
            .copied()
            .chain(
                self.borders
                    .fleet
                    .iter()
                    .map(|(a, b)| (a.province, b.province)),
            )
            .filter_map(|(a, b)| {
                if a == p {
                    Some(b)
                } else if b == p {
                    Some(a)
                } else {
                    None
                }
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// Why a board was refused: the file and (when one is to blame) the line, and a sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct BoardError {
    pub file: String,
    pub line: Option<usize>,
    pub reason: String,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{} line {line}: {}", self.file, self.reason),
            None => write!(f, "{}: {}", self.file, self.reason),
        }
    }
}

impl BoardError {
    pub(crate) fn at(file: &str, line: usize, reason: impl Into<String>) -> BoardError {
        BoardError {
            file: file.to_string(),
            line: Some(line),
            reason: reason.into(),
        }
    }

    pub(crate) fn file(file: &str, reason: impl Into<String>) -> BoardError {
        BoardError {
            file: file.to_string(),
            line: None,
            reason: reason.into(),
        }
    }
}

/// A board folder as texts: its name (the folder's) and its files by the names
/// `board.toml` gives them (`board.toml` itself included).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardFolder {
    pub name: String,
    pub files: BTreeMap<String, String>,
}

impl BoardFolder {
    fn text(&self, file: &str) -> Result<&str, BoardError> {
        self.files
            .get(file)
            .map(String::as_str)
            .ok_or_else(|| BoardError::file(file, "the file is missing"))
    }
}

/// The map data of a board, whatever its format, before it is joined with `board.toml`
/// and checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Geography {
    pub provinces: Vec<BoardProvince>,
    pub borders: Borders,
    pub units: Vec<StartingUnit>,
    /// Starting owners when the data gives them (else the home centres').
    pub owners: Option<Vec<(ProvinceIndex, PowerIndex)>>,
    /// The first phase when the data gives it (njudge's seed does).
    pub first_phase: Option<FirstPhase>,
    pub gateways: Vec<Gateway>,
    pub railways: Vec<Railway>,
    pub hong_kong: Vec<HongKong>,
    pub centre_order: Vec<ProvinceIndex>,
}

/// The boards of a listing that loaded, and the errors of those that did not.
#[derive(Debug, Default)]
pub struct BoardSet {
    /// Sorted by name.
    pub boards: Vec<Board>,
    /// Each refused board's name and why.
    pub errors: Vec<(String, BoardError)>,
}

impl BoardSet {
    pub fn get(&self, name: &str) -> Option<&Board> {
        self.boards
            .iter()
            .find(|b| b.name.eq_ignore_ascii_case(name))
    }

    /// Each refused board as a line for the log: `name: file line N: reason`.
    pub fn error_lines(&self) -> Vec<String> {
        self.errors
            .iter()
            .map(|(name, e)| format!("{name}: {e}"))
            .collect()
    }
}

/// Reads and checks one board folder.
pub fn load_board(folder: &BoardFolder) -> Result<Board, BoardError> {
    let spec = toml_file::parse(folder.text(toml_file::BOARD_TOML)?)?;
    if spec.name != folder.name {
        return Err(BoardError::file(
            toml_file::BOARD_TOML,
            format!(
                "the board is named {:?} but its folder {:?}: they must be the same",
                spec.name, folder.name
            ),
        ));
    }
    let (geography, data_file) = match &spec.map {
        toml_file::MapFiles::Csv(files) => {
            (csv::read(folder, files, &spec)?, files.provinces.clone())
        }
        toml_file::MapFiles::Njudge { map, seed } => (
            njudge::parse(
                (map, folder.text(map)?),
                (seed, folder.text(seed)?),
                &spec.powers,
            )?,
            map.clone(),
        ),
    };
    check::assemble(spec, geography, &data_file)
}

/// Reads every folder of a listing: the boards that load, and for each that does not, why.
/// A name given twice keeps the first folder (the shipped boards come first, so an
/// operator's folder cannot replace one) and refuses the second.
pub fn load_boards(folders: &[BoardFolder]) -> BoardSet {
    let mut set = BoardSet::default();
    for folder in folders {
        if set.boards.iter().any(|b| b.name == folder.name) {
            set.errors.push((
                folder.name.clone(),
                BoardError::file(
                    toml_file::BOARD_TOML,
                    format!("a board named {:?} is already loaded", folder.name),
                ),
            ));
            continue;
        }
        match load_board(folder) {
            Ok(board) => set.boards.push(board),
            Err(e) => set.errors.push((folder.name.clone(), e)),
        }
    }
    set.boards.sort_by(|a, b| a.name.cmp(&b.name));
    set
}

#[cfg(test)]
mod tests;
