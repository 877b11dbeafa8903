//! Deleted and older versions of items: rows only for what the live state no longer says.

use chat_rows::RecordState;
use rusqlite::{Connection, params};
use state_vscdb::StateDb;
use state_vscdb::rows::{Context, rows};

/// Writes `first` (checkpointed into the main file) then `second` (left in the WAL), and
/// returns the main file and WAL copied while the writer is open.
fn build(first: &[(&str, &str)], second: &[(&str, Option<&str>)]) -> (Vec<u8>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("state.vscdb");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    for (k, v) in first {
        conn.execute("INSERT INTO ItemTable VALUES (?1, ?2)", params![k, v])
            .unwrap();
    }
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    for (k, v) in second {
        match v {
            Some(v) => conn
                .execute("INSERT INTO ItemTable VALUES (?1, ?2)", params![k, v])
                .unwrap(),
            None => conn
                .execute("DELETE FROM ItemTable WHERE key = ?1", [k])
                .unwrap(),
        };
    }
    let main = std::fs::read(&p).unwrap();
    let wal = std::fs::read(dir.path().join("state.vscdb-wal")).unwrap();
    drop(conn);
    (main, wal)
}

const SESSION_V1: &str = r#"[{"sessionId":"a","creationDate":1700000000000,"requests":[{"message":{"text":"first question"},"response":[{"value":"first answer"}],"timestamp":1700000001000}]}]"#;
const SESSION_V2: &str = r#"[{"sessionId":"a","creationDate":1700000000000,"requests":[{"message":{"text":"first question"},"response":[{"value":"first answer"}],"timestamp":1700000001000},{"message":{"text":"second question"},"response":[{"value":"second answer"}],"timestamp":1700000002000}]}]"#;
const INDEX_V1: &str = r#"{"version":1,"entries":{"a":{"sessionId":"a","title":"A","lastMessageDate":1700000001000},"c":{"sessionId":"c","title":"Trimmed chat","lastMessageDate":1690000000000}}}"#;
const INDEX_V2: &str = r#"{"version":1,"entries":{"a":{"sessionId":"a","title":"A","lastMessageDate":1700000002000}}}"#;

#[test]
fn older_versions_give_only_what_is_no_longer_live() {
    let (main, wal) = build(
        &[
            ("interactive.sessions", SESSION_V1),
            ("chat.ChatSessionStore.index", INDEX_V1),
            ("chat/autoconfirm", r#"["run_in_terminal","fetch"]"#),
            ("secret://token", "s3cr3t"),
        ],
        &[
            ("interactive.sessions", Some(SESSION_V2)),
            ("chat.ChatSessionStore.index", Some(INDEX_V2)),
            ("chat/autoconfirm", Some(r#"{"fetch":true}"#)),
            ("secret://token", None),
        ],
    );
    let db = StateDb::from_bytes(&main, Some(&wal)).unwrap();
    // The older versions are there, and the secret is not.
    let mut keys: Vec<String> = db.deleted().into_iter().map(|i| i.key).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "chat.ChatSessionStore.index",
            "chat/autoconfirm",
            "interactive.sessions"
        ]
    );
    let ctx = Context {
        agent: "vscode".into(),
        user_path: "User/globalStorage/state.vscdb".into(),
        ..Context::default()
    };
    let all = rows(&db, &ctx);
    let deleted: Vec<(&str, &str, &str)> = all
        .iter()
        .filter(|r| r.record_state == RecordState::Deleted)
        .map(|r| {
            (
                r.session_id.as_str(),
                r.text.as_str(),
                r.source_locator.as_str(),
            )
        })
        .collect();
    assert_eq!(
        deleted,
        [
            (
                "c",
                "session index: title=\"Trimmed chat\" last_message=2023-07-22T04:26:40.000000Z",
                "ItemTable key=chat.ChatSessionStore.index, main file page 2 cell 1"
            ),
            (
                "",
                "permission setting: chat/autoconfirm.run_in_terminal=true (from User/globalStorage/state.vscdb, file mtime)",
                "ItemTable key=chat/autoconfirm, main file page 2 cell 2"
            ),
        ]
    );
    // The live session has both requests, once.
    let users: Vec<&str> = all
        .iter()
        .filter(|r| r.turn_type == chat_rows::TurnType::User)
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(users, ["first question", "second question"]);
    assert!(all.iter().all(|r| !r.text.contains("s3cr3t")));
}

/// Thirty items of about 10 KB (three pages), every third deleted, then six new large
/// items that take the freed overflow pages: eight deleted items come back with their
/// value cut (`sqlite-evidence` returns the key, the value column missing, and the size
/// its header declared). `deleted()` leaves them out; the rows tell each by its key and
/// declared size (never `(0 bytes)`, never a `not valid JSON` row for a mapped key).
#[test]
fn items_whose_value_was_cut_are_told_by_their_declared_size() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("state.vscdb");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 4096; PRAGMA secure_delete = OFF;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    let big = |i: i64, tag: &str| {
        let text = (0..400)
            .map(|k| format!("{tag} line {k} of item {i}"))
            .collect::<Vec<_>>()
            .join(" ");
        format!("{{\"text\":\"{text}\"}}")
    };
    let key = |i: i64| {
        if i == 0 {
            "interactive.sessions".to_string()
        } else {
            format!("memento/big.{i}")
        }
    };
    let tx = conn.unchecked_transaction().unwrap();
    for i in 0..30 {
        tx.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![key(i), big(i, "old")],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    conn.execute("DELETE FROM ItemTable WHERE rowid % 3 = 1", [])
        .unwrap();
    for i in 100..106 {
        conn.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![format!("memento/new.{i}"), big(i, "new")],
        )
        .unwrap();
    }
    drop(conn);
    let main = std::fs::read(&p).unwrap();
    let db = StateDb::from_bytes(&main, None).unwrap();
    let whole: Vec<String> = db.deleted().into_iter().map(|i| i.key).collect();
    assert_eq!(whole, ["memento/big.6"]);
    let (_, cut) = db.deleted_and_cut();
    assert_eq!(cut.len(), 8);
    assert!(cut.iter().all(|(i, _)| i.value.is_empty()));
    let ctx = Context {
        agent: "vscode".into(),
        user_path: "User/globalStorage/state.vscdb".into(),
        ..Context::default()
    };
    let deleted: Vec<(String, String)> = rows(&db, &ctx)
        .into_iter()
        .filter(|r| r.record_state == RecordState::Deleted)
        .map(|r| (r.text, r.source_locator))
        .collect();
    let at = |i: i64, place: &str| {
        let size = big(i, "old").len();
        (
            format!("state item deleted: {} ({size} bytes)", key(i)),
            format!(
                "ItemTable key={}, {place}, partial: column 1 missing",
                key(i)
            ),
        )
    };
    assert_eq!(big(0, "old").len(), 9100);
    let mut want = vec![(
        "state item deleted: memento/big.6 (9100 bytes)".to_string(),
        "ItemTable key=memento/big.6, freeblock at page 15 offset 1273".to_string(),
    )];
    want.push(at(0, "freeblock at page 14 offset 3148"));
    want.push(at(9, "freeblock at page 24 offset 2214"));
    for (i, page) in [(12, 31), (15, 38), (18, 45), (21, 52), (24, 59), (27, 66)] {
        want.push(at(i, &format!("freeblock at page {page} offset 1412")));
    }
    assert_eq!(deleted, want);
}

/// A deleted legacy session whose turns say the same thing twice (`continue` at its
/// first and third request): every turn comes back, each at its own place (before
/// 2026-12-05 the second `continue` was dropped as a repeat of the first, and the reply
/// after it stood without its prompt); a turn that two deleted versions hold at the
/// same place is still given once.
#[test]
fn a_deleted_sessions_repeated_turns_are_each_given() {
    let v1 = r#"[{"sessionId":"d","creationDate":1700000000000,"requests":[{"message":{"text":"continue"},"response":[{"value":"a"}],"timestamp":1700000001000},{"message":{"text":"delete the prod db"},"response":[{"value":"done"}],"timestamp":1700000002000}]}]"#;
    let v2 = r#"[{"sessionId":"d","creationDate":1700000000000,"requests":[{"message":{"text":"continue"},"response":[{"value":"a"}],"timestamp":1700000001000},{"message":{"text":"delete the prod db"},"response":[{"value":"done"}],"timestamp":1700000002000},{"message":{"text":"continue"},"response":[{"value":"b"}],"timestamp":1700000003000}]}]"#;
    let (main, wal) = build(
        &[("interactive.sessions", v1)],
        &[
            ("interactive.sessions", Some(v2)),
            ("interactive.sessions", None),
        ],
    );
    let db = StateDb::from_bytes(&main, Some(&wal)).unwrap();
    let ctx = Context {
        agent: "vscode".into(),
        ..Context::default()
    };
    let turns: Vec<String> = rows(&db, &ctx)
        .iter()
        .filter(|r| {
            r.record_state == RecordState::Deleted && r.turn_type != chat_rows::TurnType::System
        })
        .map(|r| {
            let at = r
                .source_locator
                .find(" $")
                .map_or("", |i| &r.source_locator[i..]);
            format!("{}|{}{}", r.turn_type, r.text, at)
        })
        .collect();
    assert_eq!(
        turns,
        [
            "user|continue $.requests[0].message",
            "assistant|a $.requests[0].response[0] (time of the request)",
            "user|delete the prod db $.requests[1].message",
            "assistant|done $.requests[1].response[0] (time of the request)",
            "user|continue $.requests[2].message",
            "assistant|b $.requests[2].response[0] (time of the request)",
        ]
    );
}
