//! The MK-54 (the ring without the ИК1306) against the MK-61: which
//! keyboard functions differ, program and register sizes.

use ajedrecista_mk61::{
    AngleUnit, Calculator, EntryError, Key, Model, Program, read_listing, read_listing_for,
};

fn keys(tokens: &str) -> Vec<Key> {
    Key::sequence(tokens).unwrap()
}

/// The display after `2 В↑ 3.7 /-/` (X = -3.7, Y = 2), then `prefix key`.
fn function(model: Model, prefix: &str, key: Key) -> String {
    let mut calculator = Calculator::of_model(model, AngleUnit::Radians);
    calculator.press_all(keys("2 UP 3 . 7 NEG"));
    let press = calculator
        .press_all(keys(&format!("{prefix} {}", key.token())))
        .unwrap();
    assert!(press.stopped);
    press.display.to_string()
}

/// Every F and K function keyed from the same state: the MK-54 shows the
/// MK-61's display except for the ИК1306's K functions, where it shows
/// ЕГГОГ (docs/guide/src/reference/mk61.md lists them).
#[test]
fn the_mk54_answers_the_mk61_k_functions_with_error() {
    let mut differ = Vec::new();
    for prefix in ["F", "K"] {
        for key in Key::all() {
            let mk61 = function(Model::Mk61, prefix, key);
            let mk54 = function(Model::Mk54, prefix, key);
            if mk61 != mk54 {
                assert_eq!(mk54, " EГГ0Г      ", "{prefix} {}", key.token());
                differ.push(format!("{prefix} {}", key.token()));
            }
        }
    }
    assert_eq!(
        differ,
        [
            "K 3", "K 4", "K 5", "K 6", "K 7", "K 8", "K 9", "K .", "K NEG", "K VP", "K CX", "K UP"
        ]
    );
    // Two of them on the MK-61: K 7 is [x], K 4 is |x|.
    assert_eq!(function(Model::Mk61, "K", Key::Digit(7)), "-3.          ");
    assert_eq!(function(Model::Mk61, "K", Key::Digit(4)), " 3.7         ");
}

/// 98 program steps (00-97) and 14 registers (0-d) on the MK-54.
#[test]
fn the_mk54_holds_98_steps_and_14_registers() {
    let mut listing = String::new();
    for address in 0..99 {
        listing += &format!("{address:02}. КНОП\n");
    }
    let error = read_listing_for(&listing, Model::Mk54).unwrap_err();
    assert_eq!(
        error.to_string(),
        "listing line 99: step 98: the MK-54 holds steps 00-97"
    );
    let long = read_listing(&listing).unwrap();
    let mut mk54 = Calculator::of_model(Model::Mk54, AngleUnit::Radians);
    assert_eq!(
        mk54.enter_program(&long),
        Err(EntryError::TooLong {
            step: "98".into(),
            model: Model::Mk54,
            last: "97".into(),
        })
    );
    let fits = Program::new(vec![0x54; 98]).unwrap();
    mk54.enter_program(&fits).unwrap();
    assert_eq!(mk54.program_memory(), vec![0x54; 98]);
    assert!(mk54.peek_register(13).is_some());
    assert!(mk54.peek_register(14).is_none());
}
