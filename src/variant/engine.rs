//! Processing one phase through a rule set's hooks: the step before resolution (H5), the
//! adjudication with the rule set's rules (H3–H15), every step of the calendar (H16, H18),
//! the summary (H20) and the end of the game (H17). Pure: the judge stores what comes out
//! and mails it.

use std::cell::OnceCell;

use crate::map::Map;
use crate::rules::{self, Calendar, CalendarPoint, Phase, PhaseOutcome, Position, Rules, Step};

use super::{GameEnd, GameView, Line, Variant, VariantState};

/// What processing a phase gave: the adjudicator's outcome and the rule set's lines, by the
/// part of the results bulletin they go in (`docs/rules/README.md` §2.2).
#[derive(Debug)]
pub struct Processed {
    pub outcome: PhaseOutcome,
    /// Part 2, *before resolution* (H5).
    pub before: Vec<Line>,
    /// Part 4, *after resolution*, in the order of the steps (H16).
    pub after: Vec<Line>,
    /// Part 5, the *summary* tables (H20).
    pub summary: Vec<Line>,
    /// Part 6: the game ends (H17).
    pub end: Option<GameEnd>,
}

/// The game a phase is processed in.
pub type PhaseInput<'a> = GameView<'a>;

/// Processes the phase `game.position.phase` with the standing orders of `game`.
pub fn process_phase(
    variant: &dyn Variant,
    state: &mut VariantState,
    game: &PhaseInput<'_>,
) -> Processed {
    let mut start = game.position.clone();
    let before = variant.step(
        &GameView {
            resolving: true,
            ..*game
        },
        state,
        Step::Begins,
        &mut start,
    );
    let game = &GameView {
        resolving: true,
        position: &start,
        ..*game
    };
    let resolving = variant.rules(game, state);
    let mut calendar = EngineCalendar {
        variant,
        game: *game,
        rules: OnceCell::new(),
        state,
        lines: Vec::new(),
    };
    let outcome = rules::adjudicate_with(
        game.map,
        resolving.as_ref(),
        &mut calendar,
        game.position,
        game.orders,
    );
    let after = calendar.lines;
    let next = GameView {
        position: &outcome.next,
        ..*game
    };
    let summary = variant.summary(&next, state, &outcome);
    let end = variant.game_result(&next, state);
    Processed {
        outcome,
        before,
        after,
        summary,
        end,
    }
}

/// The calendar of a rule set: each step goes to the rule set, which may change the state;
/// the rules are built again after a step when the sequencing next asks for them, so it
/// sees the state as it is.
struct EngineCalendar<'a, 's> {
    variant: &'a dyn Variant,
    game: GameView<'a>,
    /// The rules since the last step, built when first asked for.
    rules: OnceCell<Box<dyn Rules>>,
    state: &'s mut VariantState,
    lines: Vec<Line>,
}

impl Calendar for EngineCalendar<'_, '_> {
    fn rules(&self, map: &Map, position: &Position) -> &dyn Rules {
        self.rules
            .get_or_init(|| {
                let view = GameView {
                    map,
                    position,
                    ..self.game
                };
                self.variant.rules(&view, self.state)
            })
            .as_ref()
    }

    fn step(&mut self, _map: &Map, step: Step<'_>, position: &mut Position) {
        let lines = self.variant.step(&self.game, self.state, step, position);
        self.lines.extend(lines);
        self.rules = OnceCell::new();
    }

    fn next(&self, at: CalendarPoint<'_>) -> Option<Phase> {
        self.variant.calendar(self.state, at)
    }
}
