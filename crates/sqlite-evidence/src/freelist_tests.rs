//! A forged freelist: one trunk page naming one full table leaf page in every slot of
//! its list, and, with `cycle`, naming itself as the next trunk. Before each trunk and
//! leaf was carved once, the leaf was carved once per slot per hop (the hops bounded by
//! the page count only): on 32 KiB pages 8,190 times per hop, 1.2 GB of candidates for
//! a 96 KB file, growing with the square of the page size.

use super::*;

/// The file and the rows of the leaf: `turns` (emptied, `secure_delete` on, so that
/// nothing of its own page is carved) on pages 1-2, the trunk page 3 and a copy of
/// the leaf when it was full on page 4.
fn forged(page: usize, cycle: bool) -> (Vec<u8>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let fill = |rows: Option<usize>| {
        let _ = std::fs::remove_file(&path);
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(&format!(
            "PRAGMA page_size = {page}; PRAGMA journal_mode = DELETE; PRAGMA secure_delete = ON;
             CREATE TABLE turns (id INTEGER PRIMARY KEY, session_id TEXT, turn_index INTEGER,
                                 user_message TEXT, assistant_response TEXT, timestamp TEXT);"
        ))
        .unwrap();
        let mut i = 0;
        loop {
            if rows == Some(i) {
                return (conn, i);
            }
            conn.execute(
                "INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp)
                 VALUES ('s1', ?1, ?2, ?3, '2026-10-05T09:00:00.000Z')",
                rusqlite::params![
                    i as i64,
                    format!("prompt {i} {}", "x".repeat(40)),
                    format!("answer {i} {}", "y".repeat(40))
                ],
            )
            .unwrap();
            let pages: i64 = conn
                .query_row("PRAGMA page_count", [], |r| r.get(0))
                .unwrap();
            if pages > 2 {
                // the rows that fit the one leaf
                return (conn, i);
            }
            i += 1;
        }
    };
    let (conn, rows) = fill(None);
    drop(conn);
    let (conn, rows) = fill(Some(rows));
    let full = std::fs::read(&path).unwrap()[page..2 * page].to_vec();
    assert_eq!(full[0], 0x0d);
    conn.execute("DELETE FROM turns", []).unwrap();
    drop(conn);
    let mut file = std::fs::read(&path).unwrap();
    assert_eq!(file.len(), 2 * page);
    let count = (page - 8) / 4;
    let mut trunk = vec![0u8; page];
    trunk[..4].copy_from_slice(&(if cycle { 3u32 } else { 0 }).to_be_bytes());
    trunk[4..8].copy_from_slice(&(count as u32).to_be_bytes());
    for k in 0..count {
        trunk[8 + 4 * k..12 + 4 * k].copy_from_slice(&4u32.to_be_bytes());
    }
    file.extend_from_slice(&trunk);
    file.extend_from_slice(&full);
    file[28..32].copy_from_slice(&4u32.to_be_bytes());
    file[32..36].copy_from_slice(&3u32.to_be_bytes());
    file[36..40].copy_from_slice(&(count as u32 + 1).to_be_bytes());
    (file, rows)
}

#[test]
fn a_leaf_named_again_and_again_is_carved_once() {
    let mut figures = Vec::new();
    for (page, cycle) in [(4096, false), (4096, true), (16384, true)] {
        let (file, rows) = forged(page, cycle);
        let db = Database::from_bytes(&file, None).unwrap();
        // the carving itself: each of the leaf's cells found once, two pages carved
        let mut rec = Recoverer::new(&db, TableShape::load(&db, "turns").unwrap());
        let (mut freelist, mut flushes) = (HashSet::new(), 0);
        let none = HashSet::new();
        rec.carve_freelist(3, 4, &none, &none, &mut freelist, &mut |_| flushes += 1);
        assert_eq!((rec.found.len(), flushes), (rows, 2), "{page} {cycle}");
        assert_eq!(freelist, HashSet::from([3, 4]));
        assert_eq!(rec.free_leaf_pages(3, 4), HashSet::from([4]));
        // what both modes return: every row once, from the leaf's cells
        let want: Vec<String> = (0..rows)
            .map(|k| format!("freelist page 4 cell {k}"))
            .collect();
        let memory: Vec<String> = db
            .deleted_records("turns")
            .into_iter()
            .map(|r| r.location)
            .collect();
        assert_eq!(memory, want, "{page} {cycle}");
        let paged = crate::paged::PagedDatabase::from_readers(Box::new(file), None).unwrap();
        let mut by_page = Vec::new();
        paged.deleted_records("turns", &mut |r| by_page.push(r.location));
        assert_eq!(by_page, want, "{page} {cycle} paged");
        figures.push(rows);
    }
    assert_eq!(figures, [29, 29, 117]);
}
