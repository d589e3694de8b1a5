//! The catalog: every automaton, once. An entry gives its name, label,
//! source, demonstration start, the white men a person places the black
//! king against, and a constructor; the command line, the UCI engine, the
//! web and the audit list and build automata only from here. Adding an
//! automaton is its module, one entry here, and one line in the
//! `machines!` list of automaton.rs (a strategy type not listed there does
//! not build: `Automaton::new` takes a `Machine`).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use ajedrecista_tables::Tablebase;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::automaton::Automaton;
use crate::bishop_knight::BishopKnight;
use crate::bishops::Bishops;
use crate::calculator_game::ChessProgram;
use crate::emulated::{Mk61Queen, Mk61RookEmulated};
use crate::mk61_rook::{Mk61Rook, OnSignal};
use crate::perfect::Perfect;
use crate::queen_box::QueenBox;
use crate::rook_box::RookBox;
use crate::torres::Torres;
use crate::triangle_forcing::MethodTable;

/// One automaton of the catalog.
pub struct CatalogEntry {
    /// The name on the command line, in UCI and in the web's URLs.
    pub name: &'static str,
    /// What people see.
    pub label: &'static str,
    /// Where its rules come from.
    pub source: &'static str,
    /// A start for a demonstration game: the source's own where there is
    /// one.
    pub demo_fen: &'static str,
    /// The white men (board part of a FEN) a person places the black king
    /// against in a game from the machine's own start.
    pub white_men: &'static str,
    /// Why the web does not run its audit on request, if it does not.
    pub audit_too_slow: Option<&'static str>,
    /// The automaton whose audit gives the same answer, where the web does
    /// not run this one's.
    pub audit_stand_in: Option<&'static str>,
    /// Whether its moves are the tables' own (perfect play): its games are
    /// held to their distance to mate, and UCI reports that distance.
    pub plays_from_tables: bool,
    /// What the play view shows of its replies besides the board.
    pub panel: Panel,
    /// The calculator program it runs, for the MK-61 machines.
    pub calculator: Option<ChessProgram>,
    /// A table of its own, calculated before its first move can be given.
    pub method_table: Option<MethodTable>,
    /// What a visitor reads about it.
    pub about: About,
    /// A note the web's audit view adds under its audit.
    pub audit_note: Option<&'static str>,
    /// Which whole positions it accepts as a start, and why, in a sentence
    /// shown before play (its precondition, [`crate::strategy::Strategy`]).
    pub start_rule: &'static str,
    /// What "the machine's own starts" of its audit are, in words: its
    /// historic starts, or every start it accepts where it has none.
    pub own_starts: &'static str,
    /// Whether those are fewer than every start it accepts (else its
    /// audit over its own starts is the one over every start it accepts).
    pub has_own_starts: bool,
    /// Its rules' short reasons that need a word more, with that word:
    /// `("rule 4: tempo", "a waiting move ...")`.
    pub reason_notes: &'static [(&'static str, &'static str)],
    /// The automaton (`tables` serve perfect play).
    pub build: fn(StrategyName, &Arc<Tablebase>) -> Automaton,
}

/// What the play view shows of a machine's reply besides the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Panel {
    /// The 1912 machine's eight lamps (`torres::lamps`).
    Lamps,
    /// The MK-61's indicator.
    Display,
    /// The board alone.
    Board,
}

/// A short account of a machine for a visitor: sentences, a picture with
/// its caption, and what its lamps or display meant. Each machine has its
/// own; the picture shows a start the machine uses (its own white men, or
/// its demonstration game).
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct About {
    pub text: [&'static str; 3],
    pub caption: &'static str,
    /// The picture's board (a FEN's board part).
    pub board: &'static str,
    /// Whether the picture marks the squares the black king may be placed
    /// on against these men.
    pub marks_starts: bool,
    pub lamps: &'static [&'static str],
}

/// The rook program's account, shared by its three forms up to the last
/// sentence.
const ROOK_TEXT_1: &str = "A program for the Soviet MK-61 programmable calculator, printed in 1987, in which king and rook mate a lone king, with squares written as two digits (11 = a1, 88 = h8).";
const ROOK_TEXT_2: &str = "You key in the black king's square; the calculator shows the white reply. Its start test refuses some positions, and in play a good defence can still make it show 9------0. (a position it will not play).";
const ROOK_DISPLAY: &str = "The display shows the move: 4.2 moves the king to d2, 25. the rook to b5, 1. 25 the rook to b5 with check.";
const ROOK_SIGNAL: &str = "9------0. means a position the program will not play: the player was told to turn the board a quarter and key the men in again.";
const TRACE_CAPTION: &str = "The start of the calculator traces this project checks against: white king e1, rook a2, black king e5.";
const TORRES_CAPTION: &str =
    "Its own start: white king a8, rook b7; the black king is placed on a marked square.";
const ILLEGAL_LAMP: &str = "It has no lamps of its own; the illegal-move lamp and the limit of three are kept so that every opponent plays by the same rules.";

/// The rook program's account, its last sentence that of the form.
const fn rook_text(last: &'static str) -> [&'static str; 3] {
    [ROOK_TEXT_1, ROOK_TEXT_2, last]
}

/// The rook program's start test, as the seed states it.
const ROOK_START_RULE: &str = "King and rook against king, where the program's start test passes: the white king two ranks or more below the black king, and the rook off the black king's file and the files next to it unless the white men share a file. Other positions it answers with 9------0. (turn the board).";
const NO_NOTES: &[(&str, &str)] = &[];

/// Seed 004's game.
const SEED_004: &str = "8/8/1k6/8/R7/8/5K2/8 w - - 0 1";
/// The rook program's reference trace (white king e1, rook a2, black king
/// e5).
const ROOK_TRACE: &str = "8/8/8/4k3/8/8/R7/4K3 w - - 0 1";
/// El Ajedrecista's men: king a8, rook b7.
const TORRES_MEN: &str = "K7/1R6/8/8/8/8/8/8";
const ROOK_TRACE_MEN: &str = "8/8/8/8/8/8/R7/4K3";
/// The reference trace's board.
const ROOK_TRACE_BOARD: &str = "8/8/8/4k3/8/8/R7/4K3";

/// A start the bishops' method mates from whatever Black does (in 12
/// moves).
const BISHOPS_DEMO: &str = "1k6/8/1B6/8/8/8/8/KB6 w - - 0 1";
const BISHOPS_MEN: &str = "8/8/8/8/8/8/8/2B1KB2";
const BISHOPS_RESULT: &str = "Written with the manuals' phases, edge, corner, mate, as triangles around any corner shrunk by calculation (whatever Black does, the fewest moves that hold the king in a smaller triangle without letting him out of his own, the drive to the edge calculated alike), it mates from every start White can win, 312 951 of 313 016 (counted up to symmetry), in at most 24 moves; from the other 65, where no play wins, a bishop is lost.";
/// A start Delétang's method mates from whatever Black does (in 9
/// moves).
const BISHOP_KNIGHT_DEMO: &str = "8/8/k7/3N4/K7/8/8/1B6 w - - 0 1";
const BISHOP_KNIGHT_MEN: &str = "8/8/8/8/8/8/8/1N2KB2";
const BISHOP_KNIGHT_RESULT: &str = "Written with Delétang's triangles shrunk by calculation (whatever Black does, the fewest moves that hold the king in a smaller triangle without letting him out of his own, the drive into the first triangle calculated alike), it mates from every start White can win, 1 352 913 of 1 359 578 (counted up to symmetry), in at most 48 moves; from the other 6 665, where no play wins, a man is lost or the rules go round.";
/// Why the web does not run the four-men audits on request.
const FOUR_MEN_AUDIT: &str = "a four-men audit takes about half a minute and up to 900 MB \
     (ajedrecista audit bishops, ajedrecista audit bishop-knight): its figures are in \
     docs/guide/src/results/audits.md and the claims";
/// The four-men methods' audits count one start per class of turned and
/// reflected boards.
const SYMMETRY_NOTE: &str = "Its rules treat a turned or reflected board alike, so the audit plays one start of each class of such images and counts starts by class (the positions they stand for are given beside).";

/// A textbook method as written in the guide (docs/guide/src/reference/automata.md): what differs from
/// one method to the next. A method is no historic machine: it shows the
/// board alone, has no lamps of its own, no starts of its own and no rule
/// that needs a note, and its picture is the white men a person plays
/// against.
struct Method {
    name: &'static str,
    label: &'static str,
    source: &'static str,
    demo_fen: &'static str,
    white_men: &'static str,
    audit_too_slow: Option<&'static str>,
    audit_note: Option<&'static str>,
    text: [&'static str; 3],
    caption: &'static str,
    start_rule: &'static str,
    method_table: Option<MethodTable>,
    build: fn(StrategyName, &Arc<Tablebase>) -> Automaton,
}

/// The catalog entry of a textbook method.
const fn method(method: Method) -> CatalogEntry {
    CatalogEntry {
        name: method.name,
        label: method.label,
        source: method.source,
        demo_fen: method.demo_fen,
        white_men: method.white_men,
        audit_too_slow: method.audit_too_slow,
        audit_stand_in: None,
        plays_from_tables: false,
        panel: Panel::Board,
        calculator: None,
        method_table: method.method_table,
        about: About {
            text: method.text,
            caption: method.caption,
            board: method.white_men,
            marks_starts: true,
            lamps: &[ILLEGAL_LAMP],
        },
        audit_note: method.audit_note,
        start_rule: method.start_rule,
        own_starts: "every start (a method has none of its own)",
        has_own_starts: false,
        reason_notes: NO_NOTES,
        build: method.build,
    }
}

/// The MK-61 rook program's listing on the emulator, from the reference
/// trace's start; the native programs' entries are made from it (the
/// display, the calculator program, the About text's first sentences).
const MK61_ROOK: CatalogEntry = CatalogEntry {
    name: "mk61-rook",
    label: "MK-61 rook program (1987), on the emulator",
    source: "seed 001",
    demo_fen: ROOK_TRACE,
    white_men: ROOK_TRACE_MEN,
    // Each answer is a calculator run and the state graph is large.
    audit_too_slow: Some(
        "its audit takes half a minute or more of the server's time (every answer is a run of the \
         emulated calculator), too long for a page; the native program gives the same answer \
         at every start (docs/guide/src/results/audits.md), and the command line runs this one",
    ),
    audit_stand_in: Some("mk61-rook-native"),
    plays_from_tables: false,
    panel: Panel::Display,
    calculator: Some(ChessProgram::Rook),
    method_table: None,
    about: About {
        text: rook_text(
            "Here the original listing runs on an emulator of the calculator's chips; on 9------0. the game stops.",
        ),
        caption: TRACE_CAPTION,
        board: ROOK_TRACE_BOARD,
        marks_starts: false,
        lamps: &[ROOK_DISPLAY, ROOK_SIGNAL],
    },
    audit_note: None,
    start_rule: ROOK_START_RULE,
    own_starts: "every start its start test passes (it has none of its own)",
    has_own_starts: false,
    reason_notes: NO_NOTES,
    build: |name, _| Automaton::new(name, Mk61RookEmulated::default()),
};

/// The rook program written natively, as the emulator runs the listing;
/// the turning variant's entry is made from it.
const MK61_ROOK_NATIVE: CatalogEntry = CatalogEntry {
    name: "mk61-rook-native",
    label: "MK-61 rook program, native",
    source: "seed 001, as the emulator runs the listing",
    audit_too_slow: None,
    audit_stand_in: None,
    about: About {
        text: rook_text(
            "This is the same program written natively, as the emulator runs the listing (it answers as the emulated one at every start); on 9------0. the game stops.",
        ),
        ..MK61_ROOK.about
    },
    build: |name, _| Automaton::new(name, Mk61Rook::default()),
    ..MK61_ROOK
};

/// Every automaton; the first is the default opponent.
pub const CATALOG: &[CatalogEntry] = &[
    CatalogEntry {
        name: "torres",
        label: "El Ajedrecista (Torres y Quevedo, 1912)",
        source: "specs/torres.md; seed 004",
        demo_fen: SEED_004,
        white_men: TORRES_MEN,
        audit_too_slow: None,
        audit_stand_in: None,
        plays_from_tables: false,
        panel: Panel::Lamps,
        calculator: None,
        method_table: None,
        about: About {
            text: [
                "Leonardo Torres y Quevedo, a Spanish engineer, built El Ajedrecista in 1912: the first machine that played chess by itself, and so the first computer game.",
                "It plays the white king and rook against a person's lone black king and follows a fixed list of six rules, numbered here as in the sources (\"rule 4: tempo\" is a waiting move of the rook).",
                "From its own starts it always mates, but slowly: against the best defence it needs up to 66 moves (from the black king on d6), where perfect play needs 15.",
            ],
            caption: TORRES_CAPTION,
            board: TORRES_MEN,
            marks_starts: true,
            lamps: &[
                "Eight lamps showed the machine's reply: rook to the a- or h-file, rook one square down, left or right, king one square down, left or right.",
                "One more lamp lit when the person made an illegal move; as in 1912, the machine stops after three illegal moves.",
            ],
        },
        audit_note: None,
        start_rule: "King and rook against king as the 1912 machine was wired: the rook on the a, b, g or h-file, and its rank between the two kings. Its own start has the white king a8 and the rook b7, the black king on ranks 1 to 6.",
        own_starts: "its own starts: king a8, rook b7, the black king on ranks 1 to 6",
        has_own_starts: true,
        reason_notes: &[(
            "rule 4: tempo",
            "a waiting move: the rook steps one file along its rank, and the black king must move",
        )],
        build: |name, _| Automaton::new(name, Torres),
    },
    CatalogEntry {
        name: "mk61-queen",
        label: "MK-61 queen program (1987), on the emulator",
        source: "seed 000",
        // Seed 000's example: the black king set on a8.
        demo_fen: "k7/6Q1/8/8/8/2K5/8/8 w - - 0 1",
        white_men: "8/6Q1/8/8/8/2K5/8/8",
        audit_too_slow: None,
        audit_stand_in: None,
        plays_from_tables: false,
        panel: Panel::Display,
        calculator: Some(ChessProgram::Queen),
        method_table: None,
        about: About {
            text: [
                "In 1987 the magazine Tekhnika Molodezhi printed a program for the Soviet programmable calculators MK-61 and MK-52 in which a queen mates a lone king.",
                "The white king never leaves c3: Brudno and Landau had shown by computer that from there the queen mates within 23 moves from any start.",
                "You key in the black king's square; the calculator answers with the queen's square. Here the original program runs on an emulator of the calculator's chips.",
            ],
            caption: "The start: white king c3 (it never moves), queen g7; the black king is placed on any free square.",
            board: "8/6Q1/8/8/8/2K5/8/8",
            marks_starts: false,
            lamps: &[
                "The display shows the queen's square as two digits, file then rank: 27. is b7.",
                "ЕГГОГ (error) means the queen is about to mate on the edge, or announces a check along the first rank or file: the player presses С/П and the next display gives the move. ЗГГОГ (shown 3.ГГ0Г) announces mate in two; the player answers Cx 2 В/О С/П.",
            ],
        },
        audit_note: Some(
            "The queen program's white men never change (king c3, queen g7), so every start is a placement of the black king: its own starts and every legal start are the same: 35 with White to move, 54 with Black to move (the black king may then stand in the queen's check).",
        ),
        start_rule: "Its printed start only: white king c3 (it never moves), queen g7, and the black king on any free square the queen does not attack.",
        own_starts: "its printed start (king c3, queen g7), the only one it accepts",
        has_own_starts: false,
        reason_notes: NO_NOTES,
        build: |name, _| Automaton::new(name, Mk61Queen),
    },
    MK61_ROOK,
    MK61_ROOK_NATIVE,
    CatalogEntry {
        name: "mk61-rook-native-turning",
        label: "MK-61 rook, native, turning the board when asked",
        source: "seed 001, the player turning the board on 9------0.",
        white_men: TORRES_MEN,
        about: About {
            text: rook_text(
                "This is the program written natively, with the player doing what 9------0. asks: the board is turned a quarter and the men keyed in again, which rescues every game from the White-to-move starts some orientation of the board accepts.",
            ),
            caption: "Its start in a game here: white king a8, rook b7; the black king is placed on a marked square, and the board is turned whenever the program asks.",
            board: TORRES_MEN,
            marks_starts: true,
            ..MK61_ROOK_NATIVE.about
        },
        start_rule: "King and rook against king, where the program's start test passes with the board turned some quarter: the player turns the board whenever the program shows 9------0.",
        own_starts: "every start its start test passes in some turn of the board (it has none of its own)",
        build: |name, _| {
            Automaton::new(
                name,
                Mk61Rook {
                    on_signal: OnSignal::TurnTheBoard,
                },
            )
        },
        ..MK61_ROOK_NATIVE
    },
    method(Method {
        name: "rook-box",
        label: "The textbook box method (KRK)",
        source: "the textbook rook mate, as written in the guide (docs/guide/src/reference/automata.md)",
        demo_fen: SEED_004,
        white_men: TORRES_MEN,
        audit_too_slow: None,
        audit_note: None,
        text: [
            "Not a historic machine: the box method of chess textbooks for king and rook against king, written as a teacher states it.",
            "First the rook cuts the black king off (guarding or withdrawing itself when attacked); then it shuts the king in a box and makes the box smaller whenever it safely can, the white king comes up to support the rook, and the rook mates on the edge.",
            "It mates from every White-to-move start, in at most 35 moves, where perfect play needs at most 16.",
        ],
        caption: "Its start in a game here: white king a8, rook b7; the black king is placed on a marked square.",
        start_rule: "Any position of king and rook against king, either side to move: the textbook method first cuts the black king off, then shuts it in a box.",
        method_table: None,
        build: |name, _| Automaton::new(name, RookBox),
    }),
    method(Method {
        name: "queen-box",
        label: "The textbook queen mate (KQK)",
        source: "the textbook queen mate, as written in the guide (docs/guide/src/reference/automata.md)",
        demo_fen: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        white_men: "8/8/8/8/8/8/8/3QK3",
        audit_too_slow: None,
        audit_note: None,
        text: [
            "Not a historic machine: the first mate chess teachers teach, king and queen against king, written as nine rules.",
            "The queen keeps a knight's move from the black king and shrinks its box, never leaving it without a move; once the king is on the edge, the white king comes up and the queen mates.",
            "It mates from every White-to-move start, in at most 19 moves, where perfect play needs at most 10.",
        ],
        caption: "Its start in a game here: white king e1, queen d1; the black king is placed on a marked square.",
        start_rule: "Any position of king and queen against king, either side to move.",
        method_table: None,
        build: |name, _| Automaton::new(name, QueenBox),
    }),
    method(Method {
        name: "bishops",
        label: "The two bishops' mate (KBBK)",
        source: "the textbook two bishops' mate, as written in the guide (docs/guide/src/reference/automata.md)",
        demo_fen: BISHOPS_DEMO,
        white_men: BISHOPS_MEN,
        audit_too_slow: Some(FOUR_MEN_AUDIT),
        audit_note: Some(SYMMETRY_NOTE),
        text: [
            "Not a historic machine: the two bishops' mate of chess manuals, king and two bishops against king, written as seven rules: triangles shrunk by calculation, a measure of progress and a calculated mate.",
            "The bishops stand side by side, their diagonals a wall the king cannot cross; the wall moves up, the white king comes to help, and the king is driven to the edge and into a corner, any corner, where the bishops mate. The manuals give the phases; the method calculates them.",
            BISHOPS_RESULT,
        ],
        caption: "Its start in a game here: white king e1, bishops c1 and f1; the black king is placed on a marked square.",
        start_rule: "Any position of king and two bishops (one on each colour) against king, White to move.",
        method_table: Some(MethodTable::of(&crate::bishops::TRIANGLES)),
        build: |name, _| Automaton::new(name, Bishops),
    }),
    method(Method {
        name: "bishop-knight",
        label: "Bishop and knight, Delétang's method (KBNK)",
        source: "Delétang's method (1923), as written in the guide (docs/guide/src/reference/automata.md)",
        demo_fen: BISHOP_KNIGHT_DEMO,
        white_men: BISHOP_KNIGHT_MEN,
        audit_too_slow: Some(FOUR_MEN_AUDIT),
        audit_note: Some(SYMMETRY_NOTE),
        text: [
            "Not a historic machine: the hardest of the elementary mates, king, bishop and knight against king, by the method Delétang published in 1923.",
            "The king is driven to the edge and held behind the long diagonal of the bishop's colour, in the triangle of a corner of that colour, the only corners where mate can be forced; the triangle shrinks behind the shorter diagonals, the knight's W manoeuvre keeping him from running to the other corner, and he is mated in the corner. The manuals show the route; the method calculates it.",
            BISHOP_KNIGHT_RESULT,
        ],
        caption: "Its start in a game here: white king e1, knight b1, bishop f1; the black king is placed on a marked square.",
        start_rule: "Any position of king, bishop and knight against king, White to move.",
        method_table: Some(MethodTable::of(&crate::bishop_knight::TRIANGLES)),
        build: |name, _| Automaton::new(name, BishopKnight),
    }),
    CatalogEntry {
        name: "perfect",
        label: "Perfect play (the tables)",
        source: "the tables (ranking method)",
        demo_fen: SEED_004,
        white_men: TORRES_MEN,
        audit_too_slow: None,
        audit_stand_in: None,
        plays_from_tables: true,
        panel: Panel::Board,
        calculator: None,
        method_table: None,
        about: About {
            text: [
                "Not a historic machine: the shortest mate, read from distance-to-mate tables that this project computes by retrograde analysis, the ranking method of Brudno and Landau.",
                "It shows what the machines could have done: \"Perfect play mates in 15\" means that White, playing best, mates in 15 moves whatever Black does.",
                "Against it the person plays the longest defence they can find; the Tablebase view shows the value of every move.",
            ],
            caption: "The start of the game printed with El Ajedrecista's description: white king f2, rook a4, black king b6.",
            board: "8/8/1k6/8/R7/8/5K2/8",
            marks_starts: false,
            lamps: &[ILLEGAL_LAMP],
        },
        audit_note: None,
        start_rule: "Any legal position of three to five men, kings included, with pawns or without: the tables are built for it (up to four men here at once; five if solved beforehand with ajedrecista solve).",
        own_starts: "every start (perfect play has none of its own)",
        has_own_starts: false,
        reason_notes: NO_NOTES,
        build: |name, tables| Automaton::new(name, Perfect::new(Arc::clone(tables))),
    },
];

/// An automaton of the catalog, by its place there.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StrategyName(usize);

impl StrategyName {
    /// El Ajedrecista, the default opponent.
    pub const TORRES: StrategyName = StrategyName::lookup("torres");
    /// Shortest mate by the tables.
    pub const PERFECT: StrategyName = StrategyName::lookup("perfect");

    /// The entry named `name`, found at compile time.
    const fn lookup(name: &str) -> StrategyName {
        let mut i = 0;
        while i < CATALOG.len() {
            if same_text(CATALOG[i].name, name) {
                return StrategyName(i);
            }
            i += 1;
        }
        panic!("no such automaton in the catalog")
    }

    /// Every automaton, in catalog order.
    pub const ALL: [StrategyName; CATALOG.len()] = {
        let mut all = [StrategyName(0); CATALOG.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = StrategyName(i);
            i += 1;
        }
        all
    };

    /// Every automaton, in catalog order.
    pub fn all() -> impl ExactSizeIterator<Item = StrategyName> {
        StrategyName::ALL.into_iter()
    }

    /// The automaton named `name`, if there is one.
    pub fn named(name: &str) -> Option<StrategyName> {
        Self::all().find(|known| known.as_str() == name)
    }

    /// Its entry in the catalog.
    pub fn entry(self) -> &'static CatalogEntry {
        &CATALOG[self.0]
    }

    pub fn as_str(self) -> &'static str {
        self.entry().name
    }

    pub fn label(self) -> &'static str {
        self.entry().label
    }

    /// A start position for a demonstration game.
    pub fn demo_fen(self) -> &'static str {
        self.entry().demo_fen
    }

    /// [`StrategyName::demo_fen`] as a position (castling read as FEN
    /// has it; the catalog's have none).
    pub fn demo_position(self) -> Chess {
        let fen: Fen = self.demo_fen().parse().expect("the catalog's FEN reads");
        fen.into_position(CastlingMode::Standard)
            .expect("the catalog's FEN is legal")
    }

    /// The automaton (`tables` serve perfect play).
    pub fn build(self, tables: &Arc<Tablebase>) -> Automaton {
        (self.entry().build)(self, tables)
    }
}

const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl fmt::Display for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for StrategyName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Read by name, as [`FromStr`] reads it (the web's requests, the claims
/// data).
impl<'de> serde::Deserialize<'de> for StrategyName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A name that is no automaton.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy {name:?} (known: {})", known_names())]
pub struct UnknownStrategy {
    pub name: String,
}

fn known_names() -> String {
    StrategyName::all()
        .map(StrategyName::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for StrategyName {
    type Err = UnknownStrategy;

    fn from_str(name: &str) -> Result<StrategyName, UnknownStrategy> {
        StrategyName::named(name).ok_or_else(|| UnknownStrategy {
            name: name.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::Strategy;
    use shakmaty::Position;

    #[test]
    fn every_entry_builds_its_own_automaton_and_demo() {
        let tables = Arc::new(Tablebase::in_memory());
        let mut names = std::collections::HashSet::new();
        for name in StrategyName::all() {
            assert!(names.insert(name.as_str()), "{name} twice");
            assert_eq!(name.as_str().parse::<StrategyName>(), Ok(name));
            let automaton = name.build(&tables);
            assert_eq!(automaton.name(), name.as_str());
            assert_eq!(automaton.catalog_name(), name);
            let demo = name.demo_position();
            assert_eq!(automaton.precondition(demo.board()), Ok(()), "{name}");
            let men: shakmaty::Board = name.entry().white_men.parse().unwrap();
            assert_eq!(men.by_color(shakmaty::Color::Black).count(), 0, "{name}");
        }
        // "Its own starts" are fewer than the starts it accepts exactly
        // where the catalog says so (seen on its demonstration start and
        // every placement against its men).
        for name in StrategyName::all() {
            let automaton = name.build(&tables);
            let men: shakmaty::Board = name.entry().white_men.parse().unwrap();
            let demo: shakmaty::Board = name.demo_fen().split(' ').next().unwrap().parse().unwrap();
            let placements = shakmaty::Square::ALL.into_iter().map(|square| {
                let mut board = men.clone();
                board.set_piece_at(square, shakmaty::Color::Black.king());
                board
            });
            let differs = std::iter::once(demo).chain(placements).any(|board| {
                automaton.is_machine_start(&board) != automaton.precondition(&board).is_ok()
            });
            assert_eq!(differs, name.entry().has_own_starts, "{name}");
        }
        for name in StrategyName::all() {
            if let Some(stand_in) = name.entry().audit_stand_in {
                let stand_in: StrategyName = stand_in.parse().unwrap();
                assert!(stand_in.entry().audit_too_slow.is_none(), "{name}");
            }
            // A stand-in is offered only where the audit is refused (the
            // teachers' four-man methods have none).
            assert!(
                name.entry().audit_stand_in.is_none() || name.entry().audit_too_slow.is_some(),
                "{name}"
            );
        }
        assert_eq!(StrategyName::TORRES.as_str(), "torres");
        assert_eq!(StrategyName::PERFECT.as_str(), "perfect");
        let err = "mk61-rook-turning".parse::<StrategyName>().unwrap_err();
        assert!(
            err.to_string().contains("known: torres, mk61-queen"),
            "{err}"
        );
    }
}
