//! Prints the rows of Cursor files, one line each (for looking at fixtures).
//!
//! `cargo run -p cursor-state --example cursor_dump -- FILE...`

use chat_rows::{Evidence, FileContext, Store};

fn main() {
    let store = cursor_state::CursorStore;
    let evidence = Evidence::new();
    for arg in std::env::args().skip(1) {
        let path = std::path::Path::new(&arg);
        for r in store.read(path, &FileContext::default(), &evidence) {
            println!(
                "{} | {} | {} | {:?} | {} | {} {} | {} | {}",
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.session_id,
                r.project_path,
                r.turn_type,
                r.record_state,
                r.tool_name,
                r.tool_use_id,
                r.text.replace('\n', "\\n"),
                r.source_locator
            );
        }
    }
}
