//! `rows::into_rows` (which frees the tree as it goes) and `rows::for_each_row` (which
//! hands the rows over one at a time) yield exactly the rows of `rows::rows_from_replay`, on every fixture log and on logs with recovered values,
//! bad lines, a refusal, a session that is no object and a duplicate `requests` key.

mod common;

use vscode_chat_log::rows::{for_each_row, into_rows, rows_from_replay};
use vscode_chat_log::{Replay, SessionContext};

fn same_rows(log: &[u8]) -> usize {
    let ctx = SessionContext::new("vscode", "s.jsonl");
    let borrowed = rows_from_replay(&Replay::from_bytes(log), &ctx);
    let consumed = into_rows(Replay::from_bytes(log), &ctx);
    assert_eq!(consumed, borrowed, "{}", String::from_utf8_lossy(log));
    let mut streamed = Vec::new();
    for_each_row(&Replay::from_bytes(log), &ctx, |row| {
        streamed.push(row.clone())
    });
    assert_eq!(streamed, borrowed, "{}", String::from_utf8_lossy(log));
    consumed.len()
}

#[test]
fn fixture_logs() {
    let logs = common::fixture_logs();
    assert!(logs.len() >= 4, "{logs:?}");
    for p in &logs {
        let bytes = std::fs::read(p).unwrap();
        assert!(same_rows(&bytes) > 0, "{}", p.display());
    }
}

const BASE: &str = r#"{"kind":0,"v":{"sessionId":"s","requests":[{"requestId":"a","message":{"text":"first"},"response":[{"value":"one"}]},{"requestId":"b","message":{"text":"second"},"response":[{"value":"two"},{"kind":"thinking","value":"hmm"}]}]}}"#;

#[test]
fn edge_logs() {
    let cases = [
        (format!("{BASE}\n{{\"kind\":3,\"k\":[\"requests\",1]}}\n"), 6),
        (
            format!(
                "{BASE}\n{{\"kind\":2,\"k\":[\"requests\",1,\"response\"],\"i\":0,\"v\":[{{\"value\":\"other\"}}]}}\n"
            ),
            7,
        ),
        (format!("{BASE}\nnot json\n{{\"kind\":9}}\n"), 9),
        ("{\"kind\":1,\"k\":[\"x\"],\"v\":1}\n".to_string(), 3),
        ("{\"kind\":0,\"v\":[1,2]}\n".to_string(), 1),
        (
            r#"{"kind":0,"v":{"requests":[{"message":{"text":"old"}}],"sessionId":"d","requests":[{"message":{"text":"new"}},null]}}"#
                .to_string()
                + "\n",
            2,
        ),
        (String::new(), 1),
    ];
    for (log, n) in &cases {
        assert_eq!(same_rows(log.as_bytes()), *n, "{log}");
    }
}
