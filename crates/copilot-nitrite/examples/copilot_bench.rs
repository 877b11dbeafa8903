//! Prints decode throughput and peak memory for the crate's fixtures, and the time of
//! the damaged shapes that once made the reader super-linear (a bench example: figures,
//! not a timed test). Run: `cargo run --release -p copilot-nitrite --example copilot_bench`.
use std::time::Instant;

use copilot_nitrite::{NitriteFile, rows};

#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"));
    let files = [
        format!(
            "{root}/../../fixtures/evidence/lin-ws01/home/alice/.config/github-copilot/intellij/chat-agent-sessions/1b6e3a40-7c2d-4f1e-9d3b-5a6c7e8f9012/copilot-agent-sessions-nitrite.db"
        ),
        format!("{root}/tests/data/agent-deflate.db"),
        format!("{root}/tests/data/long-reply.db"),
    ];
    for f in &files {
        let data = std::fs::read(f).expect("fixture");
        let runs = if data.len() > 1 << 20 { 20 } else { 200 };
        let start = Instant::now();
        let mut n = 0;
        for _ in 0..runs {
            let file = NitriteFile::from_bytes(&data);
            n = rows::file_rows(&file, "x", "chat-agent-sessions", "").len();
        }
        let secs = start.elapsed().as_secs_f64();
        let mb = data.len() as f64 * runs as f64 / 1e6;
        println!(
            "{}: {} bytes, {n} rows, {:.2} ms per file, {:.1} MB/s",
            f.rsplit('/').next().unwrap_or(f),
            data.len(),
            secs * 1000.0 / runs as f64,
            mb / secs
        );
    }
    // damaged and oversized shapes (tests/limits.rs pins their outcomes at small sizes)
    type Make = Box<dyn Fn() -> Vec<u8>>;
    let shapes: [(&str, Make); 4] = [
        (
            "text scan, 160,000 Markdown records and sessionId fields",
            Box::new(|| common::markdown_records(160_000)),
        ),
        (
            "40,000 one-block chunks",
            Box::new(|| common::one_block_chunks(40_000, false)),
        ),
        (
            "20,000 one-block chunks, none with a meta root",
            Box::new(|| common::one_block_chunks(20_000, true)),
        ),
        (
            "200 raw Java streams of references to references (2^24 leaves each)",
            Box::new(|| common::tagged(&common::dag_stream(24, 8)).repeat(200)),
        ),
    ];
    for (name, make) in shapes {
        let data = make();
        let start = Instant::now();
        let file = NitriteFile::from_bytes(&data);
        println!(
            "{name}: {} bytes, {} documents, {} texts, {} problems, {:.2} s",
            data.len(),
            file.documents.len(),
            file.texts.len(),
            file.problems.len(),
            start.elapsed().as_secs_f64()
        );
    }
    if let Some(peak) = chat_rows::dirty::peak_rss_bytes() {
        println!("peak RSS: {:.1} MiB", peak as f64 / (1 << 20) as f64);
    }
}
