//! Positions: units, who owns each supply centre, the phase, and units awaiting retreat.

use std::fmt;

use crate::map::{Location, Map, Power, ProvinceId, UnitKindData};

/// Army or fleet.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum UnitKind {
    Army,
    Fleet,
}

impl UnitKind {
    /// `A` or `F`.
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
        }
    }

    /// `Army` or `Fleet`.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Army => "Army",
            UnitKind::Fleet => "Fleet",
        }
    }
}

/// Who a unit belongs to (H12): a power, or nobody (a neutral unit, which always holds).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Owner {
    Power(Power),
    Neutral,
}

impl Owner {
    pub fn power(self) -> Option<Power> {
        match self {
            Owner::Power(p) => Some(p),
            Owner::Neutral => None,
        }
    }
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Power(p) => f.write_str(p.name()),
            Owner::Neutral => f.write_str("Neutral"),
        }
    }
}

/// A unit on the board.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Unit {
    pub owner: Owner,
    pub kind: UnitKind,
    pub location: Location,
}

impl Unit {
    /// `A Bur`, `F StP/nc`: the short form used in orders and bulletins.
    pub fn display(&self, map: &Map) -> String {
        format!(
            "{} {}",
            self.kind.letter(),
            map.display_location(self.location)
        )
    }
}

/// Spring, Fall or Winter.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Season {
    Spring,
    Fall,
    Winter,
}

/// What is ordered in a phase.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
}

/// A phase of the game, written as njudge writes it: `S1901M`, `F1901R`, `W1901A`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Phase {
    pub year: u16,
    pub season: Season,
    pub kind: PhaseKind,
}

impl Phase {
    /// Spring 1901 movement: the first phase of a standard game.
    pub const FIRST: Phase = Phase {
        year: 1901,
        season: Season::Spring,
        kind: PhaseKind::Movement,
    };

    pub fn new(year: u16, season: Season, kind: PhaseKind) -> Phase {
        Phase { year, season, kind }
    }

    /// Reads `S1901M` (case-insensitive).
    pub fn parse(text: &str) -> Option<Phase> {
        let t = text.trim();
        let mut chars = t.chars();
        let season = match chars.next()?.to_ascii_uppercase() {
            'S' => Season::Spring,
            'F' => Season::Fall,
            'W' => Season::Winter,
            _ => return None,
        };
        let rest = chars.as_str();
        let kind_char = rest.chars().last()?;
        let year: u16 = rest.strip_suffix(kind_char)?.parse().ok()?;
        let kind = match kind_char.to_ascii_uppercase() {
            'M' => PhaseKind::Movement,
            'R' => PhaseKind::Retreat,
            'A' | 'B' => PhaseKind::Adjustment,
            _ => return None,
        };
        Some(Phase { year, season, kind })
    }

    /// `Spring of 1901` style words for bulletins: (`Movement`, `Spring`, 1901).
    pub fn season_name(&self) -> &'static str {
        match self.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.season {
            Season::Spring => 'S',
            Season::Fall => 'F',
            Season::Winter => 'W',
        };
        let k = match self.kind {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
        };
        write!(f, "{s}{}{k}", self.year)
    }
}

/// A unit dislodged in the movement phase, waiting for its retreat order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DislodgedUnit {
    pub unit: Unit,
    /// The province the dislodging unit came from.
    pub attacker_from: ProvinceId,
    /// Where the unit may retreat to (already computed: not occupied, not a standoff, not
    /// the attacker's origin unless the attacker came by convoy, and H13).
    pub retreat_options: Vec<Location>,
}

/// Everything the adjudicator needs to know about the board at the start of a phase.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub phase: Phase,
    /// Units on the board, at most one per province.
    pub units: Vec<Unit>,
    /// Units dislodged in the preceding movement phase (retreat phases only).
    pub dislodged: Vec<DislodgedUnit>,
    /// The owner of each supply centre, indexed by province (None: unowned or no centre).
    pub owners: Vec<Option<Power>>,
}

impl Position {
    /// An empty board in `phase`, no centre owned.
    pub fn empty(map: &Map, phase: Phase) -> Position {
        Position {
            phase,
            units: Vec::new(),
            dislodged: Vec::new(),
            owners: vec![None; map.province_count()],
        }
    }

    /// The standard opening: 22 units, 22 home centres owned, Spring 1901 movement.
    pub fn standard_start(map: &Map) -> Position {
        let mut p = Position::empty(map, Phase::FIRST);
        p.set_home_ownership(map);
        for (power, kind, loc) in map.starting_units() {
            p.units.push(Unit {
                owner: Owner::Power(*power),
                kind: match kind {
                    UnitKindData::Army => UnitKind::Army,
                    UnitKindData::Fleet => UnitKind::Fleet,
                },
                location: *loc,
            });
        }
        p.sort_units();
        p
    }

    /// Every home centre owned by its power, every other centre unowned (the 1901
    /// ownership).
    pub fn set_home_ownership(&mut self, map: &Map) {
        for id in map.province_ids() {
            if let Some(o) = self.owners.get_mut(id.index()) {
                *o = map.province(id).home_of;
            }
        }
    }

    /// The unit in a province, if any.
    pub fn unit_in(&self, province: ProvinceId) -> Option<&Unit> {
        self.units.iter().find(|u| u.location.province == province)
    }

    /// Who owns a supply centre.
    pub fn owner_of(&self, province: ProvinceId) -> Option<Power> {
        self.owners.get(province.index()).copied().flatten()
    }

    /// The number of centres a power owns.
    pub fn centre_count(&self, power: Power) -> usize {
        self.owners.iter().filter(|o| **o == Some(power)).count()
    }

    /// Units in canonical order (by province code, which is province id order).
    pub fn sort_units(&mut self) {
        self.units
            .sort_by_key(|u| (u.location.province, u.location.coast));
    }
}
