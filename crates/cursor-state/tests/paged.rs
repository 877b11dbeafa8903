//! The paged path (databases above 512 MiB, or over the evidence size cap) gives the
//! rows of the in-memory path: every global fixture is read through both, with batches
//! of one composer (every batch boundary crossed) and of the whole table, and compared
//! row for row, in order.

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

/// The one known difference: the deleted `composerData` of the alice fixture survives
/// twice, at offset 137 of page 4 (an interior page now: the leaf's old bytes) and of
/// page 6 (a leaf); `sqlite-evidence` keeps one copy of identical records, the
/// in-memory image the page 6 one, the paged mode the page 4 one. Same record, same
/// row, another copy named.
fn known(rel: &str) -> Vec<(String, String)> {
    if rel != ALICE_GLOBAL {
        return Vec::new();
    }
    let row = "2026-05-30T00:13:20.000000Z | 0a1b2c3d-3333-4000-8000-000000000003 |  | system | deleted | false |  |   | session start: title=\"Rotate the prod database password\" mode=agent status=completed format=v3 updated=2026-05-30T00:18:20.000000Z | cursorDiskKV key=composerData:0a1b2c3d-3333-4000-8000-000000000003, unallocated space at page";
    vec![(format!("{row} 6 offset 137"), format!("{row} 4 offset 137"))]
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
        2
    );
}
