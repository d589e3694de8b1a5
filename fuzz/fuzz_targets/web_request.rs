//! What a web client sends: the request head as the server layer reads it,
//! the query strings of the tablebase and audit views, and the JSON bodies
//! of a new game and a move. The first byte picks which.
#![no_main]

use ajedrecista_web::ServerLimits;
use ajedrecista_web::audit::AuditQuery;
use ajedrecista_web::error::strict_query;
use ajedrecista_web::games::{MoveRequest, NewGame};
use ajedrecista_web::probe::ProbeQuery;
use ajedrecista_web::server::parse_head;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    match pick % 4 {
        0 => {
            let limits = ServerLimits::default();
            if let Ok(Some(head)) = parse_head(rest, &limits) {
                assert!(head.length <= rest.len() && head.length <= limits.max_head_bytes);
                assert!(head.body_length <= ajedrecista_web::MAX_BODY_BYTES);
            }
        }
        1 => {
            let Ok(text) = std::str::from_utf8(rest) else {
                return;
            };
            let _ = strict_query::<ProbeQuery>(text);
            let _ = strict_query::<AuditQuery>(text);
        }
        2 => {
            let _ = serde_json::from_slice::<NewGame>(rest);
        }
        _ => {
            let _ = serde_json::from_slice::<MoveRequest>(rest);
        }
    }
});
