//! Builds the Tabby fixtures of `fixtures/evidence` (run from the workspace root):
//!
//! ```text
//! cargo run -p tabby-db --example tabby_fixtures [-- <evidence root>]
//! ```
//!
//! It writes, with SQLite itself (rusqlite), databases shaped as Tabby's migrations
//! leave them at three schema levels, and the text files beside them:
//!
//! * `tabby-srv/home/tabby/.tabby/`: `ee/db.sqlite` at level 0050 in WAL mode, with a
//!   `-wal` that holds the newest rows and a deleted question-and-answer pair, and
//!   freed space holding a purged ephemeral thread and pruned `user_events`;
//!   `ee/db.backup-20260925.sqlite` at level 0044 (both attachment forms), holding a
//!   thread deleted since and events pruned since; `events/*.json` (one with a cut last
//!   line); `config.toml` with an `api_key`;
//! * `tabby-srv/var/lib/docker/volumes/tabby_data/_data/`: a root at level 0039
//!   (per-kind attachment columns only, no pages) without the leading `.tabby/`;
//! * the IntelliJ command history of `lin-ws01`'s alice and the VSCodium
//!   `state.vscdb` (with a `TabbyML.vscode-tabby` row) of `WIN-DESK03`'s carol.
//!
//! Every secret in them is a marker containing `SECRET`, which the tests search for
//! in the output.

use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};

type R<T> = Result<T, Box<dyn std::error::Error>>;

/// The DDL of the tables the crate reads (and a few secret-holding ones), as the
/// migrations up to `level` leave them.
fn schema(level: u32) -> String {
    let mut s = String::new();
    s.push_str(
        "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, \
         installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, \
         checksum BLOB NOT NULL, execution_time BIGINT NOT NULL);\n",
    );
    s.push_str("CREATE TABLE registration_token (id INTEGER PRIMARY KEY AUTOINCREMENT, token VARCHAR(255) NOT NULL, created_at TIMESTAMP DEFAULT (DATETIME('now')), updated_at TIMESTAMP DEFAULT (DATETIME('now')), CONSTRAINT `idx_token` UNIQUE (`token`));\n");
    s.push_str(&format!(
        "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, email VARCHAR(150) NOT NULL COLLATE NOCASE, \
         is_admin BOOLEAN NOT NULL DEFAULT 0, created_at TIMESTAMP DEFAULT (DATETIME('now')), \
         updated_at TIMESTAMP DEFAULT (DATETIME('now')), auth_token VARCHAR(128) NOT NULL, \
         active BOOLEAN NOT NULL DEFAULT 1, password_encrypted VARCHAR(128), avatar BLOB DEFAULT NULL{}, \
         CONSTRAINT `idx_email` UNIQUE (`email`), CONSTRAINT `idx_auth_token` UNIQUE (`auth_token`));\n",
        if level >= 30 { ", name VARCHAR(255)" } else { "" }
    ));
    s.push_str("CREATE TABLE refresh_tokens (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER NOT NULL, token VARCHAR(255) NOT NULL COLLATE NOCASE, expires_at TIMESTAMP NOT NULL, created_at TIMESTAMP DEFAULT (DATETIME('now')), CONSTRAINT `idx_token` UNIQUE (`token`));\n");
    s.push_str("CREATE TABLE user_completions (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER INTEGER NOT NULL, completion_id VARCHAR(255) NOT NULL, language VARCHAR(255) NOT NULL, views INTEGER NOT NULL DEFAULT 0, selects INTEGER NOT NULL DEFAULT 0, dismisses INTEGER NOT NULL DEFAULT 0, created_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), updated_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), FOREIGN KEY(user_id) REFERENCES users(id) ON DELETE CASCADE);\nCREATE INDEX user_completions_completion_id_idx ON user_completions (completion_id);\n");
    s.push_str("CREATE TABLE user_events (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER NOT NULL, kind TEXT NOT NULL, created_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), payload BLOB NOT NULL, FOREIGN KEY(user_id) REFERENCES users(id) ON DELETE CASCADE);\nCREATE INDEX idx_user_events_user_id ON user_events(user_id);\nCREATE INDEX idx_user_events_created_at ON user_events(created_at);\n");
    s.push_str(&format!(
        "CREATE TABLE integrations (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, display_name TEXT NOT NULL, access_token TEXT NOT NULL, api_base TEXT, error TEXT, created_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), updated_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), synced BOOLEAN NOT NULL DEFAULT FALSE);\n\
         CREATE TABLE provided_repositories (id INTEGER PRIMARY KEY AUTOINCREMENT, integration_id INTEGER NOT NULL, vendor_id TEXT NOT NULL, name TEXT NOT NULL, git_url TEXT NOT NULL, active BOOLEAN NOT NULL DEFAULT FALSE, created_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), updated_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')){}, FOREIGN KEY (integration_id) REFERENCES integrations(id) ON DELETE CASCADE, CONSTRAINT provided_repository_unique_constraint UNIQUE (integration_id, vendor_id));\n",
        if level >= 50 { ", refs TEXT" } else { "" }
    ));
    s.push_str("CREATE TABLE threads (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, is_ephemeral BOOLEAN NOT NULL, user_id INTEGER NOT NULL, created_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), updated_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), relevant_questions BLOB, FOREIGN KEY(user_id) REFERENCES users(id) ON DELETE CASCADE);\n");
    let mut msg = String::from(
        "CREATE TABLE thread_messages (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, thread_id INTEGER NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL",
    );
    if level <= 44 {
        msg.push_str(", code_attachments BLOB, client_code_attachments BLOB, doc_attachments BLOB");
    }
    msg.push_str(", created_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), updated_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now'))");
    if level >= 40 {
        msg.push_str(", code_source_id VARCHAR(255)");
    }
    if level >= 42 {
        msg.push_str(", attachment BLOB NOT NULL DEFAULT '{}'");
    }
    msg.push_str(", FOREIGN KEY(thread_id) REFERENCES threads(id) ON DELETE CASCADE);\n");
    s.push_str(&msg);
    if level >= 43 {
        s.push_str(&format!(
            "CREATE TABLE pages (id INTEGER PRIMARY KEY AUTOINCREMENT, author_id INTEGER NOT NULL, title TEXT, content TEXT, created_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), updated_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')){}, FOREIGN KEY(author_id) REFERENCES users(id) ON DELETE CASCADE);\n\
             CREATE TABLE page_sections (id INTEGER PRIMARY KEY AUTOINCREMENT, page_id INTEGER NOT NULL, title TEXT NOT NULL, content TEXT, position INTEGER NOT NULL, created_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')), updated_at TIMESTAMP NOT NULL DEFAULT (DATETIME('now')){}, FOREIGN KEY(page_id) REFERENCES pages(id) ON DELETE CASCADE, CONSTRAINT `unique_page_id_position` UNIQUE (page_id, position));\n",
            if level >= 44 { ", code_source_id VARCHAR(255)" } else { "" },
            if level >= 44 { ", attachment BLOB NOT NULL DEFAULT '{}'" } else { "" }
        ));
    }
    s
}

fn migrations(conn: &Connection, level: u32) -> R<()> {
    for v in (1..=level).filter(|v| *v != 32) {
        conn.execute(
            "INSERT INTO _sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (?1, ?2, '2024-05-01 00:00:00', 1, ?3, 1000)",
            params![v, format!("migration {v:04}"), vec![v as u8; 48]],
        )?;
    }
    Ok(())
}

const USERS: &str = "
INSERT INTO users(id,email,is_admin,auth_token,active,password_encrypted,name,created_at,updated_at) VALUES
 (1,'alice@example.com',1,'auth_SECRET_alice_0123456789abcdef01',1,'$argon2id$v=19$m=19456,t=2,p=1$SECRETHASHalice',  'Alice','2026-05-01 08:00:00','2026-05-01 08:00:00'),
 (2,'bob@example.com',0,'auth_SECRET_bob_0123456789abcdef0123',1,'$argon2id$v=19$m=19456,t=2,p=1$SECRETHASHbob','Bob','2026-05-02 08:00:00','2026-05-02 08:00:00'),
 (3,'carol@example.com',0,'auth_SECRET_carol_0123456789abcdef01',1,NULL,NULL,'2026-05-03 08:00:00','2026-05-03 08:00:00');
INSERT INTO registration_token(token,created_at,updated_at) VALUES ('SECRET-registration-token','2026-05-01 08:00:00','2026-05-01 08:00:00');
INSERT INTO refresh_tokens(user_id, token, expires_at, created_at) VALUES (1, 'SECRET-refresh-token', '2026-12-01 00:00:00', '2026-10-01 00:00:00');
";

const INTEGRATIONS: &str = "
INSERT INTO integrations(id,kind,display_name,access_token,api_base,created_at,updated_at,synced) VALUES
 (1,'github','acme','ghp_SECRET_github_token_000000000000',NULL,'2026-09-01 09:00:00','2026-09-01 09:00:00',1),
 (2,'gitlab_self_hosted','corp gitlab','glpat-SECRET-gitlab-token','https://gitlab.corp.example/api/v4','2026-09-03 09:00:00','2026-09-03 09:00:00',1);
";

/// Thread 4 (in the live database and the backup) and thread 5 (backup only: deleted since).
const OLD_THREADS: &str = "
INSERT INTO threads(id,is_ephemeral,user_id,created_at,updated_at,relevant_questions) VALUES
 (4,0,1,'2026-09-10 08:00:00','2026-09-10 08:05:00','[\"What else uses the pool?\"]'),
 (5,1,2,'2026-09-20 16:00:00','2026-09-20 16:00:20',NULL);
";

/// (id, thread, role, content, created_at, attachment object, the three per-kind columns)
type OldMessage<'a> = (i64, i64, &'a str, &'a str, &'a str, &'a str, [&'a str; 3]);

fn old_messages(conn: &Connection, level: u32) -> R<()> {
    // (id, thread, role, content, created_at, attachment object, legacy columns)
    let rows: [OldMessage; 4] = [
        (
            10,
            4,
            "user",
            "How big is the connection pool?",
            "2026-09-10 08:00:00",
            "{}",
            ["[]", "[]", "[]"],
        ),
        (
            11,
            4,
            "assistant",
            "The pool holds 64 connections.",
            "2026-09-10 08:00:04",
            r#"{"code":[{"git_url":"https://github.com/acme/app","commit":"9f1e2d3","language":"rust","filepath":"src/db.rs","content":"max_connections(64)","start_line":40}]}"#,
            [
                r#"[{"git_url":"https://github.com/acme/app","commit":"9f1e2d3","language":"rust","filepath":"src/db.rs","content":"max_connections(64)","start_line":40}]"#,
                "[]",
                "[]",
            ],
        ),
        (
            12,
            5,
            "user",
            "Draft a message telling the team the release slips a week",
            "2026-09-20 16:00:00",
            "{}",
            ["[]", "[]", "[]"],
        ),
        (
            13,
            5,
            "assistant",
            "Team, the release moves to October 7.",
            "2026-09-20 16:00:20",
            r#"{"doc":[{"title":"Release calendar","link":"https://wiki.corp.example/release","content":"x"}]}"#,
            [
                "[]",
                "[]",
                r#"[{"title":"Release calendar","link":"https://wiki.corp.example/release","content":"x"}]"#,
            ],
        ),
    ];
    for (id, thread, role, content, at, attachment, legacy) in rows {
        if (42..=44).contains(&level) {
            conn.execute(
                "INSERT INTO thread_messages(id,thread_id,role,content,created_at,updated_at,attachment,code_attachments,client_code_attachments,doc_attachments) VALUES (?1,?2,?3,?4,?5,?5,?6,?7,?8,?9)",
                params![id, thread, role, content, at, attachment, legacy[0], legacy[1], legacy[2]],
            )?;
        } else {
            conn.execute(
                "INSERT INTO thread_messages(id,thread_id,role,content,created_at,updated_at,attachment) VALUES (?1,?2,?3,?4,?5,?5,?6)",
                params![id, thread, role, content, at, attachment],
            )?;
        }
    }
    Ok(())
}

/// Thread 6: carol's ephemeral thread, purged by the 7-day job after the backup.
const PURGED_THREAD: &str = "
INSERT INTO threads(id,is_ephemeral,user_id,created_at,updated_at) VALUES (6,1,3,'2026-09-22 11:00:00','2026-09-22 11:00:30');
INSERT INTO thread_messages(id,thread_id,role,content,created_at,updated_at,attachment) VALUES
 (14,6,'user','What is the staging database password?','2026-09-22 11:00:00','2026-09-22 11:00:00','{\"code\":null,\"client_code\":null,\"doc\":null}'),
 (15,6,'assistant','I cannot see credentials; check the vault entry staging/db.','2026-09-22 11:00:30','2026-09-22 11:00:30','{\"code\":null,\"client_code\":null,\"doc\":null}');
";

/// Events of June, pruned from the live database by the 3-month retention.
fn old_events(conn: &Connection) -> R<()> {
    let completion = serde_json::to_string_pretty(
        &serde_json::json!({"completion":{"completion_id":"cmpl-june","language":"go","prompt":"func main() {\n\t","segments":{"prefix":"func main() {\n\t","git_url":"https://github.com/acme/app","filepath":"cmd/main.go"},"choices":[{"index":0,"text":"fmt.Println(\"hi\")"}],"user_agent":"tabby-agent/1.8"}}),
    )?;
    let view = serde_json::to_string_pretty(
        &serde_json::json!({"view":{"completion_id":"cmpl-june","choice_index":0}}),
    )?;
    conn.execute(
        "INSERT INTO user_events(id,user_id,kind,created_at,payload) VALUES (1,2,'completion','2026-06-15 09:30:00',?1),(2,2,'view','2026-06-15 09:30:01',?2)",
        params![completion, view],
    )?;
    conn.execute(
        "INSERT INTO user_completions(id,user_id,completion_id,language,views,selects,dismisses,created_at,updated_at) VALUES (1,2,'cmpl-june','go',1,0,0,'2026-06-15 09:30:00','2026-06-15 09:30:01')",
        [],
    )?;
    Ok(())
}

fn old_pages(conn: &Connection) -> R<()> {
    conn.execute_batch(
        "INSERT INTO pages(id,author_id,title,content,created_at,updated_at,code_source_id) VALUES (3,2,'Deploy runbook','How a release is deployed.','2026-09-15 10:00:00','2026-09-15 10:01:00','provided_repository:E16n1q');
         INSERT INTO page_sections(id,page_id,title,content,position,created_at,updated_at,attachment) VALUES (5,3,'Build','Run `make release`.',0,'2026-09-15 10:00:20','2026-09-15 10:00:20','{}');",
    )?;
    Ok(())
}

fn current_threads(conn: &Connection) -> R<()> {
    conn.execute_batch(r##"
INSERT INTO threads(id,is_ephemeral,user_id,created_at,updated_at,relevant_questions) VALUES
 (7,0,1,'2026-10-01 10:00:00','2026-10-01 10:00:09','["How is the cache invalidated?"]'),
 (8,1,2,'2026-10-02 14:00:00','2026-10-02 14:03:00',NULL),
 (9,0,3,'2026-10-03 09:00:00','2026-10-03 09:10:00',NULL);
INSERT INTO thread_messages(id,thread_id,role,content,created_at,updated_at,attachment) VALUES
 (20,7,'user','Where is the cache cleared?','2026-10-01 10:00:00','2026-10-01 10:00:00','{"code":null,"client_code":[{"filepath":"src/cache.rs","start_line":10,"content":"fn clear()"}],"doc":null}'),
 (21,7,'assistant','In `clear()` in src/cache.rs.','2026-10-01 10:00:02','2026-10-01 10:00:09','{"code":[{"git_url":"https://github.com/acme/app","commit":"abc123","language":"rust","filepath":"src/cache.rs","content":"fn clear() {}","start_line":10}],"client_code":null,"doc":null}'),
 (22,8,'user','Why does the login test fail on CI?','2026-10-02 14:00:00','2026-10-02 14:00:00','{"code":null,"client_code":[{"filepath":null,"start_line":null,"content":"assert!(logged_in)"}],"doc":null}'),
 (23,8,'assistant','The CI clock is skewed; see the linked issue and fix.','2026-10-02 14:00:05','2026-10-02 14:00:30','{"code":[{"git_url":"https://github.com/acme/app","commit":"def456","language":"rust","filepath":"tests/login.rs","content":"#[test]","start_line":null}],"client_code":null,"doc":[{"title":"Clock skew in CI","link":"https://blog.example/skew","content":"x"},{"title":"Login flaky on CI","link":"https://github.com/acme/app/issues/12","author_user_id":"R1AWw5","body":"b","closed":false},{"title":"Pin the CI clock","link":"https://github.com/acme/app/pull/13","author_user_id":"E16n1q","body":"b","diff":"d","merged":true},{"sha":"0badc0de","message":"Use UTC in tests\n\nbody","author_user_id":"E16n1q","author_at":"2026-09-30T12:00:00Z"},{"page_link":"http://tabby.corp.example/pages/deploy-runbook-3","title":"Deploy runbook","content":"x"}],"code_file_list":{"file_list":["tests/login.rs","src/auth.rs","src/clock.rs"],"truncated":true}}'),
 (24,8,'user','And on macOS runners?','2026-10-02 14:02:00','2026-10-02 14:02:00','{"code":null,"client_code":null,"doc":null}'),
 (25,8,'assistant','','2026-10-02 14:02:01','2026-10-02 14:02:01','{"code":null,"client_code":null,"doc":null}'),
 (26,9,'user','Summarise last week''s changes to billing','2026-10-03 09:00:00','2026-10-03 09:00:00','{}'),
 (27,9,'assistant','Two commits touched billing.','2026-10-03 09:00:10','2026-10-03 09:10:00','{"code":[{"git_url":"https://gitlab.corp.example/platform/billing","language":"python","filepath":"billing/invoice.py","content":"def total()","start_line":1}],"doc":[{"sha":"c0ffee","message":"Round totals","git_url":"https://gitlab.corp.example/platform/billing","author_user_id":"R1AWw5","committer_user_id":"R1AWw5","commit_at":"2025-03-04T10:00:00Z","diff":"d","changed_file":"billing/invoice.py"},{"link":"http://tabby.corp.example/pages/billing-notes-2","title":"Billing notes","content":"x"},{"id":"runbook-7","title":"Billing runbook","body":"b","link":"https://wiki.corp.example/billing"}],"code_file_list":{"file_list":["billing/invoice.py"]}}');
INSERT INTO pages(id,author_id,title,content,created_at,updated_at,code_source_id) VALUES (4,1,'Cache invalidation','How the cache is cleared.','2026-10-01 11:00:00','2026-10-01 11:00:30','provided_repository:E16n1q');
INSERT INTO page_sections(id,page_id,title,content,position,created_at,updated_at,attachment) VALUES
 (10,4,'When','On every write.',1,'2026-10-01 11:00:20','2026-10-01 11:00:20','{}'),
 (9,4,'Clearing','Call `clear()`.',0,'2026-10-01 11:00:10','2026-10-01 11:00:10','{"code":[{"git_url":"https://github.com/acme/app","commit":"abc123","language":"rust","filepath":"src/cache.rs","content":"fn clear() {}","start_line":10}]}');
INSERT INTO provided_repositories(id,integration_id,vendor_id,name,git_url,active,created_at,updated_at,refs) VALUES
 (3,1,'101','acme/app','https://github.com/acme/app',1,'2026-09-01 09:05:00','2026-09-02 09:05:00','["main","release"]'),
 (4,2,'7','platform/billing','https://gitlab.corp.example/platform/billing',0,'2026-09-03 09:05:00','2026-09-03 09:05:00',NULL);
"##)?;
    Ok(())
}

fn event_payload(v: serde_json::Value) -> String {
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

fn current_events(conn: &Connection) -> R<()> {
    let completion = serde_json::json!({"completion":{"completion_id":"cmpl-7f3a","language":"python","prompt":"def add(a, b):\n    ","segments":{"prefix":"def add(a, b):\n    ","suffix":"\n","git_url":"https://github.com/acme/app","filepath":"app/math.py"},"choices":[{"index":0,"text":"return a + b"},{"index":1,"text":"return sum([a, b])"}],"user_agent":"tabby-agent/1.9"}});
    let view = serde_json::json!({"view":{"completion_id":"cmpl-7f3a","choice_index":0,"view_id":"view-1"}});
    let select = serde_json::json!({"select":{"completion_id":"cmpl-7f3a","choice_index":0,"kind":"line","view_id":"view-1","elapsed":1377}});
    let chat = serde_json::json!({"chat_completion":{}});
    let dismiss =
        serde_json::json!({"dismiss":{"completion_id":"cmpl-c4r0","choice_index":0,"elapsed":800}});
    let ins = "INSERT INTO user_events(id,user_id,kind,created_at,payload) VALUES (?1,?2,?3,?4,?5)";
    conn.execute(
        ins,
        params![
            10,
            1,
            "completion",
            "2026-10-01 10:00:00",
            event_payload(completion)
        ],
    )?;
    conn.execute(
        ins,
        params![11, 1, "view", "2026-10-01 10:00:00", event_payload(view)],
    )?;
    conn.execute(
        ins,
        params![
            12,
            1,
            "select",
            "2026-10-01 10:00:01",
            event_payload(select)
        ],
    )?;
    conn.execute(
        ins,
        params![
            13,
            1,
            "chat_completion",
            "2026-10-01 10:00:02",
            event_payload(chat)
        ],
    )?;
    conn.execute(
        ins,
        params![
            14,
            3,
            "dismiss",
            "2026-10-03 09:20:00",
            event_payload(dismiss)
        ],
    )?;
    conn.execute(
        ins,
        params![
            15,
            1,
            "completion",
            "2026-10-01 10:05:00",
            "{\"completion\": {\"completion_id\": "
        ],
    )?;
    conn.execute_batch(
        "INSERT INTO user_completions(id,user_id,completion_id,language,views,selects,dismisses,created_at,updated_at) VALUES
         (2,1,'cmpl-7f3a','python',1,1,0,'2026-10-01 10:00:00','2026-10-01 10:00:01'),
         (3,3,'cmpl-c4r0','rust',1,0,1,'2026-10-03 09:19:59','2026-10-03 09:20:00');",
    )?;
    Ok(())
}

/// The newest rows, left in the WAL: thread 10 (shared after its answer), and a
/// question-and-answer pair of thread 7 that was deleted (`deleteThreadMessagePair`)
/// right after.
fn wal_rows(conn: &Connection) -> R<()> {
    conn.execute_batch(r#"
INSERT INTO threads(id,is_ephemeral,user_id,created_at,updated_at) VALUES (10,1,1,'2026-10-05 09:00:00','2026-10-05 09:00:12');
INSERT INTO thread_messages(id,thread_id,role,content,created_at,updated_at,attachment) VALUES
 (30,10,'user','Write a migration adding an index on orders.created_at','2026-10-05 09:00:00','2026-10-05 09:00:00','{"code":null,"client_code":null,"doc":null}'),
 (31,10,'assistant','CREATE INDEX orders_created_at ON orders(created_at);','2026-10-05 09:00:12','2026-10-05 09:00:12','{"code":null,"client_code":null,"doc":null}');
INSERT INTO thread_messages(id,thread_id,role,content,created_at,updated_at,attachment) VALUES
 (28,7,'user','Can I skip clearing in tests?','2026-10-01 10:01:00','2026-10-01 10:01:00','{"code":null,"client_code":null,"doc":null}'),
 (29,7,'assistant','Yes, with the `no-cache` feature.','2026-10-01 10:01:05','2026-10-01 10:01:05','{"code":null,"client_code":null,"doc":null}');
"#)?;
    conn.execute_batch("DELETE FROM thread_messages WHERE id IN (28, 29);")?;
    // Alice shares thread 10 afterwards: the WAL's older frame keeps its ephemeral version.
    conn.execute_batch(
        "UPDATE threads SET is_ephemeral = 0, updated_at = '2026-10-05 09:30:00' WHERE id = 10;",
    )?;
    Ok(())
}

fn open_fresh(path: &Path) -> R<Connection> {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p)?;
    }
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let conn = Connection::open(path)?;
    conn.execute_batch("PRAGMA secure_delete = OFF; PRAGMA foreign_keys = ON;")?;
    Ok(conn)
}

fn write(path: &Path, bytes: &[u8]) -> R<()> {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p)?;
    }
    fs::write(path, bytes)?;
    Ok(())
}

fn build_server(root: &Path) -> R<()> {
    let tmp = std::env::temp_dir().join(format!("tabby-fixture-{}", std::process::id()));
    fs::create_dir_all(&tmp)?;

    // The backup: level 0044, taken on 2026-09-25 before the 0045 upgrade.
    let backup = root.join("ee/db.backup-20260925.sqlite");
    {
        let conn = open_fresh(&backup)?;
        conn.execute_batch(&schema(44))?;
        migrations(&conn, 44)?;
        conn.execute_batch(USERS)?;
        conn.execute_batch(INTEGRATIONS)?;
        conn.execute_batch(OLD_THREADS)?;
        old_messages(&conn, 44)?;
        old_events(&conn)?;
        old_pages(&conn)?;
        conn.execute_batch(
            "INSERT INTO provided_repositories(id,integration_id,vendor_id,name,git_url,active,created_at,updated_at) VALUES (3,1,'101','acme/app','https://github.com/acme/app',1,'2026-09-01 09:05:00','2026-09-02 09:05:00');",
        )?;
    }

    // The live database: level 0050, WAL mode.
    let work = tmp.join("db.sqlite");
    {
        let conn = open_fresh(&work)?;
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")?;
        conn.execute_batch(&schema(50))?;
        migrations(&conn, 50)?;
        conn.execute_batch(USERS)?;
        conn.execute_batch(INTEGRATIONS)?;
        conn.execute_batch(OLD_THREADS)?;
        old_messages(&conn, 50)?;
        old_events(&conn)?;
        old_pages(&conn)?;
        conn.execute_batch(PURGED_THREAD)?;
        current_threads(&conn)?;
        current_events(&conn)?;
        conn.execute(
            "INSERT INTO user_events(id,user_id,kind,created_at,payload) VALUES (3,3,'chat_completion','2026-07-02 12:00:00',?1)",
            [event_payload(serde_json::json!({"chat_completion":{}}))],
        )?;
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
        // Deleted since the backup and gone from the file: thread 5 (deleted by its
        // owner) and June's events (3-month retention), then a VACUUM. Only the backup
        // holds them.
        conn.execute_batch(
            "DELETE FROM threads WHERE id = 5; DELETE FROM user_events WHERE created_at < '2026-07-01'; VACUUM;",
        )?;
        // Deleted later, then checkpointed: thread 6 (the 7-day purge of ephemeral
        // threads) and July's event (retention) stay in freed space of the main file.
        conn.execute_batch(
            "DELETE FROM threads WHERE id = 6; DELETE FROM user_events WHERE created_at < '2026-07-03';",
        )?;
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
        wal_rows(&conn)?;
        // Copy the file set while the connection is open, so the WAL is not checkpointed.
        let ee = root.join("ee");
        fs::create_dir_all(&ee)?;
        for suffix in ["", "-wal"] {
            let _ = fs::remove_file(ee.join(format!("db.sqlite{suffix}")));
            fs::copy(
                format!("{}{suffix}", work.display()),
                ee.join(format!("db.sqlite{suffix}")),
            )?;
        }
        let _ = fs::remove_file(ee.join("db.sqlite-shm"));
        // SQLite draws the WAL's salts at random: fixed ones make a rebuild byte-identical.
        let wal_path = ee.join("db.sqlite-wal");
        let mut wal = fs::read(&wal_path)?;
        sqlite_evidence::decode::reseal_wal(&mut wal, (0x7ab1_7ab1, 0x0db0_0db0));
        fs::write(&wal_path, wal)?;
    }
    let _ = fs::remove_dir_all(&tmp);

    write(
        &root.join("events/2026-06-15.json"),
        concat!(
            r#"{"user":"R1AWw5","ts":1781515800412,"event":{"completion":{"completion_id":"cmpl-june","language":"go","prompt":"func main() {\n\t","segments":{"prefix":"func main() {\n\t","git_url":"https://github.com/acme/app","filepath":"cmd/main.go"},"choices":[{"index":0,"text":"fmt.Println(\"hi\")"}],"user_agent":"tabby-agent/1.8"}}}"#,
            "\n",
            r#"{"user":"R1AWw5","ts":1781515801090,"event":{"view":{"completion_id":"cmpl-june","choice_index":0}}}"#,
            "\n",
            r#"{"user":"R1AWw5","ts":1781515802000,"event":{"dismiss":{"completion_id":"cmpl-june","choice_index":0,"elapsed":910}}}"#,
            "\n",
        )
        .as_bytes(),
    )?;
    write(
        &root.join("events/2026-10-01.json"),
        concat!(
            r#"{"user":"E16n1q","ts":1790848800123,"event":{"completion":{"completion_id":"cmpl-7f3a","language":"python","prompt":"def add(a, b):\n    ","segments":{"prefix":"def add(a, b):\n    ","suffix":"\n","git_url":"https://github.com/acme/app","filepath":"app/math.py"},"choices":[{"index":0,"text":"return a + b"},{"index":1,"text":"return sum([a, b])"}],"user_agent":"tabby-agent/1.9"}}}"#,
            "\n",
            r#"{"user":"E16n1q","ts":1790848800800,"event":{"view":{"completion_id":"cmpl-7f3a","choice_index":0,"view_id":"view-1"}}}"#,
            "\n",
            r#"{"user":"E16n1q","ts":1790848801500,"event":{"select":{"completion_id":"cmpl-7f3a","choice_index":0,"kind":"line","view_id":"view-1","elapsed":1377}}}"#,
            "\n",
            r#"{"user":"E16n1q","ts":1790848802010,"event":{"chat_completion":{}}}"#,
            "\n",
            r#"{"user":null,"ts":1790848860000,"event":{"completion":{"completion_id":"cmpl-anon","language":"rust","prompt":"fn main() {\n    ","choices":[{"index":0,"text":"println!(\"hello\");"}],"user_agent":null}}}"#,
            "\n",
            r#"{"user":"R1AWw5","ts":1790848920000,"event":{"completion":{"completion_id":"cmpl-b0b1","language":"typescript","prompt":"export function sum(xs: number[]) {\n  ","segments":{"prefix":"export function sum(xs: number[]) {\n  ","git_url":"https://github.com/acme/web","filepath":"src/sum.ts","clipboard":"xs.reduce"},"choices":[{"index":0,"text":"return xs.reduce((a, b) => a + b, 0);"}],"user_agent":"tabby-agent/1.9"}}}"#,
            "\n",
            r#"{"user":"R1AWw5","ts":1790848921000,"event":{"dismiss":{"completion_id":"cmpl-b0b1","choice_index":0,"view_id":"view-9","elapsed":1000}}}"#,
            "\n",
            r#"{"user":"R1AWw5","ts":1790848930000,"event":{"view":{"completion_id":"cmpl-b0b1","cho"#,
        )
        .as_bytes(),
    )?;
    write(
        &root.join("config.toml"),
        b"[model.chat.http]\nkind = \"openai/chat\"\nmodel_name = \"gpt-4o\"\napi_endpoint = \"https://api.openai.com/v1\"\napi_key = \"sk-SECRET-openai-key\"\nsupported_models = [\"gpt-4o\", \"gpt-4o-mini\"]\n\n[model.completion.local]\nmodel_id = \"StarCoder-1B\"\n\n[model.embedding.http]\nkind = \"openai/embedding\"\nmodel_name = \"text-embedding-3-small\"\napi_endpoint = \"https://api.openai.com/v1\"\napi_key = \"sk-SECRET-openai-key\"\n\n[[repositories]]\nname = \"app\"\ngit_url = \"https://github.com/acme/app\"\n",
    )?;
    Ok(())
}

/// A Docker volume root at level 0039: per-kind attachment columns only, no pages.
fn build_volume(root: &Path) -> R<()> {
    let db = root.join("ee/db.sqlite");
    {
        let conn = open_fresh(&db)?;
        conn.execute_batch(&schema(39))?;
        migrations(&conn, 39)?;
        conn.execute_batch(
            "INSERT INTO users(id,email,is_admin,auth_token,active,password_encrypted,name,created_at,updated_at) VALUES (1,'dave@example.com',1,'auth_SECRET_dave_0123456789abcdef012',1,'$argon2id$SECRETHASHdave','Dave','2025-01-02 08:00:00','2025-01-02 08:00:00');
             INSERT INTO threads(id,is_ephemeral,user_id,created_at,updated_at) VALUES (1,0,1,'2025-01-20 15:00:00','2025-01-20 15:00:08');",
        )?;
        conn.execute(
            "INSERT INTO thread_messages(id,thread_id,role,content,code_attachments,client_code_attachments,doc_attachments,created_at,updated_at) VALUES (1,1,'user','Explain this regex',NULL,?1,NULL,'2025-01-20 15:00:00','2025-01-20 15:00:00'), (2,1,'assistant','It matches ISO dates.',?2,NULL,?3,'2025-01-20 15:00:08','2025-01-20 15:00:08')",
            params![
                r#"[{"filepath":"src/date.rs","start_line":3,"content":"^\\d{4}-\\d{2}-\\d{2}$"}]"#,
                r#"[{"git_url":"https://github.com/acme/tools","language":"rust","filepath":"src/date.rs","content":"Regex::new","start_line":3}]"#,
                r#"[{"title":"Regex syntax","link":"https://docs.rs/regex","content":"x"}]"#,
            ],
        )?;
    }
    write(
        &root.join("events/2025-01-20.json"),
        br#"{"user":"E16n1q","ts":1737385300000,"event":{"completion":{"completion_id":"cmpl-d4v3","language":"rust","prompt":"let re = ","choices":[{"index":0,"text":"Regex::new(r\"^\\d+$\")?;"}],"user_agent":"tabby-agent/1.7"}}}
"#,
    )?;
    write(
        &root.join("config.toml"),
        b"[model.completion.http]\nkind = \"llama.cpp/completion\"\napi_endpoint = \"http://llama:8080\"\napi_key = \"SECRET-llama-key\"\nprompt_template = \"<PRE> {prefix} <SUF>{suffix} <MID>\"\n",
    )?;
    Ok(())
}

fn build_clients(evidence: &Path) -> R<()> {
    write(
        &evidence.join("lin-ws01/home/alice/.config/JetBrains/IntelliJIdea2024.2/options/intellij-tabby-command-history.xml"),
        br#"<application>
  <component name="com.tabbyml.intellijtabby.inlineChat.CommandHistory">
    <option name="history">
      <list>
        <option value="add docstrings" />
        <option value="convert to a data class" />
        <option value="handle the &quot;null&quot; case" />
      </list>
    </option>
  </component>
</application>
"#,
    )?;
    let vscdb = evidence
        .join("WIN-DESK03/C/Users/carol/AppData/Roaming/VSCodium/User/globalStorage/state.vscdb");
    let conn = open_fresh(&vscdb)?;
    conn.execute_batch(
        "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )?;
    let tabby = serde_json::json!({
        "server.serverRecords": {"http://tabby.corp.example:8080": {"token": "auth_SECRET_vscode_token_0123456789"}},
        "edit.recentlyCommand": [
            "{\"command\":\"rename @file to snake case\",\"context\":[{\"referrer\":\"@file\",\"uri\":\"file:///c%3A/work/app/math.py\"}]}",
            "fix the typo",
        ],
        "notifications.dismissed": true
    });
    conn.execute(
        "INSERT INTO ItemTable(key, value) VALUES ('TabbyML.vscode-tabby', ?1)",
        [tabby.to_string()],
    )?;
    conn.execute(
        "INSERT INTO ItemTable(key, value) VALUES ('workbench.panel.width', '300')",
        [],
    )?;
    Ok(())
}

fn main() -> R<()> {
    let evidence: PathBuf = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("fixtures/evidence"));
    build_server(&evidence.join("tabby-srv/home/tabby/.tabby"))?;
    build_volume(&evidence.join("tabby-srv/var/lib/docker/volumes/tabby_data/_data"))?;
    build_clients(&evidence)?;
    println!("tabby fixtures written under {}", evidence.display());
    Ok(())
}
