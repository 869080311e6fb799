//! `judge.toml`: the daemon's configuration as typed structs, read with serde + toml, and
//! turned into the judge's [`JudgeConfig`] and the mail transports.
//!
//! Unknown keys are refused (a typo must not silently fall back to a default), and every
//! error names the key. Relative paths are taken from the directory of the configuration
//! file, so `judge.toml` at the top of the repository finds `./var/...` wherever the judge is
//! started from.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use serde::Deserialize;

use crate::game::DeadlineSettings;
use crate::judge::{JudgeConfig, PasswordCost};
use crate::mail::Security;
use crate::mail::inbound::imap::{ImapConfig, ImapCursor, ImapInbox};
use crate::mail::inbound::maildir::MaildirInbox;
use crate::mail::oauth::{OAuth2Config, TokenSource};
use crate::mail::outbound::maildir::MaildirOutbox;
use crate::mail::outbound::smtp::{SmtpConfig, SmtpOutbox, Xoauth2Login};
use crate::mail::{Inbox, Outbox, ParseLimits};

/// The whole file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `[judge]`: identity, database, defaults for new games.
    pub judge: JudgeSection,
    /// `[deadlines]`: default deadline settings for new games.
    #[serde(default)]
    pub deadlines: DeadlineSettings,
    /// `[daemon]`: the loop's pace and limits.
    #[serde(default)]
    pub daemon: DaemonSection,
    /// `[inbound]`: where mail is read.
    pub inbound: InboundSection,
    /// `[outbound]`: where mail is sent.
    pub outbound: OutboundSection,
    /// `[web]`: the read-only web view (off when absent).
    #[serde(default)]
    pub web: Option<crate::web::WebSection>,
    /// The directory relative paths are taken from (the file's own directory).
    #[serde(skip)]
    pub base: PathBuf,
    /// The rule sets the judge runs: not from the file (every one this judge has); a test
    /// adds its own.
    #[serde(skip)]
    pub variants: crate::variant::Registry,
}

/// `[judge]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeSection {
    /// The judge's short name in subjects (`DIP`).
    pub name: String,
    /// The judge's own mail address.
    pub address: String,
    /// The SQLite database file.
    pub database: PathBuf,
    /// Default time zone of new games (an IANA name, e.g. `UTC`, `Europe/Paris`).
    #[serde(default = "utc")]
    pub time_zone: String,
    /// A fixed seed for salts and power assignment; unset: fresh randomness from the OS.
    pub seed: Option<u64>,
    /// `default` (argon2id, 4 MiB, 1 pass) or `test` (the cheapest: tests only).
    #[serde(default)]
    pub password_cost: PasswordCostSetting,
    /// Remember passwords this process verified (keyed MACs in memory only), so a player's
    /// next mail skips the argon2 verify. Off: every SIGNON pays the full cost.
    #[serde(default = "yes")]
    pub remember_passwords: bool,
    /// Whether results bulletins carry a picture of the phase for addresses that made no
    /// choice of their own (`SET MAP ON|OFF`). Absent: off, so a judge upgraded with its old
    /// file sends what it sent before; the shipped file turns it on.
    #[serde(default)]
    pub maps: bool,
    /// Games one address may create in 24 hours (a flood of CREATEs costs the judge, and
    /// squats names).
    #[serde(default = "three")]
    pub games_per_address_per_day: u32,
    /// Games all the addresses that never answered a confirmation may create together in
    /// 24 hours (a flood of CREATEs from throwaway addresses, each under its own limit).
    #[serde(default = "twenty")]
    pub unproven_games_per_day: u32,
}

fn three() -> u32 {
    3
}

fn twenty() -> u32 {
    20
}

fn yes() -> bool {
    true
}

fn utc() -> String {
    "UTC".into()
}

/// `password_cost`.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum PasswordCostSetting {
    /// OWASP's argon2id minimum.
    #[default]
    Default,
    /// The cheapest setting: for tests and benchmarks only.
    Test,
}

/// `[daemon]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DaemonSection {
    /// Longest sleep between two passes when nothing wakes the daemon, in seconds.
    pub poll_interval_secs: u64,
    /// Bytes of text read from one mail, in whole lines (the rest is not read and the reply
    /// names the first line not read).
    pub max_text_bytes: usize,
    /// A mail over this size is not read (its size is checked first; its sender gets one
    /// line); also the most bytes one fetch from the inbox holds.
    pub max_message_bytes: usize,
    /// Replies (`auto-replied` mail) to one address per window; more wait in the outbox.
    pub reply_rate_limit: usize,
    /// The rate limiter's window, in seconds.
    pub reply_rate_window_secs: u64,
    /// No longer read (mail failing for now is tried for `max_queue_days`): kept so that a
    /// file written for an older judge still reads; a warning says it is ignored.
    pub max_send_attempts: Option<i64>,
    /// Days a mail that fails for now (a server down or refusing with 4xx, a full disk, a
    /// missing directory) is tried again, with back-off, before it is given up and its
    /// game's master told: the mail transfer agents' convention (Postfix's
    /// `maximal_queue_lifetime`). A refusal for good (5xx) is not retried.
    pub max_queue_days: u32,
    /// Hours a mail fails before its game's master is told it is delayed (once).
    pub delay_notice_hours: u32,
    /// Mails sent through one connection per pass.
    pub send_batch: usize,
    /// Attempts at one message (each counted before it is made, so an attempt that kills
    /// the judge counts) before it is set aside in the rejected folder, its sender and its
    /// game's master told.
    pub max_message_attempts: u32,
}

impl Default for DaemonSection {
    fn default() -> Self {
        DaemonSection {
            poll_interval_secs: 60,
            max_text_bytes: crate::mail::envelope::DEFAULT_MAX_TEXT_BYTES,
            max_message_bytes: crate::mail::envelope::DEFAULT_MAX_MESSAGE_BYTES,
            reply_rate_limit: 30,
            reply_rate_window_secs: 3600,
            max_send_attempts: None,
            max_queue_days: 5,
            delay_notice_hours: 4,
            send_batch: 100,
            max_message_attempts: 5,
        }
    }
}

/// Which transport a section uses.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// Files on disk (no server).
    Maildir,
    /// An IMAP mailbox (`[inbound]` only).
    Imap,
    /// An SMTP server (`[outbound]` only).
    Smtp,
}

/// `[inbound]`: `kind = "maildir"` with `path`, or `kind = "imap"` with the server keys.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InboundSection {
    pub kind: Transport,
    /// Maildir: the directory.
    pub path: Option<PathBuf>,
    /// IMAP: the mailbox read.
    #[serde(default = "inbox")]
    pub mailbox: String,
    /// Where processed mail is moved (IMAP folder or Maildir++ folder).
    #[serde(default = "processed")]
    pub processed: String,
    /// Where unparsable mail is moved.
    #[serde(default = "rejected")]
    pub rejected: String,
    pub host: Option<String>,
    pub port: Option<u16>,
    /// `tls`, `starttls` or `plain` (plain only to a loopback host).
    #[serde(default)]
    pub tls: TlsMode,
    pub user: Option<String>,
    pub password: Option<String>,
    /// `password` (the default) or `xoauth2` (OAuth 2.0: the keys below, no password).
    #[serde(default)]
    pub auth: AuthMode,
    /// XOAUTH2: the provider's token endpoint, the judge's client there, and the refresh
    /// token it was given when the mailbox's owner authorised it (docs/mailboxes.md).
    pub token_url: Option<String>,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub refresh_token: Option<String>,
    /// XOAUTH2: the scope asked for at each renewal (some providers want it).
    pub scope: Option<String>,
    /// A PEM root certificate to trust besides the system's.
    pub root_certificate: Option<PathBuf>,
    /// Wait for mail in IMAP IDLE when the server offers it (push: a mail is read within
    /// about a second); false: poll every `poll_interval_secs` whatever the server offers.
    #[serde(default = "yes")]
    pub idle: bool,
}

impl InboundSection {
    fn oauth_keys(&self) -> OAuthKeys<'_> {
        (
            &self.token_url,
            &self.client_id,
            &self.client_secret,
            &self.refresh_token,
            &self.scope,
        )
    }
}

impl OutboundSection {
    fn oauth_keys(&self) -> OAuthKeys<'_> {
        (
            &self.token_url,
            &self.client_id,
            &self.client_secret,
            &self.refresh_token,
            &self.scope,
        )
    }
}

fn processed() -> String {
    "Processed".into()
}
fn rejected() -> String {
    "Rejected".into()
}
fn inbox() -> String {
    "INBOX".into()
}

/// `[outbound]`: `kind = "maildir"` with `path`, or `kind = "smtp"` with the server keys.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutboundSection {
    pub kind: Transport,
    /// Maildir: the directory.
    pub path: Option<PathBuf>,
    pub host: Option<String>,
    pub port: Option<u16>,
    /// `tls`, `starttls` or `plain` (plain only to a loopback host).
    #[serde(default)]
    pub tls: TlsMode,
    /// Login name; omit both for no AUTH.
    pub user: Option<String>,
    pub password: Option<String>,
    /// `password` (the default) or `xoauth2` (OAuth 2.0: the keys below, no password).
    #[serde(default)]
    pub auth: AuthMode,
    /// XOAUTH2, as in `[inbound]`.
    pub token_url: Option<String>,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub refresh_token: Option<String>,
    pub scope: Option<String>,
    /// A PEM root certificate to trust besides the system's.
    pub root_certificate: Option<PathBuf>,
    /// The name sent in EHLO.
    #[serde(default = "localhost")]
    pub hello_name: String,
    /// SMTP: most connections one batch uses in parallel (1 to 64).
    #[serde(default = "connections")]
    pub connections: usize,
}

fn connections() -> usize {
    crate::mail::outbound::smtp::DEFAULT_CONNECTIONS
}

fn localhost() -> String {
    "localhost".into()
}

/// `auth`: how the judge logs in to its mail servers.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum AuthMode {
    /// `user` and `password` (IMAP LOGIN; SMTP AUTH PLAIN or LOGIN).
    #[default]
    Password,
    /// OAuth 2.0 (`XOAUTH2`): an access token renewed from `refresh_token` at `token_url`.
    Xoauth2,
}

/// The OAuth keys of a section, checked: `(token_url, client_id, client_secret,
/// refresh_token, scope)` as given.
type OAuthKeys<'a> = (
    &'a Option<String>,
    &'a Option<String>,
    &'a Option<String>,
    &'a Option<String>,
    &'a Option<String>,
);

/// Checks the XOAUTH2 keys of `section` (`inbound` or `outbound`).
fn check_oauth(section: &str, auth: AuthMode, keys: OAuthKeys<'_>) -> anyhow::Result<()> {
    let (token_url, client_id, _, refresh_token, _) = keys;
    if auth == AuthMode::Password {
        let given = [keys.0, keys.1, keys.2, keys.3, keys.4]
            .iter()
            .any(|k| k.is_some());
        if given {
            bail!(
                "{section}.token_url, client_id, client_secret, refresh_token and scope are for {section}.auth = \"xoauth2\""
            );
        }
        return Ok(());
    }
    for (key, missing) in [
        ("token_url", token_url.is_none()),
        ("client_id", client_id.is_none()),
        ("refresh_token", refresh_token.is_none()),
    ] {
        if missing {
            bail!("{section}.{key} is needed for auth = \"xoauth2\"");
        }
    }
    if let Some(url) = token_url {
        crate::mail::oauth::check_token_url(url).map_err(|e| anyhow::anyhow!("{section}.{e}"))?;
    }
    Ok(())
}

/// `tls`.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TlsMode {
    #[default]
    Tls,
    Starttls,
    Plain,
}

impl From<TlsMode> for Security {
    fn from(t: TlsMode) -> Security {
        match t {
            TlsMode::Tls => Security::Tls,
            TlsMode::Starttls => Security::StartTls,
            TlsMode::Plain => Security::Plain,
        }
    }
}

impl Config {
    /// Whether the file holds a secret: a mail password (keep it unreadable by others).
    pub fn holds_secret(&self) -> bool {
        self.inbound.password.is_some() || self.outbound.password.is_some()
    }

    /// Reads and checks `path`.
    pub fn load(path: &Path) -> anyhow::Result<Config> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("while reading the configuration {}", path.display()))?;
        let base = path
            .parent()
            .map(Path::to_path_buf)
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or_else(|| PathBuf::from("."));
        Config::parse(&text, &base).with_context(|| format!("in {}", path.display()))
    }

    /// Parses configuration text; relative paths are taken from `base`.
    pub fn parse(text: &str, base: &Path) -> anyhow::Result<Config> {
        // toml's message names the key and shows the line.
        let mut config: Config = toml::from_str(text).map_err(|e| anyhow::anyhow!("{e}"))?;
        config.base = base.to_path_buf();
        config.check()?;
        Ok(config)
    }

    fn check(&self) -> anyhow::Result<()> {
        if self.judge.name.trim().is_empty() {
            bail!("judge.name must not be empty");
        }
        if !self.judge.address.contains('@') {
            bail!(
                "judge.address {:?} is not a mail address",
                self.judge.address
            );
        }
        if self.judge.time_zone.parse::<chrono_tz::Tz>().is_err() {
            bail!(
                "judge.time_zone {:?} is not an IANA time zone name",
                self.judge.time_zone
            );
        }
        if self.daemon.poll_interval_secs == 0 {
            bail!("daemon.poll_interval_secs must be at least 1");
        }
        if self.daemon.reply_rate_limit == 0 {
            bail!("daemon.reply_rate_limit must be at least 1");
        }
        if self.daemon.send_batch == 0 {
            bail!("daemon.send_batch must be at least 1");
        }
        if self.daemon.max_queue_days == 0 {
            bail!("daemon.max_queue_days must be at least 1");
        }
        let i = &self.inbound;
        match i.kind {
            Transport::Maildir if i.path.is_none() => bail!("inbound.path is needed for a Maildir"),
            Transport::Maildir => {}
            Transport::Imap => {
                for (key, missing) in [
                    ("inbound.host", i.host.is_none()),
                    ("inbound.port", i.port.is_none()),
                    ("inbound.user", i.user.is_none()),
                    (
                        "inbound.password",
                        i.password.is_none() && i.auth == AuthMode::Password,
                    ),
                ] {
                    if missing {
                        bail!("{key} is needed for IMAP");
                    }
                }
                check_oauth("inbound", i.auth, i.oauth_keys())?;
            }
            Transport::Smtp => bail!("inbound.kind must be \"maildir\" or \"imap\", not \"smtp\""),
        }
        if let Some(w) = &self.web {
            if let Some(b) = &w.base_url
                && !(b.starts_with("http://") || b.starts_with("https://"))
            {
                bail!("web.base_url {b:?} must start with http:// or https://");
            }
            if w.requests_per_minute == 0 {
                bail!("web.requests_per_minute must be at least 1");
            }
        }
        let o = &self.outbound;
        match o.kind {
            Transport::Maildir if o.path.is_none() => {
                bail!("outbound.path is needed for a Maildir")
            }
            Transport::Maildir => {}
            Transport::Smtp => {
                if o.host.is_none() || o.port.is_none() {
                    bail!("outbound.host and outbound.port are needed for SMTP");
                }
                if o.auth == AuthMode::Xoauth2 && o.user.is_none() {
                    bail!("outbound.user is needed for auth = \"xoauth2\"");
                }
                if o.auth == AuthMode::Password && o.user.is_some() != o.password.is_some() {
                    bail!("outbound.user and outbound.password go together");
                }
                check_oauth("outbound", o.auth, o.oauth_keys())?;
                if !(1..=64).contains(&o.connections) {
                    bail!("outbound.connections must be 1 to 64");
                }
            }
            Transport::Imap => bail!("outbound.kind must be \"maildir\" or \"smtp\", not \"imap\""),
        }
        Ok(())
    }

    /// `p` taken from the configuration file's directory when relative.
    pub fn resolve(&self, p: &Path) -> PathBuf {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.base.join(p)
        }
    }

    /// The database file.
    pub fn database(&self) -> PathBuf {
        self.resolve(&self.judge.database)
    }

    /// The judge's configuration; `seed` comes from the file if fixed there, else from
    /// `fallback_seed` (the caller's OS randomness).
    pub fn judge_config(&self, fallback_seed: u64) -> JudgeConfig {
        JudgeConfig {
            name: self.judge.name.clone(),
            address: self.judge.address.clone(),
            seed: self.judge.seed.unwrap_or(fallback_seed),
            password_cost: match self.judge.password_cost {
                PasswordCostSetting::Default => PasswordCost::default(),
                PasswordCostSetting::Test => PasswordCost::TEST,
            },
            remember_passwords: self.judge.remember_passwords,
            // The daemon reads it from beside the database (`daemon::secret`).
            password_key: None,
            maps: self.judge.maps,
            games_per_day: self.judge.games_per_address_per_day,
            unproven_games_per_day: self.judge.unproven_games_per_day,
            deadlines: self.deadlines.clone(),
            time_zone: self.judge.time_zone.clone(),
            variants: self.variants.clone(),
            web_base_url: self.web.as_ref().and_then(|w| w.base_url.clone()),
        }
    }

    /// Parse limits for inbound mail.
    pub fn parse_limits(&self) -> ParseLimits {
        ParseLimits {
            max_text_bytes: self.daemon.max_text_bytes,
            max_message_bytes: self.daemon.max_message_bytes,
        }
    }

    /// The inbox, resuming after `cursor` (IMAP only).
    pub fn inbox(&self, cursor: Option<ImapCursor>) -> Box<dyn Inbox> {
        let poll = Duration::from_secs(self.daemon.poll_interval_secs);
        let i = &self.inbound;
        match (i.kind, &i.path) {
            (Transport::Maildir, Some(path)) => Box::new(
                MaildirInbox::new(self.resolve(path))
                    .with_folders(&i.processed, &i.rejected)
                    .with_poll_interval(poll.min(Duration::from_secs(1)))
                    .with_max_message_bytes(self.daemon.max_message_bytes),
            ),
            _ => Box::new(ImapInbox::new(self.imap_settings(), cursor)),
        }
    }

    /// The IMAP inbox's settings, when the inbox is IMAP (`dipjudge check` logs in with
    /// them).
    pub fn imap_config(&self) -> Option<ImapConfig> {
        self.inbox_maildir().is_none().then(|| self.imap_settings())
    }

    fn imap_settings(&self) -> ImapConfig {
        let poll = Duration::from_secs(self.daemon.poll_interval_secs);
        let i = &self.inbound;
        let mut c = ImapConfig::new(
            i.host.clone().unwrap_or_default(),
            i.port.unwrap_or(993),
            i.user.clone().unwrap_or_default(),
            i.password.clone().unwrap_or_default(),
        );
        c.security = i.tls.into();
        c.root_certificate = i.root_certificate.as_deref().map(|p| self.resolve(p));
        c.xoauth2 = self.token_source(i.auth, i.oauth_keys());
        i.mailbox.clone_into(&mut c.mailbox);
        i.processed.clone_into(&mut c.processed);
        i.rejected.clone_into(&mut c.rejected);
        c.poll_interval = poll;
        c.idle = i.idle;
        c.backoff_max = c.backoff_max.min(Duration::from_secs(60));
        c.max_message_bytes = self.daemon.max_message_bytes;
        c
    }

    /// The outbox.
    pub fn outbox(&self) -> Box<dyn Outbox> {
        match self.outbox_maildir() {
            Some(path) => Box::new(MaildirOutbox::new(path)),
            None => Box::new(SmtpOutbox::new(self.smtp_settings())),
        }
    }

    /// The Maildir the judge's mail is written to, if the outbox is a Maildir.
    pub fn outbox_maildir(&self) -> Option<PathBuf> {
        match (self.outbound.kind, &self.outbound.path) {
            (Transport::Maildir, Some(p)) => Some(self.resolve(p)),
            _ => None,
        }
    }

    /// The SMTP outbox's settings, when the outbox is SMTP (`dipjudge check` logs in with
    /// them).
    pub fn smtp_config(&self) -> Option<SmtpConfig> {
        self.outbox_maildir()
            .is_none()
            .then(|| self.smtp_settings())
    }

    fn smtp_settings(&self) -> SmtpConfig {
        let o = &self.outbound;
        let mut c = SmtpConfig::new(o.host.clone().unwrap_or_default(), o.port.unwrap_or(587));
        c.security = o.tls.into();
        c.root_certificate = o.root_certificate.as_deref().map(|p| self.resolve(p));
        c.credentials = o.user.clone().zip(o.password.clone());
        c.xoauth2 = self
            .token_source(o.auth, o.oauth_keys())
            .zip(o.user.clone())
            .map(|(tokens, user)| Xoauth2Login { user, tokens });
        o.hello_name.clone_into(&mut c.hello_name);
        c.connections = o.connections;
        c
    }

    /// The file the judge keeps its OAuth tokens in: beside the database, mode 600.
    pub fn token_file(&self) -> PathBuf {
        let mut name = self.database().into_os_string();
        name.push(".oauth");
        PathBuf::from(name)
    }

    /// The access tokens of a section with `auth = "xoauth2"`.
    fn token_source(
        &self,
        auth: AuthMode,
        keys: OAuthKeys<'_>,
    ) -> Option<std::sync::Arc<TokenSource>> {
        let (token_url, client_id, client_secret, refresh_token, scope) = keys;
        if auth != AuthMode::Xoauth2 {
            return None;
        }
        let config = OAuth2Config {
            token_url: token_url.clone()?,
            client_id: client_id.clone()?,
            client_secret: client_secret.clone(),
            refresh_token: refresh_token.clone()?,
            scope: scope.clone(),
            timeout: Duration::from_secs(30),
        };
        Some(std::sync::Arc::new(TokenSource::new(
            config,
            self.token_file(),
        )))
    }

    /// True when the inbox is IMAP (its cursor is kept in the database).
    pub fn is_imap(&self) -> bool {
        self.inbound.kind == Transport::Imap
    }

    /// The Maildir `inject` writes into, if the inbox is a Maildir.
    pub fn inbox_maildir(&self) -> Option<PathBuf> {
        match (self.inbound.kind, &self.inbound.path) {
            (Transport::Maildir, Some(p)) => Some(self.resolve(p)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
[judge]
name = "DIP"
address = "judge@example.test"
database = "var/judge.db"

[inbound]
kind = "maildir"
path = "var/inbox"

[outbound]
kind = "maildir"
path = "var/outbox"
"#;

    #[test]
    fn the_shipped_judge_toml_parses() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("judge.toml");
        let c = Config::load(&path).unwrap();
        assert_eq!(c.judge.name, "DIP");
        assert_eq!(c.judge.address, "judge@example.test");
        assert!(c.database().ends_with("var/judge.db"));
        assert_eq!(c.judge_config(7).seed, 7);
        assert!(c.inbox_maildir().unwrap().ends_with("var/inbox"));
    }

    /// Every `judge.toml` example of docs/mailboxes.md (Gmail, Microsoft, Fastmail, a
    /// server of one's own) is read as the judge reads it: IMAP in, SMTP out, and the login
    /// each provider's section says.
    #[test]
    fn the_mailbox_examples_in_the_docs_parse() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/mailboxes.md");
        let text = std::fs::read_to_string(path).unwrap();
        let judge = "[judge]\nname = \"DIP\"\naddress = \"judge@example.org\"\ndatabase = \"var/judge.db\"\n\n";
        let mut auths = Vec::new();
        for block in text.split("```toml\n").skip(1) {
            let (toml, _) = block.split_once("```").unwrap();
            let c = Config::parse(&format!("{judge}{toml}"), Path::new("/srv/judge"))
                .unwrap_or_else(|e| panic!("{e:#}\n{toml}"));
            assert!(c.is_imap(), "{toml}");
            assert_eq!(c.outbound.kind, Transport::Smtp, "{toml}");
            assert_eq!(c.inbound.auth, c.outbound.auth, "{toml}");
            assert_eq!(c.inbound.oauth_keys(), c.outbound.oauth_keys(), "{toml}");
            auths.push(c.inbound.auth);
        }
        use AuthMode::{Password, Xoauth2};
        assert_eq!(auths, [Xoauth2, Xoauth2, Password, Password]);
    }

    #[test]
    fn minimal_file_takes_defaults_and_resolves_paths() {
        let c = Config::parse(MINIMAL, Path::new("/srv/judge")).unwrap();
        assert_eq!(c.database(), PathBuf::from("/srv/judge/var/judge.db"));
        assert_eq!(c.daemon.max_queue_days, 5);
        let j = c.judge_config(42);
        assert_eq!(j.seed, 42);
        assert_eq!(j.deadlines.movement_hours, 72);
        assert_eq!(j.password_cost, PasswordCost::default());
        assert!(j.remember_passwords, "on unless the file says otherwise");
    }

    #[test]
    fn errors_name_the_key() {
        let bad = MINIMAL.replace("name = \"DIP\"", "name = \"DIP\"\nnmae = 1");
        let e = format!("{:#}", Config::parse(&bad, Path::new(".")).unwrap_err());
        assert!(e.contains("nmae"), "{e}");
        let bad = MINIMAL.replace(
            "kind = \"maildir\"\npath = \"var/inbox\"",
            "kind = \"pop3\"",
        );
        let e = format!("{:#}", Config::parse(&bad, Path::new(".")).unwrap_err());
        assert!(e.contains("pop3"), "{e}");
        let bad = format!("{MINIMAL}\n[daemon]\npoll_interval_secs = \"soon\"\n");
        let e = format!("{:#}", Config::parse(&bad, Path::new(".")).unwrap_err());
        assert!(e.contains("poll_interval_secs"), "{e}");
        let bad = MINIMAL.replace("database", "time_zone = \"Mars/Olympus\"\ndatabase");
        let e = format!("{:#}", Config::parse(&bad, Path::new(".")).unwrap_err());
        assert!(e.contains("judge.time_zone"), "{e}");
    }

    #[test]
    fn imap_and_smtp_sections() {
        let text = MINIMAL
            .replace(
                "kind = \"maildir\"\npath = \"var/inbox\"",
                "kind = \"imap\"\nhost = \"localhost\"\nport = 1993\ntls = \"tls\"\nuser = \"j\"\npassword = \"p\"\nroot_certificate = \"ca.pem\"",
            )
            .replace(
                "kind = \"maildir\"\npath = \"var/outbox\"",
                "kind = \"smtp\"\nhost = \"localhost\"\nport = 2525\ntls = \"starttls\"",
            );
        let c = Config::parse(&text, Path::new("/etc/dip")).unwrap();
        assert_eq!(c.inbound.kind, Transport::Imap);
        assert_eq!(c.inbound.port, Some(1993));
        assert_eq!(c.inbound.tls, TlsMode::Tls);
        assert_eq!(c.inbound.processed, "Processed");
        assert!(c.is_imap());
        assert!(c.inbox_maildir().is_none());
        let no_pw = text.replace("password = \"p\"\n", "");
        let e = format!("{:#}", Config::parse(&no_pw, Path::new(".")).unwrap_err());
        assert!(e.contains("inbound.password"), "{e}");
        assert_eq!(c.outbound.connections, 8);
        let four = text.replace("tls = \"starttls\"", "tls = \"starttls\"\nconnections = 4");
        let c = Config::parse(&four, Path::new(".")).unwrap();
        assert_eq!(c.outbound.connections, 4);
        let zero = text.replace("tls = \"starttls\"", "tls = \"starttls\"\nconnections = 0");
        let e = format!("{:#}", Config::parse(&zero, Path::new(".")).unwrap_err());
        assert!(e.contains("outbound.connections"), "{e}");
    }

    #[test]
    fn xoauth2_sections() {
        let oauth = "auth = \"xoauth2\"\ntoken_url = \"https://oauth2.example.org/token\"\nclient_id = \"judge\"\nclient_secret = \"s\"\nrefresh_token = \"r\"";
        let text = MINIMAL
            .replace(
                "kind = \"maildir\"\npath = \"var/inbox\"",
                &format!("kind = \"imap\"\nhost = \"imap.example.org\"\nport = 993\nuser = \"j@example.org\"\n{oauth}"),
            )
            .replace(
                "kind = \"maildir\"\npath = \"var/outbox\"",
                &format!("kind = \"smtp\"\nhost = \"smtp.example.org\"\nport = 587\nuser = \"j@example.org\"\n{oauth}"),
            );
        let c = Config::parse(&text, Path::new("/srv/judge")).unwrap();
        assert_eq!(c.inbound.auth, AuthMode::Xoauth2);
        assert_eq!(c.outbound.auth, AuthMode::Xoauth2);
        assert_eq!(
            c.token_file(),
            PathBuf::from("/srv/judge/var/judge.db.oauth")
        );
        let source = c
            .token_source(c.inbound.auth, c.inbound.oauth_keys())
            .unwrap();
        assert_eq!(source.token_url(), "https://oauth2.example.org/token");
        // Each key the renewal needs is asked for by name.
        for key in ["token_url", "client_id", "refresh_token"] {
            let line = oauth.lines().find(|l| l.starts_with(key)).unwrap();
            let without = text.replacen(&format!("{line}\n"), "", 1);
            let e = format!("{:#}", Config::parse(&without, Path::new(".")).unwrap_err());
            assert!(e.contains(&format!("inbound.{key}")), "{key}: {e}");
        }
        // A refresh token in clear over the network is refused.
        let clear = text.replacen("https://oauth2.example.org", "http://oauth2.example.org", 1);
        let e = format!("{:#}", Config::parse(&clear, Path::new(".")).unwrap_err());
        assert!(e.contains("https://"), "{e}");
        // OAuth keys without auth = "xoauth2" are a mistake, not ignored.
        let stray = text.replacen("auth = \"xoauth2\"\n", "password = \"p\"\n", 1);
        let e = format!("{:#}", Config::parse(&stray, Path::new(".")).unwrap_err());
        assert!(e.contains("inbound.auth = \"xoauth2\""), "{e}");
        // The password is not needed with XOAUTH2, and the log never shows the secrets.
        let shown = format!(
            "{:?}",
            c.token_source(c.outbound.auth, c.outbound.oauth_keys())
        );
        assert!(
            !shown.contains("refresh_token: \"r\"") && !shown.contains("\"s\""),
            "{shown}"
        );
    }
}
