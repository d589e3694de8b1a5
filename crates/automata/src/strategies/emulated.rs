//! The two MK-61 programs of 1987 played through the microcode-level
//! emulator (crate ajedrecista-mk61), exactly as a person plays them on the
//! real calculator: the black king's square typed in, the display read, the
//! protocol's answers typed when the program asks for them. The memory is
//! the calculator itself, in its whole state.
//!
//! The idle calculator's ring keeps turning between keys; the memory after
//! each answer is the canonical one ([`CalculatorGame::canonical`]), so that the
//! audit meets one node per situation (the phase does not change the
//! programs' answers: tested in ajedrecista-mk61).

use std::collections::HashMap;
use std::sync::Mutex;

use ajedrecista_tables::Variant;
use shakmaty::{Board, Chess, Color, Position, Role, Square};

use crate::calculator_game::{CalculatorGame, ChessProgram, PackedGame, Shown};
use crate::krk::Krk;
use crate::mk61_rook::read_krk;
use crate::strategy::{Cause, Precondition, Refusal, Reply, Strategy, legal_move};

/// The white king's square in the queen program: it never moves.
pub const QUEEN_KING: Square = Square::C3;
/// The queen's square at the start of every queen game.
pub const QUEEN_START: Square = Square::G7;

/// The built-in programs are checked against the reference traces; a
/// set-up that fails is a defect of the emulator, not bad input.
const SETUP: &str = "the built-in program keys in and starts as the traces show";

/// The queen program (seed 000, "Неприкосновенный король") on the emulated
/// calculator: white king fixed on c3, queen from g7.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mk61Queen;

impl Strategy for Mk61Queen {
    type Memory = PackedGame;

    fn name(&self) -> &'static str {
        "mk61-queen"
    }

    fn white_pieces(&self) -> &'static [Role] {
        &[Role::Queen]
    }

    fn variant(&self) -> Variant {
        Variant::FixedKing(QUEEN_KING)
    }

    /// The seed's start: white king c3, queen g7, the black king wherever
    /// the person puts it (legality is the caller's business).
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        let white = board.by_color(Color::White);
        let ok = board.occupied().count() == 3
            && board.king_of(Color::White) == Some(QUEEN_KING)
            && board.queens() & white == QUEEN_START.into()
            && board.king_of(Color::Black).is_some();
        match ok {
            true => Ok(()),
            false => Err(Refusal::Precondition(Precondition::NotQueenStart)),
        }
    }

    fn start(&self, _start: &Chess) -> PackedGame {
        CalculatorGame::queen().expect(SETUP).canonical().pack()
    }

    /// Types the black king's square (`file . rank С/П`), answers ЕГГОГ
    /// with С/П and ЗГГОГ with Cx 2 В/О С/П, and moves the queen where the
    /// last display says.
    fn reply(&self, position: &Chess, memory: &PackedGame) -> Result<(Reply, PackedGame), Refusal> {
        let board = position.board();
        let (Some(white_king), Some(black_king), Some(queen)) = (
            board.king_of(Color::White),
            board.king_of(Color::Black),
            (board.queens() & board.by_color(Color::White)).single_square(),
        ) else {
            return Err(Refusal::Precondition(Precondition::NotKqk));
        };
        calculator_reply(position, memory, black_king, white_king, queen)
    }

    fn costly_replies(&self) -> bool {
        true
    }
}

/// The rook program (seed 001) on the emulated calculator. The black king's
/// square is typed as `FR С/П`; the display `X.Y` moves the king, `XY.` and
/// `1. XY` the rook, `9------0.` refuses (turn the board).
#[derive(Debug, Default)]
pub struct Mk61RookEmulated {
    /// The calculator with the white men keyed in, per (king, rook): an
    /// audit has 50 000 starts but only 4 000 such pairs.
    keyed_in: Mutex<HashMap<(Square, Square), PackedGame>>,
}

impl Strategy for Mk61RookEmulated {
    type Memory = PackedGame;

    fn name(&self) -> &'static str {
        "mk61-rook"
    }

    /// The listing's start test, as the native program reads it (the
    /// emulator answers every one of these starts with a move, and `9------0.`
    /// to the others: tests/emulated_rook.rs). Asking the emulator for each
    /// of the 250 000 boards would take half an hour.
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        crate::mk61_rook::Mk61Rook::default().precondition(board)
    }

    fn start(&self, start: &Chess) -> PackedGame {
        let men = match Krk::from_board(start.board()) {
            Some(krk) => (krk.white_king, krk.rook),
            // Not a rook ending: the reply refuses it.
            None => (Square::E1, Square::A2),
        };
        let kept = self.keyed_in.lock().map(|kept| kept.get(&men).cloned());
        if let Ok(Some(game)) = kept {
            return game;
        }
        let game = CalculatorGame::rook(men.0, men.1)
            .expect(SETUP)
            .canonical()
            .pack();
        if let Ok(mut kept) = self.keyed_in.lock() {
            kept.insert(men, game.clone());
        }
        game
    }

    fn reply(&self, position: &Chess, memory: &PackedGame) -> Result<(Reply, PackedGame), Refusal> {
        let krk = read_krk(position.board())?;
        calculator_reply(position, memory, krk.black_king, krk.white_king, krk.rook)
    }

    fn costly_replies(&self) -> bool {
        true
    }
}

/// Plays the black king's square on the calculator (the protocol's
/// answers included) and reads the last display as White's move: `F.R` the
/// king, `FR.` the queen or rook, `1. FR` the rook with check; the rook
/// program's `9------0.` is a refusal, anything else a wrong display.
fn calculator_reply(
    position: &Chess,
    memory: &PackedGame,
    black_king: Square,
    white_king: Square,
    piece: Square,
) -> Result<(Reply, PackedGame), Refusal> {
    let mut game = memory.unpack();
    let program = game.program();
    let turn = game.play(black_king);
    let (from, to, reason) = match (program, turn.last(), turn.replies.first()) {
        (ChessProgram::Queen, Shown::Piece(to), Some(Shown::Error)) => {
            (piece, to, "ЕГГОГ, answered with С/П")
        }
        (ChessProgram::Queen, Shown::Piece(to), Some(Shown::MateInTwo)) => {
            (piece, to, "ЗГГОГ (mate in two), answered with Cx 2 В/О С/П")
        }
        (ChessProgram::Queen, Shown::Piece(to), _) => (piece, to, "the queen program's move"),
        (ChessProgram::Rook, Shown::King(to), _) => {
            (white_king, to, "the rook program's king move")
        }
        (ChessProgram::Rook, Shown::Piece(to), _) => (piece, to, "the rook program's rook move"),
        (ChessProgram::Rook, Shown::PieceCheck(to), _) => {
            (piece, to, "the rook program's rook check")
        }
        (ChessProgram::Rook, Shown::BadPosition, _) => {
            return Err(Refusal::Precondition(Precondition::TurnTheBoard));
        }
        _ => {
            return Err(Refusal::WrongDisplay(turn.to_string()));
        }
    };
    let shown = turn.to_string();
    let mv = legal_move(position, from, to, Cause::Display(shown.clone()))?;
    let reply = Reply {
        mv,
        reason,
        display: Some(shown),
    };
    Ok((reply, game.canonical().pack()))
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::test_support::{assert_first_reply, first_reply, position};

    /// Seed 000's example: the black king set on a8, the queen answers d7
    /// (the reference trace).
    #[test]
    fn queen_answers_the_king_on_a8_with_d7() {
        let fen = "k7/6Q1/8/8/8/2K5/8/8 w - - 0 1";
        assert_first_reply(&Mk61Queen, fen, "47.", (Square::G7, Square::D7));
    }

    /// A king set on a1 gets ЗГГОГ; after Cx 2 В/О С/П the queen goes to
    /// b7 (seed 000).
    #[test]
    fn queen_announces_mate_in_two_from_a1() {
        let fen = "8/6Q1/8/8/8/2K5/8/k7 w - - 0 1";
        assert_first_reply(&Mk61Queen, fen, "ЗГГОГ, 27.", (Square::G7, Square::B7));
    }

    #[test]
    fn queen_program_needs_its_own_start() {
        let moved_queen = position("k7/5Q2/8/8/8/2K5/8/8 w - - 0 1");
        assert!(Mk61Queen.precondition(moved_queen.board()).is_err());
        let moved_king = position("k7/6Q1/8/8/8/3K4/8/8 w - - 0 1");
        assert!(Mk61Queen.precondition(moved_king.board()).is_err());
    }

    /// The reference trace's first move: white king e1, rook a2, black king
    /// e5: the rook cuts it off on the fourth rank.
    #[test]
    fn rook_program_cuts_off_the_king() {
        let fen = "8/8/8/4k3/8/8/R7/4K3 w - - 0 1";
        let rook = Mk61RookEmulated::default();
        assert_first_reply(&rook, fen, "14.", (Square::A2, Square::A4));
    }

    #[test]
    fn rook_program_refuses_kings_too_close() {
        let start = position("8/8/8/8/8/8/2k5/R3K3 w - - 0 1");
        let refusal = first_reply(&Mk61RookEmulated::default(), &start).unwrap_err();
        assert!(refusal.to_string().contains("9------0."));
    }
}
