//! What a line's `data` holds beyond what its rows print, for the `session event
//! detail:` row: one streaming pass of serde_json over `data`, guided by the key paths
//! the rows print.
//!
//! Why a guided pass and not a tree: a tool result's `data` holds its output (often
//! megabytes) beside the few fields no row prints (`cwd`, `sandboxed`, telemetry).
//! Reading `data` as a `Value`, or splitting it into raw values and splitting again
//! where a path goes on, copied or validated the output once per level (a 100 MB log
//! of such lines took 0.62 s against 0.16 s without the detail rows). Here every
//! value is read once: a value a path goes into is visited in place, one printed whole
//! is skipped, and every other is kept as written (`RawValue`, a span of the line).
//! Only the keys of one object at a time are held, to sort them; nothing is built
//! whose size grows with a value's.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::decode::compact_json_into;

/// Keys of `data` that only join lines of the same file to each other (a message's,
/// an interaction's, a turn's, a reasoning's id, a streamed message's chunk numbers)
/// or list what the model accepts: the rows carry their order and place, so these are
/// never a reason for a `session event detail:` row and never printed in one. The
/// scanner does not count them as unread (which would cost a second read of nearly
/// every real line).
pub(crate) const BOOKKEEPING: &[&str] = &[
    "interactionId",
    "messageId",
    "turnId",
    "reasoningId",
    "chunkIndex",
    "chunkCount",
    "supportedNativeDocumentMimeTypes",
];

/// Strings the rows printed already, left out where they repeat: the path to them
/// (`[]` for every item of an array) and the texts.
#[derive(Clone, Copy)]
pub(crate) struct Same<'p> {
    /// Where the strings are, from the object being read.
    pub path: &'p [&'p str],
    /// The texts the rows printed.
    pub texts: &'p [&'p str],
}

impl<'p> Same<'p> {
    /// No strings to leave out.
    pub(crate) const NONE: Same<'static> = Same {
        path: &[],
        texts: &[],
    };

    /// The rule one level down, under `key` (`[]` for an array's items).
    fn under(self, key: &str) -> Same<'p> {
        match self.path.split_first() {
            Some((k, rest)) if *k == key && !rest.is_empty() => Same {
                path: rest,
                texts: self.texts,
            },
            _ => Same::NONE,
        }
    }

    /// True when `key`'s value is one of the strings and `raw` repeats a text: written
    /// the same as a string printed whole before it in the line (`printed`, spans of
    /// the line: no decoding), else decoding to one of the texts.
    fn repeats(self, key: &str, raw: &RawValue, printed: &[&str]) -> bool {
        if self.path != [key] {
            return false;
        }
        let r = raw.get();
        if printed.contains(&r) {
            return true;
        }
        let Some(inner) = r.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
            return false;
        };
        if !inner.contains('\\') {
            return self.texts.contains(&inner);
        }
        // escaped: never shorter than what it says; decoded only when it may be equal
        self.texts.iter().any(|t| {
            t.len() <= inner.len()
                && serde_json::from_str::<Cow<'_, str>>(r).is_ok_and(|d| d.as_ref() == *t)
        })
    }
}

/// The unprinted rest of the object `data` (the paths the rows print; `[]` for every
/// item of an array; a value that is no object or array where a path goes on was
/// printed whole), as compact JSON: the keys of `data`, and of an object a path went
/// into, sorted; an array a path went into keeps an item whose fields were all printed
/// as `{}`, so that the others keep their places; every other value as written
/// (compacted). Empty when there is none, or when `data` is no object; all of `data`
/// as written when this pass cannot read it (a number past f64 where an array's item
/// is written, nesting past serde_json's limit of 128).
pub(crate) fn unprinted(data: &str, printed: &[&[&str]], same: Same<'_>) -> String {
    if !data.trim_start().starts_with('{') {
        return String::new();
    }
    let mut out = String::new();
    let mut de = serde_json::Deserializer::from_str(data);
    let strings = RefCell::new(Vec::new());
    let seed = Rest {
        printed: &strings,
        paths: printed,
        same,
        top: true,
        item: false,
        out: &mut out,
    };
    match seed
        .deserialize(&mut de)
        .and_then(|wrote| de.end().map(|()| wrote))
    {
        Ok(true) => out,
        Ok(false) => String::new(),
        // what this pass cannot read (a number past f64 where an item is written,
        // nesting past serde_json's 128): all of `data`, as written, rather than none
        Err(_) => {
            out.clear();
            compact_json_into(&mut out, data);
            out
        }
    }
}

/// A value read where paths go on; writes its unprinted rest into `out` and says
/// whether it wrote anything.
struct Rest<'de, 'p, 'o> {
    /// The strings printed whole so far, as written (for [`Same::repeats`]).
    printed: &'p RefCell<Vec<&'de str>>,
    paths: &'p [&'p [&'p str]],
    same: Same<'p>,
    /// `data` itself (its [`BOOKKEEPING`] keys are left out).
    top: bool,
    /// An array's item: a value that is no object is written as it is (as serde_json
    /// writes it), not left out as printed.
    item: bool,
    out: &'o mut String,
}

impl<'de> DeserializeSeed<'de> for Rest<'de, '_, '_> {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

/// A key, borrowed from the line unless escaped.
struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// An object's kept value: as written, or its rest already written.
enum Kept<'de> {
    Raw(&'de RawValue),
    Written(String),
}

impl Rest<'_, '_, '_> {
    /// A scalar: written when an item, else printed whole.
    fn scalar<E: de::Error>(self, v: impl serde::Serialize) -> Result<bool, E> {
        if !self.item {
            return Ok(false);
        }
        match serde_json::to_string(&v) {
            Ok(t) => {
                self.out.push_str(&t);
                Ok(true)
            }
            Err(e) => Err(E::custom(e)),
        }
    }
}

impl<'de> Visitor<'de> for Rest<'de, '_, '_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut kept: Vec<(Cow<'de, str>, Kept<'de>)> = Vec::new();
        let mut sub: Vec<&[&str]> = Vec::new();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if self.top && BOOKKEEPING.contains(&key.as_ref()) {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            sub.clear();
            sub.extend(
                self.paths
                    .iter()
                    .filter(|p| p.first() == Some(&key.as_ref()))
                    .map(|p| &p[1..]),
            );
            if sub.iter().any(|p| p.is_empty()) {
                // printed whole (a string kept as a span, as cheap as skipping it)
                let raw = map.next_value::<&'de RawValue>()?.get();
                if raw.starts_with('"') {
                    self.printed.borrow_mut().push(raw);
                }
                continue;
            }
            let same = self.same.under(&key);
            if sub.is_empty() && same.path.is_empty() {
                let raw = map.next_value::<&'de RawValue>()?;
                if !self.same.repeats(&key, raw, &self.printed.borrow()) {
                    kept.push((key, Kept::Raw(raw)));
                }
                continue;
            }
            let mut text = String::new();
            let wrote = map.next_value_seed(Rest {
                printed: self.printed,
                paths: &sub,
                same,
                top: false,
                item: false,
                out: &mut text,
            })?;
            if wrote {
                kept.push((key, Kept::Written(text)));
            }
        }
        if kept.is_empty() {
            return Ok(false);
        }
        kept.sort_by(|a, b| a.0.cmp(&b.0));
        for (i, (key, value)) in kept.iter().enumerate() {
            self.out.push(if i == 0 { '{' } else { ',' });
            if let Ok(k) = serde_json::to_string(key.as_ref()) {
                self.out.push_str(&k);
            }
            self.out.push(':');
            match value {
                Kept::Raw(raw) => compact_json_into(self.out, raw.get()),
                Kept::Written(t) => self.out.push_str(t),
            }
        }
        self.out.push('}');
        Ok(true)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        // the paths and rule for every item
        let sub: Vec<&[&str]> = self
            .paths
            .iter()
            .filter_map(|p| p.split_first().filter(|(k, _)| **k == "[]").map(|(_, r)| r))
            .collect();
        let whole = sub.iter().any(|p| p.is_empty());
        let same = self.same.under("[]");
        let from = self.out.len();
        self.out.push('[');
        let mut any = false;
        let mut first = true;
        loop {
            let mark = self.out.len();
            if !first {
                self.out.push(',');
            }
            let item = if whole {
                seq.next_element::<IgnoredAny>()?.map(|_| false)
            } else {
                seq.next_element_seed(Rest {
                    printed: self.printed,
                    paths: &sub,
                    same,
                    top: false,
                    item: true,
                    out: self.out,
                })?
            };
            match item {
                None => {
                    self.out.truncate(mark);
                    break;
                }
                Some(true) => any = true,
                // an item whose fields were all printed keeps its place
                Some(false) => {
                    self.out.truncate(if first { mark } else { mark + 1 });
                    self.out.push_str("{}");
                }
            }
            first = false;
        }
        if !any {
            self.out.truncate(from);
            return Ok(false);
        }
        self.out.push(']');
        Ok(true)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        self.scalar(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
        self.scalar(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
        self.scalar(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<bool, E> {
        self.scalar(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        self.scalar(v)
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        self.scalar(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &[&[&str]] = &[
        &["content"],
        &["result", "content"],
        &["result", "contents", "[]", "type"],
        &["list", "[]", "a"],
    ];

    fn rest(data: &str) -> String {
        let same = Same {
            path: &["result", "contents", "[]", "text"],
            texts: &["out\nput", "plain"],
        };
        unprinted(data, P, same)
    }

    /// Keys sorted where a path went in, other values as written (compacted), items
    /// kept in their places, repeated texts left out however they are escaped, scalars
    /// where a path goes on printed whole, and what is not an object gives nothing.
    #[test]
    fn rest_of_data() {
        assert_eq!(rest(r#"{"content":"x","interactionId":"i"}"#), "");
        assert_eq!(
            rest(r#"{"z":{"b":1, "a":2},"content":"x","cwd":"/w"}"#),
            r#"{"cwd":"/w","z":{"b":1,"a":2}}"#
        );
        assert_eq!(
            rest(
                r#"{"result":{"content":"c","contents":[{"type":"terminal","text":"out\u000aput","cwd":"/w"},{"type":"t","text":"plain"},{"type":"t","text":"other"}]}}"#
            ),
            r#"{"result":{"contents":[{"cwd":"/w"},{},{"text":"other"}]}}"#
        );
        assert_eq!(rest(r#"{"result":{"contents":[{"type":"x"}]}}"#), "");
        // written as the result's content before it: left out without decoding
        assert_eq!(
            rest(r#"{"result":{"content":"a\"b","contents":[{"type":"t","text":"a\"b"}]}}"#),
            ""
        );
        // the same text written after it, or written otherwise, is not (no text given)
        assert_eq!(
            rest(r#"{"result":{"contents":[{"type":"t","text":"a\"b"}],"content":"a\"b"}}"#),
            r#"{"result":{"contents":[{"text":"a\"b"}]}}"#
        );
        assert_eq!(
            rest(r#"{"list":[{"a":1},7,"s",[1,{"a":2}],null,{"a":1,"b":1e400}]}"#),
            r#"{"list":[{},7,"s",[1,{"a":2}],null,{"b":1e400}]}"#
        );
        assert_eq!(
            rest(r#"{"list":[{"a":1},7,"s",[1],null,{"a":1,"b":true}]}"#),
            r#"{"list":[{},7,"s",[1],null,{"b":true}]}"#
        );
        assert_eq!(rest(r#"{"result":"a string where a path goes on"}"#), "");
        // an object where an array's item path goes on: no item of it is printed
        assert_eq!(rest(r#"{"list":{"a":1}}"#), r#"{"list":{"a":1}}"#);
        assert_eq!(rest(r#"[1]"#), "");
        assert_eq!(
            rest(r#"{"list":[1e400],"content":"x"}"#),
            r#"{"list":[1e400],"content":"x"}"#
        );
        let deep = format!(r#"{{"list":[{}1{}]}}"#, "[".repeat(200), "]".repeat(200));
        assert_eq!(rest(&deep), deep);
        assert_eq!(rest(r#"{"k\u0065y":1}"#), r#"{"key":1}"#);
    }
}
