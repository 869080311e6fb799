//! Inbound mail: the [`Inbox`] trait and its transports, [`imap::ImapInbox`] and
//! [`maildir::MaildirInbox`] (the default).
//!
//! An inbox hands out raw messages; the caller parses them ([`crate::mail::Envelope`]), runs
//! its transaction, and only then calls [`Inbox::commit`] (flag `\Seen`, move to the
//! processed folder) or [`Inbox::reject`] (unparsable mail, moved aside with the reason
//! logged). No SQL here: IMAP bookkeeping is exposed as [`imap::ImapCursor`] for the caller
//! to store.

pub mod imap;
pub mod maildir;

use std::path::PathBuf;
use std::time::Instant;

/// Where a message came from, precise enough to commit or reject it later.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MessageRef {
    /// A message in an IMAP mailbox; UIDs mean something only with their UIDVALIDITY.
    Imap {
        /// The mailbox (folder) name.
        mailbox: String,
        /// The mailbox's UIDVALIDITY when the message was fetched.
        uidvalidity: u32,
        /// The message's UID.
        uid: u32,
    },
    /// A file in a Maildir.
    Maildir {
        /// Where the file was when it was handed out.
        path: PathBuf,
    },
}

impl std::fmt::Display for MessageRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MessageRef::Imap {
                mailbox,
                uidvalidity,
                uid,
            } => write!(f, "IMAP {mailbox} UID {uid} (UIDVALIDITY {uidvalidity})"),
            MessageRef::Maildir { path } => write!(f, "Maildir file {}", path.display()),
        }
    }
}

/// One message as it came off the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawMessage {
    /// Where it is, for [`Inbox::commit`] and [`Inbox::reject`].
    pub id: MessageRef,
    /// The RFC 5322 bytes, untouched; only the header block when the message is over the
    /// size limit (`oversize`).
    pub bytes: Vec<u8>,
    /// `Some(size)`: the message is `size` bytes, over the inbox's limit. It was not read
    /// whole: `bytes` holds its header block only (enough to answer its sender), found by
    /// its size before reading (a file's metadata, IMAP's `RFC822.SIZE`).
    pub oversize: Option<u64>,
}

pub use crate::mail::envelope::{HEADER_BYTES, header_block};

/// What went wrong reading a mailbox.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InboundError {
    /// The server cannot be reached now (refused, dropped, TLS failure, in back-off): try
    /// again after [`Inbox::wait`].
    #[error("mail server {server} is unavailable: {reason}")]
    Unavailable {
        /// `host:port`.
        server: String,
        /// What happened.
        reason: String,
    },
    /// The server answered NO or BAD to a command.
    #[error("mail server {server} refused {command}: {reason}")]
    Refused {
        /// `host:port`.
        server: String,
        /// The command, e.g. `UID MOVE 7 Processed`.
        command: String,
        /// The server's words.
        reason: String,
    },
    /// Settings that cannot work (plain text to a remote host, an unreadable certificate).
    #[error("mail settings cannot work: {0}")]
    Config(String),
    /// A reference from another transport, or from before a UIDVALIDITY change.
    #[error("{id} cannot be found by this inbox: {reason}")]
    UnknownMessage {
        /// The reference given.
        id: MessageRef,
        /// Why it is not usable.
        reason: String,
    },
    /// A Maildir file or folder could not be read, written or moved.
    #[error("Maildir {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

/// A mailbox the judge reads.
pub trait Inbox {
    /// Messages not handed out yet, oldest first (at most a batch; call again for more).
    fn fetch_new(&mut self) -> Result<Vec<RawMessage>, InboundError>;

    /// Blocks until new mail may have arrived (IDLE wake-up, poll interval) or `until`
    /// passes, whichever is first. Never spins: when the server is away it sleeps out the
    /// reconnect back-off (bounded by `until`).
    fn wait(&mut self, until: Instant) -> Result<(), InboundError>;

    /// The caller has committed `id`: mark it seen and move it to the processed folder.
    fn commit(&mut self, id: &MessageRef) -> Result<(), InboundError>;

    /// The caller has committed every message of `ids`: as [`Inbox::commit`] for each, in
    /// as few server round trips as the transport allows. On an error some may be filed and
    /// others not; those not filed come back from [`Inbox::fetch_new`] after a rewind.
    fn commit_all(&mut self, ids: &[MessageRef]) -> Result<(), InboundError> {
        for id in ids {
            self.commit(id)?;
        }
        Ok(())
    }

    /// `id` cannot be parsed at all: move it to the rejected folder, logging `reason`.
    fn reject(&mut self, id: &MessageRef, reason: &str) -> Result<(), InboundError>;

    /// Forgets what was handed out but not committed or rejected, so the next
    /// [`Inbox::fetch_new`] returns it again (after a failed transaction).
    fn rewind(&mut self);
}
