//! The mail layer: IMAP or Maildir in, SMTP or Maildir out, MIME to [`Envelope`], loop and
//! bounce protection. It never knows a game rule.
//!
//! - [`envelope`]: raw bytes to [`Envelope`] (mail-parser), the fallback dedupe key.
//! - [`guard`]: which mail must never be answered; a per-address reply rate limiter.
//!
//! Only `daemon` wires this layer to `judge`.

pub mod envelope;
pub mod guard;

pub use envelope::{Envelope, EnvelopeError, LoopHeaders, ParseLimits};
pub use guard::{RateLimiter, Silence, silence_reason};
