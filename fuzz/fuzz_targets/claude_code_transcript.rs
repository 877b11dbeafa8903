#![no_main]
//! Claude Code transcript decoding and row mapping must never panic, whatever the bytes;
//! every unreadable line must come back as a `parser:` row with its place; and the
//! history, settings and `.claude.json` readers must take any bytes.
use chat_rows::Row;
use claude_code_log::rows::{history, settings};
use claude_code_log::{MapOptions, SettingsScope, Transcript, transcript_rows};
use libfuzzer_sys::fuzz_target;
use session_tree::{Persisted, PersistedPointer};

fuzz_target!(|data: &[u8]| {
    let log = Transcript::from_bytes(data);
    let lookup = |p: &PersistedPointer| {
        assert!(!p.relative.split('/').any(|c| c == ".."));
        Persisted::Found {
            text: String::from("persisted"),
        }
    };
    let sub = data.first().is_some_and(|b| b & 1 == 1);
    let opts = MapOptions {
        agent_file: sub.then_some("agent-f"),
        fork: data.first().is_some_and(|b| b & 2 == 2),
        meta_model: Some("m"),
        ..MapOptions::new("fuzz.jsonl", "s", &lookup)
    };
    let mut rows: Vec<Row> = Vec::new();
    transcript_rows(&log, &opts, &mut rows);
    let bad = log.errors().len();
    assert!(rows.iter().filter(|r| r.is_parser()).count() >= bad);
    assert!(rows.iter().all(|r| r.source_line.is_some()));
    let mut other: Vec<Row> = Vec::new();
    // every session has one prompt, so a row with a paste held elsewhere runs the proof
    let mut prompts = |_: &str| {
        let at = 1_782_050_400_000_000;
        history::Prompts::new(vec![(at, String::from("fix [Pasted text #1] this"))])
    };
    let mut lines = chat_rows::lines::LineReader::from_bytes(data);
    history::history_rows(&mut lines, "history.jsonl", &mut prompts, &mut other)
        .expect("bytes at hand cannot fail");
    settings::settings_rows(
        data,
        SettingsScope::Project,
        "settings.json",
        "p/.claude/settings.json",
        None,
        &mut other,
    );
    settings::global_state_rows(data, ".claude.json", None, &mut other);
    settings::register_rows(data, "1.json", "sessions/1.json", &mut other);
    let _ = claude_code_log::locate(std::path::Path::new(String::from_utf8_lossy(data).as_ref()));
});
