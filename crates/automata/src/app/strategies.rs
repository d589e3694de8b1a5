//! The catalog as front ends read it (`/api/strategies`): every fact a
//! front end would otherwise write down by machine name.

use std::sync::Arc;

use ajedrecista_tables::{Material, Tablebase, Variant};
use serde::Serialize;
use shakmaty::{Board, CastlingMode, Chess, Color, Position, Role, Setup, Square};

use super::probe::BuildPolicy;
use super::uci::Work;
use crate::calculator_game::ChessProgram;
use crate::catalog::{Panel, StrategyName};
use crate::session::start_squares;
use crate::strategy::Strategy;
use crate::torres::Lamp;

/// One automaton of the catalog.
#[derive(Debug, Clone, Serialize)]
pub struct StrategyView {
    pub name: &'static str,
    pub label: &'static str,
    /// Where its rules come from.
    pub source: &'static str,
    /// The white men besides the king: `rook`, `queen`, `bishop+bishop`
    /// or `bishop+knight`.
    pub white_piece: String,
    /// The game perfect play is taken from: standard or fixed-king-SQ.
    pub variant: String,
    /// A start of the machine's own: the seed's demonstration game.
    pub demo_fen: &'static str,
    /// The white men a person places the black king against.
    pub white_men: &'static str,
    /// What the play view shows of its replies besides the board: `lamps`,
    /// `display` or `board`.
    pub panel: Panel,
    /// The calculator program it runs (`queen`, `rook`), if any.
    pub calculator: Option<ChessProgram>,
    pub about: AboutView,
    /// Which whole positions it takes as a start, and why.
    pub start_rule: &'static str,
    /// What its audit's "machine's own starts" are, in words.
    pub own_starts: &'static str,
    /// Whether those are fewer than every legal start.
    pub has_own_starts: bool,
    /// Where the black king may be placed against `white_men`.
    pub start_squares: Vec<String>,
    /// The lamps its panel shows (the 1912 machine's eight), with their
    /// words; empty for other panels.
    pub panel_lamps: Vec<LampLabel>,
    /// A note under its audit.
    pub audit_note: Option<&'static str>,
    /// Why the web does not run its audit, if it does not.
    pub audit_refused: Option<&'static str>,
    /// The automaton whose audit gives the same answer, then.
    pub audit_stand_in: Option<&'static str>,
}

/// One lamp of a machine's panel.
#[derive(Debug, Clone, Serialize)]
pub struct LampLabel {
    pub lamp: Lamp,
    pub label: &'static str,
}

/// Whether one automaton takes a position as its start, and if not, why.
#[derive(Debug, Clone, Serialize)]
pub struct StartAnswer {
    pub name: StrategyName,
    pub label: &'static str,
    pub accepts: bool,
    /// Why not (the automaton's refusal), when it does not.
    pub why_not: Option<String>,
}

/// Every automaton's answer to `position` as a start: what a game from it
/// would check first (the game not over, its table to be had under
/// `policy`, the automaton's precondition), without building any table.
pub fn start_answers(
    position: &Chess,
    tables: &Arc<Tablebase>,
    policy: BuildPolicy,
) -> Vec<StartAnswer> {
    // A game from a position has its table ready first: every machine's.
    let no_table = policy
        .material(tables, position, Variant::Standard)
        .err()
        .map(|refusal| refusal.to_string());
    StrategyName::all()
        .map(|name| {
            let why_not = match position.is_game_over() {
                true => Some("the game is already over in this position".to_string()),
                false => no_table.clone().or_else(|| {
                    name.build(tables)
                        .precondition(position.board())
                        .err()
                        .map(|refusal| refusal.to_string())
                }),
            };
            StartAnswer {
                name,
                label: name.label(),
                accepts: why_not.is_none(),
                why_not,
            }
        })
        .collect()
}

/// One automaton's squares for the black king against men set up by hand.
#[derive(Debug, Clone, Serialize)]
pub struct StartSquares {
    pub name: StrategyName,
    pub label: &'static str,
    pub squares: Vec<String>,
}

/// For every automaton, the free squares where the black king, placed
/// against `men` (a black king among them left out), makes a position it
/// takes as a start with `turn` to move: [`start_answers`] for each whole
/// position.
pub fn squares_taken_as_starts(
    men: &Board,
    turn: Color,
    tables: &Arc<Tablebase>,
    policy: BuildPolicy,
) -> Vec<StartSquares> {
    let mut men = men.clone();
    for square in men.by_piece(Color::Black.king()) {
        men.discard_piece_at(square);
    }
    let mut found: Vec<StartSquares> = StrategyName::all()
        .map(|name| StartSquares {
            name,
            label: name.label(),
            squares: Vec::new(),
        })
        .collect();
    for square in Square::ALL
        .into_iter()
        .filter(|&s| !men.occupied().contains(s))
    {
        let Some(position) = with_black_king(&men, square, turn) else {
            continue;
        };
        for (answer, entry) in start_answers(&position, tables, policy)
            .iter()
            .zip(&mut found)
        {
            if answer.accepts {
                entry.squares.push(square.to_string());
            }
        }
    }
    found
}

/// The legal position of `men` with the black king on `square`, `turn` to move.
fn with_black_king(men: &Board, square: Square, turn: Color) -> Option<Chess> {
    let mut setup = Setup::empty();
    setup.board = men.clone();
    setup.board.set_piece_at(square, Color::Black.king());
    setup.turn = turn;
    setup.position(CastlingMode::Standard).ok()
}

/// What a visitor reads about a machine, with its picture.
#[derive(Debug, Clone, Serialize)]
pub struct AboutView {
    pub text: &'static [&'static str],
    pub caption: &'static str,
    /// The picture's board (a FEN's board part).
    pub board: &'static str,
    /// The squares marked on the picture: where the black king may be
    /// placed against its men (empty when the picture marks none).
    pub start_squares: Vec<String>,
    pub lamps: &'static [&'static str],
}

/// A man's name as the catalog view writes it.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

impl StrategyView {
    pub fn new(name: StrategyName, tables: &Arc<Tablebase>) -> StrategyView {
        let entry = name.entry();
        let automaton = name.build(tables);
        let about = &entry.about;
        let squares = |board: &str| -> Vec<String> {
            let board: Board = board.parse().expect("the catalog's boards are valid");
            let squares = start_squares(&automaton, &board);
            squares.iter().map(ToString::to_string).collect()
        };
        let marked = match about.marks_starts {
            true => squares(about.board),
            false => Vec::new(),
        };
        StrategyView {
            name: entry.name,
            label: entry.label,
            source: entry.source,
            white_piece: automaton
                .white_pieces()
                .iter()
                .map(|&role| role_name(role))
                .collect::<Vec<_>>()
                .join("+"),
            variant: automaton.variant().to_string(),
            demo_fen: entry.demo_fen,
            white_men: entry.white_men,
            panel: entry.panel,
            calculator: entry.calculator,
            about: AboutView {
                text: &about.text,
                caption: about.caption,
                board: about.board,
                start_squares: marked,
                lamps: about.lamps,
            },
            start_rule: entry.start_rule,
            own_starts: entry.own_starts,
            has_own_starts: entry.has_own_starts,
            start_squares: squares(entry.white_men),
            panel_lamps: match entry.panel {
                Panel::Lamps => Lamp::ALL
                    .map(|lamp| LampLabel {
                        lamp,
                        label: lamp.label(),
                    })
                    .to_vec(),
                _ => Vec::new(),
            },
            audit_note: entry.audit_note,
            audit_refused: entry.audit_too_slow,
            audit_stand_in: entry.audit_stand_in,
        }
    }

    /// Every automaton, in catalog order.
    pub fn all(tables: &Arc<Tablebase>) -> Vec<StrategyView> {
        StrategyName::all()
            .map(|name| StrategyView::new(name, tables))
            .collect()
    }
}

/// The methods' own tables being calculated now, with how far each has
/// come: what a move of these machines waits for (a front end shows it).
pub fn method_tables_building() -> Vec<(StrategyName, crate::MethodProgress)> {
    StrategyName::all()
        .filter_map(|name| Some((name, name.entry().method_table?.progress()?)))
        .collect()
}

/// The work a server does at its start, so that no first move waits:
/// each machine's own table (the minor-piece methods' forcing tables,
/// seconds each) and the table of each machine's material, which perfect
/// play and the audit read, in catalog order, each once.
pub fn warm_up(tables: &Arc<Tablebase>) -> Vec<Work> {
    let mut work = Vec::new();
    for name in StrategyName::all() {
        if name.entry().method_table.is_some() {
            work.push(Work::MethodTable(name));
        }
        let pieces: String = name
            .build(tables)
            .white_pieces()
            .iter()
            .map(|role| role.upper_char())
            .collect();
        let material: Material = format!("K{pieces}vK")
            .parse()
            .expect("a king and pieces against a king is a material");
        if !work.contains(&Work::Table(material.clone())) {
            work.push(Work::Table(material));
        }
    }
    work
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::atomic::AtomicBool;

    use super::*;

    /// Every machine's account is its own, and its picture shows a start
    /// the machine uses: its own white men, or its demonstration game.
    #[test]
    fn every_about_is_its_own_and_shows_a_start_it_uses() {
        let tables = Arc::new(Tablebase::in_memory());
        let views = StrategyView::all(&tables);
        let texts: HashSet<_> = views.iter().map(|view| view.about.text).collect();
        assert_eq!(texts.len(), views.len(), "two machines share an About text");
        for view in &views {
            let demo_board = view.demo_fen.split(' ').next().unwrap();
            assert!(
                view.about.board == view.white_men || view.about.board == demo_board,
                "{}: the picture {} is neither its men {} nor its demo {}",
                view.name,
                view.about.board,
                view.white_men,
                demo_board
            );
            if view.about.board == view.white_men && view.name != "mk61-queen" {
                assert!(!view.about.start_squares.is_empty(), "{}", view.name);
            }
            assert_eq!(view.calculator.is_some(), view.panel == Panel::Display);
        }
        let turning = views
            .iter()
            .find(|view| view.name == "mk61-rook-native-turning")
            .unwrap();
        assert_eq!(turning.about.board, turning.white_men);
        let torres = &views[0];
        assert_eq!(torres.start_squares.len(), 42);
        assert_eq!(torres.panel_lamps.len(), 8);
        assert!(views[1..].iter().all(|view| view.panel_lamps.is_empty()));
        assert!(torres.about.start_squares.contains(&"d6".to_string()));
        assert!(!torres.about.start_squares.contains(&"a7".to_string()));
    }

    /// The teacher's position (king e1, rook h1 against king e8): the
    /// 1912 machine refuses it, saying why; the rook programs (their start
    /// test passes), the textbook method and perfect play take it; the
    /// queen machines do not.
    #[test]
    fn start_answers_say_who_takes_a_position_and_why_not() {
        let tables = Arc::new(Tablebase::in_memory());
        let position = crate::test_support::position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        let answers = start_answers(&position, &tables, BuildPolicy::Interactive);
        assert_eq!(answers.len(), StrategyName::all().len());
        let accepting: Vec<&str> = answers
            .iter()
            .filter(|answer| answer.accepts)
            .map(|answer| answer.name.as_str())
            .collect();
        assert_eq!(
            accepting,
            [
                "mk61-rook",
                "mk61-rook-native",
                "mk61-rook-native-turning",
                "rook-box",
                "perfect"
            ]
        );
        for answer in &answers {
            assert_eq!(answer.why_not.is_none(), answer.accepts, "{}", answer.name);
        }
        let torres = answers[0].why_not.as_deref().unwrap();
        assert!(torres.contains("separate the kings"), "{torres}");
        let mate = crate::test_support::position("R3k3/8/4K3/8/8/8/8/8 b - - 0 1");
        assert!(
            start_answers(&mate, &tables, BuildPolicy::Interactive)
                .iter()
                .all(|answer| !answer.accepts)
        );
    }

    /// Five men, whose table a game over the web would not build: no
    /// machine is offered (perfect play would refuse it on Start), each
    /// saying why; a patient front end builds it, and perfect play takes it.
    #[test]
    fn a_position_whose_table_is_not_built_here_is_taken_by_no_machine() {
        let tables = Arc::new(Tablebase::in_memory());
        let five = crate::test_support::position("8/8/8/4k3/8/2R5/1P6/1K2r3 w - - 0 1");
        for answer in start_answers(&five, &tables, BuildPolicy::Interactive) {
            let why = answer.why_not.unwrap_or_default();
            assert!(
                !answer.accepts && why.contains("KRPvKR"),
                "{}: {why}",
                answer.name
            );
        }
        let patient = start_answers(&five, &tables, BuildPolicy::Patient);
        assert!(patient.iter().any(|answer| answer.accepts));
    }

    /// A server's first work builds each minor-piece method's own table
    /// and each machine's material once; done, nothing waits.
    #[test]
    fn the_work_at_a_servers_start() {
        let tables = Arc::new(Tablebase::in_memory());
        let work = warm_up(&tables);
        let names: Vec<String> = work.iter().map(ToString::to_string).collect();
        for expected in [
            "bishops's own table",
            "bishop-knight's own table",
            "table KRvK",
            "table KQvK",
            "table KBBvK",
            "table KBNvK",
        ] {
            assert_eq!(
                names.iter().filter(|n| *n == expected).count(),
                1,
                "{names:?}"
            );
        }
        for item in &work {
            item.run(&tables, &AtomicBool::new(false)).unwrap();
            assert!(item.is_done(&tables), "{item}");
        }
    }
}
