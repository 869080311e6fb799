//! Positions: units, who owns each supply centre, the phase, and units awaiting retreat.

use std::fmt;

use crate::map::{Location, Map, Power, ProvinceId, UnitKindData};

use super::phase::Phase;

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

/// A unit's identity: the same from the turn it is built (or the game starts) until it is
/// disbanded, through moves and retreats, whoever owns it. `UnitId(0)` is "not assigned
/// yet" (a unit read from a game saved before units had identities, or a test's unit);
/// [`Position::assign_unit_ids`] gives every such unit a fresh one.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct UnitId(pub u32);

impl UnitId {
    /// Not assigned yet.
    pub const NONE: UnitId = UnitId(0);

    pub fn is_assigned(self) -> bool {
        self != UnitId::NONE
    }
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
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
    /// Who the unit is (kept through moves and retreats; a built unit is new).
    #[serde(default, skip_serializing_if = "is_unassigned")]
    pub id: UnitId,
}

fn is_unassigned(id: &UnitId) -> bool {
    !id.is_assigned()
}

impl Unit {
    /// A unit not yet given an identity (the position gives it one when it is placed).
    pub fn new(owner: Owner, kind: UnitKind, location: Location) -> Unit {
        Unit {
            owner,
            kind,
            location,
            id: UnitId::NONE,
        }
    }

    /// `A Bur`, `F StP/nc`: the short form used in orders and bulletins.
    pub fn display(&self, map: &Map) -> String {
        format!(
            "{} {}",
            self.kind.letter(),
            map.display_location(self.location)
        )
    }
}

/// A unit dislodged in the movement phase, waiting for its retreat order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DislodgedUnit {
    pub unit: Unit,
    /// The province the dislodging unit came from.
    pub attacker_from: ProvinceId,
    /// The dislodging unit.
    #[serde(default, skip_serializing_if = "is_unassigned")]
    pub attacker: UnitId,
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
    /// The identity the next placed unit gets (0: none given yet).
    #[serde(default)]
    pub next_unit_id: u32,
}

impl Position {
    /// An empty board in `phase`, no centre owned.
    pub fn empty(map: &Map, phase: Phase) -> Position {
        Position {
            phase,
            units: Vec::new(),
            dislodged: Vec::new(),
            owners: vec![None; map.province_count()],
            next_unit_id: 0,
        }
    }

    /// Places a unit with a fresh identity; returns it. (The caller keeps the units sorted.)
    pub fn place_unit(&mut self, mut unit: Unit) -> UnitId {
        let id = self.fresh_unit_id();
        unit.id = id;
        self.units.push(unit);
        id
    }

    /// A new identity, never given before in this game.
    pub fn fresh_unit_id(&mut self) -> UnitId {
        if self.next_unit_id == 0 {
            self.next_unit_id = 1;
        }
        let id = UnitId(self.next_unit_id);
        self.next_unit_id = self.next_unit_id.saturating_add(1);
        id
    }

    /// Gives every unit without an identity (a game saved before units had them, a test's
    /// hand-made position) a fresh one, in unit listing order, dislodged units after the
    /// units on the board. Units that have one keep it.
    pub fn assign_unit_ids(&mut self) {
        let highest = self
            .units
            .iter()
            .map(|u| u.id.0)
            .chain(self.dislodged.iter().map(|d| d.unit.id.0))
            .max()
            .unwrap_or(0);
        if self.next_unit_id <= highest {
            self.next_unit_id = highest.saturating_add(1);
        }
        for i in 0..self.units.len() {
            if self.units.get(i).is_some_and(|u| !u.id.is_assigned()) {
                let id = self.fresh_unit_id();
                if let Some(u) = self.units.get_mut(i) {
                    u.id = id;
                }
            }
        }
        for i in 0..self.dislodged.len() {
            if self
                .dislodged
                .get(i)
                .is_some_and(|d| !d.unit.id.is_assigned())
            {
                let id = self.fresh_unit_id();
                if let Some(d) = self.dislodged.get_mut(i) {
                    d.unit.id = id;
                }
            }
        }
    }

    /// The unit with this identity, on the board or dislodged.
    pub fn unit_by_id(&self, id: UnitId) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.id == id)
            .or_else(|| self.dislodged.iter().map(|d| &d.unit).find(|u| u.id == id))
    }

    /// The standard opening: 22 units, 22 home centres owned, Spring 1901 movement.
    pub fn standard_start(map: &Map) -> Position {
        let mut p = Position::empty(map, Phase::FIRST);
        p.set_home_ownership(map);
        for (power, kind, loc) in map.starting_units() {
            p.units.push(Unit::new(
                Owner::Power(*power),
                match kind {
                    UnitKindData::Army => UnitKind::Army,
                    UnitKindData::Fleet => UnitKind::Fleet,
                },
                *loc,
            ));
        }
        p.sort_units();
        p.assign_unit_ids();
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
