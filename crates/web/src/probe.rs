//! The tablebase view: a position's value and every move with its DTM.

use std::sync::atomic::AtomicBool;

use ajedrecista_automata::app::{
    BuildPolicy, BuildTicket, LinePgnError, ProbeError, ProbeView, QueueError, line_pgn,
};
use ajedrecista_tables::{
    CastlingRights, FenError, Material, Syzygy, SyzygyError, TableError, Tablebase, Variant,
    read_fen,
};
use axum::http::StatusCode;
use serde::Deserialize;
use shakmaty::{Chess, Position, Square};

use crate::AppState;
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
/// position the tables do not hold a 422 (an illegal one with the tables'
/// reasons in words).
pub fn parse_fen(text: &str) -> Result<Chess, ApiError> {
    if text.len() > MAX_FEN_LEN {
        return Err(ApiError::bad_request(format!(
            "FEN longer than {MAX_FEN_LEN} characters"
        )));
    }
    read_fen(text, CastlingRights::Refused).map_err(|err| match err {
        FenError::Syntax { .. } => ApiError::bad_request(err.to_string()),
        FenError::Illegal { .. } | FenError::CastlingRights => {
            ApiError::unprocessable(err.to_string())
        }
    })
}

/// A 422 for a position the probe view refuses; a table error as
/// [`table_error`] says; a 500 for the server's Syzygy files at fault.
pub(crate) fn probe_error(err: ProbeError, work: &str) -> ApiError {
    match err {
        ProbeError::Table(err) => table_error(err, work),
        ProbeError::Syzygy(err @ (SyzygyError::BadFile { .. } | SyzygyError::BadTable { .. })) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string())
        }
        err => ApiError::unprocessable(err.to_string()),
    }
}

/// A 503 for `work` stopped while its tables were built (its client has
/// gone or its time is up), or whose table file did not answer in time
/// (left alone, named); a 500 where the server's own table files are
/// at fault (a table that contradicts itself, a file it cannot read or
/// write, a table it cannot build); a 422 for any other error of the
/// tables (the position asked about).
fn table_error(err: TableError, work: &str) -> ApiError {
    match err {
        TableError::Stopped(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the {work} was stopped: its client has gone or its time is up"),
        ),
        TableError::Hung { .. } => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, err.to_string()),
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

impl ProbeQuery {
    /// The position and game asked about, read once.
    pub fn read(&self) -> Result<(Chess, Variant), ApiError> {
        Ok((parse_fen(&self.fen)?, self.variant()?))
    }
}

/// Whether the prober has the table of a probe asked for at hand (in
/// memory or in the cache folder), or Syzygy answers it, so that the probe
/// runs on its request thread; else it may build and goes to the work
/// pool. A query that cannot be read is at hand: its answer is an error.
pub fn at_hand(
    tables: &Tablebase,
    syzygy: Option<&Syzygy>,
    asked: &Result<(Chess, Variant), ApiError>,
) -> bool {
    let Ok((position, variant)) = asked else {
        return true;
    };
    let in_syzygy =
        || *variant == Variant::Standard && syzygy.is_some_and(|s| s.probe(position).is_ok());
    Material::from_board(position.board()).map_or(true, |material| {
        tables.prober().has_table(&material, *variant)
    }) || in_syzygy()
}

/// The tablebase view of a position asked for (blocking: it may build a
/// small table, which stops, with a 503, once `stop` is raised), from
/// `syzygy` at once where the DTM table is not built.
pub fn probe(
    tables: &Tablebase,
    syzygy: Option<&Syzygy>,
    asked: Result<(Chess, Variant), ApiError>,
    stop: &AtomicBool,
) -> Result<ProbeView, ApiError> {
    let (position, variant) = asked?;
    ProbeView::new(
        tables,
        syzygy,
        &position,
        variant,
        BuildPolicy::Interactive,
        Some(stop),
    )
    .map_err(|err| probe_error(err, "probe"))
}

/// A probe's answer: the view, or the ticket of the build its table waits
/// for (a 202).
pub enum ProbeAnswer {
    View(Box<ProbeView>),
    Building(BuildTicket),
}

/// [`probe`], where a table too large to build within a request is
/// queued for a build in the background instead ([`QueueError::Busy`]
/// is a 503 in words).
pub fn probe_or_queue(
    state: &AppState,
    asked: Result<(Chess, Variant), ApiError>,
    stop: &AtomicBool,
) -> Result<ProbeAnswer, ApiError> {
    let (position, variant) = asked?;
    let view = || {
        ProbeView::new(
            &state.tables,
            state.syzygy.as_deref(),
            &position,
            variant,
            BuildPolicy::Interactive,
            Some(stop),
        )
    };
    match view() {
        Err(ProbeError::NotBuiltOnRequest { .. }) => {}
        answer => {
            return answer
                .map(|view| ProbeAnswer::View(Box::new(view)))
                .map_err(|err| probe_error(err, "probe"));
        }
    }
    match state.queue.ask(&position, variant) {
        Ok(Some(ticket)) => Ok(ProbeAnswer::Building(ticket)),
        // Built between the two looks.
        Ok(None) => view()
            .map(|view| ProbeAnswer::View(Box::new(view)))
            .map_err(|err| probe_error(err, "probe")),
        Err(err @ QueueError::Busy { .. }) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            err.to_string(),
        )),
        Err(err @ QueueError::Failed { .. }) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            err.to_string(),
        )),
        Err(QueueError::Probe(err)) => Err(probe_error(err, "probe")),
    }
}

/// `GET /api/probe/pgn?fen=START&moves=UCI,UCI,...[&fixed_king=SQ]`: the
/// analysis board's line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineQuery {
    pub fen: String,
    #[serde(default)]
    pub moves: String,
    pub fixed_king: Option<String>,
}

/// The PGN of a line asked for, each move with its value as a comment
/// (blocking: it may build a small table); a line that cannot be played
/// is a 422 saying which move.
pub fn line(tables: &Tablebase, query: &LineQuery) -> Result<String, ApiError> {
    let asked = ProbeQuery {
        fen: query.fen.clone(),
        fixed_king: query.fixed_king.clone(),
    };
    let (start, variant) = asked.read()?;
    let ucis: Vec<&str> = query.moves.split(',').filter(|m| !m.is_empty()).collect();
    line_pgn(tables, &start, &ucis, variant, BuildPolicy::Interactive).map_err(|err| match err {
        LinePgnError::Probe(err) => probe_error(err, "line"),
        err => ApiError::unprocessable(err.to_string()),
    })
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

    /// Issue 57, item 1: a table file that did not answer in time is a 503
    /// naming it (the server's disk stopped answering; the file is left as
    /// it is), a damaged one a 500.
    #[test]
    fn a_table_file_that_does_not_answer_is_a_503_naming_it() {
        let hung = table_error(
            TableError::Hung {
                path: "tables/KRvK.standard.ajt".into(),
                error: ajedrecista_tables::FileError::Unanswered,
            },
            "probe",
        );
        assert_eq!(hung.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            hung.message
                .starts_with("table file tables/KRvK.standard.ajt: ")
                && hung.message.ends_with("; it is left as it is"),
            "{}",
            hung.message
        );
        let damaged = table_error(
            TableError::File(ajedrecista_tables::FileError::Checksum),
            "probe",
        );
        assert_eq!(damaged.status, StatusCode::INTERNAL_SERVER_ERROR);
    }
}
