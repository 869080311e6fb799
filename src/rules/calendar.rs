//! The calendar between phases: the steps of a phase's processing where a rule set may act
//! (hook H16) and the phases it adds or keeps (hook H18). The standard calendar does
//! nothing at any step and adds no phase.

use crate::map::Map;

use super::hooks::Rules;
use super::outcome::{OrderResult, PhaseRecord};
use super::phase::Phase;
use super::position::Position;

/// A point in a phase's processing, in the order they happen (`shared/rules/README.md`
/// §2.2: the *after resolution* part of a bulletin is laid out by these steps).
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// The phase's orders have been resolved; the position is the board right after it
    /// (dislodged units listed with their retreat options). For a phase of the calendar's
    /// own (alliance, jury, conference) there are no results: the calendar resolves it here.
    Resolved {
        results: &'a [OrderResult],
        record: &'a PhaseRecord,
    },
    /// The Spring season is over (after its retreats, or after its movement when no
    /// retreat phase follows).
    SpringEnds,
    /// The centre ownership has just been updated at the end of a Fall (H14).
    OwnershipUpdated,
    /// The season that began with the Fall movement is over: after the Winter adjustments,
    /// or where the Winter would have been when it is skipped.
    FallEnds,
    /// The next phase opens; the position is the one players will order from.
    Opens(Phase),
}

/// What a rule set does between phases. Every method defaults to the standard game.
pub trait Calendar {
    /// The adjudication rules as they stand now (after the steps so far): the sequencing
    /// asks them for the ownership update (H14) and the adjustments (H15).
    fn rules(&self) -> &dyn Rules;

    /// H16: `step` has happened. The rule set may change the position (exchange a unit,
    /// make one neutral, disband one) and keep its own record of what happened.
    fn step(&mut self, _map: &Map, _step: Step<'_>, _position: &mut Position) {}

    /// H18: whether `phase`, which the standard calendar would skip (a Winter with no
    /// adjustment to make), is held all the same.
    fn must_hold(&self, _phase: Phase, _position: &Position) -> bool {
        false
    }

    /// H18: a phase of the rule set's own that comes right after `phase` (a jury or a
    /// conference after a Winter), before the next Spring. Only later phases are taken.
    fn inserted_after(&self, _phase: Phase, _position: &Position) -> Option<Phase> {
        None
    }
}

/// The standard calendar over a set of rules.
pub struct StandardCalendar<'a> {
    pub rules: &'a dyn Rules,
}

impl Calendar for StandardCalendar<'_> {
    fn rules(&self) -> &dyn Rules {
        self.rules
    }
}
