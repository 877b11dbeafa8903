//! cursor-state's decoders: the CLI's blobs (protobuf roots, wrapped JSON), the hex
//! `meta`, and the IDE's bubble mapping, on arbitrary bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = cursor_state::decode::fields(data);
    let place = cursor_state::rows::Place::default();
    let _ = cursor_state::rows::ide::blob_rows(data, "id", &place);
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = cursor_state::decode::meta(text);
    }
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) {
        let mut models = cursor_state::rows::ide::Models::default();
        let _ = cursor_state::rows::ide::bubble_rows(&v, &place, &mut models);
        let raw = std::str::from_utf8(data).ok();
        let _ = cursor_state::rows::ide::bubble_rows_in(&v, raw, &place, &mut models);
        let _ = cursor_state::rows::ide::header_ids(&v);
        let _ = cursor_state::decode::bubble_time(&v, None);
    }
});
