//! The table cache: files are written atomically, verified when read, and a
//! damaged file is reported and rebuilt, never trusted.

use std::{
    fs,
    sync::{Arc, Mutex},
};

use ajedrecista_tables::{
    Event, FileError, Material, Tablebase, Unusable, Variant, file_name, summarize,
};

fn recording(dir: &std::path::Path) -> (Tablebase, Arc<Mutex<Vec<Event>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let tb = Tablebase::new(Some(dir.to_owned())).on_event(move |e| sink.lock().unwrap().push(e));
    (tb, events)
}

fn krk() -> Material {
    "KRvK".parse().unwrap()
}

#[test]
fn a_saved_table_is_loaded_without_a_build() {
    let dir = tempfile::tempdir().unwrap();
    let (tb, events) = recording(dir.path());
    let built = summarize(&tb.table(&krk(), Variant::Standard).unwrap());
    assert!(
        events
            .lock()
            .unwrap()
            .iter()
            .any(|e| matches!(e, Event::Built { .. }))
    );
    assert!(
        dir.path()
            .join(file_name(&krk(), Variant::Standard))
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
    let loaded = summarize(&tb.table(&krk(), Variant::Standard).unwrap());
    assert_eq!(built, loaded);
    assert!(
        events.lock().unwrap().is_empty(),
        "{:?}",
        events.lock().unwrap()
    );
}

fn damaged_file_is_rebuilt(damage: impl Fn(&mut Vec<u8>), expected: impl Fn(&FileError) -> bool) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file_name(&krk(), Variant::Standard));
    let (tb, _) = recording(dir.path());
    let good = summarize(&tb.table(&krk(), Variant::Standard).unwrap());
    let mut bytes = fs::read(&path).unwrap();
    let original = bytes.clone();
    damage(&mut bytes);
    fs::write(&path, &bytes).unwrap();

    let (tb, events) = recording(dir.path());
    let again = summarize(&tb.table(&krk(), Variant::Standard).unwrap());
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
        |b| b.truncate(b.len() - 100),
        |r| matches!(r, FileError::Truncated { .. }),
    );
}

#[test]
fn a_corrupt_body_is_rebuilt() {
    damaged_file_is_rebuilt(|b| b[5000] ^= 0x40, |r| *r == FileError::Checksum);
}

#[test]
fn a_foreign_file_is_rebuilt() {
    damaged_file_is_rebuilt(|b| b[0] = b'X', |r| *r == FileError::BadMagic);
}

#[test]
fn a_file_of_another_table_is_rebuilt() {
    damaged_file_is_rebuilt(
        |b| b[13] = b'Q',
        |r| matches!(r, FileError::WrongTable { expected, .. } if expected == "KRvK (standard)"),
    );
}
