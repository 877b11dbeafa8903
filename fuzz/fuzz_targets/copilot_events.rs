#![no_main]
//! The Copilot event reader and the side-file readers must never panic, whatever the
//! bytes, every line must come back as rows or a `parser:` row, and the reader's
//! scanner must read each line as serde_json does (or leave it to serde_json).
use copilot_events::{Options, read_events, side};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = Options {
        agent: "copilot",
        fallback_session: "s",
        secondary: data.first().is_some_and(|b| b & 1 == 1),
        ..Options::default()
    };
    // the scanner reads a line as serde_json does, or leaves it to serde_json
    for line in data.split(|b| *b == b'\n') {
        assert!(
            copilot_events::decode::scanner_agrees(line),
            "{}",
            String::from_utf8_lossy(line)
        );
    }
    let mut rows: Vec<chat_rows::Row> = Vec::new();
    let counts = read_events(data, &opts, &mut rows);
    assert!(rows.iter().filter(|r| r.is_parser()).count() as u64 >= counts.bad_lines);
    let sd = side::Side {
        agent: "copilot",
        session: "s",
        mtime: None,
        file_name: "f",
    };
    let mut sink = |_r| {};
    side::workspace_yaml(data, &sd, &mut sink);
    side::rewind_index(data, &sd, &mut sink);
    side::permissions_config(data, &sd, &mut sink);
    let _ = side::debug_log(
        &mut chat_rows::lines::LineReader::from_bytes(data),
        &sd,
        &mut sink,
    );
});
