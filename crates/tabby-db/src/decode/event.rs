//! Tabby's events: the daily log's `LogEntry` lines and the `user_events` payloads.
//!
//! Both hold the same serde enum, externally tagged in snake_case
//! (`{"completion":{...}}`, `{"select":{...}}`, `{"chat_completion":{}}`): the log
//! line wraps it as `{user, ts, event}` in compact JSON, the table stores it alone,
//! pretty-printed, in `payload`. One decoder serves both, so a log line and its
//! `user_events` twin give identical rows and merge away.
//!
//! Decoding works on `serde_json::Value` rather than typed structs: a field Tabby
//! added or dropped between releases must not cost the whole event.

use chat_rows::lines::{BadLine, BadLineKind, Line, LineReader, decode_line, json_lines};
use chat_rows::when::Timestamp;
use serde_json::Value;

/// A completion the server returned: the full prompt and every choice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// `cmpl-<uuid>`: the row's session.
    pub completion_id: String,
    /// The language.
    pub language: Option<String>,
    /// The full prompt sent to the model.
    pub prompt: String,
    /// `segments.git_url`: the row's project.
    pub git_url: Option<String>,
    /// `segments.filepath`.
    pub filepath: Option<String>,
    /// `(index, text)` of each choice.
    pub choices: Vec<(i64, String)>,
    /// The client's user agent, when sent.
    pub user_agent: Option<String>,
}

/// A view, select or dismiss of a completion's choice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interaction {
    /// The completion.
    pub completion_id: String,
    /// The choice.
    pub choice_index: Option<i64>,
    /// `kind` of a select (only `line`).
    pub kind: Option<String>,
    /// The view id.
    pub view_id: Option<String>,
    /// Milliseconds from view to select or dismiss.
    pub elapsed: Option<i64>,
}

/// One event.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// `completion`.
    Completion(Completion),
    /// `view`.
    View(Interaction),
    /// `select`.
    Select(Interaction),
    /// `dismiss`.
    Dismiss(Interaction),
    /// `chat_completion` (no fields: the server logs only that a chat answer ran).
    ChatCompletion,
    /// A kind this decoder does not know, kept with its fields.
    Other {
        /// The tag.
        kind: String,
        /// The fields.
        value: Value,
    },
}

impl Event {
    /// The tag: `completion`, `view`, `select`, `dismiss`, `chat_completion` ...
    pub fn kind(&self) -> &str {
        match self {
            Event::Completion(_) => "completion",
            Event::View(_) => "view",
            Event::Select(_) => "select",
            Event::Dismiss(_) => "dismiss",
            Event::ChatCompletion => "chat_completion",
            Event::Other { kind, .. } => kind,
        }
    }

    /// The completion id the event belongs to (empty for chat completions).
    pub fn completion_id(&self) -> &str {
        match self {
            Event::Completion(c) => &c.completion_id,
            Event::View(i) | Event::Select(i) | Event::Dismiss(i) => &i.completion_id,
            _ => "",
        }
    }

    /// Decodes an externally tagged event object.
    pub fn from_value(v: &Value) -> Result<Event, String> {
        let obj = v.as_object().ok_or("event is not a JSON object")?;
        let mut iter = obj.iter();
        let (kind, body) = match (iter.next(), iter.next()) {
            (Some(kv), None) => kv,
            (None, _) => return Err("event object is empty".into()),
            _ => {
                return Err(format!(
                    "event object has {} keys, expected one tag",
                    obj.len()
                ));
            }
        };
        let s = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_string);
        let i = |k: &str| body.get(k).and_then(Value::as_i64);
        let interaction = || Interaction {
            completion_id: s("completion_id").unwrap_or_default(),
            choice_index: i("choice_index"),
            kind: s("kind"),
            view_id: s("view_id"),
            elapsed: i("elapsed"),
        };
        Ok(match kind.as_str() {
            "completion" => {
                let seg = body.get("segments");
                let seg_s = |k: &str| {
                    seg.and_then(|g| g.get(k))
                        .and_then(Value::as_str)
                        .map(str::to_string)
                };
                let choices = match body.get("choices") {
                    Some(Value::Array(a)) => a
                        .iter()
                        .enumerate()
                        .map(|(n, c)| {
                            let idx = c.get("index").and_then(Value::as_i64).unwrap_or(n as i64);
                            let text = c
                                .get("text")
                                .and_then(Value::as_str)
                                .unwrap_or_default()
                                .to_string();
                            (idx, text)
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                Event::Completion(Completion {
                    completion_id: s("completion_id").unwrap_or_default(),
                    language: s("language"),
                    prompt: s("prompt").unwrap_or_default(),
                    git_url: seg_s("git_url"),
                    filepath: seg_s("filepath"),
                    choices,
                    user_agent: s("user_agent"),
                })
            }
            "view" => Event::View(interaction()),
            "select" => Event::Select(interaction()),
            "dismiss" => Event::Dismiss(interaction()),
            "chat_completion" => Event::ChatCompletion,
            other => Event::Other {
                kind: other.to_string(),
                value: body.clone(),
            },
        })
    }
}

/// One decoded log line.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line.
    pub offset: u64,
    /// The `user` field: Tabby's hash id of the user, or `None`.
    pub user: Option<String>,
    /// `ts`, epoch milliseconds; `None` when missing or out of range.
    pub ts: Option<Timestamp>,
    /// The event.
    pub event: Event,
}

/// A day's event log: its entries and its bad lines, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventLog {
    /// Each non-blank line: an entry, or why it could not be read.
    pub entries: Vec<Result<LogEntry, BadLine>>,
}

fn shape_error(line: &Line<'_>, reason: String) -> BadLine {
    BadLine::new(line, BadLineKind::Broken, reason)
}

impl EventLog {
    /// Decodes a log file's bytes. Never fails: bad lines are kept as [`BadLine`]s.
    pub fn from_bytes(bytes: &[u8]) -> EventLog {
        let entries = json_lines::<Value>(bytes)
            .map(|(line, r)| entry_of(&line, r))
            .collect();
        EventLog { entries }
    }

    /// Decodes a log a line at a time as `lines` reads it (a chunk at a time from an
    /// evidence file: [`chat_rows::Evidence::read_lines`]), handing each entry, or why
    /// its line could not be read, to `f`: nothing is held. `Err` when the source fails
    /// midway, after the entries of the lines before it.
    pub fn each_entry(
        lines: &mut LineReader<'_>,
        mut f: impl FnMut(Result<LogEntry, BadLine>),
    ) -> std::io::Result<()> {
        while let Some(line) = lines.next_line() {
            let line = line?;
            f(entry_of(&line, decode_line::<Value>(&line)));
        }
        Ok(())
    }
}

/// One line's entry, from its decoded JSON.
fn entry_of(line: &Line<'_>, decoded: Result<Value, BadLine>) -> Result<LogEntry, BadLine> {
    let v = decoded?;
    let Some(obj) = v.as_object() else {
        return Err(shape_error(
            line,
            "not a Tabby log entry: not a JSON object".into(),
        ));
    };
    let Some(ev) = obj.get("event") else {
        return Err(shape_error(line, "not a Tabby log entry: no event".into()));
    };
    let event = Event::from_value(ev)
        .map_err(|e| shape_error(line, format!("not a Tabby log entry: {e}")))?;
    let user = match obj.get("user") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let ts = obj
        .get("ts")
        .and_then(Value::as_i64)
        .and_then(Timestamp::from_epoch_millis);
    Ok(LogEntry {
        line: line.number,
        offset: line.offset,
        user,
        ts,
        event,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_spec_lines_and_a_cut_last_line() {
        let log = b"{\"user\":\"E16n1q\",\"ts\":1759312800123,\"event\":{\"completion\":{\"completion_id\":\"cmpl-7f3a\",\"language\":\"python\",\"prompt\":\"def add(a, b):\\n    \",\"segments\":{\"prefix\":\"def add(a, b):\\n    \",\"suffix\":\"\\n\",\"git_url\":\"https://github.com/acme/app\",\"filepath\":\"app/math.py\"},\"choices\":[{\"index\":0,\"text\":\"return a + b\"}],\"user_agent\":\"tabby-agent/1.9\"}}}\n{\"user\":null,\"ts\":1759312801500,\"event\":{\"select\":{\"completion_id\":\"cmpl-7f3a\",\"choice_index\":0,\"view_id\":\"view-1\",\"elapsed\":1377}}}\n{\"user\":\"E16n1q\",\"ts\":17593";
        let log = EventLog::from_bytes(log);
        assert_eq!(log.entries.len(), 3);
        let e = log.entries[0].as_ref().unwrap();
        assert_eq!(e.user.as_deref(), Some("E16n1q"));
        assert_eq!(e.ts.unwrap().to_string(), "2025-10-01T10:00:00.123000Z");
        let Event::Completion(c) = &e.event else {
            panic!("{:?}", e.event)
        };
        assert_eq!(c.completion_id, "cmpl-7f3a");
        assert_eq!(c.git_url.as_deref(), Some("https://github.com/acme/app"));
        assert_eq!(c.choices, vec![(0, "return a + b".to_string())]);
        let e = log.entries[1].as_ref().unwrap();
        assert_eq!(e.user, None);
        assert_eq!(
            e.event,
            Event::Select(Interaction {
                completion_id: "cmpl-7f3a".into(),
                choice_index: Some(0),
                kind: None,
                view_id: Some("view-1".into()),
                elapsed: Some(1377)
            })
        );
        let bad = log.entries[2].as_ref().unwrap_err();
        assert_eq!(bad.kind, BadLineKind::Torn);
        assert_eq!(bad.number, 3);
    }

    #[test]
    fn shape_errors_are_reported() {
        let log = EventLog::from_bytes(b"[1]\n{\"ts\":1}\n{\"event\":{\"a\":{},\"b\":{}}}\n{\"event\":{\"future\":{\"x\":1}}}\n");
        let reasons: Vec<_> = log
            .entries
            .iter()
            .map(|e| e.as_ref().err().map(|b| b.reason.clone()))
            .collect();
        assert_eq!(
            reasons,
            vec![
                Some("not a Tabby log entry: not a JSON object".to_string()),
                Some("not a Tabby log entry: no event".to_string()),
                Some(
                    "not a Tabby log entry: event object has 2 keys, expected one tag".to_string()
                ),
                None
            ]
        );
        let e = log.entries[3].as_ref().unwrap();
        assert_eq!(e.event.kind(), "future");
        assert_eq!(e.ts, None);
    }
}
