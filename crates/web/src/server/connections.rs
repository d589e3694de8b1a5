//! The open connections, as the cap sees them: which are idle (no request
//! being answered) and since when, so that the one idle longest can be
//! closed to make room for a newcomer.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

#[derive(Default)]
pub(super) struct Connections {
    inner: Mutex<Registry>,
}

#[derive(Default)]
struct Registry {
    next: u64,
    open: BTreeMap<u64, Entry>,
}

struct Entry {
    /// Requests being answered.
    busy: usize,
    /// Since when it has answered none (since it opened, at first).
    idle_since: Instant,
    /// Told to close: not chosen again.
    closing: bool,
    close: Arc<Notify>,
}

/// One open connection in [`Connections`], entered while it lives.
pub(super) struct Connection {
    connections: Arc<Connections>,
    id: u64,
    /// Notified when the server closes this connection.
    pub(super) close: Arc<Notify>,
}

/// A request being answered on a connection: the connection is busy while
/// this lives, and idle from its drop.
pub(super) struct Busy {
    connections: Arc<Connections>,
    id: u64,
}

impl Connections {
    pub(super) fn open(self: &Arc<Self>) -> Connection {
        let close = Arc::new(Notify::new());
        let mut registry = self.lock();
        let id = registry.next;
        registry.next += 1;
        let entry = Entry {
            busy: 0,
            idle_since: Instant::now(),
            closing: false,
            close: Arc::clone(&close),
        };
        registry.open.insert(id, entry);
        Connection {
            connections: Arc::clone(self),
            id,
            close,
        }
    }

    /// Closes the connection idle longest if it has been idle `room`;
    /// returns how long to wait before asking again.
    pub(super) fn close_idlest(&self, room: Duration) -> Duration {
        let mut registry = self.lock();
        let idlest = registry
            .open
            .values_mut()
            .filter(|entry| entry.busy == 0 && !entry.closing)
            .min_by_key(|entry| entry.idle_since);
        match idlest {
            Some(entry) if entry.idle_since.elapsed() >= room => {
                entry.closing = true;
                entry.close.notify_one();
                room
            }
            Some(entry) => room - entry.idle_since.elapsed(),
            None => room,
        }
    }

    /// Tells every connection to close (the server stops).
    pub(super) fn close_all(&self) {
        for entry in self.lock().open.values_mut() {
            entry.closing = true;
            entry.close.notify_one();
        }
    }

    fn lock(&self) -> MutexGuard<'_, Registry> {
        self.inner
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }
}

impl Connection {
    /// Counts a request as being answered until the guard drops.
    pub(super) fn busy(&self) -> Busy {
        if let Some(entry) = self.connections.lock().open.get_mut(&self.id) {
            entry.busy += 1;
        }
        Busy {
            connections: Arc::clone(&self.connections),
            id: self.id,
        }
    }

    /// Whether a request is being answered.
    pub(super) fn is_busy(&self) -> bool {
        let registry = self.connections.lock();
        registry
            .open
            .get(&self.id)
            .is_some_and(|entry| entry.busy > 0)
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.connections.lock().open.remove(&self.id);
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(entry) = self.connections.lock().open.get_mut(&self.id) {
            entry.busy -= 1;
            entry.idle_since = Instant::now();
        }
    }
}

/// A connection's socket, to look for bytes its client has sent that are
/// not yet read: a request on its way, which a close would reset. The
/// registry's idea of idle can lag behind a busy machine; the socket's
/// cannot.
pub(super) struct Socket {
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
}

impl Socket {
    /// `stream`'s socket; look only while the stream is open.
    pub(super) fn of(stream: &tokio::net::TcpStream) -> Socket {
        #[cfg(not(unix))]
        let _ = stream;
        Socket {
            #[cfg(unix)]
            fd: std::os::fd::AsRawFd::as_raw_fd(stream),
        }
    }

    /// Whether bytes wait unread; they stay unread.
    #[cfg(unix)]
    pub(super) fn has_unread_bytes(&self) -> bool {
        let mut byte = 0u8;
        // SAFETY: recv writes at most one byte, into `byte`; MSG_PEEK leaves
        // it in the socket and MSG_DONTWAIT keeps the call from waiting.
        let peeked = unsafe {
            libc::recv(
                self.fd,
                (&raw mut byte).cast(),
                1,
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        peeked > 0
    }

    /// Without a way to look, none are seen.
    #[cfg(not(unix))]
    pub(super) fn has_unread_bytes(&self) -> bool {
        false
    }
}
