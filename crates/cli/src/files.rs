//! Files the CLI writes for people and schedulers (a game's PGN, batch
//! job scripts and their list): written whole under a temporary name in
//! the same folder, synced, renamed into place, and read back.

use std::{
    fs,
    io::{self, Write},
    os::unix::fs::PermissionsExt,
    path::Path,
};

use anyhow::Context;

/// Writes `text` to `path` through a temporary file in the same folder,
/// synced and renamed, then reads it back.
pub fn write_atomically(
    path: &Path,
    text: &str,
    permissions: Option<fs::Permissions>,
) -> anyhow::Result<()> {
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let written = (|| {
        // Created 0666 less the umask, as any new file (tempfile's own
        // default is 0600); an existing file's mode is then kept.
        let mut file = tempfile::Builder::new()
            .permissions(fs::Permissions::from_mode(0o666))
            .tempfile_in(dir)?;
        if let Some(permissions) = permissions {
            file.as_file().set_permissions(permissions)?;
        }
        file.write_all(text.as_bytes())?;
        file.as_file().sync_all()?;
        file.persist(path).map_err(|err| err.error)?;
        io::Result::Ok(())
    })();
    written.with_context(|| format!("cannot write {}", path.display()))?;
    let back =
        fs::read_to_string(path).with_context(|| format!("cannot read back {}", path.display()))?;
    anyhow::ensure!(
        back == text,
        "{} does not read back as written",
        path.display()
    );
    Ok(())
}
