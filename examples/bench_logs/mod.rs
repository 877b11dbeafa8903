//! The generated session logs of the replay benchmarks (`replay_bench`,
//! `replay_vs_node`), one function per shape:
//!
//! * [`huge_first_line`]: one kind-0 line of ~3,600 requests with Copilot-like
//!   `result.metadata`, then 1,000 deltas (a compacted session, the usual big file);
//! * [`streaming`]: ~20k lines of about 5 KB: requests pushed, then their answers
//!   streamed by re-sending the growing part through Push with `i`;
//! * [`resend`]: thousands of re-sends through Push with `i: 0` of a whole response,
//!   every part each time (a thinking part, markdown, tool calls), in escape-dense text
//!   (quotes, backslashes, tabs, control characters, non-ASCII, emoji) with surrogate
//!   pairs cut by a JavaScript slice, which `JSON.stringify` writes as `\udXXX`: most
//!   of the file is replaced many times over, and the final state is small.
//!
//! Included with `#[path]` by each bench example (examples share no library).
#![allow(dead_code)]

use serde_json::json;

/// Markdown as assistants write it: prose, lists, code with quotes and newlines.
pub fn prose(seed: usize, len: usize) -> String {
    let words = [
        "the",
        "function",
        "returns",
        "`Result<T, E>`",
        "when",
        "parsing",
        "fails;",
        "see",
        "\"config.toml\"",
        "below.",
        "\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n",
        "- item",
        "and",
        "tests",
        "pass.",
    ];
    let mut s = String::with_capacity(len + 32);
    let mut i = seed;
    while s.len() < len {
        s.push_str(words[i % words.len()]);
        s.push(' ');
        i = i.wrapping_mul(31).wrapping_add(7);
    }
    s
}

pub fn request(i: usize, parts: usize, part_len: usize) -> serde_json::Value {
    let mut response = Vec::new();
    response
        .push(json!({"kind": "thinking", "value": prose(i, part_len / 4), "id": format!("t{i}")}));
    for p in 0..parts {
        response.push(json!({"value": prose(i * 7 + p, part_len), "isTrusted": false, "supportThemeIcons": false}));
        response.push(json!({
            "kind": "toolInvocationSerialized", "toolCallId": format!("call_{i}_{p}"), "toolId": "run_in_terminal",
            "invocationMessage": {"value": "Running `cargo test`"}, "isComplete": true,
            "isConfirmed": {"type": 4, "selectedButton": "allow"}, "source": {"type": "internal", "label": "Built-In"},
            "toolSpecificData": {"kind": "terminal", "commandLine": {"original": "cargo test --all"}, "language": "sh"},
            "resultDetails": {"input": "cargo test --all", "output": [{"type": "embed", "value": prose(i + p, part_len / 2)}]}
        }));
    }
    json!({
        "requestId": format!("request_{i}"), "timestamp": 1_759_400_000_000u64 + i as u64 * 1000,
        "message": {"text": prose(i, 200), "parts": [{"kind": "text", "text": prose(i, 200)}]},
        "variableData": {"variables": [{"id": "file", "name": "main.rs", "value": prose(i, part_len / 2)}]},
        "agent": {"id": "github.copilot.editsAgent", "name": "GitHub Copilot"},
        "modelId": if i % 3 == 0 { "copilot/gpt-4.1" } else { "copilot/claude-sonnet-4" },
        "modeInfo": {"kind": "agent", "telemetryModeId": "agent", "permissionLevel": "default"},
        "response": response, "responseId": format!("response_{i}"),
        "responseTimestamp": 1_759_400_000_500u64 + i as u64 * 1000,
        // Copilot keeps its tool-call rounds and the full tool results in result.metadata,
        // usually the biggest part of a request (vscode-mutation-log.md §4)
        "result": {"metadata": {
            "toolCallRounds": [{"response": prose(i, part_len * 2), "toolCalls": [{"name": "run_in_terminal", "arguments": "{\"command\":\"cargo test\"}"}]}],
            "toolCallResults": {format!("call_{i}"): {"content": [{"value": prose(i + 3, part_len * 5)}]}},
            "modelMessageId": "x"}},
        "modelState": {"value": 1, "completedAt": 1_759_400_000_900u64 + i as u64 * 1000},
        "contentReferences": [], "codeCitations": [], "followups": []
    })
}

/// One kind-0 line of about `size` bytes, then ~1k deltas.
pub fn huge_first_line(size: usize) -> Vec<u8> {
    let per_request = serde_json::to_vec(&request(0, 4, 2000))
        .map(|v| v.len())
        .unwrap_or(20_000);
    let n = size / per_request;
    let requests: Vec<_> = (0..n).map(|i| request(i, 4, 2000)).collect();
    let root = json!({"version": 3, "creationDate": 1_759_400_000_000u64, "initialLocation": "panel",
        "responderUsername": "GitHub Copilot", "sessionId": "bench", "requests": requests,
        "inputState": {"inputText": "", "attachments": []}});
    let mut out = serde_json::to_vec(&json!({"kind": 0, "v": root})).unwrap_or_default();
    out.push(b'\n');
    for d in 0..1000 {
        let r = n - 1 - (d % 10);
        let line = match d % 4 {
            0 => json!({"kind": 1, "k": ["requests", r, "vote"], "v": 1}),
            1 => {
                json!({"kind": 2, "k": ["requests", r, "response"], "v": [{"value": prose(d, 300)}]})
            }
            2 => json!({"kind": 1, "k": ["inputState", "inputText"], "v": prose(d, 40)}),
            _ => json!({"kind": 1, "k": ["requests", r, "result"], "v": {"metadata": {"n": d}}}),
        };
        out.extend(serde_json::to_vec(&line).unwrap_or_default());
        out.push(b'\n');
    }
    out
}

/// ~20k lines: requests pushed, then their responses streamed by re-sending the
/// growing last part through Push with `i`.
pub fn streaming(size: usize) -> Vec<u8> {
    let root = json!({"version": 3, "creationDate": 1_759_400_000_000u64, "initialLocation": "panel",
        "responderUsername": "GitHub Copilot", "sessionId": "bench", "requests": []});
    let mut out = serde_json::to_vec(&json!({"kind": 0, "v": root})).unwrap_or_default();
    out.push(b'\n');
    let mut i = 0;
    let mut lines = 0;
    while out.len() < size {
        let mut req = request(i, 1, 1000);
        req["response"] = json!([]);
        out.extend(
            serde_json::to_vec(&json!({"kind": 2, "k": ["requests"], "v": [req]}))
                .unwrap_or_default(),
        );
        out.push(b'\n');
        lines += 1;
        // stream: each flush re-sends the growing markdown part (from its index on);
        // every sixth flush also completes a tool call, and a new markdown part follows
        let mut at = 0usize;
        let mut seed = i;
        for step in 1..=18usize {
            let text = prose(seed, ((step - 1) % 6 + 1) * 1200);
            let v = if step % 6 == 0 {
                json!([{"value": text}, {"kind": "toolInvocationSerialized", "toolCallId": format!("c{i}_{step}"),
                        "toolId": "copilot_readFile", "invocationMessage": "Reading", "isComplete": true,
                        "isConfirmed": {"type": 1}}])
            } else {
                json!([{"value": text}])
            };
            let line = json!({"kind": 2, "k": ["requests", i, "response"], "i": at, "v": v});
            out.extend(serde_json::to_vec(&line).unwrap_or_default());
            out.push(b'\n');
            lines += 1;
            if step % 6 == 0 {
                at += 2;
                seed += 1;
            }
        }
        out.extend(
            serde_json::to_vec(&json!({"kind": 1, "k": ["requests", i, "modelState"], "v": {"value": 1, "completedAt": 1}}))
                .unwrap_or_default(),
        );
        out.push(b'\n');
        i += 1;
        let _ = lines;
    }
    out
}

/// Pieces of escape-dense chat text: code with quotes and backslashes, tabs, CRLF, a
/// control character, non-ASCII, and emoji (surrogate pairs in JavaScript).
const DENSE: &[&str] = &[
    "let s = \"a\\\\b\";\n",
    "\tif (x) {\r\n",
    "C:\\Users\\alice\\src\\",
    "\"quoted\" ",
    "é ",
    "→ ",
    "中文 ",
    "😀",
    "🦀 ",
    "\u{1}",
    "\u{7f}",
    "</script> ",
    "plain words that need no escape at all ",
    "\\n is not a newline; ",
    "`code` ",
    "\n\n",
];

/// Escape-dense text of about `len` UTF-16 units, as JavaScript holds it.
pub fn dense_units(seed: usize, len: usize) -> Vec<u16> {
    let mut out = Vec::with_capacity(len + 64);
    let mut i = seed;
    while out.len() < len {
        out.extend(DENSE[i % DENSE.len()].encode_utf16());
        i = i.wrapping_mul(2_654_435_761).wrapping_add(11) >> 3;
    }
    out
}

/// Writes UTF-16 text as `JSON.stringify` writes a string: `"` and `\` escaped,
/// `\b \t \n \f \r` and the other control characters as `\u00xx`, a surrogate pair as
/// its character in UTF-8, and a lone surrogate as `\udxxx` (well-formed
/// `JSON.stringify`, ES2019).
pub fn js_string(units: &[u16], out: &mut Vec<u8>) {
    out.push(b'"');
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok('"') => out.extend_from_slice(b"\\\""),
            Ok('\\') => out.extend_from_slice(b"\\\\"),
            Ok('\u{8}') => out.extend_from_slice(b"\\b"),
            Ok('\t') => out.extend_from_slice(b"\\t"),
            Ok('\n') => out.extend_from_slice(b"\\n"),
            Ok('\u{c}') => out.extend_from_slice(b"\\f"),
            Ok('\r') => out.extend_from_slice(b"\\r"),
            Ok(c) if (c as u32) < 0x20 => {
                out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes())
            }
            Ok(c) => {
                let mut b = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
            Err(e) => {
                out.extend_from_slice(format!("\\u{:04x}", e.unpaired_surrogate()).as_bytes())
            }
        }
    }
    out.push(b'"');
}

/// `units[..n]` as `JSON.stringify` writes it (the cut may split a surrogate pair).
fn js_cut(units: &[u16], n: usize) -> String {
    let mut out = Vec::new();
    js_string(&units[..n.min(units.len())], &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The response of request `i` after `step` of its `steps` flushes, as JSON text:
/// a thinking part that grows for the first third, then a markdown part, a terminal
/// tool call (pending, then complete, its output cut at 2,000 UTF-16 units, a split
/// emoji included), and a second markdown part that grows to the end.
fn resend_response(
    i: usize,
    step: usize,
    steps: usize,
    thinking: &[u16],
    md: &[Vec<u16>; 2],
) -> String {
    let third = steps / 3;
    let grow = |units: &[u16], k: usize, of: usize| {
        // cut anywhere, surrogate pairs included, as a JavaScript slice does
        let n = units.len() * k / of.max(1);
        js_cut(units, n)
    };
    let mut parts = Vec::new();
    parts.push(format!(
        r#"{{"kind":"thinking","value":{},"id":"think_{i}","generatedTitle":"Planning the change"}}"#,
        grow(thinking, step.min(third), third)
    ));
    if step > third {
        parts.push(format!(
            r#"{{"value":{},"isTrusted":false,"supportThemeIcons":false,"supportHtml":false}}"#,
            grow(&md[0], (step - third).min(third), third)
        ));
    }
    if step > 2 * third {
        let done = step > 2 * third + 1;
        let output = dense_units(i * 31 + 5, 2_400);
        // a tool's output cut at 2,000 units by the extension: the emoji at the cut
        // leaves a lone high surrogate, which JSON.stringify writes as \ud83d
        let mut cut: Vec<u16> = output[..2_000].to_vec();
        cut.extend("😀".encode_utf16().take(1));
        parts.push(format!(
            r#"{{"kind":"toolInvocationSerialized","toolCallId":"call_{i}","toolId":"run_in_terminal","invocationMessage":{{"value":"Running `cargo test`"}},"pastTenseMessage":{{"value":"Ran `cargo test`"}},"isConfirmed":{{"type":4}},"isComplete":{done},"source":{{"type":"internal","label":"Built-In"}},"toolSpecificData":{{"kind":"terminal","commandLine":{{"original":"cargo test --all"}},"language":"sh"}}{}}}"#,
            if done {
                format!(r#","resultDetails":{{"input":"cargo test --all","output":[{{"type":"embed","isText":true,"value":{}}}]}}"#, js_cut(&cut, cut.len()))
            } else {
                String::new()
            }
        ));
        parts.push(format!(
            r#"{{"value":{},"isTrusted":false,"supportThemeIcons":false,"supportHtml":false}}"#,
            grow(&md[1], step - 2 * third, steps - 2 * third)
        ));
    }
    format!("[{}]", parts.join(","))
}

/// About `size` bytes of thousands of whole-response re-sends through Push with `i: 0`
/// (see the module docs): 120 flushes per request, each re-sending every part.
pub fn resend(size: usize) -> Vec<u8> {
    let steps = 120;
    let root = json!({"version": 3, "creationDate": 1_759_400_000_000u64, "initialLocation": "panel",
        "responderUsername": "GitHub Copilot", "sessionId": "bench-resend", "requests": []});
    let mut out = serde_json::to_vec(&json!({"kind": 0, "v": root})).unwrap_or_default();
    out.push(b'\n');
    let mut i = 0;
    while out.len() < size {
        let mut req = request(i, 1, 400);
        req["response"] = json!([]);
        req["modelState"] = json!({"value": 0});
        out.extend(
            serde_json::to_vec(&json!({"kind": 2, "k": ["requests"], "v": [req]}))
                .unwrap_or_default(),
        );
        out.push(b'\n');
        let thinking = dense_units(i, 1_500);
        let md = [dense_units(i + 1, 3_000), dense_units(i + 2, 4_000)];
        for step in 1..=steps {
            out.extend_from_slice(
                format!(
                    r#"{{"kind":2,"k":["requests",{i},"response"],"i":0,"v":{}}}"#,
                    resend_response(i, step, steps, &thinking, &md)
                )
                .as_bytes(),
            );
            out.push(b'\n');
        }
        out.extend(
            serde_json::to_vec(&json!({"kind": 1, "k": ["requests", i, "modelState"], "v": {"value": 1, "completedAt": 1_759_400_000_900u64 + i as u64}}))
                .unwrap_or_default(),
        );
        out.push(b'\n');
        i += 1;
    }
    out
}
