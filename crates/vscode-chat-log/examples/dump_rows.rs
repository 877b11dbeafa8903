//! Prints the rows this crate reads from each file given (a development aid):
//! `cargo run -p vscode-chat-log --example dump_rows -- FILE...`
use chat_rows::{Evidence, FileContext, Store};
use vscode_chat_log::ChatLogStore;

fn main() {
    let ev = Evidence::new();
    for arg in std::env::args().skip(1) {
        let path = std::path::Path::new(&arg);
        let ctx = FileContext {
            display_path: arg.clone(),
            ..FileContext::default()
        };
        for r in ChatLogStore.read(path, &ctx, &ev) {
            println!(
                "{} | {} | {} | {} | {} | {} | {} | {:?} | {} | {} | {:?}",
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.session_id,
                r.project_path,
                r.turn_type,
                r.model,
                r.tool_name,
                r.tool_use_id,
                r.source_line,
                r.source_locator,
                r.record_state,
                r.text
            );
        }
    }
}
