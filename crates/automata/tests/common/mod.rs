//! Reading the test data: a PGN game with a FEN tag.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// The start position and the moves of a one-game PGN.
pub fn read_pgn(text: &str) -> (Chess, Vec<Move>) {
    let mut start = Chess::default();
    let mut tokens = Vec::new();
    for line in text.lines() {
        if let Some(fen) = line.strip_prefix("[FEN \"") {
            let fen: Fen = fen.trim_end_matches("\"]").parse().expect("FEN tag");
            start = fen
                .into_position(CastlingMode::Standard)
                .expect("legal FEN");
        } else if !line.starts_with('[') {
            tokens.extend(line.split_whitespace().map(str::to_owned));
        }
    }
    let mut position = start.clone();
    let mut moves = Vec::new();
    for token in tokens {
        let san = token.rsplit('.').next().expect("split yields one part");
        if san.is_empty() || ["1-0", "0-1", "1/2-1/2", "*"].contains(&san) {
            continue;
        }
        let san: SanPlus = san.parse().expect("SAN");
        let mv = san.san.to_move(&position).expect("legal move");
        position.play_unchecked(mv);
        moves.push(mv);
    }
    (start, moves)
}
