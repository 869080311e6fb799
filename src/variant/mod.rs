//! The rule sets: one [`Variant`] per set of rules (the standard game, and the five of
//! `shared/rules/`), their registry, their state in a game, and the engine that processes a
//! phase through their hooks.
//!
//! Pure: no SQL, no mail, no clock. A variant is hooks plus data (`shared/rules/README.md`
//! §3): [`crate::rules::Rules`] carries the adjudication hooks H3–H15 and [`Variant`] the
//! hooks around the adjudicator:
//!
//! | hook | method |
//! | --- | --- |
//! | H1 which commands are taken, when, from whom | [`Variant::take_command`], [`Variant::allows_player_command`], [`Variant::processed_first`], [`Variant::help`] |
//! | H2 immediate commands | [`Variant::apply_now`] |
//! | H3–H15 adjudication | [`Variant::rules`] builds a [`crate::rules::Rules`] from the state |
//! | H5 before resolution | [`Variant::before_resolution`] |
//! | H16 after-phase and end-of-season steps | [`Variant::step`] (the steps of [`crate::rules::Step`]) |
//! | H17 the game's result | [`Variant::game_result`], [`Variant::draw_powers`] |
//! | H18 the calendar | [`Variant::first_phase`], [`Variant::must_hold`], [`Variant::inserted_after`], [`Variant::order_status`], [`Variant::public_order_status`], [`Variant::waits_for_master`], [`Variant::processes_early`] |
//! | H19 press | [`Variant::press_allowed`], [`Variant::reads_ballots_in_press`] |
//! | H20 publicity | every [`Line`] has its [`Reader`]; [`Variant::summary`], [`Variant::result_line`], [`Variant::not_public`] |
//!
//! The registry ([`ALL`], [`Registry::by_name`]) is the only place a variant's name is
//! matched; nothing outside this module names one.

mod engine;
mod formal;
mod ir;
mod registry;
mod shellshock;
mod standard;
mod state;
mod surrender;
mod survive;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::command::{PlayerCommand, VariantCommand};
use crate::map::{Map, Power, ProvinceId};
use crate::rules::{
    OrderResult, Phase, PhaseOutcome, Position, PowerOrder, Rules, Step, Unit, VariantRefusal,
};

pub use engine::{PhaseInput, Processed, process_phase};
pub use formal::Formal;
pub use ir::InternationalRelations;
pub use registry::{ALL, Entry, Lookup, Registry};
pub use shellshock::ShellShock;
pub use standard::Standard;
pub use state::{StateError, VariantState};
pub use surrender::Surrender;
pub use survive::Survive;

/// Who sends: a power's player or the game's master (a command, press, a signed-on mail).
/// The one type for who sends, in every layer from here up (game, judge, bulletin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Sender {
    Power(Power),
    Master,
}

impl fmt::Display for Sender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sender::Power(p) => f.write_str(p.name()),
            Sender::Master => f.write_str("Master"),
        }
    }
}

/// Who reads: one power's player, the game's master, or its observers. The one type for who
/// reads, in every layer from here up: the reader of a rule set's line (H20), of a copy of
/// a bulletin, of press (`game::press_route`), of an entry of a game's history, and (in the
/// outbox's audience, `store::Audience`) of a mail.
///
/// Observers read only what is public, and so does anyone else who is no player or master
/// of the game (an address proves nothing): a line for [`Reader::Observers`] is a line for
/// everyone ([`Line::public`]). The master reads every line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Reader {
    Power(Power),
    Master,
    /// The game's observers, or anyone outside the game; a line for them is public. (A line
    /// kept before this type was one was written for `Everyone`.)
    #[serde(alias = "Everyone")]
    Observers,
}

/// One line a rule set adds to what the judge mails (`SURVIVE: Germany has been voted out
/// of the game.`), with who may read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub reader: Reader,
    pub text: String,
}

impl Line {
    /// A line for everyone.
    pub fn public(text: impl Into<String>) -> Line {
        Line {
            reader: Reader::Observers,
            text: text.into(),
        }
    }

    /// A line for one reader.
    pub fn to(reader: Reader, text: impl Into<String>) -> Line {
        Line {
            reader,
            text: text.into(),
        }
    }

    /// Whether `reader` may read it (the master reads everything).
    pub fn is_for(&self, reader: Reader) -> bool {
        self.reader == Reader::Observers || self.reader == reader || reader == Reader::Master
    }
}

/// What replaces what in a phase's order set: a unit's order (a variant order for a unit
/// replaces its standard order and the other way round), or one named slot of the
/// sender's (`ballot`, `war on France`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Slot {
    Unit(ProvinceId),
    Named(String),
    /// One command of a set a later message replaces as a whole ([`Taken::Replacing`]):
    /// `key` within `set` (an alliance phase's proposals, keyed by partner).
    Member {
        set: String,
        key: String,
    },
}

impl Slot {
    /// The set a slot belongs to, if it is a [`Slot::Member`].
    pub fn set(&self) -> Option<&str> {
        match self {
            Slot::Member { set, .. } => Some(set),
            _ => None,
        }
    }
}

/// A variant command kept with the phase's orders (H1: "order-set" commands), in arrival
/// order; a later one in the same slot from the same sender replaces it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantOrder {
    pub from: Sender,
    pub command: VariantCommand,
    pub slot: Slot,
}

/// How a rule set takes a command (H1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Taken {
    /// Applied on receipt ([`Variant::apply_now`]).
    Immediate,
    /// Kept with the sender's orders of this phase, in `slot`; `echo` replaces the
    /// normalised command after `OK` in the reply (`OK ballot recorded: …`).
    Order { slot: Slot, echo: Option<String> },
    /// Kept like an order in `slot` (a [`Slot::Member`]); the first such command of a
    /// message first clears the sender's earlier commands of the same set: a later message
    /// replaces the set (IR-H1). An `Order` in the set (a withdrawal) changes one member.
    Replacing { slot: Slot, echo: Option<String> },
}

/// What an immediate command did (H2): the reply's echo (None: the normalised command) and
/// the lines it made (public ones are broadcast at once and repeated in the next results
/// bulletin; private ones are mailed to their reader at once). A command may be refused
/// and still change the game (an acceptance whose conditions no longer hold is refused and
/// the offer lapses, SUR-1.5): `refused` is then the reply's error, and the state and the
/// lines stand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    pub echo: Option<String>,
    pub lines: Vec<Line>,
    pub refused: Option<VariantRefusal>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    Solo(Power),
    Draw(Vec<Power>),
    /// A victory shared by the members of a coalition (International Relations, IR-A6).
    Coalition(Vec<Power>),
    Concession(Power),
    Terminated,
}

/// The end of a game a rule set declares (H17): how it ended, and the lines that say so
/// in the last results bulletin (None: the standard sentence, `bulletin::results::ending_sentence`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub ending: Ending,
    pub lines: Option<Vec<Line>>,
}

/// `A`, `A and B`, `A, B and C`, alphabetical (rules/README §2.1).
pub fn list_powers(powers: &[Power]) -> String {
    let mut v: Vec<Power> = powers.to_vec();
    v.sort();
    v.dedup();
    let names: Vec<&str> = v.iter().map(|p| p.name()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Why a setting a rule set does not have is refused.
pub fn no_such_setting(rules: &str, key: &str) -> String {
    format!("the {rules} rules have no setting called \"{key}\"")
}

/// An on/off game setting's value (`survive_draws=on`, `peace_treaties=off`).
pub fn switch(key: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(format!("{key} is on or off, not \"{value}\"")),
    }
}

/// The facts a case file's `POSTSTATE_VARIANT` line in parentheses rules out (README §2.3):
/// `(no war France Germany; no wars)` gives `["war France Germany", "wars"]`. None: the line
/// states a fact that must hold.
pub fn negated_facts(fact: &str) -> Option<Vec<&str>> {
    let inner = fact.trim().strip_prefix('(')?.strip_suffix(')')?;
    Some(
        inner
            .split([',', ';'])
            .map(str::trim)
            .map(|f| f.strip_prefix("no ").unwrap_or(f).trim())
            .filter(|f| !f.is_empty())
            .collect(),
    )
}

/// A power's orders in the current phase, as LIST shows them and as the judge decides
/// whether to wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderStatus {
    Received,
    Incomplete,
    None,
}

impl OrderStatus {
    pub fn word(self) -> &'static str {
        match self {
            OrderStatus::Received => "received",
            OrderStatus::Incomplete => "incomplete",
            OrderStatus::None => "none",
        }
    }
}

/// What a rule set may know about a game when a hook is called: the board, the orders of
/// the phase, the players who resigned, the centres a solo needs.
#[derive(Clone, Copy, Debug)]
pub struct GameView<'a> {
    pub map: &'a Map,
    pub position: &'a Position,
    /// The standing unit orders of the phase, every power's, powers alphabetical.
    pub orders: &'a [PowerOrder],
    /// The standing variant orders of the phase, in arrival order.
    pub variant_orders: &'a [VariantOrder],
    /// Powers whose player has resigned.
    pub resigned: &'a [Power],
    /// Centres needed for a solo victory (the game's setting).
    pub centres_to_win: usize,
    /// The phase is being processed (false: an order is being checked on receipt). Rules
    /// that refuse an order on receipt may void it instead when it is resolved (FD-2.8).
    pub resolving: bool,
}

impl<'a> GameView<'a> {
    /// A board and nothing else: no orders, nobody resigned, the standard 18 centres, an
    /// order being checked (a rule set's test, or a hook asked about a bare position).
    pub fn bare(map: &'a Map, position: &'a Position) -> GameView<'a> {
        GameView {
            map,
            position,
            orders: &[],
            variant_orders: &[],
            resigned: &[],
            centres_to_win: 18,
            resolving: false,
        }
    }
}

/// A command being taken (H1, H2): the game as it stands, who sent it, and its text as
/// received (the `{text}` of spec sentences).
#[derive(Clone, Copy, Debug)]
pub struct CommandContext<'a> {
    pub game: GameView<'a>,
    pub sender: Sender,
    pub text: &'a str,
}

/// A string that must not reach anyone but its readers (and the master): the leak
/// scanner's list (H20).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secret {
    pub text: String,
    pub readers: Vec<Reader>,
}

/// What a case file's `PRESTATE_VARIANT` facts may set up.
pub struct Setup<'a> {
    pub map: &'a Map,
    pub position: &'a mut Position,
    pub state: &'a mut VariantState,
    /// Powers whose player has resigned.
    pub resigned: &'a mut Vec<Power>,
}

/// What a case file's `POSTSTATE_VARIANT` facts are checked against.
#[derive(Clone, Copy, Debug)]
pub struct Check<'a> {
    pub map: &'a Map,
    pub position: &'a Position,
    /// The state before the run (for facts such as `(no new penalties)`).
    pub before: &'a VariantState,
    pub after: &'a VariantState,
    /// Every fact of the block (for facts such as `(no other new penalties)`).
    pub block: &'a [(usize, String)],
}

/// One set of rules. Every method but [`Variant::name`] defaults to the standard game, so
/// a rule set overrides only its own hooks (`shared/rules/README.md` §3.2) and the
/// standard game is the empty implementation.
pub trait Variant: Sync {
    /// The name games and case files use: `Standard`, `Survive`, `ShellShock`.
    fn name(&self) -> &'static str;

    /// The state of a new game of this rule set (its settings at their defaults).
    fn new_state(&self) -> VariantState {
        VariantState::default()
    }

    /// The state a case file's game starts from, before its `PRESTATE_VARIANT` facts: a
    /// rule set's §7 may assume something a new game does not (International Relations
    /// assumes the first shot fired unless a case says otherwise).
    fn case_state(&self) -> VariantState {
        self.new_state()
    }

    /// A game setting of this rule set (`SETTING survive_draws=on` in a case file, a CREATE
    /// option `key=value`). Err: why it is refused, as a sentence.
    fn apply_setting(
        &self,
        _state: &mut VariantState,
        key: &str,
        _value: &str,
    ) -> Result<(), String> {
        Err(no_such_setting(self.name(), key))
    }

    /// The rule set's settings as a game has them, for `LIST` and the start mail: each
    /// setting's key as `CREATE` takes it and its value (`survive_draws`, `on`). Empty for
    /// a rule set without settings.
    fn settings(&self, _state: &VariantState) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// Checks a stored state when a game is loaded (so that a state this code cannot read
    /// is found at once, not in the middle of a phase).
    fn check_state(&self, _state: &VariantState) -> Result<(), StateError> {
        Ok(())
    }

    // ---- H1, H2: commands --------------------------------------------------------------

    /// H1: whether and how a variant command is taken now, from this sender. The default
    /// refuses every variant command.
    fn take_command(
        &self,
        _cx: &CommandContext<'_>,
        _state: &VariantState,
        _command: &VariantCommand,
    ) -> Result<Taken, VariantRefusal> {
        Err(VariantRefusal::new(
            "NOT-IN-VARIANT",
            format!(
                "this game is played with the {} rules, which have no such command",
                self.name().to_lowercase()
            ),
        ))
    }

    /// H1: whether a command of this rule set is taken before the unit orders of its mail
    /// (a declaration of war before the moves it makes legal), wherever it is written.
    /// It depends on the command alone: the judge asks once per line of a mail.
    fn processed_first(&self, _command: &VariantCommand) -> bool {
        false
    }

    /// H1: whether a player command is allowed in this rule set (a draw vote where there
    /// are no draws, say).
    fn allows_player_command(
        &self,
        _cx: &CommandContext<'_>,
        _state: &VariantState,
        _command: &PlayerCommand,
    ) -> Result<(), VariantRefusal> {
        Ok(())
    }

    /// H2: applies an immediate command (one [`Variant::take_command`] answered
    /// [`Taken::Immediate`]).
    fn apply_now(
        &self,
        _cx: &CommandContext<'_>,
        _state: &mut VariantState,
        command: &VariantCommand,
    ) -> Result<Applied, VariantRefusal> {
        Err(VariantRefusal::new(
            "NOT-IN-VARIANT",
            format!("{command:?} is not an immediate command"),
        ))
    }

    // ---- H3–H15: adjudication ----------------------------------------------------------

    /// H3–H15: the adjudication rules for the game as it stands (its state and its
    /// standing variant orders). Called before a phase is resolved, after each step (with
    /// `game.resolving`), and when an order is checked on receipt.
    fn rules(&self, _game: &GameView<'_>, _state: &VariantState) -> Box<dyn Rules> {
        Box::new(crate::rules::Standard)
    }

    // ---- H5, H16: around resolution ----------------------------------------------------

    /// H5: before the phase's orders are resolved (wars declared, votes counted). The lines
    /// go in the bulletin's *before resolution* part.
    fn before_resolution(&self, _game: &GameView<'_>, _state: &mut VariantState) -> Vec<Line> {
        Vec::new()
    }

    /// H16: a step of the phase's processing has happened ([`Step`]). `position` is the
    /// board now, which the rule set may change (and its state); `game.position` is the
    /// position the phase started from. The lines go in the *after resolution* part, in
    /// the order of the steps.
    fn step(
        &self,
        _game: &GameView<'_>,
        _state: &mut VariantState,
        _step: Step<'_>,
        _position: &mut Position,
    ) -> Vec<Line> {
        Vec::new()
    }

    /// H20: the state tables printed in every results bulletin of this kind (`WARS:`,
    /// `CENTRES:`), the *summary* part; `outcome` is the phase just processed.
    fn summary(
        &self,
        _game: &GameView<'_>,
        _state: &VariantState,
        _outcome: &PhaseOutcome,
    ) -> Vec<Line> {
        Vec::new()
    }

    // ---- H17: the end -------------------------------------------------------------------

    /// H17: whether the game ends after the phase just processed (`game.position` is the
    /// position at the start of the next phase). Standard: a power owning the centres to
    /// win, after a Fall or a Winter.
    fn game_result(&self, game: &GameView<'_>, _state: &VariantState) -> Option<GameEnd> {
        standard_solo(game).map(|p| GameEnd {
            ending: Ending::Solo(p),
            lines: None,
        })
    }

    /// H17: the powers whose agreement a draw or a concession needs, and who share a draw.
    /// Standard: every power with a unit or a centre.
    fn draw_powers(&self, game: &GameView<'_>, _state: &VariantState) -> Vec<Power> {
        surviving_powers(game.position)
    }

    // ---- H18: the calendar --------------------------------------------------------------

    /// H18: the first phase of a game (an alliance phase before Spring 1901, say).
    fn first_phase(&self, _state: &VariantState) -> Phase {
        Phase::FIRST
    }

    /// H18: whether a phase the standard calendar would skip is held all the same.
    fn must_hold(&self, _state: &VariantState, _phase: Phase, _position: &Position) -> bool {
        false
    }

    /// H18: whether the judge waits for the master before processing the current phase
    /// early (a tie only the master can break); the deadline still processes it.
    fn waits_for_master(&self, _game: &GameView<'_>, _state: &VariantState) -> bool {
        false
    }

    /// H18: whether the current phase may be processed before its deadline once every
    /// order is in. A rule set says no where a power may act without owing anything (a
    /// treaty any partner may abrogate in a Winter): the phase then runs to its deadline.
    fn processes_early(&self, _game: &GameView<'_>, _state: &VariantState) -> bool {
        true
    }

    /// H18: a phase of the rule set's own right after `phase`, before the next Spring. A
    /// phase of the rule set's own (alliance, jury, conference) may name itself: it is held
    /// again, with a new deadline.
    fn inserted_after(
        &self,
        _state: &VariantState,
        _phase: Phase,
        _position: &Position,
    ) -> Option<Phase> {
        None
    }

    /// H18: whether the judge waits for `power` in the current phase and how complete its
    /// orders are; `standard` is what the standard game says (None: nothing to order). A
    /// rule set may never wait for a power (it is out of the game) or wait for more (a
    /// ballot), and decides for the phases it adds.
    fn order_status(
        &self,
        _game: &GameView<'_>,
        _state: &VariantState,
        _power: Power,
        standard: Option<OrderStatus>,
    ) -> Option<OrderStatus> {
        standard
    }

    /// H18, H20: how complete `power`'s orders look to everyone but the power itself and
    /// the master: in `LIST`, in the late powers named to everyone, and in what the judge
    /// decides at the deadline (process now, or wait for grace), which everyone sees the
    /// outcome of. A rule set whose orders hold a secret (a ballot) leaves it out here, so
    /// that nothing anyone else reads changes when the secret arrives; `standard` is what
    /// the standard game says. Default: [`Variant::order_status`].
    fn public_order_status(
        &self,
        game: &GameView<'_>,
        state: &VariantState,
        power: Power,
        standard: Option<OrderStatus>,
    ) -> Option<OrderStatus> {
        self.order_status(game, state, power, standard)
    }

    // ---- H19: press ---------------------------------------------------------------------

    /// H19: whether `from` may send press read by `to` (the powers that would read it;
    /// broadcasts included).
    fn press_allowed(
        &self,
        _game: &GameView<'_>,
        _state: &VariantState,
        _from: Sender,
        _to: &[Power],
        _broadcast: bool,
    ) -> Result<(), VariantRefusal> {
        Ok(())
    }

    /// H1: what `HELP` adds in a game of this rule set: its commands, when and from whom
    /// they are taken (text lines, each ending with a newline; empty for the standard game).
    fn help(&self) -> &'static str {
        ""
    }

    /// H19: whether `VOTE` lines in press to the master are read as commands (ballots).
    fn reads_ballots_in_press(&self) -> bool {
        false
    }

    // ---- H20: publicity -----------------------------------------------------------------

    /// H20: the text of an order's line in the results bulletin, when the rule set writes
    /// it itself (after `Power: `, without a full stop); None: the standard line.
    fn result_line(&self, _map: &Map, _result: &OrderResult) -> Option<String> {
        None
    }

    /// H20: the rule set's own marks on the picture of a phase (morale beside units,
    /// spheres, wars and treaties), drawn on top of the standard picture; `game` is the
    /// phase just processed, `state` the state after it. Only what every reader of the
    /// results may read: the picture goes to everyone.
    fn picture_marks(
        &self,
        _game: &GameView<'_>,
        _state: &VariantState,
    ) -> Vec<crate::picture::Mark> {
        Vec::new()
    }

    /// H20: the strings of this game that only their readers (and the master) may see:
    /// what the leak scanner looks for in every mail.
    fn not_public(&self, _state: &VariantState) -> Vec<Secret> {
        Vec::new()
    }

    // ---- case files ---------------------------------------------------------------------

    /// Reads one `PRESTATE_VARIANT` fact of a case file into the set-up game.
    fn read_fact(&self, _setup: &mut Setup<'_>, fact: &str) -> Result<(), String> {
        Err(format!("the {} rules have no fact \"{fact}\"", self.name()))
    }

    /// Reads a note on a unit of a case file's position (`Neutral: A Par (rebel of
    /// France)`).
    fn read_unit_note(
        &self,
        _setup: &mut Setup<'_>,
        _unit: &Unit,
        note: &str,
    ) -> Result<(), String> {
        Err(format!(
            "the {} rules have no unit note \"({note})\"",
            self.name()
        ))
    }

    /// Checks one `POSTSTATE_VARIANT` fact (a line in parentheses states facts that must
    /// not hold). Err: what differs, as a sentence.
    fn check_fact(&self, _check: &Check<'_>, fact: &str) -> Result<(), String> {
        Err(format!("the {} rules have no fact \"{fact}\"", self.name()))
    }
}

/// The province a picture's relation line for `power` is drawn from (H20 picture marks):
/// its first home centre (in map order) it still owns, else its first home centre. Every
/// rule set draws its treaties, wars and client relations between these.
pub fn representative_province(map: &Map, position: &Position, power: Power) -> Option<ProvinceId> {
    map.home_centres(power)
        .find(|c| position.owner_of(*c) == Some(power))
        .or_else(|| map.home_centres(power).next())
}

/// A relation line between two powers' [representative provinces](representative_province),
/// with its legend text (None: a power with no home centre, which the standard map has not).
pub fn relation_mark(
    map: &Map,
    position: &Position,
    (a, b): (Power, Power),
    text: impl Into<String>,
    style: crate::picture::RelationStyle,
) -> Option<crate::picture::Mark> {
    Some(crate::picture::Mark::Relation {
        from: representative_province(map, position, a)?,
        to: representative_province(map, position, b)?,
        text: text.into(),
        style,
    })
}

/// The powers with a unit or a centre.
pub fn surviving_powers(position: &Position) -> Vec<Power> {
    Power::ALL
        .into_iter()
        .filter(|p| {
            position.centre_count(*p) > 0
                || position
                    .units
                    .iter()
                    .any(|u| u.owner == crate::rules::Owner::Power(*p))
        })
        .collect()
}

/// The standard victory (H17's default): unless a retreat phase comes next, the first
/// power (alphabetically) owning at least the centres to win.
pub fn standard_solo(game: &GameView<'_>) -> Option<Power> {
    if game.position.phase.kind == crate::rules::PhaseKind::Retreat {
        return None;
    }
    Power::ALL
        .into_iter()
        .find(|p| game.position.centre_count(*p) >= game.centres_to_win)
}

#[cfg(test)]
mod tests;
