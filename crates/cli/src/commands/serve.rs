//! `ajedrecista serve`: the automata and the tables in a browser.

use std::net::SocketAddr;

use ajedrecista_web::{AppState, Builds, Kiosk, Limits};
use anyhow::Context;

use crate::output::note;
use crate::tables_args::{MemoryArgs, SyzygyArgs, TablesArgs};

/// The longest idle time a game may be given: a week. Far beyond any
/// game, and far below an overflow of the seconds it is turned into.
const MAX_IDLE_MINUTES: u64 = 7 * 24 * 60;

/// Serve a page to play the automata, see their audits and browse the
/// tables, with its JSON API (docs/web.md). Stop with Ctrl-C.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (loopback by default: the server has no
    /// authentication)
    #[arg(long, default_value = "127.0.0.1:8061")]
    addr: SocketAddr,
    /// Most games kept in memory at once
    #[arg(long, default_value_t = Limits::default().max_games)]
    max_games: usize,
    /// Minutes without a request after which a game is dropped (1 to
    /// 10080, a week)
    #[arg(long, default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=MAX_IDLE_MINUTES))]
    idle_minutes: u64,
    /// Run as a kiosk: the page goes back to its start screen after
    /// --kiosk-idle-seconds without input, and offers no download
    #[arg(long)]
    kiosk: bool,
    /// With --kiosk: seconds without a touch, key or click before the page
    /// goes back to its start (5 to 3600)
    #[arg(long, value_name = "N", requires = "kiosk",
          default_value_t = Kiosk::DEFAULT_IDLE.as_secs(),
          value_parser = clap::value_parser!(u64).range(5..=3600))]
    kiosk_idle_seconds: u64,
    #[command(flatten)]
    tables: TablesArgs,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    syzygy: SyzygyArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(args.max_games > 0, "--max-games must be at least 1");
    let syzygy = args.syzygy.open()?;
    // The page's progress bar follows the builds the tables report.
    let builds = Builds::default();
    let (building, finished) = (builds.clone(), builds.clone());
    let tables = std::sync::Arc::new(args.memory.bound(args.tables.open_watched(
        move |material, variant| finished.finish(material, variant),
        move |material, variant, progress| building.update(material, variant, progress),
    )));
    let limits = Limits {
        max_games: args.max_games,
        idle: std::time::Duration::from_secs(args.idle_minutes * 60),
    };
    let warming = std::sync::Arc::clone(&tables);
    let kiosk = args.kiosk.then(|| Kiosk {
        idle: std::time::Duration::from_secs(args.kiosk_idle_seconds),
    });
    let state = AppState::with_builds(tables, limits, builds, syzygy, kiosk);
    let runtime = tokio::runtime::Runtime::new().context("starting the server's threads")?;
    runtime.block_on(async move {
        let listener =
            listen(args.addr).with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr().context("the listening address")?;
        note!("ajedrecista: serving on http://{addr}/ (Ctrl-C stops)");
        // After the address: the first line of the log says where to go.
        warm_up(warming);
        let shutdown = async {
            // Without a signal handler the server runs until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        ajedrecista_web::serve(listener, state, shutdown)
            .await
            .context("serving")
    })
}

/// A listener with a backlog of 1024 connections (std's default is 128): a
/// burst of connections beyond the backlog would wait a second or more for
/// the kernel to retry their handshakes.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(1024)
}

/// Builds, on a thread of its own, what the machines' first moves would
/// wait for (each method's own table, each machine's material), a line
/// in the log as each starts and ends; requests are served meanwhile.
fn warm_up(tables: std::sync::Arc<ajedrecista_tables::Tablebase>) {
    std::thread::spawn(move || {
        let never = std::sync::atomic::AtomicBool::new(false);
        for work in ajedrecista_automata::app::warm_up(&tables) {
            if work.is_done(&tables) {
                continue;
            }
            note!("ajedrecista: building {work} at start");
            let started = std::time::Instant::now();
            match work.run(&tables, &never) {
                Ok(()) => note!(
                    "ajedrecista: {work} ready in {:.1} s",
                    started.elapsed().as_secs_f64()
                ),
                Err(err) => note!("ajedrecista: {work} not built at start: {err}"),
            }
        }
    });
}
