//! Fuzzes the H2 MVStore page decoder (both key/value codings, compressed pages) and
//! the whole-store reader with carving: no input may panic or allocate without bound.
#![no_main]

use copilot_nitrite::mvstore::{DataType, parse_page};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (chunk, offset) = match data {
        [a, b, ..] => (*a as u32, *b as u32 * 7),
        _ => (1, 0),
    };
    let _ = parse_page(data, chunk, offset, DataType::String, DataType::String, 0);
    let _ = parse_page(data, chunk, offset, DataType::Object, DataType::Object, 0);
    let file = copilot_nitrite::NitriteFile::from_bytes(data);
    let _ = copilot_nitrite::rows::file_rows(&file, "fuzz.db", "chat-agent-sessions", "");
});
