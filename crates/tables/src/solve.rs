//! The table engine: one byte a position for each side to move, and no
//! per-position counters (see docs/tables.md, "How a table is built").
//!
//! Ply by ply, for every side to move:
//! 1. the positions lost in n plies are retracted: each parent not yet won
//!    faster is won in n + 1;
//! 2. the positions won in n + 1 are retracted: each undecided parent is
//!    marked a candidate;
//! 3. each candidate is verified by its moves: when every quiet move leads
//!    to a position the opponent wins in at most n + 1 plies, it is lost in
//!    n + 2 (or later, if a capture loses more slowly); else it goes back to
//!    undecided.
//!
//! The engine knows a table through its [`Layout`]: the numbering, the
//! moves inside the table and their retractions, and the values of the
//! moves that leave it (captures, and with pawns promotions). [`Pieces`] is
//! the layout of pawnless material; a slice of a table with pawns
//! (`crate::slice`) is that layout with the pawns standing still, their
//! steps leaving the slice as captures leave a table.
//!
//! The table is cut into blocks of [`BLOCK`] numbers. Each block remembers
//! which byte values were ever written into it, so a step visits only the
//! blocks that hold the value it looks for, and scans them 64 bytes at a
//! time. The blocks are shared among the cores by rayon. Each step works a
//! *run* of 64 numbers at a time (those that differ in the last man's
//! square): the first pass looks at a run together, both sides to move
//! at once ([`Layout::looks`]), steps 1 and 2 retract a run's positions
//! together ([`Pieces::run_retractions`]), step 3 settles a run's
//! candidates by one line of the opponent's bytes a move
//! ([`Pieces::moving_into`]).

use std::{
    collections::HashMap,
    ops::ControlFlow,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering},
    },
};

use rayon::prelude::*;
use shakmaty::{Bitboard, ByColor, Color, Square};

use crate::{
    error::TableError,
    format::{self, FileWriter},
    index::{Indexer, LineMap, Squares},
    journal::Journal,
    material::Material,
    overflow::Overflow,
    rules::{Look, Move, Rules, RunLooks},
    slice::{self, PawnSquares, SliceIndexer},
    summary::{SideSummary, TableCounter},
    table::{Numbering, Table},
    value::{DEEP, HARD_MAX_PLIES, ILLEGAL, MAX_PLIES, UNDECIDED, Value, encode_plies},
    variant::Variant,
};

/// Where a build stands, for a progress display.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The first pass: table numbers (both sides to move) examined so far,
    /// of `total`.
    FirstPass { examined: u64, total: u64 },
    /// Rank (ply) `rank` is done; `decided` positions (both sides to move)
    /// have been settled so far. How many ranks there will be
    /// is known only at the end.
    Rank { rank: u16, decided: u64 },
    /// A table with pawns: the slice of `pawns` is built, `done` of
    /// `total` slices; `kept` when it was read back from the slices an
    /// earlier, stopped build kept (docs/tables.md, "Resuming").
    Slice {
        done: u64,
        total: u64,
        pawns: PawnSquares,
        kept: bool,
    },
}

/// The tables a capture leads into.
pub type Subtables = HashMap<Material, Arc<Table>>;

/// Numbers per block: the numbers that differ in the last two men only.
const BLOCK: usize = 1 << 12;

/// How many retracted positions one run looked at by its moves is worth
/// (see [`Engine::wins_by_moves_pay`]): measured on KQRvKR.
const RUN_PER_RETRACTED: u64 = 4;
/// The same for step 2's marks against step 3 on every undecided position.
const RUN_PER_MARKED: u64 = 1;

/// During a build: an undecided position marked for verification.
const CANDIDATE: u8 = 254;
/// During a build: an undecided position that cannot be lost, because a
/// capture draws. At the end it is a draw like every undecided position.
const SAFE: u8 = 253;
const _: () = assert!(DEEP < SAFE);

/// Which byte values were ever written into a block: one bit per value.
#[derive(Default)]
struct Written([AtomicU64; 4]);

impl Written {
    #[inline]
    fn has(&self, byte: u8) -> bool {
        self.0[usize::from(byte >> 6)].load(Ordering::Relaxed) & (1 << (byte & 63)) != 0
    }

    #[inline]
    fn add(&self, byte: u8) {
        let word = &self.0[usize::from(byte >> 6)];
        let bit = 1 << (byte & 63);
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
    }

    fn remove(&self, byte: u8) {
        self.0[usize::from(byte >> 6)].fetch_and(!(1 << (byte & 63)), Ordering::Relaxed);
    }
}

/// The runs of a block that the steps by moves visit, a bit a run (bit r
/// for run r). A bit may be set for a run that no longer needs it, never
/// the other way round: the first pass sets the bits, and a step that
/// reads a run's bytes clears those it finds no longer needed.
#[derive(Default)]
struct OpenRuns {
    /// The run may hold a byte a later step can change ([`Changeable`]).
    changeable: AtomicU64,
    /// The run may hold an undecided byte, or a candidate.
    undecided: AtomicU64,
}

impl OpenRuns {
    /// The bits of the runs of `block` (at most 64 runs), after the first
    /// pass.
    fn set(&self, block: &[u8]) {
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
    fn update(&self, r: usize, line: &[u8], win: u8) {
        let bit = 1u64 << r;
        if line_mask(line, Changeable(win)) == 0 {
            self.changeable.fetch_and(!bit, Ordering::Relaxed);
        }
        if line_mask(line, Equal(UNDECIDED)) == 0 {
            self.undecided.fetch_and(!bit, Ordering::Relaxed);
        }
    }

    fn changeable(&self) -> u64 {
        self.changeable.load(Ordering::Relaxed)
    }

    fn undecided(&self) -> u64 {
        self.undecided.load(Ordering::Relaxed)
    }
}

/// Bit r for each run r of a block of `len` numbers.
fn all_runs(len: usize) -> u64 {
    const _: () = assert!(BLOCK == 64 * 64, "a block's runs fit a word");
    u64::MAX >> (64 - len.div_ceil(64))
}

/// How many positions hold each byte value, or were written with it.
#[derive(Clone)]
struct Tally([u64; 256]);

impl Default for Tally {
    fn default() -> Tally {
        Tally([0; 256])
    }
}

impl Tally {
    #[inline(always)]
    fn add(&mut self, byte: u8) {
        self.add_many(byte, 1);
    }

    #[inline(always)]
    fn add_many(&mut self, byte: u8, count: u64) {
        self.0[usize::from(byte)] += count;
    }

    fn of(&self, byte: u8) -> u64 {
        self.0[usize::from(byte)]
    }

    /// The decisive positions: a byte of plies, or deep.
    fn decisive(&self) -> u64 {
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
enum Verified {
    /// Those step 2 marked as candidates.
    Marked,
    /// Every undecided position of the open runs: step 2 was skipped.
    Undecided,
}

/// What the moves of a position that leave the table (captures,
/// promotions) lead to, seen by the side that plays them.
#[derive(Default)]
pub(crate) struct Exits {
    /// Plies of the fastest win by such a move.
    win: Option<u16>,
    /// Plies of the slowest loss by such a move.
    loss: u16,
    /// Some such move leads to a draw.
    draw: bool,
    /// There is such a move at all.
    any: bool,
}

impl Exits {
    /// The value, for the opponent, of the best of the moves taken in:
    /// taking in that move alone leaves the same verdict.
    pub(crate) fn best(&self) -> Option<Value> {
        match (self.win, self.draw, self.any) {
            (Some(win), _, _) => Some(Value::Loss(win - 1)),
            (None, true, _) => Some(Value::Draw),
            (None, false, true) => Some(Value::Win(self.loss - 1)),
            (None, false, false) => None,
        }
    }

    /// The best capture of a position valued before the first pass
    /// ([`CaptureByte`]), taken in as a move.
    pub(crate) fn of_captures(byte: u8) -> Exits {
        let mut exits = Exits::default();
        if let Some(child) = CaptureByte::child(byte) {
            exits.add(child);
        }
        exits
    }

    /// Takes in a move whose position has `child` for the opponent.
    pub(crate) fn add(&mut self, child: Value) {
        self.any = true;
        match child {
            Value::Loss(p) => self.win = Some(self.win.map_or(p + 1, |w| w.min(p + 1))),
            Value::Win(p) => self.loss = self.loss.max(p + 1),
            Value::Draw => self.draw = true,
        }
    }
}

/// How [`Layout::exits`] values a position's captures (in a slice, and
/// the pawn steps the layout values with them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Captures {
    /// The side to move threatens none.
    None,
    /// Each is looked at, move by move.
    ByMoves,
    /// Valued before the first pass ([`Layout::value_captures`]): the
    /// position's [`CaptureByte`].
    Valued(u8),
}

/// The best capture of a position, valued before the first pass into the
/// position's own byte ([`Layout::value_captures`]): the value of the
/// position it leads to, for the opponent, as plies + 1 (the parity tells
/// a win from a loss), [`CaptureByte::DRAW`], [`CaptureByte::NONE`], or
/// [`CaptureByte::BY_MOVES`] for a value no byte holds.
pub(crate) struct CaptureByte;

impl CaptureByte {
    pub(crate) const NONE: u8 = 0;
    const DRAW: u8 = 254;
    pub(crate) const BY_MOVES: u8 = 255;

    /// The byte of a capture whose position has `child` for the opponent.
    pub(crate) fn of(child: Value) -> u8 {
        match child {
            Value::Draw => CaptureByte::DRAW,
            Value::Win(plies) | Value::Loss(plies) if plies + 1 < u16::from(CaptureByte::DRAW) => {
                (plies + 1) as u8
            }
            _ => CaptureByte::BY_MOVES,
        }
    }

    fn child(byte: u8) -> Option<Value> {
        match byte {
            CaptureByte::NONE => None,
            CaptureByte::DRAW => Some(Value::Draw),
            _ => {
                debug_assert_ne!(byte, CaptureByte::BY_MOVES);
                Some(Value::decisive(u16::from(byte - 1)))
            }
        }
    }

    /// The better of two captures for the side that plays them.
    pub(crate) fn better(a: u8, b: u8) -> u8 {
        // Most positions have no capture: nothing to decode.
        if a == CaptureByte::NONE {
            return b;
        }
        if a == CaptureByte::BY_MOVES || b == CaptureByte::BY_MOVES {
            return CaptureByte::BY_MOVES;
        }
        let key = |byte| CaptureByte::child(byte).map(|child| child.parent().order_key());
        match (key(a), key(b)) {
            (Some(ka), Some(kb)) if kb < ka => b,
            (Some(_), _) => a,
            (None, _) => b,
        }
    }
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
fn prefetch(byte: &AtomicU8) {
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
struct Equal(u8);

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
struct Unrefuting(u8);

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
struct Changeable(u8);

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
fn line_mask(chunk: &[u8], t: impl ByteTest) -> u64 {
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

/// What the engine needs to know of a table: its kings and pieces (the
/// numbering, the moves inside the table and their retractions, a slice's
/// pawns standing still), and the moves that leave it.
pub(crate) trait Layout: Sync {
    /// The numbering and the moves of the kings and pieces.
    fn pieces(&self) -> &Pieces<'_>;

    /// Whether `turn` may have a move that leaves the table other than a
    /// capture (in a pawn slice, a pawn's step).
    fn may_step(&self, squares: &Squares, turn: Color) -> bool;

    /// The values of the legal moves of `turn` that leave the table from
    /// number `index`, placement `squares`, its captures valued as
    /// `captures` says.
    fn exits(&self, index: usize, squares: &Squares, turn: Color, captures: Captures) -> Exits;

    /// Values the captures of every number of both sides into `bytes`
    /// ([`CaptureByte`]) before the first pass, backwards from the
    /// positions they lead to (a slice: and the pawns' single steps);
    /// false when the layout values them move by move instead, and
    /// leaves `bytes` as they are.
    fn value_captures(&self, _bytes: ByColor<&mut [u8]>) -> bool {
        false
    }

    /// Numbers for one side to move.
    #[inline(always)]
    fn size(&self) -> usize {
        self.pieces().indexer.size()
    }

    /// Of a whole run's legal positions of `turn` to move out of check
    /// (`looks`), those whose moves out of the table are all in their
    /// [`CaptureByte`] (valued before the pass), or which have none; bit s
    /// for the last man on s. The first pass settles them from that byte
    /// and their moves inside.
    fn settled_by_byte(&self, run: &Run, turn: Color, looks: &RunLooks) -> u64;
}

/// How [`Pieces::looks`] gives the numbers it looks at.
pub(crate) enum Looked<'r> {
    /// A whole run of 64, and both sides' looks at it as masks.
    Run(&'r Run, ByColor<RunLooks>),
    /// One number: its placement and its looks, `None` for a number that
    /// stands for no placement of its own.
    One(Option<(&'r Squares, ByColor<Look>)>),
}

/// A run of [`Pieces`]: 64 numbers that differ only in the last man's
/// square, decoded once.
pub(crate) struct Run {
    start: usize,
    /// The placement, the last man on a1.
    pub(crate) squares: Squares,
    pub(crate) last: usize,
    /// The squares of the other men.
    pub(crate) others: Bitboard,
    /// [`Indexer::first_digit_man`] of the run.
    first_digit_man: usize,
    /// Where the run's own placements have their numbers (see
    /// [`Indexer::decode_run`]).
    own: LineMap,
}

impl Run {
    /// The number of the run's placement with the last man on `s`.
    fn number(&self, s: Square) -> usize {
        self.start + usize::from(self.own.square(s))
    }

    pub(crate) fn with_last_on(&self, s: Square) -> Squares {
        let mut placement = self.squares;
        placement[self.last] = s;
        placement
    }
}

/// The layout of pawnless material: the king-pair index, the pieces' moves,
/// and captures into smaller tables.
pub(crate) struct Pieces<'a> {
    indexer: Indexer,
    rules: Rules,
    /// The table a capture of each man leads into (orthodox chess only).
    capture_tables: Vec<Option<&'a Table>>,
}

impl<'a> Pieces<'a> {
    pub(crate) fn new(
        indexer: Indexer,
        rules: Rules,
        capture_tables: Vec<Option<&'a Table>>,
    ) -> Pieces<'a> {
        Pieces {
            indexer,
            rules,
            capture_tables,
        }
    }

    pub(crate) fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The run from `start`, `None` when its numbers are worked one at a
    /// time (two kings alone: the last digit is a king's) or it has no
    /// canonical number.
    fn run(&self, start: usize) -> Option<Run> {
        let last = self.indexer.men() - 1;
        if last < 2 {
            return None;
        }
        let (squares, own) = self.indexer.decode_run(start)?;
        Some(Run {
            own,
            start,
            squares,
            last,
            // The men that stand still (a slice's pawns) come after the last.
            others: (0..self.rules.men())
                .filter(|&i| i != last)
                .fold(Bitboard::EMPTY, |bb, i| bb | squares[i]),
            first_digit_man: self.indexer.first_digit_man(start),
        })
    }

    /// The first number of the run reached when `man` (not the last)
    /// moves to `to`, and where each placement's child is in it (see
    /// [`Indexer::moved_run`]).
    fn moved_line(&self, run: &Run, man: usize, to: Square) -> Option<(usize, LineMap)> {
        self.indexer
            .moved_run(run.start, run.first_digit_man, &run.squares, man, to)
    }

    /// The number reached when `man` moves to `to` in the run's placement
    /// with the last man on `s`, one number at a time.
    fn moved_in_run(&self, run: &Run, s: Square, man: usize, to: Square) -> Option<usize> {
        self.indexer.moved(
            run.number(s),
            run.first_digit_man,
            &run.with_last_on(s),
            man,
            to,
        )
    }

    fn value_of_capture(&self, squares: &Squares, mv: Move, turn: Color) -> Value {
        let captured = mv.captured.expect("a capture");
        let Some(table) = self.capture_tables[captured] else {
            // The fixed-king game: black took a white man, the attempt failed.
            return Value::Draw;
        };
        let after = self.rules.after_capture(squares, mv, captured);
        table
            .value_of(&after, !turn)
            .expect("a legal move leads to a legal position")
    }

    /// The placement of a number, `None` for a number that stands for no
    /// placement of its own.
    #[inline(always)]
    fn decode(&self, index: usize) -> Option<Squares> {
        self.indexer.decode(index)
    }

    /// The moves of a whole run at once: of `positions` among the 64
    /// numbers from `run` (a multiple of 64; bit i for number run + i),
    /// `turn` to move, those with a move inside the table to an opponent's
    /// position (of `opponent`, the other side's bytes) whose byte passes
    /// `test`; `None` when the run is not worked this way (then each
    /// position's moves are walked).
    ///
    /// The run's moves are walked once for all its positions: a move of
    /// the last man reaches the opponent's positions of the run's own line,
    /// and a move of another man (a king's too) reaches the line of another
    /// run; in either, the child of the position with the last man on s is
    /// bit `square(s)` of the [`LineMap`] (s itself, unless a king move
    /// turns the board or both kings stand on the diagonal). A move counts
    /// for a position when it is open to it (not blocked by its last man).
    /// A king move that brings both kings onto the diagonal is looked at
    /// for each position not yet found.
    fn moving_into(
        &self,
        run: usize,
        turn: Color,
        positions: u64,
        opponent: &[u8],
        test: impl ByteTest,
    ) -> Option<u64> {
        let run = self.run(run)?;
        let line = |start: usize| line_mask(&opponent[start..start + 64], test);
        let mut pending = Bitboard(positions);
        for &man in self.rules.steppers(turn) {
            if pending.is_empty() {
                break;
            }
            if man == run.last {
                let into = run.own.pull(Bitboard(line(run.start)));
                for s in pending {
                    let occupied = run.others | s;
                    if self
                        .rules
                        .attacks(man, s, occupied)
                        .intersects(into & !occupied)
                    {
                        pending.discard(s);
                    }
                }
                continue;
            }
            let from = run.squares[man];
            for to in self.rules.attacks(man, from, run.others) & !run.others {
                // The last man on the way or on the square blocks the move.
                let blocked = self.rules.path(man, from, to);
                match self.moved_line(&run, man, to) {
                    Some((child, map)) => {
                        let into = map.pull(Bitboard(line(child)));
                        pending &= !(into & !blocked);
                    }
                    None => {
                        for s in pending & !blocked {
                            let child = self.moved_in_run(&run, s, man, to);
                            if child.is_some_and(|child| test.test(opponent[child])) {
                                pending.discard(s);
                            }
                        }
                    }
                }
                if pending.is_empty() {
                    break;
                }
            }
        }
        Some(positions & !pending.0)
    }

    /// Whether [`Pieces::moving_into`] answers for all but a few runs:
    /// when the last man is not a king.
    fn works_by_runs(&self) -> bool {
        self.indexer.men() >= 3
    }

    /// Whether `turn` has a legal move inside the table.
    #[inline(always)]
    fn has_inside_move(&self, squares: &Squares, turn: Color) -> bool {
        self.rules.has_quiet_move(squares, turn)
    }

    /// Calls `f(parent)` for the number of every placement (legal or not)
    /// from which `!turn` reaches number `index` (placement `squares`,
    /// `turn` to move) by a move inside the table.
    #[inline(always)]
    fn retractions(&self, index: usize, squares: &Squares, turn: Color, mut f: impl FnMut(usize)) {
        let first_digit_man = self.indexer.first_digit_man(index);
        self.rules.quiet_while(squares, !turn, |man, from| {
            let parent = self
                .indexer
                .moved(index, first_digit_man, squares, man, from);
            if let Some(parent) = parent {
                f(parent);
            }
            true
        });
    }

    /// [`Pieces::retractions`] of the numbers `run + i` for each bit i of
    /// `positions` (`run` a multiple of 64), in any order.
    ///
    /// The run is decoded once and each man's retractions generated once
    /// for all its positions, as in [`Pieces::moving_into`]: a
    /// retraction of a man other than the last gives the parents of all
    /// the positions it is open to at once, in one line of the other side
    /// (through the [`LineMap`] of the move).
    fn run_retractions(&self, start: usize, positions: u64, turn: Color, mut f: impl FnMut(usize)) {
        let Some(run) = self.run(start) else {
            return self.retractions_each(start, positions, turn, f);
        };
        let positions = Bitboard(positions);
        for &man in self.rules.steppers(!turn) {
            if man == run.last {
                for s in positions {
                    let occupied = run.others | s;
                    for from in self.rules.attacks(man, s, occupied) & !occupied {
                        f(run.number(from));
                    }
                }
                continue;
            }
            let to = run.squares[man];
            for from in self.rules.attacks(man, to, run.others) & !run.others {
                let blocked = self.rules.path(man, to, from);
                let open = positions & !blocked;
                match self.moved_line(&run, man, from) {
                    Some((parents, map)) => {
                        for s in open {
                            f(parents + usize::from(map.square(s)));
                        }
                    }
                    None => {
                        for s in open {
                            let parent = self.moved_in_run(&run, s, man, from);
                            if let Some(parent) = parent {
                                f(parent);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Calls `f(child)` for the moves of `turn` inside the table, legal or
    /// not (`child` is `None`, or a number whose byte is illegal, when the
    /// move leaves `turn`'s king in check), until it returns false; returns
    /// false if it was stopped.
    #[inline(always)]
    fn inside_moves_while(
        &self,
        index: usize,
        squares: &Squares,
        turn: Color,
        mut f: impl FnMut(Option<usize>) -> bool,
    ) -> bool {
        let first_digit_man = self.indexer.first_digit_man(index);
        self.rules.quiet_while(squares, turn, |man, to| {
            f(self.indexer.moved(index, first_digit_man, squares, man, to))
        })
    }

    /// Calls `f(offset, looked)` for the numbers `start..start + len` in
    /// order (`start` a multiple of 64): a whole run at once, its looks
    /// as masks ([`Rules::run_looks`]), where it can, one number at a time
    /// where the run is folded (see [`Indexer::decode_run`]: only half its
    /// numbers are canonical), cut short, or has no run (two kings alone).
    pub(crate) fn looks(&self, start: usize, len: usize, mut f: impl FnMut(usize, Looked<'_>)) {
        for run in (0..len).step_by(64) {
            match self.run(start + run) {
                Some(whole) if len - run >= 64 && whole.own == LineMap::SAME => {
                    let looks = self.rules.run_looks(&whole.squares);
                    f(run, Looked::Run(&whole, looks));
                }
                _ => {
                    for i in run..len.min(run + 64) {
                        match self.decode(start + i) {
                            Some(squares) => {
                                let looks =
                                    ByColor::new_with(|turn| self.rules.look(&squares, turn));
                                f(i, Looked::One(Some((&squares, looks))))
                            }
                            None => f(i, Looked::One(None)),
                        }
                    }
                }
            }
        }
    }

    /// [`Pieces::run_retractions`] one number at a time.
    fn retractions_each(&self, run: usize, positions: u64, turn: Color, mut f: impl FnMut(usize)) {
        for i in Bitboard(positions) {
            let index = run + usize::from(i);
            let squares = self.decode(index).expect("a legal number");
            self.retractions(index, &squares, turn, &mut f);
        }
    }
}

impl Layout for Pieces<'_> {
    #[inline(always)]
    fn pieces(&self) -> &Pieces<'_> {
        self
    }

    /// Pawnless material has no steps out.
    #[inline(always)]
    fn may_step(&self, _: &Squares, _: Color) -> bool {
        false
    }

    fn exits(&self, _: usize, squares: &Squares, turn: Color, captures: Captures) -> Exits {
        let mut found = Exits::default();
        if captures == Captures::None {
            return found;
        }
        let targets = self.rules.capturable(squares, !turn);
        self.rules.moves_while(squares, turn, targets, |mv| {
            found.add(self.value_of_capture(squares, mv, turn));
            true
        });
        found
    }

    /// Captures are valued move by move: the positions that threaten none.
    #[inline(always)]
    fn settled_by_byte(&self, _: &Run, _: Color, looks: &RunLooks) -> u64 {
        !looks.threatens_capture
    }
}

/// The state of one build.
struct Engine<L> {
    layout: L,
    written: ByColor<Vec<Written>>,
    /// By side to move, the runs of each block the steps by moves visit.
    open: ByColor<Vec<OpenRuns>>,
    /// The largest plies of any decisive value written so far.
    deepest: AtomicUsize,
    /// The deepest plies stored in a byte: a deeper decisive position's
    /// byte is [`DEEP`] and its plies are in `deep`.
    limit: u16,
    /// How each step chooses its way.
    ways: Ways,
    /// The plies of the positions whose byte is [`DEEP`], by side to move
    /// (an entry whose byte is no longer DEEP is stale and ignored).
    deep: ByColor<Mutex<HashMap<usize, u16>>>,
}

/// A mate deeper than the overflow list holds ([`HARD_MAX_PLIES`]): the
/// build cannot go on ([`TableError::TooDeep`]).
#[derive(Debug)]
struct PastBound;

impl<L: Layout> Engine<L> {
    /// Notes how deep the table goes; an error past the overflow's bound.
    fn note_depth(&self, plies: u16) -> Result<(), PastBound> {
        if plies > HARD_MAX_PLIES {
            return Err(PastBound);
        }
        // A read first: a write to the shared counter for every decided
        // position would bounce its cache line between the cores.
        if usize::from(plies) > self.deepest.load(Ordering::Relaxed) {
            self.deepest
                .fetch_max(usize::from(plies), Ordering::Relaxed);
        }
        Ok(())
    }

    /// How many runs of `turn` a bit of `bits` is set for.
    fn open_runs(&self, turn: Color, bits: impl Fn(&OpenRuns) -> u64) -> u64 {
        let blocks = self.open[turn].iter();
        blocks.map(|runs| u64::from(bits(runs).count_ones())).sum()
    }

    /// Whether step 1 for the losses of `turn` in `plies` looks at the
    /// moves of the open runs ([`Engine::wins_by_moves`]) rather than
    /// retracting each loss: when retracting would visit more.
    fn wins_by_moves_pay(&self, turn: Color, plies: u16, counts: &ByColor<Tally>) -> bool {
        let possible = self.ways != Ways::Retracting
            && self.layout.pieces().works_by_runs()
            && plies < self.limit
            && self.deep[!turn].lock().expect("no poisoning").is_empty();
        possible
            && (self.ways == Ways::ByMoves
                || self.open_runs(!turn, OpenRuns::changeable) * RUN_PER_RETRACTED
                    < counts[turn].of(encode_plies(plies)))
    }

    /// Whether step 3 for `turn` at `plies` verifies every undecided
    /// position of the open runs rather than the candidates that step 2
    /// would mark from the opponent's wins in `plies`: when marking would
    /// visit more.
    fn verify_undecided_pays(&self, turn: Color, plies: u16, counts: &ByColor<Tally>) -> bool {
        let possible = self.ways != Ways::Retracting
            && self.layout.pieces().works_by_runs()
            && plies <= self.limit;
        possible
            && (self.ways == Ways::ByMoves
                || self.open_runs(turn, OpenRuns::undecided) * RUN_PER_MARKED
                    < counts[!turn].of(encode_plies(plies)))
    }

    /// The byte of a decisive value of number `index` with `turn` to move:
    /// past the limit, [`DEEP`] and the plies go into the overflow map.
    fn decisive(&self, turn: Color, index: usize, plies: u16) -> Result<u8, PastBound> {
        self.note_depth(plies)?;
        if plies > self.limit {
            return Ok(self.deep_byte(turn, index, plies));
        }
        Ok(encode_plies(plies))
    }

    /// Notes the plies of a value past the limit in the overflow map;
    /// kept out of the hot loops.
    #[cold]
    #[inline(never)]
    fn deep_byte(&self, turn: Color, index: usize, plies: u16) -> u8 {
        self.deep[turn]
            .lock()
            .expect("no poisoning")
            .insert(index, plies);
        DEEP
    }

    /// The plies of a number whose byte is [`DEEP`].
    fn deep_plies(&self, turn: Color, index: usize) -> u16 {
        self.deep[turn].lock().expect("no poisoning")[&index]
    }

    /// The first byte of a number: illegal, settled by its exits or its
    /// lack of moves, safe from loss by a drawing exit, or undecided.
    /// `valued` is its [`CaptureByte`], when the layout valued captures
    /// before.
    fn first_byte(
        &self,
        index: usize,
        placement: Option<(&Squares, Look)>,
        turn: Color,
        valued: Option<u8>,
    ) -> Result<u8, PastBound> {
        let Some((squares, look)) = placement.filter(|(_, look)| look.legal) else {
            return Ok(ILLEGAL);
        };
        // Without an exit, every move stays inside.
        let exits = if look.threatens_capture || look.may_step {
            // Valued before the pass where the layout did (a slice: its
            // pawn steps with its captures).
            let captures = valued.map_or(Captures::ByMoves, Captures::Valued);
            self.layout.exits(index, squares, turn, captures)
        } else {
            Exits::default()
        };
        self.settle(turn, index, &exits, look.in_check, || {
            look.king_steps || self.layout.pieces().has_inside_move(squares, turn)
        })
    }

    /// The first byte of a legal position from its `exits`: won by one,
    /// kept from loss by a drawing one, undecided while it has a move
    /// inside (`moves_inside`, asked only then), else lost (mated, or
    /// every move leaves and loses) or stalemate.
    #[inline(always)]
    fn settle(
        &self,
        turn: Color,
        index: usize,
        exits: &Exits,
        in_check: bool,
        moves_inside: impl FnOnce() -> bool,
    ) -> Result<u8, PastBound> {
        match exits.win {
            // A win, perhaps improved later by a move inside.
            Some(win) => self.decisive(turn, index, win),
            None if exits.draw => Ok(SAFE),
            None if moves_inside() => Ok(UNDECIDED),
            // Every move leaves the table and loses.
            None if exits.any => self.decisive(turn, index, exits.loss),
            None if in_check => self.decisive(turn, index, 0),
            // Stalemate: a draw that no step may take for a loss because
            // it has no move to refute.
            None => Ok(SAFE),
        }
    }

    /// The first bytes of a whole run of `turn` to move (`looks`, from
    /// number `start`) into `line`, which holds their [`CaptureByte`]s
    /// when `captures_valued`. A legal position out of check whose exits
    /// are all in that byte ([`Layout::settled_by_byte`]) is settled from
    /// it and the masks; the others are looked at as [`Engine::first_byte`]
    /// does.
    fn first_bytes_of_run(
        &self,
        start: usize,
        run: &Run,
        turn: Color,
        looks: &RunLooks,
        captures_valued: bool,
        line: &mut [u8],
    ) -> Result<(), PastBound> {
        let by_byte = looks.legal & !looks.in_check & self.layout.settled_by_byte(run, turn, looks);
        for (s, (slot, square)) in line.iter_mut().zip(Square::ALL).enumerate() {
            let has = |mask: u64| mask & 1 << s != 0;
            let capture = if captures_valued {
                *slot
            } else {
                CaptureByte::NONE
            };
            let index = start + s;
            *slot = if !has(looks.legal) {
                ILLEGAL
            } else if has(by_byte) && capture != CaptureByte::BY_MOVES {
                let exits = Exits::of_captures(capture);
                self.settle(turn, index, &exits, false, || {
                    has(looks.king_steps)
                        || (self.layout.pieces()).has_inside_move(&run.with_last_on(square), turn)
                })?
            } else {
                let placement = run.with_last_on(square);
                let look = Look {
                    legal: true,
                    in_check: has(looks.in_check),
                    threatens_capture: has(looks.threatens_capture),
                    king_steps: has(looks.king_steps),
                    may_step: self.layout.may_step(&placement, turn),
                };
                let valued = captures_valued.then_some(capture);
                self.first_byte(index, Some((&placement, look)), turn, valued)?
            };
        }
        Ok(())
    }

    /// Fills the bytes of both sides to move, a placement's two looked at
    /// together; returns them counted.
    fn first_pass(
        &self,
        bytes: ByColor<&mut [u8]>,
        captures_valued: bool,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<ByColor<Tally>, PastBound> {
        let ByColor { white, black } = bytes;
        white
            .par_chunks_mut(BLOCK)
            .zip(black.par_chunks_mut(BLOCK))
            .enumerate()
            // Boxed: the fold moves its tally once a block, and two
            // tallies are 4 KiB.
            .try_fold(
                Box::<ByColor<Tally>>::default,
                |mut tally, (b, (white, black))| {
                    let mut blocks = ByColor { white, black };
                    let start = b * BLOCK;
                    let mut result = Ok(());
                    let pieces = self.layout.pieces();
                    pieces.looks(start, blocks.white.len(), |offset, looked| {
                        let written = match looked {
                            Looked::Run(run, looks) => {
                                for turn in Color::ALL {
                                    let line = &mut blocks[turn][offset..offset + 64];
                                    let bytes = self.first_bytes_of_run(
                                        start + offset,
                                        run,
                                        turn,
                                        &looks[turn],
                                        captures_valued,
                                        line,
                                    );
                                    if bytes.is_err() {
                                        result = bytes;
                                    }
                                }
                                offset..offset + 64
                            }
                            Looked::One(placement) => {
                                for turn in Color::ALL {
                                    let look = placement.map(|(squares, looks)| {
                                        let mut look = looks[turn];
                                        look.may_step = self.layout.may_step(squares, turn);
                                        (squares, look)
                                    });
                                    let valued = captures_valued.then(|| blocks[turn][offset]);
                                    let byte = self.first_byte(start + offset, look, turn, valued);
                                    blocks[turn][offset] = byte.unwrap_or_else(|PastBound| {
                                        result = Err(PastBound);
                                        ILLEGAL
                                    });
                                }
                                offset..offset + 1
                            }
                        };
                        for turn in Color::ALL {
                            for &byte in &blocks[turn][written.clone()] {
                                self.written[turn][b].add(byte);
                                tally[turn].add(byte);
                            }
                        }
                    });
                    for turn in Color::ALL {
                        self.open[turn][b].set(blocks[turn]);
                    }
                    progress(2 * blocks.white.len() as u64);
                    result.map(|()| tally)
                },
            )
            .try_reduce(Box::<ByColor<Tally>>::default, |mut a, b| {
                let ByColor { white, black } = *b;
                a.white += white;
                a.black += black;
                Ok(a)
            })
            .map(|tally| *tally)
    }

    /// Calls `f(parent, slot)` for the number and byte of every position
    /// before a move of `!turn` inside the table that led to a number of
    /// `bytes` (`turn` to move) whose value is `plies` from mate, in parallel;
    /// returns how many of the calls answered true. Past the limit they are
    /// taken from the overflow map. The numbers are retracted a run of 64
    /// at a time ([`Pieces::run_retractions`]), and the bytes of a run's
    /// parents are all asked for before the first is visited: most of
    /// them are cache misses, and this way they overlap.
    fn retract(
        &self,
        turn: Color,
        bytes: &[u8],
        plies: u16,
        slots: &[AtomicU8],
        f: impl Fn(usize, &AtomicU8) -> bool + Sync,
    ) -> u64 {
        if plies > self.limit {
            let found: Vec<usize> = self.deep[turn]
                .lock()
                .expect("no poisoning")
                .iter()
                .filter(|&(&index, &p)| p == plies && bytes[index] == DEEP)
                .map(|(&index, _)| index)
                .collect();
            return found
                .par_iter()
                .map(|&index| self.parents(index, turn, slots, &f))
                .sum();
        }
        let byte = encode_plies(plies);
        bytes
            .par_chunks(BLOCK)
            .zip(&self.written[turn])
            .enumerate()
            .filter(|(_, (_, written))| written.has(byte))
            .map_init(Vec::new, |fetched, (b, (block, _))| {
                let mut answered = 0;
                for run in (0..block.len()).step_by(64) {
                    let end = block.len().min(run + 64);
                    let positions = line_mask(&block[run..end], Equal(byte));
                    if positions == 0 {
                        continue;
                    }
                    fetched.clear();
                    self.layout.pieces().run_retractions(
                        b * BLOCK + run,
                        positions,
                        turn,
                        |parent| {
                            prefetch(&slots[parent]);
                            fetched.push(parent);
                        },
                    );
                    for &parent in fetched.iter() {
                        answered += u64::from(f(parent, &slots[parent]));
                    }
                }
                answered
            })
            .sum()
    }

    /// Calls `f(parent, slot)` for the number and byte of every position
    /// before a move of `!turn` inside the table that led to number `index`
    /// with `turn` to move; returns how many of the calls answered true. The parents' bytes are fetched all at once first: most of them
    /// are cache misses, and this way they overlap.
    #[inline]
    fn parents(
        &self,
        index: usize,
        turn: Color,
        slots: &[AtomicU8],
        f: &impl Fn(usize, &AtomicU8) -> bool,
    ) -> u64 {
        let squares = self.layout.pieces().decode(index).expect("a legal number");
        let mut found = [0usize; 128];
        let mut len = 0;
        let mut answered = 0;
        self.layout
            .pieces()
            .retractions(index, &squares, turn, |parent| {
                prefetch(&slots[parent]);
                found[len] = parent;
                len += 1;
            });
        for &parent in &found[..len] {
            answered += u64::from(f(parent, &slots[parent]));
        }
        answered
    }

    /// Step 1: the parents of positions lost in `plies` are won in one
    /// more. Returns how many positions not decided before it won.
    fn wins_from(&self, turn: Color, lost: &[u8], parents: &mut [u8], plies: u16) -> u64 {
        let parents = atomic(parents);
        let written = &self.written[!turn];
        self.retract(turn, lost, plies, parents, |parent, slot| {
            let win = plies + 1;
            if win <= self.limit {
                let win = encode_plies(win);
                let old = slot.load(Ordering::Relaxed);
                // A stored win (even byte) may be a slower capture win.
                if old == UNDECIDED
                    || old == SAFE
                    || (old.is_multiple_of(2) && win < old && old < DEEP)
                {
                    slot.store(win, Ordering::Relaxed);
                    written[parent / BLOCK].add(win);
                    return old == UNDECIDED || old == SAFE;
                }
                if old != DEEP {
                    return false;
                }
            }
            self.deep_win(!turn, parent, slot, win)
        })
    }

    /// Step 1 by moves, for the ply where retracting would visit more
    /// parents than looking: every changeable position of the open runs of
    /// `!turn` with a move to a position of `turn` lost in `plies` is won in
    /// one more. Returns how many positions not decided before it won.
    /// Only within the limit, with no deep win of `!turn` to improve.
    fn wins_by_moves(&self, turn: Color, lost: &[u8], parents: &mut [u8], plies: u16) -> u64 {
        let mover = !turn;
        let loss = encode_plies(plies);
        let win = encode_plies(plies + 1);
        parents
            .par_chunks_mut(BLOCK)
            .zip(&self.written[mover])
            .zip(&self.open[mover])
            .enumerate()
            .filter(|(_, (_, open))| open.changeable() != 0)
            .map(|(b, ((block, written), open))| {
                let mut undecided_won = 0;
                for r in Bitboard(open.changeable()) {
                    let run = 64 * usize::from(r);
                    let line = &mut block[run..run + 64];
                    let changeable = line_mask(line, Changeable(win));
                    if changeable == 0 {
                        open.update(usize::from(r), line, win);
                        continue;
                    }
                    let start = b * BLOCK + run;
                    let won = self
                        .layout
                        .pieces()
                        .moving_into(start, mover, changeable, lost, Equal(loss))
                        .unwrap_or_else(|| {
                            let moving = |s: Square| {
                                let index = start + usize::from(s);
                                let squares =
                                    self.layout.pieces().decode(index).expect("a legal number");
                                !self.layout.pieces().inside_moves_while(
                                    index,
                                    &squares,
                                    mover,
                                    |child| child.is_none_or(|child| lost[child] != loss),
                                )
                            };
                            Bitboard(changeable)
                                .into_iter()
                                .filter(|&s| moving(s))
                                .fold(0, |won, i| won | 1 << usize::from(i))
                        });
                    for i in Bitboard(won) {
                        let byte = &mut line[usize::from(i)];
                        undecided_won += u64::from(*byte == UNDECIDED || *byte == SAFE);
                        *byte = win;
                    }
                    if won != 0 {
                        written.add(win);
                    }
                    open.update(usize::from(r), line, win);
                }
                undecided_won
            })
            .sum()
    }

    /// Step 1 where the overflow is involved (the new win or the stored
    /// one is past the limit): the parent `index` of `turn` is won in
    /// `win` plies unless decided otherwise already; returns whether it was
    /// not decided before.
    #[cold]
    #[inline(never)]
    fn deep_win(&self, turn: Color, index: usize, slot: &AtomicU8, win: u16) -> bool {
        let mut deep = self.deep[turn].lock().expect("no poisoning");
        let old = slot.load(Ordering::Relaxed);
        let better = match old {
            UNDECIDED | SAFE => true,
            DEEP => deep.get(&index).is_some_and(|&p| p % 2 == 1 && win < p),
            _ => false,
        };
        if !better {
            return false;
        }
        let byte = if win > self.limit {
            if self.note_depth(win).is_err() {
                // Beyond the overflow: the build fails after this step.
                self.deepest.fetch_max(usize::from(win), Ordering::Relaxed);
                return false;
            }
            deep.insert(index, win);
            DEEP
        } else {
            deep.remove(&index);
            encode_plies(win)
        };
        slot.store(byte, Ordering::Relaxed);
        self.written[turn][index / BLOCK].add(byte);
        old != DEEP
    }

    /// Step 2: the undecided parents of positions won in `plies` become
    /// candidates.
    fn candidates_from(&self, turn: Color, won: &[u8], parents: &mut [u8], plies: u16) {
        let parents = atomic(parents);
        let written = &self.written[!turn];
        self.retract(turn, won, plies, parents, |parent, slot| {
            if slot.load(Ordering::Relaxed) == UNDECIDED {
                slot.store(CANDIDATE, Ordering::Relaxed);
                written[parent / BLOCK].add(CANDIDATE);
            }
            false
        });
    }

    /// Step 3: every position of `turn` to verify (see [`Verified`])
    /// whose quiet moves all lead to positions won within `plies` by the
    /// opponent is lost. Returns the bytes written, counted.
    fn verify(
        &self,
        turn: Color,
        candidates: &mut [u8],
        children: &[u8],
        plies: u16,
        which: Verified,
    ) -> Result<Tally, PastBound> {
        // Every win in a byte is within `plies` once `plies` is past the
        // limit; deeper wins are looked up.
        let won_by = encode_plies(plies.min(self.limit));
        let deep_children = plies > self.limit;
        let wanted = match which {
            Verified::Marked => CANDIDATE,
            Verified::Undecided => UNDECIDED,
        };
        candidates
            .par_chunks_mut(BLOCK)
            .zip(&self.written[turn])
            .zip(&self.open[turn])
            .enumerate()
            .filter(|(_, ((_, written), open))| match which {
                Verified::Marked => written.has(CANDIDATE),
                Verified::Undecided => open.undecided() != 0,
            })
            // Boxed: the fold moves its tally once a block, and a tally
            // is 2 KiB.
            .try_fold(
                Box::<Tally>::default,
                |mut tally, (b, ((block, written), open))| {
                    let runs = match which {
                        Verified::Marked => {
                            written.remove(CANDIDATE);
                            all_runs(block.len())
                        }
                        Verified::Undecided => open.undecided(),
                    };
                    for r in Bitboard(runs) {
                        let run = 64 * usize::from(r);
                        let end = block.len().min(run + 64);
                        let candidates = line_mask(&block[run..end], Equal(wanted));
                        if candidates == 0 {
                            if which == Verified::Undecided {
                                open.update(usize::from(r), &block[run..end], won_by);
                            }
                            continue;
                        }
                        {
                            let start = b * BLOCK + run;
                            let unrefuted_moves = if deep_children || end - run < 64 {
                                None
                            } else {
                                let unrefuting = Unrefuting(won_by);
                                self.layout
                                    .pieces()
                                    .moving_into(start, turn, candidates, children, unrefuting)
                            };
                            let Some(unrefuted_moves) = unrefuted_moves else {
                                for i in Bitboard(candidates) {
                                    let i = run + usize::from(i);
                                    let byte = &mut block[i];
                                    self.verify_one(
                                        turn,
                                        b * BLOCK + i,
                                        byte,
                                        written,
                                        children,
                                        plies,
                                    )?;
                                    if *byte != UNDECIDED {
                                        tally.add(*byte);
                                    }
                                }
                                continue;
                            };
                            if which == Verified::Marked {
                                for i in Bitboard(unrefuted_moves) {
                                    block[run + usize::from(i)] = UNDECIDED;
                                }
                            }
                            for i in Bitboard(candidates & !unrefuted_moves) {
                                let index = start + usize::from(i);
                                let squares =
                                    self.layout.pieces().decode(index).expect("a legal number");
                                let byte = self.lost(turn, index, &squares, written, plies)?;
                                block[run + usize::from(i)] = byte;
                                tally.add(byte);
                            }
                        }
                        open.update(usize::from(r), &block[run..end], won_by);
                    }
                    Ok(tally)
                },
            )
            .try_reduce(Box::<Tally>::default, |mut a, b| {
                *a += *b;
                Ok(a)
            })
            .map(|tally| *tally)
    }

    /// The byte of a candidate found lost: in `plies` + 1, or later if a
    /// capture loses more slowly.
    fn lost(
        &self,
        turn: Color,
        index: usize,
        squares: &Squares,
        written: &Written,
        plies: u16,
    ) -> Result<u8, PastBound> {
        let threatened = self.layout.pieces().rules.threatens_capture(squares, turn);
        let loss = if threatened || self.layout.may_step(squares, turn) {
            // The byte the first pass read is overwritten by now.
            let captures = if threatened {
                Captures::ByMoves
            } else {
                Captures::None
            };
            self.layout.exits(index, squares, turn, captures).loss
        } else {
            0
        };
        let byte = self.decisive(turn, index, loss.max(plies + 1))?;
        written.add(byte);
        Ok(byte)
    }

    /// Step 3 for one candidate, number `index` whose byte is `byte`: every
    /// quiet move is looked at.
    fn verify_one(
        &self,
        turn: Color,
        index: usize,
        byte: &mut u8,
        written: &Written,
        children: &[u8],
        plies: u16,
    ) -> Result<(), PastBound> {
        let won_by = encode_plies(plies.min(self.limit));
        let deep_children = plies > self.limit;
        let squares = self.layout.pieces().decode(index).expect("a legal number");
        // A move that leaves the king in check leads to an illegal number
        // (or to none, when the kings touch).
        let lost = self
            .layout
            .pieces()
            .inside_moves_while(index, &squares, turn, |child| {
                child.is_none_or(|child| {
                    let b = children[child];
                    !Unrefuting(won_by).test(b)
                        || (deep_children && b == DEEP && {
                            let p = self.deep_plies(!turn, child);
                            p % 2 == 1 && p <= plies
                        })
                })
            });
        *byte = if lost {
            self.lost(turn, index, &squares, written, plies)?
        } else {
            UNDECIDED
        };
        Ok(())
    }
}

/// Both sides' bytes, one of them borrowed for reading and the other for
/// writing.
fn split<'a>(bytes: &'a mut ByColor<&mut [u8]>, read: Color) -> (&'a mut [u8], &'a mut [u8]) {
    let ByColor { white, black } = bytes;
    match read {
        Color::White => (white, black),
        Color::Black => (black, white),
    }
}

/// Builds the table of `material` in `variant`. `subtables` must hold the
/// table of every material a capture or a promotion leads to (none for the
/// fixed-king game, where a capture ends the game); a material with pawns
/// is held under its canonical material (see [`Material::canonical`]).
/// The build owns them: a table with pawns drops those it no longer needs
/// (the promotions', once no pawn is left on its seventh rank).
/// `progress` is told where the build stands; when it answers `Break`, the
/// build stops with [`TableError::Stopped`] (at the next rank, or at the
/// end of the first pass).
pub fn build(
    material: &Material,
    variant: Variant,
    subtables: Subtables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
) -> Result<Table, TableError> {
    build_tuned(material, variant, subtables, progress, Tuning::PRODUCTION)
}

/// The tables promotions lead into, all held in `subtables` (a build in
/// memory): each is given whole, however it may be read.
fn held_promotions(
    subtables: &Subtables,
) -> impl Fn(&Material, &[Color], slice::Reading) -> Result<slice::PromotionTable, TableError> + Sync + '_
{
    |material, _sides, _reading| {
        subtables
            .get(material)
            .cloned()
            .map(slice::PromotionTable::Held)
            .ok_or_else(|| TableError::MissingSubtable(material.clone()))
    }
}

/// The slices of a build with pawns gathered into the whole table.
struct WholeTable(ByColor<Vec<u8>>);

impl slice::SliceSink for WholeTable {
    fn put(&mut self, first: usize, bytes: ByColor<&[u8]>) -> Result<(), TableError> {
        for turn in Color::ALL {
            debug_assert_eq!(self.0[turn].len(), first);
            self.0[turn].extend_from_slice(bytes[turn]);
        }
        Ok(())
    }
}

/// The slices of a build with pawns written into the table's file, and
/// counted as they go: the file need not be read back to be summarized.
struct ToFile {
    writer: FileWriter,
    path: PathBuf,
    counter: TableCounter,
}

impl slice::SliceSink for ToFile {
    fn put(&mut self, first: usize, bytes: ByColor<&[u8]>) -> Result<(), TableError> {
        for turn in Color::ALL {
            self.counter.add(turn, first, bytes[turn]);
            self.writer
                .append(turn, bytes[turn])
                .map_err(|error| TableError::Io {
                    path: self.path.clone(),
                    error,
                })?;
        }
        Ok(())
    }
}

/// Builds the table of a material with pawns straight into its file in
/// `dir`, level by level, so that the whole table is never in memory (see
/// [`build`] for `subtables` and `progress`); returns the file's path and
/// the table's counts.
pub(crate) fn build_pawn_file(
    material: &Material,
    captures: &Subtables,
    promotion_tables: &slice::PromotionTables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    dir: &Path,
) -> Result<(PathBuf, ByColor<SideSummary>), TableError> {
    let path = dir.join(format::file_name(material, Variant::Standard));
    let io_error = |error| TableError::Io {
        path: path.clone(),
        error,
    };
    let writer = FileWriter::create(dir, material, Variant::Standard).map_err(io_error)?;
    let indexer = SliceIndexer::shared(material);
    let mut sink = ToFile {
        writer,
        path: path.clone(),
        counter: TableCounter::new(material, Numbering::Slices(Arc::clone(&indexer))),
    };
    let journal = if indexer.size() >= KEPT_FROM {
        let journal = Journal::open(dir, material, indexer.slice_len(), Tuning::PRODUCTION.limit);
        Some(journal.map_err(io_error)?)
    } else {
        None
    };
    let overflow = slice::build(
        material,
        captures,
        promotion_tables,
        progress,
        Tuning::PRODUCTION,
        journal.as_ref(),
        &mut sink,
    )?;
    let path = sink.writer.finish(&overflow).map_err(io_error)?;
    if let Some(journal) = journal {
        journal.remove().map_err(io_error)?;
    }
    Ok((path, sink.counter.finish(&overflow)))
}

/// Numbers a side from which a build with pawns keeps each slice on disk
/// as it is built, so that a stopped build resumes (six men with pawns:
/// hours; a five-man table takes minutes, and writing its slices twice
/// would cost more than it saves).
const KEPT_FROM: usize = 1 << 32;

/// How a step chooses between retracting the positions it starts from and
/// looking at the moves of the positions it may decide (see
/// docs/tables.md, "Two ways a step").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ways {
    /// The way that visits fewer positions, each ply.
    Cheaper,
    /// Always by retraction.
    Retracting,
    /// By moves wherever the layout and the overflow allow it.
    ByMoves,
}

/// What a test may change in a build.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Tuning {
    /// The deepest plies a byte may hold: deeper positions go into the
    /// overflow list. A test lowers it to try the overflow on tables that
    /// do not need it.
    pub limit: u16,
    /// A test forces each way to check it against the other.
    pub ways: Ways,
    /// Slices of a table with pawns with at least this many numbers are
    /// large ([`slice::LARGE_SLICE_FROM`]); a test lowers it to take that
    /// way on a small table.
    pub large_slices_from: usize,
    /// How many large slices of a number of numbers are built at once
    /// ([`slice::large_at_once`]); a test tries one and two.
    pub large_at_once: fn(usize) -> usize,
}

impl Tuning {
    pub const PRODUCTION: Tuning = Tuning {
        limit: MAX_PLIES,
        ways: Ways::Cheaper,
        large_slices_from: slice::LARGE_SLICE_FROM,
        large_at_once: slice::large_at_once,
    };

    /// How many large slices of `slice_len` numbers are built at once.
    pub fn large_at_once(&self, slice_len: usize) -> usize {
        (self.large_at_once)(slice_len)
    }
}

/// [`build`] with a [`Tuning`] of its own.
pub(crate) fn build_tuned(
    material: &Material,
    variant: Variant,
    subtables: Subtables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    tuning: Tuning,
) -> Result<Table, TableError> {
    assert!(tuning.limit <= MAX_PLIES);
    let (bytes, overflow) = if material.has_pawns() {
        if variant != Variant::Standard {
            return Err(TableError::FixedKingPawns(material.clone()));
        }
        let mut whole = WholeTable(ByColor::new_with(|_| {
            Vec::with_capacity(Table::numbers_per_side(material, variant))
        }));
        let overflow = slice::build(
            material,
            &subtables,
            &held_promotions(&subtables),
            progress,
            tuning,
            None,
            &mut whole,
        )?;
        (whole.0, overflow)
    } else {
        let capture_tables = (0..material.len())
            .map(|man| match variant {
                Variant::Standard if man >= 2 => {
                    let sub = material.without(man);
                    subtables
                        .get(&sub)
                        .map(|t| Some(t.as_ref()))
                        .ok_or(TableError::MissingSubtable(sub))
                }
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let pieces = Pieces::new(
            Indexer::new(material.len(), variant),
            Rules::new(material, variant),
            capture_tables,
        );
        let mut bytes = ByColor::new_with(|_| zeroed(pieces.size()));
        let overflow = run_layout(
            pieces,
            bytes.as_mut().map(Vec::as_mut_slice),
            material,
            progress,
            tuning,
        )?;
        (bytes, overflow)
    };
    Ok(Table::from_parts(
        material.clone(),
        variant,
        bytes,
        overflow,
    ))
}

/// The engine on one layout: fills `bytes` (zeroed, the layout's size for
/// each side to move) and returns the overflow list.
pub(crate) fn run_layout<L: Layout>(
    layout: L,
    mut bytes: ByColor<&mut [u8]>,
    material: &Material,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    tuning: Tuning,
) -> Result<Overflow, TableError> {
    let Tuning { limit, ways, .. } = tuning;
    let size = layout.size();
    let total = 2 * size as u64;
    let blocks = size.div_ceil(BLOCK);
    let engine = Engine {
        layout,
        written: ByColor::new_with(|_| (0..blocks).map(|_| Written::default()).collect()),
        open: ByColor::new_with(|_| (0..blocks).map(|_| OpenRuns::default()).collect()),
        deepest: AtomicUsize::new(0),
        limit,
        ways,
        deep: ByColor::new_with(|_| Mutex::new(HashMap::new())),
    };
    let too_deep = |PastBound| TableError::TooDeep(material.clone());
    debug_assert!(bytes.iter().all(|side| side.len() == size));

    // The first pass runs on every core: a stop asked for during it is
    // noted, and the build stops when the pass ends.
    let examined = AtomicU64::new(0);
    let stop_asked = AtomicBool::new(false);
    let first = |step: u64| {
        let examined = examined.fetch_add(step, Ordering::Relaxed) + step;
        if progress(Progress::FirstPass { examined, total }).is_break() {
            stop_asked.store(true, Ordering::Relaxed);
        }
    };
    let captures_valued = engine
        .layout
        .value_captures(bytes.as_mut().map(|side| &mut **side));
    // How many positions of each side hold each byte: what the choice
    // between the steps' two ways is made on.
    let mut counts = engine
        .first_pass(
            bytes.as_mut().map(|side| &mut **side),
            captures_valued,
            &first,
        )
        .map_err(too_deep)?;
    if stop_asked.load(Ordering::Relaxed) {
        return Err(TableError::Stopped(material.clone()));
    }

    let mut decided = counts.iter().map(Tally::decisive).sum();
    let mut loss = 0;
    while usize::from(loss) <= engine.deepest.load(Ordering::Relaxed) {
        for turn in Color::ALL {
            let by_moves = engine.wins_by_moves_pay(turn, loss, &counts);
            let (lost, parents) = split(&mut bytes, turn);
            let won = if by_moves {
                engine.wins_by_moves(turn, lost, parents, loss)
            } else {
                engine.wins_from(turn, lost, parents, loss)
            };
            if loss < limit {
                counts[!turn].add_many(encode_plies(loss + 1), won);
            }
            decided += won;
        }
        if engine.deepest.load(Ordering::Relaxed) > usize::from(HARD_MAX_PLIES) {
            return Err(too_deep(PastBound));
        }
        if progress(Progress::Rank {
            rank: loss,
            decided,
        })
        .is_break()
        {
            return Err(TableError::Stopped(material.clone()));
        }
        let verified = ByColor::new_with(|turn| {
            if engine.verify_undecided_pays(turn, loss + 1, &counts) {
                Verified::Undecided
            } else {
                Verified::Marked
            }
        });
        for turn in Color::ALL {
            if verified[!turn] == Verified::Marked {
                let (won, parents) = split(&mut bytes, turn);
                engine.candidates_from(turn, won, parents, loss + 1);
            }
        }
        for turn in Color::ALL {
            let (children, candidates) = split(&mut bytes, !turn);
            let lost = engine
                .verify(turn, candidates, children, loss + 1, verified[turn])
                .map_err(too_deep)?;
            decided += lost.decisive();
            counts[turn] += lost;
        }
        if progress(Progress::Rank {
            rank: loss + 1,
            decided,
        })
        .is_break()
        {
            return Err(TableError::Stopped(material.clone()));
        }
        loss += 2;
    }

    for side in bytes.iter_mut() {
        side.par_iter_mut()
            .filter(|b| **b == SAFE)
            .for_each(|b| *b = UNDECIDED);
        debug_assert!(
            side.iter()
                .all(|&b| b <= encode_plies(limit) || b == DEEP || b == ILLEGAL)
        );
    }
    let overflow = ByColor::new_with(|turn| {
        let deep = std::mem::take(&mut *engine.deep[turn].lock().expect("no poisoning"));
        let mut listed: Vec<(usize, u16)> = deep
            .into_iter()
            .filter(|&(index, _)| bytes[turn][index] == DEEP)
            .collect();
        listed.sort_unstable();
        listed
    });
    debug_assert!(Color::ALL.iter().all(|&turn| {
        bytes[turn].iter().filter(|&&b| b == DEEP).count() == overflow[turn].len()
    }));
    Ok(Overflow::new(limit, overflow))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use shakmaty::Square;

    use super::*;
    use crate::tablebase::Tablebase;

    /// Material, variant and CRC-32 of each line of a checksum file.
    fn recorded(text: &str) -> Vec<(Material, Variant, u32)> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let variant = match fields[1].strip_prefix("fixed-king-") {
                    Some(sq) => Variant::FixedKing(Square::from_ascii(sq.as_bytes()).unwrap()),
                    None => Variant::Standard,
                };
                let crc = u32::from_str_radix(fields[2], 16).unwrap();
                (fields[0].parse().unwrap(), variant, crc)
            })
            .collect()
    }

    /// The tables the ranking solver built, before this engine replaced it.
    fn ranking_solver() -> Vec<(Material, Variant, u32)> {
        recorded(include_str!("../tests/data/checksums.txt"))
    }

    /// The bytes of `turn` in the numbering of the ranking solver, every
    /// man after the kings over 64 squares ([`Indexer::decode_over_64`]),
    /// a number with no placement of its own illegal.
    fn bytes_as_numbered_over_64(table: &Table, turn: Color) -> Vec<u8> {
        let Numbering::Pieces(ix) = Numbering::new(table.material(), table.variant()) else {
            panic!("pawnless material");
        };
        let bytes = table.bytes(turn);
        (0..ix.size_over_64())
            .map(|former| {
                ix.decode_over_64(former)
                    .and_then(|squares| ix.encode(&squares[..ix.men()]))
                    .map_or(ILLEGAL, |index| bytes[index])
            })
            .collect()
    }

    /// Builds the tables of the ranking solver's list whose number of men
    /// passes `men`, the steps choosing their ways by `ways`, and checks
    /// their bytes.
    fn same_bytes_as_the_ranking_solver(men: impl Fn(usize) -> bool, ways: Ways) {
        let tb = Tablebase::in_memory();
        let mut checked = 0;
        for (material, variant, crc) in ranking_solver() {
            if !men(material.len()) {
                continue;
            }
            let subtables = tb.subtables(&material, variant).unwrap();
            let tuning = Tuning {
                ways,
                ..Tuning::PRODUCTION
            };
            let no_progress = |_| ControlFlow::Continue(());
            let table = build_tuned(&material, variant, subtables, &no_progress, tuning).unwrap();
            let mut hasher = crc32fast::Hasher::new();
            for turn in Color::ALL {
                hasher.update(&bytes_as_numbered_over_64(&table, turn));
            }
            assert_eq!(hasher.finalize(), crc, "{material} {variant}");
            checked += 1;
        }
        assert!(checked > 0);
    }

    /// Checks `line_mask` against the scalar test on every byte value, in
    /// full lines and in shorter chunks.
    fn masks_follow_the_scalar_test(t: impl ByteTest) {
        let bytes: Vec<u8> = (0..=255).chain(0..=255).collect();
        for offset in [0, 64, 128, 192, 255] {
            for len in [64, 63, 1] {
                let chunk = &bytes[offset..offset + len];
                let mask = line_mask(chunk, t);
                for (i, &b) in chunk.iter().enumerate() {
                    assert_eq!(mask >> i & 1 == 1, t.test(b), "byte {b}");
                }
                assert_eq!(
                    mask >> len.min(63),
                    u64::from(len == 64 && t.test(chunk[63]))
                );
            }
        }
    }

    #[test]
    fn a_capture_byte_keeps_the_better_capture() {
        let children = [
            Value::Loss(0),
            Value::Loss(4),
            Value::Draw,
            Value::Win(3),
            Value::Win(251),
        ];
        for a in children {
            for b in children {
                let better = CaptureByte::better(CaptureByte::of(a), CaptureByte::of(b));
                let expected = if a.parent().order_key() <= b.parent().order_key() {
                    a
                } else {
                    b
                };
                assert_eq!(CaptureByte::child(better), Some(expected), "{a:?} {b:?}");
            }
            let alone = CaptureByte::better(CaptureByte::NONE, CaptureByte::of(a));
            assert_eq!(CaptureByte::child(alone), Some(a));
        }
        // Too deep for a byte: valued move by move, whatever else there is.
        let deep = CaptureByte::of(Value::Win(253));
        assert_eq!(deep, CaptureByte::BY_MOVES);
        let draw = CaptureByte::of(Value::Draw);
        assert_eq!(CaptureByte::better(draw, deep), CaptureByte::BY_MOVES);
    }

    #[test]
    fn line_masks_mark_exactly_the_bytes_that_pass() {
        for byte in [UNDECIDED, 1, 2, 7, CANDIDATE, ILLEGAL] {
            masks_follow_the_scalar_test(Equal(byte));
        }
        for won_by in [2, 11, 20, 250] {
            masks_follow_the_scalar_test(Unrefuting(won_by));
        }
        for win in [UNDECIDED, 2, 11, 20, 250] {
            masks_follow_the_scalar_test(Changeable(win));
        }
    }

    #[test]
    fn the_byte_tests_say_what_the_steps_need() {
        // A win of the opponent refutes up to the ply; a loss never does.
        let within_9 = Unrefuting(encode_plies(9));
        assert!(!within_9.test(encode_plies(9)) && !within_9.test(encode_plies(1)));
        assert!(within_9.test(encode_plies(11)));
        assert!(within_9.test(encode_plies(8)) && within_9.test(encode_plies(0)));
        assert!(within_9.test(UNDECIDED) && within_9.test(SAFE));
        assert!(!within_9.test(ILLEGAL));
        // Wins slower than the new one may be improved; losses, faster
        // wins, the deep and the illegal may not.
        let win = encode_plies(9);
        assert!(Changeable(win).test(UNDECIDED) && Changeable(win).test(SAFE));
        assert!(Changeable(win).test(encode_plies(11)));
        assert!(!Changeable(win).test(encode_plies(9)) && !Changeable(win).test(encode_plies(7)));
        assert!(!Changeable(win).test(encode_plies(10)));
        for byte in [DEEP, CANDIDATE, ILLEGAL] {
            assert!(!Changeable(win).test(byte));
        }
    }

    #[test]
    fn every_small_table_has_the_ranking_solvers_bytes() {
        same_bytes_as_the_ranking_solver(|men| men <= 4, Ways::Cheaper);
    }

    /// Each step's two ways, forced, give the same bytes: the choice
    /// between them is only a matter of time.
    #[test]
    fn either_way_of_each_step_gives_the_same_bytes() {
        for ways in [Ways::Retracting, Ways::ByMoves] {
            same_bytes_as_the_ranking_solver(|men| men <= 4, ways);
        }
    }

    /// The CRC-32 of a pawn table's bytes in the numbering they were
    /// recorded in, before the slices: the first pawn's place on files a-d
    /// and ranks 2-7 leading, then the other men's squares in base 64
    /// (24 * 64^(n-1) numbers a side, white to move first).
    fn first_pawn_numbering_crc(table: &Table) -> u32 {
        let material = table.material();
        let men = material.len();
        let pawn = material
            .men()
            .iter()
            .position(|p| p.role == shakmaty::Role::Pawn)
            .unwrap();
        let mut hasher = crc32fast::Hasher::new();
        for turn in Color::ALL {
            let bytes: Vec<u8> = (0..24usize << (6 * (men - 1)))
                .into_par_iter()
                .map(|index| {
                    let mut squares = [Square::A1; crate::MAX_MEN];
                    let mut rest = index;
                    for i in (0..men).rev().filter(|&i| i != pawn) {
                        squares[i] = Square::new((rest & 63) as u32);
                        rest >>= 6;
                    }
                    squares[pawn] = Square::new(((rest / 4 + 1) * 8 + rest % 4) as u32);
                    table
                        .numbering()
                        .encode(&squares[..men])
                        .map_or(ILLEGAL, |i| table.bytes(turn)[i])
                })
                .collect();
            hasher.update(&bytes);
        }
        hasher.finalize()
    }

    /// Every pawn table of up to four men has the bytes recorded before
    /// the slices: the first pawn builder's (forwards, on shakmaty
    /// positions) and the whole-table engine's.
    #[test]
    fn pawn_tables_have_the_recorded_bytes() {
        let tb = Tablebase::in_memory();
        let recorded = recorded(include_str!("../tests/data/pawn_checksums.txt"));
        assert_eq!(recorded.len(), 11);
        for (material, _, crc) in recorded {
            let table = tb.pawn_table(&material).unwrap();
            assert_eq!(first_pawn_numbering_crc(table.table()), crc, "{material}");
        }
    }

    /// KRPvKR's bytes in format 3's numbering, as the whole-table engine
    /// built them: the CRC-32 of its format-3 file's chunks, decompressed
    /// (2026-12-02, docs/tables.md "Pawns").
    #[test]
    #[ignore = "a five-man build: minutes, or read from the cache folder ($AJEDRECISTA_TABLES)"]
    fn krpvkr_keeps_the_whole_table_engines_bytes() {
        let table = Tablebase::new(None)
            .pawn_table(&"KRPvKR".parse().unwrap())
            .unwrap();
        assert_eq!(first_pawn_numbering_crc(table.table()), 0xfee4_5231);
    }

    /// The deepest plies of a table.
    fn longest(table: &Table) -> u16 {
        Color::ALL
            .iter()
            .flat_map(|&turn| (0..table.bytes(turn).len()).map(move |i| (i, turn)))
            .filter_map(|(i, turn)| Some(table.value_at(i, turn)?.plies()?.0))
            .max()
            .unwrap()
    }

    /// Builds `normal`'s material again with the overflow limit lowered to
    /// `limit`, checks every value against `normal`, and round-trips the
    /// lowered table through a file (read whole and opened by chunks).
    fn lowered_build_agrees(normal: &Table, subtables: &Subtables, limit: u16) {
        let material = normal.material();
        let lowered = build_tuned(
            material,
            normal.variant(),
            subtables.clone(),
            &|_| ControlFlow::Continue(()),
            Tuning {
                limit,
                ..Tuning::PRODUCTION
            },
        )
        .unwrap();
        let mut deep = 0;
        for turn in Color::ALL {
            for (i, &byte) in normal.bytes(turn).iter().enumerate() {
                let value = normal.value_at(i, turn);
                assert_eq!(lowered.value_at(i, turn), value, "{material} {turn} {i}");
                if value.and_then(Value::plies).is_some_and(|p| p.0 > limit) {
                    assert_eq!(lowered.bytes(turn)[i], DEEP);
                    deep += 1;
                } else {
                    assert_eq!(lowered.bytes(turn)[i], byte);
                }
            }
            assert_eq!(lowered.overflow().side(turn).len(), {
                let listed = normal.bytes(turn).len();
                (0..listed)
                    .filter(|&i| lowered.bytes(turn)[i] == DEEP)
                    .count()
            });
        }
        assert!(deep > 0, "{material}: nothing deeper than {limit}");
        assert_eq!(crate::summarize(&lowered), crate::summarize(normal));

        let dir = tempfile::tempdir().unwrap();
        let path = crate::format::write(dir.path(), &lowered).unwrap();
        let back = crate::format::read(&path, material, normal.variant()).unwrap();
        assert_eq!(back.overflow(), lowered.overflow());
        let opened = crate::format::ChunkedTable::open(&path, material, normal.variant()).unwrap();
        for turn in Color::ALL {
            assert_eq!(back.bytes(turn), lowered.bytes(turn));
            for i in 0..normal.bytes(turn).len() {
                assert_eq!(back.value_at(i, turn), normal.value_at(i, turn));
                // Every deep position, and a sample of the others.
                if (lowered.bytes(turn)[i] == DEEP || i % 13 == 0)
                    && let Some(pos) = normal.position(i, turn)
                {
                    assert_eq!(
                        opened.probe(&pos).unwrap(),
                        normal.probe(&pos).unwrap(),
                        "{material} {turn} {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_lowered_overflow_limit_gives_the_same_values() {
        let tb = Tablebase::in_memory();
        for material in ["KQvKR", "KRvKP"] {
            let material: Material = material.parse().unwrap();
            let (normal, variant) = if material.has_pawns() {
                let table = tb.pawn_table(&material).unwrap();
                (Arc::clone(table.table()), Variant::Standard)
            } else {
                (
                    tb.table(&material, Variant::Standard).unwrap(),
                    Variant::Standard,
                )
            };
            let subtables = tb.subtables(normal.material(), variant).unwrap();
            assert!(longest(&normal) > 60);
            lowered_build_agrees(&normal, &subtables, 40);
        }
        let fixed = Variant::FixedKing(Square::C3);
        let material: Material = "KRBvK".parse().unwrap();
        let normal = tb.table(&material, fixed).unwrap();
        let subtables = tb.subtables(&material, fixed).unwrap();
        lowered_build_agrees(&normal, &subtables, longest(&normal) / 2);
    }

    /// A build with pawns stopped part way goes on from the slices its
    /// journal kept, and builds a spoilt part again, to the bytes and the
    /// overflow of a build never stopped: by every way of building slices
    /// (a level's small ones in parallel, large ones one or two at a time),
    /// each to the same bytes.
    #[test]
    fn a_stopped_build_resumes_from_the_slices_kept() {
        let tb = Tablebase::in_memory();
        let material: Material = "KRvKP".parse().unwrap();
        let subtables = tb.subtables(&material, Variant::Standard).unwrap();
        let indexer = SliceIndexer::shared(&material);
        let total = indexer.slices();
        let mut first_bytes = None;
        let ways = [
            (
                slice::LARGE_SLICE_FROM,
                slice::large_at_once as fn(usize) -> usize,
            ),
            (1, |_| 1),
            (1, |_| 2),
        ];
        for (large_slices_from, large_at_once) in ways {
            // A lowered limit puts entries into the parts' overflow lists.
            let tuning = Tuning {
                limit: 40,
                large_slices_from,
                large_at_once,
                ..Tuning::PRODUCTION
            };
            let run = |journal: Option<&Journal>, stop_after: u64| {
                let mut whole = WholeTable(ByColor::default());
                let (built, kept) = (AtomicU64::new(0), AtomicU64::new(0));
                let progress = |p| match p {
                    Progress::Slice { done, kept: k, .. } => {
                        [&built, &kept][usize::from(k)].fetch_add(1, Ordering::Relaxed);
                        if done >= stop_after {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    }
                    _ => ControlFlow::Continue(()),
                };
                let promotions = held_promotions(&subtables);
                let overflow = slice::build(
                    &material,
                    &subtables,
                    &promotions,
                    &progress,
                    tuning,
                    journal,
                    &mut whole,
                );
                (overflow, whole.0, built.into_inner(), kept.into_inner())
            };
            let (reference, bytes, ..) = run(None, u64::MAX);
            let reference = reference.unwrap();
            assert_eq!(first_bytes.get_or_insert_with(|| bytes.clone()), &bytes);
            assert!(reference.side(Color::White).len() + reference.side(Color::Black).len() > 0);

            let dir = tempfile::tempdir().unwrap();
            let journal =
                Journal::open(dir.path(), &material, indexer.slice_len(), tuning.limit).unwrap();
            let (stopped, ..) = run(Some(&journal), 5);
            assert!(matches!(stopped, Err(TableError::Stopped(_))));
            let folder = dir.path().join("KRvKP.standard.ajt.slices");
            let mut parts: Vec<_> = fs::read_dir(&folder)
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .collect();
            parts.sort();
            assert!((5..total).contains(&parts.len()), "{} parts", parts.len());
            // One part spoilt: a byte of its content changed.
            let mut spoilt = fs::read(&parts[2]).unwrap();
            let last = spoilt.len() - 1;
            spoilt[last] ^= 0x55;
            fs::write(&parts[2], spoilt).unwrap();

            let (resumed, resumed_bytes, built, kept) = run(Some(&journal), u64::MAX);
            assert_eq!(resumed.unwrap(), reference);
            assert_eq!(resumed_bytes, bytes);
            assert_eq!(kept as usize, parts.len() - 1);
            assert_eq!(built as usize, total - kept as usize);
            journal.remove().unwrap();
            assert!(!folder.exists());
        }
    }

    #[test]
    #[ignore = "a five-man build, about a minute on two cores"]
    fn kqrvkr_has_the_ranking_solvers_bytes() {
        same_bytes_as_the_ranking_solver(|men| men == 5, Ways::Cheaper);
    }
}
