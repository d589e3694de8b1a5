//! `solve --node STEP`: one step of a build plan (a table, or a group of
//! the slices of a table with pawns) built alone, as a process of its own,
//! from the files of what it reads.

use std::{sync::atomic::AtomicBool, time::Instant};

use ajedrecista_tables::{Step, Tablebase, Variant};
use anyhow::Context;
use serde::Serialize;

use crate::output::outln;

use super::solve_plan;

/// `--node`: one step built alone from the files of what it reads; any
/// of the tables missing is an error naming them (the slices a group
/// reads, the tables crate names).
pub(super) fn node(
    tb: &Tablebase,
    step: &Step,
    variant: Variant,
    json: bool,
) -> anyhow::Result<()> {
    if tb.dir().is_none() {
        anyhow::bail!("--node builds into a cache folder: give --tables DIR");
    }
    let material = step.material();
    if variant != Variant::Standard && !matches!(step, Step::Table(_)) {
        anyhow::bail!("{material}: the fixed-king game has no pawns");
    }
    let plan = tb.plan(std::slice::from_ref(material), variant);
    let this = plan
        .node(material, variant)
        .expect("a plan holds the table it was made for");
    let slices = match step {
        Step::Table(_) => None,
        Step::Slices { level, group, .. } => Some(
            this.slices
                .as_ref()
                .and_then(|slices| slices.steps.get(*level)?.get(*group))
                .with_context(|| {
                    format!(
                        "{step}: {} has no such group of slices (solve {} --plan lists its levels and groups)",
                        this.material, this.material
                    )
                })?,
        ),
    };
    let missing: Vec<String> = this
        .reads
        .iter()
        .filter(|read| !tb.in_cache_folder(&read.material, variant))
        .map(|read| read.material.to_string())
        .collect();
    if !missing.is_empty() {
        anyhow::bail!(
            "{}: its build reads {}, not in the cache folder (build them first with --node, in the order of --plan, or drop --node to build every table it needs)",
            this.material,
            missing.join(", ")
        );
    }
    solve_plan::enough_memory(std::iter::once(this), 1)?;
    let start = Instant::now();
    match step {
        Step::Table(_) => tb.build_node(material, variant, &AtomicBool::new(false))?,
        Step::Slices { .. } => tb.build_step(step, &AtomicBool::new(false))?,
    }
    if let Some(slices) = slices {
        let out = SlicesBuiltJson {
            step: step.to_string(),
            slices: slices.clone(),
            seconds: start.elapsed().as_secs_f64(),
        };
        if json {
            return crate::output::print_json(&out);
        }
        outln!(
            "{}: slices {} kept in the cache folder's journal of {} ({:.1} s)",
            out.step,
            slices
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            this.material,
            out.seconds
        );
    }
    Ok(())
}

/// `solve --node` of a group of slices.
#[derive(Serialize)]
struct SlicesBuiltJson {
    step: String,
    slices: Vec<usize>,
    seconds: f64,
}
