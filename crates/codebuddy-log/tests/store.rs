//! The store as the scanner uses it: claims, side files, evidence left untouched.
mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Store, TurnType};
use codebuddy_log::CodeBuddyStore;
use common::*;

fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    chat_rows::dirty::files_under(root, |_| true)
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect()
}

#[test]
fn claims_exactly_the_codebuddy_files_of_the_evidence_tree() {
    let root = evidence_root();
    let files = chat_rows::dirty::files_under(&root, |_| true);
    let store = CodeBuddyStore;
    let mut claimed: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let claim = store.claim(p)?;
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            Some(format!("{} <- {rel}", claim.kind))
        })
        .collect();
    claimed.sort();
    assert_eq!(
        claimed,
        vec![
            format!(
                "codebuddy persisted tool output <- {LIN_PROJECT}/{LIN_SESSION}/tool-results/call_edit_1.txt"
            ),
            format!(
                "codebuddy persisted tool output <- {LIN_PROJECT}/{LIN_SESSION}/tool-results/call_read_1.txt"
            ),
            format!("codebuddy session <- {WIN_SESSION}"),
            format!("codebuddy session <- {}", lin_session()),
            format!("codebuddy session <- {MAC_SESSION}"),
            format!("codebuddy session meta <- {LIN_PROJECT}/{LIN_SESSION}.meta.json"),
            format!(
                "codebuddy sub-agent meta <- {LIN_PROJECT}/{LIN_SESSION}/subagents/agent-5e1f0c2a.meta.json"
            ),
            format!("codebuddy sub-agent session <- {}", lin_subagent()),
        ]
    );
}

#[test]
fn side_files_beside_their_session_give_no_rows_of_their_own() {
    assert!(read(&format!("{LIN_PROJECT}/{LIN_SESSION}.meta.json")).is_empty());
    assert!(
        read(&format!(
            "{LIN_PROJECT}/{LIN_SESSION}/subagents/agent-5e1f0c2a.meta.json"
        ))
        .is_empty()
    );
    assert!(
        read(&format!(
            "{LIN_PROJECT}/{LIN_SESSION}/tool-results/call_edit_1.txt"
        ))
        .is_empty()
    );
}

#[test]
fn hidden_records_are_never_prompts() {
    let rows = read(&lin_session());
    let users: Vec<&str> = rows
        .iter()
        .filter(|r| r.turn_type == TurnType::User)
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        users,
        vec![
            "Fix the failing checkout test",
            "Now run the full suite",
            "Now run the full suite with coverage",
            "What does cart.ts export?"
        ]
    );
    let hidden = rows
        .iter()
        .filter(|r| r.turn_type == TurnType::System && r.text.starts_with("hidden "))
        .count();
    assert_eq!(hidden, 7);
    assert!(rows.iter().all(|r| r.agent == "codebuddy"));
}

#[test]
fn reading_leaves_the_evidence_untouched_and_records_every_file_read() {
    let root = evidence_root();
    // only this store's homes: other stores' fixtures may be regenerated meanwhile
    let homes = |root: &Path| -> Vec<BTreeMap<PathBuf, Vec<u8>>> {
        [
            "lin-ws01/home/alice/.codebuddy",
            "mac-lt02/Users/bob/.workbuddy",
            "WIN-DESK03/C/Users/carol/.codebuddy",
        ]
        .iter()
        .map(|h| snapshot(&root.join(h)))
        .collect()
    };
    let before = homes(&root);
    assert_eq!(before.iter().map(BTreeMap::len).sum::<usize>(), 8);
    let evidence = Evidence::new();
    for rel in [
        lin_session(),
        lin_subagent(),
        MAC_SESSION.to_string(),
        WIN_SESSION.to_string(),
    ] {
        read_with(&rel, &evidence);
    }
    assert_eq!(homes(&root), before, "bytes or listing changed");
    let read: Vec<String> = evidence
        .manifest()
        .iter()
        .map(|m| {
            Path::new(&m.path)
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    assert_eq!(
        read,
        vec![
            WIN_SESSION.to_string(),
            format!("{LIN_PROJECT}/{LIN_SESSION}/subagents/agent-5e1f0c2a.jsonl"),
            format!("{LIN_PROJECT}/{LIN_SESSION}/subagents/agent-5e1f0c2a.meta.json"),
            format!("{LIN_PROJECT}/{LIN_SESSION}/tool-results/call_edit_1.txt"),
            format!("{LIN_PROJECT}/{LIN_SESSION}/tool-results/call_read_1.txt"),
            lin_session(),
            format!("{LIN_PROJECT}/{LIN_SESSION}.meta.json"),
            MAC_SESSION.to_string(),
        ]
    );
}

fn scratch(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn rows_at(dir: &Path, rel: &str) -> Vec<String> {
    let ctx = FileContext {
        display_path: rel.to_string(),
        ..FileContext::default()
    };
    CodeBuddyStore
        .read(&dir.join(rel), &ctx, &Evidence::new())
        .iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}",
                r.session_id, r.source_file, r.source_locator, r.text
            )
        })
        .collect()
}

#[test]
fn orphan_meta_files_and_broken_meta_files() {
    let dir = scratch(&[
        (
            ".codebuddy/projects/srv-app/s1.meta.json",
            "{\"pinned\":true}",
        ),
        (
            ".codebuddy/projects/srv-app/s2/subagents/agent-0a1b2c3d.meta.json",
            "{\"parentSessionId\":\"s2\",\"taskId\":\"t9\"}",
        ),
        (
            ".codebuddy/projects/srv-app/s3.jsonl",
            "{\"type\":\"topic\",\"topic\":\"x\"}\n",
        ),
        (".codebuddy/projects/srv-app/s3.meta.json", "[]"),
        (
            ".codebuddy/projects/srv-app/s3/subagents/agent-99aa88bb.jsonl",
            "{\"type\":\"topic\",\"topic\":\"y\",\"sessionId\":\"99aa88bb-1\"}\n",
        ),
    ]);
    let p = dir.path();
    assert_eq!(
        rows_at(p, ".codebuddy/projects/srv-app/s1.meta.json"),
        vec![
            "s1|.codebuddy/projects/srv-app/s1.meta.json|whole file|session meta: pinned=true",
            "s1|.codebuddy/projects/srv-app/s1.meta.json|path|session file missing: s1.jsonl (only its meta file remains)",
        ]
    );
    assert_eq!(
        rows_at(
            p,
            ".codebuddy/projects/srv-app/s2/subagents/agent-0a1b2c3d.meta.json"
        ),
        vec![
            "agent-0a1b2c3d|.codebuddy/projects/srv-app/s2/subagents/agent-0a1b2c3d.meta.json|whole file|session start: parent=s2 task=t9 agent_file=agent-0a1b2c3d",
            "agent-0a1b2c3d|.codebuddy/projects/srv-app/s2/subagents/agent-0a1b2c3d.meta.json|path|session file missing: agent-0a1b2c3d.jsonl (only its meta file remains)",
        ]
    );
    assert_eq!(
        rows_at(p, ".codebuddy/projects/srv-app/s3.jsonl"),
        vec![
            "s3|.codebuddy/projects/srv-app/s3.meta.json|whole file|parser: s3.meta.json is not a JSON object (found an array)",
            "s3|.codebuddy/projects/srv-app/s3.jsonl|byte 0|session title: x (from topic)",
            "s3|.codebuddy/projects/srv-app/s3.jsonl|byte 0|topic: x",
        ]
    );
    // a sub-agent without its meta file: the parent comes from the path
    assert_eq!(
        rows_at(
            p,
            ".codebuddy/projects/srv-app/s3/subagents/agent-99aa88bb.jsonl"
        ),
        vec![
            "99aa88bb-1|.codebuddy/projects/srv-app/s3/subagents/agent-99aa88bb.jsonl|path|session start: parent=s3 agent_file=agent-99aa88bb parent_from=path",
            "99aa88bb-1|.codebuddy/projects/srv-app/s3/subagents/agent-99aa88bb.jsonl|byte 0|session title: y (from topic)",
            "99aa88bb-1|.codebuddy/projects/srv-app/s3/subagents/agent-99aa88bb.jsonl|byte 0|topic: y",
        ]
    );
    // a persisted output whose session file is gone
    std::fs::create_dir_all(p.join(".codebuddy/projects/srv-app/s4/tool-results")).unwrap();
    std::fs::write(
        p.join(".codebuddy/projects/srv-app/s4/tool-results/call_9.txt"),
        "out",
    )
    .unwrap();
    assert_eq!(
        rows_at(p, ".codebuddy/projects/srv-app/s4/tool-results/call_9.txt"),
        vec![
            "s4|.codebuddy/projects/srv-app/s4/tool-results/call_9.txt|whole file|out",
            "s4|.codebuddy/projects/srv-app/s4/tool-results/call_9.txt|path|session file missing: s4.jsonl (only its persisted tool output call_9.txt remains)",
        ]
    );
    // a file that cannot be read is one parser row
    assert_eq!(
        rows_at(p, ".codebuddy/projects/srv-app/gone.jsonl"),
        vec![
            "gone|.codebuddy/projects/srv-app/gone.jsonl||parser: .codebuddy/projects/srv-app/gone.jsonl: cannot read (No such file or directory (os error 2))"
        ]
    );
}
