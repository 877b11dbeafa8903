//! Third audit: calls whose id was seen before, a blob attachment's data, and the
//! prefix rule's direction.
mod common;

use chat_rows::Row;
use common::{events, full};

/// Third audit, item 1 (a): a result written before its call's start. The start is
/// the call (its command in a `tool_use` row; before 2026-12-05 it was dropped as a
/// call written again) and no `no tool call` link is given; a result whose call never
/// comes still gets its link, at the end, with the result's time and place.
#[test]
fn a_start_after_its_result_is_the_call() {
    let rows = events(&[
        r#"{"type":"session.start","data":{"sessionId":"s1","selectedModel":"gpt-5"},"timestamp":"2026-10-04T10:00:00.000Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"call_1","success":true,"result":{"content":"done"}},"timestamp":"2026-10-04T10:00:03.000Z"}"#,
        r#"{"type":"tool.execution_start","data":{"toolCallId":"call_1","toolName":"bash","arguments":{"command":"rm -rf /data"},"shellToolInfo":{"displayCommand":"rm -rf /data"}},"timestamp":"2026-10-04T10:00:02.000Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"call_2","success":true,"result":{"content":"lone"}},"timestamp":"2026-10-04T10:00:04.000Z"}"#,
        r#"{"type":"tool.execution_start","data":{"toolCallId":"call_1","toolName":"bash","arguments":{"command":"rm -rf /data"},"shellToolInfo":{"displayCommand":"rm -rf /data"}},"timestamp":"2026-10-04T10:00:02.000Z"}"#,
    ]);
    assert_eq!(
        full(&rows),
        [
            r#"system|live|2026-10-04T10:00:00.000000Z|1|byte 0||||session start: selected_model=gpt-5"#,
            r#"system|live|2026-10-04T10:00:00.000000Z|1|byte 0||||model: gpt-5"#,
            r#"tool_result|live|2026-10-04T10:00:03.000000Z|2|byte 114|||call_1|done"#,
            r#"tool_use|live|2026-10-04T10:00:02.000000Z|3|byte 262||bash|call_1|rm -rf /data"#,
            r#"tool_result|live|2026-10-04T10:00:04.000000Z|4|byte 471|||call_2|lone"#,
            r#"system|live|2026-10-04T10:00:04.000000Z|4|byte 471|||call_2|link: tool result call_2 has no tool call in this file"#,
        ]
    );
}

/// Third audit, item 1 (b): a request read after its call's result. With no start
/// before it, the request is the call (`tool_use` and `never started` link, no `no
/// tool call` link); after a start, nothing when it shows the start's tool and text,
/// else its own `tool_use` row (before 2026-12-05 both were dropped).
#[test]
fn a_request_after_the_result_is_not_dropped() {
    let rows = events(&[
        r#"{"type":"session.start","data":{"sessionId":"s1","selectedModel":"gpt-5"},"timestamp":"2026-10-04T10:00:00.000Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"call_9","success":true,"result":{"content":"done"}},"timestamp":"2026-10-04T10:00:03.000Z"}"#,
        r#"{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"call_9","name":"bash","arguments":{"command":"rm a b c"}}]},"timestamp":"2026-10-04T10:00:04.000Z"}"#,
        r#"{"type":"tool.execution_start","data":{"toolCallId":"call_5","toolName":"bash","arguments":{"command":"ls"}},"timestamp":"2026-10-04T10:00:05.000Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"call_5","success":true,"result":{"content":"a"}},"timestamp":"2026-10-04T10:00:06.000Z"}"#,
        r#"{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"call_5","name":"bash","arguments":{"command":"ls"}},{"toolCallId":"call_5","name":"bash","arguments":{"command":"rm a b c"}}]},"timestamp":"2026-10-04T10:00:07.000Z"}"#,
    ]);
    assert_eq!(
        full(&rows),
        [
            r#"system|live|2026-10-04T10:00:00.000000Z|1|byte 0||||session start: selected_model=gpt-5"#,
            r#"system|live|2026-10-04T10:00:00.000000Z|1|byte 0||||model: gpt-5"#,
            r#"tool_result|live|2026-10-04T10:00:03.000000Z|2|byte 114|||call_9|done"#,
            r#"tool_use|live|2026-10-04T10:00:04.000000Z|3|byte 262||bash|call_9|{"command":"rm a b c"}"#,
            r#"system|live|2026-10-04T10:00:04.000000Z|3|byte 262||bash|call_9|link: tool call call_9 was requested but never started in this file"#,
            r#"tool_use|live|2026-10-04T10:00:05.000000Z|4|byte 442||bash|call_5|{"command":"ls"}"#,
            r#"tool_result|live|2026-10-04T10:00:06.000000Z|5|byte 591||bash|call_5|a"#,
            r#"tool_use|live|2026-10-04T10:00:07.000000Z|6|byte 736||bash|call_5|{"command":"rm a b c"}"#,
        ]
    );
}

/// Third audit, item 1 (c): a user-requested call whose start shows another command:
/// the command that ran gets its own `tool_use` row (before 2026-12-05, dropped); a
/// start written twice the same still appears once.
#[test]
fn a_start_that_shows_another_command_is_not_dropped() {
    let rows = events(&[
        r#"{"type":"session.start","data":{"sessionId":"s1","selectedModel":"gpt-5"},"timestamp":"2026-10-04T10:00:00.000Z"}"#,
        r#"{"type":"tool.user_requested","data":{"toolCallId":"c1","toolName":"bash","arguments":{"command":"ls"}},"timestamp":"2026-10-04T10:00:02.000Z"}"#,
        r#"{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"bash","arguments":{"command":"ls"},"shellToolInfo":{"displayCommand":"ls -la /home/u/.ssh"}},"timestamp":"2026-10-04T10:00:03.000Z"}"#,
        r#"{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"bash","arguments":{"command":"ls"},"shellToolInfo":{"displayCommand":"ls -la /home/u/.ssh"}},"timestamp":"2026-10-04T10:00:03.000Z"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":"x"}},"timestamp":"2026-10-04T10:00:04.000Z"}"#,
        r#"{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"bash","arguments":{"command":"ls"},"shellToolInfo":{"displayCommand":"ls -la /home/u/.ssh"}},"timestamp":"2026-10-04T10:00:03.000Z"}"#,
    ]);
    assert_eq!(
        full(&rows),
        [
            r#"system|live|2026-10-04T10:00:00.000000Z|1|byte 0||||session start: selected_model=gpt-5"#,
            r#"system|live|2026-10-04T10:00:00.000000Z|1|byte 0||||model: gpt-5"#,
            r#"tool_use|live|2026-10-04T10:00:02.000000Z|2|byte 114||bash|c1|{"command":"ls"}"#,
            r#"system|live|2026-10-04T10:00:02.000000Z|2|byte 114||bash|c1|tool requested by user: bash"#,
            r#"tool_use|live|2026-10-04T10:00:03.000000Z|3|byte 258||bash|c1|ls -la /home/u/.ssh"#,
            r#"tool_result|live|2026-10-04T10:00:04.000000Z|5|byte 662||bash|c1|x"#,
        ]
    );
}

/// Third audit, item 2: a blob attachment's base64 `data` is binary asset data, never
/// printed: the prompt's detail row gives its length, as a `session.binary_asset`
/// line's row does (before 2026-12-05 it printed all 4,096 characters). So does any
/// object beside a `mimeType` in a detail row (a tool result's image item).
#[test]
fn a_blob_attachments_data_is_left_out() {
    let blob = "QUJD".repeat(1024);
    let line = format!(
        r#"{{"type":"user.message","data":{{"content":"see","attachments":[{{"type":"blob","mimeType":"image/png","data":"{blob}"}}]}},"timestamp":"2026-10-04T10:00:02.000Z"}}"#
    );
    let rows = events(&[
        &line,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"t1","success":true,"result":{"content":"ok","contents":[{"type":"image","mimeType":"image/png","data":"iVB\u004fR"}]}},"timestamp":"2026-10-04T10:00:03.000Z"}"#,
    ]);
    assert_eq!(
        full(&rows),
        [
            "user|live|2026-10-04T10:00:02.000000Z|1|byte 0||||see\n[attachment blob ]",
            r#"system|live|2026-10-04T10:00:02.000000Z|1|byte 0||||session event detail: user.message {"attachments":[{"data":"[binary asset data left out, 4096 characters]","mimeType":"image/png"}]}"#,
            "tool_result|live|2026-10-04T10:00:03.000000Z|2|byte 4249|||t1|ok",
            r#"system|live|2026-10-04T10:00:03.000000Z|2|byte 4249|||t1|session event detail: tool.execution_complete {"result":{"contents":[{"data":"[binary asset data left out, 5 characters]","mimeType":"image/png","type":"image"}]}}"#,
            r#"system|live|2026-10-04T10:00:03.000000Z|2|byte 4249|||t1|link: tool result t1 has no tool call in this file"#,
        ]
    );
}

/// Third audit, item 3: the prefix rule merges a copy away only when the copy is the
/// cut text (its text, without a trailing `...`, begins the primary's). A store's
/// prompt longer than the log's is no cut copy: it stays a `secondary` row with its
/// own text (before 2026-12-05 it took the log's `ok` and merged away, and the rest of
/// the prompt was in no row).
#[test]
fn a_longer_copy_is_not_a_twin() {
    use chat_rows::{Timestamp, TurnType};
    let t = 1_790_000_000_000;
    let row = |text: &str, ms: i64, secondary: bool| {
        Row::new("copilot", TurnType::User, text)
            .session("s")
            .at(Timestamp::from_epoch_millis(ms))
            .secondary(secondary)
    };
    let mut tw = copilot_events::Twins::new();
    tw.add_file(&[row("ok", t, false)]);
    let mut longer = row("ok, now delete the production database", t + 1000, true);
    assert!(!tw.prove(&mut longer));
    assert_eq!(longer.text, "ok, now delete the production database");
    assert_eq!(longer.timestamp, Timestamp::from_epoch_millis(t + 1000));
    // the cut copy, and the same text, still merge
    let mut cut = row("o...", t + 1000, true);
    assert!(tw.prove(&mut cut));
    assert_eq!(cut.text, "ok");
    assert_eq!(cut.timestamp, Timestamp::from_epoch_millis(t));
    let mut same = row("ok", t + 1500, true);
    assert!(tw.prove(&mut same));
    assert_eq!(same.timestamp, Timestamp::from_epoch_millis(t));
}
