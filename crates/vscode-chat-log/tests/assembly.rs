//! Replies assembled as VS Code shows them (issue: real-file fidelity): one assistant
//! text across markdown, inline references and code-block parts, an edit as one row
//! naming the file and what changed, no row for whitespace-only thinking, the request's
//! time (marked) for a reply with none of its own, `modelState.completedAt`, and the
//! model `copilot/auto` resolved to. Pinned on the generated fixtures of
//! `examples/vscode_fixtures.rs` and on hand-made sessions.

mod common;

use chat_rows::Row;
use common::{brief, read};
use serde_json::json;
use vscode_chat_log::{SessionContext, rows_from_session};

const WS: &str = "lin-ws01/home/alice/.config/Code/User/workspaceStorage";

/// time | model | brief
fn lines(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{} | {} | {}",
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.model,
                brief(r)
            )
        })
        .collect()
}

#[test]
fn a_1118_log_with_references_edits_completed_at_and_resolved_models() {
    let rows = read(&format!("{WS}/a11c0de5/chatSessions/a1118.jsonl"), None);
    assert!(rows.iter().all(|r| r.session_id == "a1118"
        && r.project_path == "/home/alice/src/dotfiles"
        && !r.secondary));
    assert_eq!(
        lines(&rows),
        [
            "2025-10-31T08:40:00.000000Z |  | system 1 [byte 0] live session start: title=\"Theme colours\" responder=\"GitHub Copilot\" location=panel",
            "2025-10-31T08:40:10.000000Z | copilot/auto | system 2 [byte 209] live permission mode: agent",
            "2025-10-31T08:40:10.000000Z | copilot/auto | system 2 [byte 209] live permission level: default",
            "2025-10-31T08:40:10.000000Z | copilot/auto | system 2 [byte 209] live model: copilot/auto",
            "2025-10-31T08:40:10.000000Z | copilot/auto | user 2 [byte 209] live why is the bar still blue?",
            // the line that set result names the model auto resolved to; the reply's
            // rows carry it, at modelState.completedAt (no response time of its own)
            "2025-10-31T08:40:23.512000Z | gpt-5-mini | system 6 [byte 2906] live model: copilot/auto -> gpt-5-mini",
            // one text: the file and the symbol in place, the empty fence pair of the
            // edit gone, the whitespace-only thinking part no row and no cut
            "2025-10-31T08:40:23.512000Z | gpt-5-mini | assistant 3 [byte 900] live The Matugen.css file takes `primary` from `colors` and overrides it at line 12. Here is the fix:\n\n\nReload the theme to see it.",
            "2025-10-31T08:40:23.512000Z | gpt-5-mini | assistant 3 [byte 900] live edit: /home/alice/src/dotfiles/waybar/Matugen.css\nreplaced line 12 with:\n  background: var(--surface);",
            "2025-10-31T08:41:00.000000Z | copilot/auto | user 7 [byte 3111] live also make the border match",
            "2025-10-31T08:41:15.940000Z | claude-sonnet-4.5 | system 10 [byte 5992] live model: copilot/auto -> claude-sonnet-4.5",
            "2025-10-31T08:41:15.940000Z | claude-sonnet-4.5 | tool_use 8 [byte 3802] live <call_e1> {\"filePath\":\"/home/alice/src/dotfiles/waybar/Matugen.css\",\"newString\":\"  border: 1px solid var(--surface);\",\"oldString\":\"  border: 1px solid blue;\"}",
            "2025-10-31T08:41:15.940000Z | claude-sonnet-4.5 | tool_result 8 [byte 3802] live <call_e1> Edited Matugen.css",
            "2025-10-31T08:41:15.940000Z | claude-sonnet-4.5 | system 8 [byte 3802] live <call_e1> permission decision: confirmed=ConfirmationNotNeeded(1) tool_source=internal",
            // the fences around the edit tool's code block are no rows of their own
            "2025-10-31T08:41:15.940000Z | claude-sonnet-4.5 | assistant 8 [byte 3802] live Done: the border uses the surface colour too.",
            "2025-10-31T08:41:15.940000Z | claude-sonnet-4.5 | assistant 8 [byte 3802] live edit: /home/alice/src/dotfiles/waybar/Matugen.css\nreplaced line 20 with:\n  border: 1px solid var(--surface);",
            "2025-10-31T08:41:15.940000Z | claude-sonnet-4.5 | assistant 8 [byte 3802] live edit: Edited 1 file\n/home/alice/src/dotfiles/waybar/Matugen.css +1 -1",
        ]
    );
    // no assistant row is only a fence, and none is whitespace
    assert!(
        rows.iter()
            .all(|r| !r.text.trim().starts_with("```") && !r.text.trim().is_empty())
    );
}

#[test]
fn a_1104_flat_session_takes_the_request_time_marked() {
    let rows = read(&format!("{WS}/b104f1a7/chatSessions/f1104.json"), None);
    assert_eq!(
        lines(&rows),
        [
            "2025-09-04T15:33:20.000000Z |  | system - [$] live session start: title=parse_args responder=\"GitHub Copilot\" location=panel",
            "2025-09-04T15:33:25.000000Z | copilot/gpt-4.1 | system - [$.requests[0]] live model: copilot/gpt-4.1",
            "2025-09-04T15:33:25.000000Z | copilot/gpt-4.1 | user - [$.requests[0].message] live where is parse_args used?",
            "2025-09-04T15:33:25.000000Z | copilot/gpt-4.1 | assistant - [$.requests[0].response[0] (time of the request)] live It is called from main.py only; see https://docs.python.org/3/library/argparse.html for the options.",
            "2025-09-04T15:34:00.000000Z | copilot/gpt-4.1 | user - [$.requests[1].message] live rename it to parse_cli",
            "2025-09-04T15:34:00.000000Z | copilot/gpt-4.1 | assistant - [$.requests[1].response[0] (time of the request)] live Rename the function in util.py:\n\nThen update the call site.",
            "2025-09-04T15:34:00.000000Z | copilot/gpt-4.1 | assistant - [$.requests[1].response[3] (time of the request)] live edit: /home/alice/src/cli-tool/util.py\nreplaced line 7 with:\ndef parse_cli(argv):\ndeleted lines 30-32",
        ]
    );
    // every row has a time: none drops out of a Timesketch output or of --since/--until
    assert!(rows.iter().all(|r| r.timestamp.is_some()));
}

fn session(response: serde_json::Value, extra: serde_json::Value) -> Vec<String> {
    let mut req = json!({"requestId": "r", "timestamp": 1_700_000_000_000u64,
        "message": {"text": "q"}, "modelId": "copilot/gpt-4.1", "response": response});
    if let (Some(r), Some(e)) = (req.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            r.insert(k.clone(), v.clone());
        }
    }
    let s = json!({"sessionId": "s", "requests": [req]});
    rows_from_session(&s, &SessionContext::new("vscode", "s.json"))
        .iter()
        .skip(3)
        .map(|r| {
            format!(
                "{} | {} | {}",
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.model,
                brief(r)
            )
        })
        .collect()
}

#[test]
fn a_code_block_with_code_keeps_its_fences() {
    let rows = session(
        json!([
            {"value": "Like this:\n```rust\n"},
            {"kind": "codeblockUri", "uri": {"scheme": "file", "path": "/p/a.rs"}},
            {"value": "fn main() {}\n```\nDone."}
        ]),
        json!({"responseTimestamp": 1_700_000_001_000u64}),
    );
    assert_eq!(
        rows,
        [
            "2023-11-14T22:13:21.000000Z | copilot/gpt-4.1 | assistant - [$.requests[0].response[0]] live Like this:\n```rust\nfn main() {}\n```\nDone."
        ]
    );
}

#[test]
fn response_time_order_and_derived_marking() {
    // responseTimestamp first, then an epoch timeSpentWaiting, then completedAt
    let t = |extra| session(json!([{"value": "a"}]), extra)[0][..27].to_string();
    assert_eq!(
        t(
            json!({"responseTimestamp": 1_700_000_002_000u64, "modelState": {"value": 1, "completedAt": 1_700_000_009_000u64}})
        ),
        "2023-11-14T22:13:22.000000Z"
    );
    assert_eq!(
        t(
            json!({"timeSpentWaiting": 1_700_000_003_000u64, "modelState": {"value": 1, "completedAt": 1_700_000_009_000u64}})
        ),
        "2023-11-14T22:13:23.000000Z"
    );
    assert_eq!(
        t(
            json!({"timeSpentWaiting": 900, "modelState": {"value": 1, "completedAt": 1_700_000_009_000u64}})
        ),
        "2023-11-14T22:13:29.000000Z"
    );
    let derived = session(json!([{"value": "a"}]), json!({"timeSpentWaiting": 900}));
    assert_eq!(
        derived,
        [
            "2023-11-14T22:13:20.000000Z | copilot/gpt-4.1 | assistant - [$.requests[0].response[0] (time of the request)] live a"
        ]
    );
}

#[test]
fn a_resolved_model_equal_to_the_requested_one_is_no_row() {
    let rows = session(
        json!([{"value": "a"}]),
        json!({"result": {"metadata": {"resolvedModel": "copilot/gpt-4.1"}}}),
    );
    assert_eq!(rows.len(), 1);
    // a resolvedModel elsewhere than result.metadata is not the model that ran
    let rows = session(
        json!([{"value": "a"}]),
        json!({"result": {"metadata": {"toolCallRounds": [{"resolvedModel": "x"}]}}}),
    );
    assert_eq!(rows.len(), 1);
    assert!(rows[0].contains("| copilot/gpt-4.1 |"));
}

#[test]
fn whitespace_thinking_is_no_row_and_visible_thinking_is_one() {
    let rows = session(
        json!([
            {"value": "one "},
            {"kind": "thinking", "value": " "},
            {"kind": "thinking", "value": ["\n", "\t"]},
            {"value": "text"},
            {"kind": "thinking", "value": "real thought"},
            {"value": "two"},
            {"kind": "command", "command": {"title": "Run"}},
            {"value": "three"}
        ]),
        json!({"responseTimestamp": 1_700_000_001_000u64}),
    );
    let texts: Vec<&str> = rows
        .iter()
        .map(|r| r.rsplit(" live ").next().unwrap())
        .collect();
    assert_eq!(texts, ["one text", "real thought", "two", "three"]);
}

#[test]
fn inline_references_of_every_shape() {
    let rows = session(
        json!([
            {"value": "a "},
            {"kind": "inlineReference", "inlineReference": {"$mid": 1, "scheme": "file", "path": "/p/src/lib.rs"}},
            {"value": " b "},
            {"kind": "inlineReference", "inlineReference": {"uri": {"scheme": "file", "path": "/p/x.py"}, "range": {}}},
            {"value": " c "},
            {"kind": "inlineReference", "inlineReference": {"name": "Parser", "kind": 5, "location": {"uri": {"scheme": "file", "path": "/p/y.rs"}}}},
            {"value": " d "},
            {"kind": "inlineReference", "inlineReference": "file:///c%3A/w/z.ts"},
            {"value": " e "},
            {"kind": "inlineReference", "inlineReference": {"scheme": "https", "authority": "ex.org", "path": "/a", "query": "q=1"}}
        ]),
        json!({}),
    );
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0].ends_with("live a lib.rs b x.py c `Parser` d z.ts e https://ex.org/a?q=1"),
        "{}",
        rows[0]
    );
}

/// A tool's output as VS Code writes it: an `embed` part is text only with `isText`
/// (else base64, told by size: an image's data never printed; a value that is no
/// base64 is text all the same), and the command the user edited before it ran
/// follows the proposed one (both pinned against defects of 2026-12-05).
#[test]
fn embedded_output_and_an_edited_command() {
    let rows = session(
        json!([{"kind": "toolInvocationSerialized", "toolCallId": "c1", "toolId": "run_in_terminal",
            "isComplete": true,
            "toolSpecificData": {"kind": "terminal",
                "commandLine": {"original": "ls", "userEdited": "rm -rf ~/proj"}},
            "resultDetails": {"input": "{}", "output": [
                {"type": "embed", "isText": true, "value": "Took screenshot"},
                {"type": "embed", "mimeType": "image/png", "value": "iVBORw0KGgoAAAANSUhEUg=="},
                {"type": "embed", "value": "3 passed"}]}}]),
        json!({"responseTimestamp": 1_700_000_001_000u64}),
    );
    let brief: Vec<String> = rows
        .iter()
        .map(|r| r.split(" | ").nth(2).unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        brief,
        [
            "tool_use - [$.requests[0].response[0]] live <c1> ls",
            "system - [$.requests[0].response[0]] live <c1> tool command edited by the user: rm -rf ~/proj",
            "tool_result - [$.requests[0].response[0]] live <c1> Took screenshot\n[image/png data, 24 bytes of base64]\n3 passed",
        ]
    );
}
