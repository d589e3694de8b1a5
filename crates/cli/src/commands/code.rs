//! `ajedrecista code`: the Gartser-Kharichev code of one final position.

use std::path::PathBuf;

use crate::output::out;
use ajedrecista_coding::fairy::{
    FairyError, FairyEtalon, FairyPosition, PopeyeProblem, parse_popeye_problems,
};
use ajedrecista_coding::{
    AnalysedFinal, Analysis, Coded, Etalon, FinalKind, FinalRules, Zone, rules_named,
};
use serde_json::{Value, json};
use shakmaty::{Chess, File, Position, Rank, Square};

/// Arguments of `ajedrecista code`.
#[derive(clap::Args)]
pub struct Args {
    /// The position as a FEN (quoted, or as separate words); the side to
    /// move is the one mated or stalemated. Fairy units in the extended
    /// FEN: G grasshopper, D dragon, S nightrider, `*` before a royal
    /// unit, `!` before an armoured king.
    #[arg(required_unless_present = "popeye", num_args = 1..)]
    fen: Vec<String>,
    /// A fairy condition: circe, nocapture, grid, ingul, maximummer,
    /// whitemaximummer, normalpawn, or Popeye's name (gridchess,
    /// shieldedkings, blackmaximummer); repeat for several.
    #[arg(long = "condition", value_name = "NAME")]
    conditions: Vec<String>,
    /// Read the position from a file in Popeye's input language (pieces,
    /// condition, stipulation); each problem of the file is answered.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "conditions"])]
    popeye: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The most problems of a Popeye file one run answers: with `--json`
/// their objects are kept until the end, as `classify`'s (its limit).
const MAX_PROBLEMS: usize = 50_000;

pub fn run(args: Args) -> anyhow::Result<()> {
    let coded = match &args.popeye {
        Some(path) => {
            let text = crate::input::read_text_file(path)?;
            let mut problems = parse_popeye_problems(&text);
            anyhow::ensure!(
                problems.len() <= MAX_PROBLEMS,
                "{} holds more than {MAX_PROBLEMS} problems (the limit of one run)",
                path.display()
            );
            if problems.len() > 1 {
                return every_problem(&problems, args.json);
            }
            coded_problem(problems.remove(0)?)
        }
        None => Coded::read(&args.fen.join(" "), &rules_named(&args.conditions)?)?,
    };
    if args.json {
        crate::output::print_json(&coded.to_json())?;
    } else {
        out!("{}", coded.to_text());
    }
    Ok(())
}

fn coded_problem(problem: PopeyeProblem) -> Coded {
    Coded::fairy(problem.position.to_string(), problem.position)
}

/// A file of several problems: each answered in turn, a refused one with
/// its reason; then, if any was refused, the error that says how many.
fn every_problem(problems: &[Result<PopeyeProblem, FairyError>], json: bool) -> anyhow::Result<()> {
    let total = problems.len();
    let mut answers = Vec::new();
    for (i, problem) in problems.iter().enumerate() {
        let number = i + 1;
        match (problem.as_ref().map(|p| coded_problem(p.clone())), json) {
            (Ok(coded), true) => {
                let mut object = json!({ "problem": number });
                merge(&mut object, coded.to_json());
                answers.push(object);
            }
            (Err(error), true) => {
                answers.push(json!({"problem": number, "error": error.to_string()}));
            }
            (Ok(coded), false) => out!("Problem {number} of {total}\n{}\n", coded.to_text()),
            (Err(error), false) => out!("Problem {number} of {total}\nRefused    {error}\n\n"),
        }
    }
    if json {
        crate::output::print_json(&json!({ "problems": answers }))?;
    }
    let refused = problems.iter().filter(|problem| problem.is_err()).count();
    anyhow::ensure!(
        refused == 0,
        "{refused} of the {total} problems could not be read"
    );
    Ok(())
}

/// The JSON object and the text of a coded position (docs/guide/src/reference/coding.md).
pub trait Render {
    fn to_json(&self) -> Value;
    fn to_text(&self) -> String;
}

impl Render for Coded {
    fn to_json(&self) -> Value {
        match self {
            Coded::Orthodox(analysis) => analysis.to_json(),
            Coded::Fairy(analysis) => analysis.to_json(),
        }
    }

    fn to_text(&self) -> String {
        match self {
            Coded::Orthodox(analysis) => analysis.to_text(),
            Coded::Fairy(analysis) => analysis.to_text(),
        }
    }
}

/// What the printout says differently under orthodox and fairy rules.
pub trait Shown: FinalRules {
    /// The width of a zone number in the diagram: fairy zones may have
    /// more than nine squares.
    const NUMBER_WIDTH: usize;

    /// The man on `square` as the diagram shows it.
    fn token_at(&self, square: Square) -> String;

    /// The line above a zone's table.
    fn zone_heading(zone: &Zone) -> String;

    /// What the ЭП code line adds in parentheses.
    fn etalon_note(etalon: &Etalon<Self>) -> String;
}

impl Shown for Chess {
    const NUMBER_WIDTH: usize = 2;

    fn token_at(&self, square: Square) -> String {
        self.board()
            .piece_at(square)
            .map_or('.', |piece| piece.char())
            .to_string()
    }

    fn zone_heading(zone: &Zone) -> String {
        format!(
            "\nZone       {}, king on {}\n",
            zone.shape().name(),
            zone.king()
        )
    }

    fn etalon_note(etalon: &Etalon) -> String {
        format!(
            "{}, king on {}",
            etalon.symmetry().name(),
            etalon.position().zone().king()
        )
    }
}

impl Shown for FairyPosition {
    const NUMBER_WIDTH: usize = 3;

    fn token_at(&self, square: Square) -> String {
        self.unit_at(square)
            .map_or(".".to_owned(), |unit| unit.fen_token())
    }

    fn zone_heading(zone: &Zone) -> String {
        format!("\nZone of the royal unit on {}\n", zone.king())
    }

    fn etalon_note(etalon: &FairyEtalon) -> String {
        etalon.symmetry().name().to_owned()
    }
}

impl<P: Shown> Render for Analysis<P> {
    /// The JSON object of docs/guide/src/reference/coding.md (with the conditions under fairy
    /// rules).
    fn to_json(&self) -> Value {
        let mut object = json!({"fen": self.fen});
        if let Some(conditions) = &self.conditions {
            object["conditions"] = json!(conditions);
        }
        let fields = match &self.outcome {
            Err(reason) => json!({"final": "none", "reason": reason.to_string()}),
            Ok((fp, etalon)) => {
                let mut fields = json!({
                    "final": fp.kind().name(),
                    "pure": fp.is_pure(),
                    "economical": fp.is_economical(),
                    "model": fp.is_model(),
                    "ideal": fp.is_ideal(),
                    "fp_code": fp.code().to_string(),
                });
                let etalon_fields = match etalon {
                    Ok(etalon) => {
                        let class = etalon.code().classification();
                        json!({
                            "ep_code": etalon.code().to_string(),
                            "ep_fen": etalon.fen(),
                            "class": class.class_text(),
                            "group": class.group_text(),
                            "subgroup": class.subgroup_text(),
                            "kind": class.kind_text(),
                        })
                    }
                    Err(error) => json!({
                        "ep_code": null, "ep_fen": null, "class": null, "group": null,
                        "subgroup": null, "kind": null, "ep_error": error.to_string(),
                    }),
                };
                merge(&mut fields, etalon_fields);
                fields
            }
        };
        merge(&mut object, fields);
        object
    }

    fn to_text(&self) -> String {
        let mut out = format!("Position   {}\n", self.fen);
        if let Some(conditions) = self.conditions.as_ref().filter(|c| !c.is_empty()) {
            out += &format!("Conditions {}\n", conditions.join(", "));
        }
        let (fp, etalon) = match &self.outcome {
            Err(reason) => return out + &format!("Final      none: {reason}\n"),
            Ok(found) => found,
        };
        out += &format!(
            "Final      {}: {} is {}\n",
            fp.kind().name(),
            fp.attacked(),
            if fp.kind() == FinalKind::Mate {
                "mated"
            } else {
                "stalemated"
            }
        );
        out += &qualities_line(
            fp.is_pure(),
            fp.is_economical(),
            fp.is_model(),
            fp.is_ideal(),
        );
        out += &diagram(fp);
        for zone in fp.zones() {
            out += &P::zone_heading(&zone.zone);
            out += "  No.  square  symbol\n";
            for (i, (square, mark)) in zone.zone.squares().iter().zip(&zone.marks).enumerate() {
                out += &format!("  {:>3}  {:<6}  {}\n", i + 1, square.to_string(), mark);
            }
        }
        out += &format!("\nFP code    {}\n", fp.code());
        match etalon {
            Ok(etalon) => {
                let class = etalon.code().classification();
                out += &format!(
                    "ЭП code    {}   ({})\n",
                    etalon.code(),
                    P::etalon_note(etalon)
                );
                out += &format!("ЭП FEN     {}\n", etalon.fen());
                out += &format!(
                    "Class {} · group {} · subgroup {} · kind {}\n\n",
                    class.class_text(),
                    class.group_text(),
                    class.subgroup_text(),
                    class.kind_text()
                );
                out += &diagram(etalon.position());
            }
            Err(error) => out += &format!("ЭП         not found: {error}\n"),
        }
        out
    }
}

/// Adds the fields of the object `more` to the object `object`.
fn merge(object: &mut Value, more: Value) {
    if let (Some(object), Value::Object(more)) = (object.as_object_mut(), more) {
        object.extend(more);
    }
}

fn qualities_line(pure: bool, economical: bool, model: bool, ideal: bool) -> String {
    let yes = |flag: bool| if flag { "yes" } else { "no" };
    format!(
        "Qualities  pure {} · economical {} · model {} · ideal {}\n\n",
        yes(pure),
        yes(economical),
        yes(model),
        yes(ideal)
    )
}

/// The position and the first zone's numbering side by side, White at the
/// bottom.
fn diagram<P: Shown>(fp: &AnalysedFinal<P>) -> String {
    let width = P::NUMBER_WIDTH;
    let zone = &fp.zones()[0].zone;
    let mut out = format!(
        "     {:<22}zone numbering\n",
        format!("{} to move", fp.attacked())
    );
    let gap = " ".repeat(7 - width);
    for rank in (0..8).rev() {
        let mut left = String::new();
        let mut right = String::new();
        for file in 0..8 {
            let square = Square::from_coords(File::new(file), Rank::new(rank));
            left += &format!("{:>2}", fp.position().token_at(square));
            let number = zone
                .number_of(square)
                .map_or("·".to_owned(), |n| n.to_string());
            right += &format!("{number:>width$}");
        }
        out += &format!("  {} {left}{gap}{right}\n", rank + 1);
    }
    // The letters stand under the columns, laid out as the rows are.
    let letters = |width: usize| -> String {
        File::ALL
            .iter()
            .map(|file| format!("{:>width$}", file.char()))
            .collect()
    };
    out + &format!("    {}{gap}{}\n", letters(2), letters(width))
}
