//! Syzygy files read through the tables crate: against python-chess's
//! reading of the same files (tests/data/syzygy/reference.tsv, made by
//! scripts/syzygy_reference.py), against our DTM tables, and the errors.

use std::path::{Path, PathBuf};

use ajedrecista_tables::{
    CastlingRights, Syzygy, SyzygyError, SyzygyWdl, Tablebase, Variant, Wdl, read_fen,
};
use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

/// The reference rows: FEN, WDL (-2 to 2), DTZ.
fn reference() -> Vec<(String, i8, i32)> {
    let text = std::fs::read_to_string(data().join("reference.tsv")).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{line}");
            (
                fields[0].to_owned(),
                fields[1].parse().unwrap(),
                fields[2].parse().unwrap(),
            )
        })
        .collect()
}

fn position(fen: &str) -> Chess {
    read_fen(fen, CastlingRights::Refused).unwrap()
}

#[test]
fn our_reading_is_python_chess_reading() {
    let syzygy = Syzygy::open(&data()).unwrap();
    let rows = reference();
    assert!(rows.len() >= 300, "{} rows", rows.len());
    let mut en_passant = 0;
    let mut black = 0;
    for (fen, wdl, dtz) in &rows {
        let pos = position(fen);
        en_passant += usize::from(pos.ep_square(shakmaty::EnPassantMode::Legal).is_some());
        black += usize::from(pos.turn() == Color::Black);
        let value = syzygy.probe(&pos).unwrap();
        assert_eq!((value.wdl.number(), value.dtz), (*wdl, *dtz), "{fen}");
    }
    // The reference holds positions of both sides to move, and en passant
    // captures (which no table stores: the probe plays them).
    assert!(en_passant >= 20, "{en_passant} en passant positions");
    assert!(black >= rows.len() / 4 && black <= rows.len() * 3 / 4);
}

#[test]
fn syzygy_and_our_dtm_agree_and_its_best_move_keeps_the_result() {
    let syzygy = Syzygy::open(&data()).unwrap();
    let folder = tempfile::tempdir().unwrap();
    let tables = Tablebase::new(Some(folder.path().to_path_buf()));
    let mut results = [0; 3];
    let mut best_moves = 0;
    for (fen, _, _) in reference() {
        let pos = position(&fen);
        let value = syzygy.probe(&pos).unwrap();
        let dtm = tables.probe(&pos, Variant::Standard).unwrap();
        assert_eq!(value.wdl.without_fifty_moves(), dtm.wdl(), "{fen}");
        results[match dtm.wdl() {
            Wdl::Win => 0,
            Wdl::Draw => 1,
            Wdl::Loss => 2,
        }] += 1;
        // The promotions' tables are not in the folder: positions whose
        // moves' DTZ lead to one are skipped.
        let engine = match syzygy.engine_move(&pos) {
            Err(SyzygyError::NoTable { material, ext, .. }) => {
                assert!(!data().join(format!("{material}.{ext}")).exists());
                continue;
            }
            answer => answer.unwrap(),
        };
        let Some(engine) = engine else {
            assert!(pos.legal_moves().is_empty(), "{fen}");
            continue;
        };
        best_moves += 1;
        assert!(pos.is_legal(engine.best), "{fen}");
        let mut after = pos.clone();
        after.play_unchecked(engine.best);
        let kept = tables.probe(&after, Variant::Standard).unwrap().parent();
        assert_eq!(kept.wdl(), dtm.wdl(), "{fen}: {:?}", engine.best);
        assert_eq!(
            engine.centipawns.signum(),
            match value.wdl {
                SyzygyWdl::Win => 1,
                SyzygyWdl::Loss => -1,
                _ => 0,
            },
            "{fen}"
        );
    }
    assert!(results.iter().all(|&n| n > 0), "{results:?}");
    assert!(best_moves >= 250, "{best_moves} best moves checked");
}

#[test]
fn missing_bad_and_unheld_positions_are_typed_errors() {
    let syzygy = Syzygy::open(&data()).unwrap();
    assert_eq!(syzygy.most_men(), 4);
    // KBNvK's files are not in the folder.
    let err = syzygy
        .probe(&position("8/8/8/4k3/8/8/8/KBN5 w - - 0 1"))
        .unwrap_err();
    assert!(
        matches!(&err, SyzygyError::NoTable { material, .. } if material == "KBNvK"),
        "{err}"
    );
    assert!(err.to_string().contains("KBNvK.rtbw"), "{err}");
    let err = syzygy
        .probe(&position("8/8/8/4k3/8/8/8/KQRBN3 w - - 0 1"))
        .unwrap_err();
    assert!(
        matches!(
            err,
            SyzygyError::TooManyMen {
                men: 6,
                most: 4,
                ..
            }
        ),
        "{err}"
    );
    let castling = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position::<Chess>(CastlingMode::Standard)
        .unwrap();
    assert!(matches!(
        syzygy.probe(&castling),
        Err(SyzygyError::CastlingRights)
    ));

    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        Syzygy::open(empty.path()),
        Err(SyzygyError::NoFiles(_))
    ));
    assert!(matches!(
        Syzygy::open(&empty.path().join("none")),
        Err(SyzygyError::Folder { .. })
    ));
    // A size no Syzygy file has is refused when the folder is opened; a
    // file of a right size but not a table, at its first probe.
    std::fs::write(empty.path().join("KQvK.rtbw"), [0u8; 17]).unwrap();
    assert!(matches!(
        Syzygy::open(empty.path()),
        Err(SyzygyError::BadFile { .. })
    ));
    std::fs::write(empty.path().join("KQvK.rtbw"), [0u8; 80]).unwrap();
    let forged = Syzygy::open(empty.path()).unwrap();
    let err = forged
        .probe(&position("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"))
        .unwrap_err();
    assert!(
        matches!(&err, SyzygyError::BadTable { material, .. } if material == "KQvK"),
        "{err}"
    );
}
