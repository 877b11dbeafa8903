//! `Database::wal_places` (and the paged mode's): which live rows were read from a WAL
//! frame, with the frame, the page and the cell; the rows of pages the main file gave
//! are not listed.

mod common;

use std::collections::BTreeMap;

use common::Scratch;
use sqlite_evidence::Database;

#[test]
fn the_rows_of_a_leaf_the_wal_holds_are_placed_in_its_frame() {
    let s = Scratch::new(1024, true);
    s.conn
        .execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
             CREATE TABLE u (id INTEGER PRIMARY KEY, v TEXT);
             CREATE TABLE k (a TEXT PRIMARY KEY, b TEXT) WITHOUT ROWID;
             CREATE TABLE w (id INTEGER PRIMARY KEY, v TEXT);
             INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three');
             INSERT INTO k VALUES ('a', 'b');
             BEGIN;",
        )
        .unwrap();
    for i in 1..=200 {
        s.conn
            .execute("INSERT INTO u VALUES (?1, ?2)", (i, "x".repeat(100)))
            .unwrap();
    }
    // three levels on 1 KiB pages: 8 rows a leaf, about 90 children an interior page
    for i in 1..=5000 {
        s.conn
            .execute("INSERT INTO w VALUES (?1, ?2)", (i, "w".repeat(100)))
            .unwrap();
    }
    s.conn
        .execute_batch("COMMIT; PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    // after the checkpoint, one commit: t's one page, u's first leaf, k's page
    s.conn
        .execute_batch(
            "BEGIN; INSERT INTO t VALUES (4, 'four'); UPDATE t SET v = 'TWO' WHERE id = 2;
             UPDATE u SET v = 'y' WHERE id = 1; UPDATE k SET b = 'c';
             UPDATE w SET v = 'z' WHERE id = 4000; COMMIT;",
        )
        .unwrap();
    let (main, wal) = s.files();
    let db = Database::from_bytes(&main, wal.as_deref()).unwrap();
    let sorted = |t: &str| db.wal_places(t).into_iter().collect::<BTreeMap<_, _>>();
    let t = sorted("t");
    let page_of_t: u32 = db
        .connection()
        .query_row(
            "SELECT rootpage FROM sqlite_schema WHERE name = 't'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // the last frame that wrote t's page (one commit: one frame a page)
    let frames = &db.wal().frames;
    assert_eq!(frames.iter().filter(|f| f.page == page_of_t).count(), 1);
    let frame = frames.iter().position(|f| f.page == page_of_t).unwrap() + 1;
    assert_eq!(
        t,
        (1..=4)
            .map(|id| (
                id,
                format!("wal frame {frame} (page {page_of_t}) cell {}", id - 1)
            ))
            .collect::<BTreeMap<_, _>>()
    );
    // u spans several leaves: only the first one's rows, from 1 on, are the WAL's
    let u = sorted("u");
    let ids: Vec<i64> = u.keys().copied().collect();
    assert_eq!(ids.first(), Some(&1));
    assert!(ids.len() > 1 && ids.len() < 20, "{ids:?}");
    assert_eq!(ids, (1..=ids.len() as i64).collect::<Vec<_>>());
    assert!(u[&1].starts_with("wal frame ") && u[&1].ends_with(" cell 0"));
    // w is three levels deep: the one leaf the update rewrote, found by its rowids
    let w = sorted("w");
    let ids: Vec<i64> = w.keys().copied().collect();
    assert!(
        ids.contains(&4000) && ids.len() > 1 && ids.len() < 20,
        "{ids:?}"
    );
    assert_eq!(
        ids,
        (ids[0]..=ids[ids.len() - 1]).collect::<Vec<_>>(),
        "one leaf's rows"
    );
    // (three levels: w's root is an interior page whose children are interior pages)
    let root_w: u32 = db
        .connection()
        .query_row(
            "SELECT rootpage FROM sqlite_schema WHERE name = 'w'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let page = |n: u32| main[(n as usize - 1) * 1024..n as usize * 1024].to_vec();
    let root_page = page(root_w);
    assert_eq!(root_page[0], 0x05, "w's root is interior");
    let child = u32::from_be_bytes(root_page[8..12].try_into().unwrap());
    assert_eq!(page(child)[0], 0x05, "and so is its right-most child");
    // no rowids in a WITHOUT ROWID table; an unknown table has none
    assert!(db.wal_places("k").is_empty());
    assert!(db.wal_places("nope").is_empty());
    // the paged mode walks the same pages to the same places
    let paged = sqlite_evidence::paged::PagedDatabase::from_readers(
        Box::new(main.clone()),
        wal.clone()
            .map(|w| Box::new(w) as Box<dyn sqlite_evidence::paged::ReadAt>),
    )
    .unwrap();
    for table in ["t", "u", "w", "k", "nope"] {
        assert_eq!(paged.wal_places(table), db.wal_places(table), "{table}");
    }
    // the main file alone: nothing is the WAL's
    let alone = Database::from_bytes(&main, None).unwrap();
    assert!(alone.wal_places("t").is_empty());
    assert_eq!(
        alone
            .connection()
            .query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0))
            .unwrap(),
        3
    );
}
