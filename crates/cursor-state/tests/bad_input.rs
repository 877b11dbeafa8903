//! Damaged and oversized input: exact rows, and the evidence left as it was.

mod common;

use chat_rows::{Evidence, FileContext, Store};
use common::*;
use cursor_state::CursorStore;

/// A workspace database over the evidence size cap is read page by page (through
/// `state-vscdb`'s paged path): the same rows as without the cap.
#[test]
fn a_workspace_database_over_the_cap_is_read_page_by_page() {
    let path = evidence_root().join(ALICE_WS);
    let capped = Evidence::new().max_size(4096);
    let rows = CursorStore.read(&path, &FileContext::default(), &capped);
    let whole = CursorStore.read(&path, &FileContext::default(), &Evidence::new());
    assert!(rows.len() > 1, "{rows:#?}");
    assert!(
        !rows.iter().any(|r| r.text.starts_with("parser:")),
        "{rows:#?}"
    );
    assert_eq!(rows, whole);
}

#[test]
fn not_sqlite_and_bad_meta() {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("Cursor/User/globalStorage/state.vscdb");
    std::fs::create_dir_all(g.parent().unwrap()).unwrap();
    std::fs::write(&g, b"{\"hello\": \"world\"}").unwrap();
    let rows = CursorStore.read(&g, &FileContext::default(), &Evidence::new());
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].text,
        "parser: state.vscdb unreadable: not an SQLite database: the file starts with \"{\\\"hello\\\": \\\"world\""
    );

    // a store.db whose meta is not hex
    let s = dir.path().join(".cursor/chats/h/agent-x/store.db");
    std::fs::create_dir_all(s.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&s).unwrap();
    conn.execute_batch(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
         CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);
         INSERT INTO meta VALUES ('0', 'zz');
         INSERT INTO blobs VALUES ('aa', x'0a0201');",
    )
    .unwrap();
    drop(conn);
    let rows = CursorStore.read(&s, &FileContext::default(), &Evidence::new());
    let texts: Vec<&str> = rows.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "parser: store.db meta is not hex-encoded JSON (hex at byte 0: byte 0x7a is not a hex digit)",
            "parser: blob aa is not a message (protobuf at byte 0: length 2 but 1 bytes remain)",
        ]
    );
    assert!(rows.iter().all(|r| r.session_id == "agent-x"));
}

#[test]
fn bad_json_value_is_a_parser_row() {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("Cursor/User/globalStorage/state.vscdb");
    std::fs::create_dir_all(g.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&g).unwrap();
    conn.execute_batch(
        "CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         INSERT INTO cursorDiskKV VALUES ('composerData:c', '{\"name\": ');",
    )
    .unwrap();
    drop(conn);
    let rows = CursorStore.read(&g, &FileContext::default(), &Evidence::new());
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].text,
        "parser: cursorDiskKV value for composerData:c is not valid JSON (EOF while parsing a value at line 1 column 9)"
    );
    assert_eq!(rows[0].source_locator, "cursorDiskKV key=composerData:c");
}

#[test]
fn evidence_is_unchanged() {
    let root = evidence_root();
    let before = chat_rows::snapshot_tree(&root).unwrap();
    for rel in ALL {
        read(rel);
    }
    assert_eq!(chat_rows::snapshot_tree(&root).unwrap(), before);
}

/// A chat's `store.db` that cannot be opened still has its `meta.json` read: the
/// `parser:` row, then the chat's `session start:` and `model:` rows (before, the title,
/// times and model were lost with the store).
#[test]
fn an_unreadable_store_keeps_its_meta_json() {
    let dir = tempfile::tempdir().unwrap();
    let chat = dir.path().join(".cursor/chats/abc/agent-7");
    std::fs::create_dir_all(&chat).unwrap();
    std::fs::write(chat.join("store.db"), b"not a database at all").unwrap();
    std::fs::write(
        chat.join("meta.json"),
        br#"{"schemaVersion":2,"name":"Rename router","cwd":"/home/u/web","createdAtMs":1780000000000,"updatedAtMs":1780000060000,"isSubagent":false,"model":"gpt-5","blobEncryptionKey":"SECRET-KEY"}"#,
    )
    .unwrap();
    let rows = CursorStore.read(
        &chat.join("store.db"),
        &FileContext::default(),
        &Evidence::new(),
    );
    let got: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}|{}|{}",
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.session_id,
                r.project_path,
                r.model,
                r.source_locator,
                r.text
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "|agent-7|/home/u/web|||parser: store.db unreadable: not an SQLite database: the file starts with \"not a database a\"",
            "2026-05-28T20:26:40.000000Z|agent-7|/home/u/web||meta.json|session start: title=\"Rename router\" cwd=/home/u/web created=2026-05-28T20:26:40.000000Z updated=2026-05-28T20:27:40.000000Z subagent=false schema=2",
            "2026-05-28T20:26:40.000000Z|agent-7|/home/u/web|gpt-5|meta.json|model: gpt-5",
        ]
    );
    assert!(!got.iter().any(|r| r.contains("SECRET")));
}
