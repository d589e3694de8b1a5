//! The two bishops' mate (king and two bishops against king, the bishops
//! on squares of both colours), as a teacher gives it: the bishops stand
//! side by side, their two diagonals a wall the king cannot cross; the
//! wall moves up and the king's room shrinks, the white king comes up to
//! help, the king is driven to the edge and into a corner, where the
//! bishops mate. Rule 3 drives him into ever smaller triangles around a
//! corner, any corner, by an exact calculation (triangle_forcing.rs).
//! The rule list is written out in docs/guide/src/reference/automata.md ("bishops").

use shakmaty::{Bitboard, Board, Color, Role, Square};

use crate::minor_mate::{CornerBands, MinorMethod};
use crate::triangle_forcing::{TriangleForcing, Triangles, triangle_stage};

/// Every square by its steps from the nearest corner.
static CORNERS: CornerBands = CornerBands::towards(Bitboard::CORNERS);

/// Every square by its steps from each corner.
static EACH_CORNER: [CornerBands; 4] = [
    CornerBands::towards(Bitboard::from_square(Square::A1)),
    CornerBands::towards(Bitboard::from_square(Square::H1)),
    CornerBands::towards(Bitboard::from_square(Square::A8)),
    CornerBands::towards(Bitboard::from_square(Square::H8)),
];

/// The bishops' triangles: a light bishop and a dark one.
pub(crate) static TRIANGLES: Triangles = Triangles::new(
    Role::Bishop,
    (Bitboard::LIGHT_SQUARES, Bitboard::DARK_SQUARES),
    stage_of,
);

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

    /// Chosen on a sample of the audit's starts (docs/guide/src/results/audits.md).
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

    /// The manuals' phases, calculated (rule 3): to the edge, into a
    /// corner, mated there.
    fn triangle_forcing() -> Option<&'static TriangleForcing> {
        Some(TRIANGLES.forcing())
    }
}

/// The bishops' stage with the black king's square and the squares he
/// can step to `held`: all of them within 1, 3 or 5 steps (along files
/// and ranks) of one corner, any corner (stages 0, 1, 2), or not (3).
/// The bishops' squares do not count: they mate in every corner.
fn stage_of(_bishop: Square, held: Bitboard) -> u32 {
    let nearest = EACH_CORNER.iter().map(|corner| corner.farthest(held)).min();
    triangle_stage(nearest.expect("four corners"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Square::*;

    fn stage(squares: &[Square]) -> u32 {
        stage_of(C1, squares.iter().copied().collect())
    }

    /// The triangles lie around every corner, each held by one corner:
    /// squares near two corners but within 5 steps of neither together
    /// are no triangle.
    #[test]
    fn the_stage_is_the_triangle_around_a_corner_that_holds_the_king() {
        assert_eq!(stage(&[A1, A2, B1]), 0);
        assert_eq!(stage(&[H1, G1, H2]), 0);
        assert_eq!(stage(&[A8, B8]), 0);
        assert_eq!(stage(&[H8, G7]), 1);
        assert_eq!(stage(&[B1, C1, D1, C2]), 1);
        assert_eq!(stage(&[E1, F1, G1, F2]), 1);
        assert_eq!(stage(&[C3, B4, A5]), 2);
        assert_eq!(stage(&[C3, E3]), 3);
        assert_eq!(stage(&[D4, E5]), 3);
    }
}
