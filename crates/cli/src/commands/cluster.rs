//! `ajedrecista cluster`: a build plan run as Slurm jobs, one job a node,
//! each after the jobs of the nodes it reads (`submit`), and what became of
//! them (`status`). Slurm is driven through its commands (`sbatch`,
//! `squeue`, `sacct`); the jobs, their dependencies and their resources
//! come from the tables crate's plan ([`jobs`]).

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use ajedrecista_tables::{Job, JobSettings, Material, Step, Tablebase, Variant, jobs};
use anyhow::Context;
use serde::Serialize;

use crate::output::outln;
use crate::tables_args::TablesArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Submit one Slurm job for each step still to build of the plan of
    /// MATERIAL... (a table, or a group of the slices of a six-man table
    /// with pawns), each after the jobs of what it reads; a step whose file
    /// is in the cache folder, or whose job is still waiting or running, is
    /// not submitted again
    Submit(SubmitArgs),
    /// The tables of the last submission: done (their files), running,
    /// waiting and failed (with their logs)
    Status(StatusArgs),
}

#[derive(clap::Args)]
struct SubmitArgs {
    /// Materials, white first (KRPvKR ...); their plans are joined into one,
    /// each table once
    #[arg(required_unless_present = "every")]
    materials: Vec<String>,
    /// Every table of 3 to N men (N = 3 to 6), as `solve --all N --plan`
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(3..=6))]
    every: Option<u8>,
    /// With --every: only the tables whose name, or their colour-flipped
    /// twin's, matches PATTERN (`*`: any men of one side, `?`: one man;
    /// K*R*vK*R*: a rook a side), and the tables they read
    #[arg(long, value_name = "PATTERN", requires = "every")]
    matching: Option<String>,
    /// Build a table with pawns of at least N numbers a side in steps: a
    /// job a group of its slices, the groups of a level at once on several
    /// machines, then a job that writes its file [default: 2^32, six men
    /// with pawns]
    #[arg(long, value_name = "N")]
    slices_from: Option<u64>,
    /// Write the job scripts (in DIR/cluster/scripts) and submit nothing
    #[arg(long)]
    dry_run: bool,
    /// Slurm partition (sbatch --partition)
    #[arg(long)]
    partition: Option<String>,
    /// Slurm account (sbatch --account)
    #[arg(long)]
    account: Option<String>,
    /// Time limit of each job (sbatch --time), e.g. 4:00:00
    #[arg(long, value_name = "TIME")]
    time: Option<String>,
    /// Memory asked for above each table's estimated peak, in percent
    #[arg(long, value_name = "PCT", default_value_t = JobSettings::default().margin_percent)]
    margin: u64,
    /// Cores of a large build (a small one asks for one)
    #[arg(long, value_name = "N", default_value_t = JobSettings::default().cpus,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    cpus: u32,
    /// The ajedrecista binary the jobs run, as the compute nodes see it
    /// [default: this one]
    #[arg(long, value_name = "PATH")]
    binary: Option<PathBuf>,
    #[command(flatten)]
    tables: TablesArgs,
}

#[derive(clap::Args)]
struct StatusArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TablesArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Sub::Submit(args) => submit(&args),
        Sub::Status(args) => status(&args),
    }
}

/// The cache folder, which the jobs share: it must be given or known.
fn cache_dir(tables: &TablesArgs) -> anyhow::Result<PathBuf> {
    let tb = tables.open();
    let dir = tb
        .dir()
        .context("no cache folder: give --tables DIR, a folder every compute node sees")?;
    Ok(std::path::absolute(dir)?)
}

/// Where a submission keeps its scripts, logs and job list.
struct State {
    dir: PathBuf,
}

impl State {
    fn new(tables: &Path) -> State {
        State {
            dir: tables.join("cluster"),
        }
    }

    fn script(&self, step: &Step) -> PathBuf {
        self.dir.join("scripts").join(format!("{step}.sbatch"))
    }

    fn log(&self, step: &Step, job: &str) -> PathBuf {
        self.dir.join("logs").join(format!("{step}.{job}.log"))
    }

    fn jobs_file(&self) -> PathBuf {
        self.dir.join("jobs.tsv")
    }

    /// The job last submitted for each step.
    fn submitted(&self) -> anyhow::Result<BTreeMap<String, String>> {
        let path = self.jobs_file();
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
            Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
        };
        text.lines()
            .filter(|line| !line.starts_with('#') && !line.is_empty())
            .map(|line| {
                let (step, job) = line.split_once('\t').with_context(|| {
                    format!("{}: a line is not STEP<tab>JOB: {line:?}", path.display())
                })?;
                Ok((step.to_string(), job.to_string()))
            })
            .collect()
    }

    fn save(&self, submitted: &BTreeMap<String, String>) -> anyhow::Result<()> {
        let mut text = String::from("# step\tSlurm job id, of its last submission\n");
        for (step, job) in submitted {
            text.push_str(&format!("{step}\t{job}\n"));
        }
        crate::files::write_atomically(&self.jobs_file(), &text, None)
    }
}

/// The sbatch script of a job.
fn script(job: &Job, args: &SubmitArgs, binary: &Path, tables: &Path, state: &State) -> String {
    let mut text = String::from("#!/bin/bash\n");
    text.push_str(&format!("#SBATCH --job-name=ajt-{}\n", job.step));
    text.push_str(&format!(
        "#SBATCH --output={}\n",
        state.log(&job.step, "%j").display()
    ));
    text.push_str(&format!("#SBATCH --mem={}M\n", job.memory_mib));
    text.push_str(&format!("#SBATCH --cpus-per-task={}\n", job.cpus));
    for (option, value) in [
        ("partition", &args.partition),
        ("account", &args.account),
        ("time", &args.time),
    ] {
        if let Some(value) = value {
            text.push_str(&format!("#SBATCH --{option}={value}\n"));
        }
    }
    text.push_str("set -euo pipefail\n");
    text.push_str(&format!("export RAYON_NUM_THREADS={}\n", job.cpus));
    text.push_str(&format!(
        "exec {} solve --node {} --tables {}\n",
        shell_quote(&binary.to_string_lossy()),
        job.step,
        shell_quote(&tables.to_string_lossy())
    ));
    text
}

/// The sbatch commands a dry run writes for an administrator to read and
/// run: each job submitted after the jobs it waits for.
fn submit_script(jobs: &[Job], state: &State) -> String {
    let mut text = String::from(
        "#!/bin/bash\n# Written by `ajedrecista cluster submit --dry-run`: one job a step,\n\
         # each after the jobs of the steps it reads.\nset -euo pipefail\n",
    );
    let variable = |step: &Step| format!("job_{}", step.to_string().replace('-', "_"));
    for job in jobs {
        let after: Vec<String> = job
            .after
            .iter()
            .map(|s| format!("${}", variable(s)))
            .collect();
        let dependency = if after.is_empty() {
            String::new()
        } else {
            format!("--dependency=afterok:{} ", after.join(":"))
        };
        text.push_str(&format!(
            "{}=$(sbatch --parsable {dependency}{})\n",
            variable(&job.step),
            shell_quote(&state.script(&job.step).to_string_lossy())
        ));
    }
    text
}

/// A word for the shell, quoted where it needs to be.
fn shell_quote(word: &str) -> String {
    if word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Runs a Slurm command and returns its standard output.
fn slurm(program: &str, args: &[String]) -> anyhow::Result<String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .with_context(|| format!("cannot run {program} (is Slurm installed here?)"))?;
    if !out.status.success() {
        // Slurm's own errors run over several lines: one line of them.
        let stderr = String::from_utf8_lossy(&out.stderr);
        let said: Vec<&str> = stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        anyhow::bail!("{program} failed: {}", said.join("; "));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The state of each job Slurm still holds (waiting, running, ...), by id,
/// with the reason a waiting job gives.
fn queued() -> anyhow::Result<BTreeMap<String, (String, String)>> {
    let out = slurm("squeue", &["-h".into(), "-o".into(), "%i %T %r".into()])?;
    Ok(out
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let id = words.next()?.to_string();
            let state = words.next()?.to_string();
            let reason = words.next().unwrap_or_default().to_string();
            Some((id, (state, reason)))
        })
        .collect())
}

/// The most cores and memory (MiB) of a node of `partition` (else of
/// every partition), as `sinfo` reports them.
fn largest_node(partition: Option<&str>) -> anyhow::Result<(u32, u64)> {
    let mut args: Vec<String> = vec!["-h".into(), "-o".into(), "%c %m".into()];
    if let Some(partition) = partition {
        args.extend(["-p".into(), partition.into()]);
    }
    let out = slurm("sinfo", &args)?;
    let sizes: Vec<(u32, u64)> = out
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let cpus = words.next()?.trim_end_matches('+').parse().ok()?;
            let memory = words.next()?.trim_end_matches('+').parse().ok()?;
            Some((cpus, memory))
        })
        .collect();
    let cpus = sizes.iter().map(|s| s.0).max();
    let memory = sizes.iter().map(|s| s.1).max();
    cpus.zip(memory)
        .context("sinfo names no node: is the partition right?")
}

/// Slurm's word for a job still to end.
fn active(state: &str) -> bool {
    matches!(
        state,
        "PENDING"
            | "RUNNING"
            | "CONFIGURING"
            | "COMPLETING"
            | "REQUEUED"
            | "RESIZING"
            | "SUSPENDED"
    )
}

fn submit(args: &SubmitArgs) -> anyhow::Result<()> {
    let tables = cache_dir(&args.tables)?;
    let tb = Tablebase::new(Some(tables.clone()));
    let materials: Vec<Material> = match args.every {
        Some(men) => super::solve::every_matching(men, args.matching.as_deref())?,
        None => args
            .materials
            .iter()
            .map(|m| m.parse::<Material>())
            .collect::<Result<_, _>>()?,
    };
    let plan = tb.plan(&materials, Variant::Standard);
    let defaults = JobSettings::default();
    let settings = JobSettings {
        margin_percent: args.margin,
        cpus: args.cpus,
        split_from: args.slices_from.unwrap_or(defaults.split_from),
        ..defaults
    };
    let mut jobs = jobs(&plan, &settings);
    // Groups of slices kept by an earlier submission are done.
    let planned = jobs.len();
    jobs.retain(|job| !tb.step_in_cache_folder(&job.step));
    let kept_groups = planned - jobs.len();
    if !args.dry_run && !jobs.is_empty() {
        // No job may ask for more than a node has: it would wait for good.
        let (cpus, memory) = largest_node(args.partition.as_deref())?;
        for job in &mut jobs {
            job.cpus = job.cpus.min(cpus);
            anyhow::ensure!(
                job.memory_mib <= memory,
                "{}: its build needs {} MiB, and the largest node has {memory} MiB",
                job.step,
                job.memory_mib
            );
        }
    }
    let binary = match &args.binary {
        Some(binary) => std::path::absolute(binary)?,
        None => std::env::current_exe().context("cannot name this program's binary")?,
    };
    let state = State::new(&tables);
    for folder in ["scripts", "logs"] {
        fs::create_dir_all(state.dir.join(folder))
            .with_context(|| format!("cannot make {}", state.dir.join(folder).display()))?;
    }
    let mut submitted = state.submitted()?;
    let queue = if args.dry_run || jobs.is_empty() {
        BTreeMap::new()
    } else {
        queued()?
    };
    let mut ids: std::collections::HashMap<Step, String> = std::collections::HashMap::new();
    let mut fresh: Vec<Step> = Vec::new();
    let mut rows = Vec::new();
    for job in &jobs {
        let path = state.script(&job.step);
        crate::files::write_atomically(&path, &script(job, args, &binary, &tables, &state), None)?;
        let waiting = submitted
            .get(&job.step.to_string())
            .filter(|id| queue.get(*id).is_some_and(|(state, _)| active(state)));
        // A waiting job whose inputs are submitted anew (their jobs failed)
        // waits for jobs that never end well: it is cancelled and replaced.
        let waiting = match waiting {
            Some(id) if job.after.iter().any(|m| fresh.contains(m)) => {
                slurm("scancel", std::slice::from_ref(id))?;
                None
            }
            waiting => waiting,
        };
        let (id, how) = match waiting {
            Some(id) => (id.clone(), "already queued"),
            None if args.dry_run => (String::from("-"), "written"),
            None => {
                let mut sbatch = vec!["--parsable".to_string()];
                let after: Vec<&str> = job
                    .after
                    .iter()
                    .filter_map(|m| ids.get(m).map(String::as_str))
                    .collect();
                if !after.is_empty() {
                    sbatch.push(format!("--dependency=afterok:{}", after.join(":")));
                }
                sbatch.push(path.to_string_lossy().into_owned());
                let out = slurm("sbatch", &sbatch)?;
                let id = out.trim().split(';').next().unwrap_or_default().to_string();
                anyhow::ensure!(
                    !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()),
                    "sbatch answered {out:?}, not a job id"
                );
                submitted.insert(job.step.to_string(), id.clone());
                state.save(&submitted)?;
                fresh.push(job.step.clone());
                (id, "submitted")
            }
        };
        ids.insert(job.step.clone(), id.clone());
        rows.push((job, id, how));
    }
    if args.dry_run {
        crate::files::write_atomically(
            &state.dir.join("submit.sh"),
            &submit_script(&jobs, &state),
            None,
        )?;
    }
    let cached = plan.nodes.iter().filter(|node| node.cached).count();
    outln!(
        "{} tables: {} in the cache folder, {} jobs{}{}",
        plan.nodes.len(),
        cached,
        jobs.len(),
        if kept_groups > 0 {
            format!(" ({kept_groups} groups of slices kept already)")
        } else {
            String::new()
        },
        if args.dry_run {
            format!(
                " written to {}, with submit.sh beside it to submit them (nothing submitted)",
                state.dir.join("scripts").display()
            )
        } else {
            String::new()
        }
    );
    if !rows.is_empty() {
        outln!(
            "{:<14} {:>8} {:>10} {:>5}  {:<15} after",
            "step",
            "job",
            "memory",
            "cores",
            ""
        );
    }
    for (job, id, how) in rows {
        outln!(
            "{:<14} {:>8} {:>8} M {:>5}  {:<15} {}",
            job.step.to_string(),
            id,
            job.memory_mib,
            job.cpus,
            how,
            job.after
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Ok(())
}

#[derive(Serialize)]
struct StatusJson {
    tables: Vec<TableStatus>,
    done: usize,
    running: usize,
    waiting: usize,
    failed: usize,
}

#[derive(Serialize)]
struct TableStatus {
    /// What the job builds: a table, or a group of its slices.
    step: String,
    material: String,
    job: String,
    /// `done`, `running`, `waiting` or `failed`.
    state: &'static str,
    /// Slurm's word for the job, where it still knows it.
    slurm: Option<String>,
    /// The job's log, for a failed job.
    log: Option<String>,
}

fn status(args: &StatusArgs) -> anyhow::Result<()> {
    let tables = cache_dir(&args.tables)?;
    let state = State::new(&tables);
    let tb = Tablebase::new(Some(tables.clone()));
    let submitted = state.submitted()?;
    if submitted.is_empty() {
        anyhow::bail!(
            "nothing was submitted from {} (ajedrecista cluster submit)",
            tables.display()
        );
    }
    let queue = queued()?;
    // Finished jobs, as far as accounting knows them (without it, a job
    // gone from the queue whose file is missing has failed).
    let ids: Vec<&str> = submitted.values().map(String::as_str).collect();
    let ended: BTreeMap<String, String> = slurm(
        "sacct",
        &[
            "-n".into(),
            "-P".into(),
            "-X".into(),
            "-o".into(),
            "JobID,State".into(),
            "-j".into(),
            ids.join(","),
        ],
    )
    .map(|out| {
        out.lines()
            .filter_map(|line| line.split_once('|'))
            .map(|(id, state)| (id.to_string(), state.to_string()))
            .collect()
    })
    .unwrap_or_default();
    let mut out = StatusJson {
        tables: Vec::new(),
        done: 0,
        running: 0,
        waiting: 0,
        failed: 0,
    };
    for (name, job) in &submitted {
        let step: Step = name
            .parse()
            .with_context(|| format!("{}: {name:?}", state.jobs_file().display()))?;
        let slurm_state = match queue.get(job) {
            Some((state, reason)) if state == "PENDING" && !reason.is_empty() => {
                Some(format!("{state} ({reason})"))
            }
            Some((state, _)) => Some(state.clone()),
            None => ended.get(job).cloned(),
        };
        let built = tb.step_in_cache_folder(&step);
        let queued_state = queue.get(job).map(|(state, _)| state.as_str());
        let (word, counter) = match queued_state {
            _ if built => ("done", &mut out.done),
            Some("RUNNING" | "COMPLETING" | "CONFIGURING") => ("running", &mut out.running),
            Some(state) if active(state) => ("waiting", &mut out.waiting),
            _ => ("failed", &mut out.failed),
        };
        *counter += 1;
        out.tables.push(TableStatus {
            step: name.clone(),
            material: step.material().to_string(),
            job: job.clone(),
            state: word,
            slurm: slurm_state,
            log: (word == "failed").then(|| state.log(&step, job).display().to_string()),
        });
    }
    if args.json {
        return crate::output::print_json(&out);
    }
    outln!(
        "{} done, {} running, {} waiting, {} failed",
        out.done,
        out.running,
        out.waiting,
        out.failed
    );
    for table in &out.tables {
        outln!(
            "{:<14} {:>8}  {:<8} {:<12} {}",
            table.step,
            table.job,
            table.state,
            table.slurm.as_deref().unwrap_or("-"),
            table.log.as_deref().unwrap_or("")
        );
    }
    Ok(())
}
