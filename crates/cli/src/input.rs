//! Files named on the command line, read whole through the bounded reader
//! of ajedrecista-input: a file over its limit is one line naming the file
//! and the limit, not a process that grows until it is killed.

use std::path::Path;

use ajedrecista_input::{InputError, MAX_INPUT_BYTES, open, read_bytes, read_text};

/// The bytes of `path` (`-`: stdin), at most [`MAX_INPUT_BYTES`].
pub fn read_bytes_file(path: &Path) -> anyhow::Result<Vec<u8>> {
    named(
        path,
        open(path)
            .map_err(InputError::from)
            .and_then(|file| read_bytes(file, MAX_INPUT_BYTES)),
    )
}

/// The text of `path` (`-`: stdin), at most [`MAX_INPUT_BYTES`], UTF-8.
pub fn read_text_file(path: &Path) -> anyhow::Result<String> {
    named(
        path,
        open(path)
            .map_err(InputError::from)
            .and_then(|file| read_text(file, MAX_INPUT_BYTES)),
    )
}

fn named<T>(path: &Path, read: Result<T, InputError>) -> anyhow::Result<T> {
    read.map_err(|err| anyhow::anyhow!("cannot read {}: {err}", path.display()))
}

/// The next line a person typed at a game (`prompt` shown first on a
/// terminal), skipping with a word lines that are no text (too long, not
/// UTF-8); `None` at the end of the input, said as "End of input.".
pub fn next_typed<R: std::io::BufRead>(
    lines: &mut ajedrecista_input::LineReader<R>,
    out: &mut impl std::io::Write,
    prompt: Option<&str>,
) -> std::io::Result<Option<String>> {
    loop {
        if let Some(prompt) = prompt {
            write!(out, "{prompt}> ")?;
            out.flush()?;
        }
        match lines.next_line()? {
            None => {
                writeln!(out, "End of input.")?;
                return Ok(None);
            }
            Some(ajedrecista_input::Line::Text(line)) => return Ok(Some(line)),
            Some(refused) => {
                let reason = refused.refusal().expect("a line without text");
                writeln!(out, "Ignored: {reason}.")?;
            }
        }
    }
}
