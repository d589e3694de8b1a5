//! Every table of up to N men in one run (`solve --all N`), a table at a
//! time: each counted from its file, or built first where its file is
//! missing or unusable, and checked against its moves when asked.

use std::{ops::RangeInclusive, time::Instant};

use shakmaty::ByColor;

use crate::{
    check::Checked, error::TableError, format::file_name, material::Material, store::Tablebase,
    summary::SideSummary, variant::Variant,
};

/// The men of the tables a run over every table may build: six-man tables
/// take hours and gigabytes each, and are built one by one.
pub const EVERY_TABLE_MEN: RangeInclusive<usize> = 3..=crate::MAX_MEN_BUILT_ON_DEMAND;

/// How a table of the run was had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built by this run.
    Built,
    /// Its file was in the cache folder already.
    Cached,
}

/// A sample of a table to check against its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub positions: u64,
    pub seed: u64,
}

/// One table of a run over every table.
#[derive(Debug)]
pub struct EveryTable {
    pub material: Material,
    /// How it was had and its counts, or why it could not be had.
    pub counted: Result<(Origin, ByColor<SideSummary>), TableError>,
    /// Its sample checked against its moves, when one was asked for and
    /// the table was had, with the seconds the check took.
    pub checked: Option<Result<(Checked, f64), TableError>>,
    /// Seconds for the table, its check included.
    pub seconds: f64,
    /// The size of its file in the cache folder.
    pub file_bytes: Option<u64>,
}

impl EveryTable {
    /// Whether the table could not be had or checked.
    pub fn failed(&self) -> bool {
        self.counted.is_err() || matches!(self.checked, Some(Err(_)))
    }

    /// Whether positions of its sample disagree with their moves.
    pub fn disagrees(&self) -> bool {
        matches!(&self.checked, Some(Ok((checked, _))) if !checked.disagreements.is_empty())
    }
}

impl Tablebase {
    /// A table of a run over every table (`material` canonical, as
    /// [`Material::every`] lists them), orthodox: counted, built first if
    /// need be, then its `sample` checked, `checked(n)` hearing the
    /// positions done. Each table of a run is best had from a tablebase of
    /// its own, so that only it and the tables its moves lead into are
    /// held.
    pub fn every_table(
        &self,
        material: &Material,
        sample: Option<Sample>,
        checked: &(dyn Fn(u64) + Sync),
    ) -> EveryTable {
        let began = Instant::now();
        let counted = self
            .summary(material, Variant::Standard, &|_, _| {})
            .map(|(_, summary)| {
                let origin = if self.has_built(material, Variant::Standard) {
                    Origin::Built
                } else {
                    Origin::Cached
                };
                (origin, summary)
            });
        let checked = match sample {
            Some(sample) if counted.is_ok() => {
                let start = Instant::now();
                Some(
                    self.check(
                        material,
                        Variant::Standard,
                        sample.positions,
                        sample.seed,
                        checked,
                    )
                    .map(|found| (found, start.elapsed().as_secs_f64())),
                )
            }
            _ => None,
        };
        EveryTable {
            material: material.clone(),
            counted,
            checked,
            seconds: began.elapsed().as_secs_f64(),
            file_bytes: self
                .dir()
                .and_then(|dir| {
                    std::fs::metadata(dir.join(file_name(material, Variant::Standard))).ok()
                })
                .map(|meta| meta.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-man tables, built into an empty folder and then found
    /// there; the sample of each agrees with its moves; a table whose
    /// file is spoilt is built again.
    #[test]
    fn every_table_is_built_then_cached() {
        let dir = tempfile::tempdir().unwrap();
        let materials = Material::every(4);
        let sample = Some(Sample {
            positions: 50,
            seed: 7,
        });
        for pass in [Origin::Built, Origin::Cached] {
            for material in &materials {
                let tb = Tablebase::new(Some(dir.path().to_path_buf()));
                let row = tb.every_table(material, sample, &|_| {});
                let (origin, summary) = row.counted.as_ref().expect("counted");
                assert_eq!(*origin, pass, "{material}");
                assert!(summary.white.legal + summary.black.legal > 0, "{material}");
                assert!(!row.failed() && !row.disagrees(), "{material}");
                let (found, _) = row.checked.as_ref().unwrap().as_ref().unwrap();
                assert_eq!(found.positions, 50, "{material}");
                assert!(row.file_bytes.is_some_and(|bytes| bytes > 0), "{material}");
            }
        }
        let krvk: Material = "KRvK".parse().unwrap();
        let path = dir.path().join(file_name(&krvk, Variant::Standard));
        std::fs::write(&path, b"not a table").unwrap();
        let tb = Tablebase::new(Some(dir.path().to_path_buf()));
        let row = tb.every_table(&krvk, None, &|_| {});
        assert_eq!(row.counted.unwrap().0, Origin::Built);
        assert!(row.checked.is_none());
    }
}
