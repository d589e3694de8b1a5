//! The ЭП code of a fairy example does not change under a symmetry of the
//! board and a shift, whenever the image is still a legal final position
//! of the same kind under the example's conditions.

mod common;

use std::sync::OnceLock;

use ajedrecista_coding::Symmetry;
use ajedrecista_coding::fairy::{FairyFinal, FairyPosition, Rules};
use proptest::prelude::*;

/// Examples 5-14 with their conditions and their ЭП codes.
fn examples() -> &'static [(FairyPosition, String)] {
    static EXAMPLES: OnceLock<Vec<(FairyPosition, String)>> = OnceLock::new();
    EXAMPLES.get_or_init(|| {
        let conditions: Vec<(&str, Rules)> = common::rows(include_str!("data/fairy-examples.tsv"))
            .into_iter()
            .map(|fields| (fields[0], common::rules(fields[1])))
            .collect();
        common::rows(include_str!("data/gk-examples.tsv"))
            .into_iter()
            .filter_map(|fields| {
                let (_, rules) = conditions.iter().find(|(n, _)| *n == fields[0])?;
                let position = FairyPosition::from_fen(fields[1], rules.clone()).unwrap();
                let code = FairyFinal::analyse(position.clone())
                    .unwrap()
                    .etalon()
                    .unwrap()
                    .code()
                    .to_string();
                Some((position, code))
            })
            .collect()
    })
}

/// The image of `position` under `symmetry` then the shift, if every unit
/// stays on the board and the rules accept it.
fn image(
    position: &FairyPosition,
    symmetry: Symmetry,
    files: i32,
    ranks: i32,
) -> Option<FairyPosition> {
    let image = position.transformed(|square| {
        let turned = symmetry.apply(square);
        let file = turned.file().offset(files)?;
        let rank = turned.rank().offset(ranks)?;
        Some(shakmaty::Square::from_coords(file, rank))
    })?;
    image.legality().ok().map(|()| image)
}

/// Every image of every example that is final of the same kind.
fn final_images() -> &'static [(usize, FairyPosition)] {
    static IMAGES: OnceLock<Vec<(usize, FairyPosition)>> = OnceLock::new();
    IMAGES.get_or_init(|| {
        let mut images = Vec::new();
        for (index, (position, _)) in examples().iter().enumerate() {
            let kind = position.final_kind();
            for symmetry in Symmetry::ALL {
                for files in -7..=7 {
                    for ranks in -7..=7 {
                        // Pawn directions, rebirth squares and grid cells are
                        // not symmetric: only images that are still final of
                        // the same kind count, and whose royal units keep
                        // their zones (a royal knight near the edge has fewer
                        // squares, so another zone and another code).
                        if let Some(image) = image(position, symmetry, files, ranks)
                            && image.final_kind() == kind
                            && zone_sizes(&image) == zone_sizes(position)
                        {
                            images.push((index, image));
                        }
                    }
                }
            }
        }
        images
    })
}

fn zone_sizes(position: &FairyPosition) -> Vec<usize> {
    let mut sizes: Vec<usize> = FairyFinal::analyse(position.clone())
        .unwrap()
        .zones()
        .iter()
        .map(|zone| zone.zone.squares().len())
        .collect();
    sizes.sort();
    sizes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ep_code_is_invariant(pick in any::<prop::sample::Index>()) {
        let (index, image) = pick.get(final_images());
        let etalon = FairyFinal::analyse(image.clone()).unwrap().etalon();
        prop_assert!(etalon.is_ok(), "{image}: {etalon:?}");
        prop_assert_eq!(&etalon.unwrap().code().to_string(), &examples()[*index].1, "{}", image);
    }
}

/// Enough images are final for the property to bite, and every example
/// has some besides itself (450 in all); and all of them, not only a
/// sample, keep the code.
#[test]
fn every_final_image_keeps_the_code() {
    let images = final_images();
    assert!(images.len() > 200, "{}", images.len());
    for index in 0..examples().len() {
        assert!(
            images.iter().filter(|(i, _)| *i == index).count() > 1,
            "example {}",
            index + 5
        );
    }
}
