//! Recovery of deleted rows on the project's own databases, against their ground truth
//! (`tests/data/<db>.deleted.txt`, written by the fixture builder).

use std::path::{Path, PathBuf};

use chat_rows::Evidence;
use sqlite_evidence::Database;
use sqlite_evidence::rusqlite::types::Value;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A deleted row: its column values (rowid alias left out) and the record body bytes
/// that must survive contiguously in the files for it to be recoverable at all.
struct Truth {
    values: Vec<Value>,
    body: Vec<u8>,
    rowid: Option<i64>,
}

fn notes_truth(name: &str) -> Vec<Truth> {
    std::fs::read_to_string(data(&format!("{name}.deleted.txt")))
        .unwrap()
        .lines()
        .map(|l| {
            let i: i64 = l.parse().unwrap();
            let title = format!("note {i}");
            let body = format!(
                "body of note {i}: {}",
                "lorem ipsum ".repeat((i % 9) as usize + 1)
            );
            let created = 1_790_000_000_000 + i * 60_000;
            let mut bytes = format!("{title}{body}").into_bytes();
            bytes.extend_from_slice(&created.to_be_bytes()[2..]);
            Truth {
                values: vec![
                    Value::Text(title),
                    Value::Text(body),
                    Value::Integer(created),
                ],
                body: bytes,
                rowid: Some(i),
            }
        })
        .collect()
}

fn items_truth(name: &str) -> Vec<Truth> {
    std::fs::read_to_string(data(&format!("{name}.deleted.txt")))
        .unwrap()
        .lines()
        .map(|l| {
            let (k, v) = l.split_once('\t').unwrap();
            Truth {
                values: vec![Value::Text(k.into()), Value::Text(v.into())],
                body: format!("{k}{v}").into_bytes(),
                rowid: None,
            }
        })
        .collect()
}

/// The figures of one database.
#[derive(Debug, PartialEq, Eq)]
struct Score {
    /// Rows deleted.
    deleted: usize,
    /// Deleted rows whose whole record still lies contiguously in the files.
    intact: usize,
    /// Deleted rows recovered exactly.
    found: usize,
    /// Recovered records that are not a deleted row.
    false_positives: usize,
    /// Recovered records whose rowid was lost.
    without_rowid: usize,
    /// Partial records (columns lost to a later cell) of deleted rows, on the columns
    /// that survive.
    partial: usize,
}

fn score(name: &str, table: &str, truth: Vec<Truth>, alias: bool) -> Score {
    let db = Database::open(&data(name), &Evidence::new()).unwrap();
    let mut files = std::fs::read(data(name)).unwrap();
    files.extend(std::fs::read(data(&format!("{name}-wal"))).unwrap_or_default());
    // A record too large for one page spills onto overflow pages: its first part (the
    // local payload on the leaf) must be contiguous, the rest is on the chain.
    let intact = truth
        .iter()
        .filter(|t| {
            let need = if t.body.len() > 4061 {
                &t.body[..400]
            } else {
                &t.body[..]
            };
            files.windows(need.len()).any(|w| w == need)
        })
        .count();
    let mut found = vec![false; truth.len()];
    let mut false_positives = 0;
    let mut without_rowid = 0;
    let mut partial = 0;
    for r in db.deleted_records(table) {
        let values: Vec<Value> = if alias {
            r.values[1..].to_vec()
        } else {
            r.values.clone()
        };
        if r.rowid.is_none() {
            without_rowid += 1;
        }
        if !r.missing.is_empty() {
            let skip = usize::from(alias);
            let fits = |t: &Truth| {
                values
                    .iter()
                    .zip(&t.values)
                    .enumerate()
                    .all(|(i, (v, w))| r.missing.contains(&(i + skip)) || v == w)
                    // a cut value's surviving start is the start of the row's value
                    && r.truncated.as_ref().is_none_or(|(i, cut)| {
                        match (cut, i.checked_sub(skip).and_then(|j| t.values.get(j))) {
                            (Value::Text(a), Some(Value::Text(b))) => {
                                b.starts_with(a.as_str()) && a != b
                            }
                            (Value::Blob(a), Some(Value::Blob(b))) => b.starts_with(a) && a != b,
                            _ => false,
                        }
                    })
            };
            if truth.iter().any(fits) {
                partial += 1;
            } else {
                eprintln!("{name}: false positive {r:?}");
                false_positives += 1;
            }
            continue;
        }
        match truth.iter().position(|t| t.values == values) {
            Some(i) if r.rowid.is_none() || t_rowid_ok(&truth[i], r.rowid) => found[i] = true,
            _ => {
                eprintln!("{name}: false positive {r:?}");
                false_positives += 1;
            }
        }
    }
    Score {
        deleted: truth.len(),
        intact,
        found: found.iter().filter(|f| **f).count(),
        false_positives,
        without_rowid,
        partial,
    }
}

fn t_rowid_ok(t: &Truth, rowid: Option<i64>) -> bool {
    t.rowid.is_none() || t.rowid == rowid
}

#[test]
fn plain_delete_recovers_every_intact_row() {
    let s = score(
        "deleted_plain.db",
        "notes",
        notes_truth("deleted_plain.db"),
        true,
    );
    eprintln!("deleted_plain.db {s:?}");
    assert_eq!(
        s,
        Score {
            deleted: 96,
            intact: 59,
            found: 59,
            false_positives: 0,
            without_rowid: 36,
            partial: 3
        }
    );
}

#[test]
fn secure_delete_leaves_nothing_and_nothing_is_invented() {
    let s = score(
        "deleted_secure.db",
        "notes",
        notes_truth("deleted_secure.db"),
        true,
    );
    assert_eq!(
        s,
        Score {
            deleted: 96,
            intact: 0,
            found: 0,
            false_positives: 0,
            without_rowid: 0,
            partial: 0
        }
    );
}

#[test]
fn vacuum_leaves_nothing_and_nothing_is_invented() {
    let s = score(
        "deleted_vacuum.db",
        "notes",
        notes_truth("deleted_vacuum.db"),
        true,
    );
    assert_eq!(
        s,
        Score {
            deleted: 96,
            intact: 0,
            found: 0,
            false_positives: 0,
            without_rowid: 0,
            partial: 0
        }
    );
}

#[test]
fn wal_delete_recovers_every_row_from_older_page_versions() {
    let s = score(
        "deleted_wal.db",
        "notes",
        notes_truth("deleted_wal.db"),
        true,
    );
    assert_eq!(
        s,
        Score {
            deleted: 96,
            intact: 96,
            found: 96,
            false_positives: 0,
            without_rowid: 0,
            partial: 0
        }
    );
    let db = Database::open(&data("deleted_wal.db"), &Evidence::new()).unwrap();
    let recs = db.deleted_records("notes");
    assert_eq!(recs[0].rowid, Some(3));
    assert_eq!(recs[0].location, "main file page 5 cell 2");
}

#[test]
fn itemtable_deletes_and_rewrites() {
    let s = score(
        "items_plain.db",
        "ItemTable",
        items_truth("items_plain.db"),
        false,
    );
    eprintln!("items_plain.db {s:?}");
    assert_eq!(
        s,
        Score {
            deleted: 80,
            intact: 78,
            found: 78,
            false_positives: 0,
            without_rowid: 74,
            partial: 0
        }
    );
}

#[test]
fn itemtable_values_on_overflow_pages() {
    let s = score(
        "items_large.db",
        "ItemTable",
        items_truth("items_large.db"),
        false,
    );
    eprintln!("items_large.db {s:?}");
    // Four deleted values (2.3-3.8 KB, one leaf page each) are gone from the file: only
    // their keys survive, in the UNIQUE index. The six that spilled onto overflow pages
    // are rebuilt from their local part and the freed overflow chain.
    assert_eq!(
        s,
        Score {
            deleted: 10,
            intact: 6,
            found: 6,
            false_positives: 0,
            without_rowid: 5,
            partial: 0
        }
    );
}

#[test]
fn older_wal_generation_frames() {
    // Note 61 was inserted and deleted (secure_delete on) before a checkpoint; the next
    // write restarted the WAL. Only the older generation's frame 14 still holds it.
    let db = Database::open(&data("generations.db"), &Evidence::new()).unwrap();
    assert_eq!(db.problems(), &[]);
    let frames = &db.wal().frames;
    assert_eq!(frames.len(), 17);
    assert_eq!(frames[0].status, sqlite_evidence::FrameStatus::Committed);
    assert!(
        frames[1..]
            .iter()
            .all(|f| f.status == sqlite_evidence::FrameStatus::OtherGeneration)
    );
    // The truth also lists note 1 as it was before the rename (its older version).
    let s = score(
        "generations.db",
        "notes",
        notes_truth("generations.db"),
        true,
    );
    assert_eq!(
        s,
        Score {
            deleted: 2,
            intact: 2,
            found: 2,
            false_positives: 0,
            without_rowid: 0,
            partial: 0
        }
    );
    let recs = db.deleted_records("notes");
    assert_eq!(recs[1].rowid, Some(61));
    assert_eq!(
        recs[1].location,
        "wal frame 14 (page 6, older wal generation) cell 9"
    );
}

#[test]
fn unknown_and_live_tables() {
    let db = Database::open(&data("live.db"), &Evidence::new()).unwrap();
    assert!(db.deleted_records("nope").is_empty());
    // live.db: `c` was deleted and `b` rewritten in the WAL; their older versions are in
    // the main file's page 2, which the WAL superseded.
    let recs: Vec<(Vec<Value>, String)> = db
        .deleted_records("ItemTable")
        .into_iter()
        .map(|r| (r.values, r.location))
        .collect();
    assert_eq!(
        recs,
        vec![
            (
                vec![Value::Text("b".into()), Value::Text("bravo".into())],
                "main file page 2 cell 1".to_string()
            ),
            (
                vec![Value::Text("c".into()), Value::Text("charlie".into())],
                "main file page 2 cell 2".to_string()
            ),
        ]
    );
}

/// A stale freeblock link in a page's gap, in front of a spilled cell whose payload
/// length and rowid took the four bytes (as a 500 MB Cursor-like build left it: the
/// link, then the rowid's last byte `0f`, the header length `04`, the key's type `35`
/// and the value's two-byte type `ee 69`). Rebuilt as if the link had taken the header
/// length, `0f 04` read as the types of a 1-character key and a 4-byte integer: "5"
/// and -295083403. The table's live values are all text, so that reading is refused.
#[test]
fn a_rebuilt_reading_against_the_live_records_habits_is_refused() {
    let mut conn = sqlite_evidence::rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 4096;
         CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    for i in 0..6 {
        conn.execute(
            "INSERT INTO cursorDiskKV (rowid, key, value) VALUES (?1, ?2, ?3)",
            (
                60_000 + i,
                format!("bubbleId:c1:b{i}"),
                format!("{{\"text\":\"message {i}\"}}"),
            ),
        )
        .unwrap();
    }
    let mut main = conn
        .serialize(sqlite_evidence::rusqlite::MAIN_DB)
        .unwrap()
        .to_vec();
    // page 2 is the table's only leaf: its gap runs from the cell pointers to the cells
    let page = 4096;
    let content = u16::from_be_bytes([main[page + 5], main[page + 6]]) as usize;
    assert!(content > 1200, "{content}");
    // the 77 bytes before the build's live cell, as they were: the end of an older
    // cell (its overflow page number), the stale link, the spilled cell's head
    let mut stale = vec![0x00, 0x00, 0xa0, 0x3f, 0x00, 0x00, 0x0b, 0xd3];
    stale.extend_from_slice(&[0x0f, 0x04, 0x35, 0xee, 0x69]);
    stale.extend_from_slice(
        b"bubbleId:c203:b20366{\"bubbleId\":\"b20366\",\"type\":1,\"text\":\"20366 ",
    );
    assert_eq!(stale.len(), 77);
    let at = page + content - stale.len();
    // the link's size reaches the page's end, as there (1069 + 3027 = 4096)
    let size = (4096 - (content - 73)) as u16;
    stale[6..8].copy_from_slice(&size.to_be_bytes());
    main[at..at + stale.len()].copy_from_slice(&stale);
    let db = Database::from_vecs(main, None).unwrap();
    let keys: Vec<Value> = db
        .deleted_records("cursorDiskKV")
        .into_iter()
        .map(|r| r.values[0].clone())
        .collect();
    assert_eq!(keys, Vec::<Value>::new());
}

/// Rows written before `ALTER TABLE ... ADD COLUMN` hold fewer columns than the schema:
/// SQLite reads the added columns as their defaults, and so does the paged mode's own
/// b-tree walk (it used to read NULL). A default that is not constant is never met
/// by such a row (ADD COLUMN refuses it) and is not evaluated.
#[test]
fn rows_older_than_an_added_column_read_its_default_in_both_modes() {
    let mut conn = sqlite_evidence::rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE TABLE t (a TEXT, made TEXT DEFAULT CURRENT_TIMESTAMP);
         INSERT INTO t (a, made) VALUES ('old', '2026-01-01');
         ALTER TABLE t ADD COLUMN n INTEGER DEFAULT -7;
         ALTER TABLE t ADD COLUMN s TEXT DEFAULT 'none';
         ALTER TABLE t ADD COLUMN z BLOB;
         INSERT INTO t VALUES ('new', '2026-02-02', 1, 'x', X'01');",
    )
    .unwrap();
    let main = conn
        .serialize(sqlite_evidence::rusqlite::MAIN_DB)
        .unwrap()
        .to_vec();
    let old = vec![
        Value::Text("old".into()),
        Value::Text("2026-01-01".into()),
        Value::Integer(-7),
        Value::Text("none".into()),
        Value::Null,
    ];
    let new = vec![
        Value::Text("new".into()),
        Value::Text("2026-02-02".into()),
        Value::Integer(1),
        Value::Text("x".into()),
        Value::Blob(vec![1]),
    ];
    let db = Database::from_bytes(&main, None).unwrap();
    let mut stmt = db.connection().prepare("SELECT * FROM t").unwrap();
    let sql: Vec<Vec<Value>> = stmt
        .query_map([], |r| (0..5).map(|i| r.get::<_, Value>(i)).collect())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(sql, [old.clone(), new.clone()]);
    let paged =
        sqlite_evidence::paged::PagedDatabase::from_readers(Box::new(main.clone()), None).unwrap();
    let mut walked = Vec::new();
    paged.live_records("t", &mut |_, v| walked.push(v));
    assert_eq!(walked, [old, new]);
}
