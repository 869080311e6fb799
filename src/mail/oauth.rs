//! OAuth 2.0 logins to the mailbox (`XOAUTH2` for IMAP and SMTP): an access token obtained
//! from a refresh token at the provider's token endpoint (RFC 6749 §6), kept by the judge
//! in a file of its own (mode 600, beside the database) and renewed before it expires, or
//! when the mail server refuses it. The IMAP and SMTP code ask a [`TokenSource`] for a
//! token when they log in; nothing else here knows about mail.
//!
//! The file holds, for each credential (token endpoint, client, configured refresh token),
//! the refresh token now in force (a provider may send a new one with each renewal) and the
//! last access token with its expiry. Every renewal holds an OS lock on `<file>.lock`, so
//! the IMAP side, the SMTP side and a second process (`dipjudge check`, a `process` from
//! cron) never renew with a refresh token another has just replaced, and each reads what
//! the others renewed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use blake2::Blake2b;
use blake2::digest::Digest;
use blake2::digest::consts::U16;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use tracing::{info, warn};

/// Where the access tokens come from (`[inbound]`/`[outbound]` with `auth = "xoauth2"`).
#[derive(Clone)]
pub struct OAuth2Config {
    /// The provider's token endpoint (`https://oauth2.googleapis.com/token`); plain
    /// `http://` only to a loopback host.
    pub token_url: String,
    pub client_id: String,
    /// The client's secret, for a confidential client (sent in the request body, as Google
    /// and Microsoft accept it).
    pub client_secret: Option<String>,
    /// The refresh token the operator obtained when they authorised the judge's client.
    pub refresh_token: String,
    /// The scope asked for at each renewal (some providers want it again); None: the one
    /// granted.
    pub scope: Option<String>,
    /// Time-out of one request to the token endpoint.
    pub timeout: Duration,
}

impl std::fmt::Debug for OAuth2Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth2Config")
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "…"))
            .field("refresh_token", &"…")
            .field("scope", &self.scope)
            .finish()
    }
}

/// Why no access token could be had.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OAuthError {
    /// The token endpoint could not be reached or did not answer in time (try later).
    #[error("the token endpoint {url} cannot be reached: {reason}")]
    Unreachable { url: String, reason: String },
    /// The token endpoint refused the refresh token or the client (RFC 6749 §5.2): the
    /// operator must authorise the judge again, or fix the client's id and secret.
    #[error("the token endpoint {url} refused to renew the access token: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Refused {
        url: String,
        error: String,
        description: Option<String>,
    },
    /// The token endpoint answered something that is not a token.
    #[error("the token endpoint {url} answered what is not a token: {reason}")]
    BadAnswer { url: String, reason: String },
    /// The judge's token file cannot be read or written.
    #[error("the token file {path}: {reason}")]
    State { path: String, reason: String },
    /// The configuration cannot work (a plain `http://` endpoint off the machine).
    #[error("{0}")]
    Config(String),
}

impl OAuthError {
    /// Whether trying again later may help (the endpoint was unreachable), as opposed to a
    /// refusal or a configuration the operator must fix.
    pub fn is_temporary(&self) -> bool {
        matches!(
            self,
            OAuthError::Unreachable { .. } | OAuthError::State { .. }
        )
    }
}

/// An access token and when it stops working.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct AccessToken {
    token: String,
    expires_at: DateTime<Utc>,
    /// How long it was granted for, in seconds (when to renew it is a share of this).
    lifetime_secs: u64,
}

impl AccessToken {
    /// Whether it is good for a while yet at `now`: it is renewed once less than a quarter
    /// of its life (and at most five minutes) is left, so no login starts with a token
    /// about to die.
    fn is_fresh(&self, now: DateTime<Utc>) -> bool {
        let margin = (self.lifetime_secs / 4).min(300);
        let margin = chrono::Duration::seconds(i64::try_from(margin).unwrap_or(300));
        now + margin < self.expires_at
    }
}

/// One credential in the token file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Kept {
    /// The refresh token in force (None: the configured one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refresh_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    access: Option<AccessToken>,
}

/// The token file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct TokenFile {
    #[serde(default)]
    credentials: std::collections::BTreeMap<String, Kept>,
}

/// What the token endpoint answers (RFC 6749 §5.1).
#[derive(Deserialize)]
struct Granted {
    access_token: String,
    #[serde(default)]
    token_type: Option<String>,
    #[serde(default)]
    expires_in: Option<u64>,
    #[serde(default)]
    refresh_token: Option<String>,
}

/// A refusal (RFC 6749 §5.2).
#[derive(Deserialize)]
struct Refusal {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// The lifetime assumed when the endpoint names none.
const DEFAULT_LIFETIME_SECS: u64 = 3600;
/// The most of an answer read from the token endpoint.
const MAX_ANSWER_BYTES: u64 = 64 * 1024;

/// Access tokens for one credential, from its token endpoint, kept in the token file.
pub struct TokenSource {
    config: OAuth2Config,
    file: PathBuf,
    /// The credential's key in the file.
    id: String,
    /// The last token this source handed out.
    cached: Mutex<Option<AccessToken>>,
    agent: ureq::Agent,
}

impl std::fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenSource")
            .field("config", &self.config)
            .field("file", &self.file)
            .finish()
    }
}

/// Whether `url` can be a token endpoint: HTTPS, or plain HTTP to this machine only (a
/// test's endpoint; the refresh token must not travel in clear).
pub fn check_token_url(url: &str) -> Result<(), OAuthError> {
    if url.starts_with("https://") {
        return Ok(());
    }
    let Some(rest) = url.strip_prefix("http://") else {
        return Err(OAuthError::Config(format!(
            "token_url {url:?} must start with https://"
        )));
    };
    let authority = rest.split('/').next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    if crate::mail::is_loopback(host, 80) {
        Ok(())
    } else {
        Err(OAuthError::Config(format!(
            "token_url {url:?}: plain http:// is allowed only to this machine (the refresh token would travel in clear); use https://"
        )))
    }
}

impl TokenSource {
    /// A source for `config` keeping its tokens in `file` (created, mode 600, at the first
    /// renewal). Its token endpoint is checked at each renewal ([`check_token_url`]).
    pub fn new(config: OAuth2Config, file: PathBuf) -> TokenSource {
        let mut h = Blake2b::<U16>::new();
        for part in [&config.token_url, &config.client_id, &config.refresh_token] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        let id: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        let tls = ureq::tls::TlsConfig::builder()
            .provider(ureq::tls::TlsProvider::NativeTls)
            .root_certs(ureq::tls::RootCerts::PlatformVerifier)
            .build();
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .tls_config(tls)
            .build()
            .into();
        TokenSource {
            config,
            file,
            id,
            cached: Mutex::new(None),
            agent,
        }
    }

    /// The token endpoint (for messages).
    pub fn token_url(&self) -> &str {
        &self.config.token_url
    }

    /// An access token good for a while yet: the one in hand, the one the file holds (the
    /// other side or another process renewed it), or a new one from the token endpoint.
    pub fn access_token(&self) -> Result<String, OAuthError> {
        let now = Utc::now();
        if let Some(t) = self.cached().filter(|t| t.is_fresh(now)) {
            return Ok(t.token);
        }
        self.renew_unless(|kept| kept.is_fresh(now))
    }

    /// A new access token after the mail server refused `refused` (revoked, or expired
    /// earlier than it said): renewed now, unless the file already holds another one that is
    /// fresh (renewed meanwhile by the other side).
    pub fn renew(&self, refused: &str) -> Result<String, OAuthError> {
        let now = Utc::now();
        self.renew_unless(|kept| kept.token != refused && kept.is_fresh(now))
    }

    fn cached(&self) -> Option<AccessToken> {
        self.cached.lock().ok().and_then(|c| c.clone())
    }

    fn keep(&self, t: &AccessToken) {
        if let Ok(mut c) = self.cached.lock() {
            *c = Some(t.clone());
        }
    }

    fn state_error(&self, reason: impl std::fmt::Display) -> OAuthError {
        OAuthError::State {
            path: self.file.display().to_string(),
            reason: reason.to_string(),
        }
    }

    /// Under the file's lock: the kept token if `good` says so, else a renewal.
    fn renew_unless(&self, good: impl Fn(&AccessToken) -> bool) -> Result<String, OAuthError> {
        let _lock = self.lock()?;
        let mut file = self.read_file()?;
        let kept = file.credentials.get(&self.id).cloned().unwrap_or_default();
        if let Some(t) = kept.access.as_ref().filter(|t| good(t)) {
            self.keep(t);
            return Ok(t.token.clone());
        }
        let refresh = kept
            .refresh_token
            .clone()
            .unwrap_or_else(|| self.config.refresh_token.clone());
        let (access, rotated) = self.ask(&refresh)?;
        let entry = file.credentials.entry(self.id.clone()).or_default();
        entry.access = Some(access.clone());
        if let Some(r) = rotated {
            entry.refresh_token = Some(r);
        }
        self.write_file(&file)?;
        self.keep(&access);
        info!(endpoint = %self.config.token_url, expires_at = %access.expires_at, "renewed an OAuth access token");
        Ok(access.token)
    }

    /// The file's lock, held until dropped.
    fn lock(&self) -> Result<std::fs::File, OAuthError> {
        let mut name = self.file.as_os_str().to_owned();
        name.push(".lock");
        let f = private_file(Path::new(&name), false).map_err(|e| self.state_error(e))?;
        f.lock().map_err(|e| self.state_error(e))?;
        Ok(f)
    }

    fn read_file(&self) -> Result<TokenFile, OAuthError> {
        match std::fs::read_to_string(&self.file) {
            Ok(text) => Ok(serde_json::from_str(&text).unwrap_or_else(|e| {
                warn!(file = %self.file.display(), error = %e, "the token file does not read; it is written anew");
                TokenFile::default()
            })),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TokenFile::default()),
            Err(e) => Err(self.state_error(e)),
        }
    }

    /// Writes the file whole: a new file (mode 600) renamed over the old one, so a reader
    /// never sees half of it.
    fn write_file(&self, file: &TokenFile) -> Result<(), OAuthError> {
        let text = serde_json::to_string_pretty(file).map_err(|e| self.state_error(e))?;
        let mut name = self.file.as_os_str().to_owned();
        name.push(".new");
        let new = PathBuf::from(name);
        let _ = std::fs::remove_file(&new);
        let mut f = private_file(&new, true).map_err(|e| self.state_error(e))?;
        f.write_all(text.as_bytes())
            .and_then(|()| f.sync_all())
            .map_err(|e| self.state_error(e))?;
        std::fs::rename(&new, &self.file).map_err(|e| self.state_error(e))
    }

    /// One renewal at the token endpoint: the new access token, and the new refresh token
    /// if the provider sent one.
    fn ask(&self, refresh: &str) -> Result<(AccessToken, Option<String>), OAuthError> {
        let c = &self.config;
        check_token_url(&c.token_url)?;
        let url = c.token_url.clone();
        let mut form: Vec<(&str, &str)> = vec![
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh),
            ("client_id", &c.client_id),
        ];
        if let Some(s) = &c.client_secret {
            form.push(("client_secret", s));
        }
        if let Some(s) = &c.scope {
            form.push(("scope", s));
        }
        let sent_at = Utc::now();
        let mut answer = self
            .agent
            .post(&url)
            .header("Accept", "application/json")
            .send_form(form)
            .map_err(|e| OAuthError::Unreachable {
                url: url.clone(),
                reason: e.to_string(),
            })?;
        let status = answer.status().as_u16();
        let body = answer
            .body_mut()
            .with_config()
            .limit(MAX_ANSWER_BYTES)
            .read_to_string()
            .map_err(|e| OAuthError::Unreachable {
                url: url.clone(),
                reason: e.to_string(),
            })?;
        if status != 200 {
            if let Ok(r) = serde_json::from_str::<Refusal>(&body)
                && (400..500).contains(&status)
            {
                return Err(OAuthError::Refused {
                    url,
                    error: r.error,
                    description: r.error_description,
                });
            }
            let reason = format!("HTTP {status}");
            return Err(if status >= 500 || status == 429 {
                OAuthError::Unreachable { url, reason }
            } else {
                OAuthError::BadAnswer { url, reason }
            });
        }
        let granted: Granted = serde_json::from_str(&body).map_err(|e| OAuthError::BadAnswer {
            url: url.clone(),
            reason: e.to_string(),
        })?;
        if granted
            .token_type
            .as_deref()
            .is_some_and(|t| !t.eq_ignore_ascii_case("bearer"))
        {
            return Err(OAuthError::BadAnswer {
                url,
                reason: format!("a token of type {:?}, not Bearer", granted.token_type),
            });
        }
        if granted.access_token.is_empty()
            || granted
                .access_token
                .bytes()
                .any(|b| b.is_ascii_control() || b == b' ')
        {
            return Err(OAuthError::BadAnswer {
                url,
                reason: "an empty or unprintable access token".into(),
            });
        }
        let lifetime = granted
            .expires_in
            .unwrap_or(DEFAULT_LIFETIME_SECS)
            .min(365 * 24 * 3600);
        let expires_at =
            sent_at + chrono::Duration::seconds(i64::try_from(lifetime).unwrap_or(3600));
        Ok((
            AccessToken {
                token: granted.access_token,
                expires_at,
                lifetime_secs: lifetime,
            },
            granted
                .refresh_token
                .filter(|r| !r.is_empty() && r != refresh),
        ))
    }
}

/// Opens `path` for writing, creating it readable and writable by its owner only (mode
/// 600); `fresh`: it must not exist yet.
fn private_file(path: &Path, fresh: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if fresh {
        options.create_new(true);
    } else {
        options.create(true).truncate(false);
    }
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// The initial client response of the `XOAUTH2` mechanism (Google's and Microsoft's
/// description): `user=<user>^Aauth=Bearer <token>^A^A`, before base64.
pub fn xoauth2_response(user: &str, token: &str) -> String {
    format!("user={user}\x01auth=Bearer {token}\x01\x01")
}

#[doc(hidden)]
pub mod test_server;

#[cfg(test)]
mod tests;
