//! The bishop and knight mate by Delétang's method (king, bishop and
//! knight against king): drive the king to the edge, then along it to a
//! corner of the bishop's colour (the knight's W manoeuvre keeps him
//! there), then mate. The rule list is written out in docs/automata.md
//! ("bishop-knight").

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role};

use crate::minor_mate::{FACING_WEIGHT, king_from_facing, method_move, room_towards, white_man};
use crate::strategy::{Precondition, Refusal, Reply, Strategy, Undefined};

/// Delétang's method. It remembers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct BishopKnight;

const NOT_KBNK: Refusal = Refusal::Precondition(Precondition::Material(
    "Delétang's method",
    "king, bishop and knight against king",
));

/// The corners of the colour of the bishop's squares.
fn bishop_corners(board: &Board) -> Bitboard {
    let colour = match white_man(board, Role::Bishop) {
        Some(bishop) if Bitboard::LIGHT_SQUARES.contains(bishop) => Bitboard::LIGHT_SQUARES,
        _ => Bitboard::DARK_SQUARES,
    };
    Bitboard::CORNERS & colour
}

/// How far on the method is (smaller is further): the king's room, each
/// square weighed by its steps from the nearer corner of the bishop's
/// colour, and six times the white king's distance from where he helps to
/// mate.
fn measure(board: &Board) -> u32 {
    room_towards(board, bishop_corners(board)) + FACING_WEIGHT * king_from_facing(board)
}

/// A white king, bishop and knight and a black king.
fn is_kbnk(board: &Board) -> bool {
    let white = board.by_color(Color::White);
    board.occupied().count() == 4
        && (board.by_role(Role::Bishop) & white).count() == 1
        && (board.by_role(Role::Knight) & white).count() == 1
        && board.king_of(Color::White).is_some()
        && board.king_of(Color::Black).is_some()
}

impl Strategy for BishopKnight {
    type Memory = ();

    fn name(&self) -> &'static str {
        "bishop-knight"
    }

    fn white_pieces(&self) -> &'static [Role] {
        &[Role::Bishop, Role::Knight]
    }

    fn symmetric(&self) -> bool {
        true
    }

    /// The audit computes the answers ahead on all cores: a start set of
    /// four men is large.
    fn costly_replies(&self) -> bool {
        true
    }

    /// King, bishop and knight against king.
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        match is_kbnk(board) {
            true => Ok(()),
            false => Err(NOT_KBNK),
        }
    }

    fn start(&self, _start: &Chess) {}

    fn reply(&self, position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
        self.precondition(position.board())?;
        let (mv, reason) = method_move(position, measure).ok_or(Refusal::RuleUndefined(
            Undefined::NoMethodRule("Delétang's method"),
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
