//! The registry of rule sets: the only place a rule set's name is matched. A game stores
//! its rule set's name ([`Entry::name`]); players write any of its forms, in any letter
//! case, with or without blanks and hyphens (`shell-shock`, `International Relations`,
//! `ir`).

use super::{Formal, InternationalRelations, ShellShock, Standard, Surrender, Survive, Variant};

/// One rule set the judge knows by name, implemented or not yet.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The name a game and a case file's `VARIANT` line use.
    pub name: &'static str,
    /// Other names players write (compared like the name: letters and digits only, any
    /// case).
    pub aliases: &'static [&'static str],
    /// None: the rule set is specified (`shared/rules/`) but not implemented yet.
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
}
