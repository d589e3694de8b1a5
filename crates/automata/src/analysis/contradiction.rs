//! When the tables lie. A table file can pass every check it gets when it
//! is read (checksum, the bytes the format allows, legality and mates on a
//! sample) and still hold wrong distances. Every walk the tables guide is
//! bounded by what the tables themselves claim, so that such a table ends
//! it with [`Contradiction`] instead of a panic, an endless walk or a
//! wrong report:
//! - a game the tables play for White (the perfect automaton) mates within
//!   the tables' distance from its start and never repeats a position
//!   ([`check_tables_game`]);
//! - an automaton the audit finds mating from a start needs at least the
//!   tables' moves from there, and the perfect automaton exactly those
//!   ([`crate::excess_over_perfect`]).

use ajedrecista_tables::{Material, Plies, TableError, Tablebase};
use shakmaty::Position;

use crate::game::{Game, GameEnd, fen_of};
use crate::strategy::Strategy;

/// The tables contradict themselves or a game, or could not be had.
#[derive(Debug, thiserror::Error)]
pub enum Contradiction {
    #[error(transparent)]
    Table(#[from] TableError),
    /// The tables' own game came back to a position.
    #[error(
        "the {material} table contradicts itself: the tables' game from {start} repeats a position"
    )]
    Repeated { material: Material, start: String },
    /// The tables' own game ran past the distance they give its start.
    #[error(
        "the {material} table contradicts itself: the tables' game from {start} runs past {plies} plies, its distance to mate"
    )]
    TooLong {
        material: Material,
        start: String,
        plies: Plies,
    },
    /// The tables' own game from a start they give White ended otherwise
    /// than in mate.
    #[error(
        "the {material} table contradicts itself: the tables' game from {start} ends without mate ({end}) where it gives White a mate in {plies} plies"
    )]
    NoMate {
        material: Material,
        start: String,
        plies: Plies,
        end: String,
    },
    /// The audit's exact result from a start and the tables disagree.
    #[error(
        "the {material} table contradicts the audit: from {start} {strategy} {found}, the table gives {table}"
    )]
    Audit {
        material: Material,
        strategy: &'static str,
        start: String,
        found: String,
        table: String,
    },
}

/// Checks a game the tables played for White (the perfect automaton)
/// against the tables' value of its start: a repeated position (the game
/// ended as a cycle) is a [`Contradiction`]; from a start the tables give
/// White, so is a game longer than their distance to mate or one that ends
/// otherwise than in mate. A start the tables give White no win is only
/// held to the repetition bound (the automaton then refuses, or the
/// caller's move limit ends the game).
pub fn check_tables_game<S: Strategy>(
    strategy: &S,
    game: &Game,
    tables: &Tablebase,
) -> Result<(), Contradiction> {
    let material = || Material::from_board(game.start.board()).map_err(TableError::from);
    let start = || fen_of(&game.start);
    if game.end == GameEnd::Cycle {
        return Err(Contradiction::Repeated {
            material: material()?,
            start: start(),
        });
    }
    let value = tables.probe(&game.start, strategy.variant())?;
    if value.white_mates_in(game.start.turn()).is_none() {
        return Ok(());
    }
    let plies = value.plies().expect("a win has a distance");
    if game.moves.len() > usize::from(plies.0) {
        return Err(Contradiction::TooLong {
            material: material()?,
            start: start(),
            plies,
        });
    }
    if game.end != GameEnd::Checkmate {
        return Err(Contradiction::NoMate {
            material: material()?,
            start: start(),
            plies,
            end: game.end.to_string(),
        });
    }
    Ok(())
}
