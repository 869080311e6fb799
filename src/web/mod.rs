//! The web view: read-only pages of every game for each reader, served beside the mail
//! loop. A page shows its reader what that reader's mails show, never more: an outsider
//! (and an observer: an address proves nothing on the web either) what observers may read
//! under the game's observer setting, a player or the master, through the unguessable link
//! in their mails, what `HISTORY` gives them (`judge::history` decides both).
//!
//! | file | owns |
//! | --- | --- |
//! | `view.rs` | what a reader may see of a game, read in one transaction |
//! | `pages.rs` | the HTML (maud templates: every interpolated string is escaped) |
//! | `server.rs` | the axum server: routes, limits, security headers, the rate limit |
//! | `metrics.rs` | `GET /metrics` (Prometheus) and `GET /health`, from the database |
//! | `bench.rs` | `dipjudge bench-web`: a page's time, the mail loop's latency under page load |

mod bench;
mod metrics;
mod pages;
mod server;
mod view;

use std::net::SocketAddr;

use serde::Deserialize;

pub use bench::{WebBenchFigures, bench};
pub use server::{WebServer, bench_list, bench_page, serve_blocking, spawn};
pub use view::{GameView, PhaseView, Reader};

/// `[web]` in `judge.toml`: off unless the section is there.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct WebSection {
    /// The address the server listens on (`127.0.0.1:8080`; behind a reverse proxy, keep
    /// it on the loopback).
    pub listen: SocketAddr,
    /// The address readers reach the pages at (`https://judge.example.org/`): mails carry
    /// links to private pages only when it is set.
    #[serde(default)]
    pub base_url: Option<String>,
    /// Requests one address may make per minute (then 429).
    #[serde(default = "default_rate")]
    pub requests_per_minute: u32,
    /// `GET /health` answers 503 once the last pass of the judge ended longer ago than
    /// this many seconds (the daemon stopped, or cron no longer runs `process`).
    #[serde(default = "default_stale_after")]
    pub health_stale_after_secs: u64,
}

impl WebSection {
    /// A section listening on `listen`, everything else as a `[web]` without it says.
    pub fn on(listen: SocketAddr) -> WebSection {
        WebSection {
            listen,
            base_url: None,
            requests_per_minute: default_rate(),
            health_stale_after_secs: default_stale_after(),
        }
    }
}

fn default_rate() -> u32 {
    120
}

/// Fifteen minutes: a `run` passes at least every `poll_interval_secs`, and cron usually
/// runs `process` every few minutes.
fn default_stale_after() -> u64 {
    15 * 60
}
