//! Times carving on the worst pages this crate's carver knows: 64 KiB pages whose free
//! space is full of bytes that read as record headers.
//!
//! `cargo run --release -p sqlite-evidence --example sqlite_evidence_worst_page [pages]`
//!
//! Builds, with rusqlite in a scratch directory, a database of 65,536-byte pages with
//! `pages` (default 8) tables of one short row each (each table one leaf page), and fills
//! every leaf's unallocated space (about 65,400 bytes) with one of two patterns:
//!
//! * `blob-first`: tables `(data BLOB, name TEXT)`, a header every 4 bytes declaring an
//!   8,000-byte blob then a one-byte text that is a control character: each candidate
//!   is refused only after its blob;
//! * `spilled`: tables `(key TEXT, value BLOB)`, a header every 6 bytes declaring a
//!   record larger than a page can hold locally (it spills onto overflow pages whose
//!   chain is not free): each candidate reads the local part of the page.
//!
//! * `stale-links`: the filled space one freeblock of stale freeblock links (every 8
//!   bytes) over blob-first headers, each a freed cell to try;
//! * `stale-links-text`: tables `(id TEXT, body TEXT)` whose live keys share one layout,
//!   the filled space one freeblock of 17-byte freed cells under stale links that lost
//!   their first serial type: each is rebuilt (a record per 17 bytes), its key read at
//!   the layout's length.
//!
//! Then it times `Database::deleted_records` and the paged mode on each, prints the
//! time per page, the MB/s of free space carved and the records returned (none: the
//! bytes are no record). Carving used to try a record at every byte with a cost up to
//! the page size each (quadratic in the page); it is linear now (see `carve_memo`).

use std::time::Instant;

use rusqlite::Connection;
use sqlite_evidence::Database;
use sqlite_evidence::paged::{PagedDatabase, ReadAt};

/// The page size: 65,536 unless `WORST_PAGE_SIZE` says otherwise (a smaller page shows
/// how the time per page grows with the page size: linearly now).
fn page_size() -> usize {
    std::env::var("WORST_PAGE_SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(65_536)
}

/// A database of `pages` tables `{prefix}{i} {columns}` of one row each (one leaf
/// page each), with each leaf's unallocated space then filled with `pattern` repeated.
fn build(prefix: &str, columns: &str, row: &str, pages: usize, pattern: &[u8]) -> Vec<u8> {
    build_as(prefix, columns, &[row], pages, pattern, false)
}

/// [`build`], the filled space made one freeblock when `freeblock` (its link first,
/// then the pattern): what a page whose cells were all freed one by one looks like.
fn build_as(
    prefix: &str,
    columns: &str,
    rows: &[&str],
    pages: usize,
    pattern: &[u8],
    freeblock: bool,
) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("worst.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(&format!(
        "PRAGMA page_size = {}; PRAGMA secure_delete = OFF;",
        page_size()
    ))
    .unwrap();
    for i in 0..pages {
        conn.execute_batch(&format!("CREATE TABLE {prefix}{i} {columns};"))
            .unwrap();
        for row in rows {
            conn.execute_batch(&format!("INSERT INTO {prefix}{i} VALUES ({row});"))
                .unwrap();
        }
    }
    let table = prefix;
    drop(conn);
    let mut main = std::fs::read(&path).unwrap();
    let n = main.len() / page_size();
    let mut filled = 0;
    for p in 1..n {
        let at = p * page_size();
        if main[at] != 0x0d {
            continue;
        }
        let cells = u16::from_be_bytes([main[at + 3], main[at + 4]]) as usize;
        let gap = at + 8 + 2 * cells;
        let content = match u16::from_be_bytes([main[at + 5], main[at + 6]]) as usize {
            0 => page_size(),
            c => c,
        };
        // two zero bytes first: the gap does not read as an old cell pointer array
        let (a, z) = (gap + 2, at + content);
        main[gap..gap + 2].copy_from_slice(&[0, 0]);
        for (k, x) in main[a..z].iter_mut().enumerate() {
            *x = pattern[k % pattern.len()];
        }
        if freeblock {
            // the page's first freeblock at `a`, its content starting there too
            let off = u16::try_from(a - at).unwrap();
            let size = u16::try_from(z - a).unwrap();
            main[at + 1..at + 3].copy_from_slice(&off.to_be_bytes());
            main[at + 5..at + 7].copy_from_slice(&off.to_be_bytes());
            main[a..a + 2].copy_from_slice(&[0, 0]);
            main[a + 2..a + 4].copy_from_slice(&size.to_be_bytes());
        }
        filled += z - a;
    }
    eprintln!("{table}: {n} pages, {filled} bytes of free space filled");
    main
}

fn time(name: &str, main: &[u8], prefix: &str, pages: usize) {
    let db = Database::from_bytes(main, None).unwrap();
    let t = Instant::now();
    let recs: Vec<_> = (0..pages)
        .flat_map(|i| db.deleted_records(&format!("{prefix}{i}")))
        .collect();
    let d = t.elapsed();
    let mb = (pages * page_size()) as f64 / 1e6;
    println!(
        "{name}: Database::deleted_records {} records in {:.3}s ({:.1} ms/page, {:.2} MB/s)",
        recs.len(),
        d.as_secs_f64(),
        d.as_secs_f64() * 1000.0 / pages as f64,
        mb / d.as_secs_f64()
    );
    let paged =
        PagedDatabase::from_readers(Box::new(main.to_vec()) as Box<dyn ReadAt>, None).unwrap();
    let t = Instant::now();
    let n: usize = (0..pages)
        .map(|i| paged.deleted_records(&format!("{prefix}{i}"), &mut |_| {}))
        .sum();
    let d = t.elapsed();
    println!(
        "{name}: PagedDatabase::deleted_records {n} records in {:.3}s ({:.1} ms/page, {:.2} MB/s)",
        d.as_secs_f64(),
        d.as_secs_f64() * 1000.0 / pages as f64,
        mb / d.as_secs_f64()
    );
}

fn main() {
    let pages: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    // blob of 8,000 bytes: serial type 12 + 2 * 8000 = 16012 = varint FD 0C; a text of
    // one byte: 15
    let blob_first = build(
        "blobs",
        "(data BLOB, name TEXT)",
        "x'0102', 'n'",
        pages,
        &[0x04, 0xfd, 0x0c, 0x0f],
    );
    time("blob-first", &blob_first, "blobs", pages);
    // hlen 5, a key of one byte of text (15), a value of 149,978 bytes (blob type 92 A7
    // 40 = 299,968): more than a 64 KiB page keeps local (it spills); the key is the
    // filler byte `a`
    let spilled = build(
        "items",
        "(key TEXT, value BLOB)",
        "'k', x'01'",
        pages,
        &[0x05, 0x0f, 0x92, 0xa7, 0x40, b'a'],
    );
    time("spilled", &spilled, "items", pages);
    // one freeblock of stale links, every 8 bytes (next none, size 64), each over a
    // blob-first header: every link is a freed cell to try to rebuild
    let stale = build_as(
        "stale",
        "(data BLOB, name TEXT)",
        &["x'0102', 'n'"],
        pages,
        &[0x00, 0x00, 0x00, 0x40, 0x04, 0xfd, 0x0c, 0x0f],
        true,
    );
    time("stale-links", &stale, "stale", pages);
    // keys of one layout (`k` and 7 digits) in the live rows, and a freeblock of cells
    // under stale links that lost their first serial type, 17 bytes each: each is
    // rebuilt with its key read at the layout's length (every one is returned: a record
    // per 17 bytes)
    let keys: Vec<String> = (0..10).map(|k| format!("'k{k:07}', 'body'")).collect();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let mut cell = vec![0x00, 0x00, 0x00, 0x11, 0x15];
    cell.extend_from_slice(b"k9999999body");
    let stale_text = build_as("keyed", "(id TEXT, body TEXT)", &keys, pages, &cell, true);
    time("stale-links-text", &stale_text, "keyed", pages);
}
