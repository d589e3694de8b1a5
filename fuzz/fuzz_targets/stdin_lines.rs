//! The stdin line reader of `probe --epd`, `play`, `uci` and `mk61`
//! (ajedrecista-input's `LineReader`), read through a buffer of the size
//! the first byte picks (so that lines cross the buffer's ends), against
//! the lines the input holds when split whole: each line is its text, too
//! long, or not UTF-8, the first one without its byte-order mark.
#![no_main]

use std::io::BufReader;

use ajedrecista_input::{Line, LineReader, MAX_LINE_BYTES};
use libfuzzer_sys::fuzz_target;

/// The lines of `input` as the reader must give them.
fn expected(input: &[u8]) -> Vec<Line> {
    let mut segments: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") || input.is_empty() {
        segments.pop();
    }
    segments
        .into_iter()
        .enumerate()
        .map(|(index, mut line)| {
            if index == 0 {
                line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
            }
            line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.len() > MAX_LINE_BYTES {
                Line::TooLong
            } else {
                match std::str::from_utf8(line) {
                    Ok(text) => Line::Text(text.to_owned()),
                    Err(_) => Line::NotUtf8,
                }
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    // Short inputs are blown up so that the limit is reached: a second
    // byte over 200 repeats the rest up to 64 times as often, and the
    // whole is cut a little past the line limit (4096 + 256 bytes).
    let mut input: Vec<u8> = match rest.split_first() {
        Some((&times, body)) if times > 200 => body.repeat(usize::from(times - 200) * 64),
        _ => rest.to_vec(),
    };
    input.truncate(MAX_LINE_BYTES + 256);
    let capacity = 1 + usize::from(pick) * 37;
    let got: Vec<Line> = LineReader::new(BufReader::with_capacity(capacity, input.as_slice()))
        .map(|line| line.expect("reading a slice never fails"))
        .collect();
    assert_eq!(got, expected(&input), "buffer of {capacity} bytes");
});
