//! The registry of store crates. Each store crate adds one line here (and its
//! dependency in the root Cargo.toml). The scanner offers every file to every store;
//! each store that claims it reads it (a `state.vscdb` holds VS Code's, Cody's and
//! Tabby's rows, a `settings.json` VS Code's and Cody's settings).

use chat_rows::Store;

/// Every store this build can read, in the order their rows appear for a file that
/// several stores read (a `state.vscdb` gives VS Code's rows, then Cody's, then Tabby's).
pub fn all() -> Vec<Box<dyn Store>> {
    vec![
        Box::new(vscode_chat_log::ChatLogStore),
        Box::new(state_vscdb::StateVscdbStore),
        Box::new(cody_history::CodyStore),
        Box::new(tabby_db::TabbyStore::default()),
        Box::new(copilot_nitrite::CopilotNitriteStore),
        Box::new(codebuddy_log::CodeBuddyStore),
        Box::new(claude_code_log::ClaudeCodeStore),
        Box::new(copilot_events::CopilotEventsStore),
        Box::new(cursor_state::CursorStore),
    ]
}

/// The agents of the stores' own rows (the editors' products are in
/// [`crate::locations`]), and the scanner's.
pub const STORE_AGENTS: &[&str] = &[
    "vscode",
    "cody",
    "tabby",
    "copilot",
    "codebuddy",
    "claude-code",
    "cursor",
    crate::SCANNER_AGENT,
];

/// Every agent name a row can carry, sorted: what `--agent` accepts.
pub fn known_agents() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = STORE_AGENTS.to_vec();
    all.extend(crate::locations::EDITOR_DIRS.iter().map(|(_, p)| *p));
    all.extend(crate::locations::SERVER_DIRS.iter().map(|(_, p)| *p));
    all.extend(crate::locations::OTHER_LOCATIONS.iter().map(|l| l.product));
    all.sort_unstable();
    all.dedup();
    all
}
