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
use crate::mail::outbound::maildir::MaildirOutbox;
use crate::mail::outbound::smtp::{SmtpConfig, SmtpOutbox};
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
    /// Send attempts before a mail is given up (marked failed, the master told).
    pub max_send_attempts: i64,
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
            max_send_attempts: 10,
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
    /// A PEM root certificate to trust besides the system's.
    pub root_certificate: Option<PathBuf>,
    /// Wait for mail in IMAP IDLE when the server offers it (push: a mail is read within
    /// about a second); false: poll every `poll_interval_secs` whatever the server offers.
    #[serde(default = "yes")]
    pub idle: bool,
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
        let i = &self.inbound;
        match i.kind {
            Transport::Maildir if i.path.is_none() => bail!("inbound.path is needed for a Maildir"),
            Transport::Maildir => {}
            Transport::Imap => {
                for (key, missing) in [
                    ("inbound.host", i.host.is_none()),
                    ("inbound.port", i.port.is_none()),
                    ("inbound.user", i.user.is_none()),
                    ("inbound.password", i.password.is_none()),
                ] {
                    if missing {
                        bail!("{key} is needed for IMAP");
                    }
                }
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
                if o.user.is_some() != o.password.is_some() {
                    bail!("outbound.user and outbound.password go together");
                }
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
            _ => {
                let mut c = ImapConfig::new(
                    i.host.clone().unwrap_or_default(),
                    i.port.unwrap_or(993),
                    i.user.clone().unwrap_or_default(),
                    i.password.clone().unwrap_or_default(),
                );
                c.security = i.tls.into();
                c.root_certificate = i.root_certificate.as_deref().map(|p| self.resolve(p));
                i.mailbox.clone_into(&mut c.mailbox);
                i.processed.clone_into(&mut c.processed);
                i.rejected.clone_into(&mut c.rejected);
                c.poll_interval = poll;
                c.idle = i.idle;
                c.backoff_max = c.backoff_max.min(Duration::from_secs(60));
                c.max_message_bytes = self.daemon.max_message_bytes;
                Box::new(ImapInbox::new(c, cursor))
            }
        }
    }

    /// The outbox.
    pub fn outbox(&self) -> Box<dyn Outbox> {
        let o = &self.outbound;
        match (o.kind, &o.path) {
            (Transport::Maildir, Some(path)) => Box::new(MaildirOutbox::new(self.resolve(path))),
            _ => {
                let mut c =
                    SmtpConfig::new(o.host.clone().unwrap_or_default(), o.port.unwrap_or(587));
                c.security = o.tls.into();
                c.root_certificate = o.root_certificate.as_deref().map(|p| self.resolve(p));
                c.credentials = o.user.clone().zip(o.password.clone());
                o.hello_name.clone_into(&mut c.hello_name);
                c.connections = o.connections;
                Box::new(SmtpOutbox::new(c))
            }
        }
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

    #[test]
    fn minimal_file_takes_defaults_and_resolves_paths() {
        let c = Config::parse(MINIMAL, Path::new("/srv/judge")).unwrap();
        assert_eq!(c.database(), PathBuf::from("/srv/judge/var/judge.db"));
        assert_eq!(c.daemon.max_send_attempts, 10);
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
}
