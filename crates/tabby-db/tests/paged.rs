//! The paged mode (`sqlite_evidence::paged`, used above `PAGED_FROM_BYTES`) gives the
//! rows of the in-memory mode on every fixture file the store claims (the server
//! databases, their backups, the event logs that resolve users through them, and the
//! `state.vscdb` files): the paged path is forced with `Opening::paged()` and compared
//! with `Opening::in_memory()`.

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, RecordState, Row, Store};
use sqlite_evidence::any::Opening;
use tabby_db::TabbyStore;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/evidence");

/// Every fixture file the store claims, sorted.
fn claimed() -> Vec<PathBuf> {
    chat_rows::dirty::files_under(Path::new(ROOT), |p| {
        TabbyStore::default().claim(p).is_some()
    })
}

fn read(store: &TabbyStore, path: &Path) -> Vec<Row> {
    let ctx = FileContext {
        display_path: path.strip_prefix(ROOT).unwrap().display().to_string(),
        ..FileContext::default()
    };
    store.read(path, &ctx, &Evidence::new())
}

/// The place part of a deleted row's locator cut off (the paged mode may find a record
/// in another place: it judges older page versions by their own cells).
fn without_place(locator: &str) -> String {
    const PLACES: [&str; 7] = [
        "wal frame ",
        "main file page ",
        "freelist ",
        "freeblock at ",
        "unallocated space ",
        "page ",
        "orphan page ",
    ];
    PLACES
        .iter()
        .filter_map(|p| locator.find(p))
        .min()
        .map_or_else(|| locator.to_string(), |at| locator[..at].to_string())
}

#[test]
fn every_fixture_file_gives_the_same_rows_page_by_page() {
    let files = claimed();
    let dbs = files
        .iter()
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".sqlite") || n == "state.vscdb"
        })
        .count();
    assert_eq!((files.len(), dbs), (FILES, DATABASES), "{files:#?}");
    let (memory_store, paged_store) = (
        TabbyStore::with_opening(Opening::in_memory()),
        TabbyStore::with_opening(Opening::paged()),
    );
    let (mut rows, mut deleted, mut moved) = (0, 0, 0);
    for p in &files {
        let memory = read(&memory_store, p);
        let paged = read(&paged_store, p);
        let is_deleted = |r: &&Row| r.record_state == RecordState::Deleted;
        let live = |v: &[Row]| {
            v.iter()
                .filter(|r| !is_deleted(r))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(live(&paged), live(&memory), "{}", p.display());
        let norm = |v: &[Row]| {
            let mut out: Vec<String> = v
                .iter()
                .filter(is_deleted)
                .map(|r| {
                    let mut r = r.clone();
                    r.source_locator = without_place(&r.source_locator);
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
        deleted += memory.iter().filter(is_deleted).count();
    }
    // exact totals, so that a fixture change is seen here too
    assert_eq!((rows, deleted, moved), (ROWS, DELETED, MOVED));
}

const FILES: usize = 18;
const DATABASES: usize = 12;
const ROWS: usize = 108;
const DELETED: usize = 6; // 5 before sqlite-evidence read freed cells behind stale links in merged freeblocks
const MOVED: usize = 2;

/// The decoded databases agree field by field, live and recovered records alike (the
/// recovered ones compared without their place).
#[test]
fn server_databases_decode_the_same() {
    let ev = Evidence::new();
    let mut n = 0;
    for p in claimed() {
        if !p.to_string_lossy().ends_with(".sqlite") {
            continue;
        }
        let memory = tabby_db::ServerDb::from_path_with(&p, &ev, Opening::in_memory()).unwrap();
        let paged = tabby_db::ServerDb::from_path_with(&p, &ev, Opening::paged()).unwrap();
        assert_eq!(paged.schema_level, memory.schema_level, "{}", p.display());
        assert_eq!(paged.users, memory.users, "{}", p.display());
        assert_eq!(paged.completions, memory.completions, "{}", p.display());
        assert_eq!(paged.pages, memory.pages, "{}", p.display());
        assert_eq!(paged.sections, memory.sections, "{}", p.display());
        assert_eq!(paged.integrations, memory.integrations, "{}", p.display());
        assert_eq!(paged.repositories, memory.repositories, "{}", p.display());
        assert_eq!(paged.threads.len(), memory.threads.len(), "{}", p.display());
        assert_eq!(
            paged.messages.len(),
            memory.messages.len(),
            "{}",
            p.display()
        );
        assert_eq!(paged.events.len(), memory.events.len(), "{}", p.display());
        n += 1;
    }
    assert_eq!(n, SERVER_DATABASES);
}

const SERVER_DATABASES: usize = 3;

/// The dirty-input harness on the paged path: the server database and its WAL damaged
/// never panic, stay within memory, and every cut of the main file is reported, as on
/// the in-memory path (`tests/dirty.rs`).
#[test]
fn database_damage_page_by_page() {
    use chat_rows::dirty::{Harness, Mutation};
    let ee = Path::new(ROOT).join("tabby-srv/home/tabby/.tabby/ee");
    let main = std::fs::read(ee.join("db.sqlite")).unwrap();
    let wal = std::fs::read(ee.join("db.sqlite-wal")).unwrap();
    let read_paged = |p: &Path| {
        TabbyStore::with_opening(Opening::paged()).read(
            p,
            &FileContext::default(),
            &Evidence::new(),
        )
    };
    let harness = Harness::new().truncations(12).flips(12).splices(6);
    let report = harness.run_files(
        &main,
        "ee/db.sqlite",
        &[("ee/db.sqlite-wal", &wal)],
        read_paged,
    );
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
    report.assert_damage_reported(|m| matches!(m, Mutation::Truncate(n) if *n < main.len()));
    let report = harness.run_files(&wal, "ee/db.sqlite-wal", &[("ee/db.sqlite", &main)], |p| {
        read_paged(&p.with_file_name("db.sqlite"))
    });
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
}
