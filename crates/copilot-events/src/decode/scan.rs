//! The first reader of every line: a one-pass scanner of the event envelope and of the
//! `data` of each type, written for the lines Copilot writes.
//!
//! Why not serde_json alone: a log is mostly short lines (200 bytes) of which the
//! mapping reads a few strings, and serde_json's typed decoding of such a line cost
//! about twice its validation with `IgnoredAny` (each key matched through the derived
//! field visitors, each `Option` and string through the visitor layers, the event's
//! 400-byte struct moved through every layer's `Result`); its long lines are tool
//! outputs and answers dense with escapes, which serde_json (and the borrowing parser
//! of `vscode-chat-log` that read them before) scanned once to find a string's end and
//! again to decode it. This scanner walks the line once, left to right: keys are
//! matched as byte strings, the fields a type reads are written straight into its
//! struct (the event is decoded in place and lent to the mapping, never moved), strings
//! are borrowed from the line when they have no escape and decoded in the same pass
//! that finds their end when they have, and everything else is validated and skipped
//! (strings eight bytes at a time). The few nested values that rows print as JSON or
//! that the mapping reads rarely (`error`, `repository`, `rules`, `codeChanges`'
//! `filesModified`) are validated by the scanner and then given to serde_json as the
//! slice they are, so they read exactly as before (`modelMetrics` and the rest of
//! `codeChanges` are read by the scanner: serde_json's map and struct decoding of them
//! was a twentieth of the reader's time on the fixture shape).
//!
//! It never decides anything serde_json would decide otherwise: whatever it does not
//! read the same way for certain (a key with an escape, a duplicate field, a surrogate
//! escape, a float or `-0` where an integer is read, a number or boolean where a text is
//! read, `data` before `type`, a value of a type the field does not take, nesting past
//! 100 levels, a control character in a string, any error at all) makes it give up
//! (`None`), and the line is then decoded by serde_json, which gives the same event or
//! the same error, and therefore the same rows. Tests compare its events with serde_json's
//! on the fixtures, on edge lines and on damaged copies.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;

use super::{
    Attachment, CodeChanges, Context, CopilotUsage, Data, Event, Kind, MetricRequests, ModelMetric,
    PermissionRequest, Raw, ResultData, ResultItem, Shape, ShellExecution, ShellToolInfo, Str,
    Text, ToolRequest, shape,
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Nesting past this depth is left to serde_json (its own limit is 128).
const MAX_DEPTH: u32 = 100;

/// What each two-byte escape `\\x` decodes to; 0 for `u` and the bytes JSON refuses.
static SIMPLE_ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'n' as usize] = b'\n';
    t[b't' as usize] = b'\t';
    t[b'r' as usize] = b'\r';
    t[b'b' as usize] = 8;
    t[b'f' as usize] = 12;
    t
};

/// The bytes of `w` equal to zero, as high bits (the lowest one is exact).
#[inline]
fn zeros(w: u64) -> u64 {
    w.wrapping_sub(ONES) & !w & HIGHS
}

/// The bytes of `w` that end a run of string text (a quote, a backslash, a control
/// character), as high bits (the lowest one is exact).
#[inline]
fn stops(w: u64) -> u64 {
    zeros(w ^ (ONES * u64::from(b'"')))
        | zeros(w ^ (ONES * u64::from(b'\\')))
        | (w.wrapping_sub(ONES * 0x20) & !w & HIGHS)
}

/// The index of the first byte at or after `i` that ends a run of string text, or the
/// length of `b`: eight bytes at a time (over `chunks_exact`, whose chunks need no
/// bounds check of their own).
#[inline]
fn stop_at(b: &[u8], mut i: usize) -> usize {
    let mut chunks = b.get(i..).unwrap_or_default().chunks_exact(8);
    for chunk in &mut chunks {
        let Ok(w) = <[u8; 8]>::try_from(chunk) else {
            // never: every chunk is eight bytes (the callers check the byte at `i`)
            return i;
        };
        let hit = stops(u64::from_le_bytes(w));
        if hit != 0 {
            return i + (hit.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    for &c in chunks.remainder() {
        if c == b'"' || c == b'\\' || c < 0x20 {
            return i;
        }
        i += 1;
    }
    i
}

/// Decodes one line, or `None` when serde_json must (see the module docs).
pub(crate) fn event(line: &str) -> Option<Event<'_>> {
    let mut ev = Event::default();
    into(line, &mut ev).map(|_| ev)
}

/// Decodes one line and hands its event to `f` (the event is not moved out: it is
/// large) with its `data` as written and whether that held a key its type does not
/// read (at any depth, but the bookkeeping ids at its top: what a detail row prints),
/// or `None` when serde_json must (see the module docs).
pub(crate) fn with<'a, R>(
    line: &'a str,
    f: impl for<'k> FnOnce(&Event<'a>, Option<Found<'k>>, bool) -> R,
) -> Option<R> {
    let mut ev = Event::default();
    into(line, &mut ev).map(|(data, unread, long)| {
        let found = data.map(|(at, text)| Found {
            text,
            at,
            long: &long,
        });
        f(&ev, found, unread)
    })
}

/// Strings, arrays and objects at least this long (in bytes, as written) that the first
/// read of a line passes whole are noted ([`Found::long`]), for a second walk to jump
/// over.
const LONG: usize = 256;

/// A string of a line as written, from its opening quote to past its closing quote,
/// and whether it holds an escape; or an array or object passed whole, from its
/// opening bracket to past its closing one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    start: usize,
    end: usize,
    escaped: bool,
}

/// A line's `data` as its first read found it: its text, where it starts in the line,
/// and the long strings (and arrays and objects) that read passed whole in it, so that
/// the detail row's second walk ([`Walk::found`]) jumps over them rather than pass a
/// tool's output again (a value starts where the first read found one only if it is
/// that value: the line is the same; and the walk is never deeper there than the first
/// read was, so the first read's depth check holds for it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found<'k> {
    /// `data` as written.
    pub text: &'k str,
    /// Where `text` starts in the line.
    pub at: usize,
    /// The long values ([`LONG`]) the first read passed, in the line's offsets, in
    /// order.
    pub long: &'k [Span],
}

impl<'k> Found<'k> {
    /// A `data` found otherwise (by serde_json): no values noted.
    pub(crate) fn plain(text: &'k str) -> Found<'k> {
        Found {
            text,
            at: 0,
            long: &[],
        }
    }
}

/// The `data` of a line as serde_json's `Option<&RawValue>` field of a struct gives it
/// (`Some(None)` for a missing or `null` one), or `None` when serde_json must say (a
/// generic `session event:` row prints it; serde_json read the line again for it).
pub(crate) fn data_raw(line: &str) -> Option<Option<&str>> {
    let mut p = P {
        s: line,
        b: line.as_bytes(),
        i: 0,
        depth: 0,
        scratch: Vec::new(),
        unread: false,
        data_at: (0, 0),
        long: Vec::new(),
        noting: false,
        known: &[],
        known_at: 0,
        base: 0,
    };
    let mut data = None;
    p.fields(&[&["data"]], |p, _| {
        data = p.opt_raw()?.map(|r| r.0);
        Some(())
    })?;
    p.ws();
    (p.i == p.b.len()).then_some(data)
}

/// A JSON value walked with the scanner's own steps, for the detail row's second read
/// of a line's `data` (`events::detail`): objects and arrays are entered where the
/// caller asks, every other value is skipped and given as written. `None` from any
/// step where the scanner gives up (see the module docs): the caller falls back.
pub(crate) struct Walk<'a>(P<'a>);

impl<'a> Walk<'a> {
    /// A walk over `text`, one value.
    pub(crate) fn new(text: &'a str) -> Walk<'a> {
        Walk::found(Found::plain(text))
    }

    /// A walk over a line's `data` that jumps over the long values its first read
    /// passed ([`Found`]).
    pub(crate) fn found(data: Found<'a>) -> Walk<'a> {
        Walk(P {
            s: data.text,
            b: data.text.as_bytes(),
            i: 0,
            depth: 0,
            scratch: Vec::new(),
            unread: false,
            data_at: (0, 0),
            long: Vec::new(),
            noting: false,
            known: data.long,
            known_at: 0,
            base: data.at,
        })
    }

    /// The first byte of the next value.
    pub(crate) fn peek(&mut self) -> Option<u8> {
        self.0.peek()
    }

    /// The next value, skipped: its text as written.
    pub(crate) fn value(&mut self) -> Option<&'a str> {
        self.0.skip()
    }

    /// The entries of the object at the cursor: `f` is given each key (decoded) and
    /// must take its value (with [`Walk::value`], [`Walk::object`] or
    /// [`Walk::array`]).
    pub(crate) fn object(
        &mut self,
        mut f: impl FnMut(&mut Self, Cow<'a, str>) -> Option<()>,
    ) -> Option<()> {
        self.0.eat(b'{')?;
        self.enter()?;
        if self.0.peek()? == b'}' {
            self.0.i += 1;
        } else {
            loop {
                self.0.ws();
                let key = self.0.string()?;
                self.0.eat(b':')?;
                f(self, key)?;
                match self.0.peek()? {
                    b',' => self.0.i += 1,
                    b'}' => {
                        self.0.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.0.depth -= 1;
        Some(())
    }

    /// The items of the array at the cursor: `f` must take each.
    pub(crate) fn array(&mut self, mut f: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.0.eat(b'[')?;
        self.enter()?;
        if self.0.peek()? == b']' {
            self.0.i += 1;
        } else {
            loop {
                f(self)?;
                match self.0.peek()? {
                    b',' => self.0.i += 1,
                    b']' => {
                        self.0.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.0.depth -= 1;
        Some(())
    }

    /// True when nothing but blanks is left.
    pub(crate) fn done(&mut self) -> bool {
        self.0.ws();
        self.0.i == self.0.b.len()
    }

    fn enter(&mut self) -> Option<()> {
        self.0.depth += 1;
        (self.0.depth <= MAX_DEPTH).then_some(())
    }
}

/// Decodes one line into `ev`, with its `data` as written and where it starts (when
/// the line has one), whether that held a key its type does not read, and the long
/// values passed; `None` when serde_json must.
#[allow(clippy::type_complexity)]
fn into<'a>(
    line: &'a str,
    ev: &mut Event<'a>,
) -> Option<(Option<(usize, &'a str)>, bool, Vec<Span>)> {
    let mut p = P {
        s: line,
        b: line.as_bytes(),
        i: 0,
        depth: 0,
        scratch: Vec::new(),
        unread: false,
        data_at: (0, 0),
        long: Vec::new(),
        noting: true,
        known: &[],
        known_at: 0,
        base: 0,
    };
    p.envelope(ev)?;
    p.ws();
    if p.i != p.b.len() {
        return None;
    }
    let (from, to) = p.data_at;
    let data = (to > 0).then(|| line.get(from..to).map(|d| (from, d)));
    // in the order a walk meets them (an array is noted after the strings in it)
    p.long.sort_unstable_by_key(|s| s.start);
    Some((data.flatten(), p.unread, p.long))
}

struct P<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: u32,
    /// Where escaped strings are decoded (sized for the rest of the line once).
    scratch: Vec<u8>,
    /// True once a key inside `data` was skipped as one its type does not read.
    unread: bool,
    /// Where `data` is in the line (start, end), once read.
    data_at: (usize, usize),
    /// The long values passed ([`LONG`]), noted by a line's first read (`noting`).
    long: Vec<Span>,
    noting: bool,
    /// The long values a first read noted, for a second walk to jump over (offsets in
    /// the line; `base` is where `s` starts in it), and the next one that may be ahead.
    known: &'a [Span],
    known_at: usize,
    base: usize,
}

/// The fields of a struct as (name, aliases), in the order of the struct's bits.
type Names = [&'static [&'static str]];

impl<'a> P<'a> {
    #[inline]
    fn ws(&mut self) {
        while let Some(c) = self.b.get(self.i) {
            if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    #[inline]
    fn peek(&mut self) -> Option<u8> {
        // most tokens follow the last with no blank (Copilot writes compact JSON)
        match self.b.get(self.i) {
            Some(&c) if c > b' ' => Some(c),
            _ => {
                self.ws();
                self.b.get(self.i).copied()
            }
        }
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| self.i = end)
    }

    /// Notes a value passed (a string's text or an array's or object's inside, from
    /// `start` to `end`: the quotes or brackets are outside) when it is long, in a
    /// line's first read.
    #[inline]
    fn note(&mut self, start: usize, end: usize, escaped: bool) {
        if self.noting && end - start >= LONG {
            self.push_long(start, end, escaped);
        }
    }

    // (kept out of the string loops it ends, which it slowed by a tenth when inlined)
    #[inline(never)]
    fn push_long(&mut self, start: usize, end: usize, escaped: bool) {
        self.long.push(Span {
            start: start - 1,
            end: end + 1,
            escaped,
        });
    }

    /// The noted long value that starts at the cursor, if one does (the cursor only
    /// moves on, so the noted values before it are passed for good).
    #[inline]
    fn known_here(&mut self) -> Option<Span> {
        let at = self.i + self.base;
        while let Some(&span) = self.known.get(self.known_at) {
            if span.start >= at {
                return (span.start == at).then(|| {
                    self.known_at += 1;
                    span
                });
            }
            self.known_at += 1;
        }
        None
    }

    /// A string at the cursor (its opening quote): the range of its raw text and
    /// whether it has escapes; the cursor after its closing quote.
    fn raw_str(&mut self) -> Option<(usize, usize, bool)> {
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        if let Some(span) = self.known_here() {
            self.i = span.end - self.base;
            return Some((
                span.start + 1 - self.base,
                span.end - 1 - self.base,
                span.escaped,
            ));
        }
        let start = self.i + 1;
        let mut i = start;
        let mut escaped = false;
        let b = self.b;
        loop {
            i = stop_at(b, i);
            match *b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    self.note(start, i, escaped);
                    return Some((start, i, escaped));
                }
                b'\\' => {
                    escaped = true;
                    match *b.get(i + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                        b'u' => {
                            let h = b.get(i + 2..i + 6)?;
                            // surrogates (and their neighbours) are serde_json's
                            if !h.iter().all(u8::is_ascii_hexdigit) || matches!(h[0], b'd' | b'D') {
                                return None;
                            }
                            i += 6;
                        }
                        _ => return None,
                    }
                }
                0..0x20 => return None,
                _ => i += 1,
            }
        }
    }

    /// A string value: borrowed when it has no escape, else decoded in the same pass
    /// that finds its end (the escapes of a long tool output are read once).
    fn string(&mut self) -> Option<Cow<'a, str>> {
        if self.peek()? != b'"' {
            return None;
        }
        let b = self.b;
        let start = self.i + 1;
        // the run before the first quote, backslash or control character
        let mut i = stop_at(b, start);
        match *b.get(i)? {
            b'"' => {
                self.i = i + 1;
                self.note(start, i, false);
                return self.s.get(start..i).map(Cow::Borrowed);
            }
            b'\\' => {}
            _ => return None,
        }
        // an escape: decode from here on, at indices into a buffer as long as the rest
        // of the line (the output is never longer than the input)
        let need = b.len() - start + 8;
        if self.scratch.len() < need {
            self.scratch.resize(need, 0);
        }
        let out = &mut self.scratch;
        let mut o = i - start;
        out.get_mut(..o)?.copy_from_slice(b.get(start..i)?);
        loop {
            if let Some(chunk) = b.get(i..i + 8) {
                let w: [u8; 8] = chunk.try_into().ok()?;
                out.get_mut(o..o + 8)?.copy_from_slice(&w);
                let hit = stops(u64::from_le_bytes(w));
                if hit == 0 {
                    i += 8;
                    o += 8;
                    continue;
                }
                let p = (hit.trailing_zeros() / 8) as usize;
                i += p;
                o += p;
            }
            match *b.get(i)? {
                b'"' => break,
                b'\\' => {
                    let e = *b.get(i + 1)?;
                    let simple = SIMPLE_ESCAPES[usize::from(e)];
                    if simple != 0 {
                        *out.get_mut(o)? = simple;
                        i += 2;
                        o += 1;
                        continue;
                    }
                    if e != b'u' {
                        return None;
                    }
                    let h = b.get(i + 2..i + 6)?;
                    // surrogates (and their neighbours) are serde_json's
                    if matches!(h[0], b'd' | b'D') {
                        return None;
                    }
                    let cp = h
                        .iter()
                        .try_fold(0u32, |a, c| (*c as char).to_digit(16).map(|d| a * 16 + d))?;
                    i += 6;
                    o += char::from_u32(cp)?
                        .encode_utf8(out.get_mut(o..o + 4)?)
                        .len();
                }
                c if c < 0x20 => return None,
                c => {
                    // fewer than eight bytes left in the line
                    *out.get_mut(o)? = c;
                    i += 1;
                    o += 1;
                }
            }
        }
        self.i = i + 1;
        // valid by construction, checked rather than trusted (simdutf8: std's check is
        // slow on text with a non-ASCII character every few words)
        let text = simdutf8::basic::from_utf8(out.get(..o)?)
            .ok()
            .map(|t| Cow::Owned(t.to_owned()));
        self.note(start, i, true);
        text
    }

    /// True (and the cursor past it) when the value is `null`.
    fn null(&mut self) -> Option<bool> {
        if self.peek()? == b'n' {
            self.literal(b"null")?;
            Some(true)
        } else {
            Some(false)
        }
    }

    fn opt_str(&mut self) -> Option<Option<Str<'a>>> {
        if self.null()? {
            return Some(None);
        }
        self.string().map(|s| Some(Str(s)))
    }

    fn opt_bool(&mut self) -> Option<Option<bool>> {
        match self.peek()? {
            b'n' => self.literal(b"null").map(|_| None),
            b't' => self.literal(b"true").map(|_| Some(true)),
            b'f' => self.literal(b"false").map(|_| Some(false)),
            _ => None,
        }
    }

    /// A number at the cursor, validated: its value when it is an integer serde_json
    /// reads as one of `i64` (not `-0`, not past the range), else `None` inside.
    fn number(&mut self) -> Option<Option<i64>> {
        let start = self.i;
        let integer = self.number_end()?;
        if !integer {
            return Some(None);
        }
        let text = self.s.get(start..self.i)?;
        match text.parse::<i64>() {
            // serde_json reads `-0` as a float
            Ok(0) if text.starts_with('-') => Some(None),
            Ok(n) => Some(Some(n)),
            Err(_) => Some(None),
        }
    }

    /// Passes a number at the cursor as JSON writes one (the grammar serde_json
    /// accepts), without reading its value (`skip`: an array of 25 million numbers is
    /// passed twice, by the first read and the detail row's); true for an integer.
    #[inline]
    fn number_end(&mut self) -> Option<bool> {
        let b = self.b;
        let start = self.i;
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => {
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            _ => return None,
        }
        let mut integer = true;
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !b.get(i).is_some_and(u8::is_ascii_digit) {
                return None;
            }
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            integer = false;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !b.get(i).is_some_and(u8::is_ascii_digit) {
                return None;
            }
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            integer = false;
        }
        self.i = i;
        Some(integer)
    }

    fn opt_int(&mut self) -> Option<Option<i64>> {
        match self.peek()? {
            b'n' => self.literal(b"null").map(|_| None),
            b'-' | b'0'..=b'9' => self.number()?.map(Some),
            _ => None,
        }
    }

    /// A string, integer or boolean kept as text ([`Text`]).
    fn opt_text(&mut self) -> Option<Option<Text<'a>>> {
        match self.peek()? {
            b'n' => self.literal(b"null").map(|_| None),
            b'"' => self.string().map(|s| Some(Text(s))),
            b't' => self
                .literal(b"true")
                .map(|_| Some(Text(Cow::Borrowed("true")))),
            b'f' => self
                .literal(b"false")
                .map(|_| Some(Text(Cow::Borrowed("false")))),
            b'-' | b'0'..=b'9' => self
                .number()?
                .map(|n| Some(Text(Cow::Owned(n.to_string())))),
            _ => None,
        }
    }

    /// Validates and skips one value; its raw text.
    fn skip(&mut self) -> Option<&'a str> {
        let c = self.peek()?;
        let start = self.i;
        match c {
            b'"' => {
                self.raw_str()?;
            }
            b'{' | b'[' => {
                // (an array or object the first read passed whole is jumped over)
                if let Some(span) = self.known_here() {
                    self.i = span.end - self.base;
                    return self.s.get(start..self.i);
                }
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                let close = if c == b'{' { b'}' } else { b']' };
                if self.peek()? == close {
                    self.i += 1;
                } else {
                    loop {
                        if c == b'{' {
                            self.ws();
                            self.raw_str()?;
                            self.eat(b':')?;
                        }
                        self.skip()?;
                        match self.peek()? {
                            b',' => self.i += 1,
                            x if x == close => {
                                self.i += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                self.depth -= 1;
                self.note(start + 1, self.i - 1, false);
            }
            b't' => self.literal(b"true")?,
            b'f' => self.literal(b"false")?,
            b'n' => self.literal(b"null")?,
            b'-' | b'0'..=b'9' => {
                self.number_end()?;
            }
            _ => return None,
        }
        self.s.get(start..self.i)
    }

    /// A value read by serde_json from its own slice (validated here first, so that
    /// its nesting is within serde_json's limit in the line too); `null` is `None`.
    fn sub<T: Deserialize<'a>>(&mut self) -> Option<Option<T>> {
        if self.null()? {
            return Some(None);
        }
        let raw = self.skip()?;
        serde_json::from_str::<T>(raw).ok().map(Some)
    }

    /// A raw value, as serde_json's `Option<&RawValue>` takes it: the slice validated.
    fn opt_raw(&mut self) -> Option<Option<Raw<'a>>> {
        if self.null()? {
            return Some(None);
        }
        self.skip().map(|r| Some(Raw(r)))
    }

    /// Reads an object's fields: `read(p, n)` reads the value of field `n` of `names`;
    /// the values of other keys are skipped. A duplicate field or a key with an escape
    /// gives up.
    fn fields(
        &mut self,
        names: &Names,
        mut read: impl FnMut(&mut Self, usize) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let mut seen = 0u32;
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                self.ws();
                // a name of the struct is looked for right after the opening quote,
                // followed by the closing one (no escape can be in between): the keys
                // a type reads are not scanned for their end first
                let at = self.i + 1;
                let rest = self.b.get(at..).unwrap_or_default();
                let mut found = None;
                if self.b.get(self.i) == Some(&b'"') {
                    'names: for (n, spellings) in names.iter().enumerate() {
                        for k in spellings.iter().map(|k| k.as_bytes()) {
                            if rest.get(k.len()) == Some(&b'"') && rest.starts_with(k) {
                                found = Some((n, k.len()));
                                break 'names;
                            }
                        }
                    }
                }
                let mut key = (0, 0);
                let found = match found {
                    Some((n, len)) => {
                        self.i = at + len + 1;
                        Some(n)
                    }
                    None => {
                        // another key (none of the names, unless escaped: given up)
                        let (from, to, escaped) = self.raw_str()?;
                        if escaped {
                            return None;
                        }
                        key = (from, to);
                        None
                    }
                };
                self.eat(b':')?;
                match found {
                    Some(n) => {
                        if seen & (1 << n) != 0 {
                            return None;
                        }
                        seen |= 1 << n;
                        read(self, n)?;
                    }
                    None => {
                        // (the envelope is depth 1, `data` 2; `data`'s bookkeeping ids
                        // are no evidence a detail row would print)
                        if self.depth > 2
                            || (self.depth == 2
                                && !self
                                    .s
                                    .get(key.0..key.1)
                                    .is_some_and(|k| crate::events::BOOKKEEPING.contains(&k)))
                        {
                            self.unread = true;
                        }
                        self.skip()?;
                    }
                }
                match self.peek()? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// An object read field by field into a default `T` (`null` is `None`).
    fn obj<T: Default>(
        &mut self,
        names: &Names,
        mut read: impl FnMut(&mut Self, usize, &mut T) -> Option<()>,
    ) -> Option<Option<T>> {
        if self.null()? {
            return Some(None);
        }
        if self.peek()? != b'{' {
            return None;
        }
        let mut t = T::default();
        self.fields(names, |p, n| read(p, n, &mut t))?;
        Some(Some(t))
    }

    /// An array of items read by `item` (`null` is `None`).
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Option<Vec<T>>> {
        if self.null()? {
            return Some(None);
        }
        self.eat(b'[')?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let mut items = Vec::new();
        if self.peek()? == b']' {
            self.i += 1;
        } else {
            loop {
                items.push(item(self)?);
                match self.peek()? {
                    b',' => self.i += 1,
                    b']' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(Some(items))
    }

    /// An array of objects (an item that is not an object gives up).
    fn objs<T: Default>(
        &mut self,
        names: &Names,
        read: impl Fn(&mut Self, usize, &mut T) -> Option<()>,
    ) -> Option<Option<Vec<T>>> {
        self.list(|p| match p.peek()? {
            b'{' => p.obj(names, &read)?,
            _ => None,
        })
    }

    fn context(&mut self) -> Option<Option<Context<'a>>> {
        self.obj(
            &[
                &["cwd"],
                &["gitRoot"],
                &["branch"],
                &["repository"],
                &["hostType"],
                &["headCommit"],
                &["baseCommit"],
            ],
            |p, n, c: &mut Context<'a>| {
                match n {
                    0 => c.cwd = p.opt_str()?,
                    1 => c.git_root = p.opt_str()?,
                    2 => c.branch = p.opt_str()?,
                    3 => c.repository = p.sub()?,
                    4 => c.host_type = p.opt_str()?,
                    5 => c.head_commit = p.opt_str()?,
                    _ => c.base_commit = p.opt_str()?,
                }
                Some(())
            },
        )
    }

    fn attachments(&mut self) -> Option<Option<Vec<Attachment<'a>>>> {
        self.objs(
            &[&["type"], &["path"], &["filePath"], &["displayName"]],
            |p, n, a: &mut Attachment<'a>| {
                match n {
                    0 => a.kind = p.opt_str()?,
                    1 => a.path = p.opt_str()?,
                    2 => a.file_path = p.opt_str()?,
                    _ => a.display_name = p.opt_str()?,
                }
                Some(())
            },
        )
    }

    fn tool_requests(&mut self) -> Option<Option<Vec<ToolRequest<'a>>>> {
        self.objs(
            &[&["toolCallId"], &["name"], &["arguments"], &["type"]],
            |p, n, t: &mut ToolRequest<'a>| {
                match n {
                    0 => t.tool_call_id = p.opt_str()?,
                    1 => t.name = p.opt_str()?,
                    2 => t.arguments = p.opt_raw()?,
                    // the SDK's kind of call (`function`, `custom`), for the detail row
                    _ => t.kind = p.opt_raw()?,
                }
                Some(())
            },
        )
    }

    /// A notification's `kind`: a string, or an object's `type` ([`Kind`]).
    fn kind(&mut self) -> Option<Option<Kind<'a>>> {
        if self.peek()? == b'{' {
            return self.obj(&[&["type"]], |p, _, k: &mut Kind<'a>| {
                if let Some(t) = p.opt_str()? {
                    k.0 = t.0;
                }
                Some(())
            });
        }
        self.opt_str().map(|s| s.map(|s| Kind(s.0)))
    }

    fn shell_tool_info(&mut self) -> Option<Option<ShellToolInfo<'a>>> {
        self.obj(&[&["displayCommand"]], |p, _, i: &mut ShellToolInfo<'a>| {
            i.display_command = p.opt_str()?;
            Some(())
        })
    }

    fn shell_execution(&mut self) -> Option<Option<ShellExecution>> {
        self.obj(&[&["exitCode"]], |p, _, x: &mut ShellExecution| {
            x.exit_code = p.opt_int()?;
            Some(())
        })
    }

    fn result(&mut self) -> Option<Option<ResultData<'a>>> {
        self.obj(
            &[
                &["content"],
                &["detailedContent"],
                &["contents"],
                &["shellExecution"],
                &["kind"],
                &["locationKey"],
                &["rules"],
                &["feedback"],
            ],
            |p, n, r: &mut ResultData<'a>| {
                match n {
                    0 => r.content = p.opt_text()?,
                    1 => r.detailed_content = p.opt_str()?,
                    2 => {
                        r.contents =
                            p.objs(&[&["type"], &["exitCode"]], |p, n, i: &mut ResultItem| {
                                match n {
                                    0 => {
                                        i.kind = match p.null()? {
                                            true => None,
                                            false => Some(p.string()?.into_owned()),
                                        }
                                    }
                                    _ => i.exit_code = p.opt_int()?,
                                }
                                Some(())
                            })?
                    }
                    3 => r.shell_execution = p.shell_execution()?,
                    4 => r.kind = p.opt_str()?,
                    5 => r.location_key = p.opt_str()?,
                    6 => r.rules = p.sub()?,
                    _ => r.feedback = p.opt_str()?,
                }
                Some(())
            },
        )
    }

    fn permission_request(&mut self) -> Option<Option<PermissionRequest<'a>>> {
        self.obj(
            &[
                &["kind"],
                &["toolCallId"],
                &["intention"],
                &["fullCommandText"],
                &["fileName"],
                &["path"],
                &["url"],
                &["serverName"],
                &["toolName"],
            ],
            |p, n, r: &mut PermissionRequest<'a>| {
                let v = p.opt_str()?;
                match n {
                    0 => r.kind = v,
                    1 => r.tool_call_id = v,
                    2 => r.intention = v,
                    3 => r.full_command_text = v,
                    4 => r.file_name = v,
                    5 => r.path = v,
                    6 => r.url = v,
                    7 => r.server_name = v,
                    _ => r.tool_name = v,
                }
                Some(())
            },
        )
    }

    /// `modelMetrics`: a map of model names to their metrics, read as serde_json reads
    /// it into a `BTreeMap` (a repeated model replaces the earlier one; a metric that
    /// is not an object, a `usage` that is not an object, gives up).
    fn model_metrics(&mut self) -> Option<Option<BTreeMap<String, ModelMetric>>> {
        if self.null()? {
            return Some(None);
        }
        self.eat(b'{')?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let mut map = BTreeMap::new();
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                let model = self.string()?.into_owned();
                self.eat(b':')?;
                if self.peek()? != b'{' {
                    return None;
                }
                let mut m = ModelMetric::default();
                self.fields(&[&["usage"], &["requests"], &["totalNanoAiu"]], |p, n| {
                    match n {
                        0 => {
                            if p.peek()? != b'{' {
                                return None;
                            }
                            let u = &mut m.usage;
                            p.fields(
                                &[
                                    &["inputTokens"],
                                    &["outputTokens"],
                                    &["cacheReadTokens"],
                                    &["cacheWriteTokens"],
                                    &["reasoningTokens"],
                                ],
                                |p, n| {
                                    let v = p.opt_int()?;
                                    match n {
                                        0 => u.input_tokens = v,
                                        1 => u.output_tokens = v,
                                        2 => u.cache_read_tokens = v,
                                        3 => u.cache_write_tokens = v,
                                        _ => u.reasoning_tokens = v,
                                    }
                                    Some(())
                                },
                            )?;
                        }
                        1 => {
                            m.requests = p.obj(&[&["count"]], |p, _, r: &mut MetricRequests| {
                                r.count = p.opt_int()?;
                                Some(())
                            })?
                        }
                        _ => m.total_nano_aiu = p.opt_int()?,
                    }
                    Some(())
                })?;
                map.insert(model, m);
                match self.peek()? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(Some(map))
    }

    /// `codeChanges` (its `filesModified`, any JSON value, read by serde_json from its
    /// slice).
    fn code_changes(&mut self) -> Option<Option<CodeChanges>> {
        self.obj(
            &[&["linesAdded"], &["linesRemoved"], &["filesModified"]],
            |p, n, c: &mut CodeChanges| {
                match n {
                    0 => c.lines_added = p.opt_int()?,
                    1 => c.lines_removed = p.opt_int()?,
                    _ => c.files_modified = p.sub()?,
                }
                Some(())
            },
        )
    }

    fn envelope(&mut self, ev: &mut Event<'a>) -> Option<()> {
        const NAMES: &Names = &[
            &["type"],
            &["data"],
            &["id"],
            &["timestamp"],
            &["agentId"],
            &["ephemeral"],
        ];
        let mut kind: Option<Cow<'a, str>> = None;
        let mut data = false;
        self.fields(NAMES, |p, n| {
            match n {
                0 => kind = Some(p.string()?),
                // `data` before `type` is serde_json's (it reads the line twice)
                1 => {
                    p.ws();
                    let from = p.i;
                    p.data(shape(kind.as_deref()?), &mut ev.data)?;
                    p.data_at = (from, p.i);
                    data = true;
                }
                2 => ev.id = p.opt_str()?,
                3 => ev.timestamp = p.opt_str()?,
                4 => ev.agent_id = p.opt_str()?,
                _ => ev.ephemeral = p.opt_bool()?,
            }
            Some(())
        })?;
        ev.kind = kind.unwrap_or_default();
        if !data {
            ev.data = shape(&ev.kind).empty();
        }
        Some(())
    }

    /// The `data` object of a type, decoded in place (the event's struct is large: it
    /// was moved through every layer).
    fn data(&mut self, shape: Shape, out: &mut Data<'a>) -> Option<()> {
        if self.peek()? != b'{' {
            return None;
        }
        *out = shape.empty();
        match out {
            Data::Other => {
                self.skip()?;
            }
            Data::Start(d) => {
                self.fields(
                    &[
                        &["sessionId"],
                        &["copilotVersion"],
                        &["vscodeVersion"],
                        &["startTime"],
                        &["selectedModel"],
                        &["context"],
                        &["producer"],
                        &["reasoningEffort"],
                        &["alreadyInUse"],
                        &["remoteSteerable"],
                        &["version"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.session_id = p.opt_str()?,
                            1 => d.copilot_version = p.opt_str()?,
                            2 => d.vscode_version = p.opt_str()?,
                            3 => d.start_time = p.opt_text()?,
                            4 => d.selected_model = p.opt_str()?,
                            5 => d.context = p.context()?,
                            6 => d.producer = p.opt_str()?,
                            7 => d.reasoning_effort = p.opt_str()?,
                            8 => d.already_in_use = p.opt_text()?,
                            9 => d.remote_steerable = p.opt_text()?,
                            _ => d.version = p.opt_text()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::Resume(d) => {
                self.fields(
                    &[
                        &["eventCount"],
                        &["resumeTime"],
                        &["selectedModel"],
                        &["reasoningEffort"],
                        &["context"],
                        &["alreadyInUse"],
                        &["remoteSteerable"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.event_count = p.opt_int()?,
                            1 => d.resume_time = p.opt_text()?,
                            2 => d.selected_model = p.opt_str()?,
                            3 => d.reasoning_effort = p.opt_str()?,
                            4 => d.context = p.context()?,
                            5 => d.already_in_use = p.opt_text()?,
                            _ => d.remote_steerable = p.opt_text()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::User(d) => {
                self.fields(
                    &[
                        &["content"],
                        &["attachments"],
                        &["agentMode"],
                        &["isAutopilotContinuation"],
                        &["source"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.content = p.opt_str()?,
                            1 => d.attachments = p.attachments()?,
                            2 => d.agent_mode = p.opt_str()?,
                            3 => d.is_autopilot_continuation = p.opt_bool()?,
                            _ => d.source = p.opt_str()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::TurnStart(d) | Data::TurnEnd(d) => {
                self.fields(&[&["model"]], |p, _| {
                    d.model = p.opt_str()?;
                    Some(())
                })?;
            }
            Data::Reasoning(d) => {
                self.fields(&[&["content"]], |p, _| {
                    d.content = p.opt_str()?;
                    Some(())
                })?;
            }
            Data::Message(d) => {
                self.fields(
                    &[
                        &["content"],
                        &["model"],
                        &["toolRequests"],
                        &["reasoningText"],
                        &["encryptedContent"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.content = p.opt_str()?,
                            1 => d.model = p.opt_str()?,
                            2 => d.tool_requests = p.tool_requests()?,
                            3 => d.reasoning_text = p.opt_str()?,
                            _ => d.encrypted_content = p.opt_str()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::ToolStart(d) => {
                self.fields(
                    &[
                        &["toolCallId"],
                        &["toolName"],
                        &["arguments"],
                        &["mcpServerName"],
                        &["mcpToolName"],
                        &["shellToolInfo"],
                        &["model"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.tool_call_id = p.opt_str()?,
                            1 => d.tool_name = p.opt_str()?,
                            2 => d.arguments = p.opt_raw()?,
                            3 => d.mcp_server_name = p.opt_str()?,
                            4 => d.mcp_tool_name = p.opt_str()?,
                            5 => d.shell_tool_info = p.shell_tool_info()?,
                            _ => d.model = p.opt_str()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::ToolComplete(d) => {
                self.fields(
                    &[
                        &["toolCallId"],
                        &["success"],
                        &["result"],
                        &["error"],
                        &["shellExecution"],
                        &["model"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.tool_call_id = p.opt_str()?,
                            1 => d.success = p.opt_bool()?,
                            2 => d.result = p.result()?,
                            3 => d.error = p.opt_raw()?,
                            4 => d.shell_execution = p.shell_execution()?,
                            _ => d.model = p.opt_str()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::ModelChange(d) => {
                self.fields(
                    &[
                        &["previousModel"],
                        &["newModel"],
                        &["reasoningEffort"],
                        &["source"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.previous_model = p.opt_str()?,
                            1 => d.new_model = p.opt_str()?,
                            2 => d.reasoning_effort = p.opt_str()?,
                            _ => d.source = p.opt_text()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::ModeChanged(d) | Data::PermissionsChanged(d) => {
                self.fields(&[&["newMode"], &["previousMode"], &["mode"]], |p, n| {
                    match n {
                        0 => d.new_mode = p.opt_str()?,
                        1 => d.previous_mode = p.opt_str()?,
                        _ => d.mode = p.opt_str()?,
                    }
                    Some(())
                })?;
            }
            Data::PermissionRequested(d) => {
                self.fields(
                    &[&["toolCallId"], &["requestId"], &["permissionRequest"]],
                    |p, n| {
                        match n {
                            0 => d.tool_call_id = p.opt_str()?,
                            1 => d.request_id = p.opt_str()?,
                            _ => d.permission_request = p.permission_request()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::PermissionCompleted(d) => {
                self.fields(&[&["toolCallId"], &["requestId"], &["result"]], |p, n| {
                    match n {
                        0 => d.tool_call_id = p.opt_str()?,
                        1 => d.request_id = p.opt_str()?,
                        _ => d.result = p.result()?,
                    }
                    Some(())
                })?;
            }
            Data::Info(d) | Data::Warning(d) | Data::Error(d) => {
                self.fields(
                    &[
                        &["infoType"],
                        &["warningType"],
                        &["errorType"],
                        &["statusCode"],
                        &["message"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.info_type = p.opt_str()?,
                            1 => d.warning_type = p.opt_str()?,
                            2 => d.error_type = p.opt_str()?,
                            3 => d.status_code = p.opt_int()?,
                            _ => d.message = p.opt_str()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::Abort(d) => {
                self.fields(&[&["reason"]], |p, _| {
                    d.reason = p.opt_str()?;
                    Some(())
                })?;
            }
            Data::Compaction(d) => {
                self.fields(
                    &[
                        &["success"],
                        &["summaryContent"],
                        &["checkpointNumber"],
                        &["trigger"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.success = p.opt_bool()?,
                            1 => d.summary_content = p.opt_str()?,
                            2 => d.checkpoint_number = p.opt_text()?,
                            _ => d.trigger = p.opt_str()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::Truncation(d) => {
                self.fields(
                    &[
                        &["removedMessages"],
                        &["messagesRemovedDuringTruncation"],
                        &["messagesRemoved"],
                        &["removedTokens"],
                        &["tokensRemovedDuringTruncation"],
                        &["tokensRemoved"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.removed_messages = p.opt_int()?,
                            1 => d.messages_removed_during_truncation = p.opt_int()?,
                            2 => d.messages_removed = p.opt_int()?,
                            3 => d.removed_tokens = p.opt_int()?,
                            4 => d.tokens_removed_during_truncation = p.opt_int()?,
                            _ => d.tokens_removed = p.opt_int()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::ContextChanged(d) => {
                self.fields(
                    &[
                        &["cwd"],
                        &["branch"],
                        &["context"],
                        &["gitRoot"],
                        &["repository"],
                        &["hostType"],
                        &["headCommit"],
                        &["baseCommit"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.cwd = p.opt_str()?,
                            1 => d.branch = p.opt_str()?,
                            2 => d.context = p.context()?,
                            3 => d.git_root = p.opt_str()?,
                            4 => d.repository = p.sub()?,
                            5 => d.host_type = p.opt_str()?,
                            6 => d.head_commit = p.opt_str()?,
                            _ => d.base_commit = p.opt_str()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::ContextCleared(d) => {
                self.fields(&[&["messageCount"], &["messagesCleared"]], |p, n| {
                    match n {
                        0 => d.message_count = p.opt_int()?,
                        _ => d.messages_cleared = p.opt_int()?,
                    }
                    Some(())
                })?;
            }
            Data::Handoff(d) => {
                self.fields(
                    &[&["sourceType"], &["remoteSessionId"], &["repository"]],
                    |p, n| {
                        match n {
                            0 => d.source_type = p.opt_str()?,
                            1 => d.remote_session_id = p.opt_str()?,
                            _ => d.repository = p.sub()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::Subagent(d) => {
                self.fields(
                    &[
                        &["agentName"],
                        &["toolCallId"],
                        &["model"],
                        &["durationMs"],
                        &["totalTokens"],
                        &["error"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.agent_name = p.opt_str()?,
                            1 => d.tool_call_id = p.opt_str()?,
                            2 => d.model = p.opt_str()?,
                            3 => d.duration_ms = p.opt_int()?,
                            4 => d.total_tokens = p.opt_int()?,
                            _ => d.error = p.opt_raw()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::HookEnd(d) => {
                self.fields(
                    &[
                        &["hookType"],
                        &["hookInvocationId"],
                        &["success"],
                        &["error"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.hook_type = p.opt_str()?,
                            1 => d.hook_invocation_id = p.opt_str()?,
                            2 => d.success = p.opt_bool()?,
                            _ => d.error = p.opt_raw()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::Skill(d) => {
                self.fields(&[&["name"], &["path"], &["source"]], |p, n| {
                    match n {
                        0 => d.name = p.opt_str()?,
                        1 => d.path = p.opt_str()?,
                        _ => d.source = p.opt_text()?,
                    }
                    Some(())
                })?;
            }
            Data::SystemMessage(d) | Data::SystemNotification(d) => {
                self.fields(&[&["role"], &["kind"], &["content"]], |p, n| {
                    match n {
                        0 => d.role = p.opt_str()?,
                        1 => d.kind = p.kind()?,
                        _ => d.content = p.opt_str()?,
                    }
                    Some(())
                })?;
            }
            Data::Shutdown(d) => {
                self.fields(
                    &[
                        &["shutdownType"],
                        &["errorReason"],
                        &["modelMetrics"],
                        &["codeChanges"],
                        &["currentModel"],
                        &["totalPremiumRequests"],
                        &["totalNanoAiu"],
                        &["totalApiDurationMs"],
                        &["sessionStartTime"],
                        &["currentTokens"],
                        &["systemTokens"],
                        &["conversationTokens"],
                        &["toolDefinitionsTokens"],
                        &["eventsFileSizeBytes"],
                        &["tokenDetails"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.shutdown_type = p.opt_str()?,
                            1 => d.error_reason = p.opt_str()?,
                            2 => d.model_metrics = p.model_metrics()?,
                            3 => d.code_changes = p.code_changes()?,
                            4 => d.current_model = p.opt_str()?,
                            5 => d.total_premium_requests = p.opt_raw()?,
                            6 => d.total_nano_aiu = p.opt_raw()?,
                            7 => d.total_api_duration_ms = p.opt_raw()?,
                            8 => d.session_start_time = p.opt_raw()?,
                            9 => d.current_tokens = p.opt_raw()?,
                            10 => d.system_tokens = p.opt_raw()?,
                            11 => d.conversation_tokens = p.opt_raw()?,
                            12 => d.tool_definitions_tokens = p.opt_raw()?,
                            13 => d.events_file_size_bytes = p.opt_raw()?,
                            _ => d.token_details = p.opt_raw()?,
                        }
                        Some(())
                    },
                )?;
            }
            Data::Usage(d) => {
                self.fields(
                    &[
                        &["model"],
                        &["inputTokens"],
                        &["outputTokens"],
                        &["cacheReadTokens"],
                        &["cacheCreationInputTokens"],
                        &["copilotUsageNanoAiu"],
                        &["parentToolCallId"],
                        &["reasoningTokens"],
                        &["copilotUsage"],
                        &["totalTokens"],
                        &["cacheWriteTokens"],
                    ],
                    |p, n| {
                        match n {
                            0 => d.model = p.opt_str()?,
                            1 => d.input_tokens = p.opt_int()?,
                            2 => d.output_tokens = p.opt_int()?,
                            3 => d.cache_read_tokens = p.opt_int()?,
                            4 => d.cache_creation_input_tokens = p.opt_int()?,
                            5 => d.copilot_usage_nano_aiu = p.opt_int()?,
                            6 => d.parent_tool_call_id = p.opt_str()?,
                            7 => d.reasoning_tokens = p.opt_int()?,
                            9 => d.total_tokens = p.opt_raw()?,
                            10 => d.cache_write_tokens = p.opt_int()?,
                            _ => {
                                d.copilot_usage =
                                    p.obj(&[&["totalNanoAiu"]], |p, _, u: &mut CopilotUsage| {
                                        u.total_nano_aiu = p.opt_int()?;
                                        Some(())
                                    })?
                            }
                        }
                        Some(())
                    },
                )?;
            }
            Data::BinaryAsset(d) => {
                self.fields(&[&["mimeType"], &["data"], &["size"]], |p, n| {
                    match n {
                        0 => d.mime_type = p.opt_str()?,
                        1 => d.data = p.opt_raw()?,
                        _ => d.size = p.opt_int()?,
                    }
                    Some(())
                })?;
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOGS: [&str; 3] = [
        "lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/events.jsonl",
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/7e137a01/GitHub.copilot-chat/transcripts/5a1e7c37-1137-4000-9000-000000000001.jsonl",
        "WIN-DESK03/C/Users/carol/.copilot/session-state/9e8d7c6b-0000-4e00-8e00-00000000000e/events.jsonl",
    ];

    /// The fixture logs' bytes (the project's own files, read directly by this test).
    fn fixture_logs() -> Vec<Vec<u8>> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence");
        LOGS.iter()
            .map(|rel| std::fs::read(root.join(rel)).unwrap())
            .collect()
    }

    /// The lines of every damaged copy the dirty-input harness makes of the fixture logs.
    fn damaged_lines() -> Vec<Vec<u8>> {
        let mut lines = Vec::new();
        for bytes in fixture_logs() {
            for m in chat_rows::dirty::Harness::new().mutations(bytes.len()) {
                let input = m.apply(&bytes);
                lines.extend(input.split(|c| *c == b'\n').map(<[u8]>::to_vec));
            }
        }
        lines
    }

    /// Escaped strings decode as serde_json decodes them (escapes of every kind at
    /// every place in the eight-byte words, short and long), and `\\uDxxx` escapes and
    /// bad escapes are left to serde_json.
    #[test]
    fn escapes_are_serde_json() {
        const PIECES: [&str; 14] = [
            "ab",
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\t",
            "\\r",
            "\\b",
            "\\f",
            "\\u00e9",
            "\\u2028",
            "caf\u{e9}",
            "\u{1f600}",
            "\\u0041",
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..4000 {
            let mut raw = String::new();
            let pieces = if round % 10 == 0 { 2000 } else { x % 24 };
            for _ in 0..pieces {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                raw.push_str(PIECES[(x % PIECES.len() as u64) as usize]);
            }
            for line in [
                format!(r#"{{"type":"user.message","data":{{"content":"{raw}"}}}}"#),
                format!(r#"{{"type":"user.message","data":{{"content":"{raw}","x":"{raw}"}}}}"#),
                format!(r#"{{"type":"user.message","data":{{"content":"{raw}"#),
            ] {
                let old = crate::decode::serde_event(line.as_bytes());
                match (event(&line), old) {
                    (Some(ev), Ok(old)) => assert_eq!(format!("{ev:?}"), format!("{old:?}")),
                    (None, Err(_)) => {}
                    (ev, old) => panic!("{ev:?} where serde_json gives {old:?}: {line}"),
                }
            }
        }
        for left in [
            "\\ud83d\\ude00",
            "\\uD800",
            "x\\ud7ff",
            "\\q",
            "\\u12",
            "a\u{1}",
        ] {
            let line = format!(r#"{{"type":"user.message","data":{{"content":"{left}"}}}}"#);
            assert!(event(&line).is_none(), "{line}");
        }
    }

    /// The scanner gives the event serde_json gives on every line it reads, gives up on
    /// every line serde_json refuses, and reads nearly all lines of the fixtures.
    #[test]
    fn same_events_as_serde_json() {
        let (mut read, mut all) = (0, 0);
        for bytes in fixture_logs() {
            for line in bytes.split(|c| *c == b'\n').filter(|l| !l.is_empty()) {
                all += 1;
                let Ok(text) = std::str::from_utf8(line) else {
                    continue;
                };
                if let Some(ev) = event(text) {
                    read += 1;
                    let old = crate::decode::serde_event(line).unwrap();
                    assert_eq!(format!("{ev:?}"), format!("{old:?}"));
                }
            }
        }
        assert!(read * 10 >= all * 8, "{read} of {all}");
    }

    /// The same on edge lines, on every kind of number, string and nesting, and on
    /// damaged copies of the logs.
    #[test]
    fn damaged_and_edge_lines() {
        let edge: &[&str] = &[
            r#"{"data":{"content":"a\"b\\c\n\u00e9"},"type":"user.message","timestamp":"2026-10-05T09:00:00.000Z"}"#,
            r#"{"type":"assistant.message","data":{"content":"x\ud800y","model":"m\u0031"}}"#,
            r#"{"type":"assistant.message","data":{"content":"x\ud83d\ude00y"}}"#,
            r#"{"type":"tool.execution_complete","data":{"toolCallId":"a","result":{"content":12}}}"#,
            r#"{"type":"tool.execution_complete","data":{"toolCallId":"b","result":{"content":true,"contents":[{"type":"shell_exit","exitCode":2}]},"shellExecution":{"exitCode":1.0}}}"#,
            r#"{"type":"tool.execution_complete","data":{"toolCallId":"c","result":{"contents":[{"type":"t","exitCode":3,"exitCode":4}]}}}"#,
            r#"{"type":"tool.execution_complete","data":{"toolCallId":"d","success":false,"error":{"code":"E1","message":"no"},"result":{"rules":[{"kind":"x"}]}}}"#,
            r#"{"type":"tool.execution_complete","data":{"error":{"code":1}}}"#,
            r#"{"type":"tool.execution_start","data":{"toolCallId":"e","arguments":{ "a" : [1, {"b":"c"}] },"shellToolInfo":{"displayCommand":"ls"}}}"#,
            r#"{"type":"assistant.message","data":{"toolRequests":[{"toolCallId":"f","name":"n","arguments":"s"},{"arguments":null}]}}"#,
            r#"{"type":"user.message","data":{"content":"a","content":"b"}}"#,
            r#"{"type":"user.message","data":{"isAutopilotContinuation":true,"isAutopilotContinuation":false}}"#,
            r#"{"type":"user.message","type":"user.message","data":{}}"#,
            r#"{"type":"user.message","data":{},"data":{}}"#,
            r#"{"type":"user.message","data":{"con\u0074ent":"x"}}"#,
            r#"{"type":"session.idle","data":null}"#,
            r#"{"type":"session.idle","data":{"a":[1,{"b":"c"}]},"agentId":"sub1"}"#,
            r#"{"type":"user.message","data":"text"}"#,
            r#"{"type":"user.message","data":{"attachments":[{"type":"file","path":"/p"},null]}}"#,
            r#"{"type":"user.message","data":{},"timestamp":7,"id":null}"#,
            r#"{"type":"user.message","data":{},"ephemeral":"yes"}"#,
            r#"{"type":"user.message"} x"#,
            r#"[1,2]"#,
            // a notification's kind: a string, an object's type, or neither
            r#"{"type":"system.notification","data":{"content":"done","kind":{"type":"agent_completed","agentId":"x"}}}"#,
            r#"{"type":"system.notification","data":{"kind":{"agentId":"x","type":null}}}"#,
            r#"{"type":"system.notification","data":{"kind":{"type":"a","type":"b"}}}"#,
            r#"{"type":"system.notification","data":{"kind":{"type":5}}}"#,
            r#"{"type":"system.notification","data":{"kind":["a"]}}"#,
            r#"{"type":"system.message","data":{"role":"r","kind":{}}}"#,
        ];
        let mut lines: Vec<Vec<u8>> = edge.iter().map(|l| l.as_bytes().to_vec()).collect();
        let mut deep = "[".repeat(200);
        deep.push_str(&"]".repeat(200));
        lines.push(format!(r#"{{"type":"session.idle","data":{{"x":{deep}}}}}"#).into_bytes());
        lines.extend(damaged_lines());
        for n in [
            "0",
            "-0",
            "1",
            "-1",
            "01",
            "1.0",
            "1e3",
            "1E+3",
            "-1.5e-3",
            "1.",
            "-",
            "1e",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551616",
            "1e400",
            "true",
            "null",
            "\"7\"",
        ] {
            for field in ["statusCode", "message", "x"] {
                lines.push(
                    format!(r#"{{"type":"session.error","data":{{"{field}":{n}}}}}"#).into_bytes(),
                );
            }
            for field in ["checkpointNumber", "success"] {
                lines.push(
                    format!(r#"{{"type":"session.compaction_complete","data":{{"{field}":{n}}}}}"#)
                        .into_bytes(),
                );
            }
        }
        for s in [
            r#""a\u0000b""#,
            "\"a\tb\"",
            r#""\ud83d\ude00""#,
            r#""\u00e9\u2028""#,
            r#""\x""#,
            r#""\u12""#,
            "\"caf\u{e9} \u{1f600}\"",
            r#""a\"b\\c\/d\b\f\n\r\t""#,
        ] {
            lines.push(
                format!(r#"{{"type":"user.message","data":{{"content":{s}}}}}"#).into_bytes(),
            );
            lines.push(format!(r#"{{"type":"user.message","data":{{"other":{s}}}}}"#).into_bytes());
        }
        for d in [99, 100, 101, 127, 128, 129] {
            let deep = format!("{}{}", "[".repeat(d), "]".repeat(d));
            lines.push(format!(r#"{{"type":"session.idle","data":{{"x":{deep}}}}}"#).into_bytes());
            lines.push(
                format!(r#"{{"type":"tool.execution_start","data":{{"arguments":{deep}}}}}"#)
                    .into_bytes(),
            );
        }
        for extra in [" ", "\t", "\r", " x", ",", "}", "\u{feff}"] {
            lines
                .push(format!(r#"{{"type":"abort","data":{{"reason":"r"}}}}{extra}"#).into_bytes());
            lines
                .push(format!(r#"{extra}{{"type":"abort","data":{{"reason":"r"}}}}"#).into_bytes());
            lines.push(
                format!(r#"{{"type":"abort" {extra},"data":{{"reason":"r"}}}}"#).into_bytes(),
            );
        }
        let mut read = 0;
        for line in &lines {
            let old = crate::decode::serde_event(line);
            let Ok(text) = std::str::from_utf8(line) else {
                continue;
            };
            match (event(text), old) {
                (Some(ev), Ok(old)) => {
                    read += 1;
                    assert_eq!(format!("{ev:?}"), format!("{old:?}"), "{text}");
                }
                (Some(ev), Err(e)) => panic!("read {ev:?} where serde_json says {e}: {text}"),
                (None, _) => {}
            }
        }
        assert!(read > 1000, "{read} of {}", lines.len());
    }
    /// `modelMetrics` and `codeChanges`, read by the scanner (they were serde_json's):
    /// the event serde_json gives on every variant read, none where serde_json refuses,
    /// and the usual shapes read rather than given up on.
    #[test]
    fn shutdown_metrics_are_serde_json() {
        let metrics = [
            r#"{}"#,
            r#"null"#,
            r#"{"m":{}}"#,
            r#"{"m":{"usage":{"inputTokens":1,"outputTokens":2,"cacheReadTokens":3,"cacheWriteTokens":4,"reasoningTokens":5},"requests":{"count":3,"cost":1.5},"totalNanoAiu":9}}"#,
            r#"{"b":{"usage":{}},"a":{"usage":{"inputTokens":null}},"b":{"totalNanoAiu":1}}"#,
            r#"{"m\u00e9\n":{"requests":null}}"#,
            r#"{ "m" : { "usage" : { "inputTokens" : 1 } , "x" : [1,{"y":2}] } }"#,
            r#"{"m":{"usage":null}}"#,
            r#"{"m":{"usage":[1,2]}}"#,
            r#"{"m":[{}]}"#,
            r#"{"m":null}"#,
            r#"{"m":{"usage":{"inputTokens":1.0}}}"#,
            r#"{"m":{"usage":{"inputTokens":"1"}}}"#,
            r#"{"m":{"usage":{"inputTokens":1,"inputTokens":2}}}"#,
            r#"{"m":{"usage":{},"usage":{}}}"#,
            r#"{"m":{"requests":{"count":-0}}}"#,
            r#"{"m":{"requests":[1]}}"#,
            r#"{"m":{"totalNanoAiu":9223372036854775808}}"#,
            r#"{"m":{},}"#,
            r#"{"m":{}"#,
            r#"{"m" {}}"#,
            r#"[]"#,
            r#""m""#,
        ];
        let changes = [
            r#"null"#,
            r#"{}"#,
            r#"{"filesModified":["a","b"],"linesAdded":3,"linesRemoved":1}"#,
            r#"{"filesModified":7,"linesAdded":null}"#,
            r#"{"filesModified":null,"other":{"x":[]}}"#,
            r#"{"filesModified":{"a":1},"linesAdded":1.5}"#,
            r#"{"linesAdded":1,"linesAdded":2}"#,
            r#"{"linesRemoved":"1"}"#,
            r#"[1,2,3]"#,
            r#"{"filesModified":[}"#,
        ];
        let mut lines = Vec::new();
        for m in metrics {
            for c in changes {
                lines.push(format!(
                    r#"{{"type":"session.shutdown","data":{{"shutdownType":"routine","modelMetrics":{m},"codeChanges":{c},"currentModel":"gpt-5"}}}}"#
                ));
            }
        }
        let mut read = 0;
        for text in &lines {
            let old = crate::decode::serde_event(text.as_bytes());
            match (event(text), old) {
                (Some(ev), Ok(old)) => {
                    read += 1;
                    assert_eq!(format!("{ev:?}"), format!("{old:?}"), "{text}");
                }
                (Some(ev), Err(e)) => panic!("read {ev:?} where serde_json says {e}: {text}"),
                (None, _) => {}
            }
        }
        // the first seven metrics (the rest hold a float, `-0`, a duplicate field, a
        // value of another type, or are not JSON) with the first five changes
        assert_eq!(read, 35, "{} lines", lines.len());
    }

    /// The shutdown's totals (`session totals:`), kept as written by the scanner: the
    /// event serde_json gives on every variant, none where serde_json refuses.
    #[test]
    fn shutdown_totals_are_serde_json() {
        let values = [
            r#"1"#,
            r#"1.5"#,
            r#"null"#,
            r#""text""#,
            r#"{"input":{"tokenCount":2}}"#,
            r#"[1, {"a": null}]"#,
            r#"-0"#,
            r#"1e400"#,
            r#"{"a":}"#,
        ];
        let names = [
            "totalPremiumRequests",
            "totalNanoAiu",
            "totalApiDurationMs",
            "sessionStartTime",
            "currentTokens",
            "systemTokens",
            "conversationTokens",
            "toolDefinitionsTokens",
            "eventsFileSizeBytes",
            "tokenDetails",
        ];
        let (mut read, mut lines) = (0, 0);
        for name in names {
            for v in values {
                lines += 1;
                let text = format!(
                    r#"{{"type":"session.shutdown","data":{{"shutdownType":"routine","{name}":{v},"currentModel":"m"}}}}"#
                );
                match (event(&text), crate::decode::serde_event(text.as_bytes())) {
                    (Some(ev), Ok(old)) => {
                        read += 1;
                        assert_eq!(format!("{ev:?}"), format!("{old:?}"), "{text}");
                    }
                    (Some(ev), Err(e)) => panic!("read {ev:?} where serde_json says {e}: {text}"),
                    (None, Ok(old)) => panic!("gave up on {old:?}: {text}"),
                    (None, Err(_)) => {}
                }
            }
        }
        // every value but `{"a":}`, which is not JSON (`1e400` is kept as written)
        assert_eq!((read, lines), (80, 90));
    }
    /// The SDK's fields of `session.start` and `session.resume` beside the spec's, and
    /// the context's `hostType`, `headCommit` and `baseCommit`: the event serde_json
    /// gives on every variant read, none where serde_json refuses.
    #[test]
    fn start_and_resume_fields_are_serde_json() {
        let values = [
            r#""x""#,
            r#"true"#,
            r#"1"#,
            r#"null"#,
            r#""a\u00e9\n""#,
            r#"[1]"#,
            r#"{"a":1}"#,
        ];
        let (mut read, mut lines) = (0, 0);
        for (kind, names) in [
            (
                "session.start",
                &[
                    "producer",
                    "reasoningEffort",
                    "alreadyInUse",
                    "remoteSteerable",
                    "version",
                ][..],
            ),
            (
                "session.resume",
                &[
                    "resumeTime",
                    "selectedModel",
                    "reasoningEffort",
                    "alreadyInUse",
                    "remoteSteerable",
                ][..],
            ),
        ] {
            for name in names
                .iter()
                .copied()
                .chain(["hostType", "headCommit", "baseCommit"])
            {
                for v in values {
                    lines += 1;
                    let field = format!(r#""{name}":{v}"#);
                    let field = if ["hostType", "headCommit", "baseCommit"].contains(&name) {
                        format!(r#""context":{{"cwd":"/w",{field}}}"#)
                    } else {
                        field
                    };
                    let text = format!(r#"{{"type":"{kind}","data":{{"eventCount":1,{field}}}}}"#);
                    match (event(&text), crate::decode::serde_event(text.as_bytes())) {
                        (Some(ev), Ok(old)) => {
                            read += 1;
                            assert_eq!(format!("{ev:?}"), format!("{old:?}"), "{text}");
                        }
                        (Some(ev), Err(e)) => {
                            panic!("read {ev:?} where serde_json says {e}: {text}")
                        }
                        (None, _) => {}
                    }
                }
            }
        }
        // strings (and `null`) everywhere; true and 1 too where the field is a `Text`
        // (the flags and the resume's time); never an array or an object
        assert_eq!((read, lines), (60, 112));
    }

    /// `data_raw` gives the `data` serde_json gives, on every line it reads, and reads
    /// nearly every line of the fixtures and of their damaged copies that serde_json reads.
    #[test]
    fn data_raw_is_serde_json() {
        #[derive(serde::Deserialize)]
        struct Only<'a> {
            #[serde(borrow)]
            data: Option<&'a serde_json::value::RawValue>,
        }
        let mut lines: Vec<Vec<u8>> = [
            r#"{"type":"x","data":{"a": [1, 2]} }"#,
            r#" {"data" : null}"#,
            r#"{"type":"x"}"#,
            r#"{"data":1,"data":2}"#,
            r#"{"d\u0061ta":1}"#,
            r#"[{"a":1}]"#,
            r#"{"data":"s\u00e9"} x"#,
            r#"{"data":{"a":1e400,"b":-0}}"#,
            r#"{"other":{"x":"\ud800"},"data":3}"#,
        ]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect();
        lines.extend(damaged_lines());
        let (mut read, mut serde_read) = (0, 0);
        for line in &lines {
            let old = serde_json::from_slice::<Only<'_>>(line).map(|o| o.data.map(|r| r.get()));
            serde_read += usize::from(old.is_ok());
            let Ok(text) = std::str::from_utf8(line) else {
                continue;
            };
            match (data_raw(text), old) {
                (Some(d), Ok(old)) => {
                    read += 1;
                    assert_eq!(d, old, "{text}");
                }
                (Some(d), Err(e)) => panic!("read {d:?} where serde_json says {e}: {text}"),
                (None, _) => {}
            }
        }
        assert!(read * 10 > serde_read * 9, "{read} of {serde_read}");
    }

    /// Whether a line's `data` held a key its type does not read: `data`'s own
    /// bookkeeping ids (`events::BOOKKEEPING`) are not such keys, the same names
    /// deeper down are, and so is any other key at any depth; the envelope's own keys
    /// never are.
    #[test]
    fn unread_keys_but_bookkeeping() {
        let unread = |l: &str| with(l, |_, _, u| u);
        assert_eq!(
            unread(r#"{"type":"user.message","data":{"content":"a"},"parentId":"p"}"#),
            Some(false)
        );
        assert_eq!(
            unread(
                r#"{"type":"user.message","data":{"content":"a","interactionId":"i","supportedNativeDocumentMimeTypes":[],"chunkIndex":0}}"#
            ),
            Some(false)
        );
        assert_eq!(
            unread(r#"{"type":"assistant.turn_start","data":{"turnId":"0"}}"#),
            Some(false)
        );
        assert_eq!(
            unread(
                r#"{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"t","name":"bash","arguments":{},"type":"function"}]}}"#
            ),
            Some(false)
        );
        assert_eq!(
            unread(r#"{"type":"user.message","data":{"content":"a","transformedContent":"b"}}"#),
            Some(true)
        );
        assert_eq!(
            unread(
                r#"{"type":"tool.execution_complete","data":{"result":{"content":"a","messageId":"m"}}}"#
            ),
            Some(true)
        );
        assert_eq!(
            unread(
                r#"{"type":"tool.execution_complete","data":{"result":{"contents":[{"type":"terminal","cwd":"/w"}]}}}"#
            ),
            Some(true)
        );
        // the `data` handed on: as written, blanks around it left out
        assert_eq!(
            with(
                r#"{"type":"user.message","data": {"content":"a", "x":1} ,"id":"i"}"#,
                |_, d, u| (d.map(|d| (d.text.to_string(), d.at, d.long.len())), u)
            ),
            Some((Some((r#"{"content":"a", "x":1}"#.to_string(), 31, 0)), true))
        );
        // the long strings passed (read or skipped, escaped or not, in `data` or out
        // of it, a key of `data`'s; not one a byte short) and arrays passed whole: quote
        // to quote, bracket to bracket, in the line's offsets, in order
        let long = "y".repeat(LONG);
        let line = format!(
            r#"{{"id":"{long}","type":"user.message","data":{{"content":"{long}\n","x":["{long}"],"{long}":1,"z":"{}"}}}}"#,
            &long[1..]
        );
        let mut ev = Event::default();
        let spans = into(&line, &mut ev).map(|(_, _, l)| l);
        let at = |from: usize, needle: &str| from + line[from..].find(needle).unwrap_or(0);
        let content = at(0, r#""content":""#) + 10;
        let x = at(content, r#"["y"#) + 1;
        let key = at(x + LONG, &format!(r#""{long}":1"#));
        assert_eq!(
            spans,
            Some(vec![
                Span {
                    start: 6,
                    end: 6 + LONG + 2,
                    escaped: false
                },
                Span {
                    start: content,
                    end: content + LONG + 4,
                    escaped: true
                },
                Span {
                    start: x - 1,
                    end: x + LONG + 3,
                    escaped: false
                },
                Span {
                    start: x,
                    end: x + LONG + 2,
                    escaped: false
                },
                Span {
                    start: key,
                    end: key + LONG + 2,
                    escaped: false
                },
            ])
        );
        // a key with an escape: serde_json's to read
        assert_eq!(
            unread(r#"{"type":"assistant.turn_start","data":{"turn\u0049d":"0"}}"#),
            None
        );
    }
}
