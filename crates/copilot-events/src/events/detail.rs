//! What a line's `data` holds beyond what its rows print, for the `session event
//! detail:` row: one more walk over `data` with the scanner's own steps, guided by the
//! key paths the rows print.
//!
//! Why a guided walk and not a tree: a tool result's `data` holds its output (often
//! megabytes) beside the few fields no row prints (`cwd`, `sandboxed`, telemetry).
//! Reading `data` as a serde_json `Value`, or splitting it into raw values and
//! splitting again where a path goes on, copied or validated the output once per level
//! (a 100 MB log of such lines took 0.62 s against 0.16 s without the detail rows; a
//! streaming serde_json pass, 0.37 s). Here every value is passed once, by the
//! scanner's skip (eight bytes at a time): a value a path goes into is walked in
//! place, one printed whole is skipped, and every other is kept as written (a span of
//! the line). Only the keys of one object at a time are held, to sort them; nothing is
//! built whose size grows with a value's. A string, array or object of 256 bytes or
//! more that the line's first read passed whole is not passed again: the first read
//! noted where it ends, and the walk jumps there (`decode::scan::Found`; the `sdk`
//! bench shape 0.245 → 0.162 s). Where the scanner gives up (a lone surrogate's
//! escape, nesting past 100), all of `data` is given as written.

use std::borrow::Cow;

use chat_rows::secrets::{looks_like_token, names_secret};

use crate::decode::scan::{Found, Walk};

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
    fn repeats(self, key: &str, r: &str, printed: &[&str]) -> bool {
        if self.path != [key] {
            return false;
        }
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
/// (compacted). A key that names a secret, and a text that starts like a token, print
/// `[withheld]` (see [`secret_key`]). Empty when there is none, or when `data` is no
/// object; all of `data` as written where the scanner gives up (a lone surrogate's
/// escape, read as U+FFFD; nesting past 100), its secret-named keys left out.
pub(crate) fn unprinted(found: Found<'_>, printed: &[&[&str]], same: Same<'_>) -> String {
    let data = found.text;
    if !data.trim_start().starts_with('{') {
        return String::new();
    }
    let mut out = String::new();
    let mut strings = Vec::new();
    // (the long values the line's first read passed are jumped over, not passed again)
    let mut walk = Walk::found(found);
    match rest(&mut walk, printed, same, true, &mut strings, &mut out) {
        Some(true) if walk.done() => out,
        Some(false) if walk.done() => String::new(),
        // where the scanner gives up: all of `data`, as written, rather than none
        _ => {
            chat_rows::json::compact_object_without(data.as_bytes(), secret_key).unwrap_or_default()
        }
    }
}

/// `chat_rows::secrets::WITHHELD` as a JSON string.
const WITHHELD_JSON: &str = "\"[withheld]\"";

/// True when a key names a secret (`chat_rows::secrets::names_secret`: a token, a key,
/// a password, `env`, `headers` ...), unless it only names a count of the model's
/// tokens (`outputTokens`, `tokenDetails`, `responseTokenLimit` ...).
fn secret_key(key: &str) -> bool {
    if !names_secret(key) {
        return false;
    }
    let mut rest = key.to_ascii_lowercase();
    for stat in [
        "tokens",
        "tokencount",
        "tokendetails",
        "tokenlimit",
        "tokentype",
        "token_count",
    ] {
        if rest.contains(stat) {
            rest = rest.replace(stat, "");
        }
    }
    names_secret(&rest)
}

/// `raw` (one JSON value as written) compacted into `out`, with the value of every key
/// that names a secret ([`secret_key`]) and every string that starts like a token
/// (`chat_rows::secrets::looks_like_token`) written as `[withheld]`, at any depth; as
/// written, compacted, where the scanner gives up.
fn scrubbed_into(out: &mut String, raw: &str) {
    // a string (a prompt as sent, a tool's output) is not passed again
    if let Some(text) = raw.strip_prefix('"') {
        match looks_like_token(text) {
            true => out.push_str(WITHHELD_JSON),
            false => out.push_str(raw),
        }
        return;
    }
    // no string in it, so no key and no token: as written (a 50 MB array of numbers
    // is copied, not walked)
    if memchr::memchr(b'"', raw.as_bytes()).is_none() {
        crate::decode::compact_json_into(out, raw);
        return;
    }
    let from = out.len();
    let mut walk = Walk::new(raw);
    if scrub(&mut walk, out).is_none() || !walk.done() {
        out.truncate(from);
        crate::decode::compact_json_into(out, raw);
    }
}

fn scrub(walk: &mut Walk<'_>, out: &mut String) -> Option<()> {
    match walk.peek()? {
        b'{' => {
            out.push('{');
            let mut first = true;
            walk.object(|walk, key| {
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str(&serde_json::to_string(key.as_ref()).ok()?);
                out.push(':');
                if secret_key(&key) {
                    walk.value()?;
                    out.push_str(WITHHELD_JSON);
                    Some(())
                } else {
                    scrub(walk, out)
                }
            })?;
            out.push('}');
        }
        b'[' => {
            out.push('[');
            let mut first = true;
            walk.array(|walk| {
                if !first {
                    out.push(',');
                }
                first = false;
                scrub(walk, out)
            })?;
            out.push(']');
        }
        b'"' => {
            let raw = walk.value()?;
            match looks_like_token(raw.trim_start_matches('"')) {
                true => out.push_str(WITHHELD_JSON),
                false => out.push_str(raw),
            }
        }
        _ => out.push_str(walk.value()?),
    }
    Some(())
}

/// An asset's `data` (`raw`, as written), never printed: `"[binary asset data left out,
/// <n> characters]"`, `<n>` the string's characters (a value of another kind: its
/// JSON's), as a `session.binary_asset`'s `session event:` row says it
/// (`decode::leave_out_asset_data`).
fn asset_note_into(out: &mut String, raw: &str) {
    let n = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) if !inner.contains('\\') => inner.chars().count(),
        _ => match serde_json::from_str::<Cow<'_, str>>(raw) {
            Ok(text) => text.chars().count(),
            Err(_) => raw.chars().count(),
        },
    };
    out.push_str("\"[binary asset data left out, ");
    chat_rows::system::push_u64(out, n as u64);
    out.push_str(" characters]\"");
}

/// True when `raw` is an object with a key other than those named (`false` where the
/// scanner gives up: the line's own read gave it whole).
pub(crate) fn has_key_but(raw: &str, named: &[&str]) -> bool {
    let mut walk = Walk::new(raw);
    if walk.peek() != Some(b'{') {
        return false;
    }
    // (the walk stops at the first other key: a 50 MB `stack` is not passed)
    let mut other = false;
    let _ = walk.object(|walk, key| {
        if !named.contains(&key.as_ref()) {
            other = true;
            return None;
        }
        walk.value().map(|_| ())
    });
    other
}

/// An object's kept value: as written, or its rest already written.
enum Kept<'a> {
    Raw(&'a str),
    Written(String),
}

/// The unprinted rest of the object at the cursor written into `out` (true), or
/// nothing (false). `top`: `data` itself, whose [`BOOKKEEPING`] keys are left out.
/// `printed`: the strings printed whole so far, as written, for [`Same::repeats`].
fn rest<'a>(
    walk: &mut Walk<'a>,
    paths: &[&[&str]],
    same: Same<'_>,
    top: bool,
    printed: &mut Vec<&'a str>,
    out: &mut String,
) -> Option<bool> {
    let mut kept: Vec<(Cow<'a, str>, Kept<'a>)> = Vec::new();
    // the paths under the key at hand (one buffer for the object's keys)
    let mut sub: Vec<&[&str]> = Vec::new();
    // an object with a `mimeType` holds an asset: its `data` is left out
    let mut asset = false;
    walk.object(|walk, key| {
        asset |= key == "mimeType";
        if top && BOOKKEEPING.contains(&key.as_ref()) {
            walk.value()?;
            return Some(());
        }
        // (`*`: any key, a map's)
        let here = |p: &&&[&str]| p.first().is_some_and(|k| *k == key || *k == "*");
        // whether a path ends here (printed whole) or goes on, without a list of the
        // paths under the key: most keys are neither, and most objects have no path
        let mut deeper = false;
        for p in paths.iter().filter(here) {
            if p.len() == 1 {
                let raw = walk.value()?;
                if raw.starts_with('"') {
                    printed.push(raw);
                }
                return Some(());
            }
            deeper = true;
        }
        let same_here = same.under(&key);
        if !deeper && same_here.path.is_empty() {
            let raw = walk.value()?;
            // (a key a path goes into is a field of the rows', never a secret's name)
            if secret_key(&key) {
                kept.push((key, Kept::Raw(WITHHELD_JSON)));
            } else if !same.repeats(&key, raw, printed) {
                kept.push((key, Kept::Raw(raw)));
            }
            return Some(());
        }
        sub.clear();
        sub.extend(paths.iter().filter(here).map(|p| &p[1..]));
        let mut text = String::new();
        let wrote = match walk.peek()? {
            b'{' => rest(walk, &sub, same_here, false, printed, &mut text)?,
            b'[' => items(walk, &sub, same_here, printed, &mut text)?,
            // no object where a path goes on: printed whole
            _ => {
                walk.value()?;
                false
            }
        };
        if wrote {
            kept.push((key, Kept::Written(text)));
        }
        Some(())
    })?;
    if kept.is_empty() {
        return Some(false);
    }
    kept.sort_by(|a, b| a.0.cmp(&b.0));
    for (i, (key, value)) in kept.iter().enumerate() {
        out.push(if i == 0 { '{' } else { ',' });
        if let Ok(k) = serde_json::to_string(key.as_ref()) {
            out.push_str(&k);
        }
        out.push(':');
        match value {
            Kept::Raw(raw) if asset && key == "data" => asset_note_into(out, raw),
            Kept::Raw(raw) => scrubbed_into(out, raw),
            Kept::Written(t) => out.push_str(t),
        }
    }
    out.push('}');
    Some(true)
}

/// The unprinted rest of the array at the cursor (the paths after `[]`): `{}` for an
/// object item with none, an item of another kind as written; nothing (false) when no
/// item has any.
fn items<'a>(
    walk: &mut Walk<'a>,
    paths: &[&[&str]],
    same: Same<'_>,
    printed: &mut Vec<&'a str>,
    out: &mut String,
) -> Option<bool> {
    let sub: Vec<&[&str]> = paths
        .iter()
        .filter_map(|p| p.split_first().filter(|(k, _)| **k == "[]").map(|(_, r)| r))
        .collect();
    let whole = sub.iter().any(|p| p.is_empty());
    let same = same.under("[]");
    let from = out.len();
    out.push('[');
    let mut any = false;
    let mut first = true;
    walk.array(|walk| {
        if !first {
            out.push(',');
        }
        first = false;
        if whole {
            walk.value()?;
            out.push_str("{}");
        } else if walk.peek()? == b'{' {
            let mark = out.len();
            if rest(walk, &sub, same, false, printed, out)? {
                any = true;
            } else {
                out.truncate(mark);
                out.push_str("{}");
            }
        } else {
            scrubbed_into(out, walk.value()?);
            any = true;
        }
        Some(())
    })?;
    if !any {
        out.truncate(from);
        return Some(false);
    }
    out.push(']');
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &[&[&str]] = &[
        &["content"],
        &["map", "*", "a"],
        &["result", "content"],
        &["result", "contents", "[]", "type"],
        &["list", "[]", "a"],
    ];

    fn rest(data: &str) -> String {
        let same = Same {
            path: &["result", "contents", "[]", "text"],
            texts: &["out\nput", "plain"],
        };
        unprinted(Found::plain(data), P, same)
    }

    /// Keys sorted where a path went in, other values as written (compacted), items
    /// kept in their places, repeated texts left out however they are escaped, scalars
    /// where a path goes on printed whole, what is not an object gives nothing, and
    /// what the scanner gives up on gives all of `data`.
    /// A walk that jumps over the long values a line's first read passed gives what a
    /// walk that passes them again gives: a printed string (and a repeat of it) left
    /// out, a kept one (at the top, in an object kept whole, in an item) and an object
    /// kept whole as written.
    #[test]
    fn jumping_over_long_strings_changes_nothing() {
        let long = "y\\n".repeat(100);
        let line = format!(
            r#"{{"type":"tool.execution_complete","data":{{"toolCallId":"c1","success":true,"result":{{"content":"{long}","contents":[{{"type":"terminal","text":"{long}","cwd":"{long}"}}]}},"toolTelemetry":{{"a":"{long}","b":1}},"note":"{long}"}}}}"#
        );
        let paths: &[&[&str]] = &[
            &["toolCallId"],
            &["success"],
            &["result", "content"],
            &["result", "contents", "[]", "type"],
        ];
        let same = Same {
            path: &["result", "contents", "[]", "text"],
            texts: &[],
        };
        let got = crate::decode::scan::with(&line, |_, data, _| {
            data.map(|d| {
                (
                    d.long.len(),
                    unprinted(d, paths, same),
                    unprinted(Found::plain(d.text), paths, same),
                )
            })
        });
        let want = format!(
            r#"{{"note":"{long}","result":{{"contents":[{{"cwd":"{long}"}}]}},"toolTelemetry":{{"a":"{long}","b":1}}}}"#
        );
        // (the content, the item's text and folder, the telemetry and its string, the note)
        assert_eq!(got, Some(Some((6, want.clone(), want))));
    }

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
            r#"{"list":[1e400]}"#
        );
        // where the scanner gives up (a lone surrogate's escape, nesting past 100): all
        // of `data`, as written (a lone surrogate as U+FFFD) but a secret-named key's
        assert_eq!(
            rest(r#"{"a":"\ud800", "content":"x","token":"t"}"#),
            r#"{"a":"\ufffd","content":"x"}"#
        );
        let deep = format!(r#"{{"list":[{}1{}]}}"#, "[".repeat(200), "]".repeat(200));
        assert_eq!(rest(&deep), deep);
        assert_eq!(rest(r#"{"n\u0061me":1}"#), r#"{"name":1}"#);
        // secrets: a key that names one, at any depth, and a text that starts like a
        // token are withheld; a count of tokens is not a secret
        assert_eq!(
            rest(
                r#"{"apiKey":"sk-1","env":{"GITHUB_TOKEN":"x"},"outputTokens":3,"tokenDetails":[{"tokenType":"input"}],"note":"ghp_abc","telemetry":{"headers":{"a":"b"},"ok":"Bearer gho_x","n":1}}"#
            ),
            r#"{"apiKey":"[withheld]","env":"[withheld]","note":"[withheld]","outputTokens":3,"telemetry":{"headers":"[withheld]","ok":"[withheld]","n":1},"tokenDetails":[{"tokenType":"input"}]}"#
        );
        assert_eq!(
            rest(r#"{"list":[{"a":1,"password":"p"},"ghp_x",{"a":2,"b":{"token":"t"}}]}"#),
            r#"{"list":[{"password":"[withheld]"},"[withheld]",{"b":{"token":"[withheld]"}}]}"#
        );
        // `*`: every key of a map
        assert_eq!(
            rest(r#"{"map":{"m1":{"a":1,"b":2},"m2":{"a":3}}}"#),
            r#"{"map":{"m1":{"b":2}}}"#
        );
    }
}
