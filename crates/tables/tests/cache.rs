//! The table cache: files are written atomically, verified when read, and a
//! damaged file is reported and rebuilt, never trusted.

use std::{
    fs,
    sync::{Arc, Mutex},
};

use ajedrecista_tables::{
    Event, FileError, Material, SideSummary, TableError, Tablebase, Unusable, Variant, file_name,
    summarize,
};
use shakmaty::ByColor;

fn recording(dir: &std::path::Path) -> (Tablebase, Arc<Mutex<Vec<Event>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let tb = Tablebase::new(Some(dir.to_owned())).on_event(move |e| sink.lock().unwrap().push(e));
    (tb, events)
}

/// The position of a FEN.
fn chess(fen: &str) -> shakmaty::Chess {
    fen.parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap()
}

fn krk() -> Material {
    "KRvK".parse().unwrap()
}

fn kpk() -> Material {
    "KPvK".parse().unwrap()
}

/// The counts of a table, pawnless or with pawns.
fn summary(tb: &Tablebase, material: &Material) -> ByColor<SideSummary> {
    if material.has_pawns() {
        tb.pawn_table(material).unwrap().summarize()
    } else {
        summarize(&tb.table(material, Variant::Standard).unwrap())
    }
}

fn a_saved_table_is_loaded_without_a_build(material: &Material) {
    let dir = tempfile::tempdir().unwrap();
    let (tb, events) = recording(dir.path());
    let built = summary(&tb, material);
    assert!(
        events
            .lock()
            .unwrap()
            .iter()
            .any(|e| matches!(e, Event::Built { material: m, .. } if m == material))
    );
    assert!(
        dir.path()
            .join(file_name(material, Variant::Standard))
            .exists()
    );
    // No temporary file is left behind.
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        names.iter().all(|n| n.to_string_lossy().ends_with(".ajt")),
        "{names:?}"
    );

    let (tb, events) = recording(dir.path());
    let loaded = summary(&tb, material);
    assert_eq!(built, loaded);
    assert!(
        events.lock().unwrap().is_empty(),
        "{:?}",
        events.lock().unwrap()
    );
}

#[test]
fn a_saved_pawnless_table_is_loaded_without_a_build() {
    a_saved_table_is_loaded_without_a_build(&krk());
}

#[test]
fn a_saved_pawn_table_is_loaded_without_a_build() {
    a_saved_table_is_loaded_without_a_build(&kpk());
}

fn damaged_file_is_rebuilt(
    material: &Material,
    damage: impl Fn(&mut Vec<u8>),
    expected: impl Fn(&FileError) -> bool,
) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file_name(material, Variant::Standard));
    let (tb, _) = recording(dir.path());
    let good = summary(&tb, material);
    let mut bytes = fs::read(&path).unwrap();
    let original = bytes.clone();
    damage(&mut bytes);
    fs::write(&path, &bytes).unwrap();

    let (tb, events) = recording(dir.path());
    let again = summary(&tb, material);
    assert_eq!(good, again);
    let events = events.lock().unwrap();
    assert!(
        matches!(&events[0], Event::Rebuilding { reason: Unusable::File(r), .. } if expected(r)),
        "{events:?}"
    );
    assert_eq!(
        fs::read(&path).unwrap(),
        original,
        "the rebuilt file replaces the damaged one"
    );
}

#[test]
fn a_truncated_file_is_rebuilt() {
    damaged_file_is_rebuilt(
        &krk(),
        |b| b.truncate(b.len() - 100),
        |r| matches!(r, FileError::Truncated { .. }),
    );
}

#[test]
fn a_corrupt_body_is_rebuilt() {
    damaged_file_is_rebuilt(&krk(), |b| b[5000] ^= 0x40, |r| *r == FileError::Checksum);
}

#[test]
fn a_foreign_file_is_rebuilt() {
    damaged_file_is_rebuilt(&krk(), |b| b[0] = b'X', |r| *r == FileError::BadMagic);
}

#[test]
fn a_file_of_another_table_is_rebuilt() {
    damaged_file_is_rebuilt(
        &krk(),
        |b| b[13] = b'Q',
        |r| matches!(r, FileError::WrongTable { expected, .. } if expected == "KRvK (standard)"),
    );
}

#[test]
fn a_truncated_pawn_file_is_rebuilt() {
    damaged_file_is_rebuilt(
        &kpk(),
        |b| b.truncate(b.len() - 100),
        |r| matches!(r, FileError::Truncated { .. }),
    );
}

#[test]
fn a_corrupt_pawn_body_is_rebuilt() {
    damaged_file_is_rebuilt(&kpk(), |b| b[3000] ^= 0x40, |r| *r == FileError::Checksum);
}

/// The header names the material, and the material implies the layout: a
/// pawnless name on a pawn table's file is refused.
#[test]
fn a_pawn_file_under_another_name_is_rebuilt() {
    damaged_file_is_rebuilt(
        &kpk(),
        |b| b[13] = b'Q',
        |r| matches!(r, FileError::WrongTable { expected, .. } if expected == "KPvK (standard)"),
    );
}

/// A pawn table's file opened for probes answers as the built table does,
/// en passant rights included.
#[test]
fn probes_of_a_pawn_file_equal_the_built_table() {
    let dir = tempfile::tempdir().unwrap();
    let (built, _) = recording(dir.path());
    built.pawn_table(&"KPvKP".parse().unwrap()).unwrap();
    let (cold, events) = recording(dir.path());
    for fen in [
        "k7/8/8/8/1Pp5/8/8/7K b - b3 0 1",
        "8/8/8/1k6/8/8/K5P1/8 w - - 0 1",
        "8/k5p1/8/8/1K6/8/8/8 b - - 0 1",
        "8/8/3k4/8/2pP4/8/8/4K3 b - d3 0 1",
    ] {
        let pos = chess(fen);
        assert_eq!(
            cold.probe(&pos, Variant::Standard).unwrap(),
            built.probe(&pos, Variant::Standard).unwrap(),
            "{fen}"
        );
    }
    assert!(
        events.lock().unwrap().is_empty(),
        "{:?}",
        events.lock().unwrap()
    );
}

/// `load_file` reads and checks one file and keeps its table; a file it
/// refuses is an error, and nothing is built or written.
#[test]
fn load_file_checks_a_file_and_never_rebuilds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file_name(&krk(), Variant::Standard));
    let (built, _) = recording(dir.path());
    let good = summary(&built, &krk());
    let original = fs::read(&path).unwrap();

    let (tb, events) = recording(dir.path());
    let loaded = tb.load_file(&path, &krk(), Variant::Standard).unwrap();
    assert_eq!(summarize(&loaded), good);
    assert!(Arc::ptr_eq(
        &loaded,
        &tb.table(&krk(), Variant::Standard).unwrap()
    ));

    let mut bytes = original.clone();
    bytes[5000] ^= 0x40;
    fs::write(&path, &bytes).unwrap();
    let fresh = Tablebase::in_memory();
    assert!(matches!(
        fresh.load_file(&path, &krk(), Variant::Standard),
        Err(TableError::File(FileError::Checksum))
    ));
    assert!(matches!(
        fresh.load_file(&dir.path().join("none.ajt"), &krk(), Variant::Standard),
        Err(TableError::Io { .. })
    ));
    assert!(matches!(
        fresh.load_file(&path, &kpk(), Variant::Standard),
        Err(TableError::PawnMaterial(_))
    ));
    assert_eq!(fs::read(&path).unwrap(), bytes, "the refused file is left");
    assert!(events.lock().unwrap().is_empty());
}

/// A six-man table, with pawns or without, is not built on demand: probing
/// a position of one whose file is not in the cache, asking for the table
/// or its counts are errors at once, and nothing is built or written (not
/// even the five-man tables its captures lead into); only `solve` names
/// one.
#[test]
fn six_men_are_not_built_on_demand() {
    for (fen, name) in [
        ("7k/8/8/8/8/8/RRRR4/K7 w - - 0 1", "KRRRRvK"),
        ("7k/7r/8/8/8/8/1P6/KRR5 w - - 0 1", "KRRPvKR"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (tb, events) = recording(dir.path());
        let material: Material = name.parse().unwrap();
        assert!(
            matches!(
                tb.probe(&chess(fen), Variant::Standard),
                Err(TableError::NotBuiltOnDemand(m)) if m == material
            ),
            "{name}"
        );
        let refused =
            |result: Result<(), TableError>| matches!(result, Err(TableError::NotBuiltOnDemand(_)));
        if material.has_pawns() {
            assert!(refused(tb.pawn_table(&material).map(drop)));
            assert!(refused(
                tb.summary(&material, Variant::Standard, &|_, _| {})
                    .map(drop)
            ));
            let in_memory = Tablebase::in_memory();
            assert!(refused(in_memory.pawn_table(&material).map(drop)));
        } else {
            assert!(refused(tb.table(&material, Variant::Standard).map(drop)));
        }
        assert!(events.lock().unwrap().is_empty(), "{name}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "{name}");
    }
}

/// A build told to stop ends with `Stopped` at its next rank, and nothing
/// half-built is kept or saved; the same request later builds the table.
#[test]
fn a_stopped_build_keeps_nothing() {
    let material: Material = "KQvKR".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (tb, _) = recording(dir.path());
    let subtables = tb.subtables(&material, Variant::Standard).unwrap();
    let ranks = std::sync::atomic::AtomicUsize::new(0);
    let stopped =
        ajedrecista_tables::build(&material, Variant::Standard, subtables, &|p| match p {
            ajedrecista_tables::Progress::Rank { .. }
                if ranks.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 2 =>
            {
                std::ops::ControlFlow::Break(())
            }
            _ => std::ops::ControlFlow::Continue(()),
        });
    assert!(matches!(stopped, Err(TableError::Stopped(m)) if m == material));
    assert_eq!(ranks.into_inner(), 3);

    let stop = std::sync::atomic::AtomicBool::new(true);
    assert!(matches!(
        tb.prepare(&material, Variant::Standard, &stop),
        Err(TableError::Stopped(m)) if m == material
    ));
    assert!(
        !dir.path()
            .join(file_name(&material, Variant::Standard))
            .exists()
    );
    stop.store(false, std::sync::atomic::Ordering::Relaxed);
    tb.prepare(&material, Variant::Standard, &stop).unwrap();
    assert!(
        dir.path()
            .join(file_name(&material, Variant::Standard))
            .is_file()
    );
}
