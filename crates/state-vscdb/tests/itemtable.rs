//! The ItemTable API on small databases written here.

use chat_rows::RecordState;
use rusqlite::Connection;
use state_vscdb::{Error, StateDb};

fn build(encoding: &str, sql: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("state.vscdb");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(&format!(
        "PRAGMA encoding = '{encoding}';
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         {sql}"
    ))
    .unwrap();
    drop(conn);
    std::fs::read(&p).unwrap()
}

const ITEMS: &str = "INSERT INTO ItemTable VALUES ('a.text', '{\"x\":1}');
     INSERT INTO ItemTable VALUES ('b.blob', CAST('[\"y\"]' AS BLOB));
     INSERT INTO ItemTable VALUES ('secret://{\"extensionId\":\"x\",\"key\":\"token\"}', 'v10-encrypted');
     INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', 'eyJhbGciOi');
     INSERT INTO ItemTable VALUES ('c.broken', '{\"x\":');
     INSERT INTO ItemTable VALUES ('d.utf16blob', X'fffe5b0031005d00');";

#[test]
fn items_text_blob_utf16_and_no_secrets() {
    for enc in ["UTF-8", "UTF-16le", "UTF-16be"] {
        let db = StateDb::from_bytes(&build(enc, ITEMS), None).unwrap();
        let keys: Vec<&str> = db.items().iter().map(|i| i.key.as_str()).collect();
        assert_eq!(
            keys,
            ["a.text", "b.blob", "c.broken", "d.utf16blob"],
            "{enc}"
        );
        assert_eq!(db.get("a.text"), Some("{\"x\":1}"));
        assert_eq!(db.get("b.blob"), Some("[\"y\"]"));
        assert_eq!(db.get("d.utf16blob"), Some("[1]"));
        assert_eq!(
            db.json("b.blob").unwrap().unwrap(),
            serde_json::json!(["y"])
        );
        assert!(db.get("cursorAuth/accessToken").is_none());
        assert!(db.items().iter().all(|i| !i.value.contains("encrypted")));
        let item = db.item("a.text").unwrap();
        assert_eq!(item.state, RecordState::Live);
        assert_eq!(item.rowid, Some(1));
        assert_eq!(item.location, "ItemTable rowid 1");
        assert_eq!(item.locator(), "ItemTable key=a.text");
        assert!(db.json("missing").is_none());
        assert_eq!(db.problems(), &[]);
    }
}

#[test]
fn json_error_row_has_the_spec_text() {
    let db = StateDb::from_bytes(&build("UTF-8", ITEMS), None).unwrap();
    let err = db.json("c.broken").unwrap().unwrap_err();
    let row = state_vscdb::not_json_row(
        "vscode",
        "User/globalStorage/state.vscdb",
        db.item("c.broken").unwrap(),
        &err,
    );
    assert_eq!(
        row.text,
        "parser: ItemTable value for c.broken is not valid JSON (EOF while parsing a value at line 1 column 5)"
    );
    assert_eq!(row.source_locator, "ItemTable key=c.broken");
    assert_eq!(row.source_file, "User/globalStorage/state.vscdb");
}

#[test]
fn unreadable_databases() {
    let err = StateDb::from_bytes(b"this is a text file, not a database, and it is long enough to fill the sqlite header area of one hundred bytes", None)
        .unwrap_err();
    let row = state_vscdb::unreadable_row("vscode", "x/state.vscdb", &err);
    assert_eq!(
        row.text,
        "parser: state.vscdb unreadable: not an SQLite database: the file starts with \"this is a text f\""
    );
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("other.db");
    Connection::open(&p)
        .unwrap()
        .execute_batch("CREATE TABLE t (x)")
        .unwrap();
    let err = StateDb::from_bytes(&std::fs::read(&p).unwrap(), None).unwrap_err();
    assert!(matches!(err, Error::NoItemTable));
    assert_eq!(
        state_vscdb::unreadable_row("cursor", "s", &err).text,
        "parser: state.vscdb unreadable: no ItemTable table in the database"
    );
}

/// Keys and entries read as VS Code writes them (each pinned against a defect of
/// 2026-12-05): an external session's index entry takes the session of its key (the
/// resource URI its cloud task rows carry), its own `sessionId` kept in the text; a
/// github.com login that starts with `enterprise-` (no ` - <host>` in the label) is a
/// github.com account; a `-mcpserver-usages` key whose entries are extensions' only is
/// a login ending in `-mcpserver`.
#[test]
fn index_keys_and_account_labels_as_written() {
    let sql = r#"
        INSERT INTO ItemTable VALUES ('chat.ChatSessionStore.index', '{"version":1,"entries":{"copilot-cloud-agent:/task/123":{"sessionId":"5f0c2b7e-0000-4000-8000-000000000001","title":"Fix CI","lastMessageDate":1791025000000,"isExternal":true},"9a1b":{"sessionId":"9a1b","title":"Local","lastMessageDate":1791025000000}}}');
        INSERT INTO ItemTable VALUES ('github-enterprise-dev-usages', '[{"extensionId":"GitHub.copilot-chat","scopes":["repo"],"lastUsed":1791025100000}]');
        INSERT INTO ItemTable VALUES ('github-enterprise-ann - ghe.example.com-usages', '[{"extensionId":"GitHub.copilot-chat","scopes":["repo"],"lastUsed":1791025100000}]');
        INSERT INTO ItemTable VALUES ('github-bot-mcpserver-usages', '[{"extensionId":"GitHub.copilot-chat","scopes":["repo"],"lastUsed":1791025100000}]');
        INSERT INTO ItemTable VALUES ('github-octo-mcpserver-usages', '[{"mcpServerId":"github","scopes":["repo"],"lastUsed":1791025100000}]');
    "#;
    let db = StateDb::from_bytes(&build("UTF-8", sql), None).unwrap();
    let ctx = state_vscdb::rows::Context {
        agent: "vscode".into(),
        ..Default::default()
    };
    let got: Vec<String> = state_vscdb::rows::rows(&db, &ctx)
        .iter()
        .map(|r| format!("{}|{}", r.session_id, r.text))
        .collect();
    let want = [
        "copilot-cloud-agent:/task/123|session index: title=\"Fix CI\" last_message=2026-10-03T10:56:40.000000Z external=true session_id=5f0c2b7e-0000-4000-8000-000000000001",
        "9a1b|session index: title=Local last_message=2026-10-03T10:56:40.000000Z",
        "|source host: github.com account enterprise-dev extension=GitHub.copilot-chat scopes=repo (from state.vscdb github-enterprise-dev-usages, lastUsed)",
        "|source host: ghe.example.com account ann extension=GitHub.copilot-chat scopes=repo (from state.vscdb github-enterprise-ann - ghe.example.com-usages, lastUsed)",
        "|source host: github.com account bot-mcpserver extension=GitHub.copilot-chat scopes=repo (from state.vscdb github-bot-mcpserver-usages, lastUsed)",
        "|source host: github.com account octo mcp_server=github scopes=repo (from state.vscdb github-octo-mcpserver-usages, lastUsed)",
    ];
    for w in want {
        assert!(got.iter().any(|g| g == w), "{w}\n{got:#?}");
    }
}
