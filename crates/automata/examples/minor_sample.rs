//! Every `step`-th start of a minor-piece method's audit list, solved as
//! the audit solves it: how the methods' choices were tuned
//! (docs/guide/src/reference/automata.md, "bishops", "bishop-knight").
//!
//! `cargo run --release -p ajedrecista-automata --example minor_sample -- bishop-knight 300`;
//! with a FEN after the step, that start alone.

use std::collections::BTreeMap;

use ajedrecista_automata::audit::{StartSet, start_positions};
use ajedrecista_automata::{BishopKnight, Bishops, GameGraph, Outcome, Strategy};
use shakmaty::{Chess, Color};

fn sample<S: Strategy>(strategy: &S, step: usize) {
    let starts: Vec<Chess> = start_positions(strategy, StartSet::All, Color::White)
        .into_iter()
        .step_by(step)
        .collect();
    let mut graph = GameGraph::new(strategy);
    let with_memory: Vec<_> = starts
        .iter()
        .map(|start| (start.clone(), strategy.start(start)))
        .collect();
    graph.explore(&with_memory);
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut worst = 0;
    for start in &starts {
        let outcome = graph.outcome(start);
        if let Outcome::Mate(moves) = outcome {
            worst = worst.max(moves.0);
        }
        let name = match outcome {
            Outcome::Mate(_) => "mated".to_string(),
            Outcome::Failure(kind) => kind.name().to_string(),
        };
        *outcomes.entry(name).or_default() += 1;
    }
    println!(
        "{}: every {step}th start, {} starts: {outcomes:?}, worst {worst}, {} nodes",
        strategy.name(),
        starts.len(),
        graph.len()
    );
}

/// The start `fen` alone, solved as the audit solves it.
fn one<S: Strategy>(strategy: &S, fen: &str) {
    let start = fen
        .parse::<shakmaty::fen::Fen>()
        .map_err(|err| err.to_string())
        .and_then(|fen| {
            fen.into_position::<Chess>(shakmaty::CastlingMode::Standard)
                .map_err(|err| err.to_string())
        });
    match start {
        Ok(start) => println!("{fen}: {:?}", GameGraph::new(strategy).outcome(&start)),
        Err(err) => eprintln!("{fen}: {err}"),
    }
}

fn run<S: Strategy>(strategy: &S, step: Option<&String>, fen: Option<&String>) {
    match (fen, step.map(|step| step.parse::<usize>())) {
        (Some(fen), _) => one(strategy, fen),
        (None, Some(Ok(step))) if step > 0 => sample(strategy, step),
        (None, None) => sample(strategy, 300),
        (None, Some(_)) => eprintln!("the step is a whole number above 0"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bishops") => run(&Bishops, args.get(1), args.get(2)),
        Some("bishop-knight") => run(&BishopKnight, args.get(1), args.get(2)),
        _ => eprintln!("usage: minor_sample bishops|bishop-knight [STEP [FEN]]"),
    }
}
