//! Builds tables from scratch and prints the seconds and peak memory of each.
//!
//! `cargo bench -p ajedrecista-tables --bench build [-- MATERIAL...]`
//!
//! Each material is built in a fresh process (this program run again with
//! `--one`), so that the peak resident memory is that build's own (with the
//! tables its moves lead into, which a build holds in memory). The time is
//! the table's own build; the tables its captures and promotions lead into
//! are built first and not counted. A material with pawns is built as its
//! canonical twin.

use std::{process::Command, time::Instant};

use ajedrecista_tables::{Material, Progress, Tablebase, Variant, build};

const DEFAULT: [&str; 10] = [
    "KRvK", "KQvK", "KBNvK", "KQvKR", "KQRvKR", "KPvK", "KQvKP", "KRvKP", "KPvKP", "KQPvK",
];

/// Peak resident memory of this process, in MiB, from /proc.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn one(material: &str) {
    let material = material.parse::<Material>().expect("a material");
    let material = if material.has_pawns() {
        material.canonical()
    } else {
        material
    };
    let tb = Tablebase::in_memory();
    let subtables = tb
        .subtables(&material, Variant::Standard)
        .expect("subtables");
    // Best of three for the small tables, one run for the large.
    let runs = if material.len() < 5 { 3 } else { 1 };
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        let first_rank = std::sync::OnceLock::new();
        let table = build(&material, Variant::Standard, subtables.clone(), &|p| {
            if matches!(p, Progress::Rank { .. }) {
                first_rank.get_or_init(|| start.elapsed().as_secs_f64());
            }
            std::ops::ControlFlow::Continue(())
        })
        .expect("build");
        if runs == 1 {
            eprintln!(
                "  first pass {:.3} s",
                first_rank.get().copied().unwrap_or(f64::NAN)
            );
        }
        best = best.min(start.elapsed().as_secs_f64());
        std::hint::black_box(table);
    }
    println!(
        "{:<8} {:>10.3} s {:>10.1} MiB",
        material.to_string(),
        best,
        peak_mib().unwrap_or(f64::NAN)
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("--one") {
        one(&args[1]);
        return;
    }
    let materials: Vec<&str> = if args.is_empty() {
        DEFAULT.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    println!("{:<8} {:>12} {:>14}", "table", "build", "peak memory");
    let exe = std::env::current_exe().expect("own path");
    for material in materials {
        let status = Command::new(&exe)
            .args(["--one", material])
            .status()
            .expect("run");
        assert!(status.success(), "{material} failed");
    }
}
