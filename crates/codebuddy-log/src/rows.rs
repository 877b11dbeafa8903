//! Mapping a decoded session to evidence rows.
//!
//! CodeBuddy's role `user` is shared between the person at the keyboard and the
//! client's own plumbing: slash-command echoes, hook feedback, reminders, compaction
//! digests and teammate messages are all `user` messages. The app hides them from the
//! conversation (its `isRealUserMessageItem` and UI replay filters), and counting them
//! as prompts would put words in the user's mouth. They are still evidence, though: a
//! local command ran, a compaction rewrote the history. So each becomes one system row,
//! `hidden <what it is> (<why>): <text>`, and never a `user` row.
//!
//! Everything else maps one item to one row (a file-history snapshot to one row per
//! tracked file), in file order, each with its line and byte offset:
//!
//! | item | row |
//! |---|---|
//! | `message` user, real text (`<user_query>` stripped) | `user` |
//! | `message` assistant, `output_text` | `assistant`, then `assistant status: <s>` when `status` is not `completed` |
//! | `message` system with `isSessionSeparator` | `session cleared (/clear)` |
//! | `function_call` | `tool_use` (arguments as written), then `tool call status: <s>` when `status` is not `completed` |
//! | `function_call_result`, `function_call_output` | `tool_result` (`output`), a second `tool_result` for a `providerData.toolResult.content` the output does not hold, `tool result title: ...`, then `tool exit code: ...` for shell tools |
//! | `reasoning` | `thinking`, then `thinking status: <s>` when `status` is not `completed` |
//! | `custom-title`, `ai-title`, `topic` | `custom title: ...`, `ai title: ...`, `topic: ...` |
//! | `summary` | `session summary (<source>): ...` |
//! | `goal-result`, `goal-progress` | `goal result: k=v ...`, `goal progress: k=v ...` |
//! | `resend-fork-notice` | `resend fork notice: parent=... edited=...` |
//! | `file-history-snapshot` | `file history: file=... backup=... version=...` per file |
//! | any other type | `unknown record type <type>: <record>` |
//! | a line that does not decode | `parser: unparseable line (<reason>): <line>` |
//!
//! Links are checked, not trusted: a `parentId` or `logicalParentId` that names no
//! item of the file gets a `link:` row saying so (and naming the unreadable line when
//! the broken line's own `id` matches), as do tool results without their call and
//! calls without their result. Ids repeat across item types (a turn-start
//! file-history snapshot reuses its user message's id); that is normal and not flagged.

use std::borrow::Cow;

use chat_rows::lines::Line;
use chat_rows::system::{ChangeTracker, key_values, quote};
use chat_rows::{Row, RowSink, Timestamp, TurnType};
use serde_json::{Map, Value};
use session_tree::file_history::file_history_texts;
use session_tree::hidden::{hidden_text, opens_with, tag_label};
use session_tree::light::{Light as LightView, lenient, lenient_value, light_pass};
use session_tree::links::{Calls, Ids};
use session_tree::log::scalar;
pub use session_tree::persisted::Persisted;
use session_tree::persisted::{missing_text, resolved_locator};
pub use session_tree::titles::MAX_TITLE_PROMPT;
use session_tree::titles::first_prompt_title;
use session_tree::{Place, TitlePick, Titles};

use crate::decode::{
    self, Entry, Error, Item, PersistedPointer, SessionLog, exit_status, persisted_pointer, truthy,
};

/// The agent id of every row. WorkBuddy runs the same agent and shares the id; its
/// rows are told apart by `source_file`, which names the home (`.workbuddy...`).
pub const AGENT: &str = "codebuddy";

/// What the mapping needs besides the log.
pub struct MapOptions<'a> {
    /// The `source_file` of every row.
    pub source_file: &'a str,
    /// The session id of every row; for a sub-agent, the fallback when no item names one.
    pub session_id: &'a str,
    /// True for a sub-agent file: the session id is the one its items carry.
    pub subagent: bool,
    /// The session folder persisted outputs live under (a sub-agent's parent), for
    /// pointers that do not name it.
    pub folder_session_id: &'a str,
    /// Looks up a persisted tool output by its pointer.
    pub persisted: &'a dyn Fn(&PersistedPointer) -> Persisted,
}

/// Maps a session to rows. See the module docs. Two passes: a light one that indexes
/// ids, calls, results and titles, then one that decodes, maps and drops each item.
pub fn session_rows(log: &SessionLog<'_>, opts: &MapOptions<'_>) -> Vec<Row> {
    session_rows_with(log, &LogIndex::build(log), opts)
}

/// [`session_rows`] with an index already built.
pub fn session_rows_with(
    log: &SessionLog<'_>,
    index: &LogIndex,
    opts: &MapOptions<'_>,
) -> Vec<Row> {
    let mut rows = Vec::new();
    session_rows_into(log, index, opts, &mut rows);
    rows
}

/// [`session_rows_with`], each row handed to `sink` as it is made (nothing is held but
/// the index: the scanner's path).
pub fn session_rows_into(
    log: &SessionLog<'_>,
    index: &LogIndex,
    opts: &MapOptions<'_>,
    sink: &mut dyn RowSink,
) {
    let mut m = Mapper::new(index, opts, sink);
    if let Some(row) = m.title_row() {
        m.rows.push(row);
    }
    let end = log.each_entry(|line, entry| match &entry.item {
        Ok(item) => m.item(&entry, item, &line),
        Err(err) => m.bad_line(&entry, err),
    });
    if let Err(e) = end {
        let row = m.place.pass_failed(e);
        m.rows.push(row);
    }
}

/// Where the title candidates come from, in CodeBuddy's order.
const TITLE_SOURCES: &[&str] = &["custom-title", "ai-title", "topic", "first prompt"];

/// What the first pass learns about a session: which ids, calls and results exist,
/// which ids the unreadable lines most likely had, the first cwd, time and session id,
/// and the title candidates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogIndex {
    ids: Ids,
    calls: Calls,
    first_cwd: Option<String>,
    first_time: Option<Option<Timestamp>>,
    first_session_id: Option<String>,
    /// newest custom-title, ai-title, topic; first real prompt
    titles: Titles,
}

/// The few fields the first pass reads; everything else is skipped without allocating.
#[derive(Default, serde::Deserialize)]
#[serde(default)]
struct Light {
    #[serde(deserialize_with = "lenient")]
    id: Option<String>,
    #[serde(rename = "type", deserialize_with = "lenient")]
    kind: Option<String>,
    #[serde(deserialize_with = "lenient")]
    role: Option<String>,
    #[serde(rename = "callId", deserialize_with = "lenient")]
    call_id: Option<String>,
    #[serde(rename = "call_id", deserialize_with = "lenient")]
    call_id_snake: Option<String>,
    #[serde(deserialize_with = "lenient")]
    name: Option<String>,
    #[serde(deserialize_with = "lenient")]
    cwd: Option<String>,
    #[serde(rename = "sessionId", deserialize_with = "lenient")]
    session_id: Option<String>,
    #[serde(rename = "customTitle", deserialize_with = "lenient")]
    custom_title: Option<String>,
    #[serde(rename = "aiTitle", deserialize_with = "lenient")]
    ai_title: Option<String>,
    #[serde(deserialize_with = "lenient")]
    topic: Option<String>,
    #[serde(deserialize_with = "lenient_value")]
    timestamp: Option<Value>,
}

impl LightView<Item> for Light {
    fn from_record(item: &Item) -> Light {
        Light::from_item(item)
    }
}

impl Light {
    fn from_item(item: &Item) -> Light {
        let get = |k: &str| item.str(k).filter(|v| !v.is_empty()).map(str::to_string);
        Light {
            id: item.id.clone(),
            kind: Some(item.kind.clone()),
            role: item.role.clone(),
            call_id: get("callId"),
            call_id_snake: get("call_id"),
            name: get("name"),
            cwd: item.cwd.clone(),
            session_id: item.session_id.clone(),
            custom_title: get("customTitle"),
            ai_title: get("aiTitle"),
            topic: get("topic"),
            timestamp: item.raw.get("timestamp").cloned(),
        }
    }
}

impl LogIndex {
    /// Indexes a session (one light pass; only user messages are decoded in full, until
    /// the first real prompt is found).
    pub fn build(log: &SessionLog<'_>) -> LogIndex {
        let mut ix = LogIndex {
            titles: Titles::new(TITLE_SOURCES),
            ..LogIndex::default()
        };
        // a read that fails midway is the mapping pass's to report, after its rows
        let _ = light_pass::<Light, Item>(log, |(line, read)| {
            let (light, full) = match read {
                Ok(read) => read,
                Err(err) => {
                    if let Some(id) = err.sniffed_id() {
                        ix.ids.insert_broken(id.to_string(), line.number);
                    }
                    if let Some(call) = err.sniff("callId") {
                        if err
                            .sniff("type")
                            .is_some_and(|t| t.starts_with("function_call_"))
                        {
                            ix.calls.broken_result(call, line.number);
                        } else {
                            ix.calls.broken_call(call, line.number);
                        }
                    }
                    return;
                }
            };
            let time = light.timestamp.as_ref().and_then(decode::parse_time);
            if ix.first_time.is_none() {
                ix.first_time = Some(time);
            }
            if ix.first_cwd.is_none() {
                ix.first_cwd.clone_from(&light.cwd);
            }
            if ix.first_session_id.is_none() {
                ix.first_session_id.clone_from(&light.session_id);
            }
            if let Some(id) = light.id {
                ix.ids.insert(id);
            }
            let kind =
                light
                    .kind
                    .as_deref()
                    .unwrap_or(if light.role.is_some() { "message" } else { "" });
            let call = light.call_id.or(light.call_id_snake);
            match (kind, call) {
                ("function_call", Some(c)) => {
                    ix.calls.call(c, light.name.unwrap_or_default());
                }
                ("function_call_result" | "function_call_output", Some(c)) => {
                    ix.calls.result(c);
                }
                _ => {}
            }
            let pick = |text: String| TitlePick::at(&line, time, light.cwd.as_ref(), text);
            match kind {
                "custom-title" | "ai-title" | "topic" => {
                    let title = match kind {
                        "custom-title" => light.custom_title.clone(),
                        "ai-title" => light.ai_title.clone(),
                        _ => light.topic.clone(),
                    };
                    if let Some(t) = title {
                        ix.titles.offer(kind, pick(t), false);
                    }
                }
                "message"
                    if !ix.titles.has("first prompt") && light.role.as_deref() == Some("user") =>
                {
                    let item = full.or_else(|| decode::decode_one(&line).ok());
                    let prompt = item.as_ref().and_then(real_prompt);
                    if let Some(first) = prompt.as_deref().and_then(first_prompt_title) {
                        ix.titles.offer("first prompt", pick(first), true);
                    }
                }
                _ => {}
            }
        });
        ix
    }

    /// The tool name of a `function_call` with this `callId`, if the file has one.
    pub fn tool_name(&self, call_id: &str) -> Option<&str> {
        self.calls.tool(call_id)
    }

    /// The first readable item's time.
    pub fn first_time(&self) -> Option<Timestamp> {
        self.first_time.flatten()
    }

    /// The first `cwd` any item writes (empty when none does).
    pub fn first_cwd(&self) -> &str {
        self.first_cwd.as_deref().unwrap_or("")
    }

    /// The session id the rows carry: for a sub-agent the first `sessionId` its items
    /// write, else `fallback`.
    pub fn session_id(&self, fallback: &str, subagent: bool) -> String {
        match (&self.first_session_id, subagent) {
            (Some(id), true) => id.clone(),
            _ => fallback.to_string(),
        }
    }
}

/// The text of a real user prompt, if `item` is one.
fn real_prompt(item: &Item) -> Option<String> {
    if item.kind != "message" || item.role.as_deref() != Some("user") {
        return None;
    }
    let t = texts(item.raw.get("content"));
    if hidden_message(item, t.first().map(String::as_str)).is_some() {
        return None;
    }
    let real: Vec<Cow<'_, str>> = t
        .iter()
        .filter(|s| tag_label(s).is_none())
        .map(|s| strip_user_query(s))
        .filter(|s| !s.is_empty())
        .collect();
    (!real.is_empty()).then(|| real.join("\n"))
}

/// A piece of a message's content.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    Text(String),
    Other(String),
}

/// The prompt inside a `<user_query>` wrapper (the text itself when unwrapped), trimmed.
/// Text after the closing tag in the same item (context the client appended) is kept:
/// only the tag is taken out (the last `</user_query>`, so a tag the user typed stays).
pub fn strip_user_query(text: &str) -> Cow<'_, str> {
    let t = text.trim();
    let Some(inner) = t.strip_prefix("<user_query>") else {
        return Cow::Borrowed(t);
    };
    const CLOSE: &str = "</user_query>";
    match inner.rfind(CLOSE) {
        Some(at) if inner[at + CLOSE.len()..].trim().is_empty() => {
            Cow::Borrowed(inner[..at].trim())
        }
        Some(at) => Cow::Owned(
            format!("{}{}", &inner[..at], &inner[at + CLOSE.len()..])
                .trim()
                .to_string(),
        ),
        None => Cow::Borrowed(inner.trim()),
    }
}

fn describe_other(obj: &Map<String, Value>) -> String {
    let kind = obj.get("type").and_then(Value::as_str).unwrap_or("content");
    let reference = [
        "image_url",
        "imageUrl",
        "url",
        "file_id",
        "fileId",
        "blob",
        "hash",
        "filename",
        "path",
    ]
    .iter()
    .find_map(|k| obj.get(*k).and_then(Value::as_str).map(|v| (*k, v)));
    match reference {
        Some((_, v)) if v.starts_with("data:") => format!("{kind} (data URL, {} bytes)", v.len()),
        Some((k, v)) => format!("{kind} {k}={}", quote(v)),
        None => kind.to_string(),
    }
}

fn parts(content: Option<&Value>) -> Vec<Part> {
    match content {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => vec![Part::Text(s.clone())],
        Some(Value::Array(items)) => items.iter().flat_map(|v| parts(Some(v))).collect(),
        Some(Value::Object(obj)) => {
            let kind = obj.get("type").and_then(Value::as_str).unwrap_or("");
            match obj.get("text").and_then(Value::as_str) {
                Some(text) if kind.is_empty() || kind.ends_with("text") || kind == "refusal" => {
                    vec![Part::Text(text.to_string())]
                }
                _ if kind == "refusal" => {
                    vec![Part::Text(
                        obj.get("refusal")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                    )]
                }
                _ => vec![Part::Other(describe_other(obj))],
            }
        }
        Some(other) => vec![Part::Text(other.to_string())],
    }
}

fn texts(content: Option<&Value>) -> Vec<String> {
    parts(content)
        .into_iter()
        .filter_map(|p| match p {
            Part::Text(t) => Some(t),
            Part::Other(_) => None,
        })
        .collect()
}

/// Why a whole message is hidden, and what it is.
struct Hidden {
    label: &'static str,
    why: String,
}

fn compaction_flags(item: &Item) -> bool {
    item.flag("isCompacted")
        || item.flag("isSummary")
        || item.flag("isCompactInternal")
        || item.flag("compactType")
}

fn flag_list(item: &Item) -> String {
    let mut flags: Vec<String> = Vec::new();
    if let Some(role) = item.role.as_deref().filter(|r| *r != "user") {
        flags.push(format!("role={role}"));
    }
    for key in [
        "skipRun",
        "isMeta",
        "isCompacted",
        "isSummary",
        "isCompactInternal",
    ] {
        if item.flag(key) {
            flags.push(key.to_string());
        }
    }
    if let Some(v) = item
        .provider_value("compactType")
        .or_else(|| item.raw.get("compactType"))
    {
        if truthy(Some(v)) {
            flags.push(format!(
                "compactType={}",
                v.as_str().map_or_else(|| v.to_string(), str::to_string)
            ));
        }
    }
    if item.flag("teammateMessage") {
        flags.push("teammateMessage".to_string());
    }
    if item.provider_value("agent").and_then(Value::as_str) == Some("compact") {
        flags.push("agent=compact".to_string());
    }
    flags.join(" ")
}

fn hidden_message(item: &Item, first_text: Option<&str>) -> Option<Hidden> {
    let role = item.role.as_deref().unwrap_or("");
    let compaction = compaction_flags(item);
    let compact_prompt = item.provider_value("agent").and_then(Value::as_str) == Some("compact");
    let teammate = item.flag("teammateMessage");
    let hide = compaction
        || (role == "user"
            && (item.flag("skipRun") || item.flag("isMeta") || compact_prompt || teammate));
    if !hide {
        return None;
    }
    let tag = first_text.and_then(tag_label).map(|(_, l)| l);
    let label = if compaction {
        "compaction summary"
    } else if compact_prompt {
        "compaction prompt"
    } else if teammate {
        "teammate message"
    } else if let Some(l) = tag {
        l
    } else if item.flag("isMeta") {
        "meta message"
    } else {
        "message not sent to the model"
    };
    Some(Hidden {
        label,
        why: flag_list(item),
    })
}

const ENVELOPE: [&str; 9] = [
    "id",
    "parentId",
    "logicalParentId",
    "timestamp",
    "type",
    "role",
    "cwd",
    "sessionId",
    "providerData",
];

/// The item's own fields (not the envelope) as `key=value` pairs, `first` in order, the rest sorted.
fn fields_text(item: &Item, first: &[&str]) -> String {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for k in first {
        if let Some(v) = item.raw.get(*k) {
            pairs.push((k.to_string(), scalar(v)));
        }
    }
    for (k, v) in &item.raw {
        if !ENVELOPE.contains(&k.as_str()) && !first.contains(&k.as_str()) {
            pairs.push((k.clone(), scalar(v)));
        }
    }
    let refs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    key_values(&refs)
}

/// A content value as text: a string as written, the text parts of an object or array
/// (the value as JSON when it has none).
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => {
            let t = texts(Some(v));
            if t.is_empty() {
                v.to_string()
            } else {
                t.join("\n")
            }
        }
    }
}

/// The output text of a tool result item, in the shapes the SDK allows: `output`, else
/// (null or missing) `providerData.toolResult.content`.
fn output_text(item: &Item) -> String {
    match item.raw.get("output") {
        Some(Value::String(s)) => s.clone(),
        Some(v @ (Value::Object(_) | Value::Array(_))) => value_text(v),
        Some(Value::Null) | None => tool_result_field(item, "content").unwrap_or_default(),
        Some(other) => other.to_string(),
    }
}

/// `providerData.toolResult.<key>` as text (what the app's UI shows for the result),
/// `None` when absent, null or empty.
fn tool_result_field(item: &Item, key: &str) -> Option<String> {
    item.provider_value("toolResult")
        .and_then(|r| r.get(key))
        .filter(|v| !v.is_null())
        .map(value_text)
        .filter(|t| !t.trim().is_empty())
}

/// True when `part` adds nothing to the texts already shown: empty, or found whole
/// (trimmed) in one of them.
fn already_shown(part: &str, shown: &[&str]) -> bool {
    let p = part.trim();
    p.is_empty() || shown.iter().any(|s| s.contains(p))
}

fn model_of(item: &Item) -> Option<String> {
    item.provider_value("model")
        .or_else(|| item.raw.get("model"))
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
        .map(str::to_string)
}

fn is_shell(tool: &str) -> bool {
    tool.eq_ignore_ascii_case("bash") || tool.eq_ignore_ascii_case("powershell")
}

struct Mapper<'a, 's> {
    ix: &'a LogIndex,
    opts: &'a MapOptions<'a>,
    rows: &'s mut dyn RowSink,
    place: Place<'a>,
    models: ChangeTracker<String>,
    /// In a sub-agent file, whether its first prompt (the task its parent's model
    /// wrote, not the person's words) was given as `subagent task:`.
    task_given: bool,
}

impl<'a, 's> Mapper<'a, 's> {
    fn new(
        ix: &'a LogIndex,
        opts: &'a MapOptions<'a>,
        rows: &'s mut dyn RowSink,
    ) -> Mapper<'a, 's> {
        Mapper {
            ix,
            opts,
            rows,
            place: Place {
                agent: AGENT,
                source_file: opts.source_file,
                session_id: ix.session_id(opts.session_id, opts.subagent),
                cwd: ix.first_cwd().to_string(),
                ..Place::default()
            },
            models: ChangeTracker::model(),
            task_given: false,
        }
    }

    fn row(
        &self,
        entry: &Entry,
        ts: Option<Timestamp>,
        turn: TurnType,
        text: impl Into<String>,
    ) -> Row {
        self.place.row(entry.line, entry.offset, ts, turn, text)
    }

    fn system(&mut self, entry: &Entry, item: &Item, text: impl Into<String>) {
        let row = self.row(entry, item.timestamp, TurnType::System, text);
        self.rows.push(row);
    }

    /// `<what> status: <status>` when the item's `status` is there and not `completed`
    /// (an answer, call or reasoning cut off: `incomplete`), with the given tool columns.
    fn status_note(&mut self, entry: &Entry, item: &Item, what: &str, tool: (&str, &str)) {
        let status = item.str("status").unwrap_or("");
        if !status.is_empty() && status != "completed" {
            let row = self
                .row(
                    entry,
                    item.timestamp,
                    TurnType::System,
                    format!("{what} status: {status}"),
                )
                .tool(tool.0, tool.1);
            self.rows.push(row);
        }
    }

    /// `session title: <t> (from <kind>)`, in CodeBuddy's order: the newest
    /// custom-title, then the newest ai-title, then the newest topic, then the first real prompt.
    fn title_row(&self) -> Option<Row> {
        let (pick, _) = self.ix.titles.best()?;
        let cwd = pick.cwd.clone().unwrap_or_else(|| self.place.cwd.clone());
        let text = self.ix.titles.row_text()?;
        Some(
            self.place
                .row(pick.line, pick.offset, pick.time, TurnType::System, text)
                .project(cwd),
        )
    }

    fn bad_line(&mut self, entry: &Entry, err: &Error) {
        let row = self.row(entry, None, TurnType::System, err.row_text());
        self.rows.push(row);
    }

    fn link(&mut self, entry: &Entry, item: &Item, what: &str, target: &str) {
        if let Some(text) = self.ix.ids.check(what, target) {
            self.system(entry, item, text);
        }
    }

    fn item(&mut self, entry: &Entry, item: &Item, line: &Line<'_>) {
        if let Some(cwd) = &item.cwd {
            self.place.cwd.clone_from(cwd);
        }
        match item.kind.as_str() {
            "message" => self.message(entry, item),
            "function_call" => self.call(entry, item),
            "function_call_result" | "function_call_output" => self.result(entry, item),
            "reasoning" => self.reasoning(entry, item),
            "custom-title" => self.titled(entry, item, "custom title", "customTitle"),
            "ai-title" => self.titled(entry, item, "ai title", "aiTitle"),
            "topic" => self.titled(entry, item, "topic", "topic"),
            "summary" => {
                let summary = item.str("summary").unwrap_or("");
                let text = match item.provider_value("source").and_then(Value::as_str) {
                    Some(src) => format!("session summary ({src}): {summary}"),
                    None => format!("session summary: {summary}"),
                };
                self.system(entry, item, text);
            }
            "goal-result" => {
                let text = format!(
                    "goal result: {}",
                    fields_text(
                        item,
                        &[
                            "ok",
                            "reason",
                            "condition",
                            "durationMs",
                            "turnCount",
                            "tokenDelta"
                        ]
                    )
                );
                self.system(entry, item, text);
            }
            "goal-progress" => {
                let text = format!("goal progress: {}", fields_text(item, &[]))
                    .trim_end()
                    .to_string();
                self.system(entry, item, text);
            }
            "resend-fork-notice" => {
                let parent = item.parent_id.as_deref().unwrap_or("");
                let edited = item.str("editedUserItemId").unwrap_or("");
                let text = format!(
                    "resend fork notice: {}",
                    key_values(&[("parent", parent), ("edited", edited)])
                );
                self.system(entry, item, text);
            }
            "file-history-snapshot" => self.snapshot(entry, item),
            other => {
                let name = if other.is_empty() { "(none)" } else { other };
                // quoted as written, not as re-serialized
                let record = line.text_lossy();
                self.system(
                    entry,
                    item,
                    format!("unknown record type {name}: {}", quote(&record)),
                );
            }
        }
        if let Some(parent) = item.parent_id.as_deref() {
            self.link(entry, item, "parentId", parent);
        }
        if let Some(parent) = item.logical_parent_id.as_deref() {
            self.link(entry, item, "logicalParentId", parent);
        }
    }

    fn titled(&mut self, entry: &Entry, item: &Item, label: &str, key: &str) {
        let text = format!("{label}: {}", item.str(key).unwrap_or(""));
        self.system(entry, item, text);
    }

    fn model_rows(&mut self, entry: &Entry, item: &Item) -> String {
        let Some(model) = model_of(item) else {
            return self.models.last().cloned().unwrap_or_default();
        };
        if let Some(text) = self.models.observe(model.clone()) {
            self.system(entry, item, text);
        }
        model
    }

    fn message(&mut self, entry: &Entry, item: &Item) {
        let content = parts(item.raw.get("content"));
        let first_text = content.iter().find_map(|p| match p {
            Part::Text(t) => Some(t.as_str()),
            Part::Other(_) => None,
        });
        let role = item.role.as_deref().unwrap_or("");
        if let Some(hidden) = hidden_message(item, first_text) {
            let all: Vec<&str> = content
                .iter()
                .filter_map(|p| match p {
                    Part::Text(t) => Some(t.as_str()),
                    Part::Other(_) => None,
                })
                .collect();
            self.system(
                entry,
                item,
                hidden_text(hidden.label, &hidden.why, &all.join("\n")),
            );
            if role == "assistant" {
                self.status_note(entry, item, "assistant", ("", ""));
            }
            // what rode in with a hidden message is the hidden message's, not the
            // person's (`user attachment:` before 2026-12-05)
            let label = format!("hidden {}", hidden.label);
            self.attachments(entry, item, &content, &label);
            return;
        }
        match role {
            "user" => {
                // the prompt first, then what rode in with it
                let mut real: Vec<Cow<'_, str>> = Vec::new();
                let mut hidden: Vec<String> = Vec::new();
                for part in &content {
                    if let Part::Text(t) = part {
                        match tag_label(t) {
                            Some((tag, label)) => {
                                hidden.push(hidden_text(label, &opens_with(tag), t))
                            }
                            None => {
                                let s = strip_user_query(t);
                                if !s.is_empty() {
                                    real.push(s);
                                }
                            }
                        }
                    }
                }
                let others: Vec<&str> = content
                    .iter()
                    .filter_map(|p| match p {
                        Part::Other(d) => Some(d.as_str()),
                        Part::Text(_) => None,
                    })
                    .collect();
                if !real.is_empty() && self.opts.subagent && !self.task_given {
                    // a sub-agent's first prompt is its parent's model's task, not the
                    // person's words: `subagent task:` (as Claude Code's; since
                    // 2026-12-05, before which it was a `user` row)
                    self.task_given = true;
                    let text = format!("subagent task: {}", real.join("\n"));
                    self.system(entry, item, text);
                } else if !real.is_empty() {
                    let row = self.row(entry, item.timestamp, TurnType::User, real.join("\n"));
                    self.rows.push(row);
                } else if !others.is_empty() {
                    // a prompt of attachments only (a pasted image) is still a prompt
                    let text: Vec<String> = others.iter().map(|d| format!("[{d}]")).collect();
                    let row = self.row(entry, item.timestamp, TurnType::User, text.join(" "));
                    self.rows.push(row);
                }
                for text in hidden {
                    self.system(entry, item, text);
                }
                if !real.is_empty() {
                    self.attachments(entry, item, &content, role);
                }
            }
            "assistant" => {
                let model = self.model_rows(entry, item);
                let text: Vec<&str> = content
                    .iter()
                    .filter_map(|p| match p {
                        Part::Text(t) => Some(t.as_str()),
                        Part::Other(_) => None,
                    })
                    .collect();
                let row = self
                    .row(entry, item.timestamp, TurnType::Assistant, text.join("\n"))
                    .model(model);
                self.rows.push(row);
                self.status_note(entry, item, "assistant", ("", ""));
                self.attachments(entry, item, &content, role);
            }
            "system" => {
                let text: Vec<&str> = content
                    .iter()
                    .filter_map(|p| match p {
                        Part::Text(t) => Some(t.as_str()),
                        Part::Other(_) => None,
                    })
                    .collect();
                let text = text.join("\n");
                if item.flag("isSessionSeparator") {
                    let row = if text.trim().is_empty() {
                        "session cleared (/clear)".to_string()
                    } else {
                        format!("session cleared (/clear): {text}")
                    };
                    self.system(entry, item, row);
                } else {
                    self.system(entry, item, format!("system message: {text}"));
                }
            }
            other => {
                let text: Vec<String> = texts(item.raw.get("content"));
                let role = if other.is_empty() { "(none)" } else { other };
                self.system(
                    entry,
                    item,
                    format!("message of unknown role {role}: {}", text.join("\n")),
                );
            }
        }
    }

    fn attachments(&mut self, entry: &Entry, item: &Item, content: &[Part], role: &str) {
        for part in content {
            if let Part::Other(desc) = part {
                let role = if role.is_empty() { "message" } else { role };
                self.system(entry, item, format!("{role} attachment: {desc}"));
            }
        }
    }

    fn call(&mut self, entry: &Entry, item: &Item) {
        let model = self.model_rows(entry, item);
        let name = item.str("name").unwrap_or("");
        let call_id = item
            .str("callId")
            .or_else(|| item.str("call_id"))
            .unwrap_or("");
        let args = match item.raw.get("arguments") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(v) => v.to_string(),
        };
        let row = self
            .row(entry, item.timestamp, TurnType::ToolUse, args)
            .tool(name, call_id)
            .model(model);
        self.rows.push(row);
        self.status_note(entry, item, "tool call", (name, call_id));
        if item.flag("discard") {
            self.system(
                entry,
                item,
                "tool call discarded: its arguments are not valid JSON",
            );
        }
        if let Some(text) = self.ix.calls.call_link(call_id) {
            let row = self
                .row(entry, item.timestamp, TurnType::System, text)
                .tool(name, call_id);
            self.rows.push(row);
        }
    }

    fn result(&mut self, entry: &Entry, item: &Item) {
        let call_id = item
            .str("callId")
            .or_else(|| item.str("call_id"))
            .unwrap_or("");
        let name = item
            .str("name")
            .filter(|n| !n.is_empty())
            .or_else(|| self.ix.calls.tool(call_id))
            .unwrap_or("")
            .to_string();
        let mut text = output_text(item);
        let written = text.clone();
        let mut locator = format!("byte {}", entry.offset);
        let mut missing = None;
        let mut resolved = true;
        if let Some(pointer) = persisted_pointer(&text, &self.session_id_for_pointer()) {
            match (self.opts.persisted)(&pointer) {
                Persisted::Found { text: full } => {
                    text = full;
                    locator = resolved_locator(entry.offset, &pointer.relative);
                }
                Persisted::Missing { reason } => {
                    resolved = false;
                    missing = Some(missing_text(&pointer.relative, &reason));
                }
            }
        }
        let row = self
            .row(entry, item.timestamp, TurnType::ToolResult, text.clone())
            .tool(name.clone(), call_id)
            .locator(locator);
        self.rows.push(row);
        // what the app's UI shows (a diff for an edit), when the output does not hold it
        let content =
            tool_result_field(item, "content").filter(|c| !already_shown(c, &[&written, &text]));
        if let Some(c) = &content {
            let row = self
                .row(entry, item.timestamp, TurnType::ToolResult, c.clone())
                .tool(name.clone(), call_id)
                .locator(format!(
                    "byte {}, providerData.toolResult.content",
                    entry.offset
                ));
            self.rows.push(row);
        }
        let mut notes: Vec<String> = Vec::new();
        if let Some(title) = tool_result_field(item, "title")
            .filter(|t| !already_shown(t, &[&written, &text, content.as_deref().unwrap_or("")]))
        {
            notes.push(format!("tool result title: {}", title.trim()));
        }
        if let Some(m) = missing {
            notes.push(m);
        }
        let status = item.str("status").unwrap_or("");
        if !status.is_empty() && status != "completed" {
            notes.push(format!("tool status: {status}"));
        }
        if is_shell(&name) && resolved {
            match exit_status(&text) {
                Some(s) => {
                    let mut t = match s.code {
                        Some(c) => format!("tool exit code: {c}"),
                        None => "tool exit code: none".to_string(),
                    };
                    if let Some(sig) = s.signal {
                        t.push_str(&format!(" signal={sig}"));
                    }
                    if let Some(msg) = s.message {
                        t.push_str(&format!(" ({msg})"));
                    }
                    notes.push(t);
                }
                None if name.eq_ignore_ascii_case("powershell")
                    && (status.is_empty() || status == "completed") =>
                {
                    notes.push("tool exit code: 0 (implied: PowerShell prints no Exit Code line on success)".to_string());
                }
                None => {}
            }
        }
        if let Some(text) = self.ix.calls.result_link(call_id) {
            notes.push(text);
        }
        for note in notes {
            let row = self
                .row(entry, item.timestamp, TurnType::System, note)
                .tool(name.clone(), call_id);
            self.rows.push(row);
        }
    }

    /// Persisted outputs live under the session's folder; for a sub-agent, the parent's.
    fn session_id_for_pointer(&self) -> String {
        self.opts.folder_session_id.to_string()
    }

    fn reasoning(&mut self, entry: &Entry, item: &Item) {
        let model = self.model_rows(entry, item);
        let mut text = texts(item.raw.get("rawContent"));
        if text.iter().all(|t| t.trim().is_empty()) {
            text = texts(item.raw.get("content"));
        }
        if text.iter().all(|t| t.trim().is_empty()) {
            text = texts(item.raw.get("summary"));
        }
        let mut text = text.join("\n");
        if text.trim().is_empty() {
            if let Some(enc) = item
                .raw
                .get("encryptedContent")
                .or_else(|| item.raw.get("encrypted_content"))
                .and_then(Value::as_str)
            {
                text = format!("[encrypted reasoning, {} bytes]", enc.len());
            }
        }
        let row = self
            .row(entry, item.timestamp, TurnType::Thinking, text)
            .model(model);
        self.rows.push(row);
        self.status_note(entry, item, "thinking", ("", ""));
    }

    fn snapshot(&mut self, entry: &Entry, item: &Item) {
        let snapshot = item.raw.get("snapshot").and_then(Value::as_object);
        for text in file_history_texts(snapshot, item.flag("isSnapshotUpdate")) {
            self.system(entry, item, text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(input: &str) -> Vec<String> {
        let log = SessionLog::from_bytes(input.as_bytes());
        let lookup = |_: &PersistedPointer| Persisted::Missing {
            reason: "absent".into(),
        };
        let opts = MapOptions {
            source_file: "s.jsonl",
            session_id: "s",
            subagent: false,
            folder_session_id: "s",
            persisted: &lookup,
        };
        session_rows(&log, &opts)
            .iter()
            .map(|r| format!("{}|{}|{}|{}", r.turn_type, r.model, r.tool_name, r.text))
            .collect()
    }

    /// A session read a chunk at a time that fails midway (here: grown past the size
    /// cap once opened) gives the rows of the lines both passes read, then one `parser:`
    /// row at the byte it failed at.
    #[test]
    fn a_session_that_fails_midway_gives_its_rows_then_where_it_failed() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.jsonl");
        let text: String = (0..100)
            .map(|n| {
                format!(
                    "{{\"type\":\"message\",\"role\":\"user\",\"content\":\"prompt {n:02}\"}}\n"
                )
            })
            .collect();
        std::fs::write(&f, &text).unwrap();
        let ev = chat_rows::Evidence::new()
            .roots([dir.path()])
            .max_size(text.len() as u64);
        let log = SessionLog::from_path(&f, &ev).unwrap();
        std::io::Write::write_all(
            &mut std::fs::OpenOptions::new().append(true).open(&f).unwrap(),
            b"{}\n",
        )
        .unwrap();
        let lookup = |_: &PersistedPointer| Persisted::Missing {
            reason: "absent".into(),
        };
        let opts = MapOptions {
            source_file: "p/s.jsonl",
            session_id: "s",
            subagent: false,
            folder_session_id: "s",
            persisted: &lookup,
        };
        let got: Vec<String> = session_rows(&log, &opts)
            .iter()
            .map(|r| {
                format!(
                    "{}|{}|{}|{}|{}",
                    r.turn_type,
                    r.text,
                    r.source_file,
                    r.source_line.map(|l| l.to_string()).unwrap_or_default(),
                    r.source_locator
                )
            })
            .collect();
        // 55-byte lines: 74 whole ones in the first 4 KiB read
        assert_eq!(text.len(), 5500);
        assert_eq!(got.len(), 1 + 74 + 1, "{got:#?}");
        assert_eq!(
            got[0],
            "system|session title: prompt 00 (from first prompt)|p/s.jsonl|1|byte 0"
        );
        assert_eq!(got[74], "user|prompt 73|p/s.jsonl|74|byte 4015");
        assert_eq!(
            got[75],
            "system|parser: p/s.jsonl: cannot read (5501 bytes, over the 5500-byte cap of one evidence file)|p/s.jsonl||byte 4096"
        );
    }

    #[test]
    fn user_query_and_tags() {
        assert_eq!(strip_user_query(" <user_query>\nhi\n</user_query>\n"), "hi");
        assert_eq!(strip_user_query("plain"), "plain");
        assert_eq!(
            strip_user_query("<user_query>do x</user_query>\n<attached>f</attached>"),
            "do x\n<attached>f</attached>"
        );
        assert_eq!(strip_user_query("<user_query> open"), "open");
        assert_eq!(
            tag_label("  <teammate-message from=\"a\">x"),
            Some(("<teammate-message>", "teammate message"))
        );
        assert_eq!(tag_label("<b>"), None);
    }

    #[test]
    fn models_are_tracked_and_plain_string_content_is_read() {
        let rows = map(concat!(
            r#"{"type":"message","role":"user","content":"go"}"#,
            "\n",
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}],"providerData":{"model":"m1"}}"#,
            "\n",
            r#"{"type":"reasoning","content":[],"rawContent":[],"encryptedContent":"abcd","providerData":{"model":"m2"}}"#,
            "\n",
            r#"{"type":"message","role":"user","content":[{"type":"input_image","image_url":"data:image/png;base64,AAAA"}]}"#,
            "\n",
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"see"},{"type":"input_image","path":"a.png"}]}"#,
            "\n",
        ));
        assert_eq!(
            rows,
            vec![
                "system|||session title: go (from first prompt)",
                "user|||go",
                "system|||model: m1",
                "assistant|m1||a",
                "system|||model: m1 -> m2",
                "thinking|m2||[encrypted reasoning, 4 bytes]",
                "user|||[input_image (data URL, 26 bytes)]",
                "user|||see",
                "system|||user attachment: input_image path=a.png",
            ]
        );
    }

    #[test]
    fn a_title_from_the_first_prompt_is_capped() {
        // 300 two-byte characters on the first line: the title keeps 200 and says it was
        // cut; the user row keeps the whole prompt
        let long = "é".repeat(299) + "z";
        let line = format!(r#"{{"type":"message","role":"user","content":"{long}\nsecond line"}}"#);
        let rows = map(&format!("{line}\n"));
        assert_eq!(
            rows,
            vec![
                format!(
                    "system|||session title: {}… (from first prompt)",
                    "é".repeat(200)
                ),
                format!("user|||{long}\nsecond line"),
            ]
        );
        // exactly 200 characters are not cut, nor is a custom title
        let exact = "x".repeat(200);
        let rows = map(&format!(
            r#"{{"type":"message","role":"user","content":"{exact}"}}{}"#,
            "\n"
        ));
        assert_eq!(
            rows[0],
            format!("system|||session title: {exact} (from first prompt)")
        );
        let custom = "t".repeat(300);
        let rows = map(&format!(
            r#"{{"type":"custom-title","customTitle":"{custom}"}}{}"#,
            "\n"
        ));
        assert_eq!(
            rows[0],
            format!("system|||session title: {custom} (from custom-title)")
        );
    }

    #[test]
    fn results_without_calls_and_other_output_shapes() {
        let rows = map(concat!(
            r#"{"type":"function_call_output","call_id":"c9","output":[{"type":"output_text","text":"x"}],"status":"incomplete"}"#,
            "\n",
            r#"{"type":"function_call","callId":"c1","name":"PowerShell","arguments":{"command":"ls"},"providerData":{"discard":true}}"#,
            "\n",
            r#"{"type":"function_call_result","callId":"c1","output":null,"providerData":{"toolResult":{"content":"done"}}}"#,
            "\n",
            r#"{"type":"message","role":"robot","content":"beep"}"#,
            "\n",
        ));
        assert_eq!(
            rows,
            vec![
                "tool_result|||x",
                "system|||tool status: incomplete",
                "system|||link: tool result c9 has no tool call in this file",
                r#"tool_use||PowerShell|{"command":"ls"}"#,
                "system|||tool call discarded: its arguments are not valid JSON",
                "tool_result||PowerShell|done",
                "system||PowerShell|tool exit code: 0 (implied: PowerShell prints no Exit Code line on success)",
                "system|||message of unknown role robot: beep",
            ]
        );
    }

    #[test]
    fn edge_records() {
        let rows = map(concat!(
            // a snapshot reusing the message id is not a duplicate to flag
            r#"{"id":"u1","type":"message","role":"user","content":[{"type":"input_text","text":"<user_query>a\nb</user_query>"}]}"#,
            "\n",
            r#"{"id":"u1","type":"file-history-snapshot","snapshot":{"messageId":"u1","trackedFileBackups":{}}}"#,
            "\n",
            r#"{"id":"a1","parentId":"u1","type":"message","role":"assistant","content":[{"type":"output_text","text":"<summary>"}],"providerData":{"isCompactInternal":true,"isSummary":true,"isCompacted":true}}"#,
            "\n",
            r#"{"id":"c1","logicalParentId":"zz","type":"message","role":"user","content":[{"type":"input_text","text":"<conversation_history_summary>x"}]}"#,
            "\n",
            r#"{"id":"s1","type":"message","role":"system","content":[{"type":"input_text","text":"Context cleared"}],"providerData":{"isSessionSeparator":true}}"#,
            "\n",
            r#"{"type":"message","role":"system","content":"note"}"#,
            "\n",
            r#"{"type":"summary","summary":"s"}"#,
            "\n",
            r#"{"type":"goal-progress"}"#,
            "\n",
            r#"{"what":1}"#,
            "\n",
            r#"{"type":"function_call","name":"Bash","arguments":"{}"}"#,
            "\n",
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"},{"type":"input_image","path":"shot.png"}],"providerData":{"skipRun":true}}"#,
            "\n",
        ));
        assert_eq!(
            rows,
            vec![
                "system|||session title: a (from first prompt)",
                "user|||a\nb",
                "system|||file history: no tracked files message=u1 update=false",
                "system|||hidden compaction summary (role=assistant isCompacted isSummary isCompactInternal): <summary>",
                "system|||hidden compaction summary (opens with <conversation_history_summary>): <conversation_history_summary>x",
                "system|||link: logicalParentId zz not found in this file",
                "system|||session cleared (/clear): Context cleared",
                "system|||system message: note",
                "system|||session summary: s",
                "system|||goal progress:",
                r#"system|||unknown record type (none): {"what":1}"#,
                "tool_use||Bash|{}",
                "system|||hidden message not sent to the model (skipRun): hi",
                "system|||hidden message not sent to the model attachment: input_image path=shot.png",
            ]
        );
    }
}
