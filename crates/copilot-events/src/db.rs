//! The SQLite stores: `session-store.db` (CLI and extension) and the OTel
//! `agent-traces.db`, read through `sqlite-evidence`.
//!
//! Why through `sqlite-evidence` only: in fresh CLI captures every row of
//! `session-store.db` is only in the `-wal`, and opening the file with SQLite would
//! checkpoint or at least rewrite `-shm`. `sqlite-evidence` applies the WAL in memory
//! and carves what was deleted: sessions removed from the sessions view, turns a
//! rewind dropped, spans the 7-day purge deleted. Those come back as `deleted` rows
//! located by the table, the rowid when it survived, and the place in the file.
//!
//! The reader never names a column it has not seen: it asks which of the columns it
//! wants exist in each table and selects only those, so other schema versions read
//! as far as they match. No column that could hold a secret is selected.

use std::collections::HashMap;

use chat_rows::RecordState;
use sqlite_evidence::Database;
use sqlite_evidence::rusqlite::types::Value as SqlValue;

/// Where a record was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A live row.
    Live {
        /// The table.
        table: String,
        /// The rowid.
        rowid: i64,
        /// Where the `-wal` holds it, when the row was read from a WAL frame:
        /// `wal frame 12 (page 6) cell 3` ([`Database::wal_places`]); `None` for a row
        /// the main file gave.
        wal: Option<String>,
    },
    /// A deleted record, or an older version of a live row, found by `sqlite-evidence`.
    Carved {
        /// The table.
        table: String,
        /// The rowid, when it survived.
        rowid: Option<i64>,
        /// True when a live row has this rowid (an older version, `recovered`).
        older: bool,
        /// Where it was found: `wal frame 3 (page 2) cell 1`, `freelist page 7 cell 0` ...
        location: String,
    },
}

impl Place {
    /// The row's `source_locator`.
    pub fn locator(&self) -> String {
        match self {
            Place::Live { table, rowid, wal } => {
                sqlite_evidence::live_locator(table, *rowid, wal.as_deref())
            }
            Place::Carved {
                table,
                rowid,
                older,
                location,
            } => {
                let what = if *older { "older version" } else { "deleted" };
                match rowid {
                    Some(r) => format!("table {table} rowid {r} ({what}), {location}"),
                    None => format!("table {table} ({what}), {location}"),
                }
            }
        }
    }

    /// The row's record state.
    pub fn state(&self) -> RecordState {
        match self {
            Place::Live { .. } => RecordState::Live,
            Place::Carved { older: true, .. } => RecordState::Recovered,
            Place::Carved { .. } => RecordState::Deleted,
        }
    }
}

/// One record: its place and the wanted columns that exist.
#[derive(Clone, Debug)]
pub struct Rec {
    /// Where it was read.
    pub place: Place,
    /// The values by column name.
    pub values: HashMap<String, SqlValue>,
}

impl Rec {
    /// A column as text (numbers printed, blobs lossily decoded); `None` for NULL.
    pub fn text(&self, col: &str) -> Option<String> {
        match self.values.get(col)? {
            SqlValue::Text(s) => Some(s.clone()),
            SqlValue::Blob(b) => Some(String::from_utf8_lossy(b).into_owned()),
            SqlValue::Integer(i) => Some(i.to_string()),
            SqlValue::Real(r) => Some(r.to_string()),
            SqlValue::Null => None,
        }
    }

    /// A column as text, empty for NULL or absent.
    pub fn str(&self, col: &str) -> String {
        self.text(col).unwrap_or_default()
    }

    /// A column as an integer.
    pub fn int(&self, col: &str) -> Option<i64> {
        match self.values.get(col)? {
            SqlValue::Integer(i) => Some(*i),
            SqlValue::Real(r) => Some(*r as i64),
            SqlValue::Text(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// A column as a time (ISO text, SQLite text, epoch ms or s).
    pub fn time(&self, col: &str) -> Option<chat_rows::Timestamp> {
        match self.values.get(col)? {
            SqlValue::Integer(i) => crate::decode::epoch(*i),
            SqlValue::Real(r) => crate::decode::epoch(*r as i64),
            SqlValue::Text(s) => crate::decode::time_text(s),
            _ => None,
        }
    }
}

/// A table or column name as an SQL identifier (double-quoted, inner quotes doubled).
fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Reads the wanted columns that exist of every live row of `table`, in rowid order,
/// then its carved records. A failure of the query is returned as a message (the rows
/// read before it are kept).
pub fn read_table(db: &Database, table: &str, wanted: &[&str]) -> (Vec<Rec>, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    if !db.has_table(table) {
        return (out, errors);
    }
    let present = db.table_columns(table);
    let cols: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|c| present.iter().any(|p| p == c))
        .collect();
    if cols.is_empty() {
        return (out, errors);
    }
    let list: Vec<String> = cols.iter().map(|c| ident(c)).collect();
    let sql = format!(
        "SELECT rowid, {} FROM {} ORDER BY rowid",
        list.join(", "),
        ident(table)
    );
    // a WITHOUT ROWID table has no rowid: its rows are read in key order, numbered
    let without_rowid = format!("SELECT NULL, {} FROM {}", list.join(", "), ident(table));
    let mut live_ids: HashMap<i64, Option<SqlValue>> = HashMap::new();
    // the rows read from the `-wal` (in fresh CLI captures, every row)
    let mut in_wal = db.wal_places(table);
    let prepared = db
        .connection()
        .prepare(&sql)
        .or_else(|_| db.connection().prepare(&without_rowid));
    match prepared {
        Err(e) => errors.push(format!("table {table} not read ({e})")),
        Ok(mut stmt) => match stmt.query([]) {
            Err(e) => errors.push(format!("table {table} not read ({e})")),
            Ok(mut rows) => loop {
                match rows.next() {
                    Ok(Some(row)) => {
                        let rowid: i64 = row
                            .get::<_, Option<i64>>(0)
                            .ok()
                            .flatten()
                            .unwrap_or(out.len() as i64 + 1);
                        live_ids.insert(rowid, row.get::<_, SqlValue>(1).ok());
                        let mut values = HashMap::new();
                        for (i, c) in cols.iter().enumerate() {
                            values.insert(
                                (*c).to_string(),
                                row.get::<_, SqlValue>(i + 1).unwrap_or(SqlValue::Null),
                            );
                        }
                        out.push(Rec {
                            place: Place::Live {
                                table: table.to_string(),
                                rowid,
                                wal: in_wal.remove(&rowid),
                            },
                            values,
                        });
                    }
                    Ok(None) => break,
                    Err(e) => {
                        errors.push(format!(
                            "table {table} not fully read after {} rows ({e})",
                            out.len()
                        ));
                        break;
                    }
                }
            },
        },
    }
    for rec in db.deleted_records(table) {
        let mut values = HashMap::new();
        for (name, v) in present.iter().zip(rec.values) {
            if cols.contains(&name.as_str()) {
                values.insert(name.clone(), v);
            }
        }
        // an older version of a live row has its rowid and its first (key) column;
        // a rowid reused by another row is a deleted record
        let key = cols.first().and_then(|c| values.get(*c)).cloned();
        let older = rec
            .rowid
            .and_then(|r| live_ids.get(&r))
            .is_some_and(|live| live.is_some() && *live == key);
        out.push(Rec {
            place: Place::Carved {
                table: table.to_string(),
                rowid: rec.rowid,
                older,
                location: rec.location,
            },
            values,
        });
    }
    (out, errors)
}
