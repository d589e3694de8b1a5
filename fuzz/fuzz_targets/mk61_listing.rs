//! An MK-61 listing as the seeds print it, read into a program.
#![no_main]

use ajedrecista_mk61::read_listing;
use libfuzzer_sys::fuzz_target;

// Bytes that are not UTF-8 end the text (libFuzzer's `&str` input).
fuzz_target!(|text: &str| {
    let Ok(program) = read_listing(text) else {
        return;
    };
    let _ = format!("{program:?}");
});
