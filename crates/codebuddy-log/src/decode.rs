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

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use chat_rows::Evidence;
use chat_rows::Timestamp;
use chat_rows::lines::{BadLine, BadLineKind, Line, decode_line, lines};
use chat_rows::when;
use serde_json::{Map, Value};

/// Everything that can go wrong reading CodeBuddy files. Each variant says where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A line that is not JSON (or not UTF-8): broken in the middle, or torn at the end.
    #[error("line {} (byte {}): {}", .0.number, .0.offset, .0.reason)]
    Line(BadLine),
    /// A line that is JSON but not an object.
    #[error("line {line} (byte {offset}): not a JSON object")]
    NotObject {
        /// 1-based line number.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
        /// The line's text.
        text: String,
    },
    /// A file could not be read at all.
    #[error("{path}: cannot read ({reason})")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// A side file (`.meta.json`) that is not a JSON object.
    #[error("{path}: not a JSON object ({reason})")]
    Sidecar {
        /// The file.
        path: PathBuf,
        /// serde_json's reason (with line and column), or the JSON type found.
        reason: String,
    },
}

impl Error {
    /// The 1-based line of a line error.
    pub fn line(&self) -> Option<u64> {
        match self {
            Error::Line(b) => Some(b.number),
            Error::NotObject { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// True for a torn last line (a write cut off), false for damage.
    pub fn is_torn(&self) -> bool {
        matches!(self, Error::Line(b) if b.kind == BadLineKind::Torn)
    }

    /// The `id` a broken line most likely had. CodeBuddy writes `id` first, so a line
    /// cut or damaged after its opening `{"id":"...",` still names its record; this is
    /// how a `parentId` link to a broken record is told apart from one to a missing record.
    pub fn sniffed_id(&self) -> Option<&str> {
        let text = match self {
            Error::Line(b) => b.text.as_str(),
            Error::NotObject { text, .. } => text.as_str(),
            _ => return None,
        };
        let rest = text.trim_start().strip_prefix("{\"id\":\"")?;
        let end = rest.find('"')?;
        let id = &rest[..end];
        (!id.is_empty() && !id.contains('\\')).then_some(id)
    }
}

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

fn string_field(map: &Map<String, Value>, key: &str) -> Option<String> {
    match map.get(key)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
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

/// True for `true`, a non-empty string, a non-zero number, an object or a non-empty array.
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(_)) => true,
    }
}

/// One line of a session file: its place, and the item or the reason it is unreadable.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line.
    pub offset: u64,
    /// The item, or why the line could not be read.
    pub item: Result<Item, Error>,
}

/// Where a non-blank line lies in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    number: u64,
    start: usize,
    end: usize,
    last: bool,
    terminated: bool,
}

/// A session file split into lines, decoded on demand.
///
/// Splitting is one cheap pass; each line is decoded only when [`SessionLog::entries`]
/// reaches it, and the caller drops the item once mapped. That keeps a large session's
/// memory near its own size instead of holding every decoded JSON tree at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionLog<'a> {
    data: Cow<'a, [u8]>,
    spans: Vec<Span>,
}

/// Decodes one line into an item.
pub(crate) fn decode_one(line: &Line<'_>) -> Result<Item, Error> {
    match decode_line::<Value>(line) {
        Ok(Value::Object(map)) => Ok(Item::from_map(map)),
        Ok(_) => Err(Error::NotObject {
            line: line.number,
            offset: line.offset,
            text: line.text_lossy().into_owned(),
        }),
        Err(bad) => Err(Error::Line(bad)),
    }
}

impl<'a> SessionLog<'a> {
    /// Splits a session file's bytes into lines. Never fails: a bad line is an error
    /// entry in its place when [`SessionLog::entries`] reaches it.
    pub fn from_bytes(bytes: &'a [u8]) -> SessionLog<'a> {
        SessionLog::new(Cow::Borrowed(bytes))
    }

    /// Like [`SessionLog::from_bytes`], owning the bytes.
    pub fn from_vec(bytes: Vec<u8>) -> SessionLog<'static> {
        SessionLog::new(Cow::Owned(bytes))
    }

    /// Reads a session file through the evidence gateway.
    pub fn from_path(path: &Path, evidence: &Evidence) -> Result<SessionLog<'static>, Error> {
        let bytes = evidence.read(path).map_err(|e| Error::Io {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        Ok(SessionLog::from_vec(bytes))
    }

    fn new(data: Cow<'a, [u8]>) -> SessionLog<'a> {
        let spans = lines(&data)
            .map(|l| Span {
                number: l.number,
                start: l.offset as usize,
                end: l.offset as usize + l.bytes.len(),
                last: l.last,
                terminated: l.terminated,
            })
            .collect();
        SessionLog { data, spans }
    }

    /// The number of non-blank lines.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when the file has no non-blank line.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The non-blank lines, undecoded.
    pub fn lines(&self) -> impl Iterator<Item = Line<'_>> {
        self.spans.iter().map(|s| Line {
            number: s.number,
            offset: s.start as u64,
            bytes: self.data.get(s.start..s.end).unwrap_or_default(),
            last: s.last,
            terminated: s.terminated,
        })
    }

    /// Every line decoded, in order: the item, or why the line is unreadable.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.lines().map(|line| Entry {
            line: line.number,
            offset: line.offset,
            item: decode_one(&line),
        })
    }

    /// The unreadable lines (decodes the whole file).
    pub fn errors(&self) -> impl Iterator<Item = Error> + '_ {
        self.entries().filter_map(|e| e.item.err())
    }
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

/// Decodes a JSON side file that must be an object.
pub fn meta_object(bytes: &[u8], path: &Path) -> Result<Map<String, Value>, Error> {
    match chat_rows::json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(Error::Sidecar {
            path: path.to_path_buf(),
            reason: format!("found {}", json_type(&other)),
        }),
        Err(e) => Err(Error::Sidecar {
            path: path.to_path_buf(),
            reason: e.to_string(),
        }),
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
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

/// A `<persisted-output>` pointer found in a tool result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersistedPointer {
    /// The path as the pointer writes it (on the original host).
    pub written: String,
    /// The path relative to the project folder, `/`-separated:
    /// `<session-id>/tool-results/<name>`.
    pub relative: String,
}

/// Finds a `<persisted-output>` pointer and the file it names. The path is taken from
/// the pointer's `saved to:` phrase, else from any token that holds a `tool-results`
/// component; it is mapped into the evidence by its components after
/// `projects/<mangled-cwd>/` (or `<session>/tool-results/...` when the pointer has no
/// `projects` component). A path with `..` is refused.
pub fn persisted_pointer(output: &str, session_id: &str) -> Option<PersistedPointer> {
    let start = output.find("<persisted-output>")?;
    let body = &output[start + "<persisted-output>".len()..];
    let body = body.split("</persisted-output>").next().unwrap_or(body);
    let written = body
        .lines()
        .find_map(|l| {
            let i = l.find("saved to:")?;
            Some(l[i + "saved to:".len()..].trim().to_string())
        })
        .filter(|p| p.contains("tool-results"))
        .or_else(|| {
            body.split_whitespace()
                .find(|t| t.contains("tool-results/") || t.contains("tool-results\\"))
                .map(str::to_string)
        })?;
    let written = written.trim_end_matches(['.', ',', ')']).to_string();
    let comps: Vec<&str> = written
        .split(['/', '\\'])
        .filter(|c| !c.is_empty())
        .collect();
    if comps.iter().any(|c| *c == ".." || *c == ".") {
        return None;
    }
    let rel: Vec<&str> = if let Some(p) = comps.iter().rposition(|c| *c == "projects") {
        comps.get(p + 2..)?.to_vec()
    } else {
        let t = comps.iter().position(|c| *c == "tool-results")?;
        let mut v = vec![session_id];
        v.extend_from_slice(&comps[t..]);
        v
    };
    if rel.len() < 2 || !rel.contains(&"tool-results") {
        return None;
    }
    Some(PersistedPointer {
        relative: rel.join("/"),
        written,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_bad_lines_in_place() {
        let log = SessionLog::from_bytes(b"{\"id\":\"a\",\"type\":\"topic\"}\n[1]\n{\"id\":\"b\",\"ty\n{\"role\":\"user\"}\n{\"id\":\"c\"");
        assert_eq!(log.len(), 5);
        let entries: Vec<Entry> = log.entries().collect();
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
        assert_eq!(log.errors().count(), 3);
        assert!(SessionLog::from_vec(b"\n\n".to_vec()).is_empty());
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
