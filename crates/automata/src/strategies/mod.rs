//! The automata themselves: the [`Strategy`](strategy::Strategy) contract,
//! each machine's rules, the catalog that lists them and the
//! [`Automaton`](automaton::Automaton) every front end runs (one enum of
//! the catalog's machines).

pub mod automaton;
pub mod bishop_knight;
pub mod bishops;
pub mod calculator_game;
pub mod catalog;
pub mod emulated;
pub mod krk;
pub(crate) mod minor_mate;
pub mod mk61_rook;
pub mod perfect;
pub mod queen_box;
pub mod rook_box;
pub mod seed_square;
pub mod strategy;
pub mod symmetry;
pub mod torres;
pub(crate) mod triangle_forcing;
