#![no_main]
//! Cody's history value, extension state, model preferences, settings and legacy XML
//! must never panic, and every damaged input must still map to rows.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ctx = chat_rows::FileContext::default();
    let rows = cody_history::history_rows_from_bytes(data, "f", &ctx);
    // a damaged chat is always reported
    let history = cody_history::ChatHistory::from_bytes(data);
    let damaged = history.chats.iter().filter(|c| c.damage.is_some()).count();
    assert!(rows.iter().filter(|r| r.is_parser()).count() >= damaged);
    let origin = cody_history::Origin::default();
    let _ = cody_history::extension_state_rows(data, &origin, None);
    let _ = cody_history::rows::model_preferences_file_rows(data, &origin, "x", None);
    let _ = cody_history::rows::settings_rows(data, &origin, "User/settings.json", None);
    let legacy = cody_history::LegacyHistory::from_bytes(data);
    let _ = cody_history::rows::legacy_rows(&legacy, "f", "/p", None);
    let _ = cody_history::rows::deleted_rows(None, &[(history, origin)]);
});
