//! The first, light pass over a session: a few fields per line, nothing else allocated.
//!
//! Rows need to know things about the whole file before the first row is written: which
//! ids and tool calls exist (to check links), which title wins, the first working
//! directory. Decoding every line in full twice would double the cost, so the first
//! pass deserializes each line into a product's small struct of the fields it needs
//! ([`Light`]) and skips the rest without allocating. A line the light decode refuses
//! (not an object, a duplicate key...) is decoded in full instead, so both passes agree
//! on which lines are readable.

use chat_rows::lines::Line;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::log::{Error, Record, SessionLog, decode_record};

/// A product's light view of a record.
pub trait Light<R>: DeserializeOwned {
    /// The same fields, from a record decoded in full.
    fn from_record(record: &R) -> Self;
}

/// A string field that is `None` when absent, empty or not a string.
pub fn lenient<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    use serde::Deserialize;
    Ok(match Value::deserialize(d)? {
        Value::String(s) if !s.is_empty() => Some(s),
        _ => None,
    })
}

/// Any value, kept as it is.
pub fn lenient_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    use serde::Deserialize;
    Ok(Some(Value::deserialize(d)?))
}

/// One line of the light pass: the light view (and the full record when the light
/// decode refused the line), or why the line is unreadable.
pub type LightEntry<'l, L, R> = (Line<'l>, Result<(L, Option<R>), Error>);

/// The light pass over every line, each lent to `f` with its light view; `Err` as
/// [`SessionLog::each_line`]'s.
pub fn light_pass<L: Light<R>, R: Record>(
    log: &SessionLog<'_, R>,
    mut f: impl FnMut(LightEntry<'_, L, R>),
) -> Result<(), Error> {
    log.each_line(|line| {
        // serde_json does not check the UTF-8 of strings it skips, so check it here,
        // or a line the second pass refuses would be indexed as readable
        let light = match std::str::from_utf8(line.bytes) {
            Ok(_) => {
                chat_rows::json::with_repaired(line.bytes, |b| serde_json::from_slice::<L>(b).ok())
            }
            Err(_) => None,
        };
        let read = match light {
            Some(l) => Ok((l, None)),
            None => decode_record::<R>(&line).map(|r| (L::from_record(&r), Some(r))),
        };
        f((line, read))
    })
}
