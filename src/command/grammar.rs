//! A rule set's own commands as the shared parser reaches them (hook H1): the parser knows
//! that a line may belong to the game's rule set, never which rule sets exist. A rule set
//! brings a [`Grammar`] (its keywords, its parsers, its spec-coded errors, what `HELP` adds)
//! and a command type of its own ([`OwnCommand`]); a line it reads is a [`RuleCommand`],
//! which the rule set alone looks inside.
//!
//! Written with the building blocks of [`super::parts`]; no rule set is named here.

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::map::Map;
use crate::rules::UnitSpec;

use super::lexeme::{PResult, Why, fail};

/// A rule set's commands (H1), as the game's rule set gives them to the parser.
pub trait Grammar: Sync {
    /// The words its commands start with, lower case (`dwo`, `vote`): a line starting with
    /// one is read by [`Grammar::command`], and a `,` in it does not split orders.
    fn keywords(&self) -> &[&'static str] {
        &[]
    }

    /// Reads a line that starts with one of its keywords (the line normalised, a trailing
    /// comment left out). An error is put into words as the shared parser's are; a
    /// rule set's own error carries its spec code ([`Why::Coded`]).
    fn command<'a>(&self, _map: &Map, line: &'a str) -> PResult<'a, RuleCommand> {
        fail(line, Why::Expected("a command"))
    }

    /// Reads one of its orders written after a unit (`F Lon HOLD EXCHANGE England A`, `A Par
    /// SOI Bur`, `A Mar S A Par SOI Bur`): `rest` is the text after `unit`. An `Error`
    /// leaves the line to the shared orders; a `Failure` is the line's error.
    fn unit_order<'a>(
        &self,
        _map: &Map,
        _unit: UnitSpec,
        rest: &'a str,
    ) -> PResult<'a, RuleCommand> {
        fail(rest, Why::Nom)
    }

    /// H19: whether a line inside press to the master alone is one of its commands (a
    /// ballot sent as press): it is read as a command and left out of the press.
    fn in_press_to_master(&self, _line: &str) -> bool {
        false
    }

    /// H1: what `HELP` adds in a game of this rule set: its commands, when and from whom
    /// they are taken (text lines, each ending with a newline; empty when it has none).
    fn help(&self) -> &'static str {
        ""
    }
}

/// A rule set with no commands of its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCommands;

impl Grammar for NoCommands {}

/// The type of a rule set's commands: a closed enum in its folder, stored with the orders
/// of a phase (its serde form is the stored form).
pub trait OwnCommand:
    Clone + fmt::Debug + PartialEq + Eq + Hash + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The normalised echo, which reads back as the same command (README §2.1: the first
    /// form of its row in the rule set's §3 table).
    fn render(&self, map: &Map) -> String;

    /// H1: whether the rule set takes this command before the unit orders of its mail,
    /// wherever it is written (a declaration of war before the moves it makes legal).
    fn taken_first(&self) -> bool {
        false
    }
}

/// The command type of a rule set with no commands of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NoCommand {}

impl OwnCommand for NoCommand {
    fn render(&self, _map: &Map) -> String {
        match *self {}
    }
}

/// [`OwnCommand`] behind a pointer: what [`RuleCommand`] holds.
trait Erased: Any + fmt::Debug + Send + Sync {
    fn render(&self, map: &Map) -> String;
    fn taken_first(&self) -> bool;
    fn boxed(&self) -> Box<dyn Erased>;
    fn same(&self, other: &dyn Erased) -> bool;
    fn hash_into(&self, state: &mut dyn Hasher);
    fn to_json(&self) -> serde_json::Value;
    fn as_any(&self) -> &dyn Any;
}

impl<T: OwnCommand> Erased for T {
    fn render(&self, map: &Map) -> String {
        OwnCommand::render(self, map)
    }

    fn taken_first(&self) -> bool {
        OwnCommand::taken_first(self)
    }

    fn boxed(&self) -> Box<dyn Erased> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn Erased) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn hash_into(&self, mut state: &mut dyn Hasher) {
        std::any::TypeId::of::<T>().hash(&mut state);
        self.hash(&mut state);
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_else(|e| {
            tracing::error!(error = %e, "a rule set's command could not be written");
            serde_json::Value::Null
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One command of a rule set's own, as read from a line (or from a stored game, which the
/// rule set decodes when the game is loaded). Only the rule set that owns its type looks
/// inside ([`RuleCommand::get`]).
pub struct RuleCommand(Held);

enum Held {
    Typed(Box<dyn Erased>),
    /// As stored, before the game's rule set decoded it.
    Stored(serde_json::Value),
}

impl RuleCommand {
    /// A rule set's command.
    pub fn new<T: OwnCommand>(command: T) -> RuleCommand {
        RuleCommand(Held::Typed(Box::new(command)))
    }

    /// The command as the rule set's type, if it is one of that rule set's.
    pub fn get<T: OwnCommand>(&self) -> Option<&T> {
        match &self.0 {
            Held::Typed(c) => c.as_any().downcast_ref::<T>(),
            Held::Stored(_) => None,
        }
    }

    /// Reads a stored command as the game's rule set's type (when a game is loaded). Err:
    /// why it cannot be read.
    pub fn decode<T: OwnCommand>(&mut self) -> Result<(), String> {
        if let Held::Stored(v) = &self.0 {
            let typed: T = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
            self.0 = Held::Typed(Box::new(typed));
        }
        Ok(())
    }

    /// The normalised echo (see [`OwnCommand::render`]).
    pub fn render(&self, map: &Map) -> String {
        match &self.0 {
            Held::Typed(c) => c.render(map),
            Held::Stored(v) => v.to_string(),
        }
    }

    /// Whether the rule set takes it before the unit orders of its mail (H1).
    pub fn taken_first(&self) -> bool {
        match &self.0 {
            Held::Typed(c) => c.taken_first(),
            Held::Stored(_) => false,
        }
    }

    fn json(&self) -> serde_json::Value {
        match &self.0 {
            Held::Typed(c) => c.to_json(),
            Held::Stored(v) => v.clone(),
        }
    }
}

impl Clone for RuleCommand {
    fn clone(&self) -> Self {
        RuleCommand(match &self.0 {
            Held::Typed(c) => Held::Typed(c.boxed()),
            Held::Stored(v) => Held::Stored(v.clone()),
        })
    }
}

impl fmt::Debug for RuleCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Held::Typed(c) => c.fmt(f),
            Held::Stored(v) => write!(f, "Stored({v})"),
        }
    }
}

impl PartialEq for RuleCommand {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Held::Typed(a), Held::Typed(b)) => a.same(b.as_ref()),
            _ => self.json() == other.json(),
        }
    }
}

impl Eq for RuleCommand {}

impl Hash for RuleCommand {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match &self.0 {
            Held::Typed(c) => c.hash_into(state),
            Held::Stored(v) => v.to_string().hash(state),
        }
    }
}

impl Serialize for RuleCommand {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Held::Typed(c) => c.to_json().serialize(s),
            Held::Stored(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for RuleCommand {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(|v| RuleCommand(Held::Stored(v)))
    }
}
