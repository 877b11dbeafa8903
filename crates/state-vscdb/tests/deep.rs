//! ItemTable values nested deeper than serde_json reads (128 levels): `JSON.parse`, VS
//! Code's reader, has no limit, so such a value is VS Code's all the same. What begins
//! deeper than 120 levels is read as `null`, the rest of the value gives its rows, and
//! one `parser:` row says where (the audit's t14 and t16, 2026-12-02, which gave only
//! `... is not valid JSON (recursion limit exceeded ...)`).

use std::time::{Duration, Instant};

use chat_rows::{RecordState, Row};
use rusqlite::{Connection, params};
use state_vscdb::StateDb;
use state_vscdb::rows::{Context, rows};

/// A database whose ItemTable holds `items`.
fn build(items: &[(&str, &str)]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("state.vscdb");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);")
        .unwrap();
    for (k, v) in items {
        conn.execute("INSERT INTO ItemTable VALUES (?1, ?2)", params![k, v])
            .unwrap();
    }
    drop(conn);
    std::fs::read(&p).unwrap()
}

fn ctx(project: &str) -> Context {
    Context {
        agent: "vscode".into(),
        source_file: "state.vscdb".into(),
        user_path: "User/workspaceStorage/ws/state.vscdb".into(),
        project_path: project.into(),
        ..Context::default()
    }
}

fn rows_of(items: &[(&str, &str)], project: &str) -> Vec<Row> {
    rows(
        &StateDb::from_bytes(&build(items), None).unwrap(),
        &ctx(project),
    )
}

/// (time, session, turn type, text, locator, project) of each row, all live.
fn view(rows: &[Row]) -> Vec<[String; 6]> {
    assert!(rows.iter().all(|r| r.record_state == RecordState::Live));
    rows.iter()
        .map(|r| {
            [
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.session_id.clone(),
                r.turn_type.to_string(),
                r.text.clone(),
                r.source_locator.clone(),
                r.project_path.clone(),
            ]
        })
        .collect()
}

fn s(v: [&str; 6]) -> [String; 6] {
    v.map(String::from)
}

/// The audit's t14: two legacy sessions, the second with a `result.metadata` whose
/// `x` nests `depth` arrays (as Python's `json.dumps` writes it).
fn legacy_sessions(depth: usize) -> String {
    format!(
        r#"[{{"sessionId": "L1", "creationDate": 1700000000000, "requests": [{{"message": "legacy prompt one", "timestamp": 1700000001000, "response": [{{"value": "legacy answer one"}}]}}]}}, {{"sessionId": "L2", "creationDate": 1700000100000, "requests": [{{"message": "legacy prompt two", "timestamp": 1700000101000, "response": [{{"value": "answer two"}}], "result": {{"metadata": {{"x": {}{}}}}}}}]}}]"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

#[test]
fn legacy_sessions_nested_deeper_than_serde_json_reads_keep_their_rows() {
    let deep = legacy_sessions(140);
    let got = view(&rows_of(&[("interactive.sessions", &deep)], "/srv/p"));
    let loc = "ItemTable key=interactive.sessions";
    let sessions = [
        s([
            "2023-11-14T22:13:20.000000Z",
            "L1",
            "system",
            "session start: ",
            &format!("{loc} [0] $"),
            "/srv/p",
        ]),
        s([
            "2023-11-14T22:13:21.000000Z",
            "L1",
            "user",
            "legacy prompt one",
            &format!("{loc} [0] $.requests[0].message"),
            "/srv/p",
        ]),
        s([
            "2023-11-14T22:13:21.000000Z",
            "L1",
            "assistant",
            "legacy answer one",
            &format!("{loc} [0] $.requests[0].response[0] (time of the request)"),
            "/srv/p",
        ]),
        s([
            "2023-11-14T22:15:00.000000Z",
            "L2",
            "system",
            "session start: ",
            &format!("{loc} [1] $"),
            "/srv/p",
        ]),
        s([
            "2023-11-14T22:15:01.000000Z",
            "L2",
            "user",
            "legacy prompt two",
            &format!("{loc} [1] $.requests[0].message"),
            "/srv/p",
        ]),
        s([
            "2023-11-14T22:15:01.000000Z",
            "L2",
            "assistant",
            "answer two",
            &format!("{loc} [1] $.requests[0].response[0] (time of the request)"),
            "/srv/p",
        ]),
    ];
    let mut want = vec![s([
        "",
        "",
        "system",
        "parser: ItemTable value for interactive.sessions is nested deeper than 120 levels at byte 482: that part not read (VS Code would load it)",
        loc,
        "/srv/p",
    ])];
    want.extend(sessions.iter().cloned());
    assert_eq!(got, want);
    // byte 482 is the opening bracket of level 121: `x`'s 115th array (the document
    // is level 1, its session 2, `requests` 3, the request 4, `result` 5, `metadata` 6)
    let x = deep.find("\"x\": ").unwrap() + 5;
    assert_eq!(x + 114, 482);
    assert_eq!(&deep[480..484], "[[[[");
    // the control, nested 30 deep, gives the same rows without the parser row
    let control = view(&rows_of(
        &[("interactive.sessions", &legacy_sessions(30))],
        "/srv/p",
    ));
    assert_eq!(control, sessions);
}

#[test]
fn a_copilot_chat_value_nested_deeper_than_serde_json_reads_keeps_its_tasks() {
    let value = |depth: usize| {
        format!(
            r#"{{"github.copilot.cloudAgent.ownedTasks": {{"555": {{"recordedAt": 1791025400000, "application": "vscode"}}}}, "someCachedSchema": {}0{}}}"#,
            r#"{"a": "#.repeat(depth),
            "}".repeat(depth)
        )
    };
    let deep = value(130);
    let got = view(&rows_of(&[("GitHub.copilot-chat", &deep)], ""));
    let loc = "ItemTable key=GitHub.copilot-chat";
    let from =
        "(from state.vscdb GitHub.copilot-chat github.copilot.cloudAgent.ownedTasks, recordedAt)";
    let tasks = [
        s([
            "2026-10-03T11:03:20.000000Z",
            "copilot-cloud-agent:/task/555",
            "system",
            &format!("session synced: cloud agent task 555 application=vscode {from}"),
            loc,
            "",
        ]),
        s([
            "2026-10-03T11:03:20.000000Z",
            "copilot-cloud-agent:/task/555",
            "system",
            &format!("session origin: remote GitHub cloud agent {from}"),
            loc,
            "",
        ]),
    ];
    let mut want = vec![s([
        "",
        "",
        "system",
        "parser: ItemTable value for GitHub.copilot-chat is nested deeper than 120 levels at byte 840: that part not read (VS Code would load it)",
        loc,
        "",
    ])];
    want.extend(tasks.iter().cloned());
    assert_eq!(got, want);
    // the document is level 1, `someCachedSchema` 2: its 120th object is level 121
    let schema = deep.find("\"someCachedSchema\": ").unwrap() + 20;
    assert_eq!(schema + 119 * 6, 840);
    assert_eq!(&deep[840..846], r#"{"a": "#);
    assert_eq!(
        view(&rows_of(&[("GitHub.copilot-chat", &value(10))], "")),
        tasks
    );
}

/// A value deep in two places is one row, which counts them.
#[test]
fn two_deep_places_are_one_row() {
    let deep = format!(
        "[{{\"sessionId\":\"a\",\"creationDate\":1700000000000,\"requests\":[],\"x\":{0}{1},\"y\":{0}{1}}}]",
        "[".repeat(200),
        "]".repeat(200)
    );
    let got = view(&rows_of(&[("interactive.sessions", &deep)], ""));
    assert_eq!(
        got[0][3],
        "parser: ItemTable value for interactive.sessions is nested deeper than 120 levels at byte 183 and 1 more place: that part not read (VS Code would load it)"
    );
    // `x` is level 2, its arrays levels 3 on: its 119th is level 121
    assert_eq!(deep.find("\"x\":").unwrap() + 4 + 118, 183);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[1][3], "session start: ");
}

/// A deep value that is not JSON (`JSON.parse` would throw) keeps serde_json's error,
/// whether the fault lies in the part that would be cut or outside it.
#[test]
fn an_invalid_deep_value_keeps_its_original_error() {
    let open = "[".repeat(200);
    let close = "]".repeat(200);
    for (bad, reason) in [
        (
            format!("{open}1,]{}", "]".repeat(199)),
            "recursion limit exceeded at line 1 column 128",
        ),
        (
            format!("{open}\"\\x\"{close}"),
            "recursion limit exceeded at line 1 column 128",
        ),
        (
            format!("{open}{}", "]".repeat(199)),
            "recursion limit exceeded at line 1 column 128",
        ),
        (
            format!("[{open}{close},]"),
            "recursion limit exceeded at line 1 column 128",
        ),
        (
            format!("[1,]{open}{close}"),
            "trailing comma at line 1 column 4",
        ),
    ] {
        let got = view(&rows_of(&[("interactive.sessions", &bad)], ""));
        assert_eq!(
            got,
            [s([
                "",
                "",
                "system",
                &format!(
                    "parser: ItemTable value for interactive.sessions is not valid JSON ({reason})"
                ),
                "ItemTable key=interactive.sessions",
                "",
            ])],
            "{bad}"
        );
    }
}

/// Ten megabytes of `[` (and the same closed) on a thread with a 1 MiB stack: no
/// overflow, a pass over the bytes, the same rows as a shallow value of that shape.
#[test]
fn ten_megabytes_of_open_brackets_stay_fast_and_on_a_small_stack() {
    let n = 10 << 20;
    let open = "[".repeat(n);
    let closed = format!("{}{}", &open[..n / 2], "]".repeat(n / 2));
    let (open_db, closed_db) = (
        build(&[("interactive.sessions", &open)]),
        build(&[("interactive.sessions", &closed)]),
    );
    let took = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let started = Instant::now();
            let got = view(&rows(&StateDb::from_bytes(&open_db, None).unwrap(), &ctx("")));
            assert_eq!(
                got,
                [s([
                    "",
                    "",
                    "system",
                    "parser: ItemTable value for interactive.sessions is not valid JSON (recursion limit exceeded at line 1 column 128)",
                    "ItemTable key=interactive.sessions",
                    "",
                ])]
            );
            let got = view(&rows(&StateDb::from_bytes(&closed_db, None).unwrap(), &ctx("")));
            let shallow = format!("{}{}", "[".repeat(3), "]".repeat(3));
            let mut want = vec![s([
                "",
                "",
                "system",
                "parser: ItemTable value for interactive.sessions is nested deeper than 120 levels at byte 120: that part not read (VS Code would load it)",
                "ItemTable key=interactive.sessions",
                "",
            ])];
            want.extend(view(&rows_of_bytes(&shallow)));
            assert_eq!(got, want);
            started.elapsed()
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(took < Duration::from_secs(10), "{took:?}");
}

fn rows_of_bytes(value: &str) -> Vec<Row> {
    rows_of(&[("interactive.sessions", value)], "")
}
