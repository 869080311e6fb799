//! Orders as a player gives them, with map keys: hold, move, support, convoy, retreat,
//! disband, build, remove, waive. Parsing text into these is the `command` layer's job;
//! checking them against a position is `validate`'s.

use crate::map::{Location, Map, Power, ProvinceId};

use super::position::UnitKind;

/// A unit as an order names it: a location, and the kind when the player wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct UnitSpec {
    pub kind: Option<UnitKind>,
    pub location: Location,
}

impl UnitSpec {
    pub fn new(kind: Option<UnitKind>, location: Location) -> UnitSpec {
        UnitSpec { kind, location }
    }

    pub fn province(&self) -> ProvinceId {
        self.location.province
    }
}

/// One order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// `A Par H`
    Hold { unit: UnitSpec },
    /// `A Par - Bur`, `A Lon - Bel via convoy`
    Move {
        unit: UnitSpec,
        dest: Location,
        via_convoy: bool,
    },
    /// `A Mar S A Par` (support to hold)
    SupportHold { unit: UnitSpec, target: UnitSpec },
    /// `A Mar S A Par - Bur` (support to move; the coast of `dest`, when given, must match)
    SupportMove {
        unit: UnitSpec,
        target: UnitSpec,
        dest: Location,
    },
    /// `F NTH C A Lon - Nwy`
    Convoy {
        unit: UnitSpec,
        army: UnitSpec,
        dest: Location,
    },
    /// Retreat phase: `A Bur - Gas`
    Retreat { unit: UnitSpec, dest: Location },
    /// Retreat phase: `A Bur D`
    Disband { unit: UnitSpec },
    /// Adjustment phase: `Build A Par`
    Build { unit: UnitSpec },
    /// Adjustment phase: `Remove F Bre`
    Remove { unit: UnitSpec },
    /// Adjustment phase: use up one build without building.
    Waive,
}

impl Order {
    /// The unit the order is for (none for a waive).
    pub fn unit(&self) -> Option<UnitSpec> {
        match *self {
            Order::Hold { unit }
            | Order::Move { unit, .. }
            | Order::SupportHold { unit, .. }
            | Order::SupportMove { unit, .. }
            | Order::Convoy { unit, .. }
            | Order::Retreat { unit, .. }
            | Order::Disband { unit }
            | Order::Build { unit }
            | Order::Remove { unit } => Some(unit),
            Order::Waive => None,
        }
    }

    /// The order in the judge's short form with display codes: `A Bur - Mun`,
    /// `F NTH C A Hol - Nwy`, `F StP/sc S A Fin`, `Build A Par`.
    pub fn display(&self, map: &Map) -> String {
        let u = |s: &UnitSpec| match s.kind {
            Some(k) => format!("{} {}", k.letter(), map.display_location(s.location)),
            None => map.display_location(s.location),
        };
        let l = |l: &Location| map.display_location(*l);
        match self {
            Order::Hold { unit } => format!("{} H", u(unit)),
            Order::Move {
                unit,
                dest,
                via_convoy,
            } => {
                if *via_convoy {
                    format!("{} - {} via convoy", u(unit), l(dest))
                } else {
                    format!("{} - {}", u(unit), l(dest))
                }
            }
            Order::SupportHold { unit, target } => format!("{} S {}", u(unit), u(target)),
            Order::SupportMove { unit, target, dest } => {
                format!("{} S {} - {}", u(unit), u(target), l(dest))
            }
            Order::Convoy { unit, army, dest } => {
                format!("{} C {} - {}", u(unit), u(army), l(dest))
            }
            Order::Retreat { unit, dest } => format!("{} - {}", u(unit), l(dest)),
            Order::Disband { unit } => format!("{} D", u(unit)),
            Order::Build { unit } => format!("Build {}", u(unit)),
            Order::Remove { unit } => format!("Remove {}", u(unit)),
            Order::Waive => "Waive".to_string(),
        }
    }
}

/// An order and the power that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PowerOrder {
    pub power: Power,
    pub order: Order,
}

impl PowerOrder {
    pub fn new(power: Power, order: Order) -> PowerOrder {
        PowerOrder { power, order }
    }
}

/// Why an order was refused before resolution (the DATC's "illegal" orders). A refused
/// order is ignored: the unit holds, and may still receive support to hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("there is no unit in {0}")]
    NoUnit(String),
    #[error("the unit in {place} belongs to {owner}, not to {power}")]
    ForeignUnit {
        place: String,
        owner: String,
        power: String,
    },
    #[error("the unit in {place} is {actual}, not {ordered}")]
    WrongUnitKind {
        place: String,
        actual: String,
        ordered: String,
    },
    #[error("{unit} already has an order; only the last one counts")]
    Duplicate { unit: String },
    #[error("{0} cannot move to the province it stands in")]
    MoveToSelf(String),
    #[error("{unit} cannot reach {dest}")]
    Unreachable { unit: String, dest: String },
    #[error("{unit} can reach more than one coast of {dest}: say which one")]
    CoastNeeded { unit: String, dest: String },
    #[error("only armies can be convoyed")]
    OnlyArmiesConvoyed,
    #[error("only fleets in sea areas can convoy")]
    ConvoyFromLand,
    #[error("{fleet} is on no convoy route from {from} to {to}")]
    NoConvoyRoute {
        fleet: String,
        from: String,
        to: String,
    },
    #[error("a unit cannot support itself")]
    SupportSelf,
    #[error("{unit} cannot support into {dest}: it could not move there itself")]
    SupportUnreachable { unit: String, dest: String },
    #[error("this order belongs in a {expected} phase, not now")]
    WrongPhase { expected: &'static str },
    #[error("{0} was not dislodged and needs no retreat order")]
    NotDislodged(String),
    #[error("{unit} cannot retreat to {dest}")]
    RetreatNotAllowed { unit: String, dest: String },
    #[error("{power} has no builds this winter")]
    NoBuilds { power: String },
    #[error("{power} has no units to remove this winter")]
    NoRemovals { power: String },
    #[error("{place} is not a home supply centre of {power}")]
    NotHomeCentre { place: String, power: String },
    #[error("{place} is not owned by {power}")]
    CentreNotOwned { place: String, power: String },
    #[error("{0} is occupied")]
    Occupied(String),
    #[error("a fleet cannot be built in {0}")]
    FleetInland(String),
    #[error("an army cannot be built in {0}")]
    ArmyAtSea(String),
    #[error("say which coast of {0} the fleet is built on")]
    BuildCoastNeeded(String),
    #[error("{0} already has a build this winter")]
    DoubleBuild(String),
    #[error("neutral units take no orders")]
    NeutralUnit,
    #[error("{phase} takes no orders for units")]
    NoUnitOrders { phase: String },
    /// A rule set's own refusal, with its spec code.
    #[error("{0}")]
    Variant(super::verdict::VariantRefusal),
}

impl Refusal {
    /// The stable code printed in replies: `ERROR <code>: <sentence>`.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::NoUnit(_) => "NO-UNIT",
            Refusal::ForeignUnit { .. } => "FOREIGN-UNIT",
            Refusal::WrongUnitKind { .. } => "WRONG-UNIT-KIND",
            Refusal::Duplicate { .. } => "DUPLICATE",
            Refusal::MoveToSelf(_) => "MOVE-TO-SELF",
            Refusal::Unreachable { .. } => "UNREACHABLE",
            Refusal::CoastNeeded { .. } => "COAST-NEEDED",
            Refusal::OnlyArmiesConvoyed => "FLEET-CONVOYED",
            Refusal::ConvoyFromLand => "CONVOY-FROM-LAND",
            Refusal::NoConvoyRoute { .. } => "NO-CONVOY-ROUTE",
            Refusal::SupportSelf => "SUPPORT-SELF",
            Refusal::SupportUnreachable { .. } => "SUPPORT-UNREACHABLE",
            Refusal::WrongPhase { .. } => "WRONG-PHASE",
            Refusal::NotDislodged(_) => "NOT-DISLODGED",
            Refusal::RetreatNotAllowed { .. } => "BAD-RETREAT",
            Refusal::NoBuilds { .. } => "NO-BUILDS",
            Refusal::NoRemovals { .. } => "NO-REMOVALS",
            Refusal::NotHomeCentre { .. } => "NOT-HOME-CENTRE",
            Refusal::CentreNotOwned { .. } => "CENTRE-NOT-OWNED",
            Refusal::Occupied(_) => "OCCUPIED",
            Refusal::FleetInland(_) => "FLEET-INLAND",
            Refusal::ArmyAtSea(_) => "ARMY-AT-SEA",
            Refusal::BuildCoastNeeded(_) => "COAST-NEEDED",
            Refusal::DoubleBuild(_) => "DOUBLE-BUILD",
            Refusal::NeutralUnit => "NEUTRAL-UNIT",
            Refusal::NoUnitOrders { .. } => "WRONG-PHASE",
            Refusal::Variant(v) => v.code,
        }
    }
}
