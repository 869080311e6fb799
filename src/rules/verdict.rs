//! What a rule set says of a line it refuses, or accepts with a remark: a
//! [`VariantRefusal`] or a [`Warning`], each with its spec code and sentence. The orders'
//! refusals ([`super::Refusal`]) carry the first; the hooks ([`super::Rules`]) give both.

use std::fmt;

/// A refusal by a rule set's own rule: its spec code (`SRV-E8`, `FD-E9`) and the sentence
/// its spec gives, already filled in. Each rule set keeps its errors as a typed enum and
/// turns them into this at the boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantRefusal {
    pub code: &'static str,
    pub sentence: String,
    /// Further refusals of the same line, each its own reply line (FD-E16 names every
    /// recipient at war, one line each).
    pub also: Vec<(&'static str, String)>,
}

impl VariantRefusal {
    pub fn new(code: &'static str, sentence: impl Into<String>) -> VariantRefusal {
        VariantRefusal {
            code,
            sentence: sentence.into(),
            also: Vec::new(),
        }
    }
}

impl fmt::Display for VariantRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sentence)
    }
}

/// A remark on an order that is accepted all the same (`WARNING SS-W1: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub code: &'static str,
    pub sentence: String,
}
