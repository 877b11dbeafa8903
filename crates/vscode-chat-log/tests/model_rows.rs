//! The model rows: a request's `modelConfiguration` printed as sorted `key=value`
//! options, each value quoted as every `key=value` text of the project quotes it
//! (only when it needs quotes).

mod common;

use common::briefs;
use vscode_chat_log::rows::rows_from_replay;
use vscode_chat_log::{Replay, SessionContext};

fn system_rows(log: &str) -> Vec<String> {
    let r = Replay::from_bytes(log.as_bytes());
    briefs(&rows_from_replay(
        &r,
        &SessionContext::new("vscode", "q.jsonl"),
    ))
    .into_iter()
    .filter(|b| b.starts_with("system "))
    .collect()
}

/// The audit's t7 (the tool call's input left out): `effort` "very high" printed bare
/// read as two options, `effort=very` and `high`; the model row now quotes it as the
/// permission row of the same session quotes `selectedButton="allow always"`.
#[test]
fn model_options_that_need_quotes_are_quoted() {
    let log = r#"{"kind":0,"v":{"sessionId":"q","creationDate":1759400000000,"requests":[{"requestId":"r1","timestamp":1759400001000,"message":{"text":"p1"},"modelId":"m","modelConfiguration":{"effort":"very high","ctx":{"size":128000}},"response":[{"kind":"toolInvocationSerialized","toolCallId":"c1","toolId":"mcp_x","invocationMessage":"Calling","isComplete":true,"isConfirmed":{"type":4,"selectedButton":"allow always"}}],"responseTimestamp":1759400002000},{"requestId":"r2","timestamp":1759400003000,"message":{"text":"p2"},"modelId":"m","modelConfiguration":{"effort":"high","ctx":{"size":128000}},"response":[]}]}}
"#;
    assert_eq!(
        system_rows(log),
        [
            "system 1 [byte 0] live session start: ",
            r#"system 1 [byte 0] live model: m ctx="{\"size\":128000}" effort="very high""#,
            r#"system 1 [byte 0] live <c1> permission decision: confirmed=UserAction(4) selectedButton="allow always""#,
            r#"system 1 [byte 0] live model: m ctx="{\"size\":128000}" effort="very high" -> m ctx="{\"size\":128000}" effort=high"#,
        ]
    );
}
