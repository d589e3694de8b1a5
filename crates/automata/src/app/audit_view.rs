//! The audit as front ends show it: moves to mate over every start, next
//! to perfect play, the longest game and one game per failure kind to
//! replay. `audit --json` prints it, the web's `/api/audit` serves it.

use std::collections::BTreeMap;

use ajedrecista_tables::{Moves, Tablebase};
use serde::Serialize;
use shakmaty::Position;
use strum::IntoEnumIterator;

use crate::audit::{Audit, FailureKind, Outcome};
use crate::catalog::StrategyName;
use crate::contradiction::Contradiction;
use crate::game::{Game, Ply, fen_of};
use crate::perfect::excess_over_perfect;
use crate::view::color_name;

/// A game to replay move by move.
#[derive(Debug, Clone, Serialize)]
pub struct Replay {
    pub start_fen: String,
    pub plies: Vec<Ply>,
    pub pgn: String,
}

impl Replay {
    /// `game` to replay, White named `white` in its PGN.
    pub fn of(game: &Game, white: &str) -> Replay {
        Replay {
            start_fen: fen_of(&game.start),
            plies: game.plies(),
            pgn: pgn_with_white(game, white),
        }
    }
}

/// The game's PGN with White named as people read it: the catalog's label
/// of the machine (the audit names its games by the machine's name).
fn pgn_with_white(game: &Game, white: &str) -> String {
    Game {
        white: white.to_owned(),
        ..game.clone()
    }
    .to_pgn()
}

/// How many more moves than perfect play the automaton takes.
#[derive(Debug, Clone, Serialize)]
pub struct ExcessView {
    pub max: Moves,
    pub mean: f64,
    /// (moves beyond perfect play, starts), fewest first.
    pub histogram: Vec<(Moves, usize)>,
    /// Perfect play's longest mate over the starts.
    pub perfect_worst: Moves,
    /// Perfect play's moves from the automaton's worst start.
    pub perfect_at_worst_start: Moves,
}

/// One audit, in the documented field order (docs/json.md, docs/web.md).
#[derive(Debug, Clone, Serialize)]
pub struct AuditView {
    pub strategy: &'static str,
    pub starts_set: &'static str,
    pub side_to_move: &'static str,
    pub starts: usize,
    /// The positions the starts stand for: `starts`, or for a method whose
    /// rules treat turned and reflected boards alike (one start per class
    /// of images), the classes' sizes summed.
    pub positions: usize,
    pub nodes: usize,
    /// Every failure kind, zero included.
    pub failures: BTreeMap<&'static str, usize>,
    /// Every failure kind in words, for people.
    pub failure_words: BTreeMap<&'static str, &'static str>,
    /// Of `failures`, those at starts where perfect play has no win either
    /// (a man that hangs at once, a draw): no machine could mate there.
    pub failures_without_a_win: BTreeMap<&'static str, usize>,
    pub worst_moves: Option<Moves>,
    /// Starts where the defence lasts beyond move 50 (a claim of the
    /// sources).
    pub beyond_fifty_moves: usize,
    /// The start of the longest game, and that game as PGN.
    pub worst_fen: Option<String>,
    pub worst_pgn: Option<String>,
    /// `[moves, starts]` in increasing moves, the starts the automaton
    /// mates from.
    pub histogram: Vec<(Moves, usize)>,
    /// `[moves, starts]` of perfect play over the same start set (every
    /// start the tables give White a win).
    pub perfect_histogram: Vec<(Moves, usize)>,
    pub excess_over_perfect: Option<ExcessView>,
    /// The longest game against the longest defence.
    pub longest: Option<Replay>,
    /// One game for each failure kind found.
    pub failure_examples: BTreeMap<&'static str, Replay>,
}

/// Why an audit has no view.
#[derive(Debug, thiserror::Error)]
pub enum AuditViewError {
    #[error("the audit was stopped: its client has gone or its time is up")]
    Stopped,
    /// The tables could not be had, or contradict the audit.
    #[error(transparent)]
    Contradiction(#[from] Contradiction),
}

impl AuditView {
    /// The view of `audit`, with perfect play over its starts beside it;
    /// `stopped` is asked before each start's walk and ends it with
    /// [`AuditViewError::Stopped`].
    pub fn new(
        audit: &Audit,
        tables: &Tablebase,
        stopped: impl Fn() -> bool,
    ) -> Result<AuditView, AuditViewError> {
        let check = || match stopped() {
            true => Err(AuditViewError::Stopped),
            false => Ok(()),
        };
        check()?;
        let excess = excess_over_perfect(audit, tables)?;
        let mut perfect = BTreeMap::new();
        let mut without_a_win: BTreeMap<&'static str, usize> =
            FailureKind::iter().map(|kind| (kind.name(), 0)).collect();
        for result in &audit.results {
            check()?;
            let position = &result.position;
            let value = tables
                .probe(position, audit.variant)
                .map_err(Contradiction::Table)?;
            match (value.white_mates_in(position.turn()), result.outcome) {
                (Some(moves), _) => *perfect.entry(moves).or_insert(0usize) += 1,
                (None, Outcome::Failure(kind)) => {
                    *without_a_win.entry(kind.name()).or_default() += 1
                }
                (None, Outcome::Mate(_)) => {}
            }
        }
        let label = audit
            .strategy
            .parse::<StrategyName>()
            .map_or(audit.strategy, StrategyName::label);
        Ok(AuditView {
            strategy: audit.strategy,
            starts_set: audit.starts_set.name(),
            side_to_move: color_name(audit.side_to_move),
            starts: audit.results.len(),
            positions: audit.positions,
            nodes: audit.nodes,
            failures: audit.failures_by_name(),
            failure_words: FailureKind::iter()
                .map(|kind| (kind.name(), kind.words()))
                .collect(),
            failures_without_a_win: without_a_win,
            worst_moves: audit.worst_moves(),
            beyond_fifty_moves: audit.beyond_fifty_moves(),
            worst_fen: audit.worst.as_ref().map(|game| fen_of(&game.start)),
            worst_pgn: audit.worst.as_ref().map(|game| pgn_with_white(game, label)),
            histogram: audit.histogram().into_iter().collect(),
            perfect_histogram: perfect.into_iter().collect(),
            excess_over_perfect: excess.map(|excess| ExcessView {
                max: excess.max,
                mean: excess.mean,
                histogram: excess.histogram.clone().into_iter().collect(),
                perfect_worst: excess.perfect_worst,
                perfect_at_worst_start: excess.at_worst_start,
            }),
            longest: audit.worst.as_ref().map(|game| Replay::of(game, label)),
            failure_examples: audit
                .failure_examples
                .iter()
                .map(|(kind, game)| (kind.name(), Replay::of(game, label)))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;
    use crate::audit::{StartSet, audit};
    use crate::torres::Torres;

    #[test]
    fn the_view_has_the_documented_fields_in_order() {
        let audit = audit(&Torres, StartSet::Machine, Color::White);
        let view = AuditView::new(&audit, &Tablebase::in_memory(), || false).unwrap();
        let text = serde_json::to_string(&view).unwrap();
        let keys = [
            "\"strategy\":\"torres\"",
            "\"starts_set\":\"machine\"",
            "\"side_to_move\":\"white\"",
            "\"starts\":42",
            "\"positions\":42",
            "\"nodes\":",
            "\"failures\":{\"cycle\":0,",
            "\"failure_words\":{\"cycle\":\"the defence",
            "\"failures_without_a_win\":{\"cycle\":0,",
            "\"worst_moves\":",
            "\"beyond_fifty_moves\":",
            "\"worst_fen\":\"",
            "\"worst_pgn\":\"[Event",
            "\"histogram\":[[",
            "\"perfect_histogram\":[[",
            "\"excess_over_perfect\":{\"max\":",
            "\"longest\":{\"start_fen\":",
            "\"failure_examples\":{",
        ];
        let mut from = 0;
        for key in keys {
            let at = text[from..]
                .find(key)
                .unwrap_or_else(|| panic!("{key} after {from} in {text}"));
            from += at + key.len();
        }
        let perfect: usize = view.perfect_histogram.iter().map(|(_, n)| n).sum();
        assert_eq!(perfect, 42);
        // White is the machine as people know it, not its name.
        let white = "[White \"El Ajedrecista (Torres y Quevedo, 1912)\"]";
        assert!(view.worst_pgn.unwrap().contains(white));
        assert!(view.longest.unwrap().pgn.contains(white));
    }

    #[test]
    fn a_raised_stop_ends_the_view() {
        let audit = audit(&Torres, StartSet::Machine, Color::White);
        let err = AuditView::new(&audit, &Tablebase::in_memory(), || true).unwrap_err();
        assert!(matches!(err, AuditViewError::Stopped));
    }
}
