//! `ajedrecista classify`: the classification of many final positions.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ajedrecista_coding::read_positions;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};
use shakmaty::EnPassantMode;
use shakmaty::fen::Fen;

use super::code::Analysis;

/// Arguments of `ajedrecista classify`.
#[derive(clap::Args)]
pub struct Args {
    /// A file of FEN/EPD lines, or of PGN games (their final positions).
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Class, group and subgroup: the rows of the table.
type GroupKey = (String, String, String);

pub fn run(args: Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let entries = read_positions(&text);
    let bar = ProgressBar::new(entries.len() as u64).with_style(
        ProgressStyle::with_template("classify [{bar:40}] {pos}/{len} positions")?
            .progress_chars("=> "),
    );
    let mut classified: Vec<(String, Analysis)> = Vec::new();
    let mut skipped: Vec<(String, String)> = Vec::new();
    for entry in bar.wrap_iter(entries.into_iter()) {
        match entry.position {
            Err(reason) => skipped.push((entry.source, reason)),
            Ok(position) => {
                let fen = Fen::from_position(&position, EnPassantMode::Legal).to_string();
                let analysis = Analysis::of(fen, position);
                match &analysis.outcome {
                    Err(reason) => skipped.push((entry.source, reason.clone())),
                    Ok((_, Err(error))) => skipped.push((entry.source, error.to_string())),
                    Ok((_, Ok(_))) => classified.push((entry.source, analysis)),
                }
            }
        }
    }
    bar.finish_and_clear();
    // Group: (class, group, subgroup) -> kind -> count.
    let mut groups: BTreeMap<GroupKey, BTreeMap<String, u64>> = BTreeMap::new();
    for (_, analysis) in &classified {
        if let Ok((_, Ok(etalon))) = &analysis.outcome {
            let class = etalon.code().classification();
            *groups
                .entry((class.class, class.group, class.subgroup))
                .or_default()
                .entry(class.kind)
                .or_default() += 1;
        }
    }
    if args.json {
        let report = json!({
            "positions": classified.len() + skipped.len(),
            "classified": classified.len(),
            "groups": groups.iter().map(|((class, group, subgroup), kinds)| json!({
                "class": class, "group": group, "subgroup": subgroup,
                "count": kinds.values().sum::<u64>(),
                "kinds": kinds.iter().map(|(kind, count)| json!({"kind": kind, "count": count})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "entries": classified.iter().map(|(source, analysis)| {
                let mut object = analysis.to_json();
                if let Value::Object(map) = &mut object {
                    map.insert("source".to_owned(), json!(source));
                }
                object
            }).collect::<Vec<_>>(),
            "skipped": skipped.iter().map(|(source, reason)| json!({"source": source, "reason": reason})).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    print_table(&groups);
    println!(
        "\n{} positions: {} classified, {} skipped",
        classified.len() + skipped.len(),
        classified.len(),
        skipped.len()
    );
    for (source, reason) in &skipped {
        println!("  skipped {source}: {reason}");
    }
    Ok(())
}

fn print_table(groups: &BTreeMap<GroupKey, BTreeMap<String, u64>>) {
    let row = |cells: [&str; 5]| cells.map(str::to_owned);
    let mut rows = vec![row(["class", "group", "subgroup", "kind", "count"])];
    for ((class, group, subgroup), kinds) in groups {
        for (kind, count) in kinds {
            rows.push(row([class, group, subgroup, kind, &count.to_string()]));
        }
        if kinds.len() > 1 {
            let total: u64 = kinds.values().sum();
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
        println!("{line}");
    }
}
