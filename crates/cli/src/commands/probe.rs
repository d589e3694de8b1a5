//! `ajedrecista probe`.

/// Arguments of `ajedrecista probe`.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("probe: not built yet")
}
