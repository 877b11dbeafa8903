//! Hostile shapes: logs built to make the replay or the rows deep, slow or big. Each
//! test pins the exact outcome on the worst shape at a modest size (the speed and
//! memory figures are in the crate README, measured with the release CLI).

mod common;

use common::briefs;
use vscode_chat_log::decode::{MAX_TREE_DEPTH, Node, Slot, json::MAX_DEPTH};
use vscode_chat_log::rows::{for_each_row, into_rows, rows_from_replay};
use vscode_chat_log::{Replay, SessionContext};

fn ctx() -> SessionContext {
    SessionContext::new("vscode", "s.jsonl")
}

/// Runs `f` in a thread with a stack of `kib` KiB (a scan worker has 2 MiB).
///
/// The walks of a tree at the depth limit are run on half a worker's stack, 1 MiB,
/// which a debug build needs (the parser reading a line at its own limit needs more
/// than 512 KiB there); a release build needs a quarter of that.
const HALF_A_WORKERS_STACK: usize = 1024;

fn with_stack<T: Send>(kib: usize, f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(kib * 1024)
            .spawn_scoped(s, f)
            .unwrap()
            .join()
            .unwrap()
    })
}

/// The nesting of JSON text (arrays and objects around its deepest value).
fn json_nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for c in text.bytes() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                b']' | b'}' => depth -= 1,
                _ => {}
            }
        }
    }
    deepest
}

/// `levels` objects nested through the key `a`, the innermost empty.
fn chain(levels: usize) -> String {
    format!(
        "{}{{}}{}",
        r#"{"a":"#.repeat(levels - 1),
        "}".repeat(levels - 1)
    )
}

/// The audit's shape (`gen_deep.py`): a kind 0 with a chain of 251 objects under `a`,
/// then `lines - 1` Sets at string paths (a path given as a string is walked by its characters,
/// `aaa…`) that put another such chain at the bottom of the last one. Every line is
/// within the parser's depth; the tree was not (37,000 levels at 150 lines, 3 MB), and
/// freeing it overflowed the stack and aborted the scan.
fn deep_log(lines: usize) -> String {
    let nest = chain(251);
    let mut log = format!(r#"{{"kind":0,"v":{{"sessionId":"s","requests":[],"a":{nest}}}}}"#);
    log.push('\n');
    for j in 1..lines {
        log.push_str(&format!(
            r#"{{"kind":1,"k":"{}","v":{nest}}}"#,
            "a".repeat(250 * j + 1)
        ));
        log.push('\n');
    }
    log
}

#[test]
fn a_tree_deepened_by_mutations_stops_at_the_limit() {
    let log = deep_log(151);
    let rows = with_stack(HALF_A_WORKERS_STACK, || {
        let r = Replay::from_bytes(log.as_bytes());
        // line 2 puts a chain at the bottom of the first one, 251 levels down: 502
        // levels; line 3 would put one 501 levels down, 752 deep, and is not applied;
        // the later lines walk into what line 3 would have built
        assert_eq!(json_nesting(&r.to_json()), 502);
        briefs(&rows_from_replay(&r, &ctx()))
    });
    // the session, line 3, lines 4 to 151, the refusal
    assert_eq!(rows.len(), 1 + 1 + 148 + 1);
    assert_eq!(rows[0], "system 1 [byte 0] live session start: ");
    let line3 = log.split('\n').nth(2).unwrap();
    assert!(rows[1].starts_with(&format!(
        "system 3 [byte {}] live parser: mutation not applied (the tree would be 752 levels \
         deep, more than the 512 this reader builds): {{\"kind\":1,",
        log.find(line3).unwrap()
    )));
    let undefined = format!("(TypeError: [{}] is undefined)", vec!["a"; 502].join(", "));
    for (k, row) in rows[2..150].iter().enumerate() {
        assert!(row.starts_with(&format!("system {} ", k + 4)), "{row}");
        assert!(row.contains(&undefined), "{row}");
    }
    assert!(rows[150].starts_with(&format!(
        "system 4 [byte {}] live parser: VS Code would not load this file (line 4: TypeError: [a, a, ",
        log.find(log.split('\n').nth(3).unwrap()).unwrap()
    )));
}

#[test]
fn the_tree_may_be_exactly_as_deep_as_the_limit() {
    assert_eq!(MAX_TREE_DEPTH, 2 * MAX_DEPTH);
    assert_eq!(MAX_TREE_DEPTH, 512);
    // lines 1 and 2 of the deep log: 502 levels; the path to the bottom is 501 long
    let base = deep_log(2);
    let path = "a".repeat(501);
    let set = |v: &str| format!("{base}{{\"kind\":1,\"k\":\"{path}\",\"v\":{v}}}\n");
    // 501 + 11 = 512: applied
    let ok = set(&chain(11));
    let r = Replay::from_bytes(ok.as_bytes());
    assert!(r.errors().is_empty());
    assert_eq!(json_nesting(&r.to_json()), 512);
    // one more level is refused, also when it is an unparsed subtree (`result`)
    for v in [
        chain(12),
        format!(r#"{{"result":{}{}}}"#, "[".repeat(11), "]".repeat(11)),
    ] {
        let log = set(&v);
        let r = Replay::from_bytes(log.as_bytes());
        assert_eq!(r.errors().len(), 1);
        assert!(r.refusal().is_none());
        assert_eq!(
            r.errors()[0].error.to_string(),
            format!(
                "line 3 (byte {}): mutation not applied: the tree would be 513 levels deep, \
                 more than the 512 this reader builds",
                base.len()
            )
        );
        assert_eq!(json_nesting(&r.to_json()), 502);
    }
    let raw_ok = set(&format!(
        r#"{{"result":{}{}}}"#,
        "[".repeat(10),
        "]".repeat(10)
    ));
    assert!(Replay::from_bytes(raw_ok.as_bytes()).errors().is_empty());
    // a Push counts the array it makes (at `b`, 501 levels down) and pushes into
    let push = |n: usize| {
        format!(
            "{base}{{\"kind\":2,\"k\":\"{}b\",\"v\":[{}]}}\n",
            &path[1..],
            chain(n)
        )
    };
    assert!(Replay::from_bytes(push(10).as_bytes()).errors().is_empty());
    assert_eq!(Replay::from_bytes(push(11).as_bytes()).errors().len(), 1);
}

#[test]
fn every_walk_of_a_tree_at_the_limit_fits_half_a_workers_stack() {
    let base = deep_log(2);
    let log = format!(
        "{base}{{\"kind\":1,\"k\":\"{}\",\"v\":{}}}\n",
        "a".repeat(501),
        chain(11)
    );
    let text = with_stack(HALF_A_WORKERS_STACK, || {
        let r = Replay::from_bytes(log.as_bytes());
        let state = r.state().unwrap();
        let copy = state.clone();
        assert!(copy == *state);
        assert!(!format!("{copy:?}").is_empty());
        let owned = vscode_chat_log::decode::to_static(&state.node);
        let moved = vscode_chat_log::decode::node::into_static(owned);
        let value = moved.to_value();
        assert_eq!(json_nesting(&serde_json::to_string(&value).unwrap()), 512);
        let back = Node::from_value(&value, 0);
        assert!(back.to_value() == value);
        let mut out = Vec::new();
        r.write_json(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), r.to_json());
        let mut n = 0;
        for_each_row(&r, &ctx(), |_| n += 1);
        assert_eq!(n, 1);
        assert_eq!(rows_from_replay(&r, &ctx()).len(), 1);
        let text = r.to_json();
        assert_eq!(into_rows(r, &ctx()).len(), 1);
        text
    });
    assert_eq!(json_nesting(&text), 512);
}

#[test]
fn a_tree_of_any_depth_is_freed_without_recursion() {
    // built by hand (a mutation cannot build it): 200,000 arrays and objects in
    // turn, freed on a 64 KiB stack
    with_stack(64, || {
        let mut node = Node::Null;
        for i in 0..200_000 {
            node = if i % 2 == 0 {
                Node::Arr(vec![Slot::new(0, node), Slot::new(0, Node::Num(1.0))])
            } else {
                Node::Obj(vec![("k".into(), Slot::new(0, node))].into())
            };
        }
        drop(node);
    });
}

fn recovered(log: &str) -> Vec<String> {
    let r = Replay::from_bytes(log.as_bytes());
    briefs(&rows_from_replay(&r, &ctx()))
        .into_iter()
        .filter(|b| b.contains(" recovered "))
        .collect()
}

#[test]
fn replaced_requests_meet_the_first_twin_of_their_key_or_their_position() {
    let log = concat!(
        r#"{"kind":0,"v":{"sessionId":"s","requests":["#,
        r#"{"requestId":"a","message":{"text":"first"},"response":[{"value":"one"}]},"#,
        r#"{"requestId":"b","message":{"text":"second"},"response":[{"value":"two"}]},"#,
        r#"{"message":{"text":"third"},"response":[{"value":"three"}]},"#,
        r#"{"response":[{"value":"keyless"}]},"#,
        r#"{"requestId":"gone","message":{"text":"lost"},"response":[{"value":"bye"}]}]}}"#,
        "\n",
        r#"{"kind":2,"k":["requests"],"i":0,"v":["#,
        // two twins of `a`: the first is compared, so its part `one` is recovered
        r#"{"requestId":"a","message":{"text":"first"},"response":[{"value":"rewritten"}]},"#,
        r#"{"requestId":"a","message":{"text":"first"},"response":[{"value":"one"}]},"#,
        // the prompt is the key of a request without an id: the same, grown
        r#"{"message":{"text":"third"},"response":[{"value":"three and more"}]},"#,
        // a request without a key meets the one at its position (3)
        r#"{"response":[{"value":"other"}]},"#,
        // `b` moved: found by its id, unchanged
        r#"{"requestId":"b","message":{"text":"second"},"response":[{"value":"two"}]}]}"#,
        "\n"
    );
    assert_eq!(
        recovered(log),
        [
            "assistant 1 [byte 0] recovered one",
            "assistant 1 [byte 0] recovered keyless",
            "user 1 [byte 0] recovered lost",
            "assistant 1 [byte 0] recovered bye",
        ]
    );
}

#[test]
fn requests_replaced_all_at_once_are_each_recovered() {
    // the audit's shape (`gen.py match N`): N requests, then one Push with `i: 0`
    // of N others; each old request was compared with every new one (16,000: 33 s)
    let n = 2000;
    let req = |id: String| {
        format!(r#"{{"requestId":"{id}","message":{{"text":"hi"}},"response":[{{"value":"ok"}}]}}"#)
    };
    let list = |p: &str| {
        (0..n)
            .map(|i| req(format!("{p}{i}")))
            .collect::<Vec<_>>()
            .join(",")
    };
    let log = format!(
        "{{\"kind\":0,\"v\":{{\"sessionId\":\"s\",\"requests\":[{}]}}}}\n{{\"kind\":2,\"k\":[\"requests\"],\"i\":0,\"v\":[{}]}}\n",
        list("a"),
        list("b")
    );
    let rows = recovered(&log);
    assert_eq!(rows.len(), 2 * n);
    assert!(
        rows.iter()
            .step_by(2)
            .all(|r| r == "user 1 [byte 0] recovered hi")
    );
    assert!(
        rows.iter()
            .skip(1)
            .step_by(2)
            .all(|r| r == "assistant 1 [byte 0] recovered ok")
    );
}

/// A request whose response part 0 is replaced by line 2, and the rows of both.
fn replaced_part(fields: &str) -> (Replay<'static>, Vec<chat_rows::Row>) {
    let log = format!(
        "{{\"kind\":0,\"v\":{{\"sessionId\":\"s\",\"requests\":[{{\"requestId\":\"r\",\"message\":{{\"text\":\"hi\"}},{fields}\"response\":[{{\"value\":\"old\"}}]}}]}}}}\n{{\"kind\":1,\"k\":[\"requests\",0,\"response\",0],\"v\":{{\"value\":\"new\"}}}}\n"
    );
    let log: &'static str = Box::leak(log.into_boxed_str());
    let r = Replay::from_bytes(log.as_bytes());
    let rows = rows_from_replay(&r, &ctx());
    (r, rows)
}

#[test]
fn a_replaced_part_keeps_only_what_its_rows_read_of_the_request() {
    // the audit's shapes (`gen.py regen N`, `gen.py splice N`): every line that
    // replaced a part copied the whole request (a 2 MB `result`, or the reply's
    // growing parts), K lines K copies: 500 regenerations took 1 GB
    let big = "z".repeat(100_000);
    let (r, _) = replaced_part(&format!(
        r#""timestamp":1700000000000,"modelId":"copilot/auto","modelState":{{"value":1,"completedAt":1700000009000}},"agent":{{"id":"{big}"}},"result":{{"metadata":{{"toolCallRounds":["{big}"],"resolvedModel":"gpt-5"}}}},"variableData":{{"v":"{big}"}},"#
    ));
    let [rec] = r.recovered() else { panic!() };
    let vscode_chat_log::decode::RecoveredKind::Parts { request } = &rec.kind else {
        panic!()
    };
    assert_eq!(
        request.to_json(),
        r#"{"timestamp":1700000000000,"modelId":"copilot/auto","modelState":{"completedAt":1700000009000},"result":{"metadata":{"resolvedModel":"gpt-5"}}}"#
    );
}

#[test]
fn a_replaced_parts_rows_are_timed_and_modelled_as_its_live_parts() {
    // every combination of the fields the rows read, in the forms they take: the row
    // of the recovered part `old` and the live part `new` of the same request agree
    let times = [
        "",
        r#""timestamp":1700000000000,"#,
        r#""timestamp":" 1700000000000 ","#,
        r#""timestamp":{"t":1},"#,
    ];
    let responses = [
        "",
        r#""responseTimestamp":1700000005000,"#,
        r#""responseTimestamp":"17000000050\u0030\u0030","#,
        r#""timeSpentWaiting":1700000006000,"#,
        r#""timeSpentWaiting":4000,"#,
        r#""modelState":{"completedAt":1700000007000},"#,
        r#""modelState":{"completedAt":[1]},"#,
        r#""modelState":5,"#,
    ];
    let models = [
        "",
        r#""modelId":"copilot/auto","#,
        r#""modelId":"copilot\/auto","#,
        r#""modelId":{"id":"x"},"#,
    ];
    let results = [
        "",
        r#""result":{"metadata":{"resolvedModel":"gpt-5"}},"#,
        r#""result":{"metadata":{"resolvedModel":"copilot/auto"}},"#,
        r#""result":{"metadata":{"resolvedModel":""}},"#,
        r#""result":{"metadata":{"resolved\u004dodel":"gpt-5"}},"#,
        r#""result":{"errorDetails":{}},"#,
    ];
    let mut seen = std::collections::BTreeSet::new();
    for t in times {
        for resp in responses {
            for m in models {
                for res in results {
                    let fields = format!("{t}{resp}{m}{res}");
                    let (_, rows) = replaced_part(&fields);
                    let of = |text: &str| {
                        let r = rows.iter().find(|r| r.text == text).unwrap();
                        let derived = r
                            .source_locator
                            .ends_with(vscode_chat_log::rows::DERIVED_TIME);
                        (r.timestamp, r.model.clone(), derived)
                    };
                    assert_eq!(of("old"), of("new"), "{fields}");
                    seen.insert(of("old"));
                }
            }
        }
    }
    // the combinations reach every outcome: no time, the request's (derived), each
    // of the response's three sources; no model, the id, the resolved model
    assert_eq!(seen.len(), 5 * 3);
}

#[test]
fn a_big_objects_members_are_set_where_javascript_sets_them() {
    // 42 keys, `k5` twice (first position, last value): the object is searched
    // through its index, which must find what a search of every key finds
    let keys: String = (0..40).map(|i| format!(r#","k{i}":{i}"#)).collect();
    let log = [
        format!(r#"{{"kind":0,"v":{{"sessionId":"s","requests":[]{keys},"k5":"dup"}}}}"#),
        r#"{"kind":1,"k":["k100"],"v":1}"#.to_string(),
        r#"{"kind":3,"k":["k7"]}"#.to_string(),
        r#"{"kind":1,"k":["k7"],"v":"back"}"#.to_string(),
        r#"{"kind":1,"k":["k5"],"v":"five"}"#.to_string(),
        r#"{"kind":2,"k":["list"],"v":[1,2]}"#.to_string(),
        r#"{"kind":2,"k":["list"],"i":1,"v":[3]}"#.to_string(),
        r#"{"kind":1,"k":["k100"],"v":2}"#.to_string(),
        r#"{"kind":1,"k":["k39","x"],"v":1}"#.to_string(),
    ]
    .join("\n");
    let r = Replay::from_bytes(log.as_bytes());
    let want: String = (0..40)
        .map(|i| match i {
            5 => r#","k5":"five""#.to_string(),
            7 => r#","k7":"back""#.to_string(),
            i => format!(r#","k{i}":{i}"#),
        })
        .collect();
    assert_eq!(
        r.to_json(),
        format!(r#"{{"sessionId":"s","requests":[]{want},"k100":2,"list":[1,3]}}"#)
    );
    assert_eq!(r.errors().len(), 1);
    assert_eq!(
        r.errors()[0].error.to_string(),
        format!(
            "line 9 (byte {}): mutation not applied: TypeError: cannot set x on a number",
            log.rfind('\n').unwrap() + 1
        )
    );
}

#[test]
fn keys_added_one_a_line_are_all_kept_in_order() {
    // the audit's shape (`gen.py keys N`): N Sets of new root keys, each of which
    // searched every key before it (160,000: 51 s)
    let n = 5000;
    let mut log = String::from(r#"{"kind":0,"v":{"sessionId":"s","requests":[]}}"#);
    for i in 0..n {
        log.push_str(&format!("\n{{\"kind\":1,\"k\":[\"k{i}\"],\"v\":{i}}}"));
    }
    // and each set again, in reverse
    for i in (0..n).rev() {
        log.push_str(&format!(
            "\n{{\"kind\":1,\"k\":[\"k{i}\"],\"v\":\"again\"}}"
        ));
    }
    let r = Replay::from_bytes(log.as_bytes());
    assert!(r.errors().is_empty());
    let want: String = (0..n).map(|i| format!(r#","k{i}":"again""#)).collect();
    assert_eq!(
        r.to_json(),
        format!(r#"{{"sessionId":"s","requests":[]{want}}}"#)
    );
}

/// The rows' texts of a log of one request whose response is `parts`.
fn reply_texts(parts: &[String]) -> Vec<String> {
    let log = format!(
        "{{\"kind\":0,\"v\":{{\"sessionId\":\"s\",\"requests\":[{{\"requestId\":\"r\",\"message\":{{\"text\":\"hi\"}},\"response\":[{}]}}]}}}}\n",
        parts.join(",")
    );
    let r = Replay::from_bytes(log.as_bytes());
    rows_from_replay(&r, &ctx())
        .into_iter()
        .map(|r| r.text)
        .collect()
}

#[test]
fn a_reply_of_many_code_blocks_is_one_text() {
    // the audit's shape (`gen.py fence N`): markdown without a newline, each part
    // followed by a code block's URI, whose fence test searched the whole text for
    // its last line (80,000: 38 s)
    let n = 3000;
    let uri = r#"{"kind":"codeblockUri","uri":{"scheme":"file","path":"/a"}}"#;
    let mut parts = Vec::new();
    for i in 0..n {
        parts.push(format!(r#"{{"value":"y{i} "}}"#));
        parts.push(uri.to_string());
    }
    let text: String = (0..n).map(|i| format!("y{i} ")).collect();
    assert_eq!(
        reply_texts(&parts),
        ["session start: ", "hi", text.as_str()]
    );

    // code blocks of edits after a long blank tail: each fence pair is dropped, and
    // whether what is left is blank was asked of the whole text each time
    let mut parts = vec![format!(r#"{{"value":"x\n{}\n"}}"#, " ".repeat(100_000))];
    let edit = r#"{"kind":"codeblockUri","isEdit":true,"uri":{"scheme":"file","path":"/a/f.py"}}"#;
    for _ in 0..n {
        parts.push(r#"{"value":"```py\n"}"#.to_string());
        parts.push(edit.to_string());
        parts.push(r#"{"value":"```\n"}"#.to_string());
    }
    let texts = reply_texts(&parts);
    assert_eq!(texts.len(), 3 + n);
    assert_eq!(texts[2], format!("x\n{}\n", " ".repeat(100_000)));
    assert!(
        texts[3..]
            .iter()
            .all(|t| t == "edit: /a/f.py (no change recorded)")
    );
}

/// `levels` objects nested through `key`, the innermost `{"path":"/deep/f.rs"}`.
fn keyed_chain(key: &str, levels: usize) -> String {
    format!(
        "{}{{\"path\":\"/deep/f.rs\"}}{}",
        format!("{{\"{key}\":").repeat(levels - 1),
        "}".repeat(levels - 1)
    )
}

#[test]
fn the_rows_walk_values_as_deep_as_the_limit() {
    // values the rows walk down (a reference's nested `uri`, a tool's raw input and
    // output written out as JSON, a working directory given as an object), each
    // deepened by a Set at a long path to the limit: their rows on a worker's stack
    let request = format!(
        r#"{{"requestId":"r","message":{{"text":"hi"}},"response":[{{"kind":"inlineReference","inlineReference":{{"uri":{}}}}},{{"kind":"toolInvocationSerialized","toolId":"t","toolCallId":"c","toolSpecificData":{{"kind":"input","rawInput":{}}},"resultDetails":{{"output":[{{"value":{}}}]}}}}]}}"#,
        keyed_chain("uri", 240),
        keyed_chain("x", 240),
        keyed_chain("y", 240)
    );
    let mut log = format!(
        r#"{{"kind":0,"v":{{"sessionId":"s","workingDirectory":{},"requests":[{request}]}}}}"#,
        keyed_chain("w", 240)
    );
    // a Set of `key` in the innermost object (under `head`, then 239 levels of `key`)
    // to a chain as deep as a line may write, or the tree may be there
    let (mut deepened, mut deepest) = (Vec::new(), 0);
    for (head, key) in [
        (&["workingDirectory"][..], "w"),
        (
            &["requests", "0", "response", "0", "inlineReference", "uri"],
            "uri",
        ),
        (
            &[
                "requests",
                "0",
                "response",
                "1",
                "toolSpecificData",
                "rawInput",
            ],
            "x",
        ),
        (
            &[
                "requests",
                "0",
                "response",
                "1",
                "resultDetails",
                "output",
                "0",
                "value",
            ],
            "y",
        ),
    ] {
        let mut path: Vec<String> = head.iter().map(|s| format!("{s:?}")).collect();
        path.extend(std::iter::repeat_n(format!("{key:?}"), 239));
        path.push(format!("{key:?}"));
        // as deep as one line may write (the value is inside the line's object)
        let levels = (MAX_TREE_DEPTH - path.len()).min(MAX_DEPTH - 1);
        deepest = deepest.max(path.len() + levels);
        log.push_str(&format!(
            "\n{{\"kind\":1,\"k\":[{}],\"v\":{}}}",
            path.join(","),
            keyed_chain(key, levels)
        ));
        // the value as written out: 239 levels of `key`, then the innermost object
        // holding the chain under `key` beside its `path`
        deepened.push(format!(
            "{}{{\"path\":\"/deep/f.rs\",\"{key}\":{}}}{}",
            format!("{{\"{key}\":").repeat(239),
            keyed_chain(key, levels),
            "}".repeat(239)
        ));
    }
    log.push('\n');
    let (nesting, errors, rows) = with_stack(HALF_A_WORKERS_STACK, || {
        let r = Replay::from_bytes(log.as_bytes());
        let mut lent = Vec::new();
        for_each_row(&r, &ctx(), |row| lent.push(row.clone()));
        let rows = rows_from_replay(&r, &ctx());
        assert!(lent == rows);
        let (nesting, errors) = (json_nesting(&r.to_json()), r.errors().len());
        assert!(into_rows(r, &ctx()) == rows);
        (nesting, errors, rows)
    });
    assert_eq!((nesting, errors), (503, 0));
    assert_eq!(deepest, 503);
    let texts: Vec<&str> = rows.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "session start: ",
            "hi",
            "f.rs",
            deepened[2].as_str(),
            deepened[3].as_str()
        ]
    );
    // the working directory, an object without a path, names no project
    assert!(rows.iter().all(|r| r.project_path.is_empty()));
}
