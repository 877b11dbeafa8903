//! The agent CLI: `store.db` (+ `meta.json`), prompt history and transcripts.
//!
//! # Why older roots are read
//!
//! `store.db` is content-addressed: every message is a blob named by its SHA-256, and a
//! root blob lists the conversation's message ids in order. An edit or a retry writes a
//! new root (and new messages) and moves `latestRootBlobId`; nothing is replaced. So
//! the blobs the current root does not reach are the conversation as it was before:
//! they are read as `recovered` rows, in the order of the older roots that list them,
//! then the loose ones in rowid order. Blob records deleted from the table come back
//! from free pages through [`sqlite_evidence`] as `deleted` rows; a deleted root gives
//! one `link: deleted root blob <id> lists <n> messages` row (its messages are blobs of
//! their own).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use chat_rows::json::Step::{self, Key};
use chat_rows::system::ModelSpec;
use chat_rows::{Evidence, RecordState, Row, TurnType, system};
use serde_json::Value;
use sqlite_evidence::Database;
use sqlite_evidence::rusqlite::types::ValueRef;

use super::ide::blob_rows;
use super::{Out, Place, iso, str_of, sys, turn};
use crate::decode::{self, as_written, json_time};

fn text_of(v: ValueRef<'_>) -> String {
    state_vscdb::decode::value_text(v)
}

fn bytes_of(v: ValueRef<'_>) -> Vec<u8> {
    match v {
        ValueRef::Blob(b) | ValueRef::Text(b) => b.to_vec(),
        _ => Vec::new(),
    }
}

/// A root's children, each once, in the order of their first place, with every place
/// (1-based) the root lists it at.
pub(super) fn by_first_place(children: Vec<String>) -> Vec<(String, Vec<usize>)> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, child) in children.into_iter().enumerate() {
        match index.get(&child) {
            Some(&at) => out[at].1.push(i + 1),
            None => {
                index.insert(child.clone(), out.len());
                out.push((child, vec![i + 1]));
            }
        }
    }
    out
}

/// `link: blob <id> is listed 3 times by the root (places 2, 5, 9 of 12); read once, at
/// the first`.
fn listed_again(child: &str, places: &[usize], count: usize) -> String {
    listed_again_in("blob", child, "by the root", places, count)
}

/// `link: <what> <id> is listed <n> times <by> (places 2, 5, 9 of 12); read once, at the
/// first`: an id a list names again (the CLI's root, the IDE's composer headers).
pub(super) fn listed_again_in(
    what: &str,
    id: &str,
    by: &str,
    places: &[usize],
    count: usize,
) -> String {
    let at: Vec<String> = places.iter().map(usize::to_string).collect();
    format!(
        "link: {what} {id} is listed {} times {by} (places {} of {count}); read once, at the first",
        at.len(),
        at.join(", ")
    )
}

/// Reads one agent's `store.db` with the `meta.json` beside it.
pub fn read_store(path: &Path, evidence: &Evidence, out: &mut Out<'_>) {
    let dir = path.parent().unwrap_or(Path::new(""));
    let session = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let meta_json_path = dir.join("meta.json");
    let meta_json: Option<Value> = match evidence.read_optional(&meta_json_path) {
        Ok(Some(b)) => match chat_rows::json::from_slice::<Value>(&b) {
            Ok(v) => Some(v),
            Err(e) => {
                out.push(
                    sys(system::parser(format!(
                        "meta.json is not valid JSON ({})",
                        chat_rows::json::reason(&e)
                    )))
                    .session(&session)
                    .file(chat_rows::display_path(&meta_json_path)),
                );
                None
            }
        },
        _ => None,
    };
    let project = meta_json
        .as_ref()
        .map(|m| str_of(m, "cwd"))
        .unwrap_or_default();
    let db = match Database::open(path, evidence) {
        Ok(db) => db,
        Err(e) => {
            out.push(
                sys(system::parser(format!("store.db unreadable: {e}")))
                    .session(&session)
                    .project(&project),
            );
            // the chat's `meta.json` is still read: `read_meta_json` leaves it to this
            // store (since 2026-12-05; before, its title, times and model were lost)
            if let Some(m) = &meta_json {
                session_rows(m, None, &session, &project, "meta.json", out);
            }
            return;
        }
    };
    for r in sqlite_evidence::rows::problem_rows(
        db.problems(),
        super::AGENT,
        "",
        "store.db unreadable: ",
    ) {
        out.push(r.session(&session).project(&project));
    }
    // the meta row's place, and where the `-wal` holds it
    let meta_wal = db
        .connection()
        .query_row("SELECT rowid FROM meta WHERE key = '0'", [], |r| {
            r.get::<_, i64>(0)
        })
        .ok()
        .and_then(|rowid| db.wal_places("meta").remove(&rowid));
    let meta_loc = match &meta_wal {
        Some(w) => format!("table meta key=0, {w}"),
        None => "table meta key=0".to_string(),
    };
    // the meta row: hex-encoded JSON (its blobEncryptionKey is never output)
    let meta_row: Option<Value> = db
        .connection()
        .query_row("SELECT value FROM meta WHERE key = '0'", [], |r| {
            Ok(text_of(r.get_ref(0)?))
        })
        .ok()
        .and_then(|hex| match decode::meta(&hex) {
            Ok(v) => Some(v),
            Err(e) => {
                out.push(
                    sys(system::parser(format!(
                        "store.db meta is not hex-encoded JSON ({e})"
                    )))
                    .session(&session)
                    .project(&project)
                    .locator(meta_loc.clone()),
                );
                None
            }
        });
    // session start: meta.json, else the meta row
    let (src, loc): (Option<&Value>, String) = match (&meta_json, &meta_row) {
        (Some(m), _) => (Some(m), "meta.json".into()),
        (None, Some(m)) => (Some(m), meta_loc.clone()),
        _ => (None, String::new()),
    };
    if let Some(m) = src {
        session_rows(m, meta_row.as_ref(), &session, &project, &loc, out);
    }
    if !db.has_table("blobs") {
        out.push(
            sys(system::parser("store.db has no blobs table"))
                .session(&session)
                .project(&project),
        );
        return;
    }
    let get = |id: &str| -> Option<Vec<u8>> {
        db.connection()
            .query_row("SELECT data FROM blobs WHERE id = ?1", [id], |r| {
                Ok(bytes_of(r.get_ref(0)?))
            })
            .ok()
    };
    // where the `-wal` holds the live blobs (every blob of a store the CLI has not yet
    // checkpointed): by id, as the rows are looked up by id
    let wal = db.wal_places("blobs");
    let mut wal_of: HashMap<String, String> = HashMap::new();
    if !wal.is_empty() {
        let ids = (|| -> Result<(), sqlite_evidence::rusqlite::Error> {
            let mut stmt = db.connection().prepare("SELECT rowid, id FROM blobs")?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                if let Some(w) = wal.get(&r.get::<_, i64>(0)?) {
                    wal_of.insert(text_of(r.get_ref(1)?), w.clone());
                }
            }
            Ok(())
        })();
        if let Err(e) = ids {
            out.push(sys(system::parser(format!("store.db unreadable: {e}"))).session(&session));
        }
    }
    let place = |id: &str, state: RecordState| Place {
        session: session.clone(),
        project: project.clone(),
        locator: match wal_of.get(id).filter(|_| state != RecordState::Deleted) {
            Some(w) => format!("blobs id={id}, {w}"),
            None => format!("blobs id={id}"),
        },
        state,
        time: None,
    };
    let mut reached: HashSet<String> = HashSet::new();
    let latest = meta_row
        .as_ref()
        .map(|m| str_of(m, "latestRootBlobId"))
        .unwrap_or_default();
    if !latest.is_empty() {
        reached.insert(latest.clone());
        match get(&latest).map(|b| decode::blob(&b)) {
            Some(Ok(decode::Blob::Root(children))) => {
                // a child the root lists again is read once, at its first place, and one
                // row says where else the root lists it
                let count = children.len();
                for (child, places) in by_first_place(children) {
                    reached.insert(child.clone());
                    let at = place(&child, RecordState::Live);
                    match get(&child) {
                        Some(b) => {
                            for r in blob_rows(&b, &child, &at) {
                                out.push(r);
                            }
                        }
                        None => out.push(at.apply(sys(format!(
                            "link: blob {child} named by the root is missing"
                        )))),
                    }
                    if places.len() > 1 {
                        out.push(at.apply(sys(listed_again(&child, &places, count))));
                    }
                }
            }
            Some(Ok(decode::Blob::Message(_))) => out.push(
                place(&latest, RecordState::Live).apply(sys(system::parser(format!(
                    "root blob {latest} is a message, not a root"
                )))),
            ),
            Some(Err(e)) => out.push(place(&latest, RecordState::Live).apply(sys(system::parser(
                format!("root blob {latest} unreadable ({e})"),
            )))),
            None => out.push(place(&latest, RecordState::Live).apply(sys(format!(
                "link: root blob {latest} named by meta is missing"
            )))),
        }
    }
    // older roots, in rowid order, and their messages the current root does not reach
    let mut older: Vec<(String, Vec<String>)> = Vec::new();
    let mut is_root: HashSet<String> = HashSet::new();
    let scan = (|| -> Result<(), sqlite_evidence::rusqlite::Error> {
        let mut stmt = db
            .connection()
            .prepare("SELECT id, data FROM blobs ORDER BY rowid")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let id = text_of(r.get_ref(0)?);
            let data = r.get_ref(1)?;
            let bytes = match data {
                ValueRef::Blob(b) | ValueRef::Text(b) => b,
                _ => &[][..],
            };
            if bytes.trim_ascii_start().first() == Some(&b'{') {
                continue;
            }
            if let Ok(decode::Blob::Root(children)) = decode::blob(bytes) {
                is_root.insert(id.clone());
                if !reached.contains(&id) {
                    older.push((id, children));
                }
            }
        }
        Ok(())
    })();
    if let Err(e) = scan {
        out.push(sys(system::parser(format!("store.db unreadable: {e}"))).session(&session));
    }
    let mut emitted: HashSet<String> = HashSet::new();
    for (_root, children) in &older {
        for child in children {
            if reached.contains(child) || !emitted.insert(child.clone()) {
                continue;
            }
            if let Some(b) = get(child) {
                for r in blob_rows(&b, child, &place(child, RecordState::Recovered)) {
                    out.push(r);
                }
            }
        }
    }
    let loose = (|| -> Result<(), sqlite_evidence::rusqlite::Error> {
        let mut stmt = db
            .connection()
            .prepare("SELECT id, data FROM blobs ORDER BY rowid")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let id = text_of(r.get_ref(0)?);
            if reached.contains(&id) || emitted.contains(&id) || is_root.contains(&id) {
                continue;
            }
            let b = bytes_of(r.get_ref(1)?);
            for row in blob_rows(&b, &id, &place(&id, RecordState::Recovered)) {
                out.push(row);
            }
        }
        Ok(())
    })();
    if let Err(e) = loose {
        out.push(sys(system::parser(format!("store.db unreadable: {e}"))).session(&session));
    }
    // blob records deleted from the table
    let cols = db.table_columns("blobs");
    let id_col = cols.iter().position(|c| c == "id").unwrap_or(0);
    let data_col = cols.iter().position(|c| c == "data").unwrap_or(1);
    for rec in db.deleted_records("blobs") {
        let id = rec
            .values
            .get(id_col)
            .map(|v| text_of(v.into()))
            .unwrap_or_default();
        if let Some(cut) = super::ide::cut_value(&rec, data_col) {
            // an overflow chain cut by reuse: told by size, never decoded
            if !id.is_empty() && !rec.missing.contains(&id_col) {
                let mut p = place(&id, RecordState::Deleted);
                p.locator = format!("blobs id={id}, {}", rec.location);
                out.push(p.apply(super::ide::incomplete_row(&id, cut, String::new())));
            }
            continue;
        }
        let data = rec
            .values
            .get(data_col)
            .map(|v| bytes_of(v.into()))
            .unwrap_or_default();
        let mut p = place(&id, RecordState::Deleted);
        p.locator = format!("blobs id={id}, {}", rec.location);
        // a deleted root (an older state of the conversation): one row telling it, its
        // messages being blobs of their own (read above, or carved in this loop)
        if let Ok(decode::Blob::Root(children)) = decode::blob(&data) {
            out.push(p.apply(sys(format!(
                "link: deleted root blob {id} lists {} messages",
                children.len()
            ))));
            continue;
        }
        for r in blob_rows(&data, &id, &p) {
            out.push(r);
        }
    }
}

/// The `session start: title=... cwd=... created=... updated=... subagent=...
/// schema=...` row of a chat's `meta.json` (else of its `store.db` `meta` row, `m`),
/// at `createdAtMs`, then `model: <lastUsedModel>` (the `meta` row's, else `meta.json`'s
/// `lastUsedModel` or `model`).
fn session_rows(
    m: &Value,
    meta_row: Option<&Value>,
    session: &str,
    project: &str,
    loc: &str,
    out: &mut Out<'_>,
) {
    let created = m
        .get("createdAtMs")
        .or_else(|| m.get("createdAt"))
        .and_then(json_time);
    let updated = m
        .get("updatedAtMs")
        .or_else(|| m.get("updatedAt"))
        .and_then(json_time);
    let name = {
        let n = str_of(m, "name");
        if n.is_empty() {
            meta_row.map(|r| str_of(r, "name")).unwrap_or_default()
        } else {
            n
        }
    };
    out.push(
        sys(system::session_start(&[
            ("title", &name),
            ("cwd", &str_of(m, "cwd")),
            ("created", &iso(created)),
            ("updated", &iso(updated)),
            ("subagent", &str_of(m, "isSubagent")),
            ("schema", &str_of(m, "schemaVersion")),
        ]))
        .session(session)
        .project(project)
        .at(created)
        .locator(loc),
    );
    let model = meta_row
        .map(|r| str_of(r, "lastUsedModel"))
        .filter(|s| !s.is_empty())
        .or_else(|| Some(str_of(m, "lastUsedModel")).filter(|s| !s.is_empty()))
        .or_else(|| Some(str_of(m, "model")).filter(|s| !s.is_empty()));
    if let Some(model) = model {
        out.push(
            sys(system::model(ModelSpec::new(&model)))
                .session(session)
                .project(project)
                .model(&model)
                .at(created)
                .locator(loc),
        );
    }
}

/// A chat folder's `meta.json` (`.cursor/chats/<hash>/<agentId>/` or
/// `.cursor/acp-sessions/<id>/`): its `session start:` and `model:` rows when no
/// `store.db` lies beside it. With a `store.db`, [`read_store`] reads the `meta.json`
/// (its rows carry the locator `meta.json`), and this gives nothing, so the chat is not
/// told twice. Session = the folder name, project = `cwd`; `blobEncryptionKey` is never
/// output.
pub fn read_meta_json(path: &Path, bytes: &[u8], evidence: &Evidence, out: &mut Out<'_>) {
    let dir = path.parent().unwrap_or(Path::new(""));
    if evidence.check(&dir.join("store.db")).is_ok() {
        return;
    }
    let session = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match chat_rows::json::from_slice::<Value>(bytes) {
        Ok(m) => {
            let project = str_of(&m, "cwd");
            session_rows(&m, None, &session, &project, "", out);
        }
        Err(e) => out.push(
            sys(system::parser(format!(
                "meta.json is not valid JSON ({})",
                chat_rows::json::reason(&e)
            )))
            .session(&session),
        ),
    }
}

/// `prompt_history.json`: secondary `user` rows without time.
pub fn read_prompt_history(bytes: &[u8], out: &mut Out<'_>) {
    let v: Value = match chat_rows::json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            out.push(sys(system::file_not_json(chat_rows::json::reason(&e))));
            return;
        }
    };
    let items: Vec<&Value> = match &v {
        Value::Array(a) => a.iter().collect(),
        Value::Object(o) => o
            .get("prompts")
            .or_else(|| o.get("history"))
            .and_then(Value::as_array)
            .map(|a| a.iter().collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    for (i, p) in items.into_iter().enumerate() {
        let text = match p {
            Value::String(s) => s.clone(),
            other => other
                .get("text")
                .or_else(|| other.get("prompt"))
                .map(as_written)
                .unwrap_or_else(|| other.to_string()),
        };
        out.push(
            turn(TurnType::User, text)
                .locator(format!("[{i}]"))
                .state(RecordState::Secondary),
        );
    }
}

/// A transcript JSONL. `session` is the file id, `project` the project as known,
/// `secondary` true when the agent's `store.db` exists.
/// Lines are read from `lines` until it ends or fails; a failure is returned, after the
/// rows of the lines before it.
pub fn read_transcript(
    lines: &mut chat_rows::lines::LineReader<'_>,
    session: &str,
    project: &str,
    secondary: bool,
    out: &mut Out<'_>,
) -> std::io::Result<()> {
    while let Some(line) = lines.next_line() {
        let line = line?;
        let v = match chat_rows::lines::decode_line::<Value>(&line) {
            Ok(v) => v,
            Err(bad) => {
                out.push(bad.row(super::AGENT, "").session(session).project(project));
                continue;
            }
        };
        let place = Place {
            session: session.to_string(),
            project: project.to_string(),
            locator: line.locator(),
            state: if secondary {
                RecordState::Secondary
            } else {
                RecordState::Live
            },
            time: None,
        };
        let at = |r: Row| place.apply(r).line(line.number);
        if v.get("type").and_then(Value::as_str) == Some("turn_ended") {
            let status = str_of(&v, "status");
            if status == "error" || v.get("error").is_some_and(|e| !e.is_null()) {
                out.push(at(sys(format!(
                    "turn error: status={status} message={}",
                    serde_json::to_string(&as_written(v.get("error").unwrap_or(&Value::Null)))
                        .unwrap_or_default()
                ))));
            }
            continue;
        }
        let role = str_of(&v, "role");
        let nested = v.pointer("/message/content").is_some();
        let content = v.pointer("/message/content").or_else(|| v.get("content"));
        let parts: Vec<Value> = match content {
            Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
            Some(Value::Array(a)) => a.clone(),
            _ => Vec::new(),
        };
        // a `tool_use` part's `input` is printed as the line has it (keys in the
        // writer's order, escapes and numbers untouched), not key-sorted from the
        // decoded value: the parts as written are split out of the line once
        let tools = parts
            .iter()
            .any(|p| p.get("type").and_then(Value::as_str) == Some("tool_use"));
        let repaired = tools.then(|| chat_rows::json::repair_lone_surrogates(line.bytes));
        let path: &[Step<'_>] = if nested {
            &[Key("message"), Key("content")]
        } else {
            &[Key("content")]
        };
        let raw_parts: Vec<&serde_json::value::RawValue> = repaired
            .as_deref()
            .and_then(|t| chat_rows::json::raw_at(t, path))
            .and_then(|c| serde_json::from_str(c.get()).ok())
            .unwrap_or_default();
        for (i, part) in parts.into_iter().enumerate() {
            let kind = str_of(&part, "type");
            let row = match (role.as_str(), kind.as_str()) {
                ("user", "text") => {
                    for row in super::user_text_rows(&str_of(&part, "text")) {
                        out.push(at(row));
                    }
                    continue;
                }
                (_, "thinking") => turn(TurnType::Thinking, {
                    let t = str_of(&part, "thinking");
                    if t.is_empty() {
                        str_of(&part, "text")
                    } else {
                        t
                    }
                }),
                (_, "tool_use") => turn(
                    TurnType::ToolUse,
                    part.get("input")
                        .map(|input| {
                            raw_parts
                                .get(i)
                                .and_then(|p| {
                                    chat_rows::json::compact_at(p.get().as_bytes(), &[Key("input")])
                                })
                                .unwrap_or_else(|| input.to_string())
                        })
                        .unwrap_or_default(),
                )
                .tool(str_of(&part, "name"), str_of(&part, "id")),
                (_, "text") => turn(TurnType::Assistant, str_of(&part, "text")),
                (r, k) => sys(format!("message part: role={r} type={k}")),
            };
            out.push(at(row));
        }
    }
    Ok(())
}
