//! Claude Code's transcript records: the Anthropic Messages protocol, one content
//! block per line.
//!
//! Every line is a JSON object with an envelope (`type`, `uuid`, `parentUuid`,
//! `timestamp` in ISO 8601, `sessionId`, `cwd`, `gitBranch` ...). An API response is
//! split over several `assistant` records, one content block each (`text`,
//! `thinking`, `tool_use`), sharing `message.id`; tool results come back as `user`
//! records with `tool_result` blocks and a structured `toolUseResult`; and a good part
//! of the file is session state (`permission-mode`, `custom-title`, `pr-link`,
//! `file-history-snapshot` ...) re-appended without a time whenever metadata is flushed.
//!
//! [`Record`] types the envelope next to the whole object, because record types come
//! and go between versions and an unknown type must still become a row. The line
//! splitting, bad-line handling and side files are the shared [`session_tree`]'s.

use chat_rows::Timestamp;
use chat_rows::lines::Line;
use chat_rows::when;
use serde_json::{Map, Value};
use session_tree::light::{Light as LightView, lenient, lenient_value};
pub use session_tree::log::{Error, truthy};

/// One record of a transcript, with its envelope typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// `type` (`user`, `assistant`, `system`, `attachment`, or a state type).
    pub kind: String,
    /// `timestamp`, UTC; state records have none.
    pub timestamp: Option<Timestamp>,
    /// The whole object; the other envelope fields are read from it on demand.
    pub raw: Map<String, Value>,
}

/// A `timestamp`: ISO 8601 (what Claude Code writes), else epoch milliseconds.
pub fn parse_time(v: &Value) -> Option<Timestamp> {
    match v {
        Value::String(s) => when::parse_iso8601(s, None).or_else(|| when::from_json_millis(v)),
        _ => when::from_json_millis(v),
    }
}

impl Record {
    /// Builds a record from a decoded object.
    pub fn from_map(raw: Map<String, Value>) -> Record {
        let kind = match raw.get("type") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let timestamp = raw.get("timestamp").and_then(parse_time);
        Record {
            kind,
            timestamp,
            raw,
        }
    }

    /// A top-level string field that is not empty.
    fn text(&self, key: &str) -> Option<&str> {
        self.str(key).filter(|s| !s.is_empty())
    }

    /// `uuid`.
    pub fn uuid(&self) -> Option<&str> {
        self.text("uuid")
    }

    /// `parentUuid`: the record this one follows (null at a chain root).
    pub fn parent_uuid(&self) -> Option<&str> {
        self.text("parentUuid")
    }

    /// `logicalParentUuid`: the record before a compaction boundary.
    pub fn logical_parent_uuid(&self) -> Option<&str> {
        self.text("logicalParentUuid")
    }

    /// `sessionId` (in a sub-agent file, the parent's).
    pub fn session_id(&self) -> Option<&str> {
        self.text("sessionId")
    }

    /// `cwd`.
    pub fn cwd(&self) -> Option<&str> {
        self.text("cwd")
    }

    /// `gitBranch`.
    pub fn git_branch(&self) -> Option<&str> {
        self.text("gitBranch")
    }

    /// A top-level string field.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.raw.get(key).and_then(Value::as_str)
    }

    /// True when a top-level flag is set (`true`, a non-empty string ...).
    pub fn flag(&self, key: &str) -> bool {
        truthy(self.raw.get(key))
    }

    /// The `message` object of a `user` or `assistant` record.
    pub fn message(&self) -> Option<&Map<String, Value>> {
        self.raw.get("message").and_then(Value::as_object)
    }

    /// A string field of `message`.
    pub fn message_str(&self, key: &str) -> Option<&str> {
        self.message()?.get(key).and_then(Value::as_str)
    }

    /// `message.content`.
    pub fn content(&self) -> Option<&Value> {
        self.message()?.get("content")
    }

    /// `origin.kind` of a user record or queued command.
    pub fn origin(&self) -> Option<&str> {
        origin_kind(self.raw.get("origin"))
    }
}

/// `kind` of an `origin` object (or the string itself).
pub fn origin_kind(v: Option<&Value>) -> Option<&str> {
    match v? {
        Value::String(s) => Some(s),
        Value::Object(o) => o.get("kind").and_then(Value::as_str),
        _ => None,
    }
}

impl session_tree::Record for Record {
    fn from_map(raw: Map<String, Value>) -> Record {
        Record::from_map(raw)
    }
}

/// A transcript split into lines, decoded on demand into [`Record`]s.
pub type Transcript<'a> = session_tree::SessionLog<'a, Record>;

/// One line of a transcript.
pub type Entry = session_tree::Entry<Record>;

/// Decodes one line into a record.
pub fn decode_record(line: &Line<'_>) -> Result<Record, Error> {
    session_tree::log::decode_record(line)
}

/// The fields of one content block the first pass needs.
#[derive(Default, serde::Deserialize)]
#[serde(default)]
pub(crate) struct LightBlock {
    #[serde(rename = "type", deserialize_with = "lenient")]
    pub kind: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub name: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub tool_use_id: Option<String>,
}

/// `message.content` for the first pass: the blocks, or nothing for a string.
#[derive(Default)]
pub(crate) struct LightContent(pub Vec<LightBlock>);

impl<'de> serde::Deserialize<'de> for LightContent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Shape {
            Blocks(Vec<LightBlock>),
            Other(serde::de::IgnoredAny),
        }
        Ok(match Shape::deserialize(d)? {
            Shape::Blocks(b) => LightContent(b),
            Shape::Other(_) => LightContent(Vec::new()),
        })
    }
}

/// The fields of `message` the first pass needs.
#[derive(Default, serde::Deserialize)]
#[serde(default)]
pub(crate) struct LightMessage {
    #[serde(deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub stop_reason: Option<String>,
    pub content: LightContent,
}

/// The few fields of a record the first pass reads; the rest is skipped.
#[derive(Default, serde::Deserialize)]
#[serde(default)]
pub(crate) struct Light {
    #[serde(rename = "type", deserialize_with = "lenient")]
    pub kind: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub uuid: Option<String>,
    #[serde(rename = "sessionId", deserialize_with = "lenient")]
    pub session_id: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub cwd: Option<String>,
    #[serde(rename = "gitBranch", deserialize_with = "lenient")]
    pub git_branch: Option<String>,
    #[serde(rename = "customTitle", deserialize_with = "lenient")]
    pub custom_title: Option<String>,
    #[serde(rename = "aiTitle", deserialize_with = "lenient")]
    pub ai_title: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub summary: Option<String>,
    #[serde(deserialize_with = "lenient_value")]
    pub timestamp: Option<Value>,
    #[serde(deserialize_with = "light_message")]
    pub message: Option<LightMessage>,
}

fn light_message<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<LightMessage>, D::Error> {
    use serde::Deserialize;
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Shape {
        Message(LightMessage),
        Other(serde::de::IgnoredAny),
    }
    Ok(match Shape::deserialize(d)? {
        Shape::Message(m) => Some(m),
        Shape::Other(_) => None,
    })
}

impl LightView<Record> for Light {
    fn from_record(r: &Record) -> Light {
        let get = |k: &str| r.str(k).filter(|v| !v.is_empty()).map(str::to_string);
        let message = r.message().map(|m| LightMessage {
            id: m.get("id").and_then(Value::as_str).map(str::to_string),
            stop_reason: m
                .get("stop_reason")
                .and_then(Value::as_str)
                .map(str::to_string),
            content: LightContent(
                m.get("content")
                    .and_then(Value::as_array)
                    .map(|blocks| {
                        blocks
                            .iter()
                            .map(|b| {
                                let s = |k: &str| {
                                    b.get(k)
                                        .and_then(Value::as_str)
                                        .filter(|v| !v.is_empty())
                                        .map(str::to_string)
                                };
                                LightBlock {
                                    kind: s("type"),
                                    id: s("id"),
                                    name: s("name"),
                                    tool_use_id: s("tool_use_id"),
                                }
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            ),
        });
        Light {
            kind: Some(r.kind.clone()),
            uuid: r.uuid().map(str::to_string),
            session_id: r.session_id().map(str::to_string),
            cwd: r.cwd().map(str::to_string),
            git_branch: r.git_branch().map(str::to_string),
            custom_title: get("customTitle"),
            ai_title: get("aiTitle"),
            summary: get("summary"),
            timestamp: r.raw.get("timestamp").cloned(),
            message,
        }
    }
}

/// The decoded size of a base64 payload (padding discounted).
pub fn base64_size(data: &str) -> usize {
    let data = data.trim_end();
    let pad = data.bytes().rev().take_while(|b| *b == b'=').count().min(2);
    (data.len() / 4) * 3
        + match data.len() % 4 {
            2 => 1,
            3 => 2,
            _ => 0,
        }
        - if data.len() % 4 == 0 { pad } else { 0 }
}

/// A value as compact JSON.
pub fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_sizes() {
        let r = Record::from_map(
            serde_json::from_str::<Value>(
                r#"{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-06-01T10:00:00.000Z","origin":{"kind":"peer"},"message":{"content":"hi"}}"#,
            )
            .unwrap()
            .as_object()
            .unwrap()
            .clone(),
        );
        assert_eq!(r.kind, "user");
        assert_eq!(r.parent_uuid(), None);
        assert_eq!(r.origin(), Some("peer"));
        assert_eq!(
            r.timestamp.unwrap().to_string(),
            "2026-06-01T10:00:00.000000Z"
        );
        assert_eq!(base64_size("iVBORw0KGgo="), 8);
        assert_eq!(base64_size("YWJj"), 3);
        assert_eq!(base64_size("YWI="), 2);
    }
}
