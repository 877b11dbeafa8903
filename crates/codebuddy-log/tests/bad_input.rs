//! Bad input costs only itself: exact parser rows, and the dirty-input harness.
mod common;

use chat_rows::Row;
use chat_rows::dirty::{Harness, cuts_inside_a_line};
use codebuddy_log::{MapOptions, Persisted, PersistedPointer, SessionLog, session_rows};
use common::*;

fn rows_of(bytes: &[u8]) -> Vec<Row> {
    let log = SessionLog::from_bytes(bytes);
    let lookup = |_: &PersistedPointer| Persisted::Missing {
        reason: "not in the evidence".into(),
    };
    let opts = MapOptions {
        source_file: "s.jsonl",
        session_id: "s",
        subagent: false,
        folder_session_id: "s",
        persisted: &lookup,
    };
    session_rows(&log, &opts)
}

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(evidence_root().join(rel)).unwrap()
}

#[test]
fn exact_rows_for_bad_lines() {
    let input: Vec<u8> = [
        &b"{\"id\":\"a\",\"timestamp\":1780000000000,\"type\":\"message\",\"role\":\"user\",\"content\":\"hi\"}\n"[..],
        b"{\"id\":\"b\",\"type\":\"message\",\"content\":\"\xff\"}\n",
        b"[1,2]\n",
        b"\n",
        b"{\"id\":\"c\",\"parentId\":\"b\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"yo\"}]}\n",
        b"{\"id\":\"d\",\"parentId\":\"c\",\"type\":\"mess",
    ]
    .concat();
    let rendered: Vec<String> = rows_of(&input)
        .iter()
        .map(|r| {
            format!(
                "{}|{}|{}|{}",
                r.source_line.unwrap_or(0),
                r.source_locator,
                r.turn_type,
                r.text
            )
        })
        .collect();
    assert_eq!(
        rendered,
        vec![
            "1|byte 0|system|session title: hi (from first prompt)",
            "1|byte 0|user|hi",
            "2|byte 83|system|parser: unparseable line (invalid UTF-8 at byte 38 of the line): {\"id\":\"b\",\"type\":\"message\",\"content\":\"\u{fffd}\"}",
            "3|byte 125|system|parser: unparseable line (not a JSON object): [1,2]",
            "5|byte 132|assistant|yo",
            "5|byte 132|system|link: parentId b is on unreadable line 2",
            "6|byte 241|system|parser: unparseable line (torn last line: EOF while parsing a string at line 1 column 37): {\"id\":\"d\",\"parentId\":\"c\",\"type\":\"mess",
        ]
    );
}

#[test]
fn a_broken_middle_line_costs_only_itself() {
    let good = fixture(&lin_session());
    // damage line 4 (the first Bash call) in place
    let text = String::from_utf8(good.clone()).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut damaged = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i == 3 {
            damaged.push_str(&l.replacen(
                "\"type\":\"function_call\"",
                "\"type\"=\"function_call\"",
                1,
            ));
        } else {
            damaged.push_str(l);
        }
    }
    let before = rows_of(&good);
    let after = rows_of(damaged.as_bytes());
    let not_line_4 = |rows: &[Row]| -> Vec<Row> {
        rows.iter()
            .filter(|r| r.source_line != Some(4))
            .cloned()
            .collect()
    };
    let mut expected = not_line_4(&before);
    // the two links to the lost record now say where it went
    let extra: Vec<String> = not_line_4(&after)
        .into_iter()
        .filter(|r| !expected.contains(r))
        .map(|r| format!("{}|{}", r.source_line.unwrap_or(0), r.text))
        .collect();
    assert_eq!(
        extra,
        vec![
            "5|link: tool result call_bash_1 has its call on unreadable line 4",
            "5|link: parentId fc1 is on unreadable line 4",
        ]
    );
    expected.retain(|r| after.contains(r));
    assert_eq!(
        expected.len(),
        not_line_4(&before).len(),
        "every other row survives"
    );
    let line4: Vec<String> = after
        .iter()
        .filter(|r| r.source_line == Some(4))
        .map(|r| r.text.chars().take(60).collect())
        .collect();
    assert_eq!(
        line4,
        vec!["parser: unparseable line (expected `:` at line 1 column 61):"]
    );
}

#[test]
fn dirty_input_harness_on_every_fixture_session() {
    for rel in [
        lin_session(),
        lin_subagent(),
        MAC_SESSION.to_string(),
        WIN_SESSION.to_string(),
    ] {
        let input = fixture(&rel);
        let report = Harness::new().run(&input, rows_of);
        report.assert_no_panics();
        report.assert_damage_reported(|m| cuts_inside_a_line(&input, m));
        report.assert_peak_memory_below(1 << 30);
        assert!(
            report.reported() > 30,
            "{rel}: only {} damaged variants reported",
            report.reported()
        );
    }
}

#[test]
fn dirty_input_harness_through_the_store_with_side_files() {
    use chat_rows::{Evidence, FileContext, Store};
    let dir = format!("{LIN_PROJECT}/{LIN_SESSION}");
    let meta = fixture(&format!("{dir}/subagents/agent-5e1f0c2a.meta.json"));
    let session_meta = fixture(&format!("{LIN_PROJECT}/{LIN_SESSION}.meta.json"));
    let persisted = fixture(&format!("{dir}/tool-results/call_read_1.txt"));
    let session = fixture(&lin_session());
    let store = codebuddy_log::CodeBuddyStore;
    let read = |p: &std::path::Path| store.read(p, &FileContext::default(), &Evidence::new());
    let base = ".codebuddy/projects/home-u-shop";
    let sid = LIN_SESSION;
    // the session, with its meta and persisted output beside it
    let report = Harness::new()
        .truncations(16)
        .flips(16)
        .splices(8)
        .run_files(
            &session,
            &format!("{base}/{sid}.jsonl"),
            &[
                (&format!("{base}/{sid}.meta.json"), &session_meta),
                (
                    &format!("{base}/{sid}/tool-results/call_read_1.txt"),
                    &persisted,
                ),
            ],
            read,
        );
    report.assert_no_panics();
    report.assert_damage_reported(|m| cuts_inside_a_line(&session, m));
    // the sub-agent meta file, damaged, beside an intact sub-agent session
    let sub = fixture(&lin_subagent());
    let report = Harness::new()
        .truncations(16)
        .flips(16)
        .splices(8)
        .run_files(
            &meta,
            &format!("{base}/{sid}/subagents/agent-5e1f0c2a.meta.json"),
            &[(
                &format!("{base}/{sid}/subagents/agent-5e1f0c2a.jsonl"),
                &sub,
            )],
            |p| read(&p.with_file_name("agent-5e1f0c2a.jsonl")),
        );
    report.assert_no_panics();
    // a truncated meta file is never valid JSON: it must be said
    report.assert_damage_reported(
        |m| matches!(m, chat_rows::dirty::Mutation::Truncate(n) if *n < meta.len() - 1),
    );
}

/// A session file that cannot be opened (here: over a 1 KB size cap) still has what its
/// side files hold read: the session's meta and both persisted outputs, which no
/// readable line points to; a sub-agent's meta header (before, one `parser:` row each).
#[test]
fn an_unreadable_session_file_keeps_its_side_files() {
    use chat_rows::{Evidence, FileContext, Store};
    let root = evidence_root();
    let read = |rel: &str| -> Vec<String> {
        let evidence = Evidence::new().roots([&root]).max_size(1024);
        codebuddy_log::CodeBuddyStore
            .read(&root.join(rel), &FileContext::default(), &evidence)
            .iter()
            .map(|r| {
                format!(
                    "{}|{}|{}|{}",
                    r.session_id, r.turn_type, r.source_locator, r.text
                )
            })
            .collect()
    };
    let main = read(&lin_session());
    assert_eq!(main.len(), 6, "{main:#?}");
    assert!(
        main[0].starts_with(&format!("{LIN_SESSION}|system||parser: ")),
        "{main:#?}"
    );
    assert!(
        main[1].starts_with(&format!("{LIN_SESSION}|system|whole file|session meta: ")),
        "{main:#?}"
    );
    assert_eq!(
        main[2..]
            .iter()
            .filter(|r| r.contains("is not pointed to by any readable line"))
            .count(),
        2,
        "{main:#?}"
    );
    let agent = read(&lin_subagent());
    assert_eq!(agent.len(), 2, "{agent:#?}");
    assert!(
        agent[0].starts_with("agent-5e1f0c2a|system||parser: "),
        "{agent:#?}"
    );
    assert!(
        agent[1].contains("|system|whole file|session start: parent="),
        "{agent:#?}"
    );
}
