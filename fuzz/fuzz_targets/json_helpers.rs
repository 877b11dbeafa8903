#![no_main]
//! Lone-surrogate repair, JSONC, time and URI decoding must never panic.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let repaired = chat_rows::json::repair_lone_surrogates(data);
    // repair only ever rewrites a 6-byte escape into another 6-byte escape
    assert_eq!(repaired.len(), data.len());
    let _ = chat_rows::json::from_slice::<serde_json::Value>(data);
    let _ = chat_rows::jsonc::parse_bytes(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = chat_rows::when::parse_any(text, None);
        let _ = chat_rows::when::parse_rfc1123(text);
        let _ = chat_rows::uri::to_path(text);
    }
});
