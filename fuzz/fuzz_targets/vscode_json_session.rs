//! Fuzzes the VS Code legacy flat `.json` session mapper, as the store reads such a
//! file (byte-order mark dropped, invalid UTF-8 replaced, the lazy document parser,
//! then the rows), and the same mapper over a `serde_json` value, as the legacy
//! `interactive.sessions` item of `state.vscdb` uses it. No input may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vscode_chat_log::decode::parse_document;
use vscode_chat_log::rows::{SessionContext, rows_from_node, rows_from_session};

fuzz_target!(|data: &[u8]| {
    let bytes = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let text = String::from_utf8_lossy(bytes);
    let mut ctx = SessionContext::new("vscode", "s.json");
    ctx.secondary = data.first().is_some_and(|b| b & 1 == 1);
    if let Ok(slot) = parse_document(&text) {
        for row in rows_from_node(&slot, &ctx) {
            assert_eq!(row.secondary, ctx.secondary);
            assert_eq!(row.source_file, "s.json");
        }
    }
    if let Ok(value) = chat_rows::json::from_slice::<serde_json::Value>(bytes) {
        for row in rows_from_session(&value, &ctx) {
            assert_eq!(row.source_file, "s.json");
        }
    }
});
