//! Throughput and memory of reading a busy Tabby root, on synthetic data written to a
//! private temporary directory (never the fixtures):
//!
//! ```text
//! cargo run --release -p tabby-db --example tabby_bench [-- <threads> <events>]
//! ```
//!
//! Defaults: 5,000 threads of 4 messages, 50,000 completions (in `user_events` and in
//! the event log, so every log line is merged away), one backup holding the first
//! half of the threads. Prints rows, time, MB/s and the peak RSS.

use std::time::Instant;

use rusqlite::{Connection, params};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let threads: i64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000);
    let events: i64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(50_000);
    let dir = tempfile::tempdir()?;
    let root = dir.path().join(".tabby");
    std::fs::create_dir_all(root.join("ee"))?;
    std::fs::create_dir_all(root.join("events"))?;
    let ids = tabby_db::HashIds::new();
    let build = |path: &std::path::Path,
                 threads: i64,
                 events: i64|
     -> Result<(), Box<dyn std::error::Error>> {
        let mut conn = Connection::open(path)?;
        conn.execute_batch(
            "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT, installed_on TIMESTAMP, success BOOLEAN, checksum BLOB, execution_time BIGINT);
             INSERT INTO _sqlx_migrations VALUES (50, 'x', '2026-01-01 00:00:00', 1, x'00', 1);
             CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, auth_token TEXT, name TEXT);
             CREATE TABLE threads (id INTEGER PRIMARY KEY, is_ephemeral BOOLEAN, user_id INTEGER, created_at TIMESTAMP, updated_at TIMESTAMP, relevant_questions BLOB);
             CREATE TABLE thread_messages (id INTEGER PRIMARY KEY, thread_id INTEGER, role TEXT, content TEXT, created_at TIMESTAMP, updated_at TIMESTAMP, code_source_id TEXT, attachment BLOB);
             CREATE TABLE user_events (id INTEGER PRIMARY KEY, user_id INTEGER, kind TEXT, created_at TIMESTAMP, payload BLOB);",
        )?;
        let tx = conn.transaction()?;
        for u in 1..=50 {
            tx.execute(
                "INSERT INTO users VALUES (?1, ?2, 'auth_x', ?3)",
                params![u, format!("user{u}@example.com"), format!("User {u}")],
            )?;
        }
        for t in 1..=threads {
            let at = format!("2026-10-{:02} {:02}:{:02}:00", 1 + t % 28, t % 24, t % 60);
            tx.execute(
                "INSERT INTO threads VALUES (?1, ?2, ?3, ?4, ?4, NULL)",
                params![t, t % 2, 1 + t % 50, at],
            )?;
            for m in 0..4 {
                let (role, att) = if m % 2 == 0 {
                    ("user", r#"{"code":null,"client_code":[{"filepath":"src/lib.rs","start_line":10,"content":"fn x()"}],"doc":null}"#.to_string())
                } else {
                    ("assistant", r#"{"code":[{"git_url":"https://github.com/acme/app","commit":"abc","language":"rust","filepath":"src/lib.rs","content":"fn x() {}","start_line":10}],"client_code":null,"doc":[{"title":"t","link":"https://x","content":"c"}],"code_file_list":{"file_list":["a.rs","b.rs"],"truncated":false}}"#.to_string())
                };
                let content = format!(
                    "message {m} of thread {t}: {}",
                    "lorem ipsum dolor sit amet ".repeat(8)
                );
                tx.execute(
                    "INSERT INTO thread_messages VALUES (NULL, ?1, ?2, ?3, ?4, ?4, NULL, ?5)",
                    params![t, role, content, at, att],
                )?;
            }
        }
        for e in 0..events {
            let secs = 1_790_848_800 + e;
            let at = time_text(secs);
            let payload = serde_json::to_string_pretty(&completion(e))?;
            tx.execute(
                "INSERT INTO user_events VALUES (NULL, ?1, 'completion', ?2, ?3)",
                params![1 + e % 50, at, payload],
            )?;
        }
        tx.commit()?;
        Ok(())
    };
    build(&root.join("ee/db.sqlite"), threads, events)?;
    build(&root.join("ee/db.backup-20260901.sqlite"), threads / 2, 0)?;
    let mut log = String::new();
    for e in 0..events {
        let line = serde_json::json!({"user": ids.encode(1 + e % 50), "ts": (1_790_848_800 + e) * 1000 + 250, "event": completion(e)});
        log.push_str(&line.to_string());
        log.push('\n');
    }
    std::fs::write(root.join("events/2026-10-01.json"), log)?;

    let t = Instant::now();
    let db =
        tabby_db::ServerDb::from_path(&root.join("ee/db.sqlite"), &chat_rows::Evidence::new())?;
    let t_db = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let src = tabby_db::rows::Source {
        file: "db.sqlite",
        secondary: false,
    };
    let db_rows = tabby_db::rows::database_rows(&db, &src);
    let took_rows = t.elapsed().as_secs_f64();
    let not_live = db_rows
        .iter()
        .filter(|r| r.record_state != chat_rows::RecordState::Live)
        .count();
    println!(
        "decode live database: {t_db:.2} s; its {} rows ({not_live} not live): {took_rows:.2} s",
        db_rows.len()
    );
    if std::env::var_os("BENCH_SHOW_NOT_LIVE").is_some() {
        for r in db_rows
            .iter()
            .filter(|r| r.record_state != chat_rows::RecordState::Live)
            .take(10)
        {
            println!("  {} {} {:.100}", r.record_state, r.source_locator, r.text);
        }
    }
    drop(db_rows);
    if std::env::var_os("BENCH_PROFILE").is_some() {
        profile_log(&root, &db);
    }
    let evidence = chat_rows::Evidence::new();
    let start = Instant::now();
    let rows = tabby_db::read_root(&root, &evidence);
    let took = start.elapsed().as_secs_f64();
    let bytes: u64 = evidence.manifest().iter().map(|m| m.size).sum();
    let secondary = rows.iter().filter(|r| r.secondary).count();
    println!(
        "{threads} threads, {events} completions: {} rows ({secondary} secondary) from {:.1} MB in {:.2} s = {:.1} MB/s, {:.0} rows/s; peak RSS {} MiB",
        rows.len(),
        bytes as f64 / 1e6,
        took,
        bytes as f64 / 1e6 / took,
        rows.len() as f64 / took,
        chat_rows::dirty::peak_rss_bytes().unwrap_or(0) >> 20
    );
    Ok(())
}

fn completion(e: i64) -> serde_json::Value {
    serde_json::json!({"completion":{"completion_id":format!("cmpl-{e}"),"language":"rust","prompt":format!("fn f{e}() {{\n    "),"segments":{"prefix":"fn f() {\n    ","git_url":"https://github.com/acme/app","filepath":"src/lib.rs"},"choices":[{"index":0,"text":format!("todo!({e})")}],"user_agent":"tabby-agent/1.9"}})
}

fn time_text(secs: i64) -> String {
    let t = chat_rows::Timestamp::from_epoch_seconds(secs)
        .map(|t| t.to_string())
        .unwrap_or_default();
    // 2026-10-01T10:00:00.000000Z -> 2026-10-01 10:00:00
    t.get(..19).unwrap_or("").replace('T', " ")
}

fn profile_log(root: &std::path::Path, db: &tabby_db::ServerDb) {
    let t = Instant::now();
    let bytes = std::fs::read(root.join("events/2026-10-01.json")).unwrap();
    let log = tabby_db::EventLog::from_bytes(&bytes);
    let t1 = t.elapsed().as_secs_f64();
    let src = tabby_db::rows::Source {
        file: "e",
        secondary: true,
    };
    let rows = tabby_db::rows::log_rows(&log, &db.users, &src);
    let t2 = t.elapsed().as_secs_f64();
    let live = tabby_db::rows::database_rows(
        db,
        &tabby_db::rows::Source {
            file: "d",
            secondary: false,
        },
    );
    let t3 = t.elapsed().as_secs_f64();
    let idx = chat_rows::merge::PrimaryIndex::new(&live);
    let t4 = t.elapsed().as_secs_f64();
    let kept = rows.iter().filter(|r| !idx.has_twin(r, 2_000_000)).count();
    let t5 = t.elapsed().as_secs_f64();
    println!(
        "log parse {t1:.2} rows {:.2} db rows {:.2} index {:.2} twins {:.2} (kept {kept})",
        t2 - t1,
        t3 - t2,
        t4 - t3,
        t5 - t4
    );
}
