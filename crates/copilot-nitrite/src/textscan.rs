//! The final fallback: the latin1 text scanner of `copilot.txt`, for bytes that no
//! decoded page (and no raw-scan stream) covers.
//!
//! Why it exists: a torn or damaged page that no longer decodes, and whose Java stream is
//! incomplete, can still hold a prompt, a thinking text or a whole reply. H2 and Java
//! framing are gone there, so the scanner reads the bytes as text, as the tools that
//! predate this crate did (`copilot.txt`, `h2-mvstore.md` §10 "Keep the current latin1
//! text scanner only as the final fallback"). It cannot see compressed pages and cannot
//! tell versions apart, which is why it only ever sees what nothing else decoded.
//!
//! What it looks for:
//! - the Java fields `stringContent` (the prompt) and `sessionId` (which session the
//!   texts after it belong to): a `TC_STRING`/`TC_LONGSTRING` field name followed by its
//!   string value, cut at the end of the file if need be;
//! - `Thinking`, `AgentRound` and `Markdown` records inside `contents` JSON, at whatever
//!   escaping depth they sit (`"type":"AgentRound","data":"…"` with 0, 1, 3, 7, …
//!   backslashes before each quote), reading the record's string structurally, one level
//!   of escaping at a time, so a quote inside a reply never cuts it; a record cut by the
//!   end of the range gives the text up to the cut.
//!
//! A `Markdown` record is the prompt in a value-map blob (`{"<uuid>":{"type":"Value"…`)
//! and in an agent blob that holds an `AgentRound`; in an ask-mode reply blob
//! (`{"__first__":…` without `AgentRound`), or where no blob start survives, it is the
//! reply. Identical texts of one kind are kept once (the store keeps byte-copies).

use std::cell::Cell;
use std::ops::Range;

use crate::javaser;

/// What a recovered text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextKind {
    /// A prompt: `stringContent`, or a `Markdown` record of a prompt blob.
    Prompt,
    /// A reply: an `AgentRound` `reply`, or a `Markdown` record of a reply blob.
    Reply,
    /// A `Thinking` record's `content`.
    Thinking,
}

/// A text found by the scanner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveredText {
    /// The file offset of the field or record it came from.
    pub offset: usize,
    /// What it is.
    pub kind: TextKind,
    /// The text.
    pub text: String,
    /// The session id of the nearest `sessionId` field before it in the same range, or
    /// empty.
    pub session: String,
}

/// Scans `ranges` of `data` (sorted, disjoint) for texts. Returns them in file order, and
/// the offset where the scan stopped when it reached its work limit (eight times the
/// file plus 64 MiB of bytes read), if it did.
pub fn scan(data: &[u8], ranges: &[Range<usize>]) -> (Vec<RecoveredText>, Option<usize>) {
    let budget = Cell::new(data.len().saturating_mul(8).saturating_add(64 << 20));
    let mut out: Vec<RecoveredText> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in ranges {
        let (start, end) = (r.start.min(data.len()), r.end.min(data.len()));
        if start >= end {
            continue;
        }
        match scan_range(data, start, end, &budget) {
            Ok(found) => {
                for t in found {
                    if !t.text.is_empty() && seen.insert((t.kind, t.text.clone())) {
                        out.push(t);
                    }
                }
            }
            Err(at) => return (out, Some(at)),
        }
    }
    (out, None)
}

/// Every offset of `needle` in `hay`.
fn find_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    if needle.is_empty() || hay.len() < needle.len() {
        return out;
    }
    let first = needle[0];
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        match hay[i..=hay.len() - needle.len()]
            .iter()
            .position(|b| *b == first)
        {
            None => break,
            Some(p) => {
                let at = i + p;
                if &hay[at..at + needle.len()] == needle {
                    out.push(at);
                }
                i = at + 1;
            }
        }
    }
    out
}

/// A Java string value right at `at` (`TC_STRING` or `TC_LONGSTRING`), cut at `end`.
fn java_string(data: &[u8], at: usize, end: usize) -> Option<String> {
    let (len, from) = match data.get(at)? {
        0x74 => {
            let b = data.get(at + 1..at + 3)?;
            (u16::from_be_bytes([b[0], b[1]]) as usize, at + 3)
        }
        0x7C => {
            let b = data.get(at + 1..at + 9)?;
            let n = u64::from_be_bytes(b.try_into().ok()?);
            (usize::try_from(n).unwrap_or(usize::MAX), at + 9)
        }
        _ => return None,
    };
    let to = from.saturating_add(len).min(end);
    Some(javaser::modified_utf8(data.get(from..to)?))
}

/// A Java field `name` (its `TC_STRING` name) followed by a string value: the offsets
/// of the values.
fn java_fields(data: &[u8], start: usize, end: usize, name: &str) -> Vec<usize> {
    let mut needle = vec![0x74, 0, name.len() as u8];
    needle.extend_from_slice(name.as_bytes());
    find_all(&data[start..end], &needle)
        .into_iter()
        .map(|p| start + p + needle.len())
        .collect()
}

fn scan_range(
    data: &[u8],
    start: usize,
    end: usize,
    budget: &Cell<usize>,
) -> Result<Vec<RecoveredText>, usize> {
    let hay = &data[start..end];
    let mut found: Vec<RecoveredText> = Vec::new();
    // sessions and prompts from the Java fields
    let sessions: Vec<(usize, String)> = java_fields(data, start, end, "sessionId")
        .into_iter()
        .filter_map(|at| java_string(data, at, end).map(|s| (at, s)))
        .collect();
    for at in java_fields(data, start, end, "stringContent") {
        if let Some(text) = java_string(data, at, end) {
            found.push(RecoveredText {
                offset: at,
                kind: TextKind::Prompt,
                text,
                session: String::new(),
            });
        }
    }
    // blob starts at depth 0: reply blobs and value maps
    let mut blobs: Vec<(usize, bool)> = find_all(hay, br#"{"__first__":{"type":"Subgraph""#)
        .into_iter()
        .map(|p| (start + p, true))
        .collect();
    for p in find_all(hay, br#"":{"type":"Value""#) {
        // `{"` + a 36-character UUID before it
        if p >= 38 && hay[p - 38..p - 36] == *b"{\"" {
            blobs.push((start + p - 38, false));
        }
    }
    blobs.sort_unstable();
    // records at any depth
    let mut records: Vec<(usize, &str)> = Vec::new();
    for (kind, field) in [
        ("Thinking", "content"),
        ("AgentRound", "reply"),
        ("Markdown", "text"),
    ] {
        for p in find_all(hay, kind.as_bytes()) {
            let at = start + p;
            let Some((rec_at, data_at, depth)) = record_marker(data, at, kind, end) else {
                continue;
            };
            let record = read_literal(data, data_at, end, depth, budget).ok_or(data_at)?;
            let Some(text) = field_text(&record, field) else {
                continue;
            };
            records.push((rec_at, kind));
            let kind = match kind {
                "Thinking" => TextKind::Thinking,
                "AgentRound" => TextKind::Reply,
                _ => TextKind::Prompt, // decided below, once every record is known
            };
            found.push(RecoveredText {
                offset: rec_at,
                kind,
                text,
                session: String::new(),
            });
        }
    }
    resolve(&mut found, &records, &blobs, &sessions, end);
    Ok(found)
}

/// Decides what each `Markdown` find is and attaches each find's session, in time
/// linear in the finds, records, blobs and sessions (up to a logarithm): a prompt in a
/// value map or an agent blob (a `Subgraph` blob holding an `AgentRound` record), else a
/// reply; the session is the nearest `sessionId` before the find. `blobs` and `sessions`
/// are sorted by offset (they come from one forward scan each). Record offsets are
/// looked up in a sorted list, blobs and sessions by bisection: scanning them per find
/// made a damaged store of N Markdown records and N `sessionId` fields quadratic
/// (160,000 of each, 6 MB: 18.4 s).
fn resolve(
    found: &mut [RecoveredText],
    records: &[(usize, &str)],
    blobs: &[(usize, bool)],
    sessions: &[(usize, String)],
    end: usize,
) {
    let mut record_at: Vec<usize> = records.iter().map(|r| r.0).collect();
    record_at.sort_unstable();
    let mut agents: Vec<usize> = records
        .iter()
        .filter(|r| r.1 == "AgentRound")
        .map(|r| r.0)
        .collect();
    agents.sort_unstable();
    for t in found.iter_mut() {
        if t.kind != TextKind::Prompt || record_at.binary_search(&t.offset).is_err() {
            continue;
        }
        // blobs starting at or before the find, and the first one after it
        let before = blobs.partition_point(|b| b.0 <= t.offset);
        let blob = before.checked_sub(1).map(|i| blobs[i]);
        let next = blobs.get(before).map_or(end, |b| b.0);
        t.kind = match blob {
            Some((b, true)) => {
                // an AgentRound record strictly between the blob's start and the next blob
                let first = agents.partition_point(|r| *r <= b);
                if agents.get(first).is_some_and(|r| *r < next) {
                    TextKind::Prompt
                } else {
                    TextKind::Reply
                }
            }
            Some((_, false)) => TextKind::Prompt,
            None => TextKind::Reply,
        };
    }
    found.sort_by_key(|t| t.offset);
    for t in found.iter_mut() {
        let before = sessions.partition_point(|(at, _)| *at < t.offset);
        if let Some((_, s)) = before.checked_sub(1).map(|i| &sessions[i]) {
            t.session = s.clone();
        }
    }
}

/// At `at` a record kind name: checks `Q"type"Q:Q"` before it and `Q,Q"data"Q:Q"` after
/// it, where `Q` is the `2^k - 1` backslashes of escaping depth `k`. Returns the offset of
/// the record (its `"type"`), of the data string's first byte, and `k`.
fn record_marker(data: &[u8], at: usize, kind: &str, end: usize) -> Option<(usize, usize, u32)> {
    let quote = at.checked_sub(1)?;
    if data[quote] != b'"' {
        return None;
    }
    let m = data[..quote]
        .iter()
        .rev()
        .take(64)
        .take_while(|b| **b == b'\\')
        .count();
    if !(m + 1).is_power_of_two() {
        return None;
    }
    let depth = (m + 1).trailing_zeros();
    let q = |s: &str| -> Vec<u8> {
        // each `"` of the pattern gets m backslashes before it
        let mut v = Vec::new();
        for b in s.bytes() {
            if b == b'"' {
                v.extend(std::iter::repeat_n(b'\\', m));
            }
            v.push(b);
        }
        v
    };
    let before = q(r#""type":""#);
    let rec_at = quote.checked_sub(before.len() - 1)?;
    if data.get(rec_at..quote + 1)? != before.as_slice() {
        return None;
    }
    let after = q(r#"","data":""#);
    let tail = at + kind.len();
    if data.get(tail..tail + after.len())? != after.as_slice() || tail + after.len() > end {
        return None;
    }
    Some((rec_at, tail + after.len(), depth))
}

/// Reads the string literal whose content starts at `from`, at escaping depth `depth`
/// (its closing quote is bare after `depth` levels of unescaping), up to `end`. None when
/// the work budget is spent.
fn read_literal(
    data: &[u8],
    from: usize,
    end: usize,
    depth: u32,
    budget: &Cell<usize>,
) -> Option<String> {
    let raw = Raw {
        data: &data[from..end],
        i: 0,
        budget,
        spent: false,
    };
    let mut src: Box<dyn Iterator<Item = char> + '_> = Box::new(raw);
    for _ in 0..depth {
        src = Box::new(Unescape::new(src, false));
    }
    let text: String = Unescape::new(src, true).collect();
    if budget.get() == 0 {
        return None;
    }
    Some(text)
}

/// The text of `"field":"…"` in a record's JSON (the string read structurally; cut at
/// the end when the record is).
fn field_text(record: &str, field: &str) -> Option<String> {
    let key = format!("\"{field}\":\"");
    let at = record.find(&key)? + key.len();
    let chars: Box<dyn Iterator<Item = char> + '_> = Box::new(record[at..].chars());
    Some(Unescape::new(chars, true).collect())
}

/// Bytes as characters: UTF-8 (Java's modified UTF-8 where it differs is rare in
/// replies), one U+FFFD per byte that starts no valid sequence. Charges the budget.
struct Raw<'a> {
    data: &'a [u8],
    i: usize,
    budget: &'a Cell<usize>,
    spent: bool,
}

impl Iterator for Raw<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        if self.spent || self.i >= self.data.len() {
            return None;
        }
        let left = self.budget.get();
        if left == 0 {
            self.spent = true;
            return None;
        }
        let b = self.data[self.i];
        // Java's modified UTF-8: a supplementary character is two 3-byte surrogates
        if let Some(&[0xED, h1 @ 0xA0..=0xAF, h2, 0xED, l1 @ 0xB0..=0xBF, l2]) =
            self.data.get(self.i..self.i + 6)
        {
            let hi = 0xD000 | (u32::from(h1 & 0x3F) << 6) | u32::from(h2 & 0x3F);
            let lo = 0xD000 | (u32::from(l1 & 0x3F) << 6) | u32::from(l2 & 0x3F);
            self.i += 6;
            self.budget.set(left.saturating_sub(6));
            return Some(
                char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                    .unwrap_or('\u{FFFD}'),
            );
        }
        let n = match b {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 0,
        };
        let c = self
            .data
            .get(self.i..self.i + n.max(1))
            .filter(|_| n > 0)
            .and_then(|s| std::str::from_utf8(s).ok())
            .and_then(|s| s.chars().next());
        let used = if c.is_some() { n } else { 1 };
        self.i += used;
        self.budget.set(left.saturating_sub(used));
        Some(c.unwrap_or('\u{FFFD}'))
    }
}

/// One level of JSON string unescaping over a character source. With `literal`, a bare
/// `"` ends the string; otherwise quotes pass through (a deeper level's view).
struct Unescape<'a> {
    src: Box<dyn Iterator<Item = char> + 'a>,
    literal: bool,
    pending: std::collections::VecDeque<char>,
    done: bool,
}

impl<'a> Unescape<'a> {
    fn new(src: Box<dyn Iterator<Item = char> + 'a>, literal: bool) -> Unescape<'a> {
        Unescape {
            src,
            literal,
            pending: std::collections::VecDeque::new(),
            done: false,
        }
    }

    fn pull(&mut self) -> Option<char> {
        self.pending.pop_front().or_else(|| self.src.next())
    }

    /// Four hex digits after `\u`; the characters read are kept when they are not hex.
    fn hex4(&mut self) -> Result<u32, Vec<char>> {
        let mut read = Vec::new();
        let mut v = 0;
        for _ in 0..4 {
            let Some(c) = self.pull() else {
                return Err(read);
            };
            read.push(c);
            match c.to_digit(16) {
                Some(d) => v = v * 16 + d,
                None => return Err(read),
            }
        }
        Ok(v)
    }
}

impl Iterator for Unescape<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        if self.done {
            return None;
        }
        let c = self.pull()?;
        if c == '"' && self.literal {
            self.done = true;
            return None;
        }
        if c != '\\' {
            return Some(c);
        }
        let Some(e) = self.pull() else {
            // cut in the middle of an escape
            self.done = true;
            return None;
        };
        Some(match e {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'u' => match self.hex4() {
                Ok(u) if (0xD800..0xDC00).contains(&u) => {
                    // a high surrogate: its low half follows as `\uDCxx`
                    let mut look = Vec::new();
                    let low = match (self.pull(), self.pull()) {
                        (Some('\\'), Some('u')) => {
                            look.extend(['\\', 'u']);
                            match self.hex4() {
                                Ok(l) if (0xDC00..0xE000).contains(&l) => Some(l),
                                Ok(l) => {
                                    look.extend(format!("{l:04x}").chars());
                                    None
                                }
                                Err(r) => {
                                    look.extend(r);
                                    None
                                }
                            }
                        }
                        (a, b) => {
                            look.extend(a.into_iter().chain(b));
                            None
                        }
                    };
                    match low {
                        Some(l) => char::from_u32(0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00))
                            .unwrap_or('\u{FFFD}'),
                        None => {
                            for c in look.into_iter().rev() {
                                self.pending.push_front(c);
                            }
                            '\u{FFFD}'
                        }
                    }
                }
                Ok(u) => char::from_u32(u).unwrap_or('\u{FFFD}'),
                Err(read) => {
                    for c in read.into_iter().rev() {
                        self.pending.push_front(c);
                    }
                    self.pending.push_front('u');
                    '\\'
                }
            },
            other => {
                self.pending.push_front(other);
                '\\'
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_at_any_depth_and_cut_ones() {
        // depth 1: the record inside a `value` string of a value map
        let blob = r#"{"00000000-0000-0000-0000-000000000000":{"type":"Value","value":"{\"type\":\"AgentRound\",\"data\":\"{\\\"roundId\\\":1,\\\"reply\\\":\\\"Say \\\\\\\"hi\\\\\\\" \\\\u00e9\\\\ud83d\\\\ude00\\\"}\"}"}}"#;
        let data = format!("xx\u{74}\0\u{9}sessionId\u{74}\0\u{2}s1{blob}");
        let (t, stop) = scan(data.as_bytes(), std::slice::from_ref(&(0..data.len())));
        assert_eq!(stop, None);
        assert_eq!(
            t,
            [RecoveredText {
                offset: data.find(r#"\"type\":\"AgentRound"#).unwrap(),
                kind: TextKind::Reply,
                text: "Say \"hi\" é😀".into(),
                session: "s1".into(),
            }]
        );
        // cut inside the reply: the text up to the cut
        let cut = &data.as_bytes()[..data.find("hi").unwrap()];
        let (t, _) = scan(cut, std::slice::from_ref(&(0..cut.len())));
        assert_eq!(t[0].text, "Say \"");
    }

    /// The resolution as it was before [`resolve`]: a scan of every record, blob and
    /// session per find (quadratic), kept to check that the bisections answer the same.
    fn resolve_by_scans(
        found: &mut [RecoveredText],
        records: &[(usize, &str)],
        blobs: &[(usize, bool)],
        sessions: &[(usize, String)],
        end: usize,
    ) {
        for t in found.iter_mut() {
            if t.kind != TextKind::Prompt || !records.iter().any(|r| r.0 == t.offset) {
                continue;
            }
            let blob = blobs.iter().rev().find(|b| b.0 <= t.offset);
            let next = blobs.iter().find(|b| b.0 > t.offset).map_or(end, |b| b.0);
            t.kind = match blob {
                Some((b, true)) => {
                    let agent = records
                        .iter()
                        .any(|r| r.1 == "AgentRound" && r.0 > *b && r.0 < next);
                    if agent {
                        TextKind::Prompt
                    } else {
                        TextKind::Reply
                    }
                }
                Some((_, false)) => TextKind::Prompt,
                None => TextKind::Reply,
            };
        }
        found.sort_by_key(|t| t.offset);
        for t in found.iter_mut() {
            if let Some((_, s)) = sessions.iter().rev().find(|(at, _)| *at < t.offset) {
                t.session = s.clone();
            }
        }
    }

    #[test]
    fn resolving_by_bisection_answers_as_the_scans_did() {
        // 500 generated layouts of records, blobs and sessions on a small range of
        // offsets, so that they collide, touch and interleave
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        };
        let mut differing_kinds = 0;
        for _ in 0..500 {
            let span = 20 + rnd(200) as u64;
            let mut records: Vec<(usize, &str)> = Vec::new();
            let mut found: Vec<RecoveredText> = Vec::new();
            for kind in ["Thinking", "AgentRound", "Markdown"] {
                let mut at: Vec<usize> = (0..rnd(12)).map(|_| rnd(span)).collect();
                at.sort_unstable();
                at.dedup();
                for a in at {
                    records.push((a, kind));
                    found.push(RecoveredText {
                        offset: a,
                        kind: match kind {
                            "Thinking" => TextKind::Thinking,
                            "AgentRound" => TextKind::Reply,
                            _ => TextKind::Prompt,
                        },
                        text: format!("{kind} {a}"),
                        session: String::new(),
                    });
                }
            }
            // prompts of `stringContent` fields: kind Prompt, not records
            for _ in 0..rnd(4) {
                found.insert(
                    rnd(found.len() as u64 + 1),
                    RecoveredText {
                        offset: rnd(span),
                        kind: TextKind::Prompt,
                        text: "field".into(),
                        session: String::new(),
                    },
                );
            }
            let mut blobs: Vec<(usize, bool)> =
                (0..rnd(8)).map(|_| (rnd(span), rnd(2) == 0)).collect();
            blobs.sort_unstable();
            let mut sessions: Vec<(usize, String)> =
                (0..rnd(8)).map(|i| (rnd(span), format!("s{i}"))).collect();
            sessions.sort_by_key(|s| s.0);
            let end = span as usize + rnd(3);
            let mut fast = found.clone();
            resolve(&mut fast, &records, &blobs, &sessions, end);
            let mut slow = found.clone();
            resolve_by_scans(&mut slow, &records, &blobs, &sessions, end);
            assert_eq!(fast, slow);
            differing_kinds += usize::from(
                fast.iter()
                    .any(|t| t.kind == TextKind::Prompt && t.text.starts_with("Markdown"))
                    && fast
                        .iter()
                        .any(|t| t.kind == TextKind::Reply && t.text.starts_with("Markdown")),
            );
        }
        // the layouts exercise both answers for Markdown records
        assert!(differing_kinds > 50, "{differing_kinds}");
    }

    #[test]
    fn many_markdown_records_and_sessions_resolve_exactly() {
        // the audit's shape: N Markdown records, then N `sessionId` fields after them
        // (each find looked at every record and every session); here with a reply blob
        // before the first half and an agent blob (with an AgentRound) before the second
        // half, and every tenth session field among the records
        let n = 3000;
        let mut data = Vec::new();
        data.extend_from_slice(br#"{"__first__":{"type":"Subgraph","value":"#);
        let mut expect = Vec::new();
        let mut session = String::new();
        for i in 0..n {
            if i == n / 2 {
                data.extend_from_slice(br#"{"__first__":{"type":"Subgraph","value":"#);
                data.extend_from_slice(br#""type":"AgentRound","data":"{\"reply\":\"r\"}" "#);
            }
            if i % 10 == 0 {
                session = format!("s{i:05}");
                data.extend_from_slice(b"\x74\x00\x09sessionId\x74\x00\x06");
                data.extend_from_slice(session.as_bytes());
            }
            let at = data.len();
            data.extend_from_slice(
                format!(r#""type":"Markdown","data":"{{\"text\":\"md {i}\"}}" "#).as_bytes(),
            );
            let kind = if i < n / 2 {
                TextKind::Reply
            } else {
                TextKind::Prompt
            };
            expect.push((at, kind, format!("md {i}"), session.clone()));
        }
        for i in 0..n {
            data.extend_from_slice(b"\x74\x00\x09sessionId\x74\x00\x06");
            data.extend_from_slice(format!("t{i:05}").as_bytes());
        }
        let (t, stop) = scan(&data, std::slice::from_ref(&(0..data.len())));
        assert_eq!(stop, None);
        let got: Vec<(usize, TextKind, String, String)> = t
            .iter()
            .filter(|t| t.text.starts_with("md "))
            .map(|t| (t.offset, t.kind, t.text.clone(), t.session.clone()))
            .collect();
        assert_eq!(got, expect);
        // and the one AgentRound reply, in the session before it (the field of i = 1500
        // comes after it)
        let r: Vec<_> = t.iter().filter(|t| t.text == "r").collect();
        assert_eq!(r.len(), 1);
        assert_eq!(
            (r[0].kind, r[0].session.as_str()),
            (TextKind::Reply, "s01490")
        );
        assert_eq!(t.len(), n + 1);
    }
}
