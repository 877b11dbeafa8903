//! Carved records of the IDE's databases mapped like live ones: a deleted legacy
//! `composerData`'s inline messages, deleted `ItemTable` items of Cursor's keys.
//! Every row pinned exactly, the global database through the in-memory and the paged
//! path.

mod common;

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Row, Store};
use common::render;
use cursor_state::{CursorStore, Paging};
use rusqlite::{Connection, params};

const T0: i64 = 1_780_000_000_000; // 2026-05-28T20:26:40Z
const KV_SCHEMA: &str = "PRAGMA page_size = 4096; PRAGMA secure_delete = OFF;
     CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
     CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";
const GLOBAL: &str = "home/u/.config/Cursor/User/globalStorage/state.vscdb";

fn put(c: &Connection, table: &str, key: &str, value: &serde_json::Value) {
    c.execute(
        &format!("INSERT OR REPLACE INTO {table} VALUES (?1, ?2)"),
        params![key, value.to_string()],
    )
    .unwrap();
}

fn read_rows(path: &Path, rel: &str, paging: Option<Paging>) -> Vec<Row> {
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
/// (batches of one composer and of the whole table); a deleted row's place after the
/// key is not compared (a record that survives twice is named by another copy).
fn global_rows(path: &Path) -> Vec<String> {
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

fn kv_db() -> (tempfile::TempDir, PathBuf, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(GLOBAL);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let c = Connection::open(&path).unwrap();
    c.execute_batch(KV_SCHEMA).unwrap();
    (dir, path, c)
}

/// A copy of a WAL database and its `-wal` as they stand while `c` holds them open
/// (closing would checkpoint the WAL away), under `to`.
fn wal_copy(c: Connection, path: &Path, to: &Path) -> PathBuf {
    let out = to.join(GLOBAL);
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::copy(path, &out).unwrap();
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let mut wal_out = out.as_os_str().to_owned();
    wal_out.push("-wal");
    std::fs::copy(&wal, &wal_out).unwrap();
    drop(c);
    out
}

fn assert_lines(got: &[String], want: &[&str]) {
    let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want.as_slice(), "\n{}", got.join("\n"));
}

const LG: &str = "1e000000-0000-4000-8000-0000000000a1";
const LV: &str = "1f000000-0000-4000-8000-0000000000a2";

/// A deleted legacy chat keeps its messages inside `conversationMap`: they come back
/// from the carved `composerData` as `deleted` user and assistant rows, with the
/// `link:` row of a header no record holds and the context tokens, as a live composer
/// gives them. LG was written twice (the second version adding a reply) and then
/// deleted: the message both versions hold is told once. LV, live, was rewritten: its
/// older version holds its message as the live one does, which gives nothing new.
#[test]
fn a_deleted_legacy_composer_gives_its_inline_messages() {
    let (dir, path, c) = kv_db();
    c.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    let live_key = format!("composerData:{LV}");
    let m = serde_json::json!({"bubbleId": "v1", "type": 1, "text": "kept prompt"});
    put(
        &c,
        "cursorDiskKV",
        &live_key,
        &serde_json::json!({"_v": 1, "composerId": LV, "name": "Live", "createdAt": T0,
            "conversationMap": {"v1": m}}),
    );
    put(
        &c,
        "cursorDiskKV",
        &live_key,
        &serde_json::json!({"_v": 1, "composerId": LV, "name": "Live renamed", "createdAt": T0,
            "conversationMap": {"v1": m}}),
    );
    let q = serde_json::json!({"bubbleId": "lb1", "type": 1, "text": "LEGACY USER PROMPT deleted", "createdAt": T0 + 1_000});
    let a =
        serde_json::json!({"bubbleId": "lb2", "type": 2, "text": "LEGACY ASSISTANT REPLY deleted"});
    let key = format!("composerData:{LG}");
    put(
        &c,
        "cursorDiskKV",
        &key,
        &serde_json::json!({"_v": 1, "composerId": LG, "name": "Old secret chat", "createdAt": T0,
            "lastUpdatedAt": T0 + 1_000, "contextTokensUsed": 10,
            "conversationMap": {"lb1": q},
            "fullConversationHeadersOnly": [{"bubbleId": "lb1", "type": 1}]}),
    );
    put(
        &c,
        "cursorDiskKV",
        &key,
        &serde_json::json!({"_v": 1, "composerId": LG, "name": "Old secret chat", "createdAt": T0,
            "lastUpdatedAt": T0 + 2_000, "contextTokensUsed": 20,
            "conversationMap": {"lb1": q, "lb2": a},
            "fullConversationHeadersOnly": [{"bubbleId": "lb1", "type": 1},
                {"bubbleId": "lb2", "type": 2}, {"bubbleId": "lb3", "type": 2}]}),
    );
    c.execute("DELETE FROM cursorDiskKV WHERE key = ?1", [&key])
        .unwrap();
    let path = wal_copy(c, &path, &dir.path().join("copy"));
    let got = global_rows(&path);
    let lg = format!("cursorDiskKV key=composerData:{LG}");
    let lv = format!("cursorDiskKV key=composerData:{LV}");
    assert_lines(
        &got,
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {LV} |  | system | live | false |  |   | session start: title=\"Live renamed\" format=v1 | {lv}"
            ),
            &format!(" | {LV} |  | user | live | false |  |   | kept prompt | {lv}"),
            &format!(
                "2026-05-28T20:26:40.000000Z | {LG} |  | system | deleted | false |  |   | session start: title=\"Old secret chat\" format=v1 updated=2026-05-28T20:26:41.000000Z | {lg}, wal frame 5 (page 4) cell 1"
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {LG} |  | user | deleted | false |  |   | LEGACY USER PROMPT deleted | {lg}, wal frame 5 (page 4) cell 1"
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {LG} |  | system | deleted | false |  |   | context tokens: used=10 | {lg}, wal frame 5 (page 4) cell 1"
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {LG} |  | system | deleted | false |  |   | session start: title=\"Old secret chat\" format=v1 updated=2026-05-28T20:26:42.000000Z | {lg}, wal frame 7 (page 4) cell 1"
            ),
            &format!(
                " | {LG} |  | assistant | deleted | false |  |   | LEGACY ASSISTANT REPLY deleted | {lg}, wal frame 7 (page 4) cell 1"
            ),
            &format!(
                " | {LG} |  | system | deleted | false |  |   | link: bubble lb3 listed in composerData is missing | {lg}, wal frame 7 (page 4) cell 1"
            ),
            &format!(
                "2026-05-28T20:26:42.000000Z | {LG} |  | system | deleted | false |  |   | context tokens: used=20 | {lg}, wal frame 7 (page 4) cell 1"
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {LV} |  | system | deleted | false |  |   | session start: title=Live format=v1 | {lv}, wal frame 1 (page 4) cell 0"
            ),
        ],
    );
}
