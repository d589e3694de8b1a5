//! `ajedrecista uci`: the automata as a UCI engine, so that chess GUIs and
//! libraries can play against them. The engine is the automata crate's
//! `UciEngine`; this is its runner: stdin read on a thread of its own, the
//! work the engine wants (table builds, a method's table) done on another,
//! the time of a waiting `go` kept, and what the engine says printed.
//! Nothing here waits for a build, so `isready` and `stop` are answered at
//! once.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use ajedrecista_automata::app::Work;
use ajedrecista_automata::{UciAnswer, UciEngine};
use ajedrecista_input::{Line, LineReader};
use ajedrecista_tables::{Material, Progress, TableError};

use crate::tables_args::TablesArgs;

/// How often a `go` waiting for work says how the work goes.
const REPORT_EVERY: Duration = Duration::from_secs(1);
/// How long `quit` waits for a stopped build to end (a build stops at its
/// next rank) before the process ends anyway.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// A UCI engine on stdin and stdout; White is played by the automaton set
/// with the Strategy option.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArgs,
}

/// What the runner waits for.
enum Event {
    Line(io::Result<Line>),
    InputEnded,
    Done(Work, Result<(), TableError>),
}

type Latest = Arc<Mutex<Option<(Material, Progress)>>>;

pub fn run(args: Args) -> anyhow::Result<()> {
    let (send, events) = mpsc::channel();
    // The build's last progress, handed to the engine when it speaks.
    let latest: Latest = Arc::default();
    let seen = Arc::clone(&latest);
    let tables = Arc::new(args.tables.open_watched(
        |_, _| {},
        move |material, _, progress| {
            *seen.lock().expect("no poisoning") = Some((material.clone(), progress));
        },
    ));
    let mut engine = UciEngine::new(Arc::clone(&tables));
    let lines = send.clone();
    thread::spawn(move || {
        for line in LineReader::new(io::stdin().lock()) {
            let failed = line.is_err();
            if lines.send(Event::Line(line)).is_err() || failed {
                return;
            }
        }
        let _ = lines.send(Event::InputEnded);
    });
    let stop = Arc::new(AtomicBool::new(false));
    let mut worker: Option<JoinHandle<()>> = None;
    let mut deadline: Option<Instant> = None;
    let mut input_ended = false;
    let mut out = crate::output::stdout_lock();
    let result = loop {
        if let Some(work) = engine.next_work() {
            let (tables, stop, done) = (Arc::clone(&tables), Arc::clone(&stop), send.clone());
            worker = Some(thread::spawn(move || {
                let result = work.run(&tables, &stop);
                let _ = done.send(Event::Done(work, result));
            }));
        }
        if !engine.waiting() {
            deadline = None;
            if input_ended {
                break Ok(());
            }
        }
        let wake = engine
            .waiting()
            .then(|| Instant::now() + REPORT_EVERY)
            .into_iter()
            .chain(deadline)
            .min();
        let event = match wake {
            Some(at) => events.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => events.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        if let Some((material, progress)) = latest.lock().expect("no poisoning").take() {
            engine.progress(&material, progress);
        }
        let answer = match event {
            Ok(Event::Line(Ok(Line::Text(line)))) => engine.command(&line),
            // UCI ignores what it cannot read: a line that is not UTF-8,
            // or longer than the limit, is reported and skipped, not the
            // end of the engine.
            Ok(Event::Line(Ok(refused))) => UciAnswer {
                lines: vec![format!(
                    "info string {}; it was ignored",
                    refused.refusal().expect("a line without text")
                )],
                ..UciAnswer::default()
            },
            Ok(Event::Line(Err(err))) => break Err(err.into()),
            Ok(Event::InputEnded) => {
                input_ended = true;
                engine.input_ended()
            }
            Ok(Event::Done(work, result)) => {
                if let Some(done) = worker.take() {
                    let _ = done.join();
                }
                engine.work_done(&work, result)
            }
            Err(RecvTimeoutError::Timeout) if deadline.is_some_and(|at| Instant::now() >= at) => {
                deadline = None;
                engine.time_up()
            }
            Err(RecvTimeoutError::Timeout) => UciAnswer {
                lines: engine.report(),
                ..UciAnswer::default()
            },
            Err(RecvTimeoutError::Disconnected) => break Ok(()),
        };
        if let Some(wait) = answer.wait {
            deadline = Some(Instant::now() + wait);
        }
        for line in &answer.lines {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        if answer.quit {
            break Ok(());
        }
    };
    // A build under way stops at its next rank; the process does not
    // wait long for it (a method's table cannot be stopped).
    stop.store(true, Ordering::Relaxed);
    if let Some(worker) = worker {
        let until = Instant::now() + QUIT_GRACE;
        while !worker.is_finished() && Instant::now() < until {
            thread::sleep(Duration::from_millis(10));
        }
    }
    result
}
