//! `ajedrecista code`: the Gartser-Kharichev code of one final position.

use ajedrecista_coding::{Etalon, EtalonError, FinalPosition, parse_position};
use serde_json::{Value, json};
use shakmaty::{Chess, File, Position, Rank, Square};

/// Arguments of `ajedrecista code`.
#[derive(clap::Args)]
pub struct Args {
    /// The position as a FEN (quoted, or as separate words); the side to
    /// move is the one mated or stalemated.
    #[arg(required = true, num_args = 1..)]
    fen: Vec<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let fen = args.fen.join(" ");
    let position = parse_position(&fen)?;
    let analysis = Analysis::of(fen, position);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&analysis.to_json())?);
    } else {
        print!("{}", analysis.to_text());
    }
    Ok(())
}

/// A position with its analysis, ready to print.
pub struct Analysis {
    pub fen: String,
    pub outcome: Result<(FinalPosition, Result<Etalon, EtalonError>), String>,
}

impl Analysis {
    pub fn of(fen: String, position: Chess) -> Analysis {
        let outcome = FinalPosition::analyse(position)
            .map(|fp| {
                let etalon = fp.etalon();
                (fp, etalon)
            })
            .map_err(|not_final| not_final.to_string());
        Analysis { fen, outcome }
    }

    /// The JSON object of docs/coding.md.
    pub fn to_json(&self) -> Value {
        let (fp, etalon) = match &self.outcome {
            Err(reason) => return json!({"fen": self.fen, "final": "none", "reason": reason}),
            Ok(found) => found,
        };
        let mut object = json!({
            "fen": self.fen,
            "final": fp.kind().name(),
            "pure": fp.is_pure(),
            "economical": fp.is_economical(),
            "model": fp.is_model(),
            "ideal": fp.is_ideal(),
            "fp_code": fp.code().to_string(),
        });
        let fields = match etalon {
            Ok(etalon) => {
                let class = etalon.code().classification();
                json!({
                    "ep_code": etalon.code().to_string(),
                    "ep_fen": etalon.fen(),
                    "class": class.class,
                    "group": class.group,
                    "subgroup": class.subgroup,
                    "kind": class.kind,
                })
            }
            Err(error) => json!({
                "ep_code": null, "ep_fen": null, "class": null, "group": null,
                "subgroup": null, "kind": null, "ep_error": error.to_string(),
            }),
        };
        if let (Some(object), Value::Object(fields)) = (object.as_object_mut(), fields) {
            object.extend(fields);
        }
        object
    }

    pub fn to_text(&self) -> String {
        let mut out = format!("Position   {}\n", self.fen);
        let (fp, etalon) = match &self.outcome {
            Err(reason) => return out + &format!("Final      none: {reason}\n"),
            Ok(found) => found,
        };
        let yes = |flag: bool| if flag { "yes" } else { "no" };
        out += &format!(
            "Final      {}: {} is {}\n",
            fp.kind().name(),
            fp.attacked(),
            if fp.kind() == ajedrecista_coding::FinalKind::Mate {
                "mated"
            } else {
                "stalemated"
            }
        );
        out += &format!(
            "Qualities  pure {} · economical {} · model {} · ideal {}\n\n",
            yes(fp.is_pure()),
            yes(fp.is_economical()),
            yes(fp.is_model()),
            yes(fp.is_ideal())
        );
        out += &diagram(fp);
        out += &format!(
            "\nZone       {}, king on {}\n",
            fp.shape().name(),
            fp.zone().king()
        );
        out += "  No.  square  symbol\n";
        for (i, (square, mark)) in fp.zone().squares().iter().zip(fp.marks()).enumerate() {
            out += &format!("  {:>3}  {:<6}  {}\n", i + 1, square.to_string(), mark);
        }
        out += &format!("\nFP code    {}\n", fp.code());
        match etalon {
            Ok(etalon) => {
                let class = etalon.code().classification();
                out += &format!(
                    "ЭП code    {}   ({}, king on {})\n",
                    etalon.code(),
                    etalon.symmetry().name(),
                    etalon.position().zone().king()
                );
                out += &format!("ЭП FEN     {}\n", etalon.fen());
                out += &format!(
                    "Class {} · group {} · subgroup {} · kind {}\n\n",
                    class.class, class.group, class.subgroup, class.kind
                );
                out += &diagram(etalon.position());
            }
            Err(error) => out += &format!("ЭП         not found: {error}\n"),
        }
        out
    }
}

/// The position and the zone numbering side by side, White at the bottom.
fn diagram(fp: &FinalPosition) -> String {
    let board = fp.position().board();
    let mut out = format!(
        "     {:<22}zone numbering\n",
        format!("{} to move", fp.attacked())
    );
    for rank in (0..8).rev() {
        let mut left = String::new();
        let mut right = String::new();
        for file in 0..8 {
            let square = Square::from_coords(File::new(file), Rank::new(rank));
            let piece = board.piece_at(square).map_or('.', |piece| piece.char());
            left += &format!(" {piece}");
            let number = fp
                .zone()
                .number_of(square)
                .map_or("·".to_owned(), |n| n.to_string());
            right += &format!(" {number}");
        }
        out += &format!("  {} {left}     {right}\n", rank + 1);
    }
    out + "     a b c d e f g h       a b c d e f g h\n"
}
