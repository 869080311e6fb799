//! A small OAuth 2.0 authorisation server for tests: a token endpoint that renews access
//! tokens for the refresh tokens it was told of (`POST /token`, RFC 6749 §6), and an
//! introspection endpoint (`POST /introspect` with `token=…`, RFC 7662; or `GET` with
//! `Authorization: Bearer …`) that the real Dovecot's `oauth2` passdb asks. Tokens live as
//! long as the test says (a few seconds, to see renewals), can be revoked, and refresh
//! tokens can rotate at each renewal. Plain HTTP on the loopback, one thread a connection;
//! for the unit tests of `mail::oauth` and the real-server tests, never for service.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A user's grant: who the refresh token speaks for.
#[derive(Clone, Debug)]
struct Grant {
    user: String,
    client_id: String,
}

#[derive(Default)]
struct State {
    /// Client id → secret (None: a public client).
    clients: HashMap<String, Option<String>>,
    /// Refresh tokens in force.
    grants: HashMap<String, Grant>,
    /// Access tokens: (user, when it stops working).
    access: HashMap<String, (String, Instant)>,
    lifetime: Duration,
    rotate: bool,
    /// Answer the token endpoint with this status and no token (an outage).
    failing: Option<u16>,
    renewals: usize,
    introspections: usize,
    /// Access tokens handed out, by the user they speak for.
    renewals_by_user: HashMap<String, usize>,
    /// Introspections of tokens issued to each user (live or dead; revoked ones are forgotten).
    introspections_by_user: HashMap<String, usize>,
    next: u64,
}

/// The server; stopped when dropped.
pub struct TokenServer {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
}

fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `application/x-www-form-urlencoded` decoding of one value.
fn form_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            _ => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn form(body: &str) -> HashMap<String, String> {
    body.split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (form_decode(k), form_decode(v)))
        .collect()
}

/// One request: method, path, headers (lower-case names), body.
struct Request {
    method: String,
    path: String,
    headers: HashMap<String, String>,
    body: String,
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut r = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    r.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.insert(n.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let mut body = Vec::new();
    if headers
        .get("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).ok()?;
            let n = usize::from_str_radix(size.trim(), 16).ok()?;
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).ok()?;
            chunk.truncate(n);
            body.extend(chunk);
            if n == 0 {
                break;
            }
        }
    } else {
        let n: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
            .min(64 * 1024);
        body.resize(n, 0);
        r.read_exact(&mut body).ok()?;
    }
    Some(Request {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn answer(mut stream: &TcpStream, status: u16, body: &str) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        _ => "Error",
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.flush();
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

impl State {
    fn token(&mut self, f: &HashMap<String, String>) -> (u16, String) {
        if let Some(status) = self.failing {
            return (status, "{}".into());
        }
        let refusal = |status: u16, error: &str| {
            (
                status,
                format!(
                    "{{\"error\":\"{error}\",\"error_description\":\"refused by the test server\"}}"
                ),
            )
        };
        if f.get("grant_type").map(String::as_str) != Some("refresh_token") {
            return refusal(400, "unsupported_grant_type");
        }
        let client = f.get("client_id").cloned().unwrap_or_default();
        match self.clients.get(&client) {
            None => return refusal(401, "invalid_client"),
            Some(Some(secret)) if f.get("client_secret") != Some(secret) => {
                return refusal(401, "invalid_client");
            }
            Some(_) => {}
        }
        let refresh = f.get("refresh_token").cloned().unwrap_or_default();
        let Some(grant) = self.grants.get(&refresh).cloned() else {
            return refusal(400, "invalid_grant");
        };
        if grant.client_id != client {
            return refusal(400, "invalid_grant");
        }
        self.next += 1;
        self.renewals += 1;
        *self.renewals_by_user.entry(grant.user.clone()).or_default() += 1;
        let access = format!("at-{}-{}", self.next, std::process::id());
        self.access.insert(
            access.clone(),
            (grant.user.clone(), Instant::now() + self.lifetime),
        );
        let mut body = format!(
            "{{\"access_token\":{},\"token_type\":\"Bearer\",\"expires_in\":{}",
            json_string(&access),
            self.lifetime.as_secs()
        );
        if self.rotate {
            let new = format!("rt-{}-{}", self.next, std::process::id());
            self.grants.remove(&refresh);
            self.grants.insert(new.clone(), grant);
            body.push_str(&format!(",\"refresh_token\":{}", json_string(&new)));
        }
        body.push('}');
        (200, body)
    }

    fn introspect(&mut self, token: &str) -> (u16, String) {
        self.introspections += 1;
        if let Some((user, _)) = self.access.get(token) {
            *self.introspections_by_user.entry(user.clone()).or_default() += 1;
        }
        match self.access.get(token) {
            Some((user, until)) if Instant::now() < *until => (
                200,
                format!(
                    "{{\"active\":true,\"username\":{},\"token_type\":\"Bearer\"}}",
                    json_string(user)
                ),
            ),
            _ => (200, "{\"active\":false}".into()),
        }
    }
}

fn serve(stream: TcpStream, state: &Mutex<State>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some(req) = read_request(&stream) else {
        return;
    };
    let (status, body) = match (req.method.as_str(), req.path.split('?').next()) {
        ("POST", Some("/token")) => lock(state).token(&form(&req.body)),
        ("POST", Some("/introspect")) => {
            let token = form(&req.body).remove("token").unwrap_or_default();
            lock(state).introspect(&token)
        }
        ("GET", Some("/introspect")) => {
            let token = req
                .headers
                .get("authorization")
                .and_then(|a| a.strip_prefix("Bearer "))
                .unwrap_or_default()
                .to_string();
            lock(state).introspect(&token)
        }
        _ => (404, "{}".into()),
    };
    answer(&stream, status, &body);
}

impl TokenServer {
    /// A server on `addr` (port 0: any free one) whose access tokens live `lifetime`.
    pub fn start(addr: &str, lifetime: Duration) -> std::io::Result<TokenServer> {
        let listener = TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let state = Arc::new(Mutex::new(State {
            lifetime,
            ..State::default()
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (st, stopping) = (Arc::clone(&state), Arc::clone(&stop));
        std::thread::Builder::new()
            .name("token-server".into())
            .spawn(move || {
                while !stopping.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            let _ = stream.set_nonblocking(false);
                            let st = Arc::clone(&st);
                            std::thread::spawn(move || serve(stream, &st));
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            })?;
        Ok(TokenServer { addr, state, stop })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The token endpoint's URL.
    pub fn token_url(&self) -> String {
        format!("http://{}/token", self.addr)
    }

    /// Registers a client (`secret` None: a public one).
    pub fn add_client(&self, id: &str, secret: Option<&str>) {
        lock(&self.state)
            .clients
            .insert(id.into(), secret.map(str::to_string));
    }

    /// Grants `user` to `client`: the refresh token the operator would be given.
    pub fn grant(&self, client: &str, user: &str) -> String {
        let mut s = lock(&self.state);
        s.next += 1;
        let refresh = format!("rt-{}-{}", s.next, std::process::id());
        s.grants.insert(
            refresh.clone(),
            Grant {
                user: user.into(),
                client_id: client.into(),
            },
        );
        refresh
    }

    /// Withdraws every refresh token of `user` (the operator revoked the judge's access).
    pub fn withdraw(&self, user: &str) {
        lock(&self.state).grants.retain(|_, g| g.user != user);
    }

    /// Ends an access token before its time (as a provider may).
    pub fn revoke(&self, access_token: &str) {
        lock(&self.state).access.remove(access_token);
    }

    /// Every access token issued to `user` and still alive.
    pub fn live_tokens(&self, user: &str) -> Vec<String> {
        let now = Instant::now();
        lock(&self.state)
            .access
            .iter()
            .filter(|(_, (u, until))| u == user && now < *until)
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// Whether each renewal hands out a new refresh token (the old one then stops working).
    pub fn set_rotation(&self, rotate: bool) {
        lock(&self.state).rotate = rotate;
    }

    /// How long new access tokens live.
    pub fn set_lifetime(&self, lifetime: Duration) {
        lock(&self.state).lifetime = lifetime;
    }

    /// Makes the token endpoint answer `status` (an outage) until set back to None.
    pub fn set_failing(&self, status: Option<u16>) {
        lock(&self.state).failing = status;
    }

    /// How many access tokens it handed out.
    pub fn renewals(&self) -> usize {
        lock(&self.state).renewals
    }

    /// How many times a token was introspected (the mail servers asking).
    pub fn introspections(&self) -> usize {
        lock(&self.state).introspections
    }

    /// How many access tokens it handed out for `user` (tests that share one server
    /// count their own).
    pub fn renewals_for(&self, user: &str) -> usize {
        let s = lock(&self.state);
        s.renewals_by_user.get(user).copied().unwrap_or(0)
    }

    /// How many times a token issued to `user` was introspected.
    pub fn introspections_for(&self, user: &str) -> usize {
        let s = lock(&self.state);
        s.introspections_by_user.get(user).copied().unwrap_or(0)
    }
}

impl Drop for TokenServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
