#![no_main]
//! Tabby's decoders must never panic, whatever the bytes: the event log, config.toml,
//! the IntelliJ history, a database image, and the Hashids user ids.
use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = tabby_db::rows::Source {
        file: "fuzz.json",
        secondary: true,
    };
    let log = tabby_db::EventLog::from_bytes(data);
    let rows = tabby_db::rows::log_rows(&log, &BTreeMap::new(), &src);
    assert!(rows.len() >= log.entries.len());
    let _ = tabby_db::models_from_toml(data);
    let _ = tabby_db::intellij_history(data);
    if let Ok(db) = tabby_db::ServerDb::from_bytes(data, None) {
        let _ = tabby_db::rows::database_rows(&db, &src);
    }
    if let Ok(s) = std::str::from_utf8(data) {
        let ids = tabby_db::HashIds::new();
        if let Some(id) = ids.decode(s) {
            assert_eq!(ids.encode(id).as_deref(), Some(s));
        }
    }
});
