//! Fuzzes the `state.vscdb` value decoder (BLOB text: UTF-8, UTF-16 with and without a
//! byte-order mark) and the mapping of every mapped key's value to rows, live and
//! deleted: no input may panic, and every row carries the item's key in its locator.
#![no_main]

use chat_rows::RecordState;
use libfuzzer_sys::fuzz_target;
use state_vscdb::rows::{
    ALLOWLIST_KEY, AUTOCONFIRM_KEYS, COPILOT_CHAT_KEY, Context, INDEX_KEY, LEGACY_KEY, OPT_IN_KEY,
    item_rows,
};
use state_vscdb::{Item, decode};

fuzz_target!(|data: &[u8]| {
    let (selector, value) = match data {
        [s, rest @ ..] => (*s, rest),
        [] => (0, data),
    };
    let _ = decode::utf16(value, true);
    let _ = decode::utf16(value, false);
    let text = decode::blob_text(value);
    if let Ok(s) = std::str::from_utf8(value) {
        if !value.contains(&0) {
            // valid UTF-8 without NUL bytes is kept as it is
            assert_eq!(text, s);
        }
    }
    let keys = [
        AUTOCONFIRM_KEYS[0],
        AUTOCONFIRM_KEYS[1],
        AUTOCONFIRM_KEYS[2],
        AUTOCONFIRM_KEYS[3],
        AUTOCONFIRM_KEYS[4],
        OPT_IN_KEY,
        ALLOWLIST_KEY,
        INDEX_KEY,
        LEGACY_KEY,
        COPILOT_CHAT_KEY,
        "github-alice-usages",
        "github-alice-mcpserver-usages",
        "github-enterprise-bob - ghe.example.com-usages",
        "some.other.extension",
    ];
    let key = keys[(selector as usize >> 1) % keys.len()];
    let deleted = selector & 1 == 1;
    let item = Item {
        key: key.to_string(),
        value: text,
        raw: None,
        rowid: Some(7),
        state: if deleted {
            RecordState::Deleted
        } else {
            RecordState::Live
        },
        location: if deleted {
            "wal frame 3".into()
        } else {
            "ItemTable rowid 7".into()
        },
        wal: None,
    };
    let ctx = Context {
        agent: "vscode".into(),
        source_file: "state.vscdb".into(),
        user_path: "User/globalStorage/state.vscdb".into(),
        project_path: "/proj".into(),
        workspace: String::new(),
        mtime: None,
    };
    for row in item_rows(&item, &ctx) {
        assert!(row.source_locator.contains(key), "{}", row.source_locator);
    }
});
