//! Sessions nested deeper than the parser reads ([`json::MAX_DEPTH`]): `JSON.parse`
//! has no depth limit, so VS Code loads them. What lies deeper is validated and
//! skipped without recursion, a placeholder keeps its place, the rest of the session
//! gives its rows, and one `parser:` row says what was not read and that the limit is
//! ours, never VS Code's.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chat_rows::{Evidence, FileContext, Row, Store};
use common::brief;
use vscode_chat_log::decode::json::MAX_DEPTH;
use vscode_chat_log::{ChatLogStore, Replay, SessionContext};

/// A `User` folder of this test's own (`name` keeps the tests apart).
fn user(name: &str) -> PathBuf {
    std::env::temp_dir()
        .join(format!(
            "vscode-chat-log-deep-{name}-{}",
            std::process::id()
        ))
        .join("User")
}

/// Writes `files` (paths under `User/workspaceStorage/ws/chatSessions/`) and reads each
/// through the store, as the scanner does: its rows in brief, with their times.
fn read_all(name: &str, files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = user(name).join("workspaceStorage/ws/chatSessions");
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        out.push(read(&path));
    }
    std::fs::remove_dir_all(user(name).parent().unwrap()).unwrap();
    out
}

fn read(path: &Path) -> Vec<String> {
    let rows = ChatLogStore.read(path, &FileContext::default(), &Evidence::new());
    rows.iter().map(timed).collect()
}

/// A row in brief, then its time.
fn timed(r: &Row) -> String {
    format!(
        "{} @ {}",
        brief(r),
        r.timestamp.map_or("-".to_string(), |t| t.to_string())
    )
}

/// The audit's session (t13): shallow paths the rows read, and a `result.metadata`
/// subtree no row reads nested `levels` arrays deep under its key.
fn session(id: &str, levels: usize) -> String {
    format!(
        r#"{{"sessionId": "{id}", "creationDate": 1759400000000, "requests": [{{"requestId": "r1", "timestamp": 1759400001000, "message": {{"text": "important prompt"}}, "response": [{{"value": "important answer"}}], "responseTimestamp": 1759400002000, "result": {{"metadata": {{"toolCallResults": {}0{}}}}}}}]}}"#,
        "[".repeat(levels),
        "]".repeat(levels)
    )
}

/// Where the first array too deep to read opens: after `levels` levels around it.
fn opening_of_level(text: &str, level: usize) -> usize {
    let mut depth = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.bytes().enumerate() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth == level {
                    return i;
                }
            }
            b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    panic!("no level {level}")
}

#[test]
fn a_session_nested_deeper_than_the_limit_keeps_its_rows() {
    let control = format!("{{\"kind\": 0, \"v\": {}}}\n", session("ctl", 200));
    let line = format!("{{\"kind\": 0, \"v\": {}}}\n", session("deepl", 300));
    let flat = session("deepj", 300);
    let rows = read_all(
        "t13",
        &[
            ("ctl.jsonl", &control),
            ("deepl.jsonl", &line),
            ("deepj.json", &flat),
        ],
    );
    // the first array not read is the one at level 257 of the file
    let (at_line, at_flat) = (
        opening_of_level(&line, MAX_DEPTH + 1),
        opening_of_level(&flat, MAX_DEPTH + 1),
    );
    assert_eq!((at_line, at_flat), (547, 531));
    assert_eq!(
        rows,
        [
            vec![
                "system 1 [byte 0] live session start:  @ 2025-10-02T10:13:20.000000Z",
                "user 1 [byte 0] live important prompt @ 2025-10-02T10:13:21.000000Z",
                "assistant 1 [byte 0] live important answer @ 2025-10-02T10:13:22.000000Z",
            ],
            vec![
                "system 1 [byte 0] live session start:  @ 2025-10-02T10:13:20.000000Z",
                "user 1 [byte 0] live important prompt @ 2025-10-02T10:13:21.000000Z",
                "assistant 1 [byte 0] live important answer @ 2025-10-02T10:13:22.000000Z",
                "system 1 [byte 0] live parser: nested deeper than 256 levels at byte 547: \
                 not read (VS Code would load it) @ -",
            ],
            vec![
                "system - [$] live session start:  @ 2025-10-02T10:13:20.000000Z",
                "user - [$.requests[0].message] live important prompt @ 2025-10-02T10:13:21.000000Z",
                "assistant - [$.requests[0].response[0]] live important answer @ 2025-10-02T10:13:22.000000Z",
                "system - [byte 0] live parser: nested deeper than 256 levels at byte 531: \
                 not read (VS Code would load it) @ -",
            ],
        ]
    );
    // the replayed state is VS Code's but for the subtree not read: `toolCallResults`
    // is level 7 of the line (the line, `v`, `requests`, the request, `result` and
    // `metadata` around it), so 250 of its arrays are read and the 251st is a `null`
    let r = Replay::from_bytes(line.as_bytes());
    assert!(r.refusal().is_none());
    let read = MAX_DEPTH - 6;
    assert_eq!(at_line, line.find("[[").unwrap() + read);
    let want = session("deepl", 300)
        .replace(": ", ":")
        .replace(", ", ",")
        .replace(
            &format!("{}0{}", "[".repeat(300), "]".repeat(300)),
            &format!("{}null{}", "[".repeat(read), "]".repeat(read)),
        );
    assert_eq!(r.to_json(), want);
}

#[test]
fn a_hundred_thousand_open_brackets_stay_fast_and_on_the_stack() {
    let n = 100_000;
    let deep = format!("{}0{}", "[".repeat(n), "]".repeat(n));
    let body = |v: &str| {
        format!(
            r#"{{"sessionId":"h","creationDate":1759400000000,"requests":[{{"requestId":"r1","timestamp":1759400001000,"message":{{"text":"p"}},"response":[{{"value":"a"}}],"responseTimestamp":1759400002000,"x":{v}}}],"y":{v}}}"#
        )
    };
    let closed = body(&deep);
    let log = format!("{{\"kind\":0,\"v\":{closed}}}\n");
    // cut: 100,000 arrays never closed, the line ends; not JSON, for VS Code too
    let open = format!(
        "{{\"kind\":0,\"v\":{{\"sessionId\":\"h\",\"x\":{}",
        "[".repeat(n)
    );
    let (rows, took) = std::thread::scope(|s| {
        std::thread::Builder::new()
            // half a scan worker's stack; recursing 100,000 levels would need far more
            .stack_size(1 << 20)
            .spawn_scoped(s, || {
                let start = Instant::now();
                let rows = read_all(
                    "brackets",
                    &[
                        ("h.jsonl", &log),
                        ("hj.json", &closed),
                        ("open.jsonl", &open),
                        ("openj.json", &open[14..]),
                    ],
                );
                (rows, start.elapsed())
            })
            .unwrap()
            .join()
            .unwrap()
    });
    // linear: a few milliseconds in a release build; a quadratic walk of 100,000
    // levels would take minutes
    assert!(took < Duration::from_secs(20), "{took:?}");
    let at_log = opening_of_level(&log, MAX_DEPTH + 1);
    let at_flat = opening_of_level(&closed, MAX_DEPTH + 1);
    assert_eq!((at_log, at_flat), (456, 443));
    let eof = format!("EOF while parsing a value at line 1 column {}", open.len());
    assert_eq!(
        rows,
        [
            vec![
                "system 1 [byte 0] live session start:  @ 2025-10-02T10:13:20.000000Z".to_string(),
                "user 1 [byte 0] live p @ 2025-10-02T10:13:21.000000Z".into(),
                "assistant 1 [byte 0] live a @ 2025-10-02T10:13:22.000000Z".into(),
                "system 1 [byte 0] live parser: nested deeper than 256 levels at byte 456 and 1 \
                 more place: not read (VS Code would load it) @ -"
                    .into(),
            ],
            vec![
                "system - [$] live session start:  @ 2025-10-02T10:13:20.000000Z".to_string(),
                "user - [$.requests[0].message] live p @ 2025-10-02T10:13:21.000000Z".into(),
                "assistant - [$.requests[0].response[0]] live a @ 2025-10-02T10:13:22.000000Z"
                    .into(),
                "system - [byte 0] live parser: nested deeper than 256 levels at byte 443 and 1 \
                 more place: not read (VS Code would load it) @ -"
                    .into(),
            ],
            vec![
                format!(
                    "system 1 [byte 0] live {} @ -",
                    chat_rows::system::unparseable_line_bytes(
                        format!("torn last line: {eof}"),
                        open.as_bytes()
                    )
                ),
                format!(
                    "system 1 [byte 0] live parser: VS Code would not load this file (line 1: \
                     SyntaxError: torn last line: {eof}) @ -"
                ),
            ],
            vec![format!(
                "system - [byte 0] live parser: file is not valid JSON (EOF while parsing a value \
                 at line 1 column {}) @ -",
                open.len() - 14
            )],
        ]
    );
}

/// A log whose kind 0 holds `d`, 300 arrays deep, and whose second line is `line2`.
fn deep_then(line2: &str) -> String {
    format!(
        "{{\"kind\":0,\"v\":{{\"sessionId\":\"s\",\"requests\":[],\"d\":{}0{}}}}}\n{line2}\n",
        "[".repeat(300),
        "]".repeat(300)
    )
}

#[test]
fn a_mutation_into_what_was_not_read_is_not_applied_without_the_refusal() {
    // `d`'s arrays are levels 3 to 256 of the line: 254 read, the 255th a placeholder
    let zeros = |n: usize| vec!["0"; n].join(",");
    let briefs = |log: &str| {
        let r = Replay::from_bytes(log.as_bytes());
        assert!(r.refusal().is_none(), "{:?}", r.refusal());
        let rows =
            vscode_chat_log::rows::rows_from_replay(&r, &SessionContext::new("vscode", "s.jsonl"));
        (
            rows.iter().map(brief).collect::<Vec<_>>(),
            r.to_json().matches('[').count(),
        )
    };
    let set_in = deep_then(&format!(r#"{{"kind":1,"k":["d",{}],"v":1}}"#, zeros(255)));
    let push_in = deep_then(&format!(r#"{{"kind":2,"k":["d",{}],"v":[1]}}"#, zeros(254)));
    let line2 = |log: &str| log.find("\n{").unwrap() + 1;
    let path = |n: usize| format!("[d, {}]", vec!["0"; n].join(", "));
    let at = opening_of_level(&set_in, MAX_DEPTH + 1);
    assert_eq!(at, set_in.find("[[").unwrap() + MAX_DEPTH - 2);
    let deep_row = format!(
        "system 1 [byte 0] live parser: nested deeper than 256 levels at byte {at}: not read \
         (VS Code would load it)"
    );
    let not_read = |log: &str, n: usize| {
        let start = line2(log);
        format!(
            "system 2 [byte {start}] live {}",
            chat_rows::system::mutation_not_applied_bytes(
                format!("{} was nested deeper than 256 levels and not read", path(n)),
                &log.as_bytes()[start..log.len() - 1]
            )
        )
    };
    let (rows, _) = briefs(&set_in);
    assert_eq!(
        rows,
        [
            "system 1 [byte 0] live session start: ".to_string(),
            deep_row.clone(),
            not_read(&set_in, 254),
        ]
    );
    let (rows, _) = briefs(&push_in);
    assert_eq!(
        rows,
        [
            "system 1 [byte 0] live session start: ".to_string(),
            deep_row.clone(),
            not_read(&push_in, 254),
        ]
    );
    // a Set of the placeholder itself replaces it, as VS Code's would replace the value
    let (rows, brackets) = briefs(&deep_then(&format!(
        r#"{{"kind":1,"k":["d",{}],"v":7}}"#,
        zeros(254)
    )));
    assert_eq!(
        rows,
        [
            "system 1 [byte 0] live session start: ".to_string(),
            deep_row
        ]
    );
    // `requests` and `d`'s 254 arrays read (the placeholder now 7)
    assert_eq!(brackets, 1 + 254);
}
