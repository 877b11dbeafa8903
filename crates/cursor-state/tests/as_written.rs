//! A tool call's `params`, `result` and `error` that are not strings are printed as the
//! bubble's JSON text has them (keys in the writer's order, escapes and numbers as
//! written), not key-sorted from the decoded value; without the text (an inline bubble
//! of a `composerData`) the decoded value is printed.
use cursor_state::rows::Place;
use cursor_state::rows::ide::{Models, bubble_rows, bubble_rows_in};

const BUBBLE: &str = r#"{"bubbleId":"b1","type":2,"text":"","toolFormerData":{"name":"edit_file","toolCallId":"call_1","status":"error","params":{"target_file":"a.py","instructions":"caf\u00e9","n":12345678901234567890123},"result":{"zeta":[1, 2],"alpha":null},"error":{"message":"x"}}}"#;

fn texts(raw: Option<&str>) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(BUBBLE).unwrap();
    let mut models = Models::default();
    let rows = match raw {
        Some(r) => bubble_rows_in(&v, Some(r), &Place::default(), &mut models),
        None => bubble_rows(&v, &Place::default(), &mut models),
    };
    rows.into_iter()
        .map(|r| format!("{}|{}|{}", r.turn_type, r.tool_use_id, r.text))
        .collect()
}

#[test]
fn tool_json_as_written() {
    assert_eq!(
        texts(Some(BUBBLE)),
        [
            r#"tool_use|call_1|{"target_file":"a.py","instructions":"caf\u00e9","n":12345678901234567890123}"#,
            r#"tool_result|call_1|{"zeta":[1,2],"alpha":null}"#,
            "system|call_1|tool status: error",
        ]
    );
    // without the text: the decoded value, key-sorted, the number rounded
    assert_eq!(
        texts(None),
        [
            r#"tool_use|call_1|{"instructions":"café","n":1.2345678901234568e+22,"target_file":"a.py"}"#,
            r#"tool_result|call_1|{"alpha":null,"zeta":[1,2]}"#,
            "system|call_1|tool status: error",
        ]
    );
}

/// A CLI message blob's tool-call `args` and object tool result, bare JSON and wrapped
/// in a protobuf field: as the blob's text has them.
#[test]
fn message_blob_json_as_written() {
    use cursor_state::rows::ide::blob_rows;
    let msg = r#"{"role":"assistant","content":[{"type":"tool-call","toolName":"edit","toolCallId":"c1","args":{"path":"a.py","n":12345678901234567890123,"body":"caf\u00e9"}},{"type":"tool-result","toolName":"edit","toolCallId":"c1","result":{"z":1,"a":[2, 1]}}]}"#;
    let mut wrapped = vec![0x12u8]; // field 2, length-delimited
    let mut n = msg.len();
    while n >= 0x80 {
        wrapped.push((n as u8) | 0x80);
        n >>= 7;
    }
    wrapped.push(n as u8);
    wrapped.extend_from_slice(msg.as_bytes());
    for bytes in [msg.as_bytes(), &wrapped[..]] {
        let rows: Vec<String> = blob_rows(bytes, "blob1", &Place::default())
            .into_iter()
            .map(|r| format!("{}|{}|{}", r.turn_type, r.tool_use_id, r.text))
            .collect();
        assert_eq!(
            rows,
            [
                r#"tool_use|c1|{"path":"a.py","n":12345678901234567890123,"body":"caf\u00e9"}"#,
                r#"tool_result|c1|{"z":1,"a":[2,1]}"#,
            ]
        );
    }
}
