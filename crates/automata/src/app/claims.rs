//! The claims of the sources and what is true, as one data file
//! (`data/claims.json`): README's table and the web's Claims view are made
//! from it, and [`Claim::measure`] recomputes each row's figures by the
//! domain call its command makes (tests/claims.rs compares them).

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

use ajedrecista_tables::{
    CastlingRights, Material, TableError, Tablebase, Variant, read_fen, summarize,
};
use serde::{Deserialize, Serialize};
use shakmaty::{Color, Square};

use crate::audit::{Side, StartSet, audit};
use crate::catalog::StrategyName;
use crate::contradiction::Contradiction;
use crate::perfect::excess_over_perfect;

/// The data file, compiled in.
const CLAIMS_JSON: &str = include_str!("../../data/claims.json");

/// Every claim, in the README's order.
pub static CLAIMS: LazyLock<Vec<Claim>> =
    LazyLock::new(|| serde_json::from_str(CLAIMS_JSON).expect("data/claims.json is valid"));

/// One claim of the sources and what is true.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub claim: String,
    pub source: String,
    /// The finding, with `**bold**` and `` `code` `` marks as README shows
    /// them ([`Claim::plain_finding`] drops them).
    pub finding: String,
    /// The command that measures it, as README gives it.
    pub command: String,
    /// The domain call that measures it.
    pub check: Check,
    /// The figures the finding states, by name.
    pub figures: BTreeMap<String, u64>,
}

/// How a claim is measured.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    /// An audit (`ajedrecista audit`).
    Audit {
        strategy: StrategyName,
        starts: StartSet,
        side: Side,
    },
    /// A table's longest win for White to move, and a record position
    /// (`ajedrecista solve`, `probe`).
    Longest {
        material: String,
        #[serde(default, with = "square_text")]
        fixed_king: Option<Square>,
        record_fen: String,
    },
    /// The fixed-king squares from which White wins every start
    /// (`solve --fixed-king all`).
    WinningSquares {
        material: String,
        squares: Vec<String>,
    },
}

/// Squares as their names (`c3`) in the data.
mod square_text {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use shakmaty::Square;

    pub fn serialize<S: Serializer>(square: &Option<Square>, s: S) -> Result<S::Ok, S::Error> {
        square.map(|square| square.to_string()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Square>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| text.parse().map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// Why a claim's figures could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Contradiction(#[from] Contradiction),
    #[error("bad data in claims.json: {0}")]
    Data(String),
}

/// The project's own references in README's table (its source files, its
/// docs) as a visitor of the page reads them: the seeds by what they are
/// (../shared/seeds/README.md).
const FOR_VISITORS: [(&str, &str); 4] = [
    (
        "seed 000",
        "Техника — молодёжи 9/1987, the MK-61 queen program",
    ),
    (
        "seed 001",
        "Техника — молодёжи 9/1987, the MK-61 rook program",
    ),
    ("seed 004", "the account of El Ajedrecista (1912)"),
    (
        "true as written in the guide (docs/guide/src/reference/automata.md)",
        "true of the method as this page plays it",
    ),
];

impl Claim {
    /// The finding without README's marks.
    pub fn plain_finding(&self) -> String {
        self.finding.replace("**", "").replace('`', "")
    }

    /// The claim as the web's Claims view shows it: the finding in plain
    /// text, the command its button runs without README's marks, and the
    /// project's own references in a visitor's words ([`FOR_VISITORS`]).
    pub fn as_shown(&self) -> Claim {
        let for_visitors = |text: &str| {
            FOR_VISITORS
                .iter()
                .fold(text.to_owned(), |text, (ours, theirs)| {
                    text.replace(ours, theirs)
                })
        };
        Claim {
            claim: for_visitors(&self.claim),
            source: for_visitors(&self.source),
            finding: for_visitors(&self.plain_finding()),
            command: self.command.replace('`', ""),
            ..self.clone()
        }
    }

    /// The README table's row: claim (source), finding, command.
    pub fn readme_row(&self) -> String {
        let command = match self.command.contains('`') {
            true => self.command.clone(),
            false => format!("`{}`", self.command),
        };
        format!(
            "| {} ({}) | {} | {command} |",
            self.claim, self.source, self.finding
        )
    }

    /// The figures measured by the check's domain call, by the names of
    /// [`Claim::figures`].
    pub fn measure(&self, tables: &Arc<Tablebase>) -> Result<BTreeMap<String, u64>, ClaimError> {
        let mut found = BTreeMap::new();
        let mut put = |name: &str, value: u64| found.insert(name.to_owned(), value);
        match &self.check {
            Check::Audit {
                strategy,
                starts,
                side,
            } => {
                let audit = audit(&strategy.build(tables), *starts, side.color());
                put("starts", audit.results.len() as u64);
                let failures = audit.failures();
                put("failures", failures.values().sum::<usize>() as u64);
                for (kind, count) in failures {
                    put(kind.name(), count as u64);
                }
                put("beyond_fifty_moves", audit.beyond_fifty_moves() as u64);
                if let Some(worst) = audit.worst_moves() {
                    put("worst_moves", u64::from(worst));
                }
                if let Some(excess) = excess_over_perfect(&audit, tables)? {
                    put("perfect_worst", u64::from(excess.perfect_worst));
                    put("perfect_at_worst_start", u64::from(excess.at_worst_start));
                }
            }
            Check::Longest {
                material,
                fixed_king,
                record_fen,
            } => {
                let material = material_of(material)?;
                let variant = fixed_king.map_or(Variant::Standard, Variant::FixedKing);
                let table = tables.table(&material, variant)?;
                let summary = &summarize(&table).white;
                if let Some((value, _)) = summary.longest_win {
                    put(
                        "longest_moves",
                        u64::from(value.moves().unwrap_or_default().0),
                    );
                }
                put("not_won", summary.legal - summary.win);
                let record = read_fen(record_fen, CastlingRights::Refused)
                    .map_err(|err| ClaimError::Data(err.to_string()))?;
                let value = tables.probe(&record, variant)?;
                if let Some(moves) = value.white_mates_in(Color::White) {
                    put("record_moves", u64::from(moves.0));
                }
            }
            Check::WinningSquares { material, squares } => {
                let material = material_of(material)?;
                let mut winning = Vec::new();
                for square in Square::ALL {
                    let table = tables.table(&material, Variant::FixedKing(square))?;
                    let white = &summarize(&table).white;
                    if white.legal > 0 && white.win == white.legal {
                        winning.push(square);
                    }
                }
                let mut expected = squares
                    .iter()
                    .map(|text| text.parse::<Square>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|err| ClaimError::Data(err.to_string()))?;
                expected.sort();
                if winning == expected {
                    put("winning_squares", winning.len() as u64);
                } else {
                    return Err(ClaimError::Data(format!(
                        "the squares that win every start are {winning:?}, not {expected:?}"
                    )));
                }
            }
        }
        Ok(found)
    }
}

fn material_of(text: &str) -> Result<Material, ClaimError> {
    text.parse()
        .map_err(|err: ajedrecista_tables::MaterialError| ClaimError::Data(err.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page shows no file of the project: no seed number, no docs path.
    #[test]
    fn claims_as_shown_name_no_file_of_the_project() {
        for claim in CLAIMS.iter().map(Claim::as_shown) {
            for text in [&claim.claim, &claim.source, &claim.finding] {
                assert!(
                    !text.contains("seed 0") && !text.contains("docs/"),
                    "{text}"
                );
            }
        }
    }
}
