//! Names the commit the binary is built from, for `ajedrecista --version`:
//! from git in a checkout, else from the `.cargo_vcs_info.json` that
//! `cargo package` writes into a published crate, else "unknown".

use std::{path::Path, process::Command};

fn main() {
    let commit = from_git()
        .or_else(from_package)
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=AJEDRECISTA_COMMIT={commit}");
    // A new commit or checkout changes HEAD or the branch it points to.
    for file in [
        "../../.git/HEAD",
        "../../.git/refs/heads",
        "../../.git/packed-refs",
    ] {
        if Path::new(file).exists() {
            println!("cargo:rerun-if-changed={file}");
        }
    }
}

fn from_git() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()?;
    let commit = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (out.status.success() && !commit.is_empty()).then_some(commit)
}

fn from_package() -> Option<String> {
    let text = std::fs::read_to_string(".cargo_vcs_info.json").ok()?;
    let at = text.find("\"sha1\"")?;
    let rest = &text[at + 6..];
    let start = rest.find('"')? + 1;
    let sha = &rest[start..start + rest[start..].find('"')?];
    Some(sha.chars().take(12).collect())
}
