//! `play --pgn FILE`: the game is never lost. FILE is checked before the
//! first move; the PGN of the game so far is kept as it goes and written
//! at every end: the game's own, `quit`, the end of the input, an error
//! (stdout closed or full), and SIGINT, SIGTERM or SIGHUP.
//!
//! The signals are blocked in every thread and taken by one thread of
//! their own (`sigwait`): it writes the PGN as any thread may, then lets
//! the signal end the process as it would have.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::Context;

use crate::output::note;

/// The signals that end a game with its PGN written.
const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The PGN file of a game, and the game so far.
pub struct PgnKeeper {
    path: PathBuf,
    kept: Arc<Mutex<Kept>>,
}

#[derive(Default)]
struct Kept {
    /// The PGN of the game so far; `None` before the game starts.
    pgn: Option<String>,
    /// Written at an end: nothing more is written.
    done: bool,
}

impl PgnKeeper {
    /// Checks that the PGN can be written to `path`, then takes the
    /// signals. Call it before any other thread starts: a thread started
    /// earlier could take a signal itself and end the process with the
    /// game unwritten.
    pub fn start(path: &Path) -> anyhow::Result<PgnKeeper> {
        check_writable(path)
            .with_context(|| format!("cannot write the PGN to {}", path.display()))?;
        let keeper = PgnKeeper {
            path: path.to_path_buf(),
            kept: Arc::default(),
        };
        let set = blocked_signals().context("cannot take the signals")?;
        let path = keeper.path.clone();
        let kept = Arc::clone(&keeper.kept);
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || on_signal(&set, &path, &kept))
            .context("cannot start the signal thread")?;
        Ok(keeper)
    }

    /// The game so far.
    pub fn keep(&self, pgn: Option<String>) {
        lock(&self.kept).pgn = pgn;
    }

    /// Writes the game's PGN at its end; false if no game was played.
    pub fn finish(&self, pgn: Option<String>) -> anyhow::Result<bool> {
        let mut kept = lock(&self.kept);
        kept.done = true;
        match pgn {
            Some(pgn) => save_pgn(&self.path, &pgn).map(|()| true),
            None => Ok(false),
        }
    }
}

fn lock(kept: &Mutex<Kept>) -> MutexGuard<'_, Kept> {
    kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Blocks [`SIGNALS`] in this thread, and so in every thread it starts.
fn blocked_signals() -> io::Result<libc::sigset_t> {
    // SAFETY: the set is initialised by sigemptyset before use, and
    // pthread_sigmask reads it and changes only this thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for signal in SIGNALS {
            libc::sigaddset(&mut set, signal);
        }
        match libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) {
            0 => Ok(set),
            error => Err(io::Error::from_raw_os_error(error)),
        }
    }
}

/// Waits for one of the signals, writes the game so far, then ends the
/// process by that signal, with the lock held: no other write follows.
fn on_signal(set: &libc::sigset_t, path: &Path, kept: &Mutex<Kept>) {
    let mut signal = 0;
    // SAFETY: sigwait reads the set and writes the signal's number.
    if unsafe { libc::sigwait(set, &mut signal) } != 0 {
        return;
    }
    let kept = lock(kept);
    if !kept.done
        && let Some(pgn) = &kept.pgn
    {
        match save_pgn(path, pgn) {
            Ok(()) => note!("ajedrecista: stopped; PGN written to {}", path.display()),
            Err(err) => note!("ajedrecista: stopped; {err:#}"),
        }
    }
    // SAFETY: the default action restored and the signal unblocked in this
    // thread only, then raised in it: the process ends as by the signal.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut only: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut only);
        libc::sigaddset(&mut only, signal);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &only, std::ptr::null_mut());
        libc::raise(signal);
    }
    std::process::exit(128 + signal);
}

/// Where the PGN goes, and how.
enum Destination {
    /// A FIFO, a device, or a file with other hard links: written in
    /// place, so that it stays what it is.
    InPlace { target: PathBuf, truncate: bool },
    /// A regular file (or none yet): replaced atomically, its permissions
    /// kept.
    Replaced {
        target: PathBuf,
        permissions: Option<fs::Permissions>,
    },
}

/// What `path` is, through its symbolic links: a regular file (or none)
/// is replaced atomically with the file's own permissions (a new file's
/// as for any file the user creates: 0666 less the umask), a symbolic link
/// is written through (its target replaced), a FIFO or a device is written
/// directly, and so is a file with other hard links, which a replacement
/// would leave holding the old text.
fn destination(path: &Path) -> anyhow::Result<Destination> {
    let target = link_target(path).with_context(|| format!("cannot follow {}", path.display()))?;
    Ok(match fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => anyhow::bail!("{} is a folder", target.display()),
        Ok(meta) if !meta.is_file() || meta.nlink() > 1 => Destination::InPlace {
            target,
            truncate: meta.is_file(),
        },
        Ok(meta) => Destination::Replaced {
            target,
            permissions: Some(meta.permissions()),
        },
        Err(err) if err.kind() == io::ErrorKind::NotFound => Destination::Replaced {
            target,
            permissions: None,
        },
        Err(err) => {
            return Err(err).with_context(|| format!("cannot read {}", target.display()));
        }
    })
}

/// The folder a replaced file is written in.
fn folder_of(target: &Path) -> &Path {
    target
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Checks that the PGN could be written now: the destination is no
/// folder, a file with other links opens for writing, and a replaced
/// file's folder takes a new file (one is made there and removed at once).
fn check_writable(path: &Path) -> anyhow::Result<()> {
    match destination(path)? {
        // A file with other links is opened as it will be, not truncated;
        // a FIFO or a device is left alone (opening a FIFO would end what
        // its reader reads).
        Destination::InPlace { target, truncate } if truncate => fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .map(drop)
            .with_context(|| format!("cannot open {}", target.display())),
        Destination::InPlace { .. } => Ok(()),
        Destination::Replaced { target, .. } => {
            let folder = folder_of(&target);
            tempfile::tempfile_in(folder)
                .map(drop)
                .with_context(|| format!("cannot create a file in {}", folder.display()))
        }
    }
}

/// Writes the PGN to `path` as [`destination`] says.
fn save_pgn(path: &Path, text: &str) -> anyhow::Result<()> {
    match destination(path)? {
        Destination::InPlace { target, truncate } => {
            let mut file = fs::OpenOptions::new()
                .write(true)
                .truncate(truncate)
                .open(&target)
                .with_context(|| format!("cannot open {}", path.display()))?;
            file.write_all(text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))
        }
        Destination::Replaced {
            target,
            permissions,
        } => crate::files::write_atomically(&target, text, permissions),
    }
}

/// The path a chain of symbolic links at `path` ends at (the path itself if
/// it is no link), whether or not the final target exists yet.
fn link_target(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    // Linux's own limit on links followed in one lookup.
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(current),
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(err) => return Err(err),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}
