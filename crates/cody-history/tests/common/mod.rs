//! Helpers shared by the fixture tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Row, Store};

/// The shared evidence tree.
pub fn evidence_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

/// A fixture path under the evidence tree.
pub fn fixture(rel: &str) -> PathBuf {
    evidence_root().join(rel)
}

/// Reads a fixture through the store, as the scanner would (host from the layout,
/// `display_path` the path relative to the evidence root).
pub fn read(rel: &str) -> Vec<Row> {
    let host = rel.split('/').next().unwrap_or("").to_string();
    let ctx = FileContext {
        host,
        display_path: rel.to_string(),
        ..FileContext::default()
    };
    let store = cody_history::CodyStore;
    let path = fixture(rel);
    assert!(store.claim(&path).is_some(), "not claimed: {rel}");
    store.read(&path, &ctx, &Evidence::new())
}

/// One row as a compact line: time|zone|session|project|turn|model|tool|tool id|text|line|locator|state.
pub fn render(r: &Row) -> String {
    format!(
        "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
        r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
        r.zone().map(|z| z.as_str()).unwrap_or(""),
        r.session_id,
        r.project_path,
        r.turn_type,
        r.model,
        r.tool_name,
        r.tool_use_id,
        r.text.replace('\n', "\\n"),
        r.source_line.map(|l| l.to_string()).unwrap_or_default(),
        r.source_locator,
        r.record_state
    )
}

/// Every row rendered.
pub fn render_all(rows: &[Row]) -> Vec<String> {
    rows.iter().map(render).collect()
}
