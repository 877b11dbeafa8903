//! Every row of every Cursor fixture, pinned exactly (time, session, project, turn
//! type, record state, model, tool, text, locator) against `tests/expected/*.txt`.
//! `CURSOR_UPDATE_EXPECTED=1` rewrites them (then read the diff).

mod common;

use chat_rows::{RecordState, TurnType};
use common::*;

fn check(rel: &str, name: &str) -> Vec<chat_rows::Row> {
    let rows = read(rel);
    let got: String = rows.iter().map(|r| render(r) + "\n").collect();
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expected")
        .join(name);
    if std::env::var_os("CURSOR_UPDATE_EXPECTED").is_some() {
        std::fs::write(&file, &got).unwrap();
    }
    let want = std::fs::read_to_string(&file).unwrap();
    assert_eq!(got, want, "{rel}");
    for r in &rows {
        assert_eq!(r.agent, "cursor");
        assert_eq!(r.source_file, rel);
    }
    rows
}

fn count(rows: &[chat_rows::Row], t: TurnType, s: RecordState) -> usize {
    rows.iter()
        .filter(|r| r.turn_type == t && r.record_state == s)
        .count()
}

#[test]
fn pre_3_0_global_database() {
    let rows = check(ALICE_GLOBAL, "alice_global.txt");
    // (25 since sqlite-evidence reads freed cells behind stale links inside merged
    // freeblocks: the deleted chat's first bubble, `freeblock at page 7 offset 3636`)
    assert_eq!(rows.len(), 25);
    // the relative timingInfo counter (183422.5 ms) gives no time, the epoch one does
    let user = rows
        .iter()
        .find(|r| r.text.starts_with("The login form"))
        .unwrap();
    assert_eq!(user.timestamp, None);
    assert!(rows.iter().any(|r| r.text == "usage: model=claude-3.5-sonnet input=1200 output=340 cache_read=- cache_write=- reasoning=- scope=call"));
    assert!(
        rows.iter()
            .any(|r| r.text == "model: claude-3.5-sonnet -> gpt-4o")
    );
    assert!(
        rows.iter()
            .any(|r| r.text == "link: bubble b4 listed in composerData is missing")
    );
    // legacy conversationMap, in header order
    let legacy: Vec<&str> = rows
        .iter()
        .filter(|r| {
            r.session_id == "0a1b2c3d-2222-4000-8000-000000000002"
                && r.turn_type != TurnType::System
        })
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        legacy,
        ["What does router.ts do?", "It maps paths to handlers."]
    );
    // the deleted chat: its composerData and one of its two bubbles come back
    assert_eq!(count(&rows, TurnType::System, RecordState::Deleted), 1);
    assert_eq!(count(&rows, TurnType::Assistant, RecordState::Deleted), 1);
    // the request context gives sizes, never contents
    assert!(!rows.iter().any(|r| r.text.contains("diff --git")));
}

#[test]
fn workspace_database() {
    let rows = check(ALICE_WS, "alice_workspace.txt");
    assert_eq!(rows.len(), 6);
    assert_eq!(rows.iter().filter(|r| r.secondary).count(), 4);
}

#[test]
fn v3_global_database() {
    let rows = check(CAROL_GLOBAL, "carol_global.txt");
    assert_eq!(rows.len(), 33);
    let statuses: Vec<&str> = rows
        .iter()
        .filter(|r| r.text.starts_with("tool status:"))
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(statuses, ["tool status: cancelled", "tool status: error"]);
    assert_eq!(count(&rows, TurnType::Thinking, RecordState::Live), 2);
    assert!(rows.iter().any(|r| r.text
        == "session start: parent_tool_call=toolu_task1 parent=5e6f7a8b-aaaa-4000-8000-00000000000a"
        && r.project_path == "C:\\Users\\carol\\src\\shop"));
    // the whole deleted chat whose composerData was securely deleted
    let ghost: Vec<&chat_rows::Row> = rows
        .iter()
        .filter(|r| r.session_id == "5e6f7a8b-dddd-4000-8000-00000000000d")
        .collect();
    assert_eq!(ghost.len(), 2);
    assert!(ghost.iter().all(|r| r.record_state == RecordState::Deleted));
    assert!(ghost[1].source_locator.contains(", freeblock at page"));
    // agentKv: the root's messages are secondary copies of the composer's; a loose one recovered
    assert_eq!(count(&rows, TurnType::User, RecordState::Secondary), 1);
    assert_eq!(count(&rows, TurnType::System, RecordState::Recovered), 1);
    // createdAt as ISO text and as epoch ms
    assert_eq!(
        rows.iter()
            .find(|r| r.text == "Add a cart total")
            .unwrap()
            .timestamp
            .unwrap()
            .to_string(),
        "2026-09-21T14:13:20.000000Z"
    );
}

#[test]
fn backup_is_secondary() {
    let rows = check(CAROL_BACKUP, "carol_backup.txt");
    assert!(rows.iter().all(|r| r.secondary));
    assert!(
        rows.iter()
            .any(|r| r.text == "Remove the AWS key from config.yml")
    );
}

#[test]
fn cli_store_with_an_edited_conversation() {
    let rows = check(BOB_STORE, "bob_store.txt");
    assert_eq!(count(&rows, TurnType::User, RecordState::Live), 1);
    assert_eq!(count(&rows, TurnType::User, RecordState::Recovered), 1);
    assert_eq!(count(&rows, TurnType::User, RecordState::Deleted), 1);
    assert!(
        rows.iter()
            .any(|r| r.text.starts_with("link: blob 851b21b8"))
    );
}

#[test]
fn cli_side_files() {
    check(BOB_HISTORY, "bob_history.txt");
    let t1 = check(BOB_TRANSCRIPT, "bob_transcript.txt");
    assert!(t1.iter().all(|r| r.record_state == RecordState::Secondary));
    let t2 = check(BOB_TRANSCRIPT2, "bob_transcript2.txt");
    assert!(
        t2.iter()
            .any(|r| r.text == "turn error: status=error message=\"rate limited\"")
    );
    assert_eq!(t2.iter().filter(|r| r.is_parser()).count(), 1);
    check(BOB_PERMISSIONS, "bob_permissions.txt");
    check(BOB_CLI_CONFIG, "bob_cli_config.txt");
    check(BOB_MCP, "bob_mcp.txt");
    check(BOB_TRUSTED, "bob_trusted.txt");
    check(BOB_PROJECT_CLI, "bob_project_cli.txt");
}

#[test]
fn recovery_counts() {
    // the README's recovery table
    let deleted = |rel: &str| {
        read(rel)
            .iter()
            .filter(|r| r.record_state == RecordState::Deleted)
            .count()
    };
    assert_eq!(deleted(ALICE_GLOBAL), 3);
    assert_eq!(deleted(CAROL_GLOBAL), 2);
    assert_eq!(deleted(BOB_STORE), 1);
    let recovered = read(BOB_STORE)
        .iter()
        .filter(|r| r.record_state == RecordState::Recovered)
        .count();
    assert_eq!(recovered, 7);
}
