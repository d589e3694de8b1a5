//! What an automaton is: a rule that picks White's move from the position
//! and from whatever it remembers of the game so far.

use std::fmt::Debug;
use std::hash::Hash;

use ajedrecista_tables::Variant;
use shakmaty::{Board, Chess, Move, Position, Role, Square};

/// An automaton playing White.
///
/// A strategy is not a pure function of the board: the calculator programs
/// keep registers between moves. So each reply takes the strategy's own
/// memory and hands back the next one. The memory is `Clone + Eq + Hash` so
/// that the audit can treat (position, memory) as one node of a game graph.
///
/// Strategies and memories are `Sync`/`Send` so that the audit can ask for
/// costly answers (an emulator run) on all cores; memories are owned data,
/// so that a game session can keep them between a person's moves.
pub trait Strategy: Sync {
    /// What the automaton carries from one move to the next.
    type Memory: Clone + Eq + Hash + Debug + Send + Sync + 'static;

    /// The name used on the command line and in reports.
    fn name(&self) -> &'static str;

    /// The white man besides the king (the rook, or the queen of the
    /// calculator's queen program): the audit's start positions hold a
    /// white king, this man and a black king.
    fn white_piece(&self) -> Role {
        Role::Rook
    }

    /// The game whose perfect play the automaton is measured against:
    /// orthodox chess, or the fixed-king game (the queen program's king
    /// never leaves c3).
    fn variant(&self) -> Variant {
        Variant::Standard
    }

    /// Whether the automaton may start from these men, whoever is to move.
    /// Legality of the position is the caller's business.
    fn precondition(&self, board: &Board) -> Result<(), Refusal>;

    /// Whether the men stand in one of the automaton's own historic start
    /// positions (by default: every position that meets the precondition).
    fn is_machine_start(&self, board: &Board) -> bool {
        self.precondition(board).is_ok()
    }

    /// The memory at the start of a game from `start` (the calculator
    /// programs are keyed the white men's squares at this point).
    fn start(&self, start: &Chess) -> Self::Memory;

    /// White's move in `position` (White to move), with the memory after it.
    fn reply(
        &self,
        position: &Chess,
        memory: &Self::Memory,
    ) -> Result<(Reply, Self::Memory), Refusal>;

    /// Whether an answer is costly (an emulator run of milliseconds): the
    /// audit then computes the answers ahead on all cores and keeps them.
    fn costly_replies(&self) -> bool {
        false
    }
}

/// White's move and why the automaton chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// A legal move in the position it answers.
    pub mv: Move,
    /// A short reason, e.g. "rule 4: tempo".
    pub reason: &'static str,
    /// The move as the machine itself shows it, where that differs from
    /// chess notation (the calculator display, e.g. "4.2" or "1. 25").
    pub display: Option<String>,
}

/// Why an automaton does not move.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Refusal {
    /// The position is not one the automaton was built to start from or to
    /// meet; the machine says so (e.g. the calculator's "turn the board").
    #[error("precondition not met: {0}")]
    Precondition(String),
    /// The automaton's rules say nothing about this position.
    #[error("rule undefined here: {0}")]
    RuleUndefined(String),
    /// The rules name a move that the laws of chess forbid.
    #[error("own move illegal: {0}")]
    IllegalMove(String),
    /// The machine shows something that is neither a move nor one of its
    /// signals (the calculator's display cannot be read as a move).
    #[error("wrong display: {0}")]
    WrongDisplay(String),
}

/// The legal move of the piece on `from` to `to`, or the refusal that names
/// the illegal move the rules asked for.
pub fn legal_move(
    position: &Chess,
    from: Square,
    to: Square,
    reason: &str,
) -> Result<Move, Refusal> {
    position
        .legal_moves()
        .into_iter()
        .find(|mv| mv.from() == Some(from) && mv.to() == to)
        .ok_or_else(|| Refusal::IllegalMove(format!("{reason}: {from}-{to} is not legal")))
}
