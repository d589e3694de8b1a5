//! Emulation speed: macro-steps per second while a program runs, program
//! steps per second, and one move of each chess program.
//!
//! Run: `cargo bench -p ajedrecista-mk61`. Figures go in docs/benchmarks.md.

use std::hint::black_box;
use std::time::Duration;

use ajedrecista_mk61::{
    AngleUnit, Calculator, Key, Program, QUEEN_PRESETS, ROOK_PRESETS, address_label, read_listing,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn keys(tokens: &str) -> Vec<Key> {
    Key::sequence(tokens).unwrap()
}

/// Power-on at Р, `program` keyed in, then the keys `setup`.
fn keyed_in(program: &Program, setup: &str) -> Calculator {
    let mut calculator = Calculator::new(AngleUnit::Radians);
    calculator.enter_program(program).unwrap();
    calculator.press_all(keys(setup));
    calculator
}

/// 00: С/П, 01..A3: КНОП, A4: 5 — started at 01 it runs 104 simple steps
/// and the stop at A5 (cell 00).
fn straight_line() -> Calculator {
    let mut listing = String::from("00. С/П ");
    for address in 1..104 {
        listing += &format!("{}. КНОП ", address_label(address));
    }
    listing += "A4. 5";
    let mut calculator = Calculator::new(AngleUnit::Radians);
    calculator
        .enter_program(&read_listing(&listing).unwrap())
        .unwrap();
    calculator
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("mk61");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));

    // A program running: the loop 00 КНОП, 01 БП 00.
    let mut looping = Calculator::new(AngleUnit::Radians);
    looping
        .enter_program(&read_listing("00. КНОП 01. БП 02. 00").unwrap())
        .unwrap();
    looping.press(Key::Return);
    looping.press_with_limit(Key::RunStop, 1);
    const STEPS: u32 = 10_000;
    group.throughput(Throughput::Elements(u64::from(STEPS)));
    group.bench_function("macro_steps_running", |b| {
        b.iter(|| {
            let mut calculator = looping.clone();
            calculator.run_macro_steps(STEPS);
            black_box(calculator)
        })
    });

    // 105 program steps (01..A4, then the С/П at A5), key handling included.
    let mut ready = straight_line();
    for key in [Key::Goto, Key::Digit(0), Key::Digit(1)] {
        ready.press(key);
    }
    group.throughput(Throughput::Elements(105));
    group.bench_function("program_steps_straight_line", |b| {
        b.iter(|| {
            let mut calculator = ready.clone();
            black_box(calculator.press(Key::RunStop))
        })
    });

    group.throughput(Throughput::Elements(1));
    // The seeds' games as the automata crate plays them: the queen game
    // started (queen on g7), the king placed on a8; the rook game with the
    // white men e1, a2 stored, the king's move to e5.
    let games = [
        (
            "queen_move",
            keyed_in(
                &Program::queen(),
                &format!("{QUEEN_PRESETS} PX 0 CX XP 1 7 XP 2 VO SP"),
            ),
            keys("1 . 8 SP"),
        ),
        (
            "rook_move",
            keyed_in(
                &Program::rook(),
                &format!("{ROOK_PRESETS} VO SP 5 XP 3 1 XP 4 1 XP 5 2 XP 6"),
            ),
            keys("5 5 SP"),
        ),
    ];
    for (name, started, black_move) in games {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut calculator = started.clone();
                black_box(calculator.press_all(black_move.iter().copied()))
            })
        });
    }
    group.finish();
}

criterion_group!(emulation, benches);
criterion_main!(emulation);
