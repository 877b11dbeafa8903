//! Schema drift: the reader adapts to the columns each level has.

use rusqlite::{Connection, MAIN_DB};
use tabby_db::ServerDb;
use tabby_db::rows::{Source, database_rows};

fn image(sql: &str) -> Vec<u8> {
    let mut conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(sql).unwrap();
    let data = conn.serialize(MAIN_DB).unwrap();
    data.to_vec()
}

fn texts(db: &ServerDb) -> Vec<String> {
    database_rows(
        db,
        &Source {
            file: "db.sqlite",
            secondary: false,
        },
    )
    .into_iter()
    .map(|r| format!("{} | {} | {}", r.session_id, r.turn_type, r.text))
    .collect()
}

#[test]
fn attachment_wins_over_the_per_kind_columns_at_0042_to_0044() {
    let bytes = image(
        r#"CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT, installed_on TIMESTAMP, success BOOLEAN, checksum BLOB, execution_time BIGINT);
        INSERT INTO _sqlx_migrations VALUES (41,'a','2025-01-01 00:00:00',1,x'00',1),(42,'b','2025-01-01 00:00:00',1,x'00',1);
        CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, auth_token TEXT, name TEXT);
        CREATE TABLE threads (id INTEGER PRIMARY KEY, is_ephemeral BOOLEAN, user_id INTEGER, created_at TIMESTAMP, updated_at TIMESTAMP);
        CREATE TABLE thread_messages (id INTEGER PRIMARY KEY, thread_id INTEGER, role TEXT, content TEXT, code_attachments BLOB, client_code_attachments BLOB, doc_attachments BLOB, created_at TIMESTAMP, updated_at TIMESTAMP, code_source_id TEXT, attachment BLOB NOT NULL DEFAULT '{}');
        INSERT INTO users VALUES (1,'a@example.com','auth_x',NULL);
        INSERT INTO threads VALUES (1,1,1,'2025-02-01 10:00:00','2025-02-01 10:00:00');
        INSERT INTO thread_messages VALUES
         (1,1,'assistant','new form',
          '[{"git_url":"https://old.example/repo","language":"c","filepath":"old.c","content":"x","start_line":1}]',NULL,NULL,
          '2025-02-01 10:00:01','2025-02-01 10:00:01',NULL,
          '{"code":[{"git_url":"https://new.example/repo","language":"c","filepath":"new.c","content":"x","start_line":2}]}'),
         (2,1,'assistant','old form only',
          '[{"git_url":"https://old.example/repo","language":"c","filepath":"old.c","content":"x","start_line":1}]',NULL,NULL,
          '2025-02-01 10:00:02','2025-02-01 10:00:02',NULL,'{}');"#,
    );
    let db = ServerDb::from_bytes(&bytes, None).unwrap();
    assert_eq!(db.schema_level, Some(42));
    assert_eq!(
        texts(&db),
        vec![
            "1 | system | thread start | owner a@example.com | ephemeral",
            "1 | assistant | new form\n\n[code: git_url=https://new.example/repo filepath=new.c start_line=2 language=c]",
            // `attachment` holds `{}`: still the column Tabby reads, so nothing is attached
            "1 | assistant | old form only",
        ]
    );
}

#[test]
fn level_0035_reads_the_per_kind_columns_and_no_pages() {
    let bytes = image(
        r#"CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, auth_token TEXT);
        CREATE TABLE threads (id INTEGER PRIMARY KEY, is_ephemeral BOOLEAN, user_id INTEGER, created_at TIMESTAMP, updated_at TIMESTAMP);
        CREATE TABLE thread_messages (id INTEGER PRIMARY KEY, thread_id INTEGER, role TEXT, content TEXT, code_attachments BLOB, client_code_attachments BLOB, doc_attachments BLOB, created_at TIMESTAMP, updated_at TIMESTAMP);
        CREATE TABLE provided_repositories (id INTEGER PRIMARY KEY, integration_id INTEGER, vendor_id TEXT, name TEXT, git_url TEXT, active BOOLEAN, created_at TIMESTAMP, updated_at TIMESTAMP);
        INSERT INTO users VALUES (1,'a@example.com','auth_x');
        INSERT INTO threads VALUES (1,0,1,'2024-10-01 10:00:00','2024-10-01 10:00:00');
        INSERT INTO thread_messages VALUES
         (1,1,'user','q',NULL,'[{"filepath":"a.rs","start_line":3,"content":"x"}]',NULL,'2024-10-01 10:00:00','2024-10-01 10:00:00'),
         (2,1,'assistant','a','[{"git_url":"https://g/r","language":"rust","filepath":"a.rs","content":"x","start_line":3}]',NULL,'[{"title":"T","link":"https://l","content":"c"}]','2024-10-01 10:00:05','2024-10-01 10:00:05'),
         (3,1,'assistant','broken','not json',NULL,NULL,'2024-10-01 10:00:06','not a time');
        INSERT INTO provided_repositories VALUES (1,9,'v','o/r','https://g/r',0,'2024-10-01 09:00:00','2024-10-01 09:00:00');"#,
    );
    let db = ServerDb::from_bytes(&bytes, None).unwrap();
    assert_eq!(db.schema_level, None);
    assert!(db.pages.is_empty());
    assert_eq!(
        texts(&db),
        vec![
            " | system | parser: code_attachments of table thread_messages rowid 3 is not valid JSON (expected ident at line 1 column 2)",
            "1 | system | thread start | owner a@example.com",
            "1 | system | thread shared: visible to all users of this server (from db.sqlite, threads.updated_at 2024-10-01 10:00:00 upper bound)",
            "1 | user | q\n\n[client code: filepath=a.rs start_line=3]",
            "1 | assistant | a\n\n[code: git_url=https://g/r filepath=a.rs start_line=3 language=rust]\n[doc web: title=T link=https://l]",
            "1 | assistant | broken",
            " | system | source host repository: https://g/r type=- name=o/r active=no (integration -; from provided_repositories table, updated_at)",
        ]
    );
}

#[test]
fn unreadable_times_and_payloads_are_reported() {
    let bytes = image(
        r#"CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT);
        CREATE TABLE user_events (id INTEGER PRIMARY KEY, user_id INTEGER, kind TEXT, created_at TIMESTAMP, payload BLOB);
        INSERT INTO user_events VALUES (1, 7, 'view', 'yesterday', '{"view":{"completion_id":"c1","choice_index":0}}'),
                                       (2, 7, 'x', '2026-01-01 00:00:00', '{"view":1,"select":2}');"#,
    );
    let db = ServerDb::from_bytes(&bytes, None).unwrap();
    let rows = database_rows(
        &db,
        &Source {
            file: "db.sqlite",
            secondary: false,
        },
    );
    let got: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.timestamp.map(|t| t.to_string()),
                r.source_locator.clone(),
                r.text.clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (None, "table user_events rowid 1".to_string(), "parser: created_at of table user_events rowid 1 is not a time: yesterday".to_string()),
            (None, "table user_events rowid 1".to_string(), "view: user_id=7 choice_index=0".to_string()),
            (
                Some("2026-01-01T00:00:00.000000Z".to_string()),
                "table user_events rowid 2".to_string(),
                "parser: payload of table user_events rowid 2 is not a Tabby event (event object has 2 keys, expected one tag): {\"view\":1,\"select\":2}".to_string()
            ),
        ]
    );
}

#[test]
fn the_share_row_names_the_live_database_also_in_a_backup() {
    let bytes = image(
        r#"CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT);
        CREATE TABLE threads (id INTEGER PRIMARY KEY, is_ephemeral BOOLEAN, user_id INTEGER, created_at TIMESTAMP, updated_at TIMESTAMP);
        INSERT INTO threads VALUES (1,0,1,'2024-10-01 10:00:00','2024-10-01 10:05:00');"#,
    );
    let db = ServerDb::from_bytes(&bytes, None).unwrap();
    let share = |file: &str| {
        database_rows(
            &db,
            &Source {
                file,
                secondary: true,
            },
        )
        .into_iter()
        .map(|r| r.text)
        .filter(|t| t.starts_with("thread shared:"))
        .collect::<Vec<_>>()
    };
    let text = |database: &str| {
        vec![format!(
            "thread shared: visible to all users of this server (from {database}, threads.updated_at 2024-10-01 10:05:00 upper bound)"
        )]
    };
    assert_eq!(
        share("srv/.tabby/ee/db.backup-20241002.sqlite"),
        text("db.sqlite")
    );
    assert_eq!(
        share(r"D:\case\.tabby\ee\dev-db.backup-20241002.sqlite"),
        text("dev-db.sqlite")
    );
    assert_eq!(share("_data/ee/dev-db.sqlite"), text("dev-db.sqlite"));
}
