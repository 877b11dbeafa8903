//! The formats Cursor writes that are not plain JSON: the CLI's protobuf root blobs,
//! its hex-encoded `meta` row, and the times of the IDE's bubbles.
//!
//! # Why by hand
//!
//! The CLI's `store.db` is content-addressed: a root blob lists the SHA-256 ids of the
//! conversation's message blobs, in order, as a protobuf message whose repeated field 1
//! holds each 32-byte id. No `.proto` file is published, and only that one field (plus
//! the occasional JSON message wrapped in a length-delimited field) is needed, so a
//! small reader of varints and length-delimited fields does it: every length is
//! checked against the bytes that remain before it is used, nothing is allocated from
//! a length read off the file, and a malformed blob is an [`Error`] that says at which
//! byte, never a panic. A code generator would add a build step and a dependency for
//! two fields.
//!
//! # Times
//!
//! A bubble's `createdAt` is an ISO 8601 string on some builds and epoch milliseconds
//! on others; older bubbles have none. `timingInfo.clientStartTime` and its siblings
//! look like epoch milliseconds but on some builds are relative counters (milliseconds
//! since the window opened), which read as epochs land in January 1970.
//! [`plausible_millis`] accepts such a value only between 2020-01-01 and the database's
//! modification time (the newest of the main file's and its `-wal`'s: in WAL mode the
//! main file's time is only the last checkpoint), so a counter never becomes a time.
//!
//! The plan asks that check of `timingInfo` only. Every other epoch-millisecond time
//! (`createdAt`, `lastUpdatedAt`, `unixMs`, `createdAtMs`, ...) is read by
//! [`json_time`] with a fixed range that no real Cursor time falls outside:
//! 2020-01-01 (before any Cursor data; it also keeps `0` from becoming 1970) to
//! 2100-01-01 (it keeps a value in microseconds or nanoseconds from becoming a year
//! beyond 50000). A file's modification time is never a bound for these: a chat
//! written after the last checkpoint is newer than the main file.

use chat_rows::Timestamp;
use serde_json::Value;

use crate::Error;

/// 2020-01-01T00:00:00Z in epoch milliseconds: no Cursor data is older.
pub const EARLIEST_MS: i64 = 1_577_836_800_000;

/// 2100-01-01T00:00:00Z in epoch milliseconds: the end of the fixed range of
/// [`json_time`] (a value beyond it is in another unit, not a time in milliseconds).
pub const LATEST_MS: i64 = 4_102_444_800_000;

/// One field of a protobuf message, as read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1.
    Fixed64(u64),
    /// Wire type 2: bytes, a string or a nested message.
    Bytes(&'a [u8]),
    /// Wire type 5.
    Fixed32(u32),
}

/// Reads one varint at `*pos`, advancing it; at most 10 bytes.
pub fn varint(buf: &[u8], pos: &mut usize) -> Result<u64, Error> {
    let start = *pos;
    let mut value: u64 = 0;
    for i in 0..10 {
        let Some(&b) = buf.get(*pos) else {
            return Err(Error::Protobuf {
                offset: start,
                reason: "varint runs past the end".into(),
            });
        };
        *pos += 1;
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(Error::Protobuf {
        offset: start,
        reason: "varint longer than 10 bytes".into(),
    })
}

/// The fields of a protobuf message, in order: `(field number, value)`. Every length
/// is checked against what remains; an error names the byte offset of the bad field.
pub fn fields(buf: &[u8]) -> Result<Vec<(u64, Field<'_>)>, Error> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < buf.len() {
        let at = pos;
        let tag = varint(buf, &mut pos)?;
        let number = tag >> 3;
        if number == 0 {
            return Err(Error::Protobuf {
                offset: at,
                reason: "field number 0".into(),
            });
        }
        let field = match tag & 7 {
            0 => Field::Varint(varint(buf, &mut pos)?),
            1 => {
                let b = buf.get(pos..pos + 8).ok_or(Error::Protobuf {
                    offset: at,
                    reason: "fixed64 runs past the end".into(),
                })?;
                pos += 8;
                Field::Fixed64(u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
            }
            2 => {
                let len = varint(buf, &mut pos)?;
                let remaining = (buf.len() - pos) as u64;
                if len > remaining {
                    return Err(Error::Protobuf {
                        offset: at,
                        reason: format!("length {len} but {remaining} bytes remain"),
                    });
                }
                let b = &buf[pos..pos + len as usize];
                pos += len as usize;
                Field::Bytes(b)
            }
            5 => {
                let b = buf.get(pos..pos + 4).ok_or(Error::Protobuf {
                    offset: at,
                    reason: "fixed32 runs past the end".into(),
                })?;
                pos += 4;
                Field::Fixed32(u32::from_le_bytes(b.try_into().unwrap_or([0; 4])))
            }
            w => {
                return Err(Error::Protobuf {
                    offset: at,
                    reason: format!("wire type {w}"),
                });
            }
        };
        out.push((number, field));
    }
    Ok(out)
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

/// Decodes hex text (either case, surrounding whitespace ignored).
pub fn unhex(text: &str) -> Result<Vec<u8>, Error> {
    let t = text.trim().as_bytes();
    if t.len() % 2 != 0 {
        return Err(Error::Hex {
            offset: t.len(),
            reason: "odd number of hex digits".into(),
        });
    }
    let digit = |c: u8, at: usize| -> Result<u8, Error> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(Error::Hex {
                offset: at,
                reason: format!("byte 0x{c:02x} is not a hex digit"),
            }),
        }
    };
    let mut out = Vec::with_capacity(t.len() / 2);
    for (i, pair) in t.chunks_exact(2).enumerate() {
        out.push(digit(pair[0], 2 * i)? << 4 | digit(pair[1], 2 * i + 1)?);
    }
    Ok(out)
}

/// What a CLI blob is.
#[derive(Clone, Debug, PartialEq)]
pub enum Blob {
    /// A root: the ids (hex) of the message blobs of a conversation, in order.
    Root(Vec<String>),
    /// A message: a JSON object (bare, or wrapped in a protobuf field).
    Message(Value),
}

/// Decodes a blob of the CLI's `blobs` table (or an IDE `agentKv:blob:` value): JSON
/// text is a message; protobuf whose field 1 entries are all 32 bytes is a root; a
/// protobuf field holding a JSON object is a wrapped message. Anything else is an
/// error saying why.
pub fn blob(data: &[u8]) -> Result<Blob, Error> {
    blob_and_text(data).map(|(b, _)| b)
}

/// [`blob`], with a message's JSON text (the blob, or the protobuf field that wraps
/// it), from which a row prints a value as written.
pub fn blob_and_text(data: &[u8]) -> Result<(Blob, Option<&[u8]>), Error> {
    let trimmed = data.trim_ascii_start();
    if trimmed.first() == Some(&b'{') {
        return chat_rows::json::from_slice::<Value>(data)
            .map(|v| (Blob::Message(v), Some(data)))
            .map_err(|e| Error::Json {
                offset: e.column(),
                reason: chat_rows::json::reason(&e),
            });
    }
    let fs = fields(data)?;
    let ids: Vec<&[u8]> = fs
        .iter()
        .filter_map(|(n, f)| match (n, f) {
            (1, Field::Bytes(b)) => Some(*b),
            _ => None,
        })
        .collect();
    if !ids.is_empty() && ids.iter().all(|b| b.len() == 32) {
        return Ok((Blob::Root(ids.iter().map(|b| hex(b)).collect()), None));
    }
    for (_, f) in &fs {
        if let Field::Bytes(b) = f {
            if b.trim_ascii_start().first() == Some(&b'{') {
                if let Ok(v) = chat_rows::json::from_slice::<Value>(b) {
                    if v.is_object() {
                        return Ok((Blob::Message(v), Some(b)));
                    }
                }
            }
        }
    }
    Err(Error::Protobuf {
        offset: 0,
        reason: if fs.is_empty() {
            "empty".into()
        } else {
            "neither a root (field 1 of 32-byte ids) nor a wrapped JSON message".into()
        },
    })
}

/// The root blob's encoding: field 1 repeated, one 32-byte id each (for builders and tests).
pub fn encode_root(ids: &[[u8; 32]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ids.len() * 34);
    for id in ids {
        out.push(0x0a);
        out.push(0x20);
        out.extend_from_slice(id);
    }
    out
}

/// The CLI `meta` row `'0'`: hex-encoded JSON.
pub fn meta(value: &str) -> Result<Value, Error> {
    let bytes = unhex(value)?;
    chat_rows::json::from_slice::<Value>(&bytes).map_err(|e| Error::Json {
        offset: e.column(),
        reason: chat_rows::json::reason(&e),
    })
}

/// A `timingInfo` time in epoch milliseconds, only when it is a plausible wall-clock
/// time: after 2020-01-01 and not after `not_after` (the database's modification time,
/// main file or `-wal`, whichever is newer) when known.
pub fn plausible_millis(ms: f64, not_after: Option<Timestamp>) -> Option<Timestamp> {
    if !ms.is_finite() || ms < EARLIEST_MS as f64 {
        return None;
    }
    let t = Timestamp::from_epoch_millis_f64(ms)?;
    match not_after {
        Some(limit) if t.unix_micros() > limit.unix_micros() => None,
        _ => Some(t),
    }
}

/// Epoch milliseconds in the fixed range `[2020-01-01, 2100-01-01)` (see the module
/// docs): never bounded by a file's time.
pub fn epoch_millis(ms: f64) -> Option<Timestamp> {
    if !ms.is_finite() || ms < EARLIEST_MS as f64 || ms >= LATEST_MS as f64 {
        return None;
    }
    Timestamp::from_epoch_millis_f64(ms)
}

/// A JSON time (`createdAt`, `lastUpdatedAt`, ...): an ISO 8601 string, or epoch
/// milliseconds (number or digits) read by [`epoch_millis`].
pub fn json_time(v: &Value) -> Option<Timestamp> {
    match v {
        Value::Number(n) => epoch_millis(n.as_f64()?),
        Value::String(s) => {
            let t = s.trim();
            if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                epoch_millis(t.parse::<f64>().ok()?)
            } else {
                chat_rows::when::parse_iso8601(t, None)
            }
        }
        _ => None,
    }
}

/// A bubble's time: `createdAt` ([`json_time`]), else the first plausible `timingInfo`
/// value (`clientStartTime`, `clientRpcSendTime`, `clientSettleTime`, `clientEndTime`;
/// [`plausible_millis`] with `not_after`), else none.
pub fn bubble_time(bubble: &Value, not_after: Option<Timestamp>) -> Option<Timestamp> {
    if let Some(t) = bubble.get("createdAt").and_then(json_time) {
        return Some(t);
    }
    let timing = bubble.get("timingInfo")?;
    [
        "clientStartTime",
        "clientRpcSendTime",
        "clientSettleTime",
        "clientEndTime",
    ]
    .iter()
    .find_map(|k| {
        timing
            .get(*k)
            .and_then(Value::as_f64)
            .and_then(|ms| plausible_millis(ms, not_after))
    })
}

/// The text of a Lexical `richText` tree (a JSON string or object): text nodes joined,
/// paragraphs by newlines.
pub fn rich_text(v: &Value) -> String {
    let parsed;
    let root = match v {
        Value::String(s) => match chat_rows::json::from_str::<Value>(s) {
            Ok(p) => {
                parsed = p;
                &parsed
            }
            Err(_) => return String::new(),
        },
        other => other,
    };
    let mut paragraphs: Vec<String> = Vec::new();
    // iterative walk: a deep tree never exhausts the stack
    let mut stack: Vec<(&Value, bool)> = vec![(root, false)];
    let mut current = String::new();
    while let Some((node, closing)) = stack.pop() {
        if closing {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
            continue;
        }
        let kind = node.get("type").and_then(Value::as_str).unwrap_or("");
        if let Some(t) = node.get("text").and_then(Value::as_str) {
            current.push_str(t);
        }
        let Some(children) = node
            .get("children")
            .or_else(|| node.get("root"))
            .map(|c| match c {
                Value::Array(a) => a.iter().collect::<Vec<_>>(),
                Value::Object(_) => vec![c],
                _ => Vec::new(),
            })
        else {
            if kind == "linebreak" {
                current.push('\n');
            }
            continue;
        };
        if kind == "paragraph" {
            stack.push((node, true));
        }
        for c in children.into_iter().rev() {
            stack.push((c, false));
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    paragraphs.join("\n")
}

/// A JSON value as written: a string as is, anything else as compact JSON.
pub fn as_written(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protobuf_fields_checked() {
        let root = encode_root(&[[1; 32], [2; 32]]);
        match blob(&root).unwrap() {
            Blob::Root(ids) => {
                assert_eq!(ids.len(), 2);
                assert_eq!(ids[0], "01".repeat(32));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            fields(&[0x0a, 0x20, 1, 2]).unwrap_err().to_string(),
            "protobuf at byte 0: length 32 but 2 bytes remain"
        );
        assert_eq!(
            fields(&[0x08, 0xff]).unwrap_err().to_string(),
            "protobuf at byte 1: varint runs past the end"
        );
        assert_eq!(
            fields(&[0x0b]).unwrap_err().to_string(),
            "protobuf at byte 0: wire type 3"
        );
        let mut wrapped = vec![0x12, 11];
        wrapped.extend_from_slice(br#"{"role":1}x"#);
        assert!(blob(&wrapped[..12]).is_err());
        let mut wrapped = vec![0x12, 10];
        wrapped.extend_from_slice(br#"{"role":1}"#);
        assert_eq!(
            blob(&wrapped).unwrap(),
            Blob::Message(serde_json::json!({"role": 1}))
        );
    }

    #[test]
    fn hex_and_meta() {
        assert_eq!(unhex("7b7D").unwrap(), b"{}");
        assert_eq!(
            unhex("7g").unwrap_err().to_string(),
            "hex at byte 1: byte 0x67 is not a hex digit"
        );
        assert_eq!(meta(&hex(br#"{"a":1}"#)).unwrap()["a"], 1);
    }

    #[test]
    fn times() {
        let limit = Timestamp::from_epoch_millis(1_790_000_000_000);
        // a relative counter never reads as 1970
        assert_eq!(plausible_millis(183_422.0, limit), None);
        assert_eq!(plausible_millis(1_800_000_000_000.0, limit), None);
        assert!(plausible_millis(1_780_000_000_000.0, limit).is_some());
        let b = serde_json::json!({"timingInfo": {"clientStartTime": 5231.0, "clientEndTime": 1_780_000_000_000u64}});
        assert_eq!(
            bubble_time(&b, limit).map(|t| t.to_string()).as_deref(),
            Some("2026-05-28T20:26:40.000000Z")
        );
        // createdAt is not bounded by the file's time (a chat after the last checkpoint)
        let b = serde_json::json!({"createdAt": 1_800_000_000_000u64});
        assert_eq!(
            bubble_time(&b, limit).map(|t| t.to_string()).as_deref(),
            Some("2027-01-15T08:00:00.000000Z")
        );
        assert_eq!(json_time(&serde_json::json!(0)), None);
        assert_eq!(
            json_time(&serde_json::json!(1_780_000_000_000_000u64)),
            None
        );
        assert_eq!(
            json_time(&serde_json::json!("1780000000000")).map(|t| t.to_string()),
            Some("2026-05-28T20:26:40.000000Z".to_string())
        );
        let b = serde_json::json!({"createdAt": "2026-10-03T10:00:00.000Z"});
        assert_eq!(
            bubble_time(&b, None).map(|t| t.to_string()).as_deref(),
            Some("2026-10-03T10:00:00.000000Z")
        );
    }

    #[test]
    fn lexical() {
        let rt = serde_json::json!({"root": {"children": [
            {"type": "paragraph", "children": [{"type": "text", "text": "Fix "}, {"type": "text", "text": "the bug"}]},
            {"type": "paragraph", "children": [{"type": "text", "text": "please"}]}
        ]}});
        assert_eq!(
            rich_text(&Value::String(rt.to_string())),
            "Fix the bug\nplease"
        );
    }
}
