//! The tablebase view: a position's value and every move with its DTM.

use std::sync::atomic::AtomicBool;

use ajedrecista_automata::app::{BuildPolicy, ProbeError, ProbeView};
use ajedrecista_tables::{CastlingRights, FenError, TableError, Tablebase, Variant, read_fen};
use axum::http::StatusCode;
use serde::Deserialize;
use shakmaty::{Chess, Square};

use crate::error::ApiError;

/// The longest FEN accepted (a legal FEN of a few men is far shorter).
const MAX_FEN_LEN: usize = 100;

/// `GET /api/probe?fen=...&fixed_king=c3`
#[derive(Debug, Deserialize)]
pub struct ProbeQuery {
    pub fen: String,
    pub fixed_king: Option<String>,
}

impl ProbeQuery {
    /// The game the query asks about: the standard one, or the white king
    /// fixed on `fixed_king` (a square that cannot be read is a 400).
    pub fn variant(&self) -> Result<Variant, ApiError> {
        match self.fixed_king.as_deref().filter(|text| !text.is_empty()) {
            None => Ok(Variant::Standard),
            Some(text) => text
                .parse::<Square>()
                .map(Variant::FixedKing)
                .map_err(|_| ApiError::bad_request(format!("fixed_king {text:?} is not a square"))),
        }
    }
}

/// Reads a FEN into a position with the tables' legality and no castling
/// rights (ajedrecista-tables' `read_fen`): unreadable text is a 400, a
/// position the tables do not hold a 422.
pub fn parse_fen(text: &str) -> Result<Chess, ApiError> {
    if text.len() > MAX_FEN_LEN {
        return Err(ApiError::bad_request(format!(
            "FEN longer than {MAX_FEN_LEN} characters"
        )));
    }
    read_fen(text, CastlingRights::Refused).map_err(|err| match &err {
        FenError::Syntax { .. } => ApiError::bad_request(err.to_string()),
        FenError::Illegal { reason, .. } => match in_words(reason) {
            Some(words) => ApiError::unprocessable(format!("{err}: {words}")),
            None => ApiError::unprocessable(err.to_string()),
        },
        FenError::CastlingRights => ApiError::unprocessable(err.to_string()),
    })
}

/// What an illegal position's short reason (shakmaty's) means, for people.
fn in_words(reason: &str) -> Option<&'static str> {
    const WORDS: [(&str, &str); 6] = [
        (
            "opposite check",
            "the side not to move is in check, so its king could be taken; give the move to the other side or move a man",
        ),
        (
            "impossible check",
            "no last move could have given this check",
        ),
        ("missing king", "each side needs exactly one king"),
        ("too many kings", "each side needs exactly one king"),
        (
            "pawns on backrank",
            "a pawn cannot stand on the first or the last rank",
        ),
        (
            "empty board",
            "the board is empty: place the kings and the men",
        ),
    ];
    WORDS
        .iter()
        .find(|(short, _)| reason.contains(short))
        .map(|(_, words)| *words)
}

/// A 422 for a position the probe view refuses; a table error as
/// [`table_error`] says.
pub(crate) fn probe_error(err: ProbeError, work: &str) -> ApiError {
    match err {
        ProbeError::Table(err) => table_error(err, work),
        err => ApiError::unprocessable(err.to_string()),
    }
}

/// A 503 for `work` stopped while its tables were built (its client has
/// gone or its time is up); a 500 where the server's own table files are
/// at fault (a table that contradicts itself, a file it cannot read or
/// write, a table it cannot build); a 422 for any other error of the
/// tables (the position asked about).
fn table_error(err: TableError, work: &str) -> ApiError {
    match err {
        TableError::Stopped(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the {work} was stopped: its client has gone or its time is up"),
        ),
        TableError::Inconsistent(_)
        | TableError::File(_)
        | TableError::Io { .. }
        | TableError::MissingSubtable(_)
        | TableError::TooDeep(_) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string())
        }
        err => ApiError::unprocessable(err.to_string()),
    }
}

/// The tablebase view of `query` (blocking: it may build a small table,
/// which stops, with a 503, once `stop` is raised).
pub fn probe(
    tables: &Tablebase,
    query: &ProbeQuery,
    stop: &AtomicBool,
) -> Result<ProbeView, ApiError> {
    let position = parse_fen(&query.fen)?;
    let variant = query.variant()?;
    ProbeView::new(
        tables,
        &position,
        variant,
        BuildPolicy::Interactive,
        Some(stop),
    )
    .map_err(|err| probe_error(err, "probe"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_illegal_position_is_explained_in_words() {
        let err = parse_fen("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1").unwrap_err();
        assert!(
            err.message.contains("the side not to move is in check"),
            "{}",
            err.message
        );
        let err = parse_fen("8/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
        assert!(err.message.contains("exactly one king"), "{}", err.message);
    }
}
