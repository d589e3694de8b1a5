//! Printing. A write that fails ends the command as command-line tools
//! end: quietly with exit 0 when the reader of stdout has gone
//! (`ajedrecista solve KRvK | head -1`), with one line on stderr and exit 2
//! for any other failure (`ajedrecista solve KRvK > /dev/full`). Commands
//! print with [`outln!`] and [`out!`], which return the failure with `?`;
//! `main` turns it into the exit. Notes on stderr ([`note!`]: warnings,
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

/// Writes to stdout.
pub fn stdout(text: fmt::Arguments) -> Result<(), WriteFailed> {
    io::stdout().lock().write_fmt(text).map_err(WriteFailed)
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
