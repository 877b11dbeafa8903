//! Databases of any size: pages read on demand, records walked and carved as a stream.
//!
//! # Why
//!
//! [`crate::Database`] holds the main file, the WAL and SQLite's copy of the image in
//! memory: about three times the database. Cursor's global `state.vscdb` is never
//! vacuumed and reaches tens of gigabytes on real machines. SQLite cannot be given
//! pages on demand without a custom VFS, which rusqlite does not offer without unsafe
//! code, and the image handed to `sqlite3_deserialize` must be whole.
//!
//! So a large database is not handed to SQLite at all. A [`PageSource`] serves pages
//! from the files as they are asked for: the main file's page with the WAL's latest
//! committed frame for it laid over (the WAL is scanned once, a frame at a time, and
//! only the offset of each page's latest committed frame is kept). [`PagedDatabase`]
//! reads the schema by hand from page 1's b-tree, walks a table's b-tree for its live
//! records, and carves its free space and the freelist one page at a time, handing each
//! record to a callback as it is found. Memory is bounded by the page-number sets of
//! the b-trees walked and the 64-bit fingerprints of the live rows (to drop copies of
//! them), not by the file size. The evidence rules hold: the files are opened
//! read-only through [`chat_rows::Evidence::open_ranged`], nothing is written beside
//! them, no `-shm` is read or made.
//!
//! Older page versions (the main file's page the WAL superseded, frames a later commit
//! superseded, frames outside the committed chain) are read one at a time too, each
//! judged by its own cells (a table leaf is the table's when most of its cells fit it),
//! since rebuilding every snapshot's b-trees would hold them all: the in-memory
//! [`crate::Database`] walks each snapshot and is more exact on small files.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use rusqlite::types::Value;

use crate::decode::{self, DbHeader, FrameStatus, Problem, ProblemKind, WalScan};
use crate::recover::{self, DroppedTable, RecoveredRecord, SchemaEntry, paged_recover};
use crate::{Error, locate};

/// Bytes read by ranges: an evidence file ([`chat_rows::RangedFile`]) or bytes in memory.
pub trait ReadAt: Send + Sync {
    /// The length in bytes.
    fn len(&self) -> u64;
    /// True when empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Fills `buf` from `offset`; returns how many bytes were read (fewer at the end).
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize>;
}

impl ReadAt for chat_rows::RangedFile {
    fn len(&self) -> u64 {
        chat_rows::RangedFile::len(self)
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        chat_rows::RangedFile::read_at(self, offset, buf)
    }
}

impl ReadAt for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let at = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.as_slice().len());
        let n = buf.len().min(self.as_slice().len() - at);
        buf[..n].copy_from_slice(&self[at..at + n]);
        Ok(n)
    }
}

/// A read-only page source: main-file pages with the WAL's latest committed frames laid
/// over them, read on demand.
pub struct PageSource {
    main: Box<dyn ReadAt>,
    wal: Option<Box<dyn ReadAt>>,
    header: DbHeader,
    pages: u32,
    /// Page number → offset in the WAL of its latest committed frame's data.
    latest: HashMap<u32, u64>,
    wal_scan: WalScan,
    problems: Vec<Problem>,
    /// The pages of each b-tree walked so far, by root page: a recovery walks every
    /// b-tree of the image (to tell its own pages from others' and to find orphaned
    /// leaves), and each further table's recovery through this source (Cursor carves
    /// `ItemTable` and then `cursorDiskKV`) would walk them again.
    trees: Mutex<HashMap<u32, Arc<HashSet<u32>>>>,
    /// The pages no b-tree reaches and no freelist lists that begin as a table or
    /// index leaf (page number and first byte), found once by a pass over the file.
    loose_leaves: OnceLock<Arc<Vec<(u32, u8)>>>,
}

impl std::fmt::Debug for PageSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageSource")
            .field("header", &self.header)
            .field("pages", &self.pages)
            .field("wal_pages", &self.latest.len())
            .finish()
    }
}

impl PageSource {
    /// A page source over a main file and its WAL. The WAL is scanned once (header,
    /// salts, cumulative checksums, one frame at a time), with the rules of
    /// [`crate::Database`]: frames up to the last valid commit are applied.
    pub fn new(main: Box<dyn ReadAt>, wal: Option<Box<dyn ReadAt>>) -> Result<PageSource, Error> {
        let mut head = [0u8; decode::HEADER_SIZE];
        let got = main.read_at(0, &mut head).map_err(|source| Error::Io {
            path: "main file".into(),
            source,
        })?;
        // The page size comes from the main file, or from the WAL when the main file is
        // empty (a database whose first transaction was never checkpointed), as
        // `Database` reads it.
        let main_header = if got == 0 {
            None
        } else if got < decode::HEADER_SIZE {
            return Err(Error::TruncatedHeader { len: got });
        } else if &head[..16] != decode::MAGIC {
            return Err(Error::NotSqlite {
                found: format!("{:?}", String::from_utf8_lossy(&head[..16])),
            });
        } else {
            Some(DbHeader::parse(&head).ok_or(Error::BadPageSize {
                field: decode::be16(&head, 16) as u32,
            })?)
        };
        let wal_scan = match &wal {
            Some(w) => decode::scan_wal_with(
                usize::try_from(w.len()).unwrap_or(usize::MAX),
                |at, buf| w.read_at(at as u64, buf).unwrap_or(0),
                main_header.map(|h| h.page_size),
            ),
            None => WalScan::default(),
        };
        let header = match main_header {
            Some(h) => h,
            None => {
                let (Some(w), Some(wh), Some(_)) =
                    (&wal, wal_scan.header, wal_scan.committed_db_size)
                else {
                    return Err(Error::Empty);
                };
                // page 1 as the last commit left it holds the header
                let page_one = wal_scan
                    .frames
                    .iter()
                    .rev()
                    .find(|f| f.status == FrameStatus::Committed && f.page == 1);
                let Some(f) = page_one else {
                    return Err(Error::NoPageOne);
                };
                let got = w
                    .read_at(f.data_range(wh.page_size).start as u64, &mut head)
                    .unwrap_or(0);
                if got < decode::HEADER_SIZE || &head[..16] != decode::MAGIC {
                    return Err(Error::NoPageOne);
                }
                DbHeader::parse(&head).ok_or(Error::BadPageSize {
                    field: decode::be16(&head, 16) as u32,
                })?
            }
        };
        let mut problems = wal_scan.problems.clone();
        let mut latest = HashMap::new();
        for f in &wal_scan.frames {
            if f.status == FrameStatus::Committed && f.page != 0 {
                latest.insert(f.page, f.data_range(header.page_size).start as u64);
            }
        }
        let main_pages = main.len().div_ceil(header.page_size as u64);
        let mut pages = match (wal_scan.committed_db_size, header.size_valid) {
            (Some(n), _) => n,
            (None, true) => header.page_count,
            _ => u32::try_from(main_pages).unwrap_or(u32::MAX),
        };
        let from_wal = latest
            .keys()
            .filter(|&&p| u64::from(p) > main_pages && p <= pages)
            .count() as u64;
        let missing = u64::from(pages)
            .saturating_sub(main_pages)
            .saturating_sub(from_wal);
        // a header or commit that names far more pages than the files hold is read as
        // the pages the files hold (as `Database` does beyond 64 MiB of padding)
        let supplied = main_pages.max(latest.keys().copied().max().map_or(0, u64::from));
        if u64::from(pages) > supplied
            && (u64::from(pages) - supplied).saturating_mul(header.page_size as u64) > 64 << 20
        {
            pages = u32::try_from(supplied).unwrap_or(u32::MAX);
        }
        // a main file shorter than its header says is truncated, as `Database` reports
        // it (a cut inside the last page too, which leaves no page wholly missing)
        let main_needed = if header.size_valid {
            u64::from(header.page_count) * header.page_size as u64
        } else {
            main_pages * header.page_size as u64
        };
        if main_header.is_some() && main.len() < main_needed {
            problems.push(Problem::truncated_main(
                main.len(),
                main_needed,
                header.page_size as u64,
            ));
        } else if missing > 0 {
            problems.push(Problem::missing_pages(
                missing,
                u64::from(pages),
                main.len(),
            ));
        }
        let mut src = PageSource {
            main,
            wal,
            header,
            pages,
            latest,
            wal_scan,
            problems,
            trees: Mutex::default(),
            loose_leaves: OnceLock::new(),
        };
        // the header that counts is the image's page 1 (the WAL's, when it has one):
        // the freelist, the encoding and the schema cookie live there
        if let Some(h) = src.page(1).as_deref().and_then(DbHeader::parse) {
            if h.page_size == src.header.page_size {
                src.header = h;
            }
        }
        let complete = !src
            .problems
            .iter()
            .any(|p| p.kind == ProblemKind::TruncatedMain);
        let freelist = decode::freelist_problems(&src.header, src.pages, complete, |n| src.page(n));
        src.problems.extend(freelist);
        Ok(src)
    }

    /// The database header of the image (page 1 as the WAL leaves it).
    pub fn header(&self) -> &DbHeader {
        &self.header
    }

    /// Pages in the image.
    pub fn page_count(&self) -> u32 {
        self.pages
    }

    /// The WAL as scanned.
    pub fn wal(&self) -> &WalScan {
        &self.wal_scan
    }

    /// The main file's version of page `n`, whatever the WAL holds for it (zeros for
    /// bytes the file lacks); `None` for a page past the main file's end.
    pub fn main_page(&self, n: u32) -> Option<Vec<u8>> {
        let size = self.header.page_size as u64;
        let at = u64::from(n.checked_sub(1)?) * size;
        if at >= self.main.len() {
            return None;
        }
        let mut buf = vec![0u8; size as usize];
        self.main.read_at(at, &mut buf).ok()?;
        Some(buf)
    }

    /// The page data of WAL frame `i` (0-based, as in [`PageSource::wal`]).
    pub fn frame_page(&self, i: usize) -> Option<Vec<u8>> {
        let f = self.wal_scan.frames.get(i)?;
        let w = self.wal.as_ref()?;
        let mut buf = vec![0u8; self.header.page_size];
        let n = w
            .read_at(f.data_range(self.header.page_size).start as u64, &mut buf)
            .ok()?;
        (n == buf.len()).then_some(buf)
    }

    /// Pages of the main file.
    pub fn main_page_count(&self) -> u32 {
        u32::try_from(self.main.len().div_ceil(self.header.page_size as u64)).unwrap_or(u32::MAX)
    }

    /// The pages the WAL's committed frames rewrote, ascending.
    pub fn wal_pages(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.latest.keys().copied().collect();
        v.sort_unstable();
        v
    }

    /// Whether frame `i` is the version of its page the image shows.
    pub fn is_latest(&self, i: usize) -> bool {
        self.wal_scan.frames.get(i).is_some_and(|f| {
            self.latest.get(&f.page) == Some(&(f.data_range(self.header.page_size).start as u64))
        })
    }

    /// The pages of the b-tree rooted at `root`, as `walk` finds them the first time it
    /// is asked for that root (the walks of the image's b-trees give the same pages
    /// every time: the source is read-only).
    pub(crate) fn tree_pages(
        &self,
        root: u32,
        walk: impl FnOnce() -> HashSet<u32>,
    ) -> Arc<HashSet<u32>> {
        if let Some(t) = self.trees.lock().ok().and_then(|m| m.get(&root).cloned()) {
            return t;
        }
        let t = Arc::new(walk());
        if let Ok(mut m) = self.trees.lock() {
            m.insert(root, Arc::clone(&t));
        }
        t
    }

    /// The loose leaf pages (see the field), as `find` finds them the first time.
    pub(crate) fn loose_leaves(
        &self,
        find: impl FnOnce() -> Vec<(u32, u8)>,
    ) -> Arc<Vec<(u32, u8)>> {
        Arc::clone(self.loose_leaves.get_or_init(|| Arc::new(find())))
    }

    /// The first byte of page `n` of the image (its b-tree page type, or the first byte
    /// of an overflow or freelist page's next-page number), read alone; `None` past the
    /// end or where the files lack it.
    pub(crate) fn first_byte(&self, n: u32) -> Option<u8> {
        if n == 0 || n > self.pages {
            return None;
        }
        let size = self.header.page_size;
        let mut b = [0u8; 1];
        let read = match (self.latest.get(&n), &self.wal) {
            (Some(&at), Some(w)) => w.read_at(at, &mut b),
            _ => self.main.read_at(u64::from(n - 1) * size as u64, &mut b),
        };
        Some(if matches!(read, Ok(1)) { b[0] } else { 0 })
    }

    /// Page `n` (1-based) of the image: the WAL's latest committed frame for it, else
    /// the main file's page; bytes the files lack read as zeros. `None` past the end.
    pub fn page(&self, n: u32) -> Option<Vec<u8>> {
        if n == 0 || n > self.pages {
            return None;
        }
        let size = self.header.page_size;
        let mut buf = vec![0u8; size];
        let read = match (self.latest.get(&n), &self.wal) {
            (Some(&at), Some(w)) => w.read_at(at, &mut buf),
            _ => self.main.read_at(u64::from(n - 1) * size as u64, &mut buf),
        };
        if read.is_err() {
            buf.fill(0);
        }
        Some(buf)
    }
}

/// A database read page by page (see the module docs): for files too large for
/// [`crate::Database`].
#[derive(Debug)]
pub struct PagedDatabase {
    src: PageSource,
    /// Whether page 1's b-tree is whole, found once on first use.
    readable: OnceLock<bool>,
    /// The dropped tables, found once on first use.
    dropped: OnceLock<Vec<DroppedTable>>,
}

impl PagedDatabase {
    /// Opens `path` and `path-wal` read-only through `evidence` (recorded in its
    /// manifest; hashed by streaming when hashing is on). Never writes, locks or creates
    /// a file; never reads the `-shm`.
    pub fn open(path: &Path, evidence: &chat_rows::Evidence) -> Result<PagedDatabase, Error> {
        let main = evidence.open_ranged(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let wal_path = locate::wal_path(path);
        let (wal, problem): (Option<Box<dyn ReadAt>>, Option<Problem>) =
            match evidence.open_ranged(&wal_path) {
                Ok(w) => (Some(Box::new(w)), None),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => (None, None),
                Err(e) => (
                    None,
                    Some(Problem::new(
                        ProblemKind::WalUnreadable,
                        "wal file",
                        format!("wal left out ({e}); the main file was read without it"),
                    )),
                ),
            };
        let mut src = PageSource::new(Box::new(main), wal)?;
        if let Some(p) = problem {
            src.problems.insert(0, p);
        }
        Ok(PagedDatabase::new(src))
    }

    /// A paged database over any two byte sources (a main file and its WAL).
    pub fn from_readers(
        main: Box<dyn ReadAt>,
        wal: Option<Box<dyn ReadAt>>,
    ) -> Result<PagedDatabase, Error> {
        Ok(PagedDatabase::new(PageSource::new(main, wal)?))
    }

    fn new(src: PageSource) -> PagedDatabase {
        PagedDatabase {
            src,
            readable: OnceLock::new(),
            dropped: OnceLock::new(),
        }
    }

    /// The page source.
    pub fn source(&self) -> &PageSource {
        &self.src
    }

    /// Damage found while opening.
    pub fn problems(&self) -> &[Problem] {
        &self.src.problems
    }

    /// The schema records, read by hand from page 1's b-tree and, when it is not
    /// whole ([`PagedDatabase::schema_readable`]), from every table leaf page whose
    /// cells fit `sqlite_master` (see [`crate::Database::schema_entries`]).
    pub fn schema_entries(&self) -> Vec<SchemaEntry> {
        paged_recover::schema_entries(&self.src, self.schema_readable())
    }

    /// Whether the schema can be read: page 1's b-tree is whole (every page it names is
    /// in the files and is a b-tree page). When it is not (a truncated or damaged
    /// file), [`PagedDatabase::deleted_records`] reads each table whose `CREATE TABLE`
    /// text survives from its root page and from every leaf page whose cells fit it,
    /// and returns its records as [`crate::Reach::Unreachable`], as
    /// [`crate::Database::schema_readable`] does.
    pub fn schema_readable(&self) -> bool {
        *self
            .readable
            .get_or_init(|| paged_recover::schema_readable(&self.src))
    }

    /// The tables dropped from the schema whose `CREATE TABLE` text survives in a freed
    /// schema record (page 1's free space and older versions, the freelist), as
    /// [`crate::Database::dropped_tables`] finds them; [`PagedDatabase::deleted_records`]
    /// with such a name reads the dropped table's records. Found once, on first use.
    pub fn dropped_tables(&self) -> &[DroppedTable] {
        self.dropped
            .get_or_init(|| paged_recover::dropped_tables(&self.src, self.schema_readable()))
    }

    /// Where the WAL holds the live rows of a rowid table, by rowid, as
    /// [`crate::Database::wal_places`] gives them (the same walk of the same pages).
    pub fn wal_places(&self, table: &str) -> std::collections::HashMap<i64, String> {
        crate::place_texts(recover::paged_wal_places(&self.src, table))
    }

    /// Hands every live record of `table` to `each` (its rowid and values, the rowid
    /// alias filled), walking the table's b-tree one page at a time; returns how many.
    /// A `WITHOUT ROWID` table (an index b-tree, whose interior pages hold rows too)
    /// has no rowid: `0` is handed in its place. Zero for an unknown table.
    pub fn live_records(&self, table: &str, each: &mut dyn FnMut(i64, Vec<Value>)) -> usize {
        recover::paged_live(&self.src, table, each)
    }

    /// [`PagedDatabase::live_records`] for the records whose first stored column `keep`
    /// accepts (a key column: `ItemTable.key`, Cursor's `cursorDiskKV.key`), given with
    /// the record's stored length (header and body, in bytes). `keep` is asked once per
    /// record, of the column as the cell's own bytes hold it, before any of the record's
    /// overflow pages is read: a refused record costs its cell, not its value (a walk for
    /// a few keys of a table of large spilled values reads the leaf pages only; a
    /// `keep` that counts and refuses every record sizes a table without reading one
    /// overflow page). Where the first column itself spills, the record is read and then
    /// asked. A rowid alias as first column is stored as NULL, and asked as NULL.
    pub fn live_records_where(
        &self,
        table: &str,
        keep: &mut dyn FnMut(&Value, usize) -> bool,
        each: &mut dyn FnMut(i64, Vec<Value>),
    ) -> usize {
        recover::paged_live_where(&self.src, table, keep, each)
    }

    /// Hands every deleted record of `table` that the files still hold (freeblocks,
    /// unallocated space, cells no pointer names, freelist pages, older page versions,
    /// table leaf pages no b-tree reaches) to `each` as it is found, one page at a
    /// time; returns how many. Copies of live rows are dropped (by 64-bit fingerprints
    /// of the live rows, taken in a first walk), and so are carved records that fit a
    /// dropped table of another shape (they are that table's). `sqlite_master` gives
    /// the freed schema records; a dropped table's name ([`PagedDatabase::dropped_tables`])
    /// its records by its recovered text; a table of an unreadable schema its records as
    /// unreachable.
    pub fn deleted_records(&self, table: &str, each: &mut dyn FnMut(RecoveredRecord)) -> usize {
        let readable = self.schema_readable();
        let is_live = !table.eq_ignore_ascii_case("sqlite_master")
            && !table.eq_ignore_ascii_case("sqlite_schema");
        // the dropped tables are needed for a live table's attribution and for a
        // name the live schema lacks
        let dropped: &[DroppedTable] = if is_live { self.dropped_tables() } else { &[] };
        paged_recover::deleted(&self.src, table, readable, dropped, each)
    }

    /// The column names of a table, in order, from its `CREATE TABLE` text (read by
    /// SQLite in a private in-memory database); empty when there is no such table.
    pub fn table_columns(&self, table: &str) -> Vec<String> {
        self.schema_entries()
            .into_iter()
            .find(|e| e.kind == "table" && e.name == table)
            .map(|e| create_columns(&e.sql))
            .unwrap_or_default()
    }

    /// The set of page numbers of every b-tree of the schema (for diagnostics).
    pub fn tree_pages(&self) -> HashSet<u32> {
        recover::paged_tree_pages(&self.src)
    }
}

/// The column names a `CREATE TABLE` text declares, as SQLite reads them in a private
/// in-memory database (one statement, nothing attached, the schema untrusted).
fn create_columns(sql: &str) -> Vec<String> {
    let head = sql.trim_start();
    if !head
        .get(..12)
        .is_some_and(|h| h.eq_ignore_ascii_case("CREATE TABLE"))
    {
        return Vec::new();
    }
    let read = || -> rusqlite::Result<Vec<String>> {
        let conn = rusqlite::Connection::open_in_memory()?;
        conn.execute_batch("PRAGMA trusted_schema = OFF;")?;
        conn.execute(sql, [])?;
        let name: String = conn.query_row(
            "SELECT name FROM sqlite_schema WHERE type = 'table' LIMIT 1",
            [],
            |r| r.get(0),
        )?;
        let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?;
        let names = stmt
            .query_map([name], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(names)
    };
    read().unwrap_or_default()
}
