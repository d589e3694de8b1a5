//! A game of a person, who moves the black king, against an automaton from
//! the catalog: the moves as typed, the lamp for an illegal one, the
//! machine's replies, undo, the end and the record.
//!
//! Front ends (the terminal, UCI, the web) hold a [`Session`] and show what
//! it returns; nothing here prints. The automaton is named by
//! [`StrategyName`] and looked up for every reply, so the session owns no
//! borrowed strategy and every automaton of the catalog plays the same way.

use std::fmt;
use std::sync::Arc;

use ajedrecista_tables::{Moves, Tablebase, Variant};
use shakmaty::san::SanPlus;
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square};

use crate::automaton::{Automaton, Memory};
use crate::catalog::StrategyName;
use crate::game::{Game, GameEnd};
use crate::mk61_rook::numeric_square;
pub use crate::move_input::{Entry, IllegalMove, NotKingMove, parse_entry};
use crate::move_input::{black_man_move, king_move};
use crate::strategy::{Refusal, Strategy};

/// How many illegal moves stop El Ajedrecista, by default.
pub const DEFAULT_ILLEGAL_LIMIT: u32 = 3;

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
    /// The automaton's own start: the catalog's white men for it; the
    /// person places the black king.
    pub fn machine_start(strategy: StrategyName) -> Opening {
        Opening::PlaceBlackKing(
            strategy
                .entry()
                .white_men
                .parse()
                .expect("the catalog's white men"),
        )
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
    /// Text that is no move of the black king at all (a typo, `zz9`,
    /// `Ke9`): a hint, and the lamp stays off
    /// ([`IllegalMove::lights_the_lamp`]).
    #[error("{0}")]
    NotAMove(IllegalMove),
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

/// A position of the game with what the automaton remembers there: the
/// start, then one after each move of the person (and the reply to it).
struct State {
    position: Chess,
    memory: Memory,
    /// Every move from the start to here.
    moves: Vec<Move>,
    /// What the person's move to here brought (the placement's too).
    last: Option<Turn>,
    end: Option<GameEnd>,
}

/// A game under way: the black king is on the board.
struct Playing {
    /// The white men the black king was placed against, if the game began
    /// with the placement (undo can return to it).
    placed_against: Option<Board>,
    start: Chess,
    start_dtm: Option<Moves>,
    /// The automaton's first move when the start had White to move and no
    /// placement.
    opening_reply: Option<MachineMove>,
    /// Never empty; the first is the start (after the opening reply).
    states: Vec<State>,
}

impl Playing {
    fn now(&self) -> &State {
        self.states.last().expect("a game has its start")
    }
}

/// The person's legal input: the black king's placement or its move.
enum Step {
    Place(Chess),
    Move(Move),
}

/// Where the session stands.
enum Phase {
    /// The white men stand; the person places the black king.
    PlacingBlackKing(Board),
    Playing(Box<Playing>),
}

/// The illegal moves of a session and the limit that stops the automaton.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct IllegalCount {
    pub count: u32,
    /// 0: no limit.
    pub limit: u32,
}

/// `illegal move 2 of 3`, or `illegal move 2` without a limit.
impl fmt::Display for IllegalCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            0 => write!(f, "illegal move {}", self.count),
            limit => write!(f, "illegal move {} of {limit}", self.count),
        }
    }
}

impl IllegalCount {
    /// The limit is reached: the automaton plays no more.
    pub fn stopped(self) -> bool {
        self.limit > 0 && self.count >= self.limit
    }

    /// The rule the limit sets, in the one wording every front end shows:
    /// `as in 1912, the machine stops after three illegal moves`; `None`
    /// without a limit.
    pub fn rule(self) -> Option<String> {
        let limit = match self.limit {
            0 => return None,
            3 => "three".to_string(),
            n => n.to_string(),
        };
        Some(format!(
            "as in 1912, the machine stops after {limit} illegal moves"
        ))
    }
}

/// A person, moving the black king, against an automaton.
pub struct Session {
    tables: Arc<Tablebase>,
    automaton: Automaton,
    illegal: IllegalCount,
    phase: Phase,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("strategy", &self.strategy())
            .field("moves", &self.moves())
            .field("illegal", &self.illegal)
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
        let automaton = strategy.build(&tables);
        let phase = match opening {
            Opening::PlaceBlackKing(white_men) => {
                if start_squares(&automaton, &white_men).is_empty() {
                    return Err(SessionError::NoStartSquare(strategy));
                }
                Phase::PlacingBlackKing(white_men)
            }
            Opening::Position(position) => {
                if position.is_game_over() {
                    return Err(SessionError::Over);
                }
                automaton
                    .precondition(position.board())
                    .map_err(|refusal| SessionError::Refused { strategy, refusal })?;
                Phase::Playing(Box::new(begin(&tables, &automaton, position, None)))
            }
        };
        Ok(Session {
            tables,
            automaton,
            illegal: IllegalCount {
                count: 0,
                limit: illegal_limit,
            },
            phase,
        })
    }

    /// The person's move, as typed (see [`parse_entry`]); while the black
    /// king is to be placed, its square. An illegal move lights the lamp:
    /// the position stays, the move counts towards the limit.
    pub fn play(&mut self, text: &str) -> Result<Turn, MoveError> {
        if self.end().is_some() {
            return Err(MoveError::GameOver);
        }
        let man_move = match &self.phase {
            Phase::Playing(playing) => black_man_move(&playing.now().position, text),
            Phase::PlacingBlackKing(_) => None,
        };
        if let (Some(mv), Phase::Playing(playing)) = (man_move, &mut self.phase) {
            let next = person_move(&self.automaton, playing.now(), mv);
            let turn = next.last.clone().expect("the person's turn");
            playing.states.push(next);
            return Ok(turn);
        }
        let entry = parse_entry(text).map_err(|reason| self.lamp(reason))?;
        let step = match &self.phase {
            Phase::PlacingBlackKing(white_men) => {
                placement(&self.automaton, white_men, entry).map(Step::Place)
            }
            Phase::Playing(playing) => king_move(&playing.now().position, entry).map(Step::Move),
        };
        let step = step.map_err(|reason| self.lamp(reason))?;
        match (step, &mut self.phase) {
            (Step::Place(start), Phase::PlacingBlackKing(white_men)) => {
                let to = start.board().king_of(Color::Black).expect("placed");
                let person = PersonMove {
                    mv: None,
                    to,
                    san: to.to_string(),
                    numeric: numeric_square(to).to_string(),
                };
                let mut playing = begin(&self.tables, &self.automaton, start, Some(person));
                playing.placed_against = Some(white_men.clone());
                let turn = playing.now().last.clone().expect("the placement's turn");
                self.phase = Phase::Playing(Box::new(playing));
                Ok(turn)
            }
            (Step::Move(mv), Phase::Playing(playing)) => {
                let next = person_move(&self.automaton, playing.now(), mv);
                let turn = next.last.clone().expect("the person's turn");
                playing.states.push(next);
                Ok(turn)
            }
            _ => unreachable!("a step of the phase it was read in"),
        }
    }

    /// The lamp for a move that breaks the rules; a hint, not counted, for
    /// text that is no move.
    fn lamp(&mut self, reason: IllegalMove) -> MoveError {
        if !reason.lights_the_lamp() {
            return MoveError::NotAMove(reason);
        }
        self.illegal.count += 1;
        MoveError::Illegal {
            reason,
            count: self.illegal.count,
            stopped: self.illegal.stopped(),
        }
    }

    /// Whether [`Session::undo`] would take something back.
    pub fn can_undo(&self) -> bool {
        self.undo_refusal().is_none()
    }

    fn undo_refusal(&self) -> Option<UndoError> {
        if self.illegal.stopped() {
            return Some(UndoError::Stopped(self.illegal.count));
        }
        match &self.phase {
            Phase::PlacingBlackKing(_) => Some(UndoError::NothingToUndo),
            Phase::Playing(playing)
                if playing.states.len() == 1 && playing.placed_against.is_none() =>
            {
                Some(UndoError::NothingToUndo)
            }
            Phase::Playing(_) => None,
        }
    }

    /// Takes back the person's last move (and the automaton's reply to
    /// it); after the placement, the placement. Not an illegal move.
    pub fn undo(&mut self) -> Result<(), UndoError> {
        if let Some(refusal) = self.undo_refusal() {
            return Err(refusal);
        }
        let Phase::Playing(playing) = &mut self.phase else {
            unreachable!("undo needs a game")
        };
        if playing.states.len() > 1 {
            playing.states.pop();
        } else {
            let white_men = playing.placed_against.take().expect("placed");
            self.phase = Phase::PlacingBlackKing(white_men);
        }
        Ok(())
    }

    fn playing(&self) -> Option<&Playing> {
        match &self.phase {
            Phase::Playing(playing) => Some(playing),
            Phase::PlacingBlackKing(_) => None,
        }
    }

    /// The automaton.
    pub fn strategy(&self) -> StrategyName {
        self.automaton.catalog_name()
    }

    /// The game perfect play is taken from (the automaton's).
    pub fn variant(&self) -> Variant {
        self.automaton.variant()
    }

    /// The white men, while the black king is still to be placed.
    pub fn placing(&self) -> Option<&Board> {
        match &self.phase {
            Phase::PlacingBlackKing(white_men) => Some(white_men),
            Phase::Playing(_) => None,
        }
    }

    /// The squares the black king may be placed on (empty once placed).
    pub fn start_squares(&self) -> Vec<Square> {
        self.placing()
            .map(|board| start_squares(&self.automaton, board))
            .unwrap_or_default()
    }

    /// What a person is told before placing the black king (`None` once
    /// placed).
    pub fn placement(&self) -> Option<Placement> {
        Placement::of(self.start_squares())
    }

    /// The board now (the white men alone while placing).
    pub fn board(&self) -> Board {
        match &self.phase {
            Phase::PlacingBlackKing(white_men) => white_men.clone(),
            Phase::Playing(playing) => playing.now().position.board().clone(),
        }
    }

    /// The position now, once the black king is on the board.
    pub fn position(&self) -> Option<&Chess> {
        self.playing().map(|playing| &playing.now().position)
    }

    /// The black king's legal moves now.
    pub fn black_moves(&self) -> Vec<Move> {
        match self.playing().map(Playing::now) {
            Some(state) if self.end().is_none() => state.position.legal_moves().to_vec(),
            _ => Vec::new(),
        }
    }

    fn moves(&self) -> &[Move] {
        self.playing().map_or(&[], |playing| &playing.now().moves)
    }

    /// The last move played (for marking on a board).
    pub fn last_move(&self) -> Option<Move> {
        self.moves().last().copied()
    }

    /// What the person's last move brought (also the automaton's opening
    /// reply after the placement).
    pub fn last_turn(&self) -> Option<&Turn> {
        self.playing()
            .and_then(|playing| playing.now().last.as_ref())
    }

    /// The automaton's first move of a game begun from a position with
    /// White to move.
    pub fn opening_reply(&self) -> Option<&MachineMove> {
        self.playing()
            .and_then(|playing| playing.opening_reply.as_ref())
    }

    /// The automaton's latest move: the reply to the person's last move,
    /// or the opening reply.
    pub fn last_reply(&self) -> Option<&MachineMove> {
        match self.last_turn() {
            Some(turn) => turn.reply.as_ref(),
            None => self.opening_reply(),
        }
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<GameEnd> {
        if self.illegal.stopped() {
            return Some(GameEnd::IllegalMoves(self.illegal.count));
        }
        self.playing().and_then(|playing| playing.now().end.clone())
    }

    /// Illegal moves so far, and the limit.
    pub fn illegal(&self) -> IllegalCount {
        self.illegal
    }

    /// White's moves so far.
    pub fn white_moves(&self) -> usize {
        self.game().map_or(0, |game| game.white_moves())
    }

    /// White's moves to mate from the start with perfect play on both
    /// sides, in the automaton's game; `None` before the placement or if
    /// White has no win there.
    pub fn start_dtm(&self) -> Option<Moves> {
        self.playing().and_then(|playing| playing.start_dtm)
    }

    /// White's moves to mate from now with perfect play.
    pub fn dtm(&self) -> Option<Moves> {
        white_mate_in(&self.tables, self.position()?, self.variant())
    }

    /// The start position, once the black king is on the board.
    pub fn start(&self) -> Option<&Chess> {
        self.playing().map(|playing| &playing.start)
    }

    /// The game so far as a record: White the automaton by its display
    /// name, Black "person"; a game still going on ends `*`.
    pub fn game(&self) -> Option<Game> {
        Some(Game {
            white: self.strategy().label().to_string(),
            black: "person".to_string(),
            start: self.start()?.clone(),
            moves: self.moves().to_vec(),
            end: self.end().unwrap_or(GameEnd::InProgress),
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

/// The game from `start`; with White to move, the automaton's first move
/// (the reply to the placement, or the opening reply).
fn begin(
    tables: &Tablebase,
    automaton: &Automaton,
    start: Chess,
    placed: Option<PersonMove>,
) -> Playing {
    let mut state = State {
        memory: automaton.start(&start),
        position: start.clone(),
        moves: Vec::new(),
        last: None,
        end: None,
    };
    let mut opening_reply = None;
    if state.position.turn() == Color::White {
        let (reply, end) = machine_reply(automaton, &mut state);
        state.end = end.clone();
        match placed {
            Some(person) => state.last = Some(Turn { person, reply, end }),
            None => opening_reply = reply,
        }
    }
    Playing {
        placed_against: None,
        start_dtm: white_mate_in(tables, &start, automaton.variant()),
        start,
        opening_reply,
        states: vec![state],
    }
}

/// Plays the automaton's move in `state` (White to move).
fn machine_reply(
    automaton: &Automaton,
    state: &mut State,
) -> (Option<MachineMove>, Option<GameEnd>) {
    let (reply, memory) = match automaton.reply(&state.position, &state.memory) {
        Ok(answer) => answer,
        Err(refusal) => return (None, Some(GameEnd::Refused(refusal))),
    };
    let san = SanPlus::from_move(state.position.clone(), reply.mv);
    state.position.play_unchecked(reply.mv);
    state.memory = memory;
    state.moves.push(reply.mv);
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

/// The state after the person's legal move `mv` in `state` and the
/// automaton's reply.
fn person_move(automaton: &Automaton, state: &State, mv: Move) -> State {
    let san = SanPlus::from_move(state.position.clone(), mv).to_string();
    let mut next = State {
        position: state.position.clone(),
        memory: state.memory.clone(),
        moves: state.moves.clone(),
        last: None,
        end: None,
    };
    next.position.play_unchecked(mv);
    next.moves.push(mv);
    let person = PersonMove {
        mv: Some(mv),
        to: mv.to(),
        san,
        numeric: numeric_move(mv),
    };
    let (reply, end) = if let Some(end) = GameEnd::after_black_move(mv, &next.position) {
        (None, Some(end))
    } else if next.position.is_game_over() {
        (None, Some(GameEnd::Stalemate))
    } else {
        machine_reply(automaton, &mut next)
    };
    next.end = end.clone();
    next.last = Some(Turn { person, reply, end });
    next
}

/// The start position with the black king on `entry.to`, or why not.
fn placement(automaton: &Automaton, white_men: &Board, entry: Entry) -> Result<Chess, IllegalMove> {
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
    if !automaton.is_machine_start(start.board()) {
        return Err(IllegalMove::NotAStart {
            square: to,
            strategy: automaton.catalog_name(),
        });
    }
    Ok(start)
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

/// The squares the black king may be placed on, in brief: how many, the
/// ranks they span and one to show as an example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub squares: usize,
    pub lowest_rank: Rank,
    pub highest_rank: Rank,
    /// d6 where it is one, else the middle one.
    pub example: Square,
}

impl Placement {
    fn of(squares: Vec<Square>) -> Option<Placement> {
        let ranks = squares.iter().map(|sq| sq.rank());
        Some(Placement {
            squares: squares.len(),
            lowest_rank: ranks.clone().min()?,
            highest_rank: ranks.max()?,
            example: if squares.contains(&Square::D6) {
                Square::D6
            } else {
                squares[squares.len() / 2]
            },
        })
    }
}

/// The squares the black king may be placed on against `white_men`: free,
/// not next to the white king, and a start of the automaton's own.
pub fn start_squares(automaton: &Automaton, white_men: &Board) -> Vec<Square> {
    Square::ALL
        .into_iter()
        .filter(|&square| {
            !white_men.occupied().contains(square)
                && white_men
                    .king_of(Color::White)
                    .is_some_and(|king| king.distance(square) > 1)
                && placed(white_men, square)
                    .is_some_and(|start| automaton.is_machine_start(start.board()))
        })
        .collect()
}

/// White's moves to mate with perfect play, if White wins.
fn white_mate_in(tables: &Tablebase, position: &Chess, variant: Variant) -> Option<Moves> {
    tables
        .probe(position, variant)
        .ok()?
        .white_mates_in(position.turn())
}
