//! The dirty-input harness on every Cursor fixture: no panic, bounded memory.

mod common;

use chat_rows::dirty::Harness;
use chat_rows::{Evidence, FileContext, Store};
use common::*;
use cursor_state::{CursorStore, Paging};

const MEMORY_LIMIT: u64 = 1 << 30;

fn run(rel: &str, name: &str, siblings: &[(&str, &[u8])]) -> usize {
    let input = std::fs::read(evidence_root().join(rel)).unwrap();
    let report = Harness::new()
        .truncations(12)
        .flips(24)
        .splices(6)
        .run_files(&input, name, siblings, |p| {
            CursorStore.read(p, &FileContext::default(), &Evidence::new())
        });
    report.assert_no_panics();
    report.assert_peak_memory_below(MEMORY_LIMIT);
    report.reported()
}

#[test]
fn databases() {
    run(ALICE_GLOBAL, "Cursor/User/globalStorage/state.vscdb", &[]);
    run(CAROL_GLOBAL, "Cursor/User/globalStorage/state.vscdb", &[]);
    run(
        CAROL_BACKUP,
        "Cursor/User/globalStorage/state.vscdb.backup",
        &[],
    );
    run(
        ALICE_WS,
        "Cursor/User/workspaceStorage/w/state.vscdb",
        &[(
            "Cursor/User/workspaceStorage/w/workspace.json",
            br#"{"folder":"file:///x"}"#,
        )],
    );
    let meta = std::fs::read(evidence_root().join(BOB_STORE).with_file_name("meta.json")).unwrap();
    run(
        BOB_STORE,
        ".cursor/chats/h/a/store.db",
        &[(".cursor/chats/h/a/meta.json", &meta)],
    );
}

/// The global databases again through the paged path (batches of one composer).
#[test]
fn databases_paged() {
    for (rel, name) in [
        (ALICE_GLOBAL, "Cursor/User/globalStorage/state.vscdb"),
        (CAROL_GLOBAL, "Cursor/User/globalStorage/state.vscdb"),
        (CAROL_BACKUP, "Cursor/User/globalStorage/state.vscdb.backup"),
    ] {
        let input = std::fs::read(evidence_root().join(rel)).unwrap();
        let report = Harness::new()
            .truncations(12)
            .flips(24)
            .splices(6)
            .run_files(&input, name, &[], |p| {
                let mut rows = Vec::new();
                CursorStore.read_with(
                    p,
                    &FileContext::default(),
                    &Evidence::new(),
                    &mut rows,
                    Paging::always(1),
                );
                rows
            });
        report.assert_no_panics();
        report.assert_peak_memory_below(MEMORY_LIMIT);
    }
}

#[test]
fn json_files() {
    let torn = run(
        BOB_TRANSCRIPT2,
        ".cursor/projects/p/agent-transcripts/t.jsonl",
        &[],
    );
    assert!(torn > 0);
    run(
        BOB_TRANSCRIPT,
        ".cursor/projects/p/agent-transcripts/t.jsonl",
        &[],
    );
    run(BOB_HISTORY, ".cursor/chats/h/prompt_history.json", &[]);
    run(BOB_PERMISSIONS, "home/u/.cursor/permissions.json", &[]);
    run(BOB_CLI_CONFIG, "home/u/.cursor/cli-config.json", &[]);
    run(BOB_MCP, ".cursor/projects/p/mcp-approvals.json", &[]);
    run(BOB_PROJECT_CLI, "src/.cursor/cli.json", &[]);
}
