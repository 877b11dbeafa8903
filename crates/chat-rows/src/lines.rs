//! Reading line-oriented evidence (JSONL) without ever giving up on a file.
//!
//! [`lines`] splits bytes on `\n`, tolerates `\r\n`, skips blank lines (while still
//! counting them, so line numbers match an editor's) and strips a leading UTF-8 BOM.
//! Each [`Line`] knows its 1-based number, its byte offset and whether it is the last
//! line of the file, which is what separates a *torn* last line (the writer was cut
//! off mid-append, ordinary on a live system) from a *broken* middle line (damage).
//!
//! [`LineReader`] gives the same lines from a source read a chunk at a time (what
//! [`crate::Evidence::read_lines`] opens), so a log of hundreds of MB is never held
//! whole: a store's line loop written against it also reads bytes at hand
//! ([`LineReader::from_bytes`]).
//!
//! [`json_lines`] decodes each line as JSON through [`crate::json`] and reports bad
//! lines as [`BadLine`] values, which [`BadLine::row`] turns into the spec's
//! `parser: unparseable line (<reason>): <line>` row.

use std::borrow::Cow;
use std::fmt;
use std::io;

use serde::de::DeserializeOwned;

use crate::row::Row;
use crate::system;

/// One non-blank line of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based line number (blank lines count).
    pub number: u64,
    /// Byte offset of the line's first byte in the file.
    pub offset: u64,
    /// The line without its `\n` or `\r\n`.
    pub bytes: &'a [u8],
    /// True when no non-blank line follows.
    pub last: bool,
    /// True when the line ended with `\n` (false for a final line without a newline).
    pub terminated: bool,
}

impl<'a> Line<'a> {
    /// The line as UTF-8; the error says at which byte of the line it fails.
    pub fn text(&self) -> Result<&'a str, std::str::Utf8Error> {
        std::str::from_utf8(self.bytes)
    }

    /// The line as text with invalid UTF-8 replaced, for quoting in a `parser:` row.
    pub fn text_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.bytes)
    }

    /// What a `parser:` row quotes of the line: the start of its text (invalid UTF-8
    /// replaced) to [`system::MAX_QUOTED`] characters, and the length in bytes of the
    /// whole text so replaced (what [`Line::text_lossy`] would give), without copying
    /// the line: a broken line of 1 GiB costs a pass over it, not a copy of it.
    pub fn quoted(&self) -> (String, usize) {
        let (head, _) = system::quoted_start(self.bytes);
        let len = if std::str::from_utf8(self.bytes).is_ok() {
            self.bytes.len()
        } else {
            // each invalid sequence becomes one U+FFFD (three bytes)
            self.bytes
                .utf8_chunks()
                .map(|c| c.valid().len() + if c.invalid().is_empty() { 0 } else { 3 })
                .sum()
        };
        (head, len)
    }

    /// `byte <offset>`, the locator of rows from this line.
    pub fn locator(&self) -> String {
        format!("byte {}", self.offset)
    }
}

/// Iterator over the non-blank lines of a byte buffer. See the module docs.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
    number: u64,
    peeked: Option<Option<Line<'a>>>,
}

/// Splits `bytes` into non-blank lines. See the module docs.
pub fn lines(bytes: &[u8]) -> Lines<'_> {
    let pos = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    Lines {
        bytes,
        pos,
        number: 0,
        peeked: None,
    }
}

impl<'a> Lines<'a> {
    fn raw_next(&mut self) -> Option<Line<'a>> {
        loop {
            if self.pos >= self.bytes.len() {
                return None;
            }
            let start = self.pos;
            let rest = &self.bytes[start..];
            let (end, terminated) = match memchr::memchr(b'\n', rest) {
                Some(i) => (start + i, true),
                None => (self.bytes.len(), false),
            };
            self.pos = if terminated { end + 1 } else { end };
            self.number += 1;
            let mut line = &self.bytes[start..end];
            if let Some(stripped) = line.strip_suffix(b"\r") {
                line = stripped;
            }
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            return Some(Line {
                number: self.number,
                offset: start as u64,
                bytes: line,
                last: false,
                terminated,
            });
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let current = match self.peeked.take() {
            Some(p) => p,
            None => self.raw_next(),
        }?;
        let next = self.raw_next();
        let last = next.is_none();
        self.peeked = Some(next);
        Some(Line { last, ..current })
    }
}

/// How many bytes a [`LineReader`] asks its source for at a time.
const CHUNK: usize = 1 << 20;

/// The non-blank lines of a file read a chunk at a time: the lines [`lines`] gives for
/// the same bytes (numbers, offsets, `last`, `terminated`, a leading BOM skipped), with
/// a chunk and the longest line in memory rather than the whole file
/// ([`LineReader::held`]): a buffer that doubles to hold the line being split, blank or
/// not (for a source of known size, [`LineReader::from_read_sized`], as
/// [`crate::Evidence::read_lines`] opens, no larger than what is left of it and a
/// page), and a copy of the line lent, made only when the buffer is full after it. So
/// three times the longest line at most, and once for the last line of a file. A store
/// reads a log of hundreds of MB this way (Claude Code's `history.jsonl`, Copilot's
/// `events.jsonl`); the lines borrow from the reader's buffer, so each is read before
/// the next is asked for ([`LineReader::next_line`], a lending iterator).
///
/// [`crate::Evidence::read_lines`] opens one on an evidence file (the manifest entry is
/// the size and hash of the bytes read, recorded when the file has been read to its
/// end or the reader is dropped); [`LineReader::from_bytes`] reads bytes at hand
/// without copying them.
pub struct LineReader<'a> {
    inner: Inner<'a>,
}

enum Inner<'a> {
    Bytes(Lines<'a>),
    Stream(Box<Stream<'a>>),
}

impl fmt::Debug for LineReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineReader")
            .field("bytes_read", &self.bytes_read())
            .finish_non_exhaustive()
    }
}

/// A raw line's place: file offsets of its first byte and its end (before `\r\n`).
#[derive(Clone, Copy)]
struct Span {
    number: u64,
    start: u64,
    end: u64,
    terminated: bool,
}

struct Stream<'a> {
    source: Box<dyn io::Read + 'a>,
    /// Bytes from file offset `base` on; `filled` of them are read.
    buf: Vec<u8>,
    filled: usize,
    base: u64,
    /// Where the next raw line starts.
    pos: u64,
    /// Up to where the line being split has been searched for its `\n`.
    searched: u64,
    number: u64,
    /// Bytes read from the source.
    read: u64,
    eof: bool,
    started: bool,
    /// The line after the one lent, found to tell whether the lent one is the last.
    peeked: Option<io::Result<Option<Span>>>,
    /// The line lent, and whether its bytes were copied to `lent_copy` (to read on
    /// past it without holding what lies between).
    lent: Option<(Span, bool)>,
    lent_copy: Vec<u8>,
    /// The source's length when known ([`LineReader::from_read_sized`]): the buffer
    /// grows no larger than what is left of it, and a page.
    size: Option<u64>,
}

impl<'a> LineReader<'a> {
    /// The lines of bytes at hand, borrowed (no copy, no buffer): what [`lines`] gives.
    pub fn from_bytes(bytes: &'a [u8]) -> LineReader<'a> {
        LineReader {
            inner: Inner::Bytes(lines(bytes)),
        }
    }

    /// The lines of a reader, read a chunk at a time.
    pub fn from_read(source: impl io::Read + 'a) -> LineReader<'a> {
        LineReader::stream(Box::new(source), None)
    }

    /// The lines of a reader of `size` bytes (a file's length when opened), read a chunk
    /// at a time: a line longer than a chunk is held in a buffer grown to what is left of
    /// the source and a page, not doubled past it, so a file of one 1 GiB line costs
    /// 1 GiB, not 2. A source that gives more than `size` is still read to its end (the
    /// buffer doubles again past it).
    pub fn from_read_sized(source: impl io::Read + 'a, size: u64) -> LineReader<'a> {
        LineReader::stream(Box::new(source), Some(size))
    }

    fn stream(source: Box<dyn io::Read + 'a>, size: Option<u64>) -> LineReader<'a> {
        LineReader {
            inner: Inner::Stream(Box::new(Stream {
                source,
                buf: Vec::new(),
                filled: 0,
                base: 0,
                pos: 0,
                searched: 0,
                number: 0,
                read: 0,
                eof: false,
                started: false,
                peeked: None,
                lent: None,
                lent_copy: Vec::new(),
                size,
            })),
        }
    }

    /// The next non-blank line; `Some(Err(..))` when the source fails (the lines before
    /// it were given, none after it is). A line lives until the next call.
    #[allow(clippy::should_implement_trait)]
    pub fn next_line(&mut self) -> Option<io::Result<Line<'_>>> {
        match &mut self.inner {
            Inner::Bytes(lines) => lines.next().map(Ok),
            Inner::Stream(s) => s.next_line(),
        }
    }

    /// How many bytes the reader's buffers hold: a chunk and the longest line split so
    /// far, and a copy of the longest line a chunk's end followed (0 for bytes at hand).
    pub fn held(&self) -> usize {
        match &self.inner {
            Inner::Bytes(_) => 0,
            Inner::Stream(s) => s.buf.len() + s.lent_copy.capacity(),
        }
    }

    /// How many bytes of the source have been read (all of them for bytes at hand):
    /// after an error, where it was met.
    pub fn bytes_read(&self) -> u64 {
        match &self.inner {
            Inner::Bytes(l) => l.bytes.len() as u64,
            Inner::Stream(s) => s.read,
        }
    }
}

impl Stream<'_> {
    fn next_line(&mut self) -> Option<io::Result<Line<'_>>> {
        // the line lent before is done with
        self.lent = None;
        let current = match self.peeked.take() {
            Some(p) => p,
            None => self.raw_next(),
        };
        let span = match current {
            Ok(Some(s)) => s,
            Ok(None) => return None,
            Err(e) => {
                // no line after a failed read: the source is not asked again
                self.eof = true;
                self.filled = 0;
                return Some(Err(e));
            }
        };
        self.lent = Some((span, false));
        let next = self.raw_next();
        let last = matches!(next, Ok(None));
        self.peeked = Some(next);
        let bytes = match self.lent {
            Some((_, true)) => &self.lent_copy[..],
            _ => {
                let from = (span.start - self.base) as usize;
                let to = (span.end - self.base) as usize;
                self.buf.get(from..to).unwrap_or_default()
            }
        };
        Some(Ok(Line {
            number: span.number,
            offset: span.start,
            bytes,
            last,
            terminated: span.terminated,
        }))
    }

    /// Reads more of the source into the buffer's room. With no room left, the bytes
    /// before `keep` (a file offset) are dropped first, the line lent copied out before
    /// them: what follows it (blank lines, the next line) is then held without it, so
    /// the buffer never holds more than the line being split and a chunk. The line lent
    /// stays where it is while the buffer has room: the last line of a file read to its
    /// end is never copied. False at the end of the source.
    fn fill(&mut self, keep: u64) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.filled == self.buf.len() {
            if let Some((span, false)) = self.lent {
                // once per line at most, and only for a line a full buffer's end follows
                let from = (span.start - self.base) as usize;
                let to = (span.end - self.base) as usize;
                self.lent_copy.clear();
                self.lent_copy.extend_from_slice(&self.buf[from..to]);
                self.lent = Some((span, true));
            }
            let drop = (keep - self.base) as usize;
            if drop > 0 {
                self.buf.copy_within(drop..self.filled, 0);
                self.filled -= drop;
                self.base = keep;
            }
        }
        let len = self.buf.len();
        if self.filled == len || (len < CHUNK && self.read >= len as u64) {
            // from 4 KiB (a small file costs no chunk) doubling to a chunk while the
            // source gives more than the buffer holds; past a chunk, a line longer
            // than what is held doubles it, up to what is left of a source of known
            // size (and a page, to read its end)
            let mut grown = (len * 2).max(4096);
            if let Some(size) = self.size {
                let left = size.saturating_sub(self.base).saturating_add(4096);
                let left = usize::try_from(left).unwrap_or(usize::MAX);
                if left > len {
                    grown = grown.min(left);
                }
            }
            self.buf.resize(grown, 0);
        }
        let n = loop {
            match self.source.read(&mut self.buf[self.filled..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        self.filled += n;
        self.read += n as u64;
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// The next raw non-blank line.
    fn raw_next(&mut self) -> io::Result<Option<Span>> {
        if !self.started {
            while self.filled < 3 && self.fill(self.base)? {}
            self.started = true;
            if self.buf[..self.filled].starts_with(b"\xEF\xBB\xBF") {
                self.pos = 3;
                self.searched = 3;
            }
        }
        loop {
            let end = self.base + self.filled as u64;
            if self.pos >= end && !self.fill(self.pos)? {
                return Ok(None);
            }
            let start = self.pos;
            let from = (self.searched.max(start) - self.base) as usize;
            if from == (start - self.base) as usize {
                // a run of blank lines (whitespace up to a `\n`) is counted at once, not
                // split a line at a time: a hostile log of 300 MB of `\n` took 4 s a pass
                let ws = self.buf[from..self.filled]
                    .iter()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
                let run = &self.buf[from..from + ws];
                if let Some(last) = memchr::memrchr(b'\n', run) {
                    self.number += memchr::memchr_iter(b'\n', &run[..=last]).count() as u64;
                    self.pos = start + last as u64 + 1;
                    self.searched = self.pos;
                    continue;
                }
            }
            let (stop, terminated) = match memchr::memchr(b'\n', &self.buf[from..self.filled]) {
                Some(i) => (self.base + (from + i) as u64, true),
                None => {
                    self.searched = self.base + self.filled as u64;
                    if self.fill(start)? {
                        continue;
                    }
                    (self.base + self.filled as u64, false)
                }
            };
            self.pos = if terminated { stop + 1 } else { stop };
            self.searched = self.pos;
            self.number += 1;
            let mut line = &self.buf[(start - self.base) as usize..(stop - self.base) as usize];
            if let Some(stripped) = line.strip_suffix(b"\r") {
                line = stripped;
            }
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            return Ok(Some(Span {
                number: self.number,
                start,
                end: start + line.len() as u64,
                terminated,
            }));
        }
    }
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadLineKind {
    /// The line is not valid UTF-8.
    InvalidUtf8,
    /// The line is not valid JSON, and more lines follow: damage.
    Broken,
    /// The last line of the file is not valid JSON: a write that was cut off.
    Torn,
}

/// A line that could not be decoded, with everything a `parser:` row needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// 1-based line number.
    pub number: u64,
    /// Byte offset of the line.
    pub offset: u64,
    /// What went wrong, in kind.
    pub kind: BadLineKind,
    /// The reason, as quoted in the row (serde_json's message says line and column).
    pub reason: String,
    /// The start of the line's text, lossily decoded: what the row quotes, the whole
    /// text when it is no longer than [`system::MAX_QUOTED`] characters
    /// ([`Line::quoted`]). A broken line is never copied whole.
    pub text: String,
    /// The length in bytes of the line's whole text, lossily decoded (`text.len()`
    /// when `text` is the whole of it): what the row says was cut.
    pub len: usize,
}

impl BadLine {
    /// A bad line of `kind` for `reason`, its text quoted as a row quotes it.
    pub fn new(line: &Line<'_>, kind: BadLineKind, reason: String) -> BadLine {
        let (text, len) = line.quoted();
        BadLine {
            number: line.number,
            offset: line.offset,
            kind,
            reason,
            text,
            len,
        }
    }

    /// Describes a line that failed to decode with `err`.
    pub fn from_json_error(line: &Line<'_>, err: &serde_json::Error) -> BadLine {
        let torn = line.last && err.is_eof();
        let torn = torn || (line.last && !line.terminated && err.is_syntax());
        if torn {
            BadLine::new(line, BadLineKind::Torn, format!("torn last line: {err}"))
        } else {
            BadLine::new(line, BadLineKind::Broken, err.to_string())
        }
    }

    /// Describes a line that is not UTF-8.
    pub fn from_utf8_error(line: &Line<'_>, err: &std::str::Utf8Error) -> BadLine {
        BadLine::new(
            line,
            BadLineKind::InvalidUtf8,
            format!("invalid UTF-8 at byte {} of the line", err.valid_up_to()),
        )
    }

    /// The line's text as the row quotes it: `text`, and when it is not the whole,
    /// `… [<len> bytes in all]` ([`system::quote`]'s cut).
    pub fn quote(&self) -> String {
        system::quote_cut(&self.text, self.len)
    }

    /// The `parser: unparseable line (<reason>): <line>` system row, with its place.
    pub fn row(&self, agent: &str, source_file: &str) -> Row {
        Row::system(
            agent,
            system::unparseable_line_quoted(&self.reason, &self.quote()),
        )
        .file(source_file)
        .line(self.number)
        .locator(format!("byte {}", self.offset))
    }
}

/// Lines longer than this are counted ([`crate::json::value_count`]) before they are
/// decoded; shorter ones cannot hold more than [`MAX_TREE_VALUES`] values anyway.
pub const DENSE_LINE_BYTES: usize = 4 << 20;

/// The most values a line may hold to be decoded (a tree of them costs 32 bytes and
/// more each, so at most a few hundred MiB): a line of more, millions of small values,
/// is a `parser:` row, not gigabytes of memory (a 50 MB line of zeros became a 420 MB
/// tree; a 4 GiB one would have been tens of GiB).
pub const MAX_TREE_VALUES: u64 = 1 << 22;

/// Decodes one line as JSON (lone surrogates tolerated). Invalid UTF-8 is reported as
/// such only when the JSON decoder also fails, since serde_json validates strings itself.
/// A line longer than [`DENSE_LINE_BYTES`] holding more than [`MAX_TREE_VALUES`] values
/// is not decoded: it is a bad line that says so.
pub fn decode_line<T: DeserializeOwned>(line: &Line<'_>) -> Result<T, BadLine> {
    if line.bytes.len() > DENSE_LINE_BYTES {
        let count = crate::json::with_repaired(line.bytes, crate::json::value_count);
        if let Some(n) = count.ok().filter(|n| *n > MAX_TREE_VALUES) {
            return Err(BadLine::new(
                line,
                BadLineKind::Broken,
                format!(
                    "{n} JSON values in {} bytes, more than the {MAX_TREE_VALUES} a line may hold to be read",
                    line.bytes.len()
                ),
            ));
        }
    }
    match crate::json::from_slice::<T>(line.bytes) {
        Ok(v) => Ok(v),
        Err(e) => match line.text() {
            Err(u) => Err(BadLine::from_utf8_error(line, &u)),
            Ok(_) => Err(BadLine::from_json_error(line, &e)),
        },
    }
}

/// Decodes every non-blank line as JSON; bad lines are `Err(BadLine)` and reading goes on.
pub fn json_lines<T: DeserializeOwned>(
    bytes: &[u8],
) -> impl Iterator<Item = (Line<'_>, Result<T, BadLine>)> {
    lines(bytes).map(|line| {
        let r = decode_line(&line);
        (line, r)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// A long line of few values is decoded; a long line of more than
    /// `MAX_TREE_VALUES` values is a bad line that says how many, never a tree.
    #[test]
    fn a_line_too_dense_to_be_a_tree_is_a_bad_line() {
        let long = format!(
            "{{\"t\":\"{}\",\"n\":[1,2]}}\n",
            "x".repeat(DENSE_LINE_BYTES + 10)
        );
        let (_, r) = json_lines::<Value>(long.as_bytes()).next().unwrap();
        assert_eq!(r.unwrap()["n"], serde_json::json!([1, 2]));
        let zeros = vec!["0"; MAX_TREE_VALUES as usize + 1].join(",");
        let dense = format!("{{\"a\":1}}\n{{\"z\":[{zeros}]}}\n");
        let got: Vec<_> = json_lines::<Value>(dense.as_bytes()).collect();
        assert!(got[0].1.is_ok());
        let bad = got[1].1.as_ref().unwrap_err();
        assert_eq!(
            (bad.number, bad.offset, bad.kind.clone()),
            (2, 8, BadLineKind::Broken)
        );
        assert_eq!(
            bad.reason,
            format!(
                "4194307 JSON values in {} bytes, more than the 4194304 a line may hold to be read",
                zeros.len() + 8
            )
        );
        assert_eq!(
            crate::json::value_count(b"{\"a\":[1,{\"b\":null}],\"c\":\"d\"}").unwrap(),
            6
        );
        assert!(crate::json::value_count(b"[1,").is_err());
    }

    fn collect(bytes: &[u8]) -> Vec<(u64, u64, String, bool, bool)> {
        lines(bytes)
            .map(|l| {
                (
                    l.number,
                    l.offset,
                    l.text_lossy().into_owned(),
                    l.last,
                    l.terminated,
                )
            })
            .collect()
    }

    #[test]
    fn crlf_blank_lines_and_no_trailing_newline() {
        let got = collect(b"{\"a\":1}\r\n\r\n  \n{\"b\":2}");
        assert_eq!(
            got,
            vec![
                (1, 0, "{\"a\":1}".into(), false, true),
                (4, 14, "{\"b\":2}".into(), true, false),
            ]
        );
        assert!(collect(b"").is_empty());
        assert!(collect(b"\n\n").is_empty());
    }

    #[test]
    fn bom_is_skipped() {
        let got = collect(b"\xEF\xBB\xBF{}\n");
        assert_eq!(got, vec![(1, 3, "{}".into(), true, true)]);
    }

    #[test]
    fn torn_last_line_is_told_apart_from_broken_middle_line() {
        let input = b"{\"a\":1}\n{\"b\":\n{\"c\":3}\n{\"d\":\"cut";
        let results: Vec<_> = json_lines::<Value>(input).collect();
        assert_eq!(results.len(), 4);
        assert!(results[0].1.is_ok());
        let middle = results[1].1.as_ref().unwrap_err();
        assert_eq!(middle.kind, BadLineKind::Broken);
        assert_eq!(middle.number, 2);
        assert_eq!(middle.offset, 8);
        assert!(results[2].1.is_ok());
        let last = results[3].1.as_ref().unwrap_err();
        assert_eq!(last.kind, BadLineKind::Torn);
        assert_eq!(
            last.reason,
            "torn last line: EOF while parsing a string at line 1 column 9"
        );
        let row = last.row("codebuddy", "s.jsonl");
        assert_eq!(
            row.text,
            "parser: unparseable line (torn last line: EOF while parsing a string at line 1 column 9): {\"d\":\"cut"
        );
        assert_eq!(row.source_line, Some(4));
        assert_eq!(row.source_locator, "byte 22");
    }

    #[test]
    fn invalid_utf8_is_reported_not_fatal() {
        let input = b"{\"a\":\"\xff\"}\n{\"b\":1}\n";
        let results: Vec<_> = json_lines::<Value>(input).collect();
        let bad = results[0].1.as_ref().unwrap_err();
        assert_eq!(bad.kind, BadLineKind::InvalidUtf8);
        assert_eq!(bad.reason, "invalid UTF-8 at byte 6 of the line");
        assert!(results[1].1.is_ok());
    }

    #[test]
    fn lone_surrogate_lines_are_not_bad() {
        let results: Vec<_> = json_lines::<Value>(b"{\"t\":\"\\ud83d\"}\n").collect();
        assert_eq!(results[0].1.as_ref().unwrap()["t"], "\u{fffd}");
    }

    /// A reader that gives at most `step` bytes a call, then fails at `fail_at`.
    struct Trickle<'b> {
        bytes: &'b [u8],
        at: usize,
        step: usize,
        fail_at: Option<usize>,
    }

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.fail_at.is_some_and(|f| self.at >= f) {
                return Err(io::Error::other("the disk went away"));
            }
            let mut n = self.step.min(buf.len()).min(self.bytes.len() - self.at);
            if let Some(f) = self.fail_at {
                n = n.min(f - self.at);
            }
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    type Seen = (u64, u64, Vec<u8>, bool, bool);

    fn streamed(reader: &mut LineReader<'_>) -> (Vec<Seen>, Option<String>) {
        let mut seen = Vec::new();
        while let Some(line) = reader.next_line() {
            match line {
                Ok(l) => seen.push((l.number, l.offset, l.bytes.to_vec(), l.last, l.terminated)),
                Err(e) => return (seen, Some(e.to_string())),
            }
        }
        (seen, None)
    }

    fn whole(bytes: &[u8]) -> Vec<Seen> {
        lines(bytes)
            .map(|l| (l.number, l.offset, l.bytes.to_vec(), l.last, l.terminated))
            .collect()
    }

    /// Read a chunk at a time, every split of the source gives the lines `lines` gives
    /// for the whole: numbers (blank lines counted), offsets, `last` (blank lines after
    /// the last one), `terminated`, `\r\n` and a leading BOM, on 3,000 generated files
    /// read 1 to 7 bytes a call, and on lines longer than a chunk read 1,021 bytes a call.
    #[test]
    fn lines_read_a_chunk_at_a_time_are_the_lines_of_the_whole() {
        let alphabet: [&[u8]; 7] = [b"a", b"{}", b" ", b"\r", b"\n", b"\t", b"\xEF\xBB\xBF"];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut files: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"\xEF\xBB\xBF".to_vec(),
            b"\xEF\xBB".to_vec(),
            b"\xEF\xBB\xBF{}".to_vec(),
            b"\n\n \n".to_vec(),
        ];
        for _ in 0..3000 {
            let len = (next() % 30) as usize;
            files.push(
                (0..len)
                    .flat_map(|_| alphabet[(next() % 7) as usize].iter().copied())
                    .collect(),
            );
        }
        let long = [
            "x".repeat(CHUNK * 2 + 5),
            "\n\n".into(),
            "y".repeat(CHUNK - 1),
            "\r\n".into(),
            "z".repeat(CHUNK),
            "\n".into(),
            " ".repeat(CHUNK + 3),
        ]
        .concat();
        // runs of blank lines longer than a chunk, counted at once (the line after them
        // keeps its number)
        let blanks = [
            "{}".to_string(),
            "\n".repeat(CHUNK + 7),
            "\n \r\n\t".repeat(CHUNK / 3),
            " w\n".into(),
            " \t\r\n".repeat(CHUNK / 2),
            "  ".into(),
        ]
        .concat();
        files.push(blanks.into_bytes());
        files.push(long.into_bytes());
        for (i, f) in files.iter().enumerate() {
            let want = whole(f);
            // a byte a call over the long lines costs a minute in a debug build
            let steps: &[usize] = if f.len() > 100 {
                &[1021, usize::MAX]
            } else {
                &[1, 2, 3, 7, usize::MAX]
            };
            for &step in steps {
                let t = Trickle {
                    bytes: f,
                    at: 0,
                    step,
                    fail_at: None,
                };
                let got = streamed(&mut LineReader::from_read(t));
                assert_eq!(got, (want.clone(), None), "file {i} {f:?} step {step}");
                // a size given, true or not, changes how the buffer grows, never the lines
                let n = f.len() as u64;
                for size in [n, n / 2, n * 2 + 1] {
                    let t = Trickle {
                        bytes: f,
                        at: 0,
                        step,
                        fail_at: None,
                    };
                    let got = streamed(&mut LineReader::from_read_sized(t, size));
                    assert_eq!(
                        got,
                        (want.clone(), None),
                        "file {i} step {step} size {size}"
                    );
                }
            }
            assert_eq!(streamed(&mut LineReader::from_bytes(f)), (want, None));
        }
        // the long lines, by what they hold
        let f = files.last().unwrap();
        let got = streamed(&mut LineReader::from_read(&f[..])).0;
        let shape: Vec<_> = got
            .iter()
            .map(|l| (l.0, l.1, l.2.len(), l.3, l.4))
            .collect();
        let c = CHUNK as u64;
        assert_eq!(
            shape,
            [
                (1, 0, CHUNK * 2 + 5, false, true),
                (3, 2 * c + 7, CHUNK - 1, false, true),
                (4, 3 * c + 8, CHUNK, true, true),
            ]
        );
    }

    /// What follows a line is held without it: a line of 3 MiB followed by 8 MiB of
    /// short blank lines, then another, holds the long line in a buffer of 4 MiB and its copy
    /// and a chunk, never the blank lines; short lines in a long file hold one chunk.
    #[test]
    fn a_reader_holds_a_chunk_and_the_longest_line() {
        let long = "x".repeat(3 << 20);
        let blank = " \n\r\n\t\n".repeat((8 << 20) / 6);
        let f = format!("{long}\n{blank}{{}}\n{blank}");
        let mut reader = LineReader::from_read(f.as_bytes());
        let mut most = 0;
        let mut got = Vec::new();
        while let Some(l) = reader.next_line() {
            let l = l.unwrap();
            got.push((l.number, l.offset, l.bytes.len(), l.last));
            most = most.max(reader.held());
        }
        let k = ((8 << 20) / 6) as u64;
        let long = 3 << 20;
        assert_eq!(
            got,
            [
                (1, 0, long, false),
                (3 * k + 2, long as u64 + 1 + 6 * k, 2, true)
            ]
        );
        assert!(most <= (4 << 20) + (3 << 20), "held {most} bytes");
        let short = "{\"a\":1}\n".repeat(4 << 20);
        let mut reader = LineReader::from_read(short.as_bytes());
        let mut most = 0;
        while let Some(l) = reader.next_line() {
            l.unwrap();
            most = most.max(reader.held());
        }
        assert_eq!(most, CHUNK + 8, "a chunk and the lent line's copy");
    }

    /// A source of known size holds its long last line once: a buffer grown to what is
    /// left of the file and a page, not doubled past it, and no copy of the line (it is
    /// never moved out of a buffer that still has room). Without the size, the buffer
    /// doubles past the line.
    #[test]
    fn a_long_line_of_a_source_of_known_size_is_held_once() {
        let long = "x".repeat(3 << 20);
        let held = |f: &str, size: Option<u64>| {
            let mut reader = match size {
                Some(n) => LineReader::from_read_sized(f.as_bytes(), n),
                None => LineReader::from_read(f.as_bytes()),
            };
            let (mut most, mut lens) = (0, Vec::new());
            while let Some(l) = reader.next_line() {
                lens.push(l.unwrap().bytes.len());
                most = most.max(reader.held());
            }
            (lens, most)
        };
        // the long line last: a short line before it, and a long line after it
        let last = format!("{{}}\n{long}");
        let size = Some(last.len() as u64);
        // the buffer, from the long line on, and the short line's copy (8 bytes, a
        // vector's least)
        assert_eq!(held(&last, size), (vec![2, 3 << 20], (3 << 20) + 4096 + 8));
        assert_eq!(held(&last, None), (vec![2, 3 << 20], (4 << 20) + 8));
        let middle = format!("{long}\n{{}}\n");
        let size = Some(middle.len() as u64);
        assert_eq!(
            held(&middle, size),
            (vec![3 << 20, 2], (3 << 20) + 4096 + 4)
        );
        // doubled to 4 MiB, with room for what follows the line: still no copy of it
        // (there was one, 7 MiB in all, before 2026-12-04)
        assert_eq!(held(&middle, None), (vec![3 << 20, 2], 4 << 20));
    }

    /// A broken line is quoted from its start, never copied whole, and its row is the
    /// row of the whole line quoted: the same cut, the same length of the text with
    /// invalid UTF-8 replaced.
    #[test]
    fn a_broken_line_is_quoted_from_its_start() {
        let long_e = "\u{e9}".repeat(2000);
        let late_bad = [b"x".repeat(1700), b"\xff\xfe".to_vec(), b"y".repeat(10)].concat();
        let partial = b"\xF0\x9F\x98 ".repeat(700);
        let lines_of: Vec<Vec<u8>> = vec![
            b"{oops".to_vec(),
            "a".repeat(400).into_bytes(),
            "a".repeat(401).into_bytes(),
            long_e.into_bytes(),
            b"\xff".repeat(5000),
            late_bad,
            partial,
            [
                b"{\"a\":".to_vec(),
                b"\xc3".to_vec(),
                "b".repeat(399).into_bytes(),
            ]
            .concat(),
        ];
        for bytes in &lines_of {
            let f = [bytes.as_slice(), b"\n{}\n"].concat();
            let line = lines(&f).next().unwrap();
            let whole = line.text_lossy();
            let bad = match line.text() {
                Err(u) => BadLine::from_utf8_error(&line, &u),
                Ok(_) => {
                    let e = serde_json::from_slice::<Value>(line.bytes).unwrap_err();
                    BadLine::from_json_error(&line, &e)
                }
            };
            assert_eq!(bad.len, whole.len());
            assert!(bad.text.chars().count() <= system::MAX_QUOTED);
            assert!(whole.starts_with(&bad.text));
            assert_eq!(
                bad.row("a", "f").text,
                system::unparseable_line(&bad.reason, &whole),
                "{bytes:?}"
            );
        }
    }

    /// A source that fails mid-file: the lines read before are given, the line cut by
    /// the failure is not, the error comes once and nothing after it.
    #[test]
    fn a_source_that_fails_gives_its_lines_then_the_error() {
        let f = b"{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n";
        let t = Trickle {
            bytes: f,
            at: 0,
            step: 4,
            fail_at: Some(18),
        };
        let mut reader = LineReader::from_read(t);
        let (got, err) = streamed(&mut reader);
        assert_eq!(
            got,
            [
                (1, 0, b"{\"a\":1}".to_vec(), false, true),
                (2, 8, b"{\"b\":2}".to_vec(), false, true)
            ]
        );
        assert_eq!(err.as_deref(), Some("the disk went away"));
        assert_eq!(reader.bytes_read(), 18);
        assert!(reader.next_line().is_none());
    }
}
