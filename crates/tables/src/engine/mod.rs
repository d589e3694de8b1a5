//! The table engine: one byte a position for each side to move, and no
//! per-position counters (see docs/tables.md, "How a table is built").
//!
//! Ply by ply, for every side to move:
//! 1. the positions lost in n plies are retracted: each parent not yet won
//!    faster is won in n + 1;
//! 2. the positions won in n + 1 are retracted: each undecided parent is
//!    marked a candidate;
//! 3. each candidate is verified by its moves: when every quiet move leads
//!    to a position the opponent wins in at most n + 1 plies, it is lost in
//!    n + 2 (or later, if a capture loses more slowly); else it goes back to
//!    undecided.
//!
//! The engine knows a table through its [`Layout`]: the numbering, the
//! moves inside the table and their retractions, and the values of the
//! moves that leave it (captures, and with pawns promotions). [`Pieces`] is
//! the layout of pawnless material; a slice of a table with pawns
//! (`crate::slice`) is that layout with the pawns standing still, their
//! steps leaving the slice as captures leave a table.
//!
//! The table is cut into blocks of [`BLOCK`] numbers. Each block remembers
//! which byte values were ever written into it, so a step visits only the
//! blocks that hold the value it looks for, and scans them 64 bytes at a
//! time. The blocks are shared among the cores by rayon. Each step works a
//! *run* of 64 numbers at a time (those that differ in the last man's
//! square): the first pass looks at a run together, both sides to move
//! at once ([`Layout::looks`]), steps 1 and 2 retract a run's positions
//! together ([`Pieces::run_retractions`]), step 3 settles a run's
//! candidates by one line of the opponent's bytes a move
//! ([`Pieces::moving_into`]).

pub(crate) mod bytes;
pub(crate) mod layout;
pub(crate) mod pieces;
mod steps;

pub(crate) use steps::run_layout;

use crate::slice::PawnSquares;

/// Where a build stands, for a progress display.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The first pass: table numbers (both sides to move) examined so far,
    /// of `total`.
    FirstPass { examined: u64, total: u64 },
    /// Rank (ply) `rank` is done; `decided` positions (both sides to move)
    /// have been settled so far. How many ranks there will be
    /// is known only at the end.
    Rank { rank: u16, decided: u64 },
    /// A table with pawns: the slice of `pawns` is built, `done` of
    /// `total` slices; `kept` when it was read back from the slices an
    /// earlier, stopped build kept (docs/tables.md, "Resuming").
    Slice {
        done: u64,
        total: u64,
        pawns: PawnSquares,
        kept: bool,
    },
}

/// How a step chooses between retracting the positions it starts from and
/// looking at the moves of the positions it may decide (see
/// docs/tables.md, "Two ways a step").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ways {
    /// The way that visits fewer positions, each ply.
    Cheaper,
    /// Always by retraction.
    Retracting,
    /// By moves wherever the layout and the overflow allow it.
    ByMoves,
}

/// What a test may change in the engine.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Settings {
    /// The deepest plies a byte may hold: deeper positions go into the
    /// overflow list. A test lowers it to try the overflow on tables that
    /// do not need it.
    pub limit: u16,
    /// A test forces each way to check it against the other.
    pub ways: Ways,
}
