//! `ajedrecista solve MATERIAL --plan`: the build plan, printed without
//! building anything, and the memory check before a build, which reads it.

use ajedrecista_tables::{BuildPlan, Node, Reading, Variant};
use serde::Serialize;
use shakmaty::Color;

use crate::output::outln;

#[derive(Serialize)]
pub struct PlanJson {
    material: String,
    fixed_king: Option<String>,
    /// Built into the cache folder (a table with pawns slice by slice).
    into_file: bool,
    nodes: Vec<NodeJson>,
    to_build: usize,
    peak_bytes: u64,
    file_bytes: u64,
}

#[derive(Serialize)]
struct NodeJson {
    material: String,
    cached: bool,
    numbers_per_side: u64,
    reads: Vec<ReadJson>,
    slices: Option<SlicesJson>,
    peak_bytes: u64,
    file_bytes: u64,
}

#[derive(Serialize)]
struct ReadJson {
    material: String,
    sides: Vec<&'static str>,
    reading: &'static str,
    /// `captures`, or the colour whose promotions read it.
    during: &'static str,
}

#[derive(Serialize)]
struct SlicesJson {
    count: usize,
    numbers_each: usize,
    levels: Vec<Vec<Vec<usize>>>,
    gathered: Vec<Vec<usize>>,
    steps: Vec<Vec<Vec<usize>>>,
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl PlanJson {
    pub fn new(material: &str, variant: Variant, into_file: bool, plan: &BuildPlan) -> PlanJson {
        PlanJson {
            material: material.to_string(),
            fixed_king: match variant {
                Variant::FixedKing(sq) => Some(sq.to_string()),
                Variant::Standard => None,
            },
            into_file,
            nodes: plan.nodes.iter().map(NodeJson::new).collect(),
            to_build: plan.to_build().count(),
            peak_bytes: plan.peak_bytes(),
            file_bytes: plan.file_bytes(),
        }
    }
}

impl NodeJson {
    fn new(node: &Node) -> NodeJson {
        NodeJson {
            material: node.material.to_string(),
            cached: node.cached,
            numbers_per_side: node.numbers,
            reads: node
                .reads
                .iter()
                .map(|read| ReadJson {
                    material: read.material.to_string(),
                    sides: read.sides.iter().map(|&c| side_name(c)).collect(),
                    reading: match read.reading {
                        Reading::Whole => "whole",
                        Reading::Sides => "sides",
                        Reading::ByBlocks => "by_blocks",
                    },
                    during: match read.promotions {
                        None => "captures",
                        Some(Color::White) => "white_promotions",
                        Some(Color::Black) => "black_promotions",
                    },
                })
                .collect(),
            slices: node.slices.as_ref().map(|slices| SlicesJson {
                count: slices.count,
                numbers_each: slices.numbers_each,
                levels: slices.levels.clone(),
                gathered: slices.gathered.clone(),
                steps: slices.steps.clone(),
            }),
            peak_bytes: node.peak_bytes,
            file_bytes: node.file_bytes,
        }
    }
}

/// Bytes for people: MiB or GiB, one decimal.
fn bytes(n: u64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    const GIB: f64 = (1u64 << 30) as f64;
    let n = n as f64;
    if n >= GIB {
        format!("{:.1} GiB", n / GIB)
    } else {
        format!("{:.1} MiB", n / MIB)
    }
}

/// The plan as an aligned table: each table in build order, what it
/// reads, its slices, and its estimates.
pub fn print(plan: &PlanJson) -> anyhow::Result<()> {
    let variant = plan
        .fixed_king
        .as_ref()
        .map_or(String::new(), |sq| format!(" (white king fixed on {sq})"));
    outln!(
        "{}{variant}: {} tables, {} to build{}",
        plan.material,
        plan.nodes.len(),
        plan.to_build,
        if plan.into_file {
            " into the cache folder"
        } else {
            " in memory"
        }
    );
    outln!();
    let width = plan
        .nodes
        .iter()
        .map(|n| n.material.len())
        .max()
        .unwrap_or(5)
        .max(5);
    outln!(
        "{:>3}  {:<width$}  {:>15}  {:>8}  {:>11}  {:>11}  {:<7}  reads",
        "#",
        "table",
        "numbers/side",
        "slices",
        "peak memory",
        "file, most",
        "state"
    );
    for (i, node) in plan.nodes.iter().enumerate() {
        let reads: Vec<String> = node
            .reads
            .iter()
            .map(|read| {
                let how = match read.reading {
                    "by_blocks" => " by blocks",
                    "sides" if read.sides.len() == 1 => {
                        if read.sides[0] == "white" {
                            " white"
                        } else {
                            " black"
                        }
                    }
                    _ => "",
                };
                format!("{}{how}", read.material)
            })
            .collect();
        outln!(
            "{:>3}  {:<width$}  {:>15}  {:>8}  {:>11}  {:>11}  {:<7}  {}",
            i + 1,
            node.material,
            node.numbers_per_side,
            node.slices
                .as_ref()
                .map_or("-".to_string(), |s| s.count.to_string()),
            if node.cached {
                "-".to_string()
            } else {
                bytes(node.peak_bytes)
            },
            if node.cached {
                "-".to_string()
            } else {
                bytes(node.file_bytes)
            },
            if node.cached { "cached" } else { "build" },
            if reads.is_empty() {
                "-".to_string()
            } else {
                reads.join(", ")
            }
        );
    }
    outln!();
    outln!(
        "estimated peak memory {} (builds run one at a time); files at most {}",
        bytes(plan.peak_bytes),
        bytes(plan.file_bytes)
    );
    Ok(())
}

/// Refuses builds whose largest (of `nodes`, those still to build),
/// `tables` times over (tables held together), would not fit in the memory available now, rather than be
/// killed by the system hours into a six-man build. Where the memory
/// available is not known (no /proc/meminfo), it lets the build try.
pub fn enough_memory<'a>(nodes: impl Iterator<Item = &'a Node>, tables: u64) -> anyhow::Result<()> {
    let Some(largest) = nodes
        .filter(|node| !node.cached)
        .max_by_key(|node| node.peak_bytes)
    else {
        return Ok(());
    };
    let needed = tables * largest.peak_bytes;
    let held = if largest.slices.is_some() {
        "slice by slice: the slices built and kept, the promotions gathered, the tables \
         its moves lead into"
    } else {
        "a byte a position, both sides to move"
    };
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| memory_available(&info));
    match available {
        Some(available) if available < needed => anyhow::bail!(
            "{}: its tables need {:.1} GB of memory ({held}), and {:.1} GB are available",
            largest.material,
            needed as f64 / 1e9,
            available as f64 / 1e9
        ),
        _ => Ok(()),
    }
}

/// `MemAvailable` of /proc/meminfo, in bytes.
fn memory_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::memory_available;

    #[test]
    fn reads_the_memory_available() {
        let meminfo = "MemTotal:       24551004 kB\nMemFree:        12000000 kB\nMemAvailable:   21000000 kB\n";
        assert_eq!(memory_available(meminfo), Some(21_000_000 * 1024));
        assert_eq!(memory_available("MemTotal: 1 kB\n"), None);
        assert_eq!(memory_available("MemAvailable: lots\n"), None);
    }
}
