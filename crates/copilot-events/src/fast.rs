//! The fast path of [`crate::decode::event`] for long lines: a line read with the
//! workspace's borrowing JSON parser (`vscode_chat_log::decode::json`) instead of
//! serde_json.
//!
//! Why: the long lines of a log are tool outputs and answers dense with escapes, and
//! serde_json unescapes each string it hands over and scans strings a byte at a time.
//! The borrowing parser scans strings 64 bytes at a time and builds a [`Node`] tree
//! whose strings are slices of the line, escaped ones decoded only when the mapping
//! reads them (strings nobody reads are never decoded). The envelope and the fields of
//! the most common types (`user.message`, `assistant.*`, `tool.*`, and the types that
//! read no data) are taken from that tree into the same [`Event`] serde_json gives.
//! The line is parsed whole (`Depth::Full`): keeping `data` and `result` unparsed and
//! parsing them when read scanned their bytes two or three times.
//!
//! Why only long lines ([`MIN_LINE`]): on the short lines that make most of a log
//! (200 bytes), building the tree (a vector per object, the nodes moved into it) costs
//! more than serde_json's typed decoding into the type's struct; measured, the fast path
//! on every line made the fixture-shaped bench twice as slow.
//!
//! The two parsers differ where serde_json refuses what `JSON.parse` accepts (a
//! duplicate key, a lone surrogate escape, nesting past 128 levels, a float where an
//! integer is read) and in how numbers print. Every such case, and every value of a
//! type the event's struct would refuse, makes this path give up (`None`): the line is
//! then decoded by serde_json as before, which gives the same event or the same error
//! and therefore the same rows. Duplicates of a field that is read are found by
//! checking that the value kept stands right after its key (the parser keeps the first
//! key and the last value); a duplicate of the same kind as the first (two objects, two
//! numbers ...) is found only where the value is a string or an integer, otherwise it is
//! read as one value instead of being refused.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use vscode_chat_log::decode::json;
use vscode_chat_log::decode::{Depth, Node, Slot};

use crate::decode::{
    Attachment, ContentData, Data, Event, MessageData, ModelData, Raw, ResultData, ResultItem,
    ShellExecution, ShellToolInfo, Str, Text, ToolCompleteData, ToolRequest, ToolStartData,
    UserData,
};

/// The shortest line read by this path (see the module docs).
pub(crate) const MIN_LINE: usize = 1024;

/// serde_json's nesting limit: a line with at least this many brackets goes to it.
const SERDE_DEPTH: usize = 128;

type Fields<'a> = [(Cow<'a, str>, Slot<'a>)];

/// Decodes one line, or `None` when serde_json must (see the module docs).
pub(crate) fn event(line: &[u8]) -> Option<Event<'_>> {
    // simdutf8: std's check slows down on text with many non-ASCII characters
    event_text(simdutf8::basic::from_utf8(line).ok()?)
}

/// [`event`] of a line already checked as UTF-8.
pub(crate) fn event_text(text: &str) -> Option<Event<'_>> {
    let line = text.as_bytes();
    if memchr::memchr2_iter(b'{', b'[', line)
        .nth(SERDE_DEPTH - 1)
        .is_some()
    {
        return None;
    }
    let root = json::parse(text, 0, Depth::Full).ok()?;
    let Node::Obj(fields) = &root else {
        return None;
    };
    let r = Reader { line: text };
    let mut kind = None;
    let mut data = None;
    let mut id = None;
    let mut timestamp = None;
    let mut agent_id = None;
    let mut ephemeral = None;
    for (k, slot) in fields.iter() {
        let v = &slot.node;
        match k.as_ref() {
            "type" => kind = Some(r.str(k, v)?),
            "data" => data = Some((k, v)),
            "id" => id = r.opt_str(k, v)?,
            "timestamp" => timestamp = r.opt_str(k, v)?,
            "agentId" => agent_id = r.opt_str(k, v)?,
            "ephemeral" => ephemeral = r.opt_bool(k, v)?,
            _ => {}
        }
    }
    let kind = kind.map(|s| s.0).unwrap_or_default();
    let data = match data {
        None => empty(&kind)?,
        Some((k, v)) => {
            let Node::Obj(f) = v else { return None };
            r.same_kind(k, v)?;
            r.data(&kind, f)?
        }
    };
    Some(Event {
        kind,
        data,
        id,
        timestamp,
        agent_id,
        ephemeral,
    })
}

/// The data of a line without `data`, for the types this path reads.
fn empty<'a>(kind: &str) -> Option<Data<'a>> {
    Some(match kind {
        "user.message" => Data::User(Default::default()),
        "assistant.turn_start" => Data::TurnStart(Default::default()),
        "assistant.reasoning" => Data::Reasoning(Default::default()),
        "assistant.message" => Data::Message(Default::default()),
        "tool.execution_start" | "tool.user_requested" => Data::ToolStart(Default::default()),
        "tool.execution_complete" => Data::ToolComplete(Default::default()),
        k if crate::decode::reads_no_data(k) => Data::Other,
        _ => return None,
    })
}

/// Reads values out of the tree of one line.
struct Reader<'a> {
    line: &'a str,
}

// keys are taken as `&Cow`: only a borrowed key is a slice of the line, whose place
// tells where its value is written
#[allow(clippy::ptr_arg)]
impl<'a> Reader<'a> {
    /// The text after `key` and its colon (the key must be a slice of the line).
    fn after(&self, key: &Cow<'a, str>) -> Option<&'a str> {
        let Cow::Borrowed(k) = key else { return None };
        let base = self.line.as_ptr() as usize;
        let off = (k.as_ptr() as usize).checked_sub(base)?;
        let rest = self.line.get(off + k.len()..)?;
        let rest = rest
            .strip_prefix('"')?
            .trim_start_matches([' ', '\t', '\r', '\n']);
        let rest = rest.strip_prefix(':')?;
        Some(rest.trim_start_matches([' ', '\t', '\r', '\n']))
    }

    /// Checks that the value of `key` in the line is the slice `value` (no duplicate).
    fn at(&self, key: &Cow<'a, str>, value: &str) -> Option<()> {
        (self.after(key)?.as_ptr() == value.as_ptr()).then_some(())
    }

    /// Checks that the value written after `key` is of the node's kind.
    fn same_kind(&self, key: &Cow<'a, str>, v: &Node<'a>) -> Option<()> {
        let first = *self.after(key)?.as_bytes().first()?;
        let ok = match v {
            Node::Null => first == b'n',
            Node::Bool(true) => first == b't',
            Node::Bool(false) => first == b'f',
            Node::Num(_) => first == b'-' || first.is_ascii_digit(),
            Node::Obj(_) => first == b'{',
            Node::Arr(_) => first == b'[',
            Node::Raw(r) => return self.at(key, r),
            Node::Str(_) | Node::Esc(_) => first == b'"',
            _ => false,
        };
        ok.then_some(())?;
        self.once(key)
    }

    /// Checks that `key` is not written again later in the line (a duplicate, which
    /// serde_json refuses, of a value whose place cannot tell; found also in nested
    /// objects, which only sends the line to serde_json). A quote inside a string is
    /// escaped, so `"key"` followed by a colon is always a key.
    fn once(&self, key: &Cow<'a, str>) -> Option<()> {
        let Cow::Borrowed(k) = key else { return None };
        let base = self.line.as_ptr() as usize;
        let from = (k.as_ptr() as usize).checked_sub(base)? + k.len() + 1;
        let rest = self.line.as_bytes().get(from..)?;
        let mut pattern = Vec::with_capacity(k.len() + 2);
        pattern.push(b'"');
        pattern.extend_from_slice(k.as_bytes());
        pattern.push(b'"');
        let again = memchr::memmem::find_iter(rest, &pattern).any(|i| {
            rest[i + pattern.len()..]
                .iter()
                .find(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
                == Some(&b':')
        });
        (!again).then_some(())
    }

    /// A string value (`null` refused, as serde_json's `Str` does).
    fn str(&self, key: &Cow<'a, str>, v: &Node<'a>) -> Option<Str<'a>> {
        match v {
            // the slice must start right after the opening quote (else a duplicate)
            Node::Str(Cow::Borrowed(s)) => (self.after(key)?.as_ptr().wrapping_add(1)
                == s.as_ptr())
            .then_some(Str(Cow::Borrowed(*s))),
            Node::Esc(raw) => {
                (self.after(key)?.as_ptr().wrapping_add(1) == raw.as_ptr()).then_some(())?;
                Some(Str(Cow::Owned(unescape(raw)?)))
            }
            _ => None,
        }
    }

    fn opt_str(&self, key: &Cow<'a, str>, v: &Node<'a>) -> Option<Option<Str<'a>>> {
        match v {
            Node::Null => self.same_kind(key, v).map(|_| None),
            _ => self.str(key, v).map(Some),
        }
    }

    fn opt_bool(&self, key: &Cow<'a, str>, v: &Node<'a>) -> Option<Option<bool>> {
        match v {
            Node::Null => self.same_kind(key, v).map(|_| None),
            Node::Bool(b) => self.same_kind(key, v).map(|_| Some(*b)),
            _ => None,
        }
    }

    /// A string, number or boolean kept as text; numbers go to serde_json (printing).
    fn opt_text(&self, key: &Cow<'a, str>, v: &Node<'a>) -> Option<Option<Text<'a>>> {
        match v {
            Node::Null => self.same_kind(key, v).map(|_| None),
            Node::Bool(b) => self
                .same_kind(key, v)
                .map(|_| Some(Text(Cow::Owned(b.to_string())))),
            _ => self.str(key, v).map(|s| Some(Text(s.0))),
        }
    }

    /// An integer written as one (a float, even 1.0, is refused as serde_json does).
    fn opt_int(&self, key: &Cow<'a, str>, v: &Node<'a>) -> Option<Option<i64>> {
        match v {
            Node::Null => self.same_kind(key, v).map(|_| None),
            Node::Num(n) => {
                let rest = self.after(key)?;
                let len = rest
                    .bytes()
                    .enumerate()
                    .take_while(|&(i, c)| c.is_ascii_digit() || (i == 0 && c == b'-'))
                    .count();
                if matches!(rest.as_bytes().get(len), Some(b'.' | b'e' | b'E')) {
                    return None;
                }
                let i: i64 = rest[..len].parse().ok()?;
                self.once(key)?;
                // the kept value is the one written here (else a duplicate)
                (i as f64 == *n).then_some(Some(i))
            }
            _ => None,
        }
    }

    /// A raw JSON value, as serde_json's `&RawValue` takes it.
    fn opt_raw(&self, key: &Cow<'a, str>, v: &Node<'a>) -> Option<Option<Raw<'a>>> {
        if let Node::Null = v {
            return self.same_kind(key, v).map(|_| None);
        }
        self.same_kind(key, v)?;
        let rest = self.after(key)?;
        let mut de = serde_json::Deserializer::from_str(rest);
        <&RawValue>::deserialize(&mut de)
            .ok()
            .map(|r| Some(Raw(r.get())))
    }

    /// A JSON value without numbers (their printing differs), as serde_json's `Value`.
    fn opt_value(&self, key: &Cow<'a, str>, v: &Node<'a>) -> Option<Option<Value>> {
        if let Node::Null = v {
            return self.same_kind(key, v).map(|_| None);
        }
        self.same_kind(key, v)?;
        value(v).map(Some)
    }

    /// The fields of an object value (`null` is `None`).
    fn opt_obj<'n>(&self, key: &Cow<'a, str>, v: &'n Node<'a>) -> Option<Option<&'n Fields<'a>>> {
        match v {
            Node::Null => self.same_kind(key, v).map(|_| None),
            Node::Obj(f) => self.same_kind(key, v).map(|_| Some(f.as_slice())),
            _ => None,
        }
    }

    /// The objects of an array of objects (`null` is `None`).
    fn opt_objs<'n>(
        &self,
        key: &Cow<'a, str>,
        v: &'n Node<'a>,
    ) -> Option<Option<Vec<&'n Fields<'a>>>> {
        match v {
            Node::Null => self.same_kind(key, v).map(|_| None),
            Node::Arr(items) => {
                self.same_kind(key, v)?;
                items
                    .iter()
                    .map(|s| match &s.node {
                        Node::Obj(f) => Some(f.as_slice()),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(Some)
            }
            _ => None,
        }
    }

    fn data(&self, kind: &str, f: &Fields<'a>) -> Option<Data<'a>> {
        Some(match kind {
            "user.message" => Data::User(self.user(f)?),
            "assistant.turn_start" => {
                let mut d = ModelData::default();
                for (k, s) in f {
                    if k == "model" {
                        d.model = self.opt_str(k, &s.node)?;
                    }
                }
                Data::TurnStart(d)
            }
            "assistant.reasoning" => {
                let mut d = ContentData::default();
                for (k, s) in f {
                    if k == "content" {
                        d.content = self.opt_str(k, &s.node)?;
                    }
                }
                Data::Reasoning(d)
            }
            "assistant.message" => Data::Message(self.message(f)?),
            "tool.execution_start" | "tool.user_requested" => Data::ToolStart(self.tool_start(f)?),
            "tool.execution_complete" => Data::ToolComplete(self.tool_complete(f)?),
            k if crate::decode::reads_no_data(k) => Data::Other,
            _ => return None,
        })
    }

    fn user(&self, f: &Fields<'a>) -> Option<UserData<'a>> {
        let mut d = UserData::default();
        for (k, s) in f {
            let v = &s.node;
            match k.as_ref() {
                "content" => d.content = self.opt_str(k, v)?,
                "agentMode" => d.agent_mode = self.opt_str(k, v)?,
                "isAutopilotContinuation" => d.is_autopilot_continuation = self.opt_bool(k, v)?,
                "attachments" => {
                    d.attachments = match self.opt_objs(k, v)? {
                        None => None,
                        Some(items) => Some(
                            items
                                .into_iter()
                                .map(|a| self.attachment(a))
                                .collect::<Option<Vec<_>>>()?,
                        ),
                    }
                }
                _ => {}
            }
        }
        Some(d)
    }

    fn attachment(&self, f: &Fields<'a>) -> Option<Attachment<'a>> {
        let mut a = Attachment::default();
        for (k, s) in f {
            let v = &s.node;
            match k.as_ref() {
                "type" => a.kind = self.opt_str(k, v)?,
                "path" => a.path = self.opt_str(k, v)?,
                "filePath" => a.file_path = self.opt_str(k, v)?,
                "displayName" => a.display_name = self.opt_str(k, v)?,
                _ => {}
            }
        }
        Some(a)
    }

    fn message(&self, f: &Fields<'a>) -> Option<MessageData<'a>> {
        let mut d = MessageData::default();
        for (k, s) in f {
            let v = &s.node;
            match k.as_ref() {
                "content" => d.content = self.opt_str(k, v)?,
                "model" => d.model = self.opt_str(k, v)?,
                "reasoningText" => d.reasoning_text = self.opt_str(k, v)?,
                "encryptedContent" => d.encrypted_content = self.opt_str(k, v)?,
                "toolRequests" => {
                    d.tool_requests = match self.opt_objs(k, v)? {
                        None => None,
                        Some(items) => Some(
                            items
                                .into_iter()
                                .map(|t| self.tool_request(t))
                                .collect::<Option<Vec<_>>>()?,
                        ),
                    }
                }
                _ => {}
            }
        }
        Some(d)
    }

    fn tool_request(&self, f: &Fields<'a>) -> Option<ToolRequest<'a>> {
        let mut t = ToolRequest::default();
        for (k, s) in f {
            let v = &s.node;
            match k.as_ref() {
                "toolCallId" => t.tool_call_id = self.opt_str(k, v)?,
                "name" => t.name = self.opt_str(k, v)?,
                "arguments" => t.arguments = self.opt_raw(k, v)?,
                _ => {}
            }
        }
        Some(t)
    }

    fn tool_start(&self, f: &Fields<'a>) -> Option<ToolStartData<'a>> {
        let mut d = ToolStartData::default();
        for (k, s) in f {
            let v = &s.node;
            match k.as_ref() {
                "toolCallId" => d.tool_call_id = self.opt_str(k, v)?,
                "toolName" => d.tool_name = self.opt_str(k, v)?,
                "arguments" => d.arguments = self.opt_raw(k, v)?,
                "mcpServerName" => d.mcp_server_name = self.opt_str(k, v)?,
                "mcpToolName" => d.mcp_tool_name = self.opt_str(k, v)?,
                "shellToolInfo" => {
                    d.shell_tool_info = match self.opt_obj(k, v)? {
                        None => None,
                        Some(info) => {
                            let mut i = ShellToolInfo::default();
                            for (k, s) in info {
                                if k == "displayCommand" {
                                    i.display_command = self.opt_str(k, &s.node)?;
                                }
                            }
                            Some(i)
                        }
                    }
                }
                _ => {}
            }
        }
        Some(d)
    }

    fn shell_execution(&self, f: &Fields<'a>) -> Option<ShellExecution> {
        let mut e = ShellExecution::default();
        for (k, s) in f {
            if k == "exitCode" {
                e.exit_code = self.opt_int(k, &s.node)?;
            }
        }
        Some(e)
    }

    fn tool_complete(&self, f: &Fields<'a>) -> Option<ToolCompleteData<'a>> {
        let mut d = ToolCompleteData::default();
        for (k, s) in f {
            let v = &s.node;
            match k.as_ref() {
                "toolCallId" => d.tool_call_id = self.opt_str(k, v)?,
                "success" => d.success = self.opt_bool(k, v)?,
                "error" => d.error = self.opt_value(k, v)?,
                "shellExecution" => {
                    d.shell_execution = match self.opt_obj(k, v)? {
                        None => None,
                        Some(e) => Some(self.shell_execution(e)?),
                    }
                }
                "result" => {
                    d.result = match self.opt_obj(k, v)? {
                        None => None,
                        Some(r) => Some(self.result(r)?),
                    };
                }
                _ => {}
            }
        }
        Some(d)
    }

    fn result(&self, f: &Fields<'a>) -> Option<ResultData<'a>> {
        let mut d = ResultData::default();
        for (k, s) in f {
            let v = &s.node;
            match k.as_ref() {
                "content" => d.content = self.opt_text(k, v)?,
                "detailedContent" => d.detailed_content = self.opt_str(k, v)?,
                "kind" => d.kind = self.opt_str(k, v)?,
                "locationKey" => d.location_key = self.opt_str(k, v)?,
                "feedback" => d.feedback = self.opt_str(k, v)?,
                "shellExecution" => {
                    d.shell_execution = match self.opt_obj(k, v)? {
                        None => None,
                        Some(e) => Some(self.shell_execution(e)?),
                    }
                }
                "contents" => {
                    d.contents = match self.opt_objs(k, v)? {
                        None => None,
                        Some(items) => Some(
                            items
                                .into_iter()
                                .map(|i| {
                                    let mut item = ResultItem::default();
                                    for (k, s) in i {
                                        match k.as_ref() {
                                            "type" => {
                                                item.kind = self
                                                    .opt_str(k, &s.node)?
                                                    .map(|s| s.0.into_owned())
                                            }
                                            "exitCode" => {
                                                item.exit_code = self.opt_int(k, &s.node)?
                                            }
                                            _ => {}
                                        }
                                    }
                                    Some(item)
                                })
                                .collect::<Option<Vec<_>>>()?,
                        ),
                    }
                }
                "rules" => {
                    d.rules = match v {
                        Node::Null => self.same_kind(k, v).map(|_| None)?,
                        Node::Arr(items) => {
                            self.same_kind(k, v)?;
                            Some(
                                items
                                    .iter()
                                    .map(|s| value(&s.node))
                                    .collect::<Option<Vec<_>>>()?,
                            )
                        }
                        _ => return None,
                    }
                }
                _ => {}
            }
        }
        Some(d)
    }
}

/// An escaped string (validated by the parser), decoded; `None` when it holds a
/// `\uDxxx` escape (a surrogate, which serde_json refuses alone and the caller
/// repairs; the rest of that range is left to serde_json too), or anything the parser
/// should not have let through.
///
/// The same decoding as `json::unescape`, in one pass that also finds the surrogate
/// escapes (it was a second pass), eight bytes at a time: each word is appended whole
/// and the output cut back to its first backslash, so the short runs between escapes
/// of chat text cost no copy call of their own. The output is checked as UTF-8 with
/// simdutf8 and copied into the `String`: `String::from_utf8`'s own check of text
/// with a non-ASCII character every few words was a fifth of the reader's time on
/// escape-dense logs, the copy is a `memcpy`.
pub(crate) fn unescape(raw: &str) -> Option<String> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const BACKSLASHES: u64 = ONES * b'\\' as u64;
    let b = raw.as_bytes();
    let n = b.len();
    // the output is never longer than the input (an escape is at least as long as what
    // it decodes to), so it is written at indices into a buffer of that size (and a
    // word more), with no capacity check per word or byte
    let mut out = vec![0u8; n + 8];
    let (mut i, mut o) = (0usize, 0usize);
    while i < n {
        if let Some(chunk) = b.get(i..i + 8) {
            let w: [u8; 8] = chunk.try_into().ok()?;
            out.get_mut(o..o + 8)?.copy_from_slice(&w);
            let x = u64::from_le_bytes(w) ^ BACKSLASHES;
            let hit = x.wrapping_sub(ONES) & !x & HIGHS;
            if hit == 0 {
                i += 8;
                o += 8;
                continue;
            }
            let p = (hit.trailing_zeros() / 8) as usize;
            i += p;
            o += p;
        } else if b[i] != b'\\' {
            *out.get_mut(o)? = b[i];
            i += 1;
            o += 1;
            continue;
        }
        // b[i] is a backslash, of a valid escape
        let e = *b.get(i + 1)?;
        // the two-byte escapes by table (a branch per kind of escape is mispredicted at
        // every other one in chat text)
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
    simdutf8::basic::from_utf8(out.get(..o)?)
        .ok()
        .map(str::to_owned)
}

/// What each two-byte escape `\x` decodes to; 0 for `u` and the bytes JSON refuses.
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

/// A value without numbers or unparsed subtrees, as serde_json's `Value`.
fn value(n: &Node<'_>) -> Option<Value> {
    Some(match n {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(*b),
        Node::Str(s) => Value::String(s.to_string()),
        Node::Esc(r) => Value::String(unescape(r)?),
        Node::Arr(a) => Value::Array(
            a.iter()
                .map(|s| value(&s.node))
                .collect::<Option<Vec<_>>>()?,
        ),
        Node::Obj(f) => Value::Object(
            f.iter()
                .map(|(k, s)| match k {
                    // an escaped key may hold a surrogate escape (see `unescape`)
                    Cow::Borrowed(k) => Some((k.to_string(), value(&s.node)?)),
                    Cow::Owned(_) => None,
                })
                .collect::<Option<serde_json::Map<_, _>>>()?,
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOGS: [&str; 3] = [
        "lin-ws01/home/alice/.copilot/session-state/0f3a9c1e-5b2d-4c7e-9a10-2b3c4d5e6f70/events.jsonl",
        "lin-ws01/home/alice/.config/Code/User/workspaceStorage/7e137a01/GitHub.copilot-chat/transcripts/5a1e7c37-1137-4000-9000-000000000001.jsonl",
        "WIN-DESK03/C/Users/carol/.copilot/session-state/9e8d7c6b-0000-4e00-8e00-00000000000e/events.jsonl",
    ];

    /// The one-pass unescape gives what serde_json gives, or leaves the string to it
    /// (`\uDxxx`), on escapes of every kind at every place in the eight-byte words.
    #[test]
    fn unescape_is_serde_json() {
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
        let mut checked = 0;
        for _ in 0..4000 {
            let mut raw = String::new();
            for _ in 0..(x % 24) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                raw.push_str(PIECES[(x % PIECES.len() as u64) as usize]);
            }
            let want: String = serde_json::from_str(&format!("\"{raw}\"")).unwrap();
            assert_eq!(unescape(&raw).as_deref(), Some(want.as_str()), "{raw}");
            checked += 1;
        }
        assert_eq!(checked, 4000);
        for left in ["\\ud83d\\ude00", "\\uD800", "x\\ud7ff", "\\q", "\\u12"] {
            assert_eq!(unescape(left), None, "{left}");
        }
    }

    /// Every line the fast path reads gives the event serde_json gives; most lines of
    /// the fixtures are read by it.
    #[test]
    fn same_events_as_serde_json() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence");
        let (mut fast, mut all) = (0, 0);
        for rel in LOGS {
            let bytes = std::fs::read(root.join(rel)).unwrap();
            for line in bytes.split(|c| *c == b'\n') {
                all += 1;
                if let Some(ev) = event(line) {
                    fast += 1;
                    let old = crate::decode::serde_event(line).unwrap();
                    assert_eq!(format!("{ev:?}"), format!("{old:?}"));
                }
            }
        }
        assert!(fast * 3 >= all, "{fast} of {all}");
    }

    /// The fast path gives up on every line serde_json refuses, and gives its event on
    /// every other line it reads, on the edge lines and on damaged copies of the logs.
    #[test]
    fn damaged_and_edge_lines() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence");
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
        ];
        let mut lines: Vec<Vec<u8>> = edge.iter().map(|l| l.as_bytes().to_vec()).collect();
        let mut deep = "[".repeat(200);
        deep.push_str(&"]".repeat(200));
        lines.push(format!(r#"{{"type":"session.idle","data":{{"x":{deep}}}}}"#).into_bytes());
        for rel in LOGS {
            let bytes = std::fs::read(root.join(rel)).unwrap();
            for m in chat_rows::dirty::Harness::new().mutations(bytes.len()) {
                let input = m.apply(&bytes);
                lines.extend(input.split(|c| *c == b'\n').map(<[u8]>::to_vec));
            }
        }
        let mut fast = 0;
        for line in &lines {
            let old = crate::decode::serde_event(line);
            match (event(line), old) {
                (Some(ev), Ok(old)) => {
                    fast += 1;
                    assert_eq!(format!("{ev:?}"), format!("{old:?}"));
                }
                (Some(ev), Err(e)) => panic!(
                    "read {ev:?} where serde_json says {e}: {}",
                    String::from_utf8_lossy(line)
                ),
                (None, _) => {}
            }
        }
        assert!(fast > 1000, "{fast} of {}", lines.len());
    }
}
