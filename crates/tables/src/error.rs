//! Errors of the tables crate.

use std::path::PathBuf;

use shakmaty::{Color, Square};

use crate::material::{Material, MaterialError};

/// Why a table could not be had, or a position not probed.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error(transparent)]
    Material(#[from] MaterialError),
    #[error("the fixed-king game needs a bare black king, not {0}")]
    FixedKingNeedsBareBlack(Material),
    #[error("{0} has pawns: its table is a pawn table, reached by probing a position")]
    PawnMaterial(Material),
    #[error("the fixed-king game has no pawns, not {0}")]
    FixedKingPawns(Material),
    #[error("the position has material {found}, the table is for {expected}")]
    WrongMaterial { expected: Material, found: Material },
    #[error("the white king must stand on its fixed square {0}")]
    KingNotOnFixedSquare(Square),
    #[error(
        "the position is not legal (a man on another's square, or the side not to move in check)"
    )]
    NotInTable,
    #[error(
        "the position has castling rights, which the tables do not hold: write '-' in the FEN's castling field"
    )]
    CastlingRights,
    #[error("the table {0}, which captures lead into, was not given to the build")]
    MissingSubtable(Material),
    #[error(
        "{0}: its table is not in the cache folder, and a table of {len} men is built only when asked for by name (ajedrecista solve {0}: a six-man build takes gigabytes of memory)", len = .0.len()
    )]
    NotBuiltOnDemand(Material),
    /// A prober, which never builds, lacks the table (not in memory, no
    /// file in its folder).
    #[error("{0}: its table is not built (build it with: ajedrecista solve {0})")]
    NotBuilt(Material),
    #[error(
        "{material}: it has no slices of level {level}, group {group} (solve {material} --plan lists its levels and groups)"
    )]
    NoSuchSlices {
        material: Material,
        level: usize,
        group: usize,
    },
    #[error("{0}: a group of its slices is kept in a cache folder: give one")]
    SlicesNeedFolder(Material),
    #[error(
        "{material}: slices {} are not kept in its journal (build the groups of the levels before first)",
        slices.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )]
    MissingSlices {
        material: Material,
        slices: Vec<usize>,
    },
    #[error("{0}: the build was stopped before its end")]
    Stopped(Material),
    #[error("{0}: a mate is longer than the overflow list holds (1023 plies)")]
    TooDeep(Material),
    /// The file's error is in the message and is not its source: a chain
    /// of causes would say it twice.
    #[error("table file: {0}")]
    File(FileError),
    #[error(
        "the table of {0} contradicts itself: its best line is longer than its distance to mate"
    )]
    Inconsistent(Material),
    /// As `File`, the error is in the message, not a source.
    #[error("table file {path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A read of the file did not end in time ([`FileError::is_hung`]):
    /// the file is left as it is, neither removed nor built again.
    #[error("table file {path}: {error}; it is left as it is")]
    Hung { path: PathBuf, error: FileError },
}

impl From<FileError> for TableError {
    fn from(error: FileError) -> TableError {
        TableError::File(error)
    }
}

/// What is wrong with a table file.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum FileError {
    #[error("truncated: {found} bytes, expected {expected}")]
    Truncated { found: u64, expected: u64 },
    #[error("not a table file (bad magic)")]
    BadMagic,
    #[error("format version {0}, this program reads version {1}")]
    Version(u32, u32),
    #[error("holds {found}, expected {expected}")]
    WrongTable { found: String, expected: String },
    #[error("checksum mismatch: the file is corrupt")]
    Checksum,
    #[error("reserved header bytes are not zero")]
    Reserved,
    #[error("the header's sizes or chunk lengths do not fit the table")]
    Sizes,
    #[error("a compressed chunk does not decompress to its size: the file is corrupt")]
    Corrupt,
    #[error("chunk {chunk} does not match its checksum: the file is corrupt")]
    ChunkChecksum { chunk: usize },
    #[error("a chunk could not be read again from the file: {0}")]
    ChunkRead(String),
    #[error("the overflow list is damaged: {0}")]
    Overflow(&'static str),
    #[error("number {index} with {turn} to move holds a value the table cannot have")]
    BadValue { index: usize, turn: Color },
    #[error("not a regular file: a FIFO, a device or a folder is not read as a table")]
    NotRegular,
    #[error(
        "not read within its time limit of {} s (30 s and 1 s for every 8 MiB): the disk or file system is not answering", limit.as_secs_f64()
    )]
    TimedOut { limit: std::time::Duration },
    #[error(
        "an earlier read of it has not ended, past its time limit: the disk or file system is not answering"
    )]
    Unanswered,
}

impl FileError {
    /// Whether a read of the file did not end in time: the file may be
    /// sound on a disk that stopped answering, so it is not rebuilt.
    pub fn is_hung(&self) -> bool {
        matches!(self, FileError::TimedOut { .. } | FileError::Unanswered)
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;

    /// A table file's error says what is wrong once: the message holds it
    /// and no source repeats it (the CLI prints the chain of sources).
    #[test]
    fn a_table_file_error_is_said_once() {
        let file = TableError::from(FileError::ChunkChecksum { chunk: 170 });
        assert!(file.source().is_none());
        assert_eq!(
            file.to_string(),
            "table file: chunk 170 does not match its checksum: the file is corrupt"
        );
        let io = TableError::Io {
            path: PathBuf::from("tables/KRPvKR.standard.ajt"),
            error: std::io::Error::from(std::io::ErrorKind::StorageFull),
        };
        assert!(io.source().is_none());
        assert!(
            io.to_string()
                .starts_with("table file tables/KRPvKR.standard.ajt: ")
        );
    }
}
