//! JSONC: the JSON with comments and trailing commas that VS Code's `settings.json` is.
//!
//! Decoded through jsonc-parser into a `serde_json::Value`, so the callers handle
//! settings exactly like any other JSON; or, with [`parse_tree`], into a [`Node`] that
//! keeps what a `Value` loses: the members in the order the user (or the tool) wrote
//! them, and each value's text as written. A setting is evidence of what someone
//! granted and when, so its rows follow the file and print its values as they stand
//! there (a `Value` sorts the keys, since the workspace does not turn on serde_json's
//! `preserve_order`: measured on 2026-12-02, that slowed the readers by 15 to 58 %).

use serde_json::Value;

/// An error decoding JSONC, with the place it was found.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct JsoncError {
    message: String,
}

/// Decodes JSONC text. An empty document (or one that holds only comments) is `Value::Null`.
pub fn parse(text: &str) -> Result<Value, JsoncError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match jsonc_parser::parse_to_serde_value::<Value>(text, &options()) {
        Ok(v) => Ok(v),
        Err(e) => Err(JsoncError {
            message: e.to_string(),
        }),
    }
}

/// Decodes JSONC bytes; invalid UTF-8 is an error that says where.
pub fn parse_bytes(bytes: &[u8]) -> Result<Value, JsoncError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => Err(JsoncError {
            message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
        }),
    }
}

fn options() -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: true,
        ..Default::default()
    }
}

/// A JSONC value as written: an object's members in the file's order (a name written
/// twice is kept twice), each scalar with its text.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    /// An object's members, in the file's order.
    Object(Vec<(String, Node<'a>)>),
    /// An array's elements.
    Array(Vec<Node<'a>>),
    /// A string, number, boolean or null: the value [`parse`] gives it, and its text.
    Scalar {
        /// The decoded value.
        value: Value,
        /// The value's text in the file (a string with its quotes and escapes).
        raw: &'a str,
    },
}

/// Decodes JSONC text into a [`Node`], accepting what [`parse`] accepts (jsonc-parser's
/// tree parser, whose errors are worded on their own: `Expected value after colon in
/// object property on line 1 column 7` where [`parse`] says `unexpected end of input`).
/// An empty document (or one that holds only comments) is `None`.
pub fn parse_tree(text: &str) -> Result<Option<Node<'_>>, JsoncError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let collect = jsonc_parser::CollectOptions::default();
    match jsonc_parser::parse_to_ast(text, &collect, &options()) {
        // the parser refuses nesting past 512 levels, so this recursion is bounded
        Ok(r) => r.value.map(|v| Node::of(text, v)).transpose(),
        Err(e) => Err(JsoncError {
            message: e.to_string(),
        }),
    }
}

/// [`parse_tree`] of bytes; invalid UTF-8 is an error that says where.
pub fn parse_tree_bytes(bytes: &[u8]) -> Result<Option<Node<'_>>, JsoncError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_tree(text),
        Err(e) => Err(JsoncError {
            message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
        }),
    }
}

impl<'a> Node<'a> {
    fn of(text: &'a str, v: jsonc_parser::ast::Value<'_>) -> Result<Node<'a>, JsoncError> {
        use jsonc_parser::ast::Value as A;
        let raw = |start: usize, end: usize| text.get(start..end).unwrap_or_default();
        Ok(match v {
            A::Object(o) => Node::Object(
                o.properties
                    .into_iter()
                    .map(|p| Ok((p.name.into_string(), Node::of(text, p.value)?)))
                    .collect::<Result<_, JsoncError>>()?,
            ),
            A::Array(a) => Node::Array(
                a.elements
                    .into_iter()
                    .map(|e| Node::of(text, e))
                    .collect::<Result<_, JsoncError>>()?,
            ),
            A::StringLit(s) => Node::Scalar {
                raw: raw(s.range.start, s.range.end),
                value: Value::String(s.value.into_owned()),
            },
            A::NumberLit(n) => {
                let raw = raw(n.range.start, n.range.end);
                // the number as the whole-document decoding reads it (hexadecimal,
                // a leading `+` or `.` included); one it refuses (`NaN`, `Infinity`,
                // `1e999`: out of range) fails the tree too, where it stands
                let value =
                    jsonc_parser::parse_to_serde_value::<Value>(raw, &options()).map_err(|_| {
                        let before = text.get(..n.range.start).unwrap_or_default();
                        let line = before.matches('\n').count() + 1;
                        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
                        JsoncError {
                            message: format!(
                                "Number is out of range on line {line} column {column}"
                            ),
                        }
                    })?;
                Node::Scalar { value, raw }
            }
            A::BooleanLit(b) => Node::Scalar {
                raw: raw(b.range.start, b.range.end),
                value: Value::Bool(b.value),
            },
            A::NullKeyword(n) => Node::Scalar {
                raw: raw(n.range.start, n.range.end),
                value: Value::Null,
            },
        })
    }

    /// The value of the member `key` of an object (of a name written twice, the last,
    /// as [`parse`] and JavaScript read it); `None` for anything else.
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(m) => m.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// An object's members as JavaScript's `JSON.parse` (and so the writing tool) sees
    /// them: each name once, at the place it was first written, with its last value.
    /// Empty for anything but an object.
    pub fn members(&self) -> Vec<(&str, &Node<'a>)> {
        let Node::Object(m) = self else {
            return Vec::new();
        };
        let mut last: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (i, (k, _)) in m.iter().enumerate() {
            last.insert(k, i);
        }
        let mut seen = std::collections::HashSet::new();
        m.iter()
            .filter(|(k, _)| seen.insert(k.as_str()))
            .filter_map(|(k, _)| Some((k.as_str(), &m.get(*last.get(k.as_str())?)?.1)))
            .collect()
    }

    /// An array's elements; empty for anything else.
    pub fn items(&self) -> &[Node<'a>] {
        match self {
            Node::Array(a) => a,
            _ => &[],
        }
    }

    /// True for an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Node::Object(_))
    }

    /// The string of a string scalar.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Scalar {
                value: Value::String(s),
                ..
            } => Some(s),
            _ => None,
        }
    }

    /// The value as [`parse`] decodes it (of a name written twice, the last).
    pub fn to_value(&self) -> Value {
        match self {
            Node::Object(m) => {
                let mut map = serde_json::Map::new();
                for (k, v) in m {
                    map.insert(k.clone(), v.to_value());
                }
                Value::Object(map)
            }
            Node::Array(a) => Value::Array(a.iter().map(Node::to_value).collect()),
            Node::Scalar { value, .. } => value.clone(),
        }
    }

    /// The text a row shows for a value: a string as is, `null` empty, anything else
    /// as compact JSON as written ([`Node::compact`]).
    pub fn text(&self) -> String {
        match self {
            Node::Scalar {
                value: Value::String(s),
                ..
            } => s.clone(),
            Node::Scalar {
                value: Value::Null, ..
            } => String::new(),
            other => other.compact(|_| false),
        }
    }

    /// Compact JSON of the value as written: members in the file's order (each name once,
    /// as [`Node::members`] gives them), without the members whose names `skip` picks,
    /// at every depth; strings and numbers as written where JSON allows what was
    /// written (a single-quoted string, a hexadecimal number or a comment is JSONC
    /// only: such a value is printed from its decoded value).
    pub fn compact(&self, skip: impl Fn(&str) -> bool + Copy) -> String {
        let mut out = String::new();
        self.compact_into(&mut out, &skip);
        out
    }

    fn compact_into(&self, out: &mut String, skip: &dyn Fn(&str) -> bool) {
        match self {
            Node::Object(_) => {
                out.push('{');
                let mut first = true;
                for (k, v) in self.members() {
                    if skip(k) {
                        continue;
                    }
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&serde_json::to_string(k).unwrap_or_default());
                    out.push(':');
                    v.compact_into(out, skip);
                }
                out.push('}');
            }
            Node::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.compact_into(out, skip);
                }
                out.push(']');
            }
            Node::Scalar { value, raw } => {
                if serde_json::from_str::<serde::de::IgnoredAny>(raw).is_ok() {
                    out.push_str(raw);
                } else {
                    out.push_str(&serde_json::to_string(value).unwrap_or_default());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas() {
        let v = parse(
            "// user settings\n{\n  /* block */ \"chat.defaultModel\": \"gpt-5\", // trailing\n  \"a\": [1, 2,],\n}\n",
        )
        .unwrap();
        assert_eq!(v["chat.defaultModel"], "gpt-5");
        assert_eq!(v["a"], serde_json::json!([1, 2]));
    }

    #[test]
    fn a_tree_keeps_the_order_and_the_text_as_written() {
        let text = "\u{feff}// grants\n{\n  \"z\": {\"b\": 1, /* c */ \"a\": \"caf\\u00e9\"},\n  \"m\": [3, 1, 0x10, 'q'],\n  \"token\": \"SECRET\",\n  \"z\": {\"y\": null, \"x\": [{\"token\": 1, \"k\": 2.50}]},\n  \"a\": true,\n}\n";
        let tree = parse_tree(text).unwrap().unwrap();
        // each name once, at its first place, with its last value (JSON.parse)
        let names: Vec<&str> = tree.members().iter().map(|(k, _)| *k).collect();
        assert_eq!(names, ["z", "m", "token", "a"]);
        assert_eq!(
            tree.get("z").unwrap().compact(|_| false),
            r#"{"y":null,"x":[{"token":1,"k":2.50}]}"#
        );
        assert_eq!(
            tree.compact(|k| k == "token"),
            r#"{"z":{"y":null,"x":[{"k":2.50}]},"m":[3,1,16,"q"],"a":true}"#
        );
        assert_eq!(tree.get("token").unwrap().text(), "SECRET");
        assert_eq!(tree.get("a").unwrap().text(), "true");
        assert_eq!(tree.get("m").unwrap().items().len(), 4);
        assert_eq!(tree.get("z").unwrap().get("y").unwrap().text(), "");
        assert!(tree.get("nope").is_none());
        assert!(tree.get("m").unwrap().get("0").is_none());
        // what parse gives, exactly
        assert_eq!(tree.to_value(), parse(text).unwrap());
        // the first z, kept in the tree, with its escape as written
        let Node::Object(all) = &tree else {
            panic!("{tree:?}")
        };
        assert_eq!(all.len(), 5);
        assert_eq!(all[0].1.compact(|_| false), r#"{"b":1,"a":"caf\u00e9"}"#);
    }

    #[test]
    fn a_tree_accepts_what_parse_accepts() {
        for text in [
            "",
            "// only a comment",
            "{}",
            "[1,]",
            "{\"a\": 1,}",
            "{a: 1}",
            "{\"a\": }",
            "{\"a\": 1} 2",
            "\"x\"",
            "-0.5e3",
            "[[[[]]]]",
            "{\"a\": [1, {\"b\": 'c'}]}",
            "{\"a\" 1}",
            "{\"a\": +1, \"b\": .5, \"c\": 0x1F}",
            // numbers the value decoding refuses (fuzz finding, 2026-12-02: the tree
            // read `NaN` as a string)
            "NaN",
            "[1, Infinity]",
            "{\"a\": -Infinity}",
            "{\"a\":\n  1e999}",
        ] {
            match (parse(text), parse_tree(text)) {
                (Ok(v), Ok(t)) => {
                    assert_eq!(t.map_or(Value::Null, |t| t.to_value()), v, "{text}")
                }
                (Err(_), Err(_)) => {}
                (a, b) => panic!("{text}: {a:?} vs {b:?}"),
            }
        }
        // every cut of real-looking settings, and each with one byte changed
        let settings = "// s\n{\n  \"a.b\": {\"rm\": false, \"/^git$/\": true,}, /* x */\n  \"m\": [1, -2.5e3, 'q', null],\n  \"t\": \"caf\\u00e9 \\\"q\\\"\",\n}\n";
        let mut checked = 0;
        for cut in 0..=settings.len() {
            let Some(head) = settings.get(..cut) else {
                continue;
            };
            let mut texts = vec![head.to_string()];
            for (i, c) in b"{}[],:\"'/*x1 ".iter().enumerate() {
                let mut t = settings.as_bytes().to_vec();
                if let Some(b) = t.get_mut(cut) {
                    *b = *c;
                }
                texts.push(String::from_utf8_lossy(&t).into_owned() + &" ".repeat(i % 2));
            }
            for text in texts {
                let (a, b) = (parse(&text), parse_tree(&text));
                assert_eq!(a.is_ok(), b.is_ok(), "{text:?}: {a:?} vs {b:?}");
                if let (Ok(v), Ok(t)) = (a, b) {
                    assert_eq!(t.map_or(Value::Null, |t| t.to_value()), v, "{text:?}");
                }
                checked += 1;
            }
        }
        let cuts = (0..=settings.len())
            .filter(|c| settings.is_char_boundary(*c))
            .count();
        assert_eq!((checked, cuts), (14 * 117, 117));
        assert_eq!(
            parse_tree("{\"a\":\n  1e999}").unwrap_err().to_string(),
            "Number is out of range on line 2 column 3"
        );
        let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        assert!(parse_tree(&deep).is_err());
        assert_eq!(
            parse_tree_bytes(b"{\"a\": \"\xff\"}")
                .unwrap_err()
                .to_string(),
            "invalid UTF-8 at byte 7"
        );
    }

    #[test]
    fn errors_say_where() {
        let e = parse("{\n \"a\": }").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        assert!(
            parse_bytes(b"{\"a\": \"\xff\"}")
                .unwrap_err()
                .to_string()
                .contains("byte 7")
        );
        assert_eq!(parse("// nothing").unwrap(), Value::Null);
    }
}
