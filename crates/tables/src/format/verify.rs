//! The semantic check of a table read from a file: what a checksum cannot
//! see (bytes the format forbids, values their moves contradict).

use rayon::prelude::*;
use shakmaty::Color;

use crate::{
    error::FileError,
    material::Material,
    overflow::Overflow,
    rules::Rules,
    table::{Numbering, Table},
    value::{DEEP, ILLEGAL, encode_plies},
};

/// How many numbers of each side the semantic check samples.
pub(crate) const SAMPLES: usize = 4096;

/// Checks what a checksum cannot: that every byte is one the format allows,
/// and, on a sample of numbers, that illegal positions are marked illegal
/// and no others, and that checkmates are exactly the losses in 0 plies.
pub(crate) fn check_values(table: &Table) -> Result<(), FileError> {
    let rules = Rules::new(table.material(), table.variant());
    for turn in Color::ALL.into_iter().filter(|&turn| table.has_side(turn)) {
        let bytes = table.bytes(turn);
        let side = Side {
            turn,
            material: table.material(),
            numbering: table.numbering(),
            rules: &rules,
            overflow: table.overflow(),
        };
        check_range(bytes, 0, bytes.len(), &side)?;
    }
    Ok(())
}

/// Bytes a thread checks at a time in [`check_range`].
const CHECKED: usize = 1 << 16;

/// How many bytes of `bytes` pass `test`: counted in bytes, 255 at a time,
/// so that the compiler counts a vector of bytes an instruction (counted
/// in a `usize` the check took a third of the time of reading a chunk).
pub(crate) fn count_bytes(bytes: &[u8], test: impl Fn(u8) -> bool) -> usize {
    bytes
        .chunks(255)
        .map(|part| usize::from(part.iter().fold(0u8, |n, &b| n + u8::from(test(b)))))
        .sum()
}

/// [`check_values`] on the bytes of numbers `start..start + bytes.len()`
/// of a side with `per_side` numbers: the sampled numbers are the same
/// whether a side is checked whole or chunk by chunk.
pub(crate) fn check_range(
    bytes: &[u8],
    start: usize,
    per_side: usize,
    side: &Side,
) -> Result<(), FileError> {
    let turn = side.turn;
    let most = encode_plies(side.overflow.limit());
    let bad = |b: u8| b > most && b != ILLEGAL && b != DEEP;
    // Counted in plain loops over large pieces, which the compiler
    // vectorises; a bad byte is looked for only in a piece that has one.
    let (first_bad, deep) = bytes
        .par_chunks(CHECKED)
        .enumerate()
        .map(|(c, piece)| {
            let bads = count_bytes(piece, bad);
            let first_bad = (bads > 0)
                .then(|| piece.iter().position(|&b| bad(b)))
                .flatten()
                .map(|at| c * CHECKED + at);
            (first_bad, count_bytes(piece, |b| b == DEEP))
        })
        .reduce(
            || (None, 0),
            |(bad_a, deep_a), (bad_b, deep_b)| (bad_a.or(bad_b), deep_a + deep_b),
        );
    if let Some(at) = first_bad {
        return Err(FileError::BadValue {
            index: start + at,
            turn,
        });
    }
    // Every DEEP byte listed, and every listed number's byte DEEP.
    let listed = side.overflow.side(turn);
    let first = listed.partition_point(|&(i, _)| i < start);
    let inside = listed[first..].partition_point(|&(i, _)| i < start + bytes.len());
    if listed[first..first + inside]
        .iter()
        .any(|&(i, _)| bytes[i - start] != DEEP)
    {
        return Err(FileError::Overflow("a listed number's byte is not DEEP"));
    }
    if deep != inside {
        return Err(FileError::Overflow("a DEEP byte is not in the list"));
    }
    let step = (per_side / SAMPLES).max(1) | 1;
    let first = start.div_ceil(step) * step;
    for index in (first..start + bytes.len()).step_by(step) {
        let (legal, mated) = side.legal_and_mated(index);
        let byte = bytes[index - start];
        if (byte == ILLEGAL) == legal || (byte == encode_plies(0)) != mated {
            return Err(FileError::BadValue { index, turn });
        }
    }
    Ok(())
}

/// One side to move of a table, for the checks of its values.
pub(crate) struct Side<'a> {
    pub(crate) turn: Color,
    pub(crate) material: &'a Material,
    pub(crate) numbering: &'a Numbering,
    pub(crate) rules: &'a Rules,
    pub(crate) overflow: &'a Overflow,
}

impl Side<'_> {
    /// Whether number `index` is a legal position, and a checkmate.
    fn legal_and_mated(&self, index: usize) -> (bool, bool) {
        let Some(squares) = self.numbering.decode(index) else {
            return (false, false);
        };
        match self.numbering {
            Numbering::Pieces(_) => {
                let legal = self.rules.is_legal(&squares, self.turn);
                let mated = legal
                    && self.rules.in_check(&squares, self.turn)
                    && self.rules.moves_while(
                        &squares,
                        self.turn,
                        shakmaty::Bitboard::FULL,
                        |_| false,
                    );
                (legal, mated)
            }
            // A sample: shakmaty's rules, independent of the engine's.
            Numbering::Slices(_) => {
                match crate::table::legal_position(self.material, &squares, self.turn) {
                    Some(pos) => (true, shakmaty::Position::is_checkmate(&pos)),
                    None => (false, false),
                }
            }
        }
    }
}
