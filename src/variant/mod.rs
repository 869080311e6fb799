//! The rule sets: one [`RuleSet`] per set of rules (the standard game, and the five of
//! `docs/rules/`), each a folder that owns its grammar, its phases, its typed state and
//! its hooks; their registry; and the engine that processes a phase through their hooks.
//!
//! Pure: no SQL, no mail, no clock. A rule set is hooks plus data (`docs/rules/README.md`
//! §3): [`crate::rules::Rules`] carries the adjudication hooks H3–H15 and [`RuleSet`] the
//! hooks around the adjudicator, every one defaulting to the standard game:
//!
//! | hook | method |
//! | --- | --- |
//! | H1 its commands: read, taken, when, from whom | [`RuleSet::grammar`] (a [`crate::command::Grammar`]: keywords, parsers, spec-coded errors, `HELP`), [`RuleSet::take_command`], [`RuleSet::allows_player_command`], [`crate::command::OwnCommand::taken_first`] |
//! | H2 immediate commands | [`RuleSet::apply_now`] |
//! | H3–H15 adjudication | [`RuleSet::rules`] builds a [`crate::rules::Rules`] from the state |
//! | H5, H16 before resolution, after it, at the seasons' ends | [`RuleSet::step`] (the steps of [`crate::rules::Step`]) |
//! | H17 the game's result | [`RuleSet::game_result`], [`RuleSet::draw_powers`] |
//! | H18 its phases, the calendar, who is waited for | [`RuleSet::phases`], [`RuleSet::calendar`], [`RuleSet::readiness`] |
//! | H19 press | [`RuleSet::press_allowed`]; ballots in press: [`crate::command::Grammar::in_press_to_master`] |
//! | H20 publicity | every [`Line`] has its [`Reader`]; [`RuleSet::summary`], [`RuleSet::result_line`], [`RuleSet::picture_marks`], [`RuleSet::not_public`] |
//!
//! Besides: [`RuleSet::apply_setting`] (a game's settings) and [`RuleSet::case_facts`] (the
//! facts of its case files, a [`CaseFacts`] in a module of its own). A rule set's state is
//! its own type ([`RuleSet::State`]), decoded once when a game is loaded and stored once
//! when it is saved; the registry, the game and the judge hold a rule set as [`Variant`],
//! the same hooks with the state and commands behind [`VariantState`] and
//! [`crate::command::RuleCommand`] (every `RuleSet` is one).
//!
//! The registry ([`ALL`], [`Registry::by_name`]) is the only place a rule set's name is
//! matched; nothing outside this module names one.

/// The grammar tests of the rule sets, one table per rule set: for each named line, the
/// rule set's grammar reads `text` as the command whose echo is `want` (None: the grammar
/// reads no command of its own there). Each line is a test of its own.
#[cfg(test)]
macro_rules! grammar_cases {
    ($grammar:expr; $($name:ident: $text:expr => $want:expr,)+) => {
        $(
            #[test]
            fn $name() {
                let map = crate::map::Map::standard().unwrap();
                let got = crate::command::Grammar::command(&$grammar, map, $text)
                    .ok()
                    .map(|(_, c)| c.render(map));
                assert_eq!(got.as_deref(), $want, "{:?}", $text);
            }
        )+
    };
}

mod engine;
mod erased;
mod formal;
mod ir;
mod order_check;
mod registry;
mod rule_set;
mod shellshock;
mod standard;
mod state;
mod surrender;
mod survive;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::command::RuleCommand;
use crate::map::{Map, Power, ProvinceId};
use crate::rules::{Position, PowerOrder, VariantRefusal};

pub use engine::{PhaseInput, Processed, process_phase};
pub use erased::Variant;
pub use formal::{Formal, FormalCommand};
pub use ir::{InternationalRelations, IrCommand, TreatyKind};
pub use registry::{ALL, Entry, Grammars, Lookup, Registry};
pub use rule_set::{CaseFacts, NoFacts, RuleSet};
pub use shellshock::ShellShock;
pub use standard::Standard;
pub use state::{StateError, StateValue, VariantState};
pub use surrender::{Surrender, SurrenderCommand};
pub use survive::{Ballot, Survive, SurviveCommand};

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
    pub command: RuleCommand,
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

/// How a rule set's name reads in a sentence: `InternationalRelations` is `international
/// relations`.
pub fn rules_words(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// H1: the refusal of a command the game's rule set does not have (another rule set's).
pub fn not_in_variant(rules: &str) -> VariantRefusal {
    VariantRefusal::new(
        "NOT-IN-VARIANT",
        format!(
            "this game is played with the {} rules, which have no such command",
            rules_words(rules)
        ),
    )
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

/// When the current phase may be processed before its deadline (H18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Early {
    /// Once every power that owes orders has sent them all (and nobody waits).
    WhenAllIn,
    /// Not before the master has acted (a tie only the master can break): neither early
    /// nor by the master's `PROCESS`.
    WaitsForMaster,
    /// Never early: the phase runs to its deadline (a power may act without owing
    /// anything, or an early end would tell everyone when a secret ballot arrived); the
    /// master's `PROCESS` still processes it once every order is in.
    AtDeadline,
}

/// Who the judge waits for in the current phase, and when it may process it (H18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Readiness {
    /// Each power's order status, in [`Power::ALL`] order; None: it owes nothing now.
    pub statuses: [Option<OrderStatus>; 7],
    /// How complete each power's orders look to everyone but the power itself and the
    /// master (H18, H20): in `LIST`, in the late powers named to everyone, and in what the
    /// judge decides at the deadline (process now, or wait for grace), which everyone sees
    /// the outcome of. A rule set whose orders hold a secret (a ballot) leaves it out here,
    /// so that nothing anyone else reads changes when the secret arrives. None: the same as
    /// [`Readiness::statuses`].
    pub public: Option<[Option<OrderStatus>; 7]>,
    pub early: Early,
}

impl Readiness {
    /// A power's order status.
    pub fn status(&self, power: Power) -> Option<OrderStatus> {
        self.statuses.get(power.index()).copied().flatten()
    }

    /// A power's order status as everyone else may know it ([`Readiness::public`]).
    pub fn public_status(&self, power: Power) -> Option<OrderStatus> {
        match &self.public {
            Some(public) => public.get(power.index()).copied().flatten(),
            None => self.status(power),
        }
    }

    /// Sets a power's order status.
    pub fn set(&mut self, power: Power, status: Option<OrderStatus>) {
        if let Some(slot) = self.statuses.get_mut(power.index()) {
            *slot = status;
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
    /// The standing commands of the phase of the rule set's own type `C`, with who sent
    /// each, in arrival order.
    pub fn commands<C: crate::command::OwnCommand>(
        &self,
    ) -> impl Iterator<Item = (Sender, &'a C)> + use<'a, C> {
        self.variant_orders
            .iter()
            .filter_map(|v| v.command.get::<C>().map(|c| (v.from, c)))
    }

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

/// What a case file's `PRESTATE_VARIANT` facts may set up: the rule set's typed state in
/// its [`CaseFacts`], the stored form in the case runner.
pub struct Setup<'a, S = VariantState> {
    pub map: &'a Map,
    pub position: &'a mut Position,
    pub state: &'a mut S,
    /// Powers whose player has resigned.
    pub resigned: &'a mut Vec<Power>,
}

/// What a case file's `POSTSTATE_VARIANT` facts are checked against.
#[derive(Debug)]
pub struct Check<'a, S = VariantState> {
    pub map: &'a Map,
    pub position: &'a Position,
    /// The state before the run (for facts such as `(no new penalties)`).
    pub before: &'a S,
    pub after: &'a S,
    /// Every fact of the block (for facts such as `(no other new penalties)`).
    pub block: &'a [(usize, String)],
}

impl<S> Clone for Check<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Check<'_, S> {}

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
mod grammar_tests;
#[cfg(test)]
mod tests;
