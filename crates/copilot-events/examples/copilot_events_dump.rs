//! Prints the rows of Copilot files, one line each:
//! `cargo run -p copilot-events --example copilot_events_dump -- FILE...`.
use std::path::Path;

use chat_rows::{Evidence, FileContext, Store};
use copilot_events::CopilotEventsStore;

fn main() {
    let evidence = Evidence::new();
    for arg in std::env::args().skip(1) {
        let path = Path::new(&arg);
        let ctx = FileContext {
            product: None,
            display_path: arg.clone(),
            ..FileContext::default()
        };
        for r in CopilotEventsStore.read(path, &ctx, &evidence) {
            println!(
                "{}|{}|{}|{}|{}|{}|{}|{}|{}",
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.session_id,
                r.turn_type,
                r.model,
                r.tool_name,
                r.tool_use_id,
                r.source_locator,
                r.record_state,
                r.text.replace('\n', "\\n")
            );
        }
    }
}
