//! The listings of seeds 000 and 001, read in their printed layouts, give
//! the program bytes of data/programs (which were keyed in and read back
//! on the reference emulation).

use ajedrecista_mk61::{Program, read_listing};

#[test]
fn queen_listing_of_seed_000() {
    let program = read_listing(include_str!("data/queen_listing_seed000.txt")).unwrap();
    assert_eq!(program.bytes().len(), 105);
    assert_eq!(program, Program::queen());
}

#[test]
fn rook_listing_of_seed_001() {
    let program = read_listing(include_str!("data/rook_listing_seed001.txt")).unwrap();
    assert_eq!(program.bytes().len(), 105);
    assert_eq!(program, Program::rook());
}

#[test]
fn listing_round_trip() {
    for program in [Program::queen(), Program::rook()] {
        assert_eq!(read_listing(&program.to_listing()).unwrap(), program);
    }
}

/// The key tokens of one phase of a reference trace.
fn trace_phase(trace: &str, phase: &str) -> Vec<String> {
    trace
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split('\t').collect::<Vec<_>>())
        .filter(|columns| columns[1] == phase)
        .map(|columns| columns[2].to_owned())
        .collect()
}

#[test]
fn entry_keys_are_those_of_the_traces() {
    for (program, trace) in [
        (
            Program::queen(),
            include_str!("data/traces/queen_game_11.keys.tsv"),
        ),
        (
            Program::rook(),
            include_str!("data/traces/rook_game1.keys.tsv"),
        ),
    ] {
        let keys: Vec<String> = program
            .entry_keys()
            .unwrap()
            .iter()
            .map(|key| key.token().to_owned())
            .collect();
        assert_eq!(keys, trace_phase(trace, "program-entry"));
    }
}

#[test]
fn programs_go_in_and_read_back() {
    use ajedrecista_mk61::{AngleUnit, Calculator};
    for program in [Program::queen(), Program::rook()] {
        let mut calculator = Calculator::new(AngleUnit::Radians);
        calculator.enter_program(&program).unwrap();
        assert_eq!(calculator.program_memory(), program.bytes());
        assert_eq!(calculator.read_program(105).unwrap(), program.bytes());
        assert_eq!(calculator.program_memory(), program.bytes());
    }
}
