//! The default outbox: each rendered mail becomes a file in a Maildir's `new/` (written to
//! `tmp/` first, then renamed, so a reader never sees half a mail). No server needed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use tracing::debug;

use crate::mail::envelope::stable_hash;
use crate::mail::outbound::{Outbox, RenderedMail, SendError};

/// Writes mail into `<dir>/new/`.
#[derive(Debug, Clone)]
pub struct MaildirOutbox {
    dir: PathBuf,
    counter: u64,
}

impl MaildirOutbox {
    /// An outbox writing under `dir` (`tmp/`, `new/` and `cur/` are created when needed).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        MaildirOutbox {
            dir: dir.into(),
            counter: 0,
        }
    }

    /// The Maildir this outbox writes to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn write_one(&mut self, mail: &RenderedMail) -> std::io::Result<PathBuf> {
        for sub in ["tmp", "new", "cur"] {
            std::fs::create_dir_all(self.dir.join(sub))?;
        }
        self.counter += 1;
        let secs = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default();
        let h = stable_hash(&[mail.message_id.as_bytes(), &mail.bytes]);
        let name = format!(
            "{secs}.P{}Q{}M{h:016x}.dipjudge",
            std::process::id(),
            self.counter,
        );
        let tmp = self.dir.join("tmp").join(&name);
        let new = self.dir.join("new").join(&name);
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&mail.bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &new)?;
        Ok(new)
    }
}

impl Outbox for MaildirOutbox {
    fn send_batch(&mut self, mails: &[RenderedMail]) -> Vec<Result<(), SendError>> {
        self.send_batch_reporting(mails, &|_| {})
    }

    fn send_batch_reporting(
        &mut self,
        mails: &[RenderedMail],
        accepted: &(dyn Fn(usize) + Sync),
    ) -> Vec<Result<(), SendError>> {
        mails
            .iter()
            .enumerate()
            .map(|(i, mail)| match self.write_one(mail) {
                Ok(path) => {
                    debug!(message_id = %mail.message_id, path = %path.display(), "written to Maildir");
                    accepted(i);
                    Ok(())
                }
                // A full disk or a permission problem may be fixed: retry later.
                Err(e) => Err(SendError::Temporary {
                    message_id: mail.message_id.clone(),
                    reason: format!("cannot write to Maildir {}: {e}", self.dir.display()),
                }),
            })
            .collect()
    }
}
