//! `ajedrecista mk61`: the MK-61 emulator, interactive or driven by a file
//! of key tokens.

use std::io::Write;
use std::path::{Path, PathBuf};

use ajedrecista_input::{Line, LineReader};
use ajedrecista_mk61::{
    AngleUnit, Calculator, DEFAULT_RUN_LIMIT, Display, Key, Model, Press, Program, QUEEN_PRESETS,
    ROOK_PRESETS, Step, address_label, read_listing_for,
};
use anyhow::Context;

use crate::input::read_text_file;
use crate::output::write_json;

/// Arguments of `ajedrecista mk61`.
#[derive(clap::Args)]
#[command(about = "The MK-61 calculator, emulated from its microcode")]
pub struct Args {
    #[command(subcommand)]
    command: Option<Mk61Command>,
    #[command(flatten)]
    session: Session,
}

#[derive(clap::Subcommand)]
enum Mk61Command {
    /// Press the keys of a file and print the display after each, as it
    /// happens.
    Keys(KeysArgs),
}

#[derive(clap::Args)]
struct KeysArgs {
    #[command(flatten)]
    session: Session,
    /// Key tokens as in the traces (`SP`, `XP`, `7`, ...; `RAD`/`GRD`/`DEG`
    /// set the switch), separated by blanks or newlines; `#` starts a comment.
    #[arg(long, value_name = "FILE")]
    keys: PathBuf,
    /// Print a JSON list of {"key", "display"} instead of a table.
    #[arg(long)]
    json: bool,
}

/// The calculator of the family.
#[derive(Clone, Copy, clap::ValueEnum)]
enum ModelArg {
    /// Электроника МК-61: 105 steps, 15 registers.
    Mk61,
    /// Электроника МК-54 (Б3-34, МК-56): the ring without the ИК1306, 98
    /// steps, 14 registers.
    Mk54,
}

#[derive(clap::Args)]
struct Session {
    /// `queen` or `rook` (program and register presets of seeds 000/001,
    /// keyed in), or a listing FILE (program only). Without it the
    /// calculator starts from power-on.
    #[arg(long, value_name = "queen|rook|FILE")]
    program: Option<String>,
    /// Position of the Р-ГРД-Г switch at power-on.
    #[arg(long, default_value = "RAD", value_name = "RAD|GRD|DEG")]
    switch: String,
    /// The calculator: mk61, or mk54 (no ИК1306; a listing must fit in its
    /// 98 steps).
    #[arg(long, value_enum, default_value_t = ModelArg::Mk61)]
    model: ModelArg,
    /// While a program runs (С/П, ПП, БП ... in automatic mode), print each
    /// executed step: address, code, mnemonic, and X Y Z T X1 after it.
    #[arg(long)]
    trace: bool,
}

impl Session {
    /// Powers on and keys in the program, if any.
    fn start(&self) -> anyhow::Result<Calculator> {
        let unit: AngleUnit = self.switch.parse().context("--switch")?;
        let model = match self.model {
            ModelArg::Mk61 => Model::Mk61,
            ModelArg::Mk54 => Model::Mk54,
        };
        let mut calculator = Calculator::of_model(model, unit);
        let (program, presets) = match self.program.as_deref() {
            None => return Ok(calculator),
            Some("queen") => (Program::queen(), Some(QUEEN_PRESETS)),
            Some("rook") => (Program::rook(), Some(ROOK_PRESETS)),
            Some(file) => (read_program_file(Path::new(file), model)?, None),
        };
        calculator
            .enter_program(&program)
            .context("keying the program in")?;
        for token in presets.unwrap_or_default().split_whitespace() {
            calculator.press(token.parse()?);
        }
        Ok(calculator)
    }
}

fn read_program_file(path: &Path, model: Model) -> anyhow::Result<Program> {
    let text = read_text_file(path)?;
    read_listing_for(&text, model).with_context(|| path.display().to_string())
}

/// A token of a keys file: a key, or a position of the switch.
#[derive(Debug)]
enum Token {
    Key(Key),
    Switch(AngleUnit),
}

impl Token {
    fn parse(text: &str) -> Option<Token> {
        text.parse()
            .map(Token::Switch)
            .or_else(|_| text.parse().map(Token::Key))
            .ok()
    }
}

/// The tokens of a keys text; `#` starts a comment.
fn tokens(text: &str) -> anyhow::Result<Vec<Token>> {
    let mut tokens = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default();
        for word in line.split_whitespace() {
            let token = Token::parse(word)
                .with_context(|| format!("line {}: unknown key {word:?}", index + 1))?;
            tokens.push(token);
        }
    }
    Ok(tokens)
}

/// Presses one token; returns the display after it and whether the
/// calculator stopped (false: a program still running at the run limit).
/// With `on_step`, each program step the key runs is reported to it.
fn apply(
    calculator: &mut Calculator,
    token: &Token,
    on_step: Option<&mut dyn FnMut(&Step)>,
) -> Press {
    match *token {
        Token::Key(key) => match on_step {
            Some(on_step) => calculator.press_traced(key, DEFAULT_RUN_LIMIT, on_step),
            None => calculator.press(key),
        },
        Token::Switch(unit) => {
            calculator.set_switch(unit);
            Press {
                display: calculator.display(),
                frames: 0,
                stopped: true,
            }
        }
    }
}

/// What a key that ran into the run limit is marked with.
fn still_running() -> String {
    format!(
        "still running after {DEFAULT_RUN_LIMIT} frames (the run limit): the program did not stop"
    )
}

/// One executed program step, for `--trace --json` (docs/json.md).
#[derive(serde::Serialize)]
struct TracedStep {
    address: String,
    code: Option<String>,
    mnemonic: &'static str,
    x: String,
    y: String,
    z: String,
    t: String,
    x1: String,
}

impl TracedStep {
    fn new(step: &Step) -> TracedStep {
        let stack = step.stack;
        TracedStep {
            address: address_label(step.address),
            code: step.code.map(|code| format!("{code:02X}")),
            mnemonic: step.mnemonic(),
            x: stack.x.to_string(),
            y: stack.y.to_string(),
            z: stack.z.to_string(),
            t: stack.t.to_string(),
            x1: stack.x1.to_string(),
        }
    }

    /// One line of the text trace, aligned.
    fn line(&self) -> String {
        format!(
            "  {:>3} {:<2} {:<7} X {:<14} Y {:<14} Z {:<14} T {:<14} X1 {}",
            self.address,
            self.code.as_deref().unwrap_or("??"),
            self.mnemonic,
            self.x,
            self.y,
            self.z,
            self.t,
            self.x1
        )
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Some(Mk61Command::Keys(keys)) => run_keys(keys),
        None => run_interactive(&args.session),
    }
}

fn run_keys(args: KeysArgs) -> anyhow::Result<()> {
    let text = read_text_file(&args.keys)?;
    let tokens = tokens(&text).with_context(|| args.keys.display().to_string())?;
    let mut calculator = args.session.start()?;
    let mut out = crate::output::stdout_lock();
    let trace = args.session.trace;
    // Each key, and each step it runs, is written as it happens, in text
    // and in JSON alike: nothing is kept, however long the programs run.
    if args.json {
        write!(out, "[")?;
    }
    for (index, token) in tokens.iter().enumerate() {
        let key = canonical(token);
        if args.json {
            write!(out, "{}{{\"key\":", if index == 0 { "" } else { "," })?;
            write_json(&mut out, &key)?;
            if trace {
                write!(out, ",\"steps\":[")?;
            }
        }
        let mut steps = 0u64;
        let mut written = Ok(());
        let mut on_step = |step: &Step| {
            if written.is_err() {
                return;
            }
            let step = TracedStep::new(step);
            written = if args.json {
                let comma = if steps == 0 { "" } else { "," };
                write!(out, "{comma}").and_then(|()| write_json(&mut out, &step))
            } else {
                writeln!(out, "{}", step.line()).and_then(|()| out.flush())
            };
            steps += 1;
        };
        let press = apply(
            &mut calculator,
            token,
            trace.then_some(&mut on_step as &mut dyn FnMut(&Step)),
        );
        written?;
        let display = press.display.to_string();
        if args.json {
            write!(out, "{}\"display\":", if trace { "]," } else { "," })?;
            write_json(&mut out, &display)?;
            if !press.stopped {
                write!(out, ",\"running\":true")?;
            }
            write!(out, "}}")?;
            continue;
        }
        // Each display as it happens.
        write!(out, "{key:<4} |{display}|")?;
        if !press.stopped {
            write!(out, "  {}", still_running())?;
        }
        writeln!(out)?;
        out.flush()?;
    }
    if args.json {
        writeln!(out, "]")?;
    }
    Ok(())
}

/// The trace token of a key (`С/П` becomes `SP`).
fn canonical(token: &Token) -> String {
    match token {
        Token::Key(key) => key.token(),
        Token::Switch(unit) => unit.token(),
    }
    .to_owned()
}

fn run_interactive(session: &Session) -> anyhow::Result<()> {
    let mut calculator = session.start()?;
    let stdin = std::io::stdin();
    let mut out = crate::output::stdout_lock();
    writeln!(
        out,
        "{}. Keys by token or label (SP or С/П, XP or X→П, F, K, 0-9, ...), several to a line;",
        calculator.model()
    )?;
    writeln!(
        out,
        "RAD/GRD/DEG set the switch; :list shows the program, :reg the registers, :quit ends."
    )?;
    writeln!(out, "{}", draw(&calculator.display()))?;
    for line in LineReader::new(stdin.lock()) {
        let line = match line? {
            Line::Text(line) => line,
            refused => {
                let reason = refused.refusal().expect("a line without text");
                writeln!(out, "ignored: {reason}")?;
                continue;
            }
        };
        match line.trim() {
            ":quit" | ":q" => break,
            ":list" => write_listing(&mut out, &calculator)?,
            ":reg" => write_registers(&mut out, &calculator)?,
            text => match tokens(text) {
                Ok(tokens) => {
                    for token in &tokens {
                        let mut written = Ok(());
                        let mut on_step = |step: &Step| {
                            if written.is_ok() {
                                written = writeln!(out, "{}", TracedStep::new(step).line());
                            }
                        };
                        let on_step = session
                            .trace
                            .then_some(&mut on_step as &mut dyn FnMut(&Step));
                        let stopped = apply(&mut calculator, token, on_step).stopped;
                        written?;
                        if !stopped {
                            writeln!(out, "{}: {}", canonical(token), still_running())?;
                        }
                    }
                    writeln!(out, "{}", draw(&calculator.display()))?;
                }
                Err(err) => writeln!(out, "{err:#}")?,
            },
        }
    }
    Ok(())
}

/// The indicator: twelve positions between bars, points below.
fn draw(display: &Display) -> String {
    let glyphs: String = display.glyphs.iter().map(|glyph| glyph.to_char()).collect();
    let points: String = display
        .points
        .iter()
        .map(|&point| if point { '.' } else { ' ' })
        .collect();
    format!("|{glyphs}|\n {points}")
}

fn write_listing(out: &mut impl Write, calculator: &Calculator) -> anyhow::Result<()> {
    let program = Program::new(calculator.program_memory())?;
    for row in program.to_listing().lines().collect::<Vec<_>>().chunks(5) {
        let cells: Vec<String> = row.iter().map(|cell| format!("{cell:<22}")).collect();
        writeln!(out, "{}", cells.concat().trim_end())?;
    }
    Ok(())
}

fn write_registers(out: &mut impl Write, calculator: &Calculator) -> anyhow::Result<()> {
    for register in 0..calculator.model().registers() {
        match calculator.peek_register(register) {
            Some(display) => writeln!(out, "R{register:x}  |{display}|")?,
            None => {
                writeln!(
                    out,
                    "registers are shown in automatic mode only (F АВТ = F /-/)"
                )?;
                break;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_accept_trace_tokens_labels_and_comments() {
        let parsed = tokens("VO SP # start\nС/П X→П 7\nRAD").unwrap();
        let names: Vec<String> = parsed.iter().map(canonical).collect();
        assert_eq!(names, ["VO", "SP", "SP", "XP", "7", "RAD"]);
    }

    #[test]
    fn unknown_token_names_its_line() {
        let err = tokens("1 2\n3 ZZ").unwrap_err();
        assert_eq!(format!("{err:#}"), "line 2: unknown key \"ZZ\"");
    }

    #[test]
    fn keys_give_the_trace_displays() {
        // The first keys of the manual's check program (switch at Г).
        let mut calculator = Calculator::new(AngleUnit::Degrees);
        let shown: Vec<String> = tokens("F + F 3")
            .unwrap()
            .iter()
            .map(|token| apply(&mut calculator, token, None).display.to_string())
            .collect();
        assert_eq!(
            shown,
            [
                " 0.          ",
                " 3.1415926   ",
                " 3.1415926   ",
                " 1.1447298   "
            ]
        );
    }
}
