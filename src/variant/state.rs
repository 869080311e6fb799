//! A rule set's state in a game: one serde value the game keeps, saves with every snapshot
//! (so `ROLLBACK` restores it) and never interprets. Each rule set reads and writes it as
//! its own typed struct.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A rule set's state, as stored. Empty (JSON `null`) for the standard game, which keeps
/// none, and for a game saved before rule sets had state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VariantState(serde_json::Value);

/// A stored state this code cannot read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the rule set's stored state cannot be read: {0}")]
pub struct StateError(pub String);

impl VariantState {
    /// The stored state as lines for the golden tests' `state.txt`, keys in order: each
    /// field of the state as `<field> <compact JSON>`, a list one line per element; none
    /// when nothing is stored.
    pub fn dump_lines(&self) -> Vec<String> {
        let compact = |v: &serde_json::Value| serde_json::to_string(v).unwrap_or_default();
        match &self.0 {
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
            other => vec![compact(other)],
        }
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.0.is_null()
    }

    /// The state as the rule set's type; an empty state is the type's default.
    pub fn read<T: DeserializeOwned + Default>(&self) -> Result<T, StateError> {
        if self.0.is_null() {
            return Ok(T::default());
        }
        serde_json::from_value(self.0.clone()).map_err(|e| StateError(e.to_string()))
    }

    /// The state as the rule set's type, for a hook that cannot fail: a state that was
    /// checked when the game was loaded ([`super::Variant::check_state`]) always reads; if
    /// it does not, the error is logged and the default stands in.
    pub fn get<T: DeserializeOwned + Default>(&self) -> T {
        self.read().unwrap_or_else(|e| {
            tracing::error!(error = %e, "a checked rule-set state did not read");
            T::default()
        })
    }

    /// A rule set's typed state at its default (a new game's).
    pub fn typed<T: Serialize + Default>() -> VariantState {
        let mut s = VariantState::default();
        s.set(&T::default());
        s
    }

    /// Whether the stored state reads as the rule set's type (see `Variant::check_state`).
    pub fn check<T: DeserializeOwned + Default>(&self) -> Result<(), StateError> {
        self.read::<T>().map(|_| ())
    }

    /// Stores the rule set's typed state.
    pub fn set<T: Serialize>(&mut self, value: &T) {
        match serde_json::to_value(value) {
            Ok(v) => self.0 = v,
            Err(e) => tracing::error!(error = %e, "a rule-set state could not be stored"),
        }
    }

    /// Reads, changes and stores the typed state; returns what `f` returned.
    pub fn update<T, R>(&mut self, f: impl FnOnce(&mut T) -> R) -> R
    where
        T: DeserializeOwned + Serialize + Default,
    {
        let mut value: T = self.get();
        let out = f(&mut value);
        self.set(&value);
        out
    }
}
