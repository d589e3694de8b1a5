//! The tablebase view: a position's value and every move with its DTM.

use std::sync::atomic::AtomicBool;

use ajedrecista_tables::{
    CastlingRights, FenError, Material, TableError, Tablebase, Value, Variant, read_fen,
};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, Chess, Color, Position, Square};

use ajedrecista_automata::{color_name, fen_of};

use crate::error::ApiError;

/// Tables of more men than this are built on request only if they are
/// already in the cache folder: a five-man build takes minutes and a
/// quarter of a gigabyte, which a web request should not start. Built
/// tables stay in memory: the 26 four-man tables take about 100 MB.
pub const MAX_MEN_BUILT_ON_REQUEST: usize = 4;

/// The same for the fixed-king game, which has a table per square of the
/// king: 64 three-man tables take 0.5 MB, four-man ones 34 MB a material.
pub const MAX_FIXED_KING_MEN_BUILT_ON_REQUEST: usize = 3;

/// The longest FEN accepted (a legal FEN of a few men is far shorter).
const MAX_FEN_LEN: usize = 100;

/// `GET /api/probe?fen=...&fixed_king=c3`
#[derive(Debug, Deserialize)]
pub struct ProbeQuery {
    pub fen: String,
    pub fixed_king: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct MoveValue {
    pub uci: String,
    pub san: String,
    /// What the mover gets by playing it: win, draw or loss.
    pub result: &'static str,
    pub dtm_plies: Option<u16>,
    pub dtm_moves: Option<u16>,
    /// The position after the move.
    pub fen: String,
}

#[derive(Debug, Serialize)]
pub struct ProbeView {
    pub fen: String,
    pub material: String,
    pub variant: String,
    pub turn: &'static str,
    /// For the side to move.
    pub result: &'static str,
    pub dtm_plies: Option<u16>,
    pub dtm_moves: Option<u16>,
    pub checkmate: bool,
    pub stalemate: bool,
    /// Best first.
    pub moves: Vec<MoveValue>,
    /// The principal variation in SAN.
    pub pv: Vec<String>,
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
    read_fen(text, CastlingRights::Refused).map_err(|err| match err {
        FenError::Syntax { .. } => ApiError::bad_request(err.to_string()),
        FenError::Illegal { .. } | FenError::CastlingRights => {
            ApiError::unprocessable(err.to_string())
        }
    })
}

/// The material of a position, if the tables may be asked about it now.
pub fn probeable_material(
    tables: &Tablebase,
    position: &Chess,
    variant: Variant,
) -> Result<Material, ApiError> {
    let material = Material::from_board(position.board())
        .map_err(|err| ApiError::unprocessable(err.to_string()))?;
    let cached = tables.in_cache_folder(&material, variant);
    let limit = match variant {
        Variant::Standard => MAX_MEN_BUILT_ON_REQUEST,
        Variant::FixedKing(_) => MAX_FIXED_KING_MEN_BUILT_ON_REQUEST,
    };
    if material.len() > limit && !cached {
        return Err(ApiError::unprocessable(format!(
            "{material} ({variant}): tables of more than {limit} men are served only \
             when built beforehand (ajedrecista solve)"
        )));
    }
    Ok(material)
}

/// A 503 for `work` stopped while its tables were built (its client has
/// gone or its time is up); a 500 where the server's own table files are
/// at fault (a table that contradicts itself, a file it cannot read or
/// write, a table it cannot build); a 422 for any other error of the
/// tables (the position asked about).
pub(crate) fn table_error(err: TableError, work: &str) -> ApiError {
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
    let variant =
        match query.fixed_king.as_deref().filter(|s| !s.is_empty()) {
            None => Variant::Standard,
            Some(text) => Variant::FixedKing(text.parse::<Square>().map_err(|_| {
                ApiError::bad_request(format!("fixed_king {text:?} is not a square"))
            })?),
        };
    if let Variant::FixedKing(square) = variant
        && position.board().king_of(Color::White) != Some(square)
    {
        return Err(ApiError::unprocessable(format!(
            "the white king must stand on {square}, its fixed square"
        )));
    }
    let material = probeable_material(tables, &position, variant)?;
    let table_error = |err| table_error(err, "probe");
    tables
        .prepare(&material, variant, stop)
        .map_err(table_error)?;
    let value = tables.probe(&position, variant).map_err(table_error)?;
    let moves = tables.moves(&position, variant).map_err(table_error)?;
    let pv = tables
        .principal_variation(&position, variant)
        .map_err(table_error)?;
    let mut line = position.clone();
    Ok(ProbeView {
        fen: fen_of(&position),
        material: material.to_string(),
        variant: variant.to_string(),
        turn: color_name(position.turn()),
        result: value.wdl().as_str(),
        dtm_plies: value.plies(),
        dtm_moves: value.moves(),
        checkmate: position.is_checkmate(),
        stalemate: position.is_stalemate(),
        moves: moves
            .iter()
            .map(|&(mv, value)| move_value(&position, mv, value))
            .collect(),
        pv: pv
            .iter()
            .map(|&mv| SanPlus::from_move_and_play_unchecked(&mut line, mv).to_string())
            .collect(),
    })
}

fn move_value(position: &Chess, mv: shakmaty::Move, value: Value) -> MoveValue {
    let mut after = position.clone();
    after.play_unchecked(mv);
    MoveValue {
        uci: mv.to_uci(CastlingMode::Standard).to_string(),
        san: San::from_move(position, mv).to_string(),
        result: value.wdl().as_str(),
        dtm_plies: value.plies(),
        dtm_moves: value.moves(),
        fen: fen_of(&after),
    }
}
