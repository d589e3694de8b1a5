//! The bishop and knight mate by Delétang's method (king, bishop and
//! knight against king): drive the king to the edge, then along it to a
//! corner of the bishop's colour (the knight's W manoeuvre keeps him
//! there), then mate. The rule list is written out in docs/automata.md
//! ("bishop-knight").

use shakmaty::{Bitboard, Board, Color, Role};

use crate::minor_mate::{CornerBands, MinorMethod, white_man};

/// Delétang's method. It remembers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct BishopKnight;

/// Every square by its steps from the nearest light corner (a8, h1).
static LIGHT_CORNERS: CornerBands =
    CornerBands::towards(Bitboard(Bitboard::CORNERS.0 & Bitboard::LIGHT_SQUARES.0));
/// Every square by its steps from the nearest dark corner (a1, h8).
static DARK_CORNERS: CornerBands =
    CornerBands::towards(Bitboard(Bitboard::CORNERS.0 & Bitboard::DARK_SQUARES.0));

impl MinorMethod for BishopKnight {
    const NAME: &'static str = "bishop-knight";
    const METHOD: &'static str = "Delétang's method";
    const MATERIAL: &'static str = "king, bishop and knight against king";
    const PIECES: &'static [Role] = &[Role::Bishop, Role::Knight];

    /// Chosen on a sample of the audit's starts (docs/automata.md).
    const MATING_ROOM: u32 = 16;
    const MATE_DEPTH: u32 = 12;

    /// A white king, bishop and knight and a black king.
    fn is_material(board: &Board) -> bool {
        is_kbnk(board)
    }

    /// The corners of the colour of the bishop's squares, the only ones
    /// where the mate can be forced.
    fn corners(board: &Board) -> &'static CornerBands {
        match white_man(board, Role::Bishop) {
            Some(bishop) if Bitboard::LIGHT_SQUARES.contains(bishop) => &LIGHT_CORNERS,
            _ => &DARK_CORNERS,
        }
    }
}

fn is_kbnk(board: &Board) -> bool {
    let white = board.by_color(Color::White);
    board.occupied().count() == 4
        && (board.by_role(Role::Bishop) & white).count() == 1
        && (board.by_role(Role::Knight) & white).count() == 1
        && board.king_of(Color::White).is_some()
        && board.king_of(Color::Black).is_some()
}
