//! Perfect play from the tables, for White and for Black, and how far an
//! automaton falls short of it.

use ajedrecista_tables::{Material, TableError, Tablebase, Value, Variant};
use shakmaty::{Board, Chess, File, Move, Position, Rank, Square};

use crate::audit::{Audit, Outcome};
use crate::krk::Krk;
use crate::strategy::{Refusal, Reply, Strategy};

/// White's shortest mate by the tables.
///
/// Tie-break: of the moves that mate soonest, the first in UCI order (as
/// [`Tablebase::moves`] orders them), so that the same position always gets
/// the same move.
pub struct Perfect<'a> {
    tables: &'a Tablebase,
}

impl<'a> Perfect<'a> {
    pub fn new(tables: &'a Tablebase) -> Self {
        Perfect { tables }
    }
}

impl Strategy for Perfect<'_> {
    type Memory = ();

    fn name(&self) -> &'static str {
        "perfect"
    }

    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        Krk::from_board(board).map(|_| ()).ok_or_else(|| {
            Refusal::Precondition("perfect play is audited for king and rook against king".into())
        })
    }

    fn start(&self, _start: &Chess) {}

    fn reply(&self, position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
        let unanswerable =
            |err: TableError| Refusal::RuleUndefined(format!("the tables cannot answer: {err}"));
        let best = shortest_mate(self.tables, position).map_err(unanswerable)?;
        let mv =
            best.ok_or_else(|| Refusal::RuleUndefined("the tables give White no win here".into()))?;
        let reply = Reply {
            mv,
            reason: "shortest mate by the tables",
            display: None,
        };
        Ok((reply, ()))
    }
}

/// The first move of [`Tablebase::moves`] if it wins, found without sorting
/// every move: the audit asks this once per node.
fn shortest_mate(tables: &Tablebase, position: &Chess) -> Result<Option<Move>, TableError> {
    let material = Material::from_board(position.board())?;
    let table = tables.table(&material, Variant::Standard)?;
    let mut best: Option<(u16, Move)> = None;
    for mv in position.legal_moves() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        let value = if mv.is_capture() {
            tables.probe(&child, Variant::Standard)?
        } else {
            table.probe(&child)?
        };
        let Value::Loss(plies) = value else {
            continue;
        };
        let better = best.is_none_or(|(best_plies, best_mv)| {
            (plies, uci_order(mv)) < (best_plies, uci_order(best_mv))
        });
        if better {
            best = Some((plies, mv));
        }
    }
    Ok(best.map(|(_, mv)| mv))
}

/// Sorts as the UCI text of a move without promotion ("a1a2" < "a1b1").
fn uci_order(mv: Move) -> (Option<(File, Rank)>, File, Rank) {
    (
        mv.from().map(Square::coords),
        mv.to().file(),
        mv.to().rank(),
    )
}

/// Black's longest resistance by the tables: a draw if there is one (the
/// rook taken, stalemate), else the slowest mate; ties in UCI order.
pub fn perfect_defence(tables: &Tablebase, position: &Chess) -> Result<Move, TableError> {
    let moves = tables.moves(position, Variant::Standard)?;
    Ok(moves.first().expect("the position has a legal move").0)
}

/// Moves to mate with perfect play on both sides from `position`, if White
/// wins.
pub fn perfect_moves(tables: &Tablebase, position: &Chess) -> Result<Option<u16>, TableError> {
    let value = tables.probe(position, Variant::Standard)?;
    Ok(match (position.turn(), value) {
        (shakmaty::Color::White, Value::Win(_)) | (shakmaty::Color::Black, Value::Loss(_)) => {
            value.moves()
        }
        _ => None,
    })
}

/// How many more moves the automaton needs than perfect play, over the
/// starts it mates from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Excess {
    pub max: u16,
    pub mean: f64,
    /// The longest perfect mate over the same starts.
    pub perfect_worst: u16,
}

/// The excess over perfect play of every start the audit found mated;
/// `None` if there is none.
pub fn excess_over_perfect(
    audit: &Audit,
    tables: &Tablebase,
) -> Result<Option<Excess>, TableError> {
    let mut max = 0;
    let mut sum = 0u64;
    let mut count = 0u64;
    let mut perfect_worst = 0;
    for result in &audit.results {
        let Outcome::Mate(moves) = result.outcome else {
            continue;
        };
        let perfect = perfect_moves(tables, &result.position)?
            .expect("the tables give White a win wherever an automaton mates");
        let excess = moves.saturating_sub(perfect);
        max = max.max(excess);
        perfect_worst = perfect_worst.max(perfect);
        sum += u64::from(excess);
        count += 1;
    }
    Ok((count > 0).then(|| Excess {
        max,
        mean: sum as f64 / count as f64,
        perfect_worst,
    }))
}
