//! Small databases and folders built here, each for one rule of the parser plan, with
//! every row pinned exactly (through the in-memory and the paged path for the global
//! database): deleted bubbles whose text repeats, epoch times newer than the main file,
//! `agentKv` roots with and without a composer, the model of a reply without
//! `modelInfo`, the context-token fallback, live bubbles without `composerData`,
//! `acp-sessions`, a `meta.json` without `store.db`, `<user_query>` inside context, a
//! CLI root blob carved from `blobs`, an `agentKv` root carved from `cursorDiskKV`, and the CLI's `cli-config.json` under
//! `~/.config/cursor`.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chat_rows::{Evidence, FileContext, Store};
use common::*;
use cursor_state::CursorStore;
use rusqlite::{Connection, params};
use sha2::{Digest, Sha256};

fn put(c: &Connection, key: &str, value: &str) {
    c.execute(
        "INSERT OR REPLACE INTO cursorDiskKV VALUES (?1, ?2)",
        params![key, value],
    )
    .unwrap();
}

fn put_json(c: &Connection, key: &str, value: serde_json::Value) {
    put(c, key, &value.to_string());
}

fn sha(b: &[u8]) -> String {
    Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

fn root(children: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for c in children {
        out.extend_from_slice(&[0x0a, 0x20]);
        out.extend_from_slice(&Sha256::digest(c));
    }
    out
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn set_mtime(path: &Path, epoch_ms: i64) {
    let t = SystemTime::UNIX_EPOCH + Duration::from_millis(epoch_ms as u64);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

fn assert_lines(got: &[String], want: &[&str]) {
    let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want.as_slice(), "\n{}", got.join("\n"));
}

const CC: &str = "cc000000-0000-4000-8000-00000000000c";
const CD: &str = "cd000000-0000-4000-8000-00000000000d";

/// A WAL database: chat CC (composerData and four bubbles, "continue" / "working on it"
/// twice) deleted after the last checkpoint; chat CD keeps bubble d1 and loses d9, worded
/// as d1; bubble d1 rewritten twice (its first value again, then a second value kept).
fn build_repeats(dir: &Path) -> PathBuf {
    let path = global_path(&dir.join("work"));
    let c = Connection::open(&path).unwrap();
    c.execute_batch(KV_SCHEMA).unwrap();
    c.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    put_json(
        &c,
        &format!("composerData:{CC}"),
        serde_json::json!({"_v": 13, "composerId": CC, "name": "Repeat", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "c1"}, {"bubbleId": "c2"},
                {"bubbleId": "c3"}, {"bubbleId": "c4"}]}),
    );
    for (b, t, text) in [
        ("c1", 1, "continue"),
        ("c2", 2, "working on it"),
        ("c3", 1, "continue"),
        ("c4", 2, "working on it"),
    ] {
        put_json(
            &c,
            &format!("bubbleId:{CC}:{b}"),
            serde_json::json!({"bubbleId": b, "type": t, "text": text}),
        );
    }
    put_json(
        &c,
        &format!("composerData:{CD}"),
        serde_json::json!({"_v": 13, "composerId": CD, "name": "Yes", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "d1"}]}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CD}:d1"),
        serde_json::json!({"bubbleId": "d1", "type": 1, "text": "yes please do it"}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CD}:d9"),
        serde_json::json!({"bubbleId": "d9", "type": 1, "text": "yes please do it"}),
    );
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);").unwrap();
    c.execute(
        "DELETE FROM cursorDiskKV WHERE key LIKE ?1",
        [format!("%{CC}%")],
    )
    .unwrap();
    c.execute(
        "DELETE FROM cursorDiskKV WHERE key = ?1",
        [format!("bubbleId:{CD}:d9")],
    )
    .unwrap();
    // d1 rewritten: a second wording, then its first again (the live value)
    for text in ["yes please do it, and run the tests", "yes please do it"] {
        put_json(
            &c,
            &format!("bubbleId:{CD}:d1"),
            serde_json::json!({"bubbleId": "d1", "type": 1, "text": text}),
        );
    }
    wal_copy(c, &path, &dir.join("copy"))
}

#[test]
fn deleted_bubbles_whose_text_repeats_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_repeats(dir.path());
    let rows = global_rows(&path);
    let cc = |b: &str| format!("cursorDiskKV key=bubbleId:{CC}:{b}, main file page 4 cell");
    assert_lines(
        &rows,
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {CD} |  | system | live | false |  |   | session start: title=Yes format=v13 | cursorDiskKV key=composerData:{CD}, wal frame 7 (page 4) cell 0"
            ),
            &format!(
                " | {CD} |  | user | live | false |  |   | yes please do it | cursorDiskKV key=bubbleId:{CD}:d1, wal frame 7 (page 4) cell 1"
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {CC} |  | system | deleted | false |  |   | session start: title=Repeat format=v13 | cursorDiskKV key=composerData:{CC}, main file page 4 cell 0"
            ),
            &format!(
                " | {CC} |  | user | deleted | false |  |   | continue | {} 1",
                cc("c1")
            ),
            &format!(
                " | {CC} |  | assistant | deleted | false |  |   | working on it | {} 2",
                cc("c2")
            ),
            &format!(
                " | {CC} |  | user | deleted | false |  |   | continue | {} 3",
                cc("c3")
            ),
            &format!(
                " | {CC} |  | assistant | deleted | false |  |   | working on it | {} 4",
                cc("c4")
            ),
            &format!(
                " | {CD} |  | user | deleted | false |  |   | yes please do it, and run the tests | cursorDiskKV key=bubbleId:{CD}:d1, wal frame 5 (page 4) cell 1"
            ),
            &format!(
                " | {CD} |  | user | deleted | false |  |   | yes please do it | cursorDiskKV key=bubbleId:{CD}:d9, main file page 4 cell 7"
            ),
        ],
    );
}

const CT: &str = "c7000000-0000-4000-8000-000000000007";

/// Epoch-millisecond `createdAt`/`lastUpdatedAt` are read whatever the file times: the
/// main file was last written (checkpointed) on 2026-05-01, the chat on 2026-05-28 is in
/// the WAL. Only `timingInfo` values are bounded, by the newest of the main file's and
/// the WAL's times (t2 is after the main file's time and before the WAL's: kept; t3 is
/// after both: empty; t4 a relative counter: empty).
#[test]
fn epoch_times_newer_than_the_main_file_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = global_path(&dir.path().join("work"));
    let c = Connection::open(&path).unwrap();
    c.execute_batch(KV_SCHEMA).unwrap();
    c.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    c.execute(
        "INSERT INTO ItemTable VALUES ('composer.composerHeaders', ?1)",
        [
            serde_json::json!({"allComposers": [{"composerId": CT, "name": "Recent",
            "createdAt": T0, "lastUpdatedAt": T0 + 60_000, "unifiedMode": "agent",
            "workspaceIdentifier": {"id": "w", "uri": {"fsPath": "/home/u/src/app"}}}]})
            .to_string(),
        ],
    )
    .unwrap();
    put_json(
        &c,
        &format!("composerData:{CT}"),
        serde_json::json!({"_v": 13, "composerId": CT, "name": "Recent", "createdAt": T0,
            "lastUpdatedAt": T0 + 60_000, "contextTokensUsed": 900,
            "fullConversationHeadersOnly": [{"bubbleId": "t1"}, {"bubbleId": "t2"},
                {"bubbleId": "t3"}, {"bubbleId": "t4"}]}),
    );
    for (b, extra) in [
        ("t1", serde_json::json!({"createdAt": T0 + 1_000})),
        (
            "t2",
            serde_json::json!({"timingInfo": {"clientStartTime": T0 + 2_000}}),
        ),
        (
            "t3",
            serde_json::json!({"timingInfo": {"clientStartTime": T0 + 86_400_000}}),
        ),
        (
            "t4",
            serde_json::json!({"timingInfo": {"clientStartTime": 183_422.5}}),
        ),
    ] {
        let mut v = serde_json::json!({"bubbleId": b, "type": 1, "text": format!("prompt {b}")});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        put_json(&c, &format!("bubbleId:{CT}:{b}"), v);
    }
    let path = wal_copy(c, &path, dir.path());
    set_mtime(&path, 1_777_593_600_000); // 2026-05-01T00:00:00Z, the last checkpoint
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    set_mtime(Path::new(&wal), T0 + 5_000);
    let rows = global_rows(&path);
    let kv = |k: &str| format!("cursorDiskKV key={k}");
    assert_lines(
        &rows,
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {CT} | /home/u/src/app | system | secondary | true |  |   | session index: title=Recent created=2026-05-28T20:26:40.000000Z updated=2026-05-28T20:27:40.000000Z mode=agent workspace=/home/u/src/app | ItemTable key=composer.composerHeaders, wal frame 1 (page 2) cell 0"
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {CT} | /home/u/src/app | system | live | false |  |   | session start: title=Recent format=v13 updated=2026-05-28T20:27:40.000000Z | {}",
                kv(&format!("composerData:{CT}, wal frame 11 (page 4) cell 0"))
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CT} | /home/u/src/app | user | live | false |  |   | prompt t1 | {}",
                kv(&format!("bubbleId:{CT}:t1, wal frame 11 (page 4) cell 1"))
            ),
            &format!(
                "2026-05-28T20:26:42.000000Z | {CT} | /home/u/src/app | user | live | false |  |   | prompt t2 | {}",
                kv(&format!("bubbleId:{CT}:t2, wal frame 11 (page 4) cell 2"))
            ),
            &format!(
                " | {CT} | /home/u/src/app | user | live | false |  |   | prompt t3 | {}",
                kv(&format!("bubbleId:{CT}:t3, wal frame 11 (page 4) cell 3"))
            ),
            &format!(
                " | {CT} | /home/u/src/app | user | live | false |  |   | prompt t4 | {}",
                kv(&format!("bubbleId:{CT}:t4, wal frame 11 (page 4) cell 4"))
            ),
            &format!(
                "2026-05-28T20:27:40.000000Z | {CT} | /home/u/src/app | system | live | false |  |   | context tokens: used=900 | {}",
                kv(&format!("composerData:{CT}, wal frame 11 (page 4) cell 0"))
            ),
        ],
    );
}

const CA: &str = "ca000000-0000-4000-8000-00000000000a";
const CB: &str = "cb000000-0000-4000-8000-00000000000b";
const CF: &str = "cf000000-0000-4000-8000-00000000000f";
const CO: &str = "c0000000-0000-4000-8000-0000000000f0";

/// A database of one rule each:
/// * CA (model-A, bubbles): a2 names model-B, a3 and a4 name none and are model-A's (the
///   composer's, not the previous bubble's); `contextTokensUsed` 0 falls through to
///   `totalUsedTokens` 500; its `agentKv` root's messages are secondary copies.
/// * CB (no bubbles): its `agentKv` root's messages are the only record, `live`.
/// * CF: `contextTokensUsed` 700 over `totalUsedTokens` 500; both zero gives no row (CB).
/// * a root no composer names: session `agentkv:<first 12 hex of the root id>`, live;
///   a message in no root: recovered, no session.
/// * CO: two live bubbles whose `composerData` is missing, by time.
fn build_rules(dir: &Path) -> PathBuf {
    let path = global_path(dir);
    let c = Connection::open(&path).unwrap();
    c.execute_batch(KV_SCHEMA).unwrap();
    let msg = |role: &str, text: &str| {
        serde_json::json!({"role": role, "content": [{"type": "text", "text": text}]})
            .to_string()
            .into_bytes()
    };
    let (a1, a2) = (msg("user", "hello"), msg("assistant", "reply one"));
    let (b1, b2) = (msg("user", "kv question"), msg("assistant", "kv answer"));
    let (n1, loose) = (
        msg("user", "nobody's question"),
        msg("user", "loose message"),
    );
    let roots = [root(&[&a1, &a2]), root(&[&b1, &b2]), root(&[&n1])];
    for blob in [&a1, &a2, &b1, &b2, &n1, &loose] {
        put(&c, &format!("agentKv:blob:{}", sha(blob)), &hex(blob));
    }
    for r in &roots {
        put(&c, &format!("agentKv:blob:{}", sha(r)), &hex(r));
    }
    put_json(
        &c,
        &format!("composerData:{CA}"),
        serde_json::json!({"_v": 13, "composerId": CA, "name": "Fix", "createdAt": T0,
            "modelConfig": {"modelName": "model-A", "maxMode": false},
            "contextTokensUsed": 0, "promptTokenBreakdown": {"totalUsedTokens": 500},
            "agentRoot": sha(&roots[0]),
            "fullConversationHeadersOnly": [{"bubbleId": "a1"}, {"bubbleId": "a2"},
                {"bubbleId": "a3"}, {"bubbleId": "a4"}]}),
    );
    for (b, v) in [
        ("a1", serde_json::json!({"type": 1, "text": "hello"})),
        (
            "a2",
            serde_json::json!({"type": 2, "text": "reply one", "modelInfo": {"modelName": "model-B"}}),
        ),
        ("a3", serde_json::json!({"type": 2, "text": "reply two"})),
        (
            "a4",
            serde_json::json!({"type": 2, "text": "", "tokenCount": {"inputTokens": 10, "outputTokens": 2},
                "toolFormerData": {"name": "run_terminal_cmd", "toolCallId": "tc1",
                    "rawArgs": "{\"command\":\"ls\"}", "result": "a.py", "status": "completed"}}),
        ),
    ] {
        let mut v = v;
        v["bubbleId"] = b.into();
        put_json(&c, &format!("bubbleId:{CA}:{b}"), v);
    }
    put_json(
        &c,
        &format!("composerData:{CB}"),
        serde_json::json!({"_v": 13, "composerId": CB, "name": "KV only", "createdAt": T0,
            "contextTokensUsed": 0, "agentRoot": sha(&roots[1]),
            "fullConversationHeadersOnly": []}),
    );
    put_json(
        &c,
        &format!("composerData:{CF}"),
        serde_json::json!({"_v": 13, "composerId": CF, "name": "Counted", "createdAt": T0,
            "lastUpdatedAt": T0 + 1_000, "contextTokensUsed": 700,
            "promptTokenBreakdown": {"totalUsedTokens": 500},
            "fullConversationHeadersOnly": []}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CO}:o1"),
        serde_json::json!({"bubbleId": "o1", "type": 2, "text": "the answer", "createdAt": T0 + 2_000}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CO}:o2"),
        serde_json::json!({"bubbleId": "o2", "type": 1, "text": "the question", "createdAt": T0 + 1_000}),
    );
    drop(c);
    path
}

#[test]
fn models_context_tokens_agent_kv_roots_and_bubbles_without_composer() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_rules(dir.path());
    let rows = global_rows(&path);
    assert_lines(
        &rows,
        &[
            &format!(
                r#"2026-05-28T20:26:40.000000Z | {CA} |  | system | live | false |  |   | session start: title=Fix format=v13 | cursorDiskKV key=composerData:{CA}"#
            ),
            &format!(
                r#"2026-05-28T20:26:40.000000Z | {CA} |  | system | live | false | model-A |   | model: model-A maxMode=false | cursorDiskKV key=composerData:{CA}"#
            ),
            &format!(
                r#" | {CA} |  | user | live | false |  |   | hello | cursorDiskKV key=bubbleId:{CA}:a1"#
            ),
            &format!(
                r#" | {CA} |  | system | live | false | model-B |   | model: model-A -> model-B | cursorDiskKV key=bubbleId:{CA}:a2"#
            ),
            &format!(
                r#" | {CA} |  | assistant | live | false | model-B |   | reply one | cursorDiskKV key=bubbleId:{CA}:a2"#
            ),
            &format!(
                r#" | {CA} |  | assistant | live | false | model-A |   | reply two | cursorDiskKV key=bubbleId:{CA}:a3"#
            ),
            &format!(
                r#" | {CA} |  | tool_use | live | false | model-A | run_terminal_cmd tc1 | {{"command":"ls"}} | cursorDiskKV key=bubbleId:{CA}:a4"#
            ),
            &format!(
                r#" | {CA} |  | tool_result | live | false |  | run_terminal_cmd tc1 | a.py | cursorDiskKV key=bubbleId:{CA}:a4"#
            ),
            &format!(
                r#" | {CA} |  | system | live | false | model-A |   | usage: model=model-A input=10 output=2 cache_read=- cache_write=- reasoning=- scope=call | cursorDiskKV key=bubbleId:{CA}:a4"#
            ),
            &format!(
                r#" | {CA} |  | system | live | false |  |   | context tokens: used=500 | cursorDiskKV key=composerData:{CA}"#
            ),
            &format!(
                r#"2026-05-28T20:26:40.000000Z | {CB} |  | system | live | false |  |   | session start: title="KV only" format=v13 | cursorDiskKV key=composerData:{CB}"#
            ),
            &format!(
                r#"2026-05-28T20:26:40.000000Z | {CF} |  | system | live | false |  |   | session start: title=Counted format=v13 updated=2026-05-28T20:26:41.000000Z | cursorDiskKV key=composerData:{CF}"#
            ),
            &format!(
                r#"2026-05-28T20:26:41.000000Z | {CF} |  | system | live | false |  |   | context tokens: used=700 | cursorDiskKV key=composerData:{CF}"#
            ),
            &format!(
                r#" | {CO} |  | system | live | false |  |   | session start: composerData missing; 2 bubbles read by their keys | cursorDiskKV key=bubbleId:{CO}:"#
            ),
            &format!(
                r#"2026-05-28T20:26:41.000000Z | {CO} |  | user | live | false |  |   | the question | cursorDiskKV key=bubbleId:{CO}:o2"#
            ),
            &format!(
                r#"2026-05-28T20:26:42.000000Z | {CO} |  | assistant | live | false |  |   | the answer | cursorDiskKV key=bubbleId:{CO}:o1"#
            ),
            &format!(
                r#" | {CA} |  | user | secondary | true |  |   | hello | cursorDiskKV key=agentKv:blob:605b2cd3bceaf2d08e7ba22785ed603b5cce260a16f3215a2b9751da809810e2"#
            ),
            &format!(
                r#" | {CA} |  | assistant | secondary | true |  |   | reply one | cursorDiskKV key=agentKv:blob:489aafaa7015194bad209a192d455dc5d2770afe9d5eee1bc2d9fc4953a649e4"#
            ),
            r#" | agentkv:50960409e90f |  | user | live | false |  |   | nobody's question | cursorDiskKV key=agentKv:blob:9474eaa74c8f3aedfed04f9e75133636ef8f5b75a2859c7ee4ff131accaefbeb"#,
            &format!(
                r#" | {CB} |  | user | live | false |  |   | kv question | cursorDiskKV key=agentKv:blob:beb106491193968f769dfb96470143d9ab15e0075de9c05a80442579689ef3f5"#
            ),
            &format!(
                r#" | {CB} |  | assistant | live | false |  |   | kv answer | cursorDiskKV key=agentKv:blob:5c40cbad2d5cf53051ad0d3158945cd6c0ac80ece6a1ce2feff66bd6768e26e6"#
            ),
            r#" |  |  | user | recovered | false |  |   | loose message | cursorDiskKV key=agentKv:blob:e1eb6e232c7791336d284bae5cb62229cc770a48d49fd78af8154b3d232f1a3a"#,
        ],
    );
}

/// An agent's `store.db` (meta row and blobs: the messages, then their root).
fn build_store(dir: &Path, messages: &[serde_json::Value]) {
    std::fs::create_dir_all(dir).unwrap();
    let c = Connection::open(dir.join("store.db")).unwrap();
    c.execute_batch(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
         CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);",
    )
    .unwrap();
    let blobs: Vec<Vec<u8>> = messages
        .iter()
        .map(|m| m.to_string().into_bytes())
        .collect();
    for b in &blobs {
        c.execute("INSERT INTO blobs VALUES (?1, ?2)", params![sha(b), b])
            .unwrap();
    }
    let r = root(&blobs.iter().map(Vec::as_slice).collect::<Vec<_>>());
    c.execute("INSERT INTO blobs VALUES (?1, ?2)", params![sha(&r), r])
        .unwrap();
    let meta = serde_json::json!({"agentId": "acp1", "latestRootBlobId": sha(&r),
        "name": "acp chat", "createdAt": T0, "lastUsedModel": "gpt-5",
        "blobEncryptionKey": "SECRET-BLOBKEY"});
    c.execute(
        "INSERT INTO meta VALUES ('0', ?1)",
        [hex(meta.to_string().as_bytes())],
    )
    .unwrap();
}

fn read_file(root: &Path, rel: &str) -> Vec<String> {
    read_rows(&root.join(rel), rel, None)
        .iter()
        .map(render)
        .collect()
}

const ACP: &str = "home/u/.cursor/acp-sessions/acp1";

/// `.cursor/acp-sessions/<id>/`: `store.db`, `meta.json` and `prompt_history.json` are
/// claimed and read as a chat's; a `meta.json` with no `store.db` gives its session start
/// (its times read whatever the file's time), one beside a `store.db` nothing more (the
/// store reads it); `<user_query>` inside context gives the query, the attached files
/// named, and the rest as a hidden-context row.
#[test]
fn acp_sessions_meta_json_alone_and_user_queries_inside_context() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let acp = root.join(ACP);
    build_store(
        &acp,
        &[
            serde_json::json!({"role": "user", "content": [
                {"type": "text", "text": "<user_info>OS: linux</user_info>"},
                {"type": "text", "text": "<user_query>\nfix the bug\n</user_query>"}]}),
            serde_json::json!({"role": "user",
                "content": "<attached_files>a.py</attached_files>\n<user_query>second q</user_query>"}),
            serde_json::json!({"role": "user", "content": "<additional_data>\n<attached_files>\n<file path=\"src/b.ts\">\nconst path=\"x\";\n</file>\n</attached_files>\n</additional_data>\n\n<user_query>\nthird q\n</user_query>"}),
            serde_json::json!({"role": "assistant", "content": [{"type": "text", "text": "done"}]}),
        ],
    );
    std::fs::write(
        acp.join("meta.json"),
        serde_json::json!({"schemaVersion": 2, "createdAtMs": T0, "updatedAtMs": T0 + 60_000,
            "cwd": "/home/u/proj", "isSubagent": false, "blobEncryptionKey": "SECRET-BLOBKEY"})
        .to_string(),
    )
    .unwrap();
    std::fs::write(acp.join("prompt_history.json"), r#"["acp prompt"]"#).unwrap();
    let only = root.join("home/u/.cursor/chats/abc/agent-only");
    std::fs::create_dir_all(&only).unwrap();
    std::fs::write(
        only.join("meta.json"),
        serde_json::json!({"schemaVersion": 2, "createdAtMs": T0, "updatedAtMs": T0 + 60_000,
            "cwd": "/home/u/proj2", "isSubagent": false, "name": "meta only", "model": "gpt-5"})
        .to_string(),
    )
    .unwrap();
    set_mtime(&only.join("meta.json"), 1_777_593_600_000); // before createdAtMs
    let transcript = root.join("home/u/.cursor/projects/p1/agent-transcripts/t9.jsonl");
    std::fs::create_dir_all(transcript.parent().unwrap()).unwrap();
    std::fs::write(
        &transcript,
        serde_json::json!({"role": "user", "message": {"content": [{"type": "text",
            "text": "<attached_files>\n```path=src/a.py, lines=1-3\nprint(1)\n```\n</attached_files>\n<user_query>\nwhy?\n</user_query>"}]}})
        .to_string() + "\n",
    )
    .unwrap();

    let kind = |rel: &str| CursorStore.claim(&root.join(rel)).map(|c| c.kind);
    assert_eq!(
        kind(&format!("{ACP}/store.db")),
        Some("cursor agent chat store")
    );
    assert_eq!(
        kind(&format!("{ACP}/meta.json")),
        Some("cursor agent chat meta")
    );
    assert_eq!(
        kind(&format!("{ACP}/prompt_history.json")),
        Some("cursor agent prompt history")
    );
    assert_eq!(
        kind("home/u/.cursor/chats/abc/agent-only/meta.json"),
        Some("cursor agent chat meta")
    );

    assert_lines(
        &read_file(root, &format!("{ACP}/store.db")),
        &[
            r#"2026-05-28T20:26:40.000000Z | acp1 | /home/u/proj | system | live | false |  |   | session start: title="acp chat" cwd=/home/u/proj created=2026-05-28T20:26:40.000000Z updated=2026-05-28T20:27:40.000000Z subagent=false schema=2 | meta.json"#,
            r#"2026-05-28T20:26:40.000000Z | acp1 | /home/u/proj | system | live | false | gpt-5 |   | model: gpt-5 | meta.json"#,
            r#" | acp1 | /home/u/proj | system | live | false |  |   | hidden environment preamble (opens with <user_info>): <user_info>OS: linux</user_info> | blobs id=e6d38d8da463376b11afa36ade8b13e27222bfd65280fd37719398358d2c4e76"#,
            r#" | acp1 | /home/u/proj | user | live | false |  |   | fix the bug | blobs id=e6d38d8da463376b11afa36ade8b13e27222bfd65280fd37719398358d2c4e76"#,
            r#" | acp1 | /home/u/proj | user | live | false |  |   | second q\n[context attached_files a.py] | blobs id=6e2dfefa9b31c8d22c623263a14eede4d294109d12df15ed3edd05714277d59c"#,
            r#" | acp1 | /home/u/proj | system | live | false |  |   | hidden context (outside <user_query>): <attached_files>a.py</attached_files> | blobs id=6e2dfefa9b31c8d22c623263a14eede4d294109d12df15ed3edd05714277d59c"#,
            r#" | acp1 | /home/u/proj | user | live | false |  |   | third q\n[context attached_files src/b.ts] | blobs id=0e4cefe7a83457388050940e59af23be8c0da2763aa548115b29645fc535943b"#,
            r#" | acp1 | /home/u/proj | system | live | false |  |   | hidden context (outside <user_query>): <additional_data>\n<attached_files>\n<file path="src/b.ts">\nconst path="x";\n</file>\n</attached_files>\n</additional_data> | blobs id=0e4cefe7a83457388050940e59af23be8c0da2763aa548115b29645fc535943b"#,
            r#" | acp1 | /home/u/proj | assistant | live | false |  |   | done | blobs id=067aa47ca0e15e5a0e772ee45f7bade865f45260080847082cbc5534a21dfc23"#,
        ],
    );
    assert_lines(&read_file(root, &format!("{ACP}/meta.json")), &[]);
    assert_lines(
        &read_file(root, &format!("{ACP}/prompt_history.json")),
        &[r#" |  |  | user | secondary | true |  |   | acp prompt | [0]"#],
    );
    assert_lines(
        &read_file(root, "home/u/.cursor/chats/abc/agent-only/meta.json"),
        &[
            r#"2026-05-28T20:26:40.000000Z | agent-only | /home/u/proj2 | system | live | false |  |   | session start: title="meta only" cwd=/home/u/proj2 created=2026-05-28T20:26:40.000000Z updated=2026-05-28T20:27:40.000000Z subagent=false schema=2 | "#,
            r#"2026-05-28T20:26:40.000000Z | agent-only | /home/u/proj2 | system | live | false | gpt-5 |   | model: gpt-5 | "#,
        ],
    );
    assert_lines(
        &read_file(
            root,
            "home/u/.cursor/projects/p1/agent-transcripts/t9.jsonl",
        ),
        &[
            r#" | t9 | p1 | user | live | false |  |   | why?\n[context attached_files src/a.py] | byte 0"#,
            r#" | t9 | p1 | system | live | false |  |   | hidden context (outside <user_query>): <attached_files>\n```path=src/a.py, lines=1-3\nprint(1)\n```\n</attached_files> | byte 0"#,
        ],
    );
}

/// A user text that opens with `<user_info>` and holds a `<user_query>` block (the CLI's
/// one-part prompt) gives the preamble row (up to the first `</user_info>`, or up to the
/// query when that is missing) and then the query's rows: the prompt is a `user` row, in
/// a CLI store as in a transcript. A preamble without a query stays one row.
#[test]
fn a_user_query_after_the_user_info_preamble_is_a_user_row() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let rel = "home/u/.cursor/chats/h1/agent-ui/store.db";
    let messages = [
        serde_json::json!({"role": "user", "content": [{"type": "text",
            "text": "<user_info>\nOS: linux\nShell: bash\n</user_info>\n<user_query>\ndelete the prod logs\n</user_query>"}]}),
        serde_json::json!({"role": "user",
            "content": "<user_info>OS: linux</user_info>\n<attached_files>a.py</attached_files>\n<user_query>q2</user_query>"}),
        serde_json::json!({"role": "user", "content": "<user_info>OS: linux\n<user_query>q3</user_query>"}),
        serde_json::json!({"role": "user", "content": "<user_info>only env</user_info>"}),
    ];
    build_store(&root.join("home/u/.cursor/chats/h1/agent-ui"), &messages);
    let id: Vec<String> = messages
        .iter()
        .map(|m| sha(m.to_string().as_bytes()))
        .collect();
    let got = read_file(root, rel);
    assert_lines(
        &got[2..],
        &[
            &format!(
                r#" | agent-ui |  | system | live | false |  |   | hidden environment preamble (opens with <user_info>): <user_info>\nOS: linux\nShell: bash\n</user_info> | blobs id={}"#,
                id[0]
            ),
            &format!(
                " | agent-ui |  | user | live | false |  |   | delete the prod logs | blobs id={}",
                id[0]
            ),
            &format!(
                " | agent-ui |  | system | live | false |  |   | hidden environment preamble (opens with <user_info>): <user_info>OS: linux</user_info> | blobs id={}",
                id[1]
            ),
            &format!(
                r#" | agent-ui |  | user | live | false |  |   | q2\n[context attached_files a.py] | blobs id={}"#,
                id[1]
            ),
            &format!(
                " | agent-ui |  | system | live | false |  |   | hidden context (outside <user_query>): <attached_files>a.py</attached_files> | blobs id={}",
                id[1]
            ),
            &format!(
                " | agent-ui |  | system | live | false |  |   | hidden environment preamble (opens with <user_info>): <user_info>OS: linux | blobs id={}",
                id[2]
            ),
            &format!(
                " | agent-ui |  | user | live | false |  |   | q3 | blobs id={}",
                id[2]
            ),
            &format!(
                " | agent-ui |  | system | live | false |  |   | hidden environment preamble (opens with <user_info>): <user_info>only env</user_info> | blobs id={}",
                id[3]
            ),
        ],
    );

    let t = "home/u/.cursor/projects/p1/agent-transcripts/t5.jsonl";
    std::fs::create_dir_all(root.join(t).parent().unwrap()).unwrap();
    std::fs::write(
        root.join(t),
        serde_json::json!({"role": "user", "message": {"content": [{"type": "text",
            "text": "<user_info>OS: linux</user_info>\n<user_query>\nwipe the cache\n</user_query>"}]}})
        .to_string() + "\n",
    )
    .unwrap();
    assert_lines(
        &read_file(root, t),
        &[
            " | t5 | p1 | system | live | false |  |   | hidden environment preamble (opens with <user_info>): <user_info>OS: linux</user_info> | byte 0",
            " | t5 | p1 | user | live | false |  |   | wipe the cache | byte 0",
        ],
    );
}

/// A transcript's `tool_use` input is printed as the line has it: keys in the writer's
/// order, escapes and numbers untouched (as the CLI blobs' and bubbles' arguments), under
/// `message.content` or a bare `content`; it was key-sorted from the decoded value.
#[test]
fn transcript_tool_use_input_is_printed_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let t = "home/u/.cursor/projects/p1/agent-transcripts/t6.jsonl";
    let path = dir.path().join(t);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        concat!(
            r#"{"role":"assistant","message":{"content":[{"type":"text","text":"sure"},{"type":"tool_use","id":"tu1","name":"Shell","input":{"z":1,"command":"rm -rf cache"}}]}}"#,
            "\n",
            r#"{"role":"assistant","content":[{"type":"tool_use","id":"tu2","name":"Edit","input":{ "path": "caf\u00e9.txt", "n": 1.10, "a": [2, 1] }}]}"#,
            "\n",
        ),
    )
    .unwrap();
    assert_lines(
        &read_file(dir.path(), t),
        &[
            " | t6 | p1 | assistant | live | false |  |   | sure | byte 0",
            r#" | t6 | p1 | tool_use | live | false |  | Shell tu1 | {"z":1,"command":"rm -rf cache"} | byte 0"#,
            r#" | t6 | p1 | tool_use | live | false |  | Edit tu2 | {"path":"caf\u00e9.txt","n":1.10,"a":[2,1]} | byte 162"#,
        ],
    );
}

/// A `tool` message whose `content` is a plain string (or a text part) is the tool's
/// output: a `tool_result` row with its text, named by the part's, else the message's
/// `toolName` / `toolCallId` (`name` / `tool_call_id` in the OpenAI shape), as an array's
/// `tool-result` part is; it was `message part: role=tool type=text (<n> bytes)`.
#[test]
fn a_tool_message_with_plain_text_content_is_a_tool_result() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let rel = "home/u/.cursor/chats/h1/agent-tool/store.db";
    let messages = [
        serde_json::json!({"role": "tool", "content": [{"type": "tool-result",
            "toolCallId": "c1", "toolName": "Shell", "result": {"exit": 0}}]}),
        serde_json::json!({"role": "tool", "content": "plain tool text"}),
        serde_json::json!({"role": "tool", "tool_call_id": "call_9", "name": "Read",
            "content": "file body"}),
        serde_json::json!({"role": "tool", "toolCallId": "c3",
            "content": [{"type": "text", "text": "part text", "toolName": "Grep"}]}),
    ];
    build_store(&root.join("home/u/.cursor/chats/h1/agent-tool"), &messages);
    let id: Vec<String> = messages
        .iter()
        .map(|m| sha(m.to_string().as_bytes()))
        .collect();
    let got = read_file(root, rel);
    assert_lines(
        &got[2..],
        &[
            &format!(
                r#" | agent-tool |  | tool_result | live | false |  | Shell c1 | {{"exit":0}} | blobs id={}"#,
                id[0]
            ),
            &format!(
                " | agent-tool |  | tool_result | live | false |  |   | plain tool text | blobs id={}",
                id[1]
            ),
            &format!(
                " | agent-tool |  | tool_result | live | false |  | Read call_9 | file body | blobs id={}",
                id[2]
            ),
            &format!(
                " | agent-tool |  | tool_result | live | false |  | Grep c3 | part text | blobs id={}",
                id[3]
            ),
        ],
    );
}

/// Every settings row names the key it reads in its locator (as the VS Code settings
/// rows do): `key terminalAllowlist[0]`, `key autoRun.enabled`, `key
/// permissions.allow[1]`, `key approvalMode`, `key model.modelId`, `key gh.tools[0]`;
/// `.workspace-trusted` (a marker) and a file that is not JSON have `whole file`. An
/// empty list or object in `mcp-approvals.json` is a leaf, its value as written (`[]`,
/// `{}`); it gave no row. A `mcp-approvals.json` that is a list of approval keys (the
/// form another reader's harness writes for `cursor-agent`) gives a row per key. The
/// audit's files (JSONC, `authInfo`, project files); no secret.
#[test]
fn settings_rows_name_their_key() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        set_mtime(&p, T0);
    };
    let dot = "home/u/.cursor";
    let p = "home/u/.cursor/projects/home-u-src-p-abc1234";
    write(
        &format!("{dot}/permissions.json"),
        "// comment\n{ \"terminalAllowlist\": [\"git status\", \"npm *\",], /* c */ \"mcpAllowlist\": [\"github:*\"], \"autoRun\": {\"enabled\": true, \"mode\": \"allowlist\"} }",
    );
    write(
        &format!("{dot}/cli-config.json"),
        r#"{"version":1,"permissions":{"allow":["Shell(git *)","Read(**)"],"deny":["Shell(rm *)"]},"approvalMode":"allowlist","model":{"modelId":"gpt-5","displayName":"GPT-5"},"maxMode":false,"authInfo":{"email":"u@example.com","accessToken":"AUTHTOKEN_SECRET_1","apiKey":"sk-SECRET2"}}"#,
    );
    write(
        &format!("{p}/mcp-approvals.json"),
        r#"{"gh":{"tools":["get_issue","create_pr"],"approvedAt":1767225600000},"empty":[],"none":{}}"#,
    );
    write(&format!("{p}/.workspace-trusted"), "");
    // the form another reader's harness writes for `cursor-agent` to find its servers
    // approved: a list of `<server>-<first 16 hex of a SHA-256>` keys
    let q = "home/u/.cursor/projects/home-u-src-q-def5678";
    write(
        &format!("{q}/mcp-approvals.json"),
        r#"["github-1f2e3d4c5b6a7988","playwright-0a1b2c3d4e5f6071"]"#,
    );
    write(
        "home/u/src/p/.cursor/permissions.json",
        r#"{"terminalAllowlist":["make"]}"#,
    );
    write(
        "home/u/src/p/.cursor/cli.json",
        r#"{"permissions":{"allow":["Write(src/**)"]},"model":"gpt-4o"}"#,
    );
    write(&format!("{dot}/projects/bad/mcp-approvals.json"), "{nope");
    let all = |rel: &str| {
        let rows = read_rows(&root.join(rel), rel, None);
        for r in &rows {
            assert!(!format!("{r:?}").contains("SECRET"), "{r:?}");
        }
        rows.iter().map(render).collect::<Vec<_>>()
    };
    let perm = |text: &str, from: &str, key: &str| {
        format!(
            "mtime |  |  | system | live | false |  |   | permission setting: {text} (from .cursor/{from}, file mtime) | {key}"
        )
    };
    assert_lines(
        &all(&format!("{dot}/permissions.json")),
        &[
            &perm(
                "terminalAllowlist=git status",
                "permissions.json",
                "key terminalAllowlist[0]",
            ),
            &perm(
                "terminalAllowlist=npm *",
                "permissions.json",
                "key terminalAllowlist[1]",
            ),
            &perm(
                "mcpAllowlist=github:*",
                "permissions.json",
                "key mcpAllowlist[0]",
            ),
            &perm(
                "autoRun.enabled=true",
                "permissions.json",
                "key autoRun.enabled",
            ),
            &perm(
                "autoRun.mode=allowlist",
                "permissions.json",
                "key autoRun.mode",
            ),
        ],
    );
    assert_lines(
        &all(&format!("{dot}/cli-config.json")),
        &[
            &perm(
                "permissions.allow=Shell(git *)",
                "cli-config.json",
                "key permissions.allow[0]",
            ),
            &perm(
                "permissions.allow=Read(**)",
                "cli-config.json",
                "key permissions.allow[1]",
            ),
            &perm(
                "permissions.deny=Shell(rm *)",
                "cli-config.json",
                "key permissions.deny[0]",
            ),
            &perm(
                "approvalMode=allowlist",
                "cli-config.json",
                "key approvalMode",
            ),
            "mtime |  |  | system | live | false | gpt-5 |   | model setting: model=gpt-5 maxMode=false (from .cursor/cli-config.json, file mtime) | key model.modelId",
        ],
    );
    let mcp = "projects/home-u-src-p-abc1234/mcp-approvals.json";
    let at = "location=home-u-src-p-abc1234";
    assert_lines(
        &all(&format!("{p}/mcp-approvals.json")),
        &[
            &perm(
                &format!("mcp-approvals.gh.tools=get_issue {at}"),
                mcp,
                "key gh.tools[0]",
            ),
            &perm(
                &format!("mcp-approvals.gh.tools=create_pr {at}"),
                mcp,
                "key gh.tools[1]",
            ),
            &perm(
                &format!("mcp-approvals.gh.approvedAt=1767225600000 {at}"),
                mcp,
                "key gh.approvedAt",
            ),
            &perm(&format!("mcp-approvals.empty=[] {at}"), mcp, "key empty"),
            &perm(&format!("mcp-approvals.none={{}} {at}"), mcp, "key none"),
        ],
    );
    let listed = "projects/home-u-src-q-def5678/mcp-approvals.json";
    let at_q = "location=home-u-src-q-def5678";
    assert_lines(
        &all(&format!("{q}/mcp-approvals.json")),
        &[
            &perm(
                &format!("mcp-approvals=github-1f2e3d4c5b6a7988 {at_q}"),
                listed,
                "key [0]",
            ),
            &perm(
                &format!("mcp-approvals=playwright-0a1b2c3d4e5f6071 {at_q}"),
                listed,
                "key [1]",
            ),
        ],
    );
    assert_lines(
        &all(&format!("{p}/.workspace-trusted")),
        &[&perm(
            &format!("workspace_trusted=true {at}"),
            "projects/home-u-src-p-abc1234/.workspace-trusted",
            "whole file",
        )],
    );
    let project = "/home/u/src/p";
    assert_lines(
        &all("home/u/src/p/.cursor/permissions.json"),
        &[&format!(
            "mtime |  | {project} | system | live | false |  |   | permission setting: terminalAllowlist=make (from .cursor/permissions.json, file mtime) | key terminalAllowlist[0]"
        )],
    );
    assert_lines(
        &all("home/u/src/p/.cursor/cli.json"),
        &[
            &format!(
                "mtime |  | {project} | system | live | false |  |   | permission setting: permissions.allow=Write(src/**) (from .cursor/cli.json, file mtime) | key permissions.allow[0]"
            ),
            &format!(
                "mtime |  | {project} | system | live | false | gpt-4o |   | model setting: model=gpt-4o (from .cursor/cli.json, file mtime) | key model"
            ),
        ],
    );
    let bad = all(&format!("{dot}/projects/bad/mcp-approvals.json"));
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].ends_with(" | whole file"), "{bad:?}");
}

/// Many transcripts beside many `chats/<hash>` folders (the audit's shape, at 300): each
/// transcript is secondary exactly when `chats/<some hash>/<its id>/store.db` exists, with
/// that agent's `meta.json` `cwd` as project (the first hash by name when the id is in
/// two), else live with the `projects/<p>` name. The agent folders are listed once per
/// `.cursor` and reader: a `store.db` written after the reader's first transcript is seen
/// by a new reader only.
#[test]
fn transcripts_find_their_agent_store_through_one_listing_per_reader() {
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("home/u/.cursor");
    let n = 300;
    for i in 0..n {
        let t = dot.join(format!("projects/p{i}/agent-transcripts/t{i}.jsonl"));
        std::fs::create_dir_all(t.parent().unwrap()).unwrap();
        std::fs::write(
            &t,
            format!(
                r#"{{"role":"user","message":{{"content":[{{"type":"text","text":"hi {i}"}}]}}}}"#
            ) + "\n",
        )
        .unwrap();
        let hash = dot.join(format!("chats/h{i:03}"));
        std::fs::create_dir_all(&hash).unwrap();
        // every third agent has a store (every sixth a meta.json with a cwd too); the
        // others a folder without one
        let agent = hash.join(format!("t{i}"));
        std::fs::create_dir_all(&agent).unwrap();
        if i % 3 == 0 {
            std::fs::write(agent.join("store.db"), b"").unwrap();
        }
        if i % 6 == 0 {
            std::fs::write(agent.join("meta.json"), format!(r#"{{"cwd":"/src/w{i}"}}"#)).unwrap();
        }
    }
    // t1 also under a later hash, with a store: that one counts; t6's store is also
    // under an earlier hash ("h000" < "h006"): the earlier one counts
    let late = dot.join("chats/h999/t1");
    std::fs::create_dir_all(&late).unwrap();
    std::fs::write(late.join("store.db"), b"").unwrap();
    std::fs::write(late.join("meta.json"), r#"{"cwd":"/src/late"}"#).unwrap();
    let early = dot.join("chats/h000/t6");
    std::fs::create_dir_all(&early).unwrap();
    std::fs::write(early.join("store.db"), b"").unwrap();
    std::fs::write(early.join("meta.json"), r#"{"cwd":"/src/early"}"#).unwrap();
    // an agent folder of another hash whose store.db is a folder, and one whose meta.json
    // gives an empty cwd
    std::fs::create_dir_all(dot.join("chats/h004/t4/store.db")).unwrap();
    std::fs::write(dot.join("chats/h009/t9/meta.json"), r#"{"cwd":""}"#).unwrap();
    // a file among the hash folders
    std::fs::write(dot.join("chats/README"), b"not a folder").unwrap();

    let read = |ev: &Evidence, i: usize| -> String {
        let rel = format!("home/u/.cursor/projects/p{i}/agent-transcripts/t{i}.jsonl");
        let ctx = FileContext {
            display_path: rel.clone(),
            ..FileContext::default()
        };
        let rows = CursorStore.read(&dir.path().join(&rel), &ctx, ev);
        assert_eq!(rows.len(), 1, "t{i}");
        render(&rows[0])
    };
    let ev = Evidence::new();
    let got: Vec<String> = (0..n).map(|i| read(&ev, i)).collect();
    let want: Vec<String> = (0..n)
        .map(|i| {
            let (project, state, secondary) = match i {
                1 => ("/src/late".to_string(), "secondary", true),
                6 => ("/src/early".to_string(), "secondary", true),
                _ if i % 6 == 0 => (format!("/src/w{i}"), "secondary", true),
                _ if i % 3 == 0 => (format!("p{i}"), "secondary", true),
                _ => (format!("p{i}"), "live", false),
            };
            format!(" | t{i} | {project} | user | {state} | {secondary} |  |   | hi {i} | byte 0")
        })
        .collect();
    assert_eq!(got, want);

    // the listing is the reader's: t2's store, written now, is not seen by it
    std::fs::write(dot.join("chats/h002/t2/store.db"), b"").unwrap();
    assert_eq!(
        read(&ev, 2),
        " | t2 | p2 | user | live | false |  |   | hi 2 | byte 0"
    );
    assert_eq!(
        read(&Evidence::new(), 2),
        " | t2 | p2 | user | secondary | true |  |   | hi 2 | byte 0"
    );
}

/// A `store.db` whose latest root `children` (message texts; `None` a blob the table does
/// not hold) may list a message more than once.
fn build_store_listing(dir: &Path, children: &[Option<&str>]) {
    std::fs::create_dir_all(dir).unwrap();
    let c = Connection::open(dir.join("store.db")).unwrap();
    c.execute_batch(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
         CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);",
    )
    .unwrap();
    let blobs: Vec<Vec<u8>> = children
        .iter()
        .map(|m| match m {
            Some(text) => serde_json::json!({"role": "user", "content": text})
                .to_string()
                .into_bytes(),
            None => b"never stored".to_vec(),
        })
        .collect();
    for (b, m) in blobs.iter().zip(children) {
        if m.is_some() {
            c.execute(
                "INSERT OR IGNORE INTO blobs VALUES (?1, ?2)",
                params![sha(b), b],
            )
            .unwrap();
        }
    }
    let r = root(&blobs.iter().map(Vec::as_slice).collect::<Vec<_>>());
    c.execute("INSERT INTO blobs VALUES (?1, ?2)", params![sha(&r), r])
        .unwrap();
    let meta = serde_json::json!({"latestRootBlobId": sha(&r), "name": "dup"});
    c.execute(
        "INSERT INTO meta VALUES ('0', ?1)",
        [hex(meta.to_string().as_bytes())],
    )
    .unwrap();
}

/// A child the latest root lists again is read once, at its first place, followed by a
/// `link:` row naming every place (a missing one too); at the audit's shape (one message
/// listed 2,000 times) that is two rows, not 2,000 copies.
#[test]
fn a_child_the_root_lists_again_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let rel = "home/u/.cursor/chats/h1/agent-dup/store.db";
    build_store_listing(
        &dir.path().join("home/u/.cursor/chats/h1/agent-dup"),
        &[
            Some("first"),
            Some("second"),
            Some("first"),
            None,
            Some("first"),
            None,
        ],
    );
    let first = sha(br#"{"content":"first","role":"user"}"#);
    let second = sha(br#"{"content":"second","role":"user"}"#);
    let missing = sha(b"never stored");
    assert_lines(
        &read_file(dir.path(), rel),
        &[
            r#" | agent-dup |  | system | live | false |  |   | session start: title=dup | table meta key=0"#,
            &format!(" | agent-dup |  | user | live | false |  |   | first | blobs id={first}"),
            &format!(
                " | agent-dup |  | system | live | false |  |   | link: blob {first} is listed 3 times by the root (places 1, 3, 5 of 6); read once, at the first | blobs id={first}"
            ),
            &format!(" | agent-dup |  | user | live | false |  |   | second | blobs id={second}"),
            &format!(
                " | agent-dup |  | system | live | false |  |   | link: blob {missing} named by the root is missing | blobs id={missing}"
            ),
            &format!(
                " | agent-dup |  | system | live | false |  |   | link: blob {missing} is listed 2 times by the root (places 4, 6 of 6); read once, at the first | blobs id={missing}"
            ),
        ],
    );

    let dir = tempfile::tempdir().unwrap();
    build_store_listing(
        &dir.path().join("home/u/.cursor/chats/h1/agent-dup"),
        &vec![Some("again"); 2000],
    );
    let again = sha(br#"{"content":"again","role":"user"}"#);
    let places: Vec<String> = (1..=2000).map(|i| i.to_string()).collect();
    let rows = read_file(dir.path(), rel);
    assert_lines(
        &rows[1..],
        &[
            &format!(" | agent-dup |  | user | live | false |  |   | again | blobs id={again}"),
            &format!(
                " | agent-dup |  | system | live | false |  |   | link: blob {again} is listed 2000 times by the root (places {} of 2000); read once, at the first | blobs id={again}",
                places.join(", ")
            ),
        ],
    );
}

/// A carved root blob (an older root deleted from `blobs`, `secure_delete` off) is not
/// passed over: it gives one `deleted` `link:` row naming it and its message count,
/// placed as the other carved blobs (`blobs id=<id>, <where>`); the message only it
/// listed is still a live blob, read as `recovered`.
#[test]
fn a_deleted_root_blob_gives_a_link_row() {
    let dir = tempfile::tempdir().unwrap();
    let rel = "home/u/.cursor/chats/h1/agent-edit/store.db";
    let folder = dir.path().join("home/u/.cursor/chats/h1/agent-edit");
    std::fs::create_dir_all(&folder).unwrap();
    let c = Connection::open(folder.join("store.db")).unwrap();
    c.execute_batch(
        "PRAGMA page_size = 4096; PRAGMA secure_delete = OFF;
         CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
         CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);",
    )
    .unwrap();
    let msg = |role: &str, text: &str| {
        serde_json::json!({"role": role, "content": text})
            .to_string()
            .into_bytes()
    };
    let ask = msg("user", "rename the router");
    let before = msg("assistant", "renamed to Nav");
    let after = msg("assistant", "renamed to Router2");
    let old_root = root(&[&ask, &before]);
    let new_root = root(&[&ask, &after]);
    for b in [&ask, &before, &old_root, &after, &new_root] {
        c.execute("INSERT INTO blobs VALUES (?1, ?2)", params![sha(b), b])
            .unwrap();
    }
    let meta = serde_json::json!({"latestRootBlobId": sha(&new_root), "name": "edit"});
    c.execute(
        "INSERT INTO meta VALUES ('0', ?1)",
        [hex(meta.to_string().as_bytes())],
    )
    .unwrap();
    c.execute("DELETE FROM blobs WHERE id = ?1", [sha(&old_root)])
        .unwrap();
    drop(c);
    let rows = read_rows(&dir.path().join(rel), rel, None);
    let lines: Vec<String> = rows.iter().map(render).collect();
    let (ask, before, after, old_root) = (sha(&ask), sha(&before), sha(&after), sha(&old_root));
    assert_lines(
        &lines,
        &[
            " | agent-edit |  | system | live | false |  |   | session start: title=edit | table meta key=0",
            &format!(
                " | agent-edit |  | user | live | false |  |   | rename the router | blobs id={ask}"
            ),
            &format!(
                " | agent-edit |  | assistant | live | false |  |   | renamed to Router2 | blobs id={after}"
            ),
            &format!(
                " | agent-edit |  | assistant | recovered | false |  |   | renamed to Nav | blobs id={before}"
            ),
            &format!(
                " | agent-edit |  | system | deleted | false |  |   | link: deleted root blob {old_root} lists 2 messages | blobs id={old_root}, freeblock at page 4 offset 3724"
            ),
        ],
    );
    let link = rows.last().unwrap();
    assert_eq!(link.record_state, chat_rows::RecordState::Deleted);
    assert_eq!(link.turn_type, chat_rows::TurnType::System);
    assert!(
        link.source_locator
            .starts_with(&format!("blobs id={old_root}, "))
    );
}

/// A global database holding only `agentKv:blob:` records: the messages, then roots
/// listing them (a root lists 32-byte ids; `None` names a blob never stored).
fn build_agent_kv(dir: &Path, messages: &[&[u8]], roots: &[Vec<Option<usize>>]) -> PathBuf {
    let path = global_path(dir);
    let c = Connection::open(&path).unwrap();
    c.execute_batch(KV_SCHEMA).unwrap();
    for m in messages {
        put(&c, &format!("agentKv:blob:{}", sha(m)), &hex(m));
    }
    for (i, r) in roots.iter().enumerate() {
        let never = format!("never stored {i}");
        let children: Vec<&[u8]> = r
            .iter()
            .map(|c| match c {
                Some(m) => messages[*m],
                None => never.as_bytes(),
            })
            .collect();
        let r = root(&children);
        put(&c, &format!("agentKv:blob:{}", sha(&r)), &hex(&r));
    }
    drop(c);
    path
}

/// `agentKv` roots that name the same message: it is read under the first root (by
/// key) that names it, and every later naming, in that root or another, is one `link:`
/// row; a missing child is told under each root. At the audit's shape (200 roots naming
/// one message and one missing blob each) that is 200 rows of links and 200 of missing
/// blobs, with the message once. Pinned in memory and paged.
#[test]
fn a_message_named_by_several_agent_kv_roots_is_read_once() {
    let msg = |role: &str, text: &str| {
        serde_json::json!({"role": role, "content": [{"type": "text", "text": text}]})
            .to_string()
            .into_bytes()
    };
    let (q, x) = (
        msg("user", "shared question"),
        msg("assistant", "only in one"),
    );
    let dir = tempfile::tempdir().unwrap();
    let roots = vec![vec![Some(0), Some(1)], vec![Some(0), Some(0), None]];
    let path = build_agent_kv(dir.path(), &[&q, &x], &roots);
    let root_id = |i: usize| {
        let never = format!("never stored {i}");
        let children: Vec<&[u8]> = roots[i]
            .iter()
            .map(|c| match c {
                Some(0) => q.as_slice(),
                Some(_) => x.as_slice(),
                None => never.as_bytes(),
            })
            .collect();
        sha(&root(&children))
    };
    let (r0, r1) = (root_id(0), root_id(1));
    // roots are read in key order
    assert!(r1 < r0, "{r0} {r1}");
    let (sq, sx, gone) = (sha(&q), sha(&x), sha(b"never stored 1"));
    let (s0, s1) = (&r0[..12], &r1[..12]);
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                " | agentkv:{s1} |  | user | live | false |  |   | shared question | cursorDiskKV key=agentKv:blob:{sq}"
            ),
            &format!(
                " | agentkv:{s1} |  | system | live | false |  |   | link: blob {sq} named by the root was read before, under root {r1} | cursorDiskKV key=agentKv:blob:{sq}"
            ),
            &format!(
                " | agentkv:{s1} |  | system | live | false |  |   | link: blob {gone} named by the root is missing | cursorDiskKV key=agentKv:blob:{gone}"
            ),
            &format!(
                " | agentkv:{s0} |  | system | live | false |  |   | link: blob {sq} named by the root was read before, under root {r1} | cursorDiskKV key=agentKv:blob:{sq}"
            ),
            &format!(
                " | agentkv:{s0} |  | assistant | live | false |  |   | only in one | cursorDiskKV key=agentKv:blob:{sx}"
            ),
        ],
    );

    // the audit's shape: 200 roots, each naming one 20 KB message and a missing blob
    let big = msg("user", &"x".repeat(20_000));
    let roots: Vec<Vec<Option<usize>>> = (0..200).map(|_| vec![Some(0), None]).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = build_agent_kv(dir.path(), &[&big], &roots);
    let mut ids: Vec<(String, String)> = (0..200)
        .map(|i| {
            let never = format!("never stored {i}");
            let r = sha(&root(&[big.as_slice(), never.as_bytes()]));
            (r, sha(never.as_bytes()))
        })
        .collect();
    ids.sort();
    let sb = sha(&big);
    let first = &ids[0].0;
    let mut want = Vec::new();
    for (i, (r, gone)) in ids.iter().enumerate() {
        let s = &r[..12];
        want.push(if i == 0 {
            format!(" | agentkv:{s} |  | user | live | false |  |   | {} | cursorDiskKV key=agentKv:blob:{sb}", "x".repeat(20_000))
        } else {
            format!(" | agentkv:{s} |  | system | live | false |  |   | link: blob {sb} named by the root was read before, under root {first} | cursorDiskKV key=agentKv:blob:{sb}")
        });
        want.push(format!(" | agentkv:{s} |  | system | live | false |  |   | link: blob {gone} named by the root is missing | cursorDiskKV key=agentKv:blob:{gone}"));
    }
    assert_eq!(global_rows(&path), want);
}

/// A carved `agentKv` root (an older root deleted from `cursorDiskKV`, `secure_delete`
/// off) is a valid record, not damage: one `deleted` `link:` row naming it and the count
/// of ids it lists, no session, placed as the other carved records
/// (`cursorDiskKV key=agentKv:blob:<id>, <where>`), as the CLI's carved roots
/// (`a_deleted_root_blob_gives_a_link_row`). It was `parser: blob <id> is not a message
/// (a root of 2 blobs)`. The message it listed, still live and now in no root, is
/// `recovered`. Memory and paged.
#[test]
fn a_deleted_agent_kv_root_gives_a_link_row() {
    let (_dir, path, c) = kv_db();
    let msg = |role: &str, text: &str| {
        serde_json::json!({"role": role, "content": [{"type": "text", "text": text}]})
            .to_string()
            .into_bytes()
    };
    let (ask, answer) = (
        msg("user", "why is CI red"),
        msg("assistant", "a flaky test"),
    );
    let old_root = root(&[&ask, &answer]);
    for b in [&ask, &old_root] {
        put(&c, &format!("agentKv:blob:{}", sha(b)), &hex(b));
    }
    c.execute(
        "DELETE FROM cursorDiskKV WHERE key = ?1",
        [format!("agentKv:blob:{}", sha(&old_root))],
    )
    .unwrap();
    drop(c);
    let lines = global_rows(&path);
    let (ask, old_root) = (sha(&ask), sha(&old_root));
    assert_lines(
        &lines,
        &[
            &format!(
                " |  |  | user | recovered | false |  |   | why is CI red | cursorDiskKV key=agentKv:blob:{ask}"
            ),
            &format!(
                " |  |  | system | deleted | false |  |   | link: deleted root blob {old_root} lists 2 messages | cursorDiskKV key=agentKv:blob:{old_root}, unallocated space at page 4 offset 3661"
            ),
        ],
    );
    let rows = read_rows(&path, GLOBAL, None);
    let link = rows.last().unwrap();
    assert_eq!(link.record_state, chat_rows::RecordState::Deleted);
    assert_eq!(link.turn_type, chat_rows::TurnType::System);
    assert_eq!(link.session_id, "");
}

const CX: &str = "c1000000-0000-4000-8000-0000000000e1";
const CY: &str = "c2000000-0000-4000-8000-0000000000e2";

/// CX's `composerData` is not JSON: the `parser:` row, then its bubbles read by their
/// keys as those of a missing `composerData` (by time; the checkpoint a bubble names at
/// its time, then the one no bubble names); CY, after it, as usual. Memory and paged.
#[test]
fn bubbles_of_a_composer_data_that_is_not_json_are_read_by_their_keys() {
    let (_dir, path, c) = kv_db();
    put(
        &c,
        &format!("composerData:{CX}"),
        r#"{"_v": 13, "name": "cut"#,
    );
    put_json(
        &c,
        &format!("bubbleId:{CX}:x1"),
        serde_json::json!({"bubbleId": "x1", "type": 2, "text": "the answer",
            "createdAt": T0 + 2_000, "checkpointId": "cp1"}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CX}:x2"),
        serde_json::json!({"bubbleId": "x2", "type": 1, "text": "the question", "createdAt": T0 + 1_000}),
    );
    for cp in ["cp1", "cp2"] {
        put_json(
            &c,
            &format!("checkpointId:{CX}:{cp}"),
            serde_json::json!({"files": [{"uri": {"fsPath": format!("/src/{cp}.rs")},
                "originalModelDiffWrtV0": [{}]}]}),
        );
    }
    put_json(
        &c,
        &format!("composerData:{CY}"),
        serde_json::json!({"_v": 13, "composerId": CY, "name": "Next", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "y1"}]}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CY}:y1"),
        serde_json::json!({"bubbleId": "y1", "type": 1, "text": "next one"}),
    );
    drop(c);
    let kv = |k: &str| format!("cursorDiskKV key={k}");
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                " | {CX} |  | system | live | false |  |   | parser: cursorDiskKV value for composerData:{CX} is not valid JSON (EOF while parsing a string at line 1 column 23) | {}",
                kv(&format!("composerData:{CX}"))
            ),
            &format!(
                " | {CX} |  | system | live | false |  |   | session start: composerData missing; 2 bubbles read by their keys | {}",
                kv(&format!("bubbleId:{CX}:"))
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CX} |  | user | live | false |  |   | the question | {}",
                kv(&format!("bubbleId:{CX}:x2"))
            ),
            &format!(
                "2026-05-28T20:26:42.000000Z | {CX} |  | assistant | live | false |  |   | the answer | {}",
                kv(&format!("bubbleId:{CX}:x1"))
            ),
            &format!(
                "2026-05-28T20:26:42.000000Z | {CX} |  | system | live | false |  |   | checkpoint file: /src/cp1.rs hunks=1 checkpoint=cp1 | {}",
                kv(&format!("checkpointId:{CX}:cp1"))
            ),
            &format!(
                " | {CX} |  | system | live | false |  |   | checkpoint file: /src/cp2.rs hunks=1 checkpoint=cp2 | {}",
                kv(&format!("checkpointId:{CX}:cp2"))
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {CY} |  | system | live | false |  |   | session start: title=Next format=v13 | {}",
                kv(&format!("composerData:{CY}"))
            ),
            &format!(
                " | {CY} |  | user | live | false |  |   | next one | {}",
                kv(&format!("bubbleId:{CY}:y1"))
            ),
        ],
    );
}

const CM: &str = "c3000000-0000-4000-8000-0000000000e3";

/// Headers list m1 (inline) and m3 (a `bubbleId:` record); `conversationMap` also holds
/// m2 and m4, which no header lists: they follow the listed bubbles, by time then id,
/// before the unlisted `bubbleId:` record m5. Memory and paged.
#[test]
fn inline_bubbles_the_headers_do_not_list_are_read_after_the_listed_ones() {
    let (_dir, path, c) = kv_db();
    put_json(
        &c,
        &format!("composerData:{CM}"),
        serde_json::json!({"_v": 2, "composerId": CM, "name": "Map", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "m1"}, {"bubbleId": "m3"}],
            "conversationMap": {
                "m1": {"bubbleId": "m1", "type": 1, "text": "listed question", "createdAt": T0 + 1_000},
                "m2": {"bubbleId": "m2", "type": 2, "text": "unlisted late", "createdAt": T0 + 4_000},
                "m4": {"bubbleId": "m4", "type": 2, "text": "unlisted early", "createdAt": T0 + 3_000}}}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CM}:m3"),
        serde_json::json!({"bubbleId": "m3", "type": 2, "text": "listed record", "createdAt": T0 + 2_000}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CM}:m5"),
        serde_json::json!({"bubbleId": "m5", "type": 1, "text": "unlisted record", "createdAt": T0 + 500}),
    );
    drop(c);
    let kv = |k: &str| format!("cursorDiskKV key={k}");
    let composer = kv(&format!("composerData:{CM}"));
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {CM} |  | system | live | false |  |   | session start: title=Map format=v2 | {composer}"
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CM} |  | user | live | false |  |   | listed question | {composer}"
            ),
            &format!(
                "2026-05-28T20:26:42.000000Z | {CM} |  | assistant | live | false |  |   | listed record | {}",
                kv(&format!("bubbleId:{CM}:m3"))
            ),
            &format!(
                "2026-05-28T20:26:43.000000Z | {CM} |  | assistant | live | false |  |   | unlisted early | {composer}"
            ),
            &format!(
                "2026-05-28T20:26:44.000000Z | {CM} |  | assistant | live | false |  |   | unlisted late | {composer}"
            ),
            &format!(
                "2026-05-28T20:26:40.500000Z | {CM} |  | user | live | false |  |   | unlisted record | {}",
                kv(&format!("bubbleId:{CM}:m5"))
            ),
        ],
    );
}

const CL: &str = "c4000000-0000-4000-8000-0000000000e4";
const CN: &str = "c5000000-0000-4000-8000-0000000000e5";

/// The older `conversation[]` array is read in its own order, not by bubble id nor by
/// time (CL: no headers; zz before aa though later, and an entry without a `bubbleId`
/// in its place); with headers (CN), the unlisted entries follow the listed one in the
/// array's order. Memory and paged.
#[test]
fn a_conversation_array_is_read_in_its_order() {
    let (_dir, path, c) = kv_db();
    put_json(
        &c,
        &format!("composerData:{CL}"),
        serde_json::json!({"_v": 1, "composerId": CL, "name": "Legacy", "createdAt": T0,
            "conversation": [
                {"bubbleId": "zz", "type": 1, "text": "first question", "createdAt": T0 + 2_000},
                {"bubbleId": "aa", "type": 2, "text": "first answer", "createdAt": T0 + 1_000},
                {"type": 1, "text": "no id"},
                {"bubbleId": "mm", "type": 2, "text": "last answer"}]}),
    );
    put_json(
        &c,
        &format!("composerData:{CN}"),
        serde_json::json!({"_v": 1, "composerId": CN, "name": "Listed", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "h1"}],
            "conversation": [
                {"bubbleId": "q2", "type": 1, "text": "unlisted one"},
                {"bubbleId": "h1", "type": 1, "text": "listed"},
                {"bubbleId": "q0", "type": 2, "text": "unlisted two"}]}),
    );
    drop(c);
    let l = format!("cursorDiskKV key=composerData:{CL}");
    let n = format!("cursorDiskKV key=composerData:{CN}");
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {CL} |  | system | live | false |  |   | session start: title=Legacy format=v1 | {l}"
            ),
            &format!(
                "2026-05-28T20:26:42.000000Z | {CL} |  | user | live | false |  |   | first question | {l}"
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CL} |  | assistant | live | false |  |   | first answer | {l}"
            ),
            &format!(" | {CL} |  | user | live | false |  |   | no id | {l}"),
            &format!(" | {CL} |  | assistant | live | false |  |   | last answer | {l}"),
            &format!(
                "2026-05-28T20:26:40.000000Z | {CN} |  | system | live | false |  |   | session start: title=Listed format=v1 | {n}"
            ),
            &format!(" | {CN} |  | user | live | false |  |   | listed | {n}"),
            &format!(" | {CN} |  | user | live | false |  |   | unlisted one | {n}"),
            &format!(" | {CN} |  | assistant | live | false |  |   | unlisted two | {n}"),
        ],
    );
}

const CK: &str = "c6000000-0000-4000-8000-0000000000e6";
const CV: &str = "c7000000-0000-4000-8000-0000000000e7";

/// Deleted checkpoints and request contexts take the time of the bubble naming them, as
/// live ones do: CK (deleted whole) from its deleted bubble k1; CV (live) from its live
/// bubble v1, whose checkpoint cp8 was rewritten (the older value carved). Memory and
/// paged.
#[test]
fn deleted_checkpoints_take_the_time_of_the_bubble_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = global_path(&dir.path().join("work"));
    let c = Connection::open(&path).unwrap();
    c.execute_batch(KV_SCHEMA).unwrap();
    c.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    let checkpoint = |file: &str, hunks: usize| {
        serde_json::json!({"files": [{"uri": {"fsPath": file},
            "originalModelDiffWrtV0": vec![serde_json::json!({}); hunks]}]})
    };
    put_json(
        &c,
        &format!("composerData:{CK}"),
        serde_json::json!({"_v": 13, "composerId": CK, "name": "Gone", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "k1"}]}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CK}:k1"),
        serde_json::json!({"bubbleId": "k1", "type": 1, "text": "delete me",
            "createdAt": T0 + 500, "checkpointId": "cp9"}),
    );
    put_json(
        &c,
        &format!("checkpointId:{CK}:cp9"),
        checkpoint("/src/a.ts", 1),
    );
    put(
        &c,
        &format!("messageRequestContext:{CK}:k1"),
        r#"{"gitDiff":"abc"}"#,
    );
    put_json(
        &c,
        &format!("composerData:{CV}"),
        serde_json::json!({"_v": 13, "composerId": CV, "name": "Kept", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "v1"}]}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CV}:v1"),
        serde_json::json!({"bubbleId": "v1", "type": 1, "text": "keep me",
            "createdAt": T0 + 700, "checkpointId": "cp8"}),
    );
    put_json(
        &c,
        &format!("checkpointId:{CV}:cp8"),
        checkpoint("/src/old.ts", 3),
    );
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);").unwrap();
    c.execute(
        "DELETE FROM cursorDiskKV WHERE key LIKE ?1",
        [format!("%{CK}%")],
    )
    .unwrap();
    c.execute(
        "DELETE FROM cursorDiskKV WHERE key = ?1",
        [format!("checkpointId:{CV}:cp8")],
    )
    .unwrap();
    put_json(
        &c,
        &format!("checkpointId:{CV}:cp8"),
        checkpoint("/src/new.ts", 1),
    );
    let path = wal_copy(c, &path, &dir.path().join("copy"));
    let kv = |k: &str| format!("cursorDiskKV key={k}");
    let cell = |k: &str, n: u32| format!("cursorDiskKV key={k}, main file page 4 cell {n}");
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {CV} |  | system | live | false |  |   | session start: title=Kept format=v13 | {}",
                kv(&format!("composerData:{CV}, wal frame 5 (page 4) cell 0"))
            ),
            &format!(
                "2026-05-28T20:26:40.700000Z | {CV} |  | user | live | false |  |   | keep me | {}",
                kv(&format!("bubbleId:{CV}:v1, wal frame 5 (page 4) cell 1"))
            ),
            &format!(
                "2026-05-28T20:26:40.700000Z | {CV} |  | system | live | false |  |   | checkpoint file: /src/new.ts hunks=1 checkpoint=cp8 | {}",
                kv(&format!(
                    "checkpointId:{CV}:cp8, wal frame 5 (page 4) cell 2"
                ))
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {CK} |  | system | deleted | false |  |   | session start: title=Gone format=v13 | {}",
                cell(&format!("composerData:{CK}"), 0)
            ),
            &format!(
                "2026-05-28T20:26:40.500000Z | {CK} |  | user | deleted | false |  |   | delete me | {}",
                cell(&format!("bubbleId:{CK}:k1"), 1)
            ),
            &format!(
                "2026-05-28T20:26:40.500000Z | {CK} |  | system | deleted | false |  |   | checkpoint file: /src/a.ts hunks=1 checkpoint=cp9 | {}",
                cell(&format!("checkpointId:{CK}:cp9"), 2)
            ),
            &format!(
                "2026-05-28T20:26:40.500000Z | {CK} |  | system | deleted | false |  |   | request context: message=k1 gitDiff=3 | {}",
                cell(&format!("messageRequestContext:{CK}:k1"), 3)
            ),
            &format!(
                "2026-05-28T20:26:40.700000Z | {CV} |  | system | deleted | false |  |   | checkpoint file: /src/old.ts hunks=3 checkpoint=cp8 | {}",
                cell(&format!("checkpointId:{CV}:cp8"), 6)
            ),
        ],
    );
}

const CR: &str = "c8000000-0000-4000-8000-0000000000e8";

/// `messageRequestContext` sizes are bytes as stored: a string's UTF-8 bytes (not its
/// JSON with quotes and escapes), anything else its compact JSON as written (escapes and
/// numbers untouched, keys in the writer's order; a name written twice, its last value).
/// Memory and paged.
#[test]
fn request_context_sizes_are_the_bytes_as_written() {
    let (_dir, path, c) = kv_db();
    put_json(
        &c,
        &format!("composerData:{CR}"),
        serde_json::json!({"_v": 13, "composerId": CR, "name": "Sizes", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "r1"}]}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CR}:r1"),
        serde_json::json!({"bubbleId": "r1", "type": 1, "text": "q", "createdAt": T0 + 1_000}),
    );
    // text "café \"x\"" is 9 bytes (13 as JSON); 1.50 is 4 (3 as "1.5"); the object
    // {"p":"\u00e9","b":[1, 2]} is 24 compact as written (18 decoded and printed)
    put(
        &c,
        &format!("messageRequestContext:{CR}:r1"),
        r#"{"text": "caf\u00e9 \"x\"", "n": 1.50, "obj": { "p": "\u00e9", "b": [1, 2] },
            "empty": [], "none": null, "d": 1, "d": 22}"#,
    );
    drop(c);
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {CR} |  | system | live | false |  |   | session start: title=Sizes format=v13 | cursorDiskKV key=composerData:{CR}"
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CR} |  | user | live | false |  |   | q | cursorDiskKV key=bubbleId:{CR}:r1"
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CR} |  | system | live | false |  |   | request context: message=r1 d=2 empty=2 n=4 none=4 obj=24 text=9 | cursorDiskKV key=messageRequestContext:{CR}:r1"
            ),
        ],
    );
}

/// The root user's home `.cursor` (Linux `/root`, macOS `/var/root`, Windows
/// `systemprofile`) below a host folder is a home one: its settings rows have no
/// project; a project's `.cursor` under `/root` keeps its project.
#[test]
fn the_root_users_home_dot_cursor_is_no_project() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    let perms = r#"{"terminalAllowlist": ["ls"]}"#;
    write("host1/root/.cursor/permissions.json", perms);
    write(
        "host1/root/.cursor/cli-config.json",
        r#"{"permissions": {"allow": ["Shell(ls)"]}}"#,
    );
    write("mac1/private/var/root/.cursor/permissions.json", perms);
    write(
        "win1/C/Windows/System32/config/systemprofile/.cursor/permissions.json",
        perms,
    );
    write(
        "host1/root/src/app/.cursor/cli.json",
        r#"{"permissions": {"deny": ["Shell(rm)"]}}"#,
    );
    let home = |name: &str, text: &str, key: &str| {
        format!(
            "mtime |  |  | system | live | false |  |   | permission setting: {text} (from .cursor/{name}, file mtime) | key {key}"
        )
    };
    for rel in [
        "host1/root/.cursor/permissions.json",
        "mac1/private/var/root/.cursor/permissions.json",
        "win1/C/Windows/System32/config/systemprofile/.cursor/permissions.json",
    ] {
        assert_lines(
            &read_file(dir.path(), rel),
            &[&home(
                "permissions.json",
                "terminalAllowlist=ls",
                "terminalAllowlist[0]",
            )],
        );
    }
    assert_lines(
        &read_file(dir.path(), "host1/root/.cursor/cli-config.json"),
        &[&home(
            "cli-config.json",
            "permissions.allow=Shell(ls)",
            "permissions.allow[0]",
        )],
    );
    // a project under the super-user's home, as on its host (since 2026-12-05)
    let app = "/root/src/app";
    assert_lines(
        &read_file(dir.path(), "host1/root/src/app/.cursor/cli.json"),
        &[&format!(
            "mtime |  | {app} | system | live | false |  |   | permission setting: permissions.deny=Shell(rm) (from .cursor/cli.json, file mtime) | key permissions.deny[0]"
        )],
    );
}

/// The CLI's config root under XDG (`$XDG_CONFIG_HOME/cursor`, `~/.config/cursor`,
/// lower-case) holds `cli-config.json`: it is claimed and read as the one under
/// `~/.cursor`, the same rows in the file's order at its modification time, no project,
/// `authInfo` never read out; only the `(from ...)` names the file from its own root.
#[test]
fn the_cli_config_under_xdg_config_home_is_read_as_the_home_one() {
    let dir = tempfile::tempdir().unwrap();
    let config = r#"{
  "version": 1,
  "permissions": {"allow": ["Shell(git *)", "Read(**)"], "deny": ["Shell(rm *)"]},
  "authInfo": {"email": "u@example.com", "accessToken": "SECRET-XDG-AUTH-TOKEN"},
  "approvalMode": "allowlist",
  "model": {"modelId": "gpt-5"},
  "maxMode": false
}"#;
    let xdg = "home/u/.config/cursor/cli-config.json";
    let home = "home/u/.cursor/cli-config.json";
    for rel in [xdg, home] {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, config).unwrap();
        set_mtime(&p, T0);
    }
    let claim = CursorStore.claim(&dir.path().join(xdg)).unwrap();
    assert_eq!(claim.kind, "cursor cli config");
    let rows = read_rows(&dir.path().join(xdg), xdg, None);
    let want = |root: &str| -> Vec<String> {
        [
            (
                "",
                "permission setting: permissions.allow=Shell(git *)",
                "permissions.allow[0]",
            ),
            (
                "",
                "permission setting: permissions.allow=Read(**)",
                "permissions.allow[1]",
            ),
            (
                "",
                "permission setting: permissions.deny=Shell(rm *)",
                "permissions.deny[0]",
            ),
            ("", "permission setting: approvalMode=allowlist", "approvalMode"),
            (
                "gpt-5",
                "model setting: model=gpt-5 maxMode=false",
                "model.modelId",
            ),
        ]
        .iter()
        .map(|(model, text, key)| {
            format!(
                "mtime |  |  | system | live | false | {model} |   | {text} (from {root}/cli-config.json, file mtime) | key {key}"
            )
        })
        .collect()
    };
    let lines: Vec<String> = rows.iter().map(render).collect();
    assert_eq!(lines, want(".config/cursor"), "\n{}", lines.join("\n"));
    for r in &rows {
        assert_eq!(
            r.timestamp.map(|t| t.to_string()).as_deref(),
            Some("2026-05-28T20:26:40.000000Z")
        );
        assert_eq!(r.source_file, xdg);
        let all = format!("{r:?}");
        assert!(!all.contains("SECRET-XDG-AUTH-TOKEN") && !all.contains("u@example.com"));
    }
    // the same file under ~/.cursor: the same rows, named from `.cursor`
    let lines = read_file(dir.path(), home);
    assert_eq!(lines, want(".cursor"), "\n{}", lines.join("\n"));
}

/// A transcript's project comes from a matching `meta.json` whether or not a `store.db`
/// lies beside it; it is secondary only when its agent has a `store.db`: ta has a
/// `meta.json` alone (live, its cwd); tb a `meta.json` alone under h1 and a store with
/// its own `meta.json` under h2 (secondary, the store's cwd); tc a `meta.json` alone
/// under h1 and a store without one under h2 (secondary, h1's cwd); td a `meta.json`
/// alone with an empty cwd (live, the folder name).
#[test]
fn a_transcript_takes_its_project_from_a_meta_json_without_a_store() {
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("home/u/.cursor");
    let write = |rel: &str, text: &str| {
        let p = dot.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    for t in ["ta", "tb", "tc", "td"] {
        write(
            &format!("projects/home-u-proj/agent-transcripts/{t}.jsonl"),
            &(format!(
                r#"{{"role":"user","message":{{"content":[{{"type":"text","text":"hi {t}"}}]}}}}"#
            ) + "\n"),
        );
    }
    write("chats/h1/ta/meta.json", r#"{"cwd":"/src/a"}"#);
    write("chats/h1/tb/meta.json", r#"{"cwd":"/src/b-meta-only"}"#);
    write("chats/h2/tb/store.db", "");
    write("chats/h2/tb/meta.json", r#"{"cwd":"/src/b"}"#);
    write("chats/h1/tc/meta.json", r#"{"cwd":"/src/c"}"#);
    write("chats/h2/tc/store.db", "");
    write("chats/h1/td/meta.json", r#"{"cwd":""}"#);
    let got: Vec<String> = ["ta", "tb", "tc", "td"]
        .iter()
        .flat_map(|t| {
            read_file(
                dir.path(),
                &format!("home/u/.cursor/projects/home-u-proj/agent-transcripts/{t}.jsonl"),
            )
        })
        .collect();
    assert_lines(
        &got,
        &[
            " | ta | /src/a | user | live | false |  |   | hi ta | byte 0",
            " | tb | /src/b | user | secondary | true |  |   | hi tb | byte 0",
            " | tc | /src/c | user | secondary | true |  |   | hi tc | byte 0",
            " | td | home-u-proj | user | live | false |  |   | hi td | byte 0",
        ],
    );
}

const CQ: &str = "c7000000-0000-4000-8000-0000000000d7";

/// `[[[ ... ]]]`, `depth` arrays deep.
fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

/// Cursor reads its values with `JSON.parse`, which has no depth limit: a bubble, a
/// composer or a checkpoint with a part nested deeper than serde_json reads gives its
/// rows, with one `parser:` row for the part not read (read strictly, the bubble was
/// one `not valid JSON` row and its prompt was lost). Memory and paged.
#[test]
fn values_nested_deeper_than_serde_json_reads_still_give_their_rows() {
    let (_dir, path, c) = kv_db();
    let deep = nested(200);
    put(
        &c,
        &format!("composerData:{CQ}"),
        &format!(
            r#"{{"_v": 13, "composerId": "{CQ}", "name": "Deep", "createdAt": {T0}, "richText": {deep}, "fullConversationHeadersOnly": [{{"bubbleId": "k1"}}, {{"bubbleId": "k2"}}]}}"#
        ),
    );
    put(
        &c,
        &format!("bubbleId:{CQ}:k1"),
        &format!(
            r#"{{"bubbleId": "k1", "type": 1, "text": "delete the audit trail", "createdAt": {}, "richText": {deep}, "checkpointId": "cp"}}"#,
            T0 + 1_000
        ),
    );
    put(
        &c,
        &format!("bubbleId:{CQ}:k2"),
        &format!(
            r#"{{"bubbleId": "k2", "type": 2, "text": "done", "createdAt": {}, "capabilitiesRan": [{deep}, {deep}, {deep}]}}"#,
            T0 + 2_000
        ),
    );
    put(
        &c,
        &format!("checkpointId:{CQ}:cp"),
        &format!(
            r#"{{"files": [{{"uri": {{"fsPath": "/srv/audit.log"}}, "originalModelDiffWrtV0": [{{}}, {{}}]}}], "nonExistentFiles": {deep}}}"#
        ),
    );
    drop(c);
    let kv = |k: &str| format!("cursorDiskKV key={k}");
    let why = "that part not read (Cursor would load it)";
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                " | {CQ} |  | system | live | false |  |   | parser: cursorDiskKV value for composerData:{CQ} is nested deeper than 120 levels at byte 240: {why} | {}",
                kv(&format!("composerData:{CQ}"))
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {CQ} |  | system | live | false |  |   | session start: title=Deep format=v13 | {}",
                kv(&format!("composerData:{CQ}"))
            ),
            &format!(
                " | {CQ} |  | system | live | false |  |   | parser: cursorDiskKV value for bubbleId:{CQ}:k1 is nested deeper than 120 levels at byte 223: {why} | {}",
                kv(&format!("bubbleId:{CQ}:k1"))
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CQ} |  | user | live | false |  |   | delete the audit trail | {}",
                kv(&format!("bubbleId:{CQ}:k1"))
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CQ} |  | system | live | false |  |   | parser: cursorDiskKV value for checkpointId:{CQ}:cp is nested deeper than 120 levels at byte 226: {why} | {}",
                kv(&format!("checkpointId:{CQ}:cp"))
            ),
            &format!(
                "2026-05-28T20:26:41.000000Z | {CQ} |  | system | live | false |  |   | checkpoint file: /srv/audit.log hunks=2 checkpoint=cp | {}",
                kv(&format!("checkpointId:{CQ}:cp"))
            ),
            &format!(
                " | {CQ} |  | system | live | false |  |   | parser: cursorDiskKV value for bubbleId:{CQ}:k2 is nested deeper than 120 levels at byte 212 and 2 more places: {why} | {}",
                kv(&format!("bubbleId:{CQ}:k2"))
            ),
            &format!(
                "2026-05-28T20:26:42.000000Z | {CQ} |  | assistant | live | false |  |   | done | {}",
                kv(&format!("bubbleId:{CQ}:k2"))
            ),
        ],
    );
}

/// A CLI `store.db` the CLI has not checkpointed: the meta row and the first message
/// are in the main file, the second message and the root only in the `-wal`. The rows
/// read from the `-wal` say where it holds them (`blobs id=<id>, wal frame <n> (page
/// <p>) cell <c>`), as the IDE's rows do; the first message too, as the page the WAL
/// holds is read whole (its bytes come from the `-wal`); the meta row does not.
#[test]
fn cli_blobs_read_from_the_wal_say_where() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let c = Connection::open(work.join("store.db")).unwrap();
    c.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
         CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
         CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);",
    )
    .unwrap();
    let first = serde_json::json!({"role": "user", "content": "checkpointed question"})
        .to_string()
        .into_bytes();
    let second = serde_json::json!({"role": "assistant", "content": "answer only in the wal"})
        .to_string()
        .into_bytes();
    let r = root(&[&first, &second]);
    let meta = serde_json::json!({"agentId": "w1", "latestRootBlobId": sha(&r),
        "name": "wal chat", "createdAt": T0, "blobEncryptionKey": "SECRET-BLOBKEY"});
    c.execute(
        "INSERT INTO meta VALUES ('0', ?1)",
        [hex(meta.to_string().as_bytes())],
    )
    .unwrap();
    c.execute(
        "INSERT INTO blobs VALUES (?1, ?2)",
        params![sha(&first), first],
    )
    .unwrap();
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);").unwrap();
    c.execute(
        "INSERT INTO blobs VALUES (?1, ?2)",
        params![sha(&second), second],
    )
    .unwrap();
    c.execute("INSERT INTO blobs VALUES (?1, ?2)", params![sha(&r), r])
        .unwrap();
    let to = dir.path().join("home/u/.cursor/chats/h/w1");
    std::fs::create_dir_all(&to).unwrap();
    for f in ["store.db", "store.db-wal"] {
        std::fs::copy(work.join(f), to.join(f)).unwrap();
    }
    drop(c);
    let got = read_file(dir.path(), "home/u/.cursor/chats/h/w1/store.db");
    let (a, b) = (sha(&first), sha(&second));
    let want = [
        "2026-05-28T20:26:40.000000Z | w1 |  | system | live | false |  |   | session start: title=\"wal chat\" created=2026-05-28T20:26:40.000000Z | table meta key=0".to_string(),
        format!(" | w1 |  | user | live | false |  |   | checkpointed question | blobs id={a}, wal frame 3 (page 4) cell 0"),
        format!(" | w1 |  | assistant | live | false |  |   | answer only in the wal | blobs id={b}, wal frame 3 (page 4) cell 1"),
    ];
    assert_lines(&got, &want.iter().map(String::as_str).collect::<Vec<_>>());
}

/// A bubble the headers list twice is read once, at its first place, with one row
/// saying where else they list it; a bubble listed once and missing is still told
/// missing (before, the second listing of a stored bubble was told missing).
#[test]
fn a_bubble_listed_twice_is_read_once_and_told() {
    let (_dir, path, c) = kv_db();
    put_json(
        &c,
        &format!("composerData:{CC}"),
        serde_json::json!({"_v": 13, "composerId": CC, "name": "Twice", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "b1"}, {"bubbleId": "b2"},
                {"bubbleId": "b1"}, {"bubbleId": "b9"}]}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CC}:b1"),
        serde_json::json!({"bubbleId": "b1", "type": 1, "text": "the question"}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CC}:b2"),
        serde_json::json!({"bubbleId": "b2", "type": 2, "text": "the answer"}),
    );
    drop(c);
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {CC} |  | system | live | false |  |   | session start: title=Twice format=v13 | cursorDiskKV key=composerData:{CC}"
            ),
            &format!(
                " | {CC} |  | user | live | false |  |   | the question | cursorDiskKV key=bubbleId:{CC}:b1"
            ),
            &format!(
                " | {CC} |  | system | live | false |  |   | link: bubble b1 is listed 2 times in composerData (places 1, 3 of 4); read once, at the first | cursorDiskKV key=composerData:{CC}"
            ),
            &format!(
                " | {CC} |  | assistant | live | false |  |   | the answer | cursorDiskKV key=bubbleId:{CC}:b2"
            ),
            &format!(
                " | {CC} |  | system | live | false |  |   | link: bubble b9 listed in composerData is missing | cursorDiskKV key=composerData:{CC}"
            ),
        ],
    );
}

/// Fields written in other forms than the usual are not lost: a chat header's URI
/// without `fsPath` still gives the project (from its `path`), a tool call's `rawArgs`
/// written as JSON rather than text is printed as written, and an attached item with
/// no path is printed itself (an empty one gives nothing).
#[test]
fn fields_in_other_forms_are_kept() {
    let (_dir, path, c) = kv_db();
    c.execute(
        "INSERT INTO ItemTable VALUES ('composer.composerHeaders', ?1)",
        [
            serde_json::json!({"allComposers": [{"composerId": CC, "name": "Forms",
            "createdAt": T0, "workspaceIdentifier": {"id": "w",
                "uri": {"$mid": 1, "path": "/home/u/src/api", "scheme": "file"}}}]})
            .to_string(),
        ],
    )
    .unwrap();
    put_json(
        &c,
        &format!("composerData:{CC}"),
        serde_json::json!({"_v": 13, "composerId": CC, "name": "Forms", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "f1"}, {"bubbleId": "f2"}]}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CC}:f1"),
        serde_json::json!({"bubbleId": "f1", "type": 1, "text": "look at these",
            "context": {"externalLinks": [{"url": "https://evil.example/x"}],
                "cursorRules": [{"filename": "sec.mdc"}],
                "terminalSelections": [{"text": "rm -rf /"}, {}],
                "fileSelections": [{"uri": {"fsPath": "/a.ts"}}]}}),
    );
    put_json(
        &c,
        &format!("bubbleId:{CC}:f2"),
        serde_json::json!({"bubbleId": "f2", "type": 2, "text": "",
            "toolFormerData": {"name": "edit_file", "toolCallId": "t1",
                "rawArgs": {"path": "/etc/passwd"}}}),
    );
    drop(c);
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {CC} | /home/u/src/api | system | secondary | true |  |   | session index: title=Forms created=2026-05-28T20:26:40.000000Z workspace=/home/u/src/api | ItemTable key=composer.composerHeaders"
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {CC} | /home/u/src/api | system | live | false |  |   | session start: title=Forms format=v13 | cursorDiskKV key=composerData:{CC}"
            ),
            &format!(
                " | {CC} | /home/u/src/api | user | live | false |  |   | look at these\\n[context cursorRules sec.mdc]\\n[context externalLinks https://evil.example/x]\\n[context fileSelections /a.ts]\\n[context terminalSelections {{\"text\":\"rm -rf /\"}}] | cursorDiskKV key=bubbleId:{CC}:f1"
            ),
            &format!(
                " | {CC} | /home/u/src/api | tool_use | live | false |  | edit_file t1 | {{\"path\":\"/etc/passwd\"}} | cursorDiskKV key=bubbleId:{CC}:f2"
            ),
        ],
    );
}

/// A deleted chat whose checkpoints or request contexts are still live: they are read
/// by their keys, after a row saying the chat's composerData is missing (before, no
/// row read them when the chat had no live bubble), in memory and page by page; the
/// carved composer and bubble come back as before.
#[test]
fn a_deleted_chats_live_checkpoints_are_read() {
    let (_dir, path, c) = kv_db();
    put_json(
        &c,
        "composerData:gone",
        serde_json::json!({"_v": 13, "composerId": "gone", "name": "Gone", "createdAt": T0,
            "fullConversationHeadersOnly": [{"bubbleId": "b1"}]}),
    );
    put_json(
        &c,
        "bubbleId:gone:b1",
        serde_json::json!({"bubbleId": "b1", "type": 1, "text": "edit prod", "checkpointId": "cp1"}),
    );
    put_json(
        &c,
        "checkpointId:gone:cp1",
        serde_json::json!({"files": [{"uri": {"fsPath": "/etc/prod.conf"},
            "originalModelDiffWrtV0": [{}, {}]}]}),
    );
    put_json(
        &c,
        "messageRequestContext:orph-1:m1",
        serde_json::json!({"gitDiff": "diff --git a b", "terminal": "ls"}),
    );
    c.execute_batch(
        "DELETE FROM cursorDiskKV WHERE key IN ('composerData:gone', 'bubbleId:gone:b1');",
    )
    .unwrap();
    drop(c);
    assert_lines(
        &global_rows(&path),
        &[
            " | gone |  | system | live | false |  |   | session start: composerData missing; no bubbles, 1 checkpoint or request context records read by their keys | cursorDiskKV key=checkpointId:gone:",
            " | gone |  | system | live | false |  |   | checkpoint file: /etc/prod.conf hunks=2 checkpoint=cp1 | cursorDiskKV key=checkpointId:gone:cp1",
            " | orph-1 |  | system | live | false |  |   | session start: composerData missing; no bubbles, 1 checkpoint or request context records read by their keys | cursorDiskKV key=messageRequestContext:orph-1:",
            " | orph-1 |  | system | live | false |  |   | request context: message=m1 gitDiff=14 terminal=2 | cursorDiskKV key=messageRequestContext:orph-1:m1",
            "2026-05-28T20:26:40.000000Z | gone |  | system | deleted | false |  |   | session start: title=Gone format=v13 | cursorDiskKV key=composerData:gone, freeblock at page 4 offset 3956",
            " | gone |  | system | deleted | false |  |   | link: bubble b1 listed in composerData is missing | cursorDiskKV key=composerData:gone, freeblock at page 4 offset 3956",
        ],
    );
}

/// A deleted chat's `agentKv` conversation, still live: its carved `composerData`
/// names the root, so the messages carry that chat's session and project (before, a
/// session of their own, `agentkv:<root>`, and no project), in memory and page by page.
#[test]
fn a_deleted_chats_agent_kv_conversation_keeps_its_session() {
    let (_dir, path, c) = kv_db();
    c.execute(
        "INSERT INTO ItemTable VALUES ('composer.composerHeaders', ?1)",
        [
            serde_json::json!({"allComposers": [{"composerId": "dead-1", "name": "Dead",
            "createdAt": T0, "workspaceIdentifier": {"id": "w",
                "uri": {"fsPath": "/home/u/src/dead"}}}]})
            .to_string(),
        ],
    )
    .unwrap();
    let q =
        serde_json::json!({"role": "user", "content": [{"type": "text", "text": "dead question"}]})
            .to_string()
            .into_bytes();
    let r = root(&[&q]);
    put(&c, &format!("agentKv:blob:{}", sha(&q)), &hex(&q));
    put(&c, &format!("agentKv:blob:{}", sha(&r)), &hex(&r));
    put_json(
        &c,
        "composerData:dead-1",
        serde_json::json!({"_v": 13, "composerId": "dead-1", "name": "Dead", "createdAt": T0,
            "agentRoot": sha(&r), "fullConversationHeadersOnly": []}),
    );
    c.execute_batch("DELETE FROM cursorDiskKV WHERE key = 'composerData:dead-1';")
        .unwrap();
    drop(c);
    let rows = global_rows(&path);
    let kv: Vec<&String> = rows
        .iter()
        .filter(|l| l.contains("agentKv:blob:"))
        .collect();
    assert_eq!(
        kv,
        [&format!(
            " | dead-1 | /home/u/src/dead | user | live | false |  |   | dead question | cursorDiskKV key=agentKv:blob:{}",
            sha(&q)
        )],
        "{}",
        rows.join("\n")
    );
    assert!(
        rows.iter().any(|l| l.contains("| dead-1 |")
            && l.contains("| deleted |")
            && l.contains("session start: title=Dead")),
        "{}",
        rows.join("\n")
    );
}
