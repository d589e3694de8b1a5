//! One module per subcommand.

pub mod audit;
pub mod classify;
pub mod cluster;
pub mod code;
pub mod enumerate;
pub mod manual;
pub mod mk61;
pub mod play;
mod play_pgn;
mod practice;
pub mod probe;
pub mod selfplay;
pub mod serve;
pub mod solve;
mod solve_node;
mod solve_plan;
pub mod uci;
