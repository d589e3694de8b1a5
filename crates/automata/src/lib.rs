//! The historic mating automata as strategies, and their exact audit.
//!
//! - [`Strategy`]: an automaton playing White, with its own memory.
//! - [`Torres`]: El Ajedrecista (1912).
//! - [`Mk61Queen`], [`Mk61RookEmulated`]: the two MK-61 programs of 1987
//!   played through the microcode-level emulator ([`CalculatorGame`]).
//! - [`Mk61Rook`]: the MK-61 rook-mate program, natively.
//! - [`Perfect`]: shortest mate from the tables.
//! - [`Session`]: a person, moving the black king, against an automaton.
//! - [`audit()`]: the longest defence against an automaton from every start.

pub mod audit;
pub mod automaton;
pub mod calculator_game;
pub mod catalog;
pub mod contradiction;
pub mod defence;
pub mod emulated;
pub mod game;
pub mod krk;
pub mod mk61_rook;
pub mod perfect;
pub mod play;
pub mod queen_box;
pub mod replay;
pub mod rook_box;
pub mod seed_square;
pub mod session;
pub mod strategy;
#[cfg(test)]
mod test_support;
pub mod torres;
pub mod view;

pub use audit::{
    Audit, AuditOptions, AuditProgress, Cancelled, FailureKind, GameGraph, Outcome, SquareCell,
    StartSet, audit, audit_with_options, audit_with_progress, start_positions,
};
pub use automaton::{Automaton, Memory};
pub use calculator_game::{CalculatorGame, ChessProgram, PackedGame, Shown};
pub use catalog::{CATALOG, CatalogEntry, StrategyName, UnknownStrategy};
pub use contradiction::{Contradiction, check_tables_game};
pub use defence::{DefenceKind, RandomDefence, UnknownDefence};
pub use emulated::{Mk61Queen, Mk61RookEmulated};
pub use game::{Game, GameEnd, Ply, fen_of};
pub use mk61_rook::{Answer, Mk61Rook, Mk61RookMemory, OnSignal};
pub use perfect::{Excess, Perfect, excess_over_perfect, perfect_defence, perfect_moves};
pub use play::play;
pub use queen_box::QueenBox;
pub use replay::{IllegalMoves, MoveList, PositionCommandError, ReplayStop};
pub use rook_box::{BoxPhase, RookBox};
pub use session::{
    DEFAULT_ILLEGAL_LIMIT, Entry, IllegalCount, IllegalMove, MachineMove, MoveError, NotKingMove,
    Opening, PersonMove, Session, SessionError, Turn, UndoError, parse_entry,
};
pub use strategy::{Cause, OwnIllegalMove, Precondition, Refusal, Reply, Strategy, Undefined};
pub use torres::{Lamp, Torres};
pub use view::{EndView, GameView, IllegalView, LampView, ReplyView, color_name};
