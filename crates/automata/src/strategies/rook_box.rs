//! The textbook "box" method for king and rook against king, as a teacher
//! gives it: the rook shuts the black king in a box and makes the box
//! smaller whenever it safely can; the white king comes up to support the
//! rook, on the edge to the square facing the black king, where the rook
//! mates. The rule list is written out in docs/guide/src/reference/automata.md ("rook-box");
//! ties between moves go to the first (for a least) or last (for a most)
//! in shakmaty's move order, so the automaton is deterministic.
//!
//! The box is the rectangle the rook's file and rank leave the black king.
//! The conditions the rules keep (the rook between the kings and not
//! exposed, the box never larger) follow the spirit of Bratko's advice
//! table for this ending.

use std::cmp::Ordering;

use shakmaty::{Chess, Color, File, Move, Position, Rank, Role, Square};

use crate::krk::Krk;
use crate::strategy::{MATE, Precondition, Refusal, Reply, Strategy, Undefined, successors};

/// The box method. It remembers one thing: whether the black king has been
/// cut off yet (the first phase is over once the rook's line lies between
/// the kings; from then on the box rules play, whatever the board).
#[derive(Debug, Clone, Copy, Default)]
pub struct RookBox;

/// The method's two phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoxPhase {
    /// The rook's line does not yet lie between the kings: cut the king
    /// off (rules C1-C4).
    CutOff,
    /// The king has been cut off: the box rules (1-8).
    Box,
}

/// The rules, in the order they are tried.
const MATE_IN_TWO: &str = "rule 2: on the edge, mate next move whatever Black does";
const SQUEEZE: &str = "rule 3: the rook shrinks the box";
const APPROACH: &str = "rule 4: the king comes up to the rook's corner of the box";
const GUARD: &str =
    "rule 5: the black king attacks the rook: a waiting move of the king that keeps guarding it";
const KEEP: &str = "rule 6: a waiting move of the rook that keeps the box";
const FAR: &str = "rule 7: the attacked rook goes to the far end of its line";
const DIVIDE: &str = "rule 8: the rook goes between the kings";
const CUT_OFF: &str = "rule C2: the rook cuts the black king off";
const SHELTER: &str = "rule C3: the black king attacks the rook: the king guards it";
const WITHDRAW: &str = "rule C3: the black king attacks the rook: it goes far away";
const KING_UP: &str = "rule C4: the king comes nearer to the black king";
const REPOSITION: &str = "rule C5: the rook makes ready to cut the black king off";

/// The box: how many squares the rook's file and rank leave the black king
/// (its side of each line; the whole width where it stands on the line).
fn room(krk: &Krk) -> u32 {
    box_room(krk.rook, krk.black_king)
}

/// The box a piece's file and rank on `line` leave a black king on
/// `black_king`, in squares.
pub(crate) fn box_room(line: Square, black_king: Square) -> u32 {
    let side = |rook: u32, king: u32| match king.cmp(&rook) {
        Ordering::Less => rook,
        Ordering::Greater => 7 - rook,
        Ordering::Equal => 8,
    };
    side(line.file().to_u32(), black_king.file().to_u32())
        * side(line.rank().to_u32(), black_king.rank().to_u32())
}

/// Whether `test` holds of the three squares' files, or of their ranks.
pub(crate) fn by_file_or_rank(squares: [Square; 3], test: impl Fn(u32, u32, u32) -> bool) -> bool {
    let [a, b, c] = squares;
    test(a.file().to_u32(), b.file().to_u32(), c.file().to_u32())
        || test(a.rank().to_u32(), b.rank().to_u32(), c.rank().to_u32())
}

/// The rook's file or rank lies strictly between the kings.
fn rook_divides(krk: &Krk) -> bool {
    let men = [krk.rook, krk.white_king, krk.black_king];
    by_file_or_rank(men, |rook, white, black| {
        (white < rook && rook < black) || (black < rook && rook < white)
    })
}

/// With Black to move, the black king reaches the rook before the white
/// king can guard it.
fn rook_exposed(krk: &Krk) -> bool {
    krk.white_king.distance(krk.rook) > krk.black_king.distance(krk.rook)
}

/// Where the white king heads: once the box is a strip one square wide
/// along the edge, the square facing the black king two steps in from the
/// edge (the opposition, where the rook mates); before that, the square
/// next to the rook diagonally towards the black king, from which it
/// guards the rook's next step into the box.
fn target_square(krk: &Krk) -> Square {
    let (file, rank) = (
        krk.black_king.file().to_u32(),
        krk.black_king.rank().to_u32(),
    );
    let (rook_file, rook_rank) = (krk.rook.file().to_u32(), krk.rook.rank().to_u32());
    let facing = |edge: u32| if edge == 0 { 2 } else { 5 };
    if (file == 0 && rook_file == 1) || (file == 7 && rook_file == 6) {
        return Square::from_coords(File::new(facing(file)), krk.black_king.rank());
    }
    if (rank == 0 && rook_rank == 1) || (rank == 7 && rook_rank == 6) {
        return Square::from_coords(krk.black_king.file(), Rank::new(facing(rank)));
    }
    critical_square(krk)
}

/// The square next to the rook, diagonally towards the black king.
fn critical_square(krk: &Krk) -> Square {
    let step = |rook: u32, king: u32| match king.cmp(&rook) {
        Ordering::Less => rook - 1,
        Ordering::Greater => rook + 1,
        Ordering::Equal => rook,
    };
    Square::from_coords(
        File::new(step(
            krk.rook.file().to_u32(),
            krk.black_king.file().to_u32(),
        )),
        Rank::new(step(
            krk.rook.rank().to_u32(),
            krk.black_king.rank().to_u32(),
        )),
    )
}

pub(crate) fn manhattan(a: Square, b: Square) -> u32 {
    a.file().distance(b.file()) + a.rank().distance(b.rank())
}

pub(crate) fn on_edge(square: Square) -> bool {
    [0, 7].contains(&square.file().to_u32()) || [0, 7].contains(&square.rank().to_u32())
}

/// The men after a white move.
fn after(krk: &Krk, mv: Move) -> Krk {
    let mut after = *krk;
    match mv.role() {
        Role::King => after.white_king = mv.to(),
        _ => after.rook = mv.to(),
    }
    after
}

/// The black king cannot take the rook at once and is not stalemated.
fn sound(child: &Chess, after: &Krk) -> bool {
    let hangs =
        after.black_king.distance(after.rook) == 1 && after.white_king.distance(after.rook) != 1;
    !hangs && !child.is_stalemate()
}

/// The rook between the kings and not exposed, Black to move.
fn divided(child: &Chess) -> bool {
    Krk::from_board(child.board()).is_some_and(|krk| rook_divides(&krk) && !rook_exposed(&krk))
}

/// A white move in `position` after which, whatever Black does, White
/// reaches a position where `goal` holds (Black to move) within
/// `white_moves` of its own moves, never losing the rook.
fn forcing_move(position: &Chess, white_moves: u32, goal: &dyn Fn(&Chess) -> bool) -> Option<Move> {
    position
        .legal_moves()
        .into_iter()
        .find(|&mv| forces(position, mv, white_moves, goal))
}

/// Whether `mv` is such a move.
fn forces(position: &Chess, mv: Move, white_moves: u32, goal: &dyn Fn(&Chess) -> bool) -> bool {
    let mut child = position.clone();
    child.play_unchecked(mv);
    let Some(krk) = Krk::from_board(child.board()) else {
        return false;
    };
    if !sound(&child, &krk) {
        return false;
    }
    if goal(&child) {
        return true;
    }
    white_moves > 1
        && child.legal_moves().iter().all(|&reply| {
            let mut next = child.clone();
            next.play_unchecked(reply);
            Krk::from_board(next.board()).is_some()
                && forcing_move(&next, white_moves - 1, goal).is_some()
        })
}

/// The white moves of `position` with the position and the men after each.
fn children(position: &Chess, krk: &Krk) -> Vec<(Move, Chess, Krk)> {
    successors(position)
        .map(|(mv, child)| (mv, child, after(krk, mv)))
        .collect()
}

/// The first phase, while the rook's line is not between the kings.
fn decide_cut_off(position: &Chess, krk: &Krk) -> Result<(Move, &'static str), Refusal> {
    let moves = children(position, krk);
    if let Some((mv, ..)) = moves.iter().find(|(_, child, _)| child.is_checkmate()) {
        return Ok((*mv, MATE));
    }
    // C2: a sound rook move that puts the rook's line between the kings;
    // the smallest box, then the rook farthest from the black king.
    if let Some((mv, ..)) = moves
        .iter()
        .filter(|(mv, child, after)| mv.role() == Role::Rook && sound(child, after))
        .filter(|(_, _, after)| rook_divides(after))
        .min_by_key(|(_, _, after)| {
            (
                room(after),
                std::cmp::Reverse(after.rook.distance(after.black_king)),
            )
        })
    {
        return Ok((*mv, CUT_OFF));
    }
    // C3: the rook attacked and not guarded: guard it with the king, or
    // else take it to the far end of a line, away from the black king.
    let attacked = krk.black_king.distance(krk.rook) == 1 && krk.white_king.distance(krk.rook) != 1;
    if attacked {
        if let Some((mv, ..)) = moves
            .iter()
            .filter(|(mv, child, after)| mv.role() == Role::King && sound(child, after))
            .min_by_key(|(_, _, after)| after.white_king.distance(after.black_king))
        {
            return Ok((*mv, SHELTER));
        }
        if let Some((mv, ..)) = moves
            .iter()
            .filter(|(mv, child, after)| mv.role() == Role::Rook && sound(child, after))
            .max_by_key(|(_, _, after)| after.rook.distance(after.black_king))
        {
            return Ok((*mv, WITHDRAW));
        }
    }
    // C4: the king walks towards the black king (so that the rook finds a
    // line between them), diagonal steps first.
    let distance = manhattan(krk.white_king, krk.black_king);
    if let Some((mv, ..)) = moves
        .iter()
        .filter(|(mv, child, after)| mv.role() == Role::King && sound(child, after))
        .filter(|(_, _, after)| manhattan(after.white_king, after.black_king) < distance)
        .min_by_key(|(_, _, after)| manhattan(after.white_king, after.black_king))
    {
        return Ok((*mv, KING_UP));
    }
    // C5: the king cannot come nearer: the rook steps off the kings' line
    // to a square from which it can cut the king off next move, farthest
    // from the black king.
    moves
        .iter()
        .filter(|(mv, child, after)| mv.role() == Role::Rook && sound(child, after))
        .filter(|(_, child, after)| can_cut_next(child, after))
        .max_by_key(|(_, _, after)| after.rook.distance(after.black_king))
        .map(|(mv, ..)| (*mv, REPOSITION))
        .ok_or(Refusal::RuleUndefined(Undefined::NoBoxRule))
}

/// With the black king standing still, the rook could put its line
/// between the kings with its next move (`child`: Black to move).
fn can_cut_next(child: &Chess, after: &Krk) -> bool {
    let Ok(white_again) = child.clone().swap_turn() else {
        return false;
    };
    white_again.legal_moves().into_iter().any(|mv| {
        mv.role() == Role::Rook && {
            let cut = self::after(after, mv);
            rook_divides(&cut) && cut.black_king.distance(cut.rook) > 1
        }
    })
}

/// The decision list of the box, once the king is cut off: the move and
/// the rule that chose it.
fn decide_box(position: &Chess, krk: &Krk) -> Result<(Move, &'static str), Refusal> {
    let moves = children(position, krk);
    if let Some((mv, ..)) = moves.iter().find(|(_, child, _)| child.is_checkmate()) {
        return Ok((*mv, MATE));
    }
    let kings_close = krk.white_king.distance(krk.black_king) < 4;
    if on_edge(krk.black_king)
        && kings_close
        && let Some(mv) = forcing_move(position, 2, &|child| child.is_checkmate())
    {
        return Ok((mv, MATE_IN_TWO));
    }
    let now = room(krk);
    let holds = |child: &Chess, after: &Krk| sound(child, after) && !rook_exposed(after);
    // Or, while the white king is still far, out of the black king's
    // reach for a move.
    let holds_or_far = |child: &Chess, after: &Krk| {
        holds(child, after) || (sound(child, after) && after.black_king.distance(after.rook) >= 3)
    };
    let rook_moves = || {
        moves
            .iter()
            .filter(|(mv, child, after)| mv.role() == Role::Rook && holds(child, after))
    };
    if let Some((mv, ..)) = rook_moves()
        .filter(|(_, _, after)| rook_divides(after) && room(after) < now)
        .min_by_key(|(_, _, after)| room(after))
    {
        return Ok((*mv, SQUEEZE));
    }
    let target = target_square(krk);
    let distance = manhattan(krk.white_king, target);
    let diagonal_first = |mv: &Move| {
        let from = mv.from().expect("a king move");
        u8::from(from.file() == mv.to().file() || from.rank() == mv.to().rank())
    };
    if let Some((mv, ..)) = moves
        .iter()
        .filter(|(mv, child, after)| mv.role() == Role::King && sound(child, after))
        .filter(|(_, _, after)| manhattan(after.white_king, target) < distance)
        .filter(|(_, _, after)| now > 2 || !on_edge(after.white_king))
        .min_by_key(|(mv, ..)| diagonal_first(mv))
    {
        return Ok((*mv, APPROACH));
    }
    if krk.black_king.distance(krk.rook) == 1
        && let Some((mv, ..)) = moves
            .iter()
            .filter(|(mv, child, after)| mv.role() == Role::King && holds(child, after))
            .filter(|(_, _, after)| room(after) <= now)
            .min_by_key(|(_, _, after)| manhattan(after.white_king, target))
    {
        return Ok((*mv, GUARD));
    }
    if let Some((mv, ..)) = moves
        .iter()
        .filter(|(mv, child, after)| mv.role() == Role::Rook && holds_or_far(child, after))
        .filter(|(_, _, after)| rook_divides(after) && room(after) <= now)
        .filter(|(_, _, after)| now > 2 || !on_edge(after.black_king))
        .max_by_key(|(_, _, after)| after.rook.distance(after.black_king))
    {
        return Ok((*mv, KEEP));
    }
    // The rook attacked and the king too far to guard it: the rook goes
    // to the far end of its line.
    if krk.black_king.distance(krk.rook) == 1
        && let Some((mv, ..)) = moves
            .iter()
            .filter(|(mv, child, after)| mv.role() == Role::Rook && sound(child, after))
            .filter(|(_, _, after)| rook_divides(after))
            .filter(|(_, _, after)| after.black_king.distance(after.rook) >= 3)
            .max_by_key(|(_, _, after)| after.rook.distance(after.black_king))
    {
        return Ok((*mv, FAR));
    }
    for white_moves in [2, 3] {
        if let Some(mv) = forcing_move(position, white_moves, &divided) {
            return Ok((mv, DIVIDE));
        }
    }
    Err(Refusal::RuleUndefined(Undefined::NoBoxRule))
}

impl Strategy for RookBox {
    type Memory = BoxPhase;

    fn name(&self) -> &'static str {
        "rook-box"
    }

    /// King and rook against king, from any start.
    fn precondition(&self, board: &shakmaty::Board) -> Result<(), Refusal> {
        Krk::from_board(board).ok_or(Refusal::Precondition(Precondition::NotKrk(
            "the box method",
        )))?;
        Ok(())
    }

    /// The box phase when the rook already stands between the kings.
    fn start(&self, start: &Chess) -> BoxPhase {
        match Krk::from_board(start.board()).is_some_and(|krk| rook_divides(&krk)) {
            true => BoxPhase::Box,
            false => BoxPhase::CutOff,
        }
    }

    fn reply(&self, position: &Chess, phase: &BoxPhase) -> Result<(Reply, BoxPhase), Refusal> {
        let krk = Krk::from_board(position.board()).ok_or(Refusal::Precondition(
            Precondition::NotKrk("the box method"),
        ))?;
        debug_assert_eq!(position.turn(), Color::White);
        let (mv, reason) = match phase {
            BoxPhase::Box => decide_box(position, &krk)?,
            BoxPhase::CutOff => decide_cut_off(position, &krk)?,
        };
        let phase = match rook_divides(&after(&krk, mv)) {
            true => BoxPhase::Box,
            false => *phase,
        };
        Ok((
            Reply {
                mv,
                reason,
                display: None,
            },
            phase,
        ))
    }
}
