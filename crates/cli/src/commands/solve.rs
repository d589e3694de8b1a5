//! `ajedrecista solve`: build or load a table and print its counts; with
//! `--all N`, every table up to N men.

use std::time::Instant;

use ajedrecista_tables::{
    Checked, EVERY_TABLE_MEN, EveryTable, MAX_MEN, Material, Moves, Origin, Plies, Sample,
    SideSummary, Step, Tablebase, Value, Variant, number_fen,
};
use anyhow::Context;
use serde::Serialize;
use shakmaty::{ByColor, Color, Square};

use crate::output::outln;
use crate::tables_args::{FileCountBar, TablesArgs};

use super::solve_node;
use super::solve_plan::{self, PlanJson};

/// Build (or load) the distance-to-mate table of an endgame and print its
/// counts.
///
/// Conventions: a position is legal when the men stand on distinct squares
/// and the side not to move is not in check; counts are over all placements
/// (no symmetry reduction). Win, draw and loss are from the side to move's
/// point of view. DTM is given in moves of the winning side, mate included
/// (white to move and mate in 1 = 1), and in plies in the histogram (wins on
/// odd plies, losses on even; 0 = checkmated now).
#[derive(clap::Args)]
pub struct Args {
    /// Material, white first: KQvK, KRvK, KBNvK, KQvKR, KQRvKR, KPvK,
    /// KQvKP... (3 to 6 men: a six-man table takes gigabytes of memory,
    /// checked before the build starts; a material with pawns and its colour-flipped
    /// twin share one table, shown under the twin with more or stronger
    /// white men). With --plan, several: one plan, each table once
    #[arg(required_unless_present_any = ["all", "node"])]
    material: Vec<String>,
    /// A white king that never moves, on this square (the game of Brudno and
    /// Landau; black must have a bare king), or `all` for one row per square
    #[arg(long, value_name = "SQ|all")]
    fixed_king: Option<String>,
    /// Every table of 3 to N men (N = 3, 4 or 5; with --plan, 6 too),
    /// pawns included, smallest first, one per colour-flipped pair; tables
    /// already in the cache are checked and kept. Ends with a summary of
    /// each table.
    #[arg(long, value_name = "N", conflicts_with_all = ["material", "fixed_king"])]
    all: Option<u8>,
    /// With --all: only the tables whose name, or their colour-flipped
    /// twin's, matches PATTERN, where `*` is any men of one side and `?`
    /// one man (K*R*vK*R*: a rook a side); the tables they read are built
    /// as they need them
    #[arg(long, value_name = "PATTERN", requires = "all")]
    matching: Option<String>,
    /// Then check N positions of the table drawn at random against their
    /// moves: each value must be the best of the values its moves lead to
    /// (the rule the build solved); a disagreement is an error. N is 1 to
    /// 1 000 000: the positions are held while they are checked. With
    /// `--all`, every table is checked
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_CHECKED))]
    check: Option<u64>,
    /// The seed of the positions `--check` draws: the same seed, the same
    /// positions
    #[arg(long, value_name = "S", default_value_t = 1, requires = "check")]
    seed: u64,
    /// Print the build plan and build nothing: the tables needed in build
    /// order, what each reads, a table with pawns' slices, the estimated
    /// peak memory and disk, and which tables are in the cache folder
    #[arg(long, conflicts_with_all = ["check", "node"])]
    plan: bool,
    /// Build one step of a plan alone, from the files of what it reads,
    /// which must be in the cache folder (`--plan` lists them in build
    /// order): a table (KRPvKR), or a group of the slices of a table with
    /// pawns kept in its journal (KRRvKRP-L2G1: level 2, group 1, as
    /// `--plan` numbers them from 0), as a process of its own
    #[arg(long, value_name = "STEP", conflicts_with_all = ["all", "check", "material", "plan"])]
    node: Option<String>,
    /// Print JSON instead of a table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TablesArgs,
}

/// The most positions `--check` draws.
const MAX_CHECKED: u64 = 1_000_000;

#[derive(Serialize)]
struct SideJson {
    legal: u64,
    win: u64,
    draw: u64,
    loss: u64,
    max_dtm_moves: Option<Moves>,
    max_dtm_fen: Option<String>,
    longest_win_moves: Option<Moves>,
    longest_win_fen: Option<String>,
    longest_loss_moves: Option<Moves>,
    longest_loss_fen: Option<String>,
    histogram_plies: Vec<(Plies, u64)>,
}

impl SideJson {
    /// The counts of `side` of the table of `material`, with the FEN of
    /// its longest mate, win and loss.
    fn new(material: &Material, variant: Variant, turn: Color, side: &SideSummary) -> SideJson {
        let moves = |longest: Option<(Value, usize)>| longest.and_then(|(v, _)| v.moves());
        let fen = |longest: Option<(Value, usize)>| {
            longest.and_then(|(_, index)| number_fen(material, variant, index, turn))
        };
        SideJson {
            legal: side.legal,
            win: side.win,
            draw: side.draw,
            loss: side.loss,
            max_dtm_moves: moves(side.longest()),
            max_dtm_fen: fen(side.longest()),
            longest_win_moves: moves(side.longest_win),
            longest_win_fen: fen(side.longest_win),
            longest_loss_moves: moves(side.longest_loss),
            longest_loss_fen: fen(side.longest_loss),
            histogram_plies: side.histogram_plies.iter().map(|(&p, &n)| (p, n)).collect(),
        }
    }
}

#[derive(Serialize)]
struct SolveJson {
    material: String,
    fixed_king: Option<String>,
    white_to_move: SideJson,
    black_to_move: SideJson,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<CheckJson>,
}

impl TableRow {
    fn new(table: EveryTable, seed: u64) -> TableRow {
        let (status, summary) = match table.counted {
            Ok((Origin::Built, summary)) => ("built", summary),
            Ok((Origin::Cached, summary)) => ("cached", summary),
            Err(_) => ("failed", ByColor::<SideSummary>::default()),
        };
        let longest = [&summary.white, &summary.black]
            .iter()
            .filter_map(|s| s.longest().and_then(|(v, _)| v.plies()))
            .max();
        TableRow {
            material: table.material.to_string(),
            status,
            legal_white_to_move: summary.white.legal,
            legal_black_to_move: summary.black.legal,
            longest_plies: longest,
            longest_moves: longest.map(Plies::moves),
            seconds: table.seconds,
            file_bytes: table.file_bytes,
            check: table
                .checked
                .and_then(Result::ok)
                .map(|(checked, seconds)| CheckJson::new(checked, seed, seconds)),
        }
    }
}

/// `--check`: the positions drawn and those that disagree with their moves.
#[derive(Serialize)]
struct CheckJson {
    positions: u64,
    seed: u64,
    disagreements: Vec<DisagreementJson>,
    seconds: f64,
}

#[derive(Serialize)]
struct DisagreementJson {
    fen: String,
    result: &'static str,
    dtm_plies: Option<Plies>,
    moves_result: &'static str,
    moves_dtm_plies: Option<Plies>,
}

impl CheckJson {
    fn new(checked: Checked, seed: u64, seconds: f64) -> CheckJson {
        CheckJson {
            positions: checked.positions,
            seed,
            disagreements: checked
                .disagreements
                .into_iter()
                .map(|d| DisagreementJson {
                    fen: d.fen,
                    result: d.value.wdl().as_str(),
                    dtm_plies: d.value.plies(),
                    moves_result: d.from_moves.wdl().as_str(),
                    moves_dtm_plies: d.from_moves.plies(),
                })
                .collect(),
            seconds,
        }
    }
}

#[derive(Serialize)]
struct SquareJson {
    square: String,
    white_to_move: SideJson,
    black_to_move: SideJson,
}

#[derive(Serialize)]
struct AllSquaresJson {
    material: String,
    squares: Vec<SquareJson>,
    seconds: f64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let (Some(men), true) = (args.all, args.plan) {
        anyhow::ensure!(
            (3..=MAX_MEN).contains(&usize::from(men)),
            "--all {men} --plan: N is 3 to {MAX_MEN}"
        );
        let tb = args.tables.open().building_up_to(MAX_MEN);
        let materials = every_matching(men, args.matching.as_deref())?;
        return plan(&tb, &materials, Variant::Standard, args.json);
    }
    if let Some(men) = args.all {
        return every_table(&args, men);
    }
    if let Some(step) = &args.node {
        let step: Step = step.parse()?;
        let tb = args.tables.open().building_up_to(MAX_MEN);
        let variant = one_variant(&args)?;
        solve_node::node(&tb, &step, variant, args.json)?;
        return match step {
            Step::Table(material) => one(&tb, &material, variant, &args),
            Step::Slices { .. } => Ok(()),
        };
    }
    let materials = args
        .material
        .iter()
        .map(|m| m.parse::<Material>())
        .collect::<Result<Vec<_>, _>>()?;
    if args.plan && args.fixed_king.is_none() {
        let tb = args.tables.open().building_up_to(MAX_MEN);
        return plan(&tb, &materials, Variant::Standard, args.json);
    }
    let [material] = <[Material; 1]>::try_from(materials).map_err(|materials| {
        anyhow::anyhow!(
            "{} tables: solve takes one (--plan takes several)",
            materials.len()
        )
    })?;
    if material.len() < 3 {
        anyhow::bail!("{material}: a table needs 3 men at least");
    }
    // A table named here is built whatever its size (six men included).
    let tb = args.tables.open().building_up_to(MAX_MEN);
    if args.plan {
        let variant = one_variant(&args)?;
        return plan(&tb, std::slice::from_ref(&material), variant, args.json);
    }
    if material.has_pawns() {
        if args.fixed_king.is_some() {
            anyhow::bail!("{material}: the fixed-king game has no pawns");
        }
        return one(&tb, &material, Variant::Standard, &args);
    }
    match args.fixed_king.as_deref() {
        Some("all") if args.check.is_some() => {
            anyhow::bail!("--check checks one table: give --fixed-king a square, not all")
        }
        Some("all") => all_squares(&tb, &material, args.json),
        Some(sq) => one(&tb, &material, Variant::FixedKing(parse_square(sq)?), &args),
        None => one(&tb, &material, Variant::Standard, &args),
    }
}

/// Every table of 3 to `men` men whose name matches `pattern` (see
/// [`Material::matches`]), or all of them; a pattern that matches none is
/// an error.
pub fn every_matching(men: u8, pattern: Option<&str>) -> anyhow::Result<Vec<Material>> {
    let every = Material::every(usize::from(men));
    let Some(pattern) = pattern else {
        return Ok(every);
    };
    let matching: Vec<Material> = every.into_iter().filter(|m| m.matches(pattern)).collect();
    anyhow::ensure!(
        !matching.is_empty(),
        "{pattern:?} matches no table of 3 to {men} men (write it as a name, KRPvKR, with * for any men of one side and ? for one man)"
    );
    Ok(matching)
}

/// The variant of `--plan` and `--node`, which take one table.
fn one_variant(args: &Args) -> anyhow::Result<Variant> {
    Ok(match args.fixed_king.as_deref() {
        None => Variant::Standard,
        Some("all") => {
            anyhow::bail!("--plan and --node take one table: give --fixed-king a square")
        }
        Some(sq) => Variant::FixedKing(parse_square(sq)?),
    })
}

/// The square of `--fixed-king`.
fn parse_square(sq: &str) -> anyhow::Result<Square> {
    sq.parse()
        .with_context(|| format!("bad square {sq:?} for --fixed-king (write it like c3)"))
}

/// `--plan`: the plan of the tables' builds, nothing built.
fn plan(
    tb: &Tablebase,
    materials: &[Material],
    variant: Variant,
    json: bool,
) -> anyhow::Result<()> {
    if variant != Variant::Standard
        && let Some(material) = materials.iter().find(|m| m.has_pawns())
    {
        anyhow::bail!("{material}: the fixed-king game has no pawns");
    }
    let plan = tb.plan(materials, variant);
    let names: Vec<String> = materials
        .iter()
        .map(|m| m.table_material().to_string())
        .collect();
    let out = PlanJson::new(&names.join(" "), variant, tb.dir().is_some(), &plan);
    if json {
        crate::output::print_json(&out)
    } else {
        solve_plan::print(&out)
    }
}

/// A table, shown under the material it is held under (a material with
/// pawns under its canonical one); one not in the cache folder is built if
/// it fits in memory, one there is counted from its file.
fn one(tb: &Tablebase, material: &Material, variant: Variant, args: &Args) -> anyhow::Result<()> {
    if !tb.in_cache_folder(material, variant) {
        solve_plan::enough_memory(
            tb.plan(std::slice::from_ref(material), variant)
                .nodes
                .iter(),
            1,
        )?;
    }
    let start = Instant::now();
    let counting = FileCountBar::new(material, variant);
    let (material, summary) = tb.summary(material, variant, &|done, total| {
        counting.update(done, total)
    })?;
    drop(counting);
    let seconds = start.elapsed().as_secs_f64();
    let check = match args.check {
        Some(positions) => Some(check(tb, &material, variant, positions, args.seed)?),
        None => None,
    };
    let out = SolveJson {
        material: material.to_string(),
        fixed_king: match variant {
            Variant::FixedKing(sq) => Some(sq.to_string()),
            Variant::Standard => None,
        },
        white_to_move: SideJson::new(&material, variant, Color::White, &summary.white),
        black_to_move: SideJson::new(&material, variant, Color::Black, &summary.black),
        seconds,
        check,
    };
    if args.json {
        crate::output::print_json(&out)?;
    } else {
        print_one(&out)?;
    }
    match &out.check {
        Some(check) if !check.disagreements.is_empty() => anyhow::bail!(
            "{material}: {} of {} positions checked disagree with their moves",
            check.disagreements.len(),
            check.positions
        ),
        _ => Ok(()),
    }
}

/// `--check`: `positions` positions of the table drawn at random checked
/// against their moves, with a bar on a terminal.
fn check(
    tb: &Tablebase,
    material: &Material,
    variant: Variant,
    positions: u64,
    seed: u64,
) -> anyhow::Result<CheckJson> {
    let start = Instant::now();
    let bar = crate::tables_args::count_bar(positions, format!("{material}: checking"));
    let checked = tb.check(material, variant, positions, seed, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    Ok(CheckJson::new(checked, seed, start.elapsed().as_secs_f64()))
}

fn print_check(check: &CheckJson) -> anyhow::Result<()> {
    outln!();
    outln!(
        "checked {} positions drawn at random (seed {}) against their moves: {} ({:.2} s)",
        check.positions,
        check.seed,
        match check.disagreements.len() {
            0 => "every value is the best of its moves'".to_owned(),
            n => format!("{n} disagree"),
        },
        check.seconds
    );
    let value = |result: &str, plies: Option<Plies>| match plies {
        Some(p) => format!("{result} in {p} plies"),
        None => result.to_owned(),
    };
    for d in &check.disagreements {
        outln!(
            "  {}: the table says {}, its moves give {}",
            d.fen,
            value(d.result, d.dtm_plies),
            value(d.moves_result, d.moves_dtm_plies)
        );
    }
    Ok(())
}

/// One row of `solve --all`.
#[derive(Serialize)]
struct TableRow {
    material: String,
    /// "built" or "cached".
    status: &'static str,
    legal_white_to_move: u64,
    legal_black_to_move: u64,
    longest_plies: Option<Plies>,
    longest_moves: Option<Moves>,
    seconds: f64,
    file_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<CheckJson>,
}

#[derive(Serialize)]
struct EveryJson {
    men: u8,
    tables: Vec<TableRow>,
    seconds: f64,
    file_bytes: u64,
}

/// `solve --all N`: every table of 3 to N men, smallest first
/// ([`Tablebase::every_table`]), each from a tablebase of its own, so that
/// only it and the tables its moves lead into (read from the cache) are in
/// memory.
fn every_table(args: &Args, men: u8) -> anyhow::Result<()> {
    if !EVERY_TABLE_MEN.contains(&usize::from(men)) {
        anyhow::bail!(
            "--all {men}: N is {} to {} (a larger table is built alone: solve MATERIAL)",
            EVERY_TABLE_MEN.start(),
            EVERY_TABLE_MEN.end()
        );
    }
    let materials = every_matching(men, args.matching.as_deref())?;
    let sample = args.check.map(|positions| Sample {
        positions,
        seed: args.seed,
    });
    let start = Instant::now();
    let mut rows = Vec::with_capacity(materials.len());
    let mut failed = Vec::new();
    let mut disagreeing = Vec::new();
    for (done, material) in materials.iter().enumerate() {
        let tb = args.tables.open();
        let bar = sample.map(|sample| {
            crate::tables_args::count_bar(sample.positions, format!("{material}: checking"))
        });
        let table = tb.every_table(material, sample, &|n| {
            if let Some(bar) = &bar {
                bar.inc(n);
            }
        });
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        for err in [
            table.counted.as_ref().err(),
            table.checked.as_ref().and_then(|c| c.as_ref().err()),
        ]
        .into_iter()
        .flatten()
        {
            crate::output::note!("ajedrecista: {material}: {err}");
        }
        if table.failed() {
            failed.push(material.to_string());
        }
        if table.disagrees() {
            disagreeing.push(material.to_string());
        }
        let row = TableRow::new(table, args.seed);
        if !args.json {
            // A line a table, so that a run stopped early shows how far it
            // got.
            crate::output::note!(
                "[{}/{}] {material}: {}, {:.1} s",
                done + 1,
                materials.len(),
                row.status,
                row.seconds
            );
        }
        rows.push(row);
    }
    let out = EveryJson {
        men,
        file_bytes: rows.iter().filter_map(|r| r.file_bytes).sum(),
        tables: rows,
        seconds: start.elapsed().as_secs_f64(),
    };
    if args.json {
        crate::output::print_json(&out)?;
    } else {
        print_every(&out)?;
    }
    if !failed.is_empty() {
        anyhow::bail!("could not build {}", failed.join(", "));
    }
    if !disagreeing.is_empty() {
        anyhow::bail!(
            "positions checked disagree with their moves in {}",
            disagreeing.join(", ")
        );
    }
    Ok(())
}

/// A figure of a table, or "-" where it has none.
fn or_dash(figure: Option<impl std::fmt::Display>) -> String {
    figure.map_or("-".to_owned(), |figure| figure.to_string())
}

fn print_every(out: &EveryJson) -> anyhow::Result<()> {
    let checked = out.tables.iter().any(|row| row.check.is_some());
    outln!(
        "{:<9} {:>7} {:>15} {:>15} {:>13} {:>10} {:>14}{}",
        "table",
        "status",
        "legal (w)",
        "legal (b)",
        "longest mate",
        "seconds",
        "file bytes",
        if checked { "  checked" } else { "" }
    );
    for row in &out.tables {
        let longest = match (row.longest_moves, row.longest_plies) {
            (Some(m), Some(p)) => format!("{m} ({p} pl)"),
            _ => "-".to_owned(),
        };
        let check = match &row.check {
            Some(check) if check.disagreements.is_empty() => format!("  {} agree", check.positions),
            Some(check) => format!(
                "  {} of {} disagree",
                check.disagreements.len(),
                check.positions
            ),
            None if checked => "  -".to_owned(),
            None => String::new(),
        };
        outln!(
            "{:<9} {:>7} {:>15} {:>15} {:>13} {:>10.2} {:>14}{check}",
            row.material,
            row.status,
            row.legal_white_to_move,
            row.legal_black_to_move,
            longest,
            row.seconds,
            or_dash(row.file_bytes)
        );
    }
    outln!(
        "{} tables of 3 to {} men in {:.1} s; {} bytes on disk (these tables' files)",
        out.tables.len(),
        out.men,
        out.seconds,
        out.file_bytes
    );
    Ok(())
}

fn print_one(out: &SolveJson) -> anyhow::Result<()> {
    let game = match &out.fixed_king {
        Some(sq) => format!(", white king fixed on {sq}"),
        None => String::new(),
    };
    outln!("{}{game}: {:.2} s", out.material, out.seconds);
    outln!(
        "(counts over all placements; win/draw/loss for the side to move; DTM in moves, mate included)"
    );
    outln!();
    let sides = [&out.white_to_move, &out.black_to_move];
    outln!("{:<16} {:>16} {:>16}", "", "white to move", "black to move");
    for (name, get) in [
        (
            "legal positions",
            (|s: &SideJson| s.legal) as fn(&SideJson) -> u64,
        ),
        ("wins", |s| s.win),
        ("draws", |s| s.draw),
        ("losses", |s| s.loss),
    ] {
        outln!("{name:<16} {:>16} {:>16}", get(sides[0]), get(sides[1]));
    }
    for (name, get) in [
        (
            "longest win",
            (|s: &SideJson| s.longest_win_moves) as fn(&SideJson) -> Option<Moves>,
        ),
        ("longest loss", |s| s.longest_loss_moves),
    ] {
        outln!(
            "{name:<16} {:>16} {:>16}",
            or_dash(get(sides[0])),
            or_dash(get(sides[1]))
        );
    }
    for (name, side) in [("white to move", sides[0]), ("black to move", sides[1])] {
        for (what, fen) in [
            ("win", &side.longest_win_fen),
            ("loss", &side.longest_loss_fen),
        ] {
            if let Some(fen) = fen {
                outln!("  longest {what}, {name}: {fen}");
            }
        }
    }
    outln!();
    outln!(
        "{:>6} {:>6} {:>16} {:>16}",
        "plies",
        "moves",
        "white to move",
        "black to move"
    );
    let mut plies: Vec<Plies> = sides
        .iter()
        .flat_map(|s| s.histogram_plies.iter().map(|&(p, _)| p))
        .collect();
    plies.sort_unstable();
    plies.dedup();
    for p in plies {
        let count = |s: &SideJson| {
            s.histogram_plies
                .iter()
                .find(|&&(q, _)| q == p)
                .map_or("".to_owned(), |&(_, n)| n.to_string())
        };
        outln!(
            "{p:>6} {:>6} {:>16} {:>16}",
            p.moves(),
            count(sides[0]),
            count(sides[1])
        );
    }
    if let Some(check) = &out.check {
        print_check(check)?;
    }
    Ok(())
}

fn all_squares(tb: &Tablebase, material: &Material, json: bool) -> anyhow::Result<()> {
    // The 64 tables stay in memory together.
    let plan = tb.plan(
        std::slice::from_ref(material),
        Variant::FixedKing(Square::A1),
    );
    solve_plan::enough_memory(plan.nodes.iter(), 64)?;
    let start = Instant::now();
    let mut squares = Vec::new();
    for sq in Square::ALL {
        let variant = Variant::FixedKing(sq);
        let (_, summary) = tb.summary(material, variant, &|_, _| {})?;
        squares.push(SquareJson {
            square: sq.to_string(),
            white_to_move: SideJson::new(material, variant, Color::White, &summary.white),
            black_to_move: SideJson::new(material, variant, Color::Black, &summary.black),
        });
    }
    let out = AllSquaresJson {
        material: material.to_string(),
        squares,
        seconds: start.elapsed().as_secs_f64(),
    };
    if json {
        crate::output::print_json(&out)?;
        return Ok(());
    }
    outln!(
        "{material} with the white king fixed on each square ({:.2} s)",
        out.seconds
    );
    outln!("won = white wins; max = longest mate in moves (white's), '-' where nothing is won");
    outln!();
    outln!(
        "{:<6} | {:^28} | {:^28} |",
        "",
        "white to move",
        "black to move"
    );
    outln!(
        "{:<6} | {:>6} {:>6} {:>7} {:>5} | {:>6} {:>6} {:>7} {:>5} | all won",
        "king",
        "legal",
        "won",
        "not won",
        "max",
        "legal",
        "won",
        "not won",
        "max"
    );
    for row in &out.squares {
        let w = &row.white_to_move;
        let b = &row.black_to_move;
        outln!(
            "{:<6} | {:>6} {:>6} {:>7} {:>5} | {:>6} {:>6} {:>7} {:>5} | {}",
            row.square,
            w.legal,
            w.win,
            w.legal - w.win,
            // White's longest win: with white to move a win, with black a loss.
            or_dash(w.longest_win_moves),
            b.legal,
            b.loss,
            b.legal - b.loss,
            or_dash(b.longest_loss_moves),
            if w.win == w.legal { "yes" } else { "" }
        );
    }
    let all_won: Vec<&str> = out
        .squares
        .iter()
        .filter(|row| {
            row.white_to_move.legal > 0 && row.white_to_move.win == row.white_to_move.legal
        })
        .map(|row| row.square.as_str())
        .collect();
    outln!();
    if all_won.is_empty() {
        outln!("no square of the king wins every start with white to move");
    } else {
        outln!(
            "every start with white to move is won from: {}",
            all_won.join(", ")
        );
    }
    Ok(())
}
