//! Cells freed one after another into one freeblock. Deleting a chat deletes its records
//! in insertion order, which on a page is from the top down. SQLite merges each freed
//! cell into the freeblock just above it: the link goes at the lower cell and holds
//! the size of the whole run, and the upper cell keeps the link it had. A small cell
//! loses its payload length, rowid, header length and first serial type to the link,
//! so its first column's length must be inferred from where the cell ends. Before
//! 2026-12-02 none of these cells came back. Now each merged cell is rebuilt to end
//! where the next merged cell's link begins. The first cell freed (the run's top, whose
//! link has its own size) is still left: read to the block's end it gave a false record
//! where pages moved between two tables of one shape (tests/modes_agree.rs).
//! SQLite builds the database here (4 KiB pages, `secure_delete` off); both reading
//! modes must agree.

use sqlite_evidence::Database;
use sqlite_evidence::paged::PagedDatabase;
use sqlite_evidence::rusqlite::types::Value;

/// A `cursorDiskKV`-shaped table with `n` records between two kept ones, the `n`
/// deleted in insertion order.
fn built(n: usize) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.vscdb");
    let conn = sqlite_evidence::rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 4096; PRAGMA journal_mode = DELETE; PRAGMA secure_delete = OFF;
         CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    let put = |k: &str, v: &str| {
        conn.execute("INSERT INTO cursorDiskKV VALUES (?1, ?2)", [k, v])
            .unwrap();
    };
    put("keep:1", r#"{"a":1}"#);
    for i in 0..n {
        put(
            &format!("bubbleId:c1:b{i}"),
            &format!(r#"{{"type":1,"bubbleId":"b{i}","text":"deleted prompt {i}"}}"#),
        );
    }
    put("keep:2", r#"{"a":2}"#);
    for i in 0..n {
        conn.execute(
            "DELETE FROM cursorDiskKV WHERE key = ?1",
            [format!("bubbleId:c1:b{i}")],
        )
        .unwrap();
    }
    drop(conn);
    std::fs::read(&path).unwrap()
}

/// (key, value, location) of every deleted record, in both modes (which must agree),
/// sorted by key.
fn deleted(file: &[u8]) -> Vec<(String, String, String)> {
    let text = |v: &Value| match v {
        Value::Text(t) => t.clone(),
        other => format!("{other:?}"),
    };
    let pick = |r: &sqlite_evidence::RecoveredRecord| {
        (text(&r.values[0]), text(&r.values[1]), r.location.clone())
    };
    let mut memory: Vec<_> = Database::from_bytes(file, None)
        .unwrap()
        .deleted_records("cursorDiskKV")
        .iter()
        .map(pick)
        .collect();
    let mut paged = Vec::new();
    PagedDatabase::from_readers(Box::new(file.to_vec()), None)
        .unwrap()
        .deleted_records("cursorDiskKV", &mut |r| paged.push(pick(&r)));
    memory.sort();
    paged.sort();
    assert_eq!(memory, paged);
    memory
}

#[test]
fn three_cells_freed_top_down_come_back_but_the_first() {
    let file = built(3);
    let got = deleted(&file);
    let want: Vec<(String, String)> = (1..3)
        .map(|i| {
            (
                format!("bubbleId:c1:b{i}"),
                format!(r#"{{"type":1,"bubbleId":"b{i}","text":"deleted prompt {i}"}}"#),
            )
        })
        .collect();
    assert_eq!(
        got.iter()
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .collect::<Vec<_>>(),
        want
    );
    // one freeblock, each cell at its own offset (b1 freed before b2, so higher)
    let offsets: Vec<usize> = got
        .iter()
        .map(|(_, _, l)| {
            l.strip_prefix("freeblock at page 2 offset ")
                .unwrap_or_else(|| panic!("{l}"))
                .parse()
                .unwrap()
        })
        .collect();
    // b2 ends where b1's link begins: one cell (71 bytes) below it
    assert_eq!(offsets, [3936, 3865]);
}

#[test]
fn a_page_of_cells_freed_top_down_comes_back_but_the_first() {
    // 20 records of about 90 bytes: one page, one freeblock of 20 merged cells
    let file = built(20);
    let got = deleted(&file);
    let keys: Vec<&str> = got.iter().map(|(k, _, _)| k.as_str()).collect();
    let mut want: Vec<String> = (1..20).map(|i| format!("bubbleId:c1:b{i}")).collect();
    want.sort();
    assert_eq!(keys, want);
    assert!(got.iter().all(|(k, v, _)| v.contains(&format!(
        "\"bubbleId\":\"{}\"",
        k.rsplit(':').next().unwrap()
    ))));
}
