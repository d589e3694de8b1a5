//! Exact distance-to-mate tables, built by the ranking method of Brudno and
//! Landau (retrograde analysis): 3 to 6 men, with pawns slice by slice (one
//! slice a placement of the pawns), and the fixed-king game.
//!
//! Conventions (as in docs/tables.md):
//! - a position is legal when the men stand on distinct squares and the side
//!   not to move is not in check;
//! - win, draw and loss are from the side to move's point of view;
//! - distance to mate is counted in plies in the tables ([`Value`]) and in
//!   moves of the winning side, the mating move included, for people
//!   ([`Value::moves`]).
//!
//! The longest mate of king and rook against king, from a table built in
//! memory (a table folder instead: [`Tablebase::new`]):
//!
//! ```
//! use ajedrecista_tables::{Tablebase, Value, Variant};
//! use shakmaty::{CastlingMode, Chess, fen::Fen};
//!
//! let tables = Tablebase::in_memory();
//! let fen: Fen = "8/8/8/8/8/2k5/1R6/K7 w - - 0 1".parse().unwrap();
//! let position: Chess = fen.into_position(CastlingMode::Standard).unwrap();
//! let value = tables.probe(&position, Variant::Standard).unwrap();
//! assert_eq!(value, Value::Win(31)); // plies, the mating move included
//! assert_eq!(value.moves().unwrap().0, 16); // moves of the winner
//! ```

mod build;
mod check;
mod engine;
mod error;
mod every;
mod format;
mod index;
mod jobs;
mod material;
mod memory;
mod order;
mod overflow;
mod packed;
mod pawns;
mod plan;
mod position;
mod probe;
mod recent;
mod rules;
mod slices;
mod store;
mod summary;
mod symmetry;
mod sync;
mod syzygy;
mod table;
mod value;
mod variant;

pub use build::build;
pub use check::{Checked, Disagreement, from_moves};
pub use engine::Progress;
pub use error::{FileError, TableError};
pub use every::{EVERY_TABLE_MEN, EveryTable, Origin, Sample};
pub use format::{MAGIC, VERSION, file_name};
pub use index::Squares;
pub use jobs::{Job, JobSettings, jobs};
pub use material::{MAX_MEN, MAX_MEN_BUILT_ON_DEMAND, MAX_MEN_WITH_PAWNS, Material, MaterialError};
pub use memory::{build_bytes, built_slice_by_slice};
pub use order::{Place, ReadingOrder};
pub use pawns::PawnTable;
pub use plan::{BuildPlan, Cone, Node, Read, Reading, Slices, Step, StepError};
pub use position::{
    CastlingRights, FenError, IllegalReason, fen_with_fullmoves, fullmoves_after, read_fen,
};
pub use probe::Prober;
pub use slices::{PawnSquares, SliceIndexer};
pub use store::{Event, TABLES_ENV, Tablebase, Unusable};
pub use summary::{SideSummary, summarize};
pub use symmetry::Symmetry;
pub use syzygy::{
    SYZYGY_ENV, Syzygy, SyzygyError, SyzygyMove, SyzygyValue, SyzygyWdl, WIN_CENTIPAWNS,
};
pub use table::{Subtables, Table, number_fen, number_position};
pub use value::{Moves, Plies, Value, Wdl};
pub use variant::Variant;
