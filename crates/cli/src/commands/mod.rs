//! One module per subcommand.

pub mod audit;
pub mod probe;
pub mod selfplay;
pub mod solve;
