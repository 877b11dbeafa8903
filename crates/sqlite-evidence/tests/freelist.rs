//! A damaged or forged freelist is reported, in both reading modes, as one problem per
//! fault and trunk page: SQLite writes none of these, so each is a sign of damage or
//! tampering worth a `parser:` row. The database is built here by SQLite (1 KiB pages,
//! 700 rows deleted: a freelist of three trunk pages) and then forged byte by byte.

use sqlite_evidence::paged::PagedDatabase;
use sqlite_evidence::{Database, Problem, ProblemKind};

const PAGE: usize = 1024;

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

fn put(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

/// The file, and its freelist's trunk pages in chain order with their leaf counts.
fn built() -> (Vec<u8>, Vec<(u32, u32)>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let conn = sqlite_evidence::rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 1024; PRAGMA journal_mode = DELETE;
         CREATE TABLE t (x TEXT);",
    )
    .unwrap();
    conn.execute_batch("BEGIN").unwrap();
    for i in 0..700 {
        conn.execute(
            "INSERT INTO t VALUES (?1)",
            [format!("{i} {}", "x".repeat(600))],
        )
        .unwrap();
    }
    conn.execute_batch("COMMIT").unwrap();
    conn.execute("DELETE FROM t", []).unwrap();
    drop(conn);
    let file = std::fs::read(&path).unwrap();
    let mut trunks = Vec::new();
    let mut trunk = be32(&file, 32);
    while trunk != 0 {
        let at = (trunk as usize - 1) * PAGE;
        trunks.push((trunk, be32(&file, at + 4)));
        trunk = be32(&file, at);
    }
    (file, trunks)
}

fn page_count(file: &[u8]) -> u32 {
    (file.len() / PAGE) as u32
}

/// The freelist problems of both modes, which must agree.
fn problems(file: &[u8]) -> Vec<(String, String)> {
    let pick = |p: &[Problem]| -> Vec<(String, String)> {
        p.iter()
            .filter(|p| p.kind == ProblemKind::Freelist)
            .map(|p| (p.location.clone(), p.message.clone()))
            .collect()
    };
    let memory = pick(Database::from_bytes(file, None).unwrap().problems());
    let paged = pick(
        PagedDatabase::from_readers(Box::new(file.to_vec()), None)
            .unwrap()
            .problems(),
    );
    assert_eq!(memory, paged);
    memory
}

fn one(location: String, message: String) -> Vec<(String, String)> {
    vec![(location, message)]
}

#[test]
fn a_freelist_sqlite_wrote_gives_no_problem() {
    let (file, trunks) = built();
    assert_eq!(trunks.len(), 3, "{trunks:?}");
    let listed: u32 = trunks.iter().map(|&(_, n)| n + 1).sum();
    assert_eq!(listed, be32(&file, 36));
    let db = Database::from_bytes(&file, None).unwrap();
    assert_eq!(db.problems(), &[] as &[Problem]);
}

#[test]
fn a_header_count_the_chain_does_not_match_is_reported() {
    let (mut file, _) = built();
    let count = be32(&file, 36);
    put(&mut file, 36, count + 5);
    assert_eq!(
        problems(&file),
        one(
            "page 1".into(),
            format!(
                "the header says the freelist holds {} pages, its trunk chain lists {count}",
                count + 5
            )
        )
    );
}

#[test]
fn a_trunk_chain_that_loops_is_read_once_and_reported() {
    let (mut file, trunks) = built();
    let (last, first) = (trunks[2].0, trunks[0].0);
    put(&mut file, (last as usize - 1) * PAGE, first);
    assert_eq!(
        problems(&file),
        one(
            format!("page {last}"),
            format!(
                "freelist trunk page {first}, named by freelist trunk page {last}, was met before in the freelist (a loop): the freelist is read once"
            )
        )
    );
    // the loop is walked once: the rows are carved as from the sound list
    let (sound, _) = built();
    let carved = |f: &[u8]| {
        Database::from_bytes(f, None)
            .unwrap()
            .deleted_records("t")
            .len()
    };
    assert_eq!(carved(&file), carved(&sound));
    assert!(carved(&sound) > 600, "{}", carved(&sound));
}

#[test]
fn a_trunk_past_the_end_is_reported_where_it_is_named() {
    let (mut file, trunks) = built();
    let pages = page_count(&file);
    put(&mut file, 32, pages + 10);
    assert_eq!(
        problems(&file),
        one(
            "page 1".into(),
            format!(
                "freelist trunk page {}, named by the header, is past the database's end ({pages} pages): the freelist is read up to it",
                pages + 10
            )
        )
    );
    let middle = trunks[1].0;
    let (mut file, _) = built();
    put(&mut file, (middle as usize - 1) * PAGE, 0xffff_fff0);
    assert_eq!(
        problems(&file),
        one(
            format!("page {middle}"),
            format!(
                "freelist trunk page 4294967280, named by freelist trunk page {middle}, is past the database's end ({pages} pages): the freelist is read up to it"
            )
        )
    );
    // the trunk and leaves cut off are carved all the same, as pages nothing names
    let (sound, _) = built();
    let carved = |f: &[u8]| {
        let mut texts: Vec<String> = Database::from_bytes(f, None)
            .unwrap()
            .deleted_records("t")
            .into_iter()
            .map(|r| format!("{:?}", r.values))
            .collect();
        texts.sort();
        texts.dedup();
        texts
    };
    assert_eq!(carved(&file), carved(&sound));
    assert!(carved(&sound).len() > 600, "{}", carved(&sound).len());
}

#[test]
fn a_trunk_claiming_more_leaves_than_a_page_lists_is_read_to_the_page_end() {
    let (mut file, trunks) = built();
    // SQLite fills a trunk to usable/4 - 8 leaves and reads up to usable/4 - 2
    let (full, n) = trunks[2];
    assert_eq!(n, 248, "the oldest trunk is full");
    let at = (full as usize - 1) * PAGE;
    put(&mut file, at + 4, 300);
    file[at + 8 + 4 * 248..at + PAGE].fill(0);
    assert_eq!(
        problems(&file),
        vec![
            (
                format!("page {full}"),
                format!(
                    "freelist trunk page {full} claims 300 leaves, more than a page of 1024 usable bytes lists (254): its first 254 are read"
                )
            ),
            (
                format!("page {full}"),
                format!(
                    "freelist trunk page {full} lists 6 page numbers outside the database's {} pages, the first 0",
                    page_count(&file)
                )
            ),
        ]
    );
}

#[test]
fn leaves_outside_the_file_or_listed_twice_are_counted_per_trunk() {
    let (mut file, trunks) = built();
    let pages = page_count(&file);
    let (trunk, _) = trunks[1];
    let at = (trunk as usize - 1) * PAGE;
    let earlier = be32(&file, at + 8);
    put(&mut file, at + 8 + 4 * 3, pages + 1);
    put(&mut file, at + 8 + 4 * 4, 0);
    put(&mut file, at + 8 + 4 * 5, earlier);
    // a leaf of the first trunk, listed again by the second
    let other = be32(&file, (trunks[0].0 as usize - 1) * PAGE + 8);
    put(&mut file, at + 8 + 4 * 6, other);
    assert_eq!(
        problems(&file),
        vec![
            (
                format!("page {trunk}"),
                format!(
                    "freelist trunk page {trunk} lists 2 page numbers outside the database's {pages} pages, the first {}",
                    pages + 1
                )
            ),
            (
                format!("page {trunk}"),
                format!(
                    "freelist trunk page {trunk} lists 2 pages met before in the freelist, the first {earlier}"
                )
            ),
        ]
    );
    // one of each
    let (mut file, _) = built();
    put(&mut file, at + 8 + 4 * 3, 0);
    put(&mut file, at + 8 + 4 * 5, earlier);
    assert_eq!(
        problems(&file),
        vec![
            (
                format!("page {trunk}"),
                format!(
                    "freelist trunk page {trunk} lists 1 page number outside the database's {pages} pages, the first 0"
                )
            ),
            (
                format!("page {trunk}"),
                format!(
                    "freelist trunk page {trunk} lists 1 page met before in the freelist, the first {earlier}"
                )
            ),
        ]
    );
}

#[test]
fn a_truncated_file_is_not_also_blamed_for_its_freelist_count() {
    let (file, trunks) = built();
    // cut after the first trunk's page, so later trunks read as zeros
    let cut = trunks.iter().map(|&(t, _)| t).max().unwrap() as usize - 1;
    let file = &file[..cut * PAGE];
    let db = Database::from_bytes(file, None).unwrap();
    assert!(
        db.problems()
            .iter()
            .all(|p| p.kind != ProblemKind::Freelist),
        "{:?}",
        db.problems()
    );
    assert!(
        db.problems()
            .iter()
            .any(|p| p.kind == ProblemKind::TruncatedMain)
    );
}

#[test]
fn a_forged_list_of_every_page_is_checked_in_one_pass() {
    // every trunk slot of a 64 KiB-page file names page 2: 16,382 entries a trunk,
    // a chain of 200 trunks, each met once
    let page = 65536usize;
    let pages = 202u32;
    let mut file = vec![0u8; page * pages as usize];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    let conn = sqlite_evidence::rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "PRAGMA page_size = 65536; PRAGMA journal_mode = DELETE; CREATE TABLE t (x);",
    )
    .unwrap();
    drop(conn);
    let real = std::fs::read(&path).unwrap();
    assert_eq!(real.len(), 2 * page);
    file[..2 * page].copy_from_slice(&real);
    put(&mut file, 28, pages);
    put(&mut file, 32, 3);
    let slots = (page / 4 - 2) as u32;
    for t in 3..=pages {
        let at = (t as usize - 1) * page;
        put(&mut file, at, if t == pages { 0 } else { t + 1 });
        put(&mut file, at + 4, slots);
        for k in 0..slots as usize {
            put(&mut file, at + 8 + 4 * k, 2);
        }
    }
    put(&mut file, 36, 200 * (slots + 1));
    let found = problems(&file);
    assert_eq!(found.len(), 200);
    assert_eq!(
        found[0],
        (
            "page 3".to_string(),
            format!(
                "freelist trunk page 3 lists {} pages met before in the freelist, the first 2",
                slots - 1
            )
        )
    );
    assert_eq!(
        found[199].1,
        format!(
            "freelist trunk page {pages} lists {slots} pages met before in the freelist, the first 2"
        )
    );
}
