//! What an automaton is: a rule that picks White's move from the position
//! and from whatever it remembers of the game so far.

use std::fmt::{self, Debug};
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

    /// The white men besides the king (the rook; the queen of the queen
    /// programs; two bishops, or bishop and knight, of the teaching
    /// methods): the audit's start positions hold a white king, these men
    /// and a black king.
    fn white_pieces(&self) -> &'static [Role] {
        &[Role::Rook]
    }

    /// Whether the rules play every turned or reflected image of a
    /// position alike (they name no file, rank or colour of square, and
    /// the memory does not depend on the board's orientation): the audit
    /// then solves one start of each class of images, and one node of the
    /// game graph stands for its whole class.
    fn symmetric(&self) -> bool {
        false
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

/// The first rule of every method written as a rule list: a move that
/// mates is played.
pub(crate) const MATE: &str = "rule 1: mate";

/// Every legal move in `position` with the position after it, in
/// shakmaty's move order: what the rule lists look one move ahead over.
pub(crate) fn successors(position: &Chess) -> impl Iterator<Item = (Move, Chess)> + '_ {
    position.legal_moves().into_iter().map(move |mv| {
        let mut after = position.clone();
        after.play_unchecked(mv);
        (mv, after)
    })
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
    Precondition(Precondition),
    /// The automaton's rules say nothing about this position.
    #[error("rule undefined here: {0}")]
    RuleUndefined(Undefined),
    /// The rules name a move that the laws of chess forbid.
    #[error("own move illegal: {0}")]
    IllegalMove(OwnIllegalMove),
    /// The machine shows something that is neither a move nor one of its
    /// signals (the calculator's display, as shown, cannot be read as a
    /// move).
    #[error("wrong display: the calculator shows {0}, not a move")]
    WrongDisplay(String),
}

/// The calculator's signal to turn the board (the rook program's
/// `9------0.`).
pub(crate) const WHY_TURN: &str = "9------0.: turn the board by 90 degrees";

/// Which precondition of an automaton a position fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Precondition {
    /// Not king and rook against king; the automaton named plays nothing
    /// else.
    #[error("{0} plays king and rook against king only")]
    NotKrk(&'static str),
    /// Not a position perfect play takes: more than five men, this many.
    #[error("perfect play needs a position of 3 to 5 men, kings included (this one has {0})")]
    NotInTables(usize),
    /// Not king and queen against king (the queen program).
    #[error("the queen program plays king and queen against king only")]
    NotKqk,
    /// Not the material a teaching method plays (its name, the material).
    #[error("{0} plays {1} only")]
    Material(&'static str, &'static str),
    /// The queen program starts from one position only.
    #[error(
        "the queen program starts with the white king on c3, the queen on g7 and a lone black king"
    )]
    NotQueenStart,
    /// El Ajedrecista's rook stands on a middle file.
    #[error("the rook must stand on the a, b, g or h-file (it is on {0})")]
    RookFile(shakmaty::Square),
    /// El Ajedrecista's rook rank does not separate the kings.
    #[error(
        "the rook's rank must separate the kings (white king on one side, black king on the other)"
    )]
    RookRankApart,
    /// The rook program shows `9------0.`.
    #[error("{WHY_TURN}")]
    TurnTheBoard,
    /// The rook program shows `9------0.` however the board is turned.
    #[error("{WHY_TURN}, in all four orientations")]
    TurnTheBoardEveryWay,
    /// The rook program refuses the start (its conditions spelt out).
    #[error(
        "{WHY_TURN} (the white king must stand two ranks or more below the black king, and the \
         rook off the black king's file and the files next to it unless the white men share a \
         file)"
    )]
    RookProgramStart,
}

/// Why an automaton's rules give no move.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Undefined {
    /// El Ajedrecista's tempo move with the rook on c-f.
    #[error("the tempo move is defined for a rook on a, b, g or h only (rook on {0})")]
    TempoFile(shakmaty::Square),
    /// The tables could not be read or built; the tables' own error text.
    #[error("the tables cannot answer: {0}")]
    TablesFailed(String),
    /// The tables give White no win.
    #[error("the tables give White no win here")]
    NoWin,
    /// None of the box method's rules applies.
    #[error("no rule of the box method gives a move here")]
    NoBoxRule,
    /// None of a teaching method's rules applies (the method named).
    #[error("no rule of {0} gives a move here")]
    NoMethodRule(&'static str),
}

/// What asked for a move: a rule of the automaton, or what the calculator
/// showed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A rule's short reason, e.g. "rule 4: tempo".
    Rule(&'static str),
    /// The calculator's display, as shown.
    Display(String),
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Rule(reason) => f.write_str(reason),
            Cause::Display(shown) => write!(f, "the display {shown}"),
        }
    }
}

/// The illegal move an automaton's rules asked for.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
pub enum OwnIllegalMove {
    /// A move the laws of chess forbid.
    #[error("{cause}: {from}-{to} is not legal")]
    NotLegal {
        cause: Cause,
        from: shakmaty::Square,
        to: shakmaty::Square,
    },
    /// A move to a square off the board (the rook program's answer).
    #[error("{cause}: the answer {answer} leaves the board")]
    OffBoard { cause: Cause, answer: String },
}

/// The legal move of the piece on `from` to `to`, or the refusal that names
/// the illegal move the rules asked for.
pub fn legal_move(
    position: &Chess,
    from: Square,
    to: Square,
    cause: Cause,
) -> Result<Move, Refusal> {
    position
        .legal_moves()
        .into_iter()
        .find(|mv| mv.from() == Some(from) && mv.to() == to)
        .ok_or(Refusal::IllegalMove(OwnIllegalMove::NotLegal {
            cause,
            from,
            to,
        }))
}
