//! Prints open and recovery figures on a generated database.
//!
//! `cargo run --release -p sqlite-evidence --example sqlite_evidence_bench [rows]`
//!
//! `cargo run --release -p sqlite-evidence --example sqlite_evidence_bench -- --paged <MB>`
//! builds a database of about `<MB>` megabytes (rows of 1.3 KB, three to a page) in a scratch directory
//! of the system's temporary folder, checkpoints it, deletes every third row of its
//! first eighth in a WAL left uncheckpointed (a WAL about an eighth of the file), and
//! reads it with [`sqlite_evidence::paged::PagedDatabase`] through
//! [`chat_rows::Evidence::open_ranged`]: open (WAL scan), the live rows walked, the
//! deleted records carved, with MB/s and peak RSS.
//!
//! Writes `rows` notes (default 200,000, about 40 MB) with rusqlite in a scratch
//! directory, checkpoints them, deletes every tenth row in an uncheckpointed WAL, then
//! times [`Database::from_vecs`] (WAL scan and image build and deserialize), a full
//! table scan, and [`Database::deleted_records`], and prints the recovery counts.

use std::time::Instant;

use rusqlite::{Connection, params};
use sqlite_evidence::Database;

/// Builds the database of `--paged` in `dir` (run as a child process, so that the
/// writer's memory is not counted in the reader's peak RSS).
fn build_big(mb: u64, dir: &std::path::Path) {
    let p = dir.join("big.db");
    let rows = (mb * 1_000_000 / 1_400) as i64;
    {
        let conn = Connection::open(&p).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA secure_delete = OFF;
             PRAGMA synchronous = OFF; PRAGMA cache_size = -65536;
             CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created INTEGER);",
        )
        .unwrap();
        let filler = "lorem ipsum dolor sit amet ".repeat(45);
        let mut i = 1;
        while i <= rows {
            let tx = conn.unchecked_transaction().unwrap();
            {
                let mut st = tx
                    .prepare_cached("INSERT INTO notes VALUES (?1, ?2, ?3, ?4)")
                    .unwrap();
                for k in i..(i + 50_000).min(rows + 1) {
                    st.execute(params![
                        k,
                        format!("note {k}"),
                        format!("{k}: {filler}"),
                        k * 1000
                    ])
                    .unwrap();
                }
            }
            tx.commit().unwrap();
            conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
                .unwrap();
            i += 50_000;
        }
        conn.execute(
            "DELETE FROM notes WHERE id % 3 = 0 AND id <= ?1",
            [rows / 8],
        )
        .unwrap();
        // the writer is dropped without a checkpoint: SQLite would checkpoint on close,
        // so the files are copied aside first, as a responder collects them
        std::fs::copy(&p, dir.join("e.db")).unwrap();
        std::fs::copy(format!("{}-wal", p.display()), dir.join("e.db-wal")).unwrap();
    }
    let _ = std::fs::remove_file(&p);
    let _ = std::fs::remove_file(format!("{}-wal", p.display()));
    let _ = std::fs::remove_file(format!("{}-shm", p.display()));
}

fn paged(mb: u64) {
    use sqlite_evidence::paged::PagedDatabase;
    let dir = tempfile::tempdir().unwrap();
    let rows = (mb * 1_000_000 / 1_400) as i64;
    let t = Instant::now();
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .arg("--build")
        .arg(mb.to_string())
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let e = dir.path().join("e.db");
    let main_len = std::fs::metadata(&e).unwrap().len() as f64;
    let wal_len = std::fs::metadata(dir.path().join("e.db-wal"))
        .unwrap()
        .len() as f64;
    println!(
        "built in {:?}: {rows} rows, main {:.0} MB, wal {:.0} MB, {} rows deleted in the wal",
        t.elapsed(),
        main_len / 1e6,
        wal_len / 1e6,
        rows / 24
    );
    let evidence = chat_rows::Evidence::new().hashing(false);
    let t = Instant::now();
    let db = PagedDatabase::open(&e, &evidence).unwrap();
    println!(
        "open (wal scan): {:?}; problems {:?}",
        t.elapsed(),
        db.problems()
    );
    let t = Instant::now();
    let mut live = 0u64;
    db.live_records("notes", &mut |_, _| live += 1);
    let el = t.elapsed();
    println!(
        "live rows walked: {live} in {el:?} ({:.0} MB/s of main file)",
        main_len / 1e6 / el.as_secs_f64()
    );
    let t = Instant::now();
    let mut found = 0u64;
    let mut wrong = 0u64;
    db.deleted_records("notes", &mut |r| {
        found += 1;
        let id = match r.values.get(1) {
            Some(rusqlite::types::Value::Text(t)) => t[5..].parse::<i64>().unwrap_or(-1),
            _ => -1,
        };
        if id % 3 != 0 || id > rows / 8 {
            wrong += 1;
        }
    });
    let el = t.elapsed();
    println!(
        "deleted records carved: {found} in {el:?} ({:.0} MB/s of main file + wal); not a deleted row: {wrong}",
        (main_len + wal_len) / 1e6 / el.as_secs_f64()
    );
    if let Some(rss) = chat_rows::dirty::peak_rss_bytes() {
        println!("peak RSS: {:.0} MB", rss as f64 / 1e6);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--build") {
        let mb = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
        build_big(mb, std::path::Path::new(&args[3]));
        return;
    }
    if args.get(1).map(String::as_str) == Some("--compare") {
        // both modes on `<dir>/e.db` (a database --build wrote)
        let e = std::path::Path::new(&args[2]).join("e.db");
        let evidence = chat_rows::Evidence::new().hashing(false);
        let db = Database::open(&e, &evidence).unwrap();
        let mem = db.deleted_records("notes");
        let paged = sqlite_evidence::paged::PagedDatabase::open(&e, &evidence).unwrap();
        let mut n = 0;
        paged.deleted_records("notes", &mut |_| n += 1);
        println!("in memory: {} deleted records; paged: {n}", mem.len());
        for r in mem.iter().take(3) {
            println!("  {}", r.location);
        }
        return;
    }
    if args.get(1).map(String::as_str) == Some("--paged") {
        let mb = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
        paged(mb);
        return;
    }
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
