//! Who an outgoing message is for: one power, the master, the observers, or everyone.
//!
//! Every mail the judge sends has exactly one audience (rules/README §2.2). What each
//! audience may learn is decided by the variant's publicity hook (H20) when the judge
//! queues the mail; this module only names the audiences.

use crate::map::Power;

/// The readers of one outgoing message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Audience {
    /// The player (or players) of one power: private replies, private variant lines.
    Power(Power),
    /// The game master: sees everything, secret votes and unreciprocated treaties included.
    Master,
    /// Observers of the game: the public information only, never a power's private mail.
    Observers,
    /// Everyone in the game (every power, the master and the observers): public bulletins.
    Everyone,
}
