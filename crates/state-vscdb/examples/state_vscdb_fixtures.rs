//! Builds the VS Code `state.vscdb` fixtures of `fixtures/evidence/` deterministically.
//!
//! `cargo run -p state-vscdb --example state_vscdb_fixtures`
//!
//! Each database is written with rusqlite in a scratch directory, VS Code's schema
//! (`ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`). Where a live WAL is
//! wanted, the first state is checkpointed into the main file, the later writes stay in
//! the WAL (`wal_autocheckpoint = 0`), and both files are copied while the writer is
//! still open; the WAL salts are then fixed ([`sqlite_evidence::decode::reseal_wal`]).
//! The values follow the shapes of vscode.txt's fixture notes (logins, ids, labels are
//! invented).

use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use sqlite_evidence::decode::reseal_wal;

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

type Items<'a> = &'a [(&'a str, &'a str)];

/// Writes a database at `dest` (relative to the evidence root): `main` items are
/// checkpointed into the main file; then `wal_sql` runs and stays in the WAL (when
/// `wal_sql` is empty there is no WAL). `encoding` is SQLite's text encoding.
fn build(dest: &str, encoding: &str, main: Items<'_>, wal_sql: &[(&str, Option<&str>)]) {
    let scratch = tempfile::tempdir().unwrap();
    let p = scratch.path().join("state.vscdb");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(&format!(
        "PRAGMA encoding = '{encoding}'; PRAGMA secure_delete = OFF;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);"
    ))
    .unwrap();
    if !wal_sql.is_empty() {
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
            .unwrap();
    }
    for (k, v) in main {
        conn.execute("INSERT INTO ItemTable VALUES (?1, ?2)", params![k, v])
            .unwrap();
    }
    if !wal_sql.is_empty() {
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
        for (k, v) in wal_sql {
            match v {
                Some(v) => conn
                    .execute("INSERT INTO ItemTable VALUES (?1, ?2)", params![k, v])
                    .unwrap(),
                None => conn
                    .execute("DELETE FROM ItemTable WHERE key = ?1", [k])
                    .unwrap(),
            };
        }
    }
    let out = evidence().join(dest);
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::copy(&p, &out).unwrap();
    let wal_out = PathBuf::from(format!("{}-wal", out.display()));
    match std::fs::read(format!("{}-wal", p.display())) {
        Ok(mut wal) if !wal.is_empty() => {
            reseal_wal(&mut wal, (0x5c0d_0001, 0x5c0d_0002));
            std::fs::write(&wal_out, wal).unwrap();
        }
        _ => {
            let _ = std::fs::remove_file(&wal_out);
        }
    }
    drop(conn);
}

const LEGACY: &str = r#"[{"version":1,"requesterUsername":"alice","responderUsername":"GitHub Copilot","sessionId":"legacy-1","creationDate":1700000000000,"requests":[{"message":{"text":"how do I list open ports","parts":[]},"response":[{"value":"Use ss -tlnp."}],"timestamp":1700000001000}]}]"#;

const INDEX: &str = r#"{"version":1,"entries":{"s-local-1":{"sessionId":"s-local-1","title":"Fix the flaky test","lastMessageDate":1791025600000,"timing":{"created":1791025550000,"lastRequestStarted":1791025590000,"lastRequestEnded":1791025600000},"workingDirectory":"file:///home/alice/src/proj"},"copilot-cloud-agent:/task/1234567":{"sessionId":"copilot-cloud-agent:/task/1234567","title":"Add CI workflow","lastMessageDate":1791025450000,"timing":{"created":1791025400000},"isExternal":true}}}"#;

const COPILOT_CHAT: &str = r#"{"userSelectedRepositories":[{"name":"octocat/hello-world","timestamp":1791025000000}],"github.copilot.cloudAgent.ownedTasks":{"1234567":{"recordedAt":1791025400000,"application":"vscode"},"7654321":1791025500000}}"#;

fn main() {
    // Linux, alice, default profile: account records in the main file, grants and
    // Copilot Chat state only in the WAL; a grant revoked and an extension's state
    // cleared in the WAL (their older versions stay in the main file).
    build(
        "lin-ws01/home/alice/.config/Code/User/globalStorage/state.vscdb",
        "UTF-8",
        &[
            (
                "chat/autoconfirm",
                r#"{"run_in_terminal":true,"fetch_webpage":"Fetch Web Page"}"#,
            ),
            (
                "publisher.cleared-ext",
                r#"{"history":["first prompt","second prompt"]}"#,
            ),
            (
                r#"secret://{"extensionId":"github.copilot-chat","key":"github.auth"}"#,
                "v10-ENCRYPTED-TOKEN",
            ),
            (
                "github-octocat-usages",
                r#"[{"extensionId":"GitHub.copilot-chat","extensionName":"GitHub Copilot Chat","scopes":["read:user","user:email"],"lastUsed":1791025100000}]"#,
            ),
            (
                "github-octocat-mcpserver-usages",
                r#"[{"mcpServerId":"github","mcpServerName":"GitHub","scopes":["repo"],"lastUsed":1791025200000}]"#,
            ),
            (
                "github-enterprise-mona - ghe.corp.example-usages",
                r#"[{"extensionId":"GitHub.copilot-chat","extensionName":"GitHub Copilot Chat","scopes":["repo"],"lastUsed":1791025300000}]"#,
            ),
            ("interactive.sessions", LEGACY),
        ],
        &[
            (
                "chat/autoconfirm",
                Some(r#"{"fetch_webpage":"Fetch Web Page"}"#),
            ),
            ("publisher.cleared-ext", None),
            (
                "chat/autoconfirm-post",
                Some(r#"{"read_file":"Read File"}"#),
            ),
            ("chat.tools.global.autoApprove.optIn", Some("true")),
            ("GitHub.copilot-chat", Some(COPILOT_CHAT)),
            ("chat.ChatSessionStore.index", Some(INDEX)),
        ],
    );
    // Linux, alice, a workspace (its workspace.json names /home/alice/src/proj): the
    // older array form, an MCP server grant with arguments, an allowed outside folder,
    // and two damaged values.
    build(
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/5f3c0a1e/state.vscdb",
        "UTF-8",
        &[
            ("chat/autoconfirm", r#"["run_in_terminal","create_file"]"#),
            (
                "chat/servers/autoconfirm",
                r#"{"github":{"label":"GitHub MCP","arguments":{"owner":"octocat"}}}"#,
            ),
            (
                "chat.externalPath.workspaceAllowlist",
                r#"["file:///home/alice/shared-libs"]"#,
            ),
            ("chat/autoconfirm-combination", "5"),
            ("chat/autoconfirm-post", r#"{"read_file":"#),
        ],
        &[],
    );
    // macOS, bob: a named profile, the Agents window, and Cursor (with a plaintext token
    // that must never appear).
    build(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/profiles/-7d1e2f3a/globalStorage/state.vscdb",
        "UTF-8",
        &[("chat/autoconfirm", r#"{"editFiles":true}"#)],
        &[],
    );
    build(
        "mac-lt02/Users/bob/Library/Application Support/Code/User/profiles/builtin/agents/globalStorage/state.vscdb",
        "UTF-8",
        &[
            ("chat/autoconfirm", r#"{"runTests":"Run Tests"}"#),
            ("chat/servers/autoconfirm-post", r#"{"playwright":true}"#),
        ],
        &[],
    );
    build(
        "mac-lt02/Users/bob/Library/Application Support/Cursor/User/globalStorage/state.vscdb",
        "UTF-8",
        &[
            ("chat/autoconfirm", r#"{"run_terminal_cmd":true}"#),
            ("cursorAuth/accessToken", "eyJhbGciOiJIUzI1NiJ9.FAKE.TOKEN"),
        ],
        &[],
    );
    // Windows, carol: a UTF-16 database whose WAL's last frame is torn (the copy was
    // taken while VS Code was writing): the ownedTasks bare-number form is in the first
    // commit, a grant in the torn one.
    build(
        "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/globalStorage/state.vscdb",
        "UTF-16le",
        &[("chat/autoconfirm", r#"{"run_in_terminal":true}"#)],
        &[
            (
                "GitHub.copilot-chat",
                Some(r#"{"github.copilot.cloudAgent.ownedTasks":{"9000001":1791026000000}}"#),
            ),
            ("chat/autoconfirm-post", Some(r#"{"edit_file":true}"#)),
        ],
    );
    let wal = evidence()
        .join("WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/globalStorage/state.vscdb-wal");
    let mut bytes = std::fs::read(&wal).unwrap();
    bytes.truncate(bytes.len() - 100);
    std::fs::write(&wal, bytes).unwrap();
    println!(
        "state.vscdb fixtures written under {}",
        evidence().display()
    );
}
