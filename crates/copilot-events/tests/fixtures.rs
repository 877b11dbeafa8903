//! Exact rows, counts and texts on the project's Copilot fixtures; the merge counts of
//! a whole scan-like read; secrets; the dirty-input harness on every fixture.
use std::path::{Path, PathBuf};

use chat_rows::dirty::Harness;
use chat_rows::write::{Format, to_bytes};
use chat_rows::{Evidence, FileContext, RecordState, Row, Store, TurnType};
use copilot_events::{CopilotEventsStore, Options, read_event_lines, read_events, side, stores};

type SideFn = fn(&[u8], &side::Side<'_>, &mut dyn FnMut(Row));

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

const A: &str = "lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70";
const HOME: &str = "lin-ws01/home/alice/.copilot";
const WS: &str =
    "lin-ws01/home/alice/.config/Code/User/workspaceStorage/7e137a01/GitHub.copilot-chat";
const GLOBAL: &str = "lin-ws01/home/alice/.config/Code/User/globalStorage/github.copilot-chat";
const MAC_T2: &str = "mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b0b7c0de/GitHub.copilot-chat/transcripts/b0b0b0b0-2222-4000-9000-000000000002.jsonl";

fn read(rel: &str, product: Option<&str>) -> Vec<Row> {
    let ctx = FileContext {
        product: product.map(str::to_string),
        display_path: rel.to_string(),
        ..FileContext::default()
    };
    CopilotEventsStore.read(&root().join(rel), &ctx, &Evidence::new())
}

fn render(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}|{}|{}|{}",
                r.turn_type,
                r.record_state,
                r.model,
                r.tool_name,
                r.tool_use_id,
                r.source_locator,
                r.text
            )
        })
        .collect()
}

#[test]
fn cli_session_rows() {
    let rows = read(&format!("{A}/events.jsonl"), None);
    assert!(rows.iter().all(|r| r.agent == "copilot"));
    let r = render(&rows);
    let expected_prefix = [
        "system|live||||byte 0|session start: copilot=1.0.91 cwd=/home/alice/src/api git_root=/home/alice/src/api repository=acme/api branch=main selected_model=claude-sonnet-4.5 started=2026-10-05T09:00:00.000Z producer=copilot-agent events_version=1",
        "system|live||||byte 0|model: claude-sonnet-4.5",
        "system|live||||byte 406|permission decision: folder trust: Folder /home/alice/src/api trusted for this session",
        "system|live||||byte 602|permission mode: interactive",
        "user|live||||byte 602|Run the tests and fix the failing one\n[attachment file /home/alice/src/api/test/users.test.js]",
        "system|live||||byte 602|session event detail: user.message {\"attachments\":[{\"displayName\":\"users.test.js\"}],\"transformedContent\":\"<context>expanded</context> Run the tests and fix the failing one\"}",
        "thinking|live|claude-sonnet-4.5|||byte 1138|I should run npm test first.",
        "assistant|live|claude-sonnet-4.5|||byte 1311|I'll run the test suite.",
        "system|live|||toolu_vrtx_01A|byte 1675|permission decision: requested kind=shell request=perm-1 intention=\"Run the test suite\" command=\"npm test\"",
        "system|live|||toolu_vrtx_01A|byte 1939|permission decision: approved request=perm-1",
        "tool_use|live|claude-sonnet-4.5|bash|toolu_vrtx_01A|byte 2133|npm test",
        "tool_result|live||bash|toolu_vrtx_01A|byte 2402|1 failing: users › rejects duplicate email",
        "system|live||bash|toolu_vrtx_01A|byte 2402|tool exit code: 1",
        "system|live||bash|toolu_vrtx_01A|byte 2402|tool detail: FAIL test/users.test.js\n1 failing: users › rejects duplicate email",
        "system|live||bash|toolu_vrtx_01A|byte 2402|session event detail: tool.execution_complete {\"result\":{\"contents\":[{\"text\":\"…\"}]}}",
        "system|live|||toolu_vrtx_02B|byte 3128|permission decision: requested kind=write request=perm-2 intention=\"Edit src/users.js\" file=src/users.js",
        "system|live|||toolu_vrtx_02B|byte 3388|permission decision: denied-interactively-by-user request=perm-2 feedback=\"Do not touch users.js, fix the test instead\"",
        "tool_use|live|claude-sonnet-4.5|edit|toolu_vrtx_02B|byte 3659|{\"path\":\"src/users.js\"}",
        "tool_result|live||edit|toolu_vrtx_02B|byte 4055|[error] Permission denied by user",
        "system|live||edit|toolu_vrtx_02B|byte 4055|tool status: failed code=denied",
        "system|live||||byte 4407|model: claude-sonnet-4.5 -> gpt-5 reasoning_effort=high source=user",
        "system|live||||byte 4617|permission mode: interactive -> autopilot",
        "system|live||||byte 4782|permission level: manual -> allow-all",
        "system|live||||byte 4946|hidden autopilot continuation (isAutopilotContinuation): Continue until the task is done.",
        "thinking|live|gpt-5|||byte 5295|[encrypted reasoning, 31 bytes]",
        "assistant|live|gpt-5|||byte 5295|Fixed the test's expected error message.",
        "tool_use|live|gpt-5|bash|call_Q1|byte 5626|{\"command\":\"npm test\"}",
        "system|live|||call_Q2|byte 5816|subagent started: agent=explore tool_call=call_Q2 model=gpt-5-mini",
        "system|live||||byte 5816|session event detail: subagent.started {\"agentDisplayName\":\"Explore\"}",
        "system|live||||byte 6021|session start: parent=0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70 agent_id=explore-1",
        "user|live||||byte 6021|Find where duplicate emails are checked",
        "assistant|live|gpt-5-mini|||byte 6201|In src/users.js:42.",
        "system|live|||call_Q2|byte 6387|subagent completed: agent=explore duration_ms=4000 tokens=5120",
        "system|live||||byte 6581|hook: postToolUse id=h1 success=false error=\"lint failed\"",
        "system|live||||byte 6782|skill invoked: test-runner path=/home/alice/.copilot/skills/test-runner/SKILL.md source=user",
        "system|live||||byte 6984|compaction: start",
        "system|live||||byte 7103|compaction: complete success=true checkpoint=1 trigger=auto",
        "system|live||||byte 7103|compaction summary: Ran tests; one failure in users.test.js; fixed the expected message.",
        "system|live||||byte 7365|context truncation: removed_messages=12 removed_tokens=30500",
        "system|live||||byte 7552|cwd changed: /home/alice/src/api/packages/core branch=fix/users",
        "system|live||||byte 7732|session warning: rate_limit: Approaching the rate limit",
        "system|live|gpt-5|||byte 7907|session error: model_call status=500: Upstream error",
        "system|live|gpt-5|||byte 8083|turn aborted: user_initiated",
        "system|live||||byte 8208|system message: system: Custom instructions loaded from AGENTS.md",
        "system|live||||byte 8386|session event: session.task_complete {\"summary\":\"done\"}",
        "system|live||||byte 8518|unknown record type session.future_thing: {\"type\":\"session.future_thing\",\"data\":{\"x\":1},\"id\":\"a-0040\",\"timestamp\":\"2026-10-05T09:02:13.000Z\",\"parentId\":\"a-0039\"}",
        "system|live||||byte 8638|binary asset: image/png, 16 bytes",
        "system|live||||byte 8809|session end: type=routine current_model=gpt-5 files_modified=1 lines_added=3 lines_removed=1",
        "system|live|claude-sonnet-4.5|||byte 8809|usage: model=claude-sonnet-4.5 input=42000 output=1800 cache_read=30000 cache_write=0 reasoning=400 nano_aiu=1200000 requests=3 scope=session",
        "system|live|gpt-5|||byte 8809|usage: model=gpt-5 input=9000 output=700 cache_read=0 cache_write=- reasoning=- requests=1 scope=session",
        "system|live||||byte 8809|session totals: premium_requests=4 nano_aiu=1200000 api_duration_ms=15400 started=2026-10-05T09:00:00.000000Z",
        "system|live||||byte 8809|session event detail: session.shutdown {\"codeChanges\":{\"filesModified\":[\"test/users.test.js\"]},\"modelMetrics\":{\"claude-sonnet-4.5\":{\"requests\":{\"cost\":3}}}}",
        "system|live||||byte 9474|parser: unparseable line (torn last line: EOF while parsing a string at line 1 column 53): {\"type\":\"user.message\",\"data\":{\"content\":\"one more th",
        "tool_use|live|claude-sonnet-4.5|view|toolu_vrtx_03C|byte 2781|{\"path\":\"README.md\"}",
        "system|live||view|toolu_vrtx_03C|byte 2781|link: tool call toolu_vrtx_03C was requested but never started in this file",
        "system|live||bash|call_Q1|byte 5626|link: tool call call_Q1 has no result in this file",
        "system|live||||inuse.4242.lock|session lock: in use by pid 4242 (inuse.4242.lock present, file mtime)",
    ];
    assert_eq!(r, expected_prefix);
    // the sub-agent's rows carry `<session>:<agentId>`, the others the session
    let sub: Vec<_> = rows
        .iter()
        .filter(|r| r.session_id.ends_with(":explore-1"))
        .collect();
    assert_eq!(sub.len(), 3);
    // the edit written twice is one tool_use; the parser row is the torn line alone
    assert_eq!(
        rows.iter()
            .filter(|r| r.tool_use_id == "toolu_vrtx_02B" && r.turn_type == TurnType::ToolUse)
            .count(),
        1
    );
    assert_eq!(rows.iter().filter(|r| r.is_parser()).count(), 1);
    // the project follows `session.context_changed`
    assert_eq!(rows[0].project_path, "/home/alice/src/api");
    assert_eq!(
        rows.iter()
            .find(|r| r.text.starts_with("session warning"))
            .unwrap()
            .project_path,
        "/home/alice/src/api/packages/core"
    );
    assert!(rows.iter().all(|r| !r.text.contains("inferred")));
}

#[test]
fn no_model_infers_families_and_links() {
    let rows = read(
        &format!("{HOME}/session-state/1b2c3d4e-0000-4a00-8b00-00000000000b/events.jsonl"),
        None,
    );
    let r = render(&rows);
    assert!(r.contains(&"tool_result|live|||toolu_orphan|byte 1064|orphan result".to_string()));
    assert!(r.contains(&"system|live|||toolu_orphan|byte 1064|link: tool result toolu_orphan has no tool call in this file".to_string()));
    assert!(
        r.contains(
            &"tool_use|live||github/list_issues|toolu_bdrk_02Y|byte 1261|{\"repo\":\"acme/web\"}"
                .to_string()
        )
    );
    assert!(r.contains(&"system|live||grep|toolu_bdrk_01X|byte 818|tool exit code: 0".to_string()));
    let inferred: Vec<_> = rows
        .iter()
        .filter(|r| r.text.starts_with("model family inferred"))
        .collect();
    assert_eq!(inferred.len(), 1);
    assert_eq!(
        inferred[0].text,
        "model family inferred: Anthropic (tool-call id prefix toolu_bdrk_; not recorded by the store)"
    );
    assert!(rows.iter().all(|r| r.model.is_empty()));
}

#[test]
fn resumed_session_replay_is_secondary() {
    let rows = read(
        &format!("{HOME}/session-state/2c3d4e5f-0000-4c00-8c00-00000000000c/events.jsonl"),
        None,
    );
    let r = render(&rows);
    assert_eq!(
        r,
        vec![
            "system|live||||byte 0|session start: copilot=1.0.91 cwd=/home/alice/src/api selected_model=auto",
            "user|live||||byte 243|What does the cache layer do?",
            "assistant|live|gpt-5|||byte 391|It memoises user lookups.",
            "system|live||||byte 556|session start: resumed=true events=3 resumed_at=2026-10-07T10:00:00.000Z",
            "user|secondary||||byte 719|What does the cache layer do?",
            "assistant|secondary|gpt-5|||byte 867|It memoises user lookups.",
            "system|live||||byte 719|transcript replay: 2 lines rewritten at 2026-10-07T10:00:00.000000Z with their original times",
            "user|live||||byte 1032|And how is it invalidated?",
            "assistant|live|gpt-5|||byte 1177|On every write to users.",
        ]
    );
    // `auto` is a route, never a `model:` row
    assert!(!rows.iter().any(|r| r.text.starts_with("model:")));
}

#[test]
fn transcript_without_chat_sessions_is_primary() {
    let rows = read(
        &format!("{WS}/transcripts/5a1e7c37-1137-4000-9000-000000000001.jsonl"),
        Some("vscode"),
    );
    assert!(
        rows.iter()
            .all(|r| r.agent == "vscode" && r.record_state == RecordState::Live)
    );
    assert_eq!(rows.len(), 7);
    assert!(
        rows[0].text.ends_with(" events_version=1"),
        "{}",
        rows[0].text
    );
    assert_eq!(rows[1].project_path, "/home/alice/src/shop");
    let usage = rows.iter().find(|r| r.text.starts_with("usage:")).unwrap();
    assert_eq!(
        usage.text,
        "usage: model=claude-sonnet-4.5 input=12000 output=300 cache_read=8000 cache_write=1000 reasoning=- nano_aiu=250000 scope=call"
    );
    assert_eq!(usage.model, "claude-sonnet-4.5");
}

#[test]
fn transcript_beside_chat_log_is_secondary_and_proven() {
    let rows = read(MAC_T2, Some("vscode"));
    assert!(rows.iter().all(|r| r.secondary));
    let r = render(&rows);
    assert_eq!(r[1], "user|secondary||||byte 326|Add a health endpoint");
    assert_eq!(
        r[3],
        "assistant|secondary||||byte 774|Only in the transcript: remember to add a test."
    );
}

#[test]
fn session_store_wal_only_and_deleted_session() {
    let rows = read(&format!("{HOME}/session-store.db"), None);
    let count = |s: RecordState| rows.iter().filter(|r| r.record_state == s).count();
    assert_eq!(
        (
            count(RecordState::Live),
            count(RecordState::Secondary),
            count(RecordState::Deleted)
        ),
        // the two calls' usage rows and their detail rows
        (4, 8, 9)
    );
    // live rows come from the WAL only: the main file holds the deleted session; each
    // is located in the frame it was read from (frames 1-10 of the fixture's -wal: 3
    // and 4 both write page 5, the later one is read; 8 and 10 page 9, 10 is read)
    assert_eq!(
        rows.iter()
            .filter(|r| r.record_state != RecordState::Deleted)
            .map(|r| format!("{} {}", r.source_locator, r.turn_type))
            .collect::<Vec<_>>(),
        [
            "table sessions rowid 1, wal frame 1 (page 3) cell 0 system",
            "table turns rowid 1, wal frame 4 (page 5) cell 0 user",
            "table turns rowid 1, wal frame 4 (page 5) cell 0 assistant",
            "table turns rowid 2, wal frame 4 (page 5) cell 1 user",
            "table turns rowid 2, wal frame 4 (page 5) cell 1 assistant",
            "table checkpoints rowid 1, wal frame 5 (page 6) cell 0 system",
            "table session_files rowid 1, wal frame 6 (page 7) cell 0 system",
            "table session_refs rowid 1, wal frame 7 (page 8) cell 0 system",
            "table assistant_usage_events rowid 1, wal frame 10 (page 9) cell 0 system",
            "table assistant_usage_events rowid 1, wal frame 10 (page 9) cell 0 system",
            "table assistant_usage_events rowid 2, wal frame 10 (page 9) cell 1 system",
            "table assistant_usage_events rowid 2, wal frame 10 (page 9) cell 1 system",
        ]
    );
    let turn = rows
        .iter()
        .find(|r| {
            r.source_locator == "table turns rowid 1, wal frame 4 (page 5) cell 0"
                && r.turn_type == TurnType::User
        })
        .unwrap();
    // the cut prompt (`Run the tests and fix...`) is proven against the log: full text, log time
    assert_eq!(
        turn.text,
        "Run the tests and fix the failing one\n[attachment file /home/alice/src/api/test/users.test.js]"
    );
    let deleted = rows
        .iter()
        .find(|r| r.record_state == RecordState::Deleted && r.text.starts_with("session index:"))
        .unwrap();
    assert!(
        deleted
            .text
            .contains("id=3d4e5f60-0000-4d00-8d00-00000000000d"),
        "{}",
        deleted.text
    );
    assert!(
        deleted
            .source_locator
            .starts_with("table sessions rowid 1 (deleted), "),
        "{}",
        deleted.source_locator
    );
    assert_eq!(
        rows.iter()
            .filter(|r| r.record_state == RecordState::Deleted && r.turn_type == TurnType::User)
            .count(),
        4
    );
    let usage: Vec<_> = rows
        .iter()
        .filter(|r| r.text.starts_with("usage:"))
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        usage,
        vec![
            "usage: model=claude-sonnet-4.5 input=14000 output=600 cache_read=10000 cache_write=0 reasoning=120 nano_aiu=400000 duration_ms=2100 finish=tool_calls turn=0 scope=call",
            "usage: model=gpt-5 input=9000 output=700 cache_read=0 cache_write=0 reasoning=- duration_ms=1500 finish=stop turn=1 scope=call",
        ]
    );
    // what the usage rows leave out: the call's id, its time to first token, the route
    // asked for (`auto`) beside the model billed; an empty `token_details_json` is none
    let detail: Vec<_> = rows
        .iter()
        .filter(|r| r.text.starts_with("usage detail:"))
        .map(|r| format!("{}|{}|{}", r.model, r.source_locator, r.text))
        .collect();
    assert_eq!(
        detail,
        [
            "claude-sonnet-4.5|table assistant_usage_events rowid 1, wal frame 10 (page 9) cell 0|usage detail: id=u1 time_to_first_token_ms=800",
            "gpt-5|table assistant_usage_events rowid 2, wal frame 10 (page 9) cell 1|usage detail: model=auto id=u2",
        ]
    );
    assert!(
        rows.iter()
            .any(|r| r.text == "file touched: test/users.test.js tool=edit turn=0")
    );
    assert!(
        rows.iter()
            .any(|r| r.text == "session ref: pr acme/api#42 turn=0")
    );
}

#[test]
fn traces_purged_span_and_content() {
    let rows = read(&format!("{GLOBAL}/agent-traces.db"), Some("vscode"));
    let r = render(&rows);
    assert_eq!(rows.len(), 7, "{r:#?}");
    let purged = rows
        .iter()
        .find(|r| r.record_state == RecordState::Deleted)
        .unwrap();
    assert!(
        purged
            .text
            .starts_with("usage: model=gpt-4.1 input=5000 output=250 cache_read=1000")
    );
    assert_eq!(purged.session_id, "old-session-0001");
    assert!(
        rows.iter()
            .any(|r| r.text
                == "turn error: status=error message=\"Request Failed: 429 rate limited\"")
    );
    // the tool call proven by its id (the `__vscode-7` suffix aside) and the captured prompt
    assert!(rows.iter().any(|r| r.turn_type == TurnType::ToolUse
        && r.text == "{\"filePath\":\"/home/alice/src/shop/checkout.py\"}"));
    assert!(
        rows.iter()
            .any(|r| r.turn_type == TurnType::User && r.text == "Why is checkout slow?")
    );
    assert!(rows.iter().all(|r| !r.is_parser()));
}

#[test]
fn grants_trust_settings_side_files() {
    let texts =
        |rel: &str| -> Vec<String> { read(rel, None).into_iter().map(|r| r.text).collect() };
    assert_eq!(
        texts(&format!("{HOME}/permissions-config.json")),
        vec![
            "permission setting: tool_approvals.commands=npm test,git status location=/home/alice/src/api (from permissions-config.json, file mtime)",
            "permission setting: tool_approvals.mcp=github/* location=/home/alice/src/api (from permissions-config.json, file mtime)",
            "permission setting: tool_approvals.write=true location=/home/alice/src/api (from permissions-config.json, file mtime)",
        ]
    );
    assert_eq!(
        texts(&format!("{HOME}/config.json")),
        vec![
            "permission setting: trusted_folders=/home/alice/src/api (from config.json, file mtime)",
            "permission setting: trusted_folders=/home/alice/src/web (from config.json, file mtime)",
        ]
    );
    assert_eq!(
        texts(&format!("{HOME}/settings.json")),
        vec![
            "permission setting: permissions.allowedTools=[\"shell(git:*)\"] (from settings.json, file mtime)",
            "permission setting: permissions.deniedTools=[\"shell(rm)\"] (from settings.json, file mtime)",
            "model setting: model=claude-sonnet-4.5 (from settings.json, file mtime)",
        ]
    );
    let yaml = read(&format!("{A}/workspace.yaml"), None);
    assert_eq!(
        yaml[0].text,
        "session title: Users test: fix (from workspace.yaml)"
    );
    assert_eq!(
        (yaml[0].project_path.as_str(), yaml[0].git_branch.as_str()),
        ("/home/alice/src/api", "main")
    );
    // the summary beside the name, and user_named, are kept (since 2026-12-05)
    assert!(yaml[1].secondary);
    assert_eq!(
        yaml[1].text,
        r#"session index: client=copilot-cli repository=acme/api git_root=/home/alice/src/api summary="Fix the failing users test" summary_count=2 user_named=true created=2026-10-05T09:00:00.000Z updated=2026-10-05T09:03:00.000Z"#
    );
    let history = read(&format!("{HOME}/command-history-state.json"), None);
    assert_eq!(history.len(), 3);
    assert_eq!(
        history[0].session_id,
        "0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70"
    );
    assert!(history[1].session_id.is_empty() && history[1].timestamp.is_none());
}

const H1: &str = "1111111111111111111111111111111111111111111111111111111111111a01";
const H2: &str = "2222222222222222222222222222222222222222222222222222222222222b02";
const H3: &str = "3333333333333333333333333333333333333333333333333333333333333c03";
const H4: &str = "4444444444444444444444444444444444444444444444444444444444444d04";
const H5: &str = "5555555555555555555555555555555555555555555555555555555555555e05";
const X: &str = "7c0e1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b";
const OTHER: &str = "lin-ws01/home/alice/copilot-home";

/// One row per snapshot listing every file with its backup's state, the prompt as a
/// secondary user row (proven against the log), and the backup no snapshot names.
#[test]
fn rewind_snapshots_one_row_each_with_backups() {
    let rows = read(&format!("{A}/rewind-file-snapshots/index.json"), None);
    let r = render(&rows);
    assert_eq!(
        r,
        vec![
            format!(
                "system|live||||snapshots[0]|edit snapshot: snapshot=snap-1 event=a-0003 commit=4f2a9b1 branch=main files=2: test/users.test.js (backup {H1}: present, 62 bytes), src/users.js (backup {H2}: missing)"
            ),
            "user|secondary||||snapshots[0]|Run the tests and fix the failing one\n[attachment file /home/alice/src/api/test/users.test.js]".to_string(),
            format!(
                "system|live||||snapshots[1]|edit snapshot: snapshot=snap-2 event=a-0021 commit=4f2a9b1 branch=main files=2: package.json (no backup), test/users.test.js (backup {H3}: present, 31 bytes)"
            ),
            format!(
                "system|live||||backups/{H4}|edit snapshot backup: {H4}, 33 bytes, named by no snapshot (contents not read)"
            ),
        ]
    );
    assert_eq!(
        rows[0].timestamp.unwrap().to_string(),
        "2026-10-05T09:00:05.000000Z"
    );
    assert_eq!(rows[0].git_branch, "main");
    // the orphan backup is at its file's mtime, the contents never printed
    assert!(rows[3].timestamp.is_some());
    assert!(rows.iter().all(|r| !r.text.contains("left behind")));
    // older `rewind-snapshots/` ("version": 1): files as strings and as a map, no backups/
    let old = render(&read(
        &format!(
            "{HOME}/session-state/1b2c3d4e-0000-4a00-8b00-00000000000b/rewind-snapshots/index.json"
        ),
        None,
    ));
    assert_eq!(
        old,
        vec![
            "system|live||||snapshots[0]|edit snapshot: snapshot=old-1 event=b-0002 commit=9d8c7b6 branch=dev files=2: src/app.js (no backup), src/router.js (no backup)".to_string(),
            "user|secondary||||snapshots[0]|List the routes".to_string(),
            format!("system|live||||snapshots[1]|edit snapshot: snapshot=old-2 event=b-0003 files=1: src/app.js (backup {H5}: missing)"),
        ]
    );
    // a backup with no index beside it: one row with its session's log, at its mtime
    let log = read(&format!("{OTHER}/session-state/{X}/events.jsonl"), None);
    let lone = log.last().unwrap();
    assert_eq!(
        render(std::slice::from_ref(lone)),
        vec![format!(
            "system|live||||rewind-file-snapshots/backups/{H5}|edit snapshot backup: {H5}, 15 bytes, no snapshot index beside it (contents not read)"
        )]
    );
    assert!(lone.session_id == X && lone.timestamp.is_some());
    // backups are not claimed as files of their own (they may be empty)
    assert!(
        copilot_events::locate(&root().join(format!("{A}/rewind-file-snapshots/backups/{H4}")))
            .is_none()
    );
}

/// `session.db`: todos (a deleted one from freed space), the dependency, the inbox
/// message, a key-value table generically with its token withheld; the lock file.
#[test]
fn session_db_todos_inbox_and_lock() {
    let rows = read(&format!("{A}/session.db"), None);
    let r = render(&rows);
    assert_eq!(
        r,
        vec![
            "system|live||||table todos rowid 1|session todo: Run the test suite status=done id=t-run created=\"2026-10-05 09:00:06\"",
            "system|live||||table todos rowid 2|session todo: Fix the expected message status=in_progress id=t-fix created=\"2026-10-05 09:00:06\" description=\"users.test.js expects the old text\"",
            "system|deleted||||table todos rowid 3 (deleted), unallocated space at page 6 offset 3778|session todo: Rewrite the users module status=pending id=t-drop created=\"2026-10-05 09:00:06\" description=\"Dropped: the test was wrong, not the code\"",
            "system|live||||table todo_deps rowid 1|session todo dependency: t-fix depends on t-run",
            "system|live||||table inbox_entries rowid 1|session inbox: from=explore sender_type=subagent sender=explore-1 to=0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70 interaction=call_Q2 sequence=0 unread=0 read_at=1791190876000 summary=\"Duplicate check found\": The duplicate email check is in src/users.js:42.",
            "system|live||||table agent_kv rowid 1|store record: session.db agent_kv rowid=1 key=github_oauth_token value=[withheld]",
            "system|live||||table agent_kv rowid 2|store record: session.db agent_kv rowid=2 key=last_view value=todos",
        ]
    );
    assert!(
        rows.iter()
            .all(|r| r.session_id == "0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70")
    );
    // todos' times are SQLite's datetime('now'): UTC
    assert_eq!(
        rows[1].timestamp.unwrap().to_string(),
        "2026-10-05T09:01:10.000000Z"
    );
    assert_eq!(
        rows[4].timestamp.unwrap().to_string(),
        "2026-10-05T09:01:15.000000Z"
    );
    assert!(rows[3].timestamp.is_none() && rows[5].timestamp.is_none());
    // the lock file (empty) is listed with the session's log, at its mtime
    let log = read(&format!("{A}/events.jsonl"), None);
    let lock: Vec<_> = log
        .iter()
        .filter(|r| r.text.starts_with("session lock:"))
        .collect();
    assert_eq!(lock.len(), 1);
    assert_eq!(
        (lock[0].source_locator.as_str(), lock[0].session_id.as_str()),
        ("inuse.4242.lock", "0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70")
    );
    assert!(lock[0].timestamp.is_some());
    assert!(copilot_events::locate(&root().join(format!("{A}/inuse.4242.lock"))).is_none());
}

/// The desktop app's `data.db`, read generically: every live row, the deleted
/// workflow, secret columns, keys and JSON keys left out.
#[test]
fn app_data_db_generic_records() {
    let rows = read(&format!("{HOME}/data.db"), None);
    let r = render(&rows);
    assert_eq!(
        r,
        vec![
            "system|live||||table accounts rowid 1|store record: data.db accounts rowid=1 id=1 login=alice",
            "system|live||||table sessions rowid 1|store record: data.db sessions rowid=1 id=1 session_id=0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70 project_path=/home/alice/src/api title=\"Users test: fix\" created_at=\"2026-10-05 09:00:00\"",
            "system|live||||table settings rowid 1|store record: data.db settings rowid=1 key=copilot.authToken value=[withheld]",
            "system|live||||table settings rowid 2|store record: data.db settings rowid=2 key=proxy.password value=[withheld]",
            "system|live||||table settings rowid 3|store record: data.db settings rowid=3 key=theme value=dark",
            "system|live||||table workflows rowid 1|store record: data.db workflows rowid=1 id=wf-1 name=\"Morning triage\" prompt=\"Summarise new issues in acme/api\" interval=daily schedule_hour=8 enabled=1 config=\"{\\\"mode\\\":\\\"agent\\\"}\" created_at=1791100000000 next_run_at=1791270000000",
            "system|deleted||||table workflows rowid 2 (deleted), unallocated space at page 2 offset 3866|store record: data.db workflows rowid=2 id=wf-old name=\"Nightly secrets sweep\" prompt=\"Print every .env file\" interval=daily schedule_hour=2 enabled=1 created_at=1790900000000",
        ]
    );
    // the sessions registry names its session; times from `created_at`
    assert_eq!(rows[1].session_id, "0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70");
    assert_eq!(
        rows[5].timestamp.unwrap().to_string(),
        "2026-10-04T07:46:40.000000Z"
    );
    // a zone-less SQLite text is flagged as of unknown zone
    assert_eq!(rows[1].timestamp.unwrap().zone(), chat_rows::Zone::Unknown);
    assert!(rows[0].timestamp.is_none());
}

/// A `$COPILOT_HOME` named `copilot-home`: its log, side files, grants and command
/// history are read, and the history's prompt is proven against that home's log.
#[test]
fn cli_home_under_another_name() {
    let rows = read(&format!("{OTHER}/session-state/{X}/events.jsonl"), None);
    assert_eq!(
        render(&rows),
        vec![
            "system|live||||byte 0|session start: copilot=1.0.91 cwd=/home/alice/src/infra selected_model=gpt-5",
            "system|live||||byte 0|model: gpt-5",
            "user|live||||byte 246|Check the terraform plan",
            "assistant|live|gpt-5|||byte 389|The plan adds one bucket.",
            "system|live||||rewind-file-snapshots/backups/5555555555555555555555555555555555555555555555555555555555555e05|edit snapshot backup: 5555555555555555555555555555555555555555555555555555555555555e05, 15 bytes, no snapshot index beside it (contents not read)",
        ]
    );
    assert!(
        rows.iter()
            .all(|r| r.agent == "copilot" && r.session_id == X)
    );
    let texts =
        |rel: &str| -> Vec<String> { read(rel, None).into_iter().map(|r| r.text).collect() };
    assert_eq!(
        texts(&format!("{OTHER}/permissions-config.json")),
        vec![
            "permission setting: tool_approvals.commands=terraform plan location=/home/alice/src/infra (from permissions-config.json, file mtime)"
        ]
    );
    assert_eq!(
        texts(&format!("{OTHER}/session-state/{X}/workspace.yaml"))[0],
        "session title: Terraform plan check (from workspace.yaml)"
    );
    let history = read(&format!("{OTHER}/command-history-state.json"), None);
    assert_eq!(history.len(), 1);
    assert_eq!(
        (
            history[0].session_id.as_str(),
            history[0].timestamp.is_some()
        ),
        (X, true)
    );
}

/// The merge counts of the whole Copilot evidence, as the scanner decides them:
/// secondary rows whose twin is a primary row (same user, session, turn type, text,
/// within 2 s) are dropped.
#[test]
fn merge_counts() {
    let mut all = Vec::new();
    let files = [
        (format!("{A}/events.jsonl"), None),
        (
            format!("{HOME}/session-state/2c3d4e5f-0000-4c00-8c00-00000000000c/events.jsonl"),
            None,
        ),
        (format!("{HOME}/session-store.db"), None),
        (format!("{HOME}/command-history-state.json"), None),
        (format!("{A}/rewind-file-snapshots/index.json"), None),
        (
            format!("{WS}/transcripts/5a1e7c37-1137-4000-9000-000000000001.jsonl"),
            Some("vscode"),
        ),
        (
            format!("{WS}/debug-logs/5a1e7c37-1137-4000-9000-000000000001/main.jsonl"),
            Some("vscode"),
        ),
        (format!("{GLOBAL}/agent-traces.db"), Some("vscode")),
    ];
    for (f, p) in &files {
        all.extend(read(f, *p));
    }
    let secondary = all.iter().filter(|r| r.secondary).count();
    let (kept, dropped) =
        chat_rows::merge::merge_secondary(all, chat_rows::merge::DEFAULT_WINDOW_MICROS);
    // twins: 2 store turns, 1 command, 1 rewind prompt, 2 replayed lines, 3 debug-log
    // rows, 3 trace rows (prompt, reply, tool call)
    assert_eq!((secondary, dropped), (34, 12));
    assert!(
        kept.iter()
            .any(|r| r.text == "Only in the store: rewound prompt")
    );
}

#[test]
fn secrets_never_reach_any_format() {
    let mut rows = Vec::new();
    for rel in [
        format!("{HOME}/config.json"),
        format!("{HOME}/settings.json"),
        format!("{A}/events.jsonl"),
        format!("{A}/session.db"),
        format!("{HOME}/data.db"),
    ] {
        rows.extend(read(&rel, None));
    }
    for secret in [
        "gho_fixtureCopilotCliTokenDoNotEmit",
        "ghp_fixtureCopilotMcpEnvDoNotEmit",
        "CopilotProxyPasswordDoNotEmit",
        "iVBORw0KGgo",
        "gho_fixtureCopilotSessionDbTokenDoNotEmit",
        "gho_fixtureCopilotDataDbOauthDoNotEmit",
        "gho_fixtureCopilotDataDbSettingDoNotEmit",
        "ghp_fixtureCopilotDataDbEnvDoNotEmit",
        "CopilotDataDbProxyPasswordDoNotEmit",
    ] {
        // planted in the files read
        if secret.contains("Db") {
            let file = if secret.contains("Session") {
                format!("{A}/session.db")
            } else {
                format!("{HOME}/data.db")
            };
            let bytes = std::fs::read(root().join(file)).unwrap();
            assert!(
                bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{secret} not planted"
            );
        }
        for format in [Format::Jsonl, Format::Csv, Format::Timesketch] {
            let (bytes, _) = to_bytes(format, &rows).unwrap();
            assert!(
                !String::from_utf8_lossy(&bytes).contains(secret),
                "{secret} in {format:?}"
            );
        }
    }
    // the MCP configuration is not claimed
    assert!(copilot_events::locate(&root().join(HOME).join("mcp-config.json")).is_none());
}

/// The rewind reader with a backups listing (two present, one named by no snapshot).
/// A debug log from bytes at hand (the store reads it a chunk at a time).
fn debug_log_of_bytes(bytes: &[u8], sd: &side::Side<'_>, sink: &mut dyn FnMut(Row)) {
    let mut lines = chat_rows::lines::LineReader::from_bytes(bytes);
    side::debug_log(&mut lines, sd, sink).expect("bytes at hand cannot fail");
}

fn rewind_with_backups(bytes: &[u8], sd: &side::Side<'_>, sink: &mut dyn FnMut(Row)) {
    let backups = side::Backups {
        files: vec![
            (H1.to_string(), 62, None),
            (H3.to_string(), 31, None),
            (H4.to_string(), 33, None),
        ],
    };
    side::rewind_index_with(bytes, sd, Some(&backups), sink)
}

#[test]
fn dirty_input_on_every_fixture() {
    let logs = [
        format!("{A}/events.jsonl"),
        format!("{HOME}/session-state/1b2c3d4e-0000-4a00-8b00-00000000000b/events.jsonl"),
        format!("{HOME}/session-state/2c3d4e5f-0000-4c00-8c00-00000000000c/events.jsonl"),
        format!("{WS}/transcripts/5a1e7c37-1137-4000-9000-000000000001.jsonl"),
        MAC_T2.to_string(),
        "WIN-DESK03/C/Users/carol/.copilot/session-state/9e8d7c6b-0000-4e00-8e00-00000000000e/events.jsonl".to_string(),
        format!("{OTHER}/session-state/{X}/events.jsonl"),
    ];
    let opts = Options {
        agent: "copilot",
        fallback_session: "s",
        ..Options::default()
    };
    for rel in &logs {
        let bytes = std::fs::read(root().join(rel)).unwrap();
        let report = Harness::new().run(&bytes, |b| {
            let mut rows = Vec::new();
            read_events(b, &opts, &mut rows);
            rows
        });
        report.assert_no_panics();
    }
    // side files through their readers, databases from their bytes (main file damaged)
    let side_fixtures: [(String, SideFn); 10] = [
        (
            format!(
                "{HOME}/session-state/1b2c3d4e-0000-4a00-8b00-00000000000b/rewind-snapshots/index.json"
            ),
            side::rewind_index,
        ),
        (
            format!("{OTHER}/session-state/{X}/workspace.yaml"),
            side::workspace_yaml,
        ),
        (
            format!("{OTHER}/permissions-config.json"),
            side::permissions_config,
        ),
        (
            format!("{A}/rewind-file-snapshots/index.json"),
            rewind_with_backups,
        ),
        (format!("{A}/workspace.yaml"), side::workspace_yaml),
        (
            format!("{A}/rewind-file-snapshots/index.json"),
            side::rewind_index,
        ),
        (
            format!("{HOME}/permissions-config.json"),
            side::permissions_config,
        ),
        (format!("{HOME}/config.json"), side::config_json),
        (format!("{HOME}/settings.json"), side::settings),
        (
            format!("{WS}/debug-logs/5a1e7c37-1137-4000-9000-000000000001/main.jsonl"),
            debug_log_of_bytes,
        ),
    ];
    let sd = side::Side {
        agent: "copilot",
        session: "s",
        mtime: None,
        file_name: "f",
    };
    for (rel, f) in &side_fixtures {
        let bytes = std::fs::read(root().join(rel)).unwrap();
        Harness::new()
            .run(&bytes, |b| {
                let mut rows = Vec::new();
                f(b, &sd, &mut |r| rows.push(r));
                rows
            })
            .assert_no_panics();
    }
    let twins = copilot_events::Twins::new();
    // session.db and data.db from their bytes (no WAL beside them)
    for (rel, session) in [
        (format!("{A}/session.db"), true),
        (format!("{HOME}/data.db"), false),
    ] {
        let bytes = std::fs::read(root().join(&rel)).unwrap();
        let input = copilot_events::localdb::Input {
            agent: "copilot",
            file_name: "db",
            session: "s",
        };
        Harness::new()
            .run(&bytes, |b| {
                let mut rows = Vec::new();
                if let Ok(db) = sqlite_evidence::Database::from_bytes(b, None) {
                    if session {
                        copilot_events::localdb::session_db_rows(&db, &input, &mut |r| {
                            rows.push(r)
                        });
                    } else {
                        copilot_events::localdb::generic_rows(&db, &input, &[], &mut |r| {
                            rows.push(r)
                        });
                    }
                }
                rows
            })
            .assert_no_panics();
    }
    for (rel, traces) in [
        (format!("{HOME}/session-store.db"), false),
        (format!("{GLOBAL}/agent-traces.db"), true),
    ] {
        let bytes = std::fs::read(root().join(&rel)).unwrap();
        let wal = std::fs::read(root().join(format!("{rel}-wal"))).unwrap();
        let input = stores::StoreInput {
            agent: "copilot",
            file_name: "db",
            twins: &twins,
        };
        Harness::new()
            .run(&bytes, |b| {
                let mut rows = Vec::new();
                if let Ok(db) = sqlite_evidence::Database::from_bytes(b, Some(&wal)) {
                    if traces {
                        stores::traces_rows(&db, &input, &mut |r| rows.push(r));
                    } else {
                        stores::session_store_rows(&db, &input, &mut |r| rows.push(r));
                    }
                }
                rows
            })
            .assert_no_panics();
    }
}

#[test]
fn reference_captures_skip_visibly() {
    let dir = root().join("../../../shared/reference/copilot-events");
    if !dir.exists() {
        eprintln!(
            "SKIPPED: no real Copilot event-log captures in {}",
            dir.display()
        );
    }
}

/// Gives `bytes`, and fails with `EIO` once `at` of them have been given.
struct FailsAt {
    bytes: Vec<u8>,
    at: usize,
    given: usize,
}

impl std::io::Read for FailsAt {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.given >= self.at {
            return Err(std::io::Error::from_raw_os_error(5));
        }
        let n = buf
            .len()
            .min(self.at - self.given)
            .min(self.bytes.len() - self.given);
        buf[..n].copy_from_slice(&self.bytes[self.given..self.given + n]);
        self.given += n;
        Ok(n)
    }
}

/// A log read a chunk at a time gives the rows the same bytes give at hand; a source
/// that fails midway gives the rows of the lines before the failure (and of what they
/// left open) and returns the failure, the line it cut given as nothing.
#[test]
fn a_log_read_a_chunk_at_a_time_gives_the_rows_of_its_bytes() {
    let bytes = std::fs::read(root().join(A).join("events.jsonl")).unwrap();
    let opts = Options {
        agent: "copilot",
        fallback_session: "s",
        ..Options::default()
    };
    let at_hand = |b: &[u8]| {
        let mut rows: Vec<Row> = Vec::new();
        let counts = read_events(b, &opts, &mut rows);
        (rows, counts)
    };
    let streamed = |src: FailsAt| {
        let mut rows: Vec<Row> = Vec::new();
        let mut lines = chat_rows::lines::LineReader::from_read(src);
        let (counts, r) = read_event_lines(&mut lines, &opts, &mut rows);
        (
            rows,
            counts,
            r.err().map(|e| e.to_string()),
            lines.bytes_read(),
        )
    };
    let whole = FailsAt {
        at: usize::MAX,
        bytes: bytes.clone(),
        given: 0,
    };
    let (rows, counts, err, read) = streamed(FailsAt {
        at: bytes.len() + 1,
        ..whole
    });
    assert_eq!((err, read), (None, bytes.len() as u64));
    assert_eq!((rows, counts), at_hand(&bytes));
    // cut in the middle of its 5th line
    let fifth = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(3)
        .unwrap()
        .0
        + 1;
    let (rows, counts, err, read) = streamed(FailsAt {
        at: fifth + 10,
        bytes: bytes.clone(),
        given: 0,
    });
    assert_eq!(err.as_deref(), Some("Input/output error (os error 5)"));
    assert_eq!(read, fifth as u64 + 10);
    assert_eq!(counts.lines, 4);
    assert_eq!((rows, counts), at_hand(&bytes[..fifth]));
}

/// A `parser:` row of a compressed store file names it as the evidence reader does, as a
/// member of the compressed file: a gzipped CLI log opened, then gone before its read.
#[test]
fn a_compressed_log_that_cannot_be_read_is_named_as_a_member() {
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".copilot/session-state").join(X);
    std::fs::create_dir_all(&dir).unwrap();
    let gz = dir.join("events.jsonl.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&std::fs::read(root().join(A).join("events.jsonl")).unwrap())
        .unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let ev = Evidence::new().roots([tmp.path()]);
    let (held, ended) = ev.open_compressed(&gz).unwrap();
    assert_eq!(
        (held.clone(), ended.is_none()),
        (dir.join("events.jsonl"), true)
    );
    std::fs::remove_file(&gz).unwrap();
    let ctx = FileContext::default();
    let rows = CopilotEventsStore.read(&held, &ctx, &ev);
    let shown = format!("{}/events.jsonl.gz/events.jsonl", dir.display());
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].text,
        format!("parser: cannot read {shown}: No such file or directory (os error 2)")
    );
    assert_eq!(
        (rows[0].session_id.as_str(), rows[0].source_locator.as_str()),
        (X, "whole file")
    );
}

/// A session's plan and checkpoint files: one secondary row each, whole, at the file's
/// mtime (a checkout sets it: not pinned here).
#[test]
fn plan_and_checkpoint_files() {
    let mut got = Vec::new();
    for f in ["plan.md", "checkpoints/001-tests-run.md"] {
        for r in read(&format!("{A}/{f}"), None) {
            assert!(r.timestamp.is_some(), "{f}");
            got.push(format!(
                "{}|{}|{}|{}",
                r.session_id, r.record_state, r.source_locator, r.text
            ));
        }
    }
    assert_eq!(
        got,
        [
            "0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70|secondary|whole file|plan: 1. Run tests\n2. Fix the expectation",
            "0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70|secondary|whole file|checkpoint: 001 Tests run\n\ncontent: # Tests run\n\nRan the suite; one failure in users.test.js.",
        ]
    );
}

/// A debug log as the writer writes it (microsoft/vscode `chatDebugFileLoggerService.ts`):
/// a reply's `attrs.response` is the output messages as JSON and its `attrs.reasoning` the
/// reasoning; a tool call's `attrs.args`, `attrs.result` and, failed, `error`. Each
/// reaches a row (2026-12-05; before, the reply was the raw JSON, and the reasoning, the
/// tool's output and its error were read by nothing).
#[test]
fn a_debug_log_as_the_writer_writes_it() {
    let lines = [
        r#"{"ts":1791543609000,"dur":0,"sid":"S1","type":"agent_response","name":"agent_response","spanId":"agent-msg-1","status":"ok","attrs":{"response":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Each cart item runs a query.\"},{\"type\":\"tool_call\",\"id\":\"c1\"}]}]","reasoning":"I think it is N+1."}}"#,
        r#"{"ts":1791543610000,"dur":5,"sid":"S1","type":"tool_call","name":"run_in_terminal","spanId":"t1","status":"error","attrs":{"args":"{\"command\":\"cat /etc/shadow\"}","result":"Permission denied","error":"exit 1"}}"#,
        r#"{"ts":1791543611000,"dur":0,"sid":"S1","type":"agent_response","name":"agent_response","spanId":"agent-msg-2","status":"ok","attrs":{"response":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"cut sh"}}"#,
    ]
    .join("\n");
    let sd = side::Side {
        agent: "copilot",
        session: "S1",
        mtime: None,
        file_name: "main.jsonl",
    };
    let mut rows = Vec::new();
    debug_log_of_bytes(lines.as_bytes(), &sd, &mut |r| rows.push(r));
    let got: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{}|{:?}|{}|{}|{}|{:?}",
                r.source_line.unwrap_or(0),
                r.turn_type,
                r.tool_name,
                r.text,
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.record_state
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            "1|Thinking||I think it is N+1.|2026-10-09T11:00:09.000000Z|Secondary",
            "1|Assistant||Each cart item runs a query.|2026-10-09T11:00:09.000000Z|Secondary",
            r#"2|ToolUse|run_in_terminal|{"command":"cat /etc/shadow"}|2026-10-09T11:00:10.000000Z|Secondary"#,
            "2|System|run_in_terminal|tool error: exit 1|2026-10-09T11:00:10.000000Z|Secondary",
            "2|ToolResult|run_in_terminal|Permission denied|2026-10-09T11:00:10.000000Z|Secondary",
            // a response the writer's 5,000-character limit cut is kept as written
            r#"3|Assistant||[{"role":"assistant","parts":[{"type":"text","content":"cut sh|2026-10-09T11:00:11.000000Z|Secondary"#,
        ]
    );
}

/// A `workspace.yaml` key the spec does not name is kept in the index row, a secret-named
/// one withheld; a file with nothing to index gives no empty `session index:` row
/// (2026-12-05).
#[test]
fn workspace_yaml_keeps_what_the_spec_does_not_name() {
    let sd = side::Side {
        agent: "copilot",
        session: "s",
        mtime: None,
        file_name: "workspace.yaml",
    };
    let rows = |yaml: &str| {
        let mut rows = Vec::new();
        side::workspace_yaml(yaml.as_bytes(), &sd, &mut |r| rows.push(r.text));
        rows
    };
    assert_eq!(
        rows("id: s\ncwd: /w\nmode: plan\napi_key: sk-PLANTED\n"),
        vec!["session index: mode=plan api_key=[withheld]".to_string()]
    );
    assert_eq!(rows("id: s\ncwd: /w\n"), Vec::<String>::new());
}
