//! The formats: the event envelope shared by CLI logs and VS Code transcripts, the
//! flat `workspace.yaml`, and the helpers the mapping needs (compact JSON in file
//! order, epoch-or-ISO times).
//!
//! Why one typed pass per line: a CLI log grows to hundreds of megabytes, and the
//! mapping needs only a few dozen fields out of each event. Each line is decoded once
//! into [`Event`], whose `data` is a superset of the fields every persisted type uses,
//! borrowed from the line where no unescaping is needed, everything else skipped. Only
//! the rare types that become a generic `session event:` row are decoded a second time
//! (as a [`serde_json::Value`], to print their data). A line whose `data` does not fit
//! the typed shape (a field of an unexpected type) is not lost: it becomes a
//! `session event:` row with the whole data and a `parser:` row saying what did not fit.

use std::borrow::Cow;
use std::collections::BTreeMap;

use chat_rows::Timestamp;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// Everything that can go wrong in this crate, with where it happened.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// A line of an event log is not JSON (or not UTF-8).
    #[error("unparseable line {line} at byte {offset} ({reason})")]
    Line {
        /// 1-based line number.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
        /// Why.
        reason: String,
    },
    /// A line is JSON but its `data` does not have the shape of its type.
    #[error("unexpected shape of {event_type} at byte {offset} ({reason})")]
    Shape {
        /// The event type.
        event_type: String,
        /// Byte offset of the line.
        offset: u64,
        /// Why.
        reason: String,
    },
    /// A side file is not a JSON object.
    #[error("{what} is not a JSON object ({reason})")]
    NotObject {
        /// The file's name.
        what: String,
        /// Byte offset of the failure (0 for the whole file).
        offset: u64,
        /// Why.
        reason: String,
    },
    /// A file could not be read.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The file, as displayed.
        path: String,
        /// Byte offset (0: the read failed as a whole).
        offset: u64,
        /// Why.
        reason: String,
    },
    /// A SQLite store could not be opened or read.
    #[error("{file} unreadable: {message}")]
    Sqlite {
        /// `session-store.db` or `agent-traces.db`.
        file: String,
        /// Byte offset (0 when the failure is of the file as a whole).
        offset: u64,
        /// Why.
        message: String,
    },
}

/// One line of an event log: the envelope and its typed `data`.
#[derive(Debug, Default, Deserialize)]
pub struct Event<'a> {
    /// The event type (`user.message`, `tool.execution_start` ...).
    #[serde(rename = "type", borrow, default)]
    pub kind: Cow<'a, str>,
    /// The event's data.
    #[serde(borrow, default)]
    pub data: Data<'a>,
    /// The event id.
    #[serde(borrow, default)]
    pub id: Option<Cow<'a, str>>,
    /// ISO 8601 UTC time.
    #[serde(borrow, default)]
    pub timestamp: Option<Cow<'a, str>>,
    /// A sub-agent instance.
    #[serde(rename = "agentId", borrow, default)]
    pub agent_id: Option<Cow<'a, str>>,
    /// True for an event the schema marks as not persisted.
    #[serde(default)]
    pub ephemeral: Option<bool>,
}

/// A string field that may also be written as a number or boolean (kept as text).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Text<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Any<'a> {
            #[serde(borrow)]
            S(Cow<'a, str>),
            I(i64),
            F(f64),
            B(bool),
        }
        Ok(Text(match Any::deserialize(d)? {
            Any::S(s) => s,
            Any::I(i) => Cow::Owned(i.to_string()),
            Any::F(f) => Cow::Owned(f.to_string()),
            Any::B(b) => Cow::Owned(b.to_string()),
        }))
    }
}

/// The `data` of every type the mapping reads, as one superset of optional fields.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Data<'a> {
    #[serde(borrow)]
    pub session_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub copilot_version: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub vscode_version: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub start_time: Option<Text<'a>>,
    #[serde(borrow)]
    pub selected_model: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub context: Option<Context<'a>>,
    pub event_count: Option<i64>,
    #[serde(borrow)]
    pub info_type: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub warning_type: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub error_type: Option<Cow<'a, str>>,
    pub status_code: Option<i64>,
    #[serde(borrow)]
    pub message: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub previous_model: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub new_model: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub reasoning_effort: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub source: Option<Text<'a>>,
    #[serde(borrow)]
    pub new_mode: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub previous_mode: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub mode: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub cwd: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub branch: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub content: Option<Cow<'a, str>>,
    pub attachments: Option<Vec<Attachment<'a>>>,
    #[serde(borrow)]
    pub agent_mode: Option<Cow<'a, str>>,
    pub is_autopilot_continuation: Option<bool>,
    #[serde(borrow)]
    pub turn_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub model: Option<Cow<'a, str>>,
    pub tool_requests: Option<Vec<ToolRequest<'a>>>,
    #[serde(borrow)]
    pub reasoning_text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub encrypted_content: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub reason: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub tool_call_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub tool_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub arguments: Option<&'a RawValue>,
    #[serde(borrow)]
    pub mcp_server_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub mcp_tool_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub shell_tool_info: Option<ShellToolInfo<'a>>,
    pub success: Option<bool>,
    #[serde(borrow)]
    pub result: Option<ResultData<'a>>,
    pub error: Option<Value>,
    pub shell_execution: Option<ShellExecution>,
    #[serde(borrow)]
    pub request_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub permission_request: Option<PermissionRequest<'a>>,
    #[serde(borrow)]
    pub summary_content: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub checkpoint_number: Option<Text<'a>>,
    #[serde(borrow)]
    pub trigger: Option<Cow<'a, str>>,
    #[serde(alias = "messagesRemovedDuringTruncation", alias = "messagesRemoved")]
    pub removed_messages: Option<i64>,
    #[serde(alias = "tokensRemovedDuringTruncation", alias = "tokensRemoved")]
    pub removed_tokens: Option<i64>,
    #[serde(alias = "messagesCleared")]
    pub message_count: Option<i64>,
    #[serde(borrow)]
    pub source_type: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub remote_session_id: Option<Cow<'a, str>>,
    pub repository: Option<Value>,
    #[serde(borrow)]
    pub agent_name: Option<Cow<'a, str>>,
    pub duration_ms: Option<i64>,
    pub total_tokens: Option<i64>,
    #[serde(borrow)]
    pub hook_type: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub hook_invocation_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub path: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub role: Option<Cow<'a, str>>,
    /// `system.notification`'s kind: a string or an object's `type` (changed with the
    /// new reader, audit item 1).
    #[serde(borrow)]
    pub kind: Option<copilot_events::decode::Kind<'a>>,
    #[serde(borrow)]
    pub shutdown_type: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub error_reason: Option<Cow<'a, str>>,
    pub model_metrics: Option<BTreeMap<String, ModelMetric>>,
    pub code_changes: Option<CodeChanges>,
    #[serde(borrow)]
    pub current_model: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub mime_type: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub data: Option<&'a RawValue>,
    pub size: Option<i64>,
    pub input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
    pub cache_read_tokens: Option<i64>,
    pub cache_creation_input_tokens: Option<i64>,
    pub copilot_usage_nano_aiu: Option<i64>,
    #[serde(borrow)]
    pub parent_tool_call_id: Option<Cow<'a, str>>,
}

/// `session.start.data.context`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Context<'a> {
    #[serde(borrow)]
    pub cwd: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub git_root: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub branch: Option<Cow<'a, str>>,
    pub repository: Option<Value>,
}

/// One attachment of a user message.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Attachment<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub path: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub file_path: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub display_name: Option<Cow<'a, str>>,
}

/// One entry of `assistant.message.toolRequests`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ToolRequest<'a> {
    #[serde(borrow)]
    pub tool_call_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub arguments: Option<&'a RawValue>,
}

/// `tool.execution_start.data.shellToolInfo`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ShellToolInfo<'a> {
    #[serde(borrow)]
    pub display_command: Option<Cow<'a, str>>,
}

/// `shellExecution` (CLI 1.0.91).
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ShellExecution {
    pub exit_code: Option<i64>,
}

/// `result` of `tool.execution_complete` and of `permission.completed`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResultData<'a> {
    #[serde(borrow)]
    pub content: Option<Text<'a>>,
    #[serde(borrow)]
    pub detailed_content: Option<Cow<'a, str>>,
    pub contents: Option<Vec<ResultItem>>,
    pub shell_execution: Option<ShellExecution>,
    #[serde(borrow)]
    pub kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub location_key: Option<Cow<'a, str>>,
    pub rules: Option<Vec<Value>>,
    #[serde(borrow)]
    pub feedback: Option<Cow<'a, str>>,
}

/// One item of `result.contents[]`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResultItem {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub exit_code: Option<i64>,
}

/// `permission.requested.data.permissionRequest`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PermissionRequest<'a> {
    #[serde(borrow)]
    pub kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub tool_call_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub intention: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub full_command_text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub file_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub path: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub url: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub server_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub tool_name: Option<Cow<'a, str>>,
}

/// One `modelMetrics` entry of `session.shutdown`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ModelMetric {
    pub usage: MetricUsage,
    pub requests: Option<MetricRequests>,
    pub total_nano_aiu: Option<i64>,
}

/// `modelMetrics.<model>.usage`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MetricUsage {
    pub input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
    pub cache_read_tokens: Option<i64>,
    pub cache_write_tokens: Option<i64>,
    pub reasoning_tokens: Option<i64>,
}

/// `modelMetrics.<model>.requests`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MetricRequests {
    pub count: Option<i64>,
}

/// `session.shutdown.data.codeChanges`.
#[allow(missing_docs)]
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CodeChanges {
    pub lines_added: Option<i64>,
    pub lines_removed: Option<i64>,
    pub files_modified: Option<Value>,
}

/// Decodes one line as an [`Event`]. A line with a lone surrogate escape is retried
/// after repairing it (JavaScript writes them; serde_json refuses them).
pub fn event(line: &[u8]) -> Result<Event<'_>, serde_json::Error> {
    serde_json::from_slice(line)
}

/// Removes the whitespace outside strings of a JSON text: compact JSON with the keys in
/// the file's order (serde_json's `Value` would sort them). Linear in the input.
pub fn compact_json(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut in_string = false;
    let mut escaped = false;
    for ch in raw.chars() {
        if in_string {
            out.push(ch);
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
            }
        } else if ch == '"' {
            in_string = true;
            out.push(ch);
        } else if !ch.is_whitespace() {
            out.push(ch);
        }
    }
    out
}

/// A raw JSON value as a row text: a string's contents, else compact JSON.
pub fn raw_text(raw: &RawValue) -> String {
    let s = raw.get();
    if s.starts_with('"') {
        if let Ok(v) = serde_json::from_str::<String>(s) {
            return v;
        }
    }
    compact_json(s)
}

/// A JSON value as a column or `k=v` value: a string as it is, null as empty, else
/// compact JSON.
pub fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Cuts `s` to at most `max` characters, on a character boundary.
pub fn cut(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// A time as the stores write it: ISO 8601 text, SQLite text, or epoch milliseconds
/// (seconds when the number is too small to be milliseconds after 1973). Zero and
/// negative numbers are no time.
pub fn time_of(v: &Value) -> Option<Timestamp> {
    match v {
        Value::String(s) => time_text(s),
        Value::Number(n) => n.as_i64().and_then(epoch),
        _ => None,
    }
}

/// A time from text: ISO 8601 (a zone-less one is flagged unknown), SQLite's form, or
/// digits read as epoch milliseconds.
pub fn time_text(s: &str) -> Option<Timestamp> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse().ok().and_then(epoch);
    }
    chat_rows::when::parse_any(s, None)
}

/// Epoch milliseconds, or seconds for values below 10^11.
pub fn epoch(n: i64) -> Option<Timestamp> {
    if n <= 0 {
        None
    } else if n < 100_000_000_000 {
        Timestamp::from_epoch_seconds(n)
    } else {
        Timestamp::from_epoch_millis(n)
    }
}

/// One `key: value` line of a flat YAML file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlEntry {
    /// The key.
    pub key: String,
    /// The value, unquoted.
    pub value: String,
    /// 1-based line.
    pub line: u64,
}

/// Reads a flat YAML mapping (`workspace.yaml`): one `key: value` per line, values
/// plain, single- or double-quoted. Block scalars (`|`, `>`) take their indented lines.
/// Returns the entries and the lines that are not of that form (1-based, with text).
pub fn flat_yaml(text: &str) -> (Vec<YamlEntry>, Vec<(u64, String)>) {
    let mut entries: Vec<YamlEntry> = Vec::new();
    let mut bad = Vec::new();
    let mut block: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i as u64 + 1;
        if let Some(e) = block {
            if raw.starts_with(' ') || raw.starts_with('\t') || raw.is_empty() {
                let v = &mut entries[e].value;
                if !v.is_empty() {
                    v.push('\n');
                }
                v.push_str(raw.trim());
                continue;
            }
            block = None;
        }
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') || line == "---" {
            continue;
        }
        let Some((k, v)) = line.split_once(':') else {
            bad.push((n, line.to_string()));
            continue;
        };
        if k.starts_with(' ') || k.trim().is_empty() {
            bad.push((n, line.to_string()));
            continue;
        }
        let v = v.trim();
        let value = if v == "|" || v == ">" || v == "|-" || v == ">-" {
            block = Some(entries.len());
            String::new()
        } else if let Some(inner) = v.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
            serde_json::from_str::<String>(&format!("\"{inner}\"")).unwrap_or(inner.to_string())
        } else if let Some(inner) = v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')) {
            inner.replace("''", "'")
        } else if v == "~" || v == "null" {
            String::new()
        } else {
            v.to_string()
        };
        entries.push(YamlEntry {
            key: k.trim().to_string(),
            value,
            line: n,
        });
    }
    (entries, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_keeps_order_and_strings() {
        assert_eq!(
            compact_json("{ \"b\": 1, \"a\" : \"x y\\\" z\" }"),
            "{\"b\":1,\"a\":\"x y\\\" z\"}"
        );
    }

    #[test]
    fn flat_yaml_values() {
        let (e, bad) = flat_yaml(
            "id: a\nsummary: \"Fix: it\"\nname: 'it''s'\nnot yaml\nx: |\n  one\n  two\ny: 2\n",
        );
        let kv: Vec<(&str, &str)> = e
            .iter()
            .map(|e| (e.key.as_str(), e.value.as_str()))
            .collect();
        assert_eq!(
            kv,
            vec![
                ("id", "a"),
                ("summary", "Fix: it"),
                ("name", "it's"),
                ("x", "one\ntwo"),
                ("y", "2")
            ]
        );
        assert_eq!(bad, vec![(4, "not yaml".to_string())]);
    }

    #[test]
    fn times() {
        assert_eq!(
            time_of(&Value::from(1_790_000_000_000i64)).map(|t| t.to_string()),
            Some("2026-09-21T14:13:20.000000Z".into())
        );
        assert_eq!(time_of(&Value::from(0)), None);
        assert!(time_text("2026-10-01T10:00:00.000Z").is_some());
    }
}
