//! The moves of the kings and pieces of a table: the king-pair numbering,
//! runs of 64 numbers, retractions and moves by whole runs. Pawnless
//! material is this alone; a slice of a table with pawns is this with the
//! pawns standing still.

use shakmaty::{Bitboard, ByColor, Color, Square};

use crate::{
    engine::bytes::{ByteTest, line_mask},
    index::{Indexer, LineMap, Squares},
    rules::{Look, Move, Rules, RunLooks},
    table::Table,
    value::Value,
};

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
    pub(crate) indexer: Indexer,
    pub(crate) rules: Rules,
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

    pub(crate) fn value_of_capture(&self, squares: &Squares, mv: Move, turn: Color) -> Value {
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
    pub(crate) fn decode(&self, index: usize) -> Option<Squares> {
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
    pub(crate) fn moving_into(
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
    pub(crate) fn works_by_runs(&self) -> bool {
        self.indexer.men() >= 3
    }

    /// Whether `turn` has a legal move inside the table.
    #[inline(always)]
    pub(crate) fn has_inside_move(&self, squares: &Squares, turn: Color) -> bool {
        self.rules.has_quiet_move(squares, turn)
    }

    /// Calls `f(parent)` for the number of every placement (legal or not)
    /// from which `!turn` reaches number `index` (placement `squares`,
    /// `turn` to move) by a move inside the table.
    #[inline(always)]
    pub(crate) fn retractions(
        &self,
        index: usize,
        squares: &Squares,
        turn: Color,
        mut f: impl FnMut(usize),
    ) {
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
    pub(crate) fn run_retractions(
        &self,
        start: usize,
        positions: u64,
        turn: Color,
        mut f: impl FnMut(usize),
    ) {
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
    pub(crate) fn inside_moves_while(
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
