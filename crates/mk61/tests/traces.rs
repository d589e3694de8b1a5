//! Replays every reference trace key by key and compares the display after
//! every key, programming mode included.

use ajedrecista_mk61::{AngleUnit, Calculator, Display, Key, Model};

struct Step {
    line: usize,
    token: String,
    display: Option<Display>,
    ran: bool,
}

fn read_trace(text: &str) -> Vec<Step> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.starts_with('#') && !line.is_empty())
        .map(|(number, line)| {
            let columns: Vec<&str> = line.split('\t').collect();
            let display = columns[4];
            Step {
                line: number + 1,
                token: columns[2].to_owned(),
                display: (display != "-")
                    .then(|| display.trim_matches('|').parse().expect("trace display")),
                ran: columns.get(5) == Some(&"ran"),
            }
        })
        .collect()
}

fn replay(name: &str, text: &str) {
    replay_on(Model::Mk61, name, text);
}

fn replay_on(model: Model, name: &str, text: &str) {
    let steps = read_trace(text);
    let first_unit: AngleUnit = steps[0]
        .token
        .parse()
        .expect("traces start with the switch");
    let mut calculator = Calculator::of_model(model, first_unit);
    let mut mismatches = Vec::new();
    for step in &steps[1..] {
        if let Ok(unit) = step.token.parse::<AngleUnit>() {
            calculator.set_switch(unit);
            continue;
        }
        let key: Key = step.token.parse().expect("trace key token");
        let press = calculator.press(key);
        let expected = step.display.expect("a key press has a display");
        if press.display != expected || press.ran() != step.ran {
            mismatches.push(format!(
                "{name}:{} {}: expected |{expected}|{}, got |{}|{}",
                step.line,
                step.token,
                if step.ran { " ran" } else { "" },
                press.display,
                if press.ran() { " ran" } else { "" },
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

macro_rules! trace_test {
    ($test:ident, $file:literal) => {
        #[test]
        fn $test() {
            replay($file, include_str!(concat!("data/traces/", $file)));
        }
    };
}

trace_test!(selftest_manual, "selftest_manual.keys.tsv");
trace_test!(queen_game_11, "queen_game_11.keys.tsv");
trace_test!(queen_game_a8, "queen_game_a8.keys.tsv");
trace_test!(rook_game1, "rook_game1.keys.tsv");

/// The manufacturer's check example is in the MK-54's manual as in the
/// MK-61's (the trace's key sequence, as sergev/mk-61 transcribed it): on
/// the ring without the ИК1306 every key shows the same display.
#[test]
fn selftest_manual_on_the_mk54() {
    replay_on(
        Model::Mk54,
        "selftest_manual.keys.tsv (MK-54)",
        include_str!("data/traces/selftest_manual.keys.tsv"),
    );
}
