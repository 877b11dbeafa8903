//! A broken line's binary asset data, left out of the line a `parser:` row quotes.
//!
//! A `session.binary_asset` line that is not valid JSON (damaged, or torn as the last
//! line) is quoted by its `parser: unparseable line` row; the spec never outputs binary
//! asset data. The line cannot be decoded, so its bytes are scanned once, as JSON as
//! far as they are JSON: the value of `data.data` (or a `data` that is not an object)
//! is replaced by `"[binary asset data left out, <n> characters]"`, as far as it goes
//! when the line is cut inside it; where the structure stops being JSON, everything
//! after that point is left out the same way when it may still hold the asset's data
//! (the break is inside `data`, or before it, or the rest names an asset again).
//! A line is treated as an asset's when its `type` says so, when the unreadable rest
//! names `binary_asset`, or when no `type` of another known event could be read and
//! the line was cut before one or names `binary_asset` anywhere (a type damaged to an
//! unknown one counts as none); any other line is quoted as it is. In a line whose
//! type says it is an asset's, a key damaged out of `data` still hides nothing: with
//! no envelope `data` key, a string or container under a key the envelope does not
//! have is left out; with no `data` key in the asset, one under a key the asset does
//! not have (`mimeType`, `size`). One pass over the line, and a search or two of it.

use std::borrow::Cow;

const ASSET_TYPE: &[u8] = b"session.binary_asset";

/// The note that stands for `n` characters of asset data.
fn note(n: usize) -> String {
    format!("[binary asset data left out, {n} characters]")
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The line's object (the envelope).
    Top,
    /// The envelope's `data` object (the asset); `broad`: an object under a key the
    /// envelope does not have (perhaps `data`, damaged).
    Asset { broad: bool },
    /// Anything else.
    Other,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Type,
    Data,
    /// A key known to hold no asset data: the envelope's `id`, `timestamp`,
    /// `parentId`, `agentId`, `ephemeral`; the asset's `mimeType`, `size`.
    Known,
    Other,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    /// A key or the end of an empty object.
    Key,
    Colon,
    Value,
    /// A comma or the end of the container.
    Next,
}

struct Frame {
    object: bool,
    role: Role,
    key: Key,
}

/// What an asset data span is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Span {
    /// A string with both quotes.
    Closed,
    /// A string cut by the end of the line.
    Open,
    /// Another value, or whatever is left of the line.
    Whole,
}

/// How sure a span is asset data.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Breadth {
    /// The value of `data.data`, or a `data` that is no object.
    Narrow,
    /// Under a key the envelope does not have (perhaps `data`, damaged): asset data
    /// when the line is an asset's and has no envelope `data` key.
    Top,
    /// Under a key the asset does not have: asset data when the line is an asset's
    /// and its asset has no `data` key.
    Inner,
}

/// What one scan found.
#[derive(Default)]
struct Found {
    /// Spans of asset data values (`start..end`, quotes included for a string; a
    /// value cut by the end of the line runs to it), their kind and how sure.
    spans: Vec<(usize, usize, Span, Breadth)>,
    /// A `type` of the envelope was `session.binary_asset`.
    asset_type: bool,
    /// A `type` of the envelope was another type the reader knows.
    other_type: bool,
    /// Where the bytes stopped being JSON.
    broken: Option<usize>,
    /// The start of an asset value in progress (a container) at the break, and how
    /// sure.
    open: Option<(usize, Breadth)>,
    /// The break lies inside the envelope's `data` value.
    in_data: bool,
    /// The break lies inside the value of a key the envelope does not have, before
    /// any envelope `data` key.
    in_broad: bool,
    /// The envelope has a `data` key; its asset object has one.
    top_data: bool,
    inner_data: bool,
    /// The envelope's `data` value was read to its end.
    data_done: bool,
}

/// The asset data slot the value after this stack fills: none, or how sure.
fn slot(stack: &[Frame], c: u8) -> (Role, Option<Breadth>) {
    let scalar = !matches!(c, b'"' | b'{' | b'[');
    match stack.last() {
        None => (Role::Top, None),
        Some(p) if !p.object => (Role::Other, None),
        Some(p) => match (p.role, p.key) {
            (Role::Top, Key::Data) if c == b'{' => (Role::Asset { broad: false }, None),
            (Role::Top, Key::Data) => (Role::Other, Some(Breadth::Narrow)),
            // a number, `true`, `false` or `null` is no data unless `data` says so
            _ if scalar => (Role::Other, None),
            (Role::Top, Key::Other) if c == b'{' => (Role::Asset { broad: true }, None),
            (Role::Top, Key::Other) => (Role::Other, Some(Breadth::Top)),
            (Role::Asset { broad: true }, Key::Data | Key::Other | Key::Type) => {
                (Role::Other, Some(Breadth::Top))
            }
            (Role::Asset { broad: false }, Key::Data) => (Role::Other, Some(Breadth::Narrow)),
            (Role::Asset { broad: false }, Key::Other | Key::Type) => {
                (Role::Other, Some(Breadth::Inner))
            }
            _ => (Role::Other, None),
        },
    }
}

fn scan(b: &[u8], known: fn(&str) -> bool) -> Found {
    let mut f = Found::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut want = Want::Value;
    // the asset value in progress (a container): its start, depth and breadth
    let mut open_asset: Option<(usize, usize, Breadth)> = None;
    let mut done = false;
    let mut i = 0;
    macro_rules! broken {
        () => {{
            let last = stack.last().map(|fr| (fr.role, fr.key));
            f.in_data = stack
                .iter()
                .any(|fr| fr.role == Role::Asset { broad: false })
                || last == Some((Role::Top, Key::Data));
            f.in_broad = !f.top_data
                && (stack
                    .iter()
                    .any(|fr| fr.role == Role::Asset { broad: true })
                    || last == Some((Role::Top, Key::Other)));
            f.open = open_asset.map(|(s, _, broad)| (s, broad));
            f.broken = Some(i);
            return f;
        }};
    }
    while i < b.len() {
        let c = b[i];
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
            continue;
        }
        if done {
            broken!();
        }
        match want {
            Want::Colon => {
                if c != b':' {
                    broken!();
                }
                want = Want::Value;
                i += 1;
            }
            Want::Next => {
                let Some(top) = stack.last_mut() else {
                    broken!();
                };
                match (c, top.object) {
                    (b',', true) => {
                        want = Want::Key;
                        i += 1;
                    }
                    (b',', false) => {
                        want = Want::Value;
                        i += 1;
                    }
                    (b'}', true) | (b']', false) => {
                        stack.pop();
                        i += 1;
                        f.data_done |= ends_data(&stack);
                        if let Some((s, depth, broad)) = open_asset {
                            if depth == stack.len() {
                                f.spans.push((s, i, Span::Whole, broad));
                                open_asset = None;
                            }
                        }
                        want = Want::Next;
                        done = stack.is_empty();
                    }
                    _ => broken!(),
                }
            }
            Want::Key => {
                let Some(top) = stack.last_mut() else {
                    broken!();
                };
                if c == b'}' {
                    // an empty object (or a comma before the end: tolerated)
                    want = Want::Next;
                    continue;
                }
                if c != b'"' {
                    broken!();
                }
                let (end, closed) = string_end(b, i);
                let name = &b[i + 1..if closed { end - 1 } else { end }];
                match (top.role, name) {
                    (Role::Top, b"data") => f.top_data = true,
                    (Role::Asset { broad: false }, b"data") => f.inner_data = true,
                    _ => {}
                }
                top.key = match (top.role, name) {
                    (Role::Top, b"type") => Key::Type,
                    (Role::Top | Role::Asset { .. }, b"data") => Key::Data,
                    (Role::Top, b"id" | b"timestamp" | b"parentId" | b"agentId" | b"ephemeral")
                    | (Role::Asset { .. }, b"mimeType" | b"size") => Key::Known,
                    _ => Key::Other,
                };
                i = end;
                want = Want::Colon;
            }
            Want::Value => {
                let (role, asset_slot) = slot(&stack, c);
                // a value inside an asset value in progress is part of it
                let asset_slot = asset_slot.filter(|_| open_asset.is_none());
                match c {
                    b'{' | b'[' => {
                        if let Some(broad) = asset_slot {
                            open_asset = Some((i, stack.len(), broad));
                        }
                        let object = c == b'{';
                        stack.push(Frame {
                            object,
                            role: if object { role } else { Role::Other },
                            key: Key::Other,
                        });
                        want = if object { Want::Key } else { Want::Value };
                        i += 1;
                    }
                    b']' => {
                        // the end of an empty array
                        if stack.last().is_some_and(|p| !p.object) {
                            want = Want::Next;
                        } else {
                            broken!();
                        }
                    }
                    b'"' => {
                        let (end, closed) = string_end(b, i);
                        if let Some(p) = stack.last() {
                            if p.object && p.role == Role::Top && p.key == Key::Type {
                                let text = &b[i + 1..if closed { end - 1 } else { end }];
                                if text == ASSET_TYPE {
                                    f.asset_type = true;
                                } else if std::str::from_utf8(text).is_ok_and(known) {
                                    f.other_type = true;
                                }
                            }
                        }
                        f.data_done |= ends_data(&stack);
                        if let Some(broad) = asset_slot {
                            let kind = if closed { Span::Closed } else { Span::Open };
                            f.spans.push((i, end, kind, broad));
                        }
                        i = end;
                        want = Want::Next;
                        done = stack.is_empty();
                    }
                    _ => {
                        let start = i;
                        while i < b.len()
                            && matches!(b[i], b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'+' | b'-' | b'.')
                        {
                            i += 1;
                        }
                        let word = &b[start..i];
                        let ok = matches!(word, b"true" | b"false" | b"null")
                            || word
                                .first()
                                .is_some_and(|d| *d == b'-' || d.is_ascii_digit());
                        if !ok {
                            i = start;
                            broken!();
                        }
                        f.data_done |= ends_data(&stack);
                        if let Some(broad) = asset_slot {
                            f.spans.push((start, i, Span::Whole, broad));
                        }
                        want = Want::Next;
                        done = stack.is_empty();
                    }
                }
            }
        }
    }
    // the end of the line: a value still open is cut here
    if let Some((s, _, broad)) = open_asset {
        f.spans.push((s, b.len(), Span::Whole, broad));
    }
    f
}

/// A value that ends with this stack is the envelope's `data`.
fn ends_data(stack: &[Frame]) -> bool {
    stack
        .last()
        .is_some_and(|p| p.object && p.role == Role::Top && p.key == Key::Data)
}

/// The end (exclusive) of the JSON string opening at `b[i]`, and whether it closed
/// before the end of the line.
fn string_end(b: &[u8], i: usize) -> (usize, bool) {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return (j + 1, true),
            _ => j += 1,
        }
    }
    (b.len(), false)
}

/// `line` with its binary asset data left out (see the module), borrowed when it holds
/// none; `known` tells the types the reader knows (a line of another known type is no
/// asset's; an unknown one may be an asset's with its type damaged).
pub fn leave_out(line: &str, known: fn(&str) -> bool) -> Cow<'_, str> {
    let b = line.as_bytes();
    let f = scan(b, known);
    let names = |r: &[u8]| memchr::memmem::find(r, b"binary_asset").is_some();
    let rest = f.broken.map(|at| &b[at..]);
    // an asset's by its type; by a name in what could not be read; or, with no other
    // known type read, when the line was read to its end (torn before its type) or
    // names the type somewhere (its key or value damaged)
    let may_be_asset =
        f.asset_type || rest.is_some_and(names) || (!f.other_type && (rest.is_none() || names(b)));
    if !may_be_asset {
        return Cow::Borrowed(line);
    }
    // values under keys neither the envelope nor the asset has: the asset's data only
    // in a line whose type says it is an asset's, and which has no such `data` key
    let sure = |b: Breadth| match b {
        Breadth::Narrow => true,
        Breadth::Top => f.asset_type && !f.top_data,
        Breadth::Inner => f.asset_type && !f.inner_data,
    };
    // from where the rest is left out: the broken part may still hold asset data,
    // when it breaks inside the envelope's `data`, before that was read, or when the
    // rest names an asset again (another line run into this one)
    let cut = rest
        .filter(|&r| {
            f.in_data
                || (f.asset_type && f.in_broad)
                || (memchr::memmem::find(r, b"data").is_some() && (!f.data_done || names(r)))
        })
        .and_then(|_| match f.open {
            Some((s, b)) if sure(b) => Some(s),
            _ => f.broken,
        });
    let mut spans: Vec<(usize, usize, Span)> = f
        .spans
        .iter()
        .filter(|&&(s, _, _, b)| sure(b) && cut.is_none_or(|c| s < c))
        .map(|&(s, e, k, _)| (s, e, k))
        .collect();
    if let Some(c) = cut {
        spans.push((c, b.len(), Span::Whole));
    }
    if spans.is_empty() {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len().min(1024));
    let mut at = 0;
    for (s, e, kind) in spans {
        let (s, e) = (floor(line, s.max(at)), floor(line, e));
        if e < s {
            continue;
        }
        out.push_str(&line[at..s]);
        let value = &line[s..e];
        match kind {
            // the characters between the quotes; a string cut by the end of the line
            // keeps its closing quote missing
            Span::Closed if value.len() >= 2 => {
                let n = value[1..value.len() - 1].chars().count();
                out.push('"');
                out.push_str(&note(n));
                out.push('"');
            }
            Span::Open if !value.is_empty() => {
                out.push('"');
                out.push_str(&note(value[1..].chars().count()));
            }
            _ => out.push_str(&note(value.chars().count())),
        }
        at = e;
    }
    out.push_str(&line[at..]);
    Cow::Owned(out)
}

/// serde's message about a value of the wrong type with the string it quotes
/// (`invalid type: string "<s>", expected ...`) left out, for a binary asset whose
/// `data` is that string.
pub fn leave_out_of_reason(reason: &str) -> String {
    const AT: &str = "string \"";
    let Some(start) = reason.find(AT) else {
        return reason.to_string();
    };
    let body = start + AT.len();
    let b = reason.as_bytes();
    let (mut j, mut end) = (body, reason.len());
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => {
                end = j;
                break;
            }
            _ => j += 1,
        }
    }
    let end = floor(reason, end);
    let after = if end < reason.len() { end + 1 } else { end };
    format!(
        "{}string {}{}",
        &reason[..start],
        note(reason[body..end].chars().count()),
        &reason[after..]
    )
}

/// The largest char boundary of `s` at or before `i`.
fn floor(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    fn leave_out(l: &str) -> std::borrow::Cow<'_, str> {
        super::leave_out(l, |k| k == "user.message" || k == "session.warning")
    }

    const B64: &str = "U0VDUkVUU0VDUkVUU0VD";

    #[test]
    fn broken_after_the_asset() {
        let l = format!(
            r#"{{"type": "session.binary_asset", "data": {{"mimeType": "image/png", "data": "{B64}"}}, "id": "5", "parentId": nuXX"#
        );
        assert_eq!(
            leave_out(&l),
            r#"{"type": "session.binary_asset", "data": {"mimeType": "image/png", "data": "[binary asset data left out, 20 characters]"}, "id": "5", "parentId": nuXX"#
        );
    }

    #[test]
    fn torn_inside_the_asset() {
        let l = format!(
            r#"{{"type": "session.binary_asset", "data": {{"mimeType": "image/png", "data": "{B64}"#
        );
        assert_eq!(
            leave_out(&l),
            r#"{"type": "session.binary_asset", "data": {"mimeType": "image/png", "data": "[binary asset data left out, 20 characters]"#
        );
    }

    #[test]
    fn broken_inside_the_asset_object() {
        // a quote missing after the mime type: the rest is left out from the break
        let l = format!(
            r#"{{"type":"session.binary_asset","data":{{"mimeType":"image/png,"data":"{B64}"}}}}"#
        );
        assert_eq!(
            leave_out(&l),
            r#"{"type":"session.binary_asset","data":{"mimeType":"image/png,"[binary asset data left out, 30 characters]"#
        );
        // unquoted data, data as an array cut by a bad value, data not an object
        for l in [
            format!(r#"{{"type":"session.binary_asset","data":{{"data":{B64}}}}}"#),
            format!(r#"{{"type":"session.binary_asset","data":{{"data":["{B64}",x]}}}}"#),
            format!(r#"{{"type":"session.binary_asset","data":"{B64}","id":nope}}"#),
            format!(r#"{{"type":"session.binary_asset","data":["{B64}"#),
            format!(r#"{{"data":{{"data":"{B64}"#),
            format!(r#"{{"type":"x" "type":"session.binary_asset","data":{{"data":"{B64}"}}}}"#),
            format!(
                r#"{{"type":"user.message","data":{{"content":"c"}},"id":"a{{"type":"session.binary_asset","data":{{"data":"{B64}"}}}}"#
            ),
        ] {
            let out = leave_out(&l);
            assert!(!out.contains(B64), "{out}");
            assert!(out.contains("[binary asset data left out, "), "{out}");
        }
    }

    #[test]
    fn every_cut_and_every_lost_byte() {
        let line = format!(
            r#"{{"type": "session.binary_asset", "data": {{"mimeType": "image/png", "data": "{B64}{B64}"}}, "id": "5", "timestamp": "2026-10-04T10:00:03Z", "parentId": null}}"#
        );
        for n in 0..=line.len() {
            let cut = &line[..n];
            assert!(!leave_out(cut).contains("U0VDUkVU"), "{cut}");
            let lost = format!(
                "{}{}",
                &line[..n.min(line.len() - 1)],
                &line[n.min(line.len() - 1) + 1..]
            );
            assert!(!leave_out(&lost).contains("U0VDUkVU"), "{lost}");
        }
    }

    #[test]
    fn other_lines_as_they_are() {
        for l in [
            r#"{"type":"user.message","data":{"content":"hi","data":"kept"},"id":nuXX"#,
            r#"{"type":"user.message","data":{"data":"kept"#,
            r#"{"type":"session.binary_asset","data":{"mimeType":"image/png"},"id":nuXX"#,
            "not json at all",
            "",
            r#"["type":"session.warning","data":{"message":"m"}}"#,
            r#"{"pad":"kept","type":"session.binary_asset","data":{"mimeType":"m"},"id":nuXX"#,
            r#"{"type":"session.binary_asset","data":{"mimeType":"m"},"x":"kept","version":1,"id":nuXX"#,
            r#"{"type":"session.binary_asset","data":{"mimeType":"m"},"id":"a"{"type":"user.message","data":{"content":"c"}}"#,
        ] {
            assert_eq!(leave_out(l), l);
        }
    }
}
