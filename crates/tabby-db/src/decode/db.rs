//! The server database (`ee/db.sqlite`) and its pre-migration backups, at any schema level.
//!
//! The file is opened through `sqlite-evidence`: its `-wal` is applied in memory, so
//! the newest (uncheckpointed) rows are seen and nothing on disk is touched. A database
//! larger than [`sqlite_evidence::any::PAGED_FROM_BYTES`] (main file and WAL together),
//! or over the evidence size cap, is read page by page instead
//! ([`sqlite_evidence::any::AnyDatabase`]): the same live rows from a walk of each
//! table's b-tree, the deleted records from the paged carver.
//!
//! Tabby's schema has moved under its chats (see `source-facts.md` §1.2): a backup is
//! a copy at the *previous* level, so a collection mixes levels. The reader never
//! names a column it has not seen in the table: for every table it asks which of the
//! columns it wants exist and selects only those, so a level-0035 copy (per-kind
//! attachment columns, no `code_source_id`, no pages) reads as well as a 0050 one. The
//! level itself comes from `_sqlx_migrations` and is reported, not relied on.
//!
//! Secret columns (`users.auth_token`, `users.password_encrypted`,
//! `integrations.access_token`, `registration_token.token`, ...) are never selected:
//! the wanted-column lists below name only what the rows print.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use chat_rows::{Evidence, RecordState};
use sqlite_evidence::any::{AnyDatabase as SqliteImage, Opening};
use sqlite_evidence::rusqlite::types::Value as SqlValue;

use crate::Error;
use crate::decode::attachment::Attachment;

/// Where a record was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A live row of the table.
    Live {
        /// The table.
        table: &'static str,
        /// Its rowid.
        rowid: i64,
        /// Where the `-wal` holds it, when the row was read from a WAL frame
        /// (`wal frame 12 (page 6) cell 3`, `sqlite_evidence`'s `wal_places`); `None`
        /// for a row the main file gave.
        wal: Option<String>,
    },
    /// A deleted record (its rowid is no longer in the table), found in freed space or
    /// an older page version.
    Deleted {
        /// The table the record belongs to.
        table: &'static str,
        /// Its rowid, when it survived.
        rowid: Option<i64>,
        /// Where it was found, as `sqlite-evidence` reports it.
        location: String,
    },
    /// An older version of a row that is still live (rewritten since).
    Older {
        /// The table.
        table: &'static str,
        /// The rowid, live with other content.
        rowid: i64,
        /// Where it was found.
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
            Place::Deleted {
                table,
                rowid: Some(rowid),
                location,
            } => format!("table {table} rowid {rowid} (deleted), {location}"),
            Place::Deleted {
                table,
                rowid: None,
                location,
            } => format!("table {table} (deleted), {location}"),
            Place::Older {
                table,
                rowid,
                location,
            } => format!("table {table} rowid {rowid} (older version), {location}"),
        }
    }

    /// The row's record state.
    pub fn state(&self) -> RecordState {
        match self {
            Place::Live { .. } => RecordState::Live,
            Place::Deleted { .. } => RecordState::Deleted,
            Place::Older { .. } => RecordState::Recovered,
        }
    }

    /// True for a live row.
    pub fn is_live(&self) -> bool {
        matches!(self, Place::Live { .. })
    }
}

/// One record: its place and the wanted columns that exist, by name.
#[derive(Clone, Debug, PartialEq)]
pub struct Rec {
    /// Where it was read.
    pub place: Place,
    /// Column values.
    pub values: HashMap<String, SqlValue>,
}

impl Rec {
    fn text(&self, col: &str) -> Option<String> {
        match self.values.get(col)? {
            SqlValue::Text(s) => Some(s.clone()),
            SqlValue::Blob(b) => Some(String::from_utf8_lossy(b).into_owned()),
            SqlValue::Integer(i) => Some(i.to_string()),
            SqlValue::Real(r) => Some(r.to_string()),
            SqlValue::Null => None,
        }
    }

    fn int(&self, col: &str) -> Option<i64> {
        match self.values.get(col)? {
            SqlValue::Integer(i) => Some(*i),
            SqlValue::Text(s) => s.trim().parse().ok(),
            SqlValue::Real(r) if r.fract() == 0.0 && r.abs() < 9.0e15 => Some(*r as i64),
            _ => None,
        }
    }

    fn bool(&self, col: &str) -> Option<bool> {
        self.int(col)
            .map(|i| i != 0)
            .or_else(|| match self.text(col)?.as_str() {
                "true" | "TRUE" => Some(true),
                "false" | "FALSE" => Some(false),
                _ => None,
            })
    }

    fn has(&self, col: &str) -> bool {
        self.values.contains_key(col)
    }
}

/// A problem met while reading one table or record; becomes a `parser:` row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// Where: `table thread_messages rowid 5`, `table user_events`, `wal frame 3` ...
    pub location: String,
    /// What, in a sentence that can follow `parser: `.
    pub message: String,
}

/// A user: id, email and display name only (never the token or the password hash).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct User {
    /// Row id.
    pub id: i64,
    /// Email.
    pub email: String,
    /// Display name (from level 0030).
    pub name: Option<String>,
}

impl User {
    /// `email (name)`, or `email` when there is no name.
    pub fn label(&self) -> String {
        match self.name.as_deref().filter(|n| !n.is_empty()) {
            Some(n) => format!("{} ({n})", self.email),
            None => self.email.clone(),
        }
    }
}

/// A chat thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Thread {
    /// Row id: the session id of its rows (-1 for a deleted record whose rowid was overwritten).
    pub id: i64,
    /// True for an unshared thread (`None` when the value is unreadable).
    pub is_ephemeral: Option<bool>,
    /// The owner.
    pub user_id: Option<i64>,
    /// `created_at`, as stored (UTC).
    pub created_at: Option<String>,
    /// `updated_at`, as stored (UTC): the share happened at or before it.
    pub updated_at: Option<String>,
    /// Where it was read.
    pub place: Place,
}

/// A thread message.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// Row id.
    pub id: i64,
    /// The thread.
    pub thread_id: Option<i64>,
    /// `user` or `assistant`.
    pub role: String,
    /// Markdown content (empty for a failed answer).
    pub content: String,
    /// `created_at`, as stored.
    pub created_at: Option<String>,
    /// The attachment, from `attachment` when present, else from the per-kind columns.
    pub attachment: Attachment,
    /// Where it was read.
    pub place: Place,
}

/// A `user_events` row: the event as the database logger stored it.
#[derive(Clone, Debug, PartialEq)]
pub struct UserEvent {
    /// Row id.
    pub id: i64,
    /// The user.
    pub user_id: Option<i64>,
    /// `kind` column.
    pub kind: String,
    /// `created_at`, as stored.
    pub created_at: Option<String>,
    /// `payload`: pretty JSON of the event.
    pub payload: String,
    /// Where it was read.
    pub place: Place,
}

/// A `user_completions` row: one completion's counters, never pruned.
#[derive(Clone, Debug, PartialEq)]
pub struct UserCompletion {
    /// Row id.
    pub id: i64,
    /// The user.
    pub user_id: Option<i64>,
    /// The completion.
    pub completion_id: String,
    /// Its language.
    pub language: Option<String>,
    /// Counters: views, selects, dismisses.
    pub counts: (i64, i64, i64),
    /// `created_at`, as stored.
    pub created_at: Option<String>,
    /// Where it was read.
    pub place: Place,
}

/// An AI-written page.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// Row id.
    pub id: i64,
    /// The author.
    pub author_id: Option<i64>,
    /// Title.
    pub title: Option<String>,
    /// Content.
    pub content: Option<String>,
    /// `code_source_id` (from level 0044).
    pub code_source_id: Option<String>,
    /// `created_at`, as stored.
    pub created_at: Option<String>,
    /// Where it was read.
    pub place: Place,
}

/// A page section.
#[derive(Clone, Debug, PartialEq)]
pub struct PageSection {
    /// Row id.
    pub id: i64,
    /// The page.
    pub page_id: Option<i64>,
    /// Title.
    pub title: String,
    /// Content.
    pub content: Option<String>,
    /// Position in the page.
    pub position: i64,
    /// `created_at`, as stored.
    pub created_at: Option<String>,
    /// Attachment (from level 0044).
    pub attachment: Attachment,
    /// Where it was read.
    pub place: Place,
}

/// A source-host integration (the token is never read).
#[derive(Clone, Debug, PartialEq)]
pub struct Integration {
    /// Row id.
    pub id: i64,
    /// `github`, `gitlab`, `github_self_hosted`, `gitlab_self_hosted`.
    pub kind: String,
    /// The administrator's display name for it.
    pub display_name: String,
    /// API base of a self-hosted kind.
    pub api_base: Option<String>,
    /// `created_at`, as stored.
    pub created_at: Option<String>,
    /// Where it was read.
    pub place: Place,
}

/// A repository an integration's token listed.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvidedRepository {
    /// Row id.
    pub id: i64,
    /// The integration.
    pub integration_id: Option<i64>,
    /// `owner/name`.
    pub name: String,
    /// The repository URL.
    pub git_url: String,
    /// Chosen for indexing.
    pub active: bool,
    /// `refs` (level 0050): JSON array of ref names, when the column exists and is set.
    pub refs: Option<Vec<String>>,
    /// `updated_at`, as stored: the last sync that saw it.
    pub updated_at: Option<String>,
    /// Where it was read.
    pub place: Place,
}

/// A Tabby server database, decoded at whatever schema level it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServerDb {
    /// The highest version in `_sqlx_migrations`, if the table is there.
    pub schema_level: Option<i64>,
    /// Users by id.
    pub users: BTreeMap<i64, User>,
    /// Threads: live, then recovered (deleted or older versions).
    pub threads: Vec<Thread>,
    /// Messages: live, then recovered.
    pub messages: Vec<Message>,
    /// `user_events`: live, then recovered.
    pub events: Vec<UserEvent>,
    /// `user_completions`.
    pub completions: Vec<UserCompletion>,
    /// Pages.
    pub pages: Vec<Page>,
    /// Page sections.
    pub sections: Vec<PageSection>,
    /// Integrations.
    pub integrations: Vec<Integration>,
    /// Provided repositories.
    pub repositories: Vec<ProvidedRepository>,
    /// Damage: of the files (from `sqlite-evidence`), of tables and of records.
    pub errors: Vec<RecordError>,
}

const USERS: &[&str] = &["id", "email", "name"];
const THREADS: &[&str] = &["id", "is_ephemeral", "user_id", "created_at", "updated_at"];
const MESSAGES: &[&str] = &[
    "id",
    "thread_id",
    "role",
    "content",
    "created_at",
    "attachment",
    "code_attachments",
    "client_code_attachments",
    "doc_attachments",
];
const EVENTS: &[&str] = &["id", "user_id", "kind", "created_at", "payload"];
const COMPLETIONS: &[&str] = &[
    "id",
    "user_id",
    "completion_id",
    "language",
    "views",
    "selects",
    "dismisses",
    "created_at",
];
const PAGES: &[&str] = &[
    "id",
    "author_id",
    "title",
    "content",
    "created_at",
    "code_source_id",
];
const SECTIONS: &[&str] = &[
    "id",
    "page_id",
    "title",
    "content",
    "position",
    "created_at",
    "attachment",
];
const INTEGRATIONS: &[&str] = &["id", "kind", "display_name", "api_base", "created_at"];
const REPOSITORIES: &[&str] = &[
    "id",
    "integration_id",
    "name",
    "git_url",
    "active",
    "updated_at",
    "refs",
];

/// Reads the wanted columns that exist of every live row of `table`, in rowid order.
fn read_table(
    db: &SqliteImage,
    table: &'static str,
    wanted: &[&str],
    errors: &mut Vec<RecordError>,
) -> Vec<Rec> {
    let present = db.table_columns(table);
    let cols: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|c| present.iter().any(|p| p == c))
        .collect();
    if cols.is_empty() {
        return Vec::new();
    }
    let at: Vec<(usize, &str)> = cols
        .iter()
        .filter_map(|c| Some((present.iter().position(|p| p == c)?, *c)))
        .collect();
    let mut out = Vec::new();
    // the rows read from the `-wal`
    let mut in_wal = db.wal_places(table);
    let read = db.live_rows(table, &mut |rowid, mut row| {
        let mut values = HashMap::new();
        for &(i, c) in &at {
            let v = row
                .get_mut(i)
                .map_or(SqlValue::Null, |v| std::mem::replace(v, SqlValue::Null));
            values.insert(c.to_string(), v);
        }
        out.push(Rec {
            place: Place::Live {
                table,
                rowid,
                wal: in_wal.remove(&rowid),
            },
            values,
        });
    });
    if let Err(e) = read {
        let n = out.len();
        errors.push(RecordError {
            location: format!("table {table}"),
            message: format!("table {table} not fully read after {n} rows ({e})"),
        });
    }
    out
}

fn attachment_from(rec: &Rec, errors: &mut Vec<RecordError>) -> Attachment {
    let parse = |col: &str, errors: &mut Vec<RecordError>| -> Option<serde_json::Value> {
        let raw = rec.text(col)?;
        match chat_rows::json::from_str::<serde_json::Value>(&raw) {
            Ok(v) => Some(v),
            Err(e) => {
                errors.push(RecordError {
                    location: rec.place.locator(),
                    message: format!("{col} of {} is not valid JSON ({e})", rec.place.locator()),
                });
                None
            }
        }
    };
    // Prefer the single `attachment` column whenever it holds a value: at levels
    // 0042-0044 the per-kind columns are a stale copy of the same data.
    if rec.has("attachment") && rec.text("attachment").is_some() {
        return parse("attachment", errors)
            .map(|v| Attachment::from_object(&v))
            .unwrap_or_default();
    }
    let code = parse("code_attachments", errors);
    let client = parse("client_code_attachments", errors);
    let doc = parse("doc_attachments", errors);
    Attachment::from_legacy(code.as_ref(), client.as_ref(), doc.as_ref())
}

fn rowid(rec: &Rec) -> i64 {
    match &rec.place {
        Place::Live { rowid, .. } => rec.int("id").unwrap_or(*rowid),
        Place::Deleted { rowid, .. } => rec.int("id").or(*rowid).unwrap_or(-1),
        Place::Older { rowid, .. } => rec.int("id").unwrap_or(*rowid),
    }
}

impl ServerDb {
    /// Reads a database file and its `-wal` through `evidence` (read-only).
    /// Page by page above [`sqlite_evidence::any::PAGED_FROM_BYTES`] (see
    /// [`ServerDb::from_path_with`]).
    pub fn from_path(path: &Path, evidence: &Evidence) -> Result<ServerDb, Error> {
        ServerDb::from_path_with(path, evidence, Opening::default())
    }

    /// [`ServerDb::from_path`] with the size from which the database is read page by
    /// page given ([`Opening::paged`] forces the paged mode, for tests).
    pub fn from_path_with(
        path: &Path,
        evidence: &Evidence,
        opening: Opening,
    ) -> Result<ServerDb, Error> {
        let image = SqliteImage::open(path, evidence, opening).map_err(Error::Sqlite)?;
        Ok(ServerDb::from_image(&image))
    }

    /// Reads a database from the bytes of its main file and WAL, in memory.
    pub fn from_bytes(main: &[u8], wal: Option<&[u8]>) -> Result<ServerDb, Error> {
        let image = SqliteImage::from_bytes(main, wal, false).map_err(Error::Sqlite)?;
        Ok(ServerDb::from_image(&image))
    }

    /// Decodes an opened database (in memory or page by page).
    pub fn from_image(image: &SqliteImage) -> ServerDb {
        let mut db = ServerDb {
            schema_level: image.sqlx_migrations().last().copied(),
            ..ServerDb::default()
        };
        let errors = &mut db.errors;
        for p in image.problems() {
            errors.push(RecordError {
                location: p.location.clone(),
                message: p.message.clone(),
            });
        }
        for r in read_table(image, "users", USERS, errors) {
            let id = rowid(&r);
            db.users.insert(
                id,
                User {
                    id,
                    email: r.text("email").unwrap_or_default(),
                    name: r.text("name"),
                },
            );
        }
        let mut threads = read_table(image, "threads", THREADS, errors);
        threads.extend(recovered(image, "threads", THREADS, &threads));
        db.threads = threads
            .into_iter()
            .map(|r| Thread {
                id: rowid(&r),
                is_ephemeral: r.bool("is_ephemeral"),
                user_id: r.int("user_id"),
                created_at: r.text("created_at"),
                updated_at: r.text("updated_at"),
                place: r.place,
            })
            .collect();
        let mut messages = read_table(image, "thread_messages", MESSAGES, errors);
        let old = recovered(image, "thread_messages", MESSAGES, &messages);
        // An assistant answer grows by `content || delta` while it streams: an older
        // version whose content the live row continues is that growth, not evidence.
        let live_content: HashMap<i64, String> = messages
            .iter()
            .map(|r| (rowid(r), r.text("content").unwrap_or_default()))
            .collect();
        messages.extend(old.into_iter().filter(|r| match &r.place {
            Place::Older { rowid, .. } => {
                let old = r.text("content").unwrap_or_default();
                !live_content
                    .get(rowid)
                    .is_some_and(|live| live.starts_with(&old))
            }
            _ => true,
        }));
        db.messages = messages
            .into_iter()
            .map(|r| {
                let attachment = attachment_from(&r, errors);
                Message {
                    id: rowid(&r),
                    thread_id: r.int("thread_id"),
                    role: r.text("role").unwrap_or_default(),
                    content: r.text("content").unwrap_or_default(),
                    created_at: r.text("created_at"),
                    attachment,
                    place: r.place,
                }
            })
            .collect();
        let mut events = read_table(image, "user_events", EVENTS, errors);
        events.extend(recovered(image, "user_events", EVENTS, &events));
        db.events = events
            .into_iter()
            .map(|r| UserEvent {
                id: rowid(&r),
                user_id: r.int("user_id"),
                kind: r.text("kind").unwrap_or_default(),
                created_at: r.text("created_at"),
                payload: r.text("payload").unwrap_or_default(),
                place: r.place,
            })
            .collect();
        db.completions = read_table(image, "user_completions", COMPLETIONS, errors)
            .into_iter()
            .map(|r| UserCompletion {
                id: rowid(&r),
                user_id: r.int("user_id"),
                completion_id: r.text("completion_id").unwrap_or_default(),
                language: r.text("language"),
                counts: (
                    r.int("views").unwrap_or(0),
                    r.int("selects").unwrap_or(0),
                    r.int("dismisses").unwrap_or(0),
                ),
                created_at: r.text("created_at"),
                place: r.place,
            })
            .collect();
        db.pages = read_table(image, "pages", PAGES, errors)
            .into_iter()
            .map(|r| Page {
                id: rowid(&r),
                author_id: r.int("author_id"),
                title: r.text("title"),
                content: r.text("content"),
                code_source_id: r.text("code_source_id"),
                created_at: r.text("created_at"),
                place: r.place,
            })
            .collect();
        db.sections = read_table(image, "page_sections", SECTIONS, errors)
            .into_iter()
            .map(|r| {
                let attachment = attachment_from(&r, errors);
                PageSection {
                    id: rowid(&r),
                    page_id: r.int("page_id"),
                    title: r.text("title").unwrap_or_default(),
                    content: r.text("content"),
                    position: r.int("position").unwrap_or(0),
                    created_at: r.text("created_at"),
                    attachment,
                    place: r.place,
                }
            })
            .collect();
        db.integrations = read_table(image, "integrations", INTEGRATIONS, errors)
            .into_iter()
            .map(|r| Integration {
                id: rowid(&r),
                kind: r.text("kind").unwrap_or_default(),
                display_name: r.text("display_name").unwrap_or_default(),
                api_base: r.text("api_base"),
                created_at: r.text("created_at"),
                place: r.place,
            })
            .collect();
        db.repositories = read_table(image, "provided_repositories", REPOSITORIES, errors)
            .into_iter()
            .map(|r| {
                let refs = r.text("refs").and_then(|s| {
                    serde_json::from_str::<Vec<String>>(&s)
                        .ok()
                        .or_else(|| Some(vec![s]))
                });
                ProvidedRepository {
                    id: rowid(&r),
                    integration_id: r.int("integration_id"),
                    name: r.text("name").unwrap_or_default(),
                    git_url: r.text("git_url").unwrap_or_default(),
                    active: r.bool("active").unwrap_or(false),
                    refs,
                    updated_at: r.text("updated_at"),
                    place: r.place,
                }
            })
            .collect();
        db
    }
}

/// The records of `table` that `sqlite-evidence` recovers (older page versions in the
/// WAL and the main file, freelist pages, freeblocks), with the wanted columns only:
/// [`Place::Deleted`] when the rowid is gone, [`Place::Older`] when it is still live.
fn recovered(image: &SqliteImage, table: &'static str, wanted: &[&str], live: &[Rec]) -> Vec<Rec> {
    let columns = image.table_columns(table);
    let live_ids: std::collections::HashSet<i64> = live.iter().map(rowid).collect();
    let mut records = Vec::new();
    image.deleted_records(table, &mut |r| records.push(r));
    records
        .into_iter()
        .map(|r| {
            let values: HashMap<String, SqlValue> = columns
                .iter()
                .zip(r.values)
                .filter(|(c, _)| wanted.contains(&c.as_str()))
                .map(|(c, v)| (c.clone(), v))
                .collect();
            let place = match r.rowid {
                Some(id) if live_ids.contains(&id) => Place::Older {
                    table,
                    rowid: id,
                    location: r.location,
                },
                rowid => Place::Deleted {
                    table,
                    rowid,
                    location: r.location,
                },
            };
            Rec { place, values }
        })
        .filter(|r| plausible(table, r))
        .collect()
}

/// Whether a recovered candidate is a record Tabby wrote. Carving free space also finds
/// byte runs that merely fit the table's column types; a record is kept only when its
/// values are ones Tabby writes (a role, an event kind whose payload decodes, a time).
fn plausible(table: &str, r: &Rec) -> bool {
    let time = |c: &str| {
        r.text(c)
            .is_some_and(|t| chat_rows::when::parse_sqlite(&t).is_some())
    };
    match table {
        "threads" => {
            r.int("user_id").is_some() && r.bool("is_ephemeral").is_some() && time("created_at")
        }
        "thread_messages" => {
            matches!(r.text("role").as_deref(), Some("user" | "assistant"))
                && r.int("thread_id").is_some()
                && time("created_at")
        }
        "user_events" => {
            let kind = r.text("kind").unwrap_or_default();
            matches!(
                kind.as_str(),
                "completion" | "chat_completion" | "select" | "view" | "dismiss"
            ) && r.int("user_id").is_some()
                && time("created_at")
                && r.text("payload").is_some_and(|p| {
                    chat_rows::json::from_str::<serde_json::Value>(&p)
                        .ok()
                        .and_then(|v| crate::decode::event::Event::from_value(&v).ok())
                        .is_some_and(|e| e.kind() == kind)
                })
        }
        _ => true,
    }
}
