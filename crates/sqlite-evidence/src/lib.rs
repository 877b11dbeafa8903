//! Read live SQLite evidence without touching it, and recover what was deleted.
//!
//! # Why this crate exists
//!
//! The stores this project reads (VS Code's `state.vscdb`, the Tabby database, Copilot's
//! session index) are SQLite files that a running program holds open in WAL mode. Their
//! newest transactions often exist only in the `-wal` beside them. Asking SQLite to open
//! such a file is itself a change to the evidence: a read-write open checkpoints the WAL
//! into the main file and deletes it, and even a read-only open creates or rewrites the
//! `-shm` index and takes locks.
//!
//! So this crate never lets SQLite see the files. It reads the main file and its `-wal`
//! through [`chat_rows::Evidence`] (read-only, recorded in the manifest), checks the WAL
//! itself (header, salts, cumulative checksums), applies the frames up to the last valid
//! commit to an **in-memory image**, and hands that image to SQLite with
//! `sqlite3_deserialize`, read-only. SQLite then answers queries as it would on the
//! live file, with nothing on disk involved. The alternative, a private copy of the
//! file set in a temporary directory, needs disk space and cleanup and still runs
//! SQLite's own WAL recovery on the copy; the image is simpler and cannot leak a file.
//!
//! # Damage
//!
//! A damaged WAL or main file does not fail the open: each defect becomes a
//! [`Problem`] (where and what), which the store crate turns into a `parser:` row
//! ([`rows::problem_rows`]), and the database is read as far as it can be. Only a file
//! that is not SQLite at all (or empty, with no WAL) is an [`Error`].
//!
//! # Recovery
//!
//! [`Database::deleted_records`] reads the records SQLite no longer shows: older
//! versions of pages in the WAL, the main file's version of pages the WAL replaced,
//! freelist pages, and freeblocks and unallocated space inside live pages.
//!
//! ```no_run
//! use std::path::Path;
//! let evidence = chat_rows::Evidence::new();
//! let db = sqlite_evidence::Database::open(Path::new("state.vscdb"), &evidence)?;
//! for p in db.problems() {
//!     eprintln!("parser: {} at {}", p.message, p.location);
//! }
//! let n: i64 = db.connection().query_row("SELECT count(*) FROM ItemTable", [], |r| r.get(0))?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod any;
pub mod decode;
#[doc(hidden)]
pub mod fuzzing;
pub mod locate;
pub mod paged;
pub mod recover;
pub mod rows;

use std::path::{Path, PathBuf};

use rusqlite::{Connection, MAIN_DB};

pub use decode::{DbHeader, Frame, FrameStatus, Problem, ProblemKind, WalScan};
pub use recover::{DroppedTable, Reach, RecoveredRecord, SchemaEntry};
pub use rusqlite;

/// Why a database could not be opened at all.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The main file is empty and there is no WAL with a committed transaction.
    #[error("empty database file (0 bytes) and no committed wal")]
    Empty,
    /// The main file is empty and the WAL's committed frames do not hold page 1.
    #[error("empty database file (0 bytes) and the wal does not hold page 1")]
    NoPageOne,
    /// The file does not start with the SQLite magic.
    #[error("not an SQLite database: the file starts with {found}")]
    NotSqlite {
        /// The first bytes, escaped.
        found: String,
    },
    /// The file ends inside the 100-byte header.
    #[error("file of {len} bytes ends inside the 100-byte SQLite header")]
    TruncatedHeader {
        /// The file length.
        len: usize,
    },
    /// The page size field (offset 16) is invalid.
    #[error("invalid page size {field} at offset 16")]
    BadPageSize {
        /// The raw field.
        field: u32,
    },
    /// SQLite refused the image.
    #[error("sqlite: {context}: {source}")]
    Sqlite {
        /// What was being done.
        context: &'static str,
        /// SQLite's error.
        source: rusqlite::Error,
    },
}

/// A SQLite database read from evidence: the main file with its WAL applied in memory.
pub struct Database {
    conn: Connection,
    header: DbHeader,
    main: Vec<u8>,
    wal: Vec<u8>,
    wal_scan: WalScan,
    image_pages: u32,
    problems: Vec<Problem>,
    /// Whether SQLite could read the schema of the image.
    schema_ok: bool,
    /// The dropped tables, found once on first use.
    dropped: std::cell::OnceCell<Vec<DroppedTable>>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("header", &self.header)
            .field("main_len", &self.main.len())
            .field("wal_len", &self.wal.len())
            .field("image_pages", &self.image_pages)
            .field("problems", &self.problems)
            .finish()
    }
}

fn escape_start(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(16)];
    let s: String = head
        .iter()
        .flat_map(|b| std::ascii::escape_default(*b))
        .map(char::from)
        .collect();
    format!("\"{s}\"")
}

/// The most zero bytes added for pages a truncated file lacks (beyond what the files hold).
const MAX_PADDING: usize = 64 << 20;

/// The `source_locator` of a live row of a rowid table: `table <t> rowid <n>`, and the
/// place [`Database::wal_places`] gives when the `-wal` holds it (`table turns rowid 1,
/// wal frame 4 (page 5) cell 0`). One form for every store that reads tables by rowid.
pub fn live_locator(table: &str, rowid: i64, wal: Option<&str>) -> String {
    match wal {
        Some(w) => format!("table {table} rowid {rowid}, {w}"),
        None => format!("table {table} rowid {rowid}"),
    }
}

/// `wal frame <n> (page <p>) cell <c>` for each place `recover` found (frame 0-based).
pub(crate) fn place_texts(
    places: std::collections::HashMap<i64, (usize, u32, usize)>,
) -> std::collections::HashMap<i64, String> {
    places
        .into_iter()
        .map(|(rowid, (i, page, cell))| {
            (
                rowid,
                format!("wal frame {} (page {page}) cell {cell}", i + 1),
            )
        })
        .collect()
}

impl Database {
    /// Reads `path` and `path-wal` through `evidence` (read-only, recorded in its
    /// manifest) and opens the result. Never opens, locks or creates a file beside it.
    pub fn open(path: &Path, evidence: &chat_rows::Evidence) -> Result<Database, Error> {
        let main = evidence.read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let wal_path = locate::wal_path(path);
        // a WAL that cannot be used never costs the database: the main file is read
        // alone, and one problem (a `parser:` row) says why the WAL was left out
        let (wal, wal_problem) = match evidence.read_optional(&wal_path) {
            Ok(wal) => (wal, None),
            Err(e) => (
                None,
                Some(Problem::new(
                    ProblemKind::WalUnreadable,
                    "wal file".to_string(),
                    format!(
                        "{} left out ({e}); the main file was read without it, so rows only in the wal are missing",
                        wal_path
                            .file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_default()
                    ),
                )),
            ),
        };
        let mut db = Database::from_vecs(main, wal)?;
        if let Some(p) = wal_problem {
            db.problems.insert(0, p);
        }
        Ok(db)
    }

    /// Opens a database from the bytes of its main file and of its WAL, if any.
    pub fn from_bytes(main: &[u8], wal: Option<&[u8]>) -> Result<Database, Error> {
        Database::from_vecs(main.to_vec(), wal.map(<[u8]>::to_vec))
    }

    /// Like [`Database::from_bytes`], taking ownership of the buffers.
    pub fn from_vecs(main: Vec<u8>, wal: Option<Vec<u8>>) -> Result<Database, Error> {
        let wal = wal.unwrap_or_default();
        let mut problems = Vec::new();
        // The page size comes from the main file, or from the WAL when the main file is
        // empty (a database whose first transaction was never checkpointed).
        let main_header = if main.is_empty() {
            None
        } else if main.len() < decode::HEADER_SIZE {
            return Err(if main.starts_with(&decode::MAGIC[..main.len().min(16)]) {
                Error::TruncatedHeader { len: main.len() }
            } else {
                Error::NotSqlite {
                    found: escape_start(&main),
                }
            });
        } else if &main[..16] != decode::MAGIC {
            return Err(Error::NotSqlite {
                found: escape_start(&main),
            });
        } else {
            match DbHeader::parse(&main) {
                Some(h) => Some(h),
                None => {
                    return Err(Error::BadPageSize {
                        field: decode::be16(&main, 16) as u32,
                    });
                }
            }
        };
        let wal_scan = decode::scan_wal(&wal, main_header.map(|h| h.page_size));
        problems.extend(wal_scan.problems.iter().cloned());
        let page_size = match (main_header, wal_scan.header) {
            (Some(h), _) => h.page_size,
            (None, Some(w)) if wal_scan.committed_db_size.is_some() => w.page_size,
            _ => return Err(Error::Empty),
        };

        // How many pages the database has, and how many the files can supply.
        let main_pages_present = main.len().div_ceil(page_size);
        let max_wal_page = wal_scan
            .frames
            .iter()
            .filter(|f| f.status == FrameStatus::Committed)
            .map(|f| f.page as usize)
            .max()
            .unwrap_or(0);
        let mut pages: usize = match (wal_scan.committed_db_size, main_header) {
            (Some(n), _) => n as usize,
            (None, Some(h)) if h.size_valid => h.page_count as usize,
            _ => main_pages_present,
        };
        let supplied = main_pages_present.max(max_wal_page.min(pages));
        if main_header.is_some() {
            let main_needed = match main_header {
                Some(h) if h.size_valid => h.page_count as usize * page_size,
                _ => main_pages_present * page_size,
            };
            if main.len() < main_needed {
                problems.push(Problem::truncated_main(
                    main.len() as u64,
                    main_needed as u64,
                    page_size as u64,
                ));
            }
        }
        if !problems
            .iter()
            .any(|p| p.kind == ProblemKind::TruncatedMain)
        {
            let in_wal: std::collections::HashSet<usize> = wal_scan
                .frames
                .iter()
                .filter(|f| f.status == FrameStatus::Committed)
                .map(|f| f.page as usize)
                .collect();
            let beyond_main = pages.saturating_sub(main_pages_present);
            let from_wal = in_wal
                .iter()
                .filter(|&&p| p > main_pages_present && p <= pages)
                .count();
            let missing = beyond_main.saturating_sub(from_wal);
            if missing > 0 {
                problems.push(Problem::missing_pages(
                    missing as u64,
                    pages as u64,
                    main.len() as u64,
                ));
            }
        }
        if pages > supplied && (pages - supplied).saturating_mul(page_size) > MAX_PADDING {
            pages = supplied;
        }
        if pages == 0 {
            return Err(Error::Empty);
        }
        let mut image = vec![0u8; pages * page_size];
        let n = main.len().min(image.len());
        image[..n].copy_from_slice(&main[..n]);
        for f in wal_scan
            .frames
            .iter()
            .filter(|f| f.status == FrameStatus::Committed)
        {
            let page = f.page as usize;
            if page == 0 || page > pages {
                continue;
            }
            let range = f.data_range(page_size);
            if let Some(data) = wal.get(range) {
                image[(page - 1) * page_size..page * page_size].copy_from_slice(data);
            }
        }
        if &image[..16] != decode::MAGIC {
            if main.is_empty() {
                return Err(Error::NoPageOne);
            }
            return Err(Error::NotSqlite {
                found: escape_start(&image),
            });
        }
        // The image is opened as a plain (rollback-journal) database: WAL mode bytes 18
        // and 19 would make SQLite look for a WAL the in-memory file cannot have. The
        // in-header size is made to agree with the image, which is what it now holds.
        image[18] = 1;
        image[19] = 1;
        let counter = [image[24], image[25], image[26], image[27]];
        image[28..32].copy_from_slice(&(pages as u32).to_be_bytes());
        image[92..96].copy_from_slice(&counter);
        let header = DbHeader::parse(&image).ok_or(Error::BadPageSize {
            field: decode::be16(&image, 16) as u32,
        })?;
        let complete = !problems
            .iter()
            .any(|p| p.kind == ProblemKind::TruncatedMain);
        problems.extend(decode::freelist_problems(
            &header,
            pages as u32,
            complete,
            |n| image.get((n as usize - 1) * page_size..n as usize * page_size),
        ));

        let sqlite = |context: &'static str| move |source| Error::Sqlite { context, source };
        let mut conn = Connection::open_in_memory().map_err(sqlite("open in memory"))?;
        let len = image.len();
        conn.deserialize_read_exact(MAIN_DB, &image[..], len, true)
            .map_err(sqlite("deserialize"))?;
        drop(image);
        conn.execute_batch(
            "PRAGMA query_only = ON; PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON;",
        )
        .map_err(sqlite("pragmas"))?;
        let schema = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
            r.get::<_, i64>(0)
        });
        let schema_ok = schema.is_ok();
        if let Err(e) = schema {
            problems.push(Problem::new(
                ProblemKind::Schema,
                "page 1",
                format!("schema unreadable: {e}"),
            ));
        }
        Ok(Database {
            conn,
            header,
            main,
            wal,
            wal_scan,
            image_pages: pages as u32,
            problems,
            schema_ok,
            dropped: std::cell::OnceCell::new(),
        })
    }

    /// The read-only connection on the in-memory image, for live queries.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Damage found while reading, in the order found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The header of the image (after the WAL was applied).
    pub fn header(&self) -> &DbHeader {
        &self.header
    }

    /// The WAL as decoded: its header and every frame with its status.
    pub fn wal(&self) -> &WalScan {
        &self.wal_scan
    }

    /// Number of pages in the image.
    pub fn page_count(&self) -> u32 {
        self.image_pages
    }

    /// `PRAGMA user_version` of the image.
    pub fn user_version(&self) -> i32 {
        self.header.user_version
    }

    /// True when the image has a table (or view) of that name.
    pub fn has_table(&self, table: &str) -> bool {
        self.conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE type IN ('table','view') AND name = ?1",
                [table],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .unwrap_or(false)
    }

    /// The versions in `_sqlx_migrations` (sqlx's migration table), ascending; empty
    /// when the table is absent or unreadable.
    pub fn sqlx_migrations(&self) -> Vec<i64> {
        if !self.has_table("_sqlx_migrations") {
            return Vec::new();
        }
        let Ok(mut stmt) = self
            .conn
            .prepare("SELECT version FROM _sqlx_migrations ORDER BY version")
        else {
            return Vec::new();
        };
        let Ok(rows) = stmt.query_map([], |r| r.get::<_, i64>(0)) else {
            return Vec::new();
        };
        rows.filter_map(Result::ok).collect()
    }

    /// The deleted records of a table that the files still hold (older page versions
    /// in the WAL and the main file, frames outside the committed chain, freelist
    /// pages, freeblocks and unallocated space), decoded with the table's schema,
    /// without those identical to a live row. A `WITHOUT ROWID` table's records (read
    /// from its index b-tree) have `rowid: None` and their values in table order.
    /// Empty for an unknown table. See [`recover`].
    pub fn deleted_records(&self, table: &str) -> Vec<RecoveredRecord> {
        recover::deleted_records(self, table)
    }

    /// Where the WAL holds the live rows of a rowid table: for each rowid whose leaf
    /// page the image took from a committed WAL frame, that place as
    /// `wal frame <n> (page <p>) cell <c>` (the frame 1-based, as in every other
    /// location here; the cell's index on the leaf). A row not listed was read from
    /// the main file. Such a row is not necessarily missing from the main file: the
    /// WAL holds the whole page, so an unchanged neighbour of a changed row is listed
    /// too; it says which file the row's bytes were read from. Empty for a table
    /// without a WAL frame, a `WITHOUT ROWID` table and an unknown one.
    pub fn wal_places(&self, table: &str) -> std::collections::HashMap<i64, String> {
        place_texts(recover::wal_places(self, table))
    }

    /// Whether SQLite could read the image's schema. When it cannot (a truncated or
    /// damaged file), [`Database::deleted_records`] still reads each table whose
    /// `CREATE TABLE` text survives ([`Database::schema_entries`]) page by page, and
    /// returns its records as [`Reach::Unreachable`].
    pub fn schema_readable(&self) -> bool {
        self.schema_ok
    }

    /// The schema records read by hand from the image (page 1's b-tree, and, when
    /// SQLite cannot read the schema, any page that holds schema records): what a
    /// damaged file still says of its tables.
    pub fn schema_entries(&self) -> Vec<SchemaEntry> {
        recover::hand_schema(self)
    }

    /// The tables dropped from the schema whose `CREATE TABLE` text survives in a
    /// freed schema record. [`Database::deleted_records`] with such a name reads the
    /// dropped table's records (freelist pages, orphaned pages, older page versions,
    /// and the free space of pages other tables reused). Found once, on first use.
    pub fn dropped_tables(&self) -> &[DroppedTable] {
        self.dropped.get_or_init(|| recover::dropped_tables(self))
    }

    /// The column names of a table, in order; empty when there is no such table.
    pub fn table_columns(&self, table: &str) -> Vec<String> {
        let Ok(mut stmt) = self
            .conn
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
        else {
            return Vec::new();
        };
        let Ok(rows) = stmt.query_map([table], |r| r.get::<_, String>(0)) else {
            return Vec::new();
        };
        rows.filter_map(Result::ok).collect()
    }
}
