//! The session format: one compact JSON item per line, OpenAI Responses-style.
//!
//! CodeBuddy itself reads a session file backwards, keeps only the tail and silently
//! skips lines that do not parse. A forensic reader does the opposite: [`SessionLog`]
//! decodes every line, keeps each one as an [`Entry`] with its line number and byte
//! offset, and keeps a line that does not decode as an [`Error`] in its place, so the
//! rows built from the log say what was lost and where, and nothing around it is.
//!
//! [`Item`] carries the fields every item type shares (`id`, `parentId`,
//! `logicalParentId`, `timestamp`, `type`, `role`, `cwd`, `sessionId`) typed, next to
//! the whole object, because item types differ between builds (`turn-metrics` and
//! `session-meta` were seen in 2.161.2 and do not exist in 2.117.0) and an unknown
//! type must still become a row.

use std::path::Path;

use chat_rows::Timestamp;
use chat_rows::lines::Line;
use chat_rows::when;
use serde_json::{Map, Value};
use session_tree::log::string_field;
pub use session_tree::log::{Error, meta_object, truthy};
pub use session_tree::persisted::{PersistedPointer, persisted_pointer};

/// One item of a session file, with its shared fields typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// `id`, where the item has one (`ai-title`, `summary` and `topic` have none).
    pub id: Option<String>,
    /// `parentId`: the item this one follows.
    pub parent_id: Option<String>,
    /// `logicalParentId`: set instead of `parentId` on a compaction summary.
    pub logical_parent_id: Option<String>,
    /// `timestamp` (epoch ms), UTC.
    pub timestamp: Option<Timestamp>,
    /// `type`; a message written without one (the SDK allows it) reads as `message`.
    pub kind: String,
    /// `role` of a message.
    pub role: Option<String>,
    /// `cwd`, on every item but `summary` and `topic`.
    pub cwd: Option<String>,
    /// `sessionId`, where written (sub-agent items carry the sub-agent's own id).
    pub session_id: Option<String>,
    /// The whole object.
    pub raw: Map<String, Value>,
}

/// A `timestamp`: epoch milliseconds (number or digits), else an ISO 8601 string.
pub(crate) fn parse_time(v: &Value) -> Option<Timestamp> {
    match v {
        Value::String(s) => when::from_json_millis(v).or_else(|| when::parse_iso8601(s, None)),
        _ => when::from_json_millis(v),
    }
}

impl Item {
    /// Builds an item from a decoded object.
    pub fn from_map(raw: Map<String, Value>) -> Item {
        let kind = match raw.get("type") {
            Some(Value::String(s)) => s.clone(),
            None if raw.contains_key("role") => "message".to_string(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let timestamp = raw.get("timestamp").and_then(parse_time);
        Item {
            id: string_field(&raw, "id"),
            parent_id: string_field(&raw, "parentId"),
            logical_parent_id: string_field(&raw, "logicalParentId"),
            timestamp,
            role: string_field(&raw, "role"),
            cwd: string_field(&raw, "cwd"),
            session_id: string_field(&raw, "sessionId"),
            kind,
            raw,
        }
    }

    /// A top-level string field.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.raw.get(key).and_then(Value::as_str)
    }

    /// The `providerData` object, if any.
    pub fn provider(&self) -> Option<&Map<String, Value>> {
        self.raw.get("providerData").and_then(Value::as_object)
    }

    /// A `providerData` value.
    pub fn provider_value(&self, key: &str) -> Option<&Value> {
        self.provider().and_then(|p| p.get(key))
    }

    /// True when a `providerData` flag is set: `true`, a non-empty string, or an object.
    pub fn flag(&self, key: &str) -> bool {
        truthy(self.provider_value(key)) || truthy(self.raw.get(key))
    }
}

impl session_tree::Record for Item {
    fn from_map(raw: Map<String, Value>) -> Item {
        Item::from_map(raw)
    }
}

/// One line of a session file: its place, and the item or the reason it is unreadable.
pub type Entry = session_tree::Entry<Item>;

/// A session file split into lines, decoded on demand into [`Item`]s (see
/// [`session_tree::SessionLog`]): splitting is one cheap pass, and each line is decoded
/// only when reached, which keeps a large session's memory near its own size.
pub type SessionLog<'a> = session_tree::SessionLog<'a, Item>;

/// Decodes one line into an item.
pub(crate) fn decode_one(line: &Line<'_>) -> Result<Item, Error> {
    session_tree::log::decode_record(line)
}

/// A sub-agent's `agent-<id>.meta.json`: the link to its parent session and task.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubagentMeta {
    /// `parentSessionId`.
    pub parent_session_id: Option<String>,
    /// `taskId`.
    pub task_id: Option<String>,
    /// `agentName`.
    pub agent_name: Option<String>,
    /// `taskName`.
    pub task_name: Option<String>,
    /// `rootRequestId`.
    pub root_request_id: Option<String>,
    /// `parentConversationId`.
    pub parent_conversation_id: Option<String>,
    /// The whole object.
    pub raw: Map<String, Value>,
}

impl SubagentMeta {
    /// Decodes a sub-agent meta file's bytes; `path` is only for the error.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<SubagentMeta, Error> {
        Ok(SubagentMeta::from_map(meta_object(bytes, path)?))
    }

    /// Reads the link fields of a decoded meta object.
    pub fn from_map(raw: Map<String, Value>) -> SubagentMeta {
        SubagentMeta {
            parent_session_id: string_field(&raw, "parentSessionId"),
            task_id: string_field(&raw, "taskId"),
            agent_name: string_field(&raw, "agentName"),
            task_name: string_field(&raw, "taskName"),
            root_request_id: string_field(&raw, "rootRequestId"),
            parent_conversation_id: string_field(&raw, "parentConversationId"),
            raw,
        }
    }
}

/// The exit status a shell tool result prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitStatus {
    /// `Exit Code: N`; `None` for `(none)` (a signal ended the command).
    pub code: Option<i64>,
    /// The text after the code, `Exit Code: 1 (message)` in PowerShell results.
    pub message: Option<String>,
    /// `Signal: NAME`, when not `(none)`.
    pub signal: Option<String>,
}

/// Reads the `Exit Code: N` (and `Signal:`) lines of a shell result. The last
/// `Exit Code:` line wins, since the command's own output may print one too.
pub fn exit_status(output: &str) -> Option<ExitStatus> {
    let mut found: Option<ExitStatus> = None;
    let mut signal = None;
    for line in output.lines() {
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix("Exit Code:") {
            let rest = rest.trim();
            let (value, message) = match rest.split_once(char::is_whitespace) {
                Some((v, m)) => (
                    v,
                    Some(
                        m.trim()
                            .trim_start_matches('(')
                            .trim_end_matches(')')
                            .to_string(),
                    ),
                ),
                None => (rest, None),
            };
            let code = value.parse::<i64>().ok();
            if code.is_none() && value != "(none)" {
                continue;
            }
            found = Some(ExitStatus {
                code,
                message: message.filter(|m| !m.is_empty()),
                signal: None,
            });
        } else if let Some(rest) = line.strip_prefix("Signal:") {
            let rest = rest.trim();
            signal = (!rest.is_empty() && rest != "(none)").then(|| rest.to_string());
        }
    }
    found.map(|s| ExitStatus { signal, ..s })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_bad_lines_in_place() {
        let log = SessionLog::from_bytes(b"{\"id\":\"a\",\"type\":\"topic\"}\n[1]\n{\"id\":\"b\",\"ty\n{\"role\":\"user\"}\n{\"id\":\"c\"");
        let entries: Vec<Entry> = log.entries();
        assert_eq!(entries.len(), 5);
        assert_eq!(entries[0].item.as_ref().unwrap().kind, "topic");
        let e = entries[1].item.as_ref().unwrap_err();
        assert_eq!(e.to_string(), "line 2 (byte 26): not a JSON object");
        let e = entries[2].item.as_ref().unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3 (byte 30): EOF while parsing a string at line 1 column 13"
        );
        assert_eq!(e.sniffed_id(), Some("b"));
        assert!(!e.is_torn());
        assert_eq!(entries[3].item.as_ref().unwrap().kind, "message");
        let e = entries[4].item.as_ref().unwrap_err();
        assert!(e.is_torn());
        assert_eq!(e.line(), Some(5));
        assert_eq!(e.sniffed_id(), Some("c"));
        assert_eq!(log.errors().len(), 3);
        assert!(SessionLog::from_vec(b"\n\n".to_vec()).entries().is_empty());
    }

    #[test]
    fn exit_codes() {
        let bash = "Command: npm test\nStdout: ok\nExit Code: 0\nSignal: (none)";
        assert_eq!(
            exit_status(bash),
            Some(ExitStatus {
                code: Some(0),
                message: None,
                signal: None
            })
        );
        let killed = "Command: sleep 9\nExit Code: (none)\nSignal: SIGTERM";
        assert_eq!(
            exit_status(killed),
            Some(ExitStatus {
                code: None,
                message: None,
                signal: Some("SIGTERM".into())
            })
        );
        let ps = "Get-Item : not found\nExit Code: 1 (The term is not recognized)";
        assert_eq!(
            exit_status(ps),
            Some(ExitStatus {
                code: Some(1),
                message: Some("The term is not recognized".into()),
                signal: None
            })
        );
        assert_eq!(exit_status("no code here"), None);
        assert_eq!(exit_status("Exit Code: banana"), None);
    }

    #[test]
    fn persisted_pointers() {
        let out = "<persisted-output>\nOutput too large (52.3KB). Full output saved to: /home/a/.codebuddy/projects/home-a/s1/tool-results/call_1.txt\n\nPreview (first 2KB):\nx\n</persisted-output>";
        let p = persisted_pointer(out, "s1").unwrap();
        assert_eq!(p.relative, "s1/tool-results/call_1.txt");
        let out = r"<persisted-output>Full output saved to: C:\Users\c\.codebuddy\projects\c-Users-c\s2\tool-results\b.txt</persisted-output>";
        assert_eq!(
            persisted_pointer(out, "s2").unwrap().relative,
            "s2/tool-results/b.txt"
        );
        let out = "<persisted-output>see /tmp/x/tool-results/c.txt for all</persisted-output>";
        assert_eq!(
            persisted_pointer(out, "s3").unwrap().relative,
            "s3/tool-results/c.txt"
        );
        assert_eq!(
            persisted_pointer(
                "<persisted-output>saved to: /p/projects/d/../tool-results/x</persisted-output>",
                "s"
            ),
            None
        );
        assert_eq!(persisted_pointer("plain output", "s"), None);
    }
}
