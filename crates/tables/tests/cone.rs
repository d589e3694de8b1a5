//! A first probe of a position of a table with pawns builds its cone: the
//! slices its pawns can step into, and the tables they read. It answers
//! as the whole table does, and a whole build later goes on from the
//! slices it kept.

use std::fs;

use ajedrecista_tables::{Material, Tablebase, Variant, file_name};
use shakmaty::Chess;

fn chess(fen: &str) -> Chess {
    fen.parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap()
}

/// Everything a probe view asks, from `tb`.
fn answers(tb: &Tablebase, pos: &Chess) -> String {
    let value = tb.probe(pos, Variant::Standard).unwrap();
    let moves = tb.moves(pos, Variant::Standard).unwrap();
    let pv = tb.principal_variation(pos, Variant::Standard).unwrap();
    format!("{value:?} {moves:?} {pv:?}")
}

#[test]
fn a_cone_answers_as_the_whole_table_and_the_whole_build_goes_on_from_it() {
    let whole = Tablebase::in_memory();
    for (fen, table) in [
        // Black takes en passant or not: KvKP and KPvK after the capture.
        ("8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1", "KPvKP"),
        ("8/8/8/3k4/8/8/1RP5/K7 w - - 0 1", "KRPvK"),
        // Of the colour-flipped twin's table.
        ("k7/1rp5/8/8/3K4/8/8/8 b - - 0 1", "KRPvK"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let tb = Tablebase::new(Some(dir.path().to_owned()));
        let pos = chess(fen);
        let material: Material = table.parse().unwrap();
        let cone = tb.cone(&pos, Variant::Standard).unwrap().unwrap();
        assert_eq!(cone.material, material);
        assert!(cone.slices.len() < cone.table_slices, "{fen}");
        assert_eq!(cone.slices.len(), cone.cone_slices);
        tb.build_cone(&cone, &Default::default()).unwrap();

        let file = dir.path().join(file_name(&material, Variant::Standard));
        let journal = dir.path().join(format!(
            "{}.slices",
            file.file_name().unwrap().to_str().unwrap()
        ));
        assert!(!file.exists(), "{fen}: only the cone");
        let parts = fs::read_dir(&journal)
            .unwrap()
            .filter(|entry| entry.as_ref().unwrap().path().extension() == Some("part".as_ref()))
            .count();
        assert_eq!(parts, cone.slices.len());
        let again = tb.cone(&pos, Variant::Standard).unwrap().unwrap();
        assert!(again.is_built(), "{fen}: built once");
        // A prober of its own reads the slices kept, builds nothing.
        let fresh = Tablebase::new(Some(dir.path().to_owned()));
        assert_eq!(answers(&fresh, &pos), answers(&whole, &pos), "{fen}");
        assert!(!file.exists());

        // A whole build resumes from the cone's slices, and removes them.
        tb.build_node(&material, Variant::Standard, &Default::default())
            .unwrap();
        assert!(file.is_file() && !journal.exists());
        let from_file = Tablebase::new(Some(dir.path().to_owned()));
        assert_eq!(answers(&from_file, &pos), answers(&whole, &pos), "{fen}");
        assert!(tb.cone(&pos, Variant::Standard).unwrap().is_none());
    }
}

#[test]
fn positions_without_a_cone() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(Some(dir.path().to_owned()));
    // No pawns: the table is built whole.
    let pawnless = chess("8/8/8/3k4/8/8/1R6/K7 w - - 0 1");
    assert!(tb.cone(&pawnless, Variant::Standard).unwrap().is_none());
    // No cache folder to keep slices in.
    let pawn = chess("8/8/8/3k4/8/8/1RP5/K7 w - - 0 1");
    assert!(
        Tablebase::in_memory()
            .cone(&pawn, Variant::Standard)
            .unwrap()
            .is_none()
    );
}
