//! Table builds in progress, as the tables crate reports them, for the
//! page's progress bar (`GET /api/builds`): a probe that builds a table
//! takes seconds, and the page shows how far the build has come.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use ajedrecista_automata::app::{BuildTicket, method_tables_building, table_name};
use ajedrecista_automata::{MethodProgress, StrategyName};
use ajedrecista_tables::{Material, Progress, Variant};
use serde::Serialize;

use crate::store::lock;

/// One build under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuildView {
    /// The table: `KRvK`, `KQvK, king fixed on c3`, or `the method table
    /// of` a machine's label.
    pub table: String,
    /// `first_pass`, `rank` (a ply of the retrograde analysis), `slice`
    /// (a table with pawns, slice by slice) or `method` (a method's own
    /// table, stage by stage).
    pub stage: &'static str,
    /// Positions examined, positions decided, slices built, or stages done.
    pub done: u64,
    /// Of how many, where that is known (not for `rank`: how many plies
    /// there will be is known only at the end).
    pub total: Option<u64>,
    /// The stage in words.
    pub text: String,
    /// For a build asked for by a probe (docs/web.md, "Builds in the
    /// background"): 0 while it runs, else how many builds are ahead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_position: Option<usize>,
    /// Seconds left, about, for a build asked for by a probe.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate_seconds: Option<u64>,
}

/// The builds under way, shared between the tables' progress callback
/// and the route.
#[derive(Debug, Clone, Default)]
pub struct Builds(Arc<Mutex<BTreeMap<String, BuildView>>>);

impl Builds {
    /// A progress report of the tables crate.
    pub fn update(&self, material: &Material, variant: Variant, progress: Progress) {
        let table = table_name(material, variant);
        let (stage, done, total, text) = match progress {
            Progress::FirstPass { examined, total } => (
                "first_pass",
                examined,
                Some(total),
                format!("first pass: {examined} of {total} positions examined"),
            ),
            Progress::Rank { rank, decided } => (
                "rank",
                decided,
                None,
                format!("ply {rank}: {decided} positions decided"),
            ),
            Progress::Slice { done, total, .. } => (
                "slice",
                done,
                Some(total),
                format!("{done} of {total} pawn slices built"),
            ),
        };
        let view = BuildView {
            table: table.clone(),
            stage,
            done,
            total,
            text,
            queue_position: None,
            estimate_seconds: None,
        };
        lock(&self.0).insert(table, view);
    }

    /// The build of this table has ended.
    pub fn finish(&self, material: &Material, variant: Variant) {
        lock(&self.0).remove(&table_name(material, variant));
    }

    /// The builds under way now: the tables', then the methods' own
    /// tables (which a move of those machines waits for), then the
    /// builds queued by probes (`tickets`) that report no progress yet; a
    /// table's view carries its ticket's place and estimate.
    pub fn now(&self, tickets: &[BuildTicket]) -> Vec<BuildView> {
        let mut now: Vec<BuildView> = lock(&self.0).values().cloned().collect();
        for ticket in tickets {
            match now.iter_mut().find(|view| view.table == ticket.table) {
                Some(view) => {
                    view.queue_position = Some(ticket.queue_position);
                    view.estimate_seconds = Some(ticket.estimate_seconds);
                }
                None => now.push(BuildView::of_ticket(ticket)),
            }
        }
        now.extend(
            method_tables_building()
                .into_iter()
                .map(|(name, progress)| BuildView::of_method(name, progress)),
        );
        now
    }
}

impl BuildView {
    /// A build queued by a probe, waiting its turn or building the tables
    /// it reads.
    fn of_ticket(ticket: &BuildTicket) -> BuildView {
        let text = match ticket.queue_position {
            0 => "building the tables it reads first".to_string(),
            1 => "waiting: one build ahead".to_string(),
            ahead => format!("waiting: {ahead} builds ahead"),
        };
        BuildView {
            table: ticket.table.clone(),
            stage: "queued",
            done: 0,
            total: None,
            text,
            queue_position: Some(ticket.queue_position),
            estimate_seconds: Some(ticket.estimate_seconds),
        }
    }

    /// A method's own table as the page shows it: its triangles, smallest
    /// first, as the stages.
    fn of_method(name: StrategyName, progress: MethodProgress) -> BuildView {
        let MethodProgress {
            stage,
            stages,
            depth,
        } = progress;
        BuildView {
            // "the method table of the two bishops' mate", not "of The".
            table: format!(
                "the method table of {}",
                name.label()
                    .strip_prefix("The ")
                    .map_or(name.label().to_string(), |rest| format!("the {rest}"))
            ),
            stage: "method",
            done: u64::from(stage),
            total: Some(u64::from(stages)),
            text: format!(
                "stage {} of {stages} (its triangles, then the whole board), \
                 forcings of up to {depth} moves found",
                stage + 1
            ),
            queue_position: None,
            estimate_seconds: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_reports_become_views_and_a_finished_build_goes() {
        let builds = Builds::default();
        let krk: Material = "KRvK".parse().unwrap();
        builds.update(
            &krk,
            Variant::Standard,
            Progress::FirstPass {
                examined: 10,
                total: 40,
            },
        );
        let view = &builds.now(&[])[0];
        assert_eq!(
            (view.table.as_str(), view.stage, view.done, view.total),
            ("KRvK", "first_pass", 10, Some(40))
        );
        builds.update(
            &krk,
            Variant::Standard,
            Progress::Rank {
                rank: 7,
                decided: 300,
            },
        );
        let now = builds.now(&[]);
        assert_eq!(now.len(), 1, "one view per table");
        assert_eq!(now[0].text, "ply 7: 300 positions decided");
        assert_eq!(now[0].total, None);
        builds.finish(&krk, Variant::Standard);
        assert!(builds.now(&[]).iter().all(|view| view.stage == "method"));
    }
}
