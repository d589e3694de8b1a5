//! Problems in Popeye's input language: the `pieces`, `condition` and
//! `stipulation` commands (English keywords, case-insensitive, commands
//! in any order, `beginproblem` optional). A file may hold several
//! problems, each ended by `endproblem` or `nextproblem`.
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
//! The attacked side, as Popeye decides the side to play: from the
//! stipulation and HalfDuplex alone, never from the position. A mate or
//! stalemate stipulation names it (White for self- and reflex-play, `s#`,
//! `r#`, `hs#`; otherwise Black); any other stipulation (`~1`, `dia`,
//! `x1`, ...) makes it the side Popeye lets play first (Black in help
//! play, otherwise White); HalfDuplex swaps them. A position whose other
//! side is in check is refused, as Popeye refuses it ("the side to play
//! can capture the king").

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

const KEYWORDS: [&str; 12] = [
    "beginproblem",
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

/// Reads a text holding one Popeye problem; a text with several is
/// refused (read it with [`parse_popeye_problems`]).
pub fn parse_popeye(text: &str) -> Result<PopeyeProblem, FairyError> {
    let mut problems = parse_popeye_problems(text);
    match problems.len() {
        1 => problems.remove(0),
        n => Err(FairyError::Popeye(format!(
            "the input holds {n} problems, not one"
        ))),
    }
}

/// Reads every problem of a Popeye file, each on its own: a problem ends
/// at `endproblem` or `nextproblem`, and what follows is the next one
/// (`beginproblem` optional). Nothing carries over from one problem to the
/// next. A text without a problem reads as one, refused (no stipulation).
pub fn parse_popeye_problems(text: &str) -> Vec<Result<PopeyeProblem, FairyError>> {
    let mut problems = Vec::new();
    let mut problem = Reader::default();
    for line in text.lines() {
        for word in line.split_whitespace() {
            let lower = word.to_ascii_lowercase();
            if lower == "endproblem" || lower == "nextproblem" {
                let ended = std::mem::take(&mut problem);
                if !ended.is_empty() {
                    problems.push(ended.finish());
                }
                continue;
            }
            if problem.word(word, lower) == Flow::SkipLine {
                break;
            }
        }
    }
    if !problem.is_empty() || problems.is_empty() {
        problems.push(problem.finish());
    }
    problems
}

/// What follows a word: the next word, or the next line (the rest of a
/// `remark`, `author`, `origin`, `title` or `protocol` line is skipped).
#[derive(PartialEq, Eq)]
enum Flow {
    Next,
    SkipLine,
}

/// One problem as its words are read.
#[derive(Default)]
struct Reader {
    /// Words read, `beginproblem` aside.
    words: usize,
    units: Vec<(Square, Unit)>,
    conditions: Vec<Condition>,
    stipulation: Option<String>,
    command: String,
    color: Option<Color>,
    royal: bool,
    armoured: bool,
    half_duplex: bool,
    /// The first error: the problem's other words are only skipped.
    error: Option<FairyError>,
}

impl Reader {
    fn is_empty(&self) -> bool {
        self.words == 0
    }

    fn word(&mut self, word: &str, lower: String) -> Flow {
        if lower != "beginproblem" {
            self.words += 1;
        }
        if KEYWORDS.contains(&lower.as_str()) {
            self.command = lower;
            if matches!(
                self.command.as_str(),
                "remark" | "author" | "origin" | "title" | "protocol"
            ) {
                return Flow::SkipLine;
            }
            if (self.command == "forsyth" || self.command == "twin") && self.error.is_none() {
                self.error = Some(FairyError::Popeye(format!(
                    "the {} command is not supported; give the position with pieces",
                    self.command
                )));
            }
            return Flow::Next;
        }
        if self.error.is_none()
            && let Err(error) = self.argument(word, &lower)
        {
            self.error = Some(error);
        }
        Flow::Next
    }

    /// A word after a command.
    fn argument(&mut self, word: &str, lower: &str) -> Result<(), FairyError> {
        match self.command.as_str() {
            "pieces" => match lower {
                "white" | "black" => {
                    self.color = Some(if lower == "white" {
                        Color::White
                    } else {
                        Color::Black
                    });
                    self.royal = false;
                    self.armoured = false;
                }
                "royal" => self.royal = true,
                "armoured" | "armored" => self.armoured = true,
                "neutral" => {
                    return Err(FairyError::Popeye(
                        "neutral pieces are not supported".to_owned(),
                    ));
                }
                _ => {
                    let color = self.color.ok_or_else(|| {
                        FairyError::Popeye(format!("{word}: no colour given before it"))
                    })?;
                    let (kind, squares) = piece_and_squares(lower)?;
                    for square in squares {
                        let mut unit = Unit::new(color, kind);
                        unit.royal |= self.royal;
                        unit.armoured = self.armoured && kind == Kind::King;
                        self.units.push((square, unit));
                    }
                }
            },
            "condition" => self.conditions.push(lower.parse::<Condition>()?),
            "stipulation" => self.stipulation = Some(word.to_owned()),
            "option" => self.half_duplex |= lower == "halfduplex",
            "beginproblem" => {}
            "" => {
                return Err(FairyError::Popeye(format!(
                    "{word}: expected a command (pieces, condition, stipulation)"
                )));
            }
            _ => {}
        }
        Ok(())
    }

    /// The problem read, or its first error.
    fn finish(self) -> Result<PopeyeProblem, FairyError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let stipulation = self
            .stipulation
            .ok_or_else(|| FairyError::Popeye("no stipulation".to_owned()))?;
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
        // The side mated or stalemated by the goal, or the side playing
        // first: the stipulation's alone, never the position's.
        let attacked = match goal {
            Some(_) if play.starts_with('s') || play.starts_with('r') || play.starts_with("hs") => {
                Color::White
            }
            Some(_) => Color::Black,
            None if play.starts_with('h') => Color::Black,
            None => Color::White,
        };
        let attacked = if self.half_duplex {
            !attacked
        } else {
            attacked
        };
        let mut board = FairyPosition::empty(Color::White, Rules::new(self.conditions));
        for (square, unit) in self.units {
            if board.unit_at(square).is_some() {
                return Err(FairyError::Popeye(format!("two pieces on {square}")));
            }
            board.set(square, Some(unit));
        }
        let position = board.with_turn(attacked);
        position.legality().map_err(FairyError::Illegal)?;
        Ok(PopeyeProblem {
            position,
            stipulation,
            goal,
        })
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

    /// Example 6 is White to move (White is mated): `s#6` says so, and so
    /// does `~1` (White plays first). Under HalfDuplex Black plays first,
    /// and the position is refused: the side to play could take the king.
    #[test]
    fn example_6_is_white_to_move() {
        let pieces = "pieces white kg2 pf2h2 rg1h1 black kf4 bh3\ncondition circe maximummer\n";
        for stipulation in ["s#6", "~1"] {
            let problem = parse_popeye(&format!("{pieces}stipulation {stipulation}")).unwrap();
            assert_eq!(problem.position.turn(), Color::White, "{stipulation}");
        }
        for text in ["stipulation #6", "stipulation ~1 option halfduplex"] {
            assert!(
                matches!(
                    parse_popeye(&format!("{pieces}{text}")),
                    Err(FairyError::Illegal(_))
                ),
                "{text}"
            );
        }
    }

    /// The side to play is the stipulation's and HalfDuplex's: a check in
    /// the position never decides it.
    #[test]
    fn side_to_play_from_the_stipulation_alone() {
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
        let stalemate = "pieces white ka1 pa2 black kc2 pa3 rb8\nstipulation ~1";
        assert_eq!(read(stalemate), Color::White);
        assert_eq!(
            read(&format!("{stalemate} option halfduplex")),
            Color::Black
        );
        // The issue's case: the white king in check on a7, Black to play
        // under HalfDuplex: refused, as Popeye refuses it.
        let checked = "pieces white ka7 sc3 se4 black kd3 rd7\ncondition circe\nstipulation ~1";
        assert!(matches!(
            parse_popeye(&format!("{checked}\noption halfduplex")),
            Err(FairyError::Illegal(_))
        ));
        assert_eq!(read(checked), Color::White);
    }

    /// Each problem of a file is read on its own: nothing of one (pieces,
    /// conditions, HalfDuplex) reaches the next.
    #[test]
    fn every_problem_of_a_file_is_read_apart() {
        let blocks = "beginproblem\npieces white kb6 qb7 black ka8\nstipulation #1\nendproblem\n\
                      beginproblem\npieces white ke1 black ke8\ncondition circe\noption halfduplex\n\
                      stipulation ~1\nendproblem\n";
        let joined = blocks.replacen("endproblem\nbeginproblem", "nextproblem", 1);
        for text in [blocks, joined.as_str()] {
            let problems = parse_popeye_problems(text);
            assert_eq!(problems.len(), 2, "{text}");
            let first = problems[0].as_ref().unwrap();
            assert_eq!(first.position.fen(), "k7/1Q6/1K6/8/8/8/8/8 b");
            assert!(first.position.rules().conditions().is_empty());
            let second = problems[1].as_ref().unwrap();
            assert_eq!(second.position.fen(), "4k3/8/8/8/8/8/8/4K3 b");
            assert_eq!(second.position.rules().conditions(), &[Condition::Circe]);
            assert!(matches!(
                parse_popeye(text),
                Err(FairyError::Popeye(message)) if message.contains("2 problems")
            ));
        }
        // A refused problem does not take the others with it; empty blocks
        // and a remark naming a keyword are no problems.
        let problems = parse_popeye_problems(
            "pieces white kb2 zz3 black ka8 stipulation #1 nextproblem\n\
             remark not an endproblem here\npieces white kb6 qb7 black ka8 stipulation #1\n\
             endproblem beginproblem endproblem",
        );
        assert_eq!(problems.len(), 2);
        assert!(matches!(problems[0], Err(FairyError::UnknownPiece(_))));
        assert!(problems[1].is_ok());
        assert!(matches!(
            parse_popeye_problems("")[..],
            [Err(FairyError::Popeye(_))]
        ));
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
