//! Measures replay + rows on a log of real-shape replies, and prints figures:
//!
//! ```text
//! cargo run --release -p vscode-chat-log --example assembly_bench -- [MB]
//! ```
//!
//! The log (default 64 MB) is the shape of a 1.118 agent session: each request's reply
//! streams markdown cut by inline references, an edit (fence, `codeblockUri`,
//! `textEditGroup`, fence), a whitespace-only thinking part, an edit tool and an
//! `undoStop`; at completion `modelState.completedAt` and a `result` whose `metadata`
//! holds Copilot's tool-call rounds (about half the bytes). It is measured twice: with
//! `result.metadata.resolvedModel` (so the rows parse each `result` to find it) and
//! without (the text search rules the `result` out unparsed). Each run replays the log
//! and lends every row (`for_each_row`, as a writer uses them), five times, keeping the
//! fastest; peak RSS is the process's `VmHWM` (the log, read whole, included).

use std::time::Instant;

use serde_json::json;
use vscode_chat_log::Replay;
use vscode_chat_log::rows::{SessionContext, for_each_row};

fn log(megabytes: usize, resolved: bool) -> Vec<u8> {
    let target = megabytes << 20;
    let file = |p: &str| json!({"$mid": 1, "fsPath": p, "external": format!("file://{p}"), "path": p, "scheme": "file"});
    let mut out = Vec::with_capacity(target + (1 << 20));
    let head = json!({"kind": 0, "v": {"version": 3, "creationDate": 1_761_900_000_000u64,
        "sessionId": "bench", "requests": [], "responderUsername": "GitHub Copilot"}});
    out.extend_from_slice(head.to_string().as_bytes());
    out.push(b'\n');
    let mut i = 0u64;
    while out.len() < target {
        let css = format!("/home/u/src/app/styles/m{i}.css");
        let ts = 1_761_900_010_000u64 + i * 60_000;
        let req = json!({"kind": 2, "k": ["requests"], "v": [{"requestId": format!("r{i}"), "timestamp": ts,
            "message": {"text": format!("question {i}: why is the bar still blue?"), "parts": []},
            "modelId": "copilot/auto", "modeInfo": {"kind": "agent", "telemetryModeId": "agent"},
            "response": [], "modelState": {"value": 0}, "timeSpentWaiting": 0}]});
        let reply = json!({"kind": 2, "k": ["requests", i, "response"], "v": [
            {"kind": "thinking", "value": " "},
            {"value": "The "}, {"kind": "inlineReference", "inlineReference": file(&css)},
            {"value": " file takes `primary` from "},
            {"kind": "inlineReference", "inlineReference": {"name": "colors", "kind": 12,
                "location": {"uri": file("/home/u/src/app/colors.toml"), "range": {"startLineNumber": 3}}}},
            {"value": " and overrides it. ".repeat(8) + "Here is the fix:\n\n```css\n"},
            {"kind": "codeblockUri", "uri": file(&css), "isEdit": true},
            {"kind": "textEditGroup", "uri": file(&css), "edits": [[{"text": "  background: var(--surface);\n".repeat(6),
                "range": {"startLineNumber": 12, "startColumn": 1, "endLineNumber": 18, "endColumn": 1}}]], "done": true},
            {"value": "\n```\n"}, {"value": "\nReload the theme to see it."},
            {"kind": "toolInvocationSerialized", "toolCallId": format!("c{i}"), "toolId": "copilot_replaceString",
                "invocationMessage": "Editing", "pastTenseMessage": "Edited", "isComplete": true, "isConfirmed": {"type": 1},
                "toolSpecificData": {"kind": "input", "rawInput": {"filePath": css, "oldString": "blue", "newString": "var(--surface)"}}},
            {"kind": "undoStop", "id": format!("u{i}")},
            {"value": "Done."}
        ]});
        let mut metadata = json!({"modelMessageId": format!("m{i}"),
            "toolCallRounds": (0..6).map(|k| json!({"response": "Let me read the file. ".repeat(30),
                "toolCalls": [{"name": "read_file", "id": format!("t{i}.{k}"), "arguments": "{\"filePath\":\"/home/u/src/app/styles/m.css\"}"}]})).collect::<Vec<_>>(),
            "toolCallResults": {"t": {"content": [{"value": "body { color: blue; }\n".repeat(40)}]}}});
        if resolved {
            metadata["resolvedModel"] = json!("gpt-5-mini");
        }
        let done = json!({"kind": 1, "k": ["requests", i, "modelState"], "v": {"value": 1, "completedAt": ts + 13_512}});
        let result = json!({"kind": 1, "k": ["requests", i, "result"], "v": {"timings": {"totalElapsed": 13512}, "metadata": metadata}});
        for line in [req, reply, done, result] {
            out.extend_from_slice(line.to_string().as_bytes());
            out.push(b'\n');
        }
        i += 1;
    }
    out
}

/// The process's peak resident set (`VmHWM`), in MiB.
fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(64);
    let ctx = SessionContext::new("vscode", "bench.jsonl");
    for resolved in [true, false] {
        let bytes = log(mb, resolved);
        let size = bytes.len() as f64 / 1e6;
        let mut best = f64::MAX;
        let mut rows = 0usize;
        let mut text = 0usize;
        for _ in 0..5 {
            let t = Instant::now();
            let replay = Replay::from_bytes(&bytes);
            rows = 0;
            text = 0;
            for_each_row(&replay, &ctx, |r| {
                rows += 1;
                text += r.text.len();
            });
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{size:.1} MB, resolvedModel {}: replay + rows {:.3} s ({:.0} MB/s), {rows} rows ({:.1} MB of text), peak RSS so far {:.0} MiB",
            if resolved { "present" } else { "absent " },
            best,
            size / best,
            text as f64 / 1e6,
            peak_rss_mib()
        );
    }
}
