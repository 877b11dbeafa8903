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
