//! The registry of rule sets: the only place a rule set's name is matched. A game stores
//! its rule set's name ([`Entry::name`]); players write any of its forms, in any letter
//! case, with or without blanks and hyphens (`shell-shock`, `International Relations`,
//! `ir`).

use crate::command::parts::{PErr, PResult, Why, blanks};
use crate::command::{Grammar, RuleCommand};
use crate::map::Map;
use crate::rules::UnitSpec;

use super::{Formal, InternationalRelations, ShellShock, Standard, Surrender, Survive, Variant};

/// One rule set the judge knows by name, implemented or not yet.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The name a game and a case file's `VARIANT` line use.
    pub name: &'static str,
    /// Other names players write (compared like the name: letters and digits only, any
    /// case).
    pub aliases: &'static [&'static str],
    /// None: the rule set is specified (`docs/rules/`) but not implemented yet.
    pub variant: Option<&'static dyn Variant>,
}

/// Every rule set, the standard game first.
pub const ALL: &[Entry] = &[
    Entry {
        name: "Standard",
        aliases: &[],
        variant: Some(&Standard),
    },
    Entry {
        name: "Surrender",
        aliases: &[],
        variant: Some(&Surrender),
    },
    Entry {
        name: "Survive",
        aliases: &["survive diplomacy"],
        variant: Some(&Survive),
    },
    Entry {
        name: "ShellShock",
        aliases: &["shell shock diplomacy"],
        variant: Some(&ShellShock),
    },
    Entry {
        name: "Formal",
        aliases: &["formal diplomacy"],
        variant: Some(&Formal),
    },
    Entry {
        name: "InternationalRelations",
        aliases: &["ir"],
        variant: Some(&InternationalRelations),
    },
];

/// What a name stands for.
#[derive(Clone, Copy)]
pub enum Lookup {
    Found(&'static dyn Variant),
    /// A rule set the judge knows but does not run yet (its canonical name).
    NotImplemented(&'static str),
    Unknown,
}

/// The rule sets a judge runs: [`ALL`], plus any a test adds.
#[derive(Clone)]
pub struct Registry {
    entries: Vec<Entry>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Default for Registry {
    fn default() -> Self {
        for e in ALL {
            describe(e);
        }
        Registry {
            entries: ALL.to_vec(),
        }
    }
}

/// Makes a rule set's own phases known wherever phases are read and printed.
fn describe(entry: &Entry) {
    if let Some(v) = entry.variant {
        crate::rules::describe_phases(v.phases());
    }
}

/// Letters and digits only, lower case: how names are compared.
fn key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl Registry {
    /// The registry with one more rule set (a test's).
    pub fn with(mut self, entry: Entry) -> Registry {
        describe(&entry);
        self.entries.push(entry);
        self
    }

    /// The rule set a name stands for.
    pub fn by_name(&self, name: &str) -> Lookup {
        let k = key(name);
        if k.is_empty() {
            return Lookup::Unknown;
        }
        match self
            .entries
            .iter()
            .find(|e| key(e.name) == k || e.aliases.iter().any(|a| key(a) == k))
        {
            Some(Entry {
                variant: Some(v), ..
            }) => Lookup::Found(*v),
            Some(e) => Lookup::NotImplemented(e.name),
            None => Lookup::Unknown,
        }
    }

    /// Every name, as the error for an unknown name lists them.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// The names of the rule sets this judge runs.
    pub fn implemented(&self) -> Vec<&'static str> {
        self.entries
            .iter()
            .filter(|e| e.variant.is_some())
            .map(|e| e.name)
            .collect()
    }

    /// The standard game.
    pub fn standard(&self) -> &'static dyn Variant {
        &Standard
    }

    /// The grammar of a game of `variant`: its own commands, and every other rule set's,
    /// which it refuses by name.
    pub fn grammar_for(&self, variant: &dyn Variant) -> Grammars {
        let own = variant.grammar();
        let others = self
            .entries
            .iter()
            .filter_map(|e| e.variant)
            .filter(|v| v.name() != variant.name())
            .map(|v| v.grammar())
            .collect();
        Grammars::new(Some(own), others)
    }

    /// The grammar of a message whose game is not known (yet): every rule set's commands.
    pub fn any_grammar(&self) -> Grammars {
        let all = self
            .entries
            .iter()
            .filter_map(|e| e.variant)
            .map(|v| v.grammar())
            .collect();
        Grammars::new(None, all)
    }
}

/// The grammar a message is read with (H1): the game's rule set's, or every rule set's
/// when no game is known. A line another rule set reads is read all the same, as that
/// rule set's command, so that the game's rule set refuses it by name (`NOT-IN-VARIANT`)
/// rather than leaving it unread; where several rule sets read a line, the game's own
/// reading wins, and where none does, the error that read furthest (the game's own, then
/// the registry's order, when two read as far).
pub struct Grammars {
    own: Option<&'static dyn Grammar>,
    /// Every rule set's grammar, the game's own first.
    all: Vec<&'static dyn Grammar>,
    keywords: Vec<&'static str>,
}

impl Grammars {
    fn new(own: Option<&'static dyn Grammar>, others: Vec<&'static dyn Grammar>) -> Grammars {
        let all: Vec<&'static dyn Grammar> = own.into_iter().chain(others).collect();
        let mut keywords: Vec<&'static str> = Vec::new();
        for g in &all {
            for k in g.keywords() {
                if !keywords.contains(k) {
                    keywords.push(k);
                }
            }
        }
        Grammars { own, all, keywords }
    }

    /// The first reading of `read` that succeeds (the game's own first), else the error
    /// that read furthest.
    fn first<'a>(
        &self,
        line: &'a str,
        read: impl Fn(&dyn Grammar) -> Option<PResult<'a, RuleCommand>>,
    ) -> PResult<'a, RuleCommand> {
        let mut error: Option<nom::Err<PErr<'a>>> = None;
        for g in &self.all {
            match read(*g) {
                None => {}
                Some(Ok(r)) => return Ok(r),
                Some(Err(nom::Err::Incomplete(_))) => {}
                Some(Err(e)) => {
                    error = Some(match error {
                        None => e,
                        Some(best) => further(best, e),
                    })
                }
            }
        }
        Err(error.unwrap_or(nom::Err::Error(PErr {
            at: line,
            why: Why::Expected("a command"),
        })))
    }
}

/// Of two failed readings, the one that read further into the line (at the same place, the
/// more telling reason; else the first), as the parser's alternatives choose.
fn further<'a>(a: nom::Err<PErr<'a>>, b: nom::Err<PErr<'a>>) -> nom::Err<PErr<'a>> {
    use nom::error::ParseError;
    let (ea, eb) = match (&a, &b) {
        (nom::Err::Error(x) | nom::Err::Failure(x), nom::Err::Error(y) | nom::Err::Failure(y)) => {
            (x.clone(), y.clone())
        }
        _ => return a,
    };
    if ea.clone().or(eb) == ea { a } else { b }
}

impl Grammar for Grammars {
    fn keywords(&self) -> &[&'static str] {
        &self.keywords
    }

    fn command<'a>(&self, map: &Map, line: &'a str) -> PResult<'a, RuleCommand> {
        let first = blanks(line)
            .split(' ')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        self.first(line, |g| {
            g.keywords()
                .contains(&first.as_str())
                .then(|| g.command(map, line))
        })
    }

    fn unit_order<'a>(&self, map: &Map, unit: UnitSpec, rest: &'a str) -> PResult<'a, RuleCommand> {
        self.first(rest, |g| Some(g.unit_order(map, unit, rest)))
    }

    /// H19: the game's rule set's choice; with no game known, any rule set's.
    fn in_press_to_master(&self, line: &str) -> bool {
        match self.own {
            Some(g) => g.in_press_to_master(line),
            None => self.all.iter().any(|g| g.in_press_to_master(line)),
        }
    }

    fn help(&self) -> &'static str {
        self.own.map_or("", |g| g.help())
    }
}
