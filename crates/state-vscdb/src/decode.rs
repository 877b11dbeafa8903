//! ItemTable values: the text they hold, whatever SQLite stored.
//!
//! VS Code writes values through node-sqlite3 as TEXT, and older builds or other tools
//! as BLOB; a database created with `PRAGMA encoding = 'UTF-16'` keeps text as UTF-16.
//! SQLite converts TEXT to UTF-8 itself; a BLOB is decoded here: UTF-8 when it is
//! valid UTF-8, UTF-16 when it has a byte-order mark or looks like UTF-16 (every other
//! byte zero), else UTF-8 with replacement characters.

use sqlite_evidence::rusqlite::types::ValueRef;

/// Decodes UTF-16 bytes (`big_endian` or little), with replacement characters for
/// unpaired surrogates and a dangling odd byte.
pub fn utf16(bytes: &[u8], big_endian: bool) -> String {
    let units = bytes.chunks_exact(2).map(|c| {
        if big_endian {
            u16::from_be_bytes([c[0], c[1]])
        } else {
            u16::from_le_bytes([c[0], c[1]])
        }
    });
    let mut s: String = char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    if bytes.len() % 2 == 1 {
        s.push(char::REPLACEMENT_CHARACTER);
    }
    s
}

/// The text of a BLOB value (see the module docs for the rules).
pub fn blob_text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xff, 0xfe]) {
        return utf16(rest, false);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xfe, 0xff]) {
        return utf16(rest, true);
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        if !looks_utf16(bytes) {
            return s.to_string();
        }
    }
    if looks_utf16(bytes) {
        let le = bytes.len() >= 2 && bytes[1] == 0;
        return utf16(bytes, !le);
    }
    String::from_utf8_lossy(bytes).into_owned()
}

/// True when an even-length buffer has a zero in every odd (or every even) position
/// of its first 64 units: ASCII text stored as UTF-16.
fn looks_utf16(bytes: &[u8]) -> bool {
    if bytes.len() < 2 || bytes.len() % 2 != 0 {
        return false;
    }
    let head = &bytes[..bytes.len().min(128)];
    let odd_zero = head.chunks_exact(2).all(|c| c[1] == 0 && c[0] != 0);
    let even_zero = head.chunks_exact(2).all(|c| c[0] == 0 && c[1] != 0);
    odd_zero || even_zero
}

/// The text of any SQLite value: TEXT as is, BLOB decoded, numbers printed, NULL empty.
pub fn value_text(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => String::new(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => f.to_string(),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => blob_text(b),
    }
}

/// The text of a SQLite value ([`value_text`]) and, for a BLOB whose text does not give
/// its bytes back (not UTF-8, or read as UTF-16: a protobuf or other binary value), the
/// bytes as stored; `None` when the text's bytes are the stored ones.
pub fn value_text_and_raw(v: ValueRef<'_>) -> (String, Option<Vec<u8>>) {
    let text = value_text(v);
    let raw = match v {
        ValueRef::Blob(b) if b != text.as_bytes() => Some(b.to_vec()),
        _ => None,
    };
    (text, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs() {
        assert_eq!(blob_text(b"{\"a\":1}"), "{\"a\":1}");
        assert_eq!(blob_text(&[0xff, 0xfe, b'h', 0, b'i', 0]), "hi");
        assert_eq!(blob_text(&[0xfe, 0xff, 0, b'h', 0, b'i']), "hi");
        assert_eq!(blob_text(&[b'[', 0, b']', 0]), "[]");
        assert_eq!(blob_text(&[0, b'[', 0, b']']), "[]");
        assert_eq!(blob_text(&[b'a', 0xff]), "a\u{fffd}");
        assert_eq!(utf16(&[b'a', 0, b'b'], false), "a\u{fffd}");
        assert_eq!(value_text(ValueRef::Integer(5)), "5");
        assert_eq!(value_text(ValueRef::Null), "");
        // bytes kept only when the text does not give them back
        assert_eq!(
            value_text_and_raw(ValueRef::Blob(b"{}")),
            ("{}".into(), None)
        );
        assert_eq!(
            value_text_and_raw(ValueRef::Blob(&[0x0a, 0x20, 0xff])),
            ("\n \u{fffd}".into(), Some(vec![0x0a, 0x20, 0xff]))
        );
        assert_eq!(value_text_and_raw(ValueRef::Text(b"\xff")).1, None);
    }
}
