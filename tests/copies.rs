//! One place for copies: every store marks its copies `secondary`, with their twin's
//! session, turn type and text, and leaves dropping them to the scanner's merge. So the
//! CLI without `--keep-copies` writes each copy whose primary twin exists nowhere, and
//! counts it in the summary; with `--keep-copies` every copy is back, including those
//! the crates used to drop themselves (Tabby's backup and event-log twins of live rows,
//! a VS Code `.json` session's twins of its `.jsonl` log).

mod common;
use ai_chat_forensics::chat_rows::snapshot_tree;
use common::{Run, run};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn evidence(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/evidence")
        .join(rel)
}

/// The secondary rows per source file (its last `tail` path components).
fn copies_per_file(rows: &[serde_json::Value], tail: usize) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for r in rows.iter().filter(|r| r["secondary"] == true) {
        let file = r["source_file"].as_str().unwrap_or_default();
        let parts: Vec<&str> = file.rsplit('/').take(tail).collect();
        let key: Vec<&str> = parts.into_iter().rev().collect();
        *out.entry(key.join("/")).or_default() += 1;
    }
    out
}

/// `(file name, turn type, text)` of the secondary rows.
fn copies(rows: &[serde_json::Value]) -> Vec<(String, String, String)> {
    rows.iter()
        .filter(|r| r["secondary"] == true)
        .map(|r| {
            (
                r["source_file"]
                    .as_str()
                    .unwrap_or_default()
                    .rsplit('/')
                    .next()
                    .unwrap_or_default()
                    .to_string(),
                r["turn_type"].as_str().unwrap_or_default().to_string(),
                r["text"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// The keep-copies run holds every row of the merged run, plus exactly `merged` more,
/// all of them secondary.
fn check_merge_accounts_for_every_copy(merged: &Run, kept: &Run) {
    assert_eq!(kept.merged, 0);
    assert_eq!(kept.rows.len(), merged.rows.len() + merged.merged);
    let m = copies(&merged.rows);
    let mut extra = copies(&kept.rows);
    for c in &m {
        let at = extra
            .iter()
            .position(|e| e == c)
            .expect("a merged run's copy is kept");
        extra.remove(at);
    }
    assert_eq!(extra.len(), merged.merged);
    assert_eq!(
        kept.rows.iter().filter(|r| r["secondary"] != true).count(),
        merged
            .rows
            .iter()
            .filter(|r| r["secondary"] != true)
            .count()
    );
}

#[test]
fn tabby_backup_and_event_log_copies_are_merged_by_the_scanner_and_kept_on_request() {
    let root = evidence("tabby-srv");
    let merged = run(&root, &[], false);
    let kept = run(&root, &[], true);
    // 11 rows of the backup (thread 4, page 3, the integrations and repository, June's
    // completion counters) and 7 of the 2026-10-01 log (alice's completion, view,
    // select, chat completion) have live twins: the crate used to drop them itself;
    // 4 rows of the 2026-06-15 log repeat a record pruned from the live database that
    // the backup still holds: the backup's copy is kept, the log's merged into it
    assert_eq!(merged.merged, 22);
    check_merge_accounts_for_every_copy(&merged, &kept);
    assert_eq!(
        copies_per_file(&merged.rows, 2),
        BTreeMap::from([
            ("ee/db.backup-20260925.sqlite".to_string(), 8),
            ("events/2025-01-20.json".to_string(), 3),
            ("events/2026-06-15.json".to_string(), 1),
            ("events/2026-10-01.json".to_string(), 8),
        ])
    );
    assert_eq!(
        copies_per_file(&kept.rows, 2),
        BTreeMap::from([
            ("ee/db.backup-20260925.sqlite".to_string(), 19),
            ("events/2025-01-20.json".to_string(), 3),
            ("events/2026-06-15.json".to_string(), 5),
            ("events/2026-10-01.json".to_string(), 15),
        ])
    );
    // the formerly dropped copies, back with --keep-copies only
    for (file, turn, text) in [
        (
            "db.backup-20260925.sqlite",
            "user",
            "How big is the connection pool?",
        ),
        (
            "db.backup-20260925.sqlite",
            "assistant",
            "How a release is deployed.",
        ),
        ("2026-10-01.json", "assistant", "return a + b"),
        (
            "2026-10-01.json",
            "system",
            "chat_completion: user=alice@example.com",
        ),
    ] {
        let c = (file.to_string(), turn.to_string(), text.to_string());
        assert!(copies(&kept.rows).contains(&c), "{c:?} kept");
        assert!(!copies(&merged.rows).contains(&c), "{c:?} merged away");
    }
}

#[test]
fn a_vscode_json_copy_is_merged_by_the_scanner_and_kept_on_request() {
    let root =
        evidence("mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b21f");
    let merged = run(&root, &[], false);
    let kept = run(&root, &[], true);
    assert_eq!(merged.merged, 5);
    check_merge_accounts_for_every_copy(&merged, &kept);
    // only the reply the log lost is the copy's own
    assert_eq!(
        copies(&merged.rows),
        [(
            "m1.json".to_string(),
            "assistant".to_string(),
            "There are none yet.".to_string()
        )]
    );
    let kept_texts: Vec<String> = copies(&kept.rows).into_iter().map(|c| c.2).collect();
    assert_eq!(
        kept_texts,
        [
            "session start: responder=\"GitHub Copilot\" location=panel",
            "model: copilot/gpt-4o",
            "explain main.rs",
            "It starts the server.",
            "and tests?",
            "There are none yet.",
        ]
    );
}

#[test]
fn claude_history_copies_with_pastes_it_does_not_hold_are_proven_and_merged() {
    let root = evidence("WIN-DESK03/C/Users/carol");
    let merged = run(&root, &["--agent", "claude-code"], false);
    let kept = run(&root, &["--agent", "claude-code"], true);
    // the prompt whose paste is in paste-cache/ and the prompt with an image are proven
    // against the transcript by the prefix rule; the prompt the transcript lost (its
    // last line is torn) is the history's own and stays
    assert_eq!(merged.merged, 2);
    check_merge_accounts_for_every_copy(&merged, &kept);
    let texts = |rows: &[serde_json::Value]| -> Vec<String> {
        copies(rows).into_iter().map(|c| c.2).collect()
    };
    assert_eq!(texts(&merged.rows), ["Run it as admin"]);
    assert_eq!(
        texts(&kept.rows),
        [
            "List the services that are stopped among these: Spooler\nBITS\nwuauserv",
            "Start the Spooler service\n[image image/png, 70 bytes]",
            "Run it as admin",
        ]
    );
}

#[test]
fn cody_legacy_copies_are_merged_by_the_scanner_and_kept_on_request() {
    let root = evidence("lin-ws01/home/alice");
    let merged = run(&root, &["--agent", "cody"], false);
    let kept = run(&root, &["--agent", "cody"], true);
    // the migrated pair and its model row; the unpaired question, the chat only the
    // XML holds and the top-level list's own chat stay
    assert_eq!(merged.merged, 3);
    check_merge_accounts_for_every_copy(&merged, &kept);
    for text in ["hi", "hello", "model: anthropic/claude-3-sonnet-20240229"] {
        let n = |rows: &[serde_json::Value]| copies(rows).iter().filter(|c| c.2 == text).count();
        assert_eq!((n(&merged.rows), n(&kept.rows)), (0, 1), "{text}");
    }
    // the top-level list's copy of the same chat is read once (the account list wins)
    assert_eq!(
        copies(&kept.rows)
            .iter()
            .filter(|c| c.2.starts_with("chat: 0f8b7034-"))
            .count(),
        1
    );
    assert!(
        copies(&merged.rows)
            .iter()
            .any(|c| c.2 == "Temurin 17, from the toolchain block.")
    );
}

#[test]
fn the_whole_tree_counts_every_copy() {
    let root = evidence("");
    let merged = run(&root, &[], false);
    let kept = run(&root, &[], true);
    check_merge_accounts_for_every_copy(&merged, &kept);
    // at least the copies the three stores above give, whatever the other stores add
    assert!(merged.merged >= 18 + 5 + 3, "{}", merged.merged);
}

/// A host's copies past 16 MiB wait in `--temp-dir` (unnamed files) until the host
/// ends, and the summary says how many bytes; the rows are those of a scan that holds
/// them in memory (a `--temp-dir` inside the evidence is never written: there they stay
/// in memory), byte for byte, and nothing is left in either folder.
#[test]
fn copies_past_the_budget_wait_in_the_temporary_folder() {
    let case = tempfile::tempdir().unwrap();
    let claude = case.path().join("home/ida/.claude");
    std::fs::create_dir_all(&claude).unwrap();
    // 60,000 distinct prompts, every one a copy with no transcript to merge into
    let mut history = String::new();
    for i in 0..60_000u64 {
        history.push_str(&format!(
            "{{\"display\":\"prompt {i} of a long history, with words enough to make a row\",\"pastedContents\":{{}},\"timestamp\":{},\"project\":\"/w/p\",\"sessionId\":\"11111111-2222-4333-8444-{:012}\"}}\n",
            1_782_050_400_000 + i * 1000,
            i / 20
        ));
    }
    std::fs::write(claude.join("history.jsonl"), &history).unwrap();
    let spill = tempfile::tempdir().unwrap();
    let inside = case.path().join("home/ida/tmp");
    std::fs::create_dir_all(&inside).unwrap();
    let before = snapshot_tree(case.path()).unwrap();
    let run = |temp: &Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai-chat-forensics"))
            .arg(case.path())
            .args(["--no-progress", "--temp-dir"])
            .arg(temp)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        (out.stdout, String::from_utf8(out.stderr).unwrap())
    };
    let spilled_line = |stderr: &str| -> Option<u64> {
        stderr.lines().find_map(|l| {
            l.trim()
                .strip_prefix("secondary copies held in --temp-dir until their host ended: ")?
                .strip_suffix(" bytes (unnamed files, gone)")?
                .parse()
                .ok()
        })
    };
    let (rows, stderr) = run(spill.path());
    assert_eq!(rows.iter().filter(|b| **b == b'\n').count(), 60_000);
    let spilled = spilled_line(&stderr).expect("the summary line");
    // at least the 16 MiB budget went out, at most every row
    assert!(
        (16 << 20..=rows.len() as u64).contains(&spilled),
        "{spilled}"
    );
    let (in_memory, stderr) = run(&inside);
    assert_eq!(spilled_line(&stderr), None);
    assert!(rows == in_memory, "the same rows, byte for byte");
    assert_eq!(std::fs::read_dir(spill.path()).unwrap().count(), 0);
    assert_eq!(snapshot_tree(case.path()).unwrap(), before);
}
