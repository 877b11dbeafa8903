//! Prints the rows of CodeBuddy files, one per line, for a quick look:
//! `cargo run -p codebuddy-log --example codebuddy_dump -- <file>...`
use std::path::Path;

use chat_rows::{Evidence, FileContext, Store};
use codebuddy_log::CodeBuddyStore;

fn main() {
    let evidence = Evidence::new();
    let store = CodeBuddyStore;
    for arg in std::env::args().skip(1) {
        let path = Path::new(&arg);
        let claim = store.claim(path).map_or("not claimed", |c| c.kind);
        println!("# {arg} ({claim})");
        for row in store.read(path, &FileContext::default(), &evidence) {
            println!("{}", serde_json::to_string(&row).unwrap_or_default());
        }
    }
}
