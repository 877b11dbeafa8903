//! Prints read figures for a large generated `state.vscdb`.
//!
//! `cargo run --release -p state-vscdb --example state_vscdb_bench [keys]`
//!
//! Writes `keys` items (default 3,000) of 1 to 40 KB JSON (about 60 MB, like a
//! long-used global state with extension chat histories), checkpoints them, then
//! rewrites every tenth value and deletes every twentieth key in an uncheckpointed WAL,
//! and times opening, loading the items, recovering deleted versions, and the rows.
//!
//! `cargo run --release -p state-vscdb --example state_vscdb_bench -- --paged <MB>`
//!
//! Builds (in a child process, in the system's temporary folder, deleted after) a
//! `state.vscdb` of about `<MB>` megabytes the way Cursor's global database grows: a
//! small `ItemTable` and a `cursorDiskKV` table of JSON values of 2 to 14 KB, then, in an
//! uncheckpointed WAL, deletes every 40th `cursorDiskKV` key and 10 `ItemTable` keys and
//! rewrites 10 more. It is then read end to end through the store's paged path (the
//! default threshold: main file and WAL over 512 MiB), the rows handed to a counting
//! sink, and the `cursorDiskKV` table walked and carved through `KvTable`, with MB/s and
//! peak RSS.

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

/// Builds the database of `--paged` in `dir` (run as a child process, so that the
/// writer's memory is not counted in the reader's peak RSS).
fn build_big(mb: u64, dir: &std::path::Path) {
    let p = dir.join("w.vscdb");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA synchronous = OFF;
         PRAGMA cache_size = -65536;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    for i in 0..40 {
        conn.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![format!("ext{i}.state"), value(i, 0)],
        )
        .unwrap();
    }
    let bubble = |i: u64| {
        let words =
            "the quick brown fox jumps over the lazy dog ".repeat(40 + (i % 7) as usize * 40);
        format!("{{\"bubbleId\":\"b{i}\",\"type\":1,\"text\":\"{i} {words}\"}}")
    };
    let mut bytes = 0u64;
    let mut i = 0u64;
    while bytes < mb * 1_000_000 {
        let tx = conn.unchecked_transaction().unwrap();
        {
            let mut st = tx
                .prepare_cached("INSERT INTO cursorDiskKV VALUES (?1, ?2)")
                .unwrap();
            for _ in 0..20_000 {
                let v = bubble(i);
                bytes += v.len() as u64 + 40;
                st.execute(params![format!("bubbleId:c{}:b{i}", i / 100), v])
                    .unwrap();
                i += 1;
            }
        }
        tx.commit().unwrap();
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
    }
    conn.execute("DELETE FROM cursorDiskKV WHERE rowid % 40 = 7", [])
        .unwrap();
    for i in 0..10 {
        conn.execute(
            "DELETE FROM ItemTable WHERE key = ?1",
            [format!("ext{}.state", i * 4 + 1)],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![format!("ext{}.state", i * 4 + 2), value(i * 4 + 2, 1)],
        )
        .unwrap();
    }
    // copied aside before the writer closes (SQLite would checkpoint on close), as a
    // responder collects a live database
    std::fs::copy(&p, dir.join("state.vscdb")).unwrap();
    std::fs::copy(format!("{}-wal", p.display()), dir.join("state.vscdb-wal")).unwrap();
    drop(conn);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", p.display()));
    }
    println!(
        "built: {i} cursorDiskKV values, {:.0} MB of values",
        bytes as f64 / 1e6
    );
}

/// A row sink that only counts.
#[derive(Default)]
struct Count(usize);

impl chat_rows::RowSink for Count {
    fn push(&mut self, _row: chat_rows::Row) {
        self.0 += 1;
    }
}

fn paged(mb: u64) {
    use chat_rows::Store;
    let dir = tempfile::Builder::new()
        .prefix("state_vscdb_bench")
        .tempdir_in(std::env::temp_dir())
        .unwrap();
    let t = Instant::now();
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--build",
            &mb.to_string(),
            &dir.path().display().to_string(),
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let path = dir.path().join("state.vscdb");
    let main = std::fs::metadata(&path).unwrap().len();
    let wal = std::fs::metadata(dir.path().join("state.vscdb-wal"))
        .unwrap()
        .len();
    let total = (main + wal) as f64 / 1e6;
    println!(
        "built in {:.1?}: main {:.0} MB, wal {:.0} MB",
        t.elapsed(),
        main as f64 / 1e6,
        wal as f64 / 1e6
    );
    let evidence = chat_rows::Evidence::new().hashing(false);
    let ctx = chat_rows::FileContext {
        product: Some("cursor".into()),
        ..chat_rows::FileContext::default()
    };
    let t = Instant::now();
    let mut sink = Count::default();
    state_vscdb::StateVscdbStore.read_into(&path, &ctx, &evidence, &mut sink);
    let e = t.elapsed();
    println!(
        "store read_into (paged: {}): {} rows in {e:.1?} ({:.0} MB/s of main file + wal)",
        sqlite_evidence::any::use_paged(&path, &evidence, state_vscdb::PAGED_FROM_BYTES),
        sink.0,
        total / e.as_secs_f64()
    );
    let t = Instant::now();
    let db = StateDb::open(&path, &evidence).unwrap();
    let kv = db.kv_table("cursorDiskKV").unwrap();
    let mut live = 0usize;
    kv.for_each(|_| live += 1).unwrap();
    let e = t.elapsed();
    println!(
        "KvTable::for_each: {live} live values in {e:.1?} ({:.0} MB/s)",
        total / e.as_secs_f64()
    );
    let t = Instant::now();
    let deleted = kv.deleted();
    let e = t.elapsed();
    let wrong = deleted
        .iter()
        .filter(|it| {
            it.key
                .rsplit_once(":b")
                .and_then(|(_, n)| n.parse::<u64>().ok())
                .is_none_or(|n| (n + 1) % 40 != 7)
        })
        .count();
    println!(
        "KvTable::deleted: {} in {e:.1?} ({:.0} MB/s); not a deleted value: {wrong}",
        deleted.len(),
        total / e.as_secs_f64()
    );
    for it in deleted
        .iter()
        .filter(|it| !it.key.starts_with("bubbleId:"))
        .take(3)
    {
        println!("  not a bubble: {} at {}", it.key, it.location);
    }
    if let Some(rss) = chat_rows::dirty::peak_rss_bytes() {
        println!("peak RSS: {:.0} MB", rss as f64 / 1e6);
    }
    if std::env::var_os("BENCH_COMPARE").is_some() {
        // the same rows in memory (for a database the in-memory image can hold)
        let mut rows = Vec::new();
        let mut paged_rows = Vec::new();
        let store = state_vscdb::StateVscdbStore;
        store.read_into(&path, &ctx, &evidence, &mut paged_rows);
        rows.extend(store.read_with(&path, &ctx, &evidence, state_vscdb::Opening::in_memory()));
        let texts = |v: &[chat_rows::Row]| {
            let mut t: Vec<String> = v.iter().map(|r| r.text.clone()).collect();
            t.sort();
            t
        };
        let bubbles = |v: &[chat_rows::Row]| {
            v.iter()
                .filter(|r| r.text.starts_with("state item deleted: bubbleId:"))
                .count()
        };
        println!(
            "in memory: {} rows ({} of deleted cursorDiskKV keys); paged: {} ({}); the same texts: {}",
            rows.len(),
            bubbles(&rows),
            paged_rows.len(),
            bubbles(&paged_rows),
            texts(&rows) == texts(&paged_rows)
        );
        let db = StateDb::open_with(&path, &evidence, state_vscdb::Opening::in_memory()).unwrap();
        let kv = db.kv_table("cursorDiskKV").unwrap();
        let deleted = kv.deleted();
        let not_bubbles: Vec<String> = deleted
            .iter()
            .filter(|it| !it.key.starts_with("bubbleId:"))
            .map(|it| format!("{} at {}", it.key, it.location))
            .collect();
        println!(
            "in memory: KvTable::deleted {}; not a bubble: {not_bubbles:?}",
            deleted.len()
        );
        let mem: std::collections::HashSet<&str> = rows.iter().map(|r| r.text.as_str()).collect();
        let pg: std::collections::HashSet<&str> =
            paged_rows.iter().map(|r| r.text.as_str()).collect();
        for r in paged_rows
            .iter()
            .filter(|r| !mem.contains(r.text.as_str()))
            .take(4)
        {
            println!(
                "  paged only: {} at {}",
                r.text.chars().take(80).collect::<String>(),
                r.source_locator
            );
        }
        for r in rows
            .iter()
            .filter(|r| !pg.contains(r.text.as_str()))
            .take(4)
        {
            println!(
                "  memory only: {} at {}",
                r.text.chars().take(80).collect::<String>(),
                r.source_locator
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--build") {
        let mb = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
        build_big(mb, std::path::Path::new(&args[3]));
        return;
    }
    if args.get(1).map(String::as_str) == Some("--paged") {
        let mb = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
        paged(mb);
        return;
    }
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
