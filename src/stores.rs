//! The registry of store crates. Each store crate adds one line here (and its
//! dependency in the root Cargo.toml). The scanner offers every file to every store;
//! each store that claims it reads it (a `state.vscdb` holds VS Code's, Cody's and
//! Tabby's rows, a `settings.json` VS Code's and Cody's settings).

use chat_rows::Store;

/// Every store this build can read, in claim order.
#[allow(clippy::vec_init_then_push)] // one push per registered crate, by design
pub fn all() -> Vec<Box<dyn Store>> {
    #[allow(unused_mut)]
    let mut stores: Vec<Box<dyn Store>> = Vec::new();
    // store registrations: one `stores.push(Box::new(<crate>::<StoreType>::default()));` per crate
    stores.push(Box::new(codebuddy_log::CodeBuddyStore));
    stores.push(Box::new(cody_history::CodyStore));
    stores.push(Box::new(state_vscdb::StateVscdbStore));
    stores.push(Box::new(copilot_nitrite::CopilotNitriteStore));
    stores.push(Box::new(tabby_db::TabbyStore::default()));
    stores.push(Box::new(vscode_chat_log::ChatLogStore));
    stores
}
