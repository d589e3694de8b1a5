//! The symbols of the code (brochure 1.2) and the marks written for each
//! zone square (2.3).
//!
//! One total order serves every comparison the code makes: the order of A,
//! the ascending brackets, and the search for the etalon position.

use std::cmp::Ordering;
use std::fmt;

use shakmaty::{Color, Piece, Role};

/// A man other than a king: written as a digit, white `0`..`4`, black
/// `5`..`9` (colour decides, not side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Man {
    color: Color,
    role: Role,
}

impl Man {
    /// `None` for a king: kings have their own symbols.
    pub fn new(color: Color, role: Role) -> Option<Man> {
        (role != Role::King).then_some(Man { color, role })
    }

    pub fn color(self) -> Color {
        self.color
    }

    pub fn role(self) -> Role {
        self.role
    }

    /// The digit of the brochure: P N B R Q = 0 1 2 3 4, plus 5 for black.
    pub fn digit(self) -> u8 {
        let base = match self.role {
            Role::Pawn => 0,
            Role::Knight => 1,
            Role::Bishop => 2,
            Role::Rook => 3,
            Role::Queen => 4,
            Role::King => unreachable!("Man::new refuses kings"),
        };
        base + if self.color.is_black() { 5 } else { 0 }
    }
}

/// A fairy piece: the first letter of its name (1.2.2); a black one is
/// written underlined and ranks after the white one (1.2.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FairyPiece {
    pub letter: char,
    pub color: Color,
}

/// One symbol of the alphabet, in the brochure's order:
/// `K` < blocking king < `0` < ... < `9` < fairy letters < `+`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// The king of the attacking side, `K`.
    AttackingKing,
    /// An ordinary king blocking another attacked king (1.2.6); it ranks
    /// right after `K`. Printed `K'` (the brochure's glyph is lost in OCR).
    BlockingKing,
    /// A fairy king, `(K` + letter `)`: `(KA)` the armoured king (1.2.3,
    /// 1.2.5); these rank between `K` and `0` (1.2.7).
    FairyKing(char),
    /// A royal unit that is not a king, `(R` + its symbol `)`, e.g. the
    /// black royal knight `(R6)` (1.2.4). Ranked with the fairy kings.
    Royal(char),
    /// A pawn, knight, bishop, rook or queen.
    Man(Man),
    /// A fairy piece.
    Fairy(FairyPiece),
    /// A square the rules forbid to the king (Grid, ...), `+` (2.3.5).
    Forbidden,
}

impl Symbol {
    /// The symbol of an orthodox piece when `attacking` is the attacking
    /// colour; `None` for the attacked king, which is never written.
    pub fn of_piece(piece: Piece, attacking: Color) -> Option<Symbol> {
        match Man::new(piece.color, piece.role) {
            Some(man) => Some(Symbol::Man(man)),
            None => (piece.color == attacking).then_some(Symbol::AttackingKing),
        }
    }

    /// Position in the total order of the alphabet.
    fn rank(self) -> (u8, u32) {
        match self {
            Symbol::AttackingKing => (0, 0),
            Symbol::BlockingKing => (1, 0),
            Symbol::FairyKing(letter) => (2, u32::from(letter)),
            Symbol::Royal(inner) => (3, u32::from(inner)),
            Symbol::Man(man) => (4, u32::from(man.digit())),
            Symbol::Fairy(fairy) => (
                5,
                u32::from(fairy.letter) * 2 + u32::from(fairy.color.is_black()),
            ),
            Symbol::Forbidden => (6, 0),
        }
    }
}

/// `Ord` (and `PartialOrd`) by a key method: the brochure's order, not
/// the order the variants are written in.
macro_rules! ordered_by {
    ($type:ty, $key:ident) => {
        impl Ord for $type {
            fn cmp(&self, other: &$type) -> Ordering {
                self.$key().cmp(&other.$key())
            }
        }

        impl PartialOrd for $type {
            fn partial_cmp(&self, other: &$type) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
    };
}

ordered_by!(Symbol, rank);

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbol::AttackingKing => f.write_str("K"),
            Symbol::BlockingKing => f.write_str("K'"),
            Symbol::FairyKing(letter) => write!(f, "(K{letter})"),
            Symbol::Royal(inner) => write!(f, "(R{inner})"),
            Symbol::Man(man) => write!(f, "{}", man.digit()),
            Symbol::Fairy(FairyPiece { letter, color }) => {
                write!(f, "{letter}")?;
                if color.is_black() {
                    // Combining low line: the brochure underlines black fairies.
                    f.write_str("\u{332}")?;
                }
                Ok(())
            }
            Symbol::Forbidden => f.write_str("+"),
        }
    }
}

/// What part B writes for one zone square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Square No.1 of a stalemate: `П` (2.3.2).
    Stalemate,
    /// One symbol: the single guard, checker, blocker or protector.
    Single(Symbol),
    /// Several symbols in brackets: a double check ascending (2.3.1), a
    /// pinned blocker and its pinner (2.3.3), or, in an impure position,
    /// all the guards ascending.
    Group(Vec<Symbol>),
}

impl Mark {
    /// A mark from guards given in any order: one symbol plain, several in
    /// ascending order in brackets.
    pub fn guards(mut symbols: Vec<Symbol>) -> Mark {
        symbols.sort();
        match symbols.as_slice() {
            [single] => Mark::Single(*single),
            _ => Mark::Group(symbols),
        }
    }

    /// The symbols compared when codes are ordered: a bracket compares as
    /// its symbols in order, so `9` < `(93)` < `K`... is decided symbol by
    /// symbol and a plain symbol precedes a bracket that starts with it.
    fn symbols(&self) -> &[Symbol] {
        match self {
            Mark::Stalemate => &[],
            Mark::Single(symbol) => std::slice::from_ref(symbol),
            Mark::Group(symbols) => symbols,
        }
    }
}

ordered_by!(Mark, symbols);

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mark::Stalemate => f.write_str("П"),
            Mark::Single(symbol) => write!(f, "{symbol}"),
            Mark::Group(symbols) => {
                f.write_str("(")?;
                for symbol in symbols {
                    write!(f, "{symbol}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn man(color: Color, role: Role) -> Symbol {
        Symbol::Man(Man::new(color, role).unwrap())
    }

    #[test]
    fn digits_follow_colour_and_role() {
        let written: String = [Color::White, Color::Black]
            .into_iter()
            .flat_map(|color| {
                [
                    Role::Pawn,
                    Role::Knight,
                    Role::Bishop,
                    Role::Rook,
                    Role::Queen,
                ]
                .map(|role| man(color, role).to_string())
            })
            .collect();
        assert_eq!(written, "0123456789");
        assert_eq!(Man::new(Color::White, Role::King), None);
    }

    #[test]
    fn alphabet_order() {
        let grasshopper = |color| Symbol::Fairy(FairyPiece { letter: 'G', color });
        let ascending = [
            Symbol::AttackingKing,
            Symbol::BlockingKing,
            Symbol::FairyKing('A'),
            Symbol::Royal('6'),
            man(Color::White, Role::Pawn),
            man(Color::Black, Role::Queen),
            Symbol::Fairy(FairyPiece {
                letter: 'D',
                color: Color::Black,
            }),
            grasshopper(Color::White),
            grasshopper(Color::Black),
            Symbol::Forbidden,
        ];
        assert!(ascending.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn marks_render_and_order() {
        let rook = man(Color::White, Role::Rook);
        let bishop = man(Color::White, Role::Bishop);
        let queen = man(Color::Black, Role::Queen);
        assert_eq!(Mark::guards(vec![rook, bishop]).to_string(), "(23)");
        assert_eq!(Mark::Group(vec![queen, rook]).to_string(), "(93)");
        assert_eq!(Mark::Stalemate.to_string(), "П");
        assert!(Mark::Single(Symbol::AttackingKing) < Mark::Single(bishop));
        assert!(Mark::Single(bishop) < Mark::Group(vec![bishop, rook]));
        assert!(Mark::Group(vec![bishop, rook]) < Mark::Single(rook));
    }
}
