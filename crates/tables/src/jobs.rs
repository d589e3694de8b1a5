//! A build plan as batch jobs: one job for each node still to build, after
//! the jobs of the nodes it reads, with the memory and cores its build
//! needs. What a batch scheduler is handed; the scheduler's own syntax is
//! the front end's.

use crate::{
    material::Material,
    plan::{BuildPlan, Node},
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
}

impl Default for JobSettings {
    /// A quarter more memory than estimated (the estimates run 5 % over to
    /// twice the measured peaks, docs/tables.md), 64 MiB for the process,
    /// and 4 cores.
    fn default() -> JobSettings {
        JobSettings {
            margin_percent: 25,
            base_mib: 64,
            cpus: 4,
        }
    }
}

/// Numbers a side below which a build is small enough for one core: a
/// four-man table (1.8 million numbers a side) takes under a second.
const ONE_CORE_BELOW: u64 = 1 << 22;

/// One node of a plan as a job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The table the job builds (`solve MATERIAL --node`).
    pub material: Material,
    /// The tables still to build that it reads: their jobs must end well
    /// first.
    pub after: Vec<Material>,
    /// Memory to ask for, in MiB.
    pub memory_mib: u64,
    pub cpus: u32,
}

/// The jobs of the nodes of `plan` still to build, in plan order (each
/// after the jobs it depends on).
pub fn jobs(plan: &BuildPlan, settings: &JobSettings) -> Vec<Job> {
    let building: Vec<&Node> = plan.to_build().collect();
    building
        .iter()
        .map(|node| {
            let mut after: Vec<Material> = Vec::new();
            for read in &node.reads {
                let built_here = building.iter().any(|n| n.material == read.material);
                if built_here && !after.contains(&read.material) {
                    after.push(read.material.clone());
                }
            }
            let peak = node.peak_bytes * (100 + settings.margin_percent) / 100;
            Job {
                material: node.material.clone(),
                after,
                memory_mib: settings.base_mib + peak.div_ceil(1 << 20),
                cpus: if node.numbers < ONE_CORE_BELOW {
                    1
                } else {
                    settings.cpus
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{plan::tests::plan, variant::Variant};

    /// Every job comes after the jobs it waits for, waits only for jobs of
    /// the plan, and asks for at least its node's estimate.
    #[test]
    fn jobs_wait_for_the_jobs_of_what_they_read() {
        let plan = plan("KRPvKR", &["KQRvKR"]);
        let jobs = jobs(&plan, &JobSettings::default());
        assert_eq!(jobs.len(), plan.to_build().count());
        for (i, job) in jobs.iter().enumerate() {
            for before in &job.after {
                let at = jobs.iter().position(|j| j.material == *before);
                assert!(at.is_some_and(|at| at < i), "{}: {before}", job.material);
            }
            let node = plan.node(&job.material, Variant::Standard).unwrap();
            assert!(job.memory_mib << 20 > node.peak_bytes, "{}", job.material);
        }
        // KQRvKR's file is there: no job for it, and no job waits for it.
        let kqrkr: Material = "KQRvKR".parse().unwrap();
        assert!(
            jobs.iter()
                .all(|j| j.material != kqrkr && !j.after.contains(&kqrkr))
        );
        let last = jobs.last().unwrap();
        assert_eq!(last.material.to_string(), "KRPvKR");
        assert!(!last.after.is_empty());
        assert_eq!(last.cpus, 4);
        assert_eq!(jobs[0].cpus, 1);
    }
}
