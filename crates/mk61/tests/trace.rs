//! Tracing a run (`Calculator::press_traced`): the address, code and
//! stack after every executed program step, and the stack readout.

use ajedrecista_mk61::{
    AngleUnit, Calculator, DEFAULT_RUN_LIMIT, Display, Key, Model, Program, Stack, Step,
};

fn press(calculator: &mut Calculator, tokens: &str) -> Display {
    let keys = Key::sequence(tokens).unwrap();
    calculator.press_all(keys).unwrap().display
}

fn traced(calculator: &mut Calculator, key: Key) -> Vec<Step> {
    let mut steps = Vec::new();
    calculator.press_traced(key, DEFAULT_RUN_LIMIT, &mut |step| steps.push(*step));
    steps
}

fn with_program(model: Model, bytes: &[u8]) -> Calculator {
    let mut calculator = Calculator::of_model(model, AngleUnit::Radians);
    calculator
        .enter_program(&Program::new(bytes.to_vec()).unwrap())
        .unwrap();
    calculator
}

fn texts(stack: &Stack) -> [String; 5] {
    [stack.x, stack.y, stack.z, stack.t, stack.x1].map(|number| number.to_string())
}

/// A call, a return, a jump and an FL0 loop: the addresses follow the
/// program, an address byte is not a step, and X, Y, Z, T, X1 after each
/// step are what the steps compute (checked by hand). Both models.
#[test]
fn addresses_and_stack_follow_a_program_with_jumps() {
    // 00 1, 01 В↑, 02 ПП 08, 04 +, 05 БП 10, 07 С/П, 08 2, 09 В/О,
    // 10 ×, 11 FL0 10, 13 С/П.
    let program = [
        0x01, 0x0E, 0x53, 0x08, 0x10, 0x51, 0x10, 0x50, 0x02, 0x52, 0x12, 0x5D, 0x10, 0x50,
    ];
    // Keyboard entry continues into the digit at 00 (5 then 1 is 51).
    let expected: [(usize, &str, [&str; 5]); 14] = [
        (0, "1", ["51", "9", "3", "0", "0"]),
        (1, "В↑", ["51", "51", "9", "3", "0"]),
        (2, "ПП", ["51", "51", "9", "3", "0"]),
        (8, "2", ["2", "51", "51", "9", "0"]),
        (9, "В/О", ["2", "51", "51", "9", "0"]),
        (4, "+", ["53", "51", "9", "9", "2"]),
        (5, "БП", ["53", "51", "9", "9", "2"]),
        (10, "×", ["2703", "9", "9", "9", "53"]),
        (11, "FL0", ["2703", "9", "9", "9", "53"]),
        (10, "×", ["24327", "9", "9", "9", "2703"]),
        (11, "FL0", ["24327", "9", "9", "9", "2703"]),
        (10, "×", ["218943", "9", "9", "9", "24327"]),
        (11, "FL0", ["218943", "9", "9", "9", "24327"]),
        (13, "С/П", ["218943", "9", "9", "9", "24327"]),
    ];
    for model in [Model::Mk61, Model::Mk54] {
        let mut calculator = with_program(model, &program);
        press(&mut calculator, "3 XP 0 9 UP 5 VO");
        let steps = traced(&mut calculator, Key::RunStop);
        let seen: Vec<(usize, &str, [String; 5])> = steps
            .iter()
            .map(|step| (step.address, step.mnemonic(), texts(&step.stack)))
            .collect();
        let expected: Vec<(usize, &str, [String; 5])> = expected
            .iter()
            .map(|(address, name, stack)| (*address, *name, stack.map(str::to_owned)))
            .collect();
        assert_eq!(seen, expected, "{model}");
        assert_eq!(calculator.display().to_string(), " 218943.     ");
    }
}

/// After each step of a straight program, the traced stack is the stack
/// the calculator holds when the same program stops right after that
/// step (a С/П put behind it): so each stack is read when the step's
/// arithmetic is done, slow functions and the ИК1306's included.
#[test]
fn each_traced_stack_is_the_stack_a_stop_there_leaves() {
    // 2 В↑ 7 ÷ Fsin Feˣ В↑ F√ × В↑ FВx Fxʸ Кmax К[x] X→П0 П→X0 + F1/x
    // F⟳ /-/ ↔; the MK-54 without Кmax and К[x].
    let mk61 = [
        0x02, 0x0E, 0x07, 0x13, 0x1C, 0x16, 0x0E, 0x21, 0x12, 0x0E, 0x0F, 0x24, 0x36, 0x34, 0x40,
        0x60, 0x10, 0x23, 0x25, 0x0B, 0x14,
    ];
    let mk54: Vec<u8> = mk61
        .iter()
        .copied()
        .filter(|code| !matches!(code, 0x36 | 0x34))
        .collect();
    for (model, program) in [(Model::Mk61, mk61.to_vec()), (Model::Mk54, mk54)] {
        let mut whole = program.clone();
        whole.push(0x50);
        let mut calculator = with_program(model, &whole);
        press(&mut calculator, "VO");
        let steps = traced(&mut calculator, Key::RunStop);
        assert_eq!(steps.len(), whole.len(), "{model}");
        for (address, step) in steps.iter().enumerate().take(program.len()) {
            assert_eq!(step.address, address);
            assert_eq!(step.code, Some(program[address]));
            let mut prefix = program[..=address].to_vec();
            prefix.push(0x50);
            let mut stopped = with_program(model, &prefix);
            press(&mut stopped, "VO SP");
            assert_eq!(
                texts(&step.stack),
                texts(&stopped.stack()),
                "{model} step {address:02} {}",
                step.mnemonic()
            );
        }
    }
}

/// The stack readout agrees with the display: X as shown, and Y, Z, T,
/// X1 as shown after ↔, F⟳ and F Вx.
#[test]
fn stack_readout_shows_what_the_display_shows() {
    fn shown(display: Display) -> String {
        let text = display.to_string();
        text.trim().trim_end_matches('.').to_owned()
    }
    for model in [Model::Mk61, Model::Mk54] {
        let mut calculator = Calculator::of_model(model, AngleUnit::Radians);
        for keys in [
            "3 NEG UP",
            "2 5 0 UP",
            "1 2 3 4 5 6 7 8 UP",
            "2 F 1 UP",
            "9 1",
        ] {
            let display = press(&mut calculator, keys);
            assert_eq!(calculator.stack().x.to_string(), shown(display), "{keys}");
        }
        let stack = calculator.stack();
        let mut copy = calculator.clone();
        assert_eq!(shown(press(&mut copy, "XY")), stack.y.to_string());
        let mut copy = calculator.clone();
        assert_eq!(shown(press(&mut copy, "F .")), stack.y.to_string());
        assert_eq!(shown(press(&mut copy, "F .")), stack.z.to_string());
        assert_eq!(shown(press(&mut copy, "F .")), stack.t.to_string());
        let mut copy = calculator.clone();
        // X1 is the X before the last operation (the last В↑ here left it).
        assert_eq!(shown(press(&mut copy, "F UP")), stack.x1.to_string());
        assert_eq!(texts(&stack)[..4], ["91", "7.3890557", "12345678", "250"]);
    }
}

/// Exponents and signs: the forms of `Number`'s display.
#[test]
fn numbers_outside_the_plain_range_show_their_exponent() {
    let mut calculator = Calculator::new(AngleUnit::Radians);
    for (keys, text) in [
        ("CX 1 . 5 VP 1 2 NEG", "1.5e-12"),
        ("CX 2 NEG VP 5 0", "-2e50"),
        ("CX 1 2 VP 8", "1.2e9"),
        ("CX 3 VP 7 NEG", "0.0000003"),
        ("CX", "0"),
    ] {
        press(&mut calculator, keys);
        assert_eq!(calculator.stack().x.to_string(), text, "{keys}");
    }
}

/// Keys that run no program report no step.
#[test]
fn keys_that_run_nothing_report_no_steps() {
    let mut calculator = with_program(Model::Mk61, &[0x01, 0x10, 0x50]);
    for key in ["5", "UP", "+", "F", "7", "XP", "3", "VO"] {
        assert!(
            traced(&mut calculator, key.parse().unwrap()).is_empty(),
            "{key}"
        );
    }
}

/// ПП in automatic mode runs one step; С/П on a program that loops
/// forever reports steps up to the run limit.
#[test]
fn single_step_and_run_limit() {
    let mut calculator = with_program(Model::Mk61, &[0x01, 0x10, 0x50]);
    press(&mut calculator, "4 UP VO");
    let steps = traced(&mut calculator, Key::Call);
    assert_eq!(steps.len(), 1);
    assert_eq!(
        (steps[0].address, steps[0].stack.x.to_string().as_str()),
        (0, "1")
    );
    let steps = traced(&mut calculator, Key::Call);
    assert_eq!(
        (steps[0].address, steps[0].stack.x.to_string().as_str()),
        (1, "5")
    );

    // 00 БП 00: a loop with no end.
    let mut looping = with_program(Model::Mk61, &[0x51, 0x00]);
    press(&mut looping, "VO");
    let mut steps = Vec::new();
    let pressed = looping.press_traced(Key::RunStop, 20, &mut |step| steps.push(*step));
    assert!(!pressed.stopped);
    assert!(steps.len() > 10, "{}", steps.len());
    assert!(
        steps
            .iter()
            .all(|step| step.address == 0 && step.mnemonic() == "БП")
    );
}

/// A traced run: program, keys before С/П, and (address, mnemonic, X)
/// of each step.
type Case<'a> = (&'a [u8], &'a str, &'a [(usize, &'a str, &'a str)]);

/// Conditional, indirect and error stops: the addresses each run goes
/// through, and X after each step.
#[test]
fn conditions_indirect_jumps_and_the_error_stop() {
    // 00 Fx=0 05, 02 1, 03 С/П, 04 0, 05 2, 06 С/П.
    let condition = [0x5E, 0x05, 0x01, 0x50, 0x00, 0x02, 0x50];
    let cases: [Case; 5] = [
        // X = 0: the condition holds, the run goes on after the address.
        (
            &condition,
            "CX VO",
            &[(0, "Fx=0", "0"), (2, "1", "1"), (3, "С/П", "1")],
        ),
        // X = 5: it does not, the run jumps.
        (
            &condition,
            "5 UP VO",
            &[(0, "Fx=0", "5"), (5, "2", "2"), (6, "С/П", "2")],
        ),
        // К БП 7 with R7 = 3: 00 КБП7, 01 2, 02 С/П, 03 1, 04 С/П.
        (
            &[0x87, 0x02, 0x50, 0x01, 0x50],
            "3 XP 7 VO",
            &[(0, "КБП7", "3"), (3, "1", "1"), (4, "С/П", "1")],
        ),
        // К ПП 7 with R7 = 4: the call goes to 04, which stops.
        (
            &[0xA7, 0x02, 0x50, 0x01, 0x50],
            "4 XP 7 VO",
            &[(0, "КПП7", "4"), (4, "С/П", "4")],
        ),
        // 5 ÷ 0 stops with ЕГГОГ; the calculator fetches the next step and
        // skips it (the error stop of the queen program), and the trace
        // lists that fetched step last: 00 Cx, 01 ÷, 02 1, 03 С/П.
        (
            &[0x0D, 0x13, 0x01, 0x50],
            "5 UP VO",
            &[(0, "Cx", "0"), (1, "÷", "0"), (2, "1", "0")],
        ),
    ];
    for (program, keys, expected) in cases {
        let mut calculator = with_program(Model::Mk61, program);
        press(&mut calculator, keys);
        let seen: Vec<(usize, &str, String)> = traced(&mut calculator, Key::RunStop)
            .iter()
            .map(|step| (step.address, step.mnemonic(), step.stack.x.to_string()))
            .collect();
        let expected: Vec<(usize, &str, String)> = expected
            .iter()
            .map(|&(address, name, x)| (address, name, x.to_owned()))
            .collect();
        assert_eq!(seen, expected, "{keys}");
    }
}

/// Where a step may be followed from, by its code: `None` for any address
/// (В/О, the indirect codes), else the addresses allowed.
fn successors(step: &Step, operand: Option<u8>) -> Option<Vec<usize>> {
    let code = step.code?;
    let next = |skip: usize| (step.address + skip) % 105;
    let target = operand.map(|byte| usize::from(byte >> 4) * 10 + usize::from(byte & 0xF));
    match code {
        // В/О, and the indirect jumps, calls and conditions (7x 8x 9x Ax
        // Cx Ex).
        0x52 | 0x70..=0xAF | 0xC0..=0xCF | 0xE0..=0xEF => None,
        // БП, ПП: the target.
        0x51 | 0x53 => Some(vec![target?]),
        // Conditions and loops: past the address, or the target.
        0x57..=0x5E => Some(vec![next(2), target?]),
        _ => Some(vec![next(1)]),
    }
}

/// The seed programs through whole reference games (every key traced, the
/// displays as in the traces): each step follows the one before as its
/// code allows (the next address, a two-byte step's target, anywhere after
/// В/О or an indirect code; past A4 the counter runs on over 00 ...), and
/// each traced run ends with the stop.
#[test]
fn seed_programs_run_step_after_step_as_their_codes_say() {
    for text in [
        include_str!("data/traces/rook_game1.keys.tsv"),
        include_str!("data/traces/queen_game_a8.keys.tsv"),
    ] {
        let mut calculator = Calculator::new(AngleUnit::Radians);
        let mut runs = 0;
        let mut steps_seen = 0;
        for line in text.lines().filter(|line| !line.starts_with('#')) {
            let columns: Vec<&str> = line.split('\t').collect();
            if let Ok(unit) = columns[2].parse::<AngleUnit>() {
                calculator.set_switch(unit);
                continue;
            }
            let key: Key = columns[2].parse().unwrap();
            let program = calculator.program_memory();
            let steps = traced(&mut calculator, key);
            assert_eq!(
                format!("|{}|", calculator.display()),
                columns[4],
                "line {}",
                columns[0]
            );
            for pair in steps.windows(2) {
                let operand = program.get((pair[0].address + 1) % 105).copied();
                if let Some(allowed) = successors(&pair[0], operand) {
                    assert!(
                        allowed.contains(&(pair[1].address % 105)),
                        "line {}: {:02} {} then {:02}",
                        columns[0],
                        pair[0].address,
                        pair[0].mnemonic(),
                        pair[1].address
                    );
                }
            }
            if columns[1] == "program-entry" {
                assert!(
                    steps.is_empty(),
                    "line {}: steps while keying in",
                    columns[0]
                );
            }
            if columns.get(5) == Some(&"ran") {
                assert!(
                    !steps.is_empty(),
                    "line {}: a run without steps",
                    columns[0]
                );
            }
            if let Some(last) = steps.last() {
                runs += 1;
                steps_seen += steps.len();
                // A run ends with С/П, or with an error stop (ЕГГОГ; the
                // queen program's step 45) listing the skipped step last.
                if !columns[4].contains("EГГ0Г") {
                    assert_eq!(last.mnemonic(), "С/П", "line {}", columns[0]);
                }
            }
        }
        assert!(
            runs >= 9 && steps_seen > 400,
            "{runs} runs, {steps_seen} steps"
        );
    }
}
