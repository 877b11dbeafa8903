//! VS Code's own test snapshots (`../shared/reference/vscode-snapshots`, JavaScript
//! literals, not JSON) read through the session mapping, legacy shapes included.
//! Skipped, passing, when the reference tree is absent.

mod common;

use std::path::PathBuf;

use common::briefs;
use vscode_chat_log::{SessionContext, rows_from_session};

fn reference() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/reference/vscode-snapshots"
    ));
    p.is_dir().then_some(p)
}

/// Turns a snapshot's JavaScript literal into JSON: bare keys quoted, `undefined` as
/// null, `URI(x)` as the string `x`.
fn js_to_json(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str(&s[start..i.min(b.len())]);
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            let word = &s[start..i];
            let mut j = i;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            if b.get(j) == Some(&b':') {
                out.push_str(&format!("\"{word}\""));
            } else if word == "undefined" {
                out.push_str("null");
            } else if word == "URI" && b.get(i) == Some(&b'(') {
                let end = s[i..].find(')').map_or(b.len(), |e| i + e);
                out.push_str(&format!("\"{}\"", &s[i + 1..end]));
                i = end + 1;
            } else {
                out.push_str(word);
            }
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

fn rows_of(rel: &str) -> Option<Vec<String>> {
    rows_and_requests(rel).map(|(r, _)| r)
}

fn rows_and_requests(rel: &str) -> Option<(Vec<String>, usize)> {
    let path = reference()?.join(rel);
    let text = std::fs::read_to_string(&path).ok()?;
    let value: serde_json::Value =
        serde_json::from_str(&js_to_json(&text)).expect("snapshot converts to JSON");
    let mut ctx = SessionContext::new("vscode", rel);
    ctx.session_id = "snap".into();
    ctx.locator = "snapshot".into();
    let requests = value["requests"].as_array().map_or(0, Vec::len);
    Some((briefs(&rows_from_session(&value, &ctx)), requests))
}

#[test]
fn legacy_v1_session_with_old_variable_data_and_is_canceled() {
    let Some(rows) = rows_of("legacy/Chat_can_deserialize.0.snap") else {
        return;
    };
    assert_eq!(
        rows,
        [
            "system - [snapshot $] live session start: responder=test",
            "user - [snapshot $.requests[0].message] live @ChatProviderWithUsedContext test request",
        ]
    );
}

#[test]
fn legacy_serialized_session_with_two_requests() {
    let Some(rows) = rows_of("legacy/ChatService_can_serialize.1.snap") else {
        return;
    };
    assert_eq!(
        rows,
        [
            "system - [snapshot $] live session start: location=panel",
            "user - [snapshot $.requests[0].message] live @ChatProviderWithUsedContext test request",
            "user - [snapshot $.requests[1].message] live test request 2",
        ]
    );
}

#[test]
fn every_chat_service_snapshot_maps_without_parser_rows() {
    let Some(dir) = reference() else { return };
    let mut seen = 0;
    for entry in std::fs::read_dir(dir.join("chatService"))
        .expect("dir")
        .flatten()
    {
        let rel = format!("chatService/{}", entry.file_name().to_string_lossy());
        let (rows, requests) = rows_and_requests(&rel).expect("readable");
        assert!(
            rows.iter().all(|r| !r.contains("parser:")),
            "{rel}: {rows:?}"
        );
        assert!(rows[0].contains("session start:"), "{rel}: {rows:?}");
        assert_eq!(
            rows.iter().filter(|r| r.starts_with("user ")).count(),
            requests,
            "{rel}"
        );
        seen += 1;
    }
    assert!(seen >= 5);
}

/// A `model/` snapshot (a response's parts as VS Code's `Response` holds them) as the
/// rows of a one-request session; None, with a note, when the reference is absent.
fn response_rows(rel: &str) -> Option<Vec<String>> {
    let Some(dir) = reference() else {
        eprintln!("skipped: ../shared/reference/vscode-snapshots is absent");
        return None;
    };
    let text = std::fs::read_to_string(dir.join(rel)).expect("snapshot present");
    let parts: serde_json::Value =
        serde_json::from_str(&js_to_json(&text)).expect("snapshot converts to JSON");
    let session = serde_json::json!({"sessionId": "snap", "requests": [
        {"requestId": "r", "message": {"text": "q"}, "response": parts}
    ]});
    let ctx = SessionContext::new("vscode", rel);
    Some(briefs(&rows_from_session(&session, &ctx)))
}

/// VS Code's own test of these parts asserts `response.toString()` is
/// `text before https://microsoft.com/ text after` (chatModel.test.ts): one assistant
/// text, the reference rendered in place.
#[test]
fn inline_reference_is_rendered_in_place_as_vs_code_does() {
    let Some(rows) = response_rows("model/Response_inline_reference.0.snap") else {
        return;
    };
    assert_eq!(
        rows,
        [
            "system - [$] live session start: ",
            "user - [$.requests[0].message] live q",
            "assistant - [$.requests[0].response[0]] live text before https://microsoft.com/ text after",
        ]
    );
}

/// Markdown VS Code merged into one part, and two parts it kept apart (different
/// `supportHtml`): its `toString` gives `markdown1markdown2` for both, and so do the rows.
#[test]
fn mergeable_and_unmergeable_markdown_give_one_text() {
    for rel in [
        "model/Response_mergeable_markdown.0.snap",
        "model/Response_not_mergeable_markdown.0.snap",
    ] {
        let Some(rows) = response_rows(rel) else {
            return;
        };
        assert_eq!(
            rows[2..],
            ["assistant - [$.requests[0].response[0]] live markdown1markdown2"],
            "{rel}"
        );
    }
}
