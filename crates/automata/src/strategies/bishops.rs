//! The two bishops' mate (king and two bishops against king, the bishops
//! on squares of both colours), as a teacher gives it: the bishops stand
//! side by side, their two diagonals a wall the king cannot cross; the
//! wall moves up and the king's room shrinks, the white king comes up to
//! help, the king is driven to the edge and into a corner, where the
//! bishops mate. The rule list is written out in docs/automata.md
//! ("bishops").

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role};

use crate::minor_mate::{FACING_WEIGHT, king_from_facing, method_move, room_towards};
use crate::strategy::{Precondition, Refusal, Reply, Strategy, Undefined};

/// The bishops' method. It remembers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bishops;

const NOT_KBBK: Refusal = Refusal::Precondition(Precondition::Material(
    "the bishops' method",
    "king and two bishops on squares of both colours against king",
));

/// A white king, two bishops on squares of both colours and a black king.
fn is_kbbk(board: &Board) -> bool {
    let bishops = board.by_role(Role::Bishop) & board.by_color(Color::White);
    let light = bishops & Bitboard::LIGHT_SQUARES;
    board.occupied().count() == 4
        && bishops.count() == 2
        && light.count() == 1
        && board.king_of(Color::White).is_some()
        && board.king_of(Color::Black).is_some()
}

/// How far on the method is (smaller is further): the king's room, each
/// square weighed by its steps from the nearest corner, and six times the
/// white king's distance from where he helps to mate.
fn measure(board: &Board) -> u32 {
    room_towards(board, Bitboard::CORNERS) + FACING_WEIGHT * king_from_facing(board)
}

impl Strategy for Bishops {
    type Memory = ();

    fn name(&self) -> &'static str {
        "bishops"
    }

    fn white_pieces(&self) -> &'static [Role] {
        &[Role::Bishop, Role::Bishop]
    }

    fn symmetric(&self) -> bool {
        true
    }

    /// The audit computes the answers ahead on all cores: a start set of
    /// four men is large.
    fn costly_replies(&self) -> bool {
        true
    }

    /// King and two bishops on squares of both colours against king.
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        match is_kbbk(board) {
            true => Ok(()),
            false => Err(NOT_KBBK),
        }
    }

    fn start(&self, _start: &Chess) {}

    fn reply(&self, position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
        self.precondition(position.board())?;
        let (mv, reason) = method_move(position, measure).ok_or(Refusal::RuleUndefined(
            Undefined::NoMethodRule("the bishops' method"),
        ))?;
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
