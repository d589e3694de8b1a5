//! Perfect play from the tables, for White and for Black, and how far an
//! automaton falls short of it.

use std::sync::{Arc, OnceLock};

use ajedrecista_tables::{MAX_MEN, Material, Moves, Table, TableError, Tablebase, Value, Variant};
use shakmaty::{Board, Chess, Color, File, Move, Position, Rank, Role, Square};

use crate::app::BuildPolicy;
use crate::audit::{Audit, Outcome};
use crate::catalog::StrategyName;
use crate::contradiction::Contradiction;
use crate::game::fen_of;
use crate::krk::Krk;
use crate::strategy::{Precondition, Refusal, Reply, Strategy, Undefined};

/// The table of a king and one piece against a king, probed by the three
/// squares: the audit asks it for every move of every node, so no board is
/// built and nothing is allocated per probe.
struct ThreeMenTable {
    table: Arc<Table>,
}

impl ThreeMenTable {
    fn load(
        tables: &Tablebase,
        piece: Role,
        variant: Variant,
    ) -> Result<ThreeMenTable, TableError> {
        let material = Material::new(&[piece], &[])?;
        let table = tables.table(&material, variant)?;
        Ok(ThreeMenTable { table })
    }

    /// The value for the side to move, `None` if the placement is illegal.
    fn value(
        &self,
        white_king: Square,
        piece: Square,
        black_king: Square,
        turn: Color,
    ) -> Option<Value> {
        let mut squares = [Square::A1; MAX_MEN];
        for (slot, man) in squares.iter_mut().zip(self.table.material().men()) {
            *slot = match (man.color, man.role) {
                (Color::White, Role::King) => white_king,
                (Color::White, _) => piece,
                (Color::Black, _) => black_king,
            };
        }
        self.table.value_of(&squares, turn)
    }
}

/// White's shortest mate by the tables, from any position of 3 to 5 men
/// they hold, pawns included (a promotion is a move like any other: the
/// tables value each of the four pieces).
///
/// Tie-break: of the moves that mate soonest, the first in UCI order (as
/// [`Tablebase::moves`] orders them), so that the same position always gets
/// the same move. King and rook against king, which the audit asks for
/// every node, is probed by its three squares.
pub struct Perfect {
    tables: Arc<Tablebase>,
    krk: OnceLock<ThreeMenTable>,
}

impl Perfect {
    pub fn new(tables: Arc<Tablebase>) -> Self {
        Perfect {
            tables,
            krk: OnceLock::new(),
        }
    }

    fn krk_table(&self) -> Result<&ThreeMenTable, TableError> {
        if let Some(table) = self.krk.get() {
            return Ok(table);
        }
        let table = ThreeMenTable::load(&self.tables, Role::Rook, Variant::Standard)?;
        Ok(self.krk.get_or_init(|| table))
    }
}

impl Strategy for Perfect {
    type Memory = ();

    fn name(&self) -> &'static str {
        "perfect"
    }

    /// *Choice*: at most five men, although the tables hold six: a six-man
    /// table takes an hour and gigabytes to build, which a game should not
    /// start.
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        let men = board.occupied().count();
        match Material::from_board(board) {
            Ok(_) if men <= BuildPolicy::Patient.most_men_built(Variant::Standard) => Ok(()),
            _ => Err(Refusal::Precondition(Precondition::NotInTables(men))),
        }
    }

    fn start(&self, _start: &Chess) {}

    fn reply(&self, position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
        self.precondition(position.board())?;
        let failed =
            |err: TableError| Refusal::RuleUndefined(Undefined::TablesFailed(err.to_string()));
        // The three-square table knows no castling, which can mate sooner:
        // a position with rights goes to the tables' moves, which value it.
        let krk = Krk::from_board(position.board()).filter(|_| !position.castles().any());
        let mv = match krk {
            Some(krk) => shortest_mate(self.krk_table().map_err(failed)?, &krk, position),
            None => self
                .tables
                .moves(position, Variant::Standard)
                .map_err(failed)?
                .into_iter()
                .next()
                .filter(|(_, value)| matches!(value, Value::Win(_)))
                .map(|(mv, _)| mv),
        }
        .ok_or(Refusal::RuleUndefined(Undefined::NoWin))?;
        let reply = Reply {
            mv,
            reason: "shortest mate by the tables",
            display: None,
        };
        Ok((reply, ()))
    }
}

/// The first move of [`Tablebase::moves`] if it wins, found without sorting
/// every move. White has nothing to take, so every child is in the table.
fn shortest_mate(table: &ThreeMenTable, krk: &Krk, position: &Chess) -> Option<Move> {
    let mut best: Option<(u16, Move)> = None;
    for mv in position.legal_moves() {
        let mut child = *krk;
        if mv.role() == Role::King {
            child.white_king = mv.to();
        } else {
            child.rook = mv.to();
        }
        let value = table.value(child.white_king, child.rook, child.black_king, Color::Black);
        let Some(Value::Loss(plies)) = value else {
            continue;
        };
        let better = best.is_none_or(|(best_plies, best_mv)| {
            (plies, uci_order(mv)) < (best_plies, uci_order(best_mv))
        });
        if better {
            best = Some((plies, mv));
        }
    }
    best.map(|(_, mv)| mv)
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
pub fn perfect_moves(tables: &Tablebase, position: &Chess) -> Result<Option<Moves>, TableError> {
    let value = tables.probe(position, Variant::Standard)?;
    Ok(value.white_mates_in(position.turn()))
}

/// How many more moves the automaton needs than perfect play, over the
/// starts it mates from.
#[derive(Debug, Clone, PartialEq)]
pub struct Excess {
    pub max: Moves,
    pub mean: f64,
    /// Number of mated starts per excess (moves over perfect play).
    pub histogram: std::collections::BTreeMap<Moves, usize>,
    /// The longest perfect mate over the same starts.
    pub perfect_worst: Moves,
    /// Perfect play's mate from the audit's worst start.
    pub at_worst_start: Moves,
}

/// The excess over perfect play (in the strategy's game) of every start the
/// audit found mated; `None` if there is none.
///
/// A start where the audit and the tables disagree is a [`Contradiction`]
/// (a table file that passed its checks but holds wrong distances): an
/// automaton mates where the tables find no win or mates sooner than they
/// do, or the perfect automaton (the tables' own play) fails where they
/// give a win or takes longer.
pub fn excess_over_perfect(
    audit: &Audit,
    tables: &Tablebase,
) -> Result<Option<Excess>, Contradiction> {
    let material = Material::new(audit.white_pieces, &[]).map_err(TableError::from)?;
    let table = tables.table(&material, audit.variant)?;
    let is_perfect = audit.strategy == StrategyName::PERFECT.as_str();
    let mut max = Moves(0);
    let mut sum = 0u64;
    let mut count = 0u64;
    let mut perfect_worst = Moves(0);
    let mut at_worst_start = None;
    let mut histogram = std::collections::BTreeMap::new();
    for result in &audit.results {
        let position = &result.position;
        let perfect = table
            .probe(position)
            .ok()
            .and_then(|value| value.white_mates_in(position.turn()));
        let agrees = match (result.outcome, perfect) {
            (Outcome::Mate(moves), Some(perfect)) if is_perfect => moves == perfect,
            (Outcome::Mate(moves), Some(perfect)) => moves >= perfect,
            (Outcome::Mate(_), None) => false,
            (Outcome::Failure(_), perfect) => !is_perfect || perfect.is_none(),
        };
        if !agrees {
            return Err(Contradiction::Audit {
                material: table.material().clone(),
                strategy: audit.strategy,
                start: fen_of(position),
                found: match result.outcome {
                    Outcome::Mate(moves) => format!("mates in {moves} moves"),
                    Outcome::Failure(kind) => format!("fails ({})", kind.name()),
                },
                table: perfect.map_or("White no win".to_owned(), |moves| {
                    format!("a mate in {moves} moves")
                }),
            });
        }
        let (Outcome::Mate(moves), Some(perfect)) = (result.outcome, perfect) else {
            continue;
        };
        if audit
            .worst
            .as_ref()
            .is_some_and(|worst| same_position(&worst.start, position))
        {
            at_worst_start = Some(perfect);
        }
        let excess = moves - perfect;
        max = max.max(excess);
        *histogram.entry(excess).or_default() += 1;
        perfect_worst = perfect_worst.max(perfect);
        sum += u64::from(excess.0);
        count += 1;
    }
    let Some(at_worst_start) = at_worst_start else {
        return Ok(None);
    };
    Ok((count > 0).then(|| Excess {
        max,
        mean: sum as f64 / count as f64,
        histogram,
        perfect_worst,
        at_worst_start,
    }))
}

fn same_position(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board() && a.turn() == b.turn()
}
