//! `ajedrecista selfplay`: one game of an automaton against a defence, as
//! PGN.

use std::convert::Infallible;
use std::sync::Arc;

use ajedrecista_automata::{
    DefenceKind, Game, GameGraph, RandomDefence, Strategy, StrategyName, check_tables_game,
    perfect_defence, play,
};
use ajedrecista_tables::Tablebase;

use crate::output::out;
use crate::tables_args::TablesArgs;
use anyhow::Context;
use shakmaty::{Chess, Position};

/// The longest game a defence may drag out before it is stopped (with
/// the tables' defence or the audit's, a deterministic automaton's game
/// also ends when a position comes round again; a game the tables play for
/// White is held to their own distance to mate).
const MAX_PLIES: usize = 1000;

/// One game of an automaton against a defence, printed as PGN.
#[derive(clap::Args)]
pub struct Args {
    /// The automaton, by its name in the catalog (torres, perfect, ...; an
    /// unknown name gets the list).
    strategy: StrategyName,
    /// The start position (default: the automaton's demonstration game).
    #[arg(long)]
    fen: Option<String>,
    /// Black's play: perfect (delays mate longest by the tables), longest
    /// (the audit's defender against this automaton), random or random:SEED.
    #[arg(long, default_value = "perfect")]
    defence: DefenceKind,
    #[command(flatten)]
    tables: TablesArgs,
}

/// One game of `strategy` from `start` against `defence`.
fn self_play(
    strategy: StrategyName,
    start: &Chess,
    defence: DefenceKind,
    tables: &Arc<Tablebase>,
) -> anyhow::Result<Game> {
    let automaton = strategy.build(tables);
    automaton
        .precondition(start.board())
        .with_context(|| format!("{strategy} cannot play this position"))?;
    let game = match defence {
        DefenceKind::Perfect => play(
            &automaton,
            start,
            |position, _| perfect_defence(tables, position),
            true,
            MAX_PLIES,
            "perfect defence (tables)",
        )
        .context("perfect defence from the tables")?,
        DefenceKind::Longest => GameGraph::new(&automaton).game(start),
        DefenceKind::Random { seed } => {
            let mut random = RandomDefence::new(seed);
            let Ok::<Game, Infallible>(game) = play(
                &automaton,
                start,
                |position, _| Ok(random.choose(position)),
                false,
                MAX_PLIES,
                &format!("random defence (seed {seed})"),
            );
            game
        }
    };
    if strategy == StrategyName::PERFECT {
        check_tables_game(&automaton, &game, tables)?;
    }
    Ok(game)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let fen_text = args.fen.as_deref().unwrap_or(args.strategy.demo_fen());
    let start = crate::fen::parse_fen(fen_text)?;
    let tables = Arc::new(args.tables.open());
    let game = self_play(args.strategy, &start, args.defence, &tables)?;
    out!("{}", game.to_pgn());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(strategy: StrategyName, fen: &str, defence: DefenceKind) -> anyhow::Result<Game> {
        let start = crate::fen::parse_fen(fen).unwrap();
        self_play(strategy, &start, defence, &Arc::new(Tablebase::in_memory()))
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
            "White \"torres\"",
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
        let line = format!("{err:#}");
        assert!(line.starts_with("torres cannot play this position: precondition not met"));
        assert!(!line.contains('\n'));
    }
}
