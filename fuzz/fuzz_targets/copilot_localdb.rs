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
    // (inside a quoted value, `=gho_` is text, not a column: a fuzz finding of
    // 2026-12-05 read `assistant_response="store rec=gho_"` as one)
    for r in rows.iter().filter(|r| r.text.starts_with("store record:")) {
        for v in printed_values(&r.text) {
            assert!(
                !v.starts_with("gho_") && !v.starts_with("ghp_"),
                "{}",
                r.text
            );
        }
    }
});

/// The values of a `store record:` row's `key=value` pairs: a JSON-quoted value
/// decoded, a bare one up to the next space.
fn printed_values(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(eq) = rest.find('=') {
        let after = &rest[eq + 1..];
        if after.starts_with('"') {
            let mut values = serde_json::Deserializer::from_str(after).into_iter::<String>();
            match values.next() {
                Some(Ok(v)) => {
                    out.push(v);
                    rest = &after[values.byte_offset()..];
                }
                _ => {
                    out.push(after.to_string());
                    break;
                }
            }
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}
