//! One mail read on a thread of its own (issue 36): with a stack of a known size, whatever
//! thread the daemon runs on, and within a time bound. The bounds of [`crate::mail::budget`]
//! keep what reading costs in proportion to the mail; this is the net under them. A mail
//! that is not read within [`READ_TIME`] is too big to read ([`TooBig::Slow`]): the thread
//! is left to finish on its own (it ends: everything it does is bounded) and a fresh one
//! reads the next mail. A panic in the parser is caught there and is an unparsable mail.
//!
//! The caller counts its attempt at a mail before handing it over, so even a mail that ends
//! the process here is counted and set aside after its attempts.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

use tracing::error;

use crate::mail::budget::TooBig;
use crate::mail::dsn::{DeliveryReport, read_report};
use crate::mail::envelope::{Envelope, EnvelopeError, ParseLimits};

/// The stack of the reading thread. Nothing it runs recurses with the mail's depth (nested
/// messages are made inert, HTML nesting is bounded); this leaves room to spare.
pub const READ_STACK_BYTES: usize = 32 << 20;

/// The longest one mail is read before it is set aside as too big ([`TooBig::Slow`]). A mail
/// within the bounds reads in well under a second.
pub const READ_TIME: Duration = Duration::from_secs(30);

/// A mail as read: its envelope, and what it says as a delivery report, if it is one.
#[derive(Debug, Clone)]
pub struct ReadMail {
    pub envelope: Envelope,
    pub report: Option<DeliveryReport>,
}

/// What the reader is asked: the whole mail, or its header block only.
#[derive(Clone, Copy)]
enum Want {
    Whole,
    Headers,
}

struct Job {
    raw: Arc<Vec<u8>>,
    want: Want,
}

type Answer = Result<ReadMail, EnvelopeError>;

/// The reading thread's two ends.
struct Worker {
    jobs: Sender<Job>,
    answers: Receiver<Answer>,
}

/// Reads mail on a thread of its own; see the module's text.
pub struct Reader {
    limits: ParseLimits,
    time: Duration,
    worker: Option<Worker>,
}

/// The thread could not be started (the machine's trouble, not the mail's): try later.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the thread that reads mail: {0}")]
pub struct NoReader(#[from] std::io::Error);

impl Reader {
    /// A reader with `limits` and the time bound [`READ_TIME`].
    pub fn new(limits: ParseLimits) -> Reader {
        Reader::with_time(limits, READ_TIME)
    }

    /// A reader with another time bound (tests).
    pub fn with_time(limits: ParseLimits, time: Duration) -> Reader {
        Reader {
            limits,
            time,
            worker: None,
        }
    }

    /// Reads a whole mail: its envelope, and its report if it is a delivery report.
    pub fn read(&mut self, raw: &Arc<Vec<u8>>) -> Result<Answer, NoReader> {
        self.ask(raw, Want::Whole)
    }

    /// Reads the header block of a mail only (to answer a mail that is not read whole).
    pub fn read_headers(&mut self, raw: &Arc<Vec<u8>>) -> Result<Answer, NoReader> {
        self.ask(raw, Want::Headers)
    }

    fn ask(&mut self, raw: &Arc<Vec<u8>>, want: Want) -> Result<Answer, NoReader> {
        let worker = match self.worker.take() {
            Some(w) => w,
            None => self.start()?,
        };
        if worker
            .jobs
            .send(Job {
                raw: Arc::clone(raw),
                want,
            })
            .is_err()
        {
            // The thread is gone (it cannot be: it catches panics); a new one next time.
            return Ok(Err(EnvelopeError::Unparsable { size: raw.len() }));
        }
        match worker.answers.recv_timeout(self.time) {
            Ok(answer) => {
                self.worker = Some(worker);
                Ok(answer)
            }
            Err(RecvTimeoutError::Timeout) => {
                error!(
                    size = raw.len(),
                    secs = self.time.as_secs(),
                    "reading a mail took too long; it is set aside and its thread left to end"
                );
                Ok(Err(EnvelopeError::TooBig(TooBig::Slow {
                    secs: self.time.as_secs(),
                })))
            }
            Err(RecvTimeoutError::Disconnected) => {
                Ok(Err(EnvelopeError::Unparsable { size: raw.len() }))
            }
        }
    }

    fn start(&self) -> Result<Worker, NoReader> {
        let (jobs, job_rx) = channel::<Job>();
        let (answer_tx, answers) = channel::<Answer>();
        let limits = self.limits;
        std::thread::Builder::new()
            .name("mail-reader".into())
            .stack_size(READ_STACK_BYTES)
            .spawn(move || {
                for job in job_rx {
                    let size = job.raw.len();
                    let answer = std::panic::catch_unwind(|| read_now(&job.raw, job.want, limits))
                        .unwrap_or(Err(EnvelopeError::Unparsable { size }));
                    if answer_tx.send(answer).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Worker { jobs, answers })
    }
}

/// Reads on the calling thread (the reading thread's work).
fn read_now(raw: &[u8], want: Want, limits: ParseLimits) -> Answer {
    match want {
        Want::Headers => Envelope::parse_headers(raw, limits).map(|envelope| ReadMail {
            envelope,
            report: None,
        }),
        Want::Whole => {
            let envelope = Envelope::parse_with(raw, limits)?;
            let report = (envelope.loop_headers.content_type == "multipart/report")
                .then(|| read_report(raw))
                .flatten();
            Ok(ReadMail { envelope, report })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(body: &str) -> Arc<Vec<u8>> {
        Arc::new(
            format!("From: a@example.test\r\nSubject: x\r\nMessage-ID: <r@x>\r\n\r\n{body}\r\n")
                .into_bytes(),
        )
    }

    #[test]
    fn a_mail_is_read_on_the_readers_thread() {
        let mut r = Reader::new(ParseLimits::default());
        for i in 0..3 {
            let read = r.read(&mail(&format!("HELP {i}"))).unwrap().unwrap();
            assert_eq!(read.envelope.text, format!("HELP {i}\n"));
            assert!(read.report.is_none());
        }
    }

    #[test]
    fn a_mail_not_read_in_time_is_too_big_and_the_next_is_read() {
        let mut r = Reader::with_time(ParseLimits::default(), Duration::ZERO);
        let big = mail(&"A Par H\n".repeat(200_000));
        match r.read(&big).unwrap() {
            Err(EnvelopeError::TooBig(TooBig::Slow { secs: 0 })) => {}
            other => panic!("{other:?}"),
        }
        r.time = READ_TIME;
        let read = r.read(&mail("HELP")).unwrap().unwrap();
        assert_eq!(read.envelope.text, "HELP\n");
    }
}
