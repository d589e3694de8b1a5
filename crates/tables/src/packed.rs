//! Bytes kept compressed in memory, in blocks, and read a byte at a time
//! through a few blocks each thread keeps decompressed: the built slices
//! that a pawn table's build still steps into, held in a fraction of their
//! size. The engine reads them nearly in order (a pawn step keeps the
//! number of the kings and pieces), so a thread's reads stay in a block.

use std::{
    cell::RefCell,
    sync::atomic::{AtomicU64, Ordering},
};

use rayon::prelude::*;

/// Numbers a block holds.
pub(crate) const BLOCK: usize = 1 << 16;
/// Blocks a thread keeps decompressed: a position steps into a few slices.
const CACHED: usize = 8;
/// zstd's fastest level.
const LEVEL: i32 = 1;

/// Tells apart the blocks of different [`Packed`] in the threads' caches.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Bytes compressed block by block.
pub(crate) struct Packed {
    id: u64,
    len: usize,
    blocks: Vec<Box<[u8]>>,
}

impl Packed {
    /// Compresses `bytes`, on every core.
    pub(crate) fn new(bytes: &[u8]) -> Packed {
        let blocks = bytes
            .par_chunks(BLOCK)
            .map_init(
                || zstd::bulk::Compressor::new(LEVEL).expect("a zstd context"),
                |compressor, block| {
                    compressor
                        .compress(block)
                        .expect("compressing into memory")
                        .into_boxed_slice()
                },
            )
            .collect();
        Packed {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            len: bytes.len(),
            blocks,
        }
    }

    /// The byte of number `index`.
    #[inline]
    pub(crate) fn get(&self, index: usize) -> u8 {
        CACHE.with_borrow_mut(|cache| cache.block(self, index / BLOCK)[index % BLOCK])
    }

    /// The bytes of block `block`, decompressed into `out` (emptied
    /// first), read once in order rather than through the threads' caches.
    pub(crate) fn block_into(&self, block: usize, out: &mut Vec<u8>) {
        CACHE.with_borrow_mut(|cache| self.decompress(block, out, &mut cache.decompressor));
    }

    /// Decompresses block `block` into `out`, made its length.
    fn decompress(
        &self,
        block: usize,
        out: &mut Vec<u8>,
        decompressor: &mut zstd::bulk::Decompressor<'static>,
    ) {
        out.resize(BLOCK.min(self.len - block * BLOCK), 0);
        let written = decompressor
            .decompress_to_buffer(&self.blocks[block], out.as_mut_slice())
            .expect("a block compressed here decompresses");
        debug_assert_eq!(written, out.len());
    }

    /// The bytes held compressed.
    #[cfg(test)]
    fn packed_len(&self) -> usize {
        self.blocks.iter().map(|block| block.len()).sum()
    }
}

/// A block decompressed: which [`Packed`] and block it is, and its bytes.
#[derive(Default)]
struct Slot {
    held: Option<(u64, usize)>,
    bytes: Vec<u8>,
}

/// The blocks a thread last decompressed, replaced in turn.
struct Cache {
    slots: Vec<Slot>,
    next: usize,
    decompressor: zstd::bulk::Decompressor<'static>,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache {
        slots: (0..CACHED).map(|_| Slot::default()).collect(),
        next: 0,
        decompressor: zstd::bulk::Decompressor::new().expect("a zstd context"),
    });
}

impl Cache {
    fn block(&mut self, packed: &Packed, block: usize) -> &[u8] {
        let key = Some((packed.id, block));
        if let Some(hit) = self.slots.iter().position(|slot| slot.held == key) {
            return &self.slots[hit].bytes;
        }
        let slot = self.next;
        self.next = (slot + 1) % CACHED;
        let Slot { held, bytes } = &mut self.slots[slot];
        packed.decompress(block, bytes, &mut self.decompressor);
        *held = key;
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_reads_back_in_any_order_and_the_bytes_shrink() {
        // Runs of equal bytes, as a slice's values come, and a short last block.
        let bytes: Vec<u8> = (0..3 * BLOCK + 1234)
            .map(|i| ((i / 97) % 7) as u8 * 3)
            .collect();
        let packed = Packed::new(&bytes);
        let other = Packed::new(&bytes.iter().map(|b| b + 1).collect::<Vec<u8>>());
        assert!(packed.packed_len() < bytes.len() / 10);
        for index in (0..bytes.len())
            .step_by(7)
            .chain((0..bytes.len()).rev().step_by(13))
        {
            assert_eq!(packed.get(index), bytes[index], "number {index}");
            assert_eq!(other.get(index), bytes[index] + 1, "number {index}");
        }
        let all: Vec<u8> = (0..bytes.len())
            .into_par_iter()
            .map(|index| packed.get(index))
            .collect();
        assert_eq!(all, bytes);
    }
}
