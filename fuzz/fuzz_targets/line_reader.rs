#![no_main]
//! The line reader and its bad-line rows must never panic, whatever the bytes.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for (line, result) in chat_rows::lines::json_lines::<serde_json::Value>(data) {
        assert!(line.offset as usize <= data.len());
        if let Err(bad) = result {
            let row = bad.row("fuzz", "fuzz.jsonl");
            assert!(row.is_parser());
            assert!(row.text.len() < 4 * chat_rows::system::MAX_QUOTED + 200);
        }
    }
});
