//! How long the exact audits take (target: each native audit under a
//! second in release; the queen program on the emulator under a minute).

use std::time::Duration;

use ajedrecista_automata::{Mk61Queen, Mk61Rook, OnSignal, StartSet, Strategy, Torres, audit};
use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::Color;

fn bench_audit<S: Strategy>(c: &mut Criterion, strategy: &S, set: StartSet) {
    for side in [Color::White, Color::Black] {
        let name = format!("audit {} {} {side}", strategy.name(), set.name());
        c.bench_function(&name, |b| b.iter(|| audit(strategy, set, side)));
    }
}

fn audits(c: &mut Criterion) {
    bench_audit(c, &Torres, StartSet::Machine);
    bench_audit(c, &Torres, StartSet::All);
    bench_audit(c, &Mk61Rook::default(), StartSet::All);
    bench_audit(
        c,
        &Mk61Rook {
            on_signal: OnSignal::TurnTheBoard,
        },
        StartSet::All,
    );
}

/// The queen program run on the emulator: every answer is a calculator run.
fn emulated_audits(c: &mut Criterion) {
    bench_audit(c, &Mk61Queen, StartSet::All);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = audits
}
criterion_group! {
    name = emulated;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(60));
    targets = emulated_audits
}
criterion_main!(benches, emulated);
