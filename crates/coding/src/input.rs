//! Positions to classify, read from text: FEN or EPD lines, or PGN games
//! (their final positions).

use ajedrecista_tables::fullmoves_after;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

use crate::{BadMove, CodingError, parse_position};

/// One position of an input, or why it could not be read.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Where it came from: `line 3`, `game 2 (Kniest - Brown)`.
    pub source: String,
    pub position: Result<Chess, CodingError>,
    /// The line itself, for FEN/EPD input: a caller with fairy rules reads
    /// it again as an extended FEN.
    pub line: Option<String>,
    /// A PGN game's fullmove number at its end, counted in u64: shakmaty's
    /// stops at u32::MAX.
    pub fullmoves: Option<u64>,
}

/// An input with more positions than its reader's limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the input has more than {limit} positions (the limit of one run)")]
pub struct TooManyPositions {
    pub limit: usize,
}

/// One line of the input: its text, or `Err` with its bytes if it is not
/// UTF-8.
type InputLine<'a> = Result<&'a str, &'a [u8]>;

/// Reads FEN/EPD lines (blank lines and `#` comments skipped) or, when a
/// line starts with `[`, PGN games; at most `limit` of them. A line that
/// is not UTF-8 makes its own entry bad (FEN/EPD) or its game's (PGN),
/// and the others are read.
pub fn read_positions(bytes: &[u8], limit: usize) -> Result<Vec<Entry>, TooManyPositions> {
    let lines = || {
        let mut lines = bytes.split(|&b| b == b'\n');
        if bytes.ends_with(b"\n") {
            // As `str::lines`: no empty line after the last line end.
            lines.next_back();
        }
        lines.map(|line| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            std::str::from_utf8(line).map_err(|_| line)
        })
    };
    let entries: Box<dyn Iterator<Item = Entry> + '_> =
        if lines().any(|line| line.is_ok_and(|line| line.trim_start().starts_with('['))) {
            Box::new(read_pgn(lines()))
        } else {
            Box::new(
                lines()
                    .enumerate()
                    .filter(|(_, line)| {
                        line.is_err()
                            || line.is_ok_and(|line| {
                                let line = line.trim();
                                !line.is_empty() && !line.starts_with('#')
                            })
                    })
                    .map(|(i, line)| match line {
                        Ok(line) => Entry {
                            source: format!("line {}", i + 1),
                            position: parse_position(line),
                            line: Some(line.trim().to_owned()),
                            fullmoves: None,
                        },
                        Err(_) => Entry {
                            source: format!("line {}", i + 1),
                            position: Err(CodingError::NotUtf8 { line: i + 1 }),
                            line: None,
                            fullmoves: None,
                        },
                    }),
            )
        };
    let mut read = Vec::new();
    for entry in entries {
        if read.len() == limit {
            return Err(TooManyPositions { limit });
        }
        read.push(entry);
    }
    Ok(read)
}

/// A game being read: its tags and its movetext.
#[derive(Default)]
struct Game {
    tags: Vec<(String, String)>,
    movetext: String,
    /// The first line of the game that is not UTF-8 (from 1), if any.
    not_utf8: Option<usize>,
}

impl Game {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.movetext.trim().is_empty()
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn entry(&self, number: usize) -> Entry {
        let source = match (self.tag("White"), self.tag("Black")) {
            (Some(white), Some(black)) => format!("game {number} ({white} - {black})"),
            _ => format!("game {number}"),
        };
        let (position, fullmoves) = match self.final_position() {
            Ok((position, fullmoves)) => (Ok(position), Some(fullmoves)),
            Err(error) => (Err(error), None),
        };
        Entry {
            source,
            position,
            line: None,
            fullmoves,
        }
    }

    /// The position after the game's moves, and its fullmove number.
    fn final_position(&self) -> Result<(Chess, u64), CodingError> {
        if let Some(line) = self.not_utf8 {
            return Err(CodingError::NotUtf8 { line });
        }
        let start = match self.tag("FEN") {
            Some(fen) => parse_position(fen)?,
            None => Chess::default(),
        };
        let mut position = start.clone();
        let tokens = move_tokens(&self.movetext);
        let plies = tokens.len();
        for (ply, token) in tokens.into_iter().enumerate() {
            let bad = |reason| CodingError::BadMove {
                reason,
                token: token.clone(),
                ply: ply + 1,
            };
            let san: SanPlus = token.parse().map_err(|_| bad(BadMove::Unreadable))?;
            let m = san
                .san
                .to_move(&position)
                .map_err(|_| bad(BadMove::Illegal))?;
            position.play_unchecked(m);
        }
        Ok((position, fullmoves_after(&start, plies)))
    }
}

/// The games of PGN lines, one at a time.
fn read_pgn<'a>(lines: impl Iterator<Item = InputLine<'a>>) -> impl Iterator<Item = Entry> {
    let mut lines = lines.enumerate();
    let mut game = Game::default();
    let mut number = 0;
    std::iter::from_fn(move || {
        loop {
            let Some((index, line)) = lines.next() else {
                if game.is_empty() {
                    return None;
                }
                number += 1;
                return Some(std::mem::take(&mut game).entry(number));
            };
            let finished = match line {
                Ok(line) => read_pgn_line(&mut game, line),
                Err(bytes) => {
                    // A tag line (a player's name in Latin-1) still
                    // starts its game.
                    let is_tag = bytes.trim_ascii_start().starts_with(b"[");
                    let finished = (is_tag && !game.movetext.trim().is_empty())
                        .then(|| std::mem::take(&mut game));
                    game.not_utf8.get_or_insert(index + 1);
                    finished
                }
            };
            if let Some(finished) = finished {
                number += 1;
                return Some(finished.entry(number));
            }
        }
    })
}

/// Adds a PGN line to `game`; a tag after movetext starts the next game,
/// and the finished one is returned.
fn read_pgn_line(game: &mut Game, line: &str) -> Option<Game> {
    let mut finished = None;
    {
        let trimmed = line.trim();
        if let Some(tag) = trimmed.strip_prefix('[') {
            if !game.movetext.trim().is_empty() {
                finished = Some(std::mem::take(game));
            }
            if let Some((name, rest)) = tag.split_once(' ') {
                let value = rest.trim_end_matches(']').trim().trim_matches('"');
                game.tags.push((name.to_owned(), value.to_owned()));
            }
        } else {
            game.movetext.push_str(trimmed);
            game.movetext.push('\n');
        }
    }
    finished
}

/// The SAN tokens of a movetext: comments, variations, move numbers, NAGs,
/// annotation glyphs and the result left out.
fn move_tokens(movetext: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut depth = 0usize;
    let mut in_brace = false;
    let mut in_line_comment = false;
    for c in movetext.chars() {
        match c {
            _ if in_line_comment => in_line_comment = c != '\n',
            '}' if in_brace => in_brace = false,
            _ if in_brace => {}
            '{' => in_brace = true,
            ';' => in_line_comment = true,
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            _ => plain.push(c),
        }
    }
    plain
        .split_whitespace()
        .map(|token| token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .map(|token| token.trim_end_matches(['!', '?']))
        .filter(|token| {
            !token.is_empty()
                && !token.starts_with('$')
                && !matches!(
                    *token,
                    "1-0" | "0-1" | "1/2-1/2" | "*" | "-0" | "-1" | "/2-1/2"
                )
        })
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_lines_and_comments() {
        let text = "# mates\n\n7k/7Q/6K1/8/8/8/8/8 b - - 0 1\nnot a fen\n\
                    6k1/5Q2/6K1/8/8/8/8/8 b - - bm Kh8; id \"epd\";\n";
        let entries = read_positions(text.as_bytes(), 10).unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[0].source, "line 3");
        assert!(entries[0].position.is_ok());
        assert!(entries[1].position.is_err());
        assert!(entries[2].position.as_ref().unwrap().is_check());
        assert_eq!(
            entries[2].position.as_ref().unwrap().turn(),
            shakmaty::Color::Black
        );
    }

    #[test]
    fn pgn_games_reach_their_final_positions() {
        let pgn = "[Event \"?\"]\n[White \"A\"]\n[Black \"B\"]\n\n\
                   1. f3 e5 {comment} 2. g4?? (2. Kf2) Qh4# 0-1\n\n\
                   [Event \"?\"]\n[FEN \"7k/8/6K1/8/8/8/8/1Q6 w - - 0 1\"]\n\n1. Qb8# 1-0\n";
        let entries = read_positions(pgn.as_bytes(), 10).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].source, "game 1 (A - B)");
        let first = entries[0].position.as_ref().unwrap();
        assert!(first.is_checkmate());
        assert!(entries[1].position.as_ref().unwrap().is_checkmate());
    }

    /// Issue 57, item 11: a game's move number is counted on past u32
    /// (shakmaty's stops there); a FEN line whose counter does not fit is
    /// refused, not cut to u32::MAX.
    #[test]
    fn move_numbers_past_u32_are_counted_and_larger_counters_refused() {
        let pgn = "[FEN \"7k/8/6K1/8/8/8/8/1Q6 b - - 0 4294967295\"]\n\n\
                   4294967295... Kg8 4294967296. Qb8# 1-0\n";
        let entries = read_positions(pgn.as_bytes(), 10).unwrap();
        assert!(entries[0].position.as_ref().unwrap().is_checkmate());
        assert_eq!(entries[0].fullmoves, Some(4_294_967_296));
        let fens =
            "7k/8/6K1/8/8/8/8/1Q6 b - - 0 4294967296\n7k/8/6K1/8/8/8/8/1Q6 b - - 0 4294967295\n";
        let entries = read_positions(fens.as_bytes(), 10).unwrap();
        let refused = entries[0].position.as_ref().unwrap_err();
        assert!(
            matches!(refused, CodingError::MoveCounter { .. }),
            "{refused}"
        );
        assert!(
            refused
                .to_string()
                .contains("fullmove number \"4294967296\"")
        );
        assert_eq!(
            entries[1].position.as_ref().unwrap().fullmoves().get(),
            u32::MAX
        );
    }

    #[test]
    fn illegal_moves_are_reported() {
        let entries = read_positions(b"[Event \"?\"]\n\n1. e4 e5 2. Ke3 *\n", 10).unwrap();
        let err = entries[0].position.as_ref().unwrap_err();
        assert!(matches!(
            err,
            CodingError::BadMove {
                reason: BadMove::Illegal,
                ply: 3,
                ..
            }
        ));
        assert_eq!(err.to_string(), "illegal move \"Ke3\" at ply 3");
    }

    #[test]
    fn a_line_that_is_not_utf8_makes_only_its_game_bad() {
        let pgn = b"[Event \"?\"]\n[White \"Mu\xF1oz\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
                    [Event \"?\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let entries = read_positions(pgn, 10).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(
            entries[0].position.as_ref().unwrap_err().to_string(),
            "line 2: the line is not UTF-8"
        );
        assert!(entries[1].position.as_ref().unwrap().is_checkmate());
        let fens = b"k7/8/K7/8/8/8/8/7R b - - 0 1\n\xE9\n8/8/8/8/8/8/8/8 w - - 0 1\n";
        let entries = read_positions(fens, 10).unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[1].source, "line 2");
        assert_eq!(
            entries[1].position.as_ref().unwrap_err().to_string(),
            "line 2: the line is not UTF-8"
        );
    }

    #[test]
    fn more_positions_than_the_limit_are_refused() {
        let fens = "8/8/8/8/8/8/8/8 w - - 0 1\n".repeat(4);
        assert_eq!(read_positions(fens.as_bytes(), 4).unwrap().len(), 4);
        assert_eq!(
            read_positions(fens.as_bytes(), 3).unwrap_err(),
            TooManyPositions { limit: 3 }
        );
    }
}
