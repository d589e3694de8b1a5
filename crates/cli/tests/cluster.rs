//! `cluster submit` and `cluster status`: a plan's tables as Slurm jobs.
//! The dry run needs no Slurm; the runs on a real cluster are ignored
//! unless asked for, with `SLURM_CONF` naming a running one
//! (`scripts/slurm_local.sh start`).

mod common;

use std::{
    collections::BTreeMap,
    fs,
    path::Path,
    process::Command,
    time::{Duration, Instant},
};

use common::{assert_success, json, plain_stdout, run};

/// The table files of a folder, by name.
fn table_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".ajt"))
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, fs::read(entry.path()).unwrap())
        })
        .collect()
}

/// The steps of a dry run's submit.sh, in the order it submits them.
fn submitted_steps(dir: &Path) -> Vec<String> {
    let submit = fs::read_to_string(dir.join("cluster").join("submit.sh")).unwrap();
    submit
        .lines()
        .filter(|line| line.starts_with("job_"))
        .map(|line| {
            let script = line.rsplit('/').next().unwrap();
            script.strip_suffix(".sbatch)").unwrap().to_string()
        })
        .collect()
}

/// A table with pawns submitted in steps (`--slices-from 0` splits even a
/// four-man one): a job a group of its slices, each after the level
/// before, then its file; run by hand in submit.sh's order, each step a
/// process, the file has the bytes of one `solve`. A group run before the
/// slices it reads is refused, naming them.
#[test]
fn a_pawn_table_submitted_in_steps_builds_the_bytes_of_one_solve() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &[
            "cluster",
            "submit",
            "KPvKP",
            "--dry-run",
            "--slices-from",
            "0",
        ],
        dir.path(),
    );
    assert_success(&out);
    let steps = submitted_steps(dir.path());
    assert_eq!(steps.last().map(String::as_str), Some("KPvKP"));
    let groups: Vec<&String> = steps.iter().filter(|s| s.starts_with("KPvKP-L")).collect();
    assert!(groups.len() > 2, "{steps:?}");
    let submit = fs::read_to_string(dir.path().join("cluster").join("submit.sh")).unwrap();
    let second = submit
        .lines()
        .find(|line| line.starts_with("job_KPvKP_L1G0="))
        .unwrap();
    assert!(second.contains("$job_KPvKP_L0G0"), "{second}");

    let refused = run(&["solve", "--node", "KPvKP-L1G0"], dir.path());
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("not in the cache folder"), "{stderr}");

    for step in &steps {
        if step == "KPvKP-L0G0" {
            // The tables are there, the slices of level 0 are not.
            let early = run(&["solve", "--node", "KPvKP-L1G0"], dir.path());
            assert!(!early.status.success());
            let stderr = String::from_utf8_lossy(&early.stderr);
            assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
            assert!(stderr.contains("not kept in its journal"), "{stderr}");
        }
        let out = run(&["solve", "--node", step, "--json"], dir.path());
        assert_success(&out);
    }
    let no_such = run(&["solve", "--node", "KPvKP-L99G0"], dir.path());
    assert!(String::from_utf8_lossy(&no_such.stderr).contains("has no such group"));
    let whole = tempfile::tempdir().unwrap();
    assert_success(&run(&["solve", "KPvKP"], whole.path()));
    let name = "KPvKP.standard.ajt";
    assert_eq!(
        fs::read(dir.path().join(name)).unwrap(),
        fs::read(whole.path().join(name)).unwrap()
    );
    assert!(!dir.path().join(format!("{name}.slices")).exists());
}

/// The two folders hold the same table files, byte for byte.
fn assert_same_table_files(built: &Path, solved: &Path) {
    let (built, solved) = (table_files(built), table_files(solved));
    assert_eq!(
        built.keys().collect::<Vec<_>>(),
        solved.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &built {
        assert!(*bytes == solved[name], "{name} differs");
    }
}

#[test]
fn a_dry_run_writes_a_job_a_table_and_the_order_to_submit_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["cluster", "submit", "KRPvK", "--dry-run"], dir.path());
    assert_success(&out);
    let text = plain_stdout(&out);
    assert!(
        text.contains("11 tables: 0 in the cache folder, 11 jobs"),
        "{text}"
    );
    let plan = json(&["solve", "KRPvK", "--plan", "--json"], dir.path());
    let scripts = dir.path().join("cluster").join("scripts");
    for node in plan["nodes"].as_array().unwrap() {
        let material = node["material"].as_str().unwrap();
        let script = fs::read_to_string(scripts.join(format!("{material}.sbatch"))).unwrap();
        assert!(
            script.contains(&format!("solve --node {material} --tables ")),
            "{script}"
        );
        let memory: u64 = script
            .lines()
            .find_map(|line| line.strip_prefix("#SBATCH --mem="))
            .and_then(|m| m.strip_suffix('M'))
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            memory << 20 > node["peak_bytes"].as_u64().unwrap(),
            "{material}"
        );
    }
    // Each job is submitted after the jobs of the tables it reads.
    let submit = fs::read_to_string(dir.path().join("cluster").join("submit.sh")).unwrap();
    let order: Vec<&str> = submit
        .lines()
        .filter_map(|line| line.strip_prefix("job_"))
        .map(|line| line.split('=').next().unwrap())
        .collect();
    assert_eq!(order.len(), 11);
    assert_eq!(order.last(), Some(&"KRPvK"));
    let last = submit.lines().last().unwrap();
    for read in ["KPvK", "KRvK", "KQRvK"] {
        assert!(last.contains(&format!("$job_{read}")), "{last}");
    }
    assert!(
        table_files(dir.path()).is_empty(),
        "a dry run builds nothing"
    );
}

#[test]
fn status_without_a_submission_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["cluster", "status"], dir.path());
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("nothing was submitted from"), "{stderr}");
}

#[test]
fn a_submission_without_slurm_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(["cluster", "submit", "KQvK", "--tables"])
        .arg(dir.path())
        .env("PATH", empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cannot run sinfo (is Slurm installed here?)"),
        "{stderr}"
    );
    assert!(table_files(dir.path()).is_empty());
}

/// `cluster status --json` until every table is done (or one failed).
fn wait_done(tables: &Path, limit: Duration) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let status = json(&["cluster", "status", "--json"], tables);
        let left = status["running"].as_u64().unwrap() + status["waiting"].as_u64().unwrap();
        if left == 0 || status["failed"].as_u64().unwrap() > 0 {
            return status;
        }
        assert!(started.elapsed() < limit, "{status}");
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The state Slurm gives the job of `material`, from `cluster status`.
fn slurm_state(tables: &Path, material: &str) -> Option<String> {
    let status = json(&["cluster", "status", "--json"], tables);
    status["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["step"] == material)
        .and_then(|t| t["slurm"].as_str().map(str::to_owned))
}

#[test]
#[ignore = "needs a running Slurm cluster named by SLURM_CONF (scripts/slurm_local.sh start)"]
fn a_class_built_by_slurm_in_steps_has_the_bytes_of_one_solve() {
    let on_slurm = tempfile::tempdir().unwrap();
    let local = tempfile::tempdir().unwrap();
    // Every table of up to four men with a pawn, those with pawns a job a
    // group of their slices.
    let out = run(
        &[
            "cluster",
            "submit",
            "--every",
            "4",
            "--matching",
            "K*P*vK*",
            "--slices-from",
            "0",
        ],
        on_slurm.path(),
    );
    assert_success(&out);
    assert!(plain_stdout(&out).contains("KPvKP-L0G0"));
    let status = wait_done(on_slurm.path(), Duration::from_secs(900));
    assert_eq!(status["failed"], 0, "{status}");
    for material in ["KPvK", "KPPvK", "KPvKP", "KQvKP", "KRPvK"] {
        assert_success(&run(&["solve", material], local.path()));
    }
    assert_same_table_files(on_slurm.path(), local.path());
}

#[test]
#[ignore = "needs a running Slurm cluster named by SLURM_CONF (scripts/slurm_local.sh start)"]
fn a_plan_built_by_slurm_has_the_bytes_of_one_solve_even_after_a_cancelled_job() {
    let on_slurm = tempfile::tempdir().unwrap();
    let local = tempfile::tempdir().unwrap();
    // A class: every four-man table, each table once.
    assert_success(&run(
        &["cluster", "submit", "--every", "4"],
        on_slurm.path(),
    ));
    let status = wait_done(on_slurm.path(), Duration::from_secs(600));
    assert_eq!(status["failed"], 0, "{status}");
    assert_success(&run(&["solve", "--all", "4"], local.path()));
    // KQRvKR: its job cancelled while it builds, then submitted again.
    assert_success(&run(&["cluster", "submit", "KQRvKR"], on_slurm.path()));
    let started = Instant::now();
    while slurm_state(on_slurm.path(), "KQRvKR").as_deref() != Some("RUNNING") {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "KQRvKR never ran"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(2));
    let job = json(&["cluster", "status", "--json"], on_slurm.path())["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["step"] == "KQRvKR")
        .unwrap()["job"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        Command::new("scancel")
            .arg(&job)
            .status()
            .unwrap()
            .success()
    );
    let status = wait_done(on_slurm.path(), Duration::from_secs(60));
    assert!(status["failed"].as_u64().unwrap() >= 1, "{status}");
    assert!(!on_slurm.path().join("KQRvKR.standard.ajt").exists());
    let again = run(&["cluster", "submit", "KQRvKR"], on_slurm.path());
    assert_success(&again);
    assert!(
        plain_stdout(&again).contains(", 1 jobs"),
        "only what is left"
    );
    let status = wait_done(on_slurm.path(), Duration::from_secs(600));
    assert_eq!(status["failed"], 0, "{status}");
    assert_success(&run(&["solve", "KQRvKR"], local.path()));
    assert_same_table_files(on_slurm.path(), local.path());
}
