//! Tables with pawns, slice by slice (docs/tables.md, "Pawns").
//!
//! A pawn move cannot be taken back, so the positions of a material with
//! pawns fall into *slices*, one for each placement of the pawns. Inside a
//! slice only the kings and pieces move; a pawn's step leads into a more
//! advanced slice, a capture or a promotion into a smaller table. The
//! slices are built most advanced first, each by the engine of
//! [`crate::solve`] on the pawnless layout with the pawns standing still
//! ([`SliceLayout`]), whose pawn steps are valued, like captures, from the
//! slices already built.
//!
//! The numbering ([`SliceIndexer`]): the slice's ordinal, then the squares
//! of the kings and pieces in base 64. Pawns stand on the 48 squares of
//! ranks 2 to 7, like pawns once (in the order of their squares), and of a
//! placement of the pawns and its mirror image (files a-h turned to h-a)
//! only one is a slice, the one with the smaller pawn squares; a number
//! stands for its placement and that mirror image, except in a slice whose
//! pawns are their own mirror image, which holds both.

use std::{
    collections::HashMap,
    fmt,
    ops::{ControlFlow, Range},
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
};

use rayon::prelude::*;
use shakmaty::{Bitboard, ByColor, Color, Piece, Rank, Role, Square};

use crate::{
    engine::{
        Progress, Settings, Ways,
        bytes::{atomic, zeroed},
        layout::{CaptureByte, Captures, Exits, Layout},
        pieces::{Looked, Pieces, Run},
        run_layout,
    },
    error::TableError,
    format::{CHUNK, ChunkedTable},
    index::{Indexer, Squares, digits},
    journal::{Journal, SliceBytes},
    material::{MAX_MEN, Material},
    memory::promotion_batches,
    overflow::Overflow,
    packed::{self, Packed},
    pawn::{ExitMoves, ExitTables, PROMOTIONS, Roles, ahead, exit_reads, quiet_promotion},
    rules::{Rules, RunLooks},
    table::{Subtables, Table},
    value::{DEEP, MAX_PLIES, Value, decode_byte},
    variant::Variant,
};

/// The pawns of a slice: their squares in material order, like pawns
/// smallest square first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PawnSquares {
    squares: [Square; MAX_MEN],
    white: u8,
    black: u8,
}

impl PawnSquares {
    fn squares(&self) -> &[Square] {
        &self.squares[..usize::from(self.white + self.black)]
    }

    /// How far the pawns have gone: a step of one square adds 1.
    fn advancement(&self) -> u32 {
        let white = usize::from(self.white);
        self.squares()
            .iter()
            .enumerate()
            .map(|(i, sq)| {
                let rank = sq.rank().to_u32();
                if i < white { rank - 1 } else { 6 - rank }
            })
            .sum()
    }

    /// Whether a pawn of `color` stands on its seventh rank, a step from
    /// promotion.
    pub(crate) fn on_seventh(&self, color: Color) -> bool {
        let white = usize::from(self.white);
        let (of_color, seventh) = match color {
            Color::White => (&self.squares()[..white], Rank::Seventh),
            Color::Black => (&self.squares()[white..], Rank::Second),
        };
        of_color.iter().any(|sq| sq.rank() == seventh)
    }

    /// The same pawns, like pawns in order of their squares.
    fn sorted(mut self) -> PawnSquares {
        let white = usize::from(self.white);
        let len = white + usize::from(self.black);
        self.squares[..white].sort_unstable();
        self.squares[white..len].sort_unstable();
        self
    }

    /// The pawns of the mirror image (files a-h turned to h-a), sorted.
    fn mirrored(mut self) -> PawnSquares {
        let len = usize::from(self.white + self.black);
        for sq in &mut self.squares[..len] {
            *sq = sq.flip_horizontal();
        }
        self.sorted()
    }

    /// Base-64 number of the squares.
    fn key(&self) -> usize {
        self.squares()
            .iter()
            .fold(0, |acc, &sq| acc * 64 + usize::from(sq))
    }
}

impl fmt::Display for PawnSquares {
    /// `e4 v d5`: white's pawns, then black's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let white = usize::from(self.white);
        let side = |squares: &[Square]| -> String {
            if squares.is_empty() {
                "-".to_owned()
            } else {
                squares
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        write!(
            f,
            "{} v {}",
            side(&self.squares()[..white]),
            side(&self.squares()[white..])
        )
    }
}

/// In [`SliceIndexer`]'s places: not a placement of pawns.
const NO_SLICE: u32 = u32::MAX;
/// In [`SliceIndexer`]'s places: the slice holds the mirror image.
const MIRRORED: u32 = 1 << 31;

/// Numbers and placements of a material with pawns, slice by slice.
#[derive(Debug)]
pub struct SliceIndexer {
    men: usize,
    /// The kings and pieces (their places in the material), then the
    /// pawns: the order of a slice's placements.
    order: [usize; MAX_MEN],
    pieces: usize,
    slices: Vec<PawnSquares>,
    /// For every placement of the pawns (their squares in material order,
    /// base 64): its slice, with [`MIRRORED`] when the slice holds its
    /// mirror image; [`NO_SLICE`] when it is none.
    places: Vec<u32>,
    /// The slices of each advancement, most advanced first: the order of
    /// the build.
    levels: Vec<Range<usize>>,
}

impl SliceIndexer {
    /// The numbering of `material`, made once a process: a table, its file
    /// and every probe share it.
    pub fn shared(material: &Material) -> Arc<SliceIndexer> {
        static MADE: OnceLock<Mutex<HashMap<Material, Arc<SliceIndexer>>>> = OnceLock::new();
        let mut made = MADE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(
            made.entry(material.clone())
                .or_insert_with(|| Arc::new(SliceIndexer::new(material))),
        )
    }

    pub fn new(material: &Material) -> SliceIndexer {
        let men = material.men();
        let is_pawn = |i: &usize| men[*i].role == Role::Pawn;
        let mut order = [0; MAX_MEN];
        let pieces: Vec<usize> = (0..men.len()).filter(|i| !is_pawn(i)).collect();
        let pawns: Vec<usize> = (0..men.len()).filter(is_pawn).collect();
        order[..pieces.len()].copy_from_slice(&pieces);
        order[pieces.len()..men.len()].copy_from_slice(&pawns);
        let white = pawns
            .iter()
            .filter(|&&i| men[i].color == Color::White)
            .count();
        let of = |squares: &[Square]| {
            let mut set = PawnSquares {
                squares: [Square::A1; MAX_MEN],
                white: white as u8,
                black: (pawns.len() - white) as u8,
            };
            set.squares[..squares.len()].copy_from_slice(squares);
            set
        };

        // Every placement of the pawns on ranks 2-7, one square each.
        let places_len = 1 << (6 * pawns.len());
        let on_board = |key: usize| -> Option<PawnSquares> {
            let squares: Vec<Square> = (0..pawns.len())
                .rev()
                .map(|i| Square::new(((key >> (6 * i)) & 63) as u32))
                .collect();
            let occupied = squares.iter().fold(Bitboard::EMPTY, |bb, &s| bb | s);
            let inner = !(Bitboard::from(Rank::First) | Bitboard::from(Rank::Eighth));
            (occupied.count() == squares.len() && inner.is_superset(occupied)).then(|| of(&squares))
        };
        let canonical = |set: PawnSquares| -> (PawnSquares, bool) {
            let sorted = set.sorted();
            let mirror = set.mirrored();
            if mirror.key() < sorted.key() {
                (mirror, true)
            } else {
                (sorted, false)
            }
        };
        let mut slices: Vec<PawnSquares> = (0..places_len)
            .filter_map(on_board)
            .filter(|&set| canonical(set) == (set, false))
            .collect();
        slices.sort_by_key(|set| (std::cmp::Reverse(set.advancement()), set.key()));
        let ordinal: HashMap<usize, u32> = slices
            .iter()
            .enumerate()
            .map(|(i, set)| (set.key(), i as u32))
            .collect();
        let places = (0..places_len)
            .into_par_iter()
            .map(|key| match on_board(key) {
                Some(set) => {
                    let (slice, mirrored) = canonical(set);
                    ordinal[&slice.key()] | if mirrored { MIRRORED } else { 0 }
                }
                None => NO_SLICE,
            })
            .collect();
        let mut levels: Vec<Range<usize>> = Vec::new();
        for (i, set) in slices.iter().enumerate() {
            match levels.last_mut() {
                Some(level) if slices[level.start].advancement() == set.advancement() => {
                    level.end = i + 1
                }
                _ => levels.push(i..i + 1),
            }
        }
        SliceIndexer {
            men: men.len(),
            order,
            pieces: pieces.len(),
            slices,
            places,
            levels,
        }
    }

    /// Numbers of one slice.
    pub fn slice_len(&self) -> usize {
        1 << (6 * self.pieces)
    }

    /// Numbers for one side to move.
    pub fn size(&self) -> usize {
        self.slices.len() * self.slice_len()
    }

    /// How many slices there are.
    pub fn slices(&self) -> usize {
        self.slices.len()
    }

    /// The slices of each advancement, most advanced first: the order of
    /// the build.
    pub(crate) fn levels(&self) -> &[Range<usize>] {
        &self.levels
    }

    /// The slice of a number.
    pub fn slice_of(&self, index: usize) -> usize {
        index >> (6 * self.pieces)
    }

    /// The pawns of slice `slice`.
    pub fn pawns(&self, slice: usize) -> PawnSquares {
        self.slices[slice]
    }

    /// Whether the pawns of slice `slice` are their own mirror image.
    pub fn symmetric(&self, slice: usize) -> bool {
        self.slices[slice].mirrored() == self.slices[slice]
    }

    /// The slice and mirroring of the pawns of a placement (material
    /// order), `None` when they stand on no slice's squares.
    #[inline]
    fn place(&self, squares: &[Square]) -> Option<(usize, bool)> {
        let key = self.order[self.pieces..self.men]
            .iter()
            .fold(0, |acc, &i| acc * 64 + usize::from(squares[i]));
        let place = self.places[key];
        (place != NO_SLICE).then_some(((place & !MIRRORED) as usize, place & MIRRORED != 0))
    }

    /// The number of a placement (material order), `None` when its pawns
    /// stand on the first or last rank or share a square.
    #[inline]
    pub fn encode(&self, squares: &[Square]) -> Option<usize> {
        let (slice, mirrored) = self.place(squares)?;
        let image = |sq: Square| if mirrored { sq.flip_horizontal() } else { sq };
        Some(
            self.order[..self.pieces]
                .iter()
                .fold(slice, |acc, &i| acc * 64 + usize::from(image(squares[i]))),
        )
    }

    /// The placement of a number, in material order.
    #[inline]
    pub fn decode(&self, index: usize) -> Squares {
        let mut squares = [Square::A1; MAX_MEN];
        let pawns = self.slices[self.slice_of(index)];
        for (k, &i) in self.order[..self.pieces].iter().enumerate() {
            squares[i] = Square::new(((index >> (6 * (self.pieces - 1 - k))) & 63) as u32);
        }
        for (&i, &sq) in self.order[self.pieces..self.men]
            .iter()
            .zip(pawns.squares())
        {
            squares[i] = sq;
        }
        squares
    }

    /// How many placements of the board number `index` stands for.
    pub fn weight(&self, index: usize) -> u64 {
        if self.symmetric(self.slice_of(index)) {
            1
        } else {
            2
        }
    }

    /// The number inside its slice of a placement in slice order (kings and
    /// pieces first).
    #[inline]
    fn in_slice(&self, squares: &[Square]) -> usize {
        digits(&squares[..self.pieces])
    }

    /// The pawnless layout of the kings and pieces of slice `slice`, the
    /// pawns standing still.
    fn pieces_of(&self, men: &[Piece], slice: usize) -> Pieces<'static> {
        Pieces::new(
            Indexer::slice(self.pieces, self.slices[slice].squares()),
            Rules::with_men(men, self.pieces, false),
            Vec::new(),
        )
    }

    /// The men of the material in slice order.
    fn men_in_order(&self, material: &Material) -> Vec<Piece> {
        self.order[..self.men]
            .iter()
            .map(|&i| material.men()[i])
            .collect()
    }
}

/// The slices a build still reads (those its pawn steps lead into), by
/// ordinal, and the positions deeper than a byte holds.
#[derive(Clone, Copy)]
struct Built<'a> {
    slices: &'a [Option<KeptSlice>],
    slice_len: usize,
    deep: &'a ByColor<HashMap<usize, u16>>,
}

impl Built<'_> {
    /// The bytes of side `turn` of a slice built.
    fn side(&self, turn: Color, slice: usize) -> &KeptBytes {
        self.slices[slice]
            .as_ref()
            .and_then(|kept| kept[turn].as_ref())
            .expect("a step leads into a side held")
    }

    /// The value of byte `byte` of number `index` inside slice `slice`,
    /// `None` for an illegal position.
    fn value_of_byte(&self, turn: Color, slice: usize, index: usize, byte: u8) -> Option<Value> {
        match byte {
            DEEP => Some(Value::decisive(
                self.deep[turn][&(slice * self.slice_len + index)],
            )),
            byte => decode_byte(byte),
        }
    }

    /// The value of a legal position of a slice built: number `index`
    /// inside slice `slice`.
    fn value(&self, turn: Color, slice: usize, index: usize) -> Value {
        let byte = self.side(turn, slice).get(index);
        self.value_of_byte(turn, slice, index, byte)
            .expect("a legal position of a slice built")
    }
}

/// A pawn step that leaves a slice for another.
struct Push {
    /// The pawn (its place in the slice's order).
    pawn: usize,
    to: Square,
    /// The squares that must be empty.
    path: Bitboard,
    /// The slice it leads into.
    child: usize,
    /// That slice holds the mirror image.
    mirrored: bool,
    /// A double step, which an en passant capture may answer.
    double: bool,
}

impl Push {
    /// Valued backwards before the first pass, into the positions'
    /// [`CaptureByte`] ([`SliceLayout::value_steps`]): a single step into a
    /// slice not mirrored, where the position after it has the same number.
    fn valued_backwards(&self) -> bool {
        !self.double && !self.mirrored
    }
}

/// The best promotion of every position of a slice for one side to move,
/// by number inside the slice: its value for the opponent, 0 for none, 1 a
/// draw, 2 + 2p a win in p plies, 3 + 2p a loss in p plies. Gathered for
/// every promoting role at once, so that a position is looked at once,
/// unless the tables they lead into take too much memory together
/// ([`promotion_batches`]).
struct Promoted(Vec<u16>);

impl Promoted {
    fn code(value: Value) -> u16 {
        match value {
            Value::Draw => 1,
            Value::Win(plies) => 2 + 2 * plies,
            Value::Loss(plies) => 3 + 2 * plies,
        }
    }

    fn value(code: u16) -> Option<Value> {
        match code {
            0 => None,
            1 => Some(Value::Draw),
            code if code % 2 == 0 => Some(Value::Win((code - 2) / 2)),
            code => Some(Value::Loss((code - 3) / 2)),
        }
    }

    /// Takes the best promotion of number `index` into `exits`.
    #[inline]
    fn add_to(&self, exits: &mut Exits, index: usize) {
        if let Some(value) = Promoted::value(self.0[index]) {
            exits.add(value);
        }
    }

    /// The best promotions of side `turn` in each of `slices`, the tables
    /// they lead into had from `promotion_tables` (those of a batch of
    /// roles, [`promotion_batches`], at a time). The tables promotions
    /// that take nothing lead into, if their files are open, are read a
    /// block at a time ([`read_by_blocks`]): without pawns, the numbers of
    /// one placement of their kings, which are the slice's kings, so that
    /// the numbers of the slices with the same kings are gathered together;
    /// with pawns, the slices a slice's promotions reach.
    fn gather(
        indexer: &SliceIndexer,
        material: &Material,
        men: &[Piece],
        slices: &[usize],
        turn: Color,
        promotion_tables: &PromotionTables,
    ) -> Result<Vec<Promoted>, TableError> {
        let mut gathered: Vec<Promoted> = slices
            .iter()
            .map(|_| Promoted(vec![0; indexer.slice_len()]))
            .collect();
        let pieces: Vec<Pieces> = slices
            .iter()
            .map(|&slice| indexer.pieces_of(men, slice))
            .collect();
        for roles in promotion_batches(material, turn) {
            let moves = ExitMoves::Promotions(turn, roles);
            let by_blocks = read_by_blocks(material, turn, roles);
            let mut tables = Subtables::new();
            let mut opened = Vec::new();
            for (sub, sides) in exit_reads(material, moves) {
                let role = by_blocks
                    .iter()
                    .find(|(_, table)| *table == sub)
                    .map(|&(role, _)| role);
                let reading = if role.is_some() {
                    Reading::ByBlocks
                } else {
                    Reading::Whole
                };
                match promotion_tables(&sub, &sides, reading)? {
                    PromotionTable::Held(table) => {
                        tables.insert(sub, table);
                    }
                    PromotionTable::Opened(table) => opened.push(Opened {
                        role: role.expect("only a table read by blocks is opened"),
                        table,
                        side: sides[0],
                    }),
                }
            }
            if opened.is_empty() {
                let exits = ExitTables::new(men, &tables, moves)?;
                gathered
                    .par_iter_mut()
                    .zip(&pieces)
                    .for_each(|(promoted, pieces)| take(&exits, pieces, turn, 0, &mut promoted.0));
            } else {
                let blocks = Blocks {
                    indexer,
                    men,
                    slices,
                    turn,
                    moves,
                    tables,
                    opened,
                };
                blocks.gather(&mut gathered, &pieces)?;
            }
        }
        Ok(gathered)
    }
}

/// Takes the promotions `exits` values into `codes`, those of the numbers
/// from `start` on of a slice whose kings and pieces are `pieces`, on
/// every core.
pub(crate) fn take(
    exits: &ExitTables,
    pieces: &Pieces,
    turn: Color,
    start: usize,
    codes: &mut [u16],
) {
    codes
        .par_chunks_mut(PROMOTED_BLOCK)
        .enumerate()
        .for_each(|(b, codes)| {
            promoted_into(exits, pieces, turn, start + b * PROMOTED_BLOCK, codes)
        });
}

/// Takes the promotions `exits` values into `codes`, those of the numbers
/// from `start` on of a slice whose kings and pieces are `pieces`.
fn promoted_into(
    exits: &ExitTables,
    pieces: &Pieces,
    turn: Color,
    start: usize,
    codes: &mut [u16],
) {
    let len = codes.len();
    let mut promote = |i: usize, squares: &Squares| {
        let mut found = exits.exits(squares, turn);
        if let Some(before) = Promoted::value(codes[i]) {
            found.add(before);
        }
        if let Some(best) = found.best() {
            codes[i] = Promoted::code(best);
        }
    };
    pieces.looks(start, len, |offset, looked| match looked {
        Looked::Run(run, looks) => {
            for s in Bitboard(looks[turn].legal) {
                promote(offset + usize::from(s), &run.with_last_on(s));
            }
        }
        Looked::One(Some((squares, looks))) if looks[turn].legal => promote(offset, squares),
        Looked::One(_) => {}
    })
}

/// The tables the promotions of `color` to `roles` lead into that a
/// build of `material` reads a block at a time, if their files are open,
/// each with the place in [`PROMOTIONS`] of its role: those of promotions
/// that take nothing ([`quiet_promotion`]). A table without pawns (a lone
/// pawn's promotion) is read a placement of its kings at a time, when the
/// material has a piece besides (so that a block fills a run of 64
/// numbers or more); a table with pawns, the slices one slice's
/// promotions reach at a time.
pub(crate) fn read_by_blocks(
    material: &Material,
    color: Color,
    roles: Roles,
) -> Vec<(usize, Material)> {
    roles
        .places()
        .filter_map(|role| {
            quiet_promotion(material, PROMOTIONS[role].of(color))
                .filter(|table| table.has_pawns() || material.len() >= 4)
                .map(|table| (role, table))
        })
        .collect()
}

/// The numbers of a table without pawns for one placement of its kings.
fn block_len(table: &Material) -> usize {
    Indexer::new(table.len(), Variant::Standard).king_pair_len()
}

/// Bytes of the window a block of a table without pawns is read in: the
/// chunks of its file from the one the block starts in, one more than the
/// block's length needs when that length, not a power of two, lets a
/// block straddle the end of a chunk. Every block that starts in a chunk
/// reads the same window.
pub(crate) fn window_len(table: &Material) -> usize {
    let len = block_len(table);
    (len.div_ceil(CHUNK) + usize::from(!len.is_power_of_two())) * CHUNK
}

/// Bytes of the windows of `table` (read by blocks, [`read_by_blocks`])
/// held at once while the promotions of `color` in `material` are
/// gathered: without pawns, a block's a thread; with pawns, the slices one
/// slice's promotions reach, a window at a time: one slice when `material`
/// has one pawn of that colour, else at most an advancement's (the
/// children of pawns on the seventh rank keep the same advancement).
pub(crate) fn windows_held(material: &Material, color: Color, table: &Material) -> u64 {
    if !table.has_pawns() {
        return rayon::current_num_threads() as u64 * window_len(table) as u64;
    }
    let promoting = material
        .men()
        .iter()
        .filter(|&&man| man == Role::Pawn.of(color))
        .count();
    let reached = SliceIndexer::shared(table);
    let slices = if promoting == 1 {
        1
    } else {
        reached
            .levels()
            .iter()
            .map(|level| level.len())
            .max()
            .unwrap_or(0)
    };
    (slices * reached.slice_len()).next_multiple_of(CHUNK) as u64
}

/// A table a promotion that takes nothing leads into, its file opened to
/// be read a block at a time ([`read_by_blocks`]).
struct Opened {
    /// The role promoted to: its place in [`PROMOTIONS`].
    role: usize,
    table: Arc<ChunkedTable>,
    /// The side to move of it that promotions read.
    side: Color,
}

/// The promotions of one side valued with the tables promotions that take
/// nothing lead into read a block of numbers at a time
/// ([`Promoted::gather`]).
struct Blocks<'a> {
    indexer: &'a SliceIndexer,
    men: &'a [Piece],
    slices: &'a [usize],
    turn: Color,
    moves: ExitMoves,
    /// The other tables promotions lead into, held.
    tables: Subtables,
    opened: Vec<Opened>,
}

/// One buffer for the window of each opened table ([`Blocks::opened`]),
/// reused from one window read to the next.
type WindowBuffers = Vec<Vec<u8>>;

/// Numbers of a slice whose promotions read the same windows of the
/// opened tables: a placement of the kings (tables without pawns), or the
/// whole slice (with pawns).
struct Group<'c> {
    /// The numbers read of each opened table, as (first, end), in the
    /// order of [`Blocks::opened`]; (0, 0) where none is.
    windows: Vec<(usize, usize)>,
    /// The slice, by its place in the slices gathered for.
    slice: usize,
    start: usize,
    codes: &'c mut [u16],
}

impl Blocks<'_> {
    /// Groups the numbers of `gathered` by the windows they read, and
    /// gathers each group with the windows read once: without pawns, the
    /// groups of a window in parallel with other windows' (a window a
    /// thread); with pawns, a window at a time, its groups on every core.
    fn gather(&self, gathered: &mut [Promoted], pieces: &[Pieces]) -> Result<(), TableError> {
        let with_pawns = self.opened[0].table.material().has_pawns();
        // The tables' numberings alone, to find the windows each group reads.
        let unread = self.tables_read(&vec![(0, 0); self.opened.len()], &mut Vec::new())?;
        let numbering = ExitTables::new(self.men, &unread, self.moves)?;
        let group_len = if with_pawns {
            self.indexer.slice_len()
        } else {
            self.indexer.slice_len() >> 12
        };
        let mut groups: Vec<Group> = Vec::new();
        for ((promoted, &slice), p) in gathered.iter_mut().zip(self.slices).zip(0..) {
            for (kings, codes) in promoted.0.chunks_mut(group_len).enumerate() {
                let windows = self
                    .opened
                    .iter()
                    .map(|opened| {
                        if with_pawns {
                            self.reached_window(&numbering, slice, opened)
                        } else {
                            self.kings_window(&numbering, slice, kings, opened)
                        }
                    })
                    .collect();
                groups.push(Group {
                    windows,
                    slice: p,
                    start: kings * group_len,
                    codes,
                });
            }
        }
        groups.sort_unstable_by(|a, b| a.windows.cmp(&b.windows));
        let same = |a: &Group, b: &Group| a.windows == b.windows;
        if with_pawns {
            let mut buffers = Vec::new();
            for run in groups.chunk_by_mut(same) {
                self.gather_run(run, pieces, take, &mut buffers)?;
            }
            return Ok(());
        }
        groups
            .par_chunk_by_mut(same)
            .try_for_each_init(Vec::new, |buffers, run| {
                self.gather_run(run, pieces, promoted_into, buffers)
            })
    }

    /// Gathers a run of groups that read the same windows, those read
    /// once into `buffers`, the groups in parallel, each by `fill` (on one
    /// core, or on every core).
    fn gather_run(
        &self,
        run: &mut [Group],
        pieces: &[Pieces],
        fill: fn(&ExitTables, &Pieces, Color, usize, &mut [u16]),
        buffers: &mut WindowBuffers,
    ) -> Result<(), TableError> {
        let tables = self.tables_read(&run[0].windows, buffers)?;
        let exits = ExitTables::new(self.men, &tables, self.moves)?;
        run.par_iter_mut().for_each(|group| {
            fill(
                &exits,
                &pieces[group.slice],
                self.turn,
                group.start,
                group.codes,
            )
        });
        drop(exits);
        self.give_back(tables, buffers);
        Ok(())
    }

    /// The window of `opened` that the promotions from the slice's
    /// placement `kings` of the kings read: the chunks of the block of the
    /// kings there.
    fn kings_window(
        &self,
        numbering: &ExitTables,
        slice: usize,
        kings: usize,
        opened: &Opened,
    ) -> (usize, usize) {
        let material = opened.table.material();
        let block_len = block_len(material);
        match self.first_number(numbering, slice, kings, opened.role) {
            None => (0, 0),
            Some(number) => {
                let first = number / block_len * block_len / CHUNK * CHUNK;
                (first, first + window_len(material))
            }
        }
    }

    /// The window of `opened` that the promotions of slice `slice` read:
    /// the slices of the pawns left (one slice, or a few of one
    /// advancement when several pawns stand on the seventh rank), out to
    /// the whole chunks read, so that the groups of slices whose
    /// promotions reach the same chunks read them once.
    fn reached_window(
        &self,
        numbering: &ExitTables,
        slice: usize,
        opened: &Opened,
    ) -> (usize, usize) {
        let reached_len = SliceIndexer::shared(opened.table.material()).slice_len();
        let reached = self.promotion_numbers(numbering, slice, opened.role);
        match (reached.iter().min(), reached.iter().max()) {
            (Some(&first), Some(&last)) => (
                first / reached_len * reached_len / CHUNK * CHUNK,
                ((last / reached_len + 1) * reached_len).next_multiple_of(CHUNK),
            ),
            _ => (0, 0),
        }
    }

    /// The numbers, in the table it leads into, of the promotions to
    /// `PROMOTIONS[role]` that take nothing of the pawns of slice `slice`
    /// on their seventh rank, from one placement of the kings and pieces
    /// (any other reaches the same slices: a promotion leaves the other
    /// pawns where they stand).
    fn promotion_numbers(&self, numbering: &ExitTables, slice: usize, role: usize) -> Vec<usize> {
        let pawns = self.indexer.slices[slice].squares();
        let first_pawn = self.indexer.pieces;
        let mut squares = [Square::A1; MAX_MEN];
        let mut taken = pawns.iter().fold(Bitboard::EMPTY, |bb, &sq| bb | sq);
        for (k, &sq) in pawns.iter().enumerate() {
            squares[first_pawn + k] = sq;
            if let Some(to) = ahead(sq, self.turn) {
                taken |= to;
            }
        }
        for sq in &mut squares[..first_pawn] {
            *sq = (!taken).first().expect("room for the kings and pieces");
            taken |= *sq;
        }
        (0..pawns.len())
            .filter(|&k| {
                self.men[first_pawn + k].color == self.turn
                    && ahead(pawns[k], self.turn)
                        .is_some_and(|to| to.rank() == self.turn.fold_wb(Rank::Eighth, Rank::First))
            })
            .filter_map(|k| numbering.promotion_number(&squares, self.turn, first_pawn + k, role))
            .collect()
    }

    /// The tables promotions lead into, `windows` of the opened ones read
    /// together (none for a window (0, 0)) into `buffers`, the others held
    /// whole.
    fn tables_read(
        &self,
        windows: &[(usize, usize)],
        buffers: &mut WindowBuffers,
    ) -> Result<Subtables, TableError> {
        buffers.resize_with(self.opened.len(), Vec::new);
        let read = self
            .opened
            .par_iter()
            .zip(windows)
            .zip(buffers.par_iter_mut())
            .map(|((opened, &(first, end)), buffer)| {
                if first == end {
                    Ok(self.no_values(opened))
                } else {
                    let buffer = std::mem::take(buffer);
                    opened.table.window(opened.side, first..end, buffer)
                }
            })
            .collect::<Result<Vec<Table>, TableError>>()?;
        let mut tables = self.tables.clone();
        for (opened, window) in self.opened.iter().zip(read) {
            tables.insert(opened.table.material().clone(), Arc::new(window));
        }
        Ok(tables)
    }

    /// Takes the windows' bytes out of `tables` into `buffers`, for the
    /// next windows read.
    fn give_back(&self, mut tables: Subtables, buffers: &mut WindowBuffers) {
        for (opened, buffer) in self.opened.iter().zip(buffers) {
            let window = tables.remove(opened.table.material()).map(Arc::try_unwrap);
            if let Some(Ok(window)) = window {
                // A window not read has no bytes to give.
                let bytes = window.into_side(opened.side);
                if bytes.capacity() > buffer.capacity() {
                    *buffer = bytes;
                }
            }
        }
    }

    /// A window of an opened table with no values: its numbering, for the
    /// numbers that promote into none of its blocks.
    fn no_values(&self, opened: &Opened) -> Table {
        Table::window(
            opened.table.material().clone(),
            Variant::Standard,
            opened.side,
            0,
            Vec::new(),
            Overflow::new(0, ByColor::default()),
        )
    }

    /// The number in the table it leads into of a promotion to
    /// `PROMOTIONS[role]` from the slice's placement `kings` of the kings
    /// (the other pieces anywhere), `None` when none is legal: the kings
    /// stand on one square, next to each other, on the pawn's or on the
    /// square it promotes on.
    fn first_number(
        &self,
        numbering: &ExitTables,
        slice: usize,
        kings: usize,
        role: usize,
    ) -> Option<usize> {
        let pawns = self.indexer.slices[slice].squares();
        let pawn = self.indexer.pieces;
        let promotes_on = ahead(pawns[0], self.turn)?;
        let mut squares = [Square::A1; MAX_MEN];
        squares[0] = Square::new((kings >> 6) as u32);
        squares[1] = Square::new((kings & 63) as u32);
        let mut taken = Bitboard::from(squares[0]) | squares[1] | pawns[0] | promotes_on;
        if taken.count() < 4 {
            return None;
        }
        for sq in &mut squares[2..pawn] {
            *sq = (!taken).first().expect("room for the pieces");
            taken |= *sq;
        }
        squares[pawn] = pawns[0];
        numbering.promotion_number(&squares, self.turn, pawn, role)
    }
}

/// The most bytes of gathered promotions of small slices held at once,
/// unless one level needs more: the promotions of several levels are
/// gathered together (each table had once for them all) while they fit.
/// A large slice's are gathered alone, just before it is built.
pub(crate) const GATHER_BUDGET: usize = 256 << 20;

/// Numbers a thread gathers promotions for at a time.
const PROMOTED_BLOCK: usize = 4096;

/// Gives the table of a material a promotion leads into (by its canonical
/// name), from memory or its file, with at least the values of the given
/// sides to move (those a promotion's values are read for,
/// [`crate::pawn::exit_reads`]), read as `Reading` allows; only the tables
/// of one batch of promoting roles of one side
/// ([`promotion_batches`]) are held at a time.
pub(crate) type PromotionTables<'a> =
    dyn Fn(&Material, &[Color], Reading) -> Result<PromotionTable, TableError> + Sync + 'a;

/// How a build may read a table a promotion leads into.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Held, the sides asked for whole.
    Whole,
    /// Also opened, to read a block of numbers at a time.
    ByBlocks,
}

/// A table a promotion leads into, as a build has it.
pub(crate) enum PromotionTable {
    Held(Arc<Table>),
    /// Its file, opened ([`Reading::ByBlocks`]).
    Opened(Arc<ChunkedTable>),
}

/// The pawn steps of a slice.
struct Steps {
    pushes: ByColor<Vec<Push>>,
    /// The squares a pawn of each side steps to: a position with one of
    /// them empty has a move that leaves the slice.
    targets: ByColor<Bitboard>,
    /// Those of them on the last rank: promotions.
    promotions: ByColor<Bitboard>,
    /// The squares the pawns of each side attack: a position with a man
    /// to take there has a pawn's capture, which
    /// [`ExitTables::value_captures`] leaves to be valued move by move.
    attacks: ByColor<Bitboard>,
}

impl Steps {
    pub(crate) fn of(indexer: &SliceIndexer, men: &[Piece], slice: usize) -> Steps {
        let pawn_squares = indexer.slices[slice].squares();
        let standing = pawn_squares.iter().fold(Bitboard::EMPTY, |bb, &sq| bb | sq);
        let mut steps = Steps {
            pushes: ByColor::default(),
            targets: ByColor::default(),
            promotions: ByColor::default(),
            attacks: ByColor::default(),
        };
        for (k, &from) in pawn_squares.iter().enumerate() {
            let color = men[indexer.pieces + k].color;
            steps.attacks[color] |= shakmaty::attacks::pawn_attacks(color, from);
            let Some(one) = ahead(from, color).filter(|&s| !standing.contains(s)) else {
                continue;
            };
            steps.targets[color] |= one;
            if one.rank() == color.fold_wb(Rank::Eighth, Rank::First) {
                // The exit tables value promotions.
                steps.promotions[color] |= one;
                continue;
            }
            let mut ways = vec![(one, Bitboard::from(one), false)];
            if from.rank() == color.fold_wb(Rank::Second, Rank::Seventh)
                && let Some(two) = ahead(one, color).filter(|&s| !standing.contains(s))
            {
                ways.push((two, Bitboard::from(one) | two, true));
            }
            for (to, path, double) in ways {
                let mut moved = [Square::A1; MAX_MEN];
                for (j, &i) in indexer.order[indexer.pieces..indexer.men]
                    .iter()
                    .enumerate()
                {
                    moved[i] = if j == k { to } else { pawn_squares[j] };
                }
                let (child, mirrored) = indexer.place(&moved).expect("a step stays on the board");
                steps.pushes[color].push(Push {
                    pawn: indexer.pieces + k,
                    to,
                    path,
                    child,
                    mirrored,
                    double,
                });
            }
        }
        steps
    }
}

/// The engine's layout of one slice: the pawnless layout of its kings and
/// pieces, with the pawns standing still, whose steps leave the slice.
struct SliceLayout<'a> {
    pieces: Pieces<'a>,
    indexer: &'a SliceIndexer,
    /// The captures that do not promote.
    exit_tables: &'a ExitTables<'a>,
    /// The best promotion of each position, for each side that has one.
    promoted: ByColor<Option<Promoted>>,
    steps: Steps,
    /// The pawns' squares (after the kings' and pieces', in slice order).
    standing: Squares,
    built: Built<'a>,
}

impl<'a> SliceLayout<'a> {
    fn new(
        indexer: &'a SliceIndexer,
        men: &[Piece],
        exit_tables: &'a ExitTables<'a>,
        (slice, promoted): (usize, ByColor<Option<Promoted>>),
        built: Built<'a>,
    ) -> SliceLayout<'a> {
        let mut standing = [Square::A1; MAX_MEN];
        standing[indexer.pieces..indexer.men].copy_from_slice(indexer.slices[slice].squares());
        SliceLayout {
            pieces: indexer.pieces_of(men, slice),
            indexer,
            exit_tables,
            promoted,
            steps: Steps::of(indexer, men, slice),
            standing,
            built,
        }
    }

    /// The value for `!turn` of the position after `push`, legal, from
    /// number `index`, placement `squares`: a step keeps the kings and
    /// pieces where they are, so the number in the slice reached is the
    /// same, or its mirror image's.
    fn after_push(&self, index: usize, squares: &Squares, turn: Color, push: &Push) -> Value {
        let index = if push.mirrored {
            let mut mirrored = [Square::A1; MAX_MEN];
            for (to, &sq) in mirrored.iter_mut().zip(&squares[..self.indexer.pieces]) {
                *to = sq.flip_horizontal();
            }
            self.indexer.in_slice(&mirrored)
        } else {
            index
        };
        let value = self.built.value(!turn, push.child, index);
        if !push.double {
            return value;
        }
        let mut after = *squares;
        after[push.pawn] = push.to;
        match self.exit_tables.en_passant(&after, push.pawn, !turn) {
            Some(capture) if capture.order_key() < value.order_key() => capture,
            _ => value,
        }
    }
}

impl SliceLayout<'_> {
    /// Values backwards, into `bytes` (side `turn`'s [`CaptureByte`]s), the
    /// single steps of `turn`'s pawns ([`Push::valued_backwards`]): the
    /// position after such a step has the number of the position before
    /// it, so a line of the slice stepped into values a line of this one.
    /// A step is legal exactly where the position after it is: its square
    /// empty and its side's king safe. A number whose men share a square
    /// gets a byte too; the first pass finds it illegal before reading it.
    fn value_steps(&self, turn: Color, bytes: &mut [u8]) {
        for push in &self.steps.pushes[turn] {
            if !push.valued_backwards() {
                continue;
            }
            let after = self.built.side(!turn, push.child);
            bytes
                .par_chunks_mut(packed::BLOCK)
                .enumerate()
                .for_each_init(Vec::new, |children, (c, parents)| {
                    let start = c * packed::BLOCK;
                    after.read_into(start, parents.len(), children);
                    for (k, (slot, &byte)) in parents.iter_mut().zip(children.iter()).enumerate() {
                        let index = start + k;
                        if let Some(child) =
                            self.built.value_of_byte(!turn, push.child, index, byte)
                        {
                            *slot = CaptureByte::better(*slot, CaptureByte::of(child));
                        }
                    }
                });
        }
    }
}

impl Layout for SliceLayout<'_> {
    #[inline(always)]
    fn pieces(&self) -> &Pieces<'_> {
        &self.pieces
    }

    /// A pawn's step or promotion.
    #[inline(always)]
    fn may_step(&self, squares: &Squares, turn: Color) -> bool {
        let occupied = self.pieces.rules().occupied(squares);
        (self.steps.targets[turn] & !occupied).any()
    }

    fn exits(&self, index: usize, squares: &Squares, turn: Color, captures: Captures) -> Exits {
        debug_assert_eq!(index, self.indexer.in_slice(squares));
        let rules = self.pieces.rules();
        let occupied = rules.occupied(squares);
        let pawn_takes = || self.steps.attacks[turn].intersects(rules.capturable(squares, !turn));
        // Most positions have a pawn step and nothing to take.
        let (mut found, steps_valued) = match captures {
            Captures::None => (Exits::default(), false),
            Captures::Valued(byte) if byte != CaptureByte::BY_MOVES && !pawn_takes() => {
                (Exits::of_captures(byte), true)
            }
            Captures::ByMoves | Captures::Valued(_) => {
                (self.exit_tables.exits(squares, turn), false)
            }
        };
        if let Some(promoted) = &self.promoted[turn] {
            promoted.add_to(&mut found, index);
        }
        for push in &self.steps.pushes[turn] {
            if steps_valued && push.valued_backwards() {
                // In the byte already.
                continue;
            }
            if !push.path.intersects(occupied)
                && rules.legal_after(squares, occupied, turn, push.pawn, push.to, None)
            {
                found.add(self.after_push(index, squares, turn, push));
            }
        }
        found
    }

    /// All but those where a pawn may take (valued move by move), a step
    /// not valued backwards may be made, or a pawn may promote.
    fn settled_by_byte(&self, run: &Run, turn: Color, _: &RunLooks) -> u64 {
        if self.promoted[turn].is_some() {
            return 0;
        }
        let rules = self.pieces.rules();
        let others_to_take = rules.capturable_except(&run.squares, !turn, Some(run.last));
        let pawn_attacks = self.steps.attacks[turn];
        let mut by_byte = if pawn_attacks.intersects(others_to_take) {
            Bitboard::EMPTY
        } else if rules.man(run.last).color != turn {
            !pawn_attacks
        } else {
            Bitboard::FULL
        };
        for push in &self.steps.pushes[turn] {
            if !push.valued_backwards() && !push.path.intersects(run.others) {
                // Open unless the last man stands in the way.
                by_byte &= push.path;
            }
        }
        by_byte.0
    }

    fn value_captures(&self, mut bytes: ByColor<&mut [u8]>) -> bool {
        for side in bytes.iter_mut() {
            side.par_chunks_mut(1 << 16)
                .for_each(|chunk| chunk.fill(CaptureByte::NONE));
        }
        self.exit_tables.value_captures(
            self.indexer.pieces,
            &self.standing,
            bytes.as_mut().map(|side| atomic(side)),
        );
        for turn in Color::ALL {
            self.value_steps(turn, bytes[turn]);
        }
        true
    }
}

/// Where the slices of a build go, in the order of their numbers, each
/// once built: `first` is the number of its first position, `bytes` both
/// sides' bytes.
pub(crate) trait SliceSink {
    fn put(&mut self, first: usize, bytes: ByColor<&[u8]>) -> Result<(), TableError>;
}

/// The bytes of one side of a slice built, kept for the slices that step
/// into it: a large slice's compressed.
enum KeptBytes {
    Plain(Vec<u8>),
    Packed(Packed),
}

impl KeptBytes {
    fn new(bytes: Vec<u8>) -> KeptBytes {
        if bytes.len() >= LARGE_SLICE_FROM {
            KeptBytes::Packed(Packed::new(&bytes))
        } else {
            KeptBytes::Plain(bytes)
        }
    }

    #[inline]
    fn get(&self, index: usize) -> u8 {
        match self {
            KeptBytes::Plain(bytes) => bytes[index],
            KeptBytes::Packed(packed) => packed.get(index),
        }
    }

    /// The `len` bytes from number `start` (a multiple of
    /// [`packed::BLOCK`], `len` at most that), into `out`.
    fn read_into(&self, start: usize, len: usize, out: &mut Vec<u8>) {
        out.clear();
        match self {
            KeptBytes::Plain(bytes) => out.extend_from_slice(&bytes[start..start + len]),
            KeptBytes::Packed(bytes) => bytes.block_into(start / packed::BLOCK, out),
        }
        debug_assert_eq!(out.len(), len);
    }
}

/// The sides of a slice built that steps read: the side to move after a
/// pawn's step, so a side is kept only when the other side has pawns.
type KeptSlice = ByColor<Option<KeptBytes>>;

/// What a build holds between slices: the slices still read, and the
/// positions deeper than a byte.
struct Held {
    slices: Vec<Option<KeptSlice>>,
    /// The sides to move that pawn steps lead into.
    read: ByColor<bool>,
    slice_len: usize,
    /// The slices no slice reads once slice `i` is built: those whose
    /// last reader (in the order of the build) it is.
    unread_after: Vec<Vec<usize>>,
    deep: ByColor<HashMap<usize, u16>>,
}

impl Held {
    fn built(&self) -> Built<'_> {
        Built {
            slices: &self.slices,
            slice_len: self.slice_len,
            deep: &self.deep,
        }
    }

    /// Takes in a slice just built and hands it to `sink`; drops the
    /// slices no slice left reads.
    fn absorb(
        &mut self,
        (slice, bytes, overflow): (usize, ByColor<Vec<u8>>, Overflow),
        sink: &mut dyn SliceSink,
    ) -> Result<(), TableError> {
        let first = slice * self.slice_len;
        for turn in Color::ALL {
            self.deep[turn].extend(
                overflow
                    .side(turn)
                    .iter()
                    .map(|&(index, plies)| (first + index, plies)),
            );
        }
        sink.put(first, bytes.as_ref().map(Vec::as_slice))?;
        if !self.unread_after[slice].contains(&slice) {
            let read = self.read;
            self.slices[slice] = Some(
                bytes
                    .zip_color()
                    .map(|(turn, bytes)| read[turn].then(|| KeptBytes::new(bytes))),
            );
        }
        for &unread in &self.unread_after[slice] {
            self.slices[unread] = None;
        }
        Ok(())
    }
}

/// Slices of at least this many numbers are large: built a few at a time
/// ([`large_at_once`]), each by every core (the engine works by blocks in
/// parallel), so that few are in memory at once, and kept compressed while
/// slices still to build step into them; smaller ones, which would keep
/// one core busy each, a level in parallel.
pub(crate) const LARGE_SLICE_FROM: usize = 1 << 20;

/// Large slices of fewer numbers than this (five men's: 64^4) are built
/// two at a time, so that the cores seldom wait for each other at the end
/// of a step of one slice; larger ones (six men's: 64^5) one at a time,
/// since two would hold 4 GiB more.
pub(crate) const TWO_AT_A_TIME_BELOW: usize = 1 << 26;

/// How many large slices of `slice_len` numbers are built at once.
pub(crate) fn large_at_once(slice_len: usize) -> usize {
    if slice_len < TWO_AT_A_TIME_BELOW {
        2
    } else {
        1
    }
}

/// What a test may change in a build: the engine's settings, and how many
/// slices of a table with pawns are built at once.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Tuning {
    /// The deepest plies a byte may hold: deeper positions go into the
    /// overflow list. A test lowers it to try the overflow on tables that
    /// do not need it.
    pub limit: u16,
    /// A test forces each way to check it against the other.
    pub ways: Ways,
    /// Slices of a table with pawns with at least this many numbers are
    /// large ([`LARGE_SLICE_FROM`]); a test lowers it to take that
    /// way on a small table.
    pub large_slices_from: usize,
    /// How many large slices of a number of numbers are built at once
    /// ([`large_at_once`]); a test tries one and two.
    pub large_at_once: fn(usize) -> usize,
}

impl Tuning {
    pub const PRODUCTION: Tuning = Tuning {
        limit: MAX_PLIES,
        ways: Ways::Cheaper,
        large_slices_from: LARGE_SLICE_FROM,
        large_at_once,
    };

    /// The engine's part.
    pub fn settings(&self) -> Settings {
        Settings {
            limit: self.limit,
            ways: self.ways,
        }
    }

    /// How many large slices of `slice_len` numbers are built at once.
    pub fn large_at_once(&self, slice_len: usize) -> usize {
        (self.large_at_once)(slice_len)
    }
}

/// Builds the bytes of a material with pawns, slice by slice, most
/// advanced first, and hands each slice to `sink`; the slices of one
/// advancement lead into none of each other. Memory holds the slices
/// being built and those that pawn steps of slices still to build lead
/// into (large ones compressed), not the whole table. `captures` must hold
/// every table a capture that does not promote leads into; the tables
/// promotions lead into are had from `promotion_tables` a batch of
/// promoting roles of one side ([`promotion_batches`]) at a time, one side
/// to move of each, while a slice (small ones: a few levels) with a pawn
/// on its seventh rank is gathered for. Returns the positions deeper than
/// a byte.
pub(crate) fn build(
    material: &Material,
    captures: &Subtables,
    promotion_tables: &PromotionTables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    tuning: Tuning,
    journal: Option<&Journal>,
    sink: &mut dyn SliceSink,
) -> Result<Overflow, TableError> {
    let indexer = SliceIndexer::shared(material);
    let men = indexer.men_in_order(material);
    let mut last_reader: Vec<usize> = (0..indexer.slices()).collect();
    for reader in 0..indexer.slices() {
        for push in Steps::of(&indexer, &men, reader).pushes.iter().flatten() {
            last_reader[push.child] = last_reader[push.child].max(reader);
        }
    }
    let mut unread_after = vec![Vec::new(); indexer.slices()];
    for (slice, &reader) in last_reader.iter().enumerate() {
        unread_after[reader].push(slice);
    }
    let slice_len = indexer.slice_len();
    let mut held = Held {
        slices: (0..indexer.slices()).map(|_| None).collect(),
        read: ByColor::new_with(|turn| men.iter().any(|&man| man == Role::Pawn.of(!turn))),
        slice_len,
        unread_after,
        deep: ByColor::default(),
    };
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let total = indexer.slices() as u64;
    let inner = |_: Progress| {
        if stop.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let exit_tables = ExitTables::new(&men, captures, ExitMoves::Captures)?;
    let promoting = |slice: &usize| {
        Color::ALL
            .into_iter()
            .any(|c| indexer.slices[*slice].on_seventh(c))
    };
    // The best promotions of each side in `slices`, each promoting side's
    // tables had once for all of them.
    let gather = |slices: &[usize]| {
        let mut gathered: HashMap<usize, ByColor<Option<Promoted>>> = HashMap::new();
        for turn in Color::ALL {
            let of_turn: Vec<usize> = slices
                .iter()
                .copied()
                .filter(|&slice| indexer.slices[slice].on_seventh(turn))
                .collect();
            if of_turn.is_empty() {
                continue;
            }
            let found =
                Promoted::gather(&indexer, material, &men, &of_turn, turn, promotion_tables)?;
            for (slice, found) in of_turn.into_iter().zip(found) {
                gathered.entry(slice).or_default()[turn] = Some(found);
            }
        }
        Ok::<_, TableError>(gathered)
    };
    let mut gathered: HashMap<usize, ByColor<Option<Promoted>>> = HashMap::new();
    for (l, slices) in indexer.levels.iter().enumerate() {
        if slice_len < tuning.large_slices_from
            && slices
                .clone()
                .any(|slice| promoting(&slice) && !gathered.contains_key(&slice))
        {
            // Small slices: this level's promotions and those of the next
            // levels, as many as the budget holds, gathered together.
            let mut batch = Vec::new();
            for level in &indexer.levels[l..] {
                let more: Vec<usize> = level.clone().filter(promoting).collect();
                let bytes = (batch.len() + more.len()) * slice_len * size_of::<u16>();
                if !batch.is_empty() && bytes > GATHER_BUDGET {
                    break;
                }
                batch.extend(more);
            }
            gathered.extend(gather(&batch)?);
        }
        let slice_done = |number: usize, kept: bool| {
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            let pawns = indexer.pawns(number);
            if progress(Progress::Slice {
                done,
                total,
                pawns,
                kept,
            })
            .is_break()
            {
                stop.store(true, Ordering::Relaxed);
            }
        };
        // A slice an earlier build of this table kept.
        let kept = |number: usize| {
            let kept = journal?.load(number)?;
            slice_done(number, true);
            Some((number, kept.bytes, kept.overflow))
        };
        let build_one = |slice: (usize, ByColor<Option<Promoted>>), built: Built| {
            let mut bytes = ByColor::new_with(|_| zeroed(slice_len));
            let number = slice.0;
            let layout = SliceLayout::new(&indexer, &men, &exit_tables, slice, built);
            let overflow = run_layout(
                layout,
                bytes.as_mut().map(Vec::as_mut_slice),
                material,
                &inner,
                tuning.settings(),
            )?;
            let one = SliceBytes { bytes, overflow };
            if let Some(journal) = journal {
                journal.save(number, &one)?;
            }
            slice_done(number, false);
            Ok::<_, TableError>((number, one.bytes, one.overflow))
        };
        // The slices of `group` an earlier build kept, read back, and the
        // numbers of the others, to build.
        let read_back = |group: &[usize]| {
            let mut ones = Vec::with_capacity(group.len());
            let mut fresh = Vec::with_capacity(group.len());
            for &slice in group {
                match kept(slice) {
                    Some(one) => ones.push(one),
                    None => fresh.push(slice),
                }
            }
            (ones, fresh)
        };
        // Builds the slices `fresh` in parallel, their promotions taken
        // from `promoted`, and hands them and `ones` (read back) to the
        // sink in the order of their numbers.
        let mut build_rest =
            |mut ones: Vec<(usize, ByColor<Vec<u8>>, Overflow)>,
             fresh: Vec<usize>,
             promoted: &mut HashMap<usize, ByColor<Option<Promoted>>>| {
                for (number, ..) in &ones {
                    promoted.remove(number);
                }
                let jobs: Vec<_> = fresh
                    .into_iter()
                    .map(|slice| (slice, promoted.remove(&slice).unwrap_or_default()))
                    .collect();
                let built = held.built();
                ones.extend(
                    jobs.into_par_iter()
                        .map(|job| build_one(job, built))
                        .collect::<Result<Vec<_>, TableError>>()?,
                );
                ones.sort_unstable_by_key(|one| one.0);
                for one in ones {
                    held.absorb(one, sink)?;
                }
                Ok::<_, TableError>(())
            };
        let numbers: Vec<usize> = slices.clone().collect();
        if slice_len >= tuning.large_slices_from {
            // Large slices, a few at a time: their promotions gathered
            // just before they are built, so that few slices' are held.
            for group in numbers.chunks(tuning.large_at_once(slice_len)) {
                let (ones, fresh) = read_back(group);
                let mut promoted = gather(&fresh)?;
                build_rest(ones, fresh, &mut promoted)?;
            }
        } else {
            // Small slices: the whole advancement, its promotions
            // gathered already.
            let (ones, fresh) = read_back(&numbers);
            build_rest(ones, fresh, &mut gathered)?;
        }
    }
    let Held { mut deep, .. } = held;
    let listed = ByColor::new_with(|turn| {
        let mut listed: Vec<(usize, u16)> = deep[turn].drain().collect();
        listed.sort_unstable();
        listed
    });
    Ok(Overflow::new(tuning.limit, listed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_inverts_decode() {
        for name in ["KPvK", "KPPvK", "KPvKP", "KRPvKP", "KPPvKP"] {
            let material: Material = name.parse().unwrap();
            let ix = SliceIndexer::new(&material);
            let step = ix.size() / 5000 + 1;
            for index in (0..ix.size()).step_by(step) {
                let squares = ix.decode(index);
                assert_eq!(ix.encode(&squares[..material.len()]), Some(index), "{name}");
                let mirror: Vec<Square> = squares[..material.len()]
                    .iter()
                    .map(|s| s.flip_horizontal())
                    .collect();
                let symmetric = ix.symmetric(ix.slice_of(index));
                assert_eq!(ix.encode(&mirror) == Some(index), !symmetric, "{name}");
            }
        }
    }

    #[test]
    fn like_pawns_are_numbered_once_and_slices_go_most_advanced_first() {
        let material: Material = "KPPvK".parse().unwrap();
        let ix = SliceIndexer::new(&material);
        // Two like pawns on 48 squares, a placement and its mirror image
        // once: (1128 + 24 symmetric pairs) / 2.
        assert_eq!(ix.slices(), (48 * 47 / 2 + 24) / 2);
        let both = [Square::E1, Square::E8, Square::B2, Square::C7];
        let swapped = [Square::E1, Square::E8, Square::C7, Square::B2];
        assert_eq!(ix.encode(&both), ix.encode(&swapped));
        let advancement: Vec<u32> = ix.slices.iter().map(PawnSquares::advancement).collect();
        assert!(advancement.is_sorted_by(|a, b| a >= b));
        assert_eq!(ix.levels.len(), 11);
        let on_eighth = [Square::E1, Square::E8, Square::B8, Square::C7];
        assert_eq!(ix.encode(&on_eighth), None);
    }

    #[test]
    fn pawns_read_white_then_black() {
        let material: Material = "KPvKP".parse().unwrap();
        let ix = SliceIndexer::new(&material);
        let index = ix
            .encode(&[Square::E1, Square::E8, Square::E4, Square::D5])
            .unwrap();
        assert_eq!(ix.pawns(ix.slice_of(index)).to_string(), "d4 v e5");
    }

    #[test]
    fn a_promotions_code_keeps_its_value() {
        let values = [
            Value::Draw,
            Value::Win(1),
            Value::Loss(0),
            Value::Loss(2),
            Value::Win(1023),
            Value::Loss(1022),
        ];
        for value in values {
            let code = Promoted::code(value);
            assert_ne!(code, 0);
            assert_eq!(Promoted::value(code), Some(value));
        }
        assert_eq!(Promoted::value(0), None);
    }
}
