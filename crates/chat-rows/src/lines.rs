//! Reading line-oriented evidence (JSONL) without ever giving up on a file.
//!
//! [`lines`] splits bytes on `\n`, tolerates `\r\n`, skips blank lines (while still
//! counting them, so line numbers match an editor's) and strips a leading UTF-8 BOM.
//! Each [`Line`] knows its 1-based number, its byte offset and whether it is the last
//! line of the file, which is what separates a *torn* last line (the writer was cut
//! off mid-append, ordinary on a live system) from a *broken* middle line (damage).
//!
//! [`json_lines`] decodes each line as JSON through [`crate::json`] and reports bad
//! lines as [`BadLine`] values, which [`BadLine::row`] turns into the spec's
//! `parser: unparseable line (<reason>): <line>` row.

use std::borrow::Cow;

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
    /// The line's text, lossily decoded (the row cuts it to a bounded length).
    pub text: String,
}

impl BadLine {
    /// Describes a line that failed to decode with `err`.
    pub fn from_json_error(line: &Line<'_>, err: &serde_json::Error) -> BadLine {
        let torn = line.last && err.is_eof();
        let torn = torn || (line.last && !line.terminated && err.is_syntax());
        BadLine {
            number: line.number,
            offset: line.offset,
            kind: if torn {
                BadLineKind::Torn
            } else {
                BadLineKind::Broken
            },
            reason: if torn {
                format!("torn last line: {err}")
            } else {
                err.to_string()
            },
            text: line.text_lossy().into_owned(),
        }
    }

    /// Describes a line that is not UTF-8.
    pub fn from_utf8_error(line: &Line<'_>, err: &std::str::Utf8Error) -> BadLine {
        BadLine {
            number: line.number,
            offset: line.offset,
            kind: BadLineKind::InvalidUtf8,
            reason: format!("invalid UTF-8 at byte {} of the line", err.valid_up_to()),
            text: line.text_lossy().into_owned(),
        }
    }

    /// The `parser: unparseable line (<reason>): <line>` system row, with its place.
    pub fn row(&self, agent: &str, source_file: &str) -> Row {
        Row::system(agent, system::unparseable_line(&self.reason, &self.text))
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
            return Err(BadLine {
                number: line.number,
                offset: line.offset,
                kind: BadLineKind::Broken,
                reason: format!(
                    "{n} JSON values in {} bytes, more than the {MAX_TREE_VALUES} a line may hold to be read",
                    line.bytes.len()
                ),
                text: line.text_lossy().into_owned(),
            });
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
}
