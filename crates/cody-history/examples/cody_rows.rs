//! Prints the rows of Cody files as JSON lines:
//!
//! ```text
//! cargo run -p cody-history --example cody_rows -- <file>...
//! ```
//!
//! Each file is read through [`cody_history::CodyStore`], as the scanner would, and the
//! rows of all files are merged (legacy XML copies dropped) before printing.

use chat_rows::{Evidence, FileContext, Store};

fn main() {
    let store = cody_history::CodyStore;
    let evidence = Evidence::new();
    let mut rows = Vec::new();
    for arg in std::env::args().skip(1) {
        let path = std::path::Path::new(&arg);
        if store.claim(path).is_none() {
            eprintln!("not a Cody file: {arg}");
            continue;
        }
        let ctx = FileContext {
            display_path: arg.clone(),
            ..FileContext::default()
        };
        rows.extend(store.read(path, &ctx, &evidence));
    }
    let (rows, dropped) = cody_history::merge(rows);
    for r in &rows {
        println!("{}", serde_json::to_string(r).unwrap_or_default());
    }
    eprintln!(
        "{} row(s), {dropped} legacy copy row(s) dropped",
        rows.len()
    );
}
