//! The automata and the tables in a browser: a local web server with one
//! self-contained page and a small JSON API (docs/web.md).
//!
//! - [`router`]: the page and the API over an [`AppState`].
//! - [`serve`]: runs the router on a listener until the process is stopped,
//!   through the server layer of [`server`] (its limits and time-outs).
//!
//! Every bad request gets a 4xx and `{"error": "..."}` ([`ApiError`]); the
//! blocking work of a request runs on tokio's blocking threads, and the
//! heavy part of it (emulation, audits, table builds) on the bounded
//! [`work::WorkPool`], apart from them.

pub mod audit;
pub mod builds;
pub mod error;
pub mod games;
pub mod practice;
pub mod probe;
pub mod store;

pub mod server;
pub mod work;

mod assets;
mod calculator;
mod routes;
mod starts;

use std::sync::Arc;

use ajedrecista_automata::Session;
use ajedrecista_automata::app::{BuildQueue, Practice};
use ajedrecista_tables::{Syzygy, Tablebase};

pub use builds::Builds;
pub use error::ApiError;
pub use routes::router;
pub use server::{RequestScope, ServerLimits};
pub use store::{GameId, GameStore, Limits};

/// The largest request body accepted: a move or a new game is well under a
/// hundred bytes.
pub const MAX_BODY_BYTES: usize = 4096;

/// Builds waiting behind the one running, at most, by default.
pub const BUILDS_WAITING: usize = 3;

/// What every request shares.
pub struct AppState {
    pub tables: Arc<Tablebase>,
    pub audits: audit::AuditCache,
    pub games: GameStore<Session>,
    /// Practices: the visitor gives the mate as White.
    pub practices: GameStore<Practice>,
    /// Emulation, audits and table builds.
    pub work: Arc<work::WorkPool>,
    /// The table builds under way (fed by the tables' progress callback
    /// where the caller wires it: [`AppState::with_builds`]).
    pub builds: Builds,
    /// Tables too large to build within a request, built in the
    /// background for probes (docs/web.md, "Builds in the background").
    pub queue: BuildQueue,
    /// Syzygy files that answer a probe at once where a DTM table is not
    /// built (`serve --syzygy`).
    pub syzygy: Option<Arc<Syzygy>>,
    /// The page runs as a kiosk (`serve --kiosk`).
    pub kiosk: Option<Kiosk>,
}

/// A page left alone on a public screen: after `idle` without a touch, a
/// key or a click, it goes back to its start screen, and it offers no
/// download (docs/web.md, "Kiosk").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kiosk {
    pub idle: std::time::Duration,
}

impl Kiosk {
    /// Three minutes: a visitor thinking over a move is not cut off.
    pub const DEFAULT_IDLE: std::time::Duration = std::time::Duration::from_secs(180);
}

impl AppState {
    pub fn new(tables: Arc<Tablebase>, limits: Limits) -> Arc<AppState> {
        AppState::with_pool(tables, limits, work::WorkPool::for_this_machine())
    }

    /// [`AppState::new`] showing `builds`, which the tables' progress
    /// callback feeds ([`Builds::update`], [`Builds::finish`]), probing
    /// `syzygy` where a DTM table is not built, and as a kiosk if `kiosk`.
    pub fn with_builds(
        tables: Arc<Tablebase>,
        limits: Limits,
        builds: Builds,
        syzygy: Option<Syzygy>,
        kiosk: Option<Kiosk>,
    ) -> Arc<AppState> {
        let mut state = AppState::unshared(tables, limits, work::WorkPool::for_this_machine());
        state.builds = builds;
        state.syzygy = syzygy.map(Arc::new);
        state.kiosk = kiosk;
        Arc::new(state)
    }

    /// [`AppState::new`] with at most `waiting` builds waiting behind the
    /// one running.
    pub fn with_builds_waiting(
        tables: Arc<Tablebase>,
        limits: Limits,
        waiting: usize,
    ) -> Arc<AppState> {
        let mut state = AppState::unshared(tables, limits, work::WorkPool::for_this_machine());
        state.queue = BuildQueue::new(Arc::clone(&state.tables), waiting);
        Arc::new(state)
    }

    /// [`AppState::new`] with the given work pool.
    pub fn with_pool(
        tables: Arc<Tablebase>,
        limits: Limits,
        pool: work::WorkPool,
    ) -> Arc<AppState> {
        Arc::new(AppState::unshared(tables, limits, pool))
    }

    fn unshared(tables: Arc<Tablebase>, limits: Limits, pool: work::WorkPool) -> AppState {
        AppState {
            queue: BuildQueue::new(Arc::clone(&tables), BUILDS_WAITING),
            tables,
            audits: audit::AuditCache::default(),
            games: GameStore::new(limits),
            practices: GameStore::new(limits),
            work: Arc::new(pool),
            builds: Builds::default(),
            syzygy: None,
            kiosk: None,
        }
    }
}

/// Serves the page and the API on `listener` until `shutdown` completes,
/// with the default [`ServerLimits`] (connections capped below the
/// process's open-file limit).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with_limits(
        listener,
        state,
        ServerLimits::default().within_open_file_limit(),
        shutdown,
    )
    .await
}

/// [`serve`] with the given limits.
pub async fn serve_with_limits(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    limits: ServerLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    server::serve_router(listener, router(state), limits, shutdown).await
}
