//! A game of a person, who moves the black king, against an automaton from
//! the catalog: the moves as typed, the lamp for an illegal one, the
//! machine's replies, undo, the end and the record.
//!
//! Front ends (the terminal, UCI, the web) hold a [`Session`] and show what
//! it returns; nothing here prints. The automaton is named by
//! [`StrategyName`] and looked up for every reply, so the session owns no
//! borrowed strategy and every automaton of the catalog plays the same way.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use ajedrecista_tables::{Tablebase, Variant};
use shakmaty::san::SanPlus;
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square};

use crate::catalog::{StrategyName, StrategyVisitor};
use crate::game::{Game, GameEnd};
use crate::mk61_rook::numeric_square;
use crate::strategy::{Refusal, Strategy};

/// How many illegal moves stop El Ajedrecista, by default.
pub const DEFAULT_ILLEGAL_LIMIT: u32 = 3;

/// The white men of El Ajedrecista's start: king a8, rook b7.
pub fn torres_white_men() -> Board {
    let mut board = Board::empty();
    board.set_piece_at(Square::A8, Color::White.king());
    board.set_piece_at(Square::B7, Color::White.rook());
    board
}

/// Where a session begins.
#[derive(Debug, Clone)]
pub enum Opening {
    /// The white men stand (no black king on the board); the person first
    /// places the black king on one of the automaton's start squares, then
    /// White moves, as at the 1912 machine.
    PlaceBlackKing(Board),
    /// A whole position; if White is to move, the automaton moves first.
    Position(Chess),
}

impl Opening {
    /// The automaton's own start: El Ajedrecista's men (king a8, rook b7)
    /// if it accepts a black king somewhere with them, otherwise the white
    /// men of its demonstration game; the person places the black king.
    pub fn machine_start(strategy: StrategyName, tables: &Tablebase) -> Opening {
        let torres = torres_white_men();
        if !start_squares(strategy, tables, &torres).is_empty() {
            return Opening::PlaceBlackKing(torres);
        }
        let demo: shakmaty::fen::Fen = strategy.demo_fen().parse().expect("catalog FEN");
        let mut board = demo.as_setup().board.clone();
        if let Some(king) = board.king_of(Color::Black) {
            board.discard_piece_at(king);
        }
        Opening::PlaceBlackKing(board)
    }
}

/// Why the person's input is not a move: the lamp's reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
    #[error("{square} is not a start square of {strategy}")]
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
        match self {
            IllegalMove::Empty => "empty",
            IllegalMove::Garbage(_) => "garbage",
            IllegalMove::OffBoard(_) => "off_board",
            IllegalMove::NotKingMove(_) => "not_king_move",
            IllegalMove::NotOneStep { .. } => "not_one_step",
            IllegalMove::NextToWhiteKing(_) => "next_to_white_king",
            IllegalMove::Attacked { .. } => "attacked",
            IllegalMove::Occupied(_) => "occupied",
            IllegalMove::NotAStart { .. } => "not_a_start",
            IllegalMove::PlacementNeedsSquare => "placement_needs_square",
        }
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
    if let Some(entry) = numeric_entry(&chars) {
        return entry.map_err(|()| IllegalMove::OffBoard(trimmed.to_string()));
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

/// `27` or `2.7`: `Some(Err)` for digits off the board (0, 9).
fn numeric_entry(chars: &[char]) -> Option<Result<Entry, ()>> {
    let digits = match chars {
        &[file, rank] | &[file, '.', rank] => (file.to_digit(10)?, rank.to_digit(10)?),
        _ => return None,
    };
    Some(match digits {
        (file @ 1..=8, rank @ 1..=8) => Ok(Entry {
            from: None,
            to: Square::from_coords(shakmaty::File::new(file - 1), Rank::new(rank - 1)),
        }),
        _ => Err(()),
    })
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

/// The seed's numeric squares for a move: `28-27` for Kb8-b7.
pub fn numeric_move(mv: Move) -> String {
    match mv.from() {
        Some(from) => format!("{}-{}", numeric_square(from), numeric_square(mv.to())),
        None => numeric_square(mv.to()).to_string(),
    }
}

/// A white move as the MK-61 rook program shows one: the king `F.R`, the
/// other man `FR.`, a check by it `1. FR`. Used for automata that have no
/// display of their own (El Ajedrecista, perfect play).
pub fn calculator_display(mv: Move, check: bool) -> String {
    let to = numeric_square(mv.to());
    match (mv.role(), check) {
        (Role::King, _) => format!("{}.{}", to / 10, to % 10),
        (_, true) => format!("1. {to}"),
        (_, false) => format!("{to}."),
    }
}

/// The automaton's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineMove {
    pub mv: Move,
    /// With `+` or `#`.
    pub san: String,
    /// The seed's numeric squares, from-to.
    pub numeric: String,
    /// Why the automaton chose it (e.g. "rule 4: tempo").
    pub reason: &'static str,
    /// The calculator's display: the automaton's own, or the rook
    /// program's convention ([`calculator_display`]).
    pub display: String,
    pub check: bool,
}

/// The person's move (or the black king's placement).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonMove {
    /// `None` for the placement.
    pub mv: Option<Move>,
    pub to: Square,
    /// SAN (`Kb7`), or the square for a placement.
    pub san: String,
    pub numeric: String,
}

/// What one move of the person brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    pub person: PersonMove,
    /// `None` when the game ended with the person's move or the automaton
    /// refused.
    pub reply: Option<MachineMove>,
    pub end: Option<GameEnd>,
}

/// A move the session did not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The lamp: the position is unchanged, the illegal move counted.
    #[error("{reason}")]
    Illegal {
        reason: IllegalMove,
        /// Illegal moves so far in this game, this one included.
        count: u32,
        /// The limit was reached: the automaton stops playing.
        stopped: bool,
    },
    #[error("the game is over")]
    GameOver,
}

/// An undo the session did not do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    #[error("no move of yours to take back")]
    NothingToUndo,
    #[error("the machine has stopped after {0} illegal moves")]
    Stopped(u32),
}

/// A session that cannot begin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("{strategy} cannot play this position: {refusal}")]
    Refused {
        strategy: StrategyName,
        refusal: Refusal,
    },
    #[error("the game is already over in this position")]
    Over,
    #[error("the black king has no start square with these white men for {0}")]
    NoStartSquare(StrategyName),
}

type Memory = Box<dyn Any + Send>;

/// The position before the person's move, with what the automaton
/// remembers.
struct State {
    position: Chess,
    memory: Memory,
    plies: usize,
    last: Option<Turn>,
    end: Option<GameEnd>,
}

/// A person, moving the black king, against an automaton.
pub struct Session {
    tables: Arc<Tablebase>,
    strategy: StrategyName,
    illegal_limit: u32,
    illegal_moves: u32,
    /// The limit of illegal moves was reached: the automaton plays no more.
    stopped: bool,
    /// The white men while the black king is to be placed, if the session
    /// began so.
    placement: Option<Board>,
    /// Empty while the black king is to be placed; the first is the start.
    states: Vec<State>,
    moves: Vec<Move>,
    start: Option<Chess>,
    opening_reply: Option<MachineMove>,
    start_dtm: Option<u16>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("strategy", &self.strategy)
            .field("moves", &self.moves)
            .field("illegal_moves", &self.illegal_moves)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A new game. `illegal_limit`: the illegal moves after which the
    /// automaton stops (0: never). With a whole position and White to
    /// move, the automaton moves at once: [`Session::opening_reply`].
    pub fn new(
        tables: Arc<Tablebase>,
        strategy: StrategyName,
        opening: Opening,
        illegal_limit: u32,
    ) -> Result<Session, SessionError> {
        let mut session = Session {
            tables,
            strategy,
            illegal_limit,
            illegal_moves: 0,
            stopped: false,
            placement: None,
            states: Vec::new(),
            moves: Vec::new(),
            start: None,
            opening_reply: None,
            start_dtm: None,
        };
        match opening {
            Opening::PlaceBlackKing(white_men) => {
                if start_squares(strategy, &session.tables, &white_men).is_empty() {
                    return Err(SessionError::NoStartSquare(strategy));
                }
                session.placement = Some(white_men);
            }
            Opening::Position(position) => {
                if position.is_game_over() {
                    return Err(SessionError::Over);
                }
                strategy
                    .visit(&session.tables, Precondition(position.board()))
                    .map_err(|refusal| SessionError::Refused { strategy, refusal })?;
                session.begin(position, None);
            }
        }
        Ok(session)
    }

    /// Starts the game proper from `start`.
    fn begin(&mut self, start: Chess, placed: Option<PersonMove>) {
        self.start_dtm = white_mate_in(&self.tables, &start, self.variant());
        self.start = Some(start.clone());
        let memory = self.strategy.visit(&self.tables, StartMemory(&start));
        let mut state = State {
            position: start,
            memory,
            plies: 0,
            last: None,
            end: None,
        };
        if state.position.turn() == Color::White {
            let (reply, end) = self.machine_reply(&mut state);
            match placed {
                Some(person) => {
                    state.last = Some(Turn {
                        person,
                        reply,
                        end: end.clone(),
                    })
                }
                None => self.opening_reply = reply,
            }
            state.end = end;
        }
        self.states.push(state);
    }

    /// Plays the automaton's move in `state` (White to move).
    fn machine_reply(&mut self, state: &mut State) -> (Option<MachineMove>, Option<GameEnd>) {
        let answer = self
            .strategy
            .visit(&self.tables, ReplyTo(&state.position, &*state.memory));
        let (reply, memory) = match answer {
            Ok(answer) => answer,
            Err(refusal) => return (None, Some(GameEnd::Refused(refusal))),
        };
        let san = SanPlus::from_move(state.position.clone(), reply.mv);
        state.position.play_unchecked(reply.mv);
        state.memory = memory;
        state.plies += 1;
        self.moves.truncate(state.plies - 1);
        self.moves.push(reply.mv);
        let check = state.position.is_check();
        let machine = MachineMove {
            mv: reply.mv,
            san: san.to_string(),
            numeric: numeric_move(reply.mv),
            reason: reply.reason,
            display: reply
                .display
                .unwrap_or_else(|| calculator_display(reply.mv, check)),
            check,
        };
        let end = if state.position.is_checkmate() {
            Some(GameEnd::Checkmate)
        } else if state.position.is_stalemate() {
            Some(GameEnd::Stalemate)
        } else {
            None
        };
        (Some(machine), end)
    }

    /// The person's move, as typed (see [`parse_entry`]); while the black
    /// king is to be placed, its square. An illegal move lights the lamp:
    /// the position stays, the move counts towards the limit.
    pub fn play(&mut self, text: &str) -> Result<Turn, MoveError> {
        if self.end().is_some() {
            return Err(MoveError::GameOver);
        }
        let result = parse_entry(text).and_then(|entry| match self.states.last() {
            None => self.placement_move(entry).map(Err),
            Some(state) => king_move(&state.position, entry).map(Ok),
        });
        match result {
            Err(reason) => Err(self.lamp(reason)),
            Ok(Err(start)) => {
                let to = start.board().king_of(Color::Black).expect("placed");
                let person = PersonMove {
                    mv: None,
                    to,
                    san: to.to_string(),
                    numeric: numeric_square(to).to_string(),
                };
                self.begin(start, Some(person));
                Ok(self
                    .last_turn()
                    .cloned()
                    .expect("White moves after the placement"))
            }
            Ok(Ok(mv)) => Ok(self.person_move(mv)),
        }
    }

    fn lamp(&mut self, reason: IllegalMove) -> MoveError {
        self.illegal_moves += 1;
        let stopped = self.illegal_limit > 0 && self.illegal_moves >= self.illegal_limit;
        self.stopped |= stopped;
        MoveError::Illegal {
            reason,
            count: self.illegal_moves,
            stopped,
        }
    }

    /// The start position with the black king on `entry.to`.
    fn placement_move(&self, entry: Entry) -> Result<Chess, IllegalMove> {
        let white_men = self.placement.as_ref().expect("placing");
        if entry.from.is_some() {
            return Err(IllegalMove::PlacementNeedsSquare);
        }
        let to = entry.to;
        if white_men.occupied().contains(to) {
            return Err(IllegalMove::Occupied(to));
        }
        let white_king = white_men.king_of(Color::White).expect("a white king");
        if white_king.distance(to) <= 1 {
            return Err(IllegalMove::NextToWhiteKing(to));
        }
        if let Some(from) = white_men
            .attacks_to(to, Color::White, white_men.occupied())
            .first()
        {
            let attacker = white_men.role_at(from).expect("a man");
            return Err(IllegalMove::Attacked {
                square: to,
                attacker,
                from,
            });
        }
        let start = placed(white_men, to).ok_or(IllegalMove::Occupied(to))?;
        if !self
            .strategy
            .visit(&self.tables, MachineStart(start.board()))
        {
            return Err(IllegalMove::NotAStart {
                square: to,
                strategy: self.strategy,
            });
        }
        Ok(start)
    }

    fn person_move(&mut self, mv: Move) -> Turn {
        let state = self.states.last().expect("playing");
        let san = SanPlus::from_move(state.position.clone(), mv).to_string();
        let mut next = State {
            position: state.position.clone(),
            memory: self
                .strategy
                .visit(&self.tables, CloneMemory(&*state.memory)),
            plies: state.plies + 1,
            last: None,
            end: None,
        };
        next.position.play_unchecked(mv);
        self.moves.truncate(state.plies);
        self.moves.push(mv);
        let person = PersonMove {
            mv: Some(mv),
            to: mv.to(),
            san,
            numeric: numeric_move(mv),
        };
        let (reply, end) = if mv.is_capture() {
            (None, Some(GameEnd::RookCaptured))
        } else if next.position.is_game_over() {
            (None, Some(GameEnd::Stalemate))
        } else {
            self.machine_reply(&mut next)
        };
        let turn = Turn { person, reply, end };
        next.end = turn.end.clone();
        next.last = Some(turn.clone());
        self.states.push(next);
        turn
    }

    /// Takes back the person's last move (and the automaton's reply to
    /// it); after the placement, the placement. Not an illegal move.
    pub fn undo(&mut self) -> Result<(), UndoError> {
        if let Some(GameEnd::IllegalMoves(count)) = self.end() {
            return Err(UndoError::Stopped(count));
        }
        let can_undo = match self.states.len() {
            0 => false,
            1 => self.placement.is_some(),
            _ => true,
        };
        if !can_undo {
            return Err(UndoError::NothingToUndo);
        }
        self.states.pop();
        let plies = self.states.last().map_or(0, |state| state.plies);
        self.moves.truncate(plies);
        if self.states.is_empty() {
            self.start_dtm = None;
            self.start = None;
        }
        Ok(())
    }

    /// The automaton.
    pub fn strategy(&self) -> StrategyName {
        self.strategy
    }

    /// The game perfect play is taken from (the automaton's).
    pub fn variant(&self) -> Variant {
        self.strategy.visit(&self.tables, VariantOf)
    }

    /// The white men, while the black king is still to be placed.
    pub fn placing(&self) -> Option<&Board> {
        self.states
            .is_empty()
            .then_some(())
            .and(self.placement.as_ref())
    }

    /// The squares the black king may be placed on (empty once placed).
    pub fn start_squares(&self) -> Vec<Square> {
        self.placing()
            .map(|board| start_squares(self.strategy, &self.tables, board))
            .unwrap_or_default()
    }

    /// The board now (the white men alone while placing).
    pub fn board(&self) -> Board {
        match self.states.last() {
            Some(state) => state.position.board().clone(),
            None => self.placement.clone().expect("placing"),
        }
    }

    /// The position now, once the black king is on the board.
    pub fn position(&self) -> Option<&Chess> {
        self.states.last().map(|state| &state.position)
    }

    /// The black king's legal moves now.
    pub fn black_moves(&self) -> Vec<Move> {
        match self.states.last() {
            Some(state) if state.end.is_none() => state.position.legal_moves().to_vec(),
            _ => Vec::new(),
        }
    }

    /// The last move played (for marking on a board).
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// What the person's last move brought (also the automaton's opening
    /// reply after the placement).
    pub fn last_turn(&self) -> Option<&Turn> {
        self.states.last().and_then(|state| state.last.as_ref())
    }

    /// The automaton's first move of a game begun from a position with
    /// White to move.
    pub fn opening_reply(&self) -> Option<&MachineMove> {
        self.opening_reply.as_ref()
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<GameEnd> {
        if self.stopped {
            return Some(GameEnd::IllegalMoves(self.illegal_moves));
        }
        self.states.last().and_then(|state| state.end.clone())
    }

    /// Illegal moves so far, and the limit (0: none).
    pub fn illegal_moves(&self) -> (u32, u32) {
        (self.illegal_moves, self.illegal_limit)
    }

    /// White's moves so far.
    pub fn white_moves(&self) -> usize {
        self.game().map_or(0, |game| game.white_moves())
    }

    /// White's moves to mate from the start with perfect play on both
    /// sides, in the automaton's game; `None` before the placement or if
    /// White has no win there.
    pub fn start_dtm(&self) -> Option<u16> {
        self.start_dtm
    }

    /// White's moves to mate from now with perfect play.
    pub fn dtm(&self) -> Option<u16> {
        let position = self.position()?;
        white_mate_in(&self.tables, position, self.variant())
    }

    /// The start position, once the black king is on the board.
    pub fn start(&self) -> Option<&Chess> {
        self.start.as_ref()
    }

    /// The game so far as a record: White the automaton, Black "person".
    pub fn game(&self) -> Option<Game> {
        Some(Game {
            white: self.strategy.to_string(),
            black: "person".to_string(),
            start: self.start.clone()?,
            moves: self.moves.clone(),
            end: self.end().unwrap_or(GameEnd::Unfinished),
        })
    }

    /// The game so far in PGN.
    pub fn pgn(&self) -> Option<String> {
        self.game().map(|game| game.to_pgn())
    }

    /// The squares of the last move, for marking.
    pub fn last_move_squares(&self) -> Bitboard {
        self.last_move().map_or(Bitboard::EMPTY, |mv| {
            mv.from().map_or(Bitboard::EMPTY, Bitboard::from_square)
                | Bitboard::from_square(mv.to())
        })
    }
}

/// The white men with a black king on `square`, White to move, if legal.
fn placed(white_men: &Board, square: Square) -> Option<Chess> {
    let mut board = white_men.clone();
    board.set_piece_at(square, Color::Black.king());
    let mut setup = shakmaty::Setup::empty();
    setup.board = board;
    setup.turn = Color::White;
    setup
        .position::<Chess>(shakmaty::CastlingMode::Standard)
        .ok()
}

/// The squares where the black king may start against these white men.
fn start_squares(strategy: StrategyName, tables: &Tablebase, white_men: &Board) -> Vec<Square> {
    Square::ALL
        .into_iter()
        .filter(|&square| {
            !white_men.occupied().contains(square)
                && white_men
                    .king_of(Color::White)
                    .is_some_and(|king| king.distance(square) > 1)
                && placed(white_men, square)
                    .is_some_and(|start| strategy.visit(tables, MachineStart(start.board())))
        })
        .collect()
}

/// The legal king move for `entry`, or why there is none.
fn king_move(position: &Chess, entry: Entry) -> Result<Move, IllegalMove> {
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

/// White's moves to mate with perfect play, if White wins.
fn white_mate_in(tables: &Tablebase, position: &Chess, variant: Variant) -> Option<u16> {
    tables
        .probe(position, variant)
        .ok()?
        .white_mates_in(position.turn())
}

struct Precondition<'a>(&'a Board);

impl StrategyVisitor for Precondition<'_> {
    type Output = Result<(), Refusal>;
    fn visit<S: Strategy>(self, strategy: &S) -> Result<(), Refusal> {
        strategy.precondition(self.0)
    }
}

struct MachineStart<'a>(&'a Board);

impl StrategyVisitor for MachineStart<'_> {
    type Output = bool;
    fn visit<S: Strategy>(self, strategy: &S) -> bool {
        strategy.is_machine_start(self.0)
    }
}

struct VariantOf;

impl StrategyVisitor for VariantOf {
    type Output = Variant;
    fn visit<S: Strategy>(self, strategy: &S) -> Variant {
        strategy.variant()
    }
}

struct StartMemory<'a>(&'a Chess);

impl StrategyVisitor for StartMemory<'_> {
    type Output = Memory;
    fn visit<S: Strategy>(self, strategy: &S) -> Memory {
        Box::new(strategy.start(self.0))
    }
}

struct CloneMemory<'a>(&'a (dyn Any + Send));

impl StrategyVisitor for CloneMemory<'_> {
    type Output = Memory;
    fn visit<S: Strategy>(self, _strategy: &S) -> Memory {
        Box::new(memory_of::<S>(self.0).clone())
    }
}

struct ReplyTo<'a>(&'a Chess, &'a (dyn Any + Send));

impl StrategyVisitor for ReplyTo<'_> {
    type Output = Result<(crate::strategy::Reply, Memory), Refusal>;
    fn visit<S: Strategy>(self, strategy: &S) -> Self::Output {
        let (reply, memory) = strategy.reply(self.0, memory_of::<S>(self.1))?;
        Ok((reply, Box::new(memory)))
    }
}

/// The memory a session keeps for `S`: always of `S`'s type, since one
/// session plays one automaton.
fn memory_of<S: Strategy>(memory: &(dyn Any + Send)) -> &S::Memory {
    memory
        .downcast_ref()
        .expect("a session's memory belongs to its strategy")
}
