//! The session file: one compact JSON object per line, decoded on demand.
//!
//! Both products read their sessions leniently (backwards, tail only, bad lines
//! skipped). A forensic reader does the opposite: [`SessionLog`] keeps every line as an
//! [`Entry`] with its line number and byte offset, and a line that does not decode as
//! an [`Error`] in its place, so the rows built from it say what was lost and where,
//! and nothing around it is. What a line decodes *into* is the product's: a [`Record`]
//! built from the JSON object (CodeBuddy's items, Claude Code's records).

use std::borrow::Cow;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use chat_rows::Evidence;
use chat_rows::lines::{BadLine, BadLineKind, Line, decode_line, lines};
use serde_json::{Map, Value};

/// Everything that can go wrong reading the files of a session tree. Each variant says where.
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

    /// The text of a broken line.
    pub fn line_text(&self) -> Option<&str> {
        match self {
            Error::Line(b) => Some(b.text.as_str()),
            Error::NotObject { text, .. } => Some(text.as_str()),
            _ => None,
        }
    }

    /// The `id` a broken line most likely had. CodeBuddy writes `id` first, so a line
    /// cut or damaged after its opening `{"id":"...",` still names its record; this is
    /// how a link to a broken record is told apart from one to a missing record.
    pub fn sniffed_id(&self) -> Option<&str> {
        let rest = self.line_text()?.trim_start().strip_prefix("{\"id\":\"")?;
        let end = rest.find('"')?;
        let id = &rest[..end];
        (!id.is_empty() && !id.contains('\\')).then_some(id)
    }

    /// The first `"key":"value"` a broken line still holds (no escapes in the value).
    pub fn sniff(&self, key: &str) -> Option<String> {
        let text = self.line_text()?;
        let pat = format!("\"{key}\":\"");
        let start = text.find(&pat)? + pat.len();
        let rest = &text[start..];
        let end = rest.find('"')?;
        Some(rest[..end].to_string()).filter(|v| !v.is_empty() && !v.contains('\\'))
    }

    /// The `parser:` row text of a line that could not be read.
    pub fn row_text(&self) -> String {
        match self {
            Error::Line(bad) => chat_rows::system::unparseable_line(&bad.reason, &bad.text),
            Error::NotObject { text, .. } => {
                chat_rows::system::unparseable_line("not a JSON object", text)
            }
            other => chat_rows::system::parser(other),
        }
    }
}

/// What a product decodes one JSON object line into.
pub trait Record: Sized {
    /// Builds the record from a decoded object.
    fn from_map(raw: Map<String, Value>) -> Self;
}

impl Record for Map<String, Value> {
    fn from_map(raw: Map<String, Value>) -> Self {
        raw
    }
}

/// Decodes one line into a JSON object.
pub fn decode_object(line: &Line<'_>) -> Result<Map<String, Value>, Error> {
    match decode_line::<Value>(line) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::NotObject {
            line: line.number,
            offset: line.offset,
            text: line.text_lossy().into_owned(),
        }),
        Err(bad) => Err(Error::Line(bad)),
    }
}

/// Decodes one line into a record.
pub fn decode_record<R: Record>(line: &Line<'_>) -> Result<R, Error> {
    decode_object(line).map(R::from_map)
}

/// One line of a session file: its place, and the record or the reason it is unreadable.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<R> {
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line.
    pub offset: u64,
    /// The record, or why the line could not be read.
    pub item: Result<R, Error>,
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

/// A session file split into lines, decoded on demand into `R`.
///
/// Splitting is one cheap pass; each line is decoded only when [`SessionLog::entries`]
/// reaches it, and the caller drops the record once mapped. That keeps a large session's
/// memory near its own size instead of holding every decoded JSON tree at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionLog<'a, R = Map<String, Value>> {
    data: Cow<'a, [u8]>,
    spans: Vec<Span>,
    record: PhantomData<fn() -> R>,
}

impl<R> Default for SessionLog<'_, R> {
    fn default() -> Self {
        SessionLog {
            data: Cow::Borrowed(&[]),
            spans: Vec::new(),
            record: PhantomData,
        }
    }
}

impl<'a, R: Record> SessionLog<'a, R> {
    /// Splits a session file's bytes into lines. Never fails: a bad line is an error
    /// entry in its place when [`SessionLog::entries`] reaches it.
    pub fn from_bytes(bytes: &'a [u8]) -> SessionLog<'a, R> {
        SessionLog::new(Cow::Borrowed(bytes))
    }

    /// Like [`SessionLog::from_bytes`], owning the bytes.
    pub fn from_vec(bytes: Vec<u8>) -> SessionLog<'static, R> {
        SessionLog::new(Cow::Owned(bytes))
    }

    /// Reads a session file through the evidence gateway.
    pub fn from_path(path: &Path, evidence: &Evidence) -> Result<SessionLog<'static, R>, Error> {
        let bytes = evidence.read(path).map_err(|e| Error::Io {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        Ok(SessionLog::from_vec(bytes))
    }

    fn new(data: Cow<'a, [u8]>) -> SessionLog<'a, R> {
        let spans = lines(&data)
            .map(|l| Span {
                number: l.number,
                start: l.offset as usize,
                end: l.offset as usize + l.bytes.len(),
                last: l.last,
                terminated: l.terminated,
            })
            .collect();
        SessionLog {
            data,
            spans,
            record: PhantomData,
        }
    }

    /// The number of non-blank lines.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when the file has no non-blank line.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.data
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

    /// Every line decoded, in order: the record, or why the line is unreadable.
    pub fn entries(&self) -> impl Iterator<Item = Entry<R>> + '_ {
        self.lines().map(|line| Entry {
            line: line.number,
            offset: line.offset,
            item: decode_record(&line),
        })
    }

    /// Every line with its decoded entry, in order (the line kept for quoting).
    pub fn lines_and_entries(&self) -> impl Iterator<Item = (Line<'_>, Entry<R>)> {
        self.lines().map(|line| {
            let entry = Entry {
                line: line.number,
                offset: line.offset,
                item: decode_record(&line),
            };
            (line, entry)
        })
    }

    /// The unreadable lines (decodes the whole file).
    pub fn errors(&self) -> impl Iterator<Item = Error> + '_ {
        self.entries().filter_map(|e| e.item.err())
    }
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

/// `null`, `a boolean`, `a number`, `a string`, `an array` or `an object`.
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A non-empty string field.
pub fn string_field(map: &Map<String, Value>, key: &str) -> Option<String> {
    match map.get(key)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// A value as row text: a string as it is, null as nothing, anything else as JSON.
pub fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_bad_lines_in_place_and_sniffs_them() {
        let log: SessionLog<'_> = SessionLog::from_bytes(
            b"{\"a\":1}\n[1]\n{\"uuid\":\"u7\",\"x\":\"\xff\"}\n{\"id\":\"c\"",
        );
        let e: Vec<_> = log.entries().collect();
        assert_eq!(e.len(), 4);
        assert!(e[0].item.is_ok());
        assert_eq!(
            e[1].item.as_ref().unwrap_err().row_text(),
            "parser: unparseable line (not a JSON object): [1]"
        );
        assert_eq!(
            e[2].item.as_ref().unwrap_err().sniff("uuid").as_deref(),
            Some("u7")
        );
        assert!(e[3].item.as_ref().unwrap_err().is_torn());
        assert_eq!(e[3].item.as_ref().unwrap_err().sniffed_id(), Some("c"));
        assert_eq!(log.errors().count(), 3);
    }
}
