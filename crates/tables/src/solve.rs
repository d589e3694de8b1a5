//! The ranking method: a table built backwards from the mates, one rank (ply)
//! at a time.
//!
//! Rank 0 holds the mates. The positions of rank n are found from those of
//! rank n - 1 by retracting moves: a position with a move into a lost one is
//! won one ply later; a position all of whose moves lead into won positions is
//! lost, and the moment the last of its children is found a win is the
//! moment it gets its rank. Each position keeps a count of its children not
//! yet known to win for the opponent, so no layer re-scans the table.
//! Captures lead into smaller tables, built first, whose values are known
//! from the start.

use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicU16, AtomicU64, Ordering},
    },
};

use rayon::prelude::*;
use shakmaty::{ByColor, Color};

use crate::{
    error::TableError,
    index::{Indexer, Squares},
    material::Material,
    rules::{Move, Rules},
    table::Table,
    value::{ILLEGAL, MAX_PLIES, UNDECIDED, Value, decode_byte, encode_plies},
    variant::Variant,
};

/// Where a build stands, for a progress display.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The first pass: table numbers (both sides to move) examined so far,
    /// of `total`.
    FirstPass { examined: u64, total: u64 },
    /// Rank `rank` is done; `decided` positions (both sides to move) have a
    /// value so far. How many ranks there will be is known only at the end.
    Rank { rank: u16, decided: u64 },
}

/// The tables a capture leads into.
pub type Subtables = HashMap<Material, Arc<Table>>;

/// A queued position: the side to move in the top bit, the number below.
type Entry = u32;

const BLACK_BIT: u32 = 1 << 31;

fn entry(turn: Color, index: usize) -> Entry {
    index as u32 | if turn == Color::Black { BLACK_BIT } else { 0 }
}

fn split(entry: Entry) -> (Color, usize) {
    let turn = if entry & BLACK_BIT != 0 {
        Color::Black
    } else {
        Color::White
    };
    (turn, (entry & !BLACK_BIT) as usize)
}

/// Positions to be settled at a given rank, gathered by one worker.
type Found = Vec<(u16, Entry)>;

/// What the captures of a position lead to, seen by the side that captures.
#[derive(Default)]
struct Captures {
    /// Plies of the fastest win by a capture.
    win: Option<u16>,
    /// Plies of the slowest loss by a capture.
    loss: u16,
    /// Some capture leads to a draw.
    draw: bool,
    /// There is a capture at all.
    any: bool,
}

impl Captures {
    /// Takes in a capture whose position has `child` for the opponent.
    fn add(&mut self, child: Value) {
        self.any = true;
        match child {
            Value::Loss(p) => self.win = Some(self.win.map_or(p + 1, |w| w.min(p + 1))),
            Value::Win(p) => self.loss = self.loss.max(p + 1),
            Value::Draw => self.draw = true,
        }
    }
}

/// Sorts `numbers` and moves the distinct ones to the front; returns how
/// many there are.
fn distinct(numbers: &mut [usize]) -> usize {
    numbers.sort_unstable();
    let mut n = 0;
    for i in 0..numbers.len() {
        if i == 0 || numbers[i] != numbers[n - 1] {
            numbers[n] = numbers[i];
            n += 1;
        }
    }
    n
}

/// The state of one build.
struct Builder<'a> {
    indexer: Indexer,
    rules: Rules,
    /// The table a capture of each man leads into (orthodox chess only).
    capture_tables: Vec<Option<&'a Table>>,
    /// Per position, one cell: the value byte in the low half; in the high
    /// half 0 until first asked, then 1 + the number of children not yet
    /// known to be won by the opponent. Value and count share a cache line.
    cells: ByColor<Vec<AtomicU16>>,
    progress_done: AtomicU64,
}

const COUNT: u16 = 0x100;

/// Zeroed cells, on huge pages where the system allows: the ranks jump all
/// over a table of hundreds of megabytes, and with 4 KiB pages most of
/// those jumps miss the TLB.
fn zeroed_cells(len: usize) -> Vec<AtomicU16> {
    let mut cells: Vec<AtomicU16> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        let bytes = len * std::mem::size_of::<AtomicU16>();
        let start = cells.as_mut_ptr() as usize;
        let page = 4096;
        let aligned = start.next_multiple_of(page);
        if bytes > 2 * page {
            // SAFETY: advice on pages inside this vector's own allocation,
            // before any of them is touched; it changes no contents.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    (start + bytes - aligned) / page * page,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    cells.resize_with(len, || AtomicU16::new(0));
    cells
}

#[inline]
fn value_byte(cell: u16) -> u8 {
    (cell & 0xff) as u8
}

/// Numbers handled by one parallel task.
const CHUNK: usize = 1 << 14;

impl<'a> Builder<'a> {
    fn value_of_capture(&self, squares: &Squares, mv: Move, turn: Color) -> Value {
        let captured = mv.captured.expect("a capture");
        let Some(table) = self.capture_tables[captured] else {
            // The fixed-king game: black took a white man, the attempt failed.
            return Value::Draw;
        };
        let mut after = *squares;
        after[mv.man] = mv.to;
        let after = self.rules.without(&after, captured);
        table
            .value_of(&after, !turn)
            .expect("a legal move leads to a legal position")
    }

    fn captures(&self, squares: &Squares, turn: Color) -> Captures {
        let mut found = Captures::default();
        let targets = self.rules.capturable(squares, !turn);
        self.rules.moves_while(squares, turn, targets, |mv| {
            found.add(self.value_of_capture(squares, mv, turn));
            true
        });
        found
    }

    /// Number of distinct positions the quiet moves lead to, plus one if a
    /// capture draws: the children that must all turn out won for the
    /// opponent before this position is lost.
    fn open_children(&self, index: usize, squares: &Squares, turn: Color) -> u8 {
        let merge = self.indexer.may_merge(squares);
        let mut children = [0usize; 128];
        let mut len = 0;
        let mut drawing_capture = false;
        self.rules
            .for_each_move(squares, turn, |mv| match mv.captured {
                None => {
                    if merge {
                        children[len] = self
                            .indexer
                            .moved(index, squares, mv.man, mv.to)
                            .expect("legal");
                    }
                    len += 1;
                }
                Some(_) => {
                    drawing_capture |= self.value_of_capture(squares, mv, turn) == Value::Draw
                }
            });
        let distinct = if merge {
            distinct(&mut children[..len])
        } else {
            len
        };
        (distinct + usize::from(drawing_capture)) as u8
    }

    /// First pass over one number for one side to move.
    fn examine(&self, index: usize, turn: Color, found: &mut Found) {
        let slot = &self.cells[turn][index];
        let Some(squares) = self.indexer.decode(index) else {
            slot.store(u16::from(ILLEGAL), Ordering::Relaxed);
            return;
        };
        if !self.rules.is_legal(&squares, turn) {
            slot.store(u16::from(ILLEGAL), Ordering::Relaxed);
            return;
        }
        let in_check = self.rules.in_check(&squares, turn);
        if !in_check && !self.rules.threatens_capture(&squares, turn) {
            // Every move is quiet: the position is settled from its children.
            return;
        }
        let captures = self.captures(&squares, turn);
        let settled = match captures.win {
            Some(win) => Some(win),
            None if captures.draw || self.rules.has_quiet_move(&squares, turn) => None,
            // Every move is a capture that loses, or there is no move.
            None if captures.any => Some(captures.loss),
            None => in_check.then_some(0),
        };
        if let Some(plies) = settled {
            slot.store(
                u16::from(encode_plies(plies.min(MAX_PLIES))),
                Ordering::Relaxed,
            );
            found.push((plies, entry(turn, index)));
        }
    }

    /// Settles the positions one ply before a position of rank `rank`.
    /// Returns false for a stale entry (the position was settled earlier at
    /// a lower rank).
    fn retract(&self, e: Entry, rank: u16, found: &mut Found) -> bool {
        let (turn, index) = split(e);
        if value_byte(self.cells[turn][index].load(Ordering::Relaxed)) != encode_plies(rank) {
            return false;
        }
        let squares = self
            .indexer
            .decode(index)
            .expect("queued numbers are canonical");
        let mover = !turn;
        let mut parents = [0usize; 128];
        let mut len = 0;
        self.rules
            .for_each_retraction(&squares, mover, |man, from| {
                if let Some(parent) = self.indexer.moved(index, &squares, man, from)
                    && value_byte(self.cells[mover][parent].load(Ordering::Relaxed)) != ILLEGAL
                {
                    parents[len] = parent;
                    len += 1;
                }
            });
        let parents = if self.indexer.may_merge(&squares) {
            let n = distinct(&mut parents[..len]);
            &parents[..n]
        } else {
            &parents[..len]
        };
        for &parent in parents {
            let slot = &self.cells[mover][parent];
            if rank.is_multiple_of(2) {
                // This position is lost: the parent wins one ply later.
                let win = encode_plies(rank + 1);
                let improved = slot.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |cell| {
                    let old = value_byte(cell);
                    // A stored win (even byte) may be a slower capture win.
                    (old == UNDECIDED || (old != ILLEGAL && old.is_multiple_of(2) && old > win))
                        .then_some(cell & !0xff | u16::from(win))
                });
                if improved.is_ok() {
                    found.push((rank + 1, entry(mover, parent)));
                }
            } else {
                let cell = slot.load(Ordering::Relaxed);
                if value_byte(cell) != UNDECIDED {
                    continue;
                }
                if cell == 0 {
                    let before = self.indexer.decode(parent).expect("canonical");
                    let open = self.open_children(parent, &before, mover);
                    let _ = slot.compare_exchange(
                        0,
                        (u16::from(open) + 1) * COUNT,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                }
                if slot.fetch_sub(COUNT, Ordering::Relaxed) / COUNT == 2 {
                    // Every child is won by the opponent.
                    let before = self.indexer.decode(parent).expect("canonical");
                    let plies = (rank + 1).max(self.captures(&before, mover).loss);
                    slot.store(
                        u16::from(encode_plies(plies.min(MAX_PLIES))),
                        Ordering::Relaxed,
                    );
                    found.push((plies, entry(mover, parent)));
                }
            }
        }
        true
    }
}

/// Builds the table of `material` in `variant`. `subtables` must hold the
/// table of every material a capture leads to (none for the fixed-king
/// game, where a capture ends the game).
pub fn build(
    material: &Material,
    variant: Variant,
    subtables: &Subtables,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Table, TableError> {
    let indexer = Indexer::new(material.len(), variant);
    let size = indexer.size();
    let total = 2 * size as u64;
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
    let builder = Builder {
        rules: Rules::new(material, variant),
        capture_tables,
        cells: ByColor::new_with(|_| zeroed_cells(size)),
        indexer,
        progress_done: AtomicU64::new(0),
    };

    let mut ranks: Vec<Vec<Entry>> = vec![Vec::new(); usize::from(MAX_PLIES) + 2];
    let file = |found: Vec<Found>, ranks: &mut Vec<Vec<Entry>>| -> Result<(), TableError> {
        for (plies, e) in found.into_iter().flatten() {
            if plies > MAX_PLIES {
                return Err(TableError::TooDeep(material.clone()));
            }
            ranks[usize::from(plies)].push(e);
        }
        Ok(())
    };

    for turn in Color::ALL {
        let found: Vec<Found> = (0..size)
            .into_par_iter()
            .step_by(CHUNK)
            .map(|start| {
                let mut found = Found::new();
                for index in start..(start + CHUNK).min(size) {
                    builder.examine(index, turn, &mut found);
                }
                let step = CHUNK.min(size - start) as u64;
                let examined = builder.progress_done.fetch_add(step, Ordering::Relaxed) + step;
                progress(Progress::FirstPass { examined, total });
                found
            })
            .collect();
        file(found, &mut ranks)?;
    }

    let mut decided: u64 = 0;
    for rank in 0..=MAX_PLIES {
        let mut queue = std::mem::take(&mut ranks[usize::from(rank)]);
        // In table order, neighbouring positions have neighbouring parents:
        // far fewer cache misses than in the order they were found.
        queue.par_sort_unstable();
        let (found, settled): (Vec<Found>, Vec<u64>) = queue
            .par_chunks(CHUNK / 16)
            .map(|chunk| {
                let mut found = Found::new();
                let settled = chunk
                    .iter()
                    .filter(|&&e| builder.retract(e, rank, &mut found))
                    .count();
                (found, settled as u64)
            })
            .unzip();
        decided += settled.iter().sum::<u64>();
        file(found, &mut ranks)?;
        progress(Progress::Rank { rank, decided });
        if ranks.iter().all(Vec::is_empty) {
            break;
        }
    }

    let values = builder.cells.map(|cells| {
        cells
            .into_iter()
            .map(|cell| value_byte(cell.into_inner()))
            .collect::<Vec<u8>>()
    });
    debug_assert!(
        values
            .iter()
            .all(|v| v.iter().all(|&b| decode_byte(b).is_some() || b == ILLEGAL))
    );
    Ok(Table::from_parts(material.clone(), variant, values))
}
