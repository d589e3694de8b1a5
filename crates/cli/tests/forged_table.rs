//! A cache file with a valid checksum and wrong values that pass the
//! semantic sample (illegal numbers marked illegal, mates kept as mates):
//! every walk the tables guide ends, with one line and exit 2 where the
//! table contradicts itself or the game (issue 16, item 2). The forged
//! files are written here as the tables crate writes format 5 (header,
//! chunk lengths, their CRC-32s and the index's, zstd chunks, CRC-32 over
//! all after the header; KRvK has no overflow list).

use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;
use common::Serving;

const FILE: &str = "KRvK.standard.ajt";
/// The header's length and its fields (crates/tables/src/format/mod.rs).
const HEADER: usize = 64;
/// The largest chunk, in numbers.
const CHUNK: usize = 1 << 20;
/// A byte: 255 no legal position, 1 mated (a loss in 0 plies), otherwise
/// plies to mate + 1, 0 a draw.
const ILLEGAL: u8 = 255;
const MATED: u8 = 1;

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(args)
        .arg("--tables")
        .arg(dir)
        .env_remove("AJEDRECISTA_TABLES")
        .output()
        .expect("the binary runs")
}

/// A folder whose KRvK file (its checksum right) holds `white` for every
/// legal white-to-move number and `black` for every legal black-to-move
/// number that is not mate.
fn forged(white: u8, black: u8) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let built = run(&["solve", "KRvK"], dir.path());
    assert!(built.status.success());
    let path = dir.path().join(FILE);
    let file = fs::read(&path).unwrap();
    let chunks = u32::from_le_bytes(file[44..48].try_into().unwrap()) as usize;
    let mut offset = HEADER + 8 * chunks + 4;
    let mut compressed = Vec::new();
    for i in 0..chunks {
        let at = HEADER + 4 * i;
        let length = u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
        let mut bytes = zstd::bulk::decompress(&file[offset..offset + length], CHUNK).unwrap();
        offset += length;
        let value = if i < chunks / 2 { white } else { black };
        for byte in &mut bytes {
            if *byte != ILLEGAL && *byte != MATED {
                *byte = value;
            }
        }
        compressed.push(zstd::bulk::compress(&bytes, 3).unwrap());
    }
    let mut rest = Vec::new();
    for chunk in &compressed {
        rest.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
    }
    for chunk in &compressed {
        rest.extend_from_slice(&crc32fast::hash(chunk).to_le_bytes());
    }
    rest.extend_from_slice(&crc32fast::hash(&rest).to_le_bytes());
    let data: usize = compressed.iter().map(Vec::len).sum();
    for chunk in compressed {
        rest.extend_from_slice(&chunk);
    }
    let mut head = file[..HEADER].to_vec();
    head[48..56].copy_from_slice(&(data as u64).to_le_bytes());
    head[56..60].copy_from_slice(&crc32fast::hash(&rest).to_le_bytes());
    head.extend_from_slice(&rest);
    fs::write(&path, head).unwrap();
    dir
}

/// Every legal position a draw but the mates.
fn draws() -> tempfile::TempDir {
    forged(0, 0)
}

/// White wins in 3 plies everywhere, Black loses in 2: the tables' best
/// moves lead round in circles.
fn circles() -> tempfile::TempDir {
    forged(4, 3)
}

/// Runs and expects one line on stderr containing `words`, and exit 2, in
/// a bounded time.
fn refused(args: &[&str], dir: &Path, words: &str) {
    let started = Instant::now();
    let out = run(args, dir);
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "{args:?} took too long"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(words), "{args:?}: {stderr}");
}

#[test]
fn the_forged_files_pass_the_checks_of_a_read() {
    // Loaded without a rebuild: the file is what the walks below meet.
    for dir in [draws(), circles()] {
        let out = run(&["solve", "KRvK", "--json"], dir.path());
        assert!(out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("rebuild"), "{stderr}");
    }
}

#[test]
fn an_audit_against_a_table_that_says_draw_is_refused_in_one_line() {
    let dir = draws();
    // The reproducer: it panicked in perfect.rs.
    refused(
        &["audit", "torres", "--starts", "machine"],
        dir.path(),
        "the KRvK table contradicts the audit: from",
    );
    refused(
        &["audit", "perfect", "--starts", "machine"],
        dir.path(),
        "contradicts the audit",
    );
}

#[test]
fn the_perfect_automaton_misled_into_circles_is_stopped() {
    let dir = circles();
    refused(
        &["audit", "perfect", "--starts", "machine"],
        dir.path(),
        "the KRvK table contradicts the audit: from",
    );
    refused(
        &["selfplay", "perfect"],
        dir.path(),
        "the KRvK table contradicts itself: the tables' game from",
    );
    refused(
        &["selfplay", "perfect", "--defence", "random:1"],
        dir.path(),
        "runs past 3 plies, its distance to mate",
    );
    refused(
        &["probe", "8/8/8/3k4/8/8/1R6/K7 w - - 0 1"],
        dir.path(),
        "contradicts itself",
    );
}

#[test]
fn an_automaton_against_a_misled_defence_still_ends() {
    // The tables pick only Black's moves: the game ends at a repeated
    // position or the move limit, whatever they say.
    let dir = circles();
    for defence in ["perfect", "longest"] {
        let out = run(&["selfplay", "torres", "--defence", defence], dir.path());
        common::assert_success(&out);
        assert!(String::from_utf8_lossy(&out.stdout).contains("[Result"));
    }
}

/// Starts `serve` on the tables of `dir`, sends each GET of `paths` and
/// returns the answers (each within 30 s).
fn served(dir: &Path, paths: &[&str]) -> Vec<String> {
    let server = Serving::start(
        Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
            .args(["serve", "--addr", "127.0.0.1:0", "--tables"])
            .arg(dir),
    );
    paths
        .iter()
        .map(|path| server.get_within(path, Duration::from_secs(30)))
        .collect()
}

#[test]
fn the_server_answers_with_json_over_forged_tables() {
    // The reproducers under `serve`: the audit answered 500 from a
    // panic, the probe never answered.
    let answers = served(draws().path(), &["/api/audit/torres?starts=machine"]);
    assert!(answers[0].starts_with("HTTP/1.1 500"), "{}", answers[0]);
    assert!(
        answers[0].contains("{\"error\":\"the KRvK table contradicts the audit"),
        "{}",
        answers[0]
    );
    let answers = served(
        circles().path(),
        &["/api/probe?fen=8/8/8/3k4/8/8/1R6/K7%20w%20-%20-%200%201"],
    );
    // The server's own file is at fault: 500, as for the audit (issue 29,
    // item 2: it answered 422).
    assert!(answers[0].starts_with("HTTP/1.1 500"), "{}", answers[0]);
    assert!(answers[0].contains("{\"error\":"), "{}", answers[0]);
    assert!(answers[0].contains("contradicts itself"), "{}", answers[0]);
}

/// `solve --check` finds what the forged files say against their moves,
/// prints the disagreements and exits 2 after the JSON; the true file
/// passes.
#[test]
fn solve_check_catches_the_forged_files() {
    for dir in [draws(), circles()] {
        let out = run(&["solve", "KRvK", "--check", "5000", "--json"], dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("positions checked disagree with their moves"),
            "{stderr}"
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["check"]["positions"], 5000);
        assert!(!v["check"]["disagreements"].as_array().unwrap().is_empty());
    }
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["solve", "KRvK", "--check", "5000", "--json"], dir.path());
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["check"]["disagreements"], serde_json::json!([]));
}
