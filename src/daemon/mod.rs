//! The daemon: wires the mail layer to the judge. One pass ([`Daemon::process_once`]) reads
//! new mail one fetched batch at a time, hands each message to [`Judge::handle`] (one
//! transaction), files the batch away in the mailbox only after those transactions
//! committed, ticks the clock, and gives the outbox's next batch to the sender thread, which
//! delivers it while the next inbox batch is read; the pass ends by draining the outbox.
//! [`Daemon::run`] repeats passes until SIGTERM or SIGINT. It never decides a game rule.
//!
//! Crash safety, step by step (a SIGKILL may land anywhere):
//! - a message is committed in the mailbox (flagged and moved) only after its transaction;
//!   the handled messages of a fetched batch are committed together after the last of their
//!   transactions (one `UID STORE` and one `UID MOVE` instead of two per message); killed in
//!   between, they are fetched again and their keys make them no-ops;
//! - the IMAP cursor is stored in the judge's key/value table after the messages it covers
//!   are committed, so a restart resumes (a stale cursor only costs a search);
//! - outgoing mail lives in SQLite; each attempt is counted *before* it is made, and a mail
//!   is marked sent as soon as the server accepted it, before the next goes out (the sender
//!   thread marks it on a connection of its own; a pass always collects its last batch
//!   before it returns, also on a stop or an error). Killed between the two, only the mails
//!   in flight are sent again: a duplicate, never a loss;
//! - one daemon per database ([`InstanceLock`]): a second `run` or `process` refuses to
//!   start (or waits), so no two read the same mail or send the same outbox.
//!
//! Failure isolation: each attempt at a message is counted in a transaction of its own
//! before the judge reads it (a message that fails, panics or kills the judge is set aside
//! after `max_message_attempts`, its sender and its game's master told); a message over
//! `max_message_bytes` is never read whole (one line answers it); each due game ticks on
//! its own (the judge suspends one that cannot be read or processed); a step of a pass that
//! fails is logged and the pass goes on to tick and drain the outbox.
//!
//! Mail the guard silences (bounces, auto-replies, lists, the judge's own mail) is committed
//! without being handled: it is logged and never answered, and its commands are not read.
//! Its key is recorded with the outcome (`silenced: …`), so it too is processed once.
//! Replies to one address are rate-limited ([`DaemonSection::reply_rate_limit`] per window);
//! a reply over the limit waits in the outbox for a later pass (nothing is dropped; the
//! limit bounds what a mail loop can make the judge send). The limiter reads the replies
//! of the current window back from the outbox when the process starts, so a loop that
//! crashes or restarts the judge cannot reset it.

pub mod config;
pub mod script;
pub mod secret;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context;
use chrono::{DateTime, Utc};
use tracing::{debug, error, info, warn};

pub use config::{Config, DaemonSection};

use crate::judge::{Handled, Judge, Unread};
use crate::mail::inbound::imap::ImapCursor;
use crate::mail::reader::{ReadMail, Reader};
use crate::mail::{
    AutoSubmitted, EnvelopeError, Inbox, MessageRef, Outbox, OutgoingMail, RateLimiter, RawMessage,
    RenderedMail, render, silence_reason_for,
};
use crate::store::{QueuedMail, Store};

/// The key of the IMAP cursor in the judge's key/value table.
pub const CURSOR_KEY: &str = "daemon.imap_cursor";

/// Longest single wait, so a signal is noticed within about a second.
const WAIT_SLICE: Duration = Duration::from_secs(1);

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassReport {
    /// Messages fetched from the inbox.
    pub fetched: usize,
    /// Messages handled (applied).
    pub applied: usize,
    /// Messages whose key was seen before (no-ops).
    pub duplicates: usize,
    /// Messages the guard silenced (committed, not handled).
    pub silenced: usize,
    /// Unparsable messages moved to the rejected folder.
    pub rejected: usize,
    /// Messages whose transaction failed (left for the next pass).
    pub failed: usize,
    /// Messages set aside after failing `max_message_attempts` times (answered, moved to
    /// the rejected folder, never read again).
    pub set_aside: usize,
    /// Games the tick acted on.
    pub ticked: usize,
    /// Games suspended in this pass: they could not be read or processed.
    pub suspended: usize,
    /// Mails the server accepted.
    pub sent: usize,
    /// Mails that failed for now (stay queued).
    pub deferred: usize,
    /// Replies held back by the rate limiter (stay queued).
    pub rate_limited: usize,
    /// Mails given up (permanent failure or too many attempts).
    pub given_up: usize,
}

/// The daemon over one judge, one inbox and one outbox.
pub struct Daemon {
    judge: Judge,
    config: Config,
    inbox: Box<dyn Inbox>,
    /// Reads each mail on a thread of its own, within a time bound.
    reader: Reader,
    /// The outbox, on its own thread.
    sender: SendWorker,
    /// The ids of the batch the sender thread is delivering.
    in_flight: Option<Vec<i64>>,
    /// Replies the rate limiter held back in this pass (counted once each).
    held: std::collections::HashSet<i64>,
    limiter: RateLimiter,
    /// Whether the limiter has read back the replies sent before this process started.
    limiter_loaded: bool,
    /// How the judge names its mail (its Message-IDs, read back from delivery reports).
    ids: crate::judge::MessageIds,
    /// No batch is taken before this instant: the last batch failed whole, for now (the
    /// transport is down). Time as the passes give it (`now`), never the clock.
    send_retry_at: Option<DateTime<Utc>>,
    /// Batches failed whole in a row (the back-off doubles with each).
    send_failures: u32,
    stop: Arc<AtomicBool>,
    /// This process's hold on the database: declared last, so dropped last, after the
    /// database connections (closing a file of the database while SQLite holds locks on it
    /// would drop them).
    _lock: InstanceLock,
}

/// The longest back-off after a batch failed whole (the transport is down).
const MAX_SEND_BACKOFF_SECS: i64 = 300;

/// The longest a mail whose recipient refused it for now waits for its next attempt.
const MAX_MAIL_BACKOFF_SECS: i64 = 3600;

/// The back-off after `failures` failures in a row: 1 s doubling up to `max` seconds.
fn backoff(failures: i64, max: i64) -> chrono::Duration {
    let exp = u32::try_from(failures.saturating_sub(1).clamp(0, 20)).unwrap_or(20);
    chrono::Duration::seconds(2i64.saturating_pow(exp).min(max))
}

/// A batch taken off the outbox: the rows' ids and their rendered mail, in order.
struct Batch {
    ids: Vec<i64>,
    rendered: Vec<RenderedMail>,
    /// The queue may hold more than was looked at.
    more: bool,
}

/// A batch handed to the sender thread: the outbox rows' ids, their mail, and the instant
/// to record as the time they were sent.
struct SendJob {
    ids: Vec<i64>,
    mails: Vec<RenderedMail>,
    now: DateTime<Utc>,
}

/// What the sender thread did with a batch: the server's answer for each mail, and whether
/// the thread itself recorded the mail as sent.
struct SendOutcome {
    results: Vec<Result<(), crate::mail::SendError>>,
    marked: Vec<bool>,
}

/// The outbox on a thread of its own: [`SendWorker::start`] hands a batch over and returns,
/// [`SendWorker::finish`] waits for its results. One batch at a time.
///
/// The thread has a connection of its own to the database and marks each mail sent the
/// moment the server has taken it, before the next goes out: a kill in the middle of a
/// batch sends again at most the mails in flight on the open connections, not the batch.
struct SendWorker {
    jobs: Option<std::sync::mpsc::Sender<SendJob>>,
    results: std::sync::mpsc::Receiver<SendOutcome>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SendWorker {
    fn new(mut outbox: Box<dyn Outbox>, database: std::path::PathBuf) -> SendWorker {
        let (jobs, job_rx) = std::sync::mpsc::channel::<SendJob>();
        let (result_tx, results) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("outbox".into())
            .spawn(move || {
                // Without its own connection the thread still sends; the daemon then marks
                // the batch when it collects it (a kill in between sends it again).
                let store = match Store::open(&database) {
                    Ok(s) => Some(s),
                    Err(e) => {
                        error!(error = %e, "the outbox thread cannot open the database: sent mail is recorded per batch");
                        None
                    }
                };
                let store = std::sync::Mutex::new(store);
                for job in job_rx {
                    let marked: Vec<AtomicBool> =
                        job.ids.iter().map(|_| AtomicBool::new(false)).collect();
                    let mark = |i: usize| {
                        let (Some(id), Some(flag)) = (job.ids.get(i), marked.get(i)) else {
                            return;
                        };
                        let Ok(mut guard) = store.lock() else {
                            return;
                        };
                        let Some(st) = guard.as_mut() else {
                            return;
                        };
                        match st.transaction(|tx| tx.mark_sent(*id, job.now)) {
                            Ok(()) => flag.store(true, Ordering::SeqCst),
                            Err(e) => {
                                error!(id, error = %e, "a sent mail cannot be recorded now; the daemon tries again")
                            }
                        }
                    };
                    let results = outbox.send_batch_reporting(&job.mails, &mark);
                    let marked = marked.iter().map(|f| f.load(Ordering::SeqCst)).collect();
                    if result_tx.send(SendOutcome { results, marked }).is_err() {
                        break;
                    }
                }
            })
            .ok();
        if thread.is_none() {
            error!("cannot start the outbox thread: no mail will be sent");
        }
        SendWorker {
            jobs: Some(jobs),
            results,
            thread,
        }
    }

    fn start(&mut self, job: SendJob) {
        // A send error means the thread is gone; `finish` reports every mail deferred.
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }

    /// The results of the batch handed over last (`n` mails). If the thread is gone (or
    /// breaks the one-result-per-mail contract), every mail failed for now: it stays queued.
    fn finish(&mut self, n: usize) -> SendOutcome {
        let why = match self.results.recv() {
            Ok(r) if r.results.len() == n && r.marked.len() == n => return r,
            Ok(r) => format!(
                "the outbox answered {} results for {n} mails",
                r.results.len()
            ),
            Err(_) => "the outbox thread is gone".to_string(),
        };
        error!(reason = %why, "the mail stays queued");
        SendOutcome {
            results: (0..n)
                .map(|_| {
                    Err(crate::mail::SendError::Temporary {
                        message_id: String::new(),
                        reason: why.clone(),
                    })
                })
                .collect(),
            marked: vec![false; n],
        }
    }
}

impl Drop for SendWorker {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Another judge process holds the database's lock ([`InstanceLock`]): this one did not
/// start. `dipjudge run` exits with status 3 on it.
#[derive(Debug, thiserror::Error)]
#[error(
    "another dipjudge (run or process) is already working on {} (it holds a lock on it); a second one would read the same mail and send the same replies twice, so this one does not start. Stop the other one, or pass --wait to wait for it",
    database.display()
)]
pub struct AlreadyRunning {
    /// The database.
    pub database: std::path::PathBuf,
}

/// The lock that makes one judge process the only one on its database: a second `run` or
/// `process` would read the same mail and send the same replies again. An OS lock
/// (`flock`) on the database file itself, held for the daemon's life (the OS drops it when
/// the process ends, also on a kill). A lock on a file of its own could be deleted from
/// under it, and the next process would lock a new file of that name (issue 36: with
/// `judge.db.lock` deleted, two passes answered 260 of 300 mails twice); the database
/// cannot be deleted without losing the judge. SQLite locks the file with POSIX record
/// locks, which a whole-file `flock` does not touch; the file is kept open until the
/// daemon's last database connection is closed (closing any handle to a file drops the
/// POSIX locks the process holds on it).
#[derive(Debug)]
pub struct InstanceLock {
    _file: std::fs::File,
}

impl InstanceLock {
    /// Takes the lock of `database`; with `wait`, waits for another process to let it go,
    /// otherwise refuses at once with a sentence.
    pub fn take(database: &std::path::Path, wait: bool) -> anyhow::Result<InstanceLock> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .mode(0o600)
            .open(database)
            .with_context(|| format!("while opening {} to lock it", database.display()))?;
        if wait {
            file.lock()
                .with_context(|| format!("while waiting for the lock on {}", database.display()))?;
            return Ok(InstanceLock { _file: file });
        }
        match file.try_lock() {
            Ok(()) => Ok(InstanceLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(anyhow::Error::new(AlreadyRunning {
                database: database.to_path_buf(),
            })),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("while locking {}", database.display()))
            }
        }
    }
}

/// The judge on the configured database, without the daemon's lock or transports: what
/// reading commands (`map`, `dump-state`) and the operator's (`unsuspend`) need while a
/// daemon runs. `seed` overrides the configured seed; without either, the OS gives one.
pub fn open_judge(config: &Config, seed: Option<u64>) -> anyhow::Result<Judge> {
    let seed = match (seed, config.judge.seed) {
        (Some(s), _) | (None, Some(s)) => s,
        (None, None) => os_seed()?,
    };
    let db = config.database();
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("while creating {}", dir.display()))?;
    }
    let store = Store::open(&db).with_context(|| format!("while opening {}", db.display()))?;
    let mut judge_config = config.judge_config(seed);
    if judge_config.remember_passwords {
        // Without its secret the judge still works: it remembers passwords in memory only.
        match secret::load_or_create(&db) {
            Ok(key) => judge_config.password_key = Some(key),
            Err(e) => {
                error!(
                    error = format!("{e:#}"),
                    "the judge's secret cannot be had: every process checks each password with argon2id once more"
                )
            }
        }
    }
    Judge::new(store, judge_config).context("while starting the judge")
}

/// Eight bytes from the OS for the judge's seed.
pub fn os_seed() -> anyhow::Result<u64> {
    getrandom::u64().map_err(|e| anyhow::anyhow!("no randomness from the OS for a seed: {e}"))
}

fn read_cursor(s: &str) -> Option<ImapCursor> {
    let mut parts = s.rsplitn(3, ' ');
    let last_uid = parts.next()?.parse().ok()?;
    let uidvalidity = parts.next()?.parse().ok()?;
    let mailbox = parts.next()?.to_string();
    Some(ImapCursor {
        mailbox,
        uidvalidity,
        last_uid,
    })
}

fn write_cursor(c: &ImapCursor) -> String {
    format!("{} {} {}", c.mailbox, c.uidvalidity, c.last_uid)
}

fn system_time(t: DateTime<Utc>) -> SystemTime {
    let secs = t.timestamp();
    if secs >= 0 {
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs.unsigned_abs())
    } else {
        SystemTime::UNIX_EPOCH
    }
}

impl Daemon {
    /// Opens the database and builds the transports from `config`. `seed` overrides the
    /// configured seed; without either, the OS gives one. Refuses to start while another
    /// daemon works on the same database ([`InstanceLock`]).
    pub fn open(config: Config, seed: Option<u64>) -> anyhow::Result<Daemon> {
        Daemon::with_transports(config, seed, None, None)
    }

    /// As [`Daemon::open`], waiting for another daemon on the database to end first.
    pub fn open_waiting(config: Config, seed: Option<u64>) -> anyhow::Result<Daemon> {
        Daemon::build(config, seed, None, None, true)
    }

    /// As [`Daemon::open`], with an inbox or outbox other than the configured ones (tests).
    pub fn with_transports(
        config: Config,
        seed: Option<u64>,
        inbox: Option<Box<dyn Inbox>>,
        outbox: Option<Box<dyn Outbox>>,
    ) -> anyhow::Result<Daemon> {
        Daemon::build(config, seed, inbox, outbox, false)
    }

    fn build(
        config: Config,
        seed: Option<u64>,
        inbox: Option<Box<dyn Inbox>>,
        outbox: Option<Box<dyn Outbox>>,
        wait: bool,
    ) -> anyhow::Result<Daemon> {
        let db = config.database();
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("while creating {}", dir.display()))?;
        }
        let lock = InstanceLock::take(&db, wait)?;
        let mut judge = open_judge(&config, seed)?;
        let cursor = if config.is_imap() {
            judge
                .get_value(CURSOR_KEY)
                .context("while reading the IMAP cursor")?
                .as_deref()
                .and_then(read_cursor)
        } else {
            None
        };
        let ids = judge
            .message_ids()
            .context("while reading the judge's key for its Message-IDs")?;
        if config.daemon.max_send_attempts.is_some() {
            warn!(
                "daemon.max_send_attempts is no longer read: mail that fails for now is tried for daemon.max_queue_days ({} days), then given up",
                config.daemon.max_queue_days
            );
        }
        Ok(Daemon {
            inbox: inbox.unwrap_or_else(|| config.inbox(cursor)),
            reader: Reader::new(config.parse_limits()),
            sender: SendWorker::new(outbox.unwrap_or_else(|| config.outbox()), db),
            in_flight: None,
            held: std::collections::HashSet::new(),
            limiter: RateLimiter::new(
                config.daemon.reply_rate_limit,
                Duration::from_secs(config.daemon.reply_rate_window_secs),
            ),
            limiter_loaded: false,
            ids,
            send_retry_at: None,
            send_failures: 0,
            stop: Arc::new(AtomicBool::new(false)),
            judge,
            config,
            _lock: lock,
        })
    }

    /// The judge (tests, `dump-state`).
    pub fn judge(&mut self) -> &mut Judge {
        &mut self.judge
    }

    /// The flag that stops [`Daemon::run`] and cuts a pass short between two steps.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// One pass: all new mail, the clock, the outbox.
    pub fn process_once(&mut self, now: DateTime<Utc>) -> anyhow::Result<PassReport> {
        let started = Instant::now();
        let mut report = PassReport::default();
        self.held.clear();
        let result = self.pass(now, &mut report);
        // Whatever happened, the batch the sender thread took is recorded before returning
        // (a stop or an error must not leave sent mail unmarked, to be sent again).
        let collected = self.collect_sent(now, &mut report);
        // For `GET /health` and `/metrics`: when the pass ended (the machine's clock, not
        // the pass's `now`, which a test or `process --now` may set) and how long it took.
        if let Err(e) = self.judge.record_pass(Utc::now(), started.elapsed()) {
            warn!(error = %e, "the pass cannot be recorded now");
        }
        result.and(collected).map(|()| report)
    }

    /// The pass's steps. A step that fails (the database cannot be written now, say) is
    /// logged and the pass goes on: the clock still ticks and the outbox is still drained,
    /// so one failure never holds back the mail already queued. The first error is returned
    /// at the end.
    fn pass(&mut self, now: DateTime<Utc>, report: &mut PassReport) -> anyhow::Result<()> {
        let mut first_error: Option<anyhow::Error> = None;
        let keep = |r: anyhow::Result<()>, first: &mut Option<anyhow::Error>| {
            if let Err(e) = r {
                error!(
                    error = format!("{e:#}"),
                    "a step of the pass failed; the pass goes on"
                );
                first.get_or_insert(e);
            }
        };
        // Whatever was handed out but not committed last time is fetched again.
        self.inbox.rewind();
        // One fetched batch at a time. After each, the clock, and the outbox on the sender
        // thread: under a steady stream of mail the replies to one batch go out while the
        // next is read, instead of after the inbox is empty.
        loop {
            let fetched = report.fetched;
            let more = match self.read_batch(now, report) {
                Ok(more) => more,
                Err(e) => {
                    keep(Err(e), &mut first_error);
                    false
                }
            };
            if self.stopping() {
                break;
            }
            if report.fetched > fetched {
                keep(self.tick(now, report), &mut first_error);
                keep(self.start_sending(now, report), &mut first_error);
            }
            if !more || self.stopping() {
                break;
            }
        }
        if !self.stopping() {
            keep(self.tick(now, report), &mut first_error);
            keep(self.drain_outbox(now, report), &mut first_error);
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Ticks the clock: each due game on its own (a game that fails is tried again or
    /// suspended by the judge; the others go on).
    fn tick(&mut self, now: DateTime<Utc>, report: &mut PassReport) -> anyhow::Result<()> {
        let t = self
            .judge
            .tick_games(now)
            .context("while ticking the clock")?;
        report.ticked += t.acted;
        report.suspended += t.suspended.len();
        Ok(())
    }

    /// Reads and handles one fetched batch of new mail, files it, and stores the cursor.
    /// True when the batch was gone through (more mail may be waiting); a mail that failed
    /// is left in the mailbox for the next pass and the mail behind it goes on, but the
    /// mail behind it from the same sender waits with it (a sender's mails are read in the
    /// order they came).
    fn read_batch(&mut self, now: DateTime<Utc>, report: &mut PassReport) -> anyhow::Result<bool> {
        let batch = match self.inbox.fetch_new() {
            Ok(b) => b,
            Err(e) => {
                warn!(error = %e, "cannot read the mailbox now");
                return Ok(false);
            }
        };
        if batch.is_empty() {
            return Ok(false);
        }
        // The cursor advances over the mail filed away, but never past a mail left behind:
        // the inbox is searched again from the cursor.
        let mut cursor: Option<ImapCursor> = None;
        let mut held_back = false;
        let mut note = |id: &MessageRef, held_back: bool| {
            if held_back {
                return;
            }
            if let Some(c) = ImapCursor::of(id)
                && cursor
                    .as_ref()
                    .is_none_or(|old| old.uidvalidity != c.uidvalidity || old.last_uid < c.last_uid)
            {
                cursor = Some(c);
            }
        };
        let mut handled: Vec<MessageRef> = Vec::new();
        let mut failed_senders: std::collections::HashSet<String> =
            std::collections::HashSet::new();
        let mut interrupted = false;
        for raw in batch {
            if self.stopping() {
                interrupted = true;
                break;
            }
            report.fetched += 1;
            let id = raw.id.clone();
            match self.one_message(raw, now, &mut failed_senders, report)? {
                Step::Committed => note(&id, held_back),
                Step::Handled => handled.push(id),
                Step::Kept | Step::Left => held_back = true,
                Step::Retry => {
                    interrupted = true;
                    break;
                }
            }
        }
        match self.inbox.commit_all(&handled) {
            Ok(()) => {
                // Filed together at the end: the cursor may only pass them if nothing was
                // left behind before the last of them (a batch is in the inbox's order).
                for id in &handled {
                    note(id, held_back);
                }
            }
            // The transactions stand; the messages come back and are no-ops then.
            Err(e) => {
                warn!(messages = handled.len(), error = %e, "cannot file the messages away now");
            }
        }
        if let Some(c) = cursor {
            self.judge
                .set_value(CURSOR_KEY, &write_cursor(&c))
                .context("while storing the IMAP cursor")?;
        }
        Ok(!interrupted)
    }

    /// One mail: counted, read within the budget, silenced or handled, filed. Its attempt is
    /// counted (and committed) before anything reads it, so a mail that crashes or hangs
    /// the judge is set aside after `max_message_attempts`, on a later start if need be.
    fn one_message(
        &mut self,
        raw: RawMessage,
        now: DateTime<Utc>,
        failed_senders: &mut std::collections::HashSet<String>,
        report: &mut PassReport,
    ) -> anyhow::Result<Step> {
        let RawMessage {
            id,
            bytes,
            oversize,
        } = raw;
        let bytes = Arc::new(bytes);
        if let Some(size) = oversize {
            let limit = u64::try_from(self.config.daemon.max_message_bytes).unwrap_or(u64::MAX);
            let why = Unread::Oversize { size, limit };
            return Ok(self.unread(&id, &bytes, why, None, now, report));
        }
        let max = i64::from(self.config.daemon.max_message_attempts);
        let reading = reading_key(&bytes);
        let tries = match self.judge.begin_reading(&reading) {
            Ok(n) => n,
            Err(e) => {
                report.failed += 1;
                error!(message = %id, error = %e, "cannot count an attempt at a message; it is left for the next pass");
                return Ok(Step::Retry);
            }
        };
        if tries > max {
            // Reading it ended the judge each time: set aside without reading it again.
            return Ok(self.set_aside_unread(&id, &bytes, &reading, tries - 1, now, report));
        }
        let read = match self.reader.read(&bytes) {
            Ok(read) => read,
            Err(e) => {
                report.failed += 1;
                let _ = self.judge.forgive_reading(&reading);
                error!(message = %id, error = %e, "a message cannot be read now; it is left for the next pass");
                return Ok(Step::Retry);
            }
        };
        let ReadMail {
            envelope: env,
            report: dsn,
        } = match read {
            Ok(read) => read,
            Err(EnvelopeError::TooBig(what)) => {
                let why = Unread::TooBig(what);
                return Ok(self.unread(&id, &bytes, why, Some(&reading), now, report));
            }
            Err(e) => {
                warn!(message = %id, reason = %e, "unparsable mail rejected");
                report.rejected += 1;
                if let Err(e) = self.judge.end_reading(&reading) {
                    warn!(message = %id, error = %e, "cannot forget a rejected mail's attempts now");
                }
                return Ok(self.file(&id, Some(&e.to_string())));
            }
        };
        let incoming = crate::mail::incoming(&env);
        if let Some(why) = silence_reason_for(&env, &self.config.judge.address) {
            // Recorded under its key like any message, so the record shows it arrived and
            // why nothing answered it; seen again (a restart before filing), it is a no-op. A
            // delivery report's permanent failures mark the seats at those addresses
            // bouncing.
            let outcome = format!("silenced: {why}");
            let bounces = self.bounces(dsn.as_ref());
            let recorded = if bounces.is_empty() {
                self.judge.record_unhandled(&incoming, &outcome, now)
            } else {
                info!(from = %env.from, key = %incoming.key, failed = bounces.len(), "a delivery report: the seats at its failed addresses are marked bouncing");
                self.judge.record_bounce(&incoming, &outcome, &bounces, now)
            };
            let first = match recorded.and_then(|first| {
                self.judge.end_reading(&reading)?;
                Ok(first)
            }) {
                Ok(first) => first,
                Err(e) => {
                    report.failed += 1;
                    error!(key = %incoming.key, error = %e, "a silenced message cannot be recorded now; it is tried again");
                    return Ok(Step::Retry);
                }
            };
            if first {
                info!(from = %env.from, key = %incoming.key, reason = %why, result = "silenced", "message");
                report.silenced += 1;
            } else {
                info!(from = %env.from, key = %incoming.key, result = "duplicate", "message");
                report.duplicates += 1;
            }
            return Ok(Step::Handled);
        }
        if failed_senders.contains(&incoming.from) {
            // Its sender's earlier mail failed in this pass: this one waits with it, untried.
            let _ = self.judge.forgive_reading(&reading);
            debug!(from = %incoming.from, key = %incoming.key, "left for the next pass behind its sender's failed mail");
            return Ok(Step::Left);
        }
        // The reading attempts become attempts at this mail, counted before the judge reads
        // its commands: a mail that kills the judge is counted too.
        let attempts = match self.judge.begin_attempt_read(&reading, &incoming) {
            Ok(n) => n,
            Err(e) => {
                report.failed += 1;
                error!(key = %incoming.key, error = %e, "cannot count an attempt at a message; it is left for the next pass");
                return Ok(Step::Retry);
            }
        };
        if attempts > max {
            // Tried `max` times already (each failed, or ended the judge).
            return Ok(self.set_aside(&id, &incoming, attempts - 1, now, report));
        }
        match self.judge.handle(&incoming, now) {
            Ok(Handled::Applied {
                queued,
                games,
                commands,
            }) => {
                info!(from = %incoming.from, games = ?games, commands, queued, result = "applied", "message");
                report.applied += 1;
            }
            Ok(Handled::Duplicate) => {
                info!(from = %incoming.from, key = %incoming.key, result = "duplicate", "message");
                report.duplicates += 1;
            }
            Err(e) => {
                report.failed += 1;
                if e.is_environmental() {
                    // The machine's trouble, not the mail's: the attempt does not count
                    // against it (if the database takes the correction now), and the rest of
                    // the batch would meet the same trouble.
                    let _ = self.judge.forgive_attempt(&incoming);
                    error!(from = %incoming.from, key = %incoming.key, error = %e, "message failed; it will be retried");
                    return Ok(Step::Retry);
                }
                if attempts >= max {
                    error!(from = %incoming.from, key = %incoming.key, error = %e, attempts, "message failed");
                    return Ok(self.set_aside(&id, &incoming, attempts, now, report));
                }
                error!(from = %incoming.from, key = %incoming.key, error = %e, attempts, "message failed; it is tried again at the next pass, and the mail behind it goes on");
                failed_senders.insert(incoming.from.clone());
                return Ok(Step::Left);
            }
        }
        Ok(Step::Handled)
    }

    /// A message the judge does not read (`why`: over the size limit, of which only its
    /// header block was fetched, or over a bound on reading one mail): its header block is
    /// read, its sender answered with one sentence saying why (unless the guard silences
    /// it), and it goes to the rejected folder. Its key is recorded, so a copy is a no-op;
    /// its reading attempts (`reading`) are forgotten.
    fn unread(
        &mut self,
        id: &MessageRef,
        bytes: &Arc<Vec<u8>>,
        why: Unread,
        reading: Option<&str>,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> Step {
        let reason = match why {
            Unread::Oversize { size, limit } => {
                format!("{size} bytes, over the limit of {limit}: not read")
            }
            Unread::TooBig(what) => format!("too big to read: {what}"),
        };
        let env = match self.reader.read_headers(bytes) {
            Ok(Ok(read)) => read.envelope,
            Ok(Err(e)) => {
                warn!(message = %id, reason = %reason, error = %e, "a mail not read, without a usable header, rejected");
                report.rejected += 1;
                if let Some(key) = reading
                    && let Err(e) = self.judge.end_reading(key)
                {
                    warn!(message = %id, error = %e, "cannot forget a rejected mail's attempts now");
                }
                return self.file(id, Some(&format!("{reason}; {e}")));
            }
            Err(e) => {
                report.failed += 1;
                error!(message = %id, error = %e, "a mail not read cannot be answered now; it is tried again");
                return Step::Retry;
            }
        };
        let incoming = crate::mail::incoming(&env);
        let silenced = silence_reason_for(&env, &self.config.judge.address).map(|w| w.to_string());
        match self
            .judge
            .answer_unread(&incoming, why, silenced.as_deref(), reading, now)
        {
            Ok(first) => {
                warn!(from = %env.from, key = %incoming.key, reason = %reason, first, "a mail set aside unread");
                report.rejected += 1;
                self.file(id, Some(&reason))
            }
            Err(e) => {
                report.failed += 1;
                error!(key = %incoming.key, error = %e, "a mail not read cannot be recorded now; it is tried again");
                Step::Retry
            }
        }
    }

    /// Sets a message aside after `attempts` failed attempts: the judge answers its sender
    /// and tells the master of its game; it goes to the rejected folder.
    fn set_aside(
        &mut self,
        id: &MessageRef,
        incoming: &crate::judge::Incoming,
        attempts: i64,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> Step {
        if let Err(e) = self.judge.set_aside(incoming, attempts, now) {
            report.failed += 1;
            error!(key = %incoming.key, error = %e, "a message cannot be set aside now; it is tried again");
            return Step::Retry;
        }
        report.set_aside += 1;
        error!(from = %incoming.from, key = %incoming.key, attempts, "message set aside after repeated failures (its sender and its game's master are told)");
        let reason = format!("the judge failed {attempts} times on it");
        self.file(id, Some(&reason))
    }

    /// Sets aside a message whose reading ended the judge `attempts` times: only its header
    /// block is read, to answer its sender (nothing in it is applied).
    fn set_aside_unread(
        &mut self,
        id: &MessageRef,
        bytes: &Arc<Vec<u8>>,
        reading: &str,
        attempts: i64,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> Step {
        let step = match self.reader.read_headers(bytes) {
            Ok(Ok(read)) => {
                let incoming = crate::mail::incoming(&read.envelope);
                self.set_aside(id, &incoming, attempts, now, report)
            }
            Ok(Err(e)) => {
                warn!(message = %id, reason = %e, attempts, "a mail that ended the judge, without a usable header, rejected");
                report.set_aside += 1;
                self.file(
                    id,
                    Some(&format!("the judge failed {attempts} times on it; {e}")),
                )
            }
            Err(e) => {
                report.failed += 1;
                error!(message = %id, error = %e, "a message cannot be set aside now; it is tried again");
                return Step::Retry;
            }
        };
        if !matches!(step, Step::Retry)
            && let Err(e) = self.judge.end_reading(reading)
        {
            warn!(message = %id, error = %e, "cannot forget a set-aside mail's attempts now");
        }
        step
    }

    /// Commits (or, with a reason, rejects) one message in the mailbox at once.
    fn file(&mut self, id: &MessageRef, reject: Option<&str>) -> Step {
        let result = match reject {
            None => self.inbox.commit(id),
            Some(reason) => self.inbox.reject(id, reason),
        };
        match result {
            Ok(()) => Step::Committed,
            Err(e) => {
                // The transaction stands; the message comes back and is a no-op then.
                warn!(message = %id, error = %e, "cannot file the message away now");
                Step::Kept
            }
        }
    }

    /// The permanent failures a delivery report lists, each with the outbox mail it names
    /// (by the Message-ID the judge gave it: none when it returns no id the judge made); none when there is no report.
    fn bounces(
        &self,
        report: Option<&crate::mail::dsn::DeliveryReport>,
    ) -> Vec<crate::judge::Bounced> {
        let Some(report) = report else {
            return Vec::new();
        };
        let mail = report
            .original_message_id
            .as_deref()
            .and_then(|id| self.ids.outbox_of(id));
        report
            .failures
            .iter()
            .map(|f| crate::judge::Bounced {
                recipient: f.recipient.clone(),
                reason: f.reason(),
                mail,
            })
            .collect()
    }

    fn outgoing(&self, m: &QueuedMail) -> OutgoingMail {
        outgoing_mail(m, &self.config.judge.address, &self.ids)
    }

    /// Reads the replies sent in the rate limiter's window back from the outbox, once per
    /// process: a loop that kills or restarts the judge cannot reset the limit.
    fn load_limiter(&mut self, now: DateTime<Utc>) -> anyhow::Result<()> {
        if self.limiter_loaded {
            return Ok(());
        }
        let window =
            chrono::Duration::from_std(self.limiter.window()).unwrap_or(chrono::Duration::MAX);
        let since = now
            .checked_sub_signed(window)
            .unwrap_or(DateTime::<Utc>::MIN_UTC);
        for (to, at) in self
            .judge
            .replies_sent_since(since)
            .context("while reading the replies sent recently")?
        {
            self.limiter.record(&to, system_time(at));
        }
        self.limiter_loaded = true;
        Ok(())
    }

    /// Takes the next batch off the outbox, in the order the queue drains (no origin's
    /// backlog ahead of the others' first mails): rate-limited replies are skipped (they
    /// stay queued), mail that cannot be rendered is given up. Nothing is counted here: an
    /// attempt counts once the transport answered for it. `None` when nothing can be sent
    /// now (nothing due, or the transport is in its back-off).
    fn next_batch(
        &mut self,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> anyhow::Result<Option<Batch>> {
        if let Some(at) = self.send_retry_at {
            // A clock set back by more than the back-off does not stop the mail for long.
            let wait = at - now;
            if wait > chrono::Duration::zero()
                && wait <= chrono::Duration::seconds(MAX_SEND_BACKOFF_SECS)
            {
                return Ok(None);
            }
        }
        self.load_limiter(now)?;
        let batch_size = self.config.daemon.send_batch;
        let date = system_time(now);
        self.limiter.prune(date);
        // Read past rate-limited replies so they cannot block the queue's head.
        let queued = self
            .judge
            .due_mail(now, batch_size.saturating_mul(4))
            .context("while reading the outbox")?;
        let full = queued.len() >= batch_size.saturating_mul(4);
        let mut ids = Vec::new();
        let mut rendered = Vec::new();
        for m in &queued {
            if rendered.len() >= batch_size {
                break;
            }
            if m.kind == crate::store::MailKind::Replied && !self.limiter.allow(&m.recipient, date)
            {
                debug!(id = m.id, to = %m.recipient, "reply held back by the rate limiter");
                if self.held.insert(m.id) {
                    report.rate_limited += 1;
                }
                continue;
            }
            let mut mail = self.outgoing(m);
            // A picture that is gone or cannot be drawn is left out (the judge says why):
            // it never holds back the text.
            for p in self
                .judge
                .mail_pictures(m)
                .context("while reading a mail's pictures")?
            {
                mail.attachments.push(crate::mail::Attachment {
                    filename: p.filename,
                    content_type: p.content_type.into(),
                    bytes: p.bytes.to_vec(),
                });
            }
            match render(&mail, date) {
                Ok(r) => {
                    ids.push(m.id);
                    rendered.push(r);
                }
                Err(e) => {
                    warn!(id = m.id, to = %m.recipient, error = %e, "mail cannot be rendered");
                    self.judge
                        .mark_failed(m.id, &e.to_string(), now)
                        .context("while giving up a mail")?;
                    report.given_up += 1;
                }
            }
        }
        if rendered.is_empty() {
            return Ok(None);
        }
        let more = rendered.len() >= batch_size || full;
        Ok(Some(Batch {
            ids,
            rendered,
            more,
        }))
    }

    /// Records what the transport said about each mail of a batch: sent (the sender thread
    /// recorded it already, unless it could not), failed for now, or refused for good (5xx:
    /// the recipient is marked as today). A mail failing for now is tried again: if others
    /// of its batch went out, after a back-off of its own (its recipient's trouble); if the
    /// whole batch failed, when the queue is tried again after the transport's back-off, in
    /// the queue's order. It is given up only once it has been failing for
    /// `max_queue_days`, never for a count of attempts. True when the transport works.
    fn record_results(
        &mut self,
        ids: &[i64],
        outcome: SendOutcome,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> anyhow::Result<bool> {
        let any_sent = outcome.results.iter().any(Result::is_ok);
        let days = self.config.daemon.max_queue_days;
        let lifetime = chrono::Duration::days(i64::from(days));
        let mut temporary = false;
        let mut last_error = String::new();
        for ((id, result), marked) in ids.iter().zip(outcome.results).zip(outcome.marked) {
            match result {
                Ok(()) => {
                    if !marked {
                        self.judge
                            .mark_sent(*id, now)
                            .context("while marking a mail sent")?;
                    }
                    report.sent += 1;
                }
                Err(e) if e.is_temporary() => {
                    temporary = true;
                    let reason = match &e {
                        crate::mail::SendError::Temporary { reason, .. } => reason.clone(),
                        other => other.to_string(),
                    };
                    // Its own back-off only when its batch went out: then it is this mail's
                    // trouble, and it must not hold up the queue.
                    let own = |attempts: i64| now + backoff(attempts, MAX_MAIL_BACKOFF_SECS);
                    let retry: Option<&dyn Fn(i64) -> DateTime<Utc>> =
                        if any_sent { Some(&own) } else { None };
                    let (attempts, since) = self
                        .judge
                        .record_failed_attempt(*id, now, &reason, retry)
                        .context("while recording a send attempt")?;
                    if now - since >= lifetime {
                        let why = crate::bulletin::notices::undelivered_in(days, &reason);
                        warn!(id, attempts, since = %since, "{why}");
                        self.judge
                            .mark_failed(*id, &why, now)
                            .context("while giving up a mail")?;
                        report.given_up += 1;
                    } else {
                        report.deferred += 1;
                        debug!(id, attempts, error = %e, "send failed for now");
                    }
                    last_error = reason;
                }
                Err(e) => {
                    warn!(id, error = %e, "mail refused for good");
                    // The server's words, for the master's notice of a bouncing seat.
                    let reason = match &e {
                        crate::mail::SendError::Permanent { reason, .. } => reason.clone(),
                        other => other.to_string(),
                    };
                    self.judge
                        .mark_refused(*id, &reason, now)
                        .context("while giving up a mail")?;
                    report.given_up += 1;
                }
            }
        }
        if temporary {
            // Mail failing for long is reported to its games' masters, once.
            let warn_after =
                chrono::Duration::hours(i64::from(self.config.daemon.delay_notice_hours));
            let told = self
                .judge
                .tell_of_delays(now - warn_after, lifetime, now)
                .context("while telling of delayed mail")?;
            if told > 0 {
                error!(mails = told, hours = self.config.daemon.delay_notice_hours, error = %last_error, "mail has not gone out for hours; the masters of its games are told");
            }
        }
        if temporary && !any_sent {
            self.send_failures = self.send_failures.saturating_add(1);
            let wait = backoff(i64::from(self.send_failures), MAX_SEND_BACKOFF_SECS);
            self.send_retry_at = Some(now + wait);
            let level_error = self.send_failures == 1 || self.send_failures.is_multiple_of(20);
            if level_error {
                error!(deferred = report.deferred, failures = self.send_failures, retry_in = %wait, error = %last_error, "sending fails; the mail stays queued and is tried again (given up only after {days} days)");
            } else {
                warn!(deferred = report.deferred, failures = self.send_failures, retry_in = %wait, error = %last_error, "sending fails; the mail stays queued");
            }
            return Ok(false);
        }
        if any_sent {
            if self.send_failures > 0 {
                info!(
                    failures = self.send_failures,
                    "sending works again; the queue drains"
                );
            }
            self.send_failures = 0;
            self.send_retry_at = None;
        }
        Ok(true)
    }

    /// Waits for the batch the sender thread is delivering, if any, and records it.
    fn collect_sent(&mut self, now: DateTime<Utc>, report: &mut PassReport) -> anyhow::Result<()> {
        if let Some(ids) = self.in_flight.take() {
            let outcome = self.sender.finish(ids.len());
            self.record_results(&ids, outcome, now, report)?;
        }
        Ok(())
    }

    /// Hands the next outbox batch to the sender thread and returns at once: the server
    /// takes the mail while the next inbox batch is read. The batch is recorded by the
    /// next [`Daemon::collect_sent`].
    fn start_sending(&mut self, now: DateTime<Utc>, report: &mut PassReport) -> anyhow::Result<()> {
        self.collect_sent(now, report)?;
        if self.stopping() {
            return Ok(());
        }
        if let Some(batch) = self.next_batch(now, report)? {
            self.sender.start(SendJob {
                ids: batch.ids.clone(),
                mails: batch.rendered,
                now,
            });
            self.in_flight = Some(batch.ids);
        }
        Ok(())
    }

    /// Sends until the outbox is empty, a temporary failure calls for a back-off, or the
    /// daemon is stopping.
    fn drain_outbox(&mut self, now: DateTime<Utc>, report: &mut PassReport) -> anyhow::Result<()> {
        self.collect_sent(now, report)?;
        loop {
            if self.stopping() {
                return Ok(());
            }
            let Some(batch) = self.next_batch(now, report)? else {
                return Ok(());
            };
            self.sender.start(SendJob {
                ids: batch.ids.clone(),
                mails: batch.rendered,
                now,
            });
            let outcome = self.sender.finish(batch.ids.len());
            if !self.record_results(&batch.ids, outcome, now, report)? || !batch.more {
                return Ok(());
            }
        }
    }

    /// Passes until the stop flag is set (SIGTERM / SIGINT when `signals` is true): each
    /// pass, then a wait for new mail bounded by the next deadline and the poll interval.
    pub fn run(&mut self, signals: bool) -> anyhow::Result<()> {
        if signals {
            for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
                // A second signal while stopping ends the process at once.
                signal_hook::flag::register_conditional_shutdown(sig, 1, self.stop_flag())
                    .context("while installing a signal handler")?;
                signal_hook::flag::register(sig, self.stop_flag())
                    .context("while installing a signal handler")?;
            }
        }
        let poll = Duration::from_secs(self.config.daemon.poll_interval_secs);
        info!(judge = %self.config.judge.name, address = %self.config.judge.address, "daemon started");
        let mut error_backoff = Duration::from_secs(1);
        while !self.stopping() {
            let now = Utc::now();
            let busy;
            match self.process_once(now) {
                Ok(r) => {
                    error_backoff = Duration::from_secs(1);
                    // Progress made: look again at once (a failing message is no progress).
                    busy = r.applied + r.duplicates + r.silenced + r.rejected > 0;
                    if r != PassReport::default() {
                        debug!(report = ?r, "pass");
                    }
                }
                Err(e) => {
                    error!(error = format!("{e:#}"), "pass failed; retrying");
                    self.sleep(error_backoff);
                    error_backoff = (error_backoff * 2).min(Duration::from_secs(60));
                    continue;
                }
            }
            if busy || self.stopping() {
                continue;
            }
            let mut until = Instant::now() + poll;
            if let Some(next) = self.judge.next_event().ok().flatten() {
                let secs = (next - Utc::now()).num_milliseconds().max(0);
                let at = Instant::now() + Duration::from_millis(secs.unsigned_abs());
                until = until.min(at);
            }
            let next_send = [
                self.send_retry_at,
                self.judge.next_mail_attempt().ok().flatten(),
            ];
            for at in next_send.into_iter().flatten() {
                let secs = (at - Utc::now()).num_milliseconds().max(0);
                until = until.min(Instant::now() + Duration::from_millis(secs.unsigned_abs()));
            }
            self.wait_until(until);
        }
        info!("daemon stopped");
        Ok(())
    }

    fn wait_until(&mut self, until: Instant) {
        while !self.stopping() {
            let now = Instant::now();
            if now >= until {
                return;
            }
            let slice = until.min(now + WAIT_SLICE);
            if let Err(e) = self.inbox.wait(slice) {
                warn!(error = %e, "waiting for mail failed");
                self.sleep(Duration::from_secs(1));
                return;
            }
            if Instant::now() < slice {
                // Woken before the slice ended: new mail may be there.
                return;
            }
        }
    }

    fn sleep(&self, d: Duration) {
        let end = Instant::now() + d;
        while !self.stopping() && Instant::now() < end {
            std::thread::sleep(
                end.saturating_duration_since(Instant::now())
                    .min(WAIT_SLICE),
            );
        }
    }
}

/// What became of one message.
enum Step {
    /// Filed away (committed or rejected) in the mailbox.
    Committed,
    /// Handled (or silenced) and its transaction committed: to be filed with its batch.
    Handled,
    /// Handled, but filing failed: it comes back next pass.
    Kept,
    /// It failed (or its sender's earlier mail did): it stays in the mailbox for the next
    /// pass, and the mail behind it goes on.
    Left,
    /// The machine's trouble (the database cannot be written now): stop this batch, retry
    /// next pass.
    Retry,
}

/// The key a raw mail's reading attempts are counted under: a hash of the mail as its
/// sender wrote it ([`crate::mail::envelope::content_hash`]: one pass over the bytes, no
/// parser), so the same mail fetched again is counted under the same key.
pub fn reading_key(raw: &[u8]) -> String {
    format!("read:{:016x}", crate::mail::envelope::content_hash(raw))
}

/// The mail a queued outbox row becomes, from the judge's `address`, its Message-ID made
/// by `ids`: what the daemon renders and sends.
pub fn outgoing_mail(
    m: &QueuedMail,
    address: &str,
    ids: &crate::judge::MessageIds,
) -> OutgoingMail {
    let mut extra_headers = Vec::new();
    if let Some(g) = &m.game {
        extra_headers.push(("X-Dipjudge-Game".to_string(), g.clone()));
    }
    OutgoingMail {
        from: address.to_string(),
        to: vec![m.recipient.clone()],
        subject: m.subject.clone(),
        body: m.body.clone(),
        auto_submitted: if m.kind == crate::store::MailKind::Replied {
            AutoSubmitted::Replied
        } else {
            AutoSubmitted::Generated
        },
        message_id: ids.id(m.id),
        in_reply_to: m.in_reply_to.clone(),
        extra_headers,
        attachments: Vec::new(),
    }
}

#[cfg(test)]
mod tests;
