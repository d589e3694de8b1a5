//! `ajedrecista`: the command line. It parses arguments, calls the domain
//! crates and prints; nothing else lives here.

mod commands;
mod diagram;
mod fen;
mod files;
mod input;
mod output;
mod tables_args;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// The version and the commit built (build.rs).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("AJEDRECISTA_COMMIT"),
    ")"
);

/// Machines that mate a lone king: solve, play, audit, emulate, code.
#[derive(Parser)]
#[command(
    name = "ajedrecista",
    version = VERSION,
    about,
    long_about = None,
    after_help = "The user guide, a chapter of tasks for each kind of user with every command's \
                  output: docs/guide in the source (README says how to read it). Man pages: \
                  ajedrecista manual DIR."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Solve(commands::solve::Args),
    Probe(commands::probe::Args),
    Audit(commands::audit::Args),
    Selfplay(commands::selfplay::Args),
    /// The Gartser-Kharichev code of a mate or stalemate.
    Code(commands::code::Args),
    /// Classify the final positions of a FEN/EPD or PGN file.
    Classify(commands::classify::Args),
    /// Every mate or stalemate with given material, by etalon code.
    Enumerate(commands::enumerate::Args),
    /// The MK-61 calculator, emulated from its microcode.
    Mk61(commands::mk61::Args),
    Serve(commands::serve::Args),
    Play(commands::play::Args),
    /// A UCI engine: chess GUIs and libraries play against the automata.
    Uci(commands::uci::Args),
    /// Build plans run as Slurm jobs on a cluster: one job a table.
    Cluster(commands::cluster::Args),
    /// Write the man pages, generated from these commands' own help.
    Manual(commands::manual::ManualArgs),
    /// Print a shell's completion script.
    Completions(commands::manual::CompletionsArgs),
}

/// glibc raises its threshold for serving an allocation by mmap each time
/// such a block is freed, up to 32 MiB; a table build then takes its
/// large, short-lived buffers (a pawn slice, a promotion table) from the
/// heap, and freed heap stays resident: KRPvKR's build peaked at 315 432
/// KB so, 242 452 KB with the threshold fixed at 1 MiB (docs/guide/src/reference/pawns.md,
/// Memory).
///
/// glibc also gives threads up to 8 heaps a core, each reserving 64 MiB
/// of address space: `serve` under `ulimit -v` 1 GiB aborted at 64
/// concurrent KRPvKR probes ("memory allocation of 1048576 bytes
/// failed"), its heaps alone near the limit; with one heap a core, at
/// most 4, it peaked at a third of it (docs/reliability.md).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_large_allocations_mapped() {
    let heaps = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    // SAFETY: mallopt only sets allocator parameters; called before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_ARENA_MAX, heaps as libc::c_int);
    }
}

fn main() -> ExitCode {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    keep_large_allocations_mapped();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Probe(args) => commands::probe::run(args),
        Command::Audit(args) => commands::audit::run(args),
        Command::Selfplay(args) => commands::selfplay::run(args),
        Command::Code(args) => commands::code::run(args),
        Command::Classify(args) => commands::classify::run(args),
        Command::Enumerate(args) => commands::enumerate::run(args),
        Command::Mk61(args) => commands::mk61::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Uci(args) => commands::uci::run(args),
        Command::Cluster(args) => commands::cluster::run(args),
        Command::Manual(args) => commands::manual::manual(args, Cli::command()),
        Command::Completions(args) => commands::manual::completions(args, Cli::command()),
    };
    match result.and_then(|()| Ok(output::flush_stdout()?)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err)
            if output::write_failure(&err).is_some_and(output::WriteFailed::is_closed_pipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) if err.is::<commands::probe::BadLines>() => {
            // Every line was answered, some with an error object.
            output::note!("ajedrecista: {err}");
            ExitCode::from(1)
        }
        Err(err) => {
            // One line: the whole chain of causes, joined.
            output::note!("ajedrecista: {err:#}");
            ExitCode::from(2)
        }
    }
}
