//! Fuzzes sqlite-evidence's own decoders: the WAL scan (header, salts, checksums), the
//! database header, the in-memory image build, and recovery's page and record decoding.
//! The first byte splits the rest into a main file and a WAL.
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
    }
});
