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
}
