//! What the tests that generate databases share: a deterministic generator, the
//! words of their texts, and a scratch database written while its connection is held.
//! (Each test binary uses part of it.)
#![allow(dead_code)]

use std::path::PathBuf;

use sqlite_evidence::rusqlite::Connection;

/// A database in a private directory (removed with it), `secure_delete` off, on pages
/// of `page` bytes; in WAL mode, never checkpointed, when `wal`.
pub struct Scratch {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
    pub conn: Connection,
}

impl Scratch {
    pub fn new(page: usize, wal: bool) -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&format!(
            "PRAGMA page_size = {page}; PRAGMA secure_delete = OFF;"
        ))
        .unwrap();
        if wal {
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
            conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        }
        Scratch { dir, path, conn }
    }

    /// The main file and the WAL (when not empty) as they are while the writer still
    /// holds them; the connection is closed after.
    pub fn files(self) -> (Vec<u8>, Option<Vec<u8>>) {
        let main = std::fs::read(&self.path).unwrap();
        let wal = std::fs::read(self.dir.path().join("db.sqlite-wal"))
            .ok()
            .filter(|w| !w.is_empty());
        drop(self.conn);
        (main, wal)
    }
}

/// A small deterministic generator (no dependency, same bytes on every run).
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number below `n`.
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

const WORDS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "kilo", "lima", "oscar", "tango", "zulu",
];

/// One to `max` words, space-separated.
pub fn text(r: &mut Lcg, max: u64) -> String {
    let n = 1 + r.next(max);
    (0..n)
        .map(|_| WORDS[r.next(10) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}
