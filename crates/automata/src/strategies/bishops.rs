//! The two bishops' mate (king and two bishops against king, the bishops
//! on squares of both colours), as a teacher gives it: the bishops stand
//! side by side, their two diagonals a wall the king cannot cross; the
//! wall moves up and the king's room shrinks, the white king comes up to
//! help, the king is driven to the edge and into a corner, where the
//! bishops mate. The rule list is written out in docs/automata.md
//! ("bishops").

use shakmaty::{Bitboard, Board, Color, Role};

use crate::minor_mate::{CornerBands, MinorMethod};

/// Every square by its steps from the nearest corner.
static CORNERS: CornerBands = CornerBands::towards(Bitboard::CORNERS);

/// The bishops' method. It remembers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bishops;

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

impl MinorMethod for Bishops {
    const NAME: &'static str = "bishops";
    const METHOD: &'static str = "the bishops' method";
    const MATERIAL: &'static str = "king and two bishops on squares of both colours against king";
    const PIECES: &'static [Role] = &[Role::Bishop, Role::Bishop];

    /// Chosen on a sample of the audit's starts (docs/automata.md).
    const MATING_ROOM: u32 = 18;
    const MATE_DEPTH: u32 = 12;
    const MEASURED_STEPS: Option<u32> = None;
    const NARROW_ROOM: u32 = 24;
    const KEEPS_TARGET: bool = true;
    /// Nearly twice `bishop-knight`'s: the white king has to come up to
    /// the bishops' wall, or they chase the king in the open.
    const FACING_WEIGHT: u32 = 11;

    fn is_material(board: &Board) -> bool {
        is_kbbk(board)
    }

    /// Every corner: the bishops mate in any.
    fn corners(_board: &Board) -> &'static CornerBands {
        &CORNERS
    }
}
