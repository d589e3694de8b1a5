//! The undocumented effects the seed programs rely on, each as a short
//! key sequence with the display the sources give for it (README of the
//! MK-61 data, opcodes.tsv notes, seeds 000 and 001).

use ajedrecista_mk61::{AngleUnit, Calculator, Display, Key, Program, read_listing};

fn calculator_with(listing: &str) -> Calculator {
    let mut calculator = Calculator::new(AngleUnit::Radians);
    calculator
        .enter_program(&read_listing(listing).unwrap())
        .unwrap();
    calculator
}

/// Presses trace tokens; returns the display after the last.
fn press(calculator: &mut Calculator, tokens: &str) -> Display {
    let keys = Key::sequence(tokens).unwrap();
    calculator.press_all(keys).unwrap().display
}

fn display(text: &str) -> Display {
    text.parse().unwrap()
}

/// The program counter as F ПРГ shows it (then back to F АВТ).
fn program_counter(calculator: &mut Calculator) -> usize {
    let view = press(calculator, "F VP")
        .program_view()
        .expect("programming mode");
    press(calculator, "F NEG");
    view.address
}

/// The glyph numbers the seeds make from the keyboard and keep in a
/// register: the display once made, and once recalled.
#[test]
fn glyph_numbers_made_stored_and_recalled() {
    // (keys that make it, display, keys that store it, keys that recall it,
    // display)
    let numbers = [
        // Seed 000: Cx ÷ ВП В↑ В↑ F⟳ F⟳ F⟳ X→П0 leaves "ЗГГОГ" in R0.
        (
            "CX / VP UP UP F . F . F .",
            " 3.ГГ0Г      ",
            "XP 0 CX",
            "PX 0",
            " 3.ГГ0Г      ",
        ),
        // Seed 001: 66555555 КИНВ К{x} ВП 8 X→П9; П→X9 shows 9------0.
        (
            "6 6 5 5 5 5 5 5 K CX",
            " 8.9------   ",
            "K 8 VP 8 XP 9 CX",
            "PX 9",
            " 9------0.   ",
        ),
    ];
    for (make, made, store, recall, recalled) in numbers {
        let mut calculator = Calculator::new(AngleUnit::Radians);
        assert_eq!(press(&mut calculator, make), display(made), "{make}");
        press(&mut calculator, store);
        assert_eq!(press(&mut calculator, recall), display(recalled), "{make}");
    }
}

#[test]
fn recalling_zggog_empties_the_return_stack() {
    // 02: ПП 10 stops at 10 with 04 on the return stack; 11: В/О returns
    // there (stop at 04, counter 05). After П→X0 of the ЗГГОГ from the
    // keyboard the return address is gone and В/О goes elsewhere. (Where
    // exactly the sources do not say for this case; see docs/guide/src/reference/mk61.md.)
    let listing = "00. С/П 01. С/П 02. ПП 03. 10 04. С/П 05. С/П 06. С/П 07. С/П 08. С/П 09. С/П \
                   10. С/П 11. В/О 12. С/П";
    for (recall, returned) in [("", true), ("PX 0", false)] {
        let mut calculator = calculator_with(listing);
        press(&mut calculator, "CX / VP UP UP F . F . F . XP 0 CX");
        press(&mut calculator, "BP 0 2 SP");
        assert_eq!(program_counter(&mut calculator), 11);
        if !recall.is_empty() {
            press(&mut calculator, recall);
        }
        press(&mut calculator, "SP");
        let counter = program_counter(&mut calculator);
        assert_eq!(
            counter == 5,
            returned,
            "after {recall:?}: counter {counter}"
        );
    }
}

#[test]
fn exponent_after_store_restores_the_entry_less_its_first_digit() {
    // Queen steps 12-15: К[x] X→П5 ВП 1 turn the input 2.8 into 8.
    let mut calculator = calculator_with("00. К[x] 01. X→П5 02. ВП 03. 1 04. В↑ 05. С/П");
    assert_eq!(
        press(&mut calculator, "2 . 8 VO SP"),
        display(" 8.          ")
    );
    assert_eq!(press(&mut calculator, "PX 5"), display(" 2.          "));
}

#[test]
fn point_in_a_program_restores_x_from_x2() {
    // Queen step 92: with no entry active "." sets X to X2, here the value
    // of the last П→X (7), not the difference computed since (2 - 7).
    let mut calculator = calculator_with("00. П→X4 01. П→X3 02. − 03. . 04. С/П");
    press(&mut calculator, "7 XP 3 2 XP 4");
    assert_eq!(press(&mut calculator, "VO SP"), display(" 7.          "));
}

#[test]
fn indirect_addressing_changes_registers_0_to_6() {
    // A register changed this way holds the address as an integer, shown
    // with leading zeros as in the manual's check program (selftest trace).
    let mut calculator = Calculator::new(AngleUnit::Radians);
    press(&mut calculator, "4 2 XP 8 7 XP 5 9 XP 2");
    // КП→X5: R5 (7) becomes 8 before use (registers 4-6 count up).
    assert_eq!(press(&mut calculator, "K PX 5"), display(" 42.         "));
    assert_eq!(press(&mut calculator, "PX 5"), display(" 00000008.   "));
    // КП→X2: R2 (9) becomes 8 before use (registers 0-3 count down).
    assert_eq!(press(&mut calculator, "K PX 2"), display(" 42.         "));
    assert_eq!(press(&mut calculator, "PX 2"), display(" 00000008.   "));
}

#[test]
fn program_counter_runs_past_a4_into_00() {
    // 00: С/П, 01..A3: КНОП, A4: 5. Started at 01, the program runs through
    // A4 into "A5", which is cell 00, and stops there; the counter keeps
    // its formal value A6 (opcodes.tsv, БП: A5..B1 alias 00..06).
    let mut listing = String::from("00. С/П ");
    for address in 1..104 {
        listing += &format!("{}. КНОП ", ajedrecista_mk61::address_label(address));
    }
    listing += "A4. 5";
    let mut calculator = calculator_with(&listing);
    assert_eq!(
        press(&mut calculator, "BP 0 1 SP"),
        display(" 5.          ")
    );
    assert_eq!(program_counter(&mut calculator), 106);
}

#[test]
fn error_stop_skips_the_next_step() {
    // opcodes.tsv, ÷: Cx ÷ X→П5 at 00-02 stops with counter 03, R5 unchanged.
    let mut calculator = calculator_with("00. Cx 01. ÷ 02. X→П5 03. С/П");
    press(&mut calculator, "9 XP 5");
    assert_eq!(press(&mut calculator, "VO SP"), display(" EГГ0Г      "));
    assert_eq!(program_counter(&mut calculator), 3);
    assert_eq!(press(&mut calculator, "PX 5"), display(" 9.          "));
}

#[test]
fn keyboard_entry_continues_into_program_digits() {
    // opcodes.tsv, digits: keyboard 5, В/О С/П, program step "1" gives 51.
    let mut calculator = calculator_with("00. 1 01. С/П");
    assert_eq!(press(&mut calculator, "5 VO SP"), display(" 51.         "));
}

#[test]
fn programs_hold_105_steps() {
    assert_eq!(Program::queen().bytes().len(), 105);
}
