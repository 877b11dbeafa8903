//! Writes the Copilot event-log fixtures under `fixtures/evidence` (run from the
//! workspace root): `cargo run -p copilot-events --example copilot_events_fixtures`.
//!
//! * `lin-ws01/home/alice/.copilot/`: a CLI home with three sessions (tools with exit
//!   codes, approved and denied permission pairs, a model change, a compaction, a
//!   sub-agent, a torn last line; a session that names no model; a resumed session
//!   that replays its turns), `workspace.yaml`, a rewind index, a checkpoint, a plan,
//!   a `session-store.db` whose rows are only in its `-wal` and with a deleted session
//!   in freed pages, standing grants, trusted folders, command history, settings, and
//!   planted secrets (`config.json` token, `mcp-config.json` env, a proxy password).
//! * `lin-ws01/home/alice/.config/Code/User/`: a VS Code 1.137-style workspace with a
//!   transcript, a debug log, a tool result written to `chat-session-resources/` and no
//!   `chatSessions/`, and an `agent-traces.db` with a purged span.
//! * `mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b0b7c0de/`:
//!   a workspace holding both a transcript and the `chatSessions` log of the same session.
//! * `WIN-DESK03/C/Users/carol/.copilot/`: a short CLI session with a Windows cwd.
//! * Rewind: session A's `rewind-file-snapshots/` (`"schema": 1`, two snapshots, files
//!   as objects and as a map; `backups/` with two named backups present, one missing
//!   and one named by no snapshot), session B's older `rewind-snapshots/`
//!   (`"version": 1`, files as strings and a map, no `backups/`).
//! * Session A's `session.db` (todos, one deleted in freed pages, a dependency, an
//!   inbox message, a key-value table with a planted token) and `inuse.4242.lock`;
//!   `.copilot/data.db` (the desktop app: workflows, one deleted, a sessions registry,
//!   planted secrets in an `oauth_token` column, a settings key and a JSON `env`).
//! * `lin-ws01/home/alice/copilot-home/`: a `$COPILOT_HOME` under another name (a
//!   session, standing grants, command history, and a backup with no index).
use std::fs;
use std::path::Path;

use rusqlite::Connection;
use serde_json::{Value, json};

type R<T> = Result<T, Box<dyn std::error::Error>>;

fn write(path: &Path, bytes: &[u8]) -> R<()> {
    fs::create_dir_all(path.parent().ok_or("no parent")?)?;
    fs::write(path, bytes)?;
    Ok(())
}

/// An event log built line by line, in the writer's key order.
struct Log {
    out: String,
    n: u32,
    prefix: &'static str,
    parent: Option<String>,
}

impl Log {
    fn new(prefix: &'static str) -> Log {
        Log {
            out: String::new(),
            n: 0,
            prefix,
            parent: None,
        }
    }

    fn ev(&mut self, kind: &str, time: &str, data: Value) -> &mut Log {
        self.ev_agent(kind, time, data, None)
    }

    fn ev_agent(&mut self, kind: &str, time: &str, data: Value, agent: Option<&str>) -> &mut Log {
        self.n += 1;
        let id = format!("{}-{:04}", self.prefix, self.n);
        let parent = match &self.parent {
            Some(p) => format!("\"{p}\""),
            None => "null".into(),
        };
        let agent = agent
            .map(|a| format!(",\"agentId\":\"{a}\""))
            .unwrap_or_default();
        self.out.push_str(&format!(
            "{{\"type\":\"{kind}\",\"data\":{data},\"id\":\"{id}\",\"timestamp\":\"{time}\",\"parentId\":{parent}{agent}}}\n"
        ));
        self.parent = Some(id);
        self
    }

    fn raw(&mut self, line: &str) -> &mut Log {
        self.out.push_str(line);
        self
    }
}

const A: &str = "0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70";
const B: &str = "1b2c3d4e-0000-4a00-8b00-00000000000b";
const C: &str = "2c3d4e5f-0000-4c00-8c00-00000000000c";
const D: &str = "3d4e5f60-0000-4d00-8d00-00000000000d";
const W: &str = "9e8d7c6b-0000-4e00-8e00-00000000000e";
const T1: &str = "5a1e7c37-1137-4000-9000-000000000001";
const T2: &str = "b0b0b0b0-2222-4000-9000-000000000002";

fn session_a() -> String {
    let mut l = Log::new("a");
    l.ev("session.start", "2026-10-05T09:00:00.000Z", json!({
        "sessionId": A, "version": 1, "producer": "copilot-agent", "copilotVersion": "1.0.91",
        "startTime": "2026-10-05T09:00:00.000Z", "selectedModel": "claude-sonnet-4.5",
        "context": {"cwd": "/home/alice/src/api", "gitRoot": "/home/alice/src/api", "branch": "main", "repository": "acme/api"}
    }))
    .ev("session.info", "2026-10-05T09:00:00.100Z", json!({"infoType": "folder_trust", "message": "Folder /home/alice/src/api trusted for this session"}))
    .ev("user.message", "2026-10-05T09:00:05.000Z", json!({
        "content": "Run the tests and fix the failing one", "transformedContent": "<context>expanded</context> Run the tests and fix the failing one",
        "attachments": [{"type": "file", "path": "/home/alice/src/api/test/users.test.js", "displayName": "users.test.js"}],
        "agentMode": "interactive"
    }))
    .ev("assistant.turn_start", "2026-10-05T09:00:05.100Z", json!({"turnId": "0", "model": "claude-sonnet-4.5"}))
    .ev("assistant.reasoning", "2026-10-05T09:00:06.000Z", json!({"reasoningId": "r1", "content": "I should run npm test first."}))
    .ev("assistant.message", "2026-10-05T09:00:07.000Z", json!({
        "messageId": "m1", "content": "I'll run the test suite.", "reasoningText": "I should run npm test first.",
        "model": "claude-sonnet-4.5",
        "toolRequests": [{"toolCallId": "toolu_vrtx_01A", "name": "bash", "arguments": {"command": "npm test", "description": "run tests"}}]
    }))
    .ev("permission.requested", "2026-10-05T09:00:07.100Z", json!({
        "requestId": "perm-1", "permissionRequest": {"kind": "shell", "toolCallId": "toolu_vrtx_01A", "intention": "Run the test suite", "fullCommandText": "npm test"}
    }))
    .ev("permission.completed", "2026-10-05T09:00:09.000Z", json!({"requestId": "perm-1", "toolCallId": "toolu_vrtx_01A", "result": {"kind": "approved"}}))
    .ev("tool.execution_start", "2026-10-05T09:00:09.100Z", json!({
        "toolCallId": "toolu_vrtx_01A", "toolName": "bash", "arguments": {"command": "npm test", "description": "run tests"},
        "shellToolInfo": {"displayCommand": "npm test"}
    }))
    .ev("tool.execution_complete", "2026-10-05T09:00:15.000Z", json!({
        "toolCallId": "toolu_vrtx_01A", "success": true,
        "result": {"content": "1 failing: users › rejects duplicate email", "detailedContent": "FAIL test/users.test.js\n1 failing: users › rejects duplicate email",
                   "contents": [{"type": "terminal", "text": "…", "exitCode": 1}]}
    }))
    .ev("assistant.message", "2026-10-05T09:00:20.000Z", json!({
        "messageId": "m2", "content": "", "model": "claude-sonnet-4.5",
        "toolRequests": [{"toolCallId": "toolu_vrtx_02B", "name": "edit", "arguments": {"path": "src/users.js"}},
                         {"toolCallId": "toolu_vrtx_03C", "name": "view", "arguments": {"path": "README.md"}}]
    }))
    .ev("permission.requested", "2026-10-05T09:00:20.100Z", json!({
        "requestId": "perm-2", "permissionRequest": {"kind": "write", "toolCallId": "toolu_vrtx_02B", "intention": "Edit src/users.js", "fileName": "src/users.js"}
    }))
    .ev("permission.completed", "2026-10-05T09:00:31.000Z", json!({
        "requestId": "perm-2", "toolCallId": "toolu_vrtx_02B",
        "result": {"kind": "denied-interactively-by-user", "feedback": "Do not touch users.js, fix the test instead"}
    }))
    .ev("tool.execution_start", "2026-10-05T09:00:31.100Z", json!({"toolCallId": "toolu_vrtx_02B", "toolName": "edit", "arguments": {"path": "src/users.js"}}))
    .ev("tool.execution_start", "2026-10-05T09:00:31.100Z", json!({"toolCallId": "toolu_vrtx_02B", "toolName": "edit", "arguments": {"path": "src/users.js"}}))
    .ev("tool.execution_complete", "2026-10-05T09:00:31.200Z", json!({
        "toolCallId": "toolu_vrtx_02B", "success": false, "error": {"message": "Permission denied by user", "code": "denied"}
    }))
    .ev("assistant.turn_end", "2026-10-05T09:00:31.300Z", json!({"turnId": "0"}))
    .ev("session.model_change", "2026-10-05T09:01:00.000Z", json!({"previousModel": "claude-sonnet-4.5", "newModel": "gpt-5", "reasoningEffort": "high", "source": "user"}))
    .ev("session.mode_changed", "2026-10-05T09:01:01.000Z", json!({"previousMode": "interactive", "newMode": "autopilot"}))
    .ev("session.permissions_changed", "2026-10-05T09:01:02.000Z", json!({"previousMode": "manual", "mode": "allow-all"}))
    .ev("user.message", "2026-10-05T09:01:03.000Z", json!({"content": "Continue until the task is done.", "agentMode": "autopilot", "isAutopilotContinuation": true}))
    .ev("assistant.turn_start", "2026-10-05T09:01:03.100Z", json!({"turnId": "1", "model": "gpt-5"}))
    .ev("assistant.message", "2026-10-05T09:01:10.000Z", json!({
        "messageId": "m3", "content": "Fixed the test's expected error message.", "encryptedContent": "gAAAAABencryptedreasoningblob==",
        "toolRequests": [{"toolCallId": "call_Q1", "name": "bash", "arguments": "{\"command\":\"npm test\"}"}]
    }))
    .ev("tool.execution_start", "2026-10-05T09:01:10.100Z", json!({"toolCallId": "call_Q1", "toolName": "bash", "arguments": {"command": "npm test"}}))
    .ev_agent("subagent.started", "2026-10-05T09:01:11.000Z", json!({"toolCallId": "call_Q2", "agentName": "explore", "agentDisplayName": "Explore", "model": "gpt-5-mini"}), None)
    .ev_agent("user.message", "2026-10-05T09:01:11.100Z", json!({"content": "Find where duplicate emails are checked"}), Some("explore-1"))
    .ev_agent("assistant.message", "2026-10-05T09:01:14.000Z", json!({"content": "In src/users.js:42.", "model": "gpt-5-mini"}), Some("explore-1"))
    .ev("subagent.completed", "2026-10-05T09:01:15.000Z", json!({"toolCallId": "call_Q2", "agentName": "explore", "durationMs": 4000, "totalTokens": 5120}))
    .ev("hook.end", "2026-10-05T09:01:16.000Z", json!({"hookInvocationId": "h1", "hookType": "postToolUse", "success": false, "error": {"message": "lint failed"}}))
    .ev("skill.invoked", "2026-10-05T09:01:17.000Z", json!({"name": "test-runner", "path": "/home/alice/.copilot/skills/test-runner/SKILL.md", "source": "user"}))
    .ev("session.compaction_start", "2026-10-05T09:02:00.000Z", json!({}))
    .ev("session.compaction_complete", "2026-10-05T09:02:05.000Z", json!({"success": true, "checkpointNumber": 1, "trigger": "auto", "summaryContent": "Ran tests; one failure in users.test.js; fixed the expected message."}))
    .ev("session.truncation", "2026-10-05T09:02:06.000Z", json!({"messagesRemovedDuringTruncation": 12, "tokensRemovedDuringTruncation": 30500}))
    .ev("session.context_changed", "2026-10-05T09:02:07.000Z", json!({"cwd": "/home/alice/src/api/packages/core", "branch": "fix/users"}))
    .ev("session.warning", "2026-10-05T09:02:08.000Z", json!({"warningType": "rate_limit", "message": "Approaching the rate limit"}))
    .ev("session.error", "2026-10-05T09:02:09.000Z", json!({"errorType": "model_call", "statusCode": 500, "message": "Upstream error"}))
    .ev("abort", "2026-10-05T09:02:10.000Z", json!({"reason": "user_initiated"}))
    .ev("system.message", "2026-10-05T09:02:11.000Z", json!({"role": "system", "content": "Custom instructions loaded from AGENTS.md"}))
    .ev("session.task_complete", "2026-10-05T09:02:12.000Z", json!({"summary": "done"}))
    .ev("session.future_thing", "2026-10-05T09:02:13.000Z", json!({"x": 1}))
    .ev("session.binary_asset", "2026-10-05T09:02:14.000Z", json!({"mimeType": "image/png", "data": "iVBORw0KGgoAAAANSUhEUg=="}))
    .ev("session.shutdown", "2026-10-05T09:03:00.000Z", json!({
        "shutdownType": "routine", "currentModel": "gpt-5",
        "totalPremiumRequests": 4, "totalNanoAiu": 1200000, "totalApiDurationMs": 15400,
        "sessionStartTime": 1791190800000_i64,
        "codeChanges": {"linesAdded": 3, "linesRemoved": 1, "filesModified": ["test/users.test.js"]},
        "modelMetrics": {
            "claude-sonnet-4.5": {"requests": {"count": 3, "cost": 3}, "usage": {"inputTokens": 42000, "outputTokens": 1800, "cacheReadTokens": 30000, "cacheWriteTokens": 0, "reasoningTokens": 400}, "totalNanoAiu": 1200000},
            "gpt-5": {"requests": {"count": 1}, "usage": {"inputTokens": 9000, "outputTokens": 700, "cacheReadTokens": 0}}
        }
    }))
    .raw("{\"type\":\"user.message\",\"data\":{\"content\":\"one more th");
    l.out.clone()
}

fn session_b() -> String {
    // no model named anywhere: the tool-call id prefixes infer the families
    let mut l = Log::new("b");
    l.ev("session.start", "2026-10-06T14:00:00.000Z", json!({"sessionId": B, "copilotVersion": "1.0.40", "startTime": "2026-10-06T14:00:00.000Z", "context": {"cwd": "/home/alice/src/web"}}))
        .ev("user.message", "2026-10-06T14:00:10.000Z", json!({"content": "List the routes"}))
        .ev("assistant.message", "2026-10-06T14:00:12.000Z", json!({"content": "Listing.", "toolRequests": [{"toolCallId": "toolu_bdrk_01X", "name": "grep", "arguments": {"pattern": "router."}}]}))
        .ev("tool.execution_start", "2026-10-06T14:00:12.100Z", json!({"toolCallId": "toolu_bdrk_01X", "toolName": "grep", "arguments": {"pattern": "router."}}))
        .ev("tool.execution_complete", "2026-10-06T14:00:12.500Z", json!({"toolCallId": "toolu_bdrk_01X", "success": true, "result": {"content": "src/app.js:3 router.get('/')"}, "shellExecution": {"exitCode": 0}}))
        .ev("tool.execution_complete", "2026-10-06T14:00:13.000Z", json!({"toolCallId": "toolu_orphan", "success": true, "result": {"content": "orphan result"}}))
        .ev("tool.execution_start", "2026-10-06T14:00:14.000Z", json!({"toolCallId": "toolu_bdrk_02Y", "mcpServerName": "github", "mcpToolName": "list_issues", "toolName": "github-list_issues", "arguments": {"repo": "acme/web"}}));
    l.out.clone()
}

fn session_c() -> String {
    // resumed: the old turns come back after the start with their original times
    let mut l = Log::new("c");
    l.ev("session.start", "2026-10-07T08:00:00.000Z", json!({"sessionId": C, "copilotVersion": "1.0.91", "selectedModel": "auto", "context": {"cwd": "/home/alice/src/api"}}))
        .ev("user.message", "2026-10-07T08:00:05.000Z", json!({"content": "What does the cache layer do?"}))
        .ev("assistant.message", "2026-10-07T08:00:09.000Z", json!({"content": "It memoises user lookups.", "model": "gpt-5"}))
        .ev("session.resume", "2026-10-07T10:00:00.000Z", json!({"eventCount": 3, "resumeTime": "2026-10-07T10:00:00.000Z"}))
        .ev("user.message", "2026-10-07T08:00:05.000Z", json!({"content": "What does the cache layer do?"}))
        .ev("assistant.message", "2026-10-07T08:00:09.000Z", json!({"content": "It memoises user lookups.", "model": "gpt-5"}))
        .ev("user.message", "2026-10-07T10:00:30.000Z", json!({"content": "And how is it invalidated?"}))
        .ev("assistant.message", "2026-10-07T10:00:35.000Z", json!({"content": "On every write to users.", "model": "gpt-5"}));
    l.out.clone()
}

fn session_w() -> String {
    let mut l = Log::new("w");
    l.ev("session.start", "2026-10-08T07:30:00.000Z", json!({"sessionId": W, "copilotVersion": "1.0.91", "selectedModel": "gpt-5", "context": {"cwd": "C:\\Users\\carol\\src\\app", "branch": "dev"}}))
        .ev("user.message", "2026-10-08T07:30:04.000Z", json!({"content": "Explain Program.cs"}))
        .ev("assistant.message", "2026-10-08T07:30:08.000Z", json!({"content": "It wires up the host.", "model": "gpt-5"}));
    l.out.clone()
}

/// A transcript as VS Code Copilot Chat writes it (arguments as JSON strings).
fn transcript_t1() -> String {
    let mut l = Log::new("t1");
    l.ev("session.start", "2026-10-09T11:00:00.000Z", json!({"sessionId": T1, "version": 1, "producer": "copilot-agent", "copilotVersion": "0.51.0", "vscodeVersion": "1.137.0", "startTime": "2026-10-09T11:00:00.000Z", "context": {"cwd": "/home/alice/src/shop"}}))
        .ev("user.message", "2026-10-09T11:00:02.000Z", json!({"content": "Why is checkout slow?", "attachments": []}))
        .ev("assistant.turn_start", "2026-10-09T11:00:02.100Z", json!({"turnId": "0.0"}))
        .ev("assistant.message", "2026-10-09T11:00:04.000Z", json!({"messageId": "x1", "content": "Let me look at the query.", "toolRequests": [{"toolCallId": "toolu_01K", "name": "read_file", "arguments": "{\"filePath\":\"/home/alice/src/shop/checkout.py\"}"}]}))
        .ev("tool.execution_start", "2026-10-09T11:00:04.100Z", json!({"toolCallId": "toolu_01K", "toolName": "read_file", "arguments": "{\"filePath\":\"/home/alice/src/shop/checkout.py\"}"}))
        .ev("tool.execution_complete", "2026-10-09T11:00:04.300Z", json!({"toolCallId": "toolu_01K", "success": true, "result": {"content": "def checkout(): ... for item in cart: db.query(item)"}}))
        .ev("assistant.usage", "2026-10-09T11:00:04.400Z", json!({"model": "claude-sonnet-4.5", "inputTokens": 12000, "outputTokens": 300, "totalTokens": 12300, "cacheReadTokens": 8000, "cacheCreationInputTokens": 1000, "copilotUsageNanoAiu": 250000}))
        .ev("assistant.message", "2026-10-09T11:00:09.000Z", json!({"messageId": "x2", "content": "Each cart item runs its own query (N+1). Batch them with one IN query."}))
        .ev("assistant.turn_end", "2026-10-09T11:00:09.100Z", json!({"turnId": "0.0"}));
    l.out.clone()
}

fn transcript_t2() -> String {
    let mut l = Log::new("t2");
    l.ev("session.start", "2026-10-10T16:00:00.000Z", json!({"sessionId": T2, "version": 1, "producer": "copilot-agent", "copilotVersion": "0.51.0", "vscodeVersion": "1.137.0", "startTime": "2026-10-10T16:00:00.000Z", "context": {"cwd": "/Users/bob/src/notes"}}))
        .ev("user.message", "2026-10-10T16:00:01.000Z", json!({"content": "Add a health endpoint"}))
        .ev("assistant.turn_start", "2026-10-10T16:00:01.100Z", json!({"turnId": "0.0"}))
        .ev("assistant.message", "2026-10-10T16:00:03.000Z", json!({"messageId": "y1", "content": "Added GET /health returning 200."}))
        .ev("assistant.message", "2026-10-10T16:00:03.500Z", json!({"messageId": "y2", "content": "Only in the transcript: remember to add a test."}))
        .ev("assistant.turn_end", "2026-10-10T16:00:04.000Z", json!({"turnId": "0.0"}));
    l.out.clone()
}

/// The same session's `chatSessions` log (VS Code's mutation log, kind 0).
fn chat_log_t2() -> String {
    let v = json!({"kind": 0, "v": {
        "version": 3, "creationDate": 1791648000000i64, "sessionId": T2, "responderUsername": "GitHub Copilot", "initialLocation": "panel",
        "requests": [{
            "requestId": "request_1", "timestamp": 1791648001000i64,
            "message": {"text": "Add a health endpoint", "parts": []},
            "agent": {"id": "github.copilot.editsAgent", "name": "agent", "extensionId": {"value": "GitHub.copilot-chat"}},
            "modelId": "copilot/gpt-5",
            "variableData": {"variables": []},
            "response": [{"value": "Added GET /health returning 200."}],
            "responseId": "response_1", "responseTimestamp": 1791648003000i64,
            "modelState": {"value": 1, "completedAt": 1791648003000i64}
        }]
    }});
    format!("{v}\n")
}

fn debug_log_t1() -> String {
    [
        json!({"v": 1, "ts": 1791543602000i64, "sid": T1, "type": "user_message", "name": "user", "spanId": "s1", "status": "ok", "attrs": {"content": "Why is checkout slow?"}}),
        json!({"v": 1, "ts": 1791543609000i64, "sid": T1, "type": "agent_response", "name": "agent", "spanId": "s2", "status": "ok", "attrs": {"content": "Each cart item runs its own query (N+1). Batch..."}}),
        json!({"v": 1, "ts": 1791543604100i64, "sid": T1, "type": "tool_call", "name": "read_file", "spanId": "s3", "status": "ok", "attrs": {"toolCallId": "toolu_01K__vscode-7", "arguments": "{\"filePath\":\"/home/alice/src/shop/checkout.py\"}"}}),
        json!({"v": 1, "ts": 1791543610000i64, "sid": T1, "type": "child_session_ref", "name": "child", "spanId": "s4", "status": "ok", "attrs": {"childSessionId": "child-77"}}),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect()
}

fn copy_db_set(work: &Path, dest: &Path, salts: (u32, u32)) -> R<()> {
    fs::create_dir_all(dest.parent().ok_or("no parent")?)?;
    for suffix in ["", "-wal"] {
        let to = format!("{}{suffix}", dest.display());
        let _ = fs::remove_file(&to);
        fs::copy(format!("{}{suffix}", work.display()), &to)?;
    }
    let wal = format!("{}-wal", dest.display());
    let mut bytes = fs::read(&wal)?;
    if !bytes.is_empty() {
        sqlite_evidence::decode::reseal_wal(&mut bytes, salts);
        fs::write(&wal, bytes)?;
    }
    Ok(())
}

fn open_fresh(path: &Path) -> R<Connection> {
    fs::create_dir_all(path.parent().ok_or("no parent")?)?;
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let conn = Connection::open(path)?;
    conn.execute_batch(
        "PRAGMA secure_delete = OFF; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;",
    )?;
    Ok(conn)
}

const STORE_SCHEMA: &str = "
CREATE TABLE schema_version (version INTEGER);
CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, summary TEXT, agent_name TEXT, agent_description TEXT, created_at TEXT, updated_at TEXT);
CREATE TABLE turns (id INTEGER PRIMARY KEY, session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT);
CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, session_id TEXT, checkpoint_number INTEGER, title TEXT, overview TEXT, history TEXT, work_done TEXT, technical_details TEXT, important_files TEXT, next_steps TEXT, created_at TEXT);
CREATE TABLE session_files (id INTEGER PRIMARY KEY, session_id TEXT, file_path TEXT, tool_name TEXT, turn_index INTEGER, first_seen_at TEXT);
CREATE TABLE session_refs (id INTEGER PRIMARY KEY, session_id TEXT, ref_type TEXT, ref_value TEXT, turn_index INTEGER, created_at TEXT);
CREATE TABLE assistant_usage_events (id TEXT PRIMARY KEY, created_at TEXT, session_id TEXT, turn_index INTEGER, model TEXT, copilot_usage_model TEXT, input_tokens INTEGER, output_tokens INTEGER, cache_read_tokens INTEGER, cache_write_tokens INTEGER, reasoning_tokens INTEGER, total_nano_aiu INTEGER, duration_ms INTEGER, time_to_first_token_ms INTEGER, finish_reason TEXT, agent_id TEXT, parent_tool_call_id TEXT, token_details_json TEXT);
INSERT INTO schema_version VALUES (8);
";

fn build_session_store(home: &Path) -> R<()> {
    let tmp = std::env::temp_dir().join(format!("copilot-events-fixture-{}", std::process::id()));
    fs::create_dir_all(&tmp)?;
    let work = tmp.join("session-store.db");
    let conn = open_fresh(&work)?;
    conn.execute_batch(STORE_SCHEMA)?;
    // session D: deleted from the sessions view; its records stay in freed pages
    let long = "x".repeat(600);
    conn.execute(
        "INSERT INTO sessions VALUES (?1,'/home/alice/src/old','acme/old','cli','main','Rotate the signing keys','copilot',NULL,'2026-09-20T10:00:00.000Z','2026-09-20T10:30:00.000Z')",
        [D],
    )?;
    for i in 0..4 {
        conn.execute(
            "INSERT INTO turns(session_id,turn_index,user_message,assistant_response,timestamp) VALUES (?1,?2,?3,?4,?5)",
            rusqlite::params![D, i, format!("Rotate key {i} {long}"), format!("Rotated key {i}."), format!("2026-09-20T10:0{i}:00.000Z")],
        )?;
    }
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
    conn.execute("DELETE FROM turns WHERE session_id = ?1", [D])?;
    conn.execute("DELETE FROM sessions WHERE id = ?1", [D])?;
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
    // the live rows: only in the WAL
    conn.execute(
        "INSERT INTO sessions VALUES (?1,'/home/alice/src/api','acme/api','cli','main','Fix the failing users test','copilot',NULL,'2026-10-05T09:00:00.000Z','2026-10-05T09:03:00.000Z')",
        [A],
    )?;
    conn.execute(
        "INSERT INTO turns(session_id,turn_index,user_message,assistant_response,timestamp) VALUES (?1,0,'Run the tests and fix...','I''ll run the test suite.','2026-10-05T09:00:05.000Z')",
        [A],
    )?;
    conn.execute(
        "INSERT INTO turns(session_id,turn_index,user_message,assistant_response,timestamp) VALUES (?1,1,'Only in the store: rewound prompt','Only in the store: rewound answer','2026-10-05T09:05:00.000Z')",
        [A],
    )?;
    conn.execute(
        "INSERT INTO checkpoints(session_id,checkpoint_number,title,overview,next_steps,created_at) VALUES (?1,1,'Tests run','Ran the suite, one failure','Fix the expectation','2026-10-05T09:02:05.000Z')",
        [A],
    )?;
    conn.execute(
        "INSERT INTO session_files(session_id,file_path,tool_name,turn_index,first_seen_at) VALUES (?1,'test/users.test.js','edit',0,'2026-10-05T09:01:10.000Z')",
        [A],
    )?;
    conn.execute(
        "INSERT INTO session_refs(session_id,ref_type,ref_value,turn_index,created_at) VALUES (?1,'pr','acme/api#42',0,'2026-10-05T09:02:30.000Z')",
        [A],
    )?;
    conn.execute(
        "INSERT INTO assistant_usage_events VALUES ('u1','2026-10-05T09:00:07.000Z',?1,0,'claude-sonnet-4.5','claude-sonnet-4.5',14000,600,10000,0,120,400000,2100,800,'tool_calls',NULL,NULL,'{}')",
        [A],
    )?;
    conn.execute(
        "INSERT INTO assistant_usage_events VALUES ('u2','2026-10-05T09:01:10.000Z',?1,1,'auto','gpt-5',9000,700,0,0,NULL,NULL,1500,NULL,'stop',NULL,NULL,'{}')",
        [A],
    )?;
    copy_db_set(
        &work,
        &home.join("session-store.db"),
        (0xc0b1_0001, 0x5e55_0001),
    )?;
    drop(conn);
    let _ = fs::remove_dir_all(&tmp);
    Ok(())
}

#[allow(clippy::useless_format)]
fn build_traces(global: &Path) -> R<()> {
    let tmp = std::env::temp_dir().join(format!("copilot-traces-fixture-{}", std::process::id()));
    fs::create_dir_all(&tmp)?;
    let work = tmp.join("agent-traces.db");
    let conn = open_fresh(&work)?;
    conn.execute_batch(
        "CREATE TABLE spans (span_id TEXT PRIMARY KEY, trace_id TEXT, parent_span_id TEXT, name TEXT, start_time_ms INTEGER, end_time_ms INTEGER, status_code INTEGER, status_message TEXT, operation_name TEXT, agent_name TEXT, conversation_id TEXT, chat_session_id TEXT, request_model TEXT, response_model TEXT, input_tokens INTEGER, output_tokens INTEGER, cached_tokens INTEGER, reasoning_tokens INTEGER, tool_name TEXT, tool_call_id TEXT, turn_index INTEGER, ttft_ms INTEGER);
         CREATE TABLE span_attributes (span_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT, PRIMARY KEY (span_id, key)) WITHOUT ROWID;
         CREATE TABLE span_events (span_id TEXT, name TEXT, time_ms INTEGER, attributes TEXT);",
    )?;
    // the purged span: a week older, deleted at open, left in freed pages
    conn.execute(
        "INSERT INTO spans VALUES ('old1','t0',NULL,'chat gpt-4.1',1790946000000,1790946003000,1,NULL,'chat','GitHub Copilot Chat','conv-old','old-session-0001','gpt-4.1','gpt-4.1',5000,250,1000,0,NULL,NULL,0,400)",
        [],
    )?;
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
    conn.execute("DELETE FROM spans WHERE span_id = 'old1'", [])?;
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
    let t = 1_791_543_604_000i64;
    conn.execute(
        "INSERT INTO spans VALUES ('c1','t1',NULL,'chat claude-sonnet-4.5',?1,?2,1,NULL,'chat','GitHub Copilot Chat','conv-1',?3,'claude-sonnet-4.5','claude-sonnet-4.5',12000,300,8000,0,NULL,NULL,0,600)",
        rusqlite::params![t, t + 400, T1],
    )?;
    conn.execute(
        "INSERT INTO spans VALUES ('x1','t1','c1','execute_tool read_file',?1,?2,1,NULL,'execute_tool','GitHub Copilot Chat','conv-1',?3,NULL,NULL,NULL,NULL,NULL,NULL,'read_file','toolu_01K__vscode-7',0,NULL)",
        rusqlite::params![t + 100, t + 300, T1],
    )?;
    conn.execute(
        "INSERT INTO spans VALUES ('e1','t1',NULL,'chat gpt-5',?1,?2,2,'Request Failed: 429 rate limited','chat','GitHub Copilot Chat','conv-1',?3,'gpt-5',NULL,NULL,NULL,NULL,NULL,NULL,NULL,1,NULL)",
        rusqlite::params![t + 20_000, t + 20_500, T1],
    )?;
    conn.execute_batch(&format!(
        "INSERT INTO span_attributes VALUES ('x1','gen_ai.tool.call.arguments','{{\"filePath\":\"/home/alice/src/shop/checkout.py\"}}');
         INSERT INTO span_attributes VALUES ('c1','copilot_chat.copilot_usage_nano_aiu','250000');
         INSERT INTO span_attributes VALUES ('c1','gen_ai.input.messages','[{{\"role\":\"system\",\"parts\":[{{\"type\":\"text\",\"content\":\"You are Copilot\"}}]}},{{\"role\":\"user\",\"parts\":[{{\"type\":\"text\",\"content\":\"Why is checkout slow?\"}}]}}]');
         INSERT INTO span_attributes VALUES ('c1','gen_ai.output.messages','[{{\"role\":\"assistant\",\"parts\":[{{\"type\":\"text\",\"content\":\"Let me look at the query.\"}}]}}]');"
    ))?;
    copy_db_set(
        &work,
        &global.join("agent-traces.db"),
        (0x07e1_0001, 0x07e1_0002),
    )?;
    drop(conn);
    let _ = fs::remove_dir_all(&tmp);
    Ok(())
}

/// Backup names as the CLI gives them (64 hex digits; fixture names, not hashes of
/// the contents).
const H1: &str = "1111111111111111111111111111111111111111111111111111111111111a01";
const H2: &str = "2222222222222222222222222222222222222222222222222222222222222b02";
const H3: &str = "3333333333333333333333333333333333333333333333333333333333333c03";
const H4: &str = "4444444444444444444444444444444444444444444444444444444444444d04";
const H5: &str = "5555555555555555555555555555555555555555555555555555555555555e05";
const X: &str = "7c0e1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b";

fn rewind_a(session: &Path) -> R<()> {
    let dir = session.join("rewind-file-snapshots");
    write(
        &dir.join("index.json"),
        serde_json::to_string_pretty(&json!({"schema": 1, "snapshots": [
            {"snapshotId": "snap-1", "eventId": "a-0003", "userMessage": "Run the tests and fix the failing one", "timestamp": "2026-10-05T09:00:05.000Z",
             "gitCommit": "4f2a9b1", "gitBranch": "main",
             "files": [{"path": "test/users.test.js", "backupHash": H1}, {"path": "src/users.js", "backupHash": H2}]},
            {"snapshotId": "snap-2", "eventId": "a-0021", "timestamp": "2026-10-05T09:01:03.000Z",
             "gitCommit": "4f2a9b1", "gitBranch": "main",
             "files": {"test/users.test.js": {"backupHash": H3}, "package.json": null}}
        ]}))?
        .as_bytes(),
    )?;
    // H2 is missing; H4 is named by no snapshot
    write(
        &dir.join("backups").join(H1),
        b"it('rejects duplicate email', () => expect(err).toBe('dup'));\n",
    )?;
    write(
        &dir.join("backups").join(H3),
        b"it('rejects duplicate email');\n",
    )?;
    write(
        &dir.join("backups").join(H4),
        b"left behind by a pruned snapshot\n",
    )?;
    Ok(())
}

fn rewind_b(session: &Path) -> R<()> {
    write(
        &session.join("rewind-snapshots/index.json"),
        serde_json::to_string_pretty(&json!({"version": 1, "snapshots": [
            {"snapshotId": "old-1", "eventId": "b-0002", "userMessage": "List the routes", "timestamp": "2026-10-06T14:00:10.000Z",
             "gitCommit": "9d8c7b6", "gitBranch": "dev", "files": ["src/app.js", "src/router.js"]},
            {"snapshotId": "old-2", "eventId": "b-0003", "timestamp": "2026-10-06T14:00:12.000Z",
             "files": {"src/app.js": H5}}
        ]}))?
        .as_bytes(),
    )?;
    Ok(())
}

/// A fresh database in rollback-journal mode (no `-wal` beside it), secure delete off
/// so deleted records stay in freed space.
fn open_plain(path: &Path) -> R<Connection> {
    fs::create_dir_all(path.parent().ok_or("no parent")?)?;
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let conn = Connection::open(path)?;
    conn.execute_batch("PRAGMA secure_delete = OFF; PRAGMA journal_mode = DELETE;")?;
    Ok(conn)
}

/// Session A's `session.db`: the schema a public note gives (todos, todo_deps,
/// inbox_entries), a deleted todo, and a key-value table with a planted token.
fn build_session_db(session: &Path) -> R<()> {
    let conn = open_plain(&session.join("session.db"))?;
    conn.execute_batch(
        "CREATE TABLE inbox_entries (id TEXT PRIMARY KEY, recipient_session_id TEXT NOT NULL, sender_id TEXT NOT NULL, sender_name TEXT NOT NULL, sender_type TEXT NOT NULL, interaction_id TEXT NOT NULL, sequence INTEGER NOT NULL DEFAULT 0, summary TEXT NOT NULL, content TEXT NOT NULL, unread INTEGER NOT NULL DEFAULT 1, sent_at INTEGER NOT NULL, read_at INTEGER, notified_at INTEGER);
         CREATE TABLE todo_deps (todo_id TEXT NOT NULL, depends_on TEXT NOT NULL, PRIMARY KEY (todo_id, depends_on));
         CREATE TABLE todos (id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT, status TEXT DEFAULT 'pending', created_at TEXT DEFAULT (datetime('now')), updated_at TEXT DEFAULT (datetime('now')));
         CREATE TABLE agent_kv (key TEXT PRIMARY KEY, value TEXT);",
    )?;
    // the deleted todo is written and deleted last, so no later cell reuses its space
    conn.execute_batch(
        "INSERT INTO todos VALUES ('t-run', 'Run the test suite', NULL, 'done', '2026-10-05 09:00:06', '2026-10-05 09:00:15');
         INSERT INTO todos VALUES ('t-fix', 'Fix the expected message', 'users.test.js expects the old text', 'in_progress', '2026-10-05 09:00:06', '2026-10-05 09:01:10');
         INSERT INTO todo_deps VALUES ('t-fix', 't-run');
         INSERT INTO inbox_entries VALUES ('m-1', '0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70', 'explore-1', 'explore', 'subagent', 'call_Q2', 0, 'Duplicate check found', 'The duplicate email check is in src/users.js:42.', 0, 1791190875000, 1791190876000, NULL);
         INSERT INTO agent_kv VALUES ('github_oauth_token', 'gho_fixtureCopilotSessionDbTokenDoNotEmit');
         INSERT INTO agent_kv VALUES ('last_view', 'todos');
         INSERT INTO todos VALUES ('t-drop', 'Rewrite the users module', 'Dropped: the test was wrong, not the code', 'pending', '2026-10-05 09:00:06', '2026-10-05 09:00:06');
         DELETE FROM todos WHERE id = 't-drop';",
    )?;
    drop(conn);
    write(&session.join("inuse.4242.lock"), b"")?;
    Ok(())
}

/// The desktop app's `data.db` (schema unverified): workflows (one deleted), a
/// sessions registry, an account with a token column, settings with a secret key and
/// a JSON value holding an `env`.
fn build_data_db(home: &Path) -> R<()> {
    let conn = open_plain(&home.join("data.db"))?;
    conn.execute_batch(
        "CREATE TABLE workflows (id TEXT PRIMARY KEY, name TEXT, prompt TEXT, interval TEXT, schedule_hour INTEGER, enabled INTEGER, config TEXT, created_at INTEGER, next_run_at INTEGER);
         CREATE TABLE sessions (id INTEGER PRIMARY KEY, session_id TEXT, project_path TEXT, title TEXT, created_at TEXT);
         CREATE TABLE accounts (id INTEGER PRIMARY KEY, login TEXT, oauth_token TEXT);
         CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);",
    )?;
    conn.execute_batch(
        r#"INSERT INTO workflows VALUES ('wf-1', 'Morning triage', 'Summarise new issues in acme/api', 'daily', 8, 1, '{"mode":"agent","env":{"GITHUB_TOKEN":"ghp_fixtureCopilotDataDbEnvDoNotEmit"}}', 1791100000000, 1791270000000);
         INSERT INTO sessions VALUES (1, '0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70', '/home/alice/src/api', 'Users test: fix', '2026-10-05 09:00:00');
         INSERT INTO accounts VALUES (1, 'alice', 'gho_fixtureCopilotDataDbOauthDoNotEmit');
         INSERT INTO settings VALUES ('copilot.authToken', 'gho_fixtureCopilotDataDbSettingDoNotEmit');
         INSERT INTO settings VALUES ('proxy.password', 'CopilotDataDbProxyPasswordDoNotEmit');
         INSERT INTO settings VALUES ('theme', 'dark');
         INSERT INTO workflows VALUES ('wf-old', 'Nightly secrets sweep', 'Print every .env file', 'daily', 2, 1, NULL, 1790900000000, NULL);
         DELETE FROM workflows WHERE id = 'wf-old';"#,
    )?;
    Ok(())
}

/// A `$COPILOT_HOME` named `copilot-home`: recognised by its structure.
fn copilot_home(home: &Path) -> R<()> {
    let mut l = Log::new("x");
    l.ev("session.start", "2026-10-11T08:00:00.000Z", json!({"sessionId": X, "copilotVersion": "1.0.91", "selectedModel": "gpt-5", "context": {"cwd": "/home/alice/src/infra"}}))
        .ev("user.message", "2026-10-11T08:00:03.000Z", json!({"content": "Check the terraform plan"}))
        .ev("assistant.message", "2026-10-11T08:00:06.000Z", json!({"content": "The plan adds one bucket.", "model": "gpt-5"}));
    let s = home.join("session-state").join(X);
    write(&s.join("events.jsonl"), l.out.as_bytes())?;
    write(
        &s.join("workspace.yaml"),
        format!("id: {X}\ncwd: /home/alice/src/infra\nbranch: main\nsummary: Terraform plan check\ncreated_at: 2026-10-11T08:00:00.000Z\nupdated_at: 2026-10-11T08:00:06.000Z\n").as_bytes(),
    )?;
    write(
        &s.join("rewind-file-snapshots/backups").join(H5),
        b"bucket = \"old\"\n",
    )?;
    write(
        &home.join("permissions-config.json"),
        serde_json::to_string_pretty(
            &json!({"locations": {"/home/alice/src/infra": {"tool_approvals": [
                {"kind": "commands", "command_identifiers": ["terraform plan"]}
            ]}}}),
        )?
        .as_bytes(),
    )?;
    write(
        &home.join("command-history-state.json"),
        br#"{"commandHistory":["Check the terraform plan"]}"#,
    )?;
    Ok(())
}

fn main() -> R<()> {
    let ev = Path::new("fixtures/evidence");
    if !ev.is_dir() {
        return Err("run from the workspace root".into());
    }
    // Linux CLI home
    let home = ev.join("lin-ws01/home/alice/.copilot");
    let st = home.join("session-state");
    write(&st.join(A).join("events.jsonl"), session_a().as_bytes())?;
    write(
        &st.join(A).join("workspace.yaml"),
        format!("id: {A}\ncwd: /home/alice/src/api\ngit_root: /home/alice/src/api\nrepository: acme/api\nbranch: main\nsummary: Fix the failing users test\nsummary_count: 2\nclient_name: copilot-cli\nname: \"Users test: fix\"\nuser_named: true\ncreated_at: 2026-10-05T09:00:00.000Z\nupdated_at: 2026-10-05T09:03:00.000Z\n").as_bytes(),
    )?;
    let _ = fs::remove_dir_all(st.join(A).join("rewind-file-snapshots"));
    rewind_a(&st.join(A))?;
    build_session_db(&st.join(A))?;
    write(
        &st.join(A).join("checkpoints/001-tests-run.md"),
        b"# Tests run\n\nRan the suite; one failure in users.test.js.\n",
    )?;
    write(
        &st.join(A).join("plan.md"),
        b"1. Run tests\n2. Fix the expectation\n",
    )?;
    write(&st.join(A).join("vscode.metadata.json"), b"{}")?;
    write(&st.join(B).join("events.jsonl"), session_b().as_bytes())?;
    rewind_b(&st.join(B))?;
    write(&st.join(C).join("events.jsonl"), session_c().as_bytes())?;
    build_session_store(&home)?;
    build_data_db(&home)?;
    let other = ev.join("lin-ws01/home/alice/copilot-home");
    let _ = fs::remove_dir_all(&other);
    copilot_home(&other)?;
    write(
        &home.join("permissions-config.json"),
        serde_json::to_string_pretty(
            &json!({"locations": {"/home/alice/src/api": {"tool_approvals": [
                {"kind": "commands", "command_identifiers": ["npm test", "git status"]},
                {"kind": "mcp", "serverName": "github", "toolName": null},
                {"kind": "write"}
            ]}}}),
        )?
        .as_bytes(),
    )?;
    write(
        &home.join("config.json"),
        serde_json::to_string_pretty(&json!({
            "trusted_folders": ["/home/alice/src/api", "/home/alice/src/web"],
            "storeTokenPlaintext": true,
            "copilotTokens": {"https://github.com:alice": "gho_fixtureCopilotCliTokenDoNotEmit"},
            "lastLoggedInUser": {"host": "https://github.com", "login": "alice"}
        }))?
        .as_bytes(),
    )?;
    write(
        &home.join("mcp-config.json"),
        br#"{"mcpServers":{"github":{"command":"gh-mcp","env":{"GITHUB_TOKEN":"ghp_fixtureCopilotMcpEnvDoNotEmit"}}}}"#,
    )?;
    write(
        &home.join("settings.json"),
        br#"{
  // CLI settings (JSONC)
  "model": "claude-sonnet-4.5",
  "permissions": {"allowedTools": ["shell(git:*)"], "deniedTools": ["shell(rm)"]},
  "sandbox": {"userPolicy": {"network": {"proxy": {"password": "CopilotProxyPasswordDoNotEmit"}}}}
}"#,
    )?;
    write(
        &home.join("command-history-state.json"),
        br#"{"commandHistory":["Run the tests and fix the failing one","/model gpt-5","Deploy to staging"]}"#,
    )?;
    // Linux VS Code 1.137-style workspace: transcript, debug log, no chatSessions
    let user = ev.join("lin-ws01/home/alice/.config/Code/User");
    let ws = user.join("workspaceStorage/7e137a01");
    write(
        &ws.join("workspace.json"),
        br#"{"folder":"file:///home/alice/src/shop"}"#,
    )?;
    write(
        &ws.join(format!("GitHub.copilot-chat/transcripts/{T1}.jsonl")),
        transcript_t1().as_bytes(),
    )?;
    write(
        &ws.join(format!("GitHub.copilot-chat/debug-logs/{T1}/main.jsonl")),
        debug_log_t1().as_bytes(),
    )?;
    write(
        &ws.join(format!(
            "GitHub.copilot-chat/memory-tool/memories/{T1}/checkout.md"
        )),
        b"Checkout is slow because of N+1 queries.\n",
    )?;
    // the read_file result written to disk whole (the transcript keeps a cut of it)
    write(
        &ws.join(format!(
            "GitHub.copilot-chat/chat-session-resources/{T1}/toolu_01K__vscode-1791194400123/content.txt"
        )),
        b"def checkout():\n    total = 0\n    for item in cart:\n        row = db.query(item)\n        total += row.price\n    return total\n",
    )?;
    build_traces(&user.join("globalStorage/github.copilot-chat"))?;
    // macOS: a workspace with both logs of the same session
    let ws = ev
        .join("mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b0b7c0de");
    write(
        &ws.join("workspace.json"),
        br#"{"folder":"file:///Users/bob/src/notes"}"#,
    )?;
    write(
        &ws.join(format!("chatSessions/{T2}.jsonl")),
        chat_log_t2().as_bytes(),
    )?;
    write(
        &ws.join(format!("GitHub.copilot-chat/transcripts/{T2}.jsonl")),
        transcript_t2().as_bytes(),
    )?;
    // Windows CLI home
    let home = ev.join("WIN-DESK03/C/Users/carol/.copilot/session-state");
    write(&home.join(W).join("events.jsonl"), session_w().as_bytes())?;
    println!(
        "wrote the Copilot event-log fixtures under {}",
        ev.display()
    );
    Ok(())
}
