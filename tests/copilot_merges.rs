//! Copilot's copies in the three places the first merge did not reach, each on a tree
//! the test writes, run through the CLI with and without `--keep-copies`:
//!
//! * a debug log beside a transcript that is itself secondary (its workspace holds the
//!   session's `chatSessions` log): the debug log's copies take the chat log's text and
//!   time, not the transcript's, and merge away;
//! * the agent host's `agent-host-traces.db`, whose spans repeat the Copilot CLI
//!   sessions the agent host runs (logged in the user's `~/.copilot`);
//! * a `copilot-session-store.db` in the shared temporary folder (`<host>/tmp`), whose
//!   sessions some home's transcripts hold: proven, given that account, merged; a
//!   session no log holds stays, with no account.

use std::path::Path;

use sqlite_evidence::rusqlite::Connection;

mod common;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The rows of one CLI run on `root` and the summary's merge count.
fn run(root: &Path, keep: bool) -> (Vec<serde_json::Value>, usize) {
    let r = common::run(root, &[], keep);
    (r.rows, r.merged)
}

/// `file|turn|secondary|user|time|text` of the turn rows, `file` the source's last
/// `tail` components.
fn turns(rows: &[serde_json::Value], tail: usize) -> Vec<String> {
    rows.iter()
        .filter(|r| {
            matches!(
                r["turn_type"].as_str(),
                Some("user" | "assistant" | "tool_use" | "tool_result")
            )
        })
        .map(|r| {
            let file = r["source_file"].as_str().unwrap_or_default();
            let parts: Vec<&str> = file.rsplit('/').take(tail).collect();
            let file: Vec<&str> = parts.into_iter().rev().collect();
            format!(
                "{}|{}|{}|{}|{}|{}",
                file.join("/"),
                r["turn_type"].as_str().unwrap_or_default(),
                r["secondary"],
                r["user"].as_str().unwrap_or_default(),
                r["timestamp_utc"].as_str().unwrap_or_default(),
                r["text"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

const S1: &str = "d0d0d0d0-1111-4000-9000-000000000001";

#[test]
fn debug_log_copies_beside_a_secondary_transcript_take_the_chat_logs_time() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("lin-x");
    let ws = "home/u/.config/Code/User/workspaceStorage/w1";
    // the chat log: asked at 16:00:01, answered at 16:00:31
    write(
        &root,
        &format!("{ws}/chatSessions/{S1}.jsonl"),
        &format!(
            r#"{{"kind":0,"v":{{"creationDate":1791648000000,"requests":[{{"message":{{"parts":[],"text":"Add a health endpoint to the service"}},"modelId":"copilot/gpt-5","requestId":"request_1","response":[{{"value":"Added GET /health returning 200."}}],"responseTimestamp":1791648031000,"timestamp":1791648001000}}],"sessionId":"{S1}","version":3}}}}"#
        ),
    );
    // the transcript of the same session: its prompt written 3 s after the chat log's
    write(
        &root,
        &format!("{ws}/GitHub.copilot-chat/transcripts/{S1}.jsonl"),
        &format!(
            r#"{{"type":"session.start","data":{{"sessionId":"{S1}","startTime":"2026-10-10T16:00:00.000Z","version":1}},"id":"t-1","timestamp":"2026-10-10T16:00:00.000Z","parentId":null}}
{{"type":"user.message","data":{{"content":"Add a health endpoint to the service"}},"id":"t-2","timestamp":"2026-10-10T16:00:04.000Z","parentId":"t-1"}}
{{"type":"assistant.message","data":{{"content":"Added GET /health returning 200.","messageId":"m1"}},"id":"t-3","timestamp":"2026-10-10T16:00:30.000Z","parentId":"t-2"}}
"#
        ),
    );
    // the debug log: the prompt cut, at the transcript's time
    write(
        &root,
        &format!("{ws}/GitHub.copilot-chat/debug-logs/{S1}/main.jsonl"),
        &format!(
            r#"{{"attrs":{{"content":"Add a health endpoint..."}},"name":"user","sid":"{S1}","spanId":"s1","status":"ok","ts":1791648004100,"type":"user_message","v":1}}
{{"attrs":{{"content":"Added GET /health returning 200."}},"name":"agent","sid":"{S1}","spanId":"s2","status":"ok","ts":1791648030100,"type":"agent_response","v":1}}
"#
        ),
    );
    let (rows, merged) = run(&root, false);
    assert_eq!(
        turns(&rows, 1),
        [
            format!(
                "{S1}.jsonl|user|false|u|2026-10-10T16:00:01.000000Z|Add a health endpoint to the service"
            ),
            format!(
                "{S1}.jsonl|assistant|false|u|2026-10-10T16:00:31.000000Z|Added GET /health returning 200."
            ),
        ]
    );
    assert_eq!(merged, 4);
    // kept: every copy has its primary's text and time
    let (kept, _) = run(&root, true);
    let mut all = turns(&kept, 1);
    all.sort();
    assert_eq!(
        all,
        [
            format!("{S1}.jsonl|assistant|false|u|2026-10-10T16:00:31.000000Z|Added GET /health returning 200."),
            format!("{S1}.jsonl|assistant|true|u|2026-10-10T16:00:31.000000Z|Added GET /health returning 200."),
            format!("{S1}.jsonl|user|false|u|2026-10-10T16:00:01.000000Z|Add a health endpoint to the service"),
            format!("{S1}.jsonl|user|true|u|2026-10-10T16:00:01.000000Z|Add a health endpoint to the service"),
            "main.jsonl|assistant|true|u|2026-10-10T16:00:31.000000Z|Added GET /health returning 200.".to_string(),
            "main.jsonl|user|true|u|2026-10-10T16:00:01.000000Z|Add a health endpoint to the service".to_string(),
        ]
    );
}

const S2: &str = "d0d0d0d0-2222-4000-9000-000000000002";

#[test]
fn agent_host_trace_spans_merge_with_the_cli_logs_they_repeat() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("lin-x");
    write(
        &root,
        &format!("home/u/.copilot/session-state/{S2}/events.jsonl"),
        &format!(
            r#"{{"type":"session.start","data":{{"sessionId":"{S2}","selectedModel":"gpt-5","startTime":"2026-10-10T16:00:00.000Z","version":1}},"id":"e-1","timestamp":"2026-10-10T16:00:00.000Z","parentId":null}}
{{"type":"user.message","data":{{"content":"List the files"}},"id":"e-2","timestamp":"2026-10-10T16:00:01.000Z","parentId":"e-1"}}
{{"type":"tool.execution_start","data":{{"arguments":{{"command":"ls"}},"toolCallId":"call_Z1","toolName":"bash"}},"id":"e-3","timestamp":"2026-10-10T16:00:02.000Z","parentId":"e-2"}}
{{"type":"tool.execution_complete","data":{{"success":true,"result":{{"content":"a.txt"}},"toolCallId":"call_Z1"}},"id":"e-4","timestamp":"2026-10-10T16:00:03.000Z","parentId":"e-3"}}
{{"type":"assistant.message","data":{{"content":"One file: a.txt.","messageId":"m1","model":"gpt-5"}},"id":"e-5","timestamp":"2026-10-10T16:00:12.000Z","parentId":"e-4"}}
"#
        ),
    );
    let db = root.join("home/u/.config/Code/agent-host/otel/agent-host-traces.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let c = Connection::open(&db).unwrap();
    c.execute_batch(
        "CREATE TABLE spans (span_id TEXT PRIMARY KEY, trace_id TEXT, parent_span_id TEXT, name TEXT, start_time_ms INTEGER, end_time_ms INTEGER, status_code INTEGER, status_message TEXT, operation_name TEXT, agent_name TEXT, conversation_id TEXT, chat_session_id TEXT, request_model TEXT, response_model TEXT, input_tokens INTEGER, output_tokens INTEGER, cached_tokens INTEGER, reasoning_tokens INTEGER, tool_name TEXT, tool_call_id TEXT, turn_index INTEGER, ttft_ms INTEGER);
         CREATE TABLE span_attributes (span_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT, PRIMARY KEY (span_id, key)) WITHOUT ROWID;",
    )
    .unwrap();
    // the span of the same call, ended 4 s after the log's start line (outside the
    // scanner's 2 s window, inside the turn)
    c.execute_batch(&format!(
        "INSERT INTO spans VALUES ('x1','t1',NULL,'execute_tool bash',1791648006000,1791648006500,1,NULL,'execute_tool','copilot',NULL,'{S2}',NULL,NULL,NULL,NULL,NULL,NULL,'bash','call_Z1',0,NULL);
         INSERT INTO spans VALUES ('x2','t1',NULL,'execute_tool bash',1791648007000,1791648007500,1,NULL,'execute_tool','copilot',NULL,'{S2}',NULL,NULL,NULL,NULL,NULL,NULL,'bash','call_Q9',0,NULL);
         INSERT INTO span_attributes VALUES ('x1','gen_ai.tool.call.arguments','{{\"command\": \"ls\"}}');"
    ))
    .unwrap();
    drop(c);
    let (rows, _) = run(&root, false);
    let from_traces: Vec<String> = turns(&rows, 1)
        .into_iter()
        .filter(|t| t.starts_with("agent-host-traces.db|"))
        .collect();
    // the call the log holds merged away; the one it does not stays
    assert_eq!(
        from_traces,
        [
            "agent-host-traces.db|tool_use|true|u|2026-10-10T16:00:07.000000Z|[arguments not captured]"
        ]
    );
    let (kept, _) = run(&root, true);
    let from_traces: Vec<String> = turns(&kept, 1)
        .into_iter()
        .filter(|t| t.starts_with("agent-host-traces.db|"))
        .collect();
    assert_eq!(
        from_traces,
        [
            r#"agent-host-traces.db|tool_use|true|u|2026-10-10T16:00:02.000000Z|{"command":"ls"}"#,
            "agent-host-traces.db|tool_use|true|u|2026-10-10T16:00:07.000000Z|[arguments not captured]",
        ]
    );
}

const S3: &str = "d0d0d0d0-3333-4000-9000-000000000003";

#[test]
fn a_temp_folder_session_store_is_proven_against_the_homes_of_its_host() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("lin-x");
    let prompt = "Explain the retry logic in the HTTP client module, step by step";
    write(
        &root,
        &format!(
            "home/u/.config/Code/User/workspaceStorage/w1/GitHub.copilot-chat/transcripts/{S3}.jsonl"
        ),
        &format!(
            r#"{{"type":"session.start","data":{{"sessionId":"{S3}","startTime":"2026-10-10T16:00:00.000Z","version":1}},"id":"t-1","timestamp":"2026-10-10T16:00:00.000Z","parentId":null}}
{{"type":"user.message","data":{{"content":"{prompt}"}},"id":"t-2","timestamp":"2026-10-10T16:00:01.000Z","parentId":"t-1"}}
{{"type":"assistant.message","data":{{"content":"It retries three times with backoff.","messageId":"m1"}},"id":"t-3","timestamp":"2026-10-10T16:00:09.000Z","parentId":"t-2"}}
"#
        ),
    );
    // another account with no Copilot logs at all
    write(&root, "home/v/.bashrc", "# v\n");
    let db = root.join("tmp/copilot-session-store.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let c = Connection::open(&db).unwrap();
    c.execute_batch(
        "CREATE TABLE turns(id INTEGER PRIMARY KEY, session_id TEXT, turn_index INTEGER,
             user_message TEXT, assistant_response TEXT, timestamp TEXT);",
    )
    .unwrap();
    // the turn cut to 30 characters and written 6 s late; a turn of a session no log holds
    c.execute(
        "INSERT INTO turns(session_id, turn_index, user_message, assistant_response, timestamp)
         VALUES (?1, 0, ?2, 'It retries three times with backoff.', '2026-10-10T16:00:07.000Z'),
                ('gone-1', 0, 'Delete the audit log', 'Done.', '2026-10-09T10:00:00.000Z')",
        [S3, &format!("{}...", &prompt[..30])],
    )
    .unwrap();
    drop(c);
    let (rows, _) = run(&root, false);
    assert_eq!(
        turns(&rows, 1)
            .into_iter()
            .filter(|t| t.starts_with("copilot-session-store.db|"))
            .collect::<Vec<_>>(),
        [
            "copilot-session-store.db|user|true||2026-10-09T10:00:00.000000Z|Delete the audit log",
            "copilot-session-store.db|assistant|true||2026-10-09T10:00:00.000000Z|Done.",
        ]
    );
    let (kept, _) = run(&root, true);
    assert_eq!(
        turns(&kept, 1)
            .into_iter()
            .filter(|t| t.starts_with("copilot-session-store.db|"))
            .collect::<Vec<_>>(),
        [
            format!("copilot-session-store.db|user|true|u|2026-10-10T16:00:01.000000Z|{prompt}"),
            "copilot-session-store.db|assistant|true|u|2026-10-10T16:00:09.000000Z|It retries three times with backoff.".to_string(),
            "copilot-session-store.db|user|true||2026-10-09T10:00:00.000000Z|Delete the audit log".to_string(),
            "copilot-session-store.db|assistant|true||2026-10-09T10:00:00.000000Z|Done.".to_string(),
        ]
    );
}
