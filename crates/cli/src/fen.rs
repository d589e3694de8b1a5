//! Reading positions from the command line.

use anyhow::Context;
use shakmaty::{CastlingMode, Chess, Position, PositionError, fen::Fen};

/// Reads a FEN into a position; legality as the tables define it (a check
/// that no last move could give is allowed).
pub fn parse_fen(text: &str) -> anyhow::Result<Chess> {
    let fen: Fen = text
        .trim()
        .parse()
        .with_context(|| format!("cannot read FEN {text:?}"))?;
    let pos = fen
        .into_position::<Chess>(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|err| anyhow::anyhow!("illegal position {text:?}: {err}"))?;
    if pos.castles().any() {
        anyhow::bail!(
            "castling rights are not supported by the tables: write '-' in the FEN's castling field"
        );
    }
    Ok(pos)
}
