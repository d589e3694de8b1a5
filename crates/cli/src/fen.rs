//! Reading positions from the command line.

use ajedrecista_tables::{CastlingRights, read_fen};
use shakmaty::Chess;

/// Reads a FEN into a position, with the tables' legality and no castling
/// rights (ajedrecista-tables' `read_fen`).
pub fn parse_fen(text: &str) -> anyhow::Result<Chess> {
    Ok(read_fen(text, CastlingRights::Refused)?)
}
