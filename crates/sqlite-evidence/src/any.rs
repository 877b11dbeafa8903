//! One database, in memory or page by page: the choice made once, by size.
//!
//! # Why
//!
//! [`crate::Database`] answers SQL on an in-memory image but holds about three times the
//! database; [`crate::paged::PagedDatabase`] holds page-number sets and fingerprints but
//! answers no SQL. A store crate that reads a table's rows in rowid order and its deleted
//! records (VS Code's `ItemTable`, Tabby's tables) needs neither SQL nor the whole file,
//! so it can read both the same way: [`AnyDatabase`] is that common reading, and
//! [`Opening`] the size from which the paged mode is used (main file plus WAL above
//! [`PAGED_FROM_BYTES`], or either file above the evidence size cap, which
//! [`crate::Database`] cannot pass). Every store crate makes the same decision through
//! [`use_paged`], and tests force either mode with [`Opening::paged`] and
//! [`Opening::in_memory`] to compare their rows.
//!
//! What differs between the modes is the recovery's, and documented in the crate's
//! README: the paged mode judges older page versions by their own cells instead of
//! walking each snapshot's b-trees (it follows their overflow chains as each version's
//! own commit had them, and asks that state whose page it was only by a rowid search).
//! Live rows are the same: the b-tree walk gives the
//! rows SQLite gives, in rowid order, with the rowid alias filled, and a column added by
//! `ALTER TABLE` after a row was written read as its constant default in both modes.

use std::path::Path;

use rusqlite::types::Value;

use crate::paged::{PagedDatabase, ReadAt};
use crate::recover::RecoveredRecord;
use crate::{Database, Error, Problem, locate};

/// Databases (main file and WAL together) larger than this are read page by page:
/// 512 MiB, which the in-memory image holds in about 1.5 GB.
pub const PAGED_FROM_BYTES: u64 = 512 << 20;

/// When a database is read page by page instead of in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Read page by page when the main file and the WAL together are larger than this
    /// (always, whatever this says, when either is over the evidence size cap).
    pub paged_from_bytes: u64,
}

impl Default for Opening {
    fn default() -> Opening {
        Opening {
            paged_from_bytes: PAGED_FROM_BYTES,
        }
    }
}

impl Opening {
    /// Every non-empty database page by page (tests, bench).
    pub fn paged() -> Opening {
        Opening {
            paged_from_bytes: 0,
        }
    }

    /// In memory whenever the evidence size cap allows it.
    pub fn in_memory() -> Opening {
        Opening {
            paged_from_bytes: u64::MAX,
        }
    }
}

/// Whether `path` (with its `-wal`) is read page by page: above `paged_from_bytes`
/// together, or either file above the evidence size cap. A file that cannot be checked
/// goes to the in-memory path, which reports why.
pub fn use_paged(path: &Path, evidence: &chat_rows::Evidence, paged_from_bytes: u64) -> bool {
    let Ok(main) = evidence.check(path) else {
        return false;
    };
    let wal = evidence
        .check(&locate::wal_path(path))
        .map(|c| c.size)
        .unwrap_or(0);
    let cap = evidence.size_cap();
    main.size.saturating_add(wal) > paged_from_bytes || main.size > cap || wal > cap
}

/// A database opened in memory ([`Database`]) or page by page ([`PagedDatabase`]).
#[derive(Debug)]
pub enum AnyDatabase {
    /// The in-memory image, with SQL.
    Memory(Database),
    /// Pages read on demand.
    Paged(PagedDatabase),
}

impl AnyDatabase {
    /// Opens `path` and `path-wal` through `evidence`, page by page when
    /// [`use_paged`] says so, else in memory.
    pub fn open(
        path: &Path,
        evidence: &chat_rows::Evidence,
        opening: Opening,
    ) -> Result<AnyDatabase, Error> {
        if use_paged(path, evidence, opening.paged_from_bytes) {
            PagedDatabase::open(path, evidence).map(AnyDatabase::Paged)
        } else {
            Database::open(path, evidence).map(AnyDatabase::Memory)
        }
    }

    /// Opens the bytes of a main file and its WAL, page by page when `paged` (readers
    /// over the bytes in memory, for tests) or in memory.
    pub fn from_bytes(main: &[u8], wal: Option<&[u8]>, paged: bool) -> Result<AnyDatabase, Error> {
        if paged {
            PagedDatabase::from_readers(
                Box::new(main.to_vec()),
                wal.map(|w| Box::new(w.to_vec()) as Box<dyn ReadAt>),
            )
            .map(AnyDatabase::Paged)
        } else {
            Database::from_bytes(main, wal).map(AnyDatabase::Memory)
        }
    }

    /// True in the paged mode.
    pub fn is_paged(&self) -> bool {
        matches!(self, AnyDatabase::Paged(_))
    }

    /// The in-memory database, in that mode.
    pub fn memory(&self) -> Option<&Database> {
        match self {
            AnyDatabase::Memory(db) => Some(db),
            AnyDatabase::Paged(_) => None,
        }
    }

    /// The paged database, in that mode.
    pub fn paged(&self) -> Option<&PagedDatabase> {
        match self {
            AnyDatabase::Memory(_) => None,
            AnyDatabase::Paged(db) => Some(db),
        }
    }

    /// Damage found while opening (the paged mode has no `schema unreadable` problem of
    /// SQLite's: it reads the schema by hand).
    pub fn problems(&self) -> &[Problem] {
        match self {
            AnyDatabase::Memory(db) => db.problems(),
            AnyDatabase::Paged(db) => db.problems(),
        }
    }

    /// True when the database has a table of that name.
    pub fn has_table(&self, table: &str) -> bool {
        match self {
            AnyDatabase::Memory(db) => db.has_table(table),
            AnyDatabase::Paged(db) => db
                .schema_entries()
                .iter()
                .any(|e| matches!(e.kind.as_str(), "table" | "view") && e.name == table),
        }
    }

    /// The column names of a table, in order; empty when there is no such table.
    pub fn table_columns(&self, table: &str) -> Vec<String> {
        match self {
            AnyDatabase::Memory(db) => db.table_columns(table),
            AnyDatabase::Paged(db) => db.table_columns(table),
        }
    }

    /// The versions in `_sqlx_migrations`, ascending; empty when the table is absent.
    pub fn sqlx_migrations(&self) -> Vec<i64> {
        match self {
            AnyDatabase::Memory(db) => db.sqlx_migrations(),
            AnyDatabase::Paged(db) => {
                let cols = db.table_columns("_sqlx_migrations");
                let Some(at) = cols.iter().position(|c| c == "version") else {
                    return Vec::new();
                };
                let mut out = Vec::new();
                db.live_records("_sqlx_migrations", &mut |_, values| {
                    if let Some(Value::Integer(v)) = values.get(at) {
                        out.push(*v);
                    }
                });
                out.sort_unstable();
                out
            }
        }
    }

    /// Hands every live row of `table` to `each` in rowid order (its rowid and every
    /// column's value, the rowid alias filled), one at a time; returns how many. In
    /// memory this is `SELECT rowid, * FROM <table> ORDER BY rowid`, and its error
    /// (after the rows read before it) is returned; the paged walk has none (a page it
    /// cannot read is passed over).
    pub fn live_rows(
        &self,
        table: &str,
        each: &mut dyn FnMut(i64, Vec<Value>),
    ) -> Result<usize, rusqlite::Error> {
        match self {
            AnyDatabase::Memory(db) => {
                let ncols = db.table_columns(table).len();
                let sql = format!(
                    "SELECT rowid, * FROM \"{}\" ORDER BY rowid",
                    table.replace('"', "\"\"")
                );
                let mut stmt = db.connection().prepare(&sql)?;
                let mut rows = stmt.query([])?;
                let mut n = 0;
                while let Some(r) = rows.next()? {
                    let rowid: i64 = r.get(0)?;
                    let mut values = Vec::with_capacity(ncols);
                    for i in 0..ncols {
                        values.push(r.get::<_, Value>(i + 1)?);
                    }
                    each(rowid, values);
                    n += 1;
                }
                Ok(n)
            }
            AnyDatabase::Paged(db) => Ok(db.live_records(table, each)),
        }
    }

    /// Where the WAL holds the live rows of a rowid table, by rowid
    /// ([`Database::wal_places`]; the same in both modes).
    pub fn wal_places(&self, table: &str) -> std::collections::HashMap<i64, String> {
        match self {
            AnyDatabase::Memory(db) => db.wal_places(table),
            AnyDatabase::Paged(db) => db.wal_places(table),
        }
    }

    /// Hands every deleted record of `table` to `each` (see
    /// [`Database::deleted_records`] and [`PagedDatabase::deleted_records`]); returns how
    /// many.
    pub fn deleted_records(&self, table: &str, each: &mut dyn FnMut(RecoveredRecord)) -> usize {
        match self {
            AnyDatabase::Memory(db) => {
                let recs = db.deleted_records(table);
                let n = recs.len();
                recs.into_iter().for_each(each);
                n
            }
            AnyDatabase::Paged(db) => db.deleted_records(table, each),
        }
    }
}
