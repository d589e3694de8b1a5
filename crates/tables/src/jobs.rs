//! A build plan as batch jobs: one job for each node still to build, after
//! the jobs of the nodes it reads, with the memory and cores its build
//! needs; a large table with pawns as one job a group of its slices, then
//! one that writes its file. What a batch scheduler is handed; the
//! scheduler's own syntax is the front end's.

use crate::{
    build::KEPT_FROM,
    plan::{BuildPlan, Node, Step},
};

/// What the jobs of a plan ask for beyond each node's estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobSettings {
    /// Memory asked for above the node's estimated peak, in percent.
    pub margin_percent: u64,
    /// Memory a process needs besides its build (code, buffers), in MiB.
    pub base_mib: u64,
    /// Cores a large build asks for (a small one asks for one).
    pub cpus: u32,
    /// Numbers a side from which a table with pawns is built in steps, a
    /// job a group of its slices: the slices of one level are built on
    /// several machines at once.
    pub split_from: u64,
}

impl Default for JobSettings {
    /// A quarter more memory than estimated (the estimates run 5 % over to
    /// twice the measured peaks, docs/tables.md), 64 MiB for the process,
    /// 4 cores, and six-man tables with pawns in steps (those whose slices
    /// a build keeps on disk).
    fn default() -> JobSettings {
        JobSettings {
            margin_percent: 25,
            base_mib: 64,
            cpus: 4,
            split_from: KEPT_FROM as u64,
        }
    }
}

/// Numbers a side below which a build is small enough for one core: a
/// four-man table (1.8 million numbers a side) takes under a second.
const ONE_CORE_BELOW: u64 = 1 << 22;

/// One step of a plan as a job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// What the job builds (`solve --node STEP`).
    pub step: Step,
    /// The steps still to build that it reads: their jobs must end well
    /// first.
    pub after: Vec<Step>,
    /// Memory to ask for, in MiB.
    pub memory_mib: u64,
    pub cpus: u32,
}

/// The jobs of the nodes of `plan` still to build, in plan order (each
/// after the jobs it depends on).
pub fn jobs(plan: &BuildPlan, settings: &JobSettings) -> Vec<Job> {
    let building: Vec<&Node> = plan.to_build().collect();
    let mut jobs = Vec::new();
    for node in &building {
        let mut reads: Vec<Step> = Vec::new();
        for read in &node.reads {
            let built_here = building.iter().any(|n| n.material == read.material);
            let step = Step::Table(read.material.clone());
            if built_here && !reads.contains(&step) {
                reads.push(step);
            }
        }
        let peak = node.peak_bytes * (100 + settings.margin_percent) / 100;
        let job = |step: Step, after: Vec<Step>| Job {
            step,
            after,
            memory_mib: settings.base_mib + peak.div_ceil(1 << 20),
            cpus: if node.numbers < ONE_CORE_BELOW {
                1
            } else {
                settings.cpus
            },
        };
        let table = Step::Table(node.material.clone());
        match &node.slices {
            Some(slices) if node.numbers >= settings.split_from => {
                // Each group after the tables and after every group of the
                // level before (those its pawn steps lead into are among
                // them); the file after the last level's.
                let mut before: Vec<Step> = Vec::new();
                for (level, groups) in slices.steps.iter().enumerate() {
                    let steps: Vec<Step> = (0..groups.len())
                        .map(|group| Step::Slices {
                            material: node.material.clone(),
                            level,
                            group,
                        })
                        .collect();
                    for step in &steps {
                        let mut after = reads.clone();
                        after.extend(before.iter().cloned());
                        jobs.push(job(step.clone(), after));
                    }
                    before = steps;
                }
                jobs.push(job(table, before));
            }
            _ => jobs.push(job(table, reads)),
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{material::Material, plan::tests::plan, variant::Variant};

    /// Every job comes after the jobs it waits for, waits only for jobs of
    /// the plan, and asks for at least its node's estimate.
    #[test]
    fn jobs_wait_for_the_jobs_of_what_they_read() {
        let plan = plan("KRPvKR", &["KQRvKR"]);
        let jobs = jobs(&plan, &JobSettings::default());
        assert_eq!(jobs.len(), plan.to_build().count());
        for (i, job) in jobs.iter().enumerate() {
            for before in &job.after {
                let at = jobs.iter().position(|j| j.step == *before);
                assert!(at.is_some_and(|at| at < i), "{}: {before}", job.step);
            }
            let node = plan.node(job.step.material(), Variant::Standard).unwrap();
            assert!(job.memory_mib << 20 > node.peak_bytes, "{}", job.step);
        }
        // KQRvKR's file is there: no job for it, and no job waits for it.
        let kqrkr = Step::Table("KQRvKR".parse::<Material>().unwrap());
        assert!(
            jobs.iter()
                .all(|j| j.step != kqrkr && !j.after.contains(&kqrkr))
        );
        let last = jobs.last().unwrap();
        assert_eq!(last.step.to_string(), "KRPvKR");
        assert!(!last.after.is_empty());
        assert_eq!(last.cpus, 4);
        assert_eq!(jobs[0].cpus, 1);
    }

    /// A table with pawns split into steps: a job a group of its slices,
    /// each after the tables it reads and every group of the level before,
    /// then its file after the last level's groups; a six-man table with
    /// pawns is split by default, a five-man one is not.
    #[test]
    fn a_large_table_with_pawns_is_a_job_a_group_of_its_slices() {
        let settings = JobSettings {
            split_from: 0,
            ..JobSettings::default()
        };
        let krpkr = plan("KRPvKR", &[]);
        let levels = krpkr
            .nodes
            .last()
            .unwrap()
            .slices
            .as_ref()
            .unwrap()
            .steps
            .clone();
        let all = jobs(&krpkr, &settings);
        let of_krpkr: Vec<&Job> = all
            .iter()
            .filter(|j| j.step.material().to_string() == "KRPvKR")
            .collect();
        let groups: usize = levels.iter().map(Vec::len).sum();
        assert_eq!(of_krpkr.len(), groups + 1);
        for job in &of_krpkr {
            match &job.step {
                Step::Slices { level: 0, .. } => {
                    assert!(job.after.iter().all(|s| matches!(s, Step::Table(_))));
                    assert!(!job.after.is_empty());
                }
                Step::Slices { level, .. } => {
                    let before = job
                        .after
                        .iter()
                        .filter(|s| matches!(s, Step::Slices { level: l, .. } if l + 1 == *level));
                    assert_eq!(before.count(), levels[level - 1].len());
                }
                Step::Table(_) => assert_eq!(job.after.len(), levels.last().unwrap().len()),
            }
        }
        let unsplit = jobs(&krpkr, &JobSettings::default());
        assert_eq!(unsplit.len(), krpkr.to_build().count());
        assert!(unsplit.iter().all(|j| matches!(j.step, Step::Table(_))));
        let six = jobs(&plan("KRRvKRP", &[]), &JobSettings::default());
        assert!(
            six.iter()
                .any(|j| matches!(&j.step, Step::Slices { material, .. } if material.to_string() == "KRRvKRP"))
        );
    }
}
