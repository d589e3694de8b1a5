//! One demonstration game of an automaton against a defence (`selfplay`).

use std::convert::Infallible;
use std::sync::Arc;

use ajedrecista_tables::{TableError, Tablebase};
use shakmaty::{Chess, Position};

use crate::audit::GameGraph;
use crate::catalog::StrategyName;
use crate::contradiction::{Contradiction, check_tables_game};
use crate::defence::{DefenceKind, RandomDefence};
use crate::game::Game;
use crate::perfect::perfect_defence;
use crate::play::play;
use crate::strategy::{Refusal, Strategy};

/// The longest game a defence may drag out before it is stopped (with
/// the tables' defence or the audit's, a deterministic automaton's game
/// also ends when a position comes round again; a game the tables play for
/// White is held to their own distance to mate).
pub const MAX_SELFPLAY_PLIES: usize = 1000;

/// Why there is no game.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    #[error("{strategy} cannot play this position: {refusal}")]
    Refused {
        strategy: StrategyName,
        refusal: Refusal,
    },
    #[error("perfect defence from the tables: {0}")]
    Defence(TableError),
    /// The tables played White and contradicted themselves.
    #[error(transparent)]
    Contradiction(#[from] Contradiction),
}

/// One game of `strategy` from `start` against `defence`. A game the
/// tables play for White is checked against their own distance to mate
/// ([`check_tables_game`]).
pub fn selfplay(
    strategy: StrategyName,
    start: &Chess,
    defence: DefenceKind,
    tables: &Arc<Tablebase>,
) -> Result<Game, SelfplayError> {
    let automaton = strategy.build(tables);
    automaton
        .precondition(start.board())
        .map_err(|refusal| SelfplayError::Refused { strategy, refusal })?;
    let mut game = match defence {
        DefenceKind::Perfect => play(
            &automaton,
            start,
            |position, _| perfect_defence(tables, position),
            true,
            MAX_SELFPLAY_PLIES,
            "perfect defence (tables)",
        )
        .map_err(SelfplayError::Defence)?,
        DefenceKind::Longest => GameGraph::new(&automaton).game(start),
        DefenceKind::Random { seed } => {
            let mut random = RandomDefence::new(seed);
            let Ok::<Game, Infallible>(game) = play(
                &automaton,
                start,
                |position, _| Ok(random.choose(position)),
                false,
                MAX_SELFPLAY_PLIES,
                &format!("random defence (seed {seed})"),
            );
            game
        }
    };
    if strategy.entry().plays_from_tables {
        check_tables_game(&automaton, &game, tables)?;
    }
    // The record names the automaton as people read it.
    game.white = strategy.label().to_string();
    Ok(game)
}

#[cfg(test)]
mod tests {
    use ajedrecista_tables::{CastlingRights, read_fen};

    use super::*;

    fn game(
        strategy: StrategyName,
        fen: &str,
        defence: DefenceKind,
    ) -> Result<Game, SelfplayError> {
        let start = read_fen(fen, CastlingRights::Refused).unwrap();
        selfplay(strategy, &start, defence, &Arc::new(Tablebase::in_memory()))
    }

    #[test]
    fn a_random_defence_game_has_the_tags_and_ends() {
        let game = game(
            StrategyName::TORRES,
            StrategyName::TORRES.demo_fen(),
            DefenceKind::Random { seed: 11 },
        )
        .unwrap();
        let pgn = game.to_pgn();
        for tag in [
            "White \"El Ajedrecista (Torres y Quevedo, 1912)\"",
            "Black \"random defence (seed 11)\"",
            "SetUp \"1\"",
            "FEN \"8/8/1k6/8/R7/8/5K2/8 w - - 0 1\"",
            "Result \"1-0\"",
            "Termination \"normal\"",
            "PlyCount",
        ] {
            assert!(pgn.contains(tag), "{tag} in {pgn}");
        }
        assert!(game.final_position().is_checkmate());
    }

    #[test]
    fn the_perfect_automaton_mates_within_the_tables_distance_against_every_defence() {
        // check_tables_game holds a true table's game to its distance: no
        // contradiction from any defence.
        for defence in ["perfect", "longest", "random:3", "random:4"] {
            let game = game(
                StrategyName::PERFECT,
                StrategyName::PERFECT.demo_fen(),
                defence.parse().unwrap(),
            )
            .unwrap();
            assert!(game.final_position().is_checkmate(), "{defence}");
        }
    }

    #[test]
    fn a_position_the_strategy_cannot_play_is_refused_in_one_line() {
        let err = game(
            StrategyName::TORRES,
            "K7/2R5/3k4/8/8/8/8/8 w - - 0 1",
            DefenceKind::Longest,
        )
        .unwrap_err();
        let line = err.to_string();
        assert!(line.starts_with("torres cannot play this position: precondition not met"));
        assert!(!line.contains('\n'));
    }
}
