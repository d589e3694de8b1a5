//! What the command-line tests share: running the binary and reading its
//! JSON.

use std::path::Path;
use std::process::{Command, Output};

/// Runs the binary with `args`; with `tables`, its table folder is there.
pub fn run<'a>(args: &[&str], tables: impl Into<Option<&'a Path>>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ajedrecista"));
    command.args(args);
    if let Some(tables) = tables.into() {
        command.env("AJEDRECISTA_TABLES", tables);
    }
    command.output().expect("the binary runs")
}

/// The JSON a command that succeeds prints.
pub fn json<'a>(args: &[&str], tables: impl Into<Option<&'a Path>>) -> serde_json::Value {
    let out = run(args, tables);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}
