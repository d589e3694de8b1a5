//! A table checked against itself: positions drawn at random from its
//! numbers, each of whose value must be the minimax of the values its moves
//! lead to, the rule the build solved. For tables no other program's can be
//! compared with here (six men with pawns), and for files of any size: only
//! the positions drawn and their children are read.

use std::sync::atomic::{AtomicUsize, Ordering};

use shakmaty::{Chess, Color, EnPassantMode, Position, fen::Fen};

use crate::{
    error::TableError, material::Material, store::Tablebase, table::number_position, value::Value,
    variant::Variant,
};

/// Draws per position asked for before a sample gives up: a table's legal
/// numbers are far more than one in this many.
const DRAWS_PER_POSITION: u64 = 1000;

/// A position whose value is not the minimax of its moves' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    pub fen: String,
    /// Its value in the table.
    pub value: Value,
    /// What its moves give: the best of their values, or mate or stalemate
    /// when it has none.
    pub from_moves: Value,
}

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Positions checked.
    pub positions: u64,
    pub disagreements: Vec<Disagreement>,
}

/// The value the minimax rule gives a position from its moves' values,
/// best first ([`Tablebase::moves`]): the best of them, or, with no move,
/// mated in 0 in check and a draw (stalemate) out of it.
pub fn from_moves(pos: &Chess, moves: &[Value]) -> Value {
    match moves.first() {
        Some(&best) => best,
        None if pos.is_check() => Value::Loss(0),
        None => Value::Draw,
    }
}

/// `positions` legal positions of the table of `material` in `variant`
/// (either side to move), drawn uniformly from its numbers by a generator
/// seeded with `seed`: the same seed draws the same positions.
fn draw(material: &Material, variant: Variant, positions: u64, seed: u64) -> Vec<Chess> {
    let numbers = crate::table::Table::numbers_per_side(material, variant) as u64;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut drawn = Vec::new();
    for _ in 0..positions.saturating_mul(DRAWS_PER_POSITION) {
        if drawn.len() as u64 == positions {
            break;
        }
        let turn = if rng.bool() {
            Color::White
        } else {
            Color::Black
        };
        let index = rng.u64(..numbers) as usize;
        drawn.extend(number_position(material, variant, index, turn));
    }
    drawn
}

impl Tablebase {
    /// Checks `positions` positions of the table of `material` in `variant`
    /// drawn at random (seeded by `seed`) against their moves
    /// ([`Tablebase::check_positions`]).
    pub fn check(
        &self,
        material: &Material,
        variant: Variant,
        positions: u64,
        seed: u64,
        checked: &(dyn Fn(u64) + Sync),
    ) -> Result<Checked, TableError> {
        let drawn = draw(&material.table_material(), variant, positions, seed);
        self.check_positions(&drawn, variant, checked)
    }

    /// Checks each of `positions` against its moves, each move valued from
    /// the table it leads into; `checked(n)` is called as positions are
    /// done. The tables are had as [`Tablebase::probe`] has them (one too
    /// large to build on demand must be in the cache folder).
    ///
    /// The positions are shared among threads of their own, not rayon's: a
    /// probe may build a table under a lock, and a rayon thread waiting
    /// for the build's parallel work could take up another position that
    /// waits for that lock.
    pub fn check_positions(
        &self,
        positions: &[Chess],
        variant: Variant,
        checked: &(dyn Fn(u64) + Sync),
    ) -> Result<Checked, TableError> {
        let next = AtomicUsize::new(0);
        let one = |pos: &Chess| -> Result<Option<Disagreement>, TableError> {
            let value = self.probe(pos, variant)?;
            let moves: Vec<Value> = self
                .moves(pos, variant)?
                .into_iter()
                .map(|(_, value)| value)
                .collect();
            let expected = from_moves(pos, &moves);
            checked(1);
            Ok((value != expected).then(|| Disagreement {
                fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
                value,
                from_moves: expected,
            }))
        };
        let worker = || -> Result<Vec<(usize, Disagreement)>, TableError> {
            let mut found = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(pos) = positions.get(i) else {
                    return Ok(found);
                };
                found.extend(one(pos)?.map(|d| (i, d)));
            }
        };
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let mut found = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a check thread does not panic"))
                .collect::<Result<Vec<_>, TableError>>()
        })?
        .concat();
        found.sort_unstable_by_key(|&(i, _)| i);
        Ok(Checked {
            positions: positions.len() as u64,
            disagreements: found.into_iter().map(|(_, d)| d).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{format, value::encode_plies};

    /// A sample of a table with pawns (en passant and promotions among its
    /// moves) and of the fixed-king game agree with their moves, and the
    /// same seed draws the same positions.
    #[test]
    fn built_tables_agree_with_their_moves() {
        let tb = Tablebase::in_memory();
        for (name, variant) in [
            ("KPvKP", Variant::Standard),
            ("KQvK", Variant::FixedKing(shakmaty::Square::D4)),
        ] {
            let material: Material = name.parse().unwrap();
            let checked = tb.check(&material, variant, 300, 7, &|_| ()).unwrap();
            assert_eq!(
                checked,
                Checked {
                    positions: 300,
                    disagreements: Vec::new()
                },
                "{name}"
            );
            assert_eq!(
                draw(&material, variant, 20, 7),
                draw(&material, variant, 20, 7)
            );
            assert_ne!(
                draw(&material, variant, 20, 7),
                draw(&material, variant, 20, 8)
            );
        }
    }

    /// A table file with one wrong value, its checksums right (written as
    /// a build writes it), is caught by the check of that position.
    #[test]
    fn a_wrong_value_disagrees_with_its_moves() {
        let material: Material = "KRvK".parse().unwrap();
        let table = Tablebase::in_memory()
            .table(&material, Variant::Standard)
            .unwrap();
        let pos: Chess = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let right = table.probe(&pos).unwrap();
        let plies = right.plies().expect("a win").0;
        let squares = table.squares_of(pos.board()).unwrap();
        let index = table.numbering().encode(&squares[..3]).unwrap();
        let dir = tempfile::tempdir().unwrap();
        format::write(
            dir.path(),
            &table.with_byte(Color::White, index, encode_plies(plies + 2)),
        )
        .unwrap();
        let damaged = Tablebase::new(Some(dir.path().to_path_buf()));
        let checked = damaged
            .check_positions(std::slice::from_ref(&pos), Variant::Standard, &|_| ())
            .unwrap();
        assert_eq!(
            checked.disagreements,
            vec![Disagreement {
                fen: "8/8/8/3k4/8/8/8/R3K3 w - - 0 1".to_owned(),
                value: Value::Win(plies + 2),
                from_moves: right,
            }]
        );
    }
}
