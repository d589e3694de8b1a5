//! The cone of a position of a table with pawns: the slices its pawns can
//! step into, its own included. A probe needs its table only there (the
//! kings and pieces stay in a slice; captures and promotions leave the
//! table), so a first probe builds those slices alone into the table's
//! journal and reads its values from there (docs/guide/src/reference/probing.md, "Cones").

use std::path::Path;

use shakmaty::{Chess, Piece, Position};

use crate::{
    error::TableError,
    material::Material,
    pawns::{journal::Journal, layout::Steps},
    probe::as_held,
    slices::SliceIndexer,
    table::{Table, squares_of},
    value::MAX_PLIES,
    variant::Variant,
};

/// The slices reached from slice `from` by pawn steps, `from` included,
/// in numbering order (most advanced first).
pub(crate) fn slices_reached(indexer: &SliceIndexer, men: &[Piece], from: usize) -> Vec<usize> {
    let mut reached = vec![false; indexer.slices()];
    reached[from] = true;
    let mut todo = vec![from];
    while let Some(slice) = todo.pop() {
        for push in Steps::of(indexer, men, slice).pushes.iter().flatten() {
            if !std::mem::replace(&mut reached[push.child], true) {
                todo.push(push.child);
            }
        }
    }
    (0..reached.len()).filter(|&slice| reached[slice]).collect()
}

/// The table (canonical material, with pawns) that holds `pos`, and the
/// position's number there: a position of the colour-flipped twin's
/// material is numbered as its mirror image.
pub(crate) fn number_of(pos: &Chess) -> Result<(Material, usize), TableError> {
    let (canonical, pos) = as_held(pos)?;
    let squares = squares_of(&canonical, Variant::Standard, pos.board())?;
    let index = SliceIndexer::shared(&canonical)
        .encode(&squares[..canonical.len()])
        .ok_or(TableError::NotInTable)?;
    Ok((canonical, index))
}

/// Parts of a journal larger than this (a six-man slice: 2^30 numbers a
/// side) are not read for probes: a probe of a table still being built
/// in steps waits for its file.
const MOST_PART_NUMBERS: usize = 1 << 26;

/// Slice `slice` of the table of `material` (canonical, with pawns) read
/// from its journal in `dir` (a cone built for probes, whose file is not
/// written), `None` when it is not kept there, or too large to read for a
/// probe.
pub(crate) fn read_part(dir: &Path, material: &Material, slice: usize) -> Option<Table> {
    let slice_len = SliceIndexer::shared(material).slice_len();
    if slice_len > MOST_PART_NUMBERS {
        return None;
    }
    let part = Journal::at(dir, material, slice_len, MAX_PLIES).load(slice)?;
    let first = slice * slice_len;
    Some(Table::part(
        material.clone(),
        Variant::Standard,
        first,
        part.bytes,
        part.overflow.shifted(first),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cone(fen: &str) -> (Material, Vec<String>) {
        let pos = crate::position::read_fen(fen, crate::CastlingRights::Refused).unwrap();
        let (material, index) = number_of(&pos).unwrap();
        let indexer = SliceIndexer::shared(&material);
        let men = indexer.men_in_order(&material);
        let slices = slices_reached(&indexer, &men, indexer.slice_of(index));
        let pawns = slices
            .iter()
            .map(|&s| indexer.pawns(s).to_string())
            .collect();
        (material, pawns)
    }

    #[test]
    fn a_pawns_cone_is_its_file_ahead_of_it() {
        let (material, pawns) = cone("8/8/8/4k3/8/2R5/1P6/1K2r3 w - - 0 1");
        assert_eq!(material.to_string(), "KRPvKR");
        let file: Vec<String> = (2..=7).rev().map(|rank| format!("b{rank} v -")).collect();
        assert_eq!(pawns, file);
        // Black's pawn on b2, numbered as the twin table's white pawn on b7.
        let (material, pawns) = cone("8/8/8/4k3/8/r7/1p6/3K3R b - - 0 1");
        assert_eq!(material.to_string(), "KRPvKR");
        assert_eq!(pawns, ["b7 v -"]);
    }

    #[test]
    fn the_cone_of_three_pawns_is_every_placement_they_step_into() {
        // White's e4 (four placements to e7) and f2 (six, to f7), Black's
        // d4 (three, to d2): on three files none blocks another.
        let (material, pawns) = cone("8/8/8/2k5/3pP3/8/5P2/4K3 b - e3 0 1");
        assert_eq!(material.to_string(), "KPPvKP");
        assert_eq!(pawns.len(), 4 * 6 * 3);
        let indexer = SliceIndexer::shared(&material);
        let men = indexer.men_in_order(&material);
        let slices: Vec<usize> = (0..indexer.slices())
            .filter(|&s| pawns.contains(&indexer.pawns(s).to_string()))
            .collect();
        for &slice in &slices {
            for push in Steps::of(&indexer, &men, slice).pushes.iter().flatten() {
                assert!(slices.contains(&push.child), "closed under pawn steps");
            }
        }
    }
}
