//! [`Variant`]: a [`RuleSet`] as the registry, the game and the judge hold it (`&dyn
//! Variant`), its state a [`VariantState`] and its commands [`RuleCommand`]s. The blanket
//! implementation gives every `RuleSet` this form: each hook finds the rule set's typed
//! state and command (decoded when the game was loaded) and calls the typed hook; a command
//! of another rule set is refused by name. Nothing here is implemented by hand.

use crate::command::{Grammar, PlayerCommand, RuleCommand};
use crate::map::{Map, Power};
use crate::picture::Mark;
use crate::rules::{
    CalendarPoint, OrderResult, OwnPhase, Phase, PhaseOutcome, Position, Rules, Step, Unit,
    VariantRefusal,
};

use super::{
    Applied, CaseFacts, Check, CommandContext, GameEnd, GameView, Line, Readiness, RuleSet, Secret,
    Sender, Setup, StateError, Taken, VariantOrder, VariantState, not_in_variant,
};

/// A rule set, its types behind [`VariantState`] and [`RuleCommand`]: the hooks of
/// [`RuleSet`] (each documented there with its hook number), and decoding what a stored
/// game keeps.
pub trait Variant: Sync {
    fn name(&self) -> &'static str;
    fn grammar(&self) -> &'static dyn Grammar;
    fn phases(&self) -> &'static [OwnPhase];

    /// The state of a new game (its settings at their defaults).
    fn new_state(&self) -> VariantState;
    /// Decodes what a stored game keeps (its state, the commands kept with its orders) when
    /// the game is loaded. Err: what this rule set cannot read.
    fn decode(
        &self,
        state: &mut VariantState,
        orders: &mut [VariantOrder],
    ) -> Result<(), StateError>;
    /// Whether a state is this rule set's (or reads as it).
    fn check_state(&self, state: &VariantState) -> Result<(), StateError>;
    fn apply_setting(&self, state: &mut VariantState, key: &str, value: &str)
    -> Result<(), String>;

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        state: &VariantState,
        command: &RuleCommand,
    ) -> Result<Taken, VariantRefusal>;
    /// H1: whether the rule set takes this command (one of its own) before the unit orders
    /// of its mail.
    fn processed_first(&self, command: &RuleCommand) -> bool;
    fn allows_player_command(
        &self,
        cx: &CommandContext<'_>,
        state: &VariantState,
        command: &PlayerCommand,
    ) -> Result<(), VariantRefusal>;
    fn apply_now(
        &self,
        cx: &CommandContext<'_>,
        state: &mut VariantState,
        command: &RuleCommand,
    ) -> Result<Applied, VariantRefusal>;
    fn rules(&self, game: &GameView<'_>, state: &VariantState) -> Box<dyn Rules>;
    fn step(
        &self,
        game: &GameView<'_>,
        state: &mut VariantState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line>;
    fn summary(
        &self,
        game: &GameView<'_>,
        state: &VariantState,
        outcome: &PhaseOutcome,
    ) -> Vec<Line>;
    fn game_result(&self, game: &GameView<'_>, state: &VariantState) -> Option<GameEnd>;
    fn draw_powers(&self, game: &GameView<'_>, state: &VariantState) -> Vec<Power>;
    fn calendar(&self, state: &VariantState, at: CalendarPoint<'_>) -> Option<Phase>;
    fn readiness(
        &self,
        game: &GameView<'_>,
        state: &VariantState,
        standard: Readiness,
    ) -> Readiness;
    fn press_allowed(
        &self,
        game: &GameView<'_>,
        state: &VariantState,
        from: Sender,
        to: &[Power],
        broadcast: bool,
    ) -> Result<(), VariantRefusal>;
    fn result_line(&self, map: &Map, result: &OrderResult) -> Option<String>;
    fn picture_marks(&self, game: &GameView<'_>, state: &VariantState) -> Vec<Mark>;
    fn not_public(&self, state: &VariantState) -> Vec<Secret>;

    /// The state a case's game starts from ([`CaseFacts::case_state`]).
    fn case_state(&self) -> VariantState;
    fn read_fact(&self, setup: &mut Setup<'_>, fact: &str) -> Result<(), String>;
    fn read_unit_note(&self, setup: &mut Setup<'_>, unit: &Unit, note: &str) -> Result<(), String>;
    fn check_fact(&self, check: &Check<'_>, fact: &str) -> Result<(), String>;
}

impl<R: RuleSet> Variant for R {
    fn name(&self) -> &'static str {
        RuleSet::name(self)
    }

    fn grammar(&self) -> &'static dyn Grammar {
        RuleSet::grammar(self)
    }

    fn phases(&self) -> &'static [OwnPhase] {
        RuleSet::phases(self)
    }

    fn new_state(&self) -> VariantState {
        VariantState::of(R::State::default())
    }

    fn decode(
        &self,
        state: &mut VariantState,
        orders: &mut [VariantOrder],
    ) -> Result<(), StateError> {
        state.decode::<R::State>()?;
        for o in orders {
            o.command.decode::<R::Command>().map_err(|e| {
                StateError(format!(
                    "the {} rules cannot read a stored command: {e}",
                    RuleSet::name(self)
                ))
            })?;
        }
        Ok(())
    }

    fn check_state(&self, state: &VariantState) -> Result<(), StateError> {
        state.check::<R::State>()
    }

    fn apply_setting(
        &self,
        state: &mut VariantState,
        key: &str,
        value: &str,
    ) -> Result<(), String> {
        state.with_mut(|s| RuleSet::apply_setting(self, s, key, value))
    }

    fn take_command(
        &self,
        cx: &CommandContext<'_>,
        state: &VariantState,
        command: &RuleCommand,
    ) -> Result<Taken, VariantRefusal> {
        let Some(command) = command.get::<R::Command>() else {
            return Err(not_in_variant(RuleSet::name(self)));
        };
        state.with(|s| RuleSet::take_command(self, cx, s, command))
    }

    fn processed_first(&self, command: &RuleCommand) -> bool {
        command
            .get::<R::Command>()
            .is_some_and(crate::command::OwnCommand::taken_first)
    }

    fn allows_player_command(
        &self,
        cx: &CommandContext<'_>,
        state: &VariantState,
        command: &PlayerCommand,
    ) -> Result<(), VariantRefusal> {
        state.with(|s| RuleSet::allows_player_command(self, cx, s, command))
    }

    fn apply_now(
        &self,
        cx: &CommandContext<'_>,
        state: &mut VariantState,
        command: &RuleCommand,
    ) -> Result<Applied, VariantRefusal> {
        let Some(command) = command.get::<R::Command>() else {
            return Err(not_in_variant(RuleSet::name(self)));
        };
        state.with_mut(|s| RuleSet::apply_now(self, cx, s, command))
    }

    fn rules(&self, game: &GameView<'_>, state: &VariantState) -> Box<dyn Rules> {
        state.with(|s| RuleSet::rules(self, game, s))
    }

    fn step(
        &self,
        game: &GameView<'_>,
        state: &mut VariantState,
        step: Step<'_>,
        position: &mut Position,
    ) -> Vec<Line> {
        state.with_mut(|s| RuleSet::step(self, game, s, step, position))
    }

    fn summary(
        &self,
        game: &GameView<'_>,
        state: &VariantState,
        outcome: &PhaseOutcome,
    ) -> Vec<Line> {
        state.with(|s| RuleSet::summary(self, game, s, outcome))
    }

    fn game_result(&self, game: &GameView<'_>, state: &VariantState) -> Option<GameEnd> {
        state.with(|s| RuleSet::game_result(self, game, s))
    }

    fn draw_powers(&self, game: &GameView<'_>, state: &VariantState) -> Vec<Power> {
        state.with(|s| RuleSet::draw_powers(self, game, s))
    }

    fn calendar(&self, state: &VariantState, at: CalendarPoint<'_>) -> Option<Phase> {
        state.with(|s| RuleSet::calendar(self, s, at))
    }

    fn readiness(
        &self,
        game: &GameView<'_>,
        state: &VariantState,
        standard: Readiness,
    ) -> Readiness {
        state.with(|s| RuleSet::readiness(self, game, s, standard))
    }

    fn press_allowed(
        &self,
        game: &GameView<'_>,
        state: &VariantState,
        from: Sender,
        to: &[Power],
        broadcast: bool,
    ) -> Result<(), VariantRefusal> {
        state.with(|s| RuleSet::press_allowed(self, game, s, from, to, broadcast))
    }

    fn result_line(&self, map: &Map, result: &OrderResult) -> Option<String> {
        RuleSet::result_line(self, map, result)
    }

    fn picture_marks(&self, game: &GameView<'_>, state: &VariantState) -> Vec<Mark> {
        state.with(|s| RuleSet::picture_marks(self, game, s))
    }

    fn not_public(&self, state: &VariantState) -> Vec<Secret> {
        state.with(|s| RuleSet::not_public(self, s))
    }

    fn case_state(&self) -> VariantState {
        VariantState::of(self.case_facts().case_state())
    }

    fn read_fact(&self, setup: &mut Setup<'_>, fact: &str) -> Result<(), String> {
        let facts = self.case_facts();
        let map = setup.map;
        let position = &mut *setup.position;
        let resigned = &mut *setup.resigned;
        setup.state.with_mut(|s| {
            facts.read_fact(
                &mut Setup {
                    map,
                    position,
                    state: s,
                    resigned,
                },
                fact,
            )
        })
    }

    fn read_unit_note(&self, setup: &mut Setup<'_>, unit: &Unit, note: &str) -> Result<(), String> {
        let facts = self.case_facts();
        let map = setup.map;
        let position = &mut *setup.position;
        let resigned = &mut *setup.resigned;
        setup.state.with_mut(|s| {
            facts.read_unit_note(
                &mut Setup {
                    map,
                    position,
                    state: s,
                    resigned,
                },
                unit,
                note,
            )
        })
    }

    fn check_fact(&self, check: &Check<'_>, fact: &str) -> Result<(), String> {
        let facts: &dyn CaseFacts<R::State> = self.case_facts();
        check.before.with(|before| {
            check.after.with(|after| {
                facts.check_fact(
                    &Check {
                        map: check.map,
                        position: check.position,
                        before,
                        after,
                        block: check.block,
                    },
                    fact,
                )
            })
        })
    }
}

impl dyn Variant + '_ {
    /// H1: what `HELP` adds in a game of this rule set (its grammar's).
    pub fn help(&self) -> &'static str {
        self.grammar().help()
    }

    /// H18: the first phase of a game.
    pub fn first_phase(&self, state: &VariantState) -> Phase {
        self.calendar(state, CalendarPoint::Start)
            .unwrap_or(Phase::FIRST)
    }
}
