//! Syzygy files a user already has, read with shakmaty-syzygy: WDL under
//! the fifty-move rule and DTZ (plies to the next capture or pawn move) at
//! once, where a DTM table of ours would take minutes to build.

use std::{
    fmt, io,
    path::{Path, PathBuf},
};

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, ProbeError, SyzygyError as Probed, Tablebase};

use crate::value::Wdl;

/// The environment variable naming the Syzygy folder, beside
/// [`TABLES_ENV`](crate::TABLES_ENV).
pub const SYZYGY_ENV: &str = "AJEDRECISTA_SYZYGY";

/// Why a Syzygy folder could not be opened, or a position not probed.
#[derive(Debug, thiserror::Error)]
pub enum SyzygyError {
    #[error("Syzygy folder {path}: {error}")]
    Folder { path: PathBuf, error: io::Error },
    #[error("Syzygy folder {0} holds no table files (.rtbw, .rtbz)")]
    NoFiles(PathBuf),
    #[error("Syzygy has no {metric} table {material} in {dir} ({material}.{ext})")]
    NoTable {
        metric: &'static str,
        ext: &'static str,
        material: String,
        dir: PathBuf,
    },
    #[error("Syzygy file {path}: {reason}")]
    BadFile { path: PathBuf, reason: String },
    #[error("Syzygy {metric} table {material}: {reason}")]
    BadTable {
        metric: &'static str,
        material: String,
        reason: String,
    },
    #[error("Syzygy: {men} men, more than the tables of {dir} hold ({most})")]
    TooManyMen {
        men: usize,
        most: usize,
        dir: PathBuf,
    },
    #[error("Syzygy tables hold no castling rights: write '-' in the FEN's castling field")]
    CastlingRights,
}

/// WDL as Syzygy states it, for the side to move: a cursed win is a win
/// that the fifty-move rule turns into a draw, a blessed loss a loss it
/// saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SyzygyWdl {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl SyzygyWdl {
    /// The JSON word: `win`, `cursed-win`, `draw`, `blessed-loss`, `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            SyzygyWdl::Loss => "loss",
            SyzygyWdl::BlessedLoss => "blessed-loss",
            SyzygyWdl::Draw => "draw",
            SyzygyWdl::CursedWin => "cursed-win",
            SyzygyWdl::Win => "win",
        }
    }

    /// Syzygy's number for it, -2 (loss) to 2 (win).
    pub fn number(self) -> i8 {
        match self {
            SyzygyWdl::Loss => -2,
            SyzygyWdl::BlessedLoss => -1,
            SyzygyWdl::Draw => 0,
            SyzygyWdl::CursedWin => 1,
            SyzygyWdl::Win => 2,
        }
    }

    /// The result without the fifty-move rule, as DTM tables count it.
    pub fn without_fifty_moves(self) -> Wdl {
        match self {
            SyzygyWdl::Loss | SyzygyWdl::BlessedLoss => Wdl::Loss,
            SyzygyWdl::Draw => Wdl::Draw,
            SyzygyWdl::CursedWin | SyzygyWdl::Win => Wdl::Win,
        }
    }

    fn of(wdl: shakmaty_syzygy::Wdl) -> SyzygyWdl {
        match wdl {
            shakmaty_syzygy::Wdl::Loss => SyzygyWdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => SyzygyWdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => SyzygyWdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => SyzygyWdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => SyzygyWdl::Win,
        }
    }
}

/// In words: `cursed win`, `blessed loss`.
impl fmt::Display for SyzygyWdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_str().replace('-', " "))
    }
}

/// A position's value in Syzygy's metrics, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyzygyValue {
    /// As if the position had just been reached by a capture or a pawn
    /// move (its halfmove clock ignored), as python-chess's `probe_wdl`.
    pub wdl: SyzygyWdl,
    /// Plies to the next capture or pawn move with best play: positive
    /// when winning, negative when losing, 0 for a draw; beyond 100 (in
    /// size) for a cursed win or blessed loss.
    pub dtz: i32,
    /// Some DTZ tables store some distances halved: this one may be one
    /// ply more than the true distance.
    pub dtz_rounded: bool,
}

/// The most centipawns [`SyzygyValue::centipawns`] gives, for a win whose
/// next capture or pawn move is at once.
pub const WIN_CENTIPAWNS: i32 = 10_000;

impl SyzygyValue {
    /// A UCI `score cp` for the side to move: [`WIN_CENTIPAWNS`] less the
    /// DTZ plies for a win still won under the fifty-move rule after the
    /// position's `halfmoves` (the plies since the last capture or pawn
    /// move), its negation for such a loss, 0 for a draw, a cursed win or
    /// a blessed loss (the fifty-move rule draws them).
    pub fn centipawns(self, halfmoves: u32) -> i32 {
        let dtz = MaybeRounded::Precise(Dtz(self.dtz)).add_plies_saturating(halfmoves);
        match shakmaty_syzygy::Wdl::from_dtz_after_zeroing(dtz) {
            shakmaty_syzygy::Wdl::Win => WIN_CENTIPAWNS - self.dtz.abs(),
            shakmaty_syzygy::Wdl::Loss => -(WIN_CENTIPAWNS - self.dtz.abs()),
            _ => 0,
        }
    }
}

/// Syzygy's best move from a position and what it is worth, for an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyzygyMove {
    pub best: Move,
    /// The position's value (before the move).
    pub value: SyzygyValue,
    /// [`SyzygyValue::centipawns`] of the position, its halfmove clock
    /// counted.
    pub centipawns: i32,
}

/// The Syzygy files of a folder, opened lazily as probes need them.
pub struct Syzygy {
    tables: Tablebase<Chess>,
    dir: PathBuf,
    files: usize,
}

impl fmt::Debug for Syzygy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Syzygy")
            .field("dir", &self.dir)
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl Syzygy {
    /// The `.rtbw` and `.rtbz` files of `dir` (other files are ignored;
    /// they are opened at their first probe). A folder that cannot be
    /// read, or holds none, is an error; so is a table file whose size no
    /// Syzygy file has.
    pub fn open(dir: &Path) -> Result<Syzygy, SyzygyError> {
        let folder = |error| SyzygyError::Folder {
            path: dir.to_path_buf(),
            error,
        };
        let mut tables = Tablebase::new();
        let mut files = 0;
        let mut paths = std::fs::read_dir(dir)
            .map_err(folder)?
            .map(|entry| entry.map(|entry| entry.path()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(folder)?;
        paths.sort();
        for path in paths {
            match tables.add_file(&path) {
                Ok(()) => files += 1,
                // Not named as a table file.
                Err(err) if err.kind() == io::ErrorKind::InvalidInput => {}
                Err(err) => {
                    return Err(SyzygyError::BadFile {
                        path,
                        reason: err.to_string(),
                    });
                }
            }
        }
        if files == 0 {
            return Err(SyzygyError::NoFiles(dir.to_path_buf()));
        }
        Ok(Syzygy {
            tables,
            dir: dir.to_path_buf(),
            files,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many table files (WDL and DTZ) the folder holds.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most men of the folder's tables.
    pub fn most_men(&self) -> usize {
        self.tables.max_pieces()
    }

    /// WDL and DTZ of `pos`. The tables of its material and of every
    /// material its captures (and, for DTZ, its pawn moves) lead into are
    /// needed.
    pub fn probe(&self, pos: &Chess) -> Result<SyzygyValue, SyzygyError> {
        let wdl = self
            .tables
            .probe_wdl_after_zeroing(pos)
            .map_err(|err| self.error(pos, err))?;
        let dtz = self
            .tables
            .probe_dtz(pos)
            .map_err(|err| self.error(pos, err))?;
        Ok(SyzygyValue {
            wdl: SyzygyWdl::of(wdl),
            dtz: dtz.ignore_rounding().0,
            dtz_rounded: dtz.precise().is_none(),
        })
    }

    /// The best move by Syzygy (shakmaty-syzygy's `best_move`: the best WDL
    /// after the move, then the best DTZ, as python-chess and engines
    /// choose); `None` where there is no legal move.
    pub fn best_move(&self, pos: &Chess) -> Result<Option<Move>, SyzygyError> {
        Ok(self
            .tables
            .best_move(pos)
            .map_err(|err| self.error(pos, err))?
            .map(|(best, _)| best))
    }

    /// What a UCI engine needs: the best move and a `score cp` for the
    /// position; `None` where there is no legal move.
    pub fn engine_move(&self, pos: &Chess) -> Result<Option<SyzygyMove>, SyzygyError> {
        let Some(best) = self.best_move(pos)? else {
            return Ok(None);
        };
        let value = self.probe(pos)?;
        Ok(Some(SyzygyMove {
            best,
            value,
            centipawns: value.centipawns(pos.halfmoves()),
        }))
    }

    fn error(&self, pos: &Chess, err: Probed) -> SyzygyError {
        match err {
            Probed::Castling => SyzygyError::CastlingRights,
            Probed::TooManyPieces => SyzygyError::TooManyMen {
                men: pos.board().occupied().count(),
                most: self.most_men(),
                dir: self.dir.clone(),
            },
            Probed::MissingTable { metric, material } => SyzygyError::NoTable {
                metric: metric_name(metric),
                ext: extension(metric),
                material: material.to_string(),
                dir: self.dir.clone(),
            },
            Probed::ProbeFailed {
                metric,
                material,
                error,
            } => SyzygyError::BadTable {
                metric: metric_name(metric),
                material: material.to_string(),
                reason: match *error {
                    ProbeError::Read { error } => format!("cannot read its file: {error}"),
                    ProbeError::Magic { .. } => "its file is not a Syzygy table".to_owned(),
                    ProbeError::CorruptedTable { .. } => "its file is damaged".to_owned(),
                },
            },
        }
    }
}

fn metric_name(metric: shakmaty_syzygy::Metric) -> &'static str {
    match metric {
        shakmaty_syzygy::Metric::Wdl => "WDL",
        shakmaty_syzygy::Metric::Dtz => "DTZ",
    }
}

fn extension(metric: shakmaty_syzygy::Metric) -> &'static str {
    match metric {
        shakmaty_syzygy::Metric::Wdl => "rtbw",
        shakmaty_syzygy::Metric::Dtz => "rtbz",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(wdl: SyzygyWdl, dtz: i32) -> SyzygyValue {
        SyzygyValue {
            wdl,
            dtz,
            dtz_rounded: false,
        }
    }

    #[test]
    fn a_win_scores_less_the_further_its_zeroing_and_none_past_fifty_moves() {
        assert_eq!(value(SyzygyWdl::Win, 1).centipawns(0), 9_999);
        assert_eq!(value(SyzygyWdl::Win, 30).centipawns(0), 9_970);
        assert_eq!(value(SyzygyWdl::Loss, -30).centipawns(0), -9_970);
        // 30 plies to zeroing after 80 without one: the rule draws it.
        assert_eq!(value(SyzygyWdl::Win, 30).centipawns(80), 0);
        assert_eq!(value(SyzygyWdl::Loss, -30).centipawns(80), 0);
        assert_eq!(value(SyzygyWdl::Win, 30).centipawns(70), 9_970);
        assert_eq!(value(SyzygyWdl::CursedWin, 120).centipawns(0), 0);
        assert_eq!(value(SyzygyWdl::BlessedLoss, -120).centipawns(0), 0);
        assert_eq!(value(SyzygyWdl::Draw, 0).centipawns(0), 0);
    }

    #[test]
    fn the_words_are_syzygys_and_the_result_forgets_the_rule() {
        assert_eq!(SyzygyWdl::CursedWin.as_str(), "cursed-win");
        assert_eq!(SyzygyWdl::BlessedLoss.to_string(), "blessed loss");
        assert_eq!(SyzygyWdl::CursedWin.without_fifty_moves(), Wdl::Win);
        assert_eq!(SyzygyWdl::BlessedLoss.without_fifty_moves(), Wdl::Loss);
        assert_eq!(SyzygyWdl::Draw.number(), 0);
    }
}
