//! A JSON parser that builds [`Node`] trees borrowing from the input.
//!
//! Why not serde_json here: serde_json hands a visitor each string already unescaped,
//! so a tree built through it must copy every string that holds an escape, and
//! assistant markdown is full of `\n` and `\"`. This parser keeps such strings as
//! their escaped slice of the input ([`Node::Esc`]) and decodes them only when a row
//! reads them; subtrees no row reads (`node::is_raw_key`) are validated and kept
//! as slices. It still validates everything JSON requires (grammar, escapes, control
//! characters, UTF-8), and reads numbers as JavaScript does (IEEE doubles, correctly
//! rounded), duplicate keys as `JSON.parse` does (first position, last value) and lone
//! surrogate escapes as U+FFFD.
//!
//! Speed matters here (issue 3 asks for the replay and its rows together to be at least
//! as fast as merely validating the log with serde_json), and the data is hostile to it:
//! the first line is often most of a 100 MB file, and chat text holds an escape every
//! 10 to 20 bytes. So: a line is parsed in the same pass that finds its newline, its
//! UTF-8 checked a window at a time just ahead of the parser ([`parse_line`]); strings
//! are scanned 64 bytes at a time with SSE2 bit masks, escapes worked out by carry
//! arithmetic rather than stopping at each (`block`); the parser's working vectors live
//! from line to line. Each shortcut only walks the happy path and hands anything odd
//! to the careful code, which finds the error and where it is; tests pin both paths
//! to the same results.
//!
//! The tree is at most [`MAX_DEPTH`] levels deep, so hostile input cannot overflow the
//! stack of the parser or of any walk of the tree. An array or object that begins deeper
//! is validated and skipped without recursion (a byte per open level; linear in its
//! length, however deep) and kept as [`Node::TooDeep`]; the parser reports where
//! ([`TooDeep`]). `JSON.parse` has no such limit, so VS Code would read the value.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use super::node::{Depth, Fields, INDEXED_ABOVE, Node, Slot, is_raw_key};

/// Deepest nesting read: an array or object deeper than this is skipped (see the
/// module docs).
pub const MAX_DEPTH: usize = 256;

/// The values a parse skipped for being nested deeper than [`MAX_DEPTH`] levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// Offset of the first one's opening bracket in the parsed text (for
    /// [`parse_line`], in its input).
    pub first: usize,
    /// How many were skipped.
    pub count: usize,
}

/// Bytes of unchecked input checked for UTF-8 at once (see `P::slice`).
const WINDOW: usize = 64 << 10;

/// Where and why a JSON text is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// What was wrong.
    pub message: &'static str,
    /// 1-based line within the text.
    pub line: usize,
    /// 1-based column (bytes) within the line.
    pub column: usize,
    /// True when the text ended too early (a cut-off write).
    pub eof: bool,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for JsonError {}

struct P<'a> {
    /// The input as text when the caller checked it; otherwise the input is checked a
    /// window at a time as the parser reaches it (see [`P::slice`]).
    s: Option<&'a str>,
    /// The checked window of the input (`None` before the first), and where it starts.
    window: Option<(usize, &'a str)>,
    b: &'a [u8],
    /// A newline ends the input (see [`parse_line`]).
    line_mode: bool,
    i: usize,
    origin: u32,
    depth: Depth,
    nesting: usize,
    /// Set when [`P::skip`] stopped at [`MAX_DEPTH`] (its caller then parses the value
    /// instead, which skips what is too deep and keeps a placeholder).
    hit_limit: bool,
    /// The values skipped for being too deep.
    too_deep: Option<TooDeep>,
    /// The members of the objects being parsed, innermost last: each object's are
    /// moved into a vector of exactly their number at its end, so no object carries
    /// spare capacity (most have two or three members).
    fields: Vec<(Cow<'a, str>, Slot<'a>)>,
    /// Likewise for array elements.
    items: Vec<Slot<'a>>,
    /// The last 64-byte block the string scanner looked at.
    #[cfg(target_arch = "x86_64")]
    block: block::Cache,
}

/// Parses `text` as exactly one JSON value (surrounding whitespace allowed). A value
/// nested deeper than [`MAX_DEPTH`] is kept as [`Node::TooDeep`]; see
/// [`parse_noting_depth`] for where.
pub fn parse<'a>(text: &'a str, origin: u32, depth: Depth) -> Result<Node<'a>, JsonError> {
    parse_noting_depth(text, origin, depth).map(|(n, _)| n)
}

/// [`parse`], also saying which values it skipped for being nested too deep.
pub fn parse_noting_depth<'a>(
    text: &'a str,
    origin: u32,
    depth: Depth,
) -> Result<(Node<'a>, Option<TooDeep>), JsonError> {
    let mut p = P::of_text(text, origin, depth);
    let v = p.value()?;
    p.ws();
    if p.i < p.b.len() {
        return Err(p.err("trailing characters", false));
    }
    Ok((v, p.too_deep))
}

/// Validates `text` as exactly one JSON value without building anything.
pub fn validate(text: &str) -> Result<(), JsonError> {
    let mut p = P::of_text(text, 0, Depth::Full);
    p.skip()?;
    p.ws();
    if p.i < p.b.len() {
        return Err(p.err("trailing characters", false));
    }
    Ok(())
}

/// Parses the line of `input` that starts at `start` as one JSON value, in one pass
/// over its bytes: the value, optional spaces, then a newline or the end of the input.
/// Returns the value and the index of the line's end (its newline, or the input's
/// length).
///
/// This is the replay's fast path. Finding the newline first and checking the line's
/// UTF-8 first would each be a pass of their own over the bytes, and the first line of
/// a session is often most of a 100 MB file, far bigger than any cache: the parser
/// stops at the newline instead (JSON has no raw newline inside a value), and checks
/// the UTF-8 of each string and raw subtree as it slices it, while it is in cache.
/// `None` for anything else (invalid JSON or UTF-8, a newline inside the value): the
/// caller then reads the line the careful way, which says what is wrong and where.
///
/// `scratch` holds the parser's working vectors and its checked window from one line
/// to the next, so that a log of many short lines neither allocates them nor checks
/// its UTF-8 again for each; it must come from the same `input`.
pub fn parse_line<'a>(
    input: &'a [u8],
    start: usize,
    origin: u32,
    scratch: &mut Scratch<'a>,
) -> Option<(Node<'a>, usize)> {
    let mut p = P {
        s: None,
        window: scratch.window.take(),
        b: input,
        line_mode: true,
        i: start,
        origin,
        depth: Depth::Lazy,
        nesting: 0,
        hit_limit: false,
        too_deep: None,
        fields: std::mem::take(&mut scratch.fields),
        items: std::mem::take(&mut scratch.items),
        #[cfg(target_arch = "x86_64")]
        block: block::Cache::default(),
    };
    let v = p.value();
    p.ws();
    let end = p.i;
    // after an error the vectors may hold a half-built value: emptied, kept
    p.fields.clear();
    p.items.clear();
    scratch.fields = p.fields;
    scratch.items = p.items;
    scratch.window = p.window;
    scratch.too_deep = p.too_deep;
    let v = v.ok()?;
    (end == input.len() || input[end] == b'\n').then_some((v, end))
}

/// The parser's working vectors and its checked window of the input, kept between
/// lines of the same input (see [`parse_line`]).
#[derive(Debug, Default)]
pub struct Scratch<'a> {
    fields: Vec<(Cow<'a, str>, Slot<'a>)>,
    items: Vec<Slot<'a>>,
    window: Option<(usize, &'a str)>,
    too_deep: Option<TooDeep>,
}

impl Scratch<'_> {
    /// The values the last [`parse_line`] skipped for being nested deeper than
    /// [`MAX_DEPTH`] (offsets in its input).
    pub fn too_deep(&self) -> Option<TooDeep> {
        self.too_deep
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

#[inline]
fn zero_byte(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

impl<'a> P<'a> {
    /// A parser of one whole text (not the line mode of [`parse_line`]).
    fn of_text(text: &'a str, origin: u32, depth: Depth) -> P<'a> {
        P {
            s: Some(text),
            window: None,
            b: text.as_bytes(),
            line_mode: false,
            i: 0,
            origin,
            depth,
            nesting: 0,
            hit_limit: false,
            too_deep: None,
            fields: Vec::new(),
            items: Vec::new(),
            #[cfg(target_arch = "x86_64")]
            block: block::Cache::default(),
        }
    }

    fn err(&self, message: &'static str, eof: bool) -> JsonError {
        if self.line_mode {
            // the one-pass line parser's errors are never shown (the careful path reads
            // the line again and says where): counting the lines of the whole input
            // before it, for each bad line, made a log of many bad lines quadratic
            return JsonError {
                message,
                line: 0,
                column: 0,
                eof,
            };
        }
        let upto = &self.b[..self.i.min(self.b.len())];
        let line = 1 + upto.iter().filter(|c| **c == b'\n').count();
        let start = upto.iter().rposition(|c| *c == b'\n').map_or(0, |p| p + 1);
        JsonError {
            message,
            line,
            column: upto.len() - start + usize::from(!eof),
            eof,
        }
    }

    /// The error for a number whose fraction or exponent has no digit at `i`: the input
    /// ended there, or something else stands where a digit must.
    #[cold]
    fn number_cut_at(&mut self, i: usize) -> JsonError {
        self.i = i;
        let eof = i >= self.b.len();
        self.err(
            if eof {
                "EOF while parsing a value"
            } else {
                "invalid number"
            },
            eof,
        )
    }

    /// The text of `b[from..to]` (both at ASCII delimiters).
    ///
    /// Unchecked input is checked for UTF-8 a window of [`WINDOW`] bytes at a time, as
    /// the parser reaches it (just ahead of its scan, so in cache): the strings in the
    /// window are then sliced from it without a check of their own. A slice that does
    /// not fit the window is checked by itself; so is everything after a window that
    /// holds invalid UTF-8, which then fails where the invalid bytes are.
    #[inline]
    fn slice(&mut self, from: usize, to: usize) -> Result<&'a str, JsonError> {
        let text = match self.s {
            Some(s) => s.get(from..to),
            None => match self.window {
                Some((start, w)) if from >= start && to <= start + w.len() => {
                    w.get(from - start..to - start)
                }
                _ => self.slice_outside_window(from, to),
            },
        };
        text.ok_or_else(|| self.err("invalid UTF-8", false))
    }

    /// [`P::slice`] past the window: moves the window to `from` and slices it, or
    /// checks the slice alone.
    #[cold]
    fn slice_outside_window(&mut self, from: usize, to: usize) -> Option<&'a str> {
        if to - from <= WINDOW / 2 {
            let mut end = (from + WINDOW).min(self.b.len());
            // the window stops before a character it would cut
            let mut back = 0;
            while end > from && back < 3 && self.b.get(end).is_some_and(|c| c & 0xC0 == 0x80) {
                end -= 1;
                back += 1;
            }
            let bytes = &self.b[from..end];
            let w = match simdutf8::basic::from_utf8(bytes) {
                Ok(w) => Some(w),
                // invalid bytes ahead: the window stops before them (checked again, but
                // only here), so that the strings before them are not checked one by one
                Err(_) => simdutf8::compat::from_utf8(bytes)
                    .err()
                    .and_then(|e| std::str::from_utf8(&bytes[..e.valid_up_to()]).ok()),
            };
            if let Some(w) = w {
                self.window = Some((from, w));
                if to <= from + w.len() {
                    return w.get(..to - from);
                }
            }
        }
        simdutf8::basic::from_utf8(&self.b[from..to]).ok()
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            if matches!(c, b' ' | b'\t' | b'\r') || (c == b'\n' && !self.line_mode) {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn enter(&mut self) -> Result<(), JsonError> {
        self.nesting += 1;
        if self.nesting > MAX_DEPTH {
            self.hit_limit = true;
            return Err(self.err("recursion limit exceeded", false));
        }
        Ok(())
    }

    fn value(&mut self) -> Result<Node<'a>, JsonError> {
        self.ws();
        match self.peek() {
            Some(b'{' | b'[') if self.nesting >= MAX_DEPTH => self.too_deep(),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => {
                let (raw, esc) = self.string()?;
                Ok(if esc {
                    Node::Esc(raw)
                } else {
                    Node::Str(Cow::Borrowed(raw))
                })
            }
            Some(b't') => self.literal(b"true").map(|_| Node::Bool(true)),
            Some(b'f') => self.literal(b"false").map(|_| Node::Bool(false)),
            Some(b'n') => self.literal(b"null").map(|_| Node::Null),
            Some(b'-' | b'0'..=b'9') => self.number().map(Node::Num),
            None => Err(self.err("EOF while parsing a value", true)),
            Some(_) => Err(self.err("expected value", false)),
        }
    }

    /// Skips one value, validating it.
    fn skip(&mut self) -> Result<(), JsonError> {
        self.ws();
        match self.peek() {
            Some(b'{') => {
                self.enter()?;
                self.i += 1;
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    self.nesting -= 1;
                    return Ok(());
                }
                loop {
                    self.ws();
                    match self.peek() {
                        Some(b'"') => {
                            self.string_span()?;
                        }
                        None => return Err(self.err("EOF while parsing an object", true)),
                        _ => return Err(self.err("key must be a string", false)),
                    }
                    self.colon()?;
                    self.skip()?;
                    if self.comma_or_end(
                        b'}',
                        "EOF while parsing an object",
                        "expected `,` or `}`",
                    )? {
                        break;
                    }
                }
                self.nesting -= 1;
                Ok(())
            }
            Some(b'[') => {
                self.enter()?;
                self.i += 1;
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    self.nesting -= 1;
                    return Ok(());
                }
                loop {
                    self.skip()?;
                    if self.comma_or_end(b']', "EOF while parsing a list", "expected `,` or `]`")? {
                        break;
                    }
                }
                self.nesting -= 1;
                Ok(())
            }
            Some(b'"') => self.string_span().map(|_| ()),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number_span().map(|_| ()),
            None => Err(self.err("EOF while parsing a value", true)),
            Some(_) => Err(self.err("expected value", false)),
        }
    }

    /// The array or object at `self.i`, one level deeper than [`MAX_DEPTH`]: validated
    /// and skipped (see [`P::skip_deep`]), its text checked for UTF-8 as a raw
    /// subtree's is, and noted; a placeholder stands in its place.
    #[cold]
    fn too_deep(&mut self) -> Result<Node<'a>, JsonError> {
        let from = self.i;
        let object = self.peek() == Some(b'{');
        self.skip_deep()?;
        self.slice(from, self.i)?;
        let seen = self.too_deep.get_or_insert(TooDeep {
            first: from,
            count: 0,
        });
        seen.count += 1;
        Ok(Node::TooDeep { object })
    }

    /// Skips one value, validating it as [`P::skip`] does (the same errors, at the same
    /// places), however deep it nests: without recursion, a byte per open level
    /// (whether it is an object), so it is linear in the value's length.
    fn skip_deep(&mut self) -> Result<(), JsonError> {
        const OBJECT_EOF: &str = "EOF while parsing an object";
        let mut open: Vec<bool> = Vec::new();
        loop {
            // at a value
            self.ws();
            match self.peek() {
                Some(c @ (b'{' | b'[')) => {
                    self.i += 1;
                    self.ws();
                    let object = c == b'{';
                    if self.peek() == Some(if object { b'}' } else { b']' }) {
                        self.i += 1;
                    } else {
                        open.push(object);
                        if object {
                            self.member_key()?;
                        }
                        continue;
                    }
                }
                Some(b'"') => {
                    self.string_span()?;
                }
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(b'-' | b'0'..=b'9') => {
                    self.number_span()?;
                }
                None => return Err(self.err("EOF while parsing a value", true)),
                Some(_) => return Err(self.err("expected value", false)),
            }
            // after a value: close what it ends, or go on to the next member
            loop {
                let Some(&object) = open.last() else {
                    return Ok(());
                };
                let closed = if object {
                    self.comma_or_end(b'}', OBJECT_EOF, "expected `,` or `}`")?
                } else {
                    self.comma_or_end(b']', "EOF while parsing a list", "expected `,` or `]`")?
                };
                if !closed {
                    if object {
                        self.member_key()?;
                    }
                    break;
                }
                open.pop();
            }
        }
    }

    /// An object member's key and colon, validated ([`P::skip_deep`]).
    fn member_key(&mut self) -> Result<(), JsonError> {
        self.ws();
        match self.peek() {
            Some(b'"') => {
                self.string_span()?;
            }
            None => return Err(self.err("EOF while parsing an object", true)),
            _ => return Err(self.err("key must be a string", false)),
        }
        self.colon()
    }

    fn colon(&mut self) -> Result<(), JsonError> {
        self.ws();
        match self.peek() {
            Some(b':') => {
                self.i += 1;
                Ok(())
            }
            None => Err(self.err("EOF while parsing an object", true)),
            _ => Err(self.err("expected `:`", false)),
        }
    }

    /// After a member or element: true at the closing bracket, false after a comma.
    fn comma_or_end(
        &mut self,
        close: u8,
        eof: &'static str,
        bad: &'static str,
    ) -> Result<bool, JsonError> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.i += 1;
                self.ws();
                if self.peek() == Some(close) {
                    return Err(self.err("trailing comma", false));
                }
                Ok(false)
            }
            Some(c) if c == close => {
                self.i += 1;
                Ok(true)
            }
            None => Err(self.err(eof, true)),
            _ => Err(self.err(bad, false)),
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), JsonError> {
        let end = self.i + word.len();
        if self.b.get(self.i..end) == Some(word) {
            self.i = end;
            return Ok(());
        }
        let have = &self.b[self.i..self.b.len().min(end)];
        if word.starts_with(have) {
            self.i = self.b.len();
            return Err(self.err("EOF while parsing a value", true));
        }
        Err(self.err("expected value", false))
    }

    fn number_span(&mut self) -> Result<&'a [u8], JsonError> {
        let start = self.i;
        let b = self.b;
        let digits = |i: &mut usize| {
            let s = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i - s
        };
        let mut i = self.i;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                digits(&mut i);
            }
            None => {
                self.i = i;
                return Err(self.err("EOF while parsing a value", true));
            }
            _ => {
                self.i = i;
                return Err(self.err("invalid number", false));
            }
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if digits(&mut i) == 0 {
                return Err(self.number_cut_at(i));
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if digits(&mut i) == 0 {
                return Err(self.number_cut_at(i));
            }
        }
        self.i = i;
        Ok(&self.b[start..i])
    }

    fn number(&mut self) -> Result<f64, JsonError> {
        let t = self.number_span()?;
        if t.len() <= 15 && t.iter().all(u8::is_ascii_digit) {
            // exact: fewer than 16 digits fit a double
            return Ok(t.iter().fold(0u64, |a, c| a * 10 + u64::from(c - b'0')) as f64);
        }
        // Rust's parse is correctly rounded, as JavaScript's is (a number's span is ASCII)
        Ok(std::str::from_utf8(t)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or(f64::NAN))
    }

    /// A string at `"`: its raw contents (between the quotes) and whether it has escapes.
    #[inline]
    fn string(&mut self) -> Result<(&'a str, bool), JsonError> {
        let (start, end, esc) = self.string_span()?;
        Ok((self.slice(start, end)?, esc))
    }

    /// A string at `"`, validated but not sliced (a raw subtree's strings are checked
    /// for UTF-8 with the subtree, at once): where its contents start and end, and
    /// whether it has escapes.
    fn string_span(&mut self) -> Result<(usize, usize, bool), JsonError> {
        self.i += 1;
        let start = self.i;
        let b = self.b;
        #[cfg(target_arch = "x86_64")]
        if let Some((end, esc)) = block::string_end(b, start, &mut self.block) {
            self.i = end + 1;
            return Ok((start, end, esc));
        }
        // the careful path: the end of the input is near, or something is wrong (it
        // finds what, and where)
        let mut esc = false;
        loop {
            // eight bytes at a time to the next quote, backslash or control character
            while self.i + 8 <= b.len() {
                let mut w = [0u8; 8];
                w.copy_from_slice(&b[self.i..self.i + 8]);
                let x = u64::from_le_bytes(w);
                let hit = zero_byte(x ^ (ONES * u64::from(b'"')))
                    | zero_byte(x ^ (ONES * u64::from(b'\\')))
                    | (x.wrapping_sub(ONES * 0x20) & !x & HIGHS);
                if hit != 0 {
                    self.i += (hit.trailing_zeros() / 8) as usize;
                    break;
                }
                self.i += 8;
            }
            let Some(&c) = b.get(self.i) else {
                return Err(self.err("EOF while parsing a string", true));
            };
            match c {
                b'"' => {
                    let end = self.i;
                    self.i += 1;
                    return Ok((start, end, esc));
                }
                b'\\' => {
                    esc = true;
                    self.i += 1;
                    match b.get(self.i) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 1,
                        Some(b'u') => {
                            for k in 1..=4 {
                                match b.get(self.i + k) {
                                    Some(h) if h.is_ascii_hexdigit() => {}
                                    None => {
                                        self.i = b.len();
                                        return Err(self.err("EOF while parsing a string", true));
                                    }
                                    _ => {
                                        self.i += k;
                                        return Err(self.err("invalid escape", false));
                                    }
                                }
                            }
                            self.i += 5;
                        }
                        None => return Err(self.err("EOF while parsing a string", true)),
                        _ => return Err(self.err("invalid escape", false)),
                    }
                }
                c if c < 0x20 => {
                    return Err(self.err(
                        "control character (\\u0000-\\u001F) found while parsing a string",
                        false,
                    ));
                }
                _ => self.i += 1,
            }
        }
    }

    fn object(&mut self) -> Result<Node<'a>, JsonError> {
        self.enter()?;
        self.i += 1;
        let start = self.fields.len();
        let mut index: Option<HashMap<Cow<'a, str>, usize>> = None;
        let mut seen = 0u64;
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            self.nesting -= 1;
            return Ok(Node::Obj(Fields::new()));
        }
        loop {
            self.ws();
            let key = match self.peek() {
                Some(b'"') => {
                    let (raw, esc) = self.string()?;
                    if esc {
                        Cow::Owned(unescape(raw))
                    } else {
                        Cow::Borrowed(raw)
                    }
                }
                None => return Err(self.err("EOF while parsing an object", true)),
                _ => return Err(self.err("key must be a string", false)),
            };
            self.colon()?;
            let value = if self.depth == Depth::Lazy && is_raw_key(&key) {
                self.ws();
                let (from, nesting) = (self.i, self.nesting);
                match self.skip() {
                    Ok(()) => Node::Raw(self.slice(from, self.i)?),
                    // deeper than the tree may be: parsed instead, all of it (no level
                    // of it skipped again), which keeps a placeholder for what is too deep
                    Err(_) if self.hit_limit => {
                        self.hit_limit = false;
                        self.i = from;
                        self.nesting = nesting;
                        let lazy = std::mem::replace(&mut self.depth, Depth::Full);
                        let v = self.value();
                        self.depth = lazy;
                        v?
                    }
                    Err(e) => return Err(e),
                }
            } else {
                self.value()?
            };
            let slot = Slot::new(self.origin, value);
            // a duplicate key keeps its first position and takes the last value
            // (JSON.parse); `seen` has a bit per key length, so that the usual object,
            // whose keys all differ, is searched only for keys of a length seen before
            let bit = 1u64 << (key.len() & 63);
            let existing = match &index {
                Some(ix) => ix.get(key.as_ref()).map(|p| start + p),
                None if seen & bit == 0 => None,
                None => self.fields[start..]
                    .iter()
                    .position(|(k, _)| *k == key)
                    .map(|p| start + p),
            };
            seen |= bit;
            match existing {
                Some(p) => self.fields[p].1 = slot,
                None => {
                    let n = self.fields.len() - start;
                    if let Some(ix) = &mut index {
                        ix.insert(key.clone(), n);
                    }
                    self.fields.push((key, slot));
                    if index.is_none() && n + 1 > INDEXED_ABOVE {
                        index = Some(
                            self.fields[start..]
                                .iter()
                                .enumerate()
                                .map(|(i, (k, _))| (k.clone(), i))
                                .collect(),
                        );
                    }
                }
            }
            if self.comma_or_end(b'}', "EOF while parsing an object", "expected `,` or `}`")? {
                break;
            }
        }
        self.nesting -= 1;
        let mut fields = Vec::with_capacity(self.fields.len() - start);
        fields.extend(self.fields.drain(start..));
        // the index made while parsing (each key once) is the object's
        Ok(Node::Obj(Fields::from_parts(fields, index)))
    }

    fn array(&mut self) -> Result<Node<'a>, JsonError> {
        self.enter()?;
        self.i += 1;
        let start = self.items.len();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            self.nesting -= 1;
            return Ok(Node::Arr(Vec::new()));
        }
        loop {
            let v = self.value()?;
            self.items.push(Slot::new(self.origin, v));
            if self.comma_or_end(b']', "EOF while parsing a list", "expected `,` or `]`")? {
                break;
            }
        }
        self.nesting -= 1;
        let mut items = Vec::with_capacity(self.items.len() - start);
        items.extend(self.items.drain(start..));
        Ok(Node::Arr(items))
    }
}

/// Finding a string's end 64 bytes at a time, with SSE2 (every x86-64 has it).
///
/// Chat text is dense with escapes (`\n`, `\"`: one every 10 to 20 bytes in code-heavy
/// answers), so a scanner that stops at each one spends its time on mispredicted
/// branches. This one takes a block's quotes, backslashes and control characters as
/// three bit masks, works out which quotes are escaped with carry arithmetic (odd runs
/// of backslashes, the technique of simdjson's string scanner), and checks each escape
/// from its mask. It only walks the happy path: at a control character, a bad escape or
/// fewer than 64 bytes left it gives up, and [`P::string`] reads the string byte by byte,
/// which finds the error and where it is.
#[cfg(target_arch = "x86_64")]
mod block {
    use safe_arch::{
        cmp_eq_mask_i8_m128i, load_unaligned_m128i, max_u8_m128i, move_mask_i8_m128i,
        set_splat_i8_m128i,
    };

    /// A block's masks (bit k stands for byte `base + k`).
    #[derive(Clone, Copy, Debug, Default)]
    pub(super) struct Cache {
        /// Where the block starts; `None` before the first.
        base: Option<usize>,
        /// Unescaped quotes.
        quotes: u64,
        /// Escaped bytes.
        escaped: u64,
        /// Escaped bytes other than the common `n`, `"` and `\\`, checked one by one.
        rare: u64,
        /// Control characters.
        control: u64,
        /// Whether the byte after the block is escaped.
        carry: u64,
    }

    /// The masks of the 64 bytes at `base`, given whether the first is escaped.
    #[inline(always)]
    fn masks(block: &[u8; 64], base: usize, carry: u64) -> Cache {
        let quote = set_splat_i8_m128i(b'"' as i8);
        let backslash = set_splat_i8_m128i(b'\\' as i8);
        let newline = set_splat_i8_m128i(b'n' as i8);
        let top_control = set_splat_i8_m128i(0x1f);
        let (mut q, mut bs, mut n, mut ctl) = (0u64, 0u64, 0u64, 0u64);
        for (k, chunk) in block.chunks_exact(16).enumerate() {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(chunk);
            let x = load_unaligned_m128i(&bytes);
            let bit = |m: i32| u64::from(m as u16) << (k * 16);
            q |= bit(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(x, quote)));
            bs |= bit(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(x, backslash)));
            n |= bit(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(x, newline)));
            // x <= 0x1f, unsigned: max(x, 0x1f) == 0x1f
            ctl |= bit(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(
                max_u8_m128i(x, top_control),
                top_control,
            )));
        }
        let mut carry = carry;
        let escaped = escaped(bs, &mut carry);
        Cache {
            base: Some(base),
            quotes: q & !escaped,
            escaped,
            rare: escaped & !(q | bs | n),
            control: ctl,
            carry,
        }
    }

    /// The bytes a backslash escapes, given the block's backslashes and whether its
    /// first byte is escaped (`carry`, updated for the next block).
    #[inline(always)]
    fn escaped(backslashes: u64, carry: &mut u64) -> u64 {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        let prev = *carry;
        let backslashes = backslashes & !prev;
        let follows = (backslashes << 1) | prev;
        // runs of backslashes starting on an odd bit: adding the run to its start
        // carries out of its end
        let odd_starts = backslashes & !EVEN & !follows;
        let (even_runs, overflow) = odd_starts.overflowing_add(backslashes);
        *carry = u64::from(overflow);
        (EVEN ^ (even_runs << 1)) & follows
    }

    /// The index of the quote that ends the string whose contents start at `start`, and
    /// whether it holds escapes; `None` to leave it to the careful path.
    ///
    /// `cache` keeps the last block: the next string usually starts a few bytes after
    /// this one ends, in the same block, whose masks still hold there (after an
    /// unescaped quote, which bytes are escaped depends only on the bytes that follow).
    #[inline]
    pub(super) fn string_end(b: &[u8], start: usize, cache: &mut Cache) -> Option<(usize, bool)> {
        match cache.base {
            Some(base) if (base..base + 64).contains(&start) => {}
            _ => *cache = masks(b.get(start..start + 64)?.try_into().ok()?, start, 0),
        }
        let c = cache;
        let mut from = start - c.base.unwrap_or(start);
        let mut any = false;
        loop {
            let base = c.base.unwrap_or(0);
            let live = u64::MAX << from;
            let stop = (c.quotes | c.control) & live;
            let before = if stop == 0 {
                u64::MAX
            } else {
                (1u64 << stop.trailing_zeros()) - 1
            };
            any |= c.escaped & live & before != 0;
            let mut rare = c.rare & live & before;
            while rare != 0 {
                let k = rare.trailing_zeros() as usize;
                rare &= rare - 1;
                let at = base + k;
                match b[at] {
                    b'/' | b'b' | b'f' | b'r' | b't' => {}
                    b'u' if b
                        .get(at + 1..at + 5)
                        .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) => {}
                    _ => return None,
                }
            }
            if stop != 0 {
                let k = stop.trailing_zeros() as usize;
                return (c.quotes & (1 << k) != 0).then_some((base + k, any));
            }
            let next = base + 64;
            *c = masks(b.get(next..next + 64)?.try_into().ok()?, next, c.carry);
            from = 0;
        }
    }
}

fn hex4(b: &[u8]) -> u32 {
    b.iter()
        .fold(0, |a, c| a * 16 + (*c as char).to_digit(16).unwrap_or(0))
}

/// What each two-byte escape `\\x` decodes to; 0 for `u` and for bytes that need a
/// closer look.
static SIMPLE_ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 1;
    while c < 128 {
        t[c] = c as u8;
        c += 1;
    }
    t[b'n' as usize] = b'\n';
    t[b't' as usize] = b'\t';
    t[b'r' as usize] = b'\r';
    t[b'b' as usize] = 8;
    t[b'f' as usize] = 12;
    t[b'u' as usize] = 0;
    t
};

/// Decodes the escapes of a validated raw string; a lone surrogate becomes U+FFFD.
///
/// Works on bytes, eight at a time: each word is appended whole and the output cut
/// back to its first backslash, so the runs between escapes (a few dozen bytes in chat
/// text) cost no copy call of their own. The output is never longer than the input
/// (an escape is at least as long as what it decodes to), so it never grows; and
/// it is valid UTF-8 by construction: runs end at an ASCII backslash and every escape
/// decodes to whole characters (checked once at the end rather than trusted).
pub fn unescape(raw: &str) -> String {
    let b = raw.as_bytes();
    // eight spare bytes: a word is stored whole even where only part of it is kept, so
    // the vector never grows
    let mut out: Vec<u8> = Vec::with_capacity(b.len() + 8);
    let mut i = 0usize;
    loop {
        while i + 8 <= b.len() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i..i + 8]);
            out.extend_from_slice(&w);
            let hit = zero_byte(u64::from_le_bytes(w) ^ (ONES * u64::from(b'\\')));
            if hit != 0 {
                let p = (hit.trailing_zeros() / 8) as usize;
                out.truncate(out.len() - (8 - p));
                i += p;
                break;
            }
            i += 8;
        }
        // the tail (or the backslash the loop stopped at), byte by byte
        while let Some(&c) = b.get(i) {
            if c == b'\\' {
                break;
            }
            out.push(c);
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        // b[i] is a backslash
        let Some(&e) = b.get(i + 1) else {
            out.push(b'\\');
            break;
        };
        i += 2;
        // the two-byte escapes by table: chat text is full of them, and a branch per
        // kind of escape would be mispredicted at every other one (10% faster here)
        let simple = SIMPLE_ESCAPES[e as usize];
        if simple != 0 {
            out.push(simple);
            continue;
        }
        let decoded = match e {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'b' => 8,
            b'f' => 12,
            b'u' if b
                .get(i..i + 4)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) =>
            {
                let cp = hex4(&b[i..i + 4]);
                i += 4;
                let mut c = char::from_u32(cp).unwrap_or('\u{fffd}');
                if (0xD800..0xDC00).contains(&cp)
                    && b.get(i) == Some(&b'\\')
                    && b.get(i + 1) == Some(&b'u')
                    && i + 6 <= b.len()
                {
                    let lo = hex4(&b[i + 2..i + 6]);
                    if (0xDC00..0xE000).contains(&lo) {
                        i += 6;
                        let pair = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        c = char::from_u32(pair).unwrap_or('\u{fffd}');
                    }
                }
                let mut utf8 = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                continue;
            }
            other if other.is_ascii() && other != b'u' => other,
            _ => {
                // not an escape JSON allows (only unvalidated input has one): keep it as written
                i -= 1;
                b'\\'
            }
        };
        out.push(decoded);
    }
    match String::from_utf8(out) {
        Ok(s) => s,
        // unreachable by construction; kept lossy rather than panicking
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<String, String> {
        parse(s, 0, Depth::Full)
            .map(|n| n.to_json())
            .map_err(|e| e.to_string())
    }

    /// A deterministic pseudo-random sequence (xorshift64) for generated inputs.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// The end of the string starting at `b[start]` (after its quote), byte by byte:
    /// `Ok((end, has_escapes))`, or `Err(())` where the string is invalid or cut.
    #[cfg(target_arch = "x86_64")]
    fn string_end_slowly(b: &[u8], start: usize) -> Result<(usize, bool), ()> {
        let (mut i, mut esc) = (start, false);
        while let Some(&c) = b.get(i) {
            match c {
                b'"' => return Ok((i, esc)),
                b'\\' => {
                    esc = true;
                    match b.get(i + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                        Some(b'u')
                            if b.get(i + 2..i + 6)
                                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) =>
                        {
                            i += 6
                        }
                        _ => return Err(()),
                    }
                }
                0..0x20 => return Err(()),
                _ => i += 1,
            }
        }
        Err(())
    }

    /// The 64-byte block scanner agrees with a byte-by-byte reading wherever it answers,
    /// on strings dense with backslash runs that cross block boundaries, and answers
    /// for every valid string with a block's worth of bytes after it.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn block_scanner_agrees_with_bytes() {
        let alphabet: &[u8] = b"\\\\\\\"\"nu0aF9x /\x01\xc3\xa9";
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        let (mut answered, mut valid_long) = (0, 0);
        for _ in 0..20_000 {
            let len = (next() % 200) as usize;
            let mut b = vec![b'"'];
            b.extend((0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]));
            b.push(b'"');
            b.extend_from_slice(&[b' '; 64]);
            let slow = string_end_slowly(&b, 1);
            let fast = block::string_end(&b, 1, &mut block::Cache::default());
            if let Some(f) = fast {
                answered += 1;
                assert_eq!(Ok(f), slow, "{:?}", String::from_utf8_lossy(&b));
            } else if slow.is_ok_and(|(end, _)| end + 64 <= b.len()) {
                valid_long += 1;
            }
        }
        // every valid string the slow path accepts with 64 bytes left is answered
        assert_eq!(valid_long, 0);
        assert!(answered > 1_000, "{answered}");
    }

    /// Whole documents of many strings, so that strings start inside blocks the
    /// scanner has seen (its cache), dense with backslash runs, quotes, `\\u` escapes,
    /// control characters and multi-byte UTF-8: the parser accepts exactly what
    /// serde_json accepts and reads the same values.
    #[test]
    fn documents_of_dense_strings_read_as_serde_json_reads_them() {
        let alphabet: &[&str] = &[
            "\\\\", "\\\"", "\\n", "\\u00e9", "\\t", "\\/", "\"", "\\", "\\x", "\\u12", "\u{1}",
            "é", "a", "b", " ", "n", "0", "{", "]",
        ];
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let (mut valid, mut invalid) = (0, 0);
        for _ in 0..4_000 {
            let mut doc = String::from("[");
            for k in 0..(next() % 12) {
                if k > 0 {
                    doc.push(',');
                }
                doc.push('"');
                for _ in 0..(next() % 60) {
                    // mostly plain text, so that many documents are valid
                    let pick = next() as usize % (alphabet.len() * 4);
                    doc.push_str(alphabet.get(pick).copied().unwrap_or("abcdefgh"));
                }
                doc.push('"');
            }
            doc.push(']');
            let ours = parse(&doc, 0, Depth::Full).map(|n| n.to_value());
            let theirs = serde_json::from_str::<serde_json::Value>(&doc);
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "{doc}");
                    valid += 1;
                }
                (Err(_), Err(_)) => invalid += 1,
                _ => panic!("{doc}: ours {ours:?}, serde_json {theirs:?}"),
            }
        }
        assert!(
            valid > 300 && invalid > 300,
            "{valid} valid, {invalid} invalid"
        );
    }

    #[test]
    fn values() {
        assert_eq!(
            p(r#" {"a":[1,-2.5e3,true,false,null,"x\n\"y\"\u00e9\ud83d\ude00\ud83d"],"b":{}} "#)
                .unwrap(),
            "{\"a\":[1,-2500,true,false,null,\"x\\n\\\"y\\\"é😀\u{fffd}\"],\"b\":{}}"
        );
        assert_eq!(p("[]").unwrap(), "[]");
        assert_eq!(p("0.1").unwrap(), "0.1");
    }

    #[test]
    fn errors_say_where_and_whether_cut() {
        let e = parse("{\"a\":", 0, Depth::Full).unwrap_err();
        assert!(e.eof);
        assert_eq!(
            e.to_string(),
            "EOF while parsing a value at line 1 column 5"
        );
        let e = parse("{\"a\" 1}", 0, Depth::Full).unwrap_err();
        assert_eq!(
            (e.to_string().as_str(), e.eof),
            ("expected `:` at line 1 column 6", false)
        );
        assert_eq!(p("[1,]").unwrap_err(), "trailing comma at line 1 column 4");
        assert_eq!(
            p("01").unwrap_err(),
            "trailing characters at line 1 column 2"
        );
        assert_eq!(
            p("\"a\u{1}\"").unwrap_err(),
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3"
        );
        assert_eq!(
            p("\"\\x\"").unwrap_err(),
            "invalid escape at line 1 column 3"
        );
        assert_eq!(
            p("{\n\"a\":tru").unwrap_err(),
            "EOF while parsing a value at line 2 column 7"
        );
        // a fraction or exponent without a digit, cut or invalid, as serde_json says it
        for bad in ["1.", "1.x", "[1e", "[1e+]", "2E-"] {
            let serde = serde_json::from_str::<serde_json::Value>(bad).unwrap_err();
            assert_eq!(p(bad).unwrap_err(), serde.to_string(), "{bad}");
        }
        // past the depth limit the same errors, from the iterative skip
        assert_eq!(
            p(&"[".repeat(300)).unwrap_err(),
            "EOF while parsing a value at line 1 column 300"
        );
        assert_eq!(
            p(&format!("{}1,]", "[".repeat(300))).unwrap_err(),
            "trailing comma at line 1 column 303"
        );
        assert!(validate("{\"a\":[1,{\"b\":\"c\\\"\"}]}").is_ok());
        assert!(validate("{\"a\":[1,{\"b\":\"c\\\"\"}]").is_err());
    }

    /// What lies deeper than the limit is validated and skipped, and a placeholder
    /// (written as `null`) keeps its place; the rest of the document is read, and the
    /// parse says where the skipped values began.
    #[test]
    fn values_deeper_than_the_limit_are_skipped_and_noted() {
        let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        let object_below = format!("{}{{\"k\":[2]}}{}", "[".repeat(255), "]".repeat(255));
        let doc = format!(
            "{{\"a\":1,\"d\":{},\"o\":{object_below},\"b\":2}}",
            deep(300)
        );
        let (n, too_deep) = parse_noting_depth(&doc, 0, Depth::Full).unwrap();
        // the document is level 1, the arrays of `d` levels 2 to 256 (read) and 257 on
        // (skipped); in `o` the object at level 257 is skipped
        let kept = format!("{}null{}", "[".repeat(255), "]".repeat(255));
        assert_eq!(
            n.to_json(),
            format!("{{\"a\":1,\"d\":{kept},\"o\":{kept},\"b\":2}}")
        );
        assert_eq!(
            too_deep,
            Some(TooDeep {
                first: 11 + 255,
                count: 2
            })
        );
        assert_eq!(&doc[266..268], "[[");
        // at the limit nothing is skipped
        let at_limit = deep(256);
        let (n, too_deep) = parse_noting_depth(&at_limit, 0, Depth::Full).unwrap();
        assert_eq!(n.to_json(), at_limit);
        assert_eq!(too_deep, None);
        // a lazy key whose subtree is too deep is read as a tree, the same way
        let doc = format!("{{\"result\":{{\"m\":{}}},\"x\":3}}", deep(300));
        let (n, too_deep) = parse_noting_depth(&doc, 0, Depth::Lazy).unwrap();
        let kept = format!("{}null{}", "[".repeat(254), "]".repeat(254));
        assert_eq!(
            n.to_json(),
            format!("{{\"result\":{{\"m\":{kept}}},\"x\":3}}")
        );
        assert_eq!(too_deep.map(|d| d.count), Some(1));
        assert!(matches!(
            n.get("result").map(|s| &s.node),
            Some(Node::Obj(_))
        ));
    }

    /// 100,000 levels (and a million) are skipped in constant stack, on a thread whose
    /// stack (half a scan worker's) is far too small to recurse that deep.
    #[test]
    fn a_hundred_thousand_open_brackets_do_not_overflow_the_stack() {
        let worker = std::thread::Builder::new().stack_size(1 << 20);
        let done = worker
            .spawn(|| {
                for n in [100_000, 1_000_000] {
                    let closed = format!("{{\"x\":{}0{}}}", "[".repeat(n), "]".repeat(n));
                    let (v, d) = parse_noting_depth(&closed, 0, Depth::Lazy).unwrap();
                    assert_eq!(d.map(|d| (d.first, d.count)), Some((5 + 255, 1)));
                    assert!(matches!(v, Node::Obj(_)));
                    let open = format!("{{\"x\":{}", "[".repeat(n));
                    let e = parse(&open, 0, Depth::Lazy).unwrap_err();
                    assert!(e.eof, "{e}");
                    let mut scratch = Scratch::default();
                    assert!(parse_line(closed.as_bytes(), 0, 0, &mut scratch).is_some());
                    assert_eq!(scratch.too_deep().map(|d| d.count), Some(1));
                }
            })
            .unwrap();
        assert!(done.join().is_ok());
    }

    /// The iterative skip accepts what the recursive one accepts and fails with the
    /// same error at the same place, on generated documents, valid and damaged.
    #[test]
    fn the_iterative_skip_agrees_with_the_recursive_one() {
        let pieces: &[&str] = &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"k\"",
            "\"a\\\"b\"",
            "1",
            "-2.5e3",
            "true",
            "nul",
            "null",
            " ",
            "\n",
            "\"",
            "x",
            "1.",
            "{\"a\":",
            "[1,",
            "\"\u{1}\"",
        ];
        let mut next = xorshift(0x517c_c1b7_2722_0a95_u64);
        let (mut ok, mut bad) = (0, 0);
        for _ in 0..20_000 {
            let mut doc = String::new();
            // mostly well-formed shapes, cut or spliced now and then
            for _ in 0..(next() % 24) {
                doc.push_str(pieces[next() as usize % pieces.len()]);
            }
            let run = |deep: bool| {
                let mut p = P::of_text(&doc, 0, Depth::Full);
                let r = if deep { p.skip_deep() } else { p.skip() };
                (r, p.i)
            };
            let (a, b) = (run(false), run(true));
            assert_eq!(a, b, "{doc:?}");
            if a.0.is_ok() {
                ok += 1;
            } else {
                bad += 1;
            }
        }
        assert!(ok > 1_000 && bad > 1_000, "{ok} valid, {bad} invalid");
    }

    #[test]
    fn unescape_agrees_with_serde_json_at_every_length_and_position() {
        // runs of 0..20 bytes around each escape exercise the word loop, the tail and
        // an escape at every offset within a word
        let escapes = [
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\u00e9",
            "\\ud83d\\ude00",
            "\\u20ac",
        ];
        for n in 0..20 {
            for e in escapes {
                let run: String = "aé".chars().cycle().take(n).collect();
                let raw = format!("{run}{e}{run}{e}{e}{run}");
                let want: String = serde_json::from_str(&format!("\"{raw}\"")).unwrap();
                assert_eq!(unescape(&raw), want, "{raw}");
            }
        }
        assert_eq!(unescape(""), "");
        assert_eq!(unescape("\\ud83dx"), "\u{fffd}x");
        assert_eq!(unescape("\\ud83d\\u0041"), "\u{fffd}A");
        assert_eq!(unescape("abc\\"), "abc\\");
    }

    #[test]
    fn unescape_keeps_what_is_not_an_escape() {
        assert_eq!(unescape("a\\é\\u12"), "a\\é\\u12");
        assert_eq!(unescape("\\u00e9\\n\\"), "é\n\\");
    }

    #[test]
    fn long_strings_with_escapes_stay_raw() {
        let s = format!("\"{}\\n{}\"", "a".repeat(20), "b".repeat(20));
        let n = parse(&s, 0, Depth::Full).unwrap();
        assert!(matches!(n, Node::Esc(r) if r.len() == 42));
        assert_eq!(
            n.text().unwrap(),
            format!("{}\n{}", "a".repeat(20), "b".repeat(20))
        );
    }
}
