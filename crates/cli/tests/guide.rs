//! The user guide's transcripts (docs/guide/src, issue 59): every
//! ```` ```console ```` block of its pages is run with the binary built
//! here, and what it prints (stdout and stderr together) must be what the
//! page shows (trycmd: `...` on a line of its own stands for lines left
//! out, `[..]` for part of a line, such as a timing; `? failed` for a
//! non-zero exit). The commands run from the workspace's root, as a
//! reader of the guide runs them from a checkout, with `ajedrecista` on
//! the PATH. Each page starts with an empty table folder of its own, so
//! that what a command says about the tables (built now, or found) does
//! not depend on another page; its commands run in order. A block that is
//! not to be run (a six-man build) is ```` ```sh ````.
//!
//! After a change of the output: `TRYCMD=overwrite cargo test -p
//! ajedrecista-cli --test guide` writes what the commands print into the
//! pages (then put back the `...` and `[..]` where the output varies).

use std::path::{Path, PathBuf};

#[test]
fn every_command_in_the_guide_prints_what_the_guide_shows() {
    let binary = Path::new(env!("CARGO_BIN_EXE_ajedrecista"));
    let path = std::env::join_paths(
        std::iter::once(binary.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap();
    let pages = pages(Path::new("docs/guide/src"));
    assert!(pages.len() > 20, "{pages:?}");
    for page in pages {
        let tables = tempfile::tempdir().unwrap();
        trycmd::TestCases::new()
            .register_bin("ajedrecista", binary)
            .register_bin("sh", Path::new("/bin/sh"))
            .env("AJEDRECISTA_TABLES", tables.path().display().to_string())
            .env("AJEDRECISTA_SYZYGY", "")
            .env("PATH", path.to_string_lossy().into_owned())
            .case(page)
            .run();
    }
}

/// The Markdown pages under `dir`, in order.
fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            pages.extend(self::pages(&path));
        } else if path.extension().is_some_and(|extension| extension == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    pages
}
