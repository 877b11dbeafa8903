//! The IDE: `cursorDiskKV` and `ItemTable` of the global `state.vscdb`, and the
//! workspace databases.
//!
//! # Why the reading is shaped so
//!
//! The global database holds every chat of every project and is never vacuumed, so it
//! reaches tens of gigabytes. The composers are walked one at a time through the key
//! index (`composerData:` keys in key order); each composer's bubbles are fetched by
//! their key range (`bubbleId:<composerId>:`), mapped and handed on before the next
//! composer is read. What is held across composers is small: the composer ids (and
//! which have bubbles, for the `agentKv` rows), and the tool-call ids that name
//! sub-agents.
//!
//! That is the in-memory path, through SQLite's key index. A global database above
//! [`PAGED_FROM_BYTES`] is read page by page instead ([`paged`]): no index there, so the
//! composers are read in batches of bounded size, each batch one walk of the table, and
//! the same row code runs on each batch's records.
//!
//! Deleted records come from [`sqlite_evidence`] (older page versions, freelist pages,
//! freeblocks), grouped by the composer id in their keys: a chat whose `composerData`
//! is gone still comes back from its bubbles, ordered by the bubble headers of an older
//! `composerData` when one survives, else by bubble time.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use chat_rows::system::{ChangeTracker, ModelSpec};
use chat_rows::{Evidence, RecordState, Row, Timestamp, TurnType, system};
use serde_json::Value;
use sqlite_evidence::Database;
use state_vscdb::{Item, KvTable, StateDb};

use super::{Out, Place, iso, str_of, sys, turn};
use crate::decode::{self, as_written, bubble_time, json_time, rich_text};

pub mod paged;

pub use paged::{PAGED_BATCH_BYTES, PAGED_FROM_BYTES, PAGED_MAX_WALKS, Paging};

/// The table of Cursor's chats.
pub const KV: &str = "cursorDiskKV";
/// The 3.0+ chat index (global `ItemTable`).
pub const HEADERS_KEY: &str = "composer.composerHeaders";
/// The pre-3.0 chat index (workspace `ItemTable`).
pub const WORKSPACE_INDEX_KEY: &str = "composer.composerData";
/// The application state that holds `composerState` (yolo mode, allow lists).
pub const APP_STATE_KEY: &str = "src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser";
/// Prompts without replies (workspace).
pub const PROMPTS_KEY: &str = "aiService.prompts";
/// Generations with times (workspace).
pub const GENERATIONS_KEY: &str = "aiService.generations";
/// Legacy chat tabs (workspace).
pub const AICHAT_KEY: &str = "workbench.panel.aichat.view.aichat.chatdata";

/// The rows of a database that could not be opened: `parser: state.vscdb unreadable:
/// <message>`; a workspace database over the evidence size cap says so and why it was
/// not read (the global database is read page by page instead, see [`paged`]).
pub fn unreadable(err: &sqlite_evidence::Error, out: &mut Out<'_>) {
    let mut text = format!("state.vscdb unreadable: {err}");
    if let sqlite_evidence::Error::Io { source, .. } = err {
        if let Some(chat_rows::evidence::Refusal::TooLarge { .. }) =
            chat_rows::evidence::refusal(source)
        {
            text.push_str(
                "; not read: a workspace database is read whole (only the global database, which grows without bound, is read page by page)",
            );
        }
    }
    out.push(sys(system::parser(text)));
}

fn problems(problems: &[sqlite_evidence::Problem], out: &mut Out<'_>) {
    for r in
        sqlite_evidence::rows::problem_rows(problems, super::AGENT, "", "state.vscdb unreadable: ")
    {
        out.push(r);
    }
}

/// An item's value read as JSON the way Cursor reads it, with `JSON.parse` and no
/// depth limit: a part that begins deeper than serde_json reads
/// ([`chat_rows::json::CAPPED_DEPTH`]) is read as `null` and one `parser:` row says
/// where, so the rest of the item still gives its rows (read strictly, one deep tool
/// result cost a bubble its prompt and reply). `cid` is the session of a `cursorDiskKV`
/// item, `None` for an `ItemTable` one.
fn read_json(
    item: &Item,
    cid: Option<&str>,
    out: &mut Out<'_>,
) -> Result<Value, state_vscdb::Error> {
    let (v, cut) = item.json_capped()?;
    if let Some(cut) = cut {
        out.push(too_deep_row(item, cid, cut));
    }
    Ok(v)
}

/// The row of [`read_json`]'s cut.
fn too_deep_row(item: &Item, cid: Option<&str>, cut: chat_rows::json::DepthCut) -> Row {
    match cid {
        Some(cid) => sys(system::parser(state_vscdb::too_deep_reason(
            KV, &item.key, cut, "Cursor",
        )))
        .session(cid)
        .locator(item.locator_in(KV)),
        None => sys(system::parser(state_vscdb::too_deep_reason(
            "ItemTable",
            &item.key,
            cut,
            "Cursor",
        )))
        .locator(item.locator()),
    }
    .state(item.state)
}

fn kv_error(e: &state_vscdb::Error, out: &mut Out<'_>, at: &str) {
    out.push(sys(system::parser(format!("state.vscdb unreadable: {e}"))).locator(at));
}

/// Reads the global database (or its `.backup`, with `out.secondary` set), page by page
/// above [`PAGED_FROM_BYTES`] (see [`paged`]).
pub fn read_global(path: &Path, evidence: &Evidence, out: &mut Out<'_>) {
    read_global_with(path, evidence, out, Paging::default());
}

/// [`read_global`] with the size from which the database is read page by page, and the
/// batch size of that path, given.
pub fn read_global_with(path: &Path, evidence: &Evidence, out: &mut Out<'_>, paging: Paging) {
    if paged::use_paged(path, evidence, paging) {
        return paged::read_global_paged(path, evidence, out, paging);
    }
    let db = match Database::open(path, evidence) {
        Ok(db) => db,
        Err(e) => return unreadable(&e, out),
    };
    problems(db.problems(), out);
    let mtime = evidence.modified(path);
    let limit = timing_limit(path, evidence);
    let mut projects = workspace_index(path, evidence);
    let state = if db.has_table("ItemTable") {
        match StateDb::from_database(db) {
            Ok(s) => Some(s),
            Err(e) => {
                out.push(sys(system::parser(format!("state.vscdb unreadable: {e}"))));
                return;
            }
        }
    } else {
        // no ItemTable: read the key-value table alone
        return read_kv(&db, limit, &projects, path, out);
    };
    let Some(state) = state else { return };
    let mut items: Vec<Item> = [HEADERS_KEY, APP_STATE_KEY]
        .iter()
        .filter_map(|k| state.item(k).cloned())
        .collect();
    items.extend(carved_items(state.deleted(), &[HEADERS_KEY, APP_STATE_KEY]));
    item_rows_global(&items, mtime, &mut projects, path, out);
    if let Some(db) = state.database() {
        read_kv(db, limit, &projects, path, out);
    }
}

/// The bound of a plausible `timingInfo` time ([`decode::plausible_millis`]): the
/// database's modification time, the newest of the main file's and its `-wal`'s (in WAL
/// mode the main file's time is only that of the last checkpoint).
pub(crate) fn timing_limit(path: &Path, evidence: &Evidence) -> Option<Timestamp> {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let main = evidence.modified(path);
    let wal = evidence.modified(Path::new(&wal));
    match (main, wal) {
        (Some(m), Some(w)) => Some(if w.unix_micros() > m.unix_micros() {
            w
        } else {
            m
        }),
        (m, w) => m.or(w),
    }
}

/// The carved `ItemTable` items of `keys` (the older values of rewritten items and
/// deleted ones, secrets left out), in key then value order: the carver's order differs
/// between the in-memory and the paged path.
fn carved_items(mut items: Vec<Item>, keys: &[&str]) -> Vec<Item> {
    items.retain(|i| keys.contains(&i.key.as_str()));
    items.sort_by(|a, b| (&a.key, &a.value).cmp(&(&b.key, &b.value)));
    items
}

/// The rows of an `ItemTable` key already given (session, turn, time, text): a carved
/// older value repeats most of what the live one says, which gives nothing new; each
/// row a carved value adds is told once.
#[derive(Default)]
struct Given(HashSet<(String, &'static str, Option<i64>, String)>);

impl Given {
    /// True the first time a row is seen: a live item's rows are always given, a
    /// carved one's only when new.
    fn first(&mut self, r: &Row, live: bool) -> bool {
        let key = (
            r.session_id.clone(),
            r.turn_type.as_str(),
            r.timestamp.map(|t| t.unix_micros()),
            r.text.clone(),
        );
        self.0.insert(key) || live
    }
}

/// The `ItemTable` rows of the global database: the 3.0+ index (secondary `session
/// index:` rows; it also gives composers their project) and the grants of
/// `composerState`. `items` are the live items of those keys, then their carved values
/// ([`carved_items`]), which give the same rows `deleted`, at their locator; a row a
/// live value (or an earlier carved one) already gives is left out, and a carved index
/// gives a composer its project only when no live one did.
fn item_rows_global(
    items: &[Item],
    mtime: Option<Timestamp>,
    projects: &mut HashMap<String, String>,
    path: &Path,
    out: &mut Out<'_>,
) {
    let mut given = Given::default();
    let live_of = |item: &Item| item.state == RecordState::Live;
    for item in items.iter().filter(|i| i.key == HEADERS_KEY) {
        let live = live_of(item);
        match read_json(item, None, out) {
            Ok(v) => {
                for h in v
                    .get("allComposers")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let cid = str_of(h, "composerId");
                    let ws = h.get("workspaceIdentifier");
                    // `fsPath`, else the path the URI's other fields give (VS Code
                    // writes `fsPath` only once it was computed; `path` always)
                    let fs = ws
                        .and_then(|w| w.pointer("/uri/fsPath"))
                        .map(as_written)
                        .or_else(|| {
                            ws.and_then(|w| w.get("uri"))
                                .and_then(chat_rows::uri::value_to_path)
                        })
                        .unwrap_or_default();
                    let ws_text = if fs.is_empty() {
                        ws.and_then(|w| w.get("id"))
                            .map(as_written)
                            .unwrap_or_default()
                    } else {
                        fs.clone()
                    };
                    if !fs.is_empty() {
                        if live {
                            projects.insert(cid.clone(), fs.clone());
                        } else {
                            projects.entry(cid.clone()).or_insert_with(|| fs.clone());
                        }
                    }
                    let row = index_row(h, &ws_text)
                        .session(&cid)
                        .project(&fs)
                        .locator(item.locator())
                        .state(if live {
                            RecordState::Secondary
                        } else {
                            item.state
                        });
                    if given.first(&row, live) {
                        out.push(row);
                    }
                }
            }
            Err(e) => out.push(state_vscdb::not_json_row(super::AGENT, "", item, &e)),
        }
    }
    for item in items.iter().filter(|i| i.key == APP_STATE_KEY) {
        let live = live_of(item);
        match read_json(item, None, out) {
            Ok(v) => {
                if let Some(cs) = v.get("composerState") {
                    let from = system::from(state_vscdb::locate::user_relative(path), "file mtime");
                    let mut push = |k: &str, val: String| {
                        let row = sys(system::permission_setting(
                            format!("composerState.{k}"),
                            val,
                            &from,
                        ))
                        .at(mtime)
                        .locator(item.locator())
                        .state(item.state);
                        if given.first(&row, live) {
                            out.push(row);
                        }
                    };
                    if let Some(b) = cs.get("useYoloMode") {
                        push("useYoloMode", as_written(b));
                    }
                    for k in [
                        "yoloCommandAllowlist",
                        "yoloCommandDenylist",
                        "mcpAllowedTools",
                    ] {
                        for e in cs.get(k).and_then(Value::as_array).into_iter().flatten() {
                            push(k, as_written(e));
                        }
                    }
                }
            }
            Err(e) => out.push(state_vscdb::not_json_row(super::AGENT, "", item, &e)),
        }
    }
}

fn index_row(h: &Value, workspace: &str) -> Row {
    let created = h.get("createdAt").and_then(json_time);
    let updated = h.get("lastUpdatedAt").and_then(json_time);
    sys(system::session_index(&[
        ("title", &str_of(h, "name")),
        ("created", &iso(created)),
        ("updated", &iso(updated)),
        ("mode", &str_of(h, "unifiedMode")),
        ("workspace", workspace),
    ]))
    .at(created)
}

/// The composer ids that the workspace databases beside a global database list
/// (`allComposers`, `selectedComposerIds`, `lastFocusedComposerIds`, and the chat tabs
/// of the `workbench.panel.composerChatViewPane.*` keys), each with the folder of that
/// workspace's `workspace.json`.
pub fn workspace_index(global: &Path, evidence: &Evidence) -> HashMap<String, String> {
    let mut map = HashMap::new();
    let Some(user) = crate::locate::user_dir(global) else {
        return map;
    };
    let Ok(dirs) = evidence.read_dir(&user.join("workspaceStorage")) else {
        return map;
    };
    for dir in dirs {
        let db_path = dir.join("state.vscdb");
        if evidence.check(&db_path).is_err() {
            continue;
        }
        let folder = evidence
            .read_optional(&dir.join("workspace.json"))
            .ok()
            .flatten()
            .and_then(|b| state_vscdb::locate::project_from_workspace_json(&b));
        let Some(folder) = folder else { continue };
        let Ok(db) = StateDb::open(&db_path, evidence) else {
            continue;
        };
        if let Some(Ok(v)) = db.json(WORKSPACE_INDEX_KEY) {
            for id in workspace_composer_ids(&v) {
                map.entry(id).or_insert_with(|| folder.clone());
            }
        }
        for item in db.items() {
            if !item.key.starts_with(CHAT_PANE_PREFIX) {
                continue;
            }
            if let Ok((v, _)) = item.json_capped() {
                for id in chat_tab_ids(&v) {
                    map.entry(id).or_insert_with(|| folder.clone());
                }
            }
        }
    }
    map
}

/// The workspace keys of the opened chat panes, `workbench.panel.composerChatViewPane.<paneId>`.
pub const CHAT_PANE_PREFIX: &str = "workbench.panel.composerChatViewPane.";

/// The composer ids a chat pane's value names: its keys `workbench.panel.aichat.view.<composerId>`.
fn chat_tab_ids(v: &Value) -> Vec<String> {
    const TAB: &str = "workbench.panel.aichat.view.";
    v.as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, _)| k.strip_prefix(TAB))
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .collect()
}

fn workspace_composer_ids(v: &Value) -> Vec<String> {
    let mut ids = Vec::new();
    for c in v
        .get("allComposers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        ids.push(str_of(c, "composerId"));
    }
    for k in ["selectedComposerIds", "lastFocusedComposerIds"] {
        for c in v.get(k).and_then(Value::as_array).into_iter().flatten() {
            ids.push(as_written(c));
        }
    }
    ids.retain(|s| !s.is_empty());
    ids
}

/// The composer id and the rest of a `<prefix>:<composerId>:<rest>` key.
fn split_key<'k>(key: &'k str, prefix: &str) -> Option<(&'k str, &'k str)> {
    let rest = key.strip_prefix(prefix)?.strip_prefix(':')?;
    Some(rest.split_once(':').unwrap_or((rest, "")))
}

/// The composer id a `cursorDiskKV` key is grouped under: `composerData:<cid>`,
/// `bubbleId:<cid>:<bid>`, `checkpointId:<cid>:..`, `messageRequestContext:<cid>:..`.
/// A carved record of a key-value table whose value did not survive whole: its bytes
/// that survive and its full size as the record declared it (`None` when the record
/// does not say). `None` for a whole value.
///
/// A bubble larger than a page spills onto overflow pages; once deleted, those pages are
/// free and the next large value may take them, cutting the chain. `sqlite-evidence`
/// then returns the record partial (the value column in `missing`, its start in
/// `truncated` when it is text, its declared length in `declared_len`): the value is
/// reported by size only, never decoded from its surviving start (no guessed text, and
/// no `not valid JSON` row for a value known to be cut).
pub(crate) fn cut_value(
    rec: &sqlite_evidence::RecoveredRecord,
    col: usize,
) -> Option<(u64, Option<u64>)> {
    if !rec.missing.contains(&col) {
        return None;
    }
    let n = match &rec.truncated {
        Some((c, sqlite_evidence::rusqlite::types::Value::Text(t))) if *c == col => t.len(),
        Some((c, sqlite_evidence::rusqlite::types::Value::Blob(b))) if *c == col => b.len(),
        _ => 0,
    } as u64;
    let m = rec.declared_len.filter(|d| d.0 == col).map(|d| d.1);
    Some((n, m))
}

/// The `parser: carved value for <key> is incomplete (<n> of <m> bytes)` row of a cut
/// value ([`cut_value`]), `deleted`, at `locator`.
pub(crate) fn incomplete_row(key: &str, (n, m): (u64, Option<u64>), locator: String) -> Row {
    let of = match m {
        Some(m) => format!("{n} of {m} bytes"),
        None => format!("{n} bytes of an undeclared size"),
    };
    sys(system::parser(format!(
        "carved value for {key} is incomplete ({of})"
    )))
    .locator(locator)
    .state(RecordState::Deleted)
}

/// A carved `cursorDiskKV` record: an item as [`KvTable::deleted`] gives it, or the
/// row of a value cut short.
pub(crate) enum Carved {
    /// A whole record.
    Item(Item),
    /// A record whose value did not survive whole ([`incomplete_row`]).
    Incomplete(Box<Row>),
}

/// A carved `cursorDiskKV` record (key and value its first two columns), `None` for
/// one without key or with a secret key (as [`KvTable::deleted`]).
pub(crate) fn carved(rec: sqlite_evidence::RecoveredRecord) -> Option<Carved> {
    let text =
        |v: &sqlite_evidence::rusqlite::types::Value| state_vscdb::decode::value_text(v.into());
    let key = text(rec.values.first()?);
    if key.is_empty() || state_vscdb::is_secret_key(&key) || rec.missing.contains(&0) {
        return None;
    }
    if let Some(cut) = cut_value(&rec, 1) {
        let locator = format!("{KV} key={key}, {}", rec.location);
        let session = grouped_cid(&key).unwrap_or_default();
        let row = incomplete_row(&key, cut, locator).session(session);
        return Some(Carved::Incomplete(Box::new(row)));
    }
    let (value, raw) = rec
        .values
        .get(1)
        .map(|v| state_vscdb::decode::value_text_and_raw(v.into()))
        .unwrap_or_default();
    Some(Carved::Item(Item {
        key,
        value,
        raw,
        rowid: rec.rowid,
        state: RecordState::Deleted,
        location: rec.location,
        wal: None,
    }))
}

fn grouped_cid(key: &str) -> Option<&str> {
    [
        "composerData",
        "bubbleId",
        "checkpointId",
        "messageRequestContext",
    ]
    .into_iter()
    .find_map(|p| split_key(key, p))
    .map(|(cid, _)| cid)
}

/// Key lookups and key-range walks of `cursorDiskKV`: SQLite's key index for a database
/// read whole ([`KvTable`]), a batch of records held in key order for the paged path.
trait Kv {
    /// The live item of a key (never a secret).
    fn get(&self, key: &str) -> Result<Option<Item>, state_vscdb::Error>;
    /// Every live item whose key starts with `prefix`, in key order (secrets skipped).
    fn for_each_prefix(
        &self,
        prefix: &str,
        each: &mut dyn FnMut(Item),
    ) -> Result<usize, state_vscdb::Error>;
}

impl Kv for KvTable<'_> {
    fn get(&self, key: &str) -> Result<Option<Item>, state_vscdb::Error> {
        KvTable::get(self, key)
    }
    fn for_each_prefix(
        &self,
        prefix: &str,
        each: &mut dyn FnMut(Item),
    ) -> Result<usize, state_vscdb::Error> {
        KvTable::for_each_prefix(self, prefix, each)
    }
}

/// The deleted records of `cursorDiskKV`, grouped by composer.
#[derive(Default)]
struct Deleted {
    composers: BTreeMap<String, Vec<Item>>,
    bubbles: BTreeMap<String, Vec<Item>>,
    extras: BTreeMap<String, Vec<Item>>,
    others: Vec<Item>,
}

impl Deleted {
    fn from(items: Vec<Item>) -> Deleted {
        let mut d = Deleted::default();
        for item in items {
            if let Some((cid, _)) = split_key(&item.key, "composerData") {
                d.composers.entry(cid.to_string()).or_default().push(item);
            } else if let Some((cid, _)) = split_key(&item.key, "bubbleId") {
                d.bubbles.entry(cid.to_string()).or_default().push(item);
            } else if let Some((cid, _)) = split_key(&item.key, "checkpointId")
                .or_else(|| split_key(&item.key, "messageRequestContext"))
            {
                d.extras.entry(cid.to_string()).or_default().push(item);
            } else {
                d.others.push(item);
            }
        }
        d
    }

    fn cids(&self) -> HashSet<String> {
        self.composers
            .keys()
            .chain(self.bubbles.keys())
            .chain(self.extras.keys())
            .cloned()
            .collect()
    }
}

/// The calls that the sub-agents whose parent's call is not known when they come up
/// (deferred: a nested sub-agent whose parent sub-agent has a later key) make in their
/// own bubbles (`bubbleId:<task-…>:…` records and the composer's inline ones), when the
/// call starts another deferred sub-agent, each with the sub-agent making it (the
/// least id when several make it). Gathered in one pass over their records before any
/// of them is read, so a chain of any depth, in any key order, is linked at once, and
/// the deferred sub-agents are read in one more pass (one more walk each in the paged
/// path), however deep. Until 2026-12-02 they were read in at most 4 rounds, each
/// reading those whose parent was read by then, and a deeper chain lost its `parent=`.
#[derive(Default)]
pub(crate) struct DeferredCalls {
    /// The deferred sub-agents' composer ids (`task-<toolCallId>`).
    cids: HashSet<String>,
    /// Call -> the deferred sub-agent whose bubble makes it.
    found: BTreeMap<String, String>,
}

impl DeferredCalls {
    /// For the deferred sub-agents of these `composerData:` keys.
    pub(crate) fn new<'k>(keys: impl IntoIterator<Item = &'k str>) -> DeferredCalls {
        DeferredCalls {
            cids: keys
                .into_iter()
                .filter_map(|k| split_key(k, "composerData"))
                .map(|(cid, _)| cid.to_string())
                .collect(),
            found: BTreeMap::new(),
        }
    }

    /// True for a key of a deferred sub-agent's `composerData` or bubbles.
    pub(crate) fn wants(&self, key: &str) -> bool {
        split_key(key, "bubbleId")
            .or_else(|| split_key(key, "composerData"))
            .is_some_and(|(cid, _)| self.cids.contains(cid))
    }

    /// Notes the calls of one of their items (only values naming a `toolCallId` are
    /// decoded).
    pub(crate) fn note(&mut self, item: &Item) {
        if !self.wants(&item.key) || !item.value.contains("toolCallId") {
            return;
        }
        let Ok((v, _)) = item.json_capped() else {
            return;
        };
        let mut bubbles = Vec::new();
        let cid = if let Some((cid, _)) = split_key(&item.key, "bubbleId") {
            bubbles.push(&v);
            cid
        } else if let Some((cid, _)) = split_key(&item.key, "composerData") {
            let inline = inline_bubbles(&v);
            bubbles.extend(inline.values().copied());
            bubbles.extend(unlisted_inline(&v, &inline, &[], None));
            cid
        } else {
            return;
        };
        for b in bubbles {
            let Some(call) = b
                .pointer("/toolFormerData/toolCallId")
                .and_then(Value::as_str)
            else {
                continue;
            };
            if !self.cids.contains(&format!("task-{call}")) {
                continue;
            }
            self.found
                .entry(call.to_string())
                .and_modify(|c| {
                    if cid < c.as_str() {
                        *c = cid.to_string();
                    }
                })
                .or_insert_with(|| cid.to_string());
        }
    }
}

/// How far a sub-agent's project is looked up its parents' chain.
const TASK_DEPTH: usize = 16;

/// The tool calls of carved bubbles that name a live sub-agent (`composerData:task-<call>`),
/// each with the composer of the bubble (the least id when several make it, so the
/// carver's order does not matter): a sub-agent started by a deleted chat takes it as
/// its parent (and its project).
#[derive(Default)]
pub(crate) struct CarvedCalls(BTreeMap<String, String>);

impl CarvedCalls {
    /// Notes the call of a carved `bubbleId:` item, when `is_task` accepts its
    /// sub-agent's `composerData` key (only values naming a `toolCallId` are decoded).
    pub(crate) fn note(&mut self, item: &Item, is_task: impl Fn(&str) -> bool) {
        let Some((cid, _)) = split_key(&item.key, "bubbleId") else {
            return;
        };
        if !item.value.contains("toolCallId") {
            return;
        }
        let Ok((b, _)) = item.json_capped() else {
            return;
        };
        let Some(call) = b
            .pointer("/toolFormerData/toolCallId")
            .and_then(Value::as_str)
        else {
            return;
        };
        if !is_task(&format!("composerData:task-{call}")) {
            return;
        }
        self.0
            .entry(call.to_string())
            .and_modify(|c| {
                if cid < c.as_str() {
                    *c = cid.to_string();
                }
            })
            .or_insert_with(|| cid.to_string());
    }
}

/// What the rows of a composer's carved versions already told ([`Reader::deleted`]):
/// its inline bubbles (as compact JSON) and its context-token rows (text and time).
#[derive(Default)]
struct CarvedSeen {
    inline: HashSet<String>,
    tokens: HashSet<(String, Option<i64>)>,
}

impl CarvedSeen {
    /// Notes what the live `composerData` `v` gives.
    fn note(&mut self, v: &Value, limit: Option<Timestamp>) {
        let inline = inline_bubbles(v);
        for b in unlisted_inline(v, &inline, &[], limit) {
            self.inline.insert(b.to_string());
        }
        if let Some(row) = context_tokens(v) {
            let at = v.get("lastUpdatedAt").and_then(json_time);
            self.tokens.insert((row.text, at.map(|t| t.unix_micros())));
        }
    }
}

/// The models of a composer's rows: its `modelConfig.modelName`, which a bubble
/// without `modelInfo.modelName` is attributed to (never the previous bubble's), and
/// the tracker of `modelInfo.modelName` changes (`model: <old> -> <new>`).
#[derive(Clone, Debug)]
pub struct Models {
    /// The composer's `modelConfig.modelName`, empty when it has none.
    pub composer: String,
    /// The last model seen (the composer's, then each bubble's).
    pub changes: ChangeTracker<String>,
}

impl Default for Models {
    fn default() -> Models {
        Models {
            composer: String::new(),
            changes: ChangeTracker::model(),
        }
    }
}

/// What mapping one composer needs.
struct Reader<'a> {
    kv: Box<dyn Kv + 'a>,
    limit: Option<Timestamp>,
    projects: &'a HashMap<String, String>,
    tool_calls: HashMap<String, String>,
    live_cids: HashSet<String>,
    /// The bubble ids of the live `bubbleId:` records whose `composerData` is gone
    /// (read by [`Reader::orphan`]), by composer: a carved `composerData` listing one of
    /// them does not call it missing.
    orphan_bubbles: HashMap<String, HashSet<String>>,
    /// Composers with at least one bubble (`bubbleId:` records or inline ones).
    with_bubbles: HashSet<String>,
    /// 64-hex runs in composerData values, for linking agentKv roots.
    root_refs: HashMap<String, String>,
    /// The keys of the carved `checkpointId:` and `messageRequestContext:` records
    /// (known before the live bubbles are read), and the time of the first live bubble
    /// naming each: a deleted one's rows take the time of the bubble naming it.
    deleted_extras: HashMap<String, Option<Timestamp>>,
}

fn read_kv(
    db: &Database,
    limit: Option<Timestamp>,
    projects: &HashMap<String, String>,
    _path: &Path,
    out: &mut Out<'_>,
) {
    // where the `-wal` holds the live records, found once for every lookup
    let wal = db.wal_places(KV);
    let Some(kv) = KvTable::new(db, KV).map(|kv| kv.with_wal_places(&wal)) else {
        return;
    };
    // cut values are told by size after the agentKv rows, as in the paged path
    let mut incomplete = Vec::new();
    let mut items = Vec::new();
    for rec in db.deleted_records(KV) {
        match carved(rec) {
            Some(Carved::Item(item)) => items.push(item),
            Some(Carved::Incomplete(row)) => incomplete.push(*row),
            None => {}
        }
    }
    let deleted = Deleted::from(items);
    let mut r = Reader {
        kv: Box::new(kv),
        limit,
        projects,
        tool_calls: HashMap::new(),
        live_cids: HashSet::new(),
        orphan_bubbles: HashMap::new(),
        with_bubbles: HashSet::new(),
        root_refs: HashMap::new(),
        deleted_extras: HashMap::new(),
    };
    r.expect_deleted_extras(deleted.extras.values().flatten().map(|i| i.key.as_str()));
    // parents before sub-agents: `task-<toolCallId>` composers are read last
    let mut tasks = Vec::new();
    let res = kv.for_each_prefix("composerData:", |item: Item| {
        if item.key.starts_with("composerData:task-") {
            tasks.push(item.key.clone());
        } else {
            r.composer(&item, out);
        }
    });
    if let Err(e) = res {
        kv_error(&e, out, "cursorDiskKV composerData:");
    }
    // the calls of carved bubbles name the sub-agents a deleted chat started
    let task_keys: HashSet<&str> = tasks.iter().map(String::as_str).collect();
    let mut calls = CarvedCalls::default();
    for item in deleted.bubbles.values().flatten() {
        calls.note(item, |k| task_keys.contains(k));
    }
    drop(task_keys);
    r.note_carved_calls(calls);
    // a sub-agent whose parent's call is not known yet (its parent a sub-agent read
    // later, or a chat only bubbles name) is read after the chats only bubbles name
    let mut deferred = Vec::new();
    let read = |r: &mut Reader<'_>, key: &str, out: &mut Out<'_>| match kv.get(key) {
        Ok(Some(item)) => r.composer(&item, out),
        Ok(None) => {}
        Err(e) => kv_error(&e, out, key),
    };
    for key in tasks {
        if r.call_known(&key) {
            read(&mut r, &key, out);
        } else {
            // live: its bubbles are not a chat without composerData
            if let Some((cid, _)) = split_key(&key, "composerData") {
                r.live_cids.insert(cid.to_string());
            }
            deferred.push(key);
        }
    }
    // bubbles whose composerData is gone, still live
    let mut orphans: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    let res = kv.for_each_prefix("bubbleId:", |item: Item| {
        if let Some((cid, _)) = split_key(&item.key, "bubbleId") {
            if !r.live_cids.contains(cid) {
                orphans.entry(cid.to_string()).or_default().push(item);
            }
        }
    });
    if let Err(e) = res {
        kv_error(&e, out, "cursorDiskKV bubbleId:");
    }
    for (cid, bubbles) in orphans {
        r.orphan(&cid, bubbles, out);
    }
    // the deferred sub-agents: their parents from their own records first
    // ([`DeferredCalls`]), then each in key order
    if !deferred.is_empty() {
        let mut calls = DeferredCalls::new(deferred.iter().map(String::as_str));
        for key in &deferred {
            if let Ok(Some(item)) = kv.get(key) {
                calls.note(&item);
            }
            if let Some((cid, _)) = split_key(key, "composerData") {
                // an error here is told when the sub-agent is read
                let _ = kv.for_each_prefix(&format!("bubbleId:{cid}:"), |b: Item| calls.note(&b));
            }
        }
        r.note_deferred_calls(calls);
    }
    for key in deferred {
        read(&mut r, &key, out);
    }
    // checkpoints and request contexts of a composer with neither a composerData nor
    // live bubbles: a deleted chat whose records of these kinds are still live (since
    // 2026-12-05; before, nothing read them)
    let mut lone: BTreeSet<String> = BTreeSet::new();
    for prefix in ["checkpointId", "messageRequestContext"] {
        let res = kv.for_each_prefix(&format!("{prefix}:"), |item: Item| {
            if let Some((cid, _)) = split_key(&item.key, prefix)
                && !r.live_cids.contains(cid)
                && !r.orphan_bubbles.contains_key(cid)
            {
                lone.insert(cid.to_string());
            }
        });
        if let Err(e) = res {
            kv_error(&e, out, &format!("cursorDiskKV {prefix}:"));
        }
    }
    for cid in lone {
        r.lone_extras(&cid, out);
    }
    r.note_carved_roots(deleted.composers.values().flatten().flat_map(carved_roots));
    r.agent_kv(out);
    for row in incomplete {
        out.push(row);
    }
    r.deleted(deleted, out);
}

impl Reader<'_> {
    /// The `agentKv` root ids carved `composerData` values name ([`carved_roots`]), for
    /// the conversations of deleted chats: after the live composers' (a live
    /// composer's naming wins), before the `agentKv` rows (since 2026-12-05; before, such
    /// a conversation had a session of its own, `agentkv:<root>`, and no project).
    fn note_carved_roots(&mut self, roots: impl IntoIterator<Item = (String, String)>) {
        for (root, cid) in roots {
            self.root_refs.entry(root).or_insert(cid);
        }
    }

    /// Keys of carved `checkpointId:` / `messageRequestContext:` records, whose naming
    /// live bubbles' times are kept as the live bubbles are read.
    fn expect_deleted_extras<'k>(&mut self, keys: impl IntoIterator<Item = &'k str>) {
        for k in keys {
            self.deleted_extras.entry(k.to_string()).or_insert(None);
        }
    }

    /// The composer's project; a sub-agent's is its parent's (a nested one's, its
    /// parents' up the chain, at most [`TASK_DEPTH`] steps).
    fn project(&self, cid: &str) -> String {
        let mut cid = cid;
        for _ in 0..=TASK_DEPTH {
            if let Some(p) = self.projects.get(cid) {
                return p.clone();
            }
            match cid
                .strip_prefix("task-")
                .and_then(|call| self.tool_calls.get(call))
            {
                Some(parent) => cid = parent,
                None => break,
            }
        }
        String::new()
    }

    /// True when the parent of the sub-agent of `composerData:task-<call>` is known
    /// (a bubble read so far, or a carved one, made that call).
    fn call_known(&self, key: &str) -> bool {
        key.strip_prefix("composerData:task-")
            .is_some_and(|call| self.tool_calls.contains_key(call))
    }

    /// The calls the deferred sub-agents make ([`DeferredCalls`]), for the calls no
    /// composer read so far made.
    fn note_deferred_calls(&mut self, calls: DeferredCalls) {
        for (call, cid) in calls.found {
            self.tool_calls.entry(call).or_insert(cid);
        }
    }

    /// The calls of carved bubbles ([`CarvedCalls`]), for the calls no live bubble made
    /// (read once the parents are read, before the sub-agents).
    fn note_carved_calls(&mut self, calls: CarvedCalls) {
        for (call, cid) in calls.0 {
            self.tool_calls.entry(call).or_insert(cid);
        }
    }

    /// Live bubbles whose composerData is gone (or is not JSON), grouped by the composer
    /// id in their keys: by time, then the checkpoints and request contexts of the
    /// composer that no bubble named.
    fn orphan(&mut self, cid: &str, bubbles: Vec<Item>, out: &mut Out<'_>) {
        let prefix = format!("bubbleId:{cid}:");
        self.orphan_bubbles
            .entry(cid.to_string())
            .or_default()
            .extend(
                bubbles
                    .iter()
                    .filter_map(|b| b.key.strip_prefix(&prefix).map(str::to_string)),
            );
        out.push(
            sys(format!(
                "session start: composerData missing; {} bubbles read by their keys",
                bubbles.len()
            ))
            .session(cid)
            .project(self.projects.get(cid).cloned().unwrap_or_default())
            .locator(format!("{KV} key=bubbleId:{cid}:")),
        );
        let mut models = Models::default();
        let mut done = HashSet::new();
        self.loose_items(cid, bubbles, RecordState::Live, &mut models, &mut done, out);
        self.extras_live(cid, &done, out);
    }

    fn composer(&mut self, item: &Item, out: &mut Out<'_>) {
        let Some((cid, _)) = split_key(&item.key, "composerData") else {
            return;
        };
        let cid = cid.to_string();
        // read here whatever its value: the orphan pass never reads its bubbles
        self.live_cids.insert(cid.clone());
        let v = match read_json(item, Some(&cid), out) {
            Ok(v) => v,
            Err(_) => {
                // its bubbles are read by their keys, as those of a missing composerData
                self.not_json(&cid, item, out);
                let mut bubbles = Vec::new();
                let prefix = format!("bubbleId:{cid}:");
                if let Err(e) = self.kv.for_each_prefix(&prefix, &mut |b| bubbles.push(b)) {
                    kv_error(&e, out, &item.locator_in(KV));
                }
                if bubbles.is_empty() {
                    self.extras_live(&cid, &HashSet::new(), out);
                } else {
                    self.with_bubbles.insert(cid.clone());
                    self.orphan(&cid, bubbles, out);
                }
                return;
            }
        };
        for hexid in hex_runs(&item.value) {
            self.root_refs.entry(hexid).or_insert_with(|| cid.clone());
        }
        let rows = self.composer_rows(&cid, item, &v, RecordState::Live);
        let mut models = rows.1;
        for row in rows.0 {
            out.push(row);
        }
        // bubbles of this composer, by key range; then in header order
        let mut found: HashMap<String, Item> = HashMap::new();
        let prefix = format!("bubbleId:{cid}:");
        if let Err(e) = self.kv.for_each_prefix(&prefix, &mut |b| {
            let bid = b.key[prefix.len()..].to_string();
            found.insert(bid, b);
        }) {
            kv_error(&e, out, &item.locator_in(KV));
        }
        let place = Place {
            session: cid.clone(),
            project: self.project(&cid),
            locator: item.locator_in(KV),
            state: RecordState::Live,
            time: None,
        };
        let mut done_extras: HashSet<String> = HashSet::new();
        let headers = header_ids(&v);
        let inline = inline_bubbles(&v);
        // inline bubbles the headers do not list (legacy conversationMap / conversation),
        // all of them when there are no headers
        let rest = unlisted_inline(&v, &inline, &headers, self.limit);
        if !found.is_empty() || !inline.is_empty() || !rest.is_empty() {
            self.with_bubbles.insert(cid.clone());
        }
        // a bubble the headers list again is read once, at its first place, and one row
        // says where else they list it (before 2026-12-05, a second listing of a bubble
        // stored on its own was told missing, an inline one read twice)
        let count = headers.len();
        for (bid, places) in super::cli::by_first_place(headers.clone()) {
            if let Some(b) = found.remove(&bid) {
                self.bubble_item(
                    &cid,
                    &b,
                    RecordState::Live,
                    &mut models,
                    &mut done_extras,
                    out,
                );
            } else if let Some(b) = inline.get(bid.as_str()) {
                self.bubble_value(&cid, b, None, &place, &mut models, &mut done_extras, out);
            } else {
                let row = place.apply(sys(format!(
                    "link: bubble {bid} listed in composerData is missing"
                )));
                out.push(row);
            }
            if places.len() > 1 {
                out.push(place.apply(sys(bubble_listed_again(&bid, &places, count))));
            }
        }
        for b in rest {
            self.bubble_value(&cid, b, None, &place, &mut models, &mut done_extras, out);
        }
        // bubbles stored but not listed: in bubble time order
        let rest: Vec<Item> = found.into_values().collect();
        self.loose_items(
            &cid,
            rest,
            RecordState::Live,
            &mut models,
            &mut done_extras,
            out,
        );
        self.extras_live(&cid, &done_extras, out);
        if let Some(row) = context_tokens(&v) {
            let row = place
                .apply(row)
                .at(v.get("lastUpdatedAt").and_then(json_time));
            out.push(row);
        }
    }

    fn not_json(&mut self, cid: &str, item: &Item, out: &mut Out<'_>) {
        let reason = match item.json_capped() {
            Err(state_vscdb::Error::NotJson { reason, .. }) => reason,
            _ => String::new(),
        };
        out.push(
            sys(system::parser(format!(
                "cursorDiskKV value for {} is not valid JSON ({reason})",
                item.key
            )))
            .session(cid)
            .locator(item.locator_in(KV))
            .state(item.state),
        );
    }

    /// The rows of a composerData value (session start, model) and the model tracker.
    fn composer_rows(
        &self,
        cid: &str,
        item: &Item,
        v: &Value,
        state: RecordState,
    ) -> (Vec<Row>, Models) {
        let place = Place {
            session: cid.to_string(),
            project: self.project(cid),
            locator: item.locator_in(KV),
            state,
            time: v.get("createdAt").and_then(json_time),
        };
        let mut rows = Vec::new();
        if let Some(call) = cid.strip_prefix("task-") {
            let parent = self.tool_calls.get(call).cloned().unwrap_or_default();
            rows.push(place.apply(sys(system::session_start(&[
                ("parent_tool_call", call),
                ("parent", &parent),
            ]))));
        }
        let updated = v.get("lastUpdatedAt").and_then(json_time);
        let format = match v.get("_v") {
            Some(x) if !x.is_null() => format!("v{}", as_written(x)),
            _ => String::new(),
        };
        rows.push(place.apply(sys(system::session_start(&[
            ("title", &str_of(v, "name")),
            ("mode", &str_of(v, "unifiedMode")),
            ("force_mode", &str_of(v, "forceMode")),
            ("agentic", &str_of(v, "isAgentic")),
            ("status", &str_of(v, "status")),
            ("format", &format),
            ("updated", &iso(updated)),
        ]))));
        let mut models = Models::default();
        let model = v
            .pointer("/modelConfig/modelName")
            .map(as_written)
            .unwrap_or_default();
        if !model.is_empty() {
            models.composer.clone_from(&model);
            let _ = models.changes.observe(model.clone());
            let max = v
                .pointer("/modelConfig/maxMode")
                .map(as_written)
                .unwrap_or_default();
            let spec = if max.is_empty() {
                ModelSpec::new(&model)
            } else {
                ModelSpec::with_options(&model, vec![("maxMode".into(), max)])
            };
            rows.push(place.apply(sys(system::model(spec)).model(&model)));
        }
        (rows, models)
    }

    /// The rows a carved `composerData` version holds besides its session start, as a
    /// live one gives them: its inline bubbles (legacy `conversationMap`,
    /// `conversation[]`) in header order then the unlisted ones, `link: bubble <id>
    /// listed in composerData is missing` for a header whose bubble no record holds
    /// (`held`, `None` when the composer is live: then none is missing), and its context
    /// tokens. An inline bubble identical to one the live composer or an earlier version
    /// gave, a context-token row already given and a missing header already told are
    /// left out (`seen`): several carved versions of one composer hold the same
    /// messages, told once (as `sqlite-evidence` drops a carved record identical to
    /// one already recovered).
    fn carved_composer_rows(
        &self,
        cid: &str,
        item: &Item,
        v: &Value,
        mut models: Models,
        mut held: Option<&mut HashSet<String>>,
        seen: &mut CarvedSeen,
    ) -> Vec<Row> {
        let mut place = Place {
            session: cid.to_string(),
            project: self.project(cid),
            locator: item.locator_in(KV),
            state: RecordState::Deleted,
            time: None,
        };
        let mut rows = Vec::new();
        let headers = header_ids(v);
        let inline = inline_bubbles(v);
        let rest = unlisted_inline(v, &inline, &headers, self.limit);
        // this version's bubbles, left out of later versions only (a version may say
        // the same thing twice)
        let mut given: Vec<String> = Vec::new();
        let mut bubble = |b: &Value, place: &mut Place, rows: &mut Vec<Row>| {
            place.time = bubble_time(b, self.limit);
            // the model tracker follows every bubble, also one left out
            let rs = bubble_rows_in(b, None, place, &mut models);
            let key = b.to_string();
            if !seen.inline.contains(&key) {
                rows.extend(rs);
                given.push(key);
            }
        };
        for bid in &headers {
            if let Some(b) = inline.get(bid.as_str()) {
                bubble(b, &mut place, &mut rows);
            } else if let Some(h) = held.as_deref_mut() {
                // told once per composer
                if h.insert(bid.clone()) {
                    place.time = None;
                    rows.push(place.apply(sys(format!(
                        "link: bubble {bid} listed in composerData is missing"
                    ))));
                }
            }
        }
        for b in rest {
            bubble(b, &mut place, &mut rows);
        }
        seen.inline.extend(given);
        if let Some(row) = context_tokens(v) {
            let at = v.get("lastUpdatedAt").and_then(json_time);
            if seen
                .tokens
                .insert((row.text.clone(), at.map(|t| t.unix_micros())))
            {
                place.time = None;
                rows.push(place.apply(row).at(at));
            }
        }
        rows
    }

    fn bubble_item(
        &mut self,
        cid: &str,
        item: &Item,
        state: RecordState,
        models: &mut Models,
        done: &mut HashSet<String>,
        out: &mut Out<'_>,
    ) {
        let place = Place {
            session: cid.to_string(),
            project: self.project(cid),
            locator: item.locator_in(KV),
            state,
            time: None,
        };
        match read_json(item, Some(cid), out) {
            Ok(b) => self.bubble_value(cid, &b, Some(&item.value), &place, models, done, out),
            Err(_) => self.not_json(cid, item, out),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn bubble_value(
        &mut self,
        cid: &str,
        b: &Value,
        raw: Option<&str>,
        place: &Place,
        models: &mut Models,
        done: &mut HashSet<String>,
        out: &mut Out<'_>,
    ) {
        let mut place = place.clone();
        place.time = bubble_time(b, self.limit);
        if let Some(id) = b
            .pointer("/toolFormerData/toolCallId")
            .and_then(Value::as_str)
        {
            self.tool_calls
                .entry(id.to_string())
                .or_insert_with(|| cid.to_string());
        }
        for row in bubble_rows_in(b, raw, &place, models) {
            out.push(row);
        }
        if place.state != RecordState::Live {
            return;
        }
        // the checkpoint and request context this bubble names, at its time
        for key in named_extras(cid, b) {
            if let Some(t) = self.deleted_extras.get_mut(&key) {
                if t.is_none() {
                    *t = place.time;
                }
            }
            if done.contains(&key) {
                continue;
            }
            match self.kv.get(&key) {
                Ok(Some(item)) => {
                    done.insert(key);
                    for row in extra_rows(&item, &place) {
                        out.push(row);
                    }
                }
                Ok(None) => {}
                Err(e) => kv_error(&e, out, &key),
            }
        }
    }

    /// Bubbles in no header list: ordered by time, then key.
    fn loose_items(
        &mut self,
        cid: &str,
        mut items: Vec<Item>,
        state: RecordState,
        models: &mut Models,
        done: &mut HashSet<String>,
        out: &mut Out<'_>,
    ) {
        let mut keyed: Vec<(Option<i64>, Item)> = items
            .drain(..)
            .map(|i| {
                let t = i
                    .json_capped()
                    .ok()
                    .and_then(|(b, _)| bubble_time(&b, self.limit))
                    .map(|t| t.unix_micros());
                (t, i)
            })
            .collect();
        keyed.sort_by(|a, b| (a.0, &a.1.key).cmp(&(b.0, &b.1.key)));
        for (_, item) in keyed {
            self.bubble_item(cid, &item, state, models, done, out);
        }
    }

    /// Checkpoints and request contexts of a composer that no bubble named.
    fn extras_live(&mut self, cid: &str, done: &HashSet<String>, out: &mut Out<'_>) {
        let items = self.extra_items(cid, done, out);
        self.extra_items_rows(cid, items, out);
    }

    /// The live checkpoints and request contexts of a composer that has neither a
    /// `composerData` nor live bubbles (a deleted chat whose records of these kinds are
    /// still live): `session start: composerData missing; no bubbles, <n> checkpoint
    /// or request context records read by their keys`, then their rows.
    fn lone_extras(&mut self, cid: &str, out: &mut Out<'_>) {
        let items = self.extra_items(cid, &HashSet::new(), out);
        let Some(first) = items.first() else {
            return;
        };
        let prefix = split_key(&first.key, "checkpointId")
            .map(|_| "checkpointId")
            .unwrap_or("messageRequestContext");
        out.push(
            sys(format!(
                "session start: composerData missing; no bubbles, {} checkpoint or request context records read by their keys",
                items.len()
            ))
            .session(cid)
            .project(self.project(cid))
            .locator(format!("{KV} key={prefix}:{cid}:")),
        );
        self.extra_items_rows(cid, items, out);
    }

    /// The live `checkpointId:<cid>:` and `messageRequestContext:<cid>:` records not in
    /// `done`.
    fn extra_items(&mut self, cid: &str, done: &HashSet<String>, out: &mut Out<'_>) -> Vec<Item> {
        let mut items = Vec::new();
        for prefix in ["checkpointId", "messageRequestContext"] {
            let p = format!("{prefix}:{cid}:");
            if let Err(e) = self.kv.for_each_prefix(&p, &mut |i| {
                if !done.contains(&i.key) {
                    items.push(i);
                }
            }) {
                kv_error(&e, out, &p);
            }
        }
        items
    }

    fn extra_items_rows(&mut self, cid: &str, items: Vec<Item>, out: &mut Out<'_>) {
        for item in items {
            let place = Place {
                session: cid.to_string(),
                project: self.project(cid),
                locator: item.locator_in(KV),
                state: item.state,
                time: None,
            };
            for row in extra_rows(&item, &place) {
                out.push(row);
            }
        }
    }

    /// `agentKv:blob:` values: roots give conversations, linked to the composer whose
    /// composerData names the root; messages in no root are `recovered`.
    fn agent_kv(&mut self, out: &mut Out<'_>) {
        const PREFIX: &str = "agentKv:blob:";
        let mut roots: Vec<(String, Vec<String>, String)> = Vec::new();
        let mut in_root: HashSet<String> = HashSet::new();
        let res = self.kv.for_each_prefix(PREFIX, &mut |item| {
            let id = item.key[PREFIX.len()..].to_string();
            let bytes = blob_bytes(&item);
            if let Ok(decode::Blob::Root(children)) = decode::blob(&bytes) {
                in_root.extend(children.iter().cloned());
                roots.push((id, children, item.locator_in(KV)));
            }
        });
        if let Err(e) = res {
            kv_error(&e, out, PREFIX);
        }
        let mut read_under: HashMap<&str, &str> = HashMap::new();
        for (root, children, _) in &roots {
            let cid = self.root_refs.get(root).cloned();
            let session = cid.clone().unwrap_or_else(|| {
                format!("agentkv:{}", root.chars().take(12).collect::<String>())
            });
            let project = cid.as_deref().map(|c| self.project(c)).unwrap_or_default();
            // secondary copies of the composer's bubbles when it has any, else the only
            // record of the conversation
            let state = if cid
                .as_deref()
                .is_some_and(|c| self.with_bubbles.contains(c))
            {
                RecordState::Secondary
            } else {
                RecordState::Live
            };
            for child in children {
                let key = format!("{PREFIX}{child}");
                let place = Place {
                    session: session.clone(),
                    project: project.clone(),
                    locator: format!("{KV} key={key}"),
                    state,
                    time: None,
                };
                // a message is read under the first root that names it; another root
                // (or the same one again) names it in one row
                if let Some(first) = read_under.get(child.as_str()) {
                    out.push(place.apply(sys(format!(
                        "link: blob {child} named by the root was read before, under root {first}"
                    ))));
                    continue;
                }
                match self.kv.get(&key) {
                    Ok(Some(item)) => {
                        read_under.insert(child, root);
                        for row in blob_rows(&blob_bytes(&item), child, &place) {
                            out.push(row);
                        }
                    }
                    Ok(None) => out.push(place.apply(sys(format!(
                        "link: blob {child} named by the root is missing"
                    )))),
                    Err(e) => kv_error(&e, out, &key),
                }
            }
        }
        let res = self.kv.for_each_prefix(PREFIX, &mut |item| {
            let id = &item.key[PREFIX.len()..];
            if in_root.contains(id) {
                return;
            }
            let bytes = blob_bytes(&item);
            if matches!(decode::blob(&bytes), Ok(decode::Blob::Root(_))) {
                return;
            }
            let place = Place {
                locator: item.locator_in(KV),
                state: RecordState::Recovered,
                ..Place::default()
            };
            for row in blob_rows(&bytes, id, &place) {
                out.push(row);
            }
        });
        if let Err(e) = res {
            kv_error(&e, out, PREFIX);
        }
    }

    /// The deleted records, grouped by composer. Each carved record is mapped (a deleted
    /// record whose text repeats another key's, as a chat that says "continue" twice or a
    /// deleted bubble worded as a live one, is evidence and comes back). A record
    /// identical to a live one of the same key, or to one already carved, never gets
    /// here: `sqlite-evidence` drops a carved record identical in every column to a live
    /// row or to one already recovered, and `cursorDiskKV` has only the key and the value.
    fn deleted(&mut self, d: Deleted, out: &mut Out<'_>) {
        let cids: Vec<String> = {
            let mut c: Vec<String> = d.cids().into_iter().collect();
            c.sort();
            c
        };
        let Deleted {
            mut composers,
            mut bubbles,
            mut extras,
            others,
        } = d;
        for cid in cids {
            let versions: Vec<Item> = composers.remove(&cid).unwrap_or_default();
            let bs: Vec<Item> = bubbles.remove(&cid).unwrap_or_default();
            let xs: Vec<Item> = extras.remove(&cid).unwrap_or_default();
            let live = self
                .kv
                .get(&format!("composerData:{cid}"))
                .unwrap_or_default();
            // the header order: the live composer's, else the newest deleted version's
            let mut order: Vec<String> = Vec::new();
            let mut newest: Option<i64> = None;
            let mut models = Models::default();
            // what the live composer already tells (its inline bubbles, its context
            // tokens) is not told again from an older version
            let mut seen = CarvedSeen::default();
            if let Some(live_item) = live.as_ref() {
                // (its cut, if any, is the live pass's row)
                if let Ok((l, _)) = live_item.json_capped() {
                    order = header_ids(&l);
                    models = self
                        .composer_rows(&cid, live_item, &l, RecordState::Deleted)
                        .1;
                    seen.note(&l, self.limit);
                }
            }
            let mut rows: Vec<Row> = Vec::new();
            let mut parsed: Vec<(&Item, Value)> = Vec::new();
            for item in &versions {
                match read_json(item, Some(&cid), out) {
                    Ok(v) => parsed.push((item, v)),
                    Err(_) => self.not_json(&cid, item, out),
                }
            }
            // oldest first (`lastUpdatedAt`, then the value): the order the carver finds
            // them in differs between the in-memory and the paged path, and a message
            // several versions hold is told from the first
            parsed.sort_by(|(a, va), (b, vb)| {
                let t = |v: &Value| v.get("lastUpdatedAt").and_then(Value::as_i64);
                (t(va), &a.value).cmp(&(t(vb), &b.value))
            });
            let parsed_versions = parsed.len();
            // a header is missing when no record holds its bubble: none carved, none
            // inline in any version, no live one (a live composer's older versions list
            // its live bubbles, so they never call one missing)
            let mut held: Option<HashSet<String>> = live.is_none().then(|| {
                let mut h: HashSet<String> = bs
                    .iter()
                    .filter_map(|i| split_key(&i.key, "bubbleId").map(|(_, b)| b.to_string()))
                    .collect();
                for (_, v) in &parsed {
                    h.extend(inline_bubbles(v).into_keys());
                }
                if let Some(o) = self.orphan_bubbles.get(&cid) {
                    h.extend(o.iter().cloned());
                }
                h
            });
            for (item, v) in &parsed {
                let (rs, m) = self.composer_rows(&cid, item, v, RecordState::Deleted);
                rows.extend(rs);
                rows.extend(self.carved_composer_rows(
                    &cid,
                    item,
                    v,
                    m.clone(),
                    held.as_mut(),
                    &mut seen,
                ));
                let t = v.get("lastUpdatedAt").and_then(Value::as_i64);
                if live.is_none() && (newest.is_none() || t > newest) {
                    newest = t;
                    order = header_ids(v);
                    models = m;
                }
            }
            if live.is_none() && parsed_versions == 0 && !bs.is_empty() {
                rows.push(
                    sys(format!(
                        "session start: composerData missing; {} bubbles recovered by their keys",
                        bs.len()
                    ))
                    .session(&cid)
                    .project(self.project(&cid))
                    .locator(format!("{KV} key=bubbleId:{cid}:"))
                    .state(RecordState::Deleted),
                );
            }
            for r in rows {
                out.push(r);
            }
            // bubbles in header order, then the rest by time
            let pos: HashMap<&str, usize> = order
                .iter()
                .enumerate()
                .map(|(i, b)| (b.as_str(), i))
                .collect();
            let mut keyed: Vec<(usize, Option<i64>, Item)> = bs
                .into_iter()
                .map(|i| {
                    let bid = split_key(&i.key, "bubbleId").map(|(_, b)| b).unwrap_or("");
                    let p = pos.get(bid).copied().unwrap_or(usize::MAX);
                    let t = i
                        .json_capped()
                        .ok()
                        .and_then(|(b, _)| bubble_time(&b, self.limit))
                        .map(|t| t.unix_micros());
                    (p, t, i)
                })
                .collect();
            keyed.sort_by(|a, b| (a.0, a.1, &a.2.key).cmp(&(b.0, b.1, &b.2.key)));
            // the time of the first deleted bubble naming each checkpoint and request
            // context (with a time), else of the first live one
            let mut named: HashMap<String, Timestamp> = HashMap::new();
            for (_, _, item) in keyed {
                let b = match read_json(&item, Some(&cid), out) {
                    Ok(b) => b,
                    Err(_) => {
                        self.not_json(&cid, &item, out);
                        continue;
                    }
                };
                let place = Place {
                    session: cid.clone(),
                    project: self.project(&cid),
                    locator: item.locator_in(KV),
                    state: RecordState::Deleted,
                    time: bubble_time(&b, self.limit),
                };
                if let Some(t) = place.time {
                    for key in named_extras(&cid, &b) {
                        named.entry(key).or_insert(t);
                    }
                }
                for r in bubble_rows_in(&b, Some(&item.value), &place, &mut models) {
                    out.push(r);
                }
            }
            for item in xs {
                let time = named
                    .get(&item.key)
                    .copied()
                    .or_else(|| self.deleted_extras.get(&item.key).copied().flatten());
                let place = Place {
                    session: cid.clone(),
                    project: self.project(&cid),
                    locator: item.locator_in(KV),
                    state: RecordState::Deleted,
                    time,
                };
                for r in extra_rows(&item, &place) {
                    out.push(r);
                }
            }
        }
        for item in others {
            if item.key.starts_with("agentKv:blob:") {
                let id = &item.key["agentKv:blob:".len()..];
                let place = Place {
                    locator: item.locator_in(KV),
                    state: RecordState::Deleted,
                    ..Place::default()
                };
                let bytes = blob_bytes(&item);
                // a deleted root (an older state of a conversation) is a valid record,
                // not damage: one row telling it, as the CLI's carved roots; its
                // messages are blobs of their own (read live, or carved in this loop)
                if let Ok(decode::Blob::Root(children)) = decode::blob(&bytes) {
                    out.push(place.apply(sys(format!(
                        "link: deleted root blob {id} lists {} messages",
                        children.len()
                    ))));
                    continue;
                }
                for r in blob_rows(&bytes, id, &place) {
                    out.push(r);
                }
                continue;
            }
            out.push(
                sys(format!(
                    "state item deleted: {KV} {} ({} bytes)",
                    item.key,
                    item.value.len()
                ))
                .locator(item.locator_in(KV))
                .state(RecordState::Deleted),
            );
        }
    }
}

/// The `agentKv` root ids a carved `composerData` record names, each with the
/// record's composer id (none for another key).
fn carved_roots(item: &Item) -> Vec<(String, String)> {
    match split_key(&item.key, "composerData") {
        Some((cid, _)) => hex_runs(&item.value)
            .into_iter()
            .map(|h| (h, cid.to_string()))
            .collect(),
        None => Vec::new(),
    }
}

/// The keys of the checkpoint and request context a bubble names.
fn named_extras(cid: &str, b: &Value) -> impl Iterator<Item = String> {
    let bid = str_of(b, "bubbleId");
    let cp = str_of(b, "checkpointId");
    [
        (!cp.is_empty()).then(|| format!("checkpointId:{cid}:{cp}")),
        (!bid.is_empty()).then(|| format!("messageRequestContext:{cid}:{bid}")),
    ]
    .into_iter()
    .flatten()
}

/// An `agentKv:blob:` value's bytes: a binary BLOB's as stored ([`Item::bytes`]: its
/// text would mangle a protobuf root's ids), hex text decoded, else the text's bytes.
fn blob_bytes(item: &Item) -> Vec<u8> {
    if let Some(raw) = &item.raw {
        return raw.clone();
    }
    let value = item.value.as_str();
    let t = value.trim();
    if !t.is_empty() && t.len() % 2 == 0 && t.bytes().all(|b| b.is_ascii_hexdigit()) {
        if let Ok(b) = decode::unhex(t) {
            return b;
        }
    }
    value.as_bytes().to_vec()
}

/// The rows of one blob (a message), or a `parser:` row saying why it is not one.
pub fn blob_rows(bytes: &[u8], id: &str, place: &Place) -> Vec<Row> {
    match decode::blob_and_text(bytes) {
        Ok((decode::Blob::Message(m), text)) => super::message_rows_in(&m, text, id, place),
        Ok((decode::Blob::Root(ids), _)) => vec![place.apply(sys(system::parser(format!(
            "blob {id} is not a message (a root of {} blobs)",
            ids.len()
        ))))],
        Err(e) => vec![place.apply(sys(system::parser(format!(
            "blob {id} is not a message ({e})"
        ))))],
    }
}

/// Every run of exactly 64 hex digits in a text (candidate blob ids), linear.
fn hex_runs(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_hexdigit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_hexdigit() {
                i += 1;
            }
            if i - start == 64 {
                out.push(text[start..i].to_ascii_lowercase());
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The bubble ids of `fullConversationHeadersOnly`, in order.
pub fn header_ids(v: &Value) -> Vec<String> {
    v.get("fullConversationHeadersOnly")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|h| str_of(h, "bubbleId"))
        .filter(|s| !s.is_empty())
        .collect()
}

/// Bubbles kept inside the composer: legacy `conversationMap{id: bubble}`, or the older
/// `conversation[]` array, by bubble id (the lookup of a header's bubble; the reading
/// order of those no header lists is `unlisted_inline`'s).
pub fn inline_bubbles(v: &Value) -> BTreeMap<String, &Value> {
    let mut out = BTreeMap::new();
    if let Some(m) = v.get("conversationMap").and_then(Value::as_object) {
        for (k, b) in m {
            out.insert(k.clone(), b);
        }
    }
    for b in v
        .get("conversation")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = str_of(b, "bubbleId");
        if !id.is_empty() {
            out.entry(id).or_insert(b);
        }
    }
    out
}

/// The inline bubbles that `headers` does not list, in reading order: the older
/// `conversation[]` array's in its order (an entry without a `bubbleId` too; an id
/// given twice once, at its first place, its `conversationMap` value when the map also
/// holds it), then the `conversationMap` ones the array does not hold, by time then id
/// (a map has no order of its own).
fn unlisted_inline<'v>(
    v: &'v Value,
    inline: &BTreeMap<String, &'v Value>,
    headers: &[String],
    limit: Option<Timestamp>,
) -> Vec<&'v Value> {
    let mut seen: HashSet<String> = headers.iter().cloned().collect();
    let mut out = Vec::new();
    for b in v
        .get("conversation")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        // the id as `inline_bubbles` keys it
        let id = str_of(b, "bubbleId");
        if id.is_empty() {
            out.push(b);
        } else if !seen.contains(&id) {
            out.push(inline.get(&id).copied().unwrap_or(b));
            seen.insert(id);
        }
    }
    let mut rest: Vec<(&str, &Value)> = inline
        .iter()
        .filter(|(id, _)| !seen.contains(id.as_str()))
        .map(|(id, b)| (id.as_str(), *b))
        .collect();
    rest.sort_by_key(|(id, b)| (bubble_time(b, limit).map(|t| t.unix_micros()), *id));
    out.extend(rest.into_iter().map(|(_, b)| b));
    out
}

/// `context tokens: used=<contextTokensUsed or totalUsedTokens>`: the first of the two
/// that is a positive number. A zero (or a missing, non-numeric or negative value) is
/// Cursor's default for a counter it did not fill (as zero `tokenCount` pairs are), so
/// it falls through to `promptTokenBreakdown.totalUsedTokens`; no row when neither
/// holds a count.
fn context_tokens(v: &Value) -> Option<Row> {
    let used = [
        v.get("contextTokensUsed"),
        v.pointer("/promptTokenBreakdown/totalUsedTokens"),
    ]
    .into_iter()
    .flatten()
    .filter_map(Value::as_f64)
    .find(|n| *n > 0.0)?;
    Some(sys(format!("context tokens: used={used}")))
}

/// The `[context <kind> <path>]` lines of a bubble's attached items: the item's path
/// (or name, URL, file name), else, since 2026-12-05, the item itself as compact JSON
/// cut to 400 characters (`[context terminalSelections {"text":"rm -rf /"}]`; before, an
/// item without one of those fields was dropped); an empty item gives none.
fn context_lines(b: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(ctx) = b.get("context").and_then(Value::as_object) else {
        return out;
    };
    for (kind, items) in ctx {
        for it in items.as_array().into_iter().flatten() {
            let path = [
                "/uri/fsPath",
                "/uri/path",
                "/relativePath",
                "/path",
                "/name",
                "/fileName",
                "/filename",
                "/url",
                "/uri/external",
            ]
            .iter()
            .find_map(|p| it.pointer(p).and_then(Value::as_str))
            .map(str::to_string)
            .or_else(|| it.as_str().map(str::to_string));
            match path {
                Some(p) if !p.is_empty() => out.push(format!("[context {kind} {p}]")),
                _ if is_empty_item(it) => {}
                _ => out.push(format!(
                    "[context {kind} {}]",
                    system::quote(&it.to_string())
                )),
            }
        }
    }
    out
}

/// An attached item that holds nothing: null, an empty text, array or object.
fn is_empty_item(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// The rows of one bubble, in the plan's order: user (with its attached context), or
/// a model change, thinking, the reply, the tool call, its result and status, code
/// blocks and token usage. `models` holds the composer's model (the model of a bubble
/// that names none) and tracks changes across its bubbles.
pub fn bubble_rows(b: &Value, place: &Place, models: &mut Models) -> Vec<Row> {
    bubble_rows_in(b, None, place, models)
}

/// [`bubble_rows`] of a bubble whose JSON text is `raw` (the `cursorDiskKV` value): a
/// tool call's `params`, `result` or `error` that is not a string is printed as it
/// stands there (keys in the writer's order, escapes and numbers untouched) instead of
/// key-sorted from the decoded value (the fallback, and what an inline bubble of a
/// `composerData` gets).
pub fn bubble_rows_in(
    b: &Value,
    raw: Option<&str>,
    place: &Place,
    models: &mut Models,
) -> Vec<Row> {
    use chat_rows::json::Step::Key;
    let written = |field: &str, v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => raw
            .and_then(|r| {
                chat_rows::json::compact_at(r.as_bytes(), &[Key("toolFormerData"), Key(field)])
            })
            .unwrap_or_else(|| other.to_string()),
    };
    let mut out = Vec::new();
    let kind = b.get("type").and_then(Value::as_i64).unwrap_or(0);
    let text = {
        let t = str_of(b, "text");
        if t.is_empty() {
            b.get("richText").map(rich_text).unwrap_or_default()
        } else {
            t
        }
    };
    let bubble_model = b
        .pointer("/modelInfo/modelName")
        .map(as_written)
        .unwrap_or_default();
    if !bubble_model.is_empty() {
        if let Some(t) = models.changes.observe(bubble_model.clone()) {
            out.push(place.apply(sys(t).model(&bubble_model)));
        }
    }
    // `modelInfo.modelName`, else the composer's `modelConfig.modelName`
    let model = if bubble_model.is_empty() {
        models.composer.clone()
    } else {
        bubble_model
    };
    if kind == 1 {
        let mut t = text.clone();
        for line in context_lines(b) {
            if !t.is_empty() {
                t.push('\n');
            }
            t.push_str(&line);
        }
        out.push(place.apply(turn(TurnType::User, t)));
    } else {
        // thinking
        match b.get("allThinkingBlocks").and_then(Value::as_array) {
            Some(blocks) if !blocks.is_empty() => {
                for blk in blocks {
                    let t = ["thinking", "text", "content"]
                        .iter()
                        .find_map(|k| blk.get(*k).and_then(Value::as_str))
                        .map(str::to_string)
                        .or_else(|| blk.as_str().map(str::to_string))
                        .unwrap_or_default();
                    if !t.is_empty() {
                        out.push(place.apply(turn(TurnType::Thinking, t).model(&model)));
                    }
                }
            }
            _ => {
                let t = b
                    .pointer("/thinking/text")
                    .and_then(Value::as_str)
                    .or_else(|| b.get("thinking").and_then(Value::as_str))
                    .unwrap_or("");
                if !t.is_empty() {
                    out.push(place.apply(turn(TurnType::Thinking, t).model(&model)));
                }
            }
        }
        if !text.is_empty() {
            out.push(place.apply(turn(TurnType::Assistant, text).model(&model)));
        } else if kind != 2 && b.get("toolFormerData").is_none() {
            out.push(place.apply(sys(format!(
                "bubble: type={} without text",
                b.get("type").map(as_written).unwrap_or_default()
            ))));
        }
    }
    if let Some(tf) = b.get("toolFormerData").filter(|t| t.is_object()) {
        let name = {
            let n = str_of(tf, "name");
            if n.is_empty() { str_of(tf, "tool") } else { n }
        };
        let id = str_of(tf, "toolCallId");
        let args = match tf.get("rawArgs") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            // arguments written as JSON rather than its text: as written
            Some(v) if !v.is_null() && !v.is_string() => written("rawArgs", v),
            _ => tf
                .get("params")
                .map(|p| match p {
                    Value::Null => "null".to_string(),
                    p => written("params", p),
                })
                .unwrap_or_default(),
        };
        out.push(place.apply(turn(TurnType::ToolUse, args).tool(&name, &id).model(&model)));
        let result = tf.get("result").filter(|r| !r.is_null());
        let error = tf.get("error").filter(|r| !r.is_null());
        if let Some(r) = result {
            out.push(
                place.apply(turn(TurnType::ToolResult, written("result", r)).tool(&name, &id)),
            );
        } else if let Some(e) = error {
            out.push(
                place.apply(
                    turn(
                        TurnType::ToolResult,
                        format!("error: {}", written("error", e)),
                    )
                    .tool(&name, &id),
                ),
            );
        }
        let status = str_of(tf, "status");
        // the spec's text: `tool status: <status>` unless `completed` (whether a result
        // or an error came is told by the `tool_result` row, or its absence)
        if !status.is_empty() && status != "completed" {
            out.push(place.apply(sys(format!("tool status: {status}")).tool(&name, &id)));
        }
    }
    for cb in b
        .get("codeBlocks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let file = ["/uri/fsPath", "/uri/path"]
            .iter()
            .find_map(|p| cb.pointer(p).and_then(Value::as_str))
            .unwrap_or("");
        let chars = cb
            .get("content")
            .and_then(Value::as_str)
            .map(|c| c.chars().count());
        out.push(place.apply(sys(format!(
            "code block: {}",
            system::key_values(&[
                ("language", &str_of(cb, "languageId")),
                ("file", file),
                ("chars", &chars.map(|c| c.to_string()).unwrap_or_default()),
                ("status", &str_of(cb, "status")),
            ])
        ))));
    }
    if let Some(tc) = b.get("tokenCount") {
        let n = |k: &str| tc.get(k).and_then(Value::as_i64).unwrap_or(0);
        let (i, o) = (n("inputTokens"), n("outputTokens"));
        if i != 0 || o != 0 {
            out.push(place.apply(
                sys(format!(
                    "usage: model={} input={i} output={o} cache_read=- cache_write=- reasoning=- scope=call",
                    if model.is_empty() { "-" } else { &model }
                ))
                .model(&model),
            ));
        }
    }
    out
}

/// The rows of a `checkpointId:` (one per file) or `messageRequestContext:` record.
fn extra_rows(item: &Item, place: &Place) -> Vec<Row> {
    let mut place = place.clone();
    place.locator = item.locator_in(KV);
    place.state = item.state;
    let v = match item.json_capped() {
        Ok((v, None)) => v,
        Ok((v, Some(cut))) => {
            // the cut's row in the item's place (its session, project and state)
            let mut rows = vec![place.apply(too_deep_row(item, Some(&place.session), cut))];
            rows.extend(extra_rows_of(item, &place, &v));
            return rows;
        }
        Err(e) => {
            return vec![place.apply(sys(system::parser(format!(
                "cursorDiskKV value for {} is not valid JSON ({})",
                item.key,
                match e {
                    state_vscdb::Error::NotJson { reason, .. } => reason,
                    other => other.to_string(),
                }
            ))))];
        }
    };
    extra_rows_of(item, &place, &v)
}

/// [`extra_rows`] of the value read.
fn extra_rows_of(item: &Item, place: &Place, v: &Value) -> Vec<Row> {
    if let Some((_, id)) = split_key(&item.key, "checkpointId") {
        let mut out = Vec::new();
        for f in v
            .get("files")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let path = ["/uri/fsPath", "/uri/path"]
                .iter()
                .find_map(|p| f.pointer(p).and_then(Value::as_str))
                .or_else(|| f.get("uri").and_then(Value::as_str))
                .unwrap_or("");
            let hunks = f
                .get("originalModelDiffWrtV0")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            out.push(place.apply(sys(format!(
                "checkpoint file: {path} hunks={hunks} checkpoint={id}"
            ))));
        }
        return out;
    }
    if let Some((_, id)) = split_key(&item.key, "messageRequestContext") {
        let mut text = format!("request context: message={id}");
        match v.as_object() {
            Some(o) => {
                let written = written_sizes(&item.value);
                for (k, val) in o {
                    let n = match val {
                        Value::String(s) => s.len(),
                        other => written
                            .get(k)
                            .copied()
                            .unwrap_or_else(|| other.to_string().len()),
                    };
                    text.push_str(&format!(" {k}={n}"));
                }
            }
            None => text.push_str(&format!(" ({} bytes)", item.value.len())),
        }
        return vec![place.apply(sys(text))];
    }
    Vec::new()
}

/// The size in bytes of each member of the JSON object `text` as written: its value's
/// compact JSON with the keys in the writer's order, escapes and numbers untouched
/// (`chat_rows::json::compact`); a name written twice, its last value (as in a decoded
/// `Value`). Empty when `text` is not an object.
fn written_sizes(text: &str) -> HashMap<String, usize> {
    chat_rows::json::with_repaired(text.as_bytes(), |b| {
        std::str::from_utf8(b)
            .ok()
            .and_then(chat_rows::json::object_entries)
            .map(|entries| {
                entries
                    .into_iter()
                    .map(|(k, raw)| (k, chat_rows::json::compact(raw.get()).len()))
                    .collect()
            })
            .unwrap_or_default()
    })
}

/// Reads a workspace database: its chat list (secondary `session index:` rows), the
/// `aiService` prompt caches (secondary `user` rows) and legacy chat tabs.
pub fn read_workspace(path: &Path, evidence: &Evidence, out: &mut Out<'_>) {
    let db = match StateDb::open(path, evidence) {
        Ok(db) => db,
        Err(state_vscdb::Error::Open(e)) => return unreadable(&e, out),
        Err(e) => {
            out.push(sys(system::parser(format!("state.vscdb unreadable: {e}"))));
            return;
        }
    };
    for r in db.problem_rows(super::AGENT, "") {
        out.push(r);
    }
    let project = evidence
        .read_optional(&state_vscdb::locate::workspace_json(path))
        .ok()
        .flatten()
        .and_then(|b| state_vscdb::locate::project_from_workspace_json(&b))
        .unwrap_or_default();
    const KEYS: [&str; 4] = [
        WORKSPACE_INDEX_KEY,
        PROMPTS_KEY,
        GENERATIONS_KEY,
        AICHAT_KEY,
    ];
    // the live items, then the carved values of the same keys (older values of rewritten
    // items, deleted ones): the same rows, `deleted`, each row a live value (or an
    // earlier carved one) already gives left out
    let carved = carved_items(db.deleted(), &KEYS);
    let mut given = Given::default();
    for item in db
        .items()
        .iter()
        .filter(|i| KEYS.contains(&i.key.as_str()))
        .chain(&carved)
    {
        let live = item.state == RecordState::Live;
        let mut rows = Vec::new();
        workspace_item_rows(item, &project, &mut rows, out);
        for row in rows {
            if given.first(&row, live) {
                out.push(row);
            }
        }
    }
}

/// The rows of one workspace item of [`read_workspace`]'s keys, into `rows` (its
/// `parser:` rows into `out`); a carved item's rows are `deleted`.
fn workspace_item_rows(item: &Item, project: &str, rows: &mut Vec<Row>, out: &mut Out<'_>) {
    let key = item.key.as_str();
    // the caches and the index are copies (secondary); a carved value is deleted
    let copy = match item.state {
        RecordState::Live => RecordState::Secondary,
        other => other,
    };
    {
        let v = match read_json(item, None, out) {
            Ok(v) => v,
            Err(e) => {
                out.push(state_vscdb::not_json_row(super::AGENT, "", item, &e));
                return;
            }
        };
        // `ItemTable key=<key><at>`, the place a carved item was found after it
        let loc = |at: &str| match item.state {
            RecordState::Live => format!("ItemTable key={key}{at}"),
            _ => format!("ItemTable key={key}{at}, {}", item.location),
        };
        match key {
            WORKSPACE_INDEX_KEY => {
                for h in v
                    .get("allComposers")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    rows.push(
                        index_row(h, project)
                            .session(str_of(h, "composerId"))
                            .project(project)
                            .locator(loc(""))
                            .state(copy),
                    );
                }
            }
            PROMPTS_KEY => {
                for (i, p) in v.as_array().into_iter().flatten().enumerate() {
                    let text = p
                        .get("text")
                        .map(as_written)
                        .unwrap_or_else(|| as_written(p));
                    rows.push(
                        turn(TurnType::User, text)
                            .project(project)
                            .locator(loc(&format!(" [{i}]")))
                            .state(copy),
                    );
                }
            }
            GENERATIONS_KEY => {
                for (i, g) in v.as_array().into_iter().flatten().enumerate() {
                    let t = g.get("unixMs").and_then(json_time);
                    rows.push(
                        turn(TurnType::User, str_of(g, "textDescription"))
                            .project(project)
                            .at(t)
                            .locator(loc(&format!(
                                " [{i}] generation={}",
                                str_of(g, "generationUUID")
                            )))
                            .state(copy),
                    );
                }
            }
            _ => {
                for tab in v
                    .get("tabs")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let tab_id = str_of(tab, "tabId");
                    for (i, b) in tab
                        .get("bubbles")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .enumerate()
                    {
                        let tt = match b.get("type").and_then(Value::as_str) {
                            Some("user") => Some(TurnType::User),
                            Some("ai") => Some(TurnType::Assistant),
                            _ => None,
                        };
                        let time = b
                            .get("createdAt")
                            .or_else(|| b.get("timestamp"))
                            .and_then(json_time);
                        let text = {
                            let t = str_of(b, "text");
                            if t.is_empty() {
                                str_of(b, "rawText")
                            } else {
                                t
                            }
                        };
                        // a bubble of another type is told as it stands, never dropped
                        let row = match tt {
                            Some(tt) => turn(tt, text),
                            None => sys(format!(
                                "legacy chat bubble type={}: {text}",
                                b.get("type").map(as_written).unwrap_or_default()
                            )),
                        };
                        rows.push(
                            row.session(&tab_id)
                                .project(project)
                                .at(time)
                                .model(str_of(b, "modelType"))
                                .locator(loc(&format!(" tab={tab_id} [{i}]")))
                                .state(item.state),
                        );
                    }
                }
            }
        }
    }
}

/// `link: bubble <id> is listed 2 times in composerData (places 1, 3 of 4); read once,
/// at the first` (as the CLI's root listing a blob again).
fn bubble_listed_again(bid: &str, places: &[usize], count: usize) -> String {
    super::cli::listed_again_in("bubble", bid, "in composerData", places, count)
}
