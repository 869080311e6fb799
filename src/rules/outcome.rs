//! What adjudication says about each order: success, or failure and why, in the words a
//! results bulletin prints.

use super::order::{Order, Refusal};
use super::position::{Owner, Position};

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
}
