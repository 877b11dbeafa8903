#![no_main]
//! The VS Code mutation-log replay, its rows and the flat-session parser must never
//! panic, whatever the bytes; every parser row stays bounded; the consuming
//! `into_rows` and `for_each_row` yield exactly the rows of `rows_from_replay`.
use libfuzzer_sys::fuzz_target;
use vscode_chat_log::rows::{SessionContext, for_each_row, into_rows, rows_from_replay};
use vscode_chat_log::{Replay, decode};

fuzz_target!(|data: &[u8]| {
    let replay = Replay::from_bytes(data);
    assert!(
        replay
            .lines()
            .iter()
            .all(|l| (l.offset + l.len) as usize <= data.len())
    );
    let _ = replay.to_json();
    let ctx = SessionContext::new("fuzz", "fuzz.jsonl");
    let rows = rows_from_replay(&replay, &ctx);
    for r in rows.iter().filter(|r| r.is_parser()) {
        assert!(r.text.len() < 8 * chat_rows::system::MAX_QUOTED + 400);
    }
    let mut streamed = Vec::new();
    for_each_row(&replay, &ctx, |row| streamed.push(row.clone()));
    assert_eq!(streamed, rows);
    assert_eq!(into_rows(replay, &ctx), rows);
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(doc) = decode::parse_document(text) {
            let _ = doc.node.to_json();
        }
    }
});
