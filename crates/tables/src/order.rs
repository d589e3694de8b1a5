//! The order of many probes that reads each chunk of a table file once:
//! by table, side to move and number, as the file lays them out.

use std::collections::HashMap;

use shakmaty::{Chess, Color, Position};

use crate::{
    format::file_name,
    material::Material,
    probe::as_held,
    table::{Numbering, squares_of},
    variant::Variant,
};

/// Where a position's value lies: its table's file, the side to move and
/// its number there, ordered as the files lay them out.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub file: String,
    /// White's numbers come first.
    pub black_to_move: bool,
    pub number: usize,
}

/// Places of positions, each table's numbering made once.
#[derive(Default)]
pub struct ReadingOrder {
    numberings: HashMap<(Material, Variant), Numbering>,
}

impl ReadingOrder {
    pub fn new() -> ReadingOrder {
        ReadingOrder::default()
    }

    /// The place of `pos`'s value in the tables of `variant`; `None` for
    /// a position no table holds (its probe says why). A table with pawns
    /// is held under its canonical material: a position of the twin is
    /// placed as its mirror.
    pub fn place(&mut self, pos: &Chess, variant: Variant) -> Option<Place> {
        let (canonical, pos) = as_held(pos).ok()?;
        let squares = squares_of(&canonical, variant, pos.board()).ok()?;
        let numbering = self
            .numberings
            .entry((canonical.clone(), variant))
            .or_insert_with(|| Numbering::new(&canonical, variant));
        let number = numbering.encode(&squares[..canonical.len()])?;
        Some(Place {
            file: file_name(&canonical, variant),
            black_to_move: pos.turn() == Color::Black,
            number,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{CastlingRights, read_fen};

    /// Positions of one table are placed by number, a twin's as its
    /// mirror, and a position no table holds nowhere.
    #[test]
    fn positions_are_placed_where_their_tables_hold_them() {
        let mut order = ReadingOrder::new();
        let place = |order: &mut ReadingOrder, fen: &str| {
            let pos = read_fen(fen, CastlingRights::Refused).unwrap();
            order.place(&pos, Variant::Standard)
        };
        let krpkr = place(&mut order, "8/8/8/4k3/8/2R5/1P6/1K2r3 w - - 0 1").unwrap();
        let twin = place(&mut order, "1k2R3/1p6/2r5/8/4K3/8/8/8 b - - 0 1").unwrap();
        assert_eq!(krpkr, twin);
        assert_eq!(krpkr.file, "KRPvKR.standard.ajt");
        let other = place(&mut order, "8/8/8/4k3/8/2R5/1P6/2K1r3 w - - 0 1").unwrap();
        assert_ne!(krpkr.number, other.number);
        assert_eq!(order.numberings.len(), 1);
        assert!(place(&mut order, "8/8/8/4k3/8/8/8/K7 w - - 0 1").is_some());
        assert!(place(&mut order, "7k/8/8/8/8/8/8/KNNNNN2 w - - 0 1").is_none());
    }
}
