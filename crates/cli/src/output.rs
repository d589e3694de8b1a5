//! Printing. A write that fails ends the command as command-line tools
//! end: quietly with exit 0 when the reader of stdout has gone
//! (`ajedrecista solve KRvK | head -1`), with one line on stderr and exit 2
//! for any other failure (`ajedrecista solve KRvK > /dev/full`). Commands
//! print with [`outln!`] and [`out!`], which return the failure with `?`;
//! `main` turns it into the exit ([`write_failure`]). Commands that write
//! to an `impl Write` take [`stdout_lock`] instead of `io::stdout().lock()`. Notes on stderr ([`note!`]: warnings,
//! the server's address) are best effort: the command's result does not
//! hang on them.

use std::fmt;
use std::io::{self, Write};

/// A write to stdout that failed.
#[derive(Debug)]
pub struct WriteFailed(io::Error);

impl WriteFailed {
    /// The reader of stdout has gone: the command ends quietly.
    pub fn is_closed_pipe(&self) -> bool {
        self.0.kind() == io::ErrorKind::BrokenPipe
    }
}

impl fmt::Display for WriteFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write to stdout: {}", self.0)
    }
}

impl std::error::Error for WriteFailed {}

/// Stdout as a writer for commands that write with `writeln!(out, ...)`
/// and `io::Result` (`play`, `uci`): its errors carry a [`WriteFailed`],
/// so that `main` ends the command as for `outln!`.
pub struct Stdout(io::StdoutLock<'static>);

/// Locks stdout for [`Stdout`]'s writes.
pub fn stdout_lock() -> Stdout {
    Stdout(io::stdout().lock())
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(tagged)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(tagged)
    }
}

fn tagged(err: io::Error) -> io::Error {
    io::Error::new(err.kind(), WriteFailed(err))
}

/// The failed write to stdout that `err` comes from, if any.
pub fn write_failure(err: &anyhow::Error) -> Option<&WriteFailed> {
    err.chain().find_map(|cause| {
        cause.downcast_ref::<WriteFailed>().or_else(|| {
            cause
                .downcast_ref::<io::Error>()
                .and_then(|io| io.get_ref())
                .and_then(|inner| inner.downcast_ref::<WriteFailed>())
        })
    })
}

/// Writes to stdout.
pub fn stdout(text: fmt::Arguments) -> Result<(), WriteFailed> {
    io::stdout().lock().write_fmt(text).map_err(WriteFailed)
}

/// Writes `value` to `out` as one line of compact JSON (JSON Lines). The
/// failed write keeps its `io::Error`, and so its [`WriteFailed`] tag:
/// serde_json's own error would hide it (a closed pipe would be exit 2).
pub fn json_line(out: &mut impl Write, value: &impl serde::Serialize) -> io::Result<()> {
    write_json(out, value)?;
    writeln!(out)
}

/// Writes `value` to `out` as compact JSON, a failed write kept as for
/// [`json_line`].
pub fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(out, value).map_err(io::Error::from)
}

/// Prints `value` to stdout as indented JSON, the output of `--json` of a
/// command that prints one document.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    stdout(format_args!("{text}\n"))?;
    Ok(())
}

/// Writes what stdout still holds.
pub fn flush_stdout() -> Result<(), WriteFailed> {
    io::stdout().lock().flush().map_err(WriteFailed)
}

/// Writes a line to stderr, if it can.
pub fn write_note(text: fmt::Arguments) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// `println!` that returns a failed write with `?`.
macro_rules! outln {
    () => {
        $crate::output::stdout(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::output::stdout(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// `print!` that returns a failed write with `?`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::stdout(format_args!($($arg)*))?
    };
}

/// `eprintln!` that never fails.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::output::write_note(format_args!($($arg)*))
    };
}

pub(crate) use {note, out, outln};

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer failing as a closed pipe or a full disk does.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A failing writer whose errors carry [`WriteFailed`], as [`Stdout`]'s.
    struct StdoutFailing(io::ErrorKind);

    impl Write for StdoutFailing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(tagged(io::Error::from(self.0)))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn through_io_result(kind: io::ErrorKind) -> anyhow::Result<()> {
        let failed = Failing(kind).write(b"x").map_err(tagged);
        Ok(failed.map(drop)?)
    }

    #[test]
    fn write_failures_are_found_through_io_errors() {
        let pipe = through_io_result(io::ErrorKind::BrokenPipe).unwrap_err();
        assert!(write_failure(&pipe).is_some_and(WriteFailed::is_closed_pipe));
        let full = through_io_result(io::ErrorKind::StorageFull).unwrap_err();
        let failure = write_failure(&full).expect("found");
        assert!(!failure.is_closed_pipe());
        assert!(
            full.to_string().starts_with("cannot write to stdout"),
            "{full}"
        );
        let json = anyhow::Error::from(
            json_line(&mut StdoutFailing(io::ErrorKind::BrokenPipe), &[1, 2]).unwrap_err(),
        );
        assert!(
            write_failure(&json).is_some_and(WriteFailed::is_closed_pipe),
            "JSON written through json_line: {json:#}"
        );
        let other = anyhow::Error::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(
            write_failure(&other).is_none(),
            "only stdout's writes count"
        );
    }
}
