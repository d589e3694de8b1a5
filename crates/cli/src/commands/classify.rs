//! `ajedrecista classify`: the classification of many final positions.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ajedrecista_coding::code::Classification;
use ajedrecista_coding::symbol::{Mark, Symbol};
use ajedrecista_coding::{Coded, read_positions, rules_named};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use super::code::Render;
use crate::output::outln;

/// Arguments of `ajedrecista classify`.
#[derive(clap::Args)]
pub struct Args {
    /// A file of FEN/EPD lines (extended FEN for fairy units), or of PGN
    /// games (their final positions).
    file: PathBuf,
    /// A fairy condition for every position: circe, nocapture, grid,
    /// ingul, maximummer (repeat for several).
    #[arg(long = "condition", value_name = "NAME")]
    conditions: Vec<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Class, group and subgroup: the rows of the table, in the brochure's
/// order of symbols.
type GroupKey = (Vec<Symbol>, (Vec<Symbol>, usize), Mark);

/// The key and the printed texts of a classification's row.
fn row_key(class: &Classification) -> GroupKey {
    (
        class.class.clone(),
        (class.group.clone(), class.attacked_kings),
        class.subgroup.clone(),
    )
}

/// The kind, ordered as the brochure orders symbols.
type KindKey = (Vec<Vec<Mark>>, String);

/// The most positions one run classifies: each classified position is
/// kept until the report is printed, with `--json` its object (about
/// 6 KB: 50 000 mates took 620 MB at 100 000), under the 1 GiB budget with
/// room for larger positions.
const MAX_POSITIONS: usize = 50_000;

pub fn run(args: Args) -> anyhow::Result<()> {
    let bytes = crate::input::read_bytes_file(&args.file)?;
    let rules = rules_named(&args.conditions)?;
    let entries = read_positions(&bytes, MAX_POSITIONS)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    drop(bytes);
    let bar = ProgressBar::new(entries.len() as u64).with_style(
        ProgressStyle::with_template("classify [{bar:40}] {pos}/{len} positions")?
            .progress_chars("=> "),
    );
    // With --json each position's object, made at once; the analysis is
    // not kept.
    let mut classified: Vec<(String, Option<Value>, Classification)> = Vec::new();
    let mut skipped: Vec<(String, String)> = Vec::new();
    for entry in bar.wrap_iter(entries.into_iter()) {
        let source = entry.source.clone();
        match Coded::of_entry(entry, &rules) {
            Err(error) => skipped.push((source, error.to_string())),
            Ok(coded) => match coded.classification() {
                Err(reason) => skipped.push((source, reason.to_string())),
                Ok(class) => {
                    let object = args.json.then(|| coded.to_json());
                    classified.push((source, object, class));
                }
            },
        }
    }
    bar.finish_and_clear();
    // Group: (class, group, subgroup) -> kind -> count.
    let mut groups: Groups = BTreeMap::new();
    for (_, _, class) in &classified {
        let row = groups
            .entry(row_key(class))
            .or_insert_with(|| (class.clone(), BTreeMap::new()));
        row.1
            .entry((class.kind_b.clone(), class.kind_c.clone()))
            .or_insert_with(|| (class.kind_text(), 0))
            .1 += 1;
    }
    if args.json {
        let report = json!({
            "positions": classified.len() + skipped.len(),
            "classified": classified.len(),
            "groups": groups.values().map(|(class, kinds)| json!({
                "class": class.class_text(), "group": class.group_text(),
                "subgroup": class.subgroup_text(),
                "count": kinds.values().map(|(_, count)| count).sum::<u64>(),
                "kinds": kinds.values().map(|(kind, count)| json!({"kind": kind, "count": count})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "entries": classified.into_iter().filter_map(|(source, object, _)| {
                let mut object = object?;
                if let Value::Object(map) = &mut object {
                    map.insert("source".to_owned(), json!(source));
                }
                Some(object)
            }).collect::<Vec<_>>(),
            "skipped": skipped.iter().map(|(source, reason)| json!({"source": source, "reason": reason})).collect::<Vec<_>>(),
        });
        crate::output::print_json(&report)?;
        return Ok(());
    }
    print_table(&groups)?;
    outln!(
        "\n{} positions: {} classified, {} skipped",
        classified.len() + skipped.len(),
        classified.len(),
        skipped.len()
    );
    for (source, reason) in &skipped {
        outln!("  skipped {source}: {reason}");
    }
    Ok(())
}

type Groups = BTreeMap<GroupKey, (Classification, BTreeMap<KindKey, (String, u64)>)>;

fn print_table(groups: &Groups) -> anyhow::Result<()> {
    let row = |cells: [&str; 5]| cells.map(str::to_owned);
    let mut rows = vec![row(["class", "group", "subgroup", "kind", "count"])];
    for (class, kinds) in groups.values() {
        let (class_text, group, subgroup) = (
            class.class_text(),
            class.group_text(),
            class.subgroup_text(),
        );
        for (kind, count) in kinds.values() {
            rows.push(row([
                &class_text,
                &group,
                &subgroup,
                kind,
                &count.to_string(),
            ]));
        }
        if kinds.len() > 1 {
            let total: u64 = kinds.values().map(|(_, count)| count).sum();
            rows.push(row(["", "", "", "(subgroup total)", &total.to_string()]));
        }
    }
    let widths: Vec<usize> = (0..5)
        .map(|column| {
            rows.iter()
                .map(|row| row[column].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[column] - cell.chars().count());
            if column == 4 {
                line += &format!("{pad}{cell}");
            } else {
                line += &format!("{cell}{pad}  ");
            }
        }
        outln!("{line}");
    }
    Ok(())
}
