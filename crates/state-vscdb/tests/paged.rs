//! The paged mode (`sqlite_evidence::paged`, used above `PAGED_FROM_BYTES`) gives the
//! rows of the in-memory mode on every fixture `state.vscdb`: the paged path is forced
//! with `Opening::paged()` and compared row for row with `Opening::in_memory()`.

use std::path::{Path, PathBuf};

use chat_rows::{Evidence, FileContext, Row, Store};
use state_vscdb::{Opening, StateDb, StateVscdbStore};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/evidence");

/// Every `state.vscdb` of the fixture tree, sorted.
fn databases() -> Vec<PathBuf> {
    chat_rows::dirty::files_under(Path::new(ROOT), |p| {
        p.file_name().is_some_and(|n| n == "state.vscdb")
    })
}

fn read(path: &Path, opening: Opening) -> Vec<Row> {
    let rel = path.strip_prefix(ROOT).unwrap().display().to_string();
    let ctx = FileContext {
        product: Some("vscode".into()),
        display_path: rel,
        ..FileContext::default()
    };
    StateVscdbStore.read_with(path, &ctx, &Evidence::new(), opening)
}

/// The place part of a deleted row's locator (`wal frame 1 (page 2) cell 0`), cut off:
/// `ItemTable key=<key>, <place>`.
pub fn without_place(locator: &str) -> String {
    const PLACES: [&str; 7] = [
        ", wal frame ",
        ", main file page ",
        ", freelist ",
        ", freeblock at ",
        ", unallocated space ",
        ", page ",
        ", orphan page ",
    ];
    PLACES
        .iter()
        .filter_map(|p| locator.find(p))
        .min()
        .map_or_else(|| locator.to_string(), |at| locator[..at].to_string())
}

/// Compares the rows of the two modes: the live and secondary rows equal and in the
/// same order; the deleted rows the same rows but for where each was found (the paged
/// mode judges older page versions by their own cells, in another order, so a record
/// found in two places may be reported from the other one). Returns how many deleted
/// rows name another place.
pub fn compare(memory: &[Row], paged: &[Row], what: &str) -> usize {
    let deleted = |r: &&Row| r.record_state == chat_rows::RecordState::Deleted;
    let live = |rows: &[Row]| {
        rows.iter()
            .filter(|r| !deleted(r))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(live(paged), live(memory), "{what}");
    let norm = |rows: &[Row]| {
        let mut v: Vec<Row> = rows
            .iter()
            .filter(deleted)
            .map(|r| {
                let mut r = r.clone();
                r.source_locator = without_place(&r.source_locator);
                r
            })
            .collect();
        v.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        v
    };
    assert_eq!(norm(paged), norm(memory), "{what}");
    let places = |rows: &[Row]| {
        rows.iter()
            .filter(deleted)
            .map(|r| r.source_locator.clone())
            .collect::<std::collections::HashSet<_>>()
    };
    let (a, b) = (places(memory), places(paged));
    a.difference(&b).count()
}

#[test]
fn every_fixture_database_gives_the_same_rows_page_by_page() {
    let dbs = databases();
    // the VS Code, VSCodium and Cursor databases of the three hosts
    assert_eq!(dbs.len(), 11, "{dbs:#?}");
    let mut rows = 0;
    let mut deleted = 0;
    let mut moved = 0;
    for p in &dbs {
        let memory = read(p, Opening::in_memory());
        let paged = read(p, Opening::paged());
        moved += compare(&memory, &paged, &p.display().to_string());
        rows += memory.len();
        deleted += memory
            .iter()
            .filter(|r| r.record_state == chat_rows::RecordState::Deleted)
            .count();
    }
    // exact totals, so that a fixture change is seen here too
    assert_eq!((rows, deleted, moved), (ROWS, DELETED, MOVED));
    // the Store's own path (default threshold) is the in-memory one for these files
    let ev = Evidence::new();
    let ctx = FileContext::default();
    assert_eq!(
        StateVscdbStore.read(&dbs[0], &ctx, &ev),
        StateVscdbStore.read_with(&dbs[0], &ctx, &ev, Opening::in_memory())
    );
}

const ROWS: usize = 36;
const DELETED: usize = 5;
const MOVED: usize = 1;

/// The items, the deleted items and the cut ones are the same in both modes; key-value
/// tables answer lookups, key ranges and rowid walks the same way.
#[test]
fn items_deleted_items_and_key_value_tables_agree() {
    let ev = Evidence::new();
    let mut kv_tables = 0;
    for p in databases() {
        let Ok(memory) = StateDb::open_with(&p, &ev, Opening::in_memory()) else {
            assert!(StateDb::open_with(&p, &ev, Opening::paged()).is_err());
            continue;
        };
        let paged = StateDb::open_with(&p, &ev, Opening::paged()).unwrap();
        assert!(paged.paged().is_some() && paged.database().is_none());
        assert!(memory.paged().is_none() && memory.database().is_some());
        assert_eq!(paged.items(), memory.items(), "{}", p.display());
        assert_eq!(paged.problems(), memory.problems(), "{}", p.display());
        let norm = |(whole, cut): (
            Vec<state_vscdb::Item>,
            Vec<(state_vscdb::Item, Option<u64>)>,
        )| {
            let mut w: Vec<(String, String, Option<i64>)> = whole
                .into_iter()
                .map(|i| (i.key, i.value, i.rowid))
                .collect();
            let mut c: Vec<(String, Option<u64>)> =
                cut.into_iter().map(|(i, d)| (i.key, d)).collect();
            w.sort();
            c.sort();
            (w, c)
        };
        assert_eq!(
            norm(paged.deleted_and_cut()),
            norm(memory.deleted_and_cut()),
            "{}",
            p.display()
        );
        for table in ["ItemTable", "cursorDiskKV"] {
            let (Some(m), Some(g)) = (memory.kv_table(table), paged.kv_table(table)) else {
                assert!(memory.kv_table(table).is_none() && paged.kv_table(table).is_none());
                continue;
            };
            kv_tables += 1;
            let mut all_m = Vec::new();
            let mut all_g = Vec::new();
            m.for_each(|i| all_m.push(i)).unwrap();
            g.for_each(|i| all_g.push(i)).unwrap();
            assert_eq!(all_g, all_m, "{} {table}", p.display());
            for it in all_m.iter().take(40) {
                assert_eq!(g.get(&it.key).unwrap(), m.get(&it.key).unwrap());
                let prefix: String = it.key.chars().take(8).collect();
                let (mut a, mut b) = (Vec::new(), Vec::new());
                m.for_each_prefix(&prefix, |i| a.push(i)).unwrap();
                g.for_each_prefix(&prefix, |i| b.push(i)).unwrap();
                assert_eq!(b, a, "{} {table} {prefix}", p.display());
            }
            assert_eq!(g.get("no such key").unwrap(), None);
            let keys = |v: Vec<state_vscdb::Item>| {
                let mut k: Vec<(String, String)> =
                    v.into_iter().map(|i| (i.key, i.value)).collect();
                k.sort();
                k
            };
            assert_eq!(
                keys(g.deleted()),
                keys(m.deleted()),
                "{} {table}",
                p.display()
            );
        }
    }
    assert_eq!(kv_tables, KV_TABLES);
}

const KV_TABLES: usize = 13;

/// Builds a state database like the bench's, small: 40 items of 2 to 20 KB (most spill
/// onto overflow pages), checkpointed; then, in an uncheckpointed WAL, 10 items
/// deleted and 10 rewritten. Returns the main file and the WAL.
fn spilled_items_rewritten_in_a_wal() -> (Vec<u8>, Vec<u8>) {
    use rusqlite::{Connection, params};
    let value = |i: usize, v: usize| {
        let turns: Vec<String> = (0..(10 + (i * 37) % 200))
            .map(|k| format!("{{\"turn\":{k},\"v\":{v},\"text\":\"message {k} of item {i}\"}}"))
            .collect();
        format!("{{\"history\":[{}]}}", turns.join(","))
    };
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("state.vscdb");
    let conn = Connection::open(&p).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
         CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    for i in 0..40 {
        conn.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![format!("ext{i}.state"), value(i, 0)],
        )
        .unwrap();
    }
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    for i in 0..10 {
        conn.execute(
            "DELETE FROM ItemTable WHERE key = ?1",
            [format!("ext{}.state", i * 4 + 1)],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO ItemTable VALUES (?1, ?2)",
            params![format!("ext{}.state", i * 4 + 2), value(i * 4 + 2, 1)],
        )
        .unwrap();
    }
    let main = std::fs::read(&p).unwrap();
    let wal = std::fs::read(dir.path().join("state.vscdb-wal")).unwrap();
    drop(conn);
    (main, wal)
}

/// Older versions of values that spilled onto overflow pages, in a WAL whose rewrites
/// took those pages since: both modes follow each version's chain as its own state had
/// it (the paged mode by the frames of the commit that wrote it), so every one comes
/// back whole, with the same value. Until 2026-12-01 the paged mode followed the chains
/// in the current image: 15 whole, 2 cut (their size known, their value not), 3 lost.
#[test]
fn older_spilled_values_are_whole_in_both_modes() {
    use sqlite_evidence::any::AnyDatabase;
    let (main, wal) = spilled_items_rewritten_in_a_wal();
    let open = |paged: bool| {
        StateDb::from_any(AnyDatabase::from_bytes(&main, Some(&wal), paged).unwrap()).unwrap()
    };
    let (memory, paged) = (open(false), open(true));
    assert_eq!(paged.items(), memory.items());
    // (key, value) of the whole values, and the keys of the cut ones
    let found = |db: &StateDb| {
        let (whole, cut) = db.deleted_and_cut();
        let mut w: Vec<(String, String)> = whole.into_iter().map(|i| (i.key, i.value)).collect();
        let mut c: Vec<String> = cut.into_iter().map(|(i, _)| i.key).collect();
        w.sort();
        w.dedup();
        c.sort();
        c.dedup();
        (w, c)
    };
    let (mw, mc) = found(&memory);
    let (pw, pc) = found(&paged);
    // the 10 deleted items and the older versions of the 10 rewritten ones, all whole
    assert_eq!((mw.len(), mc.len()), (20, 0));
    assert_eq!((pw, pc), (mw, mc));
}

/// The dirty-input harness on the paged path: a damaged WAL or main file never panics,
/// stays within memory, and every certain damage is reported, as on the in-memory path
/// (`tests/fixtures.rs`).
#[test]
fn dirty_inputs_never_panic_and_report_damage_page_by_page() {
    use chat_rows::dirty::{Harness, Mutation};
    use sqlite_evidence::any::AnyDatabase;
    let global = Path::new(ROOT).join("lin-ws01/home/alice/.config/Code/User/globalStorage");
    let main = std::fs::read(global.join("state.vscdb")).unwrap();
    let wal = std::fs::read(global.join("state.vscdb-wal")).unwrap();
    let parse = |m: &[u8], w: &[u8]| -> Vec<Row> {
        let ctx = state_vscdb::rows::Context {
            agent: "vscode".into(),
            ..Default::default()
        };
        let opened = AnyDatabase::from_bytes(m, Some(w), true)
            .map_err(state_vscdb::Error::from)
            .and_then(StateDb::from_any);
        match opened {
            Ok(db) => state_vscdb::rows::rows(&db, &ctx),
            Err(e) => vec![state_vscdb::unreadable_row("vscode", "", &e)],
        }
    };
    let h = Harness::new().truncations(24).flips(24).splices(8);
    let report = h.run(&wal, |w| parse(&main, w));
    report.assert_no_panics();
    report.assert_peak_memory_below(1 << 30);
    let frame = 24 + 4096;
    report.assert_damage_reported(|m| match m {
        Mutation::Flip { .. } => true,
        Mutation::Truncate(n) => *n > 0 && *n < wal.len() && (*n < 32 || (*n - 32) % frame != 0),
        _ => false,
    });
    let report = h.run(&main, |m| parse(m, &wal));
    report.assert_no_panics();
    report.assert_damage_reported(|m| matches!(m, Mutation::Truncate(n) if *n < main.len()));
}
