//! Measures decoding a large history value and mapping it to rows, and prints figures:
//!
//! ```text
//! cargo run --release -p cody-history --example bench_history -- [MB]
//! ```
//!
//! The value is synthetic (chats of four interactions with tool calls and context
//! files), sized to the given number of megabytes (default 50, the size at which Cody
//! itself warns). A second run decodes the same value cut in its middle, which forces
//! the structural, interaction-by-interaction recovery path for the cut chat.

use std::time::Instant;

use chat_rows::FileContext;
use serde_json::json;

fn synthetic(megabytes: usize) -> Vec<u8> {
    let target = megabytes << 20;
    let mut out = Vec::with_capacity(target + 4096);
    out.extend_from_slice(br#"{"https://sourcegraph.com/-bench-user":{"chat":{"#);
    let mut n = 0u64;
    while out.len() < target {
        if n > 0 {
            out.push(b',');
        }
        let secs = 1_700_000_000 + n;
        let id = time::OffsetDateTime::from_unix_timestamp(secs as i64)
            .map(|t| {
                t.format(&time::format_description::well_known::Rfc2822)
                    .unwrap_or_default()
            })
            .unwrap_or_default();
        let interaction = |i: u64| {
            json!({
                "humanMessage": {"speaker": "human", "text": format!("question {n}.{i}: why does the build fail on module {i}?"), "intent": "agentic",
                    "contextFiles": [{"type": "file", "uri": {"$mid": 1, "fsPath": format!("/home/u/proj/src/mod{i}.rs"), "path": format!("/home/u/proj/src/mod{i}.rs"), "scheme": "file"}}]},
                "assistantMessage": {"speaker": "assistant", "model": "anthropic::2024-10-22::claude-sonnet-4-latest", "text": "Let me look. ".repeat(20),
                    "content": [{"type": "tool_call", "tool_call": {"id": format!("toolu_{n}_{i}"), "name": "get_file", "arguments": "{\"path\":\"src/lib.rs\"}"}}]}
            })
        };
        let chat = json!({"id": id, "lastInteractionTimestamp": id, "interactions": (0..4).map(interaction).collect::<Vec<_>>()});
        out.extend_from_slice(serde_json::to_string(&id).unwrap().as_bytes());
        out.push(b':');
        out.extend_from_slice(chat.to_string().as_bytes());
        n += 1;
    }
    out.extend_from_slice(b"}}}");
    out
}

fn measure(label: &str, bytes: &[u8]) {
    let start = Instant::now();
    let rows = cody_history::history_rows_from_bytes(bytes, "bench", &FileContext::default());
    let secs = start.elapsed().as_secs_f64();
    let parser = rows.iter().filter(|r| r.is_parser()).count();
    println!(
        "{label}: {:.1} MB in {:.2} s ({:.0} MB/s), {} rows, {parser} parser row(s)",
        bytes.len() as f64 / 1048576.0,
        secs,
        bytes.len() as f64 / 1048576.0 / secs,
        rows.len()
    );
}

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let value = synthetic(mb);
    measure("whole value", &value);
    measure("value cut in the middle", &value[..value.len() / 2]);
    if let Some(peak) = chat_rows::dirty::peak_rss_bytes() {
        println!("peak RSS: {:.0} MB", peak as f64 / 1048576.0);
    }
}
