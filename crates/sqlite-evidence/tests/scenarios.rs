//! Recovery per scenario (issue 14): each database is built here, deterministically,
//! with rusqlite in a private directory; the rows it deletes (or makes unreachable) are
//! its ground truth, and every record `deleted_records` returns is checked against it.
//!
//! For each scenario the score says how many rows were deleted, how many of them still
//! have their whole record body contiguous in the files ("intact": the most a carver
//! can find exactly), how many came back exactly, how many came back as partial records
//! (the columns that survive, the others marked missing), and how many records are no
//! deleted row at all (false positives). `SHOW_FOUND=1 cargo test -p sqlite-evidence
//! --test scenarios -- --nocapture` prints every record returned.

mod common;

use common::{Lcg, Scratch};
use sqlite_evidence::rusqlite::types::Value;
use sqlite_evidence::rusqlite::{Connection, params};
use sqlite_evidence::{Database, Reach, RecoveredRecord};

/// A built database: its files as they are when collected, and its ground truth.
struct Built {
    main: Vec<u8>,
    wal: Option<Vec<u8>>,
    /// The rows that SQLite no longer shows: every column, in table order.
    truth: Vec<Vec<Value>>,
    /// For a `WITHOUT ROWID` table whose record order differs from its table order
    /// (the PRIMARY KEY columns first): the table column of each record column.
    record_order: Option<Vec<usize>>,
}

/// Runs `make` on a fresh database (page size 4096, secure_delete off unless `make`
/// says otherwise) and returns its files while the connection is still open.
fn build(wal: bool, make: impl FnOnce(&Connection) -> Vec<Vec<Value>>) -> Built {
    let scratch = Scratch::new(4096, wal);
    let truth = make(&scratch.conn);
    let (main, wal) = scratch.files();
    Built {
        main,
        wal,
        truth,
        record_order: None,
    }
}

/// Every row of `table` that `filter` selects, every column in order.
fn rows(conn: &Connection, table: &str, filter: &str) -> Vec<Vec<Value>> {
    let mut stmt = conn
        .prepare(&format!("SELECT * FROM {table} WHERE {filter}"))
        .unwrap();
    let n = stmt.column_count();
    stmt.query_map([], |r| {
        Ok((0..n).map(|i| r.get::<_, Value>(i).unwrap()).collect())
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// Selects the rows `filter` names, then deletes them: the ground truth.
fn delete(conn: &Connection, table: &str, filter: &str) -> Vec<Vec<Value>> {
    let gone = rows(conn, table, filter);
    conn.execute(&format!("DELETE FROM {table} WHERE {filter}"), [])
        .unwrap();
    gone
}

/// The record body SQLite stores for `values` (the rowid alias, `alias`, stored as
/// NULL): what must be contiguous in the files for the record to be found whole.
fn body(values: &[Value], alias: Option<usize>) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, v) in values.iter().enumerate() {
        if Some(i) == alias {
            continue;
        }
        match v {
            Value::Null => {}
            Value::Integer(n) => {
                let n = *n;
                let size = match n {
                    0 | 1 => 0,
                    -128..=127 => 1,
                    -32768..=32767 => 2,
                    -8_388_608..=8_388_607 => 3,
                    -2_147_483_648..=2_147_483_647 => 4,
                    -140_737_488_355_328..=140_737_488_355_327 => 6,
                    _ => 8,
                };
                out.extend_from_slice(&n.to_be_bytes()[8 - size..]);
            }
            Value::Real(f) => {
                if f.fract() == 0.0 && f.abs() < 1e15 {
                    // stored as an integer (REAL affinity)
                    out.extend(body(&[Value::Integer(*f as i64)], None));
                } else {
                    out.extend_from_slice(&f.to_bits().to_be_bytes());
                }
            }
            Value::Text(t) => out.extend_from_slice(t.as_bytes()),
            Value::Blob(b) => out.extend_from_slice(b),
        }
    }
    out
}

/// The figures of one scenario.
#[derive(Debug, PartialEq, Eq)]
struct Score {
    /// Rows SQLite no longer shows.
    deleted: usize,
    /// Of those, rows whose whole record body is contiguous in the files.
    intact: usize,
    /// Rows returned whole and exact.
    exact: usize,
    /// Rows returned as partial records (every surviving column exact).
    partial: usize,
    /// Records returned that are no deleted row (nor, for a partial one, its part).
    false_positives: usize,
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        // an integral REAL is stored as an integer and read back as a real
        (Value::Real(x), Value::Integer(y)) | (Value::Integer(y), Value::Real(x)) => {
            *x == *y as f64
        }
        _ => a == b,
    }
}

/// Whether record `r` is the truth row `t` (the alias column compared only when the
/// record knows it), whole or, for a partial record, on its surviving columns.
fn matches(r: &RecoveredRecord, t: &[Value], alias: Option<usize>) -> bool {
    r.values.len() == t.len()
        && r.values.iter().zip(t).enumerate().all(|(i, (v, w))| {
            r.missing.contains(&i) || (Some(i) == alias && *v == Value::Null) || same(v, w)
        })
        // a cut value's surviving start must be the start of the row's value
        && r.truncated.as_ref().is_none_or(|(i, v)| match (v, t.get(*i)) {
            (Value::Text(a), Some(Value::Text(b))) => b.starts_with(a.as_str()) && a != b,
            (Value::Blob(a), Some(Value::Blob(b))) => b.starts_with(a) && a != b,
            _ => false,
        })
}

fn score_records(
    name: &str,
    built: &Built,
    records: &[RecoveredRecord],
    alias: Option<usize>,
) -> Score {
    let mut files = built.main.clone();
    files.extend(built.wal.clone().unwrap_or_default());
    let finder =
        |needle: &[u8]| needle.is_empty() || files.windows(needle.len()).any(|w| w == needle);
    let intact = built
        .truth
        .iter()
        .filter(|t| {
            let b = match &built.record_order {
                Some(order) => body(
                    &order.iter().map(|&i| t[i].clone()).collect::<Vec<_>>(),
                    None,
                ),
                None => body(t, alias),
            };
            // a record that spilled onto overflow pages: its first part must be contiguous
            // (a WITHOUT ROWID table's record spills past about 1,000 bytes)
            let spills = if built.record_order.is_some() {
                1000
            } else {
                4000
            };
            let ok = finder(if b.len() > spills { &b[..400] } else { &b[..] });
            if !ok && std::env::var_os("SHOW_FOUND").is_some() {
                eprintln!("{name}: not intact {:?}", &t[..t.len().min(3)]);
            }
            ok
        })
        .count();
    let mut exact = vec![false; built.truth.len()];
    let mut partial = vec![false; built.truth.len()];
    let mut false_positives = 0;
    let show = std::env::var_os("SHOW_FOUND").is_some();
    for r in records {
        let hit = built.truth.iter().position(|t| matches(r, t, alias));
        if show {
            eprintln!(
                "{name}: {} {:?} {} missing {:?} {:?}",
                if hit.is_some() { "ok " } else { "BAD" },
                r.rowid,
                r.location,
                r.missing,
                r.values
                    .iter()
                    .map(|v| format!("{v:?}").chars().take(50).collect::<String>())
                    .collect::<Vec<_>>()
            );
        }
        match hit {
            Some(i) if r.missing.is_empty() => exact[i] = true,
            Some(i) => partial[i] = true,
            None => false_positives += 1,
        }
    }
    let exact_n = exact.iter().filter(|x| **x).count();
    let partial_n = partial
        .iter()
        .zip(&exact)
        .filter(|(p, e)| **p && !**e)
        .count();
    Score {
        deleted: built.truth.len(),
        intact,
        exact: exact_n,
        partial: partial_n,
        false_positives,
    }
}

fn score(name: &str, built: &Built, table: &str, alias: Option<usize>) -> Score {
    if let Some(dir) = std::env::var_os("SCENARIO_DUMP") {
        std::fs::write(
            std::path::Path::new(&dir).join(format!("{name}.db")),
            &built.main,
        )
        .unwrap();
        // the ground truth, one row a line (`N`, `I:<int>`, `R:<real>`, `T:<hex>`, `B:<hex>`)
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        let truth: String = built
            .truth
            .iter()
            .map(|t| {
                let cols: Vec<String> = t
                    .iter()
                    .map(|v| match v {
                        Value::Null => "N".to_string(),
                        Value::Integer(n) => format!("I:{n}"),
                        Value::Real(f) => format!("R:{f}"),
                        Value::Text(x) => format!("T:{}", hex(x.as_bytes())),
                        Value::Blob(x) => format!("B:{}", hex(x)),
                    })
                    .collect();
                cols.join("\t") + "\n"
            })
            .collect();
        std::fs::write(
            std::path::Path::new(&dir).join(format!("{name}.truth")),
            truth,
        )
        .unwrap();
        if let Some(wal) = &built.wal {
            std::fs::write(
                std::path::Path::new(&dir).join(format!("{name}.db-wal")),
                wal,
            )
            .unwrap();
        }
    }
    let db = Database::from_bytes(&built.main, built.wal.as_deref()).unwrap();
    let records = db.deleted_records(table);
    let s = score_records(name, built, &records, alias);
    eprintln!("{name}: {s:?}");
    s
}

fn sc(deleted: usize, intact: usize, exact: usize, partial: usize, fp: usize) -> Score {
    Score {
        deleted,
        intact,
        exact,
        partial,
        false_positives: fp,
    }
}

// ---------------------------------------------------------------------------------
// The builders.

/// VS Code's ItemTable with `n` keys of varied sizes; every `every`-th key deleted.
fn itemtable(n: i64, every: i64, wal: bool) -> Built {
    build(wal, |conn| {
        conn.execute_batch(
            "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
        )
        .unwrap();
        let mut rng = Lcg(7);
        for i in 0..n {
            let value = format!(
                "{{\"id\":{i},\"state\":\"{}\"}}",
                "s".repeat(rng.next(120) as usize)
            );
            conn.execute(
                "INSERT INTO ItemTable VALUES (?1, ?2)",
                params![format!("workbench.ext{i}.state"), value],
            )
            .unwrap();
        }
        let truth = delete(conn, "ItemTable", &format!("rowid % {every} = 2"));
        if wal {
            conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
                .unwrap();
        }
        truth
    })
}

/// A table of the given columns filled by `row(i)`, every 5th row deleted.
fn mix(schema: &str, table: &str, n: i64, row: impl Fn(i64) -> Vec<Value>) -> Built {
    build(false, |conn| {
        conn.execute_batch(schema).unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        for i in 1..=n {
            let values = row(i);
            let marks = vec!["?"; values.len()].join(",");
            tx.execute(
                &format!("INSERT INTO {table} VALUES ({marks})"),
                sqlite_evidence::rusqlite::params_from_iter(values),
            )
            .unwrap();
        }
        tx.commit().unwrap();
        delete(conn, table, "rowid % 5 = 3")
    })
}

fn words(rng: &mut Lcg, max: u64) -> String {
    const W: [&str; 8] = [
        "alpha", "bravo", "delta", "echo", "kilo", "lima", "oscar", "tango",
    ];
    (0..1 + rng.next(max))
        .map(|_| W[rng.next(8) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

fn events() -> Built {
    let mut rng = Lcg(11);
    let rows: Vec<Vec<Value>> = (1..=400)
        .map(|i| {
            vec![
                Value::Integer(1_790_000_000 + i * 37),
                Value::Text(format!("kind{}", i % 4)),
                Value::Text(words(&mut rng, 12)),
            ]
        })
        .collect();
    mix(
        "CREATE TABLE events (ts INTEGER, kind TEXT, payload TEXT);",
        "events",
        400,
        move |i| rows[i as usize - 1].clone(),
    )
}

fn metrics() -> Built {
    let mut rng = Lcg(13);
    let rows: Vec<Vec<Value>> = (1..=400)
        .map(|i| {
            vec![
                Value::Real(i as f64 / 8.0 + 0.001),
                Value::Text(words(&mut rng, 10)),
                Value::Integer(i * 1000),
            ]
        })
        .collect();
    mix(
        "CREATE TABLE metrics (score REAL, label TEXT, n INTEGER);",
        "metrics",
        400,
        move |i| rows[i as usize - 1].clone(),
    )
}

fn notes() -> Built {
    let mut rng = Lcg(17);
    let rows: Vec<Vec<Value>> = (1..=400)
        .map(|i| {
            vec![
                Value::Integer(i),
                Value::Text(format!("note {i}")),
                Value::Text(words(&mut rng, 20)),
                Value::Integer(1_790_000_000_000 + i * 60_000),
            ]
        })
        .collect();
    mix(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created INTEGER);",
        "notes",
        400,
        move |i| rows[i as usize - 1].clone(),
    )
}

fn blobs() -> Built {
    let mut rng = Lcg(19);
    let rows: Vec<Vec<Value>> = (1..=300)
        .map(|i| {
            let n = 8 + rng.next(60) as usize;
            vec![
                Value::Blob(
                    (0..n)
                        .map(|k| (k as u8).wrapping_mul(31) ^ i as u8)
                        .collect(),
                ),
                Value::Text(format!("blob-{i}")),
            ]
        })
        .collect();
    mix(
        "CREATE TABLE blobs (data BLOB, name TEXT);",
        "blobs",
        300,
        move |i| rows[i as usize - 1].clone(),
    )
}

/// 140 columns: the record header takes two bytes for its length.
fn wide() -> Built {
    let cols: Vec<String> = (0..140)
        .map(|c| format!("c{c} {}", if c % 3 == 0 { "INTEGER" } else { "TEXT" }))
        .collect();
    let schema = format!("CREATE TABLE wide ({});", cols.join(", "));
    mix(&schema, "wide", 120, |i| {
        (0..140)
            .map(|c| {
                if c % 3 == 0 {
                    Value::Integer(i * 1000 + c)
                } else {
                    Value::Text(format!("r{i}c{c}"))
                }
            })
            .collect()
    })
}

fn without_rowid() -> Built {
    let mut rng = Lcg(23);
    let rows: Vec<Vec<Value>> = (1..=300)
        .map(|i| {
            vec![
                Value::Text(format!("key.{i:04}")),
                Value::Text(words(&mut rng, 10)),
            ]
        })
        .collect();
    build(false, |conn| {
        conn.execute_batch("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;")
            .unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        for r in &rows {
            tx.execute("INSERT INTO kv VALUES (?1, ?2)", params![r[0], r[1]])
                .unwrap();
        }
        tx.commit().unwrap();
        let doomed: Vec<String> = (1..=300)
            .filter(|i| i % 5 == 3)
            .map(|i| format!("'key.{i:04}'"))
            .collect();
        delete(conn, "kv", &format!("k IN ({})", doomed.join(",")))
    })
}

/// A `WITHOUT ROWID` table with a composite key declared after its columns, so that
/// the record order (b, a, c) differs from the table order (a, b, c): `b` a fixed-format
/// user name, `a` an integer of one to three bytes, `c` a blob of 8 to 120 bytes. Every
/// 5th row deleted; with `wal`, the rows are checkpointed and the delete (and, with
/// `range`, a run of 100 rows whose leaf pages go to the freelist) stays in the WAL.
fn without_rowid_composite(wal: bool, range: bool) -> Built {
    let mut rng = Lcg(43);
    let rows: Vec<Vec<Value>> = (1..=400i64)
        .map(|i| {
            let n = 8 + rng.next(112) as usize;
            vec![
                Value::Integer(i * 997 % 70_000 + 2),
                Value::Text(format!("user-{:04}", (i * 7919) % 10_000)),
                Value::Blob(
                    (0..n)
                        .map(|k| (k as u8).wrapping_mul(13) ^ i as u8)
                        .collect(),
                ),
            ]
        })
        .collect();
    let mut built = build(wal, |conn| {
        conn.execute_batch(
            "CREATE TABLE grants (a INTEGER, b TEXT, c BLOB, PRIMARY KEY(b, a)) WITHOUT ROWID;",
        )
        .unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        for r in &rows {
            tx.execute(
                "INSERT INTO grants VALUES (?1, ?2, ?3)",
                params![r[0], r[1], r[2]],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        if wal {
            conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
                .unwrap();
        }
        let mut filter = "a % 5 = 3".to_string();
        if range {
            filter.push_str(" OR b BETWEEN 'user-3000' AND 'user-5500'");
        }
        delete(conn, "grants", &filter)
    });
    built.record_order = Some(vec![1, 0, 2]);
    built
}

/// `kv` in WAL mode: filled and checkpointed, then every 5th key and the run
/// key.0100-0199 deleted in the WAL (the run's leaf pages go to the freelist).
fn without_rowid_wal() -> Built {
    let mut rng = Lcg(47);
    let rows: Vec<Vec<Value>> = (1..=300)
        .map(|i| {
            vec![
                Value::Text(format!("key.{i:04}")),
                Value::Text(words(&mut rng, 10)),
            ]
        })
        .collect();
    build(true, |conn| {
        conn.execute_batch("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;")
            .unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        for r in &rows {
            tx.execute("INSERT INTO kv VALUES (?1, ?2)", params![r[0], r[1]])
                .unwrap();
        }
        tx.commit().unwrap();
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
        delete(
            conn,
            "kv",
            "substr(k, 5) % 5 = 3 OR k BETWEEN 'key.0100' AND 'key.0199'",
        )
    })
}

/// Rows deleted, then new shorter rows inserted: SQLite takes each new cell from the
/// end of a freeblock, so a deleted record keeps its head and loses its tail.
fn overwritten() -> Built {
    build(false, |conn| {
        conn.execute_batch(
            "CREATE TABLE chats (id INTEGER PRIMARY KEY, title TEXT, body TEXT, model TEXT);",
        )
        .unwrap();
        let mut rng = Lcg(29);
        let tx = conn.unchecked_transaction().unwrap();
        for i in 1..=200 {
            tx.execute(
                "INSERT INTO chats VALUES (?1, ?2, ?3, ?4)",
                params![
                    i,
                    format!("chat title {i}"),
                    words(&mut rng, 25),
                    "model-x".to_string()
                ],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        let truth = delete(conn, "chats", "id % 4 = 1");
        // new rows take the deleted rowids: each lands in the page its old row was in,
        // and takes its cell from the end of the first freeblock large enough
        for i in (1..=120).filter(|i| i % 4 == 1) {
            conn.execute(
                "INSERT INTO chats VALUES (?1, ?2, ?3, NULL)",
                params![i, format!("n{i}"), words(&mut rng, 3)],
            )
            .unwrap();
        }
        truth
    })
}

// ---------------------------------------------------------------------------------
// The scenarios.

#[test]
fn itemtable_example_of_the_issue() {
    // One ItemTable row deleted and checkpointed: its cell begins `00 00 00 4A` (the
    // freeblock link: no next freeblock, 74 bytes), then the value's serial type, the
    // key and the value.
    let built = build(true, |conn| {
        conn.execute_batch(
            "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
        )
        .unwrap();
        for (k, v) in [
            ("workbench.view.explorer", "{\"visible\":true}"),
            (
                "chat.history.session",
                "{\"prompt\":\"fix the freeblock parser\",\"turn\":1234}",
            ),
            ("terminal.history", "[\"cargo test\"]"),
        ] {
            conn.execute("INSERT INTO ItemTable VALUES (?1, ?2)", params![k, v])
                .unwrap();
        }
        let gone = delete(conn, "ItemTable", "key = 'chat.history.session'");
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
        gone
    });
    let key = b"chat.history.session";
    let at = built
        .main
        .windows(key.len())
        .position(|w| w == key)
        .unwrap();
    // link (4 bytes: no next freeblock, 74 bytes), then the value's serial type (49
    // bytes of text: 2 * 49 + 13 = 111): the payload length, rowid, header length and
    // the key's serial type are lost
    assert_eq!(&built.main[at - 5..at], &[0, 0, 0, 0x4a, 111]);
    let db = Database::from_bytes(&built.main, built.wal.as_deref()).unwrap();
    let recs = db.deleted_records("ItemTable");
    assert_eq!(recs.len(), 1);
    assert_eq!(
        recs[0].values,
        vec![
            Value::Text("chat.history.session".into()),
            Value::Text("{\"prompt\":\"fix the freeblock parser\",\"turn\":1234}".into())
        ]
    );
    assert!(recs[0].missing.is_empty());
    assert_eq!(recs[0].reach, Reach::Deleted);
    assert_eq!(
        recs[0].location,
        format!("freeblock at page 2 offset {}", at - 5 - 4096)
    );
    assert_eq!(recs[0].location, "freeblock at page 2 offset 3978");
}

#[test]
fn deleted_in_live_pages_itemtable() {
    let s = score("itemtable", &itemtable(400, 5, false), "ItemTable", None);
    assert_eq!(s, sc(80, 70, 70, 1, 0));
}

#[test]
fn deleted_in_live_pages_integer_first() {
    let s = score("events", &events(), "events", None);
    assert_eq!(s, sc(80, 64, 64, 3, 0));
}

#[test]
fn deleted_in_live_pages_real_first() {
    let s = score("metrics", &metrics(), "metrics", None);
    assert_eq!(s, sc(80, 80, 80, 0, 0));
}

#[test]
fn deleted_in_live_pages_rowid_alias() {
    let s = score("notes", &notes(), "notes", Some(0));
    assert_eq!(s, sc(80, 64, 64, 1, 0));
}

#[test]
fn deleted_in_live_pages_blob_first() {
    let s = score("blobs", &blobs(), "blobs", None);
    assert_eq!(s, sc(60, 60, 60, 0, 0));
}

#[test]
fn deleted_in_live_pages_many_columns() {
    let s = score("wide", &wide(), "wide", None);
    assert_eq!(s, sc(24, 24, 24, 0, 0));
}

#[test]
fn deleted_in_live_pages_without_rowid() {
    // every serial type of a freed kv cell is lost with the freeblock link: the split
    // between key and value comes from the keys' fixed layout (`key.NNNN`)
    let s = score("kv", &without_rowid(), "kv", None);
    assert_eq!(s, sc(60, 60, 59, 0, 0));
}

#[test]
fn deleted_in_live_pages_without_rowid_composite_key() {
    let s = score(
        "grants",
        &without_rowid_composite(false, false),
        "grants",
        None,
    );
    assert_eq!(s, sc(80, 80, 76, 0, 0));
}

#[test]
fn without_rowid_older_versions_and_freelist() {
    // the delete in the WAL: the main file's pages hold every deleted row whole
    let s = score("kv_wal", &without_rowid_wal(), "kv", None);
    assert_eq!(s, sc(140, 140, 140, 0, 0));
    let built = without_rowid_composite(true, true);
    let s = score("grants_wal", &built, "grants", None);
    assert_eq!(s, sc(160, 160, 160, 0, 0));
    // rollback journal: the run's leaf pages went to the freelist
    let built = without_rowid_composite(false, true);
    let s = score("grants_freelist", &built, "grants", None);
    assert_eq!(s, sc(160, 110, 106, 0, 0));
    // (the page freed first became the freelist trunk: its old cells, after its page
    // list, are carved as whole records, each behind its payload-length varint)
    let db = Database::from_bytes(&built.main, None).unwrap();
    let on_freelist = db
        .deleted_records("grants")
        .iter()
        .filter(|r| r.location.starts_with("freelist trunk page 7 offset"))
        .count();
    assert_eq!(on_freelist, 32);
}

/// The paged mode on the WITHOUT ROWID databases whose deletes are in a WAL: older page
/// versions judged by their own cells (every one of these is an index page of the
/// table's), nothing invented.
#[test]
fn without_rowid_paged_mode_reads_older_versions() {
    use sqlite_evidence::paged::{PagedDatabase, ReadAt};
    for (name, built, table, want) in [
        (
            "kv_wal paged",
            without_rowid_wal(),
            "kv",
            sc(140, 140, 140, 0, 0),
        ),
        (
            "grants_wal paged",
            without_rowid_composite(true, true),
            "grants",
            sc(160, 160, 160, 0, 0),
        ),
        (
            "grants_freelist paged",
            without_rowid_composite(false, true),
            "grants",
            sc(160, 110, 106, 0, 0),
        ),
    ] {
        let paged = PagedDatabase::from_readers(
            Box::new(built.main.clone()),
            built.wal.clone().map(|w| Box::new(w) as Box<dyn ReadAt>),
        )
        .unwrap();
        let mut recs = Vec::new();
        paged.deleted_records(table, &mut |r| recs.push(r));
        let s = score_records(name, &built, &recs, None);
        eprintln!("{name}: {s:?}");
        assert_eq!(s, want, "{name}");
        assert!(recs.iter().all(|r| r.rowid.is_none()), "{name}");
    }
}

#[test]
fn deleted_then_partly_overwritten() {
    let built = overwritten();
    let s = score("overwritten", &built, "chats", Some(0));
    assert_eq!(s, sc(50, 30, 30, 6, 0));
    // each partial record: title whole, the body cut (its surviving start, checked
    // against the row by `score`, in `truncated`, its full length in `declared_len`)
    let db = Database::from_bytes(&built.main, None).unwrap();
    let cut: Vec<(String, usize, u64)> = db
        .deleted_records("chats")
        .into_iter()
        .filter(|r| !r.missing.is_empty())
        .map(|r| {
            let kept = match r.truncated {
                Some((2, Value::Text(t))) => t.len(),
                _ => 0,
            };
            (r.location, kept, r.declared_len.map_or(0, |d| d.1))
        })
        .collect();
    let at =
        |p: u32, o: u32| format!("freeblock at page {p} offset {o}, partial: columns 2-3 missing");
    // rows 65, 105, 149, 121, 185 and 177 (the README's account of the 20 not intact)
    assert_eq!(
        cut,
        vec![
            (at(4, 1445), 68, 106),
            (at(5, 1122), 4, 62),
            (at(6, 386), 2, 57),
            (at(6, 3561), 77, 97),
            (at(7, 522), 13, 51),
            (at(7, 1388), 28, 103),
        ]
    );
}

/// A table of chats filled, then dropped; a new table created after it reuses some of
/// its pages. `wal`: the table lives in the main file and the drop is in the WAL. The
/// dropped table was created before another, so its schema record lay inside page 1's
/// cell area and becomes a freeblock (the record created last lies at the start of the
/// cell area: freed, it merges into the gap, and the next schema record written over
/// it; its `CREATE` text is then gone in a rollback-journal file).
fn dropped(wal: bool) -> Built {
    build(wal, |conn| {
        conn.execute_batch(
            "CREATE TABLE old_chats (id INTEGER PRIMARY KEY, title TEXT, body TEXT, at INTEGER);
             CREATE TABLE keep (id INTEGER PRIMARY KEY, v TEXT);
             INSERT INTO keep VALUES (1, 'one');",
        )
        .unwrap();
        let mut rng = Lcg(31);
        let tx = conn.unchecked_transaction().unwrap();
        for i in 1..=300 {
            tx.execute(
                "INSERT INTO old_chats VALUES (?1, ?2, ?3, ?4)",
                params![
                    i,
                    format!("chat {i}"),
                    words(&mut rng, 12),
                    1_790_000_000 + i
                ],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        if wal {
            conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
                .unwrap();
        }
        let truth = rows(conn, "old_chats", "1");
        conn.execute_batch(
            "DROP TABLE old_chats;
             CREATE TABLE new_things (id INTEGER PRIMARY KEY, name TEXT, score REAL, \
             created_at TEXT, updated_at TEXT, owner TEXT, flags INTEGER);",
        )
        .unwrap();
        for i in 1..=150 {
            conn.execute(
                "INSERT INTO new_things VALUES (?1, ?2, ?3, NULL, NULL, 'me', 0)",
                params![i, format!("thing {i}"), i as f64 + 0.5],
            )
            .unwrap();
        }
        truth
    })
}

#[test]
fn dropped_table_rollback_journal() {
    let built = dropped(false);
    let s = score("dropped", &built, "old_chats", Some(0));
    assert_eq!(s, sc(300, 211, 211, 0, 0));
    let db = Database::from_bytes(&built.main, built.wal.as_deref()).unwrap();
    let d = db.dropped_tables();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].name, "old_chats");
    assert_eq!(
        d[0].sql,
        "CREATE TABLE old_chats (id INTEGER PRIMARY KEY, title TEXT, body TEXT, at)"
    );
    // its last 8 bytes (`INTEGER)`) were taken by the placeholder record SQLite writes
    // when the next table is created: the text is closed, the type of `at` lost
    assert!(!d[0].complete);
    assert_eq!(
        d[0].location,
        "freeblock at page 1 offset 3981, partial: column 4 missing"
    );
    // nothing of the dropped table is reported under the table that reused its pages
    assert_eq!(db.deleted_records("new_things"), vec![]);
}

#[test]
fn dropped_table_in_the_wal() {
    let built = dropped(true);
    let db = Database::from_bytes(&built.main, built.wal.as_deref()).unwrap();
    let names: Vec<&str> = db
        .dropped_tables()
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(names, ["old_chats"]);
    let s = score("dropped_wal", &built, "old_chats", Some(0));
    assert_eq!(s, sc(300, 300, 300, 0, 0));
    let recs = db.deleted_records("new_things");
    for r in &recs {
        eprintln!("new_things: {} {:?}", r.location, r.values);
    }
    assert_eq!(recs.len(), 0);
}

/// Grows the schema after the data: 40 more tables of 12 columns, whose `CREATE` texts
/// fill schema pages written after the data's pages (cut them off and SQLite cannot
/// read the schema).
fn grow_schema(conn: &Connection) {
    for t in 0..40 {
        conn.execute_batch(&format!(
            "CREATE TABLE extra_{t} (id INTEGER PRIMARY KEY, {});",
            (0..12)
                .map(|c| format!("column_number_{c} TEXT"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .unwrap();
    }
}

/// Notes in a file whose schema grew after the data (40 more tables), cut short: the
/// last schema pages are gone, SQLite cannot read the schema, the notes' pages survive.
fn truncated() -> Built {
    build(false, |conn| {
        conn.execute_batch(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created INTEGER);",
        )
        .unwrap();
        let mut rng = Lcg(37);
        let tx = conn.unchecked_transaction().unwrap();
        for i in 1..=300 {
            tx.execute(
                "INSERT INTO notes VALUES (?1, ?2, ?3, ?4)",
                params![
                    i,
                    format!("note {i}"),
                    words(&mut rng, 15),
                    1_790_000_000_000i64 + i64::from(i)
                ],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        grow_schema(conn);
        rows(conn, "notes", "1")
    })
}

#[test]
fn truncated_file_with_an_incomplete_schema() {
    let mut built = truncated();
    let full = built.main.len();
    // cut the file after the notes' pages: the schema pages written last are gone
    built.main.truncate(full - 30 * 4096);
    let db = Database::from_bytes(&built.main, None).unwrap();
    assert!(!db.schema_readable());
    let kinds: Vec<_> = db.problems().iter().map(|p| p.kind).collect();
    eprintln!("{:?}", db.problems());
    assert!(kinds.contains(&sqlite_evidence::ProblemKind::Schema));
    let notes = db
        .schema_entries()
        .into_iter()
        .find(|e| e.name == "notes")
        .unwrap();
    assert!(notes.sql.starts_with("CREATE TABLE notes"));
    let recs = db.deleted_records("notes");
    assert!(recs.iter().all(|r| r.reach == Reach::Unreachable));
    let s = score_records("truncated", &built, &recs, Some(0));
    eprintln!("truncated: {s:?}");
    assert_eq!(s, sc(300, 300, 300, 0, 0));
}

/// `notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)` with 200 rows, in
/// one transaction, rollback journal: the live table the anti-forensic cases damage.
fn notes_200() -> Built {
    build(false, |conn| {
        conn.execute_batch(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);",
        )
        .unwrap();
        let mut rng = Lcg(41);
        let tx = conn.unchecked_transaction().unwrap();
        for i in 1..=200 {
            tx.execute(
                "INSERT INTO notes VALUES (?1, ?2, ?3)",
                params![i, format!("note {i}"), words(&mut rng, 10)],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        Vec::new()
    })
}

/// Page 3 of [`notes_200`], a leaf (page 2 is the interior root): its cell count lowered
/// by two (its last two cells unnamed) and its first cell pointer aimed at the second's
/// cell.
fn tamper_leaf(main: &mut [u8]) {
    let page = 2 * 4096;
    assert_eq!(main[page], 0x0d);
    let n = u16::from_be_bytes([main[page + 3], main[page + 4]]);
    main[page + 3..page + 5].copy_from_slice(&(n - 2).to_be_bytes());
    let (p0, p1) = (page + 8, page + 10);
    let second = [main[p1], main[p1 + 1]];
    main[p0..p0 + 2].copy_from_slice(&second);
}

/// Anti-forensic damage to a live table: a leaf's cell count lowered by two (its last
/// two cells unnamed), one cell pointer aimed at its neighbour's cell.
#[test]
fn tampered_cell_pointers_leave_unreachable_records() {
    let mut built = notes_200();
    let before = {
        let db = Database::from_bytes(&built.main, None).unwrap();
        rows(db.connection(), "notes", "1")
    };
    tamper_leaf(&mut built.main);
    let db = Database::from_bytes(&built.main, None).unwrap();
    let after = rows(db.connection(), "notes", "1");
    built.truth = before.into_iter().filter(|r| !after.contains(r)).collect();
    let recs = db.deleted_records("notes");
    assert!(recs.iter().all(|r| r.reach == Reach::Unreachable));
    for r in &recs {
        assert!(r.location.contains("unreachable"), "{}", r.location);
    }
    let s = score_records("tampered", &built, &recs, Some(0));
    eprintln!("tampered: {s:?}");
    assert_eq!(s, sc(3, 3, 3, 0, 0));
}

/// The paged mode (pages read on demand, records handed on as found) finds what the
/// in-memory mode finds in the current image, and walks the same live rows.
#[test]
fn paged_mode_agrees_with_the_in_memory_image() {
    use sqlite_evidence::paged::PagedDatabase;
    for (name, built, table) in [
        ("itemtable", itemtable(400, 5, false), "ItemTable"),
        ("events", events(), "events"),
        ("notes", notes(), "notes"),
        ("overwritten", overwritten(), "chats"),
        ("itemtable_wal", itemtable(300, 4, true), "ItemTable"),
        ("kv", without_rowid(), "kv"),
        ("grants", without_rowid_composite(false, true), "grants"),
    ] {
        let db = Database::from_bytes(&built.main, built.wal.as_deref()).unwrap();
        // (a partial record's cut value, if any, as one more value: the same in both)
        let with_cut = |r: RecoveredRecord| {
            let mut v = r.values;
            v.push(r.truncated.map(|t| t.1).unwrap_or(Value::Null));
            (r.location, v)
        };
        let mut want: Vec<(String, Vec<Value>)> = db
            .deleted_records(table)
            .into_iter()
            .map(with_cut)
            .collect();
        let paged = PagedDatabase::from_readers(
            Box::new(built.main.clone()),
            built
                .wal
                .clone()
                .map(|w| Box::new(w) as Box<dyn sqlite_evidence::paged::ReadAt>),
        )
        .unwrap();
        let mut got = Vec::new();
        let n = paged.deleted_records(table, &mut |r| got.push(with_cut(r)));
        assert_eq!(n, got.len());
        // the same records; where a record has two copies (an interior page's stale
        // leaf content and a freeblock) the walk order decides which location is kept
        let values = |v: &mut Vec<(String, Vec<Value>)>| {
            // (the rowid alias left out: one copy may have kept its rowid, the other not)
            let skip = usize::from(matches!(table, "notes" | "chats"));
            let mut out: Vec<String> = v.iter().map(|(_, v)| format!("{:?}", &v[skip..])).collect();
            out.sort();
            out
        };
        assert!(
            values(&mut got) == values(&mut want),
            "{name}: {} vs {}",
            got.len(),
            want.len()
        );
        assert!(!got.is_empty(), "{name}");
        let live: i64 = db
            .connection()
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap();
        let mut walked = Vec::new();
        paged.live_records(table, &mut |_, v| walked.push(v));
        assert_eq!(walked.len() as i64, live, "{name}");
        let first = rows(db.connection(), table, "1");
        if matches!(table, "kv" | "grants") {
            // an index b-tree's interior pages hold rows too: the walk meets them
            // before their children's; the same rows, in table order
            let text = |v: &Vec<Vec<Value>>| {
                let mut t: Vec<String> = v.iter().map(|r| format!("{r:?}")).collect();
                t.sort();
                t
            };
            assert_eq!(text(&walked), text(&first), "{name}");
        } else {
            assert_eq!(walked[0], first[0], "{name}");
        }
    }
}

/// The paged mode finds what the in-memory mode finds beyond a live table's free space:
/// dropped tables (their `CREATE TABLE` text and their records, in rollback-journal and
/// WAL mode), a schema SQLite cannot read (a truncated file), and live records no cell
/// pointer or no b-tree reaches (tampered cell pointers, a leaf cut out of its tree).
#[test]
fn paged_mode_recovers_dropped_orphaned_and_unreadable_tables() {
    use sqlite_evidence::paged::{PagedDatabase, ReadAt};
    let paged = |b: &Built| {
        PagedDatabase::from_readers(
            Box::new(b.main.clone()),
            b.wal.clone().map(|w| Box::new(w) as Box<dyn ReadAt>),
        )
        .unwrap()
    };
    let records = |p: &PagedDatabase, t: &str| {
        let mut v = Vec::new();
        let n = p.deleted_records(t, &mut |r| v.push(r));
        assert_eq!(n, v.len());
        v
    };
    // the records' values and reach, sorted (the rowid alias left out: one copy may
    // have kept its rowid, another not; the place may differ, see the README)
    let values = |recs: &[RecoveredRecord]| {
        let mut v: Vec<String> = recs
            .iter()
            .map(|r| format!("{:?} {:?} {:?}", &r.values[1..], r.missing, r.reach))
            .collect();
        v.sort();
        v
    };

    // dropped tables: the same text found, the same records, nothing under the table
    // that took the pages
    for (wal, want) in [
        (false, sc(300, 211, 211, 0, 0)),
        (true, sc(300, 300, 300, 0, 0)),
    ] {
        let built = dropped(wal);
        let db = Database::from_bytes(&built.main, built.wal.as_deref()).unwrap();
        let p = paged(&built);
        assert!(p.schema_readable());
        let names: Vec<&str> = p.dropped_tables().iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["old_chats"], "wal {wal}");
        let (d, m) = (&p.dropped_tables()[0], &db.dropped_tables()[0]);
        assert_eq!(
            (&d.sql, d.rootpage, d.complete),
            (&m.sql, m.rootpage, m.complete)
        );
        let got = records(&p, "old_chats");
        let s = score_records("paged dropped", &built, &got, Some(0));
        assert_eq!(s, want, "wal {wal}");
        assert_eq!(
            values(&got),
            values(&db.deleted_records("old_chats")),
            "wal {wal}"
        );
        assert_eq!(records(&p, "new_things"), vec![], "wal {wal}");
        assert_eq!(records(&p, "keep"), vec![], "wal {wal}");
        if !wal {
            assert_eq!(d.location, m.location);
        }
    }

    // a truncated file: the schema unreadable, read by hand, every row unreachable
    let mut built = truncated();
    let full = built.main.len();
    built.main.truncate(full - 30 * 4096);
    let db = Database::from_bytes(&built.main, None).unwrap();
    let p = paged(&built);
    assert!(!p.schema_readable());
    let notes = p
        .schema_entries()
        .into_iter()
        .find(|e| e.name == "notes")
        .unwrap();
    assert!(notes.sql.starts_with("CREATE TABLE notes"));
    assert_eq!(
        p.schema_entries().len(),
        db.schema_entries().len(),
        "the same schema records read by hand"
    );
    let got = records(&p, "notes");
    assert!(got.iter().all(|r| r.reach == Reach::Unreachable));
    assert!(got.iter().all(|r| r.location.contains("unreachable")));
    let s = score_records("paged truncated", &built, &got, Some(0));
    assert_eq!(s, sc(300, 300, 300, 0, 0));
    assert_eq!(values(&got), values(&db.deleted_records("notes")));
    // a whole file's schema is readable
    let whole = truncated();
    assert!(paged(&whole).schema_readable());

    // tampered: a leaf's cell count lowered by two and a pointer aimed at its
    // neighbour's cell; then a leaf cut out of its tree (its parent's pointer aimed at
    // its sibling): live records no pointer, and no b-tree, reaches
    let mut built = notes_200();
    let before = {
        let db = Database::from_bytes(&built.main, None).unwrap();
        rows(db.connection(), "notes", "1")
    };
    tamper_leaf(&mut built.main);
    let check = |built: &Built, want: Score| {
        let db = Database::from_bytes(&built.main, None).unwrap();
        let p = paged(built);
        assert!(p.schema_readable());
        let got = records(&p, "notes");
        assert!(got.iter().all(|r| r.reach == Reach::Unreachable));
        assert_eq!(values(&got), values(&db.deleted_records("notes")));
        let s = score_records("paged tampered", built, &got, Some(0));
        assert_eq!(s, want);
    };
    let truth = |built: &Built| {
        let db = Database::from_bytes(&built.main, None).unwrap();
        let after = rows(db.connection(), "notes", "1");
        before
            .iter()
            .filter(|r| !after.contains(r))
            .cloned()
            .collect::<Vec<_>>()
    };
    built.truth = truth(&built);
    check(&built, sc(3, 3, 3, 0, 0));
    // the root (page 2, interior): its right-most child pointer aimed at the child
    // before it (the last leaf's rows have no stale copy in the root's free space,
    // which holds the first leaf's from before the root split)
    let root = 4096;
    assert_eq!(built.main[root], 0x05);
    let cells = u16::from_be_bytes([built.main[root + 3], built.main[root + 4]]) as usize;
    let at = root + 12 + 2 * (cells - 1);
    let last = u16::from_be_bytes([built.main[at], built.main[at + 1]]) as usize;
    let child = [
        built.main[root + last],
        built.main[root + last + 1],
        built.main[root + last + 2],
        built.main[root + last + 3],
    ];
    built.main[root + 8..root + 12].copy_from_slice(&child);
    built.truth = truth(&built);
    check(&built, sc(ORPHANED, ORPHANED, ORPHANED, 0, 0));
}

/// The rows SQLite no longer reaches once the last leaf is cut out of its tree: its
/// 22 and the 3 of the tampered leaf.
const ORPHANED: usize = 25;

/// Values that spill onto overflow pages, deleted; then new large values reuse the freed
/// overflow pages. A deleted record whose chain now runs through pages of the new
/// values must not come back stitched from them.
fn overflow_reused(reuse: bool) -> Built {
    build(false, |conn| {
        conn.execute_batch(
            "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
        )
        .unwrap();
        let big = |i: i64, tag: &str| {
            format!(
                "{{\"chat\":{i},\"turns\":[{}]}}",
                (0..220)
                    .map(|k| format!("\"{tag} turn {k} of chat {i}\""))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        };
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..30 {
            tx.execute(
                "INSERT INTO ItemTable VALUES (?1, ?2)",
                params![format!("chat.{i}"), big(i, "old")],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        let truth = delete(conn, "ItemTable", "rowid % 3 = 1");
        if reuse {
            for i in 100..106 {
                conn.execute(
                    "INSERT INTO ItemTable VALUES (?1, ?2)",
                    params![format!("c{i}"), big(i, "new")],
                )
                .unwrap();
            }
        }
        truth
    })
}

#[test]
fn deleted_overflow_chains() {
    let s = score("overflow", &overflow_reused(false), "ItemTable", None);
    // chat.0's chain begins on the page that became the freelist trunk: partial
    assert_eq!(s, sc(10, 10, 9, 1, 0));
    // the chains of some deleted values now run through the new values' pages: those
    // records are not returned (no record stitched from two values)
    let built = overflow_reused(true);
    let s = score("overflow_reused", &built, "ItemTable", None);
    // they come back partial: the key, and the value's start from the local part
    assert_eq!(s, sc(10, 10, 0, 7, 0));
    let db = Database::from_bytes(&built.main, None).unwrap();
    let recs = db.deleted_records("ItemTable");
    let r = recs.iter().find(|r| !r.missing.is_empty()).unwrap();
    assert_eq!(r.missing, [1]);
    assert!(r.location.ends_with(", partial: column 1 missing"));
    match &r.truncated {
        Some((1, Value::Text(t))) => assert!(t.starts_with("{\"chat\":") && t.len() > 900),
        other => panic!("{other:?}"),
    }
    // the value's full size, as its serial type declared it
    let Value::Text(key) = &r.values[0] else {
        panic!("{:?}", r.values[0]);
    };
    let i: i64 = key.trim_start_matches("chat.").parse().unwrap();
    let full = format!(
        "{{\"chat\":{i},\"turns\":[{}]}}",
        (0..220)
            .map(|k| format!("\"old turn {k} of chat {i}\""))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_eq!(r.declared_len, Some((1, full.len() as u64)));
    for r in &recs {
        assert_eq!(
            r.declared_len.is_some(),
            !r.missing.is_empty(),
            "{}",
            r.location
        );
    }
}

/// 200 texts of 100 random hex digits: no run of a few bytes of one is found in
/// another, so that what survives of each deleted row can be told apart in the file.
fn hex_texts(seed: u64) -> Vec<String> {
    let mut rng = Lcg(seed);
    (0..200)
        .map(|_| {
            (0..100)
                .map(|_| char::from_digit(rng.next(16) as u32, 16).unwrap())
                .collect()
        })
        .collect()
}

/// Inserts `row(i)` for `i` from `from` while the table `msgs` stays on its single leaf
/// page (page 2): an insert that would split it is rolled back (a savepoint). Returns
/// the next `i`.
fn fill_one_page(conn: &Connection, from: i64, row: &dyn Fn(i64) -> (String, String)) -> i64 {
    let mut i = from;
    loop {
        conn.execute_batch("SAVEPOINT f").unwrap();
        let (who, body) = row(i);
        conn.execute(
            "INSERT INTO msgs VALUES (?1, ?2, ?3)",
            params![i, who, body],
        )
        .unwrap();
        let pages: i64 = conn
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .unwrap();
        if pages > 2 {
            conn.execute_batch("ROLLBACK TO f; RELEASE f").unwrap();
            return i;
        }
        conn.execute_batch("RELEASE f").unwrap();
        i += 1;
    }
}

/// One leaf page of `msgs (id INTEGER PRIMARY KEY, who TEXT, body TEXT)` filled to its
/// last bytes (70-byte messages, then shorter ones into what is left), its last
/// `deleted` rows deleted from the newest down (each cell then lies at the start of the
/// cell content area: freed, it joins the unallocated gap whole, no freeblock link
/// written), then `small` one-byte rows inserted: each takes 2 bytes at the gap's
/// bottom for its cell pointer (the growing cell pointer array runs over the deleted
/// cells nearest it, head first) and its 8-byte cell from the gap's top (the deleted
/// cells nearest it lose their tails, then whole cells).
fn pointer_array_growth(deleted: i64, small: i64) -> Built {
    build(false, |conn| {
        conn.execute_batch("CREATE TABLE msgs (id INTEGER PRIMARY KEY, who TEXT, body TEXT);")
            .unwrap();
        let text = hex_texts(41);
        let mut next = 1;
        for len in [70usize, 40, 20, 10, 0] {
            let row = |i: i64| {
                let mut t = text[i as usize % 200].clone();
                t.truncate(len);
                (format!("user-{i:03}"), t)
            };
            next = fill_one_page(conn, next, &row);
        }
        let last = next - 1;
        let truth = rows(
            conn,
            "msgs",
            &format!("id > {} ORDER BY id", last - deleted),
        );
        for id in (last - deleted + 1..=last).rev() {
            conn.execute("DELETE FROM msgs WHERE id = ?1", [id])
                .unwrap();
        }
        for i in 0..small {
            conn.execute("INSERT INTO msgs VALUES (?1, 's', NULL)", [1000 + i])
                .unwrap();
        }
        truth
    })
}

/// One leaf page of `msgs` filled, every third row and the newest deleted (each freed
/// cell inside the cell content area becomes a freeblock: its first four bytes the link), then one
/// row of about 50 bytes for each, inserted in turn: SQLite takes each new cell from the
/// end of the first freeblock (in page order) large enough, so a freed cell keeps its
/// head and loses its tail (a freeblock left with fewer than 4 bytes becomes a
/// fragment).
fn freeblock_ends() -> Built {
    build(false, |conn| {
        conn.execute_batch("CREATE TABLE msgs (id INTEGER PRIMARY KEY, who TEXT, body TEXT);")
            .unwrap();
        let text = hex_texts(43);
        let row = |i: i64| {
            let mut t = text[i as usize % 200].clone();
            t.truncate(40 + (i as usize * 7) % 50);
            (format!("user-{i:03}"), t)
        };
        let next = fill_one_page(conn, 1, &row);
        // (the newest row too: its cell, at the start of the content area, joins the
        // gap, which then has room for the new cells' pointers; with no room SQLite
        // would defragment the page instead of using its freeblocks)
        let truth = delete(conn, "msgs", &format!("id % 3 = 0 OR id = {}", next - 1));
        // new cells of about 50 bytes (the freed ones are 56 to 102): one per freeblock
        for (k, _) in truth.iter().enumerate() {
            conn.execute(
                "INSERT INTO msgs VALUES (?1, ?2, ?3)",
                params![2000 + k as i64, format!("new-{k:02}"), &text[199 - k][..36]],
            )
            .unwrap();
        }
        truth
    })
}

#[test]
fn cell_pointer_array_grows_over_old_cells() {
    let built = pointer_array_growth(12, 30);
    let s = score("pointer_array", &built, "msgs", Some(0));
    // 40-46 whole in the gap; 39 its head at the gap's top (the title, the body cut);
    // 47 a tail without header (the pointer array took its first 8 bytes); 37, 38 and
    // 48 gone (README, "What survives of a deleted record")
    assert_eq!(s, sc(12, 7, 7, 1, 0));
}

#[test]
fn new_cells_take_the_ends_of_freeblocks() {
    let built = freeblock_ends();
    let s = score("freeblock_ends", &built, "msgs", Some(0));
    // 11 heads returned partial (the title, the body cut); 3 and 50 whole
    assert_eq!(s, sc(17, 2, 2, 11, 0));
}

/// A `WITHOUT ROWID` table (`old_grants`, key declared last) filled, then dropped; a new
/// table created after it (its schema record longer than the dropped one's, so that it
/// does not take the freed record's place) reuses some of its pages. `wal`: the drop is
/// in the WAL.
fn dropped_without_rowid(wal: bool) -> Built {
    let mut built = build(wal, |conn| {
        conn.execute_batch(
            "CREATE TABLE old_grants (a INTEGER, b TEXT, c BLOB, PRIMARY KEY(b, a)) WITHOUT ROWID;
             CREATE TABLE keep (id INTEGER PRIMARY KEY, v TEXT);
             INSERT INTO keep VALUES (1, 'one');",
        )
        .unwrap();
        let text = hex_texts(47);
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..300i64 {
            // scattered key order, so that leaves split and interior pages hold rows
            let k = (i * 7919) % 300;
            tx.execute(
                "INSERT INTO old_grants VALUES (?1, ?2, ?3)",
                params![
                    k,
                    format!("grant-{k:03}"),
                    &text[k as usize % 200].as_bytes()[..20 + (k as usize % 30)]
                ],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        if wal {
            conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
                .unwrap();
        }
        let truth = rows(conn, "old_grants", "1");
        conn.execute_batch(
            "DROP TABLE old_grants;
             CREATE TABLE new_things (id INTEGER PRIMARY KEY, name TEXT, score REAL, \
             created_at TEXT, updated_at TEXT, owner TEXT, flags INTEGER, note TEXT);",
        )
        .unwrap();
        for i in 1..=100 {
            conn.execute(
                "INSERT INTO new_things VALUES (?1, ?2, ?3, NULL, NULL, 'me', 0, NULL)",
                params![i, format!("thing {i}"), i as f64 + 0.5],
            )
            .unwrap();
        }
        truth
    });
    // records are stored key first: b, a, then c
    built.record_order = Some(vec![1, 0, 2]);
    built
}

#[test]
fn dropped_without_rowid_table_in_both_modes() {
    use sqlite_evidence::paged::{PagedDatabase, ReadAt};
    for (wal, want) in [
        (false, sc(300, 297, 297, 0, 0)),
        (true, sc(300, 300, 300, 0, 0)),
    ] {
        let built = dropped_without_rowid(wal);
        let db = Database::from_bytes(&built.main, built.wal.as_deref()).unwrap();
        let d = db.dropped_tables();
        assert_eq!(d.len(), 1, "wal {wal}");
        assert_eq!(d[0].name, "old_grants");
        // rollback journal: the next CREATE's 8-byte placeholder took the text's end
        // (`UT ROWID`); the column list is closed, so only `WITHOUT ROWID` can follow
        // the `WITHO` that survives
        assert_eq!(
            d[0].sql,
            "CREATE TABLE old_grants (a INTEGER, b TEXT, c BLOB, PRIMARY KEY(b, a)) WITHOUT ROWID"
        );
        assert_eq!(d[0].complete, wal, "wal {wal}");
        let name = if wal { "dropped_wr_wal" } else { "dropped_wr" };
        let s = score(name, &built, "old_grants", None);
        assert_eq!(s, want, "wal {wal}");
        let mem = db.deleted_records("old_grants");
        assert!(mem.iter().all(|r| r.rowid.is_none()));
        // nothing of it under the table that took its pages
        assert_eq!(db.deleted_records("new_things"), vec![], "wal {wal}");
        // the paged mode: the same text, the same records (in table order)
        let p = PagedDatabase::from_readers(
            Box::new(built.main.clone()),
            built.wal.clone().map(|w| Box::new(w) as Box<dyn ReadAt>),
        )
        .unwrap();
        let pd = p.dropped_tables();
        assert_eq!(
            (pd.len(), &pd[0].sql, pd[0].complete),
            (1, &d[0].sql, d[0].complete),
            "wal {wal}"
        );
        let mut got = Vec::new();
        p.deleted_records("old_grants", &mut |r| got.push(r));
        let ps = score_records(&format!("{name} paged"), &built, &got, None);
        assert_eq!(ps, want, "wal {wal} paged");
        let sorted = |v: &[RecoveredRecord]| {
            let mut t: Vec<String> = v.iter().map(|r| format!("{:?}", r.values)).collect();
            t.sort();
            t
        };
        assert_eq!(sorted(&got), sorted(&mem), "wal {wal}");
        let mut other = Vec::new();
        p.deleted_records("new_things", &mut |r| other.push(r));
        assert_eq!(other, vec![], "wal {wal} paged");
    }
}

/// `WITHOUT ROWID` values that spill: `docs (k TEXT PRIMARY KEY, v TEXT)` with values
/// of 3-6 KB (an index cell keeps at most 1,002 bytes of a 4,096-byte page locally),
/// every 3rd of 30 deleted: each freed cell, inside its leaf, loses its payload length,
/// header length and the key's serial type to the freeblock link; its overflow pages go
/// to the freelist.
fn without_rowid_spilled() -> Built {
    let mut built = build(false, |conn| {
        conn.execute_batch("CREATE TABLE docs (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;")
            .unwrap();
        let text = hex_texts(53);
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..30usize {
            let v: String = (0..30 + i).map(|j| text[(i + j) % 200].as_str()).collect();
            tx.execute(
                "INSERT INTO docs VALUES (?1, ?2)",
                params![format!("doc/{i:02}"), v],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        let doomed: Vec<String> = (0..30)
            .filter(|i| i % 3 == 1)
            .map(|i| format!("'doc/{i:02}'"))
            .collect();
        delete(conn, "docs", &format!("k IN ({})", doomed.join(",")))
    });
    built.record_order = Some(vec![0, 1]);
    built
}

#[test]
fn without_rowid_spilled_cells_freed() {
    let built = without_rowid_spilled();
    let s = score("docs", &built, "docs", None);
    // 3 whole in the gap; 6 freed cells in freeblocks rebuilt through their chains (all
    // 489-byte local parts: the lost length follows from the key's layout, `doc/NN`,
    // that every live key shares); doc/01 partial (its key only: its chain fails the
    // check, a page of it no longer a free leaf ending it)
    assert_eq!(s, sc(10, 10, 9, 1, 0));
    // the paged mode: the same records
    use sqlite_evidence::paged::PagedDatabase;
    let p = PagedDatabase::from_readers(Box::new(built.main.clone()), None).unwrap();
    let mut got = Vec::new();
    p.deleted_records("docs", &mut |r| got.push(r));
    assert_eq!(
        score_records("docs paged", &built, &got, None),
        sc(10, 10, 9, 1, 0)
    );
}

/// The root of a `WITHOUT ROWID` table's b-tree (an interior index page, whose cells
/// hold records) with its cell count lowered by one: the last cell's record is live
/// bytes SQLite no longer reaches, and so is the leaf that cell's child pointer named.
#[test]
fn tampered_interior_index_page_leaves_unreachable_records() {
    use sqlite_evidence::paged::PagedDatabase;
    let mut built = without_rowid();
    let before = {
        let db = Database::from_bytes(&built.main, None).unwrap();
        rows(db.connection(), "kv", "1")
    };
    let root = 4096; // page 2, kv's root
    assert_eq!(built.main[root], 0x02);
    let n = u16::from_be_bytes([built.main[root + 3], built.main[root + 4]]);
    built.main[root + 3..root + 5].copy_from_slice(&(n - 1).to_be_bytes());
    let db = Database::from_bytes(&built.main, None).unwrap();
    let after = rows(db.connection(), "kv", "1");
    let lost: Vec<Vec<Value>> = before.into_iter().filter(|r| !after.contains(r)).collect();
    assert_eq!(lost.len(), 52);
    let recs = db.deleted_records("kv");
    // the interior cell's record, found in the root's cell area
    let interior: Vec<&RecoveredRecord> = recs
        .iter()
        .filter(|r| r.location.starts_with("cell area at page 2 "))
        .collect();
    assert_eq!(interior.len(), 1);
    assert_eq!(interior[0].reach, Reach::Unreachable);
    assert_eq!(
        interior[0].location,
        "cell area at page 2 offset 3932, unreachable: live record no cell pointer names"
    );
    assert_eq!(interior[0].values[0], Value::Text("key.0226".into()));
    // every record is a deleted row or a lost one; every lost row comes back as
    // unreachable (51 from the leaf no pointer reaches now, 1 from the root; until
    // 2026-12-01, 9 of the leaf's were given as deleted, from stale copies of them in
    // free space met before the leaf)
    let deleted = built.truth.len();
    built.truth.extend(lost);
    let s = score_records("tampered interior", &built, &recs, None);
    // (111: the 52 lost and the 59 of 60 deleted rows `deleted_in_live_pages_without_rowid`
    // finds)
    assert_eq!(s, sc(112, 112, 111, 0, 0));
    let unreachable = recs
        .iter()
        .filter(|r| r.reach == Reach::Unreachable)
        .count();
    assert_eq!((deleted, unreachable), (60, 52));
    // the paged mode: the same (its orphaned-page pass reads index leaves for a
    // WITHOUT ROWID table, before anything is carved, and carves the orphaned leaf's
    // free space primed by the live rows, as the in-memory mode does; until 2026-12-01
    // it found 101: the 10 deleted rows of the leaf's freeblocks were missed by an
    // unprimed carver)
    let p = PagedDatabase::from_readers(Box::new(built.main.clone()), None).unwrap();
    let mut got = Vec::new();
    p.deleted_records("kv", &mut |r| got.push(r));
    let ps = score_records("tampered interior paged", &built, &got, None);
    assert_eq!(ps, sc(112, 112, 111, 0, 0));
    let unreachable = got.iter().filter(|r| r.reach == Reach::Unreachable).count();
    assert_eq!(unreachable, 52);
    assert!(
        got.iter()
            .any(|r| r.location == interior[0].location && r.values == interior[0].values)
    );
    assert_eq!(ps.false_positives, 0);
}

/// A `WITHOUT ROWID` table (an index b-tree, whose interior cells hold records too) in a
/// file cut short after its pages, so that SQLite cannot read the schema: both modes
/// read every record by hand, interior cells included, as unreachable; none is taken
/// for the stale copies of it that page splits left in free space read before its own
/// page (the paged mode read 371 of the 400 and gave 25 as deleted copies; the
/// in-memory mode 311 and 89).
#[test]
fn unreadable_schema_without_rowid_in_both_modes() {
    use sqlite_evidence::paged::{PagedDatabase, ReadAt};
    let mut built = build(false, |conn| {
        conn.execute_batch("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;")
            .unwrap();
        let mut rng = Lcg(53);
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..400 {
            tx.execute(
                "INSERT INTO kv VALUES (?1, ?2)",
                params![format!("key {:05}", (i * 7919) % 400), words(&mut rng, 12)],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        grow_schema(conn);
        rows(conn, "kv", "1")
    });
    let full = built.main.len();
    built.main.truncate(full - 30 * 4096);
    // page 2 is the index root (interior, 5 cells), pages 3-8 its leaves
    let cells = |p: usize| {
        let at = (p - 1) * 4096;
        (
            built.main[at],
            u16::from_be_bytes([built.main[at + 3], built.main[at + 4]]),
        )
    };
    let tree: Vec<_> = (2..=8).map(cells).collect();
    assert_eq!(
        tree,
        [
            (0x02, 5),
            (0x0a, 72),
            (0x0a, 78),
            (0x0a, 60),
            (0x0a, 70),
            (0x0a, 66),
            (0x0a, 49)
        ]
    );
    let db = Database::from_bytes(&built.main, None).unwrap();
    assert!(!db.schema_readable());
    let p =
        PagedDatabase::from_readers(Box::new(built.main.clone()), None::<Box<dyn ReadAt>>).unwrap();
    assert!(!p.schema_readable());
    let mut paged = Vec::new();
    p.deleted_records("kv", &mut |r| paged.push(r));
    let memory = db.deleted_records("kv");
    let mut truth: Vec<Vec<Value>> = built.truth.clone();
    truth.sort_by_key(|r| format!("{r:?}"));
    for (mode, recs) in [("in-memory", &memory), ("paged", &paged)] {
        assert!(recs.iter().all(|r| r.reach == Reach::Unreachable), "{mode}");
        let mut got: Vec<Vec<Value>> = recs.iter().map(|r| r.values.clone()).collect();
        got.sort_by_key(|r| format!("{r:?}"));
        assert_eq!(got, truth, "{mode}: every row once");
    }
    // the paged mode names each record's page: the root's 5, then each leaf's cells
    let mut per_page: std::collections::BTreeMap<String, usize> = Default::default();
    for r in &paged {
        let page = r.location.split(' ').take(2).collect::<Vec<_>>().join(" ");
        *per_page.entry(page).or_default() += 1;
    }
    let want: Vec<(String, usize)> = [(2, 5), (3, 72), (4, 78), (5, 60), (6, 70), (7, 66), (8, 49)]
        .iter()
        .map(|&(p, n)| (format!("page {p}"), n))
        .collect();
    assert_eq!(per_page.into_iter().collect::<Vec<_>>(), want);
}

/// The first leaf of [`notes_200`] cut out of its tree (the root's first child pointer
/// aimed at the second leaf): its rows are live records SQLite cannot reach, and the
/// root's free space holds stale copies of them from before the root split. Both modes
/// give them as unreachable, not as deleted copies.
#[test]
fn an_orphaned_leaf_wins_over_its_stale_copies() {
    use sqlite_evidence::paged::{PagedDatabase, ReadAt};
    let mut built = notes_200();
    let before = {
        let db = Database::from_bytes(&built.main, None).unwrap();
        rows(db.connection(), "notes", "1")
    };
    let root = 4096;
    assert_eq!(built.main[root], 0x05);
    let ptr = |main: &[u8], c: usize| {
        u16::from_be_bytes([main[root + 12 + 2 * c], main[root + 13 + 2 * c]]) as usize
    };
    let (first, second) = (ptr(&built.main, 0), ptr(&built.main, 1));
    let child: [u8; 4] = built.main[root + second..root + second + 4]
        .try_into()
        .unwrap();
    built.main[root + first..root + first + 4].copy_from_slice(&child);
    let db = Database::from_bytes(&built.main, None).unwrap();
    let after = rows(db.connection(), "notes", "1");
    let mut cut: Vec<Vec<Value>> = before.into_iter().filter(|r| !after.contains(r)).collect();
    cut.sort_by_key(|r| format!("{r:?}"));
    assert_eq!(cut.len(), 90);
    let p =
        PagedDatabase::from_readers(Box::new(built.main.clone()), None::<Box<dyn ReadAt>>).unwrap();
    let mut paged = Vec::new();
    p.deleted_records("notes", &mut |r| paged.push(r));
    let memory = db.deleted_records("notes");
    for (mode, recs) in [("in-memory", &memory), ("paged", &paged)] {
        let mut got: Vec<Vec<Value>> = recs
            .iter()
            .filter(|r| r.reach == Reach::Unreachable)
            .map(|r| r.values.clone())
            .collect();
        got.sort_by_key(|r| format!("{r:?}"));
        assert_eq!(got, cut, "{mode}");
    }
}

/// Sessions keyed by a UUID text column (a rowid table whose first column has one
/// layout in every live row, as Copilot's and Cursor's session tables have), deleted
/// one at a time in scattered order: a cell freed before its neighbours keeps the
/// freeblock link SQLite wrote over its first four bytes (its length, rowid, header
/// length and first serial type) when the neighbours' freeing merges it into one
/// freeblock. Such cells are rebuilt wherever they lie in the freeblock, their first
/// column read at the length of the layout the live keys share.
fn uuid_sessions() -> Built {
    build(false, |conn| {
        conn.execute_batch(
            "CREATE TABLE sessions (id TEXT NOT NULL UNIQUE, title TEXT, summary TEXT, turns INTEGER);",
        )
        .unwrap();
        let mut rng = Lcg(61);
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..240u64 {
            let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            tx.execute(
                "INSERT INTO sessions VALUES (?1, ?2, ?3, ?4)",
                params![
                    format!(
                        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                        h >> 32,
                        (h >> 16) & 0xffff,
                        h & 0xfff,
                        (h >> 12) & 0xfff,
                        h.rotate_left(17) & 0xffff_ffff_ffff
                    ),
                    words(&mut rng, 6),
                    words(&mut rng, 14),
                    1000 + i64::try_from(i).unwrap()
                ],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        // one at a time, scattered: neighbours freed later merge with earlier ones
        let mut truth = Vec::new();
        for round in [3, 0, 1] {
            for i in (0..240).rev().filter(|i| i % 4 == round) {
                truth.extend(delete(conn, "sessions", &format!("turns = {}", 1000 + i)));
            }
        }
        truth
    })
}

/// All 95 rows whose bytes survived, none false. Before 2026-12-01: 81, and one false
/// (a freeblock's first cell read with its first column, inferred from the
/// freeblock's size, `81af1`, cut from a UUID: a first column whose type the link took
/// is now read at the length of the layout the live values share, and must fit it).
#[test]
fn cells_under_stale_links_in_merged_freeblocks() {
    let built = uuid_sessions();
    let s = score("uuid_sessions", &built, "sessions", None);
    assert_eq!(s, sc(180, 95, 95, 0, 0));
    // the paged mode: the same
    use sqlite_evidence::paged::PagedDatabase;
    let p = PagedDatabase::from_readers(Box::new(built.main.clone()), None).unwrap();
    let mut got = Vec::new();
    p.deleted_records("sessions", &mut |r| got.push(r));
    assert_eq!(
        score_records("uuid_sessions paged", &built, &got, None),
        sc(180, 95, 95, 0, 0)
    );
}

/// A freeblock whose serial types after its link are all reserved (10): the length the
/// first column would fill is the freeblock's size less the others' sizes, which are
/// unknown; their sum overflowed (a panic in a debug build) before it saturated.
#[test]
fn a_freeblock_of_reserved_serial_types_is_no_record() {
    let mut built = build(false, |conn| {
        conn.execute_batch("CREATE TABLE wide (a TEXT, b TEXT, c TEXT, d TEXT, e TEXT, f TEXT);")
            .unwrap();
        for i in 0..20 {
            conn.execute(
                "INSERT INTO wide VALUES (?1, 'b', 'c', 'd', 'e', 'f')",
                params![format!("row {i:02}")],
            )
            .unwrap();
        }
        delete(conn, "wide", "a = 'row 10'")
    });
    // the table's leaf (page 2): its first freeblock, the deleted row's cell
    let page = 4096;
    assert_eq!(built.main[page], 0x0d);
    let fb = u16::from_be_bytes([built.main[page + 1], built.main[page + 2]]) as usize;
    assert_ne!(fb, 0);
    for x in &mut built.main[page + fb + 4..page + fb + 9] {
        *x = 10;
    }
    for paged in [false, true] {
        let recs = if paged {
            let p = sqlite_evidence::paged::PagedDatabase::from_readers(
                Box::new(built.main.clone()),
                None,
            )
            .unwrap();
            let mut v = Vec::new();
            p.deleted_records("wide", &mut |r| v.push(r));
            v
        } else {
            Database::from_bytes(&built.main, None)
                .unwrap()
                .deleted_records("wide")
        };
        assert!(
            recs.iter()
                .all(|r| r.values[0] != Value::Text("row 10".into())),
            "paged {paged}: {recs:?}"
        );
    }
}
