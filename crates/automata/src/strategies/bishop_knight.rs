//! The bishop and knight mate by Delétang's method (king, bishop and
//! knight against king): drive the king to the edge and hold him behind
//! the 7-square diagonal of the bishop's colour, in the triangle of a
//! corner of that colour; shrink the triangle to the 5-square diagonal,
//! then the 3-square one (the knight's W manoeuvre covering the other
//! colour along the edge); mate in that corner. The triangle that holds
//! him comes first in the method's measure, and rule 3 shrinks the
//! triangles by an exact calculation (triangle_forcing.rs). The rule list
//! is written out in docs/guide/src/reference/automata.md ("bishop-knight").

use shakmaty::{Bitboard, Board, Color, Role, Square};

use crate::minor_mate::{CornerBands, MinorMethod, white_man};
use crate::triangle_forcing::{TriangleForcing, Triangles, triangle_stage};

/// Delétang's triangles: a bishop and a knight, each on any square.
pub(crate) static TRIANGLES: Triangles =
    Triangles::new(Role::Knight, (Bitboard::FULL, Bitboard::FULL), stage_of);

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

    /// Chosen on a sample of the audit's starts (docs/guide/src/results/audits.md).
    const MATING_ROOM: u32 = 16;
    const MATE_DEPTH: u32 = 12;
    const MEASURED_STEPS: Option<u32> = Some(3);
    const NARROW_ROOM: u32 = 5;
    const KEEPS_TARGET: bool = false;
    const FACING_WEIGHT: u32 = 6;

    /// A white king, bishop and knight and a black king.
    fn is_material(board: &Board) -> bool {
        is_kbnk(board)
    }

    /// The corners of the colour of the bishop's squares, the only ones
    /// where the mate can be forced.
    fn corners(board: &Board) -> &'static CornerBands {
        white_man(board, Role::Bishop).map_or(&DARK_CORNERS, corners_of)
    }

    /// Delétang's triangles: the king held behind the 3-square diagonal
    /// of the bishop's colour across a right corner (stage 0), behind the
    /// 5-square one (1), behind the 7-square one (2), or not (3). He is
    /// held behind one when his square and every square he can step to
    /// lie within 1, 3 or 5 steps (along files and ranks) of the corner:
    /// the triangle whose long side is that diagonal. The triangles of the
    /// two right corners lie apart, so `held` (a king's square and its
    /// neighbours) is within one of them or neither.
    fn stage(board: &Board, held: Bitboard) -> u32 {
        white_man(board, Role::Bishop).map_or(3, |bishop| stage_of(bishop, held))
    }

    /// Delétang's "shrink the triangle", calculated (rule 3).
    fn triangle_forcing() -> Option<&'static TriangleForcing> {
        Some(TRIANGLES.forcing())
    }
}

/// The corners of the colour of a bishop on `bishop`.
fn corners_of(bishop: Square) -> &'static CornerBands {
    match Bitboard::LIGHT_SQUARES.contains(bishop) {
        true => &LIGHT_CORNERS,
        false => &DARK_CORNERS,
    }
}

/// [`BishopKnight::stage`] with the bishop on `bishop`.
pub(crate) fn stage_of(bishop: Square, held: Bitboard) -> u32 {
    triangle_stage(corners_of(bishop).farthest(held))
}

fn is_kbnk(board: &Board) -> bool {
    let white = board.by_color(Color::White);
    board.occupied().count() == 4
        && (board.by_role(Role::Bishop) & white).count() == 1
        && (board.by_role(Role::Knight) & white).count() == 1
        && board.king_of(Color::White).is_some()
        && board.king_of(Color::Black).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Position, Square};

    use crate::test_support::position;

    fn held(squares: &[Square]) -> Bitboard {
        squares.iter().copied().collect()
    }

    /// The triangles are counted from the corners of the bishop's colour:
    /// behind the 3-, 5- and 7-square diagonals, or not.
    #[test]
    fn the_stage_is_the_triangle_that_holds_the_king() {
        use Square::*;
        // A dark bishop (c1): the right corners are a1 and h8.
        let dark = position("8/8/8/8/8/8/8/2B1K1Nk w - - 0 1");
        let stage = |squares: &[Square]| BishopKnight::stage(dark.board(), held(squares));
        assert_eq!(stage(&[A1, A2, B1]), 0);
        assert_eq!(stage(&[H8, G8, H7]), 0);
        assert_eq!(stage(&[A1, B2]), 1);
        assert_eq!(stage(&[B1, C1, D1, C2]), 1);
        assert_eq!(stage(&[C3, B4, A5]), 2);
        assert_eq!(stage(&[E1, F1]), 2);
        assert_eq!(stage(&[F1, G1]), 3);
        assert_eq!(stage(&[D4, E5]), 3);
        // A light bishop (f1): a8 and h1.
        let light = position("8/8/8/8/8/8/8/4KBNk w - - 0 1");
        let stage = |squares: &[Square]| BishopKnight::stage(light.board(), held(squares));
        assert_eq!(stage(&[H1, G1, H2]), 0);
        assert_eq!(stage(&[A1, B1]), 3);
        assert_eq!(stage(&[G1, F1, E1, F2]), 1);
    }
}
