//! The native rook program against the listing run on the microcode-level
//! emulator (crate ajedrecista-mk61): the same answer at every move.

use ajedrecista_automata::krk::Krk;
use ajedrecista_automata::{
    Game, GameEnd, Mk61Rook, RandomDefence, Refusal, StartSet, StartTest, Strategy, audit,
    start_positions,
};
use ajedrecista_mk61::{RookGame, RookReply};
use shakmaty::{Chess, Color, Position, Square};

/// The emulator's answer in the notation of the native program.
fn shown(reply: RookReply) -> String {
    let digits = |square: Square| (u32::from(square.file()) + 1, u32::from(square.rank()) + 1);
    match reply {
        RookReply::King(square) => {
            let (x, y) = digits(square);
            format!("{x}.{y}")
        }
        RookReply::Rook(square) => {
            let (x, y) = digits(square);
            format!("{x}{y}.")
        }
        RookReply::RookCheck(square) => {
            let (x, y) = digits(square);
            format!("1. {x}{y}")
        }
        RookReply::BadPosition => "9------0.".to_string(),
        other => format!("{other:?}"),
    }
}

/// The native answer as shown, or the signal.
fn native(program: &Mk61Rook, position: &Chess, memory: &<Mk61Rook as Strategy>::Memory) -> String {
    match program.reply(position, memory) {
        Ok((reply, _)) => reply.display.expect("the program shows its answer"),
        Err(Refusal::Precondition(_)) => "9------0.".to_string(),
        Err(other) => panic!("the native program breaks down: {other}"),
    }
}

fn emulator_for(start: &Chess) -> RookGame {
    let krk = Krk::from_board(start.board()).expect("a rook ending");
    RookGame::new(krk.white_king, krk.rook).expect("the emulator keys the program in")
}

/// Replays `game`: at each White move both programs answer the black
/// king's square the same way and the native answer is the game's move.
fn replay_on_the_emulator(program: &Mk61Rook, game: &Game) {
    let mut emulator = emulator_for(&game.start);
    let mut position = game.start.clone();
    let mut memory = program.start(&game.start);
    for mv in &game.moves {
        if position.turn() == Color::White {
            let black_king = position.board().king_of(Color::Black).unwrap();
            let (reply, next) = program.reply(&position, &memory).unwrap();
            assert_eq!(
                reply.display.unwrap(),
                shown(emulator.move_king(black_king))
            );
            assert_eq!(reply.mv, *mv);
            memory = next;
        }
        position.play_unchecked(*mv);
    }
    if let GameEnd::Refused(_) = game.end {
        let black_king = position.board().king_of(Color::Black).unwrap();
        assert_eq!(shown(emulator.move_king(black_king)), "9------0.");
    }
}

#[test]
fn random_games_get_the_same_answers() {
    let program = Mk61Rook::default();
    let starts = start_positions(&program, StartSet::All, Color::White);
    let mut defence = RandomDefence::new(61);
    let mut answers = 0;
    for start in starts.iter().step_by(starts.len() / 100) {
        let mut emulator = emulator_for(start);
        let mut position = start.clone();
        let mut memory = program.start(start);
        for _ in 0..60 {
            let black_king = position.board().king_of(Color::Black).unwrap();
            let emulated = shown(emulator.move_king(black_king));
            assert_eq!(
                native(&program, &position, &memory),
                emulated,
                "{position:?}"
            );
            answers += 1;
            let Ok((reply, next)) = program.reply(&position, &memory) else {
                break;
            };
            memory = next;
            position.play_unchecked(reply.mv);
            if position.legal_moves().is_empty() {
                break;
            }
            let mv = defence.choose(&position);
            if mv.is_capture() {
                break;
            }
            position.play_unchecked(mv);
        }
    }
    assert!(answers > 500, "{answers} answers compared");
}

#[test]
fn the_audit_games_are_the_calculator_games() {
    let program = Mk61Rook::default();
    let audit = audit(&program, StartSet::All, Color::White);
    replay_on_the_emulator(&program, audit.worst.as_ref().unwrap());
    for game in audit.failure_examples.values() {
        replay_on_the_emulator(&program, game);
    }
}

/// With R0 = -1 the emulator does not run the start test again: it moves
/// the rook away, as `mk61-rook` does and `mk61-rook-abs-r0` does not.
#[test]
fn r0_minus_one_on_the_emulator() {
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    let fen: Fen = "8/8/8/8/8/3k4/8/KR6 w - - 0 1".parse().unwrap();
    let start: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    let mut emulator = emulator_for(&start);
    let emulated = [Square::D3, Square::C3].map(|square| shown(emulator.move_king(square)));
    assert_eq!(emulated, ["22.".to_string(), "72.".to_string()]);

    let abs_r0 = Mk61Rook {
        start_test: StartTest::AbsROne,
        ..Mk61Rook::default()
    };
    for (program, agrees) in [(Mk61Rook::default(), true), (abs_r0, false)] {
        let memory = program.start(&start);
        let (reply, memory) = program.reply(&start, &memory).unwrap();
        assert_eq!(reply.display.as_deref(), Some(emulated[0].as_str()));
        let mut position = start.clone();
        position.play_unchecked(reply.mv);
        let to_c3 = position
            .legal_moves()
            .into_iter()
            .find(|mv| mv.to() == Square::C3)
            .unwrap();
        position.play_unchecked(to_c3);
        assert_eq!(native(&program, &position, &memory) == emulated[1], agrees);
    }
}
