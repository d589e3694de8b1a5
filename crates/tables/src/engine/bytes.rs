//! The engine's bytes during a build: the marks it writes beside the values
//! (candidates, safe positions), which values each block holds, which runs
//! are still open, counts of each value, and the tests a run of 64 bytes is
//! scanned with.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::value::{DEEP, ILLEGAL, MAX_PLIES, UNDECIDED, encode_plies};

/// Numbers per block: the numbers that differ in the last two men only.
pub(crate) const BLOCK: usize = 1 << 12;

/// How many retracted positions one run looked at by its moves is worth
/// (see [`Engine::wins_by_moves_pay`](super::steps::Engine::wins_by_moves_pay)): measured on KQRvKR.
pub(crate) const RUN_PER_RETRACTED: u64 = 4;
/// The same for step 2's marks against step 3 on every undecided position.
pub(crate) const RUN_PER_MARKED: u64 = 1;

/// During a build: an undecided position marked for verification.
pub(crate) const CANDIDATE: u8 = 254;
/// During a build: an undecided position that cannot be lost, because a
/// capture draws. At the end it is a draw like every undecided position.
pub(crate) const SAFE: u8 = 253;
const _: () = assert!(DEEP < SAFE);

/// Which byte values were ever written into a block: one bit per value.
#[derive(Default)]
pub(crate) struct Written([AtomicU64; 4]);

impl Written {
    #[inline]
    pub(crate) fn has(&self, byte: u8) -> bool {
        self.0[usize::from(byte >> 6)].load(Ordering::Relaxed) & (1 << (byte & 63)) != 0
    }

    #[inline]
    pub(crate) fn add(&self, byte: u8) {
        let word = &self.0[usize::from(byte >> 6)];
        let bit = 1 << (byte & 63);
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
    }

    pub(crate) fn remove(&self, byte: u8) {
        self.0[usize::from(byte >> 6)].fetch_and(!(1 << (byte & 63)), Ordering::Relaxed);
    }
}

/// The runs of a block that the steps by moves visit, a bit a run (bit r
/// for run r). A bit may be set for a run that no longer needs it, never
/// the other way round: the first pass sets the bits, and a step that
/// reads a run's bytes clears those it finds no longer needed.
#[derive(Default)]
pub(crate) struct OpenRuns {
    /// The run may hold a byte a later step can change ([`Changeable`]).
    changeable: AtomicU64,
    /// The run may hold an undecided byte, or a candidate.
    undecided: AtomicU64,
}

impl OpenRuns {
    /// The bits of the runs of `block` (at most 64 runs), after the first
    /// pass.
    pub(crate) fn set(&self, block: &[u8]) {
        let bits = |test: &dyn Fn(&[u8]) -> bool| {
            let runs = block.chunks(64).enumerate();
            runs.filter(|(_, line)| test(line))
                .fold(0, |bits, (r, _)| bits | 1 << r)
        };
        let changeable = bits(&|line| line_mask(line, Changeable(UNDECIDED)) != 0);
        let undecided = bits(&|line| line_mask(line, Equal(UNDECIDED)) != 0);
        self.changeable.store(changeable, Ordering::Relaxed);
        self.undecided.store(undecided, Ordering::Relaxed);
    }

    /// Clears the bits of run `r` that its bytes `line` no longer need, the
    /// wins now written being of byte `win` (see [`Changeable`]).
    pub(crate) fn update(&self, r: usize, line: &[u8], win: u8) {
        let bit = 1u64 << r;
        if line_mask(line, Changeable(win)) == 0 {
            self.changeable.fetch_and(!bit, Ordering::Relaxed);
        }
        if line_mask(line, Equal(UNDECIDED)) == 0 {
            self.undecided.fetch_and(!bit, Ordering::Relaxed);
        }
    }

    pub(crate) fn changeable(&self) -> u64 {
        self.changeable.load(Ordering::Relaxed)
    }

    pub(crate) fn undecided(&self) -> u64 {
        self.undecided.load(Ordering::Relaxed)
    }
}

/// Bit r for each run r of a block of `len` numbers.
pub(crate) fn all_runs(len: usize) -> u64 {
    const _: () = assert!(BLOCK == 64 * 64, "a block's runs fit a word");
    u64::MAX >> (64 - len.div_ceil(64))
}

/// How many positions hold each byte value, or were written with it.
#[derive(Clone)]
pub(crate) struct Tally([u64; 256]);

impl Default for Tally {
    fn default() -> Tally {
        Tally([0; 256])
    }
}

impl Tally {
    #[inline(always)]
    pub(crate) fn add(&mut self, byte: u8) {
        self.add_many(byte, 1);
    }

    #[inline(always)]
    pub(crate) fn add_many(&mut self, byte: u8, count: u64) {
        self.0[usize::from(byte)] += count;
    }

    pub(crate) fn of(&self, byte: u8) -> u64 {
        self.0[usize::from(byte)]
    }

    /// The decisive positions: a byte of plies, or deep.
    pub(crate) fn decisive(&self) -> u64 {
        let plies = usize::from(encode_plies(0))..=usize::from(encode_plies(MAX_PLIES));
        self.0[plies].iter().sum::<u64>() + self.of(DEEP)
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        for (count, more) in self.0.iter_mut().zip(other.0) {
            *count += more;
        }
    }
}

/// Which positions step 3 verifies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verified {
    /// Those step 2 marked as candidates.
    Marked,
    /// Every undecided position of the open runs: step 2 was skipped.
    Undecided,
}

/// The bytes of one side to move as atomics, for writes from many threads
/// to scattered numbers.
pub(crate) fn atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the size and alignment of u8, and the exclusive
    // borrow guarantees that no plain access overlaps the atomic ones.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// Bytes of a zeroed table side, on huge pages where the system allows:
/// retractions jump all over a table of a hundred megabytes, and with 4 KiB
/// pages most of those jumps miss the TLB. The zeroed allocation comes
/// untouched from the system, so its pages are faulted in and cleared by
/// the first pass on every core rather than here on one (0.45 s of one
/// core for KQRvKR, in its profile).
pub(crate) fn zeroed(len: usize) -> Vec<u8> {
    const _: () = assert!(UNDECIDED == 0);
    let mut bytes = vec![UNDECIDED; len];
    #[cfg(target_os = "linux")]
    {
        let start = bytes.as_mut_ptr() as usize;
        let page = 4096;
        let aligned = start.next_multiple_of(page);
        if len > 2 * page {
            // SAFETY: advice on pages inside this vector's own allocation;
            // it changes no contents.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    (start + len - aligned) / page * page,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    bytes
}

/// Asks for the cache line of `byte` ahead of its use.
#[inline(always)]
pub(crate) fn prefetch(byte: &AtomicU8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(byte.as_ptr() as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = byte;
}

/// A test of one byte, made on 16 bytes at once where SSE2 is there (every
/// x86_64 has it): the compiler makes slow vector loops of the scalar ones.
pub(crate) trait ByteTest: Copy {
    fn test(self, b: u8) -> bool;

    /// Each byte of `v` all ones where the test holds, else zero.
    #[cfg(target_arch = "x86_64")]
    fn test16(self, v: std::arch::x86_64::__m128i) -> std::arch::x86_64::__m128i;
}

/// Bytes equal to one value.
#[derive(Copy, Clone)]
pub(crate) struct Equal(pub(crate) u8);

impl ByteTest for Equal {
    #[inline(always)]
    fn test(self, b: u8) -> bool {
        b == self.0
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn test16(self, v: std::arch::x86_64::__m128i) -> std::arch::x86_64::__m128i {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_set1_epi8};
        // SAFETY: SSE2 is part of x86_64.
        unsafe { _mm_cmpeq_epi8(v, _mm_set1_epi8(self.0 as i8)) }
    }
}

/// Bytes of the opponent's positions that do not refute a move in step 3
/// at a ply within the overflow's limit: not illegal, and not won by the
/// opponent within the byte `.0` (even: wins have odd plies).
#[derive(Copy, Clone)]
pub(crate) struct Unrefuting(pub(crate) u8);

impl ByteTest for Unrefuting {
    #[inline(always)]
    fn test(self, b: u8) -> bool {
        !(b == ILLEGAL || (b != UNDECIDED && b.is_multiple_of(2) && b <= self.0))
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn test16(self, b: std::arch::x86_64::__m128i) -> std::arch::x86_64::__m128i {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_max_epu8, _mm_or_si128,
            _mm_set1_epi8, _mm_setzero_si128,
        };
        // SAFETY: SSE2 is part of x86_64.
        unsafe {
            let zero = _mm_setzero_si128();
            let won_by = _mm_set1_epi8(self.0 as i8);
            let even = _mm_cmpeq_epi8(_mm_and_si128(b, _mm_set1_epi8(1)), zero);
            let within = _mm_cmpeq_epi8(_mm_max_epu8(b, won_by), won_by);
            let won = _mm_andnot_si128(_mm_cmpeq_epi8(b, zero), _mm_and_si128(even, within));
            let refuted = _mm_or_si128(won, _mm_cmpeq_epi8(b, _mm_set1_epi8(ILLEGAL as i8)));
            _mm_andnot_si128(refuted, _mm_set1_epi8(-1))
        }
    }
}

/// Bytes a later step may still change, with the wins now written of
/// byte `.0`: undecided, safe, or a slower win (a capture's) that a quiet
/// move may improve. Deep bytes are left to the steps by retraction.
#[derive(Copy, Clone)]
pub(crate) struct Changeable(pub(crate) u8);

impl ByteTest for Changeable {
    #[inline(always)]
    fn test(self, b: u8) -> bool {
        b == UNDECIDED || b == SAFE || (b.is_multiple_of(2) && b > self.0 && b < DEEP)
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn test16(self, b: std::arch::x86_64::__m128i) -> std::arch::x86_64::__m128i {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_max_epu8, _mm_min_epu8,
            _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128,
        };
        // SAFETY: SSE2 is part of x86_64.
        unsafe {
            let even = _mm_cmpeq_epi8(_mm_and_si128(b, _mm_set1_epi8(1)), _mm_setzero_si128());
            let at_most_win = _mm_set1_epi8(self.0 as i8);
            let not_slower = _mm_cmpeq_epi8(_mm_max_epu8(b, at_most_win), at_most_win);
            let below_deep = _mm_set1_epi8((DEEP - 1) as i8);
            let below_deep = _mm_cmpeq_epi8(_mm_min_epu8(b, below_deep), b);
            let slower = _mm_andnot_si128(not_slower, _mm_and_si128(even, below_deep));
            let open = _mm_or_si128(
                _mm_cmpeq_epi8(b, _mm_setzero_si128()),
                _mm_cmpeq_epi8(b, _mm_set1_epi8(SAFE as i8)),
            );
            _mm_or_si128(open, slower)
        }
    }
}

/// One bit for every byte of `chunk` (at most 64 bytes) that passes `t`.
#[inline(always)]
pub(crate) fn line_mask(chunk: &[u8], t: impl ByteTest) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Ok(chunk) = <&[u8; 64]>::try_from(chunk) {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_movemask_epi8};
        // SAFETY: four unaligned loads of 16 bytes inside a 64-byte array.
        return unsafe {
            let ptr = chunk.as_ptr() as *const __m128i;
            (0..4).fold(0u64, |mask, q| {
                let passed = _mm_movemask_epi8(t.test16(_mm_loadu_si128(ptr.add(q))));
                mask | u64::from(passed as u16) << (16 * q)
            })
        };
    }
    chunk
        .iter()
        .enumerate()
        .fold(0u64, |mask, (i, &b)| mask | u64::from(t.test(b)) << i)
}
