//! Fuzzes sqlite-evidence's own decoders: the WAL scan (header, salts, checksums), the
//! database header, the in-memory image build, recovery's page and record decoding (the
//! schema read by hand, dropped tables, the schema table's own freed records), and the
//! paged mode (pages read on demand, records walked and carved as a stream). The first
//! byte splits the rest into a main file and a WAL.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sqlite_evidence::Database;
use sqlite_evidence::decode::{DbHeader, scan_wal};

fuzz_target!(|data: &[u8]| {
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
        }
        let _ = db.schema_entries();
        let _ = db.deleted_records("sqlite_master");
        for d in db.dropped_tables().to_vec() {
            let _ = db.deleted_records(&d.name);
        }
    }
    if let Ok(paged) = sqlite_evidence::paged::PagedDatabase::from_readers(
        Box::new(main.to_vec()),
        Some(Box::new(wal.to_vec())),
    ) {
        for e in paged.schema_entries() {
            paged.live_records(&e.name, &mut |_, _| {});
            paged.deleted_records(&e.name, &mut |_| {});
        }
    }
});
