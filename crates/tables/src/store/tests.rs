//! Tests of the store: subtables lent or kept, sides read, files counted,
//! damaged files rebuilt once, probes that build nothing, panics survived.

use std::{fs, sync::atomic::Ordering};

use shakmaty::Position;

use super::*;
use crate::{
    jobs::{JobSettings, jobs},
    plan::Step,
};

fn key(material: &str) -> (Material, Variant) {
    (material.parse().unwrap(), Variant::Standard)
}

fn kept(tb: &Tablebase, key: &(Material, Variant)) -> bool {
    tb.prober
        .recent
        .contains(&crate::recent::Key::of_table(key.0.clone(), key.1))
}

fn alive(tb: &Tablebase, key: &(Material, Variant)) -> bool {
    let lent = tb.lent.lock().unwrap();
    lent.get(key).is_some_and(|weak| weak.strong_count() > 0)
}

#[test]
fn subtables_are_not_kept_after_their_build_where_files_hold_them() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(Some(dir.path().to_path_buf()));
    let (kqvkr, kqvk) = (key("KQvKR"), key("KQvK"));
    tb.table(&kqvkr.0, kqvkr.1).unwrap();
    assert!(kept(&tb, &kqvkr));
    assert!(!kept(&tb, &kqvk) && !alive(&tb, &kqvk));
    assert!(dir.path().join(format::file_name(&kqvk.0, kqvk.1)).exists());

    // Held by a caller, a lent table is shared; asked for, it is kept.
    let subtables = tb.subtables(&kqvkr.0, kqvkr.1).unwrap();
    assert!(alive(&tb, &kqvk) && !kept(&tb, &kqvk));
    let asked = tb.table(&kqvk.0, kqvk.1).unwrap();
    assert!(Arc::ptr_eq(&asked, &subtables[&kqvk.0]));
    drop(subtables);
    assert!(kept(&tb, &kqvk));
}

/// With a cache folder, a build without pawns reads of each table on
/// disk that its captures lead into only the side to move after the
/// capture, and builds the bytes a build in memory does.
#[test]
fn a_build_without_pawns_reads_one_side_of_each_capture_table() {
    let dir = tempfile::tempdir().unwrap();
    let (kqvkr, variant) = key("KQvKR");
    Tablebase::new(Some(dir.path().to_path_buf()))
        .table(&kqvkr, variant)
        .unwrap();
    fs::remove_file(dir.path().join(format::file_name(&kqvkr, variant))).unwrap();

    let tb = Tablebase::new(Some(dir.path().to_path_buf()));
    let read = tb.capture_tables(&kqvkr, variant).unwrap();
    // White takes the rook (black to move), black takes the queen.
    for (sub, side) in [("KQvK", Color::Black), ("KvKR", Color::White)] {
        let table = &read[&sub.parse::<Material>().unwrap()];
        assert!(table.has_side(side) && !table.has_side(!side), "{sub}");
    }
    drop(read);
    let from_files = tb.table(&kqvkr, variant).unwrap();
    let in_memory = Tablebase::in_memory().table(&kqvkr, variant).unwrap();
    for turn in Color::ALL {
        assert!(from_files.bytes(turn) == in_memory.bytes(turn), "{turn:?}");
    }
}

#[test]
fn subtables_are_kept_without_a_cache_folder() {
    let tb = Tablebase::in_memory();
    let (kqvkr, kqvk) = (key("KQvKR"), key("KQvK"));
    tb.table(&kqvkr.0, kqvkr.1).unwrap();
    assert!(kept(&tb, &kqvkr) && kept(&tb, &kqvk));
}

/// A prober lacking a position's table answers the typed error at once
/// and writes nothing: no table file, no temporary file.
#[test]
fn a_probe_of_a_table_not_built_is_a_typed_error_and_writes_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let prober = Prober::new(Some(dir.path().to_path_buf()));
    for fen in [
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    ] {
        let pos = crate::read_fen(fen, crate::CastlingRights::Refused).unwrap();
        let material = Material::from_board(pos.board()).unwrap();
        assert!(!prober.has_table(&material, Variant::Standard));
        match prober.probe(&pos, Variant::Standard) {
            Err(TableError::NotBuilt(missing)) => assert_eq!(missing, material),
            other => panic!("{fen}: {other:?}"),
        }
        assert!(matches!(
            prober.moves(&pos, Variant::Standard),
            Err(TableError::NotBuilt(_))
        ));
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    // Built by the store, the same folder answers.
    let tb = Tablebase::new(Some(dir.path().to_path_buf()));
    let pos = crate::read_fen(
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        crate::CastlingRights::Refused,
    )
    .unwrap();
    let built = tb.probe(&pos, Variant::Standard).unwrap();
    assert_eq!(prober.probe(&pos, Variant::Standard).unwrap(), built);
}

/// A panic inside a build (injected through its progress) leaves the
/// tablebase working: the next build, the same build again and a probe
/// all succeed in the same process, though the panic was raised while
/// the build lock was held.
#[test]
fn a_panic_inside_a_build_leaves_the_next_build_and_probe_working() {
    use std::sync::atomic::AtomicBool;
    let armed = Arc::new(AtomicBool::new(true));
    let trigger = Arc::clone(&armed);
    let tb = Tablebase::in_memory().on_progress(move |_, _, _| {
        if trigger.swap(false, Ordering::SeqCst) {
            panic!("injected into a build");
        }
    });
    let krk: Material = "KRvK".parse().unwrap();
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        tb.table(&krk, Variant::Standard)
    }));
    assert!(panicked.is_err(), "the injected panic reached the caller");
    assert!(!armed.load(Ordering::SeqCst));
    let kqk: Material = "KQvK".parse().unwrap();
    tb.table(&kqk, Variant::Standard).unwrap();
    tb.table(&krk, Variant::Standard).unwrap();
    let pos = crate::read_fen(
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        crate::CastlingRights::Refused,
    )
    .unwrap();
    assert!(tb.probe(&pos, Variant::Standard).unwrap().wdl() == crate::Wdl::Win);
    assert!(tb.prober().probe(&pos, Variant::Standard).unwrap().wdl() == crate::Wdl::Win);
}

/// A table without pawns whose file is in the cache folder is counted
/// from the file, chunk by chunk, and is not held after; its counts are
/// those of the table in memory, in both variants. One whose file is
/// damaged is rebuilt and counted.
#[test]
fn a_table_without_pawns_is_counted_from_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let cached = || Tablebase::new(Some(dir.path().to_path_buf()));
    for (name, variant) in [
        ("KRvKN", Variant::Standard),
        ("KQvK", Variant::FixedKing(shakmaty::Square::C3)),
    ] {
        let material: Material = name.parse().unwrap();
        let key = (material.clone(), variant);
        let table = Tablebase::in_memory().table(&material, variant).unwrap();
        let in_memory = crate::summarize(&table);
        cached().table(&material, variant).unwrap();
        let path = dir.path().join(format::file_name(&material, variant));
        let before = fs::read(&path).unwrap();

        let from_file = cached();
        let heard = Mutex::new(Vec::new());
        assert_eq!(
            from_file
                .summary(&material, variant, &|done, total| heard
                    .lock()
                    .unwrap()
                    .push((done, total)))
                .unwrap(),
            (material.clone(), in_memory.clone())
        );
        // The count is told from nothing to every number of both sides.
        let heard = heard.into_inner().unwrap();
        let all = 2 * Table::numbers_per_side(&material, variant) as u64;
        assert_eq!(heard.first(), Some(&(0, all)));
        assert_eq!(heard.last(), Some(&(all, all)));
        assert!(heard.windows(2).all(|w| w[0].0 <= w[1].0), "{heard:?}");
        assert!(!kept(&from_file, &key) && !alive(&from_file, &key));

        let mut damaged = before.clone();
        let at = damaged.len() / 2;
        damaged[at] ^= 0x40;
        fs::write(&path, &damaged).unwrap();
        let (rebuilt, events) = listened(cached());
        assert_eq!(
            rebuilt.summary(&material, variant, &|_, _| {}).unwrap().1,
            in_memory
        );
        assert!(matches!(
            events.lock().unwrap()[..],
            [Event::Rebuilding { .. }, ..]
        ));
        assert_eq!(fs::read(&path).unwrap(), before);
    }
}

/// Tables read from their files by every rayon thread at once: each
/// read decompresses on rayon's threads, which used to be all waiting
/// for the reads, so that every read ran out its time limit and the
/// good files were rebuilt.
#[test]
fn files_read_by_every_rayon_thread_at_once_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["KQvK", "KRvK", "KBNvK", "KQvKR"];
    for name in names {
        Tablebase::new(Some(dir.path().to_path_buf()))
            .table(&name.parse().unwrap(), Variant::Standard)
            .unwrap();
    }
    let (tb, events) = listened(Tablebase::new(Some(dir.path().to_path_buf())));
    let all_in = std::sync::Barrier::new(rayon::current_num_threads());
    let started = std::time::Instant::now();
    rayon::broadcast(|context| {
        all_in.wait();
        let name = names[context.index() % names.len()];
        tb.table(&name.parse().unwrap(), Variant::Standard).unwrap();
    });
    assert_eq!(*events.lock().unwrap(), Vec::new());
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

/// A table with pawns built into its file, level by level, has the
/// bytes and the counts of one built whole in memory, counted as it
/// was written and again from its file: both colours promote and take
/// en passant in KPvKP.
#[test]
fn a_pawn_table_built_into_its_file_equals_one_built_in_memory() {
    let material: Material = "KPvKP".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let from_file = Tablebase::new(Some(dir.path().to_path_buf()));
    let (shown, counted) = from_file
        .summary(&material, Variant::Standard, &|_, _| {})
        .unwrap();
    assert_eq!(shown, material);
    assert!(
        !from_file
            .prober
            .recent
            .contains(&crate::recent::Key::Pawns(material.clone()))
    );
    let in_memory = Tablebase::in_memory().pawn_table(&material).unwrap();
    assert_eq!(counted, in_memory.summarize());
    // Counted as it was written above; from its file now.
    let (_, from_its_file) = Tablebase::new(Some(dir.path().to_path_buf()))
        .summary(&material, Variant::Standard, &|_, _| {})
        .unwrap();
    assert_eq!(from_its_file, counted);
    let read_back = from_file.pawn_table(&material).unwrap();
    for turn in Color::ALL {
        assert_eq!(read_back.table().bytes(turn), in_memory.table().bytes(turn));
    }
    assert!(counted.white.longest().is_some());
}

/// A table a pawn build reads whose file has a damaged chunk (its
/// index right: format 5 opens without reading the chunks) is found
/// before the build, reported and built again, and the build ends
/// with the right bytes; it used to fail on the chunk at every run.
#[test]
fn a_damaged_promotion_table_is_rebuilt_before_a_pawn_build() {
    let dir = tempfile::tempdir().unwrap();
    let material: Material = "KRvKP".parse().unwrap();
    its_tables_alone(dir.path(), &material);
    let promoted: Material = "KRvKQ".parse().unwrap();
    let damaged = dir
        .path()
        .join(format::file_name(&promoted, Variant::Standard));
    let mut bytes = fs::read(&damaged).unwrap();
    let len = bytes.len();
    for at in [len / 3, 2 * len / 3] {
        bytes[at] ^= 0x40;
    }
    fs::write(&damaged, &bytes).unwrap();
    let (rebuilt, events) = listened(Tablebase::new(Some(dir.path().to_path_buf())));
    rebuilt
        .summary(&material, Variant::Standard, &|_, _| {})
        .unwrap();
    assert!(
        events
            .lock()
            .unwrap()
            .iter()
            .any(|event| matches!(event, Event::Rebuilding { path, .. } if *path == damaged))
    );
    assert_ne!(fs::read(&damaged).unwrap(), bytes);
    assert_built_as_in_memory(&rebuilt, &material);
}

/// Files of format 5, from before the pawnless tables' men between the
/// kings and the last were numbered over 62 squares: only the pawnless
/// ones of four men or more are rebuilt (the version named), the
/// others read as they are.
#[test]
fn a_format_5_file_is_rebuilt_where_the_numbering_changed() {
    let dir = tempfile::tempdir().unwrap();
    let cached = || Tablebase::new(Some(dir.path().to_path_buf()));
    cached()
        .summary(&"KRvKP".parse().unwrap(), Variant::Standard, &|_, _| {})
        .unwrap();
    let mut files: Vec<(Material, PathBuf)> = fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap();
            (name.split('.').next().unwrap().parse().unwrap(), path)
        })
        .collect();
    files.sort_by(|a, b| a.1.cmp(&b.1));
    let renumbered = |m: &Material| !m.has_pawns() && m.len() >= 4;
    assert!(files.iter().any(|(m, _)| renumbered(m)));
    assert!(files.iter().any(|(m, _)| !renumbered(m)));
    let version =
        |path: &Path| u32::from_le_bytes(fs::read(path).unwrap()[8..12].try_into().unwrap());
    for (_, path) in &files {
        let mut bytes = fs::read(path).unwrap();
        bytes[8..12].copy_from_slice(&5u32.to_le_bytes());
        fs::write(path, &bytes).unwrap();
    }
    let (tb, events) = listened(cached());
    for (material, _) in &files {
        tb.summary(material, Variant::Standard, &|_, _| {}).unwrap();
    }
    let rebuilt: Vec<PathBuf> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|event| match event {
            Event::Rebuilding { path, reason } => {
                let old = Unusable::File(FileError::Version(5, format::VERSION));
                assert_eq!(*reason, old);
                Some(path.clone())
            }
            _ => None,
        })
        .collect();
    for (material, path) in &files {
        assert_eq!(rebuilt.contains(path), renumbered(material), "{material}");
        let expected = if renumbered(material) {
            format::VERSION
        } else {
            5
        };
        assert_eq!(version(path), expected, "{material}");
    }
}

/// A capture table whose file fails its check is reported once and
/// rebuilt once before a build reads it (it used to be reported twice:
/// read for one side, then again by its own build).
#[test]
fn a_damaged_capture_table_is_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let cached = || Tablebase::new(Some(dir.path().to_path_buf()));
    let material: Material = "KRvKR".parse().unwrap();
    cached().table(&material, Variant::Standard).unwrap();
    let file = |name: &str| {
        let material: Material = name.parse().unwrap();
        dir.path()
            .join(format::file_name(&material, Variant::Standard))
    };
    fs::remove_file(file("KRvKR")).unwrap();
    let damaged = file("KRvK");
    let mut bytes = fs::read(&damaged).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    fs::write(&damaged, &bytes).unwrap();
    let (tb, events) = listened(cached());
    let built = tb.table(&material, Variant::Standard).unwrap();
    let reports = events
        .lock()
        .unwrap()
        .iter()
        .filter(|event| matches!(event, Event::Rebuilding { path, .. } if *path == damaged))
        .count();
    assert_eq!(reports, 1);
    assert_ne!(fs::read(&damaged).unwrap(), bytes);
    let in_memory = Tablebase::in_memory()
        .table(&material, Variant::Standard)
        .unwrap();
    assert_eq!(built.bytes(Color::White), in_memory.bytes(Color::White));
}

/// Issue 57, item 1: a table file whose reads hang (its mount stopped
/// answering) fails its probes at the limit, naming it, and is neither
/// removed nor built again, by a probe or by a build that reads it;
/// other tables' probes answer meanwhile, however often the hung file
/// is asked for (more times than there are cores); once it answers, it
/// is read.
#[test]
fn a_hung_file_is_left_alone_and_holds_up_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let cached = || Tablebase::new(Some(dir.path().to_path_buf()));
    let file = |name: &str| {
        let material: Material = name.parse().unwrap();
        dir.path()
            .join(format::file_name(&material, Variant::Standard))
    };
    for name in ["KRvK", "KQvK"] {
        cached()
            .table(&name.parse().unwrap(), Variant::Standard)
            .unwrap();
    }
    let hung = file("KRvK");
    let before = fs::read(&hung).unwrap();
    let fen = |fen| crate::read_fen(fen, crate::CastlingRights::Refused).unwrap();
    let (krk, kqk) = (
        fen("8/8/8/3k4/8/8/1R6/K7 w - - 0 1"),
        fen("8/8/8/3k4/8/8/1Q6/K7 w - - 0 1"),
    );
    let (tb, events) = listened(cached());
    let stall = format::Stall::new(&hung, std::time::Duration::from_millis(200));
    let started = std::time::Instant::now();
    for _ in 0..2 * rayon::current_num_threads() + 2 {
        match tb.probe(&krk, Variant::Standard) {
            Err(TableError::Hung { path, .. }) => assert_eq!(path, hung),
            other => panic!("{other:?}"),
        }
        assert!(tb.probe(&kqk, Variant::Standard).unwrap().plies().is_some());
    }
    let krvkr: Material = "KRvKR".parse().unwrap();
    assert!(matches!(
        tb.table(&krvkr, Variant::Standard),
        Err(TableError::Hung { .. })
    ));
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(*events.lock().unwrap(), Vec::new());
    assert_eq!(fs::read(&hung).unwrap(), before);
    assert!(!file("KRvKR").exists());
    drop(stall);
    let started = std::time::Instant::now();
    let value = loop {
        match tb.probe(&krk, Variant::Standard) {
            Err(TableError::Hung { .. }) => {
                assert!(started.elapsed() < std::time::Duration::from_secs(5));
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            other => break other.unwrap(),
        }
    };
    let expected = Tablebase::in_memory()
        .probe(&krk, Variant::Standard)
        .unwrap();
    assert_eq!(value, expected);
    assert_eq!(*events.lock().unwrap(), Vec::new());
}

/// Folders that `writable` calls read-only: the tests run as root, whom a
/// folder's mode does not stop.
static READ_ONLY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

pub(super) fn read_only(dir: &Path) -> bool {
    lock(&READ_ONLY).iter().any(|read_only| read_only == dir)
}

/// Issue 57, item 10: a cache folder that cannot be written in is read
/// for the tables it holds, and a table with pawns it lacks is built in
/// memory (it was built into its file, and failed), with one event
/// saying so; nothing is written there. A table without pawns it lacks
/// is built in memory too, and not said again.
#[test]
fn a_read_only_folder_is_read_and_tables_with_pawns_built_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let material: Material = "KRPvK".parse().unwrap();
    its_tables_alone(dir.path(), &material);
    let promoted: Material = "KRRvK".parse().unwrap();
    fs::remove_file(
        dir.path()
            .join(format::file_name(&promoted, Variant::Standard)),
    )
    .unwrap();
    let names = || {
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let before = names();
    lock(&READ_ONLY).push(dir.path().to_path_buf());
    let (tb, events) = listened(Tablebase::new(Some(dir.path().to_path_buf())));
    let pos = crate::read_fen(
        "8/8/8/3k4/8/8/1RP5/K7 w - - 0 1",
        crate::CastlingRights::Refused,
    )
    .unwrap();
    let in_memory = Tablebase::in_memory();
    assert_eq!(
        tb.probe(&pos, Variant::Standard).unwrap(),
        in_memory.probe(&pos, Variant::Standard).unwrap()
    );
    let counted = tb
        .summary(&material, Variant::Standard, &|_, _| {})
        .unwrap();
    assert_eq!(
        counted.1,
        in_memory.pawn_table(&material).unwrap().summarize()
    );
    assert_eq!(
        *events.lock().unwrap(),
        vec![
            Event::InMemory {
                dir: dir.path().to_path_buf(),
                reason: std::io::Error::from(std::io::ErrorKind::ReadOnlyFilesystem).to_string(),
            },
            Event::Building {
                material: promoted.clone(),
                variant: Variant::Standard
            },
            Event::Built {
                material: promoted,
                variant: Variant::Standard
            },
            Event::Building {
                material: material.clone(),
                variant: Variant::Standard
            },
            Event::Built {
                material,
                variant: Variant::Standard
            },
        ]
    );
    assert_eq!(names(), before);
    lock(&READ_ONLY).retain(|read_only| read_only != dir.path());
}

/// `tb`, every event it sends kept in order.
fn listened(tb: Tablebase) -> (Tablebase, Arc<Mutex<Vec<Event>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    (
        tb.on_event(move |event| seen.lock().unwrap().push(event)),
        events,
    )
}

/// Builds the table of `material` (with pawns) and the tables its moves
/// lead into in `dir`, then removes its own file: the tables it reads
/// are left, on disk only.
fn its_tables_alone(dir: &Path, material: &Material) {
    Tablebase::new(Some(dir.to_path_buf()))
        .summary(material, Variant::Standard, &|_, _| {})
        .unwrap();
    fs::remove_file(dir.join(format::file_name(material, Variant::Standard))).unwrap();
}

/// The table of `material` in `tb` has the bytes of one built in memory.
fn assert_built_as_in_memory(tb: &Tablebase, material: &Material) {
    let in_memory = Tablebase::in_memory().pawn_table(material).unwrap();
    let read_back = tb.pawn_table(material).unwrap();
    for turn in Color::ALL {
        assert_eq!(
            read_back.table().bytes(turn),
            in_memory.table().bytes(turn),
            "{material}"
        );
    }
}

/// A build with pawns from an empty folder leaves the files of the
/// tables its moves lead into, and none of them in memory (before, each
/// table with pawns of the closure stayed held: `solve KPPPvK` from an
/// empty folder passed 6 GB).
#[test]
fn the_subtables_of_a_pawn_build_are_left_on_disk_only() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(Some(dir.path().to_path_buf()));
    let material: Material = "KPvKP".parse().unwrap();
    tb.summary(&material, Variant::Standard, &|_, _| {})
        .unwrap();
    let subtables = crate::pawns::exits::exit_materials(&material);
    assert!(subtables.iter().any(Material::has_pawns));
    for sub in &subtables {
        let path = dir.path().join(format::file_name(sub, Variant::Standard));
        assert!(path.is_file(), "{sub}");
        let key = (sub.clone(), Variant::Standard);
        assert!(!kept(&tb, &key) && !alive(&tb, &key), "{sub}");
        assert!(
            !tb.prober
                .recent
                .contains(&crate::recent::Key::Pawns(sub.clone())),
            "{sub}"
        );
    }
}

/// Promotions that take nothing read the tables they lead into from
/// their files a block at a time (`slice::read_by_blocks`), when no
/// table is in memory: the bytes are those of a build that holds the
/// tables whole, for a pawn of either colour (KRvKP's promotions lead
/// into colour-flipped twins), and for tables with pawns left (read a
/// slice at a time; KPPvK with both pawns on the seventh rank reaches
/// two slices at once).
#[test]
fn promotions_read_a_block_at_a_time_give_the_bytes_of_whole_tables() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["KRvKP", "KRPvK", "KPvKP", "KPPvK"] {
        let material: Material = name.parse().unwrap();
        its_tables_alone(dir.path(), &material);
        let from_files = Tablebase::new(Some(dir.path().to_path_buf()));
        from_files
            .summary(&material, Variant::Standard, &|_, _| {})
            .unwrap();
        assert_built_as_in_memory(&from_files, &material);
    }
}

/// A table with pawns built in steps, a group of its slices at a time
/// into its journal and then its file from the journal, as the jobs of
/// its plan run them, has the bytes of one built whole; a group whose
/// pawn steps lead into slices not yet kept is refused, naming them.
#[test]
fn a_pawn_table_built_in_steps_equals_one_built_whole() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["KPvKP", "KPPvK"] {
        let material: Material = name.parse().unwrap();
        its_tables_alone(dir.path(), &material);
        let tb = Tablebase::new(Some(dir.path().to_path_buf()));
        let plan = tb.plan(std::slice::from_ref(&material), Variant::Standard);
        let settings = JobSettings {
            split_from: 0,
            ..JobSettings::default()
        };
        let steps: Vec<Step> = jobs(&plan, &settings)
            .into_iter()
            .map(|job| job.step)
            .collect();
        assert_eq!(steps.last(), Some(&Step::Table(material.clone())));
        let stop = AtomicBool::new(false);
        let second = Step::Slices {
            material: material.clone(),
            level: 1,
            group: 0,
        };
        assert!(steps.contains(&second));
        match tb.build_step(&second, &stop) {
            Err(TableError::MissingSlices { slices, .. }) => assert!(!slices.is_empty()),
            other => panic!("{name}: {other:?}"),
        }
        let beyond = Step::Slices {
            material: material.clone(),
            level: 99,
            group: 0,
        };
        assert!(matches!(
            tb.build_step(&beyond, &stop),
            Err(TableError::NoSuchSlices { level: 99, .. })
        ));
        for step in &steps {
            tb.build_step(step, &stop).unwrap();
        }
        assert!(!crate::pawns::journal::Journal::exists(
            dir.path(),
            &material
        ));
        assert_built_as_in_memory(&tb, &material);
    }
}
