#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Row, Store};
use cursor_state::{CursorStore, Paging};
use rusqlite::Connection;

pub fn evidence_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

pub const ALICE_GLOBAL: &str = "lin-ws01/home/alice/.config/Cursor/User/globalStorage/state.vscdb";
pub const ALICE_WS: &str = "lin-ws01/home/alice/.config/Cursor/User/workspaceStorage/7a1b2c3d4e5f60718293a4b5c6d7e8f9/state.vscdb";
pub const CAROL_GLOBAL: &str =
    "WIN-DESK03/C/Users/carol/AppData/Roaming/Cursor/User/globalStorage/state.vscdb";
pub const CAROL_BACKUP: &str =
    "WIN-DESK03/C/Users/carol/AppData/Roaming/Cursor/User/globalStorage/state.vscdb.backup";
pub const BOB_STORE: &str = "mac-lt02/Users/bob/.cursor/chats/5d41402abc4b2a76b9719d911017c592/7f3e9c1a-5b2d-4e8f-9a6c-0d1e2f3a4b5c/store.db";
pub const BOB_HISTORY: &str =
    "mac-lt02/Users/bob/.cursor/chats/5d41402abc4b2a76b9719d911017c592/prompt_history.json";
pub const BOB_TRANSCRIPT: &str = "mac-lt02/Users/bob/.cursor/projects/Users-bob-src-web-1a2b3c4/agent-transcripts/7f3e9c1a-5b2d-4e8f-9a6c-0d1e2f3a4b5c.jsonl";
pub const BOB_TRANSCRIPT2: &str = "mac-lt02/Users/bob/.cursor/projects/Users-bob-src-web-1a2b3c4/agent-transcripts/c0de0000-1111-2222-3333-444455556666/c0de0000-1111-2222-3333-444455556666.jsonl";
pub const BOB_PERMISSIONS: &str = "mac-lt02/Users/bob/.cursor/permissions.json";
pub const BOB_CLI_CONFIG: &str = "mac-lt02/Users/bob/.cursor/cli-config.json";
pub const BOB_MCP: &str =
    "mac-lt02/Users/bob/.cursor/projects/Users-bob-src-web-1a2b3c4/mcp-approvals.json";
pub const BOB_TRUSTED: &str =
    "mac-lt02/Users/bob/.cursor/projects/Users-bob-src-web-1a2b3c4/.workspace-trusted";
pub const BOB_PROJECT_CLI: &str = "mac-lt02/Users/bob/src/web/.cursor/cli.json";

pub const ALL: &[&str] = &[
    ALICE_GLOBAL,
    ALICE_WS,
    CAROL_GLOBAL,
    CAROL_BACKUP,
    BOB_STORE,
    BOB_HISTORY,
    BOB_TRANSCRIPT,
    BOB_TRANSCRIPT2,
    BOB_PERMISSIONS,
    BOB_CLI_CONFIG,
    BOB_MCP,
    BOB_TRUSTED,
    BOB_PROJECT_CLI,
];

pub fn read(rel: &str) -> Vec<Row> {
    let path = evidence_root().join(rel);
    let ctx = FileContext {
        display_path: rel.to_string(),
        ..FileContext::default()
    };
    cursor_state::CursorStore.read(&path, &ctx, &Evidence::new())
}

/// One line per row: time (`mtime` for rows at the file's modification time), session,
/// project, turn, state, secondary, model, tool, id, text, locator.
pub fn render(r: &Row) -> String {
    let time = if r.text.contains("file mtime)") {
        "mtime".to_string()
    } else {
        r.timestamp.map(|t| t.to_string()).unwrap_or_default()
    };
    format!(
        "{time} | {} | {} | {} | {} | {} | {} | {} {} | {} | {}",
        r.session_id,
        r.project_path,
        r.turn_type.as_str(),
        r.record_state,
        r.secondary,
        r.model,
        r.tool_name,
        r.tool_use_id,
        r.text.replace('\n', "\\n"),
        r.source_locator
    )
}

// What the scenario tests (`scenarios.rs`, `carved_state.rs`) build their databases
// with and read them through.

pub const T0: i64 = 1_780_000_000_000; // 2026-05-28T20:26:40Z
pub const KV_SCHEMA: &str = "PRAGMA page_size = 4096; PRAGMA secure_delete = OFF;
     CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
     CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";
pub const GLOBAL: &str = "home/u/.config/Cursor/User/globalStorage/state.vscdb";

pub fn global_path(dir: &Path) -> PathBuf {
    let path = dir.join(GLOBAL);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    path
}

/// A fresh global `state.vscdb` with the `cursorDiskKV` table, in a temporary folder
/// (kept alive by the returned `TempDir`).
pub fn kv_db() -> (tempfile::TempDir, PathBuf, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let path = global_path(dir.path());
    let c = Connection::open(&path).unwrap();
    c.execute_batch(KV_SCHEMA).unwrap();
    (dir, path, c)
}

/// A copy of a database and its WAL taken while `c` is open (so not checkpointed away).
pub fn wal_copy(c: Connection, path: &Path, to: &Path) -> PathBuf {
    let out = global_path(to);
    std::fs::copy(path, &out).unwrap();
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let mut wal_out = out.as_os_str().to_owned();
    wal_out.push("-wal");
    std::fs::copy(&wal, &wal_out).unwrap();
    drop(c);
    out
}

pub fn read_rows(path: &Path, rel: &str, paging: Option<Paging>) -> Vec<Row> {
    let ctx = FileContext {
        display_path: rel.to_string(),
        ..FileContext::default()
    };
    let ev = Evidence::new();
    match paging {
        None => CursorStore.read(path, &ctx, &ev),
        Some(p) => {
            let mut rows: Vec<Row> = Vec::new();
            CursorStore.read_with(path, &ctx, &ev, &mut rows, p);
            rows
        }
    }
}

/// The rows of a global database in memory, checked equal through the paged path
/// (batches of one composer and of the whole table).
///
/// A deleted record that survives twice (the main file's page the WAL superseded, and a
/// freeblock or unallocated space of the page it rewrote) is named by a different copy
/// in each mode (`tests/paged.rs`), so the place after the key is not compared.
pub fn global_rows(path: &Path) -> Vec<String> {
    let memory: Vec<String> = read_rows(path, GLOBAL, None).iter().map(render).collect();
    let unplaced = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .map(|l| match l.rfind(", ") {
                Some(i) if l.contains(" | deleted | ") => l[..i].to_string(),
                _ => l.clone(),
            })
            .collect()
    };
    for batch in [1, u64::MAX] {
        let paged: Vec<String> = read_rows(path, GLOBAL, Some(Paging::always(batch)))
            .iter()
            .map(render)
            .collect();
        assert_eq!(unplaced(&paged), unplaced(&memory), "paged, batch {batch}");
    }
    memory
}
