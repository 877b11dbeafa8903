//! The rows of every VS Code fixture in `fixtures/evidence`, pinned.

mod common;

use chat_rows::{RecordState, TurnType};
use common::{briefs, mtime, read};

const ALICE: &str = "lin-ws01/home/alice/.config/Code/User";

#[test]
fn log_with_recovery_permissions_and_damage() {
    let rows = read(
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system 1 [byte 0] live session start: title=\"Run the tests\" responder=\"GitHub Copilot\" location=panel",
            "system 1 [byte 0] live permission mode: agent",
            "system 1 [byte 0] live permission level: autoApprove",
            "system 1 [byte 0] live model: copilot/gpt-4.1 reasoningEffort=high",
            "user 1 [byte 0] live run tests",
            "thinking 1 [byte 0] live Need pytest",
            "tool_use 1 [byte 0] live <call_a> pytest",
            "tool_result 1 [byte 0] live <call_a> 3 passed",
            "system 1 [byte 0] live <call_a> permission decision: confirmed=UserAction(4) selectedButton=allow tool_source=internal",
            "assistant 1 [byte 0] live All tests pass. Nothing to fix.",
            "user 2 [byte 1310] live thanks",
            "assistant 3 [byte 1686] live You're welcome.",
            "system 7 [byte 2286] live permission mode: agent -> ask",
            "system 7 [byte 2286] live permission level: autoApprove -> default",
            "system 7 [byte 2286] live model: copilot/gpt-4.1 reasoningEffort=high -> copilot/claude-sonnet-4",
            "user 7 [byte 2286] live write a haiku instead",
            "system 8 [byte 2626] live permission decision: confirmation isUsed=true buttons=Delegate,Cancel title=Delegate to cloud agent?\nThis sends the chat to GitHub.",
            "system 8 [byte 2626] live session synced: cloud agent hand-off title=\"Write a haiku\" uri=https://github.com/alice/proj/pull/7 (from chat session pullRequest part, response time)",
            "user 9 [byte 3009] live Delegate: \"Delegate to cloud agent?\"",
            "system 9 [byte 3009] live permission decision: confirmation=Delegate",
            "assistant 9 [byte 3009] live Delegated.",
            "assistant 5 [byte 1854] recovered Roses are red",
            "user 5 [byte 1854] recovered write a poem",
            "assistant 6 [byte 2204] recovered Violets are blue",
            "system 10 [byte 3407] live parser: unparseable line (EOF while parsing an object at line 1 column 41): {\"kind\":1,\"k\":[\"requests\",4,\"vote\"],\"v\":1",
            "system 11 [byte 3449] live parser: mutation not applied (TypeError: [requests, 9] is undefined): {\"kind\":1,\"k\":[\"requests\",9,\"response\",0],\"v\":{\"value\":\"lost\"}}",
            "system 10 [byte 3407] live parser: VS Code would not load this file (line 10: SyntaxError: EOF while parsing an object at line 1 column 41)",
        ]
    );
}

#[test]
fn empty_window_streaming_log() {
    let rows = read(
        "lin-ws01/home/alice/.config/Code/User/globalStorage/emptyWindowChatSessions/e1.jsonl",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system 1 [byte 0] live session start: responder=\"GitHub Copilot\" location=panel",
            "system 2 [byte 152] live permission mode: agent",
            "system 2 [byte 152] live model: copilot/gpt-5",
            "user 2 [byte 152] live list files",
            "assistant 4 [byte 463] live Let me look.",
            "tool_use 4 [byte 463] live <call_1> {\"path\":\"/tmp\"}",
            "tool_result 4 [byte 463] live <call_1> /tmp/a.txt\n/tmp/b.txt",
            "system 4 [byte 463] live <call_1> permission decision: confirmed=true",
            "tool_use 5 [byte 951] live <call_2> Reading secret.txt",
            "tool_result 5 [byte 951] live <call_2> error: Permission denied",
            "system 5 [byte 951] live <call_2> permission decision: confirmed=Denied(0) source=user",
            "assistant 5 [byte 951] live I could not read it.",
        ]
    );
}

#[test]
fn user_settings() {
    // in the file's order (the tree keeps it; a decoded map would sort the keys)
    let rows = read("lin-ws01/home/alice/.config/Code/User/settings.json", None);
    assert_eq!(
        briefs(&rows),
        [
            "system - [key chat.tools.terminal.autoApprove] live permission setting: chat.tools.terminal.autoApprove.rm=false (from User/settings.json, file mtime)",
            "system - [key chat.tools.terminal.autoApprove] live permission setting: chat.tools.terminal.autoApprove./^git (status|log)$/=true (from User/settings.json, file mtime)",
            "system - [key chat.tools.edits.autoApprove] live permission setting: chat.tools.edits.autoApprove={} (from User/settings.json, file mtime)",
            "system - [key chat.tools.global.autoApprove] live permission setting: chat.tools.global.autoApprove=false (from User/settings.json, file mtime)",
            "system - [key chat.tools.eligibleForAutoApproval] live permission setting: chat.tools.eligibleForAutoApproval.run_in_terminal=false (from User/settings.json, file mtime)",
            "system - [key chat.permissions.default] live permission setting: chat.permissions.default=autoApprove (from User/settings.json, file mtime)",
            "system - [key chat.defaultModel] live model setting: chat.defaultModel=copilot/gpt-5 (from User/settings.json, file mtime)",
        ]
    );
}

#[test]
fn cloud_sessions() {
    let rows = read(
        "lin-ws01/home/alice/.config/Code/User/globalStorage/github.copilot-chat/cloudSessions.json",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [key 9ab] live session synced: remote session cs-41 task task-77 (from User/globalStorage/github.copilot-chat/cloudSessions.json, file mtime)",
            "system - [key gone-1] live session synced: remote session cs-12 task task-13 (from User/globalStorage/github.copilot-chat/cloudSessions.json, file mtime)",
        ]
    );
}

/// An extension's global storage is its profile's: a profile's `cloudSessions.json`
/// (`User/profiles/<id>/globalStorage/github.copilot-chat/`, and a built-in profile's,
/// the Agents window's) is claimed and gives the rows the default profile's file gives,
/// each naming the file it came from. The audit's t17: no file was claimed.
#[test]
fn a_profiles_cloud_sessions_json_is_read_as_the_default_profiles() {
    use chat_rows::{Evidence, FileContext, Store};
    let fixture = common::evidence_root()
        .join(ALICE)
        .join("globalStorage/github.copilot-chat/cloudSessions.json");
    let user = std::env::temp_dir()
        .join(format!("vscode-chat-log-profiles-{}", std::process::id()))
        .join("User");
    let mut got = Vec::new();
    for profile in ["profiles/1a2b", "profiles/builtin/agents"] {
        let path = user
            .join(profile)
            .join("globalStorage/github.copilot-chat/cloudSessions.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(&fixture, &path).unwrap();
        let claim = vscode_chat_log::ChatLogStore
            .claim(&path)
            .map(|c| c.kind.to_string());
        let rows =
            vscode_chat_log::ChatLogStore.read(&path, &FileContext::default(), &Evidence::new());
        let at = Evidence::new().modified(&path);
        assert!(rows.iter().all(|r| r.timestamp == at && at.is_some()));
        assert!(
            rows.iter()
                .all(|r| r.source_file.ends_with("cloudSessions.json"))
        );
        got.push((
            claim,
            rows.iter()
                .map(|r| (r.session_id.clone(), common::brief(r)))
                .collect::<Vec<_>>(),
        ));
    }
    std::fs::remove_dir_all(user.parent().unwrap()).unwrap();
    let want = |profile: &str| {
        (
            Some("chat session sync markers".to_string()),
            vec![
                (
                    "9ab".to_string(),
                    format!(
                        "system - [key 9ab] live session synced: remote session cs-41 task task-77 (from User/{profile}/globalStorage/github.copilot-chat/cloudSessions.json, file mtime)"
                    ),
                ),
                (
                    "gone-1".to_string(),
                    format!(
                        "system - [key gone-1] live session synced: remote session cs-12 task task-13 (from User/{profile}/globalStorage/github.copilot-chat/cloudSessions.json, file mtime)"
                    ),
                ),
            ],
        )
    };
    assert_eq!(
        got,
        [want("profiles/1a2b"), want("profiles/builtin/agents")]
    );
}

#[test]
fn editing_state_v2() {
    let rows = read(
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/chatEditingSessions/9ab/state.json",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [recentSnapshot.entries[0]] secondary edit state: Accepted /home/alice/src/proj/test_a.py request=request_1 model=copilot/gpt-4.1 (from chatEditingSessions state.json, file mtime)",
            "system - [recentSnapshot.entries[1]] secondary edit state: Rejected /home/alice/src/proj/old.py request=request_1 model=copilot/gpt-4.1 deleted=true (from chatEditingSessions state.json, file mtime)",
        ]
    );
}

#[test]
fn editing_state_v1_of_a_deleted_chat() {
    let rows = read(
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/chatEditingSessions/d31/state.json",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [recentSnapshot.entries[0]] secondary edit state: Modified /home/alice/src/proj/app.py request=request_9 model=- (from chatEditingSessions state.json, file mtime)",
        ]
    );
}

#[test]
fn remote_server_log_with_torn_line() {
    let rows = read(
        "lin-ws01/home/alice/.vscode-server/data/User/workspaceStorage/a7d2e9/chatSessions/r7.jsonl",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system 1 [byte 0] live session start: title=\"Fix login\" responder=\"GitHub Copilot\" location=panel workspace=/home/alice/.vscode-server/data/User/agent-sessions.code-workspace",
            "system 1 [byte 0] live permission mode: agent",
            "system 1 [byte 0] live permission level: autopilot",
            "system 1 [byte 0] live model: copilot/gpt-5",
            "user 1 [byte 0] live fix the login bug",
            "tool_use 1 [byte 0] live <c9> *** Begin Patch",
            // `{"type":"embed","value":"ok"}` without `isText`: base64, as VS Code's
            // `ToolInputOutputEmbedded` says (its text parts carry `isText: true`); it
            // was printed as the text `ok` before 2026-12-05
            "tool_result 1 [byte 0] live <c9> [binary data, 2 bytes of base64]\n[image/png data, 12 bytes of base64]",
            "system 1 [byte 0] live <c9> permission decision: confirmed=Setting(2) id=chat.tools.edits.autoApprove tool_source=internal",
            "tool_use 1 [byte 0] live <c10> {\"title\":\"Login bug\"}",
            "tool_result 1 [byte 0] live <c10> error: created #12",
            "system 1 [byte 0] live <c10> permission decision: confirmed=LmServicePerTool(3) scope=workspace tool_source=mcp",
            "assistant 1 [byte 0] live Fixed.",
            "system 3 [byte 1376] live parser: unparseable line (torn last line: EOF while parsing an object at line 1 column 70): {\"kind\":2,\"k\":[\"requests\"],\"v\":[{\"requestId\":\"q2\",\"timestamp\":17600000",
            "system 3 [byte 1376] live parser: VS Code would not load this file (line 3: SyntaxError: torn last line: EOF while parsing an object at line 1 column 70)",
        ]
    );
}

#[test]
fn json_copy_beside_its_log() {
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b21f/chatSessions/m1.json",
        None,
    );
    // every row of the copy is given, secondary, with the log's session, texts and
    // times: the scanner merges away those the log repeats (tests/copies.rs)
    assert_eq!(
        briefs(&rows),
        [
            "system - [$] secondary session start: responder=\"GitHub Copilot\" location=panel",
            "system - [$.requests[0]] secondary model: copilot/gpt-4o",
            "user - [$.requests[0].message] secondary explain main.rs",
            "assistant - [$.requests[0].response[0]] secondary It starts the server.",
            "user - [$.requests[1].message] secondary and tests?",
            "assistant - [$.requests[1].response[0]] secondary There are none yet.",
        ]
    );
}

#[test]
fn log_beside_its_json_copy() {
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b21f/chatSessions/m1.jsonl",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system 1 [byte 0] live session start: responder=\"GitHub Copilot\" location=panel",
            "system 1 [byte 0] live model: copilot/gpt-4o",
            "user 1 [byte 0] live explain main.rs",
            "assistant 1 [byte 0] live It starts the server.",
            "user 2 [byte 354] live and tests?",
            "assistant 2 [byte 354] live There are none.",
        ]
    );
}

#[test]
fn transferred_session() {
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/globalStorage/transferredChatSessions/t5.json",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [$] live session start: title=\"Moved chat\" responder=\"GitHub Copilot\" location=panel",
            "user - [$.requests[0].message] live continue here",
            "assistant - [$.requests[0].response[0]] live Sure.",
        ]
    );
}

#[test]
fn profile_settings() {
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/profiles/7f1e9c/settings.json",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [key chat.defaultModel] live model setting: chat.defaultModel=copilot/claude-opus-4 (from User/profiles/7f1e9c/settings.json, file mtime)",
            "system - [key chat.tools.urls.autoApprove] live permission setting: chat.tools.urls.autoApprove.https://docs.rs=true (from User/profiles/7f1e9c/settings.json, file mtime)",
        ]
    );
}

#[test]
fn cursor_v1_session() {
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Cursor/User/workspaceStorage/c0ffee/chatSessions/v1s.json",
        Some("cursor"),
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [$] live session start: responder=\"GitHub Copilot\"",
            "user - [$.requests[0].message] live what is a monad",
            // a v1 session records no response time: the reply takes its request's,
            // and its locator says so
            "assistant - [$.requests[0].response (time of the request)] live A monoid in the category of endofunctors.",
            "user - [$.requests[1].message] live shorter please",
            "assistant - [$.requests[1].response[0] (time of the request)] live A wrapper.",
        ]
    );
}

#[test]
fn cursor_v2_session() {
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Cursor/User/workspaceStorage/c0ffee/chatSessions/v2s.json",
        Some("cursor"),
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [$] live session start: title=\"Regex help\" responder=\"GitHub Copilot\" location=panel",
            "user - [$.requests[0].message] live regex for email",
            // one text, the inline reference in place as VS Code's Response.toString
            // renders it (an https URI in full, as URI.toString writes it)
            "assistant - [$.requests[0].response[0]] live Use https:/xa library.",
        ]
    );
}

#[test]
fn windows_log_crlf() {
    let rows = read(
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/workspaceStorage/e4a1/chatSessions/w1.jsonl",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system 1 [byte 0] live session start: responder=\"GitHub Copilot\" location=panel",
            "system 1 [byte 0] live permission mode: edit",
            "system 1 [byte 0] live model: copilot/gpt-4.1",
            "user 1 [byte 0] live build it",
            "tool_use 1 [byte 0] live <cw> msbuild app.sln",
            "tool_result 1 [byte 0] live <cw> ",
            "system 1 [byte 0] live <cw> permission decision: confirmed=false",
            "assistant 1 [byte 0] live The build was not run.",
        ]
    );
}

#[test]
fn windows_no_workspace_session() {
    let rows = read(
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/workspaceStorage/no-workspace/chatSessions/nw.json",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [$] live session start: responder=\"GitHub Copilot\" location=panel",
            "user - [$.requests[0].message] live hello",
            "assistant - [$.requests[0].response[0]] live Hi!",
        ]
    );
}

#[test]
fn broken_session_json() {
    let rows = read(
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/workspaceStorage/9bad/chatSessions/x2.json",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [byte 0] live parser: file is not valid JSON (EOF while parsing a string at line 1 column 73)",
        ]
    );
}

#[test]
fn broken_workspace_json() {
    let rows = read(
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/workspaceStorage/9bad/workspace.json",
        None,
    );
    assert_eq!(
        briefs(&rows),
        [
            "system - [byte 0] live parser: workspace.json not read (EOF while parsing an object at line 1 column 48)",
        ]
    );
}

#[test]
fn good_workspace_json_has_no_rows() {
    let rows = read(
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/workspaceStorage/e4a1/workspace.json",
        None,
    );
    assert!(rows.is_empty(), "{rows:?}");
}

#[test]
fn columns_of_the_main_log() {
    let rows = read(
        &format!("{ALICE}/workspaceStorage/5f3c0a1e/chatSessions/9ab.jsonl"),
        None,
    );
    assert!(
        rows.iter()
            .all(|r| r.agent == "vscode" && r.session_id == "9ab")
    );
    // workingDirectory, not the workspace.json folder (they agree here) nor the workspace
    assert!(
        rows.iter()
            .all(|r| r.project_path == "/home/alice/src/proj")
    );
    assert!(
        rows.iter()
            .all(|r| r.source_file.ends_with("chatSessions/9ab.jsonl"))
    );
    let at = |i: usize| rows[i].timestamp.map(|t| t.to_string()).unwrap_or_default();
    assert_eq!(at(0), "2025-10-02T10:13:20.000000Z"); // creationDate
    assert_eq!(at(4), "2025-10-02T10:13:21.000000Z"); // request timestamp
    assert_eq!(at(5), "2025-10-02T10:13:22.000000Z"); // responseTimestamp
    assert_eq!(at(11), "2025-10-02T10:13:32.000000Z"); // modelState.completedAt
    let delegated = rows.iter().find(|r| r.text == "Delegated.").unwrap();
    // 1.117: the response time under timeSpentWaiting
    assert_eq!(
        delegated.timestamp.unwrap().to_string(),
        "2025-10-02T10:14:01.000000Z"
    );
    let tool = rows
        .iter()
        .find(|r| r.turn_type == TurnType::ToolUse)
        .unwrap();
    assert_eq!(
        (tool.tool_name.as_str(), tool.model.as_str()),
        ("run_in_terminal", "copilot/gpt-4.1")
    );
    let recovered: Vec<_> = rows
        .iter()
        .filter(|r| r.record_state == RecordState::Recovered)
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        recovered,
        ["Roses are red", "write a poem", "Violets are blue"]
    );
    assert!(
        rows.iter()
            .filter(|r| r.is_parser())
            .all(|r| r.timestamp.is_none())
    );
}

#[test]
fn forks_remote_servers_and_windows_paths() {
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Cursor/User/workspaceStorage/c0ffee/chatSessions/v2s.json",
        Some("cursor"),
    );
    assert!(rows.iter().all(|r| r.agent == "cursor"
        && r.project_path == "/Users/bob/src/web"
        && r.session_id == "v2s"));
    let rows = read(
        "lin-ws01/home/alice/.vscode-server/data/User/workspaceStorage/a7d2e9/chatSessions/r7.jsonl",
        None,
    );
    // the Agents window: the project is workingDirectory, the workspace file only named
    assert!(rows.iter().all(|r| r.project_path == "/home/alice/src/api"));
    let rows = read(
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/workspaceStorage/e4a1/chatSessions/w1.jsonl",
        None,
    );
    assert!(
        rows.iter()
            .all(|r| r.project_path == "c:\\Users\\carol\\src\\app")
    );
    let rows = read(
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/workspaceStorage/no-workspace/chatSessions/nw.json",
        None,
    );
    assert!(rows.iter().all(|r| r.project_path.is_empty()));
}

#[test]
fn file_rows_are_timed_by_mtime_and_keep_secrets_out() {
    let rel = format!("{ALICE}/settings.json");
    let rows = read(&rel, None);
    assert!(
        rows.iter()
            .all(|r| r.timestamp == mtime(&rel) && r.timestamp.is_some())
    );
    assert!(
        rows.iter()
            .all(|r| !r.text.contains("ghu_") && !r.text.contains("editor."))
    );
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/profiles/7f1e9c/settings.json",
        None,
    );
    assert!(rows.iter().all(|r| !r.text.contains("sgp_")));
    let rel = format!("{ALICE}/workspaceStorage/5f3c0a1e/chatEditingSessions/9ab/state.json");
    let rows = read(&rel, None);
    assert!(
        rows.iter()
            .all(|r| r.secondary && r.record_state == RecordState::Secondary)
    );
    assert!(
        rows.iter()
            .all(|r| r.session_id == "9ab" && r.project_path == "/home/alice/src/proj")
    );
    assert!(rows.iter().all(|r| r.timestamp == mtime(&rel)));
    let rows = read(
        &format!("{ALICE}/globalStorage/github.copilot-chat/cloudSessions.json"),
        None,
    );
    let ids: Vec<_> = rows.iter().map(|r| r.session_id.as_str()).collect();
    assert_eq!(ids, ["9ab", "gone-1"]);
}

#[test]
fn the_json_copy_is_secondary_and_merged_with_its_log() {
    let rows = read(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b21f/chatSessions/m1.json",
        None,
    );
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r.secondary));
    let log = read(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/workspaceStorage/b21f/chatSessions/m1.jsonl",
        None,
    );
    // merged as the scanner merges: only the reply the log lost stays
    let mut all = log.clone();
    all.extend(rows);
    let (kept, merged) =
        chat_rows::merge::merge_secondary(all, chat_rows::merge::DEFAULT_WINDOW_MICROS);
    assert_eq!(merged, 5);
    let copies: Vec<_> = kept.iter().filter(|r| r.secondary).collect();
    assert_eq!(copies.len(), 1);
    assert_eq!(copies[0].text, "There are none yet.");
    assert_eq!(
        copies[0].timestamp.unwrap().to_string(),
        "2025-10-20T22:40:04.000000Z"
    );
}

#[test]
fn reading_changes_no_evidence() {
    fn listing(
        dir: &std::path::Path,
        out: &mut Vec<(String, Vec<u8>, Option<std::time::SystemTime>)>,
    ) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                listing(&p, out);
            } else {
                let modified = std::fs::metadata(&p).and_then(|m| m.modified()).ok();
                out.push((
                    p.display().to_string(),
                    std::fs::read(&p).unwrap(),
                    modified,
                ));
            }
        }
    }
    let roots = [
        "lin-ws01/home/alice/.config/Code",
        "lin-ws01/home/alice/.vscode-server",
        "mac-lt02/Users/bob/Library/Application Support/Code",
        "mac-lt02/Users/bob/Library/Application Support/Cursor",
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code",
    ];
    let snapshot = || {
        let mut v = Vec::new();
        for r in roots {
            listing(&common::evidence_root().join(r), &mut v);
        }
        v
    };
    let before = snapshot();
    let mut read_any = 0;
    for (path, _, _) in &before {
        let rel = path
            .split("fixtures/evidence/")
            .nth(1)
            .unwrap_or_default()
            .to_string();
        read_any += read(&rel, None).len();
    }
    assert!(read_any > 80, "{read_any}");
    assert_eq!(before, snapshot());
}

#[test]
fn an_old_location_empty_window_json_is_secondary_to_the_new_locations_copy() {
    use chat_rows::{Evidence, FileContext, Store};
    // a temporary `User` folder of this test's own
    let user = std::env::temp_dir()
        .join(format!(
            "vscode-chat-log-empty-window-{}",
            std::process::id()
        ))
        .join("User");
    let old = user.join("workspaceStorage/no-workspace/chatSessions/e9.json");
    let new = user.join("globalStorage/emptyWindowChatSessions/e9.jsonl");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::create_dir_all(new.parent().unwrap()).unwrap();
    let session = r#"{"version":3,"sessionId":"e9","creationDate":1759400000000,"requests":[{"requestId":"r1","timestamp":1759400001000,"message":{"text":"hello","parts":[]},"response":[{"value":"hi"}],"responseTimestamp":1759400002000}]}"#;
    std::fs::write(&old, session).unwrap();
    let read = |p: &std::path::Path| {
        let rows = vscode_chat_log::ChatLogStore.read(p, &FileContext::default(), &Evidence::new());
        rows.iter()
            .map(|r| format!("{} {} {}", r.turn_type, r.secondary, r.text))
            .collect::<Vec<_>>()
    };
    // alone, the old location's copy is the session
    let alone = read(&old);
    std::fs::write(&new, format!("{{\"kind\":0,\"v\":{session}}}\n")).unwrap();
    let with_new = read(&old);
    let log = read(&new);
    std::fs::remove_dir_all(user.parent().unwrap()).unwrap();
    assert_eq!(
        alone,
        [
            "system false session start: ",
            "user false hello",
            "assistant false hi"
        ]
    );
    // beside the new location's log (what VS Code reads), it is the older copy
    assert_eq!(
        with_new,
        [
            "system true session start: ",
            "user true hello",
            "assistant true hi"
        ]
    );
    assert_eq!(
        log,
        [
            "system false session start: ",
            "user false hello",
            "assistant false hi"
        ]
    );
}
