//! Every VS Code state row type of the plan, pinned on the project's fixtures
//! (`fixtures/evidence`, built by `examples/state_vscdb_fixtures.rs`).

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, RecordState, Row, Store};
use state_vscdb::StateVscdbStore;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/evidence/");

const ALICE_GLOBAL: &str = "lin-ws01/home/alice/.config/Code/User/globalStorage/state.vscdb";
const ALICE_WORKSPACE: &str =
    "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/state.vscdb";
const BOB_PROFILE: &str = "mac-lt02/Users/bob/Library/Application Support/Code/User/profiles/-7d1e2f3a/globalStorage/state.vscdb";
const BOB_AGENTS: &str = "mac-lt02/Users/bob/Library/Application Support/Code/User/profiles/builtin/agents/globalStorage/state.vscdb";
const BOB_CURSOR: &str =
    "mac-lt02/Users/bob/Library/Application Support/Cursor/User/globalStorage/state.vscdb";
const CAROL_GLOBAL: &str =
    "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/globalStorage/state.vscdb";

fn path(rel: &str) -> PathBuf {
    PathBuf::from(format!("{ROOT}{rel}"))
}

fn read(rel: &str, product: &str) -> (Vec<Row>, Evidence) {
    let ev = Evidence::new();
    let ctx = FileContext {
        product: Some(product.into()),
        display_path: rel.into(),
        ..FileContext::default()
    };
    (StateVscdbStore.read(&path(rel), &ctx, &ev), ev)
}

/// (time or `mtime`, session, project, text, locator, state) of each row.
fn view(rows: &[Row], mtime: Option<chat_rows::Timestamp>) -> Vec<[String; 6]> {
    rows.iter()
        .map(|r| {
            let t = match r.timestamp {
                None => String::new(),
                Some(t) if Some(t) == mtime => "mtime".into(),
                Some(t) => t.to_string(),
            };
            [
                t,
                r.session_id.clone(),
                r.project_path.clone(),
                r.text.clone(),
                r.source_locator.clone(),
                r.record_state.to_string(),
            ]
        })
        .collect()
}

fn s(v: [&str; 6]) -> [String; 6] {
    v.map(String::from)
}

#[test]
fn claims_every_state_database_location() {
    let st = StateVscdbStore;
    for p in [
        ALICE_GLOBAL,
        ALICE_WORKSPACE,
        BOB_PROFILE,
        BOB_AGENTS,
        BOB_CURSOR,
        CAROL_GLOBAL,
    ] {
        assert_eq!(
            st.claim(Path::new(p)).map(|c| c.kind),
            Some("state database"),
            "{p}"
        );
    }
    assert!(
        st.claim(Path::new("/x/User/globalStorage/state.vscdb-wal"))
            .is_none()
    );
    assert!(
        st.claim(Path::new("/x/User/globalStorage/storage.json"))
            .is_none()
    );
    assert!(st.claim(Path::new("/x/ee/db.sqlite")).is_none());
    // `profiles/[builtin/]<id>`: any built-in profile, not only the Agents window's
    assert_eq!(
        st.claim(Path::new(
            "/x/User/profiles/builtin/review/globalStorage/state.vscdb"
        ))
        .map(|c| c.kind),
        Some("state database")
    );
}

/// A workspace database in a temporary `User/workspaceStorage/w1/` beside the given
/// `workspace.json`: one grant and one legacy session.
fn workspace_db_beside(workspace_json: &str) -> Vec<[String; 6]> {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("User/workspaceStorage/w1");
    std::fs::create_dir_all(&ws).unwrap();
    let db = ws.join("state.vscdb");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        r#"CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
           INSERT INTO ItemTable VALUES ('chat/autoconfirm', '{"run_in_terminal":true}');
           INSERT INTO ItemTable VALUES ('interactive.sessions',
             '[{"sessionId":"leg1","creationDate":1700000000000,"requests":[{"message":"hi","response":[]}]}]');"#,
    )
    .unwrap();
    drop(conn);
    std::fs::write(ws.join("workspace.json"), workspace_json).unwrap();
    let ev = Evidence::new();
    let ctx = FileContext {
        product: Some("vscode".into()),
        display_path: "User/workspaceStorage/w1/state.vscdb".into(),
        ..FileContext::default()
    };
    let rows = StateVscdbStore.read(&db, &ctx, &ev);
    view(&rows, ev.modified(&db))
}

#[test]
fn a_workspace_file_is_never_the_project_and_is_named_in_legacy_session_starts() {
    let from = "(from User/workspaceStorage/w1/state.vscdb, file mtime)";
    let grant = format!("permission setting: chat/autoconfirm.run_in_terminal=true {from}");
    let (k, k0) = (
        "ItemTable key=chat/autoconfirm",
        "ItemTable key=interactive.sessions [0]",
    );
    // only a `.code-workspace` file: no project
    assert_eq!(
        workspace_db_beside(r#"{"workspace":"file:///home/u/multi.code-workspace"}"#),
        vec![
            s(["mtime", "", "", &grant, k, "live"]),
            s([
                "2023-11-14T22:13:20.000000Z",
                "leg1",
                "",
                "session start: workspace=/home/u/multi.code-workspace",
                &format!("{k0} $"),
                "live"
            ]),
            s([
                "",
                "leg1",
                "",
                "hi",
                &format!("{k0} $.requests[0].message"),
                "live"
            ]),
        ]
    );
    // a folder: the project
    assert_eq!(
        workspace_db_beside(r#"{"folder":"file:///home/u/proj"}"#)[..2],
        [
            s(["mtime", "", "/home/u/proj", &grant, k, "live"]),
            s([
                "2023-11-14T22:13:20.000000Z",
                "leg1",
                "/home/u/proj",
                "session start: ",
                &format!("{k0} $"),
                "live"
            ]),
        ]
    );
}

#[test]
fn default_profile_grants_accounts_cloud_agent_index_legacy_and_deleted_keys() {
    let (rows, ev) = read(ALICE_GLOBAL, "vscode");
    let mtime = ev.modified(&path(ALICE_GLOBAL));
    let from = "(from User/globalStorage/state.vscdb, file mtime)";
    let tasks =
        "(from state.vscdb GitHub.copilot-chat github.copilot.cloudAgent.ownedTasks, recordedAt)";
    let expected = vec![
        s([
            "mtime",
            "",
            "",
            &format!("permission setting: chat/autoconfirm.fetch_webpage=Fetch Web Page {from}"),
            "ItemTable key=chat/autoconfirm, wal frame 11 (page 2) cell 5",
            "live",
        ]),
        s([
            "mtime",
            "",
            "",
            &format!("permission setting: chat/autoconfirm-post.read_file=Read File {from}"),
            "ItemTable key=chat/autoconfirm-post, wal frame 11 (page 2) cell 6",
            "live",
        ]),
        s([
            "mtime",
            "",
            "",
            &format!("permission setting: chat.tools.global.autoApprove.optIn=true {from}"),
            "ItemTable key=chat.tools.global.autoApprove.optIn, wal frame 11 (page 2) cell 7",
            "live",
        ]),
        s([
            "2026-10-03T10:58:20.000000Z",
            "",
            "",
            "source host: github.com account octocat extension=GitHub.copilot-chat scopes=read:user,user:email (from state.vscdb github-octocat-usages, lastUsed)",
            "ItemTable key=github-octocat-usages, wal frame 11 (page 2) cell 1",
            "live",
        ]),
        s([
            "2026-10-03T11:00:00.000000Z",
            "",
            "",
            "source host: github.com account octocat mcp_server=github scopes=repo (from state.vscdb github-octocat-mcpserver-usages, lastUsed)",
            "ItemTable key=github-octocat-mcpserver-usages, wal frame 11 (page 2) cell 2",
            "live",
        ]),
        s([
            "2026-10-03T11:01:40.000000Z",
            "",
            "",
            "source host: ghe.corp.example account mona extension=GitHub.copilot-chat scopes=repo (from state.vscdb github-enterprise-mona - ghe.corp.example-usages, lastUsed)",
            "ItemTable key=github-enterprise-mona - ghe.corp.example-usages, wal frame 11 (page 2) cell 3",
            "live",
        ]),
        s([
            "2023-11-14T22:13:20.000000Z",
            "legacy-1",
            "",
            "session start: responder=\"GitHub Copilot\"",
            "ItemTable key=interactive.sessions, wal frame 11 (page 2) cell 4 [0] $",
            "live",
        ]),
        s([
            "2023-11-14T22:13:21.000000Z",
            "legacy-1",
            "",
            "how do I list open ports",
            "ItemTable key=interactive.sessions, wal frame 11 (page 2) cell 4 [0] $.requests[0].message",
            "live",
        ]),
        // no response time in the legacy blob: the reply takes its request's, marked
        s([
            "2023-11-14T22:13:21.000000Z",
            "legacy-1",
            "",
            "Use ss -tlnp.",
            "ItemTable key=interactive.sessions, wal frame 11 (page 2) cell 4 [0] $.requests[0].response[0] (time of the request)",
            "live",
        ]),
        s([
            "2026-10-03T10:56:40.000000Z",
            "",
            "",
            "source host repository: octocat/hello-world type=cloud agent selection (from state.vscdb GitHub.copilot-chat userSelectedRepositories, timestamp)",
            "ItemTable key=GitHub.copilot-chat, wal frame 11 (page 2) cell 8",
            "live",
        ]),
        s([
            "2026-10-03T11:03:20.000000Z",
            "copilot-cloud-agent:/task/1234567",
            "",
            &format!("session synced: cloud agent task 1234567 application=vscode {tasks}"),
            "ItemTable key=GitHub.copilot-chat, wal frame 11 (page 2) cell 8",
            "live",
        ]),
        s([
            "2026-10-03T11:03:20.000000Z",
            "copilot-cloud-agent:/task/1234567",
            "",
            &format!("session origin: remote GitHub cloud agent {tasks}"),
            "ItemTable key=GitHub.copilot-chat, wal frame 11 (page 2) cell 8",
            "live",
        ]),
        s([
            "2026-10-03T11:05:00.000000Z",
            "copilot-cloud-agent:/task/7654321",
            "",
            &format!("session synced: cloud agent task 7654321 application=- {tasks}"),
            "ItemTable key=GitHub.copilot-chat, wal frame 11 (page 2) cell 8",
            "live",
        ]),
        s([
            "2026-10-03T11:05:00.000000Z",
            "copilot-cloud-agent:/task/7654321",
            "",
            &format!("session origin: remote GitHub cloud agent {tasks}"),
            "ItemTable key=GitHub.copilot-chat, wal frame 11 (page 2) cell 8",
            "live",
        ]),
        s([
            "2026-10-03T11:03:20.000000Z",
            "copilot-cloud-agent:/task/1234567",
            "",
            "session index: title=\"Add CI workflow\" created=2026-10-03T11:03:20.000000Z last_message=2026-10-03T11:04:10.000000Z external=true",
            "ItemTable key=chat.ChatSessionStore.index, wal frame 11 (page 2) cell 9",
            "secondary",
        ]),
        s([
            "2026-10-03T11:05:50.000000Z",
            "s-local-1",
            "/home/alice/src/proj",
            "session index: title=\"Fix the flaky test\" created=2026-10-03T11:05:50.000000Z last_message=2026-10-03T11:06:40.000000Z last_request_started=2026-10-03T11:06:30.000000Z last_request_ended=2026-10-03T11:06:40.000000Z",
            "ItemTable key=chat.ChatSessionStore.index, wal frame 11 (page 2) cell 9",
            "secondary",
        ]),
        // The grant revoked in the WAL, and the extension state cleared there: the
        // older versions are in the main file's page the WAL superseded.
        s([
            "mtime",
            "",
            "",
            &format!("permission setting: chat/autoconfirm.run_in_terminal=true {from}"),
            "ItemTable key=chat/autoconfirm, main file page 2 cell 0",
            "deleted",
        ]),
        s([
            "",
            "",
            "",
            "state item deleted: publisher.cleared-ext (44 bytes)",
            "ItemTable key=publisher.cleared-ext, main file page 2 cell 1",
            "deleted",
        ]),
    ];
    assert_eq!(view(&rows, mtime), expected);
    assert!(mtime.is_some());
    assert!(
        rows.iter()
            .all(|r| r.agent == "vscode" && r.source_file == ALICE_GLOBAL)
    );
    assert!(
        rows.iter()
            .filter(|r| r.record_state == RecordState::Secondary)
            .all(|r| r.secondary)
    );
    // The secret:// row never reaches a row, live or deleted.
    assert!(
        rows.iter()
            .all(|r| !r.text.contains("ENCRYPTED") && !r.text.contains("secret://"))
    );
}

#[test]
fn workspace_grants_old_array_form_project_and_bad_values() {
    let (rows, ev) = read(ALICE_WORKSPACE, "vscode");
    let mtime = ev.modified(&path(ALICE_WORKSPACE));
    let from = "(from User/workspaceStorage/5f3c0a1e/state.vscdb, file mtime)";
    let p = "/home/alice/src/proj";
    assert_eq!(
        view(&rows, mtime),
        vec![
            s([
                "mtime",
                "",
                p,
                &format!("permission setting: chat/autoconfirm.run_in_terminal=true {from}"),
                "ItemTable key=chat/autoconfirm",
                "live"
            ]),
            s([
                "mtime",
                "",
                p,
                &format!("permission setting: chat/autoconfirm.create_file=true {from}"),
                "ItemTable key=chat/autoconfirm",
                "live"
            ]),
            s([
                "",
                "",
                p,
                "parser: ItemTable value for chat/autoconfirm-post is not valid JSON (EOF while parsing a value at line 1 column 13)",
                "ItemTable key=chat/autoconfirm-post",
                "live"
            ]),
            s([
                "mtime",
                "",
                p,
                &format!(
                    "permission setting: chat/servers/autoconfirm.github={{\"label\":\"GitHub MCP\",\"arguments\":{{\"owner\":\"octocat\"}}}} {from}"
                ),
                "ItemTable key=chat/servers/autoconfirm",
                "live"
            ]),
            s([
                "",
                "",
                p,
                "parser: ItemTable value for chat/autoconfirm-combination is not a JSON object or array",
                "ItemTable key=chat/autoconfirm-combination",
                "live"
            ]),
            s([
                "mtime",
                "",
                p,
                &format!(
                    "permission setting: chat.externalPath.workspaceAllowlist=/home/alice/shared-libs {from}"
                ),
                "ItemTable key=chat.externalPath.workspaceAllowlist",
                "live"
            ]),
        ]
    );
}

#[test]
fn named_profile_agents_window_and_fork() {
    let (rows, ev) = read(BOB_PROFILE, "vscode");
    assert_eq!(
        view(&rows, ev.modified(&path(BOB_PROFILE))),
        vec![s([
            "mtime",
            "",
            "",
            "permission setting: chat/autoconfirm.editFiles=true (from User/profiles/-7d1e2f3a/globalStorage/state.vscdb, file mtime)",
            "ItemTable key=chat/autoconfirm",
            "live"
        ])]
    );
    let (rows, ev) = read(BOB_AGENTS, "vscode");
    let from = "(from User/profiles/builtin/agents/globalStorage/state.vscdb, file mtime)";
    assert_eq!(
        view(&rows, ev.modified(&path(BOB_AGENTS))),
        vec![
            s([
                "mtime",
                "",
                "",
                &format!("permission setting: chat/autoconfirm.runTests=Run Tests {from}"),
                "ItemTable key=chat/autoconfirm",
                "live"
            ]),
            s([
                "mtime",
                "",
                "",
                &format!(
                    "permission setting: chat/servers/autoconfirm-post.playwright=true {from}"
                ),
                "ItemTable key=chat/servers/autoconfirm-post",
                "live"
            ]),
        ]
    );
    let (rows, ev) = read(BOB_CURSOR, "cursor");
    assert_eq!(
        view(&rows, ev.modified(&path(BOB_CURSOR))),
        vec![s([
            "mtime",
            "",
            "",
            "permission setting: chat/autoconfirm.run_terminal_cmd=true (from User/globalStorage/state.vscdb, file mtime)",
            "ItemTable key=chat/autoconfirm",
            "live"
        ])]
    );
    assert_eq!(rows[0].agent, "cursor");
}

#[test]
fn utf16_database_with_a_torn_wal() {
    let (rows, ev) = read(CAROL_GLOBAL, "vscode");
    let from = "(from User/globalStorage/state.vscdb, file mtime)";
    let tasks =
        "(from state.vscdb GitHub.copilot-chat github.copilot.cloudAgent.ownedTasks, recordedAt)";
    assert_eq!(
        view(&rows, ev.modified(&path(CAROL_GLOBAL))),
        vec![
            s([
                "",
                "",
                "",
                "parser: state.vscdb unreadable: 1 valid frame(s) after the last commit belong to a transaction that never committed; not applied",
                "wal frame 3",
                "live"
            ]),
            s([
                "",
                "",
                "",
                "parser: state.vscdb unreadable: torn last frame: 4020 of 4120 bytes; not applied",
                "wal frame 4 (offset 12392)",
                "live"
            ]),
            s([
                "mtime",
                "",
                "",
                &format!("permission setting: chat/autoconfirm.run_in_terminal=true {from}"),
                "ItemTable key=chat/autoconfirm, wal frame 1 (page 2) cell 0",
                "live"
            ]),
            // The bare-number form of ownedTasks, only in the WAL.
            s([
                "2026-10-03T11:13:20.000000Z",
                "copilot-cloud-agent:/task/9000001",
                "",
                &format!("session synced: cloud agent task 9000001 application=- {tasks}"),
                "ItemTable key=GitHub.copilot-chat, wal frame 1 (page 2) cell 1",
                "live"
            ]),
            s([
                "2026-10-03T11:13:20.000000Z",
                "copilot-cloud-agent:/task/9000001",
                "",
                &format!("session origin: remote GitHub cloud agent {tasks}"),
                "ItemTable key=GitHub.copilot-chat, wal frame 1 (page 2) cell 1",
                "live"
            ]),
            // The write the torn frame never committed, still read from the frame before it.
            s([
                "mtime",
                "",
                "",
                &format!("permission setting: chat/autoconfirm-post.edit_file=true {from}"),
                "ItemTable key=chat/autoconfirm-post, wal frame 3 (page 2, uncommitted) cell 2",
                "deleted"
            ]),
        ]
    );
}

#[test]
fn reading_leaves_every_file_byte_identical_and_creates_none() {
    let dirs: Vec<PathBuf> = [ALICE_GLOBAL, ALICE_WORKSPACE, CAROL_GLOBAL]
        .iter()
        .map(|p| path(p).parent().unwrap().to_path_buf())
        .collect();
    let before: Vec<_> = dirs
        .iter()
        .map(|d| chat_rows::snapshot_tree(d).unwrap())
        .collect();
    for p in [ALICE_GLOBAL, ALICE_WORKSPACE, CAROL_GLOBAL] {
        let (rows, ev) = read(p, "vscode");
        assert!(!rows.is_empty());
        assert!(!ev.manifest().is_empty());
    }
    let after: Vec<_> = dirs
        .iter()
        .map(|d| chat_rows::snapshot_tree(d).unwrap())
        .collect();
    assert!(before == after, "a read changed or created a file");
    assert!(!path(&format!("{ALICE_GLOBAL}-shm")).exists());
}

#[test]
fn unreadable_file_is_one_parser_row() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("User/globalStorage/state.vscdb");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, b"not a database at all, but long enough to fill the one hundred byte sqlite header area....").unwrap();
    let rows = StateVscdbStore.read(&p, &FileContext::default(), &Evidence::new());
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].text,
        "parser: state.vscdb unreadable: not an SQLite database: the file starts with \"not a database a\""
    );
    assert_eq!(rows[0].agent, "vscode");
    assert_eq!(rows[0].source_file, p.display().to_string());
}

#[test]
fn dirty_inputs_never_panic_and_report_damage() {
    use chat_rows::dirty::{Harness, Mutation};
    let main = std::fs::read(path(ALICE_GLOBAL)).unwrap();
    let wal = std::fs::read(path(&format!("{ALICE_GLOBAL}-wal"))).unwrap();
    let parse = |m: &[u8], w: &[u8]| -> Vec<Row> {
        let ctx = state_vscdb::rows::Context {
            agent: "vscode".into(),
            ..Default::default()
        };
        match state_vscdb::StateDb::from_bytes(m, Some(w)) {
            Ok(db) => state_vscdb::rows::rows(&db, &ctx),
            Err(e) => vec![state_vscdb::unreadable_row("vscode", "", &e)],
        }
    };
    let h = Harness::new().truncations(24).flips(24).splices(8);
    // The WAL damaged: every flip breaks a checksum, every cut inside a frame tears it.
    let report = h.run(&wal, |w| parse(&main, w));
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
    let frame = 24 + 4096;
    report.assert_damage_reported(|m| match m {
        Mutation::Flip { .. } => true,
        // An empty WAL is no WAL, not damage.
        Mutation::Truncate(n) => *n > 0 && *n < wal.len() && (*n < 32 || (*n - 32) % frame != 0),
        _ => false,
    });
    // The main file damaged: every cut is a truncated main file.
    let report = h.run(&main, |m| parse(m, &wal));
    report.assert_no_panics();
    report.assert_damage_reported(|m| matches!(m, Mutation::Truncate(n) if *n < main.len()));
}
