//! Pins the rows of the project's Tabby fixtures (built by `examples/tabby_fixtures.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, RecordState, Row, Store, TurnType};
use tabby_db::{ServerDb, TabbyStore};

fn evidence_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

fn tabby_root() -> PathBuf {
    evidence_root().join("tabby-srv/home/tabby/.tabby")
}

fn volume_root() -> PathBuf {
    evidence_root().join("tabby-srv/var/lib/docker/volumes/tabby_data/_data")
}

/// One line per row: time | session | turn | state | file name | line | locator | project | text (JSON).
fn render(rows: &[Row]) -> String {
    rows.iter()
        .map(|r| {
            let file = Path::new(&r.source_file)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            // config.toml rows are at the file's mtime, which a checkout sets: pinned apart.
            let ts = if r.text.starts_with("model configured:") {
                "<mtime>".to_string()
            } else {
                r.timestamp.map(|t| t.to_string()).unwrap_or_default()
            };
            format!(
                "{ts} | {} | {} | {}{} | {file} | {} | {} | {} | {}\n",
                r.session_id,
                r.turn_type,
                r.record_state,
                if r.secondary { "*" } else { "" },
                r.source_line.map(|l| l.to_string()).unwrap_or_default(),
                r.source_locator,
                r.project_path,
                serde_json::to_string(&r.text).unwrap()
            )
        })
        .collect()
}

fn pinned(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    if std::env::var_os("TABBY_DB_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let diff: Vec<String> = expected
            .lines()
            .zip(actual.lines())
            .filter(|(a, b)| a != b)
            .take(5)
            .map(|(a, b)| format!("- {a}\n+ {b}"))
            .collect();
        panic!(
            "rows differ from {name} ({} expected lines, {} actual); first differences:\n{}",
            expected.lines().count(),
            actual.lines().count(),
            diff.join("\n")
        );
    }
}

#[test]
fn server_root_rows_are_pinned() {
    let ev = Evidence::new();
    let rows = tabby_db::read_root(&tabby_root(), &ev);
    pinned("tabby-root.rows", &render(&rows));
    // Every file of the root was read, the WAL included.
    let read: Vec<String> = ev
        .manifest()
        .iter()
        .map(|m| {
            Path::new(&m.path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        read,
        vec![
            "config.toml",
            "db.backup-20260925.sqlite",
            "db.sqlite",
            "db.sqlite-wal",
            "2026-06-15.json",
            "2026-10-01.json"
        ]
    );
    // config.toml rows are at the file's mtime.
    let mtime = ev.modified(&tabby_root().join("config.toml"));
    assert!(mtime.is_some());
    let model_rows: Vec<_> = rows
        .iter()
        .filter(|r| r.text.starts_with("model configured:"))
        .collect();
    assert_eq!(model_rows.len(), 3);
    assert!(model_rows.iter().all(|r| r.timestamp == mtime));
}

#[test]
fn docker_volume_rows_are_pinned() {
    let ev = Evidence::new();
    let rows = tabby_db::read_root(&volume_root(), &ev);
    pinned("docker-volume.rows", &render(&rows));
}

fn store_rows(path: &Path, ev: &Evidence, store: &TabbyStore) -> Vec<Row> {
    let display = path
        .strip_prefix(evidence_root())
        .unwrap()
        .display()
        .to_string();
    let ctx = FileContext {
        display_path: display,
        ..FileContext::default()
    };
    assert!(store.claim(path).is_some(), "{}", path.display());
    store.read(path, &ctx, ev)
}

#[test]
fn the_store_gives_each_file_the_rows_of_the_root() {
    let ev = Evidence::new();
    let store = TabbyStore::default();
    let root = tabby_root();
    let files = [
        "ee/db.sqlite",
        "ee/db.backup-20260925.sqlite",
        "events/2026-06-15.json",
        "events/2026-10-01.json",
        "config.toml",
    ];
    let mut by_store = Vec::new();
    for f in files {
        let rows = store_rows(&root.join(f), &ev, &store);
        assert!(!rows.is_empty(), "{f}");
        for r in &rows {
            assert_eq!(r.source_file, format!("tabby-srv/home/tabby/.tabby/{f}"));
            assert_eq!(r.agent, "tabby");
        }
        by_store.extend(rows);
    }
    let by_root = tabby_db::read_root(&root, &Evidence::new());
    let strip = |rows: &[Row]| -> Vec<Row> {
        let mut v: Vec<Row> = rows
            .iter()
            .cloned()
            .map(|mut r| {
                r.source_file = Path::new(&r.source_file)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                r
            })
            .collect();
        v.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        v
    };
    assert_eq!(strip(&by_store), strip(&by_root));
    // A second read of any file gives the same rows.
    for f in files {
        let again = store_rows(&root.join(f), &ev, &store);
        let first: Vec<&Row> = by_store
            .iter()
            .filter(|r| r.source_file.ends_with(f))
            .collect();
        assert_eq!(again.iter().collect::<Vec<_>>(), first, "{f}");
    }
    // The sidecars are not claimed: the WAL is read with its database.
    assert!(store.claim(&root.join("ee/db.sqlite-wal")).is_none());
}

#[test]
fn wal_only_rows_appear() {
    let ee = tabby_root().join("ee");
    let main = std::fs::read(ee.join("db.sqlite")).unwrap();
    let wal = std::fs::read(ee.join("db.sqlite-wal")).unwrap();
    let without = ServerDb::from_bytes(&main, None).unwrap();
    let with = ServerDb::from_bytes(&main, Some(&wal)).unwrap();
    let ids = |db: &ServerDb| {
        db.threads
            .iter()
            .filter(|t| t.place.is_live())
            .map(|t| t.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&without), vec![4, 7, 8, 9]);
    assert_eq!(ids(&with), vec![4, 7, 8, 9, 10]);
    assert_eq!(with.schema_level, Some(50));
    let newest: Vec<_> = with
        .messages
        .iter()
        .filter(|m| m.thread_id == Some(10))
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(
        newest,
        vec![
            "Write a migration adding an index on orders.created_at",
            "CREATE INDEX orders_created_at ON orders(created_at);"
        ]
    );
}

#[test]
fn deleted_rows_are_recovered() {
    let rows = tabby_db::read_root(&tabby_root(), &Evidence::new());
    let deleted: Vec<String> = rows
        .iter()
        .filter(|r| r.record_state == RecordState::Deleted)
        .map(|r| {
            format!(
                "{} | {} | {} | {}",
                r.session_id, r.turn_type, r.source_locator, r.text
            )
        })
        .collect();
    assert_eq!(
        deleted,
        vec![
            // the purged ephemeral thread (its rowid was overwritten by the freeblock link)
            " | system | table threads (deleted), freeblock at main file page 17 offset 3973 | thread start | owner carol@example.com | ephemeral",
            // the question-and-answer pair deleted from thread 7, in the WAL's older frames
            "7 | user | table thread_messages rowid 28 (deleted), wal frame 5 (page 18) cell 10 | Can I skip clearing in tests?",
            "7 | assistant | table thread_messages rowid 29 (deleted), wal frame 5 (page 18) cell 11 | Yes, with the `no-cache` feature.",
            "6 | assistant | table thread_messages (deleted), freeblock at main file page 18 offset 3459 | I cannot see credentials; check the vault entry staging/db.",
            // its question: a freed cell behind a stale link inside a merged freeblock
            // (read since sqlite-evidence reads such cells)
            "6 | user | table thread_messages (deleted), freeblock at main file page 18 offset 3622 | What is the staging database password?",
            // a user_events row pruned by the retention job
            " | system | table user_events (deleted), freeblock at page 13 offset 4026 | chat_completion: user=carol@example.com",
        ]
    );
    assert!(
        rows.iter()
            .filter(|r| r.record_state == RecordState::Deleted)
            .all(|r| !r.secondary)
    );
    // thread 10 was shared after it was written: the WAL's older frame shows it unshared
    let older: Vec<String> = rows
        .iter()
        .filter(|r| r.record_state == RecordState::Recovered)
        .map(|r| format!("{} | {} | {}", r.session_id, r.source_locator, r.text))
        .collect();
    assert_eq!(
        older,
        vec![
            "10 | table threads rowid 10 (older version), wal frame 2 (page 17) cell 4 | thread start | owner alice@example.com (Alice) | ephemeral"
        ]
    );
    // the deleted pair is in the WAL only: the main file alone does not have it
    let main = std::fs::read(tabby_root().join("ee/db.sqlite")).unwrap();
    let db = ServerDb::from_bytes(&main, None).unwrap();
    assert!(db.messages.iter().all(|m| m.id != 28 && m.id != 29));
}

/// A root's rows as the scanner writes them: the copies with a live twin merged away.
fn merged_root(root: &Path) -> (Vec<Row>, usize) {
    chat_rows::merge::merge_secondary(
        tabby_db::read_root(root, &Evidence::new()),
        chat_rows::merge::DEFAULT_WINDOW_MICROS,
    )
}

#[test]
fn backups_keep_what_only_they_hold() {
    let all = tabby_db::read_root(&tabby_root(), &Evidence::new());
    let per_session = |rows: &[Row]| -> BTreeMap<String, usize> {
        rows.iter()
            .filter(|r| r.source_file.ends_with("db.backup-20260925.sqlite"))
            .fold(BTreeMap::new(), |mut m, r| {
                *m.entry(r.session_id.clone()).or_default() += 1;
                m
            })
    };
    // The crate drops no copy: every row of the backup is there, secondary.
    assert_eq!(
        per_session(&all),
        BTreeMap::from([
            ("".to_string(), 4),
            ("4".to_string(), 4),
            ("5".to_string(), 3),
            ("cmpl-june".to_string(), 5),
            ("page:3".to_string(), 3)
        ])
    );
    let (rows, _) = merged_root(&tabby_root());
    let from_backup: Vec<&Row> = rows
        .iter()
        .filter(|r| r.source_file.ends_with("db.backup-20260925.sqlite"))
        .collect();
    assert!(
        from_backup
            .iter()
            .all(|r| r.secondary && r.record_state == RecordState::Secondary)
    );
    let sessions: BTreeMap<&str, usize> = from_backup.iter().fold(BTreeMap::new(), |mut m, r| {
        *m.entry(r.session_id.as_str()).or_default() += 1;
        m
    });
    // Thread 5 (deleted since) and June's completion (pruned since) only; thread 4,
    // page 3, the users' integration rows are the live database's and merged away.
    assert_eq!(
        sessions,
        BTreeMap::from([("", 1), ("5", 3), ("cmpl-june", 4)])
    );
    assert_eq!(per_session(&rows).values().sum::<usize>(), 8);
    assert_eq!(
        from_backup[0].text,
        "pre-migration backup: db.backup-20260925.sqlite schema level 0044 (a copy of the live database taken before a migration)"
    );
}

#[test]
fn backup_at_0044_renders_attachments_once() {
    let db = ServerDb::from_path(
        &tabby_root().join("ee/db.backup-20260925.sqlite"),
        &Evidence::new(),
    )
    .unwrap();
    assert_eq!(db.schema_level, Some(44));
    let m = db.messages.iter().find(|m| m.id == 11).unwrap();
    assert_eq!(m.attachment.code.len(), 1);
    assert_eq!(
        m.attachment.append_to(&m.content),
        "The pool holds 64 connections.\n\n[code: git_url=https://github.com/acme/app filepath=src/db.rs start_line=40 commit=9f1e2d3 language=rust]"
    );
    assert!(db.repositories.iter().all(|r| r.refs.is_none()));
}

#[test]
fn event_log_users_resolve_to_emails_only_with_the_database() {
    let bytes = std::fs::read(tabby_root().join("events/2026-10-01.json")).unwrap();
    let log = tabby_db::EventLog::from_bytes(&bytes);
    let src = tabby_db::rows::Source {
        file: "2026-10-01.json",
        secondary: true,
    };
    let db = ServerDb::from_path(&tabby_root().join("ee/db.sqlite"), &Evidence::new()).unwrap();
    let with = tabby_db::rows::log_rows(&log, &db.users, &src);
    let without = tabby_db::rows::log_rows(&log, &BTreeMap::new(), &src);
    let heads = |rows: &[Row]| -> Vec<String> {
        rows.iter()
            .filter(|r| r.turn_type == TurnType::System && !r.is_parser())
            .map(|r| r.text.clone())
            .collect()
    };
    assert_eq!(
        heads(&with),
        vec![
            "completion: user=alice@example.com language=python filepath=app/math.py user_agent=tabby-agent/1.9",
            "view: user=alice@example.com choice_index=0 view_id=view-1",
            "select: user=alice@example.com choice_index=0 kind=line view_id=view-1 elapsed=1377",
            "chat_completion: user=alice@example.com",
            "completion: language=rust",
            "completion: user=bob@example.com language=typescript filepath=src/sum.ts user_agent=tabby-agent/1.9",
            "dismiss: user=bob@example.com choice_index=0 view_id=view-9 elapsed=1000",
        ]
    );
    assert_eq!(
        heads(&without)[0],
        "completion: user_id=1 language=python filepath=app/math.py user_agent=tabby-agent/1.9"
    );
    // the cut last line: one parser row, every line before it read
    let parser: Vec<_> = with.iter().filter(|r| r.is_parser()).collect();
    assert_eq!(parser.len(), 1);
    assert_eq!(parser[0].source_line, Some(8));
    assert!(
        parser[0]
            .text
            .starts_with("parser: unparseable line (torn last line: EOF while parsing a string")
    );
}

#[test]
fn intellij_history_rows() {
    let path = evidence_root().join("lin-ws01/home/alice/.config/JetBrains/IntelliJIdea2024.2/options/intellij-tabby-command-history.xml");
    let rows = store_rows(&path, &Evidence::new(), &TabbyStore::default());
    assert_eq!(
        render(&rows),
        concat!(
            " | command-history:intellij:IntelliJIdea2024.2 | system | secondary* | intellij-tabby-command-history.xml |  | whole file |  | \"inline edit command history: 3 commands, newest first (from intellij-tabby-command-history.xml, no times)\"\n",
            " | command-history:intellij:IntelliJIdea2024.2 | user | secondary* | intellij-tabby-command-history.xml | 1 | byte 136 |  | \"add docstrings\"\n",
            " | command-history:intellij:IntelliJIdea2024.2 | user | secondary* | intellij-tabby-command-history.xml | 2 | byte 178 |  | \"convert to a data class\"\n",
            " | command-history:intellij:IntelliJIdea2024.2 | user | secondary* | intellij-tabby-command-history.xml | 3 | byte 229 |  | \"handle the \\\"null\\\" case\"\n",
        )
    );
}

#[test]
fn vscodium_state_rows_and_other_state_databases() {
    let store = TabbyStore::default();
    let path = evidence_root()
        .join("WIN-DESK03/C/Users/carol/AppData/Roaming/VSCodium/User/globalStorage/state.vscdb");
    let rows = store_rows(&path, &Evidence::new(), &store);
    assert_eq!(
        render(&rows),
        concat!(
            " | command-history:vscode:VSCodium | system | secondary* | state.vscdb |  | ItemTable key=TabbyML.vscode-tabby |  | \"inline edit command history: 2 commands, newest first (from state.vscdb TabbyML.vscode-tabby edit.recentlyCommand, no times)\"\n",
            " | command-history:vscode:VSCodium | user | secondary* | state.vscdb | 1 | ItemTable key=TabbyML.vscode-tabby edit.recentlyCommand[0] |  | \"rename @file to snake case [context: file:///c%3A/work/app/math.py]\"\n",
            " | command-history:vscode:VSCodium | user | secondary* | state.vscdb | 2 | ItemTable key=TabbyML.vscode-tabby edit.recentlyCommand[1] |  | \"fix the typo\"\n",
        )
    );
    // A state.vscdb without the extension's row gives nothing.
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("User/globalStorage/state.vscdb");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); INSERT INTO ItemTable VALUES ('a', '1');")
        .unwrap();
    drop(conn);
    assert!(
        store
            .read(&other, &FileContext::default(), &Evidence::new())
            .is_empty()
    );
}

/// A named profile keeps its own global state, so the extension's history of a window
/// of that profile is in `User/profiles/<id>/globalStorage/state.vscdb` (vscode.txt,
/// profile scope); it was never claimed. It gives the rows the default profile's
/// database gives, in the profile's own session.
#[test]
fn a_named_profiles_state_database_gives_its_command_history() {
    let store = TabbyStore::default();
    let dir = tempfile::tempdir().unwrap();
    let rel = "home/u/.config/Code/User/profiles/5a1b/globalStorage/state.vscdb";
    let db = dir.path().join(rel);
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);")
        .unwrap();
    conn.execute(
        "INSERT INTO ItemTable VALUES ('TabbyML.vscode-tabby', ?1)",
        [r#"{"server.serverRecords": {"http://localhost:8080": {"token": "auth_SECRETTAB"}}, "edit.recentlyCommand": ["{\"command\":\"rename @file to snake case\",\"context\":[{\"referrer\":\"@file\",\"uri\":\"file:///srv/proj/app/math.py\"}]}", "fix the typo", "line1\nline2"]}"#],
    )
    .unwrap();
    drop(conn);
    assert_eq!(
        store.claim(&db).map(|c| c.kind),
        Some("state database (tabby command history)")
    );
    let ctx = FileContext {
        display_path: format!("h1/{rel}"),
        ..FileContext::default()
    };
    let rows = store.read(&db, &ctx, &Evidence::new());
    assert_eq!(
        render(&rows),
        concat!(
            " | command-history:vscode:Code/profiles/5a1b | system | secondary* | state.vscdb |  | ItemTable key=TabbyML.vscode-tabby |  | \"inline edit command history: 3 commands, newest first (from state.vscdb TabbyML.vscode-tabby edit.recentlyCommand, no times)\"\n",
            " | command-history:vscode:Code/profiles/5a1b | user | secondary* | state.vscdb | 1 | ItemTable key=TabbyML.vscode-tabby edit.recentlyCommand[0] |  | \"rename @file to snake case [context: file:///srv/proj/app/math.py]\"\n",
            " | command-history:vscode:Code/profiles/5a1b | user | secondary* | state.vscdb | 2 | ItemTable key=TabbyML.vscode-tabby edit.recentlyCommand[1] |  | \"fix the typo\"\n",
            " | command-history:vscode:Code/profiles/5a1b | user | secondary* | state.vscdb | 3 | ItemTable key=TabbyML.vscode-tabby edit.recentlyCommand[2] |  | \"line1\\nline2\"\n",
        )
    );
    assert!(!format!("{rows:?}").contains("auth_SECRETTAB"));
}

/// VS Code reads the extension's global state with `JSON.parse`, which has no depth
/// limit: a state nested deeper than serde_json reads (here a server record 200 levels
/// deep) still gives its command history, after one `parser:` row for the part not
/// read (read strictly, the whole history was one `not valid JSON` row).
#[test]
fn a_state_nested_deeper_than_serde_json_reads_still_gives_its_commands() {
    let store = TabbyStore::default();
    let dir = tempfile::tempdir().unwrap();
    let rel = "home/u/.config/Code/User/globalStorage/state.vscdb";
    let db = dir.path().join(rel);
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);")
        .unwrap();
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    conn.execute(
        "INSERT INTO ItemTable VALUES ('TabbyML.vscode-tabby', ?1)",
        [format!(
            r#"{{"server.serverRecords": {deep}, "edit.recentlyCommand": ["drop the audit table"]}}"#
        )],
    )
    .unwrap();
    drop(conn);
    let ctx = FileContext {
        display_path: format!("h1/{rel}"),
        ..FileContext::default()
    };
    let rows = store.read(&db, &ctx, &Evidence::new());
    assert_eq!(
        render(&rows),
        concat!(
            " | command-history:vscode:Code | system | secondary* | state.vscdb |  | ItemTable key=TabbyML.vscode-tabby |  | \"parser: ItemTable value for TabbyML.vscode-tabby is nested deeper than 120 levels at byte 144: that part not read (VS Code would load it)\"\n",
            " | command-history:vscode:Code | system | secondary* | state.vscdb |  | ItemTable key=TabbyML.vscode-tabby |  | \"inline edit command history: 1 commands, newest first (from state.vscdb TabbyML.vscode-tabby edit.recentlyCommand, no times)\"\n",
            " | command-history:vscode:Code | user | secondary* | state.vscdb | 1 | ItemTable key=TabbyML.vscode-tabby edit.recentlyCommand[0] |  | \"drop the audit table\"\n",
        )
    );
}

/// The command histories pair with nothing (tabby.txt) and are kept: every row of a
/// history file is in its installation's own session, `command-history:<client>:<IDE or
/// product folder>`, so
/// neither of the scanner's merge rules can take one away. A secondary row with neither
/// a session nor a time is merged when a prompt of the same text exists (a thread
/// prompt, or another history's command), and secondary rows of two files with the
/// same session, turn, text and time are written once; here two histories holding the
/// same commands, and the same count in their leading rows, share no twin key.
#[test]
fn command_histories_are_sessions_of_their_own() {
    let store = TabbyStore::default();
    let xml = evidence_root().join(
        "lin-ws01/home/alice/.config/JetBrains/IntelliJIdea2024.2/options/intellij-tabby-command-history.xml",
    );
    let vscdb = evidence_root()
        .join("WIN-DESK03/C/Users/carol/AppData/Roaming/VSCodium/User/globalStorage/state.vscdb");
    let sessions = |rows: &[Row]| {
        let mut s: Vec<String> = rows.iter().map(|r| r.session_id.clone()).collect();
        s.dedup();
        s
    };
    let xml_rows = store_rows(&xml, &Evidence::new(), &store);
    assert_eq!(xml_rows.len(), 4);
    assert_eq!(
        sessions(&xml_rows),
        ["command-history:intellij:IntelliJIdea2024.2"]
    );
    let vscdb_rows = store_rows(&vscdb, &Evidence::new(), &store);
    assert_eq!(vscdb_rows.len(), 3);
    assert_eq!(sessions(&vscdb_rows), ["command-history:vscode:VSCodium"]);
    // The same history in two IDEs of one user: the same texts, other sessions.
    let dir = tempfile::tempdir().unwrap();
    let mut per_file = Vec::new();
    for product in ["IntelliJIdea2024.2", "PyCharm2024.1"] {
        let copy = dir.path().join(format!(
            "u/.config/JetBrains/{product}/options/intellij-tabby-command-history.xml"
        ));
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(&xml, &copy).unwrap();
        let ctx = FileContext {
            display_path: format!(
                "u/.config/JetBrains/{product}/options/intellij-tabby-command-history.xml"
            ),
            ..FileContext::default()
        };
        per_file.push(store.read(&copy, &ctx, &Evidence::new()));
    }
    assert_eq!(
        per_file
            .iter()
            .map(|rows| sessions(rows))
            .collect::<Vec<_>>(),
        [
            ["command-history:intellij:IntelliJIdea2024.2"],
            ["command-history:intellij:PyCharm2024.1"],
        ]
    );
    let texts = |rows: &[Row]| rows.iter().map(|r| r.text.clone()).collect::<Vec<_>>();
    assert_eq!(texts(&per_file[0]), texts(&per_file[1]));
    let keys = |rows: &[Row]| {
        rows.iter()
            .map(|r| chat_rows::merge::twin_key("alice", r))
            .collect::<std::collections::HashSet<_>>()
    };
    assert!(keys(&per_file[0]).is_disjoint(&keys(&per_file[1])));
    // every row is secondary, untimed, and named by a session (so never a loose copy)
    for r in per_file
        .iter()
        .flatten()
        .chain(&xml_rows)
        .chain(&vscdb_rows)
    {
        assert!(r.secondary && r.timestamp.is_none() && !r.session_id.is_empty());
    }
    // Against the rows of a server root, merge_secondary drops none of them.
    let root = tabby_db::read_root(&tabby_root(), &Evidence::new());
    let (_, dropped_alone) = chat_rows::merge::merge_secondary(root.clone(), 2_000_000);
    let mut all = root;
    all.extend(xml_rows.iter().cloned());
    all.extend(vscdb_rows.iter().cloned());
    let (kept, dropped) = chat_rows::merge::merge_secondary(all, 2_000_000);
    assert_eq!(dropped, dropped_alone);
    assert_eq!(kept[kept.len() - 7..], [xml_rows, vscdb_rows].concat()[..]);
}

/// Every output of every Tabby fixture, in every format, searched for the secrets the
/// fixtures hold (all marked `SECRET`) and for the shapes of Tabby's credentials.
#[test]
fn no_secret_reaches_any_output() {
    let store = TabbyStore::default();
    let ev = Evidence::new();
    let mut rows = Vec::new();
    for entry in walk(&evidence_root()) {
        if store.claim(&entry).is_some() {
            rows.extend(store.read(&entry, &FileContext::default(), &ev));
        }
    }
    assert!(rows.len() > 70, "{}", rows.len());
    for format in [
        chat_rows::write::Format::Jsonl,
        chat_rows::write::Format::Csv,
    ] {
        let (bytes, _) = chat_rows::write::to_bytes(format, &rows).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        for needle in [
            "SECRET",
            "sk-",
            "ghp_",
            "glpat",
            "auth_",
            "argon2",
            "serverRecords",
            "token",
        ] {
            assert!(!text.contains(needle), "{needle} in {format:?} output");
        }
    }
    // and the decoded values themselves
    let db = ServerDb::from_path(&tabby_root().join("ee/db.sqlite"), &ev).unwrap();
    assert!(!format!("{db:?}").contains("SECRET"));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    walk(dir)
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect()
}

#[test]
fn reading_changes_no_evidence() {
    let server = evidence_root().join("tabby-srv");
    let before = snapshot(&server);
    assert!(before.iter().any(|(p, _)| p.ends_with("db.sqlite-wal")));
    let store = TabbyStore::default();
    let ev = Evidence::new();
    for (p, _) in &before {
        if store.claim(p).is_some() {
            let _ = store.read(p, &FileContext::default(), &ev);
        }
    }
    let _ = tabby_db::read_root(&tabby_root(), &ev);
    let _ = tabby_db::read_root(&volume_root(), &ev);
    let after = snapshot(&server);
    assert_eq!(before.len(), after.len(), "files were added or removed");
    assert!(before == after, "file contents changed");
}

#[test]
fn parallel_reads_of_one_root_give_the_sequential_rows() {
    let root = tabby_root();
    let files = [
        "ee/db.sqlite",
        "ee/db.backup-20260925.sqlite",
        "events/2026-06-15.json",
        "events/2026-10-01.json",
    ];
    let sequential: Vec<Vec<Row>> = {
        let store = TabbyStore::default();
        let ev = Evidence::new();
        files
            .iter()
            .map(|f| store_rows(&root.join(f), &ev, &store))
            .collect()
    };
    let store = TabbyStore::default();
    let ev = Evidence::new();
    let parallel: Vec<Vec<Row>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .map(|f| {
                let (root, ev, store) = (&root, &ev, &store);
                s.spawn(move || store_rows(&root.join(f), ev, store))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(parallel, sequential);
}

#[test]
fn log_lines_without_a_user_events_twin_are_kept() {
    let (rows, _) = merged_root(&tabby_root());
    let from_log = |day: &str| -> Vec<String> {
        rows.iter()
            .filter(|r| r.source_file.ends_with(day))
            .map(|r| {
                format!(
                    "{} {} {}",
                    r.source_line.unwrap_or(0),
                    r.session_id,
                    r.turn_type
                )
            })
            .collect()
    };
    // 2026-10-01: lines 1-4 (alice's completion, view, select, chat completion) have
    // user_events twins and merge away; the anonymous completion (line 5), bob's
    // completion and dismiss (lines 6-7, no user_events rows) and the cut line stay.
    assert_eq!(
        from_log("2026-10-01.json"),
        vec![
            "5 cmpl-anon system",
            "5 cmpl-anon user",
            "5 cmpl-anon assistant",
            "6 cmpl-b0b1 system",
            "6 cmpl-b0b1 user",
            "6 cmpl-b0b1 assistant",
            "7 cmpl-b0b1 system",
            "8  system",
        ]
    );
    // 2026-06-15: the completion and view were pruned from the live database; the
    // backup holds them too, but a secondary row pairs only with a primary one, so the
    // log's lines stay beside the backup's (each file is its own evidence that they
    // outlived the purge); the dismiss was never in user_events.
    assert_eq!(
        from_log("2026-06-15.json"),
        vec![
            "1 cmpl-june system",
            "1 cmpl-june user",
            "1 cmpl-june assistant",
            "2 cmpl-june system",
            "3 cmpl-june system"
        ]
    );
    assert!(
        rows.iter()
            .filter(|r| r.source_file.ends_with(".json"))
            .all(|r| r.secondary)
    );
}
