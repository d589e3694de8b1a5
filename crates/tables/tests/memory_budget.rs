//! What probes keep in memory stays under one budget: chunks of files,
//! tables and slices alike; a table whose only copy is in memory is kept
//! whatever the budget.

use std::sync::{Arc, Mutex};

use ajedrecista_tables::{Event, Material, Table, Tablebase, Variant};
use shakmaty::{Chess, Color};

const MIB: usize = 1 << 20;

/// Positions of `material`, the kings and men put square by square: a
/// spread over the table's chunks.
fn positions(material: &str, count: usize) -> Vec<Chess> {
    let material: Material = material.parse().unwrap();
    let table = Tablebase::in_memory()
        .table(&material, Variant::Standard)
        .unwrap();
    let size = Table::numbers_per_side(&material, Variant::Standard);
    (0..size)
        .step_by(size / count)
        .filter_map(|index| table.position(index, Color::White))
        .take(count)
        .collect()
}

#[test]
fn probes_of_files_keep_at_most_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let materials = ["KBNvK", "KRvKN", "KQvKB"];
    let writer = Tablebase::new(Some(dir.path().to_path_buf()));
    for material in materials {
        writer
            .prepare(
                &material.parse().unwrap(),
                Variant::Standard,
                &Default::default(),
            )
            .unwrap();
    }
    let budget = 2 * MIB;
    let bounded = Tablebase::new(Some(dir.path().to_path_buf())).memory_budget(budget);
    let whole = Tablebase::in_memory();
    let mut most = 0;
    for material in materials {
        for pos in positions(material, 60) {
            let value = bounded.probe(&pos, Variant::Standard).unwrap();
            assert_eq!(value, whole.probe(&pos, Variant::Standard).unwrap());
            most = most.max(bounded.prober().memory_held());
        }
    }
    // A chunk is at most a MiB: the budget is reached, never passed.
    assert!(most > budget / 2 && most <= budget, "held {most} bytes");
}

#[test]
fn a_table_only_in_memory_is_kept_whatever_the_budget() {
    let builds = Arc::new(Mutex::new(Vec::new()));
    let counted = Arc::clone(&builds);
    let tb = Tablebase::in_memory()
        .memory_budget(1)
        .on_event(move |event| {
            if let Event::Built { material, .. } = event {
                counted.lock().unwrap().push(material.to_string());
            }
        });
    let krk = positions("KRvK", 20);
    let kqk = positions("KQvK", 20);
    for pos in krk.iter().chain(&kqk).chain(&krk) {
        tb.probe(pos, Variant::Standard).unwrap();
    }
    // KvK, which captures lead into, and the two tables, each built once.
    let mut built = builds.lock().unwrap().clone();
    built.sort();
    assert_eq!(built, ["KQvK", "KRvK", "KvK"]);
    assert!(tb.prober().memory_held() > 1);
}
