//! Positions to classify, read from text: FEN or EPD lines, or PGN games
//! (their final positions).

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
}

/// Reads FEN/EPD lines (blank lines and `#` comments skipped) or, when a
/// line starts with `[`, PGN games.
pub fn read_positions(text: &str) -> Vec<Entry> {
    if text.lines().any(|line| line.trim_start().starts_with('[')) {
        read_pgn(text)
    } else {
        text.lines()
            .enumerate()
            .filter(|(_, line)| {
                let line = line.trim();
                !line.is_empty() && !line.starts_with('#')
            })
            .map(|(i, line)| Entry {
                source: format!("line {}", i + 1),
                position: parse_position(line),
                line: Some(line.trim().to_owned()),
            })
            .collect()
    }
}

/// A game being read: its tags and its movetext.
#[derive(Default)]
struct Game {
    tags: Vec<(String, String)>,
    movetext: String,
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
        Entry {
            source,
            position: self.final_position(),
            line: None,
        }
    }

    fn final_position(&self) -> Result<Chess, CodingError> {
        let mut position = match self.tag("FEN") {
            Some(fen) => parse_position(fen)?,
            None => Chess::default(),
        };
        for (ply, token) in move_tokens(&self.movetext).into_iter().enumerate() {
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
        Ok(position)
    }
}

fn read_pgn(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut game = Game::default();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(tag) = trimmed.strip_prefix('[') {
            if !game.movetext.trim().is_empty() {
                entries.push(game.entry(entries.len() + 1));
                game = Game::default();
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
    if !game.is_empty() {
        entries.push(game.entry(entries.len() + 1));
    }
    entries
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
        let entries = read_positions(text);
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
        let entries = read_positions(pgn);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].source, "game 1 (A - B)");
        let first = entries[0].position.as_ref().unwrap();
        assert!(first.is_checkmate());
        assert!(entries[1].position.as_ref().unwrap().is_checkmate());
    }

    #[test]
    fn illegal_moves_are_reported() {
        let entries = read_positions("[Event \"?\"]\n\n1. e4 e5 2. Ke3 *\n");
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
}
