//! Mapping Cursor's records to rows, per the parser plan of `cursor.md`.
//!
//! * [`ide`]: the IDE's global `state.vscdb` (`cursorDiskKV` composers, bubbles,
//!   checkpoints, request contexts and `agentKv` blobs, live and deleted; the chat
//!   index and grants in `ItemTable`) and its workspace databases;
//! * [`cli`]: the agent CLI's `store.db`, `meta.json`, prompt history and transcripts;
//! * [`settings`]: the permission and model files of the CLI and of projects.
//!
//! Rows are handed to the sink as they are made ([`Out`]); nothing holds a whole
//! file's rows.

pub mod cli;
pub mod ide;
pub mod settings;

use chat_rows::{RecordState, Row, RowSink, Timestamp, TurnType, system};
use serde_json::Value;

use crate::decode::as_written;

/// The agent name of every Cursor row.
pub const AGENT: &str = "cursor";

/// Where rows go: the common fields of a file, and the sink.
pub struct Out<'a> {
    /// The `source_file` of every row.
    pub source_file: String,
    /// True for a secondary source (`state.vscdb.backup`): live rows become secondary.
    pub secondary: bool,
    /// The sink.
    pub sink: &'a mut dyn RowSink,
    /// Rows handed so far.
    pub count: usize,
}

impl<'a> Out<'a> {
    /// A sink for the rows of one file.
    pub fn new(source_file: impl Into<String>, sink: &'a mut dyn RowSink) -> Out<'a> {
        Out {
            source_file: source_file.into(),
            secondary: false,
            sink,
            count: 0,
        }
    }

    /// Hands a row on, with the file's fields.
    pub fn push(&mut self, mut row: Row) {
        if row.source_file.is_empty() {
            row.source_file.clone_from(&self.source_file);
        }
        if self.secondary {
            row = row.secondary(true);
        }
        self.count += 1;
        self.sink.push(row);
    }
}

/// A system row of the agent.
pub fn sys(text: impl Into<String>) -> Row {
    Row::system(AGENT, text)
}

/// A turn row of the agent.
pub fn turn(t: TurnType, text: impl Into<String>) -> Row {
    Row::new(AGENT, t, text)
}

/// What the rows of one message share.
#[derive(Clone, Debug, Default)]
pub struct Place {
    /// The session.
    pub session: String,
    /// The project.
    pub project: String,
    /// The locator.
    pub locator: String,
    /// The record state.
    pub state: RecordState,
    /// The time, if any.
    pub time: Option<Timestamp>,
}

impl Place {
    /// Applies the place to a row.
    pub fn apply(&self, row: Row) -> Row {
        row.session(&self.session)
            .project(&self.project)
            .locator(&self.locator)
            .state(self.state)
            .at(self.time)
    }
}

/// The rows of a user text (a CLI message part, a transcript part, an IDE `agentKv`
/// message): what the user typed, out of the context the agent wrapped around it.
///
/// * A text that opens with `<user_info>` is the environment preamble: one `hidden
///   environment preamble (opens with <user_info>): <text>` row. When the text also
///   holds a `<user_query>` block (the CLI sends both in one part), the preamble row
///   holds the text up to the end of the first `</user_info>` (or up to the first
///   `<user_query>` block, when that comes first or `</user_info>` is missing), trimmed;
///   what follows is read as the next case, so the prompt is a `user` row.
/// * A text with `<user_query>...</user_query>` blocks: a `user` row holding the
///   blocks' texts (trimmed, joined by newlines), then one `[context attached_files
///   <path>]` line per file the text's `<attached_files>` blocks name (as the IDE's user
///   rows name attached items); and, when anything else is left outside the blocks (the
///   `<attached_files>` block with its contents, `<additional_data>`, rules), one
///   `hidden context (outside <user_query>): <that text as written>` row after it, so
///   nothing is lost.
/// * Any other text: a `user` row as written.
pub fn user_text_rows(text: &str) -> Vec<Row> {
    let lead = text.trim_start();
    if lead.starts_with("<user_info>") {
        // the first `<user_query>` opens a block only when it is closed (as `tag_blocks`
        // reads it)
        let query = lead
            .find("<user_query>")
            .filter(|&q| lead[q + "<user_query>".len()..].contains("</user_query>"));
        let Some(query) = query else {
            return vec![sys(format!(
                "hidden environment preamble (opens with <user_info>): {text}"
            ))];
        };
        let end = lead
            .find("</user_info>")
            .map(|e| e + "</user_info>".len())
            .filter(|&e| e <= query)
            .unwrap_or(query);
        let mut rows = vec![sys(format!(
            "hidden environment preamble (opens with <user_info>): {}",
            lead[..end].trim_end()
        ))];
        rows.extend(query_rows(&lead[end..]));
        return rows;
    }
    query_rows(text)
}

/// The rows of a user text that does not open with `<user_info>` (see
/// [`user_text_rows`]).
fn query_rows(text: &str) -> Vec<Row> {
    let (queries, rest) = tag_blocks(text, "user_query");
    if queries.is_empty() {
        return vec![turn(TurnType::User, text)];
    }
    let mut user = queries
        .iter()
        .map(|q| q.trim())
        .collect::<Vec<_>>()
        .join("\n");
    let (attached, _) = tag_blocks(&rest, "attached_files");
    for path in attached.iter().flat_map(|b| attached_paths(b)) {
        if !user.is_empty() {
            user.push('\n');
        }
        user.push_str(&format!("[context attached_files {path}]"));
    }
    let mut rows = vec![turn(TurnType::User, user)];
    let rest = rest.trim();
    if !rest.is_empty() {
        rows.push(sys(format!(
            "hidden context (outside <user_query>): {rest}"
        )));
    }
    rows
}

/// The inner texts of the `<tag>...</tag>` blocks of a text, in order, and the text
/// with those blocks cut out. An opening tag without its closing one is left as text.
fn tag_blocks(text: &str, tag: &str) -> (Vec<String>, String) {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut blocks = Vec::new();
    let mut rest = String::new();
    let mut at = 0;
    while let Some(i) = text[at..].find(&open) {
        let start = at + i;
        let inner = start + open.len();
        let Some(j) = text[inner..].find(&close) else {
            break;
        };
        rest.push_str(&text[at..start]);
        blocks.push(text[inner..inner + j].to_string());
        at = inner + j + close.len();
    }
    rest.push_str(&text[at..]);
    (blocks, rest)
}

/// The files an `<attached_files>` block names: the `path=` of its lines that open with
/// a fenced block (`` ```path=api.py, lines=1-7 ``) or a tag (`<file path="a.py">`,
/// `<code_selection path="..." ...>`); else, in a block without tags, each non-empty
/// line (a leading `- ` cut). File contents inside the block are not read for paths.
fn attached_paths(block: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in block.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("```path=") {
            let v = v.split(',').next().unwrap_or("").trim();
            if !v.is_empty() {
                out.push(v.to_string());
            }
        } else if line.starts_with('<') && !line.starts_with("</") {
            let head = &line[..line.find('>').unwrap_or(line.len())];
            if let Some(i) = head.find(" path=\"") {
                let v = &head[i + 7..];
                if let Some(end) = v.find('"') {
                    if end > 0 {
                        out.push(v[..end].to_string());
                    }
                }
            }
        }
    }
    if out.is_empty() && !block.contains('<') {
        out = block
            .lines()
            .map(|l| {
                let l = l.trim();
                l.strip_prefix("- ").unwrap_or(l).trim().to_string()
            })
            .filter(|l| !l.is_empty())
            .collect();
    }
    out
}

/// The rows of one AI SDK message (`{role, content}`), as the CLI's blobs and the
/// IDE's `agentKv:blob:` values hold them. `id` names the blob in `parser:` rows.
pub fn message_rows(msg: &Value, id: &str, place: &Place) -> Vec<Row> {
    message_rows_in(msg, None, id, place)
}

/// [`message_rows`] of a message whose JSON text is `text`: a tool call's `args` and a
/// tool result that is not a string are printed as that text has them (keys in the
/// writer's order, escapes and numbers untouched), not key-sorted from the decoded value.
pub fn message_rows_in(msg: &Value, text: Option<&[u8]>, id: &str, place: &Place) -> Vec<Row> {
    use chat_rows::json::Step::Key;
    // the parts as written, split out of the text once (not once per part: a message
    // of many parts costs its length once)
    let tools = msg
        .get("content")
        .and_then(Value::as_array)
        .is_some_and(|parts| {
            parts.iter().any(|p| {
                matches!(
                    p.get("type").and_then(Value::as_str),
                    Some("tool-call" | "tool-result")
                )
            })
        });
    let repaired = text
        .filter(|_| tools)
        .map(chat_rows::json::repair_lone_surrogates);
    let raw_parts: Vec<&serde_json::value::RawValue> = repaired
        .as_deref()
        .and_then(|t| chat_rows::json::raw_at(t, &[Key("content")]))
        .and_then(|c| serde_json::from_str(c.get()).ok())
        .unwrap_or_default();
    // the value of part `i` under `key`, as written
    let written = |i: usize, key: &str| {
        let part = raw_parts.get(i)?;
        chat_rows::json::compact_at(part.get().as_bytes(), &[Key(key)])
    };
    let mut out = Vec::new();
    let role = msg.get("role").and_then(Value::as_str).unwrap_or("");
    let parts: Vec<Value> = match msg.get("content") {
        Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
        Some(Value::Array(a)) => a.clone(),
        Some(Value::Null) | None => Vec::new(),
        Some(other) => vec![serde_json::json!({"type": "text", "text": other.to_string()})],
    };
    if !matches!(role, "system" | "user" | "assistant" | "tool") {
        out.push(place.apply(sys(system::parser(format!(
            "blob {id} is not a message (role {})",
            if role.is_empty() { "missing" } else { role }
        )))));
        return out;
    }
    // only an array `content` has its parts in the text
    let in_text = matches!(msg.get("content"), Some(Value::Array(_)));
    for (i, part) in parts.iter().enumerate() {
        let kind = part.get("type").and_then(Value::as_str).unwrap_or("text");
        let text = || {
            part.get("text")
                .map(as_written)
                .or_else(|| part.as_str().map(str::to_string))
                .unwrap_or_default()
        };
        let row = match (role, kind) {
            ("system", _) => sys(format!("system message: system: {}", text())),
            ("user", "text") => {
                for row in user_text_rows(&text()) {
                    out.push(place.apply(row));
                }
                continue;
            }
            (_, "reasoning") | (_, "thinking") => turn(TurnType::Thinking, text()),
            (_, "tool-call") => {
                let key = if part.get("args").is_some() {
                    "args"
                } else {
                    "input"
                };
                let args = part
                    .get(key)
                    .map(|a| {
                        in_text
                            .then(|| written(i, key))
                            .flatten()
                            .unwrap_or_else(|| a.to_string())
                    })
                    .unwrap_or_default();
                turn(TurnType::ToolUse, args)
                    .tool(str_of(part, "toolName"), str_of(part, "toolCallId"))
            }
            (_, "tool-result") => {
                let key = if part.get("result").is_some() {
                    "result"
                } else {
                    "output"
                };
                let result = part
                    .get(key)
                    .map(|r| match r {
                        Value::String(_) | Value::Null => as_written(r),
                        _ => in_text
                            .then(|| written(i, key))
                            .flatten()
                            .unwrap_or_else(|| as_written(r)),
                    })
                    .unwrap_or_default();
                turn(TurnType::ToolResult, result)
                    .tool(str_of(part, "toolName"), str_of(part, "toolCallId"))
            }
            ("assistant", "text") => turn(TurnType::Assistant, text()),
            // a tool message's text (its `content` a plain string, or a text part) is the
            // tool's output; its name and call id are the part's, else the message's
            ("tool", "text") => {
                let first = |keys: [(&Value, &str); 3]| {
                    keys.into_iter()
                        .map(|(v, k)| str_of(v, k))
                        .find(|s| !s.is_empty())
                        .unwrap_or_default()
                };
                turn(TurnType::ToolResult, text()).tool(
                    first([(part, "toolName"), (msg, "toolName"), (msg, "name")]),
                    first([
                        (part, "toolCallId"),
                        (msg, "toolCallId"),
                        (msg, "tool_call_id"),
                    ]),
                )
            }
            (_, other) => sys(format!(
                "message part: role={role} type={other} ({} bytes)",
                part.to_string().len()
            )),
        };
        out.push(place.apply(row));
    }
    out
}

/// A string field, or empty.
pub fn str_of(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// A time as row texts print it (`updated=`, `created=`): ISO 8601 UTC.
pub fn iso(t: Option<Timestamp>) -> String {
    t.map(|t| t.to_string()).unwrap_or_default()
}
