//! Who an outgoing message is for: one power, the master, or the observers. Everyone is
//! the list of all three (`judge::process::everyone`).
//!
//! Every mail the judge sends has exactly one audience (rules/README §2.2). The type lives
//! with the press policy in [`crate::game`], which decides who reads what (one place, hook
//! H19); this module names it for the renderers.

pub use crate::game::Audience;
