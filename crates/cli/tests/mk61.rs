//! `ajedrecista mk61 keys` on the MK-54: the manufacturer's check example
//! shows the trace's displays, and an MK-61-only function shows ЕГГОГ.

use std::process::Command;

/// Runs `mk61 keys --model mk54 --json` on `keys`; the displays shown.
fn mk54_displays(keys: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("keys.txt");
    std::fs::write(&path, keys).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(["mk61", "keys", "--model", "mk54", "--json", "--keys"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let shown: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    shown
        .iter()
        .map(|line| line["display"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_mk54_check_example_shows_the_manuals_displays() {
    let trace = include_str!("../../mk61/tests/data/traces/selftest_manual.keys.tsv");
    let lines: Vec<Vec<&str>> = trace
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| line.split('\t').collect())
        .collect();
    let keys: Vec<&str> = lines.iter().map(|columns| columns[2]).collect();
    let shown = mk54_displays(&keys.join(" "));
    assert_eq!(shown.len(), lines.len());
    for (columns, display) in lines.iter().zip(&shown) {
        if columns[4] != "-" {
            assert_eq!(
                format!("|{display}|"),
                columns[4],
                "trace line {}",
                columns[0]
            );
        }
    }
}

#[test]
fn an_mk61_function_on_the_mk54_shows_error() {
    let shown = mk54_displays("2 UP 3 K 7");
    assert_eq!(shown.last().unwrap(), " EГГ0Г      ");
}
