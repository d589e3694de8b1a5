//! Tests of the table file: writing, reading back, and refusing damaged or
//! hostile files.

use std::{
    fs,
    io::{self, Read},
    path::{Path, PathBuf},
    sync::{Arc, mpsc},
    thread,
    time::{Duration, Instant},
};

use shakmaty::Color;

use super::{body::*, chunked::*, guard::*, header::*, verify::*, writer::*, *};
use crate::{
    error::{FileError, TableError},
    material::Material,
    rules::Rules,
    store::Tablebase,
    table::Table,
    value::{DEEP, ILLEGAL, UNDECIDED, encode_plies},
    variant::Variant,
};

/// The file at `path` opened for probes, its chunks kept in a store of its
/// own.
fn opened_for_tests(path: &Path, material: &Material) -> Result<ChunkedTable, ReadError> {
    ChunkedTable::open(
        path,
        material,
        Variant::Standard,
        &crate::recent::Recent::for_tests(),
    )
}

fn krk() -> (Material, Arc<Table>) {
    let material: Material = "KRvK".parse().unwrap();
    let table = Tablebase::in_memory()
        .table(&material, Variant::Standard)
        .unwrap();
    (material, table)
}

proptest::proptest! {
    /// The count a vector at a time is the count a byte at a time,
    /// for any length (255-byte parts and a shorter last one).
    #[test]
    fn bytes_are_counted_as_one_by_one(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000),
        least in proptest::prelude::any::<u8>(),
    ) {
        let test = |b: u8| b >= least;
        let one_by_one = bytes.iter().filter(|&&b| test(b)).count();
        proptest::prop_assert_eq!(count_bytes(&bytes, test), one_by_one);
    }
}

/// Table `name` and its file in a new folder.
fn table_file(name: &str) -> (Material, Arc<Table>, tempfile::TempDir, PathBuf) {
    let material: Material = name.parse().unwrap();
    let table = Tablebase::in_memory()
        .table(&material, Variant::Standard)
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), &table).unwrap();
    (material, table, dir, path)
}

/// KRvK and its file in a new folder.
fn krk_file() -> (Material, Arc<Table>, tempfile::TempDir, PathBuf) {
    table_file("KRvK")
}

/// KQvKR, two chunks a side, and its file.
fn kqkr_file() -> (Material, Arc<Table>, tempfile::TempDir, PathBuf) {
    table_file("KQvKR")
}

/// Writes `bytes` at `path`: a file that does not open for a checksum.
fn opening_fails_its_checksum(path: &Path, material: &Material, bytes: &[u8]) {
    fs::write(path, bytes).unwrap();
    assert!(matches!(
        opened_for_tests(path, material),
        Err(ReadError::File(FileError::Checksum))
    ));
}

/// The table with one byte changed, written as a valid file.
fn forged(table: &Table, turn: Color, index: usize, byte: u8) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &table.with_byte(turn, index, byte)).unwrap();
    dir
}

/// The error of reading the table back, empty when it reads.
fn read_back(dir: &tempfile::TempDir, material: &Material) -> String {
    read(
        &dir.path().join(file_name(material, Variant::Standard)),
        material,
        Variant::Standard,
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default()
}

#[test]
fn a_written_table_reads_back_equal() {
    let (material, table) = krk();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &table).unwrap();
    let back = read(
        &dir.path().join(file_name(&material, Variant::Standard)),
        &material,
        Variant::Standard,
    )
    .unwrap();
    for turn in Color::ALL {
        assert_eq!(back.bytes(turn), table.bytes(turn));
    }
}

/// The step between the numbers the semantic check samples (Black to
/// move).
fn sample_step(table: &Table) -> usize {
    (table.bytes(Color::Black).len() / SAMPLES).max(1) | 1
}

/// The first sampled number legal with Black to move.
fn sampled_legal(material: &Material, table: &Table) -> usize {
    let rules = Rules::new(material, Variant::Standard);
    (0..table.bytes(Color::Black).len())
        .step_by(sample_step(table))
        .find(|&i| {
            table
                .numbering()
                .decode(i)
                .is_some_and(|sq| rules.is_legal(&sq, Color::Black))
        })
        .unwrap()
}

#[test]
fn a_forged_value_with_a_valid_checksum_is_refused() {
    let (material, table) = krk();
    let legal = (0..table.bytes(Color::White).len())
        .find(|&i| table.bytes(Color::White)[i] != ILLEGAL)
        .unwrap();
    // A byte the format does not have.
    let dir = forged(&table, Color::White, legal, 253);
    assert!(read_back(&dir, &material).contains("holds a value"));
    // A legal position marked illegal, at a sampled number.
    let sampled = sampled_legal(&material, &table);
    let dir = forged(&table, Color::Black, sampled, ILLEGAL);
    assert!(read_back(&dir, &material).contains("holds a value"));
    // A checkmate made a draw.
    let mate = (0..table.bytes(Color::Black).len())
        .step_by(sample_step(&table))
        .find(|&i| table.bytes(Color::Black)[i] == encode_plies(0))
        .expect("a sampled checkmate");
    let dir = forged(&table, Color::Black, mate, UNDECIDED);
    assert!(read_back(&dir, &material).contains("holds a value"));
}

#[test]
fn probes_of_an_opened_file_equal_the_tables() {
    // KQvKR has two chunks a side.
    for material in ["KRvK", "KQvKR"] {
        let material: Material = material.parse().unwrap();
        let table = Tablebase::in_memory()
            .table(&material, Variant::Standard)
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), &table).unwrap();
        let opened = opened_for_tests(&path, &material).unwrap();
        let mut probed = 0;
        for turn in Color::ALL {
            for index in (0..table.bytes(turn).len()).step_by(7) {
                if let Some(pos) = table.position(index, turn) {
                    assert_eq!(opened.probe(&pos).unwrap(), table.probe(&pos).unwrap());
                    probed += 1;
                }
            }
        }
        assert!(probed > 1000, "{probed}");
    }
}

#[test]
fn a_forged_chunk_is_found_by_a_probe_and_rebuilt() {
    let (material, table) = krk();
    let sampled = sampled_legal(&material, &table);
    let pos = table.position(sampled, Color::Black).unwrap();
    let dir = forged(&table, Color::Black, sampled, ILLEGAL);
    let path = dir.path().join(file_name(&material, Variant::Standard));
    let opened = opened_for_tests(&path, &material).unwrap();
    assert!(matches!(
        opened.probe(&pos),
        Err(TableError::File(FileError::BadValue { .. }))
    ));
    // The tablebase reads the file whole, finds the fault and rebuilds.
    let tb = Tablebase::new(Some(dir.path().to_owned()));
    assert_eq!(
        tb.probe(&pos, Variant::Standard).unwrap(),
        table.probe(&pos).unwrap()
    );
    assert!(read_back(&dir, &material).is_empty());
}

/// Reads KRvK's file with the header's compressed length replaced by
/// `forge(length)`, the file lengthened (sparse) to match when it can be.
fn read_with_data_length(forge: impl Fn(u64) -> u64) -> Result<Table, ReadError> {
    let (material, _, _dir, path) = krk_file();
    let mut bytes = fs::read(&path).unwrap();
    let data = le_u64(&bytes[48..56]);
    let forged = forge(data);
    bytes[48..56].copy_from_slice(&forged.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    if let Some(extra) = forged.checked_sub(data).filter(|&extra| extra < 1 << 40) {
        let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(bytes.len() as u64 + extra).unwrap();
    }
    read(&path, &material, Variant::Standard)
}

#[test]
fn a_header_promising_more_than_a_table_needs_is_refused_unread() {
    // Ten gigabytes more, on a sparse file of that length; and a length
    // whose sum with the others overflows.
    for forge in [|data| data + (10 << 30), |_| u64::MAX] {
        assert!(matches!(
            read_with_data_length(forge),
            Err(ReadError::File(FileError::Sizes))
        ));
    }
}

#[test]
fn a_chunk_that_does_not_decompress_is_corrupt_once_the_checksum_holds() {
    let (material, table, _dir, path) = krk_file();
    let mut bytes = fs::read(&path).unwrap();
    let first_chunk = HEADER + index_len(le_u32(&bytes[44..48]) as usize, true);
    bytes[first_chunk..first_chunk + 4].fill(0);
    fs::write(&path, &bytes).unwrap();
    let read_as = |sides: &[Color]| read_sides(&path, &material, Variant::Standard, sides);
    assert!(matches!(
        read_as(&Color::ALL),
        Err(ReadError::File(FileError::Checksum))
    ));
    let checksum = crc32fast::hash(&bytes[HEADER..]);
    bytes[56..60].copy_from_slice(&checksum.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    for sides in [&Color::ALL[..], &[Color::White]] {
        assert!(matches!(
            read_as(sides),
            Err(ReadError::File(FileError::Corrupt))
        ));
    }
    // Black's chunks are whole, and white's are not decompressed.
    let black = read_as(&[Color::Black]).unwrap();
    assert_eq!(black.bytes(Color::Black), table.bytes(Color::Black));
}

/// Rewrites a file of this format in the layout of format 4 (no
/// checksum of each chunk) under format number `version`, with a valid
/// checksum.
fn as_format_4(path: &Path, version: u32) {
    let mut bytes = fs::read(path).unwrap();
    let chunks = le_u32(&bytes[44..48]) as usize;
    bytes.drain(HEADER + 4 * chunks..HEADER + index_len(chunks, true));
    bytes[8..12].copy_from_slice(&version.to_le_bytes());
    let sum = crc32fast::hash(&bytes[HEADER..]);
    bytes[56..60].copy_from_slice(&sum.to_le_bytes());
    fs::write(path, &bytes).unwrap();
}

/// Makes both checksums of a file of this format right again after a
/// change: the index's, then the whole file's.
fn fix_sums(bytes: &mut [u8]) {
    let chunks = le_u32(&bytes[44..48]) as usize;
    let entries = le_u32(&bytes[60..64]) as usize;
    let end = HEADER + index_len(chunks, true) - 4;
    let mut sum = crc32fast::Hasher::new();
    sum.update(&bytes[HEADER..end]);
    sum.update(&bytes[bytes.len() - 8 * entries..]);
    bytes[end..end + 4].copy_from_slice(&sum.finalize().to_le_bytes());
    let whole = crc32fast::hash(&bytes[HEADER..]);
    bytes[56..60].copy_from_slice(&whole.to_le_bytes());
}

/// A file's bytes as version 2 (no overflow), with a valid checksum.
fn as_version_2(path: &Path) {
    assert_eq!(
        fs::read(path).unwrap()[60..64],
        [0; 4],
        "no overflow entries"
    );
    as_format_4(path, VERSION_2);
    let mut bytes = fs::read(path).unwrap();
    bytes[30..32].copy_from_slice(&[0, 0]);
    fs::write(path, &bytes).unwrap();
}

#[test]
fn a_format_4_file_reads_and_opens_checked_whole() {
    let (material, table, _dir, path) = krk_file();
    as_format_4(&path, VERSION_4);
    let back = read(&path, &material, Variant::Standard).unwrap();
    let opened = opened_for_tests(&path, &material).unwrap();
    for turn in Color::ALL {
        assert_eq!(back.bytes(turn), table.bytes(turn));
        for index in (0..table.bytes(turn).len()).step_by(101) {
            if let Some(pos) = table.position(index, turn) {
                assert_eq!(opened.probe(&pos).unwrap(), table.probe(&pos).unwrap());
            }
        }
    }
    // Its checksum is of the whole file, read at the opening.
    let mut bytes = fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    opening_fails_its_checksum(&path, &material, &bytes);
}

/// A pawnless table of four men or more was numbered otherwise before
/// format 6: its older file is refused (and rebuilt by a tablebase,
/// `a_format_5_file_is_rebuilt_where_the_numbering_changed`), where
/// one of three men, numbered alike, still reads.
#[test]
fn a_file_numbered_as_before_format_6_is_refused() {
    for (name, readable) in [("KQvKR", false), ("KRvK", true)] {
        let (material, table, _dir, path) = table_file(name);
        let mut bytes = fs::read(&path).unwrap();
        bytes[8..12].copy_from_slice(&VERSION_5.to_le_bytes());
        let whole = crc32fast::hash(&bytes[HEADER..]);
        bytes[56..60].copy_from_slice(&whole.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        match read(&path, &material, Variant::Standard) {
            Ok(back) => {
                assert!(readable, "{name}");
                assert_eq!(back.bytes(Color::White), table.bytes(Color::White));
            }
            Err(ReadError::File(FileError::Version(VERSION_5, VERSION))) => {
                assert!(!readable, "{name}")
            }
            Err(e) => panic!("{name}: {e}"),
        }
    }
}

/// A file opened for probes is checked by its index; a chunk is checked
/// when a probe first needs it, and a damaged one fails that probe
/// alone.
#[test]
fn an_opened_file_checks_each_chunk_when_first_used() {
    let (material, table, _dir, path) = kqkr_file();
    let written = fs::read(&path).unwrap();
    let chunks = le_u32(&written[44..48]) as usize;
    assert_eq!(chunks, 4);
    let lengths: Vec<usize> = (0..chunks)
        .map(|c| le_u32(&written[HEADER + 4 * c..HEADER + 4 * c + 4]) as usize)
        .collect();
    // A byte in the middle of white's second chunk changed, and both
    // checksums made right: only the chunk's own checksum tells.
    let mut bytes = written.clone();
    let second = HEADER + index_len(chunks, true) + lengths[0];
    bytes[second + lengths[1] / 2] ^= 0x40;
    fix_sums(&mut bytes);
    fs::write(&path, &bytes).unwrap();
    let opened = opened_for_tests(&path, &material).unwrap();
    let in_chunk = |chunk: usize| {
        let index = (chunk * CHUNK..(chunk + 1) * CHUNK)
            .find(|&i| table.position(i, Color::White).is_some())
            .unwrap();
        table.position(index, Color::White).unwrap()
    };
    let first = in_chunk(0);
    assert_eq!(opened.probe(&first).unwrap(), table.probe(&first).unwrap());
    assert!(matches!(
        opened.probe(&in_chunk(1)),
        Err(TableError::File(FileError::ChunkChecksum { chunk: 1 }))
    ));
    // Both of white's chunks damaged: a window over them names the
    // first, whichever thread reads it.
    let mut bytes = written.clone();
    let first = HEADER + index_len(chunks, true);
    bytes[first + lengths[0] / 2] ^= 0x40;
    bytes[second + lengths[1] / 2] ^= 0x40;
    fix_sums(&mut bytes);
    fs::write(&path, &bytes).unwrap();
    let opened = opened_for_tests(&path, &material).unwrap();
    for _ in 0..20 {
        assert!(matches!(
            opened.window(Color::White, 0..2 * CHUNK, Vec::new()),
            Err(TableError::File(FileError::ChunkChecksum { chunk: 0 }))
        ));
    }
    // A chunk's length changed, with the file's checksum right but not
    // the index's: the opening fails.
    let mut bytes = written.clone();
    bytes[HEADER] ^= 1;
    bytes[HEADER + 4] ^= 1;
    let whole = crc32fast::hash(&bytes[HEADER..]);
    bytes[56..60].copy_from_slice(&whole.to_le_bytes());
    opening_fails_its_checksum(&path, &material, &bytes);
}

#[test]
fn a_version_2_file_reads_and_its_reserved_bytes_must_be_zero() {
    let (material, _, dir, path) = krk_file();
    as_version_2(&path);
    assert_eq!(read_back(&dir, &material), "");
    let mut bytes = fs::read(&path).unwrap();
    bytes[61] = 1;
    fs::write(&path, &bytes).unwrap();
    assert!(read_back(&dir, &material).contains("reserved"));
}

#[test]
fn a_limit_over_a_byte_is_refused() {
    let (material, _, dir, path) = krk_file();
    let mut bytes = fs::read(&path).unwrap();
    bytes[30..32].copy_from_slice(&251u16.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    assert!(read_back(&dir, &material).contains("limit is over 250"));
}

/// KRvK built with the overflow limit lowered to 20 plies, and its
/// file.
fn krk_with_overflow() -> (Material, Table, tempfile::TempDir, PathBuf) {
    let material: Material = "KRvK".parse().unwrap();
    let tb = Tablebase::in_memory();
    let subtables = tb.subtables(&material, Variant::Standard).unwrap();
    let table = crate::build::build_tuned(
        &material,
        Variant::Standard,
        subtables,
        &|_| std::ops::ControlFlow::Continue(()),
        crate::pawns::schedule::Tuning {
            limit: 20,
            ..crate::pawns::schedule::Tuning::PRODUCTION
        },
    )
    .unwrap();
    assert!(table.overflow().side(Color::White).len() > 2);
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), &table).unwrap();
    (material, table, dir, path)
}

/// Rewrites the file's overflow list with `forge` and fixes its
/// checksum.
fn forge_entries(path: &Path, forge: impl FnOnce(&mut Vec<u64>)) {
    let mut bytes = fs::read(path).unwrap();
    let count = le_u32(&bytes[60..64]) as usize;
    let start = bytes.len() - 8 * count;
    let mut entries: Vec<u64> = bytes[start..].chunks(8).map(le_u64).collect();
    forge(&mut entries);
    bytes.truncate(start);
    bytes[60..64].copy_from_slice(&(entries.len() as u32).to_le_bytes());
    for entry in entries {
        bytes.extend_from_slice(&entry.to_le_bytes());
    }
    fix_sums(&mut bytes);
    fs::write(path, &bytes).unwrap();
}

#[test]
fn a_damaged_overflow_list_is_refused() {
    let (material, table, dir, path) = krk_with_overflow();
    assert_eq!(read_back(&dir, &material), "");
    let written = fs::read(&path).unwrap();
    let restore = || fs::write(&path, &written).unwrap();
    type Forge = Box<dyn Fn(&mut Vec<u64>)>;
    let cases: [(&str, Forge); 4] = [
        ("out of order", Box::new(|e| e.swap(0, 1))),
        // Plies at the limit (20), and over the bound.
        (
            "plies not past the limit",
            Box::new(|e| e[0] = e[0] & !0xffff | 20),
        ),
        (
            "plies not past the limit",
            Box::new(|e| e[0] = e[0] & !0xffff | 1024),
        ),
        (
            "number out of range",
            Box::new(|e| *e.last_mut().unwrap() = 3 << 62 | 30),
        ),
    ];
    for (expected, forge) in cases {
        restore();
        forge_entries(&path, forge);
        let error = read_back(&dir, &material);
        assert!(error.contains(expected), "{expected}: {error}");
    }
    // A listed number whose byte is not DEEP: the entry moved to the
    // next number, which holds another value.
    let (first, _) = table.overflow().side(Color::White)[0];
    assert_ne!(table.bytes(Color::White)[first + 1], DEEP);
    restore();
    forge_entries(&path, |e| e[0] += 1 << PLIES_BITS);
    let error = read_back(&dir, &material);
    assert!(error.contains("byte is not DEEP"), "{error}");
    let opened = opened_for_tests(&path, &material).unwrap();
    let pos = table.position(first, Color::White).unwrap();
    assert!(matches!(
        opened.probe(&pos),
        Err(TableError::File(FileError::Overflow(_)))
    ));
    // A DEEP byte with no entry.
    restore();
    forge_entries(&path, |e| {
        e.remove(0);
    });
    let error = read_back(&dir, &material);
    assert!(error.contains("DEEP byte is not in the list"), "{error}");
}

/// Issue 57, item 3: a temporary file is removed when no writer holds
/// it, whatever its age: a dead writer's young file goes, a paused
/// writer's old one stays, and so does one a `FileWriter` is writing,
/// which then ends as a whole file.
#[test]
fn temporary_files_are_removed_only_when_no_writer_holds_them() {
    let dir = tempfile::tempdir().unwrap();
    let name = "KRvK.standard.ajt";
    let dead = dir.path().join(format!(".{name}.dead01.tmp"));
    let paused = dir.path().join(format!(".{name}.live01.tmp"));
    let other = dir.path().join(".KQvK.standard.ajt.dead02.tmp");
    for path in [&dead, &paused, &other] {
        fs::write(path, b"partial").unwrap();
    }
    let held = fs::File::options().write(true).open(&paused).unwrap();
    held.lock().unwrap();
    let two_hours_ago = std::time::SystemTime::now() - Duration::from_secs(7200);
    held.set_modified(two_hours_ago).unwrap();
    let (material, table) = krk();
    let mut writer = FileWriter::create(dir.path(), &material, Variant::Standard).unwrap();
    writer
        .append(Color::White, table.bytes(Color::White))
        .unwrap();
    remove_stale(dir.path(), name);
    assert!(!dead.exists(), "a dead writer's file, however young");
    assert!(paused.exists(), "a paused writer's file, however old");
    assert!(other.exists(), "another table's file is not touched");
    let writing: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|file| {
            file.starts_with(&format!(".{name}.")) && file != ".KRvK.standard.ajt.live01.tmp"
        })
        .collect();
    assert_eq!(writing.len(), 1, "the writer's own file stays: {writing:?}");
    writer
        .append(Color::Black, table.bytes(Color::Black))
        .unwrap();
    let path = writer.finish(table.overflow()).unwrap();
    let read = read(&path, &material, Variant::Standard).unwrap();
    assert_eq!(read.bytes(Color::Black), table.bytes(Color::Black));
    drop(held);
    remove_stale(dir.path(), name);
    assert!(!paused.exists(), "let go, it is a dead writer's");
}

/// A reader whose reads wait until its sender is dropped.
struct Blocked(mpsc::Receiver<()>);

impl Read for Blocked {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        let _ = self.0.recv();
        Ok(0)
    }
}

/// A reader that gives a byte a millisecond, for ever.
struct Crawling;

impl Read for Crawling {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        thread::sleep(Duration::from_millis(1));
        buf[0] = 1;
        Ok(1)
    }
}

#[test]
fn a_read_that_blocks_or_crawls_is_given_up_at_its_limit() {
    let limit = Duration::from_millis(200);
    let timed_out = |result: Result<Vec<u8>, ReadError>| match result {
        Err(ReadError::File(err @ FileError::TimedOut { limit: named })) => {
            assert_eq!(named, limit);
            assert!(err.to_string().contains("time limit of 0.2 s"), "{err}");
        }
        other => panic!("{:?}", other.map(|bytes| bytes.len())),
    };
    // A read that never returns: the caller goes on at the limit.
    let (unblock, blocked) = mpsc::channel();
    let mut reader = Blocked(blocked);
    let started = Instant::now();
    let path = Path::new("a file whose reads block");
    timed_out(guarded(path, limit, move |deadline| {
        read_before(&mut reader, 64, deadline)
    }));
    assert!(started.elapsed() < Duration::from_secs(5));
    // While that read hangs, the file's next read is refused at once,
    // given no thread; once it has ended, the file is read again.
    let again = || guarded(path, limit, |_| Ok(b"read".to_vec()));
    assert!(matches!(
        again(),
        Err(ReadError::File(FileError::Unanswered))
    ));
    drop(unblock);
    let started = Instant::now();
    while again().is_err() {
        assert!(started.elapsed() < Duration::from_secs(5));
        thread::sleep(Duration::from_millis(5));
    }
    // A read that goes on too slowly (17 minutes for a MiB) stops itself.
    let started = Instant::now();
    timed_out(guarded(Path::new("a crawling file"), limit, |deadline| {
        read_before(&mut Crawling, 1 << 20, deadline)
    }));
    let deadline = Deadline {
        at: Instant::now() + limit,
        limit,
    };
    timed_out(read_before(&mut Crawling, 1 << 20, deadline));
    assert!(started.elapsed() < Duration::from_secs(5));
    // In time: the bytes asked for, or those there are.
    let deadline = Deadline {
        at: Instant::now() + Duration::from_secs(60),
        limit,
    };
    assert_eq!(read_before(&mut &b"abc"[..], 2, deadline).unwrap(), b"ab");
    assert_eq!(read_before(&mut &b"abc"[..], 8, deadline).unwrap(), b"abc");
    // The limit grows with the file: 30 s, and 1 s for every 8 MiB.
    assert_eq!(read_time_limit(0), Duration::from_secs(30));
    assert_eq!(read_time_limit(800 << 20), Duration::from_secs(130));
}

/// Issue 57, item 1: reads that hang, more of them than the machine has
/// cores, hold no thread another file's read waits for: that read
/// answers at once, and each hung file is refused at once after.
#[test]
fn hung_reads_hold_up_no_other_file() {
    let limit = Duration::from_millis(300);
    let hung: Vec<PathBuf> = (0..2 * thread::available_parallelism().map_or(2, |n| n.get()) + 2)
        .map(|i| PathBuf::from(format!("hung file {i}")))
        .collect();
    let (unblock, blocked) = mpsc::channel::<()>();
    let blocked = Arc::new(std::sync::Mutex::new(blocked));
    let started = Instant::now();
    thread::scope(|scope| {
        for path in &hung {
            let blocked = Arc::clone(&blocked);
            scope.spawn(move || {
                let read = guarded(path, limit, move |_| {
                    // Every one blocks until the sender is dropped.
                    let _ = blocked.lock().map(|b| b.recv());
                    Ok(())
                });
                assert!(matches!(
                    read,
                    Err(ReadError::File(FileError::TimedOut { .. }))
                ));
            });
        }
    });
    assert!(started.elapsed() < Duration::from_secs(5));
    let started = Instant::now();
    let answer = guarded(Path::new("a sound file"), Duration::from_secs(60), |_| {
        Ok(7)
    });
    assert_eq!(answer.unwrap(), 7);
    assert!(started.elapsed() < Duration::from_secs(1));
    for path in &hung {
        let read = guarded(path, limit, |_| Ok(()));
        assert!(matches!(read, Err(ReadError::File(FileError::Unanswered))));
    }
    drop(unblock);
}

/// Issue 57, item 8: a file whose header and index are read but whose
/// chunks never come: a probe gives up at the limit, naming the file,
/// which is left as it is, and answers once the file does.
#[test]
fn a_chunk_that_never_comes_is_given_up_and_its_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (material, table) = krk();
    let path = write(dir.path(), &table).unwrap();
    let bytes = fs::read(&path).unwrap();
    let opened = opened_for_tests(&path, &material).unwrap();
    let pos = (1000..)
        .find_map(|index| table.position(index, Color::White))
        .unwrap();
    let stall = Stall::new(&path, Duration::from_millis(200));
    let started = Instant::now();
    match opened.probe(&pos) {
        Err(TableError::Hung { path: named, error }) => {
            assert_eq!(named, path);
            assert!(error.is_hung(), "{error}");
        }
        other => panic!("{other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    drop(stall);
    let started = Instant::now();
    let value = loop {
        match opened.probe(&pos) {
            Err(TableError::Hung { .. }) => {
                assert!(started.elapsed() < Duration::from_secs(5));
                thread::sleep(Duration::from_millis(5));
            }
            other => break other.unwrap(),
        }
    };
    assert_eq!(value, table.probe(&pos).unwrap());
    assert_eq!(fs::read(&path).unwrap(), bytes);
}

#[test]
fn a_fifo_or_a_folder_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let material: Material = "KRvK".parse().unwrap();
    let fifo = dir.path().join("KRvK.standard.ajt");
    let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    // No writer ever comes: a blocking open would wait for good.
    for path in [fifo.as_path(), dir.path()] {
        match read(path, &material, Variant::Standard) {
            Err(ReadError::File(FileError::NotRegular)) => {}
            other => panic!("{}: {:?}", path.display(), other.err()),
        }
    }
}
