#![no_main]
//! Copilot's rewind index (with a backups listing), the generic `session.db` /
//! `data.db` reader and the `session-store.db` / `agent-traces.db` readers must never
//! panic, whatever the bytes: a rewind index from the input, and the input as a SQLite
//! image read through `sqlite-evidence`.
use copilot_events::{localdb, side};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let sd = side::Side {
        agent: "copilot",
        session: "s",
        mtime: None,
        file_name: "f",
    };
    let backups = side::Backups {
        files: vec![("a".into(), 3, None), ("b".into(), 0, None)],
    };
    let mut rows: Vec<chat_rows::Row> = Vec::new();
    side::rewind_index_with(data, &sd, Some(&backups), &mut |r| rows.push(r));
    if let Ok(db) = sqlite_evidence::Database::from_bytes(data, None) {
        let input = localdb::Input {
            agent: "copilot",
            file_name: "session.db",
            session: "s",
        };
        localdb::session_db_rows(&db, &input, &mut |r| rows.push(r));
        let _ = localdb::generic_rows(&db, &input, &[], &mut |r| rows.push(r));
        let twins = copilot_events::Twins::default();
        let store = copilot_events::stores::StoreInput {
            agent: "copilot",
            file_name: "session-store.db",
            twins: &twins,
        };
        copilot_events::stores::session_store_rows(&db, &store, &mut |r| rows.push(r));
        copilot_events::stores::traces_rows(&db, &store, &mut |r| rows.push(r));
    }
    // a text never holds a value that starts like a token where a column is printed
    for r in rows.iter().filter(|r| r.text.starts_with("store record:")) {
        assert!(
            !r.text.contains("=gho_") && !r.text.contains("=ghp_"),
            "{}",
            r.text
        );
    }
});
