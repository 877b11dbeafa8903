//! JSON decoding that reads what JavaScript wrote.
//!
//! JavaScript strings are UTF-16 and may hold a lone surrogate: a string cut in the
//! middle of an emoji, for example. `JSON.stringify` writes it as `\udXXX`, which
//! serde_json rightly refuses, so a strict reader would call a perfectly ordinary VS Code
//! or Cody line broken. [`repair_lone_surrogates`] rewrites each lone surrogate escape to
//! `\ufffd` (U+FFFD, the replacement character) and leaves everything else, including
//! valid surrogate pairs and escaped backslashes, untouched. Every crate decodes
//! JavaScript-written JSON through [`from_slice`] or [`with_repaired`], the one path.

use std::borrow::Cow;

use serde::de::DeserializeOwned;

/// Returns the input with every lone `\uD800`-`\uDFFF` escape replaced by `\ufffd`.
/// Borrows when nothing needs changing (the common case, found with one memchr pass).
pub fn repair_lone_surrogates(input: &[u8]) -> Cow<'_, [u8]> {
    if !might_have_surrogate_escape(input) {
        return Cow::Borrowed(input);
    }
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    let mut copied = 0; // bytes of input already copied to `out`
    while let Some(rel) = memchr::memchr(b'\\', &input[i..]) {
        let at = i + rel;
        let Some(&next) = input.get(at + 1) else {
            break;
        };
        if next != b'u' {
            i = at + 2; // skip any two-char escape, including `\\`
            continue;
        }
        let Some(cp) = hex4(input.get(at + 2..at + 6)) else {
            i = at + 2;
            continue;
        };
        if (0xD800..0xDC00).contains(&cp) {
            // high surrogate: valid only when a low surrogate escape follows
            let low = if input.get(at + 6) == Some(&b'\\') && input.get(at + 7) == Some(&b'u') {
                hex4(input.get(at + 8..at + 12))
            } else {
                None
            };
            if matches!(low, Some(l) if (0xDC00..0xE000).contains(&l)) {
                i = at + 12;
                continue;
            }
        } else if !(0xDC00..0xE000).contains(&cp) {
            i = at + 6;
            continue;
        }
        // lone surrogate at `at..at+6`
        let buf = out.get_or_insert_with(|| Vec::with_capacity(input.len()));
        buf.extend_from_slice(&input[copied..at]);
        buf.extend_from_slice(b"\\ufffd");
        copied = at + 6;
        i = at + 6;
    }
    match out {
        None => Cow::Borrowed(input),
        Some(mut buf) => {
            buf.extend_from_slice(&input[copied..]);
            Cow::Owned(buf)
        }
    }
}

fn might_have_surrogate_escape(input: &[u8]) -> bool {
    memchr::memmem::find_iter(input, b"\\u")
        .any(|at| matches!(input.get(at + 2), Some(b'd' | b'D')))
}

fn hex4(bytes: Option<&[u8]>) -> Option<u32> {
    let bytes = bytes?;
    if bytes.len() != 4 {
        return None;
    }
    let mut v = 0u32;
    for &b in bytes {
        v = v * 16 + (b as char).to_digit(16)?;
    }
    Some(v)
}

/// Calls `f` on the input with lone surrogates repaired (see the module docs).
/// Use it when the decoded value must borrow from the bytes.
pub fn with_repaired<R>(input: &[u8], f: impl FnOnce(&[u8]) -> R) -> R {
    match repair_lone_surrogates(input) {
        Cow::Borrowed(b) => f(b),
        Cow::Owned(v) => f(&v),
    }
}

/// Decodes JSON written by JavaScript: lone surrogates become U+FFFD.
pub fn from_slice<T: DeserializeOwned>(input: &[u8]) -> Result<T, serde_json::Error> {
    with_repaired(input, |b| serde_json::from_slice(b))
}

/// Decodes JSON text written by JavaScript: lone surrogates become U+FFFD.
pub fn from_str<T: DeserializeOwned>(input: &str) -> Result<T, serde_json::Error> {
    from_slice(input.as_bytes())
}

/// How deep [`from_slice_capped`] reads: an array or object that begins deeper than this
/// many levels (the document itself is level 1) is replaced by `null`. serde_json stops
/// at 128 levels (its default recursion limit, which keeps its recursion on the stack);
/// `JSON.parse`, the reader of VS Code and every JavaScript writer, has no limit.
pub const CAPPED_DEPTH: usize = 120;

/// Where [`from_slice_capped`] replaced values nested too deep by `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthCut {
    /// Byte offset, in the input, of the first replaced value's opening bracket.
    pub first: usize,
    /// How many values were replaced (none inside another: a replaced value is
    /// replaced whole).
    pub count: usize,
}

/// [`from_slice`] that also reads a document nested deeper than serde_json's limit:
/// when, and only when, serde_json fails with its recursion limit, every array or
/// object that begins deeper than [`CAPPED_DEPTH`] levels is replaced by `null` and
/// the copy is decoded; the value comes with where that happened, which the caller
/// must report (a `parser:` row), since those parts were not read.
///
/// The copy is made by one iterative pass over the bytes (no recursion, a byte per open
/// level, linear in the input however deep it nests), which validates the whole
/// document as `JSON.parse` would (strings, escapes, numbers, literals, brackets,
/// UTF-8 in what is replaced), so a replaced part was valid JSON that `JSON.parse`
/// reads. A document that is not valid JSON, or whose copy does not decode as `T` (a
/// type that refuses `null` where a replaced value stood), keeps serde_json's original
/// error. Offsets are those of `input` (repairing a lone surrogate keeps every length).
pub fn from_slice_capped<T: DeserializeOwned>(
    input: &[u8],
) -> Result<(T, Option<DepthCut>), serde_json::Error> {
    with_repaired(input, |b| match serde_json::from_slice(b) {
        Ok(v) => Ok((v, None)),
        Err(e) if is_recursion_limit(&e) => match cap_depth(b, CAPPED_DEPTH) {
            Some((copy, cut)) => match serde_json::from_slice(&copy) {
                Ok(v) => Ok((v, Some(cut))),
                Err(_) => Err(e),
            },
            None => Err(e),
        },
        Err(e) => Err(e),
    })
}

/// [`from_slice_capped`] on text.
pub fn from_str_capped<T: DeserializeOwned>(
    input: &str,
) -> Result<(T, Option<DepthCut>), serde_json::Error> {
    from_slice_capped(input.as_bytes())
}

/// True for serde_json's "recursion limit exceeded" error (its error codes are private;
/// its message is stable and pinned by a test).
fn is_recursion_limit(e: &serde_json::Error) -> bool {
    e.is_syntax() && e.to_string().starts_with("recursion limit exceeded")
}

/// A copy of the JSON document `b` in which every array or object that begins deeper
/// than `max` levels is replaced by `null`, and where; `None` when `b` is not exactly
/// one valid JSON value (surrounding whitespace allowed) or nothing was replaced. One
/// pass, no recursion: an explicit stack of the open arrays and objects.
fn cap_depth(b: &[u8], max: usize) -> Option<(Vec<u8>, DepthCut)> {
    let mut s = Scan { b, i: 0 };
    let mut open: Vec<bool> = Vec::new(); // true: an object
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut copied = 0; // bytes of `b` already copied to `out`
    // the stack height at which the value being replaced was opened, and its start
    let mut cutting: Option<(usize, usize)> = None;
    let mut cut: Option<DepthCut> = None;
    'value: loop {
        s.ws();
        match s.peek()? {
            c @ (b'{' | b'[') => {
                if cutting.is_none() && open.len() >= max {
                    out.extend_from_slice(b.get(copied..s.i)?);
                    out.extend_from_slice(b"null");
                    cutting = Some((open.len(), s.i));
                    let seen = cut.get_or_insert(DepthCut {
                        first: s.i,
                        count: 0,
                    });
                    seen.count += 1;
                }
                s.i += 1;
                s.ws();
                let object = c == b'{';
                if s.peek() == Some(if object { b'}' } else { b']' }) {
                    s.i += 1;
                } else {
                    open.push(object);
                    if object {
                        s.member_key()?;
                    }
                    continue 'value;
                }
            }
            b'"' => s.string()?,
            b't' => s.literal(b"true")?,
            b'f' => s.literal(b"false")?,
            b'n' => s.literal(b"null")?,
            b'-' | b'0'..=b'9' => s.number()?,
            _ => return None,
        }
        // after a value: close what it ends, or go on to the next one
        loop {
            if let Some((height, from)) = cutting {
                if open.len() == height {
                    // the replaced value ended: its strings were checked byte by byte,
                    // its UTF-8 here (serde_json checks the rest, in the copy)
                    std::str::from_utf8(b.get(from..s.i)?).ok()?;
                    copied = s.i;
                    cutting = None;
                }
            }
            let Some(&object) = open.last() else {
                break 'value;
            };
            s.ws();
            match s.peek()? {
                b',' => {
                    s.i += 1;
                    if object {
                        s.member_key()?;
                    }
                    continue 'value;
                }
                b'}' if object => {}
                b']' if !object => {}
                _ => return None,
            }
            s.i += 1;
            open.pop();
        }
    }
    s.ws();
    if s.i != b.len() {
        return None;
    }
    out.extend_from_slice(b.get(copied..)?);
    Some((out, cut?))
}

/// The cursor of [`cap_depth`]: each method validates one token, as JSON's grammar
/// (RFC 8259) has it, and returns `None` where the text is not JSON.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i.checked_add(word.len())?;
        (self.b.get(self.i..end)? == word).then_some(())?;
        self.i = end;
        Some(())
    }

    fn digits(&mut self) -> Option<()> {
        let from = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        (self.i > from).then_some(())
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        if self.peek() == Some(b'0') {
            self.i += 1;
        } else {
            self.digits()?;
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            self.digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            self.digits()?;
        }
        Some(())
    }

    /// A string at its opening quote: no control character, only JSON's escapes.
    fn string(&mut self) -> Option<()> {
        self.i += 1;
        loop {
            let rel = memchr::memchr2(b'"', b'\\', self.b.get(self.i..)?)?;
            let end = self.i + rel;
            if self.b.get(self.i..end)?.iter().any(|&c| c < 0x20) {
                return None;
            }
            self.i = end + 1;
            if self.b.get(end) == Some(&b'"') {
                return Some(());
            }
            match self.peek()? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 1,
                b'u' => {
                    let hex = self.b.get(self.i + 1..self.i + 5)?;
                    hex.iter().all(u8::is_ascii_hexdigit).then_some(())?;
                    self.i += 5;
                }
                _ => return None,
            }
        }
    }

    /// An object member's key and its colon.
    fn member_key(&mut self) -> Option<()> {
        self.ws();
        (self.peek()? == b'"').then_some(())?;
        self.string()?;
        self.ws();
        (self.peek()? == b':').then_some(())?;
        self.i += 1;
        Some(())
    }
}

/// The number of values (scalars, arrays and objects, each counted once) of one JSON
/// document, validated as serde_json validates it, without building it: what a tree of
/// it would cost is about 32 bytes and more per value, so a reader can refuse a line of
/// millions of small values before it becomes gigabytes (see
/// [`crate::lines::decode_line`]).
pub fn value_count(input: &[u8]) -> Result<u64, serde_json::Error> {
    use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
    struct Count<'n>(&'n mut u64);
    impl<'de> DeserializeSeed<'de> for Count<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Count<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            *self.0 += 1;
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            *self.0 += 1;
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            *self.0 += 1;
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            *self.0 += 1;
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            *self.0 += 1;
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            *self.0 += 1;
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            *self.0 += 1;
            while seq.next_element_seed(Count(&mut *self.0))?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            *self.0 += 1;
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(Count(&mut *self.0))?;
            }
            Ok(())
        }
    }
    let mut n = 0u64;
    let mut de = serde_json::Deserializer::from_slice(input);
    Count(&mut n).deserialize(&mut de)?;
    de.end()?;
    Ok(n)
}

/// A short reason for a JSON error, as the `parser:` rows quote it
/// (serde_json's message already says the line and column).
pub fn reason(err: &serde_json::Error) -> String {
    err.to_string()
}

/// Removes the whitespace outside strings of a JSON text: compact JSON with the keys in
/// the file's order and every string as written (serde_json's `Value` would sort the
/// keys, the workspace does not turn on its `preserve_order`, and printing a `Value`
/// rewrites escapes). Linear in the input. Used wherever a row shows a JSON value as the
/// writer wrote it (a grant's `{label, arguments}`, an event's data).
pub fn compact(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    compact_into(&mut out, raw);
    out
}

/// [`compact`] appended to `out` (a reader's reused buffer).
pub fn compact_into(out: &mut String, raw: &str) {
    // bytes, copied in runs between the blanks dropped (a push per character cost
    // a hundredth of the reader); text with a non-ASCII character outside a string
    // (not JSON) goes to the character loop, which drops Unicode blanks there too
    let b = raw.as_bytes();
    let from = out.len();
    let mut in_string = false;
    let mut escaped = false;
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
        } else if matches!(c, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ') {
            // `i` is an ASCII byte: a character boundary
            out.push_str(raw.get(start..i).unwrap_or_default());
            start = i + 1;
        } else if c >= 0x80 {
            out.truncate(from);
            out.push_str(&compact_chars(raw));
            return;
        }
    }
    out.push_str(raw.get(start..).unwrap_or_default());
}

/// [`compact`] a character at a time.
fn compact_chars(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut in_string = false;
    let mut escaped = false;
    for ch in raw.chars() {
        if in_string {
            out.push(ch);
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
            }
        } else if ch == '"' {
            in_string = true;
            out.push(ch);
        } else if !ch.is_whitespace() {
            out.push(ch);
        }
    }
    out
}

/// The entries of a JSON object in the file's order, each value as its raw text (for
/// [`compact`]): `None` when `text` is not a JSON object. A key written twice is given
/// twice, as written.
pub fn object_entries(text: &str) -> Option<Vec<(String, &serde_json::value::RawValue)>> {
    use serde::de::{Deserializer, MapAccess, Visitor};
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(String, &'de serde_json::value::RawValue)>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(entry) = map.next_entry::<String, &'de serde_json::value::RawValue>()? {
                out.push(entry);
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let entries = (&mut de).deserialize_map(Entries).ok()?;
    de.end().ok()?;
    Some(entries)
}

/// One step of a path into a JSON text: a member of an object, or an element of an
/// array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'k> {
    /// The member of that name (of a name written twice, the last, as in a `Value`).
    Key(&'k str),
    /// The element at that position.
    Index(usize),
}

/// The value at `path` in the JSON text `text`, as its raw text (for [`compact`]):
/// the value as the writer wrote it, its keys in the writer's order, its escapes and
/// numbers untouched, where printing a decoded `Value` would sort the keys, rewrite the
/// escapes and round a number past `f64`. `None` when `text` is not one JSON value or
/// holds nothing at `path`. One pass over `text` that skips what is off the path;
/// nothing is copied.
pub fn raw_at<'a>(text: &'a [u8], path: &[Step<'_>]) -> Option<&'a serde_json::value::RawValue> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_slice(text);
    let found = At { path }.deserialize(&mut de).ok()?;
    de.end().ok()?;
    found
}

/// The seed of [`raw_at`]: what lies at `path` in the value it is given.
struct At<'p, 'k> {
    path: &'p [Step<'k>],
}

impl<'de> serde::de::DeserializeSeed<'de> for At<'_, '_> {
    type Value = Option<&'de serde_json::value::RawValue>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        use serde::Deserialize;
        if self.path.is_empty() {
            return <&serde_json::value::RawValue>::deserialize(d).map(Some);
        }
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for At<'_, '_> {
    type Value = Option<&'de serde_json::value::RawValue>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let (want, rest) = match self.path.split_first() {
            Some((Step::Key(k), rest)) => (Some(*k), rest),
            _ => (None, self.path),
        };
        let mut found = None;
        while let Some(hit) = map.next_key_seed(KeyIs(want))? {
            if hit {
                // the last of a name written twice counts, as in a decoded `Value`
                found = map.next_value_seed(At { path: rest })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let (want, rest) = match self.path.split_first() {
            Some((Step::Index(i), rest)) => (Some(*i), rest),
            _ => (None, self.path),
        };
        let mut found = None;
        let mut i = 0usize;
        loop {
            if want == Some(i) {
                match seq.next_element_seed(At { path: rest })? {
                    Some(v) => found = v,
                    None => break,
                }
            } else if seq.next_element::<IgnoredAny>()?.is_none() {
                break;
            }
            i = i.saturating_add(1);
        }
        Ok(found)
    }

    // a scalar where the path goes on holds nothing there
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// A key's seed for [`At`]: whether the key is the one wanted, without copying it.
struct KeyIs<'k>(Option<&'k str>);

impl<'de> serde::de::DeserializeSeed<'de> for KeyIs<'_> {
    type Value = bool;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeyIs<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, k: &str) -> Result<bool, E> {
        Ok(self.0 == Some(k))
    }
}

/// The raw text of the value at `path` in a JavaScript-written line, compacted as
/// written ([`raw_at`] then [`compact`]); a lone surrogate reads as `\ufffd`, as
/// [`from_slice`] reads it. `None` where [`raw_at`] finds nothing.
pub fn compact_at(text: &[u8], path: &[Step<'_>]) -> Option<String> {
    with_repaired(text, |b| raw_at(b, path).map(|r| compact(r.get())))
}

/// The JSON object `text` compacted as written ([`compact`]), without the members whose
/// names `skip` picks: the rest in the writer's order, each value as written (a name
/// written twice once, with its last value, as in a decoded `Value`, at its last place).
/// `None` when `text` is not a JSON object. A lone surrogate reads as `\ufffd`.
pub fn compact_object_without(text: &[u8], skip: impl Fn(&str) -> bool) -> Option<String> {
    with_repaired(text, |b| {
        let entries = object_entries(std::str::from_utf8(b).ok()?)?;
        let mut last: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (i, (k, _)) in entries.iter().enumerate() {
            last.insert(k, i);
        }
        let mut out = String::from("{");
        for (i, (k, v)) in entries.iter().enumerate() {
            if skip(k) || last.get(k.as_str()) != Some(&i) {
                continue;
            }
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&serde_json::to_string(k).unwrap_or_default());
            out.push(':');
            compact_into(&mut out, v.get());
        }
        out.push('}');
        Some(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn an_object_without_some_members_as_written() {
        let text = br#"{"type":"system","z":{"b":1, "a":"\u00e9"},"uuid":"u","m":[1, 2],"z":3,"s":"\ud83d"}"#;
        assert_eq!(
            compact_object_without(text, |k| k == "type" || k == "uuid").as_deref(),
            Some(r#"{"m":[1,2],"z":3,"s":"\ufffd"}"#)
        );
        assert_eq!(
            compact_object_without(br#"{"z":{"b":1,"a":2}}"#, |_| false).as_deref(),
            Some(r#"{"z":{"b":1,"a":2}}"#)
        );
        assert_eq!(
            compact_object_without(b"{}", |_| false).as_deref(),
            Some("{}")
        );
        assert_eq!(compact_object_without(b"[1]", |_| false), None);
        assert_eq!(compact_object_without(b"{\"a\":", |_| false), None);
    }

    #[test]
    fn raw_at_finds_the_value_as_written() {
        let line = br#"{"message":{"content":[{"type":"text","text":"hi"},
            {"type":"tool_use","id":"t1","input":{"file_path":"/a","old_string":"x\u00e9",
             "new_string":"y", "n": 12345678901234567890123}}]},
          "wireToolInputs":{"t1":{"z":1,"a":[1, 2]}},"dup":1,"dup":{"k":"last"}}"#;
        use Step::{Index as I, Key as K};
        let at = |path: &[Step<'_>]| compact_at(line, path);
        assert_eq!(
            at(&[K("message"), K("content"), I(1), K("input")]).as_deref(),
            Some(
                r#"{"file_path":"/a","old_string":"x\u00e9","new_string":"y","n":12345678901234567890123}"#
            )
        );
        assert_eq!(
            at(&[K("wireToolInputs"), K("t1")]).as_deref(),
            Some(r#"{"z":1,"a":[1,2]}"#)
        );
        assert_eq!(at(&[K("dup")]).as_deref(), Some(r#"{"k":"last"}"#));
        assert_eq!(
            at(&[K("message"), K("content"), I(0), K("text")]).as_deref(),
            Some(r#""hi""#)
        );
        // nothing there: a missing key, an index past the end, a path through a scalar
        assert_eq!(at(&[K("nope")]), None);
        assert_eq!(at(&[K("message"), K("content"), I(2)]), None);
        assert_eq!(at(&[K("dup"), K("k"), K("deeper")]), None);
        assert_eq!(at(&[K("message"), I(0)]), None);
        // the whole text, and text that is not one JSON value
        assert_eq!(
            compact_at(b" [1, {\"a\" : 2}] ", &[]).as_deref(),
            Some(r#"[1,{"a":2}]"#)
        );
        assert!(raw_at(br#"{"a":1} x"#, &[K("a")]).is_none());
        assert!(raw_at(br#"{"a":"#, &[K("a")]).is_none());
        // a lone surrogate is read as the decoders read it
        assert_eq!(
            compact_at(br#"{"t":"cut \ud83d"}"#, &[K("t")]).as_deref(),
            Some(r#""cut \ufffd""#)
        );
    }

    #[test]
    fn object_entries_keep_the_file_order_and_the_raw_values() {
        let text = r#" {"z": {"label": "Create issue", "arguments": "{\"repo\":\"x\"}"},
                       "a": true, "z": "\u00e9"} "#;
        let got: Vec<(String, String)> = object_entries(text)
            .unwrap()
            .into_iter()
            .map(|(k, v)| (k, compact(v.get())))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "z".to_string(),
                    r#"{"label":"Create issue","arguments":"{\"repo\":\"x\"}"}"#.to_string()
                ),
                ("a".to_string(), "true".to_string()),
                ("z".to_string(), r#""\u00e9""#.to_string()),
            ]
        );
        assert!(object_entries("[1]").is_none());
        assert!(object_entries(r#"{"a":1} x"#).is_none());
        assert!(object_entries(r#"{"a":"#).is_none());
    }

    #[test]
    fn lone_high_and_low_surrogates_become_replacement() {
        let v: Value = from_str(r#"{"t":"cut \ud83d","u":"\ude00 end"}"#).unwrap();
        assert_eq!(v["t"], "cut \u{fffd}");
        assert_eq!(v["u"], "\u{fffd} end");
        // serde_json alone refuses it
        assert!(serde_json::from_str::<Value>(r#"{"t":"cut \ud83d"}"#).is_err());
    }

    #[test]
    fn valid_pairs_and_escaped_backslashes_are_untouched() {
        let v: Value = from_str(r#"{"t":"\ud83d\ude00","p":"C:\\ud800"}"#).unwrap();
        assert_eq!(v["t"], "😀");
        assert_eq!(v["p"], "C:\\ud800");
        assert!(matches!(
            repair_lone_surrogates(br#""C:\\ud800""#),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            repair_lone_surrogates(br#""plain""#),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn high_followed_by_high_and_at_end() {
        let v: Value = from_str(r#"["\ud83d\ud83d\ude00", "\uD800"]"#).unwrap();
        assert_eq!(v[0], "\u{fffd}😀");
        assert_eq!(v[1], "\u{fffd}");
        // a cut escape is left for serde_json to report
        assert!(from_str::<Value>(r#"["\ud8"#).is_err());
    }

    /// The byte loop gives what the character loop gives, on JSON and on text that is
    /// not (blanks of every kind inside and outside strings, escapes, non-ASCII).
    #[test]
    fn compact_bytes_is_compact_chars() {
        let pieces = [
            "{", "}", "[", "]", ":", ",", "\"", "\\", "\\\"", " ", "\t", "\n", "\r", "\u{b}",
            "\u{c}", "\u{1c}", "\u{85}", "\u{a0}", "\u{2028}", "\u{3000}", "a", "1", "é", "😀",
            "null", "\\u0022",
        ];
        let mut n = 0u64;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in ["", " ", "\"", "x\u{a0}"] {
                        n += 1;
                        let text = format!("{a}{b}{c}{d}{a}{c}");
                        assert_eq!(compact(&text), compact_chars(&text), "{text:?}");
                    }
                }
            }
        }
        assert_eq!(n, 26 * 26 * 26 * 4);
    }

    #[test]
    fn compact_keeps_order_and_strings() {
        assert_eq!(
            compact("{ \"b\": 1, \"a\" : \"x y\\\" z\" }"),
            "{\"b\":1,\"a\":\"x y\\\" z\"}"
        );
    }

    /// The limit [`from_slice_capped`] works around, and the message it recognises.
    #[test]
    fn serde_json_stops_at_128_levels_with_the_message_matched() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(serde_json::from_str::<Value>(&deep(127)).is_ok());
        let e = serde_json::from_str::<Value>(&deep(128)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "recursion limit exceeded at line 1 column 128"
        );
        assert!(is_recursion_limit(&e));
        let e = serde_json::from_str::<Value>("[1,]").unwrap_err();
        assert!(!is_recursion_limit(&e));
        // what serde_json reads is never copied, however close to its limit
        assert_eq!(
            from_str_capped::<Value>(&deep(127)).unwrap(),
            (serde_json::from_str::<Value>(&deep(127)).unwrap(), None)
        );
    }

    /// Arrays and objects that begin deeper than the cap become `null`, the rest is
    /// read, and the cut says where the first one began and how many there were.
    #[test]
    fn values_deeper_than_the_cap_become_null_and_are_noted() {
        let arrays = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
        let objects = |n: usize| format!("{}0{}", "{\"a\":".repeat(n), "}".repeat(n));
        // the document is level 1; `d` holds levels 2 to 120 (read) and 121 on (not)
        let doc = format!(
            "{{\"x\":\"\\ud83d [\",\"d\":{},\"o\":{},\"e\":{},\"y\":2}}",
            arrays(140, "1,\"]\""),
            objects(130),
            arrays(119, "[]"),
        );
        let (v, cut) = from_str_capped::<Value>(&doc).unwrap();
        let objects_null = format!("{}null{}", "{\"a\":".repeat(119), "}".repeat(119));
        let want = format!(
            "{{\"x\":\"\u{fffd} [\",\"d\":{},\"o\":{},\"e\":{},\"y\":2}}",
            arrays(119, "null"),
            objects_null,
            arrays(119, "null"),
        );
        assert_eq!(v, serde_json::from_str::<Value>(&want).unwrap());
        let first = doc.find("\"d\":").unwrap() + 4 + 119;
        assert_eq!(&doc[first - 1..first + 2], "[[[");
        assert_eq!(cut, Some(DepthCut { first, count: 3 }));
        // at the cap nothing is replaced, even when serde_json had refused the rest
        let at_cap = format!("[{},{}]", arrays(119, "1"), arrays(130, ""));
        let (v, cut) = from_str_capped::<Value>(&at_cap).unwrap();
        assert_eq!(
            v,
            serde_json::from_str::<Value>(&format!(
                "[{},{}]",
                arrays(119, "1"),
                arrays(119, "null")
            ))
            .unwrap()
        );
        assert_eq!(cut.map(|c| c.count), Some(1));
        // a typed decode that refuses the `null` keeps the original error
        #[derive(Debug, serde::Deserialize)]
        struct Nested(#[allow(dead_code)] Vec<Nested>);
        assert!(from_str_capped::<Nested>(&arrays(100, "")).is_ok());
        let e = from_str_capped::<Nested>(&arrays(200, "")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "recursion limit exceeded at line 1 column 128"
        );
    }

    /// A deep document that is not JSON gives serde_json's own error, whatever is wrong
    /// and wherever (in the part that would be replaced or not).
    #[test]
    fn an_invalid_deep_document_keeps_its_original_error() {
        let open = "[".repeat(200);
        let close = "]".repeat(200);
        let cases = [
            format!("{open}{}", "]".repeat(199)),
            format!("{open}{close}]"),
            format!("{open}1,{close}"),
            format!("{open}1,]{}", "]".repeat(199)),
            format!("{open}{}{}", "}", "]".repeat(199)),
            format!("{open}\"a\\x\"{close}"),
            format!("{open}\"a\u{1}\"{close}"),
            format!("{open}\"a\\u12g4\"{close}"),
            format!("{open}\"unterminated{close}"),
            format!("{open}01{close}"),
            format!("{open}1.{close}"),
            format!("{open}-{close}"),
            format!("{open}1e{close}"),
            format!("{open}tru{close}"),
            format!("{open}nul{close}"),
            format!("{open}{{\"a\" 1}}{close}"),
            format!("{open}{{1:1}}{close}"),
            format!("{open}{{\"a\":1,}}{close}"),
            format!("{open}{close} x"),
            format!("{open}{close}{close}"),
            format!("[1,2,{open}{close}"),
            format!("{{\"k\":{open}{close},}}"),
            format!("{open}{close}\u{0}"),
            open.clone(),
            String::new(),
        ];
        for bad in &cases {
            let theirs = serde_json::from_str::<Value>(bad).unwrap_err();
            assert!(is_recursion_limit(&theirs) || bad.len() < 200, "{bad}");
            let ours = from_str_capped::<Value>(bad).unwrap_err();
            assert_eq!(ours.to_string(), theirs.to_string(), "{bad}");
        }
        // invalid UTF-8 in the part that would be replaced, and outside it
        for bad in [
            [open.as_bytes(), b"\"\xff\"", close.as_bytes()].concat(),
            [b"[\"\xff\",", open.as_bytes(), close.as_bytes(), b"]"].concat(),
        ] {
            let theirs = serde_json::from_slice::<Value>(&bad).unwrap_err();
            let ours = from_slice_capped::<Value>(&bad).unwrap_err();
            assert_eq!(ours.to_string(), theirs.to_string());
        }
    }

    /// The pass that copies validates as serde_json does: on generated documents (a
    /// cap of 0 replaces the whole document, so all of it is checked by the pass),
    /// it accepts exactly what serde_json accepts.
    #[test]
    fn the_capping_pass_agrees_with_serde_json_on_validity() {
        let pieces: [&[u8]; 27] = [
            b"[",
            b"]",
            b"{",
            b"}",
            b":",
            b",",
            b"\"k\"",
            b"\"a\\\"b\"",
            b"\"\\u00e9\"",
            b"\"\\x\"",
            b"\"",
            b"\\",
            b"0",
            b"-1.5e+3",
            b"01",
            b"1.",
            b"-",
            b"true",
            b"nul",
            b"null",
            b" ",
            b"\n",
            b"\t",
            b"\"\x01\"",
            b"\"\xc3\xa9\"",
            b"\"\xff\"",
            b"e5",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut valid, mut n) = (0, 0);
        for _ in 0..200_000 {
            let mut doc = b"[".to_vec();
            for _ in 0..(next() % 12) {
                doc.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]);
            }
            doc.extend_from_slice(b"]");
            let serde = serde_json::from_slice::<Value>(&doc);
            // the one difference: a number past f64 (`1e400`), which serde_json refuses
            // and `JSON.parse` reads as Infinity; a replaced part may hold one
            if matches!(&serde, Err(e) if e.to_string().starts_with("number out of range")) {
                continue;
            }
            let serde_ok = serde.is_ok();
            let ours = cap_depth(&doc, 0);
            assert_eq!(
                ours.is_some(),
                serde_ok,
                "{:?}",
                String::from_utf8_lossy(&doc)
            );
            if let Some((copy, cut)) = ours {
                assert_eq!(
                    (copy.as_slice(), cut),
                    (&b"null"[..], DepthCut { first: 0, count: 1 })
                );
                valid += 1;
            }
            n += 1;
        }
        assert!(valid > 5_000 && n - valid > 5_000, "{valid} of {n}");
    }

    /// Ten megabytes of `[`, open or closed, on a small stack: no overflow, one pass.
    #[test]
    fn ten_megabytes_of_open_brackets_stay_on_a_small_stack() {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(|| {
                let n = 10 << 20;
                let started = std::time::Instant::now();
                let open = "[".repeat(n);
                let e = from_str_capped::<Value>(&open).unwrap_err();
                assert_eq!(
                    e.to_string(),
                    "recursion limit exceeded at line 1 column 128"
                );
                let closed = format!("{}{}", &open[..n / 2], "]".repeat(n / 2));
                let (v, cut) = from_str_capped::<Value>(&closed).unwrap();
                assert_eq!(
                    cut,
                    Some(DepthCut {
                        first: 120,
                        count: 1
                    })
                );
                let mut depth = 0;
                let mut at = &v;
                while let Some(inner) = at.as_array().and_then(|a| a.first()) {
                    depth += 1;
                    at = inner;
                }
                assert_eq!((depth, at), (120, &Value::Null));
                // `Value`'s drop recurses too: 120 levels are nothing
                drop(v);
                assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
