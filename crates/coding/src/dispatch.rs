//! The choice between the orthodox path (shakmaty) and the fairy rules
//! model, made once for `code`, `classify` and `enumerate` and for the
//! fuzz target that reads their input: without conditions, a FEN shakmaty
//! reads and orthodox material go the orthodox way, so their output is
//! what it always was; anything else goes to [`crate::fairy`].

use ajedrecista_tables::fen_with_fullmoves;
use shakmaty::{Chess, Color};

use crate::code::Classification;
use crate::enumerate::{Enumeration, Legality, Selection, enumerate};
use crate::etalon::{Etalon, EtalonError};
use crate::fairy::{
    Condition, FairyEnumeration, FairyError, FairyMaterial, FairyPosition, Rules, enumerate_fairy,
    is_orthodox,
};
use crate::final_position::{AnalysedFinal, FinalKind, FinalRules, NotFinal};
use crate::input::Entry;
use crate::{CodingError, OrthodoxMaterial, parse_position};

/// The rules of the conditions named (`circe`, `grid`, ...).
pub fn rules_named(names: &[String]) -> Result<Rules, FairyError> {
    let conditions = names
        .iter()
        .map(|name| name.parse::<Condition>())
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Rules::new(conditions))
}

/// A final position with its etalon (or why the search failed).
pub type Found<P> = (AnalysedFinal<P>, Result<Etalon<P>, EtalonError>);

/// A position with its analysis.
pub struct Analysis<P: FinalRules> {
    /// The FEN as given.
    pub fen: String,
    /// The conditions, under fairy rules.
    pub conditions: Option<Vec<String>>,
    /// The analysis, or why the position is not final.
    pub outcome: Result<Found<P>, NotFinal>,
}

impl<P: FinalRules> Analysis<P> {
    fn of(fen: String, position: P, conditions: Option<Vec<String>>) -> Analysis<P> {
        let outcome = AnalysedFinal::analyse(position).map(|fp| {
            let etalon = fp.etalon();
            (fp, etalon)
        });
        Analysis {
            fen,
            conditions,
            outcome,
        }
    }

    /// The classification of the etalon, or why there is none.
    pub fn classification(&self) -> Result<Classification, Unclassified> {
        match &self.outcome {
            Err(not_final) => Err(Unclassified::NotFinal(*not_final)),
            Ok((_, Err(error))) => Err(Unclassified::NoEtalon(*error)),
            Ok((_, Ok(etalon))) => Ok(etalon.code().classification()),
        }
    }
}

/// Why a position has no classification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unclassified {
    #[error(transparent)]
    NotFinal(NotFinal),
    #[error(transparent)]
    NoEtalon(EtalonError),
}

/// A position coded by the orthodox path or by the fairy rules model.
pub enum Coded {
    Orthodox(Box<Analysis<Chess>>),
    Fairy(Box<Analysis<FairyPosition>>),
}

/// Why a text is no position to code.
#[derive(Debug, thiserror::Error)]
pub enum CodedError {
    #[error(transparent)]
    Orthodox(#[from] CodingError),
    #[error(transparent)]
    Fairy(#[from] FairyError),
    #[error("a PGN game is orthodox chess; --condition applies to FEN lines")]
    ConditionsOnPgn,
}

impl Coded {
    /// Reads a FEN (orthodox or extended) under `rules`.
    pub fn read(fen: &str, rules: &Rules) -> Result<Coded, CodedError> {
        let fen = fen.trim().to_owned();
        if rules.is_orthodox() {
            return match parse_position(&fen) {
                Ok(position) => Ok(Coded::orthodox(fen, position)),
                Err(orthodox_error) => match FairyPosition::from_fen(&fen, rules.clone()) {
                    Ok(position) if !is_orthodox(&position) => Ok(Coded::fairy(fen, position)),
                    Err(error @ FairyError::UnknownPiece(_)) => Err(error.into()),
                    // Syntax only the fairy reader knows (`*n`, `!K`,
                    // fairy letters): its verdict is the reason.
                    Err(error @ FairyError::Illegal(_))
                        if matches!(orthodox_error, CodingError::BadFen { .. }) =>
                    {
                        Err(error.into())
                    }
                    _ => Err(orthodox_error.into()),
                },
            };
        }
        let position = FairyPosition::from_fen(&fen, rules.clone())?;
        Ok(Coded::fairy(fen, position))
    }

    /// An entry of a `classify` input under `rules`: FEN lines are read
    /// again with the conditions, or as extended FEN when shakmaty refuses
    /// them; PGN games are orthodox.
    pub fn of_entry(entry: Entry, rules: &Rules) -> Result<Coded, CodedError> {
        match (entry.line, entry.position) {
            (Some(line), Err(_)) => Coded::read(&line, rules),
            (Some(line), Ok(_)) if !rules.is_orthodox() => Coded::read(&line, rules),
            (None, Ok(_)) if !rules.is_orthodox() => Err(CodedError::ConditionsOnPgn),
            (_, Ok(position)) => {
                // A game's move number as counted past shakmaty's u32.
                let fen = match entry.fullmoves {
                    Some(fullmoves) => fen_with_fullmoves(&position, fullmoves),
                    None => position.fen_text(),
                };
                Ok(Coded::orthodox(fen, position))
            }
            (None, Err(reason)) => Err(reason.into()),
        }
    }

    /// An orthodox position, coded the orthodox way.
    pub fn orthodox(fen: String, position: Chess) -> Coded {
        Coded::Orthodox(Box::new(Analysis::of(fen, position, None)))
    }

    /// A position under fairy rules (its conditions named in the
    /// analysis).
    pub fn fairy(fen: String, position: FairyPosition) -> Coded {
        let names = position.rules().conditions().iter();
        let conditions = names.map(|condition| condition.name().to_owned()).collect();
        Coded::Fairy(Box::new(Analysis::of(fen, position, Some(conditions))))
    }

    /// The classification of the etalon, or why there is none.
    pub fn classification(&self) -> Result<Classification, Unclassified> {
        match self {
            Coded::Orthodox(analysis) => analysis.classification(),
            Coded::Fairy(analysis) => analysis.classification(),
        }
    }
}

/// Which positions an orthodox census groups by etalon code; a fairy
/// census takes neither choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrthodoxChoices {
    pub legality: Legality,
    pub selection: Selection,
    /// The choices were given, not defaulted: a fairy census refuses them.
    pub given: bool,
}

/// What a census will enumerate, chosen before it runs (so that a front
/// end can show the right progress).
pub enum CensusPlan {
    Orthodox(OrthodoxMaterial, OrthodoxChoices),
    Fairy(FairyMaterial, Rules),
}

/// Every final position of a material, by the orthodox or the fairy path.
pub enum Census {
    Orthodox(Enumeration),
    Fairy(FairyEnumeration, Rules),
}

/// Why there is no census.
#[derive(Debug, thiserror::Error)]
pub enum CensusError {
    #[error(transparent)]
    Fairy(#[from] FairyError),
    #[error("--ideal, --model and --legality apply to orthodox material only")]
    OrthodoxChoices,
    #[error(
        "{0}: the census with fairy units or conditions takes at most {MAX_FAIRY_MEN} men \
         (it holds every final position; each man more multiplies its time by about 60)"
    )]
    TooManyFairyMen(FairyMaterial),
}

/// The most men of a fairy census: KGGvK takes about 6 s and holds every
/// final position until they are grouped.
pub const MAX_FAIRY_MEN: usize = 4;

impl CensusPlan {
    /// The census of `material` (the one material parser) under the named
    /// conditions: orthodox material without conditions the orthodox way
    /// (qualities, legality conventions), anything else by the fairy
    /// rules.
    pub fn new(
        material: &str,
        conditions: &[String],
        choices: OrthodoxChoices,
    ) -> Result<CensusPlan, CensusError> {
        let fairy: FairyMaterial = material.parse()?;
        match OrthodoxMaterial::try_from(&fairy) {
            Ok(material) if conditions.is_empty() => Ok(CensusPlan::Orthodox(material, choices)),
            _ if choices.given => Err(CensusError::OrthodoxChoices),
            _ if fairy.units(Color::White).len() + fairy.units(Color::Black).len()
                > MAX_FAIRY_MEN =>
            {
                Err(CensusError::TooManyFairyMen(fairy))
            }
            _ => Ok(CensusPlan::Fairy(fairy, rules_named(conditions)?)),
        }
    }

    /// Enumerates; `tick` is called once a square of the black king on the
    /// orthodox path.
    pub fn run(self, kind: FinalKind, tick: &(dyn Fn() + Sync)) -> Census {
        match self {
            CensusPlan::Orthodox(material, choices) => Census::Orthodox(enumerate(
                &material,
                kind,
                choices.legality,
                choices.selection,
                tick,
            )),
            CensusPlan::Fairy(material, rules) => {
                let found = enumerate_fairy(&material, &rules, kind);
                Census::Fairy(found, rules)
            }
        }
    }
}
