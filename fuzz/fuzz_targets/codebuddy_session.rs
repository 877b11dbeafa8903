#![no_main]
//! CodeBuddy session decoding and row mapping must never panic, whatever the bytes,
//! and every line must come back as an item or a `parser:` row.
use codebuddy_log::{
    MapOptions, Persisted, PersistedPointer, SessionLog, SubagentMeta, decode, session_rows,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let log = SessionLog::from_bytes(data);
    let lookup = |p: &PersistedPointer| {
        assert!(!p.relative.split('/').any(|c| c == ".."));
        Persisted::Found {
            text: String::from("persisted"),
        }
    };
    let opts = MapOptions {
        source_file: "fuzz.jsonl",
        session_id: "s",
        subagent: data.first().is_some_and(|b| b & 1 == 1),
        folder_session_id: "s",
        persisted: &lookup,
    };
    let rows = session_rows(&log, &opts);
    let bad = log.errors().len();
    assert!(rows.iter().filter(|r| r.is_parser()).count() >= bad);
    assert!(rows.iter().all(|r| r.source_line.is_some()));
    let _ = SubagentMeta::from_bytes(data, std::path::Path::new("agent-00000000.meta.json"));
    let text = String::from_utf8_lossy(data);
    let _ = decode::exit_status(&text);
    let _ = decode::persisted_pointer(&text, "s");
    let _ = codebuddy_log::locate(std::path::Path::new(text.as_ref()));
});
