//! The application layer: the use cases every front end (the command
//! line, UCI, the web, the fuzz targets) calls alike, so that a front end
//! only reads input and renders what comes back.
//! - [`probe`]: a position's tablebase view, the fixed-king rule, which
//!   tables may be built on request ([`BuildPolicy`]), and the lines of a
//!   FEN or EPD file.
//! - [`build_queue`]: tables too large to build within a request, built
//!   in the background one at a time, a few waiting.
//! - [`line_pgn`](mod@line_pgn): an analysis board's line as PGN with
//!   each move's value.
//! - [`syzygy`](mod@syzygy): Syzygy's answer beside the DTM's.
//! - [`audit_view`]: an audit with perfect play beside it.
//! - [`claims`]: the sources' claims and the figures that test them.
//! - [`selfplay`](mod@selfplay): one demonstration game.
//! - [`uci`]: the UCI engine, a line in and the lines to answer out, and
//!   the work it wants done in the background; [`quick_move`], its move
//!   when the time is up before that work is.
//! - [`strategies`]: the catalog as front ends read it.

pub mod audit_view;
pub mod build_queue;
pub mod claims;
pub mod line_pgn;
pub mod practice;
pub mod probe;
pub mod quick_move;
pub mod selfplay;
pub mod strategies;
pub mod syzygy;
pub mod uci;

pub use audit_view::{AuditView, AuditViewError, ExcessView, Replay};
pub use build_queue::{BuildQueue, BuildTicket, QueueError, table_name};
pub use claims::{CLAIMS, Check, Claim, ClaimError};
pub use line_pgn::{LinePgnError, MAX_LINE_PLIES, line_pgn};
pub use practice::{Hint, Practice, PracticeError, PracticeView, Summary, Turn, Verdict};
pub use probe::{
    BuildPolicy, LineError, MoveValue, ProbeError, ProbeView, Source, check_fixed_king,
    fen_of_line, probe_lines, probe_value, san_line, tables_move,
};
pub use quick_move::{QuickScore, quick_move, uci_score};
pub use selfplay::{MAX_SELFPLAY_PLIES, SelfplayError, selfplay};
pub use strategies::{
    AboutView, LampLabel, StartAnswer, StartSquares, StrategyView, method_tables_building,
    squares_taken_as_starts, start_answers, warm_up,
};
pub use syzygy::{NamedMove, SyzygyView, fifty_moves_ply};
pub use uci::{MAX_ILLEGAL_LIMIT, UciAnswer, UciEngine, Work};
