//! The mutation log (`chatSessions/<id>.jsonl`) and its replay, with VS Code's exact
//! semantics (`objectMutationLog.ts`), forensically.
//!
//! VS Code's reader is all-or-nothing: the first line that does not parse, or the first
//! mutation it cannot apply, makes it throw, and the chat silently disappears from the
//! user's list while staying on disk. [`Replay`] applies every line it can, keeps a
//! [`LineError`] for each one it cannot, goes on, and says in [`Replay::refusal`]
//! whether (and why) VS Code itself would have refused the file.
//!
//! For every log VS Code loads, [`Replay::state`] equals VS Code's state after a JSON
//! round trip ([`Replay::to_json`]). Each value remembers the line that wrote it, so
//! rows carry `source_line` and `byte <offset>`. Values that a later line removed or
//! replaced (truncated requests, regenerated answers) are kept in
//! [`Replay::recovered`]; streaming growth of the same part is not.
//!
//! The tree borrows from the input (see [`node`]), which is what keeps replay of a
//! 100 MB first line at parse speed and its memory near the file's size.

pub mod json;
pub mod node;
pub mod write;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

pub use node::{Depth, Fields, Node, Slot};

use crate::Error;

/// Holes an array may grow by in one mutation. JavaScript arrays are sparse; ours are
/// not, so a mutation asking for more is reported instead of allocating.
pub const MAX_HOLES: usize = 1 << 20;

/// Holes all the mutations of one log may create together: as many as one mutation
/// may. Without it, every line of a few dozen bytes could add [`MAX_HOLES`] elements
/// (9 KB of log asked for 10 GB).
pub const MAX_TOTAL_HOLES: usize = MAX_HOLES;

/// Takes `n` holes from what the log has `left`; false (nothing taken) when too many.
fn spend_holes(left: &mut usize, n: usize) -> bool {
    match left.checked_sub(n) {
        Some(rest) => {
            *left = rest;
            true
        }
        None => false,
    }
}

fn too_many_holes(what: String, n: usize, left: usize) -> NotApplied {
    benign(format!(
        "{what} would add {n} holes, more than the {left} this log has left of {MAX_TOTAL_HOLES}"
    ))
}

/// Deepest tree the mutations may build: twice the nesting one line may hold
/// ([`json::MAX_DEPTH`]), arrays and objects counted, an unparsed subtree by its text.
/// Each line is within [`json::MAX_DEPTH`], but a Set or Push at a long path puts its
/// value below what earlier lines built, and 3 MB of log grew a tree 37,000 levels deep
/// (every walk of the tree recursed once per level). A mutation that would go deeper
/// is reported as not applied, without the refusal: VS Code would apply it.
pub const MAX_TREE_DEPTH: usize = 2 * json::MAX_DEPTH;

/// The levels of arrays and objects in `v` (0 for a scalar), an unparsed subtree
/// counted by its text.
fn nesting(v: &Node<'_>) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 0usize)];
    while let Some((n, d)) = stack.pop() {
        match n {
            Node::Arr(items) => {
                deepest = deepest.max(d + 1);
                stack.extend(items.iter().map(|s| (&s.node, d + 1)));
            }
            Node::Obj(fields) => {
                deepest = deepest.max(d + 1);
                stack.extend(fields.iter().map(|(_, s)| (&s.node, d + 1)));
            }
            Node::Raw(r) => deepest = deepest.max(d + text_nesting(r)),
            Node::RawOwned(r) => deepest = deepest.max(d + text_nesting(r)),
            _ => {}
        }
    }
    deepest
}

/// The nesting of valid JSON text: brackets outside strings.
fn text_nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &c in text.as_bytes() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Refuses a value of `nest` levels (see [`nesting`]) at a path `at` segments long
/// when the tree would be deeper than [`MAX_TREE_DEPTH`]. `nest` is computed only for
/// long paths: a value from one line is at most [`json::MAX_DEPTH`] - 1 deep.
fn check_depth(at: usize, nest: impl FnOnce() -> usize) -> Result<(), NotApplied> {
    if at + json::MAX_DEPTH - 1 <= MAX_TREE_DEPTH {
        return Ok(());
    }
    let depth = at + nest();
    if depth > MAX_TREE_DEPTH {
        return Err(benign(format!(
            "the tree would be {depth} levels deep, more than the {MAX_TREE_DEPTH} this reader builds"
        )));
    }
    Ok(())
}

/// One non-empty line of the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineInfo {
    /// 1-based line number, as an editor counts (every `\n` counts).
    pub number: u64,
    /// Byte offset of the line's first byte.
    pub offset: u64,
    /// Length in bytes, without the `\n`.
    pub len: u64,
}

/// A line that could not be read or applied.
#[derive(Debug)]
pub struct LineError {
    /// Index of the line in [`Replay::lines`].
    pub index: u32,
    /// What went wrong, with the line and offset.
    pub error: Error,
}

/// What VS Code would have thrown on the file (its reader stops at the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The 1-based line, or `None` for the whole file (an empty log).
    pub line: Option<u64>,
    /// The error, in VS Code's words where its source gives them.
    pub reason: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

/// What a recovered value was.
#[derive(Clone, Debug, PartialEq)]
pub enum RecoveredKind {
    /// A whole request (prompt and response) that the state no longer holds.
    Request,
    /// Response parts of a request that were replaced by different ones or removed.
    Parts {
        /// What the rows read of the request the parts belonged to, as it was when
        /// they were removed: an object of its `timestamp`, `modelId`,
        /// `responseTimestamp`, `timeSpentWaiting`, `modelState.completedAt` and
        /// `result.metadata.resolvedModel`, where they are there (see
        /// `request_summary`). Not the whole request: a copy of it for every line
        /// that replaced a part made memory the number of such lines times the
        /// request's size (20,000 replaced parts of one long reply took 1.45 GB).
        request: Box<Node<'static>>,
    },
    /// Prompts of a request that a later line overwrote with a different one (a Set of
    /// its `message` or `message.text`, or a rewrite of the request that kept its
    /// `requestId`): each value is the old prompt's text, from the line that wrote it.
    Prompt {
        /// What the row reads of the request, as it was when the prompt was
        /// overwritten: an object of its `timestamp` and `modelId`, where they are there
        /// (the user row's time and model).
        request: Box<Node<'static>>,
    },
}

/// A value a later line removed from the state; the file still holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered<'a> {
    /// Request or response parts.
    pub kind: RecoveredKind,
    /// The removed values (one request, or the parts in order).
    pub values: Vec<Slot<'a>>,
    /// Index in [`Replay::lines`] of the line that removed them.
    pub removed_by: u32,
}

/// A replayed session log. See the module docs.
#[derive(Debug)]
pub struct Replay<'a> {
    input: &'a [u8],
    lines: Vec<LineInfo>,
    state: Option<Slot<'a>>,
    errors: Vec<LineError>,
    refusal: Option<Refusal>,
    recovered: Vec<Recovered<'a>>,
    /// Holes the log may still create (see [`MAX_TOTAL_HOLES`]).
    holes: usize,
    /// Each request's resolved model, as the rows of its recovered parts read it, by
    /// its index under `requests` (see [`Replay::forget_models`]). Ordered, so that a
    /// Push with `i` onto the list forgets those at `i` and above in the time of what
    /// it forgets: a retain over every memo took a log of N pushes, each followed by a
    /// part replaced, time in N² (16,000 pushes: 2.65 s, 32,000: 12.3 s).
    models: BTreeMap<usize, ModelMemo>,
}

/// A request's resolved model ([`crate::rows::resolved_model`]), kept from its first
/// replaced part to the next line that may change it: finding it reads all of an
/// unparsed `result`, and once per replaced part, a log of many Sets of one part
/// beside a 2 MB `result` took time in their number times its size.
#[derive(Debug)]
struct ModelMemo {
    model: Option<(String, u32)>,
    /// `result` was unparsed: a line that parses it may change what is found (the
    /// search of the unparsed text looks for the key as written, unescaped).
    raw_result: bool,
}

/// One decoded line.
struct Entry<'a> {
    kind: Node<'a>,
    k: Option<Node<'a>>,
    v: Option<Node<'a>>,
    i: Option<Node<'a>>,
}

/// The entry a parsed line holds: `None` when the line is not a JSON object.
fn entry_of(node: Node<'_>) -> Option<Entry<'_>> {
    let fields = node.into_fields()?;
    let mut e = Entry {
        kind: Node::Undefined,
        k: None,
        v: None,
        i: None,
    };
    // the object already holds the last of duplicate keys, as JSON.parse does
    for (key, slot) in fields {
        match key.as_ref() {
            "kind" => e.kind = slot.node,
            "k" => e.k = Some(slot.node),
            "v" => e.v = Some(slot.node),
            "i" => e.i = Some(slot.node),
            _ => {}
        }
    }
    Some(e)
}

/// A path segment as JavaScript's property access sees it: a property key string.
fn js_key<'a>(n: &Node<'a>) -> Cow<'a, str> {
    Cow::Owned(match n {
        Node::Str(Cow::Borrowed(s)) => return Cow::Borrowed(s),
        Node::Str(_) | Node::Esc(_) => n.text().unwrap_or_default().into_owned(),
        // an array index, as most numbers in paths are: no float formatting
        Node::Num(x) if *x >= 0.0 && *x < 1e15 && x.fract() == 0.0 => (*x as u64).to_string(),
        Node::Num(x) => node::js_number(*x).replace("null", "NaN"),
        Node::Bool(b) => b.to_string(),
        Node::Null => "null".into(),
        Node::Undefined => "undefined".into(),
        Node::Arr(a) => a
            .iter()
            .map(|s| js_key(&s.node))
            .collect::<Vec<_>>()
            .join(","),
        Node::Obj(_) | Node::Raw(_) | Node::RawOwned(_) => "[object Object]".into(),
        // never in a path: a line's path elements are three levels deep
        Node::TooDeep { .. } => "[not read]".into(),
    })
}

/// The array index a property key names (a canonical integer below 2^32 - 1).
fn array_index(key: &str) -> Option<usize> {
    if key == "0" {
        return Some(0);
    }
    if key.is_empty()
        || key.starts_with('0')
        || !key.bytes().all(|b| b.is_ascii_digit())
        || key.len() > 10
    {
        return None;
    }
    let n: u64 = key.parse().ok()?;
    (n < u32::MAX as u64).then_some(n as usize)
}

/// `ToNumber` of a Push's `i`, then the `arr.length = i` check (RangeError).
fn to_length(n: &Node<'_>) -> Result<usize, String> {
    let x = match n {
        Node::Num(x) => *x,
        Node::Bool(b) => f64::from(u8::from(*b)),
        Node::Null => 0.0,
        Node::Str(_) | Node::Esc(_) => {
            let s = n.text().unwrap_or_default();
            let t = s.trim();
            if t.is_empty() {
                0.0
            } else {
                t.parse::<f64>().unwrap_or(f64::NAN)
            }
        }
        _ => f64::NAN,
    };
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x < 4_294_967_296.0 {
        Ok(x as usize)
    } else {
        Err(format!("RangeError: Invalid array length {}", js_key(n)))
    }
}

/// Why a mutation was not applied, and whether VS Code would have thrown.
struct NotApplied {
    why: String,
    fatal: bool,
}

fn fatal(why: impl Into<String>) -> NotApplied {
    NotApplied {
        why: why.into(),
        fatal: true,
    }
}

fn benign(why: impl Into<String>) -> NotApplied {
    NotApplied {
        why: why.into(),
        fatal: false,
    }
}

/// What a mutation removed, for recovery.
struct Removed<'a> {
    path: Vec<Cow<'a, str>>,
    /// For arrays: the index of the first removed element.
    start: usize,
    old: Vec<Slot<'a>>,
    /// True when `old` are the elements of a replaced array (not one value).
    elements: bool,
}

fn path_text(path: &[Cow<'_, str>]) -> String {
    format!("[{}]", path.join(", "))
}

/// Walks `path` from `slot` (materialising raw subtrees), as `cur = cur[seg]`.
fn walk<'t, 'a>(
    mut slot: &'t mut Slot<'a>,
    path: &[Cow<'_, str>],
) -> Result<&'t mut Slot<'a>, NotApplied> {
    for (depth, seg) in path.iter().enumerate() {
        let origin = slot.origin;
        slot.node.materialize(origin);
        let here = || path_text(&path[..depth]);
        let next = match &mut slot.node {
            Node::Obj(fields) => fields.get_mut(seg),
            Node::Arr(items) => match array_index(seg) {
                Some(i) => items.get_mut(i),
                None => None,
            },
            Node::TooDeep { .. } => return Err(not_read(&path[..depth])),
            other => {
                return Err(fatal(format!(
                    "TypeError: {} is {} {}, cannot read {seg}",
                    here(),
                    article(other.type_name()),
                    other.type_name()
                )));
            }
        };
        match next {
            Some(s) if !matches!(s.node, Node::Undefined | Node::Null) => slot = s,
            Some(s) => {
                return Err(fatal(format!(
                    "TypeError: {} is {}",
                    path_text(&path[..=depth]),
                    s.node.type_name()
                )));
            }
            None => {
                return Err(fatal(format!(
                    "TypeError: {} is undefined",
                    path_text(&path[..=depth])
                )));
            }
        }
    }
    Ok(slot)
}

/// A mutation into a value that was nested too deep to read ([`Node::TooDeep`]):
/// not applied, without the refusal (VS Code read the value and would apply it).
fn not_read(at: &[Cow<'_, str>]) -> NotApplied {
    benign(format!(
        "{} was nested deeper than {} levels and not read",
        path_text(at),
        json::MAX_DEPTH
    ))
}

fn article(t: &str) -> &'static str {
    match t.as_bytes().first() {
        Some(b'a' | b'o' | b'u') => "an",
        _ => "a",
    }
}

fn origin_line(lines: &[LineInfo], idx: u32) -> Option<u64> {
    lines.get(idx as usize).map(|l| l.number)
}

impl<'a> Replay<'a> {
    /// Replays a whole log held in memory. Never fails: see [`Replay::errors`] and
    /// [`Replay::refusal`].
    pub fn from_bytes(input: &'a [u8]) -> Replay<'a> {
        let mut r = Replay {
            input,
            lines: Vec::new(),
            state: None,
            errors: Vec::new(),
            refusal: None,
            recovered: Vec::new(),
            holes: MAX_TOTAL_HOLES,
            models: BTreeMap::new(),
        };
        let mut pos = 0usize;
        let mut number = 0u64;
        let mut scratch = json::Scratch::default();
        while pos < input.len() {
            number += 1;
            // the usual line, an object as VS Code writes it: parsed in the same pass
            // that finds its end (see `json::parse_line`)
            if input[pos] == b'{' {
                let index = r.lines.len() as u32;
                if let Some((node, end)) = json::parse_line(input, pos, index, &mut scratch) {
                    r.lines.push(LineInfo {
                        number,
                        offset: pos as u64,
                        len: (end - pos) as u64,
                    });
                    if let Some(deep) = scratch.too_deep() {
                        r.too_deep(index, number, pos as u64, deep.first as u64, deep.count);
                    }
                    r.entry(index, number, pos as u64, entry_of(node));
                    pos = (end + 1).min(input.len());
                    continue;
                }
            }
            let (end, next) = match memchr::memchr(b'\n', &input[pos..]) {
                Some(i) => (pos + i, pos + i + 1),
                None => (input.len(), input.len()),
            };
            if end > pos {
                r.line(number, pos, end);
            }
            pos = next;
        }
        if r.lines.is_empty() {
            r.refuse(None, "Error: Empty log file".to_string());
        }
        r
    }

    fn refuse(&mut self, line: Option<u64>, reason: String) {
        if self.refusal.is_none() {
            self.refusal = Some(Refusal { line, reason });
        }
    }

    fn error(&mut self, index: u32, error: Error, fatal: bool) {
        if fatal {
            let line = self.lines.get(index as usize).map(|l| l.number);
            self.refuse(line, error.reason());
        }
        self.errors.push(LineError { index, error });
    }

    /// Notes values of the line at `index` skipped for being nested too deep (`at`:
    /// the first one's offset in the file): a row, never a refusal.
    fn too_deep(&mut self, index: u32, number: u64, offset: u64, at: u64, count: usize) {
        self.errors.push(LineError {
            index,
            error: Error::TooDeep {
                line: number,
                offset,
                at,
                count,
            },
        });
    }

    fn line(&mut self, number: u64, start: usize, end: usize) {
        let index = self.lines.len() as u32;
        self.lines.push(LineInfo {
            number,
            offset: start as u64,
            len: (end - start) as u64,
        });
        let mut bytes = &self.input[start..end];
        let offset = start as u64;
        let mut text_start = offset;
        if bytes.starts_with(b"\xEF\xBB\xBF") {
            // JSON.parse rejects U+FEFF; we read past it and say VS Code would not
            self.refuse(
                Some(number),
                "SyntaxError: the line starts with a byte order mark (U+FEFF)".into(),
            );
            bytes = &bytes[3..];
            text_start += 3;
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            self.error(
                index,
                Error::Blank {
                    line: number,
                    offset,
                },
                true,
            );
            return;
        }
        // VS Code decodes with U+FFFD for invalid bytes and parses what results
        // (the offsets of a line decoded with U+FFFD are those of the decoded text)
        let entry = match std::str::from_utf8(bytes) {
            Ok(t) => json::parse_noting_depth(t, index, Depth::Lazy).map(|(n, d)| (entry_of(n), d)),
            Err(_) => {
                let t = String::from_utf8_lossy(bytes).into_owned();
                json::parse_noting_depth(&t, index, Depth::Lazy)
                    .map(|(n, d)| (entry_of(node::into_static(n)), d))
            }
        };
        let entry = match entry {
            Ok((e, deep)) => {
                if let Some(d) = deep {
                    self.too_deep(index, number, offset, text_start + d.first as u64, d.count);
                }
                e
            }
            Err(e) => {
                let torn = e.eof && end == self.input.len();
                let reason = if torn {
                    format!("torn last line: {e}")
                } else {
                    e.to_string()
                };
                self.error(
                    index,
                    Error::Json {
                        line: number,
                        offset,
                        reason,
                    },
                    true,
                );
                return;
            }
        };
        self.entry(index, number, offset, entry);
    }

    /// Applies a parsed line (`None`: not a JSON object).
    fn entry(&mut self, index: u32, number: u64, offset: u64, entry: Option<Entry<'a>>) {
        let Some(entry) = entry else {
            self.error(
                index,
                Error::Kind {
                    line: number,
                    offset,
                    kind: "missing".into(),
                },
                true,
            );
            return;
        };
        let kind = match entry.kind {
            Node::Num(k) if k == 0.0 || k == 1.0 || k == 2.0 || k == 3.0 => k as u8,
            ref other => {
                let kind = match other {
                    Node::Undefined => "missing".to_string(),
                    n => n.to_json(),
                };
                self.error(
                    index,
                    Error::Kind {
                        line: number,
                        offset,
                        kind,
                    },
                    true,
                );
                return;
            }
        };
        if kind == 0 {
            self.models.clear();
            let new = Slot::new(index, entry.v.unwrap_or(Node::Undefined));
            let old = self.state.replace(new);
            if let Some(old) = old {
                self.recover(
                    Removed {
                        path: Vec::new(),
                        start: 0,
                        old: vec![old],
                        elements: false,
                    },
                    index,
                );
            }
            return;
        }
        if self.state.is_none() {
            // VS Code: Error("Log file is missing an initial entry"). We go on from an
            // empty session, so that what the later lines add is still read.
            self.refuse(
                Some(number),
                "Error: Log file is missing an initial entry".into(),
            );
            self.errors.push(LineError {
                index,
                error: Error::MissingInitial {
                    line: number,
                    offset,
                },
            });
            self.state = Some(Slot::new(index, Node::Obj(Fields::new())));
        }
        // `k` must be a path; anything else is the TypeError VS Code would throw.
        let path: Result<Vec<Cow<'a, str>>, String> = match &entry.k {
            Some(Node::Arr(items)) => Ok(items.iter().map(|s| js_key(&s.node)).collect()),
            Some(n @ (Node::Str(_) | Node::Esc(_))) => Ok(n
                .text()
                .unwrap_or_default()
                .chars()
                .map(|c| Cow::Owned(c.to_string()))
                .collect()),
            Some(other) => Err(format!(
                "TypeError: k is {} {}, not a path",
                article(other.type_name()),
                other.type_name()
            )),
            None => Err("TypeError: the line has no path k".to_string()),
        };
        let path = match path {
            Ok(path) => path,
            Err(why) => {
                self.error(
                    index,
                    Error::NotApplied {
                        line: number,
                        offset,
                        why,
                    },
                    true,
                );
                return;
            }
        };
        self.forget_models(kind, &path, entry.v.as_ref(), entry.i.as_ref());
        let result = match kind {
            1 => self.apply_set(&path, entry.v.unwrap_or(Node::Undefined), index),
            3 => self.apply_set(&path, Node::Undefined, index),
            _ => self.apply_push(&path, entry.v, entry.i, index),
        };
        match result {
            Ok(Some(removed)) => self.recover(removed, index),
            Ok(None) => {}
            Err(na) => {
                let f = na.fatal;
                self.error(
                    index,
                    Error::NotApplied {
                        line: number,
                        offset,
                        why: na.why,
                    },
                    f,
                );
            }
        }
    }

    fn apply_set(
        &mut self,
        path: &[Cow<'a, str>],
        v: Node<'a>,
        index: u32,
    ) -> Result<Option<Removed<'a>>, NotApplied> {
        let Some((last, parents)) = path.split_last() else {
            // `_applySet`: an empty path is a no-op ("root replacement handled by caller")
            return Err(benign("empty path: VS Code ignores a Set on the root"));
        };
        let root = self.state.as_mut().ok_or_else(|| fatal("no state"))?;
        let parent = walk(root, parents)?;
        check_depth(path.len(), || nesting(&v))?;
        let porigin = parent.origin;
        parent.node.materialize(porigin);
        let new = Slot::new(index, v);
        match &mut parent.node {
            Node::Obj(fields) => {
                if let Some(slot) = fields.get_mut(last) {
                    let old = std::mem::replace(slot, new);
                    return Ok(Some(Removed {
                        path: path.to_vec(),
                        start: 0,
                        old: vec![old],
                        elements: false,
                    }));
                }
                fields.push(last.clone(), new);
                Ok(None)
            }
            Node::Arr(items) => {
                if let Some(i) = array_index(last) {
                    if i < items.len() {
                        let old = std::mem::replace(&mut items[i], new);
                        return Ok(Some(Removed {
                            path: path.to_vec(),
                            start: 0,
                            old: vec![old],
                            elements: false,
                        }));
                    }
                    if i - items.len() > MAX_HOLES {
                        return Err(benign(format!(
                            "index {i} is far past the array's end ({} elements)",
                            items.len()
                        )));
                    }
                    if !spend_holes(&mut self.holes, i - items.len()) {
                        return Err(too_many_holes(
                            format!("index {i}"),
                            i - items.len(),
                            self.holes,
                        ));
                    }
                    items.resize(i, Slot::new(index, Node::Undefined));
                    items.push(new);
                    Ok(None)
                } else if last == "length" {
                    let n = to_length(&new.node).map_err(fatal)?;
                    if n > items.len() + MAX_HOLES {
                        return Err(benign(format!("length {n} is far past the array's end")));
                    }
                    if n > items.len() && !spend_holes(&mut self.holes, n - items.len()) {
                        return Err(too_many_holes(
                            format!("length {n}"),
                            n - items.len(),
                            self.holes,
                        ));
                    }
                    if n < items.len() {
                        let old = items.split_off(n);
                        return Ok(Some(Removed {
                            path: parents.to_vec(),
                            start: n,
                            old,
                            elements: true,
                        }));
                    }
                    items.resize(n, Slot::new(index, Node::Undefined));
                    Ok(None)
                } else {
                    Err(benign(format!(
                        "{last} is not an array index; the property is lost when VS Code writes the session"
                    )))
                }
            }
            Node::TooDeep { .. } => Err(not_read(parents)),
            other => Err(fatal(format!(
                "TypeError: cannot set {last} on {} {}",
                article(other.type_name()),
                other.type_name()
            ))),
        }
    }

    fn apply_push(
        &mut self,
        path: &[Cow<'a, str>],
        v: Option<Node<'a>>,
        i: Option<Node<'a>>,
        index: u32,
    ) -> Result<Option<Removed<'a>>, NotApplied> {
        let undefined: [Cow<'a, str>; 1] = [Cow::Borrowed("undefined")];
        let (last, parents) = path.split_last().unwrap_or((&undefined[0], &[]));
        // `if (values && values.length > 0) arr.push(...values)` (§3.8: only a non-empty
        // array is pushed); whatever `v` is, `i` still truncates and `cur[last] = arr`
        let items = v.and_then(Node::into_items).unwrap_or_default();
        let length = match &i {
            None | Some(Node::Undefined) => None,
            Some(n) => Some(to_length(n).map_err(fatal)?),
        };
        let root = self.state.as_mut().ok_or_else(|| fatal("no state"))?;
        let parent = walk(root, parents)?;
        // the array at the path, and the pushed values in it
        check_depth(path.len(), || {
            1 + items.iter().map(|s| nesting(&s.node)).max().unwrap_or(0)
        })?;
        let porigin = parent.origin;
        parent.node.materialize(porigin);
        // arr = cur[last] || []
        let slot: &mut Slot<'a> = match &mut parent.node {
            Node::Obj(fields) => {
                let at = match fields.position(last) {
                    Some(at) => at,
                    None => {
                        fields.push(last.clone(), Slot::new(index, Node::Undefined));
                        fields.len() - 1
                    }
                };
                fields
                    .value_mut(at)
                    .ok_or_else(|| fatal("the member just found is gone"))?
            }
            Node::Arr(arr) => match array_index(last) {
                Some(ix) if ix < arr.len() => &mut arr[ix],
                Some(ix) if ix - arr.len() <= MAX_HOLES => {
                    if !spend_holes(&mut self.holes, ix - arr.len()) {
                        return Err(too_many_holes(
                            format!("index {ix}"),
                            ix - arr.len(),
                            self.holes,
                        ));
                    }
                    arr.resize(ix + 1, Slot::new(index, Node::Undefined));
                    &mut arr[ix]
                }
                Some(ix) => return Err(benign(format!("index {ix} is far past the array's end"))),
                None => {
                    return Err(benign(format!(
                        "{last} is not an array index; the property is lost when VS Code writes the session"
                    )));
                }
            },
            Node::TooDeep { .. } => return Err(not_read(parents)),
            other => {
                return Err(fatal(format!(
                    "TypeError: cannot set {last} on {} {}",
                    article(other.type_name()),
                    other.type_name()
                )));
            }
        };
        let sorigin = slot.origin;
        slot.node.materialize(sorigin);
        let mut removed = None;
        if matches!(slot.node, Node::TooDeep { .. }) {
            return Err(not_read(path));
        }
        if !slot.node.truthy() {
            slot.node = Node::Arr(Vec::new());
            slot.origin = index;
        } else if !matches!(slot.node, Node::Arr(_)) {
            return Err(fatal(format!(
                "TypeError: {} is {} {}, arr.push is not a function",
                path_text(path),
                article(slot.node.type_name()),
                slot.node.type_name()
            )));
        }
        let Node::Arr(arr) = &mut slot.node else {
            return Err(fatal("not an array"));
        };
        if let Some(n) = length {
            if n < arr.len() {
                let old = arr.split_off(n);
                removed = Some(Removed {
                    path: path.to_vec(),
                    start: n,
                    old,
                    elements: true,
                });
            } else if n - arr.len() > MAX_HOLES {
                return Err(benign(format!("length {n} is far past the array's end")));
            } else if !spend_holes(&mut self.holes, n - arr.len()) {
                return Err(too_many_holes(
                    format!("length {n}"),
                    n - arr.len(),
                    self.holes,
                ));
            } else {
                arr.resize(n, Slot::new(index, Node::Undefined));
            }
        }
        arr.extend(items.into_iter().map(|mut s| {
            s.origin = index;
            s
        }));
        Ok(removed)
    }

    /// Forgets the resolved models (see [`ModelMemo`]) that a Set (`kind` 1), Push (2)
    /// or Delete (3) at `path` may change, before it is applied: all of them for a
    /// line that may replace or move requests, a request's for a line at the request,
    /// its `result`, or `result.metadata` (or into an unparsed `result`); none for the
    /// rest, a line into a response above all.
    fn forget_models(
        &mut self,
        kind: u8,
        path: &[Cow<'_, str>],
        v: Option<&Node<'_>>,
        i: Option<&Node<'_>>,
    ) {
        if self.models.is_empty() {
            return;
        }
        match path {
            [first, ..] if first != "requests" => {}
            // a Push onto the list keeps its requests (below `i`, where it truncates)
            [_] if kind == 2 => match i {
                None | Some(Node::Undefined) => {}
                Some(n) => match to_length(n) {
                    Ok(n) => drop(self.models.split_off(&n)),
                    Err(_) => self.models.clear(),
                },
            },
            // `requests.length = n` keeps those below `n`
            [_, l] if l == "length" => match v.filter(|_| kind == 1).map(to_length) {
                Some(Ok(n)) => drop(self.models.split_off(&n)),
                _ => self.models.clear(),
            },
            [] | [_] => self.models.clear(),
            [_, r] => {
                if let Some(k) = array_index(r) {
                    self.models.remove(&k);
                }
            }
            [_, r, field, rest @ ..] => {
                let forget = field == "result"
                    && match rest {
                        [] => true,
                        [m, ..] if m == "metadata" => true,
                        _ => array_index(r)
                            .and_then(|k| self.models.get(&k))
                            .is_some_and(|m| m.raw_result),
                    };
                if forget && let Some(k) = array_index(r) {
                    self.models.remove(&k);
                }
            }
        }
    }

    /// Compares what a mutation removed with what replaced it, keeping removed requests
    /// and replaced response parts (never streaming growth of the same part).
    fn recover(&mut self, removed: Removed<'a>, by: u32) {
        let Some(state) = &self.state else { return };
        let current = lookup(state, &removed.path);
        let p: Vec<&str> = removed.path.iter().map(|s| s.as_ref()).collect();
        let found: Vec<Recovered<'a>> = match p.as_slice() {
            [] => {
                // a new kind 0: the old state's requests against the new one's
                let new_reqs = current.and_then(|c| c.node.get("requests"));
                let mut found = Vec::new();
                for old in removed.old {
                    let old_reqs = take_field(old, "requests");
                    found.extend(match_requests(
                        elements(old_reqs),
                        array_items(new_reqs.map(|r| &r.node)),
                        by,
                    ));
                }
                found
            }
            ["requests"] => {
                let old = if removed.elements {
                    removed.old
                } else {
                    removed
                        .old
                        .into_iter()
                        .flat_map(|s| elements(Some(s)))
                        .collect()
                };
                match_requests(old, array_items(current.map(|c| &c.node)), by)
            }
            ["requests", _] => {
                let new = current.map_or(&[][..], std::slice::from_ref);
                match_requests(removed.old, new, by)
            }
            ["requests", r, "response", rest @ ..] if rest.len() <= 1 => {
                let (old, start, new): (Vec<Slot<'a>>, usize, &[Slot<'a>]) = match (rest, current) {
                    (
                        [],
                        Some(Slot {
                            node: Node::Arr(items),
                            ..
                        }),
                    ) => {
                        let old = if removed.elements {
                            removed.old
                        } else {
                            removed
                                .old
                                .into_iter()
                                .flat_map(|s| elements(Some(s)))
                                .collect()
                        };
                        (old, removed.start, items.as_slice())
                    }
                    ([], _) => (
                        removed
                            .old
                            .into_iter()
                            .flat_map(|s| elements(Some(s)))
                            .collect(),
                        0,
                        &[],
                    ),
                    (_, Some(c)) => (removed.old, 0, std::slice::from_ref(c)),
                    (_, None) => (removed.old, 0, &[]),
                };
                let parts = diff_parts(old, start, new);
                if parts.is_empty() {
                    Vec::new()
                } else {
                    let request = match lookup(state, &["requests".into(), r.to_string().into()]) {
                        Some(s) => {
                            let req = s.node.view(s.origin);
                            let resolve = || ModelMemo {
                                model: crate::rows::resolved_model(&req),
                                raw_result: req.get("result").is_some_and(|x| {
                                    matches!(x.node, Node::Raw(_) | Node::RawOwned(_))
                                }),
                            };
                            // (a key that is no array index, of `requests` made an
                            // object, is resolved each time)
                            let model = match array_index(r) {
                                Some(k) => {
                                    self.models.entry(k).or_insert_with(resolve).model.clone()
                                }
                                None => resolve().model,
                            };
                            request_summary(&req, model)
                        }
                        None => Node::Undefined,
                    };
                    vec![Recovered {
                        kind: RecoveredKind::Parts {
                            request: Box::new(request),
                        },
                        values: parts,
                        removed_by: by,
                    }]
                }
            }
            // the prompt overwritten: `message` (a string or `{text, parts}`) or its text
            ["requests", r, "message", rest @ ..] if rest.len() <= 1 => {
                let request = lookup(state, &["requests".into(), r.to_string().into()]);
                let old = match rest {
                    [] => removed.old.into_iter().next().and_then(|m| prompt_of(&m)),
                    ["text"] => removed.old.into_iter().next().and_then(|t| {
                        let text = t.node.view(t.origin).text()?.into_owned();
                        (!text.is_empty()).then(|| Slot::new(t.origin, Node::Str(Cow::Owned(text))))
                    }),
                    _ => None,
                };
                let now = request.and_then(|q| {
                    let q = q.node.view(q.origin);
                    q.get("message").and_then(prompt_of)
                });
                match (old, request) {
                    (Some(old), Some(q)) if !same_prompt(&old, now.as_ref()) => vec![Recovered {
                        kind: RecoveredKind::Prompt {
                            request: Box::new(prompt_summary(&q.node.view(q.origin))),
                        },
                        values: vec![old],
                        removed_by: by,
                    }],
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        };
        self.recovered.extend(found);
    }

    /// The bytes replayed.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Every non-empty line, in order. Values and errors refer to lines by index here.
    pub fn lines(&self) -> &[LineInfo] {
        &self.lines
    }

    /// Moves the replayed state out (the rows of a consumed replay take it).
    pub(crate) fn take_state(&mut self) -> Option<Slot<'a>> {
        self.state.take()
    }

    /// The final state (`None` when no line could be applied).
    pub fn state(&self) -> Option<&Slot<'a>> {
        self.state.as_ref()
    }

    /// The lines that could not be read or applied, in order.
    pub fn errors(&self) -> &[LineError] {
        &self.errors
    }

    /// Why VS Code's own reader would refuse the file (and hide the chat), if it would.
    pub fn refusal(&self) -> Option<&Refusal> {
        self.refusal.as_ref()
    }

    /// The values later lines removed, in the order they were removed.
    pub fn recovered(&self) -> &[Recovered<'a>] {
        &self.recovered
    }

    /// The 1-based line number of the line at `index`.
    pub fn line_number(&self, index: u32) -> Option<u64> {
        origin_line(&self.lines, index)
    }

    /// The bytes of the line at `index`.
    pub fn line_bytes(&self, index: u32) -> &'a [u8] {
        match self.lines.get(index as usize) {
            Some(l) => &self.input[l.offset as usize..(l.offset + l.len) as usize],
            None => &[],
        }
    }

    /// Writes the final state as compact JSON to `out`, as VS Code would write it
    /// (`null` when none), 64 KiB at a time, without building the text whole (see
    /// [`mod@write`]).
    pub fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match &self.state {
            Some(s) => write::write_node(&s.node, out),
            None => out.write_all(b"null"),
        }
    }

    /// The final state as compact JSON, as VS Code would write it (`null` when none).
    pub fn to_json(&self) -> String {
        match &self.state {
            Some(s) => s.node.to_json(),
            None => "null".to_string(),
        }
    }
}

/// An owned copy of a node (borrowed strings copied, borrowed raw subtrees parsed).
/// It recurses once per level of the tree, plain loops keeping each level's frame
/// small (a tree is at most [`MAX_TREE_DEPTH`] deep).
pub fn to_static(n: &Node<'_>) -> Node<'static> {
    match n {
        Node::Undefined => Node::Undefined,
        Node::Null => Node::Null,
        Node::Bool(b) => Node::Bool(*b),
        Node::Num(x) => Node::Num(*x),
        Node::Str(s) => Node::Str(Cow::Owned(s.to_string())),
        Node::Esc(r) => Node::Str(Cow::Owned(json::unescape(r))),
        Node::Arr(a) => {
            let mut out = Vec::with_capacity(a.len());
            for s in a {
                out.push(Slot::new(s.origin, to_static(&s.node)));
            }
            Node::Arr(out)
        }
        Node::Obj(f) => {
            let mut out = Vec::with_capacity(f.len());
            for (k, s) in f.iter() {
                let node = to_static(&s.node);
                out.push((Cow::Owned(k.to_string()), Slot::new(s.origin, node)));
            }
            Node::Obj(out.into())
        }
        Node::Raw(r) => Node::RawOwned((*r).into()),
        Node::RawOwned(r) => Node::RawOwned(r.clone()),
        Node::TooDeep { object } => Node::TooDeep { object: *object },
    }
}

/// The slot at `path` (raw levels viewed, so only fully parsed levels are found).
fn lookup<'t, 'a>(root: &'t Slot<'a>, path: &[Cow<'_, str>]) -> Option<&'t Slot<'a>> {
    let mut cur = root;
    for seg in path {
        cur = match &cur.node {
            Node::Obj(f) => f.get(seg)?,
            Node::Arr(a) => a.get(array_index(seg)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A request's prompt as the rows read it (`message.text`, or the old string form),
/// decoded, with the line that wrote the text; `None` when there is none or it is
/// empty (an empty prompt overwritten gives no row).
fn prompt_of<'a>(message: &Slot<'_>) -> Option<Slot<'a>> {
    let m = message.node.view(message.origin);
    let (text, origin) = match m.as_ref() {
        Node::Str(_) | Node::Esc(_) => (m.text()?.into_owned(), message.origin),
        other => {
            let t = other.get("text")?;
            let tn = t.node.view(t.origin);
            (tn.text()?.into_owned(), t.origin)
        }
    };
    (!text.is_empty()).then(|| Slot::new(origin, Node::Str(Cow::Owned(text))))
}

/// True when the prompt `now` (see [`prompt_of`]) has the text of `old`.
fn same_prompt(old: &Slot<'_>, now: Option<&Slot<'_>>) -> bool {
    now.is_some_and(|n| n.node.text() == old.node.text())
}

/// The key that identifies a request across rewrites: its id, else its prompt.
fn request_key(n: &Node<'_>) -> Option<String> {
    if let Some(id) = n.get("requestId").and_then(|s| s.node.text()) {
        return Some(format!("id:{id}"));
    }
    let m = n.get("message")?;
    let text = match m.node.text() {
        Some(t) => t.into_owned(),
        None => m.node.get("text").and_then(|t| t.node.text())?.into_owned(),
    };
    Some(format!("text:{text}"))
}

/// The text of a markdown or thinking part, for the growth test.
fn part_text<'n>(n: &'n Node<'_>) -> Option<Cow<'n, str>> {
    match n {
        Node::Obj(_) => {
            let v = n.get("value")?;
            match &v.node {
                Node::Arr(a) => Some(Cow::Owned(a.iter().filter_map(|s| s.node.text()).collect())),
                other => other.text(),
            }
        }
        other => other.text(),
    }
}

fn part_kind<'n>(n: &'n Node<'_>) -> Option<Cow<'n, str>> {
    n.get("kind").and_then(|k| k.node.text())
}

/// The string of a markdown part (or the part itself when it is a string), as written.
fn raw_value<'n>(n: &'n Node<'_>) -> Option<&'n str> {
    let v = match n {
        Node::Obj(_) => &n.get("value")?.node,
        other => other,
    };
    match v {
        Node::Str(s) => Some(s),
        Node::Esc(r) => Some(r),
        _ => None,
    }
}

/// True when `new` (as written) continues `old` (as written) whose text ends in the first
/// half of a surrogate pair: a JavaScript slice cut the text between the halves,
/// `JSON.stringify` wrote the half alone as `\udxxx`, and the next flush writes the whole
/// character. In JavaScript's UTF-16 the old text is a prefix of the new one, so this is
/// streaming, not a replaced part (decoded, the half is U+FFFD and the prefix is lost).
fn grown_past_cut_pair(old: &str, new: &str) -> bool {
    let hex4 = |h: &[u8]| {
        (h.len() == 4)
            .then(|| {
                h.iter()
                    .try_fold(0u32, |a, c| (*c as char).to_digit(16).map(|d| a * 16 + d))
            })
            .flatten()
    };
    let o = old.as_bytes();
    let Some(stem) = o.len().checked_sub(6) else {
        return false;
    };
    let high = match &o[stem..] {
        [b'\\', b'u', h @ ..] => hex4(h).filter(|h| (0xD800..0xDC00).contains(h)),
        _ => None,
    };
    // the backslash must start the escape, not end an escaped one
    let escaped = o[..stem].iter().rev().take_while(|c| **c == b'\\').count() % 2 == 1;
    let (Some(high), false) = (high, escaped) else {
        return false;
    };
    let Some(rest) = new.strip_prefix(&old[..stem]) else {
        return false;
    };
    match rest.chars().next() {
        Some(c) if c as u32 >= 0x10000 => 0xD800 + ((c as u32 - 0x10000) >> 10) == high,
        // the pair escaped, the high half in other letters' case
        Some('\\') => {
            let r = rest.as_bytes();
            r.len() >= 12
                && r[1] == b'u'
                && hex4(&r[2..6]) == Some(high)
                && r[6] == b'\\'
                && r[7] == b'u'
                && hex4(&r[8..12]).is_some_and(|l| (0xDC00..0xE000).contains(&l))
        }
        _ => false,
    }
}

fn same_text_or_grown(old: &Node<'_>, new: &Node<'_>) -> bool {
    match (part_text(old), part_text(new)) {
        (Some(a), Some(b)) => b.starts_with(a.as_ref()),
        _ => old.to_json() == new.to_json(),
    }
}

/// True when `new` is the same part as `old`, or `old` grown by streaming.
pub(crate) fn same_or_grown(old: &Node<'_>, new: &Node<'_>) -> bool {
    let (ko, kn) = (part_kind(old), part_kind(new));
    if ko != kn {
        return false;
    }
    match ko.as_deref() {
        None | Some("thinking") | Some("markdownContent") => {
            // fast path: the texts as written; a grown text starts with the old one
            if let (Some(a), Some(b)) = (raw_value(old), raw_value(new)) {
                if b.starts_with(a) || grown_past_cut_pair(a, b) {
                    return true;
                }
            }
            same_text_or_grown(old, new)
        }
        Some("toolInvocationSerialized" | "toolInvocation") => {
            let id = |n: &Node<'_>| {
                n.get("toolCallId")
                    .and_then(|s| s.node.text())
                    .map(Cow::into_owned)
            };
            id(old) == id(new)
        }
        // VS Code compares these by kind only (`responsePartSchema` "static" kinds) or
        // deep-equal; either way no row of ours changes
        Some(_) => true,
    }
}

/// The old parts (starting at array index `start`) that the new array does not hold
/// as the same or a grown part at the same index.
fn diff_parts<'a>(old: Vec<Slot<'a>>, start: usize, new: &[Slot<'_>]) -> Vec<Slot<'a>> {
    let mut out = Vec::new();
    for (j, mut o) in old.into_iter().enumerate() {
        o.node.materialize(o.origin);
        if matches!(o.node, Node::Undefined | Node::Null) {
            continue;
        }
        let keep = match new.get(start + j) {
            Some(n) => !same_or_grown(&o.node, &n.node.view(n.origin)),
            None => true,
        };
        if keep {
            out.push(o);
        }
    }
    out
}

/// Takes a field's value out of an object slot (materialising it).
fn take_field<'a>(mut slot: Slot<'a>, key: &str) -> Option<Slot<'a>> {
    slot.node.materialize(slot.origin);
    slot.node
        .into_fields()?
        .into_iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// The elements of an array slot (materialising it); a string response is one part.
fn elements(slot: Option<Slot<'_>>) -> Vec<Slot<'_>> {
    let Some(mut slot) = slot else {
        return Vec::new();
    };
    slot.node.materialize(slot.origin);
    match slot.node {
        Node::Arr(_) => slot.node.into_items().unwrap_or_default(),
        Node::Str(_) => vec![slot],
        _ => Vec::new(),
    }
}

/// The elements of an array node; none for anything else.
fn array_items<'n, 'a>(n: Option<&'n Node<'a>>) -> &'n [Slot<'a>] {
    match n {
        Some(Node::Arr(a)) => a,
        _ => &[],
    }
}

/// What the rows of recovered parts read of their request (see
/// [`RecoveredKind::Parts`]): its times and model, each copied as the rows would read
/// it from the whole request. A value no row reads there (an array or object where a
/// time or the model id belongs) is left out, which reads the same.
/// `resolved` is what [`crate::rows::resolved_model`] finds in `req`.
fn request_summary(req: &Node<'_>, resolved: Option<(String, u32)>) -> Node<'static> {
    let scalar = scalar_copy;
    let mut fields: Vec<(Cow<'static, str>, Slot<'static>)> = Vec::new();
    for key in [
        "timestamp",
        "modelId",
        "responseTimestamp",
        "timeSpentWaiting",
    ] {
        if let Some(s) = req.get(key).and_then(scalar) {
            fields.push((Cow::Borrowed(key), s));
        }
    }
    // read only from a parsed object, as `Node::get` reads
    if let Some(m) = req
        .get("modelState")
        .filter(|m| matches!(m.node, Node::Obj(_)))
    {
        let completed = m.node.get("completedAt").and_then(scalar);
        let inner = completed.map(|c| (Cow::Borrowed("completedAt"), c));
        fields.push((
            Cow::Borrowed("modelState"),
            Slot::new(m.origin, Node::Obj(inner.into_iter().collect())),
        ));
    }
    if let Some((model, origin)) = resolved {
        let field = |k: &'static str, n: Node<'static>| {
            Fields::from(vec![(Cow::Borrowed(k), Slot::new(origin, n))])
        };
        let meta = Node::Obj(field("resolvedModel", Node::Str(Cow::Owned(model))));
        fields.push((
            Cow::Borrowed("result"),
            Slot::new(origin, Node::Obj(field("metadata", meta))),
        ));
    }
    Node::Obj(fields.into())
}

/// An owned copy of a scalar value (`None` for an array or object, which no row reads
/// where a time or a model id belongs).
fn scalar_copy(s: &Slot<'_>) -> Option<Slot<'static>> {
    let n = s.node.view(s.origin);
    (!matches!(n.as_ref(), Node::Arr(_) | Node::Obj(_))).then(|| Slot::new(s.origin, to_static(&n)))
}

/// What the row of a recovered prompt reads of its request
/// ([`RecoveredKind::Prompt`]): its `timestamp` and `modelId` (a user row is at the
/// request's time, with the model asked for). Not the resolved model of
/// [`request_summary`], whose search reads all of an unparsed `result`: once per
/// overwritten prompt, a log of many small Sets of one prompt beside a big `result`
/// took time in their number times its size.
fn prompt_summary(req: &Node<'_>) -> Node<'static> {
    let mut fields: Vec<(Cow<'static, str>, Slot<'static>)> = Vec::new();
    for key in ["timestamp", "modelId"] {
        if let Some(s) = req.get(key).and_then(scalar_copy) {
            fields.push((Cow::Borrowed(key), s));
        }
    }
    Node::Obj(fields.into())
}

/// The index of the first request of each key ([`request_key`]) in `items`.
fn first_of_each_key(items: &[Slot<'_>]) -> HashMap<String, usize> {
    let mut first = HashMap::with_capacity(items.len());
    for (i, s) in items.iter().enumerate() {
        if let Some(k) = request_key(&s.node.view(s.origin)) {
            first.entry(k).or_insert(i);
        }
    }
    first
}

/// Old requests against the new list: unmatched ones are recovered whole, matched
/// ones have their response parts compared.
fn match_requests<'a>(old: Vec<Slot<'a>>, new_items: &[Slot<'_>], by: u32) -> Vec<Recovered<'a>> {
    let mut out = Vec::new();
    // each new request's key to its first index (the twin a search from the start
    // finds), made at the first old request with a key: one pass over the new list,
    // where comparing with each new request made replacing N requests N^2
    let mut first: Option<HashMap<String, usize>> = None;
    for (pos, mut o) in old.into_iter().enumerate() {
        o.node.materialize(o.origin);
        if matches!(o.node, Node::Undefined | Node::Null) {
            continue;
        }
        let key = request_key(&o.node);
        let twin = match &key {
            Some(k) => first
                .get_or_insert_with(|| first_of_each_key(new_items))
                .get(k)
                .map(|&i| new_items[i].node.view(new_items[i].origin)),
            None => new_items.get(pos).map(|s| s.node.view(s.origin)),
        };
        match twin {
            None => out.push(Recovered {
                kind: RecoveredKind::Request,
                values: vec![o],
                removed_by: by,
            }),
            Some(t) => {
                // a prompt rewritten under the same key (an id kept, the text changed)
                let old_prompt = o.node.get("message").and_then(prompt_of);
                if let Some(p) = old_prompt {
                    if !same_prompt(&p, t.get("message").and_then(prompt_of).as_ref()) {
                        out.push(Recovered {
                            kind: RecoveredKind::Prompt {
                                request: Box::new(prompt_summary(&t)),
                            },
                            values: vec![p],
                            removed_by: by,
                        });
                    }
                }
                let new_parts = t.get("response").map(|r| r.node.view(r.origin));
                let new_parts: &[Slot<'_>] = match new_parts.as_deref() {
                    Some(Node::Arr(a)) => a,
                    _ => &[],
                };
                let parts = diff_parts(elements(take_field(o, "response")), 0, new_parts);
                if !parts.is_empty() {
                    out.push(Recovered {
                        kind: RecoveredKind::Parts {
                            request: Box::new(request_summary(&t, crate::rows::resolved_model(&t))),
                        },
                        values: parts,
                        removed_by: by,
                    });
                }
            }
        }
    }
    out
}

/// Parses a flat `.json` session (or any JSON document) into a tree that borrows from
/// `text`. What is nested deeper than [`json::MAX_DEPTH`] is kept as
/// [`Node::TooDeep`] (see [`parse_document_noting_depth`]).
pub fn parse_document(text: &str) -> Result<Slot<'_>, json::JsonError> {
    parse_document_noting_depth(text).map(|(s, _)| s)
}

/// [`parse_document`], also saying which values it skipped for being nested too deep.
pub fn parse_document_noting_depth(
    text: &str,
) -> Result<(Slot<'_>, Option<json::TooDeep>), json::JsonError> {
    json::parse_noting_depth(text, 0, Depth::Lazy).map(|(n, d)| (Slot::new(0, n), d))
}
