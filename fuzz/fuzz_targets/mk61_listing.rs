//! An MK-61 listing as the seeds print it, read into a program.
#![no_main]

use ajedrecista_mk61::read_listing;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(program) = read_listing(text) else {
        return;
    };
    let _ = format!("{program:?}");
});
