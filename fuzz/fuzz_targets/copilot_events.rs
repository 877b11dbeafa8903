#![no_main]
//! The Copilot event reader and the side-file readers must never panic, whatever the
//! bytes, and every line must come back as rows or a `parser:` row.
use copilot_events::{Options, read_events, side};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = Options {
        agent: "copilot",
        fallback_session: "s",
        secondary: data.first().is_some_and(|b| b & 1 == 1),
        ..Options::default()
    };
    let mut rows: Vec<chat_rows::Row> = Vec::new();
    let counts = read_events(data, &opts, &mut rows);
    assert!(rows.iter().filter(|r| r.is_parser()).count() as u64 >= counts.bad_lines);
    let sd = side::Side { agent: "copilot", session: "s", mtime: None, file_name: "f" };
    let mut sink = |_r| {};
    side::workspace_yaml(data, &sd, &mut sink);
    side::rewind_index(data, &sd, &mut sink);
    side::permissions_config(data, &sd, &mut sink);
    side::debug_log(data, &sd, &mut sink);
});
