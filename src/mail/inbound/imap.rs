//! IMAP inbox (crate `imap` 3.0.0-alpha.15, native-tls): TLS, STARTTLS or (loopback only)
//! plain, the TLS stream built here so a private root certificate can be trusted; fetch
//! by UID with `BODY.PEEK[]`; IDLE when offered, polling otherwise; `\Seen` plus a move to a
//! processed folder on commit, to a rejected folder on reject; reconnect with back-off.
//!
//! UIDs mean something only together with the mailbox's UIDVALIDITY, so the bookkeeping is
//! [`ImapCursor`] `(mailbox, uidvalidity, last uid)`. The caller stores the cursor of each
//! message it commits (in SQLite, with that message's transaction) and hands it back to
//! [`ImapInbox::new`] on start; this module writes no SQL.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use imap::extensions::idle::WaitOutcome;
use imap::types::UnsolicitedResponse;
use native_tls::{TlsConnector, TlsStream};
use tracing::{debug, info, warn};

use crate::mail::Security;
use crate::mail::inbound::{InboundError, Inbox, MessageRef, RawMessage};

/// Where and how to read mail over IMAP.
#[derive(Debug, Clone)]
pub struct ImapConfig {
    /// Host name; also the name checked in the server's certificate.
    pub host: String,
    /// Port (993 for TLS, 143 for STARTTLS in the wild; 1993 / 1143 on the test servers).
    pub port: u16,
    /// Connection security. [`Security::Plain`] is refused unless `host` is loopback.
    pub security: Security,
    /// A PEM root certificate to trust besides the system's (a private CA).
    pub root_certificate: Option<PathBuf>,
    /// Login name.
    pub username: String,
    /// Password.
    pub password: String,
    /// The mailbox read (`INBOX`).
    pub mailbox: String,
    /// Where committed mail goes (`Processed`); created when missing.
    pub processed: String,
    /// Where unparsable mail goes (`Rejected`); created when missing.
    pub rejected: String,
    /// How often to look for mail when the server has no IDLE (or `idle` is off).
    pub poll_interval: Duration,
    /// Use IDLE when the server offers it; false: always poll.
    pub idle: bool,
    /// The longest single IDLE (servers may drop an IDLE after 30 minutes).
    pub idle_limit: Duration,
    /// Time-out for connecting and for each reply outside IDLE.
    pub timeout: Duration,
    /// First reconnect delay; doubles on each failure up to `backoff_max`.
    pub backoff_min: Duration,
    /// Longest reconnect delay.
    pub backoff_max: Duration,
    /// Most messages handed out by one [`Inbox::fetch_new`].
    pub batch: usize,
}

impl ImapConfig {
    /// A configuration with TLS, folders `INBOX` / `Processed` / `Rejected`, 60 s polling,
    /// 29 min IDLE, 30 s time-out, back-off 1 s to 5 min, batches of 50.
    pub fn new(
        host: impl Into<String>,
        port: u16,
        username: impl Into<String>,
        password: impl Into<String>,
    ) -> Self {
        ImapConfig {
            host: host.into(),
            port,
            security: Security::Tls,
            root_certificate: None,
            username: username.into(),
            password: password.into(),
            mailbox: "INBOX".into(),
            processed: "Processed".into(),
            rejected: "Rejected".into(),
            poll_interval: Duration::from_secs(60),
            idle: true,
            idle_limit: Duration::from_secs(29 * 60),
            timeout: Duration::from_secs(30),
            backoff_min: Duration::from_secs(1),
            backoff_max: Duration::from_secs(300),
            batch: 50,
        }
    }

    fn server(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// The IMAP bookkeeping the caller stores: the last UID committed in a mailbox, valid only
/// while the mailbox keeps its UIDVALIDITY.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ImapCursor {
    /// The mailbox name.
    pub mailbox: String,
    /// The mailbox's UIDVALIDITY.
    pub uidvalidity: u32,
    /// The highest UID committed.
    pub last_uid: u32,
}

impl ImapCursor {
    /// The cursor that records `id` as committed, if `id` is an IMAP message.
    pub fn of(id: &MessageRef) -> Option<ImapCursor> {
        match id {
            MessageRef::Imap {
                mailbox,
                uidvalidity,
                uid,
            } => Some(ImapCursor {
                mailbox: mailbox.clone(),
                uidvalidity: *uidvalidity,
                last_uid: *uid,
            }),
            MessageRef::Maildir { .. } => None,
        }
    }
}

/// The socket under the IMAP session: plain (loopback only) or TLS.
#[derive(Debug)]
enum Stream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

impl imap::extensions::idle::SetReadTimeout for Stream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> imap::error::Result<()> {
        let tcp = match self {
            Stream::Plain(s) => s,
            Stream::Tls(s) => s.get_ref(),
        };
        tcp.set_read_timeout(timeout)
            .map_err(imap::error::Error::Io)
    }
}

/// A logged-in session with the mailbox selected.
struct Connected {
    session: imap::Session<Stream>,
    /// A second handle on the socket, to restore the read time-out after IDLE.
    socket: TcpStream,
    uidvalidity: u32,
    can_idle: bool,
    can_move: bool,
}

/// Reads one mailbox over IMAP.
pub struct ImapInbox {
    config: ImapConfig,
    conn: Option<Connected>,
    /// Last UID committed (what the caller stores), for the mailbox's UIDVALIDITY.
    committed: Option<ImapCursor>,
    /// Last UID handed out on the current connection.
    handed: u32,
    /// A UID the search found but the fetch did not return, and how many times in a row.
    missing: Option<(u32, u32)>,
    backoff: Duration,
    next_attempt: Option<Instant>,
}

/// Fetches in a row that may miss a searched message before it is skipped.
const MISSING_ATTEMPTS: u32 = 3;

/// Of the UIDs a search found (ascending) and those the fetch returned (ascending): the last
/// UID of the leading run that came back in full, and the first UID missing. Only that run
/// is handed out: a fetch cut short (a connection lost mid-response) must not let a later
/// message be committed past an earlier one, which the committed cursor would then skip
/// for good.
fn leading_run(searched: &[u32], returned: &[u32]) -> (Option<u32>, Option<u32>) {
    let mut upto = None;
    for &u in searched {
        if returned.binary_search(&u).is_ok() {
            upto = Some(u);
        } else {
            return (upto, Some(u));
        }
    }
    (upto, None)
}

impl std::fmt::Debug for ImapInbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImapInbox")
            .field("server", &self.config.server())
            .field("mailbox", &self.config.mailbox)
            .field("connected", &self.conn.is_some())
            .field("committed", &self.committed)
            .field("handed", &self.handed)
            .finish()
    }
}

/// Sorts `imap` errors: a lost or broken connection makes the server unavailable; NO and
/// BAD are refusals of one command.
enum Failure {
    Lost(String),
    Refused(String),
}

impl From<imap::error::Error> for Failure {
    fn from(e: imap::error::Error) -> Self {
        match e {
            imap::error::Error::No(s) => Failure::Refused(s.information),
            imap::error::Error::Bad(s) => Failure::Refused(s.information),
            other => Failure::Lost(other.to_string()),
        }
    }
}

impl ImapInbox {
    /// An inbox for `config`, resuming after `stored` (the cursor of the last message the
    /// caller committed, if any). Nothing is connected until the first call that needs it.
    pub fn new(config: ImapConfig, stored: Option<ImapCursor>) -> Self {
        let backoff = config.backoff_min;
        ImapInbox {
            committed: stored.filter(|c| c.mailbox == config.mailbox),
            config,
            conn: None,
            handed: 0,
            missing: None,
            backoff,
            next_attempt: None,
        }
    }

    /// The bookkeeping to store: the last committed message, if any.
    pub fn cursor(&self) -> Option<&ImapCursor> {
        self.committed.as_ref()
    }

    /// The mailbox's UIDVALIDITY on the current connection.
    pub fn uidvalidity(&self) -> Option<u32> {
        self.conn.as_ref().map(|c| c.uidvalidity)
    }

    /// True when a session is open.
    pub fn is_connected(&self) -> bool {
        self.conn.is_some()
    }

    /// Connects now unless connected or inside the back-off delay.
    pub fn connect(&mut self) -> Result<(), InboundError> {
        self.ensure_connected().map(|_| ())
    }

    /// Logs out and closes the connection (a later call reconnects).
    pub fn disconnect(&mut self) {
        if let Some(mut c) = self.conn.take() {
            let _ = c.session.logout();
        }
    }

    fn unavailable(&self, reason: impl Into<String>) -> InboundError {
        InboundError::Unavailable {
            server: self.config.server(),
            reason: reason.into(),
        }
    }

    fn tls_connector(&self) -> Result<TlsConnector, InboundError> {
        let mut builder = TlsConnector::builder();
        if let Some(path) = &self.config.root_certificate {
            let pem = std::fs::read(path).map_err(|e| {
                InboundError::Config(format!(
                    "cannot read root certificate {}: {e}",
                    path.display()
                ))
            })?;
            let cert = native_tls::Certificate::from_pem(&pem).map_err(|e| {
                InboundError::Config(format!(
                    "root certificate {} is not PEM: {e}",
                    path.display()
                ))
            })?;
            builder.add_root_certificate(cert);
        }
        builder
            .build()
            .map_err(|e| InboundError::Config(format!("cannot set up TLS: {e}")))
    }

    fn open(&self) -> Result<Connected, InboundError> {
        let c = &self.config;
        if c.security == Security::Plain && !crate::mail::is_loopback(&c.host, c.port) {
            return Err(InboundError::Config(format!(
                "plain IMAP is allowed only on loopback, and {} is not",
                c.host
            )));
        }
        let addrs = (c.host.as_str(), c.port)
            .to_socket_addrs()
            .map_err(|e| self.unavailable(format!("cannot resolve {}: {e}", c.host)))?;
        let mut last_err = format!("{} resolves to no address", c.host);
        let mut tcp = None;
        for addr in addrs {
            match TcpStream::connect_timeout(&addr, c.timeout) {
                Ok(s) => {
                    tcp = Some(s);
                    break;
                }
                Err(e) => last_err = format!("cannot connect to {addr}: {e}"),
            }
        }
        let mut tcp = tcp.ok_or_else(|| self.unavailable(last_err))?;
        let io = |e: std::io::Error| self.unavailable(e.to_string());
        tcp.set_read_timeout(Some(c.timeout)).map_err(io)?;
        tcp.set_write_timeout(Some(c.timeout)).map_err(io)?;
        tcp.set_nodelay(true).map_err(io)?;
        let socket = tcp.try_clone().map_err(io)?;

        let tls = |tcp: TcpStream| -> Result<Stream, InboundError> {
            let connector = self.tls_connector()?;
            let s = connector
                .connect(&c.host, tcp)
                .map_err(|e| self.unavailable(format!("TLS handshake failed: {e}")))?;
            Ok(Stream::Tls(Box::new(s)))
        };
        let greeted = |mut client: imap::Client<Stream>| -> Result<_, InboundError> {
            client
                .read_greeting()
                .map_err(|e| self.unavailable(e.to_string()))?;
            Ok(client)
        };
        let client = match c.security {
            Security::Plain => greeted(imap::Client::new(Stream::Plain(tcp)))?,
            Security::Tls => greeted(imap::Client::new(tls(tcp)?))?,
            Security::StartTls => {
                // The crate's builder speaks STARTTLS only with the system's roots, and its
                // command machinery is not public before LOGIN: the three lines of the
                // exchange are read and written here, then the TLS stream is built with the
                // configured root.
                starttls(&mut tcp).map_err(|e| self.unavailable(e))?;
                // No greeting after STARTTLS (RFC 3501 §6.2.1).
                imap::Client::new(tls(tcp)?)
            }
        };
        let mut session = client
            .login(&c.username, &c.password)
            .map_err(|(e, _)| match e {
                imap::error::Error::No(s) => InboundError::Config(format!(
                    "login as {} refused: {}",
                    c.username, s.information
                )),
                imap::error::Error::Bad(s) => InboundError::Config(format!(
                    "login as {} refused: {}",
                    c.username, s.information
                )),
                other => self.unavailable(format!("login failed: {other}")),
            })?;
        let lost = |e: imap::error::Error| self.unavailable(e.to_string());
        let (can_idle, can_move) = {
            let caps = session.capabilities().map_err(lost)?;
            (c.idle && caps.has_str("IDLE"), caps.has_str("MOVE"))
        };
        for folder in [&c.processed, &c.rejected] {
            match session.create(folder) {
                Ok(()) => info!(folder = %folder, "created IMAP folder"),
                // Already there (Dovecot: "[ALREADYEXISTS] Mailbox already exists").
                Err(imap::error::Error::No(_)) => {}
                Err(e) => return Err(lost(e)),
            }
        }
        let mailbox = session
            .select(&c.mailbox)
            .map_err(|e| match Failure::from(e) {
                Failure::Refused(reason) => InboundError::Refused {
                    server: c.server(),
                    command: format!("SELECT {}", c.mailbox),
                    reason,
                },
                Failure::Lost(reason) => self.unavailable(reason),
            })?;
        let uidvalidity = mailbox.uid_validity.unwrap_or(0);
        debug!(server = %c.server(), uidvalidity, can_idle, can_move, "IMAP session open");
        Ok(Connected {
            session,
            socket,
            uidvalidity,
            can_idle,
            can_move,
        })
    }

    fn ensure_connected(&mut self) -> Result<&mut Connected, InboundError> {
        if self.conn.is_none() {
            if let Some(t) = self.next_attempt
                && Instant::now() < t
            {
                return Err(self.unavailable(format!(
                    "waiting {:?} before reconnecting",
                    t - Instant::now()
                )));
            }
            match self.open() {
                Ok(conn) => {
                    self.backoff = self.config.backoff_min;
                    self.next_attempt = None;
                    self.handed = match &self.committed {
                        Some(cur) if cur.uidvalidity == conn.uidvalidity => cur.last_uid,
                        Some(cur) => {
                            warn!(
                                mailbox = %cur.mailbox,
                                old = cur.uidvalidity,
                                new = conn.uidvalidity,
                                "UIDVALIDITY changed: reading the mailbox from the start"
                            );
                            self.committed = None;
                            0
                        }
                        None => 0,
                    };
                    info!(server = %self.config.server(), mailbox = %self.config.mailbox, "connected");
                    self.conn = Some(conn);
                }
                Err(e) => {
                    self.schedule_reconnect(&e.to_string());
                    return Err(e);
                }
            }
        }
        self.conn
            .as_mut()
            .ok_or_else(|| InboundError::Config("no IMAP session".into()))
    }

    fn schedule_reconnect(&mut self, reason: &str) {
        self.conn = None;
        let delay = self.backoff;
        self.next_attempt = Some(Instant::now() + delay);
        self.backoff = (self.backoff * 2).min(self.config.backoff_max);
        warn!(server = %self.config.server(), reason, retry_in = ?delay, "IMAP connection lost");
    }

    /// Turns a failure into an error, dropping the connection when it was lost.
    fn fail(&mut self, command: String, f: Failure) -> InboundError {
        match f {
            Failure::Lost(reason) => {
                self.schedule_reconnect(&reason);
                self.unavailable(reason)
            }
            Failure::Refused(reason) => InboundError::Refused {
                server: self.config.server(),
                command,
                reason,
            },
        }
    }

    fn check_ref(&self, id: &MessageRef) -> Result<u32, InboundError> {
        let unknown = |reason: String| InboundError::UnknownMessage {
            id: id.clone(),
            reason,
        };
        let MessageRef::Imap {
            mailbox,
            uidvalidity,
            uid,
        } = id
        else {
            return Err(unknown("it is not an IMAP message".into()));
        };
        if *mailbox != self.config.mailbox {
            return Err(unknown(format!("this inbox reads {}", self.config.mailbox)));
        }
        match self.uidvalidity() {
            Some(v) if v != *uidvalidity => Err(unknown(format!(
                "the mailbox's UIDVALIDITY is now {v}: the message will be fetched again"
            ))),
            _ => Ok(*uid),
        }
    }

    /// Flags `\Seen` and moves the messages `ids` into `folder`: one `UID STORE` and one
    /// `UID MOVE` for all of them (each command costs a round trip and a write at the server).
    fn file_away(&mut self, ids: &[MessageRef], folder: String) -> Result<(), InboundError> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut uids = Vec::with_capacity(ids.len());
        for id in ids {
            uids.push(self.check_ref(id)?);
        }
        let conn = self.ensure_connected()?;
        // The connection may be new: check the UIDVALIDITY again.
        for id in ids {
            if let MessageRef::Imap { uidvalidity, .. } = id
                && *uidvalidity != conn.uidvalidity
            {
                return Err(InboundError::UnknownMessage {
                    id: id.clone(),
                    reason: format!(
                        "the mailbox's UIDVALIDITY is now {}: the message will be fetched again",
                        conn.uidvalidity
                    ),
                });
            }
        }
        let set = uids
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let result: Result<(), (String, Failure)> = (|| {
            conn.session
                .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
                .map_err(|e| (format!("UID STORE {set} +FLAGS (\\Seen)"), e.into()))?;
            if conn.can_move {
                conn.session
                    .uid_mv(&set, &folder)
                    .map_err(|e| (format!("UID MOVE {set} {folder}"), e.into()))?;
            } else {
                conn.session
                    .uid_copy(&set, &folder)
                    .map_err(|e| (format!("UID COPY {set} {folder}"), e.into()))?;
                conn.session
                    .uid_store(&set, "+FLAGS.SILENT (\\Deleted)")
                    .map_err(|e| (format!("UID STORE {set} +FLAGS (\\Deleted)"), e.into()))?;
                conn.session
                    .uid_expunge(&set)
                    .map_err(|e| (format!("UID EXPUNGE {set}"), e.into()))?;
            }
            Ok(())
        })();
        result.map_err(|(command, f)| self.fail(command, f))
    }
}

/// Plain-text STARTTLS exchange before the TLS handshake: greeting, `STARTTLS`, `OK`.
fn starttls(tcp: &mut TcpStream) -> Result<(), String> {
    let greeting = read_line(tcp)?;
    if !greeting.starts_with("* OK") && !greeting.starts_with("* PREAUTH") {
        return Err(format!("unexpected greeting {greeting:?}"));
    }
    tcp.write_all(b"s0 STARTTLS\r\n")
        .map_err(|e| format!("cannot send STARTTLS: {e}"))?;
    loop {
        let line = read_line(tcp)?;
        if let Some(rest) = line.strip_prefix("s0 ") {
            return if rest.starts_with("OK") {
                Ok(())
            } else {
                Err(format!("STARTTLS refused: {line}"))
            };
        }
    }
}

/// Reads one CRLF-terminated line byte by byte (nothing may be buffered past it: TLS
/// starts right after).
fn read_line(tcp: &mut TcpStream) -> Result<String, String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while line.len() < 8192 {
        match tcp.read(&mut byte) {
            Ok(0) => return Err("the server closed the connection".into()),
            Ok(_) => {
                if byte == [b'\n'] {
                    return Ok(String::from_utf8_lossy(&line).trim_end().to_string());
                }
                line.extend_from_slice(&byte);
            }
            Err(e) => return Err(format!("cannot read from the server: {e}")),
        }
    }
    Err("the server sent an overlong line".into())
}

impl Inbox for ImapInbox {
    fn fetch_new(&mut self) -> Result<Vec<RawMessage>, InboundError> {
        let batch = self.config.batch;
        let mailbox = self.config.mailbox.clone();
        self.ensure_connected()?;
        let from = self.handed.saturating_add(1);
        let Some(conn) = self.conn.as_mut() else {
            return Ok(Vec::new());
        };
        let uidvalidity = conn.uidvalidity;
        let search = format!("UID {from}:* UNSEEN");
        let uids = match conn.session.uid_search(&search) {
            Ok(u) => u,
            Err(e) => return Err(self.fail(format!("UID SEARCH {search}"), e.into())),
        };
        // `n:*` always includes the highest UID, even when it is below n.
        let mut uids: Vec<u32> = uids.into_iter().filter(|u| *u >= from).collect();
        uids.sort_unstable();
        uids.truncate(batch);
        if uids.is_empty() {
            return Ok(Vec::new());
        }
        let set = uids
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let fetched = match conn.session.uid_fetch(&set, "(UID BODY.PEEK[])") {
            Ok(f) => f,
            Err(e) => return Err(self.fail(format!("UID FETCH {set}"), e.into())),
        };
        let mut out: Vec<RawMessage> = fetched
            .iter()
            .filter_map(|f| {
                let uid = f.uid?;
                let body = f.body()?;
                uids.contains(&uid).then(|| RawMessage {
                    id: MessageRef::Imap {
                        mailbox: mailbox.clone(),
                        uidvalidity,
                        uid,
                    },
                    bytes: body.to_vec(),
                })
            })
            .collect();
        let uid_of = |m: &RawMessage| match m.id {
            MessageRef::Imap { uid, .. } => uid,
            MessageRef::Maildir { .. } => 0,
        };
        out.sort_by_key(uid_of);
        out.dedup_by_key(|m| uid_of(m));
        let returned: Vec<u32> = out.iter().map(uid_of).collect();
        let (upto, missing) = leading_run(&uids, &returned);
        if let Some(m) = missing {
            let times = match self.missing {
                Some((uid, n)) if uid == m => n + 1,
                _ => 1,
            };
            if upto.is_none() && times >= MISSING_ATTEMPTS {
                // Expunged by another client, or a server that will not return it: go on
                // past it (it stays in the mailbox for the operator).
                warn!(
                    uid = m,
                    times, "a message the search found is never fetched; skipped"
                );
                self.handed = self.handed.max(m);
                self.missing = None;
            } else {
                debug!(
                    uid = m,
                    times, "a searched message did not come back; it is fetched again"
                );
                self.missing = Some((m, times));
            }
        } else {
            self.missing = None;
        }
        if let Some(u) = upto {
            self.handed = self.handed.max(u);
        }
        out.retain(|m| upto.is_some_and(|u| uid_of(m) <= u));
        debug!(count = out.len(), handed = self.handed, "fetched");
        Ok(out)
    }

    fn wait(&mut self, until: Instant) -> Result<(), InboundError> {
        let now = Instant::now();
        if now >= until {
            return Ok(());
        }
        if self.conn.is_none() {
            // Sleep out the back-off (bounded by `until`), then try once.
            if let Some(t) = self.next_attempt {
                std::thread::sleep(t.min(until).saturating_duration_since(now));
            }
            if Instant::now() < until {
                // A failure is already logged and rescheduled; the next fetch reports it.
                let _ = self.ensure_connected();
            }
            return Ok(());
        }
        let idle_limit = self.config.idle_limit;
        let poll = self.config.poll_interval;
        let timeout = self.config.timeout;
        let Some(conn) = self.conn.as_mut() else {
            return Ok(());
        };
        // New mail reported during earlier commands: no need to wait.
        let pending = conn.session.take_all_unsolicited().any(|r| {
            matches!(
                r,
                UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
            )
        });
        if pending {
            return Ok(());
        }
        if !conn.can_idle {
            std::thread::sleep(poll.min(until - now));
            if let Err(e) = conn.session.noop() {
                let _ = self.fail("NOOP".into(), e.into());
            }
            return Ok(());
        }
        let limit = (until - now).min(idle_limit).max(Duration::from_millis(1));
        // Any untagged response ends the wait; the fetch that follows searches again.
        let outcome = conn
            .session
            .idle()
            .timeout(limit)
            .keepalive(false)
            .wait_while(|_| false);
        // IDLE leaves the socket without a read time-out: restore ours.
        let restored = conn.socket.set_read_timeout(Some(timeout));
        match (outcome, restored) {
            (Ok(o), Ok(())) => {
                let woken = matches!(o, WaitOutcome::MailboxChanged);
                debug!(woken, "IDLE ended");
                Ok(())
            }
            (Err(e), _) => {
                let _ = self.fail("IDLE".into(), Failure::Lost(e.to_string()));
                Ok(())
            }
            (_, Err(e)) => {
                let _ = self.fail("IDLE".into(), Failure::Lost(e.to_string()));
                Ok(())
            }
        }
    }

    fn commit(&mut self, id: &MessageRef) -> Result<(), InboundError> {
        self.commit_all(std::slice::from_ref(id))
    }

    fn commit_all(&mut self, ids: &[MessageRef]) -> Result<(), InboundError> {
        let folder = self.config.processed.clone();
        self.file_away(ids, folder)?;
        for id in ids {
            if let Some(cur) = ImapCursor::of(id)
                && self
                    .committed
                    .as_ref()
                    .is_none_or(|c| c.uidvalidity != cur.uidvalidity || c.last_uid < cur.last_uid)
            {
                self.committed = Some(cur);
            }
            debug!(message = %id, "committed");
        }
        Ok(())
    }

    fn reject(&mut self, id: &MessageRef, reason: &str) -> Result<(), InboundError> {
        let folder = self.config.rejected.clone();
        self.file_away(std::slice::from_ref(id), folder.clone())?;
        warn!(message = %id, folder = %folder, reason, "rejected unparsable mail");
        Ok(())
    }

    fn rewind(&mut self) {
        self.handed = self.committed.as_ref().map_or(0, |c| c.last_uid);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_leading_run_of_a_fetch_is_handed_out() {
        assert_eq!(leading_run(&[], &[]), (None, None));
        assert_eq!(leading_run(&[3, 5, 9], &[3, 5, 9]), (Some(9), None));
        // 5 did not come back: 3 goes out, 5 and 9 are fetched again.
        assert_eq!(leading_run(&[3, 5, 9], &[3, 9]), (Some(3), Some(5)));
        assert_eq!(leading_run(&[3, 5, 9], &[5, 9]), (None, Some(3)));
        assert_eq!(leading_run(&[3, 5], &[]), (None, Some(3)));
    }

    #[test]
    fn plain_is_refused_off_loopback() {
        let mut cfg = ImapConfig::new("192.0.2.1", 143, "u", "p");
        cfg.security = Security::Plain;
        let mut inbox = ImapInbox::new(cfg, None);
        let err = inbox.connect().unwrap_err();
        assert!(matches!(err, InboundError::Config(_)), "{err}");
        assert!(err.to_string().contains("only on loopback"), "{err}");
    }

    #[test]
    fn unreachable_server_backs_off_without_spinning() {
        // A closed loopback port: connection refused at once.
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let mut cfg = ImapConfig::new("127.0.0.1", port, "u", "p");
        cfg.security = Security::Plain;
        cfg.backoff_min = Duration::from_millis(200);
        let mut inbox = ImapInbox::new(cfg, None);
        assert!(matches!(
            inbox.fetch_new(),
            Err(InboundError::Unavailable { .. })
        ));
        // Inside the back-off no connection is tried.
        let err = inbox.fetch_new().unwrap_err();
        assert!(err.to_string().contains("before reconnecting"), "{err}");
        // wait() sleeps out the back-off instead of returning at once.
        let start = Instant::now();
        inbox.wait(start + Duration::from_secs(5)).unwrap();
        let waited = start.elapsed();
        assert!(waited >= Duration::from_millis(150), "{waited:?}");
        assert!(waited < Duration::from_secs(2), "{waited:?}");
        // The delay doubled after the second failure.
        assert_eq!(inbox.backoff, Duration::from_millis(800));
    }

    #[test]
    fn cursor_of_a_reference() {
        let id = MessageRef::Imap {
            mailbox: "INBOX".into(),
            uidvalidity: 7,
            uid: 42,
        };
        assert_eq!(
            ImapCursor::of(&id),
            Some(ImapCursor {
                mailbox: "INBOX".into(),
                uidvalidity: 7,
                last_uid: 42
            })
        );
        let stored = ImapCursor::of(&id);
        let inbox = ImapInbox::new(ImapConfig::new("localhost", 1, "u", "p"), stored.clone());
        assert_eq!(inbox.cursor(), stored.as_ref());
    }
}
