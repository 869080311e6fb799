//! The standard game: every hook at its default. If this implementation ever needs a
//! method, a default is in the wrong place.

use super::Variant;

/// The standard game, exact to the DATC.
#[derive(Clone, Copy, Debug, Default)]
pub struct Standard;

impl Variant for Standard {
    fn name(&self) -> &'static str {
        "Standard"
    }
}
