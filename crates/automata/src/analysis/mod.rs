//! The analysis: the exact audit of an automaton over its starts, and what
//! the tables must agree with ([`contradiction`]; the excess over perfect
//! play is in [`crate::perfect`]).

pub mod audit;
pub mod contradiction;
