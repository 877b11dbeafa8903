//! VS Code's `state.vscdb`: the ItemTable, and the VS Code rows it holds.
//!
//! # Why
//!
//! VS Code and every fork keep their window and extension state in one SQLite table,
//! `ItemTable(key TEXT UNIQUE, value BLOB)`, in `User/globalStorage/state.vscdb` (and a
//! profile's, and the Agents window's) and in each `User/workspaceStorage/<hash>/state.vscdb`.
//! It is where the user's standing "always allow" grants live, which GitHub account
//! each extension used, the cloud agent tasks started from the editor, the index of
//! chat sessions, the chats of builds older than the file store, and the whole state of
//! extensions such as Cody or Tabby, which is why their crates read it through this one.
//!
//! The database is live: the editor holds it open in WAL mode, so it is read through
//! [`sqlite_evidence`], which applies the WAL in memory and never touches the files.
//! A database larger than [`sqlite_evidence::any::PAGED_FROM_BYTES`] (main file and WAL
//! together; Cursor's global database reaches tens of gigabytes), or over the evidence
//! size cap, is read page by page ([`sqlite_evidence::paged::PagedDatabase`]) instead:
//! the same items from a walk of the table's b-tree and the paged carver, in bounded
//! memory ([`StateDb::open_with`] and [`sqlite_evidence::any::Opening`] set the size).
//!
//! # Layers
//!
//! * [`StateDb`] (this module): the ItemTable API, keys and values as text, JSON values
//!   with the spec's `parser:` error, `secret://` keys never returned, and the deleted
//!   or older versions of items that the WAL and free pages still hold;
//! * [`decode`]: value text from TEXT or BLOB, UTF-8 or UTF-16;
//! * [`locate`]: which paths are state databases, and a workspace's `workspace.json`;
//! * [`rows`]: the VS Code rows of the specification's parser plan.
//!
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod decode;
pub mod locate;
pub mod rows;

use std::collections::HashMap;
use std::path::Path;

use chat_rows::{Evidence, RecordState, Row, system};
use sqlite_evidence::any::AnyDatabase;
pub use sqlite_evidence::any::{Opening, PAGED_FROM_BYTES};
use sqlite_evidence::paged::PagedDatabase;
use sqlite_evidence::rusqlite::types::{Value, ValueRef};
use sqlite_evidence::{Database, Problem};

fn value_string(v: Value) -> String {
    let r: ValueRef<'_> = (&v).into();
    decode::value_text(r)
}

fn value_string_and_raw(v: Value) -> (String, Option<Vec<u8>>) {
    decode::value_text_and_raw((&v).into())
}

/// Why a state database, or one of its values, could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database could not be opened at all.
    #[error("{0}")]
    Open(#[from] sqlite_evidence::Error),
    /// The database has no `ItemTable`.
    #[error("no ItemTable table in the database")]
    NoItemTable,
    /// A value is not valid JSON.
    #[error("ItemTable value for {key} is not valid JSON ({reason})")]
    NotJson {
        /// The item's key.
        key: String,
        /// serde_json's reason, with line and column.
        reason: String,
    },
}

/// True for keys whose values are secrets and are never returned: extension secrets
/// (`secret://...`) and the plaintext tokens some forks keep (`cursorAuth/...`,
/// `windsurfAuthStatus`).
pub fn is_secret_key(key: &str) -> bool {
    key.starts_with("secret://") || key.starts_with("cursorAuth/") || key == "windsurfAuthStatus"
}

/// One ItemTable item, live or recovered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The key.
    pub key: String,
    /// The value as text (see [`decode`]).
    pub value: String,
    /// The value's bytes as stored, for a BLOB whose text does not give them back (not
    /// UTF-8, or read as UTF-16: a protobuf or other binary value,
    /// [`decode::value_text_and_raw`]); `None` when [`Item::value`]'s bytes are the
    /// stored ones. See [`Item::bytes`].
    pub raw: Option<Vec<u8>>,
    /// The rowid, when known.
    pub rowid: Option<i64>,
    /// [`RecordState::Live`] for the table's current rows; [`RecordState::Deleted`] for
    /// a deleted item or an older version of a rewritten one.
    pub state: RecordState,
    /// Where it was found: `ItemTable rowid 5` for a live item, `wal frame 12`,
    /// `freelist page 7`, `freeblock at page 3 offset 1200` ... for a deleted one.
    pub location: String,
    /// For a live item read from the `-wal`, where the WAL holds it: `wal frame 12
    /// (page 6) cell 3` (`sqlite_evidence`'s `wal_places`; a [`KvTable`] item only when
    /// the table was given its places, [`KvTable::with_wal_places`]); `None` for one the
    /// main file gave, and for a deleted one (its `location` says where).
    pub wal: Option<String>,
}

impl Item {
    /// The value's bytes as stored: [`Item::raw`] for a binary BLOB, else the bytes of
    /// [`Item::value`].
    pub fn bytes(&self) -> &[u8] {
        self.raw.as_deref().unwrap_or(self.value.as_bytes())
    }

    /// The `source_locator` of rows built from this item: `ItemTable key=<key>`, with the
    /// place it was found appended for a deleted item, and the WAL's place for a live
    /// one read from the `-wal` ([`Item::wal`]).
    pub fn locator(&self) -> String {
        match (self.state, &self.wal) {
            (RecordState::Live, Some(w)) => format!("ItemTable key={}, {w}", self.key),
            (RecordState::Live, None) => format!("ItemTable key={}", self.key),
            _ => format!("ItemTable key={}, {}", self.key, self.location),
        }
    }

    /// The `source_locator` of rows built from this item of another key-value table
    /// ([`KvTable`]): `cursorDiskKV key=<key>`, with the place it was found appended for
    /// a deleted item.
    pub fn locator_in(&self, table: &str) -> String {
        match (self.state, &self.wal) {
            (RecordState::Live, Some(w)) => format!("{table} key={}, {w}", self.key),
            (RecordState::Live, None) => format!("{table} key={}", self.key),
            _ => format!("{table} key={}, {}", self.key, self.location),
        }
    }

    /// The value decoded as JSON (lone surrogates tolerated), or the spec's error. A
    /// value nested deeper than serde_json reads (128 levels) is an error here; see
    /// [`Item::json_capped`] to read all but its deepest parts.
    pub fn json(&self) -> Result<serde_json::Value, Error> {
        chat_rows::json::from_str(&self.value).map_err(|e| self.not_json(&e))
    }

    /// [`Item::json`] that also reads a value nested deeper than serde_json's limit
    /// (`JSON.parse`, VS Code's reader, has none): what begins deeper than
    /// [`chat_rows::json::CAPPED_DEPTH`] levels is read as `null`, and the cut says where
    /// (offsets in [`Item::value`]), to be reported with [`too_deep_row`]
    /// ([`chat_rows::json::from_str_capped`]). A value that is not valid JSON gives the
    /// same error as [`Item::json`].
    pub fn json_capped(
        &self,
    ) -> Result<(serde_json::Value, Option<chat_rows::json::DepthCut>), Error> {
        chat_rows::json::from_str_capped(&self.value).map_err(|e| self.not_json(&e))
    }

    fn not_json(&self, e: &serde_json::Error) -> Error {
        Error::NotJson {
            key: self.key.clone(),
            reason: chat_rows::json::reason(e),
        }
    }
}

/// A `state.vscdb` read from evidence: its live items and what was wrong with it.
#[derive(Debug)]
pub struct StateDb {
    db: AnyDatabase,
    items: Vec<Item>,
    by_key: HashMap<String, usize>,
    problems: Vec<Problem>,
}

impl StateDb {
    /// Reads `path` (and its `-wal`) through `evidence` and loads the live items; page
    /// by page above [`sqlite_evidence::any::PAGED_FROM_BYTES`] (see
    /// [`StateDb::open_with`]).
    pub fn open(path: &Path, evidence: &Evidence) -> Result<StateDb, Error> {
        StateDb::open_with(path, evidence, Opening::default())
    }

    /// [`StateDb::open`] with the size from which the database is read page by page
    /// given ([`Opening::paged`] forces the paged mode, for tests).
    pub fn open_with(path: &Path, evidence: &Evidence, opening: Opening) -> Result<StateDb, Error> {
        StateDb::from_any(AnyDatabase::open(path, evidence, opening)?)
    }

    /// Opens a state database from the bytes of its main file and WAL.
    pub fn from_bytes(main: &[u8], wal: Option<&[u8]>) -> Result<StateDb, Error> {
        StateDb::from_database(Database::from_bytes(main, wal)?)
    }

    /// Loads the live items of an opened database.
    pub fn from_database(db: Database) -> Result<StateDb, Error> {
        StateDb::from_any(AnyDatabase::Memory(db))
    }

    /// Loads the live items of a database opened in memory or page by page: the same
    /// items, in rowid order, either way.
    pub fn from_any(db: AnyDatabase) -> Result<StateDb, Error> {
        if !db.has_table("ItemTable") {
            return Err(Error::NoItemTable);
        }
        let mut problems = db.problems().to_vec();
        let mut items = Vec::new();
        let cols = db.table_columns("ItemTable");
        let at = |name: &str| cols.iter().position(|c| c == name);
        let (k, v) = (
            at("key").unwrap_or(usize::MAX),
            at("value").unwrap_or(usize::MAX),
        );
        let read = if k == usize::MAX || v == usize::MAX {
            Err(sqlite_evidence::rusqlite::Error::InvalidColumnName(
                "ItemTable has no key or no value column".into(),
            ))
        } else {
            // the items read from the `-wal`
            let mut in_wal = db.wal_places("ItemTable");
            db.live_rows("ItemTable", &mut |rowid, mut values| {
                let value = values
                    .get_mut(v)
                    .map(|x| std::mem::replace(x, Value::Null))
                    .unwrap_or(Value::Null);
                let Some(key) = values
                    .get_mut(k)
                    .map(|x| std::mem::replace(x, Value::Null))
                    .map(value_string)
                else {
                    return;
                };
                if is_secret_key(&key) {
                    return;
                }
                let (value, raw) = value_string_and_raw(value);
                items.push(Item {
                    key,
                    value,
                    raw,
                    rowid: Some(rowid),
                    state: RecordState::Live,
                    location: format!("ItemTable rowid {rowid}"),
                    wal: in_wal.remove(&rowid),
                });
            })
        };
        if let Err(e) = read {
            problems.push(Problem::new(
                sqlite_evidence::ProblemKind::Schema,
                format!("ItemTable after {} items", items.len()),
                format!("ItemTable unreadable: {e}"),
            ));
        }
        let by_key = items
            .iter()
            .enumerate()
            .map(|(i, it)| (it.key.clone(), i))
            .collect();
        Ok(StateDb {
            db,
            items,
            by_key,
            problems,
        })
    }

    /// The live items, in rowid order, without secrets.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The live item of a key (never a secret).
    pub fn item(&self, key: &str) -> Option<&Item> {
        self.by_key.get(key).map(|&i| &self.items[i])
    }

    /// The live value of a key, as text.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.item(key).map(|i| i.value.as_str())
    }

    /// The live value of a key decoded as JSON; `None` when the key is absent.
    pub fn json(&self, key: &str) -> Option<Result<serde_json::Value, Error>> {
        self.item(key).map(Item::json)
    }

    /// The deleted items and older versions of rewritten items that the files still
    /// hold (see [`sqlite_evidence::recover`]), secrets left out, each with
    /// [`RecordState::Deleted`] and where it was found. Computed on each call. Items
    /// whose value was cut are left out (see [`StateDb::deleted_and_cut`]).
    pub fn deleted(&self) -> Vec<Item> {
        self.deleted_and_cut().0
    }

    /// [`StateDb::deleted`], and the deleted items whose value did not survive whole (a
    /// value larger than a page whose freed overflow pages later values took, or whose
    /// bytes a later cell overwrote): each with an empty `value` (not known, never
    /// guessed) and the value's full size as the record declared it, when it did.
    pub fn deleted_and_cut(&self) -> (Vec<Item>, Vec<(Item, Option<u64>)>) {
        deleted_split(&mut |each| {
            self.db.deleted_records("ItemTable", each);
        })
    }

    /// Damage found in the database, each to become a
    /// `parser: state.vscdb unreadable: <message>` row ([`StateDb::problem_rows`]).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The underlying in-memory database, for other tables or raw queries; `None` when
    /// the database is read page by page ([`StateDb::paged`]).
    pub fn database(&self) -> Option<&Database> {
        self.db.memory()
    }

    /// The underlying paged database, when the database is read page by page.
    pub fn paged(&self) -> Option<&PagedDatabase> {
        self.db.paged()
    }

    /// The underlying database, in whichever mode it was opened.
    pub fn any(&self) -> &AnyDatabase {
        &self.db
    }

    /// Another key-value table of the database (`cursorDiskKV`), in either mode.
    pub fn kv_table<'a>(&'a self, table: &'a str) -> Option<KvTable<'a>> {
        match &self.db {
            AnyDatabase::Memory(db) => KvTable::new(db, table),
            AnyDatabase::Paged(db) => KvTable::paged(db, table),
        }
    }

    /// One `parser: state.vscdb unreadable: <message>` row per problem, located.
    pub fn problem_rows(&self, agent: &str, source_file: &str) -> Vec<Row> {
        sqlite_evidence::rows::problem_rows(
            &self.problems,
            agent,
            source_file,
            "state.vscdb unreadable: ",
        )
    }
}

/// Any two-column key-value table of a state database: `ItemTable`, or a fork's own
/// table such as Cursor's `cursorDiskKV(key TEXT UNIQUE, value BLOB)`.
///
/// [`StateDb`] loads the whole `ItemTable` (a few hundred small items); a fork's table
/// can hold millions of large values (Cursor's grows to tens of gigabytes), so this view
/// loads nothing up front: it looks keys up one at a time and walks key ranges through
/// the key's index, handing each item to the caller as it is read. Items have the same
/// text decoding and secret filter ([`is_secret_key`]) as `ItemTable`'s; their location
/// is `<table> rowid <n>` ([`Item::locator_in`] gives the row locator).
///
/// On a database read page by page ([`KvTable::paged`]) there is no index: a lookup and
/// a key range are each one walk of the table's b-tree (the range's items held, then
/// handed on in key order), so a caller that needs many of them reads the table in
/// batches instead (as `cursor-state` does); [`KvTable::for_each`] is one walk in
/// either mode.
#[derive(Clone, Copy, Debug)]
pub struct KvTable<'a> {
    db: KvSource<'a>,
    table: &'a str,
    /// The positions of the `key` and `value` columns.
    cols: (usize, usize),
    /// Where the `-wal` holds its live rows, by rowid ([`KvTable::with_wal_places`]).
    wal: Option<&'a HashMap<i64, String>>,
}

#[derive(Clone, Copy, Debug)]
enum KvSource<'a> {
    Memory(&'a Database),
    Paged(&'a PagedDatabase),
}

fn kv_query_error(source: sqlite_evidence::rusqlite::Error) -> Error {
    Error::Open(sqlite_evidence::Error::Sqlite {
        context: "key-value table query",
        source,
    })
}

fn kv_cols(cols: &[String]) -> Option<(usize, usize)> {
    Some((
        cols.iter().position(|c| c == "key")?,
        cols.iter().position(|c| c == "value")?,
    ))
}

impl<'a> KvTable<'a> {
    /// The table of that name, when the database has it and it has `key` and `value`
    /// columns.
    pub fn new(db: &'a Database, table: &'a str) -> Option<KvTable<'a>> {
        let cols = kv_cols(&db.table_columns(table))?;
        Some(KvTable {
            db: KvSource::Memory(db),
            table,
            cols,
            wal: None,
        })
    }

    /// The table of that name in a database read page by page, when it has `key` and
    /// `value` columns.
    pub fn paged(db: &'a PagedDatabase, table: &'a str) -> Option<KvTable<'a>> {
        let cols = kv_cols(&db.table_columns(table))?;
        Some(KvTable {
            db: KvSource::Paged(db),
            table,
            cols,
            wal: None,
        })
    }

    /// The same view, its live items saying where the `-wal` holds them ([`Item::wal`]):
    /// `places` is the database's `wal_places` of this table, computed once by the
    /// caller (a lookup does not walk the WAL again).
    pub fn with_wal_places(self, places: &'a HashMap<i64, String>) -> KvTable<'a> {
        KvTable {
            wal: Some(places),
            ..self
        }
    }

    /// The table's name.
    pub fn table(&self) -> &'a str {
        self.table
    }

    fn item(&self, rowid: i64, key: String, value: ValueRef<'_>) -> Item {
        let (text, raw) = decode::value_text_and_raw(value);
        Item {
            key,
            value: text,
            raw,
            rowid: Some(rowid),
            state: RecordState::Live,
            location: format!("{} rowid {rowid}", self.table),
            wal: self.wal.and_then(|m| m.get(&rowid).cloned()),
        }
    }

    /// A live record of the paged walk as (key, item); `None` for a secret.
    fn paged_item(&self, rowid: i64, values: &[Value]) -> Option<(String, Item)> {
        let key = values
            .get(self.cols.0)
            .map(|v| decode::value_text(v.into()))?;
        if is_secret_key(&key) {
            return None;
        }
        let value = values.get(self.cols.1).unwrap_or(&Value::Null);
        Some((key.clone(), self.item(rowid, key, value.into())))
    }

    /// The live item of a key (never a secret).
    pub fn get(&self, key: &str) -> Result<Option<Item>, Error> {
        if is_secret_key(key) {
            return Ok(None);
        }
        let db = match self.db {
            KvSource::Memory(db) => db,
            KvSource::Paged(db) => {
                let mut found = None;
                db.live_records(self.table, &mut |rowid, values| {
                    if found.is_none() {
                        if let Some((k, item)) = self.paged_item(rowid, &values) {
                            if k == key {
                                found = Some(item);
                            }
                        }
                    }
                });
                return Ok(found);
            }
        };
        let sql = format!(
            "SELECT rowid, value FROM \"{}\" WHERE key = ?1",
            self.table.replace('"', "\"\"")
        );
        let mut stmt = db.connection().prepare(&sql).map_err(kv_query_error)?;
        let mut rows = stmt.query([key]).map_err(kv_query_error)?;
        match rows.next().map_err(kv_query_error)? {
            Some(r) => {
                let rowid: i64 = r.get(0).map_err(kv_query_error)?;
                let v = r.get_ref(1).map_err(kv_query_error)?;
                Ok(Some(self.item(rowid, key.to_string(), v)))
            }
            None => Ok(None),
        }
    }

    /// Hands every live item whose key starts with `prefix` to `each`, in key order,
    /// one at a time (secrets skipped); returns how many were handed. An empty prefix
    /// walks the whole table.
    pub fn for_each_prefix(
        &self,
        prefix: &str,
        mut each: impl FnMut(Item),
    ) -> Result<usize, Error> {
        let db = match self.db {
            KvSource::Memory(db) => db,
            KvSource::Paged(db) => {
                // no index: one walk, the range's items held and handed on in key
                // order (keys compared as SQLite's BINARY collation compares text)
                let mut range: Vec<(String, i64, Item)> = Vec::new();
                db.live_records(self.table, &mut |rowid, values| {
                    if let Some((k, item)) = self.paged_item(rowid, &values) {
                        if k.starts_with(prefix) {
                            range.push((k, rowid, item));
                        }
                    }
                });
                range.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
                let n = range.len();
                range.into_iter().for_each(|(_, _, item)| each(item));
                return Ok(n);
            }
        };
        let sql = format!(
            "SELECT rowid, key, value FROM \"{}\" WHERE key >= ?1 ORDER BY key",
            self.table.replace('"', "\"\"")
        );
        let mut stmt = db.connection().prepare(&sql).map_err(kv_query_error)?;
        let mut rows = stmt.query([prefix]).map_err(kv_query_error)?;
        let mut n = 0;
        while let Some(r) = rows.next().map_err(kv_query_error)? {
            let key = decode::value_text(r.get_ref(1).map_err(kv_query_error)?);
            if !key.starts_with(prefix) {
                break;
            }
            if is_secret_key(&key) {
                continue;
            }
            let rowid: i64 = r.get(0).map_err(kv_query_error)?;
            let v = r.get_ref(2).map_err(kv_query_error)?;
            each(self.item(rowid, key, v));
            n += 1;
        }
        Ok(n)
    }

    /// Hands every live item to `each` in rowid order, one at a time (secrets skipped):
    /// one walk of the table in either mode, nothing held; returns how many.
    pub fn for_each(&self, mut each: impl FnMut(Item)) -> Result<usize, Error> {
        let mut n = 0;
        match self.db {
            KvSource::Memory(db) => {
                let sql = format!(
                    "SELECT rowid, key, value FROM \"{}\" ORDER BY rowid",
                    self.table.replace('"', "\"\"")
                );
                let mut stmt = db.connection().prepare(&sql).map_err(kv_query_error)?;
                let mut rows = stmt.query([]).map_err(kv_query_error)?;
                while let Some(r) = rows.next().map_err(kv_query_error)? {
                    let key = decode::value_text(r.get_ref(1).map_err(kv_query_error)?);
                    if is_secret_key(&key) {
                        continue;
                    }
                    let rowid: i64 = r.get(0).map_err(kv_query_error)?;
                    let v = r.get_ref(2).map_err(kv_query_error)?;
                    each(self.item(rowid, key, v));
                    n += 1;
                }
            }
            KvSource::Paged(db) => {
                db.live_records(self.table, &mut |rowid, values| {
                    if let Some((_, item)) = self.paged_item(rowid, &values) {
                        each(item);
                        n += 1;
                    }
                });
            }
        }
        Ok(n)
    }

    /// The deleted items and older versions of rewritten items of this table that the
    /// files still hold, secrets left out (see [`StateDb::deleted`]).
    pub fn deleted(&self) -> Vec<Item> {
        match self.db {
            KvSource::Memory(db) => {
                deleted_split(&mut |each| db.deleted_records(self.table).into_iter().for_each(each))
                    .0
            }
            KvSource::Paged(db) => {
                deleted_split(&mut |each| {
                    db.deleted_records(self.table, each);
                })
                .0
            }
        }
    }
}

/// The deleted items of a key-value table (key and value its first two columns): the
/// whole ones, and those whose value column is missing (a partial record), each with
/// the value's declared size. No empty keys, no secrets. `records` hands each
/// recovered record of the table on (in memory or page by page).
#[allow(clippy::type_complexity)]
fn deleted_split(
    records: &mut dyn FnMut(&mut dyn FnMut(sqlite_evidence::RecoveredRecord)),
) -> (Vec<Item>, Vec<(Item, Option<u64>)>) {
    let mut whole = Vec::new();
    let mut cut = Vec::new();
    records(&mut |r| {
        if r.missing.contains(&0) {
            return;
        }
        let value_cut = r.missing.contains(&1);
        let declared = r.declared_len.filter(|d| d.0 == 1).map(|d| d.1);
        let mut values = r.values.into_iter();
        let Some(key) = values.next().map(value_string) else {
            return;
        };
        if key.is_empty() || is_secret_key(&key) {
            return;
        }
        let (value, raw) = if value_cut {
            (String::new(), None)
        } else {
            value_string_and_raw(values.next().unwrap_or(Value::Null))
        };
        let item = Item {
            key,
            value,
            raw,
            rowid: r.rowid,
            state: RecordState::Deleted,
            location: r.location,
            wal: None,
        };
        if value_cut {
            cut.push((item, declared));
        } else {
            whole.push(item);
        }
    });
    (whole, cut)
}

/// The `parser: state.vscdb unreadable: <message>` row for a database that could not
/// be opened at all.
pub fn unreadable_row(agent: &str, source_file: &str, error: &Error) -> Row {
    Row::system(
        agent,
        system::parser(format!("state.vscdb unreadable: {error}")),
    )
    .file(source_file)
}

/// The `parser: ItemTable value for <key> is not valid JSON (<reason>)` row of an item.
pub fn not_json_row(agent: &str, source_file: &str, item: &Item, error: &Error) -> Row {
    Row::system(agent, system::parser(error))
        .file(source_file)
        .locator(item.locator())
        .state(item.state)
}

/// The `parser: ItemTable value for <key> is nested deeper than 120 levels at byte N:
/// that part not read (VS Code would load it)` row of an item [`Item::json_capped`]
/// read with parts replaced by `null` (`at byte N and K more places` for several; N is
/// the offset in the value's text of the first one's opening bracket).
pub fn too_deep_row(
    agent: &str,
    source_file: &str,
    item: &Item,
    cut: chat_rows::json::DepthCut,
) -> Row {
    Row::system(
        agent,
        system::parser(too_deep_reason("ItemTable", &item.key, cut, "VS Code")),
    )
    .file(source_file)
    .locator(item.locator())
    .state(item.state)
}

/// The reason of [`too_deep_row`] for an item of `table` (`ItemTable`, or a key-value
/// table such as Cursor's `cursorDiskKV`, whose values are read the same way) that `app`
/// reads: `<table> value for <key> is nested deeper than 120 levels at byte N: that part
/// not read (<app> would load it)`.
pub fn too_deep_reason(
    table: &str,
    key: &str,
    cut: chat_rows::json::DepthCut,
    app: &str,
) -> String {
    let more = match cut.count {
        0 | 1 => String::new(),
        2 => " and 1 more place".to_string(),
        n => format!(" and {} more places", n - 1),
    };
    format!(
        "{table} value for {key} is nested deeper than {} levels at byte {}{more}: that part not read ({app} would load it)",
        chat_rows::json::CAPPED_DEPTH,
        cut.first
    )
}

/// The [`chat_rows::Store`] of VS Code state databases: claims every `state.vscdb` of a
/// VS Code (or fork) user data directory ([`locate::scope`]) and yields [`rows::rows`].
#[derive(Debug, Default)]
pub struct StateVscdbStore;

impl chat_rows::Store for StateVscdbStore {
    fn agent(&self, ctx: &chat_rows::FileContext) -> String {
        ctx.product
            .clone()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "vscode".into())
    }

    fn name(&self) -> &'static str {
        "state-vscdb"
    }

    fn claim(&self, path: &Path) -> Option<chat_rows::Claim> {
        locate::scope(path).map(|_| chat_rows::Claim::new("state database").with_copies())
    }

    fn read_into(
        &self,
        path: &Path,
        ctx: &chat_rows::FileContext,
        evidence: &Evidence,
        sink: &mut dyn chat_rows::RowSink,
    ) {
        for row in self.read_rows(path, ctx, evidence) {
            sink.push(row);
        }
    }
}

impl StateVscdbStore {
    /// Every row of a claimed file (the collected form of the store's `read_into`).
    pub(crate) fn read_rows(
        &self,
        path: &Path,
        ctx: &chat_rows::FileContext,
        evidence: &Evidence,
    ) -> Vec<Row> {
        self.read_with(path, ctx, evidence, Opening::default())
    }

    /// The rows of a claimed file, with the size from which the database is read page
    /// by page given ([`Opening::paged`] forces the paged mode, for tests and benches).
    pub fn read_with(
        &self,
        path: &Path,
        ctx: &chat_rows::FileContext,
        evidence: &Evidence,
        opening: Opening,
    ) -> Vec<Row> {
        let agent = ctx.product.clone().unwrap_or_else(|| "vscode".to_string());
        let source_file = ctx.source_file(path, evidence);
        // a workspace database's project is its `workspace.json` folder, never the
        // `.code-workspace` file that `workspace` names (named in session start rows)
        let ws = match locate::scope(path) {
            Some(locate::Scope::Workspace(_)) => evidence
                .read_optional(&locate::workspace_json(path))
                .ok()
                .flatten()
                .and_then(|b| vscode_chat_log::rows::files::workspace(&b).ok())
                .unwrap_or_default(),
            _ => vscode_chat_log::rows::files::Workspace::default(),
        };
        let rctx = rows::Context {
            agent,
            source_file,
            user_path: locate::user_relative(path),
            project_path: ws.folder,
            workspace: ws.workspace,
            mtime: evidence.modified(path),
        };
        match StateDb::open_with(path, evidence, opening) {
            Ok(db) => rows::rows(&db, &rctx),
            Err(e) => {
                vec![unreadable_row(&rctx.agent, &rctx.source_file, &e).project(&rctx.project_path)]
            }
        }
    }
}
