//! The paged path (databases above 512 MiB, or over the evidence size cap) gives the
//! rows of the in-memory path: every global fixture (and a copy with a WAL) is read
//! through both, with batches of one composer (every batch boundary crossed, deleted
//! records carved again per batch) and of the whole table (deleted records kept from
//! the first carve), and compared row for row, in order. The only differences allowed
//! are listed exactly: a deleted record that survives twice, whose rows are the same but
//! whose locator names the other copy.

mod common;

use chat_rows::{Evidence, FileContext, Row, Store};
use common::*;
use cursor_state::{CursorStore, Paging};

const GLOBALS: &[&str] = &[ALICE_GLOBAL, CAROL_GLOBAL, CAROL_BACKUP];

fn ctx(rel: &str) -> FileContext {
    FileContext {
        display_path: rel.to_string(),
        ..FileContext::default()
    }
}

fn read_paged(rel: &str, evidence: &Evidence, paging: Paging) -> Vec<Row> {
    let path = evidence_root().join(rel);
    let mut rows: Vec<Row> = Vec::new();
    CursorStore.read_with(&path, &ctx(rel), evidence, &mut rows, paging);
    rows
}

fn lines(rows: &[Row]) -> Vec<String> {
    rows.iter().map(render).collect()
}

/// The rows where the two paths differ, as (in-memory, paged) line pairs.
fn differences(want: &[String], got: &[String]) -> Vec<(String, String)> {
    assert_eq!(want.len(), got.len());
    want.iter()
        .zip(got)
        .filter(|(w, g)| w != g)
        .map(|(w, g)| (w.clone(), g.clone()))
        .collect()
}

/// No known difference on the fixtures: the deleted `composerData` of the alice fixture
/// survives twice, at offset 137 of page 4 (an interior page now: the leaf's old bytes)
/// and of page 6 (a leaf); `sqlite-evidence` keeps one copy of identical records, and
/// both modes now carve a table's interior pages after its leaves, so both name the
/// page 6 one (the paged mode named the page 4 one before).
fn known(rel: &str) -> Vec<(String, String)> {
    assert!(GLOBALS.contains(&rel), "{rel}");
    Vec::new()
}

#[test]
fn paged_path_gives_the_in_memory_rows_on_every_global_fixture() {
    for rel in GLOBALS {
        let want = lines(&read(rel));
        assert!(want.len() > 5, "{rel}");
        for batch in [1, 4096, u64::MAX] {
            let got = lines(&read_paged(rel, &Evidence::new(), Paging::always(batch)));
            assert_eq!(differences(&want, &got), known(rel), "{rel} batch {batch}");
        }
    }
}

#[test]
fn the_default_threshold_keeps_small_files_in_memory_and_the_rows_are_pinned() {
    // the expected files of tests/fixtures.rs hold the same rows
    for (rel, name) in [
        (ALICE_GLOBAL, "alice_global.txt"),
        (CAROL_GLOBAL, "carol_global.txt"),
        (CAROL_BACKUP, "carol_backup.txt"),
    ] {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/expected")
            .join(name);
        let want: Vec<String> = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let got = lines(&read_paged(rel, &Evidence::new(), Paging::always(1)));
        assert_eq!(differences(&want, &got), known(rel), "{rel}");
        let default = lines(&read_paged(rel, &Evidence::new(), Paging::default()));
        assert_eq!(default, lines(&read(rel)));
    }
    assert_eq!(Paging::default().from_bytes, 512 << 20);
    assert_eq!(Paging::default().batch_bytes, 128 << 20);
    assert_eq!(Paging::default().max_walks, 32);
    assert_eq!(Paging::always(4096).max_walks, u64::MAX);
}

#[test]
fn a_global_database_over_the_cap_is_read_page_by_page() {
    for rel in GLOBALS {
        let path = evidence_root().join(rel);
        // under the global file, over the workspace databases that give the projects
        let size = std::fs::metadata(&path).unwrap().len();
        let ev = Evidence::new().max_size(size - 1);
        let rows = CursorStore.read(&path, &ctx(rel), &ev);
        assert_eq!(
            differences(&lines(&read(rel)), &lines(&rows)),
            known(rel),
            "{rel}"
        );
        assert!(!rows.iter().any(|r| r.text.contains("unreadable")));
    }
}

#[test]
fn deleted_rows_come_back_on_the_paged_path() {
    let rows = read_paged(CAROL_GLOBAL, &Evidence::new(), Paging::always(1));
    assert!(rows.iter().any(|r| r.text
        == "session start: composerData missing; 1 bubbles recovered by their keys"
        && r.record_state == chat_rows::RecordState::Deleted));
    let rows = read_paged(ALICE_GLOBAL, &Evidence::new(), Paging::always(1));
    assert_eq!(
        rows.iter()
            .filter(|r| r.record_state == chat_rows::RecordState::Deleted)
            .count(),
        3 // as in memory (`fixtures.rs::recovery_counts`)
    );
}

/// A global database with a WAL (a composer added and a bubble deleted after the last
/// checkpoint): the paged path lays the WAL's committed frames over the main file as the
/// in-memory path does, and gives the same rows.
#[test]
fn paged_path_reads_the_wal_as_the_in_memory_path_does() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("work.vscdb");
    std::fs::copy(evidence_root().join(CAROL_GLOBAL), &src).unwrap();
    let conn = rusqlite::Connection::open(&src).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
         INSERT INTO cursorDiskKV VALUES ('composerData:wal-1', '{\"_v\":13,\"composerId\":\"wal-1\",\"name\":\"Added in the WAL\",\"createdAt\":1790000000000,\"fullConversationHeadersOnly\":[{\"bubbleId\":\"w1\",\"type\":1}]}');
         INSERT INTO cursorDiskKV VALUES ('bubbleId:wal-1:w1', '{\"bubbleId\":\"w1\",\"type\":1,\"text\":\"a prompt only the WAL holds\",\"createdAt\":1790000001000}');",
    )
    .unwrap();
    let victim: String = conn
        .query_row(
            "SELECT key FROM cursorDiskKV WHERE key LIKE 'bubbleId:%' ORDER BY key LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute("DELETE FROM cursorDiskKV WHERE key = ?1", [&victim])
        .unwrap();
    // copy while the connection is open: the WAL is not checkpointed away
    let rel = "Cursor/User/globalStorage/state.vscdb";
    let case = tempfile::tempdir().unwrap();
    let path = case.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::copy(&src, &path).unwrap();
    let wal = std::fs::read(work.path().join("work.vscdb-wal")).unwrap();
    assert!(!wal.is_empty());
    std::fs::write(case.path().join(format!("{rel}-wal")), wal).unwrap();
    drop(conn);

    let ev = Evidence::new();
    let c = ctx(rel);
    let memory = CursorStore.read(&path, &c, &ev);
    assert!(
        memory
            .iter()
            .any(|r| r.text == "a prompt only the WAL holds" && r.session_id == "wal-1")
    );
    for batch in [1, u64::MAX] {
        let mut paged: Vec<Row> = Vec::new();
        CursorStore.read_with(&path, &c, &ev, &mut paged, Paging::always(batch));
        // the same rows; one deleted record survives twice (the main file's page the
        // WAL superseded, and a freeblock of the page the WAL rewrote), and the two
        // paths name different copies of it
        let row = "2026-09-21T14:13:20.000000Z | 5e6f7a8b-aaaa-4000-8000-00000000000a | C:\\Users\\carol\\src\\shop | user | deleted | false |  |   | Add a cart total | cursorDiskKV key=bubbleId:5e6f7a8b-aaaa-4000-8000-00000000000a:w1-1, ";
        assert_eq!(
            differences(&lines(&memory), &lines(&paged)),
            vec![(
                format!("{row}main file page 6 cell 1"),
                format!("{row}freeblock at page 6 offset 3295")
            )],
            "batch {batch}"
        );
    }
}

/// A generated global database: `n` composers of four ~600-byte bubbles (every seventh a
/// `task-` sub-agent, every eleventh without its `composerData`: bubbles only), then
/// every fifth composer's second bubble and every thirteenth `composerData` deleted.
fn generated_global(dir: &std::path::Path, n: usize) -> std::path::PathBuf {
    let path = dir.join("Cursor/User/globalStorage/state.vscdb");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch(
        "PRAGMA page_size = 4096; PRAGMA secure_delete = OFF;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); BEGIN;",
    )
    .unwrap();
    let put = |k: String, v: serde_json::Value| {
        c.execute(
            "INSERT INTO cursorDiskKV VALUES (?1, ?2)",
            rusqlite::params![k, v.to_string()],
        )
        .unwrap();
    };
    for i in 0..n {
        let cid = if i % 7 == 3 {
            format!("task-tc{i:04}")
        } else {
            format!("c{i:04}")
        };
        if i % 11 != 5 {
            let headers: Vec<_> = (0..4)
                .map(|b| serde_json::json!({"bubbleId": format!("b{b}"), "type": 1 + b % 2}))
                .collect();
            put(
                format!("composerData:{cid}"),
                serde_json::json!({"_v": 13, "composerId": cid, "name": format!("chat {i}"),
                    "createdAt": 1_790_000_000_000u64 + i as u64,
                    "fullConversationHeadersOnly": headers}),
            );
        }
        for b in 0..4 {
            put(
                format!("bubbleId:{cid}:b{b}"),
                serde_json::json!({"bubbleId": format!("b{b}"), "type": 1 + b % 2,
                    "text": format!("{i}.{b} {}", "w".repeat(500)),
                    "createdAt": 1_790_000_000_000u64 + (i * 10 + b) as u64}),
            );
        }
    }
    c.execute_batch("COMMIT;").unwrap();
    for i in 0..n {
        let cid = if i % 7 == 3 {
            format!("task-tc{i:04}")
        } else {
            format!("c{i:04}")
        };
        if i % 5 == 0 {
            c.execute(
                "DELETE FROM cursorDiskKV WHERE key = ?1",
                [format!("bubbleId:{cid}:b1")],
            )
            .unwrap();
        }
        if i % 13 == 0 {
            c.execute(
                "DELETE FROM cursorDiskKV WHERE key = ?1",
                [format!("composerData:{cid}")],
            )
            .unwrap();
        }
    }
    path
}

/// The batch grown to keep the walks within `max_walks` gives the rows of the in-memory
/// path, in order, on the fixtures and on a generated database of 150 composers: from
/// one batch for everything to one per composer, and with the deleted records kept from
/// the census carve or carved again per batch.
#[test]
fn a_batch_grown_for_max_walks_gives_the_in_memory_rows() {
    let cases = |batch_bytes: u64| {
        [1, 2, 3, 32, 1000, u64::MAX].map(|max_walks| Paging {
            from_bytes: 0,
            batch_bytes,
            max_walks,
        })
    };
    for rel in GLOBALS {
        let want = lines(&read(rel));
        for paging in cases(1).into_iter().chain(cases(4096)) {
            let got = lines(&read_paged(rel, &Evidence::new(), paging));
            assert_eq!(differences(&want, &got), known(rel), "{rel} {paging:?}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = generated_global(dir.path(), 150);
    let rel = "Cursor/User/globalStorage/state.vscdb";
    let ev = Evidence::new();
    let memory = lines(&CursorStore.read(&path, &ctx(rel), &ev));
    let count = |what: &str| memory.iter().filter(|l| l.contains(what)).count();
    // 125 live composers (14 never had composerData, 11 lost it), 11 deleted ones
    // back, 30 deleted bubbles back
    let live = "| system | live | false |  |   | session start: title=\"chat";
    let deleted = "| system | deleted | false |  |   | session start: title=\"chat";
    assert_eq!((count(live), count(deleted)), (125, 11));
    assert_eq!(count(" | deleted | "), 46);
    assert_eq!(memory.len(), 807);
    for paging in cases(1).into_iter().chain(cases(64 << 10)) {
        let mut paged: Vec<Row> = Vec::new();
        CursorStore.read_with(&path, &ctx(rel), &ev, &mut paged, paging);
        assert_eq!(lines(&paged), memory, "{paging:?}");
    }
}
