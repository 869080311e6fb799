//! The hooks a rule set implements: [`RuleSet`], with its typed state and commands, and its
//! case-file facts ([`CaseFacts`]). Every hook defaults to the standard game, so a rule set
//! overrides only its own (`docs/rules/README.md` §3.2), and the standard game is the
//! empty implementation. The registry holds rule sets as [`super::Variant`], which every
//! `RuleSet` is (a blanket implementation decodes nothing at a hook: the game's state was
//! decoded when it was loaded).

use crate::command::{Grammar, NoCommands, OwnCommand, PlayerCommand};
use crate::map::{Map, Power};
use crate::picture::Mark;
use crate::rules::{
    CalendarPoint, OrderResult, OwnPhase, Phase, PhaseOutcome, Position, Rules, Step, Unit,
    VariantRefusal,
};

use super::{
    Applied, Check, CommandContext, Ending, GameEnd, GameView, Line, Readiness, Secret, Sender,
    Setup, StateValue, Taken, no_such_setting, not_in_variant, standard_solo, surviving_powers,
};

/// One set of rules: its state and commands, and the hooks H1–H20 around and inside the
/// adjudicator. Each method's doc names its hook.
pub trait RuleSet: Sync + 'static {
    /// What a game of these rules keeps between phases (its settings included): decoded once
    /// when the game is loaded, stored once when it is saved. `()` for none.
    type State: StateValue;

    /// The rule set's own commands, as its grammar reads them ([`crate::command::NoCommand`]
    /// for none).
    type Command: OwnCommand;

    /// The name games, case files and the registry use: `Standard`, `Survive`.
    fn name(&self) -> &'static str;

    /// H1: its commands as players write them: keywords, parsers, spec-coded errors, the
    /// lines of press to the master it reads (H19) and what `HELP` adds.
    fn grammar(&self) -> &'static dyn Grammar {
        &NoCommands
    }

    /// H18: the phases of its own (an alliance phase, a jury, a conference): name, short
    /// code, length and what follows; [`RuleSet::calendar`] says when they are held.
    fn phases(&self) -> &'static [OwnPhase] {
        &[]
    }

    /// A setting of the game (`CREATE … key=value`, a case file's `SETTING`). Err: why it is
    /// refused, as a sentence.
    fn apply_setting(
        &self,
        _state: &mut Self::State,
        key: &str,
        _value: &str,
    ) -> Result<(), String> {
        Err(no_such_setting(self.name(), key))
    }

    /// H1: whether and how one of its commands is taken now, from this sender.
    /// The rule set's settings as a game has them, for `LIST` and the start mail: each
    /// setting's key as `CREATE` takes it and its value (`survive_draws`, `on`). Empty for
    /// a rule set without settings.
    fn settings(&self, _state: &Self::State) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    fn take_command(
        &self,
        _cx: &CommandContext<'_>,
        _state: &Self::State,
        _command: &Self::Command,
    ) -> Result<Taken, VariantRefusal> {
        Err(not_in_variant(self.name()))
    }

    /// H1: whether a player command of the shared language is allowed now (a draw vote where
    /// there are no draws).
    fn allows_player_command(
        &self,
        _cx: &CommandContext<'_>,
        _state: &Self::State,
        _command: &PlayerCommand,
    ) -> Result<(), VariantRefusal> {
        Ok(())
    }

    /// H2: applies a command [`RuleSet::take_command`] took as [`Taken::Immediate`].
    fn apply_now(
        &self,
        _cx: &CommandContext<'_>,
        _state: &mut Self::State,
        _command: &Self::Command,
    ) -> Result<Applied, VariantRefusal> {
        Err(not_in_variant(self.name()))
    }

    /// H3–H15: the adjudication rules for the game as it stands (its state and its standing
    /// commands). Asked before a phase is resolved, after each step (with `game.resolving`),
    /// and when an order is checked on receipt.
    fn rules(&self, _game: &GameView<'_>, _state: &Self::State) -> Box<dyn Rules> {
        Box::new(crate::rules::Standard)
    }

    /// H5, H16: a step of the phase's processing ([`Step`]): before its orders are resolved
    /// (wars declared, votes counted), after, at the end of a season, as a phase opens.
    /// `position` is the board now, which the rule set may change; `game.position` the one
    /// the phase started from. The lines go in the bulletin's *before resolution* part
    /// ([`Step::Begins`]) or *after resolution* part (the others), in the order of the
    /// steps.
    fn step(
        &self,
        _game: &GameView<'_>,
        _state: &mut Self::State,
        _step: Step<'_>,
        _position: &mut Position,
    ) -> Vec<Line> {
        Vec::new()
    }

    /// H20: the tables printed in every results bulletin (`WARS:`, `CENTRES:`), the
    /// *summary* part; `outcome` is the phase just processed.
    fn summary(
        &self,
        _game: &GameView<'_>,
        _state: &Self::State,
        _outcome: &PhaseOutcome,
    ) -> Vec<Line> {
        Vec::new()
    }

    /// H17: whether the game ends after the phase just processed (`game.position` opens
    /// the next). Standard: a power owning the centres to win, after a Fall or a Winter.
    fn game_result(&self, game: &GameView<'_>, _state: &Self::State) -> Option<GameEnd> {
        standard_solo(game).map(|p| GameEnd {
            ending: Ending::Solo(p),
            lines: None,
        })
    }

    /// H17: the powers whose agreement a draw or a concession needs, and who share a draw.
    /// Standard: every power with a unit or a centre.
    fn draw_powers(&self, game: &GameView<'_>, _state: &Self::State) -> Vec<Power> {
        surviving_powers(game.position)
    }

    /// H18: the phase the rule set puts at a point of the calendar: its first phase, a
    /// Winter the standard calendar would skip, a phase of its own after a Winter. None:
    /// the standard calendar's.
    fn calendar(&self, _state: &Self::State, _at: CalendarPoint<'_>) -> Option<Phase> {
        None
    }

    /// H18: who the judge waits for in the current phase and when it may process it:
    /// `standard` is the standard game's answer (each power's order status, processing
    /// once every order is in). A rule set may never wait for a power (it is out), wait for
    /// more (a ballot), wait for the master, run a phase to its deadline, and decides for
    /// the phases it adds.
    fn readiness(
        &self,
        _game: &GameView<'_>,
        _state: &Self::State,
        standard: Readiness,
    ) -> Readiness {
        standard
    }

    /// H19: whether `from` may send press read by `to` (the powers that would read it,
    /// broadcasts included).
    fn press_allowed(
        &self,
        _game: &GameView<'_>,
        _state: &Self::State,
        _from: Sender,
        _to: &[Power],
        _broadcast: bool,
    ) -> Result<(), VariantRefusal> {
        Ok(())
    }

    /// H20: an order's line in the results bulletin when the rule set writes it itself
    /// (after `Power: `, without a full stop); None: the standard line.
    fn result_line(&self, _map: &Map, _result: &OrderResult) -> Option<String> {
        None
    }

    /// H20: its marks on the picture of a phase (morale beside units, spheres, wars),
    /// drawn on top of the standard picture; `game` is the phase just processed, `state`
    /// the state after it. Only what every reader may read: the picture goes to everyone.
    fn picture_marks(&self, _game: &GameView<'_>, _state: &Self::State) -> Vec<Mark> {
        Vec::new()
    }

    /// H20: the strings of this game that only their readers (and the master) may see:
    /// what the leak scanner looks for in every mail.
    fn not_public(&self, _state: &Self::State) -> Vec<Secret> {
        Vec::new()
    }

    /// The facts its case files state and check (`PRESTATE_VARIANT`, `POSTSTATE_VARIANT`,
    /// unit notes), in a module of its own.
    fn case_facts(&self) -> &dyn CaseFacts<Self::State> {
        &NoFacts
    }
}

/// A rule set's case-file facts (`docs/rules/README.md` §2.3): what its §7 cases set up
/// and check.
pub trait CaseFacts<S: StateValue>: Sync {
    /// The state a case's game starts from, before its facts: a rule set's §7 may assume
    /// something a new game does not (International Relations: the first shot fired).
    fn case_state(&self) -> S {
        S::default()
    }

    /// Reads one `PRESTATE_VARIANT` fact into the set-up game.
    fn read_fact(&self, _setup: &mut Setup<'_, S>, fact: &str) -> Result<(), String> {
        Err(format!("these rules have no fact \"{fact}\""))
    }

    /// Reads a note on a unit of the case's position (`Neutral: A Par (rebel of France)`).
    fn read_unit_note(
        &self,
        _setup: &mut Setup<'_, S>,
        _unit: &Unit,
        note: &str,
    ) -> Result<(), String> {
        Err(format!("these rules have no unit note \"({note})\""))
    }

    /// Checks one `POSTSTATE_VARIANT` fact (one in parentheses states facts that must not
    /// hold). Err: what differs, as a sentence.
    fn check_fact(&self, _check: &Check<'_, S>, fact: &str) -> Result<(), String> {
        Err(format!("these rules have no fact \"{fact}\""))
    }
}

/// A rule set with no facts of its own.
pub struct NoFacts;

impl<S: StateValue> CaseFacts<S> for NoFacts {}
