//! What the two minor-piece teaching methods (two bishops; bishop and
//! knight) share: the black king's room, the moves a teacher allows at all
//! (no stalemate, no man left to be taken), the mate calculated once the
//! king is boxed in, and a choice between moves that treats every image of
//! the board alike.

use std::cell::RefCell;
use std::collections::HashMap;

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square, attacks};

use crate::strategy::{MATE, Precondition, Refusal, Reply, Strategy, Undefined, successors};
use crate::symmetry::canonical_key;
use crate::triangle_forcing::TriangleForcing;

/// A minor-piece method: its material and its measure; the rules are
/// the ones below, shared ([`method_move`]).
pub(crate) trait MinorMethod: Sync {
    /// The name on the command line.
    const NAME: &'static str;
    /// The method, as its refusals name it.
    const METHOD: &'static str;
    /// The material it plays, as its refusal names it.
    const MATERIAL: &'static str;
    /// The white men besides the king.
    const PIECES: &'static [Role];
    /// Whether the board holds the method's material.
    fn is_material(board: &Board) -> bool;
    /// The corners the method drives the king to: its measure weighs
    /// each square of his room by its steps from the nearest of them.
    fn corners(board: &Board) -> &'static CornerBands;
    /// The method's stage (0 the last) with the black king's square and
    /// the squares he can step to `held`: the measure puts it before
    /// everything else.
    fn stage(_board: &Board, _held: Bitboard) -> u32 {
        0
    }
    /// The calculation rule 3 plays by, if the method has triangles to
    /// shrink.
    fn triangle_forcing() -> Option<&'static TriangleForcing> {
        None
    }
    /// How many king steps of his room the measure counts (`None`: all
    /// of it).
    const MEASURED_STEPS: Option<u32>;
    /// The room (in squares) at or below which rule 2 calculates a mate,
    /// and which its lines never exceed.
    const MATING_ROOM: u32;
    /// How many moves ahead rule 2 calculates it.
    const MATE_DEPTH: u32;
    /// The room at or below which rule 4 looks a move further.
    const NARROW_ROOM: u32;
    /// Whether rule 4 keeps to the measure it set out to get below until
    /// it is below (the method's only memory).
    const KEEPS_TARGET: bool;
    /// How much a step of the white king from his mating square weighs in
    /// the measure against a square of the black king's room.
    const FACING_WEIGHT: u32;
}

/// Every minor-piece method is a strategy that plays every image of a
/// board alike. It remembers at most the measure rule 4 set out to get
/// below (`MinorMethod::KEEPS_TARGET`), the same for every image.
impl<M: MinorMethod> Strategy for M {
    type Memory = Option<u32>;

    fn name(&self) -> &'static str {
        M::NAME
    }

    fn white_pieces(&self) -> &'static [Role] {
        M::PIECES
    }

    fn symmetric(&self) -> bool {
        true
    }

    /// The audit computes the answers ahead on all cores: a start set of
    /// four men is large.
    fn costly_replies(&self) -> bool {
        true
    }

    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        match M::is_material(board) {
            true => Ok(()),
            false => Err(Refusal::Precondition(Precondition::Material(
                M::METHOD,
                M::MATERIAL,
            ))),
        }
    }

    fn start(&self, _start: &Chess) -> Option<u32> {
        None
    }

    fn reply(
        &self,
        position: &Chess,
        target: &Option<u32>,
    ) -> Result<(Reply, Option<u32>), Refusal> {
        self.precondition(position.board())?;
        let rules = Rules {
            measure: Measure {
                corners: M::corners,
                stage: M::stage,
                steps: M::MEASURED_STEPS,
                facing_weight: M::FACING_WEIGHT,
            },
            mating_room: M::MATING_ROOM,
            mate_depth: M::MATE_DEPTH,
            triangle_forcing: M::triangle_forcing(),
            narrow_room: M::NARROW_ROOM,
            keeps_target: M::KEEPS_TARGET,
        };
        let (mv, reason, target) = method_move(position, &rules, *target)
            .ok_or(Refusal::RuleUndefined(Undefined::NoMethodRule(M::METHOD)))?;
        let reply = Reply {
            mv,
            reason,
            display: None,
        };
        Ok((reply, target))
    }
}

/// A move of White's and the position after it (Black to move).
struct Choice {
    mv: Move,
    child: Chess,
}

/// Every legal move of White's, with the position after it.
fn choices(position: &Chess) -> Vec<Choice> {
    successors(position)
        .map(|(mv, child)| Choice { mv, child })
        .collect()
}

/// The rule every move keeps: Black has a move (no stalemate) and none of
/// them takes a white man.
fn sound(child: &Chess) -> bool {
    KingMoves::of(child.board()).sound()
}

/// The moves of the black king, alone on `board` with Black to move (as he
/// is in both methods): the squares he may step to and whether he stands
/// in check. Read off White's attacks, without generating the moves: the
/// rules ask this of every position they look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct KingMoves {
    from: Square,
    to: Bitboard,
    check: bool,
    white: Bitboard,
}

impl KingMoves {
    fn of(board: &Board) -> KingMoves {
        let from = board.king_of(Color::Black).expect("a black king");
        let attacked = white_attacks(board);
        KingMoves {
            from,
            to: attacks::king_attacks(from) & !attacked & !board.by_color(Color::Black),
            check: attacked.contains(from),
            white: board.by_color(Color::White),
        }
    }

    fn is_checkmate(self) -> bool {
        self.check && self.to.is_empty()
    }

    fn is_stalemate(self) -> bool {
        !self.check && self.to.is_empty()
    }

    /// Black has a move and none of them takes a white man.
    fn sound(self) -> bool {
        !self.to.is_empty() && (self.to & self.white).is_empty()
    }

    /// The positions (White to move) after each of the king's moves in
    /// `child`, the position these are the moves of.
    fn answers(self, child: &Chess) -> impl Iterator<Item = Chess> + '_ {
        self.to.into_iter().map(move |to| self.answer(child, to))
    }

    /// The position after the king's move to `to` in `child`.
    fn answer(self, child: &Chess, to: Square) -> Chess {
        let mut next = child.clone();
        next.play_unchecked(Move::Normal {
            role: Role::King,
            from: self.from,
            capture: child.board().role_at(to),
            to,
            promotion: None,
        });
        next
    }
}

fn is_checkmate(child: &Chess) -> bool {
    KingMoves::of(child.board()).is_checkmate()
}

/// How many answers of [`mates_within`] a thread keeps before it starts
/// afresh (about 40 MB).
const KNOWN_MATES: usize = 1 << 20;

/// Whatever Black answers in `child` (Black to move), White mates within
/// `moves` moves, each sound and none leaving the king a room of more than
/// `boxed` squares. The answers are kept per thread by class of images
/// and depth (one method's boxed room, as its material, is always the
/// same): the calculation is the same for every image, and the positions
/// of the corner recur from move to move.
fn mates_within(child: &Chess, moves: u32, boxed: u32) -> bool {
    thread_local! {
        static KNOWN: RefCell<HashMap<(u64, u32), bool>> = RefCell::new(HashMap::new());
    }
    let key = (canonical_key(child.board()), moves);
    if let Some(known) = KNOWN.with(|known| known.borrow().get(&key).copied()) {
        return known;
    }
    let found = sound(child)
        && answers(child).all(|next| {
            choices(&next).iter().any(|choice| {
                is_checkmate(&choice.child)
                    || (moves > 1
                        && room(choice.child.board()) <= boxed
                        && mates_within(&choice.child, moves - 1, boxed))
            })
        });
    KNOWN.with(|known| {
        let mut known = known.borrow_mut();
        if known.len() >= KNOWN_MATES {
            known.clear();
        }
        known.insert(key, found);
    });
    found
}

/// The squares White's men attack, seen through the black king (he cannot
/// step back along a line that checks him).
fn white_attacks(board: &Board) -> Bitboard {
    let black_king = board
        .king_of(Color::Black)
        .map_or(Bitboard::EMPTY, Bitboard::from);
    let occupied = board.occupied() ^ black_king;
    board
        .by_color(Color::White)
        .into_iter()
        .fold(Bitboard::EMPTY, |attacked, square| {
            let piece = board.piece_at(square).expect("an occupied square");
            attacked | attacks::attacks(square, piece, occupied)
        })
}

/// The black king's room: the squares he can reach, king step by king
/// step, over squares White neither holds nor attacks (his own included).
pub(crate) fn room(board: &Board) -> u32 {
    region(board).count() as u32
}

/// The squares the black king can reach (see [`room`]).
fn region(board: &Board) -> Bitboard {
    let Some(black_king) = board.king_of(Color::Black) else {
        return Bitboard::EMPTY;
    };
    reach(
        black_king,
        !(white_attacks(board) | board.by_color(Color::White)),
    )
}

/// The squares a king on `from` reaches, king step by king step, over
/// `free` squares.
fn reach(from: Square, free: Bitboard) -> Bitboard {
    let free = u64::from(free);
    let mut reached = u64::from(Bitboard::from(from));
    loop {
        let grown = reached | (king_steps(reached) & free);
        if grown == reached {
            return Bitboard(reached);
        }
        reached = grown;
    }
}

/// The squares a king on `from` reaches in `steps` steps over `free` ones.
fn reach_steps(from: Square, free: Bitboard, steps: u32) -> Bitboard {
    let free = u64::from(free);
    let mut reached = u64::from(Bitboard::from(from));
    for _ in 0..steps {
        reached |= king_steps(reached) & free;
    }
    Bitboard(reached)
}

/// Every square a king step from a square of `squares`.
fn king_steps(squares: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let row = squares | (squares << 1 & NOT_A) | (squares >> 1 & NOT_H);
    row | row << 8 | row >> 8
}

/// The squares of the board by their steps (along files and ranks) from
/// the nearest of some corners: band `s` holds the squares `s` steps off.
pub(crate) struct CornerBands([u64; 15]);

impl CornerBands {
    /// The bands of the steps from the nearest of `corners` (not empty).
    pub(crate) const fn towards(corners: Bitboard) -> CornerBands {
        let mut bands = [0u64; 15];
        let mut square = 0u32;
        while square < 64 {
            let mut nearest = 14;
            let mut corner = 0u32;
            while corner < 64 {
                let steps = (square & 7).abs_diff(corner & 7) + (square >> 3).abs_diff(corner >> 3);
                if corners.0 >> corner & 1 == 1 && steps < nearest {
                    nearest = steps;
                }
                corner += 1;
            }
            bands[nearest as usize] |= 1 << square;
            square += 1;
        }
        CornerBands(bands)
    }

    /// The most steps from the corners of a square of `squares` (not
    /// empty).
    pub(crate) fn farthest(&self, squares: Bitboard) -> u32 {
        (0..15u32)
            .rev()
            .find(|&steps| self.0[steps as usize] & squares.0 != 0)
            .unwrap_or(0)
    }

    /// Each square of `squares` counted as one more than its steps.
    fn weigh(&self, squares: Bitboard) -> u32 {
        self.0
            .iter()
            .zip(1..)
            .map(|(band, weight)| weight * (band & squares.0).count_ones())
            .sum()
    }
}

/// How far on a method is (smaller is further on): first its stage
/// ([`STAGE_WEIGHT`] times it), then the king's room (all of it, or the
/// squares he reaches within `steps` king steps), each square counted one
/// more than its steps from the method's nearest corner, and the method's
/// [`MinorMethod::FACING_WEIGHT`] times the white king's distance from his
/// mating square ([`king_from_facing`]).
#[derive(Clone, Copy)]
struct Measure {
    corners: fn(&Board) -> &'static CornerBands,
    stage: fn(&Board, Bitboard) -> u32,
    steps: Option<u32>,
    facing_weight: u32,
}

impl Measure {
    fn of(self, board: &Board) -> u32 {
        let king = board.king_of(Color::Black).expect("a black king");
        let free = !(white_attacks(board) | board.by_color(Color::White));
        let room = match self.steps {
            Some(steps) => reach_steps(king, free, steps),
            None => reach(king, free),
        };
        self.of_king(board, king, free) + (self.corners)(board).weigh(room)
    }

    /// The parts of the measure that the black king's own square makes,
    /// with `free` the squares White neither holds nor attacks: the stage,
    /// and the white king's distance from his mating square.
    fn of_king(self, board: &Board, king: Square, free: Bitboard) -> u32 {
        let white_king = board.king_of(Color::White).expect("a white king");
        STAGE_WEIGHT * (self.stage)(board, reach_steps(king, free, 1))
            + self.facing_weight * facing(white_king, king)
    }

    /// The measure after each of the king's moves in `child`, when none of
    /// them takes a man ([`KingMoves::sound`]). White's attacks are then
    /// the same after every move of his, and two moves into one room leave
    /// him that room: the whole room is found once.
    fn of_answers(self, child: &Board, king: KingMoves) -> impl Iterator<Item = (Square, u32)> {
        let corners = (self.corners)(child);
        let free = !(white_attacks(child) | child.by_color(Color::White));
        let mut known = (Bitboard::EMPTY, 0);
        king.to.into_iter().map(move |to| {
            let room = match self.steps {
                Some(steps) => corners.weigh(reach_steps(to, free, steps)),
                None => {
                    if !known.0.contains(to) {
                        let reached = reach(to, free);
                        known = (reached, corners.weigh(reached));
                    }
                    known.1
                }
            };
            (to, room + self.of_king(child, to, free))
        })
    }

    /// The greatest measure Black's answers leave in `child` (sound).
    fn after_worst_answer(self, child: &Chess) -> Option<u32> {
        let king = KingMoves::of(child.board());
        debug_assert!(king.sound());
        self.of_answers(child.board(), king)
            .map(|(_, after)| after)
            .max()
    }
}

/// The square of White's man of `role`.
pub(crate) fn white_man(board: &Board, role: Role) -> Option<Square> {
    (board.by_role(role) & board.by_color(Color::White)).first()
}

/// How far the white king stands from where he helps to mate: with the
/// black king in a corner or next to it, a knight's move from the corner
/// (b3 or c2 for a1); on the edge elsewhere, two steps in from him
/// (facing him); in the open, the black king himself.
fn king_from_facing(board: &Board) -> u32 {
    match (board.king_of(Color::White), board.king_of(Color::Black)) {
        (Some(white), Some(black)) => facing(white, black),
        _ => u32::MAX,
    }
}

/// [`king_from_facing`] for a white king on `white`, a black one on
/// `black`.
fn facing(white: Square, black: Square) -> u32 {
    let (file, rank) = (black.file().to_u32(), black.rank().to_u32());
    let near = |line: u32| line <= 1 || line >= 6;
    let at = |file: u32, rank: u32| {
        Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank))
    };
    if near(file) && near(rank) {
        let towards = |line: u32, steps: u32| if line <= 1 { steps } else { 7 - steps };
        return [(1, 2), (2, 1)]
            .into_iter()
            .map(|(f, r)| white.distance(at(towards(file, f), towards(rank, r))))
            .min()
            .expect("two squares");
    }
    let inward = |line: u32| match line {
        0 => 2,
        7 => 5,
        other => other,
    };
    white.distance(at(inward(file), inward(rank)))
}

/// The choice with the least key; among equal keys, the one whose position
/// has the least key over its images, so that the rules play every image
/// of a board alike.
fn least<'a, K: Ord>(
    choices: impl Iterator<Item = &'a Choice>,
    key: impl Fn(&Choice) -> K,
) -> Option<&'a Choice> {
    choices.min_by_key(|choice| (key(choice), canonical_key(choice.child.board())))
}

/// The worst for White over Black's answers in `child`: the greatest
/// `key` of the positions after them.
fn after_worst_reply<K: Ord>(child: &Chess, key: impl Fn(&Chess) -> K) -> Option<K> {
    answers(child).map(|next| key(&next)).max()
}

/// The positions (White to move) after each of Black's answers in
/// `child`.
fn answers(child: &Chess) -> impl Iterator<Item = Chess> + '_ {
    KingMoves::of(child.board()).answers(child)
}

/// Whether White, to move in `position`, can force within `moves` moves
/// a mate or a position (White to move) whose measure is below `bound`,
/// never leaving a man to be taken or a stalemate.
fn forces(position: &Chess, bound: u32, moves: u32, measure: Measure) -> bool {
    successors(position)
        .any(|(_, child)| is_checkmate(&child) || progress(&child, bound, moves, measure))
}

/// Whether every answer of Black's in `child` (Black to move, sound)
/// leads to a position below `bound`, or (`moves` above 1) to one from
/// which White forces that in `moves - 1` moves.
fn progress(child: &Chess, bound: u32, moves: u32, measure: Measure) -> bool {
    let king = KingMoves::of(child.board());
    king.sound()
        && measure.of_answers(child.board(), king).all(|(to, after)| {
            after < bound
                || (moves > 1 && forces(&king.answer(child, to), bound, moves - 1, measure))
        })
}

/// The sound move that forces progress soonest: a mate or, whatever Black
/// answers, within `horizon` moves a position whose measure is below the
/// present one. Among the moves that force it soonest, the one whose worst
/// answer leaves the least measure; `None` if no move forces progress.
fn forced_progress<'a>(
    sound_choices: &[&'a Choice],
    bound: u32,
    horizon: u32,
    measure: Measure,
) -> Option<(&'a Choice, u32)> {
    (1..=horizon).find_map(|moves| {
        least(
            sound_choices
                .iter()
                .copied()
                .filter(|choice| progress(&choice.child, bound, moves, measure)),
            |choice| measure.after_worst_answer(&choice.child),
        )
        .map(|choice| (choice, moves))
    })
}

/// The rules both methods follow, tried in order; the measure is the
/// method's own (smaller is further on).
const CALCULATED_MATE: &str =
    "rule 2: the king boxed in: a mate calculated to the end, whatever Black does";
const SHRINK: &str =
    "rule 3: whatever Black answers, the king is soonest held in a smaller triangle, or mated";
const PROGRESS: &str = "rule 4: whatever Black answers, the position is soon further on";
const KING_UP: &str = "rule 5: the white king comes nearer the square where he helps to mate";
const WAIT: &str = "rule 6: the move whose worst answer leaves the position furthest on";
const GIVE_UP: &str = "rule 7: every move leaves a man to be taken: the one furthest on";

/// How much a stage weighs: more than any room and distance together.
const STAGE_WEIGHT: u32 = 1024;

/// How many moves ahead rule 4 looks; one more in a room of the method's
/// [`MinorMethod::NARROW_ROOM`] or less.
const HORIZON: u32 = 2;

/// A method's rules: its measure and its bounds ([`MinorMethod`]).
struct Rules {
    measure: Measure,
    mating_room: u32,
    mate_depth: u32,
    triangle_forcing: Option<&'static TriangleForcing>,
    narrow_room: u32,
    keeps_target: bool,
}

/// White's move by a minor-piece method's `rules`, with the rule that
/// gives it and what it remembers for the next move (the measure rule 4
/// keeps to, if the method keeps one); `None` only in a stalemate. Rule
/// 4 first keeps to the `target` it set out to get below, while that is
/// not yet reached: the forcing it found then still forces it, one move
/// shorter, so the measure cannot go round while rule 4 plays. Rule 3's
/// forcing needs no memory: it is one move shorter after each move.
fn method_move(
    position: &Chess,
    rules: &Rules,
    target: Option<u32>,
) -> Option<(Move, &'static str, Option<u32>)> {
    let measure = rules.measure;
    let all = choices(position);
    if let Some(choice) = all.iter().find(|choice| is_checkmate(&choice.child)) {
        return Some((choice.mv, MATE, None));
    }
    let sound: Vec<&Choice> = all.iter().filter(|choice| sound(&choice.child)).collect();
    let board = position.board();
    let now = room(board);
    let boxed = rules.mating_room;
    if now <= boxed
        && let Some(choice) = (1..=rules.mate_depth).find_map(|depth| {
            least(
                sound
                    .iter()
                    .copied()
                    .filter(|choice| room(choice.child.board()) <= boxed)
                    .filter(|choice| mates_within(&choice.child, depth, boxed)),
                |_| (),
            )
        })
    {
        return Some((choice.mv, CALCULATED_MATE, None));
    }
    let worst_measure = |choice: &Choice| measure.after_worst_answer(&choice.child);
    if let Some(table) = rules.triangle_forcing
        && let Some(forcing) = table.forcing(board)
        && let Some(choice) = least(
            sound
                .iter()
                .copied()
                .filter(|choice| table.keeps(choice.child.board(), forcing)),
            worst_measure,
        )
    {
        return Some((choice.mv, SHRINK, None));
    }
    let horizon = match now <= rules.narrow_room {
        true => HORIZON + 1,
        false => HORIZON,
    };
    let present = measure.of(board);
    let kept = target.filter(|&target| rules.keeps_target && target <= present);
    for bound in kept.into_iter().chain([present]) {
        if let Some((choice, _)) = forced_progress(&sound, bound, horizon, measure) {
            let target = Some(bound).filter(|_| rules.keeps_target);
            return Some((choice.mv, PROGRESS, target));
        }
    }
    let facing = king_from_facing(board);
    let worst_facing =
        |choice: &Choice| after_worst_reply(&choice.child, |next| king_from_facing(next.board()));
    if let Some(choice) = least(
        sound.iter().copied().filter(|choice| {
            choice.mv.role() == Role::King
                && room(choice.child.board()) <= now
                && worst_facing(choice) < Some(facing)
        }),
        worst_facing,
    ) {
        return Some((choice.mv, KING_UP, None));
    }
    if let Some(choice) = least(sound.iter().copied(), worst_measure) {
        return Some((choice.mv, WAIT, None));
    }
    least(
        all.iter()
            .filter(|choice| !KingMoves::of(choice.child.board()).is_stalemate()),
        |choice| measure.of(choice.child.board()),
    )
    .map(|choice| (choice.mv, GIVE_UP, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>()
            .unwrap()
            .into_position::<Chess>(CastlingMode::Standard)
            .unwrap()
            .board()
            .clone()
    }

    /// The king's moves read off White's attacks are shakmaty's legal
    /// moves, on every board of a white king on c3, a bishop, a knight and
    /// a black king (Black to move).
    #[test]
    fn the_kings_moves_are_the_legal_moves() {
        let mut boards = 0;
        for bishop in Square::ALL {
            for knight in Square::ALL {
                for king in Square::ALL {
                    let mut board = Board::empty();
                    for (square, piece) in [
                        (Square::C3, Color::White.king()),
                        (bishop, Color::White.bishop()),
                        (knight, Color::White.knight()),
                        (king, Color::Black.king()),
                    ] {
                        board.set_piece_at(square, piece);
                    }
                    if board.occupied().count() < 4 {
                        continue;
                    }
                    let mut setup = shakmaty::Setup::empty();
                    setup.board = board;
                    setup.turn = Color::Black;
                    let Ok(position) = setup.position::<Chess>(CastlingMode::Standard) else {
                        continue;
                    };
                    let moves = KingMoves::of(position.board());
                    let legal = position.legal_moves();
                    let to: Bitboard = legal.iter().map(|mv| mv.to()).collect();
                    assert_eq!(moves.to, to, "{:?}", position.board());
                    assert_eq!(moves.check, position.is_check());
                    assert_eq!(moves.is_checkmate(), position.is_checkmate());
                    assert_eq!(moves.is_stalemate(), position.is_stalemate());
                    let captures = legal.iter().any(|mv| mv.is_capture());
                    assert_eq!(moves.sound(), !legal.is_empty() && !captures);
                    let answers: Vec<Board> = moves
                        .answers(&position)
                        .map(|next| next.board().clone())
                        .collect();
                    let legal_answers: Vec<Board> = successors(&position)
                        .map(|(_, next)| next.board().clone())
                        .collect();
                    assert_eq!(answers.len(), legal_answers.len());
                    assert!(answers.iter().all(|next| legal_answers.contains(next)));
                    boards += 1;
                }
            }
        }
        assert!(boards > 200_000, "{boards}");
    }

    /// The bands count each square's steps to the nearest corner.
    #[test]
    fn the_bands_count_steps_to_the_nearest_corner() {
        let corners = CornerBands::towards(Bitboard::CORNERS);
        let steps = |square: Square| corners.weigh(Bitboard::from(square)) - 1;
        assert_eq!(steps(Square::A1), 0);
        assert_eq!(steps(Square::B2), 2);
        assert_eq!(steps(Square::D4), 6);
        assert_eq!(steps(Square::E5), 6);
        assert_eq!(steps(Square::G8), 1);
        let dark = CornerBands::towards(Bitboard(Bitboard::CORNERS.0 & Bitboard::DARK_SQUARES.0));
        assert_eq!(dark.weigh(Bitboard::from(Square::A8)) - 1, 7);
        assert_eq!(dark.weigh(Bitboard::from(Square::H1)) - 1, 7);
        assert_eq!(dark.weigh(Bitboard::from(Square::H7)) - 1, 1);
        // Every square is in one band.
        assert_eq!(
            corners.weigh(Bitboard::FULL),
            (0..64u32)
                .map(|i| 1 + (i & 7).min(7 - (i & 7)) + (i >> 3).min(7 - (i >> 3)))
                .sum::<u32>()
        );
    }

    #[test]
    fn the_room_is_what_the_king_can_reach() {
        // The white king on g6 takes g7, h7 and f7 from the king on h8;
        // he gets out by g8 and f8 to the rest of the board.
        let open = board("7k/8/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(room(&open), 64 - 9);
        // A bishop on d5 takes g8 too: the king has his own square only
        // (a stalemate).
        let shut = board("7k/8/6K1/3B4/8/8/8/8 b - - 0 1");
        assert_eq!(room(&shut), 1);
        // One diagonal is no wall (the king steps across it): a bishop
        // checking from h1 takes its diagonal, seen through the king on e4,
        // and the room is the rest of the board.
        let checked = board("8/8/8/8/4k3/8/8/K6B b - - 0 1");
        assert_eq!(room(&checked), 64 - 4 - 1 - 7 + 1);
    }
}
