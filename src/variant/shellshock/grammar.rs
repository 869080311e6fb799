//! Shell Shock's grammar: it has no commands of its own (`shellshock.md` §3); `HELP` says
//! how morale works.

use crate::command::Grammar;

/// Shell Shock's grammar.
pub struct ShellShockGrammar;

impl Grammar for ShellShockGrammar {
    fn help(&self) -> &'static str {
        include_str!("help.txt")
    }
}
