//! The CLI home's smaller files: the per-session `session.db`, the desktop app's
//! `data.db`, and, read with a session's event log, its live-session lock
//! `inuse.<pid>.lock` and rewind backups with no index beside them.
//!
//! Why a generic reader: `session.db` is known only from a public blog post (tables
//! `todos`, `todo_deps`, `inbox_entries`, 2026-05, peer) and a VS Code worker that reads
//! its `todos` table (microsoft/vscode PR 310913, peer); `data.db` only from third-party
//! notes (a `workflows` table, a sessions registry; peer). Neither schema is verified,
//! so the known tables get their own rows (`session todo:`, `session todo dependency:`,
//! `session inbox:`) and every other table gives each live row as one labelled
//! `store record:` row of its columns, and each record `sqlite-evidence` recovers as
//! `deleted`. A column whose name names a secret (token, secret, key, password, auth,
//! oauth, cookie, credential, env, headers), a table whose name does, keys of JSON
//! values that do, a key-value row whose key does, and values that look like GitHub or
//! API tokens are left out: these stores belong to an app that signs in.
//!
//! The lock and the backups are never opened: their name, size and time are the
//! evidence (a backup is a pre-edit copy of a user's file). They are listed from the
//! session folder when its `events.jsonl` is read ([`session_folder_rows`]), and a
//! backup beside an index by the index. A folder whose log is gone (a deleted session)
//! still holds them: there the scanner claims each as a marker (read even when empty,
//! as a lock file is) and [`companion_row`] gives its row.

use std::path::Path;

use chat_rows::system::{self, key_values};
use chat_rows::{Evidence, Row, Timestamp};
use serde_json::Value;
use sqlite_evidence::Database;
use sqlite_evidence::rusqlite::types::Value as SqlValue;

use crate::db::{Place, Rec, read_table};
use crate::locate::{FileKind, Location};

/// The most characters of one value a `store record:` row prints.
pub const MAX_VALUE: usize = 400;

/// Reads a `session.db` or `data.db` into rows.
pub fn read_file(
    path: &Path,
    loc: &Location,
    agent: &str,
    evidence: &Evidence,
    sink: &mut dyn FnMut(Row),
) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match loc.kind {
        FileKind::SessionDb | FileKind::AppDb => {
            let Some(db) = crate::stores::open(path, evidence, agent, &name, sink) else {
                return;
            };
            let input = Input {
                agent,
                file_name: &name,
                session: &loc.session_id,
            };
            if loc.kind == FileKind::SessionDb {
                session_db_rows(&db, &input, sink);
            } else {
                let errors = generic_rows(&db, &input, &[], sink);
                problems(&db, &input, &errors, sink);
            }
        }
        _ => {}
    }
}

/// The rows of a session folder's companions, listed (never opened) through the
/// evidence rules: `session lock: in use by pid <pid> (inuse.<pid>.lock present, file
/// mtime)` per lock file at its mtime, and, for a `rewind-file-snapshots/` or
/// `rewind-snapshots/` folder with no `index.json`, `edit snapshot backup: <name>,
/// <size> bytes, no snapshot index beside it (contents not read)` per file of its
/// `backups/` at its mtime. Locators name the file under the session folder.
pub fn session_folder_rows(
    dir: &Path,
    session: &str,
    agent: &str,
    evidence: &Evidence,
    sink: &mut dyn FnMut(Row),
) {
    let name_of = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    for p in evidence.read_dir(dir).unwrap_or_default() {
        if crate::locate::lock_pid(&name_of(&p)).is_some()
            && let Some(row) = companion_row(&p, dir, session, agent, evidence)
        {
            sink(row);
        }
    }
    for folder in ["rewind-file-snapshots", "rewind-snapshots"] {
        let rewind = dir.join(folder);
        if evidence.check(&rewind.join("index.json")).is_ok() {
            continue;
        }
        for p in evidence
            .read_dir(&rewind.join("backups"))
            .unwrap_or_default()
        {
            if let Some(row) = companion_row(&p, dir, session, agent, evidence) {
                sink(row);
            }
        }
    }
}

/// The row of one file of the session folder `dir` ([`session_folder_rows`]): a lock
/// file's `session lock:` row, a backup's `edit snapshot backup:` row (none when a
/// snapshot index stands beside its `backups/`, which lists it), at the file's mtime,
/// located by its path under the folder. `None` for a file the evidence rules refuse
/// (a link out of the root, no regular file) or of another name.
pub fn companion_row(
    path: &Path,
    dir: &Path,
    session: &str,
    agent: &str,
    evidence: &Evidence,
) -> Option<Row> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    let under = path.strip_prefix(dir).ok()?;
    let text = match crate::locate::lock_pid(&name) {
        Some(pid) if under.parent() == Some(Path::new("")) => lock_text(pid, &name),
        _ => {
            let rewind = path.parent()?.parent()?;
            if evidence.check(&rewind.join("index.json")).is_ok() {
                return None;
            }
            let size = evidence.check(path).ok()?.size;
            crate::side::lone_backup_text(&name, size)
        }
    };
    let checked = evidence.check(path).ok()?;
    let locator = under
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    Some(
        Row::system(agent, text)
            .at(checked.modified.and_then(Timestamp::from_system_time))
            .session(session)
            .locator(locator),
    )
}

/// `session lock: in use by pid <pid> (<file name> present, file mtime)`.
pub fn lock_text(pid: &str, file: &str) -> String {
    format!("session lock: in use by pid {pid} ({file} present, file mtime)")
}

/// What the rows of one database need.
pub struct Input<'a> {
    /// The agent.
    pub agent: &'a str,
    /// `session.db` or `data.db`, for the texts.
    pub file_name: &'a str,
    /// The session the path names, or empty.
    pub session: &'a str,
}

fn base(input: &Input<'_>, rec: &Rec, text: String) -> Row {
    let mut r = Row::system(input.agent, text)
        .session(input.session)
        .locator(rec.place.locator());
    let state = rec.place.state();
    if state != chat_rows::RecordState::Live {
        r = r.state(state);
    }
    r
}

fn rowid(rec: &Rec) -> Option<i64> {
    match &rec.place {
        Place::Live { rowid, .. } => Some(*rowid),
        Place::Carved { rowid, .. } => *rowid,
    }
}

/// A time written by SQLite's `datetime('now')` (UTC by definition, as the todos
/// table's defaults are), else any time form the stores use.
fn sqlite_time(rec: &Rec, col: &str) -> Option<Timestamp> {
    match rec.values.get(col) {
        Some(SqlValue::Text(s)) => {
            chat_rows::when::parse_sqlite(s).or_else(|| crate::decode::time_text(s))
        }
        _ => rec.time(col),
    }
}

/// The rows of a per-session `session.db`: its known tables, then every other table
/// generically.
pub fn session_db_rows(db: &Database, input: &Input<'_>, sink: &mut dyn FnMut(Row)) {
    let mut errors = Vec::new();
    let mut done: Vec<&str> = Vec::new();
    let has = |t: &str, c: &str| db.table_columns(t).iter().any(|x| x == c);
    if has("todos", "title") {
        done.push("todos");
        let (recs, e) = read_table(
            db,
            "todos",
            &[
                "id",
                "title",
                "description",
                "status",
                "created_at",
                "updated_at",
            ],
        );
        errors.extend(e);
        for rec in &recs {
            let at = sqlite_time(rec, "updated_at").or_else(|| sqlite_time(rec, "created_at"));
            sink(base(input, rec, todo_text(rec)).at(at));
        }
    }
    if has("todo_deps", "todo_id") {
        done.push("todo_deps");
        let (recs, e) = read_table(db, "todo_deps", &["todo_id", "depends_on"]);
        errors.extend(e);
        for rec in &recs {
            let text = format!(
                "session todo dependency: {} depends on {}",
                or_dash(&rec.str("todo_id")),
                or_dash(&rec.str("depends_on"))
            );
            sink(base(input, rec, text));
        }
    }
    if has("inbox_entries", "content") {
        done.push("inbox_entries");
        let (recs, e) = read_table(
            db,
            "inbox_entries",
            &[
                "id",
                "recipient_session_id",
                "sender_id",
                "sender_name",
                "sender_type",
                "interaction_id",
                "sequence",
                "summary",
                "content",
                "unread",
                "sent_at",
                "read_at",
                "notified_at",
            ],
        );
        errors.extend(e);
        for rec in &recs {
            sink(base(input, rec, inbox_text(rec)).at(rec.time("sent_at")));
        }
    }
    errors.extend(generic_rows(db, input, &done, sink));
    problems(db, input, &errors, sink);
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() { "-" } else { s }
}

/// `session todo: <title> status=<s> id=<id> created=<c> description="<d>"`.
fn todo_text(rec: &Rec) -> String {
    let kv = key_values(&[
        ("status", &rec.str("status")),
        ("id", &rec.str("id")),
        ("created", &rec.str("created_at")),
        ("description", &cut(&rec.str("description"))),
    ]);
    let title = rec.str("title");
    if kv.is_empty() {
        format!("session todo: {}", or_dash(&title))
    } else {
        format!("session todo: {} {kv}", or_dash(&title))
    }
}

/// `session inbox: from=<sender_name> sender_type=.. sender=.. to=<recipient> ...
/// summary="..": <content>` (the message is conversation, printed whole).
fn inbox_text(rec: &Rec) -> String {
    let kv = key_values(&[
        ("from", &rec.str("sender_name")),
        ("sender_type", &rec.str("sender_type")),
        ("sender", &rec.str("sender_id")),
        ("to", &rec.str("recipient_session_id")),
        ("interaction", &rec.str("interaction_id")),
        ("sequence", &rec.str("sequence")),
        ("unread", &rec.str("unread")),
        ("read_at", &rec.str("read_at")),
        ("summary", &rec.str("summary")),
    ]);
    format!("session inbox: {kv}: {}", rec.str("content"))
}

pub use chat_rows::secrets::names_secret;
use chat_rows::secrets::{WITHHELD, looks_like_token};

/// A JSON value without the keys that name secrets, at any depth, and without
/// strings that look like tokens.
fn strip_json(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !names_secret(k));
            for x in m.values_mut() {
                strip_json(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strip_json),
        Value::String(s) if looks_like_token(s) => *s = WITHHELD.into(),
        _ => {}
    }
}

fn cut(s: &str) -> String {
    match s.char_indices().nth(MAX_VALUE) {
        None => s.to_string(),
        Some((i, _)) => format!("{}… [{} bytes in all]", &s[..i], s.len()),
    }
}

/// A value as a `store record:` row prints it: numbers as written, text cut to
/// [`MAX_VALUE`] characters (a JSON object or array without its secret keys), a
/// blob as its size, a token-like text withheld; `None` for NULL.
fn show(v: &SqlValue) -> Option<String> {
    match v {
        SqlValue::Null => None,
        SqlValue::Integer(i) => Some(i.to_string()),
        SqlValue::Real(r) => Some(r.to_string()),
        SqlValue::Blob(b) => Some(format!("[blob, {} bytes]", b.len())),
        SqlValue::Text(s) => {
            if looks_like_token(s) {
                return Some(WITHHELD.into());
            }
            let t = s.trim_start();
            if (t.starts_with('{') || t.starts_with('['))
                && let Ok(mut j) = serde_json::from_str::<Value>(s)
            {
                strip_json(&mut j);
                return Some(cut(&j.to_string()));
            }
            Some(cut(s))
        }
    }
}

/// The column a generic row takes its time from: `updated_at`, else `created_at`,
/// else the first column named like a time (`*_at`, `*_time`, `*_ts`, `timestamp`,
/// `time`, `date`, `created`, `updated`) whose value reads as one.
fn time_of(cols: &[String], rec: &Rec) -> Option<Timestamp> {
    let timeish = |c: &str| {
        let c = c.to_ascii_lowercase();
        c.ends_with("_at")
            || c.ends_with("_time")
            || c.ends_with("_ts")
            || matches!(
                c.as_str(),
                "timestamp" | "time" | "date" | "created" | "updated"
            )
    };
    ["updated_at", "created_at"]
        .iter()
        .map(|c| c.to_string())
        .chain(cols.iter().filter(|c| timeish(c)).cloned())
        .filter(|c| cols.contains(c))
        .find_map(|c| rec.time(&c))
}

/// Every table of `db` but `skip`, SQLite's own and those whose name names a secret:
/// each live row as `store record: <file> <table> rowid=<n> <col>=<val> ...` (columns
/// naming secrets left out), and each recovered record `deleted`. Returns the tables
/// that could not be read, for `parser:` rows.
pub fn generic_rows(
    db: &Database,
    input: &Input<'_>,
    skip: &[&str],
    sink: &mut dyn FnMut(Row),
) -> Vec<String> {
    let tables: Vec<String> = db
        .connection()
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .and_then(|mut st| {
            st.query_map([], |r| r.get::<_, String>(0))
                .map(|rows| rows.filter_map(Result::ok).collect())
        })
        .unwrap_or_default();
    let mut errors = Vec::new();
    for table in tables {
        if table.starts_with("sqlite_") || skip.contains(&table.as_str()) || names_secret(&table) {
            continue;
        }
        let cols: Vec<String> = db
            .table_columns(&table)
            .into_iter()
            .filter(|c| !names_secret(c) || c == "key")
            .collect();
        let wanted: Vec<&str> = cols.iter().map(String::as_str).collect();
        let (recs, e) = read_table(db, &table, &wanted);
        errors.extend(e);
        for rec in &recs {
            // a key-value row whose key names a secret keeps only its key
            let key = rec.str("key");
            let withhold = names_secret(&key) || looks_like_token(&key);
            let rid = rowid(rec).map(|r| r.to_string()).unwrap_or_default();
            let mut pairs: Vec<(String, String)> = vec![("rowid".into(), rid)];
            for c in &cols {
                let Some(v) = rec.values.get(c).and_then(show) else {
                    continue;
                };
                let hide = if c == "key" {
                    looks_like_token(&key)
                } else {
                    withhold
                };
                let v = if hide { "[withheld]".to_string() } else { v };
                pairs.push((c.clone(), v));
            }
            let refs: Vec<(&str, &str)> = pairs
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            let text = format!(
                "store record: {} {} {}",
                input.file_name,
                table,
                key_values(&refs)
            );
            let mut row = base(input, rec, text).at(time_of(&cols, rec));
            if input.session.is_empty() {
                let sid = rec.str("session_id");
                if !sid.is_empty() {
                    row = row.session(sid);
                }
            }
            sink(row);
        }
    }
    errors
}

/// `parser: <file> unreadable: <message>` for what `sqlite-evidence` could not read
/// (with its place) and for tables not read.
fn problems(db: &Database, input: &Input<'_>, errors: &[String], sink: &mut dyn FnMut(Row)) {
    for p in db.problems() {
        sink(
            Row::system(
                input.agent,
                system::parser(format!("{} unreadable: {}", input.file_name, p.message)),
            )
            .session(input.session)
            .locator(p.location.clone()),
        );
    }
    for e in errors {
        sink(
            Row::system(
                input.agent,
                system::parser(format!("{} unreadable: {e}", input.file_name)),
            )
            .session(input.session),
        );
    }
}
