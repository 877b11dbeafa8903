//! The dirty-input harness on every kind of Tabby fixture, and exact rows for broken input.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chat_rows::dirty::{Harness, Mutation, cuts_inside_a_line};
use chat_rows::{Evidence, FileContext, Row, Store};
use tabby_db::TabbyStore;

const MEMORY_LIMIT: u64 = 1 << 30;

fn tabby_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/evidence/tabby-srv/home/tabby/.tabby")
}

fn evidence_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evidence")
}

fn read_as(path: &Path) -> Vec<Row> {
    TabbyStore::default().read(path, &FileContext::default(), &Evidence::new())
}

#[test]
fn event_log_damage() {
    let input = std::fs::read(tabby_root().join("events/2026-10-01.json")).unwrap();
    let src = tabby_db::rows::Source {
        file: "e.json",
        secondary: true,
    };
    let report = Harness::new().run(&input, |b| {
        tabby_db::rows::log_rows(&tabby_db::EventLog::from_bytes(b), &BTreeMap::new(), &src)
    });
    report.assert_no_panics();
    report.assert_peak_memory_below(MEMORY_LIMIT);
    report.assert_damage_reported(|m| cuts_inside_a_line(&input, m));
    assert!(report.reported() > 60, "{}", report.reported());
}

#[test]
fn database_damage() {
    let ee = tabby_root().join("ee");
    let main = std::fs::read(ee.join("db.sqlite")).unwrap();
    let wal = std::fs::read(ee.join("db.sqlite-wal")).unwrap();
    let harness = Harness::new().truncations(12).flips(12).splices(6);
    let report = harness.run_files(
        &main,
        "ee/db.sqlite",
        &[("ee/db.sqlite-wal", &wal)],
        read_as,
    );
    report.assert_no_panics();
    report.assert_peak_memory_below(MEMORY_LIMIT);
    // a main file cut anywhere is reported (the header, or the pages it says it has)
    report.assert_damage_reported(|m| matches!(m, Mutation::Truncate(n) if *n < main.len()));
    let report = harness.run_files(&wal, "ee/db.sqlite-wal", &[("ee/db.sqlite", &main)], |p| {
        read_as(&p.with_file_name("db.sqlite"))
    });
    report.assert_no_panics();
    report.assert_peak_memory_below(MEMORY_LIMIT);
}

#[test]
fn backup_and_state_damage() {
    let backup = std::fs::read(tabby_root().join("ee/db.backup-20260925.sqlite")).unwrap();
    let harness = Harness::new().truncations(8).flips(8).splices(4);
    let report = harness.run_files(&backup, "ee/db.backup-20260925.sqlite", &[], read_as);
    report.assert_no_panics();
    report.assert_damage_reported(|m| matches!(m, Mutation::Truncate(n) if *n < backup.len()));
    let state =
        std::fs::read(evidence_root().join(
            "WIN-DESK03/C/Users/carol/AppData/Roaming/VSCodium/User/globalStorage/state.vscdb",
        ))
        .unwrap();
    let report = harness.run_files(&state, "User/globalStorage/state.vscdb", &[], read_as);
    report.assert_no_panics();
    report.assert_peak_memory_below(MEMORY_LIMIT);
}

#[test]
fn config_and_history_damage() {
    let config = std::fs::read(tabby_root().join("config.toml")).unwrap();
    let report = Harness::new().run_files(&config, ".tabby/config.toml", &[], read_as);
    report.assert_no_panics();
    for c in &report.cases {
        // whatever the damage, no row quotes the key
        assert!(c.panicked.is_none());
    }
    let xml = std::fs::read(
        evidence_root().join("lin-ws01/home/alice/.config/JetBrains/IntelliJIdea2024.2/options/intellij-tabby-command-history.xml"),
    )
    .unwrap();
    let last_gt = xml.iter().rposition(|b| *b == b'>').unwrap();
    let report = Harness::new().run_files(
        &xml,
        "options/intellij-tabby-command-history.xml",
        &[],
        read_as,
    );
    report.assert_no_panics();
    report.assert_peak_memory_below(MEMORY_LIMIT);
    report.assert_damage_reported(|m| matches!(m, Mutation::Truncate(n) if *n <= last_gt));
}

#[test]
fn damaged_config_never_quotes_the_key() {
    let config = std::fs::read(tabby_root().join("config.toml")).unwrap();
    for m in Harness::new().mutations(config.len()) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(".tabby/config.toml");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, m.apply(&config)).unwrap();
        for r in read_as(&p) {
            assert!(!r.text.contains("SECRET"), "{m:?}: {}", r.text);
        }
    }
}

fn texts(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .map(|r| format!("{} | {} | {}", r.record_state, r.source_locator, r.text))
        .collect()
}

fn write_in(dir: &Path, rel: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn broken_files_give_exact_rows() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = write_in(
        d,
        ".tabby/config.toml",
        b"[model.chat.http]\napi_key = \"sk-SECRET\nmodel_name = 1\n",
    );
    assert_eq!(
        texts(&read_as(&p)),
        vec![
            "live |  | parser: config.toml is not valid TOML (invalid basic string, expected `\"` at byte 38)"
        ]
    );
    let p = write_in(
        d,
        "options/intellij-tabby-command-history.xml",
        b"<application><component name=\"x\">",
    );
    assert_eq!(
        texts(&read_as(&p)),
        vec![
            "secondary | byte 33 | parser: not a readable XML document (unexpected end of file inside <component> at byte 33)"
        ]
    );
    let p = write_in(d, ".tabby/ee/db.sqlite", b"this is not a database at all, not even close to one; it is longer than a header...........");
    assert_eq!(
        texts(&read_as(&p)),
        vec![
            "live |  | parser: not a readable SQLite database (not an SQLite database: the file starts with \"this is not a da\")"
        ]
    );
    let p = write_in(d, ".tabby/ee/db.backup-20260101.sqlite", b"");
    assert_eq!(
        texts(&read_as(&p)),
        vec![
            "secondary |  | parser: not a readable SQLite database (empty database file (0 bytes) and no committed wal)"
        ]
    );
    let p = write_in(
        d,
        ".tabby/events/2026-01-01.json",
        b"{\"user\":\"E16n1q\",\"ts\":1,\"event\":{\"chat_completion\":{}}}\nnot json\n{\"user\":null,\"ts\":2,\"event\":\"view\"}\n{\"user\":\"\xff\",\"ts\":3,\"event\":{\"chat_completion\":{}}}\n",
    );
    assert_eq!(
        texts(&read_as(&p)),
        vec![
            "secondary | byte 0 | chat_completion: user_id=1",
            "secondary | byte 56 | parser: unparseable line (expected ident at line 1 column 2): not json",
            "secondary | byte 65 | parser: unparseable line (not a Tabby log entry: event is not a JSON object): {\"user\":null,\"ts\":2,\"event\":\"view\"}",
            "secondary | byte 101 | parser: unparseable line (invalid UTF-8 at byte 9 of the line): {\"user\":\"\u{fffd}\",\"ts\":3,\"event\":{\"chat_completion\":{}}}",
        ]
    );
}

/// The audit's t3: an IntelliJ history cut inside its third entry. It gave only the
/// `parser:` row; the two commands that closed before the cut are read now, with the
/// leading row, then the one `parser:` row at the byte of the damage.
#[test]
fn a_cut_intellij_history_keeps_the_commands_before_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let xml = b"<application>\n  <component name=\"com.tabbyml.intellijtabby.inlineChat.CommandHistory\">\n    <option name=\"history\">\n      <list>\n        <option value=\"add docstrings\" />\n        <option value=\"refactor the payment module\" />\n        <option value=\"rename";
    assert_eq!(xml.len(), 254);
    let p = write_in(
        dir.path(),
        "u/.config/JetBrains/PyCharm2024.1/options/intellij-tabby-command-history.xml",
        xml,
    );
    let rows = read_as(&p);
    let got: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}",
                r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
                r.session_id,
                r.turn_type,
                r.record_state,
                r.secondary,
                r.source_line.map(|l| l.to_string()).unwrap_or_default(),
                r.source_locator,
                r.text
            )
        })
        .collect();
    let s = "command-history:intellij:PyCharm2024.1";
    assert_eq!(
        got,
        [
            format!(
                "|{s}|system|secondary|true||whole file|inline edit command history: 2 commands, newest first (from intellij-tabby-command-history.xml, no times)"
            ),
            format!("|{s}|user|secondary|true|1|byte 136|add docstrings"),
            format!("|{s}|user|secondary|true|2|byte 178|refactor the payment module"),
            format!(
                "|{s}|system|secondary|true||byte 233|parser: not a readable XML document (syntax error: attribute value not closed: `\"` not found before end of input at byte 233)"
            ),
        ]
    );
    assert_eq!(&xml[233..240], b"<option");
}
