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

/// Cuts `<tag>...</tag>` around a text, when it is wrapped so.
pub fn unwrap_tag<'t>(text: &'t str, tag: &str) -> &'t str {
    let t = text.trim();
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    match t
        .strip_prefix(open.as_str())
        .and_then(|r| r.strip_suffix(close.as_str()))
    {
        Some(inner) => inner.trim(),
        None => text,
    }
}

/// The rows of one AI SDK message (`{role, content}`), as the CLI's blobs and the
/// IDE's `agentKv:blob:` values hold them. `id` names the blob in `parser:` rows.
pub fn message_rows(msg: &Value, id: &str, place: &Place) -> Vec<Row> {
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
    for part in &parts {
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
                let t = text();
                if t.trim_start().starts_with("<user_info>") {
                    sys(format!(
                        "hidden environment preamble (opens with <user_info>): {t}"
                    ))
                } else {
                    turn(TurnType::User, unwrap_tag(&t, "user_query"))
                }
            }
            (_, "reasoning") | (_, "thinking") => turn(TurnType::Thinking, text()),
            (_, "tool-call") => {
                let args = part.get("args").or_else(|| part.get("input"));
                turn(
                    TurnType::ToolUse,
                    args.map(|a| a.to_string()).unwrap_or_default(),
                )
                .tool(str_of(part, "toolName"), str_of(part, "toolCallId"))
            }
            (_, "tool-result") => {
                let result = part.get("result").or_else(|| part.get("output"));
                turn(
                    TurnType::ToolResult,
                    result.map(as_written).unwrap_or_default(),
                )
                .tool(str_of(part, "toolName"), str_of(part, "toolCallId"))
            }
            ("assistant", "text") => turn(TurnType::Assistant, text()),
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
