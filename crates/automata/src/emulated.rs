//! The two MK-61 programs of 1987 played through the microcode-level
//! emulator (crate ajedrecista-mk61), exactly as a person plays them on the
//! real calculator: the black king's square typed in, the display read, the
//! protocol's answers typed when the program asks for them. The memory is
//! the calculator itself, in its whole state.
//!
//! The idle calculator's ring keeps turning between keys; the memory after
//! each answer is the canonical one ([`QueenGame::canonical`]), so that the
//! audit meets one node per situation (the phase does not change the
//! programs' answers: tested in ajedrecista-mk61).

use std::collections::HashMap;
use std::sync::Mutex;

use ajedrecista_mk61::{QueenGame, QueenReply, RookGame, RookReply};
use ajedrecista_tables::Variant;
use shakmaty::{Board, Chess, Color, Position, Role, Square};

use crate::krk::Krk;
use crate::mk61_rook::{Answer, WHY_TURN};
use crate::strategy::{Refusal, Reply, Strategy, legal_move};

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

/// The seed's two digits of a square, file first (a = 1).
fn digits(square: Square) -> (i32, i32) {
    (
        square.file().to_u32() as i32 + 1,
        square.rank().to_u32() as i32 + 1,
    )
}

/// A queen-program display as the person reads it.
fn queen_shown(reply: QueenReply) -> String {
    match reply {
        QueenReply::Queen(square) => {
            let (file, rank) = digits(square);
            format!("{file}{rank}.")
        }
        QueenReply::Error => "ЕГГОГ".to_string(),
        QueenReply::MateInTwo => "ЗГГОГ".to_string(),
        QueenReply::Unreadable(display) => format!("|{display}|"),
        QueenReply::Running => "(still running)".to_string(),
    }
}

impl Strategy for Mk61Queen {
    type Memory = QueenGame;

    fn name(&self) -> &'static str {
        "mk61-queen"
    }

    fn white_piece(&self) -> Role {
        Role::Queen
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
            false => Err(Refusal::Precondition(
                "the queen program starts with the white king on c3, the queen on g7 and a \
                 lone black king"
                    .into(),
            )),
        }
    }

    fn start(&self, _start: &Chess) -> QueenGame {
        QueenGame::new().expect(SETUP).canonical()
    }

    /// Types the black king's square (`file . rank С/П`), answers ЕГГОГ
    /// with С/П and ЗГГОГ with Cx 2 В/О С/П, and moves the queen where the
    /// last display says.
    fn reply(&self, position: &Chess, memory: &QueenGame) -> Result<(Reply, QueenGame), Refusal> {
        let board = position.board();
        let (Some(black_king), Some(queen)) = (
            board.king_of(Color::Black),
            (board.queens() & board.by_color(Color::White)).single_square(),
        ) else {
            return Err(Refusal::Precondition(
                "the queen program plays king and queen against king only".into(),
            ));
        };
        let mut game = memory.clone();
        let turn = game.play(black_king);
        let shown = turn
            .replies
            .iter()
            .map(|&reply| queen_shown(reply))
            .collect::<Vec<_>>()
            .join(", ");
        let reason = match turn.replies.first() {
            Some(QueenReply::Error) if turn.replies.len() > 1 => "ЕГГОГ, answered with С/П",
            Some(QueenReply::MateInTwo) if turn.replies.len() > 1 => {
                "ЗГГОГ (mate in two), answered with Cx 2 В/О С/П"
            }
            _ => "the queen program's move",
        };
        let QueenReply::Queen(to) = turn.last() else {
            return Err(Refusal::WrongDisplay(format!(
                "the calculator shows {shown}, not a queen move"
            )));
        };
        Ok((
            displayed_move(position, queen, to, shown, reason)?,
            game.canonical(),
        ))
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
    keyed_in: Mutex<HashMap<(Square, Square), RookGame>>,
}

/// A rook-program display in the notation of the native program.
pub fn rook_shown(reply: RookReply) -> String {
    let answer = |square: Square| digits(square);
    match reply {
        RookReply::King(square) => {
            let (x, y) = answer(square);
            Answer::King { x, y }.to_string()
        }
        RookReply::Rook(square) => {
            let (x, y) = answer(square);
            Answer::Rook { x, y }.to_string()
        }
        RookReply::RookCheck(square) => {
            let (x, y) = answer(square);
            Answer::RookCheck { x, y }.to_string()
        }
        RookReply::BadPosition => Answer::TurnTheBoard.to_string(),
        RookReply::Unreadable(display) => format!("|{display}|"),
        RookReply::Running => "(still running)".to_string(),
    }
}

fn read_krk(board: &Board) -> Result<Krk, Refusal> {
    Krk::from_board(board).ok_or_else(|| {
        Refusal::Precondition("the rook program plays king and rook against king only".into())
    })
}

impl Strategy for Mk61RookEmulated {
    type Memory = RookGame;

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

    fn start(&self, start: &Chess) -> RookGame {
        let men = match Krk::from_board(start.board()) {
            Some(krk) => (krk.white_king, krk.rook),
            // Not a rook ending: the reply refuses it.
            None => (Square::E1, Square::A2),
        };
        let kept = self.keyed_in.lock().map(|kept| kept.get(&men).cloned());
        if let Ok(Some(game)) = kept {
            return game;
        }
        let game = RookGame::new(men.0, men.1).expect(SETUP).canonical();
        if let Ok(mut kept) = self.keyed_in.lock() {
            kept.insert(men, game.clone());
        }
        game
    }

    fn reply(&self, position: &Chess, memory: &RookGame) -> Result<(Reply, RookGame), Refusal> {
        let krk = read_krk(position.board())?;
        let mut game = memory.clone();
        let reply = game.move_king(krk.black_king);
        let shown = rook_shown(reply);
        let (from, to, reason) = match reply {
            RookReply::King(to) => (krk.white_king, to, "the rook program's king move"),
            RookReply::Rook(to) => (krk.rook, to, "the rook program's rook move"),
            RookReply::RookCheck(to) => (krk.rook, to, "the rook program's rook check"),
            RookReply::BadPosition => return Err(Refusal::Precondition(WHY_TURN.to_string())),
            RookReply::Unreadable(_) | RookReply::Running => {
                return Err(Refusal::WrongDisplay(format!(
                    "the calculator shows {shown}, not a move"
                )));
            }
        };
        Ok((
            displayed_move(position, from, to, shown, reason)?,
            game.canonical(),
        ))
    }

    fn costly_replies(&self) -> bool {
        true
    }
}

/// The reply of a program whose display names the man's target square: the
/// legal move there, or the refusal that names the illegal move shown.
fn displayed_move(
    position: &Chess,
    from: Square,
    to: Square,
    shown: String,
    reason: &'static str,
) -> Result<Reply, Refusal> {
    let mv = legal_move(position, from, to, &format!("the display {shown}"))?;
    Ok(Reply {
        mv,
        reason,
        display: Some(shown),
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::Move;

    use super::*;
    use crate::test_support::position;

    /// Seed 000's example: the black king set on a8, the queen answers d7
    /// (the reference trace).
    #[test]
    fn queen_answers_the_king_on_a8_with_d7() {
        let start = position("k7/6Q1/8/8/8/2K5/8/8 w - - 0 1");
        let program = Mk61Queen;
        program.precondition(start.board()).unwrap();
        let (reply, _) = program.reply(&start, &program.start(&start)).unwrap();
        assert_eq!(reply.display.as_deref(), Some("47."));
        assert_eq!(
            (reply.mv.from(), reply.mv.to()),
            (Some(Square::G7), Square::D7)
        );
    }

    /// A king set on a1 gets ЗГГОГ; after Cx 2 В/О С/П the queen goes to
    /// b7 (seed 000).
    #[test]
    fn queen_announces_mate_in_two_from_a1() {
        let start = position("8/6Q1/8/8/8/2K5/8/k7 w - - 0 1");
        let (reply, _) = Mk61Queen.reply(&start, &Mk61Queen.start(&start)).unwrap();
        assert_eq!(reply.display.as_deref(), Some("ЗГГОГ, 27."));
        assert_eq!(reply.mv.to(), Square::B7);
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
        let start = position("8/8/8/4k3/8/8/R7/4K3 w - - 0 1");
        let program = Mk61RookEmulated::default();
        let (reply, _) = program.reply(&start, &program.start(&start)).unwrap();
        assert_eq!(reply.display.as_deref(), Some("14."));
        let expected: Move = reply.mv;
        assert_eq!(
            (expected.from(), expected.to()),
            (Some(Square::A2), Square::A4)
        );
    }

    #[test]
    fn rook_program_refuses_kings_too_close() {
        let start = position("8/8/8/8/8/8/2k5/R3K3 w - - 0 1");
        let program = Mk61RookEmulated::default();
        let refusal = program.reply(&start, &program.start(&start)).unwrap_err();
        assert!(refusal.to_string().contains("9------0."));
    }
}
