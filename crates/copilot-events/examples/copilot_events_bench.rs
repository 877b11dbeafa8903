//! Throughput and peak memory of the event reader on a generated ~100 MB `events.jsonl`,
//! next to serde_json validating the same lines with `IgnoredAny`:
//! `cargo run --release -p copilot-events --example copilot_events_bench -- [MB]`.
//!
//! The log is generated at run time into a private temporary folder (removed
//! afterwards), never committed: the project's CLI fixture session with its ids made
//! unique per copy, repeated to the size asked for (default 100 MB).
use std::time::Instant;

use copilot_events::{Options, read_events};
use serde::de::IgnoredAny;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/evidence/lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/events.jsonl"
);

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let template = match std::fs::read_to_string(FIXTURE) {
        Ok(t) => t,
        Err(e) => return eprintln!("cannot read the fixture {FIXTURE}: {e}"),
    };
    // whole lines only (the fixture's torn last line is left out of the copies)
    let body: String = template
        .lines()
        .filter(|l| l.ends_with('}'))
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("events.jsonl");
    {
        let mut out = String::with_capacity(mb << 20);
        let mut copy = 0u64;
        while out.len() < mb << 20 {
            let k = format!("{copy}-");
            out.push_str(
                &body
                    .replace("\"toolCallId\":\"", &format!("\"toolCallId\":\"{k}"))
                    .replace("\"id\":\"", &format!("\"id\":\"{k}")),
            );
            copy += 1;
        }
        std::fs::write(&path, out).expect("write the generated log");
    }
    let evidence = chat_rows::Evidence::new();
    let mut best = (f64::MAX, f64::MAX);
    let mut rows_seen = 0u64;
    let mut size = 0usize;
    for _ in 0..3 {
        let bytes = evidence.read(&path).expect("read");
        size = bytes.len();
        let t = Instant::now();
        let mut n = 0u64;
        for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            if serde_json::from_slice::<IgnoredAny>(line).is_ok() {
                n += 1;
            }
        }
        best.0 = best.0.min(t.elapsed().as_secs_f64());
        std::hint::black_box(n);
        let t = Instant::now();
        let opts = Options {
            agent: "copilot",
            fallback_session: "bench",
            ..Options::default()
        };
        let mut rows = 0u64;
        let mut text_bytes = 0usize;
        read_events(&bytes, &opts, &mut |r| {
            rows += 1;
            text_bytes += r.text.len();
        });
        best.1 = best.1.min(t.elapsed().as_secs_f64());
        rows_seen = rows;
        std::hint::black_box(text_bytes);
    }
    let mbs = |s: f64| size as f64 / 1e6 / s;
    println!("generated events.jsonl: {:.1} MB", size as f64 / 1e6);
    println!(
        "serde_json IgnoredAny validation: {:.3} s ({:.0} MB/s)",
        best.0,
        mbs(best.0)
    );
    println!(
        "event reader (rows to a sink): {:.3} s ({:.0} MB/s), {rows_seen} rows, ratio {:.2}",
        best.1,
        mbs(best.1),
        best.0 / best.1
    );
    if let Some(peak) = chat_rows::dirty::peak_rss_bytes() {
        println!(
            "peak RSS: {:.0} MiB ({:.2}x the file)",
            peak as f64 / (1 << 20) as f64,
            peak as f64 / size as f64
        );
    }
}
