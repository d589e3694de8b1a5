//! The coding crate's material reader (`FairyMaterial`, and
//! `OrthodoxMaterial` read through it) and the tables crate's `Material`
//! are two readers of one notation, kept apart because they read different
//! things (docs/architecture.md, "Two readers of material"): an orthodox
//! name must mean the same men in both.

use ajedrecista_coding::OrthodoxMaterial;
use ajedrecista_tables::Material;

/// The men of each side of a name, sorted: `KRvKP` -> (`KR`, `KP`).
fn men(name: &str) -> (String, String) {
    let sorted = |side: &str| {
        let mut men: Vec<char> = side.chars().collect();
        men.sort_unstable();
        men.into_iter().collect::<String>()
    };
    let (white, black) = name.split_once('v').expect("a 'v' between the sides");
    (sorted(white), sorted(black))
}

#[test]
fn every_table_name_reads_as_the_same_orthodox_material() {
    let tables = Material::every(6);
    assert!(tables.len() > 300, "{}", tables.len());
    for material in tables.iter().flat_map(|m| [m.clone(), m.flipped()]) {
        let name = material.to_string();
        let orthodox: OrthodoxMaterial = name.parse().unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(men(&orthodox.to_string()), men(&name), "{name}");
    }
}

#[test]
fn both_refuse_what_is_no_orthodox_material() {
    for name in ["", "KRK", "KKvK", "QvK", "KRvKK", "KXvK", "KRvKv"] {
        assert!(name.parse::<Material>().is_err(), "tables read {name:?}");
        assert!(
            name.parse::<OrthodoxMaterial>().is_err(),
            "coding read {name:?}"
        );
    }
    // Both read the letters in either case.
    let lower: Material = "krvkn".parse().unwrap();
    let orthodox: OrthodoxMaterial = "krvkn".parse().unwrap();
    assert_eq!(men(&orthodox.to_string()), men(&lower.to_string()));
    // Seven men: beyond both.
    assert!("KQQQQQvK".parse::<Material>().is_err());
    assert!("KQQQQQvK".parse::<OrthodoxMaterial>().is_err());
}
