//! Reading what a person types as a move of Black: the black king's move
//! in SAN, UCI, long algebraic, a square or the calculator's numbers
//! ([`parse_entry`]), checked against a position (`king_move`: the lamp's
//! reason when it is illegal), or another black man's move in SAN or UCI.
//! The session ([`crate::session`]) plays what this reads.

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, Chess, Color, Move, Position, Rank, Role, Square};

use crate::catalog::StrategyName;

/// Why the person's input is not a move: the lamp's reason. Its kind's
/// name (`kind()`) is the variant's name in snake case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum IllegalMove {
    #[error("no move given")]
    Empty,
    #[error("cannot read {0:?} as a move (try Kb7, b8b7, b7, 27 or 2.7)")]
    Garbage(String),
    #[error("{0:?} is off the board")]
    OffBoard(String),
    #[error("only the black king moves: {0}")]
    NotKingMove(NotKingMove),
    #[error("the king moves one square: {from} to {to} is not a king move")]
    NotOneStep { from: Square, to: Square },
    #[error("the black king is on {0} already: give a square next to it")]
    SameSquare(Square),
    #[error("{0} is next to the white king")]
    NextToWhiteKing(Square),
    #[error("{square} is attacked by the {} on {from}", role_name(*attacker))]
    Attacked {
        square: Square,
        attacker: Role,
        from: Square,
    },
    #[error("{0} is taken")]
    Occupied(Square),
    #[error("{square} is not a start square of {}", strategy.label())]
    NotAStart {
        square: Square,
        strategy: StrategyName,
    },
    #[error("the black king is being placed: give its square (e.g. d6)")]
    PlacementNeedsSquare,
}

impl IllegalMove {
    /// A stable name of the kind, for tests and JSON.
    pub fn kind(&self) -> &'static str {
        self.into()
    }

    /// Whether the input was a move of the black king at all, one that the
    /// rules of chess or the machine's start forbid: only such a move
    /// lights the lamp, as in 1912, where the person moved the king on the
    /// board. Text that names no king move (a typo, a square off the
    /// board, a man Black does not have, a king that is elsewhere) gets a
    /// hint and does not count.
    pub fn lights_the_lamp(&self) -> bool {
        !matches!(
            self,
            IllegalMove::Empty
                | IllegalMove::Garbage(_)
                | IllegalMove::OffBoard(_)
                | IllegalMove::NotKingMove(_)
                | IllegalMove::SameSquare(_)
                | IllegalMove::PlacementNeedsSquare
        )
    }
}

/// Why a move is not the black king's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotKingMove {
    /// A piece letter other than K: Black has only the king.
    #[error("Black has no {}", role_name(*.0))]
    NoSuchMan(Role),
    /// A move from a square the black king is not on.
    #[error("the black king is on {king}, not on {from}")]
    KingElsewhere { king: Square, from: Square },
}

/// The squares the person names: `to`, and `from` when the input gives it
/// (UCI, long algebraic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub from: Option<Square>,
    pub to: Square,
}

/// Reads a king move as typed: SAN (`Kb7`, `Kxb7`, `Kb7+`), UCI or long
/// algebraic (`b8b7`, `b8-b7`, `Kb8-b7`), the target square (`b7`) or the
/// calculator's numbers, file digit then rank digit (`27`, or `2.7` as the
/// queen program takes it).
pub fn parse_entry(text: &str) -> Result<Entry, IllegalMove> {
    let trimmed = text.trim();
    let body = trimmed.trim_end_matches(['+', '#', '!', '?']);
    if body.is_empty() {
        return Err(if trimmed.is_empty() {
            IllegalMove::Empty
        } else {
            IllegalMove::Garbage(trimmed.to_string())
        });
    }
    let garbage = || IllegalMove::Garbage(trimmed.to_string());
    let chars: Vec<char> = body.chars().collect();
    match numeric_entry(&chars) {
        Numeric::Square(entry) => return Ok(entry),
        Numeric::OffBoard => return Err(IllegalMove::OffBoard(trimmed.to_string())),
        Numeric::Letters => {}
    }
    let (piece, rest) = match chars[0] {
        'K' | 'k' if chars.len() > 1 && chars[1] != '-' => (Some(Role::King), &chars[1..]),
        'Q' | 'R' | 'B' | 'N' => (
            Some(Role::from_char(chars[0].to_ascii_lowercase()).expect("piece letter")),
            &chars[1..],
        ),
        _ => (None, &chars[..]),
    };
    let rest = match rest.first() {
        Some('x') if piece.is_some() => &rest[1..],
        _ => rest,
    };
    let squares = coordinate_pairs(rest).ok_or_else(garbage)?;
    let mut on_board = Vec::new();
    for (file, rank) in squares {
        let square = match (file, rank) {
            ('a'..='h', 1..=8) => Square::from_coords(
                shakmaty::File::from_char(file).expect("a-h"),
                Rank::new(rank - 1),
            ),
            _ => return Err(IllegalMove::OffBoard(trimmed.to_string())),
        };
        on_board.push(square);
    }
    if let Some(role) = piece.filter(|&role| role != Role::King) {
        return Err(IllegalMove::NotKingMove(NotKingMove::NoSuchMan(role)));
    }
    match *on_board.as_slice() {
        [to] => Ok(Entry { from: None, to }),
        [from, to] => Ok(Entry {
            from: Some(from),
            to,
        }),
        _ => Err(garbage()),
    }
}

/// What the calculator's numbers (`27`, `2.7`) read as.
enum Numeric {
    /// A square: file digit, then rank digit.
    Square(Entry),
    /// Two digits, one of them off the board (0, 9).
    OffBoard,
    /// Not two digits: the input is read as letters and digits.
    Letters,
}

/// `27` or `2.7`.
fn numeric_entry(chars: &[char]) -> Numeric {
    let digits = match chars {
        &[file, rank] | &[file, '.', rank] => file.to_digit(10).zip(rank.to_digit(10)),
        _ => None,
    };
    match digits {
        Some((file @ 1..=8, rank @ 1..=8)) => Numeric::Square(Entry {
            from: None,
            to: Square::from_coords(shakmaty::File::new(file - 1), Rank::new(rank - 1)),
        }),
        Some(_) => Numeric::OffBoard,
        None => Numeric::Letters,
    }
}

/// Letter-number pairs such as `b8b7`, `b8-b7`, `b8xb7`, `i9`: one or two.
fn coordinate_pairs(chars: &[char]) -> Option<Vec<(char, u32)>> {
    let mut pairs = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !pairs.is_empty() && matches!(chars[i], '-' | 'x') {
            i += 1;
        }
        let file = *chars.get(i).filter(|c| c.is_ascii_lowercase())?;
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        let rank: u32 = chars[start..i].iter().collect::<String>().parse().ok()?;
        pairs.push((file, rank));
    }
    (1..=2).contains(&pairs.len()).then_some(pairs)
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// The legal move of a black man other than the king (a pawn, a piece),
/// typed in SAN (`e5`, `Qxb2`, `b1=Q`) or UCI (`b2b1q`); `None` when the
/// text is no such move (king moves are read by [`parse_entry`], which
/// explains an illegal one).
pub(crate) fn black_man_move(position: &Chess, text: &str) -> Option<Move> {
    let board = position.board();
    if position.turn() != Color::Black || board.by_color(Color::Black).count() == 1 {
        return None;
    }
    let text = text.trim();
    let mv = match text.parse::<UciMove>() {
        Ok(uci) => uci.to_move(position).ok()?,
        Err(_) => text.parse::<SanPlus>().ok()?.san.to_move(position).ok()?,
    };
    (mv.role() != Role::King).then_some(mv)
}

/// The legal king move for `entry`, or why there is none.
pub(crate) fn king_move(position: &Chess, entry: Entry) -> Result<Move, IllegalMove> {
    let board = position.board();
    let king = board.king_of(Color::Black).expect("a black king");
    if let Some(from) = entry.from
        && from != king
    {
        return Err(IllegalMove::NotKingMove(NotKingMove::KingElsewhere {
            king,
            from,
        }));
    }
    let to = entry.to;
    if to == king {
        return Err(IllegalMove::SameSquare(king));
    }
    if king.distance(to) != 1 {
        return Err(IllegalMove::NotOneStep { from: king, to });
    }
    if let Some(mv) = position
        .legal_moves()
        .into_iter()
        .find(|mv| mv.from() == Some(king) && mv.to() == to)
    {
        return Ok(mv);
    }
    let white_king = board.king_of(Color::White).expect("a white king");
    if white_king.distance(to) <= 1 {
        return Err(IllegalMove::NextToWhiteKing(to));
    }
    let occupied = board.occupied() ^ Bitboard::from_square(king);
    match board.attacks_to(to, Color::White, occupied).first() {
        Some(from) => Err(IllegalMove::Attacked {
            square: to,
            attacker: board.role_at(from).expect("a man"),
            from,
        }),
        None => Err(IllegalMove::Occupied(to)),
    }
}
