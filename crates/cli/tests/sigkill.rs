//! `solve` killed with SIGKILL part-way through a build or its write: no
//! damaged table ever loads (the table file appears whole by a rename or
//! not at all; the next run loads it or builds it again), and the
//! temporary file a killed writer leaves is removed when the cache is next
//! opened: no process holds its lock any more, however young it is
//! (crates/tables/src/format/guard.rs).

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A four-man table: a build of about half a second on an idle machine,
/// two on a busy one, with its three-man subtables written first.
const MATERIAL: &str = "KQvKR";
const FILE: &str = "KQvKR.standard.ajt";

fn solve(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ajedrecista"));
    command
        .args(["solve", MATERIAL, "--json", "--tables"])
        .arg(dir)
        .env_remove("AJEDRECISTA_TABLES");
    command
}

/// The summary `solve --json` prints, without its time.
fn summary(dir: &Path) -> serde_json::Value {
    let out = solve(dir).output().expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    json.as_object_mut().unwrap().remove("seconds");
    json
}

/// The temporary files of the table's writer: `.KQvKR.standard.ajt.*.tmp`.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with(&format!(".{FILE}.")) && name.ends_with(".tmp")
        })
        .collect()
}

/// When to kill the build.
#[derive(Debug, Clone, Copy)]
enum KillPoint {
    /// This long after the start: the build of the table itself (its
    /// subtables take milliseconds).
    After(Duration),
    /// As soon as the temporary file of the table appears.
    TemporaryAppears,
    /// Once the temporary file holds this many bytes: mid-write.
    TemporaryHolds(u64),
}

/// Starts `solve` and kills it with SIGKILL at `point` (at most 60 s);
/// returns whether it was still running when killed.
fn kill_at(dir: &Path, point: KillPoint) -> bool {
    let mut child: Child = solve(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{point:?} never came"
        );
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let now = match point {
            KillPoint::After(delay) => started.elapsed() >= delay,
            KillPoint::TemporaryAppears => !temporaries(dir).is_empty(),
            KillPoint::TemporaryHolds(bytes) => temporaries(dir)
                .iter()
                .any(|path| fs::metadata(path).is_ok_and(|m| m.len() >= bytes)),
        };
        if now {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    true
}

#[test]
fn a_build_killed_at_any_point_leaves_no_damaged_table_and_its_leftovers_are_cleaned() {
    let clean = tempfile::tempdir().unwrap();
    let expected = summary(clean.path());

    let points = [
        KillPoint::After(Duration::from_millis(150)),
        KillPoint::TemporaryAppears,
        KillPoint::TemporaryHolds(4096),
    ];
    let mut leftovers = 0;
    for point in points {
        let dir = tempfile::tempdir().unwrap();
        let killed = kill_at(dir.path(), point);
        // The table file is whole or absent: never a part.
        if dir.path().join(FILE).exists() {
            assert_eq!(summary(dir.path()), expected, "{point:?}: the file left");
        }
        let left = temporaries(dir.path());
        if matches!(
            point,
            KillPoint::TemporaryAppears | KillPoint::TemporaryHolds(_)
        ) {
            assert!(killed, "{point:?}: the build ended before the kill");
        }
        // No one holds a killed writer's file: the next run removes it,
        // however young.
        leftovers += left.len();
        assert_eq!(summary(dir.path()), expected, "{point:?}: the next run");
        assert!(
            temporaries(dir.path()).is_empty(),
            "{point:?}: {:?} left",
            temporaries(dir.path())
        );
    }
    assert!(leftovers > 0, "no kill left a temporary file to clean");
}
