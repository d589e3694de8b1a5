//! The MK-61 rook-mate program of seed 001 ("Мат ладьёй", Техника —
//! молодёжи 9/1987, modified version), played natively: the pseudocode and
//! listing of the seed, on the seed's numeric squares (file digit, rank
//! digit: 11 = a1 .. 88 = h8).
//!
//! The program has a fixed frame: the white king must stand at least two
//! ranks below the black king. It does not turn the board itself; it shows
//! `9------0.` and the player turns the board by 90 degrees and keys the
//! white men in again.

use std::fmt;

use shakmaty::{Board, Chess, Position};

use crate::krk::{Krk, unturned};
use crate::seed_square::{square_digits, square_of_digits};
use crate::strategy::{
    Cause, OwnIllegalMove, Precondition, Refusal, Reply, Strategy, WHY_TURN, legal_move,
};

/// What happens when the calculator shows `9------0.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OnSignal {
    /// The game stops there: the automaton refuses.
    #[default]
    Stop,
    /// The player does as the seed says: turns the board a quarter turn
    /// clockwise, keys the white men in again and enters the black king's
    /// square as its move, up to three times; the start flag R0 stays as
    /// the program left it.
    TurnTheBoard,
}

/// The MK-61 rook program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Mk61Rook {
    pub on_signal: OnSignal,
}

/// What the program keeps between moves that the board does not show: the
/// start flag R0, reduced to what the start test reads from it. (R3-R6
/// mirror the white men and R1, R2 are the black king's input.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mk61RookMemory {
    /// The next move will run the start test.
    pub start_test_armed: bool,
    /// Quarter turns (clockwise) of the board since the start: the
    /// calculator sees the board turned so.
    pub quarter_turns: u8,
}

/// One answer on the calculator's display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answer {
    /// `X.Y`: the white king to file X, rank Y.
    King { x: i32, y: i32 },
    /// `XY.`: the rook to file X, rank Y.
    Rook { x: i32, y: i32 },
    /// `1. XY` (10 to the power XY): the rook to XY with check.
    RookCheck { x: i32, y: i32 },
    /// `9------0.`: bad position, turn the board by 90 degrees.
    TurnTheBoard,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::King { x, y } => write!(f, "{x}.{y}"),
            Answer::Rook { x, y } => write!(f, "{x}{y}."),
            Answer::RookCheck { x, y } => write!(f, "1. {x}{y}"),
            Answer::TurnTheBoard => f.write_str("9------0."),
        }
    }
}

pub use crate::seed_square::numeric_square;

/// The program's registers for one move, named as in the seed.
struct Registers {
    /// Black king (R1, R2), white king (R3, R4), rook (R5, R6).
    r1: i32,
    r2: i32,
    r3: i32,
    r4: i32,
    r5: i32,
    r6: i32,
}

impl Registers {
    fn of(krk: &Krk) -> Registers {
        let (r1, r2) = square_digits(krk.black_king);
        let (r3, r4) = square_digits(krk.white_king);
        let (r5, r6) = square_digits(krk.rook);
        Registers {
            r1,
            r2,
            r3,
            r4,
            r5,
            r6,
        }
    }

    /// `MoveRook`: the rook along its rank to the half away from the black
    /// king (files 1-4 -> 7, 5-8 -> 1), one file further right if it is
    /// there already.
    fn move_rook(&self) -> Answer {
        let mut x = if self.r1 / 5 == 0 { 7 } else { 1 };
        if x == self.r5 {
            x += 1;
        }
        Answer::Rook { x, y: self.r6 }
    }
}

/// Why the program chose an answer.
const WHY_MOVE_ROOK: &str = "rook to the far half of the board, away from the black king";
const WHY_CUT: &str = "rook cuts off the black king";
const WHY_KING_UP: &str = "king up towards the black king";
const WHY_CHECK: &str = "kings in opposition: rook check";
const WHY_WAIT: &str = "kings on adjacent files: waiting rook move";
const WHY_KING_ACROSS: &str = "king sideways towards the black king";

impl Mk61Rook {
    /// How many orientations of the board the program gets to see.
    fn orientations(&self) -> u8 {
        match self.on_signal {
            OnSignal::Stop => 1,
            OnSignal::TurnTheBoard => 4,
        }
    }

    /// The program's answer to the black king's move, from the squares and
    /// the start flag: the listing step by step (addresses in comments).
    fn answer(&self, krk: &Krk, armed: bool) -> (Answer, &'static str, bool) {
        let r = Registers::of(krk);
        // 13-18: Rd = R2 - R4 - 2; below zero the kings are too close.
        let rd = r.r2 - r.r4 - 2;
        if rd < 0 {
            return (Answer::TurnTheBoard, WHY_TURN, armed);
        }
        // 19-22: Rc = R5 - R3, zero when the white men share a file.
        let rc = r.r5 - r.r3;
        // 23-28: RX = 1 - |R5 - R1|.
        let rx = 1 - (r.r5 - r.r1).abs();
        // 29-35: the start test.
        if armed && rx >= 0 {
            if rc != 0 {
                return (Answer::TurnTheBoard, WHY_TURN, armed);
            }
            // 35: R0 = X, which holds Rc (zero) here.
            return (r.move_rook(), WHY_MOVE_ROOK, false);
        }
        // 53: R0 = RX. `FL0` at step 29 falls through into the start test
        // only for R0 = 1 (for R0 = -1 it jumps: the emulator and the
        // hardware-level microcode agree; docs/guide/src/results/audits.md).
        let armed_next = rx == 1;
        // 54: rook next to the black king's file.
        if rx == 0 {
            return (r.move_rook(), WHY_MOVE_ROOK, armed_next);
        }
        // 55-61: is the rook on the rank below the black king?
        let cut_rank = r.r2 - 1;
        let answer = if r.r6 != cut_rank {
            if rc == 0 {
                (r.move_rook(), WHY_MOVE_ROOK)
            } else {
                (
                    Answer::Rook {
                        x: r.r5,
                        y: cut_rank,
                    },
                    WHY_CUT,
                )
            }
        } else if rd != 0 {
            (
                Answer::King {
                    x: r.r3,
                    y: r.r4 + 1,
                },
                WHY_KING_UP,
            )
        } else {
            let across = r.r1 - r.r3;
            match across.abs() {
                0 => (Answer::RookCheck { x: r.r5, y: r.r2 }, WHY_CHECK),
                1 => (r.move_rook(), WHY_WAIT),
                _ => (
                    Answer::King {
                        x: r.r3 + across.signum(),
                        y: r.r4,
                    },
                    WHY_KING_ACROSS,
                ),
            }
        };
        (answer.0, answer.1, armed_next)
    }
}

/// The men of a rook program's position (the native and the emulated
/// one's), or why it takes no such position.
pub(crate) fn read_krk(board: &Board) -> Result<Krk, Refusal> {
    Krk::from_board(board).ok_or(Refusal::Precondition(Precondition::NotKrk(
        "the rook program",
    )))
}

impl Strategy for Mk61Rook {
    type Memory = Mk61RookMemory;

    fn name(&self) -> &'static str {
        match self.on_signal {
            OnSignal::Stop => "mk61-rook-native",
            OnSignal::TurnTheBoard => "mk61-rook-native-turning",
        }
    }

    /// The seed's start conditions: the white king at least two ranks below
    /// the black king; the rook not on the black king's file or the next
    /// one, unless the rook and the white king share a file.
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        let krk = read_krk(board)?;
        let accepted = (0..self.orientations())
            .any(|turns| self.answer(&krk.turned(turns), true).0 != Answer::TurnTheBoard);
        match accepted {
            false => Err(Refusal::Precondition(Precondition::RookProgramStart)),
            true => Ok(()),
        }
    }

    fn start(&self, _start: &Chess) -> Mk61RookMemory {
        Mk61RookMemory {
            start_test_armed: true,
            quarter_turns: 0,
        }
    }

    fn reply(
        &self,
        position: &Chess,
        memory: &Mk61RookMemory,
    ) -> Result<(Reply, Mk61RookMemory), Refusal> {
        let krk = read_krk(position.board())?;
        let mut armed = memory.start_test_armed;
        for extra_turns in 0..self.orientations() {
            let turns = (memory.quarter_turns + extra_turns) % 4;
            let (answer, reason, armed_next) = self.answer(&krk.turned(turns), armed);
            let (from, x, y) = match answer {
                Answer::TurnTheBoard => {
                    armed = armed_next;
                    continue;
                }
                Answer::King { x, y } => (krk.white_king, x, y),
                Answer::Rook { x, y } | Answer::RookCheck { x, y } => (krk.rook, x, y),
            };
            let to = square_of_digits(x, y).ok_or_else(|| {
                Refusal::IllegalMove(OwnIllegalMove::OffBoard {
                    cause: Cause::Rule(reason),
                    answer: answer.to_string(),
                })
            })?;
            let mv = legal_move(position, from, unturned(to, turns), Cause::Rule(reason))?;
            let display = match extra_turns {
                0 => answer.to_string(),
                n => format!("{} x{n}, then {answer}", Answer::TurnTheBoard),
            };
            let reply = Reply {
                mv,
                reason,
                display: Some(display),
            };
            let memory = Mk61RookMemory {
                start_test_armed: armed_next,
                quarter_turns: turns,
            };
            return Ok((reply, memory));
        }
        Err(Refusal::Precondition(match self.on_signal {
            OnSignal::Stop => Precondition::TurnTheBoard,
            OnSignal::TurnTheBoard => Precondition::TurnTheBoardEveryWay,
        }))
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Move, Position, Square};

    use super::*;
    use crate::test_support::{assert_first_reply, first_reply, position};

    /// `position` after White's `reply` and the black king's step to `to`.
    fn then_black_king_to(position: &Chess, reply: Move, to: Square) -> Chess {
        let mut after = position.clone();
        after.play_unchecked(reply);
        let black = after
            .legal_moves()
            .into_iter()
            .find(|mv| mv.to() == to)
            .expect("the black king's step is legal");
        after.play_unchecked(black);
        after
    }

    fn answer(program: Mk61Rook, fen: &str, armed: bool) -> Result<String, Refusal> {
        let memory = Mk61RookMemory {
            start_test_armed: armed,
            quarter_turns: 0,
        };
        program
            .reply(&position(fen), &memory)
            .map(|(reply, _)| reply.display.expect("the program shows its answer"))
    }

    #[test]
    fn displays_in_the_calculator_notation() {
        assert_eq!(Answer::King { x: 4, y: 2 }.to_string(), "4.2");
        assert_eq!(Answer::Rook { x: 2, y: 5 }.to_string(), "25.");
        assert_eq!(Answer::RookCheck { x: 2, y: 5 }.to_string(), "1. 25");
        assert_eq!(Answer::TurnTheBoard.to_string(), "9------0.");
    }

    #[test]
    fn kings_too_close_at_the_start_turn_the_board() {
        // White king e1, black king c2: not two ranks apart.
        let fen = "8/8/8/8/8/8/2k5/R3K3 w - - 0 1";
        let refusal = answer(Mk61Rook::default(), fen, true).unwrap_err();
        assert!(refusal.to_string().contains("9------0."));
        assert!(
            Mk61Rook::default()
                .precondition(position(fen).board())
                .is_err()
        );
    }

    #[test]
    fn rook_next_to_the_black_king_at_the_start_turns_the_board() {
        // Rook b2, black king c4, white king e1: files next to each other.
        let fen = "8/8/8/8/2k5/8/1R6/4K3 w - - 0 1";
        assert!(answer(Mk61Rook::default(), fen, true).is_err());
        // The same files are allowed when the white men share a file.
        let fen = "8/8/8/8/2k5/8/1R6/1K6 w - - 0 1";
        assert_eq!(answer(Mk61Rook::default(), fen, true).unwrap(), "72.");
    }

    #[test]
    fn rook_cuts_then_king_climbs_then_checks() {
        assert_eq!(
            answer(Mk61Rook::default(), "8/8/8/4k3/8/8/R7/4K3 w - - 0 1", true).unwrap(),
            "14."
        );
        assert_eq!(
            answer(Mk61Rook::default(), "8/4k3/R7/8/8/8/8/4K3 w - - 0 1", false).unwrap(),
            "5.2"
        );
        assert_eq!(
            answer(Mk61Rook::default(), "4k3/R7/4K3/8/8/8/8/8 w - - 0 1", false).unwrap(),
            "1. 18"
        );
    }

    #[test]
    fn kings_on_adjacent_files_wait_with_the_rook() {
        assert_eq!(
            answer(Mk61Rook::default(), "3k4/R7/4K3/8/8/8/8/8 w - - 0 1", false).unwrap(),
            "77."
        );
    }

    /// The restart signal in the middle of a game: the white men share a
    /// file, so the program moves the rook aside first, and the black king
    /// walks down next to the white king: `9------0.`.
    #[test]
    fn restart_signal_when_the_black_king_breaks_through() {
        let start = position("8/8/8/8/R7/1k6/8/K7 w - - 0 1");
        let program = Mk61Rook::default();
        let (reply, memory) = first_reply(&program, &start).unwrap();
        assert_eq!(reply.display.as_deref(), Some("74."));
        let after = then_black_king_to(&start, reply.mv, Square::C2);
        let refusal = program.reply(&after, &memory).unwrap_err();
        assert!(refusal.to_string().contains("9------0."));
    }

    /// With the black king two files from the rook (R0 = -1), `FL0` jumps:
    /// the start test does not come back, and the black king stepping next
    /// to the rook's file gets the rook moved away.
    #[test]
    fn r0_minus_one_does_not_rerun_the_start_test() {
        let start = position("8/8/8/8/8/3k4/8/KR6 w - - 0 1");
        let program = Mk61Rook::default();
        let memory = program.start(&start);
        let (reply, memory) = program.reply(&start, &memory).expect("a first answer");
        assert_eq!(reply.display.as_deref(), Some("22."));
        assert!(!memory.start_test_armed);
        let after = then_black_king_to(&start, reply.mv, Square::C3);
        let (reply, _) = program.reply(&after, &memory).expect("an answer");
        assert_eq!(reply.display.as_deref(), Some("72."));
    }

    /// Kings on one rank: the calculator asks for the board to be turned
    /// until the black king is two ranks above the white king; its answer is
    /// in the turned board's numbers.
    #[test]
    fn the_player_turns_the_board_until_the_program_accepts_it() {
        let fen = "8/8/8/K6k/8/8/8/3R4 w - - 0 1";
        assert!(
            Mk61Rook::default()
                .precondition(position(fen).board())
                .is_err()
        );
        let turning = Mk61Rook {
            on_signal: OnSignal::TurnTheBoard,
        };
        let display = "9------0. x3, then 87.";
        let memory = assert_first_reply(&turning, fen, display, (Square::D1, Square::G1));
        assert_eq!(memory.quarter_turns, 3);
    }
}
