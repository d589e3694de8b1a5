//! Promotions: the best promotion of every position of a slice gathered
//! before it is built, the tables promotions lead into read whole or a block
//! at a time, and the batches of roles gathered together.

use std::{self, sync::Arc};

use rayon::prelude::*;
use shakmaty::{Bitboard, ByColor, Color, Piece, Rank, Role, Square};

use crate::{
    engine::{
        layout::Exits,
        pieces::{Looked, Pieces},
    },
    error::TableError,
    format::{CHUNK, ChunkedTable},
    index::{Indexer, Squares},
    material::{MAX_MEN, Material},
    overflow::Overflow,
    pawns::exits::{ExitMoves, ExitTables, PROMOTIONS, Roles, ahead, exit_reads, quiet_promotion},
    slices::SliceIndexer,
    table::{Subtables, Table},
    value::Value,
    variant::Variant,
};

/// The best promotion of every position of a slice for one side to move,
/// by number inside the slice: its value for the opponent, 0 for none, 1 a
/// draw, 2 + 2p a win in p plies, 3 + 2p a loss in p plies. Gathered for
/// every promoting role at once, so that a position is looked at once,
/// unless the tables they lead into take too much memory together
/// ([`promotion_batches`]).
pub(crate) struct Promoted(Vec<u16>);

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
    pub(crate) fn add_to(&self, exits: &mut Exits, index: usize) {
        if let Some(value) = Promoted::value(self.0[index]) {
            exits.add(value);
        }
    }

    /// The best promotions of side `turn` in each of `slices`, the tables
    /// they lead into had from `promotion_tables` (those of a batch of
    /// roles of `batches`, at a time). The tables promotions
    /// that take nothing lead into, if their files are open, are read a
    /// block at a time ([`read_by_blocks`]): without pawns, the numbers of
    /// one placement of their kings, which are the slice's kings, so that
    /// the numbers of the slices with the same kings are gathered together;
    /// with pawns, the slices a slice's promotions reach.
    pub(crate) fn gather(
        indexer: &SliceIndexer,
        material: &Material,
        men: &[Piece],
        slices: &[usize],
        turn: Color,
        batches: &[Roles],
        promotion_tables: &PromotionTables,
    ) -> Result<Vec<Promoted>, TableError> {
        let mut gathered: Vec<Promoted> = slices
            .iter()
            .map(|_| Promoted(vec![0; indexer.slice_len()]))
            .collect();
        let pieces: Vec<Pieces> = slices
            .iter()
            .map(|&slice| crate::pawns::pieces_of(indexer, men, slice))
            .collect();
        for &roles in batches {
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
    pub(crate) fn gather(
        &self,
        gathered: &mut [Promoted],
        pieces: &[Pieces],
    ) -> Result<(), TableError> {
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

/// Numbers a thread gathers promotions for at a time.
const PROMOTED_BLOCK: usize = 4096;

/// Gives the table of a material a promotion leads into (by its canonical
/// name), from memory or its file, with at least the values of the given
/// sides to move (those a promotion's values are read for,
/// [`crate::pawns::exits::exit_reads`]), read as `Reading` allows; only the tables
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

/// The most bytes the tables one side's promotions lead into may take,
/// as a build reads them, for its promotions to every role to be
/// gathered at once; past it they are gathered a role at a time.
const PROMOTIONS_TOGETHER: u64 = 1 << 30;

/// The roles whose promotions of `color` a build of `material` gathers
/// together: all four, so that each position is looked at once, when
/// the tables they lead into take at most [`PROMOTIONS_TOGETHER`]; else
/// one at a time.
pub(crate) fn promotion_batches(material: &Material, color: Color) -> Vec<Roles> {
    if promotion_table_bytes_of(material, color, Roles::ALL) <= PROMOTIONS_TOGETHER {
        vec![Roles::ALL]
    } else {
        (0..PROMOTIONS.len()).map(Roles::one).collect()
    }
}

/// The bytes of the tables the promotions of `color` to `roles` lead
/// into, the sides a promotion reads: whole, but for the tables read a
/// block at a time ([`read_by_blocks`]), of which the windows held at
/// once ([`windows_held`]).
pub(crate) fn promotion_table_bytes_of(material: &Material, color: Color, roles: Roles) -> u64 {
    let by_blocks = read_by_blocks(material, color, roles);
    let whole = exit_reads(material, ExitMoves::Promotions(color, roles))
        .into_iter()
        .filter(|(table, _)| by_blocks.iter().all(|(_, read)| read != table))
        .collect();
    let windows: u64 = by_blocks
        .iter()
        .map(|(_, table)| windows_held(material, color, table))
        .sum();
    read_bytes(whole) + windows
}

/// Bytes of the sides of tables read, a byte a number.
pub(crate) fn read_bytes(reads: Vec<(Material, Vec<Color>)>) -> u64 {
    reads
        .iter()
        .map(|(table, sides)| {
            sides.len() as u64 * Table::numbers_per_side(table, Variant::Standard) as u64
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

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
