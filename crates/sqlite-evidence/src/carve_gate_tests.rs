//! The gate of a raw region's carving ([`may_hold_header`]): it may let through a region
//! that holds nothing, never one that holds a record the scan finds.

use super::*;

/// A database of one Cursor-like table (`key TEXT`, `value BLOB`) and the bytes of its
/// first leaf page: cells whose records the carving scan finds at their offsets.
fn table_leaf() -> (Database, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 4096; PRAGMA journal_mode = DELETE;
         CREATE TABLE kv (key TEXT UNIQUE, value BLOB);",
    )
    .unwrap();
    for i in 0..12 {
        conn.execute(
            "INSERT INTO kv VALUES (?1, ?2)",
            rusqlite::params![
                format!("bubbleId:c{i}:b{i}"),
                format!("{{\"text\":\"turn {i}\"}}")
            ],
        )
        .unwrap();
    }
    drop(conn);
    let file = std::fs::read(&path).unwrap();
    let db = Database::from_bytes(&file, None).unwrap();
    let root = db
        .schema_entries()
        .into_iter()
        .find(|e| e.name == "kv")
        .unwrap()
        .rootpage as usize;
    let leaf = file[(root - 1) * 4096..root * 4096].to_vec();
    assert_eq!(leaf[0], 0x0d);
    (db, leaf)
}

/// Text, such as a freed overflow page holds, never passes; a region holding a cell
/// passes, and the scan finds the cell's record there.
#[test]
fn text_is_refused_and_a_record_let_through() {
    let (db, leaf) = table_leaf();
    let shape = TableShape::load(&db, "kv").unwrap();
    let text = br#"{"text":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","createdAt":1790000000000}"#
        .repeat(50);
    assert!(!may_hold_header(&text, 0, text.len(), 2));
    assert!(!may_hold_header(&vec![b'x'; 4096], 0, 4096, 2));
    assert!(!may_hold_header(&[0u8; 4096], 0, 4096, 2));
    let content = be16(&leaf, 5) as usize;
    assert!(may_hold_header(&leaf, content, 4096, 2));
    let mut rec = Recoverer::new(&db, shape);
    rec.carve(&leaf, content, 4096, Region::Raw, "raw");
    assert_eq!(rec.found.len(), 12);
    assert_eq!(
        rec.found[0].values[0],
        Value::Text("bubbleId:c11:b11".into())
    );
}

/// On 20,000 windows of the leaf, some with bytes overwritten at random: wherever the
/// ungated scan finds anything, the gate lets the window through (and the gated carve
/// finds the same records).
#[test]
fn the_gate_never_refuses_a_region_the_scan_finds_records_in() {
    let (db, leaf) = table_leaf();
    let shape = TableShape::load(&db, "kv").unwrap();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let (mut with_records, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let mut page = leaf.clone();
        for _ in 0..next(8) {
            let at = next(4096);
            page[at] = next(256) as u8;
        }
        let a = next(4096);
        let z = (a + 1 + next(600)).min(4096);
        let mut ungated = Recoverer::new(&db, shape.clone());
        ungated.carve_region(&page, a, z, Region::Raw, "w");
        let gate = may_hold_header(&page, a, z, 2);
        if !ungated.found.is_empty() {
            with_records += 1;
            assert!(gate, "window {a}..{z} holds a record and was refused");
        }
        refused += usize::from(!gate);
        let mut gated = Recoverer::new(&db, shape.clone());
        gated.carve(&page, a, z, Region::Raw, "w");
        let values =
            |r: &Recoverer<'_>| r.found.iter().map(|f| f.values.clone()).collect::<Vec<_>>();
        assert_eq!(values(&gated), values(&ungated), "window {a}..{z}");
    }
    // the windows exercised both sides of the gate
    assert!(with_records > 1_000, "{with_records}");
    assert!(refused > 1_000, "{refused}");
}
