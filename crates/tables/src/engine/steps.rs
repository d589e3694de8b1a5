//! The steps of a build, ply by ply: the first pass, wins retracted from
//! losses, candidates marked from wins, and candidates verified by their
//! moves.

use std::{
    collections::HashMap,
    sync::{
        Mutex,
        atomic::{AtomicU8, AtomicUsize, Ordering},
    },
};

use rayon::prelude::*;
use shakmaty::{Bitboard, ByColor, Color, Square};

use crate::{
    engine::{
        bytes::{
            BLOCK, ByteTest, CANDIDATE, Changeable, Equal, OpenRuns, RUN_PER_MARKED,
            RUN_PER_RETRACTED, SAFE, Tally, Unrefuting, Verified, Written, all_runs, atomic,
            line_mask, prefetch,
        },
        layout::{CaptureByte, Captures, Exits, Layout},
        pieces::{Looked, Run},
    },
    index::Squares,
    rules::{Look, RunLooks},
    sync::lock,
    value::{DEEP, HARD_MAX_PLIES, ILLEGAL, UNDECIDED, encode_plies},
};

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

/// What a test may change in the engine.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Settings {
    /// The deepest plies a byte may hold: deeper positions go into the
    /// overflow list. A test lowers it to try the overflow on tables that
    /// do not need it.
    pub limit: u16,
    /// A test forces each way to check it against the other.
    pub ways: Ways,
}

/// The state of one build.
pub(crate) struct Engine<L> {
    pub(crate) layout: L,
    written: ByColor<Vec<Written>>,
    /// By side to move, the runs of each block the steps by moves visit.
    open: ByColor<Vec<OpenRuns>>,
    /// The largest plies of any decisive value written so far.
    pub(crate) deepest: AtomicUsize,
    /// The deepest plies stored in a byte: a deeper decisive position's
    /// byte is [`DEEP`] and its plies are in `deep`.
    limit: u16,
    /// How each step chooses its way.
    ways: Ways,
    /// The plies of the positions whose byte is [`DEEP`], by side to move
    /// (an entry whose byte is no longer DEEP is stale and ignored).
    pub(crate) deep: ByColor<Mutex<HashMap<usize, u16>>>,
}

/// A mate deeper than the overflow list holds ([`HARD_MAX_PLIES`]): the
/// build cannot go on ([`TableError::TooDeep`](crate::error::TableError::TooDeep)).
#[derive(Debug)]
pub(crate) struct PastBound;

impl<L: Layout> Engine<L> {
    /// The state of a build of `layout` before its first pass.
    pub(crate) fn new(layout: L, settings: Settings) -> Engine<L> {
        let blocks = layout.size().div_ceil(BLOCK);
        Engine {
            layout,
            written: ByColor::new_with(|_| (0..blocks).map(|_| Written::default()).collect()),
            open: ByColor::new_with(|_| (0..blocks).map(|_| OpenRuns::default()).collect()),
            deepest: AtomicUsize::new(0),
            limit: settings.limit,
            ways: settings.ways,
            deep: ByColor::new_with(|_| Mutex::new(HashMap::new())),
        }
    }

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
    pub(crate) fn wins_by_moves_pay(
        &self,
        turn: Color,
        plies: u16,
        counts: &ByColor<Tally>,
    ) -> bool {
        let possible = self.ways != Ways::Retracting
            && self.layout.pieces().works_by_runs()
            && plies < self.limit
            && lock(&self.deep[!turn]).is_empty();
        possible
            && (self.ways == Ways::ByMoves
                || self.open_runs(!turn, OpenRuns::changeable) * RUN_PER_RETRACTED
                    < counts[turn].of(encode_plies(plies)))
    }

    /// Whether step 3 for `turn` at `plies` verifies every undecided
    /// position of the open runs rather than the candidates that step 2
    /// would mark from the opponent's wins in `plies`: when marking would
    /// visit more.
    pub(crate) fn verify_undecided_pays(
        &self,
        turn: Color,
        plies: u16,
        counts: &ByColor<Tally>,
    ) -> bool {
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
    pub(crate) fn decisive(&self, turn: Color, index: usize, plies: u16) -> Result<u8, PastBound> {
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
        lock(&self.deep[turn]).insert(index, plies);
        DEEP
    }

    /// The plies of a number whose byte is [`DEEP`].
    fn deep_plies(&self, turn: Color, index: usize) -> u16 {
        lock(&self.deep[turn])[&index]
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
    pub(crate) fn first_pass(
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
    /// at a time ([`Pieces::run_retractions`](crate::engine::pieces::Pieces::run_retractions)), and the bytes of a run's
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
            let found: Vec<usize> = lock(&self.deep[turn])
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
    pub(crate) fn wins_from(
        &self,
        turn: Color,
        lost: &[u8],
        parents: &mut [u8],
        plies: u16,
    ) -> u64 {
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
    pub(crate) fn wins_by_moves(
        &self,
        turn: Color,
        lost: &[u8],
        parents: &mut [u8],
        plies: u16,
    ) -> u64 {
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
        let mut deep = lock(&self.deep[turn]);
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
    pub(crate) fn candidates_from(&self, turn: Color, won: &[u8], parents: &mut [u8], plies: u16) {
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
    pub(crate) fn verify(
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
pub(crate) fn split<'a>(
    bytes: &'a mut ByColor<&mut [u8]>,
    read: Color,
) -> (&'a mut [u8], &'a mut [u8]) {
    let ByColor { white, black } = bytes;
    match read {
        Color::White => (white, black),
        Color::Black => (black, white),
    }
}
