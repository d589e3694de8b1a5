//! `solve --plan` and `solve --node`: the plan builds nothing, and a table
//! built node by node, each node a process of its own, has the bytes of
//! one `solve` (recorded in tests/data/knnvkp_files.txt).

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
    // A node whose tables are not there yet is refused, naming them.
    let refused = run(&["solve", "--node", material], by_nodes.path());
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("not in the cache folder"), "{stderr}");
    for read in ["KNNvKQ", "KNNvKR", "KNvKP"] {
        assert!(stderr.contains(read), "{read}: {stderr}");
    }
    assert!(files(by_nodes.path()).is_empty());

    for (i, node) in nodes.iter().enumerate() {
        assert_success(&run(&["solve", "--node", node, "--json"], by_nodes.path()));
        // It wrote its own file and no other.
        assert_eq!(files(by_nodes.path()).len(), i + 1, "{node}");
    }
    let replanned = json(&["solve", material, "--plan", "--json"], by_nodes.path());
    assert_eq!(replanned["to_build"].as_u64(), Some(0));

    let recorded: BTreeMap<String, (usize, u32)> = include_str!("data/knnvkp_files.txt")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let crc = u32::from_str_radix(fields[2], 16).unwrap();
            (fields[0].to_string(), (fields[1].parse().unwrap(), crc))
        })
        .collect();
    let built = files(by_nodes.path());
    assert_eq!(
        built.keys().collect::<Vec<_>>(),
        recorded.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &built {
        let found = (bytes.len(), crc32fast::hash(bytes));
        assert_eq!(found, recorded[name], "{name} differs from one solve's");
    }
}
