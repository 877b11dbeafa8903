//! Discovery on the project's evidence tree: every store file of the three OS layouts
//! (and the Tabby server) is claimed by its store, with host, user and editor product
//! read off the path; only companions read with their main file (SQLite `-wal`s) and
//! files that hold nothing but secrets are left unclaimed (the Cursor CLI's `meta.json`
//! is claimed: alone, without its `store.db`, it still names the session).

mod common;

use std::path::{Path, PathBuf};

use ai_chat_forensics::Scanner;

fn evidence() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evidence")
}

fn rel(p: &Path) -> String {
    p.strip_prefix(evidence())
        .unwrap()
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn every_store_file_is_claimed_with_host_user_and_product() {
    let found = Scanner::new().root(evidence()).discover().unwrap();
    let got: Vec<String> = found
        .iter()
        .map(|f| {
            format!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                f.store,
                f.kind,
                f.attribution.host,
                f.attribution.user,
                f.product.unwrap_or("-"),
                rel(&f.path)
            )
        })
        .collect();
    let expected = include_str!("data/discovery.tsv");
    let expected: Vec<&str> = expected.lines().collect();
    if got != expected {
        let got_text = got.join("\n");
        panic!("discovery changed; got:\n{got_text}");
    }

    // all three OS layouts and the server are attributed
    for (host, user) in [
        ("lin-ws01", "alice"),
        ("mac-lt02", "bob"),
        ("WIN-DESK03", "carol"),
        ("tabby-srv", "tabby"),
    ] {
        assert!(
            found
                .iter()
                .any(|f| f.attribution.host == host && f.attribution.user == user),
            "{host}/{user}"
        );
    }
    // every store claims something
    for store in [
        "vscode-chat-log",
        "state-vscdb",
        "cody-history",
        "tabby-db",
        "copilot-nitrite",
        "codebuddy-log",
        "claude-code-log",
        "copilot-events",
        "cursor-state",
    ] {
        assert!(
            found.iter().any(|f| f.store == store),
            "{store} claims nothing"
        );
    }
}

#[test]
fn only_companions_and_secret_files_are_left_unclaimed() {
    let found = Scanner::new().root(evidence()).discover().unwrap();
    let claimed: std::collections::BTreeSet<String> = found.iter().map(|f| rel(&f.path)).collect();
    let unclaimed: Vec<String> = walkdir::WalkDir::new(evidence())
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| rel(e.path()))
        .filter(|p| !claimed.contains(p))
        .collect();
    // left to the file that reads them: SQLite WALs (read with their database), a
    // Copilot CLI session's lock file and rewind backups (listed, never opened, with
    // its `events.jsonl` or rewind index; claimed alone where neither is, see
    // `a_deleted_sessions_lock_and_backups_are_still_listed`); never read at all: the MCP configurations, which hold only server secrets
    // (env, headers, auth)
    assert_eq!(
        unclaimed,
        [
            "WIN-DESK03/C/Users/carol/AppData/Roaming/Code/User/globalStorage/state.vscdb-wal",
            "lin-ws01/home/alice/.config/Code/User/globalStorage/github.copilot-chat/agent-traces.db-wal",
            "lin-ws01/home/alice/.config/Code/User/globalStorage/state.vscdb-wal",
            "lin-ws01/home/alice/.config/VSCodium/User/globalStorage/state.vscdb-wal",
            "lin-ws01/home/alice/.copilot/mcp-config.json",
            "lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/inuse.4242.lock",
            "lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/rewind-file-snapshots/backups/1111111111111111111111111111111111111111111111111111111111111a01",
            "lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/rewind-file-snapshots/backups/3333333333333333333333333333333333333333333333333333333333333c03",
            "lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/rewind-file-snapshots/backups/4444444444444444444444444444444444444444444444444444444444444d04",
            "lin-ws01/home/alice/.copilot/session-store.db-wal",
            "lin-ws01/home/alice/copilot-home/session-state/7c0e1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b/rewind-file-snapshots/backups/5555555555555555555555555555555555555555555555555555555555555e05",
            "mac-lt02/Users/bob/.cursor/mcp.json",
            "mac-lt02/Users/bob/.cursor/projects/Users-bob-src-web-1a2b3c4/mcp-auth.json",
            "tabby-srv/home/tabby/.tabby/ee/db.sqlite-wal",
        ]
    );
}

/// The rows the fixture `.copilot` gives on its own.
const DOT_ROWS: usize = 127;

/// The rows of a scan of `root`, with the root and `home` cut from their files.
fn rows_under(root: &Path, home: &str) -> (Vec<String>, Vec<String>) {
    let scanner = Scanner::new().root(root);
    let found = scanner.discover().unwrap();
    let kinds = found
        .iter()
        .map(|f| {
            format!(
                "{}\t{}",
                f.kind,
                rel_to(root, &f.path).replace(home, "HOME")
            )
        })
        .collect();
    let rows = scanner
        .run()
        .unwrap()
        .rows
        .iter()
        .map(|r| {
            let file = rel_to(root, Path::new(&r.source_file)).replace(home, "HOME");
            format!(
                "{file}|{}|{}|{}|{}|{:?}",
                r.source_locator, r.record_state, r.turn_type, r.session_id, r.text
            )
        })
        .collect();
    (kinds, rows)
}

fn rel_to(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn a_claude_home_of_any_name_is_read_like_dot_claude() {
    // `$CLAUDE_CONFIG_DIR=~/.config/claude` (some Claude Code versions' XDG default) and
    // a folder an administrator named: the tree, history, settings and session register
    // are recognised by a transcript under `projects/` together with the files Claude
    // Code writes beside it, and give the rows `.claude` gives
    let from = evidence().join("lin-ws01/home/alice/.claude");
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("a");
    common::copy_tree(&from, &dot.join("home/alice/.claude"));
    // a settings row names its file in its text
    let texts = |root: &Path, home: &str, rows: Vec<String>| -> Vec<String> {
        let at = format!("{}/home/alice/{home}/", root.display());
        rows.iter()
            .map(|r| r.replace(&at, "ROOT/home/alice/HOME/"))
            .collect()
    };
    let (dot_kinds, dot_rows) = rows_under(&dot, ".claude");
    let dot_rows = texts(&dot, ".claude", dot_rows);
    assert_eq!(dot_rows.len(), 98);
    assert_eq!(dot_kinds.len(), 10, "{dot_kinds:?}");
    assert!(
        dot_kinds.contains(&"claude-code prompt history\thome/alice/HOME/history.jsonl".into()),
        "{dot_kinds:?}"
    );
    for (root, home) in [("b", ".config/claude"), ("c", "srv-state/claude-cfg")] {
        let named = dir.path().join(root);
        common::copy_tree(&from, &named.join("home/alice").join(home));
        let (named_kinds, named_rows) = rows_under(&named, home);
        let named_rows = texts(&named, home, named_rows);
        assert_eq!(named_kinds, dot_kinds, "{home}");
        assert_eq!(named_rows.len(), dot_rows.len(), "{home}");
        assert_eq!(named_rows, dot_rows, "{home}");
    }
    // a transcript tree alone, or the files beside it alone, is too common a shape
    let bare = dir.path().join("d");
    common::copy_tree(
        &from.join("projects"),
        &bare.join("home/alice/cfg/projects"),
    );
    let beside = dir.path().join("e");
    for f in ["history.jsonl", "settings.json", "settings.local.json"] {
        std::fs::create_dir_all(beside.join("home/alice/cfg")).unwrap();
        std::fs::copy(from.join(f), beside.join("home/alice/cfg").join(f)).unwrap();
    }
    for root in [bare, beside] {
        let found = Scanner::new().root(&root).discover().unwrap();
        assert_eq!(
            found.len(),
            0,
            "{:?}",
            found.iter().map(|f| &f.path).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_copilot_home_of_any_name_is_read_like_dot_copilot() {
    // a `$COPILOT_HOME` named `agent-state`: its home-level files (session-store.db with
    // its WAL, grants, trusted folders, settings, command history, data.db) are
    // recognised by the session folders beside them, and give the rows `.copilot` gives
    let from = evidence().join("lin-ws01/home/alice/.copilot");
    let dir = tempfile::tempdir().unwrap();
    let (dot, named) = (dir.path().join("a"), dir.path().join("b"));
    common::copy_tree(&from, &dot.join("home/alice/.copilot"));
    common::copy_tree(&from, &named.join("home/alice/agent-state"));
    let (dot_kinds, dot_rows) = rows_under(&dot, ".copilot");
    let (named_kinds, named_rows) = rows_under(&named, "agent-state");
    assert_eq!(named_kinds, dot_kinds);
    assert!(
        dot_kinds.contains(&"copilot session store\thome/alice/HOME/session-store.db".into()),
        "{dot_kinds:?}"
    );
    assert_eq!((named_rows.len(), dot_rows.len()), (DOT_ROWS, DOT_ROWS));
    assert_eq!(named_rows, dot_rows);
    // without its session folders the same folder's files are too common to claim
    std::fs::remove_dir_all(named.join("home/alice/agent-state/session-state")).unwrap();
    let found = Scanner::new().root(&named).discover().unwrap();
    assert_eq!(
        found.len(),
        0,
        "{:?}",
        found.iter().map(|f| &f.path).collect::<Vec<_>>()
    );
}

/// Every row of the evidence tree, the secondary copies kept, names the file it came
/// from and its place in it (a line, a byte, a key, a page, or the whole file or its
/// path for a row about the file itself): none is left without.
#[test]
fn every_row_names_its_file_and_its_place() {
    let run = Scanner::new()
        .root(evidence())
        .keep_copies(true)
        .run()
        .unwrap();
    assert_eq!(run.rows.len(), 932);
    let unplaced: Vec<String> = run
        .rows
        .iter()
        .filter(|r| r.source_file.is_empty() || r.source_locator.is_empty())
        .map(|r| format!("{} | {} | {}", r.source_file, r.source_locator, r.text))
        .collect();
    assert_eq!(unplaced, Vec::<String>::new());
}

/// A session whose `events.jsonl` was deleted keeps its folder's lock file and rewind
/// backups: with no log (and, for a backup, no snapshot index) to list them, each is
/// claimed on its own and gives its row, located in its own file.
#[test]
fn a_deleted_sessions_lock_and_backups_are_still_listed() {
    let from = evidence().join("lin-ws01/home/alice/.copilot");
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home/alice/.copilot");
    common::copy_tree(&from, &home);
    let session = home.join("session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70");
    let companions = |root: &Path| {
        let (kinds, rows) = rows_under(root, ".copilot");
        let kinds: Vec<String> = kinds
            .into_iter()
            .filter(|k| k.starts_with("copilot cli session lock or backup"))
            .map(|k| {
                k.replace(
                    "home/alice/HOME/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/",
                    "",
                )
            })
            .collect();
        let rows: Vec<String> = rows
            .into_iter()
            .filter(|r| r.contains("session lock:") || r.contains("edit snapshot backup:"))
            .map(|r| {
                r.replace(
                    "home/alice/HOME/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/",
                    "",
                )
            })
            .collect();
        (kinds, rows)
    };
    // with its log, the lock is listed by the log, the backups by the snapshot index
    let (kinds, rows) = companions(dir.path());
    assert_eq!(kinds, Vec::<String>::new());
    assert_eq!(
        rows,
        [
            "events.jsonl|inuse.4242.lock|live|system|0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70|\"session lock: in use by pid 4242 (inuse.4242.lock present, file mtime)\"",
            "rewind-file-snapshots/index.json|backups/4444444444444444444444444444444444444444444444444444444444444d04|live|system|0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70|\"edit snapshot backup: 4444444444444444444444444444444444444444444444444444444444444d04, 33 bytes, named by no snapshot (contents not read)\""
        ]
    );
    // the log deleted: the lock is claimed (empty, a marker) and listed from itself
    std::fs::remove_file(session.join("events.jsonl")).unwrap();
    let (kinds, rows) = companions(dir.path());
    assert_eq!(
        kinds,
        ["copilot cli session lock or backup\tinuse.4242.lock"]
    );
    assert_eq!(
        rows,
        [
            "inuse.4242.lock|inuse.4242.lock|live|system|0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70|\"session lock: in use by pid 4242 (inuse.4242.lock present, file mtime)\"",
            "rewind-file-snapshots/index.json|backups/4444444444444444444444444444444444444444444444444444444444444d04|live|system|0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70|\"edit snapshot backup: 4444444444444444444444444444444444444444444444444444444444444d04, 33 bytes, named by no snapshot (contents not read)\""
        ]
    );
    // the snapshot index deleted too: each backup is listed, its contents not read
    std::fs::remove_file(session.join("rewind-file-snapshots/index.json")).unwrap();
    let (kinds, rows) = companions(dir.path());
    let b = "rewind-file-snapshots/backups/";
    let sizes: Vec<u64> = [
        "1111111111111111111111111111111111111111111111111111111111111a01",
        "3333333333333333333333333333333333333333333333333333333333333c03",
        "4444444444444444444444444444444444444444444444444444444444444d04",
    ]
    .iter()
    .map(|n| std::fs::metadata(session.join(b).join(n)).unwrap().len())
    .collect();
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    assert_eq!(
        kinds[0],
        "copilot cli session lock or backup\tinuse.4242.lock"
    );
    assert_eq!(
        kinds[3],
        format!(
            "copilot cli session lock or backup\t{b}4444444444444444444444444444444444444444444444444444444444444d04"
        )
    );
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert_eq!(
        rows[1],
        format!(
            "{b}1111111111111111111111111111111111111111111111111111111111111a01|{b}1111111111111111111111111111111111111111111111111111111111111a01|live|system|0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70|\"edit snapshot backup: 1111111111111111111111111111111111111111111111111111111111111a01, {} bytes, no snapshot index beside it (contents not read)\"",
            sizes[0]
        )
    );
}
