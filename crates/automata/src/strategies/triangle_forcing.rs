//! "Shrink the triangle", calculated: for every position of a method's
//! four men (White to move), the fewest moves by which White forces the
//! black king, whatever Black answers, into a smaller triangle White can
//! go on from, or mates him, every move sound and the king never let out
//! of the triangle that holds him (the whole board counting as the
//! largest). Found once per process and method by retrograde analysis
//! over the 64⁴ placements of the four men (docs/guide/src/reference/automata.md,
//! "`bishops`, `bishop-knight`", rule 3). The methods differ only in
//! their men and their triangles ([`Triangles`]).

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;
use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

/// The whole board's stage: the largest triangle, around the three
/// smaller ones (stages 0 to 2).
const WHOLE_BOARD: u8 = 3;

/// The stage of the triangle that holds squares at most `steps` (along
/// files and ranks) from its corner: within 1, 3 or 5 steps, the
/// triangles behind the 3-, 5- and 7-square diagonals (stages 0 to 2);
/// farther, the whole board.
pub(crate) fn triangle_stage(steps: u32) -> u32 {
    match steps {
        0..=1 => 0,
        2..=3 => 1,
        4..=5 => 2,
        _ => u32::from(WHOLE_BOARD),
    }
}

/// A Black-to-move placement that is no step of a forcing: a move into it
/// is unsound, or an answer lets the king out of the triangle.
const NO_STEP: u8 = u8::MAX;

/// A method with triangles to shrink: White's men besides the king (a
/// bishop, and a second man), the squares each may stand on (two bishops
/// stand on squares of both colours), its stages, and its table.
pub(crate) struct Triangles {
    /// The role of White's second man.
    second: Role,
    /// The squares the bishop may stand on.
    bishop_squares: Bitboard,
    /// The squares the second man may stand on.
    second_squares: Bitboard,
    /// The method's stage with the bishop on a square and the black
    /// king's square and the squares he can step to `held`.
    stage: fn(Square, Bitboard) -> u32,
    table: OnceLock<TriangleForcing>,
    /// How far a calculation under way has come: 0 before it starts, then
    /// the stage being calculated plus one ([`MethodTable::progress`]).
    begun: AtomicU8,
    /// The forcing's length reached in that stage, in moves.
    depth: AtomicU8,
}

impl Triangles {
    pub(crate) const fn new(
        second: Role,
        (bishop_squares, second_squares): (Bitboard, Bitboard),
        stage: fn(Square, Bitboard) -> u32,
    ) -> Triangles {
        Triangles {
            second,
            bishop_squares,
            second_squares,
            stage,
            table: OnceLock::new(),
            begun: AtomicU8::new(0),
            depth: AtomicU8::new(0),
        }
    }

    /// The method's table, calculated on first use (a few seconds of all
    /// cores).
    pub(crate) fn forcing(&'static self) -> &'static TriangleForcing {
        self.table.get_or_init(|| TriangleForcing::calculate(self))
    }
}

/// A method's own table, as front ends see it: calculated once per
/// process on first use (seconds of every core), or ahead of the first
/// move by a front end that has the time (UCI in the background, the
/// command line under a spinner).
#[derive(Clone, Copy)]
pub struct MethodTable(&'static Triangles);

impl MethodTable {
    pub(crate) const fn of(triangles: &'static Triangles) -> MethodTable {
        MethodTable(triangles)
    }

    /// Whether it has been calculated: a move needs no wait for it.
    pub fn is_ready(self) -> bool {
        self.0.table.get().is_some()
    }

    /// Calculates it, if that is not done (blocks until it is).
    pub fn calculate(self) {
        self.0.forcing();
    }

    /// How far its calculation has come while it runs (`None` before it
    /// starts and once it is ready): a front end shows it to the person
    /// whose move waits for it.
    pub fn progress(self) -> Option<MethodProgress> {
        let begun = self.0.begun.load(Ordering::Relaxed);
        (!self.is_ready() && begun > 0).then(|| MethodProgress {
            stage: begun - 1,
            stages: WHOLE_BOARD + 1,
            depth: self.0.depth.load(Ordering::Relaxed),
        })
    }
}

/// A method's table under calculation: its stages are the triangles,
/// smallest first, then the whole board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodProgress {
    /// Stages done (the one under way is `stage + 1`).
    pub stage: u8,
    /// Stages in all.
    pub stages: u8,
    /// The longest forcing found so far in the stage under way, in moves.
    pub depth: u8,
}

/// Not the table: a placement's method is known by its men.
impl fmt::Debug for Triangles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Triangles")
            .field("second", &self.second)
            .finish_non_exhaustive()
    }
}

/// The four men's squares: white king, bishop and second man, black
/// king, and the method they are the men of.
#[derive(Debug, Clone, Copy)]
struct Men {
    king: Square,
    bishop: Square,
    second: Square,
    black: Square,
    method: &'static Triangles,
}

impl Men {
    const COUNT: usize = 64 * 64 * 64 * 64;

    fn of(board: &Board, method: &'static Triangles) -> Option<Men> {
        let white = board.by_color(Color::White);
        let bishop = (board.by_role(Role::Bishop) & white & method.bishop_squares).first()?;
        let second = board.by_role(method.second) & white & method.second_squares;
        Some(Men {
            king: board.king_of(Color::White)?,
            bishop,
            second: second.without(bishop).first()?,
            black: board.king_of(Color::Black)?,
            method,
        })
    }

    fn index(self) -> usize {
        ((usize::from(self.king) * 64 + usize::from(self.bishop)) * 64 + usize::from(self.second))
            * 64
            + usize::from(self.black)
    }

    fn at(index: usize, method: &'static Triangles) -> Men {
        let square = |shift: usize| Square::new((index >> shift & 63) as u32);
        Men {
            king: square(18),
            bishop: square(12),
            second: square(6),
            black: square(0),
            method,
        }
    }

    fn white(self) -> Bitboard {
        Bitboard::from(self.king) | Bitboard::from(self.bishop) | Bitboard::from(self.second)
    }

    /// Four distinct squares, each man on a square of his, the kings not
    /// side by side.
    fn placed(self) -> bool {
        (self.white() | Bitboard::from(self.black)).count() == 4
            && self.method.bishop_squares.contains(self.bishop)
            && self.method.second_squares.contains(self.second)
            && !attacks::king_attacks(self.king).contains(self.black)
    }

    /// The attacks of the second man, on `second`, seen through the black
    /// king.
    fn second_attacks(self, second: Square) -> Bitboard {
        attacks::attacks(second, self.method.second.of(Color::White), self.white())
    }

    /// The squares White's men attack, seen through the black king (as
    /// the rules see them).
    fn attacks(self) -> Bitboard {
        attacks::king_attacks(self.king)
            | attacks::bishop_attacks(self.bishop, self.white())
            | self.second_attacks(self.second)
    }

    /// A legal position with White to move: the black king not in check.
    fn white_to_move(self) -> bool {
        self.placed() && !self.attacks().contains(self.black)
    }

    /// The method's stage with the black king's square `held` only.
    fn stage_of_square(self) -> u32 {
        (self.method.stage)(self.bishop, Bitboard::from(self.black))
    }

    /// The stage (the method's) with the black king on `black` and White's
    /// attacks `attacked`: his square and the squares he can step to.
    fn stage_with(self, black: Square, attacked: Bitboard) -> u32 {
        let free = !(attacked | self.white());
        (self.method.stage)(
            self.bishop,
            Bitboard::from(black) | (attacks::king_attacks(black) & free),
        )
    }

    fn stage(self) -> u32 {
        self.stage_with(self.black, self.attacks())
    }

    fn with_black(self, black: Square) -> Men {
        Men { black, ..self }
    }

    /// The placements (White to move) from which a move of White's gives
    /// this one (Black to move), legal or not. A man's moves back are his
    /// moves forward: the second man is a knight or a bishop.
    fn before_white(self) -> impl Iterator<Item = Men> {
        let occupied = self.white() | Bitboard::from(self.black);
        let kings = (attacks::king_attacks(self.king) & !occupied)
            .into_iter()
            .map(move |king| Men { king, ..self });
        let bishops = (attacks::bishop_attacks(self.bishop, occupied) & !occupied)
            .into_iter()
            .map(move |bishop| Men { bishop, ..self });
        let second_piece = self.method.second.of(Color::White);
        let seconds = (attacks::attacks(self.second, second_piece, occupied) & !occupied)
            .into_iter()
            .map(move |second| Men { second, ..self });
        kings.chain(bishops).chain(seconds)
    }
}

/// What a Black-to-move placement is to the forcing of a triangle
/// (White moved from a position held in it).
enum AfterMove {
    /// Mate, or every answer has a smaller triangle's forcing.
    Reached,
    /// Not a step: unsound, or an answer lets the king out.
    Out,
    /// The answers (their black king's squares) still to be forced.
    Within(Bitboard),
}

/// Every placement's forcing ([`TriangleForcing::forcing`]), for one
/// method.
pub(crate) struct TriangleForcing {
    method: &'static Triangles,
    /// The fewest moves, 0 where there is no forcing.
    moves: Vec<u8>,
    /// The stage of the triangle whose forcing it is.
    stages: Vec<u8>,
}

/// A forcing found for a position: the stage of the triangle White keeps
/// the king in, and the fewest moves into a smaller one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Forcing {
    pub(crate) stage: u8,
    pub(crate) moves: u8,
}

impl TriangleForcing {
    /// The forcing from `board` (White to move) in the smallest triangle
    /// that holds the king and has one; `None` if none has.
    pub(crate) fn forcing(&self, board: &Board) -> Option<Forcing> {
        Men::of(board, self.method).and_then(|men| self.at(men))
    }

    fn at(&self, men: Men) -> Option<Forcing> {
        let index = men.index();
        (self.moves[index] > 0).then(|| Forcing {
            stage: self.stages[index],
            moves: self.moves[index],
        })
    }

    /// Whether, whatever Black answers in `child` (Black to move, after
    /// White's move from a position with `forcing`), White forces it with
    /// one move fewer, or has reached a smaller triangle's forcing, or
    /// mated.
    pub(crate) fn keeps(&self, child: &Board, forcing: Forcing) -> bool {
        let Some(men) = Men::of(child, self.method) else {
            return false;
        };
        match self.after_move(men, forcing.stage) {
            AfterMove::Reached => true,
            AfterMove::Out => false,
            AfterMove::Within(answers) => answers.into_iter().all(|black| {
                self.at(men.with_black(black)).is_some_and(|after| {
                    after.stage == forcing.stage && after.moves < forcing.moves
                })
            }),
        }
    }

    /// What `men` (Black to move) is to the forcing of the triangle of
    /// `stage`, with the smaller triangles' forcings found.
    fn after_move(&self, men: Men, stage: u8) -> AfterMove {
        let attacked = men.attacks();
        let to = attacks::king_attacks(men.black) & !attacked;
        if to.is_empty() {
            return match attacked.contains(men.black) {
                true => AfterMove::Reached,
                false => AfterMove::Out,
            };
        }
        if !(to & men.white()).is_empty() {
            return AfterMove::Out;
        }
        let mut within = Bitboard::EMPTY;
        for black in to {
            let after = men.with_black(black);
            match self.at(after) {
                Some(forcing) if forcing.stage < stage => (),
                _ if men.stage_with(black, attacked) <= u32::from(stage) => within.add(black),
                _ => return AfterMove::Out,
            }
        }
        match within.is_empty() {
            true => AfterMove::Reached,
            false => AfterMove::Within(within),
        }
    }

    /// The retrograde analysis, the smallest triangle first: a larger
    /// one's forcing ends where a smaller one's begins.
    fn calculate(method: &'static Triangles) -> TriangleForcing {
        let mut table = TriangleForcing {
            method,
            moves: vec![0; Men::COUNT],
            stages: vec![0; Men::COUNT],
        };
        let mut left = vec![NO_STEP; Men::COUNT];
        for stage in 0..=WHOLE_BOARD {
            method.depth.store(0, Ordering::Relaxed);
            method.begun.store(stage + 1, Ordering::Relaxed);
            table.calculate_stage(stage, &mut left);
        }
        table
    }

    /// The forcings of the triangle of `stage`, with `left` (per
    /// Black-to-move placement) the answers still to be forced.
    fn calculate_stage(&mut self, stage: u8, left: &mut [u8]) {
        let table = &*self;
        left.par_iter_mut().enumerate().for_each(|(index, left)| {
            let men = Men::at(index, table.method);
            *left = NO_STEP;
            // Only the king's own square is known here: a triangle that
            // holds him holds it.
            if !men.placed() || men.stage_of_square() > u32::from(stage) {
                return;
            }
            *left = match table.after_move(men, stage) {
                AfterMove::Reached => 0,
                AfterMove::Out => NO_STEP,
                AfterMove::Within(answers) => answers.count() as u8,
            };
        });
        let reached: Vec<usize> = left
            .par_iter()
            .enumerate()
            .filter(|&(_, &left)| left == 0)
            .map(|(index, _)| index)
            .collect();
        let mut moves = 1;
        let mut layer = self.found_before(&reached, stage, moves);
        while !layer.is_empty() {
            let mut reached = Vec::new();
            for &index in &layer {
                let men = Men::at(index, self.method);
                let free = !(men.white() | attacks::king_attacks(men.king));
                for black in attacks::king_attacks(men.black) & free {
                    let before = men.with_black(black).index();
                    if (1..NO_STEP).contains(&left[before]) {
                        left[before] -= 1;
                        if left[before] == 0 {
                            reached.push(before);
                        }
                    }
                }
            }
            moves += 1;
            self.method.depth.store(moves, Ordering::Relaxed);
            layer = self.found_before(&reached, stage, moves);
        }
    }

    /// Marks with `moves` the placements (White to move) held in the
    /// triangle of `stage` and without a forcing yet, from which a move
    /// gives one of `reached`, and returns them.
    fn found_before(&mut self, reached: &[usize], stage: u8, moves: u8) -> Vec<usize> {
        let mut found = Vec::new();
        for &index in reached {
            for before in Men::at(index, self.method).before_white() {
                let at = before.index();
                if self.moves[at] == 0
                    && before.white_to_move()
                    && before.stage() <= u32::from(stage)
                {
                    self.moves[at] = moves;
                    self.stages[at] = stage;
                    found.push(at);
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, Setup};

    use crate::bishop_knight::{self, BishopKnight};
    use crate::bishops;
    use crate::strategy::successors;
    use crate::test_support::{first_reply, position};

    fn position_of(men: Men) -> Chess {
        let mut setup = Setup::empty();
        for (square, piece) in [
            (men.king, Color::White.king()),
            (men.bishop, Color::White.bishop()),
            (men.second, men.method.second.of(Color::White)),
            (men.black, Color::Black.king()),
        ] {
            setup.board.set_piece_at(square, piece);
        }
        setup
            .position(CastlingMode::Standard)
            .expect("a legal placement")
    }

    /// The fewest moves of the forcing of the triangle of `stage` from
    /// `position`, one move deep by shakmaty's moves and the table after
    /// them: a mate, or a move after which Black has a move, none taking
    /// a man, and every answer is forced on from a smaller triangle or in
    /// this one with fewer moves.
    fn one_move_deeper(table: &TriangleForcing, position: &Chess, stage: u8) -> Option<u8> {
        successors(position)
            .filter_map(|(_, child)| {
                if child.is_checkmate() {
                    return Some(1);
                }
                let answers = child.legal_moves();
                if answers.is_empty() || answers.iter().any(|answer| answer.is_capture()) {
                    return None;
                }
                answers
                    .iter()
                    .map(|&answer| {
                        let mut next = child.clone();
                        next.play_unchecked(answer);
                        match table.forcing(next.board()) {
                            Some(after) if after.stage < stage => Some(1),
                            Some(after) if after.stage == stage => Some(after.moves + 1),
                            _ => None,
                        }
                    })
                    .try_fold(1, |most, moves| moves.map(|moves| most.max(moves)))
            })
            .min()
    }

    /// Progress is reported while the table is calculated, stage by
    /// stage, and not once it is ready. A table of its own (the method's
    /// men and stages), so that no other test has calculated it first.
    #[test]
    fn progress_is_reported_while_the_table_is_calculated() {
        let fresh: &'static Triangles = Box::leak(Box::new(Triangles::new(
            Role::Knight,
            (Bitboard::FULL, Bitboard::FULL),
            bishop_knight::stage_of,
        )));
        let method = MethodTable::of(fresh);
        assert_eq!(method.progress(), None, "not begun");
        let calculating = std::thread::spawn(move || method.calculate());
        let mut seen = Vec::new();
        while !calculating.is_finished() {
            seen.extend(method.progress());
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        calculating.join().unwrap();
        assert_eq!(method.progress(), None, "ready");
        assert!(!seen.is_empty(), "no progress seen in seconds of work");
        assert!(seen.windows(2).all(|pair| pair[0].stage <= pair[1].stage));
        assert!(seen.iter().all(|p| p.stages == 4 && p.stage < 4));
    }

    /// A mate in one in the smallest triangle: king a1 held (a2 and b2
    /// taken by the king on b3, b1 by the knight on d2), Bg7 mates.
    #[test]
    fn a_mate_in_one_is_the_smallest_triangles_forcing_of_one_move() {
        let table = bishop_knight::TRIANGLES.forcing();
        let mate = position("8/8/7B/8/8/1K6/3N4/k7 w - - 0 1");
        assert_eq!(
            table.forcing(mate.board()),
            Some(Forcing { stage: 0, moves: 1 })
        );
        // The bishop's colour decides the corner: a light bishop cannot
        // mate on a1, and the king there is held in no triangle of its.
        let light = position("8/8/6B1/8/8/1K6/3N4/k7 w - - 0 1");
        assert!(
            table
                .forcing(light.board())
                .is_none_or(|forcing| forcing.stage == 3)
        );
    }

    /// Two bishops mate in any corner: king h8 held (g7 and h7 taken by
    /// the king on g6, g8 by the bishop on d5), Bf6 mates.
    #[test]
    fn two_bishops_mate_in_one_in_any_corner() {
        let table = bishops::TRIANGLES.forcing();
        let mate = position("7k/4B3/6K1/3B4/8/8/8/8 w - - 0 1");
        assert_eq!(
            table.forcing(mate.board()),
            Some(Forcing { stage: 0, moves: 1 })
        );
    }

    /// On a sample of a method's placements, every forcing is one move
    /// longer than the best move's worst answer (by shakmaty's move
    /// generator), in the smallest triangle where there is one, and no
    /// placement without a forcing has a move that would make one. The
    /// placements with and without a forcing.
    fn agrees_with_the_moves_one_move_deep(method: &'static Triangles) -> (u32, u32) {
        let table = method.forcing();
        let (mut forced, mut without) = (0, 0);
        for index in (0..Men::COUNT).step_by(4099) {
            let men = Men::at(index, method);
            if !men.white_to_move() {
                continue;
            }
            let position = position_of(men);
            let held = men.stage() as u8;
            match table.at(men) {
                Some(forcing) => {
                    assert!(held <= forcing.stage, "{men:?}");
                    assert_eq!(
                        one_move_deeper(table, &position, forcing.stage),
                        Some(forcing.moves),
                        "{men:?}"
                    );
                    for smaller in held..forcing.stage {
                        assert_eq!(one_move_deeper(table, &position, smaller), None, "{men:?}");
                    }
                    forced += 1;
                }
                None => {
                    for stage in held..=WHOLE_BOARD {
                        assert_eq!(one_move_deeper(table, &position, stage), None, "{men:?}");
                    }
                    without += 1;
                }
            }
        }
        (forced, without)
    }

    #[test]
    fn the_forcings_agree_with_the_moves_one_move_deep() {
        let (forced, without) = agrees_with_the_moves_one_move_deep(&bishop_knight::TRIANGLES);
        assert!(forced > 2000 && without > 0, "{forced} {without}");
    }

    /// A quarter of the placements have a bishop on each colour; White
    /// wins nearly all of them (the sample: all).
    #[test]
    fn the_bishops_forcings_agree_with_the_moves_one_move_deep() {
        let (forced, _) = agrees_with_the_moves_one_move_deep(&bishops::TRIANGLES);
        assert!(forced > 500, "{forced}");
    }

    /// King a8 held in a8's 5-square triangle (a7 and b7 free, b8 taken
    /// by the knight on d7, the bishop light): one move holds him in the
    /// 3-square one whatever he answers, and the method plays such a move.
    #[test]
    fn the_method_shrinks_the_triangle_by_the_forcing() {
        let table = bishop_knight::TRIANGLES.forcing();
        let start = position("k7/3N4/8/8/8/8/8/K4B2 w - - 0 1");
        assert_eq!(
            table.forcing(start.board()),
            Some(Forcing { stage: 1, moves: 1 })
        );
        let (reply, _) = first_reply(&BishopKnight, &start).expect("a move");
        assert!(reply.reason.starts_with("rule 3"), "{}", reply.reason);
        let mut child = start.clone();
        child.play_unchecked(reply.mv);
        let answers = child.legal_moves();
        assert!(!answers.is_empty());
        for answer in answers {
            let mut next = child.clone();
            next.play_unchecked(answer);
            let men = Men::of(next.board(), &bishop_knight::TRIANGLES).expect("the four men");
            assert_eq!(men.stage(), 0, "{answer}");
            assert_eq!(table.forcing(next.board()).map(|f| f.stage), Some(0));
        }
    }
}
