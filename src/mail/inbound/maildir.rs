//! The default inbox: a Maildir on disk (`new/`, `cur/`, `tmp/`). Committed mail moves to the
//! Maildir++ folder `.Processed/cur/` with the seen flag, rejected mail to `.Rejected/cur/`.
//! Polls the directories; no server needed.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tracing::{info, warn};

use crate::mail::inbound::{InboundError, Inbox, MessageRef, RawMessage};

/// Reads mail from a Maildir.
#[derive(Debug, Clone)]
pub struct MaildirInbox {
    dir: PathBuf,
    processed: String,
    rejected: String,
    poll_interval: Duration,
    batch: usize,
    handed: HashSet<PathBuf>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> InboundError + '_ {
    move |source| InboundError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl MaildirInbox {
    /// An inbox on `dir` with folders `Processed` and `Rejected`, polling every second and
    /// handing out at most 100 messages per fetch.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        MaildirInbox {
            dir: dir.into(),
            processed: "Processed".into(),
            rejected: "Rejected".into(),
            poll_interval: Duration::from_secs(1),
            batch: 100,
            handed: HashSet::new(),
        }
    }

    /// Names the processed and rejected folders (Maildir++ `.<name>` under the Maildir).
    pub fn with_folders(mut self, processed: &str, rejected: &str) -> Self {
        processed.clone_into(&mut self.processed);
        rejected.clone_into(&mut self.rejected);
        self
    }

    /// Sets how often [`Inbox::wait`] looks at the directories.
    pub fn with_poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }

    /// The folder a committed or rejected file goes to.
    pub fn folder(&self, name: &str) -> PathBuf {
        self.dir.join(format!(".{name}"))
    }

    /// Files waiting in `new/` and unseen ones in `cur/`, sorted by name (delivery order for
    /// the usual `time.unique.host` names).
    fn waiting(&self) -> Result<Vec<PathBuf>, InboundError> {
        let mut files = Vec::new();
        for sub in ["new", "cur"] {
            let d = self.dir.join(sub);
            let entries = match std::fs::read_dir(&d) {
                Ok(e) => e,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io(&d)(e)),
            };
            for entry in entries {
                let entry = entry.map_err(io(&d))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                let seen = name
                    .rsplit_once(":2,")
                    .is_some_and(|(_, flags)| flags.contains('S'));
                if sub == "cur" && seen {
                    continue;
                }
                if entry.file_type().map_err(io(&d))?.is_file() {
                    files.push(entry.path());
                }
            }
        }
        files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        Ok(files)
    }

    fn move_to(&mut self, id: &MessageRef, folder: &str) -> Result<PathBuf, InboundError> {
        let MessageRef::Maildir { path } = id else {
            return Err(InboundError::UnknownMessage {
                id: id.clone(),
                reason: "it is not a Maildir message".into(),
            });
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = name.split_once(":2,").map_or(name.as_str(), |(b, _)| b);
        let target_dir = self.folder(folder);
        for sub in ["tmp", "new", "cur"] {
            let d = target_dir.join(sub);
            std::fs::create_dir_all(&d).map_err(io(&d))?;
        }
        let target = target_dir.join("cur").join(format!("{base}:2,S"));
        std::fs::rename(path, &target).map_err(io(path))?;
        self.handed.remove(path);
        Ok(target)
    }
}

impl Inbox for MaildirInbox {
    fn fetch_new(&mut self) -> Result<Vec<RawMessage>, InboundError> {
        let mut out = Vec::new();
        for path in self.waiting()? {
            if out.len() >= self.batch {
                break;
            }
            if self.handed.contains(&path) {
                continue;
            }
            let bytes = match std::fs::read(&path) {
                Ok(b) => b,
                // Another reader moved it meanwhile.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io(&path)(e)),
            };
            self.handed.insert(path.clone());
            out.push(RawMessage {
                id: MessageRef::Maildir { path },
                bytes,
            });
        }
        Ok(out)
    }

    fn wait(&mut self, until: Instant) -> Result<(), InboundError> {
        loop {
            if self.waiting()?.iter().any(|p| !self.handed.contains(p)) {
                return Ok(());
            }
            let now = Instant::now();
            if now >= until {
                return Ok(());
            }
            std::thread::sleep(self.poll_interval.min(until - now));
        }
    }

    fn commit(&mut self, id: &MessageRef) -> Result<(), InboundError> {
        let folder = self.processed.clone();
        let target = self.move_to(id, &folder)?;
        info!(message = %id, to = %target.display(), "processed");
        Ok(())
    }

    fn reject(&mut self, id: &MessageRef, reason: &str) -> Result<(), InboundError> {
        let folder = self.rejected.clone();
        let target = self.move_to(id, &folder)?;
        warn!(message = %id, to = %target.display(), reason, "rejected");
        Ok(())
    }

    fn rewind(&mut self) {
        self.handed.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::envelope::Envelope;
    use crate::mail::outbound::maildir::MaildirOutbox;
    use crate::mail::outbound::{AutoSubmitted, Outbox, OutgoingMail, render};
    use std::time::SystemTime;

    /// A fresh directory under the system temp dir, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(tag: &str) -> Self {
            let nanos = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap()
                .as_nanos();
            let p =
                std::env::temp_dir().join(format!("dipjudge-{tag}-{}-{nanos}", std::process::id()));
            std::fs::create_dir_all(&p).unwrap();
            TempDir(p)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn mail(n: u32) -> OutgoingMail {
        OutgoingMail {
            from: "judge@example.test".into(),
            to: vec![format!("player{n}@example.test")],
            subject: format!("Bulletin {n}"),
            body: format!("Spring 190{n} results\n"),
            auto_submitted: AutoSubmitted::Generated,
            message_id: format!("bulletin-{n}@judge.example.test"),
            in_reply_to: None,
            extra_headers: vec![],
            attachments: vec![],
        }
    }

    #[test]
    fn outbox_to_inbox_round_trip() {
        let tmp = TempDir::new("maildir-roundtrip");
        let mut outbox = MaildirOutbox::new(&tmp.0);
        let rendered: Vec<_> = (1..=3)
            .map(|n| render(&mail(n), SystemTime::UNIX_EPOCH).unwrap())
            .collect();
        assert!(outbox.send_batch(&rendered).iter().all(Result::is_ok));
        assert_eq!(std::fs::read_dir(tmp.0.join("new")).unwrap().count(), 3);
        assert_eq!(std::fs::read_dir(tmp.0.join("tmp")).unwrap().count(), 0);

        let mut inbox = MaildirInbox::new(&tmp.0).with_poll_interval(Duration::from_millis(10));
        let got = inbox.fetch_new().unwrap();
        assert_eq!(got.len(), 3);
        let subjects: Vec<_> = got
            .iter()
            .map(|m| Envelope::parse(&m.bytes).unwrap().subject)
            .collect();
        assert_eq!(subjects, ["Bulletin 1", "Bulletin 2", "Bulletin 3"]);
        // Handed out once only, until rewound.
        assert!(inbox.fetch_new().unwrap().is_empty());
        inbox.rewind();
        assert_eq!(inbox.fetch_new().unwrap().len(), 3);

        let (first, rest) = got.split_first().unwrap();
        inbox.commit(&first.id).unwrap();
        inbox.reject(&rest[0].id, "test").unwrap();
        let processed: Vec<_> = std::fs::read_dir(tmp.0.join(".Processed/cur"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(processed.len(), 1);
        assert!(processed[0].ends_with(":2,S"), "{processed:?}");
        assert_eq!(
            std::fs::read_dir(tmp.0.join(".Rejected/cur"))
                .unwrap()
                .count(),
            1
        );
        inbox.rewind();
        assert_eq!(inbox.fetch_new().unwrap().len(), 1);
        // Committing twice names the missing file.
        let err = inbox.commit(&first.id).unwrap_err();
        assert!(err.to_string().starts_with("Maildir "), "{err}");
    }

    #[test]
    fn wait_returns_at_the_deadline_or_on_new_mail() {
        let tmp = TempDir::new("maildir-wait");
        let mut inbox = MaildirInbox::new(&tmp.0).with_poll_interval(Duration::from_millis(10));
        let start = Instant::now();
        inbox.wait(start + Duration::from_millis(50)).unwrap();
        let waited = start.elapsed();
        assert!(waited >= Duration::from_millis(50), "{waited:?}");
        assert!(inbox.fetch_new().unwrap().is_empty());

        std::fs::create_dir_all(tmp.0.join("cur")).unwrap();
        std::fs::write(
            tmp.0.join("cur/1.x.host:2,S"),
            b"From: a@example.test\r\n\r\nseen\r\n",
        )
        .unwrap();
        std::fs::write(
            tmp.0.join("cur/2.x.host:2,"),
            b"From: b@example.test\r\n\r\nunseen\r\n",
        )
        .unwrap();
        let start = Instant::now();
        inbox.wait(start + Duration::from_secs(10)).unwrap();
        assert!(start.elapsed() < Duration::from_secs(5));
        let got = inbox.fetch_new().unwrap();
        assert_eq!(got.len(), 1, "only the unseen file");
        let foreign = MessageRef::Imap {
            mailbox: "INBOX".into(),
            uidvalidity: 1,
            uid: 1,
        };
        assert!(matches!(
            inbox.commit(&foreign),
            Err(InboundError::UnknownMessage { .. })
        ));
    }
}
