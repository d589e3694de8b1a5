//! Guarded file access: stale temporary files removed, files opened without
//! waiting, and reads given up past a deadline.

use std::{
    fs,
    io::{self, Read},
    panic::{self, AssertUnwindSafe},
    path::Path,
    sync::{OnceLock, mpsc},
    time::{Duration, Instant},
};

use crate::{
    error::FileError,
    format::{ReadError, temporary},
};

/// Temporary files older than this are left from a writer that died.
pub(crate) const STALE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes temporary files of `name` left behind by writers that died (an
/// hour old: a younger one may be another process's write in progress).
pub fn remove_stale(dir: &Path, name: &str) {
    let (prefix, suffix) = temporary(name);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE));
        if old && file.starts_with(&prefix) && file.ends_with(suffix) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Opens a table file for reading, refusing anything but a regular file
/// without waiting: a FIFO's open waits for a writer and its reads for
/// data, a device's may never end, so each would hang its reader (a
/// request worker of the server for good). The open does not block
/// (`O_NONBLOCK`, which regular files ignore), and the kind is then read
/// from the open file itself.
pub(crate) fn open_regular(path: &Path) -> Result<fs::File, ReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(FileError::NotRegular.into());
    }
    Ok(file)
}

/// How long reading a table file may take: 30 s, and 1 s more for every
/// 8 MiB of it. A regular file can still hang its reader (a network mount
/// that stopped answering, a failing disk); past this the read is given up
/// and the file treated as unusable.
pub(crate) fn read_time_limit(file_len: u64) -> Duration {
    Duration::from_secs(30 + file_len / (8 << 20))
}

/// When a read must have ended, and the limit that set it (named in the
/// error).
#[derive(Clone, Copy)]
pub(crate) struct Deadline {
    pub(crate) at: Instant,
    pub(crate) limit: Duration,
}

impl Deadline {
    fn passed(self) -> ReadError {
        FileError::TimedOut { limit: self.limit }.into()
    }
}

/// Runs `read` on the reading pool and waits for it at most `limit`:
/// a read that blocks leaves its caller on time with
/// [`FileError::TimedOut`]. `read` is given the deadline, so that a read
/// that goes on, only slowly, stops by itself (see [`read_before`]); one
/// blocked in the kernel ends when its `read` call returns.
pub(crate) fn within<T: Send + 'static>(
    limit: Duration,
    read: impl FnOnce(Deadline) -> Result<T, ReadError> + Send + 'static,
) -> Result<T, ReadError> {
    within_telling(limit, |deadline, _| read(deadline), &|_, _| {})
}

/// What the thread of a read run [`within_telling`] says.
enum Heard<T> {
    /// `done` of `total` steps of the read are done.
    Progress {
        done: u64,
        total: u64,
    },
    Answer(Result<T, ReadError>),
}

/// [`within`], with `read` given a way to tell its progress (steps done,
/// of a total), which `progress` hears on the caller's thread.
pub(crate) fn within_telling<T: Send + 'static>(
    limit: Duration,
    read: impl FnOnce(Deadline, &dyn Fn(u64, u64)) -> Result<T, ReadError> + Send + 'static,
    progress: &dyn Fn(u64, u64),
) -> Result<T, ReadError> {
    let deadline = Deadline {
        at: Instant::now() + limit,
        limit,
    };
    let (tell, heard) = mpsc::channel();
    // A job of the reading pool, not a thread of its own: the caller waits
    // on the channel, so a read that hangs still leaves it on time.
    reading_pool().spawn(move || {
        // The caller may have gone on: nobody to tell then.
        let told = |done, total| {
            let _ = tell.send(Heard::Progress { done, total });
        };
        let answer = panic::catch_unwind(AssertUnwindSafe(|| read(deadline, &told)))
            .unwrap_or_else(
                |_| Err(io::Error::other("the read of the table file panicked").into()),
            );
        let _ = tell.send(Heard::Answer(answer));
    });
    loop {
        let left = deadline.at.saturating_duration_since(Instant::now());
        match heard.recv_timeout(left) {
            Ok(Heard::Progress { done, total }) => progress(done, total),
            Ok(Heard::Answer(result)) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(deadline.passed()),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other(
                    "the thread reading the table file ended without an answer",
                )
                .into());
            }
        }
    }
}

/// The threads table files are decompressed and checked on: their own,
/// not rayon's global pool, whose threads may all be waiting for reads
/// (probes on every one of them at once), which would then never start.
fn reading_pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("table file read {i}"))
            .build()
            .expect("threads to read table files")
    })
}

/// Up to `len` bytes of `reader` (fewer at its end), refused once the
/// deadline has passed: it is looked at after every `read` call.
pub(crate) fn read_before(
    reader: &mut impl Read,
    len: u64,
    deadline: Deadline,
) -> Result<Vec<u8>, ReadError> {
    const PIECE: usize = 1 << 20;
    let len = usize::try_from(len).map_err(|_| FileError::Sizes)?;
    let mut bytes = Vec::with_capacity(len);
    loop {
        let filled = bytes.len();
        if filled == len {
            return Ok(bytes);
        }
        if Instant::now() >= deadline.at {
            return Err(deadline.passed());
        }
        bytes.resize(filled + PIECE.min(len - filled), 0);
        match reader.read(&mut bytes[filled..]) {
            Ok(0) => {
                bytes.truncate(filled);
                return Ok(bytes);
            }
            Ok(got) => bytes.truncate(filled + got),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => bytes.truncate(filled),
            Err(err) => return Err(err.into()),
        }
    }
}
