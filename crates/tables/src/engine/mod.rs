//! The table engine: one byte a position for each side to move, and no
//! per-position counters (see docs/tables.md, "How a table is built").
//!
//! Ply by ply, for every side to move:
//! 1. the positions lost in n plies are retracted: each parent not yet won
//!    faster is won in n + 1;
//! 2. the positions won in n + 1 are retracted: each undecided parent is
//!    marked a candidate;
//! 3. each candidate is verified by its moves: when every quiet move leads
//!    to a position the opponent wins in at most n + 1 plies, it is lost in
//!    n + 2 (or later, if a capture loses more slowly); else it goes back to
//!    undecided.
//!
//! The engine knows a table through its [`Layout`]: the numbering, the
//! moves inside the table and their retractions, and the values of the
//! moves that leave it (captures, and with pawns promotions). [`Pieces`](pieces::Pieces) is
//! the layout of pawnless material; a slice of a table with pawns
//! (`crate::pawns`) is that layout with the pawns standing still, their
//! steps leaving the slice as captures leave a table.
//!
//! The table is cut into blocks of [`BLOCK`](bytes::BLOCK) numbers. Each block remembers
//! which byte values were ever written into it, so a step visits only the
//! blocks that hold the value it looks for, and scans them 64 bytes at a
//! time. The blocks are shared among the cores by rayon. Each step works a
//! *run* of 64 numbers at a time (those that differ in the last man's
//! square): the first pass looks at a run together, both sides to move
//! at once ([`Pieces::looks`](pieces::Pieces::looks)), steps 1 and 2 retract a run's positions
//! together ([`Pieces::run_retractions`](pieces::Pieces::run_retractions)), step 3 settles a run's
//! candidates by one line of the opponent's bytes a move
//! ([`Pieces::moving_into`](pieces::Pieces::moving_into)).

use std::{
    ops::ControlFlow,
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
};

use rayon::prelude::*;
use shakmaty::{ByColor, Color};

use crate::{
    engine::{
        bytes::{SAFE, Tally, Verified},
        layout::Layout,
        steps::{Engine, PastBound, split},
    },
    error::TableError,
    material::Material,
    overflow::Overflow,
    slices::PawnSquares,
    sync::lock,
    value::{DEEP, HARD_MAX_PLIES, ILLEGAL, UNDECIDED, encode_plies},
};
pub(crate) mod bytes;
pub(crate) mod layout;
pub(crate) mod pieces;
mod steps;

pub(crate) use steps::{Settings, Ways};

/// Where a build stands, for a progress display.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The first pass: table numbers (both sides to move) examined so far,
    /// of `total`.
    FirstPass { examined: u64, total: u64 },
    /// Rank (ply) `rank` is done; `decided` positions (both sides to move)
    /// have been settled so far. How many ranks there will be
    /// is known only at the end.
    Rank { rank: u16, decided: u64 },
    /// A table with pawns: the slice of `pawns` is built, `done` of
    /// `total` slices; `kept` when it was read back from the slices an
    /// earlier, stopped build kept (docs/guide/src/reference/six-men.md, "Resuming").
    Slice {
        done: u64,
        total: u64,
        pawns: PawnSquares,
        kept: bool,
    },
}

/// The engine on one layout: fills `bytes` (zeroed, the layout's size for
/// each side to move) and returns the overflow list.
pub(crate) fn run_layout<L: Layout>(
    layout: L,
    mut bytes: ByColor<&mut [u8]>,
    material: &Material,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    settings: Settings,
) -> Result<Overflow, TableError> {
    let limit = settings.limit;
    let size = layout.size();
    let total = 2 * size as u64;
    let engine = Engine::new(layout, settings);
    let too_deep = |PastBound| TableError::TooDeep(material.clone());
    debug_assert!(bytes.iter().all(|side| side.len() == size));

    // The first pass runs on every core: a stop asked for during it is
    // noted, and the build stops when the pass ends.
    let examined = AtomicU64::new(0);
    let stop_asked = AtomicBool::new(false);
    let first = |step: u64| {
        let examined = examined.fetch_add(step, Ordering::Relaxed) + step;
        if progress(Progress::FirstPass { examined, total }).is_break() {
            stop_asked.store(true, Ordering::Relaxed);
        }
    };
    let captures_valued = engine
        .layout
        .value_captures(bytes.as_mut().map(|side| &mut **side));
    // How many positions of each side hold each byte: what the choice
    // between the steps' two ways is made on.
    let mut counts = engine
        .first_pass(
            bytes.as_mut().map(|side| &mut **side),
            captures_valued,
            &first,
        )
        .map_err(too_deep)?;
    if stop_asked.load(Ordering::Relaxed) {
        return Err(TableError::Stopped(material.clone()));
    }

    let mut decided = counts.iter().map(Tally::decisive).sum();
    let mut loss = 0;
    while usize::from(loss) <= engine.deepest.load(Ordering::Relaxed) {
        for turn in Color::ALL {
            let by_moves = engine.wins_by_moves_pay(turn, loss, &counts);
            let (lost, parents) = split(&mut bytes, turn);
            let won = if by_moves {
                engine.wins_by_moves(turn, lost, parents, loss)
            } else {
                engine.wins_from(turn, lost, parents, loss)
            };
            if loss < limit {
                counts[!turn].add_many(encode_plies(loss + 1), won);
            }
            decided += won;
        }
        if engine.deepest.load(Ordering::Relaxed) > usize::from(HARD_MAX_PLIES) {
            return Err(too_deep(PastBound));
        }
        if progress(Progress::Rank {
            rank: loss,
            decided,
        })
        .is_break()
        {
            return Err(TableError::Stopped(material.clone()));
        }
        let verified = ByColor::new_with(|turn| {
            if engine.verify_undecided_pays(turn, loss + 1, &counts) {
                Verified::Undecided
            } else {
                Verified::Marked
            }
        });
        for turn in Color::ALL {
            if verified[!turn] == Verified::Marked {
                let (won, parents) = split(&mut bytes, turn);
                engine.candidates_from(turn, won, parents, loss + 1);
            }
        }
        for turn in Color::ALL {
            let (children, candidates) = split(&mut bytes, !turn);
            let lost = engine
                .verify(turn, candidates, children, loss + 1, verified[turn])
                .map_err(too_deep)?;
            decided += lost.decisive();
            counts[turn] += lost;
        }
        if progress(Progress::Rank {
            rank: loss + 1,
            decided,
        })
        .is_break()
        {
            return Err(TableError::Stopped(material.clone()));
        }
        loss += 2;
    }

    for side in bytes.iter_mut() {
        side.par_iter_mut()
            .filter(|b| **b == SAFE)
            .for_each(|b| *b = UNDECIDED);
        debug_assert!(
            side.iter()
                .all(|&b| b <= encode_plies(limit) || b == DEEP || b == ILLEGAL)
        );
    }
    let overflow = ByColor::new_with(|turn| {
        let deep = std::mem::take(&mut *lock(&engine.deep[turn]));
        let mut listed: Vec<(usize, u16)> = deep
            .into_iter()
            .filter(|&(index, _)| bytes[turn][index] == DEEP)
            .collect();
        listed.sort_unstable();
        listed
    });
    debug_assert!(Color::ALL.iter().all(|&turn| {
        bytes[turn].iter().filter(|&&b| b == DEEP).count() == overflow[turn].len()
    }));
    Ok(Overflow::new(limit, overflow))
}
