//! The state's JSON writer (`decode::write`: escaped strings copied through, unparsed
//! subtrees re-written from their text) writes exactly what serde_json writes for the
//! same state: the same bytes, on every fixture log (its state, every value it
//! recovered, every line read as a document), on thousands of damaged copies of them,
//! on generated documents dense with escapes, surrogates, odd numbers, whitespace and
//! duplicate keys, and on nodes made by hand that no parser would make.
//!
//! The reference: a `serde::Serialize` of the tree in its own order (objects as
//! serde_json maps of their members, undefined members left out, undefined elements as
//! `null`, strings decoded and handed to serde_json to escape), unparsed subtrees parsed
//! whole first, and numbers as JavaScript prints them (`js_number`, handed over as raw
//! JSON: serde_json would print 1e21 as `1e21`, JavaScript as `1e+21`).

mod common;

use std::borrow::Cow;

use chat_rows::dirty::Harness;
use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use vscode_chat_log::decode::node::js_number;
use vscode_chat_log::decode::{Depth, json, parse_document};
use vscode_chat_log::{Node, Replay, Slot};

struct Serde<'n, 'a>(&'n Node<'a>);

impl Serialize for Serde<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            // a value too deep to read is written as null
            Node::Undefined | Node::Null | Node::TooDeep { .. } => s.serialize_unit(),
            Node::Bool(b) => s.serialize_bool(*b),
            Node::Num(n) => serde_json::value::RawValue::from_string(js_number(*n))
                .map_err(S::Error::custom)?
                .serialize(s),
            Node::Str(_) | Node::Esc(_) => s.serialize_str(&self.0.text().unwrap_or_default()),
            Node::Arr(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for x in items {
                    seq.serialize_element(&Serde(&x.node))?;
                }
                seq.end()
            }
            Node::Obj(fields) => {
                let mut map = s.serialize_map(None)?;
                for (k, v) in fields.iter().filter(|(_, v)| !v.node.is_undefined()) {
                    map.serialize_entry(k.as_ref(), &Serde(&v.node))?;
                }
                map.end()
            }
            Node::Raw(r) => full(r, s),
            Node::RawOwned(r) => full(r, s),
        }
    }
}

/// An unparsed subtree, parsed whole (`null` when it is not JSON, as the tree reads it).
fn full<S: Serializer>(raw: &str, s: S) -> Result<S::Ok, S::Error> {
    match json::parse(raw, 0, Depth::Full) {
        Ok(n) => Serde(&n).serialize(s),
        Err(_) => s.serialize_unit(),
    }
}

/// The writer's text of `n` and serde_json's, which must be equal; and the writer's
/// streamed form (64 KiB at a time to an output) must be the same bytes.
fn check(n: &Node<'_>, what: &dyn std::fmt::Display) {
    let ours = n.to_json();
    let theirs = serde_json::to_string(&Serde(n)).expect("serde_json");
    assert_eq!(ours, theirs, "{what}");
    let mut streamed = Vec::new();
    vscode_chat_log::decode::write::write_node(n, &mut streamed).expect("write");
    assert_eq!(streamed, ours.as_bytes(), "{what}: streamed");
}

/// Everything a replay holds: its state, each recovered value, each line's document.
fn check_replay(input: &[u8], what: &dyn std::fmt::Display) -> usize {
    let r = Replay::from_bytes(input);
    let mut n = 0;
    if let Some(s) = r.state() {
        check(&s.node, what);
        let mut out = Vec::new();
        r.write_json(&mut out).expect("write");
        assert_eq!(out, r.to_json().as_bytes(), "{what}: Replay::write_json");
        n += 1;
    }
    for rec in r.recovered() {
        for v in &rec.values {
            check(&v.node, what);
            n += 1;
        }
    }
    for (i, _) in r.lines().iter().enumerate() {
        let line = r.line_bytes(i as u32);
        if let Ok(text) = std::str::from_utf8(line) {
            if let Ok(doc) = parse_document(text) {
                check(&doc.node, what);
                n += 1;
            }
        }
    }
    n
}

#[test]
fn fixture_logs_and_damaged_copies() {
    let logs = common::fixture_logs();
    assert!(logs.len() >= 5, "{logs:?}");
    let harness = Harness::new().truncations(16).flips(48).splices(16);
    let (mut values, mut cases) = (0, 0);
    for log in &logs {
        let input = std::fs::read(log).expect("fixture");
        values += check_replay(&input, &log.display());
        for m in harness.mutations(input.len()) {
            let damaged = m.apply(&input);
            values += check_replay(&damaged, &format_args!("{}: {m:?}", log.display()));
            cases += 1;
        }
    }
    assert!(
        cases > 400 && values > 2_000,
        "{cases} cases, {values} values"
    );
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

/// String contents as JSON text may hold them: canonical and other escapes, surrogate
/// pairs and lone halves, control characters escaped, non-ASCII, long plain runs (so
/// that 64-byte blocks start everywhere, also inside escapes).
const PIECES: &[&str] = &[
    "\\n",
    "\\\"",
    "\\\\",
    "\\t",
    "\\r",
    "\\b",
    "\\f",
    "\\/",
    "\\u0001",
    "\\u001F",
    "\\u001f",
    "\\u000a",
    "\\u0022",
    "\\u005C",
    "\\u0041",
    "\\u00e9",
    "\\u2028",
    "\\ud83d\\ude00",
    "\\uD83D\\uDE00",
    "\\ud83d",
    "\\ude00",
    "\\ud83d\\u0041",
    "\\ud83d\\ud83d\\ude00",
    "é",
    "😀",
    "\u{7f}",
    "plain text of some length, with nothing to escape in it at all",
    "ab",
    " ",
];

fn gen_string(next: &mut impl FnMut() -> u64, out: &mut String) {
    out.push('"');
    for _ in 0..(next() % 16) {
        out.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
    }
    out.push('"');
}

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "7",
    "-12",
    "1759400000000",
    "123456789012345",
    "1234567890123456",
    "12345678901234567890",
    "-9007199254740993",
    "1.5",
    "0.1",
    "-0.0",
    "1e21",
    "1E+21",
    "1.5e-7",
    "2.50",
    "1e400",
    "-1e-400",
    "100e-2",
];

/// Keys, some of them the lazy ones the parser keeps unparsed, some duplicated, some
/// with escapes.
const KEYS: &[&str] = &[
    "\"a\"",
    "\"b\"",
    "\"value\"",
    "\"result\"",
    "\"variableData\"",
    "\"agent\"",
    "\"parts\"",
    "\"metadata\"",
    "\"k\\u0065y\"",
    "\"key\"",
    "\"q\\\"uote\"",
    "\"\"",
];

const SPACES: &[&str] = &["", "", "", " ", "\n", "\t", "\r\n  "];

fn gen_value(next: &mut impl FnMut() -> u64, depth: usize, out: &mut String) {
    let pick = if depth > 3 { next() % 4 } else { next() % 7 };
    let ws = |next: &mut dyn FnMut() -> u64, out: &mut String| {
        out.push_str(SPACES[(next() % SPACES.len() as u64) as usize])
    };
    match pick {
        0 => gen_string(next, out),
        1 => out.push_str(NUMBERS[(next() % NUMBERS.len() as u64) as usize]),
        2 => out.push_str(["true", "false", "null"][(next() % 3) as usize]),
        3 => gen_string(next, out),
        4 | 5 => {
            out.push('{');
            for k in 0..(next() % 6) {
                if k > 0 {
                    out.push(',');
                }
                ws(next, out);
                out.push_str(KEYS[(next() % KEYS.len() as u64) as usize]);
                ws(next, out);
                out.push(':');
                ws(next, out);
                gen_value(next, depth + 1, out);
                ws(next, out);
            }
            out.push('}');
        }
        _ => {
            out.push('[');
            for k in 0..(next() % 6) {
                if k > 0 {
                    out.push(',');
                }
                ws(next, out);
                gen_value(next, depth + 1, out);
            }
            out.push(']');
        }
    }
}

/// Generated documents, read lazily (raw subtrees under the lazy keys) and fully: the
/// writer and serde_json agree on every one; and a log made of them replays to a state
/// they agree on too.
#[test]
fn generated_documents() {
    let mut next = xorshift(0x5eed_cafe_f00d_1234);
    let mut docs = 0;
    let mut log = String::from("{\"kind\":0,\"v\":{\"requests\":[]}}\n");
    for i in 0..2_000 {
        let mut doc = String::new();
        gen_value(&mut next, 0, &mut doc);
        let lazy = parse_document(&doc).unwrap_or_else(|e| panic!("{doc}: {e}"));
        check(&lazy.node, &doc);
        let whole = json::parse(&doc, 0, Depth::Full).expect("parses");
        check(&whole, &doc);
        docs += 1;
        // a raw newline can only be whitespace between tokens: a space keeps the line one
        let doc = doc.replace('\n', " ");
        log.push_str(&format!(
            "{{\"kind\":1,\"k\":[\"requests\",{}],\"v\":{{\"requestId\":\"r{i}\",\"result\":{doc},\"value\":{doc}}}}}\n",
            i % 50
        ));
    }
    assert_eq!(docs, 2_000);
    let r = Replay::from_bytes(log.as_bytes());
    assert!(r.errors().is_empty() && r.recovered().len() > 1_000);
    assert!(check_replay(log.as_bytes(), &"generated log") > 2_000);
}

/// Every string of the pieces above, alone, at every length of plain text before it
/// (so that it crosses a 64-byte block boundary at every offset).
#[test]
fn escapes_at_every_block_offset() {
    for piece in PIECES {
        for pad in 0..70 {
            let raw = format!("{}{piece}{}{piece}", "x".repeat(pad), "y".repeat(pad % 7));
            check(&Node::Esc(&raw), &raw);
            let doc = format!("{{\"result\":[\"{raw}\",{{\"a\":\"{raw}\"}}]}}");
            check(&parse_document(&doc).expect("doc").node, &doc);
        }
    }
}

/// Nodes no parser makes, which the writer must still write as serde_json does: an
/// escaped string with an invalid escape or a bare quote, strings and keys that need
/// escaping, raw subtrees that are not JSON or hold a duplicate key, undefined members
/// and elements, numbers of every kind.
#[test]
fn nodes_made_by_hand() {
    let slot = |n: Node<'static>| Slot::new(0, n);
    let cases: Vec<Node<'static>> = vec![
        Node::Esc("a\\x"),
        Node::Esc("a\"b"),
        Node::Esc("cut\\"),
        Node::Esc("ctl\u{1}"),
        Node::Esc("\\u12"),
        Node::Esc("\\ud83d\\u12zz"),
        Node::Str(Cow::Borrowed(
            "quote \" backslash \\ newline \n tab \t nul \u{0} del \u{7f}",
        )),
        Node::Str(Cow::Owned("x".repeat(100) + "\u{1f}")),
        Node::Raw("not json"),
        Node::Raw("[1,2"),
        Node::Raw("{\"a\":1,\"a\":2,\"b\":3}"),
        Node::Raw(" [ 1 , {\"a\" : \"\\u0041\"} ] "),
        Node::Raw("[1] x"),
        Node::RawOwned("{\"k\":[true,false,null,-0,1e21]}".into()),
        Node::Raw(
            r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18,"s":19,"t":20,"u":21,"v":22,"w":23,"x":24,"y":25,"z":26,"aa":27,"bb":28,"cc":29,"dd":30,"ee":31,"ff":32,"gg":33,"hh":34,"a":35}"#,
        ),
        Node::Raw(
            r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18,"s":19,"t":20,"u":21,"v":22,"w":23,"x":24,"y":25,"z":26,"aa":27,"bb":28,"cc":29,"dd":30,"ee":31,"ff":32,"gg":33,"hh":34}"#,
        ),
        Node::Obj(
            vec![
                (Cow::Borrowed("a\"\n"), slot(Node::Undefined)),
                (Cow::Borrowed("k\u{1}"), slot(Node::Num(-0.0))),
                (Cow::Borrowed("u"), slot(Node::Undefined)),
                (
                    Cow::Borrowed("arr"),
                    slot(Node::Arr(vec![
                        slot(Node::Undefined),
                        slot(Node::Num(f64::NAN)),
                        slot(Node::Num(f64::INFINITY)),
                        slot(Node::Num(1e21)),
                        slot(Node::Num(1.5e-7)),
                        slot(Node::Num(999_999_999_999_999.0)),
                        slot(Node::Num(1e15)),
                        slot(Node::Num(-123.0)),
                        slot(Node::Num(0.1)),
                    ])),
                ),
            ]
            .into(),
        ),
        Node::Obj(vec![(Cow::Borrowed("only"), slot(Node::Undefined))].into()),
        Node::Raw(&*Box::leak(
            format!("{}1{}", "[".repeat(256), "]".repeat(256)).into_boxed_str(),
        )),
        Node::Raw(&*Box::leak(
            format!("{}1{}", "[".repeat(257), "]".repeat(257)).into_boxed_str(),
        )),
    ];
    for n in &cases {
        check(n, &format_args!("{n:?}"));
    }
    // the last two: the deepest nesting the parser reads, and one level more, whose
    // innermost array is not read (a placeholder, null)
    assert!(cases[cases.len() - 2].to_json().starts_with("[[["));
    assert_eq!(
        cases[cases.len() - 1].to_json(),
        format!("{}null{}", "[".repeat(256), "]".repeat(256))
    );
    assert_eq!(
        Node::Raw("{\"a\":1,\"a\":2,\"b\":3}").to_json(),
        "{\"a\":2,\"b\":3}"
    );
    assert_eq!(
        Node::Esc("\\ud83d x \\/ \\u0041").to_json(),
        "\"\u{fffd} x / A\""
    );
}
