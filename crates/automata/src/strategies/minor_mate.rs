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
    /// How far on the method is: smaller is further.
    fn measure(board: &Board) -> u32;
    /// The room (in squares) at or below which rule 2 calculates a mate.
    const MATING_ROOM: u32;
    /// How many moves ahead rule 2 calculates it.
    const MATE_DEPTH: u32;
}

/// Every minor-piece method is a strategy that remembers nothing and
/// plays every image of a board alike.
impl<M: MinorMethod> Strategy for M {
    type Memory = ();

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

    fn start(&self, _start: &Chess) {}

    fn reply(&self, position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
        self.precondition(position.board())?;
        let (mv, reason) = method_move(position, M::measure, (M::MATING_ROOM, M::MATE_DEPTH))
            .ok_or(Refusal::RuleUndefined(Undefined::NoMethodRule(M::METHOD)))?;
        let reply = Reply {
            mv,
            reason,
            display: None,
        };
        Ok((reply, ()))
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
    let replies = child.legal_moves();
    !replies.is_empty() && !replies.iter().any(|reply| reply.is_capture())
}

/// How many answers of [`mates_within`] a thread keeps before it starts
/// afresh (about 40 MB).
const KNOWN_MATES: usize = 1 << 20;

/// Whatever Black answers in `child` (Black to move), White mates within
/// `moves` moves, each sound and none giving the king more room. The
/// answers are kept per thread by class of images and depth: the
/// calculation is the same for every image, and the positions of the
/// corner recur from move to move.
fn mates_within(child: &Chess, moves: u32) -> bool {
    thread_local! {
        static KNOWN: RefCell<HashMap<(u64, u32), bool>> = RefCell::new(HashMap::new());
    }
    let key = (canonical_key(child.board()), moves);
    if let Some(known) = KNOWN.with(|known| known.borrow().get(&key).copied()) {
        return known;
    }
    let found = sound(child)
        && answers(child).all(|next| {
            let now = room(next.board());
            choices(&next).iter().any(|choice| {
                choice.child.is_checkmate()
                    || (moves > 1
                        && room(choice.child.board()) <= now
                        && mates_within(&choice.child, moves - 1))
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
    let free = u64::from(!(white_attacks(board) | board.by_color(Color::White)));
    let mut reached = u64::from(Bitboard::from(black_king));
    loop {
        let grown = reached | (king_steps(reached) & free);
        if grown == reached {
            return Bitboard(reached);
        }
        reached = grown;
    }
}

/// Every square a king step from a square of `squares`.
fn king_steps(squares: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let row = squares | (squares << 1 & NOT_A) | (squares >> 1 & NOT_H);
    row | row << 8 | row >> 8
}

/// Steps along files and ranks from `square` to the nearest of `corners`.
fn corner_steps(square: Square, corners: Bitboard) -> u32 {
    corners
        .into_iter()
        .map(|corner| square.file().distance(corner.file()) + square.rank().distance(corner.rank()))
        .min()
        .unwrap_or(0)
}

/// The room weighed towards `corners`: each square the king can reach
/// counts one more than its steps from the nearest of them.
pub(crate) fn room_towards(board: &Board, corners: Bitboard) -> u32 {
    region(board)
        .into_iter()
        .map(|square| 1 + corner_steps(square, corners))
        .sum()
}

/// The square of White's man of `role`.
pub(crate) fn white_man(board: &Board, role: Role) -> Option<Square> {
    (board.by_role(role) & board.by_color(Color::White)).first()
}

/// How far the white king stands from where he helps to mate: with the
/// black king in a corner or next to it, a knight's move from the corner
/// (b3 or c2 for a1); on the edge elsewhere, two steps in from him
/// (facing him); in the open, the black king himself.
pub(crate) fn king_from_facing(board: &Board) -> u32 {
    let (Some(white), Some(black)) = (board.king_of(Color::White), board.king_of(Color::Black))
    else {
        return u32::MAX;
    };
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
    child
        .legal_moves()
        .iter()
        .map(|&reply| {
            let mut next = child.clone();
            next.play_unchecked(reply);
            key(&next)
        })
        .max()
}

/// The positions (White to move) after each of Black's answers in
/// `child`.
fn answers(child: &Chess) -> impl Iterator<Item = Chess> + '_ {
    successors(child).map(|(_, next)| next)
}

/// Whether White, to move in `position`, can force within `moves` moves
/// a mate or a position (White to move) whose measure is below `bound`,
/// never leaving a man to be taken or a stalemate.
fn forces<K: Ord>(position: &Chess, bound: &K, moves: u32, measure: &impl Fn(&Board) -> K) -> bool {
    choices(position)
        .iter()
        .any(|choice| choice.child.is_checkmate() || progress(&choice.child, bound, moves, measure))
}

/// Whether every answer of Black's in `child` (Black to move, sound)
/// leads to a position below `bound`, or (`moves` above 1) to one from
/// which White forces that in `moves - 1` moves.
fn progress<K: Ord>(child: &Chess, bound: &K, moves: u32, measure: &impl Fn(&Board) -> K) -> bool {
    sound(child)
        && answers(child).all(|next| {
            measure(next.board()) < *bound
                || (moves > 1 && forces(&next, bound, moves - 1, measure))
        })
}

/// The sound move that forces progress soonest: a mate or, whatever Black
/// answers, within `horizon` moves a position whose measure is below the
/// present one. Among the moves that force it soonest, the one whose worst
/// answer leaves the least measure; `None` if no move forces progress.
fn forced_progress<'a, K: Ord>(
    position: &Chess,
    sound_choices: &[&'a Choice],
    horizon: u32,
    measure: impl Fn(&Board) -> K,
) -> Option<(&'a Choice, u32)> {
    let bound = measure(position.board());
    (1..=horizon).find_map(|moves| {
        least(
            sound_choices
                .iter()
                .copied()
                .filter(|choice| progress(&choice.child, &bound, moves, &measure)),
            |choice| after_worst_reply(&choice.child, |next| measure(next.board())),
        )
        .map(|choice| (choice, moves))
    })
}

/// The rules both methods follow, tried in order; `measure` is the
/// method's own (smaller is further on).
const CALCULATED_MATE: &str =
    "rule 2: the king boxed in: a mate calculated to the end, whatever Black does";
const PROGRESS: &str = "rule 3: whatever Black answers, the position is soon further on";
const KING_UP: &str = "rule 4: the white king comes nearer the square where he helps to mate";
const WAIT: &str = "rule 5: the move whose worst answer leaves the position furthest on";
const GIVE_UP: &str = "rule 6: every move leaves a man to be taken: the one furthest on";

/// How much a step of the white king from his mating square weighs in the
/// methods' measures against a square of the black king's room.
pub(crate) const FACING_WEIGHT: u32 = 6;

/// How many moves ahead rule 3 looks; one more in a room this small or
/// less ([`NARROW_ROOM`]).
const HORIZON: u32 = 2;
const NARROW_ROOM: u32 = 5;

/// White's move by the rules of a minor-piece method whose progress is
/// `measure`, with the rule that gives it; `None` only in a stalemate.
fn method_move(
    position: &Chess,
    measure: impl Fn(&Board) -> u32,
    (mating_room, mate_depth): (u32, u32),
) -> Option<(Move, &'static str)> {
    let all = choices(position);
    if let Some(choice) = all.iter().find(|choice| choice.child.is_checkmate()) {
        return Some((choice.mv, MATE));
    }
    let sound: Vec<&Choice> = all.iter().filter(|choice| sound(&choice.child)).collect();
    let board = position.board();
    let now = room(board);
    if now <= mating_room
        && let Some(choice) = (1..=mate_depth).find_map(|depth| {
            least(
                sound
                    .iter()
                    .copied()
                    .filter(|choice| room(choice.child.board()) <= now)
                    .filter(|choice| mates_within(&choice.child, depth)),
                |_| (),
            )
        })
    {
        return Some((choice.mv, CALCULATED_MATE));
    }
    let horizon = match now <= NARROW_ROOM {
        true => HORIZON + 1,
        false => HORIZON,
    };
    if let Some((choice, _)) = forced_progress(position, &sound, horizon, &measure) {
        return Some((choice.mv, PROGRESS));
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
        return Some((choice.mv, KING_UP));
    }
    let worst_measure =
        |choice: &Choice| after_worst_reply(&choice.child, |next| measure(next.board()));
    if let Some(choice) = least(sound.iter().copied(), worst_measure) {
        return Some((choice.mv, WAIT));
    }
    least(
        all.iter().filter(|choice| !choice.child.is_stalemate()),
        |choice| measure(choice.child.board()),
    )
    .map(|choice| (choice.mv, GIVE_UP))
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
