//! Who reads and who sends, as the renderers name them: [`Reader`] (a power's player, the
//! master, observers: the one type for who reads), [`Sender`] (a power's player or the
//! master: the one type for who sends), and the [`Audience`] of a mail in the outbox (a
//! reader, or the sender of the mail it answers).
//!
//! Every mail the judge sends has exactly one audience (rules/README §2.2). Who may read
//! what is decided with the press policy in [`crate::game`] and by the rule set (H19, H20);
//! the renderers write each reader's copy.

pub use crate::store::{Audience, MailKind};
pub use crate::variant::{Reader, Sender};
