//! Whether replay + rows grow linearly in a log's lines, on the shapes that once grew
//! faster: it prints the time per line at N, 2N and 4N lines and the ratio of each to
//! the first (about 1 when linear, about 2 and 4 when quadratic).
//!
//! ```text
//! cargo run --release -p vscode-chat-log --example growth_bench -- [N]
//! ```
//!
//! Shapes (N defaults to 16,000):
//!
//! * `push_i_then_set`: a session of 2,000 requests, then N requests added one at a
//!   time as VS Code adds them (a Push onto `requests` with `i` its length), each
//!   followed by a Set of its `response` (which replaces a part, so its row reads the
//!   request's model). Each Push with `i` forgot the memo of the requests at `i` and
//!   above by looking at every memo kept, one per request: N² (16,000: 2.65 s, 32,000:
//!   12.3 s through the CLI before 2026-12-02).
//! * `push_only`: the same pushes without the Sets (the control).
//!
//! Each figure is the best of three runs of `Replay::from_bytes` and `for_each_row`.

use std::time::Instant;

use serde_json::json;
use vscode_chat_log::Replay;
use vscode_chat_log::rows::{SessionContext, for_each_row};

fn request(k: usize) -> serde_json::Value {
    json!({"requestId": format!("request_{k}"), "timestamp": 1_780_000_000_000u64 + k as u64,
        "message": {"text": format!("prompt {k}"), "parts": []},
        "response": [{"value": format!("answer {k}")}],
        "result": {"metadata": {"modelId": "gpt-4o"}}, "modelId": "copilot/gpt-4o"})
}

fn log(n: usize, with_sets: bool) -> Vec<u8> {
    let start = 2_000;
    let mut out = Vec::new();
    let head = json!({"kind": 0, "v": {"version": 3, "sessionId": "growth",
        "creationDate": 1_780_000_000_000u64,
        "requests": (0..start).map(request).collect::<Vec<_>>()}});
    out.extend_from_slice(head.to_string().as_bytes());
    out.push(b'\n');
    for k in start..start + n {
        let push = json!({"kind": 2, "k": ["requests"], "v": [request(k)], "i": k});
        out.extend_from_slice(push.to_string().as_bytes());
        out.push(b'\n');
        if with_sets {
            let set = json!({"kind": 1, "k": ["requests", k, "response"],
                "v": [{"value": format!("final {k}")}]});
            out.extend_from_slice(set.to_string().as_bytes());
            out.push(b'\n');
        }
    }
    out
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16_000);
    let ctx = SessionContext::new("vscode", "growth.jsonl");
    for (shape, with_sets) in [("push_i_then_set", true), ("push_only", false)] {
        let mut first = None;
        for m in [n, 2 * n, 4 * n] {
            let bytes = log(m, with_sets);
            let mut best = f64::MAX;
            let mut rows = 0usize;
            for _ in 0..3 {
                let t = Instant::now();
                let replay = Replay::from_bytes(&bytes);
                rows = 0;
                for_each_row(&replay, &ctx, |_| rows += 1);
                best = best.min(t.elapsed().as_secs_f64());
            }
            let per_line = best / m as f64;
            let base = *first.get_or_insert(per_line);
            println!(
                "{shape} N={m} ({:.1} MB): {best:.3} s, {:.2} µs a line ({:.2}x the first), {rows} rows",
                bytes.len() as f64 / 1e6,
                per_line * 1e6,
                per_line / base
            );
        }
    }
}
