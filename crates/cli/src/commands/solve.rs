//! `ajedrecista solve`.

/// Arguments of `ajedrecista solve`.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("solve: not built yet")
}
