//! A position in Popeye's input language: the `pieces`, `condition` and
//! `stipulation` commands (English keywords, case-insensitive, commands
//! in any order, `beginproblem`/`endproblem` optional).
//!
//! ```text
//! beginproblem
//! pieces white kc5 qe4 re8 pf3 black kd5 rd6
//! stipulation h#2
//! condition circe
//! endproblem
//! ```
//!
//! Piece codes are Popeye's (`k p s b r q g dr n`: the knight is `s`, `n`
//! the nightrider), each followed by one or more squares (`pa2b2`). After
//! a colour, the attribute `royal` makes the following units royal; the
//! attribute `armoured` (ours: Popeye has no armoured kings) makes kings
//! armoured. `remark`, `author`, `origin` and `title` lines and `option`
//! words are skipped, but `option HalfDuplex` swaps the sides.
//!
//! The attacked side: a mate or stalemate stipulation names it (White for
//! self- and reflex-play, `s#`, `r#`, `hs#`; otherwise Black; HalfDuplex
//! swaps them). Any other stipulation (`~1`, `dia`, `x1`, ...) leaves it to
//! the position: the side in check (a final position is the attacked
//! side's mate), else the side Popeye lets play first (Black in help play,
//! otherwise White; HalfDuplex swaps them), so a stalemate reads as Popeye
//! reads it.

use shakmaty::{Color, Square};

use super::position::{FairyPosition, Rules};
use super::{Condition, FairyError, Kind, Unit};
use crate::final_position::FinalKind;

/// A problem read from Popeye input.
#[derive(Clone, Debug)]
pub struct PopeyeProblem {
    /// The position, with the attacked side to move.
    pub position: FairyPosition,
    /// The stipulation as written.
    pub stipulation: String,
    /// Mate or stalemate, as the stipulation's goal says (`#`, `=`).
    pub goal: Option<FinalKind>,
}

const KEYWORDS: [&str; 13] = [
    "beginproblem",
    "endproblem",
    "pieces",
    "condition",
    "stipulation",
    "option",
    "remark",
    "author",
    "origin",
    "title",
    "twin",
    "forsyth",
    "protocol",
];

/// Reads a Popeye problem.
pub fn parse_popeye(text: &str) -> Result<PopeyeProblem, FairyError> {
    let mut units: Vec<(Square, Unit)> = Vec::new();
    let mut conditions = Vec::new();
    let mut stipulation: Option<String> = None;
    let mut command = String::new();
    let mut color: Option<Color> = None;
    let mut royal = false;
    let mut armoured = false;
    let mut half_duplex = false;
    for line in text.lines() {
        for word in line.split_whitespace() {
            let lower = word.to_ascii_lowercase();
            if KEYWORDS.contains(&lower.as_str()) {
                command = lower;
                if matches!(
                    command.as_str(),
                    "remark" | "author" | "origin" | "title" | "protocol"
                ) {
                    break;
                }
                if command == "forsyth" || command == "twin" {
                    return Err(FairyError::Popeye(format!(
                        "the {command} command is not supported; give the position with pieces"
                    )));
                }
                continue;
            }
            match command.as_str() {
                "pieces" => match lower.as_str() {
                    "white" | "black" => {
                        color = Some(if lower == "white" {
                            Color::White
                        } else {
                            Color::Black
                        });
                        royal = false;
                        armoured = false;
                    }
                    "royal" => royal = true,
                    "armoured" | "armored" => armoured = true,
                    "neutral" => {
                        return Err(FairyError::Popeye(
                            "neutral pieces are not supported".to_owned(),
                        ));
                    }
                    _ => {
                        let color = color.ok_or_else(|| {
                            FairyError::Popeye(format!("{word}: no colour given before it"))
                        })?;
                        let (kind, squares) = piece_and_squares(&lower)?;
                        for square in squares {
                            let mut unit = Unit::new(color, kind);
                            unit.royal |= royal;
                            unit.armoured = armoured && kind == Kind::King;
                            units.push((square, unit));
                        }
                    }
                },
                "condition" => conditions.push(lower.parse::<Condition>()?),
                "stipulation" => {
                    stipulation = Some(word.to_owned());
                }
                "option" => half_duplex |= lower == "halfduplex",
                "endproblem" | "beginproblem" => {}
                "" => {
                    return Err(FairyError::Popeye(format!(
                        "{word}: expected a command (pieces, condition, stipulation)"
                    )));
                }
                _ => {}
            }
        }
    }
    let stipulation = stipulation.ok_or_else(|| FairyError::Popeye("no stipulation".to_owned()))?;
    let lower = stipulation.to_ascii_lowercase();
    let goal = if lower.contains('#') {
        Some(FinalKind::Mate)
    } else if lower.contains('=') {
        Some(FinalKind::Stalemate)
    } else {
        None
    };
    let play = lower
        .trim_start_matches("ser-")
        .trim_start_matches("exact-");
    // The side mated or stalemated by the goal, or the side playing first.
    let named = if play.starts_with('s') || play.starts_with('r') || play.starts_with("hs") {
        Color::White
    } else {
        Color::Black
    };
    let first_to_play = if play.starts_with('h') {
        Color::Black
    } else {
        Color::White
    };
    let swap = |color: Color| if half_duplex { !color } else { color };
    let mut board = FairyPosition::empty(Color::White, Rules::new(conditions));
    for (square, unit) in units {
        if board.unit_at(square).is_some() {
            return Err(FairyError::Popeye(format!("two pieces on {square}")));
        }
        board.set(square, Some(unit));
    }
    let attacked = match goal {
        Some(_) => swap(named),
        None => side_in_check(&board).unwrap_or(swap(first_to_play)),
    };
    let position = board.with_turn(attacked);
    position.legality().map_err(FairyError::Illegal)?;
    Ok(PopeyeProblem {
        position,
        stipulation,
        goal,
    })
}

/// The side in check, if exactly one is: it can only be the attacked side.
fn side_in_check(board: &FairyPosition) -> Option<Color> {
    match Color::ALL.map(|color| board.in_check(color)) {
        [true, false] => Some(Color::White),
        [false, true] => Some(Color::Black),
        _ => None,
    }
}

/// `qd5e4` → queen on d5 and e4. The longest piece code that leaves a
/// list of squares wins (`drb5` is a dragon, not a dummy).
fn piece_and_squares(word: &str) -> Result<(Kind, Vec<Square>), FairyError> {
    let unknown = || FairyError::UnknownPiece(word.to_owned());
    let mut codes: Vec<Kind> = Kind::ALL.to_vec();
    codes.sort_by_key(|kind| std::cmp::Reverse(kind.popeye_code().len()));
    for kind in codes {
        let Some(rest) = word.strip_prefix(kind.popeye_code()) else {
            continue;
        };
        if rest.is_empty() || rest.len() % 2 != 0 {
            continue;
        }
        let squares: Option<Vec<Square>> = (0..rest.len())
            .step_by(2)
            .map(|i| rest.get(i..i + 2)?.parse::<Square>().ok())
            .collect();
        if let Some(squares) = squares {
            return Ok((kind, squares));
        }
    }
    Err(unknown())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_example_14() {
        let problem = parse_popeye(
            "BeginProblem\nPieces White armoured Kc5 Black armoured kd5 rd6\n\
             white qe4 re8 pf3\nStipulation h#2\nEndProblem\n",
        )
        .unwrap();
        assert_eq!(problem.position.fen(), "4R3/8/3r4/2!K!k4/4Q3/5P2/8/8 b");
        assert_eq!(problem.goal, Some(FinalKind::Mate));
    }

    #[test]
    fn reads_royal_knight_and_self_play() {
        let problem =
            parse_popeye("pieces white kb2 sd6 black royal sa3\nstipulation #8\n").unwrap();
        assert_eq!(problem.position.fen(), "8/8/3N4/8/8/*n7/1K6/8 b");
        let problem = parse_popeye(
            "pieces white kg2 pf2h2 rg1h1 black kf4 bh3\nstipulation s#6\ncondition circe maximummer",
        )
        .unwrap();
        assert_eq!(problem.position.turn(), Color::White);
        assert_eq!(problem.position.rules().conditions().len(), 2);
    }

    /// Example 6 is White to move (White is mated): `s#6` says so, and a
    /// stipulation without a goal leaves it to the position (White is in
    /// check), whoever Popeye lets play first.
    #[test]
    fn example_6_is_white_to_move() {
        for (stipulation, option) in [("s#6", ""), ("~1", ""), ("~1", "option halfduplex")] {
            let problem = parse_popeye(&format!(
                "pieces white kg2 pf2h2 rg1h1 black kf4 bh3\nstipulation {stipulation}\n\
                 condition circe maximummer\n{option}"
            ))
            .unwrap();
            assert_eq!(
                problem.position.turn(),
                Color::White,
                "{stipulation} {option}"
            );
        }
        // A goal names the side: in a direct mate Black is mated, and here
        // that cannot stand.
        assert!(matches!(
            parse_popeye("pieces white kg2 pf2h2 rg1h1 black kf4 bh3\nstipulation #6"),
            Err(FairyError::Illegal(_))
        ));
    }

    /// Without a goal and with nothing in the position to decide, the side
    /// Popeye lets play first: White, Black under HalfDuplex; HalfDuplex
    /// also swaps the side a goal names.
    #[test]
    fn side_to_play_without_a_goal() {
        let read = |text: &str| parse_popeye(text).unwrap().position.turn();
        let pieces = "pieces white ke4 black ke6 ra1\n";
        assert_eq!(read(&format!("{pieces}stipulation ~1")), Color::White);
        assert_eq!(
            read(&format!("{pieces}stipulation ~1 option halfduplex")),
            Color::Black
        );
        assert_eq!(read(&format!("{pieces}stipulation h~1")), Color::Black);
        assert_eq!(
            read(&format!("{pieces}stipulation h#2 option halfduplex")),
            Color::White
        );
        // Without a check the side to play stands, as in Popeye.
        let stalemate = "pieces white ka1 pa2 black kc2 pa3 rb8\nstipulation ~1";
        assert_eq!(read(stalemate), Color::White);
        assert_eq!(
            read(&format!("{stalemate} option halfduplex")),
            Color::Black
        );
    }

    #[test]
    fn popeye_names_of_conditions() {
        let problem = parse_popeye(
            "pieces white kb2 black ka8\nstipulation ~1\n\
             condition ShieldedKings GridChess NoCapture BlackMaximummer WhiteMaximummer NormalPawn",
        )
        .unwrap();
        assert_eq!(
            problem.position.rules().conditions(),
            &[
                Condition::NoCapture,
                Condition::Grid,
                Condition::Ingul,
                Condition::BlackMaximummer,
                Condition::WhiteMaximummer,
                Condition::NormalPawn
            ]
        );
    }

    #[test]
    fn refuses_unknown_words() {
        assert!(matches!(
            parse_popeye("pieces white kb2 xx4 black ka8\nstipulation #1"),
            Err(FairyError::UnknownPiece(_))
        ));
        assert!(matches!(
            parse_popeye("pieces white kb2 black ka8\ncondition madrasi\nstipulation #1"),
            Err(FairyError::UnknownCondition(_))
        ));
    }
}
