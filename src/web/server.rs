//! The web server: axum on a tokio runtime of its own thread, beside the mail loop. GET
//! and HEAD only (anything else: 405), no request body read, the request line bounded,
//! a time-out on every request, a per-address rate limit, and security headers on every
//! answer (a content security policy, no framing, no sniffing, no referrer). Each page is
//! built on a blocking thread from one read transaction of a read-only connection of its
//! own, so no page waits for the judge's writer nor holds it up.
//!
//! One greedy client cannot lock the visitors out: a client holds at most
//! [`CONNECTIONS_PER_CLIENT`] of the [`MAX_CONNECTIONS`] at once (more are closed as they
//! come; an IPv6 client is its /64), a connection that has not sent its request's headers
//! within [`HEADER_TIMEOUT`] is closed (an idle kept-alive one too), a request's body is
//! never waited for (the answer goes, and the connection is closed), and no connection
//! lives longer than [`CONNECTION_LIFE`].

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::Router;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use maud::Markup;
use tokio::sync::oneshot;
use tracing::{info, warn};

use super::view;
use super::{WebSection, pages};
use crate::map::Map;
use crate::store::{Store, StoreError};

/// The longest a request may take, reading included, before it is answered 503.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest request target (path and query) served.
const MAX_URI: usize = 512;
/// The longest a client may take to send a request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The most a connection's read buffer holds (the request line and headers).
const MAX_HEADER_BYTES: usize = 16 * 1024;
/// The longest one connection (with keep-alive, many requests) stays open.
const CONNECTION_LIFE: Duration = Duration::from_secs(120);
/// Connections served at once; more are closed as they come.
const MAX_CONNECTIONS: usize = 256;
/// Connections one client (an IPv4 address, an IPv6 /64) holds at once; more are closed as
/// they come. Behind a reverse proxy every visitor is the proxy's address: nginx opens an
/// upstream connection per request and closes it, so this bounds the pages built at once.
const CONNECTIONS_PER_CLIENT: usize = 32;
/// Connections kept open to the database for pages.
const POOL: usize = 4;
/// Addresses the rate limiter remembers before it forgets the quiet ones.
const LIMITER_ADDRESSES: usize = 10_000;

const CSP: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What every request shares.
struct Shared {
    database: PathBuf,
    judge: String,
    map: &'static Map,
    pool: Mutex<Vec<Store>>,
    per_minute: u32,
    /// `GET /health`: how old the last pass may be, in seconds.
    stale_after: u64,
    /// Requests per address in the current minute: (window start, count).
    seen: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

/// A failure to build a page.
#[derive(Debug, thiserror::Error)]
enum PageError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("page task failed: {0}")]
    Task(String),
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        warn!(error = %self, "web page failed");
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "The page cannot be built now; try again.",
        )
            .into_response()
    }
}

impl Shared {
    /// Runs `f` with a read-only connection, on a blocking thread.
    async fn with_store<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store, &Shared) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, PageError> {
        let me = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let kept = me.pool.lock().ok().and_then(|mut p| p.pop());
            let mut store = match kept {
                Some(s) => s,
                None => Store::open_read_only(&me.database)?,
            };
            let out = f(&mut store, &me);
            if let Ok(mut p) = me.pool.lock()
                && p.len() < POOL
            {
                p.push(store);
            }
            out
        })
        .await
        .map_err(|e| PageError::Task(e.to_string()))?
        .map_err(PageError::from)
    }

    /// Whether `ip` may make one more request this minute.
    fn admit(&self, ip: IpAddr) -> bool {
        let ip = client_of(ip);
        let Ok(mut seen) = self.seen.lock() else {
            return true;
        };
        let now = Instant::now();
        let window = Duration::from_secs(60);
        if seen.len() >= LIMITER_ADDRESSES {
            seen.retain(|_, (start, _)| now.duration_since(*start) < window);
        }
        let entry = seen.entry(ip).or_insert((now, 0));
        if now.duration_since(entry.0) >= window {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
        entry.1 <= self.per_minute
    }
}

fn html(m: Markup) -> Response {
    Html(m.into_string()).into_response()
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(pages::not_found().into_string()),
    )
        .into_response()
}

/// `GET /` and `GET /?page=n`: a page of the list of games. A page number that is not
/// one, or a page past the last, is not found.
async fn list(State(s): State<Arc<Shared>>, uri: axum::http::Uri) -> Result<Response, PageError> {
    let Some(page) = page_asked(uri.query()) else {
        return Ok(not_found());
    };
    s.with_store(move |store, sh| {
        let games = store.read(|tx| view::list(tx, page))?;
        if page > games.pages {
            return Ok(not_found());
        }
        Ok(html(pages::list(&sh.judge, &games)))
    })
    .await
}

/// The page a list's query asks for (`page=n`, from 1; 1 without one); None for a page
/// number that is not a number from 1 up, or a query that names it twice.
fn page_asked(query: Option<&str>) -> Option<u64> {
    let mut asked = None;
    for pair in query.unwrap_or("").split('&') {
        let Some(value) = pair.strip_prefix("page=") else {
            continue;
        };
        if asked.is_some() || value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        asked = Some(value.parse::<u64>().ok().filter(|n| *n >= 1)?);
    }
    Some(asked.unwrap_or(1))
}

/// `GET /metrics`: the Prometheus text exposition of what the database counts.
async fn metrics(State(s): State<Arc<Shared>>) -> Result<Response, PageError> {
    s.with_store(|store, _| {
        let g = store.read(super::metrics::gather)?;
        Ok((
            [
                (
                    header::CONTENT_TYPE,
                    "text/plain; version=0.0.4; charset=utf-8",
                ),
                (header::CACHE_CONTROL, "no-store"),
            ],
            super::metrics::render(&g),
        )
            .into_response())
    })
    .await
}

/// `GET /health`: 200 while the judge passed recently, else 503 (a database that cannot
/// be read is 503 too), with a small JSON object saying why.
async fn health(State(s): State<Arc<Shared>>) -> Response {
    let read = s
        .with_store(|store, sh| {
            let g = store.read(super::metrics::gather)?;
            Ok(super::metrics::health(
                &g,
                chrono::Utc::now(),
                sh.stale_after,
            ))
        })
        .await;
    let (ok, body) = match read {
        Ok(r) => r,
        Err(e) => {
            warn!(error = %e, "health: the database cannot be read");
            (
                false,
                "{\"status\":\"unhealthy\",\"reason\":\"the database cannot be read\"}\n".into(),
            )
        }
    };
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// Which phase a page shows.
#[derive(Clone)]
enum Shown {
    /// The last phase with anything in it.
    Latest,
    Phase(String),
    Record,
}

/// A game page for `reader` (found by game name or by token).
async fn game_page(s: Arc<Shared>, who: Who, shown: Shown) -> Result<Response, PageError> {
    s.with_store(move |store, sh| {
        store.read(|tx| {
            let (name, reader, base) = match &who {
                Who::Anyone(name) => (name.clone(), None, format!("/game/{name}")),
                Who::Token(token) => match view::token_reader(tx, token)? {
                    Some((name, reader)) => (name, Some(reader), format!("/view/{token}")),
                    None => return Ok(not_found()),
                },
            };
            let Some(g) = view::game(sh.map, tx, &name, reader)? else {
                return Ok(not_found());
            };
            let base = match &who {
                Who::Anyone(_) => format!("/game/{}", g.name),
                Who::Token(_) => base,
            };
            let index = match &shown {
                Shown::Latest => g.phases.len().checked_sub(1),
                Shown::Record => None,
                Shown::Phase(p) => {
                    match g.phases.iter().position(|x| x.name.eq_ignore_ascii_case(p)) {
                        Some(i) => Some(i),
                        None => return Ok(not_found()),
                    }
                }
            };
            let mut r = html(pages::game(&sh.judge, &g, &base, index));
            if matches!(who, Who::Token(_)) {
                r.headers_mut()
                    .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            }
            Ok(r)
        })
    })
    .await
}

/// Whose page: anyone's (by game name) or a seat's (by token).
#[derive(Clone)]
enum Who {
    Anyone(String),
    Token(String),
}

async fn game(
    State(s): State<Arc<Shared>>,
    Path(name): Path<String>,
) -> Result<Response, PageError> {
    game_page(s, Who::Anyone(name), Shown::Latest).await
}

async fn game_phase(
    State(s): State<Arc<Shared>>,
    Path((name, phase)): Path<(String, String)>,
) -> Result<Response, PageError> {
    game_page(s, Who::Anyone(name), Shown::Phase(phase)).await
}

async fn game_record(
    State(s): State<Arc<Shared>>,
    Path(name): Path<String>,
) -> Result<Response, PageError> {
    game_page(s, Who::Anyone(name), Shown::Record).await
}

async fn seat(
    State(s): State<Arc<Shared>>,
    Path(token): Path<String>,
) -> Result<Response, PageError> {
    game_page(s, Who::Token(token), Shown::Latest).await
}

async fn seat_phase(
    State(s): State<Arc<Shared>>,
    Path((token, phase)): Path<(String, String)>,
) -> Result<Response, PageError> {
    game_page(s, Who::Token(token), Shown::Phase(phase)).await
}

async fn seat_record(
    State(s): State<Arc<Shared>>,
    Path(token): Path<String>,
) -> Result<Response, PageError> {
    game_page(s, Who::Token(token), Shown::Record).await
}

async fn css() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        pages::CSS,
    )
        .into_response()
}

async fn js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        pages::STEP_JS,
    )
        .into_response()
}

/// The limits and headers every request goes through.
async fn guard(
    State(s): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    let mut r = if req.uri().to_string().len() > MAX_URI {
        StatusCode::URI_TOO_LONG.into_response()
    } else if !s.admit(peer.ip()) {
        let mut r = (
            StatusCode::TOO_MANY_REQUESTS,
            "Too many requests; wait a minute.",
        )
            .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        r
    } else {
        match tokio::time::timeout(REQUEST_TIMEOUT, next.run(req)).await {
            Ok(r) => r,
            Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "The page took too long.").into_response(),
        }
    };
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    r
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(list))
        .route("/game/{name}", get(game))
        .route("/game/{name}/phase/{phase}", get(game_phase))
        .route("/game/{name}/record", get(game_record))
        .route("/view/{token}", get(seat))
        .route("/view/{token}/phase/{phase}", get(seat_phase))
        .route("/view/{token}/record", get(seat_record))
        .route("/static/site.css", get(css))
        .route("/static/step.js", get(js))
        .route("/metrics", get(metrics))
        .route("/health", get(health))
        .fallback(|| async { not_found() })
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), guard))
        .with_state(shared)
}

/// The client an address counts as: an IPv4 address (an IPv4-mapped IPv6 one too), or the
/// /64 of an IPv6 address (one subscriber's prefix: its addresses are one client).
fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut octets = v6.octets();
                octets.iter_mut().skip(8).for_each(|b| *b = 0);
                IpAddr::V6(std::net::Ipv6Addr::from(octets))
            }
        },
    }
}

/// The connections each client holds now.
#[derive(Default)]
struct Clients(Mutex<HashMap<IpAddr, usize>>);

/// One client's hold on one of its connections: given back when dropped.
struct ClientSlot {
    clients: Arc<Clients>,
    client: IpAddr,
}

impl Clients {
    /// A slot for one more connection of `client`, if it holds fewer than
    /// [`CONNECTIONS_PER_CLIENT`].
    fn take(self: &Arc<Self>, client: IpAddr) -> Option<ClientSlot> {
        let mut held = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = held.entry(client).or_insert(0);
        if *n >= CONNECTIONS_PER_CLIENT {
            return None;
        }
        *n += 1;
        Some(ClientSlot {
            clients: Arc::clone(self),
            client,
        })
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut held = self
            .clients
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = held.get_mut(&self.client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.remove(&self.client);
            }
        }
    }
}

/// Accepts connections until `stopped`: each served by hyper's HTTP/1 with a header
/// time-out, a bounded buffer and a bounded life, at most [`CONNECTIONS_PER_CLIENT`] a
/// client and [`MAX_CONNECTIONS`] in all at once (more are closed at once), the peer's
/// address handed to the rate limiter.
async fn accept(listener: tokio::net::TcpListener, app: Router, stopped: oneshot::Receiver<()>) {
    let permits = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let clients = Arc::new(Clients::default());
    let mut stopped = stopped;
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors, say: wait, never spin.
                    warn!(error = %e, "web view cannot accept");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = &mut stopped => return,
        };
        // The client's own bound first: its extra connections take no global permit.
        let Some(slot) = clients.take(client_of(peer.ip())) else {
            drop(stream);
            continue;
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(
                move |mut req: hyper::Request<hyper::body::Incoming>| {
                    req.extensions_mut().insert(ConnectInfo(peer));
                    tower::ServiceExt::oneshot(app.clone(), req.map(axum::body::Body::new))
                },
            );
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(MAX_HEADER_BYTES)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            let _ = tokio::time::timeout(CONNECTION_LIFE, conn).await;
            drop(permit);
            drop(slot);
        });
    }
}

/// A running web server; stopped when dropped or by [`WebServer::stop`].
pub struct WebServer {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl WebServer {
    /// The address it listens on (with the port the OS chose for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops it and waits for it to end.
    pub fn stop(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        self.shut();
    }
}

/// Starts the web server for the database at `database` on a thread of its own; returns
/// once it listens.
pub fn spawn(database: PathBuf, judge: &str, section: &WebSection) -> anyhow::Result<WebServer> {
    let map =
        Map::standard().map_err(|e| anyhow::anyhow!("the standard map does not load: {e}"))?;
    let listener = std::net::TcpListener::bind(section.listen)
        .with_context(|| format!("while listening on {} for the web view", section.listen))?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let shared = Arc::new(Shared {
        database,
        judge: judge.to_string(),
        map,
        pool: Mutex::new(Vec::new()),
        per_minute: section.requests_per_minute,
        stale_after: section.health_stale_after_secs,
        seen: Mutex::new(HashMap::new()),
    });
    let (stop, stopped) = oneshot::channel::<()>();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(POOL * 2)
        .build()
        .context("while starting the web view's runtime")?;
    let thread = std::thread::Builder::new()
        .name("web".into())
        .spawn(move || {
            runtime.block_on(async move {
                let listener = match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => l,
                    Err(e) => {
                        warn!(error = %e, "web view cannot listen");
                        return;
                    }
                };
                accept(listener, router(shared), stopped).await;
            });
        })
        .context("while starting the web view's thread")?;
    info!(%addr, "web view listening");
    Ok(WebServer {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// `dipjudge web`: serves the pages until `stop` is set (SIGTERM, SIGINT).
pub fn serve_blocking(
    database: PathBuf,
    judge: &str,
    section: &WebSection,
    stop: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<()> {
    let server = spawn(database, judge, section)?;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(200));
    }
    server.stop();
    Ok(())
}

/// Builds the page of game `name` for anyone from the database at `database`, as the
/// server does (one read transaction), returning its size in bytes (`bench-web`).
pub fn bench_page(store: &mut Store, judge: &str, name: &str) -> anyhow::Result<usize> {
    let map =
        Map::standard().map_err(|e| anyhow::anyhow!("the standard map does not load: {e}"))?;
    let page = store.read(|tx| {
        Ok::<_, StoreError>(view::game(map, tx, name, None)?.map(|g| {
            pages::game(
                judge,
                &g,
                &format!("/game/{name}"),
                g.phases.len().checked_sub(1),
            )
            .into_string()
        }))
    })?;
    page.map(|p| p.len())
        .ok_or_else(|| anyhow::anyhow!("no game {name:?}"))
}

/// Builds the list of games as the server does (one read transaction and the template),
/// returning its size in bytes (`bench-scale`).
pub fn bench_list(store: &mut Store, judge: &str, page: u64) -> anyhow::Result<usize> {
    let games = store.read(|tx| view::list(tx, page))?;
    Ok(pages::list(judge, &games).into_string().len())
}

#[cfg(test)]
mod tests {
    use super::page_asked;

    #[test]
    fn the_list_page_asked_for_is_a_number_from_one() {
        assert_eq!(page_asked(None), Some(1));
        assert_eq!(page_asked(Some("")), Some(1));
        assert_eq!(page_asked(Some("page=3")), Some(3));
        assert_eq!(page_asked(Some("x=1&page=12")), Some(12));
        for bad in [
            "page=0",
            "page=",
            "page=-1",
            "page=2x",
            "page=1&page=2",
            "page=99999999999999999999999",
        ] {
            assert_eq!(page_asked(Some(bad)), None, "{bad}");
        }
    }
}
