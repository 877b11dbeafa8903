//! Writing a replayed state as JSON, as `JSON.stringify` would, fast.
//!
//! Why a hand-written writer: `examples/replay` (replay, then print the state) is the
//! project's headline benchmark against VS Code's reader and `JSON.stringify`, and the
//! state is most of the file again. Going through serde_json meant decoding every
//! escaped string ([`Node::Esc`]) into a new `String` and escaping it again, and parsing
//! every unparsed subtree ([`Node::Raw`]) into a tree of its own first, only to print it.
//! This writer instead:
//!
//! * copies an escaped string through as written wherever its escapes already are the
//!   ones `JSON.stringify` writes (`\"`, `\\`, `\n`, `\t`, `\r`, `\b`, `\f`, `\u00xx` for
//!   control characters): it finds that out 64 bytes at a time (SSE2 bit masks, as the
//!   parser's string scanner does) and rewrites only `\/` and the other `\u` escapes
//!   (a lone surrogate becomes U+FFFD, as everywhere in the crate);
//! * re-writes an unparsed subtree token by token straight from its text, checking it
//!   as it goes (a subtree with a duplicate key, which `JSON.parse` would collapse, or
//!   anything unexpected is handed to the tree path instead);
//! * writes into one buffer, handed to the output 64 KiB at a time.
//!
//! Its output equals serde_json's serialization of the same state ([`Node::to_value`]
//! order kept, numbers as JavaScript prints them); `tests/json_writer.rs` pins that on
//! every fixture log and on generated escape-dense and damaged inputs.

use std::collections::HashSet;
use std::io;

use super::json::{MAX_DEPTH, unescape};
use super::node::{Depth, Node, expand, js_number};

/// Bytes buffered before they are handed to the output.
const FLUSH_AT: usize = 64 << 10;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Writes `node` as compact JSON to `out` (see the module docs).
pub fn write_node(node: &Node<'_>, out: &mut dyn io::Write) -> io::Result<()> {
    let mut w = Writer {
        buf: Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 2)),
        out: Some(out),
        keys: Vec::new(),
    };
    w.node(node)?;
    w.flush()
}

/// Appends `node` as compact JSON to `out`.
pub fn append_node(node: &Node<'_>, out: &mut Vec<u8>) {
    let mut w = Writer {
        buf: std::mem::take(out),
        out: None,
        keys: Vec::new(),
    };
    // without an output nothing can fail
    let _ = w.node(node);
    *out = w.buf;
}

/// An unparsed subtree could not be re-written from its text (see [`Writer::raw`]).
struct Fallback;

struct Writer<'o> {
    buf: Vec<u8>,
    /// `None`: everything stays in `buf`.
    out: Option<&'o mut dyn io::Write>,
    /// The keys (spans of the raw text) of the objects being re-written from raw text,
    /// innermost last.
    keys: Vec<(usize, usize)>,
}

impl Writer<'_> {
    fn flush(&mut self) -> io::Result<()> {
        if let Some(out) = self.out.as_mut() {
            out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    #[inline]
    fn maybe_flush(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH_AT && self.out.is_some() {
            self.flush()?;
        }
        Ok(())
    }

    fn node(&mut self, node: &Node<'_>) -> io::Result<()> {
        match node {
            // a value too deep to read is written as `null` (see `Node::TooDeep`)
            Node::Undefined | Node::Null | Node::TooDeep { .. } => {
                self.buf.extend_from_slice(b"null")
            }
            Node::Bool(true) => self.buf.extend_from_slice(b"true"),
            Node::Bool(false) => self.buf.extend_from_slice(b"false"),
            Node::Num(n) => self.number(*n),
            Node::Str(s) => self.string(s.as_bytes()),
            Node::Esc(raw) => self.escaped(raw),
            Node::Arr(items) => {
                self.buf.push(b'[');
                for (i, s) in items.iter().enumerate() {
                    if i > 0 {
                        self.buf.push(b',');
                    }
                    self.node(&s.node)?;
                    self.maybe_flush()?;
                }
                self.buf.push(b']');
            }
            Node::Obj(fields) => {
                self.buf.push(b'{');
                let mut first = true;
                for (k, v) in fields {
                    if v.node.is_undefined() {
                        continue;
                    }
                    if !first {
                        self.buf.push(b',');
                    }
                    first = false;
                    self.string(k.as_bytes());
                    self.buf.push(b':');
                    self.node(&v.node)?;
                    self.maybe_flush()?;
                }
                self.buf.push(b'}');
            }
            Node::Raw(r) => self.raw_or_tree(r),
            Node::RawOwned(r) => self.raw_or_tree(r),
        }
        Ok(())
    }

    fn number(&mut self, n: f64) {
        // integers of up to 15 digits, the usual case (times, counts, indexes), without
        // float formatting
        if n.fract() == 0.0 && n.abs() < 1e15 {
            let mut digits = [0u8; 20];
            let mut at = digits.len();
            let mut v = n.abs() as u64;
            loop {
                at -= 1;
                digits[at] = b'0' + (v % 10) as u8;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            // -0 prints as 0
            if n < 0.0 {
                self.buf.push(b'-');
            }
            self.buf.extend_from_slice(&digits[at..]);
        } else {
            self.buf.extend_from_slice(js_number(n).as_bytes());
        }
    }

    /// A string that is text (no escapes yet): quoted, escaped as serde_json and
    /// `JSON.stringify` escape (`"`, `\`, control characters).
    fn string(&mut self, b: &[u8]) {
        self.buf.reserve(b.len() + 2);
        self.buf.push(b'"');
        let mut from = 0;
        while let Some(k) = find_unsafe(b, from) {
            self.buf.extend_from_slice(&b[from..k]);
            push_escaped_byte(&mut self.buf, b[k]);
            from = k + 1;
        }
        self.buf.extend_from_slice(&b[from..]);
        self.buf.push(b'"');
    }

    /// A string as written in JSON text (between its quotes), escapes not decoded:
    /// copied through where its escapes are canonical (see the module docs).
    fn escaped(&mut self, raw: &str) {
        let mark = self.buf.len();
        self.buf.reserve(raw.len() + 2);
        self.buf.push(b'"');
        let b = raw.as_bytes();
        match copy_escaped(&mut self.buf, b, 0, false) {
            Ok(_) => self.buf.push(b'"'),
            Err(Fallback) => {
                // not valid string contents (a node made by hand): as serde_json would
                // write its decoded text
                self.buf.truncate(mark);
                self.string(unescape(raw).as_bytes());
            }
        }
    }

    /// An unparsed subtree: re-written from its text, else parsed and written as a tree.
    fn raw_or_tree(&mut self, r: &str) {
        let mark = self.buf.len();
        let keys = self.keys.len();
        let b = r.as_bytes();
        let mut i = 0;
        let done = self
            .raw_value(b, &mut i, 0)
            .and_then(|()| match skip_ws(b, i) == b.len() {
                true => Ok(()),
                false => Err(Fallback),
            });
        self.keys.truncate(keys);
        if done.is_err() {
            self.buf.truncate(mark);
            let full = expand(r, 0, Depth::Full);
            // a parsed tree holds no raw subtree, and nothing is flushed without an
            // output to fail
            let out = self.out.take();
            let _ = self.node(&full);
            self.out = out;
        }
    }

    /// Re-writes the JSON value at `b[*i]` (whitespace first allowed), as parsing it
    /// then writing the tree would; `Fallback` where that is not sure (see the module
    /// docs). `nesting` counts the arrays and objects around it.
    fn raw_value<'k>(
        &mut self,
        b: &'k [u8],
        i: &mut usize,
        nesting: usize,
    ) -> Result<(), Fallback> {
        *i = skip_ws(b, *i);
        match b.get(*i) {
            Some(b'"') => {
                *i = self.raw_string(b, *i + 1)? + 1;
                Ok(())
            }
            Some(b'{') => {
                if nesting + 1 > MAX_DEPTH {
                    return Err(Fallback);
                }
                *i = skip_ws(b, *i + 1);
                self.buf.push(b'{');
                if b.get(*i) == Some(&b'}') {
                    *i += 1;
                    self.buf.push(b'}');
                    return Ok(());
                }
                let first_key = self.keys.len();
                let mut seen = 0u64;
                let mut index: Option<HashSet<&'k [u8]>> = None;
                loop {
                    *i = skip_ws(b, *i);
                    if b.get(*i) != Some(&b'"') {
                        return Err(Fallback);
                    }
                    let start = *i + 1;
                    let end = self.raw_string(b, start)?;
                    *i = end + 1;
                    let key = &b[start..end];
                    // a duplicate key: JSON.parse keeps its first position and last
                    // value, which the tree path does. Keys are compared as written,
                    // so one with an escape goes to the tree path too.
                    if key.contains(&b'\\') {
                        return Err(Fallback);
                    }
                    let bit = 1u64 << (key.len() & 63);
                    let dup = match &mut index {
                        Some(ix) => !ix.insert(key),
                        None if seen & bit == 0 => false,
                        None => self.keys[first_key..].iter().any(|&(s, e)| &b[s..e] == key),
                    };
                    if dup {
                        return Err(Fallback);
                    }
                    seen |= bit;
                    if index.is_none() {
                        self.keys.push((start, end));
                        if self.keys.len() - first_key > 32 {
                            index = Some(
                                self.keys
                                    .drain(first_key..)
                                    .map(|(s, e)| &b[s..e])
                                    .collect(),
                            );
                        }
                    }
                    *i = skip_ws(b, *i);
                    if b.get(*i) != Some(&b':') {
                        return Err(Fallback);
                    }
                    *i += 1;
                    self.buf.push(b':');
                    self.raw_value(b, i, nesting + 1)?;
                    *i = skip_ws(b, *i);
                    match b.get(*i) {
                        Some(b',') => {
                            *i += 1;
                            self.buf.push(b',');
                        }
                        Some(b'}') => {
                            *i += 1;
                            self.buf.push(b'}');
                            break;
                        }
                        _ => return Err(Fallback),
                    }
                }
                self.keys.truncate(first_key);
                Ok(())
            }
            Some(b'[') => {
                if nesting + 1 > MAX_DEPTH {
                    return Err(Fallback);
                }
                *i = skip_ws(b, *i + 1);
                self.buf.push(b'[');
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    self.buf.push(b']');
                    return Ok(());
                }
                loop {
                    self.raw_value(b, i, nesting + 1)?;
                    *i = skip_ws(b, *i);
                    match b.get(*i) {
                        Some(b',') => {
                            *i += 1;
                            self.buf.push(b',');
                        }
                        Some(b']') => {
                            *i += 1;
                            self.buf.push(b']');
                            return Ok(());
                        }
                        _ => return Err(Fallback),
                    }
                }
            }
            Some(b't') => self.literal(b, i, b"true"),
            Some(b'f') => self.literal(b, i, b"false"),
            Some(b'n') => self.literal(b, i, b"null"),
            Some(b'-' | b'0'..=b'9') => self.raw_number(b, i),
            _ => Err(Fallback),
        }
    }

    /// The string of raw text whose contents start at `b[from]`, quoted; returns the
    /// index of its closing quote. Short plain strings (keys, ids, kinds: most of them)
    /// are found byte by byte, which costs less than setting up a 64-byte block.
    #[inline]
    fn raw_string(&mut self, b: &[u8], from: usize) -> Result<usize, Fallback> {
        let near = b.len().min(from + 24);
        for (k, &c) in b[from..near].iter().enumerate() {
            match c {
                b'"' => {
                    self.buf.extend_from_slice(&b[from - 1..=from + k]);
                    return Ok(from + k);
                }
                b'\\' | 0..0x20 => break,
                _ => {}
            }
        }
        self.buf.push(b'"');
        let end = copy_escaped(&mut self.buf, b, from, true)?;
        self.buf.push(b'"');
        Ok(end)
    }

    fn literal(&mut self, b: &[u8], i: &mut usize, word: &[u8]) -> Result<(), Fallback> {
        if b.get(*i..*i + word.len()) != Some(word) {
            return Err(Fallback);
        }
        *i += word.len();
        self.buf.extend_from_slice(word);
        Ok(())
    }

    /// A number as JSON writes it, printed as JavaScript prints the double it reads as:
    /// an integer of up to 15 digits is copied through.
    fn raw_number(&mut self, b: &[u8], i: &mut usize) -> Result<(), Fallback> {
        let start = *i;
        let digits = |at: &mut usize| {
            let s = *at;
            while b.get(*at).is_some_and(u8::is_ascii_digit) {
                *at += 1;
            }
            *at - s
        };
        let mut at = start;
        let negative = b.get(at) == Some(&b'-');
        if negative {
            at += 1;
        }
        let int_start = at;
        match b.get(at) {
            Some(b'0') => at += 1,
            Some(b'1'..=b'9') => {
                digits(&mut at);
            }
            _ => return Err(Fallback),
        }
        let int_len = at - int_start;
        let mut plain = true;
        if b.get(at) == Some(&b'.') {
            at += 1;
            plain = false;
            if digits(&mut at) == 0 {
                return Err(Fallback);
            }
        }
        if matches!(b.get(at), Some(b'e' | b'E')) {
            at += 1;
            plain = false;
            if matches!(b.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            if digits(&mut at) == 0 {
                return Err(Fallback);
            }
        }
        *i = at;
        let text = &b[start..at];
        if plain && int_len <= 15 {
            if text == b"-0" {
                self.buf.push(b'0');
            } else {
                self.buf.extend_from_slice(text);
            }
            return Ok(());
        }
        // as the parser reads it (`json::P::number`), then as JavaScript prints it
        let n = std::str::from_utf8(text)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or(f64::NAN);
        self.buf.extend_from_slice(js_number(n).as_bytes());
        Ok(())
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    i
}

#[inline]
fn zero_byte(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The first byte at or after `from` that a JSON string must escape: `"`, `\` or a
/// control character.
#[inline]
fn find_unsafe(b: &[u8], mut from: usize) -> Option<usize> {
    while from + 8 <= b.len() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[from..from + 8]);
        let x = u64::from_le_bytes(w);
        // the lowest flagged byte is exact (a borrow only runs upwards from it)
        let hit = zero_byte(x ^ (ONES * u64::from(b'"')))
            | zero_byte(x ^ (ONES * u64::from(b'\\')))
            | (x.wrapping_sub(ONES * 0x20) & !x & HIGHS);
        if hit != 0 {
            return Some(from + (hit.trailing_zeros() / 8) as usize);
        }
        from += 8;
    }
    b[from..]
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .map(|p| from + p)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// A character's escape, as serde_json and `JSON.stringify` write it.
#[inline]
fn push_escaped_byte(out: &mut Vec<u8>, c: u8) {
    match c {
        b'"' => out.extend_from_slice(b"\\\""),
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\t' => out.extend_from_slice(b"\\t"),
        b'\r' => out.extend_from_slice(b"\\r"),
        8 => out.extend_from_slice(b"\\b"),
        12 => out.extend_from_slice(b"\\f"),
        c => out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(c >> 4)],
            HEX[usize::from(c & 15)],
        ]),
    }
}

fn hex4(h: &[u8]) -> Option<u32> {
    if h.len() != 4 {
        return None;
    }
    h.iter()
        .try_fold(0u32, |a, c| (*c as char).to_digit(16).map(|d| a * 16 + d))
}

/// Writes the `\u` escape at `b[at]` (its backslash) decoded, as the crate decodes it
/// (a surrogate pair as its character, a lone surrogate as U+FFFD), then escaped as
/// serde_json escapes text; returns where the escape ends.
fn rewrite_u_escape(out: &mut Vec<u8>, b: &[u8], at: usize) -> Result<usize, Fallback> {
    let cp = b.get(at + 2..at + 6).and_then(hex4).ok_or(Fallback)?;
    let mut end = at + 6;
    let mut c = char::from_u32(cp);
    if (0xD800..0xDC00).contains(&cp) && b.get(end) == Some(&b'\\') && b.get(end + 1) == Some(&b'u')
    {
        // the low half must read as hex, or the decoders could differ on it
        let lo = b.get(end + 2..end + 6).and_then(hex4).ok_or(Fallback)?;
        if (0xDC00..0xE000).contains(&lo) {
            c = char::from_u32(0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
            end += 6;
        }
    }
    let c = c.unwrap_or('\u{fffd}');
    if (c as u32) < 0x80 {
        let c = c as u8;
        if c == b'"' || c == b'\\' || c < 0x20 {
            push_escaped_byte(out, c);
        } else {
            out.push(c);
        }
    } else {
        let mut utf8 = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    }
    Ok(end)
}

/// Copies the contents of an escaped JSON string from `b[from]` to `out`, rewriting
/// what `JSON.stringify` would write otherwise (`\/`, `\u` escapes). With
/// `until_quote` the string ends at its closing quote, whose index is returned;
/// otherwise it is all of `b` (then an unescaped quote is an error). `Fallback` for
/// anything that is not valid string contents.
fn copy_escaped(
    out: &mut Vec<u8>,
    b: &[u8],
    from: usize,
    until_quote: bool,
) -> Result<usize, Fallback> {
    #[cfg(target_arch = "x86_64")]
    {
        block::copy_escaped(out, b, from, until_quote)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        copy_escaped_bytes(out, b, from, until_quote)
    }
}

/// [`copy_escaped`] a byte at a time (other architectures, and the tests' reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn copy_escaped_bytes(
    out: &mut Vec<u8>,
    b: &[u8],
    from: usize,
    until_quote: bool,
) -> Result<usize, Fallback> {
    let mut i = from;
    let mut run = from;
    loop {
        let Some(&c) = b.get(i) else {
            if until_quote {
                return Err(Fallback);
            }
            out.extend_from_slice(&b[run..]);
            return Ok(b.len());
        };
        match c {
            b'"' if until_quote => {
                out.extend_from_slice(&b[run..i]);
                return Ok(i);
            }
            b'"' => return Err(Fallback),
            c if c < 0x20 => return Err(Fallback),
            b'\\' => match b.get(i + 1) {
                Some(b'"' | b'\\' | b'n' | b't' | b'r' | b'b' | b'f') => i += 2,
                Some(b'/') => {
                    out.extend_from_slice(&b[run..i]);
                    out.push(b'/');
                    i += 2;
                    run = i;
                }
                Some(b'u') => {
                    out.extend_from_slice(&b[run..i]);
                    i = rewrite_u_escape(out, b, i)?;
                    run = i;
                }
                _ => return Err(Fallback),
            },
            _ => i += 1,
        }
    }
}

/// [`copy_escaped`] 64 bytes at a time with SSE2 bit masks: a block whose escapes are
/// all canonical and that holds no quote or control character is copied whole.
#[cfg(target_arch = "x86_64")]
mod block {
    use safe_arch::{
        cmp_eq_mask_i8_m128i, load_unaligned_m128i, max_u8_m128i, move_mask_i8_m128i,
        set_splat_i8_m128i,
    };

    use super::{Fallback, rewrite_u_escape};

    /// Bit masks of one block (bit k stands for byte k).
    struct Masks {
        quotes: u64,
        backslashes: u64,
        n: u64,
        control: u64,
    }

    #[inline(always)]
    fn masks(block: &[u8; 64]) -> Masks {
        let quote = set_splat_i8_m128i(b'"' as i8);
        let backslash = set_splat_i8_m128i(b'\\' as i8);
        let newline = set_splat_i8_m128i(b'n' as i8);
        let top_control = set_splat_i8_m128i(0x1f);
        let mut m = Masks {
            quotes: 0,
            backslashes: 0,
            n: 0,
            control: 0,
        };
        for (k, chunk) in block.chunks_exact(16).enumerate() {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(chunk);
            let x = load_unaligned_m128i(&bytes);
            let bit = |v: i32| u64::from(v as u16) << (k * 16);
            m.quotes |= bit(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(x, quote)));
            m.backslashes |= bit(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(x, backslash)));
            m.n |= bit(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(x, newline)));
            m.control |= bit(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(
                max_u8_m128i(x, top_control),
                top_control,
            )));
        }
        m
    }

    /// The bytes a backslash escapes, in a block whose first byte is not escaped (odd
    /// runs of backslashes, by carry arithmetic as in the parser's scanner).
    #[inline(always)]
    fn escaped(backslashes: u64) -> u64 {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        let follows = backslashes << 1;
        let odd_starts = backslashes & !EVEN & !follows;
        let even_runs = odd_starts.wrapping_add(backslashes);
        (EVEN ^ (even_runs << 1)) & follows
    }

    pub(super) fn copy_escaped(
        out: &mut Vec<u8>,
        b: &[u8],
        from: usize,
        until_quote: bool,
    ) -> Result<usize, Fallback> {
        // `pos`: the block's start, never an escaped byte; `run`: the first byte not
        // copied yet
        let mut pos = from;
        let mut run = from;
        loop {
            let valid = b.len().saturating_sub(pos).min(64);
            let padded: [u8; 64];
            let block: &[u8; 64] = match b.get(pos..pos + 64).and_then(|s| s.try_into().ok()) {
                Some(full) => full,
                None => {
                    // the last bytes, padded with plain ones
                    let mut p = [b'a'; 64];
                    p[..valid].copy_from_slice(&b[pos..pos + valid]);
                    padded = p;
                    &padded
                }
            };
            let live = if valid == 64 {
                u64::MAX
            } else {
                (1u64 << valid) - 1
            };
            let m = masks(block);
            let escaped = escaped(m.backslashes);
            if escaped & !live != 0 {
                // a backslash at the very end: the contents are cut
                return Err(Fallback);
            }
            let stop = ((m.quotes & !escaped) | m.control) & live;
            let before = if stop == 0 {
                live
            } else {
                (1u64 << stop.trailing_zeros()) - 1
            };
            // escapes other than the common \" \\ \n: canonical (\b \f \r \t), to be
            // rewritten (\/ \u), or invalid
            let mut rare = escaped & !(m.quotes | m.backslashes | m.n) & before;
            let mut rewritten = false;
            while rare != 0 {
                let k = rare.trailing_zeros() as usize;
                rare &= rare - 1;
                match block[k] {
                    b'b' | b'f' | b'r' | b't' => {}
                    b'/' => {
                        out.extend_from_slice(&b[run..pos + k - 1]);
                        out.push(b'/');
                        pos += k + 1;
                        rewritten = true;
                        break;
                    }
                    b'u' => {
                        out.extend_from_slice(&b[run..pos + k - 1]);
                        pos = rewrite_u_escape(out, b, pos + k - 1)?;
                        rewritten = true;
                        break;
                    }
                    _ => return Err(Fallback),
                }
            }
            if rewritten {
                run = pos;
                continue;
            }
            if stop != 0 {
                let k = stop.trailing_zeros() as usize;
                if until_quote && m.quotes & (1 << k) != 0 {
                    out.extend_from_slice(&b[run..pos + k]);
                    return Ok(pos + k);
                }
                // a control character, or a quote inside a string's contents
                return Err(Fallback);
            }
            if valid < 64 {
                if until_quote {
                    return Err(Fallback);
                }
                out.extend_from_slice(&b[run..]);
                return Ok(b.len());
            }
            // a backslash that ends the block starts an escape: the next block starts
            // with it, so that its first byte is never escaped
            let carry = m.backslashes >> 63 == 1 && escaped >> 63 == 0;
            pos += if carry { 63 } else { 64 };
        }
    }
}
