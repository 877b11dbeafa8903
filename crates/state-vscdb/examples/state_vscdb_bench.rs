//! Prints read figures for a large generated `state.vscdb`.
//!
//! `cargo run --release -p state-vscdb --example state_vscdb_bench [keys]`
//!
//! Writes `keys` items (default 3,000) of 1 to 40 KB JSON (about 60 MB, like a
//! long-used global state with extension chat histories), checkpoints them, then
//! rewrites every tenth value and deletes every twentieth key in an uncheckpointed WAL,
//! and times opening, loading the items, recovering deleted versions, and the rows.

use std::time::Instant;

use rusqlite::{Connection, params};
use state_vscdb::StateDb;
use state_vscdb::rows::{Context, rows};

fn value(i: usize, v: usize) -> String {
    let n = 10 + (i * 37) % 400;
    let turns: Vec<String> = (0..n)
        .map(|k| format!("{{\"turn\":{k},\"v\":{v},\"text\":\"message {k} of item {i}\"}}"))
        .collect();
    format!("{{\"history\":[{}]}}", turns.join(","))
}

fn main() {
    let keys: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3000);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("state.vscdb");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    let tx = conn.unchecked_transaction().unwrap();
    for i in 0..keys {
        tx.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![format!("ext{i}.state"), value(i, 0)],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    for i in (0..keys).step_by(10) {
        conn.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![format!("ext{i}.state"), value(i, 1)],
        )
        .unwrap();
    }
    for i in (5..keys).step_by(20) {
        conn.execute(
            "DELETE FROM ItemTable WHERE key = ?1",
            [format!("ext{i}.state")],
        )
        .unwrap();
    }
    let main = std::fs::read(&p).unwrap();
    let wal = std::fs::read(format!("{}-wal", p.display())).unwrap();
    drop(conn);
    if let Ok(dir) = std::env::var("BENCH_SAVE_DIR") {
        std::fs::write(format!("{dir}/state.vscdb"), &main).unwrap();
        std::fs::write(format!("{dir}/state.vscdb-wal"), &wal).unwrap();
    }
    println!(
        "state.vscdb: {keys} keys, main {:.1} MB, wal {:.1} MB",
        main.len() as f64 / 1e6,
        wal.len() as f64 / 1e6
    );
    let t = Instant::now();
    let db = StateDb::from_bytes(&main, Some(&wal)).unwrap();
    println!(
        "open and load {} live items: {:?}",
        db.items().len(),
        t.elapsed()
    );
    let t = Instant::now();
    let deleted = db.deleted();
    println!(
        "deleted(): {} deleted or older versions in {:?}",
        deleted.len(),
        t.elapsed()
    );
    let expected = |it: &state_vscdb::Item| {
        let i: usize = match it
            .key
            .strip_prefix("ext")
            .and_then(|k| k.strip_suffix(".state"))
            .and_then(|n| n.parse().ok())
        {
            Some(i) => i,
            None => return false,
        };
        (i % 10 == 0 || i % 20 == 5) && it.value == value(i, 0)
    };
    let unexpected: Vec<_> = deleted.iter().filter(|it| !expected(it)).collect();
    println!(
        "recovered items that are not a deleted or older value: {}",
        unexpected.len()
    );
    for it in unexpected.iter().take(9) {
        println!(
            "  {} = {}... at {}",
            it.key,
            it.value.chars().take(60).collect::<String>(),
            it.location
        );
    }
    let t = Instant::now();
    let out = rows(
        &db,
        &Context {
            agent: "vscode".into(),
            ..Context::default()
        },
    );
    println!("rows(): {} rows in {:?}", out.len(), t.elapsed());
    if let Some(rss) = chat_rows::dirty::peak_rss_bytes() {
        println!("peak RSS: {:.0} MB", rss as f64 / 1e6);
    }
}
