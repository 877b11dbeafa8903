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

/// Every row of a log in brief, with its time and model.
fn all_rows(log: &str) -> Vec<String> {
    let r = Replay::from_bytes(log.as_bytes());
    let rows = rows_from_replay(&r, &SessionContext::new("vscode", "s.jsonl"));
    briefs(&rows)
        .into_iter()
        .zip(&rows)
        .map(|(b, r)| {
            let at = r.timestamp.map_or("-".to_string(), |t| t.to_string());
            format!("{b} @ {at} model={}", r.model)
        })
        .collect()
}

/// The audit's t6: a prompt overwritten twice within its request (a Set of
/// `message.text`, then of `message`), between them its reply regenerated. Each
/// overwritten prompt is a recovered user row, located at the line that wrote it and
/// timed as the request, as the replaced parts are.
#[test]
fn an_overwritten_prompt_is_recovered() {
    let log = r#"{"kind":0,"v":{"sessionId":"m","creationDate":1759400000000,"requests":[{"requestId":"rA","timestamp":1759400001000,"modelId":"copilot/gpt-4.1","message":{"text":"original secret prompt"},"response":[{"value":"Hello world, long answer"},{"kind":"thinking","value":"think long"}],"responseTimestamp":1759400002000}]}}
{"kind":1,"k":["requests",0,"message","text"],"v":"edited prompt"}
{"kind":2,"k":["requests",0,"response"],"i":0,"v":[{"value":"Hello"},{"kind":"thinking","value":"think"}]}
{"kind":1,"k":["requests",0,"message"],"v":{"text":"edited again"}}
"#;
    let line = |n: usize| {
        log.split_inclusive('\n')
            .take(n - 1)
            .map(str::len)
            .sum::<usize>()
    };
    assert_eq!((line(2), line(3), line(4)), (317, 384, 491));
    assert_eq!(
        all_rows(log),
        [
            "system 1 [byte 0] live session start:  @ 2025-10-02T10:13:20.000000Z model=",
            "system 1 [byte 0] live model: copilot/gpt-4.1 @ 2025-10-02T10:13:21.000000Z model=copilot/gpt-4.1",
            "user 4 [byte 491] live edited again @ 2025-10-02T10:13:21.000000Z model=copilot/gpt-4.1",
            "assistant 3 [byte 384] live Hello @ 2025-10-02T10:13:22.000000Z model=copilot/gpt-4.1",
            "thinking 3 [byte 384] live think @ 2025-10-02T10:13:22.000000Z model=copilot/gpt-4.1",
            "user 1 [byte 0] recovered original secret prompt @ 2025-10-02T10:13:21.000000Z model=copilot/gpt-4.1",
            "assistant 1 [byte 0] recovered Hello world, long answer @ 2025-10-02T10:13:22.000000Z model=copilot/gpt-4.1",
            "thinking 1 [byte 0] recovered think long @ 2025-10-02T10:13:22.000000Z model=copilot/gpt-4.1",
            "user 2 [byte 317] recovered edited prompt @ 2025-10-02T10:13:21.000000Z model=copilot/gpt-4.1",
        ]
    );
}

/// A request rewritten under its id with another prompt (by a kind-0 rewrite, a Set of
/// the request, a Push with `i`) recovers the old prompt; the old string form too;
/// the same prompt written again, or a prompt that was empty, recovers nothing.
#[test]
fn a_prompt_rewritten_under_the_same_request_id_is_recovered() {
    let kind0 = format!(
        "{BASE}\n{{\"kind\":0,\"v\":{{\"sessionId\":\"s\",\"requests\":[{{\"requestId\":\"a\",\"message\":{{\"text\":\"first, reworded\"}},\"response\":[{{\"value\":\"one\"}}]}},{{\"requestId\":\"b\",\"message\":{{\"text\":\"second\"}},\"response\":[{{\"value\":\"two\"}},{{\"kind\":\"thinking\",\"value\":\"hmm\"}}]}}]}}}}\n"
    );
    assert_eq!(rows(&kind0), ["user 1 [byte 0] recovered first"]);
    let set = format!(
        "{BASE}\n{{\"kind\":1,\"k\":[\"requests\",1],\"v\":{{\"requestId\":\"b\",\"message\":{{\"text\":\"second, again\"}},\"response\":[{{\"value\":\"two\"}}]}}}}\n"
    );
    assert_eq!(
        rows(&set),
        [
            "user 1 [byte 0] recovered second",
            "thinking 1 [byte 0] recovered hmm"
        ]
    );
    let push = format!(
        "{BASE}\n{{\"kind\":2,\"k\":[\"requests\"],\"i\":0,\"v\":[{{\"requestId\":\"a\",\"message\":\"first as a string\",\"response\":[{{\"value\":\"one\"}}]}}]}}\n"
    );
    assert_eq!(
        rows(&push),
        [
            "user 1 [byte 0] recovered first",
            "user 1 [byte 0] recovered second",
            "assistant 1 [byte 0] recovered two",
            "thinking 1 [byte 0] recovered hmm"
        ]
    );
    // the old string form, overwritten by the object form and back
    let legacy = r#"{"kind":0,"v":{"requests":[{"requestId":"a","message":"old words","response":[]}]}}
{"kind":1,"k":["requests",0,"message"],"v":{"text":"new words"}}
{"kind":1,"k":["requests",0,"message"],"v":"newest words"}
"#;
    assert_eq!(
        rows(legacy),
        [
            "user 1 [byte 0] recovered old words",
            "user 2 [byte 84] recovered new words"
        ]
    );
    // nothing changed, or nothing was there: no row
    for same in [
        format!("{BASE}\n{{\"kind\":1,\"k\":[\"requests\",0,\"message\",\"text\"],\"v\":\"first\"}}\n"),
        format!("{BASE}\n{{\"kind\":1,\"k\":[\"requests\",0,\"message\"],\"v\":{{\"text\":\"first\",\"parts\":[]}}}}\n"),
        format!("{BASE}\n{{\"kind\":1,\"k\":[\"requests\",0,\"message\",\"parts\"],\"v\":[]}}\n"),
        "{\"kind\":0,\"v\":{\"requests\":[{\"requestId\":\"a\",\"message\":{\"text\":\"\"}}]}}\n{\"kind\":1,\"k\":[\"requests\",0,\"message\",\"text\"],\"v\":\"now\"}\n".to_string(),
    ] {
        assert!(rows(&same).is_empty(), "{same}: {:?}", rows(&same));
    }
    // a deleted prompt is recovered too
    let deleted = format!("{BASE}\n{{\"kind\":3,\"k\":[\"requests\",0,\"message\"]}}\n");
    assert_eq!(rows(&deleted), ["user 1 [byte 0] recovered first"]);
}

/// What a generated request's `result` is, for the model its rows read.
#[derive(Clone)]
enum Result_ {
    None,
    /// Unparsed, with `resolvedModel` (written escaped: `"resolved\u004dodel"`, which the
    /// search of unparsed text does not find, so the rows read `modelId`).
    Raw {
        model: String,
        escaped: bool,
    },
    /// Parsed by a line that walked into it: the key is found however it was written.
    Parsed(String),
}

impl Result_ {
    fn model<'m>(&'m self, model_id: &'m str) -> &'m str {
        match self {
            Result_::Raw {
                model,
                escaped: false,
            }
            | Result_::Parsed(model) => model,
            _ => model_id,
        }
    }
}

/// A `result` of about `pad` bytes (tool-call rounds before the model, as Copilot writes
/// them) and its state.
fn result_json(model: &str, escaped: bool, pad: usize) -> (String, Result_) {
    let key = if escaped {
        "resolved\\u004dodel"
    } else {
        "resolvedModel"
    };
    let rounds =
        vec![r#"{"response":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","toolCalls":[]}"#; pad / 50 + 1];
    let json = format!(
        r#"{{"metadata":{{"toolCallRounds":[{}],"{key}":"{model}"}}}}"#,
        rounds.join(",")
    );
    (
        json,
        Result_::Raw {
            model: model.into(),
            escaped,
        },
    )
}

/// A generated log of many Sets of one response part (of two requests), between them
/// lines that change, parse, delete or replace a request's `result` (or the whole
/// request, or the session): each replaced part is a recovered row with the model of
/// its request as it was at the line that replaced it (the resolved model is found once
/// per request and kept until a line may change it; this pins that it never goes stale).
#[test]
fn replaced_parts_read_their_requests_model_as_it_was_then() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let ids = ["copilot/base-0", "copilot/base-1"];
    let (first, r0) = result_json("gpt-0", false, 20_000);
    let mut results = [r0, Result_::Parsed("other".into())];
    let mut parts = ["zero".to_string(), "one".to_string()];
    let request = |id: usize, result: &str, part: &str| {
        format!(
            r#"{{"requestId":"r{id}","timestamp":1759400001000,"modelId":"{}","message":{{"text":"q{id}"}},"response":[{{"value":"{part}"}}],"result":{result}}}"#,
            ids[id]
        )
    };
    let mut log = format!(
        "{{\"kind\":0,\"v\":{{\"sessionId\":\"g\",\"requests\":[{},{}]}}}}\n",
        request(0, &first, "zero"),
        request(1, r#"{"metadata":{"resolvedModel":"other"}}"#, "one")
    );
    let mut expected = Vec::new();
    for n in 0..400 {
        let r = (next(4) == 0) as usize;
        let before = parts[r].clone();
        let model = results[r].model(ids[r]).to_string();
        match next(20) {
            0 => {
                // a Set's value is parsed (only a `result` inside it is left unparsed)
                let (json, _) = result_json(&format!("set-{n}"), next(2) == 0, 5_000);
                log +=
                    &format!("{{\"kind\":1,\"k\":[\"requests\",{r},\"result\"],\"v\":{json}}}\n");
                results[r] = Result_::Parsed(format!("set-{n}"));
            }
            1 if !matches!(results[r], Result_::None) => {
                log += &format!(
                    "{{\"kind\":1,\"k\":[\"requests\",{r},\"result\",\"metadata\",\"resolvedModel\"],\"v\":\"deep-{n}\"}}\n"
                );
                results[r] = Result_::Parsed(format!("deep-{n}"));
            }
            2 if !matches!(results[r], Result_::None) => {
                // parses `result`, which changes nothing but what the search finds
                log += &format!(
                    "{{\"kind\":1,\"k\":[\"requests\",{r},\"result\",\"other\"],\"v\":{n}}}\n"
                );
                if let Result_::Raw { model, .. } = &results[r] {
                    results[r] = Result_::Parsed(model.clone());
                }
            }
            3 => {
                log += &format!("{{\"kind\":3,\"k\":[\"requests\",{r},\"result\"]}}\n");
                results[r] = Result_::None;
            }
            4 | 5 => {
                // the request rewritten (a Set of it, or the session by a kind 0): its
                // part, replaced, reads the new request's model
                let (json, state) = result_json(&format!("new-{n}"), next(2) == 0, 5_000);
                let text = format!("fresh {n}");
                if next(2) == 0 {
                    log += &format!(
                        "{{\"kind\":1,\"k\":[\"requests\",{r}],\"v\":{}}}\n",
                        request(r, &json, &text)
                    );
                } else {
                    let other = 1 - r;
                    // the other request written again: its `result` unparsed again
                    let (keep, state) = match results[other].clone() {
                        Result_::None => ("null".to_string(), Result_::None),
                        Result_::Raw { model, escaped } => result_json(&model, escaped, 100),
                        Result_::Parsed(model) => result_json(&model, false, 100),
                    };
                    results[other] = state;
                    let mut both = [String::new(), String::new()];
                    both[r] = request(r, &json, &text);
                    both[other] = request(other, &keep, &parts[other]);
                    log += &format!(
                        "{{\"kind\":0,\"v\":{{\"sessionId\":\"g\",\"requests\":[{},{}]}}}}\n",
                        both[0], both[1]
                    );
                }
                results[r] = state;
                expected.push(format!("{before} model={}", results[r].model(ids[r])));
                parts[r] = text;
            }
            _ => {
                let text = format!("part {n}");
                log += &format!(
                    "{{\"kind\":1,\"k\":[\"requests\",{r},\"response\",0],\"v\":{{\"value\":\"{text}\"}}}}\n"
                );
                expected.push(format!("{before} model={model}"));
                parts[r] = text;
            }
        }
    }
    let replay = Replay::from_bytes(log.as_bytes());
    assert!(replay.errors().is_empty(), "{:?}", replay.errors());
    let rows = rows_from_replay(&replay, &SessionContext::new("vscode", "g.jsonl"));
    let mut got: Vec<String> = rows
        .iter()
        .filter(|r| r.record_state == RecordState::Recovered)
        .map(|r| format!("{} model={}", r.text, r.model))
        .collect();
    // the rows come in request order, the expectation in line order (each text is
    // written once)
    got.sort();
    expected.sort();
    assert!(expected.len() > 300, "{}", expected.len());
    assert_eq!(got, expected);
}
