//! The board: provinces, coasts, adjacency, supply centres and home centres.
//!
//! The standard map is data (`fixtures/maps/standard/*.csv`, read with `include_str!`),
//! loaded and checked once at start-up by [`Map::standard`]. After that the map is
//! immutable and does no I/O. Every other layer names places by [`ProvinceId`] and
//! [`Location`] (a province plus, for split-coast provinces, a [`Coast`]).
//!
//! [`board`] reads any board as data (its powers, letters and adjectives too) from a
//! `boards/<name>/` folder, in the CSV format or as njudge's map and seed files
//! (`njudge`); phase B of issue 40 builds a `Map` from a board (`docs/boards.md`).

pub mod board;
mod load;
mod names;

use std::fmt;
use std::sync::LazyLock;

pub use load::MapError;
pub(crate) use names::{char_classes, edit_distance_within, far_apart};

/// One of the seven great powers of the standard game.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Power {
    Austria,
    England,
    France,
    Germany,
    Italy,
    Russia,
    Turkey,
}

impl Power {
    /// All powers, in alphabetical order (the order bulletins list them in).
    pub const ALL: [Power; 7] = [
        Power::Austria,
        Power::England,
        Power::France,
        Power::Germany,
        Power::Italy,
        Power::Russia,
        Power::Turkey,
    ];

    /// The full English name: `Austria`.
    pub fn name(self) -> &'static str {
        match self {
            Power::Austria => "Austria",
            Power::England => "England",
            Power::France => "France",
            Power::Germany => "Germany",
            Power::Italy => "Italy",
            Power::Russia => "Russia",
            Power::Turkey => "Turkey",
        }
    }

    /// The adjective: `Austrian`.
    pub fn adjective(self) -> &'static str {
        match self {
            Power::Austria => "Austrian",
            Power::England => "English",
            Power::France => "French",
            Power::Germany => "German",
            Power::Italy => "Italian",
            Power::Russia => "Russian",
            Power::Turkey => "Turkish",
        }
    }

    /// The three-letter code: `AUS`.
    pub fn code(self) -> &'static str {
        match self {
            Power::Austria => "AUS",
            Power::England => "ENG",
            Power::France => "FRA",
            Power::Germany => "GER",
            Power::Italy => "ITA",
            Power::Russia => "RUS",
            Power::Turkey => "TUR",
        }
    }

    /// The njudge initial: `A` for Austria (used in `SIGNON Agame` and `PRESS TO AE`).
    pub fn initial(self) -> char {
        match self {
            Power::Austria => 'A',
            Power::England => 'E',
            Power::France => 'F',
            Power::Germany => 'G',
            Power::Italy => 'I',
            Power::Russia => 'R',
            Power::Turkey => 'T',
        }
    }

    /// A dense index 0..7, in alphabetical order.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Reads a power by full name, adjective or three-letter code, case-insensitively.
    /// Single letters are not accepted here (they collide with `A`rmy and `F`leet).
    pub fn from_name(text: &str) -> Option<Power> {
        let t = text.trim();
        Power::ALL.into_iter().find(|p| {
            t.eq_ignore_ascii_case(p.name())
                || t.eq_ignore_ascii_case(p.adjective())
                || t.eq_ignore_ascii_case(p.code())
        })
    }

    /// Reads a power by its njudge initial (`A E F G I R T`), case-insensitively.
    pub fn from_initial(c: char) -> Option<Power> {
        let c = c.to_ascii_uppercase();
        Power::ALL.into_iter().find(|p| p.initial() == c)
    }
}

impl fmt::Display for Power {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A province's kind of ground.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Inland: armies only.
    Land,
    /// Land touching the sea: armies and fleets.
    Coast,
    /// A sea area: fleets only.
    Sea,
}

/// One coast of a split-coast province (Bulgaria, Spain, St Petersburg).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Coast {
    North,
    South,
    East,
}

impl Coast {
    /// The code: `nc`, `sc`, `ec`.
    pub fn code(self) -> &'static str {
        match self {
            Coast::North => "nc",
            Coast::South => "sc",
            Coast::East => "ec",
        }
    }

    /// The full form printed after a province name: `north coast`.
    pub fn name(self) -> &'static str {
        match self {
            Coast::North => "north coast",
            Coast::South => "south coast",
            Coast::East => "east coast",
        }
    }

    /// Reads `nc`, `north`, `north coast`, `n` (and the same for south and east).
    pub fn from_text(text: &str) -> Option<Coast> {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '.')
            .collect::<String>()
            .to_ascii_lowercase();
        match t.as_str() {
            "nc" | "n" | "north" | "northcoast" => Some(Coast::North),
            "sc" | "s" | "south" | "southcoast" => Some(Coast::South),
            "ec" | "e" | "east" | "eastcoast" => Some(Coast::East),
            _ => None,
        }
    }
}

/// A province, by its index in the map (the map sorts provinces by canonical code).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct ProvinceId(u8);

impl ProvinceId {
    /// The dense index of this province, `0..map.province_count()`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a unit stands or goes: a province and, on a split-coast province, a coast.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Location {
    pub province: ProvinceId,
    pub coast: Option<Coast>,
}

impl Location {
    /// The location of a whole province (no coast).
    pub fn province(province: ProvinceId) -> Location {
        Location {
            province,
            coast: None,
        }
    }
}

/// What the map knows about one province.
#[derive(Clone, Debug)]
pub struct Province {
    /// Canonical lowercase code: `stp`.
    pub code: String,
    /// The full name the judge prints: `St Petersburg`.
    pub name: String,
    pub terrain: Terrain,
    /// Whether this province is a supply centre.
    pub supply_centre: bool,
    /// The power whose home centre this is, if any.
    pub home_of: Option<Power>,
    /// The coasts of a split-coast province, empty otherwise.
    pub coasts: Vec<Coast>,
}

/// The board, loaded and checked.
#[derive(Debug)]
pub struct Map {
    provinces: Vec<Province>,
    /// Army borders, one bit per province.
    army_borders: Vec<u128>,
    /// Fleet borders: from a location to the locations a fleet can move to.
    fleet_borders: Vec<(Location, Vec<Location>)>,
    /// Any border (army or fleet), at province level, one bit per province.
    any_borders: Vec<u128>,
    /// The sea areas bordering each province, one bit per province.
    sea_borders: Vec<u128>,
    /// Lookup of codes, full names and aliases (normalised) to provinces.
    names: names::NameTable,
    /// The standard starting units.
    start: Vec<(Power, UnitKindData, Location)>,
    /// Each power's home country (see [`Map::home_country`]), one bit per province, in
    /// `Power::ALL` order; worked out once when the map is loaded.
    home_countries: [u128; 7],
    /// Each power's home centres, one bit per province, in `Power::ALL` order.
    home_centres: [u128; 7],
}

/// The unit kind as written in the map's starting position (the rules layer has its own
/// `UnitKind`; the map does not depend on the rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKindData {
    Army,
    Fleet,
}

static STANDARD: LazyLock<Result<Map, MapError>> = LazyLock::new(|| {
    load::load(
        include_str!("../../fixtures/maps/standard/provinces.csv"),
        include_str!("../../fixtures/maps/standard/borders.csv"),
        include_str!("../../fixtures/maps/standard/aliases.csv"),
        include_str!("../../fixtures/maps/standard/impassable.csv"),
        include_str!("../../fixtures/maps/standard/units.csv"),
    )
});

impl Map {
    /// The standard map, loaded once and checked (75 provinces, 34 supply centres, 22 home
    /// centres, symmetric borders). An error here means the map data in the repository is
    /// broken; it is reported, not panicked on.
    pub fn standard() -> Result<&'static Map, &'static MapError> {
        STANDARD.as_ref()
    }

    /// Number of provinces.
    pub fn province_count(&self) -> usize {
        self.provinces.len()
    }

    /// All province ids, in canonical code order.
    pub fn province_ids(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        (0..self.provinces.len()).map(|i| ProvinceId(i as u8))
    }

    /// The province behind an id. Ids come only from this map, so the lookup cannot fail.
    pub fn province(&self, id: ProvinceId) -> &Province {
        // Ids are only ever made by this map from indices below its length.
        #[allow(clippy::indexing_slicing)]
        &self.provinces[id.index()]
    }

    /// The canonical code: `stp`.
    pub fn code(&self, id: ProvinceId) -> &str {
        &self.province(id).code
    }

    /// The display code: sea areas upper case (`NTH`), `StP`, others capitalised (`Bur`).
    pub fn display_code(&self, id: ProvinceId) -> String {
        let p = self.province(id);
        if p.terrain == Terrain::Sea {
            p.code.to_ascii_uppercase()
        } else if p.code == "stp" {
            "StP".to_string()
        } else {
            let mut c = p.code.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        }
    }

    /// A location in display code form: `StP/nc`, `Bur`.
    pub fn display_location(&self, loc: Location) -> String {
        match loc.coast {
            Some(c) => format!("{}/{}", self.display_code(loc.province), c.code()),
            None => self.display_code(loc.province),
        }
    }

    /// A location in canonical lowercase form: `stp/nc`, `bur`.
    pub fn location_code(&self, loc: Location) -> String {
        match loc.coast {
            Some(c) => format!("{}/{}", self.code(loc.province), c.code()),
            None => self.code(loc.province).to_string(),
        }
    }

    /// A province's full name: `St Petersburg`, `Mid-Atlantic Ocean`.
    pub fn province_name(&self, id: ProvinceId) -> &str {
        &self.province(id).name
    }

    /// A location's full name: `St Petersburg (north coast)`.
    pub fn location_name(&self, loc: Location) -> String {
        match loc.coast {
            Some(c) => format!("{} ({})", self.province(loc.province).name, c.name()),
            None => self.province(loc.province).name.clone(),
        }
    }

    /// Finds a province by canonical code, alias or full name (case, blanks and `.`
    /// ignored).
    pub fn find_province(&self, text: &str) -> Option<ProvinceId> {
        self.names.find(text)
    }

    /// The full name of a place on the board that is no province and that no unit may
    /// enter (`swi` and `Switzerland` are Switzerland), for telling a player so.
    pub fn impassable(&self, text: &str) -> Option<&str> {
        self.names.impassable(text)
    }

    /// Reads a location: a province name, optionally followed by a coast as `/nc`, `(nc)`,
    /// `/north coast`, `(north coast)` or ` north coast`. The coast must exist.
    pub fn find_location(&self, text: &str) -> Option<Location> {
        let text = text.trim();
        if let Some(p) = self.find_province(text) {
            return Some(Location::province(p));
        }
        let (name, coast) = names::split_coast(text)?;
        let province = self.find_province(name)?;
        let coast = Coast::from_text(coast)?;
        self.province(province)
            .coasts
            .contains(&coast)
            .then_some(Location {
                province,
                coast: Some(coast),
            })
    }

    /// The provinces whose names are closest to a mistyped one, best first (for "did you
    /// mean ...?" in error replies).
    pub fn suggest(&self, text: &str) -> Vec<ProvinceId> {
        self.names.suggest(text)
    }

    /// Whether an army can move from one province to the other over land.
    pub fn army_border(&self, from: ProvinceId, to: ProvinceId) -> bool {
        self.army_borders
            .get(from.index())
            .is_some_and(|bits| bits & (1u128 << to.index()) != 0)
    }

    /// Whether the two provinces share any border (for armies or fleets).
    pub fn any_border(&self, a: ProvinceId, b: ProvinceId) -> bool {
        self.any_borders
            .get(a.index())
            .is_some_and(|bits| bits & (1u128 << b.index()) != 0)
    }

    /// The neighbours of a province over any border, as a bit set.
    pub fn neighbours_bits(&self, p: ProvinceId) -> u128 {
        self.any_borders.get(p.index()).copied().unwrap_or(0)
    }

    /// The sea areas bordering a province, as a bit set.
    pub fn sea_neighbours_bits(&self, p: ProvinceId) -> u128 {
        self.sea_borders.get(p.index()).copied().unwrap_or(0)
    }

    /// The province with dense index `i`, if there is one.
    pub fn province_at(&self, i: usize) -> Option<ProvinceId> {
        (i < self.provinces.len()).then_some(ProvinceId(i as u8))
    }

    /// The locations a fleet at `from` can move to.
    pub fn fleet_moves(&self, from: Location) -> &[Location] {
        self.fleet_borders
            .binary_search_by_key(&from, |(l, _)| *l)
            .ok()
            .and_then(|i| self.fleet_borders.get(i))
            .map(|(_, v)| v.as_slice())
            .unwrap_or(&[])
    }

    /// Whether a fleet at `from` can move to `to` (coast-exact).
    pub fn fleet_border(&self, from: Location, to: Location) -> bool {
        self.fleet_moves(from).contains(&to)
    }

    /// The coasts (locations) of province `to` that a fleet at `from` can reach; for a
    /// province without coasts this is the province itself when reachable.
    pub fn fleet_targets(&self, from: Location, to: ProvinceId) -> impl Iterator<Item = Location> {
        self.fleet_moves(from)
            .iter()
            .copied()
            .filter(move |l| l.province == to)
    }

    /// Every location a unit of either kind can stand on: each province without coasts,
    /// and each coast of a split-coast province (the bare province too, for armies).
    pub fn locations(&self) -> Vec<Location> {
        let mut out = Vec::new();
        for id in self.province_ids() {
            out.push(Location::province(id));
            for c in &self.province(id).coasts {
                out.push(Location {
                    province: id,
                    coast: Some(*c),
                });
            }
        }
        out
    }

    /// The standard 1901 starting units.
    pub fn starting_units(&self) -> &[(Power, UnitKindData, Location)] {
        &self.start
    }

    /// All supply centres.
    pub fn supply_centres(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        self.province_ids()
            .filter(|p| self.province(*p).supply_centre)
    }

    /// The home centres of a power.
    pub fn home_centres(&self, power: Power) -> impl Iterator<Item = ProvinceId> + '_ {
        let mut bits = self.home_centres.get(power.index()).copied().unwrap_or(0);
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            Some(ProvinceId(i as u8))
        })
    }

    /// Every power's home centres as bit sets (worked out once when the map is loaded).
    fn home_centres_of(provinces: &[Province]) -> [u128; 7] {
        let mut out = [0u128; 7];
        for (i, p) in provinces.iter().enumerate() {
            if let Some(slot) = p.home_of.and_then(|h| out.get_mut(h.index())) {
                *slot |= 1u128 << i;
            }
        }
        out
    }

    /// The provinces of a power's home country, as written down (`docs/rules/README.md`
    /// §1: every province inside its national border, home centres included).
    fn home_country_codes(power: Power) -> &'static [&'static str] {
        match power {
            Power::Austria => &["boh", "bud", "gal", "tri", "tyr", "vie"],
            Power::England => &["cly", "edi", "lon", "lvp", "wal", "yor"],
            Power::France => &["bre", "bur", "gas", "mar", "par", "pic"],
            Power::Germany => &["ber", "kie", "mun", "pru", "ruh", "sil"],
            Power::Italy => &["apu", "nap", "pie", "rom", "tus", "ven"],
            Power::Russia => &["fin", "lvn", "mos", "sev", "stp", "ukr", "war"],
            Power::Turkey => &["ank", "arm", "con", "smy", "syr"],
        }
    }

    /// Every power's home country as bit sets (the map's own names read once).
    fn home_countries_of(names: &names::NameTable) -> [u128; 7] {
        let mut out = [0u128; 7];
        for (slot, power) in out.iter_mut().zip(Power::ALL) {
            *slot = Self::home_country_codes(power)
                .iter()
                .filter_map(|c| names.find(c))
                .fold(0, |acc, p| acc | 1u128 << p.index());
        }
        out
    }

    /// A power's home country (`docs/rules/README.md` §1: every province inside its
    /// national border, home centres included), in province code order.
    pub fn home_country(&self, power: Power) -> Vec<ProvinceId> {
        let bits = self.home_country_bits(power);
        self.province_ids()
            .filter(|p| bits & (1u128 << p.index()) != 0)
            .collect()
    }

    /// A power's home country as a bit set, one bit per province.
    pub fn home_country_bits(&self, power: Power) -> u128 {
        self.home_countries.get(power.index()).copied().unwrap_or(0)
    }

    /// Whether a province is inside a power's national border (see [`Map::home_country`]).
    pub fn in_home_country(&self, p: ProvinceId, power: Power) -> bool {
        self.home_country_bits(power) & (1u128 << p.index()) != 0
    }

    /// Whether a province is a sea area.
    pub fn is_sea(&self, p: ProvinceId) -> bool {
        self.province(p).terrain == Terrain::Sea
    }
}

#[cfg(test)]
mod tests;
