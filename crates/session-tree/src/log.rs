//! The session file: one compact JSON object per line, decoded on demand.
//!
//! Both products read their sessions leniently (backwards, tail only, bad lines
//! skipped). A forensic reader does the opposite: [`SessionLog`] keeps every line as an
//! [`Entry`] with its line number and byte offset, and a line that does not decode as
//! an [`Error`] in its place, so the rows built from it say what was lost and where,
//! and nothing around it is. What a line decodes *into* is the product's: a [`Record`]
//! built from the JSON object (CodeBuddy's items, Claude Code's records).

use std::borrow::Cow;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use chat_rows::Evidence;
use chat_rows::lines::{BadLine, BadLineKind, Line, LineReader, decode_line, lines};
use serde_json::{Map, Value};

/// Everything that can go wrong reading the files of a session tree. Each variant says where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A line that is not JSON (or not UTF-8): broken in the middle, or torn at the end;
    /// and what it still says ([`Error::sniff`]).
    #[error("line {} (byte {}): {}", .0.number, .0.offset, .0.reason)]
    Line(BadLine, Box<Sniffed>),
    /// A line that is JSON but not an object.
    #[error("line {line} (byte {offset}): not a JSON object")]
    NotObject {
        /// 1-based line number.
        line: u64,
        /// Byte offset of the line.
        offset: u64,
        /// The start of the line's text, as a row quotes it ([`Line::quoted`]).
        text: String,
        /// The length in bytes of the line's whole text.
        len: usize,
        /// What the line says ([`Error::sniff`]).
        sniffed: Box<Sniffed>,
    },
    /// A file could not be read at all.
    #[error("{path}: cannot read ({reason})")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// A file that failed midway (a disk or share error, or a file that grew past the
    /// size cap while read): the lines before `offset` were read.
    #[error("{path}: cannot read ({reason})")]
    Midway {
        /// The file.
        path: PathBuf,
        /// How many bytes were read when it failed.
        offset: u64,
        /// The operating system's reason.
        reason: String,
    },
    /// A file whose lines changed between two passes over it (written in place while it
    /// was read): the rows are of the last pass, the links and titles of the first.
    #[error("{path}: changed while it was read (its lines differ between the two passes)")]
    Changed {
        /// The file.
        path: PathBuf,
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
            Error::Line(b, _) => Some(b.number),
            Error::NotObject { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// The byte offset of a line error or of a read that failed midway.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::Line(b, _) => Some(b.offset),
            Error::NotObject { offset, .. } | Error::Midway { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// The same error naming the file as `display` (the path shown in rows).
    pub fn with_display(self, display: &str) -> Error {
        let path = PathBuf::from(display);
        match self {
            Error::Io { reason, .. } => Error::Io { path, reason },
            Error::Midway { offset, reason, .. } => Error::Midway {
                path,
                offset,
                reason,
            },
            Error::Changed { .. } => Error::Changed { path },
            other => other,
        }
    }

    /// True for a torn last line (a write cut off), false for damage.
    pub fn is_torn(&self) -> bool {
        matches!(self, Error::Line(b, _) if b.kind == BadLineKind::Torn)
    }

    /// The start of a broken line's text, as its row quotes it (at most
    /// [`chat_rows::system::MAX_QUOTED`] characters: a broken line is never held whole).
    pub fn line_text(&self) -> Option<&str> {
        match self {
            Error::Line(b, _) => Some(b.text.as_str()),
            Error::NotObject { text, .. } => Some(text.as_str()),
            _ => None,
        }
    }

    fn sniffed(&self) -> Option<&Sniffed> {
        match self {
            Error::Line(_, s) | Error::NotObject { sniffed: s, .. } => Some(s),
            _ => None,
        }
    }

    /// The `id` a broken line most likely had. CodeBuddy writes `id` first, so a line
    /// cut or damaged after its opening `{"id":"...",` still names its record; this is
    /// how a link to a broken record is told apart from one to a missing record.
    pub fn sniffed_id(&self) -> Option<&str> {
        self.sniffed()?.first_id.as_deref()
    }

    /// The first `"key":"value"` a broken line still holds (no escapes in the value),
    /// for `key` one of [`SNIFFED_KEYS`] (read from the whole line when it was met;
    /// any other key is never found).
    pub fn sniff(&self, key: &str) -> Option<String> {
        let i = SNIFFED_KEYS.iter().position(|k| *k == key)?;
        self.sniffed()?.values[i].clone()
    }

    /// The `parser:` row text of a line that could not be read.
    pub fn row_text(&self) -> String {
        match self {
            Error::Line(bad, _) => {
                chat_rows::system::unparseable_line_quoted(&bad.reason, &bad.quote())
            }
            Error::NotObject { text, len, .. } => chat_rows::system::unparseable_line_quoted(
                "not a JSON object",
                &chat_rows::system::quote_cut(text, *len),
            ),
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

/// The keys [`Error::sniff`] finds in a broken line: what the rows of the two products
/// ask of a line they cannot read (a record's `id` or `uuid`, a result's
/// `tool_use_id`, a call's `callId`, a record's `type`).
pub const SNIFFED_KEYS: [&str; 5] = ["id", "uuid", "tool_use_id", "callId", "type"];

/// What a line that could not be read still says, found in the whole line when it was
/// met, so that the error holds a few short values rather than the line (a broken line
/// of 1 GiB was copied whole into its error, and read again for each key).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sniffed {
    /// The id of a line that opens with `{"id":"` (after white space).
    first_id: Option<String>,
    /// The first `"<key>":"<value>"` of each of [`SNIFFED_KEYS`]: a value without an
    /// escape, not empty.
    values: [Option<String>; SNIFFED_KEYS.len()],
}

impl Sniffed {
    /// Reads the line's bytes once for each key (the line as text with invalid UTF-8
    /// replaced, as the whole text would read, without copying it).
    fn of(bytes: &[u8]) -> Sniffed {
        let value_at = |rest: &[u8]| -> Option<String> {
            let end = memchr::memchr(b'"', rest)?;
            let v = String::from_utf8_lossy(&rest[..end]);
            (!v.is_empty() && !v.contains('\\')).then(|| v.into_owned())
        };
        let values = SNIFFED_KEYS.map(|key| {
            let pat = format!("\"{key}\":\"");
            let start = memchr::memmem::find(bytes, pat.as_bytes())? + pat.len();
            value_at(&bytes[start..])
        });
        // white space at the start as `str::trim_start` sees it (an invalid sequence,
        // read as U+FFFD, is none), a character at a time
        let mut skip = 0;
        while let Some(c) = bytes
            .get(skip..bytes.len().min(skip + 4))
            .and_then(|w| w.utf8_chunks().next())
            .and_then(|chunk| chunk.valid().chars().next())
            .filter(|c| c.is_whitespace())
        {
            skip += c.len_utf8();
        }
        let first_id = bytes[skip..].strip_prefix(b"{\"id\":\"").and_then(value_at);
        Sniffed { first_id, values }
    }
}

/// Decodes one line into a JSON object.
pub fn decode_object(line: &Line<'_>) -> Result<Map<String, Value>, Error> {
    match decode_line::<Value>(line) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => {
            let (text, len) = line.quoted();
            Err(Error::NotObject {
                line: line.number,
                offset: line.offset,
                text,
                len,
                sniffed: Box::new(Sniffed::of(line.bytes)),
            })
        }
        Err(bad) => Err(Error::Line(bad, Box::new(Sniffed::of(line.bytes)))),
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

/// A session log's bytes: at hand, or an evidence file read a chunk at a time.
enum Source<'a> {
    Bytes(Cow<'a, [u8]>),
    File {
        path: PathBuf,
        evidence: &'a Evidence,
    },
}

/// What the first pass over a file saw, which every later pass must see again.
#[derive(Clone, Debug)]
struct FirstPass {
    /// Bytes read: later passes read no further, so a live file appended to in between
    /// gives the same lines.
    end: u64,
    /// Non-blank lines given.
    count: u64,
    /// The lines' numbers, offsets and bytes, hashed.
    fingerprint: u64,
    /// The error that ended it, if one did: later passes stop after `count` lines and
    /// give it (the line it cut is not given as torn).
    failed: Option<Error>,
}

/// A hash of the lines a pass gives, to tell that two passes read the same lines.
struct Fingerprint(foldhash::fast::FoldHasher<'static>);

impl Fingerprint {
    fn new() -> Fingerprint {
        use std::hash::BuildHasher;
        Fingerprint(foldhash::fast::FixedState::with_seed(0x5e55_1017).build_hasher())
    }

    fn add(&mut self, line: &Line<'_>) {
        use std::hash::Hasher;
        self.0.write_u64(line.number);
        self.0.write_u64(line.offset);
        self.0.write(line.bytes);
    }

    fn finish(&self) -> u64 {
        std::hash::Hasher::finish(&self.0)
    }
}

/// A session file, split into lines as it is read and each line decoded on demand into
/// `R`.
///
/// Rows need to know things about the whole file before the first row is written (the
/// ids, calls and titles of [`crate::light`]), so a session is read twice: a light pass
/// that indexes it, then one that decodes, maps and drops each line. From an evidence
/// file ([`SessionLog::from_path`]) each pass reads the file a chunk at a time
/// ([`Evidence::read_lines`]), holding a chunk and the longest line, not the file: a
/// session of hundreds of MB costs what its longest line costs. Every pass after the
/// first reads no further than the first did and must give the same lines (their
/// numbers, offsets and bytes, hashed), so the index matches the rows even of a live
/// session appended to in between, and the manifest entry of the first read (later
/// reads are not hashed or recorded again) is of the bytes the rows come from; a file
/// changed in place between the passes gives [`Error::Changed`]. A file in an archive or in memory is read once, whole.
pub struct SessionLog<'a, R = Map<String, Value>> {
    source: Source<'a>,
    /// The reader [`SessionLog::from_path`] opened, for the first pass.
    opened: RefCell<Option<LineReader<'a>>>,
    first: RefCell<Option<FirstPass>>,
    record: PhantomData<fn() -> R>,
}

impl<R> std::fmt::Debug for SessionLog<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("SessionLog");
        match &self.source {
            Source::Bytes(b) => d.field("bytes", &b.len()),
            Source::File { path, .. } => d.field("path", path),
        };
        d.field("first_pass", &self.first.borrow()).finish()
    }
}

impl<R> Default for SessionLog<'_, R> {
    fn default() -> Self {
        SessionLog::with_source(Source::Bytes(Cow::Borrowed(&[])), None)
    }
}

impl<R> SessionLog<'_, R> {
    fn with_source<'a>(source: Source<'a>, opened: Option<LineReader<'a>>) -> SessionLog<'a, R> {
        SessionLog {
            source,
            opened: RefCell::new(opened),
            first: RefCell::new(None),
            record: PhantomData,
        }
    }
}

impl<'a, R: Record> SessionLog<'a, R> {
    /// A session file's bytes at hand. Never fails: a bad line is an error entry in its
    /// place when a pass reaches it.
    pub fn from_bytes(bytes: &'a [u8]) -> SessionLog<'a, R> {
        SessionLog::with_source(Source::Bytes(Cow::Borrowed(bytes)), None)
    }

    /// Like [`SessionLog::from_bytes`], owning the bytes.
    pub fn from_vec(bytes: Vec<u8>) -> SessionLog<'static, R> {
        SessionLog::with_source(Source::Bytes(Cow::Owned(bytes)), None)
    }

    /// Opens a session file through the evidence gateway, to be read a chunk at a time
    /// by each pass. A file that cannot be opened (refused, over the size cap, gone) is
    /// an [`Error::Io`] here; one that fails midway, an [`Error::Midway`] at the end of
    /// the pass that met it.
    pub fn from_path(path: &Path, evidence: &'a Evidence) -> Result<SessionLog<'a, R>, Error> {
        let io = |e: std::io::Error| Error::Io {
            path: path.to_path_buf(),
            reason: e.to_string(),
        };
        if evidence.is_held(path) {
            let bytes = evidence.read(path).map_err(io)?;
            return Ok(SessionLog::with_source(
                Source::Bytes(Cow::Owned(bytes)),
                None,
            ));
        }
        let reader = evidence.read_lines(path).map_err(io)?;
        Ok(SessionLog::with_source(
            Source::File {
                path: path.to_path_buf(),
                evidence,
            },
            Some(reader),
        ))
    }

    /// One pass over the non-blank lines, in order, each lent to `f` until the next.
    /// `Err` when the pass could not read the file to its end (after the lines before
    /// the failure), or when it did not give the lines the first pass gave.
    pub fn each_line(&self, mut f: impl FnMut(Line<'_>)) -> Result<(), Error> {
        let (path, evidence) = match &self.source {
            Source::Bytes(data) => {
                lines(data).for_each(f);
                return Ok(());
            }
            Source::File { path, evidence } => (path, *evidence),
        };
        let io = |e: std::io::Error| Error::Io {
            path: path.clone(),
            reason: e.to_string(),
        };
        let first = self.first.borrow().clone();
        let opened = self.opened.borrow_mut().take();
        let mut reader = match (opened, &first) {
            (Some(reader), _) => reader,
            (None, None) => evidence.read_lines(path).map_err(io)?,
            (None, Some(pass)) => evidence.read_lines_to(path, pass.end).map_err(io)?,
        };
        let mut count = 0u64;
        let mut seen = Fingerprint::new();
        let failed = loop {
            if first
                .as_ref()
                .is_some_and(|p| p.failed.is_some() && count == p.count)
            {
                break None;
            }
            match reader.next_line() {
                None => break None,
                Some(Ok(line)) => {
                    count += 1;
                    seen.add(&line);
                    f(line);
                }
                Some(Err(e)) => {
                    break Some(Error::Midway {
                        path: path.clone(),
                        offset: reader.bytes_read(),
                        reason: e.to_string(),
                    });
                }
            }
        };
        match first {
            None => {
                *self.first.borrow_mut() = Some(FirstPass {
                    end: reader.bytes_read(),
                    count,
                    fingerprint: seen.finish(),
                    failed: failed.clone(),
                });
                failed.map_or(Ok(()), Err)
            }
            Some(_) if failed.is_some() => failed.map_or(Ok(()), Err),
            Some(pass) if pass.count != count || pass.fingerprint != seen.finish() => {
                Err(Error::Changed { path: path.clone() })
            }
            Some(pass) => pass.failed.map_or(Ok(()), Err),
        }
    }

    /// One pass with every line decoded, in order: the line (kept for quoting) and its
    /// entry, the record or why the line is unreadable. See [`SessionLog::each_line`].
    pub fn each_entry(&self, mut f: impl FnMut(Line<'_>, Entry<R>)) -> Result<(), Error> {
        self.each_line(|line| {
            let entry = Entry {
                line: line.number,
                offset: line.offset,
                item: decode_record(&line),
            };
            f(line, entry)
        })
    }

    /// Every line decoded and held, in order, and the error that ended the pass, if
    /// any, as a last entry (for tests and small files: a session is mapped a line at a
    /// time by [`SessionLog::each_entry`]).
    pub fn entries(&self) -> Vec<Entry<R>> {
        let mut out = Vec::new();
        let end = self.each_entry(|_, e| out.push(e));
        if let Err(e) = end {
            out.push(Entry {
                line: 0,
                offset: e.offset().unwrap_or(0),
                item: Err(e),
            });
        }
        out
    }

    /// The unreadable lines, and the error that ended the pass, if any (decodes the
    /// whole file).
    pub fn errors(&self) -> Vec<Error> {
        self.entries()
            .into_iter()
            .filter_map(|e| e.item.err())
            .collect()
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

    /// The lines of one pass, as text, and how the pass ended.
    fn pass(log: &SessionLog<'_>) -> (Vec<String>, Result<(), String>) {
        let mut got = Vec::new();
        let end = log.each_line(|l| {
            got.push(format!(
                "{} @{} {}",
                l.number,
                l.offset,
                String::from_utf8_lossy(l.bytes)
            ))
        });
        (got, end.map_err(|e| format!("{e} [{:?}]", e.offset())))
    }

    fn append(path: &Path, bytes: &[u8]) {
        std::io::Write::write_all(
            &mut std::fs::OpenOptions::new().append(true).open(path).unwrap(),
            bytes,
        )
        .unwrap();
    }

    /// A file is read a chunk at a time in each pass, and every pass gives the lines the
    /// first gave: not the lines a live writer appends in between; a file changed in
    /// place is an error; a read that fails midway ends every pass at the same line.
    #[test]
    fn every_pass_over_a_file_gives_the_lines_of_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.jsonl");
        std::fs::write(&f, b"{\"a\":1}\n\n{\"b\":2}\n{\"c\":").unwrap();
        let ev = Evidence::new().roots([dir.path()]);
        let log: SessionLog<'_> = SessionLog::from_path(&f, &ev).unwrap();
        let first = pass(&log);
        assert_eq!(
            first,
            (
                vec![
                    "1 @0 {\"a\":1}".to_string(),
                    "3 @9 {\"b\":2}".into(),
                    "4 @17 {\"c\":".into()
                ],
                Ok(())
            )
        );
        append(&f, b"3}\n{\"d\":4}\n");
        assert_eq!(pass(&log), first, "appended lines are not read");
        let torn = log.entries();
        assert!(torn[2].item.as_ref().unwrap_err().is_torn());

        // the same length, another byte: changed in place
        std::fs::write(&f, b"{\"a\":1}\n\n{\"b\":9}\n{\"c\":3}\n{\"d\":4}\n").unwrap();
        let text = format!(
            "{}: changed while it was read (its lines differ between the two passes) [None]",
            f.display()
        );
        assert_eq!(pass(&log).1, Err(text));

        // grows past the cap while the first pass reads it: every pass stops at the
        // last whole line of what was read before (the first 4 KiB: 409 lines)
        let body: Vec<u8> = (0..500)
            .flat_map(|n| format!("{{\"n\":{n:03}}}\n").into_bytes())
            .collect();
        std::fs::write(&f, &body).unwrap();
        let ev = Evidence::new().roots([dir.path()]).max_size(5000);
        let log: SessionLog<'_> = SessionLog::from_path(&f, &ev).unwrap();
        append(&f, b"{\"n\":500}\n");
        let (lines, end) = pass(&log);
        assert_eq!(lines.len(), 409);
        assert_eq!(lines[408], "409 @4080 {\"n\":408}");
        let text = format!(
            "{}: cannot read (5001 bytes, over the 5000-byte cap of one evidence file) [Some(4096)]",
            f.display()
        );
        assert_eq!(end, Err(text.clone()));
        assert_eq!(
            pass(&log),
            (lines, Err(text)),
            "the second pass ends where the first did"
        );

        // cannot be opened: at the open
        let gone = dir.path().join("gone.jsonl");
        assert_eq!(
            SessionLog::<Map<String, Value>>::from_path(&gone, &ev)
                .unwrap_err()
                .to_string(),
            format!(
                "{}: cannot read (No such file or directory (os error 2))",
                gone.display()
            )
        );
    }

    /// A file read a chunk at a time gives, in every pass, the entries its bytes give at
    /// hand: generated files of good, broken, blank and `\r\n` lines, a BOM, a torn
    /// end, and lines longer than the first read.
    #[test]
    fn a_file_read_by_passes_gives_the_entries_of_its_bytes() {
        let pieces: [&[u8]; 9] = [
            b"{\"a\":1}",
            b"{\"uuid\":\"u\",\"t\":[1,2]}",
            b"[1]",
            b"{\"b\":",
            b"\n",
            b"\r\n",
            b"  ",
            b"\xEF\xBB\xBF",
            b"\xff",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut files: Vec<Vec<u8>> = (0..300)
            .map(|_| {
                let len = (next() % 40) as usize;
                (0..len)
                    .flat_map(|_| pieces[(next() % 9) as usize].iter().copied())
                    .collect()
            })
            .collect();
        let long = format!("{{\"x\":\"{}\"}}", "y".repeat(10_000));
        files.push(format!("{long}\n\n{long}\r\n{{\"z\":").into_bytes());
        let dir = tempfile::tempdir().unwrap();
        let ev = Evidence::new().roots([dir.path()]);
        for (i, bytes) in files.iter().enumerate() {
            let f = dir.path().join(format!("{i}.jsonl"));
            std::fs::write(&f, bytes).unwrap();
            let want = SessionLog::<Map<String, Value>>::from_bytes(bytes).entries();
            let log = SessionLog::<Map<String, Value>>::from_path(&f, &ev).unwrap();
            assert_eq!(log.entries(), want, "first pass, file {i}: {bytes:?}");
            assert_eq!(log.entries(), want, "second pass, file {i}");
        }
    }

    #[test]
    fn keeps_bad_lines_in_place_and_sniffs_them() {
        let log: SessionLog<'_> = SessionLog::from_bytes(
            b"{\"a\":1}\n[1]\n{\"uuid\":\"u7\",\"x\":\"\xff\"}\n{\"id\":\"c\"",
        );
        let e = log.entries();
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
        assert_eq!(log.errors().len(), 3);
    }

    /// A broken line is sniffed whole when it is met, and held as its quote: the
    /// values after a long text are still found (a Claude Code record's `uuid` follows
    /// its message), the first value of a key wins, an escaped or empty value is none,
    /// a key not sniffed is never found, and the row says the whole line's length.
    #[test]
    fn a_long_broken_line_is_sniffed_whole_and_held_as_its_quote() {
        let text = "x".repeat(5000);
        let broken = format!(
            "\u{a0} {{\"id\":\"c1\",\"message\":{{\"content\":\"{text}\"}},\"uuid\":\"u9\",\"uuid\":\"u10\",\"type\":\"a\\\"b\",\"callId\":\"\",\"tool_use_id\":\"t@1\",\"sessionId\":\"s\""
        );
        // an invalid byte in a value: read as U+FFFD, as the whole text would read
        let bytes: Vec<u8> = broken
            .bytes()
            .map(|b| if b == b'@' { 0xff } else { b })
            .collect();
        let log: SessionLog<'_> = SessionLog::from_bytes(&bytes);
        let e = log.entries();
        let err = e[0].item.as_ref().unwrap_err();
        assert!(matches!(err, Error::Line(b, _) if b.kind == BadLineKind::InvalidUtf8));
        assert_eq!(err.sniffed_id(), Some("c1"));
        assert_eq!(err.sniff("uuid").as_deref(), Some("u9"));
        assert_eq!(err.sniff("type"), None);
        assert_eq!(err.sniff("callId"), None);
        assert_eq!(err.sniff("tool_use_id").as_deref(), Some("t\u{fffd}1"));
        assert_eq!(err.sniff("id").as_deref(), Some("c1"));
        assert_eq!(err.sniff("sessionId"), None);
        assert_eq!(
            err.line_text().map(|t| t.chars().count()),
            Some(chat_rows::system::MAX_QUOTED)
        );
        let whole = String::from_utf8_lossy(&bytes);
        assert!(
            err.row_text()
                .ends_with(&format!("… [{} bytes in all]", whole.len())),
            "{}",
            err.row_text()
        );
        // a value that is not an object, as long
        let array = format!("[\"{text}\",{{\"uuid\":\"u1\"}}]\n{{}}\n");
        let log: SessionLog<'_> = SessionLog::from_bytes(array.as_bytes());
        let e = log.entries();
        let err = e[0].item.as_ref().unwrap_err();
        assert_eq!(err.sniff("uuid").as_deref(), Some("u1"));
        assert_eq!(
            err.row_text(),
            chat_rows::system::unparseable_line("not a JSON object", &array[..array.len() - 4])
        );
    }
}
