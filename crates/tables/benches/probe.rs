//! Batch probing, warm: how many positions a second `Tablebase::probe`
//! answers once its tables are in memory, alone and with the FEN read
//! first (what `ajedrecista probe --epd` does for each line, output aside).
//!
//! `cargo bench -p ajedrecista-tables --bench probe [-- MATERIAL...]`
//! `cargo bench -p ajedrecista-tables --bench probe -- --emit MATERIAL N`
//! writes N random legal FENs of MATERIAL to stdout instead (input for
//! timing `ajedrecista probe --epd FILE --json`).
//!
//! Positions are random legal placements (pawns on ranks 2 to 7), either
//! side to move, from a fixed seed; a colour-flipped twin (`KvKP`) is
//! probed through its canonical table's mirror.

use std::time::Instant;

use ajedrecista_tables::{CastlingRights, Material, Tablebase, Variant, read_fen};
use shakmaty::{
    Board, CastlingMode, Chess, Color, EnPassantMode, PositionError, Role, Setup, Square, fen::Fen,
};

const DEFAULT: [&str; 5] = ["KRvK", "KQvKR", "KPvK", "KvKP", "KQvKP"];
const POSITIONS: usize = 200_000;

/// xorshift64*: a fixed, dependency-free stream of numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random legal position of `material`.
fn random_position(material: &Material, rng: &mut Rng) -> Chess {
    loop {
        let mut board = Board::empty();
        let mut clash = false;
        for &man in material.men() {
            let sq = if man.role == Role::Pawn {
                Square::new(8 + rng.below(48) as u32)
            } else {
                Square::new(rng.below(64) as u32)
            };
            clash |= board.piece_at(sq).is_some();
            board.set_piece_at(sq, man);
        }
        if clash {
            continue;
        }
        let turn = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let setup = Setup {
            board,
            turn,
            ..Setup::empty()
        };
        if let Ok(pos) = setup
            .position::<Chess>(CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
        {
            return pos;
        }
    }
}

fn positions(material: &Material, n: usize) -> Vec<Chess> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|_| random_position(material, &mut rng))
        .collect()
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn bench(tb: &Tablebase, name: &str) {
    let material: Material = name.parse().expect("a material");
    let positions = positions(&material, POSITIONS);
    let fens: Vec<String> = positions.iter().map(fen).collect();
    // Warm: every table these positions need is built, and each probed once.
    let start = Instant::now();
    for pos in &positions {
        tb.probe(pos, Variant::Standard).expect("probe");
    }
    let cold = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut decisive = 0u64;
    for pos in &positions {
        decisive += u64::from(tb.probe(pos, Variant::Standard).unwrap().plies().is_some());
    }
    let probe = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for text in &fens {
        let pos = read_fen(text, CastlingRights::Refused).expect("a FEN");
        tb.probe(&pos, Variant::Standard).unwrap();
    }
    let with_fen = start.elapsed().as_secs_f64();
    let rate = |seconds: f64| POSITIONS as f64 / seconds;
    println!(
        "{name:<7} {POSITIONS} positions ({decisive} decisive): first pass {cold:.2} s (builds \
         included); warm probe {:.0}/s; FEN read + probe {:.0}/s",
        rate(probe),
        rate(with_fen)
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--") || a == "--emit")
        .collect();
    if let [flag, material, n] = args.as_slice()
        && flag == "--emit"
    {
        let material: Material = material.parse().expect("a material");
        let n: usize = n.parse().expect("a count");
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for pos in positions(&material, n) {
            use std::io::Write;
            writeln!(out, "{}", fen(&pos)).expect("stdout");
        }
        return;
    }
    let names: Vec<&str> = if args.is_empty() {
        DEFAULT.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    let tb = Tablebase::in_memory();
    for name in names {
        bench(&tb, name);
    }
}
