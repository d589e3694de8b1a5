//! A move found in milliseconds from the tables already at hand, for UCI's
//! `go` whose time is up while a table it needs is still being built: the
//! tables' move if the position's tables are all there, else a two-ply
//! search that values a move by mate, by a table the move leads into, or
//! by the material left after the best answer.

use ajedrecista_tables::{Tablebase, Value, Variant};
use shakmaty::{Chess, Color, Move, Position, Role};

/// What a quick move is worth to the side that plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuickScore {
    /// Exact, from the tables (or a mate on the board).
    Exact(Value),
    /// Material after the opponent's best answer, in centipawns.
    Material(i32),
}

impl QuickScore {
    /// One number to rank moves by: mates first (sooner better), then
    /// material, losses last (later better).
    fn rank(self) -> i32 {
        match self {
            QuickScore::Exact(Value::Win(plies)) => 1_000_000 - i32::from(plies),
            QuickScore::Exact(Value::Draw) => 0,
            QuickScore::Exact(Value::Loss(plies)) => -1_000_000 + i32::from(plies),
            QuickScore::Material(cp) => cp,
        }
    }

    /// UCI's `score` words: `mate N` (negative when mated), `cp N`.
    pub fn uci(self) -> String {
        match self {
            QuickScore::Exact(value) => uci_score(value),
            QuickScore::Material(cp) => format!("score cp {cp}"),
        }
    }
}

/// UCI's `score` of a value for the side to move: `mate N` in moves,
/// negative when mated; a draw `cp 0`.
pub fn uci_score(value: Value) -> String {
    match (value, value.moves()) {
        (Value::Win(_), Some(moves)) => format!("score mate {}", moves.0),
        (Value::Loss(_), Some(moves)) => format!("score mate -{}", moves.0),
        _ => "score cp 0".to_string(),
    }
}

/// The best move the tables at hand and a two-ply search give, without
/// building anything; `None` without a legal move.
pub fn quick_move(tables: &Tablebase, position: &Chess) -> Option<(Move, QuickScore)> {
    let prober = tables.prober();
    if let Ok(moves) = prober.moves(position, Variant::Standard)
        && let Some(&(mv, value)) = moves.first()
    {
        return Some((mv, QuickScore::Exact(value)));
    }
    let us = position.turn();
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let score = if child.is_checkmate() {
                QuickScore::Exact(Value::Win(1))
            } else {
                match prober.probe(&child, Variant::Standard) {
                    Ok(value) => QuickScore::Exact(value.parent()),
                    Err(_) => QuickScore::Material(after_best_answer(&child, us)),
                }
            };
            (mv, score)
        })
        // The first of the best, in the order of the legal moves.
        .fold(
            None,
            |best: Option<(Move, QuickScore)>, (mv, score)| match best {
                Some((_, kept)) if kept.rank() >= score.rank() => best,
                _ => Some((mv, score)),
            },
        )
}

/// `us`'s material less the opponent's after the opponent's best answer in
/// `child`, with the opponent's mobility a small minus (a king with fewer
/// squares is nearer his mate); a stalemate counts 0.
fn after_best_answer(child: &Chess, us: Color) -> i32 {
    let answers = child.legal_moves();
    if answers.is_empty() {
        return 0; // stalemate: a mate was seen before
    }
    let worst = answers
        .iter()
        .map(|&answer| {
            let mut after = child.clone();
            after.play_unchecked(answer);
            material(&after, us) - material(&after, !us)
        })
        .min()
        .unwrap_or(0);
    worst - answers.len() as i32
}

fn material(position: &Chess, color: Color) -> i32 {
    let board = position.board();
    [
        (Role::Pawn, 100),
        (Role::Knight, 300),
        (Role::Bishop, 300),
        (Role::Rook, 500),
        (Role::Queen, 900),
    ]
    .into_iter()
    .map(|(role, value)| value * board.by_piece(role.of(color)).count() as i32)
    .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajedrecista_tables::{CastlingRights, read_fen};

    fn position(fen: &str) -> Chess {
        read_fen(fen, CastlingRights::Refused).unwrap()
    }

    #[test]
    fn without_tables_a_mate_in_one_is_played() {
        let tables = Tablebase::in_memory();
        // Ra8 mates; no table is built for it.
        let (mv, score) = quick_move(&tables, &position("3k4/8/3K4/8/8/8/8/R7 w - - 0 1")).unwrap();
        assert_eq!(
            mv.to_uci(shakmaty::CastlingMode::Standard).to_string(),
            "a1a8"
        );
        assert_eq!(score.uci(), "score mate 1");
        assert!(
            !tables.prober().has_table(
                &ajedrecista_tables::Material::from_board(
                    position("3k4/8/3K4/8/8/8/8/R7 w - - 0 1").board()
                )
                .unwrap(),
                Variant::Standard
            )
        );
    }

    #[test]
    fn without_tables_a_man_is_not_left_to_be_taken() {
        let tables = Tablebase::in_memory();
        // The rook on d2 is attacked; every move keeps it or the search
        // sees it lost.
        let start = position("8/8/8/8/8/2k5/3R4/K7 w - - 0 1");
        let (mv, score) = quick_move(&tables, &start).unwrap();
        let mut after = start.clone();
        after.play_unchecked(mv);
        let taken = after.legal_moves().iter().any(|answer| answer.is_capture());
        assert!(!taken, "{mv:?}");
        assert!(
            matches!(score, QuickScore::Material(cp) if cp > 400),
            "{score:?}"
        );
    }

    #[test]
    fn with_its_tables_the_move_is_the_tables() {
        let tables = Tablebase::in_memory();
        let start = position("8/8/8/8/8/2k5/8/K6Q w - - 0 1");
        let best = tables.moves(&start, Variant::Standard).unwrap()[0];
        let (mv, score) = quick_move(&tables, &start).unwrap();
        assert_eq!((mv, score), (best.0, QuickScore::Exact(best.1)));
        assert_eq!(score.uci(), "score mate 6");
        assert_eq!(uci_score(Value::Draw), "score cp 0");
        assert_eq!(uci_score(Value::Loss(4)), "score mate -2");
    }
}
