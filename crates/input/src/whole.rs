//! Inputs read whole.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::{BOM, InputError};

/// The most bytes an input read whole may have: 8 MiB, far above any
/// listing, keys file or Popeye problem, and a classification of that many
/// bytes of positions stays within a few hundred megabytes.
pub const MAX_INPUT_BYTES: u64 = 8 << 20;

/// Refuses a length over `limit` before anything is read.
pub fn check_length(length: u64, limit: u64) -> Result<(), InputError> {
    if length > limit {
        return Err(InputError::TooLarge { limit });
    }
    Ok(())
}

/// All of `reader`, at most `limit` bytes (one more is read to tell a
/// longer input), a leading byte-order mark left out.
pub fn read_bytes(reader: impl Read, limit: u64) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    let mut bounded = reader.take(limit.saturating_add(1));
    loop {
        match bounded.read_to_end(&mut bytes) {
            Ok(_) => break,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err.into()),
        }
    }
    check_length(bytes.len() as u64, limit)?;
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    Ok(bytes)
}

/// All of `reader` as UTF-8 text, at most `limit` bytes.
pub fn read_text(reader: impl Read, limit: u64) -> Result<String, InputError> {
    String::from_utf8(read_bytes(reader, limit)?).map_err(|err| InputError::NotUtf8 {
        at: err.utf8_error().valid_up_to(),
    })
}

/// The file at `path` opened for reading, or stdin for `-`.
pub fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    Ok(if path.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        Box::new(File::open(path)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_over_its_limit_is_refused_after_limit_and_one_bytes() {
        let mut endless = io::repeat(b'a');
        let err = read_bytes(&mut endless, 1000).unwrap_err();
        assert!(matches!(err, InputError::TooLarge { limit: 1000 }));
        assert_eq!(
            err.to_string(),
            "the input is longer than its limit of 1000 bytes"
        );
        assert_eq!(read_bytes(&b"abc"[..], 3).unwrap(), b"abc");
        assert!(read_bytes(&b"abcd"[..], 3).is_err());
    }

    #[test]
    fn a_byte_order_mark_is_left_out_and_bad_utf8_is_placed() {
        assert_eq!(read_text(&b"\xEF\xBB\xBFK7"[..], 100).unwrap(), "K7");
        let err = read_text(&b"ab\xE9c"[..], 100).unwrap_err();
        assert!(matches!(err, InputError::NotUtf8 { at: 2 }), "{err}");
    }
}
