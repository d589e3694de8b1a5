//! The game model: one game as played and recorded ([`game`], [`play`],
//! the selfplay defences), a person's game against an automaton
//! ([`session`], with the reading of typed moves in [`move_input`]), a
//! game sent whole as UCI sends it ([`replay`]) and what front ends show
//! ([`view`]).

pub mod defence;
pub mod game;
pub mod move_input;
pub mod play;
pub mod replay;
pub mod session;
pub mod view;
