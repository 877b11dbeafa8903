//! Carved values cut short: a deleted bubble larger than a page whose freed overflow
//! pages new values took gives `parser: carved value for <key> is incomplete (<n> of
//! <m> bytes)`, deleted, at the record's place, and nothing decoded from its surviving
//! start (no guessed text, no `not valid JSON` row), through the in-memory and the
//! paged path; the same for a CLI `blobs` record.

mod common;

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Row, Store};
use common::render;
use cursor_state::{CursorStore, Paging};
use rusqlite::{Connection, params};

const CID: &str = "0a1b2c3d-9999-4000-8000-00000000cafe";

/// A bubble's JSON of about 12 KB (three 4096-byte pages), its text unique to it.
fn bubble(i: i64, tag: &str) -> String {
    let text = (0..400)
        .map(|k| format!("{tag} line {k} of bubble {i}"))
        .collect::<Vec<_>>()
        .join(" ");
    serde_json::json!({"_v": 2, "bubbleId": format!("b{i}"), "type": 1, "text": text}).to_string()
}

/// A CLI message blob of about 12 KB, its text unique to it.
fn message(i: i64, tag: &str) -> String {
    let text = (0..400)
        .map(|k| format!("{tag} line {k} of blob {i}"))
        .collect::<Vec<_>>()
        .join(" ");
    serde_json::json!({"role": "user", "content": text}).to_string()
}

fn key(i: i64) -> String {
    format!("bubbleId:{CID}:b{i}")
}

/// Thirty bubbles, every third deleted, then six new large values that take the freed
/// overflow pages (the deleted bubbles' chains are cut).
fn build_global(dir: &Path) -> PathBuf {
    let db = dir.join(".config/Cursor/User/globalStorage");
    std::fs::create_dir_all(&db).unwrap();
    let path = db.join("state.vscdb");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 4096; PRAGMA secure_delete = OFF;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    let tx = conn.unchecked_transaction().unwrap();
    for i in 0..30 {
        tx.execute(
            "INSERT INTO cursorDiskKV VALUES (?1, ?2)",
            params![key(i), bubble(i, "old")],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    conn.execute("DELETE FROM cursorDiskKV WHERE rowid % 3 = 1", [])
        .unwrap();
    for i in 100..106 {
        conn.execute(
            "INSERT INTO cursorDiskKV VALUES (?1, ?2)",
            params![format!("other:{i}"), bubble(i, "new")],
        )
        .unwrap();
    }
    drop(conn);
    path
}

fn read_with(path: &Path, paging: Option<Paging>) -> Vec<Row> {
    let ctx = FileContext::default();
    let evidence = Evidence::new();
    match paging {
        None => CursorStore.read(path, &ctx, &evidence),
        Some(p) => {
            let mut rows: Vec<Row> = Vec::new();
            CursorStore.read_with(path, &ctx, &evidence, &mut rows, p);
            rows
        }
    }
}

/// The rendered rows of every path: in memory, and paged with batches of one composer,
/// of 4096 bytes and of the whole table.
fn every_path(path: &Path) -> Vec<Vec<String>> {
    let mut all = vec![read_with(path, None)];
    for batch in [1, 4096, u64::MAX] {
        all.push(read_with(path, Some(Paging::always(batch))));
    }
    all.iter()
        .map(|rows| rows.iter().map(render).collect())
        .collect()
}

#[test]
fn a_bubble_whose_overflow_chain_was_reused_is_told_by_size_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_global(dir.path());
    let full = bubble(0, "old").len();
    assert_eq!(full, 9932);
    let want = format!(
        " | {CID} |  | system | deleted | false |  |   | parser: carved value for {k} is incomplete (1748 of {full} bytes) | cursorDiskKV key={k}, freeblock at page 12 offset 2288, partial: column 1 missing",
        k = key(0)
    );
    let paths = every_path(&path);
    for (i, lines) in paths.iter().enumerate() {
        assert_eq!(lines, &paths[0], "path {i}");
        let parser: Vec<&String> = lines.iter().filter(|l| l.contains("parser:")).collect();
        assert_eq!(parser, [&want], "path {i}");
        // two deleted bubbles came back whole; nothing of bubble 0's text, no JSON error
        let deleted_users = lines
            .iter()
            .filter(|l| l.contains(" | user | deleted | "))
            .count();
        assert_eq!(deleted_users, 2, "path {i}");
        assert!(
            !lines
                .iter()
                .any(|l| l.contains("of bubble 0 ") || l.contains("not valid JSON")),
            "path {i}"
        );
    }
    // the rows as the scanner gets them: deleted, no text guessed
    let rows = read_with(&path, None);
    let r = rows
        .iter()
        .find(|r| r.text.starts_with("parser: carved value"))
        .unwrap();
    assert_eq!(r.record_state, chat_rows::RecordState::Deleted);
    assert_eq!(r.session_id, CID);
}

/// A CLI `store.db`: thirty blobs of about 12 KB, every third deleted, then six new ones
/// that take the freed overflow pages.
fn build_store(dir: &Path) -> PathBuf {
    let db = dir.join(
        ".cursor/chats/5d41402abc4b2a76b9719d911017c592/7f3e9c1a-0000-4e8f-9a6c-0d1e2f3a4b5c",
    );
    std::fs::create_dir_all(&db).unwrap();
    let path = db.join("store.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 4096; PRAGMA secure_delete = OFF;
         CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
         CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);",
    )
    .unwrap();
    let tx = conn.unchecked_transaction().unwrap();
    for i in 0..30 {
        tx.execute(
            "INSERT INTO blobs VALUES (?1, ?2)",
            params![format!("{i:064x}"), message(i, "old").into_bytes()],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    conn.execute("DELETE FROM blobs WHERE rowid % 3 = 1", [])
        .unwrap();
    for i in 100..106 {
        conn.execute(
            "INSERT INTO blobs VALUES (?1, ?2)",
            params![format!("{i:064x}"), message(i, "new").into_bytes()],
        )
        .unwrap();
    }
    drop(conn);
    path
}

#[test]
fn a_cli_blob_whose_overflow_chain_was_reused_is_told_by_size_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_store(dir.path());
    let session = "7f3e9c1a-0000-4e8f-9a6c-0d1e2f3a4b5c";
    // (blob, bytes that survive in the local part, where)
    let cut = [
        (0, 933, "freeblock at page 16 offset 3086"),
        (9, 933, "freeblock at page 26 offset 2076"),
        (15, 1333, "freeblock at page 43 offset 2686"),
        (21, 1333, "freeblock at page 58 offset 2686"),
        (27, 1333, "freeblock at page 73 offset 2686"),
    ];
    let want: Vec<String> = cut
        .iter()
        .map(|&(i, n, at)| {
            let id = format!("{i:064x}");
            let m = message(i, "old").len();
            format!(
                " | {session} |  | system | deleted | false |  |   | parser: carved value for {id} is incomplete ({n} of {m} bytes) | blobs id={id}, {at}, partial: column 1 missing"
            )
        })
        .collect();
    assert_eq!(message(0, "old").len(), 9117);
    let rows = read_with(&path, None);
    let lines: Vec<String> = rows.iter().map(render).collect();
    let parser: Vec<&String> = lines.iter().filter(|l| l.contains("parser:")).collect();
    assert_eq!(parser, want.iter().collect::<Vec<_>>());
    // one deleted blob came back whole; nothing of the cut ones' text
    let deleted: Vec<&Row> = rows
        .iter()
        .filter(|r| r.record_state == chat_rows::RecordState::Deleted)
        .collect();
    assert_eq!(deleted.len(), 6);
    for (i, ..) in cut {
        let start = format!("old line 0 of blob {i} ");
        assert!(!rows.iter().any(|r| r.text.contains(&start)), "blob {i}");
    }
    assert!(
        deleted
            .iter()
            .any(|r| r.text.starts_with("old line 0 of blob 6 "))
    );
}
