//! Reads one Tabby server root and prints its merged rows as JSON lines, then a
//! summary with the time taken and the peak memory:
//!
//! ```text
//! cargo run --release -p tabby-db --example tabby_read_root -- fixtures/evidence/tabby-srv/home/tabby/.tabby
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let Some(root) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: read_root <tabby root>");
        std::process::exit(2);
    };
    let evidence = chat_rows::Evidence::new();
    let start = Instant::now();
    let rows = tabby_db::read_root(&root, &evidence);
    let took = start.elapsed();
    let mut out = std::io::stdout().lock();
    for r in &rows {
        let _ = writeln!(out, "{}", serde_json::to_string(r).unwrap_or_default());
    }
    let bytes: u64 = evidence.manifest().iter().map(|m| m.size).sum();
    eprintln!(
        "{} rows from {} files ({} bytes) in {:.1} ms; peak RSS {} KiB",
        rows.len(),
        evidence.manifest().len(),
        bytes,
        took.as_secs_f64() * 1000.0,
        chat_rows::dirty::peak_rss_bytes().unwrap_or(0) / 1024
    );
}
