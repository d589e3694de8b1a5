//! The exact audit: for every start position, how many moves the automaton
//! needs against a defender who knows it and maximises the moves to mate.
//!
//! The game graph has one node per black-to-move position together with the
//! automaton's memory (White's move is a function of both). The defender's
//! value of a node is the longest path to mate over his choices, computed by
//! a depth-first search with memoisation; a choice that leads back to a node
//! on the search stack is a cycle the defender can repeat for ever. The
//! defender prefers any failure to any mate, and among failures the one
//! listed first in [`FailureKind`]; cycles come first so that "reaches a
//! cycle" is exact (a depth-first search finds exactly the nodes from which a
//! cycle is reachable), the other kinds are then decided on the acyclic rest.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};

use ajedrecista_tables::{Moves, Variant};
use rayon::prelude::*;
use shakmaty::{Board, CastlingMode, Chess, Color, Move, Position, Role, Setup, Square};
use strum::IntoEnumIterator;

use crate::game::Game;
use crate::krk::board_key;
use crate::play::play;
use crate::strategy::{Refusal, Strategy};
use crate::symmetry::{canonical_key, canonical_position, class_size};

/// Which start positions to audit.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    serde::Deserialize,
    serde::Serialize,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum StartSet {
    /// Every legal position that meets the automaton's preconditions.
    All,
    /// The automaton's own historic start positions.
    Machine,
}

/// Who moves first in an audit's starts (read by name: `white`,
/// `black`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl StartSet {
    /// The name used in reports and JSON.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// What an audit has done so far, for a progress display.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AuditProgress {
    /// (position, memory) nodes met so far: while the answers are computed
    /// ahead (costly automata), the white-to-move nodes queued or answered;
    /// then the black-to-move nodes of the game graph.
    pub nodes: usize,
    /// Answers of the automaton computed ahead so far (costly automata).
    pub answers: usize,
    /// Starts solved so far, of `starts`.
    pub starts_done: usize,
    pub starts: usize,
}

/// How an audit reports its progress and how it can be stopped.
#[derive(Default)]
pub struct AuditOptions<'a> {
    /// Called on the audit's own thread, now and then (every few hundred
    /// answers or a thousand starts).
    pub progress: Option<&'a mut dyn FnMut(AuditProgress)>,
    /// Set by anyone (a Ctrl-C handler, a web request whose client has
    /// gone) to stop the audit: it returns [`Cancelled`] soon after, at the
    /// next start, chunk of answers or few thousand search steps.
    pub cancel: Option<&'a AtomicBool>,
}

impl AuditOptions<'_> {
    fn report(&mut self, progress: AuditProgress) -> Result<(), Cancelled> {
        if let Some(report) = self.progress.as_mut() {
            report(progress);
        }
        self.check()
    }

    /// [`Cancelled`] once the stop flag is set.
    fn check(&self) -> Result<(), Cancelled> {
        match self
            .cancel
            .is_some_and(|cancel| cancel.load(Ordering::Relaxed))
        {
            true => Err(Cancelled),
            false => Ok(()),
        }
    }
}

/// The audit was stopped through [`AuditOptions::cancel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the audit was stopped before its end")]
pub struct Cancelled;

/// Answers computed ahead between two progress reports.
const ANSWER_CHUNK: usize = 256;

/// Search steps between two looks at the stop flag.
const CANCEL_CHECK_STEPS: usize = 4096;

/// Every start position of `set` with `side` to move: a white king, the
/// strategy's white men and a black king, legal, meeting the precondition
/// (or in the machine's own set), and, with Black to move, with a move for
/// Black (a game that is over is no start). For a
/// [symmetric](Strategy::symmetric) strategy, one start of each class of
/// turned and reflected images: the image with the least key.
pub fn start_positions<S: Strategy>(strategy: &S, set: StartSet, side: Color) -> Vec<Chess> {
    let symmetric = strategy.symmetric();
    // Every class of images has a member with the white king in the
    // triangle a1-d1-d4.
    let white_kings: Vec<Square> = match symmetric {
        true => Square::ALL
            .into_iter()
            .filter(|square| square.rank() <= shakmaty::Rank::Fourth)
            .filter(|square| square.rank().to_u32() <= square.file().to_u32())
            .filter(|square| square.file() <= shakmaty::File::D)
            .collect(),
        false => Square::ALL.to_vec(),
    };
    let mut classes = HashSet::new();
    let mut starts = Vec::new();
    for white_king in white_kings {
        let mut board = Board::empty();
        board.set_piece_at(white_king, Color::White.king());
        place_men(&mut board, strategy.white_pieces(), 0, &mut |board| {
            let wanted = match set {
                StartSet::All => strategy.precondition(board).is_ok(),
                StartSet::Machine => strategy.is_machine_start(board),
            };
            if !wanted || (symmetric && !classes.insert(canonical_key(board))) {
                return;
            }
            let mut setup = Setup::empty();
            setup.board = board.clone();
            setup.turn = side;
            let Ok(position) = setup.position::<Chess>(CastlingMode::Standard) else {
                return;
            };
            if side == Color::Black && position.legal_moves().is_empty() {
                return;
            }
            starts.push(match symmetric {
                true => canonical_position(&position),
                false => position,
            });
        });
    }
    starts
}

/// Calls `visit` with `board` and `pieces` set on it (white, from square
/// index `from` on for the first), then a black king, on every free
/// squares. A man of the same kind as the one before it goes on a later
/// square, so that two bishops are placed once, not twice.
fn place_men(board: &mut Board, pieces: &[Role], from: usize, visit: &mut impl FnMut(&Board)) {
    let Some((&role, rest)) = pieces.split_first() else {
        for black_king in Square::ALL {
            if board.piece_at(black_king).is_none() {
                board.set_piece_at(black_king, Color::Black.king());
                visit(board);
                board.discard_piece_at(black_king);
            }
        }
        return;
    };
    for square in Square::ALL.into_iter().skip(from) {
        if board.piece_at(square).is_some() {
            continue;
        }
        board.set_piece_at(square, role.of(Color::White));
        let next = match rest.first() == Some(&role) {
            true => square.to_usize() + 1,
            false => 0,
        };
        place_men(board, rest, next, visit);
        board.discard_piece_at(square);
    }
}

/// How an automaton fails to mate. The order is the defender's preference
/// when several are within reach.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, strum::IntoStaticStr, strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
pub enum FailureKind {
    /// The defender can make the game go round for ever.
    Cycle,
    /// The black king takes the rook.
    LostPiece,
    /// The automaton stalemates.
    Stalemate,
    /// The automaton's rules name an illegal move.
    IllegalMove,
    /// The machine shows something that is not a move (a calculator
    /// display that does not read as one).
    WrongDisplay,
    /// The automaton refuses the position (its precondition signal, e.g. the
    /// calculator's "turn the board").
    Refusal,
    /// The automaton's rules are undefined in the position reached.
    OutsideRules,
}

impl FailureKind {
    /// The name used in reports and JSON.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// What it means, for people.
    pub fn words(self) -> &'static str {
        match self {
            FailureKind::Cycle => "the defence makes the machine go round for ever",
            FailureKind::LostPiece => "the black king takes the white man",
            FailureKind::Stalemate => "the machine stalemates",
            FailureKind::IllegalMove => "the machine's rules ask for an illegal move",
            FailureKind::WrongDisplay => "the calculator shows no move",
            FailureKind::Refusal => "the machine refuses the position",
            FailureKind::OutsideRules => "the machine's rules give no move",
        }
    }

    fn of(refusal: &Refusal) -> FailureKind {
        match refusal {
            Refusal::Precondition(_) => FailureKind::Refusal,
            Refusal::RuleUndefined(_) => FailureKind::OutsideRules,
            Refusal::IllegalMove(_) => FailureKind::IllegalMove,
            Refusal::WrongDisplay(_) => FailureKind::WrongDisplay,
        }
    }
}

/// The value of a position for the defender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Mate after this many White moves, however Black defends.
    Mate(Moves),
    /// The defender can make the automaton fail.
    Failure(FailureKind),
}

impl Outcome {
    /// Larger is better for the defender.
    fn defender_rank(self) -> (u8, i32) {
        match self {
            Outcome::Mate(moves) => (0, i32::from(moves.0)),
            Outcome::Failure(kind) => (1, -(kind as i32)),
        }
    }

    fn after_white_move(self) -> Outcome {
        match self {
            Outcome::Mate(moves) => Outcome::Mate(moves.next()),
            failure => failure,
        }
    }
}

/// Where a white move leads.
enum Step<M> {
    Over(Outcome),
    /// Black to move in this position, with the automaton's memory.
    Continue(Chess, M),
}

/// A node on the search stack. Its black moves are `moves[first..end]` of
/// the search's move stack (a move list is too big to move around).
struct Frame<M> {
    id: usize,
    position: Chess,
    memory: M,
    first: usize,
    end: usize,
    next: usize,
    best: Option<(Outcome, Move)>,
}

#[derive(Debug, Clone, Copy)]
struct NodeState {
    /// `None` while the node is on the search stack.
    outcome: Option<Outcome>,
    /// The defender's choice, as the key of the position it leads to (a
    /// move of the node's own position would not fit the other images of
    /// a symmetric class).
    defence: Option<u64>,
}

/// White's answer in a (white-to-move position, memory): the move and the
/// memory after it, or how the automaton failed.
type Answer<M> = Result<(Move, M), FailureKind>;

/// The game graph of one automaton, solved lazily from the starts asked for.
pub struct GameGraph<'a, S: Strategy> {
    strategy: &'a S,
    /// Whether one node stands for a class of images: positions are then
    /// kept as the image with the least key.
    symmetric: bool,
    index: HashMap<(u64, S::Memory), usize>,
    nodes: Vec<NodeState>,
    /// The automaton's answers, kept when they are costly
    /// ([`Strategy::costly_replies`]): keyed by the white-to-move board and
    /// the memory.
    answers: HashMap<(u64, S::Memory), Answer<S::Memory>>,
}

impl<'a, S: Strategy> GameGraph<'a, S> {
    pub fn new(strategy: &'a S) -> Self {
        GameGraph {
            strategy,
            symmetric: strategy.symmetric(),
            index: HashMap::new(),
            nodes: Vec::new(),
            answers: HashMap::new(),
        }
    }

    /// Computes every answer of the automaton reachable from `starts` (with
    /// their start memories) ahead of the search, level by level, each level
    /// on all cores (rayon), and keeps them: the depth-first search then
    /// only looks them up. Worth it only when answers are costly.
    pub fn explore(&mut self, starts: &[(Chess, S::Memory)]) {
        let explored = self.explore_with(starts, &mut AuditOptions::default());
        explored.expect("nothing cancels");
    }

    /// [`GameGraph::explore`], reporting progress and stopping when asked
    /// (between chunks of answers); returns the number of answers computed.
    pub fn explore_with(
        &mut self,
        starts: &[(Chess, S::Memory)],
        options: &mut AuditOptions<'_>,
    ) -> Result<usize, Cancelled> {
        let strategy = self.strategy;
        let symmetric = self.symmetric;
        let mut level: Vec<(Chess, S::Memory)> = Vec::new();
        let mut queued = HashSet::new();
        let mut queue =
            |position: Chess,
             memory: S::Memory,
             level: &mut Vec<(Chess, S::Memory)>,
             answers: &HashMap<(u64, S::Memory), Answer<S::Memory>>| {
                let position = node_position(symmetric, position);
                let key = (board_key(position.board()), memory);
                if !answers.contains_key(&key) && queued.insert(key.clone()) {
                    level.push((position, key.1));
                }
            };
        for (start, memory) in starts {
            match start.turn() {
                Color::White => queue(start.clone(), memory.clone(), &mut level, &self.answers),
                Color::Black => {
                    for mv in start.legal_moves() {
                        if !mv.is_capture() {
                            let mut after = start.clone();
                            after.play_unchecked(mv);
                            queue(after, memory.clone(), &mut level, &self.answers);
                        }
                    }
                }
            }
        }
        let mut answers = 0;
        while !level.is_empty() {
            let mut answered: Vec<Answer<S::Memory>> = Vec::with_capacity(level.len());
            for chunk in level.chunks(ANSWER_CHUNK * rayon::current_num_threads()) {
                answered.par_extend(
                    chunk
                        .par_iter()
                        .map(|(position, memory)| answer(strategy, position, memory)),
                );
                answers += chunk.len();
                options.report(AuditProgress {
                    nodes: self.answers.len() + level.len(),
                    answers,
                    starts_done: 0,
                    starts: starts.len(),
                })?;
            }
            let mut next = Vec::new();
            for ((position, memory), answer) in level.into_iter().zip(answered) {
                if let Ok((mv, after_memory)) = &answer {
                    let mut after = position.clone();
                    after.play_unchecked(*mv);
                    for black in after.legal_moves() {
                        if !black.is_capture() {
                            let mut child = after.clone();
                            child.play_unchecked(black);
                            queue(child, after_memory.clone(), &mut next, &self.answers);
                        }
                    }
                }
                self.answers
                    .insert((board_key(position.board()), memory), answer);
            }
            level = next;
        }
        Ok(answers)
    }

    /// Number of (position, memory) nodes solved so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The outcome from `start` under the longest defence.
    pub fn outcome(&mut self, start: &Chess) -> Outcome {
        let memory = self.strategy.start(start);
        let outcome = self.outcome_with(start, memory, &AuditOptions::default());
        outcome.expect("nothing cancels")
    }

    /// [`GameGraph::outcome`] with the start memory given, stopping when
    /// `options` asks.
    fn outcome_with(
        &mut self,
        start: &Chess,
        memory: S::Memory,
        options: &AuditOptions<'_>,
    ) -> Result<Outcome, Cancelled> {
        Ok(match start.turn() {
            Color::White => match self.white_step(start.clone(), &memory) {
                Step::Over(outcome) => outcome,
                Step::Continue(position, memory) => {
                    self.solve(position, memory, options)?.after_white_move()
                }
            },
            Color::Black => self.solve(self.node(start.clone()), memory, options)?,
        })
    }

    /// The game from `start` in which the defender plays the choices the
    /// audit found.
    pub fn game(&mut self, start: &Chess) -> Game {
        self.outcome(start);
        let Ok(game) = play(
            self.strategy,
            start,
            |position, memory| {
                let key = (self.key(position), memory.clone());
                let id = self.index[&key];
                let defence = self.nodes[id].defence.expect("a solved node has a defence");
                let mv = position.legal_moves().into_iter().find(|&mv| {
                    let mut after = position.clone();
                    after.play_unchecked(mv);
                    self.key(&after) == defence
                });
                Ok::<_, Infallible>(mv.expect("the defence's position follows a move"))
            },
            true,
            usize::MAX,
            "longest defence against this automaton",
        );
        game
    }

    /// The node's key of a position: its board's, or its class's.
    fn key(&self, position: &Chess) -> u64 {
        match self.symmetric {
            true => canonical_key(position.board()),
            false => board_key(position.board()),
        }
    }

    /// The position as the graph keeps it.
    fn node(&self, position: Chess) -> Chess {
        node_position(self.symmetric, position)
    }

    fn white_step(&self, position: Chess, memory: &S::Memory) -> Step<S::Memory> {
        let mut position = self.node(position);
        let kept = match self.answers.is_empty() {
            true => None,
            false => self
                .answers
                .get(&(board_key(position.board()), memory.clone())),
        };
        let (mv, memory) = match kept
            .cloned()
            .unwrap_or_else(|| answer(self.strategy, &position, memory))
        {
            Ok(answer) => answer,
            Err(kind) => return Step::Over(Outcome::Failure(kind)),
        };
        position.play_unchecked(mv);
        if position.legal_moves().is_empty() {
            return Step::Over(if position.is_check() {
                Outcome::Mate(Moves(1))
            } else {
                Outcome::Failure(FailureKind::Stalemate)
            });
        }
        Step::Continue(position, memory)
    }

    fn open(
        &mut self,
        position: Chess,
        memory: S::Memory,
        moves: &mut Vec<Move>,
    ) -> Frame<S::Memory> {
        let id = self.nodes.len();
        self.nodes.push(NodeState {
            outcome: None,
            defence: None,
        });
        self.index.insert((self.key(&position), memory.clone()), id);
        let first = moves.len();
        moves.extend(position.legal_moves());
        Frame {
            id,
            position,
            memory,
            first,
            end: moves.len(),
            next: first,
            best: None,
        }
    }

    /// The defender's value of a black-to-move node: an iterative
    /// depth-first search (games can be long; no recursion).
    fn solve(
        &mut self,
        position: Chess,
        memory: S::Memory,
        options: &AuditOptions<'_>,
    ) -> Result<Outcome, Cancelled> {
        if let Some(&id) = self.index.get(&(self.key(&position), memory.clone())) {
            return Ok(self.nodes[id]
                .outcome
                .expect("the search stack is empty between starts"));
        }
        let mut moves = Vec::new();
        let mut stack = vec![self.open(position, memory, &mut moves)];
        let mut returned: Option<Outcome> = None;
        let mut steps = 0usize;
        loop {
            // One start's search may cover most of the graph: a stop request
            // is looked at inside it too.
            if steps.is_multiple_of(CANCEL_CHECK_STEPS) {
                options.check()?;
            }
            steps += 1;
            let frame = stack
                .last_mut()
                .expect("the loop returns when the stack empties");
            if let Some(child) = returned.take() {
                let mv = moves[frame.next - 1];
                offer(&mut frame.best, child.after_white_move(), mv);
            }
            if frame.next == frame.end {
                let (outcome, defence) = frame.best.expect("every node has a black move");
                let mut after = frame.position.clone();
                after.play_unchecked(defence);
                let defence = match self.symmetric {
                    true => canonical_key(after.board()),
                    false => board_key(after.board()),
                };
                self.nodes[frame.id] = NodeState {
                    outcome: Some(outcome),
                    defence: Some(defence),
                };
                moves.truncate(frame.first);
                stack.pop();
                if stack.is_empty() {
                    return Ok(outcome);
                }
                returned = Some(outcome);
                continue;
            }
            let mv = moves[frame.next];
            frame.next += 1;
            let candidate = if mv.is_capture() {
                Outcome::Failure(FailureKind::LostPiece)
            } else {
                let mut after = frame.position.clone();
                after.play_unchecked(mv);
                match self.white_step(after, &frame.memory) {
                    Step::Over(outcome) => outcome,
                    Step::Continue(child, memory) => {
                        match self.index.get(&(self.key(&child), memory.clone())) {
                            Some(&id) => match self.nodes[id].outcome {
                                Some(outcome) => outcome.after_white_move(),
                                None => Outcome::Failure(FailureKind::Cycle),
                            },
                            None => {
                                let child_frame = self.open(child, memory, &mut moves);
                                stack.push(child_frame);
                                continue;
                            }
                        }
                    }
                }
            };
            offer(&mut frame.best, candidate, mv);
        }
    }
}

/// The automaton's answer, asked of it.
fn answer<S: Strategy>(strategy: &S, position: &Chess, memory: &S::Memory) -> Answer<S::Memory> {
    strategy
        .reply(position, memory)
        .map(|(reply, memory)| (reply.mv, memory))
        .map_err(|refusal| FailureKind::of(&refusal))
}

/// The position, or (`symmetric`) the image of it with the least key.
fn node_position(symmetric: bool, position: Chess) -> Chess {
    match symmetric {
        true => canonical_position(&position),
        false => position,
    }
}

/// Keeps the defender's better choice; the first of equals stays.
fn offer(best: &mut Option<(Outcome, Move)>, candidate: Outcome, mv: Move) {
    if best.is_none_or(|(outcome, _)| candidate.defender_rank() > outcome.defender_rank()) {
        *best = Some((candidate, mv));
    }
}

/// The outcome from one start position.
#[derive(Debug, Clone)]
pub struct StartResult {
    pub position: Chess,
    pub outcome: Outcome,
}

/// What the audit of one automaton over one start set found.
#[derive(Debug, Clone)]
pub struct Audit {
    pub strategy: &'static str,
    /// The white men besides the king in every start.
    pub white_pieces: &'static [Role],
    /// The game perfect play is taken from.
    pub variant: Variant,
    pub starts_set: StartSet,
    pub side_to_move: Color,
    /// Every start in enumeration order (white king, white men, black
    /// king by square index); for a symmetric strategy, one start of each
    /// class of images.
    pub results: Vec<StartResult>,
    /// How many positions the starts stand for: as many as there are
    /// starts, or for a symmetric strategy the sizes of their classes
    /// summed.
    pub positions: usize,
    /// The longest mate (the first start with the most moves) as a game.
    pub worst: Option<Game>,
    /// For each failure kind found, the first start that fails so, as a game.
    pub failure_examples: BTreeMap<FailureKind, Game>,
    /// Number of (position, memory) nodes in the game graph.
    pub nodes: usize,
}

/// The worst case over the starts a black king square begins on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SquareCell {
    NoStart,
    /// The longest mate from starts with the black king there.
    Mate(Moves),
    /// Some start with the black king there fails.
    Failure,
}

impl Audit {
    /// Failures counted by kind (every kind listed, zero included).
    pub fn failures(&self) -> BTreeMap<FailureKind, usize> {
        let mut counts: BTreeMap<FailureKind, usize> =
            FailureKind::iter().map(|kind| (kind, 0)).collect();
        for result in &self.results {
            if let Outcome::Failure(kind) = result.outcome {
                *counts.entry(kind).or_default() += 1;
            }
        }
        counts
    }

    /// [`Audit::failures`] keyed by the kinds' report names, as the JSON
    /// reports write them.
    pub fn failures_by_name(&self) -> BTreeMap<&'static str, usize> {
        self.failures()
            .into_iter()
            .map(|(kind, count)| (kind.name(), count))
            .collect()
    }

    /// Number of starts per number of moves to mate.
    pub fn histogram(&self) -> BTreeMap<Moves, usize> {
        let mut histogram = BTreeMap::new();
        for result in &self.results {
            if let Outcome::Mate(moves) = result.outcome {
                *histogram.entry(moves).or_default() += 1;
            }
        }
        histogram
    }

    /// The most moves to mate over the starts that do not fail.
    pub fn worst_moves(&self) -> Option<Moves> {
        self.histogram().keys().next_back().copied()
    }

    /// Starts from which the defender holds out past White's 50th move: a
    /// draw could be claimed under the 50-move rule before the mate.
    pub fn beyond_fifty_moves(&self) -> usize {
        self.histogram()
            .range(Moves(51)..)
            .map(|(_, count)| count)
            .sum()
    }

    /// The worst case per square of the black king's start.
    pub fn per_square(&self) -> [SquareCell; 64] {
        let mut cells = [SquareCell::NoStart; 64];
        for result in &self.results {
            let black_king = result
                .position
                .board()
                .king_of(Color::Black)
                .expect("a start has a black king");
            let cell = &mut cells[black_king.to_usize()];
            *cell = match (*cell, result.outcome) {
                (SquareCell::Failure, _) | (_, Outcome::Failure(_)) => SquareCell::Failure,
                (SquareCell::Mate(a), Outcome::Mate(b)) => SquareCell::Mate(a.max(b)),
                (SquareCell::NoStart, Outcome::Mate(b)) => SquareCell::Mate(b),
            };
        }
        cells
    }
}

/// Audits `strategy` over the start set with `side` to move.
pub fn audit<S: Strategy>(strategy: &S, starts_set: StartSet, side: Color) -> Audit {
    audit_with_progress(strategy, starts_set, side, |_, _| {})
}

/// [`audit`], calling `progress(done, total)` as the starts are solved.
pub fn audit_with_progress<S: Strategy>(
    strategy: &S,
    starts_set: StartSet,
    side: Color,
    mut progress: impl FnMut(usize, usize),
) -> Audit {
    let mut report = |done: AuditProgress| progress(done.starts_done, done.starts);
    let mut options = AuditOptions {
        progress: Some(&mut report),
        cancel: None,
    };
    audit_with_options(strategy, starts_set, side, &mut options).expect("nothing cancels")
}

/// [`audit`] with progress reports and a way to stop it.
pub fn audit_with_options<S: Strategy>(
    strategy: &S,
    starts_set: StartSet,
    side: Color,
    options: &mut AuditOptions<'_>,
) -> Result<Audit, Cancelled> {
    let mut graph = GameGraph::new(strategy);
    let starts = start_positions(strategy, starts_set, side);
    let total = starts.len();
    let mut answers = 0;
    let memories: Vec<S::Memory> = match strategy.costly_replies() {
        true => {
            let starts: Vec<(Chess, S::Memory)> = starts
                .par_iter()
                .map(|start| (start.clone(), strategy.start(start)))
                .collect();
            answers = graph.explore_with(&starts, options)?;
            starts.into_iter().map(|(_, memory)| memory).collect()
        }
        false => starts.iter().map(|start| strategy.start(start)).collect(),
    };
    let mut results = Vec::with_capacity(total);
    for (done, (position, memory)) in starts.into_iter().zip(memories).enumerate() {
        if done % 1024 == 0 {
            options.report(AuditProgress {
                nodes: graph.len(),
                answers,
                starts_done: done,
                starts: total,
            })?;
        } else {
            options.check()?;
        }
        let outcome = graph.outcome_with(&position, memory, options)?;
        results.push(StartResult { position, outcome });
    }
    options.report(AuditProgress {
        nodes: graph.len(),
        answers,
        starts_done: total,
        starts: total,
    })?;
    let worst = results
        .iter()
        .filter_map(|result| match result.outcome {
            Outcome::Mate(moves) => Some((moves, result)),
            Outcome::Failure(_) => None,
        })
        .rev()
        .max_by_key(|(moves, _)| *moves)
        .map(|(_, result)| graph.game(&result.position));
    let mut failure_examples = BTreeMap::new();
    for result in &results {
        if let Outcome::Failure(kind) = result.outcome {
            failure_examples
                .entry(kind)
                .or_insert_with(|| graph.game(&result.position));
        }
    }
    Ok(Audit {
        strategy: strategy.name(),
        white_pieces: strategy.white_pieces(),
        variant: strategy.variant(),
        starts_set,
        side_to_move: side,
        positions: match strategy.symmetric() {
            true => results
                .iter()
                .map(|result| class_size(result.position.board()))
                .sum(),
            false => results.len(),
        },
        results,
        worst,
        failure_examples,
        nodes: graph.len(),
    })
}
