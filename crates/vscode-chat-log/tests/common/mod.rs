//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Row, Store};
use vscode_chat_log::ChatLogStore;

/// The project's evidence tree.
pub fn evidence_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

/// Every session log (`.jsonl` in a `chatSessions`, `emptyWindowChatSessions` ...
/// folder) under the fixture tree, sorted.
pub fn fixture_logs() -> Vec<PathBuf> {
    fn under(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                under(&p, out);
            } else if p.extension().is_some_and(|x| x == "jsonl")
                && p.parent()
                    .and_then(Path::file_name)
                    .is_some_and(|d| d.to_string_lossy().to_lowercase().ends_with("chatsessions"))
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    under(&evidence_root(), &mut out);
    out.sort();
    out
}

/// Reads one fixture file through the store, as the scanner would.
pub fn read(rel: &str, product: Option<&str>) -> Vec<Row> {
    let path = evidence_root().join(rel);
    assert!(path.exists(), "missing fixture {rel}");
    let ctx = FileContext {
        product: product.map(str::to_string),
        display_path: rel.to_string(),
        ..FileContext::default()
    };
    ChatLogStore.read(&path, &ctx, &Evidence::new())
}

/// A row in one line: turn type, line, locator, state, tool id, text.
pub fn brief(r: &Row) -> String {
    format!(
        "{} {} [{}] {} {}{}",
        r.turn_type,
        r.source_line.map_or("-".to_string(), |l| l.to_string()),
        r.source_locator,
        r.record_state,
        if r.tool_use_id.is_empty() {
            String::new()
        } else {
            format!("<{}> ", r.tool_use_id)
        },
        r.text
    )
}

/// Every row in brief; prints them when `DUMP_ROWS` is set (to write expectations).
pub fn briefs(rows: &[Row]) -> Vec<String> {
    let b: Vec<String> = rows.iter().map(brief).collect();
    if std::env::var_os("DUMP_ROWS").is_some() {
        for s in &b {
            println!("{s:?},");
        }
    }
    b
}

/// The file's modification time, as the rows timed by it carry.
pub fn mtime(rel: &str) -> Option<chat_rows::Timestamp> {
    Evidence::new().modified(&evidence_root().join(rel))
}
