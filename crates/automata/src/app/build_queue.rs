//! Builds in the background: a front end that answers within seconds (the
//! web) has a table too large to build within a request (a five-man one
//! takes minutes) built here instead, one at a time on a thread of its
//! own, with a few waiting behind. A visitor who leaves does not cancel a
//! build another may want; once built, the table is probed as any other
//! (in memory under the tablebase's budget, or in its cache folder).

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use ajedrecista_tables::{Material, Tablebase, Variant};
use serde::Serialize;
use shakmaty::Chess;

use super::probe::{BuildPolicy, ProbeError, check_fixed_king};

/// A build nobody stops: it is kept for whoever asks next.
static NEVER_STOPPED: AtomicBool = AtomicBool::new(false);

/// One table to build (the cone of its position, where it has pawns).
struct Queued {
    table: String,
    position: Chess,
    variant: Variant,
    /// The CPU time the build takes, about, spread over the cores.
    estimate_seconds: u64,
}

#[derive(Default)]
struct Line {
    running: Option<(Queued, Instant)>,
    waiting: VecDeque<Queued>,
    /// The last build that failed, and why: told to the next who asks
    /// for it, rather than built again at once.
    failed: Option<(String, String)>,
}

/// The builds of tables asked for and not at hand: one running, at most
/// `waiting` queued behind it.
pub struct BuildQueue {
    tables: Arc<Tablebase>,
    waiting: usize,
    line: Arc<Mutex<Line>>,
}

/// Where a build asked for stands (docs/json.md, the web's probe ticket).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuildTicket {
    /// The table: `KRvKNN`, or `KQvKR, king fixed on c3`.
    pub table: String,
    /// 0 while it is built; else how many builds are ahead of it.
    pub queue_position: usize,
    /// Seconds since its build started (0 while it waits).
    pub elapsed_seconds: u64,
    /// Seconds it takes, about (the build plan's CPU time over the cores),
    /// less those elapsed; at least 1 until it is done.
    pub estimate_seconds: u64,
}

/// Why a build was not queued.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error(
        "the server is busy building {}; try again in a few minutes",
        tables_phrase(*.building)
    )]
    Busy { building: usize },
    #[error("the build of {table} failed: {reason}")]
    Failed { table: String, reason: String },
    #[error(transparent)]
    Probe(#[from] ProbeError),
}

impl BuildQueue {
    /// A queue building into `tables`, at most `waiting` builds waiting
    /// behind the one running.
    pub fn new(tables: Arc<Tablebase>, waiting: usize) -> BuildQueue {
        BuildQueue {
            tables,
            waiting,
            line: Arc::new(Mutex::new(Line::default())),
        }
    }

    /// Queues the build of the table of `position` (a table the tablebase
    /// builds itself: [`BuildPolicy::Patient`]), unless the same table is
    /// queued or running already; its ticket either way. `None` when the
    /// table is at hand already.
    pub fn ask(
        &self,
        position: &Chess,
        variant: Variant,
    ) -> Result<Option<BuildTicket>, QueueError> {
        check_fixed_king(position, variant)?;
        let material = BuildPolicy::Patient.material(&self.tables, position, variant)?;
        let table = table_name(&material, variant);
        let mut line = lock(&self.line);
        if let Some((failed, reason)) = line.failed.take_if(|(failed, _)| *failed == table) {
            return Err(QueueError::Failed {
                table: failed,
                reason,
            });
        }
        if let Some(ticket) = line.ticket(&table) {
            return Ok(Some(ticket));
        }
        let estimate_seconds = match self.estimate(position, &material, variant)? {
            None => return Ok(None),
            Some(seconds) => seconds,
        };
        let building = line.waiting.len() + usize::from(line.running.is_some());
        if line.waiting.len() >= self.waiting && line.running.is_some() {
            return Err(QueueError::Busy { building });
        }
        line.waiting.push_back(Queued {
            table: table.clone(),
            position: position.clone(),
            variant,
            estimate_seconds,
        });
        if line.running.is_none() {
            self.start_worker(&mut line);
        }
        Ok(line.ticket(&table))
    }

    /// The builds queued or running, the running one first.
    pub fn tickets(&self) -> Vec<BuildTicket> {
        let line = lock(&self.line);
        let names = line.running.iter().map(|(queued, _)| &queued.table);
        names
            .chain(line.waiting.iter().map(|queued| &queued.table))
            .filter_map(|table| line.ticket(table))
            .collect()
    }

    /// The build's CPU seconds over the cores, about; `None` when nothing
    /// is left to build.
    fn estimate(
        &self,
        position: &Chess,
        material: &Material,
        variant: Variant,
    ) -> Result<Option<u64>, ProbeError> {
        let cpu_seconds = match self.tables.cone(position, variant)? {
            Some(cone) if cone.is_built() => return Ok(None),
            Some(cone) => cone.plan.cpu_seconds() + cone.slice_numbers() as f64 * 120e-9,
            None if self.tables.prober().has_table(material, variant) => return Ok(None),
            None => self
                .tables
                .plan(std::slice::from_ref(material), variant)
                .cpu_seconds(),
        };
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Ok(Some((cpu_seconds / cores as f64).ceil().max(1.0) as u64))
    }

    /// Starts the thread that builds what is waiting, one after another,
    /// and ends when nothing is.
    fn start_worker(&self, line: &mut Line) {
        line.running = line.waiting.pop_front().map(|next| (next, Instant::now()));
        let tables = Arc::clone(&self.tables);
        let shared = Arc::clone(&self.line);
        let spawned = std::thread::Builder::new()
            .name("table-builds".into())
            .spawn(move || {
                loop {
                    let Some((table, position, variant)) =
                        lock(&shared).running.as_ref().map(|(queued, _)| {
                            (
                                queued.table.clone(),
                                queued.position.clone(),
                                queued.variant,
                            )
                        })
                    else {
                        return;
                    };
                    let built =
                        BuildPolicy::Patient.prepare(&tables, &position, variant, &NEVER_STOPPED);
                    let mut line = lock(&shared);
                    if let Err(err) = built {
                        line.failed = Some((table, err.to_string()));
                    }
                    line.running = line.waiting.pop_front().map(|next| (next, Instant::now()));
                }
            });
        if spawned.is_err() {
            // No thread to be had: nothing runs, and the next ask tries again.
            line.waiting.clear();
            line.running = None;
        }
    }
}

impl Line {
    fn ticket(&self, table: &str) -> Option<BuildTicket> {
        if let Some((queued, started)) = &self.running
            && queued.table == table
        {
            let elapsed_seconds = started.elapsed().as_secs();
            return Some(BuildTicket {
                table: table.to_string(),
                queue_position: 0,
                elapsed_seconds,
                estimate_seconds: queued
                    .estimate_seconds
                    .saturating_sub(elapsed_seconds)
                    .max(1),
            });
        }
        let place = self
            .waiting
            .iter()
            .position(|queued| queued.table == table)?;
        Some(BuildTicket {
            table: table.to_string(),
            queue_position: place + 1,
            elapsed_seconds: 0,
            estimate_seconds: self.waiting[place].estimate_seconds,
        })
    }
}

/// A table's name as builds and tickets give it: `KRvK`, or `KQvKR, king
/// fixed on c3`.
pub fn table_name(material: &Material, variant: Variant) -> String {
    match variant {
        Variant::Standard => material.to_string(),
        Variant::FixedKing(square) => format!("{material}, king fixed on {square}"),
    }
}

/// `1 table`, `3 tables`.
fn tables_phrase(count: usize) -> String {
    match count {
        1 => "1 table".to_string(),
        count => format!("{count} tables"),
    }
}

fn lock(line: &Mutex<Line>) -> MutexGuard<'_, Line> {
    line.lock().unwrap_or_else(PoisonError::into_inner)
}
