//! Inputs read a line at a time.

use std::io::{self, BufRead};

use crate::BOM;

/// The longest line a [`LineReader`] holds, in bytes, its line end
/// excluded: a FEN or EPD, a move, a UCI command or a row of keys fits
/// many times over.
pub const MAX_LINE_BYTES: usize = 4096;

/// One line of input, or why it has no text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line without its `\n` or `\r\n`.
    Text(String),
    /// Longer than the limit: skipped to its end without being held.
    TooLong,
    /// Not UTF-8.
    NotUtf8,
}

impl Line {
    /// Why a line without text has none, in words (the limit named).
    pub fn refusal(&self) -> Option<String> {
        match self {
            Line::Text(_) => None,
            Line::TooLong => Some(format!("the line is longer than {MAX_LINE_BYTES} bytes")),
            Line::NotUtf8 => Some("the line is not UTF-8".to_owned()),
        }
    }
}

/// Lines of a reader, each at most [`MAX_LINE_BYTES`] held; a byte-order
/// mark at the start of the input is left out.
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    at_start: bool,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R) -> LineReader<R> {
        LineReader {
            reader,
            buf: Vec::new(),
            at_start: true,
        }
    }

    /// The reader underneath (a caller asks a `BufReader` whether the
    /// next line may wait for input, to flush its answers first).
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The next line; `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buf.clear();
        let mut too_long = false;
        let mut read_any = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if available.is_empty() {
                if !read_any {
                    return Ok(None);
                }
                break;
            }
            read_any = true;
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            if !too_long {
                // One byte over the limit: room for a `\r` before `\n`.
                if self.buf.len() + chunk.len() > MAX_LINE_BYTES + 1 + BOM.len() {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let used = newline.map_or(available.len(), |at| at + 1);
            self.reader.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if std::mem::take(&mut self.at_start) && self.buf.starts_with(BOM) {
            self.buf.drain(..BOM.len());
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if too_long || self.buf.len() > MAX_LINE_BYTES {
            return Ok(Some(Line::TooLong));
        }
        Ok(Some(match std::str::from_utf8(&self.buf) {
            Ok(text) => Line::Text(text.to_owned()),
            Err(_) => Line::NotUtf8,
        }))
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<io::Result<Line>> {
        self.next_line().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Line> {
        LineReader::new(input).map(Result::unwrap).collect()
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_owned())
    }

    #[test]
    fn lines_end_at_newlines_with_or_without_returns() {
        assert_eq!(
            lines(b"a\r\nb\n\nc"),
            [text("a"), text("b"), text(""), text("c")]
        );
        assert_eq!(lines(b""), []);
    }

    #[test]
    fn a_byte_order_mark_is_left_out_of_the_first_line_only() {
        assert_eq!(
            lines(b"\xEF\xBB\xBFk7\n\xEF\xBB\xBFk7\n"),
            [text("k7"), text("\u{FEFF}k7")]
        );
    }

    #[test]
    fn long_and_bad_lines_are_lines_of_their_own() {
        let mut input = vec![b'x'; MAX_LINE_BYTES];
        input.extend_from_slice(b"\n");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE_BYTES + 1));
        input.extend_from_slice(b"\n\xE9t\xE9\nok");
        let got = lines(&input);
        assert_eq!(got[0], Line::Text("x".repeat(MAX_LINE_BYTES)));
        assert_eq!(got[1..], [Line::TooLong, Line::NotUtf8, text("ok")]);
        assert_eq!(
            Line::TooLong.refusal().unwrap(),
            "the line is longer than 4096 bytes"
        );
    }

    #[test]
    fn an_endless_line_is_read_through_without_being_held() {
        let mut reader =
            LineReader::new(io::BufReader::new(io::Read::take(io::repeat(0), 50 << 20)));
        assert_eq!(reader.next_line().unwrap(), Some(Line::TooLong));
        assert!(reader.buf.capacity() <= 2 * MAX_LINE_BYTES + 64);
        assert_eq!(reader.next_line().unwrap(), None);
    }
}
