//! A rule set's state in a game: the rule set's own typed value ([`super::RuleSet::State`]),
//! decoded once when the game is loaded and written once when it is stored. The game keeps
//! it behind [`VariantState`] and never interprets it; a hook receives the typed value.
//!
//! A stored state the rule set cannot read makes the game fail to load ([`StateError`]):
//! it is never replaced by a default and written back.

use std::any::Any;
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// What a rule set's state type must be: kept, copied, compared, stored as JSON.
pub trait StateValue:
    Clone + fmt::Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

impl<T> StateValue for T where
    T: Clone
        + fmt::Debug
        + Default
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static
{
}

/// A stored state (or command) the game's rule set cannot read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the rule set's stored state cannot be read: {0}")]
pub struct StateError(pub String);

/// [`StateValue`] behind a pointer.
trait Erased: Any + fmt::Debug + Send + Sync {
    fn boxed(&self) -> Box<dyn Erased>;
    fn same(&self, other: &dyn Erased) -> bool;
    fn to_json(&self) -> serde_json::Value;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: StateValue> Erased for T {
    fn boxed(&self) -> Box<dyn Erased> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn Erased) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_else(|e| {
            tracing::error!(error = %e, "a rule-set state could not be written");
            serde_json::Value::Null
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A rule set's state in a game: nothing (the standard game keeps none, and a game saved
/// before rule sets had state), as stored until the game's rule set decodes it, or the
/// rule set's typed value.
#[derive(Default)]
pub struct VariantState(Held);

#[derive(Default)]
enum Held {
    #[default]
    Empty,
    Stored(serde_json::Value),
    Typed(Box<dyn Erased>),
}

impl VariantState {
    /// A rule set's typed state (a rule set with no state, `()`, keeps nothing).
    pub fn of<T: StateValue>(value: T) -> VariantState {
        if std::any::TypeId::of::<T>() == std::any::TypeId::of::<()>() {
            return VariantState(Held::Empty);
        }
        VariantState(Held::Typed(Box::new(value)))
    }

    /// Stores the rule set's typed state (a test's set-up).
    pub fn set<T: StateValue>(&mut self, value: &T) {
        *self = VariantState::of(value.clone());
    }

    /// The state as the rule set's type, when it holds that type.
    pub fn get<T: StateValue>(&self) -> Option<&T> {
        match &self.0 {
            Held::Typed(s) => s.as_any().downcast_ref::<T>(),
            _ => None,
        }
    }

    /// Decodes the stored state as the rule set's type, once, when a game is loaded:
    /// nothing stored is the type's default; a state of another type, or one that does not
    /// read as the type, is an error (the game cannot be played).
    pub fn decode<T: StateValue>(&mut self) -> Result<(), StateError> {
        let typed = match &self.0 {
            Held::Typed(s) if s.as_any().is::<T>() => return Ok(()),
            Held::Typed(s) => {
                return Err(StateError(format!(
                    "it holds another rule set's state: {s:?}"
                )));
            }
            Held::Empty | Held::Stored(serde_json::Value::Null) => T::default(),
            Held::Stored(v) => {
                serde_json::from_value(v.clone()).map_err(|e| StateError(e.to_string()))?
            }
        };
        *self = VariantState::of(typed);
        Ok(())
    }

    /// Whether the state reads as the rule set's type (see [`VariantState::decode`]).
    pub fn check<T: StateValue>(&self) -> Result<(), StateError> {
        match &self.0 {
            Held::Typed(s) if s.as_any().is::<T>() => Ok(()),
            _ => {
                let mut copy = self.clone();
                copy.decode::<T>()
            }
        }
    }

    /// Runs a hook that reads the typed state. A state not decoded yet (a game built in
    /// memory) is read for the call; one that cannot be read is logged and the hook reads
    /// the default, which is never stored (a loaded game's state was checked when it was
    /// loaded).
    pub fn with<T: StateValue, R>(&self, f: impl FnOnce(&T) -> R) -> R {
        if let Some(s) = self.get::<T>() {
            return f(s);
        }
        let mut copy = self.clone();
        match copy.decode::<T>() {
            Ok(()) => match copy.get::<T>() {
                Some(s) => f(s),
                None => f(&T::default()),
            },
            Err(e) => {
                tracing::error!(error = %e, "a rule-set state did not read");
                f(&T::default())
            }
        }
    }

    /// Runs a hook that may change the typed state. A state not decoded yet is decoded
    /// first; one that cannot be read is logged, and the hook's changes to a default are
    /// thrown away: the stored state is never replaced by a default.
    pub fn with_mut<T: StateValue, R>(&mut self, f: impl FnOnce(&mut T) -> R) -> R {
        if self.get::<T>().is_none()
            && let Err(e) = self.decode::<T>()
        {
            tracing::error!(error = %e, "a rule-set state did not read; the change is lost");
            return f(&mut T::default());
        }
        match &mut self.0 {
            Held::Typed(s) => match s.as_any_mut().downcast_mut::<T>() {
                Some(s) => f(s),
                None => f(&mut T::default()),
            },
            // A rule set without state (`()`).
            _ => f(&mut T::default()),
        }
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        matches!(self.0, Held::Empty | Held::Stored(serde_json::Value::Null))
    }

    fn json(&self) -> serde_json::Value {
        match &self.0 {
            Held::Empty => serde_json::Value::Null,
            Held::Stored(v) => v.clone(),
            Held::Typed(s) => s.to_json(),
        }
    }

    /// The stored state as lines for the golden tests' `state.txt`, keys in order: each
    /// field of the state as `<field> <compact JSON>`, a list one line per element; none
    /// when nothing is stored.
    pub fn dump_lines(&self) -> Vec<String> {
        let compact = |v: &serde_json::Value| serde_json::to_string(v).unwrap_or_default();
        match self.json() {
            serde_json::Value::Null => Vec::new(),
            serde_json::Value::Object(fields) => fields
                .iter()
                .flat_map(|(k, v)| match v {
                    serde_json::Value::Array(items) if !items.is_empty() => items
                        .iter()
                        .map(|item| format!("{k} {}", compact(item)))
                        .collect(),
                    _ => vec![format!("{k} {}", compact(v))],
                })
                .collect(),
            other => vec![compact(&other)],
        }
    }
}

impl Clone for VariantState {
    fn clone(&self) -> Self {
        VariantState(match &self.0 {
            Held::Empty => Held::Empty,
            Held::Stored(v) => Held::Stored(v.clone()),
            Held::Typed(s) => Held::Typed(s.boxed()),
        })
    }
}

impl fmt::Debug for VariantState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Held::Empty => f.write_str("VariantState(none)"),
            Held::Stored(v) => write!(f, "VariantState(stored {v})"),
            Held::Typed(s) => write!(f, "VariantState({s:?})"),
        }
    }
}

impl PartialEq for VariantState {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Held::Typed(a), Held::Typed(b)) => a.same(b.as_ref()),
            _ => self.json() == other.json(),
        }
    }
}

impl Serialize for VariantState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Held::Empty => serde_json::Value::Null.serialize(s),
            Held::Stored(v) => v.serialize(s),
            Held::Typed(t) => t.to_json().serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for VariantState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(VariantState(match serde_json::Value::deserialize(d)? {
            serde_json::Value::Null => Held::Empty,
            v => Held::Stored(v),
        }))
    }
}
