#![no_main]
//! Lone-surrogate repair, JSONC (as a value and as a tree), the as-written JSON helpers,
//! time and URI decoding must never panic; the tree reads what the value reads.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let repaired = chat_rows::json::repair_lone_surrogates(data);
    // repair only ever rewrites a 6-byte escape into another 6-byte escape
    assert_eq!(repaired.len(), data.len());
    let _ = chat_rows::json::from_slice::<serde_json::Value>(data);
    let value = chat_rows::jsonc::parse_bytes(data);
    let tree = chat_rows::jsonc::parse_tree_bytes(data);
    assert_eq!(value.is_ok(), tree.is_ok());
    if let (Ok(v), Ok(t)) = (&value, &tree) {
        let t = t.as_ref().map_or(serde_json::Value::Null, |t| t.to_value());
        assert_eq!(&t, v);
    }
    if let Ok(Some(t)) = &tree {
        let _ = t.compact(|k| k.len() == 1);
        let _ = t.text();
    }
    use chat_rows::json::Step;
    let path = [Step::Key("a"), Step::Index(1), Step::Key("b")];
    if let Some(c) = chat_rows::json::compact_at(data, &path) {
        // what is found is one JSON value, and it decodes to the value at that place
        let found: serde_json::Value = serde_json::from_str(&c).expect("compact JSON");
        // (a decoded value can fail where the raw walk does not: nesting past 128 levels
        // off the path)
        if let Ok(whole) = chat_rows::json::from_slice::<serde_json::Value>(data) {
            assert_eq!(whole.pointer("/a/1/b"), Some(&found));
        }
    }
    if let Some(c) = chat_rows::json::compact_object_without(data, |k| k == "a") {
        let _: serde_json::Value = serde_json::from_str(&c).expect("compact JSON");
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = chat_rows::when::parse_any(text, None);
        let _ = chat_rows::when::parse_rfc1123(text);
        let _ = chat_rows::uri::to_path(text);
    }
});
