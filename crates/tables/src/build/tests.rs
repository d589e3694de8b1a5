//! Tests of builds: recorded checksums, both ways of a step, the overflow,
//! a stopped build resumed, and the slice schedule's tunings.

use std::{
    fs,
    sync::atomic::{AtomicU64, Ordering},
};

use rayon::prelude::*;
use shakmaty::Square;

use super::*;
use crate::{
    engine::{
        Ways,
        bytes::{ByteTest, CANDIDATE, Changeable, Equal, SAFE, Unrefuting, line_mask},
        layout::CaptureByte,
    },
    store::Tablebase,
    value::{DEEP, ILLEGAL, UNDECIDED, Value, encode_plies},
};

/// Material, variant and CRC-32 of each line of a checksum file.
fn recorded(text: &str) -> Vec<(Material, Variant, u32)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let variant = match fields[1].strip_prefix("fixed-king-") {
                Some(sq) => Variant::FixedKing(Square::from_ascii(sq.as_bytes()).unwrap()),
                None => Variant::Standard,
            };
            let crc = u32::from_str_radix(fields[2], 16).unwrap();
            (fields[0].parse().unwrap(), variant, crc)
        })
        .collect()
}

/// The tables the ranking solver built, before this engine replaced it.
fn ranking_solver() -> Vec<(Material, Variant, u32)> {
    recorded(include_str!("../../tests/data/checksums.txt"))
}

/// The bytes of `turn` in the numbering of the ranking solver, every
/// man after the kings over 64 squares ([`Indexer::decode_over_64`]),
/// a number with no placement of its own illegal.
fn bytes_as_numbered_over_64(table: &Table, turn: Color) -> Vec<u8> {
    let Numbering::Pieces(ix) = Numbering::new(table.material(), table.variant()) else {
        panic!("pawnless material");
    };
    let bytes = table.bytes(turn);
    (0..ix.size_over_64())
        .map(|former| {
            ix.decode_over_64(former)
                .and_then(|squares| ix.encode(&squares[..ix.men()]))
                .map_or(ILLEGAL, |index| bytes[index])
        })
        .collect()
}

/// Builds the tables of the ranking solver's list whose number of men
/// passes `men`, the steps choosing their ways by `ways`, and checks
/// their bytes.
fn same_bytes_as_the_ranking_solver(men: impl Fn(usize) -> bool, ways: Ways) {
    let tb = Tablebase::in_memory();
    let mut checked = 0;
    for (material, variant, crc) in ranking_solver() {
        if !men(material.len()) {
            continue;
        }
        let subtables = tb.subtables(&material, variant).unwrap();
        let tuning = Tuning {
            ways,
            ..Tuning::PRODUCTION
        };
        let no_progress = |_| ControlFlow::Continue(());
        let table = build_tuned(&material, variant, subtables, &no_progress, tuning).unwrap();
        let mut hasher = crc32fast::Hasher::new();
        for turn in Color::ALL {
            hasher.update(&bytes_as_numbered_over_64(&table, turn));
        }
        assert_eq!(hasher.finalize(), crc, "{material} {variant}");
        checked += 1;
    }
    assert!(checked > 0);
}

/// Checks `line_mask` against the scalar test on every byte value, in
/// full lines and in shorter chunks.
fn masks_follow_the_scalar_test(t: impl ByteTest) {
    let bytes: Vec<u8> = (0..=255).chain(0..=255).collect();
    for offset in [0, 64, 128, 192, 255] {
        for len in [64, 63, 1] {
            let chunk = &bytes[offset..offset + len];
            let mask = line_mask(chunk, t);
            for (i, &b) in chunk.iter().enumerate() {
                assert_eq!(mask >> i & 1 == 1, t.test(b), "byte {b}");
            }
            assert_eq!(
                mask >> len.min(63),
                u64::from(len == 64 && t.test(chunk[63]))
            );
        }
    }
}

#[test]
fn a_capture_byte_keeps_the_better_capture() {
    let children = [
        Value::Loss(0),
        Value::Loss(4),
        Value::Draw,
        Value::Win(3),
        Value::Win(251),
    ];
    for a in children {
        for b in children {
            let better = CaptureByte::better(CaptureByte::of(a), CaptureByte::of(b));
            let expected = if a.parent().order_key() <= b.parent().order_key() {
                a
            } else {
                b
            };
            assert_eq!(CaptureByte::child(better), Some(expected), "{a:?} {b:?}");
        }
        let alone = CaptureByte::better(CaptureByte::NONE, CaptureByte::of(a));
        assert_eq!(CaptureByte::child(alone), Some(a));
    }
    // Too deep for a byte: valued move by move, whatever else there is.
    let deep = CaptureByte::of(Value::Win(253));
    assert_eq!(deep, CaptureByte::BY_MOVES);
    let draw = CaptureByte::of(Value::Draw);
    assert_eq!(CaptureByte::better(draw, deep), CaptureByte::BY_MOVES);
}

#[test]
fn line_masks_mark_exactly_the_bytes_that_pass() {
    for byte in [UNDECIDED, 1, 2, 7, CANDIDATE, ILLEGAL] {
        masks_follow_the_scalar_test(Equal(byte));
    }
    for won_by in [2, 11, 20, 250] {
        masks_follow_the_scalar_test(Unrefuting(won_by));
    }
    for win in [UNDECIDED, 2, 11, 20, 250] {
        masks_follow_the_scalar_test(Changeable(win));
    }
}

#[test]
fn the_byte_tests_say_what_the_steps_need() {
    // A win of the opponent refutes up to the ply; a loss never does.
    let within_9 = Unrefuting(encode_plies(9));
    assert!(!within_9.test(encode_plies(9)) && !within_9.test(encode_plies(1)));
    assert!(within_9.test(encode_plies(11)));
    assert!(within_9.test(encode_plies(8)) && within_9.test(encode_plies(0)));
    assert!(within_9.test(UNDECIDED) && within_9.test(SAFE));
    assert!(!within_9.test(ILLEGAL));
    // Wins slower than the new one may be improved; losses, faster
    // wins, the deep and the illegal may not.
    let win = encode_plies(9);
    assert!(Changeable(win).test(UNDECIDED) && Changeable(win).test(SAFE));
    assert!(Changeable(win).test(encode_plies(11)));
    assert!(!Changeable(win).test(encode_plies(9)) && !Changeable(win).test(encode_plies(7)));
    assert!(!Changeable(win).test(encode_plies(10)));
    for byte in [DEEP, CANDIDATE, ILLEGAL] {
        assert!(!Changeable(win).test(byte));
    }
}

#[test]
fn every_small_table_has_the_ranking_solvers_bytes() {
    same_bytes_as_the_ranking_solver(|men| men <= 4, Ways::Cheaper);
}

/// Each step's two ways, forced, give the same bytes: the choice
/// between them is only a matter of time.
#[test]
fn either_way_of_each_step_gives_the_same_bytes() {
    for ways in [Ways::Retracting, Ways::ByMoves] {
        same_bytes_as_the_ranking_solver(|men| men <= 4, ways);
    }
}

/// The CRC-32 of a pawn table's bytes in the numbering they were
/// recorded in, before the slices: the first pawn's place on files a-d
/// and ranks 2-7 leading, then the other men's squares in base 64
/// (24 * 64^(n-1) numbers a side, white to move first).
fn first_pawn_numbering_crc(table: &Table) -> u32 {
    let material = table.material();
    let men = material.len();
    let pawn = material
        .men()
        .iter()
        .position(|p| p.role == shakmaty::Role::Pawn)
        .unwrap();
    let mut hasher = crc32fast::Hasher::new();
    for turn in Color::ALL {
        let bytes: Vec<u8> = (0..24usize << (6 * (men - 1)))
            .into_par_iter()
            .map(|index| {
                let mut squares = [Square::A1; crate::MAX_MEN];
                let mut rest = index;
                for i in (0..men).rev().filter(|&i| i != pawn) {
                    squares[i] = Square::new((rest & 63) as u32);
                    rest >>= 6;
                }
                squares[pawn] = Square::new(((rest / 4 + 1) * 8 + rest % 4) as u32);
                table
                    .numbering()
                    .encode(&squares[..men])
                    .map_or(ILLEGAL, |i| table.bytes(turn)[i])
            })
            .collect();
        hasher.update(&bytes);
    }
    hasher.finalize()
}

/// Every pawn table of up to four men has the bytes recorded before
/// the slices: the first pawn builder's (forwards, on shakmaty
/// positions) and the whole-table engine's.
#[test]
fn pawn_tables_have_the_recorded_bytes() {
    let tb = Tablebase::in_memory();
    let recorded = recorded(include_str!("../../tests/data/pawn_checksums.txt"));
    assert_eq!(recorded.len(), 11);
    for (material, _, crc) in recorded {
        let table = tb.pawn_table(&material).unwrap();
        assert_eq!(first_pawn_numbering_crc(table.table()), crc, "{material}");
    }
}

/// KRPvKR's bytes in format 3's numbering, as the whole-table engine
/// built them: the CRC-32 of its format-3 file's chunks, decompressed
/// (2026-12-02, docs/guide/src/reference/pawns.md "Pawns").
#[test]
#[ignore = "a five-man build: minutes, or read from the cache folder ($AJEDRECISTA_TABLES)"]
fn krpvkr_keeps_the_whole_table_engines_bytes() {
    let table = Tablebase::new(None)
        .pawn_table(&"KRPvKR".parse().unwrap())
        .unwrap();
    assert_eq!(first_pawn_numbering_crc(table.table()), 0xfee4_5231);
}

/// The deepest plies of a table.
fn longest(table: &Table) -> u16 {
    Color::ALL
        .iter()
        .flat_map(|&turn| (0..table.bytes(turn).len()).map(move |i| (i, turn)))
        .filter_map(|(i, turn)| Some(table.value_at(i, turn)?.plies()?.0))
        .max()
        .unwrap()
}

/// Builds `normal`'s material again with the overflow limit lowered to
/// `limit`, checks every value against `normal`, and round-trips the
/// lowered table through a file (read whole and opened by chunks).
fn lowered_build_agrees(normal: &Table, subtables: &Subtables, limit: u16) {
    let material = normal.material();
    let lowered = build_tuned(
        material,
        normal.variant(),
        subtables.clone(),
        &|_| ControlFlow::Continue(()),
        Tuning {
            limit,
            ..Tuning::PRODUCTION
        },
    )
    .unwrap();
    let mut deep = 0;
    for turn in Color::ALL {
        for (i, &byte) in normal.bytes(turn).iter().enumerate() {
            let value = normal.value_at(i, turn);
            assert_eq!(lowered.value_at(i, turn), value, "{material} {turn} {i}");
            if value.and_then(Value::plies).is_some_and(|p| p.0 > limit) {
                assert_eq!(lowered.bytes(turn)[i], DEEP);
                deep += 1;
            } else {
                assert_eq!(lowered.bytes(turn)[i], byte);
            }
        }
        assert_eq!(lowered.overflow().side(turn).len(), {
            let listed = normal.bytes(turn).len();
            (0..listed)
                .filter(|&i| lowered.bytes(turn)[i] == DEEP)
                .count()
        });
    }
    assert!(deep > 0, "{material}: nothing deeper than {limit}");
    assert_eq!(crate::summarize(&lowered), crate::summarize(normal));

    let dir = tempfile::tempdir().unwrap();
    let path = crate::format::write(dir.path(), &lowered).unwrap();
    let back = crate::format::read(&path, material, normal.variant()).unwrap();
    assert_eq!(back.overflow(), lowered.overflow());
    let opened = crate::format::ChunkedTable::open(
        &path,
        material,
        normal.variant(),
        &crate::recent::Recent::for_tests(),
    )
    .unwrap();
    for turn in Color::ALL {
        assert_eq!(back.bytes(turn), lowered.bytes(turn));
        for i in 0..normal.bytes(turn).len() {
            assert_eq!(back.value_at(i, turn), normal.value_at(i, turn));
            // Every deep position, and a sample of the others.
            if (lowered.bytes(turn)[i] == DEEP || i % 13 == 0)
                && let Some(pos) = normal.position(i, turn)
            {
                assert_eq!(
                    opened.probe(&pos).unwrap(),
                    normal.probe(&pos).unwrap(),
                    "{material} {turn} {i}"
                );
            }
        }
    }
}

#[test]
fn a_lowered_overflow_limit_gives_the_same_values() {
    let tb = Tablebase::in_memory();
    for material in ["KQvKR", "KRvKP"] {
        let material: Material = material.parse().unwrap();
        let (normal, variant) = if material.has_pawns() {
            let table = tb.pawn_table(&material).unwrap();
            (Arc::clone(table.table()), Variant::Standard)
        } else {
            (
                tb.table(&material, Variant::Standard).unwrap(),
                Variant::Standard,
            )
        };
        let subtables = tb.subtables(normal.material(), variant).unwrap();
        assert!(longest(&normal) > 60);
        lowered_build_agrees(&normal, &subtables, 40);
    }
    let fixed = Variant::FixedKing(Square::C3);
    let material: Material = "KRBvK".parse().unwrap();
    let normal = tb.table(&material, fixed).unwrap();
    let subtables = tb.subtables(&material, fixed).unwrap();
    lowered_build_agrees(&normal, &subtables, longest(&normal) / 2);
}

/// A build with pawns stopped part way goes on from the slices its
/// journal kept, and builds a spoilt part again, to the bytes and the
/// overflow of a build never stopped: by every way of building slices
/// (a level's small ones in parallel, large ones one or two at a time),
/// each to the same bytes.
#[test]
fn a_stopped_build_resumes_from_the_slices_kept() {
    let tb = Tablebase::in_memory();
    let material: Material = "KRvKP".parse().unwrap();
    let subtables = tb.subtables(&material, Variant::Standard).unwrap();
    let indexer = SliceIndexer::shared(&material);
    let total = indexer.slices();
    let mut first_bytes = None;
    let ways = [
        (
            crate::slices::LARGE_SLICE_FROM,
            crate::pawns::schedule::large_at_once as fn(usize) -> usize,
        ),
        (1, |_| 1),
        (1, |_| 2),
    ];
    for (large_slices_from, large_at_once) in ways {
        // A lowered limit puts entries into the parts' overflow lists.
        let tuning = Tuning {
            limit: 40,
            large_slices_from,
            large_at_once,
            ..Tuning::PRODUCTION
        };
        let run = |journal: Option<&Journal>, stop_after: u64| {
            let mut whole = WholeTable(ByColor::default());
            let (built, kept) = (AtomicU64::new(0), AtomicU64::new(0));
            let progress = |p| match p {
                Progress::Slice { done, kept: k, .. } => {
                    [&built, &kept][usize::from(k)].fetch_add(1, Ordering::Relaxed);
                    if done >= stop_after {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                }
                _ => ControlFlow::Continue(()),
            };
            let promotions = held_promotions(&subtables);
            let overflow = crate::pawns::build::build(
                &material,
                &subtables,
                &promotions,
                &progress,
                tuning,
                journal,
                &mut whole,
            );
            (overflow, whole.0, built.into_inner(), kept.into_inner())
        };
        let (reference, bytes, ..) = run(None, u64::MAX);
        let reference = reference.unwrap();
        assert_eq!(first_bytes.get_or_insert_with(|| bytes.clone()), &bytes);
        assert!(reference.side(Color::White).len() + reference.side(Color::Black).len() > 0);

        // Built in steps of two slices, each step alone into a journal
        // of its own, then read back whole: the same bytes and overflow.
        let stepped = Tuning {
            step_numbers: 2 * indexer.slice_len(),
            ..tuning
        };
        let steps_dir = tempfile::tempdir().unwrap();
        let steps_journal = Journal::open(
            steps_dir.path(),
            &material,
            indexer.slice_len(),
            tuning.limit,
        )
        .unwrap();
        let schedule = crate::pawns::schedule::Schedule::new(&material, &stepped);
        // Small slices: a level is one group, and so one step.
        assert_eq!(
            schedule.large,
            schedule.steps.iter().any(|level| level.len() > 1)
        );
        for (level, steps) in schedule.steps.iter().enumerate() {
            for step in 0..steps.len() {
                crate::pawns::build::build_slices(
                    &material,
                    &subtables,
                    &held_promotions(&subtables),
                    &|_| ControlFlow::Continue(()),
                    stepped,
                    &steps_journal,
                    Chosen::Step { level, step },
                )
                .unwrap();
            }
        }
        let (from_steps, steps_bytes, built, kept) = run(Some(&steps_journal), u64::MAX);
        assert_eq!(from_steps.unwrap(), reference);
        assert_eq!(steps_bytes, bytes);
        assert_eq!((built, kept), (0, total as u64));

        // The cone of the least advanced slice but one, alone into a
        // journal of its own: each of its slices has the whole build's
        // bytes, and no other slice is built.
        let cone_dir = tempfile::tempdir().unwrap();
        let cone_journal = Journal::open(
            cone_dir.path(),
            &material,
            indexer.slice_len(),
            tuning.limit,
        )
        .unwrap();
        let men = indexer.men_in_order(&material);
        let cone = crate::pawns::cone::slices_reached(&indexer, &men, total - 2);
        assert!((2..total).contains(&cone.len()), "{} slices", cone.len());
        crate::pawns::build::build_slices(
            &material,
            &subtables,
            &held_promotions(&subtables),
            &|_| ControlFlow::Continue(()),
            tuning,
            &cone_journal,
            Chosen::Cone(&cone),
        )
        .unwrap();
        let len = indexer.slice_len();
        for slice in 0..total {
            let part = cone_journal.load(slice);
            assert_eq!(part.is_some(), cone.contains(&slice), "slice {slice}");
            if let Some(part) = part {
                for turn in Color::ALL {
                    assert_eq!(part.bytes[turn], bytes[turn][slice * len..][..len]);
                }
            }
        }

        let dir = tempfile::tempdir().unwrap();
        let journal =
            Journal::open(dir.path(), &material, indexer.slice_len(), tuning.limit).unwrap();
        let (stopped, ..) = run(Some(&journal), 5);
        assert!(matches!(stopped, Err(TableError::Stopped(_))));
        let folder = dir.path().join("KRvKP.standard.ajt.slices");
        let mut parts: Vec<_> = fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "part"))
            .collect();
        parts.sort();
        assert!((5..total).contains(&parts.len()), "{} parts", parts.len());
        // One part spoilt: a byte of its content changed.
        let mut spoilt = fs::read(&parts[2]).unwrap();
        let last = spoilt.len() - 1;
        spoilt[last] ^= 0x55;
        fs::write(&parts[2], spoilt).unwrap();

        let (resumed, resumed_bytes, built, kept) = run(Some(&journal), u64::MAX);
        assert_eq!(resumed.unwrap(), reference);
        assert_eq!(resumed_bytes, bytes);
        assert_eq!(kept as usize, parts.len() - 1);
        assert_eq!(built as usize, total - kept as usize);
        journal.remove().unwrap();
        assert!(!folder.exists());
    }
}

/// Issue 57, item 12: a journal's part is read as a table file is: a FIFO
/// in its place is refused without waiting, and a part whose reads hang
/// is given up at its limit and left as it is; both slices are then built
/// again. Item 3: the folder is removed by the last build that holds it.
#[test]
fn a_journal_part_is_read_under_a_time_limit() {
    use crate::{overflow::Overflow, pawns::journal::SliceBytes};
    let dir = tempfile::tempdir().unwrap();
    let material: Material = "KRvKP".parse().unwrap();
    let (slice_len, limit) = (4096, 100);
    let journal = Journal::open(dir.path(), &material, slice_len, limit).unwrap();
    let slice = |byte: u8| SliceBytes {
        bytes: ByColor::new_with(|_| vec![byte; slice_len]),
        overflow: Overflow::new(limit, ByColor::default()),
    };
    for number in 0..2 {
        journal.save(number, &slice(number as u8 + 1)).unwrap();
        let loaded = journal.load(number).unwrap();
        assert_eq!(loaded.bytes.white, vec![number as u8 + 1; slice_len]);
    }
    let part = |number| Journal::part_in(dir.path(), &material, number);
    fs::remove_file(part(0)).unwrap();
    let name = std::ffi::CString::new(part(0).as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    let started = std::time::Instant::now();
    assert!(
        journal.load(0).is_none(),
        "no writer ever comes to the FIFO"
    );
    let kept = fs::read(part(1)).unwrap();
    let stall = crate::format::Stall::new(&part(1), std::time::Duration::from_millis(200));
    assert!(journal.load(1).is_none());
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(fs::read(part(1)).unwrap(), kept, "left as it is");
    drop(stall);
    journal.save(0, &slice(7)).unwrap();
    assert_eq!(journal.load(0).unwrap().bytes.black, vec![7; slice_len]);

    let folder = part(0).parent().unwrap().to_path_buf();
    let other = Journal::open(dir.path(), &material, slice_len, limit).unwrap();
    journal.remove().unwrap();
    assert!(folder.exists(), "another build holds it");
    other.remove().unwrap();
    assert!(!folder.exists());
}

#[test]
#[ignore = "a five-man build, about a minute on two cores"]
fn kqrvkr_has_the_ranking_solvers_bytes() {
    same_bytes_as_the_ranking_solver(|men| men == 5, Ways::Cheaper);
}
