//! Untrusted input read under a bound. Every front end reads its files,
//! stdin and request bodies through this crate, so that no input, however
//! long, holds more memory than its limit; the limit is named in the
//! error. A leading UTF-8 byte-order mark is skipped.
//!
//! - [`read_text`], [`read_bytes`]: an input read whole (a Popeye file, a
//!   file to classify, a keys file, a listing), at most [`MAX_INPUT_BYTES`].
//! - [`LineReader`]: an input read a line at a time (`probe --epd`, `play`,
//!   `uci`, `mk61`), each line at most [`MAX_LINE_BYTES`]; a longer line
//!   or one that is not UTF-8 is a [`Line`] of its own, not an error, and
//!   is skipped without being held.
//! - [`check_length`]: a length announced before the input (a request's
//!   `content-length`).

mod lines;
mod whole;

pub use lines::{Line, LineReader, MAX_LINE_BYTES};
pub use whole::{MAX_INPUT_BYTES, check_length, open, read_bytes, read_text};

use std::io;

/// The byte-order mark some editors put at the start of a UTF-8 file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("the input is longer than its limit of {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("the input is not UTF-8 (byte {at})")]
    NotUtf8 { at: usize },
}
