//! `ajedrecista enumerate`: every mate or stalemate with given material.

use std::fmt;

use crate::output::outln;
use ajedrecista_coding::{
    Census, CensusPlan, Enumeration, FinalKind, Legality, OrthodoxChoices, Selection,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

/// Arguments of `ajedrecista enumerate`.
#[derive(clap::Args)]
pub struct Args {
    /// The material, white men then `v` then black men: KQvK, KBNvK, KQvKP;
    /// fairy units by their extended-FEN letters: KGGvK (grasshoppers),
    /// KDvK (dragon), `*` royal, `!` armoured king.
    material: String,
    /// A fairy condition: circe, nocapture, grid, ingul, maximummer
    /// (repeat for several).
    #[arg(long = "condition", value_name = "NAME")]
    conditions: Vec<String>,
    /// Stalemates instead of mates.
    #[arg(long)]
    stalemate: bool,
    /// Group only the ideal positions by etalon code.
    #[arg(long, conflicts_with = "model")]
    ideal: bool,
    /// Group the model positions (ideal ones included) by etalon code (the
    /// default).
    #[arg(long)]
    model: bool,
    /// Which positions count: board (legal as a diagram), last-move (a legal
    /// last move of White leads to it), last-move-in-material (one that is
    /// neither a capture nor a promotion).
    #[arg(long, value_enum, default_value_t = LegalityArg::Board)]
    legality: LegalityArg,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LegalityArg {
    Board,
    LastMove,
    LastMoveInMaterial,
}

impl LegalityArg {
    fn legality(self) -> Legality {
        match self {
            LegalityArg::Board => Legality::Board,
            LegalityArg::LastMove => Legality::LastMove,
            LegalityArg::LastMoveInMaterial => Legality::LastMoveInMaterial,
        }
    }

    fn name(self) -> &'static str {
        match self {
            LegalityArg::Board => "board",
            LegalityArg::LastMove => "last-move",
            LegalityArg::LastMoveInMaterial => "last-move-in-material",
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let kind = if args.stalemate {
        FinalKind::Stalemate
    } else {
        FinalKind::Mate
    };
    let choices = OrthodoxChoices {
        legality: args.legality.legality(),
        selection: if args.ideal {
            Selection::Ideal
        } else {
            Selection::Model
        },
        given: args.ideal || args.model || !matches!(args.legality, LegalityArg::Board),
    };
    let plan = CensusPlan::new(&args.material, &args.conditions, choices)?;
    let bar = match &plan {
        CensusPlan::Orthodox(material, _) => ProgressBar::new(64)
            .with_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:40}] {pos}/{len} squares of the black king",
                )?
                .progress_chars("=> "),
            )
            .with_message(material.to_string()),
        CensusPlan::Fairy(material, _) => {
            let bar = ProgressBar::new_spinner().with_message(format!("{material}: enumerating"));
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        }
    };
    let census = plan.run(kind, &|| bar.inc(1));
    bar.finish_and_clear();
    match census {
        Census::Orthodox(found) => Shown {
            heading: format!(", legality {}", args.legality.name()),
            json_fields: json!({"legality": args.legality.name()}),
            which: if args.ideal { "ideal" } else { "model" },
            ideal_column: true,
        }
        .print(&found, args.stalemate, args.json),
        Census::Fairy(found, rules) => {
            let conditions: Vec<&str> = rules.conditions().iter().map(|c| c.name()).collect();
            let heading = if conditions.is_empty() {
                String::new()
            } else {
                format!(", {}", conditions.join(", "))
            };
            Shown {
                heading,
                json_fields: json!({"conditions": conditions}),
                which: "all",
                ideal_column: false,
            }
            .print(&found, args.stalemate, args.json)
        }
    }
}

/// How a census is printed: what the heading and the JSON add, which
/// positions the table groups, and whether it has a column `ideal`.
struct Shown {
    /// After "black to move" in the heading.
    heading: String,
    /// Added to the JSON object.
    json_fields: Value,
    which: &'static str,
    ideal_column: bool,
}

impl Shown {
    fn print<M: fmt::Display>(
        &self,
        found: &Enumeration<M>,
        stalemate: bool,
        json: bool,
    ) -> anyhow::Result<()> {
        if json {
            let mut report = json!({
                "material": found.material.to_string(),
                "stalemate": stalemate,
                "total": found.total,
                "pure": found.pure,
                "model": found.model,
                "ideal": found.ideal,
                "without_etalon": found.without_etalon,
                "by_ep_code": found.by_ep_code.iter().map(|group| {
                    let mut row = json!({
                        "ep_code": group.ep_code,
                        "count": group.count,
                        "example_fen": group.example_fen,
                    });
                    if self.ideal_column {
                        row["ideal"] = json!(group.ideal);
                    }
                    row
                }).collect::<Vec<_>>(),
            });
            if let (Some(report), Value::Object(fields)) =
                (report.as_object_mut(), self.json_fields.clone())
            {
                report.extend(fields);
            }
            crate::output::print_json(&report)?;
            return Ok(());
        }
        outln!(
            "{} {}s, black to move{}",
            found.material,
            found.kind.name(),
            self.heading
        );
        outln!("  total  {:>8}", found.total);
        outln!("  pure   {:>8}", found.pure);
        outln!("  model  {:>8}", found.model);
        outln!("  ideal  {:>8}", found.ideal);
        if found.without_etalon > 0 {
            outln!("  without etalon  {}", found.without_etalon);
        }
        outln!("\n{} positions by ЭП code:", self.which);
        let width = found
            .by_ep_code
            .iter()
            .map(|group| group.ep_code.chars().count())
            .max()
            .unwrap_or(7)
            .max(7);
        let ideal_heading = if self.ideal_column { "  ideal" } else { "" };
        outln!(
            "  {:<width$}  {:>7}{ideal_heading}  example",
            "ЭП code",
            "count"
        );
        for group in &found.by_ep_code {
            let ideal = match (self.ideal_column, group.ideal) {
                (false, _) => String::new(),
                (true, ideal) => format!("  {:<5}", if ideal { "yes" } else { "no" }),
            };
            outln!(
                "  {:<width$}  {:>7}{ideal}  {}",
                group.ep_code,
                group.count,
                group.example_fen
            );
        }
        Ok(())
    }
}
