//! Fuzzes the mapper of the chat editing state (`chatEditingSessions/<key>/state.json`,
//! versions 1 and 2): no input may panic; every row is a secondary `edit state:` row
//! of the session, or the one `parser:` row of a file that is not a JSON object.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vscode_chat_log::rows::files::{FileRows, editing_state_rows};

fuzz_target!(|data: &[u8]| {
    let f = FileRows {
        agent: "vscode".into(),
        source_file: "state.json".into(),
        mtime: None,
    };
    let rows = editing_state_rows(data, "key-1", "/proj", &f);
    for row in &rows {
        assert_eq!(row.session_id, "key-1");
        assert!(row.secondary);
        assert!(
            row.text.starts_with("edit state: ") || (row.is_parser() && rows.len() == 1),
            "{}",
            row.text
        );
    }
});
