//! What a web client sends past hyper (which reads the request head): the
//! query strings of the tablebase and audit views, and the JSON bodies of a
//! new game and a move. The first byte picks which.
#![no_main]

use ajedrecista_web::audit::AuditQuery;
use ajedrecista_web::error::strict_query;
use ajedrecista_web::games::{MoveRequest, NewGame};
use ajedrecista_web::probe::ProbeQuery;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    match pick % 3 {
        0 => {
            let Ok(text) = std::str::from_utf8(rest) else {
                return;
            };
            let _ = strict_query::<ProbeQuery>(text);
            let _ = strict_query::<AuditQuery>(text);
        }
        1 => {
            let _ = serde_json::from_slice::<NewGame>(rest);
        }
        _ => {
            let _ = serde_json::from_slice::<MoveRequest>(rest);
        }
    }
});
