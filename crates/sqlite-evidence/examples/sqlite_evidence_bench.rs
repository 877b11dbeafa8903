//! Prints open and recovery figures on a generated database.
//!
//! `cargo run --release -p sqlite-evidence --example sqlite_evidence_bench [rows]`
//!
//! Writes `rows` notes (default 200,000, about 40 MB) with rusqlite in a scratch
//! directory, checkpoints them, deletes every tenth row in an uncheckpointed WAL, then
//! times [`Database::from_vecs`] (WAL scan and image build and deserialize), a full
//! table scan, and [`Database::deleted_records`], and prints the recovery counts.

use std::time::Instant;

use rusqlite::{Connection, params};
use sqlite_evidence::Database;

fn main() {
    let n: i64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bench.db");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA secure_delete = OFF;
         CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created INTEGER);",
    )
    .unwrap();
    let tx = conn.unchecked_transaction().unwrap();
    for i in 1..=n {
        let body = format!(
            "body of note {i}: {}",
            "lorem ipsum ".repeat((i % 17) as usize + 1)
        );
        tx.execute(
            "INSERT INTO notes VALUES (?1, ?2, ?3, ?4)",
            params![i, format!("note {i}"), body, i * 1000],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    let deleted = conn
        .execute("DELETE FROM notes WHERE id % 10 = 0", [])
        .unwrap();
    let main = std::fs::read(&p).unwrap();
    let wal = std::fs::read(format!("{}-wal", p.display())).unwrap();
    drop(conn);
    println!(
        "database: {} rows, main {:.1} MB, wal {:.1} MB, {deleted} rows deleted in the wal",
        n,
        main.len() as f64 / 1e6,
        wal.len() as f64 / 1e6
    );

    let t = Instant::now();
    let db = Database::from_vecs(main.clone(), Some(wal)).unwrap();
    let open = t.elapsed();
    let t = Instant::now();
    let live: i64 = db
        .connection()
        .query_row("SELECT count(*) FROM notes", [], |r| r.get(0))
        .unwrap();
    let scan = t.elapsed();
    let t = Instant::now();
    let recovered = db.deleted_records("notes");
    let rec = t.elapsed();
    let mb = (main.len() as f64) / 1e6;
    println!(
        "open (wal scan, image, deserialize): {:?} ({:.0} MB/s of main file)",
        open,
        mb / open.as_secs_f64()
    );
    println!("count(*) on the image: {live} rows in {scan:?}");
    println!(
        "deleted_records: {} records in {:?} ({:.0} MB/s of main file)",
        recovered.len(),
        rec,
        mb / rec.as_secs_f64()
    );
    let unexpected: Vec<_> = recovered
        .iter()
        .filter(|r| !matches!(r.values[0], rusqlite::types::Value::Integer(id) if id % 10 == 0))
        .collect();
    println!(
        "recovered records that are not a deleted row: {}",
        unexpected.len()
    );
    for r in unexpected.iter().take(3) {
        println!(
            "  {:?} at {}",
            r.values
                .iter()
                .map(|v| format!("{v:?}").chars().take(60).collect::<String>())
                .collect::<Vec<_>>(),
            r.location
        );
    }
    if let Some(rss) = chat_rows::dirty::peak_rss_bytes() {
        println!("peak RSS: {:.0} MB", rss as f64 / 1e6);
    }
}
