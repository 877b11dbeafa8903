//! Measures decoding a large history value and mapping it to rows, and prints figures:
//!
//! ```text
//! cargo run --release -p cody-history --example cody_bench -- [MB] [DB MB]
//! ```
//!
//! The value is synthetic (chats of four interactions with tool calls and context
//! files), sized to the given number of megabytes (default 50, the size at which Cody
//! itself warns). A second run decodes the same value cut in its middle, which forces
//! the structural, interaction-by-interaction recovery path for the cut chat. A third
//! builds a `state.vscdb` (in a temporary folder) whose WAL holds the value and then a
//! version with its first chat deleted, and reads it as the scanner would: the live
//! value, plus the deleted chat recovered from the older version.

use std::time::Instant;

use chat_rows::FileContext;
use serde_json::json;

/// The chats of a synthetic value of about `megabytes`, as `"id":{chat}` members.
fn chats(megabytes: usize) -> Vec<String> {
    let target = megabytes << 20;
    let mut out = Vec::new();
    let mut size = 0;
    let mut n = 0u64;
    while size < target {
        let secs = 1_700_000_000 + n;
        let id = time::OffsetDateTime::from_unix_timestamp(secs as i64)
            .map(|t| {
                t.format(&time::format_description::well_known::Rfc2822)
                    .unwrap_or_default()
            })
            .unwrap_or_default();
        let interaction = |i: u64| {
            json!({
                "humanMessage": {"speaker": "human", "text": format!("question {n}.{i}: why does the build fail on module {i}?"), "intent": "agentic",
                    "contextFiles": [{"type": "file", "uri": {"$mid": 1, "fsPath": format!("/home/u/proj/src/mod{i}.rs"), "path": format!("/home/u/proj/src/mod{i}.rs"), "scheme": "file"}}]},
                "assistantMessage": {"speaker": "assistant", "model": "anthropic::2024-10-22::claude-sonnet-4-latest", "text": "Let me look. ".repeat(20),
                    "content": [{"type": "tool_call", "tool_call": {"id": format!("toolu_{n}_{i}"), "name": "get_file", "arguments": "{\"path\":\"src/lib.rs\"}"}}]}
            })
        };
        let chat = json!({"id": id, "lastInteractionTimestamp": id, "interactions": (0..4).map(interaction).collect::<Vec<_>>()});
        let member = format!("{}:{}", serde_json::to_string(&id).unwrap(), chat);
        size += member.len() + 1;
        out.push(member);
        n += 1;
    }
    out
}

fn value_of(chats: &[String]) -> Vec<u8> {
    format!(
        r#"{{"https://sourcegraph.com/-bench-user":{{"chat":{{{}}}}}}}"#,
        chats.join(",")
    )
    .into_bytes()
}

fn synthetic(megabytes: usize) -> Vec<u8> {
    value_of(&chats(megabytes))
}

fn measure(label: &str, bytes: &[u8]) {
    let start = Instant::now();
    let rows = cody_history::history_rows_from_bytes(bytes, "bench", &FileContext::default());
    let secs = start.elapsed().as_secs_f64();
    let parser = rows.iter().filter(|r| r.is_parser()).count();
    println!(
        "{label}: {:.1} MB in {:.2} s ({:.0} MB/s), {} rows, {parser} parser row(s)",
        bytes.len() as f64 / 1048576.0,
        secs,
        bytes.len() as f64 / 1048576.0 / secs,
        rows.len()
    );
}

fn measure_db(megabytes: usize) {
    let all = chats(megabytes);
    let text = String::from_utf8(value_of(&all)).unwrap();
    // the newer version: the first chat deleted
    let newer = String::from_utf8(value_of(&all[1..])).unwrap();
    let dir = std::env::temp_dir().join(format!("cody-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("User/globalStorage")).unwrap();
    let build = dir.join("build.vscdb");
    let conn = rusqlite::Connection::open(&build).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    for v in [&text, &newer] {
        let st = format!(r#"{{"cody-local-chatHistory-v2":{v}}}"#);
        conn.execute(
            "INSERT INTO ItemTable VALUES ('sourcegraph.cody-ai', ?1)",
            [&st],
        )
        .unwrap();
    }
    let db = dir.join("User/globalStorage/state.vscdb");
    std::fs::copy(&build, &db).unwrap();
    std::fs::copy(
        dir.join("build.vscdb-wal"),
        dir.join("User/globalStorage/state.vscdb-wal"),
    )
    .unwrap();
    drop(conn);
    let size = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0)
        + std::fs::metadata(dir.join("User/globalStorage/state.vscdb-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
    let start = Instant::now();
    let rows = cody_history::state_db_rows(
        &db,
        "state.vscdb",
        &FileContext::default(),
        &chat_rows::Evidence::new(),
    );
    let secs = start.elapsed().as_secs_f64();
    let deleted = rows
        .iter()
        .filter(|r| r.record_state == chat_rows::RecordState::Deleted)
        .count();
    println!(
        "state.vscdb (+wal) of {:.1} MB, value {:.1} MB twice: {:.2} s, {} rows, {deleted} deleted",
        size as f64 / 1048576.0,
        text.len() as f64 / 1048576.0,
        secs,
        rows.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let value = synthetic(mb);
    measure("whole value", &value);
    measure("value cut in the middle", &value[..value.len() / 2]);
    let db_mb = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    measure_db(db_mb);
    if let Some(peak) = chat_rows::dirty::peak_rss_bytes() {
        println!("peak RSS: {:.0} MB", peak as f64 / 1048576.0);
    }
}
