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
    /// Files over this size are not read whole (their header block only); a fetched batch
    /// holds at most this many bytes (and at least one message).
    max_message_bytes: u64,
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
            max_message_bytes: crate::mail::envelope::DEFAULT_MAX_MESSAGE_BYTES as u64,
            handed: HashSet::new(),
        }
    }

    /// Sets the size over which a file is not read whole, which also bounds a batch.
    pub fn with_max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = u64::try_from(bytes).unwrap_or(u64::MAX).max(1);
        self
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
    /// Messages not handed out yet, oldest first: at most a batch, and at most
    /// `max_message_bytes` in all (at least one message). A file over `max_message_bytes`
    /// is not read whole: its size is taken from the file first, and only its header block
    /// is read, so memory stays bounded whatever the inbox holds.
    fn fetch_new(&mut self) -> Result<Vec<RawMessage>, InboundError> {
        let mut out = Vec::new();
        let mut held: u64 = 0;
        let limit = self.max_message_bytes;
        for path in self.waiting()? {
            if out.len() >= self.batch {
                break;
            }
            if self.handed.contains(&path) {
                continue;
            }
            let file = match std::fs::File::open(&path) {
                Ok(f) => f,
                // Another reader moved it meanwhile.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io(&path)(e)),
            };
            let size = file.metadata().map_err(io(&path))?.len();
            let cost = size.min(super::HEADER_BYTES as u64);
            let cost = if size > limit { cost } else { size };
            if !out.is_empty() && held.saturating_add(cost) > limit {
                break;
            }
            // Read no more than the limit and a byte, whatever the size said: a file that
            // grew since is over the limit all the same.
            let wanted = if size > limit {
                super::HEADER_BYTES as u64
            } else {
                limit.saturating_add(1)
            };
            let mut bytes = Vec::with_capacity(usize::try_from(size.min(wanted)).unwrap_or(0) + 1);
            std::io::Read::read_to_end(&mut std::io::Read::take(file, wanted), &mut bytes)
                .map_err(io(&path))?;
            let oversize = if size > limit || bytes.len() as u64 > limit {
                bytes.truncate(super::HEADER_BYTES);
                let head = super::header_block(&bytes).len();
                bytes.truncate(head);
                Some(size.max(limit.saturating_add(1)))
            } else {
                None
            };
            held = held.saturating_add(bytes.len() as u64);
            self.handed.insert(path.clone());
            out.push(RawMessage {
                id: MessageRef::Maildir { path },
                bytes,
                oversize,
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

    /// A file over the limit is not read whole: its size is taken first, its header block
    /// read and its size reported; a batch holds at most the limit in bytes (at least one
    /// message).
    #[test]
    fn a_file_over_the_limit_is_read_by_its_header_only_and_batches_are_bounded() {
        let tmp = TempDir::new("maildir-oversize");
        std::fs::create_dir_all(tmp.0.join("new")).unwrap();
        let big = format!(
            "From: big@example.test\r\nSubject: photos\r\n\r\n{}",
            "x".repeat(5000)
        );
        std::fs::write(tmp.0.join("new/1.big"), &big).unwrap();
        for i in 2..=4 {
            std::fs::write(
                tmp.0.join(format!("new/{i}.small")),
                format!("From: s{i}@example.test\r\n\r\n{}\r\n", "y".repeat(300)),
            )
            .unwrap();
        }
        let mut inbox = MaildirInbox::new(&tmp.0).with_max_message_bytes(1000);
        let first = inbox.fetch_new().unwrap();
        // The big file costs its header block; two small ones fit beside it, not three.
        assert_eq!(first.len(), 3, "{first:?}");
        assert_eq!(first[0].oversize, Some(big.len() as u64));
        assert_eq!(
            first[0].bytes,
            b"From: big@example.test\r\nSubject: photos\r\n\r\n"
        );
        assert!(first[1..].iter().all(|m| m.oversize.is_none()));
        let second = inbox.fetch_new().unwrap();
        assert_eq!(second.len(), 1);
        assert!(inbox.fetch_new().unwrap().is_empty());
        // A single message over the limit still comes, one per batch.
        let mut tiny = MaildirInbox::new(&tmp.0).with_max_message_bytes(100);
        let all: Vec<usize> = (0..5).map(|_| tiny.fetch_new().unwrap().len()).collect();
        assert_eq!(all, [1, 1, 1, 1, 0]);
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
