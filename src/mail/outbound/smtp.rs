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
use lettre::transport::smtp::commands::{Auth, Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
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
    /// AUTH XOAUTH2 instead: the user and where its access tokens come from (renewed before
    /// they expire, and once more when the server refuses one).
    pub xoauth2: Option<Xoauth2Login>,
    /// The name sent in EHLO.
    pub hello_name: String,
    /// Time-out for connecting and for each reply.
    pub timeout: Duration,
    /// Most SMTP connections one batch uses at once (at least 1).
    pub connections: usize,
}

/// An XOAUTH2 login: who, and the source of the access tokens.
#[derive(Debug, Clone)]
pub struct Xoauth2Login {
    pub user: String,
    pub tokens: std::sync::Arc<crate::mail::oauth::TokenSource>,
}

/// The end of a refused SASL exchange: the empty answer to the server's description of
/// the refusal (RFC 7628 §3.2.3), after which it sends its final reply.
struct SaslAbandon;

impl std::fmt::Display for SaslAbandon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("\r\n")
    }
}

/// `AUTH XOAUTH2` with `token` on `conn`: Ok, or the server's words when it refuses.
/// (lettre's own `auth` cannot end a refused XOAUTH2 exchange, and would report a client
/// error instead of the server's reply.)
fn xoauth2_auth(conn: &mut SmtpConnection, user: &str, token: &str) -> Result<(), String> {
    let creds = Credentials::new(user.to_string(), token.to_string());
    let auth = Auth::new(Mechanism::Xoauth2, creds, None).map_err(|e| e.to_string())?;
    match conn.command(auth) {
        Ok(r) if r.has_code(235) => Ok(()),
        Ok(r) if r.has_code(334) => match conn.command(SaslAbandon) {
            Err(e) => Err(e.to_string()),
            Ok(end) => Err(format!("the server answered {}", end.code())),
        },
        Ok(r) => Err(format!("the server answered {}", r.code())),
        Err(e) => Err(e.to_string()),
    }
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
            xoauth2: None,
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

/// Why no SMTP session could be set up; every mail of the batch fails with it, for now:
/// nothing was said about its recipient (a server that refuses the connection, TLS or the
/// login, even with a 5xx, or settings the operator must fix), so the mail stays queued
/// and no recipient is marked as refusing mail (issue 36).
#[derive(Clone)]
struct ConnectFailure {
    reason: String,
}

impl ConnectFailure {
    fn error_for(&self, mail: &RenderedMail) -> SendError {
        SendError::Temporary {
            message_id: mail.message_id.clone(),
            reason: self.reason.clone(),
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
            })?;
            let cert = Certificate::from_pem(&pem).map_err(|e| ConnectFailure {
                reason: format!("root certificate {} is not PEM: {e}", path.display()),
            })?;
            builder = builder.add_root_certificate(cert);
        }
        builder.build_native().map_err(|e| ConnectFailure {
            reason: format!("cannot set up TLS: {e}"),
        })
    }

    /// A connection, logged in as configured: with XOAUTH2, with the access token in hand,
    /// and once more with a renewed one when the server refuses it. A token that cannot be
    /// had (the endpoint down, the refresh token refused) leaves every mail queued: the
    /// operator's fix, or the endpoint's return, lets them go.
    fn connect(
        &self,
        tls: Option<&Result<TlsParameters, ConnectFailure>>,
    ) -> Result<SmtpConnection, ConnectFailure> {
        let Some(login) = &self.config.xoauth2 else {
            let user = self
                .config
                .credentials
                .as_ref()
                .map_or("", |(u, _)| u.as_str());
            return self
                .connect_with(tls, None)
                .map_err(|e| e.failure(&self.config, user));
        };
        let oauth = |e: crate::mail::oauth::OAuthError| ConnectFailure {
            reason: format!("no access token for {}: {e}", login.user),
        };
        let token = login.tokens.access_token().map_err(oauth)?;
        match self.connect_with(tls, Some(&token)) {
            Err(Refused(reason)) => {
                warn!(host = %self.config.host, user = %login.user, %reason, "the XOAUTH2 login was refused; renewing the access token");
                let renewed = login.tokens.renew(&token).map_err(oauth)?;
                self.connect_with(tls, Some(&renewed))
                    .map_err(|e| e.failure(&self.config, &login.user))
            }
            other => other.map_err(|e| e.failure(&self.config, &login.user)),
        }
    }

    fn connect_with(
        &self,
        tls: Option<&Result<TlsParameters, ConnectFailure>>,
        token: Option<&str>,
    ) -> Result<SmtpConnection, Login> {
        let tls = || match tls {
            Some(Ok(t)) => Ok(t),
            Some(Err(f)) => Err(f.clone()),
            None => Err(ConnectFailure {
                reason: "no TLS set-up".into(),
            }),
        };
        let c = &self.config;
        let hello = ClientId::Domain(c.hello_name.clone());
        let addr = (c.host.as_str(), c.port);
        let temporary = |what: &str, e: lettre::transport::smtp::Error| ConnectFailure {
            reason: format!("{what} {}:{}: {e}", c.host, c.port),
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
                    }
                    .into());
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
                    }
                    .into());
                }
                SmtpConnection::connect(addr, Some(c.timeout), &hello, None, None)
                    .map_err(|e| temporary("cannot connect to", e))?
            }
        };
        match (token, &c.xoauth2, &c.credentials) {
            (Some(token), Some(login), _) => {
                if let Err(reason) = xoauth2_auth(&mut conn, &login.user, token) {
                    conn.abort();
                    return Err(Refused(reason));
                }
            }
            (_, _, Some((user, password))) => {
                let creds = Credentials::new(user.clone(), password.clone());
                if let Err(e) = conn.auth(&[Mechanism::Plain, Mechanism::Login], &creds) {
                    conn.abort();
                    return Err(temporary("authentication failed at", e).into());
                }
            }
            _ => {}
        }
        Ok(conn)
    }
}

/// Why [`SmtpOutbox::connect_with`] has no connection: the XOAUTH2 login was refused (the
/// server's words), or anything else.
enum Login {
    Refused(String),
    Failed(ConnectFailure),
}
use Login::Refused;

impl From<ConnectFailure> for Login {
    fn from(f: ConnectFailure) -> Login {
        Login::Failed(f)
    }
}

impl Login {
    /// The failure every mail of the batch gets. A refusal with a fresh token is the
    /// operator's to fix (the account, the client's scope); the mail stays queued meanwhile.
    fn failure(self, c: &SmtpConfig, user: &str) -> ConnectFailure {
        match self {
            Login::Failed(f) => f,
            Login::Refused(reason) => ConnectFailure {
                reason: format!(
                    "{}:{} refused the XOAUTH2 login as {user}: {reason}",
                    c.host, c.port
                ),
            },
        }
    }
}

/// The step of a mail's SMTP transaction a failure came at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// `MAIL FROM`: the server's answer to the judge's own address.
    Sender,
    /// `RCPT TO`, `DATA` and the content: answers about this mail and its recipients.
    Mail,
}

/// Why one mail did not go out.
#[derive(Debug)]
enum Failure {
    /// The server (or the connection) failed at a step.
    Smtp(Step, lettre::transport::smtp::Error),
    /// The mail needs an extension the server does not offer (SMTPUTF8, 8BITMIME).
    Unsupported(&'static str),
}

/// A 5xx to a mail (its recipient, its content) and a mail the server cannot take are
/// permanent; 4xx, network, TLS and time-outs temporary. A 5xx to `MAIL FROM` refuses the
/// judge's own address, which says nothing of the recipient: temporary, like a failed
/// login (issue 36).
fn classify(message_id: &str, failure: &Failure) -> SendError {
    let message_id = message_id.to_string();
    match failure {
        Failure::Unsupported(reason) => SendError::Permanent {
            message_id,
            reason: (*reason).to_string(),
        },
        Failure::Smtp(Step::Sender, e) => SendError::Temporary {
            message_id,
            reason: format!("the server refused the judge's sender address: {e}"),
        },
        Failure::Smtp(Step::Mail, e) if e.is_permanent() || e.is_client() => SendError::Permanent {
            message_id,
            reason: e.to_string(),
        },
        Failure::Smtp(Step::Mail, e) => SendError::Temporary {
            message_id,
            reason: e.to_string(),
        },
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

/// What `SmtpConnection::send` does, step by step (so a refusal of the judge's own address
/// is told from a refusal of the mail), with the content and its final `.` in one write:
/// lettre 0.11.23 writes them apart, and the second, small write waits for the server's
/// delayed ACK (~40 ms a mail). Non-ASCII envelopes or content ask for SMTPUTF8 or
/// 8BITMIME, as lettre does, and go through lettre's `message`. Any failure aborts the
/// connection, as there.
fn send_one(
    conn: &mut SmtpConnection,
    envelope: &SmtpEnvelope,
    email: &[u8],
) -> Result<Response, Failure> {
    let ascii = |a: &lettre::Address| AsRef::<str>::as_ref(a).is_ascii();
    let mut options = Vec::new();
    if !(envelope.from().is_none_or(ascii) && envelope.to().iter().all(ascii)) {
        if !conn.server_info().supports_feature(Extension::SmtpUtfEight) {
            return Err(Failure::Unsupported(
                "the envelope has non-ASCII addresses and the server does not offer SMTPUTF8",
            ));
        }
        options.push(MailParameter::SmtpUtfEight);
    }
    if !email.is_ascii() {
        if !conn.server_info().supports_feature(Extension::EightBitMime) {
            return Err(Failure::Unsupported(
                "the mail has non-ASCII content and the server does not offer 8BITMIME",
            ));
        }
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    let block = email
        .is_ascii()
        .then(|| String::from_utf8(dot_stuffed(email)).ok())
        .flatten();
    let transaction = || {
        conn.command(Mail::new(envelope.from().cloned(), options))
            .map_err(|e| Failure::Smtp(Step::Sender, e))?;
        let step = |e| Failure::Smtp(Step::Mail, e);
        for to in envelope.to() {
            conn.command(Rcpt::new(to.clone(), vec![])).map_err(step)?;
        }
        conn.command(Data).map_err(step)?;
        match block {
            Some(block) => conn.command(DataBlock(block)),
            None => conn.message(email),
        }
        .map_err(step)
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
                Err(failure) => {
                    let err = classify(&mail.message_id, &failure);
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

    /// Issue 36: settings that cannot work (here plain SMTP to a host that is not the
    /// loopback) fail every mail for now: the operator fixes them, and no recipient is
    /// marked as refusing mail (they were permanent failures, which gave the mail up).
    #[test]
    fn a_connection_that_cannot_be_made_fails_for_now() {
        let mut c = SmtpConfig::new("192.0.2.1", 25);
        c.security = Security::Plain;
        let mail = RenderedMail {
            message_id: "m".into(),
            envelope_from: Some("judge@example.test".into()),
            recipients: vec!["anna@example.test".into()],
            bytes: b"Subject: x\r\n\r\nx\r\n".to_vec(),
        };
        let results = SmtpOutbox::new(c).send_batch(&[mail]);
        assert!(
            matches!(&results[..], [Err(SendError::Temporary { reason, .. })] if reason.contains("only on loopback")),
            "{results:?}"
        );
    }

    /// How a scripted server answers a command (`None`: `250 ok`).
    type Answer = fn(&str) -> Option<&'static str>;

    /// A server on the loopback that answers each command as `answer` says, takes a mail's
    /// content after `DATA`, and serves connections one after another.
    fn scripted_server(answer: Answer) -> u16 {
        use std::io::{BufRead, BufReader, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut out) = stream else { return };
                let mut lines = BufReader::new(out.try_clone().unwrap());
                let _ = out.write_all(b"220 scripted ESMTP\r\n");
                let mut line = String::new();
                while lines.read_line(&mut line).is_ok_and(|n| n > 0) {
                    let command = line.trim_end().to_ascii_uppercase();
                    let reply = if command.starts_with("EHLO") {
                        "250-scripted\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME"
                    } else if command == "DATA" {
                        let _ = out.write_all(b"354 go on\r\n");
                        let mut content = String::new();
                        while lines.read_line(&mut content).is_ok_and(|n| n > 0) {
                            if content.ends_with("\r\n.\r\n") {
                                break;
                            }
                        }
                        "250 queued"
                    } else if command == "QUIT" {
                        let _ = out.write_all(b"221 bye\r\n");
                        break;
                    } else {
                        answer(&command).unwrap_or("250 ok")
                    };
                    let _ = out.write_all(format!("{reply}\r\n").as_bytes());
                    line.clear();
                }
            }
        });
        port
    }

    /// A batch of mails to `to`, in order, each under its own Message-ID.
    fn mails_to(to: &[&str]) -> Vec<RenderedMail> {
        to.iter()
            .enumerate()
            .map(|(i, to)| RenderedMail {
                message_id: format!("m{i}"),
                envelope_from: Some("judge@example.test".into()),
                recipients: vec![(*to).into()],
                bytes: b"Subject: x\r\n\r\nx\r\n".to_vec(),
            })
            .collect()
    }

    fn outbox_on(port: u16, login: bool) -> SmtpOutbox {
        let mut c = SmtpConfig::new("127.0.0.1", port);
        c.security = Security::Plain;
        c.timeout = Duration::from_secs(5);
        if login {
            c.credentials = Some(("judge".into(), "secret".into()));
        }
        SmtpOutbox::new(c)
    }

    /// Issue 36: only a recipient's refusal is permanent. A 5xx to `RCPT TO` gives that mail
    /// up (its recipient is marked as refusing mail) and the next mail goes out; a 5xx to
    /// the login or to the judge's own address (`MAIL FROM`) says nothing of any
    /// recipient: every mail fails for now and stays queued (they were permanent, which
    /// gave up every mail of the batch and marked each recipient bouncing).
    #[test]
    fn only_a_recipients_refusal_is_permanent() {
        let port = scripted_server(|c| c.contains("<GONE@").then_some("550 5.1.1 no such user"));
        let results = outbox_on(port, false)
            .send_batch(&mails_to(&["gone@example.test", "anna@example.test"]));
        assert!(
            matches!(&results[..], [Err(SendError::Permanent { message_id, reason }), Ok(())]
                if message_id == "m0" && reason.contains("no such user")),
            "{results:?}"
        );

        // Nothing said of any recipient: every mail of the batch fails for now.
        let refusals: [(Answer, &str); 2] = [
            (
                |c| {
                    c.starts_with("AUTH")
                        .then_some("535 5.7.8 authentication credentials invalid")
                },
                "authentication failed",
            ),
            (
                |c| {
                    c.starts_with("MAIL FROM")
                        .then_some("553 5.7.1 sender address rejected: not owned by user")
                },
                "sender address",
            ),
        ];
        for (answer, why) in refusals {
            let results = outbox_on(scripted_server(answer), true)
                .send_batch(&mails_to(&["anna@example.test", "bert@example.test"]));
            assert!(
                results
                    .iter()
                    .all(|r| matches!(r, Err(SendError::Temporary { reason, .. })
                    if reason.contains(why))),
                "{why}: {results:?}"
            );
        }
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
