//! `solve --plan` and `solve --node`: the plan builds nothing, and a table
//! built node by node, each node a process of its own, has the bytes of
//! one `solve`.

mod common;

use std::{collections::BTreeMap, fs, path::Path};

use common::{assert_success, json, run};

/// The files of a folder, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, fs::read(entry.path()).unwrap())
        })
        .collect()
}

#[test]
fn a_five_man_pawn_table_built_node_by_node_has_the_bytes_of_one_solve() {
    let material = "KNNvKP";
    let by_nodes = tempfile::tempdir().unwrap();
    let plan = json(&["solve", material, "--plan", "--json"], by_nodes.path());
    assert!(files(by_nodes.path()).is_empty(), "the plan built nothing");
    let nodes: Vec<&str> = plan["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|node| node["material"].as_str().unwrap())
        .collect();
    assert_eq!(nodes.last(), Some(&material));
    assert_eq!(plan["to_build"].as_u64(), Some(nodes.len() as u64));
    // Each node reads tables before it only.
    for (i, node) in plan["nodes"].as_array().unwrap().iter().enumerate() {
        for read in node["reads"].as_array().unwrap() {
            let read = read["material"].as_str().unwrap();
            assert!(nodes[..i].contains(&read), "{}: {read}", nodes[i]);
        }
    }
    // A node whose tables are not there yet is refused, naming one.
    let refused = run(&["solve", material, "--node"], by_nodes.path());
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("which is not in the cache folder"),
        "{stderr}"
    );
    assert!(files(by_nodes.path()).is_empty());

    for (i, node) in nodes.iter().enumerate() {
        assert_success(&run(&["solve", node, "--node", "--json"], by_nodes.path()));
        // It wrote its own file and no other.
        assert_eq!(files(by_nodes.path()).len(), i + 1, "{node}");
    }
    let replanned = json(&["solve", material, "--plan", "--json"], by_nodes.path());
    assert_eq!(replanned["to_build"].as_u64(), Some(0));

    let whole = tempfile::tempdir().unwrap();
    assert_success(&run(&["solve", material, "--json"], whole.path()));
    let (built, solved) = (files(by_nodes.path()), files(whole.path()));
    assert_eq!(
        built.keys().collect::<Vec<_>>(),
        solved.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &built {
        assert!(*bytes == solved[name], "{name} differs");
    }
}
