//! Options shared by the commands that use tables, and what they show while
//! a table is built.

use std::{
    cell::RefCell,
    collections::HashMap,
    io::IsTerminal,
    path::PathBuf,
    sync::{Arc, LazyLock, Mutex},
    time::{Duration, Instant},
};

use ajedrecista_tables::{Event, Material, Progress, Syzygy, Tablebase, Variant};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// The bars on stderr, drawn together: a command's own spinner and the bar
/// of a build it starts.
static BARS: LazyLock<MultiProgress> = LazyLock::new(MultiProgress::new);

#[derive(clap::Args, Debug, Clone)]
pub struct TablesArgs {
    /// Folder of the table cache [default: $AJEDRECISTA_TABLES if set and
    /// not empty, else the user's cache folder, ajedrecista/tables]
    #[arg(long, value_name = "DIR", value_parser = non_empty_path)]
    pub tables: Option<PathBuf>,
}

#[derive(clap::Args, Debug, Clone)]
pub struct SyzygyArgs {
    /// Folder of Syzygy files (.rtbw, .rtbz): where a DTM table is not
    /// built, the answer comes from them at once, with no build [default:
    /// $AJEDRECISTA_SYZYGY if set and not empty, else none]
    #[arg(long, value_name = "DIR", value_parser = non_empty_path)]
    pub syzygy: Option<PathBuf>,
}

impl SyzygyArgs {
    /// `--syzygy`, else `$AJEDRECISTA_SYZYGY` unless it is empty.
    pub fn dir(&self) -> Option<PathBuf> {
        self.syzygy
            .clone()
            .or_else(|| folder_from_env(ajedrecista_tables::SYZYGY_ENV))
    }

    /// The Syzygy folder opened, if one is given (its files are read as
    /// probes need them).
    pub fn open(&self) -> anyhow::Result<Option<Syzygy>> {
        Ok(self.dir().map(|dir| Syzygy::open(&dir)).transpose()?)
    }
}

#[derive(clap::Args, Debug, Clone)]
pub struct MemoryArgs {
    /// Most memory kept for probes, shared by tables, chunks of table
    /// files and slices, the last used kept: 256M, 1G, or a number of MiB
    /// [default: 64M]. A table that could not be saved is kept whatever
    /// it says.
    #[arg(long, value_name = "SIZE", value_parser = memory_size)]
    pub memory: Option<usize>,
}

impl MemoryArgs {
    /// The tablebase under the budget `--memory` sets, if any.
    pub fn bound(&self, tables: Tablebase) -> Tablebase {
        match self.memory {
            Some(bytes) => tables.memory_budget(bytes),
            None => tables,
        }
    }
}

/// A size in bytes from `256M`, `1G`, `512K` or a bare number of MiB: at
/// least 1 MiB, at most 1 TiB.
fn memory_size(text: &str) -> Result<usize, String> {
    let bad = || format!("`{text}` is not a size such as 256M or 1G");
    let upper = text.trim().to_ascii_uppercase();
    let upper = upper.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match upper.char_indices().last() {
        Some((at, 'K')) => (&upper[..at], 10),
        Some((at, 'M')) => (&upper[..at], 20),
        Some((at, 'G')) => (&upper[..at], 30),
        Some((at, 'T')) => (&upper[..at], 40),
        _ => (upper, 20),
    };
    let number: u64 = digits.trim().parse().map_err(|_| bad())?;
    let bytes = number
        .checked_mul(1 << shift)
        .filter(|bytes| (1 << 20..=1 << 40).contains(bytes))
        .ok_or_else(|| format!("`{text}` is out of range: 1M to 1T"))?;
    usize::try_from(bytes).map_err(|_| bad())
}

fn non_empty_path(text: &str) -> Result<PathBuf, String> {
    if text.is_empty() {
        Err("an empty folder name".to_string())
    } else {
        Ok(PathBuf::from(text))
    }
}

impl TablesArgs {
    /// The cache folder: `--tables`, else `$AJEDRECISTA_TABLES` unless it
    /// is empty (an empty variable counts as unset, as shells treat
    /// `VAR=`), else the tables crate's default.
    pub fn dir(&self) -> Option<PathBuf> {
        self.tables
            .clone()
            .or_else(|| folder_from_env(ajedrecista_tables::TABLES_ENV))
    }
}

/// The folder an environment variable names, unless it is unset or empty
/// (an empty variable counts as unset, as shells treat `VAR=`).
fn folder_from_env(variable: &str) -> Option<PathBuf> {
    std::env::var_os(variable)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// The progress of the build under way, once it has taken a second: a bar
/// on a terminal, else one line on stderr when it starts and one when it
/// ends (a log or a pipe gets no bar).
#[derive(Default)]
struct BuildBar {
    started: Option<Instant>,
    bar: Option<ProgressBar>,
    /// Not on a terminal: the label of the build announced on stderr.
    announced: Option<String>,
}

impl BuildBar {
    fn start(&mut self) {
        // A build that did not end (stopped, failed) is not said to be built.
        self.announced = None;
        self.finish();
        self.started = Some(Instant::now());
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if let (Some(label), Some(started)) = (self.announced.take(), self.started) {
            crate::output::note!(
                "ajedrecista: table {label} built in {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        self.started = None;
    }

    fn update(&mut self, label: String, progress: Progress) {
        let Some(started) = self.started else { return };
        if self.bar.is_none() && self.announced.is_none() && started.elapsed().as_secs_f64() > 1.0 {
            if std::io::stderr().is_terminal() {
                let bar = BARS.add(ProgressBar::new(0));
                bar.set_style(bar_style());
                self.bar = Some(bar);
            } else {
                crate::output::note!("ajedrecista: building table {label} (not in the cache)");
                self.announced = Some(label.clone());
            }
        }
        let Some(bar) = &self.bar else { return };
        match progress {
            Progress::FirstPass { examined, total } => {
                bar.set_length(total);
                bar.set_position(examined.min(total));
                bar.set_message(format!("{label}: first pass"));
            }
            Progress::Rank { rank, decided } => {
                if bar.length().is_some() {
                    // The number of ranks is not known in advance: a spinner.
                    bar.unset_length();
                    bar.set_style(spinner_style());
                }
                bar.set_message(format!("{label}: rank {rank}, {decided} positions decided"));
                bar.tick();
            }
            Progress::Slice {
                done,
                total,
                pawns,
                kept,
            } => {
                if bar.length().is_none() {
                    bar.set_style(bar_style());
                }
                bar.set_length(total);
                bar.set_position(done.min(total));
                let how = if kept {
                    "kept from a stopped build"
                } else {
                    "done"
                };
                bar.set_message(format!("{label}: slice {pawns}, {done} of {total} {how}"));
            }
        }
    }
}

/// Several builds shown as one bar with a time estimate (the tables and
/// slices a first probe builds), while it is set: each table's share of
/// the work in numbers a side, the bar's length their sum.
struct Overall {
    bar: ProgressBar,
    shares: HashMap<Material, u64>,
    /// The shares of the builds finished.
    done: u64,
    /// The share of the build under way, and how far it is, 0 to 1.
    current: Option<(u64, f64)>,
}

static OVERALL: Mutex<Option<Overall>> = Mutex::new(None);

/// One bar for the builds of `shares` (tables and their numbers a side)
/// until the guard is dropped, in place of a bar a table: on a terminal,
/// else one line saying what is built.
pub fn one_bar_for(shares: Vec<(Material, u64)>, message: String) -> OneBar {
    let total = shares.iter().map(|(_, numbers)| numbers).sum();
    let bar = if std::io::stderr().is_terminal() {
        let bar = BARS.add(ProgressBar::new(total));
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:<32} [{bar:40}] {percent:>3}% {elapsed}, about {eta} left",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_message(message);
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    } else {
        crate::output::note!("ajedrecista: {message}");
        ProgressBar::hidden()
    };
    *OVERALL.lock().expect("no poisoning") = Some(Overall {
        bar,
        shares: shares.into_iter().collect(),
        done: 0,
        current: None,
    });
    OneBar
}

/// While it lives, builds are shown on one bar ([`one_bar_for`]).
pub struct OneBar;

impl Drop for OneBar {
    fn drop(&mut self) {
        if let Some(overall) = OVERALL.lock().expect("no poisoning").take() {
            overall.bar.finish_and_clear();
        }
    }
}

impl Overall {
    fn show(&self) {
        let current = self
            .current
            .map_or(0, |(share, part)| (share as f64 * part) as u64);
        self.bar.set_position(self.done + current);
    }

    fn started(&mut self, material: &Material) {
        self.current = Some((self.shares.get(material).copied().unwrap_or(0), 0.0));
        self.bar.set_message(format!("building {material}"));
        self.show();
    }

    /// The build under way has progressed to `progress`.
    fn progressed(&mut self, progress: Progress) {
        let Some((share, part)) = self.current.as_mut() else {
            return;
        };
        // The first pass is about a quarter of a table's time; the plies
        // after it settle the positions a table decides.
        let numbers = 2 * (*share).max(1);
        *part = match progress {
            Progress::FirstPass { examined, total } => 0.25 * examined as f64 / total.max(1) as f64,
            Progress::Rank { decided, .. } => {
                0.25 + 0.75 * (decided as f64 / numbers as f64).min(1.0)
            }
            Progress::Slice { done, total, .. } => done as f64 / total.max(1) as f64,
        };
        self.show();
    }

    fn finished(&mut self) {
        if let Some((share, _)) = self.current.take() {
            self.done += share;
        }
        self.show();
    }
}

/// A bar counting `len` steps of work, labelled `message`: on a terminal
/// only (a log or a pipe gets none).
pub fn count_bar(len: u64, message: String) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(bar_style());
    bar.set_message(message);
    bar
}

/// A spinner saying what is under way, for work with no measure of its own
/// (a method's table, lines read one by one): on a terminal only, drawn
/// from the start, cleared when finished or dropped.
pub fn spinner(message: String) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = BARS.add(ProgressBar::new_spinner());
    bar.set_style(spinner_style());
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// The progress of a table counted from its file
/// ([`Tablebase::summary`]): a bar on a terminal once the count has taken
/// a second (a six-man table's takes minutes), cleared when dropped.
pub struct FileCountBar {
    message: String,
    started: Instant,
    bar: RefCell<Option<ProgressBar>>,
}

impl FileCountBar {
    pub fn new(material: &ajedrecista_tables::Material, variant: Variant) -> FileCountBar {
        FileCountBar {
            message: format!("{}: counting its file", label(material, variant)),
            started: Instant::now(),
            bar: RefCell::new(None),
        }
    }

    /// `done` of `total` numbers counted.
    pub fn update(&self, done: u64, total: u64) {
        let mut bar = self.bar.borrow_mut();
        if bar.is_none() && self.started.elapsed().as_secs_f64() > 1.0 {
            *bar =
                Some(count_bar(total, self.message.clone()).with_elapsed(self.started.elapsed()));
        }
        if let Some(bar) = bar.as_ref() {
            bar.set_position(done.min(total));
        }
    }
}

impl Drop for FileCountBar {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.get_mut().take() {
            bar.finish_and_clear();
        }
    }
}

fn bar_style() -> ProgressStyle {
    ProgressStyle::with_template("{msg:<32} [{bar:40}] {percent:>3}% {elapsed}")
        .expect("valid template")
        .progress_chars("=> ")
}

fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("valid template")
}

fn label(material: &ajedrecista_tables::Material, variant: Variant) -> String {
    match variant {
        Variant::Standard => material.to_string(),
        Variant::FixedKing(sq) => format!("{material} (king fixed on {sq})"),
    }
}

impl TablesArgs {
    /// A tablebase that reports cache problems on stderr and shows a
    /// progress bar on a terminal for builds that take over a second.
    pub fn open(&self) -> Tablebase {
        self.open_with(|_, _| {})
    }

    /// [`TablesArgs::open`], calling `built` when a build finishes.
    pub fn open_with(
        &self,
        built: impl Fn(&ajedrecista_tables::Material, Variant) + Send + Sync + 'static,
    ) -> Tablebase {
        self.open_watched(built, |_, _, _| {})
    }

    /// [`TablesArgs::open_with`], also calling `progress` as builds
    /// progress.
    pub fn open_watched(
        &self,
        built: impl Fn(&ajedrecista_tables::Material, Variant) + Send + Sync + 'static,
        progress: impl Fn(&ajedrecista_tables::Material, Variant, Progress) + Send + Sync + 'static,
    ) -> Tablebase {
        let bar = Arc::new(Mutex::new(BuildBar::default()));
        let events = Arc::clone(&bar);
        Tablebase::new(self.dir())
            .on_event(move |event| match event {
                Event::Rebuilding { path, reason } => {
                    crate::output::note!(
                        "ajedrecista: table file {} is unusable ({reason}); rebuilding it",
                        path.display()
                    )
                }
                Event::NotSaved { path, reason } => {
                    crate::output::note!(
                        "ajedrecista: could not save table {} ({reason}); using it from memory",
                        path.display()
                    )
                }
                Event::InMemory { dir, reason } => {
                    crate::output::note!(
                        "ajedrecista: cannot write in the cache folder {} ({reason}); the tables it lacks are built in memory",
                        dir.display()
                    )
                }
                Event::Building { material, .. } => {
                    match OVERALL.lock().expect("no poisoning").as_mut() {
                        Some(overall) => overall.started(&material),
                        None => events.lock().expect("no poisoning").start(),
                    }
                }
                Event::Built { material, variant } => {
                    match OVERALL.lock().expect("no poisoning").as_mut() {
                        Some(overall) => overall.finished(),
                        None => events.lock().expect("no poisoning").finish(),
                    }
                    built(&material, variant);
                }
            })
            .on_progress(move |material, variant, report| {
                progress(material, variant, report);
                if let Some(overall) = OVERALL.lock().expect("no poisoning").as_mut() {
                    return overall.progressed(report);
                }
                bar.lock()
                    .expect("no poisoning")
                    .update(label(material, variant), report)
            })
    }
}

/// The variant named by a `--fixed-king` option.
pub fn variant(fixed_king: Option<shakmaty::Square>) -> Variant {
    fixed_king.map_or(Variant::Standard, Variant::FixedKing)
}
