//! Conformance of the replay with VS Code's reader (`objectMutationLog.ts`), written
//! from the semantics in `vscode-mutation-log.md`: for each log VS Code loads, the state
//! after a JSON round trip; for each it refuses, the reason and that we still go on.

use vscode_chat_log::Replay;

fn state(log: &str) -> String {
    let r = Replay::from_bytes(log.as_bytes());
    assert!(
        r.refusal().is_none(),
        "VS Code would load this: {:?} / {:?}",
        r.refusal(),
        r.errors()
    );
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    r.to_json()
}

fn refused(log: &[u8]) -> (String, String, Vec<String>) {
    let r = Replay::from_bytes(log);
    let refusal = r.refusal().expect("VS Code refuses this").to_string();
    let errors = r.errors().iter().map(|e| e.error.to_string()).collect();
    (r.to_json(), refusal, errors)
}

#[test]
fn every_kind() {
    let log = r#"{"kind":0,"v":{"a":1,"list":[1]}}
{"kind":1,"k":["a"],"v":2}
{"kind":2,"k":["list"],"v":[2,3]}
{"kind":3,"k":["a"]}
{"kind":1,"k":["b"]}
"#;
    assert_eq!(state(log), r#"{"list":[1,2,3]}"#);
}

#[test]
fn push_with_i_truncates_extends_and_may_lack_v() {
    let base = r#"{"kind":0,"v":{"l":[1,2,3,4]}}"#;
    assert_eq!(
        state(&format!(
            "{base}\n{{\"kind\":2,\"k\":[\"l\"],\"v\":[9],\"i\":1}}\n"
        )),
        r#"{"l":[1,9]}"#
    );
    assert_eq!(
        state(&format!("{base}\n{{\"kind\":2,\"k\":[\"l\"],\"i\":2}}\n")),
        r#"{"l":[1,2]}"#
    );
    assert_eq!(
        state(&format!(
            "{base}\n{{\"kind\":2,\"k\":[\"l\"],\"v\":[7],\"i\":6}}\n"
        )),
        r#"{"l":[1,2,3,4,null,null,7]}"#
    );
    // no v and no i: materialises the array and changes nothing
    assert_eq!(
        state(&format!("{base}\n{{\"kind\":2,\"k\":[\"l\"]}}\n")),
        r#"{"l":[1,2,3,4]}"#
    );
    // a numeric string i is coerced
    assert_eq!(
        state(&format!(
            "{base}\n{{\"kind\":2,\"k\":[\"l\"],\"i\":\"1\"}}\n"
        )),
        r#"{"l":[1]}"#
    );
    // an empty push on a missing key writes []
    assert_eq!(
        state(&format!("{base}\n{{\"kind\":2,\"k\":[\"m\"]}}\n")),
        r#"{"l":[1,2,3,4],"m":[]}"#
    );
}

#[test]
fn delete_keeps_the_keys_position() {
    let log = r#"{"kind":0,"v":{"a":1,"b":2}}
{"kind":3,"k":["a"]}
{"kind":1,"k":["a"],"v":3}
"#;
    assert_eq!(state(log), r#"{"a":3,"b":2}"#);
    // on an array element: undefined, written as null; no splice
    let log = "{\"kind\":0,\"v\":{\"l\":[1,2,3]}}\n{\"kind\":3,\"k\":[\"l\",1]}\n";
    assert_eq!(state(log), r#"{"l":[1,null,3]}"#);
}

#[test]
fn set_on_a_missing_key_and_on_an_empty_path() {
    assert_eq!(
        state("{\"kind\":0,\"v\":{\"a\":1}}\n{\"kind\":1,\"k\":[\"z\"],\"v\":{\"x\":[]}}\n"),
        r#"{"a":1,"z":{"x":[]}}"#
    );
    // Set on an array index past the end extends with holes
    assert_eq!(
        state("{\"kind\":0,\"v\":{\"l\":[]}}\n{\"kind\":1,\"k\":[\"l\",2],\"v\":5}\n"),
        r#"{"l":[null,null,5]}"#
    );
    // an empty path is a no-op in VS Code: the state is unchanged, VS Code loads the
    // file, and we still say the line's value was not applied
    let r = Replay::from_bytes(
        b"{\"kind\":0,\"v\":{\"a\":1}}\n{\"kind\":1,\"k\":[],\"v\":{\"b\":2}}\n",
    );
    assert!(r.refusal().is_none());
    assert_eq!(r.to_json(), r#"{"a":1}"#);
    assert_eq!(
        r.errors()[0].error.to_string(),
        "line 2 (byte 23): mutation not applied: empty path: VS Code ignores a Set on the root"
    );
}

#[test]
fn push_whose_v_is_not_an_array_still_truncates_and_pushes_nothing() {
    // `if (values && values.length > 0) arr.push(...values)`; `cur[last] = arr` after
    let base = r#"{"kind":0,"v":{"l":[1,2,3],"o":{}}}"#;
    for v in ["null", "5", "{}", "\"ab\"", "true", "{\"length\":2}"] {
        assert_eq!(
            state(&format!(
                "{base}\n{{\"kind\":2,\"k\":[\"l\"],\"v\":{v},\"i\":1}}\n"
            )),
            r#"{"l":[1],"o":{}}"#,
            "v = {v}"
        );
        assert_eq!(
            state(&format!(
                "{base}\n{{\"kind\":2,\"k\":[\"o\",\"m\"],\"v\":{v}}}\n"
            )),
            r#"{"l":[1,2,3],"o":{"m":[]}}"#,
            "v = {v}"
        );
    }
}

#[test]
fn push_onto_falsy_values() {
    let log = r#"{"kind":0,"v":{"n":null,"z":0,"e":"","f":false}}
{"kind":2,"k":["n"],"v":[1]}
{"kind":2,"k":["z"],"v":[2]}
{"kind":2,"k":["e"],"v":[3]}
{"kind":2,"k":["f"],"v":[4]}
"#;
    assert_eq!(state(log), r#"{"n":[1],"z":[2],"e":[3],"f":[4]}"#);
    // a truthy non-array refuses: arr.push is not a function
    let (json, refusal, _) =
        refused(b"{\"kind\":0,\"v\":{\"s\":\"x\"}}\n{\"kind\":2,\"k\":[\"s\"],\"v\":[1]}\n");
    assert_eq!(json, r#"{"s":"x"}"#);
    assert_eq!(
        refusal,
        "line 2: TypeError: [s] is a string, arr.push is not a function"
    );
}

#[test]
fn kind_zero_in_the_middle_replaces_the_state() {
    let log = r#"{"kind":0,"v":{"a":1}}
{"kind":1,"k":["b"],"v":2}
{"kind":0,"v":{"c":3}}
{"kind":1,"k":["d"],"v":4}
"#;
    assert_eq!(state(log), r#"{"c":3,"d":4}"#);
}

#[test]
fn numeric_string_indexes() {
    let log = r#"{"kind":0,"v":{"requests":[{"response":[]}]}}
{"kind":2,"k":["requests","0","response"],"v":[{"value":"x"}]}
{"kind":1,"k":["requests",0,"response","0","value"],"v":"y"}
"#;
    assert_eq!(state(log), r#"{"requests":[{"response":[{"value":"y"}]}]}"#);
    // on an object a number is a string key
    assert_eq!(
        state("{\"kind\":0,\"v\":{\"o\":{}}}\n{\"kind\":1,\"k\":[\"o\",7],\"v\":1}\n"),
        r#"{"o":{"7":1}}"#
    );
}

#[test]
fn crlf_blank_lines_no_trailing_newline() {
    let log = "\n{\"kind\":0,\"v\":{\"a\":1}}\r\n\n\n{\"kind\":1,\"k\":[\"a\"],\"v\":2}\r\n{\"kind\":1,\"k\":[\"b\"],\"v\":3}";
    let r = Replay::from_bytes(log.as_bytes());
    assert!(r.refusal().is_none());
    assert_eq!(r.to_json(), r#"{"a":2,"b":3}"#);
    let numbers: Vec<u64> = r.lines().iter().map(|l| l.number).collect();
    assert_eq!(numbers, [2, 5, 6]);
    assert_eq!(r.lines()[1].offset, 27);
}

#[test]
fn a_line_of_spaces_is_not_skipped_by_vs_code() {
    let (json, refusal, errors) =
        refused(b"{\"kind\":0,\"v\":{\"a\":1}}\n   \n{\"kind\":1,\"k\":[\"a\"],\"v\":2}\n");
    assert_eq!(json, r#"{"a":2}"#);
    assert_eq!(refusal, "line 2: SyntaxError: Unexpected end of JSON input");
    assert_eq!(errors, ["line 2 (byte 23): the line holds only whitespace"]);
}

#[test]
fn a_bom_makes_vs_code_refuse_but_we_read_on() {
    let (json, refusal, errors) = refused(b"\xEF\xBB\xBF{\"kind\":0,\"v\":{\"a\":1}}\n");
    assert_eq!(json, r#"{"a":1}"#);
    assert_eq!(
        refusal,
        "line 1: SyntaxError: the line starts with a byte order mark (U+FEFF)"
    );
    assert!(errors.is_empty());
}

#[test]
fn invalid_utf8_becomes_replacement_characters_as_in_vs_code() {
    let r = Replay::from_bytes(b"{\"kind\":0,\"v\":{\"t\":\"a\xffb\"}}\n");
    assert!(r.refusal().is_none());
    assert_eq!(r.to_json(), "{\"t\":\"a\u{fffd}b\"}");
}

#[test]
fn lone_surrogates_are_read() {
    let log = "{\"kind\":0,\"v\":{\"t\":\"cut \\ud83d\"}}\n{\"kind\":1,\"k\":[\"u\"],\"v\":\"\\ud83d\\ude00\"}\n";
    assert_eq!(state(log), "{\"t\":\"cut \u{fffd}\",\"u\":\"😀\"}");
}

#[test]
fn duplicate_keys_last_wins() {
    // in the line: the last kind wins; in the value: first position, last value
    let log = r#"{"kind":1,"kind":0,"v":{"a":1,"b":2,"a":3}}
{"kind":1,"k":["c"],"v":1,"v":2}
"#;
    assert_eq!(state(log), r#"{"a":3,"b":2,"c":2}"#);
}

#[test]
fn integers_beyond_2_pow_53_read_as_javascript_does() {
    let log = "{\"kind\":0,\"v\":{\"n\":9007199254740993,\"m\":12345678901234567890,\"f\":1.0,\"e\":1e21}}\n";
    assert_eq!(
        state(log),
        r#"{"n":9007199254740992,"m":12345678901234567000,"f":1,"e":1e+21}"#
    );
}

#[test]
fn refusals_are_reported_and_replay_goes_on() {
    // a missing intermediate: TypeError; the next line still applies
    let (json, refusal, errors) = refused(
        b"{\"kind\":0,\"v\":{\"requests\":[]}}\n{\"kind\":1,\"k\":[\"requests\",3,\"vote\"],\"v\":1}\n{\"kind\":1,\"k\":[\"x\"],\"v\":1}\n",
    );
    assert_eq!(json, r#"{"requests":[],"x":1}"#);
    assert_eq!(refusal, "line 2: TypeError: [requests, 3] is undefined");
    assert_eq!(
        errors,
        ["line 2 (byte 31): mutation not applied: TypeError: [requests, 3] is undefined"]
    );

    // unknown kind: assertNever
    let (_, refusal, errors) =
        refused(b"{\"kind\":0,\"v\":{}}\n{\"kind\":\"1\",\"k\":[\"a\"],\"v\":1}\n");
    assert_eq!(refusal, "line 2: Error: Unreachable");
    assert_eq!(errors, ["line 2 (byte 18): kind \"1\" is not 0, 1, 2 or 3"]);

    // negative i: RangeError
    let (_, refusal, _) =
        refused(b"{\"kind\":0,\"v\":{\"l\":[]}}\n{\"kind\":2,\"k\":[\"l\"],\"i\":-1}\n");
    assert_eq!(refusal, "line 2: RangeError: Invalid array length -1");

    // a broken middle line and a torn last line
    let (json, refusal, errors) = refused(b"{\"kind\":0,\"v\":{}}\n{\"kind\":1,\n{\"kind\":1,\"k\":[\"a\"],\"v\":1}\n{\"kind\":1,\"k\":[\"b\"]");
    assert_eq!(json, r#"{"a":1}"#);
    assert_eq!(
        refusal,
        "line 2: SyntaxError: EOF while parsing an object at line 1 column 10"
    );
    assert_eq!(
        errors,
        [
            "line 2 (byte 18): EOF while parsing an object at line 1 column 10",
            "line 4 (byte 56): torn last line: EOF while parsing an object at line 1 column 19",
        ]
    );

    // mutations before any kind 0 are applied to an empty session
    let (json, refusal, errors) =
        refused(b"{\"kind\":2,\"k\":[\"requests\"],\"v\":[{\"requestId\":\"r\"}]}\n");
    assert_eq!(json, r#"{"requests":[{"requestId":"r"}]}"#);
    assert_eq!(
        refusal,
        "line 1: Error: Log file is missing an initial entry"
    );
    assert_eq!(
        errors,
        ["line 1 (byte 0): log file is missing an initial entry"]
    );

    // an empty file
    let (json, refusal, errors) = refused(b"\n\n");
    assert_eq!(
        (json.as_str(), refusal.as_str(), errors.len()),
        ("null", "Error: Empty log file", 0)
    );
}

#[test]
fn raw_subtrees_are_materialised_when_a_mutation_walks_into_them() {
    let log = r#"{"kind":0,"v":{"inputState":{"inputText":"a","mode":{"id":"agent"}},"requests":[{"result":{"metadata":{"x":1}}}]}}
{"kind":1,"k":["inputState","inputText"],"v":"b"}
{"kind":1,"k":["requests",0,"result","metadata","y"],"v":2}
"#;
    assert_eq!(
        state(log),
        r#"{"inputState":{"inputText":"b","mode":{"id":"agent"}},"requests":[{"result":{"metadata":{"x":1,"y":2}}}]}"#
    );
}

#[test]
fn values_remember_their_line() {
    let log = "{\"kind\":0,\"v\":{\"requests\":[]}}\n{\"kind\":2,\"k\":[\"requests\"],\"v\":[{\"requestId\":\"r\"}]}\n";
    let r = Replay::from_bytes(log.as_bytes());
    let state = r.state().unwrap();
    let reqs = state.node.get("requests").unwrap();
    assert_eq!(r.line_number(reqs.origin), Some(1));
    let first = &reqs.node.as_array().unwrap()[0];
    assert_eq!(r.line_number(first.origin), Some(2));
    assert_eq!(r.lines()[first.origin as usize].offset, 31);
}

#[test]
fn holes_are_bounded_for_the_whole_log() {
    // every line asks for a million more holes: each is allowed on its own, but the
    // log as a whole may create at most MAX_TOTAL_HOLES (9 KB of log asked for 10 GB)
    use vscode_chat_log::decode::{MAX_HOLES, MAX_TOTAL_HOLES};
    let mut log = String::from("{\"kind\":0,\"v\":{\"l\":[]}}\n");
    for k in 1..=200 {
        log.push_str(&format!(
            "{{\"kind\":1,\"k\":[\"l\",{}],\"v\":{k}}}\n",
            k * MAX_HOLES
        ));
    }
    // and pushes with a growing length, the other way to ask for holes
    log.push_str(&format!(
        "{{\"kind\":2,\"k\":[\"m\"],\"i\":{MAX_HOLES},\"v\":[]}}\n"
    ));
    let r = Replay::from_bytes(log.as_bytes());
    assert!(r.refusal().is_none());
    let errors: Vec<String> = r.errors().iter().map(|e| e.error.to_string()).collect();
    // the first line fits (1 048 576 holes, all there are); the second would not
    assert_eq!(MAX_TOTAL_HOLES, MAX_HOLES);
    assert_eq!(errors.len(), 200);
    assert_eq!(
        errors[0],
        format!(
            "line 3 (byte 59): mutation not applied: index 2097152 would add 1048575 holes, more than the 0 this log has left of {MAX_TOTAL_HOLES}"
        )
    );
    assert_eq!(
        errors[199],
        format!(
            "line 202 (byte 7612): mutation not applied: length 1048576 would add 1048576 holes, more than the 0 this log has left of {MAX_TOTAL_HOLES}"
        )
    );
    let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    let l = json["l"].as_array().unwrap();
    assert_eq!(l.len(), MAX_HOLES + 1);
    assert_eq!(l[MAX_HOLES], 1);
}
