//! `ajedrecista mk61 keys` on the MK-54: the manufacturer's check example
//! shows the trace's displays, and an MK-61-only function shows ЕГГОГ.

use std::process::Command;

mod common;

/// Runs `mk61 keys --model mk54 --json` on `keys`; the displays shown.
fn mk54_displays(keys: &str) -> Vec<String> {
    let (_dir, path) = common::folder_with("keys.txt", keys);
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

/// `mk61 keys --trace`: each executed step with its address, code,
/// mnemonic and stack, before the display of the key that ran it; in JSON
/// under the key's `steps`.
#[test]
fn keys_trace_prints_each_program_step() {
    // A call, a return, a jump and an FL0 loop (R0 = 3).
    let (dir, program) = common::folder_with(
        "program.txt",
        "00. 1  01. В↑  02. ПП  03. 08  04. +  05. БП  06. 10  07. С/П\n\
         08. 2  09. В/О  10. ×  11. FL0  12. 10  13. С/П\n",
    );
    let keys = dir.path().join("keys.txt");
    std::fs::write(&keys, "3 XP 0 9 UP VO SP").unwrap();
    let run = |json: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_ajedrecista"));
        command
            .args(["mk61", "keys", "--trace", "--program"])
            .arg(&program)
            .arg("--keys")
            .arg(&keys);
        if json {
            command.arg("--json");
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };

    let shown: Vec<serde_json::Value> = serde_json::from_str(&run(true)).unwrap();
    assert!(
        shown[..6]
            .iter()
            .all(|key| key["steps"] == serde_json::json!([]))
    );
    let steps = shown[6]["steps"].as_array().unwrap();
    let addresses: Vec<&str> = steps
        .iter()
        .map(|step| step["address"].as_str().unwrap())
        .collect();
    assert_eq!(
        addresses,
        [
            "00", "01", "02", "08", "09", "04", "05", "10", "11", "10", "11", "10", "11", "13"
        ]
    );
    assert_eq!(
        steps[5],
        serde_json::json!({"address": "04", "code": "10", "mnemonic": "+",
            "x": "3", "y": "1", "z": "9", "t": "9", "x1": "2"})
    );
    let last = &steps[13];
    assert_eq!(
        (last["x"].as_str(), last["mnemonic"].as_str()),
        (Some("243"), Some("С/П"))
    );
    assert_eq!(shown[6]["display"], " 243.        ");

    let text = run(false);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7 + 14);
    assert!(
        lines[6].trim_start().starts_with("00 01 1 "),
        "{}",
        lines[6]
    );
    assert!(lines[19].contains("X 243 "), "{}", lines[19]);
    assert!(lines[20].starts_with("SP   | 243."), "{}", lines[20]);
}

/// The interactive `mk61 --trace` prints the steps a key runs before the
/// display.
#[test]
fn interactive_trace_prints_the_steps() {
    use std::io::Write;
    let (_dir, program) = common::folder_with("program.txt", "00. 2  01. ×  02. С/П\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(["mk61", "--trace", "--program"])
        .arg(&program)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"7 UP VO SP\n:quit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let steps: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("   0"))
        .collect();
    assert_eq!(steps.len(), 3, "{text}");
    assert!(
        steps[1].contains(" 12 × ") && steps[1].contains("X 14 "),
        "{text}"
    );
    assert!(text.contains("| 14         |"), "{text}");
}
