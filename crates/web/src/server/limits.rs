//! The server's limits, and the connection cap under the open-file limit.

use std::time::Duration;

/// The server's limits. [`ServerLimits::default`] is what `serve` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// From the start of a connection, or the end of its last answer, to
    /// the end of the next request's head (hyper's `header_read_timeout`):
    /// a silent or slow connection is closed without an answer after it.
    pub header: Duration,
    /// From the end of the head to the end of the body (408 after it).
    pub body: Duration,
    /// From the end of the head to the answer (503 after it).
    pub request: Duration,
    /// Connections open at once; more wait in the listener's accept queue.
    pub max_connections: usize,
    /// At the cap, the connection idle longest is closed for a newcomer
    /// once it has been idle this long: each has time to send its request.
    pub room: Duration,
    /// The request line and headers (hyper's read buffer: 8 KiB at least).
    pub max_head_bytes: usize,
    /// The request target (path and query): 414 beyond.
    pub max_uri_bytes: usize,
    pub max_headers: usize,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            // hyper's default. At 10 s, 14 of 50 browsers opening the page
            // at once on 2 loaded cores never got it (crates/web/e2e/crowd.mjs):
            // Chromium had sat on a new connection longer before using it.
            header: Duration::from_secs(30),
            body: Duration::from_secs(10),
            // A four-man table build or an audit takes about a second on an
            // idle machine (docs/benchmarks.md); a loaded one, ten times as
            // long.
            request: Duration::from_secs(60),
            // 50 browsers open 6 connections each; at 256 the idlest closed for
            // the rest were ones Chromium was about to use (10 of 50 pages
            // failed, crowd.mjs). An idle connection costs hyper's buffers.
            max_connections: 1024,
            room: Duration::from_secs(1),
            max_head_bytes: 16 * 1024,
            max_uri_bytes: 8 * 1024,
            max_headers: 64,
        }
    }
}

impl ServerLimits {
    /// These limits with at most as many connections as the process may
    /// open files for, less a reserve for everything else (tables, the
    /// runtime, the standard streams).
    pub fn within_open_file_limit(self) -> ServerLimits {
        const RESERVE: usize = 32;
        let files = open_file_limit().unwrap_or(usize::MAX);
        ServerLimits {
            max_connections: self
                .max_connections
                .min(files.saturating_sub(RESERVE).max(4)),
            ..self
        }
    }
}

#[cfg(unix)]
fn open_file_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given and nothing else.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as usize)
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<usize> {
    None
}
