//! Throughput and memory of decoding and mapping a large session, printed as figures:
//! `cargo run --release -p codebuddy-log --example codebuddy_bench -- [MiB]` (default 64).
//!
//! The input is the project's Linux fixture session repeated, with its ids, parent ids
//! and call ids made unique per copy, until it reaches the requested size.
use std::time::Instant;

use codebuddy_log::{
    LogIndex, MapOptions, Persisted, PersistedPointer, SessionLog, session_rows_with,
};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/evidence/lin-ws01/home/alice/.codebuddy/projects/home-alice-src-shop/3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10.jsonl"
);

fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(64);
    let template = match std::fs::read_to_string(FIXTURE) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read the fixture {FIXTURE}: {e}");
            return;
        }
    };
    let mut input = String::with_capacity(mib << 20);
    let mut copy = 0u64;
    while input.len() < mib << 20 {
        let k = format!("{copy}-");
        input.push_str(
            &template
                .replace("\"id\":\"", &format!("\"id\":\"{k}"))
                .replace("\"parentId\":\"", &format!("\"parentId\":\"{k}"))
                .replace("\"callId\":\"", &format!("\"callId\":\"{k}")),
        );
        copy += 1;
    }
    let bytes = input.into_bytes();
    let rss_before = chat_rows::dirty::peak_rss_bytes().unwrap_or(0);

    let t = Instant::now();
    let log = SessionLog::from_bytes(&bytes);
    let mut lines = 0usize;
    log.each_line(|_| lines += 1)
        .expect("bytes at hand never fail");
    let split = t.elapsed();
    let t = Instant::now();
    let index = LogIndex::build(&log);
    let indexing = t.elapsed();
    let lookup = |_: &PersistedPointer| Persisted::Found {
        text: String::from("persisted output"),
    };
    let opts = MapOptions {
        source_file: "bench.jsonl",
        session_id: "bench",
        subagent: false,
        folder_session_id: "bench",
        persisted: &lookup,
    };
    let t = Instant::now();
    let mut decoded = 0usize;
    log.each_entry(|_, e| decoded += usize::from(e.item.is_ok()))
        .expect("bytes at hand never fail");
    let decode_only = t.elapsed();
    let t = Instant::now();
    let rows = session_rows_with(&log, &index, &opts);
    let map = t.elapsed();

    let mb = bytes.len() as f64 / (1 << 20) as f64;
    let total = (split + indexing + map).as_secs_f64(); // decode is inside map
    println!(
        "input:    {mb:.1} MiB, {} lines, {} copies of the fixture",
        lines, copy
    );
    println!("split:    {:.3} s", split.as_secs_f64());
    println!(
        "index:    {:.3} s ({:.1} MiB/s)",
        indexing.as_secs_f64(),
        mb / indexing.as_secs_f64()
    );
    println!(
        "decode:   {:.3} s to decode the {decoded} readable items alone ({:.1} MiB/s)",
        decode_only.as_secs_f64(),
        mb / decode_only.as_secs_f64()
    );
    println!(
        "map:      {:.3} s, {} rows ({:.0} rows/s, {:.1} MiB/s)",
        map.as_secs_f64(),
        rows.len(),
        rows.len() as f64 / map.as_secs_f64(),
        mb / map.as_secs_f64()
    );
    println!("total:    {total:.3} s ({:.1} MiB/s)", mb / total);
    if let Some(peak) = chat_rows::dirty::peak_rss_bytes() {
        println!(
            "peak RSS: {:.0} MiB ({:.0} MiB before decoding, input included; {:.1}x the input)",
            peak as f64 / (1 << 20) as f64,
            rss_before as f64 / (1 << 20) as f64,
            peak as f64 / bytes.len() as f64
        );
    }
}
