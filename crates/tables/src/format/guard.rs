//! Guarded file access: temporary files no writer holds removed, files
//! opened without waiting, and every read of a table file (its open, its
//! header, its index, a chunk, a journal's part) run on a thread of its
//! own under a deadline.

use std::{
    collections::HashMap,
    fs,
    io::{self, Read},
    panic::{self, AssertUnwindSafe},
    path::{Path, PathBuf},
    sync::{Arc, Mutex, OnceLock, mpsc},
    thread,
    time::{Duration, Instant},
};

use crate::{
    error::FileError,
    format::{ReadError, temporary},
    sync::lock,
};

/// Removes the temporary files of `name` that no writer holds. A writer
/// locks its own ([`owned_temporary`]) until it has renamed it, and the
/// lock ends with its process: a file that can be locked is a dead
/// writer's, however young, and one that cannot a live writer's, however
/// old (a paused build's is kept).
pub fn remove_stale(dir: &Path, name: &str) {
    let (prefix, suffix) = temporary(name);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        if file.starts_with(&prefix) && file.ends_with(suffix) {
            remove_unowned(&entry.path());
        }
    }
}

/// Removes the file at `path` if no one holds its lock; it is held while
/// it is removed, so that no writer takes it meanwhile.
fn remove_unowned(path: &Path) {
    use std::os::unix::fs::OpenOptionsExt;
    // Write access: a lock over NFS needs it. A symbolic link is not
    // followed, and a FIFO not waited on.
    let Ok(file) = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(path)
    else {
        return;
    };
    if file.try_lock().is_ok() && names(path, &file) {
        let _ = fs::remove_file(path);
    }
}

/// Whether `path` still names the open `file` (not renamed or removed
/// since it was opened).
fn names(path: &Path, file: &fs::File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::symlink_metadata(path), file.metadata()) {
        (Ok(named), Ok(open)) => named.dev() == open.dev() && named.ino() == open.ino(),
        _ => false,
    }
}

/// A new temporary file in `dir`, named by `builder` and locked by this
/// process until it is dropped (renamed, the lock goes with it), so that
/// no cleaner ([`remove_stale`]) removes it, however long the writer
/// pauses. A cleaner may lock and remove a file between its creation
/// and its lock: another is made then.
pub(crate) fn owned_temporary(
    builder: &tempfile::Builder,
    dir: &Path,
) -> io::Result<tempfile::NamedTempFile> {
    for _ in 0..16 {
        let file = builder.tempfile_in(dir)?;
        match file.as_file().try_lock() {
            Ok(()) if names(file.path(), file.as_file()) => return Ok(file),
            Ok(()) | Err(fs::TryLockError::WouldBlock) => {}
            // A file system without locks: no cleaner can lock it either,
            // so none removes it.
            Err(fs::TryLockError::Error(_)) => return Ok(file),
        }
    }
    Err(io::Error::other(
        "every temporary file made was taken by another process",
    ))
}

/// The lock file of a folder that builds share (a journal): made if
/// missing and locked shared, so that the folder is removed only by a
/// build that can lock it alone ([`try_lock_alone`]).
pub(crate) fn lock_shared_in(dir: &Path, name: &str) -> io::Result<fs::File> {
    for _ in 0..16 {
        fs::create_dir_all(dir)?;
        let path = dir.join(name);
        let file = match fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
        {
            // The folder was removed meanwhile by the build that ended it.
            Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
            opened => opened?,
        };
        // A file system without locks: shared unguarded.
        let locked = file.lock_shared().is_ok();
        if !locked || names(&path, &file) {
            return Ok(file);
        }
    }
    Err(io::Error::other(
        "the folder was removed each time it was made",
    ))
}

/// Whether the lock `file` holds shared could be made exclusive: no other
/// build holds it (or the file system has no locks).
pub(crate) fn try_lock_alone(file: &fs::File) -> bool {
    !matches!(file.try_lock(), Err(fs::TryLockError::WouldBlock))
}

/// Opens a table file for reading, refusing anything but a regular file
/// without waiting: a FIFO's open waits for a writer and its reads for
/// data, a device's may never end, so each would hang its reader (a
/// request worker of the server for good). The open does not block
/// (`O_NONBLOCK`, which regular files ignore), and the kind is then read
/// from the open file itself.
fn open_regular(path: &Path) -> Result<fs::File, ReadError> {
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

/// [`open_regular`] under [`guarded`]: a mount that stopped answering
/// hangs an open too. The file and its length.
pub(crate) fn open_guarded(path: &Path) -> Result<(fs::File, u64), ReadError> {
    let owned = path.to_path_buf();
    guarded(path, read_time_limit(0), move |_| {
        let file = open_regular(&owned)?;
        let len = file.metadata()?.len();
        Ok((file, len))
    })
}

/// Whether a file is at `path`: a look that a mount that stopped
/// answering hangs too, so it is guarded as a read is. A file whose reads
/// hang counts as there: nothing is built over it, and its reads give
/// the error.
pub(crate) fn is_present(path: &Path) -> bool {
    let owned = path.to_path_buf();
    guarded(path, read_time_limit(0), move |_| Ok(owned.is_file())).unwrap_or(true)
}

/// How long reading a table file may take: 30 s, and 1 s more for every
/// 8 MiB of it. A regular file can still hang its reader (a network mount
/// that stopped answering, a failing disk); past this the read is given up
/// and the file left alone while the read hangs.
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

/// Runs `read` of the file at `path` on a thread of its own and waits for
/// it at most `limit`: a read that blocks leaves its caller on time with
/// [`FileError::TimedOut`], and its path is suspect until that read ends:
/// reads of it are refused at once ([`FileError::Unanswered`]) rather
/// than given threads that would hang too. Other files' reads are not
/// held up: a hung read holds its own thread only. `read` is given the
/// deadline, so that a read that goes on, only slowly, stops by itself
/// (see [`read_before`]).
pub(crate) fn guarded<T: Send + 'static>(
    path: &Path,
    limit: Duration,
    read: impl FnOnce(Deadline) -> Result<T, ReadError> + Send + 'static,
) -> Result<T, ReadError> {
    guarded_telling(path, limit, |deadline, _| read(deadline), &|_, _| {})
}

/// What the thread of a read run [`guarded_telling`] says.
enum Heard<T> {
    /// `done` of `total` steps of the read are done.
    Progress {
        done: u64,
        total: u64,
    },
    Answer(Result<T, ReadError>),
}

/// Paths with reads given up that have not ended yet, and how many.
fn unanswered() -> &'static Mutex<HashMap<PathBuf, usize>> {
    static UNANSWERED: OnceLock<Mutex<HashMap<PathBuf, usize>>> = OnceLock::new();
    UNANSWERED.get_or_init(Default::default)
}

/// [`guarded`], with `read` given a way to tell its progress (steps done,
/// of a total), which `progress` hears on the caller's thread.
pub(crate) fn guarded_telling<T: Send + 'static>(
    path: &Path,
    limit: Duration,
    read: impl FnOnce(Deadline, &dyn Fn(u64, u64)) -> Result<T, ReadError> + Send + 'static,
    progress: &dyn Fn(u64, u64),
) -> Result<T, ReadError> {
    #[cfg(test)]
    let limit = stall::limit(path).unwrap_or(limit);
    if lock(unanswered()).contains_key(path) {
        return Err(FileError::Unanswered.into());
    }
    let deadline = Deadline {
        at: Instant::now() + limit,
        limit,
    };
    let (tell, heard) = mpsc::channel();
    // Set, under its lock, when the caller gives up: the read's end then
    // clears its path instead of answering.
    let given_up = Arc::new(Mutex::new(false));
    let path = path.to_path_buf();
    let job = {
        let (given_up, path) = (Arc::clone(&given_up), path.clone());
        move || {
            #[cfg(test)]
            stall::wait(&path);
            let told = |done, total| {
                let _ = tell.send(Heard::Progress { done, total });
            };
            let answer = panic::catch_unwind(AssertUnwindSafe(|| read(deadline, &told)))
                .unwrap_or_else(|_| {
                    Err(io::Error::other("the read of the table file panicked").into())
                });
            let given_up = lock(&given_up);
            if *given_up {
                let mut unanswered = lock(unanswered());
                if let Some(count) = unanswered.get_mut(&path) {
                    *count -= 1;
                    if *count == 0 {
                        unanswered.remove(&path);
                    }
                }
            } else {
                let _ = tell.send(Heard::Answer(answer));
            }
        }
    };
    readers::run(Box::new(job))?;
    loop {
        let left = deadline.at.saturating_duration_since(Instant::now());
        match heard.recv_timeout(left) {
            Ok(Heard::Progress { done, total }) => progress(done, total),
            Ok(Heard::Answer(result)) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let mut given_up = lock(&given_up);
                // An answer sent before the lock was taken is still taken.
                while let Ok(message) = heard.try_recv() {
                    if let Heard::Answer(result) = message {
                        return result;
                    }
                }
                *given_up = true;
                *lock(unanswered()).entry(path).or_default() += 1;
                return Err(deadline.passed());
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other(
                    "the thread reading the table file ended without an answer",
                )
                .into());
            }
        }
    }
}

/// The threads reads run on: as many as reads at once need, a few kept
/// waiting for the next. A read that hangs holds its thread alone, never
/// one that other reads wait for.
mod readers {
    use super::*;

    pub(super) type Job = Box<dyn FnOnce() + Send>;

    /// Threads kept waiting for a read; those past this many end after
    /// theirs.
    const KEPT: usize = 8;

    fn waiting() -> &'static Mutex<Vec<mpsc::Sender<Job>>> {
        static WAITING: OnceLock<Mutex<Vec<mpsc::Sender<Job>>>> = OnceLock::new();
        WAITING.get_or_init(Default::default)
    }

    /// Runs `job` on a waiting thread, or a new one.
    pub(super) fn run(job: Job) -> io::Result<()> {
        let waiting = lock(waiting()).pop();
        let job = match waiting {
            Some(thread) => match thread.send(job) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        thread::Builder::new()
            .name("table file read".to_owned())
            .spawn(move || reader(job))?;
        Ok(())
    }

    /// A reader thread: `job` (which catches its panics), then the jobs
    /// handed to it while it waits.
    fn reader(mut job: Job) {
        let (hand, jobs) = mpsc::channel();
        loop {
            job();
            {
                let mut waiting = lock(waiting());
                if waiting.len() >= KEPT {
                    return;
                }
                waiting.push(hand.clone());
            }
            match jobs.recv() {
                Ok(next) => job = next,
                Err(_) => return,
            }
        }
    }
}

/// The threads table files are decompressed and checked on: their own,
/// not rayon's global pool, whose threads may all be waiting for reads
/// (probes on every one of them at once), which would then never end.
/// Only work that waits for nothing runs here.
pub(crate) fn decompressing() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("table file decompression {i}"))
            .build()
            .expect("threads to decompress table files")
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

/// A reader that stops once its deadline has passed (looked at before
/// every read): a slow read through a decoder ends by itself.
pub(crate) struct Before<R> {
    pub(crate) inner: R,
    pub(crate) deadline: Deadline,
}

impl<R: Read> Read for Before<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if Instant::now() >= self.deadline.at {
            let limit = self.deadline.limit;
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                FileError::TimedOut { limit },
            ));
        }
        self.inner.read(buf)
    }
}

/// A test hook: the guarded reads of a path made to wait (a mount that
/// stopped answering) under a short limit, until let go.
#[cfg(test)]
pub(crate) mod stall {
    use std::sync::Condvar;

    use super::*;

    /// A stalled path's limit, and whether it is let go.
    type Gate = (Duration, Mutex<bool>, Condvar);

    fn stalled() -> &'static Mutex<HashMap<PathBuf, Arc<Gate>>> {
        static STALLED: OnceLock<Mutex<HashMap<PathBuf, Arc<Gate>>>> = OnceLock::new();
        STALLED.get_or_init(Default::default)
    }

    /// Reads of `path` wait from now until the stall is let go or
    /// dropped, each read limited to `limit`.
    pub(crate) struct Stall(PathBuf);

    impl Stall {
        pub(crate) fn new(path: &Path, limit: Duration) -> Stall {
            let gate = Arc::new((limit, Mutex::new(false), Condvar::new()));
            lock(stalled()).insert(path.to_path_buf(), gate);
            Stall(path.to_path_buf())
        }
    }

    impl Drop for Stall {
        fn drop(&mut self) {
            if let Some(gate) = lock(stalled()).remove(&self.0) {
                *lock(&gate.1) = true;
                gate.2.notify_all();
            }
        }
    }

    pub(super) fn limit(path: &Path) -> Option<Duration> {
        lock(stalled()).get(path).map(|gate| gate.0)
    }

    pub(super) fn wait(path: &Path) {
        let Some(gate) = lock(stalled()).get(path).cloned() else {
            return;
        };
        let mut free = lock(&gate.1);
        while !*free {
            free = gate.2.wait(free).unwrap_or_else(|e| e.into_inner());
        }
    }
}
