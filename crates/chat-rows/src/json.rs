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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

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
}
