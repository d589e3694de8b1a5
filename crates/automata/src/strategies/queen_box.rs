//! The textbook queen mate (king and queen against king), as a teacher
//! gives it: the queen keeps a knight's move from the black king and so
//! shuts it in a box that shrinks with every queen move; once the king is
//! shut in on the edge the queen stands still (never a stalemate) and the
//! white king comes up to support the mate. The rule list is written out
//! in docs/guide/src/reference/automata.md ("queen-box"); ties go to the first (for a least)
//! or last (for a most) move in shakmaty's move order.

use shakmaty::{Board, Chess, Color, Move, Position, Role, Square};

use crate::rook_box::{box_room, by_file_or_rank, manhattan};
use crate::strategy::{MATE, Precondition, Refusal, Reply, Strategy, Undefined, successors};

/// The queen method. It remembers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct QueenBox;

const NOT_KQK: Refusal = Refusal::Precondition(Precondition::Material(
    "the queen method",
    "king and queen against king",
));

const RESCUE: &str = "rule 2: the black king attacks the queen: it steps a knight's move away";
const MATE_IN_TWO: &str = "rule 3: on the edge, mate next move whatever Black does";
const KING_UP: &str = "rule 4: the king shut in on the edge: the white king comes up";
const HOLD: &str =
    "rule 5: the white king cannot come nearer: the queen moves, the king still shut in";
const SHRINK: &str =
    "rule 6: the queen makes the box smaller, a knight's move from the king if it can";
const FOLLOW: &str = "rule 7: the queen follows the king a knight's move away";
const APPROACH: &str = "rule 8: the white king comes nearer";
const WAIT: &str = "rule 9: a safe queen move, the smallest box";

/// The three men: white king, queen, black king.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Kqk {
    white_king: Square,
    queen: Square,
    black_king: Square,
}

impl Kqk {
    fn from_board(board: &Board) -> Option<Kqk> {
        if board.occupied().count() != 3 {
            return None;
        }
        Some(Kqk {
            white_king: board.king_of(Color::White)?,
            queen: (board.by_role(Role::Queen) & board.by_color(Color::White)).first()?,
            black_king: board.king_of(Color::Black)?,
        })
    }

    fn after(mut self, mv: Move) -> Kqk {
        match mv.role() {
            Role::King => self.white_king = mv.to(),
            _ => self.queen = mv.to(),
        }
        self
    }

    /// The box the queen's file and rank leave the black king.
    fn room(&self) -> u32 {
        box_room(self.queen, self.black_king)
    }

    /// The queen a knight's move from the black king.
    fn knight_away(&self) -> bool {
        let (files, ranks) = (
            self.queen.file().distance(self.black_king.file()),
            self.queen.rank().distance(self.black_king.rank()),
        );
        (files, ranks) == (1, 2) || (files, ranks) == (2, 1)
    }

    /// The black king shut in a strip one square wide along the edge.
    fn on_edge_strip(&self) -> bool {
        strip(self.queen.file().to_u32(), self.black_king.file().to_u32())
            || strip(self.queen.rank().to_u32(), self.black_king.rank().to_u32())
    }

    /// The black king shut in on the edge, the white king not on that edge.
    fn shut_in(&self) -> bool {
        let men = [self.queen, self.black_king, self.white_king];
        by_file_or_rank(men, |queen, king, white| {
            strip(queen, king) && white != king
        })
    }
}

/// A king on the edge line `king` (file or rank index) with the queen's
/// line `queen` next to it.
fn strip(queen: u32, king: u32) -> bool {
    (king == 0 && queen == 1) || (king == 7 && queen == 6)
}

/// Black (to move in `child`) can step into a corner a knight's move from
/// the queen, where it has no square left: the stalemate the manuals warn
/// of.
fn corner_trap(child: &Chess, after: &Kqk) -> bool {
    child.legal_moves().iter().any(|reply| {
        let square = reply.to();
        let corner = square.file().to_u32() % 7 == 0 && square.rank().to_u32() % 7 == 0;
        corner
            && Kqk {
                black_king: square,
                ..*after
            }
            .knight_away()
    })
}

/// Whatever Black plays in `child` (Black to move, not lost), White has
/// a mate at once.
fn every_reply_allows_mate(child: &Chess) -> bool {
    let replies = child.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&reply| {
            let mut next = child.clone();
            next.play_unchecked(reply);
            !reply.is_capture()
                && next.legal_moves().iter().any(|&mv| {
                    let mut after = next.clone();
                    after.play_unchecked(mv);
                    after.is_checkmate()
                })
        })
}

/// Where the white king heads once the black king is shut in on the edge:
/// two lines in from the edge, facing it (not beyond the b to g-file or
/// second to seventh rank).
fn facing_square(men: &Kqk) -> Square {
    let (file, rank) = (
        men.black_king.file().to_u32(),
        men.black_king.rank().to_u32(),
    );
    let inward = |edge: u32| if edge == 0 { 2 } else { 5 };
    let (file, rank) = if rank % 7 == 0 && men.queen.rank().distance(men.black_king.rank()) == 1 {
        (file.clamp(1, 6), inward(rank))
    } else {
        (inward(file), rank.clamp(1, 6))
    };
    Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank))
}

/// Every move of the black king in `child` (Black to move) stays on the
/// edge the queen's strip shuts it in (`men`: after White's move).
fn confined(child: &Chess, men: &Kqk) -> bool {
    let (queen, king) = (men.queen, men.black_king);
    let edge = |square: Square| {
        (strip(queen.file().to_u32(), king.file().to_u32()) && square.file() == king.file())
            || (strip(queen.rank().to_u32(), king.rank().to_u32()) && square.rank() == king.rank())
    };
    child.legal_moves().iter().all(|mv| edge(mv.to()))
}

/// After White's move: no stalemate, and the queen not left next to the
/// black king unguarded.
fn sound(child: &Chess, after: &Kqk) -> bool {
    let hangs =
        after.black_king.distance(after.queen) == 1 && after.white_king.distance(after.queen) != 1;
    !hangs && !child.is_stalemate()
}

fn decide(position: &Chess, men: &Kqk) -> Result<(Move, &'static str), Refusal> {
    let moves: Vec<(Move, Chess, Kqk)> = successors(position)
        .map(|(mv, child)| (mv, child, men.after(mv)))
        .collect();
    if let Some((mv, ..)) = moves.iter().find(|(_, child, _)| child.is_checkmate()) {
        return Ok((*mv, MATE));
    }
    let sound_moves = |role: Role| {
        moves
            .iter()
            .filter(move |(mv, child, after)| mv.role() == role && sound(child, after))
    };
    let now = men.room();
    if men.black_king.distance(men.queen) == 1
        && men.white_king.distance(men.queen) != 1
        && let Some((mv, ..)) = sound_moves(Role::Queen)
            .filter(|(_, _, after)| after.knight_away())
            .min_by_key(|(_, _, after)| after.room())
            .or_else(|| {
                sound_moves(Role::Queen)
                    .max_by_key(|(_, _, after)| after.queen.distance(after.black_king))
            })
    {
        return Ok((*mv, RESCUE));
    }
    let distance = |after: &Kqk| manhattan(after.white_king, after.black_king);
    let on_edge = crate::rook_box::on_edge(men.black_king);
    if on_edge
        && men.white_king.distance(men.black_king) < 4
        && let Some((mv, ..)) = moves
            .iter()
            .find(|(_, child, after)| sound(child, after) && every_reply_allows_mate(child))
    {
        return Ok((*mv, MATE_IN_TWO));
    }
    if men.on_edge_strip() {
        let target = facing_square(men);
        // Off the black king's edge first, then nearer the target.
        let to_target = |after: &Kqk| (!after.shut_in(), manhattan(after.white_king, target));
        if let Some((mv, ..)) = sound_moves(Role::King)
            .filter(|(_, child, after)| to_target(after) < to_target(men) && confined(child, after))
            .min_by_key(|(_, _, after)| to_target(after))
        {
            return Ok((*mv, KING_UP));
        }
        if let Some((mv, ..)) = sound_moves(Role::Queen)
            .filter(|(_, child, after)| after.shut_in() && confined(child, after))
            .filter(|(_, _, after)| after.queen.distance(after.black_king) > 1)
            .min_by_key(|(_, _, after)| after.room())
        {
            return Ok((*mv, HOLD));
        }
    }
    if let Some((mv, ..)) = sound_moves(Role::Queen)
        .filter(|(_, _, after)| after.room() < now && (!after.on_edge_strip() || after.shut_in()))
        .filter(|(_, child, after)| !corner_trap(child, after))
        .filter(|(_, _, after)| {
            after.queen.distance(after.black_king) > 1
                || after.white_king.distance(after.queen) == 1
        })
        .min_by_key(|(_, _, after)| (!after.knight_away(), after.room()))
    {
        return Ok((*mv, SHRINK));
    }
    if let Some((mv, ..)) = sound_moves(Role::Queen)
        .filter(|(_, _, after)| after.knight_away() && after.room() <= now)
        .filter(|(_, _, after)| !after.on_edge_strip() || after.shut_in())
        .filter(|(_, child, after)| !corner_trap(child, after))
        .min_by_key(|(_, _, after)| after.room())
    {
        return Ok((*mv, FOLLOW));
    }
    if let Some((mv, ..)) = sound_moves(Role::King)
        .filter(|(_, _, after)| distance(after) < distance(men))
        .min_by_key(|(_, _, after)| distance(after))
    {
        return Ok((*mv, APPROACH));
    }
    sound_moves(Role::Queen)
        .filter(|(_, _, after)| {
            after.queen.distance(after.black_king) > 1
                || after.white_king.distance(after.queen) == 1
        })
        .min_by_key(|(_, _, after)| {
            (
                after.room(),
                std::cmp::Reverse(after.queen.distance(after.black_king)),
            )
        })
        .map(|(mv, ..)| (*mv, WAIT))
        .ok_or(Refusal::RuleUndefined(Undefined::NoBoxRule))
}

impl Strategy for QueenBox {
    type Memory = ();

    fn name(&self) -> &'static str {
        "queen-box"
    }

    fn white_pieces(&self) -> &'static [Role] {
        &[Role::Queen]
    }

    /// King and queen against king, any position.
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        Kqk::from_board(board).map(|_| ()).ok_or(NOT_KQK)
    }

    fn start(&self, _start: &Chess) {}

    fn reply(&self, position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
        let men = Kqk::from_board(position.board()).ok_or(NOT_KQK)?;
        debug_assert_eq!(position.turn(), Color::White);
        let (mv, reason) = decide(position, &men)?;
        Ok((
            Reply {
                mv,
                reason,
                display: None,
            },
            (),
        ))
    }
}
