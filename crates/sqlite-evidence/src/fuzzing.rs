//! The fuzz target's body, in the crate so that the inputs that once made it panic
//! (`tests/fuzz-findings/`) are replayed by `cargo test` exactly as the fuzzer ran them.

use crate::Database;
use crate::decode::{DbHeader, scan_wal};

/// Runs every decoder of the crate on `data`: the WAL scan, the header, the in-memory
/// image with its recovery (tables, schema, dropped tables) and its rows' WAL places,
/// the paged mode and `any::AnyDatabase`'s paged reading. The first byte splits the rest into a main file
/// and a WAL. Never panics (that is what the fuzzer checks).
pub fn exercise(data: &[u8]) {
    let _ = scan_wal(data, None);
    let _ = scan_wal(data, Some(4096));
    let _ = DbHeader::parse(data);
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let cut = (k as usize * rest.len()) / 255;
    let (main, wal) = rest.split_at(cut);
    if let Ok(db) = Database::from_bytes(main, Some(wal)) {
        let tables: Vec<String> = db
            .connection()
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .unwrap_or_default();
        for t in tables {
            let _ = db.deleted_records(&t);
            let _ = db.wal_places(&t);
        }
        let _ = db.schema_entries();
        let _ = db.deleted_records("sqlite_master");
        for d in db.dropped_tables().to_vec() {
            let _ = db.deleted_records(&d.name);
        }
    }
    if let Ok(paged) = crate::paged::PagedDatabase::from_readers(
        Box::new(main.to_vec()),
        Some(Box::new(wal.to_vec())),
    ) {
        let _ = paged.schema_readable();
        for e in paged.schema_entries() {
            paged.live_records(&e.name, &mut |_, _| {});
            let mut flip = false;
            paged.live_records_where(
                &e.name,
                &mut |_, _| {
                    flip = !flip;
                    flip
                },
                &mut |_, _| {},
            );
            paged.deleted_records(&e.name, &mut |_| {});
            let _ = paged.table_columns(&e.name);
            let _ = paged.wal_places(&e.name);
        }
        paged.deleted_records("sqlite_master", &mut |_| {});
        for d in paged.dropped_tables().to_vec() {
            paged.deleted_records(&d.name, &mut |_| {});
        }
    }
    // the store crates' reading, in the paged mode
    if let Ok(any) = crate::any::AnyDatabase::from_bytes(main, Some(wal), true) {
        let _ = any.sqlx_migrations();
        let _ = any.live_rows("ItemTable", &mut |_, _| {});
        let _ = any.has_table("ItemTable");
        let _ = any.wal_places("ItemTable");
    }
}
