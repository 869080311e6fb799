//! The rules of the game: positions, orders, and their adjudication exactly as the DATC
//! v3.0 prefers, with the variant hooks of `shared/rules/README.md` §3.
//!
//! Pure: no SQL, no mail, no clock. Text → orders is the `command` layer's job; here an
//! order is already made of map keys. Three steps, as TedDriggs' crate does it: orders are
//! *validated* against the position (illegal ones are refused with a reason and the unit
//! holds), the legal set is *resolved*, and the outcome says for each order whether it
//! succeeded and why not.

mod order;
mod position;
mod ratio;

pub use order::{Order, PowerOrder, Refusal, UnitSpec};
pub use position::{DislodgedUnit, Owner, Phase, PhaseKind, Position, Season, Unit, UnitKind};
pub use ratio::Strength;
