//! A table checked against itself: positions drawn at random from its
//! numbers, each of whose value must be the minimax of the values its moves
//! lead to, the rule the build solved. For tables no other program's can be
//! compared with here (six men with pawns), and for files of any size: only
//! the positions drawn and their children are read.

use std::sync::{
    Mutex,
    atomic::{AtomicU64, AtomicUsize, Ordering},
};

use shakmaty::{Chess, Color, EnPassantMode, Position, fen::Fen};

use crate::{
    error::TableError, material::Material, store::Tablebase, sync::lock, table::number_position,
    value::Value, variant::Variant,
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

/// Legal positions of the table of a material (either side to move),
/// drawn uniformly from its numbers by a seeded generator one at a time,
/// as a check asks for them: the same seed draws the same positions, in
/// the same order, and a sample is never held whole.
struct Draws {
    material: Material,
    variant: Variant,
    numbers: u64,
    rng: fastrand::Rng,
    /// Positions still to draw, and numbers still to try.
    left: u64,
    tries: u64,
}

impl Draws {
    fn new(material: &Material, variant: Variant, positions: u64, seed: u64) -> Draws {
        Draws {
            material: material.clone(),
            variant,
            numbers: crate::table::Table::numbers_per_side(material, variant) as u64,
            rng: fastrand::Rng::with_seed(seed),
            left: positions,
            tries: positions.saturating_mul(DRAWS_PER_POSITION),
        }
    }
}

impl Iterator for Draws {
    type Item = Chess;

    fn next(&mut self) -> Option<Chess> {
        while self.left > 0 && self.tries > 0 {
            self.tries -= 1;
            let turn = if self.rng.bool() {
                Color::White
            } else {
                Color::Black
            };
            let index = self.rng.u64(..self.numbers) as usize;
            if let Some(pos) = number_position(&self.material, self.variant, index, turn) {
                self.left -= 1;
                return Some(pos);
            }
        }
        None
    }
}

impl Tablebase {
    /// Checks `positions` positions of the table of `material` in `variant`
    /// drawn at random (seeded by `seed`) against their moves
    /// ([`Tablebase::check_positions`]), each drawn when a thread is
    /// ready for it: the sample is never held whole.
    pub fn check(
        &self,
        material: &Material,
        variant: Variant,
        positions: u64,
        seed: u64,
        checked: &(dyn Fn(u64) + Sync),
    ) -> Result<Checked, TableError> {
        let draws = Mutex::new(Draws::new(
            &material.table_material(),
            variant,
            positions,
            seed,
        ));
        let drawn = AtomicUsize::new(0);
        let next = || {
            let mut draws = lock(&draws);
            let pos = draws.next()?;
            Some((drawn.fetch_add(1, Ordering::Relaxed), pos))
        };
        self.check_each(&next, variant, checked)
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
        let at = AtomicUsize::new(0);
        let next = || {
            let i = at.fetch_add(1, Ordering::Relaxed);
            positions.get(i).map(|pos| (i, pos.clone()))
        };
        self.check_each(&next, variant, checked)
    }

    /// [`Tablebase::check_positions`] of the positions `next` hands out,
    /// each with its place in the sample, until it has none.
    fn check_each(
        &self,
        next: &(dyn Fn() -> Option<(usize, Chess)> + Sync),
        variant: Variant,
        checked: &(dyn Fn(u64) + Sync),
    ) -> Result<Checked, TableError> {
        let done = AtomicU64::new(0);
        let one = |pos: &Chess| -> Result<Option<Disagreement>, TableError> {
            let value = self.probe(pos, variant)?;
            let moves: Vec<Value> = self
                .moves(pos, variant)?
                .into_iter()
                .map(|(_, value)| value)
                .collect();
            let expected = from_moves(pos, &moves);
            done.fetch_add(1, Ordering::Relaxed);
            checked(1);
            Ok((value != expected).then(|| Disagreement {
                fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
                value,
                from_moves: expected,
            }))
        };
        let worker = || -> Result<Vec<(usize, Disagreement)>, TableError> {
            let mut found = Vec::new();
            while let Some((i, pos)) = next() {
                found.extend(one(&pos)?.map(|d| (i, d)));
            }
            Ok(found)
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
            positions: done.into_inner(),
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
            let draw = |seed| Draws::new(&material, variant, 20, seed).collect::<Vec<_>>();
            assert_eq!(draw(7).len(), 20);
            assert_eq!(draw(7), draw(7));
            assert_ne!(draw(7), draw(8));
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
