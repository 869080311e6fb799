//! What adjudication says about each order: success, or failure and why, in the words a
//! results bulletin prints.

use crate::map::{Location, ProvinceId};

use super::order::{Order, Refusal};
use super::position::{Owner, Position, UnitId};

/// Why an order failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A move that did not get through (bounced, or lost a battle).
    Bounce,
    /// A support that was cut (or whose supporter was dislodged).
    Cut,
    /// A support or convoy that matches no order of its unit.
    Void,
    /// A support against a unit of the supporter's own power (H10): given, not counted.
    NotCounted,
    /// A convoyed move with no unbroken chain of convoying fleets.
    NoConvoy,
    /// A convoy whose fleet was dislodged, or whose army did not arrive.
    Disrupted,
    /// A hold (or any non-moving order) whose unit was dislodged.
    Dislodged,
    /// A retreat that met another retreat to the same province: both disband.
    RetreatBounce,
    /// The order was refused before resolution.
    Illegal(Refusal),
}

impl Failure {
    /// The njudge marker: `bounce`, `cut`, `void`, `no convoy`, `dislodged`, ...
    pub fn marker(&self) -> &'static str {
        match self {
            Failure::Bounce | Failure::RetreatBounce => "bounce",
            Failure::Cut => "cut",
            Failure::Void | Failure::Illegal(_) => "void",
            Failure::NotCounted => "void",
            Failure::NoConvoy => "no convoy",
            Failure::Disrupted => "disrupted",
            Failure::Dislodged => "dislodged",
        }
    }
}

/// The result of one order (or of a unit that had none and held).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderResult {
    pub owner: Owner,
    pub order: Order,
    /// Whether the order was in the player's orders (false: a default hold, a civil
    /// disorder removal, a waived build).
    pub given: bool,
    /// None: success.
    pub failure: Option<Failure>,
    /// The ordered unit was dislodged (movement phases).
    pub dislodged: bool,
    /// What the rule set said when it rewrote the order (H4): `out of the game`,
    /// `void: not at war with Germany`. `order` is then the order as shown.
    pub note: Option<String>,
}

impl OrderResult {
    pub fn succeeded(&self) -> bool {
        self.failure.is_none()
    }
}

/// The outcome of one phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseOutcome {
    /// One entry per order given (refused ones included) and per unit without an order,
    /// in unit listing order (powers alphabetical, then province code).
    pub results: Vec<OrderResult>,
    /// The position right after this phase (before any phase skipping): units moved,
    /// dislodged units listed with their retreat options.
    pub after: Position,
    /// The position at the start of the next phase that needs orders (ownership updated
    /// after the Fall, empty retreat and adjustment phases skipped).
    pub next: Position,
    /// What every unit did, for rule sets whose steps depend on it (H16).
    pub record: PhaseRecord,
    /// Whether the centre ownership was updated at the end of this phase (the end of a
    /// Fall: after the Fall movement when no retreat follows, else after the retreats).
    pub ownership_updated: bool,
}

/// What happened to every unit in a phase, by identity: who moved where, who dislodged
/// whom, which supports were given and whether they were cut, which moves were made
/// against which unit. The movement phase fills all of it; a retreat phase fills `units`
/// (retreated or disbanded); an adjustment phase fills `units` with the builds and
/// removals. Rule sets read it in their steps (Shell Shock's morale, for one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseRecord {
    pub units: Vec<UnitRecord>,
    pub supports: Vec<SupportRecord>,
    pub attacks: Vec<AttackRecord>,
}

/// One unit in a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRecord {
    pub id: UnitId,
    pub owner: Owner,
    /// Where it stood when the phase began (a built unit: where it was built).
    pub from: Location,
    /// The order it was adjudicated with: after validation and the rule set's rewrites; a
    /// unit without a legal order holds (movement) or disbands (retreats).
    pub order: Order,
    /// Whether the player gave an order for it (a legal one, possibly rewritten).
    pub given: bool,
    /// Where it moved, retreated or was built (None: it stayed, or it is gone).
    pub moved_to: Option<Location>,
    /// The unit that dislodged it (movement phases).
    pub dislodged_by: Option<UnitId>,
    /// It left the board in this phase (disbanded, removed, destroyed).
    pub gone: bool,
    /// It was built in this phase.
    pub built: bool,
}

/// A support order, as resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SupportRecord {
    pub supporter: UnitId,
    /// The supported unit.
    pub target: UnitId,
    /// For a support to move: where to (None: a support to hold).
    pub dest: Option<ProvinceId>,
    /// The supported unit's order matches the support (else the support is void).
    pub matched: bool,
    /// Cut, or its supporter dislodged.
    pub cut: bool,
}

impl SupportRecord {
    /// Given and not cut: it added its strength (H10 may still leave it out of an
    /// attack on the supporter's own power).
    pub fn effective(&self) -> bool {
        self.matched && !self.cut
    }
}

/// A move, as resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackRecord {
    pub attacker: UnitId,
    pub to: ProvinceId,
    /// The unit standing in `to` when the phase began, if any.
    pub defender: Option<UnitId>,
    /// By convoy.
    pub convoyed: bool,
    /// A convoyed move whose convoy failed never reached `to` at all.
    pub has_path: bool,
    pub succeeded: bool,
}
