//! SMTP delivery with lettre: implicit TLS, STARTTLS or (loopback only) plain, optional AUTH,
//! one connection per batch, replies sorted into temporary and permanent failures.
//!
//! lettre 0.11.23 spends ~40 ms per message on a fresh connection (two small writes meet the
//! server's delayed ACK), so a batch shares one connection and `RSET`s after a refused mail.

use std::path::PathBuf;
use std::time::Duration;

use lettre::address::Envelope as SmtpEnvelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::Rset;
use lettre::transport::smtp::extension::ClientId;
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
}

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
        }
    }
}

/// Delivers batches over SMTP, one connection per batch.
#[derive(Debug, Clone)]
pub struct SmtpOutbox {
    config: SmtpConfig,
}

/// Why no SMTP session could be set up; every mail of the batch fails with it.
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
        SmtpOutbox { config }
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

    fn connect(&self) -> Result<SmtpConnection, ConnectFailure> {
        let c = &self.config;
        let hello = ClientId::Domain(c.hello_name.clone());
        let addr = (c.host.as_str(), c.port);
        let temporary = |what: &str, e: lettre::transport::smtp::Error| ConnectFailure {
            reason: format!("{what} {}:{}: {e}", c.host, c.port),
            permanent: e.is_permanent(),
        };
        let mut conn = match c.security {
            Security::Tls => {
                let tls = self.tls_parameters()?;
                SmtpConnection::connect(addr, Some(c.timeout), &hello, Some(&tls), None)
                    .map_err(|e| temporary("cannot connect with TLS to", e))?
            }
            Security::StartTls => {
                let tls = self.tls_parameters()?;
                let mut conn = SmtpConnection::connect(addr, Some(c.timeout), &hello, None, None)
                    .map_err(|e| temporary("cannot connect to", e))?;
                if !conn.can_starttls() {
                    conn.abort();
                    return Err(ConnectFailure {
                        reason: format!("{}:{} does not offer STARTTLS", c.host, c.port),
                        permanent: false,
                    });
                }
                conn.starttls(&tls, &hello)
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

impl Outbox for SmtpOutbox {
    fn send_batch(&mut self, mails: &[RenderedMail]) -> Vec<Result<(), SendError>> {
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
                match self.connect() {
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
            match c.send(&envelope, &mail.bytes) {
                Ok(_) => {
                    debug!(message_id = %mail.message_id, "sent by SMTP");
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
