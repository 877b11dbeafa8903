//! The dirty-input harness on every VS Code fixture: damaged copies (cut, flipped,
//! spliced, duplicated) never panic, stay within bounded memory, and every cut that
//! certainly damages the file gives a `parser:` row.

mod common;

use std::path::Path;

use chat_rows::dirty::{Harness, Mutation, cuts_inside_a_line};
use chat_rows::{Evidence, FileContext, Store};
use common::evidence_root;
use vscode_chat_log::ChatLogStore;

/// Each fixture, and the path under `User/` it is written to (so the store claims it).
const FIXTURES: &[(&str, &str)] = &[
    (
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/a11c0de5/chatSessions/a1118.jsonl",
        "User/workspaceStorage/w/chatSessions/a1118.jsonl",
    ),
    (
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/b104f1a7/chatSessions/f1104.json",
        "User/workspaceStorage/w/chatSessions/f1104.json",
    ),
    (
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl",
        "User/workspaceStorage/w/chatSessions/9ab.jsonl",
    ),
    (
        "lin-ws01/home/alice/.config/Code/User/globalStorage/emptyWindowChatSessions/e1.jsonl",
        "User/globalStorage/emptyWindowChatSessions/e1.jsonl",
    ),
    (
        "lin-ws01/home/alice/.vscode-server/data/User/workspaceStorage/a7d2e9/chatSessions/r7.jsonl",
        "User/workspaceStorage/w/chatSessions/r7.jsonl",
    ),
    (
        "mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b21f/chatSessions/m1.jsonl",
        "User/workspaceStorage/w/chatSessions/m1.jsonl",
    ),
    (
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/workspaceStorage/e4a1/chatSessions/w1.jsonl",
        "User/workspaceStorage/w/chatSessions/w1.jsonl",
    ),
    (
        "mac-lt02/Users/bob/Library/Application Support/Cursor/User/workspaceStorage/c0ffee/chatSessions/v1s.json",
        "User/workspaceStorage/w/chatSessions/v1s.json",
    ),
    (
        "mac-lt02/Users/bob/Library/Application Support/Cursor/User/workspaceStorage/c0ffee/chatSessions/v2s.json",
        "User/workspaceStorage/w/chatSessions/v2s.json",
    ),
    (
        "mac-lt02/Users/bob/Library/Application Support/Code/User/globalStorage/transferredChatSessions/t5.json",
        "User/globalStorage/transferredChatSessions/t5.json",
    ),
    (
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/chatEditingSessions/9ab/state.json",
        "User/workspaceStorage/w/chatEditingSessions/9ab/state.json",
    ),
    (
        "lin-ws01/home/alice/.config/Code/User/globalStorage/github.copilot-chat/cloudSessions.json",
        "User/globalStorage/github.copilot-chat/cloudSessions.json",
    ),
    (
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/workspace.json",
        "User/workspaceStorage/w/workspace.json",
    ),
    (
        "lin-ws01/home/alice/.config/Code/User/settings.json",
        "User/settings.json",
    ),
];

/// For a whole-document JSON file: a cut that drops any non-whitespace byte breaks it.
fn cuts_a_document(input: &[u8], m: &Mutation) -> bool {
    match *m {
        Mutation::Truncate(n) if n < input.len() => {
            input[n..].iter().any(|b| !b.is_ascii_whitespace())
        }
        _ => false,
    }
}

#[test]
fn damaged_fixtures_never_panic_and_cuts_are_reported() {
    let harness = Harness::new().truncations(16).flips(16).splices(8);
    for (fixture, as_name) in FIXTURES {
        let input = std::fs::read(evidence_root().join(fixture)).expect("fixture");
        let report = harness.run_files(&input, as_name, &[], |path: &Path| {
            let ctx = FileContext::default();
            ChatLogStore.read(path, &ctx, &Evidence::new())
        });
        report.assert_no_panics();
        report.assert_peak_memory_below(1 << 30);
        if as_name.ends_with(".jsonl") {
            report.assert_damage_reported(|m| cuts_inside_a_line(&input, m));
        } else if !as_name.ends_with("settings.json") {
            // settings.json is JSONC: a cut inside its leading comment leaves it valid
            report.assert_damage_reported(|m| cuts_a_document(&input, m));
        }
        assert!(
            report.reported() > 0,
            "{fixture}: no damage reported at all"
        );
    }
}

#[test]
fn replay_of_damaged_logs_in_memory() {
    // the replay alone, without files: every cut inside a line is a parser row
    let input = std::fs::read(evidence_root().join(
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl",
    ))
    .expect("fixture");
    let ctx = vscode_chat_log::SessionContext::new("vscode", "9ab.jsonl");
    let report = Harness::new().run(&input, |b| {
        vscode_chat_log::rows::rows_from_replay(&vscode_chat_log::Replay::from_bytes(b), &ctx)
    });
    report.assert_no_panics();
    report.assert_damage_reported(|m| cuts_inside_a_line(&input, m));
    report.assert_peak_memory_below(1 << 30);
}
