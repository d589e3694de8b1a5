//! The tablebase view of a position: its value, every move with its value,
//! the principal variation in SAN; the fixed-king rule; and which tables a
//! front end may have built on request. `probe`, UCI's fallback move and
//! the web's probe and new-game routes all ask here.

use std::sync::atomic::AtomicBool;

use ajedrecista_tables::{
    CastlingRights, Cone, FenError, MAX_MEN_BUILT_ON_DEMAND, Material, MaterialError, Moves, Plies,
    ReadingOrder, Syzygy, SyzygyError, TableError, Tablebase, Value, Variant, fen_with_fullmoves,
    fullmoves_after, read_fen,
};
use serde::Serialize;
use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Square};

use super::syzygy::{SyzygyView, fifty_moves_ply};
use crate::game::fen_of;
use crate::view::color_name;

/// Which tables a probe may have built when they are neither in memory nor
/// in the cache folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildPolicy {
    /// Whatever the tablebase builds itself: up to five men (a six-man
    /// table takes an hour and gigabytes, and is built only when named by
    /// `solve`). The command line, UCI (which builds in the background and
    /// answers meanwhile), and perfect play's precondition.
    Patient,
    /// An answer within seconds (the web): up to four men, three in
    /// the fixed-king game, larger tables only once at hand (the web has
    /// them built in the background: [`super::BuildQueue`]). A
    /// five-man build takes minutes and a quarter of a gigabyte; the
    /// fixed-king game has a table per square of the king (64 three-man
    /// tables take 0.5 MB, four-man ones 34 MB a material). Built tables
    /// stay in memory: the 26 four-man tables take about 100 MB.
    Interactive,
}

impl BuildPolicy {
    /// The most men of a table built on request under this policy.
    pub const fn most_men_built(self, variant: Variant) -> usize {
        match (self, variant) {
            (BuildPolicy::Patient, _) => MAX_MEN_BUILT_ON_DEMAND,
            (BuildPolicy::Interactive, Variant::Standard) => 4,
            (BuildPolicy::Interactive, Variant::FixedKing(_)) => 3,
        }
    }

    /// The material of `position`, if its table may be had under this
    /// policy (in memory, in the cache folder, its cone built there, or
    /// small enough to build).
    pub fn material(
        self,
        tables: &Tablebase,
        position: &Chess,
        variant: Variant,
    ) -> Result<Material, ProbeError> {
        let material = Material::from_board(position.board())?;
        let limit = self.most_men_built(variant);
        // Cones are built by probes only, so of tables built on demand.
        let at_hand = || {
            tables.prober().has_table(&material, variant)
                || (material.len() <= MAX_MEN_BUILT_ON_DEMAND
                    && matches!(tables.cone(position, variant), Ok(Some(cone)) if cone.is_built()))
        };
        if material.len() > limit && !at_hand() {
            return Err(ProbeError::NotBuiltOnRequest {
                material,
                variant,
                limit,
            });
        }
        Ok(material)
    }

    /// Has the table of `position` at hand, loaded or built as this policy
    /// allows, under `stop` ([`TableError::Stopped`] once it is raised):
    /// what a probe or a new game from a position asked over the web does
    /// first, so that the work may be abandoned.
    pub fn prepare(
        self,
        tables: &Tablebase,
        position: &Chess,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<Material, ProbeError> {
        let material = self.material(tables, position, variant)?;
        tables.prepare_position(position, variant, stop)?;
        Ok(material)
    }

    /// What [`BuildPolicy::prepare`] would build for `position`, where it
    /// is a cone ([`Cone`]: of a table with pawns not in the cache folder,
    /// the slices its pawns reach and the tables they read): for a front
    /// end to say how long it takes before it starts.
    pub fn cone(
        self,
        tables: &Tablebase,
        position: &Chess,
        variant: Variant,
    ) -> Result<Option<Cone>, ProbeError> {
        self.material(tables, position, variant)?;
        Ok(tables.cone(position, variant)?)
    }
}

/// Why a position has no tablebase view.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("the white king must stand on {0}, its fixed square")]
    KingNotOnFixedSquare(Square),
    #[error(transparent)]
    Material(#[from] MaterialError),
    #[error(
        "{material} ({variant}): tables of more than {limit} men are served only when built beforehand (ajedrecista solve)"
    )]
    NotBuiltOnRequest {
        material: Material,
        variant: Variant,
        limit: usize,
    },
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Syzygy(#[from] SyzygyError),
}

/// In the fixed-king game the white king stands on its square.
pub fn check_fixed_king(position: &Chess, variant: Variant) -> Result<(), ProbeError> {
    match variant {
        Variant::FixedKing(square) if position.board().king_of(Color::White) != Some(square) => {
            Err(ProbeError::KingNotOnFixedSquare(square))
        }
        _ => Ok(()),
    }
}

/// The value of `position` alone (`probe --epd`'s lines): the fixed-king
/// rule and the policy checked, then the tables asked.
pub fn probe_value(
    tables: &Tablebase,
    position: &Chess,
    variant: Variant,
    policy: BuildPolicy,
) -> Result<Value, ProbeError> {
    check_fixed_king(position, variant)?;
    policy.material(tables, position, variant)?;
    Ok(tables.probe(position, variant)?)
}

/// Why a line of a FEN or EPD file has no value.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error(
        "a FEN or EPD needs at least 4 fields (board, side to move, castling, en passant), this line has {0}"
    )]
    TooFewFields(usize),
    #[error("a FEN has 6 fields (an EPD's operations start with a letter), this line has {0}")]
    NotSixFields(usize),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Probe(#[from] ProbeError),
}

/// The FEN of a line of a FEN or EPD file: a FEN's 6 fields, or an EPD's
/// first 4 (its operations ignored). `None` for a blank line or a `#`
/// comment.
pub fn fen_of_line(text: &str) -> Option<Result<String, LineError>> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return None;
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 4 {
        return Some(Err(LineError::TooFewFields(fields.len())));
    }
    let counters = fields.len() > 4 && fields[4].starts_with(|c: char| c.is_ascii_digit());
    Some(if !counters {
        Ok(fields[..4].join(" "))
    } else if fields.len() == 6 {
        Ok(fields.join(" "))
    } else {
        Err(LineError::NotSixFields(fields.len()))
    })
}

/// The answers to a batch of lines of a FEN or EPD file (`probe --epd`),
/// in the lines' order: each line's value and its FEN as written back,
/// `None` for a line [`fen_of_line`] skips. The lines are probed in the order their values lie in
/// the tables' files ([`ReadingOrder`]), so that each chunk of a file is
/// read once a batch however few chunks are kept in memory.
pub fn probe_lines(
    tables: &Tablebase,
    lines: &[&str],
    variant: Variant,
    policy: BuildPolicy,
) -> Vec<Option<Result<(String, Value), LineError>>> {
    let mut order = ReadingOrder::new();
    let mut read: Vec<Option<Result<Chess, LineError>>> = lines
        .iter()
        .map(|text| {
            fen_of_line(text)
                .map(|fen| fen.and_then(|fen| Ok(read_fen(&fen, CastlingRights::Refused)?)))
        })
        .collect();
    let mut probed: Vec<usize> = (0..lines.len()).collect();
    probed.sort_by_cached_key(|&i| match &read[i] {
        Some(Ok(position)) => order.place(position, variant),
        _ => None,
    });
    let mut answers: Vec<Option<Result<(String, Value), LineError>>> =
        (0..lines.len()).map(|_| None).collect();
    for i in probed {
        answers[i] = read[i].take().map(|position| {
            let position = position?;
            let value = probe_value(tables, &position, variant, policy)?;
            Ok((fen_of(&position), value))
        });
    }
    answers
}

/// The tables' best move in orthodox chess, with what the mover gets by
/// it (UCI's answer where the automaton has none). The caller has seen a
/// legal move.
pub fn tables_move(
    tables: &Tablebase,
    position: &Chess,
    policy: BuildPolicy,
) -> Result<(Move, Value), ProbeError> {
    policy.material(tables, position, Variant::Standard)?;
    let moves = tables.moves(position, Variant::Standard)?;
    Ok(*moves.first().expect("the caller has seen a legal move"))
}

/// One legal move and what the side to move gets by playing it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveValue {
    pub uci: String,
    pub san: String,
    /// What the mover gets by playing it: win, draw or loss.
    pub result: &'static str,
    pub dtm_plies: Option<Plies>,
    pub dtm_moves: Option<Moves>,
    /// The position after the move.
    pub fen: String,
}

/// Where a probe's answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Our DTM tables (with Syzygy's answer beside, where it has one).
    Tables,
    /// Syzygy alone: the DTM table is not built.
    Syzygy,
}

/// A position as the tables see it (docs/json.md, `probe`; docs/web.md,
/// `/api/probe`).
#[derive(Debug, Clone, Serialize)]
pub struct ProbeView {
    /// The value itself, for text output (`result` and the distances
    /// below are its JSON form); `None` when Syzygy alone answered.
    #[serde(skip)]
    pub value: Option<Value>,
    pub fen: String,
    pub material: String,
    pub variant: String,
    pub turn: &'static str,
    pub source: Source,
    /// For the side to move, without the fifty-move rule.
    pub result: &'static str,
    pub dtm_plies: Option<Plies>,
    pub dtm_moves: Option<Moves>,
    pub checkmate: bool,
    pub stalemate: bool,
    /// Best first (none when Syzygy alone answered).
    pub moves: Vec<MoveValue>,
    /// The principal variation in SAN, with `+` and `#`.
    pub pv: Vec<String>,
    /// The ply of `pv` after which fifty moves have passed without a
    /// capture or pawn move ([`fifty_moves_ply`]).
    pub pv_fifty_moves_ply: Option<usize>,
    /// Syzygy's answer, where a Syzygy folder was given and holds it.
    pub syzygy: Option<SyzygyView>,
    /// Why Syzygy has no answer beside the DTM's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syzygy_error: Option<String>,
}

impl ProbeView {
    /// The view of `position` under `policy`; with `stop`, its tables are
    /// had first under that flag ([`TableError::Stopped`] once it is
    /// raised: work that may be abandoned, such as a web request).
    ///
    /// With `syzygy` (the orthodox game only), a position whose DTM table
    /// is not built is answered by Syzygy at once, no table built; where
    /// Syzygy lacks its table too, as without it. Where the DTM table is
    /// built, Syzygy's answer is added.
    pub fn new(
        tables: &Tablebase,
        syzygy: Option<&Syzygy>,
        position: &Chess,
        variant: Variant,
        policy: BuildPolicy,
        stop: Option<&AtomicBool>,
    ) -> Result<ProbeView, ProbeError> {
        check_fixed_king(position, variant)?;
        let syzygy = syzygy.filter(|_| variant == Variant::Standard);
        if let Some(syzygy) = syzygy {
            let material = Material::from_board(position.board())?;
            if !tables.prober().has_table(&material, variant) {
                match SyzygyView::new(syzygy, position) {
                    Ok(answer) => return Ok(ProbeView::of_syzygy(position, material, answer)),
                    Err(SyzygyError::NoTable { .. } | SyzygyError::TooManyMen { .. }) => {}
                    Err(err) => return Err(err.into()),
                }
            }
        }
        let material = match stop {
            Some(stop) => policy.prepare(tables, position, variant, stop)?,
            None => policy.material(tables, position, variant)?,
        };
        let value = tables.probe(position, variant)?;
        let moves = tables.moves(position, variant)?;
        let pv = tables.principal_variation(position, variant)?;
        let (syzygy, syzygy_error) = match syzygy.map(|syzygy| SyzygyView::new(syzygy, position)) {
            None => (None, None),
            Some(Ok(answer)) => (Some(answer), None),
            Some(Err(err)) => (None, Some(err.to_string())),
        };
        Ok(ProbeView {
            value: Some(value),
            fen: fen_of(position),
            material: material.to_string(),
            variant: variant.to_string(),
            turn: color_name(position.turn()),
            source: Source::Tables,
            result: value.wdl().as_str(),
            dtm_plies: value.plies(),
            dtm_moves: value.moves(),
            checkmate: position.is_checkmate(),
            stalemate: position.is_stalemate(),
            moves: moves
                .iter()
                .map(|&(mv, value)| move_value(position, mv, value))
                .collect(),
            pv_fifty_moves_ply: fifty_moves_ply(position, &pv),
            pv: san_line(position, &pv),
            syzygy,
            syzygy_error,
        })
    }

    fn of_syzygy(position: &Chess, material: Material, answer: SyzygyView) -> ProbeView {
        ProbeView {
            value: None,
            fen: fen_of(position),
            material: material.to_string(),
            variant: Variant::Standard.to_string(),
            turn: color_name(position.turn()),
            source: Source::Syzygy,
            result: answer.value.wdl.without_fifty_moves().as_str(),
            dtm_plies: None,
            dtm_moves: None,
            checkmate: position.is_checkmate(),
            stalemate: position.is_stalemate(),
            moves: Vec::new(),
            pv: Vec::new(),
            pv_fifty_moves_ply: None,
            syzygy: Some(answer),
            syzygy_error: None,
        }
    }

    /// The principal variation with move numbers: `1. Qb7+ Kd8 2. ...`,
    /// `1... Kd8` when Black moves first.
    pub fn numbered_pv(&self, start: &Chess) -> String {
        // u64: the line goes on past a fullmove number of u32::MAX.
        let mut number = u64::from(start.fullmoves().get());
        let mut white = start.turn() == Color::White;
        let mut out = Vec::new();
        for (i, san) in self.pv.iter().enumerate() {
            if white {
                out.push(format!("{number}. {san}"));
            } else if i == 0 {
                out.push(format!("{number}... {san}"));
            } else {
                out.push(san.clone());
            }
            if !white {
                number += 1;
            }
            white = !white;
        }
        out.join(" ")
    }
}

fn move_value(position: &Chess, mv: Move, value: Value) -> MoveValue {
    let mut after = position.clone();
    after.play_unchecked(mv);
    MoveValue {
        uci: mv.to_uci(CastlingMode::Standard).to_string(),
        san: San::from_move(position, mv).to_string(),
        result: value.wdl().as_str(),
        dtm_plies: value.plies(),
        dtm_moves: value.moves(),
        // Counted on past u32::MAX, where shakmaty's counter stops.
        fen: fen_with_fullmoves(&after, fullmoves_after(position, 1)),
    }
}

/// SAN of a line of moves from `position`, with check and mate marks.
pub fn san_line(position: &Chess, line: &[Move]) -> Vec<String> {
    let mut position = position.clone();
    line.iter()
        .map(|&mv| SanPlus::from_move_and_play_unchecked(&mut position, mv).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajedrecista_tables::{CastlingRights, read_fen};

    fn position(fen: &str) -> Chess {
        read_fen(fen, CastlingRights::Refused).unwrap()
    }

    #[test]
    fn a_line_gives_a_fen_or_says_why_not() {
        let fen = |text| fen_of_line(text).map(|r| r.map_err(|e| e.to_string()));
        assert_eq!(fen("  "), None);
        assert_eq!(fen("# a comment"), None);
        assert_eq!(
            fen("8/8/8/8/8/2k5/8/K6Q w - - bm Qc1; id \"x\";"),
            Some(Ok("8/8/8/8/8/2k5/8/K6Q w - -".to_owned()))
        );
        assert_eq!(
            fen(" 8/8/8/8/8/2k5/8/K6Q w - - 0 1 "),
            Some(Ok("8/8/8/8/8/2k5/8/K6Q w - - 0 1".to_owned()))
        );
        assert!(matches!(
            fen_of_line("8/8/8/8/8/2k5/8/K6Q w -"),
            Some(Err(LineError::TooFewFields(3)))
        ));
        assert!(matches!(
            fen_of_line("8/8/8/8/8/2k5/8/K6Q w - - 0"),
            Some(Err(LineError::NotSixFields(5)))
        ));
    }

    #[test]
    fn lines_are_probed_after_their_fen_is_read_and_answered_in_order() {
        let tables = Tablebase::in_memory();
        let probe =
            |texts: &[&str], variant| probe_lines(&tables, texts, variant, BuildPolicy::Patient);
        let mut answers = probe(
            &[
                "8/8/8/8/8/2k5/8/K6Q w - -",
                "# a comment",
                "8/8/8/8/8/2k5/8/K6X w - -",
                "8/8/8/8/8/8/2k5/K6Q w - -",
            ],
            Variant::Standard,
        )
        .into_iter();
        let (fen, value) = answers.next().unwrap().unwrap().unwrap();
        assert_eq!(fen, "8/8/8/8/8/2k5/8/K6Q w - - 0 1");
        assert!(value.plies().is_some());
        assert!(answers.next().unwrap().is_none());
        assert!(matches!(answers.next(), Some(Some(Err(LineError::Fen(_))))));
        let (fen, _) = answers.next().unwrap().unwrap().unwrap();
        assert_eq!(fen, "8/8/8/8/8/8/2k5/K6Q w - - 0 1");
        assert!(answers.next().is_none());
        let fixed = Variant::FixedKing(Square::B1);
        assert!(matches!(
            probe(&["8/8/8/8/8/2k5/8/K6Q w - -"], fixed).pop(),
            Some(Some(Err(LineError::Probe(
                ProbeError::KingNotOnFixedSquare(Square::B1)
            ))))
        ));
    }

    #[test]
    fn the_interactive_policy_builds_four_men_and_three_with_a_fixed_king() {
        let tables = Tablebase::in_memory();
        let five = position("8/8/8/8/8/2k5/1R6/KQ5r w - - 0 1");
        let err = BuildPolicy::Interactive
            .material(&tables, &five, Variant::Standard)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "KQRvKR (standard): tables of more than 4 men are served only when built beforehand (ajedrecista solve)"
        );
        assert!(
            BuildPolicy::Patient
                .material(&tables, &five, Variant::Standard)
                .is_ok()
        );
        let four = position("8/8/8/8/8/2k5/1R6/KQ6 w - - 0 1");
        let fixed = Variant::FixedKing(Square::A1);
        assert!(matches!(
            BuildPolicy::Interactive.material(&tables, &four, fixed),
            Err(ProbeError::NotBuiltOnRequest { limit: 3, .. })
        ));
    }

    #[test]
    fn the_view_holds_the_value_the_moves_and_a_numbered_line() {
        let tables = Tablebase::in_memory();
        let start = position("8/8/8/8/8/2k5/8/K6Q w - - 0 1");
        let view = ProbeView::new(
            &tables,
            None,
            &start,
            Variant::Standard,
            BuildPolicy::Patient,
            None,
        )
        .unwrap();
        assert_eq!(
            (view.result, view.dtm_plies, view.dtm_moves),
            ("win", Some(Plies(11)), Some(Moves(6)))
        );
        assert_eq!(view.moves[0].result, "win");
        assert_eq!(view.pv.len(), 11);
        assert!(view.numbered_pv(&start).starts_with("1. "));
        assert!(view.pv.last().unwrap().ends_with('#'));
        let err = ProbeView::new(
            &tables,
            None,
            &start,
            Variant::FixedKing(Square::B1),
            BuildPolicy::Patient,
            None,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the white king must stand on b1, its fixed square"
        );
    }

    #[test]
    fn syzygy_answers_where_no_dtm_table_is_built_and_stands_beside_one_that_is() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../tables/tests/data/syzygy");
        let syzygy = Syzygy::open(std::path::Path::new(folder)).unwrap();
        let tables = Tablebase::in_memory();
        let view = |fen, syzygy| {
            ProbeView::new(
                &tables,
                syzygy,
                &position(fen),
                Variant::Standard,
                BuildPolicy::Patient,
                None,
            )
            .unwrap()
        };
        let kqk = "8/8/8/8/8/2k5/8/K6Q w - - 0 1";
        let quick = view(kqk, Some(&syzygy));
        let material = Material::from_board(position(kqk).board()).unwrap();
        assert!(!tables.has_built(&material, Variant::Standard));
        assert_eq!((quick.source, quick.result), (Source::Syzygy, "win"));
        assert!(quick.value.is_none() && quick.moves.is_empty() && quick.pv.is_empty());
        let answer = quick.syzygy.unwrap();
        assert_eq!(answer.wdl, "win");
        assert!(answer.dtz > 0 && answer.best_move.is_some());

        let built = view(kqk, None);
        assert!(tables.has_built(&material, Variant::Standard));
        assert_eq!(built.syzygy.map(|s| s.dtz), None);
        let both = view(kqk, Some(&syzygy));
        assert_eq!(both.source, Source::Tables);
        assert_eq!(both.dtm_plies, Some(Plies(11)));
        assert_eq!(both.syzygy.map(|s| s.dtz), Some(answer.dtz));

        // No KBNvK in the Syzygy folder: the DTM table is built, as
        // without Syzygy, and Syzygy's error noted.
        let kbnk = view("8/8/8/4k3/8/8/8/KBN5 w - - 0 1", Some(&syzygy));
        assert_eq!(kbnk.source, Source::Tables);
        assert!(kbnk.dtm_plies.is_some());
        assert!(kbnk.syzygy_error.unwrap().contains("KBNvK"));
    }
}
