//! Fuzzes the mapper of Copilot Chat's `cloudSessions.json` sync markers: no input may
//! panic, and every row comes from the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vscode_chat_log::rows::files::{FileRows, cloud_sessions_rows};

fuzz_target!(|data: &[u8]| {
    let f = FileRows {
        agent: "vscode".into(),
        source_file: "cloudSessions.json".into(),
        mtime: None,
    };
    for row in cloud_sessions_rows(data, &f) {
        assert_eq!(row.source_file, "cloudSessions.json");
    }
});
