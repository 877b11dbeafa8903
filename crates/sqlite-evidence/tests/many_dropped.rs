//! Thousands of dropped tables: a freed table whose rows are shaped like schema records
//! (`fake (type, name, tbl_name, rootpage, sql)`, filled and dropped, its leaves on the
//! freelist) gives one dropped table per row. Each is found once, in both modes, and
//! the live table's deleted rows, which fit the planted tables' shape or not, are
//! attributed as before. (Finding them compared each with every table found before, and
//! each carved record with every dropped table: 40,000 planted rows took 3.2 s to list
//! and 14.4 s to scan; see the README.)

mod common;

use common::Scratch;
use sqlite_evidence::Database;
use sqlite_evidence::paged::PagedDatabase;
use sqlite_evidence::rusqlite::params;

/// `n` planted tables, `(id INTEGER PRIMARY KEY, note TEXT)` or, with `distinct`, of
/// one to five columns of varied types; `ItemTable` with 400 rows, every other deleted.
fn planted(n: usize, distinct: bool) -> Vec<u8> {
    let scratch = Scratch::new(4096, false);
    let conn = &scratch.conn;
    conn.execute_batch(
        "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         CREATE TABLE fake (type TEXT, name TEXT, tbl_name TEXT, rootpage INTEGER, sql TEXT);
         BEGIN;",
    )
    .unwrap();
    for i in 0..400 {
        conn.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![
                format!("key.{i:07}"),
                format!("value {i} {}", "v".repeat(i % 50))
            ],
        )
        .unwrap();
    }
    let affinities = ["TEXT", "INTEGER", "REAL", "BLOB", "NUMERIC"];
    for i in 0..n {
        let cols = if distinct {
            let mut x = i;
            (0..1 + (i / 7) % 5)
                .map(|j| {
                    let c = format!("c{j} {}", affinities[x % 5]);
                    x /= 5;
                    c
                })
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            "id INTEGER PRIMARY KEY, note TEXT".to_string()
        };
        conn.execute(
            "INSERT INTO fake VALUES ('table', ?1, ?1, 2, ?2)",
            params![format!("t{i}"), format!("CREATE TABLE t{i} ({cols})")],
        )
        .unwrap();
    }
    conn.execute_batch("COMMIT; DROP TABLE fake; DELETE FROM ItemTable WHERE rowid % 2 = 0;")
        .unwrap();
    scratch.files().0
}

#[test]
fn thousands_of_dropped_tables_are_each_found_once() {
    let mut figures = Vec::new();
    for distinct in [false, true] {
        let file = planted(3000, distinct);
        let db = Database::from_bytes(&file, None).unwrap();
        let names: Vec<String> = db.dropped_tables().iter().map(|d| d.name.clone()).collect();
        let paged = PagedDatabase::from_readers(Box::new(file), None).unwrap();
        let paged_names: Vec<String> = paged
            .dropped_tables()
            .iter()
            .map(|d| d.name.clone())
            .collect();
        assert_eq!(paged_names, names, "distinct {distinct}");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "distinct {distinct}");
        let memory = db.deleted_records("ItemTable").len();
        let mut by_page = 0;
        paged.deleted_records("ItemTable", &mut |_| by_page += 1);
        figures.push((names.len(), memory, by_page));
    }
    // (with varied shapes, some of two columns take a text and a blob: the live table's
    // carved records are then the dropped tables')
    assert_eq!(figures, [(3001, 182, 182), (3001, 0, 0)]);
}
