//! The rook program's reference game, recorded on a microcode-level MK-61
//! emulation (../shared/mk61/traces/rook_game1.moves.txt): the native
//! program must show the same answer to every black move.

use ajedrecista_automata::seed_square::square_of_number;
use ajedrecista_automata::{Mk61Rook, Strategy};
use shakmaty::{CastlingMode, Chess, Position, Setup, Square};

/// The square of a seed number XY (file digit, rank digit).
fn square(number: &str) -> Square {
    let number: i32 = number.parse().expect("a seed number");
    square_of_number(number).expect("a square")
}

#[test]
fn native_program_shows_the_emulated_displays() {
    let trace = include_str!("data/mk61_rook_game1.moves.txt");
    // setup: WK e1 WR a2 (R3=5 R4=1 R5=1 R6=2)
    let (white_king, rook) = (Square::E1, Square::A2);
    let program = Mk61Rook::default();
    let mut memory = None;
    let mut position: Option<Chess> = None;
    let mut answers = 0;
    for line in trace.lines().filter(|line| line.contains("black K")) {
        // " 1. black Ke5 (55 С/П) -> | 14.         | = ROOK a4"
        let number = line
            .split('(')
            .nth(1)
            .expect("key entry")
            .split_whitespace()
            .next()
            .unwrap();
        let display = line
            .split('|')
            .nth(1)
            .expect("display")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let black_king = square(number);
        let current = match position.take() {
            None => {
                let mut setup = Setup::empty();
                setup.board = ajedrecista_automata::krk::Krk {
                    white_king,
                    rook,
                    black_king,
                }
                .board();
                let start: Chess = setup.position(CastlingMode::Standard).expect("legal start");
                memory = Some(program.start(&start));
                start
            }
            Some(mut after_white) => {
                let from = after_white.board().king_of(shakmaty::Color::Black).unwrap();
                let mv = after_white
                    .legal_moves()
                    .into_iter()
                    .find(|mv| mv.from() == Some(from) && mv.to() == black_king)
                    .expect("the trace's black move is legal");
                after_white.play_unchecked(mv);
                after_white
            }
        };
        let (reply, next) = program
            .reply(&current, memory.as_ref().unwrap())
            .expect("an answer");
        let shown = reply.display.clone().expect("the program shows its answer");
        // The trace prints the exponent form "1.        17" as "1. 17".
        assert_eq!(shown, display, "answer to {number}");
        memory = Some(next);
        let mut after = current;
        after.play_unchecked(reply.mv);
        position = Some(after);
        answers += 1;
    }
    assert_eq!(answers, 10);
    assert!(position.expect("a game was played").is_checkmate());
}
