//! Recovery of deleted records: what the file still holds and SQLite no longer shows.
//!
//! # Where deleted records survive
//!
//! * **Older page versions.** A WAL holds every version of a page written since the
//!   last checkpoint, and the main file holds the version from before the WAL. A row
//!   deleted (or rewritten) by a later commit is intact in the earlier versions. For
//!   every snapshot the files describe (the main file alone, then the state after each
//!   commit) the table's b-tree is walked from its root page, so each page version is
//!   known to belong to the table: its cells are whole records with their rowids.
//! * **Frames outside the committed chain** (uncommitted, torn-off, an older WAL
//!   generation): decoded like pages of unknown owner (see below).
//! * **Freelist pages** of the current image: a freed table leaf keeps its cells unless
//!   `secure_delete` zeroed it; a trunk page keeps what lies after its page list.
//! * **Freeblocks and unallocated space** inside the table's pages: a deleted cell
//!   stays in place, with only its first four bytes overwritten by the freeblock link.
//!
//! # Deciding what a record is
//!
//! Cells of a page known to be the table's are decoded as SQLite would. Anything else
//! (pages of unknown owner, carved space) must match the table's schema strictly: the
//! exact column count, a serial type each column's affinity can hold (no blob in a TEXT
//! or NUMERIC column, no real in an INTEGER one, no real of absurd magnitude), NOT NULL
//! and non-INTEGER PRIMARY KEY columns not NULL, the rowid alias stored as NULL, text
//! that is valid in the database encoding, and a body that ends inside the free region.
//! A record identical (in every column but the rowid alias) to a live row, or to one
//! already recovered, is dropped; an integral value of a REAL column is read back as a
//! real, as SQLite does, or a moved copy of a live row would never match it.
//!
//! # Why a database that never had a delete yields nothing
//!
//! Free space is full of bytes that are not deleted records, and each kind once read as
//! records that fit the schema:
//!
//! * **copies of live rows** that SQLite moved when it split or rebalanced a page (the
//!   old page keeps them in its gap): dropped as identical to the live row;
//! * **cell pointer arrays**: the start of a page's gap is what was its pointer array
//!   when it held more cells; nothing is carved where the bytes still read as offsets;
//! * **other b-trees' pages**: a WAL frame outside the committed chain, or a freelist
//!   page, may have been another table's or an index's. Its own cells say whose it
//!   was (index pages never hold table records; a leaf is this table's only when at
//!   least half its cells fit); a page without cells is judged by which b-tree its
//!   page number belongs to in the main file and in the image;
//! * **freeblocks whose tail SQLite reused**: SQLite allocates a new cell from the end
//!   of a freeblock, so a freed cell often keeps its head and loses its tail. A rebuilt
//!   cell must fill its freeblock exactly, its lost length and rowid varints must be
//!   able to hold its payload length and a rowid the table has had, and a first column
//!   whose length is inferred from the freeblock's size is refused when the bytes read
//!   as a cell that kept its header and lost its tail to the cell that follows, or
//!   begin with a known row's first column that the inference would cut.
//!
//! Nothing is invented: zeroed space (`secure_delete`), a `VACUUM`ed file and
//! databases that only ever had inserts and updates (`tests/no_delete.rs`) yield none.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::types::Value;

use crate::Database;
use crate::decode::{DbHeader, FrameStatus, be16, be32, varint};
use crate::paged::PageSource;

#[cfg(test)]
#[path = "carve_gate_tests.rs"]
mod carve_gate_tests;
#[path = "carve_memo.rs"]
mod carve_memo;
#[cfg(test)]
#[path = "freelist_tests.rs"]
mod freelist_tests;
#[path = "index_tree.rs"]
mod index_tree;
#[cfg(test)]
#[path = "snapshot_walk_tests.rs"]
mod snapshot_walk_tests;
use index_tree::without_rowid;

/// A record recovered from free space or an older page version.
#[derive(Clone, Debug, PartialEq)]
pub struct RecoveredRecord {
    /// The table's rowid, when it survived (always, for whole cells).
    pub rowid: Option<i64>,
    /// The column values, in the table's column order. The rowid alias column (an
    /// `INTEGER PRIMARY KEY`) holds the rowid when known, else NULL. Columns a shorter
    /// record lacks (added later by `ALTER TABLE`) hold their constant default, as SQLite
    /// reads them (NULL without one).
    pub values: Vec<Value>,
    /// Where it was found: `wal frame 12 (page 3) cell 4`, `main file page 3 cell 2`,
    /// `freelist page 7 cell 0`, `freeblock at page 3 offset 1200`,
    /// `unallocated space at page 3 offset 900`. A partial record adds
    /// `, partial: columns 1-2 missing`; an unreachable one `, unreachable: ...`.
    pub location: String,
    /// The columns whose bytes did not survive (overwritten by a later cell), in
    /// ascending order; their `values` are NULL placeholders, never a guess. Empty for
    /// a whole record.
    pub missing: Vec<usize>,
    /// Whether SQLite freed the record, or the record is live bytes SQLite can no
    /// longer reach.
    pub reach: Reach,
    /// For a partial record whose text column lost only its end: that column and the
    /// text that survives before the lost bytes. It comes from a cell written into the
    /// freeblock later and freed again (SQLite's placeholder schema record of a
    /// `CREATE TABLE` takes the last 8 bytes), or from a spilled record whose overflow
    /// chain no longer belongs to it (the local part survives; there a cut blob column
    /// gives its surviving bytes too, as a `Value::Blob`). Not the value (its end is
    /// gone), so the column is still listed in `missing` and NULL in `values`.
    pub truncated: Option<(usize, Value)>,
    /// For a partial record whose header survived: the first column lost and the byte
    /// length its serial type declared (the value's full size, of which only the start
    /// in `truncated`, if any, survives). `None` for a whole record, or when the lost
    /// column's type was itself inferred.
    pub declared_len: Option<(usize, u64)>,
}

/// How a recovered record relates to what SQLite shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reach {
    /// Deleted or replaced: found in free space, on the freelist, or in an older page
    /// version.
    #[default]
    Deleted,
    /// Live bytes SQLite cannot reach: a cell in a page's cell area that no cell pointer
    /// names (tampered pointers or cell count), or a page of a table whose schema or
    /// b-tree SQLite cannot read (a truncated or damaged file). Not a deleted record.
    Unreachable,
}

/// `columns 1-2`, `column 3`, `columns 0, 2-4`: a compact list of column indexes.
pub fn column_list(cols: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cols.len() {
        let mut j = i;
        while j + 1 < cols.len() && cols[j + 1] == cols[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            cols[i].to_string()
        } else {
            format!("{}-{}", cols[i], cols[j])
        });
        i = j + 1;
    }
    let word = if cols.len() == 1 { "column" } else { "columns" };
    format!("{word} {}", parts.join(", "))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Affinity {
    Integer,
    Text,
    Blob,
    Real,
    Numeric,
}

fn affinity(decl: &str) -> Affinity {
    let d = decl.to_ascii_uppercase();
    if d.contains("INT") {
        Affinity::Integer
    } else if d.contains("CHAR") || d.contains("CLOB") || d.contains("TEXT") {
        Affinity::Text
    } else if d.contains("BLOB") || d.is_empty() {
        Affinity::Blob
    } else if d.contains("REAL") || d.contains("FLOA") || d.contains("DOUB") {
        Affinity::Real
    } else {
        Affinity::Numeric
    }
}

/// What recovery needs of a table's schema.
#[derive(Clone, Debug)]
pub(crate) struct TableShape {
    root: u32,
    affinities: Vec<Affinity>,
    not_null: Vec<bool>,
    /// Index of the `INTEGER PRIMARY KEY` column, stored as NULL in the record.
    alias: Option<usize>,
    /// For a `WITHOUT ROWID` table (an index b-tree, see [`index_tree`]): the table
    /// column of each record column (the PRIMARY KEY columns first, in key order, then
    /// the others in table order). `affinities` and `not_null` are then in record
    /// order; values are put back in table order before they leave the crate.
    order: Option<Vec<usize>>,
    /// For a `WITHOUT ROWID` table, how many record columns (the first) make its key.
    key_cols: usize,
    /// Each column's constant default (`DEFAULT 7`, `DEFAULT 'none'`), else NULL: what
    /// SQLite reads for a column a shorter record lacks, one written before the column
    /// was added by `ALTER TABLE ... ADD COLUMN` (which allows only constant defaults).
    /// Empty for a `WITHOUT ROWID` table (its missing columns read as NULL).
    defaults: Vec<Value>,
}

impl TableShape {
    /// The shape of `table`: from SQLite's schema when it can be read; from a dropped
    /// table's recovered `CREATE TABLE` text ([`Database::dropped_tables`]); else, when
    /// SQLite cannot read the schema, from the schema records read by hand from page
    /// 1's b-tree (and any page holding schema cells). `sqlite_master` itself has its
    /// fixed shape, so that freed schema records (dropped tables) are recovered too.
    pub(crate) fn load(db: &Database, table: &str) -> Option<TableShape> {
        if table.eq_ignore_ascii_case("sqlite_master")
            || table.eq_ignore_ascii_case("sqlite_schema")
        {
            return Some(TableShape::master());
        }
        let conn = db.connection();
        let live = schema_table(db, table);
        if let Some((root, sql)) = live {
            if root <= 0 {
                return None;
            }
            let shape = TableShape::from_conn(conn, table, root as u32, without_rowid(&sql));
            if shape.is_some() {
                return shape;
            }
        }
        if let Some(d) = db.dropped_tables().iter().find(|d| d.name == table) {
            return TableShape::from_sql(&d.sql, d.rootpage);
        }
        if db.schema_readable() {
            return None;
        }
        let entry = hand_schema(db)
            .into_iter()
            .find(|e| e.kind == "table" && e.name == table)?;
        TableShape::from_sql(&entry.sql, entry.rootpage)
    }

    /// `sqlite_master`: type, name, tbl_name, rootpage, sql; root page 1.
    pub(crate) fn master() -> TableShape {
        use Affinity::{Integer, Text};
        TableShape {
            root: 1,
            affinities: vec![Text, Text, Text, Integer, Text],
            not_null: vec![true, true, true, false, false],
            alias: None,
            order: None,
            key_cols: 0,
            defaults: Vec::new(),
        }
    }

    /// The shape of a table from a `CREATE TABLE` text, read by SQLite in a private
    /// in-memory database (one statement only, nothing attached, nothing else run).
    /// `None` for a text SQLite refuses.
    pub(crate) fn from_sql(sql: &str, root: u32) -> Option<TableShape> {
        let head = sql.trim_start();
        // `get`, not `[..12]`: a carved text's 12th byte may be inside a character
        if !head
            .get(..12)
            .is_some_and(|h| h.eq_ignore_ascii_case("CREATE TABLE"))
        {
            return None;
        }
        let conn = rusqlite::Connection::open_in_memory().ok()?;
        conn.execute_batch("PRAGMA trusted_schema = OFF;").ok()?;
        conn.execute(sql, []).ok()?;
        let name: String = conn
            .query_row(
                "SELECT name FROM sqlite_schema WHERE type = 'table' LIMIT 1",
                [],
                |r| r.get(0),
            )
            .ok()?;
        TableShape::from_conn(&conn, &name, root, without_rowid(sql))
    }

    /// Whether the table is a `WITHOUT ROWID` table (its records in an index b-tree).
    pub(crate) fn is_index(&self) -> bool {
        self.order.is_some()
    }

    fn from_conn(
        conn: &rusqlite::Connection,
        table: &str,
        root: u32,
        without_rowid: bool,
    ) -> Option<TableShape> {
        let mut stmt = conn
            .prepare(
                "SELECT type, \"notnull\", pk, dflt_value FROM pragma_table_info(?1) ORDER BY cid",
            )
            .ok()?;
        let rows: Vec<(String, bool, i64, Option<String>)> = stmt
            .query_map([table], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .ok()?
            .filter_map(Result::ok)
            .collect();
        let defaults: Vec<Value> = rows
            .iter()
            .map(|c| c.3.as_deref().map_or(Value::Null, |d| constant(conn, d)))
            .collect();
        let cols: Vec<(String, bool, i64)> = rows.into_iter().map(|c| (c.0, c.1, c.2)).collect();
        if cols.is_empty() || root == 0 {
            return None;
        }
        let pks: Vec<usize> = cols
            .iter()
            .enumerate()
            .filter(|(_, c)| c.2 > 0)
            .map(|(i, _)| i)
            .collect();
        if without_rowid {
            return index_tree::shape(&cols, root);
        }
        let alias = match pks.as_slice() {
            [i] if cols[*i].0.eq_ignore_ascii_case("INTEGER") => Some(*i),
            _ => None,
        };
        Some(TableShape {
            root,
            affinities: cols.iter().map(|c| affinity(&c.0)).collect(),
            // SQLite lets a non-INTEGER PRIMARY KEY of a rowid table hold NULL (a
            // legacy quirk), but no application writes one: carving treats it as NOT NULL.
            not_null: cols.iter().map(|c| c.1 || c.2 > 0).collect(),
            alias,
            order: None,
            key_cols: 0,
            defaults,
        })
    }
}

/// The value of a column's default as SQLite gives it to a record that lacks the
/// column: a constant (`7`, `'none'`, `-1.5`, `NULL`, `X'00'`), evaluated by SQLite
/// itself. A default that is not constant (`CURRENT_TIMESTAMP`, a function call) gives
/// NULL: `ALTER TABLE ... ADD COLUMN` refuses such defaults, so no shorter record can
/// have met one, and evaluating it would give the time of the reading.
fn constant(conn: &rusqlite::Connection, default: &str) -> Value {
    let d = default.trim();
    let lower = d.to_ascii_lowercase();
    if lower.contains("current_") || lower.contains('(') || d.contains(';') {
        return Value::Null;
    }
    conn.query_row(&format!("SELECT {d}"), [], |r| r.get::<_, Value>(0))
        .unwrap_or(Value::Null)
}

/// How many live rows a rowid table's fixed text layouts are learnt from.
const TEMPLATE_ROWS: usize = 10_000;

/// A version of a page: the main file's or a WAL frame's. In a paged source `Main` is
/// the image's version (the WAL's latest committed frame, else the main file's), and
/// `File` the main file's own, the WAL not laid over (the same as `Main` in memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Version {
    Main(u32),
    Frame(usize),
    File(u32),
}

/// Where pages come from: a [`Database`]'s files in memory, or a
/// [`crate::paged::PageSource`] reading them on demand (the image, and a WAL frame's
/// or the main file's own version of a page when an older version is read).
#[derive(Clone, Copy)]
pub(crate) enum Src<'a> {
    Db(&'a Database),
    Paged(&'a crate::paged::PageSource),
}

struct Pages<'a> {
    src: Src<'a>,
    page_size: usize,
    usable: usize,
    encoding: u32,
}

impl<'a> Pages<'a> {
    fn new(src: Src<'a>) -> Pages<'a> {
        let header = match src {
            Src::Db(db) => db.header,
            Src::Paged(ps) => *ps.header(),
        };
        Pages {
            src,
            page_size: header.page_size,
            usable: header.usable_size(),
            encoding: header.text_encoding,
        }
    }

    fn bytes(&self, v: Version) -> Option<std::borrow::Cow<'a, [u8]>> {
        use std::borrow::Cow;
        match (self.src, v) {
            (Src::Db(db), Version::Main(p)) => {
                let start = (p as usize).checked_sub(1)? * self.page_size;
                db.main
                    .get(start..start + self.page_size)
                    .map(Cow::Borrowed)
            }
            (Src::Db(db), Version::Frame(i)) => {
                let f = db.wal_scan.frames.get(i)?;
                db.wal.get(f.data_range(self.page_size)).map(Cow::Borrowed)
            }
            (Src::Db(_), Version::File(p)) => self.bytes(Version::Main(p)),
            (Src::Paged(ps), Version::Main(p)) => ps.page(p).map(Cow::Owned),
            (Src::Paged(ps), Version::Frame(i)) => ps.frame_page(i).map(Cow::Owned),
            (Src::Paged(ps), Version::File(p)) => ps.main_page(p).map(Cow::Owned),
        }
    }

    fn page_of(&self, v: Version) -> u32 {
        match (self.src, v) {
            (_, Version::Main(p) | Version::File(p)) => p,
            (Src::Db(db), Version::Frame(i)) => {
                db.wal_scan.frames.get(i).map(|f| f.page).unwrap_or(0)
            }
            (Src::Paged(ps), Version::Frame(i)) => {
                ps.wal().frames.get(i).map(|f| f.page).unwrap_or(0)
            }
        }
    }

    /// The most pages any version of the database has (the bound of a chain).
    fn max_pages(&self) -> usize {
        match self.src {
            Src::Db(db) => (db.image_pages as usize)
                .max(db.main.len() / self.page_size)
                .max(
                    db.wal_scan
                        .frames
                        .iter()
                        .map(|f| f.page as usize)
                        .max()
                        .unwrap_or(0),
                ),
            Src::Paged(ps) => ps.page_count() as usize,
        }
    }

    fn name(&self, v: Version) -> String {
        match v {
            Version::Main(p) | Version::File(p) => format!("main file page {p}"),
            Version::Frame(i) => format!("wal frame {} (page {})", i + 1, self.page_of(v)),
        }
    }
}

/// A snapshot: which version of each page it sees (pages it does not list are Main).
type Snapshot = HashMap<u32, Version>;

fn resolve(snap: &Snapshot, p: u32) -> Version {
    snap.get(&p).copied().unwrap_or(Version::Main(p))
}

/// Walks a table b-tree in a snapshot, collecting the versions of its leaf pages (and
/// in `visited` the numbers of the pages it read). `index`: the b-tree of a `WITHOUT
/// ROWID` table, an index b-tree, whose interior pages hold records too: they are
/// collected with the leaves.
#[allow(clippy::too_many_arguments)]
fn walk(
    pages: &Pages<'_>,
    snap: &Snapshot,
    root: u32,
    index: bool,
    leaves: &mut Vec<Version>,
    interiors: &mut Vec<Version>,
    seen: &mut HashSet<Version>,
    visited: &mut HashSet<u32>,
) {
    let (leaf, interior) = if index { (0x0a, 0x02) } else { (0x0d, 0x05) };
    let mut stack = vec![root];
    while let Some(p) = stack.pop() {
        if p == 0 || !visited.insert(p) || visited.len() > 1_000_000 {
            continue;
        }
        let v = resolve(snap, p);
        let Some(b) = pages.bytes(v) else { continue };
        let b: &[u8] = &b;
        let h = if p == 1 { 100 } else { 0 };
        match b.get(h) {
            Some(&k) if k == leaf && seen.insert(v) => leaves.push(v),
            Some(&k) if k == interior => {
                if seen.insert(v) {
                    if index {
                        leaves.push(v);
                    } else {
                        interiors.push(v);
                    }
                }
                let n = be16(b, h + 3) as usize;
                // Right-most child first on the stack, so leaves come out left to right.
                stack.push(be32(b, h + 8));
                for c in (0..n).rev() {
                    let ptr = be16(b, h + 12 + 2 * c) as usize;
                    stack.push(be32(b, ptr));
                }
            }
            _ => {}
        }
    }
}

/// The spilled cells that [`Snapshots::visit`] decoded (their bytes on the leaf, from
/// the payload length to the first overflow page number) whose overflow chain, in the
/// running snapshot, has not changed since: decoding one again gives the same record,
/// or the same failure. A leaf rewritten by commit after commit (a small value beside
/// a large one, updated again and again: VS Code's `ItemTable`) re-read the large
/// value's whole chain with each version, and held each copy until the end.
#[derive(Default)]
struct ChainMemo {
    cells: HashSet<std::rc::Rc<[u8]>>,
    /// For each overflow page, the cells whose chain reads it.
    readers: HashMap<u32, Vec<std::rc::Rc<[u8]>>>,
}

impl ChainMemo {
    fn insert(&mut self, cell: &[u8], chain: Vec<u32>) {
        let cell: std::rc::Rc<[u8]> = cell.into();
        for p in chain {
            self.readers.entry(p).or_default().push(cell.clone());
        }
        self.cells.insert(cell);
    }

    /// Page `page` has a new version: the cells whose chain reads it are read again.
    fn changed(&mut self, page: u32) {
        for cell in self.readers.remove(&page).unwrap_or_default() {
            self.cells.remove(&cell);
        }
    }
}

/// [`walk`] over a running snapshot that one commit after another updates in place:
/// each walk hands out the same page versions, in the same order, as a whole [`walk`]
/// of the snapshot with the same `seen` would, but reads only the pages whose subtree
/// changed since they were last walked.
///
/// A page is *clean* when its whole subtree, as the running snapshot has it, was walked
/// (so every version in it was handed out) and no page of it has changed since. A
/// commit that gives a page a new version makes it and every page above it (the pages
/// whose walked version names it as a child) unclean; a walk skips a clean page as a
/// whole walk skips a page it already visited: nothing under it is new. So a commit
/// costs the pages it wrote, the pages above them and their children, not the whole
/// tree (a WAL of 20,000 single-row commits re-walked the whole table each time).
#[derive(Default)]
struct TreeWalk {
    /// The page versions already handed out.
    seen: HashSet<Version>,
    /// The clean pages: a set closed downwards (a clean page's children are clean).
    clean: HashSet<u32>,
    /// The children (page numbers of the database, each once, in walk order) of each
    /// walked page, as the version walked names them.
    children: HashMap<u32, Vec<u32>>,
    /// `(child, parent)` for each child in `children`: who is above a changed page.
    parents: std::collections::BTreeSet<(u32, u32)>,
}

impl TreeWalk {
    /// Page `page` has a new version in the running snapshot: it and every clean page
    /// above it are no longer clean. (A page that is not clean has no clean page above
    /// it: the clean set is closed downwards.)
    fn changed(&mut self, page: u32) {
        let mut stack = vec![page];
        while let Some(p) = stack.pop() {
            if self.clean.remove(&p) {
                stack.extend(self.parents.range((p, 0)..=(p, u32::MAX)).map(|&(_, q)| q));
            }
        }
    }

    /// [`walk`] of the b-tree at `root` in `snap` (the running snapshot), skipping
    /// clean pages. Page numbers above `max_pages` are no page of any version, as
    /// [`walk`] finds when it reads them.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        pages: &Pages<'_>,
        snap: &Snapshot,
        root: u32,
        index: bool,
        max_pages: usize,
        leaves: &mut Vec<Version>,
        interiors: &mut Vec<Version>,
    ) {
        let (leaf, interior) = if index { (0x0a, 0x02) } else { (0x0d, 0x05) };
        let mut stack = vec![root];
        let mut visited = HashSet::new();
        let mut whole = true;
        while let Some(p) = stack.pop() {
            if p == 0 || p as usize > max_pages || self.clean.contains(&p) {
                continue;
            }
            if !visited.insert(p) {
                continue;
            }
            if visited.len() > 1_000_000 {
                whole = false;
                continue;
            }
            let v = resolve(snap, p);
            let mut kids = Vec::new();
            if let Some(b) = pages.bytes(v) {
                let b: &[u8] = &b;
                let h = if p == 1 { 100 } else { 0 };
                match b.get(h) {
                    Some(&k) if k == leaf && self.seen.insert(v) => leaves.push(v),
                    Some(&k) if k == interior => {
                        if self.seen.insert(v) {
                            if index {
                                leaves.push(v);
                            } else {
                                interiors.push(v);
                            }
                        }
                        // as [`walk`] visits them: the cells' children left to right,
                        // then the right-most; a child named twice is visited at its
                        // first mention (after it, a visited page is skipped)
                        let n = be16(b, h + 3) as usize;
                        let mut once = HashSet::new();
                        let cells = (0..n).map(|c| be32(b, be16(b, h + 12 + 2 * c) as usize));
                        for c in cells.chain([be32(b, h + 8)]) {
                            if c != 0 && c as usize <= max_pages && once.insert(c) {
                                kids.push(c);
                            }
                        }
                    }
                    _ => {}
                }
            }
            stack.extend(kids.iter().rev());
            self.set_children(p, kids);
        }
        // every page visited now has its whole subtree walked (each child visited or
        // clean), unless the walk gave up
        if whole {
            self.clean.extend(visited);
        }
    }

    /// Records the children of `page`'s version just walked.
    fn set_children(&mut self, page: u32, kids: Vec<u32>) {
        let old = self.children.remove(&page).unwrap_or_default();
        if old != kids {
            for c in old {
                self.parents.remove(&(c, page));
            }
            for &c in &kids {
                self.parents.insert((c, page));
            }
        }
        if !kids.is_empty() {
            self.children.insert(page, kids);
        }
    }
}

/// Hands the pages of the b-tree rooted at its first argument to its second.
type TreePages<'f> = dyn FnMut(u32, &mut dyn FnMut(u32)) + 'f;

/// The live tables of `entries` but `table`: which of them owns each page (`tree`
/// hands a root's pages to its callback), and a carver of each one's shape (`carver`):
/// what a dropped table's carving of another table's page asks
/// ([`Recoverer::carve_gap_for_dropped`]), in both modes.
fn table_owners<'a>(
    entries: &[SchemaEntry],
    table: &str,
    tree: &mut TreePages<'_>,
    carver: &mut dyn FnMut(TableShape) -> Recoverer<'a>,
) -> (HashMap<u32, usize>, Vec<Recoverer<'a>>) {
    let mut owner_of = HashMap::new();
    let mut owners = Vec::new();
    for e in entries {
        if e.kind != "table" || e.name == table || e.rootpage == 0 {
            continue;
        }
        let Some(shape) = TableShape::from_sql(&e.sql, e.rootpage) else {
            continue;
        };
        let i = owners.len();
        tree(e.rootpage, &mut |p| {
            owner_of.insert(p, i);
        });
        owners.push(carver(shape));
    }
    (owner_of, owners)
}

/// Collects the page numbers of any b-tree (table or index) in a snapshot.
fn tree_pages(pages: &Pages<'_>, snap: &Snapshot, root: u32, out: &mut HashSet<u32>) {
    let mut stack = vec![root];
    let mut visited = HashSet::new();
    while let Some(p) = stack.pop() {
        if p == 0 || !visited.insert(p) || visited.len() > 1_000_000 {
            continue;
        }
        let Some(b) = pages.bytes(resolve(snap, p)) else {
            continue;
        };
        let b: &[u8] = &b;
        let h = if p == 1 { 100 } else { 0 };
        match b.get(h) {
            Some(0x0d | 0x0a) => {
                out.insert(p);
            }
            Some(0x05 | 0x02) => {
                out.insert(p);
                let n = be16(b, h + 3) as usize;
                stack.push(be32(b, h + 8));
                for c in 0..n.min(pages.usable / 2) {
                    let ptr = be16(b, h + 12 + 2 * c) as usize;
                    stack.push(be32(b, ptr));
                }
            }
            _ => {}
        }
    }
}

/// Serial type → content size, or `None` for the reserved types 10 and 11.
fn serial_size(t: u64) -> Option<usize> {
    Some(match t {
        0 | 8 | 9 => 0,
        1 => 1,
        2 => 2,
        3 => 3,
        4 => 4,
        5 => 6,
        6 | 7 => 8,
        10 | 11 => return None,
        n if n % 2 == 0 => ((n - 12) / 2) as usize,
        n => ((n - 13) / 2) as usize,
    })
}

fn int_be(b: &[u8]) -> i64 {
    let mut v: i64 = if b.first().is_some_and(|x| x & 0x80 != 0) {
        -1
    } else {
        0
    };
    for &x in b {
        v = (v << 8) | x as i64;
    }
    v
}

/// How strictly a record must match the table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strict {
    /// A cell of a page known to be the table's.
    Known,
    /// Anything else.
    Carved,
}

fn text_of(bytes: &[u8], encoding: u32, strict: bool) -> Option<String> {
    match encoding {
        2 | 3 => {
            if bytes.len() % 2 != 0 && strict {
                return None;
            }
            let units = bytes.chunks_exact(2).map(|c| {
                if encoding == 3 {
                    u16::from_be_bytes([c[0], c[1]])
                } else {
                    u16::from_le_bytes([c[0], c[1]])
                }
            });
            let mut s = String::new();
            for r in char::decode_utf16(units) {
                match r {
                    Ok(c) => s.push(c),
                    Err(_) if strict => return None,
                    Err(_) => s.push(char::REPLACEMENT_CHARACTER),
                }
            }
            Some(s)
        }
        _ => match std::str::from_utf8(bytes) {
            Ok(s) => Some(s.to_string()),
            Err(_) if strict => None,
            Err(_) => Some(String::from_utf8_lossy(bytes).into_owned()),
        },
    }
}

fn type_fits(aff: Affinity, t: u64) -> bool {
    let is_num = matches!(t, 1..=9);
    let is_text = t >= 13 && t % 2 == 1;
    match aff {
        // An INTEGER column holds a real only for a value with a fraction, which
        // applications do not write there; misaligned bytes often read as one.
        Affinity::Integer => t == 0 || (is_num && t != 7),
        Affinity::Real => t == 0 || is_num,
        // A blob in a TEXT column is legal but rare; carving refuses it for precision.
        Affinity::Text => t == 0 || is_text,
        // NUMERIC columns (BOOLEAN, TIMESTAMP, DATETIME, DECIMAL...) hold numbers or
        // text; a blob is legal but no application stores one, while stale cell
        // pointer arrays and page headers decode as blobs in such a slot.
        Affinity::Numeric => t == 0 || is_num || is_text,
        Affinity::Blob => true,
    }
}

/// Decodes the record at `payload[at..end]` (header then body); returns the values and
/// the record's length.
fn parse_record(
    shape: &TableShape,
    payload: &[u8],
    at: usize,
    end: usize,
    encoding: u32,
    strict: Strict,
) -> Option<(Vec<Value>, usize)> {
    parse_record_with(shape, payload, at, end, encoding, strict, None)
}

/// [`parse_record`], with the carving scan's [`carve_memo::TextMemo`] of the region to
/// refuse a candidate before anything of it is decoded.
fn parse_record_with(
    shape: &TableShape,
    payload: &[u8],
    at: usize,
    end: usize,
    encoding: u32,
    strict: Strict,
    memo: Option<&carve_memo::TextMemo>,
) -> Option<(Vec<Value>, usize)> {
    let end = end.min(payload.len());
    let (hlen, n) = varint(payload, at)?;
    let hlen = usize::try_from(hlen).ok()?;
    let ncols = shape.affinities.len();
    if hlen < 2 || hlen > 1 + 9 * ncols || at + hlen > end {
        return None;
    }
    let mut types = Vec::with_capacity(ncols);
    let mut pos = at + n;
    while pos < at + hlen {
        let (t, k) = varint(payload, pos)?;
        pos += k;
        types.push(t);
        if types.len() > ncols {
            return None;
        }
    }
    if pos != at + hlen || types.is_empty() {
        return None;
    }
    if strict == Strict::Carved && types.len() != ncols {
        return None;
    }
    if strict == Strict::Carved && !precheck(shape, &types, payload, at + hlen, end, encoding, memo)
    {
        return None;
    }
    decode_body(shape, &types, payload, at + hlen, end, encoding, strict)
        .map(|(v, body)| (v, hlen + body))
}

/// The strict checks of [`decode_body`] for a carved record, each in constant time
/// (types, sizes, NOT NULL, and with the region's [`carve_memo::TextMemo`] the texts and
/// the some-content rule), before any value is decoded or copied: false only when the
/// decoding would refuse the record too.
fn precheck(
    shape: &TableShape,
    types: &[u64],
    payload: &[u8],
    body_at: usize,
    end: usize,
    encoding: u32,
    memo: Option<&carve_memo::TextMemo>,
) -> bool {
    let mut pos = body_at;
    let (mut numbers, mut content) = (0, false);
    for (i, &t) in types.iter().enumerate() {
        let Some(size) = serial_size(t) else {
            return false;
        };
        let Some(z) = pos.checked_add(size).filter(|&z| z <= end) else {
            return false;
        };
        let alias = Some(i) == shape.alias;
        if (alias && t != 0)
            || (!alias && !shape.affinities.get(i).is_some_and(|&a| type_fits(a, t)))
            || (t == 0 && !alias && shape.not_null.get(i) == Some(&true))
        {
            return false;
        }
        match (t, memo) {
            (1..=9, _) if !alias => numbers += 1,
            (t, Some(m)) if t >= 13 && t % 2 == 1 && encoding <= 1 => {
                if m.text_ok(payload, pos, z) == Some(false) {
                    return false;
                }
                content |= m.maybe_nonblank(pos, z);
            }
            (t, Some(m)) if t >= 12 && t % 2 == 0 => content |= m.nonzero(pos, z),
            (t, _) if t >= 12 => content = true,
            _ => {}
        }
        pos = z;
    }
    content || numbers >= 2
}

fn decode_body(
    shape: &TableShape,
    types: &[u64],
    payload: &[u8],
    body_at: usize,
    end: usize,
    encoding: u32,
    strict: Strict,
) -> Option<(Vec<Value>, usize)> {
    let carved = strict == Strict::Carved;
    // every column's type and size first: nothing is decoded or copied for a record
    // a later column refuses
    if carved && !precheck(shape, types, payload, body_at, end, encoding, None) {
        return None;
    }
    let mut values = Vec::with_capacity(shape.affinities.len());
    let mut pos = body_at;
    for (i, &t) in types.iter().enumerate() {
        let size = serial_size(t)?;
        if pos.checked_add(size)? > end {
            return None;
        }
        if carved {
            if Some(i) == shape.alias && t != 0 {
                return None;
            }
            if Some(i) != shape.alias && !type_fits(shape.affinities[i], t) {
                return None;
            }
            if t == 0 && shape.not_null[i] && Some(i) != shape.alias {
                return None;
            }
        }
        let b = &payload[pos..pos + size];
        let v = match t {
            0 => Value::Null,
            1..=6 => Value::Integer(int_be(b)),
            7 => Value::Real(f64::from_bits(u64::from_be_bytes(b.try_into().ok()?))),
            8 => Value::Integer(0),
            9 => Value::Integer(1),
            t if t % 2 == 0 => Value::Blob(b.to_vec()),
            _ => {
                let text = text_of(b, encoding, carved)?;
                if carved
                    && text
                        .chars()
                        .any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r' | '\x1b'))
                {
                    return None;
                }
                Value::Text(text)
            }
        };
        if let (true, Value::Real(f)) = (carved, &v) {
            // Eight stray bytes read as a real almost always have an absurd exponent.
            if !f.is_finite() || (*f != 0.0 && !(1e-30..=1e30).contains(&f.abs())) {
                return None;
            }
        }
        // SQLite stores an integral value of a REAL column as an integer and turns it
        // back into a real when it reads the column: so must recovery, or the record
        // would never compare equal to its live row.
        let v = match (v, shape.affinities.get(i)) {
            (Value::Integer(n), Some(Affinity::Real)) if Some(i) != shape.alias => {
                Value::Real(n as f64)
            }
            (v, _) => v,
        };
        values.push(v);
        pos += size;
    }
    // A carved record must say something: zeroed or stray bytes decode as NULLs, empty
    // or blank text, or a lone number. It needs one non-blank text or blob, or two numbers.
    if carved {
        let mut numbers = 0;
        let mut content = false;
        for (i, v) in values.iter().enumerate() {
            if Some(i) == shape.alias {
                continue;
            }
            match v {
                Value::Integer(_) | Value::Real(_) => numbers += 1,
                Value::Text(t) if !t.trim().is_empty() => content = true,
                // Zeroed space reads as blobs of zeros: they say nothing.
                Value::Blob(b) if b.iter().any(|&x| x != 0) => content = true,
                _ => {}
            }
        }
        if !content && numbers < 2 {
            return None;
        }
    }
    while values.len() < shape.affinities.len() {
        values.push(
            shape
                .defaults
                .get(values.len())
                .cloned()
                .unwrap_or(Value::Null),
        );
    }
    Some((values, pos - body_at))
}

/// The local payload size of a table leaf cell (SQLite's formula).
fn local_size(payload: usize, usable: usize) -> usize {
    let x = usable - 35;
    if payload <= x {
        return payload;
    }
    let m = ((usable - 12) * 32 / 255) - 23;
    let k = m + ((payload - m) % (usable - 4));
    if k <= x { k } else { m }
}

/// The kind of free space being carved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Region {
    /// A freeblock: its first four bytes are the freeblock link.
    Freeblock,
    /// The unallocated gap of a b-tree page, where absorbed freeblocks leave links.
    Gap,
    /// Any other bytes (a freelist page that is not a b-tree page): whole records only.
    Raw,
}

/// One recovered candidate before de-duplication.
struct Found {
    rowid: Option<i64>,
    values: Vec<Value>,
    location: String,
    /// For a cell whose first column's length was inferred from its freeblock's size:
    /// the freeblock's bytes after the serial types, read without and with the inferred
    /// type, each with the shortest known first column that proves a misreading (see
    /// [`misread_copy`]).
    probes: Vec<(Vec<u8>, usize)>,
    /// Columns whose bytes did not survive (a partial record).
    missing: Vec<usize>,
    /// Freed, or live bytes SQLite cannot reach.
    reach: Reach,
    /// True when found by carving (not a cell of a page known to be the table's).
    carved: bool,
    /// The surviving start of a missing column whose end was overwritten.
    truncated: Option<(usize, Value)>,
    /// The first column lost and its declared byte length.
    declared_len: Option<(usize, u64)>,
}

/// What a partial record lost beyond the list of its missing columns: the surviving
/// start of the text column cut, and the declared byte length of the first column lost
/// (see [`RecoveredRecord::declared_len`]).
#[derive(Clone, Debug, Default, PartialEq)]
struct Cut {
    truncated: Option<(usize, Value)>,
    declared_len: Option<(usize, u64)>,
}

struct Recoverer<'a> {
    pages: Pages<'a>,
    shape: TableShape,
    found: Vec<Found>,
    /// The image's version of each page the WAL supplies (others are the main file's).
    current: Snapshot,
    /// The snapshot whose pages are being carved, for following overflow chains as they
    /// were then; `None` carves against the image.
    carve_snap: Option<Snapshot>,
    /// Byte ranges of the page being carved that hold another table's records: no
    /// candidate overlaps them ([`Recoverer::carve_gap_for_dropped`]).
    exclude: Spans,
    /// The largest rowid the table has had, as far as the image tells (its largest live
    /// rowid, or `sqlite_sequence`); `None` for an empty table.
    max_rowid: Option<i64>,
    /// For each column, the classes of value ([`class_of_value`]) its live records
    /// hold: where a freed cell can be read more than one way, the reading that
    /// matches the table's other records is preferred.
    seen: Vec<u8>,
    /// The pages of the image's live b-trees (every table and index): a carved
    /// record's overflow chain may not pass through one.
    live_trees: HashSet<u32>,
    /// The freelist leaf pages of the image: where a carved record's overflow chain
    /// must run (see [`Recoverer::overflow`]).
    free_leaves: HashSet<u32>,
    /// For a `WITHOUT ROWID` table, what its live records say: the fixed layout of
    /// each text column that every live value shares, and the live keys.
    live: index_tree::Live,
    /// Lent by [`Snapshots::visit`] while it decodes a snapshot's leaves: the spilled
    /// cells already decoded whose chain has not changed since ([`ChainMemo`]).
    chain_memo: Option<ChainMemo>,
    /// The most pages any version of the database has ([`Pages::max_pages`], which
    /// walks the WAL's frames: asked once).
    max_pages: usize,
    /// Set by [`paged_live_where`]: asked of each live cell's first stored column, read
    /// from the cell's own bytes, before its overflow chain is followed; a cell it
    /// refuses is not read further.
    first_filter: Option<FirstFilter<'a>>,
}

/// A predicate on a record's first stored column ([`Recoverer::first_filter`])
/// and the record's stored length (its payload: header and body, in bytes).
type FirstFilter<'a> = &'a mut dyn FnMut(&Value, usize) -> bool;

/// The cell offsets a table leaf page's pointer array names (page 1's header follows
/// the 100-byte database header).
fn cell_pointers(b: &[u8], usable: usize) -> HashSet<usize> {
    let h = if b.starts_with(crate::decode::MAGIC) {
        100
    } else {
        0
    };
    if b.get(h) != Some(&0x0d) {
        return HashSet::new();
    }
    let n = be16(b, h + 3) as usize;
    (0..n.min(usable / 2))
        .map(|c| be16(b, h + 8 + 2 * c) as usize)
        .collect()
}

/// A class of stored value, as a bit: NULL, number, text, blob.
fn class_of_value(v: &Value) -> u8 {
    match v {
        Value::Null => 1,
        Value::Integer(_) | Value::Real(_) => 2,
        Value::Text(_) => 4,
        Value::Blob(_) => 8,
    }
}

/// A record that spilled onto overflow pages: its values, its local length, its payload
/// length, the columns lost (a chain that no longer belongs to it) and the surviving
/// start of the column its local part cuts.
type Spilled = (Vec<Value>, usize, usize, Vec<usize>, Cut);

/// A rebuilt freed cell: its values, its length from the freeblock start, whether its
/// first column's type was inferred from the freeblock's size, and the columns lost.
type Rebuilt = (Vec<Value>, usize, bool, Vec<usize>, Cut);

/// How the four bytes a freeblock link overwrote were laid out: the length and rowid
/// varints (`prefix` bytes), the record header's length varint (`hlen_bytes`), and
/// how much of the first serial type they took.
#[derive(Clone, Copy)]
struct Layout {
    prefix: usize,
    hlen_bytes: usize,
    /// 0: every serial type survives; 1: the first, of one byte, is lost; 2: the first
    /// is two bytes long and only its second byte survives.
    first_lost: usize,
}

const LAYOUTS: [Layout; 5] = [
    Layout {
        prefix: 3,
        hlen_bytes: 1,
        first_lost: 0,
    },
    Layout {
        prefix: 2,
        hlen_bytes: 2,
        first_lost: 0,
    },
    Layout {
        prefix: 3,
        hlen_bytes: 2,
        first_lost: 0,
    },
    Layout {
        prefix: 2,
        hlen_bytes: 1,
        first_lost: 1,
    },
    Layout {
        prefix: 2,
        hlen_bytes: 1,
        first_lost: 2,
    },
];

/// How many leading bytes of `b` are text a store would write: valid UTF-8 with no
/// control character but tab, newline and carriage return (where a cut-off or
/// overwritten text value ends).
fn text_run(b: &[u8]) -> usize {
    let good = match std::str::from_utf8(b) {
        Ok(t) => t.len(),
        Err(e) => e.valid_up_to(),
    };
    b[..good]
        .iter()
        .position(|&c| c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\r'))
        .unwrap_or(good)
}

/// The surviving start `rest` of a value of serial type `t` whose end was overwritten:
/// a text's longest valid prefix (UTF-8 databases; none when it is empty or reaches a
/// control character other than tab, newline and carriage return, which no text
/// column of this table would read as its own), a blob's bytes as they are.
fn cut_start(rest: &[u8], t: u64, encoding: u32) -> Option<Value> {
    if rest.is_empty() {
        return None;
    }
    if t >= 13 && t % 2 == 1 {
        if encoding > 1 {
            return None;
        }
        let good = text_run(rest);
        let text = std::str::from_utf8(&rest[..good]).ok()?;
        (!text.is_empty()).then(|| Value::Text(text.to_string()))
    } else if t >= 12 && t % 2 == 0 {
        Some(Value::Blob(rest.to_vec()))
    } else {
        None
    }
}

/// The body size the serial types `types` declare, `None` for a reserved type or a sum
/// past `usize` (a damaged type may declare near 2^63 bytes).
fn body_size(types: &[u64]) -> Option<usize> {
    types
        .iter()
        .try_fold(0usize, |a, &t| a.checked_add(serial_size(t)?))
}

/// Whether a byte of `b[start..end]` could begin a record header of `ncols` columns as
/// the carving scan of a raw region ([`Recoverer::carve`]) reads one: a header length of
/// 2 to `1 + 9 * ncols` bytes that ends inside the region and holds exactly `ncols`
/// varints. Every record such a scan finds (whole, spilled, or a header it steps over)
/// begins with one, whatever the table's live rows say; so a region without one yields
/// nothing for any table of that many columns, and is not scanned.
///
/// # Why
///
/// A freelist is mostly freed overflow pages: text. The scan tries a record at every
/// byte (three readings each), about 30 ns a byte, and finds nothing there; this check
/// refuses a text byte with one comparison (a byte below 0x80 is its own varint, so the
/// header length is the byte). On a generated 2 GB Cursor database whose freelist holds
/// 48 MB of such pages, one table's carve took 1.57 s before (load 0.3).
fn may_hold_header(b: &[u8], start: usize, end: usize, ncols: usize) -> bool {
    let end = end.min(b.len());
    let longest = 1 + 9 * ncols;
    (start..end.saturating_sub(1)).any(|s| {
        let c = b[s];
        (c >= 0x80 || (2..=longest).contains(&usize::from(c))) && header_at(b, s, end, ncols)
    })
}

/// The check of [`may_hold_header`] at one byte.
fn header_at(b: &[u8], s: usize, end: usize, ncols: usize) -> bool {
    let Some((hlen, n)) = varint(b, s) else {
        return false;
    };
    let Ok(hlen) = usize::try_from(hlen) else {
        return false;
    };
    if hlen < 2 || hlen > 1 + 9 * ncols || s + hlen > end {
        return false;
    }
    let (mut pos, mut k) = (s + n, 0);
    while pos < s + hlen {
        let Some((_, m)) = varint(b, pos) else {
            return false;
        };
        pos += m;
        k += 1;
        if k > ncols {
            return false;
        }
    }
    pos == s + hlen && k == ncols
}

/// The length of `v` as an SQLite varint.
fn varint_len(v: u64) -> usize {
    (1..=8).find(|&n| v < 1 << (7 * n)).unwrap_or(9)
}

impl<'a> Recoverer<'a> {
    fn new(db: &'a Database, shape: TableShape) -> Recoverer<'a> {
        let mut current = Snapshot::new();
        for (i, f) in db.wal_scan.frames.iter().enumerate() {
            if f.status == FrameStatus::Committed {
                current.insert(f.page, Version::Frame(i));
            }
        }
        Recoverer::with_src(Src::Db(db), shape, current)
    }

    pub(crate) fn with_src(src: Src<'a>, shape: TableShape, current: Snapshot) -> Recoverer<'a> {
        let max_pages = Pages::new(src).max_pages();
        Recoverer::sized(src, shape, current, max_pages)
    }

    /// [`Recoverer::with_src`] with its [`Pages::max_pages`] already known.
    fn sized(
        src: Src<'a>,
        shape: TableShape,
        current: Snapshot,
        max_pages: usize,
    ) -> Recoverer<'a> {
        let pages = Pages::new(src);
        Recoverer {
            max_pages,
            pages,
            shape,
            found: Vec::new(),
            current,
            carve_snap: None,
            exclude: Spans::default(),
            max_rowid: None,
            seen: Vec::new(),
            live_trees: HashSet::new(),
            free_leaves: HashSet::new(),
            live: index_tree::Live::default(),
            chain_memo: None,
            first_filter: None,
        }
    }

    /// The freelist leaf pages of the image, from the trunk chain at `trunk` (each
    /// trunk read once: a chain that comes back to a trunk ends there).
    fn free_leaf_pages(&self, mut trunk: u32, limit: u32) -> HashSet<u32> {
        let mut out = HashSet::new();
        let mut trunks = HashSet::new();
        while trunk != 0 && trunk <= limit && trunks.insert(trunk) {
            let Some(b) = self.pages.bytes(self.current(trunk)) else {
                break;
            };
            let count = (be32(&b, 4) as usize).min((self.pages.usable.saturating_sub(8)) / 4);
            out.extend(
                (0..count)
                    .map(|k| be32(&b, 8 + 4 * k))
                    .filter(|&p| p != 0 && p <= limit),
            );
            trunk = be32(&b, 0);
        }
        out
    }

    /// Carves the freelist that starts at trunk page `trunk` (trunk and leaf pages),
    /// noting its pages in `freelist`; `flush` is called after each page (the paged
    /// mode hands what was found on). Each trunk and each leaf is carved once: a
    /// chain that comes back to a trunk ends there, and a leaf a trunk names again
    /// (SQLite never does; a damaged or forged list can name one page thousands of
    /// times) is carved where it is first named.
    #[allow(clippy::too_many_arguments)]
    fn carve_freelist(
        &mut self,
        mut trunk: u32,
        limit: u32,
        table_pages: &HashSet<u32>,
        others: &HashSet<u32>,
        freelist: &mut HashSet<u32>,
        flush: &mut dyn FnMut(&mut Self),
    ) {
        let mut trunks = HashSet::new();
        let mut leaves = HashSet::new();
        while trunk != 0 && trunk <= limit && trunks.insert(trunk) {
            let v = self.current(trunk);
            let Some(b) = self.pages.bytes(v) else { break };
            let b: &[u8] = &b;
            let usable = self.pages.usable.min(b.len());
            let count = (be32(b, 4) as usize).min((self.pages.usable.saturating_sub(8)) / 4);
            // after the page list, what was the list when the trunk held more: four-byte
            // page numbers, which read as NULLs and small numbers; nothing is carved there
            let mut after = 8 + 4 * count;
            while after + 4 <= usable && be32(b, after) <= limit {
                after += 4;
            }
            freelist.insert(trunk);
            freelist.extend((0..count).map(|k| be32(b, 8 + 4 * k)));
            let tname = format!("freelist trunk page {trunk}");
            self.carve(b, after, usable, Region::Gap, &tname);
            flush(self);
            for k in 0..count {
                let leaf = be32(b, 8 + 4 * k);
                if leaf == 0 || leaf > limit || !leaves.insert(leaf) {
                    continue;
                }
                let lv = self.current(leaf);
                let Some(lb) = self.pages.bytes(lv) else {
                    continue;
                };
                let lb: &[u8] = &lb;
                let name = format!("freelist page {leaf}");
                let index = self.shape.is_index();
                if matches!(
                    (lb.first(), index),
                    (Some(0x0d), false) | (Some(0x0a | 0x02), true)
                ) {
                    if self.may_own(lb, leaf, table_pages, others) {
                        self.cells(lb, leaf, &name, Strict::Carved, None);
                        self.carve_page(lb, leaf, &name);
                    }
                } else if matches!(
                    (lb.first(), index),
                    (Some(0x0a | 0x02), false) | (Some(0x0d | 0x05), true)
                ) {
                    // A freed index page: its cells and free space hold index records,
                    // which fit a table of the same shape (a key and a rowid) by
                    // accident (and a table page, for a WITHOUT ROWID table: a record
                    // and a rowid). (An overflow or trunk page starts with a page number
                    // below 2^27, so its first byte is never a b-tree page's type.)
                } else {
                    self.carve(lb, 0, self.pages.usable.min(lb.len()), Region::Raw, &name);
                }
                flush(self);
            }
            trunk = be32(b, 0);
        }
    }

    /// Live records SQLite cannot reach: whole cells in a current leaf page's (or an
    /// index b-tree's interior page's) cell
    /// content area that no cell pointer names and that lie in no freeblock (a cell
    /// pointer or the cell count tampered with, a pointer aimed at another cell). In a
    /// page SQLite wrote, that area holds only cells and freeblocks (and fragments of
    /// at most three bytes), so nothing is found there.
    fn carve_unreachable(&mut self, b: &[u8], page: u32, name: &str) {
        let h = if page == 1 { 100 } else { 0 };
        let leaf = if self.shape.is_index() { 0x0a } else { 0x0d };
        // (an index b-tree's interior cells hold records too: a 4-byte child page
        // number, then a cell as a leaf's)
        let interior = self.shape.is_index() && b.get(h) == Some(&0x02);
        if b.get(h) != Some(&leaf) && !interior {
            return;
        }
        let (ptrs, child) = if interior { (h + 12, 4) } else { (h + 8, 0) };
        let usable = self.pages.usable.min(b.len());
        let content = match be16(b, h + 5) as usize {
            0 => 65536,
            c => c,
        };
        if content >= usable {
            return;
        }
        let mut covered: Vec<(usize, usize)> = Vec::new();
        let n = be16(b, h + 3) as usize;
        for c in 0..n.min(usable / 2) {
            let ptr = be16(b, ptrs + 2 * c) as usize;
            if let Some(size) = self.leaf_cell_size(b, ptr + child) {
                covered.push((ptr, ptr + child + size));
            }
        }
        let mut fb = be16(b, h + 1) as usize;
        let mut hops = 0;
        while fb != 0 && fb + 4 <= usable && hops < 10_000 {
            hops += 1;
            covered.push((fb, fb + be16(b, fb + 2) as usize));
            let next = be16(b, fb) as usize;
            if next <= fb {
                break;
            }
            fb = next;
        }
        covered.sort_unstable();
        let mut at = content;
        let mut holes = Vec::new();
        for (a, z) in covered {
            // (a cell or freeblock of a damaged page may claim bytes past the page end)
            if a > at && at < usable {
                holes.push((at, a.min(usable)));
            }
            at = at.max(z);
        }
        if at < usable {
            holes.push((at, usable));
        }
        for (a, z) in holes {
            if z.saturating_sub(a) < 6 {
                continue;
            }
            let before = self.found.len();
            self.carve(b, a, z, Region::Raw, &format!("cell area at {name}"));
            for f in &mut self.found[before..] {
                f.reach = Reach::Unreachable;
            }
        }
    }

    /// Whether a freed cell's lost prefix of `prefix` bytes can have held its payload
    /// length (`payload`) and rowid varints: the rowid takes what the length leaves,
    /// and a rowid that needs that many bytes must not exceed any the table has had.
    fn prefix_ok(&self, prefix: usize, payload: usize) -> bool {
        if self.shape.is_index() {
            // an index cell has no rowid: the prefix is the length varint alone
            return prefix == varint_len(payload as u64);
        }
        let Some(r) = prefix.checked_sub(varint_len(payload as u64)) else {
            return false;
        };
        let smallest = match r {
            0 => return false,
            1 => 0,
            2..=8 => 1i64 << (7 * (r - 1)),
            _ => return true,
        };
        self.max_rowid.is_none_or(|m| m >= smallest)
    }

    fn set_alias(&self, values: &mut [Value], rowid: Option<i64>) {
        if let (Some(i), Some(r)) = (self.shape.alias, rowid) {
            if values[i] == Value::Null {
                values[i] = Value::Integer(r);
            }
        }
    }

    /// Decodes every cell of a table leaf page version.
    fn cells(&mut self, b: &[u8], page: u32, name: &str, strict: Strict, snap: Option<&Snapshot>) {
        let h = if page == 1 { 100 } else { 0 };
        let index = self.shape.is_index();
        // an index b-tree (a WITHOUT ROWID table) keeps records in its interior pages
        // too, each cell after a 4-byte child page number; its cells have no rowid
        let (hdr, skip) = match (b.get(h), index) {
            (Some(0x0d), false) | (Some(0x0a), true) => (8, 0),
            (Some(0x02), true) => (12, 4),
            _ => return,
        };
        let n = be16(b, h + 3) as usize;
        let usable = self.pages.usable.min(b.len());
        for c in 0..n.min(usable / 2) {
            let ptr = be16(b, h + hdr + 2 * c) as usize + skip;
            if ptr < h + hdr || ptr >= usable {
                continue;
            }
            let Some((plen, a)) = varint(b, ptr) else {
                continue;
            };
            let Some((rowid, r)) = (if index {
                Some((0, 0))
            } else {
                varint(b, ptr + a)
            }) else {
                continue;
            };
            let Ok(plen) = usize::try_from(plen) else {
                continue;
            };
            if plen > 1 << 30 {
                continue;
            }
            let start = ptr + a + r;
            let local = self.local(plen);
            // the first column asked of the filter from the cell's own bytes, where it
            // lies in them: a refused record's overflow chain is never read
            let mut asked = false;
            if let Some(keep) = self.first_filter.as_mut() {
                let head = b.get(start..start + local.min(plen)).unwrap_or_default();
                if let Some(first) = first_column(&self.shape, head, self.pages.encoding) {
                    asked = true;
                    if !keep(&first, plen) {
                        continue;
                    }
                }
            }
            let payload: std::borrow::Cow<'_, [u8]> = if local == plen {
                match b.get(start..start + plen) {
                    Some(s) => s.into(),
                    None => continue,
                }
            } else {
                // a spilled cell decoded before, its chain unchanged since: the same
                // record (or the same failure) again
                let cell = b.get(ptr..start + local + 4);
                if let (Some(memo), Some(cell)) = (&self.chain_memo, cell) {
                    if memo.cells.contains(cell) {
                        continue;
                    }
                }
                let payload = self.overflow(b, start, local, plen, snap, strict == Strict::Carved);
                if let Some(cell) = cell.filter(|_| self.chain_memo.is_some()) {
                    let chain = self.chain_pages(be32(b, start + local), plen - local, snap);
                    if let Some(memo) = self.chain_memo.as_mut() {
                        memo.insert(cell, chain);
                    }
                }
                match payload {
                    Some(v) => v.into(),
                    None => continue,
                }
            };
            if let Some((mut values, _)) = parse_record(
                &self.shape,
                &payload,
                0,
                payload.len(),
                self.pages.encoding,
                strict,
            ) {
                // a first column that itself spilled is asked of the filter now
                if let (false, Some(keep), Some(first)) =
                    (asked, self.first_filter.as_mut(), values.first())
                {
                    if !keep(first, plen) {
                        continue;
                    }
                }
                let rowid = (!index).then_some(rowid as i64);
                self.set_alias(&mut values, rowid);
                self.found.push(Found {
                    rowid,
                    values,
                    location: format!("{name} cell {c}"),
                    probes: Vec::new(),
                    missing: Vec::new(),
                    reach: Reach::Deleted,
                    carved: strict == Strict::Carved,
                    truncated: None,
                    declared_len: None,
                });
            }
        }
    }

    /// Reads a payload that spills onto overflow pages (of the snapshot, else the image).
    fn overflow(
        &self,
        b: &[u8],
        start: usize,
        local: usize,
        total: usize,
        snap: Option<&Snapshot>,
        carved: bool,
    ) -> Option<Vec<u8>> {
        // A chain longer than the database has pages is a cycle or garbage: the payload
        // cannot be larger than the pages that could hold it.
        //
        // A carved record's chain (a deleted cell's, followed into freed pages) must
        // still be its own: each of its pages, where the image still has the version
        // carved, is a freelist leaf page now (freed with the record, not reused: a
        // page reused as a b-tree or another record's overflow page, or turned into a
        // freelist trunk, holds other bytes), and its last page ends the chain (next
        // page 0).
        let pages = self.max_pages;
        if total > pages.saturating_mul(self.pages.usable) {
            return None;
        }
        // a carved record's first overflow page is judged before anything is copied
        // (the carving scan asks at almost every byte)
        if carved && !self.first_hop_ok(b, start + local, snap) {
            return None;
        }
        let mut out = Vec::with_capacity(total.min(1 << 24));
        out.extend_from_slice(b.get(start..start + local)?);
        let mut next = be32(b, start + local);
        let mut hops = 0usize;
        while out.len() < total {
            hops += 1;
            if next == 0 || next as usize > pages || hops > pages {
                return None;
            }
            let v = match snap {
                Some(s) => resolve(s, next),
                None => self.current(next),
            };
            if carved
                && v == self.current(next)
                && (self.live_trees.contains(&next) || !self.free_leaves.contains(&next))
            {
                return None;
            }
            let page = self.pages.bytes(v)?;
            let page: &[u8] = &page;
            let take = (self.pages.usable - 4).min(total - out.len());
            out.extend_from_slice(page.get(4..4 + take)?);
            next = be32(page, 0);
        }
        if carved && next != 0 {
            return None;
        }
        Some(out)
    }

    /// The pages [`Recoverer::overflow`] reads (or may read) for the `rest` bytes of a
    /// payload that spill onto the chain at `first` in `snap` (else the image).
    fn chain_pages(&self, first: u32, rest: usize, snap: Option<&Snapshot>) -> Vec<u32> {
        let mut out = Vec::new();
        // (a payload larger than the pages that could hold it is refused unread)
        if rest > self.max_pages.saturating_mul(self.pages.usable) {
            return out;
        }
        let needed = rest.div_ceil(self.pages.usable.saturating_sub(4).max(1));
        let mut next = first;
        while out.len() < needed.min(self.max_pages + 1)
            && next != 0
            && next as usize <= self.max_pages
        {
            out.push(next);
            let v = match snap {
                Some(s) => resolve(s, next),
                None => self.current(next),
            };
            let Some(p) = self.pages.bytes(v) else { break };
            next = be32(&p, 0);
        }
        out
    }

    fn current(&self, p: u32) -> Version {
        resolve(&self.current, p)
    }

    /// Whether `page` is this table's root, or an interior page of the table's b-tree
    /// in state `snap` points to it (its interior pages read one by one; each once).
    fn child_in_state(&self, snap: &Snapshot, page: u32) -> bool {
        if page == self.shape.root {
            // (an empty table's root: a leaf without cells)
            return true;
        }
        let mut stack = vec![self.shape.root];
        let mut visited = HashSet::new();
        while let Some(at) = stack.pop() {
            if at == 0 || !visited.insert(at) || visited.len() > self.max_pages {
                continue;
            }
            let Some(p) = self.pages.bytes(resolve(snap, at)) else {
                continue;
            };
            let h = if at == 1 { 100 } else { 0 };
            if p.get(h) != Some(&0x05) {
                continue;
            }
            let cells = be16(&p, h + 3) as usize;
            let children = (0..cells.min(p.len() / 2))
                .map(|c| be32(&p, be16(&p, h + 12 + 2 * c) as usize))
                .chain([be32(&p, h + 8)]);
            for child in children {
                if child == page {
                    return true;
                }
                stack.push(child);
            }
        }
        false
    }

    /// Whether a rowid table's page `b` (page `page`, a leaf or an interior page) read
    /// in the state `carve_snap` holds (an older version's, in the paged mode) was this
    /// table's page in that state: a search for the rowid of its first cell from the
    /// table's root, as SQLite searches (depth-many pages), meets the page (for a leaf
    /// without cells, an interior page of the table points to it). `None` for an index
    /// b-tree, no state, or a search that fails. Pages
    /// change owners, and cells of one shape (two key-value tables) cannot tell whose
    /// they were.
    fn reached_in_state(&self, b: &[u8], page: u32) -> Option<bool> {
        let snap = self.carve_snap.as_ref()?;
        if self.shape.is_index() || page == 1 {
            return None;
        }
        if be16(b, 3) == 0 {
            // no row to search for (a leaf a balance emptied before freeing it): the
            // table's interior pages in that state, one by one, for a pointer to it
            return (b.first() == Some(&0x0d)).then(|| self.child_in_state(snap, page));
        }
        let rowid = match b.first()? {
            0x0d => {
                let cell = be16(b, 8) as usize;
                let (_, n) = varint(b, cell)?;
                varint(b, cell + n)?.0
            }
            0x05 => varint(b, be16(b, 12) as usize + 4)?.0,
            _ => return None,
        } as i64;
        meets(&self.pages, snap, self.shape.root, rowid, page)
    }

    /// Whether the overflow page number at `b[at..at + 4]` can begin a carved record's
    /// chain (see [`Recoverer::overflow`]): a page of the database that, where the image
    /// still has the version read, is a freelist leaf and no live b-tree's page.
    fn first_hop_ok(&self, b: &[u8], at: usize, snap: Option<&Snapshot>) -> bool {
        let Some(ptr) = b.get(at..at + 4) else {
            return false;
        };
        let first = be32(ptr, 0);
        let v = match snap {
            Some(s) => resolve(s, first),
            None => self.current(first),
        };
        first != 0
            && first as usize <= self.max_pages
            && (v != self.current(first)
                || (!self.live_trees.contains(&first) && self.free_leaves.contains(&first)))
    }

    /// The local part of a payload of `payload` bytes on this table's leaf pages.
    fn local(&self, payload: usize) -> usize {
        if self.shape.is_index() {
            index_tree::local_size(payload, self.pages.usable)
        } else {
            local_size(payload, self.pages.usable)
        }
    }

    /// Carves records from the free regions (freeblocks, unallocated gap) of a leaf page.
    fn carve_page(&mut self, b: &[u8], page: u32, name: &str) {
        self.carve_page_regions(b, page, name, true);
    }

    /// The unallocated gap of another live table's page, carved for a dropped table
    /// that may have had the page before (a freelist page taken as a leaf keeps its old
    /// bytes there); its freeblocks are its owner's freed cells (a page taken from the
    /// freelist starts with no freeblock), and are left to it. With the owner's shape
    /// (`owner`, a carver of it), no candidate may overlap a record the owner's shape
    /// finds in that gap: its own stale cells, which a permissive dropped shape (an
    /// alias and a text) reads from a byte in their middle.
    fn carve_gap_for_dropped(
        &mut self,
        b: &[u8],
        page: u32,
        name: &str,
        owner: Option<&mut Recoverer<'_>>,
    ) {
        if let Some(owner) = owner {
            self.exclude = owner.gap_spans(b, page);
        }
        self.carve_page_regions(b, page, name, false);
        self.exclude = Spans::default();
    }

    /// The byte ranges of the records this table's shape finds in the unallocated gap
    /// of page `b` (what is found is dropped: only where it lies is kept).
    fn gap_spans(&mut self, b: &[u8], page: u32) -> Spans {
        let spans = match self.gap_of(b, page) {
            Some((a, z)) => self.carve(b, a, z, Region::Gap, "gap"),
            None => Spans::default(),
        };
        self.found.clear();
        spans
    }

    /// The unallocated gap of a b-tree page: after its cell pointers, before its cells.
    fn gap_of(&self, b: &[u8], page: u32) -> Option<(usize, usize)> {
        let h = if page == 1 { 100 } else { 0 };
        let kind = *b.get(h)?;
        if !matches!(kind, 0x0d | 0x05 | 0x0a | 0x02) {
            return None;
        }
        let usable = self.pages.usable.min(b.len());
        let hdr = if matches!(kind, 0x05 | 0x02) { 12 } else { 8 };
        let gap_start = h + hdr + 2 * be16(b, h + 3) as usize;
        let content = match be16(b, h + 5) as usize {
            0 => 65536,
            c => c,
        };
        (gap_start < content && content <= usable).then_some((gap_start, content))
    }

    fn carve_page_regions(&mut self, b: &[u8], page: u32, name: &str, freeblocks: bool) {
        // Bounded work per page.
        let h = if page == 1 { 100 } else { 0 };
        let Some(&kind) = b.get(h) else { return };
        if !matches!(kind, 0x0d | 0x05 | 0x0a | 0x02) {
            return;
        }
        let usable = self.pages.usable.min(b.len());
        if let Some((gap_start, content)) = self.gap_of(b, page) {
            self.carve(
                b,
                gap_start,
                content,
                Region::Gap,
                &format!("unallocated space at {name}"),
            );
        }
        // Freeblock chain.
        if !freeblocks {
            return;
        }
        let mut fb = be16(b, h + 1) as usize;
        let mut hops = 0;
        while fb != 0 && fb + 4 <= usable && hops < 10_000 {
            hops += 1;
            let size = be16(b, fb + 2) as usize;
            // A link that leaves the page is stale (an older page state): stop there.
            if size < 4 || fb + size > usable {
                break;
            }
            let end = fb + size;
            self.carve(
                b,
                fb,
                end,
                Region::Freeblock,
                &format!("freeblock at {name}"),
            );
            let next = be16(b, fb) as usize;
            if next != 0 && next <= fb {
                break;
            }
            fb = next;
        }
    }

    /// Scans `b[start..end]` for records.
    ///
    /// What was found is kept as a set of byte ranges that the damaged-cell search must
    /// not overlap; it asks at almost every byte of a gap, so the set answers in
    /// logarithmic time (a scan of every range per byte was quadratic in a page).
    ///
    /// A freeblock (`clobbered`) lost its first four bytes to the freeblock link: the
    /// cell at its start is rebuilt first ([`Recoverer::rebuild_clobbered`]), then whole
    /// records are looked for in the rest. In unallocated space, whole records are
    /// looked for first; then, where none was found, cells damaged the same way (a
    /// freeblock absorbed into the gap keeps its link bytes).
    /// Whether the first column of a reading that inferred it (its serial type lost to a
    /// freeblock link, its length what the cell's size leaves) refutes the layout every
    /// live value of that column shares, when they share one (index_tree::Template).
    fn first_layout_refutes(&self, values: &[Value]) -> bool {
        match (self.live.templates.first(), values.first()) {
            (Some(Some(tpl)), Some(v)) => !index_tree::fits_template(tpl, v),
            _ => false,
        }
    }

    /// Rebuilds the freed cell at `start`, whose first four bytes a freeblock link took
    /// (`size` the link's), and adds it to what was found; returns the bytes it took.
    ///
    /// A freed cell fills its freeblock, or shares it with cells freed next to it
    /// ([`Recoverer::tiles`]). SQLite allocates new cells from a freeblock's end, and
    /// absorbs a fragment of up to three bytes before a freed cell into its start, which
    /// shifts every byte the rebuild reads: a rebuilt cell that ends elsewhere is such a
    /// misreading (text cut at the wrong byte). (A cell whose length and rowid varints
    /// took four bytes or more kept its header, and is found by the scan.)
    fn carve_linked(
        &mut self,
        b: &[u8],
        start: usize,
        end: usize,
        size: usize,
        name: &str,
    ) -> Option<usize> {
        let rebuilt = if self.shape.is_index() {
            self.rebuild_index(b, start, size)
                .or_else(|| self.rebuild_index_spilled(b, start, size))
        } else {
            self.rebuild_clobbered(b, start, end, Some(size), None)
                .map(|(v, l, i)| (v, l, i, Vec::new(), Cut::default()))
                .or_else(|| {
                    self.rebuild_spilled(b, start, end, true)
                        .filter(|(_, l, ..)| self.tiles(b, start + l, start + size))
                        .map(|(v, l, _, m, t)| (v, l, false, m, t))
                })
                .or_else(|| self.rebuild_freeblock(b, start, size))
        };
        let (values, len, inferred, missing, cut) = rebuilt?;
        // a first column inferred from the freeblock's size must fit the layout every
        // live value of that column shares, when they share one (a UUID key cut to
        // `81af1` came back)
        if inferred && self.first_layout_refutes(&values) {
            return None;
        }
        let probes = if inferred && !self.shape.is_index() {
            let n0 = stored_bytes(&values[..1], self.pages.encoding).len();
            self.probes(b, start + 4, start + size, n0)
        } else {
            Vec::new()
        };
        self.found.push(Found {
            rowid: None,
            values,
            location: format!("{name} offset {start}"),
            probes,
            missing,
            reach: Reach::Deleted,
            carved: true,
            truncated: cut.truncated,
            declared_len: cut.declared_len,
        });
        Some(len)
    }

    fn carve(&mut self, b: &[u8], start: usize, end: usize, region: Region, name: &str) -> Spans {
        // a raw region without a byte that could begin this shape's header holds nothing
        // the scan below could find (see `may_hold_header`)
        if region == Region::Raw && !may_hold_header(b, start, end, self.shape.affinities.len()) {
            return std::mem::take(&mut self.exclude);
        }
        self.carve_region(b, start, end, region, name)
    }

    /// [`Recoverer::carve`] without its gate: every byte of the region tried.
    fn carve_region(
        &mut self,
        b: &[u8],
        start: usize,
        end: usize,
        region: Region,
        name: &str,
    ) -> Spans {
        let clobbered = region == Region::Freeblock;
        let enc = self.pages.encoding;
        let end = end.min(b.len());
        // another table's records (`exclude`) are taken already
        let exclude = std::mem::take(&mut self.exclude);
        let mut spans = exclude.clone();
        let mut floor = start;
        // The unallocated gap begins with what was the cell pointer array when the page
        // held more cells: two-byte offsets into the page, which decode as headers of
        // NULLs and numbers, as blobs, and as freeblock links. Nothing is carved from
        // where the bytes still read as such offsets.
        if region == Region::Gap {
            let usable = self.pages.usable.min(b.len());
            while floor + 2 <= end && (start + 2..usable).contains(&(be16(b, floor) as usize)) {
                floor += 2;
            }
        }
        let gap_floor = floor;
        // Where cells freed into this freeblock from the top down begin: SQLite merged
        // each into the block above it, writing the link at the lower cell and leaving
        // the upper cell's link as it was, its size reaching the block's end. A cell
        // that shares the block ends where the next such link begins (its own link,
        // rewritten by the merge, holds the size of the run, not its own).
        let merged: Vec<usize> = if clobbered && !self.shape.is_index() {
            (start + 4..end.saturating_sub(5))
                .filter(|&p| self.link_ok(b, p) && p + be16(b, p + 2) as usize == end)
                .collect()
        } else {
            Vec::new()
        };
        let merged_after = |s: usize| {
            let i = merged.partition_point(|&p| p < s + 4);
            merged.get(i).copied()
        };
        if clobbered {
            floor = start + 4;
            let size = be16(b, start + 2) as usize;
            let linked = self.carve_linked(b, start, end, size, name).or_else(|| {
                let next = merged_after(start)?;
                self.carve_linked(b, start, next, next - start, name)
            });
            if let Some(len) = linked {
                floor = start + len;
                spans.insert(start, start + len);
            }
        }
        let memo = carve_memo::TextMemo::new(b, floor, end);
        let mut gap_cut = None;
        let mut s = floor;
        let excluded = |a: usize, z: usize| !exclude.0.is_empty() && exclude.overlaps(a, z);
        while s + 2 <= end {
            if excluded(s, s + 1) {
                s += 1;
                continue;
            }
            if b[s] != 0 {
                if let Some((mut values, len)) =
                    parse_record_with(&self.shape, b, s, end, enc, Strict::Carved, Some(&memo))
                        .filter(|(_, len)| !excluded(s, s + len))
                        .filter(|(_, len)| self.cell_start_ok(b, s, floor, *len, region))
                        // a WITHOUT ROWID record's blob may run over a later cell
                        .filter(|(_, len)| {
                            !self.shape.is_index() || self.embedded_cell(b, s, s + len).is_none()
                        })
                {
                    let before = self.rowid_before(b, s, floor, len);
                    let rowid = before.filter(|_| !self.shape.is_index()).map(|x| x.0);
                    self.set_alias(&mut values, rowid);
                    self.found.push(Found {
                        rowid,
                        values,
                        location: format!("{name} offset {s}"),
                        probes: Vec::new(),
                        missing: Vec::new(),
                        reach: Reach::Deleted,
                        carved: true,
                        truncated: None,
                        declared_len: None,
                    });
                    // The cell began before its record, with its length and rowid varints.
                    let prefix = before.map(|x| x.1).unwrap_or(2);
                    spans.insert(s.saturating_sub(prefix).max(floor), s + len);
                    s += len;
                    continue;
                }
                if let Some((values, len, _, missing, cut)) = self
                    .spilled(b, s, end, &[], region == Region::Freeblock)
                    .filter(|(_, len, ..)| !excluded(s, s + len))
                    .filter(|(_, _, total, ..)| self.cell_start_ok(b, s, floor, *total, region))
                    // a partial one (its chain gone) only where the region is known free
                    .filter(|r| r.3.is_empty() || region == Region::Freeblock)
                {
                    self.found.push(Found {
                        rowid: None,
                        values,
                        location: format!("{name} offset {s}"),
                        probes: Vec::new(),
                        missing,
                        reach: Reach::Deleted,
                        carved: true,
                        truncated: cut.truncated,
                        declared_len: cut.declared_len,
                    });
                    spans.insert(s, s + len);
                    s += len;
                    continue;
                }
                // A header that reads as this table's, whose body did not survive:
                // step over it, so that its bytes are not read as another header.
                if let Some(hlen) = self.header_len(b, s, end) {
                    // At the gap's top, a cell that kept its head and lost its tail to
                    // the cells SQLite took from the gap's end since (kept below unless
                    // a whole record lies in what it would read as its body).
                    if region == Region::Gap && gap_cut.is_none() {
                        if let Some(p) = self.gap_partial(b, s, hlen, floor, end) {
                            gap_cut = Some((s, p));
                        }
                    }
                    s += hlen;
                    continue;
                }
            }
            s += 1;
        }
        if let Some((at, (rowid, values, missing, cut))) = gap_cut {
            if !spans.overlaps(at + 1, end) {
                self.found.push(Found {
                    rowid: Some(rowid),
                    values,
                    location: format!("{name} offset {at}"),
                    probes: Vec::new(),
                    missing,
                    reach: Reach::Deleted,
                    carved: true,
                    truncated: cut.truncated,
                    declared_len: cut.declared_len,
                });
                spans.insert(at, end);
            }
        }
        // Stale freeblock links: a freed cell whose first four bytes a link overwrote,
        // in the gap, or inside a freeblock that absorbed it when a neighbour was freed
        // (SQLite merges adjacent freeblocks and leaves the inner link as it was).
        let mut s = match region {
            Region::Gap => gap_floor,
            // (a WITHOUT ROWID table's freeblocks are read by `rebuild_index`, which
            // tiles the whole freeblock)
            Region::Freeblock if !self.shape.is_index() => start + 4,
            _ => return spans,
        };
        while s + 6 <= end {
            // The four bytes must read as the freeblock link they once were: the next
            // freeblock after this one (or none), and a size that fits the page.
            if !self.link_ok(b, s) || spans.overlaps(s, s + 6) {
                s += 1;
                continue;
            }
            // The freeblock the link describes must have covered the whole cell.
            let size = be16(b, s + 2) as usize;
            let rebuilt = if self.shape.is_index() {
                (s + size <= end)
                    .then(|| self.rebuild_index(b, s, size))
                    .flatten()
                    .filter(|r| r.3.is_empty())
                    .map(|(v, l, ..)| (v, l))
            } else {
                self.rebuild_clobbered(b, s, end, None, Some(&memo))
                    .map(|(v, l, _)| (v, l))
                    .or_else(|| {
                        self.rebuild_spilled(b, s, end, false)
                            .filter(|r| r.3.is_empty())
                            .map(|(v, l, ..)| (v, l))
                    })
                    // a cell merged into the block from above: it ends where the next
                    // merged cell begins (its link's size is the run's)
                    .or_else(|| {
                        let next = merged_after(s)?;
                        self.rebuild_clobbered(b, s, next, Some(next - s), None)
                            .filter(|(_, l, _)| s + l == next)
                            .map(|(v, l, _)| (v, l))
                    })
                    // the run's first-freed cell: its link's size is its own, so it
                    // ends at the block's end, unless a cell SQLite later took from the
                    // block's end (while this link was the block's) cut its tail, which
                    // the first column's inferred length then absorbs, shifting the
                    // next column into it: see [`Recoverer::first_freed_ok`]
                    .or_else(|| {
                        if merged.last() != Some(&s) {
                            return None;
                        }
                        self.rebuild_clobbered(b, s, end, Some(end - s), None)
                            .filter(|(v, l, _)| s + l == end && self.first_freed_ok(v))
                            .map(|(v, l, _)| (v, l))
                    })
            };
            match rebuilt {
                Some((values, len)) if len <= size && !spans.overlaps(s, s + len) => {
                    self.found.push(Found {
                        rowid: None,
                        values,
                        location: format!("{name} offset {s}"),
                        probes: Vec::new(),
                        missing: Vec::new(),
                        reach: Reach::Deleted,
                        carved: true,
                        truncated: None,
                        declared_len: None,
                    });
                    spans.insert(s, s + len);
                    s += len;
                }
                _ => s += 1,
            }
        }
        spans
    }

    /// The length of a record header at `s` that matches the table strictly (column
    /// count and serial types the affinities allow), whatever follows it.
    fn header_len(&self, b: &[u8], s: usize, end: usize) -> Option<usize> {
        let (hlen, n) = varint(b, s)?;
        let hlen = usize::try_from(hlen).ok()?;
        let ncols = self.shape.affinities.len();
        if hlen < 2 || hlen > 1 + 9 * ncols || s + hlen > end {
            return None;
        }
        let mut pos = s + n;
        let mut i = 0;
        while pos < s + hlen {
            let (t, k) = varint(b, pos)?;
            pos += k;
            serial_size(t)?;
            let fits = if Some(i) == self.shape.alias {
                t == 0
            } else {
                type_fits(*self.shape.affinities.get(i)?, t)
            };
            if !fits {
                return None;
            }
            i += 1;
        }
        (pos == s + hlen && i == ncols).then_some(hlen)
    }

    /// Whether the bytes from `at` (where a rebuilt cell ends) to `end` (its freeblock's
    /// end) are other freed cells: a freeblock link (a cell freed on its own before the
    /// two merged) or a whole cell (one freed after, merged without a link), repeated,
    /// landing exactly on `end`. A freed cell fills its freeblock, or shares it with
    /// such neighbours; a rebuilt cell that ends anywhere else was misread.
    /// The size of the table-leaf cell at `at` on its page: payload-length and rowid
    /// varints, the local payload, and the overflow pointer when the payload spills.
    fn leaf_cell_size(&self, b: &[u8], at: usize) -> Option<usize> {
        let (plen, a) = varint(b, at)?;
        let r = if self.shape.is_index() {
            0
        } else {
            varint(b, at + a)?.1
        };
        let plen = usize::try_from(plen).ok()?;
        let local = self.local(plen.min(1 << 30));
        Some(a + r + local + if local < plen { 4 } else { 0 })
    }

    fn tiles(&self, b: &[u8], mut at: usize, end: usize) -> bool {
        for _ in 0..64 {
            if at == end {
                return true;
            }
            if at > end || at + 4 > end {
                return false;
            }
            let link = be16(b, at + 2) as usize;
            let (next, linked) = (be16(b, at) as usize, link >= 4 && at + link <= end);
            if linked && (next == 0 || next > at) {
                at += link;
                continue;
            }
            let Some(size) = self.leaf_cell_size(b, at) else {
                return false;
            };
            at += size;
        }
        false
    }

    /// The bytes of a freeblock after its serial types (which start at `at`), read with
    /// one serial type fewer and with all of the table's: where the record body begins
    /// for a cell that lost its first type, and for one that kept it.
    ///
    /// Read without it (as rebuilt), a known first column longer than the inferred one
    /// (`n0` bytes) at the start proves the inference cut it short; read with it (the
    /// cell kept its header), any known first column there does.
    fn probes(&self, b: &[u8], at: usize, end: usize, n0: usize) -> Vec<(Vec<u8>, usize)> {
        let ncols = self.shape.affinities.len();
        let mut out = Vec::new();
        let mut pos = at;
        for i in 0..ncols {
            let Some((_, k)) = varint(b, pos) else {
                break;
            };
            pos += k;
            let min = if i + 2 == ncols { n0 + 1 } else { 1 };
            if i + 2 >= ncols {
                if let Some(body) = b.get(pos..end) {
                    out.push((body.to_vec(), min));
                }
            }
        }
        out
    }

    /// Whether the freeblock ending at `end` is a freed cell that kept its header (its
    /// serial types at `at`, the header length byte just before them lost) and lost its
    /// tail to a cell SQLite allocated later from the freeblock's end. Such a cell ends
    /// exactly where the cell now starting at `end` ends: SQLite takes new cells from
    /// the end of a freeblock.
    fn kept_header_lost_tail(&self, b: &[u8], at: usize, end: usize) -> bool {
        let ncols = self.shape.affinities.len();
        let mut pos = at;
        let mut types = Vec::with_capacity(ncols);
        for i in 0..ncols {
            let Some((t, k)) = varint(b, pos) else {
                return false;
            };
            let fits = if Some(i) == self.shape.alias {
                t == 0
            } else {
                t == 0 || type_fits(self.shape.affinities[i], t)
            };
            if !fits || serial_size(t).is_none() {
                return false;
            }
            types.push(t);
            pos += k;
        }
        // (types near `u64::MAX` declare a body no sum of sizes can hold)
        let Some(total) = body_size(&types) else {
            return false;
        };
        let (Some(payload), Some(stop)) =
            ((pos - at + 1).checked_add(total), pos.checked_add(total))
        else {
            return false;
        };
        // Such a cell had a three-byte prefix before its header length byte.
        if !self.prefix_ok(3, payload) {
            return false;
        }
        if stop <= end {
            return false;
        }
        // The cell that took the tail.
        self.leaf_cell_size(b, end) == Some(stop - end)
    }

    /// Whether a page of unknown owner (a WAL frame outside the committed chain, a
    /// freelist page) can be this table's. Its own live cells say whose page it is: a
    /// table leaf is the table's when at least half of its cells have a record header
    /// that fits the table (its column count, or fewer for rows written before an
    /// `ALTER TABLE ADD COLUMN`, and serial types the affinities hold). A leaf without
    /// cells and an interior page (no records of its own) are the table's unless their
    /// page number belongs to another b-tree (`others`) and never to this table's
    /// (`mine`): a root page split keeps its old leaf content in its free space. An
    /// index page never holds table records, so its free space holds none either (for a
    /// `WITHOUT ROWID` table, the other way round: only index pages hold its records).
    fn may_own(&self, b: &[u8], page: u32, mine: &HashSet<u32>, others: &HashSet<u32>) -> bool {
        let by_number = mine.contains(&page) || !others.contains(&page);
        let h = if page == 1 { 100 } else { 0 };
        let index = self.shape.is_index();
        let (hdr, skip) = match (b.get(h), index) {
            (Some(0x05), false) => return by_number,
            (Some(0x0d), false) | (Some(0x0a), true) => (8, 0),
            (Some(0x02), true) => (12, 4),
            _ => return false,
        };
        let n = be16(b, h + 3) as usize;
        let usable = self.pages.usable.min(b.len());
        let (mut cells, mut fit) = (0usize, 0usize);
        for c in 0..n.min(usable / 2) {
            let ptr = be16(b, h + hdr + 2 * c) as usize + skip;
            if ptr < h + hdr || ptr >= usable {
                continue;
            }
            cells += 1;
            let start = varint(b, ptr).and_then(|(_, a)| {
                if index {
                    Some(ptr + a)
                } else {
                    varint(b, ptr + a).map(|(_, r)| ptr + a + r)
                }
            });
            if start.is_some_and(|s| self.header_fits(b, s)) {
                fit += 1;
            }
        }
        if cells == 0 {
            by_number
        } else {
            fit * 2 >= cells
        }
    }

    /// Whether the record header at `s` fits the table: 1 to `ncols` columns of serial
    /// types the affinities hold (the rowid alias NULL).
    fn header_fits(&self, b: &[u8], s: usize) -> bool {
        let Some((hlen, n)) = varint(b, s) else {
            return false;
        };
        let ncols = self.shape.affinities.len();
        let Ok(hlen) = usize::try_from(hlen) else {
            return false;
        };
        if hlen < 2 || hlen > 1 + 9 * ncols || s + hlen > b.len() {
            return false;
        }
        let mut pos = s + n;
        let mut i = 0;
        while pos < s + hlen {
            let Some((t, k)) = varint(b, pos) else {
                return false;
            };
            pos += k;
            let fits = match self.shape.affinities.get(i) {
                None => false,
                Some(_) if Some(i) == self.shape.alias => t == 0,
                Some(&a) => serial_size(t).is_some() && (t == 0 || type_fits(a, t)),
            };
            if !fits {
                return false;
            }
            i += 1;
        }
        // a WITHOUT ROWID table's records have every column: an index of another
        // table (its key columns and a rowid) may fit fewer
        pos == s + hlen && (i == ncols || (i >= 1 && !self.shape.is_index()))
    }

    /// True when the four bytes at `s` read as a freeblock link: the next freeblock
    /// after this one (or none), and a size that fits the page.
    fn link_ok(&self, b: &[u8], s: usize) -> bool {
        let usable = self.pages.usable;
        if s + 4 > b.len() {
            return false;
        }
        let next = be16(b, s) as usize;
        let size = be16(b, s + 2) as usize;
        (next == 0 || (next > s + 3 && next < usable)) && size >= 4 && s + size <= usable
    }

    /// Whether a whole record found at `s` (of payload length `payload`) starts a cell:
    /// in a freeblock, always (the region is known free); elsewhere its length and
    /// rowid varints must precede it, or the freeblock link that overwrote them. Stray
    /// text (old overflow pages, stale content) otherwise decodes as records.
    fn cell_start_ok(
        &self,
        b: &[u8],
        s: usize,
        floor: usize,
        payload: usize,
        region: Region,
    ) -> bool {
        match region {
            Region::Freeblock => true,
            Region::Gap => {
                // A link counts only if the freeblock it describes covered the record.
                let local = self.local(payload).min(payload);
                self.rowid_before(b, s, floor, payload).is_some()
                    || (4..=6).any(|k| {
                        s >= floor + k
                            && self.link_ok(b, s - k)
                            && s - k + be16(b, s - k + 2) as usize >= s + local
                    })
            }
            Region::Raw => self.rowid_before(b, s, floor, payload).is_some(),
        }
    }

    /// The rowid of a carved record, when the cell's payload-length and rowid varints
    /// survive just before it.
    fn rowid_before(&self, b: &[u8], s: usize, floor: usize, len: usize) -> Option<(i64, usize)> {
        if self.shape.is_index() {
            // an index cell: the payload length varint alone (the "rowid" returned is
            // a placeholder the caller leaves out)
            return (1..=3usize).find_map(|p| {
                let at = s.checked_sub(p).filter(|&at| at >= floor)?;
                (varint(b, at) == Some((len as u64, p))).then_some((0, p))
            });
        }
        for r in 1..=9usize {
            for p in 1..=3usize {
                let Some(at) = s.checked_sub(r + p) else {
                    continue;
                };
                if at < floor {
                    continue;
                }
                if varint(b, at) == Some((len as u64, p))
                    && varint(b, at + p).map(|x| x.1) == Some(r)
                {
                    return varint(b, at + p).map(|x| (x.0 as i64, r + p));
                }
            }
        }
        None
    }

    /// A record whose payload spilled onto overflow pages: its header and local part
    /// lie at `hstart` (the first `patch.len()` bytes replaced by `patch`, for a header
    /// whose first bytes a freeblock link overwrote), the rest on the overflow chain
    /// named right after the local part. Freed overflow pages keep their content
    /// unless `secure_delete` zeroed them. Returns the values and the local length.
    /// `partial`: whether a record whose chain is gone is wanted (the columns of its
    /// local part); where it is not (free space not known to be free), it is not
    /// decoded: at every byte of a page that decoding cost up to a page.
    fn spilled(
        &self,
        b: &[u8],
        hstart: usize,
        end: usize,
        patch: &[u8],
        partial: bool,
    ) -> Option<Spilled> {
        let usable = self.pages.usable;
        let end = end.min(b.len());
        let ncols = self.shape.affinities.len();
        // The carving scan asks at almost every byte (and the gap's second pass at every
        // byte that reads as a freeblock link): the header is read in place, or from a
        // copy of the header's bytes alone when patched, and the local part is copied
        // only once the header holds (a copy of the rest of the page at each byte made
        // a page's carving quadratic).
        let head: std::borrow::Cow<'_, [u8]> = if patch.is_empty() {
            b.get(hstart..end)?.into()
        } else {
            let mut v = b
                .get(hstart..end.min(hstart + usable).min(hstart + 2 + 9 * (ncols + 1)))?
                .to_vec();
            if v.len() < patch.len() + 4 {
                return None;
            }
            v[..patch.len()].copy_from_slice(patch);
            v.into()
        };
        if head.len() < 4 {
            return None;
        }
        let local_buf = &head;
        let (hlen, n) = varint(local_buf, 0)?;
        let hlen = usize::try_from(hlen).ok()?;
        let ncols = self.shape.affinities.len();
        if hlen < 2 || hlen > 1 + 9 * ncols || hlen > local_buf.len() {
            return None;
        }
        let mut pos = n;
        let mut total = hlen;
        let mut types = Vec::with_capacity(ncols);
        while pos < hlen {
            let (t, k) = varint(local_buf, pos)?;
            pos += k;
            types.push(t);
            if types.len() > ncols {
                return None;
            }
            total = total.checked_add(serial_size(t)?)?;
        }
        if pos != hlen || types.len() != ncols || total > 1 << 30 {
            return None;
        }
        let local = self.local(total);
        if local >= total || hstart + local + 4 > end.min(hstart + usable) {
            return None;
        }
        // no chain and no partial record wanted: nothing to copy or decode
        if !partial && !self.first_hop_ok(b, hstart + local, self.carve_snap.as_ref()) {
            return None;
        }
        // the whole local part (its header patched)
        let local_buf: std::borrow::Cow<'_, [u8]> = if patch.is_empty() {
            b.get(hstart..hstart + local + 4)?.into()
        } else {
            let mut v = b.get(hstart..hstart + local + 4)?.to_vec();
            v[..patch.len()].copy_from_slice(patch);
            v.into()
        };
        if local + 4 > local_buf.len() {
            return None;
        }
        let Some(payload) =
            self.overflow(&local_buf, 0, local, total, self.carve_snap.as_ref(), true)
        else {
            // the chain is gone (its pages reused): the columns of the local part
            if !partial {
                return None;
            }
            return self
                .partial_local(&local_buf[..local], hlen, &types)
                .map(|(v, m, t)| (v, local + 4, total, m, t));
        };
        let (values, _) = parse_record(
            &self.shape,
            &payload,
            0,
            payload.len(),
            self.pages.encoding,
            Strict::Carved,
        )?;
        Some((values, local + 4, total, Vec::new(), Cut::default()))
    }

    /// The columns of a spilled record that lie wholly in its local part (`local`,
    /// header included), when its overflow chain no longer belongs to it: the column
    /// the local part cuts is missing, with its surviving start when it is text, and so
    /// are the columns after it. `None` unless the header fits the table and what
    /// survives decodes strictly with some content.
    #[allow(clippy::type_complexity)]
    fn partial_local(
        &self,
        local: &[u8],
        hlen: usize,
        types: &[u64],
    ) -> Option<(Vec<Value>, Vec<usize>, Cut)> {
        let ncols = self.shape.affinities.len();
        for (i, &t) in types.iter().enumerate() {
            let fits = if Some(i) == self.shape.alias {
                t == 0
            } else {
                type_fits(self.shape.affinities[i], t) && !(t == 0 && self.shape.not_null[i])
            };
            if !fits {
                return None;
            }
        }
        let sizes: Vec<usize> = types
            .iter()
            .map(|&t| serial_size(t))
            .collect::<Option<_>>()?;
        let mut keep = 0;
        let mut at = hlen;
        for &sz in &sizes {
            if at + sz > local.len() {
                break;
            }
            at += sz;
            keep += 1;
        }
        if keep == 0 || keep == ncols {
            return None;
        }
        let (mut values, _) = decode_body(
            &self.shape,
            &types[..keep],
            local,
            hlen,
            local.len(),
            self.pages.encoding,
            Strict::Carved,
        )?;
        let missing: Vec<usize> = (keep..ncols).filter(|&i| sizes[i] > 0).collect();
        for i in keep..ncols {
            if sizes[i] == 0 {
                values[i] = match types[i] {
                    8 => Value::Integer(0),
                    9 => Value::Integer(1),
                    _ => Value::Null,
                };
            }
        }
        let cut = types[keep];
        let truncated = if cut >= 13 && cut % 2 == 1 && self.pages.encoding <= 1 {
            let rest = &local[at..];
            let good = match std::str::from_utf8(rest) {
                Ok(t) => t.len(),
                Err(e) => e.valid_up_to(),
            };
            std::str::from_utf8(&rest[..good])
                .ok()
                .filter(|t| !t.is_empty())
                .map(|t| (keep, Value::Text(t.to_string())))
        } else if cut >= 12 && cut % 2 == 0 && at < local.len() {
            // a blob's start: its bytes as they are (a consumer may count them)
            Some((keep, Value::Blob(local[at..].to_vec())))
        } else {
            None
        };
        let declared_len = Some((keep, sizes[keep] as u64));
        Some((
            values,
            missing,
            Cut {
                truncated,
                declared_len,
            },
        ))
    }

    /// Schema-driven rebuild of the freed cell at a freeblock start (`fb`, `size`
    /// bytes), where [`Recoverer::rebuild_clobbered`] found none: every way the four
    /// overwritten bytes can have been laid out ([`LAYOUTS`]: one- or two-byte length
    /// and rowid varints, a one- or two-byte header length, a first serial type of one
    /// or two bytes lost), the lost first type inferred from the freeblock's size and
    /// the column's affinity (a number's size names its type; a text or blob fills
    /// what is left). Only readings that decode completely under the strict rules and
    /// fill their freeblock (or share it with other freed cells) are kept. Several
    /// readings: the one whose value classes match the table's live records wins; if
    /// they still differ only in the inferred column (NULL, 0 or 1 store no bytes),
    /// that column is returned missing, never guessed.
    ///
    /// A freed cell that kept its serial types but whose body runs past the freeblock
    /// into the cell SQLite later allocated from its end (which ends exactly where the
    /// freed cell ended) is returned partial: the columns wholly inside the freeblock,
    /// the others missing.
    fn rebuild_freeblock(&self, b: &[u8], fb: usize, size: usize) -> Option<Rebuilt> {
        let ncols = self.shape.affinities.len();
        let end = fb + size;
        if end > b.len() || size < 5 {
            return None;
        }
        let enc = self.pages.encoding;
        let mut cands: Vec<Rebuilt> = Vec::new();
        for lay in LAYOUTS {
            let hs = fb + lay.prefix;
            let (first_types, mut pos) = match lay.first_lost {
                0 => (0, hs + lay.hlen_bytes),
                1 => (1, fb + 4),
                _ => (1, fb + 5),
            };
            if lay.first_lost == 0 && lay.hlen_bytes == 2 && lay.prefix == 3 {
                // the header length's second byte survives at fb + 4
                if b[fb + 4] & 0x80 != 0 {
                    continue;
                }
            }
            if lay.first_lost == 2 && b[fb + 4] & 0x80 != 0 {
                continue;
            }
            if ncols < first_types + 1 && first_types > 0 {
                continue;
            }
            let mut types = Vec::with_capacity(ncols);
            let mut ok = true;
            for _ in first_types..ncols {
                match varint(b, pos) {
                    Some((t, k)) if pos + k <= end => {
                        types.push(t);
                        pos += k;
                    }
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            let hlen = pos - hs;
            let hlen_ok = match lay.hlen_bytes {
                1 => hlen <= 127,
                _ => (128..16384).contains(&hlen),
            };
            if !hlen_ok {
                continue;
            }
            if lay.first_lost == 0
                && lay.hlen_bytes == 2
                && lay.prefix == 3
                && (hlen & 0x7f) as u8 != b[fb + 4]
            {
                continue;
            }
            let body_at = pos;
            // a lost first type that is the rowid alias's is known: NULL
            let first_types =
                if first_types == 1 && lay.first_lost == 1 && self.shape.alias == Some(0) {
                    types.insert(0, 0);
                    0
                } else {
                    first_types
                };
            if first_types == 0 {
                // every type survives: whole, or partial when the tail was taken
                if let Some((values, body)) =
                    decode_body(&self.shape, &types, b, body_at, end, enc, Strict::Carved)
                {
                    if self.tiles(b, body_at + body, end) && self.prefix_ok(lay.prefix, hlen + body)
                    {
                        cands.push((
                            values,
                            body_at + body - fb,
                            false,
                            Vec::new(),
                            Cut::default(),
                        ));
                    }
                    continue;
                }
                if let Some(p) = self.partial_tail(b, &types, lay.prefix, hlen, body_at, end, false)
                {
                    cands.push(p);
                } else if let Some(p) = self.bad_tail(b, &types, lay.prefix, hlen, body_at, end) {
                    cands.push(p);
                }
                continue;
            }
            // (saturating: five unknown types would overflow the sum)
            let known: usize = types.iter().fold(0usize, |sum, &t| {
                sum.saturating_add(serial_size(t).unwrap_or(usize::MAX / 4))
            });
            let Some(n) = end.checked_sub(body_at).and_then(|r| r.checked_sub(known)) else {
                continue;
            };
            for t0 in self.first_types(n) {
                let fits_len = match lay.first_lost {
                    1 => t0 < 128,
                    _ => (128..16384).contains(&t0) && (t0 & 0x7f) as u8 == b[fb + 4],
                };
                if !fits_len {
                    continue;
                }
                let mut all = Vec::with_capacity(ncols);
                all.push(t0);
                all.extend_from_slice(&types);
                if let Some((values, body)) =
                    decode_body(&self.shape, &all, b, body_at, end, enc, Strict::Carved)
                {
                    if body_at + body == end && self.prefix_ok(lay.prefix, hlen + body) {
                        cands.push((values, size, true, Vec::new(), Cut::default()));
                    }
                } else if self.shape.root == 1 {
                    // the schema table: a record whose type (`table`, `index` ...) was
                    // inferred and whose CREATE text lost its end to a placeholder
                    if let Some(p) = self
                        .bad_tail(b, &all, lay.prefix, hlen, body_at, end)
                        .filter(|p| {
                            matches!(&p.0[0], Value::Text(t) if matches!(t.as_str(), "table" | "index" | "view" | "trigger"))
                        })
                    {
                        cands.push(p);
                    }
                }
            }
        }
        if cands.is_empty() {
            if let Some(p) = self.kept_header_partial(b, fb, end) {
                cands.push(p);
            }
        }
        self.choose(cands)
    }

    /// A freed cell whose length and rowid varints took the four bytes the freeblock
    /// link overwrote (a two-byte payload length and a rowid of 128 or more) kept its
    /// whole header at `fb + 4`, header length byte included; the scan finds it when
    /// its body survives whole. When SQLite later took the freeblock's end for a new
    /// cell, the body is cut: the columns wholly inside the freeblock come back, the cut
    /// one's surviving start in `truncated`, the others missing
    /// ([`Recoverer::partial_tail`], which requires the cells at the freeblock's end to
    /// end exactly where the freed cell did).
    fn kept_header_partial(&self, b: &[u8], fb: usize, end: usize) -> Option<Rebuilt> {
        let ncols = self.shape.affinities.len();
        let hs = fb + 4;
        let (hlen, k) = varint(b, hs).filter(|&(h, k)| k == 1 && (2..=127).contains(&h))?;
        let hlen = hlen as usize;
        let mut pos = hs + k;
        let mut types = Vec::with_capacity(ncols);
        for _ in 0..ncols {
            let (t, k) = varint(b, pos).filter(|&(_, k)| pos + k <= end)?;
            types.push(t);
            pos += k;
        }
        if pos - hs != hlen {
            return None;
        }
        self.partial_tail(b, &types, 4, hlen, pos, end, false)
    }

    /// A record at `s` (its header `hlen` bytes) in a leaf page's unallocated gap whose header and payload-length
    /// and rowid varints survive, and whose body runs past the gap's end `end` (the cell
    /// content area's start) into live cells that cover the rest of it: a cell freed at
    /// the top of the content area (it joined the gap whole), whose tail the cells
    /// inserted since took. The columns wholly in the gap, the others missing
    /// ([`Recoverer::partial_tail`]); `None` for a `WITHOUT ROWID` table, or where the
    /// gap does not end at live cells.
    fn gap_partial(
        &self,
        b: &[u8],
        s: usize,
        hlen: usize,
        floor: usize,
        end: usize,
    ) -> Option<(i64, Vec<Value>, Vec<usize>, Cut)> {
        if self.shape.is_index() {
            return None;
        }
        let ncols = self.shape.affinities.len();
        let mut types = Vec::with_capacity(ncols);
        let mut pos = s + varint(b, s)?.1;
        while pos < s + hlen {
            let (t, k) = varint(b, pos)?;
            types.push(t);
            pos += k;
        }
        let total = body_size(&types)?;
        // its body crosses the gap's end, and it did not spill (its cell ends on the
        // page, with the live cells that cover its rest)
        let usable = self.pages.usable.min(b.len());
        let cell_end = (s + hlen).checked_add(total)?;
        if cell_end <= end || cell_end > usable || self.local(hlen + total) < hlen + total {
            return None;
        }
        let (rowid, prefix) = self.rowid_before(b, s, floor, hlen + total)?;
        let (mut values, _, _, missing, cut) =
            self.partial_tail(b, &types, prefix, hlen, s + hlen, end, true)?;
        self.set_alias(&mut values, Some(rowid));
        Some((rowid, values, missing, cut))
    }

    /// The serial types column 0 can have when its content is `n` bytes long, as its
    /// affinity allows.
    fn first_types(&self, n: usize) -> Vec<u64> {
        if self.shape.alias == Some(0) {
            return if n == 0 { vec![0] } else { Vec::new() };
        }
        let aff = self.shape.affinities[0];
        let mut out = Vec::new();
        let number = match n {
            0 => vec![8, 9],
            1 => vec![1],
            2 => vec![2],
            3 => vec![3],
            4 => vec![4],
            6 => vec![5],
            // eight bytes: a real in a REAL column (an integral one is stored as a
            // smaller integer), an integer in an INTEGER one, either elsewhere
            8 => match aff {
                Affinity::Real => vec![7],
                Affinity::Integer => vec![6],
                _ => vec![6, 7],
            },
            _ => Vec::new(),
        };
        if n == 0 && !self.shape.not_null[0] {
            out.push(0);
        }
        for t in number
            .into_iter()
            .chain([13 + 2 * n as u64, 12 + 2 * n as u64])
        {
            if type_fits(aff, t) {
                out.push(t);
            }
        }
        out
    }

    /// A freed cell whose serial types survive but whose body runs past the freeblock
    /// end `end` into a cell allocated later from the freeblock's end: the columns
    /// wholly before `end`, the rest missing. `None` unless the cell at `end` ends
    /// exactly where the freed cell did (SQLite takes a new cell from a freeblock's
    /// end) and what survives decodes strictly with some content.
    ///
    /// `cover`: the cells from `end` need only cover the rest of the freed cell, not end
    /// where it did: the unallocated gap's top, where SQLite takes each new cell from
    /// the gap's end, below the last, whatever lay there.
    #[allow(clippy::too_many_arguments)]
    fn partial_tail(
        &self,
        b: &[u8],
        types: &[u64],
        prefix: usize,
        hlen: usize,
        body_at: usize,
        end: usize,
        cover: bool,
    ) -> Option<Rebuilt> {
        let ncols = self.shape.affinities.len();
        if types.len() != ncols {
            return None;
        }
        let sizes: Vec<usize> = types
            .iter()
            .map(|&t| serial_size(t))
            .collect::<Option<_>>()?;
        let total = body_size(types)?;
        let cell_end = body_at.checked_add(total)?;
        if cell_end <= end || !self.prefix_ok(prefix, hlen.checked_add(total)?) {
            return None;
        }
        // every type must fit the column, even those of the columns lost
        for (i, &t) in types.iter().enumerate() {
            let fits = if Some(i) == self.shape.alias {
                t == 0
            } else {
                type_fits(self.shape.affinities[i], t) && !(t == 0 && self.shape.not_null[i])
            };
            if !fits {
                return None;
            }
        }
        // the cells SQLite took from the freeblock's end, each a live cell of the page,
        // lie end to end up to where the freed cell ended
        let pointers = cell_pointers(b, self.pages.usable);
        let mut at = end;
        for _ in 0..256 {
            if at >= cell_end || !pointers.contains(&at) {
                break;
            }
            at += self.leaf_cell_size(b, at)?;
        }
        if at < cell_end || (at != cell_end && !cover) {
            return None;
        }
        let mut keep = 0;
        let mut at = body_at;
        for &sz in &sizes {
            if at + sz > end {
                break;
            }
            at += sz;
            keep += 1;
        }
        if keep == 0 || keep == ncols {
            return None;
        }
        let (values, _) = decode_body(
            &self.shape,
            &types[..keep],
            b,
            body_at,
            end,
            self.pages.encoding,
            Strict::Carved,
        )?;
        // the columns lost must have held bytes (a lost NULL is no loss)
        let missing: Vec<usize> = (keep..ncols).filter(|&i| sizes[i] > 0).collect();
        if missing.is_empty() {
            return None;
        }
        let mut values = values;
        for i in keep..ncols {
            if sizes[i] == 0 {
                values[i] = match types[i] {
                    8 => Value::Integer(0),
                    9 => Value::Integer(1),
                    _ => Value::Null,
                };
            }
        }
        Some((
            values,
            end - (body_at - hlen - prefix),
            false,
            missing,
            Cut {
                // The cut value's surviving start, unless a record header of this table
                // begins in it: the freeblock's end then holds a stale cell written
                // there after this one was freed (`deleted_plain.db`: `lo=` and a
                // later cell's head after `body of note 185: lorem ipsum`), so its
                // bytes are not all this value's.
                truncated: (at + 1..end)
                    .all(|p| self.header_len(b, p, end).is_none())
                    .then(|| cut_start(&b[at..end], types[keep], self.pages.encoding))
                    .flatten()
                    .map(|v| (keep, v)),
                declared_len: Some((keep, sizes[keep] as u64)),
            },
        ))
    }

    /// A freed cell that fills its freeblock exactly, every column decoding strictly
    /// but the last, a text whose final bytes (at most 16) are not text: a small cell
    /// SQLite wrote into the freeblock's end and freed again (a `CREATE TABLE` writes a
    /// placeholder schema record of 8 bytes, then replaces it). The last column is
    /// returned missing, with the text that survives before the damage.
    fn bad_tail(
        &self,
        b: &[u8],
        types: &[u64],
        prefix: usize,
        hlen: usize,
        body_at: usize,
        end: usize,
    ) -> Option<Rebuilt> {
        let ncols = self.shape.affinities.len();
        if types.len() != ncols || ncols < 2 || self.pages.encoding > 1 {
            return None;
        }
        let last = *types.last()?;
        if last < 13 || last % 2 == 0 || !type_fits(self.shape.affinities[ncols - 1], last) {
            return None;
        }
        let (values, body) = decode_body(
            &self.shape,
            &types[..ncols - 1],
            b,
            body_at,
            end,
            self.pages.encoding,
            Strict::Carved,
        )?;
        let at = body_at + body;
        let size = serial_size(last)?;
        if at + size != end || !self.prefix_ok(prefix, hlen + body + size) {
            return None;
        }
        let tail = &b[at..end];
        let good = text_run(tail);
        if good == 0 || good == size || size - good > 16 {
            return None;
        }
        let text = std::str::from_utf8(&tail[..good]).ok()?.to_string();
        Some((
            values,
            end - (body_at - hlen - prefix),
            false,
            vec![ncols - 1],
            Cut {
                truncated: Some((ncols - 1, Value::Text(text))),
                declared_len: Some((ncols - 1, size as u64)),
            },
        ))
    }

    /// Whether a merged run's first-freed cell, rebuilt to its block's end, was read at
    /// its own length: its first column (whose length the block's end gave) is not
    /// empty and ends with a byte of a class some live value of that column ends with,
    /// its second column begins with a byte some live value of that column begins with,
    /// and its last column ends with a byte some live value of that column ends with
    /// (the bytes themselves, learnt from the live rows [`Templates`] reads). A cell
    /// whose tail a later cell took (that cell allocated from the block's end while this
    /// cell's link was the block's, which shrank its size) reads with its first column
    /// as much shorter, the second beginning with the first's last bytes (`kv:2:2` and
    /// `0kv value tang` from `kv:2:20` and `kv value tango`), and its last column cut in
    /// its middle. A column among these that is no text or blob, or without live text
    /// or blob values, says nothing: the cell is left.
    ///
    /// [`Templates`]: index_tree::Templates
    fn first_freed_ok(&self, values: &[Value]) -> bool {
        let n = values.len();
        let edges = &self.live.edges;
        n >= 2
            && n == self.shape.affinities.len()
            && edges.len() == n
            && edges[0].ends_like(&values[0])
            && edges[1].fits(&values[1], true, n == 2)
            && (n == 2 || edges[n - 1].fits(&values[n - 1], false, true))
    }

    /// Whether every value of a record whose cell could not be confirmed (a rebuilt
    /// freed cell, or a record in free space with no length and rowid varints before
    /// it that fit) is of a class (number, text, blob) its column holds in the table's
    /// live records. Such a record's shape is weak evidence: on a 500 MB Cursor-like
    /// database a 1-character key with a 4-byte integer value, in a column whose live
    /// values are all text or blobs, was read from stale bytes of a page's gap. NULL
    /// always fits, as do missing columns and columns with no live value.
    fn fits_habits(&self, values: &[Value], missing: &[usize]) -> bool {
        values.iter().enumerate().all(|(i, v)| {
            let class = class_of_value(v);
            missing.contains(&i)
                || class == 1
                || self.seen.get(i).is_none_or(|&s| s == 0 || s & class != 0)
        })
    }

    /// Picks among the readings of one freed cell (see [`Recoverer::rebuild_freeblock`]).
    /// Readings that do not fit the live records' habits ([`Recoverer::fits_habits`])
    /// are refused first.
    fn choose(&self, mut cands: Vec<Rebuilt>) -> Option<Rebuilt> {
        cands.retain(|c| self.fits_habits(&c.0, &c.3));
        cands.dedup_by(|a, b| a.0 == b.0 && a.3 == b.3);
        if cands.len() <= 1 {
            return cands.pop();
        }
        let score = |c: &Rebuilt| {
            c.0.iter()
                .enumerate()
                .filter(|(i, v)| {
                    !c.3.contains(i)
                        && self
                            .seen
                            .get(*i)
                            .is_some_and(|s| s & class_of_value(v) != 0)
                })
                .count()
        };
        let best = cands.iter().map(score).max()?;
        let mut top: Vec<Rebuilt> = cands.into_iter().filter(|c| score(c) == best).collect();
        top.dedup_by(|a, b| a.0 == b.0 && a.3 == b.3);
        if top.len() == 1 {
            return top.pop();
        }
        // the readings differ only in column 0, inferred: it is returned missing
        let first = &top[0];
        let same_rest = top
            .iter()
            .all(|c| c.1 == first.1 && c.3 == first.3 && c.0.get(1..) == first.0.get(1..));
        if same_rest && first.3.is_empty() && first.0.len() > 1 {
            let mut values = first.0.clone();
            values[0] = Value::Null;
            return Some((values, first.1, false, vec![0], Cut::default()));
        }
        None
    }

    /// [`Recoverer::spilled`] for a cell at a freeblock start (see
    /// [`Recoverer::rebuild_clobbered`]): the header length byte, and for a table whose
    /// first column is the rowid alias its NULL type, are put back.
    fn rebuild_spilled(&self, b: &[u8], fb: usize, end: usize, partial: bool) -> Option<Spilled> {
        let ncols = self.shape.affinities.len();
        for (hstart, lost) in [(fb + 3, 0usize), (fb + 2, 1)] {
            if lost == 1 && self.shape.alias != Some(0) {
                continue;
            }
            let mut pos = fb + 4;
            for _ in lost..ncols {
                let (_, k) = varint(b, pos)?;
                pos += k;
            }
            let hlen = pos - hstart;
            if hlen > 127 {
                continue;
            }
            let patch: &[u8] = if lost == 1 {
                &[hlen as u8, 0]
            } else {
                &[hlen as u8]
            };
            if let Some((values, len, total, missing, truncated)) =
                self.spilled(b, hstart, end, patch, partial)
            {
                return Some((values, hstart - fb + len, total, missing, truncated));
            }
        }
        None
    }

    /// A deleted cell at a freeblock start lost its first four bytes: the payload length
    /// and rowid varints and, for small cells, the record header's length byte and its
    /// first serial type. Rebuild it when the rest of the header survives: the header
    /// length follows from the serial types, a lost rowid-alias type is NULL, and a lost
    /// text or blob type follows from the freeblock size. When the freeblock's size is
    /// known the cell must fill it exactly.
    fn rebuild_clobbered(
        &self,
        b: &[u8],
        fb: usize,
        end: usize,
        size: Option<usize>,
        memo: Option<&carve_memo::TextMemo>,
    ) -> Option<(Vec<Value>, usize, bool)> {
        let ncols = self.shape.affinities.len();
        let enc = self.pages.encoding;
        // Header starts at fb+2 (1-byte length and rowid) or fb+3: both need the serial
        // types from fb+4 on to be intact.
        for hstart in [fb + 3, fb + 2] {
            let lost_types = (fb + 4) - (hstart + 1); // serial types inside the clobbered bytes
            if lost_types > 1 || ncols < lost_types + 1 {
                continue;
            }
            let mut types = Vec::with_capacity(ncols);
            let mut pos = fb + 4;
            for _ in lost_types..ncols {
                let (t, k) = varint(b, pos)?;
                types.push(t);
                pos += k;
            }
            let hlen = pos - hstart;
            if hlen > 127 {
                continue;
            }
            // a first column whose live values share one layout (a UUID, a fixed-width
            // key) has that layout's length, wherever the cell ends
            let template = self
                .live
                .templates
                .first()
                .and_then(Option::as_ref)
                .filter(|_| self.shape.affinities.first() == Some(&Affinity::Text));
            if lost_types == 1 {
                let first = if self.shape.alias == Some(0) {
                    0
                } else if let Some(tpl) = template {
                    13 + 2 * tpl.len() as u64
                } else {
                    // Column 0 fills what the freeblock's size leaves.
                    let size = match size {
                        Some(n) => n,
                        None => continue,
                    };
                    // The same bytes may be a cell that kept its header (a three-byte
                    // prefix) and lost its tail to a cell SQLite later allocated from
                    // the freeblock's end: its length cannot be inferred then.
                    if self.kept_header_lost_tail(b, fb + 4, fb + size) {
                        continue;
                    }
                    // (saturating: five unknown types would overflow the sum)
                    let known: usize = types.iter().fold(0usize, |sum, &t| {
                        sum.saturating_add(serial_size(t).unwrap_or(usize::MAX / 4))
                    });
                    let body = (fb + size).checked_sub(pos)?;
                    let n = body.checked_sub(known)?;
                    match self.shape.affinities[0] {
                        Affinity::Text => 13 + 2 * n as u64,
                        Affinity::Blob => 12 + 2 * n as u64,
                        _ => continue,
                    }
                };
                types.insert(0, first);
            }
            // (in a gap, the region's memo refuses a candidate before it is decoded)
            if memo.is_some_and(|m| !precheck(&self.shape, &types, b, pos, end, enc, Some(m))) {
                continue;
            }
            if let Some((values, body)) =
                decode_body(&self.shape, &types, b, pos, end, enc, Strict::Carved)
                    .filter(|(_, body)| size.is_none_or(|n| self.tiles(b, pos + body, fb + n)))
                    .filter(|(_, body)| self.prefix_ok(hstart - fb, pos - hstart + body))
            {
                let inferred_ok = lost_types == 0
                    || match &values[0] {
                        Value::Text(t) => !t
                            .chars()
                            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')),
                        _ => true,
                    };
                // (a first column read at its layout's length must have that layout)
                let inferred_ok = inferred_ok
                    && (lost_types == 0
                        || self.shape.alias == Some(0)
                        || template.is_none_or(|t| index_tree::fits_template(t, &values[0])));
                // (a reading the live records' value classes refute is weak evidence:
                // see [`Recoverer::fits_habits`])
                if inferred_ok && self.fits_habits(&values, &[]) {
                    let inferred = lost_types == 1 && self.shape.alias != Some(0);
                    return Some((values, pos + body - fb, inferred));
                }
            }
        }
        None
    }
}

/// Recovers the deleted records of `table` (see the module docs).
/// How [`deleted_records`] walks the snapshots of the WAL: `Incremental` always;
/// `Reference`, in tests, as it did before (the whole tree and the schema read again
/// after each commit, the snapshot copied), to compare the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walker {
    Incremental,
    #[cfg(test)]
    Reference,
}

/// Stage 1 of [`deleted_records`]: the table's b-tree in every snapshot, each page
/// version decoded once, in the first snapshot whose tree reaches it.
struct Snapshots<'t> {
    table: &'t str,
    is_master: bool,
    schema_ok: bool,
    walker: Walker,
    tree: TreeWalk,
    /// The table's root as the running snapshot's schema names it, and the pages that
    /// reading read (its b-tree's pages and its records' overflow pages): read again
    /// only after a commit that wrote one of them.
    schema: Option<(SnapRoot, HashSet<u32>)>,
    /// The pages of the table in some snapshot.
    table_pages: HashSet<u32>,
    /// Lent to the carver while it decodes the leaves (incremental walk only).
    chains: ChainMemo,
}

impl Snapshots<'_> {
    /// Page `page` has a new version in the running snapshot.
    fn changed(&mut self, page: u32) {
        self.tree.changed(page);
        self.chains.changed(page);
        if self
            .schema
            .as_ref()
            .is_some_and(|(_, read)| read.contains(&page))
        {
            self.schema = None;
        }
    }

    /// The table's root in `snap`, as that snapshot's own schema says: a table created
    /// later may have a root page that was another table's before, whose cells are not
    /// this table's. `None` when the schema has no such table.
    fn root(&mut self, rec: &Recoverer<'_>, snap: &Snapshot) -> Option<u32> {
        if self.is_master {
            return Some(1);
        }
        let root = match self.walker {
            Walker::Incremental => match &self.schema {
                Some((root, _)) => *root,
                None => {
                    let mut read = HashSet::new();
                    let root =
                        snapshot_root(&rec.pages, snap, self.table, rec.max_pages, &mut read);
                    self.schema = Some((root, read));
                    root
                }
            },
            #[cfg(test)]
            Walker::Reference => reference::snapshot_root(&rec.pages, snap, self.table),
        };
        match root {
            SnapRoot::Found(r) => Some(r),
            SnapRoot::Absent => None,
            SnapRoot::Unreadable => Some(rec.shape.root),
        }
    }

    /// Decodes the table's page versions that `snap` (the running snapshot) reaches
    /// first.
    fn visit(&mut self, rec: &mut Recoverer<'_>, snap: &mut Snapshot, is_current: bool) {
        let (mut leaves, mut interiors) = (Vec::new(), Vec::new());
        let Some(root) = self.root(rec, snap) else {
            return;
        };
        let before = rec.found.len();
        match self.walker {
            Walker::Incremental => self.tree.walk(
                &rec.pages,
                snap,
                root,
                rec.shape.is_index(),
                rec.max_pages,
                &mut leaves,
                &mut interiors,
            ),
            #[cfg(test)]
            Walker::Reference => walk(
                &rec.pages,
                snap,
                root,
                rec.shape.is_index(),
                &mut leaves,
                &mut interiors,
                &mut self.tree.seen,
                &mut HashSet::new(),
            ),
        }
        if leaves.is_empty() && interiors.is_empty() {
            return;
        }
        // a spilled cell decoded before is skipped (see [`ChainMemo`]); not where
        // the cells of the image are marked unreachable after they are decoded
        if self.walker == Walker::Incremental && self.schema_ok {
            rec.chain_memo = Some(std::mem::take(&mut self.chains));
        }
        // the snapshot is lent to the carver while its pages are read (never copied)
        rec.carve_snap = Some(match self.walker {
            Walker::Incremental => std::mem::take(snap),
            #[cfg(test)]
            Walker::Reference => snap.clone(),
        });
        for v in leaves {
            let Some(b) = rec.pages.bytes(v) else {
                continue;
            };
            let b: &[u8] = &b;
            let page = rec.pages.page_of(v);
            self.table_pages.insert(page);
            let name = rec.pages.name(v);
            let lent = rec.carve_snap.take();
            rec.cells(b, page, &name, Strict::Known, lent.as_ref());
            rec.carve_snap = lent;
            let cname = match v {
                Version::Main(p) if rec.current(p) == v => format!("page {p}"),
                _ => name,
            };
            rec.carve_page(b, page, &cname);
            if rec.current(page) == v {
                rec.carve_unreachable(b, page, &cname);
            }
        }
        // Interior pages keep stale leaf content in their gap when a root leaf was split.
        for v in interiors {
            let Some(b) = rec.pages.bytes(v) else {
                continue;
            };
            let b: &[u8] = &b;
            let page = rec.pages.page_of(v);
            let name = match v {
                Version::Main(p) if rec.current(p) == v => format!("page {p}"),
                _ => rec.pages.name(v),
            };
            rec.carve_page(b, page, &name);
            // an index b-tree's interior pages hold records: a cell no pointer names
            if rec.shape.is_index() && rec.current(page) == v {
                rec.carve_unreachable(b, page, &name);
            }
        }
        let lent = rec.carve_snap.take().unwrap_or_default();
        if self.walker == Walker::Incremental {
            *snap = lent;
        }
        if let Some(chains) = rec.chain_memo.take() {
            self.chains = chains;
        }
        // SQLite cannot read the schema: the cells of the image's own pages are live
        // records it cannot reach
        if is_current && !self.schema_ok && !self.is_master {
            for f in &mut rec.found[before..] {
                if !f.carved {
                    f.reach = Reach::Unreachable;
                }
            }
        }
    }
}

/// A live table's root page and `CREATE TABLE` text, as SQLite's schema has them.
fn schema_table(db: &Database, table: &str) -> Option<(i64, String)> {
    db.connection()
        .query_row(
            "SELECT rootpage, sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
            [table],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                ))
            },
        )
        .ok()
}

/// Where a live row of a rowid table was read, when the WAL holds its leaf page: the
/// 0-based index of the committed frame the image took the page from, the page, and the
/// cell's index on it. See [`Database::wal_places`].
pub(crate) fn wal_places(db: &Database, table: &str) -> HashMap<i64, (usize, u32, usize)> {
    let Some((root, sql)) = schema_table(db, table) else {
        return HashMap::new();
    };
    if root <= 0 || root > i64::from(u32::MAX) || without_rowid(&sql) {
        return HashMap::new();
    }
    // the image's version of each page: the last committed frame that wrote it
    let mut current = Snapshot::new();
    for (i, f) in db.wal_scan.frames.iter().enumerate() {
        if f.status == FrameStatus::Committed {
            current.insert(f.page, Version::Frame(i));
        }
    }
    places_in(Pages::new(Src::Db(db)), &current, root as u32)
}

/// [`wal_places`] of a paged source (the table's root from the schema it reads).
pub(crate) fn paged_wal_places(ps: &PageSource, table: &str) -> HashMap<i64, (usize, u32, usize)> {
    match paged_shape(ps, table) {
        Some(shape) if !shape.is_index() => {
            // the version of each page the source reads: its latest committed frame
            let current: Snapshot = (0..ps.wal().frames.len())
                .filter(|&i| ps.is_latest(i))
                .map(|i| (ps.wal().frames[i].page, Version::Frame(i)))
                .collect();
            places_in(Pages::new(Src::Paged(ps)), &current, shape.root)
        }
        _ => HashMap::new(),
    }
}

/// The search of both: each table leaf the image takes from a WAL frame (`current`:
/// the image's version of each page the WAL rewrote) whose first rowid, searched from
/// `root`, leads to it, with its cells. It reads the WAL's pages and one path from the
/// root for each, never the rest of the table (a table of millions of rows costs what
/// its WAL rewrote).
fn places_in(pages: Pages<'_>, current: &Snapshot, root: u32) -> HashMap<i64, (usize, u32, usize)> {
    let mut out = HashMap::new();
    let mut from_wal: Vec<(u32, usize)> = current
        .iter()
        .filter_map(|(&p, v)| match v {
            Version::Frame(i) => Some((p, *i)),
            _ => None,
        })
        .collect();
    from_wal.sort_unstable();
    for (page, i) in from_wal {
        let Some(b) = pages.bytes(Version::Frame(i)) else {
            continue;
        };
        let h = if page == 1 { 100 } else { 0 };
        if b.get(h) != Some(&0x0d) {
            continue;
        }
        let n = be16(&b, h + 3) as usize;
        // a cell: its payload length, then its rowid (varints)
        let cells: Vec<i64> = (0..n.min(pages.usable / 2))
            .map_while(|c| {
                let ptr = be16(&b, h + 8 + 2 * c) as usize;
                let (_, k) = varint(&b, ptr)?;
                varint(&b, ptr + k).map(|(r, _)| r as i64)
            })
            .collect();
        let Some(&first) = cells.first() else {
            continue;
        };
        if meets(&pages, current, root, first, page) != Some(true) {
            continue;
        }
        for (c, rowid) in cells.into_iter().enumerate() {
            out.insert(rowid, (i, page, c));
        }
    }
    out
}

/// Whether the search for `rowid` in the table b-tree at `root` (in `snap`), as SQLite
/// searches (down the interior pages, to the first child whose key is at least `rowid`,
/// else the right-most one), meets page `page`: `Some(false)` at a leaf that is not it,
/// `None` for a page of another kind, one that cannot be read, or a path longer than any
/// b-tree's (64 levels is far past any real one).
fn meets(pages: &Pages<'_>, snap: &Snapshot, root: u32, rowid: i64, page: u32) -> Option<bool> {
    let mut at = root;
    for _ in 0..64 {
        if at == page {
            return Some(true);
        }
        let p = pages.bytes(resolve(snap, at))?;
        let h = if at == 1 { 100 } else { 0 };
        match p.get(h)? {
            0x0d => return Some(false),
            0x05 => {
                let cells = be16(&p, h + 3) as usize;
                let mut next = be32(&p, h + 8);
                for c in 0..cells.min(p.len() / 2) {
                    let ptr = be16(&p, h + 12 + 2 * c) as usize;
                    let (key, _) = varint(&p, ptr + 4)?;
                    if rowid <= key as i64 {
                        next = be32(&p, ptr);
                        break;
                    }
                }
                at = next;
            }
            _ => return None,
        }
    }
    None
}

pub(crate) fn deleted_records(db: &Database, table: &str) -> Vec<RecoveredRecord> {
    deleted_records_by(db, table, Walker::Incremental)
}

fn deleted_records_by(db: &Database, table: &str, walker: Walker) -> Vec<RecoveredRecord> {
    let Some(shape) = TableShape::load(db, table) else {
        return Vec::new();
    };
    let header: DbHeader = db.header;
    let _ = header;
    let pages = Pages::new(Src::Db(db));
    let frames = &db.wal_scan.frames;
    // The image's version of each page: the last committed frame that wrote it.
    let mut current = Snapshot::new();
    for (i, f) in frames.iter().enumerate() {
        if f.status == FrameStatus::Committed {
            current.insert(f.page, Version::Frame(i));
        }
    }
    let _ = (pages, current);
    let mut rec = Recoverer::new(db, shape);
    rec.max_rowid = max_rowid(db, table);
    rec.seen = seen_classes(db, table, rec.shape.affinities.len());
    if let Some(order) = rec.shape.order.clone() {
        // a WITHOUT ROWID table's records are in record order (its key first)
        rec.seen = order
            .iter()
            .map(|&i| rec.seen.get(i).copied().unwrap_or(0))
            .collect();
        let mut t = index_tree::LiveBuilder::default();
        let key_cols = rec.shape.key_cols;
        let enc = db.header.text_encoding;
        live_rows(db, table, order.len(), usize::MAX, &mut |v| {
            t.observe(&rec.to_record_order(&v), key_cols, enc)
        });
        rec.live = t.finish();
    } else {
        // a rowid table's fixed text layouts, for cells rebuilt under stale links
        let mut t = index_tree::Templates::default();
        let ncols = rec.shape.affinities.len();
        live_rows(db, table, ncols, TEMPLATE_ROWS, &mut |v| t.observe(&v));
        rec.live.edges = t.edges();
        rec.live.templates = t.finish();
    }
    {
        let current = rec.current.clone();
        let mut live_trees = HashSet::new();
        let roots: Vec<u32> = hand_schema_roots(db);
        for root in roots.into_iter().chain([1]) {
            tree_pages(&rec.pages, &current, root, &mut live_trees);
        }
        rec.live_trees = live_trees;
        rec.free_leaves = rec.free_leaf_pages(db.header.freelist_trunk, db.image_pages);
    }

    // 1. Every snapshot: the main file alone, then the state after each commit. Each
    //    page version is decoded once, in the first snapshot whose tree reaches it.
    let mut snaps = Snapshots {
        table,
        is_master: rec.shape.root == 1,
        schema_ok: db.schema_readable(),
        walker,
        tree: TreeWalk::default(),
        schema: None,
        table_pages: HashSet::new(),
        chains: ChainMemo::default(),
    };
    let last_commit = frames
        .iter()
        .rposition(|f| f.status == FrameStatus::Committed && f.db_size != 0);
    // the running snapshot, updated in place commit after commit
    let mut snap = Snapshot::new();
    if !db.main.is_empty() {
        snaps.visit(&mut rec, &mut snap, last_commit.is_none());
    }
    for (i, f) in frames.iter().enumerate() {
        if f.status != FrameStatus::Committed {
            break;
        }
        snap.insert(f.page, Version::Frame(i));
        snaps.changed(f.page);
        if f.db_size != 0 {
            snaps.visit(&mut rec, &mut snap, Some(i) == last_commit);
        }
    }
    let table_pages = snaps.table_pages;
    let is_master = snaps.is_master;

    // 2. Frames outside the committed chain. The pages of the other b-trees (tables,
    //    indexes, the schema) in the main file and in the image tell whose page a frame
    //    of unknown owner probably was.
    let mut others = HashSet::new();
    if let Ok(mut stmt) = db
        .connection()
        .prepare("SELECT rootpage FROM sqlite_schema WHERE rootpage > 0 AND name <> ?1")
    {
        let roots: Vec<i64> = stmt
            .query_map([table], |r| r.get(0))
            .map(|rows| rows.filter_map(Result::ok).collect())
            .unwrap_or_default();
        for snap in [Snapshot::new(), rec.current.clone()] {
            for root in roots.iter().copied().chain([1]) {
                if let Ok(root) = u32::try_from(root) {
                    tree_pages(&rec.pages, &snap, root, &mut others);
                }
            }
        }
    }
    let (mut stale_known, mut stale_carved) = (ChainMemo::default(), ChainMemo::default());
    for (i, f) in frames.iter().enumerate() {
        if f.status == FrameStatus::Committed {
            continue;
        }
        let v = Version::Frame(i);
        let Some(b) = rec.pages.bytes(v) else {
            continue;
        };
        let b: &[u8] = &b;
        // Its page number may have been another b-tree's when it was written.
        if !rec.may_own(b, f.page, &table_pages, &others) {
            continue;
        }
        let strict = if table_pages.contains(&f.page) {
            Strict::Known
        } else {
            Strict::Carved
        };
        let name = format!(
            "wal frame {} (page {}, {})",
            i + 1,
            f.page,
            status_name(f.status)
        );
        // a spilled cell decoded in an earlier frame (its chain read in the image, which
        // does not change) gives the same record again: each frame of an older
        // generation that holds a large value re-read its chain (see [`ChainMemo`])
        let memo = if strict == Strict::Known {
            &mut stale_known
        } else {
            &mut stale_carved
        };
        if walker == Walker::Incremental {
            rec.chain_memo = Some(std::mem::take(memo));
        }
        rec.cells(b, f.page, &name, strict, None);
        if let Some(m) = rec.chain_memo.take() {
            *memo = m;
        }
        rec.carve_page(b, f.page, &name);
    }

    // 3. Freelist pages of the current image.
    let mut freelist: HashSet<u32> = HashSet::new();
    rec.carve_freelist(
        header.freelist_trunk,
        db.image_pages,
        &table_pages,
        &others,
        &mut freelist,
        &mut |_| {},
    );

    // 3b. Table leaf pages of the image that no b-tree reaches and that are not on the
    //     freelist: a page cut out of its tree (tampered pointers, a damaged file) or
    //     left by a dropped table. Their cells are the table's when they fit it; for a
    //     live table they are live records SQLite cannot reach. A dropped table's pages
    //     may also have been reused by other tables, whose free space then keeps its
    //     records: for a dropped table, every leaf's free space is carved.
    let dropped = !is_master && db.dropped_tables().iter().any(|d| d.name == table);
    // for a dropped table, each other table's pages and a carver of its shape (see
    // [`Recoverer::carve_gap_for_dropped`])
    let (owner_of, mut owners) = if dropped {
        table_owners(
            &db.schema_entries(),
            table,
            &mut |root, each| {
                let mut set = HashSet::new();
                tree_pages(&rec.pages, &rec.current, root, &mut set);
                set.into_iter().for_each(&mut *each);
            },
            &mut |shape| Recoverer::new(db, shape),
        )
    } else {
        Default::default()
    };
    if !is_master {
        for p in 2..=db.image_pages {
            if table_pages.contains(&p) || freelist.contains(&p) {
                continue;
            }
            let v = rec.current(p);
            let Some(b) = rec.pages.bytes(v) else {
                continue;
            };
            let b: &[u8] = &b;
            let leaf = if rec.shape.is_index() { 0x0a } else { 0x0d };
            if b.first() != Some(&leaf) {
                continue;
            }
            let name = format!("page {p}");
            if !others.contains(&p) {
                if rec.may_own(b, p, &table_pages, &others) {
                    let before = rec.found.len();
                    rec.cells(b, p, &format!("orphan {name}"), Strict::Carved, None);
                    if !dropped {
                        for f in &mut rec.found[before..] {
                            f.reach = Reach::Unreachable;
                        }
                    }
                    rec.carve_page(b, p, &format!("orphan {name}"));
                }
            } else if dropped {
                let owner = owner_of.get(&p).and_then(|&i| owners.get_mut(i));
                rec.carve_gap_for_dropped(b, p, &name, owner);
            }
        }
    }

    // 4. Drop what is live, and repeats (a WITHOUT ROWID table's records first put
    //    back in table order, as SQL reads the live rows).
    if rec.shape.is_index() {
        let mut found = std::mem::take(&mut rec.found);
        found.retain(|f| !rec.stale_copy(f));
        for f in &mut found {
            rec.to_table_order(f);
        }
        rec.found = found;
    }
    let want_firsts = rec.found.iter().any(|f| !f.probes.is_empty());
    let (live, mut firsts) = live_keys(
        db,
        table,
        rec.shape.alias,
        rec.shape.affinities.len(),
        want_firsts,
        header.text_encoding,
    );
    if want_firsts {
        firsts.extend(
            rec.found
                .iter()
                .filter(|f| f.probes.is_empty())
                .map(|f| stored_bytes(&f.values[..1], header.text_encoding)),
        );
        firsts.retain(|f| !f.is_empty());
    }
    let lengths: std::collections::BTreeSet<usize> = firsts.iter().map(Vec::len).collect();
    let firsts: HashSet<Vec<u8>> = firsts.into_iter().collect();
    let mut kept: HashSet<u64> = HashSet::new();
    // A live record SQLite cannot reach (a cell of an unreadable schema's table, of an
    // orphaned page, or no pointer names) is that record, not a deleted copy: a stale
    // copy of it met first (in the free space of a page read before its own) gives way.
    let unreachable: HashSet<u64> = rec
        .found
        .iter()
        .filter(|f| f.reach == Reach::Unreachable && f.missing.is_empty())
        .map(|f| key(&f.values, rec.shape.alias))
        .collect();
    let mut out = Vec::new();
    let mut partials = Vec::new();
    let ncols = rec.shape.affinities.len();
    let dropped_shapes: Vec<TableShape> = if is_master || dropped {
        Vec::new()
    } else {
        db.dropped_tables()
            .iter()
            .filter_map(|d| TableShape::from_sql(&d.sql, d.rootpage.max(1)))
            .collect()
    };
    let mut dropped_fit = DroppedFit::new(&rec.shape, &dropped_shapes);
    for f in rec.found {
        if f.probes
            .iter()
            .any(|(p, min)| misread_copy(&firsts, &lengths, p, *min))
        {
            continue;
        }
        if f.carved
            && !is_master
            && !dropped
            && !rec.shape.is_index()
            && dropped_fit.fits(&f.values)
        {
            continue;
        }
        if !f.missing.is_empty() {
            partials.push(f);
            continue;
        }
        let k = key(&f.values, rec.shape.alias);
        if f.reach != Reach::Unreachable && unreachable.contains(&k) {
            continue;
        }
        if live.contains(&k) || !kept.insert(k) {
            continue;
        }
        out.push(record(f));
    }
    // A partial record is dropped when its surviving columns are those of a live row
    // or of a record already returned: a copy of a known row whose tail was reused.
    if !partials.is_empty() {
        let patterns: Vec<Vec<usize>> = partials
            .iter()
            .map(|f| f.missing.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut known = live_partial_keys(db, table, rec.shape.alias, ncols, &patterns);
        for r in &out {
            for p in &patterns {
                known.insert(partial_key(&r.values, rec.shape.alias, p));
            }
        }
        for f in partials {
            let k = partial_key(&f.values, rec.shape.alias, &f.missing);
            if known.insert(k) {
                out.push(record(f));
            }
        }
    }
    out
}

/// The record returned for a candidate; a partial record says which columns it lost in
/// its location (`, partial: columns 2-3 missing`), an unreachable one that SQLite
/// cannot reach it.
fn record(f: Found) -> RecoveredRecord {
    let mut location = f.location;
    if !f.missing.is_empty() {
        location.push_str(&format!(", partial: {} missing", column_list(&f.missing)));
    }
    if f.reach == Reach::Unreachable {
        location.push_str(", unreachable: live record no cell pointer names");
    }
    RecoveredRecord {
        rowid: f.rowid,
        values: f.values,
        location,
        missing: f.missing,
        reach: f.reach,
        truncated: f.truncated,
        declared_len: f.declared_len,
    }
}

/// A fingerprint of the columns a partial record kept (those not in `missing`).
fn partial_key(values: &[Value], alias: Option<usize>, missing: &[usize]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    missing.hash(&mut h);
    let kept: Vec<Value> = values
        .iter()
        .enumerate()
        .filter(|(i, _)| !missing.contains(i))
        .map(|(_, v)| v.clone())
        .collect();
    key(
        &kept,
        alias.map(|a| a - missing.iter().filter(|&&m| m < a).count()),
    )
    .hash(&mut h);
    h.finish()
}

/// [`partial_key`] of every live row of `table`, for each pattern of missing columns.
fn live_partial_keys(
    db: &Database,
    table: &str,
    alias: Option<usize>,
    ncols: usize,
    patterns: &[Vec<usize>],
) -> HashSet<u64> {
    let mut set = HashSet::new();
    let sql = format!("SELECT * FROM \"{}\"", table.replace('"', "\"\""));
    let Ok(mut stmt) = db.connection().prepare(&sql) else {
        return set;
    };
    let Ok(mut rows) = stmt.query([]) else {
        return set;
    };
    while let Ok(Some(r)) = rows.next() {
        let values: Vec<Value> = (0..ncols)
            .map(|i| r.get::<_, Value>(i).unwrap_or(Value::Null))
            .collect();
        for p in patterns {
            set.insert(partial_key(&values, alias, p));
        }
    }
    set
}

/// Which carved records (decoded with a live table's shape) also fit the shape of a
/// dropped table whose columns differ ([`DroppedFit::fits`]).
pub(crate) struct DroppedFit {
    /// For each column count, the distinct lists of what each column of a dropped
    /// table's shape takes (a bit per value class: NULL, integer, real, text, blob).
    masks: HashMap<usize, Vec<Vec<u8>>>,
    /// The answer for each list of value classes already asked.
    memo: HashMap<Vec<u8>, bool>,
}

/// The value classes of [`DroppedFit`], as the serial types [`type_fits`] judges.
const CLASS_TYPES: [u64; 5] = [0, 1, 7, 13, 12];

fn class_index(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Integer(_) => 1,
        Value::Real(_) => 2,
        Value::Text(_) => 3,
        Value::Blob(_) => 4,
    }
}

impl DroppedFit {
    /// For the records of `shape`, against the shapes of the dropped tables.
    pub(crate) fn new(shape: &TableShape, dropped: &[TableShape]) -> DroppedFit {
        let mut distinct: HashSet<Vec<u8>> = HashSet::new();
        // (a WITHOUT ROWID shape lists its columns in record order: not comparable here)
        if !shape.is_index() {
            for d in dropped.iter().filter(|d| !d.is_index()) {
                if d.affinities == shape.affinities && d.alias == shape.alias {
                    continue;
                }
                let mask = (0..d.affinities.len()).map(|i| {
                    if Some(i) == d.alias {
                        // the rowid alias is stored as NULL, unless the live shape's
                        // alias is there too (its value put back from the rowid)
                        return if Some(i) == shape.alias { 0x1f } else { 0x01 };
                    }
                    let not_null = d.not_null.get(i).copied().unwrap_or(false);
                    (0..5).fold(0u8, |m, c| {
                        let t = CLASS_TYPES[c];
                        if (t != 0 || !not_null) && type_fits(d.affinities[i], t) {
                            m | 1 << c
                        } else {
                            m
                        }
                    })
                });
                distinct.insert(mask.collect());
            }
        }
        let mut masks: HashMap<usize, Vec<Vec<u8>>> = HashMap::new();
        for m in distinct {
            masks.entry(m.len()).or_default().push(m);
        }
        DroppedFit {
            masks,
            memo: HashMap::new(),
        }
    }

    /// Whether a carved record also fits the shape of a dropped table whose columns
    /// differ from the live table's: such a record is the dropped table's (its pages
    /// were reused), not the live table's. Tables of the same shape cannot be told
    /// apart by their records; the live table keeps them. Each distinct list of value
    /// classes is judged once, against each distinct dropped shape once (thousands of
    /// dropped tables made every carved record compare with each).
    pub(crate) fn fits(&mut self, values: &[Value]) -> bool {
        let Some(masks) = self.masks.get(&values.len()) else {
            return false;
        };
        let classes: Vec<u8> = values.iter().map(class_index).collect();
        if let Some(&known) = self.memo.get(&classes) {
            return known;
        }
        let fits = masks
            .iter()
            .any(|m| m.iter().zip(&classes).all(|(m, &c)| m & (1 << c) != 0));
        self.memo.insert(classes, fits);
        fits
    }
}

/// The answer [`DroppedFit::fits`] gives, record by record against every dropped
/// shape, as it was computed before: the reference of its test.
#[cfg(test)]
fn fits_dropped(values: &[Value], shape: &TableShape, dropped: &[TableShape]) -> bool {
    // (a WITHOUT ROWID shape lists its columns in record order: not comparable here)
    if shape.is_index() {
        return false;
    }
    dropped.iter().filter(|d| !d.is_index()).any(|d| {
        (d.affinities != shape.affinities || d.alias != shape.alias)
            && d.affinities.len() == values.len()
            && values.iter().enumerate().all(|(i, v)| {
                if Some(i) == d.alias {
                    return matches!(v, Value::Null) || Some(i) == shape.alias;
                }
                let t = match v {
                    Value::Null => 0,
                    Value::Integer(_) => 1,
                    Value::Real(_) => 7,
                    Value::Text(_) => 13,
                    Value::Blob(_) => 12,
                };
                (t != 0 || !d.not_null[i]) && type_fits(d.affinities[i], t)
            })
    })
}

/// What a snapshot's own schema says of a table's root page.
#[derive(Clone, Copy)]
enum SnapRoot {
    /// The root page it names.
    Found(u32),
    /// The schema was read and has no such table.
    Absent,
    /// The schema could not be read.
    Unreadable,
}

/// The schema records of a snapshot, read by hand from the b-tree rooted at page 1;
/// the pages read (the b-tree's, and every page of its records' overflow chains as far
/// as they go) are added to `read`. `max_pages`: [`Pages::max_pages`].
fn snapshot_schema(
    pages: &Pages<'_>,
    snap: &Snapshot,
    max_pages: usize,
    read: &mut HashSet<u32>,
) -> Vec<SchemaEntry> {
    let (mut leaves, mut interiors, mut seen) = (Vec::new(), Vec::new(), HashSet::new());
    walk(
        pages,
        snap,
        1,
        false,
        &mut leaves,
        &mut interiors,
        &mut seen,
        read,
    );
    // (the image as `current`: a known page's cells follow their chains in `snap`)
    let mut rec = Recoverer::sized(pages.src, TableShape::master(), Snapshot::new(), max_pages);
    let mut chains = HashSet::new();
    let mut out = Vec::new();
    for v in leaves {
        let Some(b) = pages.bytes(v) else { continue };
        let b: &[u8] = &b;
        let page = pages.page_of(v);
        rec.cells(b, page, &pages.name(v), Strict::Known, Some(snap));
        out.extend(
            std::mem::take(&mut rec.found)
                .into_iter()
                .filter_map(|f| entry_of(&f.values, f.location)),
        );
        chain_pages(pages, snap, b, page, max_pages, &mut chains);
    }
    read.extend(chains);
    out
}

/// The pages of the overflow chains of a table leaf's cells in `snap`, each followed
/// until it ends, leaves the database or meets a page already in `out` (whose
/// successors are in `out` then): every page [`Recoverer::overflow`] can read for them.
fn chain_pages(
    pages: &Pages<'_>,
    snap: &Snapshot,
    b: &[u8],
    page: u32,
    max_pages: usize,
    out: &mut HashSet<u32>,
) {
    let h = if page == 1 { 100 } else { 0 };
    if b.get(h) != Some(&0x0d) {
        return;
    }
    let usable = pages.usable.min(b.len());
    for c in 0..(be16(b, h + 3) as usize).min(usable / 2) {
        let ptr = be16(b, h + 8 + 2 * c) as usize;
        let Some((plen, a)) = varint(b, ptr) else {
            continue;
        };
        let Some((_, r)) = varint(b, ptr + a) else {
            continue;
        };
        let Ok(plen) = usize::try_from(plen) else {
            continue;
        };
        let local = local_size(plen, pages.usable);
        if local >= plen {
            continue;
        }
        let mut next = be32(b, ptr + a + r + local);
        while next != 0 && next as usize <= max_pages && out.insert(next) {
            let Some(p) = pages.bytes(resolve(snap, next)) else {
                break;
            };
            next = be32(&p, 0);
        }
    }
}

/// The root of `table` in the schema of `snap`; the pages read are added to `read`.
fn snapshot_root(
    pages: &Pages<'_>,
    snap: &Snapshot,
    table: &str,
    max_pages: usize,
    read: &mut HashSet<u32>,
) -> SnapRoot {
    root_in(&snapshot_schema(pages, snap, max_pages, read), table)
}

fn root_in(entries: &[SchemaEntry], table: &str) -> SnapRoot {
    if entries.is_empty() {
        return SnapRoot::Unreadable;
    }
    match entries
        .iter()
        .find(|e| e.kind == "table" && e.name == table)
    {
        Some(e) => SnapRoot::Found(e.rootpage),
        None => SnapRoot::Absent,
    }
}

/// The walk of the snapshots as it was before [`TreeWalk`] and the schema read once
/// per change, to compare with.
#[cfg(test)]
mod reference {
    use super::*;

    fn snapshot_schema(pages: &Pages<'_>, snap: &Snapshot) -> Vec<SchemaEntry> {
        let (mut leaves, mut interiors, mut seen) = (Vec::new(), Vec::new(), HashSet::new());
        walk(
            pages,
            snap,
            1,
            false,
            &mut leaves,
            &mut interiors,
            &mut seen,
            &mut HashSet::new(),
        );
        let shape = TableShape::master();
        let mut out = Vec::new();
        for v in leaves {
            let Some(b) = pages.bytes(v) else { continue };
            let b: &[u8] = &b;
            let page = pages.page_of(v);
            let mut rec = Recoverer::with_src(pages.src, shape.clone(), snap.clone());
            rec.cells(b, page, &pages.name(v), Strict::Known, Some(snap));
            out.extend(
                rec.found
                    .into_iter()
                    .filter_map(|f| entry_of(&f.values, f.location)),
            );
        }
        out
    }

    pub(super) fn snapshot_root(pages: &Pages<'_>, snap: &Snapshot, table: &str) -> SnapRoot {
        root_in(&snapshot_schema(pages, snap), table)
    }
}

/// A schema record from its five values.
fn entry_of(values: &[Value], location: String) -> Option<SchemaEntry> {
    let text = |i: usize| match values.get(i) {
        Some(Value::Text(t)) => Some(t.clone()),
        _ => None,
    };
    let rootpage = match values.get(3) {
        Some(Value::Integer(n)) => u32::try_from(*n).ok()?,
        _ => 0,
    };
    Some(SchemaEntry {
        kind: text(0)?,
        name: text(1)?,
        tbl_name: text(2).unwrap_or_default(),
        rootpage,
        sql: text(4).unwrap_or_default(),
        location,
    })
}

/// One record of the schema table (`sqlite_master`), read by hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaEntry {
    /// `table`, `index`, `view` or `trigger`.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// The table it belongs to.
    pub tbl_name: String,
    /// Its root page (0 for views and triggers).
    pub rootpage: u32,
    /// Its `CREATE` text (empty for an automatic index).
    pub sql: String,
    /// Where it was read: `page 1 cell 3`, `page 7 cell 0`.
    pub location: String,
}

/// A table dropped from the schema whose `CREATE TABLE` text survives in a freed
/// schema record (a freeblock of page 1, an older page version, a freelist page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedTable {
    /// The table's name.
    pub name: String,
    /// Its `CREATE TABLE` text.
    pub sql: String,
    /// The root page it had.
    pub rootpage: u32,
    /// Where its schema record was found.
    pub location: String,
    /// False when the `CREATE TABLE` text lost its end (overwritten) and `sql` is its
    /// surviving start with the column list closed: the last column's declared type
    /// may be lost (it then reads as a column of no type, which accepts any value).
    pub complete: bool,
}

/// The schema of the image read by hand: the records of the b-tree rooted at page 1
/// and, when SQLite cannot read the schema (a truncated or damaged file), those of any
/// table leaf page that holds schema records (most cells fit `sqlite_master`).
pub(crate) fn hand_schema(db: &Database) -> Vec<SchemaEntry> {
    let header = db.header;
    let _ = header;
    let pages = Pages::new(Src::Db(db));
    let rec0 = Recoverer::new(db, TableShape::master());
    let current = rec0.current.clone();
    let mut out = snapshot_schema(&pages, &current, pages.max_pages(), &mut HashSet::new());
    if !db.schema_readable() {
        let mut rec = Recoverer::new(db, TableShape::master());
        let none = HashSet::new();
        for p in 2..=db.image_pages {
            let v = rec.current(p);
            let Some(b) = rec.pages.bytes(v) else {
                continue;
            };
            let b: &[u8] = &b;
            if b.first() == Some(&0x0d) && rec.may_own(b, p, &none, &none) {
                rec.cells(b, p, &format!("page {p}"), Strict::Carved, None);
            }
        }
        out.extend(
            rec.found
                .into_iter()
                .filter_map(|f| entry_of(&f.values, f.location)),
        );
    }
    let mut seen = HashSet::new();
    out.retain(|e| seen.insert((e.kind.clone(), e.name.clone())));
    out
}

/// A `CREATE TABLE` text that lost its end, closed so that SQLite reads it: the text
/// as it survives with `)` appended, or cut after its last complete column definition.
///
/// A text cut inside its closing `WITHOUT ROWID` (the column list closed, then a
/// non-empty start of those words: `... PRIMARY KEY(b, a)) WITHO`) is completed with
/// them: no other table option begins so, and the words decide how the table's records
/// are stored (an index b-tree), so the text is not closed without them.
fn complete_create(t: &str) -> Option<String> {
    let t = t.trim_end();
    if let Some(close) = t.rfind(')') {
        let frag: String = t[close + 1..]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !frag.is_empty() && "WITHOUT ROWID".starts_with(&frag.to_ascii_uppercase()) {
            let sql = format!("{} WITHOUT ROWID", &t[..=close]);
            return TableShape::from_sql(&sql, 1).is_some().then_some(sql);
        }
    }
    let mut tries = vec![format!("{t})")];
    if let Some(i) = t.rfind(',') {
        tries.push(format!("{})", &t[..i]));
    }
    tries
        .into_iter()
        .find(|sql| TableShape::from_sql(sql, 1).is_some())
}

/// The dropped tables whose `CREATE TABLE` text survives (see [`DroppedTable`]).
pub(crate) fn dropped_tables(db: &Database) -> Vec<DroppedTable> {
    let live: HashSet<String> = hand_schema(db)
        .into_iter()
        .filter(|e| e.kind == "table")
        .map(|e| e.name)
        .collect();
    let mut out = DroppedList::default();
    for r in deleted_records(db, "sqlite_master") {
        add_dropped(r, &live, &mut out);
    }
    out.list
}

/// The dropped tables found so far, in order, and their names (a list compared with
/// every table found before took 18 s for 40,000 planted schema records).
#[derive(Default)]
pub(crate) struct DroppedList {
    pub(crate) list: Vec<DroppedTable>,
    names: HashSet<String>,
}

/// Adds the table a freed `sqlite_master` record names to `out` when it is a dropped
/// table: a `table` entry not in the live schema (`live`), not SQLite's own, whose
/// `CREATE TABLE` text parses (a text that lost its end is completed by closing its
/// column list, and marked incomplete), and not already found. The one rule of both
/// modes ([`dropped_tables`] and the paged mode's).
pub(crate) fn add_dropped(r: RecoveredRecord, live: &HashSet<String>, out: &mut DroppedList) {
    // (a name already found is not parsed again: each parse is a private database)
    if matches!(r.values.get(1), Some(Value::Text(name)) if out.names.contains(name)) {
        return;
    }
    let mut values = r.values;
    let mut complete = true;
    if !r.missing.is_empty() {
        // the CREATE text lost its end: completed by closing its column list
        match (&r.missing[..], r.truncated) {
            ([4], Some((4, Value::Text(t)))) => {
                let Some(sql) = complete_create(&t) else {
                    return;
                };
                values[4] = Value::Text(sql);
                complete = false;
            }
            _ => return,
        }
    }
    let Some(e) = entry_of(&values, r.location) else {
        return;
    };
    if e.kind != "table"
        || live.contains(&e.name)
        || e.name.starts_with("sqlite_")
        || out.names.contains(&e.name)
        || TableShape::from_sql(&e.sql, e.rootpage.max(1)).is_none()
    {
        return;
    }
    out.names.insert(e.name.clone());
    out.list.push(DroppedTable {
        name: e.name,
        sql: e.sql,
        rootpage: e.rootpage,
        location: e.location,
        complete,
    });
}

/// The first `limit` live rows of `table` (every column, table order), to `each`.
fn live_rows(
    db: &Database,
    table: &str,
    ncols: usize,
    limit: usize,
    each: &mut dyn FnMut(Vec<Value>),
) {
    let sql = format!(
        "SELECT * FROM \"{}\" LIMIT {}",
        table.replace('"', "\"\""),
        i64::try_from(limit).unwrap_or(-1)
    );
    let Ok(mut stmt) = db.connection().prepare(&sql) else {
        return;
    };
    let Ok(mut rows) = stmt.query([]) else {
        return;
    };
    while let Ok(Some(r)) = rows.next() {
        each(
            (0..ncols)
                .map(|i| r.get::<_, Value>(i).unwrap_or(Value::Null))
                .collect(),
        );
    }
}

/// For each column of `table`, the classes of value its live records hold (the first
/// 10,000 rows, enough to know a column's habits).
fn seen_classes(db: &Database, table: &str, ncols: usize) -> Vec<u8> {
    let mut seen = vec![0u8; ncols];
    let sql = format!(
        "SELECT * FROM \"{}\" LIMIT 10000",
        table.replace('"', "\"\"")
    );
    let Ok(mut stmt) = db.connection().prepare(&sql) else {
        return seen;
    };
    let Ok(mut rows) = stmt.query([]) else {
        return seen;
    };
    while let Ok(Some(r)) = rows.next() {
        for (i, s) in seen.iter_mut().enumerate() {
            if let Ok(v) = r.get::<_, Value>(i) {
                *s |= class_of_value(&v);
            }
        }
    }
    seen
}

/// The root pages of every b-tree of the image: from SQLite's schema, else (a damaged
/// schema) from the schema read by hand.
fn hand_schema_roots(db: &Database) -> Vec<u32> {
    let mut roots: Vec<u32> = Vec::new();
    if let Ok(mut stmt) = db
        .connection()
        .prepare("SELECT rootpage FROM sqlite_schema WHERE rootpage > 0")
    {
        roots = stmt
            .query_map([], |r| r.get::<_, i64>(0))
            .map(|rows| {
                rows.filter_map(Result::ok)
                    .filter_map(|r| u32::try_from(r).ok())
                    .collect()
            })
            .unwrap_or_default();
    }
    if roots.is_empty() && !db.schema_readable() {
        roots = hand_schema(db).into_iter().map(|e| e.rootpage).collect();
    }
    roots
}

/// The largest rowid `table` has had, as far as the image tells.
fn max_rowid(db: &Database, table: &str) -> Option<i64> {
    let conn = db.connection();
    let live: Option<i64> = conn
        .query_row(
            &format!("SELECT max(rowid) FROM \"{}\"", table.replace('"', "\"\"")),
            [],
            |r| r.get(0),
        )
        .ok()
        .flatten();
    let seq: Option<i64> = conn
        .query_row(
            "SELECT seq FROM sqlite_sequence WHERE name = ?1",
            [table],
            |r| r.get(0),
        )
        .ok();
    live.max(seq)
}

fn status_name(s: FrameStatus) -> &'static str {
    match s {
        FrameStatus::Committed => "committed",
        FrameStatus::Uncommitted => "uncommitted",
        FrameStatus::Corrupt => "corrupt",
        FrameStatus::OtherGeneration => "older wal generation",
        FrameStatus::Unchecked => "after a corrupt frame",
    }
}

/// A 64-bit fingerprint of a record's values (the rowid alias left out), for dropping
/// records identical to a live row or to one already recovered. Hashing the values in
/// place avoids copying every live row; two different records colliding in 64 bits is
/// negligible next to the counts involved (about 2^-64 per pair).
fn key(values: &[Value], alias: Option<usize>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for (i, v) in values.iter().enumerate() {
        if Some(i) == alias {
            continue;
        }
        match v {
            Value::Null => 0u8.hash(&mut h),
            Value::Integer(n) => (1u8, n).hash(&mut h),
            Value::Real(f) => (2u8, f.to_bits()).hash(&mut h),
            Value::Text(t) => (3u8, t).hash(&mut h),
            Value::Blob(b) => (4u8, b).hash(&mut h),
        }
    }
    h.finish()
}

/// The fingerprints of the live rows and, when `refs` is asked, the stored bytes of
/// their first column (see [`stored_bytes`]).
fn live_keys(
    db: &Database,
    table: &str,
    alias: Option<usize>,
    ncols: usize,
    refs: bool,
    encoding: u32,
) -> (HashSet<u64>, Vec<Vec<u8>>) {
    let mut set = HashSet::new();
    let mut bytes = Vec::new();
    let sql = format!("SELECT * FROM \"{}\"", table.replace('"', "\"\""));
    let Ok(mut stmt) = db.connection().prepare(&sql) else {
        return (set, bytes);
    };
    let Ok(mut rows) = stmt.query([]) else {
        return (set, bytes);
    };
    while let Ok(Some(r)) = rows.next() {
        let values: Vec<Value> = (0..ncols)
            .map(|i| r.get::<_, Value>(i).unwrap_or(Value::Null))
            .collect();
        set.insert(key(&values, alias));
        if refs {
            bytes.push(stored_bytes(&values[..1.min(values.len())], encoding));
        }
    }
    (set, bytes)
}

/// The body bytes of a record's leading text and blob columns as stored (NULLs store
/// none), up to its first number: what a copy of the record's cell holds after its
/// header.
fn stored_bytes(values: &[Value], encoding: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        match v {
            Value::Null => {}
            Value::Text(t) => match encoding {
                2 => out.extend(t.encode_utf16().flat_map(u16::to_le_bytes)),
                3 => out.extend(t.encode_utf16().flat_map(u16::to_be_bytes)),
                _ => out.extend_from_slice(t.as_bytes()),
            },
            Value::Blob(b) => out.extend_from_slice(b),
            Value::Integer(_) | Value::Real(_) => break,
        }
    }
    out
}

/// Whether `probe` (the bytes of a freeblock whose first column's length was inferred)
/// begins with the first column of a live or recovered record (`firsts`, whose lengths
/// are `lengths`) at least `min` bytes long: the freeblock is then a copy of a version
/// of that row whose tail SQLite reused for a later cell, and the length inferred from
/// the freeblock's size cut the text at the wrong byte. A truncated copy of a known row
/// is not a deleted record.
fn misread_copy(
    firsts: &HashSet<Vec<u8>>,
    lengths: &std::collections::BTreeSet<usize>,
    probe: &[u8],
    min: usize,
) -> bool {
    lengths_upto(lengths, min, probe.len()).any(|n| firsts.contains(&probe[..n]))
}

/// The lengths in `lengths` from `min` (at least 1) to `max`; none when `min` is past
/// `max` (a probe shorter than the least it must hold: `BTreeSet::range` would panic).
fn lengths_upto(
    lengths: &std::collections::BTreeSet<usize>,
    min: usize,
    max: usize,
) -> impl Iterator<Item = usize> + '_ {
    let min = min.max(1);
    (min <= max)
        .then(|| lengths.range(min..=max).copied())
        .into_iter()
        .flatten()
}

/// Byte ranges already taken by found records: disjoint, by start (ranges that
/// overlap are merged; ranges that only touch are kept apart, as the list was).
#[derive(Clone, Default)]
struct Spans(BTreeMap<usize, usize>);

impl Spans {
    /// True when `[a, z)` overlaps a range of the set: the one starting last before
    /// `z` is the only one that can, since the ranges are disjoint.
    fn overlaps(&self, a: usize, z: usize) -> bool {
        self.0
            .range(..z)
            .next_back()
            .is_some_and(|(_, &end)| end > a)
    }

    /// Adds `[a, z)`, merged with the ranges it overlaps.
    fn insert(&mut self, mut a: usize, mut z: usize) {
        if a >= z {
            return;
        }
        while let Some((&x, &y)) = self.0.range(..z).next_back() {
            if y <= a {
                break;
            }
            self.0.remove(&x);
            a = a.min(x);
            z = z.max(y);
        }
        self.0.insert(a, z);
    }
}

// ---------------------------------------------------------------------------------
// The paged mode (see [`crate::paged`]): the current image read page by page.

#[path = "paged_recover.rs"]
pub(crate) mod paged_recover;

/// Calls `each(page, bytes, is_leaf)` for every page of the table b-tree rooted at
/// `root`, reading one page at a time (depth first; a page reached twice is read once).
fn stream_tree(ps: &PageSource, root: u32, each: &mut dyn FnMut(u32, &[u8], bool)) {
    let mut stack = vec![root];
    let mut visited = HashSet::new();
    while let Some(p) = stack.pop() {
        if p == 0 || p > ps.page_count() || !visited.insert(p) {
            continue;
        }
        let Some(b) = ps.page(p) else { continue };
        let h = if p == 1 { 100 } else { 0 };
        match b.get(h) {
            Some(0x0d | 0x0a) => each(p, &b, true),
            Some(0x05 | 0x02) => {
                let n = be16(&b, h + 3) as usize;
                stack.push(be32(&b, h + 8));
                for c in (0..n.min(b.len() / 2)).rev() {
                    let ptr = be16(&b, h + 12 + 2 * c) as usize;
                    stack.push(be32(&b, ptr));
                }
                each(p, &b, false);
            }
            _ => {}
        }
    }
}

/// The schema of a paged source, read by hand from page 1's b-tree.
pub(crate) fn paged_schema(ps: &PageSource) -> Vec<SchemaEntry> {
    let pages = Pages::new(Src::Paged(ps));
    snapshot_schema(
        &pages,
        &Snapshot::new(),
        pages.max_pages(),
        &mut HashSet::new(),
    )
}

fn paged_shape(ps: &PageSource, table: &str) -> Option<TableShape> {
    let e = paged_schema(ps)
        .into_iter()
        .find(|e| e.kind == "table" && e.name == table)?;
    TableShape::from_sql(&e.sql, e.rootpage)
}

/// Every live record of `table` in a paged source, to `each`.
pub(crate) fn paged_live(
    ps: &PageSource,
    table: &str,
    each: &mut dyn FnMut(i64, Vec<Value>),
) -> usize {
    paged_walk(ps, table, None, each)
}

/// [`paged_live`] handing only the records whose first stored column `keep` accepts,
/// asked from the cell's own bytes before any overflow page is read (see
/// [`crate::paged::PagedDatabase::live_records_where`]).
pub(crate) fn paged_live_where(
    ps: &PageSource,
    table: &str,
    keep: &mut dyn FnMut(&Value, usize) -> bool,
    each: &mut dyn FnMut(i64, Vec<Value>),
) -> usize {
    paged_walk(ps, table, Some(keep), each)
}

/// The live walk of both: the table's b-tree one page at a time, each cell asked of
/// `filter` first where there is one.
fn paged_walk<'a>(
    ps: &'a PageSource,
    table: &str,
    filter: Option<FirstFilter<'a>>,
    each: &mut dyn FnMut(i64, Vec<Value>),
) -> usize {
    let Some(shape) = paged_shape(ps, table) else {
        return 0;
    };
    let root = shape.root;
    let index = shape.is_index();
    let mut rec = Recoverer::with_src(Src::Paged(ps), shape, Snapshot::new());
    rec.first_filter = filter;
    let mut n = 0;
    stream_tree(ps, root, &mut |page, b, leaf| {
        // an index b-tree (WITHOUT ROWID) holds records in its interior pages too
        if leaf || index {
            rec.cells(b, page, "page", Strict::Known, None);
            for mut f in std::mem::take(&mut rec.found) {
                rec.to_table_order(&mut f);
                // no rowid in a WITHOUT ROWID table: 0 is handed as a placeholder
                each(f.rowid.unwrap_or(0), f.values);
                n += 1;
            }
        }
    });
    n
}

/// A record's first stored column, decoded from `head` (the record's first bytes, as
/// a cell holds them before any overflow page); `None` when its header or its value
/// runs past `head`.
fn first_column(shape: &TableShape, head: &[u8], encoding: u32) -> Option<Value> {
    let (hlen, n) = varint(head, 0)?;
    let hlen = usize::try_from(hlen)
        .ok()
        .filter(|&h| h > n && h <= head.len())?;
    let (t, _) = varint(head, n)?;
    let (values, _) = decode_body(shape, &[t], head, hlen, head.len(), encoding, Strict::Known)?;
    values.into_iter().next()
}

/// The page numbers of every b-tree of a paged source's schema.
pub(crate) fn paged_tree_pages(ps: &PageSource) -> HashSet<u32> {
    let mut out = HashSet::new();
    let roots = paged_schema(ps).into_iter().map(|e| e.rootpage).chain([1]);
    for root in roots.filter(|&r| r > 0) {
        out.extend(paged_tree(ps, root).iter());
    }
    out
}

/// The pages of the b-tree rooted at `root`, walked once per page source
/// ([`PageSource::tree_pages`]).
pub(crate) fn paged_tree(ps: &PageSource, root: u32) -> std::sync::Arc<HashSet<u32>> {
    ps.tree_pages(root, || {
        let mut s = HashSet::new();
        stream_tree(ps, root, &mut |p, _, _| {
            s.insert(p);
        });
        s
    })
}

/// An older version of `page` in the paged mode: its cells when it is a table leaf
/// whose cells fit the table, and its free space.
fn older_version(
    rec: &mut Recoverer<'_>,
    page: u32,
    b: &[u8],
    name: &str,
    table_pages: &HashSet<u32>,
    others: &HashSet<u32>,
) {
    let kinds: [u8; 2] = if rec.shape.is_index() {
        [0x0a, 0x02]
    } else {
        [0x0d, 0x05]
    };
    if page == 1 || !b.first().is_some_and(|k| kinds.contains(k)) {
        return;
    }
    // whose page it was: as the version's own state says, where it can (a rowid
    // table's search for the page's first row meets the page), else by its number: a
    // page that is another b-tree's in the image most likely was that tree's before
    // (pages change owners only through the freelist), precision first
    let ours = rec
        .reached_in_state(b, page)
        .unwrap_or_else(|| table_pages.contains(&page) || !others.contains(&page));
    if !ours || !rec.may_own(b, page, table_pages, others) {
        return;
    }
    let before = rec.found.len();
    // overflow chains as the version's own state had them (`carve_snap`, set by
    // [`paged_older_versions`]), else the image's
    let snap = rec.carve_snap.take();
    rec.cells(b, page, name, Strict::Carved, snap.as_ref());
    rec.carve_snap = snap;
    // whole cells, each under its own header: a row's superseded version, judged as a
    // whole record against the live rows (as `Database` judges the cells of its older
    // snapshots), not by its key alone as a copy in free space is (whose tail a later
    // cell may have overwritten: [`Recoverer::stale_copy`])
    for f in &mut rec.found[before..] {
        f.carved = false;
    }
    rec.carve_page(b, page, name);
}

/// The paged mode's older page versions, each read by [`older_version`] and handed to
/// `flush`: every WAL frame that is not the image's version of its page, then the main
/// file's version of each page the WAL rewrote. Overflow chains are followed as each
/// version's own state had them, as `Database` follows them in its snapshots: a
/// committed frame's in the state after the commit that wrote it, the main file's in
/// the main file alone (a frame outside the committed chain's in the image). An older
/// version of a value whose overflow pages a later value took is then read whole, from
/// the frames that still hold its pages. The running state is one entry per page the
/// WAL wrote, kept in `rec.carve_snap` (never copied).
fn paged_older_versions(
    rec: &mut Recoverer<'_>,
    ps: &PageSource,
    table_pages: &HashSet<u32>,
    judge: &HashSet<u32>,
    flush: &mut dyn FnMut(&mut Recoverer<'_>),
) {
    let frames = &ps.wal().frames;
    let wal_pages = ps.wal_pages();
    let main_file: Snapshot = wal_pages.iter().map(|&p| (p, Version::File(p))).collect();
    let mut state = main_file.clone();
    let name_of = |i: usize| {
        let f = frames[i];
        match f.status {
            FrameStatus::Committed => format!("wal frame {} (page {})", i + 1, f.page),
            s => format!("wal frame {} (page {}, {})", i + 1, f.page, status_name(s)),
        }
    };
    let mut i = 0;
    while i < frames.len() {
        if frames[i].status != FrameStatus::Committed {
            if !ps.is_latest(i) {
                if let Some(b) = ps.frame_page(i) {
                    rec.carve_snap = None;
                    older_version(rec, frames[i].page, &b, &name_of(i), table_pages, judge);
                    flush(rec);
                }
            }
            i += 1;
            continue;
        }
        // a committed transaction: frames i..=end, `end` its commit frame
        let mut end = i;
        while end + 1 < frames.len()
            && frames[end].db_size == 0
            && frames[end + 1].status == FrameStatus::Committed
        {
            end += 1;
        }
        let transaction = (i..=end).zip(&frames[i..=end]);
        for (j, f) in transaction.clone() {
            let v = if ps.is_latest(j) {
                Version::Main(f.page)
            } else {
                Version::Frame(j)
            };
            state.insert(f.page, v);
        }
        rec.carve_snap = Some(std::mem::take(&mut state));
        for (j, f) in transaction {
            if ps.is_latest(j) {
                continue;
            }
            let Some(b) = ps.frame_page(j) else { continue };
            older_version(rec, f.page, &b, &name_of(j), table_pages, judge);
            flush(rec);
        }
        state = rec.carve_snap.take().unwrap_or_default();
        i = end + 1;
    }
    let main_pages = ps.main_page_count();
    rec.carve_snap = Some(main_file);
    for page in wal_pages {
        if page == 0 || page > main_pages {
            continue;
        }
        if let Some(b) = ps.main_page(page) {
            let name = format!("main file page {page}");
            older_version(rec, page, &b, &name, table_pages, judge);
            flush(rec);
        }
    }
    rec.carve_snap = None;
}

fn hash_bytes(b: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    b.hash(&mut h);
    h.finish()
}

/// The checks a stream of carved records passes before it is handed out, one page at a
/// time, in bounded memory (64-bit fingerprints, not records): the paged mode's live and
/// dropped tables and its schema table ([`paged_deleted`], [`paged_recover`]) share it.
/// A record is dropped when it is a copy of a live record or of one already handed out,
/// or when its inferred first column could equally be a known record's first column read
/// from a cell that kept its header ([`Found::probes`]); partial records are held until
/// the end ([`Sieve::partials`]) and dropped when their surviving columns are a whole
/// record's.
struct Sieve {
    alias: Option<usize>,
    ncols: usize,
    encoding: u32,
    /// Fingerprints of the live records.
    live: HashSet<u64>,
    /// The stored lengths and hashes of the known records' first columns.
    lengths: std::collections::BTreeSet<usize>,
    firsts: HashSet<u64>,
    /// Fingerprints of the whole records handed out.
    kept: HashSet<u64>,
    /// What partial copies of the records handed out would keep.
    emitted: HashSet<u64>,
    partials: Vec<Found>,
    /// The largest live rowid and each column's live value classes (for the carver).
    max_rowid: Option<i64>,
    seen: Vec<u8>,
}

impl Sieve {
    fn new(alias: Option<usize>, ncols: usize, encoding: u32) -> Sieve {
        Sieve {
            alias,
            ncols,
            encoding,
            live: HashSet::new(),
            lengths: std::collections::BTreeSet::new(),
            firsts: HashSet::new(),
            kept: HashSet::new(),
            emitted: HashSet::new(),
            partials: Vec::new(),
            max_rowid: None,
            seen: vec![0; ncols],
        }
    }

    fn first_column(&mut self, values: &[Value]) {
        let first = stored_bytes(&values[..1.min(values.len())], self.encoding);
        if !first.is_empty() {
            self.lengths.insert(first.len());
            self.firsts.insert(hash_bytes(&first));
        }
    }

    /// A live record: its fingerprint, its first column, its rowid, its value classes.
    fn observe_live(&mut self, rowid: Option<i64>, values: &[Value]) {
        self.live.insert(key(values, self.alias));
        self.first_column(values);
        self.max_rowid = self.max_rowid.max(rowid);
        for (s, v) in self.seen.iter_mut().zip(values) {
            *s |= class_of_value(v);
        }
    }

    /// Whether `values` (in table order) are a live row's.
    fn is_live(&self, values: &[Value]) -> bool {
        self.live.contains(&key(values, self.alias))
    }

    /// A carved record (in table order): the record to hand out, or `None` when it is
    /// dropped or held (a partial record).
    fn admit(&mut self, f: Found) -> Option<Found> {
        let misread = f.probes.iter().any(|(p, min)| {
            lengths_upto(&self.lengths, *min, p.len())
                .any(|k| self.firsts.contains(&hash_bytes(&p[..k])))
        });
        if misread {
            return None;
        }
        if !f.missing.is_empty() {
            self.partials.push(f);
            return None;
        }
        let k = key(&f.values, self.alias);
        if self.live.contains(&k) || !self.kept.insert(k) {
            return None;
        }
        // what a partial copy of this record would keep: its columns before a lost
        // tail, or all but the first (up to 16 columns)
        if self.ncols <= 16 {
            for k in 1..self.ncols {
                let missing: Vec<usize> = (k..self.ncols).collect();
                self.emitted
                    .insert(partial_key(&f.values, self.alias, &missing));
            }
            self.emitted
                .insert(partial_key(&f.values, self.alias, &[0]));
        }
        self.first_column(&f.values);
        Some(f)
    }

    /// The held partial records whose surviving columns are no record's: neither a
    /// whole record's handed out nor one `known` adds (`known(patterns, set)` adds the
    /// partial keys of the records it knows for each pattern of missing columns).
    fn partials(self, known: impl FnOnce(&[Vec<usize>], &mut HashSet<u64>)) -> Vec<Found> {
        if self.partials.is_empty() {
            return Vec::new();
        }
        let patterns: Vec<Vec<usize>> = self
            .partials
            .iter()
            .map(|f| f.missing.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut seen = self.emitted;
        known(&patterns, &mut seen);
        let alias = self.alias;
        self.partials
            .into_iter()
            .filter(|f| seen.insert(partial_key(&f.values, alias, &f.missing)))
            .collect()
    }
}

/// A carver of `table`'s records in a paged source, primed with what the table's live
/// rows tell (their fingerprints and first columns in the sieve; the largest rowid, each
/// column's value classes and a `WITHOUT ROWID` table's live keys in the carver; the
/// pages of every live b-tree and the freelist's leaves), and the pages of the other
/// b-trees (the schema's included), to judge freelist pages of unknown owner.
fn paged_primed<'a>(
    ps: &'a PageSource,
    table: &str,
    shape: TableShape,
) -> (Recoverer<'a>, Sieve, HashSet<u32>) {
    let alias = shape.alias;
    let ncols = shape.affinities.len();
    let encoding = ps.header().text_encoding;
    // 1. The live rows: fingerprints, first columns (hashed), largest rowid, classes.
    let mut sieve = Sieve::new(alias, ncols, encoding);
    let mut templates = index_tree::Templates::default();
    let mut rows = 0usize;
    let rowid_table = shape.order.is_none();
    paged_live(ps, table, &mut |rowid, values| {
        sieve.observe_live(Some(rowid), &values);
        // a rowid table's fixed text layouts, for cells rebuilt under stale links
        if rowid_table && rows < TEMPLATE_ROWS {
            templates.observe(&values);
            rows += 1;
        }
    });
    // 2. The pages of the other b-trees, to judge freelist pages of unknown owner.
    let mut others = HashSet::new();
    for e in paged_schema(ps) {
        if e.rootpage > 0 && e.name != table {
            others.extend(paged_tree(ps, e.rootpage).iter());
        }
    }
    others.extend(paged_tree(ps, 1).iter());
    let root = shape.root;
    let order = shape.order.clone();
    let mut rec = Recoverer::with_src(Src::Paged(ps), shape, Snapshot::new());
    rec.max_rowid = sieve.max_rowid;
    rec.seen = sieve.seen.clone();
    if let Some(order) = order {
        // a WITHOUT ROWID table's records are in record order (its key first)
        rec.seen = order
            .iter()
            .map(|&i| rec.seen.get(i).copied().unwrap_or(0))
            .collect();
        let mut t = index_tree::LiveBuilder::default();
        let key_cols = rec.shape.key_cols;
        paged_live(ps, table, &mut |_, v| {
            t.observe(&rec.to_record_order(&v), key_cols, encoding)
        });
        rec.live = t.finish();
    } else {
        rec.live.edges = templates.edges();
        rec.live.templates = templates.finish();
    }
    let mut live_trees = others.clone();
    live_trees.extend(paged_tree(ps, root).iter());
    rec.live_trees = live_trees;
    rec.free_leaves = rec.free_leaf_pages(ps.header().freelist_trunk, ps.page_count());
    (rec, sieve, others)
}

/// The deleted records of `table` in a paged source, to `each` as they are found.
pub(crate) fn paged_deleted(
    ps: &PageSource,
    table: &str,
    each: &mut dyn FnMut(RecoveredRecord),
) -> usize {
    let Some(shape) = paged_shape(ps, table) else {
        return 0;
    };
    let alias = shape.alias;
    let root = shape.root;
    let (mut rec, mut sieve, mut others) = paged_primed(ps, table, shape);
    // the other b-trees as the main file holds them too (after `live_trees`: a carved
    // record's overflow chain may run through pages a WAL commit freed)
    others.extend(paged_recover::main_file_trees(ps, table));
    let mut n = 0usize;
    let mut flush = |rec: &mut Recoverer<'_>| {
        for mut f in std::mem::take(&mut rec.found) {
            if rec.stale_copy(&f) {
                continue;
            }
            rec.to_table_order(&mut f);
            if let Some(f) = sieve.admit(f) {
                each(record(f));
                n += 1;
            }
        }
    };
    // 3. The table's pages, one at a time; interior pages (stale leaf content after a
    //    root split) after the leaves, so that a leaf's record is met before its copy.
    let mut table_pages = HashSet::new();
    let mut interiors = Vec::new();
    stream_tree(ps, root, &mut |page, b, leaf| {
        table_pages.insert(page);
        if !leaf {
            interiors.push(page);
            return;
        }
        let name = format!("page {page}");
        rec.carve_page(b, page, &name);
        rec.carve_unreachable(b, page, &name);
        flush(&mut rec);
    });
    for page in interiors {
        if let Some(b) = ps.page(page) {
            rec.carve_page(&b, page, &format!("page {page}"));
            if rec.shape.is_index() {
                rec.carve_unreachable(&b, page, &format!("page {page}"));
            }
            flush(&mut rec);
        }
    }
    // 4. The freelist.
    let mut freelist = HashSet::new();
    rec.carve_freelist(
        ps.header().freelist_trunk,
        ps.page_count(),
        &table_pages,
        &others,
        &mut freelist,
        &mut flush,
    );
    // 5. Older versions of the pages the WAL rewrote: the main file's page and every
    //    frame that is not the image's version of its page.
    paged_older_versions(&mut rec, ps, &table_pages, &others, &mut flush);
    // 6. Partial records, unless their surviving columns are a live row's.
    for f in sieve.partials(|patterns, known| {
        paged_live(ps, table, &mut |_, values| {
            for p in patterns {
                known.insert(partial_key(&values, alias, p));
            }
        });
    }) {
        each(record(f));
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `DroppedFit` (distinct shapes, each list of value classes judged once) answers
    /// as the comparison of every record with every dropped shape did, on 300 random
    /// live shapes against 1-8 random dropped ones, for every list of value classes.
    #[test]
    fn dropped_fit_answers_as_every_shape_compared() {
        let types = [
            "TEXT",
            "INTEGER",
            "REAL",
            "BLOB",
            "NUMERIC",
            "",
            "TEXT NOT NULL",
            "INTEGER PRIMARY KEY",
            "BOOLEAN NOT NULL",
        ];
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let random_shape = |next: &mut dyn FnMut(u64) -> u64| loop {
            let cols: Vec<String> = (0..1 + next(3))
                .map(|i| format!("c{i} {}", types[next(types.len() as u64) as usize]))
                .collect();
            if let Some(s) =
                TableShape::from_sql(&format!("CREATE TABLE x ({})", cols.join(", ")), 2)
            {
                return s;
            }
        };
        let values = [
            Value::Null,
            Value::Integer(1),
            Value::Real(0.5),
            Value::Text("a".into()),
            Value::Blob(vec![1]),
        ];
        let (mut asked, mut fit) = (0, 0);
        for _ in 0..300 {
            let live = random_shape(&mut next);
            let dropped: Vec<TableShape> =
                (0..1 + next(8)).map(|_| random_shape(&mut next)).collect();
            let mut fast = DroppedFit::new(&live, &dropped);
            for n in 1..=3usize {
                for code in 0..5usize.pow(n as u32) {
                    let record: Vec<Value> = (0..n)
                        .map(|i| values[code / 5usize.pow(i as u32) % 5].clone())
                        .collect();
                    let want = fits_dropped(&record, &live, &dropped);
                    assert_eq!(fast.fits(&record), want, "{record:?}");
                    // asked again: from the memo
                    assert_eq!(fast.fits(&record), want, "{record:?}");
                    asked += 1;
                    fit += usize::from(want);
                }
            }
        }
        assert_eq!((asked, fit), (46500, 14281));
    }

    #[test]
    fn spans_answer_as_a_scan_of_the_list_would() {
        let list = [(10, 20), (20, 25), (40, 50), (45, 60), (70, 71)];
        let mut spans = Spans::default();
        for &(a, z) in &list {
            spans.insert(a, z);
        }
        for a in 0..80 {
            for z in a..85 {
                let scan = list.iter().any(|&(x, y)| a < y && x < z);
                assert_eq!(spans.overlaps(a, z), scan, "[{a}, {z})");
            }
        }
        assert_eq!(
            spans.0.into_iter().collect::<Vec<_>>(),
            [(10, 20), (20, 25), (40, 60), (70, 71)]
        );
    }

    /// A probe shorter than the least it must hold (an empty one) is no copy of
    /// anything; it panicked in `BTreeSet::range` (start past end) before.
    #[test]
    fn a_probe_shorter_than_its_minimum_is_no_misread_copy() {
        let lengths: std::collections::BTreeSet<usize> = [1, 3, 5].into();
        let firsts: HashSet<Vec<u8>> = [b"abc".to_vec()].into();
        assert!(!misread_copy(&firsts, &lengths, b"", 1));
        assert!(!misread_copy(&firsts, &lengths, b"ab", 3));
        assert!(misread_copy(&firsts, &lengths, b"abcd", 3));
        assert!(!misread_copy(&firsts, &lengths, b"abcd", 4));
        assert_eq!(lengths_upto(&lengths, 0, 4).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(lengths_upto(&lengths, 6, 4).count(), 0);
    }

    #[test]
    fn serial_sizes_and_ints() {
        assert_eq!(serial_size(13), Some(0));
        assert_eq!(serial_size(19), Some(3));
        assert_eq!(serial_size(18), Some(3));
        assert_eq!(serial_size(10), None);
        assert_eq!(int_be(&[0xff]), -1);
        assert_eq!(int_be(&[0x01, 0x00]), 256);
        assert_eq!(local_size(100, 4096), 100);
        assert_eq!(local_size(5000, 4096), 908);
    }
}
