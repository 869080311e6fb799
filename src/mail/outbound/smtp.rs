//! SMTP delivery with lettre: implicit TLS, STARTTLS or (loopback only) plain, optional AUTH,
//! one connection per batch, replies sorted into temporary and permanent failures.
//!
//! lettre 0.11.23 writes a message's content and its final `CRLF.CRLF` apart, and the second,
//! small write waits for the server's delayed ACK: ~40 ms a mail. `send_one` sends the
//! content and the end line in one write instead (lettre's own `send` remains for mail that
//! needs SMTPUTF8 or 8BITMIME). What is left per mail is the server's own work (Postfix
//! writes each mail to its queue before it answers), so a batch is still split among up to
//! [`SmtpConfig::connections`] connections in parallel (one thread each, contiguous slices,
//! results in input order), and each connection `RSET`s after a refused mail (figures:
//! [`DEFAULT_CONNECTIONS`]).

use std::path::PathBuf;
use std::time::Duration;

use lettre::address::Envelope as SmtpEnvelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::ClientId;
use lettre::transport::smtp::response::Response;
use tracing::{debug, warn};

use crate::mail::Security;
use crate::mail::outbound::{Outbox, RenderedMail, SendError};

/// Where and how to reach the SMTP server.
#[derive(Debug, Clone)]
pub struct SmtpConfig {
    /// Host name; also the name checked in the server's certificate.
    pub host: String,
    /// Port (465 or 587 in the wild; 4465 or 2525 on the test servers).
    pub port: u16,
    /// Connection security. [`Security::Plain`] is refused unless `host` is loopback.
    pub security: Security,
    /// A PEM root certificate to trust besides the system's (a private CA).
    pub root_certificate: Option<PathBuf>,
    /// `(user, password)` for AUTH PLAIN or LOGIN, if the server needs it.
    pub credentials: Option<(String, String)>,
    /// The name sent in EHLO.
    pub hello_name: String,
    /// Time-out for connecting and for each reply.
    pub timeout: Duration,
    /// Most SMTP connections one batch uses at once (at least 1).
    pub connections: usize,
}

/// Default of [`SmtpConfig::connections`]: the best of 1, 4, 8 and 16 on the test servers
/// (115, 122, 172 and 145 msgs/s, one run each on a shared 2-core machine, measured before
/// the daemon sent on its own thread and while `bench-mail` still sent wrong passwords:
/// relative figures only).
pub const DEFAULT_CONNECTIONS: usize = 8;

/// Fewest mails worth a connection of their own: a TLS handshake and AUTH cost about as much
/// as sending a few mails.
const MIN_MAILS_PER_CONNECTION: usize = 4;

impl SmtpConfig {
    /// A configuration with STARTTLS, no credentials, EHLO `localhost` and a 30 s time-out.
    pub fn new(host: impl Into<String>, port: u16) -> Self {
        SmtpConfig {
            host: host.into(),
            port,
            security: Security::StartTls,
            root_certificate: None,
            credentials: None,
            hello_name: "localhost".into(),
            timeout: Duration::from_secs(30),
            connections: DEFAULT_CONNECTIONS,
        }
    }
}

/// Delivers batches over SMTP, up to [`SmtpConfig::connections`] connections per batch.
#[derive(Clone)]
pub struct SmtpOutbox {
    config: SmtpConfig,
    /// The TLS set-up, built once: building it loads and parses the system's root
    /// certificates, which costs more CPU than sending a batch.
    tls: Option<TlsParameters>,
}

impl std::fmt::Debug for SmtpOutbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpOutbox")
            .field("config", &self.config)
            .field("tls_cached", &self.tls.is_some())
            .finish()
    }
}

/// Why no SMTP session could be set up; every mail of the batch fails with it.
#[derive(Clone)]
struct ConnectFailure {
    reason: String,
    permanent: bool,
}

impl ConnectFailure {
    fn error_for(&self, mail: &RenderedMail) -> SendError {
        let message_id = mail.message_id.clone();
        let reason = self.reason.clone();
        if self.permanent {
            SendError::Permanent { message_id, reason }
        } else {
            SendError::Temporary { message_id, reason }
        }
    }
}

impl SmtpOutbox {
    /// An outbox for `config`; nothing is connected until a batch is sent.
    pub fn new(config: SmtpConfig) -> Self {
        SmtpOutbox { config, tls: None }
    }

    /// Connects, secures the connection and logs in as the configured user as a batch
    /// would, then says goodbye without sending anything (`dipjudge check`). The error is
    /// the sentence a failed batch would log.
    pub fn check_login(&mut self) -> Result<(), String> {
        let tls = self.cached_tls();
        let mut conn = self.connect(tls.as_ref()).map_err(|f| f.reason)?;
        let _ = conn.quit();
        Ok(())
    }

    /// The TLS set-up, from the cache or built (and cached) now; `None` for plain SMTP.
    fn cached_tls(&mut self) -> Option<Result<TlsParameters, ConnectFailure>> {
        if self.config.security == Security::Plain {
            return None;
        }
        if let Some(tls) = &self.tls {
            return Some(Ok(tls.clone()));
        }
        let built = self.tls_parameters();
        if let Ok(tls) = &built {
            self.tls = Some(tls.clone());
        }
        Some(built)
    }

    fn tls_parameters(&self) -> Result<TlsParameters, ConnectFailure> {
        let mut builder = TlsParameters::builder(self.config.host.clone());
        if let Some(path) = &self.config.root_certificate {
            let pem = std::fs::read(path).map_err(|e| ConnectFailure {
                reason: format!("cannot read root certificate {}: {e}", path.display()),
                permanent: true,
            })?;
            let cert = Certificate::from_pem(&pem).map_err(|e| ConnectFailure {
                reason: format!("root certificate {} is not PEM: {e}", path.display()),
                permanent: true,
            })?;
            builder = builder.add_root_certificate(cert);
        }
        builder.build_native().map_err(|e| ConnectFailure {
            reason: format!("cannot set up TLS: {e}"),
            permanent: true,
        })
    }

    fn connect(
        &self,
        tls: Option<&Result<TlsParameters, ConnectFailure>>,
    ) -> Result<SmtpConnection, ConnectFailure> {
        let tls = || match tls {
            Some(Ok(t)) => Ok(t),
            Some(Err(f)) => Err(f.clone()),
            None => Err(ConnectFailure {
                reason: "no TLS set-up".into(),
                permanent: true,
            }),
        };
        let c = &self.config;
        let hello = ClientId::Domain(c.hello_name.clone());
        let addr = (c.host.as_str(), c.port);
        let temporary = |what: &str, e: lettre::transport::smtp::Error| ConnectFailure {
            reason: format!("{what} {}:{}: {e}", c.host, c.port),
            permanent: e.is_permanent(),
        };
        let mut conn = match c.security {
            Security::Tls => {
                let tls = tls()?;
                SmtpConnection::connect(addr, Some(c.timeout), &hello, Some(tls), None)
                    .map_err(|e| temporary("cannot connect with TLS to", e))?
            }
            Security::StartTls => {
                let tls = tls()?;
                let mut conn = SmtpConnection::connect(addr, Some(c.timeout), &hello, None, None)
                    .map_err(|e| temporary("cannot connect to", e))?;
                if !conn.can_starttls() {
                    conn.abort();
                    return Err(ConnectFailure {
                        reason: format!("{}:{} does not offer STARTTLS", c.host, c.port),
                        permanent: false,
                    });
                }
                conn.starttls(tls, &hello)
                    .map_err(|e| temporary("STARTTLS failed with", e))?;
                conn
            }
            Security::Plain => {
                if !crate::mail::is_loopback(&c.host, c.port) {
                    return Err(ConnectFailure {
                        reason: format!(
                            "plain SMTP is allowed only on loopback, and {} is not",
                            c.host
                        ),
                        permanent: true,
                    });
                }
                SmtpConnection::connect(addr, Some(c.timeout), &hello, None, None)
                    .map_err(|e| temporary("cannot connect to", e))?
            }
        };
        if let Some((user, password)) = &c.credentials {
            let creds = Credentials::new(user.clone(), password.clone());
            if let Err(e) = conn.auth(&[Mechanism::Plain, Mechanism::Login], &creds) {
                conn.abort();
                return Err(temporary("authentication failed at", e));
            }
        }
        Ok(conn)
    }
}

/// 5xx and client-side refusals are permanent; 4xx, network, TLS and time-outs temporary.
fn classify(message_id: &str, e: &lettre::transport::smtp::Error) -> SendError {
    let reason = e.to_string();
    let message_id = message_id.to_string();
    if e.is_permanent() || e.is_client() {
        SendError::Permanent { message_id, reason }
    } else {
        SendError::Temporary { message_id, reason }
    }
}

fn smtp_envelope(mail: &RenderedMail) -> Result<SmtpEnvelope, SendError> {
    let permanent = |reason: String| SendError::Permanent {
        message_id: mail.message_id.clone(),
        reason,
    };
    let parse = |a: &str| -> Result<lettre::Address, SendError> {
        let bare = match a.parse::<lettre::message::Mailbox>() {
            Ok(m) => m.email,
            Err(e) => return Err(permanent(format!("address {a:?} is not valid: {e}"))),
        };
        Ok(bare)
    };
    let from = mail.envelope_from.as_deref().map(parse).transpose()?;
    let to = mail
        .recipients
        .iter()
        .map(|a| parse(a))
        .collect::<Result<Vec<_>, _>>()?;
    SmtpEnvelope::new(from, to).map_err(|e| permanent(format!("bad envelope: {e}")))
}

/// The message content, dot-stuffed, and the end-of-data line: one piece of text.
struct DataBlock(String);

impl std::fmt::Display for DataBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `message` with a `.` doubled at the start of every line (RFC 5321 4.5.2), then
/// `CRLF . CRLF`, exactly as lettre writes it.
fn dot_stuffed(message: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(message.len() + 8);
    let mut line_start = true;
    let mut after_cr = false;
    for &b in message {
        if line_start && b == b'.' {
            out.push(b'.');
        }
        out.push(b);
        line_start = after_cr && b == b'\n';
        after_cr = b == b'\r';
    }
    out.extend_from_slice(b"\r\n.\r\n");
    out
}

/// What `SmtpConnection::send` does, with the content and its final `.` in one write:
/// lettre 0.11.23 writes them apart, and the second, small write waits for the server's
/// delayed ACK (~40 ms a mail). Non-ASCII envelopes or content (which need SMTPUTF8 or
/// 8BITMIME) go through lettre's own `send`. Any failure aborts the connection, as there.
fn send_one(
    conn: &mut SmtpConnection,
    envelope: &SmtpEnvelope,
    email: &[u8],
) -> Result<Response, lettre::transport::smtp::Error> {
    let ascii = |a: &lettre::Address| AsRef::<str>::as_ref(a).is_ascii();
    let ascii_envelope = envelope.from().is_none_or(ascii) && envelope.to().iter().all(ascii);
    if !ascii_envelope || !email.is_ascii() {
        return conn.send(envelope, email);
    }
    let Ok(block) = String::from_utf8(dot_stuffed(email)) else {
        return conn.send(envelope, email);
    };
    let transaction = || {
        conn.command(Mail::new(envelope.from().cloned(), vec![]))?;
        for to in envelope.to() {
            conn.command(Rcpt::new(to.clone(), vec![]))?;
        }
        conn.command(Data)?;
        conn.command(DataBlock(block))
    };
    let result = transaction();
    if result.is_err() {
        conn.abort();
    }
    result
}

/// How many connections a batch of `mails` uses: at most `connections`, and no fewer than
/// [`MIN_MAILS_PER_CONNECTION`] mails each (at least one connection for a non-empty batch).
fn connections_for(mails: usize, connections: usize) -> usize {
    mails
        .div_ceil(MIN_MAILS_PER_CONNECTION)
        .min(connections.max(1))
        .max(1)
}

impl SmtpOutbox {
    /// Sends `mails` over one connection, in order, calling `accepted(first + i)` as the
    /// server takes mail `i`.
    fn send_serial(
        &self,
        mails: &[RenderedMail],
        tls: Option<&Result<TlsParameters, ConnectFailure>>,
        first: usize,
        accepted: &(dyn Fn(usize) + Sync),
    ) -> Vec<Result<(), SendError>> {
        let mut results = Vec::with_capacity(mails.len());
        let mut conn: Option<SmtpConnection> = None;
        let mut failed_connect: Option<ConnectFailure> = None;
        for mail in mails {
            if let Some(f) = &failed_connect {
                results.push(Err(f.error_for(mail)));
                continue;
            }
            let envelope = match smtp_envelope(mail) {
                Ok(e) => e,
                Err(e) => {
                    results.push(Err(e));
                    continue;
                }
            };
            if conn.as_ref().is_none_or(SmtpConnection::has_broken) {
                match self.connect(tls) {
                    Ok(c) => conn = Some(c),
                    Err(f) => {
                        warn!(host = %self.config.host, reason = %f.reason, "SMTP connection failed");
                        results.push(Err(f.error_for(mail)));
                        failed_connect = Some(f);
                        continue;
                    }
                }
            }
            let Some(c) = conn.as_mut() else {
                continue;
            };
            match send_one(c, &envelope, &mail.bytes) {
                Ok(_) => {
                    debug!(message_id = %mail.message_id, "sent by SMTP");
                    accepted(first + results.len());
                    results.push(Ok(()));
                }
                Err(e) => {
                    let err = classify(&mail.message_id, &e);
                    warn!(error = %err, "SMTP refused a mail");
                    if !c.has_broken() && c.command(Rset).is_err() {
                        c.abort();
                    }
                    results.push(Err(err));
                }
            }
        }
        if let Some(mut c) = conn
            && c.quit().is_err()
        {
            c.abort();
        }
        results
    }
}

impl Outbox for SmtpOutbox {
    fn send_batch(&mut self, mails: &[RenderedMail]) -> Vec<Result<(), SendError>> {
        self.send_batch_reporting(mails, &|_| {})
    }

    fn send_batch_reporting(
        &mut self,
        mails: &[RenderedMail],
        accepted: &(dyn Fn(usize) + Sync),
    ) -> Vec<Result<(), SendError>> {
        if mails.is_empty() {
            return Vec::new();
        }
        let tls = self.cached_tls();
        let tls = tls.as_ref();
        let n = connections_for(mails.len(), self.config.connections);
        if n <= 1 {
            return self.send_serial(mails, tls, 0, accepted);
        }
        let chunk = mails.len().div_ceil(n);
        let this = &*self;
        std::thread::scope(|scope| {
            let handles: Vec<_> = mails
                .chunks(chunk)
                .enumerate()
                .map(|(k, part)| {
                    let first = k * chunk;
                    (
                        part,
                        scope.spawn(move || this.send_serial(part, tls, first, accepted)),
                    )
                })
                .collect();
            let mut results = Vec::with_capacity(mails.len());
            for (part, handle) in handles {
                match handle.join() {
                    Ok(r) => results.extend(r),
                    // A panicking sender thread: its mails may or may not have gone out;
                    // retrying them later risks a duplicate, never a loss.
                    Err(_) => results.extend(part.iter().map(|m| {
                        Err(SendError::Temporary {
                            message_id: m.message_id.clone(),
                            reason: "the SMTP sender thread panicked".into(),
                        })
                    })),
                }
            }
            results
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_stuffing_doubles_leading_dots_only() {
        assert_eq!(dot_stuffed(b""), b"\r\n.\r\n");
        assert_eq!(
            dot_stuffed(b".a\r\nb.c\r\n..\r\n.\r\nx"),
            b"..a\r\nb.c\r\n...\r\n..\r\nx\r\n.\r\n"
        );
        // A bare LF does not start a line (as in lettre's codec).
        assert_eq!(dot_stuffed(b"a\n.b"), b"a\n.b\r\n.\r\n");
    }

    #[test]
    fn a_batch_is_split_among_a_bounded_number_of_connections() {
        assert_eq!(connections_for(0, 8), 1);
        assert_eq!(connections_for(1, 8), 1);
        assert_eq!(connections_for(4, 8), 1);
        assert_eq!(connections_for(5, 8), 2);
        assert_eq!(connections_for(31, 8), 8);
        assert_eq!(connections_for(100, 8), 8);
        assert_eq!(connections_for(100, 1), 1);
        assert_eq!(connections_for(100, 0), 1);
    }

    #[test]
    fn results_come_back_in_input_order_for_every_mail() {
        // Nobody listening: every mail fails, temporarily, each under its own Message-ID.
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let mut c = SmtpConfig::new("127.0.0.1", port);
        c.security = Security::Plain;
        c.timeout = Duration::from_secs(2);
        let mails: Vec<RenderedMail> = (0..37)
            .map(|i| RenderedMail {
                message_id: format!("m{i}"),
                envelope_from: Some("judge@example.test".into()),
                recipients: vec!["anna@example.test".into()],
                bytes: b"Subject: x\r\n\r\nx\r\n".to_vec(),
            })
            .collect();
        let results = SmtpOutbox::new(c).send_batch(&mails);
        assert_eq!(results.len(), mails.len());
        for (i, r) in results.iter().enumerate() {
            match r {
                Err(SendError::Temporary { message_id, .. }) => {
                    assert_eq!(message_id, &format!("m{i}"));
                }
                other => panic!("mail {i}: {other:?}"),
            }
        }
    }
}
