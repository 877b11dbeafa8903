//! Opening live and damaged databases: what is read, what is reported, and that the
//! evidence is left exactly as it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chat_rows::Evidence;
use sha2::{Digest, Sha256};
use sqlite_evidence::any::AnyDatabase;
use sqlite_evidence::{Database, Error, FrameStatus, ProblemKind};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap()
}

fn items(db: &Database) -> Vec<(String, String)> {
    let mut stmt = db
        .connection()
        .prepare("SELECT key, CAST(value AS TEXT) FROM ItemTable ORDER BY key")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn listing(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let hash = hex::encode(Sha256::digest(std::fs::read(e.path()).unwrap()));
            (e.file_name().to_string_lossy().into_owned(), hash)
        })
        .collect()
}

/// Rewrites a WAL's header salts (and its header checksum) so every frame is stale.
fn stale(mut wal: Vec<u8>) -> Vec<u8> {
    wal[16] ^= 0xff;
    let (a, b) = sqlite_evidence::decode::wal_checksum(false, &wal[..24], (0, 0));
    wal[24..28].copy_from_slice(&a.to_be_bytes());
    wal[28..32].copy_from_slice(&b.to_be_bytes());
    wal
}

const LIVE: &[(&str, &str)] = &[
    ("a", "alpha"),
    ("b", "bravo2"),
    ("d", "delta"),
    ("e", "echo"),
];
const MAIN_ONLY: &[(&str, &str)] = &[("a", "alpha"), ("b", "bravo"), ("c", "charlie")];

#[test]
fn reads_rows_only_in_the_wal_and_leaves_the_files_untouched() {
    let dir = data("");
    let before = listing(&dir);
    let ev = Evidence::new();
    let db = Database::open(&data("live.db"), &ev).unwrap();
    assert_eq!(items(&db), pairs(LIVE));
    assert_eq!(db.problems(), &[]);
    assert_eq!(db.wal().frames.len(), 7);
    assert!(
        db.wal()
            .frames
            .iter()
            .all(|f| f.status == FrameStatus::Committed)
    );
    // Queries cannot write.
    assert!(
        db.connection()
            .execute("DELETE FROM ItemTable", [])
            .is_err()
    );
    drop(db);
    assert_eq!(listing(&dir), before);
    assert!(!data("live.db-shm").exists());
    let m = ev.manifest();
    assert_eq!(m.len(), 2);
    assert!(m[0].path.ends_with("live.db") && m[1].path.ends_with("live.db-wal"));
}

#[test]
fn no_wal_reads_the_main_file() {
    let db = Database::from_bytes(&bytes("live.db"), None).unwrap();
    assert_eq!(items(&db), pairs(MAIN_ONLY));
    assert_eq!(db.problems(), &[]);
}

#[test]
fn torn_last_frame_is_reported_and_the_rest_read() {
    let mut wal = bytes("live.db-wal");
    wal.truncate(wal.len() - 100);
    let db = Database::from_bytes(&bytes("live.db"), Some(&wal)).unwrap();
    // Frame 7 (the delete of `c`) is torn; the three commits before it are read.
    assert_eq!(
        items(&db),
        pairs(&[
            ("a", "alpha"),
            ("b", "bravo2"),
            ("c", "charlie"),
            ("d", "delta"),
            ("e", "echo")
        ])
    );
    // The delete wrote frames 6 and 7; frame 6 alone is a transaction never committed.
    let p = db.problems();
    assert_eq!(p.len(), 2);
    assert_eq!(p[0].kind, ProblemKind::UncommittedFrames);
    assert_eq!(p[0].location, "wal frame 6");
    assert_eq!(
        p[0].message,
        "1 valid frame(s) after the last commit belong to a transaction that never committed; not applied"
    );
    assert_eq!(p[1].kind, ProblemKind::TornFrame);
    assert_eq!(p[1].location, "wal frame 7 (offset 24752)");
    assert_eq!(
        p[1].message,
        "torn last frame: 4020 of 4120 bytes; not applied"
    );
    assert_eq!(db.wal().frames.len(), 6);
    assert_eq!(db.wal().frames[5].status, FrameStatus::Uncommitted);
}

#[test]
fn corrupt_last_frame_is_reported_and_the_rest_read() {
    let mut wal = bytes("live.db-wal");
    let n = wal.len();
    wal[n - 10] ^= 0x55;
    let db = Database::from_bytes(&bytes("live.db"), Some(&wal)).unwrap();
    assert_eq!(
        items(&db),
        pairs(&[
            ("a", "alpha"),
            ("b", "bravo2"),
            ("c", "charlie"),
            ("d", "delta"),
            ("e", "echo")
        ])
    );
    let p = db.problems();
    assert_eq!(p.len(), 2);
    assert_eq!(p[1].kind, ProblemKind::UncommittedFrames);
    assert_eq!(p[1].location, "wal frame 6");
    assert_eq!(p[0].kind, ProblemKind::CorruptFrame);
    assert_eq!(p[0].location, "wal frame 7 (offset 24752)");
    assert_eq!(
        p[0].message,
        "corrupt last frame: checksum mismatch; wal read up to the commit before it, 1 frame(s) from here ignored"
    );
    assert_eq!(db.wal().frames[6].status, FrameStatus::Corrupt);
}

#[test]
fn stale_salt_ignores_the_wal() {
    let wal = stale(bytes("live.db-wal"));
    let db = Database::from_bytes(&bytes("live.db"), Some(&wal)).unwrap();
    assert_eq!(items(&db), pairs(MAIN_ONLY));
    let p = db.problems();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].kind, ProblemKind::StaleWal);
    assert_eq!(p[0].location, "wal frame 1");
    assert_eq!(
        p[0].message,
        "stale wal: the salt of frame 1 does not match the wal header; 7 frame(s) ignored"
    );
    assert!(
        db.wal()
            .frames
            .iter()
            .all(|f| f.status == FrameStatus::OtherGeneration)
    );
}

#[test]
fn bad_wal_header_is_reported() {
    let mut wal = bytes("live.db-wal");
    wal[0] = 0;
    let db = Database::from_bytes(&bytes("live.db"), Some(&wal)).unwrap();
    assert_eq!(items(&db), pairs(MAIN_ONLY));
    assert_eq!(
        db.problems()[0].message,
        "wal header has bad magic 0x007f0682; wal ignored"
    );
    let db = Database::from_bytes(&bytes("live.db"), Some(&wal[..20])).unwrap();
    assert_eq!(
        db.problems()[0].message,
        "wal header torn (20 of 32 bytes); wal ignored"
    );
}

#[test]
fn truncated_main_is_reported_and_what_remains_read() {
    let main = bytes("deleted_plain.db");
    let cut = &main[..main.len() - 4096 - 1000];
    let db = Database::from_bytes(cut, None).unwrap();
    let p = db.problems();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].kind, ProblemKind::TruncatedMain);
    assert_eq!(p[0].location, "main file offset 44056");
    assert_eq!(
        p[0].message,
        "main file truncated: 44056 bytes, the header says 12 pages of 4096 bytes (49152 bytes); missing bytes read as zeros"
    );
    // The schema is on page 1, which survives.
    assert_eq!(
        db.table_columns("notes"),
        ["id", "title", "body", "created"]
    );
    // the paged mode says the same
    let paged = AnyDatabase::from_bytes(cut, None, true).unwrap();
    assert_eq!(paged.problems(), p);
}

#[test]
fn not_sqlite_is_an_error() {
    let err = Database::from_bytes(b"{\"hello\": \"world\"} and more bytes of a json file that is not sqlite at all, surely not, no, not at all", None).unwrap_err();
    assert!(matches!(err, Error::NotSqlite { .. }));
    assert_eq!(
        err.to_string(),
        "not an SQLite database: the file starts with \"{\\\"hello\\\": \\\"world\""
    );
    let err = Database::from_bytes(b"", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "empty database file (0 bytes) and no committed wal"
    );
    let err = Database::from_bytes(b"SQLite format 3\0abc", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "file of 19 bytes ends inside the 100-byte SQLite header"
    );
    let err = Database::open(&data("missing.db"), &Evidence::new()).unwrap_err();
    assert!(matches!(err, Error::Io { .. }));
}

#[test]
fn empty_main_with_a_wal_reads_the_wal() {
    // The delete transaction of deleted_wal.db rewrote page 1 (the freelist count), so
    // its WAL alone opens; live.db's WAL never wrote page 1.
    let db = Database::from_bytes(b"", Some(&bytes("deleted_wal.db-wal"))).unwrap();
    let p = db.problems();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].kind, ProblemKind::TruncatedMain);
    assert_eq!(
        p[0].message,
        "3 of the database's 12 pages are in neither the main file (0 bytes) nor the wal; read as zeros"
    );
    assert!(db.has_table("notes"));
    let err = Database::from_bytes(b"", Some(&bytes("live.db-wal"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "empty database file (0 bytes) and the wal does not hold page 1"
    );
    // the paged mode reads the same files the same way
    let paged = AnyDatabase::from_bytes(b"", Some(&bytes("deleted_wal.db-wal")), true).unwrap();
    assert_eq!(paged.problems(), p);
    assert!(paged.table_columns("notes").contains(&"title".to_string()));
    let memory = AnyDatabase::from_bytes(b"", Some(&bytes("deleted_wal.db-wal")), false).unwrap();
    let rows = |d: &AnyDatabase| {
        let mut all = Vec::new();
        d.live_rows("notes", &mut |id, v| all.push((id, v)))
            .unwrap();
        all
    };
    let live = rows(&memory);
    assert!(!live.is_empty());
    assert_eq!(rows(&paged), live);
    let deleted = |d: &AnyDatabase| d.deleted_records("notes", &mut |_| {});
    assert_eq!(deleted(&paged), deleted(&memory));
    let err = AnyDatabase::from_bytes(b"", Some(&bytes("live.db-wal")), true).unwrap_err();
    assert_eq!(
        err.to_string(),
        "empty database file (0 bytes) and the wal does not hold page 1"
    );
    let err = AnyDatabase::from_bytes(b"", None, true).unwrap_err();
    assert_eq!(
        err.to_string(),
        "empty database file (0 bytes) and no committed wal"
    );
}

#[test]
fn schema_version_helpers() {
    let db = Database::from_bytes(&bytes("deleted_plain.db"), None).unwrap();
    assert_eq!(db.user_version(), 0);
    assert_eq!(db.sqlx_migrations(), Vec::<i64>::new());
    assert_eq!(db.table_columns("ItemTable"), ["key", "value"]);
    assert_eq!(db.table_columns("nope"), Vec::<String>::new());
    assert!(db.has_table("notes"));
}

#[test]
fn resealing_a_fixture_wal_with_its_own_salts_changes_no_byte() {
    // The fixture builders seal their WALs with fixed salts; sealing again with the same
    // salts must give the same bytes (current generation and older frames alike).
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/evidence/tabby-srv/home/tabby/.tabby/ee/db.sqlite-wal");
    let wal = std::fs::read(&path).unwrap();
    let mut again = wal.clone();
    sqlite_evidence::decode::reseal_wal(&mut again, (0x7ab1_7ab1, 0x0db0_0db0));
    assert_eq!(again, wal);
    let mut other = wal.clone();
    sqlite_evidence::decode::reseal_wal(&mut other, (1, 2));
    assert_ne!(other, wal);
    assert_eq!(other.len(), wal.len());
}
