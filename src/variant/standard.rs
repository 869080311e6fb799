//! The standard game: every hook at its default. If this implementation ever needs a
//! method, a default is in the wrong place.

use crate::command::NoCommand;

use super::RuleSet;

/// The standard game, exact to the DATC.
#[derive(Clone, Copy, Debug, Default)]
pub struct Standard;

impl RuleSet for Standard {
    type State = ();
    type Command = NoCommand;

    fn name(&self) -> &'static str {
        "Standard"
    }
}
