//! The mail layer: IMAP or Maildir in, SMTP or Maildir out, MIME to [`Envelope`], loop and
//! bounce protection. It never knows a game rule.
//!
//! - [`budget`]: the bounds on reading one mail; nested messages made inert for the parser.
//! - [`reader`]: one mail read on a thread of its own, with a known stack and a time bound.
//! - [`envelope`]: raw bytes to [`Envelope`] (mail-parser), the fallback dedupe key.
//! - [`guard`]: which mail must never be answered; a per-address reply rate limiter.
//! - [`dsn`]: delivery reports: which recipients failed for good, and which mail it was.
//! - [`inbound`]: the [`Inbox`] trait; IMAP or Maildir in, commit and reject.
//! - [`outbound`]: [`OutgoingMail`] rendered to bytes; SMTP or Maildir [`Outbox`].
//! - [`oauth`]: OAuth 2.0 access tokens for `XOAUTH2` logins, renewed from a refresh token.
//!
//! Only `daemon` wires this layer to `judge`.

pub mod budget;
pub mod dsn;
pub mod envelope;
pub mod guard;
pub mod inbound;
pub mod oauth;
pub mod outbound;
pub mod reader;

pub use envelope::{Envelope, EnvelopeError, LoopHeaders, ParseLimits};
pub use guard::{RateLimiter, Silence, silence_reason, silence_reason_for};
pub use inbound::{InboundError, Inbox, MessageRef, RawMessage};
pub use outbound::{
    Attachment, AutoSubmitted, Outbox, OutgoingMail, RenderError, RenderedMail, SendError, render,
};

use std::net::ToSocketAddrs;

/// How a connection to a mail server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
    /// Plain first, then `STARTTLS`; refused if the server does not offer it.
    StartTls,
    /// No encryption: allowed only when the host is a loopback address.
    Plain,
}

/// True when every address `host` resolves to is a loopback address.
pub(crate) fn is_loopback(host: &str, port: u16) -> bool {
    match (host, port).to_socket_addrs() {
        Ok(addrs) => {
            let addrs: Vec<_> = addrs.collect();
            !addrs.is_empty() && addrs.iter().all(|a| a.ip().is_loopback())
        }
        Err(_) => false,
    }
}

/// What the judge core needs of a parsed mail: the dedupe key (Message-ID, or the
/// fallback hash when the mail has none), the sender, the reply address and the text.
pub fn incoming(env: &envelope::Envelope) -> crate::judge::Incoming {
    crate::judge::Incoming {
        key: env.dedupe_key(),
        message_id: env.message_id.clone(),
        from: env.from.clone(),
        reply_to: env.reply_to.clone(),
        from_name: env.from_name.clone(),
        subject: env.subject.clone(),
        text: env.text.clone(),
        size_capped: env.size_capped,
    }
}
