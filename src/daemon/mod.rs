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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context;
use chrono::{DateTime, Utc};
use tracing::{debug, error, info, warn};

pub use config::{Config, DaemonSection};

use crate::judge::{Handled, Judge};
use crate::mail::inbound::imap::ImapCursor;
use crate::mail::{
    AutoSubmitted, Envelope, Inbox, MessageRef, Outbox, OutgoingMail, ParseLimits, RateLimiter,
    RawMessage, RenderedMail, render, silence_reason_for,
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
    /// This process's hold on the database (dropped last).
    _lock: InstanceLock,
    judge: Judge,
    config: Config,
    inbox: Box<dyn Inbox>,
    /// The outbox, on its own thread.
    sender: SendWorker,
    /// The ids of the batch the sender thread is delivering.
    in_flight: Option<Vec<i64>>,
    /// Replies the rate limiter held back in this pass (counted once each).
    held: std::collections::HashSet<i64>,
    limits: ParseLimits,
    limiter: RateLimiter,
    /// Whether the limiter has read back the replies sent before this process started.
    limiter_loaded: bool,
    /// How the judge names its mail (its Message-IDs, read back from delivery reports).
    ids: crate::judge::MessageIds,
    /// No sending before this instant (back-off after a temporary failure).
    send_not_before: Option<Instant>,
    send_backoff: Duration,
    stop: Arc<AtomicBool>,
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

/// The lock that makes one judge process the only one on its database: a second `run` or
/// `process` would read the same mail and send the same replies again. An OS file lock on
/// `<database>.lock`, held for the daemon's life (the OS drops it when the process ends,
/// also on a kill).
#[derive(Debug)]
pub struct InstanceLock {
    _file: std::fs::File,
}

impl InstanceLock {
    /// Takes the lock of `database`; with `wait`, waits for another process to let it go,
    /// otherwise refuses at once with a sentence.
    pub fn take(database: &std::path::Path, wait: bool) -> anyhow::Result<InstanceLock> {
        let mut name = database.as_os_str().to_owned();
        name.push(".lock");
        let path = std::path::PathBuf::from(name);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("while opening the lock file {}", path.display()))?;
        if wait {
            file.lock()
                .with_context(|| format!("while waiting for the lock {}", path.display()))?;
            return Ok(InstanceLock { _file: file });
        }
        match file.try_lock() {
            Ok(()) => Ok(InstanceLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
                "another dipjudge (run or process) is already working on {} (it holds {}); a second one would read the same mail and send the same replies twice, so this one does not start. Stop the other one, or pass --wait to wait for it",
                database.display(),
                path.display()
            ),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("while taking the lock {}", path.display()))
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
    Judge::new(store, config.judge_config(seed)).context("while starting the judge")
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
        Ok(Daemon {
            _lock: lock,
            inbox: inbox.unwrap_or_else(|| config.inbox(cursor)),
            sender: SendWorker::new(outbox.unwrap_or_else(|| config.outbox()), db),
            in_flight: None,
            held: std::collections::HashSet::new(),
            limits: config.parse_limits(),
            limiter: RateLimiter::new(
                config.daemon.reply_rate_limit,
                Duration::from_secs(config.daemon.reply_rate_window_secs),
            ),
            limiter_loaded: false,
            ids,
            send_not_before: None,
            send_backoff: Duration::from_secs(1),
            stop: Arc::new(AtomicBool::new(false)),
            judge,
            config,
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
        let mut report = PassReport::default();
        self.held.clear();
        let result = self.pass(now, &mut report);
        // Whatever happened, the batch the sender thread took is recorded before returning
        // (a stop or an error must not leave sent mail unmarked, to be sent again).
        let collected = self.collect_sent(now, &mut report);
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
    /// True when a batch was handled in full (more mail may be waiting).
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
        let mut cursor: Option<ImapCursor> = None;
        let mut note = |id: &MessageRef| {
            if let Some(c) = ImapCursor::of(id)
                && cursor
                    .as_ref()
                    .is_none_or(|old| old.uidvalidity != c.uidvalidity || old.last_uid < c.last_uid)
            {
                cursor = Some(c);
            }
        };
        let mut handled: Vec<MessageRef> = Vec::new();
        let mut interrupted = false;
        for raw in &batch {
            if self.stopping() {
                interrupted = true;
                break;
            }
            report.fetched += 1;
            match self.one_message(raw, now, report)? {
                Step::Committed => note(&raw.id),
                Step::Handled => handled.push(raw.id.clone()),
                Step::Kept => {}
                Step::Retry => {
                    interrupted = true;
                    break;
                }
            }
        }
        match self.inbox.commit_all(&handled) {
            Ok(()) => handled.iter().for_each(&mut note),
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

    fn one_message(
        &mut self,
        raw: &RawMessage,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> anyhow::Result<Step> {
        if let Some(size) = raw.oversize {
            return Ok(self.oversize(raw, size, now, report));
        }
        // The MIME parser is fuzzed, but a panic in it must not stop the daemon at the same
        // mail after every restart: it is an unparsable mail.
        let limits = self.limits;
        let unparsable = crate::mail::EnvelopeError::Unparsable {
            size: raw.bytes.len(),
        };
        let parsed = std::panic::catch_unwind(|| Envelope::parse_with(&raw.bytes, limits))
            .unwrap_or(Err(unparsable));
        let env = match parsed {
            Ok(env) => env,
            Err(e) => {
                warn!(message = %raw.id, reason = %e, "unparsable mail rejected");
                report.rejected += 1;
                return Ok(self.file(raw, Some(&e.to_string())));
            }
        };
        let incoming = crate::mail::incoming(&env);
        if let Some(why) = silence_reason_for(&env, &self.config.judge.address) {
            // Recorded under its key like any message, so the record shows it arrived and
            // why nothing answered it; seen again (a restart before filing), it is a no-op. A
            // delivery report's permanent failures mark the seats at those addresses
            // bouncing.
            let outcome = format!("silenced: {why}");
            let bounces = self.bounces(&env, raw);
            let recorded = if bounces.is_empty() {
                self.judge.record_unhandled(&incoming, &outcome, now)
            } else {
                info!(from = %env.from, key = %incoming.key, failed = bounces.len(), "a delivery report: the seats at its failed addresses are marked bouncing");
                self.judge.record_bounce(&incoming, &outcome, &bounces, now)
            };
            let first = match recorded {
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
        // The attempt is counted, and committed, before the judge reads the mail: a mail
        // that kills the judge is counted too.
        let max = i64::from(self.config.daemon.max_message_attempts);
        let attempts = match self.judge.begin_attempt(&incoming) {
            Ok(n) => n,
            Err(e) => {
                report.failed += 1;
                error!(key = %incoming.key, error = %e, "cannot count an attempt at a message; it is left for the next pass");
                return Ok(Step::Retry);
            }
        };
        if attempts > max {
            // Tried `max` times already (each failed, or ended the judge).
            return Ok(self.set_aside(raw, &incoming, attempts - 1, now, report));
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
                    // against it (if the database takes the correction now).
                    let _ = self.judge.forgive_attempt(&incoming);
                    error!(from = %incoming.from, key = %incoming.key, error = %e, "message failed; it will be retried");
                    return Ok(Step::Retry);
                }
                if attempts >= max {
                    error!(from = %incoming.from, key = %incoming.key, error = %e, attempts, "message failed");
                    return Ok(self.set_aside(raw, &incoming, attempts, now, report));
                }
                error!(from = %incoming.from, key = %incoming.key, error = %e, attempts, "message failed; it will be retried");
                return Ok(Step::Retry);
            }
        }
        Ok(Step::Handled)
    }

    /// A message over the size limit (`size` bytes; only its header block was read): its
    /// sender is answered with one line, unless the guard silences it, and it goes to the
    /// rejected folder. Its key is recorded, so a copy is a no-op.
    fn oversize(
        &mut self,
        raw: &RawMessage,
        size: u64,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> Step {
        let limit = u64::try_from(self.config.daemon.max_message_bytes).unwrap_or(u64::MAX);
        let reason = format!("{size} bytes, over the limit of {limit}: not read");
        let env = match Envelope::parse_with(&raw.bytes, self.limits) {
            Ok(env) => env,
            Err(e) => {
                warn!(message = %raw.id, size, reason = %e, "oversized mail without a usable header rejected");
                report.rejected += 1;
                return self.file(raw, Some(&format!("{reason}; {e}")));
            }
        };
        let incoming = crate::mail::incoming(&env);
        let recorded = match silence_reason_for(&env, &self.config.judge.address) {
            Some(why) => {
                self.judge
                    .record_unhandled(&incoming, &format!("silenced: {why}; {reason}"), now)
            }
            None => self.judge.answer_oversize(&incoming, size, limit, now),
        };
        match recorded {
            Ok(first) => {
                warn!(from = %env.from, key = %incoming.key, size, limit, first, "oversized mail set aside unread");
                report.rejected += 1;
                self.file(raw, Some(&reason))
            }
            Err(e) => {
                report.failed += 1;
                error!(key = %incoming.key, error = %e, "an oversized mail cannot be recorded now; it is tried again");
                Step::Retry
            }
        }
    }

    /// Sets a message aside after `attempts` failed attempts: the judge answers its sender
    /// and tells the master of its game; it goes to the rejected folder.
    fn set_aside(
        &mut self,
        raw: &RawMessage,
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
        self.file(raw, Some(&reason))
    }

    /// Commits (or, with a reason, rejects) one message in the mailbox at once.
    fn file(&mut self, raw: &RawMessage, reject: Option<&str>) -> Step {
        let result = match reject {
            None => self.inbox.commit(&raw.id),
            Some(reason) => self.inbox.reject(&raw.id, reason),
        };
        match result {
            Ok(()) => Step::Committed,
            Err(e) => {
                // The transaction stands; the message comes back and is a no-op then.
                warn!(message = %raw.id, error = %e, "cannot file the message away now");
                Step::Kept
            }
        }
    }

    /// The permanent failures a delivery report lists, each with the outbox mail it names
    /// (by the Message-ID the judge gave it: none when it returns no id the judge made);
    /// none when `env` is no delivery report.
    fn bounces(&self, env: &Envelope, raw: &RawMessage) -> Vec<crate::judge::Bounced> {
        if env.loop_headers.content_type != "multipart/report" {
            return Vec::new();
        }
        let Some(report) = crate::mail::dsn::read_report(&raw.bytes) else {
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

    /// Takes the next batch off the outbox: rate-limited replies are skipped (they stay
    /// queued), each attempt is counted before it is made, mail over the attempt bound or
    /// that cannot be rendered is given up. `None` when nothing can be sent now.
    fn next_batch(
        &mut self,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> anyhow::Result<Option<Batch>> {
        if self.send_not_before.is_some_and(|t| Instant::now() < t) {
            return Ok(None);
        }
        self.load_limiter(now)?;
        let batch_size = self.config.daemon.send_batch;
        let max_attempts = self.config.daemon.max_send_attempts;
        let date = system_time(now);
        self.limiter.prune(date);
        // Read past rate-limited replies so they cannot block the queue's head.
        let queued = self
            .judge
            .queued_mail(batch_size.saturating_mul(4))
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
            let attempts = self
                .judge
                .bump_attempts(m.id)
                .context("while counting a send attempt")?;
            if attempts > max_attempts {
                let reason = format!("not delivered after {max_attempts} attempts");
                warn!(id = m.id, to = %m.recipient, "{reason}");
                self.judge
                    .mark_failed(m.id, &reason, now)
                    .context("while giving up a mail")?;
                report.given_up += 1;
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

    /// Records what the server said about each mail of a batch: sent (the sender thread
    /// recorded it already, unless it could not), deferred (back-off before the next try)
    /// or refused for good. True when nothing failed for now.
    fn record_results(
        &mut self,
        ids: &[i64],
        outcome: SendOutcome,
        now: DateTime<Utc>,
        report: &mut PassReport,
    ) -> anyhow::Result<bool> {
        let mut temporary = false;
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
                    report.deferred += 1;
                    debug!(id, error = %e, "send failed for now");
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
            warn!(
                deferred = report.deferred,
                retry_in = ?self.send_backoff,
                "sending failed for now; mail stays queued"
            );
            self.send_not_before = Some(Instant::now() + self.send_backoff);
            self.send_backoff = (self.send_backoff * 2).min(Duration::from_secs(300));
            return Ok(false);
        }
        self.send_backoff = Duration::from_secs(1);
        self.send_not_before = None;
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
            if let Some(t) = self.send_not_before {
                until = until.min(t);
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
    /// The transaction failed: stop this batch, retry next pass.
    Retry,
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
