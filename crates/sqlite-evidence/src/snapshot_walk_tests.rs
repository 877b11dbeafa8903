//! The incremental walk of the WAL's snapshots ([`TreeWalk`], the schema read again
//! only after a commit that wrote one of its pages, the running snapshot lent instead
//! of copied, a spilled cell decoded again only when its chain changed: [`ChainMemo`])
//! against the walk it replaced (`Walker::Reference`): the same records, in the same
//! order, with the same locations, on generated WALs of many commits (growing and
//! shrinking tables of both kinds, spilled values, some rewritten at the same size so
//! that only overflow pages change, tables created and dropped in the WAL), and on the
//! same WALs with their interior pages and main file tampered
//! with (children pointing anywhere: cycles, shared subtrees, pages of other trees;
//! the checksums made good again, so that the tampered frames are committed).

use super::*;
use crate::decode::wal_checksum;

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// A database whose WAL holds several hundred commits after a checkpointed start, and
/// the names of its tables (live and dropped).
fn generate(seed: u64) -> (Vec<u8>, Vec<u8>, Vec<String>) {
    let mut r = Lcg(seed * 7_919 + 11);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let page = [1024, 4096][seed as usize % 2];
    // (on 1,024-byte pages `t`'s schema record spills onto three overflow pages)
    let long = "Q".repeat(3000);
    conn.execute_batch(&format!(
        "PRAGMA page_size = {page}; PRAGMA secure_delete = OFF; PRAGMA journal_mode = WAL;
         PRAGMA wal_autocheckpoint = 0;
         CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, a TEXT, b TEXT
             CHECK (b <> '{long}'));
         CREATE TABLE w (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
         CREATE INDEX t_k ON t(k);"
    ))
    .unwrap();
    // a schema of several pages (page 1 an interior page), one record spilling: a
    // table created, altered or dropped rewrites a schema leaf, not always page 1
    for i in 0..24 {
        let cols: Vec<String> = (0..4 + i % 5)
            .map(|c| format!("column_with_a_long_name_{c} TEXT"))
            .collect();
        conn.execute_batch(&format!("CREATE TABLE pad{i} ({})", cols.join(", ")))
            .unwrap();
    }
    let cols: Vec<String> = (0..60).map(|c| format!("wide_column_{c} TEXT")).collect();
    conn.execute_batch(&format!("CREATE TABLE wide ({})", cols.join(", ")))
        .unwrap();
    let text = |r: &mut Lcg, n: u64| -> String {
        let words = ["alpha", "bravo", "delta", "kilo", "lima", "oscar", "zulu"];
        (0..1 + r.next(n))
            .map(|_| words[r.next(7) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut id = 0i64;
    let mut extra = 0;
    for round in 0..200 + r.next(150) {
        if round == 40 {
            conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
                .unwrap();
        }
        if round == 190 && seed % 4 >= 2 {
            // the next commit starts the WAL again: the frames after its own stay, an
            // older generation
            conn.execute_batch("PRAGMA wal_checkpoint(PASSIVE)")
                .unwrap();
        }
        let tx = conn.unchecked_transaction().unwrap();
        match r.next(23) {
            0..=8 => {
                id += 1;
                let spill = if r.next(8) == 0 {
                    "x".repeat(900 + r.next(5000) as usize)
                } else {
                    String::new()
                };
                let b = format!("{}{spill}", text(&mut r, 4));
                tx.execute(
                    "INSERT INTO t VALUES (?1, ?2, ?3, ?4)",
                    rusqlite::params![
                        id,
                        format!("key {:06}", id * 37 % 1000),
                        text(&mut r, 12),
                        b
                    ],
                )
                .unwrap();
            }
            9..=11 => {
                let k = format!("doc/{:04}", r.next(400));
                let v = if r.next(10) == 0 {
                    "y".repeat(800 + r.next(3000) as usize)
                } else {
                    text(&mut r, 10)
                };
                tx.execute("INSERT OR REPLACE INTO w VALUES (?1, ?2)", [k, v])
                    .unwrap();
            }
            12 | 13 => {
                tx.execute(
                    "DELETE FROM t WHERE id % ?1 = ?2",
                    [2 + r.next(9) as i64, r.next(2) as i64],
                )
                .unwrap();
            }
            14 => {
                tx.execute(
                    "DELETE FROM w WHERE k < ?1",
                    [format!("doc/{:04}", r.next(200))],
                )
                .unwrap();
            }
            15 | 16 => {
                tx.execute(
                    "UPDATE t SET a = a || ' ' || a WHERE id % ?1 = 1",
                    [3 + r.next(7) as i64],
                )
                .unwrap();
            }
            17 => {
                // a table created in the WAL, filled, and dropped later (its pages go
                // to the freelist, then to the other tables)
                extra += 1;
                tx.execute_batch(&format!(
                    "CREATE TABLE IF NOT EXISTS e{extra} (id INTEGER PRIMARY KEY, note TEXT);
                     INSERT INTO e{extra} (note) SELECT a FROM t LIMIT 40;"
                ))
                .unwrap();
            }
            18 if extra > 0 => {
                tx.execute_batch(&format!("DROP TABLE IF EXISTS e{}", 1 + r.next(extra)))
                    .unwrap();
            }
            20 | 21 => {
                // spilled values rewritten at the same size from a point on: SQLite
                // writes only the overflow pages whose bytes change (from the first or
                // a later one), not the leaf
                let cut = [1000, 2500][r.next(2) as usize];
                tx.execute(
                    "UPDATE t SET b = substr(b, 1, ?2) || CASE WHEN substr(b, ?2 + 1, 1) = 'x'
                     THEN upper(substr(b, ?2 + 1)) ELSE lower(substr(b, ?2 + 1)) END
                     WHERE length(b) > ?2 + 200 AND id % ?1 = 0",
                    [1 + r.next(3) as i64, cut],
                )
                .unwrap();
            }
            19 => {
                tx.execute_batch(&format!(
                    "ALTER TABLE pad{} ADD COLUMN added_{round} TEXT",
                    r.next(24)
                ))
                .unwrap();
            }
            _ => {
                tx.execute(
                    "UPDATE w SET v = v || ' more' WHERE k > ?1",
                    [format!("doc/{:04}", r.next(400))],
                )
                .unwrap();
            }
        }
        tx.commit().unwrap();
    }
    let main = std::fs::read(&path).unwrap();
    let wal = std::fs::read(dir.path().join("db.sqlite-wal")).unwrap();
    drop(conn);
    let mut tables = vec![
        "t".to_string(),
        "w".to_string(),
        "sqlite_master".to_string(),
    ];
    tables.extend((1..=extra).map(|e| format!("e{e}")));
    (main, wal, tables)
}

/// The page data of each frame of `wal` (offsets), and of the main file's pages.
fn frame_offsets(wal: &[u8], page: usize) -> Vec<usize> {
    (0..)
        .map(|i| 32 + i * (24 + page) + 24)
        .take_while(|&at| at + page <= wal.len())
        .collect()
}

/// Points children of interior pages (in WAL frames and in the main file) at random
/// pages, and makes the WAL's checksums good again.
fn tamper(main: &mut [u8], wal: &mut [u8], r: &mut Lcg) {
    let page = be32(wal, 8) as usize;
    let pages = (main.len() / page).max(1) as u64 + 4;
    let mut spots: Vec<(bool, usize)> = frame_offsets(wal, page)
        .into_iter()
        .map(|at| (true, at))
        .chain((0..main.len() / page).map(|p| (false, p * page)))
        .collect();
    // the interior pages of both files
    spots.retain(|&(in_wal, at)| {
        let b = if in_wal {
            &wal[at..at + page]
        } else {
            &main[at..at + page]
        };
        let h = if b.starts_with(crate::decode::MAGIC) {
            100
        } else {
            0
        };
        matches!(b[h], 0x05 | 0x02)
    });
    if spots.is_empty() {
        return;
    }
    for _ in 0..1 + r.next(6) {
        let (in_wal, at) = spots[r.next(spots.len() as u64) as usize];
        let b = if in_wal {
            &mut wal[at..at + page]
        } else {
            &mut main[at..at + page]
        };
        let h = if b.starts_with(crate::decode::MAGIC) {
            100
        } else {
            0
        };
        let n = be16(b, h + 3) as u64;
        let to = (1 + r.next(pages) as u32).to_be_bytes();
        let slot = match r.next(n + 1) {
            k if k == n => h + 8,
            k => be16(b, h + 12 + 2 * k as usize) as usize,
        };
        if let Some(s) = b.get_mut(slot..slot + 4) {
            s.copy_from_slice(&to);
        }
    }
    fix_checksums(wal);
}

/// The checksums, frame after frame, as SQLite computes them.
fn fix_checksums(wal: &mut [u8]) {
    let page = be32(wal, 8) as usize;
    let big = be32(wal, 0) & 1 == 1;
    let mut sum = (be32(wal, 24), be32(wal, 28));
    for at in frame_offsets(wal, page) {
        let hdr = at - 24;
        sum = wal_checksum(big, &wal[hdr..hdr + 8], sum);
        sum = wal_checksum(big, &wal[at..at + page], sum);
        wal[hdr + 16..hdr + 20].copy_from_slice(&sum.0.to_be_bytes());
        wal[hdr + 20..hdr + 24].copy_from_slice(&sum.1.to_be_bytes());
    }
}

/// Appends forged commits to `wal` that rewrite a page the schema reading reads other
/// than page 1 (SQLite itself rewrites page 1 with every schema change: its schema
/// cookie), so that only a reading that watches that page sees the change: `t`'s
/// schema leaf with its schema records' letters capitalized (`TABLE`, `T`: no table
/// `t` then) or the first overflow page of `t`'s schema record ending the chain early
/// (no record then), and while it lasts a new version of a leaf of `t` that no later
/// snapshot keeps (a walk that missed the change would decode it); then the page
/// restored. `None` when `t`'s record is on page 1.
fn forge(main: &[u8], wal: &[u8], chain: bool) -> Option<Vec<u8>> {
    let db = Database::from_bytes(main, Some(wal)).unwrap();
    let page = db.header.page_size;
    let rec = Recoverer::new(&db, TableShape::master());
    let image = |p: u32| rec.pages.bytes(rec.current(p)).map(|b| b.to_vec());
    let find = |ok: &dyn Fn(&[u8]) -> bool| {
        (2..=db.image_pages).find(|&p| image(p).is_some_and(|b| ok(&b)))
    };
    let contains = |b: &[u8], what: &[u8]| b.windows(what.len()).any(|w| w == what);
    let schema_page = if chain {
        // the first overflow page of `t`'s record: its text, and a next page
        find(&|b| be32(b, 0) != 0 && b[4..].iter().all(|&c| c == b'Q'))?
    } else {
        find(&|b| b[0] == 0x0d && contains(b, b"CREATE TABLE t ("))?
    };
    let root = db
        .connection()
        .query_row(
            "SELECT rootpage FROM sqlite_schema WHERE name = 't'",
            [],
            |r| r.get::<_, u32>(0),
        )
        .unwrap();
    let mut tree = HashSet::new();
    tree_pages(&rec.pages, &rec.current, root, &mut tree);
    let leaf = *tree
        .iter()
        .filter(|&&p| image(p).is_some_and(|b| b[0] == 0x0d && be16(&b, 3) > 0))
        .min()?;
    let (original, leaf_bytes) = (image(schema_page)?, image(leaf)?);
    let mut forged = original.clone();
    if chain {
        forged[..4].copy_from_slice(&[0; 4]);
    } else {
        let content = be16(&forged, 5) as usize;
        forged[content..].make_ascii_uppercase();
    }
    // a new version of `t`'s leaf: the letters of its texts capitalized from a point
    // of its cell content area on
    let leaf_version = |from: usize| {
        let mut b = leaf_bytes.clone();
        let content = be16(&b, 5) as usize;
        let at = content + (page - content) * from / 2;
        b[at..].make_ascii_uppercase();
        b
    };
    let size = db.image_pages;
    // (after the current generation's frames: an older one's after them is cut)
    let committed = db
        .wal_scan
        .frames
        .iter()
        .take_while(|f| f.status == FrameStatus::Committed)
        .count();
    let mut out = wal[..32 + committed * (24 + page)].to_vec();
    let commits = [
        vec![(schema_page, forged)],
        vec![(leaf, leaf_version(0))],
        vec![(leaf, leaf_version(1)), (schema_page, original)],
    ];
    for commit in commits {
        let last = commit.len() - 1;
        for (k, (p, data)) in commit.into_iter().enumerate() {
            let mut hdr = [0u8; 24];
            hdr[..4].copy_from_slice(&p.to_be_bytes());
            if k == last {
                hdr[4..8].copy_from_slice(&size.to_be_bytes());
            }
            hdr[8..16].copy_from_slice(&wal[16..24]);
            out.extend_from_slice(&hdr);
            out.extend_from_slice(&data[..page]);
        }
    }
    fix_checksums(&mut out);
    Some(out)
}

/// Every table's records by both walks; returns how many and how many frames were
/// committed.
fn compare(main: &[u8], wal: &[u8], tables: &[String], what: &str) -> (usize, usize) {
    let db = Database::from_bytes(main, Some(wal)).unwrap();
    let committed = db
        .wal_scan
        .frames
        .iter()
        .filter(|f| f.status == FrameStatus::Committed)
        .count();
    let mut total = 0;
    for t in tables {
        let new = deleted_records_by(&db, t, Walker::Incremental);
        let old = deleted_records_by(&db, t, Walker::Reference);
        if new != old {
            let at = new.iter().zip(&old).position(|(a, b)| a != b);
            panic!(
                "{what}, table {t}: {} records, the reference {}; first difference at {at:?}: {:?}",
                new.len(),
                old.len(),
                at.map(|i| (&new[i].location, &old[i].location))
            );
        }
        total += new.len();
    }
    (total, committed)
}

#[test]
fn the_incremental_walk_gives_what_the_whole_walk_gave() {
    let (mut records, mut frames, mut tampered, mut forged) = (0, 0, 0, Vec::new());
    for seed in 0..4 {
        let (main, wal, tables) = generate(seed);
        let (n, f) = compare(&main, &wal, &tables, &format!("seed {seed}"));
        records += n;
        frames += f;
        let mut r = Lcg(seed);
        for variant in 0..3 {
            let (mut m, mut w) = (main.clone(), wal.clone());
            tamper(&mut m, &mut w, &mut r);
            let (n, g) = compare(&m, &w, &tables, &format!("seed {seed} variant {variant}"));
            // (every tampered frame is still committed)
            assert_eq!(g, f, "seed {seed} variant {variant}");
            tampered += n;
        }
        for chain in [false, true] {
            if let Some(w) = forge(&main, &wal, chain) {
                let (n, g) = compare(&main, &w, &tables, &format!("seed {seed} forged {chain}"));
                assert_eq!(g, f + 3 + 1, "seed {seed} forged {chain}");
                forged.push(n);
            }
        }
    }
    assert_eq!(
        (records, frames, tampered, forged),
        (1653, 1746, 5046, vec![315, 310, 498, 81, 76, 387])
    );
}
