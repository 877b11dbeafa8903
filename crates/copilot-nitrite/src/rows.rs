//! Mapping Nitrite documents to evidence rows (`copilot.txt`, JetBrains section).
//!
//! A Copilot store holds sessions (`NtAgentSession` and its chat/edit siblings: a title
//! in `name{value, source}`, `createdAt`, maybe `projectName`) and turns (`NtAgentTurn`:
//! `request` and `response` documents). The prompt is `request.stringContent`. The reply
//! is in `response.contents`, a JSON string of records, some nested in `Subgraph`
//! values: in ask mode `Markdown` records, in agent or plan mode `AgentRound` records
//! whose `reply` is the answer (there the `Markdown` records repeat the prompt, so the
//! reader never falls back to them). `Thinking` records become thinking rows; tool calls
//! of rounds become tool rows; `PendingChanges`, `AskQuestion` and `Notification` become
//! system rows, `SubTurn` records a sub-turn's prompt and reply, `References` and
//! `FixedContextPanel` records (also hidden by `Hide`) one `file referenced:` row per
//! file, and a record of any other type an `unknown record type` row: none is dropped.
//! A turn's `confirmationRequest` / `confirmationResponse` become `permission decision:`
//! rows, its `request.agent` and `rating` a `turn:` row, and the `chatMode` it was sent
//! in a `chat mode:` row whenever it changes within the session. A session's draft
//! `input`, its `workingSet` entries and its inline `turns` (read as turn documents) are
//! rows too, when they hold anything.
//!
//! Rows of live documents are `live`, or `deleted` when the turn (or the part of it
//! they come from, `request` or `response`) has `deletedAt`; each deletion time is a
//! row of its own. Rows
//! of carved documents (older revisions and removed documents, see [`crate::decode`])
//! are `recovered`; of an older revision, only the texts that the live revision no
//! longer holds are yielded, so a responder sees exactly what changed.

use std::collections::{BTreeMap, HashMap, HashSet};

use chat_rows::system::{self, ChangeTracker};
use chat_rows::{RecordState, Row, Timestamp, TurnType};
use serde_json::Value;

use crate::decode::{Document, NitriteFile, Record, records, records_from_value};
use crate::textscan::TextKind;

/// The agent id of every row.
pub const AGENT: &str = "copilot";

/// Response statuses that are not a failure (a turn still streaming is not an error).
const NOT_ERRORS: [&str; 7] = [
    "",
    "ok",
    "success",
    "in_progress",
    "pending",
    "running",
    "streaming",
];

/// Normalises a model name as `copilot.txt` says: dotted Claude names become canonical
/// ids (`claude-opus-4.5` and `Claude Haiku 4.5` → `claude-opus-4-5`, `claude-haiku-4-5`);
/// GPT, Gemini and other names are kept verbatim.
pub fn normalize_model(name: &str) -> String {
    let t = name.trim();
    if t.to_ascii_lowercase().starts_with("claude") {
        let mut out = String::new();
        for c in t.to_lowercase().chars() {
            let c = if c == ' ' || c == '.' || c == '_' {
                '-'
            } else {
                c
            };
            if !(c == '-' && out.ends_with('-')) {
                out.push(c);
            }
        }
        out
    } else {
        t.to_string()
    }
}

fn s<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut cur = v;
    for p in path {
        match cur.get(p) {
            Some(n) => cur = n,
            None => return "",
        }
    }
    cur.as_str().unwrap_or("")
}

fn ms(v: &Value, path: &[&str]) -> Option<Timestamp> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    Timestamp::from_epoch_millis(cur.as_i64().filter(|m| *m > 0)?)
}

fn is_turn(v: &Value) -> bool {
    v.get("request").is_some() || v.get("response").is_some()
}

fn is_session(v: &Value) -> bool {
    !is_turn(v)
        && (v.get("turns").is_some() || v.get("name").is_some() || v.get("projectName").is_some())
}

/// A pre-1.6 outer document: UUID-keyed `Value`/`Subgraph` entries.
fn is_legacy(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.values().any(|x| {
            matches!(
                x.get("type").and_then(Value::as_str),
                Some("Value" | "Subgraph")
            )
        })
    })
}

/// The session id a document belongs to.
fn session_of(d: &Document) -> String {
    let v = &d.value;
    let sid = if is_turn(v) {
        s(v, &["sessionId"])
    } else {
        s(v, &["id"])
    };
    if sid.is_empty() {
        d.id()
    } else {
        sid.to_string()
    }
}

/// The project a store names: the first non-empty `projectName` of its session documents.
pub fn project_name(file: &NitriteFile) -> Option<String> {
    file.entity_documents()
        .chain(file.carved.iter())
        .map(|d| s(&d.value, &["projectName"]))
        .find(|p| !p.is_empty())
        .map(str::to_string)
}

/// The model of a turn: the assistant blob's `modelInformation.modelName`, else the
/// request's, else `response.model`, else `request.model`; normalised. `auto` is the
/// user's routing choice (the plugin picks a model per request), never a model: it is
/// skipped, and a turn that names nothing else has no model (empty).
pub fn turn_model(v: &Value) -> String {
    for p in [
        &["response", "modelInformation", "modelName"][..],
        &["request", "modelInformation", "modelName"],
        &["response", "model"],
        &["request", "model"],
    ] {
        let m = s(v, p).trim();
        if !m.is_empty() && !m.eq_ignore_ascii_case("auto") {
            return normalize_model(m);
        }
    }
    String::new()
}

/// Maps shown by name in the foreign-store row at most (the rest are counted).
const FOREIGN_MAPS_SHOWN: usize = 32;

/// When the store is an H2 MVStore that is not Nitrite's, the text of the one row that
/// says so (`not a Nitrite store (H2 MVStore format 2, 11 map(s): _, openTransactions,
/// table.0, ...; no $nitrite_ map)`); None for a Nitrite store, and for a file whose
/// maps cannot be listed (no readable snapshot: that is damage, reported as such).
///
/// Nitrite always keeps its own `$nitrite_*` maps (store info, meta, catalog, indexes)
/// and stores Java-serialized documents with an `_id`; a store with neither is foreign.
pub fn foreign_store(file: &NitriteFile) -> Option<String> {
    if file.snapshot.is_none() || file.maps.is_empty() {
        return None;
    }
    if file
        .maps
        .iter()
        .any(|m| crate::decode::is_system_map(&m.name))
        || file.documents.iter().any(|d| d.value.get("_id").is_some())
    {
        return None;
    }
    let mut names: Vec<String> = file
        .maps
        .iter()
        .take(FOREIGN_MAPS_SHOWN)
        .map(|m| {
            let mut n: String = m.name.chars().take(100).collect();
            if n.len() < m.name.len() {
                n.push('…');
            }
            n
        })
        .collect();
    if file.maps.len() > FOREIGN_MAPS_SHOWN {
        names.push(format!(
            "… and {} more",
            file.maps.len() - FOREIGN_MAPS_SHOWN
        ));
    }
    Some(format!(
        "not a Nitrite store (H2 MVStore format {}, {} map(s): {}; no $nitrite_ map)",
        file.format,
        file.maps.len(),
        names.join(", ")
    ))
}

/// The rows of one store file. `kind` is the store kind folder (`chat-agent-sessions`),
/// `project` the project name joined across the kinds of the store id (empty if none).
pub fn file_rows(file: &NitriteFile, source_file: &str, kind: &str, project: &str) -> Vec<Row> {
    // another application's H2 store where a Nitrite store is expected: its values are
    // no Nitrite documents, and mapping them gave dozens of empty rows (`0: `, `14: `),
    // some `recovered`; one row says what the file holds instead
    if let Some(what) = foreign_store(file) {
        return vec![
            Row::system(AGENT, system::parser(what))
                .file(source_file)
                .locator("file"),
        ];
    }
    let mut out = Vec::new();
    for p in &file.problems {
        out.push(
            Row::system(AGENT, system::parser(p.message()))
                .file(source_file)
                .locator(&p.locator),
        );
    }
    let project = if project.is_empty() {
        project_name(file).unwrap_or_default()
    } else {
        project.to_string()
    };
    let base = |r: Row| r.file(source_file).project(project.as_str());

    let live_ids = LiveDocs::of(file);
    // group documents by session
    let mut sessions: BTreeMap<String, Group<'_>> = BTreeMap::new();
    let mut others: Vec<&Document> = Vec::new();
    for d in file.entity_documents().chain(file.carved.iter()) {
        let v = &d.value;
        if is_turn(v) {
            sessions.entry(session_of(d)).or_default().turns.push(d);
        } else if is_session(v) {
            sessions.entry(session_of(d)).or_default().sessions.push(d);
        } else if is_legacy(v) {
            sessions.entry(d.id()).or_default().legacy.push(d);
        } else {
            others.push(d);
        }
    }
    let mut groups: Vec<(String, Group<'_>)> = sessions.into_iter().collect();
    groups.sort_by_key(|(_, g)| g.start());
    for (sid, g) in groups {
        session_rows(&sid, &g, kind, &live_ids, &mut |r| {
            out.push(base(r).session(sid.as_str()))
        });
    }
    // the text scanner's finds (bytes nothing else decoded): recovered, `byte N`; a text
    // that a decoded row already holds is a stale byte-copy and says nothing new
    let decoded: HashSet<&str> = out.iter().map(|r| r.text.as_str()).collect();
    let fresh: Vec<_> = file
        .texts
        .iter()
        .filter(|t| !decoded.contains(t.text.as_str()))
        .collect();
    for t in fresh {
        let tt = match t.kind {
            TextKind::Prompt => TurnType::User,
            TextKind::Reply => TurnType::Assistant,
            TextKind::Thinking => TurnType::Thinking,
        };
        out.push(
            base(Row::new(AGENT, tt, t.text.clone()))
                .session(t.session.as_str())
                .locator(format!("byte {}", t.offset))
                .state(RecordState::Recovered),
        );
    }
    for d in others {
        // every field as written: nested documents as dotted keys (`status.state`),
        // arrays as compact JSON; Nitrite's `_` fields, nulls and secret-named keys left out
        let fields = fields_of(&d.value, true);
        let pairs: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let text = format!("{}: {}", d.entity(), system::key_values(&pairs));
        out.push(
            base(Row::system(AGENT, text))
                .session(s(&d.value, &["sessionId"]))
                .at(ms(&d.value, &["createdAt"]).or_else(|| ms(&d.value, &["_modified"])))
                .locator(d.place.locator())
                .state(state_of(d, false, &live_ids)),
        );
    }
    out
}

#[derive(Default)]
struct Group<'a> {
    sessions: Vec<&'a Document>,
    turns: Vec<&'a Document>,
    legacy: Vec<&'a Document>,
}

impl Group<'_> {
    fn start(&self) -> (Option<Timestamp>, String) {
        let t = self
            .sessions
            .iter()
            .chain(&self.turns)
            .chain(&self.legacy)
            .filter_map(|d| ms(&d.value, &["createdAt"]).or_else(|| ms(&d.value, &["_modified"])))
            .min();
        (t, String::new())
    }
}

/// What the live state says of carved documents: the `_id`s of the live documents and
/// the snapshot's version. A carved document of a chunk no newer than the snapshot whose
/// `_id` no live document has was removed from the store: `deleted` (`h2-mvstore.md`:
/// dead pages bring back deleted turns, flagged as such; since 2026-12-05, before which it
/// was `recovered`). An older version of a live document, one of a newer chunk the
/// snapshot passed over (torn or rejected), and a raw scan's find (no chunk) stay
/// `recovered`; so does every carved document when no snapshot was read, and every one
/// of a map whose live entries the snapshot could not all read
/// ([`NitriteFile::unread_maps`]: its live `_id`s are not known; since 2026-12-05, before
/// which the live documents of a map that could not be walked came back `deleted`).
pub struct LiveDocs {
    ids: HashSet<String>,
    version: Option<u64>,
    unread_maps: HashSet<u32>,
}

impl LiveDocs {
    /// The live documents of `file`.
    pub fn of(file: &NitriteFile) -> LiveDocs {
        LiveDocs {
            ids: file
                .entity_documents()
                .filter(|d| d.live)
                .map(Document::id)
                .collect(),
            version: file.snapshot.map(|(_, v)| v),
            unread_maps: file.unread_maps.iter().copied().collect(),
        }
    }

    /// True for a carved document removed from the store (see the type).
    fn removed(&self, d: &Document) -> bool {
        self.version.is_some_and(|v| {
            d.version != 0
                && d.version <= v
                && !self.unread_maps.contains(&d.map_id)
                && !self.ids.contains(&d.id())
        })
    }
}

fn state_of(d: &Document, deleted: bool, live: &LiveDocs) -> RecordState {
    if !d.live {
        if live.removed(d) {
            RecordState::Deleted
        } else {
            RecordState::Recovered
        }
    } else if deleted {
        RecordState::Deleted
    } else {
        RecordState::Live
    }
}

/// (turn type, text, tool name, tool call id, occurrence) of a row.
type RowKey = (TurnType, String, String, String, usize);

/// Which rows of one turn (all its versions) or of one legacy document are copies of an
/// earlier one and are left out: the same turn type and text (byte-copies of a reply,
/// the prompt repeated by an agent-mode `Markdown` record, the same text in an older
/// revision) and, for tool rows, the same tool name and call id. Tool rows with no call
/// id are also counted within their version, so a call run twice is two rows of each
/// kind, and only the copies of another version collapse. Since 2026-12-05; before, the
/// key was the turn type and the text alone, so different tools (or the same command
/// run twice) with the same arguments or result kept only the first call's rows.
#[derive(Default)]
struct Collapse {
    seen: HashSet<RowKey>,
    in_version: HashMap<RowKey, usize>,
}

impl Collapse {
    /// The rows that follow come from another version of the turn.
    fn next_version(&mut self) {
        self.in_version.clear();
    }

    /// True when `r` is no copy of a row already let through.
    fn first(&mut self, r: &Row) -> bool {
        let mut key = (
            r.turn_type,
            r.text.clone(),
            r.tool_name.clone(),
            r.tool_use_id.clone(),
            0,
        );
        if r.tool_use_id.is_empty()
            && matches!(r.turn_type, TurnType::ToolUse | TurnType::ToolResult)
        {
            let n = self.in_version.entry(key.clone()).or_insert(0);
            key.4 = *n;
            *n += 1;
        }
        self.seen.insert(key)
    }
}

fn session_rows(sid: &str, g: &Group<'_>, kind: &str, live: &LiveDocs, emit: &mut dyn FnMut(Row)) {
    // the session start row: the live version, else the newest carved one
    let mut versions: Vec<&Document> = g.sessions.clone();
    versions.sort_by_key(|d| {
        std::cmp::Reverse((
            d.revision(),
            d.value.get("_modified").and_then(Value::as_i64),
            d.version,
        ))
    });
    let main = versions
        .iter()
        .find(|d| d.live)
        .or(versions.first())
        .copied();
    if let Some(main) = main {
        // the row's title is its own document's: a title that only a carved (older, or
        // newer but torn) revision holds is that revision's `session title:` row
        let title = s(&main.value, &["name", "value"]);
        let source = s(&main.value, &["name", "source"]);
        let user = s(&main.value, &["user"]);
        let text = system::session_start(&[
            ("title", title),
            ("title_source", source),
            ("kind", kind),
            ("user", user),
        ]);
        emit(
            Row::system(AGENT, text)
                .at(ms(&main.value, &["createdAt"]))
                .locator(main.place.locator())
                .state(state_of(main, false, live)),
        );
        // the titles of the other revisions the file still holds
        let mut titles: HashSet<&str> = HashSet::new();
        titles.insert(title);
        for d in versions.iter().filter(|d| !std::ptr::eq(**d, main)) {
            let t = s(&d.value, &["name", "value"]);
            if titles.insert(t) && !t.is_empty() {
                let text = format!(
                    "session title: {}",
                    system::key_values(&[
                        ("title", t),
                        ("title_source", s(&d.value, &["name", "source"])),
                        ("revision", &d.revision().to_string())
                    ])
                );
                emit(
                    Row::system(AGENT, text)
                        .at(ms(&d.value, &["_modified"]).or_else(|| ms(&d.value, &["createdAt"])))
                        .locator(d.place.locator())
                        // removed with its session: deleted, as the session's other
                        // rows (since 2026-12-05; before, always recovered)
                        .state(state_of(d, false, live)),
                );
            }
        }
    }
    // the draft, working set and inline turns of each revision (the live one first): an
    // older revision yields only the texts the live one lacks
    let mut inline: Vec<Document> = Vec::new();
    let mut said: HashSet<String> = HashSet::new();
    for d in main.into_iter().chain(
        versions
            .iter()
            .copied()
            .filter(|d| !main.is_some_and(|m| std::ptr::eq(*d, m))),
    ) {
        session_fields(d, &mut inline, &mut said, live, emit);
    }
    // turns: group the versions of each turn by _id, order turns by createdAt
    let mut by_id: BTreeMap<String, Vec<&Document>> = BTreeMap::new();
    for d in g.turns.iter().copied().chain(inline.iter()) {
        by_id.entry(d.id()).or_default().push(d);
    }
    let mut turns: Vec<Vec<&Document>> = by_id.into_values().collect();
    for t in &mut turns {
        t.sort_by_key(|d| (!d.live, std::cmp::Reverse((d.revision(), d.version))));
    }
    turns.sort_by_key(|t| (ms(&t[0].value, &["createdAt"]), t[0].id()));
    let mut models: ChangeTracker<String> = ChangeTracker::model();
    let mut modes: ChangeTracker<String> = ChangeTracker::new("chat mode");
    for versions in turns {
        let mut seen = Collapse::default();
        for d in versions {
            seen.next_version();
            // the chat mode the prompt was sent in, when it differs from the previous
            // turn's (the first one too), as the model rows follow the model
            if d.live {
                let mode = chat_mode(&d.value);
                if let Some(text) = (!mode.is_empty()).then(|| modes.observe(mode)).flatten() {
                    emit(
                        Row::system(AGENT, text)
                            .at(ms(&d.value, &["request", "createdAt"])
                                .or_else(|| ms(&d.value, &["createdAt"])))
                            .model(turn_model(&d.value).as_str())
                            .locator(d.place.locator())
                            .state(state_of(
                                d,
                                // the mode is the request's: its part's deletion counts
                                deletion(d.value.get("deletedAt")).is_some()
                                    || deletion(
                                        d.value.get("request").and_then(|r| r.get("deletedAt")),
                                    )
                                    .is_some(),
                                live,
                            )),
                    );
                }
            }
            let rows = turn_rows(d, live);
            let model = turn_model(&d.value);
            let mut model_row = None;
            if d.live && !model.is_empty() {
                if let Some(text) = models.observe(model.clone()) {
                    model_row = Some(
                        Row::system(AGENT, text)
                            .at(ms(&d.value, &["response", "createdAt"])
                                .or_else(|| ms(&d.value, &["createdAt"])))
                            .model(model.as_str())
                            .locator(d.place.locator())
                            .state(state_of(
                                d,
                                // the model is the response's: its part's deletion counts
                                deletion(d.value.get("deletedAt")).is_some()
                                    || deletion(
                                        d.value.get("response").and_then(|r| r.get("deletedAt")),
                                    )
                                    .is_some(),
                                live,
                            )),
                    );
                }
            }
            for r in rows {
                // the model row follows the prompt, before the reply it describes
                if r.turn_type != TurnType::User {
                    if let Some(m) = model_row.take() {
                        emit(m);
                    }
                }
                if seen.first(&r) {
                    emit(r);
                }
            }
            if let Some(m) = model_row.take() {
                emit(m);
            }
        }
    }
    for d in &g.legacy {
        legacy_rows(sid, d, live, emit);
    }
}

/// True for a value that says something: not null, not an empty (or blank) string, array
/// or object.
fn is_set(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
        _ => true,
    }
}

/// A `file:` URI as its path; anything else as written.
fn shown_path(uri: &str) -> String {
    if uri.starts_with("file:") {
        chat_rows::uri::to_path(uri).unwrap_or_else(|| uri.to_string())
    } else {
        uri.to_string()
    }
}

/// The `working set:` text of one entry of a session's `workingSet`: a URI or path as a
/// path (`file:` URIs through `chat_rows::uri::to_path`); a document its URL field
/// (`fileUrl`, `uri`, `url`, `path`) as a path and its other fields as `key=value`.
fn working_set_text(e: &Value) -> String {
    let body = match e {
        Value::String(u) => shown_path(u),
        Value::Object(m) => {
            let url = ["fileUrl", "fileUri", "uri", "url", "path"]
                .iter()
                .find_map(|k| m.get(*k).and_then(Value::as_str).map(|u| (*k, u)));
            let rest: serde_json::Map<String, Value> = m
                .iter()
                .filter(|(k, _)| url.is_none_or(|(u, _)| u != k.as_str()))
                .map(|(k, x)| (k.clone(), x.clone()))
                .collect();
            let f = fields_of(&Value::Object(rest), true);
            let pairs: Vec<(&str, &str)> =
                f.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
            let kv = system::key_values(&pairs);
            match url {
                Some((_, u)) if kv.is_empty() => shown_path(u),
                Some((_, u)) => format!("{} {kv}", shown_path(u)),
                None if kv.is_empty() => "{}".to_string(),
                None => kv,
            }
        }
        other => system::quote(&without_secrets(other).to_string()),
    };
    format!("working set: {body}")
}

/// The rows of a session document's `input` (a draft never sent: `draft input (never
/// sent): <text>`) and `workingSet` (`working set: <path>` per entry), at the session's
/// time; its inline `turns` that have a turn's shape are added to `inline` (read as turn
/// documents, at the session's place), any other entry is an `unknown inline turn:` row.
/// Real stores hold null and `[]` there: only values that say something give rows, and a
/// text already in `said` (another revision's) is not repeated.
fn session_fields(
    d: &Document,
    inline: &mut Vec<Document>,
    said: &mut HashSet<String>,
    live: &LiveDocs,
    emit: &mut dyn FnMut(Row),
) {
    let v = &d.value;
    let at = ms(v, &["createdAt"]).or_else(|| ms(v, &["_modified"]));
    let loc = d.place.locator();
    let state = state_of(d, false, live);
    let mut say = |text: String| {
        if said.insert(text.clone()) {
            emit(
                Row::system(AGENT, text)
                    .at(at)
                    .locator(loc.as_str())
                    .state(state),
            );
        }
    };
    if let Some(input) = v.get("input").filter(|x| is_set(x)) {
        say(format!(
            "draft input (never sent): {}",
            value_text(Some(input))
        ));
    }
    match v.get("workingSet") {
        Some(Value::Array(entries)) => {
            for e in entries.iter().filter(|e| is_set(e)) {
                say(working_set_text(e));
            }
        }
        Some(other) if is_set(other) => say(working_set_text(other)),
        _ => {}
    }
    let turns: &[Value] = match v.get("turns") {
        Some(Value::Array(ts)) => ts,
        Some(other) if is_set(other) => std::slice::from_ref(other),
        _ => &[],
    };
    for (i, t) in turns.iter().enumerate() {
        if t.is_object() && is_turn(t) {
            // the same inline turn in two revisions is two versions of one turn
            let id = match s(t, &["id"]) {
                "" => format!("{} turns[{i}]", d.id()),
                id => format!("inline turn {id}"),
            };
            inline.push(Document {
                map: d.map.clone(),
                map_id: d.map_id,
                key: Value::String(id),
                value: t.clone(),
                place: d.place.clone(),
                version: d.version,
                live: d.live,
            });
        } else if is_set(t) {
            let data = match t {
                Value::String(x) => x.clone(),
                other => without_secrets(other).to_string(),
            };
            say(format!("unknown inline turn: {}", system::quote(&data)));
        }
    }
}

/// A field's value as row text: a string as written, another value as compact JSON
/// (secret-named keys dropped); empty for null and absent fields.
fn value_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => without_secrets(other).to_string(),
    }
}

/// The chat mode a turn's prompt was sent in: `request.chatMode`, else the response's
/// (`Agent`, `Ask`, ...); empty when neither is set.
fn chat_mode(v: &Value) -> String {
    ["request", "response"]
        .iter()
        .map(|p| value_text(v.get(p).and_then(|x| x.get("chatMode"))))
        .find(|m| !m.trim().is_empty())
        .unwrap_or_default()
}

/// The `turn: agent=workspace rating=1` text of a turn's `request.agent` (and a
/// `response.agent` that differs) and its `rating`, only the keys set (a rating of 0 is
/// the plugin's "not rated", written on every turn); None when none is.
fn turn_fields_text(v: &Value) -> Option<String> {
    let agent = v.get("request").and_then(|r| r.get("agent"));
    let resp_agent = v
        .get("response")
        .and_then(|r| r.get("agent"))
        .filter(|a| !a.is_null() && Some(*a) != agent);
    let rating = v
        .get("rating")
        .filter(|r| !(r.is_null() || r.as_i64() == Some(0) || r.as_f64() == Some(0.0)));
    let mut fields = serde_json::Map::new();
    for (k, x) in [
        ("agent", agent),
        ("response.agent", resp_agent),
        ("rating", rating),
    ] {
        if let Some(x) = x.filter(|x| !x.is_null()) {
            fields.insert(k.to_string(), x.clone());
        }
    }
    let f = fields_of(&Value::Object(fields), false);
    let pairs: Vec<(&str, &str)> = f.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
    let kv = system::key_values(&pairs);
    (!kv.is_empty()).then(|| format!("turn: {kv}"))
}

/// The time a `deletedAt` names, and its text: `(Some(time), "2026-...Z")` for epoch
/// milliseconds, `(None, <the value as written>)` for anything else; None when the field
/// is absent or null.
fn deletion(v: Option<&Value>) -> Option<(Option<Timestamp>, String)> {
    let v = v.filter(|x| !x.is_null())?;
    let t = v
        .as_i64()
        .filter(|m| *m > 0)
        .and_then(Timestamp::from_epoch_millis);
    let text = match (t, v) {
        (Some(t), _) => t.to_string(),
        (None, Value::String(s)) => s.clone(),
        (None, other) => other.to_string(),
    };
    Some((t, text))
}

pub use chat_rows::secrets::names_secret;

/// How deep [`fields_of`] and [`without_secrets`] descend; deeper values are cut.
const MAX_FIELD_DEPTH: usize = 16;

/// A copy of `v` without the secret-named keys of its objects (see [`names_secret`]),
/// at any depth up to 16 levels (deeper values become `"…"`).
pub fn without_secrets(v: &Value) -> Value {
    fn go(v: &Value, depth: usize) -> Value {
        match v {
            Value::Object(m) if depth >= MAX_FIELD_DEPTH && !m.is_empty() => "…".into(),
            Value::Array(a) if depth >= MAX_FIELD_DEPTH && !a.is_empty() => "…".into(),
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(k, _)| !names_secret(k))
                    .map(|(k, x)| (k.clone(), go(x, depth + 1)))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.iter().map(|x| go(x, depth + 1)).collect()),
            other => other.clone(),
        }
    }
    go(v, 0)
}

/// The fields of a document or JSON object as written, as `(dotted key, text)` pairs:
/// nested objects give dotted keys (`status.state`), arrays their compact JSON, strings
/// their text, numbers and booleans their JSON; null fields carry nothing and are left
/// out, and so are secret-named keys (see [`names_secret`]) and Nitrite's own `_` fields
/// when `skip_underscore`.
pub fn fields_of(v: &Value, skip_underscore: bool) -> Vec<(String, String)> {
    fn go(prefix: &str, v: &Value, depth: usize, out: &mut Vec<(String, String)>) {
        match v {
            Value::Null => {}
            Value::Object(m) if depth < MAX_FIELD_DEPTH && !m.is_empty() => {
                for (k, x) in m {
                    if names_secret(k) {
                        continue;
                    }
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    go(&key, x, depth + 1, out);
                }
            }
            Value::String(s) => out.push((prefix.to_string(), s.clone())),
            other => out.push((prefix.to_string(), without_secrets(other).to_string())),
        }
    }
    let mut out = Vec::new();
    match v.as_object() {
        Some(m) => {
            for (k, x) in m {
                if (skip_underscore && k.starts_with('_')) || names_secret(k) {
                    continue;
                }
                go(k, x, 1, &mut out);
            }
        }
        None => go("value", v, 0, &mut out),
    }
    out
}

/// [`fields_of`] of the entries of an object, in the order given.
fn fields_of_entries(entries: &[(String, Value)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (k, x) in entries {
        if names_secret(k) {
            continue;
        }
        let one = serde_json::Value::Object([(k.clone(), x.clone())].into_iter().collect());
        out.extend(fields_of(&one, false));
    }
    out
}

/// A field that holds an object either as a nested document or as a JSON string of one:
/// its entries (in the order written, for a JSON string); any other non-null value as
/// it is (`Err`); None for null or an empty string.
fn object_or_text(v: Option<&Value>) -> Option<Result<Vec<(String, Value)>, Value>> {
    match v? {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => {
            Some(crate::decode::ordered_entries(s).ok_or_else(|| Value::String(s.clone())))
        }
        Value::Object(m) => Some(Ok(m.iter().map(|(k, x)| (k.clone(), x.clone())).collect())),
        other => Some(Err(other.clone())),
    }
}

/// The `permission decision:` text of a turn's `confirmationRequest` (`confirmation
/// title="Run command?" message="rm -rf build"`) or `confirmationResponse`
/// (`accepted=false`): the object's fields as written, secret-named keys left out; a
/// value that is no object is quoted as written.
fn confirmation_text(request: bool, v: &Result<Vec<(String, Value)>, Value>) -> String {
    let body = match v {
        Ok(entries) => {
            let f = fields_of_entries(entries);
            let pairs: Vec<(&str, &str)> =
                f.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
            let kv = system::key_values(&pairs);
            if kv.is_empty() { "{}".to_string() } else { kv }
        }
        Err(Value::String(s)) => serde_json::to_string(&system::quote(s)).unwrap_or_default(),
        Err(other) => without_secrets(other).to_string(),
    };
    if request {
        system::permission_decision(format!("confirmation {body}"))
    } else {
        system::permission_decision(body)
    }
}

/// The rows of one turn document (user, assistant, thinking, tool and system rows).
///
/// A part with its own `deletedAt` (`request.deletedAt`, `response.deletedAt`) makes the
/// rows that part gives `deleted`; the turn's `deletedAt` makes all of them `deleted`.
/// Each deletion time is one row of its own (`turn deleted: at=...`, `request deleted:
/// at=...`, `response deleted: at=...`), at that time.
pub fn turn_rows(d: &Document, live: &LiveDocs) -> Vec<Row> {
    let v = &d.value;
    let del_turn = deletion(v.get("deletedAt"));
    let del_req = deletion(v.get("request").and_then(|r| r.get("deletedAt")));
    let del_resp = deletion(v.get("response").and_then(|r| r.get("deletedAt")));
    let state = state_of(d, del_turn.is_some(), live);
    let state_req = state_of(d, del_turn.is_some() || del_req.is_some(), live);
    let state_resp = state_of(d, del_turn.is_some() || del_resp.is_some(), live);
    let model = turn_model(v);
    let loc = d.place.locator();
    let mk_in = |st: RecordState| {
        let model = model.as_str();
        let loc = loc.as_str();
        move |tt: TurnType, text: String, at: Option<Timestamp>| {
            Row::new(AGENT, tt, text)
                .at(at)
                .model(model)
                .locator(loc)
                .state(st)
        }
    };
    let mk = mk_in(state);
    let mk_req = mk_in(state_req);
    let mk_resp = mk_in(state_resp);
    let mut out = Vec::new();
    let t_req = ms(v, &["request", "createdAt"]).or_else(|| ms(v, &["createdAt"]));
    let t_resp = ms(v, &["response", "createdAt"]).or(t_req);
    let string_content = s(v, &["request", "stringContent"]);
    let req_contents = s(v, &["request", "contents"]);
    let req_recs = if req_contents.is_empty() {
        Ok(Vec::new())
    } else {
        records(req_contents)
    };
    let mut prompt = string_content.to_string();
    if prompt.is_empty() {
        if let Ok(recs) = &req_recs {
            prompt = recs
                .iter()
                .filter(|r| r.kind == "Markdown")
                .map(|r| s(&r.data, &["text"]))
                .collect::<Vec<_>>()
                .join("\n");
        }
    }
    if !prompt.is_empty() {
        out.push(mk_req(TurnType::User, prompt, t_req));
    }
    // the request's other records: the files it references (`FixedContextPanel`, a
    // hidden `References`), and any record of another type; its `Markdown` records are
    // the prompt above
    match req_recs {
        Err(e) => out.push(mk_req(
            TurnType::System,
            system::parser(format!("request.contents is not readable ({e})")),
            t_req,
        )),
        Ok(recs) => record_rows(
            &recs,
            &mk_req,
            t_req,
            Side::Request(string_content),
            &mut out,
        ),
    }
    let contents = s(v, &["response", "contents"]);
    let recs = if contents.is_empty() {
        Ok(Vec::new())
    } else {
        records(contents)
    };
    match recs {
        Err(e) => out.push(mk_resp(
            TurnType::System,
            system::parser(format!("response.contents is not readable ({e})")),
            t_resp,
        )),
        Ok(recs) => record_rows(&recs, &mk_resp, t_resp, Side::Response, &mut out),
    }
    // the tool-approval request and its answer: the spec lets both parts carry both
    for (key, request) in [
        ("confirmationRequest", true),
        ("confirmationResponse", false),
    ] {
        for (side, mk_side, at) in [("response", &mk_resp, t_resp), ("request", &mk_req, t_req)] {
            if let Some(c) = object_or_text(v.get(side).and_then(|x| x.get(key))) {
                out.push(mk_side(
                    TurnType::System,
                    confirmation_text(request, &c),
                    at,
                ));
            }
        }
    }
    let status = s(v, &["response", "status"]);
    if !NOT_ERRORS.iter().any(|n| status.eq_ignore_ascii_case(n)) {
        let text = format!(
            "turn error: {}",
            system::key_values(&[
                ("status", status),
                ("message", s(v, &["response", "stringContent"]))
            ])
        );
        out.push(mk_resp(TurnType::System, text, t_resp));
    }
    for (side, mk_side) in [("request", &mk_req), ("response", &mk_resp)] {
        if let Some(Value::Array(ns)) = v.get(side).and_then(|r| r.get("notifications")) {
            for n in ns {
                let text = match n {
                    Value::String(s) => s.clone(),
                    other => without_secrets(other).to_string(),
                };
                out.push(mk_side(
                    TurnType::System,
                    format!("notification: {}", system::quote(&text)),
                    t_resp,
                ));
            }
        }
    }
    // the agent the prompt was addressed to and the user's rating, at the turn's time
    if let Some(text) = turn_fields_text(v) {
        out.push(mk(TurnType::System, text, ms(v, &["createdAt"]).or(t_req)));
    }
    // the deletion times, each at its own time
    for (what, del) in [
        ("turn", &del_turn),
        ("request", &del_req),
        ("response", &del_resp),
    ] {
        if let Some((at, text)) = del {
            out.push(
                mk(TurnType::System, format!("{what} deleted: at={text}"), *at)
                    .state(state_of(d, true, live)),
            );
        }
    }
    out
}

/// Which part of a turn a list of records comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side<'a> {
    /// `request.contents`, with `request.stringContent`: its `Markdown` records are the
    /// prompt (only one that differs from a non-empty `stringContent` is a row).
    Request(&'a str),
    /// `response.contents` (and a legacy outer document).
    Response,
}

/// How deep `Hide` records (a record wrapped in another) are followed.
const MAX_HIDE_DEPTH: usize = 4;

/// `file referenced: <path>` (a `file:` URI as its path; another reference as written).
fn reference_text(uri: &str, note: &str) -> String {
    format!("file referenced: {}{note}", shown_path(uri))
}

/// The rows of one `References` entry: a JSON string or object `{"type":"file",
/// "reference":{"uri":...}}`; an entry naming no URI is one `reference:` row of its
/// fields as written.
fn reference_rows(
    e: &Value,
    mk: &dyn Fn(TurnType, String, Option<Timestamp>) -> Row,
    at: Option<Timestamp>,
    uris: &mut Vec<String>,
    out: &mut Vec<Row>,
) {
    let parsed;
    let e = match e {
        Value::String(t) => match chat_rows::json::from_str::<Value>(t) {
            Ok(x) => {
                parsed = x;
                &parsed
            }
            Err(_) => e,
        },
        other => other,
    };
    let uri = [
        &["reference", "uri"][..],
        &["reference", "path"],
        &["reference", "fsPath"],
        &["reference"],
        &["uri"],
        &["path"],
    ]
    .iter()
    .map(|p| s(e, p))
    .find(|x| !x.is_empty())
    .unwrap_or(if let Value::String(x) = e { x } else { "" });
    if uri.is_empty() {
        out.push(mk(
            TurnType::System,
            format!(
                "reference: {}",
                system::quote(&without_secrets(e).to_string())
            ),
            at,
        ));
    } else {
        uris.push(uri.to_string());
        out.push(mk(TurnType::System, reference_text(uri, ""), at));
    }
}

fn record_rows(
    recs: &[Record],
    mk: &dyn Fn(TurnType, String, Option<Timestamp>) -> Row,
    at: Option<Timestamp>,
    side: Side<'_>,
    out: &mut Vec<Row>,
) {
    let agent_mode = recs.iter().any(|r| r.kind == "AgentRound");
    for r in recs {
        one_record(r, agent_mode, mk, at, side, 0, out);
    }
}

#[allow(clippy::too_many_arguments)]
fn one_record(
    r: &Record,
    agent_mode: bool,
    mk: &dyn Fn(TurnType, String, Option<Timestamp>) -> Row,
    at: Option<Timestamp>,
    side: Side<'_>,
    depth: usize,
    out: &mut Vec<Row>,
) {
    match r.kind.as_str() {
        "AgentRound" => {
            let reply = s(&r.data, &["reply"]);
            if !reply.is_empty() {
                out.push(mk(TurnType::Assistant, reply.to_string(), at));
            }
            for key in ["toolCalls", "toolInvocations"] {
                if let Some(Value::Array(calls)) = r.data.get(key) {
                    for c in calls {
                        let name = [
                            s(c, &["name"]),
                            s(c, &["toolName"]),
                            s(c, &["function", "name"]),
                        ]
                        .into_iter()
                        .find(|x| !x.is_empty())
                        .unwrap_or("");
                        let id = [s(c, &["id"]), s(c, &["toolCallId"])]
                            .into_iter()
                            .find(|x| !x.is_empty())
                            .unwrap_or("");
                        let args = c
                            .get("arguments")
                            .or_else(|| c.get("input"))
                            .or_else(|| c.get("function").and_then(|f| f.get("arguments")))
                            .map(|a| match a {
                                Value::String(s) => s.clone(),
                                other => other.to_string(),
                            })
                            .unwrap_or_default();
                        out.push(mk(TurnType::ToolUse, args, at).tool(name, id));
                        if let Some(res) = c.get("result").filter(|x| !x.is_null()) {
                            let text = match res {
                                Value::String(s) => s.clone(),
                                other => other.to_string(),
                            };
                            out.push(mk(TurnType::ToolResult, text, at).tool(name, id));
                        }
                    }
                }
            }
        }
        // the request's prompt (taken above), and in agent mode the response's too: the
        // prompt again (collapsed with it), or a prompt text the turn does not hold
        "Markdown" if matches!(side, Side::Request(_)) => {
            let text = s(&r.data, &["text"]);
            if let Side::Request(sc) = side {
                if !sc.is_empty() && !text.is_empty() && text != sc {
                    out.push(mk(TurnType::User, text.to_string(), at));
                }
            }
        }
        "Markdown" => {
            let text = s(&r.data, &["text"]);
            if !text.is_empty() {
                let tt = if agent_mode {
                    TurnType::User
                } else {
                    TurnType::Assistant
                };
                out.push(mk(tt, text.to_string(), at));
            }
        }
        "Thinking" => {
            let text = s(&r.data, &["content"]);
            if !text.is_empty() {
                out.push(mk(TurnType::Thinking, text.to_string(), at));
            }
        }
        "PendingChanges" | "AskQuestion" | "Notification" => {
            let label = match r.kind.as_str() {
                "PendingChanges" => "pending changes",
                "AskQuestion" => "ask question",
                _ => "notification",
            };
            let text = match &r.data {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            out.push(mk(
                TurnType::System,
                format!("{label}: {}", system::quote(&text)),
                at,
            ));
        }
        "SubTurn" => {
            let prompt = s(&r.data, &["prompt"]);
            let reply = s(&r.data, &["reply"]);
            if !prompt.is_empty() {
                out.push(mk(
                    TurnType::System,
                    format!("sub-turn prompt: {prompt}"),
                    at,
                ));
            }
            if !reply.is_empty() {
                out.push(mk(
                    TurnType::Assistant,
                    format!("sub-turn reply: {reply}"),
                    at,
                ));
            }
            // whatever else the record holds, as written
            let rest = match &r.data {
                Value::Object(m) => Value::Object(
                    m.iter()
                        .filter(|(k, x)| {
                            !(x.is_null()
                                || (matches!(k.as_str(), "prompt" | "reply")
                                    && x.as_str().is_some()))
                        })
                        .map(|(k, x)| (k.clone(), x.clone()))
                        .collect(),
                ),
                other => other.clone(),
            };
            let empty = match &rest {
                Value::Object(m) => m.is_empty(),
                Value::Null => true,
                Value::String(t) => t.is_empty(),
                _ => false,
            };
            if !empty || (prompt.is_empty() && reply.is_empty()) {
                let text = match &rest {
                    Value::String(t) => t.clone(),
                    other => without_secrets(other).to_string(),
                };
                out.push(mk(
                    TurnType::System,
                    format!("sub-turn: {}", system::quote(&text)),
                    at,
                ));
            }
        }
        "References" => {
            let mut uris = Vec::new();
            match &r.data {
                Value::Array(entries) => {
                    for e in entries {
                        reference_rows(e, mk, at, &mut uris, out);
                    }
                }
                Value::Null => {}
                other => reference_rows(other, mk, at, &mut uris, out),
            }
        }
        "FixedContextPanel" => {
            let mut uris = Vec::new();
            if let Some(Value::Array(entries)) = r.data.get("references") {
                for e in entries {
                    reference_rows(e, mk, at, &mut uris, out);
                }
            }
            let current = s(&r.data, &["currentFileUri"]);
            if !current.is_empty() && !uris.iter().any(|u| u == current) {
                out.push(mk(
                    TurnType::System,
                    reference_text(current, " (current file)"),
                    at,
                ));
            }
            // other fields of the panel, as written
            if let Value::Object(m) = &r.data {
                let rest: serde_json::Map<String, Value> = m
                    .iter()
                    .filter(|(k, x)| {
                        !x.is_null() && !matches!(k.as_str(), "references" | "currentFileUri")
                    })
                    .map(|(k, x)| (k.clone(), x.clone()))
                    .collect();
                if !rest.is_empty() {
                    let text = without_secrets(&Value::Object(rest)).to_string();
                    out.push(mk(
                        TurnType::System,
                        format!("context panel: {}", system::quote(&text)),
                        at,
                    ));
                }
            } else if !r.data.is_null() {
                unknown_record(r, mk, at, out);
            }
        }
        // a record the plugin hides from the chat view: the record it wraps
        "Hide" if depth < MAX_HIDE_DEPTH && r.data.get("type").is_some() => {
            let mut inner = Vec::new();
            match records_from_value(&r.data, &mut inner) {
                Ok(()) => {
                    for x in &inner {
                        one_record(x, agent_mode, mk, at, side, depth + 1, out);
                    }
                }
                Err(_) => unknown_record(r, mk, at, out),
            }
        }
        _ => unknown_record(r, mk, at, out),
    }
}

/// `unknown record type <type>: <data>` (the data cut as `parser:` rows cut theirs;
/// `(none)` when the record names no type).
fn unknown_record(
    r: &Record,
    mk: &dyn Fn(TurnType, String, Option<Timestamp>) -> Row,
    at: Option<Timestamp>,
    out: &mut Vec<Row>,
) {
    let kind = if r.kind.is_empty() {
        "(none)"
    } else {
        r.kind.as_str()
    };
    let data = match &r.data {
        Value::String(t) => t.clone(),
        other => without_secrets(other).to_string(),
    };
    out.push(mk(
        TurnType::System,
        format!("unknown record type {kind}: {}", system::quote(&data)),
        at,
    ));
}

/// A pre-1.6 outer document: every record of every entry, one session.
fn legacy_rows(sid: &str, d: &Document, live: &LiveDocs, emit: &mut dyn FnMut(Row)) {
    let at = ms(&d.value, &["createdAt"]).or_else(|| ms(&d.value, &["_modified"]));
    let state = state_of(d, false, live);
    let loc = d.place.locator();
    let mut recs = Vec::new();
    let mut bad = None;
    if let Some(m) = d.value.as_object() {
        for v in m.values() {
            if v.get("type").is_some() {
                if let Err(e) = records_from_value(v, &mut recs) {
                    bad = Some(e);
                }
            }
        }
    }
    emit(
        Row::system(
            AGENT,
            system::session_start(&[("format", "legacy outer document"), ("id", sid)]),
        )
        .at(at)
        .locator(loc.as_str())
        .state(state),
    );
    let agent_mode = recs.iter().any(|r| r.kind == "AgentRound");
    let mk = |tt: TurnType, text: String, at: Option<Timestamp>| {
        Row::new(AGENT, tt, text)
            .at(at)
            .locator(loc.as_str())
            .state(state)
    };
    let mut rows = Vec::new();
    if agent_mode {
        for r in recs.iter().filter(|r| r.kind == "Markdown") {
            let text = s(&r.data, &["text"]);
            if !text.is_empty() {
                rows.push(mk(TurnType::User, text.to_string(), at));
            }
        }
    }
    record_rows(&recs, &mk, at, Side::Response, &mut rows);
    if let Some(e) = bad {
        rows.push(mk(
            TurnType::System,
            system::parser(format!("legacy document record not readable ({e})")),
            at,
        ));
    }
    let mut seen = Collapse::default();
    for r in rows {
        if seen.first(&r) {
            emit(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_are_normalised() {
        assert_eq!(normalize_model("Claude Haiku 4.5"), "claude-haiku-4-5");
        assert_eq!(normalize_model("claude-opus-4.5"), "claude-opus-4-5");
        assert_eq!(normalize_model("gpt-4.1"), "gpt-4.1");
        assert_eq!(normalize_model("Gemini 2.5 Pro"), "Gemini 2.5 Pro");
    }

    #[test]
    fn auto_is_a_route_not_a_model() {
        use crate::decode::{Document, NitriteFile, Place};
        let turn = |request: serde_json::Value, response: serde_json::Value| {
            serde_json::json!({"id": "t1", "sessionId": "s1", "createdAt": 1767261600000i64,
                "request": request, "response": response})
        };
        let auto_only = turn(
            serde_json::json!({"stringContent": "hi", "model": "auto", "modelInformation": null}),
            serde_json::json!({"model": null, "modelInformation": null}),
        );
        assert_eq!(turn_model(&auto_only), "");
        assert_eq!(
            turn_model(&turn(
                serde_json::json!({"model": "auto"}),
                serde_json::json!({"model": "gpt-4.1"})
            )),
            "gpt-4.1"
        );
        assert_eq!(
            turn_model(&turn(
                serde_json::json!({"model": "claude-opus-4.5"}),
                serde_json::json!({"modelInformation": {"modelName": "Auto"}})
            )),
            "claude-opus-4-5"
        );
        let file = NitriteFile {
            documents: vec![Document {
                map: "com.github.copilot.agent.session.persistence.nitrite.entity.NtAgentTurn"
                    .into(),
                map_id: 7,
                key: serde_json::json!("1"),
                value: auto_only,
                place: Place::Page {
                    chunk: 1,
                    page: 0x40000002a96,
                    entry: 0,
                },
                version: 1,
                live: true,
            }],
            ..NitriteFile::default()
        };
        let rows = file_rows(&file, "x.db", "chat-agent-sessions", "");
        let got: Vec<(TurnType, &str, &str)> = rows
            .iter()
            .map(|r| (r.turn_type, r.text.as_str(), r.model.as_str()))
            .collect();
        assert_eq!(got, [(TurnType::User, "hi", "")]);
    }

    fn rec(kind: &str, data: serde_json::Value) -> serde_json::Value {
        let inner = serde_json::json!({"type": kind, "data": data.to_string()}).to_string();
        serde_json::json!({"type": "Value", "value": inner})
    }

    #[test]
    fn legacy_outer_document_is_one_session() {
        use crate::decode::{Document, NitriteFile, Place};
        let value = serde_json::json!({
            "6c1f0000-0000-4000-8000-000000000001": rec("Markdown", serde_json::json!({"text": "rename the module"})),
            "6c1f0000-0000-4000-8000-000000000002": rec("AgentRound", serde_json::json!({"roundId": 1, "reply": "Renamed it."})),
            "6c1f0000-0000-4000-8000-000000000003": rec("AgentRound", serde_json::json!({"roundId": 2, "reply": "Renamed it."})),
            "_id": "42",
            "_modified": 1767261600000i64
        });
        let file = NitriteFile {
            documents: vec![Document {
                map: "com.github.copilot.agent.session.persistence.nitrite.entity.NtAgentSessionV1"
                    .into(),
                map_id: 5,
                key: serde_json::json!("42"),
                value,
                place: Place::Page {
                    chunk: 2,
                    page: 0x8000002a96,
                    entry: 0,
                },
                version: 2,
                live: true,
            }],
            ..NitriteFile::default()
        };
        let rows = file_rows(&file, "old.db", "chat-agent-sessions", "");
        let got: Vec<(TurnType, &str, &str)> = rows
            .iter()
            .map(|r| (r.turn_type, r.text.as_str(), r.source_locator.as_str()))
            .collect();
        let loc = "chunk 2 page 0x8000002a96 entry 0";
        assert_eq!(
            got,
            [
                (
                    TurnType::System,
                    "session start: format=\"legacy outer document\" id=42",
                    loc
                ),
                (TurnType::User, "rename the module", loc),
                (TurnType::Assistant, "Renamed it.", loc),
            ]
        );
        assert_eq!(
            rows[0].timestamp.unwrap().to_string(),
            "2026-01-01T10:00:00.000000Z"
        );
        assert!(rows.iter().all(|r| r.session_id == "42"));
    }

    #[test]
    fn legacy_tool_calls_with_the_same_text_are_each_kept() {
        use crate::decode::{Document, NitriteFile, Place};
        let call = |name: &str, id: &str| serde_json::json!({"name": name, "id": id, "arguments": "{}", "result": "No errors"});
        let value = serde_json::json!({
            "6c1f0000-0000-4000-8000-000000000001": rec("AgentRound", serde_json::json!({"roundId": 1, "reply": "",
                "toolCalls": [call("get_errors", "call_1"), call("list_dir", "call_2")]})),
            "6c1f0000-0000-4000-8000-000000000002": rec("AgentRound", serde_json::json!({"roundId": 2, "reply": "",
                "toolCalls": [call("get_errors", "call_1")]})),
            "_id": "42"
        });
        let file = NitriteFile {
            documents: vec![Document {
                map: "com.github.copilot.agent.session.persistence.nitrite.entity.NtAgentSessionV1"
                    .into(),
                map_id: 5,
                key: serde_json::json!("42"),
                value,
                place: Place::Page {
                    chunk: 2,
                    page: 0x8000002a96,
                    entry: 0,
                },
                version: 2,
                live: true,
            }],
            ..NitriteFile::default()
        };
        let rows = file_rows(&file, "old.db", "chat-agent-sessions", "");
        let got: Vec<(TurnType, &str, &str, &str)> = rows
            .iter()
            .map(|r| {
                (
                    r.turn_type,
                    r.tool_name.as_str(),
                    r.tool_use_id.as_str(),
                    r.text.as_str(),
                )
            })
            .collect();
        // the second round's byte-copy of call_1 is collapsed; list_dir is not
        assert_eq!(
            got,
            [
                (
                    TurnType::System,
                    "",
                    "",
                    "session start: format=\"legacy outer document\" id=42"
                ),
                (TurnType::ToolUse, "get_errors", "call_1", "{}"),
                (TurnType::ToolResult, "get_errors", "call_1", "No errors"),
                (TurnType::ToolUse, "list_dir", "call_2", "{}"),
                (TurnType::ToolResult, "list_dir", "call_2", "No errors"),
            ]
        );
    }
}
