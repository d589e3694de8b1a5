//! `ajedrecista manual` and `ajedrecista completions`: man pages and shell
//! completions, generated from the command line's own definitions, so
//! that they say what `--help` says.

use std::path::PathBuf;

use anyhow::Context;
use clap_complete::Shell;
use clap_mangen::Man;

use crate::output::outln;

/// Write the man pages: `ajedrecista.1`, and `ajedrecista-SUBCOMMAND.1`
/// for each subcommand (install them under a `man1` folder of the
/// MANPATH, e.g. /usr/local/share/man/man1).
#[derive(clap::Args)]
pub struct ManualArgs {
    /// Folder to write the pages into (made if missing)
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// Print a shell's completion script for `ajedrecista` (bash: save it as
/// ~/.local/share/bash-completion/completions/ajedrecista; zsh: as
/// `_ajedrecista` in a folder of $fpath; fish: in
/// ~/.config/fish/completions/ajedrecista.fish).
#[derive(clap::Args)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    shell: Shell,
}

pub fn manual(args: ManualArgs, mut command: clap::Command) -> anyhow::Result<()> {
    command.build();
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot make {}", args.dir.display()))?;
    let mut pages = Vec::new();
    pages_of(&command, None, &mut pages)?;
    for (name, text) in &pages {
        let path = args.dir.join(name);
        crate::files::write_atomically(&path, text, None)?;
        outln!("{}", path.display());
    }
    Ok(())
}

/// The page of `command` and of each of its subcommands, named after the
/// command and its parents.
fn pages_of(
    command: &clap::Command,
    parent: Option<&str>,
    pages: &mut Vec<(String, String)>,
) -> anyhow::Result<()> {
    let name = match parent {
        Some(parent) => format!("{parent}-{}", command.get_name()),
        None => command.get_name().to_owned(),
    };
    let mut roff = Vec::new();
    Man::new(command.clone().name(name.clone())).render(&mut roff)?;
    pages.push((format!("{name}.1"), String::from_utf8(roff)?));
    for sub in command
        .get_subcommands()
        .filter(|sub| sub.get_name() != "help")
    {
        pages_of(sub, Some(&name), pages)?;
    }
    Ok(())
}

pub fn completions(args: CompletionsArgs, mut command: clap::Command) -> anyhow::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "ajedrecista", &mut script);
    crate::output::out!("{}", String::from_utf8(script)?);
    Ok(())
}
