//! The mate (stalemate) zone and its numbering (brochure 1.1.1).
//!
//! Figure 1 of the brochure is lost; the reconstruction (spec §3) reads the
//! neighbours counter-clockwise with White at the bottom, starting straight
//! below the king in the middle and, on an edge or in a corner, at the first
//! neighbour after the off-board arc. Edge and corner schemes are therefore
//! rotations of one another, never reflections.

use std::fmt;

use shakmaty::{Bitboard, Square};

/// A step on the board: (files, ranks).
pub type Offset = (i32, i32);

/// The eight neighbours counter-clockwise, starting straight below.
pub const NEIGHBOURS: [Offset; 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Where the king stands: the zone has 4, 6 or 9 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZoneShape {
    Corner,
    Edge,
    Middle,
}

impl ZoneShape {
    pub fn name(self) -> &'static str {
        match self {
            ZoneShape::Corner => "corner",
            ZoneShape::Edge => "edge",
            ZoneShape::Middle => "middle",
        }
    }
}

/// `square` moved by `offset`, if still on the board.
pub fn shifted(square: Square, (files, ranks): Offset) -> Option<Square> {
    let file = square.file().offset(files)?;
    let rank = square.rank().offset(ranks)?;
    Some(Square::from_coords(file, rank))
}

/// The offset from `from` to `to`.
pub fn offset_between(from: Square, to: Square) -> Offset {
    (
        to.file().to_u32() as i32 - from.file().to_u32() as i32,
        to.rank().to_u32() as i32 - from.rank().to_u32() as i32,
    )
}

/// The numeric symbol of a square (2.4.1): file digit then rank digit,
/// a1 = 11, a8 = 18, d5 = 45.
pub fn numeric_symbol(square: Square) -> u32 {
    (square.file().to_u32() + 1) * 10 + square.rank().to_u32() + 1
}

/// The zone of an ordinary king, its squares in the order of their numbers
/// (index 0 is square No.1, the king's own square).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    squares: Vec<Square>,
}

impl Zone {
    pub fn of_king(king: Square) -> Zone {
        let on_board: Vec<bool> = NEIGHBOURS
            .iter()
            .map(|&offset| shifted(king, offset).is_some())
            .collect();
        // Middle: start below. Otherwise: the first on-board neighbour whose
        // predecessor (clockwise) is off the board.
        let start = if on_board.iter().all(|&on| on) {
            0
        } else {
            (0..8)
                .find(|&i| on_board[i] && !on_board[(i + 7) % 8])
                .expect("a king always has an on-board neighbour")
        };
        let mut squares = vec![king];
        squares.extend(
            (0..8)
                .map(|step| NEIGHBOURS[(start + step) % 8])
                .filter_map(|offset| shifted(king, offset)),
        );
        Zone { squares }
    }

    /// The zone of a fairy royal unit (2.3.8, figure 2): the squares of
    /// `reach` in rings of growing distance, each ring from the square
    /// straight below counter-clockwise (right along the bottom row, up,
    /// left, down, back right).
    pub fn spiral(royal: Square, reach: Bitboard) -> Zone {
        let mut squares = vec![royal];
        for distance in 1..8 {
            squares.extend(
                ring(distance)
                    .into_iter()
                    .filter_map(|offset| shifted(royal, offset))
                    .filter(|&square| reach.contains(square)),
            );
        }
        Zone { squares }
    }

    pub fn king(&self) -> Square {
        self.squares[0]
    }

    /// The squares in the order of their numbers.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The squares as a set.
    pub fn set(&self) -> Bitboard {
        self.squares.iter().copied().collect()
    }

    pub fn shape(&self) -> ZoneShape {
        match self.squares.len() {
            4 => ZoneShape::Corner,
            6 => ZoneShape::Edge,
            _ => ZoneShape::Middle,
        }
    }

    /// The number (1-based) of a square of the zone.
    pub fn number_of(&self, square: Square) -> Option<usize> {
        self.squares
            .iter()
            .position(|&s| s == square)
            .map(|i| i + 1)
    }

    /// The offsets of the on-board neighbours, in numbering order.
    pub fn offsets(&self) -> Vec<Offset> {
        self.squares[1..]
            .iter()
            .map(|&square| offset_between(self.king(), square))
            .collect()
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, square) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}={}", i + 1, square)?;
        }
        Ok(())
    }
}

/// The offsets at Chebyshev distance `d`, in the order of figure 2.
fn ring(d: i32) -> Vec<Offset> {
    let mut ring = vec![(0, -d)];
    ring.extend((1..=d).map(|x| (x, -d)));
    ring.extend((-d + 1..=d).map(|y| (d, y)));
    ring.extend((-d..d).rev().map(|x| (x, d)));
    ring.extend((-d..d).rev().map(|y| (-d, y)));
    ring.extend((-d + 1..0).map(|x| (x, -d)));
    ring
}

/// The squares the etalon position prefers for the king (3.2.2).
pub fn preferred_king_square(shape: ZoneShape) -> Square {
    match shape {
        ZoneShape::Corner => Square::A8,
        ZoneShape::Edge => Square::A5,
        ZoneShape::Middle => Square::D5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbering(king: Square) -> String {
        Zone::of_king(king).squares()[1..]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The schemes of spec §3.
    #[test]
    fn schemes_of_the_reconstructed_figure() {
        assert_eq!(numbering(Square::D5), "d4,e4,e5,e6,d6,c6,c5,c4");
        assert_eq!(numbering(Square::A8), "a7,b7,b8");
        assert_eq!(numbering(Square::A5), "a4,b4,b5,b6,a6");
        assert_eq!(numbering(Square::C8), "b8,b7,c7,d7,d8");
        assert_eq!(numbering(Square::H7), "h8,g8,g7,g6,h6");
        assert_eq!(numbering(Square::H1), "h2,g2,g1");
        assert_eq!(numbering(Square::E1), "f1,f2,e2,d2,d1");
    }

    /// Figure 2 for d5: 2=d4 3=e4 ... 9=c4, 10=d3 ... 25=c3, 26=d2 ...
    /// 49=c2, 50=d1 ... 61=h8, 62=a1 63=b1 64=c1.
    #[test]
    fn spiral_of_figure_2() {
        let zone = Zone::spiral(Square::D5, Bitboard::FULL);
        let at = |n: usize| zone.squares()[n - 1];
        assert_eq!(zone.squares().len(), 64);
        assert_eq!(numbering(Square::D5), {
            let ring: Vec<String> = (2..=9).map(|n| at(n).to_string()).collect();
            ring.join(",")
        });
        let expected = [
            (10, Square::D3),
            (11, Square::E3),
            (12, Square::F3),
            (25, Square::C3),
            (26, Square::D2),
            (49, Square::C2),
            (50, Square::D1),
            (61, Square::H8),
            (62, Square::A1),
            (63, Square::B1),
            (64, Square::C1),
        ];
        for (number, square) in expected {
            assert_eq!(at(number), square, "square No.{number}");
        }
    }

    #[test]
    fn shapes_and_symbols() {
        assert_eq!(Zone::of_king(Square::A1).shape(), ZoneShape::Corner);
        assert_eq!(Zone::of_king(Square::G1).shape(), ZoneShape::Edge);
        assert_eq!(Zone::of_king(Square::B2).shape(), ZoneShape::Middle);
        assert_eq!(numeric_symbol(Square::A8), 18);
        assert_eq!(numeric_symbol(Square::D5), 45);
        assert_eq!(numeric_symbol(Square::H1), 81);
    }
}
