//! What the integration tests share: the fixture paths, and rows rendered one line each.
#![allow(dead_code)]

use std::path::PathBuf;

use chat_rows::{Evidence, Row, Timestamp};

pub const LIN_HOME: &str = "lin-ws01/home/alice/.claude";
pub const LIN_PROJECT: &str = "lin-ws01/home/alice/.claude/projects/-home-alice-src-api";
pub const SID_A: &str = "7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e";
pub const SID_C: &str = "c9d8e7f6-1a2b-4c3d-8e5f-6a7b8c9d0e1f";
pub const WIN_HOME: &str = "WIN-DESK03/C/Users/carol/.claude";
pub const WIN_SESSION: &str = "WIN-DESK03/C/Users/carol/.claude/projects/C--Users-carol-src-app/e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b.jsonl";

/// A file of the project's evidence tree.
pub fn fixture_path(rel: &str) -> PathBuf {
    [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "fixtures",
        "evidence",
        rel,
    ]
    .iter()
    .collect()
}

/// The bytes of a fixture file.
pub fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(fixture_path(rel)).expect("fixture file")
}

pub fn lin_session() -> String {
    format!("{LIN_PROJECT}/{SID_A}.jsonl")
}

pub fn lin_subagent() -> String {
    format!("{LIN_PROJECT}/{SID_A}/subagents/agent-a1b2c3d4.jsonl")
}

pub fn orphan_subagent() -> String {
    format!("{LIN_PROJECT}/{SID_C}/subagents/agent-c0ffee00.jsonl")
}

/// Every row of a fixture file, read with its relative path as `source_file`.
pub fn read(rel: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    claude_code_log::read_file(&fixture_path(rel), rel, &Evidence::new(), &mut rows);
    rows
}

/// `line|time|turn|session|project|branch|model|tool|tool id|locator|state|file|text`,
/// the file by its name only, the text Debug-quoted, a time equal to `mtime` as `mtime`.
pub fn line_of(row: &Row, mtime: Option<Timestamp>) -> String {
    let time = match row.timestamp {
        None => String::new(),
        t if t == mtime => "mtime".into(),
        Some(t) => t.to_string(),
    };
    let columns = [
        row.source_line.map_or_else(String::new, |l| l.to_string()),
        time,
        row.turn_type.to_string(),
        row.session_id.clone(),
        row.project_path.clone(),
        row.git_branch.clone(),
        row.model.clone(),
        row.tool_name.clone(),
        row.tool_use_id.clone(),
        row.source_locator.clone(),
        row.record_state.to_string(),
        row.source_file
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or("")
            .to_string(),
        format!("{:?}", row.text),
    ];
    columns.join("|")
}

/// Checks every row of a fixture file against its pinned lines.
pub fn assert_rows(rel: &str, expected: &[&str]) {
    let mtime = Evidence::new().modified(&fixture_path(rel));
    let got: Vec<String> = read(rel).iter().map(|r| line_of(r, mtime)).collect();
    let listing: String = got.iter().map(|g| format!("r#\"{g}\"#,\n")).collect();
    assert_eq!(got, expected, "{rel}, all rows:\n{listing}");
}
