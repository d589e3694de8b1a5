//! The historic mating automata as strategies, and their exact audit.
//! Folders by concept: [`strategies`] (the machines and the catalog),
//! [`model`] (games, sessions, views), [`analysis`] (the audit), [`app`]
//! (the use cases the front ends call).
//!
//! - [`Strategy`]: an automaton playing White, with its own memory.
//! - [`Torres`]: El Ajedrecista (1912).
//! - [`Mk61Queen`], [`Mk61RookEmulated`]: the two MK-61 programs of 1987
//!   played through the microcode-level emulator ([`CalculatorGame`]).
//! - [`Mk61Rook`]: the MK-61 rook-mate program, natively.
//! - [`Perfect`]: shortest mate from the tables.
//! - [`Session`]: a person, moving the black king, against an automaton.
//! - [`audit()`]: the longest defence against an automaton from every start.
//! - [`app`]: the use cases the front ends call (probe view, audit view,
//!   selfplay, the UCI engine).
//!
//! El Ajedrecista's worst case from its own starts, against the defence
//! that knows it (the claim of seed 004 was 63 moves):
//!
//! ```
//! use ajedrecista_automata::{StartSet, Torres, audit};
//! use shakmaty::Color;
//!
//! let audit = audit(&Torres, StartSet::Machine, Color::White);
//! assert_eq!(audit.results.len(), 42);
//! assert_eq!(audit.worst_moves().unwrap().0, 66);
//! ```

pub mod analysis;
pub mod app;
pub mod model;
pub mod strategies;
#[cfg(test)]
mod test_support;

// Each concept's module also under the crate root, where the crate's users
// and its own modules name it.
pub use analysis::{audit, contradiction};
pub use model::{defence, game, move_input, play, replay, session, view};
pub use strategies::{
    automaton, bishop_knight, bishops, calculator_game, catalog, emulated, krk, mk61_rook, perfect,
    queen_box, rook_box, seed_square, strategy, symmetry, torres,
};
pub(crate) use strategies::{minor_mate, triangle_forcing};

pub use app::{
    AuditView, AuditViewError, BuildPolicy, ProbeError, ProbeView, SelfplayError, UciAnswer,
    UciEngine, selfplay,
};
pub use audit::{
    Audit, AuditOptions, AuditProgress, Cancelled, FailureKind, GameGraph, Outcome, Side,
    SquareCell, StartSet, audit, audit_with_options, audit_with_progress, start_positions,
};
pub use automaton::{Automaton, Memory};
pub use bishop_knight::BishopKnight;
pub use bishops::Bishops;
pub use calculator_game::{CalculatorGame, ChessProgram, PackedGame, Shown};
pub use catalog::{About, CATALOG, CatalogEntry, Panel, StrategyName, UnknownStrategy};
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
    Opening, PersonMove, Placement, Session, SessionError, Turn, UndoError, parse_entry,
};
pub use strategy::{Cause, OwnIllegalMove, Precondition, Refusal, Reply, Strategy, Undefined};
pub use torres::{Lamp, Torres};
pub use triangle_forcing::{MethodProgress, MethodTable};
pub use view::{
    DisplayState, EndView, GameView, IllegalView, LampView, Place, ReplyView, color_name,
    display_states,
};
