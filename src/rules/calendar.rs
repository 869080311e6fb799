//! The calendar between phases: the steps of a phase's processing where a rule set may act
//! (hooks H5 and H16) and the phases it adds or keeps (hook H18). The standard calendar
//! does nothing at any step and adds no phase.

use crate::map::Map;

use super::hooks::Rules;
use super::outcome::{OrderResult, PhaseRecord};
use super::phase::Phase;
use super::position::Position;

/// A point in a phase's processing, in the order they happen (`docs/rules/README.md`
/// §2.2: the *after resolution* part of a bulletin is laid out by these steps).
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// The phase's orders are about to be resolved (H5: wars declared, votes counted): the
    /// lines go in the bulletin's *before resolution* part. The variant engine takes this
    /// step; the adjudicator never does.
    Begins,
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

/// Where the calendar asks a rule set which phase comes (H18).
#[derive(Clone, Copy, Debug)]
pub enum CalendarPoint<'a> {
    /// The game starts: its first phase (the standard game's: Spring 1901 movement).
    Start,
    /// A Winter the standard calendar would skip (no adjustment to make): the rule set
    /// names it to hold it all the same.
    Skipping {
        winter: Phase,
        position: &'a Position,
    },
    /// After a Winter, or after a phase of the rule set's own that came after one: a
    /// phase of the rule set's own before the next Spring (a jury, a conference). Only a
    /// later phase is taken, or the same own phase again (held again, with a new
    /// deadline).
    After {
        phase: Phase,
        position: &'a Position,
    },
}

/// What a rule set does between phases. Every method defaults to the standard game.
pub trait Calendar {
    /// The adjudication rules as they stand now (after the steps so far), for the board
    /// `position` the sequencing works on: it asks them for retreats (H13), the ownership
    /// update (H14) and the adjustments (H15).
    fn rules(&self, map: &Map, position: &Position) -> &dyn Rules;

    /// H16: `step` has happened. The rule set may change the position (exchange a unit,
    /// make one neutral, disband one) and keep its own record of what happened.
    fn step(&mut self, _map: &Map, _step: Step<'_>, _position: &mut Position) {}

    /// H18: the phase the rule set puts at this point of the calendar; None: the standard
    /// calendar's.
    fn next(&self, _at: CalendarPoint<'_>) -> Option<Phase> {
        None
    }
}

/// The standard calendar over a set of rules.
pub struct StandardCalendar<'a> {
    pub rules: &'a dyn Rules,
}

impl Calendar for StandardCalendar<'_> {
    fn rules(&self, _map: &Map, _position: &Position) -> &dyn Rules {
        self.rules
    }
}
