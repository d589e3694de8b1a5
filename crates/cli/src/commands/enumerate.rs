//! `ajedrecista enumerate`: every mate or stalemate with given material.

use crate::output::outln;
use ajedrecista_coding::fairy::{FairyMaterial, enumerate_fairy};
use ajedrecista_coding::{FinalKind, Legality, OrthodoxMaterial, Selection, enumerate};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

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
    // One parser for material; orthodox material without conditions goes
    // the orthodox way (qualities, legality conventions).
    let fairy: FairyMaterial = args.material.parse()?;
    let material = match OrthodoxMaterial::try_from(&fairy) {
        Ok(material) if args.conditions.is_empty() => material,
        _ => return run_fairy(&args, fairy, kind),
    };
    let selection = if args.ideal {
        Selection::Ideal
    } else {
        Selection::Model
    };
    let bar = ProgressBar::new(64).with_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} squares of the black king")?
            .progress_chars("=> "),
    );
    bar.set_message(format!("{material}"));
    let found = enumerate(
        &material,
        kind,
        args.legality.legality(),
        selection,
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    if args.json {
        let report = json!({
            "material": found.material.to_string(),
            "stalemate": args.stalemate,
            "legality": args.legality.name(),
            "total": found.total,
            "pure": found.pure,
            "model": found.model,
            "ideal": found.ideal,
            "without_etalon": found.without_etalon,
            "by_ep_code": found.by_ep_code.iter().map(|group| json!({
                "ep_code": group.ep_code,
                "count": group.count,
                "ideal": group.ideal,
                "example_fen": group.example_fen,
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    outln!(
        "{} {}s, black to move, legality {}",
        found.material,
        kind.name(),
        args.legality.name()
    );
    outln!("  total  {:>8}", found.total);
    outln!("  pure   {:>8}", found.pure);
    outln!("  model  {:>8}", found.model);
    outln!("  ideal  {:>8}", found.ideal);
    if found.without_etalon > 0 {
        outln!("  without etalon  {}", found.without_etalon);
    }
    let which = if args.ideal { "ideal" } else { "model" };
    outln!("\n{which} positions by ЭП code:");
    let width = found
        .by_ep_code
        .iter()
        .map(|group| group.ep_code.chars().count())
        .max()
        .unwrap_or(7)
        .max(7);
    outln!("  {:<width$}  {:>7}  ideal  example", "ЭП code", "count");
    for group in &found.by_ep_code {
        outln!(
            "  {:<width$}  {:>7}  {:<5}  {}",
            group.ep_code,
            group.count,
            if group.ideal { "yes" } else { "no" },
            group.example_fen
        );
    }
    Ok(())
}

/// Fairy material or conditions: every final position, grouped by ЭП code,
/// with the number of pure, model and ideal ones.
fn run_fairy(args: &Args, material: FairyMaterial, kind: FinalKind) -> anyhow::Result<()> {
    if args.ideal || args.model || !matches!(args.legality, LegalityArg::Board) {
        anyhow::bail!("--ideal, --model and --legality apply to orthodox material only");
    }
    let rules = super::code::parse_rules(&args.conditions)?;
    let bar = ProgressBar::new_spinner().with_message(format!("{material}: enumerating"));
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let found = enumerate_fairy(&material, &rules, kind);
    bar.finish_and_clear();
    let conditions: Vec<&str> = rules.conditions().iter().map(|c| c.name()).collect();
    if args.json {
        let report = json!({
            "material": material.to_string(),
            "conditions": conditions,
            "stalemate": args.stalemate,
            "total": found.total,
            "pure": found.pure,
            "model": found.model,
            "ideal": found.ideal,
            "without_etalon": found.without_etalon,
            "by_ep_code": found.by_ep_code.iter().map(|(code, count, fen)| json!({
                "ep_code": code, "count": count, "example_fen": fen,
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    let under = if conditions.is_empty() {
        String::new()
    } else {
        format!(", {}", conditions.join(", "))
    };
    outln!("{material} {}s, black to move{under}", kind.name());
    outln!("  total  {:>8}", found.total);
    outln!("  pure   {:>8}", found.pure);
    outln!("  model  {:>8}", found.model);
    outln!("  ideal  {:>8}", found.ideal);
    if found.without_etalon > 0 {
        outln!("  without etalon  {}", found.without_etalon);
    }
    outln!("\nall positions by ЭП code:");
    let width = found
        .by_ep_code
        .iter()
        .map(|(code, _, _)| code.chars().count())
        .max()
        .unwrap_or(7)
        .max(7);
    outln!("  {:<width$}  {:>7}  example", "ЭП code", "count");
    for (code, count, fen) in &found.by_ep_code {
        outln!("  {code:<width$}  {count:>7}  {fen}");
    }
    Ok(())
}
