//! Tabby's hash ids: Hashids with salt `tabby-id-serializer` and minimum length 6.
//!
//! The server never shows a row id outside the database: GraphQL ids, the
//! `x-tabby-user` header and so the event log's `user` field carry the Hashids form
//! (user 1 is `E16n1q`). Decoding it back to the row id is what lets an event-log
//! line name the account's email when the database is collected too.

use harsh::Harsh;

/// Tabby's salt (`ee/tabby-schema/src/schema/mod.rs`, `AsID`).
pub const SALT: &str = "tabby-id-serializer";
/// Tabby's minimum hash length.
pub const MIN_LENGTH: usize = 6;
/// The longest hash decoded: far beyond any real row id, short enough that no digit
/// sum can overflow a `u64` inside the decoder.
const MAX_DECODED_LEN: usize = 12;

/// Encoder/decoder for Tabby's hash ids.
#[derive(Clone, Debug)]
pub struct HashIds {
    harsh: Option<Harsh>,
}

impl Default for HashIds {
    fn default() -> Self {
        HashIds {
            harsh: Harsh::builder().salt(SALT).length(MIN_LENGTH).build().ok(),
        }
    }
}

impl HashIds {
    /// Tabby's codec.
    pub fn new() -> HashIds {
        HashIds::default()
    }

    /// The row id a hash id stands for, if it is a valid single-value hash id.
    pub fn decode(&self, hash: &str) -> Option<i64> {
        if hash.len() > MAX_DECODED_LEN || !hash.is_ascii() {
            return None;
        }
        let values = self.harsh.as_ref()?.decode(hash).ok()?;
        match values.as_slice() {
            [v] => i64::try_from(*v).ok(),
            _ => None,
        }
    }

    /// The hash id of a row id (negative ids have none).
    pub fn encode(&self, id: i64) -> Option<String> {
        let id = u64::try_from(id).ok()?;
        Some(self.harsh.as_ref()?.encode(&[id]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabby_user_ids() {
        let h = HashIds::new();
        assert_eq!(h.encode(1).as_deref(), Some("E16n1q"));
        assert_eq!(h.encode(2).as_deref(), Some("R1AWw5"));
        assert_eq!(h.decode("E16n1q"), Some(1));
        assert_eq!(h.decode("R1AWw5"), Some(2));
        for id in [3, 17, 1000, 123_456_789] {
            let s = h.encode(id).unwrap();
            assert_eq!(h.decode(&s), Some(id), "{s}");
        }
    }

    #[test]
    fn junk_does_not_decode() {
        let h = HashIds::new();
        assert_eq!(h.decode("1"), None);
        assert_eq!(h.decode(""), None);
        assert_eq!(h.decode("E16n1r"), None);
        assert_eq!(h.decode("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"), None);
        assert_eq!(h.decode("ééééé"), None);
        assert_eq!(h.encode(-1), None);
    }
}
