//! The replayed state: a JSON tree that borrows from the log's bytes.
//!
//! A real session log is one huge kind-0 line (often tens, sometimes hundreds of MB)
//! followed by up to ~1k small mutations. Building a `serde_json::Value` of the first
//! line copies every string and allocates a map per object, which costs more than the
//! parse itself. [`Node`] instead keeps strings borrowed from the line when they hold no
//! escapes, and keeps the bulky subtrees that no mutation touches and no row reads
//! (`result`, `variableData`, `usedContext`, ...) as unparsed slices of the
//! input. A mutation whose path walks into such a slice materialises just that level.
//!
//! The tree follows JavaScript's semantics where VS Code's reader depends on them:
//! numbers are `f64`, a duplicate key keeps its first position and its last value, and
//! a deleted value is [`Node::Undefined`], which keeps the key's position (so a later Set
//! lands where VS Code's would) and disappears, or becomes `null` in an array, when the
//! tree is written out.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// A JSON value of the replayed state, borrowing from the input where it can.
#[derive(Clone, Debug)]
pub enum Node<'a> {
    /// JavaScript's `undefined`: a deleted value, or a hole in an array.
    Undefined,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as JavaScript reads it (an IEEE double).
    Num(f64),
    /// A string without escapes (or already decoded).
    Str(Cow<'a, str>),
    /// A string as written in the JSON text, between its quotes, escapes not decoded
    /// yet (see [`Node::text`]).
    Esc(&'a str),
    /// An array; each element remembers the line that wrote it.
    Arr(Vec<Slot<'a>>),
    /// An object, in key order; each value remembers the line that wrote it.
    Obj(Fields<'a>),
    /// A subtree not parsed yet (valid JSON text), borrowed from the input.
    Raw(&'a str),
    /// A subtree not parsed yet, owned (from a line that had invalid UTF-8 replaced).
    RawOwned(Box<str>),
    /// An array or object that began deeper than [`super::json::MAX_DEPTH`] levels:
    /// the parser validated and skipped it without reading it (VS Code's reader would
    /// read it), and keeps this placeholder in its place, written as `null`. Its line
    /// gets a `parser:` row ([`crate::Error::TooDeep`]).
    TooDeep {
        /// True for an object, false for an array.
        object: bool,
    },
}

impl PartialEq for Node<'_> {
    /// Equality of the JSON values (a raw subtree equals its parsed form).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Node::Undefined, Node::Undefined) | (Node::Null, Node::Null) => true,
            (Node::Bool(a), Node::Bool(b)) => a == b,
            (Node::Num(a), Node::Num(b)) => a == b,
            (Node::Str(_) | Node::Esc(_), Node::Str(_) | Node::Esc(_)) => {
                self.text() == other.text()
            }
            (Node::Arr(a), Node::Arr(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.node == y.node)
            }
            (Node::Obj(a), Node::Obj(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((k, x), (l, y))| k == l && x.node == y.node)
            }
            // what was not read cannot be compared, as NaN is not equal to itself
            (Node::TooDeep { .. }, _) | (_, Node::TooDeep { .. }) => false,
            (Node::Raw(_) | Node::RawOwned(_), _) | (_, Node::Raw(_) | Node::RawOwned(_)) => {
                self.to_json() == other.to_json()
            }
            _ => false,
        }
    }
}

impl Drop for Node<'_> {
    /// Frees the tree without recursion: a child that has children of its own is moved
    /// onto a stack first, so a tree of any depth (hand-built, or grown by mutations)
    /// is freed in constant stack space. The derived drop recursed once per level and
    /// overflowed the stack on a few tens of thousands.
    fn drop(&mut self) {
        let mut stack = Vec::new();
        take_nested(self, &mut stack);
        while let Some(mut n) = stack.pop() {
            take_nested(&mut n, &mut stack);
            // `n` is freed here: its children are leaves or emptied containers
        }
    }
}

/// Moves the children of `n` that have children of their own onto `stack`.
fn take_nested<'a>(n: &mut Node<'a>, stack: &mut Vec<Node<'a>>) {
    let nested = |n: &Node<'_>| match n {
        Node::Arr(a) => !a.is_empty(),
        Node::Obj(f) => !f.is_empty(),
        _ => false,
    };
    match n {
        Node::Arr(items) => {
            for s in items.iter_mut().filter(|s| nested(&s.node)) {
                stack.push(std::mem::replace(&mut s.node, Node::Undefined));
            }
        }
        Node::Obj(fields) => {
            for (_, s) in fields.iter_mut().filter(|(_, s)| nested(&s.node)) {
                stack.push(std::mem::replace(&mut s.node, Node::Undefined));
            }
        }
        _ => {}
    }
}

/// A value and the line that wrote it.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot<'a> {
    /// The index of the writing line in [`crate::decode::Replay::lines`].
    pub origin: u32,
    /// The value.
    pub node: Node<'a>,
}

impl<'a> Slot<'a> {
    /// A slot written by line index `origin`.
    pub fn new(origin: u32, node: Node<'a>) -> Slot<'a> {
        Slot { origin, node }
    }
}

/// Objects of more keys than this keep an index by key beside them ([`Fields`]).
pub const INDEXED_ABOVE: usize = 32;

/// The members of an object, in key order. An object of more than [`INDEXED_ABOVE`]
/// keys also keeps an index from each key to its position, kept in step as members are
/// pushed, so that finding a key in it costs the same however many keys it has: a
/// log that added 160,000 keys to one object, one Set a line, searched every key on
/// every line (51 s). The members are read as a slice (`Deref`); they change only
/// through the methods here, which keep the index right.
///
/// A key is found at its last position (an object the parser built holds each key
/// once: a duplicate key keeps its first position and takes the last value, as
/// `JSON.parse` does, and a mutation sets a key it finds rather than pushing it again).
#[derive(Clone, Default)]
pub struct Fields<'a> {
    list: Vec<(Cow<'a, str>, Slot<'a>)>,
    // boxed: a map is 48 bytes, a box 8, and the box keeps `Fields` (and so every
    // `Node` of the tree) as small as a plain vector of members
    #[allow(clippy::box_collection)]
    index: Option<Box<HashMap<Cow<'a, str>, usize>>>,
}

impl<'a> Fields<'a> {
    /// No members.
    pub fn new() -> Fields<'a> {
        Fields::default()
    }

    /// The members of `list` and, when the parser made one, the index of their
    /// positions (each key once).
    pub(crate) fn from_parts(
        list: Vec<(Cow<'a, str>, Slot<'a>)>,
        index: Option<HashMap<Cow<'a, str>, usize>>,
    ) -> Fields<'a> {
        match index {
            Some(ix) if list.len() > INDEXED_ABOVE => Fields {
                list,
                index: Some(Box::new(ix)),
            },
            _ => Fields::from(list),
        }
    }

    fn build_index(&mut self) {
        let mut ix = HashMap::with_capacity(self.list.len());
        for (i, (k, _)) in self.list.iter().enumerate() {
            ix.insert(k.clone(), i);
        }
        self.index = Some(Box::new(ix));
    }

    /// The position of the member `key` (its last, when it is there twice).
    #[inline]
    pub fn position(&self, key: &str) -> Option<usize> {
        if let Some(ix) = &self.index {
            return ix.get(key).copied();
        }
        // lengths and first bytes first: keys are short and most differ there, where
        // a comparison call would cost more than the comparison
        let kb = key.as_bytes();
        self.list.iter().rposition(|(k, _)| {
            let k = k.as_bytes();
            k.len() == kb.len() && k.first() == kb.first() && k == kb
        })
    }

    /// The value of the member `key`.
    #[inline]
    pub fn get(&self, key: &str) -> Option<&Slot<'a>> {
        self.position(key).map(|i| &self.list[i].1)
    }

    /// The value of the member `key`, to change.
    #[inline]
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Slot<'a>> {
        self.position(key).map(|i| &mut self.list[i].1)
    }

    /// The value at position `i`, to change.
    pub fn value_mut(&mut self, i: usize) -> Option<&mut Slot<'a>> {
        self.list.get_mut(i).map(|(_, v)| v)
    }

    /// Appends a member (found from now on for its key, also if the key was there).
    pub fn push(&mut self, key: Cow<'a, str>, value: Slot<'a>) {
        let at = self.list.len();
        match &mut self.index {
            Some(ix) => {
                ix.insert(key.clone(), at);
                self.list.push((key, value));
            }
            None => {
                self.list.push((key, value));
                if self.list.len() > INDEXED_ABOVE {
                    self.build_index();
                }
            }
        }
    }

    /// The members, their values to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&Cow<'a, str>, &mut Slot<'a>)> {
        self.list.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// The members, moved out.
    pub fn into_vec(self) -> Vec<(Cow<'a, str>, Slot<'a>)> {
        self.list
    }
}

impl<'a> std::ops::Deref for Fields<'a> {
    type Target = [(Cow<'a, str>, Slot<'a>)];
    fn deref(&self) -> &Self::Target {
        &self.list
    }
}

impl<'a> From<Vec<(Cow<'a, str>, Slot<'a>)>> for Fields<'a> {
    fn from(list: Vec<(Cow<'a, str>, Slot<'a>)>) -> Fields<'a> {
        let mut f = Fields { list, index: None };
        if f.list.len() > INDEXED_ABOVE {
            f.build_index();
        }
        f
    }
}

impl<'a> FromIterator<(Cow<'a, str>, Slot<'a>)> for Fields<'a> {
    fn from_iter<I: IntoIterator<Item = (Cow<'a, str>, Slot<'a>)>>(iter: I) -> Fields<'a> {
        Fields::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl<'a> IntoIterator for Fields<'a> {
    type Item = (Cow<'a, str>, Slot<'a>);
    type IntoIter = std::vec::IntoIter<(Cow<'a, str>, Slot<'a>)>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter()
    }
}

impl<'f, 'a> IntoIterator for &'f Fields<'a> {
    type Item = &'f (Cow<'a, str>, Slot<'a>);
    type IntoIter = std::slice::Iter<'f, (Cow<'a, str>, Slot<'a>)>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl PartialEq for Fields<'_> {
    /// The same members in the same order (the index is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list
    }
}

impl fmt::Debug for Fields<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.list).finish()
    }
}

/// Keys whose values are kept unparsed at first: no row reads them, and together
/// they hold most of a session's bytes (tool-call rounds in `result`, attachments in
/// `variableData`, participant descriptions in `agent`, edits in `edits` ...). A
/// mutation that walks into one parses it then; rows never need to.
pub(crate) fn is_raw_key(key: &str) -> bool {
    // by length first: every member of every object is asked, and most keys have a
    // length no lazy key has
    match key.len() {
        4 => matches!(key, "uris" | "data"),
        5 => matches!(key, "usage" | "parts" | "agent" | "edits" | "range"),
        6 => matches!(key, "result"),
        7 => matches!(key, "command"),
        8 => matches!(key, "repoData" | "location" | "treeData"),
        9 => matches!(key, "followups"),
        10 => matches!(key, "inputState"),
        11 => matches!(key, "usedContext" | "editorRange" | "extensionId"),
        12 => matches!(key, "variableData" | "outputBuffer" | "slashCommand"),
        13 => matches!(key, "codeCitations" | "workspaceEdit" | "multiDiffData"),
        15 => matches!(key, "pendingRequests" | "sessionCostInfo"),
        16 => matches!(key, "editedFileEvents"),
        17 => matches!(key, "contentReferences"),
        18 => matches!(key, "promptTokenDetails"),
        20 => matches!(key, "responseMarkdownInfo"),
        _ => false,
    }
}

/// How a subtree is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Keep the subtrees no row reads (`result`, `variableData` ...) unparsed.
    Lazy,
    /// Parse everything.
    Full,
}

/// Parses a raw subtree one more level (its own lazy keys stay raw).
pub(crate) fn expand(raw: &str, origin: u32, depth: Depth) -> Node<'_> {
    super::json::parse(raw, origin, depth).unwrap_or(Node::Undefined)
}

/// Like [`expand`], for an owned raw subtree.
pub(crate) fn expand_owned(raw: &str, origin: u32, depth: Depth) -> Node<'static> {
    into_static(expand(raw, origin, depth))
}

/// Moves a node into one that owns all its data. It recurses once per level of the
/// tree, plain loops keeping each level's frame small (a tree is at most
/// [`super::MAX_TREE_DEPTH`] deep).
pub fn into_static(mut n: Node<'_>) -> Node<'static> {
    match &mut n {
        Node::Undefined => Node::Undefined,
        Node::Null => Node::Null,
        Node::Bool(b) => Node::Bool(*b),
        Node::Num(x) => Node::Num(*x),
        Node::Str(s) => Node::Str(Cow::Owned(std::mem::take(s).into_owned())),
        Node::Esc(r) => Node::Str(Cow::Owned(super::json::unescape(r))),
        Node::Arr(a) => {
            let mut out = Vec::with_capacity(a.len());
            for s in a.iter_mut() {
                out.push(Slot::new(s.origin, into_static(s.node.take())));
            }
            Node::Arr(out)
        }
        Node::Obj(f) => {
            let mut out = Vec::with_capacity(f.len());
            for (k, mut s) in std::mem::take(f) {
                let node = into_static(s.node.take());
                out.push((Cow::Owned(k.into_owned()), Slot::new(s.origin, node)));
            }
            Node::Obj(out.into())
        }
        Node::Raw(r) => Node::RawOwned((*r).into()),
        Node::RawOwned(r) => Node::RawOwned(std::mem::take(r)),
        Node::TooDeep { object } => Node::TooDeep { object: *object },
    }
}

impl<'a> Node<'a> {
    /// Moves the value out, leaving `undefined` (a node frees its tree without
    /// recursion, see its `Drop`, so its contents are moved out rather than matched by
    /// value).
    pub fn take(&mut self) -> Node<'a> {
        std::mem::replace(self, Node::Undefined)
    }

    /// The elements of an array, moved out; `None` for any other value.
    pub fn into_items(mut self) -> Option<Vec<Slot<'a>>> {
        match &mut self {
            Node::Arr(a) => Some(std::mem::take(a)),
            _ => None,
        }
    }

    /// The members of an object, moved out; `None` for any other value.
    pub fn into_fields(mut self) -> Option<Fields<'a>> {
        match &mut self {
            Node::Obj(f) => Some(std::mem::take(f)),
            _ => None,
        }
    }

    /// Replaces a raw subtree by its parsed form, in place (one level).
    pub fn materialize(&mut self, origin: u32) {
        if let Node::Raw(r) = *self {
            *self = expand(r, origin, Depth::Lazy);
        } else if let Node::RawOwned(r) = self {
            *self = expand_owned(r, origin, Depth::Lazy);
        }
    }

    /// The parsed form of a raw subtree, or the node itself.
    pub fn view(&self, origin: u32) -> Cow<'_, Node<'a>> {
        match *self {
            Node::Raw(r) => Cow::Owned(expand(r, origin, Depth::Lazy)),
            Node::RawOwned(ref r) => Cow::Owned(expand_owned(r, origin, Depth::Lazy)),
            ref n => Cow::Borrowed(n),
        }
    }

    /// The value under `key` of an object (a parsed object only; see [`Node::view`]).
    pub fn get(&self, key: &str) -> Option<&Slot<'a>> {
        match self {
            Node::Obj(f) => f.get(key),
            _ => None,
        }
    }

    /// The string, decoded, if this is one.
    pub fn text(&self) -> Option<Cow<'_, str>> {
        match self {
            Node::Str(s) => Some(Cow::Borrowed(s)),
            Node::Esc(r) => Some(Cow::Owned(super::json::unescape(r))),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Node::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Slot<'a>]> {
        match self {
            Node::Arr(a) => Some(a),
            _ => None,
        }
    }

    /// True for `undefined`.
    pub fn is_undefined(&self) -> bool {
        matches!(self, Node::Undefined)
    }

    /// JavaScript truthiness (`||`): false for undefined, null, false, 0, NaN and "".
    pub fn truthy(&self) -> bool {
        match self {
            Node::Undefined | Node::Null => false,
            Node::Bool(b) => *b,
            Node::Num(n) => *n != 0.0 && !n.is_nan(),
            Node::Str(s) => !s.is_empty(),
            Node::Esc(r) => !r.is_empty(),
            _ => true,
        }
    }

    /// A short name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Node::Undefined => "undefined",
            Node::Null => "null",
            Node::Bool(_) => "boolean",
            Node::Num(_) => "number",
            Node::Str(_) | Node::Esc(_) => "string",
            Node::Arr(_) => "array",
            Node::Obj(_) => "object",
            Node::Raw(r) => raw_type(r),
            Node::RawOwned(r) => raw_type(r),
            Node::TooDeep { object: true } => "object",
            Node::TooDeep { object: false } => "array",
        }
    }

    /// Converts the node (fully) into a `serde_json::Value`, as after a JSON round trip:
    /// undefined object members are left out and undefined array elements become null.
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            // a value too deep to read is written as `null` (see the variant)
            Node::Undefined | Node::Null | Node::TooDeep { .. } => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Num(n) => js_number_value(*n),
            Node::Str(s) => Value::String(s.to_string()),
            Node::Esc(r) => Value::String(super::json::unescape(r)),
            // plain loops: one small frame per level of the tree
            Node::Arr(a) => {
                let mut out = Vec::with_capacity(a.len());
                for s in a.iter() {
                    out.push(s.node.to_value());
                }
                Value::Array(out)
            }
            Node::Obj(f) => {
                let mut out = serde_json::Map::new();
                for (k, v) in f.iter() {
                    if !v.node.is_undefined() {
                        out.insert(k.to_string(), v.node.to_value());
                    }
                }
                Value::Object(out)
            }
            Node::Raw(_) | Node::RawOwned(_) => self.view(0).to_value(),
        }
    }

    /// Writes the node as compact JSON, as `JSON.stringify` would (see [`Node::to_value`]
    /// for undefined; numbers are printed as JavaScript prints them; a lone surrogate
    /// escape is U+FFFD). The fast writer of [`super::write`].
    pub fn write_json(&self, out: &mut String) {
        let mut bytes = std::mem::take(out).into_bytes();
        super::write::append_node(self, &mut bytes);
        // the writer writes whole characters only
        *out = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
    }

    /// The node as compact JSON (see [`Node::write_json`]).
    pub fn to_json(&self) -> String {
        let mut s = String::new();
        self.write_json(&mut s);
        s
    }

    /// Converts a `serde_json::Value` into an owned node, every value from `origin`.
    pub fn from_value(v: &serde_json::Value, origin: u32) -> Node<'static> {
        use serde_json::Value;
        match v {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Num(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => Node::Str(Cow::Owned(s.clone())),
            Value::Array(a) => {
                let mut out = Vec::with_capacity(a.len());
                for x in a {
                    out.push(Slot::new(origin, Node::from_value(x, origin)));
                }
                Node::Arr(out)
            }
            Value::Object(o) => {
                let mut out = Vec::with_capacity(o.len());
                for (k, x) in o {
                    let node = Node::from_value(x, origin);
                    out.push((Cow::Owned(k.clone()), Slot::new(origin, node)));
                }
                Node::Obj(out.into())
            }
        }
    }
}

fn raw_type(s: &str) -> &'static str {
    match s.trim_start().as_bytes().first() {
        Some(b'{') => "object",
        Some(b'[') => "array",
        Some(b'"') => "string",
        Some(b't' | b'f') => "boolean",
        Some(b'n') => "null",
        _ => "number",
    }
}

/// Prints a number as JavaScript's `String(n)` does (for the forms JSON can hold).
pub fn js_number(n: f64) -> String {
    if !n.is_finite() {
        return "null".to_string();
    }
    if n == 0.0 {
        return "0".to_string();
    }
    let a = n.abs();
    // Rust's Display prints the shortest round-trip digits without an exponent, as
    // JavaScript does in this range
    if (1e-6..1e21).contains(&a) {
        return format!("{n}");
    }
    // exponent form: 1.5e+21, 1e-7
    let s = format!("{n:e}");
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => s,
    }
}

fn js_number_value(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
        serde_json::Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Node<'_> {
        super::super::json::parse(s, 0, Depth::Lazy).unwrap()
    }

    #[test]
    fn borrows_and_keeps_lazy_keys_raw() {
        let n = parse(r#"{"a":"x","result":{"metadata":[1,2]},"b":"\n"}"#);
        let Node::Obj(f) = &n else { panic!() };
        assert!(matches!(&f[0].1.node, Node::Str(Cow::Borrowed("x"))));
        assert!(matches!(&f[1].1.node, Node::Raw(r) if *r == r#"{"metadata":[1,2]}"#));
        assert!(matches!(&f[2].1.node, Node::Esc(r) if *r == "\\n"));
    }

    /// A key of a small alphabet, so that sequences repeat keys.
    fn key(x: u64, alphabet: u64) -> String {
        format!("k{}", x % alphabet)
    }

    #[test]
    fn the_index_finds_what_the_linear_search_finds() {
        // the search before the index: the last member of the key
        fn linear(list: &[(String, f64)], key: &str) -> Option<usize> {
            list.iter().rposition(|(k, _)| k == key)
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut indexed = 0;
        for round in 0..400u64 {
            let alphabet = 1 + round % 90;
            // a start made at once (with duplicates) or empty, then pushes
            let start = (next() % 70) as usize;
            let mut model: Vec<(String, f64)> = (0..start)
                .map(|i| (key(next(), alphabet), i as f64))
                .collect();
            let mut fields = Fields::from(
                model
                    .iter()
                    .map(|(k, v)| (Cow::Owned(k.clone()), Slot::new(0, Node::Num(*v))))
                    .collect::<Vec<_>>(),
            );
            for step in 0..120 {
                let k = key(next(), alphabet + 3);
                match next() % 3 {
                    // push a key (maybe present: found at its new, last position)
                    0 => {
                        model.push((k.clone(), step as f64));
                        fields.push(Cow::Owned(k.clone()), Slot::new(0, Node::Num(step as f64)));
                    }
                    // set the member found, as a Set does
                    1 => {
                        if let Some(p) = linear(&model, &k) {
                            model[p].1 = -(step as f64);
                        }
                        if let Some(s) = fields.get_mut(&k) {
                            s.node = Node::Num(-(step as f64));
                        }
                    }
                    _ => {}
                }
                assert_eq!(fields.position(&k), linear(&model, &k), "round {round}");
                let want = linear(&model, &k).map(|p| model[p].1);
                assert_eq!(fields.get(&k).and_then(|s| s.node.as_f64()), want);
                assert_eq!(fields.len(), model.len());
            }
            let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_ref()).collect();
            let model_keys: Vec<&str> = model.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, model_keys);
            indexed += usize::from(fields.index.is_some());
            // a copy and a conversion keep finding the same
            let copy: Fields<'static> = fields
                .iter()
                .map(|(k, s)| (Cow::Owned(k.to_string()), s.clone()))
                .collect();
            for a in 0..alphabet + 3 {
                let k = key(a, u64::MAX);
                assert_eq!(copy.position(&k), linear(&model, &k));
                assert_eq!(fields.clone().position(&k), linear(&model, &k));
            }
        }
        // both ways were taken
        assert!(indexed > 100 && indexed < 400, "{indexed}");
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn the_index_does_not_grow_the_tree() {
        assert_eq!(std::mem::size_of::<Fields<'_>>(), 32);
        assert_eq!(std::mem::size_of::<Node<'_>>(), 32);
        assert_eq!(std::mem::size_of::<Slot<'_>>(), 40);
    }

    #[test]
    fn the_parsers_index_is_the_objects() {
        // 40 keys, `k3` twice: first position, last value, found through the index
        let text = format!(
            "{{{},\"k3\":\"last\"}}",
            (0..40)
                .map(|i| format!("\"k{i}\":{i}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let Some(f) = parse(&text).into_fields() else {
            panic!()
        };
        assert!(f.index.is_some());
        assert_eq!(f.len(), 40);
        assert_eq!(f.position("k3"), Some(3));
        assert_eq!(
            f.get("k3").and_then(|s| s.node.text()).as_deref(),
            Some("last")
        );
        assert_eq!(f.position("k39"), Some(39));
        assert_eq!(f.position("k40"), None);
    }

    #[test]
    fn duplicate_keys_keep_first_position_last_value() {
        let n = parse(r#"{"a":1,"b":2,"a":3}"#);
        assert_eq!(n.to_json(), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn js_numbers() {
        assert_eq!(js_number(9007199254740993.0), "9007199254740992");
        assert_eq!(js_number(1.5), "1.5");
        assert_eq!(js_number(1e21), "1e+21");
        assert_eq!(js_number(1.5e-7), "1.5e-7");
        assert_eq!(js_number(-0.0), "0");
        assert_eq!(
            parse("12345678901234567890").to_json(),
            "12345678901234567000"
        );
    }
}
