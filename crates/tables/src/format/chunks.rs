//! Decompressing a table file's chunks, each checked, in parallel
//! batches into the table's bytes.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::error::FileError;

/// Compressed bytes read before the chunks among them are decompressed
/// (in parallel): about two chunks for each core.
pub(crate) const DECOMPRESSED_AT_ONCE: usize = 4 << 20;

/// Decompresses and empties a batch of (compressed chunk, its output).
pub(crate) fn decompress_batch(batch: &mut Vec<(Vec<u8>, &mut [u8])>) -> Result<(), FileError> {
    batch
        .par_drain(..)
        .try_for_each(|(input, out)| decompress_chunk(&input, out))
}

/// Decompresses one chunk into `out`, which must be its size.
pub(crate) fn decompress_chunk(input: &[u8], out: &mut [u8]) -> Result<(), FileError> {
    thread_local! {
        // A context a thread, made once: making one for each chunk cost a
        // tenth of reading a window.
        static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { RefCell::new(None) };
    }
    let decompressed = DECOMPRESSOR.with_borrow_mut(|kept| {
        let decompressor = match kept {
            Some(decompressor) => decompressor,
            None => kept.insert(zstd::bulk::Decompressor::new()?),
        };
        decompressor.decompress_to_buffer(input, out)
    });
    match decompressed {
        Ok(n) if n == out.len() => Ok(()),
        _ => Err(FileError::Corrupt),
    }
}
