//! `PagedDatabase::live_records_where`: the records whose first column a predicate
//! accepts, as `live_records` gives them, with the overflow pages of the others never
//! read (counted here through the page source's reads).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlite_evidence::paged::{PagedDatabase, ReadAt};
use sqlite_evidence::rusqlite::types::Value;

/// A file in memory that counts the bytes read from it.
struct Counted(Vec<u8>, Arc<AtomicU64>);

impl ReadAt for Counted {
    fn len(&self) -> u64 {
        self.0.len() as u64
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read_at(offset, buf)?;
        self.1.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// `kv(key TEXT, value BLOB)` on 4 KiB pages: 200 records of 20 KB values (each spills
/// onto five overflow pages), and one whose 10 KB key itself spills.
fn built() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let conn = sqlite_evidence::rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 4096; PRAGMA journal_mode = DELETE;
         CREATE TABLE kv (key TEXT UNIQUE, value BLOB); BEGIN;",
    )
    .unwrap();
    for i in 0..200 {
        conn.execute(
            "INSERT INTO kv VALUES (?1, ?2)",
            sqlite_evidence::rusqlite::params![format!("k{i:03}"), vec![i as u8; 20_000]],
        )
        .unwrap();
    }
    conn.execute(
        "INSERT INTO kv VALUES (?1, x'01')",
        [format!("long{}", "x".repeat(10_000))],
    )
    .unwrap();
    conn.execute_batch("COMMIT").unwrap();
    drop(conn);
    std::fs::read(&path).unwrap()
}

fn open(file: &[u8]) -> (PagedDatabase, Arc<AtomicU64>) {
    let read = Arc::new(AtomicU64::new(0));
    let db =
        PagedDatabase::from_readers(Box::new(Counted(file.to_vec(), read.clone())), None).unwrap();
    (db, read)
}

fn key(v: &Value) -> String {
    match v {
        Value::Text(t) => t.clone(),
        other => format!("{other:?}"),
    }
}

#[test]
fn refused_records_cost_their_cells_only() {
    let file = built();
    let (db, read) = open(&file);
    let mut all = Vec::new();
    read.store(0, Ordering::Relaxed);
    db.live_records("kv", &mut |rowid, values| all.push((rowid, values)));
    let whole = read.load(Ordering::Relaxed);
    assert_eq!(all.len(), 201);

    let wanted = |k: &str| k == "k007" || k == "k150" || k.starts_with("long");
    let (mut asked, mut kept, mut sizes) = (0, Vec::new(), 0usize);
    read.store(0, Ordering::Relaxed);
    let n = db.live_records_where(
        "kv",
        &mut |first, len| {
            asked += 1;
            sizes += len;
            wanted(&key(first))
        },
        &mut |rowid, values| kept.push((rowid, values)),
    );
    let filtered = read.load(Ordering::Relaxed);
    let expected: Vec<_> = all
        .iter()
        .filter(|(_, v)| wanted(&key(&v[0])))
        .cloned()
        .collect();
    assert_eq!((n, kept.len(), asked), (3, 3, 201));
    assert_eq!(kept, expected);
    // every record's stored length: a 4-byte key and a 20,000-byte blob under a 5-byte
    // header (the blob's type is a 3-byte varint), 200 times, and the long key's record
    assert_eq!(sizes, 200 * (5 + 4 + 20_000) + (5 + 10_004 + 1));
    // the leaf pages and the three records' chains: a small part of the whole walk
    assert!(filtered * 4 < whole, "{filtered} of {whole} bytes");

    // refusing all reads no overflow page but the long key's
    read.store(0, Ordering::Relaxed);
    let n = db.live_records_where("kv", &mut |_, _| false, &mut |_, _| unreachable!());
    assert_eq!(n, 0);
    let none = read.load(Ordering::Relaxed);
    assert!(none < filtered, "{none} vs {filtered}");
}
