//! Recovery: values a later line removed are rows marked `recovered` with the line
//! that wrote them; streaming growth of the same part never is.

mod common;

use chat_rows::RecordState;
use common::briefs;
use vscode_chat_log::rows::rows_from_replay;
use vscode_chat_log::{Replay, SessionContext};

fn rows(log: &str) -> Vec<String> {
    let r = Replay::from_bytes(log.as_bytes());
    let rows = rows_from_replay(&r, &SessionContext::new("vscode", "s.jsonl"));
    briefs(&rows)
        .into_iter()
        .zip(&rows)
        .filter(|(_, r)| r.record_state == RecordState::Recovered)
        .map(|(b, _)| b)
        .collect()
}

const BASE: &str = r#"{"kind":0,"v":{"sessionId":"s","requests":[{"requestId":"a","message":{"text":"first"},"response":[{"value":"one"}]},{"requestId":"b","message":{"text":"second"},"response":[{"value":"two"},{"kind":"thinking","value":"hmm"}]}]}}"#;

#[test]
fn a_deleted_request_is_recovered() {
    let log = format!("{BASE}\n{{\"kind\":3,\"k\":[\"requests\",1]}}\n");
    assert_eq!(
        rows(&log),
        [
            "user 1 [byte 0] recovered second",
            "assistant 1 [byte 0] recovered two",
            "thinking 1 [byte 0] recovered hmm"
        ]
    );
}

#[test]
fn a_request_truncated_by_push_with_i_is_recovered() {
    let log = format!(
        "{BASE}\n{{\"kind\":2,\"k\":[\"requests\"],\"i\":0,\"v\":[{{\"requestId\":\"c\",\"message\":{{\"text\":\"redo\"}}}}]}}\n"
    );
    assert_eq!(
        rows(&log),
        [
            "user 1 [byte 0] recovered first",
            "assistant 1 [byte 0] recovered one",
            "user 1 [byte 0] recovered second",
            "assistant 1 [byte 0] recovered two",
            "thinking 1 [byte 0] recovered hmm"
        ]
    );
    // a tail re-sent with the same requests recovers nothing
    let log = format!(
        "{BASE}\n{{\"kind\":2,\"k\":[\"requests\"],\"i\":1,\"v\":[{{\"requestId\":\"b\",\"message\":{{\"text\":\"second\"}},\"response\":[{{\"value\":\"two more\"}},{{\"kind\":\"thinking\",\"value\":\"hmm!\"}}]}}]}}\n"
    );
    assert!(rows(&log).is_empty());
}

#[test]
fn a_request_truncated_by_push_with_i_and_a_null_v_is_recovered() {
    let log = format!("{BASE}\n{{\"kind\":2,\"k\":[\"requests\"],\"v\":null,\"i\":1}}\n");
    let r = Replay::from_bytes(log.as_bytes());
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert!(r.refusal().is_none());
    assert_eq!(
        r.to_json(),
        r#"{"sessionId":"s","requests":[{"requestId":"a","message":{"text":"first"},"response":[{"value":"one"}]}]}"#
    );
    assert_eq!(
        rows(&log),
        [
            "user 1 [byte 0] recovered second",
            "assistant 1 [byte 0] recovered two",
            "thinking 1 [byte 0] recovered hmm"
        ]
    );
}

#[test]
fn a_kind_zero_rewrite_without_a_request_recovers_it() {
    let log = format!(
        "{BASE}\n{{\"kind\":0,\"v\":{{\"sessionId\":\"s\",\"requests\":[{{\"requestId\":\"b\",\"message\":{{\"text\":\"second\"}},\"response\":[{{\"value\":\"two\"}},{{\"kind\":\"thinking\",\"value\":\"hmm\"}}]}}]}}}}\n"
    );
    assert_eq!(
        rows(&log),
        [
            "user 1 [byte 0] recovered first",
            "assistant 1 [byte 0] recovered one"
        ]
    );
}

#[test]
fn a_replaced_part_is_recovered_and_streaming_growth_is_not() {
    // growth: "two" -> "two and three" re-sent with i; no row
    let grow = format!(
        "{BASE}\n{{\"kind\":2,\"k\":[\"requests\",1,\"response\"],\"i\":0,\"v\":[{{\"value\":\"two and three\"}},{{\"kind\":\"thinking\",\"value\":\"hmm, yes\"}}]}}\n"
    );
    assert!(rows(&grow).is_empty());
    // a regenerated answer: the old text is not a prefix of the new one
    let regen = format!(
        "{BASE}\n{{\"kind\":2,\"k\":[\"requests\",1,\"response\"],\"i\":0,\"v\":[{{\"value\":\"another answer\"}}]}}\n"
    );
    assert_eq!(
        rows(&regen),
        [
            "assistant 1 [byte 0] recovered two",
            "thinking 1 [byte 0] recovered hmm"
        ]
    );
    // a Set of one part
    let set = format!(
        "{BASE}\n{{\"kind\":1,\"k\":[\"requests\",0,\"response\",0],\"v\":{{\"value\":\"uno\"}}}}\n"
    );
    assert_eq!(rows(&set), ["assistant 1 [byte 0] recovered one"]);
    // a tool call completing (same toolCallId) is progress, not a replacement
    let tool = r#"{"kind":0,"v":{"requests":[{"requestId":"a","message":{"text":"q"},"response":[{"kind":"toolInvocationSerialized","toolCallId":"c1","toolId":"t","isComplete":false}]}]}}
{"kind":2,"k":["requests",0,"response"],"i":0,"v":[{"kind":"toolInvocationSerialized","toolCallId":"c1","toolId":"t","isComplete":true,"resultDetails":{"output":[{"type":"embed","value":"ok"}]}}]}
"#;
    assert!(rows(tool).is_empty());
}

#[test]
fn recovered_rows_carry_the_line_that_wrote_them() {
    let log = format!(
        "{BASE}\n{{\"kind\":2,\"k\":[\"requests\",1,\"response\"],\"v\":[{{\"value\":\" later\"}}]}}\n{{\"kind\":2,\"k\":[\"requests\",1,\"response\"],\"i\":2,\"v\":[{{\"value\":\" replaced\"}}]}}\n"
    );
    let r = Replay::from_bytes(log.as_bytes());
    assert_eq!(r.recovered().len(), 1);
    assert_eq!(r.line_number(r.recovered()[0].removed_by), Some(3));
    assert_eq!(
        rows(&log),
        [format!(
            "assistant 2 [byte {}] recovered  later",
            BASE.len() + 1
        )]
    );
}

/// A flush that cut the text between the halves of a surrogate pair (a JavaScript
/// slice; `JSON.stringify` writes the lone half as `\udxxx`) is followed by one with the
/// whole character: in JavaScript's UTF-16 the old text is a prefix of the new one, so
/// this is streaming and recovers nothing, whether the next flush writes the character
/// itself or the pair escaped. A text that really changed at the cut is recovered.
#[test]
fn a_surrogate_pair_cut_by_a_flush_is_streaming() {
    let log = |first: &str, second: &str| {
        format!(
            "{BASE}\n{{\"kind\":2,\"k\":[\"requests\",0,\"response\"],\"i\":1,\"v\":[{{\"value\":\"{first}\"}}]}}\n{{\"kind\":2,\"k\":[\"requests\",0,\"response\"],\"i\":1,\"v\":[{{\"value\":\"{second}\"}}]}}\n"
        )
    };
    for second in [
        "smile 😀 done",
        "smile \\ud83d\\ude00 done",
        "smile \\uD83D\\uDE00 done",
    ] {
        let log = log("smile \\ud83d", second);
        assert!(rows(&log).is_empty(), "{second}: {:?}", rows(&log));
    }
    // another character after the cut, or a backslash that is not an escape's
    let at = BASE.len() + 1;
    assert_eq!(
        rows(&log("smile \\ud83d", "smile 🦀 done")),
        [format!("assistant 2 [byte {at}] recovered smile \u{fffd}")]
    );
    assert_eq!(
        rows(&log("path \\\\ud83d", "path \\\\uD83D\\uDE00")),
        [format!("assistant 2 [byte {at}] recovered path \\ud83d")]
    );
    assert_eq!(
        rows(&log("smile x\\ud83d", "smile y😀")),
        [format!("assistant 2 [byte {at}] recovered smile x\u{fffd}")]
    );
}
