//! Builds the Cursor fixtures of `fixtures/evidence/` deterministically.
//!
//! `cargo run -p cursor-state --example cursor_fixtures`
//!
//! * `lin-ws01` (alice): a pre-3.0 IDE (`_v` 3 composers, bubbles without `createdAt`,
//!   one with a relative `timingInfo` counter, a legacy `conversationMap` chat, the
//!   workspace chat index and `aiService` caches, a deleted chat left in freed pages);
//! * `WIN-DESK03` (carol): a 3.0+ IDE (`composer.composerHeaders`, `_v` 13, `createdAt`
//!   as ISO text and as epoch ms, tool calls completed / cancelled / error-only,
//!   thinking blocks, a model change, a sub-agent, `agentKv` blobs, a chat whose
//!   `composerData` was securely deleted while its bubbles survive in free pages, and
//!   a `state.vscdb.backup` holding a chat deleted since);
//! * `mac-lt02` (bob): the agent CLI (`store.db` with an edited conversation and a
//!   deleted blob, `meta.json`, prompt history, transcripts, permission files).
//!
//! Every database is written with rusqlite (rollback journal, `secure_delete` off
//! unless said) in a scratch directory and copied into place. Secrets named by the
//! spec are planted (`SECRET-...`) so the tests can prove they never reach a row.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

enum Op {
    Put(&'static str, String, Vec<u8>),
    Del(&'static str, String, bool),
    Commit,
}

fn put(table: &'static str, key: impl Into<String>, v: &Value) -> Op {
    Op::Put(table, key.into(), v.to_string().into_bytes())
}

fn build(dest: &str, schema: &str, ops: Vec<Op>) {
    let scratch = tempfile::tempdir().unwrap();
    let p = scratch.path().join("db");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(&format!(
        "PRAGMA page_size = 4096; PRAGMA journal_mode = DELETE; PRAGMA secure_delete = OFF; {schema}"
    ))
    .unwrap();
    conn.execute_batch("BEGIN").unwrap();
    for op in ops {
        match op {
            Op::Put(t, k, v) => {
                conn.execute(
                    &format!("INSERT OR REPLACE INTO {t} VALUES (?1, ?2)"),
                    params![k, v],
                )
                .unwrap();
            }
            Op::Del(t, k, secure) => {
                if secure {
                    conn.execute_batch("COMMIT; PRAGMA secure_delete = ON; BEGIN")
                        .unwrap();
                }
                conn.execute(&format!("DELETE FROM {t} WHERE key = ?1"), [k])
                    .unwrap();
                if secure {
                    conn.execute_batch("COMMIT; PRAGMA secure_delete = OFF; BEGIN")
                        .unwrap();
                }
            }
            Op::Commit => conn.execute_batch("COMMIT; BEGIN").unwrap(),
        }
    }
    conn.execute_batch("COMMIT").unwrap();
    drop(conn);
    let out = evidence().join(dest);
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::copy(&p, &out).unwrap();
}

const VSCDB: &str = "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
     CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";

fn write(dest: &str, bytes: &[u8]) {
    let out = evidence().join(dest);
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::write(out, bytes).unwrap();
}

fn lexical(text: &str) -> String {
    json!({"root": {"type": "root", "children": text.split('\n').map(|p| json!({
        "type": "paragraph", "children": [{"type": "text", "text": p}]
    })).collect::<Vec<_>>()}})
    .to_string()
}

fn pad(n: usize) -> String {
    "lorem ipsum dolor sit amet ".repeat(n / 27 + 1)[..n].to_string()
}

// ---------------------------------------------------------------- lin-ws01 (pre-3.0)

const ALICE: &str = "lin-ws01/home/alice/.config/Cursor/User";
const C1: &str = "0a1b2c3d-1111-4000-8000-000000000001";
const C_LEGACY: &str = "0a1b2c3d-2222-4000-8000-000000000002";
const C_DEAD: &str = "0a1b2c3d-3333-4000-8000-000000000003";

fn alice() {
    let kv = "cursorDiskKV";
    let mut ops = vec![
        put(
            "ItemTable",
            "cursorAuth/accessToken",
            &json!("SECRET-CURSOR-ACCESS-alice"),
        ),
        put(
            "ItemTable",
            "cursorAuth/refreshToken",
            &json!("SECRET-CURSOR-REFRESH-alice"),
        ),
        put(
            "ItemTable",
            "src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser",
            &json!({"composerState": {"useYoloMode": true,
                "yoloCommandAllowlist": ["npm test", "git status"],
                "yoloCommandDenylist": ["rm -rf"],
                "mcpAllowedTools": ["github:get_issue"]}}),
        ),
        put(
            kv,
            format!("composerData:{C1}"),
            &json!({
                "_v": 3, "composerId": C1, "name": "Fix login bug", "createdAt": 1_780_000_000_000u64,
                "lastUpdatedAt": 1_780_000_600_000u64, "unifiedMode": "agent", "forceMode": "edit",
                "isAgentic": true, "status": "completed",
                "modelConfig": {"modelName": "claude-3.5-sonnet", "maxMode": false},
                "contextTokensUsed": 12345,
                "fullConversationHeadersOnly": [
                    {"bubbleId": "b1", "type": 1}, {"bubbleId": "b2", "type": 2},
                    {"bubbleId": "b3", "type": 2}, {"bubbleId": "b4", "type": 2}],
                "conversationMap": {}
            }),
        ),
        put(
            kv,
            format!("bubbleId:{C1}:b1"),
            &json!({
                "_v": 2, "bubbleId": "b1", "type": 1, "text": "", "richText": lexical("The login form rejects valid passwords.\nFix it please."),
                "timingInfo": {"clientStartTime": 183422.5},
                "checkpointId": "cp1",
                "context": {"fileSelections": [{"uri": {"fsPath": "/home/alice/src/api/login.ts", "path": "/home/alice/src/api/login.ts"}}],
                            "folderSelections": [{"relativePath": "src/auth"}]}
            }),
        ),
        put(
            kv,
            format!("bubbleId:{C1}:b2"),
            &json!({
                "_v": 2, "bubbleId": "b2", "type": 2, "text": "The hash comparison uses the wrong salt.",
                "thinking": {"text": "Look at verifyPassword first.", "signature": "sig"},
                "modelInfo": {"modelName": "claude-3.5-sonnet"},
                "timingInfo": {"clientStartTime": 1_780_000_100_000u64, "clientEndTime": 1_780_000_105_000u64},
                "tokenCount": {"inputTokens": 1200, "outputTokens": 340},
                "codeBlocks": [{"languageId": "typescript", "uri": {"path": "/home/alice/src/api/login.ts"}, "content": "const ok = verify(pw, salt);", "status": "applied"}]
            }),
        ),
        put(
            kv,
            format!("bubbleId:{C1}:b3"),
            &json!({
                "_v": 2, "bubbleId": "b3", "type": 2, "text": "",
                "modelInfo": {"modelName": "gpt-4o"},
                "tokenCount": {"inputTokens": 0, "outputTokens": 0},
                "toolFormerData": {"tool": 15, "name": "run_terminal_cmd", "toolCallId": "toolu_01",
                    "rawArgs": "{\"command\":\"npm test\"}", "status": "completed",
                    "result": "{\"output\":\"12 passing\",\"exitCode\":0}"}
            }),
        ),
        put(
            kv,
            format!("checkpointId:{C1}:cp1"),
            &json!({
                "files": [{"uri": {"path": "/home/alice/src/api/login.ts", "scheme": "file"},
                           "originalModelDiffWrtV0": [{"original": {"startLineNumber": 3, "endLineNumberExclusive": 4}, "modified": ["x"]},
                                                      {"original": {"startLineNumber": 9, "endLineNumberExclusive": 9}, "modified": []}]}],
                "nonExistentFiles": [], "newlyCreatedFolders": []
            }),
        ),
        put(
            kv,
            format!("messageRequestContext:{C1}:b1"),
            &json!({
                "gitDiff": "diff --git a/login.ts b/login.ts SECRET-IN-REQUEST-CONTEXT", "terminalFiles": []
            }),
        ),
        // legacy: messages inside conversationMap
        put(
            kv,
            format!("composerData:{C_LEGACY}"),
            &json!({
                "_v": 1, "composerId": C_LEGACY, "name": "Explain the router", "createdAt": 1_770_000_000_000u64,
                "lastUpdatedAt": 1_770_000_090_000u64, "unifiedMode": "chat",
                "fullConversationHeadersOnly": [{"bubbleId": "x1", "type": 1}, {"bubbleId": "x2", "type": 2}],
                "conversationMap": {
                    "x2": {"bubbleId": "x2", "type": 2, "text": "It maps paths to handlers."},
                    "x1": {"bubbleId": "x1", "type": 1, "text": "What does router.ts do?"}
                }
            }),
        ),
        Op::Commit,
        // a chat that is deleted below: its records stay in freed pages
        put(
            kv,
            format!("composerData:{C_DEAD}"),
            &json!({
                "_v": 3, "composerId": C_DEAD, "name": "Rotate the prod database password", "createdAt": 1_780_100_000_000u64,
                "lastUpdatedAt": 1_780_100_300_000u64, "unifiedMode": "agent", "status": "completed",
                "fullConversationHeadersOnly": [{"bubbleId": "d1", "type": 1}, {"bubbleId": "d2", "type": 2}],
                "padding": pad(600)
            }),
        ),
        put(
            kv,
            format!("bubbleId:{C_DEAD}:d1"),
            &json!({
                "bubbleId": "d1", "type": 1, "text": "Rotate the password of the prod database and update .env", "padding": pad(300)
            }),
        ),
        put(
            kv,
            format!("bubbleId:{C_DEAD}:d2"),
            &json!({
                "bubbleId": "d2", "type": 2, "text": "Done: the password was rotated and .env updated.", "padding": pad(300)
            }),
        ),
    ];
    // filler so the deleted chat's cells sit in a page that stays in use
    for i in 0..6 {
        ops.push(put(
            kv,
            format!("composer.content.{i:02}"),
            &json!(pad(200)),
        ));
    }
    ops.push(Op::Commit);
    ops.push(Op::Del(kv, format!("composerData:{C_DEAD}"), false));
    ops.push(Op::Del(kv, format!("bubbleId:{C_DEAD}:d1"), false));
    ops.push(Op::Del(kv, format!("bubbleId:{C_DEAD}:d2"), false));
    build(&format!("{ALICE}/globalStorage/state.vscdb"), VSCDB, ops);

    let ws = format!("{ALICE}/workspaceStorage/7a1b2c3d4e5f60718293a4b5c6d7e8f9");
    write(
        &format!("{ws}/workspace.json"),
        br#"{"folder":"file:///home/alice/src/api"}"#,
    );
    build(
        &format!("{ws}/state.vscdb"),
        "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
        vec![
            put(
                "ItemTable",
                "composer.composerData",
                &json!({
                    "allComposers": [{"composerId": C1, "name": "Fix login bug", "createdAt": 1_780_000_000_000u64,
                                      "lastUpdatedAt": 1_780_000_600_000u64, "unifiedMode": "agent"}],
                    "selectedComposerIds": [C1, C_LEGACY]
                }),
            ),
            put(
                "ItemTable",
                "aiService.prompts",
                &json!([
                {"text": "The login form rejects valid passwords.\nFix it please.", "commandType": 4},
                {"text": "a prompt that never reached a chat", "commandType": 4}]),
            ),
            put(
                "ItemTable",
                "aiService.generations",
                &json!([
                {"unixMs": 1_780_000_090_000u64, "generationUUID": "g-1", "type": "composer",
                 "textDescription": "The login form rejects valid passwords."}]),
            ),
            put(
                "ItemTable",
                "workbench.panel.aichat.view.aichat.chatdata",
                &json!({
                    "tabs": [{"tabId": "tab-1", "chatTitle": "Old chat", "bubbles": [
                        {"type": "user", "id": "u1", "text": "What is CORS?"},
                        {"type": "ai", "id": "a1", "text": "Cross-origin resource sharing.", "modelType": "gpt-4"}]}]
                }),
            ),
        ],
    );
}

// ---------------------------------------------------------------- WIN-DESK03 (3.0+)

const CAROL: &str = "WIN-DESK03/C/Users/carol/AppData/Roaming/Cursor/User";
const W1: &str = "5e6f7a8b-aaaa-4000-8000-00000000000a";
const W2: &str = "5e6f7a8b-bbbb-4000-8000-00000000000b";
const W0: &str = "5e6f7a8b-0000-4000-8000-000000000000";
const GHOST: &str = "5e6f7a8b-dddd-4000-8000-00000000000d";

fn sha(b: &[u8]) -> [u8; 32] {
    Sha256::digest(b).into()
}

fn hexs(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn root_blob(ids: &[[u8; 32]]) -> Vec<u8> {
    cursor_state::decode::encode_root(ids)
}

fn carol_kv(with_w0: bool, full: bool) -> Vec<Op> {
    let kv = "cursorDiskKV";
    let m_user = json!({"role": "user", "content": [{"type": "text", "text": "<user_query>Add a cart total</user_query>"}]}).to_string();
    let m_asst =
        json!({"role": "assistant", "content": [{"type": "text", "text": "Added cartTotal()."}],
        "providerOptions": {"cursor": {"modelName": "claude-4-sonnet"}}})
        .to_string();
    let ids = [sha(m_user.as_bytes()), sha(m_asst.as_bytes())];
    let root = root_blob(&ids);
    let root_id = hexs(&sha(&root));
    let loose = json!({"role": "system", "content": "You are a coding agent."}).to_string();
    let loose_id = hexs(&sha(loose.as_bytes()));
    let headers: Vec<Value> = if full {
        vec![
            json!({"bubbleId": "w1-1", "type": 1}),
            json!({"bubbleId": "w1-2", "type": 2}),
            json!({"bubbleId": "w1-3", "type": 2}),
            json!({"bubbleId": "w1-4", "type": 2}),
            json!({"bubbleId": "w1-5", "type": 2}),
        ]
    } else {
        vec![
            json!({"bubbleId": "w1-1", "type": 1}),
            json!({"bubbleId": "w1-2", "type": 2}),
        ]
    };
    let mut ops = vec![
        put(
            "ItemTable",
            "cursorAuth/refreshToken",
            &json!("SECRET-CURSOR-REFRESH-carol"),
        ),
        put(
            "ItemTable",
            "cursorAuth/cachedEmail",
            &json!("carol@example.com"),
        ),
        put(
            "ItemTable",
            "composer.composerHeaders",
            &json!({"allComposers": [
                {"composerId": W1, "name": "Cart total", "createdAt": 1_790_000_000_000u64, "lastUpdatedAt": 1_790_000_500_000u64,
                 "unifiedMode": "agent", "workspaceIdentifier": {"id": "3f2e1d0c", "uri": {"fsPath": "C:\\Users\\carol\\src\\shop", "scheme": "file"}}},
                {"composerId": W2, "name": "Quick question", "createdAt": 1_790_001_000_000u64, "lastUpdatedAt": 1_790_001_060_000u64,
                 "unifiedMode": "chat", "workspaceIdentifier": {"id": "1790001000000"}}
            ]}),
        ),
        put(
            kv,
            format!("composerData:{W1}"),
            &json!({
                "_v": 13, "composerId": W1, "name": "Cart total", "createdAt": 1_790_000_000_000u64,
                "lastUpdatedAt": 1_790_000_500_000u64, "unifiedMode": "agent", "isAgentic": true, "status": "completed",
                "modelConfig": {"modelName": "default", "maxMode": true},
                "promptTokenBreakdown": {"totalUsedTokens": 48210},
                "agentConversationRoot": root_id,
                "fullConversationHeadersOnly": headers, "conversationMap": {}
            }),
        ),
        put(
            kv,
            format!("bubbleId:{W1}:w1-1"),
            &json!({
                "_v": 3, "bubbleId": "w1-1", "type": 1, "text": "Add a cart total", "createdAt": "2026-09-21T14:13:20.000Z"
            }),
        ),
        put(
            kv,
            format!("bubbleId:{W1}:w1-2"),
            &json!({
                "_v": 3, "bubbleId": "w1-2", "type": 2, "text": "", "createdAt": "2026-09-21T14:13:25.000Z",
                "modelInfo": {"modelName": "claude-4-sonnet"},
                "allThinkingBlocks": [{"thinking": "The cart lives in cart.ts."}, {"thinking": "Sum line totals."}],
                "tokenCount": {"inputTokens": 5100, "outputTokens": 210},
                "toolFormerData": {"tool": 5, "name": "read_file", "toolCallId": "toolu_read1",
                    "params": {"targetFile": "src/cart.ts"}, "status": "completed",
                    "result": {"contents": "export class Cart {}"}}
            }),
        ),
    ];
    if full {
        ops.extend([
            put(kv, format!("bubbleId:{W1}:w1-3"), &json!({
                "_v": 3, "bubbleId": "w1-3", "type": 2, "text": "", "createdAt": 1_790_000_030_000u64,
                "modelInfo": {"modelName": "claude-4-sonnet"},
                "toolFormerData": {"tool": 15, "name": "run_terminal_cmd", "toolCallId": "toolu_run1",
                    "rawArgs": "{\"command\":\"npm run deploy\"}", "status": "cancelled"}
            })),
            put(kv, format!("bubbleId:{W1}:w1-4"), &json!({
                "_v": 3, "bubbleId": "w1-4", "type": 2, "text": "", "createdAt": 1_790_000_040_000u64,
                "toolFormerData": {"tool": 7, "name": "edit_file", "toolCallId": "toolu_edit1",
                    "rawArgs": "{\"target_file\":\"src/cart.ts\"}", "status": "error",
                    "error": "file is read-only"}
            })),
            put(kv, format!("bubbleId:{W1}:w1-5"), &json!({
                "_v": 3, "bubbleId": "w1-5", "type": 2, "text": "Added cartTotal(); the deploy was cancelled.",
                "createdAt": 1_790_000_050_000u64, "modelInfo": {"modelName": "claude-4-sonnet"},
                "toolFormerData": {"tool": 30, "name": "task", "toolCallId": "toolu_task1",
                    "rawArgs": "{\"description\":\"check tests\"}", "status": "completed", "result": "tests pass"}
            })),
            put(kv, "composerData:task-toolu_task1", &json!({
                "_v": 13, "composerId": "task-toolu_task1", "name": "check tests", "createdAt": 1_790_000_045_000u64,
                "lastUpdatedAt": 1_790_000_049_000u64, "unifiedMode": "agent",
                "fullConversationHeadersOnly": [{"bubbleId": "t1", "type": 1}, {"bubbleId": "t2", "type": 2}]
            })),
            put(kv, "bubbleId:task-toolu_task1:t1", &json!({"bubbleId": "t1", "type": 1, "text": "check tests", "createdAt": 1_790_000_045_000u64})),
            put(kv, "bubbleId:task-toolu_task1:t2", &json!({"bubbleId": "t2", "type": 2, "text": "All 40 tests pass.", "createdAt": 1_790_000_048_000u64})),
            put(kv, format!("composerData:{W2}"), &json!({
                "_v": 13, "composerId": W2, "name": "Quick question", "createdAt": 1_790_001_000_000u64,
                "lastUpdatedAt": 1_790_001_060_000u64, "unifiedMode": "chat",
                "fullConversationHeadersOnly": [{"bubbleId": "q1", "type": 1}, {"bubbleId": "q2", "type": 2}]
            })),
            put(kv, format!("bubbleId:{W2}:q1"), &json!({"bubbleId": "q1", "type": 1, "text": "What is a monad?", "createdAt": 1_790_001_000_000u64})),
            put(kv, format!("bubbleId:{W2}:q2"), &json!({"bubbleId": "q2", "type": 2, "text": "A monoid in the category of endofunctors.", "createdAt": 1_790_001_030_000u64,
                "modelInfo": {"modelName": "default"}})),
            Op::Put(kv, format!("agentKv:blob:{}", hexs(&ids[0])), hexs(m_user.as_bytes()).into_bytes()),
            Op::Put(kv, format!("agentKv:blob:{}", hexs(&ids[1])), m_asst.clone().into_bytes()),
            Op::Put(kv, format!("agentKv:blob:{root_id}"), hexs(&root).into_bytes()),
            Op::Put(kv, format!("agentKv:blob:{loose_id}"), loose.clone().into_bytes()),
        ]);
    }
    if with_w0 {
        ops.extend([
            put(kv, format!("composerData:{W0}"), &json!({
                "_v": 13, "composerId": W0, "name": "Leaked key cleanup", "createdAt": 1_789_000_000_000u64,
                "lastUpdatedAt": 1_789_000_100_000u64, "unifiedMode": "agent",
                "fullConversationHeadersOnly": [{"bubbleId": "z1", "type": 1}]
            })),
            put(kv, format!("bubbleId:{W0}:z1"), &json!({"bubbleId": "z1", "type": 1, "text": "Remove the AWS key from config.yml", "createdAt": 1_789_000_000_000u64})),
        ]);
    }
    ops
}

fn carol() {
    // the backup: an older state, with a chat (W0) deleted since
    build(
        &format!("{CAROL}/globalStorage/state.vscdb.backup"),
        VSCDB,
        carol_kv(true, false),
    );
    let kv = "cursorDiskKV";
    let mut ops = carol_kv(false, true);
    ops.push(Op::Commit);
    // a chat whose composerData is securely deleted; its bubbles are freed normally
    ops.extend([
        put(kv, format!("composerData:{GHOST}"), &json!({
            "_v": 13, "composerId": GHOST, "name": "ghost", "createdAt": 1_790_002_000_000u64,
            "fullConversationHeadersOnly": [{"bubbleId": "g1", "type": 1}, {"bubbleId": "g2", "type": 2}]})),
        put(kv, format!("bubbleId:{GHOST}:g2"), &json!({"bubbleId": "g2", "type": 2, "text": "Disabled the audit log as asked.", "createdAt": 1_790_002_010_000u64})),
        put(kv, format!("bubbleId:{GHOST}:g1"), &json!({"bubbleId": "g1", "type": 1, "text": "Turn off the audit log", "createdAt": 1_790_002_000_000u64})),
    ]);
    for i in 0..4 {
        ops.push(put(
            kv,
            format!("composer.content.{i:02}"),
            &json!(pad(150)),
        ));
    }
    ops.push(Op::Commit);
    ops.push(Op::Del(kv, format!("composerData:{GHOST}"), true));
    ops.push(Op::Del(kv, format!("bubbleId:{GHOST}:g1"), false));
    ops.push(Op::Del(kv, format!("bubbleId:{GHOST}:g2"), false));
    build(&format!("{CAROL}/globalStorage/state.vscdb"), VSCDB, ops);
}

// ---------------------------------------------------------------- mac-lt02 (CLI)

const BOB: &str = "mac-lt02/Users/bob/.cursor";
const AGENT_ID: &str = "7f3e9c1a-5b2d-4e8f-9a6c-0d1e2f3a4b5c";
const HASH: &str = "5d41402abc4b2a76b9719d911017c592";

fn bob() {
    let msgs = |v: Vec<Value>| -> Vec<(String, [u8; 32])> {
        v.into_iter()
            .map(|m| {
                let s = m.to_string();
                let id = sha(s.as_bytes());
                (s, id)
            })
            .collect()
    };
    let first = msgs(vec![
        json!({"role": "system", "content": "You are Cursor's agent."}),
        json!({"role": "user", "content": [
            {"type": "text", "text": "<user_info>OS: darwin 24.1.0, shell: zsh, cwd: /Users/bob/src/web</user_info>"},
            {"type": "text", "text": "<user_query>Rename the router to AppRouter</user_query>"}]}),
        json!({"role": "assistant", "content": [
            {"type": "reasoning", "text": "Find every import of Router."},
            {"type": "text", "text": "I will rename it in three files."},
            {"type": "tool-call", "toolCallId": "call_1", "toolName": "grep", "args": {"pattern": "Router"}}]}),
        json!({"role": "tool", "content": [{"type": "tool-result", "toolCallId": "call_1", "toolName": "grep", "result": "src/router.ts:1"}]}),
        json!({"role": "assistant", "content": "Renamed in src/router.ts."}),
    ]);
    // the user edited the prompt: a new root shares the system message only
    let second = msgs(vec![
        json!({"role": "user", "content": [{"type": "text", "text": "<user_query>Rename the router to MainRouter</user_query>"}]}),
        json!({"role": "assistant", "content": [{"type": "text", "text": "Renamed Router to MainRouter."}]}),
    ]);
    let root1: Vec<[u8; 32]> = first.iter().map(|m| m.1).collect();
    let root2: Vec<[u8; 32]> = vec![first[0].1, second[0].1, second[1].1, sha(b"missing blob")];
    let r1 = root_blob(&root1);
    let r2 = root_blob(&root2);
    let scratch = json!({"role": "user", "content": "scratch prompt that was deleted"}).to_string();
    let meta = json!({"agentId": AGENT_ID, "latestRootBlobId": hexs(&sha(&r2)), "name": "Rename router",
        "createdAt": 1_785_000_000_000u64, "lastUsedModel": "gpt-5", "blobEncryptionKey": "SECRET-BLOB-KEY-bob"});
    let mut ops = vec![Op::Put(
        "meta",
        "0".into(),
        hexs(meta.to_string().as_bytes()).into_bytes(),
    )];
    for (s, id) in first.iter().chain(second.iter()) {
        ops.push(Op::Put("blobs", hexs(id), s.clone().into_bytes()));
    }
    ops.push(Op::Put("blobs", hexs(&sha(&r1)), r1.clone()));
    ops.push(Op::Put("blobs", hexs(&sha(&r2)), r2.clone()));
    ops.push(Op::Put(
        "blobs",
        hexs(&sha(scratch.as_bytes())),
        scratch.clone().into_bytes(),
    ));
    ops.push(Op::Commit);
    ops.push(Op::Del("blobs", hexs(&sha(scratch.as_bytes())), false));
    // blobs(id, data): `key` in Op::Del is the id column
    let schema = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
                  CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);";
    build_cli(
        &format!("{BOB}/chats/{HASH}/{AGENT_ID}/store.db"),
        schema,
        ops,
    );
    write(
        &format!("{BOB}/chats/{HASH}/{AGENT_ID}/meta.json"),
        json!({"schemaVersion": 2, "createdAtMs": 1_785_000_000_000u64, "updatedAtMs": 1_785_000_900_000u64,
               "cwd": "/Users/bob/src/web", "hasConversation": true, "isSubagent": false,
               "name": "Rename router", "model": "gpt-5", "blobEncryptionKey": "SECRET-BLOB-KEY-bob"})
        .to_string()
        .as_bytes(),
    );
    write(
        &format!("{BOB}/chats/{HASH}/prompt_history.json"),
        json!([
            "Rename the router to AppRouter",
            "Rename the router to MainRouter"
        ])
        .to_string()
        .as_bytes(),
    );
    let proj = format!("{BOB}/projects/Users-bob-src-web-1a2b3c4");
    let t1 = [
        json!({"role": "user", "message": {"content": [{"type": "text", "text": "<user_query>Rename the router to MainRouter</user_query>"}]}}),
        json!({"role": "assistant", "message": {"content": [{"type": "text", "text": "Renamed Router to MainRouter."}]}}),
        json!({"type": "turn_ended", "status": "success"}),
    ];
    let t2 = [
        json!({"role": "user", "message": {"content": [{"type": "text", "text": "<user_query>Run the e2e suite</user_query>"}]}}),
        json!({"role": "assistant", "message": {"content": [
            {"type": "thinking", "thinking": "Use playwright."},
            {"type": "tool_use", "id": "tu_1", "name": "Shell", "input": {"command": "npx playwright test"}}]}}),
        json!({"type": "turn_ended", "status": "error", "error": "rate limited"}),
    ];
    let jsonl = |v: &[Value]| v.iter().map(|l| l.to_string() + "\n").collect::<String>();
    write(
        &format!("{proj}/agent-transcripts/{AGENT_ID}.jsonl"),
        jsonl(&t1).as_bytes(),
    );
    let other = "c0de0000-1111-2222-3333-444455556666";
    write(
        &format!("{proj}/agent-transcripts/{other}/{other}.jsonl"),
        (jsonl(&t2) + "{\"role\": \"user\", \"message\": {\"content\": [\n").as_bytes(),
    );
    write(
        &format!("{proj}/mcp-approvals.json"),
        br#"{"github": {"approved": true, "tools": ["get_issue", "list_prs"]}}"#,
    );
    write(&format!("{proj}/.workspace-trusted"), b"");
    write(
        &format!("{proj}/mcp-auth.json"),
        br#"{"github": {"access_token": "SECRET-MCP-OAUTH-bob"}}"#,
    );
    write(
        &format!("{BOB}/permissions.json"),
        b"// allow lists of the agent\n{\n  \"terminalAllowlist\": [\"git status\", \"npm test\"],\n  \"mcpAllowlist\": [\"github:*\"],\n  \"autoRun\": {\"enabled\": true, \"sandbox\": \"workspace\"},\n}\n",
    );
    write(
        &format!("{BOB}/cli-config.json"),
        json!({"version": 1, "permissions": {"allow": ["Shell(git *)", "Read(**)"], "deny": ["Shell(rm *)"]},
               "approvalMode": "allowlist", "model": "gpt-5", "maxMode": false,
               "authInfo": {"email": "bob@example.com", "accessToken": "SECRET-CLI-AUTH-bob"}})
        .to_string()
        .as_bytes(),
    );
    write(
        &format!("{BOB}/mcp.json"),
        br#"{"mcpServers": {"github": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "SECRET-MCP-ENV-bob"}}}}"#,
    );
    write(
        "mac-lt02/Users/bob/src/web/.cursor/cli.json",
        br#"{"permissions": {"allow": ["Write(src/**)"]}}"#,
    );
}

fn build_cli(dest: &str, schema: &str, ops: Vec<Op>) {
    // the blobs table's key column is `id`: rewrite the generic ops for it
    let scratch = tempfile::tempdir().unwrap();
    let p = scratch.path().join("db");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(&format!(
        "PRAGMA page_size = 4096; PRAGMA journal_mode = DELETE; PRAGMA secure_delete = OFF; {schema} BEGIN;"
    ))
    .unwrap();
    for op in ops {
        match op {
            Op::Put(t, k, v) => {
                if t == "meta" {
                    conn.execute(
                        "INSERT INTO meta VALUES (?1, ?2)",
                        params![k, String::from_utf8(v).unwrap()],
                    )
                    .unwrap();
                } else {
                    conn.execute("INSERT INTO blobs VALUES (?1, ?2)", params![k, v])
                        .unwrap();
                }
            }
            Op::Del(_, k, _) => {
                conn.execute("DELETE FROM blobs WHERE id = ?1", [k])
                    .unwrap();
            }
            Op::Commit => conn.execute_batch("COMMIT; BEGIN").unwrap(),
        }
    }
    conn.execute_batch("COMMIT").unwrap();
    drop(conn);
    let out = evidence().join(dest);
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::copy(&p, &out).unwrap();
}

fn main() {
    alice();
    carol();
    bob();
    eprintln!("wrote the Cursor fixtures under {}", evidence().display());
}
