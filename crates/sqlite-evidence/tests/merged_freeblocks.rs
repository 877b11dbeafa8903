//! Cells freed one after another into one freeblock. Deleting a chat deletes its records
//! in insertion order, which on a page is from the top down. SQLite merges each freed
//! cell into the freeblock just above it: the link goes at the lower cell and holds
//! the size of the whole run, and the upper cell keeps the link it had. A small cell
//! loses its payload length, rowid, header length and first serial type to the link,
//! so its first column's length must be inferred from where the cell ends. Before
//! 2026-12-02 none of these cells came back. Now each merged cell is rebuilt to end
//! where the next merged cell's link begins, and the first cell freed (the run's top,
//! whose link has its own size) to the block's end, when its second column begins and
//! its last column ends with bytes the live values of those columns begin and end with:
//! a cell whose tail a later cell took, allocated from the block's end while the first
//! cell's link was the block's, reads with its first column that much shorter and the
//! next one shifted into it (`kv:2:2` and `0kv value tang` from `kv:2:20` and
//! `kv value tango` in tests/modes_agree.rs, two tables of one shape).
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

/// The `n` deleted records as written, sorted by key.
fn written(n: usize) -> Vec<(String, String)> {
    let mut want: Vec<(String, String)> = (0..n)
        .map(|i| {
            (
                format!("bubbleId:c1:b{i}"),
                format!(r#"{{"type":1,"bubbleId":"b{i}","text":"deleted prompt {i}"}}"#),
            )
        })
        .collect();
    want.sort();
    want
}

#[test]
fn three_cells_freed_top_down_come_back() {
    let file = built(3);
    let got = deleted(&file);
    assert_eq!(
        got.iter()
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .collect::<Vec<_>>(),
        written(3)
    );
    // one freeblock, each cell at its own offset (b0 freed before b1, so higher)
    let offsets: Vec<usize> = got
        .iter()
        .map(|(_, _, l)| {
            l.strip_prefix("freeblock at page 2 offset ")
                .unwrap_or_else(|| panic!("{l}"))
                .parse()
                .unwrap()
        })
        .collect();
    // b2 ends where b1's link begins, b1 where b0's does: one cell (71 bytes) below
    // it; b0 (freed first) ends at the block's end, where keep:1 begins
    assert_eq!(offsets, [4007, 3936, 3865]);
}

#[test]
fn a_page_of_cells_freed_top_down_comes_back() {
    // 20 records of about 90 bytes: one page, one freeblock of 20 merged cells
    let file = built(20);
    let got = deleted(&file);
    assert_eq!(
        got.iter()
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .collect::<Vec<_>>(),
        written(20)
    );
}

/// The first cell freed, whose tail a row inserted before the next delete took (SQLite
/// allocates a new cell from the end of the first freeblock large enough): its link's
/// size was cut to what is left, and read to the block's end its key came back 8 bytes
/// short, the value beginning with the key's last 8 bytes (`bubble`, `Id:c1:b0{"type"..`)
/// and cut 8 bytes before its end. It is left; the cell freed after it comes back.
#[test]
fn a_first_freed_cell_whose_tail_a_later_cell_took_is_left() {
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
    let del = |k: &str| {
        conn.execute("DELETE FROM cursorDiskKV WHERE key = ?1", [k])
            .unwrap();
    };
    let (b0, b1) = (&written(2)[0], &written(2)[1]);
    put("keep:1", r#"{"a":1}"#);
    put(&b0.0, &b0.1);
    put(&b1.0, &b1.1);
    put("keep:2", r#"{"a":2}"#);
    del(&b0.0);
    // an 8-byte cell (payload 6, rowid 1, length 1), taken from b0's freeblock's end
    put("x", "{}");
    del(&b1.0);
    drop(conn);
    let file = std::fs::read(&path).unwrap();
    let got = deleted(&file);
    assert_eq!(
        got.iter()
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .collect::<Vec<_>>(),
        std::slice::from_ref(b1)
    );
}
