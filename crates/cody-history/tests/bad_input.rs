//! Damaged input: exact parser rows, the dirty-input harness on every fixture, and
//! no secret of the fixtures in any output.

mod common;

use std::path::Path;

use chat_rows::dirty::{Harness, Mutation};
use chat_rows::{Evidence, FileContext, RecordState, Row, Store};
use cody_history::{LegacyHistory, Origin, rows};
use common::{evidence_root, fixture};

const ALICE_HISTORY: &str =
    "lin-ws01/home/alice/.local/share/Cody-nodejs/JetBrains-globalState/cody-local-chatHistory-v2";
const ALICE_PREFS: &str =
    "lin-ws01/home/alice/.local/share/Cody-nodejs/JetBrains-globalState/cody-model-preferences";
const ALICE_SETTINGS: &str = "lin-ws01/home/alice/.config/VSCodium/User/settings.json";
const WEBAPP_XML: &str = "lin-ws01/home/alice/src/webapp/.idea/cody_history.xml";
const DB: &str = "lin-ws01/home/alice/.config/VSCodium/User/globalStorage/state.vscdb";

/// Peak memory allowed while parsing damaged copies of small fixtures.
const PEAK: u64 = 1 << 30;

fn file_origin() -> Origin {
    Origin {
        source_file: "f".into(),
        line: Some(1),
        ..Origin::default()
    }
}

fn texts(rows: &[Row]) -> Vec<&str> {
    rows.iter().map(|r| r.text.as_str()).collect()
}

fn truncated_before(input: &[u8], m: &Mutation, end: usize) -> bool {
    matches!(*m, Mutation::Truncate(n) if n < end && !input[..n].iter().all(u8::is_ascii_whitespace))
}

#[test]
fn a_damaged_chat_is_one_record_row_and_the_others_are_read() {
    let v = br#"{"https://sourcegraph.com/-a-b":{"chat":{"Fri, 03 Oct 2026 10:00:00 GMT":{"id":"x","interactions":[{"humanMessage":{"text":"good one"},"assistantMessage":null}]},"Sat, 04 Oct 2026 10:00:00 GMT":{"id":"y","interactions":[{"humanMessage":{"text":}}]},"Sun, 05 Oct 2026 10:00:00 GMT":{"interactions":[{"humanMessage":{"text":"after the damage"}}]}}}}"#;
    let rows = cody_history::history_rows_from_bytes(v, "f", &FileContext::default());
    assert_eq!(
        texts(&rows),
        vec![
            "session start: account=https://sourcegraph.com/-a-b endpoint=https://sourcegraph.com/ username=a-b",
            "good one",
            "session start: account=https://sourcegraph.com/-a-b endpoint=https://sourcegraph.com/ username=a-b",
            "parser: unparseable record 2 (interaction 0 at byte 220: expected value at line 1 column 25 (value at byte 220)): {\"id\":\"y\",\"interactions\":[{\"humanMessage\":{\"text\":}}]}",
            "session start: account=https://sourcegraph.com/-a-b endpoint=https://sourcegraph.com/ username=a-b",
            "after the damage",
        ]
    );
    let record = &rows[3];
    assert_eq!(record.session_id, "Sat, 04 Oct 2026 10:00:00 GMT");
    assert_eq!(record.source_locator, "byte 220");
    assert_eq!(
        record.timestamp.unwrap().to_string(),
        "2026-10-04T10:00:00.000000Z"
    );
}

#[test]
fn a_history_that_is_not_an_object_is_one_row() {
    let rows = cody_history::history_rows_from_bytes(b"[]", "f", &FileContext::default());
    assert_eq!(
        texts(&rows),
        vec![
            "parser: cody-local-chatHistory-v2 is damaged; read 0 chat(s) (the history at byte 0 is not a JSON object)"
        ]
    );
}

#[test]
fn model_preferences_that_are_not_an_object() {
    let o = file_origin();
    assert_eq!(
        texts(&rows::model_preferences_file_rows(b"[1,2]", &o, "x", None)),
        vec!["parser: cody-model-preferences is not a JSON object"]
    );
    assert_eq!(
        texts(&rows::model_preferences_file_rows(b"null", &o, "x", None)),
        vec!["parser: cody-model-preferences is not a JSON object"]
    );
    assert_eq!(
        texts(&rows::model_preferences_file_rows(
            br#"{"https://sourcegraph.com/":{"sel"#,
            &o,
            "x",
            None
        )),
        vec![
            "parser: cody-model-preferences is not a JSON object (EOF while parsing a string at line 1 column 33 (value at byte 0))"
        ]
    );
}

#[test]
fn broken_settings_give_a_row_only_when_they_name_cody() {
    let o = file_origin();
    let rows = rows::settings_rows(
        b"{\n  \"cody.chat.agenticContext\": false,\n  \"env\": {\"T\": \"secret_tok\"",
        &o,
        "User/settings.json",
        None,
    );
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0]
            .text
            .starts_with("parser: settings.json is not a JSON object ("),
        "{}",
        rows[0].text
    );
    assert!(!rows[0].text.contains("secret_tok"));
    assert_eq!(
        rows::settings_rows(b"{\"editor.fontSize\": ", &o, "User/settings.json", None),
        vec![]
    );
    assert_eq!(
        texts(&rows::settings_rows(
            b"[\"cody.x\"]",
            &o,
            "User/settings.json",
            None
        )),
        vec!["parser: settings.json is not a JSON object"]
    );
}

#[test]
fn an_xml_file_with_no_element_is_reported_and_an_empty_one_is_not() {
    let h = LegacyHistory::from_bytes(b"<?xml version=\"1.0\"?>\n");
    assert_eq!(
        h.damage.unwrap().to_string(),
        "file ends at line 2 (byte 22) before any element"
    );
    assert_eq!(
        LegacyHistory::from_bytes(b"\n  \n"),
        LegacyHistory::default()
    );
    let rows = rows::legacy_rows(
        &LegacyHistory::from_bytes(b"<project><component name=\"ChatHistory\"><chats>"),
        "f",
        "/p",
        None,
    );
    assert_eq!(
        texts(&rows),
        vec![
            "parser: cody_history.xml did not parse; read 0 chat(s) (file ends at line 1 (byte 46) inside <chats>)"
        ]
    );
    assert_eq!(
        (rows[0].project_path.as_str(), rows[0].record_state),
        ("/p", RecordState::Secondary)
    );
}

#[test]
fn dirty_history_file() {
    let input = std::fs::read(fixture(ALICE_HISTORY)).unwrap();
    let report = Harness::new().run(&input, |b| {
        cody_history::history_rows_from_bytes(b, "f", &FileContext::default())
    });
    report.assert_no_panics();
    report.assert_peak_memory_below(PEAK);
    // every cut of a single JSON value leaves it incomplete
    report.assert_damage_reported(|m| matches!(*m, Mutation::Truncate(n) if n < input.len()));
}

#[test]
fn dirty_extension_value() {
    let input = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sourcegraph.cody-ai.json"
    ))
    .unwrap();
    let report = Harness::new().run(&input, |b| {
        cody_history::extension_state_rows(b, &file_origin(), None)
    });
    report.assert_no_panics();
    report.assert_peak_memory_below(PEAK);
    report.assert_damage_reported(|m| matches!(*m, Mutation::Truncate(n) if n < input.len()));
}

#[test]
fn dirty_model_preferences() {
    let input = std::fs::read(fixture(ALICE_PREFS)).unwrap();
    let report = Harness::new().run(&input, |b| {
        rows::model_preferences_file_rows(b, &file_origin(), "x", None)
    });
    report.assert_no_panics();
    report.assert_damage_reported(|m| matches!(*m, Mutation::Truncate(n) if n < input.len()));
}

#[test]
fn dirty_settings() {
    let input = std::fs::read(fixture(ALICE_SETTINGS)).unwrap();
    let last_brace = input.iter().rposition(|b| *b == b'}').unwrap();
    let first_cody = input.windows(5).position(|w| w == b"cody.").unwrap();
    let report = Harness::new().run(&input, |b| {
        rows::settings_rows(b, &file_origin(), "User/settings.json", None)
    });
    report.assert_no_panics();
    report.assert_damage_reported(
        |m| matches!(*m, Mutation::Truncate(n) if n > first_cody + 5 && n <= last_brace),
    );
}

#[test]
fn dirty_legacy_xml() {
    let input = std::fs::read(fixture(WEBAPP_XML)).unwrap();
    let end = input.windows(10).position(|w| w == b"</project>").unwrap() + 10;
    let report = Harness::new().run(&input, |b| {
        rows::legacy_rows(&LegacyHistory::from_bytes(b), "f", "/p", None)
    });
    report.assert_no_panics();
    report.assert_peak_memory_below(PEAK);
    report.assert_damage_reported(|m| truncated_before(&input, m, end));
}

#[test]
fn dirty_state_db() {
    let main = std::fs::read(fixture(DB)).unwrap();
    let wal = std::fs::read(fixture(&format!("{DB}-wal"))).unwrap();
    let store = cody_history::CodyStore;
    let parse = |p: &Path| store.read(p, &FileContext::default(), &Evidence::new());
    let small = Harness::new().truncations(16).flips(16).splices(8);
    // damage to the main file, then to the WAL
    small
        .run_files(&main, "state.vscdb", &[("state.vscdb-wal", &wal)], parse)
        .assert_no_panics();
    let report = small.run_files(&wal, "state.vscdb-wal", &[("state.vscdb", &main)], |p| {
        parse(&p.with_file_name("state.vscdb"))
    });
    report.assert_no_panics();
    report.assert_peak_memory_below(PEAK);
}

/// Every token string the fixtures hold.
const SECRETS: &[&str] = &[
    "ghp_fixtureArgsTokenDoNotEmit0000000000",
    "ghp_fixtureEnvTokenDoNotEmit00000000000",
    "fixture_url_token_do_not_emit",
    "fixture_header_token_do_not_emit",
    "sgp_fixture_secret_token_do_not_emit",
];

#[test]
fn no_secret_reaches_any_row() {
    let store = cody_history::CodyStore;
    let evidence = Evidence::new();
    let mut rows = Vec::new();
    let mut files = 0;
    let mut stack = vec![evidence_root()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if store.claim(&p).is_some() {
                files += 1;
                let ctx = FileContext {
                    display_path: p.display().to_string(),
                    ..FileContext::default()
                };
                rows.extend(store.read(&p, &ctx, &evidence));
            }
        }
    }
    assert!(files >= 8, "{files}");
    let out: String = rows
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    assert!(out.contains("permission setting: cody.mcpServers.github.disabledTools"));
    for s in SECRETS {
        assert!(!out.contains(s), "{s} leaked");
    }
    // the fixtures do hold them, so the test can fail
    let settings = std::fs::read_to_string(fixture(ALICE_SETTINGS)).unwrap();
    assert!(SECRETS[..4].iter().all(|s| settings.contains(s)));
}

#[test]
fn dirty_every_cody_text_fixture() {
    let fixtures = [
        ALICE_HISTORY,
        ALICE_PREFS,
        ALICE_SETTINGS,
        WEBAPP_XML,
        "lin-ws01/home/alice/src/api/.idea/cody_history.xml",
        "WIN-DESK03/C/Users/carol/AppData/Local/Cody-nodejs/Data/JetBrains-globalState/cody-local-chatHistory-v2",
        "WIN-DESK03/C/Users/carol/AppData/Local/Cody-nodejs/Data/JetBrains-globalState/cody-model-preferences",
    ];
    for rel in fixtures {
        let path = fixture(rel);
        let kind = cody_history::locate::kind(&path).unwrap();
        let input = std::fs::read(&path).unwrap();
        let ctx = FileContext::default();
        let report = Harness::new()
            .truncations(32)
            .flips(32)
            .splices(16)
            .run(&input, |b| {
                cody_history::file_rows(kind, b, rel, &ctx, None)
            });
        report.assert_no_panics();
        report.assert_peak_memory_below(PEAK);
        // the cut fixtures report damage whatever is cut off them
        if rel.contains("api/")
            || rel.contains("carol/AppData/Local/Cody-nodejs/Data/JetBrains-globalState/cody-local")
        {
            report.assert_damage_reported(|m| matches!(*m, Mutation::Truncate(n) if n > 0));
        }
    }
}

/// A row as `time|session|turn|model|text|line|locator|state|secondary`.
fn full(r: &Row) -> String {
    format!(
        "{}|{}|{}|{}|{}|{}|{}|{}|{}",
        r.timestamp.map(|t| t.to_string()).unwrap_or_default(),
        r.session_id,
        r.turn_type,
        r.model,
        r.text,
        r.source_line.map(|l| l.to_string()).unwrap_or_default(),
        r.source_locator,
        r.record_state,
        r.secondary
    )
}

/// The audit's c5: interaction 2 of 3 holds an invalid escape inside its text, the
/// structure around it intact. The reading stopped there and interaction 3 gave no row;
/// now the damaged interaction is the chat's one `parser:` row, in its place, and the
/// reading goes on with interaction 3.
#[test]
fn an_interaction_damaged_inside_a_string_does_not_cost_the_ones_after_it() {
    let v = br#"{"https://sourcegraph.com/-alice":{"chat":{"Fri, 03 Oct 2026 10:00:00 GMT":{"id":"Fri, 03 Oct 2026 10:00:00 GMT","interactions":[{"humanMessage":{"speaker":"human","text":"first"},"assistantMessage":{"speaker":"assistant","text":"a1","model":"m"}},{"humanMessage":{"speaker":"human","text":"bad\q"},"assistantMessage":null},{"humanMessage":{"speaker":"human","text":"third prompt after damage"},"assistantMessage":{"speaker":"assistant","text":"a3","model":"m"}}],"lastInteractionTimestamp":"Fri, 03 Oct 2026 10:00:00 GMT"}}}}"#;
    let rows = cody_history::history_rows_from_bytes(v, "f", &FileContext::default());
    let (t, s) = (
        "2026-10-03T10:00:00.000000Z",
        "Fri, 03 Oct 2026 10:00:00 GMT",
    );
    // the chat's record, quoted as every such row quotes it (cut, with its length)
    let record = chat_rows::system::quote(&String::from_utf8_lossy(&v[75..v.len() - 3]));
    assert!(record.ends_with("\"lastIntera… [448 bytes in all]"));
    assert_eq!(
        rows.iter().map(full).collect::<Vec<_>>(),
        [
            format!(
                "{t}|{s}|system||session start: account=https://sourcegraph.com/-alice endpoint=https://sourcegraph.com/ username=alice|1|byte 75|live|false"
            ),
            format!("{t}|{s}|user|m|first|1|byte 129|live|false"),
            format!("{t}|{s}|system|m|model: m|1|byte 129|live|false"),
            format!("{t}|{s}|assistant|m|a1|1|byte 129|live|false"),
            format!(
                "{t}|{s}|system||parser: unparseable record 1 (interaction 1 at byte 248: invalid escape at line 1 column 48 (value at byte 248)): {record}|1|byte 248|live|false"
            ),
            format!("{t}|{s}|user|m|third prompt after damage|1|byte 324|live|false"),
            format!("{t}|{s}|assistant|m|a3|1|byte 324|live|false"),
        ]
    );
    assert_eq!(&v[248..263], br#"{"humanMessage""#);
}

/// Two interactions damaged inside strings: a `parser:` row for each, in place (the
/// second quotes its own interaction); damage to an interaction's structure (a missing
/// comma) still stops the reading there, since where the interaction ends is unknown.
#[test]
fn each_string_damaged_interaction_is_reported_and_structural_damage_stops() {
    let chat = |i2: &str, i4: &str| {
        format!(
            r#"{{"e/-u":{{"chat":{{"Fri, 03 Oct 2026 10:00:00 GMT":{{"interactions":[{{"humanMessage":{{"text":"one"}}}},{i2},{{"humanMessage":{{"text":"three"}}}},{i4},{{"humanMessage":{{"text":"five"}}}}]}}}}}}}}"#
        )
    };
    let both = chat(
        r#"{"humanMessage":{"text":"two\x"}}"#,
        "{\"humanMessage\":{\"text\":\"four\u{1}\"}}",
    );
    let rows = cody_history::history_rows_from_bytes(both.as_bytes(), "f", &FileContext::default());
    let (t, s) = (
        "2026-10-03T10:00:00.000000Z",
        "Fri, 03 Oct 2026 10:00:00 GMT",
    );
    let record = &both[49..both.len() - 3];
    let fourth = "{\"humanMessage\":{\"text\":\"four\u{1}\"}}";
    assert_eq!(&both[166..166 + fourth.len()], fourth);
    assert_eq!(
        rows.iter().map(full).collect::<Vec<_>>(),
        [
            format!(
                "{t}|{s}|system||session start: account=e/-u endpoint=e/ username=u|1|byte 49|live|false"
            ),
            format!("{t}|{s}|user||one|1|byte 66|live|false"),
            format!(
                "{t}|{s}|system||parser: unparseable record 1 (interaction 1 at byte 98: invalid escape at line 1 column 30 (value at byte 98)): {record}|1|byte 98|live|false"
            ),
            format!("{t}|{s}|user||three|1|byte 132|live|false"),
            format!(
                "{t}|{s}|system||parser: unparseable record 1 (interaction 3 at byte 166: control character (\\u0000-\\u001F) found while parsing a string at line 1 column 30 (value at byte 166)): {fourth}|1|byte 166|live|false"
            ),
            format!("{t}|{s}|user||five|1|byte 200|live|false"),
        ]
    );
    let broken = chat(
        r#"{"humanMessage":{"text":"two" "x"}}"#,
        r#"{"humanMessage":{"text":"four"}}"#,
    );
    let rows =
        cody_history::history_rows_from_bytes(broken.as_bytes(), "f", &FileContext::default());
    assert_eq!(
        texts(&rows)[1..],
        [
            "one".to_string(),
            format!(
                "parser: unparseable record 1 (interaction 1 at byte 98: expected `,` or `}}` at line 1 column 31 (value at byte 98)): {}",
                &broken[49..broken.len() - 3]
            ),
        ]
    );
}

/// Going on past string damage costs one copy of each damaged interaction: 20,000
/// damaged interactions between 20,000 good ones are each reported once, in a linear pass.
#[test]
fn thousands_of_string_damaged_interactions_are_each_reported_once() {
    let n = 20_000;
    let mut items = Vec::with_capacity(2 * n);
    for i in 0..n {
        items.push(format!(r#"{{"humanMessage":{{"text":"good {i}"}}}}"#));
        items.push(format!(r#"{{"humanMessage":{{"text":"bad {i} \q"}}}}"#));
    }
    let v = format!(
        r#"{{"e/-u":{{"chat":{{"Fri, 03 Oct 2026 10:00:00 GMT":{{"interactions":[{}]}}}}}}}}"#,
        items.join(",")
    );
    let started = std::time::Instant::now();
    let rows = cody_history::history_rows_from_bytes(v.as_bytes(), "f", &FileContext::default());
    let elapsed = started.elapsed();
    let users = rows.iter().filter(|r| r.text.starts_with("good ")).count();
    let parsers = rows.iter().filter(|r| r.is_parser()).count();
    assert_eq!((rows.len(), users, parsers), (1 + 2 * n, n, n));
    // in place: every good interaction's row is followed by its damaged neighbour's
    assert!(
        rows[1..]
            .chunks(2)
            .all(|p| !p[0].is_parser() && p[1].is_parser())
    );
    assert!(elapsed.as_secs() < 60, "{elapsed:?}");
}

/// In a chat that decodes, an interaction that is not an object was passed over with
/// only the first reported, at the chat's end: each is reported now, in its place.
#[test]
fn every_interaction_that_is_not_an_object_is_reported_in_place() {
    let v = br#"{"e/-u":{"chat":{"Fri, 03 Oct 2026 10:00:00 GMT":{"interactions":[{"humanMessage":{"text":"one"}},5,{"humanMessage":{"text":"three"}},"x",{"humanMessage":{"text":"five"}}]}}}}"#;
    let rows = cody_history::history_rows_from_bytes(v, "f", &FileContext::default());
    let (t, s) = (
        "2026-10-03T10:00:00.000000Z",
        "Fri, 03 Oct 2026 10:00:00 GMT",
    );
    assert_eq!(
        rows.iter().map(full).collect::<Vec<_>>(),
        [
            format!(
                "{t}|{s}|system||session start: account=e/-u endpoint=e/ username=u|1|byte 49|live|false"
            ),
            format!("{t}|{s}|user||one|1|byte 66|live|false"),
            format!(
                "{t}|{s}|system||parser: unparseable record 1 (interaction 1 at byte 98: an interaction at byte 98 is not a JSON object): 5,{{\"humanMessage\":{{\"text\":\"three\"}}}},\"x\",{{\"humanMessage\":{{\"text\":\"five\"}}}}]}}}}}}}}|1|byte 98|live|false"
            ),
            format!("{t}|{s}|user||three|1|byte 100|live|false"),
            format!(
                "{t}|{s}|system||parser: unparseable record 1 (interaction 3 at byte 134: an interaction at byte 134 is not a JSON object): \"x\",{{\"humanMessage\":{{\"text\":\"five\"}}}}]}}}}}}}}|1|byte 134|live|false"
            ),
            format!("{t}|{s}|user||five|1|byte 138|live|false"),
        ]
    );
}
