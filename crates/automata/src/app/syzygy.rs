//! Syzygy beside the DTM tables in a probe: its WDL under the fifty-move
//! rule, its DTZ and its best move; and where the DTM's principal
//! variation runs past fifty moves without a capture or pawn move.

use ajedrecista_tables::{Syzygy, SyzygyError, SyzygyValue};
use serde::Serialize;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// A move named both ways.
#[derive(Debug, Clone, Serialize)]
pub struct NamedMove {
    pub uci: String,
    /// With `+` and `#`.
    pub san: String,
}

impl NamedMove {
    pub fn new(position: &Chess, mv: Move) -> NamedMove {
        NamedMove {
            uci: mv.to_uci(CastlingMode::Standard).to_string(),
            san: SanPlus::from_move(position.clone(), mv).to_string(),
        }
    }
}

/// Syzygy's answer for a position (docs/json.md, `probe`'s `syzygy`).
#[derive(Debug, Clone, Serialize)]
pub struct SyzygyView {
    #[serde(skip)]
    pub value: SyzygyValue,
    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`, for the side
    /// to move, as if just after a capture or pawn move.
    pub wdl: &'static str,
    /// Plies to the next capture or pawn move, signed as the WDL.
    pub dtz: i32,
    pub dtz_rounded: bool,
    /// The best move by WDL, then DTZ; `None` without a legal move, or
    /// where a table a move leads into is missing (`best_move_missing`).
    pub best_move: Option<NamedMove>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_move_missing: Option<String>,
}

impl SyzygyView {
    /// Syzygy's view of `position`: an error where its value cannot be
    /// had; a best move that cannot be had is only noted.
    pub fn new(syzygy: &Syzygy, position: &Chess) -> Result<SyzygyView, SyzygyError> {
        let value = syzygy.probe(position)?;
        let (best_move, best_move_missing) = match syzygy.best_move(position) {
            Ok(best) => (best.map(|mv| NamedMove::new(position, mv)), None),
            Err(err) => (None, Some(err.to_string())),
        };
        Ok(SyzygyView {
            value,
            wdl: value.wdl.as_str(),
            dtz: value.dtz,
            dtz_rounded: value.dtz_rounded,
            best_move,
            best_move_missing,
        })
    }
}

/// The ply of `line` (from 1) after which fifty moves have been played
/// without a capture or pawn move, counted from `position`'s halfmove
/// clock, where that ply is not mate: from there either side may claim a
/// draw. `None` where the line never gets there.
pub fn fifty_moves_ply(position: &Chess, line: &[Move]) -> Option<usize> {
    let mut position = position.clone();
    for (ply, &mv) in line.iter().enumerate() {
        position.play_unchecked(mv);
        if position.halfmoves() >= 100 && !position.is_checkmate() {
            return Some(ply + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajedrecista_tables::{CastlingRights, Tablebase, Variant, read_fen};

    #[test]
    fn the_fifty_moves_are_counted_from_the_clock_and_a_mate_stands() {
        let tables = Tablebase::in_memory();
        // KQvK, mate in 6 (11 plies), no capture or pawn move on the way.
        let at = |clock: u32| {
            let fen = format!("8/8/8/8/8/2k5/8/K6Q w - - {clock} 1");
            let position = read_fen(&fen, CastlingRights::Refused).unwrap();
            let line = tables
                .principal_variation(&position, Variant::Standard)
                .unwrap();
            assert_eq!(line.len(), 11);
            fifty_moves_ply(&position, &line)
        };
        assert_eq!(at(0), None);
        assert_eq!(at(89), None);
        // The 100th ply without a capture is the mate itself: it stands.
        assert_eq!(at(90), Some(10));
        assert_eq!(at(99), Some(1));
    }
}
