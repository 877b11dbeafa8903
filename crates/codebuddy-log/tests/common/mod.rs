//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Row, Store};
use codebuddy_log::CodeBuddyStore;

/// The project's evidence tree.
pub fn evidence_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

pub const LIN_PROJECT: &str = "lin-ws01/home/alice/.codebuddy/projects/home-alice-src-shop";
pub const LIN_SESSION: &str = "3f6c2a1e-8b4d-4e9a-9c1f-2d7b5e8a4c10";
pub const MAC_SESSION: &str = "mac-lt02/Users/bob/.workbuddy/projects/Users-bob-Documents-q3-report/8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f.jsonl";
pub const WIN_SESSION: &str = "WIN-DESK03/C/Users/carol/.codebuddy/projects/c-Users-carol-src-app/c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.jsonl";

pub fn lin_session() -> String {
    format!("{LIN_PROJECT}/{LIN_SESSION}.jsonl")
}

pub fn lin_subagent() -> String {
    format!("{LIN_PROJECT}/{LIN_SESSION}/subagents/agent-5e1f0c2a.jsonl")
}

/// Reads a fixture file (relative to the evidence root) as the scanner would, with the
/// relative path as its display path.
pub fn read(rel: &str) -> Vec<Row> {
    read_with(rel, &Evidence::new())
}

pub fn read_with(rel: &str, evidence: &Evidence) -> Vec<Row> {
    let path = evidence_root().join(rel);
    let ctx = FileContext {
        display_path: rel.to_string(),
        ..FileContext::default()
    };
    let store = CodeBuddyStore;
    assert!(store.claim(&path).is_some(), "{rel} not claimed");
    store.read(&path, &ctx, evidence)
}

/// One row as a line: `line|time|turn|session|project|model|tool|tool id|locator|state|file|text`,
/// where `file` is the source file's name only and the text is Debug-quoted.
pub fn render(row: &Row) -> String {
    let file = row.source_file.rsplit(['/', '\\']).next().unwrap_or("");
    format!(
        "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{:?}",
        row.source_line.map(|l| l.to_string()).unwrap_or_default(),
        row.timestamp.map(|t| t.to_string()).unwrap_or_default(),
        row.turn_type,
        row.session_id,
        row.project_path,
        row.model,
        row.tool_name,
        row.tool_use_id,
        row.source_locator,
        row.record_state,
        file,
        row.text
    )
}

/// Compares rendered rows, printing the actual rows in a pasteable form on failure.
pub fn assert_rows(rows: &[Row], expected: &[&str]) {
    let got: Vec<String> = rows.iter().map(render).collect();
    if got != expected {
        let mut listing = String::new();
        for g in &got {
            listing.push_str(&format!("        r#\"{g}\"#,\n"));
        }
        for (i, (g, e)) in got.iter().zip(expected).enumerate() {
            if g != e {
                panic!("row {i} differs:\n  got:      {g}\n  expected: {e}\nall rows:\n{listing}");
            }
        }
        panic!(
            "{} rows, expected {}:\n{listing}",
            got.len(),
            expected.len()
        );
    }
}
