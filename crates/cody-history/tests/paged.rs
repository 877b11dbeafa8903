//! The paged mode (used for a `state.vscdb` above `state_vscdb::PAGED_FROM_BYTES`) gives
//! Cody's rows of the in-memory mode on every fixture `state.vscdb`: the paged path is
//! forced with `Opening::paged()` and compared with `Opening::in_memory()`.

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, RecordState, Row};
use cody_history::CodyStore;
use state_vscdb::Opening;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/evidence");

fn databases() -> Vec<PathBuf> {
    chat_rows::dirty::files_under(Path::new(ROOT), |p| {
        p.file_name().is_some_and(|n| n == "state.vscdb")
    })
}

fn read(path: &Path, opening: Opening) -> Vec<Row> {
    let rel = path.strip_prefix(ROOT).unwrap().display().to_string();
    let ctx = FileContext {
        host: rel.split('/').next().unwrap_or("").to_string(),
        display_path: rel,
        ..FileContext::default()
    };
    CodyStore.read_with(path, &ctx, &Evidence::new(), opening)
}

#[test]
fn every_fixture_database_gives_the_same_rows_page_by_page() {
    let dbs = databases();
    assert_eq!(dbs.len(), 11);
    let (mut rows, mut deleted, mut with_rows, mut moved) = (0, 0, 0, 0);
    for p in &dbs {
        let memory = read(p, Opening::in_memory());
        let paged = read(p, Opening::paged());
        let is_deleted = |r: &&Row| r.record_state == RecordState::Deleted;
        let live = |v: &[Row]| {
            v.iter()
                .filter(|r| !is_deleted(r))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(live(&paged), live(&memory), "{}", p.display());
        // an older version of the value found in two places (a main-file page and a
        // WAL frame) is decoded from the first place found, which the paged mode's
        // order of reading may change: the same rows, another place (and byte offset
        // in that version) in the locator
        let norm = |v: &[Row]| {
            let mut out: Vec<String> = v
                .iter()
                .filter(is_deleted)
                .map(|r| {
                    let mut r = r.clone();
                    r.source_locator = r
                        .source_locator
                        .split(", ")
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    format!("{r:?}")
                })
                .collect();
            out.sort();
            out
        };
        assert_eq!(norm(&paged), norm(&memory), "{}", p.display());
        let places = |v: &[Row]| {
            v.iter()
                .filter(is_deleted)
                .map(|r| r.source_locator.clone())
                .collect::<std::collections::HashSet<_>>()
        };
        moved += places(&memory).difference(&places(&paged)).count();
        rows += memory.len();
        deleted += memory
            .iter()
            .filter(|r| r.record_state == RecordState::Deleted)
            .count();
        with_rows += usize::from(!memory.is_empty());
    }
    assert_eq!(
        (with_rows, rows, deleted, moved),
        (WITH_ROWS, ROWS, DELETED, MOVED)
    );
}

const WITH_ROWS: usize = 1;
const ROWS: usize = 26;
const DELETED: usize = 7;
const MOVED: usize = 2;
