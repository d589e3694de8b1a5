//! One module per subcommand.

pub mod mk61;
pub mod probe;
pub mod solve;
